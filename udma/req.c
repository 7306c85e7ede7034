// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * The requester: takes WQEs off the SQ of a JFS or a jetty into the
 * queue's window (struct udma_sq.wnd), resolves what they name, turns each
 * into a request message (msg.h) and sends it through a carrier; the
 * completer (comp.c) matches the responses to the window and writes the
 * CQEs in order. engine.c decides when and where this runs; sq.c has the
 * queue's states, flush and binding.
 *
 * Taking a WQE: under the ring's lock, the ring is corrupt when userspace
 * set pi more than entry_cnt ahead of the kernel's ci (the queue goes to
 * ERROR); otherwise the entry at ci is copied into the window at tail and
 * ci advanced and published at once: the copy is the WQE from then on,
 * the ring entry is never read again. pi is read once per batch.
 *
 * Sending a WQE, in order (the first failure is its CQE's status, and the
 * WQE completes here without a message):
 *  1. udma_sqe_check() (sqe.c): the format against the queue's limits;
 *  2. NOP: completes at once;
 *  3. WRITE*, READ, atomics, FLUSH_DMA, SEND_INVALIDATE: rseg_idx, an
 *     imported segment (no such import: LOC_ACCESS_ERR); WRITE_NOTIFY and
 *     WRITE_ATOMIC also notify_rseg_idx (no such import: LOC_ACCESS_ERR;
 *     one of another EID than rseg_idx's: LOC_OPERATION_ERR, a
 *     transaction has one target);
 *  4. the target, whose EID gets the request: an RC jetty's bound peer
 *     (target_idx 0, or the index of an import of the same jetty: else
 *     LOC_OPERATION_ERR); otherwise target_idx in the context's import
 *     table, an imported JFR or jetty (no such import: LOC_ACCESS_ERR). A
 *     WRITE*, READ or atomic with target_idx 0 (not on a bound RC jetty)
 *     goes to its segment's EID instead. A kernel queue has no import
 *     table: it reaches its bound peer only. The segment a
 *     SEND_INVALIDATE names must have the target's EID (else
 *     LOC_OPERATION_ERR);
 *  5. local SGEs (zero-length ones are skipped): the registered segment of
 *     the SGE's token ID covering it (ubcore_find_get_seg()), of the
 *     queue's own context (LOC_ACCESS_ERR otherwise), held until the
 *     response is in;
 *  6. the request (udma_req_build()) goes out through the carrier
 *     (udma_carrier_xmit(), loopback.c); the WQE waits in the window for
 *     its response.
 *
 * The window: at most udma_sq.wnd_size WQEs are taken and not completed.
 * The requester sends WQEs in PSN order while the window has room, the
 * head does not wait for an RNR retry and a FENCE WQE finds every earlier
 * one answered; after each it lets the completer run, which writes the
 * CQEs of the answered WQEs at the head. The loopback answers within the
 * send, so on the local path every WQE completes before the next is
 * taken (and a full CQ stops the queue with the WQEs behind it still in
 * the ring); a carrier that answers later fills the window, and its
 * responses kick the queue's work.
 *
 * RNR: the WQE stays at the head, nothing behind it is sent, and it is
 * sent again after 1, 2, 4 .. 64 ms (comp.c).
 */
#include <linux/jiffies.h>
#include <linux/kernel.h>
#include <linux/lockdep.h>
#include <linux/minmax.h>
#include <linux/sched.h>
#include <linux/sizes.h>
#include <linux/string.h>

#include <kunit/visibility.h>

#include "msg.h"
#include "target.h"
#include "udma.h"

static_assert(sizeof(struct udma_sqe) == UDMA_SQE_SIZE);

/* What one doorbell call does inline before it leaves the rest to work. */
#define UDMA_SQ_INLINE_WQES	64
#define UDMA_SQ_INLINE_BYTES	SZ_256K
/* What one run of the work does before it requeues itself. */
#define UDMA_SQ_WORK_WQES	256
#define UDMA_SQ_WORK_BYTES	SZ_4M
/* What a kernel queue's softirq batch does; the work does the rest. */
#define UDMA_SQ_SOFTIRQ_WQES	16
#define UDMA_SQ_SOFTIRQ_BYTES	SZ_256K

