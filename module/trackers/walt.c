// SPDX-License-Identifier: GPL-2.0
/*
 * trackers/walt.c - the "walt" tracker: window-assisted load tracking.
 *
 * Per task: demand (busy time per window, through a 5-window history and
 * the chosen policy). Per CPU: the curr/prev window sums of the running
 * time of the tasks that ran there; the frequency signal is walt_prev.
 * Migration moves a task's window contributions between CPUs.
 *
 * Self-check: every CPU's prev/curr sums must equal the sum of the
 * contributions of the tasks accounted on it, plus what exited tasks left
 * behind. It walks every task slot under each CPU's lock, so it runs only
 * on demand (reading debugfs "check"), never by itself: a periodic walk
 * would cost O(max_tasks) with interrupts off and wake idle CPUs.
 * Mismatches are counted in "check" and "stats".
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpu.h>
#include <linux/kernel.h>
#include <linux/moduleparam.h>
#include <linux/seq_file.h>
#include <linux/string.h>
#include <utiltrack/walt.h>

#include "utiltrack.h"

static unsigned int walt_window_ms = 20;
module_param(walt_window_ms, uint, 0444);
MODULE_PARM_DESC(walt_window_ms, "WALT window in ms, 10..1000 (default 20)");

static char *walt_policy = "max_recent_avg";
module_param(walt_policy, charp, 0444);
MODULE_PARM_DESC(walt_policy, "WALT demand policy: max_recent_avg (default), recent, max, avg");

static bool walt_account_wait = true;
module_param(walt_account_wait, bool, 0444);
MODULE_PARM_DESC(walt_account_wait, "Waiting time counts toward task demand (default 1)");

static const char * const trk_walt_policy_names[UT_WALT_NR_POLICIES] = {
	[UT_WALT_MAX_RECENT_AVG]	= "max_recent_avg",
	[UT_WALT_RECENT]		= "recent",
	[UT_WALT_MAX]			= "max",
	[UT_WALT_AVG]			= "avg",
};

static struct ut_walt_cfg ut_walt_cfg;

struct trk_walt_cpu_data {
	struct ut_walt_cpu w;
	/* contributions of exited tasks, rolled like a task's */
	struct ut_walt_task ghost;
};

struct trk_walt_task_data {
	struct ut_walt_task w;
	bool running;
	bool runnable;
};

static atomic64_t trk_walt_checks;
static atomic64_t trk_walt_mismatches;

/* Validate the parameters at load; refuses the load on bad values. */
int ut_walt_param_check(void)
{
	int i;

	if (walt_window_ms < div_u64(UT_WALT_WINDOW_MIN, NSEC_PER_MSEC) ||
	    walt_window_ms > div_u64(UT_WALT_WINDOW_MAX, NSEC_PER_MSEC)) {
		pr_err("refusing to load: walt_window_ms=%u outside 10..1000\n",
		       walt_window_ms);
		return -EINVAL;
	}
	i = match_string(trk_walt_policy_names, UT_WALT_NR_POLICIES,
			 walt_policy ?: "");
	if (i < 0) {
		pr_err("refusing to load: walt_policy='%s' is not max_recent_avg, recent, max or avg\n",
		       walt_policy ?: "");
		return -EINVAL;
	}
	ut_walt_cfg.window = (u64)walt_window_ms * NSEC_PER_MSEC;
	ut_walt_cfg.policy = i;
	ut_walt_cfg.account_wait = walt_account_wait;
	return 0;
}

static void trk_walt_cpu_init(struct ut_tracker *tr, void *cd,
			      const struct ut_ctx *c)
{
	struct trk_walt_cpu_data *wc = cd;

	ut_walt_cpu_init(&wc->w, &ut_walt_cfg, c->now);
	wc->ghost.window_start = wc->w.window_start;
}

static void trk_walt_task_init(struct ut_tracker *tr, void *td,
			       const struct ut_task *t, const struct ut_ctx *c)
{
	struct trk_walt_task_data *wt = td;

	ut_walt_task_init(&wt->w, &ut_walt_cfg, c->now);
	/* as in the pelt tracker: the first event says what the task does */
	wt->runnable = false;
	wt->running = false;
}

/* Account the interval since the task's last event in its current state. */
static void trk_walt_account(struct trk_walt_task_data *wt,
			     struct trk_walt_cpu_data *wc, const struct ut_ctx *c)
{
	ut_walt_task_update(&wt->w, &wc->w, &ut_walt_cfg, c->now, wt->running,
			    wt->runnable && !wt->running, c->scale);
}

static void trk_walt_cpu_switch(struct ut_tracker *tr, void *cd,
				const struct ut_ctx *c, enum ut_class prev,
				enum ut_class next)
{
	struct trk_walt_cpu_data *wc = cd;

