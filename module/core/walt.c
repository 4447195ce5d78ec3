// SPDX-License-Identifier: GPL-2.0
/*
 * walt.c - Window-Assisted Load Tracking, after AOSP's kernel/sched/walt.c
 * (update_task_demand(), update_history(), update_cpu_busy_time(),
 * walt_fixup_busy_time()).
 *
 * Where this differs from AOSP, it is because we observe the scheduler
 * from tracepoints instead of being called from inside it:
 *  - Windows are aligned on multiples of the window size on the clock,
 *    so CPUs agree on them without AOSP's boot-time sync_cpu handshake.
 *  - A CPU's windows roll on their own (ut_walt_cpu_rollover()) rather
 *    than when its current task is updated: 1 window elapsed moves curr
 *    to prev, 2 or more clear both. AOSP reaches the same sums through
 *    the rq->curr special cases of update_cpu_busy_time().
 *  - A task's curr/prev contributions roll lazily against the window of
 *    the CPU it is updated on, so a CPU's sums are, at every instant, the
 *    sums of the contributions of the tasks last accounted there (see
 *    ut_walt_task_prev_for()). That invariant is what makes migration
 *    fix-ups exact.
 *  - There is no idle task, irq time or exiting-task special casing, and
 *    CPU busy time counts running time only (AOSP's default
 *    walt_freq_account_wait_time = 0).
 *  - A clock going backwards is ignored instead of WARNing.
 */
#include <utiltrack/walt.h>

/* busy ns x scale / 1024: frequency and capacity invariance. */
static u64 ut_walt_scale(u64 delta, u32 scale)
{
	return mul_u64_u32_shr(delta, scale, 10);
}

/**
 * ut_walt_window_of - the start of the window containing @now
 * @cfg: configuration (cfg->window must be non-zero)
 * @now: time, ns
 *
 * Return: @now aligned down to a multiple of cfg->window.
 */
u64 ut_walt_window_of(const struct ut_walt_cfg *cfg, u64 now)
{
	u32 rem;

	/* the window is at most 1 s: a 64-by-32 division, cheap on 32-bit */
	div_u64_rem(now, (u32)cfg->window, &rem);
	return now - rem;
}

/**
 * ut_walt_cpu_init - start a CPU's window accounting
 * @cpu: the CPU's state
 * @cfg: configuration
 * @now: time, ns
 */
void ut_walt_cpu_init(struct ut_walt_cpu *cpu, const struct ut_walt_cfg *cfg,
		      u64 now)
{
	cpu->window_start = ut_walt_window_of(cfg, now);
	cpu->curr_sum = 0;
	cpu->prev_sum = 0;
}

/**
 * ut_walt_task_init - start a new task's accounting
 * @t: the task's state
 * @cfg: configuration
 * @now: time, ns
 *
 * As walt_init_new_task_load(): with no history yet, a new task is
 * assumed to need UT_WALT_INIT_PCT of a window, so it is neither ignored
 * nor over-provisioned before its first windows close.
 */
void ut_walt_task_init(struct ut_walt_task *t, const struct ut_walt_cfg *cfg,
		       u64 now)
{
	u64 init = div_u64(cfg->window * UT_WALT_INIT_PCT, 100);
	int i;

	t->mark_start = now;
	t->window_start = ut_walt_window_of(cfg, now);
	t->curr_window = 0;
	t->prev_window = 0;
	t->sum = 0;
	for (i = 0; i < UT_WALT_HIST; i++)
		t->hist[i] = init;
	t->demand = init;
}

/**
 * ut_walt_cpu_rollover - roll a CPU's windows forward to @now
 * @cpu: the CPU's state
 * @cfg: configuration
 * @now: time, ns; earlier than the current window's end does nothing
 */
void ut_walt_cpu_rollover(struct ut_walt_cpu *cpu,
			  const struct ut_walt_cfg *cfg, u64 now)
{
	u64 ws = ut_walt_window_of(cfg, now);

	if (ws <= cpu->window_start)
		return;
	if (ws - cpu->window_start == cfg->window)
		cpu->prev_sum = cpu->curr_sum;
	else
		cpu->prev_sum = 0;
	cpu->curr_sum = 0;
	cpu->window_start = ws;
}

/*
 * Bring @t's own curr/prev contributions to the window starting at @ws,
 * the same way ut_walt_cpu_rollover() moved its CPU's sums.
 */
static void ut_walt_task_roll(struct ut_walt_task *t,
			      const struct ut_walt_cfg *cfg, u64 ws)
{
	if (t->window_start == ws)
		return;
	if (t->window_start + cfg->window == ws)
		t->prev_window = t->curr_window;
	else
		t->prev_window = 0;
	t->curr_window = 0;
	t->window_start = ws;
}

