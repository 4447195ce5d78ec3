#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# report_test.sh - tools/tests/vm/report.awk on a console with a known
# report: which lines reach the summary and which do not.
set -u
awkf=$(dirname "$0")/../vm/report.awk
in=$(mktemp)
pass=0 failn=0

# has NAME REGEX : some line of the excerpt matches
has() {
	if echo "$out" | grep -qE "$2"; then
		pass=$((pass + 1))
	else
		echo "not ok report.awk: $1"
		echo "$out" | sed 's/^/  /'
		failn=$((failn + 1))
	fi
}

# lacks NAME REGEX : no line of the excerpt matches
lacks() {
	if echo "$out" | grep -qE "$2"; then
		echo "not ok report.awk: $1"
		echo "$out" | sed 's/^/  /'
		failn=$((failn + 1))
	else
		pass=$((pass + 1))
	fi
}

cat >"$in" <<'CONSOLE'
TEST [12.00] ok vcpufreq loads
[   13.000000] utiltrack-faults: begin
[   13.100000] WARNING: CPU: 0 PID: 80 at kernel/trace/trace_events.c:170 event_define_fields+0x1/0x2
[   13.100000] Call Trace:
[   13.100000]  dump_stack_lvl+0x1/0x2
[   13.200000] utiltrack-faults: end
TEST [386.58] ok debugfs utiltrack/ removed
[  416.501000] traps: PANIC: double fault, error_code: 0x0
[  416.501937] Oops: double fault: 0000 [#1] PREEMPT SMP NOPTI
[  416.501937] CPU: 1 UID: 0 PID: 612 Comm: hackbench Tainted: G           OE      6.12.118+deb12-amd64 #1
[  416.501937] Hardware name: QEMU Standard PC (i440FX + PIIX, 1996)
[  416.501937] RIP: 0010:__kmalloc_node_track_caller_noprof+0x21a/0x440
[  416.501937] Code: 48 8b 4c 24 08 e9 aa aa
[  416.501937] RSP: 0018:ffffb0c7c0a0bff8 EFLAGS: 00010246
[  416.501937] RAX: 0000000000000000 RBX: 0000000000000000
[  416.501937] CR2: ffffb0c7c0a0bfe8 CR3: 000000000abcd000 CR4: 00000000003506f0
[  416.501937] Call Trace:
[  416.501937]  <#DF>
[  416.501937]  ? die+0x36/0x90
[  416.501937]  </#DF>
[  416.501937]  <TASK>
[  416.501937]  kmalloc_reserve+0x5e/0x100
[  416.501937]  __alloc_skb+0x90/0x180
[  416.501937]  </TASK>
[  416.501937] Modules linked in: vcpufreq(OE) cpufreq_ondemand
[  416.502000] Kernel panic - not syncing: Fatal exception
CONSOLE
out=$(awk -f "$awkf" "$in")
has "the first line is the report's first" '^\[  416.501000\] traps: PANIC: double fault'
has "a report's title" 'Oops: double fault'
has "the task" 'Comm: hackbench'
has "RIP" 'RIP: 0010:__kmalloc_node_track_caller_noprof\+0x21a'
has "RSP" 'RSP: 0018:'
has "CR2" 'CR2: ffffb0c7c0a0bfe8'
has "a frame of the call trace" '__alloc_skb\+0x90/0x180'
has "the stack's kind" '<#DF>'
has "the modules loaded" 'Modules linked in: vcpufreq'
has "the panic" 'Kernel panic - not syncing'
lacks "the fault sweep's expected WARNING" 'event_define_fields|dump_stack_lvl'
lacks "the code bytes" 'Code:'
lacks "registers that place nothing" 'RAX:'
lacks "the checks before" '^TEST '

# a trace of 100 frames: 40 lines at most
{
	echo "[    1.0] BUG: soft lockup - CPU#0 stuck for 49s! [swapper/0:0]"
	i=0
	while [ $i -lt 100 ]; do
		echo "[    1.0]  f$i+0x1/0x2"
		i=$((i + 1))
	done
} >"$in"
out=$(awk -f "$awkf" "$in")
n=$(echo "$out" | wc -l)
if [ "$n" -eq 40 ]; then pass=$((pass + 1)); else
	echo "not ok report.awk: a long report is cut at 40 lines (got $n)"
	failn=$((failn + 1))
fi

# a console with no report: nothing
printf 'TEST [1.0] ok a\nCall Trace:\n f+0x1/0x2\n' >"$in"
out=$(awk -f "$awkf" "$in")
if [ -z "$out" ]; then pass=$((pass + 1)); else
	echo "not ok report.awk: no report, no excerpt (got: $out)"
	failn=$((failn + 1))
fi

rm -f "$in"
echo "report.awk: $pass passed, $failn failed"
[ $failn -eq 0 ]
