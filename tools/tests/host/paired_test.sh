#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# paired_test.sh - tools/bench/paired.awk on inputs with known answers:
# medians, the order-statistic interval ranks, verdicts, failed runs.
set -u
awkf=$(dirname "$0")/../../bench/paired.awk
in=$(mktemp)
pass=0 failn=0

check() {
	if echo "$out" | grep -qE "$2"; then
		pass=$((pass + 1))
	else
		echo "not ok paired.awk: $1"
		echo "  wanted /$2/ in:"
		echo "$out" | sed 's/^/  /'
		failn=$((failn + 1))
	fi
}

# 10 rounds; base 2.0 s; "mixed" ratios 0.90..1.20, "slow" 1.10..1.19,
# "same" 0.990..1.017; "few" 5 rounds only; "bad" fails once
r=1
for m in 0.90 0.95 0.99 1.00 1.01 1.02 1.03 1.04 1.05 1.20; do
	s=$(awk -v r=$r 'BEGIN { print 1.09 + r / 100 }')
	e=$(awk -v r=$r 'BEGIN { print 0.987 + r * 3 / 1000 }')
	echo "w $r base 2.0"
	echo "w $r mixed $(awk -v m=$m 'BEGIN { print 2 * m }')"
	echo "w $r slow $(awk -v s=$s 'BEGIN { print 2 * s }')"
	echo "w $r same $(awk -v e=$e 'BEGIN { print 2 * e }')"
	[ $r -gt 5 ] || echo "w $r few 2.2"
	[ $r != 4 ] && echo "w $r bad 2.0" || echo "w $r bad FAIL"
	r=$((r + 1))
done >"$in"
out=$(awk -v target=1.005 -f "$awkf" "$in")

# n = 10: the interval is [2nd, 9th] of the sorted ratios (P = 97.9 %)
check "mixed: median of an even n, interval ranks 2 and 9" \
	'^w +mixed +10 +0 +0 +2\.03 +1\.0150 +\[0\.9500, 1\.0500\] +unresolved +unresolved'
check "slow: interval above 3 % and above the target" \
	'^w +slow +10 +0 +0 .* \[1\.1100, 1\.1800\] +slower +>1\.005'
check "same: interval inside +-3 %" '^w +same +10 +0 +0 .* same '
check "few: n = 5 gives no 95 % interval" '^w +few +5 +0 +0 .*\(n too small\)'
check "bad: a failed run is counted, the rest still paired" '^w +bad +9 +1 +0 '
check "base is the first configuration" '^w +base +10 +0 +0 +2 +1 +\(baseline\)'

# pct=1: mean, nearest-rank p90 (9th of 10) and p96 (10th); words
out=$(awk -v pct=1 -v words="higher lower" -f "$awkf" "$in")
check "pct: mean, p90 and p96 of mixed" \
	'^w +mixed +10 +0 .* unresolved +2\.038 +2\.1 +2\.4$'
check "words: the verdict says higher, not slower" '^w +slow +10 +0 +0 .* higher '

# a count that is 0 under the base: no ratio, its runs still counted
printf 't %s base 0\nt %s gov %s\n' 1 1 3 2 2 5 3 3 4 >"$in"
out=$(awk -f "$awkf" "$in")
check "base 0: runs counted, median shown, no ratio" '^t +gov +3 +0 +3 +4 +- +- +base 0'

# some rounds with a base of 0: n counts the pairs, base0 the rest
printf 'u %s base %s\nu %s gov %s\n' 1 0 1 3 2 2 2 5 3 0 3 4 4 2 4 4 >"$in"
out=$(awk -f "$awkf" "$in")
check "base0: rounds without a ratio are counted beside n" '^u +gov +2 +0 +2 +4 +2\.2500 '
check "base0: the base's zero rounds are counted" '^u +base +4 +0 +2 '

rm -f "$in"
echo "paired.awk: $pass passed, $failn failed"
[ $failn = 0 ]
