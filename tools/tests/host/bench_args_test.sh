#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# bench_args_test.sh - tools/bench/run refuses bad input before anything
# builds or boots: exit status 2, a message naming the input, the valid
# choices listed, and no output directory written.
set -u
run=$(dirname "$0")/../../bench/run
tmp=$(mktemp -d)
pass=0 failn=0

# refused NAME PATTERN ARGS... : run exits 2, its stderr matches PATTERN,
# and it wrote nothing to its --out directory
refused() {
	name=$1 pat=$2
	shift 2
	err=$("$run" --out "$tmp/out" "$@" 2>&1 >/dev/null)
	rc=$?
	if [ $rc = 2 ] && echo "$err" | grep -qE -- "$pat" && [ ! -e "$tmp/out" ]; then
		pass=$((pass + 1))
	else
		echo "not ok bench args: $name (exit $rc, out dir $([ -e "$tmp/out" ] && echo written || echo absent))"
		echo "$err" | sed 's/^/  /'
		failn=$((failn + 1))
	fi
	rm -rf "$tmp/out"
}

refused "unknown scenario, valid ones listed" \
	"unknown scenario 'nosuch'.*|scenarios: messaging latency rt-mix light-mix capacity stats-check overhead" nosuch
refused "a known scenario beside an unknown one" "unknown scenario 'x'" messaging x
refused "--reps below 2" "--reps wants a number >= 2, not '1'" --reps 1 messaging
refused "--reps not a number" "--reps wants a number >= 2, not '5x'" --reps 5x
refused "--noise not a percentage" "--noise wants a percentage, not 'abc'" --noise abc
refused "--configs with a character no configuration has" \
	"--configs wants names like ut:walt:max:hispeed_load=60, not 'ut:walt;reboot'" --configs "ut:walt;reboot"
refused "--configs empty" "--configs wants names like" --configs ""
refused "--configs of spaces only" "--configs wants names like" --configs "  "
refused "--configs with two scenarios" "--configs wants exactly one scenario" --configs "schedutil" messaging latency
refused "unknown option" "unknown option '--fast'" --fast
refused "unknown kernel, installed ones listed" \
	"no installed kernel matches '9\.99'" --kernel 9.99 messaging
refused "unknown board, the boards of dts/ listed" \
	"unknown --board 'nosuch' \(choices: .*mt8173-2x2" --board nosuch capacity
refused "--kernel with --board" "--kernel and --board exclude each other" \
	--kernel 6.1 --board mt8173-2x2 capacity

rm -rf "$tmp"
echo "bench args: $pass passed, $failn failed"
[ $failn = 0 ]
