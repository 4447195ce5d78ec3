// SPDX-License-Identifier: GPL-2.0
/*
 * signal.c - the registry's API for reading a CPU's signal by name.
 *
 * A signal is what a consumer (the governor) turns into a frequency: one
 * tracker's CPU utilization projected to now (its ->cpu_util, else the
 * first "cpus" column of ->cpu_show), or a sum of two trackers' as
 * schedutil sums cfs and rt ("pelt_rt": pelt's, with its runnable signal
 * when boosted, plus rt's; "util_est_rt": the same with util_est's cfs,
 * max(util_avg, util_est), which is what schedutil reads).
 *
 * A name is resolved to a handle once, when the name or the set of
 * enabled trackers changes, never per read: the handle records the
 * generation of the active set it was resolved against, and a reader
 * that finds that generation still published knows the trackers it
 * points at are alive for as long as it stays in its RCU-sched section
 * (the registry frees a disabled tracker's data only after a grace
 * period). Reading takes the CPU's tracking lock once for all parts.
 */

#include <linux/string.h>

#include "utiltrack.h"

/* Signals that sum trackers' CPU utilization; the first part boosts. */
static const struct {
	const char *name;
	const char *parts[UT_SIGNAL_PARTS];
} ut_signal_sums[] = {
	{ "pelt_rt", { "pelt", "rt" } },
	{ "util_est_rt", { "util_est", "rt" } },
};

static int ut_signal_sum_of(const char *name)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(ut_signal_sums); i++)
		if (!strcmp(ut_signal_sums[i].name, name))
			return i;
	return -ENOENT;
}

/*
 * Is @name a signal (a registered tracker, enabled or not, or a sum of
 * registered ones)? *@needs gets what its trackers need from the probes.
 */
int ut_signal_lookup(const char *name, unsigned int *needs)
{
	int sum = ut_signal_sum_of(name);
	unsigned int i, n;
	int ret;

	*needs = 0;
	if (sum < 0)
		return ut_reg_lookup(name, needs);
	for (i = 0; i < UT_SIGNAL_PARTS; i++) {
		const char *part = ut_signal_sums[sum].parts[i];

		if (!part)
			break;
		ret = ut_reg_lookup(part, &n);
		if (ret)
			return ret;
		*needs |= n;
	}
	return 0;
}

static struct ut_tracker *ut_signal_find(const struct ut_active *act,
					 const char *name)
{
	unsigned int i;

	for (i = 0; i < act->nr; i++)
		if (!strcmp(act->tr[i]->ops->name, name))
			return act->tr[i];
	return NULL;
}

/*
 * Resolve @name against @act (current, read under RCU-sched) into @sig.
 * A signal whose trackers are not all enabled resolves to none (nr 0),
 * which stays valid until the active set changes.
 */
void ut_signal_resolve(struct ut_signal *sig, const struct ut_active *act,
		       const char *name)
{
	int sum = ut_signal_sum_of(name);
	unsigned int i;

	memset(sig, 0, sizeof(*sig));
	sig->gen = act->gen;
	if (sum < 0) {
		sig->tr[0] = ut_signal_find(act, name);
		sig->nr = sig->tr[0] ? 1 : 0;
		return;
	}
	for (i = 0; i < UT_SIGNAL_PARTS && ut_signal_sums[sum].parts[i]; i++) {
		sig->tr[i] = ut_signal_find(act, ut_signal_sums[sum].parts[i]);
		if (!sig->tr[i]) {
			sig->nr = 0;
			return;
		}
		sig->nr = i + 1;
	}
}

/* One tracker's util of @c->cpu, raised to its runnable signal if @boost. */
static u32 ut_signal_part(struct ut_tracker *tr, const struct ut_ctx *c,
			  bool boost)
{
	const struct ut_tracker_ops *ops = tr->ops;
	u64 vals[UT_MAX_COLS] = {};
	u32 runnable = 0;

	if (ops->cpu_util)
		vals[0] = ops->cpu_util(tr, ut_tr_cpu(tr, c->cpu), c,
					boost ? &runnable : NULL);
	else if (ops->cpu_show)
		ops->cpu_show(tr, ut_tr_cpu(tr, c->cpu), c, vals);
	return min_t(u64, max_t(u64, vals[0], runnable), SCHED_CAPACITY_SCALE);
}

/*
 * @sig's value on @cpu (0..1024) projected to the sched_clock reading
 * @clk (0: now), the runnable boost applied to its first part only
 * (schedutil boosts cfs, then adds rt); false if @sig resolved to none.
 * The caller checked that @sig is current.
 */
bool ut_signal_read(const struct ut_signal *sig, int cpu, bool boost,
		    u64 clk, u32 *util)
{
	struct ut_cpu *uc = per_cpu_ptr(&ut_cpus, cpu);
	unsigned long flags;
	struct ut_ctx c;
	unsigned int i;
	u32 sum = 0;

	if (!sig->nr)
		return false;
	raw_spin_lock_irqsave(&uc->track_lock, flags);
	/* a read projects to @clk without moving the trackers' clock */
	ut_probe_read_ctx(&c, cpu, ut_probe_cpu_at(cpu, clk));
	for (i = 0; i < sig->nr; i++)
		sum += ut_signal_part(sig->tr[i], &c, boost && i == 0);
	raw_spin_unlock_irqrestore(&uc->track_lock, flags);
	*util = min_t(u32, sum, SCHED_CAPACITY_SCALE);
	return true;
}
