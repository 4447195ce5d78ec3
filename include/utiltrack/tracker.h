/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tracker.h - the ops table every utilization tracker implements.
 *
 * utiltrack.ko owns the probes, the per-task slots and the per-CPU
 * locking; a tracker only sees events, already resolved to its own
 * per-CPU and per-task data, with the time and invariance scale of the
 * event's CPU. Built-in trackers (pelt, rt, walt) and trackers of other
 * modules register the same way. A disabled tracker is not called and
 * owns no memory; when no enabled tracker needs a tracepoint, the probe
 * is not attached at all.
 *
 * Calling context of the event callbacks: scheduler tracepoints, the
 * runqueue lock held, interrupts off. They must not sleep, allocate or
 * take locks, and must be O(1). utiltrack serializes them per CPU: all
 * callbacks touching a CPU's data run under that CPU's utiltrack lock
 * (both CPUs' for ->migrate).
 */
#ifndef _UTILTRACK_TRACKER_H
#define _UTILTRACK_TRACKER_H

#include <linux/bits.h>
#include <linux/time64.h>
#include <linux/types.h>

struct module;
struct seq_file;
struct task_struct;
struct ut_tracker;

enum ut_class {
	UT_CLASS_IDLE,
	UT_CLASS_FAIR,
	UT_CLASS_RT,
	UT_CLASS_DL,
	UT_CLASS_OTHER,
	UT_CLASS_STOP,		/* the stopper (migration/N): neither rt nor dl */
	UT_CLASS_GOV,		/* the governor's own worker: in no class */
};

/* Which events a tracker wants; the union decides what gets probed. */
#define UT_NEED_SWITCH		BIT(0)
#define UT_NEED_WAKEUP		BIT(1)
#define UT_NEED_MIGRATE		BIT(2)
#define UT_NEED_TICK		BIT(3)	/* ->tick every UT_TICK_NS on busy CPUs */
/* the kernel's PELT updates of running tasks: ut_probe_kernel_pelt_at() */
#define UT_NEED_KERNEL_PELT	BIT(4)
/* all a tracker may ask for: the module keeps the other bits for itself */
#define UT_NEED_TRACKER_ALL	(UT_NEED_SWITCH | UT_NEED_WAKEUP | \
				 UT_NEED_MIGRATE | UT_NEED_TICK | \
				 UT_NEED_KERNEL_PELT)

#define UT_TICK_NS		(4 * NSEC_PER_MSEC)

#define UT_MAX_COLS		4	/* per tracker, in each table */

/* One event as trackers see it. */
struct ut_ctx {
	u64 now;		/* ns, the scheduler's task clock of @cpu */
	/*
	 * ns, PELT's clock of @cpu, as the kernel's rq_clock_pelt(): it
	 * runs at @scale/1024 of @now while the CPU is busy and is @now
	 * again once the CPU goes idle. PELT signals count on it with full
	 * contributions; window-based ones scale their busy time instead.
	 */
	u64 pelt_now;
	int cpu;
	u32 scale;		/* invariance: 1024 * cap/1024 * cur/max freq */
};

/* A tracked task. @p is valid only during the callback. */
struct ut_task {
	struct task_struct *p;
	pid_t pid;
	int cpu;		/* CPU the task is accounted on */
	enum ut_class class;
	bool is_new;		/* task_init for a fork, not a task found at load */
	u64 exec_at;		/* time of its last exec, 0 if none seen */
};

struct ut_tracker_ops {
	const char *name;
	struct module *owner;
	unsigned int needs;		/* UT_NEED_* */
	size_t cpu_size;		/* bytes of per-CPU data */
	size_t task_size;		/* bytes of per-task data */
	const char *cpu_cols[UT_MAX_COLS];	/* debugfs "cpus" columns */
	const char *task_cols[UT_MAX_COLS];	/* debugfs "tasks" columns */

	/* process context, when the tracker is enabled / disabled */
	int (*enable)(struct ut_tracker *tr);
	void (*disable)(struct ut_tracker *tr);

