/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sched.h - differences in the task state the probes read.
 */
#ifndef _UTILTRACK_COMPAT_SCHED_H
#define _UTILTRACK_COMPAT_SCHED_H

#include <linux/sched.h>
#include <linux/sched/isolation.h>
#include "compat/version.h"

/*
 * Is @p still queued after it was switched out, i.e. preempted rather
 * than gone to sleep? on_rq says so, except that since 6.12 EEVDF keeps a
 * sleeping task with negative lag queued ("delayed dequeue") until its
 * lag is spent: that task sleeps.
 */
static inline bool ut_task_queued(struct task_struct *p)
{
#if UT_KERNEL_GE(6, 12, 0)
	if (READ_ONCE(p->se.sched_delayed))
		return false;
#endif
	return READ_ONCE(p->on_rq);
}

/*
 * SCHED_FLAG_SUGOV, private to kernel/sched/sched.h: the flag schedutil
 * gives its worker (a DL entity without bandwidth, see
 * dl_entity_is_special()). The same value since it appeared in 4.16;
 * only sched_setattr_nocheck() accepts it.
 */
#define UT_SCHED_FLAG_SUGOV	0x10000000

/*
 * May utiltrack put a periodic interrupt on @cpu? Not on a nohz_full CPU
 * (it exists to run one task without ticks) nor an isolated one
 * (isolcpus=, kept free of housekeeping). The housekeeping types were
 * flags before 5.18.
 */
static inline bool ut_cpu_housekeeping(int cpu)
{
#if UT_KERNEL_GE(5, 18, 0)
	return housekeeping_cpu(cpu, HK_TYPE_TICK) &&
	       housekeeping_cpu(cpu, HK_TYPE_DOMAIN);
#else
	return housekeeping_cpu(cpu, HK_FLAG_TICK) &&
	       housekeeping_cpu(cpu, HK_FLAG_DOMAIN);
#endif
}

#endif /* _UTILTRACK_COMPAT_SCHED_H */
