// SPDX-License-Identifier: GPL-2.0
/*
 * trackers/pelt.c - the "pelt" tracker: CFS PELT per task and per CPU.
 *
 * Per task: running (util) and runnable signals of every tracked task.
 * Per CPU, the kernel's cfs_rq semantics: the CPU's own running signal
 * (a CFS task on the CPU) plus the util of tasks that migrate in, minus
 * the util of tasks that migrate out or exit; blocked tasks' util stays
 * and decays. pelt_runnable is the kernel's cfs_rq runnable_avg: every
 * queued CFS task counts, so n runnable tasks drive it towards n * 1024.
 * Schedutil boosts util with it since 6.5 (cpu_util_cfs_boost()), and
 * the governor can too (->cpu_util's @runnable). Tasks already queued
 * when the module loaded are counted from their first switch-in.
 *
 * Validation: at every switch-out of a CFS task, when the trackers scale
 * as the kernel does (ut_inv_as_kernel(): invariance=0 on x86, 1 on arm64),
 * the task's util is compared with the kernel's own p->se.avg.util_avg,
 * which put_prev/dequeue updated at the same instant.
 *
 * Tasks that moved between CPUs or scheduling classes, or exec'd, in the
 * last TRK_PELT_SETTLE_NS are skipped (and counted): there the kernel
 * uses cfs_rq state a module cannot read. On a move it decays the task
 * only up to the source cfs_rq's last update and rebuilds its sums from
 * the averages at the destination (remove/attach_entity_load_avg); at
 * exec, sched_exec() syncs the running task as if blocked up to its
 * cfs_rq's last update (sync_entity_load_avg). Any such difference then
 * decays like the signal itself, by y per ms: after 256 ms it is below
 * 1/256 of what it was.
 */

#include <linux/kernel.h>
#include <linux/sched.h>
#include <linux/seq_file.h>
#include <linux/string.h>
#include <utiltrack/pelt.h>

#include "utiltrack.h"
#include "compat/sched.h"
#include "trackers/pelt.h"

/*
 * The kernel's last update of the task as a time on our PELT clock; 0
 * when it has none or it is a second or more away. Where the kernel's
 * PELT scales as ours (ut_inv_as_kernel()) the two clocks agree; where
 * it does not, its clock is about the task clock, and its distance from
 * now is kept instead: the same time on an idle CPU, whose PELT clock is
 * the task clock, and never the lag of a busy one ahead of our clock.
 */
static u64 trk_pelt_kernel_lut(const struct sched_avg *ka,
			       const struct ut_ctx *c)
{
	u64 lut = READ_ONCE(ka->last_update_time);
	u64 base = ut_inv_as_kernel() ? c->pelt_now : c->now;
	s64 d = (s64)(lut - base);

	if (!lut || abs(d) >= NSEC_PER_SEC || (d < 0 && -d >= c->pelt_now))
		return 0;
	return c->pelt_now + d;
}

/* Take the kernel's own PELT state of the task as ours. */
static void trk_pelt_copy_kernel(struct trk_pelt_task *pt,
				 const struct sched_avg *ka, u64 lut)
{
	pt->avg.last_update_time = lut;
	pt->avg.util_sum = READ_ONCE(ka->util_sum);
	pt->avg.runnable_sum = READ_ONCE(ka->runnable_sum);
	pt->avg.period_contrib = READ_ONCE(ka->period_contrib);
	pt->avg.util_avg = READ_ONCE(ka->util_avg);
	pt->avg.runnable_avg = READ_ONCE(ka->runnable_avg);
}

/*
 * Start a task where the kernel's own signal is, when that is usable:
 * both then evolve from the same state (and the same 1024-ns grid), so
 * any later difference is the tracker's. Otherwise start from zero.
 */
void trk_pelt_task_init(struct ut_tracker *tr, void *td,
			const struct ut_task *t, const struct ut_ctx *c)
{
	const struct sched_avg *ka = &t->p->se.avg;
	struct trk_pelt_task *pt = td;
	u64 lut = trk_pelt_kernel_lut(ka, c);

	/*
	 * lut may be a little ahead of c->pelt_now, which outside a switch is
	 * an estimate of the runqueue clock; updates before lut are no-ops.
	 */
	if (t->class == UT_CLASS_FAIR && lut)
		trk_pelt_copy_kernel(pt, ka, lut);
	else
		ut_pelt_init(&pt->avg, c->pelt_now, 0, 0);
	/*
	 * Not running, not runnable: the event that calls this is a wakeup
	 * (so the task slept until now), a switch (which says both), or a
	 * migration of a task that was just seen waking up or switching.
	 */
	pt->runnable = false;
	pt->running = false;
	pt->class = t->class;
	/* tasks found at load are in the kernel's cfs_rq, not in ours */
	pt->attached = !t->is_new;
}

