// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * KUnit tests of the engine's roles talking through messages (msg.h):
 *  - the requester's window on a hand-built JFS (fake_queue.h) whose
 *    carrier holds the requests instead of answering them: its size
 *    follows the ring up to UDMA_SQ_WINDOW_MAX, at most that many in
 *    flight, PSNs in order, FENCE waits, an RNR answer sends the head
 *    again alone; run in softirq, it keeps to its budget and leaves a
 *    WQE its carrier cannot send there to the work;
 *  - the completer: responses in any order give CQEs in PSN order, from
 *    the receive softirq too when the queue has no processor, and a
 *    response that answers nothing waiting (outside the window, twice,
 *    another queue's, the wrong kind or length) is dropped and counted;
 *    READ data and an atomic's old value of a response land in the
 *    initiator's buffer;
 *  - the responder alone, request in, response out: no initiator memory
 *    anywhere, a segment of kernel memory registered by hand as target.
 * Expectations: the rules at the top of req.c, comp.c and resp.c, and the
 * UBoE response opcodes and statuses of include/uapi/ub/uboe_wire.h.
 */
#include <kunit/test.h>
#include <linux/slab.h>
#include <linux/sizes.h>
#include <asm/unaligned.h>
#include <linux/workqueue.h>
#include <linux/completion.h>
#include <linux/delay.h>
#include <linux/bottom_half.h>

#include "../target.h"
#include "fake_queue.h"

#define RSEG_IDX	1
#define RSEG_TOKEN_ID	9
#define RSEG_TOKEN	0x55
#define RSEG_VA		0x100000ULL
#define LSEG_TOKEN_ID	11
#define TOKEN_PLAIN	1	/* URMA_TOKEN_PLAIN_TEXT */
#define ACCESS_ALL	(UBCORE_ACCESS_READ | UBCORE_ACCESS_WRITE | \
			 UBCORE_ACCESS_ATOMIC)

/* The requests a carrier held, and the responses one captured. */
struct held {
	u32 n;
	struct uboe_pkt req[UDMA_SQ_WINDOW_MAX + 8];
	enum uboe_drop req_drop[UDMA_SQ_WINDOW_MAX + 8];
	u32 nrsp;
	struct uboe_pkt rsp[8];
	enum uboe_drop rsp_drop[8];
	u8 data[64];
	u64 data_len;
	bool needs_process;
};

static struct held *held;

/*
 * What the UBoE codec says of a message: the fields a wire carrier adds
 * (the TPNs of a reliable TP, the payload's length) filled in.
 */
static enum uboe_drop codec_check(const struct udma_msg *msg)
{
	struct uboe_pkt p = msg->pkt;

	if (p.tp_opcode == UBOE_TP_RTP_DATA) {
		p.dtpn = 1;
		p.stpn = 2;
	}
	p.payload_len = udma_msg_len(msg);
	return uboe_check(&p);
}

/* (@held->needs_process: a carrier that cannot send from softirq) */
static int hold_xmit(struct udma_msg *req)
{
	if (held->needs_process && req->sq->atomic)
		return -EWOULDBLOCK;
	if (held->n < ARRAY_SIZE(held->req)) {
		held->req[held->n] = req->pkt;
		held->req_drop[held->n] = codec_check(req);
	}
	held->n++;
	return 0;
}

/* Copies a response's payload (kernel memory) into held->data. */
static void capture_reply(const struct udma_msg *req,
			  const struct udma_msg *rsp)
{
	struct ubcore_target_seg dummy = {};
	struct udma_local_buf dst = {
		.nr = 1,
		.range[0] = { .seg = &dummy, .va = (uintptr_t)held->data,
			      .len = sizeof(held->data) },
		.total = sizeof(held->data),
	};

	if (held->nrsp < ARRAY_SIZE(held->rsp)) {
		held->rsp[held->nrsp] = rsp->pkt;
		held->rsp_drop[held->nrsp] = codec_check(rsp);
	}
	held->nrsp++;
	held->data_len = udma_msg_len(rsp);
	if (held->data_len && held->data_len <= sizeof(held->data) &&
	    udma_buf_copy(&dst, rsp->payload, held->data_len))
		held->data_len = U64_MAX;
}

static const struct udma_carrier hold_carrier = {
	.name = "kunit-hold",
	.xmit = hold_xmit,
	.reply = capture_reply,
};

static const struct ubcore_ops msg_test_ops = {
	.driver_name = UDMA_DRIVER_NAME,
};

static struct fq *msg_fq(struct kunit *test, u32 sq_cnt)
{
	struct fq *fq = fq_create(test, sq_cnt, 2 * UDMA_SQ_WINDOW_MAX, true);
	struct udma_import *imp;

	held = kunit_kzalloc(test, sizeof(*held), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, held);
	fq->jfs.sq.carrier = &hold_carrier;
	fq->udev.ub_dev.ops = &msg_test_ops;
	spin_lock_init(&fq->udev.ub_dev.access_fail.lock);
	xa_init_flags(&fq->udev.ub_dev.jetty_table, XA_FLAGS_LOCK_IRQ);
	xa_init_flags(&fq->udev.ub_dev.jetty_grp_table, XA_FLAGS_LOCK_IRQ);

