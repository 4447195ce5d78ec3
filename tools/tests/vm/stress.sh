# SPDX-License-Identifier: GPL-2.0
#
# stress.sh - reliability under churn and hostile input (issue 18). Sourced
# by the guest after lib.sh. Every scenario prints its count; any kernel
# report, taint or leak (the harness's scan, kmemleak.sh on the debug
# kernel) fails the run as well as the checks here.
#
# STRESS_FULL=1 (make stress) runs the issue's counts; the default is the
# short version that make check runs. STRESS_ONLY="NAME..." runs those
# scenarios alone (reload toggle switch hotplug forks fuzz), so the debug
# kernel's hours can be split over boots.

ST_SCENARIOS="reload toggle switch hotplug forks fuzz"
# every built-in tracker, on in every scenario (util_est is not by default)
ST_TRACKERS="pelt rt walt util_est"
ST_ALL=trackers=$(echo $ST_TRACKERS | tr ' ' ,)
ST_NTRACKERS=$(echo $ST_TRACKERS | wc -w)
ST_RUN=${STRESS_ONLY:-$ST_SCENARIOS}
# Each scenario is a function stress_NAME, with ST_CHECKS_NAME beside it:
# how many checks it makes.

if [ "${STRESS_FULL:-0}" = 1 ]; then
	ST_RELOADS=100 ST_TOGGLES=1000 ST_SWITCHES=100 ST_HOTPLUG=50
	ST_FORKS=10000 ST_FUZZ=10000
else
	# make check: each path a few times (trackers.sh and governor.sh
	# reload and switch more); under TCG a reload under hackbench takes
	# ~14 s, a round of 4 switches ~8 s, a hotplug round ~4 s per CPU
	ST_RELOADS=2 ST_TOGGLES=30 ST_SWITCHES=3 ST_HOTPLUG=2
	ST_FORKS=1000 ST_FUZZ=600
fi
SGT=$CPUFREQ/utiltrack
# not nproc: the test shell is pinned to CPU0
NCPU=$(grep -c '^processor' /proc/cpuinfo)

st_say() {
	echo "stress: $*"
}

# governor on every policy
st_gov_all() {
	for _p in $CPUFREQ/policy*; do
		echo "$1" >$_p/scaling_governor || return 1
	done
}

# st_up NAME : vcpufreq and utiltrack (all trackers) loaded, or NAME fails
st_up() {
	load_vcpufreq || { t_fail "$1" "insmod vcpufreq"; return 1; }
	insmod $UT/utiltrack.ko $ST_ALL || { t_fail "$1" "insmod utiltrack"; ut_rmmod vcpufreq; return 1; }
}

# st_down : back to performance, both modules out (checked)
st_down() {
	st_gov_all performance
	ut_rmmod utiltrack vcpufreq
}

# st_verdict WHAT WHY : the background hackbench stops; WHAT passed if
# every step kept $ok at 1
st_verdict() {
	kill $hb
	wait $hb 2>/dev/null
	st_say "$1: ok=$ok"
	t_check "stress: $1" "$2" test $ok = 1
}

# insmod/rmmod of utiltrack under hackbench, the governor switched on
# between (so a reload also crosses governor init and exit)
ST_CHECKS_reload=1
stress_reload() {
	load_vcpufreq || { t_fail "stress reload" "insmod vcpufreq"; return; }
	bg_hackbench
	ok=1 i=0
	while [ $i -lt $ST_RELOADS ]; do
		insmod $UT/utiltrack.ko $ST_ALL || ok=0
		st_gov_all utiltrack || ok=0
		sleep 0.1
		st_gov_all performance || ok=0
		rmmod utiltrack || ok=0
		i=$((i + 1))
	done
	st_verdict "${ST_RELOADS}x insmod/governor/rmmod under hackbench" \
		"a step failed"
	ut_rmmod vcpufreq
}

