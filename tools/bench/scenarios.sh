# SPDX-License-Identifier: GPL-2.0
#
# scenarios.sh - the guest side of tools/bench/run (busybox sh), after
# tools/vm/guest-lib.sh: SCENARIO and REPS are set. Each run of a
# configuration prints "RAW WORKLOAD ROUND CONFIG VALUE" lines, VALUE
# FAIL when the run did not give a number; "NOTE ..." lines go to the
# report.
#
# A configuration is a governor on every policy, "ut:SIGNAL" (the
# utiltrack governor on SIGNAL, every other tunable at its default),
# "ut:SIGNAL:RT_POLICY", either followed by ":TUNABLE=VALUE" items (e.g.
# ut:walt:max:hispeed_load=60), "preset:NAME" (the utiltrack governor
# with a preset, docs/governor.md), or "absent" (performance with utiltrack
# not loaded); the stats-check scenario's "same" and "slow10" are
# performance too (see run_stats_check). CONFIGS_OVERRIDE (bench/run
# --configs) replaces a scenario's list.

E=$DBG/vcpufreq/energy

# VCPUFREQ_ARGS, UT_ARGS: the platform's and the module's parameters,
# where a scenario needs other than the defaults
VCPUFREQ_ARGS="" UT_ARGS=""
case $SCENARIO in
messaging) CONFIGS="absent performance powersave ondemand schedutil ut:pelt ut:pelt_rt ut:walt" ;;
latency) CONFIGS="performance schedutil ut:pelt ut:pelt_rt ut:walt" ;;
rt-mix) CONFIGS="schedutil ut:pelt_rt:max ut:pelt_rt:util ut:util_est_rt:max" ;;
capacity) CONFIGS="absent schedutil ut:pelt ut:walt" ;;
light-mix) CONFIGS="schedutil performance ut:pelt_rt:max ut:util_est_rt:max ut:pelt_rt:util ut:pelt ut:walt" ;;
stats-check) CONFIGS="performance same slow10" ;;
# as the governor suite's shadow test: fast switching, and signals as
# non-invariant as this VM kernel's (schedutil's request follows the
# current frequency here)
parity) CONFIGS="schedutil ut:util_est_rt ut:pelt_rt"
	VCPUFREQ_ARGS="fast_switch=1" UT_ARGS="invariance=0" ;;
efficiency) CONFIGS="performance powersave schedutil preset:default preset:schedutil preset:efficient ut:walt ut:walt:max:hispeed_load=60" ;;
*) echo "NOTE unknown scenario $SCENARIO"; exit 1 ;;
esac
CONFIGS=${CONFIGS_OVERRIDE:-$CONFIGS}

# the emulation calibrated on CPU1's policy (policy1 on x86, its
# cluster's on a board): a cached value, else calibrated here and sent
# back (/out/overhead_us) for the next boots
# shellcheck disable=SC2086 # a list of parameters
load_vcpufreq $VCPUFREQ_ARGS || { echo "NOTE vcpufreq does not load"; exit 1; }
if [ -s $UT/files/overhead_us ]; then
	cat $UT/files/overhead_us >$DBG/vcpufreq/overhead_us
	echo "NOTE emulation overhead_us $(cat $DBG/vcpufreq/overhead_us) (cached calibration)"
else
	_cp=$(readlink -f /sys/devices/system/cpu/cpu1/cpufreq)
	emu_calibrate "${_cp##*policy}" >/dev/null
	cat $DBG/vcpufreq/overhead_us | tee /out/overhead_us >/dev/null
	echo "NOTE emulation overhead_us $(cat $DBG/vcpufreq/overhead_us) (calibrated in this boot)"
fi
for _p in $CPUFREQ/policy*; do set_gov "${_p##*policy}" performance; done

# the first CPU of each cluster (policy), and on a board their capacity
# for the report
FIRST_CPUS=""
for _p in $CPUFREQ/policy*; do
	_c=$(awk '{ print $1 }' "$_p/related_cpus")
	FIRST_CPUS="$FIRST_CPUS $_c"
	[ -z "$BOARD" ] || echo "NOTE capacity cpu$_c $(cat /sys/devices/system/cpu/cpu$_c/cpu_capacity)"