	/* rseg_idx 1: an imported segment */
	imp = kunit_kzalloc(test, sizeof(*imp), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, imp);
	imp->type = UDMA_IMPORT_SEG;
	imp->idx = RSEG_IDX;
	imp->token_id = RSEG_TOKEN_ID;
	imp->token_value = RSEG_TOKEN;
	imp->va = RSEG_VA;
	imp->len = SZ_64K;
	imp->eid.raw[15] = 1;
	KUNIT_ASSERT_EQ(test, xa_insert(&fq->uctx->import_xa, RSEG_IDX, imp,
					GFP_KERNEL), 0);
	return fq;
}

/* A WRITE of no bytes to the imported segment: a request, no local SGE. */
static void post_write(struct fq *fq, u64 user_ctx, u8 flags)
{
	struct udma_sqe sqe = {
		.opcode = URMA_OPC_WRITE,
		.flags = UDMA_SQE_F_COMPLETE | flags,
		.user_ctx = user_ctx,
		.rseg_idx = RSEG_IDX,
		.remote_va = RSEG_VA,
	};

	fq_post(fq, &sqe);
}

/* Answer the held request @i with status @st (opcode @op). */
static void answer_op(struct fq *fq, u32 i, u8 st, u8 op,
		      const struct udma_local_buf *payload)
{
	struct udma_msg req = { .pkt = held->req[i] }, rsp;

	udma_resp_init(&rsp, &req, st);
	rsp.pkt.ta_opcode = op;
	rsp.payload = payload;
	udma_sq_lock(&fq->jfs.sq);
	udma_comp_rcv(&fq->jfs.sq, &rsp);
	udma_sq_unlock(&fq->jfs.sq);
}

static void answer(struct fq *fq, u32 i, u8 st)
{
	answer_op(fq, i, st, UBOE_TA_TAACK, NULL);
}

static void expect_cqes(struct kunit *test, struct fq *fq, u64 first, u32 n,
			u8 status)
{
	struct udma_cqe cqe;
	u32 i;

	for (i = 0; i < n; i++) {
		KUNIT_ASSERT_TRUE_MSG(test, fq_poll(fq, &cqe), "cqe %u", i);
		KUNIT_EXPECT_EQ(test, cqe.user_ctx, first + i);
		KUNIT_EXPECT_EQ(test, cqe.status, status);
		KUNIT_EXPECT_EQ(test, cqe.local_id, (u32)FQ_JFS_ID);
	}
}

static void expect_no_cqe(struct kunit *test, struct fq *fq)
{
	struct udma_cqe cqe;

	KUNIT_EXPECT_FALSE(test, fq_poll(fq, &cqe));
}

/* The window holds as many WQEs as the ring, a power of two, up to the cap. */
static void msg_requester_window_size(struct kunit *test)
{
	static const u32 ring[] = { 1, 2, 8, 64, 128, 1024 };
	u32 i;

	for (i = 0; i < ARRAY_SIZE(ring); i++) {
		struct fq *fq = msg_fq(test, ring[i]);

		KUNIT_EXPECT_EQ(test, fq->jfs.sq.wnd_size,
				min_t(u32, ring[i], UDMA_SQ_WINDOW_MAX));
		fq_exit(test);
		test->priv = NULL;
	}
}

/*
 * The window and 4 WRITEs more, a carrier that answers later: a window's
 * worth of requests go out, PSN 0.. in order with the fields of the WQE;
 * responses in any order complete them in PSN order only, and each freed
 * place lets one more out.
 */
static void msg_requester_window(struct kunit *test)
{
	struct fq *fq = msg_fq(test, 2 * UDMA_SQ_WINDOW_MAX);
	const u32 w = UDMA_SQ_WINDOW_MAX;
	u32 i;

	KUNIT_ASSERT_EQ(test, fq->jfs.sq.wnd_size, w);
	for (i = 0; i < w + 4; i++)
		post_write(fq, 100 + i, 0);
	KUNIT_EXPECT_FALSE(test, fq_process(fq, false));
	KUNIT_ASSERT_EQ(test, held->n, w);
	KUNIT_EXPECT_EQ(test, fq_sq_ci(fq), w);
	for (i = 0; i < w; i++) {
		KUNIT_EXPECT_EQ(test, held->req[i].psn, i);
		KUNIT_EXPECT_EQ(test, held->req[i].tassn, (u16)i);
		KUNIT_EXPECT_EQ(test, held->req[i].ta_opcode, UBOE_TA_WRITE);
		KUNIT_EXPECT_EQ(test, held->req[i].rc_id, (u32)FQ_JFS_ID);
		KUNIT_EXPECT_EQ(test, held->req[i].mae.token_id, RSEG_TOKEN_ID);
		KUNIT_EXPECT_EQ(test, held->req[i].mae.va, RSEG_VA);
		KUNIT_EXPECT_EQ(test, held->req[i].token_value, RSEG_TOKEN);
		KUNIT_EXPECT_EQ(test, held->req[i].dst_eid.raw[15], 1);
		KUNIT_EXPECT_TRUE(test, held->req[i].hdrs & UBOE_EXT_MAETAH);
		/* what the UBoE carrier will encode as it is */
		KUNIT_EXPECT_EQ(test, held->req_drop[i], UBOE_DROP_NONE);
	}
	expect_no_cqe(test, fq);

	/* Later ones first: nothing completes before PSN 0. */
	answer(fq, 3, UBOE_RSPST_OK);
	answer(fq, 1, UBOE_RSPST_OK);
	KUNIT_EXPECT_FALSE(test, fq_process(fq, false));
	expect_no_cqe(test, fq);
	KUNIT_EXPECT_EQ(test, held->n, w);

	/* PSN 0 and 1 complete, 2 holds 3 back; two more go out. */
	answer(fq, 0, UBOE_RSPST_OK);
	KUNIT_EXPECT_FALSE(test, fq_process(fq, false));
	expect_cqes(test, fq, 100, 2, URMA_CR_SUCCESS);
	expect_no_cqe(test, fq);
	KUNIT_ASSERT_EQ(test, held->n, w + 2);
	KUNIT_EXPECT_EQ(test, held->req[w].psn, w);
	KUNIT_EXPECT_EQ(test, held->req[w + 1].psn, w + 1);

	answer(fq, 2, UBOE_RSPST_OK);
	KUNIT_EXPECT_FALSE(test, fq_process(fq, false));
	expect_cqes(test, fq, 102, 2, URMA_CR_SUCCESS);
	KUNIT_ASSERT_EQ(test, held->n, w + 4);

	/* The rest in reverse order: CQEs in order all the same. */
	for (i = w + 4; i-- > 4;)
		answer(fq, i, UBOE_RSPST_OK);
	KUNIT_EXPECT_FALSE(test, fq_process(fq, false));
	expect_cqes(test, fq, 104, w, URMA_CR_SUCCESS);
	expect_no_cqe(test, fq);
	KUNIT_EXPECT_EQ(test, fq->jfs.sq.resp_dropped, 0U);
	KUNIT_EXPECT_FALSE(test, udma_sq_busy(&fq->jfs.sq));
}