# tracker enable/disable under load, governed by the tracker toggled
ST_CHECKS_toggle=2
stress_toggle() {
	st_up "stress toggle" || return
	st_gov_all utiltrack
	echo walt >$SGT/signal
	bg_hackbench
	ok=1 i=0
	while [ $i -lt $ST_TOGGLES ]; do
		for t in $ST_TRACKERS; do
			echo "disable $t" >$UTD/trackers || ok=0
			echo "enable $t" >$UTD/trackers || ok=0
		done
		i=$((i + ST_NTRACKERS))
	done
	st_verdict "${ST_TOGGLES}x tracker disable/enable under load" \
		"a write failed"
	t_check "stress: all trackers enabled after the toggles" "$(cat $UTD/trackers)" \
		test "$(grep -c enabled $UTD/trackers)" = $ST_NTRACKERS
	echo pelt_rt >$SGT/signal
	st_down
}

# governor switches between utiltrack, schedutil, performance, powersave
ST_CHECKS_switch=1
stress_switch() {
	st_up "stress switch" || return
	bg_hackbench
	ok=1 i=0
	while [ $i -lt $ST_SWITCHES ]; do
		for g in utiltrack schedutil performance powersave; do
			st_gov_all $g || ok=0
		done
		i=$((i + 1))
	done
	st_verdict "${ST_SWITCHES}x 4 governor switches on $NCPU policies under hackbench" \
		"a switch failed"
	st_down
}

# st_walt_check : the walt sums checked now, hackbench held still (the
# check skips a CPU that keeps changing under it: "unsettled"), up to 3
# reads until every CPU settled; "MISMATCHES UNSETTLED" of the last read
st_walt_check() {
	killall -STOP hackbench 2>/dev/null
	_n=0
	while :; do
		cat $UTD/check >/tmp/st_check
		_u=$(col /tmp/st_check name walt_sum_unsettled_now value)
		_n=$((_n + 1))
		[ "$_u" != 0 ] && [ $_n -lt 3 ] || break
	done
	killall -CONT hackbench 2>/dev/null
	echo "$(col /tmp/st_check name walt_sum_mismatches_now value) $_u"
}

# every non-boot CPU offline and online, a task pinned to it, tracked
# and governed, the sums checked after each round
ST_CHECKS_hotplug=3
stress_hotplug() {
	st_up "stress hotplug" || return
	st_gov_all utiltrack
	bg_hackbench
	ok=1 i=0 bad=0 unsettled=0
	while [ $i -lt $ST_HOTPLUG ]; do
		c=1
		while [ $c -lt $NCPU ]; do
			taskset -c $c sh -c 'while :; do :; done' &
			pin=$!
			sleep 0.1
			echo 0 >/sys/devices/system/cpu/cpu$c/online || ok=0
			echo 1 >/sys/devices/system/cpu/cpu$c/online || ok=0
			echo utiltrack >$CPUFREQ/policy$c/scaling_governor || ok=0
			kill $pin
			wait $pin 2>/dev/null
			c=$((c + 1))
		done
		set -- $(st_walt_check)
		[ "$1" = 0 ] || bad=$((bad + 1))
		[ "$2" = 0 ] || unsettled=$((unsettled + 1))
		i=$((i + 1))
	done
	st_verdict "${ST_HOTPLUG}x hotplug of CPUs 1..$((NCPU - 1)), tracked and governed" \
		"a write failed"
	t_check "stress: walt sums intact after every hotplug round" \
		"$bad rounds with mismatches" test $bad = 0
	t_check "stress: walt sums checked in every round (no CPU unsettled)" \
		"$unsettled rounds left a CPU unchecked" test $unsettled = 0
	st_down
}

# st_stale : pids in the tasks table that are gone. A pid counts only if
# a second read a second later still lists it: the readers themselves
# (the command substitution, awk) are in the first read and gone after.
st_stale() {
	awk 'NR > 1 { print $1 }' $UTD/tasks >/tmp/st_t1
	sleep 1
	awk 'NR > 1 { print $1 }' $UTD/tasks >/tmp/st_t2
	_n=0
	for _p in $(cat /tmp/st_t1); do
		[ -d /proc/$_p ] && continue
		grep -qx "$_p" /tmp/st_t2 && _n=$((_n + 1))
	done
	echo $_n
}

