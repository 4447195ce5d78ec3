/* SPDX-License-Identifier: GPL-2.0 */
/*
 * compat/cpufreq.h - schedutil's mapping as the running kernel does it.
 *
 * The governor mirrors the kernel's own schedutil so that signal=pelt
 * and schedutil differ by the signal only. For a signal that is not
 * frequency-invariant, schedutil scales the current frequency: up to
 * 6.7 by util/capacity with the 1.25 headroom; since 6.8 (the fixed
 * reference frequency, get_capacity_ref_freq()) the reference itself
 * is cur + cur/4, so the headroom applies twice - but never past
 * capacity: util plus the margin is capped at it before the mapping.
 */
#ifndef _UTILTRACK_COMPAT_CPUFREQ_H
#define _UTILTRACK_COMPAT_CPUFREQ_H

#include <linux/cpufreq.h>
#include <utiltrack/freq.h>
#include "version.h"

static inline unsigned int ut_sugov_noninvariant_ref(unsigned int cur)
{
#if UT_KERNEL_GE(6, 8, 0)
	return cur + (cur >> 2);
#else
	return cur;
#endif
}

/*
 * The mapping from util to a frequency request: since 6.8 the margin is
 * added to util and capped at capacity first (sugov_effective_cpu_perf()).
 */
static inline u32 ut_sugov_map(u32 util, u32 ref_khz, u32 cap, u32 headroom)
{
#if UT_KERNEL_GE(6, 8, 0)
	return ut_freq_map_capped(util, ref_khz, cap, headroom);
#else
	return ut_freq_map(util, ref_khz, cap, headroom);
#endif
}

/*
 * Schedutil raises CFS util to the cfs_rq's runnable average since 6.5
 * ("runnable boosting", cpu_util_cfs_boost()); the governor's
 * runnable_boost defaults to the running kernel's behaviour.
 */
#if UT_KERNEL_GE(6, 5, 0)
#define UT_SUGOV_RUNNABLE_BOOST	1
#else
#define UT_SUGOV_RUNNABLE_BOOST	0
#endif

/*
 * OPPs the energy model marks inefficient, which CPUFREQ_RELATION_E
 * (schedutil's resolution since 5.16) skips where the policy has them.
 */
#ifdef CPUFREQ_INEFFICIENT_FREQ
static inline bool ut_policy_efficiencies(struct cpufreq_policy *policy)
{
	return policy->efficiencies_available;
}

static inline bool ut_opp_inefficient(struct cpufreq_frequency_table *pos)
{
	return pos->flags & CPUFREQ_INEFFICIENT_FREQ;
}
#else
static inline bool ut_policy_efficiencies(struct cpufreq_policy *policy)
{
	return false;
}

static inline bool ut_opp_inefficient(struct cpufreq_frequency_table *pos)
{
	return false;
}
#endif

/*
 * The lowest OPP at or above @freq. The helper gained its efficiencies
 * argument in 5.16; a driver without an energy model has none to skip.
 */
static inline int ut_cpufreq_find_index_l(struct cpufreq_policy *policy,
					  unsigned int freq)
{
#if UT_KERNEL_GE(5, 16, 0)
	return cpufreq_table_find_index_l(policy, freq, false);
#else
	return cpufreq_table_find_index_l(policy, freq);
#endif
}

/*
 * The tunables set around @kobj. cpufreq.h has this helper only since
 * 5.15, so it is spelled here once for every kernel.
 */
static inline struct gov_attr_set *ut_to_gov_attr_set(struct kobject *kobj)
{
	return container_of(kobj, struct gov_attr_set, kobj);
}

#endif /* _UTILTRACK_COMPAT_CPUFREQ_H */
