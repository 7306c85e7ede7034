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
/* One data path op of the provider: its calls and the last one's object. */
struct fake_dp_op {
	int calls;
	const void *obj;
};

/*
 * The data path calls that reached the provider, op by op, so that a test
 * sees which op a call reached and with what. Zeroed by fake_provider_dev().
 */
struct fake_dp_calls {
	struct fake_dp_op jfs_doorbell;
	struct fake_dp_op jfr_doorbell;
	struct fake_dp_op jetty_doorbell;
	struct fake_dp_op rearm_jfc;
	struct fake_dp_op flush_jfs;
	struct fake_dp_op flush_jetty;
	bool solicited_only;	/* of the last rearm_jfc */
	u32 max_cnt;		/* of the last flush_jfs or flush_jetty */
};

extern struct fake_dp_calls fake_dp;
/* Every data path op returns fake_dp_err (0 from fake_provider_dev()). */
extern int fake_dp_err;
/* What the flush ops report when they succeed; the test sets them. */
extern u32 fake_flush_first;
extern u32 fake_flush_cnt;

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

/* Management messages held by fake_send_mgmt() while fake_mgmt.hold. */
#define FAKE_MGMT_HOLD	8
struct fake_mgmt_msg {
	struct ubcore_device *dev;
	u8 type;
	u32 msg_id;
	u16 len;
	u8 body[64];
};

/*
 * The connection manager's sends: counted; dropped (lost) with .drop, or
 * those of type .drop_type (nonzero: enum uboe_mgmt_type); held with .hold
 * until fake_mgmt_release() delivers them in order. Zeroed by
 * fake_provider_dev().
 */
struct fake_mgmt {
	u32 sent;
	bool drop;
	u8 drop_type;
	bool hold;
	u32 held;
	struct fake_mgmt_msg msgs[FAKE_MGMT_HOLD];
};

extern struct fake_mgmt fake_mgmt;
void fake_mgmt_release(void);

struct ubcore_device *fake_provider_dev(struct kunit *test, const char *name_fmt,
					const struct ubcore_device_cap *cap);
void fake_provider_dev_free(struct ubcore_device *dev);
/* A user context on @dev and udata that carries it. */
struct ubcore_ucontext *fake_provider_uctx(struct kunit *test,
					   struct ubcore_device *dev,
					   struct ubcore_udata *udata);

#endif /* _UBCORE_KUNIT_FAKE_PROVIDER_H */
