// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * udma_kunit.ko: the KUnit suites of udma, run when the module loads.
 */
#include <linux/module.h>

MODULE_DESCRIPTION("KUnit tests for udma");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);
