// SPDX-License-Identifier: GPL-2.0
/*
 * freq_kunit.c - utiltrack_freq: util -> frequency (module/core/freq.c)
 * and the OPP tables it resolves against (module/core/opp.c).
 *
 * The default mapping must be schedutil's get_next_freq():
 * (f + f/4) * util / cap, resolved to the lowest table entry that meets
 * the request (CPUFREQ_RELATION_L).
 */

#include <utiltrack/freq.h>
#include <utiltrack/opp.h>

#include "utiltrack_kunit.h"

static const u32 opps[] = { 400000, 800000, 1200000, 1600000, 2000000 };

struct map_case {
	u32 util, khz, cap, headroom, want;
};

static const struct map_case maps[] = {
	{ 0, 2000000, 1024, 125, 0 },
	{ 512, 2000000, 1024, 125, 1250000 },
	{ 1024, 2000000, 1024, 125, 2500000 },
	{ 819, 1600000, 1024, 125, 1599609 },
	{ 100, 3000000, 1024, 125, 366210 },
	{ 2048, 1000000, 1024, 125, 2500000 },	/* util above cap */
	{ 512, 2000000, 512, 125, 2500000 },	/* a little CPU */
	{ 512, 2000000, 1024, 100, 1000000 },
	{ 512, 2000000, 1024, 200, 2000000 },
	{ 512, 2000000, 1024, 50, 1000000 },	/* clamped to 100 */
	{ 512, 2000000, 1024, 900, 2000000 },	/* clamped to 200 */
	{ 300, 1234567, 0, 125, 1234567 },	/* no capacity: unchanged */
};

static void map_desc(const struct map_case *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "util %u of %u at %u kHz, %u%%",
		 c->util, c->cap, c->khz, c->headroom);
}

KUNIT_ARRAY_PARAM(maps, maps, map_desc);

static void freq_map(struct kunit *test)
{
	const struct map_case *c = test->param_value;

	KUNIT_EXPECT_EQ(test, ut_freq_map(c->util, c->khz, c->cap, c->headroom),
			c->want);
}

/*
 * At 125 % the mapping is schedutil's expression, bit for bit. (One
 * expectation for the whole sweep: thousands of failures would flood the
 * kernel log the results are read from.)
 */
static void freq_map_is_schedutil(struct kunit *test)
{
	u32 util, f, got, want, bad = 0, bad_util = 0, bad_f = 0;

	for (f = 100000; f <= 5000000; f += 300007) {
		for (util = 0; util <= 1024; util += 7) {
			got = ut_freq_map(util, f, 1024, 125);
			want = (u32)div_u64((u64)(f + (f >> 2)) * util, 1024);
			if (got != want && !bad++) {
				bad_util = util;
				bad_f = f;
			}
		}
	}
	KUNIT_EXPECT_EQ_MSG(test, bad, 0, "first at util %u, %u kHz",
			    bad_util, bad_f);
}

static void freq_map_saturates(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, ut_freq_map(U32_MAX, U32_MAX, 1, 200), U32_MAX);
	KUNIT_EXPECT_EQ(test, ut_freq_map(1024, U32_MAX, 1024, 200), U32_MAX);
}

struct resolve_case {
	u32 khz, want;
};

static const struct resolve_case resolves[] = {
	{ 0, 400000 }, { 1, 400000 }, { 400000, 400000 }, { 400001, 800000 },
	{ 1250000, 1600000 }, { 1999999, 2000000 }, { 2000000, 2000000 },
	{ 5000000, 2000000 },
};

static void resolve_desc(const struct resolve_case *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%u kHz", c->khz);
}

KUNIT_ARRAY_PARAM(resolves, resolves, resolve_desc);

static void freq_resolve(struct kunit *test)
{
	const struct resolve_case *c = test->param_value;

	KUNIT_EXPECT_EQ(test, ut_freq_resolve(opps, ARRAY_SIZE(opps), c->khz),
			c->want);
}

static void freq_resolve_empty_table(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, ut_freq_resolve(opps, 0, 123456), 123456);
}

/*
 * A saturated, non-invariant signal asks for 1.25x the current frequency:
 * from fmin it takes four decisions to reach fmax on this table. That is
 * the bound on any signal's step response under schedutil's mapping.
 */
