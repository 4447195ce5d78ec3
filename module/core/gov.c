// SPDX-License-Identifier: GPL-2.0
/*
 * gov.c - tunable parsing and I/O-wait boosting for the governor.
 *
 * Parsing is strict on purpose: sysfs stores from scripts must either
 * mean exactly one value or fail with -EINVAL and change nothing, so a
 * typo never leaves a governor half-configured.
 */
#include <utiltrack/gov.h>

/* Length of @buf without one trailing newline; 0 if it is too long. */
static size_t ut_gov_trim(const char *buf, size_t count)
{
	if (count && buf[count - 1] == '\n')
		count--;
	return count < UT_GOV_INPUT_MAX ? count : 0;
}

int ut_gov_parse_uint(const char *buf, size_t count, u32 min, u32 max,
		      u32 *out)
{
	size_t i, n = ut_gov_trim(buf, count);
	u64 v = 0;

	if (!n)
		return -EINVAL;
	for (i = 0; i < n; i++) {
		if (buf[i] < '0' || buf[i] > '9')
			return -EINVAL;
		v = v * 10 + (u64)(buf[i] - '0');
		if (v > U32_MAX)
			return -EINVAL;
	}
	if (v < min || v > max)
		return -EINVAL;
	*out = (u32)v;
	return 0;
}

static bool ut_gov_name_char(char ch)
{
	return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
	       (ch >= '0' && ch <= '9') || ch == '_';
}

int ut_gov_parse_name(const char *buf, size_t count, char *out, size_t len)
{
	size_t i, n = ut_gov_trim(buf, count);

	if (!n || n >= len)
		return -EINVAL;
	for (i = 0; i < n; i++) {
		if (!ut_gov_name_char(buf[i]))
			return -EINVAL;
	}
	for (i = 0; i < n; i++)
		out[i] = buf[i];
	out[n] = '\0';
	return 0;
}

int ut_gov_parse_choice(const char *buf, size_t count,
			const char * const *names, unsigned int n)
{
	char word[UT_GOV_INPUT_MAX];
	unsigned int i;
	size_t j;

	if (ut_gov_parse_name(buf, count, word, sizeof(word)))
		return -EINVAL;
	for (i = 0; i < n; i++) {
		for (j = 0; word[j] && word[j] == names[i][j]; j++)
			;
		if (!word[j] && !names[i][j])
			return (int)i;
	}
	return -EINVAL;
}

/*
 * Over a tick since the last update: the CPU was idle, so the I/O
 * pattern the boost was built for is over. Restart from @min if this
 * update is itself an I/O wakeup.
 */
static bool ut_iowait_reset(struct ut_iowait *io, u64 now, bool iowait,
			    u32 min, u64 tick_ns)
{
	if (now <= io->last_update || now - io->last_update <= tick_ns)
		return false;
	io->boost = iowait ? min : 0;
	io->pending = iowait;
	return true;
}

void ut_iowait_request(struct ut_iowait *io, u64 now, bool iowait, u32 min,
		       u64 tick_ns)
{
	bool done = io->boost && ut_iowait_reset(io, now, iowait, min, tick_ns);

	io->last_update = now;
	/* one doubling per request, however many updates see it */
	if (done || !iowait || io->pending)
		return;
	io->pending = true;
	if (io->boost)
		io->boost = io->boost * 2 < 1024 ? io->boost * 2 : 1024;
	else
		io->boost = min;
}

u32 ut_iowait_apply(struct ut_iowait *io, u64 now, u32 min, u64 tick_ns)
{
	if (!io->boost)
		return 0;
	if (ut_iowait_reset(io, now, false, min, tick_ns))
		return 0;
	if (!io->pending) {
		io->boost >>= 1;
		if (io->boost < min) {
			io->boost = 0;
			return 0;
		}
	}
	io->pending = false;
	return io->boost;
}
