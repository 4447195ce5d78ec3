// SPDX-License-Identifier: GPL-2.0
/*
 * tracker_kunit.c - utiltrack_tracker: the registry, the per-task slots,
 * the built-in trackers and the governor's signals (module/registry.c,
 * slots.c, dispatch.c, signal.c, trackers/), driven by synthetic
 * scheduler events.
 *
 * The events go through dispatch.c, the same fan-out the tracepoint
 * probes use, under the same per-CPU lock; only the probes themselves
 * are faked (glue.c). Tasks are zeroed task_structs that never run: the
 * slots key on the pointer and the trackers read nothing of them that
 * a zeroed one lacks.
 */

#include <linux/module.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/time64.h>

#include <utiltrack/util_est.h>

#include "utiltrack_kunit.h"
#include "compat/sched.h"

#define MS	NSEC_PER_MSEC
#define T0	(1000 * 20 * MS)	/* a boundary of 10 and 20 ms windows */
#define WIN	(20 * MS)		/* walt's default window */

/* ------------------------------------------------------------------ */
/* a tracker that counts its callbacks */

struct fake_counts {
	int enable, disable, cpu_init, task_init, wakeup, cpu_switch;
	int switch_out, switch_in, tick, migrate, task_exit;
	int enable_ret;
};

static struct fake_counts fk;

#define FAKE_MARK	0xfeedULL

static int fake_enable(struct ut_tracker *tr)
{
	fk.enable++;
	return fk.enable_ret;
}

static void fake_disable(struct ut_tracker *tr)
{
	fk.disable++;
}

static void fake_cpu_init(struct ut_tracker *tr, void *cd,
			  const struct ut_ctx *c)
{
	fk.cpu_init++;
}

static void fake_task_init(struct ut_tracker *tr, void *td,
			   const struct ut_task *t, const struct ut_ctx *c)
{
	*(u64 *)td = FAKE_MARK;
	fk.task_init++;
}

static void fake_wakeup(struct ut_tracker *tr, void *td, void *cd,
			const struct ut_task *t, const struct ut_ctx *c)
{
	fk.wakeup++;
}

static void fake_cpu_switch(struct ut_tracker *tr, void *cd,
			    const struct ut_ctx *c, enum ut_class pc,
			    enum ut_class nc)
{
	fk.cpu_switch++;
}

static void fake_switch_out(struct ut_tracker *tr, void *td, void *cd,
			    const struct ut_task *t, const struct ut_ctx *c,
			    bool prev_runnable)
{
	fk.switch_out++;
}

static void fake_switch_in(struct ut_tracker *tr, void *td, void *cd,
			   const struct ut_task *t, const struct ut_ctx *c)
{
	fk.switch_in++;
}

static void fake_tick(struct ut_tracker *tr, void *td, void *cd,
		      const struct ut_task *t, const struct ut_ctx *c)
{
	fk.tick++;
}

static void fake_migrate(struct ut_tracker *tr, void *td, void *src,
			 void *dst, const struct ut_task *t,
			 const struct ut_ctx *cs, const struct ut_ctx *cd)
{
	fk.migrate++;
}

static void fake_task_exit(struct ut_tracker *tr, void *td, void *cd,
			   const struct ut_task *t, const struct ut_ctx *c)
{
	fk.task_exit++;
}

#define FAKE_NEEDS	(UT_NEED_SWITCH | UT_NEED_TICK)

static const struct ut_tracker_ops fake_ops = {
	.name		= "fake",
	.owner		= THIS_MODULE,
	.needs		= FAKE_NEEDS,
	.cpu_size	= sizeof(u64),
	.task_size	= sizeof(u64),
	.enable		= fake_enable,
	.disable	= fake_disable,
	.cpu_init	= fake_cpu_init,
	.task_init	= fake_task_init,
	.wakeup		= fake_wakeup,
	.cpu_switch	= fake_cpu_switch,
	.switch_out	= fake_switch_out,
	.switch_in	= fake_switch_in,
	.tick		= fake_tick,
	.migrate	= fake_migrate,
	.task_exit	= fake_task_exit,
};

/* The fake tracker, registered and enabled; the suite's exit drops it. */
static void fake_enabled(struct kunit *test)
{
	KUNIT_ASSERT_EQ(test, ut_tracker_register(&fake_ops), 0);
	KUNIT_ASSERT_EQ(test, ut_reg_enable("fake"), 0);
}

/* ------------------------------------------------------------------ */
/* synthetic events, as probes.c delivers them */

static struct task_struct *fake_task(struct kunit *test, pid_t pid,
				     int policy)
{
	struct task_struct *p = kunit_kzalloc(test, sizeof(*p), GFP_KERNEL);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, p);
	p->pid = pid;
	p->policy = policy;
	strscpy(p->comm, "ut_fake", sizeof(p->comm));
	return p;
}

static struct ut_slot *fake_slot(struct kunit *test, pid_t pid, int policy)
{
	struct ut_slot *s = ut_slot_alloc(fake_task(test, pid, policy), true);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, s);
	return s;
}

static enum ut_class class_of(struct ut_slot *s)
{
	return s ? s->t.class : UT_CLASS_IDLE;
}

/* As a probe runs: inside RCU-sched, under the CPU's utiltrack lock. */
static struct ut_active *ev_begin(int cpu, unsigned long *flags)
{
	rcu_read_lock_sched();
	raw_spin_lock_irqsave(&per_cpu_ptr(&ut_cpus, cpu)->track_lock, *flags);
	return rcu_dereference_sched(ut_active);
}

static void ev_end(int cpu, unsigned long flags)
{
	raw_spin_unlock_irqrestore(&per_cpu_ptr(&ut_cpus, cpu)->track_lock, flags);
	rcu_read_unlock_sched();
}

/* @cpu switches from @ps to @ns (NULL: idle) at @now. */
static void ev_switch(int cpu, u64 now, struct ut_slot *ps, bool runnable,
		      struct ut_slot *ns)
{
	unsigned long flags;
	struct ut_active *act = ev_begin(cpu, &flags);
	struct ut_ctx c;

	ut_probe_fill_ctx(&c, cpu, now);
	ut_disp_switch_out(act, &c, class_of(ps), class_of(ns), ps, runnable);
	ut_disp_switch_in(act, &c, false, class_of(ns), ns);
	/* as probes.c: PELT's clock is scaled while a task runs */
	ut_pelt_clock_set_busy(&per_cpu_ptr(&ut_cpus, cpu)->pelt, !!ns);
	ev_end(cpu, flags);
}

