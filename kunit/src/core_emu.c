// SPDX-License-Identifier: GPL-2.0
/*
 * module/core/emu.c, compiled unchanged into utiltrack_kunit.ko: the suites test
 * the very file vcpufreq.ko and the host tools build.
 */
#include "../../module/core/emu.c"