/* What the WQEs of one batch share; taken once per batch. */
struct udma_sq_batch {
	struct udma_sq_limits lim;
	struct ubcore_device *dev;
	struct ubcore_ucontext *uctx;
	struct udma_ucontext *udma_uctx;
	union ubcore_eid src_eid;
	u32 src_uasid;
	u32 id;
};

static void udma_sq_batch_init(struct udma_sq *sq, struct udma_sq_batch *b)
{
	const struct ubcore_jfs_cfg *cfg = udma_sq_cfg(sq);
	struct ubcore_device *dev = &sq->udev->ub_dev;
	const struct ubcore_device_cap *cap = &dev->cap;

	b->lim = (struct udma_sq_limits){
		.trans_mode = cfg->trans_mode,
		.max_sge = cfg->max_sge,
		.max_inline = cfg->max_inline_data,
		.max_msg_size = cap->max_msg_size,
		.max_write_size = cap->max_write_size,
		.max_read_size = cap->max_read_size,
		.atomic_feature = cap->atomic_feature,
		.jetty = !!sq->jetty,
		.bound = sq->bound,
		.bonding = !!sq->udev->bond,
	};
	b->dev = dev;
	b->uctx = udma_sq_uctx(sq);
	b->udma_uctx = b->uctx ? to_udma_ucontext(b->uctx) : NULL;
	b->src_uasid = b->uctx ? b->uctx->uasid : 0;
	b->id = udma_sq_id(sq);
	/* An EID removed meanwhile: the target sees a zero source EID. */
	if (ubcore_get_eid(dev, b->uctx ? b->uctx->eid_index : 0, &b->src_eid))
		memset(&b->src_eid, 0, sizeof(b->src_eid));
}

static bool udma_import_same(const struct udma_import *a,
			     const struct udma_import *b)
{
	return a->id == b->id && !memcmp(&a->eid, &b->eid, sizeof(a->eid));
}

static u8 udma_sq_resolve_target(struct udma_sq *sq,
				 const struct udma_sq_batch *b,
				 const struct udma_sqe *sqe,
				 struct udma_import *peer)
{
	if (b->lim.trans_mode == UBCORE_TP_RC && sq->bound) {
		if (!sqe->target_idx) {
			*peer = sq->peer;
			return URMA_CR_SUCCESS;
		}
		if (!udma_import_lookup(b->udma_uctx, sqe->target_idx,
					UDMA_IMPORT_JETTY, peer))
			return URMA_CR_LOC_ACCESS_ERR;
		return udma_import_same(peer, &sq->peer) ?
		       URMA_CR_SUCCESS : URMA_CR_LOC_OPERATION_ERR;
	}
	if (!udma_import_lookup(b->udma_uctx, sqe->target_idx,
				UDMA_IMPORT_JETTY, peer))
		return URMA_CR_LOC_ACCESS_ERR;
	return URMA_CR_SUCCESS;
}

/* SEND, SEND_IMM, SEND_INVALIDATE: delivered into an RQE. */
static bool udma_sqe_is_message(const struct udma_sqe *sqe)
{
	return sqe->opcode == URMA_OPC_SEND ||
	       sqe->opcode == URMA_OPC_SEND_IMM ||
	       sqe->opcode == URMA_OPC_SEND_INVALIDATE;
}

/*
 * A WRITE*, READ or atomic that names no target (target_idx 0) outside an
 * RC jetty goes to the EID of its imported segment.
 */
static bool udma_sq_seg_only(const struct udma_sq *sq,
			     const struct udma_sq_batch *b,
			     const struct udma_sqe *sqe)
{
	if (sqe->target_idx || udma_sqe_is_message(sqe) ||
	    sqe->opcode == URMA_OPC_WRITE_IMM)
		return false;
	return b->lim.trans_mode != UBCORE_TP_RC || !sq->bound;
}

/**
 * udma_wqe_release() - drop the local memory references of a WQE
 * @wqe: a WQE of a window
 */