/* One-slot events on the slot's CPU: wakeup, tick, exit. */
static void ev_one(struct ut_slot *s, u64 now,
		   void (*fn)(struct ut_active *act, struct ut_slot *s,
			      const struct ut_ctx *c))
{
	int cpu = s->t.cpu;
	unsigned long flags;
	struct ut_active *act = ev_begin(cpu, &flags);
	struct ut_ctx c;

	ut_probe_fill_ctx(&c, cpu, now);
	fn(act, s, &c);
	ev_end(cpu, flags);
}

static void ev_migrate(struct ut_slot *s, int dst, u64 now)
{
	struct ut_cpu *a = per_cpu_ptr(&ut_cpus, s->t.cpu);
	struct ut_cpu *b = per_cpu_ptr(&ut_cpus, dst);
	struct ut_active *act;
	unsigned long flags;
	struct ut_ctx cs, cd;

	rcu_read_lock_sched();
	act = rcu_dereference_sched(ut_active);
	local_irq_save(flags);
	raw_spin_lock(a < b ? &a->track_lock : &b->track_lock);
	raw_spin_lock_nested(a < b ? &b->track_lock : &a->track_lock, SINGLE_DEPTH_NESTING);
	ut_probe_fill_ctx(&cs, s->t.cpu, now);
	ut_probe_fill_ctx(&cd, dst, now);
	ut_disp_migrate(act, s, &cs, &cd);
	s->t.cpu = dst;
	raw_spin_unlock(&a->track_lock);
	raw_spin_unlock(&b->track_lock);
	local_irq_restore(flags);
	rcu_read_unlock_sched();
}

/* An enabled tracker by name; the suite is the only writer meanwhile. */
static struct ut_tracker *active(struct kunit *test, const char *name)
{
	struct ut_active *act;
	struct ut_tracker *tr = NULL;
	unsigned int i;

	rcu_read_lock_sched();
	act = rcu_dereference_sched(ut_active);
	for (i = 0; act && i < act->nr; i++)
		if (!strcmp(act->tr[i]->ops->name, name))
			tr = act->tr[i];
	rcu_read_unlock_sched();
	KUNIT_ASSERT_NOT_NULL(test, tr);
	return tr;
}

static unsigned int active_nr(void)
{
	struct ut_active *act;
	unsigned int nr;

	rcu_read_lock_sched();
	act = rcu_dereference_sched(ut_active);
	nr = act ? act->nr : 0;
	rcu_read_unlock_sched();
	return nr;
}

/* A reader's view of @cpu at @now, as debugfs and the governor get it. */
static struct ut_ctx read_ctx(int cpu, u64 now)
{
	struct ut_ctx c;

	ut_probe_read_ctx(&c, cpu, now);
	return c;
}

/* Column @col of a tracker's "cpus" row for @cpu. */
static u64 cpu_val(struct kunit *test, const char *name, int cpu, int col)
{
	struct ut_tracker *tr = active(test, name);
	u64 vals[UT_MAX_COLS] = {};
	struct ut_ctx c = read_ctx(cpu, ut_probe_cpu_now(cpu));

	tr->ops->cpu_show(tr, ut_tr_cpu(tr, cpu), &c, vals);
	return vals[col];
}

static u64 task_val(struct kunit *test, const char *name, struct ut_slot *s)
{
	struct ut_tracker *tr = active(test, name);
	u64 vals[UT_MAX_COLS] = {};
	struct ut_ctx c = read_ctx(s->t.cpu, ut_probe_cpu_now(s->t.cpu));

	tr->ops->task_show(tr, ut_tr_task(tr, s, &c), &s->t, vals);
	return vals[0];
}

/* ------------------------------------------------------------------ */

static int tracker_test_init(struct kunit *test)
{
	int ret;

	memset(&fk, 0, sizeof(fk));
	ut_kunit_reset(T0);
	ret = ut_walt_param_check();
	if (ret)
		return ret;
	ret = ut_slot_init(UT_KUNIT_MAX_TASKS);
	if (ret)
		return ret;
	ret = ut_reg_register_builtin(&ut_pelt_tracker) ?:
	      ut_reg_register_builtin(&ut_rt_tracker) ?:
	      ut_reg_register_builtin(&ut_walt_tracker) ?:
	      ut_reg_register_builtin(&ut_util_est_tracker);
	if (ret)
		ut_slot_exit();
	return ret;
}

static void tracker_test_exit(struct kunit *test)
{
	ut_reg_exit();
	ut_slot_exit();
}

struct name_case {
	const char *name;
	int ret;
};

static const struct name_case names[] = {
	{ "ok_name_1", 0 },
	{ "", -EINVAL },
	{ "two words", -EINVAL },
	{ "a/b", -EINVAL },
	{ "dash-ed", -EINVAL },
	{ "x23456789012345678901234567890123", -EINVAL },	/* 33 */
	{ "x2345678901234567890123456789012", 0 },		/* 32 */
	{ "pelt", -EEXIST },
};

static void name_desc(const struct name_case *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "'%s'", c->name);
}

KUNIT_ARRAY_PARAM(names, names, name_desc);

static void tracker_register_names(struct kunit *test)
{
	const struct name_case *c = test->param_value;
	struct ut_tracker_ops *ops = kunit_kzalloc(test, sizeof(*ops),
						   GFP_KERNEL);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, ops);
	ops->name = c->name;
	ops->owner = THIS_MODULE;
	KUNIT_EXPECT_EQ(test, ut_tracker_register(ops), c->ret);
	if (!c->ret)
		ut_tracker_unregister(ops);
}

/* tracker_test_init's built-ins plus more fill the table; one more is refused. */
#define NR_BUILTIN	4

static void tracker_register_limit(struct kunit *test)
{
	int room = UT_MAX_TRACKERS - NR_BUILTIN, i;
	struct ut_tracker_ops *ops;
	char *name;

	ops = kunit_kcalloc(test, room + 1, sizeof(*ops), GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, ops);
	for (i = 0; i <= room; i++) {
		name = kunit_kzalloc(test, 8, GFP_KERNEL);
		KUNIT_ASSERT_NOT_ERR_OR_NULL(test, name);
		snprintf(name, 8, "t%d", i);
		ops[i].name = name;
		ops[i].owner = THIS_MODULE;
		KUNIT_EXPECT_EQ(test, ut_tracker_register(&ops[i]),
				i < room ? 0 : -ENOSPC);
	}
	for (i = 0; i < room; i++)
		ut_tracker_unregister(&ops[i]);
}

