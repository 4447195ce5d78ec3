// SPDX-License-Identifier: GPL-2.0
/*
 * walt_test.c - module/core/walt.c: window arithmetic, the demand
 * policies on known histories, duty cycles, migration fix-ups, and a
 * randomized multi-CPU simulation checking that every CPU's window sums
 * are the sums of its tasks' contributions after every event.
 */
#include <string.h>
#include <utiltrack/walt.h>
#include "ut_test.h"

#define MS		1000000ULL
#define W		(20 * MS)
#define FULL		1024

static struct ut_walt_cfg cfg_of(enum ut_walt_policy policy, bool wait)
{
	struct ut_walt_cfg cfg = {
		.window = W, .policy = policy, .account_wait = wait,
	};

	return cfg;
}

/* Account @t's interval up to @now on @cpu. */
static bool run_to(struct ut_walt_task *t, struct ut_walt_cpu *cpu,
		   const struct ut_walt_cfg *cfg, u64 now)
{
	return ut_walt_task_update(t, cpu, cfg, now, true, false, FULL);
}

static bool sleep_to(struct ut_walt_task *t, struct ut_walt_cpu *cpu,
		     const struct ut_walt_cfg *cfg, u64 now)
{
	return ut_walt_task_update(t, cpu, cfg, now, false, false, FULL);
}

static bool wait_to(struct ut_walt_task *t, struct ut_walt_cpu *cpu,
		    const struct ut_walt_cfg *cfg, u64 now)
{
	return ut_walt_task_update(t, cpu, cfg, now, false, true, FULL);
}

UT_TEST(walt_window_arithmetic_and_rollover)
{
	struct ut_walt_cfg cfg = cfg_of(UT_WALT_MAX_RECENT_AVG, false);
	struct ut_walt_cpu cpu, before;

	UT_EXPECT_EQ(ut_walt_window_of(&cfg, 0), 0);
	UT_EXPECT_EQ(ut_walt_window_of(&cfg, W - 1), 0);
	UT_EXPECT_EQ(ut_walt_window_of(&cfg, W), W);
	UT_EXPECT_EQ(ut_walt_window_of(&cfg, 45 * MS), 40 * MS);

	ut_walt_cpu_init(&cpu, &cfg, 5 * MS);
	UT_EXPECT_EQ(cpu.window_start, 0);
	UT_EXPECT_EQ(cpu.curr_sum, 0);
	UT_EXPECT_EQ(cpu.prev_sum, 0);
	cpu.curr_sum = 7;
	cpu.prev_sum = 3;
	ut_walt_cpu_rollover(&cpu, &cfg, W - 1);	/* same window */
	UT_EXPECT_EQ(cpu.curr_sum, 7);
	UT_EXPECT_EQ(cpu.prev_sum, 3);
	ut_walt_cpu_rollover(&cpu, &cfg, W);		/* one window */
	UT_EXPECT_EQ(cpu.window_start, W);
	UT_EXPECT_EQ(cpu.prev_sum, 7);
	UT_EXPECT_EQ(cpu.curr_sum, 0);
	cpu.curr_sum = 9;
	ut_walt_cpu_rollover(&cpu, &cfg, 3 * W + 1);	/* two windows */
	UT_EXPECT_EQ(cpu.window_start, 3 * W);
	UT_EXPECT_EQ(cpu.prev_sum, 0);
	UT_EXPECT_EQ(cpu.curr_sum, 0);
	cpu.curr_sum = 5;
	cpu.prev_sum = 4;
	before = cpu;
	ut_walt_cpu_rollover(&cpu, &cfg, 2 * W);	/* backwards */
	UT_EXPECT(!memcmp(&cpu, &before, sizeof(cpu)));
	ut_walt_cpu_rollover(&cpu, &cfg, 0);
	UT_EXPECT(!memcmp(&cpu, &before, sizeof(cpu)));
}

UT_TEST(walt_new_task_is_15_percent)
{
	struct ut_walt_cfg cfg = cfg_of(UT_WALT_MAX_RECENT_AVG, false);
	struct ut_walt_task t;
	int i;

	ut_walt_task_init(&t, &cfg, 123 * MS);
	UT_EXPECT_EQ(t.demand, 3 * MS);
	for (i = 0; i < UT_WALT_HIST; i++)
		UT_EXPECT_EQ(t.hist[i], 3 * MS);
	UT_EXPECT_EQ(t.sum, 0);
	UT_EXPECT_EQ(t.mark_start, 123 * MS);
	UT_EXPECT_EQ(t.window_start, 120 * MS);
	UT_EXPECT_EQ(t.curr_window, 0);
	UT_EXPECT_EQ(t.prev_window, 0);
	UT_EXPECT_EQ(ut_walt_to_util(&cfg, t.demand), 153);	/* 15 % */

	cfg.window = UT_WALT_WINDOW_MAX;
	ut_walt_task_init(&t, &cfg, 0);
	UT_EXPECT_EQ(t.demand, 150 * MS);
}

