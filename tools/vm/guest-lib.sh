# SPDX-License-Identifier: GPL-2.0
#
# guest-lib.sh - what every guest script of the project shares (busybox
# sh): where things are, statistics, table parsers, the cpufreq platform's
# sysfs, the emulation's calibration and rt-app loads. Sourcing it only
# defines names; guest_session_start does the session's setup.
# Used by the test suites (tools/tests/vm), the demo and the benchmarks.

UT=/utiltrack
CPUFREQ=/sys/devices/system/cpu/cpufreq
DBG=/sys/kernel/debug
# The scheduler's debug dump: in debugfs since 5.13, /proc before
SCHED_DEBUG=$DBG/sched/debug
[ -e $SCHED_DEBUG ] || SCHED_DEBUG=/proc/sched_debug
UTD=$DBG/utiltrack
TRACE=/sys/kernel/tracing
J=/tmp/rtapp

# calc EXPR : print an awk expression's value
calc() {
	awk "BEGIN { printf \"%.4f\", $1 }"
}

# col FILE KEYCOL KEY COL : the COL column of the row whose KEYCOL column is KEY
# (columns named by the table's header line)
col() {
	awk -v kc="$2" -v k="$3" -v c="$4" '
		NR == 1 { for (i = 1; i <= NF; i++) idx[$i] = i; next }
		$(idx[kc]) == k { print $(idx[c]); exit }' "$1"
}

# The kernel log is never cleared: the harness scans all of it at the
# end, and a report cleared mid-run would pass unseen. A check that looks
# for its own lines marks where the log ends, then reads what came after.
# dmesg_mark : remember the timestamp of the last kernel message
dmesg_mark() {
	_dmesg_mark=$(dmesg | tail -n 1 | sed -n 's/^\[ *\([0-9.]*\)\].*/\1/p')
}

# dmesg_new : the kernel messages after the last dmesg_mark
dmesg_new() {
	dmesg | awk -v m="${_dmesg_mark:-0}" '{
		t = $0; sub(/^\[ */, "", t); sub(/\].*/, "", t)
		if (t + 0 > m + 0) print }'
}

# dmesg_has PATTERN : a kernel message since the last dmesg_mark matches
dmesg_has() {
	dmesg_new | grep -q "$1"
}

# sysbench_eps CPU SECONDS : sysbench cpu events per second on one pinned CPU
sysbench_eps() {
	taskset -c "$1" sysbench cpu --cpu-max-prime=5000 --threads=1 --time="$2" run 2>/dev/null |
		awk '/events per second/ { print $4 }'
}

# busy_freq CPU SECONDS : the frequency of CPU's policy after SECONDS of a
# busy loop pinned there (CPU n has policy n: one policy per CPU)
busy_freq() {
	taskset -c "$1" sh -c 'while :; do :; done' &
	_loop=$!
	sleep "$2"
	cat $CPUFREQ/policy"$1"/scaling_cur_freq
	kill $_loop
	wait $_loop 2>/dev/null
}

set_gov() {
	echo "$2" >$CPUFREQ/policy$1/scaling_governor
}

set_speed() {
	echo "$2" >$CPUFREQ/policy$1/scaling_setspeed
}

# fmax_of POLICY / fmin_of POLICY : the policy's frequency range in kHz,
# as its driver declares it
fmax_of() {
	cat $CPUFREQ/policy$1/cpuinfo_max_freq
}

fmin_of() {
	cat $CPUFREQ/policy$1/cpuinfo_min_freq
}

# mod_loaded NAME : is module NAME loaded?
mod_loaded() {
	grep -q "^$1 " /proc/modules
}

# ours_loaded : the names of our modules still loaded, one per line
ours_loaded() {
	awk '$1 ~ /^(utiltrack_ewma|utiltrack|vcpufreq_twin|vcpufreq)$/ { print $1 }' /proc/modules
}

load_vcpufreq() {
	insmod $UT/vcpufreq.ko "$@"
}

