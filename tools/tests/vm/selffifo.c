// SPDX-License-Identifier: GPL-2.0
/*
 * selffifo - a running task makes itself SCHED_FIFO, as rt-app does at
 * the start of an RT thread, and keeps running.
 *
 * usage: selffifo CPU SLEEP_MS CFS_MS FIFO_MS MARKER
 *
 * Pinned to CPU, it sleeps SLEEP_MS (the CPU falls idle), spins CFS_MS as
 * a CFS task, writes "selffifo: fifo" to MARKER (a trace_marker), makes
 * itself SCHED_FIFO (priority 10) without sleeping in between, spins
 * FIFO_MS more and writes "selffifo: done". No switch happens on its CPU
 * between the two marks unless something else wakes there.
 * Built static on the host by tools/tests/vm/run-all.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static void spin_ms(long ms)
{
	long long end = now_ns() + ms * 1000000LL;

	while (now_ns() < end)
		;
}

static void mark(int fd, const char *s)
{
	if (write(fd, s, strlen(s)) < 0)
		perror("selffifo: marker");
}

int main(int argc, char **argv)
{
	struct sched_param sp = { .sched_priority = 10 };
	cpu_set_t set;
	int fd;

	if (argc != 6) {
		fprintf(stderr, "usage: selffifo CPU SLEEP_MS CFS_MS FIFO_MS MARKER\n");
		return 2;
	}
	CPU_ZERO(&set);
	CPU_SET(atoi(argv[1]), &set);
	fd = open(argv[5], O_WRONLY);
	if (fd < 0 || sched_setaffinity(0, sizeof(set), &set)) {
		perror("selffifo");
		return 1;
	}
	usleep(atol(argv[2]) * 1000);
	spin_ms(atol(argv[3]));
	mark(fd, "selffifo: fifo");
	if (sched_setscheduler(0, SCHED_FIFO, &sp)) {
		perror("selffifo: sched_setscheduler");
		return 1;
	}
	spin_ms(atol(argv[4]));
	mark(fd, "selffifo: done");
	return 0;
}