UT_TEST(walt_to_util)
{
	struct ut_walt_cfg cfg = cfg_of(UT_WALT_MAX_RECENT_AVG, false);

	UT_EXPECT_EQ(ut_walt_to_util(&cfg, 0), 0);
	UT_EXPECT_EQ(ut_walt_to_util(&cfg, W / 2), 512);
	UT_EXPECT_EQ(ut_walt_to_util(&cfg, W / 4), 256);
	UT_EXPECT_EQ(ut_walt_to_util(&cfg, W - 1), 1023);
	UT_EXPECT_EQ(ut_walt_to_util(&cfg, W), 1024);
	UT_EXPECT_EQ(ut_walt_to_util(&cfg, 3 * W), 1024);
	UT_EXPECT_EQ(ut_walt_to_util(&cfg, U64_MAX), 1024);
}

UT_TEST(walt_event_on_window_boundary)
{
	struct ut_walt_cfg cfg = cfg_of(UT_WALT_MAX_RECENT_AVG, false);
	struct ut_walt_cpu cpu;
	struct ut_walt_task t;

	ut_walt_cpu_init(&cpu, &cfg, 0);
	ut_walt_task_init(&t, &cfg, 5 * MS);
	/* runs 5..20 ms: all of it belongs to the window that just closed */
	UT_EXPECT(run_to(&t, &cpu, &cfg, W));
	UT_EXPECT_EQ(cpu.window_start, W);
	UT_EXPECT_EQ(cpu.prev_sum, 15 * MS);
	UT_EXPECT_EQ(cpu.curr_sum, 0);
	UT_EXPECT_EQ(t.prev_window, 15 * MS);
	UT_EXPECT_EQ(t.curr_window, 0);
	UT_EXPECT_EQ(t.window_start, W);
	UT_EXPECT_EQ(t.hist[0], 15 * MS);
	UT_EXPECT_EQ(t.hist[1], 3 * MS);
	UT_EXPECT_EQ(t.sum, 0);
	UT_EXPECT_EQ(t.demand, 15 * MS);	/* max(5.4 ms avg, 15 ms) */

	/* runs the whole next window, boundary to boundary */
	UT_EXPECT(run_to(&t, &cpu, &cfg, 2 * W));
	UT_EXPECT_EQ(cpu.prev_sum, W);
	UT_EXPECT_EQ(cpu.curr_sum, 0);
	UT_EXPECT_EQ(t.prev_window, W);
	UT_EXPECT_EQ(t.hist[0], W);
	UT_EXPECT_EQ(t.hist[1], 15 * MS);
	UT_EXPECT_EQ(t.hist[2], 3 * MS);
	UT_EXPECT_EQ(t.sum, 0);
	UT_EXPECT_EQ(t.demand, W);
}

UT_TEST(walt_sleep_across_many_windows)
{
	struct ut_walt_cfg cfg = cfg_of(UT_WALT_MAX_RECENT_AVG, false);
	struct ut_walt_cpu cpu;
	struct ut_walt_task t;
	int i;

	ut_walt_cpu_init(&cpu, &cfg, 0);
	ut_walt_task_init(&t, &cfg, 0);
	run_to(&t, &cpu, &cfg, 10 * MS);
	UT_EXPECT_EQ(cpu.curr_sum, 10 * MS);
	/* asleep for ten windows: one sample, the empty windows dropped */
	UT_EXPECT(sleep_to(&t, &cpu, &cfg, 200 * MS + 7));
	UT_EXPECT_EQ(t.hist[0], 10 * MS);
	for (i = 1; i < UT_WALT_HIST; i++)
		UT_EXPECT_EQ(t.hist[i], 3 * MS);
	UT_EXPECT_EQ(t.demand, 10 * MS);
	UT_EXPECT_EQ(t.sum, 0);
	/* the CPU's windows are empty after two or more idle windows */
	UT_EXPECT_EQ(cpu.window_start, 200 * MS);
	UT_EXPECT_EQ(cpu.prev_sum, 0);
	UT_EXPECT_EQ(cpu.curr_sum, 0);
	UT_EXPECT_EQ(t.prev_window, 0);
	UT_EXPECT_EQ(t.curr_window, 0);
	/* and a second long sleep records nothing at all */
	UT_EXPECT(sleep_to(&t, &cpu, &cfg, 500 * MS));
	UT_EXPECT_EQ(t.hist[0], 10 * MS);
	UT_EXPECT_EQ(t.hist[1], 3 * MS);
	UT_EXPECT_EQ(t.demand, 10 * MS);
}

