/* SPDX-License-Identifier: GPL-2.0 */
/*
 * utiltrack.h - internals of utiltrack.ko shared between its files.
 *
 * Files and prefixes:
 *   utiltrack_main.c  ut_      load/unload, parameters
 *   slots.c           ut_slot_ per-task slots (no task_struct changes)
 *   registry.c        ut_reg_  trackers, enable/disable, the active set
 *   signal.c          ut_signal_ a CPU's signal by name (the governor's input)
 *   probes.c          ut_probe_ tracepoint probes: the hot path
 *   ctx.c             ut_probe_ an event's or a read's clocks (ut_ctx)
 *   dispatch.c        ut_disp_  one event to every enabled tracker
 *   freqinv.c         ut_inv_  frequency and capacity invariance
 *   cost.c            ut_cost_ self-measurement, behind a read-mostly flag
 *   debugfs.c         ut_dbg_  /sys/kernel/debug/utiltrack/
 *   governor.c        ut_gov_  the "utiltrack" cpufreq governor: decisions
 *   gov_tunables.c    ut_gov_  its sysfs tunables
 *   gov_stats.c       ut_gov_  its statistics, debugfs "governor"
 *   shadow.c          ut_shadow_ each signal's request at any governor's changes
 *   trackers/        the built-in trackers (pelt.c, rt.c, walt.c,
 *                    util_est.c on pelt.h)
 */
#ifndef _UTILTRACK_INTERNAL_H
#define _UTILTRACK_INTERNAL_H

#include <linux/hrtimer.h>
#include <linux/list.h>
#include <linux/llist.h>
#include <linux/percpu.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/sched/clock.h>
#include <linux/spinlock.h>
#include <utiltrack/pelt.h>
#include <utiltrack/tracker.h>

struct dentry;
struct seq_file;

#define UT_MAX_TRACKERS		8

/*
 * utiltrack_kunit.ko compiles some of these files too (kunit/src/); two
 * modules must not export one symbol, so only utiltrack.ko does.
 */
#ifdef UT_KUNIT
#include <linux/export.h>
#undef EXPORT_SYMBOL_GPL
#define EXPORT_SYMBOL_GPL(sym)
#endif

/*
 * A statistic written under one lock and read by debugfs without it:
 * marked on both sides, so a KCSAN kernel sees no data race.
 */
static inline void ut_stat_add(u64 *var, u64 n)
{
	WRITE_ONCE(*var, *var + n);
}

static inline void ut_stat_inc(u64 *var)
{
	ut_stat_add(var, 1);
}

/* ------------------------------------------------------------------ */
/* parameters (utiltrack_main.c) */

extern unsigned int ut_max_tasks;
extern bool ut_invariance;

/* ------------------------------------------------------------------ */
/* per-task slots (slots.c) */

struct ut_slot {
	struct task_struct *p;	/* NULL when free */
	u32 next;		/* hash chain */
	u32 gen;		/* bumped at each allocation */
	struct ut_task t;	/* what trackers see */
	char comm[TASK_COMM_LEN];
	union {
		struct llist_node free_node;	/* in the global free list */
		struct rcu_head rcu;		/* released, waiting for reuse */
	};
};

#define UT_SLOT_NONE	U32_MAX

extern struct ut_slot *ut_slots;

int ut_slot_init(unsigned int nr);
void ut_slot_exit(void);
struct ut_slot *ut_slot_find(struct task_struct *p);
struct ut_slot *ut_slot_alloc(struct task_struct *p, bool is_new);
void ut_slot_release(struct task_struct *p);
void ut_slot_fill_existing(void);
void ut_slot_reset(void);
void ut_slot_set_comm(struct ut_slot *s, struct task_struct *p);

static inline u32 ut_slot_idx(const struct ut_slot *s)
{
	return s - ut_slots;
}

