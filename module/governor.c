// SPDX-License-Identifier: GPL-2.0
/*
 * governor.c - the "utiltrack" cpufreq governor.
 *
 * Schedutil's structure with the signal made a choice: the scheduler's
 * cpufreq_update_util() hook (and utiltrack's own probes, see
 * ut_gov_kick()) ask for a decision; the decision reads the chosen
 * tracker's per-CPU signal, maps it to a frequency with the shared core
 * (module/core/freq.c, schedutil's mapping) and requests it through the
 * driver's fast switch, or an irq_work and a kthread (schedutil's kind of
 * special DL task) when the driver can sleep.
 *
 * Tunables (gov_attr_set; per policy where the platform has a governor
 * per policy, else global under cpufreq/utiltrack/):
 *   signal         tracker whose first "cpus" column drives frequency,
 *                  or pelt_rt (cfs + rt, as schedutil sums them)
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
 *
 * Decisions run in scheduler context (rq lock held, irqs off): no
 * sleeping, O(CPUs in the policy), each CPU's utiltrack lock taken in
 * turn, never nested.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpufreq.h>
#include <linux/debugfs.h>
#include <linux/irq_work.h>
#include <linux/kthread.h>
#include <linux/lockdep.h>
#include <linux/sched/cpufreq.h>
#include <linux/seq_file.h>
#include <linux/seqlock.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <uapi/linux/sched/types.h>
#include <utiltrack/freq.h>
#include <utiltrack/gov.h>

#include "utiltrack.h"
#include "compat/cpufreq.h"
#include "compat/sched.h"
#include "trace/utiltrack_trace.h"

#define UT_GOV_NAME		"utiltrack"
#define UT_GOV_SIGNAL_LEN	33	/* a tracker name, NUL included */
#define UT_GOV_PELT_RT		"pelt_rt"
#define UT_GOV_IOWAIT_MIN	(SCHED_CAPACITY_SCALE / 8)
#define UT_GOV_RATE_LIMIT_MAX	(10 * USEC_PER_SEC)

enum { UT_GOV_RT_MAX, UT_GOV_RT_UTIL };
static const char * const ut_gov_rt_names[] = { "max", "util" };

struct ut_gov_tunables {
	struct gov_attr_set attr_set;
	seqlock_t signal_lock;	/* the hook copies signal under it */
	char signal[UT_GOV_SIGNAL_LEN];
	bool tick_driven;	/* signal's tracker advances on our tick */
	unsigned int rate_limit_us;
	unsigned int headroom_pct;
	unsigned int rt_policy;
	unsigned int iowait_boost;
	unsigned int runnable_boost;
	unsigned int hispeed_load;
	unsigned int hispeed_freq;
};

struct ut_gov_policy {
	struct cpufreq_policy *policy;
	struct ut_gov_tunables *tunables;
	struct list_head tunables_hook;
	struct list_head node;		/* ut_gov_policies */

	raw_spinlock_t update_lock;	/* shared policies */
	u64 last_freq_update_time;
	s64 freq_update_delay_ns;
	unsigned int next_freq;
	bool limits_changed;
	bool need_freq_update;

	/* slow path: drivers that cannot switch from scheduler context */
	bool work_in_progress;
	struct irq_work irq_work;
	struct kthread_work work;
	struct kthread_worker *worker;
	struct mutex work_lock;		/* driver target vs limits */

	/* statistics, debugfs "governor" */
	u64 decisions;		/* frequencies computed */
	u64 transitions;	/* decisions that changed the request */
	u64 rt_max;		/* decisions forced to fmax by rt_policy=max */
	u64 no_signal;		/* hook calls without the signal's tracker */
	u32 last_util;
	u32 last_raw_khz;
	u32 last_khz;
};

struct ut_gov_cpu {
	struct update_util_data update_util;
	struct ut_gov_policy *gp;
	struct ut_iowait io;
	/* the policy's worker, compared, never dereferenced */
	struct task_struct *worker;
	int cpu;
	bool hooked;		/* release/acquire: gp is valid */
};

static DEFINE_PER_CPU(struct ut_gov_cpu, ut_gov_cpus);
static struct ut_gov_tunables *ut_gov_global_tunables;
static DEFINE_MUTEX(ut_gov_global_lock);
static LIST_HEAD(ut_gov_policies);	/* under ut_gov_global_lock */
static struct cpufreq_governor ut_gov;

