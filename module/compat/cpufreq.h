/* SPDX-License-Identifier: GPL-2.0 */
/*
 * compat/cpufreq.h - schedutil's mapping as the running kernel does it.
 *
 * The governor mirrors the kernel's own schedutil so that signal=pelt
 * and schedutil differ by the signal only. For a signal that is not
 * frequency-invariant, schedutil scales the current frequency: up to
 * 6.7 by util/capacity with the 1.25 headroom; since 6.8 (the fixed
 * reference frequency, get_capacity_ref_freq()) the reference itself
 * is cur + cur/4, so the headroom applies twice.
 */
#ifndef _UTILTRACK_COMPAT_CPUFREQ_H
#define _UTILTRACK_COMPAT_CPUFREQ_H

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
 * Schedutil raises CFS util to the cfs_rq's runnable average since 6.5
 * ("runnable boosting", cpu_util_cfs_boost()); the governor's
 * runnable_boost defaults to the running kernel's behaviour.
 */
#if UT_KERNEL_GE(6, 5, 0)
#define UT_SUGOV_RUNNABLE_BOOST	1
#else
#define UT_SUGOV_RUNNABLE_BOOST	0
#endif

#endif /* _UTILTRACK_COMPAT_CPUFREQ_H */
