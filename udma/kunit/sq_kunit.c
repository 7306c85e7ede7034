// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * KUnit tests of sq.c on a hand-built JFS and JFC (fake_queue.h): taking
 * WQEs off the ring and completing them, malformed WQEs, a corrupt
 * producer index and a full JFC (the queue goes to ERROR with JFS_ERR),
 * the budgets of one run, the states READY, SUSPENDED, ERROR and RESET,
 * and flush. Expectations: udma_abi.h (ring rules), the CQE status values
 * of urma_cr_status_t and the state rules written at the top of sq.c.
 */
#include <kunit/test.h>
#include <linux/errno.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#include <linux/workqueue.h>

#include "fake_queue.h"

static void expect_cqe(struct kunit *test, struct fq *fq, u8 status,
		       u64 user_ctx)
{
	struct udma_cqe cqe;

	KUNIT_ASSERT_TRUE_MSG(test, fq_poll(fq, &cqe), "no CQE for %llu",
			      user_ctx);
	KUNIT_EXPECT_EQ(test, cqe.status, status);
	KUNIT_EXPECT_EQ(test, cqe.user_ctx, user_ctx);
	KUNIT_EXPECT_EQ(test, cqe.local_id, FQ_JFS_ID);
	KUNIT_EXPECT_EQ(test, cqe.completion_len, 0U);
}

static void expect_no_cqe(struct kunit *test, struct fq *fq)
{
	struct udma_cqe cqe;

	KUNIT_EXPECT_FALSE(test, fq_poll(fq, &cqe));
}

static void expect_state(struct kunit *test, struct fq *fq, u32 state)
{
	KUNIT_EXPECT_EQ(test, fq->jfs.sq.state, state);
	KUNIT_EXPECT_EQ(test, (u32)READ_ONCE(fq->jfs.base.state), state);
}

static void nops_complete(struct kunit *test, bool user)
{
	struct fq *fq = fq_create(test, 8, 16, user);
	struct udma_sqe sqe;

	fq_sqe_nop(&sqe, 1, UDMA_SQE_F_COMPLETE);
	fq_post(fq, &sqe);
	fq_sqe_nop(&sqe, 2, 0);		/* unsignaled: no CQE */
	fq_post(fq, &sqe);
	fq_sqe_nop(&sqe, 3, UDMA_SQE_F_COMPLETE | UDMA_SQE_F_FENCE);
	fq_post(fq, &sqe);
	KUNIT_EXPECT_FALSE(test, fq_process(fq, false));
	KUNIT_EXPECT_EQ(test, fq_sq_ci(fq), 3U);
	expect_cqe(test, fq, URMA_CR_SUCCESS, 1);
	expect_cqe(test, fq, URMA_CR_SUCCESS, 3);
	expect_no_cqe(test, fq);
	expect_state(test, fq, UBCORE_JETTY_STATE_READY);
	KUNIT_EXPECT_EQ(test, atomic_read(&fq->jfs_err), 0);
}

static void sq_nops_complete_user(struct kunit *test)
{
	nops_complete(test, true);
}

static void sq_nops_complete_kernel(struct kunit *test)
{
	nops_complete(test, false);
}

