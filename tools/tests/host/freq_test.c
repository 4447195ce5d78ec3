// SPDX-License-Identifier: GPL-2.0
/*
 * freq_test.c - module/core/freq.c against schedutil's formulas.
 */
#include <utiltrack/freq.h>
#include "ut_test.h"

static const u32 caps[] = { 1024, 1023, 512, 446, 160, 1 };
static const u32 freqs[] = {
	0, 1, 3, 7, 500000, 800000, 1000001, 1400000, 1804999, 2000000,
	3600000, 4000000, 10000000,
};

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

/* Classic schedutil (4.x..5.x): the 1.25 margin on the frequency. */
static u64 sugov_freq_side(u64 util, u64 freq, u64 cap)
{
	return (freq + (freq >> 2)) * util / cap;
}

/* Schedutil in 6.1: the margin on util, map_util_perf(). */
static u64 sugov_util_side(u64 util, u64 freq, u64 cap)
{
	return freq * (util + (util >> 2)) / cap;
}

UT_TEST(freq_map_is_schedutil_at_125)
{
	unsigned int c, f;
	u32 util;
	int bad = 0;

	for (c = 0; c < ARRAY_SIZE(caps); c++)
		for (f = 0; f < ARRAY_SIZE(freqs); f++)
			for (util = 0; util <= caps[c]; util++)
				bad += ut_freq_map(util, freqs[f], caps[c],
						   UT_FREQ_HEADROOM_DEF) !=
				       sugov_freq_side(util, freqs[f], caps[c]);
	UT_EXPECT_EQ(bad, 0);
	/* and a dense sweep of frequencies at full capacity scale */
	for (f = 0; f < 3000000; f += 997)
		bad += ut_freq_map(700, f, 1024, 125) !=
		       sugov_freq_side(700, f, 1024);
	UT_EXPECT_EQ(bad, 0);
}

/*
 * 6.1 rounds differently; the difference stays within freq / cap + 1,
 * the bound documented in freq.c.
 */
UT_TEST(freq_map_close_to_util_side_headroom)
{
	unsigned int c, f;
	u32 util;
	int bad = 0, differ = 0;

	for (c = 0; c < ARRAY_SIZE(caps); c++)
		for (f = 0; f < ARRAY_SIZE(freqs); f++)
			for (util = 0; util <= caps[c]; util++) {
				s64 a = ut_freq_map(util, freqs[f], caps[c],
						    125);
				s64 b = sugov_util_side(util, freqs[f],
							caps[c]);
				s64 d = a > b ? a - b : b - a;

				differ += d != 0;
				bad += d > freqs[f] / caps[c] + 1;
			}
	UT_EXPECT_EQ(bad, 0);
	UT_EXPECT(differ > 0);	/* the two really are different formulas */
}

/* Schedutil since 6.8: util plus the margin, capped at capacity. */
static u64 sugov_capped(u64 util, u64 freq, u64 cap)
{
	u64 perf = util + (util >> 2);

	return freq * (perf < cap ? perf : cap) / cap;
}

/*
 * The capped mapping takes the reference frequency itself from the same
 * util as 6.8 does, and elsewhere stays within 6.1's rounding bound;
 * past util up to twice the capacity (a runnable-boosted or I/O-boosted
 * util may exceed it) it never asks for more than the reference.
 */