/* One run of the requester as a kernel queue's tasklet runs it. */
static bool process_softirq(struct kunit *test, struct fq *fq)
{
	struct udma_sq *sq = &fq->jfs.sq;
	bool locked, more;

	local_bh_disable();
	locked = udma_sq_trylock(sq);
	if (!locked) {
		local_bh_enable();
		KUNIT_FAIL(test, "the queue has a processor");
		return false;
	}
	sq->atomic = true;
	more = udma_sq_process(sq, UDMA_SQ_SOFTIRQ);
	sq->atomic = false;
	udma_sq_unlock(sq);
	local_bh_enable();
	return more;
}

/* The carrier holds @n requests, PSN 0 on: each is answered OK. */
static void answer_sent(struct kunit *test, struct fq *fq, u32 n)
{
	u32 i;

	KUNIT_ASSERT_EQ(test, held->n, n);
	for (i = 0; i < n; i++) {
		KUNIT_EXPECT_EQ(test, held->req[i].psn, i);
		answer(fq, i, UBOE_RSPST_OK);
	}
}

/*
 * In softirq the requester sends 16 WQEs, then leaves the rest to the
 * work (it says there is more); a WQE of more than 256 KiB is left to the
 * work even as the first.
 */
static void msg_requester_softirq_budget(struct kunit *test)
{
	struct fq *fq = msg_fq(test, 64);
	struct udma_sqe big;
	u32 i;

	for (i = 0; i < 20; i++)
		post_write(fq, i, 0);
	KUNIT_EXPECT_TRUE(test, process_softirq(test, fq));
	KUNIT_EXPECT_EQ(test, held->n, 16U);
	KUNIT_EXPECT_FALSE(test, process_softirq(test, fq));
	answer_sent(test, fq, 20);
	KUNIT_EXPECT_FALSE(test, process_softirq(test, fq));
	expect_cqes(test, fq, 0, 20, URMA_CR_SUCCESS);

	/* a NOP counts the bytes its SGEs name */
	fq_sqe_nop(&big, 99, UDMA_SQE_F_COMPLETE);
	big.num_sge = 1;
	big.sge[0].len = SZ_256K + 1;
	fq_post(fq, &big);
	KUNIT_EXPECT_TRUE(test, process_softirq(test, fq));
	expect_no_cqe(test, fq);
	KUNIT_EXPECT_FALSE(test, fq_process(fq, false));
	expect_cqes(test, fq, 99, 1, URMA_CR_SUCCESS);
}

/*
 * A carrier that needs process context: in softirq the WQE is taken and
 * not sent, and stays at the window's next place; the work sends it and
 * what follows, in PSN order, and they complete as usual.
 */
static void msg_requester_softirq_defers(struct kunit *test)
{
	struct fq *fq = msg_fq(test, 16);
	struct udma_sq *sq = &fq->jfs.sq;
	u32 i;

	held->needs_process = true;
	for (i = 0; i < 3; i++)
		post_write(fq, 10 + i, 0);
	KUNIT_EXPECT_TRUE(test, process_softirq(test, fq));
	KUNIT_EXPECT_EQ(test, held->n, 0U);
	KUNIT_EXPECT_EQ(test, sq->next, 0U);
	KUNIT_EXPECT_EQ(test, sq->tail, 1U);
	KUNIT_EXPECT_EQ(test, udma_sq_wqe(sq, 0)->state, UDMA_WQE_TAKEN);
	KUNIT_EXPECT_FALSE(test, udma_sq_wqe(sq, 0)->held);
	expect_no_cqe(test, fq);

	KUNIT_EXPECT_FALSE(test, fq_process(fq, false));
	answer_sent(test, fq, 3);
	KUNIT_EXPECT_FALSE(test, fq_process(fq, false));
	expect_cqes(test, fq, 10, 3, URMA_CR_SUCCESS);
	expect_no_cqe(test, fq);
}

/*
 * Responses that answer nothing waiting are dropped and counted; they
 * complete nothing, twice or out of order.
 */
