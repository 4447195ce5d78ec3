// SPDX-License-Identifier: GPL-2.0
/*
 * failnth - run one operation with its Nth fault-injection point failed.
 *
 *   failnth N insmod MODULE.ko [PARAMS]   finit_module() of MODULE
 *   failnth N write FILE STRING           one write() of STRING to FILE
 *
 * The kernel's /proc/thread-self/fail-nth (CONFIG_FAULT_INJECTION) makes
 * the Nth slab or page allocation of this task fail (with failslab and
 * fail_page_alloc told not to ignore sleeping allocations). The file is
 * opened before N is armed, so only the operation itself counts.
 * Prints one line:
 *
 *   injected=0|1 rc=0|-ERRNO
 *
 * injected=0 means the operation made fewer than N allocations: a caller
 * raising N from 1 has then failed every one of them in turn.
 * Built static on the host by tools/tests/vm/run-all (busybox has no
 * way to arm fail-nth for one syscall).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

static int failnth_fd;

static void arm(const char *n)
{
	if (write(failnth_fd, n, strlen(n)) < 0) {
		perror("failnth: arm");
		exit(2);
	}
}

/* 1 when the armed fault was injected: the file then reads 0 */
static int disarm(void)
{
	char buf[32] = "";
	ssize_t len;

	len = pread(failnth_fd, buf, sizeof(buf) - 1, 0);
	if (len < 0) {
		perror("failnth: read");
		exit(2);
	}
	buf[len] = '\0';
	if (write(failnth_fd, "0", 1) < 0) {
		perror("failnth: disarm");
		exit(2);
	}
	return atoi(buf) == 0;
}

int main(int argc, char **argv)
{
	int fd, rc, injected;

	if (argc < 4 || (strcmp(argv[2], "insmod") && strcmp(argv[2], "write"))) {
		fprintf(stderr, "usage: failnth N insmod MODULE.ko [PARAMS]\n"
				"       failnth N write FILE STRING\n");
		return 2;
	}
	failnth_fd = open("/proc/thread-self/fail-nth", O_RDWR);
	if (failnth_fd < 0) {
		perror("failnth: /proc/thread-self/fail-nth");
		return 2;
	}
	if (!strcmp(argv[2], "insmod")) {
		fd = open(argv[3], O_RDONLY | O_CLOEXEC);
		if (fd < 0) {
			perror(argv[3]);
			return 2;
		}
		arm(argv[1]);
		rc = syscall(SYS_finit_module, fd, argc > 4 ? argv[4] : "", 0);
	} else {
		if (argc != 5) {
			fprintf(stderr, "failnth: write needs FILE STRING\n");
			return 2;
		}
		fd = open(argv[3], O_WRONLY | O_CLOEXEC);
		if (fd < 0) {
			perror(argv[3]);
			return 2;
		}
		arm(argv[1]);
		rc = write(fd, argv[4], strlen(argv[4]));
	}
	if (rc < 0)
		rc = -errno;
	else
		rc = 0;
	injected = disarm();
	printf("injected=%d rc=%d\n", injected, rc);
	return 0;
}
