// SPDX-License-Identifier: GPL-2.0
/*
 * cost_kunit.c - utiltrack's self-measurement (module/cost.c): nothing
 * recorded while off, percentiles from the histogram while on, and each
 * tracker's share of an event.
 *
 * A duration is recorded as now - t0, so the tests pass t0 = now - D and
 * pick each D in the middle of a wide bucket: the few microseconds
 * between the two clock reads (more under TCG) stay inside it.
 */

#include <linux/sched/clock.h>

#include "utiltrack_kunit.h"

#define D_MAIN		1200000ULL	/* bucket 1048576..1310719 */
#define D_MAIN_TOP	1310719ULL
#define D_OUTLIER	40000000ULL	/* bucket 33554432..41943039 */

/* Interrupts off: nothing in the guest stretches the duration (the host can). */
static void record(enum ut_tp tp, u64 ns)
{
	unsigned long flags;

	local_irq_save(flags);
	ut_cost_end(tp, local_clock() - ns);
	local_irq_restore(flags);
}

static u64 events(enum ut_tp tp)
{
	u64 n = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		n += per_cpu(ut_cpus, cpu).events[tp];
	return n;
}

static int cost_test_init(struct kunit *test)
{
	ut_kunit_reset(0);
	return 0;
}

/* a tracker a test set up (test->priv): freed even when an assert failed */
static void cost_test_exit(struct kunit *test)
{
	if (test->priv)
		ut_cost_tracker_free(test->priv);
	ut_cost_exit();
}

/* Off (the default): nothing recorded, no figures; events still counted. */
static void cost_off_records_nothing(struct kunit *test)
{
	struct ut_cost_summary sum;
	u64 before = events(UT_TP_EXEC);

	KUNIT_EXPECT_FALSE(test, ut_cost_enabled());
	KUNIT_EXPECT_EQ(test, ut_cost_begin(), 0);
	record(UT_TP_EXEC, D_MAIN);
	KUNIT_EXPECT_EQ(test, ut_cost_summary(UT_TP_EXEC, &sum), -ENODATA);
	KUNIT_EXPECT_EQ(test, sum.count, 0);
	KUNIT_EXPECT_EQ(test, events(UT_TP_EXEC), before + 1);
}

/*
 * 995 durations of ~1.2 ms and 5 of ~40 ms: p50 = p99 = the first's bucket
 * top. Under TCG the host can stall a vCPU for milliseconds even with
 * interrupts off, stretching a sample or two (one in a hundred was seen
 * at 5 ms): p99 (the 990th smallest) stays in the bucket for up to five
 * such stalls, and the mean's bound allows them too.
 */
static void cost_percentiles(struct kunit *test)
{
	struct ut_cost_summary sum;
	int i;

	KUNIT_ASSERT_EQ(test, ut_cost_set(true), 0);
	KUNIT_EXPECT_TRUE(test, ut_cost_enabled());
	KUNIT_EXPECT_NE(test, ut_cost_begin(), 0);
	for (i = 0; i < 995; i++)
		record(UT_TP_SWITCH, D_MAIN);
	for (i = 0; i < 5; i++)
		record(UT_TP_SWITCH, D_OUTLIER);
	KUNIT_ASSERT_EQ(test, ut_cost_summary(UT_TP_SWITCH, &sum), 0);
	KUNIT_EXPECT_EQ(test, sum.count, 1000);
	KUNIT_EXPECT_EQ(test, sum.p50_ns, D_MAIN_TOP);
	KUNIT_EXPECT_EQ(test, sum.p99_ns, D_MAIN_TOP);
	KUNIT_EXPECT_GE(test, sum.max_ns, D_OUTLIER);
	/* (995 * 1.2 ms + 5 * 40 ms) / 1000, plus the clock reads and stalls */
	KUNIT_EXPECT_GE(test, sum.mean_ns, 1394000);
	KUNIT_EXPECT_LE(test, sum.mean_ns, 1394000 + 100000);
	/* another event's figures are its own */
	KUNIT_ASSERT_EQ(test, ut_cost_summary(UT_TP_WAKEUP, &sum), 0);
	KUNIT_EXPECT_EQ(test, sum.count, 0);
	KUNIT_EXPECT_EQ(test, sum.p99_ns, 0);
}

/* Off keeps the figures; on again starts from zero. */
static void cost_off_keeps_on_clears(struct kunit *test)
{
	struct ut_cost_summary sum;

	KUNIT_ASSERT_EQ(test, ut_cost_set(true), 0);
	record(UT_TP_TICK, D_MAIN);
	KUNIT_ASSERT_EQ(test, ut_cost_set(false), 0);
	record(UT_TP_TICK, D_MAIN);
	KUNIT_ASSERT_EQ(test, ut_cost_summary(UT_TP_TICK, &sum), 0);
	KUNIT_EXPECT_EQ(test, sum.count, 1);
	KUNIT_ASSERT_EQ(test, ut_cost_set(true), 0);
	KUNIT_ASSERT_EQ(test, ut_cost_summary(UT_TP_TICK, &sum), 0);
	KUNIT_EXPECT_EQ(test, sum.count, 0);
	/* switching on twice is not an error, and clears nothing */
	record(UT_TP_TICK, D_MAIN);
	KUNIT_ASSERT_EQ(test, ut_cost_set(true), 0);
	KUNIT_ASSERT_EQ(test, ut_cost_summary(UT_TP_TICK, &sum), 0);
	KUNIT_EXPECT_EQ(test, sum.count, 1);
}

