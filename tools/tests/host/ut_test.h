/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ut_test.h - a tiny test runner for the host builds of the core.
 *
 * Each UT_TEST() registers itself; main() in main.c runs them all and
 * prints the closing "host: N passed, N failed" line CI reads.
 */
#ifndef _UT_TEST_H
#define _UT_TEST_H

#include <stdio.h>

struct ut_test {
	const char *name;
	void (*fn)(void);
	struct ut_test *next;
};

void ut_test_register(struct ut_test *t);
extern int ut_test_failed;

#define UT_TEST(tname)							\
	static void tname(void);					\
	static struct ut_test tname##_desc = { #tname, tname, NULL };	\
	__attribute__((constructor)) static void tname##_reg(void)	\
	{ ut_test_register(&tname##_desc); }				\
	static void tname(void)

#define UT_EXPECT(cond) do {						\
	if (!(cond)) {							\
		fprintf(stderr, "  %s:%d: expected %s\n", __FILE__,	\
			__LINE__, #cond);				\
		ut_test_failed = 1;					\
	}								\
} while (0)

#define UT_EXPECT_EQ(a, b) do {						\
	long long _a = (long long)(a), _b = (long long)(b);		\
	if (_a != _b) {							\
		fprintf(stderr, "  %s:%d: %s == %lld, expected %s == %lld\n", \
			__FILE__, __LINE__, #a, _a, #b, _b);		\
		ut_test_failed = 1;					\
	}								\
} while (0)

#define UT_EXPECT_NEAR(a, b, tol) do {					\
	long long _a = (long long)(a), _b = (long long)(b);		\
	long long _d = _a > _b ? _a - _b : _b - _a;			\
	if (_d > (long long)(tol)) {					\
		fprintf(stderr, "  %s:%d: %s == %lld, expected %lld +- %lld\n", \
			__FILE__, __LINE__, #a, _a, _b, (long long)(tol)); \
		ut_test_failed = 1;					\
	}								\
} while (0)

#endif /* _UT_TEST_H */