UT_TEST(freq_map_capped_is_schedutil_6_8)
{
	unsigned int c, f;
	u32 util;
	int bad_cap = 0, bad = 0, above = 0;

	for (c = 0; c < ARRAY_SIZE(caps); c++)
		for (f = 0; f < ARRAY_SIZE(freqs); f++)
			for (util = 0; util <= 2 * caps[c]; util++) {
				u64 want = sugov_capped(util, freqs[f], caps[c]);
				u64 got = ut_freq_map_capped(util, freqs[f],
							     caps[c], 125);
				u64 d = got > want ? got - want : want - got;

				bad_cap += (want == freqs[f]) != (got == freqs[f]) &&
					   freqs[f] && util;
				bad += d > freqs[f] / caps[c] + 1;
				above += got > freqs[f];
			}
	UT_EXPECT_EQ(bad_cap, 0);
	UT_EXPECT_EQ(bad, 0);
	UT_EXPECT_EQ(above, 0);
	/* where the uncapped mapping asked for 1.25x, 1.0x; below, as before */
	UT_EXPECT_EQ(ut_freq_map(1024, 2000000, 1024, 125), 2500000);
	UT_EXPECT_EQ(ut_freq_map_capped(1024, 2000000, 1024, 125), 2000000);
	UT_EXPECT_EQ(ut_freq_map_capped(819, 2000000, 1024, 125),
		     ut_freq_map(819, 2000000, 1024, 125));
	UT_EXPECT_EQ(ut_freq_map_capped(820, 2000000, 1024, 125), 2000000);
	/* the margin is clamped as in ut_freq_map(): 300 % is 200 % */
	UT_EXPECT_EQ(ut_freq_map_capped(512, 2000000, 1024, 300), 2000000);
	UT_EXPECT_EQ(ut_freq_map_capped(511, 2000000, 1024, 300),
		     ut_freq_map(511, 2000000, 1024, 200));
	UT_EXPECT_EQ(ut_freq_map_capped(700, 1234567, 0, 125), 1234567);
}

UT_TEST(freq_map_headrooms)
{
	/* 100 %: plain proportion */
	UT_EXPECT_EQ(ut_freq_map(512, 2000000, 1024, 100), 1000000);
	UT_EXPECT_EQ(ut_freq_map(1024, 2000000, 1024, 100), 2000000);
	UT_EXPECT_EQ(ut_freq_map(333, 1000000, 1000, 100), 333000);
	/* 125 %: the tipping point is util / cap = 0.8 */
	UT_EXPECT_EQ(ut_freq_map(800, 2000000, 1000, 125), 2000000);
	UT_EXPECT_EQ(ut_freq_map(1024, 2000000, 1024, 125), 2500000);
	UT_EXPECT_EQ(ut_freq_map(512, 1804999, 1024, 125), 1128124);
	/* 200 % */
	UT_EXPECT_EQ(ut_freq_map(512, 2000000, 1024, 200), 2000000);
	UT_EXPECT_EQ(ut_freq_map(100, 1000000, 1024, 200), 195312);
	/* out of range margins are clamped, not trusted */
	UT_EXPECT_EQ(ut_freq_map(512, 2000000, 1024, 50),
		     ut_freq_map(512, 2000000, 1024, 100));
	UT_EXPECT_EQ(ut_freq_map(512, 2000000, 1024, 0),
		     ut_freq_map(512, 2000000, 1024, 100));
	UT_EXPECT_EQ(ut_freq_map(512, 2000000, 1024, 1000),
		     ut_freq_map(512, 2000000, 1024, 200));
	UT_EXPECT_EQ(ut_freq_map(512, 2000000, 1024, U32_MAX),
		     ut_freq_map(512, 2000000, 1024, 200));
}

UT_TEST(freq_map_edges)
{
	UT_EXPECT_EQ(ut_freq_map(0, 2000000, 1024, 125), 0);
	UT_EXPECT_EQ(ut_freq_map(512, 2000000, 0, 125), 2000000);
	UT_EXPECT_EQ(ut_freq_map(512, 0, 1024, 125), 0);
	/* 64-bit intermediates: no wrap at 32 bits */
	UT_EXPECT_EQ(ut_freq_map(100000, 4000000, 100000, 125), 5000000);
	/* results beyond u32 saturate */
	UT_EXPECT_EQ(ut_freq_map(U32_MAX, U32_MAX, 1, 200), U32_MAX);
	UT_EXPECT_EQ(ut_freq_map(U32_MAX, 4000000, 1024, 125), U32_MAX);
}

