// SPDX-License-Identifier: GPL-2.0
/*
 * main.c - runs every registered host test, one line per test.
 */
#include <string.h>
#include "ut_test.h"

int ut_test_failed;
static struct ut_test *ut_tests, **ut_tail = &ut_tests;

void ut_test_register(struct ut_test *t)
{
	*ut_tail = t;
	ut_tail = &t->next;
}

int main(int argc, char **argv)
{
	int passed = 0, failed = 0;
	struct ut_test *t;

	for (t = ut_tests; t; t = t->next) {
		if (argc > 1 && !strstr(t->name, argv[1]))
			continue;
		ut_test_failed = 0;
		t->fn();
		printf("%s %s\n", ut_test_failed ? "not ok" : "ok", t->name);
		if (ut_test_failed)
			failed++;
		else
			passed++;
	}
	printf("host: %d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
