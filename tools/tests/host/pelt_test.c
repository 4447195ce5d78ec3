// SPDX-License-Identifier: GPL-2.0
/*
 * pelt_test.c - module/core/pelt.c against the closed forms of the
 * geometric series it approximates, and against values transcribed from
 * kernel 6.1's arithmetic.
 *
 * One PELT period is 1024 * 1024 ns; y^32 = 1/2. A signal running from
 * zero for t periods is 1024 * (1 - y^t); one saturated then idle for t
 * periods is 1024 * y^t.
 */
#define _GNU_SOURCE	/* open_memstream() */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <utiltrack/pelt.h>
#include <utiltrack/pelt_table.h>
#include "ut_test.h"

#define PERIOD_NS	(1024ULL * 1024)
#define FULL		UT_CAPACITY_SCALE
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

void ut_pelt_gen_table(FILE *out);

static double y_pow(double t)
{
	return pow(0.5, t / UT_PELT_PERIOD);
}

static char *read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "r");
	char *buf;
	long n;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = malloc(n + 1);
	*len = fread(buf, 1, n, f);
	buf[*len] = 0;
	fclose(f);
	return buf;
}

/* The checked-in header is exactly what tools/pelt/gen_pelt_table.c says. */
UT_TEST(pelt_table_matches_generator)
{
	size_t want_len = 0, have_len = 0, i, line = 1;
	char *want = NULL, *have;
	FILE *mem = open_memstream(&want, &want_len);

	UT_EXPECT(mem);
	if (!mem)
		return;
	ut_pelt_gen_table(mem);
	fclose(mem);
	have = read_file(UT_PELT_TABLE_PATH, &have_len);
	UT_EXPECT(have);
	if (have) {
		for (i = 0; i < want_len && i < have_len; i++) {
			if (want[i] != have[i])
				break;
			line += want[i] == '\n';
		}
		if (i != want_len || i != have_len)
			fprintf(stderr, "  %s: line %zu differs from %s\n%s\n",
				UT_PELT_TABLE_PATH, line,
				"tools/pelt/gen_pelt_table.c's output",
				"  (make -C tools/tests/host pelt_table)");
		UT_EXPECT_EQ(i, want_len);
		UT_EXPECT_EQ(have_len, want_len);
	}
	free(want);
	free(have);
}

UT_TEST(pelt_table_is_y_to_the_n)
{
	unsigned int i;

	UT_EXPECT_EQ(ut_pelt_y_inv[0], 0xffffffffu);
	for (i = 1; i < UT_PELT_PERIOD; i++)
		UT_EXPECT(ut_pelt_y_inv[i] < ut_pelt_y_inv[i - 1]);
	/* each entry is y^i truncated to 0.32 fixed point */
	for (i = 0; i < UT_PELT_PERIOD; i++)
		UT_EXPECT_NEAR(ut_pelt_y_inv[i], 4294967295.0 * y_pow(i), 1);
	/* y^31 * y = 1/2 and (y^16)^2 = 1/2, in the table's own arithmetic */
	UT_EXPECT_NEAR(mul_u64_u32_shr(ut_pelt_y_inv[31], ut_pelt_y_inv[1], 32),
		       1ULL << 31, 2);
	UT_EXPECT_NEAR(mul_u64_u32_shr(ut_pelt_y_inv[16], ut_pelt_y_inv[16], 32),
		       1ULL << 31, 2);
	/* spot checks against kernel/sched/sched-pelt.h */
	UT_EXPECT_EQ(ut_pelt_y_inv[1], 0xfa83b2dau);
	UT_EXPECT_EQ(ut_pelt_y_inv[2], 0xf5257d14u);
	UT_EXPECT_EQ(ut_pelt_y_inv[16], 0xb504f333u);
	UT_EXPECT_EQ(ut_pelt_y_inv[31], 0x82cd8698u);
	UT_EXPECT_EQ(UT_PELT_TABLE_MAX, 47742);
}