void trk_pelt_cpu_init(struct ut_tracker *tr, void *cd,
		       const struct ut_ctx *c)
{
	struct trk_pelt_cpu *pc = cd;

	ut_pelt_init(&pc->avg, c->pelt_now, 0, 0);
}

/*
 * Wakeup times are estimates (see probes.c); switch times are exact. An
 * estimate applied at once could land after the next switch, and PELT
 * cannot take back a segment: the switch's update would be dropped and
 * running time lost. So a wakeup is only recorded, and applied at the
 * next update, no later than that update's time. Running time, and so
 * util, then depends on exact switch times only; an estimate can only
 * shift where a runnable segment starts.
 */
/* The kernel's h_nr_running, as far as the events have shown it. */
static unsigned int trk_pelt_cpu_nr(const struct trk_pelt_cpu *pc)
{
	return max_t(unsigned int, pc->nr_runnable, pc->fair_running);
}

static void trk_pelt_cpu_settle(struct trk_pelt_cpu *pc, const struct ut_ctx *c)
{
	if (!pc->wake_pending)
		return;
	ut_pelt_update(&pc->avg, min(pc->wake_at, c->pelt_now),
		       pc->fair_running, trk_pelt_cpu_nr(pc), TRK_PELT_SCALE);
	pc->nr_runnable += pc->wake_pending;
	pc->wake_pending = 0;
}

static void trk_pelt_cpu_advance(struct trk_pelt_cpu *pc, const struct ut_ctx *c)
{
	trk_pelt_cpu_settle(pc, c);
	ut_pelt_update(&pc->avg, c->pelt_now, pc->fair_running,
		       trk_pelt_cpu_nr(pc), TRK_PELT_SCALE);
}

/* The task joins @pc's queued count; it is counted on one CPU at most. */
static void trk_pelt_count(struct trk_pelt_cpu *pc, struct trk_pelt_task *pt)
{
	pc->nr_runnable++;
	pt->counted = true;
}

static void trk_pelt_uncount(struct trk_pelt_cpu *pc, struct trk_pelt_task *pt)
{
	if (pt->counted && pc->nr_runnable)
		pc->nr_runnable--;
	pt->counted = false;
}

/* The task's pending wakeup, as trk_pelt_cpu_settle() does for CPUs. */
static void trk_pelt_task_settle(struct trk_pelt_task *pt,
				 struct trk_pelt_cpu *pc, const struct ut_ctx *c)
{
	if (!pt->wake_pending)
		return;
	if (pt->wake_at > c->pelt_now) {
		ut_stat_inc(&pc->wake_ahead);
		pc->wake_ahead_max_ns = max(pc->wake_ahead_max_ns,
					    pt->wake_at - c->pelt_now);
	}
	ut_pelt_update(&pt->avg, min(pt->wake_at, c->pelt_now), false, false,
		       TRK_PELT_SCALE);
	pt->wake_pending = false;
}

void trk_pelt_cpu_switch(struct ut_tracker *tr, void *cd,
			 const struct ut_ctx *c, enum ut_class prev,
			 enum ut_class next)
{
	struct trk_pelt_cpu *pc = cd;

	trk_pelt_cpu_advance(pc, c);
	pc->fair_running = next == UT_CLASS_FAIR;
}

static void trk_pelt_attach(struct trk_pelt_cpu *pc, struct trk_pelt_task *pt)
{
	ut_pelt_add(&pc->avg, pt->avg.util_avg, pt->avg.runnable_avg);
	pt->attached = true;
}

/*
 * A forked task's first wakeup: the kernel just gave it an initial util
 * (post_init_entity_util_avg(), half the CPU's spare capacity or its
 * share of the CPU's util) and attached it at the enqueue's clock, which
 * its last_update_time holds. Take that state, then add the task to its
 * CPU's signal, as the kernel does.
 */
