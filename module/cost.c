// SPDX-License-Identifier: GPL-2.0
/*
 * cost.c - utiltrack measuring itself, at a flag test per probe when not.
 *
 * Off by default: the probes then read no clock for it and record
 * nothing but their per-CPU event counts; each tests a read-mostly flag.
 * Switched on from debugfs ("cost": write 1, 2 or 0), it
 * records per CPU, per event:
 *   - a histogram of the probe's duration (4 buckets per power of two,
 *     so a percentile is known to within 25 %), its sum and maximum;
 *   - the longest section of the module that ran with interrupts off:
 *     a probe called with them off (the scheduler's context), and each
 *     hold of a CPU's tracking lock from process context (debugfs, the
 *     registry, the walt self-check, the governor).
 *   - at level 2 only, per enabled tracker, the same histogram of its
 *     share of each event (one record per event offered to it, two at a
 *     switch: out and in), so that the trackers' arithmetic can be told
 *     from the probes' own work. Timing the trackers adds clock reads
 *     inside the probes, so level 1 keeps the probes' figures clean;
 *   - "clock_read": what the measurement itself adds to a figure (two
 *     back-to-back clock reads), measured at each switch-on.
 * The event histograms are allocated at the first switch-on and kept
 * until unload, so no probe can see them go; a tracker's are allocated
 * and freed with its data. Switching on clears them all.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpu.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/sched/clock.h>
#include <linux/seq_file.h>
#include <linux/slab.h>

#include "utiltrack.h"

/* 8 exact buckets for 0..7 ns, then 4 per power of two up to 2^26 ns */
#define UT_COST_EXACT		8
#define UT_COST_SUB_BITS	2
#define UT_COST_BUCKETS		(UT_COST_EXACT + (26 - 3) * (1 << UT_COST_SUB_BITS))

struct ut_cost_hist {
	u64 count;
	u64 sum_ns;
	u64 max_ns;
	u64 bucket[UT_COST_BUCKETS];
};

struct ut_cost_cpu {
	struct ut_cost_hist ev[UT_TP_NR];
	u64 irqoff_max_ns[UT_SITE_NR];
};

/*
 * A tracker's histogram on one CPU, valid for switch-on @epoch only:
 * it is cleared by its first record after a switch-on, so switching on
 * need not know which trackers exist.
 */
struct ut_cost_trk {
	u32 epoch;
	struct ut_cost_hist h;
};

bool ut_cost_on __read_mostly;
bool ut_cost_trk_on __read_mostly;

static struct ut_cost_cpu __percpu *ut_cost_data;
static DEFINE_MUTEX(ut_cost_lock);
/* bumped at each switch-on, under ut_cost_lock; 0: never switched on */
static u32 ut_cost_epoch;
/* UT_COST_OFF, _EVENTS or _TRACKERS, under ut_cost_lock */
static unsigned int ut_cost_level;
/* two back-to-back clock reads, as each measured section pays them */
static struct ut_cost_hist ut_cost_clock;
/* summed histograms for a read, under ut_cost_lock (too big for a stack) */
static struct ut_cost_hist ut_cost_scratch;

const char * const ut_tp_names[UT_TP_NR] = {
	[UT_TP_SWITCH]		= "sched_switch",
	[UT_TP_WAKEUP]		= "sched_wakeup",
	[UT_TP_WAKEUP_NEW]	= "sched_wakeup_new",
	[UT_TP_MIGRATE]		= "sched_migrate_task",
	[UT_TP_FORK]		= "sched_process_fork",
	[UT_TP_EXEC]		= "sched_process_exec",
	[UT_TP_FREE]		= "sched_process_free",
	[UT_TP_FREQ]		= "cpu_frequency",
	[UT_TP_WAKING]		= "sched_waking",
	[UT_TP_PELT_SE]		= "pelt_se_tp",
	[UT_TP_TICK]		= "utiltrack_tick",
};

static const char * const ut_site_names[UT_SITE_NR] = {
	[UT_SITE_PROBE]		= "probe",
	[UT_SITE_DEBUGFS]	= "debugfs",
	[UT_SITE_REGISTRY]	= "registry",
	[UT_SITE_WALT_CHECK]	= "walt_check",
	[UT_SITE_GOVERNOR]	= "governor",
};