UT_TEST(walt_running_across_many_windows)
{
	struct ut_walt_cfg cfg = cfg_of(UT_WALT_MAX_RECENT_AVG, false);
	struct ut_walt_cpu cpu;
	struct ut_walt_task t;
	int i;

	ut_walt_cpu_init(&cpu, &cfg, 0);
	ut_walt_task_init(&t, &cfg, 0);
	sleep_to(&t, &cpu, &cfg, 5 * MS);
	/* 5..105 ms: 15 ms partial, four full windows, 5 ms open */
	UT_EXPECT(run_to(&t, &cpu, &cfg, 105 * MS));
	UT_EXPECT_EQ(t.hist[0], W);
	UT_EXPECT_EQ(t.hist[1], W);
	UT_EXPECT_EQ(t.hist[2], W);
	UT_EXPECT_EQ(t.hist[3], W);
	UT_EXPECT_EQ(t.hist[4], 15 * MS);
	UT_EXPECT_EQ(t.sum, 5 * MS);
	UT_EXPECT_EQ(t.demand, W);		/* max(19 ms avg, 20 ms) */
	UT_EXPECT_EQ(ut_walt_to_util(&cfg, t.demand), 1024);
	UT_EXPECT_EQ(cpu.window_start, 100 * MS);
	UT_EXPECT_EQ(cpu.prev_sum, W);
	UT_EXPECT_EQ(cpu.curr_sum, 5 * MS);
	UT_EXPECT_EQ(t.prev_window, W);
	UT_EXPECT_EQ(t.curr_window, 5 * MS);

	/* more full windows than the history holds */
	UT_EXPECT(run_to(&t, &cpu, &cfg, 1000 * MS + 1));
	for (i = 0; i < UT_WALT_HIST; i++)
		UT_EXPECT_EQ(t.hist[i], W);
	UT_EXPECT_EQ(t.sum, 1);
	UT_EXPECT_EQ(cpu.prev_sum, W);
	UT_EXPECT_EQ(cpu.curr_sum, 1);
}

/* Window k (k = 0..4) busy 2 (k + 1) ms, then one window busy 1 ms. */
static void policy_history(enum ut_walt_policy policy, u64 *after5,
			   u64 *after6)
{
	struct ut_walt_cfg cfg = cfg_of(policy, false);
	struct ut_walt_cpu cpu;
	struct ut_walt_task t;
	u64 k;

	ut_walt_cpu_init(&cpu, &cfg, 0);
	ut_walt_task_init(&t, &cfg, 0);
	for (k = 0; k < 5; k++) {
		sleep_to(&t, &cpu, &cfg, k * W);
		run_to(&t, &cpu, &cfg, k * W + 2 * (k + 1) * MS);
	}
	sleep_to(&t, &cpu, &cfg, 5 * W);
	UT_EXPECT_EQ(t.hist[0], 10 * MS);
	UT_EXPECT_EQ(t.hist[4], 2 * MS);
	*after5 = t.demand;
	run_to(&t, &cpu, &cfg, 5 * W + 1 * MS);
	sleep_to(&t, &cpu, &cfg, 6 * W + 3 * MS);
	UT_EXPECT_EQ(t.hist[0], 1 * MS);
	UT_EXPECT_EQ(t.hist[4], 4 * MS);
	*after6 = t.demand;
}

UT_TEST(walt_policies)
{
	u64 a, b;

	/* history 10 8 6 4 2 ms, then 1 10 8 6 4 ms */
	policy_history(UT_WALT_RECENT, &a, &b);
	UT_EXPECT_EQ(a, 10 * MS);
	UT_EXPECT_EQ(b, 1 * MS);
	policy_history(UT_WALT_MAX, &a, &b);
	UT_EXPECT_EQ(a, 10 * MS);
	UT_EXPECT_EQ(b, 10 * MS);
	policy_history(UT_WALT_AVG, &a, &b);
	UT_EXPECT_EQ(a, 6 * MS);
	UT_EXPECT_EQ(b, 5800000);
	policy_history(UT_WALT_MAX_RECENT_AVG, &a, &b);
	UT_EXPECT_EQ(a, 10 * MS);
	UT_EXPECT_EQ(b, 5800000);
}

/*
 * Periodic task: @on of every @period running, the rest sleeping (or
 * waiting, with @wait), from 0 to @until.
 */
