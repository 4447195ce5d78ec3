# SPDX-License-Identifier: GPL-2.0
#
# governor.sh - the utiltrack cpufreq governor (issue 4). Sourced by the
# guest after guest-lib.sh (rt-app helpers) and lib.sh. vcpufreq with
# throughput emulation on; workloads on CPU1, the shell on CPU0.

t_plan 60

GT=$CPUFREQ/utiltrack	# x86 has no governor per policy: global tunables
GI=/sys/kernel/tracing/instances/utiltrack-gov
GOV_TUNABLES="signal rate_limit_us headroom_pct rt_policy iowait_boost runnable_boost hispeed_load hispeed_freq busy_hold preset"

# gov_load PARAM... : insmod utiltrack and switch its decision and shadow
# events on in $GI, CPU1's only, before any policy runs the governor: the event's
# call sites are patched while no CPU executes them (docs/safety.md,
# "Static keys under QEMU TCG"). The tests gate recording with
# $GI/tracing_on and never switch the event off; the unload removes it.
gov_load() {
	insmod $UT/utiltrack.ko "$@" || return
	mkdir -p $GI
	for _e in utiltrack_freq utiltrack_shadow; do
		echo 'cpu == 1' >$GI/events/utiltrack/$_e/filter
		echo 1 >$GI/events/utiltrack/$_e/enable
	done
}

gov_setup() {
	load_vcpufreq "$@" || return 1
	gov_load invariance=0 || return 1
	echo 0 >$GI/tracing_on
	echo 'cpu_id == 1' >$GI/events/power/cpu_frequency/filter
	echo 1 >$GI/events/power/cpu_frequency/enable
}

gov_teardown() {
	set_gov 0 performance
	set_gov 1 performance
	ut_rmmod utiltrack
	ut_rmmod vcpufreq
}

# The slow path's worker: schedutil's special SCHED_DEADLINE (policy 6)
# where the kernel exports sched_setattr_nocheck() (5.14 on, or a vendor
# backport), else SCHED_NORMAL (0) at nice -20, said in the log
# (compat/sched.h)
gov_worker_class() {
	_w=$(grep -lx utiltrack_gov:1 /proc/[0-9]*/comm 2>/dev/null | head -n 1)
	_w=${_w%/comm}
	set -- $(awk '{ print $41, $19 }' $_w/stat 2>/dev/null)
	case $(grep -c ' __ksymtab_sched_setattr_nocheck$' /proc/kallsyms) in
	0)
		_said=$(dmesg | grep -c 'governor workers run SCHED_NORMAL at nice -20')
		t_check "utiltrack_gov:1 runs SCHED_NORMAL at nice -20, said in the log" \
			"policy '$1' nice '$2', said $_said times" \
			test "$1 $2 $((_said > 0))" = "0 -20 1" ;;
	*)
		t_check "utiltrack_gov:1 is schedutil's SCHED_DEADLINE worker" \
			"policy '$1'" test "$1" = 6 ;;
	esac
}

test_gov_select() {
	t_check "utiltrack listed in scaling_available_governors" "missing" \
		grep -qw utiltrack $CPUFREQ/policy1/scaling_available_governors
	set_gov 0 utiltrack
	set_gov 1 utiltrack
	t_check "utiltrack selectable through scaling_governor" "not selected" \
		grep -qx utiltrack $CPUFREQ/policy1/scaling_governor
	ok=1
	for f in $GOV_TUNABLES; do
		[ -r $GT/$f ] || ok=0
	done
	t_check "tunables $GOV_TUNABLES" \
		"missing under $GT" test $ok = 1
	echo "governor defaults:$(for f in $GOV_TUNABLES; do printf ' %s=%s' $f "$(cat $GT/$f)"; done)"
	# schedutil boosts util with the runnable average since 6.5
	case $(uname -r) in
	[1-5].* | 6.[0-4].*) rb=0 ;;
	*) rb=1 ;;
	esac
	t_check "runnable_boost defaults to the kernel's schedutil ($rb)" \
		"reads $(cat $GT/runnable_boost)" test "$(cat $GT/runnable_boost)" = $rb
	t_check "tunables are root-only writable" "mode $(stat -c %a $GT/signal)" \
		test "$(stat -c %a $GT/signal)" = 644
	gov_worker_class
	f=$(busy_freq 1 1.5)
	# the worker has served the busy CPU's decisions by now: like
	# schedutil's, it is in no class's signal, whatever its policy
	# (by pid: a slot keeps the comm its task forked with, kthreadd's)
	wpid=$(grep -lx utiltrack_gov:1 /proc/[0-9]*/comm 2>/dev/null | head -n 1 | cut -d/ -f3)
	wrow=$(awk -v p="${wpid:-none}" '$1 == p' $UTD/tasks)
	echo "the governor's worker in the tasks table: ${wrow:-no row}"
	t_check "utiltrack_gov:1 is class gov in the tasks table (in no signal)" \
		"row '$wrow'" test "$(echo "$wrow" | awk '{ print $4 }')" = gov
	sleep 1
	idle=$(cat $CPUFREQ/policy1/scaling_cur_freq)
	echo "utiltrack governor: busy CPU1 at $f kHz, idle at $idle kHz"
	cat $UTD/governor
	t_check "a busy CPU goes to fmax" "at $f" test "$f" = "$(fmax_of 1)"
	t_check "an idle CPU comes down" "at $idle" test "$idle" -lt "$(fmax_of 1)"
	t_range "debugfs governor: decisions on policy1" \
		"$(col $UTD/governor policy 1 decisions)" 1 100000000
	t_check "rmmod utiltrack refused while the governor is in use" \
		"rmmod succeeded or failed otherwise" \
		expect_err "Resource temporarily unavailable" rmmod utiltrack
}

