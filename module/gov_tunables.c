// SPDX-License-Identifier: GPL-2.0
/*
 * gov_tunables.c - the utiltrack governor's sysfs tunables.
 *
 * Per policy where the platform has a governor per policy, else one set
 * shared by every policy under cpufreq/utiltrack/ (gov_attr_set, as
 * schedutil). Every store validates its input and fails with -EINVAL,
 * leaving the old value, on anything else:
 *   signal         a signal (signal.c): a tracker whose first "cpus"
 *                  column drives frequency, or pelt_rt (cfs + rt, as
 *                  schedutil sums them), or util_est_rt (the same with
 *                  util_est's cfs, as schedutil reads it)
 *   rate_limit_us  minimum time between decisions
 *   headroom_pct   100..200, schedutil's 1.25 is 125
 *   rt_policy      max: an RT task running asks fmax (what schedutil
 *                  does without uclamp); util: RT only counts through
 *                  the signal
 *   iowait_boost   0/1, schedutil's I/O-wait boost
 *   runnable_boost 0/1, schedutil's runnable boosting (since 6.5): util
 *                  raised to the runnable average, for trackers that
 *                  have one (pelt, util_est, and the cfs part of
 *                  pelt_rt and util_est_rt); defaults to
 *                  what the running kernel's schedutil does
 *   hispeed_load   0 (off, the default) or 1..100: at this percentage
 *                  of capacity ask for at least hispeed_freq, as
 *                  Android's WALT governors do
 *   hispeed_freq   kHz, 0 (the default) meaning the policy's maximum
 *   busy_hold      0/1, schedutil's hold on a single-CPU policy: no cut
 *                  while the CPU has not been idle since the last
 *                  decision (the default, as schedutil)
 *   preset         a named set of all the above but rate_limit_us (the
 *                  platform's): reads the presets, the one in force in
 *                  brackets; a write sets them all at once
 * Decisions read them with READ_ONCE() and the signal under its seqlock.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/slab.h>
#include <linux/string.h>
#include <utiltrack/freq.h>

#include "governor.h"
#include "compat/sched.h"

static const char * const ut_gov_rt_names[] = { "max", "util" };
/* without a governor per policy, the one set every policy shares */
static struct ut_gov_tunables *ut_gov_global_tunables;

void ut_gov_read_signal(struct ut_gov_tunables *t, char *buf)
{
	unsigned int seq;

	do {
		seq = read_seqbegin(&t->signal_lock);
		memcpy(buf, t->signal, UT_GOV_SIGNAL_LEN);
	} while (read_seqretry(&t->signal_lock, seq));
	buf[UT_GOV_SIGNAL_LEN - 1] = '\0';
}

/* Store @name (a valid signal) and what its trackers need. */
static void ut_gov_set_signal(struct ut_gov_tunables *t, const char *name,
			      unsigned int needs)
{
	unsigned long flags;

	write_seqlock_irqsave(&t->signal_lock, flags);
	strscpy(t->signal, name, sizeof(t->signal));
	WRITE_ONCE(t->tick_driven, needs & UT_NEED_TICK);
	/* decisions compare it with what they last read: never 0 */
	WRITE_ONCE(t->signal_gen, t->signal_gen + 1 ?: 1);
	write_sequnlock_irqrestore(&t->signal_lock, flags);
}

static struct ut_gov_tunables *ut_gov_to_tunables(struct gov_attr_set *set)
{
	return container_of(set, struct ut_gov_tunables, attr_set);
}

void ut_gov_apply_rate_limit(struct ut_gov_policy *gp)
{
	WRITE_ONCE(gp->freq_update_delay_ns,
		   (s64)gp->tunables->rate_limit_us * NSEC_PER_USEC);
}

/*
 * One tunable file. A number is described by where it lives and its
 * bounds, so one show and one store serve them all; the words (signal,
 * rt_policy) have their own.
 */
