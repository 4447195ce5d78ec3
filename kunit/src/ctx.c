// SPDX-License-Identifier: GPL-2.0
/*
 * module/ctx.c, compiled unchanged into utiltrack_kunit.ko: the suites
 * fill their events' context as the probes do.
 */
#define UT_KUNIT 1	/* no exports: utiltrack.ko owns the symbols */
#include "../../module/ctx.c"
