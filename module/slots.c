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
 * Concurrency:
 *  - Lookup, the scheduler hot path, takes no lock: hash chains are read
 *    under RCU (every probe runs with preemption off, a read-side
 *    section). Writers (fork, free) serialize per bucket on hashed raw
 *    spinlocks, never one global lock.
 *  - A released slot is unlinked at once but reused only after an RCU
 *    grace period, so a lookup still walking through it follows a valid
 *    chain and never sees it handed to another task.
 *  - Free slots wait in small per-CPU caches, refilled from and spilled
 *    to a global list in batches: a fork touches the global list's lock
 *    once per batch. A CPU whose cache and the global list are empty
 *    takes from the caches of the CPUs marked in ut_slot_stocked (the
 *    mask changes only when a cache goes empty or stops being empty)
 *    before declaring exhaustion: once every slot is in use, a fork
 *    learns it from one scan of the mask, touching no other CPU's cache.
 *  - Counters are per CPU, summed when read.
 * A slot cannot be released while its task still has scheduler events,
 * so a slot found by a probe stays valid for the probe's duration.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/hash.h>
#include <linux/log2.h>
#include <linux/percpu.h>
#include <linux/rcupdate.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/vmalloc.h>

#include "utiltrack.h"

#define UT_SLOT_LOCK_BITS	8
/* per-CPU cache of free slots; refilled and spilled this many at once */
#define UT_SLOT_CACHE		16
#define UT_SLOT_BATCH		8

struct ut_slot_cache {
	raw_spinlock_t lock;
	unsigned int nr;
	int cpu;
	u32 idx[UT_SLOT_CACHE];
};

/* per-CPU counters; their sums are what ut_slot_stats() reports */
struct ut_slot_counts {
	u64 allocs;		/* slots handed to a task */
	u64 releases;		/* slots unlinked from a freed task */
	u64 recycled;		/* released slots back in a free list */
	u64 exhausted;		/* allocations that found no free slot */
	u64 untracked;		/* events about tasks without a slot */
};

struct ut_slot *ut_slots;
static unsigned int ut_nr_slots;
static u32 *ut_buckets;
static unsigned int ut_bucket_bits;
static raw_spinlock_t ut_bucket_locks[1 << UT_SLOT_LOCK_BITS];
static LLIST_HEAD(ut_free_slots);
/* serializes the consumers of ut_free_slots (llist_del_first) */
static DEFINE_RAW_SPINLOCK(ut_free_lock);
static struct ut_slot_cache __percpu *ut_slot_caches;
/* the CPUs whose cache holds a slot; a hint, exact under each cache's lock */
static struct cpumask ut_slot_stocked;
static struct ut_slot_counts __percpu *ut_slot_counts;

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
	int cpu;

	ut_nr_slots = nr;
	/* twice as many buckets as slots keeps chains short */
	ut_bucket_bits = ilog2(roundup_pow_of_two(nr * 2));
	ut_slots = vzalloc(array_size(nr, sizeof(*ut_slots)));
	ut_buckets = vmalloc(array_size(1U << ut_bucket_bits, sizeof(u32)));
	ut_slot_caches = alloc_percpu(struct ut_slot_cache);
	ut_slot_counts = alloc_percpu(struct ut_slot_counts);
	if (!ut_slots || !ut_buckets || !ut_slot_caches || !ut_slot_counts) {
		ut_slot_exit();
		return -ENOMEM;
	}
	memset(ut_buckets, 0xff, (size_t)sizeof(u32) << ut_bucket_bits);
	for (i = 0; i < ARRAY_SIZE(ut_bucket_locks); i++)
		raw_spin_lock_init(&ut_bucket_locks[i]);
	for_each_possible_cpu(cpu) {
		raw_spin_lock_init(&per_cpu_ptr(ut_slot_caches, cpu)->lock);
		per_cpu_ptr(ut_slot_caches, cpu)->cpu = cpu;
	}
	cpumask_clear(&ut_slot_stocked);
	init_llist_head(&ut_free_slots);
	/* push in reverse so low indexes are handed out first */
	for (i = nr; i-- > 0;)
		llist_add(&ut_slots[i].free_node, &ut_free_slots);
	return 0;
}

/*
 * Callers detached every probe first, so no release can queue another
 * grace-period callback; the barrier waits for those already queued,
 * which touch the slots and caches freed here.
 */
