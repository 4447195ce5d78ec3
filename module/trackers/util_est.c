// SPDX-License-Identifier: GPL-2.0
/*
 * trackers/util_est.c - the "util_est" tracker: the kernel's estimated
 * utilization of CFS tasks, per task and per CPU.
 *
 * schedutil does not use a CPU's PELT util alone but max(util_avg,
 * util_est): the sum, over the CPU's queued CFS tasks, of each task's
 * estimate (include/utiltrack/util_est.h). A periodic task that sleeps
 * long enough for its PELT util to decay therefore wakes to the
 * frequency it needed last time, not to a decayed one. This tracker
 * follows its tasks' PELT as the pelt tracker does (trackers/pelt.h, its
 * own copy, so it can run without pelt), takes a sample of each task's
 * util when it goes to sleep and keeps each CPU's sum of its queued
 * tasks' estimates. Its CPU util is max(util_avg, sum), schedutil's CFS
 * input; with rt it forms the util_est_rt signal.
 *
 * The sampling rules follow the running kernel (module/compat/sched.h).
 * Validation: when the trackers scale as the kernel does
 * (ut_inv_as_kernel()), each sleeping task's estimate is
 * compared with the kernel's p->se.avg.util_est, updated by the same
 * dequeue just before the switch.
 */

#include <linux/jiffies.h>
#include <linux/kernel.h>
#include <linux/ktime.h>
#include <linux/sched.h>
#include <linux/seq_file.h>
#include <utiltrack/util_est.h>

#include "utiltrack.h"
#include "compat/sched.h"
#include "trackers/pelt.h"

struct trk_est_cpu {
	struct trk_pelt_cpu pelt;
	u32 sum;		/* estimates of the CFS tasks queued here */
	/* validation */
	u64 samples;
	u64 skipped;		/* samples of unsettled tasks */
	u64 err_sum;
	struct trk_worst worst;
};

struct trk_est_task {
	struct trk_pelt_task pelt;
	struct ut_util_est ue;
	u32 contrib;		/* in a CPU's sum while @queued */
	bool queued;
	struct ut_pelt in;	/* its PELT as of the last switch-in */
	/* its PELT clock when trk_est_pelt_moved() last looked */
	u64 seen_lut;
	u32 seen_contrib;
	u32 kernel_est;		/* the kernel's, at the last sleep */
	/* 6.12: the kernel's util unchanged since its last sample, at switch-in */
	bool kernel_unchanged;
};

static const struct ut_util_est_rules trk_est_rules = UT_UTIL_EST_RULES;

/* The kernel's estimate of @p, when it is usable as a starting point. */
static void trk_est_task_init(struct ut_tracker *tr, void *td,
			      const struct ut_task *t, const struct ut_ctx *c)
{
	struct trk_est_task *et = td;

	trk_pelt_task_init(tr, &et->pelt, t, c);
	et->seen_lut = et->pelt.avg.last_update_time;
	et->seen_contrib = et->pelt.avg.period_contrib;
	if (t->class == UT_CLASS_FAIR)
		ut_compat_util_est(t->p, &et->ue);
}

static void trk_est_cpu_init(struct ut_tracker *tr, void *cd,
			     const struct ut_ctx *c)
{
	struct trk_est_cpu *ec = cd;

	trk_pelt_cpu_init(tr, &ec->pelt, c);
}

/* The task's estimate joins its CPU's sum (util_est_enqueue()). */
static void trk_est_enqueue(struct trk_est_cpu *ec, struct trk_est_task *et)
{
	et->contrib = ut_util_est_value(&trk_est_rules, &et->ue);
	ec->sum += et->contrib;
	et->queued = true;
}

/* ... and leaves it, by what it added (util_est_dequeue()). */
static void trk_est_dequeue(struct trk_est_cpu *ec, struct trk_est_task *et)
{
	if (!et->queued)
		return;
	ec->sum -= min(ec->sum, et->contrib);
	et->queued = false;
}

/*
 * Did the task's PELT updates since the last look recompute util_avg,
 * i.e. end a 1024-us period? Only then is its next sleep a new sample.
 */
static void trk_est_pelt_moved(struct trk_est_task *et)
{
	const struct ut_pelt *sa = &et->pelt.avg;

	if (sa->last_update_time > et->seen_lut &&
	    et->seen_contrib + ((sa->last_update_time - et->seen_lut) >> 10) >= 1024)
		ut_util_est_util_changed(&et->ue);
	et->seen_lut = sa->last_update_time;
	et->seen_contrib = sa->period_contrib;
}

static void trk_est_wakeup(struct ut_tracker *tr, void *td, void *cd,
			   const struct ut_task *t, const struct ut_ctx *c)
{
	struct trk_est_task *et = td;
	struct trk_est_cpu *ec = cd;

	trk_pelt_wakeup(tr, &et->pelt, &ec->pelt, t, c);
	trk_est_pelt_moved(et);
	if (t->class == UT_CLASS_FAIR && et->pelt.runnable && !et->queued)
		trk_est_enqueue(ec, et);
}

