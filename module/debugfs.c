// SPDX-License-Identifier: GPL-2.0
/*
 * debugfs.c - /sys/kernel/debug/utiltrack/, root-only.
 *
 * A stable text contract for scripts: whitespace-separated tables whose
 * first line names the columns; utilization in capacity units 0..1024.
 *
 *   cpus      cpu freq_khz capacity <columns of each enabled tracker>
 *   tasks     pid comm cpu class <columns of each enabled tracker>
 *   trackers  name state; write "enable NAME" or "disable NAME"
 *   stats     name value: events, slots, tracker checks
 *   check     name value: runs every enabled tracker's self-check now
 *   cost      name count mean_ns p50_ns p99_ns max_ns: each probe's cost
 *             while measuring, clock_read (what measuring adds), then
 *             tracker:NAME, each tracker's share; write 1 to measure
 *             the probes, 2 the trackers' shares too (either clears),
 *             0 to stop
 *   irqoff    site max_ns: the module's longest interrupts-off sections
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/debugfs.h>
#include <linux/kernel.h>
#include <linux/mutex.h>
#include <linux/seq_file.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "utiltrack.h"

#define UT_DBG_CMD_MAX	64

static struct dentry *ut_dbg_dir;

static const char * const ut_dbg_class_names[] = {
	[UT_CLASS_IDLE]		= "idle",
	[UT_CLASS_FAIR]		= "fair",
	[UT_CLASS_RT]		= "rt",
	[UT_CLASS_DL]		= "dl",
	[UT_CLASS_OTHER]	= "other",
	[UT_CLASS_STOP]		= "stop",
	[UT_CLASS_GOV]		= "gov",
};

/*
 * A root-writable table: NAME_show() and NAME_write() into NAME_fops,
 * as DEFINE_SHOW_ATTRIBUTE() does for read-only ones.
 */
#define UT_DBG_RW_ATTRIBUTE(__name)					\
static int __name##_open(struct inode *inode, struct file *file)	\
{									\
	return single_open(file, __name##_show, inode->i_private);	\
}									\
									\
static const struct file_operations __name##_fops = {			\
	.owner		= THIS_MODULE,					\
	.open		= __name##_open,				\
	.read		= seq_read,					\
	.llseek		= seq_lseek,					\
	.release	= single_release,				\
	.write		= __name##_write,				\
}

/*
 * A command written by the user into @buf of @size, NUL-terminated: empty,
 * too long or with an embedded NUL is -EINVAL, nothing changed.
 */
static int ut_dbg_copy_cmd(char *buf, size_t size, const char __user *ubuf,
			   size_t len)
{
	if (!len || len >= size)
		return -EINVAL;
	if (copy_from_user(buf, ubuf, len))
		return -EFAULT;
	buf[len] = '\0';
	return strlen(buf) == len ? 0 : -EINVAL;
}

/* ------------------------------------------------------------------ */
/* column headers */

static void ut_dbg_header_cpu(struct ut_tracker *tr, void *arg)
{
	struct seq_file *m = arg;
	int i;

	for (i = 0; tr->enabled && i < UT_MAX_COLS && tr->ops->cpu_cols[i]; i++)
		seq_printf(m, " %s", tr->ops->cpu_cols[i]);
}

static void ut_dbg_header_task(struct ut_tracker *tr, void *arg)
{
	struct seq_file *m = arg;
	int i;

	for (i = 0; tr->enabled && i < UT_MAX_COLS && tr->ops->task_cols[i]; i++)
		seq_printf(m, " %s", tr->ops->task_cols[i]);
}

static void ut_dbg_print_vals(struct seq_file *m, const char * const *cols,
			      const u64 *vals)
{
	int i;

	for (i = 0; i < UT_MAX_COLS && cols[i]; i++)
		seq_printf(m, " %llu", vals[i]);
}

/* ------------------------------------------------------------------ */
/* cpus */

struct ut_dbg_cpu_row {
	struct seq_file *m;
	int cpu;
};