/* ------------------------------------------------------------------ */
/* reading the signal */

/*
 * @name's signal of @cpu into *@util, raised to its runnable signal when
 * @boost and the tracker has one; false if it is not enabled.
 */
static bool ut_gov_tracker_util(struct ut_active *act, const char *name,
				int cpu, bool boost, u32 *util)
{
	struct ut_rq *rq = per_cpu_ptr(&ut_rqs, cpu);
	unsigned int i;

	for (i = 0; i < act->nr; i++) {
		struct ut_tracker *tr = act->tr[i];
		const struct ut_tracker_ops *ops = tr->ops;
		u64 vals[UT_MAX_COLS] = {};
		unsigned long flags;
		u32 runnable = 0;
		struct ut_ctx c;

		if (strcmp(ops->name, name))
			continue;
		raw_spin_lock_irqsave(&rq->lock, flags);
		c.now = ut_probe_cpu_now(cpu);
		c.cpu = cpu;
		c.scale = ut_inv_scale(rq);
		if (ops->cpu_util)
			vals[0] = ops->cpu_util(tr, ut_tr_cpu(tr, cpu), &c,
						boost ? &runnable : NULL);
		else if (ops->cpu_show)
			ops->cpu_show(tr, ut_tr_cpu(tr, cpu), &c, vals);
		vals[0] = max_t(u64, vals[0], runnable);
		raw_spin_unlock_irqrestore(&rq->lock, flags);
		*util = min_t(u64, vals[0], SCHED_CAPACITY_SCALE);
		return true;
	}
	return false;
}

/* As schedutil: the boost applies to the cfs part, rt is added after. */
static bool ut_gov_signal_util(struct ut_active *act, const char *signal,
			       int cpu, bool boost, u32 *util)
{
	u32 rt;

	if (strcmp(signal, UT_GOV_PELT_RT))
		return ut_gov_tracker_util(act, signal, cpu, boost, util);
	if (!ut_gov_tracker_util(act, "pelt", cpu, boost, util) ||
	    !ut_gov_tracker_util(act, "rt", cpu, false, &rt))
		return false;
	*util = min_t(u32, *util + rt, SCHED_CAPACITY_SCALE);
	return true;
}

static void ut_gov_read_signal(struct ut_gov_tunables *t, char *buf)
{
	unsigned int seq;

	do {
		seq = read_seqbegin(&t->signal_lock);
		memcpy(buf, t->signal, UT_GOV_SIGNAL_LEN);
	} while (read_seqretry(&t->signal_lock, seq));
	buf[UT_GOV_SIGNAL_LEN - 1] = '\0';
}

/* ------------------------------------------------------------------ */
/* decisions */

/*
 * cpufreq_this_cpu_can_update() is not exported; the same test with our
 * own hook flag: a CPU of the policy, or any CPU still running hooks
 * when the platform can switch from anywhere.
 */
static bool ut_gov_this_cpu_can_update(struct cpufreq_policy *policy)
{
	return cpumask_test_cpu(smp_processor_id(), policy->cpus) ||
	       (policy->dvfs_possible_from_any_cpu &&
		READ_ONCE(this_cpu_ptr(&ut_gov_cpus)->hooked));
}

static bool ut_gov_should_update(struct ut_gov_policy *gp, u64 time)
{
	if (!ut_gov_this_cpu_can_update(gp->policy))
		return false;
	if (unlikely(READ_ONCE(gp->limits_changed))) {
		WRITE_ONCE(gp->limits_changed, false);
		gp->need_freq_update = true;
		/* pairs with smp_wmb() in ut_gov_limits() */
		smp_mb();
		return true;
	}
	return (s64)(time - gp->last_freq_update_time) >=
	       READ_ONCE(gp->freq_update_delay_ns);
}

