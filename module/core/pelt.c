// SPDX-License-Identifier: GPL-2.0
/*
 * pelt.c - Per-Entity Load Tracking, the arithmetic of kernel/sched/pelt.c.
 *
 * This follows Linux 6.1's ___update_load_sum(), accumulate_sum(),
 * __accumulate_pelt_segments(), decay_load() and ___update_load_avg()
 * step for step, for an entity of weight 1 whose "load" and "runnable"
 * are the same boolean. Keeping the kernel's integer truncations (rather
 * than a cleaner closed form) is the point: fed the kernel's events, the
 * signal is the kernel's, bit for bit.
 *
 * Deviations, each deliberate:
 *  - Invariance. Since 5.1 the kernel makes PELT invariant by scaling
 *    *time*: struct ut_pelt_clock below models a CPU's clock_pelt, and
 *    the module's signals count on it with scale 1024. ut_pelt_update()
 *    can also scale the *contribution*, as kernels before 5.1 did in
 *    accumulate_sum() (contrib = contrib * scale >> 10 on the util and
 *    runnable sums), for callers with no per-CPU clock. With scale ==
 *    1024 the multiply-and-shift is the identity.
 *  - A clock going backwards leaves the signal untouched; 6.1 instead
 *    resynchronises last_update_time to the earlier time. Our clock is a
 *    tracepoint timestamp and a stale one must not rewind state.
 *  - The return value says whether any 1024-ns unit was consumed (the
 *    state changed); the averages themselves, as in the kernel, only move
 *    when a period boundary is crossed.
 */
#include <utiltrack/pelt.h>
#include <utiltrack/pelt_table.h>

/* The generated table and the API must agree on the series' constants. */
#if UT_PELT_TABLE_MAX != UT_PELT_MAX || UT_PELT_TABLE_PERIOD != UT_PELT_PERIOD
#error "pelt_table.h does not match pelt.h; regenerate it"
#endif

/* A period is 1024 units of 1024 ns. */
#define UT_PELT_UNIT_SHIFT	10
#define UT_PELT_PERIOD_SHIFT	10
#define UT_PELT_PERIOD_UNITS	1024U	/* 1 << UT_PELT_PERIOD_SHIFT */

/**
 * ut_pelt_decay - @val * y^@n, the kernel's decay_load()
 * @val: value to decay
 * @n: number of periods
 *
 * y^n = (1/2)^(n / 32) * y^(n % 32): a shift and one table multiply, so
 * the cost does not depend on @n. Beyond 63 half-lives any 64-bit value
 * has decayed to zero.
 *
 * Return: the decayed value.
 */
u64 ut_pelt_decay(u64 val, u64 n)
{
	unsigned int local_n;

	if (n > UT_PELT_PERIOD * 63)
		return 0;
	local_n = (unsigned int)n;
	if (local_n >= UT_PELT_PERIOD) {
		val >>= local_n / UT_PELT_PERIOD;
		local_n %= UT_PELT_PERIOD;
	}
	return mul_u64_u32_shr(val, ut_pelt_y_inv[local_n], 32);
}

/*
 * The contribution of an interval that crosses @periods period boundaries:
 * d1 (the rest of the period that was open) decayed by y^p, the full
 * periods in between as 1024 * (y + ... + y^(p-1)), and d3 (the part of
 * the period now open) undecayed. The middle sum is the difference of two
 * converged series, which keeps it O(1) and matches the kernel's rounding.
 */
static u32 ut_pelt_segments(u64 periods, u32 d1, u32 d3)
{
	u32 c1, c2;

	c1 = (u32)ut_pelt_decay(d1, periods);
	c2 = UT_PELT_MAX - (u32)ut_pelt_decay(UT_PELT_MAX, periods) -
	     UT_PELT_PERIOD_UNITS;
	return c1 + c2 + d3;
}

