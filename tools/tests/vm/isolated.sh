# SPDX-License-Identifier: GPL-2.0
#
# isolated.sh - CPU1 isolated (run-all boots this suite alone with
# nohz_full=1 isolcpus=1; Debian's 5.10 has no nohz_full): utiltrack never arms its tick there, so a
# busy isolated CPU keeps the interrupt-free run it was isolated for; a
# housekeeping CPU still gets it.

t_plan 5

# tick_armed CPU : 1 when utiltrack's tick timer is queued on CPU during a
# busy loop there (the CPU's active timers in /proc/timer_list)
tick_armed() {
	taskset -c "$1" sh -c 'while :; do :; done' &
	_b=$!
	sleep 0.5
	_n=0
	for _i in 1 2 3 4 5; do
		_n=$((_n + $(awk -v c="$1" '
			/^cpu: / { in_cpu = ($2 == c) }
			in_cpu && /ut_probe_tick_fn/ { n++ }
			END { print n + 0 }' /proc/timer_list)))
		sleep 0.1
	done
	kill $_b
	wait $_b 2>/dev/null
	[ $_n -gt 0 ] && echo 1 || echo 0
}

# The boot's premise: CPU1 nohz_full where the kernel has it (Debian's
# 5.10 is built without NO_HZ_FULL), and isolated in any case.
test_isolated() {
	_sys=/sys/devices/system/cpu
	if [ -e $_sys/nohz_full ]; then
		t_check "isolated: the boot made CPU1 nohz_full" \
			"nohz_full '$(cat $_sys/nohz_full)'" \
			grep -qx 1 $_sys/nohz_full
	else
		t_check "isolated: the boot isolated CPU1 (no nohz_full in this kernel)" \
			"isolated '$(cat $_sys/isolated)'" grep -qx 1 $_sys/isolated
	fi
	insmod $UT/utiltrack.ko || { t_fail "isolated: insmod utiltrack" "failed"; return; }
	t1=$(tick_armed 1)
	t0=$(tick_armed 0)
	echo "isolated: utiltrack tick queued while busy: isolated cpu1 $t1, housekeeping cpu0 $t0"
	t_check "isolated: no tick on the busy isolated CPU" "queued" test "$t1" = 0
	t_check "isolated: the busy housekeeping CPU has its tick" "not queued" \
		test "$t0" = 1
	c=$(ut_cpu 1 pelt)
	t_check "isolated: CPU1 still tracked at scheduler events" "pelt '$c'" \
		test -n "$c"
	t_check "isolated: rmmod utiltrack" "rmmod failed" rmmod utiltrack
}

test_isolated
