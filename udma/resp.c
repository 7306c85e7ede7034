// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * The responder: what a UB target does with a request message (msg.h)
 * that a carrier delivers to one of its devices, from an initiator on this
 * host (the loopback) or, later, from the wire; it answers with one
 * response message through the carrier the request came by. Nothing in
 * the request is trusted but the initiator's identity (src_eid, UDETAH
 * uasid, INI_RC_ID), and the initiator's memory is never touched: WRITE
 * and SEND data are the request's payload, READ data and an atomic's old
 * value are the response's payload (READ_RESP, ATOMIC_RESP); every other
 * answer is a TAACK. The response's ATAH RSPST is the status.
 *
 * The request's fields: TAOpcode; MAETAH va, token_id and len (memory
 * transactions); TVETAH the token for the segment (memory) or for the JFR
 * or jetty (SEND*); MTETAH the target JFR or jetty (SEND*, WRITE_IMM);
 * IMMETAH the immediate data and, for WRITE_IMM, the JFR's token;
 * NTFETAH WRITE_NOTIFY's notify word, WRITE_ATOMIC_ADD's word to add to
 * (and the addend); INVETAH the segment a SEND
 * invalidates; the payload (an atomic's: operand 1, then the compare
 * value, big-endian).
 *
 * Checks, in order; the first that fails decides the status, and nothing
 * in target memory changes before all of them passed:
 *  1. the udma device owning dst_eid (none: ACCESS for memory
 *     transactions, OPERATION for messages; another provider's:
 *     UNSUPPORTED);
 *  2. the format (udma_target_check_format()): an opcode the target does
 *     (UNSUPPORTED), atomics in cap.atomic_feature (UNSUPPORTED; for
 *     WRITE_ATOMIC_ADD the FAA bit), 8 bytes at an 8-byte aligned address
 *     (ACCESS), WRITE_NOTIFY's notify word and WRITE_ATOMIC_ADD's word
 *     8-byte aligned, a FLUSH without payload and a SEND's invalidated
 *     segment not empty (ACCESS),
 *     a payload of at least MAETAH len, an atomic's two operands
 *     (OPERATION);
 *  3. memory transactions: the registered segment of token_id that covers
 *     the range and is not invalidated (ACCESS), then
 *     udma_target_check_seg(): the range, the token value unless the
 *     segment's token policy is NONE, not invalidated, not LOCAL_ONLY, the
 *     right the opcode needs (all ACCESS; WRITE* and FLUSH: WRITE, READ:
 *     READ, atomics: ATOMIC). A zero-length WRITE*, READ or FLUSH
 *     touches no data and its data range is not verified (UB transaction
 *     layer). FLUSH then makes the earlier writes of the TP visible
 *     (udma_target_mem_exec());
 *  4. WRITE_NOTIFY, after 3: the segment of the NTFETAH token ID that
 *     covers the notify word, and udma_target_check_notify(): as 3 with
 *     the WRITE right for 8 bytes at the notify address (ACCESS). Then the
 *     data is written, and the notify data after it with one 8-byte store.
 *     WRITE_ATOMIC_ADD the same with the ATOMIC right for the word, to
 *     which the notify data is added with one 8-byte atomic;
 *  5. messages (SEND, SEND_WITH_IMM, WRITE_WITH_IMM after 3): the JFR or
 *     jetty of the MTETAH target, READY, with a READY JFR (OPERATION); the
 *     token of the JFR unless its policy is NONE (ACCESS);
 *  6. SEND with an INVETAH, after 5: the segment it names and
 *     udma_target_check_inv(): token, not invalidated yet, not LOCAL_ONLY;
 *     and it belongs to the receiving JFR's or jetty's context (all
 *     ACCESS). Nothing is consumed yet;
 *  7. messages: an RQE (none: RNR, and a WRITE_WITH_IMM has not written,
 *     a SEND has not invalidated; a corrupt RQ: OPERATION). From here on
 *     the RQE is consumed: a SEND whose RQE has a bad SGE list completes
 *     at the receiver with LOC_ACCESS, one longer than the RQE with
 *     LOC_LEN, and both answer OPERATION (and invalidate nothing). A SEND
 *     with invalidate that is delivered invalidates its segment
 *     (ubcore_invalidate_seg()) before the receive CQE is written: every
 *     remote access to it fails from then on (ACCESS).
 * A receive CQE that does not fit in the receiver's JFC (udma_cq_post()
 * fails, the JFC reports JFC_ERR) answers OPERATION although the data
 * was placed: the receiver will never see the message.
 *
 * Every ACCESS of 3, 4, 5 (the JFR's token) and 6 is reported to ubcore
 * (udma_refused(), ubcore_report_access_fail()), which counts it per source
 * EID and per segment and invalidates a segment refused too often.
 *
 * Context: process context (copies may sleep between pieces); the
 * responder holds no lock of its own, any number of requests may be
 * executed at once (each takes its objects' references and the ring
 * locks of the RQ and CQ it touches).
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
 * Return: true for UBOE_TA_CAS .. UBOE_TA_FXOR.
 */
bool udma_ta_is_atomic(u8 opcode)
{
	return opcode >= UBOE_TA_CAS && opcode <= UBOE_TA_FXOR;
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
	case UBOE_TA_CAS:
		return UBCORE_ATOMIC_CAS;
	case UBOE_TA_SWAP:
		return UBCORE_ATOMIC_SWAP;
	case UBOE_TA_FADD:
		return UBCORE_ATOMIC_FAA;
	case UBOE_TA_FSUB:
		return UBCORE_ATOMIC_FSUB;
	case UBOE_TA_FAND:
		return UBCORE_ATOMIC_FAND;
	case UBOE_TA_FOR:
		return UBCORE_ATOMIC_FOR;
	case UBOE_TA_FXOR:
		return UBCORE_ATOMIC_FXOR;
	default:
		return 0;
	}
}
EXPORT_SYMBOL_IF_KUNIT(udma_ta_atomic_feature);

