# SPDX-License-Identifier: GPL-2.0
#
# kmemleak.sh - run last, on the debug kernel: nothing the suites did
# leaked. The prologue of run-all cleared the boot's reports; objects
# are reported once unreferenced for 5 s, so wait that long, then scan
# twice (a second scan confirms what the first suspected).

t_plan 2

# every suite unloads what it loaded: one that did not is a failure, and
# the scan below must not run with our objects still referenced
left=$(ours_loaded)
t_check "kmemleak: the suites left none of our modules loaded" "left: $left" \
	test -z "$left"
# shellcheck disable=SC2086
[ -z "$left" ] || ut_rmmod $left

if [ -w $DBG/kmemleak ]; then
	sleep 6
	echo scan >$DBG/kmemleak
	sleep 1
	echo scan >$DBG/kmemleak
	cat $DBG/kmemleak >/out/kmemleak.txt
	t_check "kmemleak: no leak reports after all suites" \
		"$(grep -c 'unreferenced object' /out/kmemleak.txt) objects, see kmemleak.txt" \
		[ ! -s /out/kmemleak.txt ]
else
	t_fail "kmemleak: no leak reports after all suites" "no $DBG/kmemleak on this kernel"
fi