# A storm of short-lived tasks with max_tasks=64 while long-lived ones
# hold every free slot and 20 more (how many tasks a boot has differs by
# kernel: count, do not assume): exhaustion counted, every slot back once
# they are gone, no slot left for a task that is gone.
ST_CHECKS_forks=3
stress_forks() {
	insmod $UT/utiltrack.ko max_tasks=64 $ST_ALL || { t_fail "stress forks" "insmod"; return; }
	u0=$(ut_stat slots_used)
	holders=""
	i=0
	while [ $i -lt $((64 - u0 + 20)) ]; do
		sleep 600 &
		holders="$holders $!"
		i=$((i + 1))
	done
	a0=$(ut_stat slots_allocs) e0=$(ut_stat slots_exhausted)
	i=0
	while [ $i -lt $ST_FORKS ]; do
		true | true | true | true &
		true | true | true | true &
		wait $!
		i=$((i + 8))
	done
	ex=$(ut_stat slots_exhausted)
	# every fork got a slot or was counted; a slot that an older task
	# frees meanwhile passes from storm task to storm task, so not
	# every fork is exhausted, but most are
	got=$(($(ut_stat slots_allocs) - a0)) ex=$((ex - e0))
	# shellcheck disable=SC2086
	kill $holders 2>/dev/null
	wait
	sleep 0.5
	u1=$(ut_stat slots_used)
	stale=$(st_stale)
	st_say "$ST_FORKS forks while $((64 - u0 + 20)) sleepers held 64 slots: used $u0 -> $u1, in the storm $got got a slot and $ex were exhausted, stale $stale"
	t_check "stress: every fork of $ST_FORKS past 64 slots got one or was counted exhausted, most exhausted" \
		"got $got, exhausted $ex" \
		test $((got + ex)) -ge "$ST_FORKS" -a "$ex" -ge $((ST_FORKS / 2))
	t_range "stress: every slot back after the storm (used, after - before)" \
		"$((u1 - u0))" -3 3
	t_check "stress: no slot left for a task that is gone" "$stale stale" \
		test "$stale" = 0
	ut_rmmod utiltrack
}

# ------------------------------------------------------------------
# fuzzed writes

# st_valid : every writable file holds a valid value
st_valid() {
	_sig=$(cat $SGT/signal)
	case $_sig in pelt | rt | walt | util_est | pelt_rt | util_est_rt) ;; *) return 1 ;; esac
	_v=$(cat $SGT/rate_limit_us)
	[ "$_v" -ge 0 ] && [ "$_v" -le 10000000 ] || return 1
	_v=$(cat $SGT/headroom_pct)
	[ "$_v" -ge 100 ] && [ "$_v" -le 200 ] || return 1
	case $(cat $SGT/rt_policy) in max | util) ;; *) return 1 ;; esac
	case $(cat $SGT/iowait_boost) in 0 | 1) ;; *) return 1 ;; esac
	case $(cat $SGT/runnable_boost) in 0 | 1) ;; *) return 1 ;; esac
	_v=$(cat $SGT/hispeed_load)
	[ "$_v" -ge 0 ] && [ "$_v" -le 100 ] || return 1
	_v=$(cat $SGT/hispeed_freq)
	[ "$_v" -ge 0 ] || return 1
	case $(cat $SGT/busy_hold) in 0 | 1) ;; *) return 1 ;; esac
	# every preset listed
	tr -d '[]' <$SGT/preset | grep -qxE 'default schedutil( [a-z_]+)*' || return 1
	head -n 1 $UTD/shadow | grep -qE '^signals( [a-z_]+)+$' || return 1
	[ "$(grep -cE '^(pelt|rt|walt|util_est) (enabled|disabled)$' $UTD/trackers)" = $ST_NTRACKERS ] || return 1
	_v=$(cat $DBG/vcpufreq/overhead_us)
	[ "$_v" -ge 0 ] && [ "$_v" -le 500 ] || return 1
	case $(ut_stat cost_measurement) in 0 | 1) ;; *) return 1 ;; esac
	[ "$(head -1 $UTD/cost)" = "name count mean_ns p50_ns p99_ns max_ns" ] || return 1
}

