// SPDX-License-Identifier: GPL-2.0
/*
 * sleepers N - N threads that sleep until killed: live tasks for the
 * overhead benchmark's per-event cost at 100, 1,000 and 10,000 tasks.
 * Prints "sleepers N" once all N exist, then waits for a signal.
 * Small stacks keep 10,000 of them within a VM's memory.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static void *sleeper(void *arg)
{
	(void)arg;
	for (;;)
		pause();
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_attr_t attr;
	long i, n;

	n = argc == 2 ? strtol(argv[1], NULL, 10) : -1;
	if (n < 0 || n > 1000000) {
		fprintf(stderr, "usage: sleepers N\n");
		return 2;
	}
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, 64 * 1024);
	for (i = 0; i < n; i++) {
		pthread_t t;

		if (pthread_create(&t, &attr, sleeper, NULL)) {
			fprintf(stderr, "sleepers: only %ld threads\n", i);
			return 1;
		}
	}
	printf("sleepers %ld\n", n);
	fflush(stdout);
	for (;;)
		pause();
}