/* The raw frequency CPU @j asks for; sets *@util, *@rt. */
static bool ut_gov_cpu_request(struct ut_gov_policy *gp, struct ut_active *act,
			       const char *signal, int j, u64 time,
			       u32 *util, u32 *khz, bool *rt)
{
	struct ut_gov_tunables *t = gp->tunables;
	struct cpufreq_policy *policy = gp->policy;
	struct ut_rq *rq = per_cpu_ptr(&ut_rqs, j);
	u32 cap = ut_inv_capacity(j);
	/* an invariant signal is in fmax terms, else in current ones */
	u32 base = ut_invariance ? policy->cpuinfo.max_freq :
		   ut_sugov_noninvariant_ref(policy->cur);

	if (READ_ONCE(t->rt_policy) == UT_GOV_RT_MAX &&
	    READ_ONCE(rq->rt_running))
		*rt = true;
	if (!ut_gov_signal_util(act, signal, j, READ_ONCE(t->runnable_boost),
				util))
		return false;
	if (READ_ONCE(t->iowait_boost)) {
		struct ut_gov_cpu *gc = per_cpu_ptr(&ut_gov_cpus, j);
		u32 boost = ut_iowait_apply(&gc->io, time, UT_GOV_IOWAIT_MIN,
					    TICK_NSEC);

		*util = max(*util, (boost * cap) >> SCHED_CAPACITY_SHIFT);
	}
	*khz = ut_sugov_map(*util, base, cap, READ_ONCE(t->headroom_pct));
	*khz = ut_freq_hispeed(*khz, *util, cap, READ_ONCE(t->hispeed_load),
			       READ_ONCE(t->hispeed_freq) ?:
			       policy->cpuinfo.max_freq);
	return true;
}

static void ut_gov_commit(struct ut_gov_policy *gp, u64 time,
			  unsigned int freq)
{
	if (gp->need_freq_update)
		gp->need_freq_update = false;
	else if (gp->next_freq == freq)
		return;
	gp->next_freq = freq;
	gp->last_freq_update_time = time;
	ut_stat_inc(&gp->transitions);
	if (gp->policy->fast_switch_enabled) {
		cpufreq_driver_fast_switch(gp->policy, freq);
	} else if (!gp->work_in_progress) {
		gp->work_in_progress = true;
		irq_work_queue(&gp->irq_work);
	}
}

/* One decision for @gp's policy; the caller serializes per policy. */
static void ut_gov_decide(struct ut_gov_policy *gp, struct ut_gov_cpu *gc,
			  u64 time, unsigned int flags)
{
	struct ut_gov_tunables *t = gp->tunables;
	struct cpufreq_policy *policy = gp->policy;
	char signal[UT_GOV_SIGNAL_LEN];
	u32 util = 0, raw = 0, freq;
	struct ut_active *act;
	bool rt = false, any = false;
	int j;

	if (READ_ONCE(t->iowait_boost))
		ut_iowait_request(&gc->io, time, flags & SCHED_CPUFREQ_IOWAIT,
				  UT_GOV_IOWAIT_MIN, TICK_NSEC);
	if (!ut_gov_should_update(gp, time))
		return;

	ut_gov_read_signal(t, signal);
	act = rcu_dereference_sched(ut_active);
	for_each_cpu(j, policy->cpus) {
		u32 ju, jf;

		if (!act || !ut_gov_cpu_request(gp, act, signal, j, time,
						&ju, &jf, &rt))
			continue;
		any = true;
		util = max(util, ju);
		raw = max(raw, jf);
	}
	if (rt) {
		raw = policy->cpuinfo.max_freq;
		ut_stat_inc(&gp->rt_max);
	} else if (!any) {
		/* hold the frequency until the tracker is back */
		ut_stat_inc(&gp->no_signal);
		return;
	}
	freq = cpufreq_driver_resolve_freq(policy, raw);
	ut_stat_inc(&gp->decisions);
	WRITE_ONCE(gp->last_util, util);
	WRITE_ONCE(gp->last_raw_khz, raw);
	WRITE_ONCE(gp->last_khz, freq);
	trace_utiltrack_freq(gc->cpu, signal, util, raw, freq);
	ut_gov_commit(gp, time, freq);
}

static void ut_gov_update(struct update_util_data *hook, u64 time,
			  unsigned int flags)
{
	struct ut_gov_cpu *gc = container_of(hook, struct ut_gov_cpu,
					     update_util);
	struct ut_gov_policy *gp = gc->gp;

	raw_spin_lock(&gp->update_lock);
	ut_gov_decide(gp, gc, time, flags);
	raw_spin_unlock(&gp->update_lock);
}

/*
 * Is @p the governor's own worker on @cpu? Its DL runs serve frequency
 * changes; counted as RT load under rt_policy=max, each change would ask
 * for fmax again. (Schedutil's RT test does not see its worker either.)
 */
