// SPDX-License-Identifier: GPL-2.0
/*
 * vcpufreq_twin.c - a second copy of vcpufreq under another module name,
 * built only for tests (UT_TEST_MODULES=y): loading it while vcpufreq is
 * bound must be refused, the way a real driver's presence refuses vcpufreq.
 */
#include "vcpufreq.c"
#include "platform.c"
#include "../core/opp.c"
#include "../core/emu.c"
