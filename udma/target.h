/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * The target side of the engine, inside udma: the responder's checks of a
 * request as pure functions (resp.c), the copies and atomics of mem.c
 * beyond the contract of msg.h, and taking RQEs off a JFR (rq.c). The
 * KUnit suites of udma_kunit.ko test these directly.
 */
#ifndef _UDMA_TARGET_H
#define _UDMA_TARGET_H

#include <linux/types.h>

#include <ub/ubcore_jetty.h>
#include <ub/ubcore_segment.h>

#include "msg.h"
#include "udma.h"

/* Token policy of a segment (seg.attr) or a JFR (cfg.flag), bits 0-2. */
#define UDMA_TOKEN_POLICY(flag)	((flag) & 0x7)
/* URMA_TOKEN_NONE: the target does not check the token. */
#define UDMA_TOKEN_NONE		0

/* Opcodes of receive completions (uapi/ub/ubcore_opcode.h; statuses: udma.h). */
#define UDMA_CR_OPC_SEND		UBCORE_CR_OPC_SEND
#define UDMA_CR_OPC_SEND_WITH_IMM	UBCORE_CR_OPC_SEND_WITH_IMM
#define UDMA_CR_OPC_SEND_WITH_INV	UBCORE_CR_OPC_SEND_WITH_INV
#define UDMA_CR_OPC_WRITE_WITH_IMM	UBCORE_CR_OPC_WRITE_WITH_IMM

/* resp.c */
bool udma_ta_is_atomic(u8 opcode);
u32 udma_ta_atomic_feature(u8 opcode);
enum uboe_rspst udma_target_check_format(const struct udma_msg *req,
					 u32 atomic_feature);
enum uboe_rspst udma_target_check_seg(const struct ubcore_target_seg *tseg,
				      const struct udma_msg *req);
enum uboe_rspst
udma_target_check_notify(const struct ubcore_target_seg *tseg,
			 const struct udma_msg *req);
enum uboe_rspst udma_target_check_inv(const struct ubcore_target_seg *tseg,
				      const struct udma_msg *req);
bool udma_target_token_ok(u32 policy_flag, u32 token_value, u32 presented);
void udma_resp_init(struct udma_msg *rsp, const struct udma_msg *req, u8 st);

/* mem.c */
int udma_buf_copy_to_ranges(const struct udma_local_buf *src,
			    const struct udma_mem_range *dst, u32 nr, u64 len);
int udma_buf_pages(const struct udma_local_buf *src, struct bio_vec *bv,
		   u32 max);
int udma_buf_copy_to_kernel(void *data, const struct udma_local_buf *src,
			    u64 len);
int udma_buf_copy_from_kernel(const struct udma_local_buf *dst,
			      const void *data, u64 len);
int udma_atomic_exec(u64 *word, u8 opcode, u64 operand1, u64 operand2,
		     u64 *old);

/* rq.c */

/* What udma_rq_take() did. */
enum udma_rq_result {
	UDMA_RQ_TAKEN,		/* *rqe holds a copy of the next RQE */
	UDMA_RQ_EMPTY,		/* no RQE posted */
	UDMA_RQ_ERROR,		/* the JFR is (now) in ERROR */
};

enum udma_rq_result udma_rq_take(struct udma_jfr *jfr, struct udma_rqe *rqe,
				 u32 *posted);

#endif /* _UDMA_TARGET_H */