struct ut_slot_stats {
	unsigned int total, used;
	unsigned int pending;	/* released, not yet past a grace period */
	u64 allocs;		/* slots handed to a task, ever */
	u64 exhausted;		/* allocations that found no free slot */
	u64 untracked;		/* events about tasks without a slot */
};

void ut_slot_stats(struct ut_slot_stats *st);
void ut_slot_count_untracked(void);

/* ------------------------------------------------------------------ */
/* per-CPU state (probes.c) */

enum ut_tp {
	UT_TP_SWITCH,
	UT_TP_WAKEUP,
	UT_TP_WAKEUP_NEW,
	UT_TP_MIGRATE,
	UT_TP_FORK,
	UT_TP_EXEC,
	UT_TP_FREE,
	UT_TP_FREQ,
	UT_TP_WAKING,
	UT_TP_PELT_SE,
	UT_TP_TICK,		/* not a tracepoint: utiltrack's own timer */
	UT_TP_NR,
};

extern const char * const ut_tp_names[UT_TP_NR];

/*
 * utiltrack's per-CPU tracking state (not the scheduler's runqueue). Its
 * track_lock serializes every tracker's data of this CPU and of the
 * tasks accounted on it; probes take it inside the scheduler's rq lock.
 */
struct ut_cpu {
	raw_spinlock_t track_lock;
	struct hrtimer tick;	/* for trackers with UT_NEED_TICK */
	int cpu;
	/* the tick may run here: online, and not nohz_full or isolated */
	bool tick_allowed;
	/* sched_clock_cpu() - task clock, learnt at each switch */
	s64 clock_offset;
	u64 last_now;
	/* invariance inputs (freqinv.c) */
	u32 cur_khz;
	u32 max_khz;
	u32 capacity;		/* as last read, for debugfs; see ut_inv_scale() */
	/* the kernel's clock_pelt, as far as the switches show it */
	struct ut_pelt_clock pelt;
	/* an RT task runs here (rt_policy=max; DL counts by bandwidth) */
	bool rt_running;
	/* switches to the idle task (for the governor's busy hold) */
	unsigned long idle_entries;
	/* statistics: events seen (what they cost: cost.c) */
	u64 events[UT_TP_NR];
	/*
	 * The kernel's last two PELT updates of the running task that
	 * refreshed its util_avg (pelt_se_tp), newest first, for
	 * ut_probe_kernel_pelt_at(). Written under the scheduler's rq lock.
	 */
	struct ut_kpelt_mark {
		const struct task_struct *p;	/* compared, never read */
		u64 pelt_time;			/* its last_update_time */
	} kpelt[2];
};

DECLARE_PER_CPU(struct ut_cpu, ut_cpus);

/*
 * An RT task is being woken to this CPU and has not run yet: the jiffy
 * of its sched_waking (0: none, 1 for jiffy 0), cleared at the CPU's
 * next switch (ut_probe_rt_waking()). Written by the waker's CPU, so
 * padded to a line of its own: the CPU's own per-CPU data beside it is
 * written at every switch and decision.
 */
struct ut_rt_mark {
	unsigned long jiffy;
} ____cacheline_aligned_in_smp;

DECLARE_PER_CPU(struct ut_rt_mark, ut_rt_waking);
bool ut_probe_rt_waking(int cpu);
bool ut_probe_rt_current(int cpu);

int ut_probe_cpu_init(void);
void ut_probe_cpu_exit(void);
u64 ut_probe_cpu_now(int cpu);
u64 ut_probe_cpu_at(int cpu, u64 clk);
u64 ut_probe_kernel_pelt_at(struct task_struct *p, u64 now);
/* ctx.c, also linked into the KUnit suites */
void ut_probe_fill_ctx(struct ut_ctx *c, int cpu, u64 now);
void ut_probe_read_ctx(struct ut_ctx *c, int cpu, u64 now);
enum ut_class ut_probe_class_of(struct task_struct *p);
void ut_probe_set_gov_worker(const struct task_struct *p,
			     const struct cpumask *cpus);