# ut_insmod_optional NAME [ARGS...] : a stock module that the image
# carries but init does not load (tools/vm/run, OPTIONAL_MODULES), ARGS
# its parameters, after the modules listed before it (its dependencies;
# with more than one optional module, the earlier ones' too)
ut_insmod_optional() {
	_name=$1
	shift
	while read -r _ko; do
		# /proc/modules spells dashes as underscores
		_m=$(basename "$_ko" .ko | tr - _)
		if [ "$_m" = "$_name" ]; then
			mod_loaded "$_m" || insmod "$_ko" "$@"
			return
		fi
		mod_loaded "$_m" || insmod "$_ko" || return 1
	done </etc/utiltrack/optional
	return 1
}

# Under multi-threaded QEMU TCG a vCPU may run code translated before the
# kernel finished live-patching a tracepoint call site (text_poke_bp) and
# oops on the stale int3 (docs/safety.md, "Static keys under QEMU TCG").
# A site is patched twice over: its static key when the tracepoint gets
# its first probe or loses its last, and its static call when it goes
# from one probe (called directly) to two (called through the iterator)
# or back. Two silent trace instances holding the same events give each
# tracepoint at least two probes for the whole session, so a probe of
# ours coming or going (a load, a tracker switched, the governor's
# sched_waking) patches neither; tools/tests/vm/keys.sh covers the flips
# in a boot of its own. UT_KEEPALIVE=0 turns this off.
UT_KEEPALIVE_INSTANCES="utiltrack-keepalive utiltrack-keepalive2"

# keep_events_on EVENT... : EVENT (sched/sched_switch, or a whole system
# such as utiltrack) enabled in both keep-alive instances, not recorded
keep_events_on() {
	[ "${UT_KEEPALIVE:-1}" = 0 ] && return 0
	for _n in $UT_KEEPALIVE_INSTANCES; do
		_i=/sys/kernel/tracing/instances/$_n
		mkdir -p $_i 2>/dev/null || return 0
		echo 0 >$_i/tracing_on
		for _e; do
			echo 1 >$_i/events/$_e/enable 2>/dev/null
		done
	done
}

keep_sched_tracepoints_on() {
	keep_events_on sched/sched_switch sched/sched_waking sched/sched_wakeup \
		sched/sched_wakeup_new sched/sched_migrate_task \
		sched/sched_process_fork sched/sched_process_exec \
		sched/sched_process_free power/cpu_frequency
}

# guest_session_start : the test shell and every helper it forks (awk,
# cat, sleep) stay on CPU0, so CPU1 is quiet for the workloads pinned
# there; the scheduler tracepoints are kept on (UT_KEEPALIVE=0 leaves
# them off: the path users take); rt-app's files have their directory.
guest_session_start() {
	taskset -p 1 $$ >/dev/null
	keep_sched_tracepoints_on
	mkdir -p $J
}

