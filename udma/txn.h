/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * Transactions: what the initiator side of the engine (SQ processing,
 * sq.c) hands to the target side (target.c), in the terms of the UB
 * transaction layer. On the local path (destination EID on this host) the
 * initiator calls udma_target_execute() directly; the UBoE transport will
 * carry the same transaction in a packet and call it on the receiving
 * host. The target makes every check a remote target makes: it trusts
 * nothing in the transaction but the identity of the initiator.
 */
#ifndef _UDMA_TXN_H
#define _UDMA_TXN_H

#include <linux/types.h>

#include <ub/ubcore_eid.h>
#include <ub/ubcore_segment.h>

#include <uapi/ub/udma_abi.h>

/* TAOpcode values of the UB transaction layer. */
enum udma_ta_opcode {
	UDMA_TA_SEND		= 0x0,
	UDMA_TA_SEND_IMM	= 0x1,
	UDMA_TA_WRITE		= 0x3,
	UDMA_TA_WRITE_IMM	= 0x4,
	UDMA_TA_WRITE_NOTIFY	= 0x5,
	UDMA_TA_READ		= 0x6,
	UDMA_TA_CAS		= 0x7,
	UDMA_TA_SWAP		= 0x8,
	UDMA_TA_STORE		= 0x9,
	UDMA_TA_LOAD		= 0xa,
	UDMA_TA_FADD		= 0xb,
	UDMA_TA_FSUB		= 0xc,
	UDMA_TA_FAND		= 0xd,
	UDMA_TA_FOR		= 0xe,
	UDMA_TA_FXOR		= 0xf,
};

/**
 * struct udma_mem_range - bytes of a registered segment
 * @seg: the segment; the holder of the range holds a reference
 *	(ubcore_find_get_seg) until it is done with the range
 * @va: first byte, inside @seg
 * @len: bytes, inside @seg
 */
struct udma_mem_range {
	struct ubcore_target_seg *seg;
	u64 va;
	u32 len;
};

/**
 * struct udma_local_buf - the initiator's local memory of one operation
 * @nr: ranges in @range (0 for inline data)
 * @range: resolved from the SQE's SGEs, checked to belong to the
 *	initiator's context
 * @inline_data: the SQE's inline payload (a copy), or NULL
 * @total: bytes of all ranges, or the inline length
 */
struct udma_local_buf {
	u32 nr;
	struct udma_mem_range range[UDMA_SQE_MAX_SGE];
	const void *inline_data;
	u64 total;
};

/* What the target answers; the initiator maps it to a urma_cr_status_t. */
enum udma_txn_status {
	UDMA_TXN_OK = 0,
	/* SEND: no RQE posted at the target; the initiator may retry */
	UDMA_TXN_RNR,
	/* token mismatch, out of the segment, no right, no such segment */
	UDMA_TXN_REM_ACCESS,
	/* no such or not READY JFR/jetty, RQE too small, bad RQE */
	UDMA_TXN_REM_OPERATION,
	/* an opcode the target does not do (atomic_feature) */
	UDMA_TXN_REM_UNSUPPORTED,
	/* the initiator's local buffer cannot hold the response */
	UDMA_TXN_LOC_LEN,
};

/**
 * struct udma_txn - one transaction
 * @opcode: enum udma_ta_opcode
 * @solicited: the initiator asked for a solicited event (receive side)
 * @src_eid: the initiator's EID
 * @src_uasid: the initiator's uasid
 * @src_jetty_id: the initiator's JFS or jetty ID
 * @dst_eid: the target's EID (selects the target device)
 * @dst_jetty_id: SEND*, WRITE_IMM: the target JFR or jetty
 * @jetty_token: SEND*, WRITE_IMM: the token presented for that JFR/jetty
 * @token_id: memory operations: the target segment's token ID; SEND with
 *	@invalidate: the token ID of the segment to invalidate
 * @token_value: the token presented for @token_id
 * @dst_va: memory operations: first target byte; SEND with @invalidate:
 *	first byte of the segment to invalidate
 * @len: bytes to move; 8 for atomics
 * @invalidate: SEND only: invalidate the registered segment of the target
 *	named by @token_id, @dst_va and @inv_len once the message is delivered
 *	(URMA's SEND_WITH_INVALIDATE, which has no TAOpcode of its own: a
 *	Send that also carries a segment's address and token)
 * @inv_len: SEND with @invalidate: bytes of the segment, as imported
 * @notify_token_id: WRITE_NOTIFY: the token ID of the notify word's segment
 * @notify_token_value: WRITE_NOTIFY: the token presented for it
 * @notify_va: WRITE_NOTIFY: the notify word (8 bytes, aligned; NTFETAH)
 * @imm_data: WRITE_IMM, SEND_IMM: immediate data; WRITE_NOTIFY: notify data
 * @operand1: atomics: the swap / add / and / or / xor / store value
 * @operand2: CAS: the compare value
 * @payload: WRITE*, SEND*: the data (initiator's local buffer)
 * @response: READ: where the data goes; atomics: where the old value goes
 *	(one 8-byte range)
 * @done_len: set by the target: bytes moved
 */
struct udma_txn {
	u8 opcode;
	bool solicited;
	union ubcore_eid src_eid;
	u32 src_uasid;
	u32 src_jetty_id;
	union ubcore_eid dst_eid;
	u32 dst_jetty_id;
	u32 jetty_token;
	u32 token_id;
	u32 token_value;
	u64 dst_va;
	u64 len;
	bool invalidate;
	u64 inv_len;
	u32 notify_token_id;
	u32 notify_token_value;
	u64 notify_va;
	u64 imm_data;
	u64 operand1;
	u64 operand2;
	const struct udma_local_buf *payload;
	const struct udma_local_buf *response;
	u64 done_len;
};

/*
 * Execute @txn at the target device that owns txn->dst_eid on this host:
 * checks, then the memory operation or the delivery into an RQE with its
 * receive CQE. Target memory is unchanged by any transaction that does not
 * return UDMA_TXN_OK. Process context (may sleep).
 */
enum udma_txn_status udma_target_execute(struct udma_txn *txn);

/* Copy @len bytes between local buffers and segment ranges (mem.c). */
int udma_buf_copy_to_range(const struct udma_local_buf *src,
			   const struct udma_mem_range *dst, u64 len);
int udma_range_copy_to_buf(const struct udma_mem_range *src,
			   const struct udma_local_buf *dst, u64 len);

/*
 * Map one 8-byte aligned word of a segment range for an atomic (mem.c);
 * returns the kernel address, to be released with udma_unmap_word().
 */
u64 *udma_map_word(const struct udma_mem_range *range);
void udma_unmap_word(u64 *word);

struct udma_jfc;

/*
 * Write @cqe into @jfc's CQ ring (cq.c): sets the owner bit, advances pi,
 * calls the JFC's completion event handler when armed (and, for an arm
 * with solicited_only, when @solicited). -ENOSPC when the CQ is full: the
 * CQE is not written and JFC_ERR is raised. Any context.
 */
int udma_cq_post(struct udma_jfc *jfc, struct udma_cqe *cqe, bool solicited);

#endif /* _UDMA_TXN_H */
