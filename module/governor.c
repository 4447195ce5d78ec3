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
 * Tunables are in gov_tunables.c, statistics in gov_stats.c; the signal
 * is read through signal.c, resolved again only when the signal tunable
 * or the set of enabled trackers changes.
 *
 * Decisions run in scheduler context (rq lock held, irqs off): no
 * sleeping, O(CPUs in the policy), each CPU's tracking lock taken in
 * turn, never nested.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/lockdep.h>
#include <linux/sched/cpufreq.h>
#include <linux/slab.h>
#include <utiltrack/freq.h>

#include "governor.h"
#include "compat/sched.h"
#include "trace/utiltrack_trace.h"

struct ut_gov_cpu {
	struct update_util_data update_util;
	struct ut_gov_policy *gp;
	struct ut_iowait io;
	unsigned long saved_idle_entries;	/* ut_gov_cpu_busy() */
	int cpu;
	bool hooked;		/* release/acquire: gp is valid */
};

static DEFINE_PER_CPU(struct ut_gov_cpu, ut_gov_cpus);
/* serializes policy init/exit and the tunables they share; lists them */
DEFINE_MUTEX(ut_gov_global_lock);
LIST_HEAD(ut_gov_policies);
static struct cpufreq_governor ut_gov;

/* ------------------------------------------------------------------ */
/* the probes the governor needs */

/*
 * sched_waking serves rt_policy=max and the shadow (shadow.c): attached
 * while a started policy has rt_policy=max or the shadow is on.
 * Re-attaching patches tracepoint call sites, which takes the CPU
 * hotplug lock; ->start and ->stop can run with it held for write
 * (cpufreq's hotplug callbacks), so a work item does it.
 */
static void ut_gov_needs_fn(struct work_struct *work)
{
	struct ut_gov_policy *gp;
	unsigned int needs = 0;

	mutex_lock(&ut_gov_global_lock);
	list_for_each_entry(gp, &ut_gov_policies, node)
		if (READ_ONCE(gp->started) &&
		    READ_ONCE(gp->tunables->rt_policy) == UT_GOV_RT_MAX)
			needs |= UT_NEED_RT_WAKING;
	mutex_unlock(&ut_gov_global_lock);
	/* the shadow tells wakeups from other decisions by sched_waking */
	if (ut_shadow_on())
		needs |= UT_NEED_RT_WAKING;
	if (ut_reg_set_gov_needs(needs))
		pr_warn_ratelimited("governor: sched_waking not attached: RT asks fmax from its switch-in only, the shadow defers nothing\n");
}

static DECLARE_WORK(ut_gov_needs_work, ut_gov_needs_fn);

/* A policy started or stopped, rt_policy changed or the shadow did. */
void ut_gov_needs_changed(void)
{
	schedule_work(&ut_gov_needs_work);
}

/* Before the probes go: no writer of the tunables or the shadow is left. */
void ut_gov_needs_flush(void)
{
	flush_work(&ut_gov_needs_work);
}

/* Does @policy run this governor? (A comparison of pointers only.) */
bool ut_gov_drives(struct cpufreq_policy *policy)
{
	return READ_ONCE(policy->governor) == &ut_gov;
}

/* ------------------------------------------------------------------ */
/* the signal */

/*
 * @gp's signal in @act, the published set: its name is read again only
 * after a store to the tunable, and resolved again only when the name or
 * the set changed. Under @gp's update_lock.
 */