static void msg_completer_drops(struct kunit *test)
{
	struct fq *fq = msg_fq(test, 16);
	u64 value = 0;
	struct udma_local_buf word = { .inline_data = &value, .total = 8 };
	struct udma_msg req = {}, rsp;

	post_write(fq, 1, 0);
	post_write(fq, 2, 0);
	KUNIT_EXPECT_FALSE(test, fq_process(fq, false));
	KUNIT_ASSERT_EQ(test, held->n, 2U);

	/* a PSN not sent */
	req.pkt = held->req[1];
	req.pkt.psn = 5;
	udma_resp_init(&rsp, &req, UBOE_RSPST_OK);
	udma_sq_lock(&fq->jfs.sq);
	udma_comp_rcv(&fq->jfs.sq, &rsp);
	/* another queue's */
	req.pkt = held->req[0];
	req.pkt.rc_id = FQ_JFS_ID + 1;
	udma_resp_init(&rsp, &req, UBOE_RSPST_OK);
	udma_comp_rcv(&fq->jfs.sq, &rsp);
	udma_sq_unlock(&fq->jfs.sq);
	KUNIT_EXPECT_EQ(test, fq->jfs.sq.resp_dropped, 2U);

	/* READ data or an old value for a WRITE; a failure not as TAACK */
	answer_op(fq, 0, UBOE_RSPST_OK, UBOE_TA_READ_RESP, NULL);
	answer_op(fq, 0, UBOE_RSPST_OK, UBOE_TA_ATOMIC_RESP, &word);
	answer_op(fq, 0, UBOE_RSPST_ACCESS, UBOE_TA_READ_RESP, NULL);
	/* a TAACK with a payload */
	answer_op(fq, 0, UBOE_RSPST_OK, UBOE_TA_TAACK, &word);
	KUNIT_EXPECT_EQ(test, fq->jfs.sq.resp_dropped, 6U);
	KUNIT_EXPECT_FALSE(test, fq_process(fq, false));
	expect_no_cqe(test, fq);

	/* The real answer, then the same again: the second is dropped. */
	answer(fq, 0, UBOE_RSPST_ACCESS);
	answer(fq, 0, UBOE_RSPST_OK);
	KUNIT_EXPECT_EQ(test, fq->jfs.sq.resp_dropped, 7U);
	KUNIT_EXPECT_FALSE(test, fq_process(fq, false));
	expect_cqes(test, fq, 1, 1, URMA_CR_REM_ACCESS_ABORT_ERR);
	/* completed: now outside the window */
	answer(fq, 0, UBOE_RSPST_OK);
	KUNIT_EXPECT_EQ(test, fq->jfs.sq.resp_dropped, 8U);

	answer(fq, 1, UBOE_RSPST_OPERATION);
	KUNIT_EXPECT_FALSE(test, fq_process(fq, false));
	expect_cqes(test, fq, 2, 1, URMA_CR_REM_OPERATION_ERR);
	expect_no_cqe(test, fq);
}

/*
 * The receive softirq completes what responses answered when the queue
 * has no processor (engine.c, udma_sq_answered()), and leaves it to the
 * queue's work when it has one: it only tries the queue's proc_lock.
 */
static void msg_completer_in_softirq(struct kunit *test)
{
	struct fq *fq = msg_fq(test, 16);
	struct udma_sq *sq = &fq->jfs.sq;

	post_write(fq, 1, 0);
	post_write(fq, 2, 0);
	KUNIT_EXPECT_FALSE(test, fq_process(fq, false));
	KUNIT_ASSERT_EQ(test, held->n, 2U);

	answer(fq, 0, UBOE_RSPST_OK);
	expect_no_cqe(test, fq);
	local_bh_disable();
	udma_sq_answered(sq);
	local_bh_enable();
	expect_cqes(test, fq, 1, 1, URMA_CR_SUCCESS);
	expect_no_cqe(test, fq);
	/* nothing left to send: no work */
	KUNIT_EXPECT_FALSE(test, delayed_work_pending(&sq->work));

	answer(fq, 1, UBOE_RSPST_OK);
	udma_sq_lock(sq);
	local_bh_disable();
	KUNIT_EXPECT_FALSE(test, udma_sq_trylock(sq));
	udma_sq_answered(sq);
	local_bh_enable();
	expect_no_cqe(test, fq);
	/* (queued, or already waiting for the processor on another CPU) */
	KUNIT_EXPECT_TRUE(test, delayed_work_pending(&sq->work) ||
			  work_busy(&sq->work.work));
	udma_sq_unlock(sq);
	flush_delayed_work(&sq->work);
	expect_cqes(test, fq, 2, 1, URMA_CR_SUCCESS);
	expect_no_cqe(test, fq);
}

/* Each RSPST becomes its CQE status (comp.c). */
static void msg_completer_statuses(struct kunit *test)
{
	static const struct {
		u8 rspst;
		u8 cr;
	} map[] = {
		{ UBOE_RSPST_OK, URMA_CR_SUCCESS },
		{ UBOE_RSPST_ACCESS, URMA_CR_REM_ACCESS_ABORT_ERR },
		{ UBOE_RSPST_OPERATION, URMA_CR_REM_OPERATION_ERR },
		{ UBOE_RSPST_UNSUPPORTED, URMA_CR_REM_UNSUPPORTED_REQ_ERR },
	};
	struct fq *fq = msg_fq(test, 16);
	u32 i;

	for (i = 0; i < ARRAY_SIZE(map); i++)
		post_write(fq, i, 0);
	KUNIT_EXPECT_FALSE(test, fq_process(fq, false));
	KUNIT_ASSERT_EQ(test, held->n, (u32)ARRAY_SIZE(map));
	for (i = 0; i < ARRAY_SIZE(map); i++)
		answer(fq, i, map[i].rspst);
	KUNIT_EXPECT_FALSE(test, fq_process(fq, false));
	for (i = 0; i < ARRAY_SIZE(map); i++)
		expect_cqes(test, fq, i, 1, map[i].cr);
}

