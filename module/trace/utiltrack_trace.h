/* SPDX-License-Identifier: GPL-2.0 */
/*
 * utiltrack_trace.h - the module's own trace events.
 *
 *   trace-cmd record -e utiltrack ...
 *
 * utiltrack_cpu_util: a CPU's signal of one tracker after a switch there,
 *                     and both CPUs' after a task's move between them
 *                     (util = first column, aux = second, see debugfs).
 * utiltrack_task_util: a task's signal of one tracker when it is switched
 *                      out or in.
 * utiltrack_freq: a decision of the utiltrack governor: the signal and
 *                 its value (the policy's highest), the raw request and
 *                 the frequency asked of the driver (kHz), whether the
 *                 busy hold kept the last one, and the decision's time
 *                 (ns, the clock its rate limit counts in: the
 *                 scheduler's rq clock, which may lag the trace's own
 *                 timestamp).
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM utiltrack

#if !defined(_UTILTRACK_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _UTILTRACK_TRACE_H

#include <linux/sched.h>
#include <linux/string.h>
#include <linux/tracepoint.h>

#define UT_TRACE_NAME_LEN	16

TRACE_EVENT(utiltrack_cpu_util,
	    TP_PROTO(int cpu, const char *tracker, u64 util, u64 aux),
	    TP_ARGS(cpu, tracker, util, aux),
	    TP_STRUCT__entry(__field(int, cpu)
			     __array(char, tracker, UT_TRACE_NAME_LEN)
			     __field(u64, util)
			     __field(u64, aux)),
	    TP_fast_assign(__entry->cpu = cpu;
			   strscpy(__entry->tracker, tracker, UT_TRACE_NAME_LEN);
			   __entry->util = util;
			   __entry->aux = aux;),
	    TP_printk("cpu=%d tracker=%s util=%llu aux=%llu", __entry->cpu,
		      __entry->tracker, __entry->util, __entry->aux)
);

TRACE_EVENT(utiltrack_task_util,
	    TP_PROTO(pid_t pid, const char *comm, int cpu, const char *tracker,
		     u64 util, u64 aux),
	    TP_ARGS(pid, comm, cpu, tracker, util, aux),
	    TP_STRUCT__entry(__field(pid_t, pid)
			     __array(char, comm, TASK_COMM_LEN)
			     __field(int, cpu)
			     __array(char, tracker, UT_TRACE_NAME_LEN)
			     __field(u64, util)
			     __field(u64, aux)),
	    TP_fast_assign(__entry->pid = pid;
			   strscpy(__entry->comm, comm, TASK_COMM_LEN);
			   __entry->cpu = cpu;
			   strscpy(__entry->tracker, tracker, UT_TRACE_NAME_LEN);
			   __entry->util = util;
			   __entry->aux = aux;),
	    TP_printk("pid=%d comm=%s cpu=%d tracker=%s util=%llu aux=%llu",
		      __entry->pid, __entry->comm, __entry->cpu,
		      __entry->tracker, __entry->util, __entry->aux)
);

/*
 * One governor decision: the util and capacity (cap) of the CPU whose
 * request won (the highest of the policy's), ref (the kHz that full
 * capacity maps to: fmax for an invariant signal, else schedutil's
 * reference from the current frequency), the raw request and the
 * frequency asked of the driver: the table's resolution of the request,
 * or with held=1 the last frequency, kept because the CPU has not been
 * idle since the last decision (the busy_hold tunable).
 */
TRACE_EVENT(utiltrack_freq,
	    TP_PROTO(int cpu, const char *signal, u32 util, u32 ref, u32 cap,
		     u32 requested, u32 resolved, bool held, u64 time),
	    TP_ARGS(cpu, signal, util, ref, cap, requested, resolved, held,
		    time),
	    TP_STRUCT__entry(__field(int, cpu)
			     __array(char, signal, UT_TRACE_NAME_LEN)
			     __field(u32, util)
			     __field(u32, ref)
			     __field(u32, cap)
			     __field(u32, requested)
			     __field(u32, resolved)
			     __field(bool, held)
			     __field(u64, time)),
	    TP_fast_assign(__entry->cpu = cpu;
			   strscpy(__entry->signal, signal, UT_TRACE_NAME_LEN);
			   __entry->util = util;
			   __entry->ref = ref;
			   __entry->cap = cap;
			   __entry->requested = requested;
			   __entry->resolved = resolved;
			   __entry->held = held;
			   __entry->time = time;),
	    TP_printk("cpu=%d signal=%s util=%u ref=%u cap=%u requested=%u resolved=%u held=%d time=%llu",
		      __entry->cpu, __entry->signal, __entry->util,
		      __entry->ref, __entry->cap, __entry->requested,
		      __entry->resolved, __entry->held, __entry->time)
);

/*
 * A shadow comparison (shadow.c): at a frequency change of @cpu's policy
 * to @actual kHz, whichever governor chose it, what @signal asks for.
 */
TRACE_EVENT(utiltrack_shadow,
	    TP_PROTO(int cpu, const char *signal, u32 util, u32 ref, u32 cap,
		     u32 requested, u32 resolved, u32 actual, bool rt),
	    TP_ARGS(cpu, signal, util, ref, cap, requested, resolved, actual,
		    rt),
	    TP_STRUCT__entry(__field(int, cpu)
			     __array(char, signal, UT_TRACE_NAME_LEN)
			     __field(u32, util)
			     __field(u32, ref)
			     __field(u32, cap)
			     __field(u32, requested)
			     __field(u32, resolved)
			     __field(u32, actual)
			     __field(bool, rt)),
	    TP_fast_assign(__entry->cpu = cpu;
			   strscpy(__entry->signal, signal, UT_TRACE_NAME_LEN);
			   __entry->util = util;
			   __entry->ref = ref;
			   __entry->cap = cap;
			   __entry->requested = requested;
			   __entry->resolved = resolved;
			   __entry->actual = actual;
			   __entry->rt = rt;),
	    TP_printk("cpu=%d signal=%s util=%u ref=%u cap=%u requested=%u resolved=%u actual=%u rt=%d",
		      __entry->cpu, __entry->signal, __entry->util,
		      __entry->ref, __entry->cap, __entry->requested,
		      __entry->resolved, __entry->actual, __entry->rt)
);

#endif /* _UTILTRACK_TRACE_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH trace
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE utiltrack_trace
#include <trace/define_trace.h>
