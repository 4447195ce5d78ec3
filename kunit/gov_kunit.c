// SPDX-License-Identifier: GPL-2.0
/*
 * gov_kunit.c - utiltrack_gov: the governor's tunable parsing and its
 * I/O-wait boost (module/core/gov.c).
 *
 * A store must take exactly a decimal (or a name) with at most one
 * trailing newline, reject anything else with -EINVAL, and leave the old
 * value untouched when it does.
 */

#include <linux/slab.h>
#include <linux/string.h>
#include <utiltrack/gov.h>

#include "utiltrack_kunit.h"

#define IO_MIN	128
#define TICK	(4 * NSEC_PER_MSEC)

static int parse_u(const char *s, u32 min, u32 max, u32 *v)
{
	return ut_gov_parse_uint(s, strlen(s), min, max, v);
}

struct uint_case {
	const char *in;
	u32 min, max;
	int ret;
	u32 val;	/* the value after the store (7 before it) */
};

static const struct uint_case uints[] = {
	{ "125", 100, 200, 0, 125 },
	{ "100\n", 100, 200, 0, 100 },
	{ "0", 0, 10, 0, 0 },
	{ "4294967295", 0, U32_MAX, 0, U32_MAX },
	{ "", 0, U32_MAX, -EINVAL, 7 },
	{ "\n", 0, U32_MAX, -EINVAL, 7 },
	{ "-1", 0, U32_MAX, -EINVAL, 7 },
	{ "+5", 0, U32_MAX, -EINVAL, 7 },
	{ " 5", 0, U32_MAX, -EINVAL, 7 },
	{ "5 ", 0, U32_MAX, -EINVAL, 7 },
	{ "5\n\n", 0, U32_MAX, -EINVAL, 7 },
	{ "0x10", 0, U32_MAX, -EINVAL, 7 },
	{ "12a", 0, U32_MAX, -EINVAL, 7 },
	{ "1.5", 0, U32_MAX, -EINVAL, 7 },
	{ "4294967296", 0, U32_MAX, -EINVAL, 7 },
	{ "99999999999999999999", 0, U32_MAX, -EINVAL, 7 },
	{ "99", 100, 200, -EINVAL, 7 },
	{ "201", 100, 200, -EINVAL, 7 },
};

static void uint_desc(const struct uint_case *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "'%s' in %u..%u",
		 c->in[0] == '\n' ? "\\n" : c->in, c->min, c->max);
}

KUNIT_ARRAY_PARAM(uints, uints, uint_desc);

static void gov_parse_uint(struct kunit *test)
{
	const struct uint_case *c = test->param_value;
	u32 v = 7;

	KUNIT_EXPECT_EQ(test, parse_u(c->in, c->min, c->max, &v), c->ret);
	KUNIT_EXPECT_EQ(test, v, c->val);
}

/* A page of digits is not a number. */
static void gov_parse_uint_4k(struct kunit *test)
{
	char *in = kunit_kzalloc(test, PAGE_SIZE + 1, GFP_KERNEL);
	u32 v = 7;

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, in);
	memset(in, '1', PAGE_SIZE);
	KUNIT_EXPECT_EQ(test, ut_gov_parse_uint(in, PAGE_SIZE, 0, U32_MAX, &v),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, v, 7);
}

/* sysfs buffers need not be terminated: only @count bytes are read. */
static void gov_parse_uint_reads_count_bytes(struct kunit *test)
{
	u32 v = 7;

	KUNIT_EXPECT_EQ(test, ut_gov_parse_uint("12345", 2, 0, 100, &v), 0);
	KUNIT_EXPECT_EQ(test, v, 12);
	KUNIT_EXPECT_EQ(test, ut_gov_parse_uint("12345", 0, 0, 100, &v),
			-EINVAL);
}

struct name_case {
	const char *in;
	int ret;
	const char *out;
};

static const struct name_case names[] = {
	{ "walt\n", 0, "walt" },
	{ "pelt_rt", 0, "pelt_rt" },
	{ "", -EINVAL, "keep" },
	{ "wa-lt", -EINVAL, "keep" },
	{ "a b", -EINVAL, "keep" },
	{ "../x", -EINVAL, "keep" },
	{ "0123456789abcdef", -EINVAL, "keep" },	/* no room for NUL */
};

static void name_desc(const struct name_case *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "'%s'", c->in);
}

KUNIT_ARRAY_PARAM(names, names, name_desc);

