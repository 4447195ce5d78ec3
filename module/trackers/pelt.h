/* SPDX-License-Identifier: GPL-2.0 */
/*
 * trackers/pelt.h - the pelt tracker's data and event handlers, which the
 * util_est tracker (trackers/util_est.c) builds on: it follows its tasks'
 * PELT signals exactly as pelt does, in its own copy, so that either
 * tracker can be enabled alone.
 */
#ifndef _UTILTRACK_TRK_PELT_H
#define _UTILTRACK_TRK_PELT_H

#include <linux/sched.h>
#include <utiltrack/pelt.h>
#include <utiltrack/tracker.h>

/*
 * PELT trackers count on their CPU's PELT clock (c->pelt_now), which is
 * where invariance is: their contributions are never scaled.
 */
#define TRK_PELT_SCALE		UT_CAPACITY_SCALE

/* how long after a move, class change or exec a task is not compared */
#define TRK_PELT_SETTLE_NS	(256 * NSEC_PER_MSEC)

/* A validation's worst sample, kept for diagnosis: whose, and both values. */
struct trk_worst {
	u32 err;
	pid_t pid;
	u32 ours, kernel;
	char comm[TASK_COMM_LEN];
};

struct trk_pelt_cpu {
	struct ut_pelt avg;
	unsigned int nr_runnable;	/* CFS tasks queued here, as counted */
	bool fair_running;
	/* wakeups not yet applied: see trk_pelt_cpu_settle() */
	unsigned int wake_pending;
	u64 wake_at;
	/* estimated wakeup times found later than the task's switch-in */
	u64 wake_ahead;
	u64 wake_ahead_max_ns;
	/* validation */
	u64 skipped;		/* samples of unsettled tasks */
	u64 samples;
	u64 err_sum;
	/* the same from the sums, free of util_avg's per-period refresh */
	u64 fresh_err_sum;
	u32 fresh_err_max;
	struct trk_worst worst;
};

struct trk_pelt_task {
	struct ut_pelt avg;
	bool running;
	bool runnable;
	bool counted;		/* in a CPU's nr_runnable */
	bool wake_pending;	/* woken at wake_at, not yet applied */
	u64 wake_at;
	bool attached;		/* its util is part of a CPU's signal */
	u32 kernel_util;	/* p->se.avg.util_avg at the last switch-out */
	enum ut_class class;	/* at the last switch-out */
	u64 unsettled_at;	/* last migration or change of class */
};

void trk_pelt_cpu_init(struct ut_tracker *tr, void *cd, const struct ut_ctx *c);
void trk_pelt_task_init(struct ut_tracker *tr, void *td, const struct ut_task *t,
			const struct ut_ctx *c);
void trk_pelt_wakeup(struct ut_tracker *tr, void *td, void *cd,
		     const struct ut_task *t, const struct ut_ctx *c);
void trk_pelt_cpu_switch(struct ut_tracker *tr, void *cd, const struct ut_ctx *c,
			 enum ut_class prev, enum ut_class next);
void trk_pelt_switch_out(struct ut_tracker *tr, void *td, void *cd,
			 const struct ut_task *t, const struct ut_ctx *c,
			 bool prev_runnable);
void trk_pelt_switch_in(struct ut_tracker *tr, void *td, void *cd,
			const struct ut_task *t, const struct ut_ctx *c);
void trk_pelt_migrate_out(void *td, void *src, const struct ut_ctx *cs);
void trk_pelt_migrate_in(void *td, void *src, void *dst,
			 const struct ut_ctx *cs, const struct ut_ctx *cd);
void trk_pelt_migrate(struct ut_tracker *tr, void *td, void *src, void *dst,
		      const struct ut_task *t, const struct ut_ctx *cs,
		      const struct ut_ctx *cd);
void trk_worst_note(struct trk_worst *w, const struct ut_task *t, u32 err,
		    u32 ours, u32 kernel);
const struct trk_worst *trk_worst_of(const struct trk_worst *a,
				     const struct trk_worst *b);
void trk_worst_show(struct seq_file *m, const char *name,
		    const struct trk_worst *w);
u32 trk_pelt_cpu_util(struct ut_tracker *tr, void *cd, const struct ut_ctx *c,
		      u32 *runnable);
/* "name mean" with the mean of @sum over @n to two decimals (stats) */
void trk_pelt_show_mean(struct seq_file *m, const char *name, u64 sum, u64 n);

#endif /* _UTILTRACK_TRK_PELT_H */
