// SPDX-License-Identifier: GPL-2.0
/*
 * freq.c - utilization to frequency, schedutil's get_next_freq() without
 * the policy limits.
 */
#include <utiltrack/freq.h>

/* The margin, clamped to what the tunable allows. */
static u32 ut_freq_headroom(u32 headroom_pct)
{
	if (headroom_pct < UT_FREQ_HEADROOM_MIN)
		return UT_FREQ_HEADROOM_MIN;
	if (headroom_pct > UT_FREQ_HEADROOM_MAX)
		return UT_FREQ_HEADROOM_MAX;
	return headroom_pct;
}

/**
 * ut_freq_map - the frequency a utilization asks for
 * @util: utilization, in the units of @cap
 * @freq_khz: fmax for a frequency-invariant signal, the current
 *            frequency otherwise
 * @cap: the CPU's capacity; 0 returns @freq_khz unchanged
 * @headroom_pct: margin, clamped to UT_FREQ_HEADROOM_MIN..MAX
 *
 * next = (freq * headroom / 100) * util / cap, each division truncating.
 * Scaling freq first (not util) is deliberate: with headroom 125,
 * freq * 125 / 100 == freq + (freq >> 2) exactly (both are
 * floor(5 * freq / 4)), so the default reproduces schedutil's classic
 * (freq + (freq >> 2)) * util / cap bit for bit. Schedutil in 6.1 puts
 * the margin on util instead (map_util_perf(): util + (util >> 2)); that
 * rounds differently, by at most freq / cap + 1 kHz for util <= cap: far
 * below an OPP step, though it can flip a request sitting on a boundary.
 *
 * Return: the raw target frequency in kHz, saturated at U32_MAX.
 */
u32 ut_freq_map(u32 util, u32 freq_khz, u32 cap, u32 headroom_pct)
{
	u64 f, next;

	if (!cap)
		return freq_khz;
	headroom_pct = ut_freq_headroom(headroom_pct);
	/* < 2^40: freq_khz < 2^32, headroom <= 200 */
	f = div_u64((u64)freq_khz * headroom_pct, 100);
	if (util && f > div_u64(U64_MAX, util))
		return U32_MAX;
	next = div_u64(f * util, cap);
	return next > U32_MAX ? U32_MAX : (u32)next;
}

/**
 * ut_freq_map_capped - ut_freq_map() with the margin capped at capacity
 * @util: utilization, in the units of @cap
 * @freq_khz: the reference frequency, as for ut_freq_map()
 * @cap: the CPU's capacity; 0 returns @freq_khz unchanged
 * @headroom_pct: margin, clamped as for ut_freq_map()
 *
 * Since 6.8 schedutil adds its margin to util and caps the sum at the
 * CPU's capacity before it maps (sugov_effective_cpu_perf()): a CPU at
 * cap / headroom or more asks for the reference frequency itself, where
 * the older mapping asked for up to headroom times it. That matters for
 * a signal that is not frequency-invariant, whose reference since 6.8 is
 * already cur * 1.25: a saturated CPU climbs by 1.25x per decision, not
 * by 1.5625x. util + util / 4 >= cap and 125 * util >= 100 * cap agree
 * for every integer util and cap, so the boundary is schedutil's.
 *
 * Return: the raw target frequency in kHz, saturated at U32_MAX.
 */
u32 ut_freq_map_capped(u32 util, u32 freq_khz, u32 cap, u32 headroom_pct)
{
	if (cap && (u64)util * ut_freq_headroom(headroom_pct) >= (u64)cap * 100)
		return freq_khz;
	return ut_freq_map(util, freq_khz, cap, headroom_pct);
}

/**
 * ut_freq_hispeed - jump to a high speed when the CPU is nearly saturated
 * @next_khz: the mapped request (ut_freq_map())
 * @util: the signal, in the units of @cap
 * @cap: the CPU's capacity
 * @load_pct: the share of @cap (percent) from which to jump; 0 is off
 * @hispeed_khz: the frequency to jump to
 *
 * A saturated signal cannot say how much more than the current capacity
 * the load wants, so the mapping only climbs by the headroom (1.25x) per
 * decision: five decisions from fmin to fmax on a typical table,
 * whatever the signal. Android's WALT governors answer with hispeed_load
 * and hispeed_freq, which this reproduces: at @load_pct of capacity or
 * more, ask for at least @hispeed_khz.
 *
 * Return: @next_khz, raised to @hispeed_khz when the load calls for it.
 */
u32 ut_freq_hispeed(u32 next_khz, u32 util, u32 cap, u32 load_pct,
		    u32 hispeed_khz)
{
	if (!load_pct || !cap)
		return next_khz;
	if ((u64)util * 100 < (u64)cap * load_pct)
		return next_khz;
	return next_khz > hispeed_khz ? next_khz : hispeed_khz;
}

/**
 * ut_freq_resolve - the table frequency that serves a request
 * @table: available frequencies, ascending
 * @n: entries in @table; 0 returns @khz unchanged
 * @khz: requested frequency
 *
 * As cpufreq_driver_resolve_freq() with CPUFREQ_RELATION_L: the lowest
 * frequency that is at least the request, so the demand is met at the
 * least energy; a request above the table gets its top.
 *
 * Return: the resolved frequency, kHz.
 */
u32 ut_freq_resolve(const u32 *table, unsigned int n, u32 khz)
{
	unsigned int i;

	if (!n)
		return khz;
	for (i = 0; i < n; i++) {
		if (table[i] >= khz)
			return table[i];
	}
	return table[n - 1];
}