	ut_walt_cpu_rollover(&wc->w, &ut_walt_cfg, c->now);
}

static void trk_walt_wakeup(struct ut_tracker *tr, void *td, void *cd,
			    const struct ut_task *t, const struct ut_ctx *c)
{
	struct trk_walt_task_data *wt = td;

	trk_walt_account(wt, cd, c);
	wt->runnable = true;
}

static void trk_walt_switch_out(struct ut_tracker *tr, void *td, void *cd,
				const struct ut_task *t, const struct ut_ctx *c,
				bool prev_runnable)
{
	struct trk_walt_task_data *wt = td;

	wt->running = true;
	trk_walt_account(wt, cd, c);
	wt->running = false;
	wt->runnable = prev_runnable;
}

/* The running task crosses window boundaries: close them on time. */
static void trk_walt_tick(struct ut_tracker *tr, void *td, void *cd,
			  const struct ut_task *t, const struct ut_ctx *c)
{
	struct trk_walt_task_data *wt = td;

	if (wt->running)
		trk_walt_account(wt, cd, c);
}

static void trk_walt_switch_in(struct ut_tracker *tr, void *td, void *cd,
			       const struct ut_task *t, const struct ut_ctx *c)
{
	struct trk_walt_task_data *wt = td;

	wt->running = false;
	trk_walt_account(wt, cd, c);
	wt->running = true;
	wt->runnable = true;
}

/*
 * fixup_busy_time: bring the task and both CPUs to one instant (the later
 * of the two CPU clocks, so both are in the same window), then move the
 * task's window contributions.
 */
static void trk_walt_migrate(struct ut_tracker *tr, void *td, void *src,
			     void *dst, const struct ut_task *t,
			     const struct ut_ctx *cs, const struct ut_ctx *cd)
{
	struct trk_walt_task_data *wt = td;
	struct trk_walt_cpu_data *ws = src, *wd = dst;
	struct ut_ctx c = *cs;

	c.now = max(cs->now, cd->now);
	trk_walt_account(wt, ws, &c);
	ut_walt_cpu_rollover(&wd->w, &ut_walt_cfg, c.now);
	ut_walt_migrate(&wt->w, &ws->w, &wd->w);
}

/* The exited task's contributions stay on the CPU (the work was done). */
static void trk_walt_task_exit(struct ut_tracker *tr, void *td, void *cd,
			       const struct ut_task *t, const struct ut_ctx *c)
{
	struct trk_walt_task_data *wt = td;
	struct trk_walt_cpu_data *wc = cd;
	u64 ws;

	ut_walt_cpu_rollover(&wc->w, &ut_walt_cfg, c->now);
	ws = wc->w.window_start;
	/* roll both to the CPU's window, then merge */
	wc->ghost.prev_window = ut_walt_task_prev_for(&wc->ghost, &ut_walt_cfg, ws) +
				ut_walt_task_prev_for(&wt->w, &ut_walt_cfg, ws);
	wc->ghost.curr_window = (wc->ghost.window_start == ws ?
				 wc->ghost.curr_window : 0) +
				(wt->w.window_start == ws ? wt->w.curr_window : 0);
	wc->ghost.window_start = ws;
}

static void trk_walt_cpu_show(struct ut_tracker *tr, void *cd,
			      const struct ut_ctx *c, u64 *vals)
{
	struct trk_walt_cpu_data *wc = cd;

	vals[0] = ut_walt_to_util(&ut_walt_cfg, wc->w.prev_sum);
	vals[1] = ut_walt_to_util(&ut_walt_cfg, wc->w.curr_sum);
}

/*
 * The frequency signal at c->now: the last closed window's sum, as a CPU
 * that has been idle since would have it after rolling over (a copy is
 * rolled; the tracker's state is untouched). Without this an idle CPU
 * would hold the busy window it closed last for as long as it sleeps,
 * and keep a shared policy up.
 */
static u32 trk_walt_cpu_util(struct ut_tracker *tr, void *cd,
			     const struct ut_ctx *c, u32 *runnable)
{
	struct ut_walt_cpu w = ((struct trk_walt_cpu_data *)cd)->w;

	ut_walt_cpu_rollover(&w, &ut_walt_cfg, c->now);
	return ut_walt_to_util(&ut_walt_cfg, w.prev_sum);
}

static void trk_walt_task_show(struct ut_tracker *tr, void *td,
			       const struct ut_task *t, u64 *vals)
{
	struct trk_walt_task_data *wt = td;

	vals[0] = ut_walt_to_util(&ut_walt_cfg, wt->w.demand);
}

/* ------------------------------------------------------------------ */
/* self-check */

struct trk_walt_sums {
	u64 prev, curr;
};

