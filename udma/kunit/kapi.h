/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * udma_kapi_kunit.ko's fixture: two kernel jetties A and B on udma0, their
 * JFCs, JFRs, segments and imports (kapi_kunit.c), shared by its suites:
 * the local path (kapi_kunit.c) and the same operations through UBoE
 * (wire_kunit.c).
 */
#ifndef _UDMA_KUNIT_KAPI_H
#define _UDMA_KUNIT_KAPI_H

#include <kunit/test.h>
#include <linux/completion.h>

#include <ub/ubcore_device.h>
#include <ub/ubcore_dp.h>

#define KAPI_DEV	"udma0"
#define KAPI_BUF_LEN	4096
#define KAPI_DEPTH	64
#define KAPI_MAX_SGE	4
/* A reserved (well-known) jetty ID, which only kernel callers may ask for. */
#define KAPI_JETTY_B_ID	33
#define KAPI_JFR_TOKEN	0x2222
#define KAPI_SEG_TOKEN	0x5a5a5a5a
#define KAPI_BAD_TOKEN	0x0bad0bad
/* urma_token_policy_t URMA_TOKEN_PLAIN_TEXT: the target checks tokens. */
#define KAPI_TOKEN_PLAIN	1
/* urma_cr_status_t and urma_cr_opcode_t values (urma_opcode.h). */
#define SPEC_CR_SUCCESS			0
#define SPEC_CR_REM_ACCESS_ABORT_ERR	8
#define SPEC_CR_OPC_SEND_WITH_IMM	1
/* Polling gives up after this long (the engine's work runs in between). */
#define KAPI_POLL_MS	5000

struct kapi {
	struct ubcore_device *dev;
	union ubcore_eid eid;
	struct ubcore_jfc *jfc_a, *jfc_b;
	struct ubcore_jfr *jfr_a, *jfr_b;
	struct ubcore_jetty *jetty_a, *jetty_b;
	struct ubcore_token_id *tid;
	u8 *src, *dst;
	struct ubcore_target_seg *src_seg, *dst_seg;
	/* dst_seg imported with its token, and with a wrong one */
	struct ubcore_target_seg *rdst, *rdst_bad;
	struct ubcore_tjetty *tjetty_b;
	atomic_t comp_events;
	struct completion comp;
};

struct ubcore_target_seg *kapi_reg(struct kunit *test, struct kapi *k,
				   void *buf, u64 len);
int kapi_init(struct kunit *test);
void kapi_exit(struct kunit *test);
void kapi_poll_one(struct kunit *test, struct ubcore_jfc *jfc,
		   struct ubcore_cr *cr);
void kapi_expect_empty(struct kunit *test, struct ubcore_jfc *jfc);
void kapi_fill(u8 *buf, u32 len, u8 seed);
bool kapi_zero(const u8 *buf, u32 len);
void kapi_post_send(struct kunit *test, struct ubcore_jetty *jetty,
		    struct ubcore_jfs_wr *wr);
void kapi_expect_send_cr(struct kunit *test, struct kapi *k, u32 status,
			 u64 user_ctx, u32 len);
void kapi_write_wr(struct kapi *k, struct ubcore_jfs_wr *wr,
		   struct ubcore_sge *l, struct ubcore_sge *r,
		   struct ubcore_target_seg *rseg, u64 user_ctx);
void kapi_write(struct kunit *test);
void kapi_write_bad_token(struct kunit *test);
void kapi_read(struct kunit *test);
void kapi_send_recv(struct kunit *test);
void kapi_atomic(struct kunit *test);

#endif /* _UDMA_KUNIT_KAPI_H */
