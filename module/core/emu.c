// SPDX-License-Identifier: GPL-2.0
/*
 * emu.c - the arithmetic of vcpufreq's throughput emulation.
 *
 * vcpufreq slows a busy CPU to f/fmax of its speed with a per-period
 * timer callback that busy-waits. What that callback waits for, and what
 * it owes when the host delivers it late, is decided here, apart from the
 * timer and the spinning, so the host unit tests can drive it with any
 * latency. vcpufreq.c explains the model and the measurements behind it.
 */
#include <utiltrack/emu.h>

/* The stall per period at @khz: (1 - f/fmax) * P; 0 at fmax. */
u64 ut_emu_period_stall_ns(u64 period_ns, u32 khz, u32 fmax_khz)
{
	if (!fmax_khz || khz >= fmax_khz)
		return 0;
	return period_ns - div64_u64(period_ns * khz, fmax_khz);
}

/*
 * (1 - f/fmax) * (P - o) from @stall_ns = (1 - f/fmax) * P: the spin that
 * leaves the task f/fmax of the P - o it gets at fmax, where a callback
 * with overhead o (its latency and its own cost) runs too.
 */
u64 ut_emu_spin_ns(u64 stall_ns, u64 overhead_ns, u64 period_ns)
{
	if (overhead_ns >= period_ns)
		return 0;
	return stall_ns - div64_u64(stall_ns * overhead_ns, period_ns);
}

/* Carry @ns more stall to the next callbacks, up to one period's worth. */
static void ut_emu_owe(struct ut_emu *e, u64 ns, u64 period_ns)
{
	u64 owed = e->owed_ns + ns;

	if (owed > period_ns) {
		e->dropped_ns += owed - period_ns;
		owed = period_ns;
	}
	e->owed_ns = owed;
}

/*
 * A callback @late_by_ns after its expiry, which wants to spin @spin_ns:
 * return how long it stalls from now. It spins its own share plus what
 * earlier callbacks owe, as far as the period leaves room (up to @margin_ns
 * before the next expiry, so callbacks never chain).
 *
 * What does not fit is owed: the task ran uncharged while the callback
 * was late. A callback a whole period or more late owes nothing: that is
 * mostly the host not running the vCPU at all, which costs the task at
 * every OPP alike (charging it overcharged fmin by ~20 %). A zero
 * @spin_ns is fmax, where nothing is owed.
 */
u64 ut_emu_stall_ns(struct ut_emu *e, u64 spin_ns, u64 late_by_ns,
		    u64 period_ns, u64 margin_ns)
{
	u64 want = spin_ns + e->owed_ns;
	u64 room = 0, got;

	if (!spin_ns) {
		e->owed_ns = 0;
		return 0;
	}
	if (late_by_ns + margin_ns < period_ns)
		room = period_ns - margin_ns - late_by_ns;
	got = want < room ? want : room;
	if (got < spin_ns)
		e->late++;
	e->owed_ns = 0;
	if (late_by_ns < period_ns)
		ut_emu_owe(e, want - got, period_ns);
	else
		e->dropped_ns += want - got;
	e->stalls++;
	e->stalled_ns += got;
	return got;
}
