// SPDX-License-Identifier: GPL-2.0
/*
 * pelt_kunit.c - utiltrack_pelt: module/core/pelt.c against closed forms.
 *
 * PELT sums 1024-us periods with weights y^n, y^32 = 1/2. The reference
 * values here are computed without the decay table: y^16 = sqrt(1/2),
 * y^8 and y^4 are further square roots, so y^t for t a multiple of 4 is
 * a product of at most three of them and a shift. The table entries in
 * between are checked through the identity y^n * y^(32 - n) = 1/2.
 * A signal running from zero for t periods is 1024 * (1 - y^t); one
 * idle for t periods keeps y^t of what it had.
 */

#include <linux/math.h>
#include <utiltrack/pelt.h>

#include "utiltrack_kunit.h"

#define FX_ONE		BIT_ULL(32)		/* 1.0 in 0.32 fixed point */
#define PERIOD		UT_KUNIT_PERIOD_NS

static u64 fx_sqrt(u64 x)
{
	return int_sqrt(x << 32);	/* x <= 2^32: no overflow */
}

/* y^t in 0.32 fixed point for t a multiple of 4, from square roots. */
static u64 y_pow(unsigned int t)
{
	u64 y16 = fx_sqrt(FX_ONE / 2), y8 = fx_sqrt(y16), y4 = fx_sqrt(y8);
	u64 r = FX_ONE;

	if (t & 16)
		r = (r * y16) >> 32;
	if (t & 8)
		r = (r * y8) >> 32;
	if (t & 4)
		r = (r * y4) >> 32;
	return r >> (t / 32);
}

/* 1024 * y^t, rounded */
static u32 util_y_pow(unsigned int t)
{
	return (u32)((1024 * y_pow(t) + FX_ONE / 2) >> 32);
}

static void uint_desc(const unsigned int *v, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "n=%u", *v);
}

/* ------------------------------------------------------------------ */

static const unsigned int mult4[] = { 0, 4, 8, 12, 16, 20, 24, 28 };

KUNIT_ARRAY_PARAM(mult4, mult4, uint_desc);

/* decay(2^32, n) is y^n itself: against the square-root closed form. */
static void pelt_decay_table_closed_form(struct kunit *test)
{
	unsigned int n = *(const unsigned int *)test->param_value;

	UT_KUNIT_EXPECT_NEAR(test, ut_pelt_decay(FX_ONE, n), y_pow(n), 4);
}

static const unsigned int all32[] = {
	1, 2, 3, 5, 6, 7, 9, 10, 11, 13, 14, 15, 17, 18, 19, 21, 22, 23, 25,
	26, 27, 29, 30, 31,
};

KUNIT_ARRAY_PARAM(all32, all32, uint_desc);

/* Every entry: y^n * y^(32-n) = 1/2, and the table strictly decreases. */
static void pelt_decay_table_half_life(struct kunit *test)
{
	unsigned int n = *(const unsigned int *)test->param_value;
	u64 yn = ut_pelt_decay(FX_ONE, n);

	UT_KUNIT_EXPECT_NEAR(test, ut_pelt_decay(yn, 32 - n), FX_ONE / 2, 3);
	KUNIT_EXPECT_LT(test, yn, ut_pelt_decay(FX_ONE, n - 1));
	KUNIT_EXPECT_GT(test, yn, ut_pelt_decay(FX_ONE, n + 1));
}

/* Whole half-lives are shifts; past 63 of them everything is gone. */
static void pelt_decay_long_range(struct kunit *test)
{
	u64 v = U64_MAX;
	unsigned int k;

	for (k = 1; k <= 63; k++)
		UT_KUNIT_EXPECT_NEAR(test, ut_pelt_decay(v, 32 * k),
				     v >> k, ((v >> k) >> 31) + 1);
	KUNIT_EXPECT_EQ(test, ut_pelt_decay(v, 32 * 63 + 1), 0);
	KUNIT_EXPECT_EQ(test, ut_pelt_decay(v, 1ULL << 40), 0);
	KUNIT_EXPECT_EQ(test, ut_pelt_decay(0, 5), 0);
}

/* ------------------------------------------------------------------ */

static const unsigned int spans[] = { 4, 8, 16, 32, 48, 64, 100, 128, 200, 320 };

KUNIT_ARRAY_PARAM(spans, spans, uint_desc);