# st_payload N : the N-th fuzz input on stdout
st_payload() {
	case $(($1 % 8)) in
	0) head -c $((1 + RANDOM % 64)) /dev/urandom ;;
	1) head -c $((1 + RANDOM % 16)) /dev/zero ;;
	2) set -- -1 0 1 99 100 101 125 200 201 10000000 10000001 \
		4294967295 4294967296 99999999999999999999 "" " " "5 " " 5" \
		"0x10" "+5" "1e3" "max" "util" "MAX" "pelt" "walt" "pelt_rt" "util_est_rt" \
		"nosuch" "enable" "disable" "enable nosuch" "enable pelt pelt" \
		"default" "schedutil" "off" "pelt walt" "walt,walt" \
		"$(printf '1\n2')"
	   shift $((RANDOM % $#))
	   printf '%s' "$1" ;;
	3) printf '%s\n' $((RANDOM - 16384)) ;;
	4) printf '%s' "$(head -c 8 /dev/urandom | od -An -tu4 | tr -d ' \n' | cut -c1-12)" ;;
	5) [ $(($1 % 200)) = 5 ] && dd if=/dev/zero bs=1M count=1 2>/dev/null || printf '' ;;
	6) printf 'enable %s' "$(head -c 6 /dev/urandom | od -An -tx1 | tr -d ' \n')" ;;
	7) printf '%s\n\n' $((RANDOM % 300)) ;;
	esac
}

# st_fuzz_writer N SEED : N writes of fuzz inputs to random files
st_fuzz_writer() {
	set -- $1 $2
	_files="$SGT/signal $SGT/rate_limit_us $SGT/headroom_pct $SGT/rt_policy
		$SGT/iowait_boost $SGT/runnable_boost $SGT/hispeed_load
		$SGT/hispeed_freq $SGT/busy_hold $SGT/preset $UTD/trackers
		$UTD/shadow $DBG/vcpufreq/overhead_us $UTD/cost"
	_n=$1 _i=0
	RANDOM=$2
	# shellcheck disable=SC2086
	set -- $_files
	while [ $_i -lt $_n ]; do
		shift $((RANDOM % $#))
		st_payload $_i | dd of=$1 bs=1M 2>/dev/null
		# shellcheck disable=SC2086
		set -- $_files
		_i=$((_i + 1))
	done
}

# concurrent writers, batches checked in between; trackers that random
# input happened to disable are enabled again before the next batch. No
# hackbench here: it would leave the writers a sliver of CPU under TCG
# (0.8 s a write); the governor decides meanwhile all the same.
ST_CHECKS_fuzz=1
stress_fuzz() {
	st_up "stress fuzz" || return
	st_gov_all utiltrack
	batch=100 done=0 bad=0
	while [ $done -lt $ST_FUZZ ]; do
		st_fuzz_writer $((batch / 2)) $done &
		w=$!
		st_fuzz_writer $((batch / 2)) $((done + 1))
		wait $w
		st_valid || { bad=$((bad + 1)); grep . $SGT/* $UTD/trackers; }
		for t in $ST_TRACKERS; do echo "enable $t" >$UTD/trackers; done
		done=$((done + batch))
	done
	st_say "$done fuzzed writes (2 writers) to 14 files: $bad batches left an invalid value"
	t_check "stress: $done fuzzed writes, every value valid after each batch" \
		"$bad bad batches" test $bad = 0
	st_down
}

# st_known NAME : NAME is a scenario (run-all lets only a-z names through)
st_known() {
	type "stress_$1" >/dev/null 2>&1
}

# The plan: what each scenario to run declares (ST_CHECKS_NAME, next to
# it), and one failed check for a name that is none, not a silently
# shorter run.
_plan=0
for _s in $ST_RUN; do
	if st_known $_s; then
		eval "_plan=\$((_plan + ST_CHECKS_$_s))"
	else
		_plan=$((_plan + 1))
	fi
done
t_plan $_plan

for _s in $ST_RUN; do
	if ! st_known $_s; then
		t_fail "stress: scenario $_s" "none such; one of: $ST_SCENARIOS"
		continue
	fi
	_t0=$(cut -d' ' -f1 /proc/uptime)
	st_say "scenario $_s"
	stress_$_s
	st_say "scenario $_s took $(awk -v t0="$_t0" '{ printf "%.0f", $1 - t0 }' /proc/uptime) s"
done
