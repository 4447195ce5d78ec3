// SPDX-License-Identifier: GPL-2.0
/*
 * ctx.c - the context trackers see for an event or a read: a CPU's task
 * clock, its PELT clock and its invariance scale. Shared by the probes
 * and by the KUnit suites, whose fake clocks and scale come from glue.c.
 */

#include <utiltrack/pelt.h>

#include "utiltrack.h"

static struct ut_cpu *ut_ctx_base(struct ut_ctx *c, int cpu, u64 now)
{
	struct ut_cpu *uc = per_cpu_ptr(&ut_cpus, cpu);

	c->now = now;
	c->cpu = cpu;
	c->scale = ut_inv_scale(uc);
	return uc;
}

/* An event's context, @cpu's clocks moving on to @now (track_lock held). */
void ut_probe_fill_ctx(struct ut_ctx *c, int cpu, u64 now)
{
	struct ut_cpu *uc = ut_ctx_base(c, cpu, now);

	c->pelt_now = ut_pelt_clock_advance(&uc->pelt, now, c->scale);
	uc->last_now = max(now, uc->last_now);
}

/* A reader's context: projected to @now, no clock moves (track_lock held). */
void ut_probe_read_ctx(struct ut_ctx *c, int cpu, u64 now)
{
	struct ut_cpu *uc = ut_ctx_base(c, cpu, now);

	c->pelt_now = ut_pelt_clock_at(&uc->pelt, now, c->scale);
}
