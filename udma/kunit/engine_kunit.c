// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * KUnit tests of engine.c on a hand-built JFS and JFC (fake_queue.h):
 * what a doorbell runs inline and what it leaves to the work, a doorbell
 * that finds the queue busy, kicks of a queue being destroyed, the RNR
 * list, and a JFR doorbell that clears db_wanted and retries a waiting
 * queue at once; a kernel queue's poke, its tasklet and the work that
 * takes over from it. Expectations: engine.c's and sq.c's rules (64 WQEs
 * per doorbell, 16 per softirq batch, one processor per queue, destroy
 * leaves no work or tasklet behind).
 */
#include <kunit/test.h>
#include <linux/delay.h>
#include <linux/interrupt.h>
#include <linux/jiffies.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#include <linux/workqueue.h>

#include "fake_queue.h"

static void expect_ctxs(struct kunit *test, struct fq *fq, u32 n, u64 first)
{
	struct udma_cqe *cqe;
	u32 i;

	cqe = kunit_kcalloc(test, n + 1, sizeof(*cqe), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, cqe);
	KUNIT_ASSERT_EQ(test, fq_drain(fq, cqe, n + 1), n);
	for (i = 0; i < n; i++) {
		KUNIT_EXPECT_EQ(test, cqe[i].status, URMA_CR_SUCCESS);
		KUNIT_EXPECT_EQ(test, cqe[i].user_ctx, first + i);
	}
}

/* A small post is done when the doorbell returns, and no work is left. */
static void engine_doorbell_runs_inline(struct kunit *test)
{
	struct fq *fq = fq_create(test, 16, 16, true);

	fq_post_nops(fq, 3, 0);
	KUNIT_EXPECT_EQ(test, udma_jfs_doorbell(&fq->jfs.base), 0);
	KUNIT_EXPECT_EQ(test, fq_sq_ci(fq), 3U);
	KUNIT_EXPECT_FALSE(test, delayed_work_pending(&fq->jfs.sq.work));
	expect_ctxs(test, fq, 3, 0);
}

/* Beyond 64 WQEs the doorbell returns and the work does the rest. */
static void engine_doorbell_leaves_rest_to_work(struct kunit *test)
{
	struct fq *fq = fq_create(test, 256, 256, true);

	fq_post_nops(fq, 200, 0);
	KUNIT_EXPECT_EQ(test, udma_jfs_doorbell(&fq->jfs.base), 0);
	KUNIT_EXPECT_GE(test, fq_sq_ci(fq), 64U);
	flush_delayed_work(&fq->jfs.sq.work);
	KUNIT_EXPECT_EQ(test, fq_sq_ci(fq), 200U);
	expect_ctxs(test, fq, 200, 0);
}

/* A doorbell while another context processes the queue: the work runs. */
static void engine_doorbell_while_busy(struct kunit *test)
{
	struct fq *fq = fq_create(test, 16, 16, true);
	struct udma_sq *sq = &fq->jfs.sq;

	fq_post_nops(fq, 2, 5);
	udma_sq_lock(sq);
	KUNIT_EXPECT_EQ(test, udma_jfs_doorbell(&fq->jfs.base), 0);
	KUNIT_EXPECT_EQ(test, fq_sq_ci(fq), 0U);
	KUNIT_EXPECT_TRUE(test, delayed_work_pending(&sq->work) ||
			  work_busy(&sq->work.work));
	udma_sq_unlock(sq);
	flush_delayed_work(&sq->work);
	KUNIT_EXPECT_EQ(test, fq_sq_ci(fq), 2U);
	expect_ctxs(test, fq, 2, 5);
}

