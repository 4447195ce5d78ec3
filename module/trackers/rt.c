// SPDX-License-Identifier: GPL-2.0
/*
 * trackers/rt.c - the "rt" tracker: PELT of RT-class running time.
 *
 * Per CPU this is the kernel's rq->avg_rt ("sched/rt: track rt rq
 * utilization"): ___update_load_sum(now, &avg_rt, running, running,
 * running) with running = an RT task is on the CPU. The kernel updates it
 * at put_prev/set_next/tick of RT tasks and decays it from
 * update_blocked_averages; the signal only depends on when RT tasks ran,
 * so updating at every switch gives the same series. Per task: the PELT
 * of the time the task ran as an RT task.
 */

#include <linux/kernel.h>
#include <utiltrack/pelt.h>

#include "utiltrack.h"
#include "trackers/pelt.h"

struct trk_rt_cpu {
	struct ut_pelt avg;
	bool rt_running;
};

struct trk_rt_task {
	struct ut_pelt avg;
};

static void trk_rt_cpu_init(struct ut_tracker *tr, void *cd,
			    const struct ut_ctx *c)
{
	struct trk_rt_cpu *rc = cd;

	ut_pelt_init(&rc->avg, c->pelt_now, 0, 0);
}

static void trk_rt_task_init(struct ut_tracker *tr, void *td,
			     const struct ut_task *t, const struct ut_ctx *c)
{
	struct trk_rt_task *rt = td;

	ut_pelt_init(&rt->avg, c->pelt_now, 0, 0);
}

static void trk_rt_cpu_switch(struct ut_tracker *tr, void *cd,
			      const struct ut_ctx *c, enum ut_class prev,
			      enum ut_class next)
{
	struct trk_rt_cpu *rc = cd;

	ut_pelt_update(&rc->avg, c->pelt_now, rc->rt_running, rc->rt_running,
		       TRK_PELT_SCALE);
	rc->rt_running = next == UT_CLASS_RT;
}

static void trk_rt_switch_out(struct ut_tracker *tr, void *td, void *cd,
			      const struct ut_task *t, const struct ut_ctx *c,
			      bool prev_runnable)
{
	struct trk_rt_task *rt = td;
	bool rt_ran = t->class == UT_CLASS_RT;

	ut_pelt_update(&rt->avg, c->pelt_now, rt_ran, rt_ran, TRK_PELT_SCALE);
}

static void trk_rt_switch_in(struct ut_tracker *tr, void *td, void *cd,
			     const struct ut_task *t, const struct ut_ctx *c)
{
	struct trk_rt_task *rt = td;

	/* decay over the time it did not run */
	ut_pelt_update(&rt->avg, c->pelt_now, false, false, TRK_PELT_SCALE);
}

/*
 * Onto @dst's PELT clock, at its signal's position in the period, as
 * pelt's tasks: clocks of different CPUs lag by different amounts.
 */
static void trk_rt_migrate(struct ut_tracker *tr, void *td, void *src,
			   void *dst, const struct ut_task *t,
			   const struct ut_ctx *cs, const struct ut_ctx *cd)
{
	struct trk_rt_task *rt = td;
	struct trk_rt_cpu at = *(struct trk_rt_cpu *)dst;

	/* a task that moves is not running */
	ut_pelt_update(&rt->avg, cs->pelt_now, false, false, TRK_PELT_SCALE);
	ut_pelt_update(&at.avg, cd->pelt_now, at.rt_running, at.rt_running,
		       TRK_PELT_SCALE);
	ut_pelt_attach_at(&rt->avg, &at.avg);
}

static void trk_rt_cpu_show(struct ut_tracker *tr, void *cd,
			    const struct ut_ctx *c, u64 *vals)
{
	struct trk_rt_cpu *rc = cd;

	vals[0] = rc->avg.util_avg;
}

/* Projected to c->pelt_now, as pelt's: an RT task may run for long. */
static u32 trk_rt_cpu_util(struct ut_tracker *tr, void *cd,
			   const struct ut_ctx *c, u32 *runnable)
{
	struct trk_rt_cpu rc = *(struct trk_rt_cpu *)cd;

	ut_pelt_update(&rc.avg, c->pelt_now, rc.rt_running, rc.rt_running,
		       TRK_PELT_SCALE);
	return rc.avg.util_avg;
}

static void trk_rt_task_show(struct ut_tracker *tr, void *td,
			     const struct ut_task *t, u64 *vals)
{
	struct trk_rt_task *rt = td;

	vals[0] = rt->avg.util_avg;
}

const struct ut_tracker_ops ut_rt_tracker = {
	.name		= "rt",
	.needs		= UT_NEED_SWITCH | UT_NEED_MIGRATE,
	.cpu_size	= sizeof(struct trk_rt_cpu),
	.task_size	= sizeof(struct trk_rt_task),
	.cpu_cols	= { "rt" },
	.task_cols	= { "rt" },
	.cpu_init	= trk_rt_cpu_init,
	.task_init	= trk_rt_task_init,
	.cpu_switch	= trk_rt_cpu_switch,
	.switch_out	= trk_rt_switch_out,
	.switch_in	= trk_rt_switch_in,
	.migrate	= trk_rt_migrate,
	.cpu_show	= trk_rt_cpu_show,
	.task_show	= trk_rt_task_show,
	.cpu_util	= trk_rt_cpu_util,
};