done

# b_gov_all GOVERNOR : on every policy, or fail
b_gov_all() {
	for _p in $CPUFREQ/policy*; do
		echo "$1" >"$_p/scaling_governor" 2>/dev/null || return 1
	done
}

# b_use CONFIG : the configuration in place, or fail
b_use() {
	case $1 in
	absent)
		b_gov_all performance || return 1
		! grep -q '^utiltrack ' /proc/modules || rmmod utiltrack ;;
	*)
		# shellcheck disable=SC2086 # a list of parameters
		grep -q '^utiltrack ' /proc/modules || insmod $UT/utiltrack.ko $UT_ARGS || return 1
		case $1 in
		ut:*)
			b_gov_all utiltrack || return 1
			b_ut_config "${1#ut:}" || return 1 ;;
		preset:*)
			b_gov_all utiltrack || return 1
			b_ut_preset "${1#preset:}" || return 1 ;;
		same | slow10) b_gov_all performance || return 1 ;;
		*) b_gov_all "$1" || return 1 ;;
		esac ;;
	esac
	sleep 0.5
}

# the governor's numeric tunables as loaded ("NAME=VALUE" lines), which
# b_ut_config puts back before it sets a configuration's own
UT_TUNABLES="rate_limit_us headroom_pct iowait_boost runnable_boost hispeed_load hispeed_freq busy_hold"
b_ut_defaults() {
	[ -s /tmp/ut_defaults ] && return 0
	: >/tmp/ut_defaults.new
	for _n in $UT_TUNABLES; do
		_v=$(cat $CPUFREQ/utiltrack/$_n) || return 1
		echo "$_n=$_v" >>/tmp/ut_defaults.new
	done
	mv /tmp/ut_defaults.new /tmp/ut_defaults
}

# b_ut_restore : the numeric tunables back at their defaults
b_ut_restore() {
	b_ut_defaults || return 1
	while read -r _kv; do
		echo "${_kv#*=}" >"$CPUFREQ/utiltrack/${_kv%%=*}" || return 1
	done </tmp/ut_defaults
}

# b_ut_config SIGNAL[:RT_POLICY][:TUNABLE=VALUE...] : the utiltrack
# governor's settings; anything not named at its default
b_ut_config() {
	_sig=${1%%:*}
	# util_est's signal needs its tracker; the others go without it, as
	# they would be loaded by default
	_ue=disable
	case $_sig in util_est*) _ue=enable ;; esac
	echo "$_ue util_est" >$UTD/trackers || return 1
	echo "$_sig" >$CPUFREQ/utiltrack/signal || return 1
	_rtp=max
	b_ut_restore || return 1
	for _it in $(echo "$1" | tr : ' '); do
		case $_it in
		"$_sig") ;;
		*=*) echo "${_it#*=}" >"$CPUFREQ/utiltrack/${_it%%=*}" || return 1 ;;
		*) _rtp=$_it ;;
		esac
	done
	echo "$_rtp" >$CPUFREQ/utiltrack/rt_policy
}

# b_ut_preset NAME : the utiltrack governor's preset NAME, with the
# util_est tracker on only if its signal needs it
b_ut_preset() {
	b_ut_restore || return 1
	echo "$1" >$CPUFREQ/utiltrack/preset || return 1
	_ue=disable
	case $(cat $CPUFREQ/utiltrack/signal) in util_est*) _ue=enable ;; esac
	echo "$_ue util_est" >$UTD/trackers
}

b_energy_uj() { awk 'NR > 1 { s += $8 } END { print s + 0 }' $E; }
b_trans() {
	_t=0
	for _p in $CPUFREQ/policy*; do _t=$((_t + $(cat "$_p/stats/total_trans"))); done
	echo $_t
}

# b_raw WORKLOAD ROUND CONFIG VALUE : VALUE, or FAIL if not a number
b_raw() {
	case $4 in '' | *[!0-9.]* | .) echo "RAW $1 $2 $3 FAIL" ;; *) echo "RAW $1 $2 $3 $4" ;; esac
}

