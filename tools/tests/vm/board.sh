# SPDX-License-Identifier: GPL-2.0
#
# board.sh - an arm64 big.LITTLE board of dts/ (issue 15), booted by
# run-all as "arm64:BOARD". What a device tree brings that x86 guests do
# not have: CPU capacities from capacity-dmips-mhz, one cpufreq policy per
# cluster with the tree's OPPs, and a kernel whose PELT is invariant (the
# cpufreq core sets arch_freq_scale at each transition), so that the
# trackers' invariant PELT can be held against the kernel's own, per task
# and per CPU, at several OPPs. CPU0 keeps the test shell; the loads run
# on CPU1, a LITTLE CPU of the first cluster.

t_plan 32

# The 25 % duty load: 4 ms every 16 ms, busy for wall-clock time
# (rt-app "runtime"), so its share of time is the same at every OPP.
B_RUN=4000
B_PERIOD=16000

# dt_u32 FILE : a one-cell device-tree property (big-endian) in decimal
dt_u32() {
	od -An -tu1 -N4 "$1" | awk '{ print ((($1 * 256) + $2) * 256 + $3) * 256 + $4 }'
}

# cpu_dmips CPU : its capacity-dmips-mhz, from its device-tree node
cpu_dmips() {
	dt_u32 /sys/devices/system/cpu/cpu"$1"/of_node/capacity-dmips-mhz
}

cpu_cap() {
	cat /sys/devices/system/cpu/cpu"$1"/cpu_capacity
}

# policy_of CPU : the number of CPU's cpufreq policy (policyN)
policy_of() {
	_p=$(readlink -f /sys/devices/system/cpu/cpu"$1"/cpufreq)
	echo "${_p##*/policy}"
}

# b_duty_json FILE CPU SECONDS : the 25 % duty load pinned to CPU
b_duty_json() {
	cat >"$1" <<JSON
{
	"global": { "calibration": 100, "default_policy": "SCHED_OTHER",
		    "logdir": "/tmp", "log_size": "disable", "duration": $3 },
	"tasks": { "duty25": { "cpus": [$2], "loop": -1, "runtime": $B_RUN,
			       "timer": { "ref": "tick", "period": $B_PERIOD } } }
}
JSON
}

NCPU=$(grep -c '^processor' /proc/cpuinfo)
# the raw capacities before cpufreq: capacity-dmips-mhz over the largest
test_boot_capacity() {
	bad="" max=0 i=0
	while [ $i -lt "$NCPU" ]; do
		d=$(cpu_dmips $i)
		[ "$d" -gt "$max" ] && max=$d
		i=$((i + 1))
	done
	i=0 caps=""
	while [ $i -lt "$NCPU" ]; do
		want=$(((1024 * $(cpu_dmips $i) + max / 2) / max))
		caps="$caps $(cpu_cap $i)"
		[ "$(cpu_cap $i)" -eq "$want" ] || bad="$bad cpu$i:$(cpu_cap $i)!=$want"
		i=$((i + 1))
	done
	t_check "cpu_capacity at boot is capacity-dmips-mhz normalised (${caps# })" \
		"${bad:-ok}" test -z "$bad"
	t_check "the board is asymmetric: CPU1 below the largest" \
		"cpu1 $(cpu_cap 1) of $max" test "$(cpu_cap 1)" -lt 1024
}

# one policy per cluster, its CPUs the cluster's (cpu-map)
test_policies() {
	bad="" n=0
	for p in $CPUFREQ/policy*; do
		n=$((n + 1))
		c=$(awk '{ print $1 }' $p/related_cpus)
		want=$(tr ',' ' ' </sys/devices/system/cpu/cpu$c/topology/cluster_cpus_list)
		got=$(cat $p/related_cpus)
		case $want in
		*-*) want=$(echo "$want" | awk -F- '{ for (i = $1; i <= $2; i++) printf "%s%d", (i > $1 ? " " : ""), i }') ;;
		esac
		[ "$(echo $got)" = "$(echo $want)" ] || bad="$bad ${p##*/}:'$got'!='$want'"
	done
	clusters=$(cat /sys/devices/system/cpu/cpu[0-9]*/topology/cluster_cpus_list | sort -u | wc -l)
	t_check "one policy per cluster ($n policies, $clusters clusters)" \
		"$n policies for $clusters clusters" test "$n" -eq "$clusters"
	t_check "each policy's related_cpus is its cluster" "${bad:-ok}" test -z "$bad"
}

