// SPDX-License-Identifier: GPL-2.0
/*
 * execthread - a second thread of a process execs PROGRAM [ARGS].
 *
 * The kernel's de_thread() gives the exec'ing thread the thread group
 * leader's pid and reaps the leader, so the program runs with the pid the
 * process started with while the task is the former second thread. The
 * thread's own tid is printed first ("tid N"), so a test can check that
 * a tracker showing tasks by pid follows the change.
 * Built static on the host by tools/tests/vm/run-all.
 */
#include <pthread.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <unistd.h>

static char **prog;

static void *thread(void *arg)
{
	(void)arg;
	printf("tid %ld\n", (long)syscall(SYS_gettid));
	fflush(stdout);
	/* leave time for the tid to be looked up as a task of its own */
	sleep(1);
	execv(prog[0], prog);
	perror("execthread: execv");
	_exit(2);
}

int main(int argc, char **argv)
{
	pthread_t t;

	if (argc < 2) {
		fprintf(stderr, "usage: execthread PROGRAM [ARGS]\n");
		return 2;
	}
	prog = argv + 1;
	if (pthread_create(&t, NULL, thread, NULL)) {
		perror("execthread: pthread_create");
		return 2;
	}
	for (;;)
		pause();
}
