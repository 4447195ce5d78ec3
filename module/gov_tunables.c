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
 *                  schedutil sums them)
 *   rate_limit_us  minimum time between decisions
 *   headroom_pct   100..200, schedutil's 1.25 is 125
 *   rt_policy      max: an RT/DL task running asks fmax (what schedutil
 *                  does without uclamp); util: RT only counts through
 *                  the signal
 *   iowait_boost   0/1, schedutil's I/O-wait boost
 *   runnable_boost 0/1, schedutil's runnable boosting (since 6.5): util
 *                  raised to the runnable average, for trackers that
 *                  have one (pelt, and pelt_rt's cfs part); defaults to
 *                  what the running kernel's schedutil does
 *   hispeed_load   0 (off, the default) or 1..100: at this percentage
 *                  of capacity ask for at least hispeed_freq, as
 *                  Android's WALT governors do
 *   hispeed_freq   kHz, 0 (the default) meaning the policy's maximum
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

static ssize_t signal_show(struct gov_attr_set *set, char *buf)
{
	char signal[UT_GOV_SIGNAL_LEN];

	ut_gov_read_signal(ut_gov_to_tunables(set), signal);
	return sysfs_emit(buf, "%s\n", signal);
}

/* A signal (ut_signal_lookup()): a registered tracker or a sum of them. */
static ssize_t signal_store(struct gov_attr_set *set, const char *buf,
			    size_t count)
{
	struct ut_gov_tunables *t = ut_gov_to_tunables(set);
	char name[UT_GOV_SIGNAL_LEN];
	unsigned int needs;

	if (ut_gov_parse_name(buf, count, name, sizeof(name)) ||
	    ut_signal_lookup(name, &needs))
		return -EINVAL;
	ut_gov_set_signal(t, name, needs);
	return count;
}

/* Parse a bounded decimal into @field, or leave it and fail with -EINVAL. */
static ssize_t ut_gov_store_uint(const char *buf, size_t count, u32 min,
				 u32 max, unsigned int *field)
{
	u32 v;

	if (ut_gov_parse_uint(buf, count, min, max, &v))
		return -EINVAL;
	WRITE_ONCE(*field, v);
	return count;
}

static ssize_t rate_limit_us_show(struct gov_attr_set *set, char *buf)
{
	return sysfs_emit(buf, "%u\n", ut_gov_to_tunables(set)->rate_limit_us);
}

static ssize_t rate_limit_us_store(struct gov_attr_set *set, const char *buf,
				   size_t count)
{
	struct ut_gov_tunables *t = ut_gov_to_tunables(set);
	struct ut_gov_policy *gp;
	ssize_t ret;

	ret = ut_gov_store_uint(buf, count, 0, UT_GOV_RATE_LIMIT_MAX,
				&t->rate_limit_us);
	if (ret < 0)
		return ret;
	list_for_each_entry(gp, &set->policy_list, tunables_hook)
		ut_gov_apply_rate_limit(gp);
	return ret;
}

static ssize_t rt_policy_show(struct gov_attr_set *set, char *buf)
{
	return sysfs_emit(buf, "%s\n",
			  ut_gov_rt_names[ut_gov_to_tunables(set)->rt_policy]);
}

static ssize_t rt_policy_store(struct gov_attr_set *set, const char *buf,
			       size_t count)
{
	int v = ut_gov_parse_choice(buf, count, ut_gov_rt_names,
				    ARRAY_SIZE(ut_gov_rt_names));

	if (v < 0)
		return -EINVAL;
	WRITE_ONCE(ut_gov_to_tunables(set)->rt_policy, v);
	return count;
}

static ssize_t headroom_pct_show(struct gov_attr_set *set, char *buf)
{
	return sysfs_emit(buf, "%u\n", ut_gov_to_tunables(set)->headroom_pct);
}

static ssize_t headroom_pct_store(struct gov_attr_set *set, const char *buf,
				  size_t count)
{
	return ut_gov_store_uint(buf, count, UT_FREQ_HEADROOM_MIN, UT_FREQ_HEADROOM_MAX,
				 &ut_gov_to_tunables(set)->headroom_pct);
}

static ssize_t iowait_boost_show(struct gov_attr_set *set, char *buf)
{
	return sysfs_emit(buf, "%u\n", ut_gov_to_tunables(set)->iowait_boost);
}

static ssize_t iowait_boost_store(struct gov_attr_set *set, const char *buf,
				  size_t count)
{
	return ut_gov_store_uint(buf, count, 0, 1,
				 &ut_gov_to_tunables(set)->iowait_boost);
}

static ssize_t runnable_boost_show(struct gov_attr_set *set, char *buf)
{
	return sysfs_emit(buf, "%u\n", ut_gov_to_tunables(set)->runnable_boost);
}

static ssize_t runnable_boost_store(struct gov_attr_set *set, const char *buf,
				    size_t count)
{
	return ut_gov_store_uint(buf, count, 0, 1,
				 &ut_gov_to_tunables(set)->runnable_boost);
}

static ssize_t hispeed_load_show(struct gov_attr_set *set, char *buf)
{
	return sysfs_emit(buf, "%u\n", ut_gov_to_tunables(set)->hispeed_load);
}

static ssize_t hispeed_load_store(struct gov_attr_set *set, const char *buf,
				  size_t count)
{
	return ut_gov_store_uint(buf, count, 0, UT_FREQ_HISPEED_LOAD_MAX,
				 &ut_gov_to_tunables(set)->hispeed_load);
}

static ssize_t hispeed_freq_show(struct gov_attr_set *set, char *buf)
{
	return sysfs_emit(buf, "%u\n", ut_gov_to_tunables(set)->hispeed_freq);
}

/* any kHz: the request is clamped to the policy's limits like any other */
static ssize_t hispeed_freq_store(struct gov_attr_set *set, const char *buf,
				  size_t count)
{
	return ut_gov_store_uint(buf, count, 0, U32_MAX,
				 &ut_gov_to_tunables(set)->hispeed_freq);
}

static struct governor_attr signal = __ATTR_RW(signal);
static struct governor_attr rate_limit_us = __ATTR_RW(rate_limit_us);
static struct governor_attr headroom_pct = __ATTR_RW(headroom_pct);
static struct governor_attr rt_policy = __ATTR_RW(rt_policy);
static struct governor_attr iowait_boost = __ATTR_RW(iowait_boost);
static struct governor_attr runnable_boost = __ATTR_RW(runnable_boost);
static struct governor_attr hispeed_load = __ATTR_RW(hispeed_load);
static struct governor_attr hispeed_freq = __ATTR_RW(hispeed_freq);

static struct attribute *ut_gov_attrs[] = {
	&signal.attr,
	&rate_limit_us.attr,
	&headroom_pct.attr,
	&rt_policy.attr,
	&iowait_boost.attr,
	&runnable_boost.attr,
	&hispeed_load.attr,
	&hispeed_freq.attr,
	NULL
};
ATTRIBUTE_GROUPS(ut_gov);

static void ut_gov_tunables_free(struct kobject *kobj)
{
	kfree(ut_gov_to_tunables(to_gov_attr_set(kobj)));
}

static const struct kobj_type ut_gov_ktype = {
	.default_groups = ut_gov_groups,
	.sysfs_ops = &governor_sysfs_ops,
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
	return t;
}

int ut_gov_attach_tunables(struct ut_gov_policy *gp)
{
	struct cpufreq_policy *policy = gp->policy;
	struct ut_gov_tunables *t;
	int ret;

	if (ut_gov_global_tunables && !have_governor_per_policy()) {
		gp->tunables = ut_gov_global_tunables;
		gov_attr_set_get(&gp->tunables->attr_set, &gp->tunables_hook);
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
