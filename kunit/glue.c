// SPDX-License-Identifier: GPL-2.0
/*
 * glue.c - what utiltrack_kunit.ko has instead of probes.c and
 * utiltrack_main.c: the parameters, the per-CPU state, and a fake of the
 * probe layer. The clock of a CPU is whatever the suites set; attaching
 * probes only records what was asked (and fails on request), so the
 * registry and the trackers run for real without touching a tracepoint.
 */

#include <linux/module.h>
#include <linux/sched.h>
#include <linux/sched/rt.h>

#include "utiltrack_kunit.h"

unsigned int ut_max_tasks = UT_KUNIT_MAX_TASKS;
bool ut_invariance;
DEFINE_PER_CPU(struct ut_cpu, ut_cpus);

struct ut_kunit_probes ut_kunit_probes;

enum ut_class ut_probe_class_of(struct task_struct *p)
{
	if (p->policy == SCHED_DEADLINE)
		return UT_CLASS_DL;
	if (p->policy == SCHED_FIFO || p->policy == SCHED_RR)
		return UT_CLASS_RT;
	return UT_CLASS_FAIR;
}

/* A fake CPU's clock: where the last event left it. */
u64 ut_probe_cpu_now(int cpu)
{
	return READ_ONCE(per_cpu_ptr(&ut_cpus, cpu)->last_now);
}

/* ... or @clk, never before the last event, as the module's */
u64 ut_probe_cpu_at(int cpu, u64 clk)
{
	return max(clk, ut_probe_cpu_now(cpu));
}

/* A fake CPU's scale is its capacity (no frequency invariance). */
u32 ut_inv_scale(struct ut_cpu *uc)
{
	return uc->capacity;
}

/* ... and the capacity the trackers read at use, the same fake one. */
u32 ut_inv_capacity(int cpu)
{
	return per_cpu_ptr(&ut_cpus, cpu)->capacity;
}

/* The suites' fake kernel is not invariant, as x86 under TCG. */
bool ut_inv_as_kernel(void)
{
	return !ut_invariance;
}

const char *ut_inv_validation_state(void)
{
	return ut_inv_as_kernel() ? "on" : "off(invariance=1,kernel_not_invariant)";
}

/* No kernel PELT refresh is ever seen: 6.12's sample is the switch-in's. */
u64 ut_probe_kernel_pelt_at(struct task_struct *p, u64 now)
{
	return 0;
}

int ut_probe_attach(unsigned int needs)
{
	ut_kunit_probes.calls++;
	if (ut_kunit_probes.fail)
		return ut_kunit_probes.fail;
	ut_kunit_probes.needs = needs;
	return 0;
}

/* Every CPU idle at @now, full scale, no probe calls seen. */
void ut_kunit_reset(u64 now)
{
	int cpu;

	for_each_possible_cpu(cpu) {
		struct ut_cpu *uc = per_cpu_ptr(&ut_cpus, cpu);

		memset(uc, 0, sizeof(*uc));
		raw_spin_lock_init(&uc->track_lock);
		uc->last_now = now;
		uc->capacity = SCHED_CAPACITY_SCALE;
	}
	memset(&ut_kunit_probes, 0, sizeof(ut_kunit_probes));
}

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("utiltrack KUnit suites: pelt, util_est, walt, freq, gov, tracker, emu, cost");