/* The active set and the probes follow enable and disable. */
static void tracker_enable_publishes(struct kunit *test)
{
	unsigned int needs = 0;

	KUNIT_ASSERT_EQ(test, ut_tracker_register(&fake_ops), 0);
	KUNIT_EXPECT_EQ(test, active_nr(), 0);
	KUNIT_EXPECT_EQ(test, ut_reg_enable("fake"), 0);
	KUNIT_EXPECT_EQ(test, active_nr(), 1);
	/* any tracker enabled: the task lifetime probes too */
	KUNIT_EXPECT_EQ(test, ut_kunit_probes.needs, FAKE_NEEDS | UT_NEED_TASKS);
	KUNIT_EXPECT_EQ(test, ut_reg_enable("fake"), 0);	/* idempotent */
	KUNIT_EXPECT_EQ(test, fk.enable, 1);
	KUNIT_EXPECT_EQ(test, fk.cpu_init, num_possible_cpus());
	KUNIT_EXPECT_EQ(test, ut_reg_enable("walt"), 0);
	KUNIT_EXPECT_EQ(test, active_nr(), 2);
	KUNIT_EXPECT_EQ(test, ut_kunit_probes.needs,
			FAKE_NEEDS | ut_walt_tracker.needs | UT_NEED_TASKS);
	KUNIT_EXPECT_EQ(test, ut_reg_disable("fake"), 0);
	KUNIT_EXPECT_EQ(test, fk.disable, 1);
	KUNIT_EXPECT_EQ(test, ut_kunit_probes.needs,
			ut_walt_tracker.needs | UT_NEED_TASKS);
	/* none enabled: nothing at all attached */
	KUNIT_EXPECT_EQ(test, ut_reg_disable("walt"), 0);
	KUNIT_EXPECT_EQ(test, ut_kunit_probes.needs, 0);
	KUNIT_EXPECT_EQ(test, active_nr(), 0);

	KUNIT_EXPECT_EQ(test, ut_reg_lookup("fake", &needs), 0);
	KUNIT_EXPECT_EQ(test, needs, FAKE_NEEDS);
	KUNIT_EXPECT_EQ(test, ut_reg_lookup("nope", &needs), -ENOENT);
	KUNIT_EXPECT_EQ(test, ut_reg_enable("nope"), -ENOENT);
	KUNIT_EXPECT_EQ(test, ut_reg_disable("nope"), -ENOENT);
	ut_tracker_unregister(&fake_ops);
}

/* A tracker from another module pins it while enabled, and only then. */
static void tracker_external_pins_owner(struct kunit *test)
{
	int refs = module_refcount(THIS_MODULE);

	KUNIT_ASSERT_EQ(test, ut_tracker_register(&fake_ops), 0);
	KUNIT_EXPECT_EQ(test, module_refcount(THIS_MODULE), refs);
	KUNIT_EXPECT_EQ(test, ut_reg_enable("fake"), 0);
	KUNIT_EXPECT_EQ(test, module_refcount(THIS_MODULE), refs + 1);
	/* unregistering an enabled tracker disables it first */
	ut_tracker_unregister(&fake_ops);
	KUNIT_EXPECT_EQ(test, fk.disable, 1);
	KUNIT_EXPECT_EQ(test, module_refcount(THIS_MODULE), refs);
	KUNIT_EXPECT_EQ(test, active_nr(), 0);
}

/* A failing ->enable leaves nothing behind. */
static void tracker_enable_error_rolls_back(struct kunit *test)
{
	int refs = module_refcount(THIS_MODULE);

	KUNIT_ASSERT_EQ(test, ut_tracker_register(&fake_ops), 0);
	fk.enable_ret = -EIO;
	KUNIT_EXPECT_EQ(test, ut_reg_enable("fake"), -EIO);
	KUNIT_EXPECT_EQ(test, fk.disable, 0);
	KUNIT_EXPECT_EQ(test, active_nr(), 0);
	KUNIT_EXPECT_EQ(test, module_refcount(THIS_MODULE), refs);
	fk.enable_ret = 0;
	KUNIT_EXPECT_EQ(test, ut_reg_enable("fake"), 0);
	KUNIT_EXPECT_EQ(test, active_nr(), 1);
	ut_tracker_unregister(&fake_ops);
}

/* Probes that cannot attach: the enable fails and is undone. */
static void tracker_attach_error_rolls_back(struct kunit *test)
{
	KUNIT_ASSERT_EQ(test, ut_tracker_register(&fake_ops), 0);
	ut_kunit_probes.fail = -EBUSY;
	KUNIT_EXPECT_EQ(test, ut_reg_enable("fake"), -EBUSY);
	KUNIT_EXPECT_EQ(test, fk.disable, 1);
	KUNIT_EXPECT_EQ(test, active_nr(), 0);
	ut_kunit_probes.fail = 0;
	ut_tracker_unregister(&fake_ops);
}

/*
 * The governor's needs ride beside the trackers' and are kept only once
 * attached; a tracker cannot claim the bits the module keeps for itself.
 */
static void tracker_gov_needs_beside(struct kunit *test)
{
	struct ut_tracker_ops bad = fake_ops;

	bad.name = "badneeds";
	bad.needs |= UT_NEED_RT_WAKING;
	KUNIT_EXPECT_EQ(test, ut_tracker_register(&bad), -EINVAL);

	KUNIT_ASSERT_EQ(test, ut_tracker_register(&fake_ops), 0);
	KUNIT_EXPECT_EQ(test, ut_reg_set_gov_needs(UT_NEED_RT_WAKING), 0);
	KUNIT_EXPECT_EQ(test, ut_kunit_probes.needs, UT_NEED_RT_WAKING);
	KUNIT_EXPECT_EQ(test, ut_reg_enable("fake"), 0);
	KUNIT_EXPECT_EQ(test, ut_kunit_probes.needs,
			FAKE_NEEDS | UT_NEED_TASKS | UT_NEED_RT_WAKING);
	KUNIT_EXPECT_EQ(test, ut_reg_set_gov_needs(0), 0);
	KUNIT_EXPECT_EQ(test, ut_kunit_probes.needs, FAKE_NEEDS | UT_NEED_TASKS);

	/* a failed attach leaves nothing for the next publish to retry */
	ut_kunit_probes.fail = -ENOMEM;
	KUNIT_EXPECT_EQ(test, ut_reg_set_gov_needs(UT_NEED_RT_WAKING), -ENOMEM);
	ut_kunit_probes.fail = 0;
	KUNIT_EXPECT_EQ(test, ut_reg_disable("fake"), 0);
	KUNIT_EXPECT_EQ(test, ut_kunit_probes.needs, 0);
	ut_reg_set_gov_needs(0);
	ut_tracker_unregister(&fake_ops);
}

/*
 * Disabling cannot fail: with the probe layer failing every call, the
 * tracker still leaves the published set before its data is freed.
 */
