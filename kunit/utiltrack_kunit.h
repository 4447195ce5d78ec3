/* SPDX-License-Identifier: GPL-2.0 */
/*
 * utiltrack_kunit.h - shared by the suites of utiltrack_kunit.ko.
 */
#ifndef _UTILTRACK_KUNIT_H
#define _UTILTRACK_KUNIT_H

#include <kunit/test.h>
#include "utiltrack.h"

#define UT_KUNIT_MAX_TASKS	64
#define UT_KUNIT_PERIOD_NS	(1024ULL * 1024)	/* one PELT period */

/* What the registry asked of the fake probe layer (glue.c). */
struct ut_kunit_probes {
	unsigned int calls;
	unsigned int needs;	/* of the last successful attach */
	int fail;		/* non-zero: attach returns it */
};

extern struct ut_kunit_probes ut_kunit_probes;

void ut_kunit_reset(u64 now);

/* |a - b| <= tol; the report stays one short line (printk cuts long ones) */
#define UT_KUNIT_EXPECT_NEAR(test, a, b, tol) do {			\
	s64 __a = (s64)(a), __b = (s64)(b), __t = (s64)(tol);		\
	s64 __diff = __a > __b ? __a - __b : __b - __a;			\
	KUNIT_EXPECT_LE_MSG(test, __diff, __t,				\
			    "%s = %lld, expected %lld +- %lld", #a,	\
			    __a, __b, __t);				\
} while (0)

#endif /* _UTILTRACK_KUNIT_H */