/* The offset of a request packet's payload in its transaction. */
static u64 udma_req_off(const struct udma_msg *req)
{
	return req->pkt.seg & UBOE_SEG_FIRST ? 0 : req->pkt.offset;
}

/* SEND with an INVETAH: URMA's SEND_WITH_INVALIDATE. */
static bool udma_req_inv(const struct udma_msg *req)
{
	return req->pkt.hdrs & UBOE_EXT_INVETAH;
}

/* The token a message presents for its JFR or jetty. */
static u32 udma_req_jetty_token(const struct udma_msg *req)
{
	return req->pkt.ta_opcode == UBOE_TA_WRITE_IMM ?
	       req->pkt.imm.token_value : req->pkt.token_value;
}

/* The immediate data of SEND_IMM and WRITE_IMM. */
static u64 udma_req_imm(const struct udma_msg *req)
{
	return req->pkt.imm.data;
}

/* An atomic's two operands: the inline payload of 16 bytes. */
static bool udma_req_operands(const struct udma_msg *req, u64 *op1, u64 *op2)
{
	const struct udma_local_buf *pl = req->payload;
	__be64 w[2];

	if (!pl || pl->nr || !pl->inline_data || pl->total != sizeof(w))
		return false;
	memcpy(w, pl->inline_data, sizeof(w));
	*op1 = be64_to_cpu(w[0]);
	*op2 = be64_to_cpu(w[1]);
	return true;
}

/**
 * udma_target_check_format() - the checks that need no target object
 * @req: the request
 * @atomic_feature: the target device's cap.atomic_feature
 *
 * Return: UBOE_RSPST_OK; UBOE_RSPST_UNSUPPORTED for an opcode the target
 * does not do or an atomic the device does not advertise;
 * UBOE_RSPST_ACCESS for an atomic that is not one aligned 8-byte word, a
 * WRITE_NOTIFY or WRITE_ATOMIC_ADD whose word is not aligned, a FLUSH with
 * a payload, a SEND that invalidates an empty range or an INVETAH on
 * anything but a SEND; UBOE_RSPST_OPERATION for a payload shorter than
 * MAETAH len or an atomic without its two operands. WRITE_ATOMIC_ADD
 * needs UBCORE_ATOMIC_FAA in @atomic_feature (UNSUPPORTED).
 */
