// SPDX-License-Identifier: GPL-2.0
/*
 * shadow.c - what each signal would have asked for, at every frequency
 * change whichever governor makes it.
 *
 * "What would WALT have asked for during this run?" needs the answer on
 * the same run, and parity with schedutil needs it decision by decision.
 * A governor's decision that changes the frequency is visible to a
 * module as the cpu_frequency tracepoint, emitted on the fast-switch
 * path in the deciding context (rq lock held, the util the governor just
 * read) and on the slow path by the governor's worker. At each such
 * change of a policy, the shadow computes, for every signal chosen in
 * debugfs "shadow", the request the utiltrack governor would make with
 * schedutil's settings (headroom 1.25, a CPU running RT asks for its
 * full capacity through the mapping, the running
 * kernel's runnable boost and reference frequency; no I/O-wait boost and
 * no busy hold, which depend on the deciding governor's own history),
 * resolves it to an OPP of the policy's table and compares it with the
 * frequency the governor chose. A change the utiltrack governor makes on
 * the fast path is compared at its decision's instant and reference
 * (ut_gov_switching()); any other at the change.
 *
 * Per policy and signal debugfs counts the changes where the signal asks
 * for the same OPP, a higher or a lower one, or had no signal (its
 * trackers disabled: counted, never a stale value); each comparison is a
 * utiltrack_shadow trace event. The state of a policy lives in the
 * per-CPU slot of its first related CPU, the stable one.
 *
 * Nothing here runs unless a list of signals is set: the cpu_frequency
 * probe reads one RCU pointer.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpufreq.h>
#include <linux/debugfs.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "governor.h"
#include "compat/cpufreq.h"
#include "trace/utiltrack_trace.h"

#define UT_SHADOW_MAX		4	/* signals compared at once */
#define UT_SHADOW_INPUT_MAX	(UT_SHADOW_MAX * UT_GOV_SIGNAL_LEN + 16)

/* The signals chosen, published whole (RCU-sched). */
struct ut_shadow_cfg {
	u64 gen;		/* unique per write, never 0 */
	unsigned int nr;
	char name[UT_SHADOW_MAX][UT_GOV_SIGNAL_LEN];
};

struct ut_shadow_stats {
	u64 decisions;		/* changes with the signal available */
	u64 match;		/* ... where it asks for the chosen OPP */
	u64 above;
	u64 below;
	u64 rt;			/* ... where a running RT task asked */
	u64 no_signal;		/* changes without the signal's trackers */
	u32 last_util;
	u32 last_khz;		/* 0 after a change without the signal */
};

struct ut_shadow_sig {
	struct ut_signal sig;	/* resolved once per active set */
	struct ut_shadow_stats st;
};

/* One policy's comparisons, in its first related CPU's slot. */
struct ut_shadow_policy {
	raw_spinlock_t lock;	/* the policy's changes vs debugfs */
	u64 gen;		/* the cfg counted; other counts are stale */
	u64 changes;
	u64 deferred;		/* ... compared at the wakeup that followed */
	struct ut_shadow_sig s[UT_SHADOW_MAX];
};

/* One signal's request at a change. */
struct ut_shadow_res {
	u32 util;
	u32 cap;
	u32 raw;
	u32 khz;		/* the OPP; 0 without the signal */
	bool rt;
	bool any;
};

/*
 * Per executing CPU: where its wakeups stand, and the comparison of a
 * change made inside one, waiting for the sched_wakeup that follows.
 * Touched by this CPU only, with interrupts off.
 */
struct ut_shadow_local {
	u64 waking_ns;		/* local_clock() of the last sched_waking */
	u64 woken_ns;		/* ... of the last sched_wakeup */
	/* the task of that sched_waking, compared, never dereferenced */
	struct task_struct *waking;
	struct ut_shadow_policy *sp;	/* NULL: nothing deferred */
	/* compared only: ut_shadow_wakeup() looks the policy up again */
	struct cpufreq_policy *policy;
	struct task_struct *task;	/* the wakeup it waits for */
	u64 deferred_ns;
	u64 gen;
	int cpu;
	u32 khz;
	struct ut_gov_req rq;
	struct ut_shadow_res res[UT_SHADOW_MAX];
};

/* a wakeup lasts microseconds; one without its sched_wakeup is stale */
#define UT_SHADOW_WAKE_NS	NSEC_PER_MSEC