/* Each bad WQE fails alone with its status; the queue stays READY. */
static void sq_bad_wqes(struct kunit *test)
{
	struct fq *fq = fq_create(test, 8, 16, true);
	struct udma_import imp = {
		.type = UDMA_IMPORT_SEG,
		.idx = 3,
		.token_id = 9,
		.va = 0x100000,
		.len = SZ_64K,
	};
	struct udma_sqe sqe;

	fq_sqe_nop(&sqe, 1, UDMA_SQE_F_COMPLETE);
	sqe.opcode = 0x7f;
	fq_post(fq, &sqe);
	/* Unknown flag bits, and no COMPLETE: a failure completes anyway. */
	fq_sqe_nop(&sqe, 2, 0x80);
	fq_post(fq, &sqe);
	/* A remote segment index that names no import. */
	fq_sqe_nop(&sqe, 3, UDMA_SQE_F_COMPLETE);
	sqe.opcode = URMA_OPC_WRITE;
	sqe.rseg_idx = 4;
	sqe.remote_va = 0x100000;
	sqe.remote_len = 8;
	sqe.num_sge = 1;
	sqe.sge[0].va = 0x200000;
	sqe.sge[0].len = 8;
	sqe.sge[0].token_id = 1;
	fq_post(fq, &sqe);
	/* The import exists, the local SGE names no registered segment. */
	KUNIT_ASSERT_EQ(test, xa_err(xa_store(&fq->uctx->import_xa, 3, &imp,
					      GFP_KERNEL)), 0);
	sqe.user_ctx = 4;
	sqe.rseg_idx = 3;
	fq_post(fq, &sqe);
	/* More SGEs than the queue's max_sge (4). */
	sqe.user_ctx = 5;
	sqe.num_sge = 5;
	fq_post(fq, &sqe);
	fq_sqe_nop(&sqe, 6, UDMA_SQE_F_COMPLETE);
	fq_post(fq, &sqe);

	KUNIT_EXPECT_FALSE(test, fq_process(fq, false));
	expect_cqe(test, fq, URMA_CR_UNSUPPORTED_OPCODE_ERR, 1);
	expect_cqe(test, fq, URMA_CR_LOC_OPERATION_ERR, 2);
	expect_cqe(test, fq, URMA_CR_LOC_ACCESS_ERR, 3);
	expect_cqe(test, fq, URMA_CR_LOC_ACCESS_ERR, 4);
	expect_cqe(test, fq, URMA_CR_LOC_LEN_ERR, 5);
	expect_cqe(test, fq, URMA_CR_SUCCESS, 6);
	expect_no_cqe(test, fq);
	expect_state(test, fq, UBCORE_JETTY_STATE_READY);
	KUNIT_EXPECT_EQ(test, atomic_read(&fq->jfs_err), 0);
	xa_erase(&fq->uctx->import_xa, 3);
}

/*
 * A producer index more than entry_cnt ahead of the kernel's ci (or
 * behind it): the ring is corrupt, the queue goes to ERROR with one
 * JFS_ERR and a WR_FLUSH_ERR_DONE record; nothing is taken.
 */
static void corrupt_pi(struct kunit *test, u32 offset)
{
	struct fq *fq = fq_create(test, 8, 16, true);
	u32 first = 0, cnt = 0;

	fq_post_nops(fq, 2, 0);
	KUNIT_EXPECT_FALSE(test, fq_process(fq, false));
	expect_cqe(test, fq, URMA_CR_SUCCESS, 0);
	expect_cqe(test, fq, URMA_CR_SUCCESS, 1);

	fq_set_sq_pi(fq, 2 + offset);
	KUNIT_EXPECT_FALSE(test, fq_process(fq, false));
	expect_state(test, fq, UBCORE_JETTY_STATE_ERROR);
	KUNIT_EXPECT_EQ(test, atomic_read(&fq->jfs_err), 1);
	KUNIT_EXPECT_EQ(test, fq->jfs_err_id, FQ_JFS_ID);
	KUNIT_EXPECT_EQ(test, atomic_read(&fq->jfc_err), 0);
	expect_cqe(test, fq, URMA_CR_WR_FLUSH_ERR_DONE, 0);
	expect_no_cqe(test, fq);
	KUNIT_EXPECT_EQ(test, fq_sq_ci(fq), 2U);
	/* Flush cannot take what pi claims either. */
	KUNIT_EXPECT_EQ(test, udma_sq_flush(&fq->jfs.sq, 64, &first, &cnt),
			-EIO);
	KUNIT_EXPECT_EQ(test, fq_sq_ci(fq), 2U);
	/* Stopped: no second event. */
	KUNIT_EXPECT_FALSE(test, fq_process(fq, false));
	KUNIT_EXPECT_EQ(test, atomic_read(&fq->jfs_err), 1);
	expect_no_cqe(test, fq);
}

static void sq_corrupt_pi_ahead(struct kunit *test)
{
	corrupt_pi(test, 8 + 1);
}

static void sq_corrupt_pi_behind(struct kunit *test)
{
	corrupt_pi(test, (u32)-1);
}

static void sq_corrupt_pi_far(struct kunit *test)
{
	corrupt_pi(test, 0x80000000U);
}

