// SPDX-License-Identifier: GPL-2.0
/*
 * dispatch.c - fan one scheduler event out to every enabled tracker.
 *
 * The probes (probes.c) turn a tracepoint into an event: they find the
 * slots, take the CPU's tracking lock (ut_cpu.track_lock) and fill the
 * context. Calling each tracker with its per-CPU and per-task data is
 * done here, free of any tracepoint or task_struct access, so that the
 * KUnit suites drive the trackers with synthetic events through exactly
 * this code.
 *
 * Every function runs with the lock of the CPU(s) the data belongs to
 * held (both CPUs' for a migration), as the probes hold it. While cost
 * measurement is at level 2, each tracker's share of the event is timed
 * here.
 */

#include "utiltrack.h"

/* Each tracker: the CPU leaves @pc at c->now, then @ps switches out. */
void ut_disp_switch_out(struct ut_active *act, const struct ut_ctx *c,
			enum ut_class pc, enum ut_class nc,
			struct ut_slot *ps, bool prev_runnable)
{
	unsigned int i;

	for (i = 0; i < act->nr; i++) {
		struct ut_tracker *tr = act->tr[i];
		u64 t0 = ut_cost_tracker_begin();
		const struct ut_tracker_ops *ops = tr->ops;
		void *cd = ut_tr_cpu(tr, c->cpu);

		if (ops->cpu_switch)
			ops->cpu_switch(tr, cd, c, pc, nc);
		if (ps && ops->switch_out)
			ops->switch_out(tr, ut_tr_task(tr, ps, c), cd, &ps->t,
					c, prev_runnable);
		ut_cost_tracker_end(tr, t0);
	}
}

/*
 * Each tracker: @ns switches in at c->now; with @from_gap the CPU first
 * leaves the idle gap for @nc (else ut_disp_switch_out() did it).
 */
void ut_disp_switch_in(struct ut_active *act, const struct ut_ctx *c,
		       bool from_gap, enum ut_class nc, struct ut_slot *ns)
{
	unsigned int i;

	for (i = 0; i < act->nr; i++) {
		struct ut_tracker *tr = act->tr[i];
		u64 t0 = ut_cost_tracker_begin();
		const struct ut_tracker_ops *ops = tr->ops;
		void *cd = ut_tr_cpu(tr, c->cpu);

		if (from_gap && ops->cpu_switch)
			ops->cpu_switch(tr, cd, c, UT_CLASS_IDLE, nc);
		if (ns && ops->switch_in)
			ops->switch_in(tr, ut_tr_task(tr, ns, c), cd, &ns->t, c);
		ut_cost_tracker_end(tr, t0);
	}
}

/* @s moves from cs->cpu to cd->cpu; the caller then sets s->t.cpu. */
void ut_disp_migrate(struct ut_active *act, struct ut_slot *s,
		     const struct ut_ctx *cs, const struct ut_ctx *cd)
{
	unsigned int i;

	for (i = 0; i < act->nr; i++) {
		struct ut_tracker *tr = act->tr[i];
		u64 t0 = ut_cost_tracker_begin();

		if (tr->ops->migrate)
			tr->ops->migrate(tr, ut_tr_task(tr, s, cs),
					 ut_tr_cpu(tr, cs->cpu),
					 ut_tr_cpu(tr, cd->cpu), &s->t, cs, cd);
		ut_cost_tracker_end(tr, t0);
	}
}

/* @s became runnable on c->cpu. */
void ut_disp_wakeup(struct ut_active *act, struct ut_slot *s,
		    const struct ut_ctx *c)
{
	unsigned int i;

	for (i = 0; i < act->nr; i++) {
		struct ut_tracker *tr = act->tr[i];
		u64 t0 = ut_cost_tracker_begin();

		if (tr->ops->wakeup)
			tr->ops->wakeup(tr, ut_tr_task(tr, s, c),
					ut_tr_cpu(tr, c->cpu), &s->t, c);
		ut_cost_tracker_end(tr, t0);
	}
	s->t.is_new = false;
}

/* @s is running on c->cpu at utiltrack's tick. */
void ut_disp_tick(struct ut_active *act, struct ut_slot *s,
		  const struct ut_ctx *c)
{
	unsigned int i;

	for (i = 0; i < act->nr; i++) {
		struct ut_tracker *tr = act->tr[i];
		u64 t0 = ut_cost_tracker_begin();

		if (tr->ops->tick)
			tr->ops->tick(tr, ut_tr_task(tr, s, c),
				      ut_tr_cpu(tr, c->cpu), &s->t, c);
		ut_cost_tracker_end(tr, t0);
	}
}

/*
 * @s is gone: trackers that set up data for it drop its contribution.
 * Trackers that never saw it get no call (and no data set up for it).
 */
void ut_disp_task_exit(struct ut_active *act, struct ut_slot *s,
		       const struct ut_ctx *c)
{
	unsigned int i;

	for (i = 0; i < act->nr; i++) {
		struct ut_tracker *tr = act->tr[i];
		u64 t0 = ut_cost_tracker_begin();

		if (tr->ops->task_exit && ut_tr_task_live(tr, s))
			tr->ops->task_exit(tr, ut_tr_task(tr, s, c),
					   ut_tr_cpu(tr, c->cpu), &s->t, c);
		ut_cost_tracker_end(tr, t0);
	}
}
