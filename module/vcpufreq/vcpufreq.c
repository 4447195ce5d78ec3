// SPDX-License-Identifier: GPL-2.0
/*
 * vcpufreq.c - a virtual cpufreq platform for machines without one.
 *
 * VMs and CI boxes have no cpufreq driver, so no governor can be compared
 * there. This driver provides one policy per cluster of CPUs (platform.c:
 * from module parameters, or from the device tree of an arm64 board),
 * each with its OPP table, both the ->target_index and the ->fast_switch
 * paths, and two things a plain fake driver would lack:
 *
 *  - throughput emulation: at OPP f a CPU-bound loop runs at about
 *    cap/1024 * f/fmax of the speed of the fastest CPU at its fmax (cap:
 *    the CPU's capacity as the kernel sees it, 1024 on x86; fmax: its
 *    cluster's). A pinned hard-irq hrtimer per CPU busy-waits for the
 *    rest of every period while the CPU runs a non-idle task. The stall
 *    is charged to the running task, exactly like a slower clock, and an
 *    idle CPU is never touched.
 *
 *  - an energy meter: per CPU, busy time at each OPP and idle time are
 *    accumulated; energy = sum(busy_ns[opp] * C * V^2 * f) + idle_ns *
 *    idle power, read per policy from debugfs.
 *
 * Busy/idle transitions come from a probe on sched_switch.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpu.h>
#include <linux/cpufreq.h>
#include <linux/cpuhotplug.h>
#include <linux/cpumask.h>
#include <linux/debugfs.h>
#include <linux/hrtimer.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/percpu.h>
#include <linux/sched.h>
#include <linux/sched/topology.h>
#include <linux/seq_file.h>
#include <linux/spinlock.h>
#include <linux/string.h>

#include <utiltrack/emu.h>
#include <utiltrack/opp.h>
#include "compat/cpufreq.h"
#include "compat/tracepoint.h"
#include "vcpufreq.h"

/* Keep this much of each period free of stall so callbacks never chain. */
#define VCF_STALL_MARGIN_NS	(20 * NSEC_PER_USEC)

/*
 * What a stalled period costs the task beyond the timer's latency: entry,
 * rearming, exit, and getting going again after a spin. Fitted under QEMU
 * TCG (docs/vcpufreq.md).
 */
#define VCF_CALLBACK_NS		(39 * NSEC_PER_USEC)

/* Reported to the core; schedutil derives its default rate limit from it. */
#define VCF_TRANSITION_NS	(100 * NSEC_PER_USEC)

/* --------------------------------------------------------------------
 * Parameters (read-only once loaded)
 */

#define VCF_OPPS_DEF "500000,800000,1000000,1200000,1400000,1600000,1800000,2000000"
static char *opps = VCF_OPPS_DEF;
module_param(opps, charp, 0444);
MODULE_PARM_DESC(opps, "OPP frequencies in kHz, strictly ascending, 2..16 entries; overrides the device tree's");

static bool use_dt = true;
module_param(use_dt, bool, 0444);
MODULE_PARM_DESC(use_dt, "Take clusters, OPPs and power coefficients from the device tree when its CPUs have operating-points-v2 (default on)");

static char *volts;
module_param(volts, charp, 0444);
MODULE_PARM_DESC(volts, "OPP voltages in mV, one per frequency (default: 600..1100 linear)");

static unsigned int cluster_size = 1;
module_param(cluster_size, uint, 0444);
MODULE_PARM_DESC(cluster_size, "CPUs per policy: 1 = one policy per CPU (default; on a device tree, its clusters); other values override the tree's");

static bool fast_switch;
module_param(fast_switch, bool, 0444);
MODULE_PARM_DESC(fast_switch, "Offer ->fast_switch to governors (default: ->target_index only)");

static bool emulate = true;
module_param(emulate, bool, 0444);
MODULE_PARM_DESC(emulate, "Emulate throughput proportional to frequency (default on)");