/* From zero, running t periods: 1024 * (1 - y^t). */
static void pelt_ramp_closed_form(struct kunit *test)
{
	unsigned int t = *(const unsigned int *)test->param_value;
	struct ut_pelt sa;

	ut_pelt_init(&sa, 0, 0, 0);
	KUNIT_EXPECT_TRUE(test, ut_pelt_update(&sa, t * PERIOD, true, true,
					       1024));
	UT_KUNIT_EXPECT_NEAR(test, sa.util_avg, 1024 - util_y_pow(t), 3);
	UT_KUNIT_EXPECT_NEAR(test, sa.runnable_avg, 1024 - util_y_pow(t), 3);
}

/* From saturation, idle t periods: y^t of it. */
static void pelt_decay_closed_form(struct kunit *test)
{
	unsigned int t = *(const unsigned int *)test->param_value;
	struct ut_pelt sa;
	u32 full;

	ut_pelt_init(&sa, 0, 0, 0);
	ut_pelt_update(&sa, 2000 * PERIOD, true, true, 1024);
	full = sa.util_avg;
	ut_pelt_update(&sa, (2000 + t) * PERIOD, false, false, 1024);
	UT_KUNIT_EXPECT_NEAR(test, sa.util_avg,
			     (full * y_pow(t) + FX_ONE / 2) >> 32, 3);
}

/* ------------------------------------------------------------------ */

struct duty {
	unsigned int pct;	/* busy share */
	unsigned int period_us;
};

static const struct duty duties[] = {
	{ 10, 2000 }, { 25, 4000 }, { 50, 4000 }, { 75, 4000 },
	{ 90, 2000 }, { 50, 16000 }, { 30, 10000 },
};

static void duty_desc(const struct duty *d, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%u%% of %u us", d->pct,
		 d->period_us);
}

KUNIT_ARRAY_PARAM(duties, duties, duty_desc);

/*
 * A periodic task settles where the mean of its peak and trough is its
 * duty cycle (within 3 %, the noise floor of the comparisons people
 * make with these signals).
 */
static void pelt_duty_cycles(struct kunit *test)
{
	const struct duty *d = test->param_value;
	u64 busy = (u64)d->period_us * 1000 * d->pct / 100;
	u64 period = (u64)d->period_us * 1000, t = 0;
	u64 sum = 0;
	unsigned int i, n = 0;
	struct ut_pelt sa;

	ut_pelt_init(&sa, 0, 0, 0);
	for (i = 0; t < 2000000000ULL; i++) {
		ut_pelt_update(&sa, t + busy, true, true, 1024);
		if (t > 1000000000ULL)
			sum += sa.util_avg;
		ut_pelt_update(&sa, t + period, false, false, 1024);
		if (t > 1000000000ULL) {
			sum += sa.util_avg;
			n += 2;
		}
		t += period;
	}
	UT_KUNIT_EXPECT_NEAR(test, div_u64(sum, n), 1024 * d->pct / 100, 31);
}

static void pelt_saturates_below_1024(struct kunit *test)
{
	struct ut_pelt sa;

	ut_pelt_init(&sa, 0, 0, 0);
	ut_pelt_update(&sa, 10000 * PERIOD, true, true, 1024);
	KUNIT_EXPECT_GE(test, sa.util_avg, 1010);
	KUNIT_EXPECT_LE(test, sa.util_avg, 1024);
	KUNIT_EXPECT_LE(test, sa.util_sum, (u32)UT_PELT_MAX * 1024);
}

static void pelt_clock_backwards_ignored(struct kunit *test)
{
	struct ut_pelt sa, before;

	ut_pelt_init(&sa, 0, 0, 0);
	ut_pelt_update(&sa, 100 * PERIOD, true, true, 1024);
	before = sa;
	KUNIT_EXPECT_FALSE(test, ut_pelt_update(&sa, 50 * PERIOD, false,
						false, 1024));
	KUNIT_EXPECT_EQ(test, memcmp(&sa, &before, sizeof(sa)), 0);
}