void udma_wqe_release(struct udma_wqe *wqe)
{
	if (!wqe->held)
		return;
	udma_ranges_put(wqe->buf.range, &wqe->buf.nr);
	wqe->held = false;
}
EXPORT_SYMBOL_IF_KUNIT(udma_wqe_release);

/*
 * Resolve the local SGEs (or the inline data) of a checked SQE: segments
 * of the queue's own context.
 */
static u8 udma_sq_get_local(const struct udma_sq_batch *b,
			    struct udma_wqe *wqe)
{
	const struct udma_sqe *sqe = &wqe->sqe;
	struct udma_local_buf *buf = &wqe->buf;

	buf->nr = 0;
	buf->total = 0;
	buf->inline_data = NULL;
	buf->skb = NULL;
	if (sqe->flags & UDMA_SQE_F_INLINE) {
		buf->inline_data = sqe->inline_data;
		buf->total = sqe->inline_len;
		return URMA_CR_SUCCESS;
	}
	if (udma_sges_get(b->dev, b->uctx, sqe->sge, sqe->num_sge, buf->range,
			  &buf->nr, &buf->total))
		return URMA_CR_LOC_ACCESS_ERR;
	wqe->held = true;
	return URMA_CR_SUCCESS;
}

/* The TAOpcode of an SQE's opcode (SEND_INVALIDATE: a SEND + INVETAH). */
static u8 udma_ta_opcode(u8 opcode)
{
	switch (opcode) {
	case URMA_OPC_WRITE:
		return UBOE_TA_WRITE;
	case URMA_OPC_WRITE_IMM:
		return UBOE_TA_WRITE_IMM;
	case URMA_OPC_WRITE_NOTIFY:
		return UBOE_TA_WRITE_NOTIFY;
	case URMA_OPC_WRITE_ATOMIC:
		return UBOE_TA_WRITE_ATOMIC_ADD;
	case URMA_OPC_FLUSH_DMA:
		return UBOE_TA_FLUSH;
	case URMA_OPC_READ:
		return UBOE_TA_READ;
	case URMA_OPC_CAS:
		return UBOE_TA_CAS;
	case URMA_OPC_SWAP:
		return UBOE_TA_SWAP;
	case URMA_OPC_FADD:
		return UBOE_TA_FADD;
	case URMA_OPC_FSUB:
		return UBOE_TA_FSUB;
	case URMA_OPC_FAND:
		return UBOE_TA_FAND;
	case URMA_OPC_FOR:
		return UBOE_TA_FOR;
	case URMA_OPC_FXOR:
		return UBOE_TA_FXOR;
	case URMA_OPC_SEND_IMM:
		return UBOE_TA_SEND_IMM;
	default:	/* SEND, SEND_INVALIDATE */
		return UBOE_TA_SEND;
	}
}

/*
 * The imported segments a WQE names: rseg_idx (not for SEND and SEND_IMM)
 * and WRITE_NOTIFY's or WRITE_ATOMIC's notify_rseg_idx, which must be of
 * the same EID.
 */
static u8 udma_sq_resolve_segs(const struct udma_sq_batch *b,
			       const struct udma_sqe *sqe,
			       struct udma_import *rseg,
			       struct udma_import *nseg)
{
	if (sqe->opcode == URMA_OPC_SEND || sqe->opcode == URMA_OPC_SEND_IMM)
		return URMA_CR_SUCCESS;
	if (!udma_import_lookup(b->udma_uctx, sqe->rseg_idx, UDMA_IMPORT_SEG,
				rseg))
		return URMA_CR_LOC_ACCESS_ERR;
	if (sqe->opcode != URMA_OPC_WRITE_NOTIFY &&
	    sqe->opcode != URMA_OPC_WRITE_ATOMIC)
		return URMA_CR_SUCCESS;
	if (!udma_import_lookup(b->udma_uctx, sqe->notify_rseg_idx,
				UDMA_IMPORT_SEG, nseg))
		return URMA_CR_LOC_ACCESS_ERR;
	if (memcmp(&nseg->eid, &rseg->eid, sizeof(rseg->eid)))
		return URMA_CR_LOC_OPERATION_ERR;
	return URMA_CR_SUCCESS;
}

