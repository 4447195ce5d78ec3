// SPDX-License-Identifier: GPL-2.0
/*
 * gov_test.c - module/core/gov.c: tunable parsing and I/O-wait boost.
 */
#include <string.h>
#include <utiltrack/gov.h>
#include "ut_test.h"

#define TICK	4000000ULL	/* HZ=250 */
#define MIN	128

static int parse_u(const char *s, u32 min, u32 max, u32 *out)
{
	return ut_gov_parse_uint(s, strlen(s), min, max, out);
}

UT_TEST(gov_parse_uint_accepts_plain_decimals)
{
	u32 v = 0;

	UT_EXPECT_EQ(parse_u("125", 100, 200, &v), 0);
	UT_EXPECT_EQ(v, 125);
	UT_EXPECT_EQ(parse_u("100\n", 100, 200, &v), 0);
	UT_EXPECT_EQ(v, 100);
	UT_EXPECT_EQ(parse_u("4294967295", 0, 0xffffffffu, &v), 0);
	UT_EXPECT_EQ(v, 0xffffffffu);
	UT_EXPECT_EQ(parse_u("0", 0, 10, &v), 0);
	UT_EXPECT_EQ(v, 0);
}

UT_TEST(gov_parse_uint_rejects_bad_input_unchanged)
{
	static const char * const bad[] = {
		"", "\n", "-1", "+5", " 5", "5 ", "5\n\n", "0x10", "12a",
		"abc", "4294967296", "99999999999999999999", "1.5", "150\t",
	};
	char long_in[4097];
	unsigned int i;
	u32 v = 7;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		UT_EXPECT_EQ(parse_u(bad[i], 0, 0xffffffffu, &v), -EINVAL);
		UT_EXPECT_EQ(v, 7);
	}
	/* out of range */
	UT_EXPECT_EQ(parse_u("99", 100, 200, &v), -EINVAL);
	UT_EXPECT_EQ(parse_u("201", 100, 200, &v), -EINVAL);
	/* 4 KiB of digits */
	memset(long_in, '1', sizeof(long_in) - 1);
	long_in[sizeof(long_in) - 1] = '\0';
	UT_EXPECT_EQ(parse_u(long_in, 0, 0xffffffffu, &v), -EINVAL);
	UT_EXPECT_EQ(v, 7);
	/* not NUL-terminated: only count bytes are read */
	UT_EXPECT_EQ(ut_gov_parse_uint("12345", 2, 0, 100, &v), 0);
	UT_EXPECT_EQ(v, 12);
}

UT_TEST(gov_parse_name_and_choice)
{
	static const char * const rt[] = { "max", "util" };
	char out[16] = "keep";

	UT_EXPECT_EQ(ut_gov_parse_name("walt\n", 5, out, sizeof(out)), 0);
	UT_EXPECT(!strcmp(out, "walt"));
	UT_EXPECT_EQ(ut_gov_parse_name("pelt_rt", 7, out, sizeof(out)), 0);
	UT_EXPECT(!strcmp(out, "pelt_rt"));
	strcpy(out, "keep");
	UT_EXPECT_EQ(ut_gov_parse_name("", 0, out, sizeof(out)), -EINVAL);
	UT_EXPECT_EQ(ut_gov_parse_name("wa-lt", 5, out, sizeof(out)), -EINVAL);
	UT_EXPECT_EQ(ut_gov_parse_name("a b", 3, out, sizeof(out)), -EINVAL);
	UT_EXPECT_EQ(ut_gov_parse_name("../x", 4, out, sizeof(out)), -EINVAL);
	UT_EXPECT_EQ(ut_gov_parse_name("0123456789abcdef", 16, out,
				       sizeof(out)), -EINVAL);
	UT_EXPECT(!strcmp(out, "keep"));

	UT_EXPECT_EQ(ut_gov_parse_choice("max\n", 4, rt, 2), 0);
	UT_EXPECT_EQ(ut_gov_parse_choice("util", 4, rt, 2), 1);
	UT_EXPECT_EQ(ut_gov_parse_choice("ma", 2, rt, 2), -EINVAL);
	UT_EXPECT_EQ(ut_gov_parse_choice("maxx", 4, rt, 2), -EINVAL);
	UT_EXPECT_EQ(ut_gov_parse_choice("-1", 2, rt, 2), -EINVAL);
}

UT_TEST(gov_iowait_doubles_per_request_and_halves_without)
{
	struct ut_iowait io;
	u64 t = 1000000000ULL;

	memset(&io, 0, sizeof(io));
	/* no request, no boost */
	ut_iowait_request(&io, t, false, MIN, TICK);
	UT_EXPECT_EQ(ut_iowait_apply(&io, t, MIN, TICK), 0);
	/* successive I/O wakeups within a tick: 128, 256, 512, 1024, 1024 */
	ut_iowait_request(&io, t += 1000000, true, MIN, TICK);
	UT_EXPECT_EQ(ut_iowait_apply(&io, t, MIN, TICK), 128);
	ut_iowait_request(&io, t += 1000000, true, MIN, TICK);
	UT_EXPECT_EQ(ut_iowait_apply(&io, t, MIN, TICK), 256);
	ut_iowait_request(&io, t += 1000000, true, MIN, TICK);
	/* two updates see one request: it doubles once */
	ut_iowait_request(&io, t, true, MIN, TICK);
	UT_EXPECT_EQ(ut_iowait_apply(&io, t, MIN, TICK), 512);
	ut_iowait_request(&io, t += 1000000, true, MIN, TICK);
	UT_EXPECT_EQ(ut_iowait_apply(&io, t, MIN, TICK), 1024);
	ut_iowait_request(&io, t += 1000000, true, MIN, TICK);
	UT_EXPECT_EQ(ut_iowait_apply(&io, t, MIN, TICK), 1024);
	/* updates without I/O halve it, down to nothing below MIN */
	ut_iowait_request(&io, t += 1000000, false, MIN, TICK);
	UT_EXPECT_EQ(ut_iowait_apply(&io, t, MIN, TICK), 512);
	ut_iowait_request(&io, t += 1000000, false, MIN, TICK);
	UT_EXPECT_EQ(ut_iowait_apply(&io, t, MIN, TICK), 256);
	ut_iowait_request(&io, t += 1000000, false, MIN, TICK);
	UT_EXPECT_EQ(ut_iowait_apply(&io, t, MIN, TICK), 128);
	ut_iowait_request(&io, t += 1000000, false, MIN, TICK);
	UT_EXPECT_EQ(ut_iowait_apply(&io, t, MIN, TICK), 0);
}

UT_TEST(gov_iowait_resets_after_an_idle_tick)
{
	struct ut_iowait io;
	u64 t = 1000000000ULL;

	memset(&io, 0, sizeof(io));
	ut_iowait_request(&io, t, true, MIN, TICK);
	UT_EXPECT_EQ(ut_iowait_apply(&io, t, MIN, TICK), MIN);
	ut_iowait_request(&io, t += 1000000, true, MIN, TICK);
	UT_EXPECT_EQ(ut_iowait_apply(&io, t, MIN, TICK), 256);
	/* sporadic I/O after more than a tick restarts at MIN */
	ut_iowait_request(&io, t += TICK + 1, true, MIN, TICK);
	UT_EXPECT_EQ(ut_iowait_apply(&io, t, MIN, TICK), MIN);
	/* another CPU's apply, over a tick after this CPU's last update */
	UT_EXPECT_EQ(ut_iowait_apply(&io, t + TICK + 1, MIN, TICK), 0);
	UT_EXPECT_EQ(io.boost, 0);
}