static struct ut_shadow_cfg __rcu *ut_shadow_cfg;
static DEFINE_MUTEX(ut_shadow_lock);	/* writers of ut_shadow_cfg */
static u64 ut_shadow_gen;		/* under ut_shadow_lock */
static DEFINE_PER_CPU(struct ut_shadow_policy, ut_shadow_policies);
static DEFINE_PER_CPU(struct ut_shadow_local, ut_shadow_locals);

/* ------------------------------------------------------------------ */
/* comparing, in the cpu_frequency probe */

/*
 * The lowest frequency of @policy's table at or above @khz within
 * [@min, @max], skipping OPPs the energy model marked inefficient if
 * @efficient; else, only in the plain pass, the highest there. 0 if
 * none qualifies: as the kernel does, a target that no efficient OPP
 * within the limits reaches falls back to every OPP, not to an
 * efficient one below it.
 */
static u32 ut_shadow_table_pick(struct cpufreq_policy *policy, u32 khz,
				u32 min, u32 max, bool efficient)
{
	struct cpufreq_frequency_table *pos;
	u32 best = 0, top = 0;

	cpufreq_for_each_valid_entry(pos, policy->freq_table) {
		u32 f = pos->frequency;

		if (f < min || f > max || (efficient && ut_opp_inefficient(pos)))
			continue;
		if (f >= khz && (!best || f < best))
			best = f;
		top = max(top, f);
	}
	return efficient ? best : (best ?: top);
}

/*
 * The OPP @khz resolves to within @policy's limits, as schedutil's
 * cpufreq_driver_resolve_freq() finds it (CPUFREQ_RELATION_LE: the
 * lowest at or above, efficient ones first where the policy knows
 * them), but without touching the policy's resolution cache, which
 * belongs to the governor in charge. Without a table, the clamp.
 */
static u32 ut_shadow_resolve(struct cpufreq_policy *policy, u32 khz)
{
	unsigned int min = READ_ONCE(policy->min), max = READ_ONCE(policy->max);
	u32 f = 0;

	if (min > max)
		min = max;
	khz = clamp_t(u32, khz, min, max);
	if (!policy->freq_table)
		return khz;
	if (ut_policy_efficiencies(policy))
		f = ut_shadow_table_pick(policy, khz, min, max, true);
	return f ?: ut_shadow_table_pick(policy, khz, min, max, false) ?: khz;
}

/* Schedutil's settings, as the governor's defaults are. */
static void ut_shadow_req(struct cpufreq_policy *policy, unsigned int prev,
			  struct ut_gov_req *rq)
{
	memset(rq, 0, sizeof(*rq));
	rq->ref = ut_gov_ref(policy, prev);
	rq->headroom_pct = UT_FREQ_HEADROOM_DEF;
	rq->rt = UT_GOV_REQ_RT_CAPACITY;
	rq->runnable_boost = UT_SUGOV_RUNNABLE_BOOST;
}

/* Every chosen signal's request for @policy now, into @res. */
static void ut_shadow_compute(struct ut_shadow_policy *sp,
			      const struct ut_shadow_cfg *cfg,
			      struct cpufreq_policy *policy,
			      const struct ut_gov_req *rq,
			      struct ut_shadow_res *res)
{
	struct ut_active *act = rcu_dereference_sched(ut_active);
	unsigned int i;

	for (i = 0; i < cfg->nr; i++) {
		struct ut_signal *sig = &sp->s[i].sig;
		struct ut_gov_pick pick = {};

		memset(&res[i], 0, sizeof(res[i]));
		if (!act)
			continue;
		if (!ut_signal_current(sig, act))
			ut_signal_resolve(sig, act, cfg->name[i]);
		/* without its trackers a signal has no say, RT or not */
		if (!sig->nr)
			continue;
		ut_gov_policy_request(policy, rq, sig, 0, &pick);
		res[i].util = pick.util;
		res[i].cap = pick.cap;
		res[i].raw = pick.raw;
		res[i].rt = pick.rt;
		res[i].any = pick.any || pick.rt;
		res[i].khz = ut_shadow_resolve(policy, pick.raw);
	}
}