/* Sum the contributions of the tasks accounted on @cpu; its lock held. */
static void trk_walt_sum_tasks(struct ut_tracker *tr, int cpu, u64 ws,
			       struct trk_walt_sums *sum)
{
	unsigned int i;

	for (i = 0; i < ut_max_tasks; i++) {
		struct ut_slot *s = &ut_slots[i];
		struct trk_walt_task_data *wt;

		if (!READ_ONCE(s->p) || s->t.cpu != cpu ||
		    tr->task_gen[i] != s->gen)
			continue;
		wt = tr->task_data + (size_t)i * sizeof(*wt);
		sum->prev += ut_walt_task_prev_for(&wt->w, &ut_walt_cfg, ws);
		if (wt->w.window_start == ws)
			sum->curr += wt->w.curr_window;
	}
}

static void trk_walt_check_cpu(struct ut_tracker *tr, int cpu)
{
	struct ut_rq *rq = per_cpu_ptr(&ut_rqs, cpu);
	struct trk_walt_cpu_data *wc = ut_tr_cpu(tr, cpu);
	struct trk_walt_sums sum = {};
	unsigned long flags;
	bool ok;
	u64 ws;

	raw_spin_lock_irqsave(&rq->lock, flags);
	ws = wc->w.window_start;
	trk_walt_sum_tasks(tr, cpu, ws, &sum);
	sum.prev += ut_walt_task_prev_for(&wc->ghost, &ut_walt_cfg, ws);
	if (wc->ghost.window_start == ws)
		sum.curr += wc->ghost.curr_window;
	ok = sum.prev == wc->w.prev_sum && sum.curr == wc->w.curr_sum;
	raw_spin_unlock_irqrestore(&rq->lock, flags);

	atomic64_inc(&trk_walt_checks);
	if (!ok) {
		atomic64_inc(&trk_walt_mismatches);
		pr_warn_ratelimited("walt: cpu%d sums prev %llu curr %llu, tasks %llu %llu\n",
				    cpu, wc->w.prev_sum, wc->w.curr_sum,
				    sum.prev, sum.curr);
	}
}

/* debugfs "check": verify every online CPU now, one lock at a time. */
static void trk_walt_check(struct ut_tracker *tr, struct seq_file *m)
{
	u64 bad = atomic64_read(&trk_walt_mismatches);
	int cpu;

	cpus_read_lock();
	for_each_online_cpu(cpu) {
		trk_walt_check_cpu(tr, cpu);
		cond_resched();
	}
	cpus_read_unlock();
	seq_printf(m, "walt_sum_checks %lld\n", atomic64_read(&trk_walt_checks));
	seq_printf(m, "walt_sum_mismatches %lld\n",
		   atomic64_read(&trk_walt_mismatches));
	seq_printf(m, "walt_sum_mismatches_now %lld\n",
		   atomic64_read(&trk_walt_mismatches) - bad);
}

static int trk_walt_enable(struct ut_tracker *tr)
{
	atomic64_set(&trk_walt_checks, 0);
	atomic64_set(&trk_walt_mismatches, 0);
	return 0;
}

static void trk_walt_stats_show(struct ut_tracker *tr, struct seq_file *m)
{
	seq_printf(m, "walt_window_ms %u\n", walt_window_ms);
	seq_printf(m, "walt_policy %s\n", trk_walt_policy_names[ut_walt_cfg.policy]);
	seq_printf(m, "walt_sum_checks %lld\n", atomic64_read(&trk_walt_checks));
	seq_printf(m, "walt_sum_mismatches %lld\n",
		   atomic64_read(&trk_walt_mismatches));
}

const struct ut_tracker_ops ut_walt_tracker = {
	.name		= "walt",
	.needs		= UT_NEED_SWITCH | UT_NEED_WAKEUP | UT_NEED_MIGRATE |
			  UT_NEED_TICK,
	.cpu_size	= sizeof(struct trk_walt_cpu_data),
	.task_size	= sizeof(struct trk_walt_task_data),
	.cpu_cols	= { "walt_prev", "walt_curr" },
	.task_cols	= { "walt_demand" },
	.enable		= trk_walt_enable,
	.cpu_init	= trk_walt_cpu_init,
	.task_init	= trk_walt_task_init,
	.wakeup		= trk_walt_wakeup,
	.cpu_switch	= trk_walt_cpu_switch,
	.switch_out	= trk_walt_switch_out,
	.switch_in	= trk_walt_switch_in,
	.tick		= trk_walt_tick,
	.migrate	= trk_walt_migrate,
	.task_exit	= trk_walt_task_exit,
	.cpu_show	= trk_walt_cpu_show,
	.task_show	= trk_walt_task_show,
	.cpu_util	= trk_walt_cpu_util,
	.stats_show	= trk_walt_stats_show,
	.check		= trk_walt_check,
};