static void periodic(struct ut_walt_task *t, struct ut_walt_cpu *cpu,
		     const struct ut_walt_cfg *cfg, u64 from, u64 until,
		     u64 period, u64 on, bool wait)
{
	u64 now;

	for (now = from; now < until; now += period) {
		if (wait)
			wait_to(t, cpu, cfg, now);
		else
			sleep_to(t, cpu, cfg, now);
		run_to(t, cpu, cfg, now + on);
	}
	if (wait)
		wait_to(t, cpu, cfg, until);
	else
		sleep_to(t, cpu, cfg, until);
}

UT_TEST(walt_duty_50_percent)
{
	struct ut_walt_cfg cfg = cfg_of(UT_WALT_MAX_RECENT_AVG, false);
	struct ut_walt_cpu cpu;
	struct ut_walt_task t;

	ut_walt_cpu_init(&cpu, &cfg, 0);
	ut_walt_task_init(&t, &cfg, 0);
	periodic(&t, &cpu, &cfg, 0, 400 * MS, 10 * MS, 5 * MS, false);
	UT_EXPECT_EQ(ut_walt_to_util(&cfg, t.demand), 512);
	UT_EXPECT_EQ(ut_walt_to_util(&cfg, cpu.prev_sum), 512);

	/* the same pattern off the window grid: 3 ms phase */
	ut_walt_cpu_init(&cpu, &cfg, 0);
	ut_walt_task_init(&t, &cfg, 0);
	periodic(&t, &cpu, &cfg, 3 * MS, 403 * MS, 10 * MS, 5 * MS, false);
	UT_EXPECT_NEAR(ut_walt_to_util(&cfg, t.demand), 512, 1);
	UT_EXPECT_NEAR(ut_walt_to_util(&cfg, cpu.prev_sum), 512, 1);
}

UT_TEST(walt_account_wait)
{
	struct ut_walt_cfg cfg = cfg_of(UT_WALT_MAX_RECENT_AVG, true);
	struct ut_walt_cpu cpu;
	struct ut_walt_task t;

	/* waiting counts toward demand, never toward the CPU's busy time */
	ut_walt_cpu_init(&cpu, &cfg, 0);
	ut_walt_task_init(&t, &cfg, 0);
	periodic(&t, &cpu, &cfg, 0, 400 * MS, 10 * MS, 5 * MS, true);
	UT_EXPECT_EQ(ut_walt_to_util(&cfg, t.demand), 1024);
	UT_EXPECT_EQ(ut_walt_to_util(&cfg, cpu.prev_sum), 512);

	cfg.account_wait = false;
	ut_walt_cpu_init(&cpu, &cfg, 0);
	ut_walt_task_init(&t, &cfg, 0);
	periodic(&t, &cpu, &cfg, 0, 400 * MS, 10 * MS, 5 * MS, true);
	UT_EXPECT_EQ(ut_walt_to_util(&cfg, t.demand), 512);
}

UT_TEST(walt_step_10_to_90_percent)
{
	struct ut_walt_cfg cfg = cfg_of(UT_WALT_MAX_RECENT_AVG, false);
	struct ut_walt_cpu cpu;
	struct ut_walt_task t;

	ut_walt_cpu_init(&cpu, &cfg, 0);
	ut_walt_task_init(&t, &cfg, 0);
	periodic(&t, &cpu, &cfg, 0, 200 * MS, 10 * MS, 1 * MS, false);
	UT_EXPECT_EQ(ut_walt_to_util(&cfg, t.demand), 102);
	/*
	 * 90 % from 200 ms: two windows later the demand is the latest
	 * window, 18 ms of 20, i.e. 921.6 -> 921 in truncated capacity
	 * units.
	 */
	periodic(&t, &cpu, &cfg, 200 * MS, 240 * MS, 10 * MS, 9 * MS, false);
	UT_EXPECT(t.demand * 10 >= W * 9);
	UT_EXPECT(ut_walt_to_util(&cfg, t.demand) >= 921);
	UT_EXPECT(ut_walt_to_util(&cfg, cpu.prev_sum) >= 921);
	/* and the step down is smoothed by the average */
	periodic(&t, &cpu, &cfg, 240 * MS, 260 * MS, 10 * MS, 1 * MS, false);
	UT_EXPECT_EQ(t.hist[0], 2 * MS);
	UT_EXPECT_EQ(t.demand, (2 + 18 + 18 + 2 + 2) * MS / 5);
}

