// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * uburma_kunit.ko: the KUnit suites of uburma, run when the module loads.
 */
#include <linux/module.h>

MODULE_DESCRIPTION("KUnit tests for uburma");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);