static void trk_est_cpu_switch(struct ut_tracker *tr, void *cd,
			       const struct ut_ctx *c, enum ut_class prev,
			       enum ut_class next)
{
	struct trk_est_cpu *ec = cd;

	trk_pelt_cpu_switch(tr, &ec->pelt, c, prev, next);
}

/* Compare with the kernel's estimate, which this sleep just updated. */
static void trk_est_validate(struct trk_est_cpu *ec, struct trk_est_task *et,
			     const struct ut_task *t, const struct ut_ctx *c)
{
	struct ut_util_est kernel;
	u32 ours, err;

	ut_compat_util_est(t->p, &kernel);
	et->kernel_est = ut_util_est_value(&trk_est_rules, &kernel);
	if (!ut_inv_as_kernel())
		return;
	if ((et->pelt.unsettled_at &&
	     c->now - et->pelt.unsettled_at < TRK_PELT_SETTLE_NS) ||
	    (t->exec_at && c->now - t->exec_at < TRK_PELT_SETTLE_NS)) {
		ut_stat_inc(&ec->skipped);
		return;
	}
	ours = ut_util_est_value(&trk_est_rules, &et->ue);
	err = abs((int)ours - (int)et->kernel_est);
	ut_stat_inc(&ec->samples);
	ut_stat_add(&ec->err_sum, err);
	trk_worst_note(&ec->worst, t, err, ours, et->kernel_est);
}

/*
 * The sample of a task going to sleep (util_est_update()). Up to 6.11 the
 * kernel takes it after the dequeue's PELT update, so the run that ends
 * here counts in full. 6.12 takes it before, from the task's util as of
 * the kernel's last refresh of it: at its switch-in, or later in the run
 * (its ticks: entity_tick() updates the running task), where the run is
 * cut off here. Whether a sample counts is then the kernel's to say too:
 * a refresh between its last sample and this switch-in (its flag, read
 * then) or in the run. The model's own periods, in another phase, would
 * disagree with it whenever a task sleeps within a period of waking.
 */
/*
 * The kernel's last refresh of @t's util before this switch-out, on our
 * PELT clock. Where the kernel's PELT does not scale as ours, its clock
 * is the task clock: the running time since then is scaled onto ours.
 */
static u64 trk_est_kernel_cut(const struct ut_task *t, const struct ut_ctx *c)
{
	u64 at, ran;

	if (ut_inv_as_kernel())
		return ut_probe_kernel_pelt_at(t->p, c->pelt_now);
	at = ut_probe_kernel_pelt_at(t->p, c->now);
	if (!at || at > c->now)
		return 0;
	ran = ((c->now - at) * c->scale) >> UT_CAPACITY_SHIFT;
	return ran < c->pelt_now ? c->pelt_now - ran : 0;
}

static void trk_est_sample(struct trk_est_task *et, const struct ut_task *t,
			   const struct ut_ctx *c)
{
	u32 cap = ut_inv_capacity(c->cpu);
	struct ut_pelt sa;
	u64 cut;

	if (UT_UTIL_EST_SAMPLE_BEFORE_DEQUEUE) {
		sa = et->in;
		cut = trk_est_kernel_cut(t, c);
		et->ue.unchanged = et->kernel_unchanged;
		if (cut > sa.last_update_time && cut <= c->pelt_now) {
			ut_pelt_update(&sa, cut, true, 1, TRK_PELT_SCALE);
			ut_util_est_util_changed(&et->ue);
		}
		ut_util_est_sleep(&trk_est_rules, &et->ue, sa.util_avg,
				  sa.runnable_avg, cap);
		trk_est_pelt_moved(et);
		return;
	}
	trk_est_pelt_moved(et);
	ut_util_est_sleep(&trk_est_rules, &et->ue, et->pelt.avg.util_avg,
			  et->pelt.avg.runnable_avg, cap);
}

/* A CFS task going to sleep leaves the sum and gives a sample. */
static void trk_est_switch_out(struct ut_tracker *tr, void *td, void *cd,
			       const struct ut_task *t, const struct ut_ctx *c,
			       bool prev_runnable)
{
	struct trk_est_task *et = td;
	struct trk_est_cpu *ec = cd;

	trk_pelt_switch_out(tr, &et->pelt, &ec->pelt, t, c, prev_runnable);
	if (!prev_runnable && t->class == UT_CLASS_FAIR) {
		trk_est_dequeue(ec, et);
		trk_est_sample(et, t, c);
		trk_est_validate(ec, et, t, c);
		return;
	}
	trk_est_pelt_moved(et);
	/* asleep or preempted, no longer CFS: it leaves the sum */
	if (t->class != UT_CLASS_FAIR)
		trk_est_dequeue(ec, et);
}

