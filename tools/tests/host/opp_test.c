// SPDX-License-Identifier: GPL-2.0
/*
 * opp_test.c - the OPP parser and power model that vet vcpufreq's
 * parameters, tested on the host build of module/core/opp.c.
 */
#include <string.h>
#include <utiltrack/opp.h>
#include "ut_test.h"

static int parse(const char *s, u32 *v, unsigned int *n)
{
	return ut_opp_parse_list(s, v, UT_OPP_MAX, n);
}

UT_TEST(opp_parse_commas_and_blanks)
{
	u32 v[UT_OPP_MAX];
	unsigned int n = 0;

	UT_EXPECT_EQ(parse("500000,800000, 1000000\n", v, &n), 0);
	UT_EXPECT_EQ(n, 3);
	UT_EXPECT_EQ(v[0], 500000);
	UT_EXPECT_EQ(v[2], 1000000);
}

UT_TEST(opp_parse_rejects_garbage)
{
	static const char * const bad[] = {
		"", " ", ",", "abc", "500000,x", "-5", "12a", "1.5", "0x10",
	};
	u32 v[UT_OPP_MAX];
	unsigned int n, i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		UT_EXPECT_EQ(parse(bad[i], v, &n), -EINVAL);
}

UT_TEST(opp_parse_overflow_and_too_many)
{
	char many[256] = "";
	u32 v[UT_OPP_MAX];
	unsigned int n, i;

	UT_EXPECT_EQ(parse("4294967295", v, &n), 0);
	UT_EXPECT_EQ(v[0], 4294967295u);
	UT_EXPECT_EQ(parse("4294967296", v, &n), -ERANGE);
	UT_EXPECT_EQ(parse("99999999999999999999999", v, &n), -ERANGE);
	for (i = 0; i < UT_OPP_MAX + 1; i++)
		strcat(many, "100000,");
	UT_EXPECT_EQ(parse(many, v, &n), -E2BIG);
}

UT_TEST(opp_build_default_voltage_ramp)
{
	const u32 khz[] = { 500000, 1250000, 2000000 };
	struct ut_opp t[UT_OPP_MAX];
	const char *why = NULL;

	UT_EXPECT_EQ(ut_opp_build(t, khz, 3, NULL, 0, &why), 0);
	UT_EXPECT_EQ(t[0].mv, 600);
	UT_EXPECT_EQ(t[1].mv, 850);
	UT_EXPECT_EQ(t[2].mv, 1100);
}

UT_TEST(opp_build_rejects_bad_tables)
{
	const u32 one[] = { 500000 };
	const u32 desc[] = { 800000, 500000 };
	const u32 dup[] = { 500000, 500000 };
	const u32 low[] = { 5000, 500000 };
	const u32 ok[] = { 500000, 800000 };
	const u32 mv_dec[] = { 900, 800 };
	const u32 mv_low[] = { 100, 800 };
	struct ut_opp t[UT_OPP_MAX];
	const char *why;

	UT_EXPECT_EQ(ut_opp_build(t, one, 1, NULL, 0, &why), -EINVAL);
	UT_EXPECT_EQ(ut_opp_build(t, desc, 2, NULL, 0, &why), -EINVAL);
	UT_EXPECT_EQ(ut_opp_build(t, dup, 2, NULL, 0, &why), -EINVAL);
	UT_EXPECT_EQ(ut_opp_build(t, low, 2, NULL, 0, &why), -EINVAL);
	UT_EXPECT_EQ(ut_opp_build(t, ok, 2, mv_dec, 2, &why), -EINVAL);
	UT_EXPECT_EQ(ut_opp_build(t, ok, 2, mv_low, 2, &why), -EINVAL);
	UT_EXPECT_EQ(ut_opp_build(t, ok, 2, mv_dec, 1, &why), -EINVAL);
	why = NULL;
	UT_EXPECT_EQ(ut_opp_build(t, ok, 2, NULL, 0, &why), 0);
	UT_EXPECT(why == NULL);
}

UT_TEST(opp_power_is_c_v2_f)
{
	/* 400 uW/MHz/V^2 * (1.1 V)^2 * 2000 MHz = 968000 uW */
	struct ut_opp o = { .khz = 2000000, .mv = 1100 };

	UT_EXPECT_EQ(ut_opp_power_uw(400, &o), 968000);
	/* the extreme table corner stays exact: no overflow */
	o.khz = UT_OPP_KHZ_MAX;
	o.mv = UT_OPP_MV_MAX;
	UT_EXPECT_EQ(ut_opp_power_uw(65535, &o), 65535ull * 4 * 10000);
}

UT_TEST(opp_energy_integrates_power)
{
	/* 1 W for 1 s is 1 J */
	UT_EXPECT_EQ(ut_opp_energy_uj(1000000000ull, 1000000), 1000000);
	/* an hour at 5 W does not overflow */
	UT_EXPECT_EQ(ut_opp_energy_uj(3600ull * 1000000000ull, 5000000),
		     18000000000ull);
	UT_EXPECT_EQ(ut_opp_energy_uj(999, 1000000), 0);
}
