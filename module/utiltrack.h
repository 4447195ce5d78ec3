/* SPDX-License-Identifier: GPL-2.0 */
/*
 * utiltrack.h - internals of utiltrack.ko shared between its files.
 *
 * Files and prefixes:
 *   utiltrack_main.c  ut_      load/unload, parameters
 *   slots.c           ut_slot_ per-task slots (no task_struct changes)
 *   registry.c        ut_reg_  trackers, enable/disable, the active set
 *   probes.c          ut_probe_ tracepoint probes: the hot path
 *   dispatch.c        ut_disp_  one event to every enabled tracker
 *   freqinv.c         ut_inv_  frequency and capacity invariance
 *   debugfs.c         ut_dbg_  /sys/kernel/debug/utiltrack/
 *   governor.c        ut_gov_  the "utiltrack" cpufreq governor
 *   trackers/        the built-in trackers (pelt.c, rt.c, walt.c)
 */
#ifndef _UTILTRACK_INTERNAL_H
#define _UTILTRACK_INTERNAL_H

#include <linux/hrtimer.h>
#include <linux/list.h>
#include <linux/llist.h>
#include <linux/percpu.h>
#include <linux/sched.h>
#include <linux/spinlock.h>
#include <utiltrack/tracker.h>

struct dentry;

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
	struct llist_node free_node;
};

#define UT_SLOT_NONE	U32_MAX

extern struct ut_slot *ut_slots;

int ut_slot_init(unsigned int nr);
void ut_slot_exit(void);
struct ut_slot *ut_slot_find(struct task_struct *p);
struct ut_slot *ut_slot_alloc(struct task_struct *p, bool is_new);
void ut_slot_release(struct task_struct *p);
void ut_slot_fill_existing(void);
void ut_slot_set_comm(struct ut_slot *s, struct task_struct *p);

static inline u32 ut_slot_idx(const struct ut_slot *s)
{
	return s - ut_slots;
}

struct ut_slot_stats {
	unsigned int total, used;
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
	UT_TP_TICK,		/* not a tracepoint: utiltrack's own timer */
	UT_TP_NR,
};

extern const char * const ut_tp_names[UT_TP_NR];

struct ut_rq {
	/* serializes every tracker's data of this CPU and its tasks */
	raw_spinlock_t lock;
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
	/* an RT or DL task runs here (for the governor's rt_policy=max) */
	bool rt_running;
	/* statistics */
	u64 events[UT_TP_NR];
	u64 probe_ns[UT_TP_NR];
};

DECLARE_PER_CPU(struct ut_rq, ut_rqs);

int ut_probe_cpu_init(void);
void ut_probe_cpu_exit(void);
u64 ut_probe_cpu_now(int cpu);
void ut_probe_fill_ctx(struct ut_ctx *c, int cpu, u64 now);
enum ut_class ut_probe_class_of(struct task_struct *p);
int ut_probe_attach(unsigned int needs);
void ut_probe_detach_all(void);

/* ------------------------------------------------------------------ */
/* trackers (registry.c) */

struct ut_tracker {
	const struct ut_tracker_ops *ops;
	struct list_head node;
	bool enabled;
	bool builtin;
	void __percpu *cpu_data;
	void *task_data;	/* ut_max_tasks * ops->task_size */
	u32 *task_gen;		/* slot gen the task data was set up for */
};

/* The enabled trackers, as the probes iterate them (RCU-sched). */
struct ut_active {
	unsigned int nr;
	unsigned int needs;
	struct ut_tracker *tr[UT_MAX_TRACKERS];
};

extern struct ut_active __rcu *ut_active;

int ut_reg_init(const char *enable_list);
void ut_reg_exit(void);
int ut_reg_enable(const char *name);
int ut_reg_disable(const char *name);
int ut_reg_register_builtin(const struct ut_tracker_ops *ops);
int ut_reg_lookup(const char *name, unsigned int *needs);
void ut_reg_for_each(void (*fn)(struct ut_tracker *tr, void *arg), void *arg);
/* held while walking the trackers; keeps their data alive */
struct mutex *ut_reg_lock(void);

static inline void *ut_tr_cpu(struct ut_tracker *tr, int cpu)
{
	return per_cpu_ptr(tr->cpu_data, cpu);
}

/*
 * The tracker's data for slot @s, set up on first use: slots are reused
 * and trackers enabled at any time, so data whose generation does not
 * match the slot's is stale.
 */
static inline void *ut_tr_task(struct ut_tracker *tr, struct ut_slot *s,
			       const struct ut_ctx *c)
{
	u32 idx = ut_slot_idx(s);
	void *td = tr->task_data + (size_t)idx * tr->ops->task_size;

	if (tr->task_gen[idx] != s->gen) {
		memset(td, 0, tr->ops->task_size);
		if (tr->ops->task_init)
			tr->ops->task_init(tr, td, &s->t, c);
		tr->task_gen[idx] = s->gen;
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
void ut_inv_exit(void);
u32 ut_inv_capacity(int cpu);
u32 ut_inv_scale(struct ut_rq *rq);
void ut_inv_probe_freq(void *data, unsigned int khz, unsigned int cpu);

/* ------------------------------------------------------------------ */
/* debugfs.c */

void ut_dbg_init(void);
void ut_dbg_exit(void);

/* ------------------------------------------------------------------ */
/* governor.c */

enum ut_gov_kick {
	UT_GOV_KICK_RT,		/* an RT/DL task started or stopped running */
	UT_GOV_KICK_TICK,	/* utiltrack's tick advanced the trackers */
};

int ut_gov_init(void);
void ut_gov_exit(void);
void ut_gov_kick(int cpu, u64 time, enum ut_gov_kick why);
bool ut_gov_is_worker(int cpu, struct task_struct *p);
void ut_gov_debugfs(struct dentry *dir);

/* ------------------------------------------------------------------ */
/* built-in trackers */

extern const struct ut_tracker_ops ut_pelt_tracker;
extern const struct ut_tracker_ops ut_rt_tracker;
extern const struct ut_tracker_ops ut_walt_tracker;

int ut_walt_param_check(void);

#endif /* _UTILTRACK_INTERNAL_H */