/* A FENCE WQE goes out once every earlier one is answered. */
static void msg_requester_fence(struct kunit *test)
{
	struct fq *fq = msg_fq(test, 16);

	post_write(fq, 1, 0);
	post_write(fq, 2, UDMA_SQE_F_FENCE);
	post_write(fq, 3, 0);
	KUNIT_EXPECT_FALSE(test, fq_process(fq, false));
	KUNIT_EXPECT_EQ(test, held->n, 1U);
	answer(fq, 0, UBOE_RSPST_OK);
	KUNIT_EXPECT_FALSE(test, fq_process(fq, false));
	KUNIT_EXPECT_EQ(test, held->n, 3U);
	expect_cqes(test, fq, 1, 1, URMA_CR_SUCCESS);
	answer(fq, 1, UBOE_RSPST_OK);
	answer(fq, 2, UBOE_RSPST_OK);
	KUNIT_EXPECT_FALSE(test, fq_process(fq, false));
	expect_cqes(test, fq, 2, 2, URMA_CR_SUCCESS);
}

/*
 * RNR at the head: what was sent behind it is sent again after it, the
 * answers to the first sending are dropped, and the retry sends the head
 * alone.
 */
static void msg_rnr_resends_from_head(struct kunit *test)
{
	struct fq *fq = msg_fq(test, 16);
	struct udma_sq *sq = &fq->jfs.sq;

	post_write(fq, 1, 0);
	post_write(fq, 2, 0);
	post_write(fq, 3, 0);
	KUNIT_EXPECT_FALSE(test, fq_process(fq, false));
	KUNIT_ASSERT_EQ(test, held->n, 3U);
	answer(fq, 0, UBOE_RSPST_RNR);
	KUNIT_EXPECT_FALSE(test, fq_process(fq, false));
	/* no retry from the work during the test; then a JFR doorbell's */
	cancel_delayed_work_sync(&sq->work);
	KUNIT_EXPECT_TRUE(test, sq->rnr_wait);
	KUNIT_EXPECT_EQ(test, sq->next, sq->head);
	answer(fq, 1, UBOE_RSPST_OK);
	answer(fq, 2, UBOE_RSPST_OK);
	KUNIT_EXPECT_EQ(test, sq->resp_dropped, 2U);
	expect_no_cqe(test, fq);

	udma_sq_lock(sq);
	sq->rnr_until = jiffies + 100 * HZ;
	udma_sq_unlock(sq);
	WRITE_ONCE(sq->rnr_woken, true);
	KUNIT_EXPECT_FALSE(test, fq_process(fq, false));
	KUNIT_ASSERT_EQ(test, held->n, 4U);
	KUNIT_EXPECT_EQ(test, held->req[3].psn, 0U);

	answer(fq, 3, UBOE_RSPST_OK);
	KUNIT_EXPECT_FALSE(test, fq_process(fq, false));
	KUNIT_EXPECT_FALSE(test, sq->rnr_wait);
	KUNIT_EXPECT_TRUE(test, list_empty(&sq->rnr_node));
	KUNIT_ASSERT_EQ(test, held->n, 6U);
	KUNIT_EXPECT_EQ(test, held->req[4].psn, 1U);
	KUNIT_EXPECT_EQ(test, held->req[5].psn, 2U);
	answer(fq, 4, UBOE_RSPST_OK);
	answer(fq, 5, UBOE_RSPST_OK);
	KUNIT_EXPECT_FALSE(test, fq_process(fq, false));
	expect_cqes(test, fq, 1, 3, URMA_CR_SUCCESS);
}

/* A segment of kernel memory registered by hand on the fake device. */
static struct ubcore_target_seg *kseg(struct kunit *test, struct fq *fq,
				      u32 token_id, void *mem, u64 len,
				      struct ubcore_ucontext *uctx)
{
	struct ubcore_device *dev = &fq->udev.ub_dev;
	struct ubcore_target_seg *tseg;
	struct ubcore_token_id *token;

	token = kunit_kzalloc(test, sizeof(*token), GFP_KERNEL);
	tseg = kunit_kzalloc(test, sizeof(*tseg), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, token);
	KUNIT_ASSERT_NOT_NULL(test, tseg);
	token->ub_dev = dev;
	token->token_id = token_id;
	INIT_LIST_HEAD(&token->seg_list);
	tseg->ub_dev = dev;
	tseg->uctx = uctx;
	tseg->seg.ubva.va = (uintptr_t)mem;
	tseg->seg.len = len;
	tseg->seg.attr = TOKEN_PLAIN | (ACCESS_ALL << 5);
	tseg->seg.token_id = token_id;
	tseg->token_id = token;
	tseg->token_value = RSEG_TOKEN;
	ubcore_obj_ref_init(&tseg->obj_ref);
	list_add(&tseg->node, &token->seg_list);
	KUNIT_ASSERT_EQ(test, xa_insert(&dev->token_table, token_id, token,
					GFP_KERNEL), 0);
	return tseg;
}

/*
 * READ and FADD on the queue: the responses' payloads (READ data, the old
 * value) land in the local buffer the WQE names.
 */