/**
 * ut_pelt_update - advance a signal to @now
 * @sa: the signal
 * @now: current time, ns
 * @running: the entity ran for the whole interval since the last update
 * @runnable: how many entities were runnable (queued or running) for all
 *            of it: 0 or 1 for a task, a CPU's queued tasks for a CPU
 * @scale: invariance factor, 0..1024 (larger values count as 1024)
 *
 * Return: true if at least one 1024-ns unit elapsed, i.e. @sa changed.
 */
bool ut_pelt_update(struct ut_pelt *sa, u64 now, bool running,
		    unsigned int runnable, u32 scale)
{
	u64 delta, periods;
	u32 contrib, divider;

	if (now < sa->last_update_time)
		return false;
	delta = (now - sa->last_update_time) >> UT_PELT_UNIT_SHIFT;
	if (!delta)
		return false;
	sa->last_update_time += delta << UT_PELT_UNIT_SHIFT;

	/*
	 * Running implies runnable; the kernel enforces it the same way for
	 * the corner case of a dequeued entity still being rq->curr.
	 */
	if (!runnable)
		running = false;

	/* No boundary crossed: the whole delta (< 1024) is the contribution. */
	contrib = (u32)delta;
	delta += sa->period_contrib;
	periods = delta >> UT_PELT_PERIOD_SHIFT;
	if (periods) {
		sa->runnable_sum = ut_pelt_decay(sa->runnable_sum, periods);
		sa->util_sum = (u32)ut_pelt_decay(sa->util_sum, periods);
		delta &= UT_PELT_PERIOD_UNITS - 1;
		/*
		 * As in the kernel, only computed when it will be added: a
		 * sleeping entity's stale @contrib is never used.
		 */
		if (runnable)
			contrib = ut_pelt_segments(periods,
						   UT_PELT_PERIOD_UNITS -
						   sa->period_contrib,
						   (u32)delta);
	}
	sa->period_contrib = (u32)delta;

	if (runnable) {
		if (scale > UT_CAPACITY_SCALE)
			scale = UT_CAPACITY_SCALE;
		contrib = (u32)(((u64)contrib * scale) >> UT_CAPACITY_SHIFT);
		sa->runnable_sum += ((u64)contrib * runnable) <<
				    UT_CAPACITY_SHIFT;
	}
	if (running)
		sa->util_sum += contrib << UT_CAPACITY_SHIFT;

	/*
	 * As in the kernel, the averages are re-derived only when a period
	 * boundary was crossed; in between they keep the last boundary's
	 * value, which is what the kernel's own readers see.
	 */
	if (periods) {
		divider = ut_pelt_divider(sa);
		sa->util_avg = sa->util_sum / divider;
		sa->runnable_avg = (u32)div_u64(sa->runnable_sum, divider);
	}
	return true;
}

/**
 * ut_pelt_init - start a signal
 * @sa: the signal
 * @now: its start time, ns
 * @util_avg: initial utilization, 0..1024
 * @runnable_avg: initial runnable average, 0..1024
 *
 * The signal starts at a period boundary (period_contrib = 0, as the
 * kernel's memset in init_entity_runnable_average() leaves it), and the
 * sums are derived from the averages the way attach_entity_load_avg()
 * does, sum = avg * divider, so that the next period-crossing update
 * reproduces the given averages instead of jumping.
 */
void ut_pelt_init(struct ut_pelt *sa, u64 now, u32 util_avg,
		  u32 runnable_avg)
{
	u32 divider;

	sa->last_update_time = now;
	sa->period_contrib = 0;
	divider = ut_pelt_divider(sa);
	sa->util_avg = util_avg;
	sa->runnable_avg = runnable_avg;
	sa->util_sum = util_avg * divider;
	sa->runnable_sum = (u64)runnable_avg * divider;
}

/* @delta ns of the task clock, on a busy CPU's PELT clock */
static u64 ut_pelt_clock_scale(u64 delta, u32 scale)
{
	return (delta * scale) >> UT_CAPACITY_SHIFT;
}

u64 ut_pelt_clock_at(const struct ut_pelt_clock *pc, u64 now, u32 scale)
{
	u64 back;

	if (!pc->mark || !pc->busy)
		return now;	/* idle: the clock is the task clock */
	if (now >= pc->mark)
		return pc->clock + ut_pelt_clock_scale(now - pc->mark, scale);
	back = ut_pelt_clock_scale(pc->mark - now, scale);
	return pc->clock > back ? pc->clock - back : 0;
}