/* pi exactly entry_cnt ahead is a full ring, not a corrupt one. */
static void sq_full_ring(struct kunit *test)
{
	struct fq *fq = fq_create(test, 8, 16, true);
	u32 i;

	fq_post_nops(fq, 8, 100);
	KUNIT_EXPECT_FALSE(test, fq_process(fq, false));
	for (i = 0; i < 8; i++)
		expect_cqe(test, fq, URMA_CR_SUCCESS, 100 + i);
	expect_state(test, fq, UBCORE_JETTY_STATE_READY);
	/* Around the ring again, across the index wrap. */
	fq->sq_pi = 0xfffffffcU;
	fq->jfs.sq.ring->ci = 0xfffffffcU;
	fq_post_nops(fq, 8, 200);
	KUNIT_EXPECT_EQ(test, fq->sq_pi, 4U);
	KUNIT_EXPECT_FALSE(test, fq_process(fq, false));
	for (i = 0; i < 8; i++)
		expect_cqe(test, fq, URMA_CR_SUCCESS, 200 + i);
	KUNIT_EXPECT_EQ(test, fq_sq_ci(fq), 4U);
	expect_state(test, fq, UBCORE_JETTY_STATE_READY);
	KUNIT_EXPECT_EQ(test, atomic_read(&fq->jfs_err), 0);
}

/*
 * A completion that does not fit in the JFC is fatal to the queue: JFC_ERR
 * from the JFC, JFS_ERR and ERROR for the queue; what it had not taken
 * stays for flush.
 */
static void sq_cq_overflow_is_fatal(struct kunit *test)
{
	struct fq *fq = fq_create(test, 8, 2, true);
	u32 first = 0, cnt = 0;

	fq_post_nops(fq, 6, 0);
	KUNIT_EXPECT_FALSE(test, fq_process(fq, false));
	expect_state(test, fq, UBCORE_JETTY_STATE_ERROR);
	KUNIT_EXPECT_EQ(test, atomic_read(&fq->jfc_err), 1);
	KUNIT_EXPECT_EQ(test, fq->jfc_err_id, FQ_JFC_ID);
	KUNIT_EXPECT_EQ(test, atomic_read(&fq->jfs_err), 1);
	KUNIT_EXPECT_EQ(test, fq->jfs_err_id, FQ_JFS_ID);
	KUNIT_EXPECT_EQ(test, fq_sq_ci(fq), 3U);
	expect_cqe(test, fq, URMA_CR_SUCCESS, 0);
	expect_cqe(test, fq, URMA_CR_SUCCESS, 1);
	expect_no_cqe(test, fq);

	KUNIT_EXPECT_EQ(test, udma_sq_flush(&fq->jfs.sq, 2, &first, &cnt), 0);
	KUNIT_EXPECT_EQ(test, first, 3U);
	KUNIT_EXPECT_EQ(test, cnt, 2U);
	KUNIT_EXPECT_EQ(test, udma_sq_flush(&fq->jfs.sq, 64, &first, &cnt), 0);
	KUNIT_EXPECT_EQ(test, first, 5U);
	KUNIT_EXPECT_EQ(test, cnt, 1U);
	KUNIT_EXPECT_EQ(test, udma_sq_flush(&fq->jfs.sq, 64, &first, &cnt), 0);
	KUNIT_EXPECT_EQ(test, cnt, 0U);
	KUNIT_EXPECT_EQ(test, fq_sq_ci(fq), 6U);
}

/* A doorbell's run: 64 WQEs; the work's: 256; then the queue is empty. */
static void sq_budgets(struct kunit *test)
{
	struct fq *fq = fq_create(test, 512, 512, true);
	struct udma_cqe *cqe;
	u32 i, n;

	cqe = kunit_kcalloc(test, 512, sizeof(*cqe), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, cqe);
	fq_post_nops(fq, 400, 0);
	KUNIT_EXPECT_TRUE(test, fq_process(fq, true));
	KUNIT_EXPECT_EQ(test, fq_sq_ci(fq), 64U);
	KUNIT_EXPECT_TRUE(test, fq_process(fq, false));
	KUNIT_EXPECT_EQ(test, fq_sq_ci(fq), 64U + 256);
	KUNIT_EXPECT_FALSE(test, fq_process(fq, false));
	KUNIT_EXPECT_EQ(test, fq_sq_ci(fq), 400U);
	n = fq_drain(fq, cqe, 512);
	KUNIT_ASSERT_EQ(test, n, 400U);
	for (i = 0; i < n; i++)
		KUNIT_EXPECT_EQ(test, cqe[i].user_ctx, (u64)i);
}

