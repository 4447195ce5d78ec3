/* SPDX-License-Identifier: GPL-2.0 */
/*
 * governor.h - what the governor's three files share:
 *   governor.c      decisions and the cpufreq callbacks
 *   gov_tunables.c  the sysfs tunables (per policy, or global)
 *   gov_stats.c     the statistics, debugfs "governor"
 *   shadow.c        every signal's request at any governor's decisions
 * The governor reads signals only through signal.c, never a tracker's
 * data.
 */
#ifndef _UTILTRACK_GOVERNOR_H
#define _UTILTRACK_GOVERNOR_H

#include <linux/cpufreq.h>
#include <linux/irq_work.h>
#include <linux/kthread.h>
#include <linux/mutex.h>
#include <linux/seqlock.h>
#include <utiltrack/gov.h>

#include "utiltrack.h"
#include "compat/cpufreq.h"

#define UT_GOV_NAME		"utiltrack"
#define UT_GOV_SIGNAL_LEN	33	/* a signal name, NUL included */
#define UT_GOV_SIGNAL_DEF	"pelt_rt"
#define UT_GOV_IOWAIT_MIN	(SCHED_CAPACITY_SCALE / 8)
#define UT_GOV_RATE_LIMIT_MAX	(10 * USEC_PER_SEC)

enum { UT_GOV_RT_MAX, UT_GOV_RT_UTIL };

struct ut_gov_tunables {
	struct gov_attr_set attr_set;
	seqlock_t signal_lock;	/* signal and signal_gen change under it */
	char signal[UT_GOV_SIGNAL_LEN];
	unsigned int signal_gen;	/* bumped at each store, never 0 */
	bool tick_driven;	/* signal's tracker advances on our tick */
	unsigned int rate_limit_us;
	unsigned int headroom_pct;
	unsigned int rt_policy;
	unsigned int iowait_boost;
	unsigned int runnable_boost;
	unsigned int hispeed_load;
	unsigned int hispeed_freq;
	unsigned int busy_hold;
	/* highest cpuinfo.max_freq of the policies that used it (presets) */
	unsigned int fmax;
};

/* What debugfs "governor" shows of a policy; written by decisions only. */
struct ut_gov_stats {
	u64 decisions;		/* frequencies computed */
	u64 transitions;	/* decisions that changed the request */
	u64 rt_max;		/* decisions forced to fmax by rt_policy=max */
	u64 no_signal;		/* decisions without the signal's trackers */
	u64 held;		/* cuts the busy hold refused */
	u32 last_util;
	u32 last_raw_khz;
	u32 last_khz;
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

	/* the signal, under update_lock: resolved when it or the set changes */
	struct ut_signal sig;
	unsigned int sig_seen;		/* tunables' signal_gen when read */
	char sig_name[UT_GOV_SIGNAL_LEN];

	/* slow path: drivers that cannot switch from scheduler context */
	bool work_in_progress;
	struct irq_work irq_work;
	struct kthread_work work;
	struct kthread_worker *worker;
	struct mutex work_lock;		/* driver target vs limits */

	struct ut_gov_stats stats;
	bool started;			/* between ->start and ->stop */
};

/*
 * What a CPU running (or about to run) an RT task asks for: nothing
 * beyond its signal (rt_policy=util), fmax (rt_policy=max), or, as
 * schedutil, its full capacity through the mapping. The last two differ
 * where util is not frequency-invariant: there schedutil's mapping of
 * full capacity is 1.25 x the current frequency, one step up per
 * decision, not fmax at once.
 */
enum ut_gov_req_rt {
	UT_GOV_REQ_RT_NONE,
	UT_GOV_REQ_RT_FMAX,
	UT_GOV_REQ_RT_CAPACITY,
};

/* The settings of one request (the tunables', or schedutil's defaults). */
struct ut_gov_req {
	u64 clock;		/* sched_clock the signals project to; 0: now */
	u32 ref;		/* kHz that full capacity maps to */
	u32 headroom_pct;
	u32 hispeed_load;	/* 0: off */
	u32 hispeed_khz;
	u8 rt;			/* what a running RT task asks: enum ut_gov_req_rt */
	bool runnable_boost;
	bool iowait_boost;	/* the governor's per-CPU boost state */
};

/* What a policy's CPUs ask for: the winning CPU's util and capacity. */
struct ut_gov_pick {
	u32 util;
	u32 cap;
	u32 raw;		/* kHz, before the driver's table */
	bool rt;		/* fmax for a running RT task */
	bool any;		/* some CPU had the signal */
};

/* governor.c, in scheduler context (preemption off) */
void ut_gov_policy_request(struct cpufreq_policy *policy,
			   const struct ut_gov_req *rq,
			   const struct ut_signal *sig, u64 time,
			   struct ut_gov_pick *pick);
u32 ut_gov_ref(struct cpufreq_policy *policy, unsigned int cur);
const struct ut_gov_req *ut_gov_switching(struct cpufreq_policy *policy);

/* governor.c: every policy using the governor, under ut_gov_global_lock */
extern struct mutex ut_gov_global_lock;
extern struct list_head ut_gov_policies;
void ut_gov_needs_changed(void);

/* gov_tunables.c, under ut_gov_global_lock */
int ut_gov_attach_tunables(struct ut_gov_policy *gp);
void ut_gov_detach_tunables(struct ut_gov_policy *gp);
void ut_gov_read_signal(struct ut_gov_tunables *t, char *buf);
void ut_gov_apply_rate_limit(struct ut_gov_policy *gp);

#endif /* _UTILTRACK_GOVERNOR_H */
