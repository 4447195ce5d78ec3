// SPDX-License-Identifier: GPL-2.0
/*
 * ewma_tracker.c - an example tracker in its own module.
 *
 * Shows what another module needs to add a signal to utiltrack: an ops
 * table and ut_tracker_register(). The signal: per CPU, the busy fraction
 * of each 4 ms window, smoothed by an exponentially weighted moving
 * average with weight 1/4 for the newest window:
 *
 *   ewma = (3 * ewma + busy_fraction) / 4        (capacity units)
 *
 *   insmod utiltrack_ewma.ko
 *   echo enable ewma > /sys/kernel/debug/utiltrack/trackers
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/math64.h>
#include <linux/module.h>
#include <utiltrack/tracker.h>

#define EWMA_WINDOW_NS	(4 * NSEC_PER_MSEC)

struct ewma_cpu {
	u64 window_start;
	u64 busy_ns;		/* in the current window */
	u64 last;		/* time of the last update */
	bool busy;
	u32 ewma;
};

static u32 ewma_step(u32 ewma, u64 busy_ns)
{
	u32 sample = div64_u64(min_t(u64, busy_ns, EWMA_WINDOW_NS) * 1024,
			       EWMA_WINDOW_NS);

	return (3 * ewma + sample) / 4;
}

/* Bring @ec to @now: close the current window and any whole ones since. */
static void ewma_advance(struct ewma_cpu *ec, u64 now)
{
	u64 end = ec->window_start + EWMA_WINDOW_NS;
	u32 fill = ec->busy ? 1024 : 0;
	u64 full;

	if (now <= ec->last)
		return;
	if (now < end) {
		if (ec->busy)
			ec->busy_ns += now - ec->last;
		ec->last = now;
		return;
	}
	if (ec->busy)
		ec->busy_ns += end - ec->last;
	ec->ewma = ewma_step(ec->ewma, ec->busy_ns);

	/* whole windows since then were all busy or all idle */
	full = div64_u64(now - end, EWMA_WINDOW_NS);
	ec->window_start = end + full * EWMA_WINDOW_NS;
	if (full >= 32)		/* (3/4)^32 < 1/1024: converged */
		ec->ewma = fill;
	while (full-- && ec->ewma != fill)
		ec->ewma = (3 * ec->ewma + fill) / 4;
	ec->busy_ns = ec->busy ? now - ec->window_start : 0;
	ec->last = now;
}

static void ewma_cpu_init(struct ut_tracker *tr, void *cd,
			  const struct ut_ctx *c)
{
	struct ewma_cpu *ec = cd;

	ec->window_start = c->now;
	ec->last = c->now;
}

static void ewma_cpu_switch(struct ut_tracker *tr, void *cd,
			    const struct ut_ctx *c, enum ut_class prev,
			    enum ut_class next)
{
	struct ewma_cpu *ec = cd;

	ewma_advance(ec, c->now);
	ec->busy = next != UT_CLASS_IDLE;
}

/* The value at c->now: advance a copy, the tracker's state is untouched. */
static void ewma_cpu_show(struct ut_tracker *tr, void *cd,
			  const struct ut_ctx *c, u64 *vals)
{
	struct ewma_cpu now = *(struct ewma_cpu *)cd;

	ewma_advance(&now, c->now);
	vals[0] = now.ewma;
}

static const struct ut_tracker_ops ewma_ops = {
	.name		= "ewma",
	.owner		= THIS_MODULE,
	.needs		= UT_NEED_SWITCH,
	.cpu_size	= sizeof(struct ewma_cpu),
	.cpu_cols	= { "ewma" },
	.cpu_init	= ewma_cpu_init,
	.cpu_switch	= ewma_cpu_switch,
	.cpu_show	= ewma_cpu_show,
};

static int __init ewma_init(void)
{
	return ut_tracker_register(&ewma_ops);
}

static void __exit ewma_exit(void)
{
	ut_tracker_unregister(&ewma_ops);
}

module_init(ewma_init);
module_exit(ewma_exit);

MODULE_DESCRIPTION("utiltrack example tracker: EWMA of per-CPU busy time");
MODULE_LICENSE("GPL");