static void msg_completer_places_data(struct kunit *test)
{
	struct fq *fq = msg_fq(test, 16);
	u8 *local = kunit_kzalloc(test, 64, GFP_KERNEL);
	u8 src[16] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15 };
	struct udma_local_buf data = { .inline_data = src, .total = 16 };
	__be64 old = cpu_to_be64(0x1122334455667788ULL);
	struct udma_local_buf word = { .inline_data = &old, .total = 8 };
	struct udma_sqe sqe = {
		.opcode = URMA_OPC_READ,
		.flags = UDMA_SQE_F_COMPLETE,
		.user_ctx = 7,
		.rseg_idx = RSEG_IDX,
		.remote_va = RSEG_VA,
		.remote_len = 16,
		.num_sge = 1,
	};
	struct udma_cqe cqe;
	u64 got;

	KUNIT_ASSERT_NOT_NULL(test, local);
	kseg(test, fq, LSEG_TOKEN_ID, local, 64, &fq->uctx->base);
	sqe.sge[0].va = (uintptr_t)local;
	sqe.sge[0].len = 16;
	sqe.sge[0].token_id = LSEG_TOKEN_ID;
	fq_post(fq, &sqe);
	sqe.opcode = URMA_OPC_FADD;
	sqe.user_ctx = 8;
	sqe.remote_len = 8;
	sqe.data = 5;
	sqe.sge[0].va = (uintptr_t)local + 32;
	sqe.sge[0].len = 8;
	fq_post(fq, &sqe);
	KUNIT_EXPECT_FALSE(test, fq_process(fq, false));
	KUNIT_ASSERT_EQ(test, held->n, 2U);
	KUNIT_EXPECT_EQ(test, held->req[0].ta_opcode, UBOE_TA_READ);
	KUNIT_EXPECT_EQ(test, held->req[0].mae.len, 16U);
	KUNIT_EXPECT_TRUE(test, held->req[0].hdrs & UBOE_EXT_TAIDETAH);
	KUNIT_EXPECT_EQ(test, held->req[1].ta_opcode, UBOE_TA_FADD);
	KUNIT_EXPECT_EQ(test, held->req[1].mae.len, 8U);
	KUNIT_EXPECT_EQ(test, held->req_drop[0], UBOE_DROP_NONE);
	KUNIT_EXPECT_EQ(test, held->req_drop[1], UBOE_DROP_NONE);

	/* 8 bytes for a READ of 16: not its answer */
	data.total = 8;
	answer_op(fq, 0, UBOE_RSPST_OK, UBOE_TA_READ_RESP, &data);
	KUNIT_EXPECT_EQ(test, fq->jfs.sq.resp_dropped, 1U);
	data.total = 16;
	answer_op(fq, 0, UBOE_RSPST_OK, UBOE_TA_READ_RESP, &data);
	answer_op(fq, 1, UBOE_RSPST_OK, UBOE_TA_ATOMIC_RESP, &word);
	KUNIT_EXPECT_FALSE(test, fq_process(fq, false));
	KUNIT_ASSERT_TRUE(test, fq_poll(fq, &cqe));
	KUNIT_EXPECT_EQ(test, cqe.status, URMA_CR_SUCCESS);
	KUNIT_EXPECT_EQ(test, cqe.user_ctx, 7ULL);
	KUNIT_EXPECT_EQ(test, cqe.completion_len, 16U);
	KUNIT_EXPECT_EQ(test, memcmp(local, src, 16), 0);
	KUNIT_ASSERT_TRUE(test, fq_poll(fq, &cqe));
	KUNIT_EXPECT_EQ(test, cqe.status, URMA_CR_SUCCESS);
	KUNIT_EXPECT_EQ(test, cqe.user_ctx, 8ULL);
	memcpy(&got, local + 32, sizeof(got));
	KUNIT_EXPECT_EQ(test, got, 0x1122334455667788ULL);
	expect_no_cqe(test, fq);
}

/* A request to the responder of the fake device; the answer in held. */
static void resp_run(struct fq *fq, struct udma_msg *req)
{
	held->nrsp = 0;
	held->data_len = 0;
	memset(held->data, 0, sizeof(held->data));
	req->carrier = &hold_carrier;
	udma_resp_rcv(&fq->udev.ub_dev, req);
}

static void resp_req(struct udma_msg *req, u8 op, u64 va, u32 len, u32 token)
{
	memset(req, 0, sizeof(*req));
	req->pkt.tp_opcode = UBOE_TP_RTP_DATA;
	req->pkt.seg = UBOE_SEG_ONLY;
	req->pkt.psn = 0x1234;
	req->pkt.tassn = 0x1234;
	req->pkt.rc_id = 77;
	req->pkt.has_eid = true;
	req->pkt.src_eid.raw[15] = 2;
	req->pkt.dst_eid.raw[15] = 3;
	req->pkt.ta_opcode = op;
	req->pkt.hdrs = UBOE_EXT_MAETAH | UBOE_X_TVETAH;
	req->pkt.mae.va = va;
	req->pkt.mae.len = len;
	req->pkt.mae.token_id = RSEG_TOKEN_ID;
	req->pkt.token_value = token;
	if (op == UBOE_TA_READ || udma_ta_is_atomic(op)) {
		req->pkt.hdrs |= UBOE_EXT_TAIDETAH;
		req->pkt.taid = 0x99;
	}
}