static void freq_saturated_climb(struct kunit *test)
{
	u32 cur = opps[0];
	int steps = 0;

	while (cur < opps[ARRAY_SIZE(opps) - 1] && steps < 10) {
		u32 next = ut_freq_resolve(opps, ARRAY_SIZE(opps),
					   ut_freq_map(1024, cur, 1024, 125));

		KUNIT_EXPECT_GT(test, next, cur);
		cur = next;
		steps++;
	}
	KUNIT_EXPECT_EQ(test, steps, 4);
}

struct hispeed_case {
	u32 next, util, cap, load, hispeed, want;
};

static const struct hispeed_case hispeeds[] = {
	{ 500000, 1024, 1024, 0, 2000000, 500000 },	/* off */
	{ 500000, 921, 1024, 90, 2000000, 500000 },	/* just below 90 % */
	{ 500000, 922, 1024, 90, 2000000, 2000000 },
	{ 2500000, 1024, 1024, 90, 1200000, 2500000 },	/* never lowers */
	{ 400000, 470, 512, 90, 1800000, 1800000 },	/* little CPU */
};

static void hispeed_desc(const struct hispeed_case *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "util %u of %u, load %u%%",
		 c->util, c->cap, c->load);
}

KUNIT_ARRAY_PARAM(hispeeds, hispeeds, hispeed_desc);

/* Android's hispeed jump out of the 1.25x-per-decision climb. */
static void freq_hispeed(struct kunit *test)
{
	const struct hispeed_case *c = test->param_value;

	KUNIT_EXPECT_EQ(test, ut_freq_hispeed(c->next, c->util, c->cap,
					      c->load, c->hispeed), c->want);
}

static void freq_opp_parse(struct kunit *test)
{
	u32 v[UT_OPP_MAX];
	unsigned int n = 0;

	KUNIT_EXPECT_EQ(test, ut_opp_parse_list("500000,800000, 1000000\n", v,
						UT_OPP_MAX, &n), 0);
	KUNIT_EXPECT_EQ(test, n, 3);
	KUNIT_EXPECT_EQ(test, v[0], 500000);
	KUNIT_EXPECT_EQ(test, v[2], 1000000);
	KUNIT_EXPECT_EQ(test, ut_opp_parse_list("500000,x", v, UT_OPP_MAX, &n),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, ut_opp_parse_list("", v, UT_OPP_MAX, &n),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, ut_opp_parse_list("4294967296", v, UT_OPP_MAX,
						&n), -ERANGE);
}

/* Tables must ascend, within limits; voltages default to a ramp. */
static void freq_opp_build(struct kunit *test)
{
	static const u32 good[] = { 500000, 1250000, 2000000 };
	static const u32 down[] = { 800000, 500000 };
	struct ut_opp t[UT_OPP_MAX];
	const char *why = NULL;

	KUNIT_EXPECT_EQ(test, ut_opp_build(t, good, 3, NULL, 0, &why), 0);
	KUNIT_EXPECT_LT(test, t[0].mv, t[2].mv);
	KUNIT_EXPECT_EQ(test, ut_opp_build(t, down, 2, NULL, 0, &why), -EINVAL);
	KUNIT_EXPECT_NOT_ERR_OR_NULL(test, why);
	KUNIT_EXPECT_EQ(test, ut_opp_build(t, good, 1, NULL, 0, &why), -EINVAL);
}

static struct kunit_case freq_cases[] = {
	KUNIT_CASE_PARAM(freq_map, maps_gen_params),
	KUNIT_CASE(freq_map_is_schedutil),
	KUNIT_CASE(freq_map_saturates),
	KUNIT_CASE_PARAM(freq_resolve, resolves_gen_params),
	KUNIT_CASE(freq_resolve_empty_table),
	KUNIT_CASE(freq_saturated_climb),
	KUNIT_CASE_PARAM(freq_hispeed, hispeeds_gen_params),
	KUNIT_CASE(freq_opp_parse),
	KUNIT_CASE(freq_opp_build),
	{}
};

static struct kunit_suite freq_suite = {
	.name = "utiltrack_freq",
	.test_cases = freq_cases,
};

kunit_test_suites(&freq_suite);
