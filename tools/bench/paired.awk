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
# Output, per workload and configuration: n (rounds with both values;
# its own runs when there is no ratio, "no pairs" or "base 0"),
# failed runs, base0 (rounds that give no ratio because BASE read 0 in
# them, so that n + failed + base0 accounts for every round), the median VALUE, the median ratio to BASE with the 95 %
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
# target (unset), unit (a label for VALUE, default "s"), words (the
# vs_noise verdicts for "above" and "below", default "slower faster";
# "higher lower" suits any metric), pct (1: also the mean, 90th and 96th
# percentile of each configuration's values, nearest rank, as the seed
# threads report them).

function sort_n(a, n,    i, j, t) {
	for (i = 2; i <= n; i++) {
		t = a[i]
		for (j = i - 1; j >= 1 && a[j] > t; j--)
			a[j + 1] = a[j]
		a[j + 1] = t
	}
}

# how many of a[1..n] are 0
function zeros(a, n,    i, z) {
	for (i = 1; i <= n; i++)
		z += a[i] == 0
	return z + 0
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
		return word_above
	if (hi < 1 - noise / 100)
		return word_below
	if (lo >= 1 - noise / 100 && hi <= 1 + noise / 100)
		return "same"
	return "unresolved"
}

# the nearest-rank P-th percentile of the sorted a[1..n]
function pctile(a, n, p,    k) {
	k = int(p * n / 100 + 0.999999)
	return a[k < 1 ? 1 : k]
}

function mean(a, n,    i, s) {
	for (i = 1; i <= n; i++)
		s += a[i]
	return s / n
}

# the extra columns of pct=1: header, or the values of a[1..n] (sorted)
function pct_cols(a, n) {
	if (!pct)
		return ""
	if (n < 0)
		return sprintf(" %10s %10s %10s", "mean", "p90", "p96")
	if (!n)
		return sprintf(" %10s %10s %10s", "-", "-", "-")
	return sprintf(" %10.4g %10.4g %10.4g", mean(a, n), pctile(a, n, 90), pctile(a, n, 96))
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
	if (words == "")
		words = "slower faster"
	split(words, wd, " ")
	word_above = wd[1]
	word_below = wd[2]
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
	printf "%-12s %-16s %4s %6s %5s %12s %8s %17s %-10s%s%s\n", "workload", "config",
	       "n", "failed", "base0", "median_" unit, "ratio", "95% CI", "vs_" noise "%",
	       target != "" ? " vs_" target : "", pct_cols(vals, -1)
	for (i = 1; i <= nw; i++) {
		w = wl[i]
		# the base first, then the rest in the order first seen
		for (j = 0; j <= nc; j++) {
			c = j ? cl[j] : base
			if (j && c == base)
				continue
			n = 0; m = 0; zb = 0
			delete vals; delete rat
			for (k = 1; k <= nr[w]; k++) {
				r = rl[w, k]
				if (!((w, r, c) in v))
					continue
				vals[++m] = v[w, r, c]
				if (c == base || !((w, r, base) in v))
					continue
				if (v[w, r, base] > 0)
					rat[++n] = v[w, r, c] / v[w, r, base]
				else
					zb++
			}
			if (!m && !fail[w, c])
				continue
			sort_n(vals, m)
			med = m ? sprintf("%.4g", median(vals, m)) : "-"
			if (c == base) {
				printf "%-12s %-16s %4d %6d %5d %12s %8s %17s %-10s%s%s\n", w, c, m,
				       fail[w, c], zeros(vals, m), med, "1", "(baseline)", "", "",
				       pct_cols(vals, m)
				continue
			}
			sort_n(rat, n)
			k = ci_rank(n)
			# no ratio: no round with both, or the base was 0 in
			# each (a count such as transitions under performance);
			# n is then the configuration's own runs
			if (!n) {
				printf "%-12s %-16s %4d %6d %5d %12s %8s %17s %-10s%s%s\n", w, c, m,
				       fail[w, c], zb, med, "-", "-", zb ? "base 0" : "no pairs",
				       target != "" ? " -" : "", pct_cols(vals, m)
				continue
			}
			if (k) {
				lo = rat[k]; hi = rat[n + 1 - k]
				ci = sprintf("[%.4f, %.4f]", lo, hi)
			} else {
				lo = 0; hi = 1e9
				ci = "(n too small)"
			}
			printf "%-12s %-16s %4d %6d %5d %12s %8.4f %17s %-10s%s%s\n", w, c, n,
			       fail[w, c], zb, med, median(rat, n), ci, verdict_noise(lo, hi),
			       target != "" ? " " verdict_target(lo, hi) : "", pct_cols(vals, m)
		}
	}
}