/*
 * A WQE of more bytes than a doorbell's budget (256 KiB) is taken and
 * left for the work: it is the current WQE. SUSPENDED keeps it and READY
 * runs it; ERROR completes it with WR_FLUSH_ERR before WR_FLUSH_ERR_DONE.
 */
static void post_big_nop(struct fq *fq, u64 user_ctx)
{
	struct udma_sqe sqe;

	fq_sqe_nop(&sqe, user_ctx, UDMA_SQE_F_COMPLETE);
	sqe.num_sge = 1;
	sqe.sge[0].len = SZ_512K;
	fq_post(fq, &sqe);
}

static void sq_current_wqe_suspend_and_error(struct kunit *test)
{
	struct fq *fq = fq_create(test, 8, 16, true);
	struct udma_sq *sq = &fq->jfs.sq;

	post_big_nop(fq, 41);
	KUNIT_EXPECT_TRUE(test, fq_process(fq, true));
	KUNIT_EXPECT_EQ(test, fq_sq_ci(fq), 1U);
	KUNIT_EXPECT_TRUE(test, udma_sq_busy(sq));
	expect_no_cqe(test, fq);

	KUNIT_EXPECT_EQ(test, udma_sq_set_state(sq, UBCORE_JETTY_STATE_SUSPENDED), 0);
	expect_cqe(test, fq, URMA_CR_WR_SUSPEND_DONE, 0);
	expect_no_cqe(test, fq);
	KUNIT_EXPECT_EQ(test, udma_sq_set_state(sq, UBCORE_JETTY_STATE_READY), 0);
	flush_delayed_work(&sq->work);
	expect_cqe(test, fq, URMA_CR_SUCCESS, 41);

	post_big_nop(fq, 42);
	KUNIT_EXPECT_TRUE(test, fq_process(fq, true));
	KUNIT_EXPECT_TRUE(test, udma_sq_busy(sq));
	KUNIT_EXPECT_EQ(test, udma_sq_set_state(sq, UBCORE_JETTY_STATE_ERROR), 0);
	expect_cqe(test, fq, URMA_CR_WR_FLUSH_ERR, 42);
	expect_cqe(test, fq, URMA_CR_WR_FLUSH_ERR_DONE, 0);
	expect_no_cqe(test, fq);
	KUNIT_EXPECT_FALSE(test, udma_sq_busy(sq));
	/* The owner's change is no error event. */
	KUNIT_EXPECT_EQ(test, atomic_read(&fq->jfs_err), 0);
}