static void gov_parse_name(struct kunit *test)
{
	const struct name_case *c = test->param_value;
	char out[16] = "keep";

	KUNIT_EXPECT_EQ(test, ut_gov_parse_name(c->in, strlen(c->in), out,
						sizeof(out)), c->ret);
	KUNIT_EXPECT_STREQ(test, out, c->out);
}

static void gov_parse_choice(struct kunit *test)
{
	static const char * const rt[] = { "max", "util" };

	KUNIT_EXPECT_EQ(test, ut_gov_parse_choice("max\n", 4, rt, 2), 0);
	KUNIT_EXPECT_EQ(test, ut_gov_parse_choice("util", 4, rt, 2), 1);
	KUNIT_EXPECT_EQ(test, ut_gov_parse_choice("ma", 2, rt, 2), -EINVAL);
	KUNIT_EXPECT_EQ(test, ut_gov_parse_choice("maxx", 4, rt, 2), -EINVAL);
	KUNIT_EXPECT_EQ(test, ut_gov_parse_choice("-1", 2, rt, 2), -EINVAL);
	KUNIT_EXPECT_EQ(test, ut_gov_parse_choice("", 0, rt, 2), -EINVAL);
}

/* Each I/O wakeup doubles the boost up to 1024; updates without halve it. */
static void gov_iowait_ramp(struct kunit *test)
{
	static const u32 up[] = { IO_MIN, 256, 512, 1024, 1024 };
	static const u32 down[] = { 512, 256, IO_MIN, 0 };
	struct ut_iowait io = {};
	u64 t = NSEC_PER_SEC;
	unsigned int i;

	ut_iowait_request(&io, t, false, IO_MIN, TICK);
	KUNIT_EXPECT_EQ(test, ut_iowait_apply(&io, t, IO_MIN, TICK), 0);
	for (i = 0; i < ARRAY_SIZE(up); i++) {
		t += NSEC_PER_MSEC;
		ut_iowait_request(&io, t, true, IO_MIN, TICK);
		/* a second update seeing the same request: no double count */
		ut_iowait_request(&io, t, true, IO_MIN, TICK);
		KUNIT_EXPECT_EQ(test, ut_iowait_apply(&io, t, IO_MIN, TICK),
				up[i]);
	}
	for (i = 0; i < ARRAY_SIZE(down); i++) {
		t += NSEC_PER_MSEC;
		ut_iowait_request(&io, t, false, IO_MIN, TICK);
		KUNIT_EXPECT_EQ(test, ut_iowait_apply(&io, t, IO_MIN, TICK),
				down[i]);
	}
}

/* I/O after more than a tick of silence starts over at the minimum. */
static void gov_iowait_reset_after_tick(struct kunit *test)
{
	struct ut_iowait io = {};
	u64 t = NSEC_PER_SEC;

	ut_iowait_request(&io, t, true, IO_MIN, TICK);
	KUNIT_EXPECT_EQ(test, ut_iowait_apply(&io, t, IO_MIN, TICK), IO_MIN);
	ut_iowait_request(&io, t += NSEC_PER_MSEC, true, IO_MIN, TICK);
	KUNIT_EXPECT_EQ(test, ut_iowait_apply(&io, t, IO_MIN, TICK), 256);
	ut_iowait_request(&io, t += TICK + 1, true, IO_MIN, TICK);
	KUNIT_EXPECT_EQ(test, ut_iowait_apply(&io, t, IO_MIN, TICK), IO_MIN);
	KUNIT_EXPECT_EQ(test, ut_iowait_apply(&io, t + TICK + 1, IO_MIN, TICK),
			0);
	KUNIT_EXPECT_EQ(test, io.boost, 0);
}

static struct kunit_case gov_cases[] = {
	KUNIT_CASE_PARAM(gov_parse_uint, uints_gen_params),
	KUNIT_CASE(gov_parse_uint_4k),
	KUNIT_CASE(gov_parse_uint_reads_count_bytes),
	KUNIT_CASE_PARAM(gov_parse_name, names_gen_params),
	KUNIT_CASE(gov_parse_choice),
	KUNIT_CASE(gov_iowait_ramp),
	KUNIT_CASE(gov_iowait_reset_after_tick),
	{}
};

static struct kunit_suite gov_suite = {
	.name = "utiltrack_gov",
	.test_cases = gov_cases,
};

kunit_test_suites(&gov_suite);
