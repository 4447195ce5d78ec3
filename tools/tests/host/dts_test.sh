#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# dts_test.sh - the boards in dts/ compile with dtc without a single
# warning, and what they describe is a board vcpufreq and the kernel can
# use. Each .dts is compiled, the dtb decompiled (labels, includes and
# expressions gone, one property per line) and checked:
#   - every cpu node has capacity-dmips-mhz, dynamic-power-coefficient and
#     operating-points-v2; the largest capacity-dmips-mhz is exactly 1024;
#   - every cpu is in exactly one cpu-map cluster (the innermost clusterN
#     node above its coreN);
#   - the CPUs of a cluster share one OPP table (opp-shared when it has
#     several CPUs) and no two clusters share one: one policy per cluster;
#   - every OPP table has 2..16 OPPs (vcpufreq's UT_OPP_MAX), each with
#     opp-hz and opp-microvolt, opp-hz strictly ascending and
#     opp-microvolt non-decreasing in node order.
# One ok/not ok line per check, then "dts: N passed, N failed".
#
# usage: sh dts_test.sh [FILE.dts...]     (default: every dts/*.dts)
set -u
here=$(dirname "$0")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM

if ! command -v dtc >/dev/null 2>&1; then
	echo "not ok dts: dtc not found; install device-tree-compiler (make deps)"
	echo "dts: 0 passed, 1 failed"
	exit 1
fi