/* What a request is built from, resolved. */
struct udma_req_target {
	struct udma_import peer;
	struct udma_import rseg;
	struct udma_import nseg;
};

/*
 * The request of @wqe: the header fields of the UBoE packet (msg.h) and
 * the payload by reference (@wqe's local buffer, or the atomic's operands
 * in @req->word).
 */
static void udma_req_build(struct udma_msg *req, struct udma_sq *sq,
			   const struct udma_sq_batch *b,
			   const struct udma_wqe *wqe, u32 psn,
			   const struct udma_req_target *t)
{
	const struct udma_sqe *sqe = &wqe->sqe;
	struct uboe_pkt *p = &req->pkt;
	u64 len = wqe->buf.total;

	memset(req, 0, sizeof(*req));
	p->tp_opcode = b->lim.trans_mode == UBCORE_TP_UM ? UBOE_TP_UTP_DATA :
							   UBOE_TP_RTP_DATA;
	p->seg = UBOE_SEG_ONLY;
	p->psn = psn & UBOE_PSN_MASK;
	p->has_eid = true;
	p->src_eid = b->src_eid;
	p->dst_eid = t->peer.eid;
	p->ta_opcode = udma_ta_opcode(sqe->opcode);
	p->tassn = psn;
	p->rc_id = b->id & UBOE_ID_MASK;
	p->tco = true;
	req->sq = sq;

	switch (sqe->opcode) {
	case URMA_OPC_SEND_INVALIDATE:
		p->hdrs |= UBOE_EXT_INVETAH;
		p->inv.va = t->rseg.va;
		p->inv.len = t->rseg.len;
		p->inv.token_id = t->rseg.token_id;
		p->inv.token_value = t->rseg.token_value;
		fallthrough;
	case URMA_OPC_SEND:
	case URMA_OPC_SEND_IMM:
		p->hdrs |= UBOE_EXT_MTETAH | UBOE_X_TVETAH | UBOE_X_UDETAH;
		p->mte.tgt_id = t->peer.id;
		p->token_value = t->peer.token_value;
		p->uasid = b->src_uasid;
		/* BTAH SE: the opcodes that take an RQE */
		p->solicited = sqe->flags & UDMA_SQE_F_SOLICITED;
		if (sqe->opcode == URMA_OPC_SEND_IMM) {
			p->hdrs |= UBOE_EXT_IMMETAH;
			p->imm.data = sqe->data;
			p->imm.msg_len = len;
		}
		req->payload = &wqe->buf;
		return;
	default:
		break;
	}

	/* memory transactions */
	p->hdrs |= UBOE_EXT_MAETAH | UBOE_X_TVETAH;
	p->mae.va = sqe->remote_va;
	p->mae.token_id = t->rseg.token_id;
	p->mae.len = len;
	p->token_value = t->rseg.token_value;
	switch (sqe->opcode) {
	case URMA_OPC_FLUSH_DMA:
		/* the remote range; no data either way */
		p->mae.len = sqe->remote_len;
		break;
	case URMA_OPC_WRITE_NOTIFY:
	case URMA_OPC_WRITE_ATOMIC:
		/* the notify word, or the word WRITE_ATOMIC adds to */
		p->hdrs |= UBOE_EXT_NTFETAH;
		p->ntf.data = sqe->data;
		p->ntf.va = sqe->notify_va;
		p->ntf.token_id = t->nseg.token_id;
		p->ntf.token_value = t->nseg.token_value;
		req->payload = &wqe->buf;
		break;
	case URMA_OPC_WRITE_IMM:
		p->hdrs |= UBOE_EXT_IMMETAH | UBOE_EXT_MTETAH | UBOE_X_UDETAH;
		p->imm.data = sqe->data;
		p->imm.token_value = t->peer.token_value;
		p->imm.msg_len = len;
		p->mte.tgt_id = t->peer.id;
		p->uasid = b->src_uasid;
		p->solicited = sqe->flags & UDMA_SQE_F_SOLICITED;
		fallthrough;
	case URMA_OPC_WRITE:
		req->payload = &wqe->buf;
		break;
	case URMA_OPC_READ:
		p->hdrs |= UBOE_EXT_TAIDETAH;
		p->taid = psn;
		break;
	default:	/* atomics: the operands are the payload */
		p->hdrs |= UBOE_EXT_TAIDETAH;
		p->taid = psn;
		req->word[0] = cpu_to_be64(sqe->data);
		req->word[1] = cpu_to_be64(sqe->cmp_data);
		break;
	}
}

