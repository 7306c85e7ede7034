// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * The target side of the engine: what a UB target does with a transaction
 * (txn.h) that arrives for one of its devices, whether from the initiator
 * on this host (the local path) or, later, from the wire. Nothing in the
 * transaction is trusted but the initiator's identity.
 *
 * Checks, in order; the first that fails decides the status, and nothing
 * in target memory changes before all of them passed:
 *  1. the udma device owning dst_eid (none: REM_ACCESS for memory
 *     transactions, REM_OPERATION for messages; another provider's:
 *     REM_UNSUPPORTED);
 *  2. the format (udma_target_check_format()): an opcode the target does
 *     (REM_UNSUPPORTED), atomics in cap.atomic_feature (REM_UNSUPPORTED),
 *     8 bytes at an 8-byte aligned address (REM_ACCESS), WRITE_NOTIFY's
 *     notify word 8-byte aligned and a SEND's invalidated segment not
 *     empty (REM_ACCESS), a payload of at least len (REM_OPERATION), a
 *     response buffer that holds the answer (LOC_LEN);
 *  3. memory transactions: the registered segment of token_id that covers
 *     the range and is not invalidated (REM_ACCESS), then
 *     udma_target_check_seg(): the range, the token value unless the
 *     segment's token policy is NONE, not invalidated, not LOCAL_ONLY, the
 *     right the opcode needs (all REM_ACCESS). A zero-length WRITE* or
 *     READ touches no data and its data range is not verified (UB
 *     transaction layer);
 *  4. WRITE_NOTIFY, after 3: the segment of notify_token_id that covers
 *     the notify word, and udma_target_check_notify(): as 3 with the
 *     WRITE right for 8 bytes at notify_va (REM_ACCESS). Then the data is
 *     written, and the notify data after it with one 8-byte store;
 *  5. messages (SEND, SEND_WITH_IMM, WRITE_WITH_IMM after 3): the JFR or
 *     jetty of dst_jetty_id, READY, with a READY JFR (REM_OPERATION); the
 *     token of the JFR unless its policy is NONE (REM_ACCESS);
 *  6. SEND with invalidate, after 5: the segment of token_id covering
 *     [dst_va, dst_va + inv_len) and udma_target_check_inv(): token, not
 *     invalidated yet, not LOCAL_ONLY; and it belongs to the receiving
 *     JFR's or jetty's context (all REM_ACCESS). Nothing is consumed yet;
 *  7. messages: an RQE (none: RNR, and a WRITE_WITH_IMM has not written,
 *     a SEND has not invalidated; a corrupt RQ: REM_OPERATION). From here
 *     on the RQE is consumed: a SEND whose RQE has a bad SGE list
 *     completes at the receiver with LOC_ACCESS, one longer than the RQE
 *     with LOC_LEN, and both answer REM_OPERATION (and invalidate
 *     nothing). A SEND with invalidate that is delivered invalidates its
 *     segment (ubcore_invalidate_seg()) before the receive CQE is written:
 *     every remote access to it fails from then on (REM_ACCESS).
 * A receive CQE that does not fit in the receiver's JFC (udma_cq_post()
 * fails, the JFC reports JFC_ERR) answers REM_OPERATION although the data
 * was placed: the receiver will never see the message.
 *
 * Every REM_ACCESS of 3, 4, 5 (the JFR's token) and 6 is reported to ubcore
 * (udma_refused(), ubcore_report_access_fail()), which counts it per source
 * EID and per segment and invalidates a segment refused too often.
 */
#include <linux/kernel.h>
#include <linux/string.h>

#include <ub/ubcore_device.h>
#include <ub/ubcore_jetty.h>

#include <kunit/visibility.h>

#include "target.h"

/**
 * udma_ta_is_atomic() - is @opcode one of the nine atomics
 * @opcode: a TAOpcode
 *
 * Return: true for UDMA_TA_CAS .. UDMA_TA_FXOR.
 */
bool udma_ta_is_atomic(u8 opcode)
{
	return opcode >= UDMA_TA_CAS && opcode <= UDMA_TA_FXOR;
}
EXPORT_SYMBOL_IF_KUNIT(udma_ta_is_atomic);

/**
 * udma_ta_atomic_feature() - the capability bit of an atomic
 * @opcode: a TAOpcode
 *
 * STORE and LOAD have no bit in cap.atomic_feature (URMA has no opcode for
 * them, see ubcore_device.h), so no device advertises them and the target
 * refuses them. FETCH_AND has bit 6, beyond the user guide's six.
 *
 * Return: the UBCORE_ATOMIC_* bit, or 0.
 */
u32 udma_ta_atomic_feature(u8 opcode)
{
	switch (opcode) {
	case UDMA_TA_CAS:
		return UBCORE_ATOMIC_CAS;
	case UDMA_TA_SWAP:
		return UBCORE_ATOMIC_SWAP;
	case UDMA_TA_FADD:
		return UBCORE_ATOMIC_FAA;
	case UDMA_TA_FSUB:
		return UBCORE_ATOMIC_FSUB;
	case UDMA_TA_FAND:
		return UBCORE_ATOMIC_FAND;
	case UDMA_TA_FOR:
		return UBCORE_ATOMIC_FOR;
	case UDMA_TA_FXOR:
		return UBCORE_ATOMIC_FXOR;
	default:
		return 0;
	}
}
EXPORT_SYMBOL_IF_KUNIT(udma_ta_atomic_feature);

static bool udma_buf_holds(const struct udma_local_buf *buf, u64 len)
{
	return len == 0 || (buf && buf->total >= len);
}

/* A writable buffer (ranges, not inline data) of at least @len bytes. */
static bool udma_buf_takes(const struct udma_local_buf *buf, u64 len)
{
	return len == 0 || (buf && buf->nr && buf->total >= len);
}

/**
 * udma_target_check_format() - the checks that need no target object
 * @txn: the transaction
 * @atomic_feature: the target device's cap.atomic_feature
 *
 * Return: UDMA_TXN_OK; UDMA_TXN_REM_UNSUPPORTED for an opcode the target
 * does not do or an atomic the device does not advertise;
 * UDMA_TXN_REM_ACCESS for an atomic that is not one aligned 8-byte word, a
 * WRITE_NOTIFY whose notify word is not aligned, a SEND that invalidates
 * an empty range; UDMA_TXN_REM_OPERATION for a payload shorter than len;
 * UDMA_TXN_LOC_LEN for a READ or atomic whose response buffer cannot take
 * the answer.
 */
enum udma_txn_status udma_target_check_format(const struct udma_txn *txn,
					      u32 atomic_feature)
{
	u32 bit;

	if (txn->invalidate && (txn->opcode != UDMA_TA_SEND || !txn->inv_len))
		return UDMA_TXN_REM_ACCESS;
	switch (txn->opcode) {
	case UDMA_TA_WRITE_NOTIFY:
		if (!IS_ALIGNED(txn->notify_va, sizeof(u64)))
			return UDMA_TXN_REM_ACCESS;
		fallthrough;
	case UDMA_TA_SEND:
	case UDMA_TA_SEND_IMM:
	case UDMA_TA_WRITE:
	case UDMA_TA_WRITE_IMM:
		return udma_buf_holds(txn->payload, txn->len) ?
		       UDMA_TXN_OK : UDMA_TXN_REM_OPERATION;
	case UDMA_TA_READ:
		return udma_buf_takes(txn->response, txn->len) ?
		       UDMA_TXN_OK : UDMA_TXN_LOC_LEN;
	case UDMA_TA_CAS ... UDMA_TA_FXOR:
		bit = udma_ta_atomic_feature(txn->opcode);
		if (!bit || !(atomic_feature & bit))
			return UDMA_TXN_REM_UNSUPPORTED;
		if (txn->len != sizeof(u64) ||
		    !IS_ALIGNED(txn->dst_va, sizeof(u64)))
			return UDMA_TXN_REM_ACCESS;
		if (txn->opcode != UDMA_TA_STORE &&
		    !udma_buf_takes(txn->response, sizeof(u64)))
			return UDMA_TXN_LOC_LEN;
		return UDMA_TXN_OK;
	default:
		return UDMA_TXN_REM_UNSUPPORTED;
	}
}
EXPORT_SYMBOL_IF_KUNIT(udma_target_check_format);

/**
 * udma_target_token_ok() - does a presented token pass
 * @policy_flag: the segment's seg.attr or the JFR's cfg.flag (the token
 *	policy in bits 0-2)
 * @token_value: the object's token
 * @presented: the transaction's token
 *
 * Return: true if the policy is URMA_TOKEN_NONE or the tokens are equal.
 */
bool udma_target_token_ok(u32 policy_flag, u32 token_value, u32 presented)
{
	return UDMA_TOKEN_POLICY(policy_flag) == UDMA_TOKEN_NONE ||
	       token_value == presented;
}
EXPORT_SYMBOL_IF_KUNIT(udma_target_token_ok);

/*
 * May a remote access presenting @token reach [@va, @va + @len) of @tseg
 * with the rights @need (UBCORE_ACCESS_* bits; 0: any remote access)?
 */
static enum udma_txn_status udma_seg_access(const struct ubcore_target_seg *tseg,
					    u64 va, u64 len, u32 token,
					    u32 need)
{
	const struct ubcore_seg *seg = &tseg->seg;
	u32 access = UBCORE_SEG_FLAG_ACCESS(seg->attr);

	if (va < seg->ubva.va || len > seg->len ||
	    va - seg->ubva.va > seg->len - len)
		return UDMA_TXN_REM_ACCESS;
	if (!udma_target_token_ok(seg->attr, tseg->token_value, token))
		return UDMA_TXN_REM_ACCESS;
	/* The lookup skipped it if it was invalid then; it may be now. */
	if (READ_ONCE(tseg->invalid))
		return UDMA_TXN_REM_ACCESS;
	if (access & UBCORE_ACCESS_LOCAL_ONLY)
		return UDMA_TXN_REM_ACCESS;
	return (access & need) == need ? UDMA_TXN_OK : UDMA_TXN_REM_ACCESS;
}

/**
 * udma_target_check_seg() - may a memory transaction access a segment
 * @tseg: the registered segment of the transaction's token ID
 * @txn: a WRITE, WRITE_WITH_IMM, WRITE_NOTIFY (its data range), READ or
 *	atomic
 *
 * Return: UDMA_TXN_OK, or UDMA_TXN_REM_ACCESS if [dst_va, dst_va + len) is
 * not inside @tseg, the token does not match (policy not NONE), the
 * segment is invalidated, LOCAL_ONLY or lacks the right the opcode needs
 * (WRITE*: WRITE, READ: READ, atomics: ATOMIC).
 */
enum udma_txn_status udma_target_check_seg(const struct ubcore_target_seg *tseg,
					   const struct udma_txn *txn)
{
	u32 need;

	switch (txn->opcode) {
	case UDMA_TA_WRITE:
	case UDMA_TA_WRITE_IMM:
	case UDMA_TA_WRITE_NOTIFY:
		need = UBCORE_ACCESS_WRITE;
		break;
	case UDMA_TA_READ:
		need = UBCORE_ACCESS_READ;
		break;
	case UDMA_TA_CAS ... UDMA_TA_FXOR:
		need = UBCORE_ACCESS_ATOMIC;
		break;
	default:
		return UDMA_TXN_REM_ACCESS;
	}
	return udma_seg_access(tseg, txn->dst_va, txn->len, txn->token_value,
			       need);
}
EXPORT_SYMBOL_IF_KUNIT(udma_target_check_seg);

/**
 * udma_target_check_notify() - may a WRITE_NOTIFY write its notify word
 * @tseg: the registered segment of the transaction's notify_token_id
 * @txn: a WRITE_NOTIFY
 *
 * Return: UDMA_TXN_OK, or UDMA_TXN_REM_ACCESS if @txn is no WRITE_NOTIFY,
 * the 8 bytes at notify_va are not inside @tseg, notify_token_value does
 * not match (policy not NONE), or the segment is invalidated, LOCAL_ONLY
 * or lacks the WRITE right.
 */
enum udma_txn_status
udma_target_check_notify(const struct ubcore_target_seg *tseg,
			 const struct udma_txn *txn)
{
	if (txn->opcode != UDMA_TA_WRITE_NOTIFY)
		return UDMA_TXN_REM_ACCESS;
	return udma_seg_access(tseg, txn->notify_va, sizeof(u64),
			       txn->notify_token_value, UBCORE_ACCESS_WRITE);
}
EXPORT_SYMBOL_IF_KUNIT(udma_target_check_notify);

/**
 * udma_target_check_inv() - may a SEND invalidate a segment
 * @tseg: the registered segment of the transaction's token_id
 * @txn: a SEND with invalidate
 *
 * Invalidation needs the segment's token and no particular right: a peer
 * that may access the segment at all may end that access.
 *
 * Return: UDMA_TXN_OK, or UDMA_TXN_REM_ACCESS if @txn is no SEND with
 * invalidate, [dst_va, dst_va + inv_len) is not inside @tseg, the token
 * does not match (policy not NONE), or the segment is invalidated already
 * or LOCAL_ONLY.
 */
enum udma_txn_status udma_target_check_inv(const struct ubcore_target_seg *tseg,
					   const struct udma_txn *txn)
{
	if (txn->opcode != UDMA_TA_SEND || !txn->invalidate)
		return UDMA_TXN_REM_ACCESS;
	return udma_seg_access(tseg, txn->dst_va, txn->inv_len,
			       txn->token_value, 0);
}
EXPORT_SYMBOL_IF_KUNIT(udma_target_check_inv);

/*
 * A refused remote access: ubcore counts it against @tseg (the segment it
 * named, or NULL) and @txn's source. Returns @st.
 */
static enum udma_txn_status udma_refused(struct ubcore_device *dev,
					 struct ubcore_target_seg *tseg,
					 const struct udma_txn *txn,
					 enum udma_txn_status st)
{
	if (st == UDMA_TXN_REM_ACCESS)
		ubcore_report_access_fail(dev, tseg, &txn->src_eid);
	return st;
}

static bool udma_is_message(u8 opcode)
{
	return opcode == UDMA_TA_SEND || opcode == UDMA_TA_SEND_IMM;
}

/*
 * The receiving side of a message: a JFR, or a jetty and its shared JFR;
 * @uctx is the receiving object's context (NULL: the kernel's).
 */
struct udma_receiver {
	struct ubcore_jfr *jfr;
	struct ubcore_jetty *jetty;
	struct ubcore_jfc *jfc;
	struct ubcore_ucontext *uctx;
	u32 local_id;
};

static void udma_receiver_put(struct udma_receiver *rcv)
{
	if (rcv->jetty)
		ubcore_obj_ref_put(&rcv->jetty->obj_ref);
	else if (rcv->jfr)
		ubcore_obj_ref_put(&rcv->jfr->obj_ref);
}

/*
 * Find the JFR or jetty of dst_jetty_id with a reference and check it. A
 * jetty's shared JFR stays while the jetty does (it holds a use count).
 */
static enum udma_txn_status udma_receiver_get(struct ubcore_device *dev,
					      const struct udma_txn *txn,
					      struct udma_receiver *rcv)
{
	struct ubcore_jetty *jetty;
	struct ubcore_jfr *jfr;

	memset(rcv, 0, sizeof(*rcv));
	jfr = ubcore_find_get_jfr(dev, txn->dst_jetty_id);
	if (jfr) {
		rcv->jfr = jfr;
		rcv->jfc = jfr->cfg.jfc;
		rcv->uctx = jfr->uctx;
		rcv->local_id = jfr->id;
	} else {
		jetty = ubcore_find_get_jetty(dev, txn->dst_jetty_id);
		if (!jetty)
			return UDMA_TXN_REM_OPERATION;
		rcv->jetty = jetty;
		rcv->jfr = jetty->cfg.jfr;
		rcv->jfc = jetty->cfg.recv_jfc ?: rcv->jfr->cfg.jfc;
		rcv->uctx = jetty->uctx;
		rcv->local_id = jetty->id;
		if (READ_ONCE(jetty->state) != UBCORE_JETTY_STATE_READY)
			return UDMA_TXN_REM_OPERATION;
	}
	if (READ_ONCE(rcv->jfr->state) != UBCORE_JFR_STATE_READY)
		return UDMA_TXN_REM_OPERATION;
	if (!udma_target_token_ok(rcv->jfr->cfg.flag, rcv->jfr->cfg.token_value,
				  txn->jetty_token))
		return udma_refused(dev, NULL, txn, UDMA_TXN_REM_ACCESS);
	return UDMA_TXN_OK;
}

/*
 * Write the receive CQE of @txn; REM_OPERATION if the JFC cannot take it.
 * @inv: the segment a SEND with invalidate invalidated, or NULL.
 */
static enum udma_txn_status udma_recv_complete(const struct udma_receiver *rcv,
					       const struct udma_txn *txn,
					       u64 user_ctx, u8 cr_status,
					       u32 len,
					       const struct ubcore_target_seg *inv)
{
	struct udma_cqe cqe = {
		.status = cr_status,
		.flags = UDMA_CQE_F_RECV,
		.completion_len = len,
		.user_ctx = user_ctx,
		.local_id = rcv->local_id,
		.remote_id = txn->src_jetty_id,
		.remote_uasid = txn->src_uasid,
	};

	switch (txn->opcode) {
	case UDMA_TA_SEND:
		cqe.opcode = txn->invalidate ? UDMA_CR_OPC_SEND_WITH_INV :
					       UDMA_CR_OPC_SEND;
		break;
	case UDMA_TA_SEND_IMM:
		cqe.opcode = UDMA_CR_OPC_SEND_WITH_IMM;
		break;
	default:
		cqe.opcode = UDMA_CR_OPC_WRITE_WITH_IMM;
		break;
	}
	if (txn->opcode != UDMA_TA_SEND) {
		cqe.flags |= UDMA_CQE_F_IMM;
		cqe.imm_data = txn->imm_data;
	} else if (inv) {
		cqe.flags |= UDMA_CQE_F_INV;
		cqe.imm_data = inv->seg.token_id |
			       (u64)inv->token_value << 32;
	}
	if (txn->solicited)
		cqe.flags |= UDMA_CQE_F_SOLICITED;
	memcpy(cqe.remote_eid, txn->src_eid.raw, sizeof(cqe.remote_eid));
	if (udma_cq_post(to_udma_jfc(rcv->jfc), &cqe, txn->solicited))
		return UDMA_TXN_REM_OPERATION;
	return UDMA_TXN_OK;
}

/* Take the next RQE of the receiver: RNR when there is none. */
static enum udma_txn_status udma_recv_take(const struct udma_receiver *rcv,
					   struct udma_rqe *rqe)
{
	u32 posted;

	switch (udma_rq_take(to_udma_jfr(rcv->jfr), rqe, &posted)) {
	case UDMA_RQ_TAKEN:
		return UDMA_TXN_OK;
	case UDMA_RQ_EMPTY:
		return UDMA_TXN_RNR;
	default:
		return UDMA_TXN_REM_OPERATION;
	}
}

/* The ranges of an RQE's SGEs, each holding a segment reference. */
struct udma_rqe_ranges {
	u32 nr;
	u64 total;
	struct udma_mem_range range[UDMA_RQE_MAX_SGE];
};

static void udma_rqe_ranges_put(struct udma_rqe_ranges *r)
{
	while (r->nr)
		ubcore_obj_ref_put(&r->range[--r->nr].seg->obj_ref);
}

/*
 * Resolve the SGEs of @rqe (a copy) in the JFR's own context. Empty SGEs
 * are skipped. Returns false (and holds nothing) if there are more SGEs
 * than the JFR allows or one is not inside a segment of the JFR's context.
 */
static bool udma_rqe_ranges_get(struct ubcore_device *dev,
				const struct ubcore_jfr *jfr,
				const struct udma_rqe *rqe,
				struct udma_rqe_ranges *r)
{
	struct ubcore_target_seg *tseg;
	u32 i;

	r->nr = 0;
	r->total = 0;
	if (rqe->num_sge > jfr->cfg.max_sge || rqe->num_sge > UDMA_RQE_MAX_SGE)
		return false;
	for (i = 0; i < rqe->num_sge; i++) {
		const struct udma_sge *sge = &rqe->sge[i];

		if (!sge->len)
			continue;
		tseg = ubcore_find_get_seg(dev, sge->token_id, sge->va,
					   sge->len);
		if (!tseg)
			goto fail;
		if (tseg->uctx != jfr->uctx) {
			ubcore_obj_ref_put(&tseg->obj_ref);
			goto fail;
		}
		r->range[r->nr].seg = tseg;
		r->range[r->nr].va = sge->va;
		r->range[r->nr].len = sge->len;
		r->nr++;
		r->total += sge->len;
	}
	return true;
fail:
	udma_rqe_ranges_put(r);
	return false;
}

/*
 * The segment a SEND with invalidate names, with a reference, checked
 * (udma_target_check_inv()) and of the receiver's context.
 */
static enum udma_txn_status udma_inv_seg_get(struct ubcore_device *dev,
					     const struct udma_txn *txn,
					     const struct udma_receiver *rcv,
					     struct ubcore_target_seg **out)
{
	struct ubcore_target_seg *tseg;
	enum udma_txn_status st;

	tseg = ubcore_find_get_remote_seg(dev, txn->token_id, txn->dst_va,
					  txn->inv_len);
	if (!tseg)
		return udma_refused(dev, NULL, txn, UDMA_TXN_REM_ACCESS);
	st = udma_target_check_inv(tseg, txn);
	/* A message ends the remote access of its receiver's memory only. */
	if (st == UDMA_TXN_OK && tseg->uctx != rcv->uctx)
		st = UDMA_TXN_REM_ACCESS;
	if (st != UDMA_TXN_OK) {
		udma_refused(dev, tseg, txn, st);
		ubcore_obj_ref_put(&tseg->obj_ref);
		return st;
	}
	*out = tseg;
	return UDMA_TXN_OK;
}

/* Place @txn's payload into the ranges of @rqe: the receive CQE status. */
static u8 udma_recv_place(struct ubcore_device *dev,
			  const struct udma_receiver *rcv,
			  const struct udma_txn *txn,
			  const struct udma_rqe *rqe)
{
	struct udma_rqe_ranges ranges;
	u8 cr = URMA_CR_SUCCESS;

	if (!udma_rqe_ranges_get(dev, rcv->jfr, rqe, &ranges))
		return URMA_CR_LOC_ACCESS_ERR;
	if (txn->len > ranges.total)
		cr = URMA_CR_LOC_LEN_ERR;
	else if (txn->len && udma_buf_copy_to_ranges(txn->payload, ranges.range,
						     ranges.nr, txn->len))
		cr = URMA_CR_LOC_ACCESS_ERR;
	udma_rqe_ranges_put(&ranges);
	return cr;
}

/*
 * SEND, SEND_WITH_IMM: deliver the payload into the next RQE; a SEND with
 * invalidate then invalidates its segment.
 */
static enum udma_txn_status udma_target_send(struct ubcore_device *dev,
					     struct udma_txn *txn)
{
	struct ubcore_target_seg *inv = NULL;
	struct udma_receiver rcv;
	enum udma_txn_status st;
	struct udma_rqe rqe;
	u8 cr;

	st = udma_receiver_get(dev, txn, &rcv);
	/* The segment before the RQE: a refused SEND consumes none. */
	if (st == UDMA_TXN_OK && txn->invalidate)
		st = udma_inv_seg_get(dev, txn, &rcv, &inv);
	if (st == UDMA_TXN_OK)
		st = udma_recv_take(&rcv, &rqe);
	if (st != UDMA_TXN_OK)
		goto out;

	cr = udma_recv_place(dev, &rcv, txn, &rqe);
	if (cr != URMA_CR_SUCCESS) {
		udma_recv_complete(&rcv, txn, rqe.user_ctx, cr, 0, NULL);
		st = UDMA_TXN_REM_OPERATION;
		goto out;
	}
	/* Invalid before the receiver can see the CQE that says so. */
	if (inv)
		ubcore_invalidate_seg(inv);
	st = udma_recv_complete(&rcv, txn, rqe.user_ctx, cr, txn->len, inv);
	if (st == UDMA_TXN_OK)
		txn->done_len = txn->len;
out:
	if (inv)
		ubcore_obj_ref_put(&inv->obj_ref);
	udma_receiver_put(&rcv);
	return st;
}

/* WRITE, WRITE_WITH_IMM, READ and the atomics on a checked segment. */
static enum udma_txn_status udma_target_mem_exec(struct udma_txn *txn,
						 const struct udma_mem_range *r)
{
	u64 *word;
	u64 old;

	switch (txn->opcode) {
	case UDMA_TA_WRITE:
	case UDMA_TA_WRITE_IMM:
		if (udma_buf_copy_to_range(txn->payload, r, txn->len))
			return UDMA_TXN_REM_ACCESS;
		break;
	case UDMA_TA_READ:
		if (udma_range_copy_to_buf(r, txn->response, txn->len))
			return UDMA_TXN_LOC_LEN;
		break;
	default:
		word = udma_map_word(r);
		if (!word)
			return UDMA_TXN_REM_ACCESS;
		udma_atomic_exec(word, txn->opcode, txn->operand1,
				 txn->operand2, &old);
		udma_unmap_word(word);
		if (txn->opcode == UDMA_TA_STORE)
			break;
		/* checked by udma_target_check_format() to hold 8 bytes */
		if (udma_buf_copy_from_kernel(txn->response, &old, sizeof(old)))
			return UDMA_TXN_LOC_LEN;
		break;
	}
	txn->done_len = txn->len;
	return UDMA_TXN_OK;
}

/*
 * WRITE_NOTIFY on checked segments: the data (@r NULL when there is none),
 * then the notify data with one 8-byte store, so that a target polling the
 * notify word and then reading the data sees the data. The word is mapped
 * first: a failure changes nothing.
 */
static enum udma_txn_status udma_target_notify_exec(struct udma_txn *txn,
						    const struct udma_mem_range *r,
						    struct ubcore_target_seg *nseg)
{
	struct udma_mem_range nrange = {
		.seg = nseg, .va = txn->notify_va, .len = sizeof(u64),
	};
	u64 *word;

	word = udma_map_word(&nrange);
	if (!word)
		return UDMA_TXN_REM_ACCESS;
	if (r && udma_buf_copy_to_range(txn->payload, r, txn->len)) {
		udma_unmap_word(word);
		return UDMA_TXN_REM_ACCESS;
	}
	/* The data before the notify word (a poller reads them in order). */
	smp_wmb();
	WRITE_ONCE(*word, txn->imm_data);
	udma_unmap_word(word);
	txn->done_len = txn->len;
	return UDMA_TXN_OK;
}

/* WRITE_NOTIFY's notify segment, with a reference, checked. */
static enum udma_txn_status udma_notify_seg_get(struct ubcore_device *dev,
						const struct udma_txn *txn,
						struct ubcore_target_seg **out)
{
	struct ubcore_target_seg *nseg;
	enum udma_txn_status st;

	nseg = ubcore_find_get_remote_seg(dev, txn->notify_token_id,
					  txn->notify_va, sizeof(u64));
	if (!nseg)
		return udma_refused(dev, NULL, txn, UDMA_TXN_REM_ACCESS);
	st = udma_target_check_notify(nseg, txn);
	if (st != UDMA_TXN_OK) {
		udma_refused(dev, nseg, txn, st);
		ubcore_obj_ref_put(&nseg->obj_ref);
		return st;
	}
	*out = nseg;
	return UDMA_TXN_OK;
}

/* The memory transactions, WRITE_WITH_IMM and WRITE_NOTIFY included. */
static enum udma_txn_status udma_target_mem(struct ubcore_device *dev,
					    struct udma_txn *txn)
{
	struct ubcore_target_seg *tseg = NULL, *nseg = NULL;
	struct udma_receiver rcv = {};
	struct udma_mem_range range;
	enum udma_txn_status st;
	struct udma_rqe rqe;

	/* A zero-length memory transaction is not verified (UB TA layer). */
	if (txn->len) {
		tseg = ubcore_find_get_remote_seg(dev, txn->token_id,
						  txn->dst_va, txn->len);
		if (!tseg)
			return udma_refused(dev, NULL, txn,
					    UDMA_TXN_REM_ACCESS);
		st = udma_refused(dev, tseg, txn,
				  udma_target_check_seg(tseg, txn));
		if (st != UDMA_TXN_OK)
			goto out;
	} else if (txn->opcode != UDMA_TA_WRITE_IMM &&
		   txn->opcode != UDMA_TA_WRITE_NOTIFY) {
		return UDMA_TXN_OK;
	}
	range.seg = tseg;
	range.va = txn->dst_va;
	range.len = txn->len;

	if (txn->opcode == UDMA_TA_WRITE_NOTIFY) {
		/* Both ranges are checked before a byte moves. */
		st = udma_notify_seg_get(dev, txn, &nseg);
		if (st == UDMA_TXN_OK)
			st = udma_target_notify_exec(txn, tseg ? &range : NULL,
						     nseg);
		goto out;
	}

	if (txn->opcode == UDMA_TA_WRITE_IMM) {
		st = udma_receiver_get(dev, txn, &rcv);
		/* The RQE first: no RQE, no write. */
		if (st == UDMA_TXN_OK)
			st = udma_recv_take(&rcv, &rqe);
		if (st != UDMA_TXN_OK)
			goto out;
	}

	st = tseg ? udma_target_mem_exec(txn, &range) : UDMA_TXN_OK;
	if (txn->opcode == UDMA_TA_WRITE_IMM) {
		/* the RQE is consumed: it completes either way */
		if (st == UDMA_TXN_OK)
			st = udma_recv_complete(&rcv, txn, rqe.user_ctx,
						URMA_CR_SUCCESS, txn->len,
						NULL);
		else
			udma_recv_complete(&rcv, txn, rqe.user_ctx,
					   URMA_CR_LOC_ACCESS_ERR, 0, NULL);
	}
out:
	udma_receiver_put(&rcv);
	if (nseg)
		ubcore_obj_ref_put(&nseg->obj_ref);
	if (tseg)
		ubcore_obj_ref_put(&tseg->obj_ref);
	return st;
}

/**
 * udma_target_execute() - execute a transaction at its target device
 * @txn: the transaction; @txn->done_len is set
 *
 * See the top of this file for the checks and the statuses. Every
 * reference taken is dropped before the return.
 *
 * Context: process context; may sleep.
 * Return: the status for the initiator.
 */
enum udma_txn_status udma_target_execute(struct udma_txn *txn)
{
	struct ubcore_device *dev;
	enum udma_txn_status st;

	txn->done_len = 0;
	dev = ubcore_get_device_by_eid(&txn->dst_eid);
	if (!dev)
		return udma_is_message(txn->opcode) ? UDMA_TXN_REM_OPERATION :
						      UDMA_TXN_REM_ACCESS;
	if (strcmp(dev->ops->driver_name, UDMA_DRIVER_NAME)) {
		/* the target objects are udma's (struct udma_jfr ...) */
		st = UDMA_TXN_REM_UNSUPPORTED;
		goto out;
	}
	st = udma_target_check_format(txn, dev->cap.atomic_feature);
	if (st != UDMA_TXN_OK)
		goto out;
	if (udma_is_message(txn->opcode))
		st = udma_target_send(dev, txn);
	else
		st = udma_target_mem(dev, txn);
out:
	ubcore_put_device(dev);
	return st;
}
