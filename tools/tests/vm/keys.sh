# SPDX-License-Identifier: GPL-2.0
#
# keys.sh - the path every user takes: the scheduler tracepoints are off
# until utiltrack attaches its probes, so each load and unload flips their
# static keys (text_poke_bp on every call site) while the scheduler runs
# on every CPU. run-all boots this suite alone, without the keep-alive the
# other suites use, under single-threaded TCG: multi-threaded TCG can
# execute a stale int3 after such a patch (docs/safety.md, "Static keys
# under QEMU TCG").

t_plan 4

KEYS_RELOADS=${KEYS_RELOADS:-6}

# no trace instance keeps a scheduler event on: the keys flip with ours
keys_all_off() {
	for _e in $TRACE/events/sched/sched_switch/enable \
		  $TRACE/instances/*/events/sched/sched_switch/enable; do
		[ -e "$_e" ] || continue
		[ "$(cat "$_e")" = 0 ] || return 1
	done
}

test_keys_reload() {
	t_check "keys: no trace instance holds the scheduler events" \
		"$(grep -l 1 $TRACE/instances/*/events/sched/*/enable 2>/dev/null)" keys_all_off
	load_vcpufreq || { t_fail "keys: insmod vcpufreq" "failed"; return; }
	bg_hackbench
	ok=1 i=0
	while [ $i -lt $KEYS_RELOADS ]; do
		insmod $UT/utiltrack.ko || ok=0
		for _p in $CPUFREQ/policy*; do
			echo utiltrack >$_p/scaling_governor || ok=0
		done
		sleep 0.2
		for _p in $CPUFREQ/policy*; do
			echo performance >$_p/scaling_governor || ok=0
		done
		rmmod utiltrack || ok=0
		i=$((i + 1))
	done
	t_check "keys: ${KEYS_RELOADS}x insmod/governor/rmmod under hackbench, keys flipping" \
		"a step failed" test $ok = 1
	# the same with trackers switched on and off while loaded: each
	# enable and disable attaches or detaches probes, flipping keys again
	insmod $UT/utiltrack.ko || ok=0
	i=0
	while [ $i -lt $KEYS_RELOADS ]; do
		for t in pelt rt walt; do
			echo "disable $t" >$UTD/trackers || ok=0
		done
		for t in pelt rt walt; do
			echo "enable $t" >$UTD/trackers || ok=0
		done
		i=$((i + 1))
	done
	t_check "keys: ${KEYS_RELOADS}x all trackers off and on under hackbench" \
		"a write failed" test $ok = 1
	kill $hb
	wait $hb 2>/dev/null
	t_check "keys: rmmod utiltrack and vcpufreq" "rmmod failed" \
		sh -c 'rmmod utiltrack && rmmod vcpufreq'
}

test_keys_reload