/* The response that carries a WQE's data (udma_wqe.rsp). */
static u8 udma_req_rsp_opcode(u8 ta_opcode)
{
	if (ta_opcode == UBOE_TA_READ)
		return UBOE_TA_READ_RESP;
	if (ta_opcode >= UBOE_TA_CAS && ta_opcode <= UBOE_TA_FXOR &&
	    ta_opcode != UBOE_TA_STORE)
		return UBOE_TA_ATOMIC_RESP;
	return UBOE_TA_TAACK;
}

/* A WQE that completes here, without a message. */
static void udma_wqe_done(struct udma_wqe *wqe, u8 status)
{
	udma_wqe_release(wqe);
	wqe->state = UDMA_WQE_DONE;
	wqe->status = status;
	wqe->len = 0;
}

/*
 * Send the WQE at @sq->next: its request goes out (SENT), or it fails
 * here (DONE). The carrier may have answered it by the return. False, in
 * softirq (@sq->atomic), when the carrier needs process context: the WQE
 * stays at @sq->next, taken, for the work.
 */
static bool udma_req_send(struct udma_sq *sq, const struct udma_sq_batch *b)
{
	struct udma_wqe *wqe = udma_sq_wqe(sq, sq->next);
	const struct udma_sqe *sqe = &wqe->sqe;
	struct udma_local_buf operands;
	struct udma_req_target t;
	struct udma_msg req;
	int ret;
	u8 st;

	st = udma_sqe_check(sqe, &b->lim);
	if (st || sqe->opcode == URMA_OPC_NOP)
		goto done;
	st = udma_sq_resolve_segs(b, sqe, &t.rseg, &t.nseg);
	if (st)
		goto done;
	if (udma_sq_seg_only(sq, b, sqe)) {
		memset(&t.peer, 0, sizeof(t.peer));
		t.peer.eid = t.rseg.eid;
	} else {
		st = udma_sq_resolve_target(sq, b, sqe, &t.peer);
		if (st)
			goto done;
	}
	if (sqe->opcode == URMA_OPC_SEND_INVALIDATE &&
	    memcmp(&t.rseg.eid, &t.peer.eid, sizeof(t.peer.eid)))
		st = URMA_CR_LOC_OPERATION_ERR;
	else
		st = udma_sq_get_local(b, wqe);
	if (st)
		goto done;

	udma_req_build(&req, sq, b, wqe, sq->next, &t);
	if (udma_ta_is_atomic(req.pkt.ta_opcode)) {
		operands.nr = 0;
		operands.skb = NULL;
		operands.inline_data = req.word;
		operands.total = sizeof(req.word);
		req.payload = &operands;
	}
	wqe->rsp = udma_req_rsp_opcode(req.pkt.ta_opcode);
	wqe->rd_off = 0;
	wqe->state = UDMA_WQE_SENT;
	sq->next++;
	if (sq->carrier) {
		req.carrier = sq->carrier;
		ret = sq->carrier->xmit(&req);
	} else {
		ret = udma_carrier_xmit(sq, &req);
	}
	if (ret == -EWOULDBLOCK) {
		/* nothing sent: the WQE is taken again from process context */
		sq->next--;
		wqe->state = UDMA_WQE_TAKEN;
		udma_wqe_release(wqe);
		return false;
	}
	return true;

done:
	udma_wqe_done(wqe, st);
	sq->next++;
	return true;
}

enum udma_sq_take {
	UDMA_SQ_TAKEN,
	UDMA_SQ_EMPTY,
	UDMA_SQ_CORRUPT,
};

/* Copy the WQE at ci into the window at tail and advance ci, up to @pi. */
static enum udma_sq_take udma_sq_take(struct udma_sq *sq, u32 pi)
{
	struct udma_ring *ring = sq->ring;
	enum udma_sq_take ret = UDMA_SQ_TAKEN;
	struct udma_wqe *wqe;
	u32 ci;

