/* SPDX-License-Identifier: GPL-2.0 */
/*
 * opp.h - operating-point tables and the power model of emulated platforms.
 *
 * Plain C (see shim.h): shared by vcpufreq.ko, the KUnit suites and the
 * host unit tests.
 */
#ifndef _UTILTRACK_OPP_H
#define _UTILTRACK_OPP_H

#include <utiltrack/shim.h>

#define UT_OPP_MAX		16	/* entries in one table */
#define UT_OPP_MIN		2
#define UT_OPP_KHZ_MIN		10000U		/* 10 MHz */
#define UT_OPP_KHZ_MAX		10000000U	/* 10 GHz */
#define UT_OPP_MV_MIN		300U
#define UT_OPP_MV_MAX		2000U

struct ut_opp {
	u32 khz;	/* frequency */
	u32 mv;		/* supply voltage at that frequency */
};

int ut_opp_parse_list(const char *s, u32 *out, unsigned int max,
		      unsigned int *n);
int ut_opp_build(struct ut_opp *opp, const u32 *khz, unsigned int nr_khz,
		 const u32 *mv, unsigned int nr_mv, const char **why);
u64 ut_opp_power_uw(u32 coeff, const struct ut_opp *opp);
u64 ut_opp_energy_uj(u64 ns, u64 power_uw);

#endif /* _UTILTRACK_OPP_H */