static void tracker_disable_cannot_fail(struct kunit *test)
{
	KUNIT_ASSERT_EQ(test, ut_tracker_register(&fake_ops), 0);
	KUNIT_ASSERT_EQ(test, ut_reg_enable("fake"), 0);
	KUNIT_ASSERT_EQ(test, active_nr(), 1);
	ut_kunit_probes.fail = -ENOMEM;
	KUNIT_EXPECT_EQ(test, ut_reg_disable("fake"), 0);
	KUNIT_EXPECT_EQ(test, active_nr(), 0);
	KUNIT_EXPECT_EQ(test, fk.disable, 1);
	ut_kunit_probes.fail = 0;
	ut_tracker_unregister(&fake_ops);
}

/* Running out of slots is counted, and a release makes room again. */
static void tracker_slots_exhaustion_counted(struct kunit *test)
{
	struct task_struct *p[UT_KUNIT_MAX_TASKS + 3];
	struct ut_slot_stats st;
	int i, got = 0;

	for (i = 0; i < ARRAY_SIZE(p); i++) {
		p[i] = fake_task(test, 100 + i, SCHED_NORMAL);
		got += !!ut_slot_alloc(p[i], true);
	}
	ut_slot_stats(&st);
	KUNIT_EXPECT_EQ(test, got, UT_KUNIT_MAX_TASKS);
	KUNIT_EXPECT_EQ(test, st.total, UT_KUNIT_MAX_TASKS);
	KUNIT_EXPECT_EQ(test, st.used, UT_KUNIT_MAX_TASKS);
	KUNIT_EXPECT_EQ(test, st.exhausted, 3);
	KUNIT_EXPECT_NULL(test, ut_slot_find(p[UT_KUNIT_MAX_TASKS]));

	/*
	 * A lock-free lookup (a reader, as this section is) may still walk
	 * through a released slot: it is not reused before a grace period.
	 */
	rcu_read_lock();
	ut_slot_release(p[0]);
	KUNIT_EXPECT_NULL(test, ut_slot_find(p[0]));
	ut_slot_stats(&st);
	KUNIT_EXPECT_EQ(test, st.used, UT_KUNIT_MAX_TASKS - 1);
	KUNIT_EXPECT_EQ(test, st.pending, 1);
	KUNIT_EXPECT_NULL(test, ut_slot_alloc(p[UT_KUNIT_MAX_TASKS], true));
	ut_slot_stats(&st);
	KUNIT_EXPECT_EQ(test, st.exhausted, 4);
	rcu_read_unlock();
	/* after a grace period it is free again */
	rcu_barrier();
	KUNIT_EXPECT_NOT_NULL(test, ut_slot_alloc(p[UT_KUNIT_MAX_TASKS], true));
	ut_slot_stats(&st);
	KUNIT_EXPECT_EQ(test, st.used, UT_KUNIT_MAX_TASKS);
	KUNIT_EXPECT_EQ(test, st.pending, 0);
}

static void tracker_slots_find_and_release(struct kunit *test)
{
	struct task_struct *a = fake_task(test, 1, SCHED_NORMAL);
	struct task_struct *b = fake_task(test, 2, SCHED_FIFO);
	struct ut_slot *sa = ut_slot_alloc(a, true);
	struct ut_slot_stats st;
	u64 untracked;

	KUNIT_ASSERT_NOT_NULL(test, sa);
	/* the fork probe and the load-time scan may both see a task */
	KUNIT_EXPECT_PTR_EQ(test, ut_slot_alloc(a, false), sa);
	KUNIT_EXPECT_PTR_EQ(test, ut_slot_find(a), sa);
	KUNIT_EXPECT_EQ(test, sa->t.pid, 1);
	KUNIT_EXPECT_EQ(test, sa->t.class, UT_CLASS_FAIR);
	KUNIT_EXPECT_EQ(test, ut_slot_alloc(b, true)->t.class, UT_CLASS_RT);
	KUNIT_EXPECT_STREQ(test, sa->comm, "ut_fake");
	ut_slot_stats(&st);
	KUNIT_EXPECT_EQ(test, st.used, 2);
	ut_slot_release(a);
	ut_slot_release(a);	/* unknown by now: nothing happens */
	KUNIT_EXPECT_NULL(test, ut_slot_find(a));
	ut_slot_stats(&st);
	untracked = st.untracked;
	ut_slot_count_untracked();
	ut_slot_count_untracked();
	ut_slot_stats(&st);
	KUNIT_EXPECT_EQ(test, st.used, 1);
	KUNIT_EXPECT_EQ(test, st.untracked, untracked + 2);
}

/* A reused slot's tracker data is set up afresh for its new task. */
static void tracker_task_data_follows_slot(struct kunit *test)
{
	struct task_struct *a = fake_task(test, 1, SCHED_NORMAL);
	struct task_struct *b = fake_task(test, 2, SCHED_NORMAL);
	struct ut_tracker *tr;
	struct ut_slot *s;
	struct ut_ctx c = { .now = T0 };
	u64 *td;
	int i;

	fake_enabled(test);
	tr = active(test, "fake");
	s = ut_slot_alloc(a, true);
	KUNIT_ASSERT_NOT_NULL(test, s);
	td = ut_tr_task(tr, s, &c);
	KUNIT_EXPECT_EQ(test, *td, FAKE_MARK);
	*td = 42;
	KUNIT_EXPECT_EQ(test, *(u64 *)ut_tr_task(tr, s, &c), 42);
	KUNIT_EXPECT_EQ(test, fk.task_init, 1);
	/* every other slot taken: @b can only get @a's, once it is free */
	for (i = 1; i < UT_KUNIT_MAX_TASKS; i++)
		KUNIT_ASSERT_NOT_NULL(test, fake_slot(test, 100 + i,
						      SCHED_NORMAL));
	ut_slot_release(a);
	rcu_barrier();
	KUNIT_EXPECT_PTR_EQ(test, ut_slot_alloc(b, true), s);	/* reused */
	KUNIT_EXPECT_EQ(test, *(u64 *)ut_tr_task(tr, s, &c), FAKE_MARK);
	KUNIT_EXPECT_EQ(test, fk.task_init, 2);
}

/* Each kind of event reaches the tracker, once per event. */
static void tracker_events_dispatched(struct kunit *test)
{
	struct ut_slot *s;

	fake_enabled(test);
	s = fake_slot(test, 1, SCHED_NORMAL);
	KUNIT_EXPECT_TRUE(test, s->t.is_new);
	ev_one(s, T0, ut_disp_wakeup);
	KUNIT_EXPECT_FALSE(test, s->t.is_new);
	ev_switch(0, T0 + MS, NULL, false, s);
	ev_one(s, T0 + 2 * MS, ut_disp_tick);
	ev_switch(0, T0 + 3 * MS, s, false, NULL);
	if (num_possible_cpus() > 1) {
		ev_migrate(s, 1, T0 + 4 * MS);
		KUNIT_EXPECT_EQ(test, s->t.cpu, 1);
		KUNIT_EXPECT_EQ(test, fk.migrate, 1);
	}
	ev_one(s, T0 + 5 * MS, ut_disp_task_exit);
	KUNIT_EXPECT_EQ(test, fk.task_init, 1);
	KUNIT_EXPECT_EQ(test, fk.wakeup, 1);
	KUNIT_EXPECT_EQ(test, fk.cpu_switch, 2);
	KUNIT_EXPECT_EQ(test, fk.switch_in, 1);
	KUNIT_EXPECT_EQ(test, fk.switch_out, 1);
	KUNIT_EXPECT_EQ(test, fk.tick, 1);
	KUNIT_EXPECT_EQ(test, fk.task_exit, 1);
}