static void trk_est_switch_in(struct ut_tracker *tr, void *td, void *cd,
			      const struct ut_task *t, const struct ut_ctx *c)
{
	struct trk_est_task *et = td;
	struct trk_est_cpu *ec = cd;

	trk_pelt_switch_in(tr, &et->pelt, &ec->pelt, t, c);
	trk_est_pelt_moved(et);
	et->in = et->pelt.avg;
	if (UT_UTIL_EST_SAMPLE_BEFORE_DEQUEUE && t->class == UT_CLASS_FAIR) {
		struct ut_util_est kernel;

		ut_compat_util_est(t->p, &kernel);
		et->kernel_unchanged = kernel.unchanged;
	}
	/* queued since before the module loaded, or woken while not CFS */
	if (t->class == UT_CLASS_FAIR && !et->queued)
		trk_est_enqueue(ec, et);
}

/* A queued task's estimate moves with it; a migration is not a sample. */
static void trk_est_migrate(struct ut_tracker *tr, void *td, void *src,
			    void *dst, const struct ut_task *t,
			    const struct ut_ctx *cs, const struct ut_ctx *cd)
{
	struct trk_est_task *et = td;
	struct trk_est_cpu *es = src, *ed = dst;

	trk_pelt_migrate_out(&et->pelt, &es->pelt, cs);
	trk_est_pelt_moved(et);
	trk_pelt_migrate_in(&et->pelt, &es->pelt, &ed->pelt, cs, cd);
	/* now on @dst's PELT clock: attaching there recomputes nothing */
	et->seen_lut = et->pelt.avg.last_update_time;
	et->seen_contrib = et->pelt.avg.period_contrib;
	if (et->queued) {
		trk_est_dequeue(es, et);
		trk_est_enqueue(ed, et);
	}
}

static void trk_est_task_exit(struct ut_tracker *tr, void *td, void *cd,
			      const struct ut_task *t, const struct ut_ctx *c)
{
	trk_est_dequeue(cd, td);
}

/* schedutil's CFS input: max(util_avg, the sum), projected to c->now. */
static u32 trk_est_cpu_util(struct ut_tracker *tr, void *cd,
			    const struct ut_ctx *c, u32 *runnable)
{
	struct trk_est_cpu *ec = cd;
	u32 util = trk_pelt_cpu_util(tr, &ec->pelt, c, runnable);

	return max(util, ec->sum);
}

static void trk_est_cpu_show(struct ut_tracker *tr, void *cd,
			     const struct ut_ctx *c, u64 *vals)
{
	struct trk_est_cpu *ec = cd;

	vals[0] = max(ec->pelt.avg.util_avg, ec->sum);
	vals[1] = ec->sum;
}

static void trk_est_task_show(struct ut_tracker *tr, void *td,
			      const struct ut_task *t, u64 *vals)
{
	struct trk_est_task *et = td;

	vals[0] = ut_util_est_value(&trk_est_rules, &et->ue);
	vals[1] = et->kernel_est;
}

static void trk_est_stats_show(struct ut_tracker *tr, struct seq_file *m)
{
	u64 samples = 0, skipped = 0, sum = 0;
	const struct trk_worst *worst = NULL;
	int cpu;

	for_each_possible_cpu(cpu) {
		struct trk_est_cpu *ec = ut_tr_cpu(tr, cpu);

		samples += READ_ONCE(ec->samples);
		skipped += READ_ONCE(ec->skipped);
		sum += READ_ONCE(ec->err_sum);
		worst = trk_worst_of(worst, &ec->worst);
	}
	seq_printf(m, "util_est_validation %s\n", ut_inv_validation_state());
	seq_printf(m, "util_est_validation_samples %llu\n", samples);
	seq_printf(m, "util_est_validation_skipped_unsettled %llu\n", skipped);
	trk_pelt_show_mean(m, "util_est_validation_mean_abs_err", sum, samples);
	trk_worst_show(m, "util_est_validation", worst);
}

const struct ut_tracker_ops ut_util_est_tracker = {
	.name		= "util_est",
	.needs		= UT_NEED_SWITCH | UT_NEED_WAKEUP | UT_NEED_MIGRATE |
			  (UT_UTIL_EST_SAMPLE_BEFORE_DEQUEUE ?
			   UT_NEED_KERNEL_PELT : 0),
	.cpu_size	= sizeof(struct trk_est_cpu),
	.task_size	= sizeof(struct trk_est_task),
	.cpu_cols	= { "util_est", "util_est_sum" },
	.task_cols	= { "util_est", "kernel_util_est" },
	.cpu_init	= trk_est_cpu_init,
	.task_init	= trk_est_task_init,
	.wakeup		= trk_est_wakeup,
	.cpu_switch	= trk_est_cpu_switch,
	.switch_out	= trk_est_switch_out,
	.switch_in	= trk_est_switch_in,
	.migrate	= trk_est_migrate,
	.task_exit	= trk_est_task_exit,
	.cpu_show	= trk_est_cpu_show,
	.task_show	= trk_est_task_show,
	.stats_show	= trk_est_stats_show,
	.cpu_util	= trk_est_cpu_util,
};
