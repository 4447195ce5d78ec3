/* SPDX-License-Identifier: GPL-2.0 */
/*
 * shim.h - the only environment the plain-C algorithm core may see.
 *
 * Files under module/core/ are compiled unchanged into the kernel modules,
 * the KUnit suites and the userspace tools. They include this header and
 * nothing else, so every kernel-only facility they use must be provided
 * here for both worlds.
 */
#ifndef _UTILTRACK_SHIM_H
#define _UTILTRACK_SHIM_H

#ifdef __KERNEL__

#include <linux/types.h>
#include <linux/errno.h>
#include <linux/math64.h>
#include <linux/limits.h>

#else /* userspace */

#include <stdbool.h>
#include <stddef.h>
#include <errno.h>
#include <linux/types.h>	/* the uapi __u32 family */

typedef __u8 u8;
typedef __u16 u16;
typedef __u32 u32;
typedef __u64 u64;
typedef __s32 s32;
typedef __s64 s64;

#ifndef U32_MAX
#define U32_MAX		((u32)~0U)
#endif
#ifndef U64_MAX
#define U64_MAX		((u64)~0ULL)
#endif

#ifdef UT_SHIM_DIV_EXTERN
/*
 * The 32-bit check (tools/tests/host, check-32bit): the helpers are left
 * undefined, so an object of the core that still needs libgcc's 64-bit
 * division (__udivdi3, __umoddi3), which 32-bit kernels do not have,
 * shows it among its undefined symbols.
 */
u64 div_u64(u64 dividend, u32 divisor);
u64 div_u64_rem(u64 dividend, u32 divisor, u32 *remainder);
u64 div64_u64(u64 dividend, u64 divisor);
u64 div64_u64_rem(u64 dividend, u64 divisor, u64 *remainder);
#else
static inline u64 div_u64(u64 dividend, u32 divisor)
{
	return dividend / divisor;
}

static inline u64 div_u64_rem(u64 dividend, u32 divisor, u32 *remainder)
{
	*remainder = dividend % divisor;
	return dividend / divisor;
}

static inline u64 div64_u64(u64 dividend, u64 divisor)
{
	return dividend / divisor;
}

static inline u64 div64_u64_rem(u64 dividend, u64 divisor, u64 *remainder)
{
	*remainder = dividend % divisor;
	return dividend / divisor;
}
#endif

/* (a * mul) >> shift without losing the product's top bits, shift <= 32 */
static inline u64 mul_u64_u32_shr(u64 a, u32 mul, unsigned int shift)
{
#ifdef __SIZEOF_INT128__
	return (u64)(((__uint128_t)a * mul) >> shift);
#else
	u64 lo = ((u64)(u32)a * mul) >> shift;
	u64 hi = (u64)(u32)(a >> 32) * mul;

	return shift ? lo + (hi << (32 - shift)) : lo + (hi << 32);
#endif
}

#endif /* __KERNEL__ */

#endif /* _UTILTRACK_SHIM_H */