/* A task the tracker never saw gets no exit call. */
static void tracker_exit_only_for_seen_tasks(struct kunit *test)
{
	struct ut_slot *s;

	fake_enabled(test);
	s = fake_slot(test, 1, SCHED_NORMAL);
	ev_one(s, T0, ut_disp_task_exit);
	KUNIT_EXPECT_EQ(test, fk.task_exit, 0);
	KUNIT_EXPECT_EQ(test, fk.task_init, 0);
}

/*
 * One task, @busy of every @period on CPU 0 for three seconds,
 * then the mean of its signal at the ends of its busy and idle phases
 * over the last second.
 */
struct duty_run {
	const char *tracker;
	int col;
	u64 cpu_mean, task_mean;
};

static void run_duty(struct kunit *test, struct ut_slot *s, u64 busy,
		     u64 period, struct duty_run *r)
{
	u64 t = T0, cpu_sum = 0, task_sum = 0, end = T0 + 3 * NSEC_PER_SEC;
	unsigned int n = 0;

	for (t = T0; t < end; t += period) {
		bool sample = t >= end - NSEC_PER_SEC;

		ev_one(s, t, ut_disp_wakeup);
		ev_switch(0, t, NULL, false, s);	/* the trough */
		if (sample) {
			cpu_sum += cpu_val(test, r->tracker, 0, r->col);
			task_sum += task_val(test, r->tracker, s);
		}
		ev_switch(0, t + busy, s, false, NULL);	/* the peak */
		if (sample) {
			cpu_sum += cpu_val(test, r->tracker, 0, r->col);
			task_sum += task_val(test, r->tracker, s);
			n += 2;
		}
	}
	r->cpu_mean = div_u64(cpu_sum, n);
	r->task_mean = div_u64(task_sum, n);
}

static void tracker_pelt_duty_cycle(struct kunit *test)
{
	struct duty_run r = { .tracker = "pelt" };
	struct ut_slot *s;

	KUNIT_ASSERT_EQ(test, ut_reg_enable("pelt"), 0);
	s = fake_slot(test, 1, SCHED_NORMAL);
	run_duty(test, s, 4 * MS, 8 * MS, &r);
	UT_KUNIT_EXPECT_NEAR(test, r.cpu_mean, 512, 31);
	UT_KUNIT_EXPECT_NEAR(test, r.task_mean, 512, 31);
}

/*
 * Invariance is in PELT's clock, as the kernel's: at half capacity a task
 * that runs 8 ms has run 4 ms of PELT time with full contributions, and
 * once its CPU has gone idle it decays over the other 4 ms too. Scaling
 * the contributions instead reads 81, then 65.
 */
static void tracker_pelt_clock_invariance(struct kunit *test)
{
	struct ut_pelt ref;
	struct ut_slot *s;

	per_cpu_ptr(&ut_cpus, 0)->capacity = 512;
	KUNIT_ASSERT_EQ(test, ut_reg_enable("pelt"), 0);
	s = fake_slot(test, 1, SCHED_NORMAL);
	ut_pelt_init(&ref, T0, 0, 0);

	ev_one(s, T0, ut_disp_wakeup);
	ev_switch(0, T0, NULL, false, s);
	ev_switch(0, T0 + 8 * MS, s, false, NULL);
	ut_pelt_update(&ref, T0 + 4 * MS, true, 1, 1024);
	KUNIT_EXPECT_EQ(test, task_val(test, "pelt", s), ref.util_avg);

	ev_one(s, T0 + 18 * MS, ut_disp_wakeup);
	ev_switch(0, T0 + 18 * MS, NULL, false, s);
	ut_pelt_update(&ref, T0 + 18 * MS, false, 0, 1024);
	KUNIT_EXPECT_EQ(test, task_val(test, "pelt", s), ref.util_avg);
	UT_KUNIT_EXPECT_NEAR(test, ref.util_avg, 62, 2);
}

/*
 * PELT clocks of two CPUs differ by what each lagged while busy: CPU1 at
 * capacity 512, busy for 420 ms, reads 210 ms behind CPU0. A task that
 * ran on CPU0 and moves there takes CPU1's clock (as the kernel attaches
 * it at its new cfs_rq's time): its run on CPU1 counts at once. Kept on
 * CPU0's time, every update on CPU1 would be before its last and
 * dropped, its util frozen at 163 instead of rising to ~213.
 */
static void tracker_pelt_migrate_rebases(struct kunit *test)
{
	struct ut_slot *s, *b;
	struct ut_pelt ref;

	per_cpu_ptr(&ut_cpus, 1)->capacity = 512;
	KUNIT_ASSERT_EQ(test, ut_reg_enable("pelt"), 0);
	b = fake_slot(test, 1, SCHED_NORMAL);
	s = fake_slot(test, 2, SCHED_NORMAL);
	ev_migrate(b, 1, T0);
	ev_one(b, T0, ut_disp_wakeup);
	ev_switch(1, T0, NULL, false, b);

	ev_one(s, T0 + 400 * MS, ut_disp_wakeup);
	ev_switch(0, T0 + 400 * MS, NULL, false, s);
	ev_switch(0, T0 + 408 * MS, s, false, NULL);
	ev_migrate(s, 1, T0 + 410 * MS);
	ev_one(s, T0 + 420 * MS, ut_disp_wakeup);
	ev_switch(1, T0 + 420 * MS, b, true, s);
	ev_switch(1, T0 + 428 * MS, s, false, b);

	/*
	 * 8 ms run; asleep 2 ms on CPU0's clock and 5 ms on CPU1's (its
	 * 10 ms there at 512); 4 ms of PELT time in its 8 ms run on CPU1
	 */
	ut_pelt_init(&ref, 0, 0, 0);
	ut_pelt_update(&ref, 8 * MS, true, 1, 1024);
	ut_pelt_update(&ref, 15 * MS, false, 0, 1024);
	ut_pelt_update(&ref, 19 * MS, true, 1, 1024);
	UT_KUNIT_EXPECT_NEAR(test, task_val(test, "pelt", s), ref.util_avg, 4);
	UT_KUNIT_EXPECT_NEAR(test, ref.util_avg, 213, 8);
}

