#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# retry_test.sh - the VM suites' t_retry (tools/tests/vm/lib.sh) on test
# functions with known outcomes: which are measured again, which results
# count, that a first attempt's failures stay visible, and that the
# console rebuild (console.awk) drops the same lines the guest dropped.
set -u
vm=$(dirname "$0")/../vm
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
pass=0 failn=0

# shellcheck source=../vm/lib.sh
. "$vm/lib.sh"
RESULTS=$work/results.txt
# shellcheck disable=SC2034 # both read by lib.sh
T_TMP=$work
UT_DEBUG_KERNEL=0
: >"$RESULTS"

# calls NAME : how many times test function NAME ran
calls() {
	grep -cx "$1" "$work/calls" 2>/dev/null || echo 0
}

# first_time NAME : true on NAME's first run, and counts the run
first_time() {
	echo "$1" >>"$work/calls"
	[ "$(calls "$1")" = 1 ]
}

# a timing check that misses once, then holds
test_flaky() {
	t_ok "flaky: behaviour"
	if first_time flaky; then v=5; else v=0; fi
	t_perf_range "flaky: timing" $v 0 1
}

# a load-dependent control that misses once
test_load() {
	if first_time load; then v=1; else v=0; fi
	t_load_check "load: control" "seen $v" test $v = 0
}

# a timing check that misses every time: a defect, not noise
test_slow() {
	first_time slow || :
	t_perf_range "slow: timing" 9 0 1
}

# a failure of behaviour beside a timing one: never retried
test_broken() {
	first_time broken || :
	t_check "broken: behaviour" "wrong" false
	t_perf_range "broken: timing" 9 0 1
}

# nothing fails: runs once
test_clean() {
	first_time clean || :
	t_ok "clean: behaviour"
	t_perf_range "clean: timing" 0 0 1
}

for t in flaky load slow broken clean; do
	t_retry test_$t
done >"$work/console"

# want NAME EXPECTED ACTUAL
want() {
	if [ "$2" = "$3" ]; then
		pass=$((pass + 1))
	else
		echo "not ok t_retry: $1: '$3', want '$2'"
		failn=$((failn + 1))
	fi
}

# lines REGEX : how many results lines match
lines() {
	grep -cE "$1" "$RESULTS"
}

want "a flaky timing check is measured twice" 2 "$(calls flaky)"
want "a flaky load control is measured twice" 2 "$(calls load)"
want "a steady timing failure is measured twice" 2 "$(calls slow)"
want "a behaviour failure is not retried" 1 "$(calls broken)"
want "a clean test runs once" 1 "$(calls clean)"
want "flaky: the second attempt counts" "ok flaky: timing (0 in [0, 1])" \
	"$(grep '^ok flaky: timing' "$RESULTS")"
want "flaky: its behaviour check is counted once" 1 "$(lines '^ok flaky: behaviour$')"
want "flaky: the first failure is listed as retried" \
	"# retried test_flaky: not ok flaky: timing - 5 not in [0, 1]" \
	"$(grep '^# retried test_flaky' "$RESULTS")"
want "load: the second attempt counts" 1 "$(lines '^ok load: control$')"
want "slow: fails once in the count" 1 "$(lines '^not ok slow: timing')"
want "slow: and its first attempt is listed" 1 "$(lines '^# retried test_slow: not ok slow: timing')"
want "broken: both failures count" 2 "$(lines '^not ok broken: ')"
want "broken: nothing listed as retried" 0 "$(lines '^# retried test_broken')"
want "every check counted once (5 tests, 8 checks)" 8 "$(lines '^(ok|not ok|skip) ')"
want "the console rebuilds the same results" "$(cat "$RESULTS")" \
	"$(awk -f "$vm/console.awk" "$work/console")"
# a guest that died during a first attempt: the checks it made count
printf 'TEST [1.0] attempt test_x\r\nTEST [1.1] ok x: a\r\n' >"$work/dead"
want "a console cut in a first attempt keeps its checks" "ok x: a" \
	"$(awk -f "$vm/console.awk" "$work/dead")"

echo "t_retry: $pass passed, $failn failed"
[ "$failn" -eq 0 ]