static unsigned int period_us = 1000;
module_param(period_us, uint, 0444);
MODULE_PARM_DESC(period_us, "Emulation period in us, 200..10000 (default 1000)");

static unsigned int latency_comp = 100;
module_param(latency_comp, uint, 0444);
MODULE_PARM_DESC(latency_comp, "Percent of the average timer latency counted as lost to the task every period, 0..200 (default 100)");

/*
 * The model's estimate of o (below) fits some hosts and not others; a
 * value measured on this host (lib.sh emu_calibrate) replaces it.
 */
static unsigned int overhead_us;
module_param(overhead_us, uint, 0444);
MODULE_PARM_DESC(overhead_us, "Overhead o of a period in us, as calibrated on this host, up to period_us/2; 0: estimated from the timer latency, see latency_comp (default 0)");

/*
 * 0 leaves the governors' default rate limit to the core, which derives
 * it from the transition latency by a formula that changed between
 * kernels (10 ms on 6.1, 150 us on 6.12 for the same 100 us). Set it to
 * compare kernels under one rate limit, as fast-switching drivers do
 * (amd-pstate 1 ms, intel_cpufreq 0.5-5 ms).
 */
static unsigned int transition_delay_us;
module_param(transition_delay_us, uint, 0444);
MODULE_PARM_DESC(transition_delay_us, "Governors' default rate limit in us, 1..100000; 0: derived by the core from the transition latency (default 0)");

#define VCF_POWER_COEFF_DEF	400
static unsigned int power_coeff = VCF_POWER_COEFF_DEF;
module_param(power_coeff, uint, 0444);
MODULE_PARM_DESC(power_coeff, "Dynamic power coefficient, uW/MHz/V^2, 1..65535 (default 400, or the device tree's); other values override the tree's");

static unsigned int idle_uw = 20000;
module_param(idle_uw, uint, 0444);
MODULE_PARM_DESC(idle_uw, "Power of an idle CPU in uW, 0..10000000 (default 20000)");

/* --------------------------------------------------------------------
 * State
 */

struct vcf_cpu {
	/* emulation: touched only on this CPU, in hard-irq or sched context */
	struct hrtimer timer;
	unsigned int cpu;
	bool online;		/* cleared when the CPU starts going offline */
	s64 remain_ns;		/* period left when the CPU went idle, or -1 */
	u64 stall_ns;		/* per period; 0 at fmax; written by freq changes */
	u64 lat_ns;		/* average delay from expiry to callback */
	struct ut_emu emu;	/* stalls, and what late callbacks owe */
	u64 missed;		/* periods that got no callback at all */

	/* energy: protected by @lock, updated at switches and freq changes */
	raw_spinlock_t lock;
	bool busy;
	unsigned int opp;
	u64 last_ns;
	u64 busy_ns[UT_OPP_MAX];
	u64 idle_ns;
};

static DEFINE_PER_CPU(struct vcf_cpu, vcf_cpus);

static u64 vcf_period_ns;
/* overhead_us, also set through debugfs; 0: the latency-based model */
static u64 vcf_overhead_ns;
static struct tracepoint *vcf_tp_switch;
static struct dentry *vcf_debugfs;

/* --------------------------------------------------------------------
 * Energy accounting
 */

/* Charge the time since the last update to the current state. */
static void vcf_account(struct vcf_cpu *vc, u64 now)
{
	u64 delta = now > vc->last_ns ? now - vc->last_ns : 0;

	if (vc->busy)
		vc->busy_ns[vc->opp] += delta;
	else
		vc->idle_ns += delta;
	vc->last_ns = now;
}

static void vcf_set_busy(struct vcf_cpu *vc, bool busy)
{
	raw_spin_lock(&vc->lock);
	vcf_account(vc, ktime_get_ns());
	vc->busy = busy;
	raw_spin_unlock(&vc->lock);
}

