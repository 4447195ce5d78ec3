// SPDX-License-Identifier: GPL-2.0
/*
 * probes.c - the hot path: scheduler tracepoint probes.
 *
 * Probes run in scheduler context (runqueue lock held, interrupts off).
 * Everything here is O(1) in the number of tasks: a slot lookup per task
 * involved, then one call per enabled tracker, under the per-CPU
 * tracking lock of the CPU the data belongs to. No allocation, no
 * sleeping, no global lock.
 *
 * Time: trackers run on the scheduler's task clock (rq_clock_task). At a
 * switch it is read exactly from se.exec_start, which put_prev/set_next
 * just set. Other events estimate it as sched_clock_cpu() minus the
 * offset learnt at the CPU's last switch (non-zero with IRQ time
 * accounting). PELT signals count on each CPU's PELT clock derived from
 * it (struct ut_pelt_clock, ut_ctx.pelt_now), as the kernel's do.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpuhotplug.h>
#include <linux/sched/clock.h>
#include <linux/sched/rt.h>
#include <linux/sched/deadline.h>
#include <linux/sched/task.h>

#include "utiltrack.h"
#include "compat/sched.h"
#include "compat/tracepoint.h"
#define CREATE_TRACE_POINTS
#include "trace/utiltrack_trace.h"

DEFINE_PER_CPU(struct ut_cpu, ut_cpus);
DEFINE_PER_CPU(struct ut_rt_mark, ut_rt_waking);

/* ------------------------------------------------------------------ */
/* helpers */

/*
 * The stop class, learnt at load from a stopper thread: it is not
 * exported, and its tasks have an RT priority (sched_set_stop_task())
 * although neither the kernel's avg_rt nor schedutil's RT test counts
 * them. NULL if none was found (then a stopper reads as RT).
 */
static const void *ut_stop_class;

static bool ut_probe_is_stopper(struct task_struct *p)
{
	return (p->flags & PF_KTHREAD) && (p->flags & PF_NO_SETAFFINITY) &&
	       p->policy == SCHED_FIFO &&
	       p->rt_priority == MAX_RT_PRIO - 1 &&
	       !strncmp(p->comm, "migration/", 10);
}

static void ut_probe_learn_stop_class(void)
{
	struct task_struct *g, *p;

	rcu_read_lock();
	for_each_process_thread(g, p) {
		if (ut_probe_is_stopper(p)) {
			ut_stop_class = READ_ONCE(p->sched_class);
			break;
		}
	}
	rcu_read_unlock();
	if (!ut_stop_class)
		pr_warn("no stopper thread found: migration/N counts as RT\n");
}

/*
 * Per CPU, the governor's worker that serves it (NULL if none). It is in
 * no class's signal, as the kernel counts schedutil's worker (a special
 * SCHED_DEADLINE entity) in none. Where that class cannot be given
 * (before 5.14) our worker runs SCHED_NORMAL, and the CFS signal of the
 * CPUs it serves would count the governor's own work, each decision
 * raising the next. Looked up at task_cpu(p): the worker is bound to
 * its policy's CPUs. Only compared, never dereferenced.
 */
static DEFINE_PER_CPU(const struct task_struct *, ut_gov_worker);

/* @p (NULL: none) is the governor's worker for the CPUs of @cpus */
void ut_probe_set_gov_worker(const struct task_struct *p,
			     const struct cpumask *cpus)
{
	int cpu;

	for_each_cpu(cpu, cpus)
		WRITE_ONCE(per_cpu(ut_gov_worker, cpu), p);
}

static bool ut_probe_is_gov_worker(struct task_struct *p)
{
	return unlikely(p->flags & PF_KTHREAD) &&
	       READ_ONCE(per_cpu(ut_gov_worker, task_cpu(p))) == p;
}

enum ut_class ut_probe_class_of(struct task_struct *p)
{
	if (is_idle_task(p))
		return UT_CLASS_IDLE;
	if (ut_probe_is_gov_worker(p))
		return UT_CLASS_GOV;
	if (unlikely(ut_stop_class && p->sched_class == ut_stop_class))
		return UT_CLASS_STOP;
	if (dl_prio(p->prio))
		return UT_CLASS_DL;
	if (rt_prio(p->prio))
		return UT_CLASS_RT;
	if (p->policy == SCHED_NORMAL || p->policy == SCHED_BATCH ||
	    p->policy == SCHED_IDLE)
		return UT_CLASS_FAIR;
	return UT_CLASS_OTHER;
}

