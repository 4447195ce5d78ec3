/* SPDX-License-Identifier: GPL-2.0 */
/*
 * version.h - the one place kernel version ranges are spelled.
 *
 * Every other compat header tests UT_KERNEL_GE() instead of comparing
 * versions itself, so a grep for it finds all the differences.
 * UT_KERNEL_CODE comes from Kbuild (VERSION, PATCHLEVEL and SUBLEVEL of
 * the kernel being built against), encoded like KERNEL_VERSION().
 */
#ifndef _UTILTRACK_COMPAT_VERSION_H
#define _UTILTRACK_COMPAT_VERSION_H

#ifndef UT_KERNEL_CODE
#error "UT_KERNEL_CODE is set by Kbuild; build through it"
#endif

#define UT_KERNEL_GE(a, b, c)	\
	(UT_KERNEL_CODE >= (((a) << 16) + ((b) << 8) + (c)))

#endif /* _UTILTRACK_COMPAT_VERSION_H */