/* --------------------------------------------------------------------
 * Throughput emulation
 *
 * Every period costs the task something even at fmax, where the stall is
 * zero: the part of the callback's latency L it does not run in, and the
 * callback's own cost c. Call that overhead o; the task gets P - o at
 * fmax. To get f/fmax of that at f, the callback spins, from its own
 * start, for (1 - f/fmax) * (P - o): whatever the latency and whichever
 * part of it the task runs in, both cancel in the ratio. o is estimated
 * as latency_comp percent of the average latency plus VCF_CALLBACK_NS.
 *
 *   |<------------------ period P ------------------>|
 *   |  task runs  | L |####### stall #######| c |     |
 *   ^ expiry          ^ callback
 *
 * A latency-based estimate of o does not fit every host (o grows with
 * the period, the tick's share), so o can be measured instead:
 * overhead_us (parameter, or debugfs at run time) fixes it, and the
 * harness's emu_calibrate fits it by solving the model for the o that
 * gives the ideal throughput at fmin. The measurements behind this
 * model are in docs/vcpufreq.md.
 *
 * The timer runs whenever the CPU is busy, at fmax too (with a zero
 * stall): a frequency change then takes effect within one period on a CPU
 * that never context-switches, without sending it an IPI from inside
 * ->fast_switch, where that is not allowed.
 */

/* EWMA, weight 1/8, of the callback latency; outliers are clamped. */
static void vcf_track_latency(struct vcf_cpu *vc, u64 lat)
{
	lat = min(lat, vcf_period_ns / 4);
	vc->lat_ns = vc->lat_ns - (vc->lat_ns >> 3) + (lat >> 3);
}

/* Overhead o: as calibrated, else as the comment above says. */
static u64 vcf_overhead(const struct vcf_cpu *vc)
{
	return READ_ONCE(vcf_overhead_ns) ?:
	       div_u64(READ_ONCE(vc->lat_ns) * latency_comp, 100) +
	       VCF_CALLBACK_NS;
}

/* The spin of a period with @stall. */
static u64 vcf_spin_ns(const struct vcf_cpu *vc, u64 stall)
{
	return ut_emu_spin_ns(stall, vcf_overhead(vc), vcf_period_ns);
}

/*
 * A callback too late for its whole spin leaves the rest owed to the
 * next ones (ut_emu_stall_ns()): the task ran uncharged meanwhile.
 * Dropping it made fmin read fast where the host delivered many
 * callbacks late. A callback a whole period or more late owes nothing,
 * and neither do the periods hrtimer_forward() skips: that is mostly the
 * host not running the vCPU at all, which costs the task at every OPP
 * alike (docs/vcpufreq.md has the measurements).
 */
static u64 vcf_stall(struct vcf_cpu *vc, u64 expires, u64 now, u64 spin)
{
	u64 end = now + ut_emu_stall_ns(&vc->emu, spin, now - expires,
					 vcf_period_ns, VCF_STALL_MARGIN_NS);

	/* ktime_get_ns(), not local_clock(): the latter stalls with irqs off */
	while (now < end) {
		cpu_relax();
		now = ktime_get_ns();
	}
	return now;
}

static enum hrtimer_restart vcf_stall_fn(struct hrtimer *timer)
{
	struct vcf_cpu *vc = container_of(timer, struct vcf_cpu, timer);
	u64 stall = READ_ONCE(vc->stall_ns);
	u64 expires, now;

	/*
	 * The timers of a CPU that went offline move to another CPU; there
	 * this one would stall the wrong CPU's task. It stops instead.
	 */
	if (unlikely(vc->cpu != smp_processor_id() || !READ_ONCE(vc->online)))
		return HRTIMER_NORESTART;
	expires = ktime_to_ns(hrtimer_get_expires(timer));
	now = ktime_get_ns();
	vcf_track_latency(vc, now - expires);
	now = vcf_stall(vc, expires, now, stall ? vcf_spin_ns(vc, stall) : 0);
	vc->missed += hrtimer_forward(timer, ns_to_ktime(now),
				      ns_to_ktime(vcf_period_ns)) - 1;
	return HRTIMER_RESTART;
}

