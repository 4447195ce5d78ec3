# SPDX-License-Identifier: GPL-2.0
#
# faults.sh - fault injection on the debug kernel (CONFIG_FAILSLAB,
# CONFIG_FAIL_PAGE_ALLOC): every allocation made while loading a module,
# enabling a tracker and starting the governor is failed in turn, with the
# failnth helper. Each attempt must either succeed (a fallback covered the
# failure) or answer an errno and leave the old state whole; kmemleak.sh
# and the harness's scan then find no leak and no report.
#
# The kernel's own diagnostic dump of a failed allocation (warn_alloc,
# kobject's dump_stack) is expected here: the guest brackets the suite
# with "utiltrack-faults: begin/end" kernel messages, inside which the
# harness tolerates stack dumps made by dump_stack() only. WARN, BUG,
# KASAN and lockdep reports still fail the run.

t_plan 16

FN=/utiltrack/files/helpers/failnth
FAULT_MAX=${FAULT_MAX:-6000}
# Every allocation in turn (STRESS_FULL=1, make stress) or, in make check,
# every FAULT_STEP-th from a random start (printed, FAULT_START=K repeats
# it): a failed load on the debug kernel takes seconds (the unwinding
# waits for RCU grace periods), and a load makes hundreds of allocations.
if [ "${STRESS_FULL:-0}" = 1 ]; then
	FAULT_STEP=${FAULT_STEP:-1}
else
	FAULT_STEP=${FAULT_STEP:-20}
fi
FAULT_START=${FAULT_START:-$((1 + RANDOM % FAULT_STEP))}

fault_setup() {
	for _f in $DBG/failslab $DBG/fail_page_alloc; do
		[ -d $_f ] || return 1
		echo N >$_f/ignore-gfp-wait
		echo 0 >$_f/verbose
	done
	echo N >$DBG/fail_page_alloc/ignore-gfp-highmem
	echo 0 >$DBG/fail_page_alloc/min-order
	echo "utiltrack-faults: begin" >/dev/kmsg
}

fault_teardown() {
	echo "utiltrack-faults: end" >/dev/kmsg
}

