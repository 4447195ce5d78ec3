
# ------------------------------------------------------------------
# kmemleak.sh - run last, on the debug kernel: nothing the suites did
# leaked. The prologue of run-all cleared the boot's reports; objects
# are reported once unreferenced for 5 s, so wait that long, then scan
# twice (a second scan confirms what the first suspected).

if [ -w $DBG/kmemleak ]; then
	for m in utiltrack_ewma utiltrack vcpufreq_twin vcpufreq; do
		rmmod $m 2>/dev/null
	done
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
