// SPDX-License-Identifier: GPL-2.0
/*
 * freqmap - check governor decisions against the mapping, written out.
 *
 *   freqmap HEADROOM_PCT plain|capped [HISPEED_LOAD HISPEED_KHZ] < DECISIONS
 *
 * DECISIONS: one "util ref cap requested" line per utiltrack_freq event.
 * Each request must be exactly schedutil's mapping of util at that
 * reference and capacity, written out here from its definition rather
 * than taken from module/core/freq.c, so a formula off in the core fails
 * too: plain, up to 6.7, is ref * headroom / 100 * util / cap, each
 * division truncating; capped, since 6.8, asks for ref itself once
 * util * headroom / 100 reaches cap. The caller picks by the kernel's
 * version, so a governor that used the wrong one, or changed a request
 * after mapping, fails. With HISPEED_LOAD (percent of cap) a request
 * from that load up must be at least HISPEED_KHZ and one below it must
 * not be raised. Prints "freqmap:
 * N checked, M wrong, R raised, B just below" (B: decisions within a
 * tenth of the threshold under it whose map was under HISPEED_KHZ, those
 * that tell a threshold 10 % low) and the first wrong lines; exit status
 * 1 if any is wrong or none was checked.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* schedutil's mapping (get_next_freq()), the margin on the reference */
static unsigned int map_plain(unsigned int util, unsigned int ref,
			      unsigned int cap, unsigned int headroom)
{
	unsigned long long f = (unsigned long long)ref * headroom / 100;

	return cap ? f * util / cap : ref;
}

/* since 6.8 (sugov_effective_cpu_perf()): the margin capped at cap */
static unsigned int map_capped(unsigned int util, unsigned int ref,
			       unsigned int cap, unsigned int headroom)
{
	if (cap && (unsigned long long)util * headroom >= (unsigned long long)cap * 100)
		return ref;
	return map_plain(util, ref, cap, headroom);
}

int main(int argc, char **argv)
{
	unsigned int util, ref, cap, req, headroom, want, load = 0, hs = 0;
	unsigned long checked = 0, wrong = 0, raised = 0, below = 0;
	int capped;

	if ((argc != 3 && argc != 5) ||
	    (strcmp(argv[2], "plain") && strcmp(argv[2], "capped"))) {
		fprintf(stderr, "usage: freqmap HEADROOM_PCT plain|capped [HISPEED_LOAD HISPEED_KHZ]\n");
		return 2;
	}
	headroom = strtoul(argv[1], NULL, 10);
	capped = !strcmp(argv[2], "capped");
	if (argc == 5) {
		load = strtoul(argv[3], NULL, 10);
		hs = strtoul(argv[4], NULL, 10);
	}
	while (scanf("%u %u %u %u", &util, &ref, &cap, &req) == 4) {
		unsigned long long u100 = (unsigned long long)util * 100;

		want = capped ? map_capped(util, ref, cap, headroom) :
				map_plain(util, ref, cap, headroom);
		if (load && u100 >= (unsigned long long)cap * load && want < hs) {
			want = hs;
			raised++;
		} else if (load && want < hs && u100 < (unsigned long long)cap * load &&
			   u100 * 10 >= (unsigned long long)cap * load * 9) {
			below++;
		}
		checked++;
		if (req != want && ++wrong <= 5)
			printf("freqmap: util %u ref %u cap %u: requested %u, map %u\n",
			       util, ref, cap, req, want);
	}
	printf("freqmap: %lu checked, %lu wrong, %lu raised, %lu just below\n",
	       checked, wrong, raised, below);
	return !checked || wrong;
}