/* This CPU starts running tasks: continue the period where it stopped. */
static void vcf_emul_resume(struct vcf_cpu *vc)
{
	u64 delay;

	if (hrtimer_active(&vc->timer) || !READ_ONCE(vc->online))
		return;
	delay = vc->remain_ns >= 0 ? vc->remain_ns : vcf_period_ns;
	vc->remain_ns = -1;
	hrtimer_start(&vc->timer, ns_to_ktime(delay),
		      HRTIMER_MODE_REL_PINNED_HARD);
}

/*
 * This CPU goes idle: stop injecting, remember what is left of the
 * period. Bursts shorter than a period must still be slowed down, so the
 * remainder carries over; an expired but undelivered period is owed (0).
 */
static void vcf_emul_pause(struct vcf_cpu *vc)
{
	s64 left;

	if (hrtimer_try_to_cancel(&vc->timer) != 1)
		return;
	left = ktime_to_ns(hrtimer_get_expires(&vc->timer)) - ktime_get_ns();
	vc->remain_ns = max_t(s64, left, 0);
}

/* sched_switch probe: rq lock held, irqs off, on the switching CPU. */
static void vcf_probe_switch(UT_SCHED_SWITCH_ARGS)
{
	struct vcf_cpu *vc = this_cpu_ptr(&vcf_cpus);
	bool busy = !is_idle_task(next);

	if (busy == vc->busy)
		return;
	vcf_set_busy(vc, busy);
	if (!emulate)
		return;
	if (busy)
		vcf_emul_resume(vc);
	else
		vcf_emul_pause(vc);
}

/* --------------------------------------------------------------------
 * cpufreq driver
 */

/*
 * The stall per period of @cpu at OPP @idx of its cluster: its speed is
 * cap/1024 * f/fmax of the fastest CPU's at fmax, so a CPU of lower
 * capacity is slowed down at its own fmax too. The capacity is read at
 * each change: the kernel rescales it when the policies appear.
 */
static u64 vcf_cpu_stall_ns(unsigned int cpu, const struct vcf_cluster *cl,
			    unsigned int idx)
{
	u64 khz = (u64)cl->opp[idx].khz * arch_scale_cpu_capacity(cpu);

	return ut_emu_period_stall_ns(vcf_period_ns,
				      khz >> SCHED_CAPACITY_SHIFT,
				      vcf_cluster_fmax(cl));
}

/* Record the new OPP of every CPU of @policy and retune its emulation. */
static void vcf_set_opp(struct cpufreq_policy *policy, unsigned int idx)
{
	const struct vcf_cluster *cl = vcf_cluster_of(policy->cpu);
	unsigned long flags;
	unsigned int cpu;

	for_each_cpu(cpu, policy->cpus) {
		struct vcf_cpu *vc = per_cpu_ptr(&vcf_cpus, cpu);

		raw_spin_lock_irqsave(&vc->lock, flags);
		vcf_account(vc, ktime_get_ns());
		vc->opp = idx;
		WRITE_ONCE(vc->stall_ns,
			   emulate ? vcf_cpu_stall_ns(cpu, cl, idx) : 0);
		raw_spin_unlock_irqrestore(&vc->lock, flags);
	}
}

static int vcf_target_index(struct cpufreq_policy *policy, unsigned int idx)
{
	vcf_set_opp(policy, idx);
	return 0;
}

static unsigned int vcf_fast_switch(struct cpufreq_policy *policy,
				    unsigned int target_freq)
{
	unsigned int idx = ut_cpufreq_find_index_l(policy, target_freq);

	vcf_set_opp(policy, idx);
	return policy->freq_table[idx].frequency;
}

static unsigned int vcf_get(unsigned int cpu)
{
	return vcf_cluster_of(cpu)->opp[READ_ONCE(per_cpu(vcf_cpus, cpu).opp)].khz;
}

