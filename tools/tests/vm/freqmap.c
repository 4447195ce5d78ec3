// SPDX-License-Identifier: GPL-2.0
/*
 * freqmap - check governor decisions against the core's own mapping.
 *
 *   freqmap HEADROOM_PCT plain|capped < DECISIONS
 *
 * DECISIONS: one "util ref cap requested" line per utiltrack_freq event.
 * Each request must be exactly what module/core/freq.c (compiled in
 * here, unchanged) maps util to at that reference and capacity: plain is
 * ut_freq_map(), the mapping up to 6.7; capped is ut_freq_map_capped(),
 * the one since 6.8. The caller picks by the kernel's version, so a
 * governor that used the wrong one, or changed a request after mapping,
 * fails. Prints "freqmap: N checked, M wrong" and the first wrong lines;
 * exit status 1 if any is wrong or none was checked.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../../module/core/freq.c"

int main(int argc, char **argv)
{
	unsigned int util, ref, cap, req, headroom, want;
	unsigned long checked = 0, wrong = 0;
	int capped;

	if (argc != 3 || (strcmp(argv[2], "plain") && strcmp(argv[2], "capped"))) {
		fprintf(stderr, "usage: freqmap HEADROOM_PCT plain|capped\n");
		return 2;
	}
	headroom = strtoul(argv[1], NULL, 10);
	capped = !strcmp(argv[2], "capped");
	while (scanf("%u %u %u %u", &util, &ref, &cap, &req) == 4) {
		want = capped ? ut_freq_map_capped(util, ref, cap, headroom) :
				ut_freq_map(util, ref, cap, headroom);
		checked++;
		if (req != want && ++wrong <= 5)
			printf("freqmap: util %u ref %u cap %u: requested %u, map %u\n",
			       util, ref, cap, req, want);
	}
	printf("freqmap: %lu checked, %lu wrong\n", checked, wrong);
	return !checked || wrong;
}
