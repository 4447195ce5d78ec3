// SPDX-License-Identifier: GPL-2.0
/*
 * opp.c - operating-point tables and the power model of emulated platforms.
 *
 * Parsing lives here rather than in the driver so that the exact code that
 * vets a module parameter is unit-tested on the host. The power model is
 * the one device trees describe with dynamic-power-coefficient:
 *
 *   P [uW] = C [uW/MHz/V^2] * V^2 * f [MHz]
 */
#include <utiltrack/opp.h>

/* Voltages assigned when the user gives frequencies only. */
#define UT_OPP_DEFAULT_MV_LO	600U
#define UT_OPP_DEFAULT_MV_HI	1100U

static bool ut_opp_is_sep(char c)
{
	return c == ',' || c == ' ' || c == '\t' || c == '\n';
}

static int ut_opp_parse_u32(const char **sp, u32 *val)
{
	const char *s = *sp;
	u64 v = 0;

	if (*s < '0' || *s > '9')
		return -EINVAL;
	while (*s >= '0' && *s <= '9') {
		v = v * 10 + (u64)(*s - '0');
		if (v > U32_MAX)
			return -ERANGE;
		s++;
	}
	if (*s && !ut_opp_is_sep(*s))
		return -EINVAL;
	*val = (u32)v;
	*sp = s;
	return 0;
}

/**
 * ut_opp_parse_list - parse "a,b,c" (commas or blanks) into unsigned ints
 * @s: NUL-terminated text
 * @out: destination, @max entries
 * @max: capacity of @out
 * @n: number of values parsed
 *
 * Return: 0, -EINVAL on empty or non-numeric text, -ERANGE on a value above
 * U32_MAX, -E2BIG on more than @max values.
 */
int ut_opp_parse_list(const char *s, u32 *out, unsigned int max,
		      unsigned int *n)
{
	unsigned int count = 0;
	int ret;

	for (;;) {
		while (*s && ut_opp_is_sep(*s))
			s++;
		if (!*s)
			break;
		if (count == max)
			return -E2BIG;
		ret = ut_opp_parse_u32(&s, &out[count]);
		if (ret)
			return ret;
		count++;
	}
	if (!count)
		return -EINVAL;
	*n = count;
	return 0;
}

static u32 ut_opp_default_mv(u32 khz, u32 lo, u32 hi)
{
	u64 span = UT_OPP_DEFAULT_MV_HI - UT_OPP_DEFAULT_MV_LO;

	if (hi == lo)
		return UT_OPP_DEFAULT_MV_HI;
	return UT_OPP_DEFAULT_MV_LO + (u32)div_u64(span * (khz - lo), hi - lo);
}

/**
 * ut_opp_build - validate a frequency list (and optional voltages) into a table
 * @opp: destination, UT_OPP_MAX entries
 * @khz: frequencies, strictly ascending
 * @nr_khz: how many
 * @mv: voltages, one per frequency and non-decreasing, or NULL for a default
 *      linear ramp
 * @nr_mv: how many voltages (ignored when @mv is NULL)
 * @why: set to a human-readable reason on failure
 *
 * Return: 0 or -EINVAL.
 */
int ut_opp_build(struct ut_opp *opp, const u32 *khz, unsigned int nr_khz,
		 const u32 *mv, unsigned int nr_mv, const char **why)
{
	unsigned int i;

	if (nr_khz < UT_OPP_MIN || nr_khz > UT_OPP_MAX) {
		*why = "needs 2 to 16 frequencies";
		return -EINVAL;
	}
	if (mv && nr_mv != nr_khz) {
		*why = "needs exactly one voltage per frequency";
		return -EINVAL;
	}
	for (i = 0; i < nr_khz; i++) {
		if (khz[i] < UT_OPP_KHZ_MIN || khz[i] > UT_OPP_KHZ_MAX) {
			*why = "frequency outside 10000..10000000 kHz";
			return -EINVAL;
		}
		if (i && khz[i] <= khz[i - 1]) {
			*why = "frequencies must be strictly ascending";
			return -EINVAL;
		}
		if (!mv)
			continue;
		if (mv[i] < UT_OPP_MV_MIN || mv[i] > UT_OPP_MV_MAX) {
			*why = "voltage outside 300..2000 mV";
			return -EINVAL;
		}
		if (i && mv[i] < mv[i - 1]) {
			*why = "voltages must not decrease with frequency";
			return -EINVAL;
		}
	}
	for (i = 0; i < nr_khz; i++) {
		opp[i].khz = khz[i];
		opp[i].mv = mv ? mv[i] :
			ut_opp_default_mv(khz[i], khz[0], khz[nr_khz - 1]);
	}
	return 0;
}

/**
 * ut_opp_power_uw - dynamic power of one busy CPU at an operating point
 * @coeff: dynamic-power-coefficient, uW/MHz/V^2
 * @opp: the operating point
 *
 * C * (mV/1000)^2 * (kHz/1000) = C * mV^2 * kHz / 10^9; with the table
 * bounds above and coeff < 2^16 the product stays below 2^64.
 */
u64 ut_opp_power_uw(u32 coeff, const struct ut_opp *opp)
{
	u64 p = (u64)coeff * opp->mv * opp->mv;

	return div_u64(p * opp->khz, 1000000000U);
}

/**
 * ut_opp_energy_uj - energy spent at a constant power over a time
 * @ns: duration
 * @power_uw: power
 *
 * us * uW = 10^-12 J = 10^-6 uJ. Working in microseconds keeps hours of
 * busy time at watts of power far from overflow.
 */
u64 ut_opp_energy_uj(u64 ns, u64 power_uw)
{
	return div_u64(div_u64(ns, 1000) * power_uw, 1000000);
}
