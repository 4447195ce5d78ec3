// SPDX-License-Identifier: GPL-2.0
/*
 * registry.c - trackers: registration, enable/disable, the active set.
 *
 * The probes iterate an immutable array of enabled trackers published
 * with RCU. Enabling or disabling builds a new array, publishes it,
 * re-attaches exactly the tracepoints the new set needs, waits for every
 * probe still running on the old one, and only then frees what a
 * disabled tracker owned. So a disabled tracker is never called, owns no
 * memory, and a tracepoint nobody needs has no probe at all.
 *
 * The arrays are two static buffers used in turn, not allocations: a
 * publish ends with a grace period, after which the set it replaced is
 * unused and becomes the next one to fill. So publishing cannot fail,
 * and neither can disabling a tracker or unloading, which must never
 * leave data freed under a set the probes still see.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/ctype.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/vmalloc.h>

#include "utiltrack.h"

/*
 * Two locks. ut_reg_mutex serialises enable/disable, which registers
 * tracepoint probes and so nests cpu_hotplug_lock and, through it, the
 * cpufreq policy locks. ut_list_mutex only guards the list's membership
 * and is never held across a call out, so a governor tunable store
 * (attr_set->update_lock held) can look a tracker up without closing a
 * cycle through those locks (lockdep found it). Changing the list takes
 * both; walking it takes either.
 */
static LIST_HEAD(ut_trackers);
static DEFINE_MUTEX(ut_reg_mutex);
static DEFINE_MUTEX(ut_list_mutex);
struct ut_active __rcu *ut_active;
/* the set being published and the one it replaces; see above */
static struct ut_active ut_active_sets[2];
static unsigned int ut_active_next;
/* the last published set's generation (ut_signal_current()) */
static u64 ut_active_gen;
/* probes the governor wants beside the trackers' (ut_reg_set_gov_needs()) */
static unsigned int ut_reg_gov_needs;

struct mutex *ut_reg_lock(void)
{
	return &ut_reg_mutex;
}

const struct ut_tracker_ops *ut_tracker_ops(struct ut_tracker *tr)
{
	return tr->ops;
}
EXPORT_SYMBOL_GPL(ut_tracker_ops);

static struct ut_tracker *ut_reg_find(const char *name)
{
	struct ut_tracker *tr;

	list_for_each_entry(tr, &ut_trackers, node)
		if (!strcmp(tr->ops->name, name))
			return tr;
	return NULL;
}

/*
 * Rebuild and publish the active set, re-attach probes, and wait until
 * no probe or timer can still see the set it replaced (nor the data of
 * a tracker that left it). Returns what attaching probes returned: only
 * attaching can fail, and the set is published either way.
 */
static int ut_reg_publish(void)
{
	struct ut_active *new = &ut_active_sets[ut_active_next];
	struct ut_tracker *tr;
	int ret;

	lockdep_assert_held(&ut_reg_mutex);
	memset(new, 0, sizeof(*new));
	new->gen = ++ut_active_gen;
	list_for_each_entry(tr, &ut_trackers, node) {
		if (!tr->enabled)
			continue;
		new->tr[new->nr++] = tr;
		new->needs |= tr->ops->needs | UT_NEED_TASKS;
	}
	rcu_assign_pointer(ut_active, new);
	ut_active_next ^= 1;
	ret = ut_probe_attach(new->needs | ut_reg_gov_needs);
	/* probes and ticks run with preemption off: RCU-sched readers */
	synchronize_rcu();
	return ret;
}

/*
 * The governor's needs (UT_NEED_RT_WAKING) changed: attach or detach
 * their probes beside the trackers', the active set unchanged. A probe
 * detached here may still be running; what it writes is checked by age
 * where read, and the module's exit waits for every probe.
 */
int ut_reg_set_gov_needs(unsigned int needs)
{
	const struct ut_active *act;
	int ret;

	mutex_lock(&ut_reg_mutex);
	act = rcu_dereference_protected(ut_active,
					lockdep_is_held(&ut_reg_mutex));
	ret = ut_probe_attach((act ? act->needs : 0) | needs);
	/* kept only once attached: a tracker's enable must not retry it */
	if (ret) {
		needs = 0;
		ut_probe_attach(act ? act->needs : 0);
	}
	ut_reg_gov_needs = needs;
	mutex_unlock(&ut_reg_mutex);
	return ret;
}

static void ut_reg_free_data(struct ut_tracker *tr)
{
	free_percpu(tr->cpu_data);
	vfree(tr->task_data);
	ut_cost_tracker_free(tr);
	tr->cpu_data = NULL;
	tr->task_data = NULL;
}