/* Destroy cancels pending work; kicks afterwards queue nothing. */
static void engine_destroy_stops_kicks(struct kunit *test)
{
	struct fq *fq = fq_create(test, 16, 16, true);
	struct udma_sq *sq = &fq->jfs.sq;
	struct udma_cqe cqe;

	udma_sq_kick(sq, 100 * HZ);
	KUNIT_EXPECT_TRUE(test, delayed_work_pending(&sq->work));
	udma_sq_rnr_add(sq);
	udma_sq_destroy(sq);
	fq->sq_live = false;
	KUNIT_EXPECT_FALSE(test, delayed_work_pending(&sq->work));
	KUNIT_EXPECT_TRUE(test, list_empty(&sq->rnr_node));
	KUNIT_EXPECT_TRUE(test, READ_ONCE(sq->dying));

	fq_post_nops(fq, 2, 0);
	udma_sq_kick(sq, 0);
	KUNIT_EXPECT_FALSE(test, delayed_work_pending(&sq->work));
	KUNIT_EXPECT_EQ(test, fq_sq_ci(fq), 0U);
	KUNIT_EXPECT_FALSE(test, fq_poll(fq, &cqe));
}

/*
 * The RNR list: an SQ on it once however often it is added; a JFR
 * doorbell clears the RQ's db_wanted and marks every waiting SQ woken;
 * one taken off is not woken.
 */
static void engine_rnr_list(struct kunit *test)
{
	struct fq *fq = fq_create(test, 16, 16, true);
	struct udma_sq *sq = &fq->jfs.sq;
	struct udma_jfr jfr = {};

	jfr.rq = fq_ring(test, UDMA_RQE_SIZE, 8);
	WRITE_ONCE(jfr.rq->ctrl->db_wanted, 1);
	KUNIT_EXPECT_EQ(test, udma_jfr_doorbell(&jfr.base), 0);
	KUNIT_EXPECT_EQ(test, READ_ONCE(jfr.rq->ctrl->db_wanted), 0U);
	KUNIT_EXPECT_FALSE(test, READ_ONCE(sq->rnr_woken));

	udma_sq_rnr_add(sq);
	udma_sq_rnr_add(sq);
	KUNIT_EXPECT_FALSE(test, list_empty(&sq->rnr_node));
	WRITE_ONCE(jfr.rq->ctrl->db_wanted, 1);
	KUNIT_EXPECT_EQ(test, udma_jfr_doorbell(&jfr.base), 0);
	KUNIT_EXPECT_EQ(test, READ_ONCE(jfr.rq->ctrl->db_wanted), 0U);
	KUNIT_EXPECT_TRUE(test, READ_ONCE(sq->rnr_woken));
	flush_delayed_work(&sq->work);

	udma_sq_rnr_del(sq);
	KUNIT_EXPECT_TRUE(test, list_empty(&sq->rnr_node));
	udma_sq_rnr_del(sq);
	WRITE_ONCE(sq->rnr_woken, false);
	KUNIT_EXPECT_EQ(test, udma_jfr_doorbell(&jfr.base), 0);
	KUNIT_EXPECT_FALSE(test, READ_ONCE(sq->rnr_woken));
}

/*
 * A queue waiting for an RNR retry 100 s away: neither a doorbell nor the
 * work runs its WQE before then, a JFR doorbell runs it at once, and the
 * completed WQE leaves the RNR list.
 */
