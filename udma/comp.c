// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * The completer: matches response messages (msg.h) to the WQEs of an
 * SQ's window, places READ data and an atomic's old value into the
 * initiator's local buffer, and writes the CQEs in PSN order.
 *
 * A response is taken (udma_comp_rcv()) only if it answers a WQE that
 * waits for one: its PSN (the WQE's in the queue; the UBoE carrier gives
 * a response from the wire the one its INI_TASSN names,
 * udma_uboe_sq_drain()) lies in [head, next) of the window, that WQE is
 * SENT, INI_RC_ID is the queue's, and its TAOpcode is the one the request
 * takes (READ_RESP for a READ, ATOMIC_RESP for an atomic that returns a
 * value, TAACK otherwise; any failure is a TAACK). Anything else (a late
 * duplicate, a response to nothing, the wrong kind, READ data of another
 * length than asked) is dropped and counted (udma_sq.resp_dropped): a
 * response can complete nothing out of order and nothing twice. READ data
 * may come in several packets (the UBoE carrier's segmentation): each is
 * placed at its offset, which must be where the previous one ended
 * (udma_wqe.rd_off), and the LAST answers the WQE.
 *
 * The status (ATAH RSPST) becomes the CQE's:
 *	OK           SUCCESS (completion_len: the bytes of the WQE); the
 *	             data placed first, LOC_LEN_ERR when they cannot be
 *	RNR          the WQE is sent again after a delay (below), then
 *	             RNR_RETRY_CNT_EXC_ERR
 *	ACCESS       REM_ACCESS_ABORT_ERR
 *	OPERATION    REM_OPERATION_ERR
 *	UNSUPPORTED  REM_UNSUPPORTED_REQ_ERR
 * A WQE completes with a CQE on the queue's JFC when it asked for one
 * (UDMA_SQE_F_COMPLETE) or failed. A failed WQE does not change the
 * queue's state (guide 5.3.3: a bad request is reported by its completion
 * record). A CQE that does not fit in the JFC (JFC_ERR) is fatal to the
 * queue: it goes to ERROR (sq.c).
 *
 * RNR: the WQE stays at the head, the ones sent after it are sent again
 * after it, and it is retried after 1, 2, 4 .. 64 ms (the SQ's work),
 * cfg.rnr_retry times (7 means 7, not "forever" as in InfiniBand). A JFR
 * doorbell on this host retries it at once without counting a retry
 * (engine.c).
 *
 * Context: under the queue's proc_lock (the loopback answers within the
 * requester's send); the UBoE carrier's responses are queued to the SQ
 * (udma_sq.rsp_list) on receipt and handed over (udma_uboe_sq_drain())
 * by the receive softirq or the SQ's processor, under it. Nothing here
 * sleeps.
 */
#include <linux/jiffies.h>
#include <linux/kernel.h>
#include <linux/lockdep.h>
#include <linux/minmax.h>

#include <kunit/visibility.h>

#include <asm/unaligned.h>

#include "msg.h"
#include "target.h"
#include "udma.h"

/* The first RNR retry delay, doubled per retry up to 2^6 times it. */
#define UDMA_RNR_DELAY_MS	1
#define UDMA_RNR_DELAY_MAX_SHIFT	6
/* rnr_retry is 3 bits in UB, as in InfiniBand. */
#define UDMA_RNR_RETRY_MAX	7

static u8 udma_comp_cr_status(u8 rspst)
{
	switch (rspst) {
	case UBOE_RSPST_OK:
		return URMA_CR_SUCCESS;
	case UBOE_RSPST_RNR:
		return UDMA_WQE_RNR;
	case UBOE_RSPST_ACCESS:
		return URMA_CR_REM_ACCESS_ABORT_ERR;
	case UBOE_RSPST_UNSUPPORTED:
		return URMA_CR_REM_UNSUPPORTED_REQ_ERR;
	default:	/* UBOE_RSPST_OPERATION */
		return URMA_CR_REM_OPERATION_ERR;
	}
}

/* The offset of a response packet's payload in its transaction. */
static u64 udma_rsp_off(const struct udma_msg *rsp)
{
	return rsp->pkt.seg & UBOE_SEG_FIRST ? 0 : rsp->pkt.offset;
}

/*
 * Is @rsp the next packet of @wqe's READ data: at the offset placed so
 * far, within the length asked, the LAST (or ONLY) one ending there?
 */
static bool udma_comp_read_fits(const struct udma_wqe *wqe,
				const struct udma_msg *rsp)
{
	u64 off = udma_rsp_off(rsp), end = off + udma_msg_len(rsp);

	if (off != wqe->rd_off || end > wqe->buf.total)
		return false;
	return !(rsp->pkt.seg & UBOE_SEG_LAST) || end == wqe->buf.total;
}

/* Does @rsp answer @wqe as its request asked? */
static bool udma_comp_match(const struct udma_sq *sq,
			    const struct udma_wqe *wqe,
			    const struct udma_msg *rsp)
{
	const struct uboe_pkt *p = &rsp->pkt;

	if (wqe->state != UDMA_WQE_SENT)
		return false;
	if (p->rc_id != (udma_sq_id(sq) & UBOE_ID_MASK))
		return false;
	if (p->rspst != UBOE_RSPST_OK)
		return p->ta_opcode == UBOE_TA_TAACK;
	if (p->ta_opcode != wqe->rsp)
		return false;
	switch (p->ta_opcode) {
	case UBOE_TA_READ_RESP:
		return udma_comp_read_fits(wqe, rsp);
	case UBOE_TA_ATOMIC_RESP:
		/* UBOE_PL_WORD: 8 bytes, in the packet (not scattered) */
		return udma_msg_len(rsp) == sizeof(u64) && !rsp->payload->nr &&
		       rsp->payload->inline_data;
	default:
		return !udma_msg_len(rsp);
	}
}

/*
 * Place the data of a successful response into the WQE's local buffer:
 * READ data as they are, an atomic's old value (big-endian on the wire)
 * in the CPU's order, as the initiator's atomics on that memory see it.
 */
static int udma_comp_place(struct udma_wqe *wqe, const struct udma_msg *rsp)
{
	struct udma_local_buf slice;
	u64 old;

	switch (rsp->pkt.ta_opcode) {
	case UBOE_TA_READ_RESP:
		if (!udma_msg_len(rsp))
			return 0;
		if (rsp->pkt.seg == UBOE_SEG_ONLY)
			return udma_buf_copy(&wqe->buf, rsp->payload,
					     udma_msg_len(rsp));
		/* one packet of several: at its offset */
		udma_buf_slice(&wqe->buf, udma_rsp_off(rsp), udma_msg_len(rsp),
			       &slice);
		return udma_buf_copy(&slice, rsp->payload, udma_msg_len(rsp));
	case UBOE_TA_ATOMIC_RESP:
		old = get_unaligned_be64(rsp->payload->inline_data);
		return udma_buf_copy_from_kernel(&wqe->buf, &old, sizeof(old));
	default:
		return 0;
	}
}

/* A SENT WQE is done with status @st (its CQE's). */
static void udma_wqe_answered(struct udma_wqe *wqe, u8 st)
{
	wqe->len = st == URMA_CR_SUCCESS ?
		   min_t(u64, wqe->buf.total, U32_MAX) : 0;
	wqe->status = st;
	wqe->state = UDMA_WQE_DONE;
	udma_wqe_release(wqe);
}

/**
 * udma_comp_rcv() - a response for an SQ
 * @sq: the queue whose request it answers; the caller holds
 *	@sq->proc_lock
 * @rsp: the response; its payload is valid for the call
 *
 * Matches @rsp to its WQE, places the data it carries and records the
 * WQE's status; the CQE is written by udma_comp_run(), in order.
 *
 * Context: any; does not sleep (READ data come a packet at a time).
 */
void udma_comp_rcv(struct udma_sq *sq, const struct udma_msg *rsp)
{
	u32 off = (rsp->pkt.psn - sq->head) & UBOE_PSN_MASK;
	struct udma_wqe *wqe;
	u8 st;

	udma_sq_assert_held(sq);
	wqe = udma_sq_wqe(sq, sq->head + off);
	if (off >= sq->next - sq->head || !udma_comp_match(sq, wqe, rsp)) {
		sq->resp_dropped++;
		dev_dbg_ratelimited(&sq->udev->ub_dev.dev,
				    "queue %u: response psn %u opcode 0x%x dropped\n",
				    udma_sq_id(sq), rsp->pkt.psn,
				    rsp->pkt.ta_opcode);
		return;
	}
	st = udma_comp_cr_status(rsp->pkt.rspst);
	if (st == URMA_CR_SUCCESS && udma_comp_place(wqe, rsp))
		st = URMA_CR_LOC_LEN_ERR;
	/* READ data in several packets: answered with the last */
	if (st == URMA_CR_SUCCESS && !(rsp->pkt.seg & UBOE_SEG_LAST)) {
		wqe->rd_off += udma_msg_len(rsp);
		return;
	}
	udma_wqe_answered(wqe, st);
}
EXPORT_SYMBOL_IF_KUNIT(udma_comp_rcv);

/**
 * udma_comp_local() - a request its carrier could not send
 * @sq: the queue; the caller holds @sq->proc_lock
 * @psn: the request's PSN (struct uboe_pkt.psn)
 * @status: the WQE's CQE status: an error; or URMA_CR_SUCCESS for a
 *	request that gets no response (UM: a datagram is done once sent)
 *
 * The WQE waiting for the response completes here with @status (its CQE
 * is written by udma_comp_run(), in order). Nothing happens if no WQE of
 * the window waits for @psn.
 */
void udma_comp_local(struct udma_sq *sq, u32 psn, u8 status)
{
	u32 off = (psn - sq->head) & UBOE_PSN_MASK;
	struct udma_wqe *wqe;

	udma_sq_assert_held(sq);
	wqe = udma_sq_wqe(sq, sq->head + off);
	if (off >= sq->next - sq->head || wqe->state != UDMA_WQE_SENT)
		return;
	udma_wqe_answered(wqe, status);
}
EXPORT_SYMBOL_IF_KUNIT(udma_comp_local);

/**
 * udma_comp_tp_failed() - a TP failed: no response will come on it
 * @sq: the queue; the caller holds @sq->proc_lock
 * @rtp: the TP's transport
 * @gen: the TP of it that failed (udma_rtp.gen)
 *
 * If WQEs of the queue wait for a response on that TP (sent, acknowledged
 * by the transport or not), each completes with ACK_TIMEOUT_ERR, the CQEs
 * of the window's head are written and the queue goes to ERROR (flush
 * CQEs for the WQEs left, then JFS_ERR / JETTY_ERR), as for any fatal
 * error of the queue. A queue with none is left alone; one being
 * destroyed only has its WQEs answered, for its destroy's wait.
 */
void udma_comp_tp_failed(struct udma_sq *sq, const struct udma_rtp *rtp,
			 u32 gen)
{
	bool hit = false;
	u32 psn;

	udma_sq_assert_held(sq);
	for (psn = sq->head; psn != sq->next; psn++) {
		struct udma_wqe *wqe = udma_sq_wqe(sq, psn);

		if (wqe->state == UDMA_WQE_SENT && wqe->rtp == rtp &&
		    wqe->rtp_gen == gen) {
			udma_wqe_answered(wqe, URMA_CR_ACK_TIMEOUT_ERR);
			hit = true;
		}
	}
	if (!hit)
		return;
	/* being destroyed: no CQE, no event; its destroy waits for these */
	if (READ_ONCE(sq->dying)) {
		udma_sq_answer_came(sq);
		return;
	}
	udma_comp_run(sq);
	udma_sq_fatal(sq);
}
EXPORT_SYMBOL_IF_KUNIT(udma_comp_tp_failed);

/*
 * The head answered RNR: wait for a retry (true), or the retries are
 * used up (false). An early retry (a JFR doorbell woke the queue) that
 * fails again does not count.
 */
static bool udma_sq_rnr_wait(struct udma_sq *sq)
{
	unsigned long now = jiffies, delay;

	WRITE_ONCE(sq->rnr_woken, false);
	if (!sq->rnr_wait) {
		sq->rnr_left = min_t(u8, udma_sq_cfg(sq)->rnr_retry,
				     UDMA_RNR_RETRY_MAX);
		sq->rnr_tries = 0;
	} else if (time_before(now, sq->rnr_until)) {
		udma_sq_kick(sq, sq->rnr_until - now);
		return true;
	}
	if (!sq->rnr_left)
		return false;
	sq->rnr_left--;
	delay = msecs_to_jiffies(UDMA_RNR_DELAY_MS <<
				 min_t(u8, sq->rnr_tries,
				       UDMA_RNR_DELAY_MAX_SHIFT));
	sq->rnr_tries++;
	sq->rnr_until = now + delay;
	if (!sq->rnr_wait) {
		sq->rnr_wait = true;
		udma_sq_rnr_add(sq);
	}
	udma_sq_kick(sq, delay);
	return true;
}

/* Every WQE from the head on is to be sent again (RNR at the head). */
static void udma_comp_rewind(struct udma_sq *sq)
{
	u32 psn;

	/* (a request stopped for its TP is sent again from its start) */
	udma_uboe_sq_cancel(sq);
	for (psn = sq->head; psn != sq->next; psn++) {
		struct udma_wqe *wqe = udma_sq_wqe(sq, psn);

		udma_wqe_release(wqe);
		wqe->state = UDMA_WQE_TAKEN;
		wqe->rd_off = 0;
	}
	sq->next = sq->head;
}

/**
 * udma_comp_run() - write the CQEs of the answered WQEs at the head
 * @sq: the queue; the caller holds @sq->proc_lock
 *
 * In PSN order, up to the first WQE still waiting for its response.
 *
 * Return: false when the queue has to stop: its head waits for an RNR
 * retry, or a CQE did not fit and the queue went to ERROR.
 */
bool udma_comp_run(struct udma_sq *sq)
{
	struct udma_wqe *wqe;
	bool complete;
	u8 st;

	udma_sq_assert_held(sq);
	while (sq->head != sq->next) {
		wqe = udma_sq_wqe(sq, sq->head);
		if (wqe->state != UDMA_WQE_DONE)
			break;
		st = wqe->status;
		if (st == UDMA_WQE_RNR) {
			if (udma_sq_rnr_wait(sq)) {
				udma_comp_rewind(sq);
				return false;
			}
			st = URMA_CR_RNR_RETRY_CNT_EXC_ERR;
		}
		if (sq->rnr_wait)
			udma_sq_rnr_del(sq);
		sq->rnr_wait = false;
		sq->head++;
		complete = wqe->sqe.flags & UDMA_SQE_F_COMPLETE;
		if (st == URMA_CR_SUCCESS && !complete)
			continue;
		if (udma_sq_post(sq, st, wqe->sqe.user_ctx, wqe->len)) {
			udma_sq_fatal(sq);
			return false;
		}
	}
	return true;
}
EXPORT_SYMBOL_IF_KUNIT(udma_comp_run);
