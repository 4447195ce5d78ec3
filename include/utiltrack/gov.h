/* SPDX-License-Identifier: GPL-2.0 */
/*
 * gov.h - the governor's decisions that are plain algorithm: tunable
 * parsing and schedutil-style I/O-wait boosting.
 *
 * Plain C (see shim.h): the governor, the KUnit suites and the host
 * tests use these very functions.
 */
#ifndef _UTILTRACK_GOV_H
#define _UTILTRACK_GOV_H

#include <utiltrack/shim.h>

/* a sysfs store is at most a page; anything longer is not a value */
#define UT_GOV_INPUT_MAX	64

/*
 * A decimal unsigned integer in [@min, @max], optionally followed by one
 * newline (what `echo` writes). No sign, no spaces, no base prefix.
 * Return: 0 with *@out set, or -EINVAL (nothing written to *@out).
 */
int ut_gov_parse_uint(const char *buf, size_t count, u32 min, u32 max,
		      u32 *out);

/*
 * One name of [A-Za-z0-9_] (a tracker's), 1..@len - 1 characters, optionally followed by
 * one newline, copied NUL-terminated into @out (@len bytes).
 * Return: 0, or -EINVAL (nothing written to @out).
 */
int ut_gov_parse_name(const char *buf, size_t count, char *out, size_t len);

/* The index of @buf (a name as above) in @names[@n], or -EINVAL. */
int ut_gov_parse_choice(const char *buf, size_t count,
			const char * const *names, unsigned int n);

/*
 * I/O-wait boost, schedutil's semantics: a wakeup from I/O asks for a
 * boost that starts at @min (capacity units) and doubles at each such
 * wakeup within a tick of the last update, up to 1024; an update without
 * a new request halves it; a CPU idle for over a tick loses it.
 */
struct ut_iowait {
	u32 boost;		/* 0, or @min..1024 */
	bool pending;		/* requested since last applied */
	u64 last_update;	/* ns */
};

void ut_iowait_request(struct ut_iowait *io, u64 now, bool iowait, u32 min,
		       u64 tick_ns);
/* The boost to apply now (0..1024), updating the decay state. */
u32 ut_iowait_apply(struct ut_iowait *io, u64 now, u32 min, u64 tick_ns);

#endif /* _UTILTRACK_GOV_H */