# The per-operation probes: each takes N, runs the operation with its
# Nth allocation failed, sets $inj and $rc, and sets $bad to a reason
# when the state afterwards is not the old one (rc < 0) or the new one
# (rc = 0); it then restores the old state for the next N.
fault_run() {
	_o=$($FN "$@")
	inj=${_o#injected=}
	inj=${inj%% *}
	rc=${_o##*rc=}
	[ -n "$inj" ] && [ -n "$rc" ] || bad="failnth said '$_o'"
}

fault_insmod_vcpufreq() {
	fault_run "$1" insmod $UT/vcpufreq.ko || return
	if [ "$rc" = 0 ]; then
		[ -d $CPUFREQ/policy0 ] || bad="loaded without a policy"
		rmmod vcpufreq || bad="rmmod after a load that succeeded"
	else
		! mod_loaded vcpufreq || bad="still loaded after rc $rc"
		[ ! -d $CPUFREQ/policy0 ] || bad="a policy left after rc $rc"
	fi
}

fault_insmod_utiltrack() {
	fault_run "$1" insmod $UT/utiltrack.ko || return
	if [ "$rc" = 0 ]; then
		# debugfs is best effort (the module loads without it, as
		# with debugfs=off): a file that failed is absorbed
		if [ -e $UTD/trackers ]; then
			[ "$(grep -c enabled $UTD/trackers)" = 3 ] ||
				bad="loaded without its trackers enabled"
		fi
		rmmod utiltrack || bad="rmmod after a load that succeeded"
	else
		! mod_loaded utiltrack || bad="still loaded after rc $rc"
		[ ! -d $UTD ] || bad="debugfs dir left after rc $rc"
	fi
}

fault_enable_walt() {
	fault_run "$1" write $UTD/trackers "enable walt" || return
	if [ "$rc" = 0 ]; then
		grep -q '^walt .*enabled' $UTD/trackers || bad="walt not enabled after rc 0"
		echo "disable walt" >$UTD/trackers || bad="disable after enable"
	else
		! grep -q '^walt .*enabled' $UTD/trackers || bad="walt enabled after rc $rc"
	fi
	[ "$(grep -c enabled $UTD/trackers)" = 2 ] || bad="pelt and rt not both enabled"
}

fault_gov_start() {
	fault_run "$1" write $CPUFREQ/policy1/scaling_governor utiltrack || return
	_g=$(cat $CPUFREQ/policy1/scaling_governor)
	if [ "$rc" = 0 ]; then
		[ "$_g" = utiltrack ] || bad="governor $_g after rc 0"
	else
		[ "$_g" = performance ] || bad="governor $_g after rc $rc"
	fi
	set_gov 1 performance || bad="back to performance failed"
}

# fault_sweep NAME PROBE [STEP START] : N = START, START + STEP, ... (1, 1)
# until the operation runs with no allocation failed; then the checks
fault_sweep() {
	_step=${3:-1}
	_n=${4:-1} _tried=0 _errs=0 _fallbacks=0 _codes="" bad=""
	while [ $_n -le $FAULT_MAX ]; do
		$2 $_n
		[ -z "$bad" ] || break
		[ "$inj" = 1 ] || break
		if [ "$rc" = 0 ]; then
			_fallbacks=$((_fallbacks + 1))
		else
			_errs=$((_errs + 1))
			case " $_codes " in *" $rc "*) ;; *) _codes="$_codes $rc" ;; esac
		fi
		_tried=$((_tried + 1))
		_n=$((_n + _step))
	done
	t_say "faults: $1: allocation N failed for N = ${4:-1}, +$_step, ... ($_tried injected, the op makes < $_n): $_errs errors ($_codes ), $_fallbacks recovered"
	t_check "faults: $1: state whole after every failure" "at N=$_n: $bad" \
		test -z "$bad"
	t_check "faults: $1: succeeds once nothing fails" \
		"N=$_n: injected=$inj rc=$rc (FAULT_MAX $FAULT_MAX)" \
		test "$inj" = 0 -a "$rc" = 0
	# a sample may hit only allocations whose failure is absorbed
	if [ $_step = 1 ]; then
		t_check "faults: $1: some allocation failed with an errno" \
			"$_errs errors in $_tried injections" test $_errs -gt 0
	else
		t_skip "faults: $1: some allocation failed with an errno" \
			"a sample ($_errs errors in $_tried); make stress sweeps all"
	fi
	t_check "faults: $1: every error is an errno" "codes:$_codes" \
		sh -c "for c in $_codes; do [ \$c -lt 0 ] && [ \$c -ge -4095 ] || exit 1; done"
}

test_faults() {
	if ! fault_setup; then
		t_fail "faults: fault injection available" "no $DBG/failslab or fail_page_alloc"
		return
	fi
	t_say "faults: module loads sampled every $FAULT_STEP from $FAULT_START (FAULT_STEP, FAULT_START)"
	fault_sweep "insmod vcpufreq" fault_insmod_vcpufreq $FAULT_STEP $FAULT_START
	load_vcpufreq || t_fail "faults: insmod vcpufreq" "insmod failed"
	fault_sweep "insmod utiltrack" fault_insmod_utiltrack $FAULT_STEP $FAULT_START
	insmod $UT/utiltrack.ko || t_fail "faults: insmod utiltrack" "insmod failed"
	echo "disable walt" >$UTD/trackers
	fault_sweep "enable walt" fault_enable_walt
	echo "enable walt" >$UTD/trackers
	set_gov 1 performance
	fault_sweep "governor start" fault_gov_start
	fault_teardown
	ut_rmmod utiltrack vcpufreq
}

test_faults