UT_TEST(pelt_decay_closed_form)
{
	const u64 x = 1ULL << 30;
	u64 n, prev = x;

	UT_EXPECT_NEAR(ut_pelt_decay(x, 32), x / 2, 1);
	UT_EXPECT_NEAR(ut_pelt_decay(x, 64), x / 4, 1);
	UT_EXPECT_NEAR(ut_pelt_decay(x, 16), x * y_pow(16), 2);
	UT_EXPECT_NEAR(ut_pelt_decay(x, 100), x * y_pow(100), 2);
	/* the kernel's y^0 is 0xffffffff / 2^32, not 1 */
	UT_EXPECT_EQ(ut_pelt_decay(x, 0), x - 1);
	UT_EXPECT_EQ(ut_pelt_decay(~0ULL, UT_PELT_PERIOD * 63 + 1), 0);
	/* ... and not before: 62 half-lives leave something of 2^64 - 1 */
	UT_EXPECT_EQ(ut_pelt_decay(~0ULL, UT_PELT_PERIOD * 62 + 1), 2);
	UT_EXPECT_EQ(ut_pelt_decay(x, ~0ULL), 0);
	for (n = 1; n < 300; n++) {
		u64 v = ut_pelt_decay(x, n);

		UT_EXPECT(v <= prev);
		prev = v;
	}
	/* LOAD_AVG_MAX is the fixed point of sum = decay(sum, 1) + 1024 */
	UT_EXPECT_EQ(ut_pelt_decay(UT_PELT_MAX, 1) + 1024, UT_PELT_MAX);
}

/* Values from an independent transcription of kernel 6.1's pelt.c. */
UT_TEST(pelt_matches_kernel_arithmetic)
{
	static const struct {
		u64 now;
		bool running, runnable;
		u64 lut;
		u32 util_sum;
		u64 runnable_sum;
		u32 contrib, util, runnable_avg;
	} trace[] = {
		{ 1500000, 1, 1, 1499136, 1476608, 1476608, 440, 31, 31 },
		{ 2200000, 0, 1, 2199552, 1444967, 2132071, 100, 30, 45 },
		{ 5300000, 1, 1, 5299200, 4323655, 4967529, 55, 92, 106 },
		{ 5300999, 1, 1, 5300224, 4324679, 4968553, 56, 92, 106 },
		{ 9000000, 0, 0, 8999936, 4052586, 4655950, 597, 85, 98 },
		{ 40000000, 1, 1, 39999488, 24810916, 25125955, 150, 529, 536 },
		{ 41234567, 0, 1, 41234432, 24279269, 25803045, 332, 516, 548 },
		{ 77777777, 0, 0, 77776896, 11375854, 12089807, 178, 242, 257 },
		{ 78000000, 1, 1, 77999104, 11598062, 12312015, 395, 242, 257 },
	};
	struct ut_pelt sa;
	unsigned int i;

	ut_pelt_init(&sa, 0, 0, 0);
	UT_EXPECT(ut_pelt_update(&sa, PERIOD_NS, true, true, FULL));
	UT_EXPECT_EQ(sa.util_sum, 1026048);
	UT_EXPECT_EQ(sa.util_avg, 21);

	ut_pelt_init(&sa, 0, 0, 0);
	for (i = 0; i < ARRAY_SIZE(trace); i++) {
		ut_pelt_update(&sa, trace[i].now, trace[i].running,
			       trace[i].runnable, FULL);
		UT_EXPECT_EQ(sa.last_update_time, trace[i].lut);
		UT_EXPECT_EQ(sa.util_sum, trace[i].util_sum);
		UT_EXPECT_EQ(sa.runnable_sum, trace[i].runnable_sum);
		UT_EXPECT_EQ(sa.period_contrib, trace[i].contrib);
		UT_EXPECT_EQ(sa.util_avg, trace[i].util);
		UT_EXPECT_EQ(sa.runnable_avg, trace[i].runnable_avg);
	}
}

/* Run (or idle) from @from for @ns, one update every @step ns. */
static void feed(struct ut_pelt *sa, u64 from, u64 ns, u64 step,
		 bool running, u32 scale)
{
	u64 t;

	for (t = step; t < ns; t += step)
		ut_pelt_update(sa, from + t, running, running, scale);
	ut_pelt_update(sa, from + ns, running, running, scale);
}

UT_TEST(pelt_ramp_from_zero)
{
	static const unsigned int periods[] = { 1, 4, 8, 16, 32, 64, 100, 200 };
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(periods); i++) {
		double want = 1024 * (1 - y_pow(periods[i]));
		struct ut_pelt one, fine;

		/* one update for the whole ramp */
		ut_pelt_init(&one, 0, 0, 0);
		ut_pelt_update(&one, periods[i] * PERIOD_NS, true, true, FULL);
		UT_EXPECT_NEAR(one.util_avg, want, 3);
		UT_EXPECT_NEAR(one.runnable_avg, want, 3);

		/* an update every microsecond, as busy tracepoints give */
		ut_pelt_init(&fine, 0, 0, 0);
		feed(&fine, 0, periods[i] * PERIOD_NS, 1000, true, FULL);
		UT_EXPECT_NEAR(fine.util_avg, want, 3);
	}
}

