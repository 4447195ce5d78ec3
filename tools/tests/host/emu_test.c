// SPDX-License-Identifier: GPL-2.0
/*
 * emu_test.c - vcpufreq's stall arithmetic, tested on the host build of
 * module/core/emu.c: the spin at each OPP, and what late callbacks owe.
 */
#include <string.h>
#include <utiltrack/emu.h>
#include "ut_test.h"

#define P	1000000ULL	/* period, ns */
#define M	20000ULL	/* margin before the next expiry, ns */
#define US	1000ULL

UT_TEST(emu_period_stall_follows_the_opp)
{
	UT_EXPECT_EQ(ut_emu_period_stall_ns(P, 2000000, 2000000), 0);
	UT_EXPECT_EQ(ut_emu_period_stall_ns(P, 500000, 2000000), 750 * US);
	UT_EXPECT_EQ(ut_emu_period_stall_ns(P, 1000000, 2000000), 500 * US);
	/* above fmax or without one: no stall, no wrap-around */
	UT_EXPECT_EQ(ut_emu_period_stall_ns(P, 2500000, 2000000), 0);
	UT_EXPECT_EQ(ut_emu_period_stall_ns(P, 500000, 0), 0);
}

UT_TEST(emu_spin_scales_the_overhead_out)
{
	/* (1 - 1/4) * (1000 - 100) us */
	UT_EXPECT_EQ(ut_emu_spin_ns(750 * US, 100 * US, P), 675 * US);
	UT_EXPECT_EQ(ut_emu_spin_ns(750 * US, 0, P), 750 * US);
	UT_EXPECT_EQ(ut_emu_spin_ns(750 * US, P, P), 0);
	UT_EXPECT_EQ(ut_emu_spin_ns(750 * US, 2 * P, P), 0);
}

UT_TEST(emu_on_time_callback_spins_its_share)
{
	struct ut_emu e;

	memset(&e, 0, sizeof(e));
	UT_EXPECT_EQ(ut_emu_stall_ns(&e, 700 * US, 30 * US, P, M), 700 * US);
	UT_EXPECT_EQ(e.owed_ns, 0);
	UT_EXPECT_EQ(e.late, 0);
	UT_EXPECT_EQ(e.stalls, 1);
	UT_EXPECT_EQ(e.stalled_ns, 700 * US);
	UT_EXPECT_EQ(e.dropped_ns, 0);
}

UT_TEST(emu_late_callback_owes_the_rest_to_the_next)
{
	struct ut_emu e;

	memset(&e, 0, sizeof(e));
	/* 500 us late: room for 1000 - 20 - 500 = 480 of 700 us */
	UT_EXPECT_EQ(ut_emu_stall_ns(&e, 700 * US, 500 * US, P, M), 480 * US);
	UT_EXPECT_EQ(e.late, 1);
	UT_EXPECT_EQ(e.owed_ns, 220 * US);
	/* the next, on time, pays it back along with its own share */
	UT_EXPECT_EQ(ut_emu_stall_ns(&e, 700 * US, 30 * US, P, M), 920 * US);
	UT_EXPECT_EQ(e.owed_ns, 0);
	UT_EXPECT_EQ(e.late, 1);
	UT_EXPECT_EQ(e.stalled_ns, 1400 * US);
	UT_EXPECT_EQ(e.stalls, 2);
}

UT_TEST(emu_debt_is_paid_as_room_allows)
{
	struct ut_emu e;

	memset(&e, 0, sizeof(e));
	e.owed_ns = 600 * US;
	/* room 950 us: 700 own + 250 of the 600 owed; not late itself */
	UT_EXPECT_EQ(ut_emu_stall_ns(&e, 700 * US, 30 * US, P, M), 950 * US);
	UT_EXPECT_EQ(e.owed_ns, 350 * US);
	UT_EXPECT_EQ(e.late, 0);
}

UT_TEST(emu_debt_is_capped_at_one_period_and_counted)
{
	struct ut_emu e;
	int i;

	memset(&e, 0, sizeof(e));
	/* 900 us late every time: room 80 us, 620 us more owed each */
	for (i = 0; i < 4; i++)
		ut_emu_stall_ns(&e, 700 * US, 900 * US, P, M);
	UT_EXPECT_EQ(e.owed_ns, P);
	UT_EXPECT_EQ(e.late, 4);
	/* owed 4 * 620 = 2480 us, of which one period is kept */
	UT_EXPECT_EQ(e.dropped_ns, 2480 * US - P);
	UT_EXPECT_EQ(e.stalled_ns, 4 * 80 * US);
}

UT_TEST(emu_callback_a_period_late_owes_nothing)
{
	struct ut_emu e;

	memset(&e, 0, sizeof(e));
	e.owed_ns = 100 * US;
	/* the host stopped the vCPU: every OPP lost that time alike */
	UT_EXPECT_EQ(ut_emu_stall_ns(&e, 700 * US, 3 * P, P, M), 0);
	UT_EXPECT_EQ(e.owed_ns, 0);
	UT_EXPECT_EQ(e.late, 1);
	UT_EXPECT_EQ(e.dropped_ns, 800 * US);
	/* just inside the margin: no room either, but owed */
	UT_EXPECT_EQ(ut_emu_stall_ns(&e, 700 * US, P - M / 2, P, M), 0);
	UT_EXPECT_EQ(e.owed_ns, 700 * US);
}

UT_TEST(emu_fmax_owes_nothing)
{
	struct ut_emu e;

	memset(&e, 0, sizeof(e));
	e.owed_ns = 300 * US;
	UT_EXPECT_EQ(ut_emu_stall_ns(&e, 0, 900 * US, P, M), 0);
	UT_EXPECT_EQ(e.owed_ns, 0);
	UT_EXPECT_EQ(e.stalls, 0);
	UT_EXPECT_EQ(e.late, 0);
}
