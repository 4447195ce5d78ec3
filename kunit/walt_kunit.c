// SPDX-License-Identifier: GPL-2.0
/*
 * walt_kunit.c - utiltrack_walt: module/core/walt.c, window by window.
 *
 * Windows of 20 ms. A task's busy time goes to its CPU's current window
 * sum (prev_sum, once the window closes, is the frequency signal); its
 * demand comes from a history of its busy time per window, combined per
 * the policy.
 */

#include <linux/time64.h>
#include <utiltrack/walt.h>

#include "utiltrack_kunit.h"

#define W	(20 * NSEC_PER_MSEC)
#define MS	NSEC_PER_MSEC
#define T0	(1000 * W)	/* a window boundary far from zero */

static struct ut_walt_cfg cfg_of(enum ut_walt_policy policy, bool wait)
{
	struct ut_walt_cfg cfg = {
		.window = W,
		.policy = policy,
		.account_wait = wait,
	};

	return cfg;
}

/* One task on one CPU, both started at T0. */
struct walt_rig {
	struct ut_walt_cfg cfg;
	struct ut_walt_cpu cpu;
	struct ut_walt_task t;
};

static void rig_init(struct walt_rig *r, enum ut_walt_policy policy,
		     bool wait)
{
	r->cfg = cfg_of(policy, wait);
	ut_walt_cpu_init(&r->cpu, &r->cfg, T0);
	ut_walt_task_init(&r->t, &r->cfg, T0);
}

/* The task runs [@from, @to) in a window, idle otherwise. */
static void rig_run(struct walt_rig *r, u64 from, u64 to)
{
	ut_walt_task_update(&r->t, &r->cpu, &r->cfg, from, false, false, 1024);
	ut_walt_task_update(&r->t, &r->cpu, &r->cfg, to, true, false, 1024);
}

/* ------------------------------------------------------------------ */

struct window_case {
	u64 now, start;
};

static const struct window_case windows[] = {
	{ 0, 0 }, { 1, 0 }, { W - 1, 0 }, { W, W }, { W + 1, W },
	{ 5 * W + 7, 5 * W }, { T0 + W / 2, T0 },
};

static void window_desc(const struct window_case *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "now=%llu", c->now);
}

KUNIT_ARRAY_PARAM(windows, windows, window_desc);

static void walt_window_of(struct kunit *test)
{
	const struct window_case *c = test->param_value;
	struct ut_walt_cfg cfg = cfg_of(UT_WALT_MAX_RECENT_AVG, false);

	KUNIT_EXPECT_EQ(test, ut_walt_window_of(&cfg, c->now), c->start);
}

/* One window on: curr becomes prev. More: both are empty. Back: nothing. */
static void walt_cpu_rollover(struct kunit *test)
{
	struct ut_walt_cfg cfg = cfg_of(UT_WALT_MAX_RECENT_AVG, false);
	struct ut_walt_cpu cpu;

	ut_walt_cpu_init(&cpu, &cfg, T0 + 3 * MS);
	KUNIT_EXPECT_EQ(test, cpu.window_start, T0);
	cpu.curr_sum = 7 * MS;
	cpu.prev_sum = 2 * MS;
	ut_walt_cpu_rollover(&cpu, &cfg, T0 + W);
	KUNIT_EXPECT_EQ(test, cpu.prev_sum, 7 * MS);
	KUNIT_EXPECT_EQ(test, cpu.curr_sum, 0);
	KUNIT_EXPECT_EQ(test, cpu.window_start, T0 + W);
	ut_walt_cpu_rollover(&cpu, &cfg, T0 + W / 2);
	KUNIT_EXPECT_EQ(test, cpu.window_start, T0 + W);
	KUNIT_EXPECT_EQ(test, cpu.prev_sum, 7 * MS);
	cpu.curr_sum = 5 * MS;
	ut_walt_cpu_rollover(&cpu, &cfg, T0 + 3 * W + 1);
	KUNIT_EXPECT_EQ(test, cpu.prev_sum, 0);
	KUNIT_EXPECT_EQ(test, cpu.curr_sum, 0);
	KUNIT_EXPECT_EQ(test, cpu.window_start, T0 + 3 * W);
}

static void walt_new_task_is_15_percent(struct kunit *test)
{
	struct walt_rig r;
	int i;

	rig_init(&r, UT_WALT_MAX_RECENT_AVG, false);
	KUNIT_EXPECT_EQ(test, r.t.demand, 3 * MS);
	for (i = 0; i < UT_WALT_HIST; i++)
		KUNIT_EXPECT_EQ(test, r.t.hist[i], 3 * MS);
	KUNIT_EXPECT_EQ(test, ut_walt_to_util(&r.cfg, r.t.demand), 153);
}

struct util_case {
	u64 ns;
	u32 util;
};

static const struct util_case utils[] = {
	{ 0, 0 }, { W / 4, 256 }, { W / 2, 512 }, { W - 1, 1023 },
	{ W, 1024 }, { 3 * W, 1024 },
};

static void util_desc(const struct util_case *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%llu ns", c->ns);
}