struct ut_gov_attr {
	struct attribute attr;
	ssize_t (*show)(struct ut_gov_tunables *t,
			const struct ut_gov_attr *a, char *buf);
	ssize_t (*store)(struct gov_attr_set *set,
			 const struct ut_gov_attr *a, const char *buf,
			 size_t count);
	size_t offset;		/* a number's field in ut_gov_tunables */
	u32 min, max;
	void (*stored)(struct gov_attr_set *set);	/* after a change */
};

static unsigned int *ut_gov_attr_field(struct ut_gov_tunables *t,
				       const struct ut_gov_attr *a)
{
	return (unsigned int *)((char *)t + a->offset);
}

static ssize_t ut_gov_uint_show(struct ut_gov_tunables *t,
				const struct ut_gov_attr *a, char *buf)
{
	return sysfs_emit(buf, "%u\n", READ_ONCE(*ut_gov_attr_field(t, a)));
}

/* A decimal within [min, max], or -EINVAL and the old value kept. */
static ssize_t ut_gov_uint_store(struct gov_attr_set *set,
				 const struct ut_gov_attr *a, const char *buf,
				 size_t count)
{
	u32 v;

	if (ut_gov_parse_uint(buf, count, a->min, a->max, &v))
		return -EINVAL;
	WRITE_ONCE(*ut_gov_attr_field(ut_gov_to_tunables(set), a), v);
	if (a->stored)
		a->stored(set);
	return count;
}

/* decisions read the delay from their policy, not the tunables */
static void ut_gov_rate_limit_stored(struct gov_attr_set *set)
{
	struct ut_gov_policy *gp;

	list_for_each_entry(gp, &set->policy_list, tunables_hook)
		ut_gov_apply_rate_limit(gp);
}

static ssize_t ut_gov_signal_show(struct ut_gov_tunables *t,
				  const struct ut_gov_attr *a, char *buf)
{
	char signal[UT_GOV_SIGNAL_LEN];

	ut_gov_read_signal(t, signal);
	return sysfs_emit(buf, "%s\n", signal);
}

/* A signal (ut_signal_lookup()): a registered tracker or a sum of them. */
static ssize_t ut_gov_signal_store(struct gov_attr_set *set,
				   const struct ut_gov_attr *a,
				   const char *buf, size_t count)
{
	char name[UT_GOV_SIGNAL_LEN];
	unsigned int needs;

	if (ut_gov_parse_name(buf, count, name, sizeof(name)) ||
	    ut_signal_lookup(name, &needs))
		return -EINVAL;
	ut_gov_set_signal(ut_gov_to_tunables(set), name, needs);
	return count;
}

static ssize_t ut_gov_rt_policy_show(struct ut_gov_tunables *t,
				     const struct ut_gov_attr *a, char *buf)
{
	return sysfs_emit(buf, "%s\n",
			  ut_gov_rt_names[READ_ONCE(t->rt_policy)]);
}

static ssize_t ut_gov_rt_policy_store(struct gov_attr_set *set,
				      const struct ut_gov_attr *a,
				      const char *buf, size_t count)
{
	int v = ut_gov_parse_choice(buf, count, ut_gov_rt_names,
				    ARRAY_SIZE(ut_gov_rt_names));

	if (v < 0)
		return -EINVAL;
	WRITE_ONCE(ut_gov_to_tunables(set)->rt_policy, v);
	ut_gov_needs_changed();
	return count;
}

/*
 * A preset: a signal and every tunable but the rate limit, so a choice
 * documented by name (docs/governor.md, presets) is one write, and a
 * reader can tell whether it is still in force. runnable_boost is
 * always what the running kernel's schedutil does; hispeed_freq is a
 * share of fmax, so one preset fits every platform.
 */
struct ut_gov_preset {
	const char *name;
	const char *signal;
	unsigned int rt_policy;
	unsigned int headroom_pct;
	unsigned int iowait_boost;
	unsigned int hispeed_load;
	unsigned int hispeed_pct;	/* of fmax; 0 is fmax, as hispeed_freq 0 */
	unsigned int busy_hold;
};