/* @uc's task clock from its sched_clock_cpu() reading @clk */
static u64 ut_probe_task_clock(struct ut_cpu *uc, u64 clk)
{
	u64 now = clk - READ_ONCE(uc->clock_offset);

	/* trackers never see a CPU's time go backwards */
	return max(now, READ_ONCE(uc->last_now));
}

u64 ut_probe_cpu_now(int cpu)
{
	return ut_probe_task_clock(per_cpu_ptr(&ut_cpus, cpu),
				   ut_sched_clock_cpu(cpu));
}

/*
 * @cpu's task clock at the instant this CPU's sched_clock read @clk
 * (0: now). Per-CPU sched_clocks need not agree when the clock is
 * unstable, so a remote CPU is read now and moved back by the time this
 * CPU has run since @clk. Callers run with preemption off.
 */
u64 ut_probe_cpu_at(int cpu, u64 clk)
{
	struct ut_cpu *uc = per_cpu_ptr(&ut_cpus, cpu);
	u64 age, now;

	if (!clk)
		return ut_probe_cpu_now(cpu);
	if (cpu == raw_smp_processor_id())
		return ut_probe_task_clock(uc, clk);
	now = local_clock();
	age = now > clk ? now - clk : 0;
	now = ut_sched_clock_cpu(cpu);
	return ut_probe_task_clock(uc, now > age ? now - age : 0);
}

/* With no switch probe, whether a CPU is busy is unknown: start over. */
static void ut_probe_pelt_forget(void)
{
	unsigned long flags;
	int cpu;

	for_each_possible_cpu(cpu) {
		struct ut_cpu *uc = per_cpu_ptr(&ut_cpus, cpu);

		raw_spin_lock_irqsave(&uc->track_lock, flags);
		uc->pelt = (struct ut_pelt_clock){};
		raw_spin_unlock_irqrestore(&uc->track_lock, flags);
	}
}

static struct ut_active *ut_probe_active(void)
{
	struct ut_active *act = rcu_dereference_sched(ut_active);

	return act && act->nr ? act : NULL;
}

/* A slot for @p, or NULL (counted) when it has none. */
static struct ut_slot *ut_probe_slot(struct task_struct *p)
{
	struct ut_slot *s = ut_slot_find(p);

	if (!s)
		ut_slot_count_untracked();
	return s;
}

static void ut_probe_trace_cpu(struct ut_active *act, const struct ut_ctx *c)
{
	unsigned int i;

	for (i = 0; i < act->nr; i++) {
		struct ut_tracker *tr = act->tr[i];
		u64 vals[UT_MAX_COLS] = {};

		if (!tr->ops->cpu_show || !tr->ops->cpu_cols[0])
			continue;
		tr->ops->cpu_show(tr, ut_tr_cpu(tr, c->cpu), c, vals);
		trace_utiltrack_cpu_util(c->cpu, tr->ops->name, vals[0], vals[1]);
	}
}

static void ut_probe_trace_task(struct ut_active *act, struct ut_slot *s,
				const struct ut_ctx *c)
{
	unsigned int i;

	for (i = 0; i < act->nr; i++) {
		struct ut_tracker *tr = act->tr[i];
		u64 vals[UT_MAX_COLS] = {};

		if (!tr->ops->task_show || !tr->ops->task_cols[0])
			continue;
		tr->ops->task_show(tr, ut_tr_task(tr, s, c), &s->t, vals);
		trace_utiltrack_task_util(s->t.pid, s->comm, c->cpu,
					  tr->ops->name, vals[0], vals[1]);
	}
}

/* ------------------------------------------------------------------ */
/* migration */

/* Lock two different CPUs' state, lower address first. */
static void ut_probe_lock_two(struct ut_cpu *a, struct ut_cpu *b)
	__acquires(&a->track_lock) __acquires(&b->track_lock)
{
	if (a > b)
		swap(a, b);
	raw_spin_lock(&a->track_lock);
	raw_spin_lock_nested(&b->track_lock, SINGLE_DEPTH_NESTING);
}