static void trk_pelt_attach_new(struct trk_pelt_cpu *pc,
				struct trk_pelt_task *pt,
				const struct ut_task *t, const struct ut_ctx *c)
{
	const struct sched_avg *ka = &t->p->se.avg;
	u64 lut = trk_pelt_kernel_lut(ka, c);
	struct ut_ctx at = *c;

	if (lut) {
		trk_pelt_copy_kernel(pt, ka, lut);
		pt->wake_pending = false;
		/* never after the true clock: lut is the enqueue's, or less */
		at.pelt_now = min(c->pelt_now, lut);
	}
	trk_pelt_cpu_advance(pc, &at);
	trk_pelt_attach(pc, pt);
}

void trk_pelt_wakeup(struct ut_tracker *tr, void *td, void *cd,
		     const struct ut_task *t, const struct ut_ctx *c)
{
	struct trk_pelt_task *pt = td;
	struct trk_pelt_cpu *pc = cd;

	/* ttwu of a task that has not finished going to sleep: no change */
	if (pt->running || pt->runnable)
		return;
	pt->wake_at = c->pelt_now;
	pt->wake_pending = true;
	pt->runnable = true;
	if (t->class != UT_CLASS_FAIR)
		return;
	if (!pc->wake_pending)
		pc->wake_at = c->pelt_now;
	pc->wake_pending++;
	pt->counted = true;
	if (!pt->attached)
		trk_pelt_attach_new(pc, pt, t, c);
}

/*
 * Compare with the kernel's util_avg, which put_prev/dequeue updated at
 * this instant. Only a sample that counts pays for the comparison: an
 * unsettled task, or invariance on, costs the one read that task_show
 * reports.
 */
static void trk_pelt_validate(struct trk_pelt_cpu *pc, struct trk_pelt_task *pt,
			      const struct ut_task *t, const struct ut_ctx *c)
{
	const struct sched_avg *ka = &t->p->se.avg;
	u32 kernel = READ_ONCE(ka->util_avg);
	u32 err, fresh_err;

	pt->kernel_util = kernel;
	if (!ut_inv_as_kernel())
		return;
	if ((pt->unsettled_at && c->now - pt->unsettled_at < TRK_PELT_SETTLE_NS) ||
	    (t->exec_at && c->now - t->exec_at < TRK_PELT_SETTLE_NS)) {
		ut_stat_inc(&pc->skipped);
		return;
	}
	err = abs((int)pt->avg.util_avg - (int)kernel);
	/* both from their sums: free of util_avg's once-a-period refresh */
	fresh_err = abs((int)ut_pelt_util_fresh(pt->avg.util_sum,
						pt->avg.period_contrib) -
			(int)ut_pelt_util_fresh(READ_ONCE(ka->util_sum),
						READ_ONCE(ka->period_contrib)));
	ut_stat_inc(&pc->samples);
	ut_stat_add(&pc->err_sum, err);
	ut_stat_add(&pc->fresh_err_sum, fresh_err);
	pc->fresh_err_max = max(pc->fresh_err_max, fresh_err);
	trk_worst_note(&pc->worst, t, err, pt->avg.util_avg, kernel);
}

void trk_pelt_switch_out(struct ut_tracker *tr, void *td, void *cd,
			 const struct ut_task *t, const struct ut_ctx *c,
			 bool prev_runnable)
{
	struct trk_pelt_task *pt = td;
	struct trk_pelt_cpu *pc = cd;

	ut_pelt_update(&pt->avg, c->pelt_now, true, true, TRK_PELT_SCALE);
	pt->running = false;
	if (t->class != pt->class) {
		pt->unsettled_at = c->now;
		pt->class = t->class;
	}
	if (t->class == UT_CLASS_FAIR)
		trk_pelt_validate(pc, pt, t, c);
	/* asleep, or no longer a CFS task: it leaves the cfs count */
	if (!prev_runnable || t->class != UT_CLASS_FAIR)
		trk_pelt_uncount(pc, pt);
	pt->runnable = prev_runnable;
	/*
	 * Its last switch: the kernel takes its util off the CPU now
	 * (task_dead_fair()), not when the task is freed a grace period
	 * later, and a CPU whose tasks all exited reads near zero at once.
	 */
	if (pt->attached && ut_task_dead(t->p)) {
		ut_pelt_sub(&pc->avg, pt->avg.util_avg, pt->avg.runnable_avg);
		pt->attached = false;
	}
}

