# SPDX-License-Identifier: GPL-2.0
#
# badboard.sh - a board whose device tree lacks what vcpufreq needs
# (issue 15, "Bad input"). run-all boots the board of arm64:BOARD alone
# with cpu@1's dynamic-power-coefficient deleted from its tree
# (tools/vm/run --dt-delete), as a vendor tree without a power model
# would be: vcpufreq refuses to load with EINVAL and a message that names
# the node and the property, leaves no policy or module behind, and
# still loads when its parameters describe the platform (use_dt=0).

t_plan 6

test_bad_board() {
	dmesg_mark
	t_check "board without a power coefficient: vcpufreq refused (EINVAL)" \
		"insmod did not fail with EINVAL" \
		expect_err "Invalid argument" insmod $UT/vcpufreq.ko
	dmesg_new
	t_check "the refusal names the node and the missing property" \
		"no 'refusing to load: /cpus/cpu@1: no dynamic-power-coefficient' line" \
		dmesg_has "vcpufreq: refusing to load: /cpus/cpu@1: no dynamic-power-coefficient"
	t_check "a refused load leaves no vcpufreq module" "vcpufreq is loaded" \
		test -z "$(ours_loaded)"
	t_check "a refused load leaves no cpufreq policy" \
		"$(ls $CPUFREQ 2>/dev/null | tr '\n' ' ')" \
		test -z "$(ls -d $CPUFREQ/policy* 2>/dev/null)"
	# the parameters' platform does not need the tree's
	t_check "with use_dt=0 vcpufreq loads from its parameters" "insmod failed" \
		load_vcpufreq use_dt=0
	t_check "and drives every CPU" \
		"$(ls -d /sys/devices/system/cpu/cpu[0-9]*/cpufreq 2>/dev/null | wc -l) of $(grep -c '^processor' /proc/cpuinfo) CPUs" \
		test "$(ls -d /sys/devices/system/cpu/cpu[0-9]*/cpufreq 2>/dev/null | wc -l)" = \
		"$(grep -c '^processor' /proc/cpuinfo)"
	! mod_loaded vcpufreq || ut_rmmod vcpufreq
}

test_bad_board
