/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * A provider for the object suites: every object is a plain allocation.
 */
#ifndef _UBCORE_KUNIT_FAKE_PROVIDER_H
#define _UBCORE_KUNIT_FAKE_PROVIDER_H

#include <kunit/test.h>

#include <ub/ubcore_device.h>

/* Made by fake_provider_dev(); modify ops fail with this when non-zero. */
extern int fake_modify_err;
/* Likewise for bind_jetty and unbind_jetty. */
extern int fake_bind_err;
extern int fake_unbind_err;
/* Data path calls that reached the provider. */
extern int fake_doorbells;
extern int fake_rearms;
/* What the flush ops report: first index FAKE_FLUSH_FIRST, up to 3 WQEs. */
#define FAKE_FLUSH_FIRST	7
#define FAKE_FLUSH_MAX		3

/*
 * The queue limits of the object suites' devices; each suite adds its own
 * object counts and reserved jetty IDs.
 */
#define FAKE_PROVIDER_QUEUE_CAP						\
	.max_jfc_depth = 1024,						\
	.max_jfs_depth = 512,						\
	.max_jfr_depth = 256,						\
	.max_jfs_sge = 4,						\
	.max_jfs_rsge = 1,						\
	.max_jfr_sge = 2,						\
	.max_jfs_inline_size = 128,					\
	.max_token_id = 16,						\
	.trans_mode = UBCORE_TM_RM | UBCORE_TM_RC

struct ubcore_device *fake_provider_dev(struct kunit *test, const char *name_fmt,
					const struct ubcore_device_cap *cap);
void fake_provider_dev_free(struct ubcore_device *dev);
/* A user context on @dev and udata that carries it. */
struct ubcore_ucontext *fake_provider_uctx(struct kunit *test,
					   struct ubcore_device *dev,
					   struct ubcore_udata *udata);

#endif /* _UBCORE_KUNIT_FAKE_PROVIDER_H */