UT_TEST(pelt_ramp_half_after_32ms)
{
	struct ut_pelt sa;

	ut_pelt_init(&sa, 0, 0, 0);
	feed(&sa, 0, 32 * PERIOD_NS, 4000, true, FULL);
	UT_EXPECT_NEAR(sa.util_avg, 512, 3);
	/*
	 * 32 ms of wall time is 30.5 periods, and the average only moves
	 * at period boundaries: it shows the 30th.
	 */
	ut_pelt_init(&sa, 0, 0, 0);
	feed(&sa, 0, 32000000, 4000, true, FULL);
	UT_EXPECT_NEAR(sa.util_avg, 1024 * (1 - y_pow(30)), 3);
	UT_EXPECT_NEAR(sa.util_avg, 512, 25);
}

UT_TEST(pelt_saturates)
{
	struct ut_pelt sa;

	ut_pelt_init(&sa, 0, 0, 0);
	feed(&sa, 0, 2000 * PERIOD_NS + 1023 * 1024, 10000, true, FULL);
	UT_EXPECT_EQ(sa.period_contrib, 1023);
	/*
	 * Near the end of a period the sum is the whole series,
	 * LOAD_AVG_MAX * 1024. (It ends up a hair above: LOAD_AVG_MAX is
	 * the fixed point of the decay of unshifted sums, and the << 10
	 * sums decay with more precision. The kernel's does the same,
	 * which is why its saturated util_avg reads 1024, not 1023.)
	 */
	UT_EXPECT_NEAR(sa.util_sum, (double)UT_PELT_MAX * 1024,
		       UT_PELT_MAX * 1024 / 500);
	UT_EXPECT(sa.util_avg >= 1020 && sa.util_avg <= 1024);
	UT_EXPECT(sa.runnable_avg >= 1020 && sa.runnable_avg <= 1024);
}

UT_TEST(pelt_halves_every_32_periods_idle)
{
	struct ut_pelt sa;
	u32 sat;

	ut_pelt_init(&sa, 0, 0, 0);
	feed(&sa, 0, 1000 * PERIOD_NS, 50000, true, FULL);
	sat = sa.util_avg;
	feed(&sa, 1000 * PERIOD_NS, 32 * PERIOD_NS, 50000, false, FULL);
	UT_EXPECT_NEAR(sa.util_avg, sat / 2, 2);
	feed(&sa, 1032 * PERIOD_NS, 32 * PERIOD_NS, 50000, false, FULL);
	UT_EXPECT_NEAR(sa.util_avg, sat / 4, 2);
	feed(&sa, 1064 * PERIOD_NS, 10 * PERIOD_NS, 50000, false, FULL);
	UT_EXPECT_NEAR(sa.util_avg, sat * y_pow(74), 2);
}

/*
 * Run duty * 16 ms of every 16 ms, with microsecond timestamps, and
 * average util_avg over time: the mean of the signal is the duty cycle.
 */
static double duty_mean(unsigned int pct)
{
	const u64 period = 16000000, run = period * pct / 100;
	const unsigned int warm = 30, measured = 40;
	u64 now = 0, t;
	double acc = 0;
	unsigned long n = 0;
	unsigned int p;
	struct ut_pelt sa;

	ut_pelt_init(&sa, 0, 0, 0);
	for (p = 0; p < warm + measured; p++) {
		for (t = 1000; t <= period; t += 1000) {
			now += 1000;
			ut_pelt_update(&sa, now, t <= run, t <= run, FULL);
			if (p >= warm) {
				acc += sa.util_avg;
				n++;
			}
		}
	}
	return acc / n;
}

UT_TEST(pelt_duty_cycles)
{
	static const unsigned int pct[] = { 10, 30, 50, 80 };
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(pct); i++)
		UT_EXPECT_NEAR(duty_mean(pct[i]), pct[i] * 1024 / 100.0,
			       1024 * 2 / 100);
}

