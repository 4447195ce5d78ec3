// SPDX-License-Identifier: GPL-2.0
/*
 * util_est_kunit.c - utiltrack_util_est: module/core/util_est.c against
 * kernel/sched/fair.c's util_est_update(), rule by rule, for the rules
 * of 6.1 and of 6.12 (include/utiltrack/util_est.h).
 */

#include <utiltrack/util_est.h>

#include "utiltrack_kunit.h"

static const struct ut_util_est_rules rules_61 = {
	.max_with_last = true,
	.runnable_check = false,
};

static const struct ut_util_est_rules rules_612 = {
	.max_with_last = false,
	.runnable_check = true,
};

static const struct ut_util_est_rules *const both[] = { &rules_61, &rules_612 };

static void rules_desc(const struct ut_util_est_rules *const *r, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s",
		 (*r)->max_with_last ? "6.1" : "6.12");
}

KUNIT_ARRAY_PARAM(both, both, rules_desc);

static const struct ut_util_est_rules *rules_of(struct kunit *test)
{
	return *(const struct ut_util_est_rules *const *)test->param_value;
}

#define CAP	1024

/* An increase is taken at once; the same util again is no new sample. */
static void util_est_follows_increase(struct kunit *test)
{
	const struct ut_util_est_rules *r = rules_of(test);
	struct ut_util_est ue = { .ewma = 100 };

	ut_util_est_sleep(r, &ue, 300, 300, CAP);
	KUNIT_EXPECT_EQ(test, ue.ewma, 300);
	KUNIT_EXPECT_EQ(test, ut_util_est_value(r, &ue), 300);
	KUNIT_EXPECT_TRUE(test, ue.unchanged);
	/* no PELT period since: a smaller util is not taken */
	ut_util_est_sleep(r, &ue, 100, 100, CAP);
	KUNIT_EXPECT_EQ(test, ue.ewma, 300);
	ut_util_est_util_changed(&ue);
	ut_util_est_sleep(r, &ue, 100, 100, CAP);
	KUNIT_EXPECT_NE(test, ue.ewma, 300);
}

/* A decrease moves the EWMA a quarter of the way: 400 -> 200 gives 350. */
static void util_est_decrease_quarter(struct kunit *test)
{
	const struct ut_util_est_rules *r = rules_of(test);
	struct ut_util_est ue = { .ewma = 400, .last = 400 };

	ut_util_est_sleep(r, &ue, 200, 200, CAP);
	KUNIT_EXPECT_EQ(test, ue.ewma, 350);
	KUNIT_EXPECT_TRUE(test, ue.unchanged);
	/* 6.1 keeps the last sleep's util beside it, 6.12 the EWMA alone */
	KUNIT_EXPECT_EQ(test, ut_util_est_value(r, &ue), 350);
}

/* Samples of 100 from 1000: 100 + 900 * (3/4)^n, until within 1 %. */
static void util_est_converges(struct kunit *test)
{
	const struct ut_util_est_rules *r = rules_of(test);
	struct ut_util_est ue = { .ewma = 1000, .last = 1000 };
	u32 expect = 1000;
	int i;

	for (i = 0; i < 40; i++) {
		ut_util_est_util_changed(&ue);
		ut_util_est_sleep(r, &ue, 100, 100, CAP);
		if (expect - 100 >= UT_UTIL_EST_MARGIN)
			expect = (4 * expect - (expect - 100)) / 4;
		KUNIT_ASSERT_EQ_MSG(test, ue.ewma, expect, "sample %d", i);
	}
	KUNIT_EXPECT_LT(test, ue.ewma - 100, UT_UTIL_EST_MARGIN);
}

/* util above the CPU's capacity: no idle time, so no sample at all. */
static void util_est_skips_full_cpu(struct kunit *test)
{
	const struct ut_util_est_rules *r = rules_of(test);
	struct ut_util_est ue = { .ewma = 800, .last = 800 };

	ut_util_est_sleep(r, &ue, 600, 600, 512);
	KUNIT_EXPECT_EQ(test, ue.ewma, 800);
	KUNIT_EXPECT_FALSE(test, ue.unchanged);
	ut_util_est_sleep(r, &ue, 600, 600, 1024);
	KUNIT_EXPECT_EQ(test, ue.ewma, 750);
}

