# SPDX-License-Identifier: GPL-2.0
#
# lib.sh - the VM test suites' helpers (busybox sh): results, plans and
# checks. The guest script run-all composes is tools/vm/guest-lib.sh (the
# library the demo and benchmarks share: statistics, parsers, the
# platform's sysfs, rt-app loads), this file, guest_session_start, then
# each suite between t_suite_begin and t_suite_end.
#
# Each check appends "ok NAME", "not ok NAME - why" or "skip NAME - why"
# to /out/results.txt; the host (tools/tests/vm/run-all) counts them per
# suite against the suite's t_plan. Keep checks about behaviour:
# thresholds come from the issue, not from timings of this box.

RESULTS=/out/results.txt
# scratch files of t_retry (the host's tests of it set their own)
T_TMP=${T_TMP:-/tmp}

# the console line carries the guest uptime: where a suite spends its time
t_say() {
	read -r _up _ </proc/uptime
	echo "TEST [$_up] $*"
}

t_ok() {
	echo "ok $1" >>$RESULTS
	t_say "ok $1"
}

t_fail() {
	echo "not ok $1 - $2" >>$RESULTS
	t_say "not ok $1 - $2"
}

t_skip() {
	echo "skip $1 - $2" >>$RESULTS
	t_say "skip $1 - $2"
}

# Each suite declares how many checks it makes (t_plan N, as TAP's
# "1..N"); run-all brackets it with t_suite_begin/t_suite_end, and the
# host fails a suite whose count of ok/not ok/skip lines differs from its
# plan, or that never reached its end: a suite that stops early, or a
# branch that skips its check, cannot pass.
t_suite_begin() {
	echo "# suite $1" >>$RESULTS
	_suite_t0=$(cut -d' ' -f1 /proc/uptime)
	t_say "suite $1"
}

t_plan() {
	echo "# plan $1" >>$RESULTS
	t_say "plan $1"
}

# the suite's duration goes to the console, so a log shows where a
# stage's time went
t_suite_end() {
	echo "# end $1" >>$RESULTS
	t_say "suite $1 took $(awk -v t0="$_suite_t0" '{ printf "%.0f", $1 - t0 }' /proc/uptime) s"
}

# The KASAN + lockdep test kernel (run-all debug) runs kernel code several
# times slower, interrupts included, and its own background work keeps
# "idle" CPUs busier: checks of speed, of emulation accuracy and of a
# signal against a load's real duty are meaningless there and are skipped
# (with the value seen); they run on the stock kernels. Every check of
# behaviour runs on all.
case $(uname -r) in
*-utiltrack-debug) UT_DEBUG_KERNEL=1 ;;
*) UT_DEBUG_KERNEL=0 ;;
esac

# Repetitions of a measurement whose checks are all t_perf_range: one on
# the debug kernel, where the code paths still run under KASAN and
# lockdep but the numbers are skipped anyway.
if [ $UT_DEBUG_KERNEL = 1 ]; then UT_REPS="1"; else UT_REPS="1 2 3 4 5"; fi
UT_NREPS=$(echo $UT_REPS | wc -w)

# t_perf_range NAME VALUE LO HI : t_range, except on the debug kernel.
# A failure is a timing failure, which t_retry may measure again.
t_perf_range() {
	if [ $UT_DEBUG_KERNEL = 1 ]; then
		t_skip "$1" "timing on the debug kernel: $2 (stock kernels: $3..$4)"
	else
		t_range "$@" || echo "$1" >>$T_TMP/t_timing_failed
	fi
}

# t_load_check NAME WHY-IF-FAILED COMMAND... : t_check for a check whose
# outcome rests on a load's timing as well as on our code (a control that
# needs the load to produce an event); a timing failure, which t_retry may
# measure again. Runs on every kernel.
t_load_check() {
	t_check "$@" || echo "$1" >>$T_TMP/t_timing_failed
}

