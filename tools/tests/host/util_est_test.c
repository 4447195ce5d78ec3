// SPDX-License-Identifier: GPL-2.0
/*
 * util_est_test.c - module/core/util_est.c driven by module/core/pelt.c,
 * as the util_est tracker drives them: a periodic task's PELT util at
 * each sleep is a sample, and its estimate against the closed form of
 * the PELT peak of its duty cycle.
 *
 * A task running r of every p ms settles at a peak of
 * 1024 (1 - y^r) / (1 - y^p) as it goes to sleep, and wakes with
 * that times y^(p - r).
 */
#include <math.h>
#include <utiltrack/pelt.h>
#include <utiltrack/util_est.h>
#include "ut_test.h"

#define MS_NS		1000000ULL
#define PERIOD_NS	(1024ULL * 1024)

static const struct ut_util_est_rules rules_61 = { .max_with_last = true };
static const struct ut_util_est_rules rules_612 = {
	.max_with_last = false, .runnable_check = true,
};

static double peak_of(double run_ms, double period_ms)
{
	double y = pow(0.5, 1.0 / UT_PELT_PERIOD);
	double r = run_ms * 1e6 / PERIOD_NS, p = period_ms * 1e6 / PERIOD_NS;

	return 1024 * (1 - pow(y, r)) / (1 - pow(y, p));
}

/*
 * @n periods of @run_ms busy in @period_ms from *@t; at each sleep the
 * estimate takes a sample, as trackers/util_est.c does after the run's
 * PELT update (the rules of 6.1). Returns the util at the last sleep.
 */
static u32 run_periodic(const struct ut_util_est_rules *r, struct ut_pelt *sa,
			struct ut_util_est *ue, u64 *t, unsigned int run_ms,
			unsigned int period_ms, int n)
{
	u32 util = 0;

	while (n--) {
		ut_pelt_update(sa, *t, false, 0, 1024);
		ut_util_est_util_changed(ue);	/* a whole sleep: periods ended */
		*t += run_ms * MS_NS;
		ut_pelt_update(sa, *t, true, 1, 1024);
		util = sa->util_avg;
		ut_util_est_sleep(r, ue, util, sa->runnable_avg, 1024);
		*t += (period_ms - run_ms) * MS_NS;
	}
	return util;
}

/* The estimate is the peak of the cycle, where util_avg has its trough. */
UT_TEST(util_est_holds_periodic_peak)
{
	const struct ut_util_est_rules *rules[] = { &rules_61, &rules_612 };
	unsigned int i;

	for (i = 0; i < 2; i++) {
		struct ut_pelt sa;
		struct ut_util_est ue = { 0 };
		u64 t = 0;
		double peak = peak_of(4, 16);

		ut_pelt_init(&sa, 0, 0, 0);
		run_periodic(rules[i], &sa, &ue, &t, 4, 16, 300);
		UT_EXPECT(fabs(ut_util_est_value(rules[i], &ue) - peak) < 24);
		/* at the next wakeup util_avg has decayed well below it */
		ut_pelt_update(&sa, t, false, 0, 1024);
		UT_EXPECT(ut_util_est_value(rules[i], &ue) > sa.util_avg + 40);
	}
}

/*
 * The task shrinks from 8/16 to 2/16 ms: its estimate falls a quarter of
 * the way per sample, so it is above the new peak for a while and has
 * reached it (within the 1 % margin) after a few dozen sleeps.
 */
UT_TEST(util_est_follows_shrinking_task)
{
	struct ut_util_est ue = { 0 };
	struct ut_pelt sa;
	u64 t = 0;
	u32 before, low = (u32)peak_of(2, 16);

	ut_pelt_init(&sa, 0, 0, 0);
	run_periodic(&rules_612, &sa, &ue, &t, 8, 16, 300);
	before = ue.ewma;
	UT_EXPECT(fabs(before - peak_of(8, 16)) < 24);
	run_periodic(&rules_612, &sa, &ue, &t, 2, 16, 3);
	UT_EXPECT(ue.ewma < before);
	UT_EXPECT(ue.ewma > low + 100);
	run_periodic(&rules_612, &sa, &ue, &t, 2, 16, 300);
	UT_EXPECT(fabs((double)ue.ewma - low) < 24 + UT_UTIL_EST_MARGIN);
}