/* Time advances in 1024-ns units; many small steps equal one big one. */
static void pelt_small_steps_equal_one(struct kunit *test)
{
	struct ut_pelt a, b;
	u64 t;

	ut_pelt_init(&a, 0, 0, 0);
	ut_pelt_init(&b, 0, 0, 0);
	KUNIT_EXPECT_FALSE(test, ut_pelt_update(&a, 1023, true, true, 1024));
	KUNIT_EXPECT_TRUE(test, ut_pelt_update(&a, 1024, true, true, 1024));
	for (t = 1024; t <= 100 * PERIOD; t += 1000)
		ut_pelt_update(&a, t, true, true, 1024);
	ut_pelt_update(&a, 100 * PERIOD, true, true, 1024);
	ut_pelt_update(&b, 100 * PERIOD, true, true, 1024);
	UT_KUNIT_EXPECT_NEAR(test, a.util_avg, b.util_avg, 1);
}

/* The scale multiplies the contribution: at half capacity, half util. */
static void pelt_scale_is_invariance(struct kunit *test)
{
	struct ut_pelt sa;

	ut_pelt_init(&sa, 0, 0, 0);
	ut_pelt_update(&sa, 5000 * PERIOD, true, true, 512);
	UT_KUNIT_EXPECT_NEAR(test, sa.util_avg, 512, 4);
	/* above 1024 counts as 1024 */
	ut_pelt_update(&sa, 10000 * PERIOD, true, true, 4096);
	KUNIT_EXPECT_LE(test, sa.util_avg, 1024);
	KUNIT_EXPECT_GE(test, sa.util_avg, 1010);
}

/*
 * A CPU's PELT clock runs at the scale while a task runs, backwards too,
 * and is the task clock again once the CPU idles.
 */
static void pelt_clock_scaled_while_busy(struct kunit *test)
{
	struct ut_pelt_clock pc = {};
	u64 t = 1000 * PERIOD;

	/* not started: the task clock */
	KUNIT_EXPECT_EQ(test, ut_pelt_clock_advance(&pc, t, 512), t);
	ut_pelt_clock_set_busy(&pc, true);
	KUNIT_EXPECT_EQ(test, ut_pelt_clock_advance(&pc, t + 8 * PERIOD, 512),
			t + 4 * PERIOD);
	KUNIT_EXPECT_EQ(test, ut_pelt_clock_at(&pc, t + 10 * PERIOD, 256),
			t + 4 * PERIOD + PERIOD / 2);
	/* a time behind the mark reads back along the clock, moves nothing */
	KUNIT_EXPECT_EQ(test, ut_pelt_clock_advance(&pc, t + 6 * PERIOD, 512),
			t + 3 * PERIOD);
	KUNIT_EXPECT_EQ(test, pc.mark, t + 8 * PERIOD);
	/* idle: the lag is given back at once */
	ut_pelt_clock_set_busy(&pc, false);
	KUNIT_EXPECT_EQ(test, ut_pelt_clock_at(&pc, t + 9 * PERIOD, 512),
			t + 9 * PERIOD);
	/* busy again with no event between: it runs on from the mark */
	ut_pelt_clock_set_busy(&pc, true);
	KUNIT_EXPECT_EQ(test, ut_pelt_clock_at(&pc, t + 10 * PERIOD, 512),
			t + 9 * PERIOD);
	/* at full scale it keeps pace with the task clock */
	KUNIT_EXPECT_EQ(test, ut_pelt_clock_advance(&pc, t + 20 * PERIOD, 1024),
			t + 20 * PERIOD);
}

static void pelt_attach_at_takes_the_cpu_position(struct kunit *test)
{
	struct ut_pelt cpu, se;
	u32 util;

	ut_pelt_init(&cpu, 0, 0, 0);
	ut_pelt_update(&cpu, 100 * PERIOD + 300 * 1024, false, false, 1024);
	ut_pelt_init(&se, 0, 0, 0);
	ut_pelt_update(&se, 40 * PERIOD + 700 * 1024, true, true, 1024);
	util = se.util_avg;
	KUNIT_ASSERT_GT(test, util, 0U);
	ut_pelt_attach_at(&se, &cpu);
	KUNIT_EXPECT_EQ(test, se.last_update_time, cpu.last_update_time);
	KUNIT_EXPECT_EQ(test, se.period_contrib, cpu.period_contrib);
	KUNIT_EXPECT_EQ(test, se.util_avg, util);
	KUNIT_EXPECT_EQ(test, se.util_sum,
			util * (UT_PELT_MIN_DIVIDER + cpu.period_contrib));
	/* on from there, not from its old clock: a period decays it once */
	ut_pelt_update(&se, cpu.last_update_time + PERIOD, false, false, 1024);
	UT_KUNIT_EXPECT_NEAR(test, se.util_avg, util * 1002 / 1024, 3);
}