# abba_order ROUND CONFIG... : the configurations in the order of ROUND:
# rotated by ROUND, reversed every other round, so that over the rounds
# each runs early and late, before and after each other one (the
# benchmarks' interleaving)
abba_order() {
	_r=$1
	shift
	_rot="" _i=0
	while [ $_i -lt $# ]; do
		_j=$(((_i + _r) % $# + 1))
		eval "_rot=\"\$_rot \${$_j}\""
		_i=$((_i + 1))
	done
	if [ $((_r % 2)) = 0 ]; then
		for _c in $_rot; do echo "$_c"; done | tac | tr '\n' ' '
	else
		echo $_rot
	fi
}

# ut_cpu CPU COLUMN : a column of utiltrack's cpus table
ut_cpu() {
	col $UTD/cpus cpu "$1" "$2"
}

# ut_stat NAME : a value of utiltrack's stats
ut_stat() {
	col $UTD/stats name "$1" value
}

# kernel_cfs_util CPU [FIELD [FILE]] : the kernel's root cfs_rq util_avg
# of CPU, or another of its sched/debug fields (.runnable_avg), from
# sched/debug or a copy of it
kernel_cfs_util() {
	awk -v want="cfs_rq[$1]:/" -v field="${2:-.util_avg}" '
		$1 == want { in_rq = 1; next }
		in_rq && $1 == field { print $3; exit }
		/^cfs_rq|^rt_rq|^dl_rq/ { in_rq = 0 }' "${3:-$SCHED_DEBUG}"
}

# cfs_pair CPU COL FIELD FIRST : "ours kernel", CPU's COL from utiltrack's
# cpus file and FIELD of the kernel's root cfs_rq (.util_avg,
# .runnable_avg). One awk copies both files, so the reads are a file
# apart, not a fork apart (~0.25 s on the debug kernel, several ms on a
# busy host); FIRST (ours or kernel) is the one read first, so callers
# alternate it and the lag cancels. The copies are parsed by the usual
# helpers.
cfs_pair() {
	local cpu=$1 ucol=$2 kfield=$3

	if [ "$4" = ours ]; then
		set -- $UTD/cpus $SCHED_DEBUG
	else
		set -- $SCHED_DEBUG $UTD/cpus
	fi
	awk -v utd="$UTD/cpus" '
		{ print > (FILENAME == utd ? "/tmp/cp_ours" : "/tmp/cp_kern") }' \
		"$1" "$2"
	echo "$(col /tmp/cp_ours cpu "$cpu" "$ucol")" \
	     "$(kernel_cfs_util "$cpu" "$kfield" /tmp/cp_kern)"
}

# tid_of NAME : the thread id whose comm is NAME (first match)
tid_of() {
	for f in /proc/[0-9]*/task/[0-9]*/comm; do
		if [ "$(cat "$f" 2>/dev/null)" = "$1" ]; then
			f=${f%/comm}
			echo "${f##*/}"
			return 0
		fi
	done
	return 1
}

# shadow_cell FILE POLICY SIGNAL COLUMN : a cell of a copy of debugfs
# "shadow" (docs/governor.md), the column found by its header's name
shadow_cell() {
	awk -v p="$2" -v s="$3" -v c="$4" '
		$1 == "policy" { for (i = 1; i <= NF; i++) h[$i] = i; next }
		h["signal"] && $1 == p && $h["signal"] == s { print $h[c] }' "$1"
}

# mean_of FILE : mean of the numbers in FILE, one per line; nothing when
# a line is not a number (see median_of)
mean_of() {
	measured "$1" || return 1
	awk '{ s += $1; n++ } END { if (n) printf "%.1f", s / n }' "$1"
}

# measured FILE : every line of FILE is a number (a blank line is a
# measurement that did not happen)
measured() {
	! grep -qvE '^-?[0-9]+(\.[0-9]+)?$' "$1"
}

# sd_of FILE : sample standard deviation of the numbers in FILE (the
# guest's busybox awk has no sqrt(): Newton's iteration)
sd_of() {
	measured "$1" || return 1
	awk '{ s += $1; q += $1 * $1; n++ }
		END {
			if (n < 2)
				exit
			v = (q - s * s / n) / (n - 1)
			r = v > 1 ? v : 1
			for (i = 0; i < 60 && v > 0; i++)
				r = (r + v / r) / 2
			printf "%.1f", (v > 0 ? r : 0)
		}' "$1"
}

both_measured() {
	measured "$1" && measured "$2"
}

# median_of FILE : median of the numbers in FILE; nothing when a line is
# not a number, so a check of the median fails rather than passing on the
# measurements that happened (callers also check measured FILE, which
# counts on the debug kernel too, where timing checks are skipped)
median_of() {
	measured "$1" || return 1
	sort -n "$1" | awk '{ v[NR] = $1 } END {
		if (NR) printf "%.1f", NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# emu_estimate FILE F FMAX : "R SE N" for a throughput emulation run.
# FILE holds "round khz events/s" lines, every round with one run at F and
# one at FMAX. R is the ratio of the summed events/s at F to those at
# FMAX, over the ideal F/FMAX (1 = exact); SE is its standard error by
# the ratio estimator's linearisation, from the spread of the rounds'
# residuals s_i - R' m_i ("-" for one round); N is the number of rounds. Under QEMU TCG one
# 1 s run scatters by ~16 % at any OPP, flipping between a fast and a
# slow host speed within a second, so rounds are independent and only
# their number brings the SE down (~0.26/sqrt(N) at fmin).
emu_estimate() {
	awk -v f="$2" -v fmax="$3" '
		# busybox awk has no math library: Newton for the root
		function root(x,  y, i) {
			if (x <= 0)
				return 0
			y = x < 1 ? 1 : x
			for (i = 0; i < 60; i++)
				y = (y + x / y) / 2
			return y
		}
		$2 == fmax { m[$1] = $3 }
		$2 == f { s[$1] = $3 }
		END {
			for (r in s)
				if (r in m) { n++; sm += m[r]; ss += s[r] }
			if (!n) { print "0 - 0"; exit }
			q = ss / sm
			ideal = f / fmax
			if (n < 2) { printf "%.4f - 1\n", q / ideal; exit }
			for (r in s)
				if (r in m) v += (s[r] - q * m[r]) * (s[r] - q * m[r])
			se = root(v / (n - 1) / n) / (sm / n)
			printf "%.4f %.4f %d\n", q / ideal, se / ideal, n
		}' "$1"
}

# emu_rounds CPU FILE FROM TO F... : rounds FROM..TO of a 1 s sysbench run
# on CPU at each F in turn (CPU's policy under userspace), appended to
# FILE as "round khz events/s" lines for emu_estimate
emu_rounds() {
	_rc=$1 _rf=$2 _rr=$3 _rto=$4
	shift 4
	while [ "$_rr" -le "$_rto" ]; do
		for _f in "$@"; do
			set_speed $_rc $_f
			echo "$_rr $_f $(sysbench_eps $_rc 1)" >>"$_rf"
		done
		_rr=$((_rr + 1))
	done
}

# emu_calibrate CPU [ROUNDS] : fit vcpufreq's overhead_us to this host.
# Per period P the emulation spins (1 - f/fmax)(P - o), o being what a
# period costs the task at fmax (vcpufreq.c); where its estimate of o
# is off, fmin's throughput is off its ideal, and the same model says
# by how much: measured at q times the ideal r = fmin/fmax, the o that
# would have given r is P - (1 - r)(P - o) / (1 - q r). So: fix o at
# the current estimate, measure fmin against fmax in ROUNDS / 3
# interleaved rounds of 1 s sysbench runs (emu_estimate), solve for o,
# and do it once more from there in ROUNDS (default 36) rounds; that o
# stays set. The first fit only comes near (the estimate may be 100 us
# off, where the model's linearisation is loose); the second sets the
# precision: an SE of 0.03 there is ~10 us of o, ~3 % at fmin. o is close
# to what a period costs any CPU-bound task, not sysbench's alone: with o
# fixed at 40, 70 and 100 us, sysbench and stress-ng's int64 and
# matrixprod loops read fmin within 3-6 % of one another (6.1, 16
# interleaved rounds, SE 0.02-0.05: 0.90 / 0.93 / 0.86, 0.99 / 1.02 /
# 1.06, 1.11 / 1.07 / 1.11), so a fit on one loop leaves another a few
# percent off (fitted on stress-ng, sysbench read fmin 0.93 and 0.95 of
# its ideal on 6.1 and 6.12). CPU's policy (one per CPU) is left at
# fmax under userspace. Takes ~ROUNDS * 3.5 s.
emu_calibrate() {
	_c=$1
	_nlast=${2:-36}
	_fmin=$(cat $CPUFREQ/policy$_c/cpuinfo_min_freq)
	_fmax=$(cat $CPUFREQ/policy$_c/cpuinfo_max_freq)
	_p=$(cat /sys/module/vcpufreq/parameters/period_us)
	set_gov $_c userspace
	set_speed $_c $_fmax
	sysbench_eps $_c 1 >/dev/null	# warm up QEMU's translation cache
	_o=$(col $DBG/vcpufreq/cpus cpu $_c overhead_us)
	for _n in $((_nlast / 3)) $_nlast; do
		echo $_o >$DBG/vcpufreq/overhead_us
		: >/tmp/emu_cal
		emu_rounds $_c /tmp/emu_cal 1 $_n $_fmax $_fmin
		set -- $(emu_estimate /tmp/emu_cal $_fmin $_fmax)
		_on=$(awk -v q="$1" -v o="$_o" -v p="$_p" -v lo=$_fmin -v hi=$_fmax '
			BEGIN {
				r = lo / hi
				x = p - (1 - r) * (p - o) / (1 - q * r)
				x = x < 1 ? 1 : (x > p / 2 ? p / 2 : x)
				printf "%d", x + 0.5
			}')
		echo "emu_calibrate: cpu$_c overhead_us $_o: fmin at $1 of its ideal (SE $2, $3 rounds) -> $_on"
		_o=$_on
	done
	echo $_o >$DBG/vcpufreq/overhead_us
	set_speed $_c $_fmax
}

# ------------------------------------------------------------------
# rt-app loads (any suite)


# rtapp_json FILE NAME POLICY SECONDS PHASES : one thread pinned to CPU1,
# cycling through PHASES until SECONDS have passed. (rt-app 1.0 runs a
# thread's phases "loop" - 1 times, so the duration bounds the run.)
rtapp_json() {
	prio=
	[ "$3" = SCHED_OTHER ] || prio='"priority": 50,'
	cat >"$1" <<JSON
{
	"global": { "calibration": 100, "default_policy": "SCHED_OTHER",
		    "logdir": "/tmp", "log_size": "disable", "duration": $4 },
	"tasks": { "$2": { "policy": "$3", $prio "cpus": [1],
			   "phases": { $5 } } }
}
JSON
}

# phase NAME RUNTIME_US PERIOD_US LOOPS
phase() {
	echo "\"$1\": { \"loop\": $4, \"runtime\": $2, \"timer\": { \"ref\": \"t$1\", \"period\": $3 } }"
}

# shadow_phases : rt-app phases that move the frequency both ways under
# any mapping, for the shadow's comparisons (tests and bench): 9 ms every
# 10 ms for 0.6 s (above 80 %, where a non-invariant request climbs from
# the current frequency), 1 ms every 20 ms for 0.4 s, 5 ms every 10 ms
# for 0.4 s
shadow_phases() {
	echo "$(phase a 9000 10000 60), $(phase b 1000 20000 20), $(phase c 5000 10000 40)"
}

# light_mix_json FILE ARRANGEMENT : the demo's light load on CPU1 for
# 3 s as rt-app JSON: a SCHED_FIFO task running 1 ms every 10 ms that
# then wakes a CFS task running 3 ms. Both are "run" work, times at fmax
# (light_mix_calibrate), so at a lower frequency they take longer, as on
# hardware: a governor saves energy only by making the CFS task late.
# The FIFO task wakes the CFS one because two free timers fall into
# whatever phase the threads' start-up gives them, and the governors'
# figures follow that phase (schedutil's differ by 2x between runs):
#   rtfirst  the CFS task runs as soon as the FIFO one sleeps
#   apart    the CFS task sleeps 1 ms first, so the CPU idles in between
# rt-app keeps each task's periods in /tmp/lm-*.log (light_mix_cfs).
light_mix_json() {
	_gap=
	[ "$2" = apart ] && _gap='"sleep": 1000,'
	cat >"$1" <<JSON
{
	"global": { "calibration": ${LM_NS_PER_LOOP:-100}, "logdir": "/tmp", "log_basename": "lm",
		    "log_size": 1, "duration": 3 },
	"tasks": {
		"fifo10": { "policy": "SCHED_FIFO", "priority": 50, "cpus": [1],
			    "phases": { "f": { "loop": 300, "run": 1000, "resume": "cfs30",
					       "timer": { "ref": "tf", "period": 10000 } } } },
		"cfs30": { "policy": "SCHED_OTHER", "cpus": [1],
			   "phases": { "c": { "loop": 300, "suspend": "cfs30", $_gap "run": 3000 } } }
	}
}
JSON
}

# light_mix_calibrate : LM_NS_PER_LOOP, rt-app's cost of one loop of
# "run" work on CPU1 (at its current frequency: fmax for the load's
# times to be at fmax). Under TCG it is several times rt-app's nominal
# 100 ns, and 1 ms of nominal work would take 3 ms.
light_mix_calibrate() {
	rtapp_json $J/lm_cal.json cal SCHED_OTHER 1 "$(phase c 1000 10000 10)"
	sed -i 's/"calibration": 100/"calibration": "CPU1"/' $J/lm_cal.json
	LM_NS_PER_LOOP=$(rt-app $J/lm_cal.json 2>&1 | sed -n 's/.*pLoad = \([0-9]*\)ns.*/\1/p' | head -n 1)
	[ -n "$LM_NS_PER_LOOP" ]
}

# light_mix_run JSON : one light-mix run on policy1, as "TRANS MEAN_KHZ
# ENERGY_UJ FRAMES CFS_P50_US CFS_P90_US" (the last three from
# light_mix_cfs, missing if rt-app logged nothing); fails if rt-app does
light_mix_run() {
	rm -f /tmp/lm-*.log
	cp $CPUFREQ/policy1/stats/time_in_state /tmp/tis0
	_lt0=$(cat $CPUFREQ/policy1/stats/total_trans)
	_le0=$(awk '$1 == 1 { print $8 }' $DBG/vcpufreq/energy)
	rt-app "$1" >/dev/null 2>&1 || return 1
	_le1=$(awk '$1 == 1 { print $8 }' $DBG/vcpufreq/energy)
	echo $(($(cat $CPUFREQ/policy1/stats/total_trans) - _lt0)) \
		"$(tis_mean_khz /tmp/tis0 1)" $((_le1 - _le0)) $(light_mix_cfs)
}

# light_mix_cfs : "PERIODS RUN_P50_US RUN_P90_US" of the CFS task's last
# light-mix run: the periods it completed and how long its 3 ms of work
# took (rt-app's log; a period whose wakeup came while it still ran is
# lost, as a frame would be)
light_mix_cfs() {
	cat /tmp/lm-cfs30*.log 2>/dev/null | awk '!/^#/ && NF > 3 { print $3 }' | sort -n |
		awk '{ v[NR] = $1 } END { if (NR) printf "%d %d %d\n", NR, v[int((NR + 1) / 2)], v[int((NR * 9 + 9) / 10)] }'
}

# tis_mean_khz BEFORE POLICY : the mean frequency of POLICY since BEFORE
# (a copy of its stats/time_in_state), weighted by time
tis_mean_khz() {
	awk 'NR == FNR { b[$1] = $2; next }
		{ d = $2 - b[$1]; s += $1 * d; n += d } END { if (n) printf "%d", s / n }' \
		"$1" $CPUFREQ/policy$2/stats/time_in_state
}

# rtapp_thread PID : the worker thread of rt-app process PID (not main)
rtapp_thread() {
	for _try in 1 2 3 4 5 6 7 8 9 10; do
		for t in /proc/$1/task/*; do
			[ "${t##*/}" != "$1" ] && { echo "${t##*/}"; return 0; }
		done
		sleep 0.2
	done
	return 1
}

# exec_ns TID [WAIT] : CPU time of a thread so far (plus its time waiting
# on a runqueue, with WAIT)
exec_ns() {
	awk -v w="${2:-0}" '{ print $1 + (w ? $2 : 0) }' /proc/"$1"/schedstat 2>/dev/null
}

# overhead_us POLICY RUNTIME_US PERIOD_US [WAIT] : what one period of an
# rt-app "runtime" loop costs beyond RUNTIME (wakeup, timer, rt-app's own
# bookkeeping; with WAIT, the wait for the CPU too). Under TCG that is
# several hundred microseconds, enough to turn a nominal 50 % duty into
# 58 %: the tests subtract it so the task really runs the duty they name.
overhead_us() {
	rtapp_json $J/cal.json cal "$1" 5 "$(phase c "$2" "$3" 1000)"
	rt-app $J/cal.json >/dev/null 2>&1 &
	_ra=$!
	_t=$(rtapp_thread $_ra)
	sleep 1.5	# past rt-app's start-up (page faults, mlock)
	_e0=$(exec_ns "$_t" "$4")
	_u0=$(awk '{ print $1 }' /proc/uptime)
	sleep 1.5
	_e1=$(exec_ns "$_t" "$4")
	_u1=$(awk '{ print $1 }' /proc/uptime)
	kill $_ra
	wait $_ra
	awk -v d="$((_e1 - _e0))" -v t="$_u0" -v u="$_u1" -v r="$2" -v p="$3" \
		'BEGIN { o = d / 1000 / ((u - t) * 1000000 / p) - r
			 printf "%d", (o > 0 ? o : 0) }'
}
