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
 * behind. It runs only on demand (reading debugfs "check"), never by
 * itself: a periodic walk would wake idle CPUs. It walks the task slots
 * TRK_WALT_CHECK_CHUNK at a time, each chunk under the CPU's lock, so
 * interrupts are never off for more than a chunk whatever max_tasks is;
 * the CPU's change count (seq) tells whether the CPU moved on between
 * chunks, and then the walk starts again. A CPU too busy to hold still
 * for a whole walk after TRK_WALT_CHECK_TRIES attempts is counted as
 * unsettled, not checked. Mismatches are counted in "check" and "stats".
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
	/* bumped by every change of these sums or of a task's windows here */
	u32 seq;
	/* the running tracked task is accounted up to here; 0: none runs */
	u64 run_mark;
};

#define TRK_WALT_CHECK_CHUNK	256	/* slots per hold of a CPU's lock */
#define TRK_WALT_CHECK_TRIES	8

struct trk_walt_task_data {
	struct ut_walt_task w;
	bool running;
	bool runnable;
};

static atomic64_t trk_walt_checks;
static atomic64_t trk_walt_mismatches;
static atomic64_t trk_walt_unsettled;

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
	wc->seq++;
	ut_walt_task_update(&wt->w, &wc->w, &ut_walt_cfg, c->now, wt->running,
			    wt->runnable && !wt->running, c->scale);
	/* where the task's next update starts, even if this one was refused */
	if (wt->running)
		wc->run_mark = wt->w.mark_start;
}

static void trk_walt_cpu_switch(struct ut_tracker *tr, void *cd,
				const struct ut_ctx *c, enum ut_class prev,
				enum ut_class next)
{
	struct trk_walt_cpu_data *wc = cd;

	wc->seq++;
	ut_walt_cpu_rollover(&wc->w, &ut_walt_cfg, c->now);
	/* until a tracked task switches in, nothing runs here that counts */
	wc->run_mark = 0;
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
	struct trk_walt_cpu_data *wc = cd;

	wt->running = true;
	trk_walt_account(wt, wc, c);
	wt->running = false;
	wt->runnable = prev_runnable;
	wc->run_mark = 0;
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
	struct trk_walt_cpu_data *wc = cd;

	wt->running = false;
	trk_walt_account(wt, wc, c);
	wt->running = true;
	wt->runnable = true;
	wc->run_mark = wt->w.mark_start;
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
	/* a task that moves is not running on @src, whatever it last said */
	if (wt->running)
		ws->run_mark = 0;
	wd->seq++;
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

	wc->seq++;
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
 * The frequency signal at c->now: the last closed window's sum, as the
 * CPU's next update will leave it (a copy is rolled and given the running
 * task's time since it was last accounted; the tracker's state is
 * untouched). Without the roll an idle CPU would hold the busy window it
 * closed last for as long as it sleeps, and keep a shared policy up;
 * without the running time a window that closed between two ticks would
 * read short by up to a tick, and a 100 % busy CPU miss the hispeed load.
 */