/* The bucket of @ns: exact below 8, else octave and 2-bit mantissa. */
static unsigned int ut_cost_bucket(u64 ns)
{
	unsigned int msb, sub, b;

	if (ns < UT_COST_EXACT)
		return ns;
	msb = fls64(ns) - 1;		/* >= 3 */
	sub = (ns >> (msb - UT_COST_SUB_BITS)) & ((1 << UT_COST_SUB_BITS) - 1);
	b = UT_COST_EXACT + ((msb - 3) << UT_COST_SUB_BITS) + sub;
	return min(b, UT_COST_BUCKETS - 1U);
}

/* The largest value of bucket @b (what a percentile in it reports). */
static u64 ut_cost_bucket_top(unsigned int b)
{
	unsigned int msb, sub;

	if (b < UT_COST_EXACT)
		return b;
	msb = 3 + ((b - UT_COST_EXACT) >> UT_COST_SUB_BITS);
	sub = (b - UT_COST_EXACT) & ((1 << UT_COST_SUB_BITS) - 1);
	return (((u64)(1 << UT_COST_SUB_BITS) + sub + 1) << (msb - UT_COST_SUB_BITS)) - 1;
}

static void ut_cost_max(u64 *max, u64 v)
{
	if (v > *max)
		WRITE_ONCE(*max, v);
}

static void ut_cost_hist_add(struct ut_cost_hist *h, u64 ns)
{
	ut_stat_inc(&h->count);
	ut_stat_add(&h->sum_ns, ns);
	ut_cost_max(&h->max_ns, ns);
	ut_stat_inc(&h->bucket[ut_cost_bucket(ns)]);
}

/* Interrupts off across the update: a tick may record on this CPU too. */
void ut_cost_record(enum ut_tp tp, u64 t0)
{
	u64 ns = local_clock() - t0;
	unsigned long flags;
	bool irqoff = irqs_disabled();

	local_irq_save(flags);
	ut_cost_hist_add(&this_cpu_ptr(ut_cost_data)->ev[tp], ns);
	if (irqoff)
		ut_cost_max(&this_cpu_ptr(ut_cost_data)->irqoff_max_ns[UT_SITE_PROBE],
			    ns);
	local_irq_restore(flags);
}

void ut_cost_irqoff(enum ut_site site, u64 t0)
{
	u64 ns = local_clock() - t0;
	unsigned long flags;

	local_irq_save(flags);
	ut_cost_max(&this_cpu_ptr(ut_cost_data)->irqoff_max_ns[site], ns);
	local_irq_restore(flags);
}

void ut_cost_tracker_record(struct ut_tracker *tr, u64 t0)
{
	u64 ns = local_clock() - t0;
	u32 epoch = READ_ONCE(ut_cost_epoch);
	struct ut_cost_trk *t;
	unsigned long flags;

	local_irq_save(flags);
	t = this_cpu_ptr(tr->cost);
	if (t->epoch != epoch) {
		memset(&t->h, 0, sizeof(t->h));
		/* a reader that sees the epoch sees the cleared figures */
		smp_store_release(&t->epoch, epoch);
	}
	ut_cost_hist_add(&t->h, ns);
	local_irq_restore(flags);
}

/* With the tracker's data: a zeroed histogram belongs to no switch-on. */
int ut_cost_tracker_alloc(struct ut_tracker *tr)
{
	tr->cost = alloc_percpu(struct ut_cost_trk);
	return tr->cost ? 0 : -ENOMEM;
}

void ut_cost_tracker_free(struct ut_tracker *tr)
{
	free_percpu(tr->cost);
	tr->cost = NULL;
}

unsigned int ut_cost_enabled(void)
{
	return READ_ONCE(ut_cost_level);
}

/* The cost of the measurement itself, with interrupts off as a probe. */
static void ut_cost_measure_clock(void)
{
	unsigned long flags;
	int i;

	memset(&ut_cost_clock, 0, sizeof(ut_cost_clock));
	for (i = 0; i < 256; i++) {
		u64 t0;

		local_irq_save(flags);
		t0 = local_clock();
		ut_cost_hist_add(&ut_cost_clock, local_clock() - t0);
		local_irq_restore(flags);
	}
}