void ut_slot_exit(void)
{
	rcu_barrier();
	free_percpu(ut_slot_counts);
	free_percpu(ut_slot_caches);
	vfree(ut_buckets);
	vfree(ut_slots);
	ut_slot_counts = NULL;
	ut_slot_caches = NULL;
	ut_buckets = NULL;
	ut_slots = NULL;
}

/*
 * Lock-free chain walk: under RCU (or the bucket's lock). A slot being
 * unlinked concurrently still leads on to the rest of its chain.
 */
static struct ut_slot *ut_slot_lookup(u32 bucket, struct task_struct *p)
{
	u32 i;

	for (i = READ_ONCE(ut_buckets[bucket]); i != UT_SLOT_NONE;
	     i = READ_ONCE(ut_slots[i].next))
		if (READ_ONCE(ut_slots[i].p) == p)
			return &ut_slots[i];
	return NULL;
}

struct ut_slot *ut_slot_find(struct task_struct *p)
{
	struct ut_slot *s;

	rcu_read_lock();
	s = ut_slot_lookup(ut_slot_bucket(p), p);
	rcu_read_unlock();
	return s;
}

void ut_slot_set_comm(struct ut_slot *s, struct task_struct *p)
{
	/* a racing exec may tear the copy; debugfs shows it, nothing else */
	memcpy(s->comm, p->comm, sizeof(s->comm));
	s->comm[sizeof(s->comm) - 1] = '\0';
}

/*
 * @c's bit in ut_slot_stocked after its count changed (locked). Tested
 * first: the shared mask is written only when the cache empties or
 * fills again, not on every fork.
 */
static void ut_slot_cache_mark(struct ut_slot_cache *c)
{
	bool stocked = cpumask_test_cpu(c->cpu, &ut_slot_stocked);

	if (c->nr && !stocked)
		cpumask_set_cpu(c->cpu, &ut_slot_stocked);
	else if (!c->nr && stocked)
		cpumask_clear_cpu(c->cpu, &ut_slot_stocked);
}

/* Move up to UT_SLOT_BATCH slots from the global list to @c (locked). */
static void ut_slot_refill(struct ut_slot_cache *c)
{
	struct llist_node *n;

	raw_spin_lock(&ut_free_lock);
	while (c->nr < UT_SLOT_BATCH) {
		n = llist_del_first(&ut_free_slots);
		if (!n)
			break;
		c->idx[c->nr++] = ut_slot_idx(llist_entry(n, struct ut_slot,
							  free_node));
	}
	raw_spin_unlock(&ut_free_lock);
}

/*
 * One free slot from @c, refilled first if empty, or UT_SLOT_NONE. An
 * empty cache and an empty global list are seen without taking their
 * locks. A slot freed meanwhile may be missed, as it may when it lands
 * on a CPU already visited; the allocation is then counted as exhausted.
 */
static u32 ut_slot_take(struct ut_slot_cache *c, bool refill)
{
	u32 idx = UT_SLOT_NONE;

	/* a hint, read unlocked: a miss only costs a slot this once */
	if (!refill && !data_race(READ_ONCE(c->nr)))
		return UT_SLOT_NONE;
	raw_spin_lock(&c->lock);
	if (!c->nr && refill && !llist_empty(&ut_free_slots))
		ut_slot_refill(c);
	if (c->nr)
		idx = c->idx[--c->nr];
	ut_slot_cache_mark(c);
	raw_spin_unlock(&c->lock);
	return idx;
}

/* A slot from another CPU's cache: only those marked as holding one. */
static u32 ut_slot_steal(void)
{
	u32 idx = UT_SLOT_NONE;
	int cpu;

	for_each_cpu(cpu, &ut_slot_stocked) {
		idx = ut_slot_take(per_cpu_ptr(ut_slot_caches, cpu), false);
		if (idx != UT_SLOT_NONE)
			break;
	}
	return idx;
}

/* Interrupts off: this CPU's cache, the global list, then other CPUs'. */
static struct ut_slot *ut_slot_pop_free(void)
{
	u32 idx = ut_slot_take(this_cpu_ptr(ut_slot_caches), true);

	if (idx == UT_SLOT_NONE)
		idx = ut_slot_steal();
	return idx == UT_SLOT_NONE ? NULL : &ut_slots[idx];
}