	spin_lock_bh(&ring->lock);
	ci = ring->ci;
	if (pi - ci > ring->entry_cnt) {
		ret = UDMA_SQ_CORRUPT;
	} else if (pi == ci) {
		ret = UDMA_SQ_EMPTY;
	} else {
		wqe = udma_sq_wqe(sq, sq->tail);
		memcpy(&wqe->sqe, udma_ring_entry(ring, ci), sizeof(wqe->sqe));
		ring->ci = ci + 1;
		/*
		 * Userspace may reuse the entry: it is not read again (the
		 * release orders the copy before the new ci).
		 */
		smp_store_release(&ring->ctrl->ci, ci + 1);
		wqe->state = UDMA_WQE_TAKEN;
		wqe->held = false;
		wqe->rtp = NULL;
		sq->tail++;
	}
	spin_unlock_bh(&ring->lock);
	return ret;
}

/* Bytes of a WQE for the budget (the copy; not yet checked). */
static u64 udma_sqe_bytes(const struct udma_sqe *sqe)
{
	u64 total = 0;
	u32 i;

	if (sqe->flags & UDMA_SQE_F_INLINE)
		return sqe->inline_len;
	for (i = 0; i < min_t(u32, sqe->num_sge, UDMA_SQE_MAX_SGE); i++)
		total += sqe->sge[i].len;
	return total;
}

static bool udma_sq_running(const struct udma_sq *sq)
{
	return sq->state == UBCORE_JETTY_STATE_READY && !READ_ONCE(sq->dying);
}

/*
 * May the WQE at @sq->next be sent now? Not while the head waits for an
 * RNR retry, nor a FENCE WQE while an earlier one waits for its response.
 */
static bool udma_req_may_send(const struct udma_sq *sq)
{
	const struct udma_wqe *wqe = udma_sq_wqe(sq, sq->next);
	u32 psn;

	/* An RNR retry sends the head alone. */
	if (sq->rnr_wait && sq->next != sq->head)
		return false;
	if (!(wqe->sqe.flags & UDMA_SQE_F_FENCE))
		return true;
	for (psn = sq->head; psn != sq->next; psn++)
		if (udma_sq_wqe(sq, psn)->state == UDMA_WQE_SENT)
			return false;
	return true;
}

/* Has the requester of @sq WQEs to take or to send? */
static bool udma_sq_pending(struct udma_sq *sq)
{
	bool pending;

	if (sq->next != sq->tail)
		return true;
	spin_lock_bh(&sq->ring->lock);
	pending = udma_sq_pi(sq) != sq->ring->ci;
	spin_unlock_bh(&sq->ring->lock);
	return pending;
}

/**
 * udma_sq_complete() - run the completer of an SQ, not its requester
 * @sq: the queue; the caller holds @sq->proc_lock
 *
 * Hands the responses the wire brought to the completer and writes the
 * CQEs of the answered WQEs at the head. Nothing here sleeps: a
 * response's data are one packet's (udma_buf_copy() reschedules only
 * between megabytes), a CQE goes to its JFC under a spinlock.
 *
 * Return: true when the requester has work (the caller queues the SQ's
 * work): WQEs to take or to send, or an RNR wait at the head.
 */
bool udma_sq_complete(struct udma_sq *sq)
{
	udma_sq_assert_held(sq);
	if (!udma_sq_running(sq))
		return false;
	if (sq->rnr_wait)
		return true;
	udma_uboe_sq_drain(sq);
	if (!udma_comp_run(sq))
		return false;
	/* a request stopped for its TP: the TP's wake kicks the work */
	return !sq->uboe_tx.tx.rtp && udma_sq_pending(sq);
}
EXPORT_SYMBOL_IF_KUNIT(udma_sq_complete);

/* What one run of udma_sq_process() may send. */
struct udma_sq_budget {
	u32 wqes;
	u64 bytes;
	bool strict;	/* a WQE beyond @bytes is left, even the first */
};