/*
 * Read without advancing: pelt, rt and walt show their values as of the
 * CPU's last scheduler event, like the kernel's own sched/debug (and like
 * what a governor sees). c->now is the current time, for trackers that
 * want to project their value to it.
 */
static void ut_dbg_cpu_vals(struct ut_tracker *tr, void *arg)
{
	struct ut_dbg_cpu_row *row = arg;
	struct ut_cpu *uc = per_cpu_ptr(&ut_cpus, row->cpu);
	const struct ut_tracker_ops *ops = tr->ops;
	void *cd = ut_tr_cpu(tr, row->cpu);
	u64 vals[UT_MAX_COLS] = {};
	unsigned long flags;
	struct ut_ctx c;
	u64 t0;

	if (!tr->enabled || !ops->cpu_cols[0])
		return;
	raw_spin_lock_irqsave(&uc->track_lock, flags);
	t0 = ut_cost_begin();
	ut_probe_read_ctx(&c, row->cpu, ut_probe_cpu_now(row->cpu));
	if (ops->cpu_show)
		ops->cpu_show(tr, cd, &c, vals);
	ut_cost_irqoff_end(UT_SITE_DEBUGFS, t0);
	raw_spin_unlock_irqrestore(&uc->track_lock, flags);
	ut_dbg_print_vals(row->m, ops->cpu_cols, vals);
}