UT_TEST(pelt_clock_backwards_ignored)
{
	struct ut_pelt sa, before;

	ut_pelt_init(&sa, 0, 0, 0);
	feed(&sa, 0, 10 * PERIOD_NS + 12345, 100000, true, FULL);
	before = sa;
	UT_EXPECT(!ut_pelt_update(&sa, 5 * PERIOD_NS, true, true, FULL));
	UT_EXPECT(!memcmp(&sa, &before, sizeof(sa)));
	UT_EXPECT(!ut_pelt_update(&sa, 0, false, false, FULL));
	UT_EXPECT(!memcmp(&sa, &before, sizeof(sa)));
	/* and time resumes from where it was */
	UT_EXPECT(ut_pelt_update(&sa, 11 * PERIOD_NS, true, true, FULL));
	UT_EXPECT(sa.util_avg > before.util_avg);
}

UT_TEST(pelt_sub_microsecond_updates)
{
	struct ut_pelt sa, before, whole;
	u64 t;

	ut_pelt_init(&sa, 1000000, 100, 100);
	before = sa;
	UT_EXPECT(!ut_pelt_update(&sa, 1000000 + 1023, true, true, FULL));
	UT_EXPECT(!memcmp(&sa, &before, sizeof(sa)));
	UT_EXPECT(!ut_pelt_update(&sa, 1000000, true, true, FULL));
	UT_EXPECT(ut_pelt_update(&sa, 1000000 + 1024, true, true, FULL));
	UT_EXPECT_EQ(sa.last_update_time, 1000000 + 1024);
	UT_EXPECT_EQ(sa.period_contrib, 1);

	/* sub-unit steps lose no time: they add up to one big step */
	ut_pelt_init(&sa, 0, 0, 0);
	ut_pelt_init(&whole, 0, 0, 0);
	for (t = 500; t < 3 * PERIOD_NS; t += 500)
		ut_pelt_update(&sa, t, true, true, FULL);
	ut_pelt_update(&sa, 3 * PERIOD_NS, true, true, FULL);
	ut_pelt_update(&whole, 3 * PERIOD_NS, true, true, FULL);
	UT_EXPECT_EQ(sa.last_update_time, whole.last_update_time);
	UT_EXPECT_EQ(sa.period_contrib, whole.period_contrib);
	UT_EXPECT_NEAR(sa.util_sum, whole.util_sum, 3 * 1024);
	UT_EXPECT_NEAR(sa.util_avg, whole.util_avg, 1);
}

UT_TEST(pelt_scale_is_invariance)
{
	struct ut_pelt half, full, over;

	ut_pelt_init(&half, 0, 0, 0);
	ut_pelt_init(&full, 0, 0, 0);
	ut_pelt_init(&over, 0, 0, 0);
	/* updates every 256 us: even contributions, no truncation */
	feed(&half, 0, 1000 * PERIOD_NS, 256 * 1024, true, 512);
	feed(&full, 0, 1000 * PERIOD_NS, 256 * 1024, true, FULL);
	feed(&over, 0, 1000 * PERIOD_NS, 256 * 1024, true, 4096);
	UT_EXPECT_NEAR(half.util_avg, full.util_avg / 2, 2);
	UT_EXPECT_NEAR(half.runnable_avg, full.runnable_avg / 2, 2);
	UT_EXPECT_NEAR(full.util_avg, 1024, 2);
	/* above 1024 counts as 1024 */
	UT_EXPECT(!memcmp(&over, &full, sizeof(full)));
	/*
	 * Every 30 us, scaling truncates each contribution, as pre-5.1
	 * kernels did; the bias stays within 3 %.
	 */
	ut_pelt_init(&half, 0, 0, 0);
	ut_pelt_init(&full, 0, 0, 0);
	ut_pelt_init(&over, 0, 0, 0);
	feed(&half, 0, 1000 * PERIOD_NS, 30000, true, 512);
	feed(&full, 0, 1000 * PERIOD_NS, 30000, true, FULL);
	feed(&over, 0, 1000 * PERIOD_NS, 30000, true, 4096);
	UT_EXPECT(half.util_avg <= full.util_avg / 2);
	UT_EXPECT_NEAR(half.util_avg, full.util_avg / 2, 512 * 3 / 100);
	/* above 1024 counts as 1024 */
	UT_EXPECT(!memcmp(&over, &full, sizeof(full)));
	/* scale 0: running accrues nothing */
	ut_pelt_init(&half, 0, 0, 0);
	feed(&half, 0, 100 * PERIOD_NS, 30000, true, 0);
	UT_EXPECT_EQ(half.util_sum, 0);
	UT_EXPECT_EQ(half.util_avg, 0);
}

