// SPDX-License-Identifier: GPL-2.0
/*
 * module/trackers/util_est.c, compiled unchanged into utiltrack_kunit.ko: the suites test
 * the very file the module and the host tools build.
 */
#define UT_KUNIT 1	/* no exports: utiltrack.ko owns the symbols */
#include "../../module/trackers/util_est.c"