[ $# -gt 0 ] || set -- "$here"/../../../dts/*.dts

# The structural checks, on dtc's decompiled output: one property or node
# per line, phandles as numbers, values in whichever form dtc guessed.
# shellcheck disable=SC2016 # an awk program, not shell
checks='
function num(s,   i, v) {
	s = tolower(s)
	if (s !~ /^0x[0-9a-f]+$/)
		return s + 0
	v = 0
	for (i = 3; i <= length(s); i++)
		v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
	return v
}
# A value as 32-bit big-endian cells a[1..n]; returns n, or -1 when its
# length is not a multiple of 4. dtc prints a value as <cells>, [bytes] or
# "strings" by guessing from its bytes (736000 uV = 00 0b 3b 00 comes out
# as "\0\v;"), so all three are read back to bytes first.
function cells(v, a,   nb, b, i, j, ch, t, n, k) {
	nb = 0
	i = 1
	while (i <= length(v)) {
		ch = substr(v, i, 1)
		if (ch == "<" || ch == "[") {
			j = index(substr(v, i), ch == "<" ? ">" : "]")
			if (!j)
				return -1
			n = split(substr(v, i + 1, j - 2), t, " ")
			for (k = 1; k <= n; k++) {
				if (ch == "<") {
					t[k] = num(t[k])
					b[++nb] = int(t[k] / 16777216) % 256
					b[++nb] = int(t[k] / 65536) % 256
					b[++nb] = int(t[k] / 256) % 256
					b[++nb] = t[k] % 256
				} else {
					b[++nb] = num("0x" t[k])
				}
			}
			i += j
		} else if (ch == "\"") {
			for (i++; i <= length(v) && (ch = substr(v, i, 1)) != "\""; i++) {
				if (ch != "\\") {
					b[++nb] = ord[ch]
					continue
				}
				ch = substr(v, ++i, 1)
				if (ch == "x") {
					b[++nb] = num("0x" substr(v, i + 1, 2))
					i += 2
				} else if (ch in esc) {
					b[++nb] = esc[ch]
				} else {
					b[++nb] = ord[ch]
				}
			}
			b[++nb] = 0
			i++
		} else {
			i++
		}
	}
	if (nb % 4)
		return -1
	for (i = 1; i <= nb / 4; i++)
		a[i] = ((b[4 * i - 3] * 256 + b[4 * i - 2]) * 256 + b[4 * i - 1]) * 256 + b[4 * i]
	return nb / 4
}
function base(p) { sub(/.*\//, "", p); return p }
function result(good, what) {
	printf "%s %s: %s\n", good ? "ok" : "not ok", board, what
	printf "%s", detail
	detail = ""
}
function fail(msg) { detail = detail "  " msg "\n" }

BEGIN {
	for (i = 32; i < 127; i++)
		ord[sprintf("%c", i)] = i
	split("0 7 8 9 10 11 12 13", e, " ")
	split("0 a b t n v f r", c, " ")
	for (i = 1; i <= 8; i++)
		esc[c[i]] = e[i]
}

{ sub(/^[ \t]+/, "") }
/^$/ || /^\/dts-v1\/;$/ || /^\/memreserve\// { next }
/^[^ =]+ \{$/ {
	name = substr($0, 1, length($0) - 2)
	child = name == "/" ? "/" : (path == "/" ? "" : path) "/" name
	parent[child] = path
	kids[path, ++nkids[path]] = child
	nodes[++nnodes] = child
	path = child
	next
}
/^\};$/ { path = parent[path]; next }
{
	line = $0
	sub(/;$/, "", line)
	eq = index(line, " = ")
	pname = eq ? substr(line, 1, eq - 1) : line
	has[path, pname] = 1
	val[path, pname] = eq ? substr(line, eq + 3) : ""
	if (pname == "phandle" && cells(val[path, pname], c) == 1)
		node_of[c[1]] = path
}

END {
	ncpus = 0
	for (i = 1; i <= nkids["/cpus"]; i++) {
		p = kids["/cpus", i]
		if (val[p, "device_type"] == "\"cpu\"" || base(p) ~ /^cpu@/) {
			cpus[++ncpus] = p
			is_cpu[p] = 1
		}
	}

	# every cpu has the three properties; the largest capacity is 1024
	ok = ncpus > 0
	if (!ncpus)
		fail("no cpu nodes under /cpus")
	max = -1
	for (i = 1; i <= ncpus; i++) {
		p = cpus[i]
		split("capacity-dmips-mhz dynamic-power-coefficient operating-points-v2", need, " ")
		for (j = 1; j <= 3; j++)
			if (!has[p, need[j]]) {
				fail(base(p) ": no " need[j])
				ok = 0
			}
		if (has[p, "capacity-dmips-mhz"] &&
		    cells(val[p, "capacity-dmips-mhz"], c) == 1 && c[1] > max)
			max = c[1]
	}
	result(ok, "every cpu has capacity-dmips-mhz, dynamic-power-coefficient, operating-points-v2")
	if (max != 1024)
		fail("largest capacity-dmips-mhz is " (max < 0 ? "missing" : max))
	result(max == 1024, "the largest capacity-dmips-mhz is 1024")

	# every cpu in exactly one cpu-map cluster
	ok = ncpus > 0
	map = "/cpus/cpu-map"
	if (!(map in parent)) {
		fail("no /cpus/cpu-map")
		ok = 0
	}
	nclusters = 0
	for (i = 1; i <= nnodes; i++) {
		p = nodes[i]
		if (index(p, map "/") != 1 || !has[p, "cpu"])
			continue
		if (cells(val[p, "cpu"], c) != 1 || !is_cpu[node_of[c[1]]]) {
			fail(substr(p, length(map) + 2) ": cpu = " val[p, "cpu"] " is not a cpu node")
			ok = 0
			continue
		}
		cpu = node_of[c[1]]
		cl = ""
		for (q = parent[p]; q != map && q != ""; q = parent[q])
			if (base(q) ~ /^cluster[0-9]+$/) {
				cl = q
				break
			}
		if (cl == "") {
			fail(substr(p, length(map) + 2) ": not under a clusterN node")
			ok = 0
			continue
		}
		if (!(cl in cl_seen)) {
			cl_seen[cl] = 1
			clusters[++nclusters] = cl
		}
		times[cpu]++
		cluster_of[cpu] = cl
	}
	for (i = 1; i <= ncpus; i++) {
		p = cpus[i]
		if (times[p] + 0 != 1) {
			fail(base(p) ": in cpu-map " (times[p] + 0) " times, not once")
			ok = 0
		}
	}
	result(ok, "every cpu is in exactly one cpu-map cluster")

	# one OPP table per cluster, shared by its CPUs; tables by node path
	ok = nclusters > 0
	for (i = 1; i <= ncpus; i++) {
		p = cpus[i]
		if (!has[p, "operating-points-v2"])
			continue
		v = val[p, "operating-points-v2"]
		t = cells(v, c) == 1 && (c[1] in node_of) ? node_of[c[1]] : "(" v ")"
		users[t]++
		table[p] = t
		if (!(p in cluster_of))
			continue
		cl = cluster_of[p]
		if (!(cl in table_of)) {
			table_of[cl] = t
			if (t in cluster_using) {
				fail(base(cl) " and " base(cluster_using[t]) " share the OPP table " t)
				ok = 0
			}
			cluster_using[t] = cl
		} else if (table_of[cl] != t) {
			fail(base(cl) ": " base(p) " has the OPP table " t ", not " table_of[cl])
			ok = 0
		}
	}
	for (i = 1; i <= nnodes; i++) {
		t = nodes[i]
		if (users[t] > 1 && !has[t, "opp-shared"]) {
			fail(t ": used by " users[t] " CPUs but not opp-shared")
			ok = 0
		}
	}
	result(ok, "the CPUs of each cluster share one OPP table (opp-shared), one per cluster")

	# the OPP tables: those of the CPUs, and any other operating-points-v2 node
	ok = 1
	for (i = 1; i <= ncpus; i++) {
		p = cpus[i]
		t = table[p]
		if (t != "" && val[t, "compatible"] != "\"operating-points-v2\"") {
			fail(base(p) ": operating-points-v2 = " t " is not an operating-points-v2 table")
			ok = 0
		}
	}
	ntables = 0
	for (i = 1; i <= nnodes; i++) {
		p = nodes[i]
		if (val[p, "compatible"] == "\"operating-points-v2\"")
			tables[++ntables] = p
	}
	for (i = 1; i <= ntables; i++) {
		tp = tables[i]
		n = 0
		for (j = 1; j <= nkids[tp]; j++) {
			o = kids[tp, j]
			if (!has[o, "opp-hz"] || !has[o, "opp-microvolt"]) {
				fail(o ": no " (has[o, "opp-hz"] ? "opp-microvolt" : "opp-hz"))
				ok = 0
				continue
			}
			k = cells(val[o, "opp-hz"], c)
			hz = k == 2 ? c[1] * 4294967296 + c[2] : c[1]
			if ((k != 1 && k != 2) || cells(val[o, "opp-microvolt"], c) < 1) {
				fail(o ": opp-hz or opp-microvolt is not a number")
				ok = 0
				continue
			}
			uv = c[1]
			if (n && hz <= prev_hz) {
				fail(o ": opp-hz " sprintf("%.0f", hz) " not above the previous " sprintf("%.0f", prev_hz))
				ok = 0
			}
			if (n && uv < prev_uv) {
				fail(o ": opp-microvolt " sprintf("%.0f", uv) " below the previous " sprintf("%.0f", prev_uv))
				ok = 0
			}
			n++
			prev_hz = hz
			prev_uv = uv
		}
		if (n < 2 || n > 16) {
			fail(tp ": " n " OPPs, not 2..16")
			ok = 0
		}
	}
	if (!ntables) {
		fail("no OPP tables")
		ok = 0
	}
	result(ok, "OPP tables: 2..16 OPPs, opp-hz strictly ascending, opp-microvolt non-decreasing")
}
'

i=0
for f; do
	i=$((i + 1))
	b=$(basename "$f" .dts)
	dtb=$tmp/$i.dtb
	if [ ! -f "$f" ]; then
		echo "not ok $b: no such file $f"
		continue
	fi
	if dtc -I dts -O dtb -o "$dtb" "$f" >"$tmp/err" 2>&1 && [ ! -s "$tmp/err" ]; then
		echo "ok $b: dtc compiles it without warnings"
	else
		echo "not ok $b: dtc compiles it without warnings"
		sed 's/^/  /' "$tmp/err"
		continue
	fi
	if ! dtc -I dtb -O dts -o "$tmp/$i.dts" "$dtb" >"$tmp/err" 2>&1; then
		echo "not ok $b: dtc decompiles the dtb"
		sed 's/^/  /' "$tmp/err"
		continue
	fi
	awk -v board="$b" "$checks" "$tmp/$i.dts" ||
		echo "not ok $b: the structural checks ran (awk exit $?)"
done >"$tmp/out"

cat "$tmp/out"
pass=$(grep -c '^ok ' "$tmp/out")
failn=$(grep -c '^not ok ' "$tmp/out")
echo "dts: $pass passed, $failn failed"
[ "$failn" = 0 ] && [ "$pass" -gt 0 ]