/* The pelt tracker's runnable signal of @cpu, projected to @now. */
static u32 pelt_runnable_at(struct kunit *test, int cpu, u64 now)
{
	struct ut_tracker *tr = active(test, "pelt");
	struct ut_ctx c = read_ctx(cpu, now);
	u32 runnable = 0;

	tr->ops->cpu_util(tr, ut_tr_cpu(tr, cpu), &c, &runnable);
	return runnable;
}

/*
 * The CPU's runnable signal counts its queued CFS tasks, as the kernel's
 * cfs_rq does (h_nr_running), including one that was queued before the
 * tracker saw any wakeup of it.
 */
static void tracker_pelt_runnable_counts_queued(struct kunit *test)
{
	struct ut_slot *a, *b;
	u64 t;

	KUNIT_ASSERT_EQ(test, ut_reg_enable("pelt"), 0);
	a = fake_slot(test, 1, SCHED_NORMAL);
	b = fake_slot(test, 2, SCHED_NORMAL);
	ev_one(b, T0, ut_disp_wakeup);
	ev_switch(0, T0, NULL, false, a);	/* a: no wakeup seen */
	for (t = T0; t < T0 + NSEC_PER_SEC; t += 8 * MS) {
		ev_switch(0, t + 4 * MS, a, true, b);	/* preempted */
		ev_switch(0, t + 8 * MS, b, true, a);
	}
	UT_KUNIT_EXPECT_NEAR(test, pelt_runnable_at(test, 0, t), 2 * 1024, 60);
	KUNIT_EXPECT_LE(test, cpu_val(test, "pelt", 0, 0), 1024);
	/* b sleeps; a runs on alone: one task's worth */
	ev_switch(0, t + 4 * MS, a, true, b);
	ev_switch(0, t + 8 * MS, b, false, a);
	UT_KUNIT_EXPECT_NEAR(test,
			     pelt_runnable_at(test, 0, t + 8 * MS + NSEC_PER_SEC),
			     1024, 40);
}

/*
 * A task's util leaves its CPU's signal at its last switch, as the
 * kernel's task_dead_fair() takes it off the cfs_rq, not when the task
 * is freed a grace period later.
 */
static void tracker_pelt_exit_leaves_cpu(struct kunit *test)
{
	struct ut_slot *a, *b;
	u64 t, before, ua, after;

	KUNIT_ASSERT_EQ(test, ut_reg_enable("pelt"), 0);
	a = fake_slot(test, 1, SCHED_NORMAL);
	b = fake_slot(test, 2, SCHED_NORMAL);
	ev_one(a, T0, ut_disp_wakeup);
	ev_one(b, T0, ut_disp_wakeup);
	ev_switch(0, T0, NULL, false, a);
	/* each runs 4 ms of 8, the CPU never idle */
	for (t = T0; t < T0 + NSEC_PER_SEC; t += 8 * MS) {
		ev_switch(0, t + 4 * MS, a, true, b);
		ev_switch(0, t + 8 * MS, b, true, a);
	}
	before = cpu_val(test, "pelt", 0, 0);
	ua = task_val(test, "pelt", a);
	KUNIT_EXPECT_GE(test, ua, 400);
	UT_KUNIT_EXPECT_NEAR(test, pelt_runnable_at(test, 0, t), 2 * 1024, 60);
	/* do_task_dead(): a's last switch */
	WRITE_ONCE(ut_task_state(a->t.p), TASK_DEAD);
	ev_switch(0, t, a, false, b);
	after = cpu_val(test, "pelt", 0, 0);
	UT_KUNIT_EXPECT_NEAR(test, after, before - ua, 8);
	/* and its runnable: b's alone is left */
	UT_KUNIT_EXPECT_NEAR(test, pelt_runnable_at(test, 0, t), 1024, 60);
}

/* The rt tracker sees RT time only. */
static void tracker_rt_counts_rt_only(struct kunit *test)
{
	struct ut_slot *rt, *cfs;
	u64 t, sum = 0;
	unsigned int n = 0;

	KUNIT_ASSERT_EQ(test, ut_reg_enable("rt"), 0);
	rt = fake_slot(test, 1, SCHED_FIFO);
	cfs = fake_slot(test, 2, SCHED_NORMAL);
	/* 2 ms RT, 2 ms CFS, 4 ms idle */
	for (t = T0; t < T0 + 3 * NSEC_PER_SEC; t += 8 * MS) {
		ev_switch(0, t, NULL, false, rt);
		ev_switch(0, t + 2 * MS, rt, false, cfs);
		ev_switch(0, t + 4 * MS, cfs, false, NULL);
		if (t >= T0 + 2 * NSEC_PER_SEC) {
			sum += cpu_val(test, "rt", 0, 0);
			n++;
		}
	}
	UT_KUNIT_EXPECT_NEAR(test, div_u64(sum, n), 256, 31);
}

/* WALT: half of every window busy is 512, in the window that follows. */
/* A task on CPU 0 runs the first 10 ms of windows 0..9, then sleeps. */
static struct ut_slot *walt_half_busy(struct kunit *test)
{
	struct ut_slot *s = fake_slot(test, 1, SCHED_NORMAL);
	int k;

	for (k = 0; k < 10; k++) {
		ev_one(s, T0 + k * WIN, ut_disp_wakeup);
		ev_switch(0, T0 + k * WIN, NULL, false, s);
		ev_switch(0, T0 + k * WIN + 10 * MS, s, false, NULL);
	}
	return s;
}

static void tracker_walt_window_signal(struct kunit *test)
{
	struct ut_slot *s;

	KUNIT_ASSERT_EQ(test, ut_reg_enable("walt"), 0);
	s = walt_half_busy(test);
	KUNIT_EXPECT_EQ(test, cpu_val(test, "walt", 0, 0), 512);	/* prev */
	KUNIT_EXPECT_EQ(test, cpu_val(test, "walt", 0, 1), 512);	/* curr */
	KUNIT_EXPECT_EQ(test, task_val(test, "walt", s), 512);
}

/* The governor's walt signal of a CPU at @now, as ->cpu_util gives it. */
static u32 walt_util_at(struct kunit *test, int cpu, u64 now)
{
	struct ut_tracker *tr = active(test, "walt");
	struct ut_ctx c = read_ctx(cpu, now);

	return tr->ops->cpu_util(tr, ut_tr_cpu(tr, cpu), &c, NULL);
}

/*
 * An idle CPU's signal is projected to now: its last busy window stays
 * the signal only until the next window closes, not for as long as it
 * sleeps (else an idle CPU holds a shared policy up). The tracker's own
 * state is left alone.
 */