static int ut_dbg_cpus_show(struct seq_file *m, void *v)
{
	struct ut_dbg_cpu_row row = { .m = m };
	int cpu;

	mutex_lock(ut_reg_lock());
	seq_puts(m, "cpu freq_khz capacity");
	ut_reg_for_each(ut_dbg_header_cpu, m);
	seq_putc(m, '\n');
	for_each_online_cpu(cpu) {
		struct ut_cpu *uc = per_cpu_ptr(&ut_cpus, cpu);

		row.cpu = cpu;
		seq_printf(m, "%d %u %u", cpu, READ_ONCE(uc->cur_khz),
			   ut_inv_capacity(cpu));
		ut_reg_for_each(ut_dbg_cpu_vals, &row);
		seq_putc(m, '\n');
	}
	mutex_unlock(ut_reg_lock());
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(ut_dbg_cpus);

/* ------------------------------------------------------------------ */
/* tasks */

struct ut_dbg_task_row {
	struct seq_file *m;
	struct ut_slot *s;
};

/* Values as of the task's last event; data never set up reads as zeros. */
static void ut_dbg_task_vals(struct ut_tracker *tr, void *arg)
{
	struct ut_dbg_task_row *row = arg;
	const struct ut_tracker_ops *ops = tr->ops;
	u32 idx = ut_slot_idx(row->s);
	u64 vals[UT_MAX_COLS] = {};

	if (!tr->enabled || !ops->task_cols[0])
		return;
	if (ops->task_show && ut_tr_task_live(tr, row->s))
		ops->task_show(tr, ut_tr_task_raw(tr, idx), &row->s->t, vals);
	ut_dbg_print_vals(row->m, ops->task_cols, vals);
}

static int ut_dbg_tasks_show(struct seq_file *m, void *v)
{
	struct ut_dbg_task_row row = { .m = m };
	unsigned int i;

	mutex_lock(ut_reg_lock());
	seq_puts(m, "pid comm cpu class");
	ut_reg_for_each(ut_dbg_header_task, m);
	seq_putc(m, '\n');
	for (i = 0; i < ut_max_tasks; i++) {
		struct ut_slot *s = &ut_slots[i];
		char comm[TASK_COMM_LEN];
		int j;

		if (!READ_ONCE(s->p))
			continue;
		/* comm may hold blanks: keep the table whitespace-separated */
		strscpy(comm, s->comm, sizeof(comm));
		for (j = 0; comm[j]; j++)
			if (comm[j] == ' ' || comm[j] == '\t')
				comm[j] = '_';
		seq_printf(m, "%d %s %d %s", s->t.pid, comm[0] ? comm : "-",
			   s->t.cpu, ut_dbg_class_names[s->t.class]);
		row.s = s;
		ut_reg_for_each(ut_dbg_task_vals, &row);
		seq_putc(m, '\n');
	}
	mutex_unlock(ut_reg_lock());
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(ut_dbg_tasks);

/* ------------------------------------------------------------------ */
/* trackers */

static void ut_dbg_tracker_row(struct ut_tracker *tr, void *arg)
{
	seq_printf(arg, "%s %s\n", tr->ops->name,
		   tr->enabled ? "enabled" : "disabled");
}

static int ut_dbg_trackers_show(struct seq_file *m, void *v)
{
	mutex_lock(ut_reg_lock());
	seq_puts(m, "name state\n");
	ut_reg_for_each(ut_dbg_tracker_row, m);
	mutex_unlock(ut_reg_lock());
	return 0;
}

/*
 * "enable NAME" / "disable NAME". Anything else, an unknown tracker
 * included, is -EINVAL (as the governor's signal answers) and changes
 * nothing.
 */
static ssize_t ut_dbg_trackers_write(struct file *file, const char __user *ubuf,
				     size_t len, loff_t *ppos)
{
	char buf[UT_DBG_CMD_MAX], *cmd, *name, *extra;
	int ret;

	ret = ut_dbg_copy_cmd(buf, sizeof(buf), ubuf, len);
	if (ret)
		return ret;

	name = strim(buf);
	cmd = strsep(&name, " \t");
	name = name ? skip_spaces(name) : NULL;
	extra = name ? strpbrk(name, " \t") : NULL;
	if (!name || !*name || extra)
		return -EINVAL;

	if (!strcmp(cmd, "enable"))
		ret = ut_reg_enable(name);
	else if (!strcmp(cmd, "disable"))
		ret = ut_reg_disable(name);
	else
		ret = -EINVAL;
	return ret == -ENOENT ? -EINVAL : ret ?: len;
}

UT_DBG_RW_ATTRIBUTE(ut_dbg_trackers);

/* ------------------------------------------------------------------ */
/* stats */

static void ut_dbg_tracker_stats(struct ut_tracker *tr, void *arg)
{
	if (tr->enabled && tr->ops->stats_show)
		tr->ops->stats_show(tr, arg);
}

static int ut_dbg_stats_show(struct seq_file *m, void *v)
{
	u64 events[UT_TP_NR] = {}, calls = 0;
	struct ut_slot_stats st;
	int cpu, i;

	for_each_possible_cpu(cpu) {
		struct ut_cpu *uc = per_cpu_ptr(&ut_cpus, cpu);

		for (i = 0; i < UT_TP_NR; i++)
			events[i] += READ_ONCE(uc->events[i]);
	}
	ut_slot_stats(&st);

	seq_puts(m, "name value\n");
	for (i = 0; i < UT_TP_NR; i++) {
		seq_printf(m, "events_%s %llu\n", ut_tp_names[i], events[i]);
		calls += events[i];
	}
	seq_printf(m, "probe_calls %llu\n", calls);
	seq_printf(m, "cost_measurement %u\n", ut_cost_enabled());
	seq_printf(m, "slots_total %u\n", st.total);
	seq_printf(m, "slots_used %u\n", st.used);
	seq_printf(m, "slots_pending %u\n", st.pending);
	seq_printf(m, "slots_free %u\n", st.total - st.used - st.pending);
	seq_printf(m, "slots_allocs %llu\n", st.allocs);
	seq_printf(m, "slots_exhausted %llu\n", st.exhausted);
	seq_printf(m, "events_untracked %llu\n", st.untracked);
	seq_printf(m, "invariance %d\n", ut_invariance);

	mutex_lock(ut_reg_lock());
	ut_reg_for_each(ut_dbg_tracker_stats, m);
	mutex_unlock(ut_reg_lock());
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(ut_dbg_stats);

/* ------------------------------------------------------------------ */
/* cost: self-measurement, switched on and off here */

static void ut_dbg_cost_tracker(struct ut_tracker *tr, void *m)
{
	if (tr->enabled)
		ut_cost_tracker_show(m, tr);
}

/* the events' rows, then one per enabled tracker */
static int ut_dbg_cost_show(struct seq_file *m, void *v)
{
	int ret = ut_cost_show(m);

	if (ret)
		return ret;
	mutex_lock(ut_reg_lock());
	ut_reg_for_each(ut_dbg_cost_tracker, m);
	mutex_unlock(ut_reg_lock());
	return 0;
}

/*
 * "1" measures the probes, "2" the probes and each tracker's share (each
 * clearing the figures), "0" stops; one digit and an optional newline,
 * else -EINVAL.
 */
static ssize_t ut_dbg_cost_write(struct file *file, const char __user *ubuf,
				 size_t len, loff_t *ppos)
{
	char buf[4];
	int ret;

	ret = ut_dbg_copy_cmd(buf, sizeof(buf), ubuf, len);
	if (ret)
		return ret;
	if (buf[0] < '0' || buf[0] > '0' + UT_COST_TRACKERS ||
	    (buf[1] && strcmp(buf + 1, "\n")))
		return -EINVAL;
	ret = ut_cost_set(buf[0] - '0');
	return ret ?: len;
}

UT_DBG_RW_ATTRIBUTE(ut_dbg_cost);

static int ut_dbg_irqoff_show(struct seq_file *m, void *v)
{
	return ut_cost_irqoff_show(m);
}
DEFINE_SHOW_ATTRIBUTE(ut_dbg_irqoff);

/* ------------------------------------------------------------------ */
/* check: self-checks on demand */

static void ut_dbg_tracker_check(struct ut_tracker *tr, void *arg)
{
	if (tr->enabled && tr->ops->check)
		tr->ops->check(tr, arg);
}

static int ut_dbg_check_show(struct seq_file *m, void *v)
{
	seq_puts(m, "name value\n");
	mutex_lock(ut_reg_lock());
	ut_reg_for_each(ut_dbg_tracker_check, m);
	mutex_unlock(ut_reg_lock());
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(ut_dbg_check);

/*
 * Without debugfs (debugfs=off, lockdown, CONFIG_DEBUG_FS=n as on many
 * Android builds) the trackers, trace events and governor still work:
 * say so once and carry on.
 */
void ut_dbg_init(void)
{
	ut_dbg_dir = debugfs_create_dir("utiltrack", NULL);
	if (IS_ERR_OR_NULL(ut_dbg_dir)) {
		pr_info("debugfs unavailable (%ld): no /sys/kernel/debug/utiltrack; trace events and the governor still work\n",
			PTR_ERR(ut_dbg_dir));
		ut_dbg_dir = NULL;
		return;
	}
	debugfs_create_file("cpus", 0400, ut_dbg_dir, NULL, &ut_dbg_cpus_fops);
	debugfs_create_file("tasks", 0400, ut_dbg_dir, NULL, &ut_dbg_tasks_fops);
	debugfs_create_file("trackers", 0600, ut_dbg_dir, NULL,
			    &ut_dbg_trackers_fops);
	debugfs_create_file("stats", 0400, ut_dbg_dir, NULL, &ut_dbg_stats_fops);
	debugfs_create_file("check", 0400, ut_dbg_dir, NULL, &ut_dbg_check_fops);
	debugfs_create_file("cost", 0600, ut_dbg_dir, NULL, &ut_dbg_cost_fops);
	debugfs_create_file("irqoff", 0400, ut_dbg_dir, NULL, &ut_dbg_irqoff_fops);
	ut_gov_debugfs(ut_dbg_dir);
	ut_shadow_debugfs(ut_dbg_dir);
}

void ut_dbg_exit(void)
{
	debugfs_remove_recursive(ut_dbg_dir);
}