/* Off: a probe that saw a flag on may still record after this returns. */
static void ut_cost_off(void)
{
	WRITE_ONCE(ut_cost_trk_on, false);
	WRITE_ONCE(ut_cost_on, false);
	WRITE_ONCE(ut_cost_level, UT_COST_OFF);
}

/*
 * Switch to @level: off (the figures are kept), or on (clearing what was
 * recorded); the level it is at already changes nothing. The data
 * outlives the flags: a probe that saw a flag on may still record after
 * it goes off, so clearing happens only while off and after every probe
 * that could have seen it on has returned. Trackers' histograms are
 * cleared by a new epoch, published before a flag goes on.
 */
int ut_cost_set(unsigned int level)
{
	int cpu, ret = 0;

	if (level > UT_COST_TRACKERS)
		return -EINVAL;
	mutex_lock(&ut_cost_lock);
	if (level == ut_cost_level)
		goto out;
	ut_cost_off();
	if (level == UT_COST_OFF)
		goto out;
	if (!ut_cost_data) {
		ut_cost_data = alloc_percpu(struct ut_cost_cpu);
		if (!ut_cost_data) {
			ret = -ENOMEM;
			goto out;
		}
	}
	synchronize_rcu();
	for_each_possible_cpu(cpu)
		memset(per_cpu_ptr(ut_cost_data, cpu), 0, sizeof(struct ut_cost_cpu));
	/* never 0, which a new tracker's histograms start at */
	WRITE_ONCE(ut_cost_epoch, ut_cost_epoch + 1 ?: 1);
	ut_cost_measure_clock();
	if (level == UT_COST_TRACKERS)
		/* a probe that sees the flag on sees the new epoch */
		smp_store_release(&ut_cost_trk_on, true);
	/* a probe that sees the flag on sees the cleared histograms */
	smp_store_release(&ut_cost_on, true);
	WRITE_ONCE(ut_cost_level, level);
out:
	mutex_unlock(&ut_cost_lock);
	return ret;
}

/* The smallest bucket top at or under which @pct % of @h's counts lie. */
static u64 ut_cost_percentile(const struct ut_cost_hist *h, unsigned int pct)
{
	u64 need = div_u64(h->count * pct + 99, 100), seen = 0;
	unsigned int b;

	for (b = 0; b < UT_COST_BUCKETS && need; b++) {
		seen += h->bucket[b];
		if (seen >= need)
			return min(ut_cost_bucket_top(b), h->max_ns);
	}
	return 0;
}

/* Add one CPU's histogram @c into @h. */
static void ut_cost_hist_sum(struct ut_cost_hist *h, const struct ut_cost_hist *c)
{
	unsigned int b;

	h->count += READ_ONCE(c->count);
	h->sum_ns += READ_ONCE(c->sum_ns);
	h->max_ns = max(h->max_ns, READ_ONCE(c->max_ns));
	for (b = 0; b < UT_COST_BUCKETS; b++)
		h->bucket[b] += READ_ONCE(c->bucket[b]);
}

/* Percentiles are bucket tops (at most 25 % above the true value). */
static void ut_cost_summarize(const struct ut_cost_hist *h,
			      struct ut_cost_summary *sum)
{
	sum->count = h->count;
	sum->mean_ns = h->count ? div64_u64(h->sum_ns, h->count) : 0;
	sum->p50_ns = ut_cost_percentile(h, 50);
	sum->p99_ns = ut_cost_percentile(h, 99);
	sum->max_ns = h->max_ns;
}

/* Under ut_cost_lock: @tp's figures over every CPU, or -ENODATA. */
static int ut_cost_summary_locked(enum ut_tp tp, struct ut_cost_summary *sum)
{
	int cpu;

	memset(sum, 0, sizeof(*sum));
	if (!ut_cost_data)
		return -ENODATA;
	memset(&ut_cost_scratch, 0, sizeof(ut_cost_scratch));
	for_each_possible_cpu(cpu)
		ut_cost_hist_sum(&ut_cost_scratch,
				 &per_cpu_ptr(ut_cost_data, cpu)->ev[tp]);
	ut_cost_summarize(&ut_cost_scratch, sum);
	return 0;
}