static int ut_reg_alloc_data(struct ut_tracker *tr)
{
	const struct ut_tracker_ops *ops = tr->ops;
	int cpu;

	tr->cpu_data = __alloc_percpu(max_t(size_t, ops->cpu_size, 1),
				      sizeof(u64));
	/* a task's generation and data side by side: one cache miss */
	tr->task_stride = ALIGN(UT_TASK_HDR + ops->task_size, sizeof(u64));
	tr->task_data = vzalloc(array_size(ut_max_tasks, tr->task_stride));
	if (!tr->cpu_data || !tr->task_data || ut_cost_tracker_alloc(tr)) {
		ut_reg_free_data(tr);
		return -ENOMEM;
	}
	if (!ops->cpu_init)
		return 0;
	for_each_possible_cpu(cpu) {
		struct ut_cpu *uc = per_cpu_ptr(&ut_cpus, cpu);
		struct ut_ctx c;
		unsigned long flags;
		u64 t0;

		raw_spin_lock_irqsave(&uc->track_lock, flags);
		t0 = ut_cost_begin();
		ut_probe_fill_ctx(&c, cpu, ut_probe_cpu_now(cpu));
		ops->cpu_init(tr, ut_tr_cpu(tr, cpu), &c);
		ut_cost_irqoff_end(UT_SITE_REGISTRY, t0);
		raw_spin_unlock_irqrestore(&uc->track_lock, flags);
	}
	return 0;
}

/* What an enabled tracker holds, given back; nothing can reach it now. */
static void ut_reg_release(struct ut_tracker *tr)
{
	if (tr->ops->disable)
		tr->ops->disable(tr);
	ut_reg_free_data(tr);
	if (!tr->builtin)
		module_put(tr->ops->owner);
}

static int ut_reg_enable_locked(struct ut_tracker *tr)
{
	int ret;

	if (tr->enabled)
		return 0;
	if (!tr->builtin && !try_module_get(tr->ops->owner))
		return -ENODEV;
	ret = ut_reg_alloc_data(tr);
	if (ret)
		goto err_put;
	if (tr->ops->enable) {
		ret = tr->ops->enable(tr);
		if (ret)
			goto err_free;
	}
	tr->enabled = true;
	ret = ut_reg_publish();
	if (ret) {
		/* back to the old set; detaching probes cannot fail */
		tr->enabled = false;
		ut_reg_publish();
		ut_reg_release(tr);
	}
	return ret;

err_free:
	ut_reg_free_data(tr);
err_put:
	if (!tr->builtin)
		module_put(tr->ops->owner);
	return ret;
}

/* Cannot fail: what it frees is unreachable once the publish returns. */
static void ut_reg_disable_locked(struct ut_tracker *tr)
{
	if (!tr->enabled)
		return;
	tr->enabled = false;
	ut_reg_publish();	/* waits for the probes: data is ours again */
	ut_reg_release(tr);
}

int ut_reg_enable(const char *name)
{
	struct ut_tracker *tr;
	int ret;

	mutex_lock(&ut_reg_mutex);
	tr = ut_reg_find(name);
	ret = tr ? ut_reg_enable_locked(tr) : -ENOENT;
	mutex_unlock(&ut_reg_mutex);
	return ret;
}

int ut_reg_disable(const char *name)
{
	struct ut_tracker *tr;

	mutex_lock(&ut_reg_mutex);
	tr = ut_reg_find(name);
	if (tr)
		ut_reg_disable_locked(tr);
	mutex_unlock(&ut_reg_mutex);
	return tr ? 0 : -ENOENT;
}

/*
 * Is @name a registered tracker? Its UT_NEED_* flags in *@needs. Callable
 * with cpufreq governor locks held: takes only the list lock.
 */
int ut_reg_lookup(const char *name, unsigned int *needs)
{
	struct ut_tracker *tr;

	mutex_lock(&ut_list_mutex);
	tr = ut_reg_find(name);
	if (tr)
		*needs = tr->ops->needs;
	mutex_unlock(&ut_list_mutex);
	return tr ? 0 : -ENOENT;
}

static bool ut_reg_ops_valid(const struct ut_tracker_ops *ops)
{
	unsigned int i;

	if (!ops->name || !ops->name[0] || strlen(ops->name) > 32)
		return false;
	if (ops->needs & ~UT_NEED_TRACKER_ALL)
		return false;
	for (i = 0; ops->name[i]; i++)
		if (!isalnum(ops->name[i]) && ops->name[i] != '_')
			return false;
	return true;
}

static unsigned int ut_reg_count(void)
{
	struct ut_tracker *tr;
	unsigned int n = 0;

	list_for_each_entry(tr, &ut_trackers, node)
		n++;
	return n;
}