static const struct ut_gov_preset ut_gov_presets[] = {
	/* what a load starts with */
	{ .name = "default", .signal = UT_GOV_SIGNAL_DEF,
	  .rt_policy = UT_GOV_RT_MAX, .headroom_pct = UT_FREQ_HEADROOM_DEF,
	  .iowait_boost = 1, .busy_hold = 1 },
	/* schedutil's inputs as the shadow reproduces them (needs util_est) */
	{ .name = "schedutil", .signal = "util_est_rt",
	  .rt_policy = UT_GOV_RT_MAX, .headroom_pct = UT_FREQ_HEADROOM_DEF,
	  .iowait_boost = 1, .busy_hold = 1 },
	/*
	 * schedutil's inputs, and at 40 % of capacity at least 60 % of fmax:
	 * a burst that util_est remembers starts near the speed it needs
	 * (docs/governor.md, presets, for what it buys and costs)
	 */
	{ .name = "efficient", .signal = "util_est_rt",
	  .rt_policy = UT_GOV_RT_MAX, .headroom_pct = UT_FREQ_HEADROOM_DEF,
	  .iowait_boost = 1, .hispeed_load = 40, .hispeed_pct = 60,
	  .busy_hold = 1 },
};

/*
 * @p's hispeed_freq for @t: its share of the highest fmax of @t's
 * policies, kept in @t at attach so that a read needs no lock (the set's
 * update_lock is destroyed before the last show has drained).
 */
static unsigned int ut_gov_preset_hispeed(struct ut_gov_tunables *t,
					  const struct ut_gov_preset *p)
{
	return p->hispeed_pct ?
	       mult_frac(READ_ONCE(t->fmax), p->hispeed_pct, 100) : 0;
}

static bool ut_gov_preset_in_force(struct ut_gov_tunables *t,
				   const struct ut_gov_preset *p,
				   const char *signal)
{
	return !strcmp(signal, p->signal) &&
	       READ_ONCE(t->rt_policy) == p->rt_policy &&
	       READ_ONCE(t->headroom_pct) == p->headroom_pct &&
	       READ_ONCE(t->iowait_boost) == p->iowait_boost &&
	       READ_ONCE(t->runnable_boost) == UT_SUGOV_RUNNABLE_BOOST &&
	       READ_ONCE(t->hispeed_load) == p->hispeed_load &&
	       READ_ONCE(t->hispeed_freq) == ut_gov_preset_hispeed(t, p) &&
	       READ_ONCE(t->busy_hold) == p->busy_hold;
}

static ssize_t ut_gov_preset_show(struct ut_gov_tunables *t,
				  const struct ut_gov_attr *a, char *buf)
{
	char signal[UT_GOV_SIGNAL_LEN];
	const struct ut_gov_preset *p;
	ssize_t n = 0;
	unsigned int i;

	ut_gov_read_signal(t, signal);
	for (i = 0; i < ARRAY_SIZE(ut_gov_presets); i++) {
		p = &ut_gov_presets[i];
		n += sysfs_emit_at(buf, n, ut_gov_preset_in_force(t, p, signal) ?
				   "%s[%s]" : "%s%s", i ? " " : "", p->name);
	}
	return n + sysfs_emit_at(buf, n, "\n");
}

