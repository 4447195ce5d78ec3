# SPDX-License-Identifier: GPL-2.0
#
# safety.sh - what keeps utiltrack safe on a machine it was not made on
# (issue 18): the stop class, an RT flag that outlives its probe, an idle
# CPU in a shared policy, a pid that changes at exec (CPU hotplug is in
# stress.sh). Sourced by the
# guest after lib.sh; loads and unloads its own modules, workloads on CPU1.

t_plan 24

SGT=$CPUFREQ/utiltrack

# safety_setup VCPUFREQ-ARGS... : vcpufreq and utiltrack (all trackers)
safety_setup() {
	load_vcpufreq "$@" || return 1
	insmod $UT/utiltrack.ko || { rmmod vcpufreq; return 1; }
}

# safety_teardown NAME : both modules out, each rmmod checked
safety_teardown() {
	for p in $CPUFREQ/policy*; do
		echo performance >$p/scaling_governor
	done
	t_check "$1: rmmod utiltrack" "rmmod failed" rmmod utiltrack
	t_check "$1: rmmod vcpufreq" "rmmod failed" rmmod vcpufreq
}

# gov_stat POLICY COLUMN : a column of utiltrack's governor table
gov_stat() {
	col $UTD/governor policy "$1" "$2"
}

# The stopper (migration/N) has an RT priority but is not RT load: the
# kernel's avg_rt does not count it, and under rt_policy=max it must not
# ask for fmax. Moving a running task off a CPU runs that CPU's stopper.
test_stop_class() {
	safety_setup || { t_fail "stop class" "insmod"; return; }
	set_gov 1 utiltrack
	c=$(awk '$2 == "migration/1" { print $4 }' $UTD/tasks)
	t_check "migration/1 is of the stop class, not rt" "class '$c'" \
		test "$c" = stop
	taskset -c 1 sh -c 'while :; do :; done' &
	loop=$!
	sleep 0.5
	r0=$(gov_stat 1 rt_max)
	m0=$(ut_stat events_sched_migrate_task)
	i=0
	while [ $i -lt 20 ]; do
		taskset -p 1 $loop >/dev/null
		sleep 0.02
		taskset -p 2 $loop >/dev/null
		sleep 0.05
		i=$((i + 1))
	done
	r1=$(gov_stat 1 rt_max)
	m1=$(ut_stat events_sched_migrate_task)
	kill $loop
	wait $loop 2>/dev/null
	echo "stop class: $((m1 - m0)) migrations, rt_max $r0 -> $r1"
	t_range "the moves migrated the running task" "$((m1 - m0))" 40 100000
	t_check "stopper runs never force fmax (rt_max unchanged)" \
		"rt_max $r0 -> $r1" test "$r0" = "$r1"
	safety_teardown "stop class"
}

# An RT task runs on CPU1 when every tracker is disabled (the switch
# probe goes): nothing may keep saying so, or the policy stays at fmax.
test_rt_flag_cleared() {
	safety_setup || { t_fail "rt flag" "insmod"; return; }
	set_gov 1 utiltrack
	rtapp_json $J/fifo.json fifo SCHED_FIFO 3 "$(phase f 9000 10000 300)"
	rt-app $J/fifo.json >/dev/null 2>&1 &
	ra=$!
	sleep 1
	for t in pelt rt walt; do echo "disable $t" >$UTD/trackers; done
	wait $ra
	sleep 0.2
	r0=$(gov_stat 1 rt_max)
	n0=$(gov_stat 1 no_signal)
	taskset -c 1 sh -c 'i=0; while [ $i -lt 200 ]; do sleep 0.005; i=$((i + 1)); done'
	r1=$(gov_stat 1 rt_max)
	n1=$(gov_stat 1 no_signal)
	echo "rt flag: after the probe went, rt_max $r0 -> $r1, no_signal $n0 -> $n1"
	t_range "decisions still run without trackers (no_signal)" \
		"$((n1 - n0))" 1 100000000
	t_check "no RT fmax once the switch probe is gone" \
		"rt_max $r0 -> $r1" test "$r0" = "$r1"
	safety_teardown "rt flag"
}

# One policy for CPUs 0 and 1 (a cluster), for each signal: the cluster
# follows its busy CPU1 to fmax, and once CPU1's load stops (the task
# stopped, not killed: an exiting task takes its util off the CPU at
# once, a sleeping one leaves it to decay) nothing of the idle CPU1 (a
# last busy window, a util not decayed because no update came) may hold
# the cluster up: it must fall to fmin and stay there. The decisions are
# read from the trace of the second after the load, while the test shell
# waits without forking (a new task starts with half the idle CPU0's
# capacity as its util, which the cluster would rightly follow).
#
# How soon it must be down: a decision only comes with an event on a
# CPU of the policy (both idle here, so CPU0's timers and kworkers), so
# the check is that every decision from the time the signal has decayed
# on asks fmin, and that there is one. walt: the window holding the stop
# and one idle window (20 ms each) close, plus a tick: 60 ms. pelt: util
# decays with its 32 ms half-life, from 1024 to fmin's threshold (fmin /
# fmax / 1.25 of capacity: 205 with the default table) in ~75 ms; 150 ms
# leaves it at ~40.
cluster_settled_ms() {
	case $1 in
	walt) echo 60 ;;
	*) echo 150 ;;
	esac
}