# with the policies, capacity is capacity-dmips-mhz x cluster fmax,
# normalised to the largest product (arch_topology)
test_freq_capacity() {
	bad="" max=0 i=0
	while [ $i -lt "$NCPU" ]; do
		prod=$(($(cpu_dmips $i) * $(fmax_of "$(policy_of $i)") / 1000))
		[ "$prod" -gt "$max" ] && max=$prod
		i=$((i + 1))
	done
	i=0 caps=""
	while [ $i -lt "$NCPU" ]; do
		prod=$(($(cpu_dmips $i) * $(fmax_of "$(policy_of $i)") / 1000))
		want=$(((1024 * prod + max / 2) / max))
		caps="$caps $(cpu_cap $i)"
		d=$(($(cpu_cap $i) - want))
		[ "${d#-}" -le 1 ] || bad="$bad cpu$i:$(cpu_cap $i)!=$want"
		i=$((i + 1))
	done
	t_check "cpu_capacity with cpufreq is dmips x cluster fmax normalised (${caps# })" \
		"${bad:-ok}" test -z "$bad"
}

# b_run_ns TID : the thread's time on a CPU so far (ns), and the uptime
# (ns) it was read at
b_run_ns() {
	echo "$(awk '{ print $1 }' /proc/"$1"/schedstat) $(awk '{ printf "%.0f", $1 * 1e9 }' /proc/uptime)"
}

# b_thread PID : the thread rt-app PID runs its task in (its only other
# thread), found without a fork
b_thread() {
	for _t in /proc/"$1"/task/*; do
		[ "${_t##*/}" = "$1" ] || echo "${_t##*/}"
	done
}

# b_pair TID : |ours - kernel's| util of TID at its last switch-out
# (utiltrack's tasks row: pelt, kernel_pelt), when the read saw it asleep
# throughout: asleep before and after, and not switched in meanwhile (its
# schedstat count the same); nothing otherwise, since a running task's
# row pairs its switch-in with the last switch-out. One awk reads the
# files, so that they fit in a sleep of the 16 ms period, not a fork apart.
b_pair() {
	awk -v tid="$1" -v utd="$UTD/tasks" '
		function count(f, l, v) {
			getline l <f
			close(f)
			split(l, v, " ")
			return v[3]
		}
		BEGIN {
			ss = "/proc/" tid "/schedstat"
			getline st0 <("/proc/" tid "/stat")
			close("/proc/" tid "/stat")
			n0 = count(ss)
			while ((getline l <utd) > 0) {
				split(l, v, " ")
				if (v[1] == "pid")
					for (i = 1; i in v; i++) idx[v[i]] = i
				else if (v[1] == tid)
					d = v[idx["pelt"]] - v[idx["kernel_pelt"]]
			}
			close(utd)
			getline st <("/proc/" tid "/stat")
			n1 = count(ss)
			if (st0 ~ /\) S / && st ~ /\) S / && n0 == n1 && d != "")
				print d < 0 ? -d : d
		}'
}

# b_opps POLICY : fmin, a middle OPP and fmax of POLICY, in kHz
b_opps() {
	awk '{ print $1, $(int((NF + 1) / 2)), $NF }' \
		$CPUFREQ/policy"$1"/scaling_available_frequencies | tr ' ' '\n' | sort -n | tr '\n' ' '
}