static int vcf_cpufreq_init(struct cpufreq_policy *policy)
{
	struct vcf_cluster *cl = vcf_cluster_of(policy->cpu);
	unsigned int top = cl->nr_opp - 1;

	cpumask_copy(policy->cpus, &cl->cpus);
	policy->freq_table = cl->table;
	policy->cpuinfo.transition_latency = VCF_TRANSITION_NS;
	policy->transition_delay_us = transition_delay_us;
	policy->fast_switch_possible = fast_switch;
	policy->dvfs_possible_from_any_cpu = true;
	policy->cur = cl->opp[top].khz;
	vcf_set_opp(policy, top);
	return 0;
}

static struct cpufreq_driver vcf_driver = {
	.name		= "vcpufreq",
	.flags		= CPUFREQ_NEED_INITIAL_FREQ_CHECK,
	.init		= vcf_cpufreq_init,
	.verify		= cpufreq_generic_frequency_table_verify,
	.target_index	= vcf_target_index,
	.fast_switch	= vcf_fast_switch,
	.get		= vcf_get,
	.attr		= cpufreq_generic_attr,
};

/* --------------------------------------------------------------------
 * debugfs: /sys/kernel/debug/vcpufreq/{energy,opps,cpus}
 */

struct vcf_snapshot {
	u64 busy_ns[UT_OPP_MAX];
	u64 idle_ns;
};

/* Add @cpu's accounting, brought up to now, to @s. */
static void vcf_snapshot_add(unsigned int cpu, struct vcf_snapshot *s)
{
	struct vcf_cpu *vc = per_cpu_ptr(&vcf_cpus, cpu);
	unsigned long flags;
	unsigned int i;

	raw_spin_lock_irqsave(&vc->lock, flags);
	vcf_account(vc, ktime_get_ns());
	for (i = 0; i < vcf_cluster_of(cpu)->nr_opp; i++)
		s->busy_ns[i] += vc->busy_ns[i];
	s->idle_ns += vc->idle_ns;
	raw_spin_unlock_irqrestore(&vc->lock, flags);
}