/* A preset's name, or -EINVAL with every tunable as it was. */
static ssize_t ut_gov_preset_store(struct gov_attr_set *set,
				   const struct ut_gov_attr *a,
				   const char *buf, size_t count)
{
	struct ut_gov_tunables *t = ut_gov_to_tunables(set);
	char name[UT_GOV_SIGNAL_LEN];
	const struct ut_gov_preset *p = NULL;
	unsigned int i, needs;

	if (ut_gov_parse_name(buf, count, name, sizeof(name)))
		return -EINVAL;
	for (i = 0; i < ARRAY_SIZE(ut_gov_presets) && !p; i++)
		if (!strcmp(name, ut_gov_presets[i].name))
			p = &ut_gov_presets[i];
	if (!p || ut_signal_lookup(p->signal, &needs))
		return -EINVAL;
	/*
	 * A decision meanwhile may see the new tunables with the old
	 * signal, as with separate writes; the next one sees them all.
	 */
	WRITE_ONCE(t->rt_policy, p->rt_policy);
	WRITE_ONCE(t->headroom_pct, p->headroom_pct);
	WRITE_ONCE(t->iowait_boost, p->iowait_boost);
	WRITE_ONCE(t->runnable_boost, UT_SUGOV_RUNNABLE_BOOST);
	WRITE_ONCE(t->hispeed_load, p->hispeed_load);
	WRITE_ONCE(t->hispeed_freq, ut_gov_preset_hispeed(t, p));
	WRITE_ONCE(t->busy_hold, p->busy_hold);
	ut_gov_set_signal(t, p->signal, needs);
	ut_gov_needs_changed();
	return count;
}

/* world-readable and root-writable, as schedutil's */
#define UT_GOV_ATTR(_name, _show, _store)				\
	.attr = { .name = _name, .mode = 0644 },			\
	.show = _show, .store = _store

#define UT_GOV_UINT(_name, _min, _max, _stored) {			\
	UT_GOV_ATTR(__stringify(_name), ut_gov_uint_show, ut_gov_uint_store), \
	.offset = offsetof(struct ut_gov_tunables, _name),		\
	.min = _min, .max = _max, .stored = _stored,			\
}

static struct ut_gov_attr signal = {
	UT_GOV_ATTR("signal", ut_gov_signal_show, ut_gov_signal_store),
};

static struct ut_gov_attr rt_policy = {
	UT_GOV_ATTR("rt_policy", ut_gov_rt_policy_show, ut_gov_rt_policy_store),
};

static struct ut_gov_attr preset = {
	UT_GOV_ATTR("preset", ut_gov_preset_show, ut_gov_preset_store),
};

static struct ut_gov_attr rate_limit_us =
	UT_GOV_UINT(rate_limit_us, 0, UT_GOV_RATE_LIMIT_MAX,
		    ut_gov_rate_limit_stored);
static struct ut_gov_attr headroom_pct =
	UT_GOV_UINT(headroom_pct, UT_FREQ_HEADROOM_MIN, UT_FREQ_HEADROOM_MAX,
		    NULL);
static struct ut_gov_attr iowait_boost = UT_GOV_UINT(iowait_boost, 0, 1, NULL);
static struct ut_gov_attr runnable_boost =
	UT_GOV_UINT(runnable_boost, 0, 1, NULL);
static struct ut_gov_attr hispeed_load =
	UT_GOV_UINT(hispeed_load, 0, UT_FREQ_HISPEED_LOAD_MAX, NULL);
/* any kHz: the request is clamped to the policy's limits like any other */
static struct ut_gov_attr hispeed_freq = UT_GOV_UINT(hispeed_freq, 0, U32_MAX, NULL);
static struct ut_gov_attr busy_hold = UT_GOV_UINT(busy_hold, 0, 1, NULL);

static struct attribute *ut_gov_attrs[] = {
	&signal.attr,
	&rate_limit_us.attr,
	&headroom_pct.attr,
	&rt_policy.attr,
	&iowait_boost.attr,
	&runnable_boost.attr,
	&hispeed_load.attr,
	&hispeed_freq.attr,
	&busy_hold.attr,
	&preset.attr,
	NULL
};
ATTRIBUTE_GROUPS(ut_gov);

static void ut_gov_tunables_free(struct kobject *kobj)
{
	kfree(ut_gov_to_tunables(ut_to_gov_attr_set(kobj)));
}