KUNIT_ARRAY_PARAM(utils, utils, util_desc);

static void walt_to_util(struct kunit *test)
{
	const struct util_case *c = test->param_value;
	struct ut_walt_cfg cfg = cfg_of(UT_WALT_MAX_RECENT_AVG, false);

	KUNIT_EXPECT_EQ(test, ut_walt_to_util(&cfg, c->ns), c->util);
}

/* Half of every window busy: demand and the CPU's signal are half. */
static void walt_half_busy(struct kunit *test)
{
	struct walt_rig r;
	int k;

	rig_init(&r, UT_WALT_MAX_RECENT_AVG, false);
	for (k = 0; k < 6; k++)
		rig_run(&r, T0 + k * W, T0 + k * W + 10 * MS);
	ut_walt_task_update(&r.t, &r.cpu, &r.cfg, T0 + 6 * W + 1, false,
			    false, 1024);
	KUNIT_EXPECT_EQ(test, r.t.demand, 10 * MS);
	KUNIT_EXPECT_EQ(test, r.cpu.prev_sum, 10 * MS);
	KUNIT_EXPECT_EQ(test, r.cpu.curr_sum, 0);
	KUNIT_EXPECT_EQ(test, ut_walt_to_util(&r.cfg, r.cpu.prev_sum), 512);
}

struct policy_case {
	enum ut_walt_policy policy;
	const char *name;
	u64 demand;
};

/* busy 10, 8, 6, 4, 2 ms in five windows: recent 2, max 10, avg 6 */
static const struct policy_case policies[] = {
	{ UT_WALT_MAX_RECENT_AVG, "max_recent_avg", 6 * MS },
	{ UT_WALT_RECENT, "recent", 2 * MS },
	{ UT_WALT_MAX, "max", 10 * MS },
	{ UT_WALT_AVG, "avg", 6 * MS },
};

static void policy_desc(const struct policy_case *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s", c->name);
}

KUNIT_ARRAY_PARAM(policies, policies, policy_desc);

static void walt_policies(struct kunit *test)
{
	const struct policy_case *c = test->param_value;
	struct walt_rig r;
	int k;

	rig_init(&r, c->policy, false);
	for (k = 0; k < 5; k++)
		rig_run(&r, T0 + k * W, T0 + k * W + (10 - 2 * k) * MS);
	ut_walt_task_update(&r.t, &r.cpu, &r.cfg, T0 + 5 * W, false, false,
			    1024);
	KUNIT_EXPECT_EQ(test, r.t.hist[0], 2 * MS);
	KUNIT_EXPECT_EQ(test, r.t.hist[4], 10 * MS);
	KUNIT_EXPECT_EQ(test, r.t.demand, c->demand);
}

/* A run across a boundary splits between the two windows. */
static void walt_run_across_boundary(struct kunit *test)
{
	struct walt_rig r;

	rig_init(&r, UT_WALT_MAX_RECENT_AVG, false);
	rig_run(&r, T0 + W - 5 * MS, T0 + W + 5 * MS);
	KUNIT_EXPECT_EQ(test, r.cpu.window_start, T0 + W);
	KUNIT_EXPECT_EQ(test, r.cpu.prev_sum, 5 * MS);
	KUNIT_EXPECT_EQ(test, r.cpu.curr_sum, 5 * MS);
	KUNIT_EXPECT_EQ(test, r.t.prev_window, 5 * MS);
	KUNIT_EXPECT_EQ(test, r.t.curr_window, 5 * MS);
	/* the closed window's 5 ms entered the history */
	KUNIT_EXPECT_EQ(test, r.t.hist[0], 5 * MS);
}

/* A run ending exactly on a boundary belongs wholly to the closed window. */
static void walt_run_ends_on_boundary(struct kunit *test)
{
	struct walt_rig r;

	rig_init(&r, UT_WALT_MAX_RECENT_AVG, false);
	rig_run(&r, T0 + W - 8 * MS, T0 + W);
	KUNIT_EXPECT_EQ(test, r.cpu.window_start, T0 + W);
	KUNIT_EXPECT_EQ(test, r.cpu.prev_sum, 8 * MS);
	KUNIT_EXPECT_EQ(test, r.cpu.curr_sum, 0);
	KUNIT_EXPECT_EQ(test, ut_walt_task_prev_for(&r.t, &r.cfg, T0 + W),
			8 * MS);
}

/* A sleep over many windows leaves nothing in either sum. */
static void walt_long_sleep(struct kunit *test)
{
	struct walt_rig r;

	rig_init(&r, UT_WALT_MAX_RECENT_AVG, false);
	rig_run(&r, T0, T0 + 10 * MS);
	ut_walt_task_update(&r.t, &r.cpu, &r.cfg, T0 + 10 * W + 1, false,
			    false, 1024);
	KUNIT_EXPECT_EQ(test, r.cpu.prev_sum, 0);
	KUNIT_EXPECT_EQ(test, r.cpu.curr_sum, 0);
	KUNIT_EXPECT_EQ(test, ut_walt_task_prev_for(&r.t, &r.cfg,
						    r.cpu.window_start), 0);
	KUNIT_EXPECT_EQ(test, ut_walt_task_curr_for(&r.t, r.cpu.window_start),
			0);
}

