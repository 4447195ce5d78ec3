// SPDX-License-Identifier: GPL-2.0
/*
 * emu_kunit.c - utiltrack_emu: vcpufreq's stall arithmetic
 * (module/core/emu.c), as the kernel compiles it.
 *
 * The host unit tests walk single callbacks; here the properties that
 * must hold for any sequence of callbacks the host timer can deliver:
 * no stall reaches into the next period's margin, the debt never passes
 * one period, and every nanosecond asked for is stalled, still owed or
 * counted as dropped - never lost unseen.
 */

#include <utiltrack/emu.h>

#include "utiltrack_kunit.h"

#define P	NSEC_PER_MSEC	/* vcpufreq's default period */
#define M	(20 * NSEC_PER_USEC)
#define FMAX	2000000

/* One callback: what it wants, how late it runs, what it finds owed. */
struct stall_case {
	const char *what;
	u64 spin, late, owed;
	u64 got, owed_after, dropped;
	bool late_flag;
};

static const struct stall_case stalls[] = {
	{ "on time", 600000, 10000, 0, 600000, 0, 0, false },
	{ "on time, pays a debt", 600000, 10000, 300000, 900000, 0, 0, false },
	{ "debt paid in part", 600000, 10000, 500000, 970000, 130000, 0, false },
	{ "late: owes the rest", 600000, 700000, 0, 280000, 320000, 0, true },
	{ "late, debt over a period", 900000, 900000, 900000, 80000, P,
	  720000, true },
	{ "a period late: drops all", 600000, P, 200000, 0, 0, 800000, true },
	{ "at fmax: debt forgiven", 0, 500000, 400000, 0, 0, 0, false },
};

static void stall_desc(const struct stall_case *c, char *desc)
{
	strscpy(desc, c->what, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(stalls, stalls, stall_desc);

static void emu_one_callback(struct kunit *test)
{
	const struct stall_case *c = test->param_value;
	struct ut_emu e = { .owed_ns = c->owed };

	KUNIT_EXPECT_EQ(test, ut_emu_stall_ns(&e, c->spin, c->late, P, M),
			c->got);
	KUNIT_EXPECT_EQ(test, e.owed_ns, c->owed_after);
	KUNIT_EXPECT_EQ(test, e.dropped_ns, c->dropped);
	KUNIT_EXPECT_EQ(test, e.late, (u64)c->late_flag);
}

/* a fixed pseudo-random sequence: the same run every boot */
static u32 emu_next(u32 *seed)
{
	*seed = *seed * 1664525 + 1013904223;
	return *seed >> 8;
}

/*
 * 20000 callbacks at random OPPs and lateness, a tenth of them a period
 * or more late (a stopped vCPU). Checked after each: the stall fits the
 * room the period leaves, the debt stays within one period, and what was
 * asked equals what was stalled plus what is owed plus what was dropped.
 */
static void emu_accounts_every_ns(struct kunit *test)
{
	struct ut_emu e = {};
	u64 asked = 0, bad_room = 0, bad_debt = 0;
	u32 seed = 1, i;

	for (i = 0; i < 20000; i++) {
		u32 khz = 100000 + emu_next(&seed) % FMAX;
		u64 spin = ut_emu_spin_ns(ut_emu_period_stall_ns(P, khz, FMAX),
					  50 * NSEC_PER_USEC, P);
		u64 late = emu_next(&seed) % 10 ? emu_next(&seed) % P :
			   P + emu_next(&seed) % (4 * P);
		u64 room = late + M < P ? P - M - late : 0;
		u64 got;

		/* at fmax the debt is forgiven: keep this a sum over spins */
		if (!spin)
			continue;
		asked += spin;
		got = ut_emu_stall_ns(&e, spin, late, P, M);
		bad_room += got > room;
		bad_debt += e.owed_ns > P;
	}
	KUNIT_EXPECT_EQ(test, bad_room, 0);
	KUNIT_EXPECT_EQ(test, bad_debt, 0);
	KUNIT_EXPECT_EQ(test, e.stalled_ns + e.owed_ns + e.dropped_ns, asked);
	/* the mix must have exercised every branch */
	KUNIT_EXPECT_GT(test, e.late, 0);
	KUNIT_EXPECT_GT(test, e.dropped_ns, 0);
	KUNIT_EXPECT_LT(test, e.late, e.stalls);
}

/*
 * Across every frequency up to fmax the per-period stall falls as f
 * rises, reaches 0 at fmax, and the spin that scales the overhead out
 * never exceeds it.
 */
static void emu_stall_falls_with_frequency(struct kunit *test)
{
	u64 prev = P, stall, spin;
	u32 khz, bad_order = 0, bad_spin = 0;

	for (khz = 0; khz <= FMAX; khz += 1000) {
		stall = ut_emu_period_stall_ns(P, khz, FMAX);
		spin = ut_emu_spin_ns(stall, 100 * NSEC_PER_USEC, P);
		bad_order += stall > prev;
		bad_spin += spin > stall;
		prev = stall;
	}
	KUNIT_EXPECT_EQ(test, bad_order, 0);
	KUNIT_EXPECT_EQ(test, bad_spin, 0);
	KUNIT_EXPECT_EQ(test, ut_emu_period_stall_ns(P, FMAX, FMAX), 0);
	KUNIT_EXPECT_EQ(test, ut_emu_period_stall_ns(P, FMAX / 4, FMAX),
			3 * P / 4);
}

static struct kunit_case emu_cases[] = {
	KUNIT_CASE_PARAM(emu_one_callback, stalls_gen_params),
	KUNIT_CASE(emu_accounts_every_ns),
	KUNIT_CASE(emu_stall_falls_with_frequency),
	{}
};

static struct kunit_suite emu_suite = {
	.name = "utiltrack_emu",
	.test_cases = emu_cases,
};

kunit_test_suites(&emu_suite);