void trk_pelt_switch_in(struct ut_tracker *tr, void *td, void *cd,
			const struct ut_task *t, const struct ut_ctx *c)
{
	struct trk_pelt_task *pt = td;
	struct trk_pelt_cpu *pc = cd;

	trk_pelt_task_settle(pt, pc, c);
	ut_pelt_update(&pt->avg, c->pelt_now, false, pt->runnable,
		       TRK_PELT_SCALE);
	pt->runnable = true;
	pt->running = true;
	/* queued since before the module loaded, or woken while not CFS */
	if (t->class == UT_CLASS_FAIR && !pt->counted)
		trk_pelt_count(pc, pt);
}

/* A moving task's last update on @src's PELT clock. */
void trk_pelt_migrate_out(void *td, void *src, const struct ut_ctx *cs)
{
	struct trk_pelt_task *pt = td;

	trk_pelt_task_settle(pt, src, cs);
	ut_pelt_update(&pt->avg, cs->pelt_now, false, pt->runnable,
		       TRK_PELT_SCALE);
}

/* Then its util leaves @src's signal and joins @dst's (detach/attach). */
void trk_pelt_migrate_in(void *td, void *src, void *dst,
			 const struct ut_ctx *cs, const struct ut_ctx *cd)
{
	struct trk_pelt_task *pt = td;
	struct trk_pelt_cpu *ps = src, *pd = dst;

	pt->unsettled_at = max(cs->now, cd->now);
	trk_pelt_cpu_advance(ps, cs);
	trk_pelt_cpu_advance(pd, cd);
	/* from @src's PELT clock onto @dst's, which lags by another amount */
	ut_pelt_attach_at(&pt->avg, &pd->avg);
	if (pt->attached) {
		ut_pelt_sub(&ps->avg, pt->avg.util_avg, pt->avg.runnable_avg);
		ut_pelt_add(&pd->avg, pt->avg.util_avg, pt->avg.runnable_avg);
	}
	if (pt->counted) {
		trk_pelt_uncount(ps, pt);
		trk_pelt_count(pd, pt);
	}
}

void trk_pelt_migrate(struct ut_tracker *tr, void *td, void *src,
		      void *dst, const struct ut_task *t,
		      const struct ut_ctx *cs, const struct ut_ctx *cd)
{
	trk_pelt_migrate_out(td, src, cs);
	trk_pelt_migrate_in(td, src, dst, cs, cd);
}

static void trk_pelt_cpu_show(struct ut_tracker *tr, void *cd,
			      const struct ut_ctx *c, u64 *vals)
{
	struct trk_pelt_cpu *pc = cd;

	vals[0] = pc->avg.util_avg;
	vals[1] = pc->avg.runnable_avg;
}

/* Projected to c->pelt_now: a CPU running one task has no switch to update it. */
u32 trk_pelt_cpu_util(struct ut_tracker *tr, void *cd,
		      const struct ut_ctx *c, u32 *runnable)
{
	struct trk_pelt_cpu pc = *(struct trk_pelt_cpu *)cd;

	trk_pelt_cpu_advance(&pc, c);
	if (runnable)
		*runnable = pc.avg.runnable_avg;
	return pc.avg.util_avg;
}

static void trk_pelt_task_show(struct ut_tracker *tr, void *td,
			       const struct ut_task *t, u64 *vals)
{
	struct trk_pelt_task *pt = td;

	vals[0] = pt->avg.util_avg;
	vals[1] = pt->avg.runnable_avg;
	vals[2] = pt->kernel_util;
}

/* Keep @t's sample if it is the worst yet (@err = |@ours - @kernel|). */
void trk_worst_note(struct trk_worst *w, const struct ut_task *t, u32 err,
		    u32 ours, u32 kernel)
{
	if (err <= w->err)
		return;
	WRITE_ONCE(w->err, err);
	w->pid = t->pid;
	w->ours = ours;
	w->kernel = kernel;
	memcpy(w->comm, t->p->comm, sizeof(w->comm));
	w->comm[sizeof(w->comm) - 1] = '\0';
}