/*
 * Not a tracker's need: set whenever any tracker is enabled, for the task
 * lifetime probes (fork, exec, free) and cpu_frequency. With no tracker
 * enabled nothing at all is attached and the slots are emptied.
 */
#define UT_NEED_TASKS		BIT(31)
/*
 * Not a tracker's need either: the governor's, while a policy it runs
 * has rt_policy=max (ut_reg_set_gov_needs()). sched_waking is attached
 * for it only with the switch probe, which clears what it marks.
 */
#define UT_NEED_RT_WAKING	BIT(30)

int ut_probe_attach(unsigned int needs);
void ut_probe_detach_all(void);

/* ------------------------------------------------------------------ */
/* self-measurement (cost.c), off by default */

/* irq-off sections besides the probes, by where they are */
enum ut_site {
	UT_SITE_PROBE,		/* a probe called with interrupts off */
	UT_SITE_DEBUGFS,	/* a debugfs read holding a tracking lock */
	UT_SITE_REGISTRY,	/* enable/disable setting up a CPU's data */
	UT_SITE_WALT_CHECK,	/* the walt self-check of one CPU */
	UT_SITE_GOVERNOR,	/* a governor decision (scheduler context) */
	UT_SITE_NR,
};

/* what is measured: debugfs "cost" takes the number */
enum {
	UT_COST_OFF,
	UT_COST_EVENTS,		/* each probe, and the irq-off sections */
	UT_COST_TRACKERS,	/* the same, and each tracker's share */
};

/*
 * Measuring on, and trackers timed too. Plain flags, not static keys: a
 * flag costs one read-mostly load and a predicted branch per probe, while
 * flipping a key rewrites the probes' own text under running CPUs, which
 * QEMU's multi-threaded TCG (the project's lab) can leave half-patched.
 */
extern bool ut_cost_on;
extern bool ut_cost_trk_on;

void ut_cost_record(enum ut_tp tp, u64 t0);
void ut_cost_irqoff(enum ut_site site, u64 t0);
unsigned int ut_cost_enabled(void);
int ut_cost_set(unsigned int level);
int ut_cost_show(struct seq_file *m);
int ut_cost_irqoff_show(struct seq_file *m);
void ut_cost_exit(void);

struct ut_cost_summary {
	u64 count, mean_ns, p50_ns, p99_ns, max_ns;
};

int ut_cost_summary(enum ut_tp tp, struct ut_cost_summary *sum);

struct ut_tracker;
struct ut_cost_trk;
void ut_cost_tracker_record(struct ut_tracker *tr, u64 t0);
int ut_cost_tracker_alloc(struct ut_tracker *tr);
void ut_cost_tracker_free(struct ut_tracker *tr);
int ut_cost_tracker_summary(struct ut_tracker *tr, struct ut_cost_summary *sum);
void ut_cost_tracker_show(struct seq_file *m, struct ut_tracker *tr);

/* Where a measured section starts: a clock read only while measuring. */
static __always_inline u64 ut_cost_begin(void)
{
	/* acquire: the data cleared before the flag went on is seen cleared */
	return unlikely(smp_load_acquire(&ut_cost_on)) ? local_clock() : 0;
}

/* A probe's end: its event counted, its duration recorded if measuring. */
static __always_inline void ut_cost_end(enum ut_tp tp, u64 t0)
{
	this_cpu_inc(ut_cpus.events[tp]);
	/* the switch and the tick read their clock anyway: test the flag */
	if (unlikely(smp_load_acquire(&ut_cost_on)) && t0)
		ut_cost_record(tp, t0);
}

/*
 * The end of an interrupts-off section of @site begun at @t0. The ends
 * test the flag too: a section that ends after measuring went off, or at
 * a lower level, records nothing.
 */