/*
 * Running time [t->mark_start, now) into the CPU's busy sums and the
 * task's matching contributions: the part in the current window to curr,
 * the part in the previous window to prev. Anything older belongs to
 * windows whose sums nobody reads any more.
 */
static void ut_walt_busy_time(struct ut_walt_task *t, struct ut_walt_cpu *cpu,
			      const struct ut_walt_cfg *cfg, u64 now,
			      u32 scale)
{
	u64 ws = cpu->window_start;
	u64 ms = t->mark_start;
	u64 delta, start;

	if (ms < ws) {
		start = ws - ms > cfg->window ? ws - cfg->window : ms;
		delta = ut_walt_scale(ws - start, scale);
		t->prev_window += delta;
		cpu->prev_sum += delta;
		ms = ws;
	}
	delta = ut_walt_scale(now - ms, scale);
	t->curr_window += delta;
	cpu->curr_sum += delta;
}

/* Busy time in the task's open window; one window is the most there is. */
static void ut_walt_add_demand(struct ut_walt_task *t,
			       const struct ut_walt_cfg *cfg, u64 delta,
			       u32 scale)
{
	t->sum += ut_walt_scale(delta, scale);
	if (t->sum > cfg->window)
		t->sum = cfg->window;
}

/*
 * Close @samples windows of @runtime each into the history (most recent
 * first) and recompute the demand, as AOSP's update_history(). Windows in
 * which the task did nothing are not recorded: a task that sleeps for a
 * second keeps the demand it had when it went to sleep.
 */
static void ut_walt_history(struct ut_walt_task *t,
			    const struct ut_walt_cfg *cfg, u64 runtime,
			    u64 samples)
{
	u64 sum = 0, max = 0, avg;
	int i, n;

	if (!runtime || !samples)
		return;
	n = samples < UT_WALT_HIST ? (int)samples : UT_WALT_HIST;
	for (i = UT_WALT_HIST - 1; i >= n; i--)
		t->hist[i] = t->hist[i - n];
	for (i = 0; i < n; i++)
		t->hist[i] = runtime;
	for (i = 0; i < UT_WALT_HIST; i++) {
		sum += t->hist[i];
		if (t->hist[i] > max)
			max = t->hist[i];
	}
	t->sum = 0;

	avg = div_u64(sum, UT_WALT_HIST);
	switch (cfg->policy) {
	case UT_WALT_RECENT:
		t->demand = runtime;
		break;
	case UT_WALT_MAX:
		t->demand = max;
		break;
	case UT_WALT_AVG:
		t->demand = avg;
		break;
	case UT_WALT_MAX_RECENT_AVG:
	default:
		t->demand = avg > runtime ? avg : runtime;
		break;
	}
}

/*
 * The demand side, AOSP's update_task_demand(). Busy time of an interval
 * that crosses window boundaries is split: the first partial window is
 * finished and closed, each window fully inside the interval is closed as
 * a full (scaled) window, and the remainder opens the current window.
 */
static void ut_walt_demand(struct ut_walt_task *t,
			   const struct ut_walt_cfg *cfg, u64 ws, u64 now,
			   bool busy, u32 scale)
{
	u64 ms = t->mark_start;
	u64 nr_full, first;

	if (!busy) {
		/*
		 * Idle since ms: only the window ms was in has anything to
		 * close, and the empty ones after it are dropped anyway.
		 */
		if (ms < ws)
			ut_walt_history(t, cfg, t->sum, 1);
		return;
	}
	if (ms >= ws) {
		ut_walt_add_demand(t, cfg, now - ms, scale);
		return;
	}

	nr_full = div_u64(ws - ms, (u32)cfg->window);
	first = ws - nr_full * cfg->window;	/* first boundary after ms */
	ut_walt_add_demand(t, cfg, first - ms, scale);
	ut_walt_history(t, cfg, t->sum, 1);
	ut_walt_history(t, cfg, ut_walt_scale(cfg->window, scale), nr_full);
	ut_walt_add_demand(t, cfg, now - ws, scale);
}

/**
 * ut_walt_cpu_project - @cpu's sums at @now with its running task's time
 * @cpu: a copy of the CPU's state (changed)
 * @cfg: configuration
 * @busy_since: the running task is accounted up to here; 0 if none runs
 * @now: time, ns
 * @scale: invariance factor, 1024 = none
 *
 * A running task's time reaches the CPU's sums only when the task is
 * next updated (a tick, a switch): a window that closes meanwhile would
 * read short by that part. This rolls @cpu to @now and adds
 * [@busy_since, @now) as that update will, so that a read between
 * updates sees what the next update will write.
 */
