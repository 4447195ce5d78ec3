// SPDX-License-Identifier: GPL-2.0
/*
 * gov_stats.c - the utiltrack governor's statistics: debugfs "governor",
 * a row per policy using the governor. Decisions write them (lock-free
 * counters, READ_ONCE() here); this file only reads.
 */

#include <linux/debugfs.h>
#include <linux/seq_file.h>

#include "governor.h"

static void ut_gov_stats_row(struct seq_file *m, struct ut_gov_policy *gp)
{
	const struct ut_gov_stats *st = &gp->stats;
	char signal[UT_GOV_SIGNAL_LEN];

	ut_gov_read_signal(gp->tunables, signal);
	seq_printf(m, "%u %*pbl %s %llu %llu %llu %llu %u %u %u %u %llu\n",
		   gp->policy->cpu, cpumask_pr_args(gp->policy->cpus), signal,
		   READ_ONCE(st->decisions), READ_ONCE(st->transitions),
		   READ_ONCE(st->rt_max), READ_ONCE(st->no_signal),
		   READ_ONCE(st->last_util), READ_ONCE(st->last_raw_khz),
		   READ_ONCE(st->last_khz), READ_ONCE(gp->policy->cur),
		   READ_ONCE(st->held));
}

static int ut_gov_stats_show(struct seq_file *m, void *v)
{
	struct ut_gov_policy *gp;

	seq_puts(m, "policy cpus signal decisions transitions rt_max no_signal last_util last_raw_khz last_khz cur_khz held\n");
	mutex_lock(&ut_gov_global_lock);
	list_for_each_entry(gp, &ut_gov_policies, node)
		ut_gov_stats_row(m, gp);
	mutex_unlock(&ut_gov_global_lock);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(ut_gov_stats);

void ut_gov_debugfs(struct dentry *dir)
{
	debugfs_create_file("governor", 0400, dir, NULL, &ut_gov_stats_fops);
}