UT_TEST(walt_scale)
{
	struct ut_walt_cfg cfg = cfg_of(UT_WALT_MAX_RECENT_AVG, false);
	struct ut_walt_cpu cpu;
	struct ut_walt_task t;

	ut_walt_cpu_init(&cpu, &cfg, 0);
	ut_walt_task_init(&t, &cfg, 0);
	UT_EXPECT(ut_walt_task_update(&t, &cpu, &cfg, 10 * MS, true, false,
				      512));
	UT_EXPECT_EQ(cpu.curr_sum, 5 * MS);
	UT_EXPECT_EQ(t.curr_window, 5 * MS);
	UT_EXPECT_EQ(t.sum, 5 * MS);
	/*
	 * On at quarter speed until 60 ms: the rest of window 0 adds 2.5 ms
	 * to its 5; the two full windows are a quarter window each.
	 */
	UT_EXPECT(ut_walt_task_update(&t, &cpu, &cfg, 3 * W, true, false,
				      256));
	UT_EXPECT_EQ(t.hist[0], W / 4);
	UT_EXPECT_EQ(t.hist[1], W / 4);
	UT_EXPECT_EQ(t.hist[2], 7500000);
	UT_EXPECT_EQ(t.hist[3], 3 * MS);
	UT_EXPECT_EQ(cpu.prev_sum, W / 4);
	UT_EXPECT_EQ(cpu.curr_sum, 0);

	/* above 1024 (boost) the demand still tops out at one window */
	UT_EXPECT(ut_walt_task_update(&t, &cpu, &cfg, 3 * W + 15 * MS, true,
				      false, 2048));
	UT_EXPECT_EQ(t.sum, W);
	UT_EXPECT_EQ(t.curr_window, 30 * MS);
	UT_EXPECT(ut_walt_task_update(&t, &cpu, &cfg, 4 * W, false, false,
				      FULL));
	UT_EXPECT_EQ(t.hist[0], W);
	UT_EXPECT_EQ(t.demand, W);
}

UT_TEST(walt_migration_moves_contributions)
{
	struct ut_walt_cfg cfg = cfg_of(UT_WALT_MAX_RECENT_AVG, false);
	struct ut_walt_cpu a, b;
	struct ut_walt_task t1, t2;
	u64 prev, curr;

	ut_walt_cpu_init(&a, &cfg, 0);
	ut_walt_cpu_init(&b, &cfg, 0);
	ut_walt_task_init(&t1, &cfg, 0);
	ut_walt_task_init(&t2, &cfg, 0);
	run_to(&t1, &a, &cfg, 5 * MS);
	wait_to(&t2, &a, &cfg, 5 * MS);
	run_to(&t2, &a, &cfg, 12 * MS);
	sleep_to(&t1, &a, &cfg, W);
	run_to(&t1, &a, &cfg, W + 5 * MS);
	UT_EXPECT_EQ(a.prev_sum, 12 * MS);
	UT_EXPECT_EQ(a.curr_sum, 5 * MS);

	/* t1 moves to b mid-window, carrying 5 ms of prev and 5 of curr */
	prev = a.prev_sum + b.prev_sum;
	curr = a.curr_sum + b.curr_sum;
	ut_walt_cpu_rollover(&b, &cfg, W + 5 * MS);
	ut_walt_migrate(&t1, &a, &b);
	UT_EXPECT_EQ(a.prev_sum, 7 * MS);
	UT_EXPECT_EQ(a.curr_sum, 0);
	UT_EXPECT_EQ(b.prev_sum, 5 * MS);
	UT_EXPECT_EQ(b.curr_sum, 5 * MS);
	UT_EXPECT_EQ(a.prev_sum + b.prev_sum, prev);
	UT_EXPECT_EQ(a.curr_sum + b.curr_sum, curr);
	UT_EXPECT_EQ(a.prev_sum, ut_walt_task_prev_for(&t2, &cfg,
						       a.window_start));

	/* and keeps accumulating there */
	run_to(&t1, &b, &cfg, W + 8 * MS);
	UT_EXPECT_EQ(b.curr_sum, 8 * MS);
	UT_EXPECT_EQ(t1.curr_window, 8 * MS);
	/* removal saturates rather than wrapping */
	a.curr_sum = 0;
	a.prev_sum = 1;
	ut_walt_migrate(&t1, &a, &b);
	UT_EXPECT_EQ(a.curr_sum, 0);
	UT_EXPECT_EQ(a.prev_sum, 0);
}