void ut_walt_cpu_project(struct ut_walt_cpu *cpu, const struct ut_walt_cfg *cfg,
			 u64 busy_since, u64 now, u32 scale)
{
	struct ut_walt_task run = { .mark_start = busy_since };

	ut_walt_cpu_rollover(cpu, cfg, now);
	/* a clock behind the mark or the CPU's window adds nothing */
	if (busy_since && busy_since < now && now >= cpu->window_start)
		ut_walt_busy_time(&run, cpu, cfg, now, scale);
}

/**
 * ut_walt_task_update - account a task's time since its last update
 * @t: the task's state
 * @cpu: the CPU it is on (rolled to @now here)
 * @cfg: configuration
 * @now: time, ns
 * @running: it ran on @cpu for the whole interval
 * @waiting: it was runnable but not running for the whole interval
 * @scale: invariance factor, 1024 = none
 *
 * Return: false, changing nothing, if @now is before the task's last
 * update or before @cpu's current window; true otherwise.
 */
bool ut_walt_task_update(struct ut_walt_task *t, struct ut_walt_cpu *cpu,
			 const struct ut_walt_cfg *cfg, u64 now, bool running,
			 bool waiting, u32 scale)
{
	bool busy = running || (waiting && cfg->account_wait);

	/*
	 * A CPU already in a later window than @now was rolled by a clock
	 * ahead of this one; accounting @now there would put time into the
	 * wrong window.
	 */
	if (now < t->mark_start || now < cpu->window_start)
		return false;

	ut_walt_cpu_rollover(cpu, cfg, now);
	ut_walt_task_roll(t, cfg, cpu->window_start);
	if (running)
		ut_walt_busy_time(t, cpu, cfg, now, scale);
	ut_walt_demand(t, cfg, cpu->window_start, now, busy, scale);
	t->mark_start = now;
	return true;
}

/**
 * ut_walt_migrate - move a task's busy-time contributions between CPUs
 * @t: the task, just updated on @src
 * @src: the CPU it leaves
 * @dst: the CPU it joins, rolled to the same window
 *
 * AOSP's walt_fixup_busy_time(): the frequency signal of the new CPU must
 * include the work the task is bringing with it, and the old CPU's must
 * stop counting it. Subtraction saturates at zero, as AOSP clamps.
 */
void ut_walt_migrate(struct ut_walt_task *t, struct ut_walt_cpu *src,
		     struct ut_walt_cpu *dst)
{
	src->curr_sum -= t->curr_window < src->curr_sum ?
			 t->curr_window : src->curr_sum;
	src->prev_sum -= t->prev_window < src->prev_sum ?
			 t->prev_window : src->prev_sum;
	dst->curr_sum += t->curr_window;
	dst->prev_sum += t->prev_window;
}

/**
 * ut_walt_task_curr_for - a task's part of a CPU's curr_sum
 * @t: the task
 * @cpu_window_start: the CPU's current window
 *
 * Return: the task's contribution, 0 if it has not run in that window.
 */
u64 ut_walt_task_curr_for(const struct ut_walt_task *t, u64 cpu_window_start)
{
	return t->window_start == cpu_window_start ? t->curr_window : 0;
}

/**
 * ut_walt_task_prev_for - a task's part of a CPU's prev_sum
 * @t: the task
 * @cfg: configuration
 * @cpu_window_start: the CPU's current window
 *
 * What ut_walt_task_roll() would make t->prev_window, without rolling.
 *
 * Return: the task's contribution, 0 if it has not run in that window.
 */
u64 ut_walt_task_prev_for(const struct ut_walt_task *t,
			  const struct ut_walt_cfg *cfg, u64 cpu_window_start)
{
	if (t->window_start == cpu_window_start)
		return t->prev_window;
	if (t->window_start + cfg->window == cpu_window_start)
		return t->curr_window;
	return 0;
}

/**
 * ut_walt_to_util - scaled busy ns per window to capacity units
 * @cfg: configuration
 * @scaled_ns: busy time in one window
 *
 * Return: @scaled_ns * 1024 / window, at most 1024.
 */
u32 ut_walt_to_util(const struct ut_walt_cfg *cfg, u64 scaled_ns)
{
	if (scaled_ns >= cfg->window)
		return 1024;
	return (u32)div_u64(scaled_ns << 10, (u32)cfg->window);
}