	/* per-CPU data, zeroed, when the tracker is enabled */
	void (*cpu_init)(struct ut_tracker *tr, void *cd, const struct ut_ctx *c);
	/* per-task data, zeroed, at the task's first event after enable */
	void (*task_init)(struct ut_tracker *tr, void *td, const struct ut_task *t,
			  const struct ut_ctx *c);

	/* @t became runnable on @t->cpu */
	void (*wakeup)(struct ut_tracker *tr, void *td, void *cd,
		       const struct ut_task *t, const struct ut_ctx *c);
	/*
	 * Per-CPU signals: bring @cd up to c->now, @prev_class having run
	 * until now, @next_class running from now on. Called at every switch,
	 * before ->switch_out and ->switch_in. Readers see the values as of
	 * the CPU's last switch, like the kernel's own sched/debug.
	 */
	void (*cpu_switch)(struct ut_tracker *tr, void *cd, const struct ut_ctx *c,
			   enum ut_class prev_class, enum ut_class next_class);
	void (*switch_out)(struct ut_tracker *tr, void *td, void *cd,
			   const struct ut_task *t, const struct ut_ctx *c,
			   bool prev_runnable);
	void (*switch_in)(struct ut_tracker *tr, void *td, void *cd,
			  const struct ut_task *t, const struct ut_ctx *c);
	/*
	 * @t is running on c->cpu: called every UT_TICK_NS while the CPU is
	 * busy, from a pinned hard-irq timer (the scheduler tick is not a
	 * tracepoint), for signals that must advance while a task runs on,
	 * such as WALT at window boundaries.
	 */
	void (*tick)(struct ut_tracker *tr, void *td, void *cd,
		     const struct ut_task *t, const struct ut_ctx *c);
	/* @t moves from @src to @dst; @cs/@cd carry each CPU's time */
	void (*migrate)(struct ut_tracker *tr, void *td, void *src, void *dst,
			const struct ut_task *t, const struct ut_ctx *cs,
			const struct ut_ctx *cd);

	/* @t is gone (its task_struct is being freed); @td is dropped next */
	void (*task_exit)(struct ut_tracker *tr, void *td, void *cd,
			  const struct ut_task *t, const struct ut_ctx *c);

	/* debugfs readers: fill one value per declared column */
	void (*stats_show)(struct ut_tracker *tr, struct seq_file *m);
	/*
	 * Self-check on demand (reading debugfs "check", process context,
	 * may sleep between CPUs): verify the tracker's invariants now and
	 * print "name value" lines. Never run otherwise, so it may be as
	 * costly as a debugging aid needs. Optional.
	 */
	void (*check)(struct ut_tracker *tr, struct seq_file *m);
	void (*cpu_show)(struct ut_tracker *tr, void *cd, const struct ut_ctx *c,
			 u64 *vals);
	void (*task_show)(struct ut_tracker *tr, void *td, const struct ut_task *t,
			  u64 *vals);
	/*
	 * The CPU's signal for frequency selection, current at c->now
	 * (0..1024), without changing @cd: the governor reads it from the
	 * scheduler's cpufreq hook, the CPU's lock held. Where @runnable is
	 * not NULL, a tracker with a runnable signal also stores it there,
	 * in the same units and from the same projection: the governor's
	 * runnable_boost (schedutil's since 6.5) raises util to it, so tasks
	 * waiting behind one another raise frequency before their util can;
	 * others leave it alone. Optional; without it the governor uses the
	 * first "cpus" column of ->cpu_show, which must then be projected to
	 * c->now too: a value as of the CPU's last event would hold a policy
	 * at the level of a CPU that has been idle since.
	 */
	u32 (*cpu_util)(struct ut_tracker *tr, void *cd, const struct ut_ctx *c,
			u32 *runnable);
};

int ut_tracker_register(const struct ut_tracker_ops *ops);
void ut_tracker_unregister(const struct ut_tracker_ops *ops);

/* The ops a tracker was registered with, for its callbacks. */
const struct ut_tracker_ops *ut_tracker_ops(struct ut_tracker *tr);

#endif /* _UTILTRACK_TRACKER_H */