# every tunable: bad strings fail with EINVAL and leave the value alone
test_gov_bad_input() {
	long=$(head -c 4096 /dev/zero | tr '\0' 7)
	nl=$(printf '\nx')
	nl=${nl%x}	# what `echo "" >file` writes
	ok=1
	for f in $GOV_TUNABLES; do
		before=$(cat $GT/$f)
		for bad in "$nl" "-1" "99999999999999999999" "abc" "1x" "$long" \
			   "12 34"; do
			if ! expect_errno "Invalid argument" $GT/$f "$bad"; then
				ok=0
				echo "$f: '$(printf %.20s "$bad")' not refused with EINVAL"
			fi
		done
		[ "$(cat $GT/$f)" = "$before" ] || { ok=0; echo "$f changed"; }
	done
	for bad in "headroom_pct 99" "headroom_pct 201" "iowait_boost 2" \
		   "runnable_boost 2" "busy_hold 2" \
		   "rt_policy maximum" "signal nosuch" "rate_limit_us 10000001" \
		   "hispeed_load 101" "hispeed_freq 4294967296"; do
		set -- $bad
		before=$(cat $GT/$1)
		if ! expect_errno "Invalid argument" $GT/$1 "$2" ||
		   [ "$(cat $GT/$1)" != "$before" ]; then
			ok=0
			echo "$1: '$2' accepted or changed the value"
		fi
	done
	t_check "every tunable refuses bad strings with EINVAL, value unchanged" \
		"see console" test $ok = 1
	ok=1
	rb=$(cat $GT/runnable_boost)
	for good in "signal walt" "signal pelt" "signal rt" "signal pelt_rt" \
		    "rate_limit_us 2000" "headroom_pct 150" "rt_policy util" \
		    "iowait_boost 0" "rt_policy max" "iowait_boost 1" \
		    "headroom_pct 125" "hispeed_load 90" "hispeed_freq 1200000" \
		    "hispeed_load 0" "hispeed_freq 0" "runnable_boost 0" \
		    "runnable_boost 1" "runnable_boost $rb" "busy_hold 0" \
		    "busy_hold 1"; do
		set -- $good
		echo "$2" >$GT/$1 && [ "$(cat $GT/$1)" = "$2" ] || {
			ok=0; echo "$1 did not take $2"; }
	done
	t_check "every tunable takes good values" "see console" test $ok = 1
}

# gov_settings : every tunable but the rate limit (the platform's, which
# no preset sets) and the preset itself, as one line
gov_settings() {
	for _f in $GOV_TUNABLES; do
		case $_f in rate_limit_us | preset) ;; *) printf '%s=%s ' $_f "$(cat $GT/$_f)" ;; esac
	done
}

# presets (docs/governor.md): each write sets the signal and every
# tunable it names; the read brackets the preset in force, and none once
# a tunable differs. Runs after test_gov_bad_input, which leaves the
# defaults.
test_gov_preset() {
	# schedutil boosts util with the runnable average since 6.5
	case $(uname -r) in
	[1-5].* | 6.[0-4].*) rb=0 ;;
	*) rb=1 ;;
	esac
	echo "presets: $(cat $GT/preset)"
	t_check "preset: the defaults are the preset in force" "reads '$(cat $GT/preset)'" \
		grep -q '\[default\]' $GT/preset
	# every tunable away from every preset's value, so a store that
	# forgot one is seen; the rate limit is no preset's and must stay
	rl=$(cat $GT/rate_limit_us)
	for _kv in headroom_pct=150 hispeed_load=1 rt_policy=util iowait_boost=0 \
		   runnable_boost=$((1 - rb)) hispeed_freq=1 busy_hold=0 signal=walt; do
		echo "${_kv#*=}" >$GT/${_kv%%=*}
	done
	echo schedutil >$GT/preset
	want="signal=util_est_rt headroom_pct=125 rt_policy=max iowait_boost=1 runnable_boost=$rb hispeed_load=0 hispeed_freq=0 busy_hold=1 "
	t_check "preset: schedutil sets util_est_rt and schedutil's tunables" \
		"reads $(gov_settings), preset '$(cat $GT/preset)'" \
		test "$(gov_settings)" = "$want" -a "$(grep -o '\[[a-z_]*\]' $GT/preset)" = "[schedutil]"
	t_check "preset: the rate limit, no preset's, unchanged" "$rl -> $(cat $GT/rate_limit_us)" \
		test "$(cat $GT/rate_limit_us)" = "$rl"
	before=$(gov_settings)
	ok=0
	expect_errno "Invalid argument" $GT/preset nosuch &&
		[ "$(gov_settings)" = "$before" ] && ok=1
	t_check "preset: an unknown name is EINVAL and changes nothing" \
		"accepted, or now $(gov_settings)" test $ok = 1
	echo efficient >$GT/preset
	want="signal=util_est_rt headroom_pct=125 rt_policy=max iowait_boost=1 runnable_boost=$rb hispeed_load=40 hispeed_freq=$(($(fmax_of 1) / 100 * 60)) busy_hold=1 "
	t_check "preset: efficient sets util_est_rt, hispeed_load 40 and 60 % of fmax" \
		"reads $(gov_settings), preset '$(cat $GT/preset)'" \
		test "$(gov_settings)" = "$want" -a "$(grep -o '\[[a-z_]*\]' $GT/preset)" = "[efficient]"
	echo 100 >$GT/headroom_pct
	t_check "preset: none in force once a tunable differs" "reads '$(cat $GT/preset)'" \
		test "$(grep -c '\[' $GT/preset)" = 0
	echo default >$GT/preset
}

# gov_step GOVERNOR SIGNAL RATE_LIMIT_US [HISPEED_LOAD] : one 100 %
# busy step on an idle CPU1, printed as "REACH BELOW DECISIONS": ms from
# the step to the first fmax request (cpu_frequency event), to the last
# utiltrack decision that asked for less than fmax (0 if none), and the
# number of utiltrack decisions after the step; SIGNAL "-" for
# schedutil. REACH is "-" when fmax was never requested. A step must
# start below fmax (from fmax there is no first fmax request): one whose
# idle phase left the policy at fmax is made again, up to 3 times, and
# prints "- - -" if none did.
gov_step() {
	set_gov 1 "$1"
	if [ "$1" = schedutil ]; then
		echo "$3" >$CPUFREQ/schedutil/rate_limit_us
	else
		echo "$2" >$GT/signal
		echo "$3" >$GT/rate_limit_us
		echo "${4:-0}" >$GT/hispeed_load
	fi
	_fmax=$(fmax_of 1)
	_try=1
	while ! gov_step_once "$1" $_fmax; do
		t_say "step ($1 $2 hispeed ${4:-0}): CPU1's policy at fmax when the step began (try $_try)" >&2
		tail -n 5 $GI/trace >&2
		_try=$((_try + 1))
		[ $_try -le 3 ] || { echo "- - -"; return; }
	done
}