bool ut_gov_is_worker(int cpu, struct task_struct *p)
{
	return READ_ONCE(per_cpu_ptr(&ut_gov_cpus, cpu)->worker) == p;
}

/**
 * ut_gov_kick - a decision on @cpu's policy after utiltrack saw a change
 * @cpu: the local CPU
 * @time: sched_clock of @cpu, as the scheduler's hook gets
 * @why: what changed
 *
 * The scheduler's hook does not fire when an RT task starts running
 * (only at its enqueue, before the switch) nor when a window-based
 * signal rolls over; utiltrack's probes see both. Called from the
 * switch probe (rq lock held) and utiltrack's tick (hard irq).
 */
void ut_gov_kick(int cpu, u64 time, enum ut_gov_kick why)
{
	struct ut_gov_cpu *gc = per_cpu_ptr(&ut_gov_cpus, cpu);
	struct ut_gov_tunables *t;

	/* both callers run with interrupts off, as the scheduler's hook */
	lockdep_assert_irqs_disabled();

	/* pairs with the release in ut_gov_start(): gp is set */
	if (!smp_load_acquire(&gc->hooked))
		return;
	t = gc->gp->tunables;
	if (why == UT_GOV_KICK_RT && READ_ONCE(t->rt_policy) != UT_GOV_RT_MAX)
		return;
	if (why == UT_GOV_KICK_TICK && !READ_ONCE(t->tick_driven))
		return;
	ut_gov_update(&gc->update_util, time, 0);
}

/* ------------------------------------------------------------------ */
/* slow path */

static void ut_gov_work(struct kthread_work *work)
{
	struct ut_gov_policy *gp = container_of(work, struct ut_gov_policy,
						work);
	unsigned long flags;
	unsigned int freq;

	/* a newer request may land after this read: it queues us again */
	raw_spin_lock_irqsave(&gp->update_lock, flags);
	freq = gp->next_freq;
	gp->work_in_progress = false;
	raw_spin_unlock_irqrestore(&gp->update_lock, flags);

	mutex_lock(&gp->work_lock);
	__cpufreq_driver_target(gp->policy, freq, CPUFREQ_RELATION_L);
	mutex_unlock(&gp->work_lock);
}

static void ut_gov_irq_work(struct irq_work *irq_work)
{
	struct ut_gov_policy *gp = container_of(irq_work, struct ut_gov_policy,
						irq_work);

	kthread_queue_work(gp->worker, &gp->work);
}

/*
 * The worker is the special SCHED_DEADLINE entity schedutil's is:
 *  - it runs before any load, RT tasks included: a frequency change must
 *    not wait behind the load it serves (an RT task's fmax request under
 *    rt_policy=max would otherwise land after the task ran);
 *  - it kicks no scheduler hook. A SCHED_FIFO worker's enqueue and
 *    dequeue each call cpufreq_update_util() (enqueue_top_rt_rq()), so
 *    every change served on the slow path asked for the next decision at
 *    once, and a saturated CPU climbed OPP after OPP within a millisecond
 *    where schedutil waits for the next tick or enqueue (measured on
 *    6.12: fmax about 5 ms before schedutil in a step). The special
 *    entity has no bandwidth to account (add_running_bw() skips it), so
 *    both governors now decide at the same instants.
 * The bandwidth is fake, as schedutil's: it is never enforced.
 */
static int ut_gov_worker_create(struct ut_gov_policy *gp)
{
	struct sched_attr attr = {
		.size		= sizeof(attr),
		.sched_policy	= SCHED_DEADLINE,
		.sched_flags	= UT_SCHED_FLAG_SUGOV,
		.sched_runtime	= 1 * NSEC_PER_MSEC,
		.sched_deadline	= 10 * NSEC_PER_MSEC,
		.sched_period	= 10 * NSEC_PER_MSEC,
	};
	struct cpufreq_policy *policy = gp->policy;
	struct kthread_worker *worker;
	int ret;

	if (policy->fast_switch_enabled)
		return 0;
	kthread_init_work(&gp->work, ut_gov_work);
	init_irq_work(&gp->irq_work, ut_gov_irq_work);
	mutex_init(&gp->work_lock);
	worker = kthread_create_worker(0, "utiltrack_gov:%d",
				       cpumask_first(policy->related_cpus));
	if (IS_ERR(worker))
		return PTR_ERR(worker);
	ret = sched_setattr_nocheck(worker->task, &attr);
	if (ret) {
		kthread_destroy_worker(worker);
		return ret;
	}
	set_cpus_allowed_ptr(worker->task, policy->related_cpus);
	gp->worker = worker;
	return 0;
}

