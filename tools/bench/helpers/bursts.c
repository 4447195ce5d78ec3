// SPDX-License-Identifier: GPL-2.0
/*
 * bursts - the efficiency benchmark's loads: fixed amounts of CPU work,
 * so that a governor's choice of frequency shows as how long the work
 * takes, and its energy as what the same work cost.
 *
 *   bursts calibrate
 *	prints "loops_per_ms N": the spin loop's rate on this CPU now (run
 *	it at fmax, so a "millisecond of work" is one at fmax)
 *   bursts run LOOPS_PER_MS WORK_MS SLEEP_MS N
 *	N times: WORK_MS of work, then SLEEP_MS asleep; prints each burst's
 *	wall time in microseconds, one per line
 *   bursts frames LOOPS_PER_MS WORK_MS PERIOD_US N
 *	N frames on a fixed grid of PERIOD_US: WORK_MS of work from the
 *	frame's start (or from the end of the one before, if that ran
 *	over), late when it ends past its period; prints "frames N late L"
 *
 * The loop is integer work on a volatile, so the compiler keeps every
 * iteration, and its rate follows the CPU's throughput as vcpufreq
 * emulates it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static volatile unsigned long sink;

static void spin(unsigned long loops)
{
	unsigned long i, s = 0;

	for (i = 0; i < loops; i++) {
		s += i ^ (s >> 3);
		sink = s;
	}
}

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static void sleep_until(long long t)
{
	struct timespec ts = { .tv_sec = t / 1000000000LL,
			       .tv_nsec = t % 1000000000LL };

	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
}

/*
 * The median of 5 runs of about 100 ms: long enough to pay what the work
 * pays (timer interrupts, the emulation's periods), which a short best-of
 * run would leave out and so size the bursts too long.
 */
static int calibrate(void)
{
	unsigned long loops = 1000000;
	long long t[5], x;
	int i, j;

	spin(loops);	/* translated and warm before it is timed */
	x = now_ns();
	spin(loops);
	x = now_ns() - x;
	if (x > 0)
		loops = loops * 100000000ULL / x;
	for (i = 0; i < 5; i++) {
		t[i] = now_ns();
		spin(loops);
		t[i] = now_ns() - t[i];
		for (j = i; j > 0 && t[j] < t[j - 1]; j--) {
			x = t[j];
			t[j] = t[j - 1];
			t[j - 1] = x;
		}
	}
	printf("loops_per_ms %llu\n", t[2] > 0 ? loops * 1000000ULL / t[2] : 0);
	return 0;
}

static unsigned long arg(const char *s)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || *end || end == s || !v) {
		fprintf(stderr, "bursts: '%s' is not a positive number\n", s);
		exit(2);
	}
	return v;
}

static int run(unsigned long lpm, unsigned long work_ms,
	       unsigned long sleep_ms, unsigned long n)
{
	long long t;

	while (n--) {
		t = now_ns();
		spin(lpm * work_ms);
		printf("%lld\n", (now_ns() - t) / 1000);
		sleep_until(now_ns() + sleep_ms * 1000000LL);
	}
	return 0;
}

static int frames(unsigned long lpm, unsigned long work_ms,
		  unsigned long period_us, unsigned long n)
{
	long long start = now_ns(), deadline;
	unsigned long i, late = 0;

	for (i = 0; i < n; i++) {
		deadline = start + (long long)(i + 1) * period_us * 1000;
		spin(lpm * work_ms);
		if (now_ns() > deadline)
			late++;
		else
			sleep_until(deadline);
	}
	printf("frames %lu late %lu\n", n, late);
	return 0;
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc == 2 && !strcmp(argv[1], "calibrate"))
		return calibrate();
	if (argc == 6 && !strcmp(argv[1], "run"))
		return run(arg(argv[2]), arg(argv[3]), arg(argv[4]), arg(argv[5]));
	if (argc == 6 && !strcmp(argv[1], "frames"))
		return frames(arg(argv[2]), arg(argv[3]), arg(argv[4]), arg(argv[5]));
	fprintf(stderr, "usage: bursts calibrate\n"
		"       bursts run LOOPS_PER_MS WORK_MS SLEEP_MS N\n"
		"       bursts frames LOOPS_PER_MS WORK_MS PERIOD_US N\n");
	return 2;
}