# cluster_fall TRACE FMIN SETTLED_MS WAIT_S : "decisions first_fmin_ms
# after_settled above_after_settled util_max_after_settled" from the
# trace of the WAIT_S seconds after the load stopped. Decisions past them
# are the test shell's own, waking from its wait (one 27 ms after a 1 s
# wait asked 800 MHz for the shell's util 255 on the debug kernel).
cluster_fall() {
	awk -v fmin="$2" -v settled="$3" -v wait_ms="$(($4 * 1000))" '
		function ts(s) { sub(":", "", s); return s + 0 }
		function field(name,   i, kv) {
			for (i = 5; i <= NF; i++) {
				split($i, kv, "=")
				if (kv[1] == name)
					return kv[2] + 0
			}
			return -1
		}
		/load-stops/ { t0 = ts($4) }
		/utiltrack_freq:/ && t0 {
			ms = (ts($4) - t0) * 1000
			if (ms > wait_ms)
				next
			n++
			f = field("resolved")
			if (f == fmin && first == "")
				first = int(ms)
			if (ms < settled)
				next
			late++
			if (f > fmin)
				above++
			if (field("util") > u)
				u = field("util")
		}
		END {
			print n + 0, (first == "" ? -1 : first), late + 0,
			      above + 0, u + 0
		}' "$1"
}

test_idle_cpu_in_cluster() {
	safety_setup cluster_size=2 || { t_fail "idle cpu in cluster" "insmod"; return; }
	# the event on before the governor runs, off with the module: its
	# sites are patched while no CPU executes them (docs/safety.md)
	gi=$TRACE/instances/utiltrack-safety
	mkdir -p $gi
	echo 1 >$gi/events/utiltrack/utiltrack_freq/enable
	set_gov 0 utiltrack
	fmax=$(cat $CPUFREQ/policy0/cpuinfo_max_freq)
	fmin=$(cat $CPUFREQ/policy0/cpuinfo_min_freq)
	rm -f /tmp/cluster-fifo
	mkfifo /tmp/cluster-fifo
	for sig in pelt pelt_rt walt; do
		echo $sig >$SGT/signal
		echo 1 >$gi/tracing_on
		taskset -c 1 sh -c 'while :; do :; done' &
		loop=$!
		sleep 1
		f1=$(cat $CPUFREQ/policy0/scaling_cur_freq)
		echo >$gi/trace
		echo load-stops >$gi/trace_marker
		kill -STOP $loop
		# 2 s: with both CPUs idle decisions are rare (gaps of 500 ms
		# seen), and those after the wait are the shell's
		read -t 2 _x <>/tmp/cluster-fifo
		echo 0 >$gi/tracing_on
		kill -KILL $loop
		wait $loop 2>/dev/null
		cp $gi/trace /out/cluster-$sig.trace 2>/dev/null
		ms=$(cluster_settled_ms $sig)
		set -- $(cluster_fall $gi/trace $fmin $ms 2)
		echo "idle cpu in cluster, $sig: busy CPU1 -> $f1 kHz; in the 2 s after: $1 decisions, the first at fmin ($fmin) after $2 ms; from $ms ms on $3 decisions, $4 above fmin, util <= $5"
		t_check "cluster ($sig) follows its busy CPU to fmax" "at $f1" \
			test "$f1" = "$fmax"
		t_range "cluster ($sig): decisions from $ms ms after its busy CPU slept" \
			"$3" 1 100000
		t_check "cluster ($sig) at fmin in each of them" \
			"$4 above fmin" test "$4" = 0
	done
	echo pelt_rt >$SGT/signal
	rm -f /tmp/cluster-fifo
	safety_teardown "idle cpu in cluster"
	rmdir $gi 2>/dev/null
}

# A second thread that execs takes the thread group leader's pid
# (de_thread): the tasks table shows the task under its new pid, and
# nothing is left under its old tid once the old leader is freed.
test_exec_pid() {
	insmod $UT/utiltrack.ko || { t_fail "exec pid" "insmod"; return; }
	/utiltrack/files/helpers/execthread "$(which sleep)" 3 >/tmp/et.out &
	p=$!
	sleep 0.5
	tid=$(sed -n 's/^tid //p' /tmp/et.out)
	t_check "exec pid: the second thread is tracked under its tid" \
		"tid '$tid' not in tasks" grep -q "^$tid " $UTD/tasks
	sleep 1.5
	row=$(awk -v p=$p '$1 == p && $2 == "sleep"' $UTD/tasks)
	old=$(awk -v t="$tid" '$1 == t' $UTD/tasks)
	echo "exec pid: pid $p, thread $tid; after its exec: '$row', under the old tid: '$old'"
	t_check "exec pid: after the exec the task shows the leader's pid" \
		"no 'sleep' row with pid $p" test -n "$row"
	t_check "exec pid: nothing left under the old tid" "'$old'" test -z "$old"
	kill $p
	wait $p 2>/dev/null
	t_check "exec pid: rmmod utiltrack" "rmmod failed" rmmod utiltrack
}

test_stop_class
test_rt_flag_cleared
test_idle_cpu_in_cluster
test_exec_pid