static void pelt_runnable_without_running(struct kunit *test)
{
	struct ut_pelt sa;

	ut_pelt_init(&sa, 0, 0, 0);
	ut_pelt_update(&sa, 320 * PERIOD, false, true, 1024);
	KUNIT_EXPECT_EQ(test, sa.util_avg, 0);
	UT_KUNIT_EXPECT_NEAR(test, sa.runnable_avg, 1024 - util_y_pow(320), 3);
	/* running implies runnable */
	ut_pelt_update(&sa, 640 * PERIOD, true, false, 1024);
	KUNIT_EXPECT_EQ(test, sa.util_avg, 0);
}

/*
 * A CPU counts its queued tasks (the kernel's cfs_rq passes h_nr_running):
 * n of them runnable accrue n times one task's runnable average, while
 * util, which only one of them at a time can earn, does not change.
 */
static void pelt_runnable_counts_entities(struct kunit *test)
{
	struct ut_pelt one, three;

	ut_pelt_init(&one, 0, 0, 0);
	ut_pelt_init(&three, 0, 0, 0);
	ut_pelt_update(&one, 100 * PERIOD + 512, true, 1, 1024);
	ut_pelt_update(&three, 100 * PERIOD + 512, true, 3, 1024);
	KUNIT_EXPECT_EQ(test, three.util_avg, one.util_avg);
	KUNIT_EXPECT_EQ(test, three.runnable_sum, 3 * one.runnable_sum);
	UT_KUNIT_EXPECT_NEAR(test, three.runnable_avg, 3 * one.runnable_avg, 2);
	/* saturated, it settles near 3 * 1024, above the 0..1024 of util */
	ut_pelt_update(&three, 2000 * PERIOD, true, 3, 1024);
	KUNIT_EXPECT_GT(test, three.runnable_avg, 3 * 1000);
	KUNIT_EXPECT_LE(test, three.runnable_avg, 3 * 1024);
	KUNIT_EXPECT_LE(test, three.util_avg, 1024);
}

/* Attach and detach: sums follow the averages, and never go below 0. */
static void pelt_add_sub_saturate(struct kunit *test)
{
	struct ut_pelt cpu;

	ut_pelt_init(&cpu, 0, 300, 300);
	ut_pelt_add(&cpu, 200, 250);
	KUNIT_EXPECT_EQ(test, cpu.util_avg, 500);
	KUNIT_EXPECT_EQ(test, cpu.runnable_avg, 550);
	KUNIT_EXPECT_EQ(test, cpu.util_sum, 500 * ut_pelt_divider(&cpu));
	ut_pelt_sub(&cpu, 600, 100);
	KUNIT_EXPECT_EQ(test, cpu.util_avg, 0);
	KUNIT_EXPECT_EQ(test, cpu.util_sum, 0);
	KUNIT_EXPECT_EQ(test, cpu.runnable_avg, 450);
	KUNIT_EXPECT_GE(test, cpu.runnable_sum, 450ULL * UT_PELT_MIN_DIVIDER);
}

static struct kunit_case pelt_cases[] = {
	KUNIT_CASE_PARAM(pelt_decay_table_closed_form, mult4_gen_params),
	KUNIT_CASE_PARAM(pelt_decay_table_half_life, all32_gen_params),
	KUNIT_CASE(pelt_decay_long_range),
	KUNIT_CASE_PARAM(pelt_ramp_closed_form, spans_gen_params),
	KUNIT_CASE_PARAM(pelt_decay_closed_form, spans_gen_params),
	KUNIT_CASE_PARAM(pelt_duty_cycles, duties_gen_params),
	KUNIT_CASE(pelt_saturates_below_1024),
	KUNIT_CASE(pelt_clock_backwards_ignored),
	KUNIT_CASE(pelt_small_steps_equal_one),
	KUNIT_CASE(pelt_scale_is_invariance),
	KUNIT_CASE(pelt_clock_scaled_while_busy),
	KUNIT_CASE(pelt_attach_at_takes_the_cpu_position),
	KUNIT_CASE(pelt_runnable_without_running),
	KUNIT_CASE(pelt_runnable_counts_entities),
	KUNIT_CASE(pelt_add_sub_saturate),
	{}
};

static struct kunit_suite pelt_suite = {
	.name = "utiltrack_pelt",
	.test_cases = pelt_cases,
};

kunit_test_suites(&pelt_suite);