u64 ut_pelt_clock_advance(struct ut_pelt_clock *pc, u64 now, u32 scale)
{
	u64 clock = ut_pelt_clock_at(pc, now, scale);

	if (now > pc->mark) {
		pc->clock = clock;
		pc->mark = now;
	}
	return clock;
}

void ut_pelt_clock_set_busy(struct ut_pelt_clock *pc, bool busy)
{
	/* idle: the clock is the task clock again, lag and all */
	if (!busy && pc->mark)
		pc->clock = pc->mark;
	pc->busy = busy;
}

/*
 * As attach_entity_load_avg() does for a migrated task: its last update
 * becomes its new cfs_rq's, and its sums are re-derived from its averages
 * with that signal's divider.
 */
void ut_pelt_attach_at(struct ut_pelt *sa, const struct ut_pelt *cpu)
{
	u32 divider;

	sa->last_update_time = cpu->last_update_time;
	sa->period_contrib = cpu->period_contrib;
	divider = ut_pelt_divider(sa);
	sa->util_sum = sa->util_avg * divider;
	sa->runnable_sum = (u64)sa->runnable_avg * divider;
}

/**
 * ut_pelt_add - attach an entity's averages to an aggregate
 * @cpu: the aggregate (a CPU's signal)
 * @util_avg: the entity's utilization
 * @runnable_avg: the entity's runnable average
 *
 * As attach_entity_load_avg(): the entity's sums are re-derived with the
 * aggregate's divider, since the two share one position in the period.
 */
void ut_pelt_add(struct ut_pelt *cpu, u32 util_avg, u32 runnable_avg)
{
	u32 divider = ut_pelt_divider(cpu);

	cpu->util_avg += util_avg;
	cpu->util_sum += util_avg * divider;
	cpu->runnable_avg += runnable_avg;
	cpu->runnable_sum += (u64)runnable_avg * divider;
}

static u32 ut_pelt_sub32(u32 val, u32 sub)
{
	return val > sub ? val - sub : 0;
}

static u64 ut_pelt_sub64(u64 val, u64 sub)
{
	return val > sub ? val - sub : 0;
}

/**
 * ut_pelt_sub - detach an entity's averages from an aggregate
 * @cpu: the aggregate (a CPU's signal)
 * @util_avg: the entity's utilization
 * @runnable_avg: the entity's runnable average
 *
 * As the "removed" path of update_cfs_rq_load_avg(): saturating
 * subtraction, then the sums are floored at avg * PELT_MIN_DIVIDER.
 * Rounding can leave an entity's sum one above its share of the
 * aggregate's; after many detaches the aggregate's sum could reach zero
 * while its average is not, and the next update would then collapse the
 * average. The kernel floors runnable_sum through a u32 cast (max_t(u32));
 * we keep it 64-bit, which differs only for aggregates above 2^32.
 */
void ut_pelt_sub(struct ut_pelt *cpu, u32 util_avg, u32 runnable_avg)
{
	u32 divider = ut_pelt_divider(cpu);
	u64 floor;

	cpu->util_avg = ut_pelt_sub32(cpu->util_avg, util_avg);
	cpu->util_sum = ut_pelt_sub32(cpu->util_sum, util_avg * divider);
	floor = (u64)cpu->util_avg * UT_PELT_MIN_DIVIDER;
	if (cpu->util_sum < floor)
		cpu->util_sum = (u32)floor;

	cpu->runnable_avg = ut_pelt_sub32(cpu->runnable_avg, runnable_avg);
	cpu->runnable_sum = ut_pelt_sub64(cpu->runnable_sum,
					  (u64)runnable_avg * divider);
	floor = (u64)cpu->runnable_avg * UT_PELT_MIN_DIVIDER;
	if (cpu->runnable_sum < floor)
		cpu->runnable_sum = floor;
}