/* Migration takes the task's part of both sums along, never below 0. */
static void walt_migration_fixup(struct kunit *test)
{
	struct ut_walt_cfg cfg = cfg_of(UT_WALT_MAX_RECENT_AVG, false);
	struct ut_walt_cpu src, dst;
	struct walt_rig r;

	rig_init(&r, UT_WALT_MAX_RECENT_AVG, false);
	rig_run(&r, T0 + W - 6 * MS, T0 + W + 4 * MS);
	src = r.cpu;
	src.curr_sum += 3 * MS;		/* another task's share stays */
	ut_walt_cpu_init(&dst, &cfg, T0 + W + 4 * MS);
	ut_walt_migrate(&r.t, &src, &dst);
	KUNIT_EXPECT_EQ(test, src.curr_sum, 3 * MS);
	KUNIT_EXPECT_EQ(test, src.prev_sum, 0);
	KUNIT_EXPECT_EQ(test, dst.curr_sum, 4 * MS);
	KUNIT_EXPECT_EQ(test, dst.prev_sum, 6 * MS);
	/* a source that has less than the task saturates at zero */
	src.curr_sum = MS;
	ut_walt_migrate(&r.t, &src, &dst);
	KUNIT_EXPECT_EQ(test, src.curr_sum, 0);
}

static void walt_clock_backwards_ignored(struct kunit *test)
{
	struct walt_rig r, before;

	rig_init(&r, UT_WALT_MAX_RECENT_AVG, false);
	rig_run(&r, T0 + MS, T0 + 5 * MS);
	before = r;
	KUNIT_EXPECT_FALSE(test, ut_walt_task_update(&r.t, &r.cpu, &r.cfg,
						     T0 + 2 * MS, true, false,
						     1024));
	KUNIT_EXPECT_EQ(test, memcmp(&r.t, &before.t, sizeof(r.t)), 0);
	KUNIT_EXPECT_EQ(test, memcmp(&r.cpu, &before.cpu, sizeof(r.cpu)), 0);
}

/* Waiting counts toward demand only with account_wait; never as busy. */
static void walt_account_wait(struct kunit *test)
{
	struct walt_rig on, off;

	rig_init(&on, UT_WALT_RECENT, true);
	rig_init(&off, UT_WALT_RECENT, false);
	ut_walt_task_update(&on.t, &on.cpu, &on.cfg, T0 + 8 * MS, false, true,
			    1024);
	ut_walt_task_update(&off.t, &off.cpu, &off.cfg, T0 + 8 * MS, false,
			    true, 1024);
	ut_walt_task_update(&on.t, &on.cpu, &on.cfg, T0 + W, false, false,
			    1024);
	ut_walt_task_update(&off.t, &off.cpu, &off.cfg, T0 + W, false, false,
			    1024);
	KUNIT_EXPECT_EQ(test, on.t.demand, 8 * MS);
	KUNIT_EXPECT_EQ(test, off.t.demand, 3 * MS);	/* untouched */
	KUNIT_EXPECT_EQ(test, on.cpu.prev_sum, 0);
	KUNIT_EXPECT_EQ(test, off.cpu.prev_sum, 0);
}

/* The scale makes busy time invariant: at half speed, half the work. */
static void walt_scale(struct kunit *test)
{
	struct walt_rig r;

	rig_init(&r, UT_WALT_RECENT, false);
	ut_walt_task_update(&r.t, &r.cpu, &r.cfg, T0 + 12 * MS, true, false,
			    512);
	ut_walt_task_update(&r.t, &r.cpu, &r.cfg, T0 + W, false, false, 512);
	KUNIT_EXPECT_EQ(test, r.cpu.prev_sum, 6 * MS);
	KUNIT_EXPECT_EQ(test, r.t.demand, 6 * MS);
}

static struct kunit_case walt_cases[] = {
	KUNIT_CASE_PARAM(walt_window_of, windows_gen_params),
	KUNIT_CASE(walt_cpu_rollover),
	KUNIT_CASE(walt_new_task_is_15_percent),
	KUNIT_CASE_PARAM(walt_to_util, utils_gen_params),
	KUNIT_CASE(walt_half_busy),
	KUNIT_CASE_PARAM(walt_policies, policies_gen_params),
	KUNIT_CASE(walt_run_across_boundary),
	KUNIT_CASE(walt_run_ends_on_boundary),
	KUNIT_CASE(walt_long_sleep),
	KUNIT_CASE(walt_migration_fixup),
	KUNIT_CASE(walt_clock_backwards_ignored),
	KUNIT_CASE(walt_account_wait),
	KUNIT_CASE(walt_scale),
	{}
};

static struct kunit_suite walt_suite = {
	.name = "utiltrack_walt",
	.test_cases = walt_cases,
};

kunit_test_suites(&walt_suite);