static void ut_probe_unlock_two(struct ut_cpu *a, struct ut_cpu *b)
	__releases(&a->track_lock) __releases(&b->track_lock)
{
	raw_spin_unlock(&a->track_lock);
	raw_spin_unlock(&b->track_lock);
}

/*
 * Move @s's accounting from its CPU to @dst; the caller holds no lock.
 * Interrupts may be on (see ut_probe_wake()).
 */
static void ut_probe_move(struct ut_active *act, struct ut_slot *s, int dst)
{
	int src = s->t.cpu;
	struct ut_cpu *us = per_cpu_ptr(&ut_cpus, src);
	struct ut_cpu *ud = per_cpu_ptr(&ut_cpus, dst);
	struct ut_ctx cs, cd;
	unsigned long flags;

	if (src == dst)
		return;
	local_irq_save(flags);
	ut_probe_lock_two(us, ud);
	ut_probe_fill_ctx(&cs, src, ut_probe_cpu_now(src));
	ut_probe_fill_ctx(&cd, dst, ut_probe_cpu_now(dst));
	ut_disp_migrate(act, s, &cs, &cd);
	s->t.cpu = dst;
	/*
	 * Both CPUs' signals step here, not at their next switch: emit them
	 * now, under both locks, so a trace orders the step against either
	 * CPU's own events (they are emitted under the same lock).
	 */
	if (trace_utiltrack_cpu_util_enabled()) {
		ut_probe_trace_cpu(act, &cs);
		ut_probe_trace_cpu(act, &cd);
	}
	ut_probe_unlock_two(us, ud);
	local_irq_restore(flags);
}

/* ------------------------------------------------------------------ */
/* tick: a per-CPU timer for trackers that advance running tasks */

/*
 * Run the tick while the CPU is busy; an idle CPU gets no interrupts,
 * and neither does one going offline, nohz_full or isolated.
 */
static void ut_probe_tick_gate(struct ut_cpu *uc, bool busy)
{
	busy = busy && READ_ONCE(uc->tick_allowed);
	if (busy && !hrtimer_active(&uc->tick))
		hrtimer_start(&uc->tick, ns_to_ktime(UT_TICK_NS),
			      HRTIMER_MODE_REL_PINNED_HARD);
	else if (!busy)
		hrtimer_try_to_cancel(&uc->tick);
}

/* Hard irq on this CPU, interrupting current: the task to advance. */
static enum hrtimer_restart ut_probe_tick_fn(struct hrtimer *timer)
{
	struct ut_cpu *uc = container_of(timer, struct ut_cpu, tick);
	struct ut_active *act = ut_probe_active();
	struct task_struct *p = current;
	u64 t0 = local_clock();
	struct ut_slot *s;
	struct ut_ctx c;
	int cpu = smp_processor_id();

	/*
	 * A timer left on a CPU that went offline is moved to another one:
	 * there it would advance the wrong CPU's task. It stops instead.
	 */
	if (unlikely(cpu != uc->cpu || !READ_ONCE(uc->tick_allowed)))
		return HRTIMER_NORESTART;
	if (!act || !(act->needs & UT_NEED_TICK) || is_idle_task(p))
		return HRTIMER_NORESTART;
	s = ut_slot_find(p);
	if (s && s->t.cpu == cpu) {
		raw_spin_lock(&uc->track_lock);
		/* the clock read of this event, shared by every tracker */
		ut_probe_fill_ctx(&c, cpu, ut_probe_task_clock(uc, t0));
		ut_disp_tick(act, s, &c);
		if (trace_utiltrack_task_util_enabled())
			ut_probe_trace_task(act, s, &c);
		raw_spin_unlock(&uc->track_lock);
		ut_gov_kick(cpu, t0, UT_GOV_KICK_TICK);
	}
	ut_cost_end(UT_TP_TICK, t0);
	hrtimer_forward_now(timer, ns_to_ktime(UT_TICK_NS));
	return HRTIMER_RESTART;
}

/* ------------------------------------------------------------------ */
/* sched_switch */

/*
 * The exact times of a switch, on the task clock: when prev stopped
 * (its exec_start, which dequeue or put_prev just set) and when next
 * started (its exec_start, set by set_next_task). They differ when the
 * pick dropped the runqueue lock (newidle balance) and the clock moved
 * on meanwhile; the CPU then ran neither task.
 */