static const struct ut_signal *ut_gov_signal(struct ut_gov_policy *gp,
					     const struct ut_active *act)
{
	unsigned int gen = READ_ONCE(gp->tunables->signal_gen);

	if (gen != gp->sig_seen) {
		ut_gov_read_signal(gp->tunables, gp->sig_name);
		gp->sig_seen = gen;
		gp->sig.gen = 0;	/* no set has generation 0 */
	}
	if (!ut_signal_current(&gp->sig, act))
		ut_signal_resolve(&gp->sig, act, gp->sig_name);
	return &gp->sig;
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

/*
 * The raw frequency CPU @j asks for under @rq; sets *@util, *@cap (@j's
 * capacity) and *@rt. The shadow (shadow.c) asks the same question with
 * schedutil's settings, so both apply one rule.
 */
static bool ut_gov_cpu_request(const struct ut_gov_req *rq,
			       const struct ut_signal *sig, int j, u64 time,
			       u32 *util, u32 *cap, u32 *khz, bool *rt)
{
	struct ut_cpu *uc = per_cpu_ptr(&ut_cpus, j);
	bool rt_here;

	*cap = ut_inv_capacity(j);
	rt_here = rq->rt != UT_GOV_REQ_RT_NONE &&
		  (READ_ONCE(uc->rt_running) || ut_probe_rt_waking(j) ||
		   ut_probe_rt_current(j));
	/* a CPU without the signal takes no part, RT task or not */
	if (!ut_signal_read(sig, j, rq->runnable_boost, rq->clock, util))
		return false;
	if (rt_here) {
		*rt = true;
		if (rq->rt == UT_GOV_REQ_RT_CAPACITY)
			*util = *cap;
	}
	if (rq->iowait_boost) {
		struct ut_gov_cpu *gc = per_cpu_ptr(&ut_gov_cpus, j);
		u32 boost = ut_iowait_apply(&gc->io, time, UT_GOV_IOWAIT_MIN,
					    TICK_NSEC);

		*util = max(*util, (boost * *cap) >> SCHED_CAPACITY_SHIFT);
	}
	*khz = ut_sugov_map(*util, rq->ref, *cap, rq->headroom_pct);
	*khz = ut_freq_hispeed(*khz, *util, *cap, rq->hispeed_load,
			       rq->hispeed_khz);
	return true;
}

/**
 * ut_gov_policy_request - the raw frequency @policy's CPUs ask for
 * @policy: the policy, its CPUs read in scheduler context
 * @rq: the settings of the request
 * @sig: the signal, current in the published active set
 * @time: the decision's clock (I/O-wait boost)
 * @pick: the CPU whose request wins, and whether any CPU had the signal
 *
 * Schedutil's shared-policy rule: the neediest CPU speaks for the policy;
 * an RT task running on any of them asks as @rq says (ut_gov_req_rt).
 */
void ut_gov_policy_request(struct cpufreq_policy *policy,
			   const struct ut_gov_req *rq,
			   const struct ut_signal *sig, u64 time,
			   struct ut_gov_pick *pick)
{
	int j;

	memset(pick, 0, sizeof(*pick));
	for_each_cpu(j, policy->cpus) {
		u32 ju, jc, jf;

		if (!ut_gov_cpu_request(rq, sig, j, time, &ju, &jc, &jf,
					&pick->rt))
			continue;
		pick->any = true;
		if (jf >= pick->raw) {
			pick->raw = jf;
			pick->util = ju;
			pick->cap = jc;
		}
	}
	if (pick->rt && rq->rt == UT_GOV_REQ_RT_FMAX)
		pick->raw = policy->cpuinfo.max_freq;
}

/* The reference: an invariant signal is in fmax terms, else in @cur's. */
u32 ut_gov_ref(struct cpufreq_policy *policy, unsigned int cur)
{
	return ut_invariance ? policy->cpuinfo.max_freq :
	       ut_sugov_noninvariant_ref(cur);
}

/* @gp's tunables as one request's settings, each read once. */
static void ut_gov_req_of(struct ut_gov_policy *gp, struct ut_gov_req *rq)
{
	struct ut_gov_tunables *t = gp->tunables;
	struct cpufreq_policy *policy = gp->policy;

	/* one instant for every CPU of the policy, and for the shadow */
	rq->clock = local_clock();
	rq->ref = ut_gov_ref(policy, policy->cur);
	rq->headroom_pct = READ_ONCE(t->headroom_pct);
	rq->rt = READ_ONCE(t->rt_policy) == UT_GOV_RT_MAX ?
		 UT_GOV_REQ_RT_FMAX : UT_GOV_REQ_RT_NONE;
	rq->runnable_boost = READ_ONCE(t->runnable_boost);
	rq->iowait_boost = READ_ONCE(t->iowait_boost);
	rq->hispeed_load = READ_ONCE(t->hispeed_load);
	rq->hispeed_khz = READ_ONCE(t->hispeed_freq) ?:
			  policy->cpuinfo.max_freq;
}

/*
 * Has @gc's CPU stayed busy since its last decision? Schedutil asks the
 * tick code how often the CPU stopped its tick to idle, a count a module
 * cannot read; the switch probe counts every switch to the idle task
 * instead, so an idle period too short to stop the tick counts here and
 * not there. Without the switch probe nothing counts, and a CPU must
 * not look busy for ever.
 */
static bool ut_gov_cpu_busy(struct ut_gov_cpu *gc, const struct ut_active *act)
{
	unsigned long n = READ_ONCE(per_cpu(ut_cpus, gc->cpu).idle_entries);
	bool busy = n == gc->saved_idle_entries;

	gc->saved_idle_entries = n;
	return busy && (act->needs & UT_NEED_SWITCH);
}

/*
 * Schedutil's hold on a single-CPU policy: a cut requested while the CPU
 * has not been idle since the last decision is likely premature (its
 * load still runs), so the frequency stays. Every decision that passes
 * the rate limit notes the CPU's idle count, as schedutil's does.
 */
static bool ut_gov_hold(struct ut_gov_policy *gp, struct ut_gov_cpu *gc,
			const struct ut_active *act, unsigned int freq)
{
	bool busy;

	if (!READ_ONCE(gp->tunables->busy_hold) || policy_is_shared(gp->policy))
		return false;
	busy = ut_gov_cpu_busy(gc, act);
	return busy && freq < gp->next_freq && !gp->need_freq_update;
}

/*
 * The decision this CPU is fast-switching a policy to: the shadow
 * (shadow.c), called from inside the switch, compares every signal at
 * the decision's instant and reference, not a few microseconds later
 * (under emulation, or after an interrupt in a guest, milliseconds),
 * so that the governor's own signal always asks for what it chose.
 */
struct ut_gov_switch {
	struct cpufreq_policy *policy;
	const struct ut_gov_req *rq;
};

static DEFINE_PER_CPU(struct ut_gov_switch, ut_gov_switches);

/**
 * ut_gov_switching - the request of the change of @policy in progress
 * @policy: the policy whose cpu_frequency event this CPU emits
 *
 * Return: the settings (clock, reference) of the utiltrack decision this
 * CPU is fast-switching @policy to, or NULL if the change is not one.
 * Valid until the caller's section (interrupts off) ends.
 */
const struct ut_gov_req *ut_gov_switching(struct cpufreq_policy *policy)
{
	struct ut_gov_switch *sw = this_cpu_ptr(&ut_gov_switches);

	return sw->policy == policy ? sw->rq : NULL;
}

static void ut_gov_fast_switch(struct ut_gov_policy *gp,
			       const struct ut_gov_req *rq, unsigned int freq)
{
	struct ut_gov_switch *sw = this_cpu_ptr(&ut_gov_switches);

	sw->rq = rq;
	sw->policy = gp->policy;
	cpufreq_driver_fast_switch(gp->policy, freq);
	sw->policy = NULL;
}

static void ut_gov_commit(struct ut_gov_policy *gp,
			  const struct ut_gov_req *rq, u64 time,
			  unsigned int freq)
{
	if (gp->need_freq_update)
		gp->need_freq_update = false;
	else if (gp->next_freq == freq)
		return;
	gp->next_freq = freq;
	gp->last_freq_update_time = time;
	ut_stat_inc(&gp->stats.transitions);
	if (gp->policy->fast_switch_enabled) {
		ut_gov_fast_switch(gp, rq, freq);
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
	const struct ut_signal *sig;
	struct ut_gov_pick pick;
	struct ut_active *act;
	struct ut_gov_req rq;
	unsigned int freq;
	bool held;

	if (READ_ONCE(t->iowait_boost))
		ut_iowait_request(&gc->io, time, flags & SCHED_CPUFREQ_IOWAIT,
				  UT_GOV_IOWAIT_MIN, TICK_NSEC);
	if (!ut_gov_should_update(gp, time))
		return;

	act = rcu_dereference_sched(ut_active);
	if (!act) {
		ut_stat_inc(&gp->stats.no_signal);
		return;
	}
	sig = ut_gov_signal(gp, act);
	ut_gov_req_of(gp, &rq);
	ut_gov_policy_request(policy, &rq, sig, time, &pick);
	if (pick.rt) {
		ut_stat_inc(&gp->stats.rt_max);
	} else if (!pick.any) {
		/* hold the frequency until the tracker is back */
		ut_stat_inc(&gp->stats.no_signal);
		return;
	}
	freq = cpufreq_driver_resolve_freq(policy, pick.raw);
	held = ut_gov_hold(gp, gc, act, freq);
	if (held) {
		freq = gp->next_freq;
		ut_stat_inc(&gp->stats.held);
	}
	ut_stat_inc(&gp->stats.decisions);
	WRITE_ONCE(gp->stats.last_util, pick.util);
	WRITE_ONCE(gp->stats.last_raw_khz, pick.raw);
	WRITE_ONCE(gp->stats.last_khz, freq);
	trace_utiltrack_freq(gc->cpu, gp->sig_name, pick.util, rq.ref, pick.cap,
			     pick.raw, freq, held, time);
	ut_gov_commit(gp, &rq, time, freq);
}

static void ut_gov_update(struct update_util_data *hook, u64 time,
			  unsigned int flags)
{
	struct ut_gov_cpu *gc = container_of(hook, struct ut_gov_cpu,
					     update_util);
	struct ut_gov_policy *gp = gc->gp;
	u64 t0 = ut_cost_begin();

	raw_spin_lock(&gp->update_lock);
	ut_gov_decide(gp, gc, time, flags);
	raw_spin_unlock(&gp->update_lock);
	/* the scheduler's hook and ut_gov_kick() run with interrupts off */
	ut_cost_irqoff_end(UT_SITE_GOVERNOR, t0);
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
 * The bandwidth is fake, as schedutil's: it is never enforced. Kernels
 * that do not export the call that makes it (before 5.14) get the
 * fallback of ut_sched_set_gov_worker(), said once in the log.
 */
static int ut_gov_worker_create(struct ut_gov_policy *gp)
{
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
	ret = ut_sched_set_gov_worker(worker->task);
	if (ret < 0) {
		kthread_destroy_worker(worker);
		return ret;
	}
	if (ret == UT_GOV_WORKER_NORMAL)
		pr_info_once("governor workers run SCHED_NORMAL at nice %d: this kernel does not export sched_setattr_nocheck()\n",
			     MIN_NICE);
	set_cpus_allowed_ptr(worker->task, policy->related_cpus);
	ut_probe_set_gov_worker(worker->task, policy->related_cpus);
	gp->worker = worker;
	return 0;
}

static void ut_gov_worker_destroy(struct ut_gov_policy *gp)
{
	if (!gp->worker)
		return;
	ut_probe_set_gov_worker(NULL, gp->policy->related_cpus);
	kthread_destroy_worker(gp->worker);
	gp->worker = NULL;
	mutex_destroy(&gp->work_lock);
}

/* ------------------------------------------------------------------ */
/* governor callbacks */

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
	ut_gov_detach_tunables(gp);
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
	/* read the signal tunable again at the first decision */
	gp->sig_seen = 0;

	for_each_cpu(cpu, policy->cpus) {
		struct ut_gov_cpu *gc = per_cpu_ptr(&ut_gov_cpus, cpu);

		memset(gc, 0, sizeof(*gc));
		gc->gp = gp;
		gc->cpu = cpu;
		cpufreq_add_update_util_hook(cpu, &gc->update_util,
					     ut_gov_update);
		/* ut_gov_kick() reads gp only after seeing this */
		smp_store_release(&gc->hooked, true);
	}
	WRITE_ONCE(gp->started, true);
	ut_gov_needs_changed();
	return 0;
}

static void ut_gov_stop(struct cpufreq_policy *policy)
{
	struct ut_gov_policy *gp = policy->governor_data;
	int cpu;

	WRITE_ONCE(gp->started, false);
	ut_gov_needs_changed();
	for_each_cpu(cpu, policy->cpus) {
		struct ut_gov_cpu *gc = per_cpu_ptr(&ut_gov_cpus, cpu);

		WRITE_ONCE(gc->hooked, false);
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
	/* the last stop's work, which detaches sched_waking */
	flush_work(&ut_gov_needs_work);
}