/*
 * 6.2+: a task that waited (runnable above util by the margin) may want
 * more than its util says, so the EWMA does not fall; 6.1 takes it.
 */
static void util_est_runnable_check(struct kunit *test)
{
	struct ut_util_est a = { .ewma = 400, .last = 400 }, b = a;

	ut_util_est_sleep(&rules_612, &a, 200, 300, CAP);
	KUNIT_EXPECT_EQ(test, a.ewma, 400);
	KUNIT_EXPECT_TRUE(test, a.unchanged);
	ut_util_est_sleep(&rules_61, &b, 200, 300, CAP);
	KUNIT_EXPECT_EQ(test, b.ewma, 350);
	/* within the margin of util: not waiting */
	a.unchanged = false;
	ut_util_est_sleep(&rules_612, &a, 200, 209, CAP);
	KUNIT_EXPECT_EQ(test, a.ewma, 350);
}

/*
 * Within 1 % of the EWMA: 6.12 keeps the EWMA and marks the sample
 * taken; 6.1 stores the new last util only when that moved by 1 %, and
 * otherwise stores nothing (the next sleep is still a sample).
 */
static void util_est_margin(struct kunit *test)
{
	struct ut_util_est a = { .ewma = 400 };
	struct ut_util_est b = { .ewma = 400, .last = 300 };
	struct ut_util_est c = { .ewma = 400, .last = 395 };

	ut_util_est_sleep(&rules_612, &a, 395, 395, CAP);
	KUNIT_EXPECT_EQ(test, a.ewma, 400);
	KUNIT_EXPECT_TRUE(test, a.unchanged);

	ut_util_est_sleep(&rules_61, &b, 395, 395, CAP);
	KUNIT_EXPECT_EQ(test, b.ewma, 400);
	KUNIT_EXPECT_EQ(test, b.last, 395);
	KUNIT_EXPECT_TRUE(test, b.unchanged);

	ut_util_est_sleep(&rules_61, &c, 391, 391, CAP);
	KUNIT_EXPECT_EQ(test, c.ewma, 400);
	KUNIT_EXPECT_EQ(test, c.last, 395);
	KUNIT_EXPECT_FALSE(test, c.unchanged);
}

/* 6.1's estimate is max(ewma, last): a sleep's util above a fallen EWMA. */
static void util_est_value_max_with_last(struct kunit *test)
{
	struct ut_util_est ue = { .ewma = 300, .last = 500 };

	KUNIT_EXPECT_EQ(test, ut_util_est_value(&rules_61, &ue), 500);
	KUNIT_EXPECT_EQ(test, ut_util_est_value(&rules_612, &ue), 300);
	/* equal util: 6.12 takes it as an increase, 6.1 as within margin */
	ue = (struct ut_util_est){ .ewma = 300, .last = 100 };
	ut_util_est_sleep(&rules_61, &ue, 300, 300, CAP);
	KUNIT_EXPECT_EQ(test, ue.last, 300);
	KUNIT_EXPECT_TRUE(test, ue.unchanged);
}

static struct kunit_case util_est_cases[] = {
	KUNIT_CASE_PARAM(util_est_follows_increase, both_gen_params),
	KUNIT_CASE_PARAM(util_est_decrease_quarter, both_gen_params),
	KUNIT_CASE_PARAM(util_est_converges, both_gen_params),
	KUNIT_CASE_PARAM(util_est_skips_full_cpu, both_gen_params),
	KUNIT_CASE(util_est_runnable_check),
	KUNIT_CASE(util_est_margin),
	KUNIT_CASE(util_est_value_max_with_last),
	{}
};

static struct kunit_suite util_est_suite = {
	.name = "utiltrack_util_est",
	.test_cases = util_est_cases,
};

kunit_test_suites(&util_est_suite);