static void ut_probe_switch_times(struct task_struct *prev,
				  struct task_struct *next, enum ut_class pc,
				  enum ut_class nc, u64 *out, u64 *in)
{
	*out = pc != UT_CLASS_IDLE ? prev->se.exec_start : next->se.exec_start;
	*in = nc != UT_CLASS_IDLE ? next->se.exec_start : *out;
	/* a class that does not keep exec_start: no gap */
	if (*in < *out)
		*in = *out;
}

/*
 * A switch ends any wait of a woken RT task here. Written only when set,
 * so the CPUs that mark it find the line shared, not modified.
 */
static void ut_probe_rt_waking_clear(void)
{
	unsigned long *mark = this_cpu_ptr(&ut_rt_waking.jiffy);

	if (READ_ONCE(*mark))
		WRITE_ONCE(*mark, 0);
}

static void ut_probe_switch(UT_SCHED_SWITCH_ARGS)
{
	struct ut_cpu *uc = this_cpu_ptr(&ut_cpus);
	enum ut_class pc, nc;
	struct ut_slot *ps = NULL, *ns = NULL;
	struct ut_active *act;
	bool prev_runnable;
	struct ut_ctx c;
	u64 t0 = local_clock(), t_out, t_in;
	int cpu = smp_processor_id();
	bool rt_running, rt_change;

	act = ut_probe_active();
	if (!act)
		return;

	pc = ut_probe_class_of(prev);
	nc = ut_probe_class_of(next);
	/* not prev_state: a preempted or signalled task stays queued */
	prev_runnable = ut_task_queued(prev);
	if (pc != UT_CLASS_IDLE)
		ps = ut_probe_slot(prev);
	if (nc != UT_CLASS_IDLE)
		ns = ut_probe_slot(next);
	/* runs here, but we saw no migration event: move its accounting */
	if (ns && ns->t.cpu != cpu)
		ut_probe_move(act, ns, cpu);

	raw_spin_lock(&uc->track_lock);
	ut_probe_switch_times(prev, next, pc, nc, &t_out, &t_in);
	/*
	 * Exact, so never raised to an estimate a wakeup left in last_now:
	 * trackers ignore an update that goes back in time, which costs
	 * less than crediting a run to a later start.
	 */
	uc->clock_offset = (s64)(t0 - t_in);
	ut_probe_fill_ctx(&c, cpu, t_out);
	if (ps)
		ps->t.class = pc;
	if (ns)
		ns->t.class = nc;

	if (t_in == t_out) {
		ut_disp_switch_out(act, &c, pc, nc, ps, prev_runnable);
		ut_disp_switch_in(act, &c, false, nc, ns);
	} else {
		/* the gap between the two tasks counts as idle */
		ut_disp_switch_out(act, &c, pc, UT_CLASS_IDLE, ps,
				   prev_runnable);
		/*
		 * The kernel's rq->curr is still prev in the gap (a newidle
		 * balance), so its PELT clock goes on lagging: not idle.
		 */
		ut_probe_fill_ctx(&c, cpu, t_in);
		ut_disp_switch_in(act, &c, true, nc, ns);
	}
	/* clock_pelt: scaled while a task runs, the task clock when idle */
	ut_pelt_clock_set_busy(&uc->pelt, nc != UT_CLASS_IDLE);
	if (act->needs & UT_NEED_TICK)
		ut_probe_tick_gate(uc, nc != UT_CLASS_IDLE);
	/* schedutil's fmax rule sees RT tasks; DL ones count by bandwidth */
	rt_running = nc == UT_CLASS_RT;
	rt_change = uc->rt_running != rt_running;
	WRITE_ONCE(uc->rt_running, rt_running);
	ut_probe_rt_waking_clear();
	if (nc == UT_CLASS_IDLE)
		WRITE_ONCE(uc->idle_entries, uc->idle_entries + 1);

	if (trace_utiltrack_cpu_util_enabled())
		ut_probe_trace_cpu(act, &c);
	if (trace_utiltrack_task_util_enabled()) {
		if (ps)
			ut_probe_trace_task(act, ps, &c);
		if (ns)
			ut_probe_trace_task(act, ns, &c);
	}
	raw_spin_unlock(&uc->track_lock);

	if (rt_change)
		ut_gov_kick(cpu, t0, UT_GOV_KICK_RT);
	ut_cost_end(UT_TP_SWITCH, t0);
}