# gov_step_once GOVERNOR FMAX : gov_step's step; false, printing
# nothing, if the policy was at FMAX when the step began: still there
# after the idle phase, or sent there between that phase's last read and
# the step's mark (a kworker's burst on CPU1), when the step would have
# no rise to time. A step that never reaches FMAX prints "-" and, to the
# console, the frequency changes the trace holds.
gov_step_once() {
	rm -f /tmp/go
	mkfifo /tmp/go
	# The task wakes for each line it reads, runs a moment and blocks
	# again, then marks the step at "go" and spins. The 24 wakeups over
	# 2.4 s let CPU1's util decay and give the governor decisions that
	# bring it to fmin; they also wear down util_est, the util schedutil
	# remembers from the task's dequeues (high after its fork), so both
	# governors start from the same idle history. No forks on CPU1 here:
	# a new task's initial util would raise it.
	taskset -c 1 sh -c "while read x; do [ \"\$x\" = go ] && break; done </tmp/go
		echo step >$GI/trace_marker; while :; do :; done" &
	spin=$!
	echo >$GI/trace
	{
		# at least 24 wakeups, more (up to 3 s) until CPU1's policy is
		# below fmax
		i=0
		while [ $i -lt 24 ] || { [ $i -lt 54 ] &&
			[ "$(cat $CPUFREQ/policy1/scaling_cur_freq)" -ge $2 ]; }; do
			echo idle
			sleep 0.1
			i=$((i + 1))
		done
		cat $CPUFREQ/policy1/scaling_cur_freq >/tmp/st.from
		echo 1 >$GI/tracing_on
		echo go
	} >/tmp/go
	# until the policy reaches fmax (up to 3 s), then a little more
	i=0
	while [ $i -lt 30 ] && [ "$(cat $CPUFREQ/policy1/scaling_cur_freq)" -lt $2 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	sleep 0.1
	# decisions after this one see the load ending
	echo end >$GI/trace_marker
	kill $spin
	wait $spin 2>/dev/null
	echo 0 >$GI/tracing_on
	[ "$(cat /tmp/st.from)" -lt $2 ] || return 1
	_r=$(awk -v fmax=$2 '
		function ts(s) { sub(":", "", s); return s + 0 }
		/cpu_frequency:/ && !t0 { pre = $0 ~ "state=" fmax " "; next }
		/tracing_mark_write: step/ { t0 = ts($4); if (pre) { at_fmax = 1; exit } next }
		!t0 { next }
		/tracing_mark_write: end/ { exit }
		/cpu_frequency:/ && $0 ~ "state=" fmax " " && reach == "" {
			reach = sprintf("%.1f", (ts($4) - t0) * 1000)
		}
		/utiltrack_freq:/ {
			n++
			split($0, r, "resolved=")
			if (r[2] + 0 < fmax)
				below = (ts($4) - t0) * 1000
		}
		END {
			if (at_fmax)
				print "at-fmax"
			else
				printf "%s %.1f %d\n", (reach == "" ? "-" : reach), below, n
		}' $GI/trace)
	[ "$_r" != at-fmax ] || return 1
	if [ "${_r%% *}" = - ]; then
		t_say "step ($1): no request for fmax ($2) between the step's marks; the trace's frequency changes:" >&2
		grep -E 'tracing_mark_write|cpu_frequency: .*cpu_id=1' $GI/trace | tail -n 20 >&2
	fi
	echo "$_r"
}

# Run on the fast path (vcpufreq fast_switch=1): on the slow path
# schedutil's own worker, a DL task that the emulation slows down like
# any other at fmin (~2 ms per change there), feeds schedutil's dl util
# while it climbs; utiltrack's pelt is CFS only. That made schedutil
# ~10 % faster on 6.12 (5-run medians 0.94-1.19 of it); without a worker
# both governors see the same load and decide at the same hook calls.
# gov_step_pairs N WALT_REPS RATE_LIMIT_US : N interleaved schedutil /
# signal=pelt steps appended to /tmp/st.su and /tmp/st.pe, the first
# WALT_REPS of them followed by a walt and a walt + hispeed step
gov_step_pairs() {
	_n=0
	while [ $_n -lt $1 ]; do
		_n=$((_n + 1))
		gov_step schedutil - $3 >>/tmp/st.su
		gov_step utiltrack pelt $3 >>/tmp/st.pe
		[ $_n -le $2 ] || continue
		gov_step utiltrack walt $3 >>/tmp/st.wa
		gov_step utiltrack walt $3 90 >>/tmp/st.wh
	done
}

# pe_su_ratio : signal=pelt's median time to fmax over schedutil's
pe_su_ratio() {
	cut -d' ' -f1 /tmp/st.su >/tmp/st.su.reach
	cut -d' ' -f1 /tmp/st.pe >/tmp/st.pe.reach
	calc "$(median_of /tmp/st.pe.reach || echo 0) / ($(median_of /tmp/st.su.reach || echo 0) + 0.0001)"
}

test_gov_step() {
	echo max >$GT/rt_policy
	# the rate limit both default to, the one the core derives from the
	# platform's transition latency (10 ms on 6.1, 150 us on 6.12)
	set_gov 1 schedutil
	rl=$(cat $CPUFREQ/schedutil/rate_limit_us)
	: >/tmp/st.su; : >/tmp/st.pe; : >/tmp/st.wa; : >/tmp/st.wh
	# Interleaved, so drift hits all alike. Schedutil and pelt, which
	# are compared with each other, 25 times where timing is asserted:
	# single steps scatter by +-30 % under TCG (a kworker waking on
	# CPU1 in the step raises the runnable boost), and resampling 24
	# steps of each (6.12, pooled ratio 1.005) puts a 9-step median
	# ratio outside 10 % 15 % of the time, a 15-step one 7 %.
	pairs=25
	[ $UT_DEBUG_KERNEL = 0 ] || pairs=2
	gov_step_pairs $pairs $UT_NREPS $rl
	# A first batch outside 10 % is followed by a second one and the
	# verdict is on all 50 pairs: a chance excursion of the first batch
	# washes out, a real difference stays (and each batch's ratio is
	# printed, so a log tells the two apart).
	r1=$(pe_su_ratio)
	if [ $UT_DEBUG_KERNEL = 0 ] &&
	   awk -v r="$r1" 'BEGIN { exit !(r > 0 && (r < 0.9 || r > 1.1)) }'; then
		t_say "step: pelt/schedutil ratio $r1 after $pairs pairs; $pairs more"
		cp /tmp/st.su /tmp/st.su.1; cp /tmp/st.pe /tmp/st.pe.1
		: >/tmp/st.su; : >/tmp/st.pe
		gov_step_pairs $pairs 0 $rl
		r2=$(pe_su_ratio)
		t_say "step: pelt/schedutil ratio of the second batch $r2"
		cat /tmp/st.su >>/tmp/st.su.1; cat /tmp/st.pe >>/tmp/st.pe.1
		mv /tmp/st.su.1 /tmp/st.su; mv /tmp/st.pe.1 /tmp/st.pe
		pairs="$pairs+$pairs (batch ratios $r1, $r2)"
	fi
	echo 0 >$GT/hispeed_load
	for _s in su pe wa wh; do
		cut -d' ' -f1 /tmp/st.$_s >/tmp/st.$_s.reach
		t_check "step: every step of series $_s reached fmax" \
			"$(grep -vc '^[0-9]' /tmp/st.$_s) of $(wc -l </tmp/st.$_s) missing" \
			measured /tmp/st.$_s.reach
	done
	# the hispeed series' last decision below fmax; every step must
	# have had a decision after it
	awk '{ print ($3 > 0 ? $2 : "none") }' /tmp/st.wh >/tmp/st.wh.below
	su=$(median_of /tmp/st.su.reach) pe=$(median_of /tmp/st.pe.reach)
	wa=$(median_of /tmp/st.wa.reach) wh=$(median_of /tmp/st.wh.below)
	echo "step idle -> 100 % on CPU1, ms to the first fmax request (fast switch; median; rate limit $rl us; runnable_boost $(cat $GT/runnable_boost)):"
	echo "  schedutil                      $(echo $(cat /tmp/st.su.reach)); $su"
	echo "  utiltrack signal=pelt          $(echo $(cat /tmp/st.pe.reach)); $pe"
	echo "  utiltrack signal=walt          $(echo $(cat /tmp/st.wa.reach)); $wa"
	echo "  utiltrack signal=walt hispeed  $(echo $(cat /tmp/st.wh.reach)); last decision below fmax $(echo $(cat /tmp/st.wh.below)); $wh"
	t_perf_range "step: schedutil reaches fmax (ms)" "${su:--1}" 1 1000
	# Without the jump, schedutil's mapping raises a saturated CPU by at
	# most 1.25x per decision whatever the signal: 5 decisions from fmin
	# to fmax after the first full window (6.1, 10 ms apart: 55-78 ms).
	t_perf_range "step: signal=walt, schedutil's mapping, reaches fmax (ms)" \
		"${wa:--1}" 1 200
	# With Android's hispeed jump (hispeed_load=90, to fmax), WALT asks
	# for fmax within two 20 ms windows of the step, as issue 4 asks:
	# every decision once the first full window after it has closed
	# reads 100 % (a read projects the window to its own time). When the
	# request then takes effect is up to the scheduler's hook and
	# utiltrack's tick, which TCG delays by several ms (55 ms once), so
	# the check is on the decisions: the last one below fmax, no later
	# than 2 windows after the step (1 ms for the marker's timestamp).
	t_perf_range "step: signal=walt with hispeed_load=90, last request below fmax within 2 windows (ms)" \
		"${wh:--1}" 0 41
	# Within 10 %, as issue 4 asks. 6.12's schedutil boosts util with
	# the runnable average (runnable_boost follows it) and asks 1.25 x
	# cur x 1.25 x util without invariance, so one tick after util
	# crosses ~655 it climbs an OPP per decision; 6.1 asks cur x 1.25.
	t_perf_range "step: signal=pelt vs schedutil, medians ${pe:--} / ${su:--} ms over $pairs pairs (ratio)" \
		"$(calc "${pe:-0} / (${su:-0} + 0.0001)")" 0.9 1.1
	echo pelt_rt >$GT/signal
}

# the rt-rq seed experiment: a periodic SCHED_FIFO task (1 ms / 10 ms)
# plus a periodic CFS task (3 ms / 10 ms), both rt-app on CPU1, for 5 s:
# the transitions it costs under rt_policy=max vs util. Then sysbench
# (--rate=100, 5 s) next to the same FIFO task: what each costs the CFS
# side in throughput and latency.
gov_rt_run() {
	echo "$1" >$GT/rt_policy
	cat >$J/mix.json <<JSON
{ "global": { "calibration": 100, "logdir": "/tmp", "log_size": "disable", "duration": 5 },
  "tasks": {
    "cfs": { "policy": "SCHED_OTHER", "cpus": [1],
	     "phases": { "p": { "loop": 1000, "runtime": 3000, "timer": { "ref": "a", "period": 10000 } } } },
    "fifo": { "policy": "SCHED_FIFO", "priority": 50, "cpus": [1],
	      "phases": { "p": { "loop": 1000, "runtime": 1000, "timer": { "ref": "b", "period": 10000 } } } } } }
JSON
	t0=$(cat $CPUFREQ/policy1/stats/total_trans)
	rt-app $J/mix.json >/dev/null 2>&1
	t1=$(cat $CPUFREQ/policy1/stats/total_trans)
	if [ "${2:-}" = transitions ]; then
		echo "$((t1 - t0))"
		return
	fi
	rtapp_json $J/fifo.json fifo SCHED_FIFO 6 "$(phase f 1000 10000 1000)"
	rt-app $J/fifo.json >/dev/null 2>&1 &
	ra=$!
	sleep 0.5
	ev=$(taskset -c 1 sysbench cpu --cpu-max-prime=5000 --threads=1 \
		--time=5 --rate=100 run 2>/dev/null |
		awk '/total number of events/ { e = $5 }
		     /95th percentile/ { p = $3 } END { print e, p }')
	wait $ra
	echo "$((t1 - t0)) $ev"
}

# A running CFS task that makes itself SCHED_FIFO (rt-app does, at the
# start of an RT thread) is RT from the enqueue that follows, where the
# scheduler's hook runs the governor: under rt_policy=max that decision
# asks fmax, as schedutil's counts the CPU at full capacity at the same
# hook. No switch happens in between, so the switch probe's rt_running
# cannot see it; without the check of the current task the first fmax
# request waited for the task's next switch. From an idle CPU (300 ms
# asleep), 2 ms as CFS, then 30 ms as FIFO without sleeping: the time
# from the change to the first fmax request. No rate limit, so the
# hook's decision is the one measured.
test_gov_self_fifo() {
	set_gov 1 utiltrack
	echo pelt_rt >$GT/signal
	rl=$(cat $GT/rate_limit_us)
	echo 0 >$GT/rate_limit_us
	echo >$GI/trace
	echo 1 >$GI/tracing_on
	/utiltrack/files/helpers/selffifo 1 300 2 30 $GI/trace_marker
	echo 0 >$GI/tracing_on
	echo $rl >$GT/rate_limit_us
	r=$(awk -v fmax="$(fmax_of 1)" '
		function ts(s) { sub(":", "", s); return s + 0 }
		/selffifo: fifo/ { t0 = ts($4); next }
		/selffifo: done/ { exit }
		t0 && /utiltrack_freq:/ && reach == "" {
			split($0, r, "resolved=")
			if (r[2] + 0 == fmax)
				reach = sprintf("%.2f", (ts($4) - t0) * 1000)
		}
		END { print reach == "" ? "-" : reach }' $GI/trace)
	echo "a task making itself FIFO on CPU1: first fmax request $r ms after the change"
	t_check "self-made FIFO task: fmax asked before its first switch" 		"no fmax request in the 30 ms it ran FIFO" test "$r" != -
	t_perf_range "self-made FIFO task: fmax asked at the change (ms)" "${r:--1}" 0 5
}

# (frequency-invariant trackers, as on the arm64 boards of the seed
# thread; the rate limit is the platform's default, as schedutil's)
test_gov_rt_policy() {
	set_gov 0 performance
	set_gov 1 performance
	ut_rmmod utiltrack
	gov_load invariance=1
	set_gov 1 utiltrack
	echo pelt_rt >$GT/signal
	# The series predates runnable boosting (6.5), which adds the CFS
	# task's wait behind the FIFO one on top of the rt signal and
	# costs transitions either way (2.1x, not >= 5x, seen on 6.12):
	# off, so that rt_policy is the only difference.
	rb=$(cat $GT/runnable_boost)
	echo 0 >$GT/runnable_boost
	# The busy hold keeps fmax from an RT run through the CFS one after
	# it: off too, for the same reason.
	echo 0 >$GT/busy_hold
	# In ABBA order (max, util, util, max), the transitions of the two
	# runs of each policy summed. max asks for fmax at every FIFO run,
	# so it moves twice a period unless already there; util forces
	# nothing, but its count depends on where the load's util sits
	# against an OPP boundary, which TCG's speed moves: on 5.10 a 5 s
	# run of util read 39 to 198 transitions, max 381 to 390, so the
	# pairs' ratio spread from 2.1x to 14.4x (6.1 and 6.12: 5.8x to
	# 34x). The check is that util is clearly the fewer (1.5x); a
	# policy that ignored rt_policy would read ~1x.
	set -- $(gov_rt_run max)
	mt=$1 me=$2 mp=$3
	set -- $(gov_rt_run util)
	ut=$1 ue=$2 up=$3
	ut2=$(gov_rt_run util transitions)
	mt2=$(gov_rt_run max transitions)
	echo "rt-rq experiment on CPU1, fast switch, signal=pelt_rt (invariant), runnable_boost=0, rate_limit_us=$(cat $GT/rate_limit_us):"
	echo "  rt_policy=max : total_trans $mt, $mt2 (FIFO 1/10 ms + CFS 3/10 ms, 5 s each); sysbench next to the FIFO task: events $me, p95 ${mp} ms"
	echo "  rt_policy=util: total_trans $ut, $ut2 (FIFO 1/10 ms + CFS 3/10 ms, 5 s each); sysbench next to the FIFO task: events $ue, p95 ${up} ms"
	t_range "rt_policy=max transitions (the fewer of 2 runs)" \
		"$((mt < mt2 ? mt : mt2))" 1 100000000
	# the CFS share's util follows run times that KASAN stretches and
	# scatters, so the debug kernel's count says little (2.98x seen)
	t_perf_range "rt_policy=util cuts transitions >= 1.5x (max/util, 2 runs each)" \
		"$(calc "($mt + $mt2) / ($ut + $ut2 + 1)")" 1.5 100000000
	echo 1 >$GT/busy_hold
	echo $rb >$GT/runnable_boost
	set_gov 1 performance
	ut_rmmod utiltrack
	gov_load invariance=0
}

# gov_trace_map_load : run $J/map.json with the governor's decisions
# traced into $GI (beside the cpu_frequency events gov_setup enabled)
gov_trace_map_load() {
	echo >$GI/trace
	echo 1 >$GI/tracing_on
	rt-app $J/map.json >/tmp/rtapp.log 2>&1
	echo 0 >$GI/tracing_on
}

# Every decision's request is the core's mapping of its util (issue 17),
# checked by the freqmap helper, which writes the mapping out itself: a load
# on CPU1 that alternates 200 ms at 90 % and 200 ms at 10 % (so util and
# frequency keep moving), rt_policy=util and no hispeed jump, so nothing
# but the mapping stands between util and the request; at headroom 100,
# 125 and 200. The mapping is plain up to 6.7 and capped at capacity
# since 6.8, as the kernel's schedutil; its reference, for this
# non-invariant signal, is the current frequency (an OPP), times 1.25
# since 6.8, and x86 capacity is 1024.
test_gov_mapping() {
	case $(uname -r) in
	[1-5].* | 6.[0-7].*) variant=plain ;;
	*) variant=capped ;;
	esac
	opps=$(cat $CPUFREQ/policy1/scaling_available_frequencies)
	set_gov 1 utiltrack
	rtp=$(cat $GT/rt_policy) hsl=$(cat $GT/hispeed_load) hr=$(cat $GT/headroom_pct)
	echo util >$GT/rt_policy
	echo 0 >$GT/hispeed_load
	rtapp_json $J/map.json wmap SCHED_OTHER 2 \
		"$(phase hi 9000 10000 20), $(phase lo 1000 10000 20)"
	# the last pass adds hispeed_load=50 with a middle OPP for hispeed_freq
	hsf=$(cat $GT/hispeed_freq)
	mid=$(echo $opps | awk '{ print $(int((NF + 1) / 2)) }')
	for h in 100 125 200 125:50; do
		hl=0
		case $h in *:*) hl=${h#*:} h=${h%:*} ;; esac
		echo $h >$GT/headroom_pct
		echo $hl >$GT/hispeed_load
		echo $mid >$GT/hispeed_freq
		gov_trace_map_load
		rm -f /tmp/map.bad
		awk -v opps="$opps" -v v68=$([ $variant = capped ] && echo 1 || echo 0) '
			BEGIN {
				n = split(opps, o, " ")
				for (i = 1; i <= n; i++) ok[v68 ? o[i] + int(o[i] / 4) : o[i]] = 1
			}
			/utiltrack_freq:/ {
				for (i = 5; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
				if (v["cpu"] != 1) next
				if (!(v["ref"] in ok) || v["cap"] != 1024)
					printf "bad ref/cap: %s\n", $0 >"/tmp/map.bad"
				print v["util"], v["ref"], v["cap"], v["requested"]
			}' $GI/trace >/tmp/map.$h.$hl
		if [ $hl = 0 ]; then
			out=$(/utiltrack/files/helpers/freqmap $h $variant </tmp/map.$h.$hl)
		else
			out=$(/utiltrack/files/helpers/freqmap $h $variant $hl $mid </tmp/map.$h.$hl)
		fi
		rc=$?
		if [ -s /tmp/map.bad ]; then
			out="$out; $(wc -l </tmp/map.bad) events with a ref not from an OPP or cap != 1024: $(head -n 1 /tmp/map.bad)"
			rc=1
			rm -f /tmp/map.bad
		fi
		echo "mapping at headroom_pct=$h hispeed_load=$hl hispeed_freq=$mid ($variant): $out"
		n=$(echo "$out" | sed -n 's/^freqmap: \([0-9]*\) checked.*/\1/p')
		if [ $hl = 0 ]; then
			t_check "every request is the $variant map of its util, headroom_pct=$h (>= 20 decisions)" \
				"$(echo "$out" | tr '\n' ';')" test "$rc" = 0 -a "${n:-0}" -ge 20
		else
			r=$(echo "$out" | sed -n 's/^freqmap: .* \([0-9]*\) raised.*/\1/p')
			t_check "hispeed_load=$hl: from $hl % of capacity at least hispeed_freq, never below it (>= 20 decisions, >= 3 raised)" \
				"$(echo "$out" | tr '\n' ';')" test "$rc" = 0 -a "${n:-0}" -ge 20 -a "${r:-0}" -ge 3
		fi
	done
	echo $hsf >$GT/hispeed_freq
	test_gov_rate_limit
	echo $hr >$GT/headroom_pct
	echo $hsl >$GT/hispeed_load
	echo $rtp >$GT/rt_policy
	set_gov 1 performance
}

# rate_limit_us bounds how often the request changes, as schedutil's: a
# decision is only made rate_limit_us after the last change, in the
# clock the scheduler hands the hook (the event's time field; the trace
# timestamp is taken later, by a varying lag that reached 1.4 ms under
# TCG). 1 ms of slack on 20 ms still fails a limit applied 10 % short.
# Same load as above.
test_gov_rate_limit() {
	rl=$(cat $GT/rate_limit_us)
	echo 20000 >$GT/rate_limit_us
	gov_trace_map_load
	echo $rl >$GT/rate_limit_us
	set -- $(awk '
		/utiltrack_freq:/ && / cpu=1 / {
			t = r = ""
			for (i = 5; i <= NF; i++) {
				split($i, kv, "=")
				if (kv[1] == "time") t = kv[2] / 1e9
				if (kv[1] == "resolved") r = kv[2]
			}
			if (t == "" || r == "") { bad++; next }
			n++
			# the first decision traced: its change, if any, unseen
			if (n == 1) { prev = r; next }
			if (changes && (min == "" || t - last < min)) min = t - last
			if (r != prev) { changes++; last = t; prev = r }
		}
		END { printf "%d %d %.2f %d\n", n, changes, min * 1000, bad }' $GI/trace)
	echo "rate_limit_us=20000: $1 decisions, $2 changes, shortest time from a change to the next decision $3 ms (event time), $4 events without time/resolved"
	t_check "rate_limit_us=20000: no decision within 20 ms of a change (>= 3 changes)" \
		"$1 decisions, $2 changes, shortest $3 ms, $4 unparsed" \
		awk -v c="$2" -v m="$3" -v b="$4" 'BEGIN { exit !(c >= 3 && m >= 19 && b == 0) }'
}

# A policy of two CPUs (vcpufreq cluster_size=2) asks for what its
# neediest CPU asks, as schedutil's sugov_next_freq_shared(): with CPU1
# 90 % busy and CPU0 10 %, the decisions that CPU0's hook makes (cpu=0 in
# the event) carry CPU1's util, not CPU0's. Taking the hook CPU's own
# request would put them at a tenth of CPU1's, a mean at about half.
test_gov_shared_max() {
	set_gov 0 utiltrack
	echo 0 >$GI/events/utiltrack/utiltrack_freq/filter
	cat >$J/shared.json <<JSON
{
	"global": { "calibration": 100, "default_policy": "SCHED_OTHER",
		    "logdir": "/tmp", "log_size": "disable", "duration": 3 },
	"tasks": {
		"busy90": { "cpus": [1], "phases": { "b": { "loop": 300, "runtime": 9000,
			    "timer": { "ref": "tb", "period": 10000 } } } },
		"light10": { "cpus": [0], "phases": { "l": { "loop": 300, "runtime": 1000,
			     "timer": { "ref": "tl", "period": 10000 } } } }
	}
}
JSON
	echo >$GI/trace
	echo 1 >$GI/tracing_on
	rt-app $J/shared.json >/tmp/rtapp.log 2>&1
	echo 0 >$GI/tracing_on
	: >/tmp/shared.0
	: >/tmp/shared.1
	# the last second: the signals have settled
	awk '/utiltrack_freq:/ {
		c = u = t = ""
		for (i = 5; i <= NF; i++) {
			split($i, kv, "=")
			if (kv[1] == "cpu") c = kv[2]
			if (kv[1] == "util") u = kv[2]
			if (kv[1] == "time") t = kv[2] / 1e9
		}
		if (t0 == "") t0 = t
		if (t - t0 >= 2 && (c == 0 || c == 1)) print u >("/tmp/shared." c)
	}' $GI/trace
	n0=$(wc -l </tmp/shared.0) n1=$(wc -l </tmp/shared.1)
	m0=$(median_of /tmp/shared.0) m1=$(median_of /tmp/shared.1)
	echo "shared policy: decisions in the last second made by CPU0's hook $n0 (median util $m0), by CPU1's $n1 (median util $m1)"
	t_check "shared policy: CPU0's decisions carry busy CPU1's util (median >= 0.9x CPU1's, >= 5 decisions each)" \
		"CPU0 $n0 decisions, median $m0; CPU1 $n1, median $m1" \
		awk -v n0="$n0" -v n1="$n1" -v m0="$m0" -v m1="$m1" \
		'BEGIN { exit !(n0 >= 5 && n1 >= 5 && m0 != "" && m1 > 500 && m0 >= 0.9 * m1) }'
	set_gov 0 performance
}

# governor switches under hackbench, then rmmod once no policy uses it
# gov_hold_cuts BUSY_HOLD : "CUTS PREMATURE HELD" for 2 s of the light
# mix with the FIFO task waking the CFS one (light_mix_json rtfirst) on
# CPU1: the decisions that cut the frequency, those of them with no
# switch to idle on CPU1 since the decision before, and the decisions
# traced held=1. A decision at a switch to idle (the FIFO task's last
# one) is traced just before that switch: a cut followed by one within
# 100 us is not premature.
gov_hold_cuts() {
	echo "$1" >$GT/busy_hold
	light_mix_json $J/hold.json rtfirst
	sed -i 's/"duration": 3/"duration": 2/' $J/hold.json
	echo >$GI/trace
	echo 'next_pid == 0' >$GI/events/sched/sched_switch/filter
	echo 1 >$GI/events/sched/sched_switch/enable
	echo 1 >$GI/tracing_on
	rt-app $J/hold.json >/dev/null 2>&1
	echo 0 >$GI/tracing_on
	echo 0 >$GI/events/sched/sched_switch/enable
	echo 0 >$GI/events/sched/sched_switch/filter
	awk '
		function ts(s) { sub(":", "", s); return s + 0 }
		/sched_switch:/ && $2 == "[001]" {
			if (pend != "" && ts($4) - pend <= 0.0001) pend = ""
			idle = ts($4)
			next
		}
		/utiltrack_freq:/ && / cpu=1 / {
			if (pend != "") { early++; pend = "" }
			r = h = ""
			for (i = 5; i <= NF; i++) {
				split($i, kv, "=")
				if (kv[1] == "resolved") r = kv[2] + 0
				if (kv[1] == "held") h = kv[2]
			}
			held += h == 1
			if (n++ && r < prev) {
				cuts++
				if (idle <= prev_t) pend = ts($4)
			}
			prev = r
			prev_t = ts($4)
		}
		END { if (pend != "") early++; print cuts + 0, early + 0, held + 0 }' $GI/trace
}

# Schedutil's busy hold (single-CPU policies, its default and ours): no
# cut while the CPU has not been idle since the decision before. The load
# makes such cuts every period without it: the FIFO task's end asks for
# less while the CFS task it woke still runs. Checked from the trace's
# own switches to idle, not the module's count of them; with the hold
# off the same check must find premature cuts, or it could not fail.
# Runnable boosting off: from 6.5 it adds the CFS task's wait behind the
# FIFO one and kept the FIFO task's end from asking for less at all (1
# cut in 2 s on 6.12), which would leave the hold nothing to refuse.
test_gov_busy_hold() {
	set_gov 1 performance
	light_mix_calibrate || echo "rt-app did not calibrate: 100 ns per loop"
	echo "busy_hold: rt-app's loop costs ${LM_NS_PER_LOOP:-100} ns at fmax"
	set_gov 1 utiltrack
	rb=$(cat $GT/runnable_boost)
	echo 0 >$GT/runnable_boost
	set -- $(gov_hold_cuts 1)
	echo "busy_hold=1: $1 cuts, $2 with no idle since the decision before, $3 decisions held"
	t_check "busy_hold=1: no cut before the CPU idles" \
		"$1 cuts, $2 premature, $3 held" test "${2:-1}" = 0
	t_load_check "busy_hold=1: some decisions held (the load asks for cuts)" \
		"$1 cuts, $2 premature, $3 held" test "${3:-0}" -gt 0
	set -- $(gov_hold_cuts 0)
	echo "busy_hold=0: $1 cuts, $2 with no idle since the decision before, $3 decisions held"
	t_load_check "busy_hold=0: premature cuts seen (the check can fail)" \
		"$1 cuts, $2 premature, $3 held" test "${2:-0}" -gt 0 -a "${3:-1}" = 0
	echo 1 >$GT/busy_hold
	echo $rb >$GT/runnable_boost
	set_gov 1 performance
}

# gov_waking_seen WANT : the sched_waking events utiltrack saw over 20
# short sleeps (each a wakeup); a work item re-attaches probes after a
# governor or rt_policy change, so up to 5 such windows are tried until
# the count says attached (WANT=on: >= 20) or detached (off: 0)
gov_waking_seen() {
	w=0
	while [ $w -lt 5 ]; do
		a=$(ut_stat events_sched_waking)
		for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do
			sleep 0.01
		done
		n=$(($(ut_stat events_sched_waking) - a))
		[ $1 = on ] && [ $n -ge 20 ] && break
		[ $1 = off ] && [ $n = 0 ] && break
		w=$((w + 1))
	done
	echo $n
}

# Kernel text a tracepoint's probes coming and going would patch: its
# static key (0 <-> 1 probes) and its static call (1 <-> 2), counted by
# kprobe events on the three functions that do it, in an instance of
# their own. The kprobes themselves patch only those cold functions.
PW=$TRACE/instances/utiltrack-patches
PW_PROBES="static_call:__static_call_update key_on:static_key_enable_cpuslocked key_off:static_key_disable_cpuslocked"

patch_watch_start() {
	for _p in $PW_PROBES; do
		echo "p:utpatch/${_p%%:*} ${_p#*:}" >>$TRACE/kprobe_events || return 1
	done
	mkdir -p $PW && echo 1 >$PW/events/utpatch/enable
}

# patch_watch_count : "STATIC_CALL KEY_ON KEY_OFF", the updates seen since
# the last count
patch_watch_count() {
	for _p in $PW_PROBES; do
		printf '%s ' "$(grep -c " ${_p%%:*}: " $PW/trace)"
	done
	echo
	echo >$PW/trace
}

patch_watch_stop() {
	[ -d $PW ] && echo 0 >$PW/events/utpatch/enable
	rmdir $PW 2>/dev/null
	for _p in $PW_PROBES; do
		echo "-:utpatch/${_p%%:*}" >>$TRACE/kprobe_events
	done 2>/dev/null
}

# sched_waking serves only rt_policy=max: attached while a policy runs
# the governor with it (its default: the start attaches it), and costs
# nothing otherwise
test_gov_waking_attach() {
	set_gov 0 performance
	set_gov 1 performance
	pw=1
	patch_watch_start || {
		pw=0
		patch_watch_stop
		t_fail "patch watch: kprobe events" "could not be placed"
	}
	set_gov 1 utiltrack
	n=$(gov_waking_seen on)
	t_range "sched_waking attached by a start with rt_policy=max" "$n" 20 100000000
	echo util >$GT/rt_policy
	n=$(gov_waking_seen off)
	t_check "sched_waking detached by rt_policy=util" "$n events" test "$n" = 0
	echo max >$GT/rt_policy
	n=$(gov_waking_seen on)
	t_range "sched_waking attached again by rt_policy=max" "$n" 20 100000000
	set_gov 0 performance
	set_gov 1 performance
	n=$(gov_waking_seen off)
	t_check "sched_waking detached once no policy runs utiltrack" \
		"$n events" test "$n" = 0
	# the session's keep-alive gives every scheduler tracepoint two
	# probes, so these attaches patch nothing a running CPU executes
	# (docs/safety.md, "Static keys under QEMU TCG")
	[ $pw = 1 ] || return
	set -- $(patch_watch_count)
	n=$(($1 + $2 + $3))
	# the control: an event nobody holds, on and off, flips its key and
	# sets its static call twice
	_c=$PW/events/sched/sched_kthread_stop_ret/enable
	echo 1 >$_c
	echo 0 >$_c
	c=$(patch_watch_count)
	patch_watch_stop
	if [ "${UT_KEEPALIVE:-1}" = 0 ]; then
		t_skip "keep-alive: attaching and detaching sched_waking patched no kernel text" \
			"UT_KEEPALIVE=0: $n updates"
		return
	fi
	set -- $c
	t_check "keep-alive: attaching and detaching sched_waking patched no kernel text (control event: key on, key off, 2 static calls)" \
		"$n static key or static call updates; control (static call, key on, key off) $c" \
		test "$n" = 0 -a "$1" -ge 2 -a "$2" -ge 1 -a "$3" -ge 1
}

test_gov_switching() {
	bg_hackbench
	ok=1
	i=0
	while [ $i -lt 20 ]; do
		for g in utiltrack schedutil performance powersave; do
			set_gov 0 $g || ok=0
			set_gov 1 $g || ok=0
		done
		i=$((i + 1))
	done
	set_gov 0 utiltrack
	set_gov 1 utiltrack
	sleep 0.5
	kill $hb
	wait $hb 2>/dev/null
	t_check "20x utiltrack/schedutil/performance/powersave under hackbench" \
		"a switch failed" test $ok = 1
	set_gov 0 schedutil
	set_gov 1 schedutil
	t_check "rmmod utiltrack clean after switching away" "rmmod failed" \
		ut_rmmod utiltrack
	t_check "governor gone with the module" "still listed" \
		absent -w utiltrack $CPUFREQ/policy1/scaling_available_governors
	gov_load invariance=0
}

SHADOW=$UTD/shadow

# shadow_col POLICY SIGNAL COLUMN : a cell of the table shadow_load kept
shadow_col() {
	shadow_cell /tmp/shadow.tab "$@"
}

# shadow_misses SIGNAL RT : utiltrack_shadow events of SIGNAL on CPU1 in
# $GI/trace whose resolved OPP is not the one chosen, with rt=RT
shadow_misses() {
	awk -v s="signal=$1" -v r="rt=$2" '
		/utiltrack_shadow: cpu=1 / && $0 ~ (s " ") && $NF == r {
			for (i = 1; i <= NF; i++) {
				if ($i ~ /^resolved=/) res = substr($i, 10)
				if ($i ~ /^actual=/) act = substr($i, 8)
			}
			if (res != act) n++
		}
		END { print n + 0 }' $GI/trace
}

# shadow_load SIGNALS : shadow SIGNALS over a periodic load on CPU1 for
# 5 s, recorded in $GI from before the counts start until a second after
# the load, when the idle CPU has settled; the table in /tmp/shadow.tab
# (shadow_phases: the frequency climbs and falls every 1.4 s)
shadow_load() {
	rtapp_json $J/shadow.json sh SCHED_OTHER 5 "$(shadow_phases)"
	echo >$GI/trace
	echo 1 >$GI/tracing_on
	echo "$1" >$SHADOW
	rt-app $J/shadow.json >/dev/null 2>&1
	sleep 1
	cat $SHADOW >/tmp/shadow.tab
	echo 0 >$GI/tracing_on
}

# Shadow mode (issue 17): at every frequency change of a policy, whichever
# governor made it, each chosen signal's request with schedutil's settings
# is compared with the frequency chosen. With the utiltrack governor
# driving policy1 on pelt_rt at its defaults, the pelt_rt shadow must ask
# for the very OPP the governor asked for at each change: the shadow and
# the governor share the request code, so anything that makes them
# disagree (a mapping, a reference, a resolution) fails here. Only while
# an RT task runs may they differ: the governor's rt_policy=max asks fmax
# where the shadow follows schedutil's rule (a kernel RT thread can wake
# on CPU1 during the load).
test_gov_shadow() {
	t_check "debugfs shadow is root-only (0600)" "mode $(stat -c %a $SHADOW)" \
		test "$(stat -c %a $SHADOW)" = 600
	long=$(head -c 300 /dev/zero | tr '\0' a)
	ok=1
	for bad in nosuch "pelt pelt" "pelt rt walt util_est pelt_rt" \
		   "pelt;rt" "off x" " " "pelt,,nosuch" "$long"; do
		expect_errno "Invalid argument" $SHADOW "$bad" ||
			{ ok=0; echo "shadow accepted '$bad'"; }
	done
	t_check "shadow: unknown, repeated, too many or malformed signals are EINVAL" \
		"a bad list was accepted" test $ok = 1
	t_check "shadow: still off after the rejected writes" "$(head -n 1 $SHADOW)" \
		grep -qx "signals off" $SHADOW

	# the shadow has no I/O-wait boost
	echo pelt_rt >$GT/signal
	echo 0 >$GT/iowait_boost
	set_gov 1 utiltrack
	shadow_load "pelt_rt walt"
	cat /tmp/shadow.tab
	d=$(shadow_col 1 pelt_rt decisions)
	m=$(shadow_col 1 pelt_rt match)
	t_range "shadow: policy1's changes compared" "${d:-0}" 8 100000
	nrt=$(shadow_misses pelt_rt 0)
	wrt=$(shadow_misses pelt_rt 1)
	t_check "shadow: pelt_rt asks for the OPP the governor chose (pelt_rt) at every change without RT" \
		"$m of $d; misses in the trace: $nrt without RT, $wrt with" \
		test "$nrt" = 0 -a "$((${d:-0} - ${m:-0}))" -le "$wrt" -a -n "$m"
	# (a change between reading the table and stopping the trace: +1)
	n=$(grep -c 'utiltrack_shadow: cpu=1 signal=pelt_rt ' $GI/trace)
	t_range "shadow: a utiltrack_shadow event per comparison ($d)" \
		"$n" "${d:-1}" "$((${d:-0} + 1))"
	echo 1 >$GT/iowait_boost

	# a signal without its trackers says so, with no value
	echo "disable walt" >$UTD/trackers
	shadow_load "pelt_rt walt"
	t_check "shadow: walt disabled reads no_signal, without a value" "$(grep walt /tmp/shadow.tab)" \
		test "$(shadow_col 1 walt now) $(shadow_col 1 walt decisions) $(shadow_col 1 walt last_khz)" = "no_signal 0 -"
	t_range "shadow: walt disabled counts its changes as no_signal" \
		"$(shadow_col 1 walt no_signal)" 1 100000
	echo "enable walt" >$UTD/trackers

	# what schedutil chose, against the signals (reported, see docs)
	set_gov 1 schedutil
	echo "enable util_est" >$UTD/trackers
	shadow_load "util_est_rt pelt_rt walt"
	echo "shadow of schedutil on policy1 (periodic load):"
	grep -E '^(policy|1) ' /tmp/shadow.tab
	# its decisions at a wakeup wait for sched_wakeup (sched_waking seen)
	t_range "shadow: schedutil's changes inside a wakeup are deferred" \
		"$(shadow_col 1 pelt_rt deferred)" 1 100000
	set_gov 1 utiltrack
	echo "disable util_est" >$UTD/trackers
	echo off >$SHADOW
	t_check "shadow: off" "$(head -n 1 $SHADOW)" grep -qx "signals off" $SHADOW
}

gov_suite() {
	gov_setup "$@" || { t_fail "governor setup ($*)" "insmod"; return; }
	test_gov_select
	test_gov_bad_input
	test_gov_preset
	test_gov_mapping
	t_retry test_gov_self_fifo
	t_retry test_gov_busy_hold
	test_gov_waking_attach
	test_gov_switching
	gov_teardown
}

gov_suite
# the suite ran the slow path (irq_work + DL kthread, vcpufreq's
# default); the fast path too
echo "--- governor with fast_switch=1"
if gov_setup fast_switch=1; then
	set_gov 1 utiltrack
	t_check "fast_switch path: no utiltrack_gov:1 kthread" \
		"cpufreq refused fast switching" absent_kthread utiltrack_gov:1
	f=$(busy_freq 1 1.5)
	t_check "fast_switch path: a busy CPU goes to fmax" "at $f" test "$f" = "$(fmax_of 1)"
	t_retry test_gov_step
	test_gov_shadow
	t_retry test_gov_rt_policy
	gov_teardown
else
	t_fail "governor setup (fast_switch=1)" "insmod"
fi
echo "--- governor on a policy of two CPUs (cluster_size=2)"
if gov_setup cluster_size=2; then
	test_gov_shared_max
	ut_rmmod utiltrack
	ut_rmmod vcpufreq
else
	t_fail "governor setup (cluster_size=2)" "insmod"
fi
