/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tracepoint.h - attach probes to scheduler tracepoints by name.
 *
 * The scheduler's tracepoint structures (sched_switch, ...) are not
 * exported to modules, so they are looked up by name through
 * for_each_kernel_tracepoint(). Static inlines: each module gets its own
 * copy and no object is linked into two modules.
 */
#ifndef _UTILTRACK_COMPAT_TRACEPOINT_H
#define _UTILTRACK_COMPAT_TRACEPOINT_H

#include <linux/sched.h>
#include <linux/string.h>
#include <linux/tracepoint.h>
#include "compat/version.h"

/*
 * sched_switch gained prev_state in 5.18. The compiler cannot check a
 * probe's prototype (it travels as void *), so every probe is declared
 * through this macro with fixed argument names.
 */
#if UT_KERNEL_GE(5, 18, 0)
#define UT_SCHED_SWITCH_ARGS						\
	void *__data, bool preempt, struct task_struct *prev,		\
	struct task_struct *next, unsigned int prev_state
#else
#define UT_SCHED_SWITCH_ARGS						\
	void *__data, bool preempt, struct task_struct *prev,		\
	struct task_struct *next
#endif

struct ut_tp_lookup {
	const char *name;
	struct tracepoint *tp;
};

static inline void ut_tp_match(struct tracepoint *tp, void *priv)
{
	struct ut_tp_lookup *l = priv;

	if (!l->tp && !strcmp(tp->name, l->name))
		l->tp = tp;
}

/* Return the kernel's tracepoint called @name, or NULL. */
static inline struct tracepoint *ut_tp_find(const char *name)
{
	struct ut_tp_lookup l = { .name = name };

	for_each_kernel_tracepoint(ut_tp_match, &l);
	return l.tp;
}

#endif /* _UTILTRACK_COMPAT_TRACEPOINT_H */