static ssize_t ut_gov_sysfs_show(struct kobject *kobj, struct attribute *attr,
				 char *buf)
{
	const struct ut_gov_attr *a = container_of(attr, struct ut_gov_attr,
						   attr);

	return a->show(ut_gov_to_tunables(ut_to_gov_attr_set(kobj)), a, buf);
}

/*
 * Stores are serialized per set and refused once its last policy has
 * let go of it, as cpufreq's governor_sysfs_ops do.
 */
static ssize_t ut_gov_sysfs_store(struct kobject *kobj, struct attribute *attr,
				  const char *buf, size_t count)
{
	struct gov_attr_set *set = ut_to_gov_attr_set(kobj);
	const struct ut_gov_attr *a = container_of(attr, struct ut_gov_attr,
						   attr);
	ssize_t ret;

	mutex_lock(&set->update_lock);
	ret = set->usage_count ? a->store(set, a, buf, count) : -EBUSY;
	mutex_unlock(&set->update_lock);
	return ret;
}

static const struct sysfs_ops ut_gov_sysfs_ops = {
	.show = ut_gov_sysfs_show,
	.store = ut_gov_sysfs_store,
};

/* not const: kobject_init_and_add() takes it so only in newer kernels */
static struct kobj_type ut_gov_ktype = {
	.default_groups = ut_gov_groups,
	.sysfs_ops = &ut_gov_sysfs_ops,
	.release = ut_gov_tunables_free,
};

/* Defaults that behave as stock schedutil does on these kernels. */
static struct ut_gov_tunables *ut_gov_tunables_alloc(struct ut_gov_policy *gp)
{
	struct ut_gov_tunables *t = kzalloc(sizeof(*t), GFP_KERNEL);

	if (!t)
		return NULL;
	gov_attr_set_init(&t->attr_set, &gp->tunables_hook);
	seqlock_init(&t->signal_lock);
	ut_gov_set_signal(t, UT_GOV_SIGNAL_DEF, 0);
	t->rate_limit_us = cpufreq_policy_transition_delay_us(gp->policy);
	t->headroom_pct = UT_FREQ_HEADROOM_DEF;
	t->rt_policy = UT_GOV_RT_MAX;
	t->iowait_boost = 1;
	t->runnable_boost = UT_SUGOV_RUNNABLE_BOOST;
	t->busy_hold = 1;
	return t;
}

/* Presets take their hispeed share of the highest fmax of @t's policies. */
static void ut_gov_note_fmax(struct ut_gov_tunables *t,
			     struct cpufreq_policy *policy)
{
	WRITE_ONCE(t->fmax, max(READ_ONCE(t->fmax), policy->cpuinfo.max_freq));
}

int ut_gov_attach_tunables(struct ut_gov_policy *gp)
{
	struct cpufreq_policy *policy = gp->policy;
	struct ut_gov_tunables *t;
	int ret;

	if (ut_gov_global_tunables && !have_governor_per_policy()) {
		gp->tunables = ut_gov_global_tunables;
		gov_attr_set_get(&gp->tunables->attr_set, &gp->tunables_hook);
		ut_gov_note_fmax(gp->tunables, policy);
		return 0;
	}
	t = ut_gov_tunables_alloc(gp);
	if (!t)
		return -ENOMEM;
	gp->tunables = t;
	ret = kobject_init_and_add(&t->attr_set.kobj, &ut_gov_ktype,
				   get_governor_parent_kobj(policy), "%s",
				   UT_GOV_NAME);
	if (ret) {
		kobject_put(&t->attr_set.kobj);
		gp->tunables = NULL;
		return ret;
	}
	ut_gov_note_fmax(t, policy);
	if (!have_governor_per_policy())
		ut_gov_global_tunables = t;
	return 0;
}

void ut_gov_detach_tunables(struct ut_gov_policy *gp)
{
	if (!gov_attr_set_put(&gp->tunables->attr_set, &gp->tunables_hook) &&
	    !have_governor_per_policy())
		ut_gov_global_tunables = NULL;
}
