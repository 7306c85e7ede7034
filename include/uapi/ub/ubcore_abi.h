/* SPDX-License-Identifier: GPL-2.0-only WITH Linux-syscall-note */
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * Facts of the ubcore kernel/user ABI that userspace checks before use.
 */
#ifndef _UAPI_UB_UBCORE_ABI_H
#define _UAPI_UB_UBCORE_ABI_H

/* Bumped on any incompatible change of the ioctl or sysfs ABI. */
#define UBCORE_ABI_VERSION	1

/* Name of the device class: /sys/class/ubcore */
#define UBCORE_CLASS_NAME	"ubcore"

#endif /* _UAPI_UB_UBCORE_ABI_H */