static u32 trk_walt_cpu_util(struct ut_tracker *tr, void *cd,
			     const struct ut_ctx *c, u32 *runnable)
{
	const struct trk_walt_cpu_data *wc = cd;
	struct ut_walt_cpu w = wc->w;

	ut_walt_cpu_project(&w, &ut_walt_cfg, wc->run_mark, c->now, c->scale);
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

/* Add the contributions of slots [from, to) accounted on @cpu; its lock held. */
static void trk_walt_sum_tasks(struct ut_tracker *tr, int cpu, u64 ws,
			       unsigned int from, unsigned int to,
			       struct trk_walt_sums *sum)
{
	unsigned int i;

	for (i = from; i < to; i++) {
		struct ut_slot *s = &ut_slots[i];
		struct trk_walt_task_data *wt;

		if (!READ_ONCE(s->p) || s->t.cpu != cpu ||
		    !ut_tr_task_live(tr, s))
			continue;
		wt = ut_tr_task_raw(tr, i);
		sum->prev += ut_walt_task_prev_for(&wt->w, &ut_walt_cfg, ws);
		if (wt->w.window_start == ws)
			sum->curr += wt->w.curr_window;
	}
}

/*
 * One walk of @cpu's tasks, a chunk per hold of its lock. False if the
 * CPU changed between two chunks; else *@ok says whether its sums equal
 * its tasks' (in *@sum) plus its exited tasks'.
 */
static bool trk_walt_check_walk(struct ut_tracker *tr, int cpu, bool *ok,
				struct trk_walt_sums *sum)
{
	struct ut_cpu *uc = per_cpu_ptr(&ut_cpus, cpu);
	struct trk_walt_cpu_data *wc = ut_tr_cpu(tr, cpu);
	unsigned int from = 0, to;
	unsigned long flags;
	bool settled = true;
	u32 seq = 0;
	u64 ws = 0, t0;

	memset(sum, 0, sizeof(*sum));
	do {
		to = min(from + TRK_WALT_CHECK_CHUNK, ut_max_tasks);
		raw_spin_lock_irqsave(&uc->track_lock, flags);
		t0 = ut_cost_begin();
		if (!from) {
			seq = wc->seq;
			ws = wc->w.window_start;
		}
		settled = wc->seq == seq;
		if (settled)
			trk_walt_sum_tasks(tr, cpu, ws, from, to, sum);
		if (settled && to == ut_max_tasks) {
			sum->prev += ut_walt_task_prev_for(&wc->ghost,
							   &ut_walt_cfg, ws);
			if (wc->ghost.window_start == ws)
				sum->curr += wc->ghost.curr_window;
			*ok = sum->prev == wc->w.prev_sum &&
			      sum->curr == wc->w.curr_sum;
		}
		ut_cost_irqoff_end(UT_SITE_WALT_CHECK, t0);
		raw_spin_unlock_irqrestore(&uc->track_lock, flags);
		from = to;
		cond_resched();
	} while (settled && to < ut_max_tasks);
	return settled;
}

static void trk_walt_check_cpu(struct ut_tracker *tr, int cpu)
{
	struct trk_walt_cpu_data *wc = ut_tr_cpu(tr, cpu);
	struct trk_walt_sums sum;
	bool ok = true;
	int i;

	for (i = 0; i < TRK_WALT_CHECK_TRIES; i++)
		if (trk_walt_check_walk(tr, cpu, &ok, &sum))
			break;
	if (i == TRK_WALT_CHECK_TRIES) {
		atomic64_inc(&trk_walt_unsettled);
		return;
	}
	atomic64_inc(&trk_walt_checks);
	if (!ok) {
		atomic64_inc(&trk_walt_mismatches);
		pr_warn_ratelimited("walt: cpu%d sums prev %llu curr %llu, tasks %llu %llu\n",
				    cpu, READ_ONCE(wc->w.prev_sum),
				    READ_ONCE(wc->w.curr_sum), sum.prev, sum.curr);
	}
}

/* debugfs "check": verify every online CPU now, one CPU at a time. */
static void trk_walt_check(struct ut_tracker *tr, struct seq_file *m)
{
	u64 bad = atomic64_read(&trk_walt_mismatches);
	u64 unsettled = atomic64_read(&trk_walt_unsettled);
	int cpu;

	cpus_read_lock();
	for_each_online_cpu(cpu)
		trk_walt_check_cpu(tr, cpu);
	cpus_read_unlock();
	seq_printf(m, "walt_sum_checks %lld\n", atomic64_read(&trk_walt_checks));
	seq_printf(m, "walt_sum_mismatches %lld\n",
		   atomic64_read(&trk_walt_mismatches));
	seq_printf(m, "walt_sum_mismatches_now %lld\n",
		   atomic64_read(&trk_walt_mismatches) - bad);
	seq_printf(m, "walt_sum_unsettled %lld\n",
		   atomic64_read(&trk_walt_unsettled));
	seq_printf(m, "walt_sum_unsettled_now %lld\n",
		   atomic64_read(&trk_walt_unsettled) - unsettled);
}

static int trk_walt_enable(struct ut_tracker *tr)
{
	atomic64_set(&trk_walt_checks, 0);
	atomic64_set(&trk_walt_mismatches, 0);
	atomic64_set(&trk_walt_unsettled, 0);
	return 0;
}

static void trk_walt_stats_show(struct ut_tracker *tr, struct seq_file *m)
{
	seq_printf(m, "walt_window_ms %u\n", walt_window_ms);
	seq_printf(m, "walt_policy %s\n", trk_walt_policy_names[ut_walt_cfg.policy]);
	seq_printf(m, "walt_sum_checks %lld\n", atomic64_read(&trk_walt_checks));
	seq_printf(m, "walt_sum_mismatches %lld\n",
		   atomic64_read(&trk_walt_mismatches));
	seq_printf(m, "walt_sum_unsettled %lld\n",
		   atomic64_read(&trk_walt_unsettled));
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