static void engine_jfr_doorbell_ends_rnr_wait(struct kunit *test)
{
	struct fq *fq = fq_create(test, 16, 16, true);
	struct udma_sq *sq = &fq->jfs.sq;
	struct udma_jfr jfr = {};
	struct udma_sqe sqe;
	struct udma_cqe cqe;

	jfr.rq = fq_ring(test, UDMA_RQE_SIZE, 8);
	/* More bytes than a doorbell's budget: taken, left current. */
	fq_sqe_nop(&sqe, 77, UDMA_SQE_F_COMPLETE);
	sqe.num_sge = 1;
	sqe.sge[0].len = SZ_512K;
	fq_post(fq, &sqe);
	KUNIT_ASSERT_TRUE(test, fq_process(fq, true));
	KUNIT_ASSERT_TRUE(test, udma_sq_busy(sq));

	/* What udma_sq_rnr_wait() leaves after a first RNR answer. */
	udma_sq_lock(sq);
	sq->rnr_wait = true;
	sq->rnr_left = 6;
	sq->rnr_tries = 1;
	sq->rnr_until = jiffies + 100 * HZ;
	udma_sq_rnr_add(sq);
	udma_sq_unlock(sq);

	KUNIT_EXPECT_EQ(test, udma_jfs_doorbell(&fq->jfs.base), 0);
	KUNIT_EXPECT_FALSE(test, fq_poll(fq, &cqe));
	KUNIT_EXPECT_TRUE(test, delayed_work_pending(&sq->work));
	KUNIT_EXPECT_FALSE(test, fq_process(fq, false));
	KUNIT_EXPECT_FALSE(test, fq_poll(fq, &cqe));
	KUNIT_EXPECT_TRUE(test, udma_sq_busy(sq));

	KUNIT_EXPECT_EQ(test, udma_jfr_doorbell(&jfr.base), 0);
	flush_delayed_work(&sq->work);
	KUNIT_ASSERT_TRUE(test, fq_poll(fq, &cqe));
	KUNIT_EXPECT_EQ(test, cqe.status, URMA_CR_SUCCESS);
	KUNIT_EXPECT_EQ(test, cqe.user_ctx, 77ULL);
	KUNIT_EXPECT_FALSE(test, udma_sq_busy(sq));
	KUNIT_EXPECT_FALSE(test, sq->rnr_wait);
	KUNIT_EXPECT_TRUE(test, list_empty(&sq->rnr_node));
}

/* Wait up to 2 s for the SQ's consumer index to reach @ci. */
static bool wait_sq_ci(struct fq *fq, u32 ci)
{
	unsigned long end = jiffies + 2 * HZ;

	while (fq_sq_ci(fq) != ci && time_before(jiffies, end))
		usleep_range(500, 1000);
	return fq_sq_ci(fq) == ci;
}

/*
 * A kernel queue's poke: its tasklet takes 16 WQEs, the work the rest; a
 * WQE beyond the softirq's 256 KiB is the work's too. All complete, in
 * order. After destroy a poke schedules nothing.
 */
static void engine_poke_kernel_queue(struct kunit *test)
{
	struct fq *fq = fq_create(test, 64, 64, false);
	struct udma_sq *sq = &fq->jfs.sq;
	struct udma_sqe sqe;
	struct udma_cqe cqe;

	fq_post_nops(fq, 20, 0);
	fq_sqe_nop(&sqe, 20, UDMA_SQE_F_COMPLETE);
	sqe.num_sge = 1;
	sqe.sge[0].len = SZ_512K;
	fq_post(fq, &sqe);
	udma_sq_poke(sq);
	KUNIT_EXPECT_TRUE(test, wait_sq_ci(fq, 21));
	flush_delayed_work(&sq->work);
	expect_ctxs(test, fq, 21, 0);

	udma_sq_destroy(sq);
	fq->sq_live = false;
	fq_post_nops(fq, 2, 0);
	udma_sq_poke(sq);
	KUNIT_EXPECT_FALSE(test, test_bit(TASKLET_STATE_SCHED,
					  &sq->tasklet.state));
	KUNIT_EXPECT_FALSE(test, delayed_work_pending(&sq->work));
	KUNIT_EXPECT_EQ(test, fq_sq_ci(fq), 21U);
	KUNIT_EXPECT_FALSE(test, fq_poll(fq, &cqe));
}

static struct kunit_case udma_engine_cases[] = {
	KUNIT_CASE(engine_doorbell_runs_inline),
	KUNIT_CASE(engine_doorbell_leaves_rest_to_work),
	KUNIT_CASE(engine_doorbell_while_busy),
	KUNIT_CASE(engine_destroy_stops_kicks),
	KUNIT_CASE(engine_rnr_list),
	KUNIT_CASE(engine_jfr_doorbell_ends_rnr_wait),
	KUNIT_CASE(engine_poke_kernel_queue),
	{}
};

static struct kunit_suite udma_engine_suite = {
	.name = "udma_engine",
	.exit = fq_exit,
	.test_cases = udma_engine_cases,
};

kunit_test_suite(udma_engine_suite);
