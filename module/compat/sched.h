/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sched.h - differences in the task state the probes read, and in the
 * scheduling class the governor's worker can be given.
 */
#ifndef _UTILTRACK_COMPAT_SCHED_H
#define _UTILTRACK_COMPAT_SCHED_H

#include <linux/sched.h>
#include <linux/sched/clock.h>
#include <linux/sched/isolation.h>
#include <linux/sched/prio.h>
#include <uapi/linux/sched/types.h>
#include <utiltrack/util_est.h>
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
 * @cpu's sched_clock. sched_clock_cpu() is exported only where the
 * architecture's clock may be unstable (x86); elsewhere (arm64) there is
 * one global sched_clock, which local_clock() reads.
 */
static inline u64 ut_sched_clock_cpu(int cpu)
{
#ifdef CONFIG_HAVE_UNSTABLE_SCHED_CLOCK
	return sched_clock_cpu(cpu);
#else
	return local_clock();
#endif
}

/* @p's state word, renamed __state in 5.14 */
#if UT_KERNEL_GE(5, 14, 0)
#define ut_task_state(p) ((p)->__state)
#else
#define ut_task_state(p) ((p)->state)
#endif

/* Is @p switching out for the last time (do_task_dead())? */
static inline bool ut_task_dead(struct task_struct *p)
{
	return READ_ONCE(ut_task_state(p)) == TASK_DEAD;
}

/*
 * SCHED_FLAG_SUGOV, private to kernel/sched/sched.h: the flag schedutil
 * gives its worker (a DL entity without bandwidth, see
 * dl_entity_is_special()). The same value since it appeared in 4.16;
 * only sched_setattr_nocheck() accepts it.
 */
#define UT_SCHED_FLAG_SUGOV	0x10000000

enum { UT_GOV_WORKER_SUGOV, UT_GOV_WORKER_NORMAL };

/*
 * Give @p, a governor worker, schedutil's worker class: the special
 * SCHED_DEADLINE entity (module/governor.c says why). The call that
 * takes the flag is exported since 5.14 (Kbuild tests the exports, as a
 * vendor kernel may have it earlier). Without it the worker runs
 * SCHED_NORMAL at the highest priority, not SCHED_FIFO: an RT worker
 * would be RT running time in the very signals it serves (under
 * rt_policy=max, fmax at each of its runs). The price: an RT hog can
 * delay it, its short runs are CFS time in the cfs and walt signals,
 * and its enqueues kick cpufreq_update_util() as any CFS task's do.
 * Returns which class @p got, or a negative errno.
 */
static inline int ut_sched_set_gov_worker(struct task_struct *p)
{
#ifdef UT_HAVE_SCHED_SETATTR_NOCHECK
	struct sched_attr attr = {
		.size		= sizeof(attr),
		.sched_policy	= SCHED_DEADLINE,
		.sched_flags	= UT_SCHED_FLAG_SUGOV,
		.sched_runtime	= 1 * NSEC_PER_MSEC,
		.sched_deadline	= 10 * NSEC_PER_MSEC,
		.sched_period	= 10 * NSEC_PER_MSEC,
	};
	int ret = sched_setattr_nocheck(p, &attr);

	return ret ? ret : UT_GOV_WORKER_SUGOV;
#else
	sched_set_normal(p, MIN_NICE);
	return UT_GOV_WORKER_NORMAL;
#endif
}

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

/*
 * The running kernel's util_est rules (include/utiltrack/util_est.h):
 * 6.2 added the runnable check, 6.8 dropped the last sleep's util from
 * a task's estimate, and 6.12 samples before the dequeue's PELT update.
 */
#define UT_UTIL_EST_RULES {					\
	.max_with_last	= !UT_KERNEL_GE(6, 8, 0),		\
	.runnable_check	= UT_KERNEL_GE(6, 2, 0),		\
}

#define UT_UTIL_EST_SAMPLE_BEFORE_DEQUEUE	UT_KERNEL_GE(6, 12, 0)

/* When the kernel's PELT last updated @p, in its rq_clock_pelt() (ns). */
static inline u64 ut_compat_pelt_update_time(struct task_struct *p)
{
	return READ_ONCE(p->se.avg.last_update_time);
}

/*
 * The flag moved from kernel/sched/pelt.h's bit 0 to the top bit, in
 * linux/sched.h, in 5.13; stable kernels took the move too (5.10.262
 * has it), so its definition is tested, not the version.
 */
#ifdef UTIL_AVG_UNCHANGED
#define UT_UTIL_AVG_UNCHANGED	UTIL_AVG_UNCHANGED
#else
#define UT_UTIL_AVG_UNCHANGED	0x1
#endif

/* The kernel's util_est of @p, in the core's terms. */
static inline void ut_compat_util_est(struct task_struct *p,
				      struct ut_util_est *ue)
{
#if UT_KERNEL_GE(6, 8, 0)
	u32 ewma = READ_ONCE(p->se.avg.util_est);

	ue->ewma = ewma & ~UT_UTIL_AVG_UNCHANGED;
	ue->last = 0;
	ue->unchanged = !!(ewma & UT_UTIL_AVG_UNCHANGED);
#else
	struct util_est kue = READ_ONCE(p->se.avg.util_est);

	ue->ewma = kue.ewma;
	ue->last = kue.enqueued & ~UT_UTIL_AVG_UNCHANGED;
	ue->unchanged = !!(kue.enqueued & UT_UTIL_AVG_UNCHANGED);
#endif
}

#endif /* _UTILTRACK_COMPAT_SCHED_H */