static void ut_probe_migrate(void *data, struct task_struct *p, int dest_cpu)
{
	struct ut_active *act = ut_probe_active();
	struct ut_slot *s;
	u64 t0 = ut_cost_begin();

	if (!act)
		return;
	s = ut_probe_slot(p);
	if (s)
		ut_probe_move(act, s, dest_cpu);
	ut_cost_end(UT_TP_MIGRATE, t0);
}

/* ------------------------------------------------------------------ */
/* wakeups */

/*
 * Interrupts are usually off here (the waker holds the runqueue lock),
 * but not when a task wakes itself: try_to_wake_up() on current traces
 * sched_wakeup with no lock held, e.g. from a timer softirq. Our lock is
 * also taken by utiltrack's hard-irq tick, hence irqsave.
 */
static void ut_probe_wake(struct task_struct *p, enum ut_tp tp)
{
	struct ut_active *act = ut_probe_active();
	struct ut_slot *s;
	struct ut_cpu *uc;
	struct ut_ctx c;
	u64 t0 = ut_cost_begin();
	unsigned long flags;
	int cpu;

	if (!act)
		return;
	s = ut_probe_slot(p);
	if (!s)
		goto out;
	cpu = task_cpu(p);
	/* a placement we saw no migration event for (new tasks) */
	if (s->t.cpu != cpu)
		ut_probe_move(act, s, cpu);

	uc = per_cpu_ptr(&ut_cpus, cpu);
	raw_spin_lock_irqsave(&uc->track_lock, flags);
	ut_probe_fill_ctx(&c, cpu, ut_probe_cpu_now(cpu));
	s->t.class = ut_probe_class_of(p);
	ut_disp_wakeup(act, s, &c);
	raw_spin_unlock_irqrestore(&uc->track_lock, flags);
out:
	/* after the trackers: a deferred comparison counts @p */
	if (tp == UT_TP_WAKEUP)
		ut_shadow_wakeup(p);
	ut_cost_end(tp, t0);
}

/*
 * sched_waking fires before the woken task is enqueued, and so before
 * the scheduler's hook at its enqueue: an RT task marks the CPU it last
 * ran on, where it is enqueued unless that CPU runs a higher RT task
 * (already rt_running there). It also tells the shadow that a wakeup
 * began on this CPU (shadow.c). Attached only while the governor or the
 * shadow asks for it.
 */
static void ut_probe_waking(void *data, struct task_struct *p)
{
	u64 t0 = ut_cost_begin();
	int cpu;

	if (ut_probe_class_of(p) == UT_CLASS_RT) {
		cpu = task_cpu(p);
		WRITE_ONCE(per_cpu(ut_rt_waking, cpu).jiffy, jiffies ?: 1);
	}
	ut_shadow_waking(p);
	ut_cost_end(UT_TP_WAKING, t0);
}

/*
 * Is an RT task being woken to @cpu? A mark no switch cleared (RT
 * balancing pushed the task elsewhere and @cpu stayed idle) lapses after
 * two to three ticks, so it cannot hold a policy at fmax; the reader
 * that finds it lapsed clears it, or jiffies wrapping past it (2^31
 * ticks on 32-bit) would make it fresh again.
 */
bool ut_probe_rt_waking(int cpu)
{
	unsigned long *p = &per_cpu(ut_rt_waking, cpu).jiffy;
	unsigned long mark = READ_ONCE(*p);

	if (!mark)
		return false;
	if (time_before_eq(jiffies, mark + 2))
		return true;
	cmpxchg(p, mark, 0);
	return false;
}

/*
 * Is @cpu this CPU, running an RT task that is still queued? The switch
 * probe sets rt_running only at a switch, but a running task can make
 * itself SCHED_FIFO (rt-app does, at start): it is RT from the enqueue
 * that follows, whose scheduler hook runs the governor on this CPU with
 * the task as current. A task being dequeued to sleep is off the
 * runqueue already there (on_rq is cleared first), so it does not count.
 */
bool ut_probe_rt_current(int cpu)
{
	struct task_struct *p = current;

	return cpu == raw_smp_processor_id() &&
	       ut_probe_class_of(p) == UT_CLASS_RT && ut_task_queued(p);
}