# b_messaging_time : seconds of one messaging run
b_messaging_time() {
	if command -v perf >/dev/null; then
		perf bench sched messaging -g 4 -l 100 2>/dev/null | awk '/Total time:/ { print $3 }'
	else
		hackbench -g 4 -l 100 2>/dev/null | awk '/^Time:/ { print $2 }'
	fi
}

# one run of CONFIG in round R: its RAW lines
run_messaging() {
	_e0=$(b_energy_uj) _t0=$(b_trans)
	_v=$(b_messaging_time)
	b_raw time $2 $1 "$_v"
	b_raw trans $2 $1 $(($(b_trans) - _t0))
	b_raw energy_J $2 $1 "$(calc "($(b_energy_uj) - $_e0) / 1e6")"
}

run_latency() {
	_t0=$(b_trans)
	hackbench -g 2 -l 1000000 >/dev/null 2>&1 &
	_bg=$!
	set -- "$1" "$2" $(cyclictest -q -m -t1 --policy=other -i1000 -D5 2>/dev/null |
		awk '
		# "Max: 123" or, once a value fills its column, "Max:12345678"
		function val(i) { return length($i) > 4 ? substr($i, 5) : $(i + 1) }
		/Min:/ { for (i = 1; i <= NF; i++) {
			if ($i ~ /^Min:/) mn = val(i); if ($i ~ /^Avg:/) av = val(i)
			if ($i ~ /^Max:/) mx = val(i) } } END { print mn, av, mx }')
	kill $_bg
	wait $_bg 2>/dev/null
	b_raw lat_min_us $2 $1 "${3:-}"
	b_raw lat_avg_us $2 $1 "${4:-}"
	b_raw lat_max_us $2 $1 "${5:-}"
	b_raw trans $2 $1 $(($(b_trans) - _t0))
}

# The demo's comparison (issue 17), light_mix_json's load in both its
# arrangements: policy1's transitions, mean frequency (its time_in_state
# over the run) and energy, and what they cost the CFS task: the frames
# (periods) it completed and how long its work took. A light load, where
# the governors' choices, not fmax, decide the figures.
run_light_mix() {
	if [ "$1" = warmup ]; then
		# at fmax (every policy is at performance until the first
		# configuration), so the load's times are at fmax
		light_mix_calibrate &&
			WARM_NOTE="rt-app run work calibrated at fmax: $LM_NS_PER_LOOP ns per loop" ||
			WARM_NOTE="rt-app did not calibrate: its nominal 100 ns per loop is used"
	fi
	for _a in rtfirst apart; do
		light_mix_json $J/bench_light.json $_a
		if ! _r=$(light_mix_run $J/bench_light.json); then
			for _w in trans mean_mhz energy_mJ frames cfs_p50_us cfs_p90_us; do
				b_raw ${_a}_$_w $2 $1 FAIL
			done
			continue
		fi
		set -- "$1" "$2" $_r
		b_raw ${_a}_trans $2 $1 "$3"
		b_raw ${_a}_mean_mhz $2 $1 "$(calc "$4 / 1000")"
		b_raw ${_a}_energy_mJ $2 $1 "$(calc "$5 / 1000")"
		b_raw ${_a}_frames $2 $1 "${6:-}"
		b_raw ${_a}_cfs_p50_us $2 $1 "${7:-}"
		b_raw ${_a}_cfs_p90_us $2 $1 "${8:-}"
		set -- "$1" "$2"
	done
}

# Seed 002's two tests, once per round: sysbench cpu, one thread, 3 s
# (events; the rounds make its 10 runs), and perf stat --null --repeat 5
# of messaging (mean elapsed seconds and perf's own +- %, the spread of
# that mean). "absent" is the seed's "tip", the rest its "patch". On a
# board, sysbench runs pinned to the first CPU of each cluster, as the
# seed pinned it to a big and a LITTLE core.
b_sysbench_events() {
	taskset -c "$1" sysbench cpu --threads=1 --time=3 run 2>/dev/null |
		awk '/total number of events:/ { print $NF }'
}
run_capacity() {
	command -v perf >/dev/null || WARM_NOTE="no perf in this guest: no perf stat of messaging"
	if [ -n "$BOARD" ]; then
		for _c in $FIRST_CPUS; do
			b_raw events_cpu$_c $2 $1 "$(b_sysbench_events $_c)"
		done
	else
		# CPU0, where the shell that starts it is pinned
		b_raw events $2 $1 "$(b_sysbench_events 0)"
	fi
	if command -v perf >/dev/null; then
		set -- "$1" "$2" $(perf stat --null --repeat 5 -- \
			perf bench sched messaging -g 4 -l 50 2>&1 >/dev/null |
			awk '/seconds time elapsed/ {
				pm = "0"
				for (i = 1; i < NF; i++) if ($i == "+-") { pm = $(i + 1); sub("%", "", pm) }
				print $1, pm }')
		b_raw stat_time_s $2 $1 "${3:-}"
		b_raw stat_pm_pct $2 $1 "${4:-}"
	fi
}

# Issue 17's efficiency: on CPU1, a task that runs a burst of work and
# sleeps 100 ms, for bursts of 5, 20, 50 and 200 ms of work at fmax
# (tools/bench/helpers/bursts.c, calibrated at fmax in the warm-up, so a
# lower frequency stretches them); per length the median burst's wall
# time (bLEN_ms) and policy1's dynamic energy per burst (bLEN_mJ: the
# energy of the work; its idle power is the same 100 ms per burst under
# every configuration, and counting it would only dilute the ratios).
# Then a 60 fps frame load: 6 ms of work every 16.667 ms, 180 frames:
# the share that ended late (frames_late_pct) and the dynamic energy per
# frame (frames_mJ).
EFF_BURSTS="5:20 20:16 50:10 200:5"
EFF_LPM=""
H=$UT/files/helpers
b_p1_uj() { awk '$1 == 1 { print $6 }' $E; }
run_efficiency() {
	if [ "$1" = warmup ]; then
		EFF_LPM=$(taskset -c 1 $H/bursts calibrate | awk '/^loops_per_ms/ { print $2 }')
		WARM_NOTE="bursts calibrated at fmax: ${EFF_LPM:-nothing} loops per ms"
		return
	fi
	for _b in $EFF_BURSTS; do
		_ms=${_b%%:*} _n=${_b#*:} _v="" _e=""
		_e0=$(b_p1_uj)
		if [ -n "$EFF_LPM" ] &&
		   taskset -c 1 $H/bursts run $EFF_LPM $_ms 100 $_n >/tmp/bursts.out &&
		   [ "$(wc -l </tmp/bursts.out)" = "$_n" ]; then
			_v=$(sort -n /tmp/bursts.out | awk '{ v[NR] = $1 }
				END { m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
				      printf "%.3f", m / 1000 }')
			_e=$(calc "($(b_p1_uj) - $_e0) / $_n / 1000")
		fi
		b_raw b${_ms}_ms $2 $1 "$_v"
		b_raw b${_ms}_mJ $2 $1 "$_e"
	done
	_v="" _e=""
	_e0=$(b_p1_uj)
	if [ -n "$EFF_LPM" ] &&
	   set -- "$1" "$2" $(taskset -c 1 $H/bursts frames $EFF_LPM 6 16667 180) &&
	   [ "${3:-}" = frames ]; then
		_v=$(calc "100 * $6 / $4")
		_e=$(calc "($(b_p1_uj) - $_e0) / $4 / 1000")
	fi
	b_raw frames_late_pct $2 $1 "$_v"
	b_raw frames_mJ $2 $1 "$_e"
}

b_uptime() { cut -d' ' -f1 /proc/uptime; }

# b_spin N : a CPU-bound loop of N iterations
b_spin() { awk -v n="$1" 'BEGIN { for (i = 0; i < n; i++) s += i; exit s < 0 }'; }

# The statistics' own check: "same" is the base configuration again and
# must not be called different; "slow10" adds, inside the timed interval,
# a CPU-bound loop sized in the warm-up to a tenth of one messaging run,
# and must be called higher. Times are wall time from /proc/uptime
# (10 ms ticks on ~3 s runs) around the same commands for all three.
SPIN_N=0
run_stats_check() {
	if [ "$1" = warmup ]; then
		# once untimed, so QEMU has translated both, then timed
		b_messaging_time >/dev/null
		b_spin 200000
		_a=$(b_uptime); b_messaging_time >/dev/null; _b=$(b_uptime)
		b_spin 2000000; _c=$(b_uptime)
		SPIN_N=$(awk -v m="$(calc "$_b - $_a")" -v l="$(calc "$_c - $_b")" \
			'BEGIN { printf "%d", 2000000 * 0.1 * m / (l > 0 ? l : 0.01) }')
		WARM_NOTE="slow10: a $SPIN_N-iteration loop, sized to 10 % of a $(calc "$_b - $_a") s run in the warm-up"
		return
	fi
	_a=$(b_uptime)
	_v=$(b_messaging_time)
	[ "$1" != slow10 ] || b_spin $SPIN_N
	_b=$(b_uptime)
	[ -n "$_v" ] && b_raw time $2 $1 "$(calc "$_b - $_a")" || b_raw time $2 $1 FAIL
}

# a SCHED_FIFO task on CPU1, 2 ms every 10 ms, beside sysbench on both
# CPUs for 5 s
run_rt_mix() {
	rtapp_json $J/bench_rt.json brt SCHED_FIFO 6 "$(phase r 2000 10000 600)"
	_e0=$(b_energy_uj) _t0=$(b_trans)
	rt-app $J/bench_rt.json >/dev/null 2>&1 &
	_rt=$!
	_v=$(sysbench cpu --cpu-max-prime=5000 --threads=2 --time=5 run 2>/dev/null |
		awk '/events per second/ { print $4 }')
	wait $_rt 2>/dev/null
	b_raw events_per_s $2 $1 "$_v"
	b_raw trans $2 $1 $(($(b_trans) - _t0))
	b_raw energy_J $2 $1 "$(calc "($(b_energy_uj) - $_e0) / 1e6")"
}

# Shadow parity (issue 17): while CONFIG drives every policy, each of
# PARITY_SIGNALS is shadowed at every frequency change of policy1 (see
# docs/governor.md) over four loads on CPU1: a periodic CFS task whose
# duty changes (periodic: shadow_phases), the demo's FIFO + CFS mix
# (mix), messaging on both CPUs (messaging) and direct reads of a
# null_blk device whose requests complete after 1 ms, beside a periodic
# CFS task (iowait). Per load: policy1's changes seen and each
# signal's share of them where it asked for the OPP chosen (match_pct;
# FAIL when no change was compared). With schedutil driving, util_est_rt
# is the schedutil-equivalent signal; with the utiltrack governor driving
# a signal, that signal's own shadow should read 100, except on iowait:
# the governor's I/O-wait boost (on by default) is not modelled by the
# shadow (docs/governor.md, shadow parity, for where it does not).
PARITY_SIGNALS="util_est_rt pelt_rt walt"
b_shadow_read() {
	cat $UTD/shadow >/tmp/parity.tab
	echo off >$UTD/shadow
	_ch=
	for _s in $PARITY_SIGNALS; do
		[ -n "$_ch" ] || _ch=$(shadow_cell /tmp/parity.tab 1 $_s changes)
		_v=FAIL
		[ "$(shadow_cell /tmp/parity.tab 1 $_s decisions)" -gt 0 ] 2>/dev/null &&
			_v=$(shadow_cell /tmp/parity.tab 1 $_s match_pct)
		echo "RAW $1_${_s}_match_pct $2 $3 $_v"
	done
	echo "RAW $1_changes $2 $3 ${_ch:-FAIL}"
}
run_parity() {
	# the mix's work timed at fmax, as in light-mix; the module loaded
	# for the shadow
	if [ "$1" = warmup ]; then
		b_use performance || return 1
		light_mix_calibrate || true
	fi
	echo "enable util_est" >$UTD/trackers
	rtapp_json $J/parity.json par SCHED_OTHER 3 "$(shadow_phases)"
	echo "$PARITY_SIGNALS" >$UTD/shadow
	rt-app $J/parity.json >/dev/null 2>&1
	b_shadow_read periodic $2 $1
	light_mix_json $J/parity_mix.json rtfirst
	echo "$PARITY_SIGNALS" >$UTD/shadow
	rt-app $J/parity_mix.json >/dev/null 2>&1
	b_shadow_read mix $2 $1
	echo "$PARITY_SIGNALS" >$UTD/shadow
	hackbench -g 2 -l 200 >/dev/null 2>&1
	b_shadow_read messaging $2 $1
	b_parity_iowait $2 $1
}

# b_parity_iowait ROUND CONFIG : the I/O-wait load. Each read sleeps in
# I/O wait until null_blk's timer completes it, so every wakeup of dd
# is an I/O-wait one (schedutil's iowait boost); the periodic task gives
# the signals something to follow meanwhile.
b_parity_iowait() {
	if [ ! -b /dev/nullb0 ] &&
	   ! ut_insmod_optional null_blk nr_devices=1 irqmode=2 \
		completion_nsec=1000000; then
		echo "RAW iowait_changes $1 $2 FAIL"
		return
	fi
	rtapp_json $J/parity_io.json pario SCHED_OTHER 3 "$(phase a 2000 10000 300)"
	echo "$PARITY_SIGNALS" >$UTD/shadow
	taskset -c 1 dd if=/dev/nullb0 of=/dev/null bs=4k count=100000 \
		iflag=direct 2>/dev/null &
	_dd=$!
	rt-app $J/parity_io.json >/dev/null 2>&1
	kill $_dd 2>/dev/null
	wait $_dd 2>/dev/null
	b_shadow_read iowait $1 $2
}

# b_trace_start / b_trace_stop : utiltrack's per-CPU signals and the
# frequency changes of one run, in a trace instance of their own, to
# /out/trace.txt (the report's plot of signals over time)
TI=$TRACE/instances/utiltrack-bench
b_trace_start() {
	mkdir -p $TI 2>/dev/null || return 0
	echo 8192 >$TI/buffer_size_kb
	echo 1 >$TI/events/utiltrack/utiltrack_cpu_util/enable
	echo 1 >$TI/events/power/cpu_frequency/enable
	echo 1 >$TI/tracing_on
}
b_trace_stop() {
	[ -d $TI ] || return 0
	echo 0 >$TI/tracing_on
	cat $TI/trace >/out/trace.txt
	echo "NOTE signals traced in round $R, configuration $1 ($(grep -c utiltrack_cpu_util /out/trace.txt) signal events, a $(cat $TI/buffer_size_kb) KiB buffer per CPU)"
	echo 0 >$TI/events/utiltrack/utiltrack_cpu_util/enable
	echo 0 >$TI/events/power/cpu_frequency/enable
	rmdir $TI
}

# the run whose signals are traced: the first of round 1 driven by the
# utiltrack governor, so the plot shows the signals and the frequency
# they asked for
traced=""

# warm-up: QEMU translates the workloads' code once
WARM_NOTE=""
run_$(echo $SCENARIO | tr - _) warmup 0 >/dev/null
[ -z "$WARM_NOTE" ] || echo "NOTE $WARM_NOTE"
R=1
while [ $R -le $REPS ]; do
	for c in $(abba_order $R $CONFIGS); do
		if b_use $c; then
			_tr=0
			if [ -z "$traced" ] && [ "${c#ut:}" != "$c" ]; then
				traced=$c _tr=1
				b_trace_start
			fi
			run_$(echo $SCENARIO | tr - _) $c $R
			[ $_tr = 0 ] || b_trace_stop $c
		else
			echo "NOTE round $R: configuration $c could not be set up"
			echo "RAW setup $R $c FAIL"
		fi
	done
	R=$((R + 1))
done
b_gov_all performance
! grep -q '^utiltrack ' /proc/modules || rmmod utiltrack
rmmod vcpufreq