/* A slot whose grace period ended: into this CPU's cache, or spilled. */
static void ut_slot_push_free(struct ut_slot *s)
{
	struct ut_slot_cache *c;
	unsigned long flags;

	local_irq_save(flags);
	c = this_cpu_ptr(ut_slot_caches);
	raw_spin_lock(&c->lock);
	if (c->nr == UT_SLOT_CACHE) {
		/* spill half, so the next frees stay local */
		while (c->nr > UT_SLOT_CACHE / 2)
			llist_add(&ut_slots[c->idx[--c->nr]].free_node,
				  &ut_free_slots);
	}
	c->idx[c->nr++] = ut_slot_idx(s);
	ut_slot_cache_mark(c);
	raw_spin_unlock(&c->lock);
	this_cpu_inc(ut_slot_counts->recycled);
	local_irq_restore(flags);
}

static void ut_slot_recycle_rcu(struct rcu_head *head)
{
	ut_slot_push_free(container_of(head, struct ut_slot, rcu));
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

	local_irq_save(flags);
	s = ut_slot_pop_free();
	if (!s) {
		this_cpu_inc(ut_slot_counts->exhausted);
		local_irq_restore(flags);
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
	WRITE_ONCE(s->p, p);

	raw_spin_lock(lock);
	old = ut_slot_lookup(bucket, p);
	if (!old) {
		s->next = ut_buckets[bucket];
		/* lock-free readers see the slot only once it is filled in */
		smp_store_release(&ut_buckets[bucket], ut_slot_idx(s));
		this_cpu_inc(ut_slot_counts->allocs);
	}
	raw_spin_unlock(lock);

	if (old) {
		/*
		 * The fork probe and the load-time scan both saw @p. No
		 * lookup ever reached @s: it needs no grace period.
		 */
		WRITE_ONCE(s->p, NULL);
		llist_add(&s->free_node, &ut_free_slots);
		s = old;
	}
	local_irq_restore(flags);
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
			/* s->next stays: a reader on @s walks on from it */
			WRITE_ONCE(*link, s->next);
			WRITE_ONCE(s->p, NULL);
			this_cpu_inc(ut_slot_counts->releases);
			break;
		}
	}
	raw_spin_unlock_irqrestore(lock, flags);

	if (s)
		call_rcu(&s->rcu, ut_slot_recycle_rcu);
}

/*
 * Forget every task: all slots free again. Only with no probe attached
 * and none running (every tracker off), so no lookup can be under way;
 * debugfs walks the slots under the registry's lock, which the caller
 * holds. Grace-period callbacks still queued are waited for first.
 */
void ut_slot_reset(void)
{
	unsigned int i, used = 0;
	int cpu;

	rcu_barrier();
	for_each_possible_cpu(cpu)
		per_cpu_ptr(ut_slot_caches, cpu)->nr = 0;
	cpumask_clear(&ut_slot_stocked);
	memset(ut_buckets, 0xff, (size_t)sizeof(u32) << ut_bucket_bits);
	init_llist_head(&ut_free_slots);
	for (i = ut_nr_slots; i-- > 0;) {
		used += !!ut_slots[i].p;
		WRITE_ONCE(ut_slots[i].p, NULL);
		llist_add(&ut_slots[i].free_node, &ut_free_slots);
	}
	/* the forgotten tasks count as released and recycled */
	this_cpu_add(ut_slot_counts->releases, used);
	this_cpu_add(ut_slot_counts->recycled, used);
}

/* Slots for every task alive now (the fork and free probes are attached). */
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
	this_cpu_inc(ut_slot_counts->untracked);
}

void ut_slot_stats(struct ut_slot_stats *st)
{
	u64 allocs = 0, releases = 0, recycled = 0;
	int cpu;

	memset(st, 0, sizeof(*st));
	for_each_possible_cpu(cpu) {
		struct ut_slot_counts *n = per_cpu_ptr(ut_slot_counts, cpu);

		allocs += READ_ONCE(n->allocs);
		releases += READ_ONCE(n->releases);
		recycled += READ_ONCE(n->recycled);
		st->exhausted += READ_ONCE(n->exhausted);
		st->untracked += READ_ONCE(n->untracked);
	}
	st->allocs = allocs;
	st->total = ut_nr_slots;
	/* sums of racing per-CPU reads: never below 0 */
	st->used = allocs > releases ? allocs - releases : 0;
	st->pending = releases > recycled ? releases - recycled : 0;
}
