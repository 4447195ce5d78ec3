# SPDX-License-Identifier: GPL-2.0
#
# nodebugfs.sh - utiltrack on a kernel booted with debugfs=off, as under
# lockdown or on builds without CONFIG_DEBUG_FS (many Android kernels):
# it loads, says so once, tracks and governs. run-all boots it alone with
# --append debugfs=off. Sourced after lib.sh (which mounts nothing here).

t_plan 7

test_no_debugfs() {
	dmesg_mark
	t_check "no debugfs: vcpufreq loads" "insmod failed" load_vcpufreq
	t_check "no debugfs: utiltrack loads" "insmod failed" \
		insmod $UT/utiltrack.ko
	t_check "no debugfs: one dmesg line says so" \
		"$(dmesg_new | grep -c 'debugfs unavailable') lines" \
		test "$(dmesg_new | grep -c 'utiltrack: debugfs unavailable')" = 1
	t_check "no debugfs: governor selectable" "set_gov failed" \
		set_gov 1 utiltrack
	f=$(busy_freq 1 1.5)
	fmax=$(cat $CPUFREQ/policy1/cpuinfo_max_freq)
	t_check "no debugfs: a busy CPU goes to fmax" "at $f" test "$f" = "$fmax"
	set_gov 1 performance
	t_check "no debugfs: rmmod utiltrack" "rmmod failed" rmmod utiltrack
	t_check "no debugfs: rmmod vcpufreq" "rmmod failed" rmmod vcpufreq
}

test_no_debugfs