UT_TEST(walt_clock_backwards_ignored)
{
	struct ut_walt_cfg cfg = cfg_of(UT_WALT_MAX_RECENT_AVG, true);
	struct ut_walt_task t, t2, before;
	struct ut_walt_cpu cpu, cpu_before;

	ut_walt_cpu_init(&cpu, &cfg, 0);
	ut_walt_task_init(&t, &cfg, 0);
	run_to(&t, &cpu, &cfg, 30 * MS);
	before = t;
	cpu_before = cpu;
	UT_EXPECT(!run_to(&t, &cpu, &cfg, 29 * MS));
	UT_EXPECT(!wait_to(&t, &cpu, &cfg, 0));
	UT_EXPECT(!memcmp(&t, &before, sizeof(t)));
	UT_EXPECT(!memcmp(&cpu, &cpu_before, sizeof(cpu)));

	/* a CPU already rolled past @now by a later clock */
	ut_walt_task_init(&t2, &cfg, 10 * MS);
	run_to(&t, &cpu, &cfg, 45 * MS);
	before = t2;
	cpu_before = cpu;
	UT_EXPECT(!run_to(&t2, &cpu, &cfg, 35 * MS));
	UT_EXPECT(!memcmp(&t2, &before, sizeof(t2)));
	UT_EXPECT(!memcmp(&cpu, &cpu_before, sizeof(cpu)));
	/* the time is not lost: the next update accounts it */
	UT_EXPECT(run_to(&t2, &cpu, &cfg, 46 * MS));
	UT_EXPECT_EQ(t2.curr_window, 6 * MS);
	UT_EXPECT_EQ(t2.prev_window, W);
}

/*
 * A read between updates: projecting a running task's unaccounted time
 * onto a copy of its CPU gives the sums the task's next update writes,
 * from any mark and to any time (within a window, across one boundary or
 * many), with invariance too; no task, or a mark not before @now, only
 * rolls the windows.
 */
UT_TEST(walt_cpu_project_is_the_next_update)
{
	static const u64 marks[] = { 25 * MS, 39 * MS, 40 * MS, 41 * MS };
	static const u64 ahead[] = { 0, 1, MS, 15 * MS, W, W + 3 * MS,
				     2 * W, 7 * W + 5 * MS };
	static const u32 scales[] = { FULL, 700 };
	struct ut_walt_cfg cfg = cfg_of(UT_WALT_MAX_RECENT_AVG, false);
	struct ut_walt_task t, tu;
	struct ut_walt_cpu cpu, cu, cp;
	unsigned int i, j, k;

	for (i = 0; i < sizeof(marks) / sizeof(marks[0]); i++)
		for (j = 0; j < sizeof(ahead) / sizeof(ahead[0]); j++)
			for (k = 0; k < 2; k++) {
				u64 now = marks[i] + ahead[j];

				ut_walt_cpu_init(&cpu, &cfg, 0);
				ut_walt_task_init(&t, &cfg, 0);
				/* busy 10..20 ms, then running since the mark */
				sleep_to(&t, &cpu, &cfg, 10 * MS);
				run_to(&t, &cpu, &cfg, 20 * MS);
				sleep_to(&t, &cpu, &cfg, marks[i]);
				tu = t;
				cu = cpu;
				ut_walt_task_update(&tu, &cu, &cfg, now, true,
						    false, scales[k]);
				cp = cpu;
				ut_walt_cpu_project(&cp, &cfg, marks[i], now,
						    scales[k]);
				UT_EXPECT_EQ(cp.window_start, cu.window_start);
				UT_EXPECT_EQ(cp.prev_sum, cu.prev_sum);
				UT_EXPECT_EQ(cp.curr_sum, cu.curr_sum);
			}

	ut_walt_cpu_init(&cpu, &cfg, 0);
	ut_walt_task_init(&t, &cfg, 0);
	run_to(&t, &cpu, &cfg, 30 * MS);
	cp = cpu;
	ut_walt_cpu_project(&cp, &cfg, 0, 45 * MS, FULL);
	cu = cpu;
	ut_walt_cpu_rollover(&cu, &cfg, 45 * MS);
	UT_EXPECT(!memcmp(&cp, &cu, sizeof(cp)));
	cp = cpu;
	ut_walt_cpu_project(&cp, &cfg, 50 * MS, 45 * MS, FULL);
	UT_EXPECT(!memcmp(&cp, &cu, sizeof(cp)));
	/*
	 * a read whose clock is behind the CPU's window (rolled ahead by a
	 * migration from a CPU with a later clock) changes nothing
	 */
	cp = cpu;
	ut_walt_cpu_rollover(&cp, &cfg, 65 * MS);
	cu = cp;
	ut_walt_cpu_project(&cp, &cfg, 50 * MS, 58 * MS, FULL);
	UT_EXPECT(!memcmp(&cp, &cu, sizeof(cp)));
}

/*
 * Randomized simulation: tasks wake, wait, run, get preempted, sleep and
 * migrate across CPUs at random times (often exactly on boundaries, at
 * times across many windows). After every event each CPU's prev/curr
 * sums must equal the sums of the contributions of the tasks last
 * accounted there, and with scale 1024 each task's contributions must
 * equal its running time per window, tracked independently here.
 */