/* The transitions of ubcore_check_jetty_state() and what each does. */
static void sq_states(struct kunit *test)
{
	struct fq *fq = fq_create(test, 8, 16, true);
	struct udma_sq *sq = &fq->jfs.sq;
	u32 first = 0, cnt = 0;

	KUNIT_EXPECT_EQ(test, udma_sq_set_state(sq, UBCORE_JETTY_STATE_RESET), -EINVAL);
	KUNIT_EXPECT_EQ(test, udma_sq_set_state(sq, UBCORE_JETTY_STATE_READY), 0);
	KUNIT_EXPECT_EQ(test, udma_sq_flush(sq, 8, &first, &cnt), -EINVAL);
	expect_state(test, fq, UBCORE_JETTY_STATE_READY);
	expect_no_cqe(test, fq);

	/* SUSPENDED: nothing starts; flush takes WQEs off. */
	KUNIT_EXPECT_EQ(test, udma_sq_set_state(sq, UBCORE_JETTY_STATE_SUSPENDED), 0);
	expect_state(test, fq, UBCORE_JETTY_STATE_SUSPENDED);
	expect_cqe(test, fq, URMA_CR_WR_SUSPEND_DONE, 0);
	fq_post_nops(fq, 3, 10);
	KUNIT_EXPECT_FALSE(test, fq_process(fq, false));
	KUNIT_EXPECT_EQ(test, fq_sq_ci(fq), 0U);
	expect_no_cqe(test, fq);
	KUNIT_EXPECT_EQ(test, udma_sq_flush(sq, 2, &first, &cnt), 0);
	KUNIT_EXPECT_EQ(test, first, 0U);
	KUNIT_EXPECT_EQ(test, cnt, 2U);
	KUNIT_EXPECT_EQ(test, fq_sq_ci(fq), 2U);

	/* READY again: the rest runs (the state change kicks the work). */
	KUNIT_EXPECT_EQ(test, udma_sq_set_state(sq, UBCORE_JETTY_STATE_READY), 0);
	flush_delayed_work(&sq->work);
	expect_cqe(test, fq, URMA_CR_SUCCESS, 12);
	KUNIT_EXPECT_EQ(test, fq_sq_ci(fq), 3U);

	/* ERROR: only RESET leads out of it. */
	KUNIT_EXPECT_EQ(test, udma_sq_set_state(sq, UBCORE_JETTY_STATE_ERROR), 0);
	expect_cqe(test, fq, URMA_CR_WR_FLUSH_ERR_DONE, 0);
	expect_state(test, fq, UBCORE_JETTY_STATE_ERROR);
	KUNIT_EXPECT_EQ(test, udma_sq_set_state(sq, UBCORE_JETTY_STATE_READY), -EINVAL);
	KUNIT_EXPECT_EQ(test, udma_sq_set_state(sq, UBCORE_JETTY_STATE_SUSPENDED), -EINVAL);
	expect_state(test, fq, UBCORE_JETTY_STATE_ERROR);
	fq_post_nops(fq, 2, 20);
	KUNIT_EXPECT_FALSE(test, fq_process(fq, false));
	KUNIT_EXPECT_EQ(test, fq_sq_ci(fq), 3U);
	expect_no_cqe(test, fq);

	/* RESET: the WQEs not taken are dropped without completions. */
	KUNIT_EXPECT_EQ(test, udma_sq_set_state(sq, UBCORE_JETTY_STATE_RESET), 0);
	expect_state(test, fq, UBCORE_JETTY_STATE_RESET);
	KUNIT_EXPECT_EQ(test, fq_sq_ci(fq), 5U);
	KUNIT_EXPECT_EQ(test, sq->ring->ci, 5U);
	expect_no_cqe(test, fq);
	KUNIT_EXPECT_EQ(test, udma_sq_flush(sq, 8, &first, &cnt), -EINVAL);
	KUNIT_EXPECT_EQ(test, udma_sq_set_state(sq, UBCORE_JETTY_STATE_SUSPENDED), -EINVAL);
	KUNIT_EXPECT_EQ(test, udma_sq_set_state(sq, UBCORE_JETTY_STATE_READY), 0);
	flush_delayed_work(&sq->work);
	expect_no_cqe(test, fq);
	fq_post_nops(fq, 1, 30);
	KUNIT_EXPECT_FALSE(test, fq_process(fq, false));
	expect_cqe(test, fq, URMA_CR_SUCCESS, 30);
	expect_no_cqe(test, fq);
	KUNIT_EXPECT_EQ(test, atomic_read(&fq->jfs_err), 0);
}

static struct kunit_case udma_sq_cases[] = {
	KUNIT_CASE(sq_nops_complete_user),
	KUNIT_CASE(sq_nops_complete_kernel),
	KUNIT_CASE(sq_bad_wqes),
	KUNIT_CASE(sq_corrupt_pi_ahead),
	KUNIT_CASE(sq_corrupt_pi_behind),
	KUNIT_CASE(sq_corrupt_pi_far),
	KUNIT_CASE(sq_full_ring),
	KUNIT_CASE(sq_cq_overflow_is_fatal),
	KUNIT_CASE(sq_budgets),
	KUNIT_CASE(sq_current_wqe_suspend_and_error),
	KUNIT_CASE(sq_states),
	{}
};

static struct kunit_suite udma_sq_suite = {
	.name = "udma_sq",
	.exit = fq_exit,
	.test_cases = udma_sq_cases,
};

kunit_test_suite(udma_sq_suite);
