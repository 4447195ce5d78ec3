# SPDX-License-Identifier: GPL-2.0
#
# console.awk - a guest's results rebuilt from its console (run-all,
# when the guest dies and its /out never comes back): the "TEST [uptime]
# ..." lines lib.sh echoes, as the results file's lines. A first attempt
# that t_retry (lib.sh) dropped is dropped here too, its failures kept
# as "# retried TEST: not ok ..." lines, as the guest's own results keep
# them. Input lines may end in CR (the serial console).

function flush() {
	printf "%s", buf
	buf = ""
	try = ""
}

{ sub(/\r$/, "") }
!/^TEST \[[0-9.]*\] / { next }
{ sub(/^TEST \[[0-9.]*\] /, "") }
/^suite [^ ]+ took [0-9]+ s$/ { print "# end " $2; next }
/^suite [^ ]+$/ { print "# suite " $2; next }
/^plan [0-9]+$/ { print "# plan " $2; next }
/^attempt [^ ]+$/ { flush(); try = $2; next }
/^attempt [^ ]+ kept$/ { flush(); next }
/^attempt [^ ]+ dropped/ {
	n = split(buf, l, "\n")
	buf = ""
	for (i = 1; i <= n; i++)
		if (l[i] ~ /^not ok /)
			buf = buf "# retried " try ": " l[i] "\n"
	flush()
	next
}
/^(ok|not ok|skip) / {
	if (try != "")
		buf = buf $0 "\n"
	else
		print
}
END { flush() }