static void ut_reg_list_add(struct ut_tracker *tr)
{
	lockdep_assert_held(&ut_reg_mutex);
	mutex_lock(&ut_list_mutex);
	list_add_tail(&tr->node, &ut_trackers);
	mutex_unlock(&ut_list_mutex);
}

/* Unlink and free @tr; it is disabled already. */
static void ut_reg_list_del(struct ut_tracker *tr)
{
	lockdep_assert_held(&ut_reg_mutex);
	mutex_lock(&ut_list_mutex);
	list_del(&tr->node);
	mutex_unlock(&ut_list_mutex);
	kfree(tr);
}

static int ut_reg_add(const struct ut_tracker_ops *ops, bool builtin)
{
	struct ut_tracker *tr;
	int ret = 0;

	if (!ut_reg_ops_valid(ops))
		return -EINVAL;
	tr = kzalloc(sizeof(*tr), GFP_KERNEL);
	if (!tr)
		return -ENOMEM;
	tr->ops = ops;
	tr->builtin = builtin;

	mutex_lock(&ut_reg_mutex);
	if (ut_reg_find(ops->name))
		ret = -EEXIST;
	else if (ut_reg_count() >= UT_MAX_TRACKERS)
		ret = -ENOSPC;
	else
		ut_reg_list_add(tr);
	mutex_unlock(&ut_reg_mutex);
	if (ret)
		kfree(tr);
	return ret;
}

int ut_reg_register_builtin(const struct ut_tracker_ops *ops)
{
	return ut_reg_add(ops, true);
}

/**
 * ut_tracker_register - add a tracker from another module
 * @ops: its ops table; must outlive the registration
 *
 * The tracker starts disabled; enable it through debugfs
 * ("enable NAME" into /sys/kernel/debug/utiltrack/trackers). While it is
 * enabled, its module is pinned.
 *
 * Return: 0, -EINVAL for a bad name, -EEXIST, -ENOSPC or -ENOMEM.
 */
int ut_tracker_register(const struct ut_tracker_ops *ops)
{
	int ret = ut_reg_add(ops, false);

	if (!ret)
		pr_info("tracker '%s' registered\n", ops->name);
	return ret;
}
EXPORT_SYMBOL_GPL(ut_tracker_register);

/**
 * ut_tracker_unregister - remove a tracker added by ut_tracker_register()
 * @ops: the ops table it was registered with
 */
void ut_tracker_unregister(const struct ut_tracker_ops *ops)
{
	struct ut_tracker *tr;

	mutex_lock(&ut_reg_mutex);
	list_for_each_entry(tr, &ut_trackers, node) {
		if (tr->ops != ops)
			continue;
		ut_reg_disable_locked(tr);
		ut_reg_list_del(tr);
		break;
	}
	mutex_unlock(&ut_reg_mutex);
}
EXPORT_SYMBOL_GPL(ut_tracker_unregister);

void ut_reg_for_each(void (*fn)(struct ut_tracker *tr, void *arg), void *arg)
{
	struct ut_tracker *tr;

	lockdep_assert_held(&ut_reg_mutex);
	list_for_each_entry(tr, &ut_trackers, node)
		fn(tr, arg);
}

/* Enable the comma-separated built-in trackers named at load. */
int ut_reg_init(const char *enable_list)
{
	char *list, *cur, *name;
	int ret = 0;

	list = kstrdup(enable_list, GFP_KERNEL);
	if (!list)
		return -ENOMEM;
	cur = list;
	while ((name = strsep(&cur, ",")) && !ret) {
		name = strim(name);
		if (!*name)
			continue;
		ret = ut_reg_enable(name);
		if (ret == -ENOENT)
			pr_err("refusing to load: unknown tracker '%s' in trackers=\n",
			       name);
	}
	kfree(list);
	return ret;
}

/*
 * Disable and forget every tracker (unload, or a load that failed). The
 * caller has detached every probe and cancelled the ticks, so nothing
 * reads the active set any more: it is emptied without re-attaching
 * anything.
 */
void ut_reg_exit(void)
{
	struct ut_tracker *tr, *tmp;

	mutex_lock(&ut_reg_mutex);
	ut_reg_gov_needs = 0;
	rcu_assign_pointer(ut_active, NULL);
	synchronize_rcu();
	list_for_each_entry(tr, &ut_trackers, node) {
		if (!tr->enabled)
			continue;
		tr->enabled = false;
		ut_reg_release(tr);
	}
	list_for_each_entry_safe(tr, tmp, &ut_trackers, node)
		ut_reg_list_del(tr);
	mutex_unlock(&ut_reg_mutex);
}