/* Count @res against @khz, the frequency chosen; under @sp's lock. */
static void ut_shadow_record(struct ut_shadow_policy *sp,
			     const struct ut_shadow_cfg *cfg, int cpu, u32 ref,
			     const struct ut_shadow_res *res, u32 khz,
			     bool deferred)
{
	unsigned int i;

	sp->changes++;
	sp->deferred += deferred;
	for (i = 0; i < cfg->nr; i++) {
		struct ut_shadow_stats *st = &sp->s[i].st;

		if (!res[i].any) {
			st->no_signal++;
			st->last_khz = 0;
			continue;
		}
		st->decisions++;
		st->rt += res[i].rt;
		if (res[i].khz == khz)
			st->match++;
		else if (res[i].khz > khz)
			st->above++;
		else
			st->below++;
		st->last_util = res[i].util;
		st->last_khz = res[i].khz;
		trace_utiltrack_shadow(cpu, cfg->name[i], res[i].util, ref,
				       res[i].cap, res[i].raw, res[i].khz, khz,
				       res[i].rt);
	}
}

/*
 * @sp counts for @cfg from now on, its older counts dropped; false if
 * @cfg is older than what @sp counts (a probe that read the config
 * before a write, running during the write's grace period), which must
 * not wipe the newer counts.
 */
static bool ut_shadow_current(struct ut_shadow_policy *sp,
			      const struct ut_shadow_cfg *cfg)
{
	if (sp->gen >= cfg->gen)
		return sp->gen == cfg->gen;
	memset(sp->s, 0, sizeof(sp->s));
	sp->changes = 0;
	sp->deferred = 0;
	sp->gen = cfg->gen;
	return true;
}

/*
 * Should a change made now on this CPU wait for the sched_wakeup that
 * follows? Only a fast switch (@irqs_off: a governor's worker changes
 * with interrupts on, outside any wakeup), inside a wakeup, between
 * sched_waking and sched_wakeup (a wakeup that the waker queues on
 * another CPU's list leaves its mark here without a sched_wakeup, so an
 * old mark does not count), when the sched_wakeup probe is attached,
 * and not for the utiltrack governor's own decisions, made from the
 * trackers as they were before the wakeup.
 */
static bool ut_shadow_defer(struct ut_shadow_local *l, u64 now,
			    struct cpufreq_policy *policy, bool irqs_off)
{
	struct ut_active *act = rcu_dereference_sched(ut_active);

	return irqs_off && l->waking_ns > l->woken_ns &&
	       now - l->waking_ns < UT_SHADOW_WAKE_NS &&
	       act && (act->needs & UT_NEED_WAKEUP) &&
	       !ut_gov_drives(policy);
}

/* Count this CPU's deferred comparison as it was made; irqs off. */
static void ut_shadow_flush(struct ut_shadow_local *l,
			    const struct ut_shadow_cfg *cfg)
{
	struct ut_shadow_policy *sp = l->sp;

	if (!sp)
		return;
	l->sp = NULL;
	raw_spin_lock(&sp->lock);
	if (l->gen == cfg->gen && sp->gen == cfg->gen)
		ut_shadow_record(sp, cfg, l->cpu, l->rq.ref, l->res, l->khz,
				 false);
	raw_spin_unlock(&sp->lock);
}

/**
 * ut_shadow_probe - a policy's frequency changed: compare every signal
 * @khz: the frequency the governor chose
 * @cpu: one of the policy's CPUs (the event comes once per CPU)
 *
 * Called from the cpu_frequency probe before the frequency is recorded,
 * so @cpu's recorded frequency is still the one the decision was made
 * at, the reference of a non-invariant signal.
 *
 * A decision made while a task is being woken (schedutil's hook at its
 * enqueue) saw the task queued; utiltrack's trackers see it only at the
 * sched_wakeup that follows. Such a comparison waits for that event
 * (ut_shadow_wakeup()) and is made with the task counted, as the
 * governor's input had it.
 */
