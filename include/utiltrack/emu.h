/* SPDX-License-Identifier: GPL-2.0 */
/*
 * emu.h - the arithmetic of vcpufreq's throughput emulation: how long a
 * timer callback stalls its CPU, and what a late callback owes.
 *
 * Plain C (see shim.h): shared by vcpufreq.ko and the host unit tests.
 */
#ifndef _UTILTRACK_EMU_H
#define _UTILTRACK_EMU_H

#include <utiltrack/shim.h>

/* One CPU's stall bookkeeping; all zero to start. */
struct ut_emu {
	u64 owed_ns;	/* stall a late callback could not fit */
	u64 stalls;	/* callbacks that stalled (not at fmax) */
	u64 stalled_ns;
	u64 late;	/* callbacks too late for their own stall */
	u64 dropped_ns;	/* owed stall not charged: cap, vCPU stopped */
};

u64 ut_emu_period_stall_ns(u64 period_ns, u32 khz, u32 fmax_khz);
u64 ut_emu_spin_ns(u64 stall_ns, u64 overhead_ns, u64 period_ns);
u64 ut_emu_stall_ns(struct ut_emu *e, u64 spin_ns, u64 late_by_ns,
		    u64 period_ns, u64 margin_ns);

#endif /* _UTILTRACK_EMU_H */