# t_retry TEST : run the test function TEST; when checks of it failed and
# every one was a timing failure (t_perf_range, t_load_check), run it once
# more and count that attempt instead. Under TCG a measurement is at the
# mercy of the host (one 1 s run scatters by ~16 %), and a stage makes
# hundreds of such checks, so a bound that a single run misses one time
# in a hundred fails CI every few runs; a second independent attempt
# squares that chance, while a real defect, which misses every time,
# still fails. The first attempt's failures stay in the results as
# "# retried TEST: ..." lines, which the host lists with the stage's
# count: a flake is visible, not hidden. A failure of behaviour (t_check,
# t_fail) is never retried. The console brackets the first attempt so
# that results rebuilt from it (run-all) drop the same lines.
t_retry() {
	_tr_mark=$(wc -l <$RESULTS)
	rm -f $T_TMP/t_timing_failed
	t_say "attempt $1"
	"$1"
	_tr_nf=$(tail -n +$((_tr_mark + 1)) $RESULTS | grep -c '^not ok ')
	_tr_nt=0
	[ ! -f $T_TMP/t_timing_failed ] || _tr_nt=$(wc -l <$T_TMP/t_timing_failed)
	rm -f $T_TMP/t_timing_failed
	if [ "$_tr_nf" -eq 0 ] || [ "$_tr_nf" -ne "$_tr_nt" ]; then
		t_say "attempt $1 kept"
		return
	fi
	head -n "$_tr_mark" $RESULTS >$T_TMP/t_retry_keep
	tail -n +$((_tr_mark + 1)) $RESULTS | grep '^not ok ' |
		sed "s/^/# retried $1: /" >>$T_TMP/t_retry_keep
	cat $T_TMP/t_retry_keep >$RESULTS
	t_say "attempt $1 dropped: $_tr_nf timing failures; measuring once more"
	"$1"
	rm -f $T_TMP/t_timing_failed
}

# bg_hackbench : start an endless hackbench in the background; pid in $hb.
# On the debug kernel 80 hackbench processes (-g 2) starve everything
# else on the CPU the test shell is pinned to: with rcu tracepoints on,
# RCU grace periods there took up to 1.2 s (p90 0.5 s), because CPU0's
# quiescent states are reported from ksoftirqd/0, which competes with
# them. A module load or unload waits for many grace periods, so one
# took from 20 s to over 5 minutes, and a kill of hackbench unblocked it
# at once: slowness, not a deadlock. Ten processes still keep the probes
# busy while modules come and go.
bg_hackbench() {
	if [ $UT_DEBUG_KERNEL = 1 ]; then
		hackbench -g 1 -f 5 -l 1000000 >/dev/null 2>&1 &
	else
		hackbench -g 2 -l 1000000 >/dev/null 2>&1 &
	fi
	hb=$!
}

# t_check NAME WHY-IF-FAILED COMMAND... : pass when COMMAND succeeds
t_check() {
	_name=$1 _why=$2
	shift 2
	if "$@"; then t_ok "$_name"; else t_fail "$_name" "$_why"; return 1; fi
}

# t_range NAME VALUE LO HI : pass when LO <= VALUE <= HI (decimals allowed)
t_range() {
	if awk -v v="$2" -v lo="$3" -v hi="$4" 'BEGIN { exit !(v != "" && v >= lo && v <= hi) }'; then
		t_ok "$1 ($2 in [$3, $4])"
	else
		t_fail "$1" "$2 not in [$3, $4]"
		return 1
	fi
}


# expect_err ERRTEXT COMMAND... : COMMAND fails, and with ERRTEXT (the
# strerror text of the one errno expected), not with just any failure
expect_err() {
	_want=$1
	shift
	if _out=$("$@" 2>&1); then
		echo "expect_err: '$*' succeeded" >&2
		return 1
	fi
	case $_out in
	*"$_want"*) return 0 ;;
	esac
	echo "expect_err: '$*' failed with '$_out', not '$_want'" >&2
	return 1
}

# absent GREP-ARGS... : grep finds no match (status 1); a missing or
# unreadable file (status 2) is not an absence
absent() {
	grep -q "$@"
	[ $? -eq 1 ]
}

# absent_kthread NAME : no task is named NAME (a kthread's comm)
absent_kthread() {
	for _c in /proc/[0-9]*/comm; do
		[ "$(cat "$_c" 2>/dev/null)" = "$1" ] && return 1
	done
	return 0
}

# ut_rmmod MODULE... : every rmmod of ours is checked; a failure fails
ut_rmmod() {
	for _m in "$@"; do
		_o=$(rmmod "$_m" 2>&1) || t_fail "rmmod $_m" "${_o:-failed}"
	done
}

# expect_errno ERRTEXT FILE STRING : writing STRING to FILE fails with ERRTEXT
expect_errno() {
	printf '%s' "$3" | dd of="$2" bs=8192 2>&1 | grep -q "error writing.*$1"
}
