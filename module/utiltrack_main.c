// SPDX-License-Identifier: GPL-2.0
/*
 * utiltrack_main.c - load and unload, module parameters.
 *
 * utiltrack computes several CPU utilization signals (PELT, RT PELT,
 * WALT, and those of tracker modules) side by side on a stock kernel,
 * from scheduler tracepoints. See utiltrack.h for the map of the files.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/moduleparam.h>

#include "utiltrack.h"

#define UT_MAX_TASKS_MIN	64
#define UT_MAX_TASKS_MAX	65536

unsigned int ut_max_tasks = 4096;
module_param_named(max_tasks, ut_max_tasks, uint, 0444);
MODULE_PARM_DESC(max_tasks, "Per-task slots, 64..65536 (default 4096)");

static char *trackers = "pelt,rt,walt";
module_param(trackers, charp, 0444);
MODULE_PARM_DESC(trackers, "Trackers enabled at load, comma-separated (default pelt,rt,walt)");

bool ut_invariance = true;
module_param_named(invariance, ut_invariance, bool, 0444);
MODULE_PARM_DESC(invariance, "Scale signals by frequency and CPU capacity (default 1)");

static const struct ut_tracker_ops * const ut_builtin[] = {
	&ut_pelt_tracker,
	&ut_rt_tracker,
	&ut_walt_tracker,
	&ut_util_est_tracker,
};

static int ut_check_params(void)
{
	if (ut_max_tasks < UT_MAX_TASKS_MIN || ut_max_tasks > UT_MAX_TASKS_MAX) {
		pr_err("refusing to load: max_tasks=%u outside %u..%u\n",
		       ut_max_tasks, UT_MAX_TASKS_MIN, UT_MAX_TASKS_MAX);
		return -EINVAL;
	}
	return ut_walt_param_check();
}

static int ut_register_builtins(void)
{
	int i, ret;

	for (i = 0; i < ARRAY_SIZE(ut_builtin); i++) {
		ret = ut_reg_register_builtin(ut_builtin[i]);
		if (ret)
			return ret;
	}
	return 0;
}

/*
 * Teardown order, here and on a failed load: nothing may reach an object
 * when it is freed. The governor and debugfs go first (their users hold
 * module references or debugfs' own), then every probe is detached and
 * waited for and the ticks cancelled, and only then the trackers' data,
 * the active set and the slots those probes and ticks read are freed.
 */
static int __init ut_init(void)
{
	int ret;

	ret = ut_check_params();
	if (ret)
		return ret;

	ret = ut_probe_cpu_init();
	if (ret)
		return ret;
	ret = ut_slot_init(ut_max_tasks);
	if (ret)
		goto err_cpu;
	ret = ut_inv_init();
	if (ret)
		goto err_slots;
	ret = ut_shadow_init();
	if (ret)
		goto err_inv;
	ret = ut_register_builtins();
	if (ret)
		goto err_trackers;
	/* the first tracker enabled attaches the probes and fills the slots */
	ret = ut_reg_init(trackers ?: "");
	if (ret)
		goto err_probes;
	ut_dbg_init();
	/* last: from here on a policy may start using the trackers */
	ret = ut_gov_init();
	if (ret)
		goto err_dbg;
	pr_info("loaded: trackers '%s', %u task slots, invariance %s\n",
		trackers ?: "", ut_max_tasks, ut_invariance ? "on" : "off");
	return 0;

err_dbg:
	ut_dbg_exit();
	/* a shadow write may have queued it */
	ut_gov_needs_flush();
err_probes:
	ut_probe_detach_all();
	ut_cost_exit();
err_trackers:
	ut_reg_exit();
	ut_shadow_exit();
err_inv:
	ut_inv_exit();
err_slots:
	ut_slot_exit();
err_cpu:
	ut_probe_cpu_exit();
	return ret;
}

static void __exit ut_exit(void)
{
	ut_gov_exit();
	ut_dbg_exit();
	/* a shadow write may have queued it after the governor went */
	ut_gov_needs_flush();
	ut_probe_detach_all();
	ut_cost_exit();
	ut_reg_exit();
	ut_shadow_exit();
	ut_inv_exit();
	ut_slot_exit();
	ut_probe_cpu_exit();
}

module_init(ut_init);
module_exit(ut_exit);

MODULE_DESCRIPTION("Pluggable CPU utilization tracking: PELT, RT and WALT side by side");
MODULE_AUTHOR("utiltrack developers");
MODULE_LICENSE("GPL");
