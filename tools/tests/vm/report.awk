# SPDX-License-Identifier: GPL-2.0
#
# report.awk - the first kernel report on a guest console, cut to the
# lines that locate it: the report's title, the task and taint, the
# registers that place a fault (RIP, RSP, CR2), the call trace and the
# modules loaded; at most 40 lines. The fault sweep's expected reports,
# between "utiltrack-faults: begin" and "end", are passed over.
#
# CI keeps only the tail of a run's output and not the console, so what
# a rare crash says must reach the summary or it is lost (run-all).

/utiltrack-faults: begin/ { sweep = 1 }
/utiltrack-faults: end/ { sweep = 0 }

function title(s) {
	return s ~ /PANIC:|Kernel panic|BUG:|Oops|general protection|WARNING:|watchdog:|rcu: INFO/
}

!on && !sweep && title($0) { on = 1 }
!on { next }

title($0) || /RIP:|RSP:|CR2:|Call Trace:|<\/?#?[A-Z]+>|Modules linked in|Tainted:/ ||
/[A-Za-z_][A-Za-z0-9_.]*\+0x[0-9a-f]+\/0x[0-9a-f]+/ {
	print
	if (++n == 40)
		exit
}
