// SPDX-License-Identifier: GPL-2.0
/*
 * module/core/util_est.c, compiled unchanged into utiltrack_kunit.ko: the suites test
 * the very file the module and the host tools build.
 */
#include "../../module/core/util_est.c"
