// SPDX-License-Identifier: GPL-2.0
/*
 * freqinv.c - frequency and capacity invariance of the tracked signals.
 *
 * A busy period at half the maximum frequency does half the work, so an
 * invariant signal counts it as half. The kernel does this with
 * arch_freq_scale, which is neither exported nor maintained where no
 * counters exist (the VM). utiltrack learns each CPU's frequency from the
 * cpu_frequency tracepoint, emitted on every transition including the
 * fast-switch path, and fmax from the policy notifier.
 *
 *   scale = capacity(cpu) * cur / max      (1024 when invariance=0)
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/arch_topology.h>
#include <linux/cpufreq.h>
#include <linux/sched/topology.h>

#include "utiltrack.h"

static void ut_inv_set_policy(struct cpufreq_policy *policy, bool present)
{
	int cpu;

	for_each_cpu(cpu, policy->related_cpus) {
		struct ut_cpu *uc = per_cpu_ptr(&ut_cpus, cpu);

		WRITE_ONCE(uc->max_khz, present ? policy->cpuinfo.max_freq : 0);
		WRITE_ONCE(uc->cur_khz, present ? policy->cur : 0);
	}
}

static int ut_inv_policy_notify(struct notifier_block *nb, unsigned long event,
				void *data)
{
	if (event == CPUFREQ_CREATE_POLICY)
		ut_inv_set_policy(data, true);
	else if (event == CPUFREQ_REMOVE_POLICY)
		ut_inv_set_policy(data, false);
	return NOTIFY_OK;
}

static struct notifier_block ut_inv_nb = {
	.notifier_call = ut_inv_policy_notify,
};

/*
 * cpu_frequency tracepoint: a CPU's frequency changed. Its PELT clock
 * first moves on at the frequency being left: busy time since the last
 * event ran at that one, and a long run may have no other event.
 */
void ut_inv_probe_freq(void *data, unsigned int khz, unsigned int cpu)
{
	struct ut_cpu *uc;
	unsigned long flags;

	if (cpu >= nr_cpu_ids)
		return;
	uc = per_cpu_ptr(&ut_cpus, cpu);
	raw_spin_lock_irqsave(&uc->track_lock, flags);
	ut_pelt_clock_advance(&uc->pelt, ut_probe_cpu_now(cpu),
			      ut_inv_scale(uc));
	WRITE_ONCE(uc->cur_khz, khz);
	raw_spin_unlock_irqrestore(&uc->track_lock, flags);
}

/*
 * @cpu's capacity, read at every use: on arm64 it is renormalised when
 * cpufreq policies appear (capacity-dmips-mhz x each cluster's fmax), so
 * a value read at load can be wrong for good.
 */
u32 ut_inv_capacity(int cpu)
{
	return clamp_t(unsigned long, arch_scale_cpu_capacity(cpu), 1,
		       SCHED_CAPACITY_SCALE);
}

u32 ut_inv_scale(struct ut_cpu *uc)
{
	u32 cur = READ_ONCE(uc->cur_khz), max = READ_ONCE(uc->max_khz);
	u32 scale = ut_inv_capacity(uc->cpu);

	WRITE_ONCE(uc->capacity, scale);
	if (!ut_invariance)
		return SCHED_CAPACITY_SCALE;
	if (max && cur)
		scale = div_u64((u64)scale * min(cur, max), max);
	return scale;
}

/*
 * Do the trackers scale as the kernel's PELT does, so that comparing the
 * two validates the algorithm? arm64's PELT clock runs at capacity x
 * cur/max frequency (cpu_scale from capacity-dmips-mhz, arch_freq_scale
 * set by the cpufreq core at each transition): invariance=1 is its
 * equal. x86's scales only with APERF/MPERF, which TCG does not have:
 * invariance=0 is its equal there (not on such hardware).
 */
bool ut_inv_as_kernel(void)
{
	return ut_invariance == IS_ENABLED(CONFIG_ARM64);
}

/* "on", or why the validation against the kernel is off (one word) */
const char *ut_inv_validation_state(void)
{
	if (ut_inv_as_kernel())
		return "on";
	return ut_invariance ? "off(invariance=1,kernel_not_invariant)" :
			       "off(invariance=0,kernel_invariant)";
}

/*
 * Every CPU's capacity and current frequency, from cpufreq: at load, and
 * when the cpu_frequency probe comes back after every tracker was off.
 */
void ut_inv_refresh(void)
{
	int cpu;

	for_each_possible_cpu(cpu) {
		struct cpufreq_policy *policy = cpufreq_cpu_get(cpu);

		per_cpu(ut_cpus, cpu).capacity = ut_inv_capacity(cpu);
		if (policy) {
			ut_inv_set_policy(policy, true);
			cpufreq_cpu_put(policy);
		}
	}
}

int ut_inv_init(void)
{
	ut_inv_refresh();
	return cpufreq_register_notifier(&ut_inv_nb, CPUFREQ_POLICY_NOTIFIER);
}

void ut_inv_exit(void)
{
	cpufreq_unregister_notifier(&ut_inv_nb, CPUFREQ_POLICY_NOTIFIER);
}