static __always_inline void ut_cost_irqoff_end(enum ut_site site, u64 t0)
{
	if (unlikely(t0) && READ_ONCE(ut_cost_on))
		ut_cost_irqoff(site, t0);
}

/* Where a tracker's share of an event starts, when trackers are timed. */
static __always_inline u64 ut_cost_tracker_begin(void)
{
	/* acquire: pairs with ut_cost_set() publishing the epoch first */
	return unlikely(smp_load_acquire(&ut_cost_trk_on)) ? local_clock() : 0;
}

/* The end of tracker @tr's share of an event, begun at @t0. */
static __always_inline void ut_cost_tracker_end(struct ut_tracker *tr, u64 t0)
{
	if (unlikely(t0) && READ_ONCE(ut_cost_trk_on))
		ut_cost_tracker_record(tr, t0);
}

/* ------------------------------------------------------------------ */
/* trackers (registry.c) */

struct ut_tracker {
	const struct ut_tracker_ops *ops;
	struct list_head node;
	bool enabled;
	bool builtin;
	void __percpu *cpu_data;
	/*
	 * Per slot, a record of task_stride bytes: the slot generation the
	 * data was set up for (u32), then the tracker's data at UT_TASK_HDR.
	 */
	void *task_data;
	size_t task_stride;
	/* its share of each event, while measuring (cost.c) */
	struct ut_cost_trk __percpu *cost;
};

#define UT_TASK_HDR	sizeof(u64)	/* keeps the data 8-byte aligned */

/* The enabled trackers, as the probes iterate them (RCU-sched). */
struct ut_active {
	u64 gen;		/* unique per publish, never 0 */
	unsigned int nr;
	unsigned int needs;
	struct ut_tracker *tr[UT_MAX_TRACKERS];
};

extern struct ut_active __rcu *ut_active;

int ut_reg_init(const char *enable_list);
void ut_reg_exit(void);
int ut_reg_enable(const char *name);
int ut_reg_disable(const char *name);
int ut_reg_set_gov_needs(unsigned int needs);
int ut_reg_register_builtin(const struct ut_tracker_ops *ops);
int ut_reg_lookup(const char *name, unsigned int *needs);
void ut_reg_for_each(void (*fn)(struct ut_tracker *tr, void *arg), void *arg);
/* held while walking the trackers; keeps their data alive */
struct mutex *ut_reg_lock(void);

/* signal.c: a CPU's signal by name, resolved once per active set */
#define UT_SIGNAL_PARTS		2

struct ut_signal {
	u64 gen;		/* the ut_active it was resolved against */
	unsigned int nr;	/* 0: not available in that set */
	struct ut_tracker *tr[UT_SIGNAL_PARTS];
};

int ut_signal_lookup(const char *name, unsigned int *needs);
void ut_signal_resolve(struct ut_signal *sig, const struct ut_active *act,
		       const char *name);
bool ut_signal_read(const struct ut_signal *sig, int cpu, bool boost,
		    u64 clk, u32 *util);

/* Was @sig resolved against @act, the set now published? */
static inline bool ut_signal_current(const struct ut_signal *sig,
				     const struct ut_active *act)
{
	return sig->gen == act->gen;
}

static inline void *ut_tr_cpu(struct ut_tracker *tr, int cpu)
{
	return per_cpu_ptr(tr->cpu_data, cpu);
}

/*
 * The tracker's data for slot @s, set up on first use: slots are reused
 * and trackers enabled at any time, so data whose generation does not
 * match the slot's is stale.
 */
static inline u32 *ut_tr_task_gen(struct ut_tracker *tr, u32 idx)
{
	return tr->task_data + (size_t)idx * tr->task_stride;
}

/* Slot @idx's data as it is, whatever its generation */
static inline void *ut_tr_task_raw(struct ut_tracker *tr, u32 idx)
{
	return (void *)ut_tr_task_gen(tr, idx) + UT_TASK_HDR;
}