void ut_shadow_probe(unsigned int khz, unsigned int cpu)
{
	struct ut_shadow_cfg *cfg = rcu_dereference_sched(ut_shadow_cfg);
	struct cpufreq_policy *policy;
	struct ut_shadow_policy *sp;
	struct ut_shadow_local *l;
	struct ut_shadow_res res[UT_SHADOW_MAX];
	const struct ut_gov_req *gov;
	struct ut_gov_req rq;
	unsigned long flags;
	unsigned int prev;
	bool irqs_off;
	u64 now;

	if (likely(!cfg) || cpu >= nr_cpu_ids)
		return;
	irqs_off = irqs_disabled();
	/* the policy is alive: its change is what emits the event */
	policy = cpufreq_cpu_get_raw(cpu);
	if (!policy || cpu != cpumask_first(policy->cpus))
		return;
	prev = READ_ONCE(per_cpu(ut_cpus, cpu).cur_khz) ?: policy->cur;
	ut_shadow_req(policy, prev, &rq);
	/* the utiltrack governor's own change: at its decision's instant */
	gov = irqs_off ? ut_gov_switching(policy) : NULL;
	if (gov) {
		rq.clock = gov->clock;
		rq.ref = gov->ref;
	}
	sp = per_cpu_ptr(&ut_shadow_policies,
			 cpumask_first(policy->related_cpus));

	local_irq_save(flags);
	l = this_cpu_ptr(&ut_shadow_locals);
	ut_shadow_flush(l, cfg);
	now = local_clock();
	raw_spin_lock(&sp->lock);
	/* a newer config counts here: this old one's event is dropped */
	if (!ut_shadow_current(sp, cfg))
		goto unlock;
	if (ut_shadow_defer(l, now, policy, irqs_off)) {
		l->sp = sp;
		l->policy = policy;
		l->task = l->waking;
		l->deferred_ns = now;
		l->gen = cfg->gen;
		l->cpu = policy->cpu;
		l->rq = rq;
		l->khz = khz;
		ut_shadow_compute(sp, cfg, policy, &rq, l->res);
	} else {
		ut_shadow_compute(sp, cfg, policy, &rq, res);
		ut_shadow_record(sp, cfg, policy->cpu, rq.ref, res, khz, false);
	}
unlock:
	raw_spin_unlock(&sp->lock);
	local_irq_restore(flags);
}

/* sched_waking of @p on this CPU: a wakeup begins (the probe's caller). */
void ut_shadow_waking(struct task_struct *p)
{
	unsigned long flags;

	if (likely(!rcu_access_pointer(ut_shadow_cfg)))
		return;
	local_irq_save(flags);
	this_cpu_write(ut_shadow_locals.waking, p);
	this_cpu_write(ut_shadow_locals.waking_ns, local_clock());
	local_irq_restore(flags);
}

/**
 * ut_shadow_wakeup - sched_wakeup of @p on this CPU, trackers updated
 * @p: the task woken, queued on task_cpu(@p)
 *
 * Completes a comparison deferred by ut_shadow_probe() on this CPU: the
 * signals are read again, @p now counted.
 */
void ut_shadow_wakeup(struct task_struct *p)
{
	struct ut_shadow_cfg *cfg = rcu_dereference_sched(ut_shadow_cfg);
	struct ut_shadow_res res[UT_SHADOW_MAX];
	struct cpufreq_policy *policy;
	struct ut_shadow_policy *sp;
	struct ut_shadow_local *l;
	unsigned long flags;

	if (likely(!cfg))
		return;
	local_irq_save(flags);
	l = this_cpu_ptr(&ut_shadow_locals);
	l->woken_ns = local_clock();
	sp = l->sp;
	/*
	 * The policy as the kernel has it now, not the pointer saved at
	 * the decision: a CPU leaves policy->cpus before its governor's
	 * stop waits for a grace period and the driver frees the table,
	 * and the pointer is cleared before ut_shadow_policy_notify()
	 * waits for one and the policy is freed, so what this section
	 * finds stays valid until it ends.
	 */
	policy = sp ? cpufreq_cpu_get_raw(l->cpu) : NULL;
	/*
	 * The wakeup the comparison waits for, and soon, on the same
	 * policy: anything else counts it as it was made.
	 */
	if (policy && policy == l->policy && p == l->task &&
	    l->gen == cfg->gen &&
	    l->woken_ns - l->deferred_ns < UT_SHADOW_WAKE_NS &&
	    cpumask_test_cpu(task_cpu(p), policy->cpus)) {
		l->sp = NULL;
		raw_spin_lock(&sp->lock);
		if (sp->gen == cfg->gen) {
			ut_shadow_compute(sp, cfg, policy, &l->rq, res);
			ut_shadow_record(sp, cfg, l->cpu, l->rq.ref, res, l->khz,
					 true);
		}
		raw_spin_unlock(&sp->lock);
	} else {
		ut_shadow_flush(l, cfg);
	}
	local_irq_restore(flags);
}

