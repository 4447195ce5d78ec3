/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vcpufreq.h - the platform vcpufreq emulates (platform.c) as the driver
 * (vcpufreq.c) uses it.
 */
#ifndef _UTILTRACK_VCPUFREQ_H
#define _UTILTRACK_VCPUFREQ_H

#include <linux/cpufreq.h>
#include <linux/cpumask.h>
#include <utiltrack/opp.h>

/* One cpufreq policy: its CPUs, OPP table and power at each OPP. */
struct vcf_cluster {
	struct cpumask cpus;
	unsigned int nr_opp;
	struct ut_opp opp[UT_OPP_MAX];
	u64 power_uw[UT_OPP_MAX];
	u32 power_coeff;
	struct cpufreq_frequency_table table[UT_OPP_MAX + 1];
};

/*
 * What the parameters say. On a device-tree platform a parameter given
 * other than its default overrides the tree (the *_given flags).
 */
struct vcf_platform_params {
	const char *opps;		/* kHz list */
	const char *volts;		/* mV list, NULL: linear default */
	unsigned int cluster_size;
	unsigned int power_coeff;
	bool opps_given, cluster_given, coeff_given;
	bool use_dt;
};

int vcf_platform_init(const struct vcf_platform_params *p);
void vcf_platform_exit(void);
struct vcf_cluster *vcf_cluster_of(unsigned int cpu);
const char *vcf_platform_source(void);

extern struct vcf_cluster *vcf_clusters;
extern unsigned int vcf_nr_clusters;

static inline u32 vcf_cluster_fmax(const struct vcf_cluster *cl)
{
	return cl->opp[cl->nr_opp - 1].khz;
}

#endif /* _UTILTRACK_VCPUFREQ_H */