/* Has @tr set up data for slot @s's current task? */
static inline bool ut_tr_task_live(struct ut_tracker *tr,
				   const struct ut_slot *s)
{
	return READ_ONCE(*ut_tr_task_gen(tr, ut_slot_idx(s))) == s->gen;
}

static inline void *ut_tr_task(struct ut_tracker *tr, struct ut_slot *s,
			       const struct ut_ctx *c)
{
	u32 idx = ut_slot_idx(s);
	u32 *gen = ut_tr_task_gen(tr, idx);
	void *td = ut_tr_task_raw(tr, idx);

	if (*gen != s->gen) {
		memset(td, 0, tr->ops->task_size);
		if (tr->ops->task_init)
			tr->ops->task_init(tr, td, &s->t, c);
		WRITE_ONCE(*gen, s->gen);
	}
	return td;
}

/* ------------------------------------------------------------------ */
/* event fan-out to the enabled trackers (dispatch.c), locks held */

void ut_disp_switch_out(struct ut_active *act, const struct ut_ctx *c,
			enum ut_class pc, enum ut_class nc,
			struct ut_slot *ps, bool prev_runnable);
void ut_disp_switch_in(struct ut_active *act, const struct ut_ctx *c,
		       bool from_gap, enum ut_class nc, struct ut_slot *ns);
void ut_disp_migrate(struct ut_active *act, struct ut_slot *s,
		     const struct ut_ctx *cs, const struct ut_ctx *cd);
void ut_disp_wakeup(struct ut_active *act, struct ut_slot *s,
		    const struct ut_ctx *c);
void ut_disp_tick(struct ut_active *act, struct ut_slot *s,
		  const struct ut_ctx *c);
void ut_disp_task_exit(struct ut_active *act, struct ut_slot *s,
		       const struct ut_ctx *c);

/* ------------------------------------------------------------------ */
/* invariance (freqinv.c) */

int ut_inv_init(void);
void ut_inv_refresh(void);
void ut_inv_exit(void);
u32 ut_inv_capacity(int cpu);
u32 ut_inv_scale(struct ut_cpu *uc);
void ut_inv_probe_freq(void *data, unsigned int khz, unsigned int cpu);
bool ut_inv_as_kernel(void);
const char *ut_inv_validation_state(void);

/* ------------------------------------------------------------------ */
/* debugfs.c */

void ut_dbg_init(void);
void ut_dbg_exit(void);

/* ------------------------------------------------------------------ */
/* governor.c */

enum ut_gov_kick {
	UT_GOV_KICK_RT,		/* an RT task started or stopped running */
	UT_GOV_KICK_TICK,	/* utiltrack's tick advanced the trackers */
};

int ut_gov_init(void);
void ut_gov_exit(void);
void ut_gov_needs_flush(void);
struct cpufreq_policy;
bool ut_gov_drives(struct cpufreq_policy *policy);
void ut_gov_kick(int cpu, u64 time, enum ut_gov_kick why);
void ut_gov_debugfs(struct dentry *dir);

/* shadow.c: every signal's request at each frequency change */
int ut_shadow_init(void);
void ut_shadow_exit(void);
void ut_shadow_probe(unsigned int khz, unsigned int cpu);
void ut_shadow_waking(struct task_struct *p);
void ut_shadow_wakeup(struct task_struct *p);
bool ut_shadow_on(void);
void ut_shadow_debugfs(struct dentry *dir);

/* ------------------------------------------------------------------ */
/* built-in trackers */

extern const struct ut_tracker_ops ut_pelt_tracker;
extern const struct ut_tracker_ops ut_rt_tracker;
extern const struct ut_tracker_ops ut_walt_tracker;
extern const struct ut_tracker_ops ut_util_est_tracker;

int ut_walt_param_check(void);

#endif /* _UTILTRACK_INTERNAL_H */
