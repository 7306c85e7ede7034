// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * ubcore_kunit.ko: the KUnit suites of ubcore, run when the module loads.
 */
#include <linux/module.h>

MODULE_DESCRIPTION("KUnit tests for ubcore");
MODULE_LICENSE("GPL");
