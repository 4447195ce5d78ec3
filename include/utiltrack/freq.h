/* SPDX-License-Identifier: GPL-2.0 */
/*
 * freq.h - utilization to frequency, as schedutil's map_util_freq().
 *
 * Plain C (see shim.h).
 *
 *   next_freq = headroom * freq * util / cap
 *
 * where freq is fmax for a frequency-invariant signal and the current
 * frequency otherwise, and headroom defaults to 1.25 (125 %).
 */
#ifndef _UTILTRACK_FREQ_H
#define _UTILTRACK_FREQ_H

#include <utiltrack/shim.h>

#define UT_FREQ_HEADROOM_DEF	125	/* percent */
#define UT_FREQ_HEADROOM_MIN	100
#define UT_FREQ_HEADROOM_MAX	200

u32 ut_freq_map(u32 util, u32 freq_khz, u32 cap, u32 headroom_pct);
/* ... with headroom * util capped at @cap, as schedutil since 6.8 */
u32 ut_freq_map_capped(u32 util, u32 freq_khz, u32 cap, u32 headroom_pct);

/* Android's hispeed jump: see module/core/freq.c. */
#define UT_FREQ_HISPEED_LOAD_MAX	100	/* percent; 0 is off */
u32 ut_freq_hispeed(u32 next_khz, u32 util, u32 cap, u32 load_pct,
		    u32 hispeed_khz);

/* Lowest table frequency >= @khz (or the highest), @table ascending. */
u32 ut_freq_resolve(const u32 *table, unsigned int n, u32 khz);

#endif /* _UTILTRACK_FREQ_H */