# At three OPPs of CPU1's cluster: the kernel's CPU util under the 25 %
# load is its duty x capacity x f/fmax (its PELT is invariant; the duty
# measured from the thread's run time, which TCG's overheads take above
# 25 %), utiltrack's invariant pelt of CPU1 reads the same, and its
# per-task PELT matches p->se.avg.util_avg at every switch-out
# (pelt_validation, on because invariance=1 scales as this kernel does).
test_invariance() {
	pol=$(policy_of 1)
	set_gov "$pol" userspace
	cap=$(cpu_cap 1)
	fmax=$(fmax_of "$pol")
	for f in $(b_opps "$pol"); do
		set_speed "$pol" "$f"
		insmod $UT/utiltrack.ko invariance=1 trackers=pelt ||
			{ t_fail "invariance at $f kHz" "insmod"; continue; }
		t_check "pelt validation is on with invariance=1 on arm64" \
			"$(ut_stat pelt_validation)" test "$(ut_stat pelt_validation)" = on
		b_duty_json $J/duty25.json 1 14
		rt-app $J/duty25.json >/tmp/rtapp.log 2>&1 &
		ra=$!
		# PELT's 32 ms half-life: settled well within 1.5 s
		sleep 1.5
		tid=$(b_thread $ra)
		# shellcheck disable=SC2046
		set -- $(b_run_ns "$tid")
		: >/tmp/b_ours
		: >/tmp/b_kern
		: >/tmp/b_task
		_i=0
		while [ $_i -lt 24 ]; do
			# a file apart, alternating which is first (cfs_pair)
			first=ours
			[ $((_i % 2)) = 0 ] || first=kernel
			# shellcheck disable=SC2046
			set -- "$@" $(cfs_pair 1 pelt .util_avg $first)
			echo "$3" >>/tmp/b_ours
			echo "$4" >>/tmp/b_kern
			set -- "$1" "$2"
			sleep 0.1
			_i=$((_i + 1))
		done
		# shellcheck disable=SC2046
		set -- "$@" $(b_run_ns "$tid")
		# 12 asleep reads, of at most 80 tries (a third to a half
		# of the tries see it asleep throughout)
		_i=0
		while [ $_i -lt 80 ] && [ "$(wc -l </tmp/b_task)" -lt 12 ]; do
			b_pair "$tid" >>/tmp/b_task
			sleep 0.05
			_i=$((_i + 1))
		done
		# its duration is a bound; the samples are taken
		kill $ra
		wait $ra 2>/dev/null
		duty=$(calc "($3 - $1) / ($4 - $2)")
		want=$(calc "$duty * $cap * $f / $fmax")
		ku=$(mean_of /tmp/b_kern)
		ou=$(mean_of /tmp/b_ours)
		echo "board: cpu1 at $f kHz (cap $cap): duty $duty, kernel util $ku, utiltrack pelt $ou, duty x cap x f/fmax = $want"
		echo "board: duty thread $tid, |ours - kernel| at its switch-outs: $(tr '\n' ' ' </tmp/b_task)"
		grep pelt_validation $UTD/stats
		t_range "kernel's cpu1 util under a 25 % duty at $f kHz is duty x cap x f/fmax" \
			"$ku" "$(calc "$want * 0.85 - 4")" "$(calc "$want * 1.15 + 4")"
		# the mean of 24 pairs, each read a file apart and so at a
		# different phase of the load (ours projected to its read, the
		# kernel's as last updated): within 15 % + 5. Means of 12 pairs
		# at fmax were -18 to +30 of ~195 over six runs; a signal not
		# invariant, or scaled twice, is off by 40 % or more there.
		lim=$(calc "$ku * 0.15 + 5")
		t_range "utiltrack's invariant cpu1 pelt vs the kernel's at $f kHz (diff)" \
			"$(calc "$ou - $ku")" "-$lim" "$lim"
		# every task's switch-outs, the module's own comparison: both
		# count on a PELT clock that lags while the CPU is busy
		t_range "per-task pelt validated at $f kHz: samples" \
			"$(ut_stat pelt_validation_samples)" 50 100000000
		# the issue's bar, mean error within 1 % of 1024, over every
		# task's switch-outs: util_avg, and exactly from the sums
		t_range "per-task pelt validated at $f kHz: mean abs error, all tasks" \
			"$(ut_stat pelt_validation_mean_abs_err)" 0 10.24
		t_range "per-task pelt validated at $f kHz: mean abs error from the sums" \
			"$(ut_stat pelt_validation_sum_mean_abs_err)" 0 10.24
		# read from outside the module. The kernel's util_avg moves
		# only when a PELT period has passed since its last refresh
		# (often a tick in the run): up to one period's contribution
		# (< 22) behind its sums at a dequeue. At fmin a period is
		# 6 ms of the task clock, so that is often the case.
		t_range "duty thread's pelt vs its p->se.avg.util_avg at $f kHz: asleep reads" \
			"$(wc -l </tmp/b_task)" 6 12
		t_range "duty thread's pelt vs its p->se.avg.util_avg at $f kHz: mean abs error" \
			"$(mean_of /tmp/b_task)" 0 22
		ut_rmmod utiltrack
	done
	set_gov "$pol" performance
}