UT_TEST(freq_resolve)
{
	static const u32 opp[] = { 500000, 800000, 1000000, 2000000 };
	static const u32 one[] = { 1200000 };

	UT_EXPECT_EQ(ut_freq_resolve(opp, 4, 800000), 800000);	/* exact */
	UT_EXPECT_EQ(ut_freq_resolve(opp, 4, 800001), 1000000);
	UT_EXPECT_EQ(ut_freq_resolve(opp, 4, 799999), 800000);
	UT_EXPECT_EQ(ut_freq_resolve(opp, 4, 0), 500000);
	UT_EXPECT_EQ(ut_freq_resolve(opp, 4, 100000), 500000);
	UT_EXPECT_EQ(ut_freq_resolve(opp, 4, 2000000), 2000000);
	UT_EXPECT_EQ(ut_freq_resolve(opp, 4, 2000001), 2000000);
	UT_EXPECT_EQ(ut_freq_resolve(opp, 4, U32_MAX), 2000000);
	UT_EXPECT_EQ(ut_freq_resolve(one, 1, 1), 1200000);
	UT_EXPECT_EQ(ut_freq_resolve(one, 1, 5000000), 1200000);
	UT_EXPECT_EQ(ut_freq_resolve(opp, 0, 1234), 1234);
}

UT_TEST(freq_map_then_resolve)
{
	static const u32 opp[] = { 500000, 800000, 1000000, 1400000,
				   2000000 };

	/* at fmax 2 GHz and 125 %: 40 % -> 1 GHz, 41 % -> 1.4 GHz */
	UT_EXPECT_EQ(ut_freq_resolve(opp, 5,
				     ut_freq_map(400, 2000000, 1000, 125)),
		     1000000);
	UT_EXPECT_EQ(ut_freq_resolve(opp, 5,
				     ut_freq_map(410, 2000000, 1000, 125)),
		     1400000);
	/* 80 % and above asks for fmax */
	UT_EXPECT_EQ(ut_freq_resolve(opp, 5,
				     ut_freq_map(800, 2000000, 1000, 125)),
		     2000000);
	UT_EXPECT_EQ(ut_freq_resolve(opp, 5,
				     ut_freq_map(799, 2000000, 1000, 125)),
		     2000000);
	UT_EXPECT_EQ(ut_freq_resolve(opp, 5,
				     ut_freq_map(559, 2000000, 1000, 125)),
		     1400000);
	UT_EXPECT_EQ(ut_freq_resolve(opp, 5,
				     ut_freq_map(561, 2000000, 1000, 125)),
		     2000000);
}

UT_TEST(freq_hispeed_jump)
{
	/* off, or below the load: the mapped request stands */
	UT_EXPECT_EQ(ut_freq_hispeed(500000, 1024, 1024, 0, 2000000), 500000);
	UT_EXPECT_EQ(ut_freq_hispeed(500000, 900, 1024, 90, 2000000), 500000);
	/* at 90 % of capacity (921.6 of 1024) or more: at least hispeed */
	UT_EXPECT_EQ(ut_freq_hispeed(500000, 922, 1024, 90, 2000000), 2000000);
	UT_EXPECT_EQ(ut_freq_hispeed(500000, 1024, 1024, 100, 1200000),
		     1200000);
	/* never lowers a request above hispeed */
	UT_EXPECT_EQ(ut_freq_hispeed(2500000, 1024, 1024, 90, 1200000),
		     2500000);
	/* a little CPU: load is relative to its capacity */
	UT_EXPECT_EQ(ut_freq_hispeed(400000, 470, 512, 90, 1800000), 1800000);
	UT_EXPECT_EQ(ut_freq_hispeed(400000, 460, 512, 90, 1800000), 400000);
	UT_EXPECT_EQ(ut_freq_hispeed(400000, 460, 0, 90, 1800000), 400000);
}