/* The response's header: echoed from the request, the ends swapped. */
static void expect_rsp(struct kunit *test, u8 op, u8 st)
{
	const struct uboe_pkt *p = &held->rsp[0];

	KUNIT_ASSERT_EQ(test, held->nrsp, 1U);
	KUNIT_EXPECT_EQ(test, p->ta_opcode, op);
	KUNIT_EXPECT_EQ(test, p->rspst, st);
	KUNIT_EXPECT_EQ(test, p->psn, 0x1234U);
	KUNIT_EXPECT_EQ(test, p->tassn, 0x1234);
	KUNIT_EXPECT_EQ(test, p->rc_id, 77U);
	KUNIT_EXPECT_EQ(test, p->src_eid.raw[15], 3);
	KUNIT_EXPECT_EQ(test, p->dst_eid.raw[15], 2);
	KUNIT_EXPECT_EQ(test, p->seg, UBOE_SEG_ONLY);
	KUNIT_EXPECT_EQ(test, held->rsp_drop[0], UBOE_DROP_NONE);
}

/*
 * The responder, request in, response out: WRITE, READ and FADD on a
 * target segment, refusals, and a device that is not there. No queue, no
 * initiator memory: the WRITE's payload is kernel bytes, the READ data
 * and the old value come back as the response's payload.
 */
static void msg_responder(struct kunit *test)
{
	struct fq *fq = msg_fq(test, 4);
	u8 *tmem = kunit_kzalloc(test, 64, GFP_KERNEL);
	u8 wdata[8] = { 0xa1, 0xa2, 0xa3, 0xa4, 0xa5, 0xa6, 0xa7, 0xa8 };
	struct udma_local_buf pl = { .inline_data = wdata, .total = 8 };
	struct udma_local_buf ops;
	struct udma_msg req;
	__be64 operands[2];
	u64 v;

	KUNIT_ASSERT_NOT_NULL(test, tmem);
	kseg(test, fq, RSEG_TOKEN_ID, tmem, 64, NULL);

	resp_req(&req, UBOE_TA_WRITE, (uintptr_t)tmem + 8, 8, RSEG_TOKEN);
	req.payload = &pl;
	resp_run(fq, &req);
	expect_rsp(test, UBOE_TA_TAACK, UBOE_RSPST_OK);
	KUNIT_EXPECT_EQ(test, held->data_len, 0ULL);
	KUNIT_EXPECT_EQ(test, memcmp(tmem + 8, wdata, 8), 0);

	resp_req(&req, UBOE_TA_READ, (uintptr_t)tmem + 8, 8, RSEG_TOKEN);
	resp_run(fq, &req);
	expect_rsp(test, UBOE_TA_READ_RESP, UBOE_RSPST_OK);
	KUNIT_EXPECT_EQ(test, held->rsp[0].taid, 0x99);
	KUNIT_EXPECT_TRUE(test, held->rsp[0].hdrs & UBOE_EXT_TAIDETAH);
	KUNIT_ASSERT_EQ(test, held->data_len, 8ULL);
	KUNIT_EXPECT_EQ(test, memcmp(held->data, wdata, 8), 0);

	/* FADD 5 on the word at 16 (0): old value 0 back, 5 there */
	resp_req(&req, UBOE_TA_FADD, (uintptr_t)tmem + 16, 8, RSEG_TOKEN);
	operands[0] = cpu_to_be64(5);
	operands[1] = 0;
	ops = (struct udma_local_buf){ .inline_data = operands, .total = 16 };
	req.payload = &ops;
	resp_run(fq, &req);
	expect_rsp(test, UBOE_TA_ATOMIC_RESP, UBOE_RSPST_OK);
	KUNIT_ASSERT_EQ(test, held->data_len, 8ULL);
	KUNIT_EXPECT_EQ(test, get_unaligned_be64(held->data), 0ULL);
	memcpy(&v, tmem + 16, sizeof(v));
	KUNIT_EXPECT_EQ(test, v, 5ULL);
	resp_run(fq, &req);
	KUNIT_EXPECT_EQ(test, get_unaligned_be64(held->data), 5ULL);

	/* refusals: a TAACK with the status, memory unchanged */
	resp_req(&req, UBOE_TA_WRITE, (uintptr_t)tmem, 8, RSEG_TOKEN + 1);
	req.payload = &pl;
	resp_run(fq, &req);
	expect_rsp(test, UBOE_TA_TAACK, UBOE_RSPST_ACCESS);
	KUNIT_EXPECT_EQ(test, tmem[0], 0);
	resp_req(&req, UBOE_TA_READ, (uintptr_t)tmem + 60, 8, RSEG_TOKEN);
	resp_run(fq, &req);
	expect_rsp(test, UBOE_TA_TAACK, UBOE_RSPST_ACCESS);
	KUNIT_EXPECT_EQ(test, held->data_len, 0ULL);
	resp_req(&req, UBOE_TA_FADD, (uintptr_t)tmem + 16, 8, RSEG_TOKEN);
	resp_run(fq, &req);	/* no operands */
	expect_rsp(test, UBOE_TA_TAACK, UBOE_RSPST_OPERATION);
	resp_req(&req, UBOE_TA_STORE, (uintptr_t)tmem + 16, 8, RSEG_TOKEN);
	req.payload = &ops;
	resp_run(fq, &req);	/* no atomic_feature bit */
	expect_rsp(test, UBOE_TA_TAACK, UBOE_RSPST_UNSUPPORTED);
	memcpy(&v, tmem + 16, sizeof(v));
	KUNIT_EXPECT_EQ(test, v, 10ULL);
	/* a message to a JFR the device does not have */
	resp_req(&req, UBOE_TA_SEND, 0, 0, 0);
	req.pkt.hdrs = UBOE_EXT_MTETAH | UBOE_X_TVETAH | UBOE_X_UDETAH;
	req.pkt.mte.tgt_id = 4000;
	req.payload = &pl;
	resp_run(fq, &req);
	expect_rsp(test, UBOE_TA_TAACK, UBOE_RSPST_OPERATION);

	/* no device has the EID */
	held->nrsp = 0;
	udma_resp_rcv(NULL, &req);
	expect_rsp(test, UBOE_TA_TAACK, UBOE_RSPST_OPERATION);
	resp_req(&req, UBOE_TA_READ, (uintptr_t)tmem, 8, RSEG_TOKEN);
	req.carrier = &hold_carrier;
	held->nrsp = 0;
	udma_resp_rcv(NULL, &req);
	expect_rsp(test, UBOE_TA_TAACK, UBOE_RSPST_ACCESS);
}