static void ut_probe_wakeup(void *data, struct task_struct *p)
{
	ut_probe_wake(p, UT_TP_WAKEUP);
}

static void ut_probe_wakeup_new(void *data, struct task_struct *p)
{
	ut_probe_wake(p, UT_TP_WAKEUP_NEW);
}

/* ------------------------------------------------------------------ */
/* task lifetime: slots follow tasks whether or not trackers are enabled */

static void ut_probe_fork(void *data, struct task_struct *parent,
			  struct task_struct *child)
{
	u64 t0 = ut_cost_begin();

	ut_slot_alloc(child, true);
	ut_cost_end(UT_TP_FORK, t0);
}

static void ut_probe_exec(void *data, struct task_struct *p, pid_t old_pid,
			  struct linux_binprm *bprm)
{
	u64 t0 = ut_cost_begin();
	struct ut_slot *s = ut_slot_find(p);

	if (s) {
		ut_slot_set_comm(s, p);
		/* a thread that execs takes the thread group leader's pid */
		WRITE_ONCE(s->t.pid, p->pid);
		WRITE_ONCE(s->t.exec_at, ut_probe_cpu_now(task_cpu(p)));
	}
	ut_cost_end(UT_TP_EXEC, t0);
}

/* Let trackers drop what @s contributed; its data is discarded after. */
static void ut_probe_task_exit(struct ut_active *act, struct ut_slot *s)
{
	struct ut_cpu *uc = per_cpu_ptr(&ut_cpus, s->t.cpu);
	unsigned long flags;
	struct ut_ctx c;

	raw_spin_lock_irqsave(&uc->track_lock, flags);
	ut_probe_fill_ctx(&c, s->t.cpu, ut_probe_cpu_now(s->t.cpu));
	ut_disp_task_exit(act, s, &c);
	raw_spin_unlock_irqrestore(&uc->track_lock, flags);
}

static void ut_probe_free(void *data, struct task_struct *p)
{
	struct ut_active *act = ut_probe_active();
	struct ut_slot *s;
	u64 t0 = ut_cost_begin();

	s = act ? ut_slot_find(p) : NULL;
	if (s)
		ut_probe_task_exit(act, s);
	ut_slot_release(p);
	ut_cost_end(UT_TP_FREE, t0);
}

static void ut_probe_freq(void *data, unsigned int khz, unsigned int cpu)
{
	u64 t0 = ut_cost_begin();

	/* first: the shadow compares at the frequency being left */
	ut_shadow_probe(khz, cpu);
	ut_inv_probe_freq(data, khz, cpu);
	ut_cost_end(UT_TP_FREQ, t0);
}

/*
 * The kernel refreshed a task's util_avg (pelt_se_tp, under the rq lock).
 * Only the running task's updates are kept: the tick's (entity_tick())
 * and its dequeue's, the last two, for ut_probe_kernel_pelt_at().
 */
static void ut_probe_pelt_se(void *data, struct sched_entity *se)
{
	struct ut_kpelt_mark *mark;
	u64 t0;

	if (se != &current->se)
		return;
	t0 = ut_cost_begin();
	mark = this_cpu_ptr(ut_cpus.kpelt);
	mark[1] = mark[0];
	mark[0].p = current;
	mark[0].pelt_time = ut_compat_pelt_update_time(current);
	ut_cost_end(UT_TP_PELT_SE, t0);
}

/*
 * The time, in the clock of @now (@p's switch-out), of the kernel's last
 * update of @p's util_avg before the dequeue that ends its run: what 6.12
 * samples for util_est (util_est_update() runs before the dequeue's PELT
 * update). 0 when no update was seen since the probe came, or the marks
 * are another task's. The dequeue's own update, if it refreshed util_avg,
 * is the newest mark and carries @p's current update time; the distance
 * between two update times is running time on the kernel's PELT clock
 * (no idle between them), so @now must be a time on a clock that runs as
 * the kernel's does (see trk_est_kernel_cut()).
 */
u64 ut_probe_kernel_pelt_at(struct task_struct *p, u64 now)
{
	const struct ut_kpelt_mark *mark = this_cpu_ptr(ut_cpus.kpelt);
	u64 last = ut_compat_pelt_update_time(p);

	if (mark->p == p && mark->pelt_time == last)
		mark++;
	if (mark->p != p || mark->pelt_time > last ||
	    last - mark->pelt_time > now)
		return 0;
	return now - (last - mark->pelt_time);
}

