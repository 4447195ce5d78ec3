/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pelt.h - Per-Entity Load Tracking, as kernel/sched/pelt.c computes it.
 *
 * Plain C (see shim.h). Time is in nanoseconds of the tracked clock; a
 * period is 1024 "us" (1024 << 10 ns); y^32 = 1/2. Sums and averages use
 * the kernel's fixed point exactly, so a signal fed the same events and
 * timestamps as the kernel's own reproduces it bit for bit.
 */
#ifndef _UTILTRACK_PELT_H
#define _UTILTRACK_PELT_H

#include <utiltrack/shim.h>

#define UT_PELT_PERIOD		32	/* y^UT_PELT_PERIOD = 1/2 */
#define UT_PELT_MAX		47742	/* max value of a sum of 1024-us periods */
#define UT_PELT_MIN_DIVIDER	(UT_PELT_MAX - 1024)
#define UT_CAPACITY_SHIFT	10
#define UT_CAPACITY_SCALE	1024U	/* 1 << UT_CAPACITY_SHIFT */

struct ut_pelt {
	u64 last_update_time;	/* ns, advanced in 1024-ns steps */
	u64 runnable_sum;	/* << UT_CAPACITY_SHIFT, like util_sum */
	u32 util_sum;
	u32 period_contrib;
	u32 util_avg;		/* 0..1024 */
	u32 runnable_avg;	/* 0..1024 per runnable entity counted */
};

/* Start a signal at @now with the given averages (sums derived from them). */
void ut_pelt_init(struct ut_pelt *sa, u64 now, u32 util_avg,
		  u32 runnable_avg);

/*
 * Advance @sa to @now. @running / @runnable describe the signal over the
 * whole interval since the last update: @runnable counts the runnable
 * entities it stands for, 0 or 1 for a task, the number of queued tasks
 * for a CPU (the kernel's cfs_rq passes h_nr_running), so a CPU's
 * runnable_avg can exceed 1024. @scale (0..1024) is the time scale
 * factor (frequency x capacity invariance); 1024 = not invariant.
 * A clock going backwards is ignored (returns false, nothing changes).
 * Returns true when at least one 1024-ns unit elapsed.
 */
bool ut_pelt_update(struct ut_pelt *sa, u64 now, bool running,
		    unsigned int runnable, u32 scale);

/* The kernel's decay_load(): @val * y^@n. */
u64 ut_pelt_decay(u64 val, u64 n);

/* The kernel's get_pelt_divider(). */
static inline u32 ut_pelt_divider(const struct ut_pelt *sa)
{
	return UT_PELT_MIN_DIVIDER + sa->period_contrib;
}

/*
 * util_avg as of the last update, even one that crossed no period
 * boundary: util_avg itself is only recomputed when a period completes,
 * so two trackers that update at different instants can disagree on it
 * by up to one period's contribution (about 22) with identical sums.
 */
static inline u32 ut_pelt_util_fresh(u32 util_sum, u32 period_contrib)
{
	return util_sum / (UT_PELT_MIN_DIVIDER + period_contrib);
}

/*
 * A CPU's PELT clock, the kernel's rq_clock_pelt(). The kernel makes PELT
 * invariant by slowing the clock its signals count on, not their
 * contributions: while the CPU runs a task, the clock advances at
 * @scale/1024 of the task clock (update_rq_clock_pelt()); when the CPU
 * goes idle it jumps to the task clock (update_idle_rq_clock_pelt()), so
 * what sleeps there decays over the time the clock lagged. Signals then
 * count on it with @scale 1024. Both ways give a periodic load the same
 * mean, but not the same value at a switch-out, where the kernel's clock
 * still lags. Not modelled: the kernel keeps the lag as lost_idle_time
 * when the CPU's util sums are at their maximum (no idle time at all).
 */
struct ut_pelt_clock {
	u64 clock;		/* PELT time at @mark */
	u64 mark;		/* task-clock ns of the last advance; 0: none */
	bool busy;		/* a task runs on the CPU since @mark */
};

/*
 * The clock at @now. @now may be before the mark (an exact switch time
 * after an estimate that ran ahead): it reads as far back on the clock,
 * which signals that have moved past it ignore, as they would @now.
 */
u64 ut_pelt_clock_at(const struct ut_pelt_clock *pc, u64 now, u32 scale);

/* Move the clock to @now at @scale (since the mark); returns its value. */
u64 ut_pelt_clock_advance(struct ut_pelt_clock *pc, u64 now, u32 scale);

/* The CPU starts (@busy) or stops running tasks at the clock's mark. */
void ut_pelt_clock_set_busy(struct ut_pelt_clock *pc, bool busy);

/*
 * Move an entity's contribution out of / into an aggregate (a CPU's
 * signal), the way the kernel attaches and detaches a migrating task's
 * util to a cfs_rq. Removal saturates at zero.
 */
void ut_pelt_add(struct ut_pelt *cpu, u32 util_avg, u32 runnable_avg);
void ut_pelt_sub(struct ut_pelt *cpu, u32 util_avg, u32 runnable_avg);

/*
 * Put an entity that moved to another CPU on that CPU's clock, at the
 * time and period position of the CPU's signal @cpu, its averages kept:
 * PELT clocks of different CPUs differ by what each lags while busy.
 */
void ut_pelt_attach_at(struct ut_pelt *sa, const struct ut_pelt *cpu);

#endif /* _UTILTRACK_PELT_H */