#define SIM_CPUS	4
#define SIM_TASKS	10

enum { SIM_SLEEP, SIM_WAIT, SIM_RUN };

struct sim_task {
	struct ut_walt_task t;
	int cpu, state;
	u64 led_w[2], led_ns[2];	/* running ns in the last windows */
};

static u64 sim_rng;

static u64 sim_rand(void)
{
	/* xorshift64*: deterministic across runs and libcs */
	sim_rng ^= sim_rng >> 12;
	sim_rng ^= sim_rng << 25;
	sim_rng ^= sim_rng >> 27;
	return sim_rng * 0x2545f4914f6cdd1dULL;
}

static u64 sim_below(u64 n)
{
	return (sim_rand() >> 11) % n;
}

/*
 * Record running time [a, b) per window. Unused slots hold window 0 with
 * 0 ns, which is what window 0 has anyway, and are the first evicted.
 */
static void sim_ledger(struct sim_task *st, const struct ut_walt_cfg *cfg,
		       u64 a, u64 b)
{
	u64 lo, hi, oldest = ut_walt_window_of(cfg, b);
	int i;

	/* only the window of b and the one before can still be read */
	if (oldest >= cfg->window && a < oldest - cfg->window)
		a = oldest - cfg->window;
	for (lo = a; lo < b; lo = hi) {
		u64 ws = ut_walt_window_of(cfg, lo);

		hi = ws + cfg->window < b ? ws + cfg->window : b;
		if (st->led_w[0] == ws)
			i = 0;
		else if (st->led_w[1] == ws)
			i = 1;
		else
			i = st->led_w[0] < st->led_w[1] ? 0 : 1;
		if (st->led_w[i] != ws) {
			st->led_w[i] = ws;
			st->led_ns[i] = 0;
		}
		st->led_ns[i] += hi - lo;
	}
}

static u64 sim_ledger_of(const struct sim_task *st, u64 ws)
{
	if (st->led_w[0] == ws)
		return st->led_ns[0];
	if (st->led_w[1] == ws)
		return st->led_ns[1];
	return 0;
}

static bool sim_update(struct sim_task *st, struct ut_walt_cpu *cpus,
		       const struct ut_walt_cfg *cfg, u64 now, u32 scale)
{
	u64 ms = st->t.mark_start;
	bool ok;

	ok = ut_walt_task_update(&st->t, &cpus[st->cpu], cfg, now,
				 st->state == SIM_RUN,
				 st->state == SIM_WAIT, scale);
	if (ok && st->state == SIM_RUN)
		sim_ledger(st, cfg, ms, now);
	return ok;
}

static int sim_check(struct sim_task *tasks, struct ut_walt_cpu *cpus,
		     const struct ut_walt_cfg *cfg, bool exact)
{
	int c, i, bad = 0;

	for (c = 0; c < SIM_CPUS; c++) {
		u64 ws = cpus[c].window_start, prev = 0, curr = 0;

		for (i = 0; i < SIM_TASKS; i++) {
			struct sim_task *st = &tasks[i];
			u64 p, q;

			if (st->cpu != c)
				continue;
			p = ut_walt_task_prev_for(&st->t, cfg, ws);
			q = ut_walt_task_curr_for(&st->t, ws);
			prev += p;
			curr += q;
			if (exact && (p != sim_ledger_of(st, ws - cfg->window) ||
				      q != sim_ledger_of(st, ws)))
				bad++;
		}
		bad += prev != cpus[c].prev_sum;
		bad += curr != cpus[c].curr_sum;
	}
	for (i = 0; i < SIM_TASKS; i++) {
		const struct ut_walt_task *t = &tasks[i].t;
		int h;

		bad += t->curr_window > cfg->window;
		bad += t->prev_window > cfg->window;
		bad += t->sum > cfg->window;
		bad += t->demand > cfg->window;
		for (h = 0; h < UT_WALT_HIST; h++)
			bad += t->hist[h] > cfg->window;
	}
	return bad;
}

static u64 sim_step(const struct ut_walt_cfg *cfg, u64 now)
{
	switch (sim_below(8)) {
	case 0:		/* to the next window boundary exactly */
		return ut_walt_window_of(cfg, now) + cfg->window;
	case 1:		/* across many windows */
		return now + sim_below(6 * cfg->window);
	case 2:		/* nothing at all */
		return now;
	default:	/* a scheduling slice */
		return now + sim_below(4 * MS);
	}
}

