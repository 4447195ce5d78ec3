/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kobject.h - kobject_init_and_add() takes a const kobj_type since 6.2.
 */
#ifndef _UTILTRACK_COMPAT_KOBJECT_H
#define _UTILTRACK_COMPAT_KOBJECT_H

#include <linux/kobject.h>
#include "compat/version.h"

#if UT_KERNEL_GE(6, 2, 0)
#define UT_KOBJ_TYPE_CONST	const
#else
#define UT_KOBJ_TYPE_CONST
#endif

#endif /* _UTILTRACK_COMPAT_KOBJECT_H */