static void record_tracker(struct ut_tracker *tr, u64 ns)
{
	unsigned long flags;

	local_irq_save(flags);
	ut_cost_tracker_end(tr, local_clock() - ns);
	local_irq_restore(flags);
}

/*
 * A tracker's share: nothing while off or at level 1, recorded at level
 * 2, kept when switched off, and gone at the next switch-on although
 * switching on never touched the tracker's histograms (their epoch is
 * stale). Levels above 2 are refused.
 */
static void cost_tracker_share(struct kunit *test)
{
	struct ut_tracker *tr = kunit_kzalloc(test, sizeof(*tr), GFP_KERNEL);
	struct ut_cost_summary sum;
	int i;

	KUNIT_ASSERT_NOT_NULL(test, tr);
	KUNIT_ASSERT_EQ(test, ut_cost_tracker_alloc(tr), 0);
	test->priv = tr;
	record_tracker(tr, D_MAIN);
	/* level 1: the probes only */
	KUNIT_ASSERT_EQ(test, ut_cost_set(UT_COST_EVENTS), 0);
	KUNIT_EXPECT_EQ(test, ut_cost_tracker_begin(), 0);
	record_tracker(tr, D_MAIN);
	KUNIT_ASSERT_EQ(test, ut_cost_tracker_summary(tr, &sum), 0);
	KUNIT_EXPECT_EQ(test, sum.count, 0);
	KUNIT_ASSERT_EQ(test, ut_cost_set(UT_COST_TRACKERS), 0);
	KUNIT_EXPECT_NE(test, ut_cost_tracker_begin(), 0);
	KUNIT_ASSERT_EQ(test, ut_cost_tracker_summary(tr, &sum), 0);
	KUNIT_EXPECT_EQ(test, sum.count, 0);
	/*
	 * A CPU's first record after a switch-on clears its histogram, a
	 * path that runs for the first time here: under TCG its translation
	 * alone can push that one duration into the next bucket. Nine of
	 * ten keep the median in D_MAIN's.
	 */
	for (i = 0; i < 9; i++)
		record_tracker(tr, D_MAIN);
	record_tracker(tr, D_OUTLIER);
	KUNIT_ASSERT_EQ(test, ut_cost_set(false), 0);
	record_tracker(tr, D_MAIN);
	KUNIT_ASSERT_EQ(test, ut_cost_tracker_summary(tr, &sum), 0);
	KUNIT_EXPECT_EQ(test, sum.count, 10);
	KUNIT_EXPECT_EQ(test, sum.p50_ns, D_MAIN_TOP);
	KUNIT_EXPECT_GE(test, sum.max_ns, D_OUTLIER);
	KUNIT_ASSERT_EQ(test, ut_cost_set(UT_COST_TRACKERS), 0);
	KUNIT_ASSERT_EQ(test, ut_cost_tracker_summary(tr, &sum), 0);
	KUNIT_EXPECT_EQ(test, sum.count, 0);
	record_tracker(tr, D_MAIN);
	KUNIT_ASSERT_EQ(test, ut_cost_tracker_summary(tr, &sum), 0);
	KUNIT_EXPECT_EQ(test, sum.count, 1);
	/* a percentile is its bucket's top, but never above the maximum */
	KUNIT_EXPECT_EQ(test, sum.p99_ns, sum.max_ns);
	KUNIT_EXPECT_GE(test, sum.p99_ns, D_MAIN);
	ut_cost_tracker_free(tr);
	KUNIT_EXPECT_EQ(test, ut_cost_tracker_summary(tr, &sum), -ENODATA);
	KUNIT_EXPECT_EQ(test, ut_cost_set(UT_COST_TRACKERS + 1), -EINVAL);
	KUNIT_EXPECT_EQ(test, ut_cost_enabled(), UT_COST_TRACKERS);
}

static struct kunit_case cost_cases[] = {
	KUNIT_CASE(cost_off_records_nothing),
	KUNIT_CASE(cost_percentiles),
	KUNIT_CASE(cost_off_keeps_on_clears),
	KUNIT_CASE(cost_tracker_share),
	{}
};

static struct kunit_suite cost_suite = {
	.name = "utiltrack_cost",
	.init = cost_test_init,
	.exit = cost_test_exit,
	.test_cases = cost_cases,
};

kunit_test_suites(&cost_suite);