/*
 * A policy goes away, its CPUs' pointers to it already cleared: a
 * completing comparison that found it (ut_shadow_wakeup()) is inside an
 * RCU-sched section, over once a grace period has passed.
 */
static int ut_shadow_policy_notify(struct notifier_block *nb,
				   unsigned long event, void *data)
{
	if (event == CPUFREQ_REMOVE_POLICY)
		synchronize_rcu();
	return NOTIFY_OK;
}

static struct notifier_block ut_shadow_nb = {
	.notifier_call = ut_shadow_policy_notify,
};

/* ------------------------------------------------------------------ */
/* debugfs "shadow" */

static bool ut_shadow_available(const char *name)
{
	struct ut_signal sig;
	struct ut_active *act;
	bool ok = false;

	rcu_read_lock_sched();
	act = rcu_dereference_sched(ut_active);
	if (act) {
		ut_signal_resolve(&sig, act, name);
		ok = sig.nr;
	}
	rcu_read_unlock_sched();
	return ok;
}

static void ut_shadow_pct(struct seq_file *m, u64 part, u64 whole)
{
	u64 permille = whole ? div64_u64(part * 1000, whole) : 0;
	u32 tenth;

	if (!whole) {
		seq_puts(m, " -");
		return;
	}
	permille = div_u64_rem(permille, 10, &tenth);
	seq_printf(m, " %llu.%u", permille, tenth);
}

static void ut_shadow_rows(struct seq_file *m, struct cpufreq_policy *policy,
			   const struct ut_shadow_cfg *cfg)
{
	struct ut_shadow_policy *sp;
	struct ut_shadow_stats st[UT_SHADOW_MAX];
	const char *gov;
	unsigned long flags;
	unsigned int i;
	u64 changes, deferred;

	sp = per_cpu_ptr(&ut_shadow_policies,
			 cpumask_first(policy->related_cpus));
	raw_spin_lock_irqsave(&sp->lock, flags);
	if (sp->gen == cfg->gen) {
		changes = sp->changes;
		deferred = sp->deferred;
		for (i = 0; i < cfg->nr; i++)
			st[i] = sp->s[i].st;
	} else {
		changes = 0;
		deferred = 0;
		memset(st, 0, sizeof(st));
	}
	raw_spin_unlock_irqrestore(&sp->lock, flags);

	down_read(&policy->rwsem);
	gov = policy->governor ? policy->governor->name : "-";
	for (i = 0; i < cfg->nr; i++) {
		seq_printf(m, "%u %*pbl %s %llu %llu %s %s %llu %llu %llu %llu %llu %llu",
			   policy->cpu, cpumask_pr_args(policy->cpus), gov,
			   changes, deferred, cfg->name[i],
			   ut_shadow_available(cfg->name[i]) ? "ok" : "no_signal",
			   st[i].decisions, st[i].match, st[i].above,
			   st[i].below, st[i].rt, st[i].no_signal);
		ut_shadow_pct(m, st[i].match, st[i].decisions);
		if (st[i].last_khz)
			seq_printf(m, " %u %u\n", st[i].last_util,
				   st[i].last_khz);
		else
			seq_puts(m, " - -\n");
	}
	up_read(&policy->rwsem);
}

static int ut_shadow_show(struct seq_file *m, void *v)
{
	struct ut_shadow_cfg *cfg;
	unsigned int i;
	int cpu;

	/* writers are excluded: cfg stays as printed */
	mutex_lock(&ut_shadow_lock);
	cfg = rcu_dereference_protected(ut_shadow_cfg,
					lockdep_is_held(&ut_shadow_lock));
	seq_puts(m, "signals");
	for (i = 0; cfg && i < cfg->nr; i++)
		seq_printf(m, " %s", cfg->name[i]);
	seq_puts(m, cfg ? "\n" : " off\n");
	seq_puts(m, "policy cpus governor changes deferred signal now decisions match above below rt no_signal match_pct last_util last_khz\n");
	for_each_possible_cpu(cpu) {
		struct cpufreq_policy *policy = cfg ? cpufreq_cpu_get(cpu) : NULL;

		if (!policy)
			continue;
		if (cpu == cpumask_first(policy->related_cpus))
			ut_shadow_rows(m, policy, cfg);
		cpufreq_cpu_put(policy);
	}
	mutex_unlock(&ut_shadow_lock);
	return 0;
}

