# SPDX-License-Identifier: GPL-2.0
#
# paired.awk - paired ratios to a baseline, with distribution-free 95 %
# confidence intervals; the statistics of the benchmarks in tools/bench.
#
# Input: lines "WORKLOAD ROUND CONFIG VALUE" (VALUE a time, lower is
# better, or FAIL for a run that failed). Every configuration runs once
# per round, so each round gives one ratio CONFIG / BASE measured close
# together in time; drift between rounds cancels out.
#
# Output, per workload and configuration: n (rounds with both values),
# failed runs, the median VALUE, the median ratio to BASE with the 95 %
# interval of that median from order statistics (ranks from the binomial
# distribution: no assumption about the noise's shape), and two verdicts:
#   vs_noise   "slower"/"faster" only when the whole interval lies beyond
#              +-NOISE % (default 3), "same" when it lies within, else
#              "unresolved"
#   vs_target  "<=TARGET" when the interval's top is at or below TARGET,
#              ">TARGET" when its bottom is above, else "unresolved"
#              (only when TARGET is set)
#
# Variables: base (default: the first configuration seen), noise (3),
# target (unset), unit (a label for VALUE, default "s").

function sort_n(a, n,    i, j, t) {
	for (i = 2; i <= n; i++) {
		t = a[i]
		for (j = i - 1; j >= 1 && a[j] > t; j--)
			a[j + 1] = a[j]
		a[j + 1] = t
	}
}

function median(a, n) {
	return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}

# the rank k of the interval [a[k], a[n+1-k]] around the median: the
# largest k with P(Bin(n, 1/2) < k) <= 2.5 %; 0 when n is too small
function ci_rank(n,    k, p, cdf) {
	p = 0.5 ^ n
	cdf = 0
	for (k = 0; k < n; k++) {
		# cdf = P(X <= k - 1) here; p = P(X = k)
		if (cdf + p > 0.025)
			return k
		cdf += p
		p = p * (n - k) / (k + 1)
	}
	return 0
}

function verdict_noise(lo, hi) {
	if (lo > 1 + noise / 100)
		return "slower"
	if (hi < 1 - noise / 100)
		return "faster"
	if (lo >= 1 - noise / 100 && hi <= 1 + noise / 100)
		return "same"
	return "unresolved"
}

function verdict_target(lo, hi) {
	if (hi <= target)
		return "<=" target
	if (lo > target)
		return ">" target
	return "unresolved"
}

BEGIN {
	if (noise == "")
		noise = 3
	if (unit == "")
		unit = "s"
}

NF == 4 {
	w = $1; r = $2; c = $3
	if (!(w in wseen)) { wseen[w] = 1; wl[++nw] = w }
	if (!(c in cseen)) { cseen[c] = 1; cl[++nc] = c }
	if (!((w, r) in rseen)) { rseen[w, r] = 1; rl[w, ++nr[w]] = r }
	if ($4 == "FAIL")
		fail[w, c]++
	else
		v[w, r, c] = $4
}

END {
	if (base == "")
		base = cl[1]
	printf "%-10s %-10s %4s %6s %12s %8s %17s %-10s%s\n", "workload", "config",
	       "n", "failed", "median_" unit, "ratio", "95% CI", "vs_" noise "%",
	       target != "" ? " vs_" target : ""
	for (i = 1; i <= nw; i++) {
		w = wl[i]
		for (j = 1; j <= nc; j++) {
			c = cl[j]
			n = 0; m = 0
			delete vals; delete rat
			for (k = 1; k <= nr[w]; k++) {
				r = rl[w, k]
				if (!((w, r, c) in v))
					continue
				vals[++m] = v[w, r, c]
				if (c != base && (w, r, base) in v && v[w, r, base] > 0)
					rat[++n] = v[w, r, c] / v[w, r, base]
			}
			if (!m && !fail[w, c])
				continue
			sort_n(vals, m)
			med = m ? sprintf("%.4g", median(vals, m)) : "-"
			if (c == base) {
				printf "%-10s %-10s %4d %6d %12s %8s %17s %-10s%s\n", w, c, m,
				       fail[w, c], med, "1", "(baseline)", "", ""
				continue
			}
			sort_n(rat, n)
			k = ci_rank(n)
			if (!n) {
				printf "%-10s %-10s %4d %6d %12s %8s %17s %-10s%s\n", w, c, 0,
				       fail[w, c], med, "-", "-", "no pairs",
				       target != "" ? " -" : ""
				continue
			}
			if (k) {
				lo = rat[k]; hi = rat[n + 1 - k]
				ci = sprintf("[%.4f, %.4f]", lo, hi)
			} else {
				lo = 0; hi = 1e9
				ci = "(n too small)"
			}
			printf "%-10s %-10s %4d %6d %12s %8.4f %17s %-10s%s\n", w, c, n,
			       fail[w, c], med, median(rat, n), ci, verdict_noise(lo, hi),
			       target != "" ? " " verdict_target(lo, hi) : ""
		}
	}
}