/*
 * udma_sq_destroy() of @fq's queue in a work, timed from its queueing (a
 * worker that starts late shortens no wait the test measures).
 */
struct destroyer {
	struct fq *fq;
	struct work_struct work;
	struct completion done;
	unsigned long t0;
	unsigned long took;
};

static void destroyer_work(struct work_struct *work)
{
	struct destroyer *d = container_of(work, struct destroyer, work);

	udma_sq_destroy(&d->fq->jfs.sq);
	d->took = jiffies - d->t0;
	d->fq->sq_live = false;
	complete(&d->done);
}

/*
 * Two WRITEs on the wire of a queue on its device's list, whose destroy
 * starts in a work.
 */
static struct destroyer *destroy_sent(struct kunit *test)
{
	struct fq *fq = msg_fq(test, 16);
	struct destroyer *d = kunit_kzalloc(test, sizeof(*d), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, d);
	mutex_init(&fq->udev.sqs_lock);
	INIT_LIST_HEAD(&fq->udev.sqs);
	udma_sq_register(&fq->jfs.sq);
	post_write(fq, 1, UDMA_SQE_F_COMPLETE);
	post_write(fq, 2, UDMA_SQE_F_COMPLETE);
	KUNIT_EXPECT_FALSE(test, fq_process(fq, false));
	KUNIT_ASSERT_EQ(test, held->n, 2U);
	d->fq = fq;
	INIT_WORK(&d->work, destroyer_work);
	init_completion(&d->done);
	d->t0 = jiffies;
	schedule_work(&d->work);
	return d;
}

/* The destroy ended; it wrote no CQE, raised no event, left the list. */
static void destroy_ended(struct kunit *test, struct destroyer *d)
{
	KUNIT_EXPECT_TRUE(test, wait_for_completion_timeout(&d->done, 10 * HZ));
	flush_work(&d->work);
	expect_no_cqe(test, d->fq);
	KUNIT_EXPECT_EQ(test, atomic_read(&d->fq->jfs_err), 0);
	KUNIT_EXPECT_TRUE(test, list_empty(&d->fq->udev.sqs));
	KUNIT_EXPECT_EQ(test, d->fq->udev.sqs_dying, 0U);
}

/*
 * Destroy waits for the answers to the requests on the wire (sq.c,
 * udma_sq_wait_answers()): a failure of their TP answers them, and the
 * destroy ends then, before its bound.
 */
static void msg_destroy_waits_for_answers(struct kunit *test)
{
	struct destroyer *d = destroy_sent(test);
	struct udma_sq *sq = &d->fq->jfs.sq;

	msleep(50);
	KUNIT_EXPECT_FALSE(test, completion_done(&d->done));
	udma_sq_lock(sq);
	/* (the hold carrier gives its requests no TP: NULL, generation 0) */
	udma_comp_tp_failed(sq, NULL, 0);
	udma_sq_unlock(sq);
	destroy_ended(test, d);
	KUNIT_EXPECT_GE(test, jiffies_to_msecs(d->took), 50U);
	KUNIT_EXPECT_LT(test, jiffies_to_msecs(d->took),
			(u32)UDMA_SQ_ANSWER_WAIT_MS);
}

/* Answers that never come hold the destroy up to its bound only. */
static void msg_destroy_answer_bound(struct kunit *test)
{
	struct destroyer *d = destroy_sent(test);

	destroy_ended(test, d);
	KUNIT_EXPECT_GE(test, jiffies_to_msecs(d->took),
			(u32)UDMA_SQ_ANSWER_WAIT_MS);
}

static struct kunit_case udma_msg_cases[] = {
	KUNIT_CASE(msg_requester_window_size),
	KUNIT_CASE(msg_requester_window),
	KUNIT_CASE(msg_requester_softirq_budget),
	KUNIT_CASE(msg_requester_softirq_defers),
	KUNIT_CASE(msg_completer_drops),
	KUNIT_CASE(msg_completer_statuses),
	KUNIT_CASE(msg_completer_in_softirq),
	KUNIT_CASE(msg_requester_fence),
	KUNIT_CASE(msg_rnr_resends_from_head),
	KUNIT_CASE(msg_completer_places_data),
	KUNIT_CASE(msg_responder),
	KUNIT_CASE(msg_destroy_waits_for_answers),
	KUNIT_CASE(msg_destroy_answer_bound),
	{}
};

static struct kunit_suite udma_msg_suite = {
	.name = "udma_msg",
	.exit = fq_exit,
	.test_cases = udma_msg_cases,
};

kunit_test_suite(udma_msg_suite);
