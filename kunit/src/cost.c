// SPDX-License-Identifier: GPL-2.0
/*
 * module/cost.c, compiled unchanged into utiltrack_kunit.ko: the suites test
 * the very file the module builds.
 */
#define UT_KUNIT 1	/* no exports: utiltrack.ko owns the symbols */
#include "../../module/cost.c"