# A cluster policy under the governor follows its busiest CPU: CPU1 busy
# takes CPU0's and CPU1's cluster to fmax; once it stops, the cluster
# falls back to fmin (CPU0 only runs the shell). The shell waits and
# reads without forking: a new task's initial util (half the spare
# capacity of CPU0) would hold the cluster up.
test_cluster_governor() {
	pol=$(policy_of 1)
	insmod $UT/utiltrack.ko || { t_fail "cluster governor" "insmod"; return; }
	echo utiltrack >$CPUFREQ/policy"$pol"/scaling_governor
	# tunables per policy where the driver asks for them, else global
	gt=$CPUFREQ/policy$pol/utiltrack
	[ -d "$gt" ] || gt=$CPUFREQ/utiltrack
	echo pelt >$gt/signal
	sleep 1
	f0=$(cat $CPUFREQ/policy"$pol"/scaling_cur_freq)
	taskset -c 1 sh -c 'while :; do :; done' &
	loop=$!
	sleep 2
	fb=$(cat $CPUFREQ/policy"$pol"/scaling_cur_freq)
	fmin=$(fmin_of "$pol")
	rm -f /tmp/b-fifo
	mkfifo /tmp/b-fifo
	kill -STOP $loop
	# up to 3 s, in steps of 0.1 s
	_i=0
	while [ $_i -lt 30 ]; do
		read -t 0.1 _x <>/tmp/b-fifo
		read -r fi <$CPUFREQ/policy"$pol"/scaling_cur_freq
		[ "$fi" = "$fmin" ] && break
		_i=$((_i + 1))
	done
	kill -KILL $loop
	wait $loop 2>/dev/null
	rm -f /tmp/b-fifo
	echo "board: policy$pol ($(cat $CPUFREQ/policy"$pol"/related_cpus)) idle $f0, cpu1 busy $fb, then $fi kHz after $((_i + 1)) x 0.1 s"
	t_check "cluster at fmax while one of its CPUs is busy" "$fb kHz" \
		test "$fb" = "$(fmax_of "$pol")"
	t_check "cluster at fmin within 3 s of its busy CPU stopping" "$fi kHz" \
		test "$fi" = "$fmin"
	set_gov "$pol" performance
	ut_rmmod utiltrack
}

test_boot_capacity
if load_vcpufreq emulate=0; then
	t_ok "vcpufreq loads on the board's device tree"
	test_policies
	test_freq_capacity
	test_invariance
	test_cluster_governor
	rmmod vcpufreq
else
	t_fail "vcpufreq loads on the board's device tree" "insmod failed"
fi
