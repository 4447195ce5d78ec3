// SPDX-License-Identifier: GPL-2.0
/*
 * slots.c - per-task state without touching task_struct.
 *
 * A stock kernel has no room for us in task_struct, so tasks get slots
 * from a preallocated array (max_tasks), found through a hash on the
 * task pointer. Allocation happens at fork (process context) and at load
 * for the tasks that already exist; release when the task_struct is
 * freed. Nothing here allocates memory after load.
 *
 * Concurrency: chains are protected by hashed raw spinlocks (never one
 * global lock); free slots sit on a lock-less list whose consumers (the
 * allocators, never the scheduler hot path) serialize on ut_slot_alloc_lock.
 * A slot cannot be released while its task still has scheduler events,
 * so a slot found by a probe stays valid for the probe's duration.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/hash.h>
#include <linux/log2.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/vmalloc.h>

#include "utiltrack.h"

#define UT_SLOT_LOCK_BITS	8

struct ut_slot *ut_slots;
static unsigned int ut_nr_slots;
static u32 *ut_buckets;
static unsigned int ut_bucket_bits;
static raw_spinlock_t ut_bucket_locks[1 << UT_SLOT_LOCK_BITS];
static LLIST_HEAD(ut_free_slots);
static DEFINE_RAW_SPINLOCK(ut_slot_alloc_lock);
static atomic_t ut_slots_used;
static atomic64_t ut_slots_exhausted;
static atomic64_t ut_untracked_events;

static u32 ut_slot_bucket(struct task_struct *p)
{
	return hash_ptr(p, ut_bucket_bits);
}

static raw_spinlock_t *ut_slot_lock_of(u32 bucket)
{
	return &ut_bucket_locks[bucket & ((1 << UT_SLOT_LOCK_BITS) - 1)];
}

int ut_slot_init(unsigned int nr)
{
	unsigned int i;

	ut_nr_slots = nr;
	/* twice as many buckets as slots keeps chains short */
	ut_bucket_bits = ilog2(roundup_pow_of_two(nr * 2));
	ut_slots = vzalloc(array_size(nr, sizeof(*ut_slots)));
	ut_buckets = vmalloc(array_size(1U << ut_bucket_bits, sizeof(u32)));
	if (!ut_slots || !ut_buckets) {
		vfree(ut_slots);
		vfree(ut_buckets);
		return -ENOMEM;
	}
	memset(ut_buckets, 0xff, (size_t)sizeof(u32) << ut_bucket_bits);
	for (i = 0; i < ARRAY_SIZE(ut_bucket_locks); i++)
		raw_spin_lock_init(&ut_bucket_locks[i]);
	init_llist_head(&ut_free_slots);
	/* push in reverse so low indexes are handed out first */
	for (i = nr; i-- > 0;)
		llist_add(&ut_slots[i].free_node, &ut_free_slots);
	atomic_set(&ut_slots_used, 0);
	atomic64_set(&ut_slots_exhausted, 0);
	atomic64_set(&ut_untracked_events, 0);
	return 0;
}

void ut_slot_exit(void)
{
	vfree(ut_buckets);
	vfree(ut_slots);
	ut_buckets = NULL;
	ut_slots = NULL;
}

/* Chain walk; the bucket's lock is held. */
static struct ut_slot *ut_slot_lookup(u32 bucket, struct task_struct *p)
{
	u32 i;

	for (i = ut_buckets[bucket]; i != UT_SLOT_NONE; i = ut_slots[i].next)
		if (ut_slots[i].p == p)
			return &ut_slots[i];
	return NULL;
}

struct ut_slot *ut_slot_find(struct task_struct *p)
{
	u32 bucket = ut_slot_bucket(p);
	raw_spinlock_t *lock = ut_slot_lock_of(bucket);
	struct ut_slot *s;
	unsigned long flags;

	raw_spin_lock_irqsave(lock, flags);
	s = ut_slot_lookup(bucket, p);
	raw_spin_unlock_irqrestore(lock, flags);
	return s;
}

void ut_slot_set_comm(struct ut_slot *s, struct task_struct *p)
{
	/* a racing exec may tear the copy; debugfs shows it, nothing else */
	memcpy(s->comm, p->comm, sizeof(s->comm));
	s->comm[sizeof(s->comm) - 1] = '\0';
}

static struct ut_slot *ut_slot_pop_free(void)
{
	struct llist_node *n;
	unsigned long flags;

	raw_spin_lock_irqsave(&ut_slot_alloc_lock, flags);
	n = llist_del_first(&ut_free_slots);
	raw_spin_unlock_irqrestore(&ut_slot_alloc_lock, flags);
	return n ? llist_entry(n, struct ut_slot, free_node) : NULL;
}

/*
 * Give @p a slot unless it has one. Exhaustion is counted, never silent:
 * the task simply goes untracked and its events are counted too.
 */
struct ut_slot *ut_slot_alloc(struct task_struct *p, bool is_new)
{
	u32 bucket = ut_slot_bucket(p);
	raw_spinlock_t *lock = ut_slot_lock_of(bucket);
	struct ut_slot *s, *old;
	unsigned long flags;

	s = ut_slot_pop_free();
	if (!s) {
		atomic64_inc(&ut_slots_exhausted);
		return NULL;
	}

	s->gen++;
	s->t.p = p;
	s->t.pid = p->pid;
	s->t.cpu = task_cpu(p);
	s->t.class = ut_probe_class_of(p);
	s->t.is_new = is_new;
	s->t.exec_at = 0;
	ut_slot_set_comm(s, p);

	raw_spin_lock_irqsave(lock, flags);
	old = ut_slot_lookup(bucket, p);
	if (!old) {
		WRITE_ONCE(s->p, p);
		s->next = ut_buckets[bucket];
		ut_buckets[bucket] = ut_slot_idx(s);
	}
	raw_spin_unlock_irqrestore(lock, flags);

	if (old) {
		/* the fork probe and the load-time scan both saw @p */
		llist_add(&s->free_node, &ut_free_slots);
		return old;
	}
	atomic_inc(&ut_slots_used);
	return s;
}

void ut_slot_release(struct task_struct *p)
{
	u32 bucket = ut_slot_bucket(p);
	raw_spinlock_t *lock = ut_slot_lock_of(bucket);
	struct ut_slot *s = NULL;
	unsigned long flags;
	u32 *link;

	raw_spin_lock_irqsave(lock, flags);
	for (link = &ut_buckets[bucket]; *link != UT_SLOT_NONE;
	     link = &ut_slots[*link].next) {
		if (ut_slots[*link].p == p) {
			s = &ut_slots[*link];
			*link = s->next;
			WRITE_ONCE(s->p, NULL);
			break;
		}
	}
	raw_spin_unlock_irqrestore(lock, flags);

	if (s) {
		llist_add(&s->free_node, &ut_free_slots);
		atomic_dec(&ut_slots_used);
	}
}

/* Slots for every task alive at load (the fork probe is already attached). */
void ut_slot_fill_existing(void)
{
	struct task_struct *g, *p;

	rcu_read_lock();
	for_each_process_thread(g, p) {
		if (!ut_slot_find(p))
			ut_slot_alloc(p, false);
	}
	rcu_read_unlock();
}

void ut_slot_count_untracked(void)
{
	atomic64_inc(&ut_untracked_events);
}

void ut_slot_stats(struct ut_slot_stats *st)
{
	st->total = ut_nr_slots;
	st->used = atomic_read(&ut_slots_used);
	st->exhausted = atomic64_read(&ut_slots_exhausted);
	st->untracked = atomic64_read(&ut_untracked_events);
}
