/* SPDX-License-Identifier: GPL-2.0 */
/*
 * walt.h - Window-Assisted Load Tracking, reference semantics of AOSP's
 * walt.c (2016) and Qualcomm's sched-walt.
 *
 * Plain C (see shim.h). Windows are aligned on multiples of the window
 * size on the tracked clock, so every CPU agrees on window boundaries
 * without sharing state. Busy time is "scaled": ns x scale / 1024, where
 * scale folds in frequency and capacity invariance (1024 = none).
 *
 * Two signals:
 *  - task demand: busy time per window (running, and waiting too when
 *    cfg->account_wait), pushed into a 5-window history when a window
 *    closes; demand = policy(history);
 *  - CPU busy: per-CPU curr/prev window sums of the running time of the
 *    tasks that ran there; the frequency signal is the previous window's
 *    sum. Each task remembers its own curr/prev contributions so a
 *    migration can move them between CPUs (fix-up).
 */
#ifndef _UTILTRACK_WALT_H
#define _UTILTRACK_WALT_H

#include <utiltrack/shim.h>

#define UT_WALT_HIST		5
#define UT_WALT_WINDOW_DEF	20000000ULL	/* 20 ms */
#define UT_WALT_WINDOW_MIN	10000000ULL	/* 10 ms */
#define UT_WALT_WINDOW_MAX	1000000000ULL	/* 1 s */
#define UT_WALT_INIT_PCT	15		/* new tasks: 15 % of a window */

enum ut_walt_policy {
	UT_WALT_MAX_RECENT_AVG,	/* max(avg(history), latest) - default */
	UT_WALT_RECENT,		/* latest window */
	UT_WALT_MAX,		/* max over history */
	UT_WALT_AVG,		/* average over history */
	UT_WALT_NR_POLICIES,
};

struct ut_walt_cfg {
	u64 window;		/* ns, UT_WALT_WINDOW_MIN..MAX: fits a u32 */
	enum ut_walt_policy policy;
	bool account_wait;	/* waiting time counts toward demand */
};

struct ut_walt_cpu {
	u64 window_start;	/* start of the current window */
	u64 curr_sum;		/* scaled busy ns in the current window */
	u64 prev_sum;		/* ... in the previous one: the freq signal */
};

struct ut_walt_task {
	u64 mark_start;		/* time of the last update */
	u64 window_start;	/* window that curr_window belongs to */
	u64 curr_window;	/* this task's part of its CPU's curr_sum */
	u64 prev_window;	/* ... of prev_sum */
	u64 sum;		/* demand accumulated in the current window */
	u64 hist[UT_WALT_HIST];	/* most recent first, scaled ns per window */
	u64 demand;		/* scaled ns per window, per the policy */
};

/* Align @now down to a window boundary. */
u64 ut_walt_window_of(const struct ut_walt_cfg *cfg, u64 now);

void ut_walt_cpu_init(struct ut_walt_cpu *cpu, const struct ut_walt_cfg *cfg,
		      u64 now);

/* A new task: demand and history start at UT_WALT_INIT_PCT of a window. */
void ut_walt_task_init(struct ut_walt_task *t, const struct ut_walt_cfg *cfg,
		       u64 now);

/*
 * Account the interval since t->mark_start up to @now for a task on
 * @cpu: @running (on the CPU: counts toward the CPU's window sums and the
 * demand) or @waiting (runnable, not running: counts toward demand when
 * cfg->account_wait) or neither (sleeping). Rolls @cpu's windows first.
 * A clock going backwards is ignored (returns false, nothing changes):
 * @now before t->mark_start, or before @cpu's current window.
 */
bool ut_walt_task_update(struct ut_walt_task *t, struct ut_walt_cpu *cpu,
			 const struct ut_walt_cfg *cfg, u64 now, bool running,
			 bool waiting, u32 scale);

/* Roll @cpu's windows forward to @now (e.g. when it has been idle). */
void ut_walt_cpu_rollover(struct ut_walt_cpu *cpu,
			  const struct ut_walt_cfg *cfg, u64 now);

/*
 * Roll @cpu to @now counting [@busy_since, @now) as its running task's
 * busy time, not yet accounted (0: no task runs): the sums a read at
 * @now should see. Meant for a copy of the CPU's state.
 */
void ut_walt_cpu_project(struct ut_walt_cpu *cpu, const struct ut_walt_cfg *cfg,
			 u64 busy_since, u64 now, u32 scale);

/*
 * Migration fix-up: move @t's curr/prev contributions from @src to @dst.
 * Both CPUs must have been rolled to the same window and @t updated
 * to that window (ut_walt_task_update on @src just before).
 */
void ut_walt_migrate(struct ut_walt_task *t, struct ut_walt_cpu *src,
		     struct ut_walt_cpu *dst);

/*
 * @t's contribution to the prev sum of a CPU whose current window starts
 * at @cpu_window_start, without modifying @t (its own windows roll
 * lazily). Used to verify prev_sum == sum of the tasks' prev parts.
 */
u64 ut_walt_task_prev_for(const struct ut_walt_task *t,
			  const struct ut_walt_cfg *cfg, u64 cpu_window_start);

/* Likewise @t's contribution to that CPU's curr sum. */
u64 ut_walt_task_curr_for(const struct ut_walt_task *t, u64 cpu_window_start);

/* Scaled ns per window to capacity units 0..1024. */
u32 ut_walt_to_util(const struct ut_walt_cfg *cfg, u64 scaled_ns);

#endif /* _UTILTRACK_WALT_H */
