// SPDX-License-Identifier: GPL-2.0
/*
 * util_est.c - the kernel's util_est_update(), for every version's rules
 * (see include/utiltrack/util_est.h).
 */
#include <utiltrack/util_est.h>

static bool ut_util_est_within(u32 a, u32 b)
{
	return (a > b ? a - b : b - a) < UT_UTIL_EST_MARGIN;
}

/*
 * Up to 6.7: the last sleep's util is kept with the EWMA. A sample within
 * the margin of the EWMA leaves it alone; it is stored (and marks the
 * task unchanged) only when it moved the last sleep's util by the margin.
 * Returns false where the kernel returns without storing anything.
 */
static bool ut_util_est_near_last(struct ut_util_est *ue, u32 util)
{
	if (!ut_util_est_within(util, ue->ewma))
		return true;
	if (ut_util_est_within(ue->last, util))
		return false;
	ue->last = util;
	ue->unchanged = true;
	return false;
}

void ut_util_est_sleep(const struct ut_util_est_rules *r,
		       struct ut_util_est *ue, u32 util, u32 runnable,
		       u32 capacity)
{
	/* no PELT period since the last sample: not a new one */
	if (ue->unchanged)
		return;
	/* increases are followed at once */
	if (ue->ewma < util || (!r->max_with_last && ue->ewma == util)) {
		ue->ewma = util;
		goto done;
	}
	if (r->max_with_last) {
		if (!ut_util_est_near_last(ue, util))
			return;
	} else if (ue->ewma - util < UT_UTIL_EST_MARGIN) {
		goto done;
	}
	/* a task using the whole CPU may want more: no sample */
	if (util > capacity)
		return;
	/* it waited for the CPU, so its util understates what it wants */
	if (r->runnable_check && util + UT_UTIL_EST_MARGIN < runnable)
		goto done;
	/* ewma += (util - ewma) / 4, util below ewma here */
	ue->ewma = ((ue->ewma << UT_UTIL_EST_WEIGHT_SHIFT) - (ue->ewma - util)) >>
		   UT_UTIL_EST_WEIGHT_SHIFT;
done:
	ue->last = util;
	ue->unchanged = true;
}