static const struct udma_sq_budget udma_sq_budgets[] = {
	[UDMA_SQ_DOORBELL] = {
		UDMA_SQ_INLINE_WQES, UDMA_SQ_INLINE_BYTES, true
	},
	[UDMA_SQ_WORK] = {
		UDMA_SQ_WORK_WQES, UDMA_SQ_WORK_BYTES, false
	},
	[UDMA_SQ_SOFTIRQ] = {
		UDMA_SQ_SOFTIRQ_WQES, UDMA_SQ_SOFTIRQ_BYTES, true
	},
};

/* udma_sq_process() but the flush of the run's UM train. */
static bool udma_sq_run_wqes(struct udma_sq *sq, enum udma_sq_runner runner)
{
	const struct udma_sq_budget *max = &udma_sq_budgets[runner];
	struct udma_sq_batch b;
	u64 bytes = 0, next;
	u32 done, pi;

	udma_sq_assert_held(sq);
	if (!udma_sq_running(sq))
		return false;
	if (sq->rnr_wait && !READ_ONCE(sq->rnr_woken) &&
	    time_before(jiffies, sq->rnr_until)) {
		udma_sq_kick(sq, sq->rnr_until - jiffies);
		return false;
	}
	/* Responses that came in since the last run. */
	udma_uboe_sq_drain(sq);
	if (!udma_comp_run(sq))
		return false;
	/*
	 * A request that stopped for its TP goes on first; while it waits,
	 * nothing else is sent (the TP's wake kicks the work).
	 */
	if (udma_uboe_sq_resume(sq) || !udma_comp_run(sq))
		return false;
	udma_sq_batch_init(sq, &b);
	spin_lock_bh(&sq->ring->lock);
	pi = udma_sq_pi(sq);
	spin_unlock_bh(&sq->ring->lock);

	for (done = 0; done < max->wqes; done++) {
		if (!udma_sq_running(sq))
			return false;
		if (sq->next == sq->tail) {
			/* The window is full: the responses kick the work. */
			if (sq->tail - sq->head >= sq->wnd_size)
				return false;
			switch (udma_sq_take(sq, pi)) {
			case UDMA_SQ_EMPTY:
				return false;
			case UDMA_SQ_CORRUPT:
				udma_sq_fatal(sq);
				return false;
			default:
				break;
			}
		}
		if (!udma_req_may_send(sq))
			return false;
		next = udma_sqe_bytes(&udma_sq_wqe(sq, sq->next)->sqe);
		if (bytes + next > max->bytes && (max->strict || done))
			return true;
		bytes += next;
		if (!udma_req_send(sq, &b))
			return true;
		if (!udma_comp_run(sq))
			return false;
		/* its request stopped for its TP: the TP's wake kicks the work */
		if (sq->uboe_tx.tx.rtp)
			return false;
		if (runner == UDMA_SQ_WORK)
			cond_resched();
	}
	return true;
}

/**
 * udma_sq_process() - run the requester and the completer of an SQ
 * @sq: the queue; the caller holds @sq->proc_lock
 * @runner: who runs it, which sets the budget: the doorbell caller's (64
 *	WQEs, 256 KiB, and a WQE that does not fit is left taken for the
 *	work); a softirq's (16 WQEs, 256 KiB, likewise; @sq->atomic set, so
 *	a WQE that needs process context is left too); the work's (256
 *	WQEs, 4 MiB, at least one WQE)
 *
 * Reads pi once and sends WQEs up to it while the queue is READY and the
 * window lets it (see the top of this file), completing the answered
 * ones after each. The run's UM datagrams leave at its end, in trains
 * (udma_uboe_sq_flush()). Sleeps unless @sq->atomic (process context):
 * copies, target lookups.
 *
 * Return: true when WQEs may be left (the caller queues the work), false
 * when the SQ is empty, stopped, waits for an RNR retry (its work is
 * queued for that already), for responses (they kick the work) or for
 * its TP's window (the TP's wake kicks it).
 */
bool udma_sq_process(struct udma_sq *sq, enum udma_sq_runner runner)
{
	bool more = udma_sq_run_wqes(sq, runner);

	udma_uboe_sq_flush(sq);
	return more;
}
EXPORT_SYMBOL_IF_KUNIT(udma_sq_process);