enum uboe_rspst udma_target_check_format(const struct udma_msg *req,
					 u32 atomic_feature)
{
	const struct uboe_pkt *p = &req->pkt;
	u64 op1, op2;
	u32 bit;

	if (udma_req_inv(req) && (p->ta_opcode != UBOE_TA_SEND || !p->inv.len))
		return UBOE_RSPST_ACCESS;
	switch (p->ta_opcode) {
	case UBOE_TA_WRITE_ATOMIC_ADD:
		if (!(atomic_feature & UBCORE_ATOMIC_FAA))
			return UBOE_RSPST_UNSUPPORTED;
		fallthrough;
	case UBOE_TA_WRITE_NOTIFY:
		if (!IS_ALIGNED(p->ntf.va, sizeof(u64)))
			return UBOE_RSPST_ACCESS;
		fallthrough;
	case UBOE_TA_WRITE:
	case UBOE_TA_WRITE_IMM:
		return udma_msg_len(req) >= p->mae.len ?
		       UBOE_RSPST_OK : UBOE_RSPST_OPERATION;
	case UBOE_TA_SEND:
	case UBOE_TA_SEND_IMM:
	case UBOE_TA_READ:
		return UBOE_RSPST_OK;
	case UBOE_TA_FLUSH:
		return udma_msg_len(req) ? UBOE_RSPST_ACCESS : UBOE_RSPST_OK;
	case UBOE_TA_CAS ... UBOE_TA_FXOR:
		bit = udma_ta_atomic_feature(p->ta_opcode);
		if (!bit || !(atomic_feature & bit))
			return UBOE_RSPST_UNSUPPORTED;
		if (p->mae.len != sizeof(u64) ||
		    !IS_ALIGNED(p->mae.va, sizeof(u64)))
			return UBOE_RSPST_ACCESS;
		if (!udma_req_operands(req, &op1, &op2))
			return UBOE_RSPST_OPERATION;
		return UBOE_RSPST_OK;
	default:
		return UBOE_RSPST_UNSUPPORTED;
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
static enum uboe_rspst udma_seg_access(const struct ubcore_target_seg *tseg,
				       u64 va, u64 len, u32 token, u32 need)
{
	const struct ubcore_seg *seg = &tseg->seg;
	u32 access = UBCORE_SEG_FLAG_ACCESS(seg->attr);

	if (va < seg->ubva.va || len > seg->len ||
	    va - seg->ubva.va > seg->len - len)
		return UBOE_RSPST_ACCESS;
	if (!udma_target_token_ok(seg->attr, tseg->token_value, token))
		return UBOE_RSPST_ACCESS;
	/* The lookup skipped it if it was invalid then; it may be now. */
	if (READ_ONCE(tseg->invalid))
		return UBOE_RSPST_ACCESS;
	if (access & UBCORE_ACCESS_LOCAL_ONLY)
		return UBOE_RSPST_ACCESS;
	return (access & need) == need ? UBOE_RSPST_OK : UBOE_RSPST_ACCESS;
}

/**
 * udma_target_check_seg() - may a memory transaction access a segment
 * @tseg: the registered segment of the request's MAETAH token ID
 * @req: a WRITE, WRITE_WITH_IMM, WRITE_NOTIFY, WRITE_ATOMIC_ADD (their
 *	data range), READ, atomic or FLUSH
 *
 * Return: UBOE_RSPST_OK, or UBOE_RSPST_ACCESS if [va, va + len) of the
 * MAETAH is not inside @tseg, the TVETAH token does not match (policy not
 * NONE), the segment is invalidated, LOCAL_ONLY or lacks the right the
 * opcode needs (WRITE*: WRITE, READ: READ, atomics: ATOMIC, FLUSH: WRITE,
 * the right whose effects it makes visible).
 */
enum uboe_rspst udma_target_check_seg(const struct ubcore_target_seg *tseg,
				      const struct udma_msg *req)
{
	const struct uboe_pkt *p = &req->pkt;
	u32 need;

	switch (p->ta_opcode) {
	case UBOE_TA_WRITE:
	case UBOE_TA_WRITE_IMM:
	case UBOE_TA_WRITE_NOTIFY:
	case UBOE_TA_WRITE_ATOMIC_ADD:
	case UBOE_TA_FLUSH:
		need = UBCORE_ACCESS_WRITE;
		break;
	case UBOE_TA_READ:
		need = UBCORE_ACCESS_READ;
		break;
	case UBOE_TA_CAS ... UBOE_TA_FXOR:
		need = UBCORE_ACCESS_ATOMIC;
		break;
	default:
		return UBOE_RSPST_ACCESS;
	}
	return udma_seg_access(tseg, p->mae.va, p->mae.len, p->token_value,
			       need);
}
EXPORT_SYMBOL_IF_KUNIT(udma_target_check_seg);

/**
 * udma_target_check_notify() - may a WRITE_NOTIFY write its notify word,
 *	a WRITE_ATOMIC_ADD add to its word
 * @tseg: the registered segment of the request's NTFETAH token ID
 * @req: a WRITE_NOTIFY or a WRITE_ATOMIC_ADD
 *
 * Return: UBOE_RSPST_OK, or UBOE_RSPST_ACCESS if @req is neither, the 8
 * bytes at the NTFETAH address are not inside @tseg, the NTFETAH token
 * does not match (policy not NONE), or the segment is invalidated,
 * LOCAL_ONLY or lacks the right: WRITE for the notify word's store,
 * ATOMIC for the atomic add (as FADD's).
 */
enum uboe_rspst
udma_target_check_notify(const struct ubcore_target_seg *tseg,
			 const struct udma_msg *req)
{
	u32 need;

	if (req->pkt.ta_opcode == UBOE_TA_WRITE_NOTIFY)
		need = UBCORE_ACCESS_WRITE;
	else if (req->pkt.ta_opcode == UBOE_TA_WRITE_ATOMIC_ADD)
		need = UBCORE_ACCESS_ATOMIC;
	else
		return UBOE_RSPST_ACCESS;
	return udma_seg_access(tseg, req->pkt.ntf.va, sizeof(u64),
			       req->pkt.ntf.token_value, need);
}
EXPORT_SYMBOL_IF_KUNIT(udma_target_check_notify);

/**
 * udma_target_check_inv() - may a SEND invalidate a segment
 * @tseg: the registered segment of the request's INVETAH token ID
 * @req: a SEND with an INVETAH
 *
 * Invalidation needs the segment's token and no particular right: a peer
 * that may access the segment at all may end that access.
 *
 * Return: UBOE_RSPST_OK, or UBOE_RSPST_ACCESS if @req is no SEND with an
 * INVETAH, [va, va + len) of the INVETAH is not inside @tseg, its token
 * does not match (policy not NONE), or the segment is invalidated already
 * or LOCAL_ONLY.
 */
enum uboe_rspst udma_target_check_inv(const struct ubcore_target_seg *tseg,
				      const struct udma_msg *req)
{
	if (req->pkt.ta_opcode != UBOE_TA_SEND || !udma_req_inv(req))
		return UBOE_RSPST_ACCESS;
	return udma_seg_access(tseg, req->pkt.inv.va, req->pkt.inv.len,
			       req->pkt.inv.token_value, 0);
}
EXPORT_SYMBOL_IF_KUNIT(udma_target_check_inv);

/*
 * A refused remote access: ubcore counts it against @tseg (the segment it
 * named, or NULL) and @req's source. Returns @st.
 */
static enum uboe_rspst udma_refused(struct ubcore_device *dev,
				    struct ubcore_target_seg *tseg,
				    const struct udma_msg *req,
				    enum uboe_rspst st)
{
	if (st == UBOE_RSPST_ACCESS)
		ubcore_report_access_fail(dev, tseg, &req->pkt.src_eid);
	return st;
}

static bool udma_is_message(u8 opcode)
{
	return opcode == UBOE_TA_SEND || opcode == UBOE_TA_SEND_IMM;
}

static void udma_receiver_put(struct udma_receiver *rcv)
{
	if (rcv->jetty)
		ubcore_obj_ref_put(&rcv->jetty->obj_ref);
	else if (rcv->jfr)
		ubcore_obj_ref_put(&rcv->jfr->obj_ref);
}

/*
 * Find the JFR or jetty of the MTETAH target with a reference and check
 * it. A jetty's shared JFR stays while the jetty does (it holds a use
 * count).
 */
static enum uboe_rspst udma_receiver_get(struct ubcore_device *dev,
					 const struct udma_msg *req,
					 struct udma_receiver *rcv)
{
	struct ubcore_jetty *jetty;
	struct ubcore_jfr *jfr;

	memset(rcv, 0, sizeof(*rcv));
	jfr = ubcore_find_get_jfr(dev, req->pkt.mte.tgt_id);
	if (jfr) {
		rcv->jfr = jfr;
		rcv->jfc = jfr->cfg.jfc;
		rcv->uctx = jfr->uctx;
		rcv->local_id = jfr->id;
	} else {
		jetty = ubcore_find_get_jetty(dev, req->pkt.mte.tgt_id);
		if (!jetty)
			return UBOE_RSPST_OPERATION;
		rcv->jetty = jetty;
		rcv->jfr = jetty->cfg.jfr;
		rcv->jfc = jetty->cfg.recv_jfc ?: rcv->jfr->cfg.jfc;
		rcv->uctx = jetty->uctx;
		rcv->local_id = jetty->id;
		if (READ_ONCE(jetty->state) != UBCORE_JETTY_STATE_READY)
			return UBOE_RSPST_OPERATION;
	}
	if (READ_ONCE(rcv->jfr->state) != UBCORE_JFR_STATE_READY)
		return UBOE_RSPST_OPERATION;
	if (!udma_target_token_ok(rcv->jfr->cfg.flag, rcv->jfr->cfg.token_value,
				  udma_req_jetty_token(req)))
		return udma_refused(dev, NULL, req, UBOE_RSPST_ACCESS);
	return UBOE_RSPST_OK;
}

/*
 * Write the receive CQE of @req; OPERATION if the JFC cannot take it.
 * @inv: the segment a SEND with invalidate invalidated, or NULL.
 */
static enum uboe_rspst udma_recv_complete(const struct udma_receiver *rcv,
					  const struct udma_msg *req,
					  u64 user_ctx, u8 cr_status, u32 len,
					  const struct ubcore_target_seg *inv)
{
	const struct uboe_pkt *p = &req->pkt;
	struct udma_cqe cqe = {
		.status = cr_status,
		.flags = UDMA_CQE_F_RECV,
		.completion_len = len,
		.user_ctx = user_ctx,
		.local_id = rcv->local_id,
		.remote_id = p->rc_id,
		.remote_uasid = p->uasid,
	};

	switch (p->ta_opcode) {
	case UBOE_TA_SEND:
		cqe.opcode = udma_req_inv(req) ? UDMA_CR_OPC_SEND_WITH_INV :
						 UDMA_CR_OPC_SEND;
		break;
	case UBOE_TA_SEND_IMM:
		cqe.opcode = UDMA_CR_OPC_SEND_WITH_IMM;
		break;
	default:
		cqe.opcode = UDMA_CR_OPC_WRITE_WITH_IMM;
		break;
	}
	if (p->ta_opcode != UBOE_TA_SEND) {
		cqe.flags |= UDMA_CQE_F_IMM;
		cqe.imm_data = udma_req_imm(req);
	} else if (inv) {
		cqe.flags |= UDMA_CQE_F_INV;
		cqe.imm_data = inv->seg.token_id |
			       (u64)inv->token_value << 32;
	}
	if (p->solicited)
		cqe.flags |= UDMA_CQE_F_SOLICITED;
	memcpy(cqe.remote_eid, p->src_eid.raw, sizeof(cqe.remote_eid));
	if (udma_cq_post(to_udma_jfc(rcv->jfc), &cqe, p->solicited))
		return UBOE_RSPST_OPERATION;
	return UBOE_RSPST_OK;
}

/* Take the next RQE of the receiver: RNR when there is none. */
static enum uboe_rspst udma_recv_take(const struct udma_receiver *rcv,
				      struct udma_rqe *rqe)
{
	u32 posted;

	switch (udma_rq_take(to_udma_jfr(rcv->jfr), rqe, &posted)) {
	case UDMA_RQ_TAKEN:
		return UBOE_RSPST_OK;
	case UDMA_RQ_EMPTY:
		return UBOE_RSPST_RNR;
	default:
		return UBOE_RSPST_OPERATION;
	}
}

static void udma_rqe_ranges_put(struct udma_rqe_ranges *r)
{
	udma_ranges_put(r->range, &r->nr);
}

/*
 * Resolve the SGEs of @rqe (a copy) in the JFR's own context. Returns
 * false (and holds nothing) if there are more SGEs than the JFR allows or
 * one is not inside a segment of the JFR's context.
 */
static bool udma_rqe_ranges_get(struct ubcore_device *dev,
				const struct ubcore_jfr *jfr,
				const struct udma_rqe *rqe,
				struct udma_rqe_ranges *r)
{
	r->nr = 0;
	if (rqe->num_sge > jfr->cfg.max_sge || rqe->num_sge > UDMA_RQE_MAX_SGE)
		return false;
	return !udma_sges_get(dev, jfr->uctx, rqe->sge, rqe->num_sge,
			      r->range, &r->nr, &r->total);
}

/*
 * The segment a SEND with invalidate names, with a reference, checked
 * (udma_target_check_inv()) and of the receiver's context.
 */
static enum uboe_rspst udma_inv_seg_get(struct ubcore_device *dev,
					const struct udma_msg *req,
					const struct udma_receiver *rcv,
					struct ubcore_target_seg **out)
{
	const struct uboe_pkt *p = &req->pkt;
	struct ubcore_target_seg *tseg;
	enum uboe_rspst st;

	tseg = ubcore_find_get_remote_seg(dev, p->inv.token_id, p->inv.va,
					  p->inv.len);
	if (!tseg)
		return udma_refused(dev, NULL, req, UBOE_RSPST_ACCESS);
	st = udma_target_check_inv(tseg, req);
	/* A message ends the remote access of its receiver's memory only. */
	if (st == UBOE_RSPST_OK && tseg->uctx != rcv->uctx)
		st = UBOE_RSPST_ACCESS;
	if (st != UBOE_RSPST_OK) {
		udma_refused(dev, tseg, req, st);
		ubcore_obj_ref_put(&tseg->obj_ref);
		return st;
	}
	*out = tseg;
	return UBOE_RSPST_OK;
}

/* Place @req's payload into the ranges of @rqe: the receive CQE status. */
static u8 udma_recv_place(struct ubcore_device *dev,
			  const struct udma_receiver *rcv,
			  const struct udma_msg *req,
			  const struct udma_rqe *rqe)
{
	u64 len = udma_msg_len(req);
	struct udma_rqe_ranges ranges;
	u8 cr = URMA_CR_SUCCESS;

	if (!udma_rqe_ranges_get(dev, rcv->jfr, rqe, &ranges))
		return URMA_CR_LOC_ACCESS_ERR;
	if (len > ranges.total)
		cr = URMA_CR_LOC_LEN_ERR;
	else if (len && udma_buf_copy_to_ranges(req->payload, ranges.range,
						ranges.nr, len))
		cr = URMA_CR_LOC_ACCESS_ERR;
	udma_rqe_ranges_put(&ranges);
	return cr;
}

/*
 * SEND, SEND_WITH_IMM: deliver the payload into the next RQE; a SEND with
 * invalidate then invalidates its segment.
 */
static noinline_for_stack enum uboe_rspst
udma_target_send(struct ubcore_device *dev, const struct udma_msg *req)
{
	struct ubcore_target_seg *inv = NULL;
	struct udma_receiver rcv;
	enum uboe_rspst st;
	struct udma_rqe rqe;
	u8 cr;

	st = udma_receiver_get(dev, req, &rcv);
	/* The segment before the RQE: a refused SEND consumes none. */
	if (st == UBOE_RSPST_OK && udma_req_inv(req))
		st = udma_inv_seg_get(dev, req, &rcv, &inv);
	if (st == UBOE_RSPST_OK)
		st = udma_recv_take(&rcv, &rqe);
	if (st != UBOE_RSPST_OK)
		goto out;

	cr = udma_recv_place(dev, &rcv, req, &rqe);
	if (cr != URMA_CR_SUCCESS) {
		udma_recv_complete(&rcv, req, rqe.user_ctx, cr, 0, NULL);
		st = UBOE_RSPST_OPERATION;
		goto out;
	}
	/* Invalid before the receiver can see the CQE that says so. */
	if (inv)
		ubcore_invalidate_seg(inv);
	st = udma_recv_complete(&rcv, req, rqe.user_ctx, cr,
				min_t(u64, udma_msg_len(req), U32_MAX), inv);
out:
	if (inv)
		ubcore_obj_ref_put(&inv->obj_ref);
	udma_receiver_put(&rcv);
	return st;
}

/**
 * struct udma_resp_data - what a response carries
 * @data: READ: the target's range (nr 0 for a zero-length READ); holds
 *	the segment's reference until the response is delivered
 * @has_data: a READ_RESP
 * @has_word: an ATOMIC_RESP with @old
 * @old: an atomic's old value
 */
struct udma_resp_data {
	struct udma_local_buf data;
	bool has_data;
	bool has_word;
	u64 old;
};

/*
 * FLUSH: the transactions before it on its TP were executed before it
 * (in order, one at a time: udma_resp_rcv_seg(); the loopback executes
 * each within its send): their stores were done by this kernel's CPUs
 * into the target's pages, so a full barrier makes them visible to every
 * CPU before the TAACK goes. udma has no persistence domain beyond
 * memory, and no device caches of its own to write back.
 */
static void udma_target_flush(void)
{
	/* the earlier transactions' stores before the TAACK that says so */
	smp_mb();
}

/*
 * WRITE, WRITE_WITH_IMM, READ, the atomics and FLUSH on a checked segment.
 * READ takes over the reference on @r->seg into @out (the data are read
 * by whoever delivers the response).
 */
static enum uboe_rspst udma_target_mem_exec(const struct udma_msg *req,
					    const struct udma_mem_range *r,
					    struct udma_resp_data *out)
{
	u64 *word, op1, op2;

	switch (req->pkt.ta_opcode) {
	case UBOE_TA_WRITE:
	case UBOE_TA_WRITE_IMM:
		if (udma_buf_copy_to_range(req->payload, r, r->len))
			return UBOE_RSPST_ACCESS;
		break;
	case UBOE_TA_READ:
		out->data.nr = 1;
		out->data.range[0] = *r;
		out->data.total = r->len;
		out->has_data = true;
		break;
	case UBOE_TA_FLUSH:
		udma_target_flush();
		break;
	default:
		/* checked by udma_target_check_format() */
		udma_req_operands(req, &op1, &op2);
		word = udma_map_word(r);
		if (!word)
			return UBOE_RSPST_ACCESS;
		udma_atomic_exec(word, req->pkt.ta_opcode, op1, op2,
				 &out->old);
		udma_unmap_word(word);
		out->has_word = req->pkt.ta_opcode != UBOE_TA_STORE;
		break;
	}
	return UBOE_RSPST_OK;
}

/*
 * WRITE_NOTIFY on checked segments: the data (@r NULL when there is none),
 * then the notify data with one 8-byte store, so that a target polling the
 * notify word and then reading the data sees the data. WRITE_ATOMIC_ADD
 * the same, but the notify data is added to the word with one atomic
 * (udma_atomic_exec(), as FADD). The word is mapped first: a failure
 * changes nothing.
 */
static enum uboe_rspst udma_target_notify_exec(const struct udma_msg *req,
					       const struct udma_mem_range *r,
					       struct ubcore_target_seg *nseg)
{
	struct udma_mem_range nrange = {
		.seg = nseg, .va = req->pkt.ntf.va, .len = sizeof(u64),
	};
	u64 *word, old;

	word = udma_map_word(&nrange);
	if (!word)
		return UBOE_RSPST_ACCESS;
	if (r && udma_buf_copy_to_range(req->payload, r, r->len)) {
		udma_unmap_word(word);
		return UBOE_RSPST_ACCESS;
	}
	/* The data before the notify word (a poller reads them in order). */
	smp_wmb();
	if (req->pkt.ta_opcode == UBOE_TA_WRITE_ATOMIC_ADD)
		udma_atomic_exec(word, UBOE_TA_FADD, req->pkt.ntf.data, 0,
				 &old);
	else
		WRITE_ONCE(*word, req->pkt.ntf.data);
	udma_unmap_word(word);
	return UBOE_RSPST_OK;
}

/* The segment of the NTFETAH (WRITE_NOTIFY, WRITE_ATOMIC_ADD), checked. */
static enum uboe_rspst udma_notify_seg_get(struct ubcore_device *dev,
					   const struct udma_msg *req,
					   struct ubcore_target_seg **out)
{
	struct ubcore_target_seg *nseg;
	enum uboe_rspst st;

	nseg = ubcore_find_get_remote_seg(dev, req->pkt.ntf.token_id,
					  req->pkt.ntf.va, sizeof(u64));
	if (!nseg)
		return udma_refused(dev, NULL, req, UBOE_RSPST_ACCESS);
	st = udma_target_check_notify(nseg, req);
	if (st != UBOE_RSPST_OK) {
		udma_refused(dev, nseg, req, st);
		ubcore_obj_ref_put(&nseg->obj_ref);
		return st;
	}
	*out = nseg;
	return UBOE_RSPST_OK;
}

/*
 * One packet of a transaction in several (udma_resp_rcv_seg()): its
 * payload's offset, and whether it is the LAST.
 */
struct udma_part {
	u64 off;
	bool last;
};

/*
 * The memory transactions, WRITE_WITH_IMM, WRITE_NOTIFY, WRITE_ATOMIC_ADD
 * and FLUSH included; a
 * whole one (@part NULL), or one packet of a WRITE* in several: its data
 * at its offset, and on the LAST the rest of the transaction.
 */
static noinline_for_stack enum uboe_rspst
udma_target_mem(struct ubcore_device *dev, const struct udma_msg *req,
		struct udma_resp_data *out, const struct udma_part *part)
{
	struct ubcore_target_seg *tseg = NULL, *nseg = NULL;
	const struct uboe_pkt *p = &req->pkt;
	struct udma_receiver rcv = {};
	struct udma_mem_range range;
	enum uboe_rspst st;
	struct udma_rqe rqe;

	/* A zero-length memory transaction is not verified (UB TA layer). */
	if (p->mae.len) {
		tseg = ubcore_find_get_remote_seg(dev, p->mae.token_id,
						  p->mae.va, p->mae.len);
		if (!tseg)
			return udma_refused(dev, NULL, req,
					    UBOE_RSPST_ACCESS);
		st = udma_refused(dev, tseg, req,
				  udma_target_check_seg(tseg, req));
		if (st != UBOE_RSPST_OK)
			goto out;
	} else if (p->ta_opcode != UBOE_TA_WRITE_IMM &&
		   p->ta_opcode != UBOE_TA_WRITE_NOTIFY &&
		   p->ta_opcode != UBOE_TA_WRITE_ATOMIC_ADD) {
		if (p->ta_opcode == UBOE_TA_FLUSH)
			udma_target_flush();
		out->has_data = p->ta_opcode == UBOE_TA_READ;
		return UBOE_RSPST_OK;
	}
	range.seg = tseg;
	range.va = p->mae.va;
	range.len = p->mae.len;
	if (part) {
		/* one packet of several: its payload at its offset */
		range.va += part->off;
		range.len = udma_msg_len(req);
	}
	if (part && !part->last) {
		/* before the last packet: the data only */
		st = udma_buf_copy_to_range(req->payload, &range, range.len) ?
		     UBOE_RSPST_ACCESS : UBOE_RSPST_OK;
		goto out;
	}

	if (p->ta_opcode == UBOE_TA_WRITE_NOTIFY ||
	    p->ta_opcode == UBOE_TA_WRITE_ATOMIC_ADD) {
		/* Both ranges are checked before a byte moves. */
		st = udma_notify_seg_get(dev, req, &nseg);
		if (st == UBOE_RSPST_OK)
			st = udma_target_notify_exec(req, tseg ? &range : NULL,
						     nseg);
		goto out;
	}

	if (p->ta_opcode == UBOE_TA_WRITE_IMM) {
		st = udma_receiver_get(dev, req, &rcv);
		/* The RQE first: no RQE, no write. */
		if (st == UBOE_RSPST_OK)
			st = udma_recv_take(&rcv, &rqe);
		if (st != UBOE_RSPST_OK)
			goto out;
	}

	st = tseg ? udma_target_mem_exec(req, &range, out) : UBOE_RSPST_OK;
	/* The response holds the segment of a READ now. */
	if (out->data.nr)
		tseg = NULL;
	if (p->ta_opcode == UBOE_TA_WRITE_IMM) {
		/* the RQE is consumed: it completes either way */
		if (st == UBOE_RSPST_OK)
			st = udma_recv_complete(&rcv, req, rqe.user_ctx,
						URMA_CR_SUCCESS, p->mae.len,
						NULL);
		else
			udma_recv_complete(&rcv, req, rqe.user_ctx,
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

static enum uboe_rspst udma_seg_send(struct ubcore_device *dev,
				     const struct udma_msg *req,
				     struct udma_resp_seg *s, u64 off);
static enum uboe_rspst
udma_part_check_format(const struct udma_msg *req, u32 atomic_feature);

/*
 * Execute @req at @dev: the response's status and data. A whole request
 * (@part NULL), or one packet of a transaction in several, whose state
 * is @s.
 */
static enum uboe_rspst udma_resp_execute(struct ubcore_device *dev,
					 const struct udma_msg *req,
					 struct udma_resp_data *out,
					 struct udma_resp_seg *s,
					 const struct udma_part *part)
{
	bool msg = udma_is_message(req->pkt.ta_opcode);
	enum uboe_rspst st;

	if (!dev)
		return msg ? UBOE_RSPST_OPERATION : UBOE_RSPST_ACCESS;
	/* the target objects are udma's (struct udma_jfr ...) */
	if (strcmp(dev->ops->driver_name, UDMA_DRIVER_NAME))
		return UBOE_RSPST_UNSUPPORTED;
	/*
	 * A packet of several: the format of the whole transaction (the
	 * codec checked the packet's place in it, within MAETAH length).
	 */
	if (part && !msg && udma_msg_len(req) < req->pkt.mae.len)
		st = udma_part_check_format(req, dev->cap.atomic_feature);
	else
		st = udma_target_check_format(req, dev->cap.atomic_feature);
	if (st != UBOE_RSPST_OK)
		return st;
	if (msg)
		return part ? udma_seg_send(dev, req, s, part->off) :
			      udma_target_send(dev, req);
	return udma_target_mem(dev, req, out, part);
}

/**
 * udma_resp_init() - the header of the response to a request
 * @rsp: the response, set up as a TAACK with status @st
 * @req: the request
 * @st: enum uboe_rspst
 *
 * The response goes back the way the request came: source and
 * destination swapped, PSN, INI_TASSN, INI_RC_ID and a TAIDETAH echoed.
 */
void udma_resp_init(struct udma_msg *rsp, const struct udma_msg *req, u8 st)
{
	const struct uboe_pkt *q = &req->pkt;
	struct uboe_pkt *p = &rsp->pkt;

	memset(rsp, 0, sizeof(*rsp));
	p->tp_opcode = q->tp_opcode;
	p->seg = UBOE_SEG_ONLY;
	p->dtpn = q->stpn;
	p->stpn = q->dtpn;
	p->psn = q->psn;
	p->has_eid = true;
	p->src_eid = q->dst_eid;
	p->dst_eid = q->src_eid;
	p->ta_opcode = UBOE_TA_TAACK;
	p->tassn = q->tassn;
	p->rc_id = q->rc_id;
	p->rspst = st;
	if (q->hdrs & UBOE_EXT_TAIDETAH) {
		p->hdrs |= UBOE_EXT_TAIDETAH;
		p->taid = q->taid;
	}
}
EXPORT_SYMBOL_IF_KUNIT(udma_resp_init);

/**
 * udma_resp_rcv() - the responder: execute a request and answer it
 * @dev: the device of the request's destination EID, held by the
 *	carrier for the call; NULL when no device has the EID (the loopback
 *	knows at once where the wire would time out)
 * @req: the request; its payload is valid for the call
 *
 * See the top of this file for the checks and the statuses. The response
 * (TAACK; READ_RESP with the data; ATOMIC_RESP with the old value) goes
 * back through udma_carrier_reply() before the return; every reference
 * taken is dropped after it.
 *
 * Context: process context; may sleep.
 */
void udma_resp_rcv(struct ubcore_device *dev, const struct udma_msg *req)
{
	struct udma_resp_data out;
	struct udma_msg rsp;
	enum uboe_rspst st;

	out.data.nr = 0;
	out.data.total = 0;
	out.data.inline_data = NULL;
	out.data.skb = NULL;
	out.has_data = false;
	out.has_word = false;
	st = udma_resp_execute(dev, req, &out, NULL, NULL);
	udma_resp_init(&rsp, req, st);
	if (st == UBOE_RSPST_OK && out.has_data) {
		rsp.pkt.ta_opcode = UBOE_TA_READ_RESP;
		rsp.payload = &out.data;
	} else if (st == UBOE_RSPST_OK && out.has_word) {
		rsp.pkt.ta_opcode = UBOE_TA_ATOMIC_RESP;
		rsp.word[0] = cpu_to_be64(out.old);
		out.data.inline_data = rsp.word;
		out.data.total = sizeof(rsp.word[0]);
		rsp.payload = &out.data;
	}
	udma_carrier_reply(req, &rsp);
	if (out.data.nr)
		ubcore_obj_ref_put(&out.data.range[0].seg->obj_ref);
}
EXPORT_SYMBOL_IF_KUNIT(udma_resp_rcv);

/* Drop what a message in packets holds. */
static void udma_resp_seg_release(struct udma_resp_seg *s)
{
	s->rqe = false;
	udma_rqe_ranges_put(&s->ranges);
	udma_receiver_put(&s->rcv);
	memset(&s->rcv, 0, sizeof(s->rcv));
}

/**
 * udma_resp_seg_abort() - a message in packets will not end
 * @s: its state
 *
 * Its sender gave up on it (a FIRST or ONLY packet follows on the TP) or
 * the device is going. An RQE it took completes with LOC_LEN_ERR and no
 * bytes: the message that arrived is not whole. The receive work's
 * context, or the device's removal after that work stopped.
 */
void udma_resp_seg_abort(struct udma_resp_seg *s)
{
	if (!s->active)
		return;
	if (s->rqe)
		udma_recv_complete(&s->rcv, &s->first, s->user_ctx,
				   URMA_CR_LOC_LEN_ERR, 0, NULL);
	udma_resp_seg_release(s);
	s->active = false;
}
EXPORT_SYMBOL_IF_KUNIT(udma_resp_seg_abort);

/*
 * A packet of a SEND or SEND_WITH_IMM in several: the FIRST takes the
 * RQE, each is placed at its offset in the RQE's ranges, the LAST writes
 * the receive CQE (and invalidates, for a SEND with invalidate). Checks
 * as udma_target_send() for the whole message, but an RQE is taken
 * before the INVETAH (on the LAST packet only) is seen: a refused
 * invalidation completes it with LOC_ACCESS_ERR.
 */
static noinline_for_stack enum uboe_rspst
udma_seg_send(struct ubcore_device *dev, const struct udma_msg *req,
	      struct udma_resp_seg *s, u64 off)
{
	struct udma_mem_range slice[UDMA_RQE_MAX_SGE];
	const struct uboe_pkt *p = &req->pkt;
	struct ubcore_target_seg *inv = NULL;
	u64 len = udma_msg_len(req);
	enum uboe_rspst st;
	struct udma_rqe rqe;
	u32 n;

	if (p->seg & UBOE_SEG_FIRST) {
		st = udma_receiver_get(dev, req, &s->rcv);
		if (st == UBOE_RSPST_OK)
			st = udma_recv_take(&s->rcv, &rqe);
		if (st != UBOE_RSPST_OK)
			return st;
		s->rqe = true;
		s->user_ctx = rqe.user_ctx;
		if (!udma_rqe_ranges_get(dev, s->rcv.jfr, &rqe, &s->ranges))
			s->cr = URMA_CR_LOC_ACCESS_ERR;
	}
	if (s->cr == URMA_CR_SUCCESS && len) {
		if (off + len > s->ranges.total) {
			s->cr = URMA_CR_LOC_LEN_ERR;
		} else {
			n = udma_ranges_slice(s->ranges.range, s->ranges.nr,
					      off, len, slice);
			if (udma_buf_copy_to_ranges(req->payload, slice, n,
						    len))
				s->cr = URMA_CR_LOC_ACCESS_ERR;
		}
	}
	if (!(p->seg & UBOE_SEG_LAST))
		return UBOE_RSPST_OK;

	s->rqe = false;
	if (s->cr == URMA_CR_SUCCESS && udma_req_inv(req)) {
		st = udma_inv_seg_get(dev, req, &s->rcv, &inv);
		if (st != UBOE_RSPST_OK) {
			udma_recv_complete(&s->rcv, req, s->user_ctx,
					   URMA_CR_LOC_ACCESS_ERR, 0, NULL);
			return st;
		}
	}
	if (s->cr != URMA_CR_SUCCESS) {
		udma_recv_complete(&s->rcv, req, s->user_ctx, s->cr, 0, NULL);
		return UBOE_RSPST_OPERATION;
	}
	/* Invalid before the receiver can see the CQE that says so. */
	if (inv)
		ubcore_invalidate_seg(inv);
	st = udma_recv_complete(&s->rcv, req, s->user_ctx, URMA_CR_SUCCESS,
				min_t(u64, off + len, U32_MAX), inv);
	if (inv)
		ubcore_obj_ref_put(&inv->obj_ref);
	return st;
}

/* udma_target_check_format() of a WRITE* packet shorter than MAETAH len. */
static noinline_for_stack enum uboe_rspst
udma_part_check_format(const struct udma_msg *req, u32 atomic_feature)
{
	struct udma_msg whole = *req;

	whole.pkt.mae.len = udma_msg_len(req);
	return udma_target_check_format(&whole, atomic_feature);
}

/**
 * udma_resp_rcv_seg() - the responder, for a request packet of a TP
 * @dev: the device of the request's destination EID
 * @req: the packet's request; its payload is valid for the call
 * @s: the TP's message in packets
 *
 * An ONLY packet is a whole request (udma_resp_rcv()). The packets of a
 * transaction in several (SEND, SEND_WITH_IMM, WRITE, WRITE_WITH_IMM,
 * WRITE_NOTIFY, WRITE_ATOMIC_ADD) arrive in order, one transaction at a time per TP (the
 * transport and the sender's TP mutex see to it): each is executed as it
 * comes, straight into the target memory, with the checks of the whole
 * transaction; the response goes back after the LAST, or at the first
 * packet that fails (the rest are skipped). A packet that is not the
 * next of the transaction in progress is dropped; a FIRST ends one that
 * did not finish (udma_resp_seg_abort()).
 *
 * Context: the device's receive work; may sleep.
 */
void udma_resp_rcv_seg(struct ubcore_device *dev, const struct udma_msg *req,
		       struct udma_resp_seg *s)
{
	const struct uboe_pkt *p = &req->pkt;
	u64 off = udma_req_off(req);
	struct udma_part part = {
		.off = off, .last = p->seg & UBOE_SEG_LAST,
	};
	struct udma_resp_data out = {};
	struct udma_msg rsp;
	enum uboe_rspst st;

	if (p->seg & UBOE_SEG_FIRST) {
		udma_resp_seg_abort(s);
		if (p->seg == UBOE_SEG_ONLY) {
			udma_resp_rcv(dev, req);
			return;
		}
		s->active = true;
		s->answered = false;
		s->ta_opcode = p->ta_opcode;
		s->tassn = p->tassn;
		s->rc_id = p->rc_id;
		s->next_off = 0;
		s->cr = URMA_CR_SUCCESS;
		s->first = *req;
		s->first.payload = NULL;
	} else if (!s->active || s->ta_opcode != p->ta_opcode ||
		   s->tassn != p->tassn || s->rc_id != p->rc_id ||
		   s->next_off != off) {
		pr_debug_ratelimited("udma: packet at %llu of no transaction in progress dropped\n",
				     off);
		return;
	}
	s->next_off = off + udma_msg_len(req);
	if (!s->answered) {
		st = udma_resp_execute(dev, req, &out, s, &part);
		if (st != UBOE_RSPST_OK || (p->seg & UBOE_SEG_LAST)) {
			s->answered = true;
			udma_resp_init(&rsp, req, st);
			udma_carrier_reply(req, &rsp);
		}
	}
	if (p->seg & UBOE_SEG_LAST) {
		udma_resp_seg_release(s);
		s->active = false;
	}
}
EXPORT_SYMBOL_IF_KUNIT(udma_resp_rcv_seg);
