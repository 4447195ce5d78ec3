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

#endif /* _UTILTRACK_COMPAT_CPUFREQ_H */
