/* SPDX-License-Identifier: GPL-2.0 */
/*
 * util_est.h - the kernel's estimated utilization (util_est), as
 * kernel/sched/fair.c computes it for schedutil and task placement.
 *
 * Plain C (see shim.h). A task's PELT util decays while it sleeps, so a
 * task that runs 8 ms of every 16 wakes with less util than it will use.
 * util_est remembers, per task, what its util was when it last went to
 * sleep (an EWMA that follows increases at once and decreases with a
 * weight of 1/4); a CPU's estimate is the sum over its queued CFS tasks,
 * and schedutil uses max(util_avg, estimate) of the CPU.
 *
 * The rules changed over kernel versions; struct ut_util_est_rules names
 * each difference, so one algorithm serves every kernel.
 */
#ifndef _UTILTRACK_UTIL_EST_H
#define _UTILTRACK_UTIL_EST_H

#include <utiltrack/shim.h>

#define UT_UTIL_EST_WEIGHT_SHIFT	2	/* new samples weigh 1/4 */
#define UT_UTIL_EST_MARGIN		(1024 / 100)	/* ~1 % of capacity */

struct ut_util_est_rules {
	/*
	 * Up to 6.7 a task's estimate is max(ewma, util at its last
	 * sleep) and an update within the margin of the EWMA is stored
	 * only if the last sleep's util moved by the margin; since 6.8
	 * (the "simplified" util_est) it is the EWMA alone.
	 */
	bool max_with_last;
	/*
	 * Since 6.2 an update is skipped when the task was runnable but
	 * waiting (runnable above util by the margin): its util then
	 * understates what it wants.
	 */
	bool runnable_check;
};

/* Per task. */
struct ut_util_est {
	u32 ewma;
	u32 last;		/* util at the last update (max_with_last) */
	/*
	 * The task's util has not been recomputed since the last update
	 * (the kernel's UTIL_AVG_UNCHANGED flag): another sleep without a
	 * PELT period in between is not a new sample.
	 */
	bool unchanged;
};

/* The estimate a task adds to its CPU's sum while it is queued. */
static inline u32 ut_util_est_value(const struct ut_util_est_rules *r,
				    const struct ut_util_est *ue)
{
	if (r->max_with_last && ue->last > ue->ewma)
		return ue->last;
	return ue->ewma;
}

/*
 * The task goes to sleep with @util and @runnable (its PELT averages) on
 * a CPU of capacity @capacity: take the sample, or not, as the kernel's
 * util_est_update() does for a sleeping dequeue.
 */
void ut_util_est_sleep(const struct ut_util_est_rules *r,
		       struct ut_util_est *ue, u32 util, u32 runnable,
		       u32 capacity);

/* The task's util was recomputed (a PELT period ended). */
static inline void ut_util_est_util_changed(struct ut_util_est *ue)
{
	ue->unchanged = false;
}

#endif /* _UTILTRACK_UTIL_EST_H */