static void ut_gov_worker_destroy(struct ut_gov_policy *gp)
{
	if (!gp->worker)
		return;
	kthread_destroy_worker(gp->worker);
	gp->worker = NULL;
	mutex_destroy(&gp->work_lock);
}

/* ------------------------------------------------------------------ */
/* tunables */

static struct ut_gov_tunables *ut_gov_to_tunables(struct gov_attr_set *set)
{
	return container_of(set, struct ut_gov_tunables, attr_set);
}

static void ut_gov_apply_rate_limit(struct ut_gov_policy *gp)
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

/* A registered tracker (enabled or not), or pelt_rt. */
static ssize_t signal_store(struct gov_attr_set *set, const char *buf,
			    size_t count)
{
	struct ut_gov_tunables *t = ut_gov_to_tunables(set);
	char name[UT_GOV_SIGNAL_LEN];
	unsigned int needs = 0;

	if (ut_gov_parse_name(buf, count, name, sizeof(name)))
		return -EINVAL;
	if (strcmp(name, UT_GOV_PELT_RT) && ut_reg_lookup(name, &needs))
		return -EINVAL;
	write_seqlock_irq(&t->signal_lock);
	strscpy(t->signal, name, sizeof(t->signal));
	WRITE_ONCE(t->tick_driven, needs & UT_NEED_TICK);
	write_sequnlock_irq(&t->signal_lock);
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
	strscpy(t->signal, UT_GOV_PELT_RT, sizeof(t->signal));
	t->rate_limit_us = cpufreq_policy_transition_delay_us(gp->policy);
	t->headroom_pct = UT_FREQ_HEADROOM_DEF;
	t->rt_policy = UT_GOV_RT_MAX;
	t->iowait_boost = 1;
	t->runnable_boost = UT_SUGOV_RUNNABLE_BOOST;
	return t;
}

/* ------------------------------------------------------------------ */
/* governor callbacks */

static int ut_gov_attach_tunables(struct ut_gov_policy *gp)
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

static int ut_gov_init_policy(struct cpufreq_policy *policy)
{
	struct ut_gov_policy *gp;
	int ret;

	if (policy->governor_data)
		return -EBUSY;
	cpufreq_enable_fast_switch(policy);
	gp = kzalloc(sizeof(*gp), GFP_KERNEL);
	if (!gp) {
		ret = -ENOMEM;
		goto err_fast;
	}
	gp->policy = policy;
	raw_spin_lock_init(&gp->update_lock);
	ret = ut_gov_worker_create(gp);
	if (ret)
		goto err_free;

	mutex_lock(&ut_gov_global_lock);
	ret = ut_gov_attach_tunables(gp);
	if (!ret) {
		policy->governor_data = gp;
		list_add(&gp->node, &ut_gov_policies);
	}
	mutex_unlock(&ut_gov_global_lock);
	if (ret)
		goto err_worker;
	return 0;

err_worker:
	ut_gov_worker_destroy(gp);
err_free:
	kfree(gp);
err_fast:
	cpufreq_disable_fast_switch(policy);
	pr_err("governor: policy%u: initialization failed: %d\n", policy->cpu,
	       ret);
	return ret;
}

static void ut_gov_exit_policy(struct cpufreq_policy *policy)
{
	struct ut_gov_policy *gp = policy->governor_data;

	mutex_lock(&ut_gov_global_lock);
	list_del(&gp->node);
	if (!gov_attr_set_put(&gp->tunables->attr_set, &gp->tunables_hook) &&
	    !have_governor_per_policy())
		ut_gov_global_tunables = NULL;
	policy->governor_data = NULL;
	mutex_unlock(&ut_gov_global_lock);

	ut_gov_worker_destroy(gp);
	kfree(gp);
	cpufreq_disable_fast_switch(policy);
}