/* ------------------------------------------------------------------ */
/* attach / detach */

struct ut_probe_desc {
	void *fn;
	unsigned int needs;	/* attached while a tracker needs one of these */
	struct tracepoint *tp;
	bool attached;
};

static struct ut_probe_desc ut_probe_descs[UT_TP_NR] = {
	[UT_TP_SWITCH]		= { ut_probe_switch, UT_NEED_SWITCH },
	[UT_TP_WAKEUP]		= { ut_probe_wakeup, UT_NEED_WAKEUP },
	[UT_TP_WAKEUP_NEW]	= { ut_probe_wakeup_new, UT_NEED_WAKEUP },
	[UT_TP_MIGRATE]		= { ut_probe_migrate, UT_NEED_MIGRATE },
	[UT_TP_FORK]		= { ut_probe_fork, UT_NEED_TASKS },
	[UT_TP_EXEC]		= { ut_probe_exec, UT_NEED_TASKS },
	[UT_TP_FREE]		= { ut_probe_free, UT_NEED_TASKS },
	[UT_TP_FREQ]		= { ut_probe_freq, UT_NEED_TASKS },
	/* for the governor's rt_policy=max, with the switch probe that clears it */
	[UT_TP_WAKING]		= { ut_probe_waking, UT_NEED_RT_WAKING },
	[UT_TP_PELT_SE]		= { ut_probe_pelt_se, UT_NEED_KERNEL_PELT },
	/* UT_TP_TICK: a timer, gated in ut_probe_switch() */
};

static int ut_probe_set(struct ut_probe_desc *d, const char *name, bool on)
{
	int ret;

	if (d->attached == on)
		return 0;
	if (!d->tp)
		d->tp = ut_tp_find(name);
	if (!d->tp) {
		pr_err("no tracepoint '%s' in this kernel\n", name);
		return -ENOENT;
	}
	ret = on ? tracepoint_probe_register(d->tp, d->fn, NULL) :
		   tracepoint_probe_unregister(d->tp, d->fn, NULL);
	if (ret) {
		pr_err("cannot %s '%s': %d\n", on ? "attach to" : "detach from",
		       name, ret);
		return ret;
	}
	d->attached = on;
	return 0;
}

/*
 * Once the switch probe is gone nothing re-arms the ticks, and a tick
 * may read the active set: they stop before it can change under them.
 */
static void ut_probe_stop_ticks(void)
{
	int cpu;

	for_each_possible_cpu(cpu)
		hrtimer_cancel(&per_cpu(ut_cpus, cpu).tick);
}

/*
 * Without the switch probe nothing updates rt_running or clears the
 * wakeup marks: a CPU last seen running an RT task would hold its policy
 * at fmax for good. Called after the probe is gone (and any call of it
 * done).
 */
static void ut_probe_clear_rt(void)
{
	int cpu;

	for_each_possible_cpu(cpu) {
		WRITE_ONCE(per_cpu(ut_cpus, cpu).rt_running, false);
		WRITE_ONCE(per_cpu(ut_rt_waking, cpu).jiffy, 0);
	}
}

/* Attach or detach every probe of @needs' kind; the first error. */
static int ut_probe_set_kind(unsigned int kind, unsigned int needs)
{
	int i, ret = 0;

	for (i = 0; i < UT_TP_NR; i++) {
		struct ut_probe_desc *d = &ut_probe_descs[i];

		if (d->fn && (d->needs & kind))
			ret = ut_probe_set(d, ut_tp_names[i],
					   d->needs & needs) ?: ret;
	}
	return ret;
}

/*
 * The first tracker comes: the task lifetime probes first, then a slot
 * for every task alive (a task forked or freed meanwhile is seen by the
 * probes), and the frequencies missed while nothing listened.
 */
static int ut_probe_tasks_start(void)
{
	int ret = ut_probe_set_kind(UT_NEED_TASKS, UT_NEED_TASKS);

	if (ret) {
		ut_probe_set_kind(UT_NEED_TASKS, 0);
		tracepoint_synchronize_unregister();
		return ret;
	}
	ut_inv_refresh();
	ut_slot_fill_existing();
	return 0;
}