UT_TEST(pelt_runnable_vs_running)
{
	struct ut_pelt sa;

	/* waiting: runnable accrues, util does not */
	ut_pelt_init(&sa, 0, 0, 0);
	ut_pelt_update(&sa, 32 * PERIOD_NS, false, true, FULL);
	UT_EXPECT_EQ(sa.util_avg, 0);
	UT_EXPECT_NEAR(sa.runnable_avg, 512, 3);
	/* running without runnable is treated as idle, as the kernel does */
	ut_pelt_init(&sa, 0, 0, 0);
	ut_pelt_update(&sa, 32 * PERIOD_NS, true, false, FULL);
	UT_EXPECT_EQ(sa.util_sum, 0);
	UT_EXPECT_EQ(sa.runnable_sum, 0);
}

UT_TEST(pelt_init_derives_sums)
{
	struct ut_pelt sa;

	ut_pelt_init(&sa, 777, 300, 400);
	UT_EXPECT_EQ(sa.last_update_time, 777);
	UT_EXPECT_EQ(sa.period_contrib, 0);
	UT_EXPECT_EQ(sa.util_sum, 300 * UT_PELT_MIN_DIVIDER);
	UT_EXPECT_EQ(sa.runnable_sum, 400ULL * UT_PELT_MIN_DIVIDER);
	/* the averages carry on from the given values, decaying while idle */
	ut_pelt_update(&sa, 777 + PERIOD_NS, false, false, FULL);
	UT_EXPECT_NEAR(sa.util_avg, 300 * y_pow(1), 1);
	ut_pelt_update(&sa, 777 + 33 * PERIOD_NS, false, false, FULL);
	UT_EXPECT_NEAR(sa.util_avg, 300 * y_pow(33), 1);
	UT_EXPECT_NEAR(sa.runnable_avg, 400 * y_pow(33), 1);
}

UT_TEST(pelt_add_sub)
{
	struct ut_pelt cpu, before;

	ut_pelt_init(&cpu, 0, 0, 0);
	ut_pelt_update(&cpu, 10 * PERIOD_NS + 300 * 1024, false, false, FULL);
	before = cpu;
	ut_pelt_add(&cpu, 200, 250);
	UT_EXPECT_EQ(cpu.util_avg, 200);
	UT_EXPECT_EQ(cpu.runnable_avg, 250);
	UT_EXPECT_EQ(cpu.util_sum, 200 * ut_pelt_divider(&cpu));
	UT_EXPECT_EQ(cpu.runnable_sum, 250ULL * ut_pelt_divider(&cpu));
	ut_pelt_sub(&cpu, 200, 250);
	UT_EXPECT(!memcmp(&cpu, &before, sizeof(cpu)));

	/* removal saturates at zero */
	ut_pelt_add(&cpu, 100, 100);
	ut_pelt_sub(&cpu, 500, 500);
	UT_EXPECT_EQ(cpu.util_avg, 0);
	UT_EXPECT_EQ(cpu.util_sum, 0);
	UT_EXPECT_EQ(cpu.runnable_avg, 0);
	UT_EXPECT_EQ(cpu.runnable_sum, 0);

	/*
	 * The sum never drops below avg * PELT_MIN_DIVIDER: here rounding
	 * drift left the rq's sum 100000 short of its share.
	 */
	ut_pelt_add(&cpu, 300, 300);
	cpu.util_sum -= 100000;
	cpu.runnable_sum -= 100000;
	ut_pelt_sub(&cpu, 100, 100);
	UT_EXPECT_EQ(cpu.util_avg, 200);
	UT_EXPECT_EQ(cpu.util_sum, 200 * UT_PELT_MIN_DIVIDER);
	UT_EXPECT_EQ(cpu.runnable_sum, 200ULL * UT_PELT_MIN_DIVIDER);
	/* without drift the floor does not bite */
	ut_pelt_sub(&cpu, 200, 200);
	ut_pelt_add(&cpu, 300, 300);
	ut_pelt_sub(&cpu, 100, 100);
	UT_EXPECT_EQ(cpu.util_sum, 200 * ut_pelt_divider(&cpu));
}