/* @tp's figures summed over every CPU; -ENODATA if never switched on. */
int ut_cost_summary(enum ut_tp tp, struct ut_cost_summary *sum)
{
	int ret;

	mutex_lock(&ut_cost_lock);
	ret = ut_cost_summary_locked(tp, sum);
	mutex_unlock(&ut_cost_lock);
	return ret;
}

/*
 * @tr's figures over the CPUs that recorded since the last switch-on;
 * -ENODATA if never switched on. The caller keeps @tr enabled.
 */
int ut_cost_tracker_summary(struct ut_tracker *tr, struct ut_cost_summary *sum)
{
	int cpu;

	memset(sum, 0, sizeof(*sum));
	mutex_lock(&ut_cost_lock);
	if (!ut_cost_epoch || !tr->cost) {
		mutex_unlock(&ut_cost_lock);
		return -ENODATA;
	}
	memset(&ut_cost_scratch, 0, sizeof(ut_cost_scratch));
	for_each_possible_cpu(cpu) {
		const struct ut_cost_trk *t = per_cpu_ptr(tr->cost, cpu);

		/* pairs with the release in ut_cost_tracker_record() */
		if (smp_load_acquire(&t->epoch) == ut_cost_epoch)
			ut_cost_hist_sum(&ut_cost_scratch, &t->h);
	}
	ut_cost_summarize(&ut_cost_scratch, sum);
	mutex_unlock(&ut_cost_lock);
	return 0;
}

static void ut_cost_print(struct seq_file *m, const char *prefix,
			  const char *name, const struct ut_cost_summary *sum)
{
	seq_printf(m, "%s%s %llu %llu %llu %llu %llu\n", prefix, name,
		   sum->count, sum->mean_ns, sum->p50_ns, sum->p99_ns,
		   sum->max_ns);
}

/*
 * debugfs "cost": name count mean_ns p50_ns p99_ns max_ns, per event,
 * then clock_read; ut_cost_tracker_show() adds the trackers' rows.
 */
int ut_cost_show(struct seq_file *m)
{
	struct ut_cost_summary sum;
	int i;

	mutex_lock(&ut_cost_lock);
	seq_puts(m, "name count mean_ns p50_ns p99_ns max_ns\n");
	for (i = 0; i < UT_TP_NR; i++) {
		/* never measured: zeros */
		ut_cost_summary_locked(i, &sum);
		ut_cost_print(m, "", ut_tp_names[i], &sum);
	}
	ut_cost_summarize(&ut_cost_clock, &sum);
	ut_cost_print(m, "", "clock_read", &sum);
	mutex_unlock(&ut_cost_lock);
	return 0;
}

/* debugfs "cost": tracker:NAME's row, for an enabled tracker */
void ut_cost_tracker_show(struct seq_file *m, struct ut_tracker *tr)
{
	struct ut_cost_summary sum;

	ut_cost_tracker_summary(tr, &sum);
	ut_cost_print(m, "tracker:", tr->ops->name, &sum);
}

/* The longest interrupts-off section of @site on any CPU; 0 if never measured. */
static u64 ut_cost_irqoff_max(enum ut_site site)
{
	u64 max = 0;
	int cpu;

	if (!ut_cost_data)
		return 0;
	for_each_possible_cpu(cpu)
		max = max(max, READ_ONCE(per_cpu_ptr(ut_cost_data,
						     cpu)->irqoff_max_ns[site]));
	return max;
}

/* debugfs "irqoff": site max_ns, the longest interrupts-off section */
int ut_cost_irqoff_show(struct seq_file *m)
{
	int i;

	mutex_lock(&ut_cost_lock);
	seq_puts(m, "site max_ns\n");
	for (i = 0; i < UT_SITE_NR; i++)
		seq_printf(m, "%s %llu\n", ut_site_names[i], ut_cost_irqoff_max(i));
	mutex_unlock(&ut_cost_lock);
	return 0;
}

/* At unload, after every probe is gone. */
void ut_cost_exit(void)
{
	ut_cost_off();
	free_percpu(ut_cost_data);
	ut_cost_data = NULL;
}