static int sim_run(const struct ut_walt_cfg *cfg, u64 seed, bool exact,
		   int events)
{
	struct ut_walt_cpu cpus[SIM_CPUS];
	struct sim_task tasks[SIM_TASKS];
	int running[SIM_CPUS];
	u64 now = 1234567;
	int i, e, bad = 0, migrations = 0;

	sim_rng = seed;
	memset(tasks, 0, sizeof(tasks));
	for (i = 0; i < SIM_CPUS; i++) {
		ut_walt_cpu_init(&cpus[i], cfg, now);
		running[i] = -1;
	}
	for (i = 0; i < SIM_TASKS; i++) {
		ut_walt_task_init(&tasks[i].t, cfg, now);
		tasks[i].cpu = i % SIM_CPUS;
		tasks[i].state = SIM_SLEEP;
	}

	for (e = 0; e < events; e++) {
		struct sim_task *st = &tasks[sim_below(SIM_TASKS)];
		int c = (int)sim_below(SIM_CPUS);
		u32 scale = exact ? FULL : 256 + (u32)sim_below(769);

		now = sim_step(cfg, now);
		switch (sim_below(6)) {
		case 0:		/* wake, perhaps elsewhere */
			if (st->state != SIM_SLEEP)
				break;
			bad += !sim_update(st, cpus, cfg, now, scale);
			if (c != st->cpu) {
				ut_walt_cpu_rollover(&cpus[c], cfg, now);
				ut_walt_migrate(&st->t, &cpus[st->cpu],
						&cpus[c]);
				st->cpu = c;
				migrations++;
			}
			st->state = SIM_WAIT;
			break;
		case 1:		/* context switch on c */
			if (running[c] >= 0) {
				struct sim_task *cur = &tasks[running[c]];

				bad += !sim_update(cur, cpus, cfg, now, scale);
				cur->state = sim_below(2) ? SIM_WAIT : SIM_SLEEP;
				running[c] = -1;
			}
			for (i = 0; i < SIM_TASKS; i++) {
				struct sim_task *nx = &tasks[(st - tasks + i) %
							     SIM_TASKS];

				if (nx->cpu != c || nx->state != SIM_WAIT)
					continue;
				bad += !sim_update(nx, cpus, cfg, now, scale);
				nx->state = SIM_RUN;
				running[c] = (int)(nx - tasks);
				break;
			}
			break;
		case 2:		/* load balance a waiting task */
			if (st->state != SIM_WAIT || c == st->cpu)
				break;
			bad += !sim_update(st, cpus, cfg, now, scale);
			ut_walt_cpu_rollover(&cpus[c], cfg, now);
			ut_walt_migrate(&st->t, &cpus[st->cpu], &cpus[c]);
			st->cpu = c;
			migrations++;
			break;
		case 3:		/* tick */
			if (running[c] >= 0)
				bad += !sim_update(&tasks[running[c]], cpus,
						   cfg, now, scale);
			break;
		case 4:		/* an idle CPU's windows roll */
			ut_walt_cpu_rollover(&cpus[c], cfg, now);
			break;
		case 5:		/* a stale timestamp */
			if (st->t.mark_start) {
				struct ut_walt_task before = st->t;
				struct ut_walt_cpu cb = cpus[st->cpu];

				bad += ut_walt_task_update(&st->t,
					&cpus[st->cpu], cfg,
					st->t.mark_start - 1 -
					sim_below(st->t.mark_start), true,
					false, scale);
				bad += !!memcmp(&before, &st->t, sizeof(before));
				bad += !!memcmp(&cb, &cpus[st->cpu], sizeof(cb));
			}
			break;
		}
		bad += sim_check(tasks, cpus, cfg, exact);
	}
	if (migrations < events / 50) {
		fprintf(stderr, "  only %d migrations\n", migrations);
		bad++;
	}
	return bad;
}

UT_TEST(walt_random_sums_are_task_contributions)
{
	struct ut_walt_cfg cfg = cfg_of(UT_WALT_MAX_RECENT_AVG, false);

	UT_EXPECT_EQ(sim_run(&cfg, 0x5eed0001, true, 5000), 0);
	cfg.account_wait = true;
	cfg.policy = UT_WALT_AVG;
	UT_EXPECT_EQ(sim_run(&cfg, 0x5eed0002, true, 5000), 0);
	cfg.window = UT_WALT_WINDOW_MIN;
	cfg.policy = UT_WALT_MAX;
	UT_EXPECT_EQ(sim_run(&cfg, 0x5eed0003, false, 5000), 0);
	cfg.window = 16 * MS + 12345;	/* not a round number */
	cfg.policy = UT_WALT_RECENT;
	UT_EXPECT_EQ(sim_run(&cfg, 0x5eed0004, false, 5000), 0);
}