static int ut_gov_start(struct cpufreq_policy *policy)
{
	struct ut_gov_policy *gp = policy->governor_data;
	int cpu;

	ut_gov_apply_rate_limit(gp);
	gp->last_freq_update_time = 0;
	gp->next_freq = 0;
	gp->work_in_progress = false;
	gp->limits_changed = false;
	/* the first decision always reaches the driver */
	gp->need_freq_update = true;

	for_each_cpu(cpu, policy->cpus) {
		struct ut_gov_cpu *gc = per_cpu_ptr(&ut_gov_cpus, cpu);

		memset(gc, 0, sizeof(*gc));
		gc->gp = gp;
		gc->cpu = cpu;
		WRITE_ONCE(gc->worker, gp->worker ? gp->worker->task : NULL);
		cpufreq_add_update_util_hook(cpu, &gc->update_util,
					     ut_gov_update);
		/* ut_gov_kick() reads gp only after seeing this */
		smp_store_release(&gc->hooked, true);
	}
	return 0;
}

static void ut_gov_stop(struct cpufreq_policy *policy)
{
	struct ut_gov_policy *gp = policy->governor_data;
	int cpu;

	for_each_cpu(cpu, policy->cpus) {
		struct ut_gov_cpu *gc = per_cpu_ptr(&ut_gov_cpus, cpu);

		WRITE_ONCE(gc->hooked, false);
		WRITE_ONCE(gc->worker, NULL);
		cpufreq_remove_update_util_hook(cpu);
	}
	/* hooks and kicks run with preemption off: all done after this */
	synchronize_rcu();
	if (!policy->fast_switch_enabled) {
		irq_work_sync(&gp->irq_work);
		kthread_cancel_work_sync(&gp->work);
	}
}

static void ut_gov_limits(struct cpufreq_policy *policy)
{
	struct ut_gov_policy *gp = policy->governor_data;

	if (!policy->fast_switch_enabled) {
		mutex_lock(&gp->work_lock);
		cpufreq_policy_apply_limits(policy);
		mutex_unlock(&gp->work_lock);
	}
	/* pairs with smp_mb() in ut_gov_should_update() */
	smp_wmb();
	WRITE_ONCE(gp->limits_changed, true);
}

static struct cpufreq_governor ut_gov = {
	.name	= UT_GOV_NAME,
	.owner	= THIS_MODULE,
	.flags	= CPUFREQ_GOV_DYNAMIC_SWITCHING,
	.init	= ut_gov_init_policy,
	.exit	= ut_gov_exit_policy,
	.start	= ut_gov_start,
	.stop	= ut_gov_stop,
	.limits	= ut_gov_limits,
};

/* ------------------------------------------------------------------ */
/* debugfs "governor": a row per policy using the governor */

static int ut_gov_stats_show(struct seq_file *m, void *v)
{
	struct ut_gov_policy *gp;

	seq_puts(m, "policy cpus signal decisions transitions rt_max no_signal last_util last_raw_khz last_khz cur_khz\n");
	mutex_lock(&ut_gov_global_lock);
	list_for_each_entry(gp, &ut_gov_policies, node) {
		char signal[UT_GOV_SIGNAL_LEN];

		ut_gov_read_signal(gp->tunables, signal);
		seq_printf(m, "%u %*pbl %s %llu %llu %llu %llu %u %u %u %u\n",
			   gp->policy->cpu, cpumask_pr_args(gp->policy->cpus),
			   signal, READ_ONCE(gp->decisions),
			   READ_ONCE(gp->transitions), READ_ONCE(gp->rt_max),
			   READ_ONCE(gp->no_signal), READ_ONCE(gp->last_util),
			   READ_ONCE(gp->last_raw_khz), READ_ONCE(gp->last_khz),
			   READ_ONCE(gp->policy->cur));
	}
	mutex_unlock(&ut_gov_global_lock);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(ut_gov_stats);

void ut_gov_debugfs(struct dentry *dir)
{
	debugfs_create_file("governor", 0400, dir, NULL, &ut_gov_stats_fops);
}

int ut_gov_init(void)
{
	int ret = cpufreq_register_governor(&ut_gov);

	if (ret)
		pr_err("cannot register the cpufreq governor: %d\n", ret);
	return ret;
}

/* Only reachable when no policy uses the governor (module refcount). */
void ut_gov_exit(void)
{
	cpufreq_unregister_governor(&ut_gov);
}