/*
 * The last tracker went and every other probe is gone: once no probe
 * can run, forget every task, so that a stale slot cannot outlive its
 * task_struct while no free probe watches.
 */
static void ut_probe_tasks_stop(void)
{
	ut_probe_set_kind(UT_NEED_TASKS, 0);
	tracepoint_synchronize_unregister();
	ut_slot_reset();
}

/*
 * Attach the probes @needs calls for, detach the others: a disabled
 * tracker's events cost nothing, and with every tracker disabled
 * nothing at all is attached.
 */
int ut_probe_attach(unsigned int needs)
{
	struct ut_probe_desc *sw = &ut_probe_descs[UT_TP_SWITCH];
	bool had_switch = sw->attached;
	bool had_tasks = ut_probe_descs[UT_TP_FREE].attached;
	int ret;

	if (!(needs & UT_NEED_SWITCH))
		needs &= ~UT_NEED_RT_WAKING;
	if ((needs & UT_NEED_TASKS) && !had_tasks) {
		ret = ut_probe_tasks_start();
		if (ret)
			return ret;
	}
	ret = ut_probe_set_kind(~(unsigned int)UT_NEED_TASKS, needs);
	if (had_switch && !sw->attached) {
		tracepoint_synchronize_unregister();
		ut_probe_stop_ticks();
		ut_probe_clear_rt();
		ut_probe_pelt_forget();
	}
	if (!(needs & UT_NEED_TASKS) && had_tasks)
		ut_probe_tasks_stop();
	return ret;
}

/*
 * Detach every probe and wait until none runs. An unregister that fails
 * leaves our function on the tracepoint: the module must then stay
 * loaded, so that is a bug worth a warning, not a silent return.
 */
void ut_probe_detach_all(void)
{
	int i;

	for (i = 0; i < UT_TP_NR; i++)
		if (ut_probe_descs[i].fn)
			WARN_ON(ut_probe_set(&ut_probe_descs[i], ut_tp_names[i],
					     false));
	/* no probe may run once the module text is gone */
	tracepoint_synchronize_unregister();
	ut_probe_stop_ticks();
	ut_probe_clear_rt();
}

/* ------------------------------------------------------------------ */
/* CPU hotplug: the tick runs only on online, housekeeping CPUs */

static enum cpuhp_state ut_probe_hp_state;

static int ut_probe_cpu_online(unsigned int cpu)
{
	struct ut_cpu *uc = per_cpu_ptr(&ut_cpus, cpu);

	WRITE_ONCE(uc->tick_allowed, ut_cpu_housekeeping(cpu));
	return 0;
}

/*
 * On the outgoing CPU, tasks still running: the switch probe sees
 * tick_allowed clear and arms nothing from here on, and a tick that
 * would otherwise migrate with the CPU's timers is cancelled.
 */
static int ut_probe_cpu_offline(unsigned int cpu)
{
	struct ut_cpu *uc = per_cpu_ptr(&ut_cpus, cpu);

	WRITE_ONCE(uc->tick_allowed, false);
	hrtimer_cancel(&uc->tick);
	return 0;
}

void ut_probe_cpu_exit(void)
{
	cpuhp_remove_state(ut_probe_hp_state);
	ut_probe_stop_ticks();
}

int ut_probe_cpu_init(void)
{
	int cpu, ret;

	for_each_possible_cpu(cpu) {
		struct ut_cpu *uc = per_cpu_ptr(&ut_cpus, cpu);

		memset(uc, 0, sizeof(*uc));
		raw_spin_lock_init(&uc->track_lock);
		hrtimer_init(&uc->tick, CLOCK_MONOTONIC,
			     HRTIMER_MODE_REL_PINNED_HARD);
		uc->tick.function = ut_probe_tick_fn;
		uc->cpu = cpu;
		uc->capacity = SCHED_CAPACITY_SCALE;
	}
	ut_probe_learn_stop_class();
	/* runs the online callback on every CPU already online */
	ret = cpuhp_setup_state(CPUHP_AP_ONLINE_DYN, "utiltrack:online",
				ut_probe_cpu_online, ut_probe_cpu_offline);
	if (ret < 0)
		return ret;
	ut_probe_hp_state = ret;
	return 0;
}