static void tracker_walt_signal_projected(struct kunit *test)
{
	u64 end = T0 + 9 * WIN + 10 * MS;	/* the last busy period ends */

	KUNIT_ASSERT_EQ(test, ut_reg_enable("walt"), 0);
	walt_half_busy(test);
	KUNIT_EXPECT_EQ(test, walt_util_at(test, 0, end), 512);
	/* one window later: the window the CPU went idle in, half busy */
	KUNIT_EXPECT_EQ(test, walt_util_at(test, 0, T0 + 10 * WIN + MS), 512);
	/* two or more: a whole idle window */
	KUNIT_EXPECT_EQ(test, walt_util_at(test, 0, T0 + 11 * WIN + MS), 0);
	KUNIT_EXPECT_EQ(test, walt_util_at(test, 0, T0 + 100 * WIN), 0);
	KUNIT_EXPECT_EQ(test, cpu_val(test, "walt", 0, 0), 512);
}

/*
 * A running task's time counts in the projection before any tick has
 * accounted it: a window that closed since reads what the next update
 * will write (a 100 % busy window is 1024, not short by up to a tick).
 * Once the task is gone the CPU is idle: nothing more is added.
 */
static void tracker_walt_running_projected(struct kunit *test)
{
	struct ut_slot *s;

	KUNIT_ASSERT_EQ(test, ut_reg_enable("walt"), 0);
	s = fake_slot(test, 1, SCHED_NORMAL);
	ev_one(s, T0 + 5 * MS, ut_disp_wakeup);
	ev_switch(0, T0 + 5 * MS, NULL, false, s);
	/* no update since it switched in: 15 ms of window 0 */
	KUNIT_EXPECT_EQ(test, walt_util_at(test, 0, T0 + WIN + 5 * MS), 768);
	/* window 1, all of it */
	KUNIT_EXPECT_EQ(test, walt_util_at(test, 0, T0 + 2 * WIN + MS), 1024);
	/* the tracker's own sums are untouched: nothing accounted yet */
	KUNIT_EXPECT_EQ(test, cpu_val(test, "walt", 0, 1), 0);
	/* it blocks 2 ms into window 2; then the CPU idles */
	ev_switch(0, T0 + 2 * WIN + 2 * MS, s, false, NULL);
	KUNIT_EXPECT_EQ(test, walt_util_at(test, 0, T0 + 2 * WIN + 10 * MS), 1024);
	KUNIT_EXPECT_EQ(test, walt_util_at(test, 0, T0 + 3 * WIN + MS), 102);
	KUNIT_EXPECT_EQ(test, walt_util_at(test, 0, T0 + 4 * WIN + MS), 0);
}

/* A migration takes the task's window contributions to the new CPU. */
static void tracker_walt_migration(struct kunit *test)
{
	struct ut_slot *s;

	if (num_possible_cpus() < 2)
		kunit_skip(test, "needs two CPUs");
	KUNIT_ASSERT_EQ(test, ut_reg_enable("walt"), 0);
	s = fake_slot(test, 1, SCHED_NORMAL);
	ev_one(s, T0, ut_disp_wakeup);
	ev_switch(0, T0, NULL, false, s);
	ev_switch(0, T0 + 6 * MS, s, true, NULL);	/* preempted, queued */
	KUNIT_EXPECT_EQ(test, cpu_val(test, "walt", 0, 1), 307);
	ev_migrate(s, 1, T0 + 6 * MS);
	KUNIT_EXPECT_EQ(test, cpu_val(test, "walt", 0, 1), 0);
	KUNIT_EXPECT_EQ(test, cpu_val(test, "walt", 1, 1), 307);
	/* work done by a task that exits still counts in its window */
	ev_one(s, T0 + 7 * MS, ut_disp_task_exit);
	KUNIT_EXPECT_EQ(test, cpu_val(test, "walt", 1, 1), 307);
}

/* @sig resolved against the set published now */
static void resolve_now(struct ut_signal *sig, const char *name)
{
	rcu_read_lock_sched();
	ut_signal_resolve(sig, rcu_dereference_sched(ut_active), name);
	rcu_read_unlock_sched();
}

static bool signal_current(const struct ut_signal *sig)
{
	bool cur;

	rcu_read_lock_sched();
	cur = ut_signal_current(sig, rcu_dereference_sched(ut_active));
	rcu_read_unlock_sched();
	return cur;
}

static bool read_now(const struct ut_signal *sig, int cpu, u32 *util)
{
	bool ok;

	rcu_read_lock_sched();
	ok = ut_signal_read(sig, cpu, false, 0, util);
	rcu_read_unlock_sched();
	return ok;
}

/* What @name's ->cpu_util gives for @cpu at its clock now. */
static u32 tracker_util(struct kunit *test, const char *name, int cpu)
{
	struct ut_tracker *tr = active(test, name);
	struct ut_ctx c = read_ctx(cpu, ut_probe_cpu_now(cpu));

	return tr->ops->cpu_util(tr, ut_tr_cpu(tr, cpu), &c, NULL);
}

/*
 * The governor's signals (signal.c): a name resolves once against the
 * published set, stays current until the set changes, reads the sum of
 * its parts (pelt_rt = pelt + rt, as schedutil's cfs + rt) and resolves
 * to none while a part is disabled.
 */