/*
 * "off", or 1..UT_SHADOW_MAX distinct signal names (as the governor's
 * signal tunable takes), separated by spaces or commas, into @cfg.
 * Return: 1 for "off", 0, or -EINVAL.
 */
static int ut_shadow_parse(char *buf, struct ut_shadow_cfg *cfg)
{
	char *tok, *s = strim(buf);
	unsigned int needs, i;

	if (!strcmp(s, "off"))
		return 1;
	while ((tok = strsep(&s, " \t,")) != NULL) {
		if (!*tok)
			continue;
		if (cfg->nr == UT_SHADOW_MAX)
			return -EINVAL;
		if (ut_gov_parse_name(tok, strlen(tok), cfg->name[cfg->nr],
				      UT_GOV_SIGNAL_LEN))
			return -EINVAL;
		if (ut_signal_lookup(cfg->name[cfg->nr], &needs))
			return -EINVAL;
		for (i = 0; i < cfg->nr; i++)
			if (!strcmp(cfg->name[i], cfg->name[cfg->nr]))
				return -EINVAL;
		cfg->nr++;
	}
	return cfg->nr ? 0 : -EINVAL;
}

/* Publish @cfg (NULL: off); counting starts again from zero. */
static void ut_shadow_publish(struct ut_shadow_cfg *cfg)
{
	struct ut_shadow_cfg *old;

	mutex_lock(&ut_shadow_lock);
	if (cfg)
		cfg->gen = ++ut_shadow_gen;
	old = rcu_replace_pointer(ut_shadow_cfg, cfg,
				  lockdep_is_held(&ut_shadow_lock));
	mutex_unlock(&ut_shadow_lock);
	/* sched_waking marks wakeups for the shadow while it is on */
	ut_gov_needs_changed();
	/* probes run with preemption off */
	synchronize_rcu();
	kfree(old);
}

/* Does the shadow need sched_waking (UT_NEED_RT_WAKING)? */
bool ut_shadow_on(void)
{
	return rcu_access_pointer(ut_shadow_cfg);
}

static ssize_t ut_shadow_write(struct file *file, const char __user *ubuf,
			       size_t len, loff_t *ppos)
{
	struct ut_shadow_cfg *cfg;
	char buf[UT_SHADOW_INPUT_MAX];
	int ret;

	if (!len || len >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, len))
		return -EFAULT;
	buf[len] = '\0';
	if (strlen(buf) != len)
		return -EINVAL;
	cfg = kzalloc(sizeof(*cfg), GFP_KERNEL);
	if (!cfg)
		return -ENOMEM;
	ret = ut_shadow_parse(buf, cfg);
	if (ret) {
		kfree(cfg);
		if (ret < 0)
			return ret;
		cfg = NULL;
	}
	ut_shadow_publish(cfg);
	return len;
}

static int ut_shadow_open(struct inode *inode, struct file *file)
{
	return single_open(file, ut_shadow_show, inode->i_private);
}

static const struct file_operations ut_shadow_fops = {
	.owner		= THIS_MODULE,
	.open		= ut_shadow_open,
	.read		= seq_read,
	.llseek		= seq_lseek,
	.release	= single_release,
	.write		= ut_shadow_write,
};

void ut_shadow_debugfs(struct dentry *dir)
{
	debugfs_create_file("shadow", 0600, dir, NULL, &ut_shadow_fops);
}

int ut_shadow_init(void)
{
	int cpu;

	for_each_possible_cpu(cpu)
		raw_spin_lock_init(&per_cpu_ptr(&ut_shadow_policies, cpu)->lock);
	return cpufreq_register_notifier(&ut_shadow_nb,
					 CPUFREQ_POLICY_NOTIFIER);
}

/* After the probes are detached: nothing reads the list any more. */
void ut_shadow_exit(void)
{
	cpufreq_unregister_notifier(&ut_shadow_nb, CPUFREQ_POLICY_NOTIFIER);
	kfree(rcu_dereference_protected(ut_shadow_cfg, true));
	RCU_INIT_POINTER(ut_shadow_cfg, NULL);
}