/* One row per policy, named by its first CPU. */
static int vcf_energy_show(struct seq_file *m, void *v)
{
	unsigned int c, cpu, i;

	seq_puts(m, "policy cpus khz busy_ms idle_ms dynamic_uj idle_uj energy_uj\n");
	for (c = 0; c < vcf_nr_clusters; c++) {
		const struct vcf_cluster *cl = &vcf_clusters[c];
		struct vcf_snapshot s = {};
		u64 busy = 0, dyn = 0, idle;

		if (!cl->nr_opp)	/* no possible CPU in it */
			continue;
		cpu = cpumask_first(&cl->cpus);
		for_each_cpu(i, &cl->cpus)
			vcf_snapshot_add(i, &s);
		for (i = 0; i < cl->nr_opp; i++) {
			busy += s.busy_ns[i];
			dyn += ut_opp_energy_uj(s.busy_ns[i], cl->power_uw[i]);
		}
		idle = ut_opp_energy_uj(s.idle_ns, idle_uw);
		seq_printf(m, "%u %*pbl %u %llu %llu %llu %llu %llu\n", cpu,
			   cpumask_pr_args(&cl->cpus), vcf_get(cpu),
			   div_u64(busy, NSEC_PER_MSEC),
			   div_u64(s.idle_ns, NSEC_PER_MSEC), dyn, idle,
			   dyn + idle);
	}
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(vcf_energy);

/* Each policy's table (by its first CPU), lowest OPP first. */
static int vcf_opps_show(struct seq_file *m, void *v)
{
	unsigned int c, i;

	seq_puts(m, "idx khz mv power_uw policy\n");
	for (c = 0; c < vcf_nr_clusters; c++) {
		const struct vcf_cluster *cl = &vcf_clusters[c];

		for (i = 0; i < cl->nr_opp; i++)
			seq_printf(m, "%u %u %u %llu %u\n", i, cl->opp[i].khz,
				   cl->opp[i].mv, cl->power_uw[i],
				   cpumask_first(&cl->cpus));
	}
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(vcf_opps);

static int vcf_cpus_show(struct seq_file *m, void *v)
{
	unsigned int cpu;

	seq_puts(m, "cpu khz busy stall_us lat_us stalls stalled_ms late missed owed_us dropped_ms overhead_us capacity\n");
	for_each_possible_cpu(cpu) {
		struct vcf_cpu *vc = per_cpu_ptr(&vcf_cpus, cpu);

		seq_printf(m, "%u %u %d %llu %llu %llu %llu %llu %llu %llu %llu %llu %lu\n",
			   cpu, vcf_get(cpu), READ_ONCE(vc->busy),
			   div_u64(READ_ONCE(vc->stall_ns), NSEC_PER_USEC),
			   div_u64(READ_ONCE(vc->lat_ns), NSEC_PER_USEC),
			   READ_ONCE(vc->emu.stalls),
			   div_u64(READ_ONCE(vc->emu.stalled_ns), NSEC_PER_MSEC),
			   READ_ONCE(vc->emu.late), READ_ONCE(vc->missed),
			   div_u64(READ_ONCE(vc->emu.owed_ns), NSEC_PER_USEC),
			   div_u64(READ_ONCE(vc->emu.dropped_ns), NSEC_PER_MSEC),
			   div_u64(vcf_overhead(vc), NSEC_PER_USEC),
			   arch_scale_cpu_capacity(cpu));
	}
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(vcf_cpus);

/*
 * overhead_us: the fixed o in us, 0 for the latency-based model. A
 * calibration writes it at run time, so that it need not reload the
 * driver under the governors it measures with.
 */
static int vcf_overhead_show(struct seq_file *m, void *v)
{
	seq_printf(m, "%llu\n",
		   div_u64(READ_ONCE(vcf_overhead_ns), NSEC_PER_USEC));
	return 0;
}

static int vcf_overhead_open(struct inode *inode, struct file *file)
{
	return single_open(file, vcf_overhead_show, NULL);
}

static ssize_t vcf_overhead_write(struct file *file, const char __user *ubuf,
				  size_t len, loff_t *ppos)
{
	unsigned int us;
	int ret;

	ret = kstrtouint_from_user(ubuf, len, 10, &us);
	if (ret)
		return ret;
	if ((u64)us * NSEC_PER_USEC > vcf_period_ns / 2)
		return -ERANGE;
	WRITE_ONCE(vcf_overhead_ns, (u64)us * NSEC_PER_USEC);
	return len;
}

static const struct file_operations vcf_overhead_fops = {
	.owner		= THIS_MODULE,
	.open		= vcf_overhead_open,
	.read		= seq_read,
	.llseek		= seq_lseek,
	.release	= single_release,
	.write		= vcf_overhead_write,
};

static void vcf_debugfs_init(void)
{
	vcf_debugfs = debugfs_create_dir("vcpufreq", NULL);
	debugfs_create_file("energy", 0400, vcf_debugfs, NULL,
			    &vcf_energy_fops);
	debugfs_create_file("opps", 0400, vcf_debugfs, NULL, &vcf_opps_fops);
	debugfs_create_file("cpus", 0400, vcf_debugfs, NULL, &vcf_cpus_fops);
	debugfs_create_file("overhead_us", 0600, vcf_debugfs, NULL,
			    &vcf_overhead_fops);
}

/* --------------------------------------------------------------------
 * Load and unload
 */

static int vcf_check_range(const char *name, unsigned int val,
			   unsigned int lo, unsigned int hi)
{
	if (val >= lo && val <= hi)
		return 0;
	pr_err("refusing to load: %s=%u outside %u..%u\n", name, val, lo, hi);
	return -EINVAL;
}

/* Check the parameters and build the platform they and the tree describe. */
static int vcf_parse_params(void)
{
	struct vcf_platform_params p = {
		.opps		= opps ?: "",
		.volts		= volts,
		.cluster_size	= cluster_size,
		.power_coeff	= power_coeff,
		.opps_given	= strcmp(opps ?: "", VCF_OPPS_DEF) || volts,
		.cluster_given	= cluster_size != 1,
		.coeff_given	= power_coeff != VCF_POWER_COEFF_DEF,
		.use_dt		= use_dt,
	};
	int ret;

	ret = vcf_check_range("cluster_size", cluster_size, 1, nr_cpu_ids) ?:
	      vcf_check_range("period_us", period_us, 200, 10000) ?:
	      vcf_check_range("latency_comp", latency_comp, 0, 200) ?:
	      vcf_check_range("overhead_us", overhead_us, 0, period_us / 2) ?:
	      vcf_check_range("transition_delay_us", transition_delay_us, 0,
			      100000) ?:
	      vcf_check_range("power_coeff", power_coeff, 1, 65535) ?:
	      vcf_check_range("idle_uw", idle_uw, 0, 10000000);
	if (ret)
		return ret;
	ret = vcf_platform_init(&p);
	if (ret)
		return ret;
	vcf_period_ns = (u64)period_us * NSEC_PER_USEC;
	vcf_overhead_ns = (u64)overhead_us * NSEC_PER_USEC;
	return 0;
}

static void vcf_cpu_state_init(void)
{
	u64 now = ktime_get_ns();
	unsigned int cpu;

	for_each_possible_cpu(cpu) {
		struct vcf_cpu *vc = per_cpu_ptr(&vcf_cpus, cpu);

		memset(vc, 0, sizeof(*vc));
		hrtimer_init(&vc->timer, CLOCK_MONOTONIC,
			     HRTIMER_MODE_REL_PINNED_HARD);
		vc->timer.function = vcf_stall_fn;
		vc->cpu = cpu;
		raw_spin_lock_init(&vc->lock);
		vc->remain_ns = -1;
		vc->opp = vcf_cluster_of(cpu)->nr_opp - 1;
		/* unknown until the first switch; idle is the safe guess */
		vc->last_ns = now;
	}
}

/*
 * CPU hotplug. Tasks still run on an outgoing CPU after this state's
 * teardown, but the switch probe no longer starts its timer, and the one
 * running is cancelled here, on that CPU, before it could migrate.
 */
static enum cpuhp_state vcf_hp_state;

static int vcf_cpu_online(unsigned int cpu)
{
	WRITE_ONCE(per_cpu(vcf_cpus, cpu).online, true);
	return 0;
}

static int vcf_cpu_offline(unsigned int cpu)
{
	struct vcf_cpu *vc = per_cpu_ptr(&vcf_cpus, cpu);

	WRITE_ONCE(vc->online, false);
	hrtimer_cancel(&vc->timer);
	return 0;
}

/*
 * Stop every emulation timer. Callers detached the probe first, so nothing
 * re-arms them. No ->exit callback: the driver is gone when this runs.
 */
static void vcf_cpu_state_exit(void)
{
	unsigned int cpu;

	if (vcf_hp_state > 0)
		cpuhp_remove_state(vcf_hp_state);
	vcf_hp_state = 0;
	for_each_possible_cpu(cpu)
		hrtimer_cancel(&per_cpu(vcf_cpus, cpu).timer);
}

/*
 * The cpufreq core keeps a driver whose ->init() failed on some CPUs (out
 * of memory, say) and leaves those CPUs without a policy. That is not the
 * platform the parameters describe, and a test or a governor comparison
 * on it would be silently wrong: the load fails instead.
 */
static int __init vcf_check_policies(void)
{
	struct cpufreq_policy *policy;
	unsigned int cpu;
	int ret = 0;

	cpus_read_lock();
	for_each_online_cpu(cpu) {
		policy = cpufreq_cpu_get(cpu);
		if (!policy) {
			pr_err("cpu%u has no policy (its setup failed)\n", cpu);
			ret = -ENODEV;
			break;
		}
		cpufreq_cpu_put(policy);
	}
	cpus_read_unlock();
	return ret;
}

/*
 * The kernel rescales CPU capacities from the policies' fmax once they
 * all exist (arch_topology on arm64): the stalls set at each policy's
 * ->init() used the capacities from before. Under each CPU's lock, so a
 * governor's change in between is not undone.
 */
static void __init vcf_retune(void)
{
	unsigned long flags;
	unsigned int cpu;

	if (!emulate)
		return;
	for_each_possible_cpu(cpu) {
		struct vcf_cpu *vc = per_cpu_ptr(&vcf_cpus, cpu);

		raw_spin_lock_irqsave(&vc->lock, flags);
		WRITE_ONCE(vc->stall_ns,
			   vcf_cpu_stall_ns(cpu, vcf_cluster_of(cpu), vc->opp));
		raw_spin_unlock_irqrestore(&vc->lock, flags);
	}
}

static void __init vcf_announce(void)
{
	unsigned int c;

	pr_info("%u policies from the %s, %s, emulation %s (period %u us)\n",
		vcf_nr_clusters, vcf_platform_source(),
		fast_switch ? "fast_switch" : "target_index",
		emulate ? "on" : "off", period_us);
	for (c = 0; c < vcf_nr_clusters; c++) {
		const struct vcf_cluster *cl = &vcf_clusters[c];

		if (!cl->nr_opp)
			continue;
		pr_info("policy%u: cpus %*pbl, %u OPPs %u..%u kHz, power_coeff %u, capacity %lu\n",
			cpumask_first(&cl->cpus), cpumask_pr_args(&cl->cpus),
			cl->nr_opp, cl->opp[0].khz, vcf_cluster_fmax(cl),
			cl->power_coeff,
			arch_scale_cpu_capacity(cpumask_first(&cl->cpus)));
	}
}

static int __init vcf_init(void)
{
	const char *bound;
	int ret;

	ret = vcf_parse_params();
	if (ret)
		return ret;

	bound = cpufreq_get_current_driver();
	if (bound) {
		pr_err("refusing to load: cpufreq driver '%s' is already bound\n",
		       bound);
		ret = -EBUSY;
		goto err_platform;
	}

	vcf_tp_switch = ut_tp_find("sched_switch");
	if (!vcf_tp_switch) {
		pr_err("refusing to load: no sched_switch tracepoint\n");
		ret = -ENOENT;
		goto err_platform;
	}

	vcf_cpu_state_init();
	/* marks every online CPU online */
	ret = cpuhp_setup_state(CPUHP_AP_ONLINE_DYN, "vcpufreq:online",
				vcf_cpu_online, vcf_cpu_offline);
	if (ret < 0)
		goto err_platform;
	vcf_hp_state = ret;
	ret = tracepoint_probe_register(vcf_tp_switch, vcf_probe_switch, NULL);
	if (ret) {
		pr_err("cannot attach to sched_switch: %d\n", ret);
		vcf_cpu_state_exit();
		goto err_platform;
	}

	vcf_debugfs_init();

	ret = cpufreq_register_driver(&vcf_driver);
	if (ret) {
		pr_err("cpufreq_register_driver failed: %d\n", ret);
		goto err_unregister_probe;
	}
	ret = vcf_check_policies();
	if (ret) {
		cpufreq_unregister_driver(&vcf_driver);
		goto err_unregister_probe;
	}
	vcf_retune();
	vcf_announce();
	return 0;

err_unregister_probe:
	debugfs_remove_recursive(vcf_debugfs);
	tracepoint_probe_unregister(vcf_tp_switch, vcf_probe_switch, NULL);
	tracepoint_synchronize_unregister();
	vcf_cpu_state_exit();
err_platform:
	vcf_platform_exit();
	return ret;
}

static void __exit vcf_exit(void)
{
	cpufreq_unregister_driver(&vcf_driver);
	debugfs_remove_recursive(vcf_debugfs);
	tracepoint_probe_unregister(vcf_tp_switch, vcf_probe_switch, NULL);
	tracepoint_synchronize_unregister();
	vcf_cpu_state_exit();
	vcf_platform_exit();
}

module_init(vcf_init);
module_exit(vcf_exit);

MODULE_DESCRIPTION("Virtual cpufreq platform with throughput emulation and an energy meter");
MODULE_AUTHOR("utiltrack developers");
MODULE_LICENSE("GPL");