/* The worse of two CPUs' worst samples (@a may be NULL). */
const struct trk_worst *trk_worst_of(const struct trk_worst *a,
				     const struct trk_worst *b)
{
	return (a && READ_ONCE(a->err) >= READ_ONCE(b->err)) ? a : b;
}

/*
 * "NAME_max_abs_err E" and, when E > 0, "NAME_worst pid=,comm=,ours=,
 * kernel=". Read while a probe may rewrite it: for diagnosis only.
 */
void trk_worst_show(struct seq_file *m, const char *name,
		    const struct trk_worst *w)
{
	u32 err = w ? READ_ONCE(w->err) : 0;

	seq_printf(m, "%s_max_abs_err %u\n", name, err);
	if (err)
		seq_printf(m, "%s_worst pid=%d,comm=%.*s,ours=%u,kernel=%u\n",
			   name, w->pid, (int)sizeof(w->comm), w->comm,
			   w->ours, w->kernel);
}

/* A mean in hundredths, printed as a decimal. */
void trk_pelt_show_mean(struct seq_file *m, const char *name, u64 sum, u64 n)
{
	u32 frac;

	sum = n ? div64_u64(sum * 100, n) : 0;
	sum = div_u64_rem(sum, 100, &frac);
	seq_printf(m, "%s %llu.%02u\n", name, sum, frac);
}

static void trk_pelt_stats_show(struct ut_tracker *tr, struct seq_file *m)
{
	u64 samples = 0, sum = 0, skipped = 0, ahead = 0, ahead_max = 0;
	u64 fsum = 0;
	const struct trk_worst *worst = NULL;
	u32 fmax = 0;
	int cpu;

	for_each_possible_cpu(cpu) {
		struct trk_pelt_cpu *pc = ut_tr_cpu(tr, cpu);

		samples += READ_ONCE(pc->samples);
		skipped += READ_ONCE(pc->skipped);
		sum += READ_ONCE(pc->err_sum);
		fsum += READ_ONCE(pc->fresh_err_sum);
		fmax = max(fmax, READ_ONCE(pc->fresh_err_max));
		ahead += READ_ONCE(pc->wake_ahead);
		ahead_max = max(ahead_max, READ_ONCE(pc->wake_ahead_max_ns));
		worst = trk_worst_of(worst, &pc->worst);
	}
	seq_printf(m, "pelt_validation %s\n", ut_inv_validation_state());
	seq_printf(m, "pelt_validation_samples %llu\n", samples);
	seq_printf(m, "pelt_validation_skipped_unsettled %llu\n", skipped);
	trk_pelt_show_mean(m, "pelt_validation_mean_abs_err", sum, samples);
	trk_worst_show(m, "pelt_validation", worst);
	/* util from util_sum on both sides: the algorithm alone */
	trk_pelt_show_mean(m, "pelt_validation_sum_mean_abs_err", fsum, samples);
	seq_printf(m, "pelt_validation_sum_max_abs_err %u\n", fmax);
	/* how often, and by how much, the wakeup clock estimate ran ahead */
	seq_printf(m, "pelt_wakeup_estimate_ahead %llu\n", ahead);
	seq_printf(m, "pelt_wakeup_estimate_ahead_max_ns %llu\n", ahead_max);
}

const struct ut_tracker_ops ut_pelt_tracker = {
	.name		= "pelt",
	.needs		= UT_NEED_SWITCH | UT_NEED_WAKEUP | UT_NEED_MIGRATE,
	.cpu_size	= sizeof(struct trk_pelt_cpu),
	.task_size	= sizeof(struct trk_pelt_task),
	.cpu_cols	= { "pelt", "pelt_runnable" },
	.task_cols	= { "pelt", "pelt_runnable", "kernel_pelt" },
	.cpu_init	= trk_pelt_cpu_init,
	.task_init	= trk_pelt_task_init,
	.wakeup		= trk_pelt_wakeup,
	.cpu_switch	= trk_pelt_cpu_switch,
	.switch_out	= trk_pelt_switch_out,
	.switch_in	= trk_pelt_switch_in,
	.migrate	= trk_pelt_migrate,
	.cpu_show	= trk_pelt_cpu_show,
	.task_show	= trk_pelt_task_show,
	.stats_show	= trk_pelt_stats_show,
	.cpu_util	= trk_pelt_cpu_util,
};