static void tracker_signal_resolve(struct kunit *test)
{
	struct ut_slot *rt, *cfs;
	struct ut_signal sig;
	unsigned int needs;
	u32 util;
	u64 t;

	KUNIT_EXPECT_EQ(test, ut_signal_lookup("pelt_rt", &needs), 0);
	KUNIT_EXPECT_EQ(test, ut_signal_lookup("util_est_rt", &needs), 0);
	KUNIT_EXPECT_EQ(test, ut_signal_lookup("walt", &needs), 0);
	KUNIT_EXPECT_TRUE(test, needs & UT_NEED_TICK);
	KUNIT_EXPECT_EQ(test, ut_signal_lookup("nosuch", &needs), -ENOENT);

	KUNIT_ASSERT_EQ(test, ut_reg_enable("pelt"), 0);
	KUNIT_ASSERT_EQ(test, ut_reg_enable("rt"), 0);
	rt = fake_slot(test, 1, SCHED_FIFO);
	cfs = fake_slot(test, 2, SCHED_NORMAL);
	/* 2 ms RT, 2 ms CFS, 4 ms idle: rt ~256, pelt ~256 */
	for (t = T0; t < T0 + NSEC_PER_SEC; t += 8 * MS) {
		ev_switch(0, t, NULL, false, rt);
		ev_switch(0, t + 2 * MS, rt, false, cfs);
		ev_switch(0, t + 4 * MS, cfs, false, NULL);
	}

	resolve_now(&sig, "pelt_rt");
	KUNIT_EXPECT_EQ(test, sig.nr, 2);
	KUNIT_ASSERT_TRUE(test, read_now(&sig, 0, &util));
	KUNIT_EXPECT_EQ(test, util, tracker_util(test, "pelt", 0) +
				    tracker_util(test, "rt", 0));
	UT_KUNIT_EXPECT_NEAR(test, util, 512, 64);
	KUNIT_EXPECT_TRUE(test, signal_current(&sig));

	resolve_now(&sig, "rt");
	KUNIT_ASSERT_TRUE(test, read_now(&sig, 0, &util));
	KUNIT_EXPECT_EQ(test, util, tracker_util(test, "rt", 0));

	/* not enabled, or no such tracker: none, and nothing read */
	resolve_now(&sig, "walt");
	KUNIT_EXPECT_EQ(test, sig.nr, 0);
	KUNIT_EXPECT_FALSE(test, read_now(&sig, 0, &util));
	resolve_now(&sig, "nosuch");
	KUNIT_EXPECT_FALSE(test, read_now(&sig, 0, &util));

	/* a new set makes every handle stale: walt resolves now */
	KUNIT_ASSERT_EQ(test, ut_reg_enable("walt"), 0);
	KUNIT_EXPECT_FALSE(test, signal_current(&sig));
	resolve_now(&sig, "walt");
	KUNIT_EXPECT_EQ(test, sig.nr, 1);
	KUNIT_EXPECT_TRUE(test, signal_current(&sig));

	/* a sum with a part disabled is none */
	ut_reg_disable("rt");
	KUNIT_EXPECT_FALSE(test, signal_current(&sig));
	resolve_now(&sig, "pelt_rt");
	KUNIT_EXPECT_EQ(test, sig.nr, 0);
	KUNIT_EXPECT_FALSE(test, read_now(&sig, 0, &util));
}

/*
 * util_est (trackers/util_est.c): a task running 4 ms of every 16 wakes
 * with its PELT util decayed to the trough; the CPU's estimate holds the
 * util it slept with, so it wakes to what it needed last time. Asleep,
 * it is out of the CPU's sum; queued, its estimate moves with it.
 */
static void tracker_util_est_periodic(struct kunit *test)
{
	u64 t, peak = 0, at_in = 0, est;
	struct ut_slot *s;

	KUNIT_ASSERT_EQ(test, ut_reg_enable("pelt"), 0);
	KUNIT_ASSERT_EQ(test, ut_reg_enable("util_est"), 0);
	s = fake_slot(test, 1, SCHED_NORMAL);
	for (t = T0; t < T0 + 3 * NSEC_PER_SEC; t += 16 * MS) {
		ev_one(s, t, ut_disp_wakeup);
		ev_switch(0, t, NULL, false, s);
		at_in = task_val(test, "pelt", s);
		ev_switch(0, t + 4 * MS, s, false, NULL);
		peak = task_val(test, "pelt", s);
	}
	KUNIT_EXPECT_EQ(test, cpu_val(test, "util_est", 0, 1), 0);
	/*
	 * Up to 6.11 the sample is the util at the sleep; 6.12 cuts the run
	 * at the kernel's last tick in it, so it lies between the two.
	 */
	est = UT_UTIL_EST_SAMPLE_BEFORE_DEQUEUE ? at_in : peak;
	KUNIT_EXPECT_GE(test, task_val(test, "util_est", s) + UT_UTIL_EST_MARGIN,
			est);
	KUNIT_EXPECT_LE(test, task_val(test, "util_est", s),
			peak + UT_UTIL_EST_MARGIN);

	ev_one(s, t, ut_disp_wakeup);
	KUNIT_EXPECT_EQ(test, cpu_val(test, "util_est", 0, 1),
			task_val(test, "util_est", s));
	ev_switch(0, t, NULL, false, s);
	/* the trough: ~224 of a 4/16 duty cycle, the peak ~290 */
	KUNIT_EXPECT_GE(test, peak, cpu_val(test, "pelt", 0, 0) + 40);
	KUNIT_EXPECT_EQ(test, tracker_util(test, "util_est", 0),
			max_t(u64, tracker_util(test, "pelt", 0),
			      task_val(test, "util_est", s)));

	if (num_possible_cpus() < 2)
		return;
	ev_switch(0, t + MS, s, true, NULL);	/* preempted, queued */
	est = cpu_val(test, "util_est", 0, 1);
	KUNIT_EXPECT_GT(test, est, 0);
	ev_migrate(s, 1, t + MS);
	KUNIT_EXPECT_EQ(test, cpu_val(test, "util_est", 0, 1), 0);
	KUNIT_EXPECT_EQ(test, cpu_val(test, "util_est", 1, 1), est);
	ev_one(s, t + 2 * MS, ut_disp_task_exit);
	KUNIT_EXPECT_EQ(test, cpu_val(test, "util_est", 1, 1), 0);
}

static struct kunit_case tracker_cases[] = {
	KUNIT_CASE_PARAM(tracker_register_names, names_gen_params),
	KUNIT_CASE(tracker_register_limit),
	KUNIT_CASE(tracker_enable_publishes),
	KUNIT_CASE(tracker_external_pins_owner),
	KUNIT_CASE(tracker_enable_error_rolls_back),
	KUNIT_CASE(tracker_attach_error_rolls_back),
	KUNIT_CASE(tracker_gov_needs_beside),
	KUNIT_CASE(tracker_disable_cannot_fail),
	KUNIT_CASE(tracker_slots_exhaustion_counted),
	KUNIT_CASE(tracker_slots_find_and_release),
	KUNIT_CASE(tracker_task_data_follows_slot),
	KUNIT_CASE(tracker_events_dispatched),
	KUNIT_CASE(tracker_exit_only_for_seen_tasks),
	KUNIT_CASE(tracker_pelt_duty_cycle),
	KUNIT_CASE(tracker_pelt_clock_invariance),
	KUNIT_CASE(tracker_pelt_migrate_rebases),
	KUNIT_CASE(tracker_pelt_runnable_counts_queued),
	KUNIT_CASE(tracker_pelt_exit_leaves_cpu),
	KUNIT_CASE(tracker_rt_counts_rt_only),
	KUNIT_CASE(tracker_walt_window_signal),
	KUNIT_CASE(tracker_walt_signal_projected),
	KUNIT_CASE(tracker_walt_running_projected),
	KUNIT_CASE(tracker_walt_migration),
	KUNIT_CASE(tracker_util_est_periodic),
	KUNIT_CASE(tracker_signal_resolve),
	{}
};

static struct kunit_suite tracker_suite = {
	.name = "utiltrack_tracker",
	.init = tracker_test_init,
	.exit = tracker_test_exit,
	.test_cases = tracker_cases,
};

kunit_test_suites(&tracker_suite);
