// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * KUnit tests of cq.c: where udma_cq_post() writes CQEs, their owner
 * bytes lap after lap and across the 32-bit wrap of the indexes, a full
 * CQ and a consumer index out of range (JFC_ERR once, nothing written),
 * and what udma_rearm_jfc() fires. The expectations are the ring rules of
 * include/uapi/ub/udma_abi.h.
 */
#include <kunit/test.h>
#include <linux/errno.h>

#include "fake_queue.h"

static void cqe_init(struct udma_cqe *cqe, u64 user_ctx)
{
	memset(cqe, 0, sizeof(*cqe));
	cqe->status = URMA_CR_LOC_LEN_ERR;
	cqe->completion_len = 100 + user_ctx;
	cqe->user_ctx = user_ctx;
	cqe->local_id = FQ_JFS_ID;
	cqe->imm_data = 0x1122334455667788ULL;
}

static int post(struct fq *fq, u64 user_ctx, bool solicited)
{
	struct udma_cqe cqe;

	cqe_init(&cqe, user_ctx);
	return udma_cq_post(&fq->jfc, &cqe, solicited);
}

static struct udma_cqe *entry(struct fq *fq, u32 idx)
{
	return udma_ring_entry(fq->jfc.cq, idx);
}

/* Four CQEs fill a CQ of 4 in order; the fifth does not fit. */
static void cq_fill_and_overflow(struct kunit *test)
{
	struct fq *fq = fq_create(test, 8, 4, true);
	struct udma_cqe cqe;
	u32 i;

	for (i = 0; i < 4; i++)
		KUNIT_ASSERT_EQ(test, post(fq, i, false), 0);
	KUNIT_EXPECT_EQ(test, fq->jfc.cq->ctrl->pi, 4U);
	for (i = 0; i < 4; i++) {
		/* First lap: owner 1 (udma_abi.h: parity 0, xor 1). */
		KUNIT_EXPECT_EQ(test, entry(fq, i)->owner, 1);
		KUNIT_EXPECT_EQ(test, entry(fq, i)->user_ctx, (u64)i);
		KUNIT_EXPECT_EQ(test, entry(fq, i)->completion_len, 100U + i);
		KUNIT_EXPECT_EQ(test, entry(fq, i)->status, URMA_CR_LOC_LEN_ERR);
		KUNIT_EXPECT_EQ(test, entry(fq, i)->local_id, FQ_JFS_ID);
		KUNIT_EXPECT_EQ(test, entry(fq, i)->imm_data,
				0x1122334455667788ULL);
	}
	KUNIT_EXPECT_EQ(test, atomic_read(&fq->jfc_err), 0);

	/* Full: dropped, JFC_ERR once however many do not fit. */
	KUNIT_EXPECT_EQ(test, post(fq, 4, false), -ENOSPC);
	KUNIT_EXPECT_EQ(test, post(fq, 5, false), -ENOSPC);
	KUNIT_EXPECT_EQ(test, atomic_read(&fq->jfc_err), 1);
	KUNIT_EXPECT_EQ(test, fq->jfc_err_id, FQ_JFC_ID);
	KUNIT_EXPECT_EQ(test, fq->jfc.cq->ctrl->pi, 4U);
	KUNIT_EXPECT_EQ(test, entry(fq, 0)->user_ctx, 0ULL);

	/* One consumed: the next goes to entry 0, second lap, owner 0. */
	KUNIT_ASSERT_TRUE(test, fq_poll(fq, &cqe));
	KUNIT_EXPECT_EQ(test, cqe.user_ctx, 0ULL);
	KUNIT_EXPECT_EQ(test, post(fq, 6, false), 0);
	KUNIT_EXPECT_EQ(test, entry(fq, 4)->owner, 0);
	KUNIT_EXPECT_EQ(test, entry(fq, 4)->user_ctx, 6ULL);
	KUNIT_EXPECT_EQ(test, fq->jfc.cq->ctrl->pi, 5U);

	/* The overflow is over: the next one raises JFC_ERR again. */
	KUNIT_EXPECT_EQ(test, post(fq, 7, false), -ENOSPC);
	KUNIT_EXPECT_EQ(test, atomic_read(&fq->jfc_err), 2);
	KUNIT_EXPECT_EQ(test, atomic_read(&fq->other_events), 0);

	for (i = 1; i < 4; i++) {
		KUNIT_ASSERT_TRUE(test, fq_poll(fq, &cqe));
		KUNIT_EXPECT_EQ(test, cqe.user_ctx, (u64)i);
	}
	KUNIT_ASSERT_TRUE(test, fq_poll(fq, &cqe));
	KUNIT_EXPECT_EQ(test, cqe.user_ctx, 6ULL);
	KUNIT_EXPECT_FALSE(test, fq_poll(fq, &cqe));
}

/*
 * Lap after lap, each CQE written is valid by the owner rule and the
 * entry after it is not; with kernel rings (the ring's own ci) as well.
 */
static void cq_laps(struct kunit *test, bool user)
{
	struct fq *fq = fq_create(test, 8, 8, user);
	struct udma_cqe cqe;
	u32 i;

	for (i = 0; i < 8 * 5 + 3; i++) {
		KUNIT_ASSERT_EQ(test, post(fq, i, false), 0);
		KUNIT_EXPECT_EQ(test, entry(fq, i)->owner, ((i / 8) & 1) ^ 1);
		KUNIT_ASSERT_TRUE(test, fq_poll(fq, &cqe));
		KUNIT_EXPECT_EQ(test, cqe.user_ctx, (u64)i);
		KUNIT_EXPECT_FALSE(test, fq_poll(fq, &cqe));
	}
	KUNIT_EXPECT_EQ(test, fq->jfc.cq->ctrl->pi, 8U * 5 + 3);
	KUNIT_EXPECT_EQ(test, atomic_read(&fq->jfc_err), 0);
}

static void cq_laps_user(struct kunit *test)
{
	cq_laps(test, true);
}

static void cq_laps_kernel(struct kunit *test)
{
	cq_laps(test, false);
}

/* The free-running indexes wrap at 2^32 with the ring full and drained. */
static void cq_index_wrap(struct kunit *test)
{
	struct fq *fq = fq_create(test, 8, 4, true);
	struct udma_ring *cq = fq->jfc.cq;
	const u32 start = 0xfffffffeU;
	struct udma_cqe cqe;
	u32 i;

	/* Indexes 0xfffffffe, 0xffffffff are lap parity 1: owner 0 valid. */
	for (i = 0; i < 4; i++)
		entry(fq, i)->owner = 1;
	cq->pi = start;
	cq->ctrl->pi = start;
	cq->ctrl->ci = start;
	fq->cq_ci = start;
	for (i = 0; i < 4; i++)
		KUNIT_ASSERT_EQ(test, post(fq, i, false), 0);
	KUNIT_EXPECT_EQ(test, post(fq, 4, false), -ENOSPC);
	KUNIT_EXPECT_EQ(test, cq->ctrl->pi, 2U);
	KUNIT_EXPECT_EQ(test, entry(fq, start)->owner, 0);
	KUNIT_EXPECT_EQ(test, entry(fq, start + 1)->owner, 0);
	KUNIT_EXPECT_EQ(test, entry(fq, 0)->owner, 1);
	KUNIT_EXPECT_EQ(test, entry(fq, 1)->owner, 1);
	for (i = 0; i < 4; i++) {
		KUNIT_ASSERT_TRUE(test, fq_poll(fq, &cqe));
		KUNIT_EXPECT_EQ(test, cqe.user_ctx, (u64)i);
	}
	KUNIT_EXPECT_FALSE(test, fq_poll(fq, &cqe));
	KUNIT_EXPECT_EQ(test, post(fq, 5, false), 0);
	KUNIT_EXPECT_EQ(test, entry(fq, 2)->owner, 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&fq->jfc_err), 1);
}

/*
 * A consumer index outside [pi - cnt, pi] in the shared page is treated
 * as a full CQ: JFC_ERR, nothing written, pi unchanged.
 */
static void cq_ci_out_of_range(struct kunit *test)
{
	static const u32 bad_ci[] = { 3, 4, 100, 0x80000000U, 0xfffffff9U };
	struct fq *fq = fq_create(test, 8, 8, true);
	struct udma_ring *cq = fq->jfc.cq;
	struct udma_cqe cqe;
	u32 i;

	KUNIT_ASSERT_EQ(test, post(fq, 0, false), 0);
	KUNIT_ASSERT_EQ(test, post(fq, 1, false), 0);
	/* pi is 2: ci 3 is ahead of it, 0xfffffff9 is 9 behind. */
	for (i = 0; i < ARRAY_SIZE(bad_ci); i++) {
		WRITE_ONCE(cq->ctrl->ci, bad_ci[i]);
		KUNIT_EXPECT_EQ_MSG(test, post(fq, 10 + i, false), -ENOSPC,
				    "ci %u", bad_ci[i]);
		KUNIT_EXPECT_EQ(test, cq->ctrl->pi, 2U);
		KUNIT_EXPECT_EQ(test, cq->pi, 2U);
		KUNIT_EXPECT_EQ(test, entry(fq, 2)->owner, 0);
	}
	KUNIT_EXPECT_EQ(test, atomic_read(&fq->jfc_err), 1);
	KUNIT_EXPECT_EQ(test, fq->jfc_err_id, FQ_JFC_ID);
	/* pi - ci == cnt: full; cnt - 2: room (ci behind the wrap). */
	WRITE_ONCE(cq->ctrl->ci, 0xfffffffaU);
	KUNIT_EXPECT_EQ(test, post(fq, 20, false), -ENOSPC);
	WRITE_ONCE(cq->ctrl->ci, 0xfffffffcU);
	KUNIT_EXPECT_EQ(test, post(fq, 21, false), 0);
	KUNIT_EXPECT_EQ(test, entry(fq, 2)->user_ctx, 21ULL);
	WRITE_ONCE(cq->ctrl->ci, 0);
	fq->cq_ci = 0;
	for (i = 0; i < 3; i++)
		KUNIT_ASSERT_TRUE(test, fq_poll(fq, &cqe));
	KUNIT_EXPECT_EQ(test, cqe.user_ctx, 21ULL);
	KUNIT_EXPECT_FALSE(test, fq_poll(fq, &cqe));
}

/* A JFC without a JFCE cannot be armed. */
static void cq_rearm_without_jfce(struct kunit *test)
{
	struct fq *fq = fq_create(test, 8, 8, true);

	KUNIT_EXPECT_EQ(test, udma_rearm_jfc(&fq->jfc.base, false), -EINVAL);
	KUNIT_EXPECT_EQ(test, udma_rearm_jfc(&fq->jfc.base, true), -EINVAL);
	KUNIT_EXPECT_EQ(test, post(fq, 0, true), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&fq->comp), 0);
}

/* An arm fires once, on the next CQE; none without an arm. */
static void cq_rearm_fires_once(struct kunit *test)
{
	struct fq *fq = fq_create(test, 8, 8, true);
	struct udma_cqe cqe;

	fq_jfce(fq, true);
	KUNIT_EXPECT_EQ(test, post(fq, 0, false), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&fq->comp), 0);
	KUNIT_ASSERT_TRUE(test, fq_poll(fq, &cqe));

	KUNIT_EXPECT_EQ(test, udma_rearm_jfc(&fq->jfc.base, false), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&fq->comp), 0);
	KUNIT_EXPECT_EQ(test, post(fq, 1, false), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&fq->comp), 1);
	KUNIT_EXPECT_EQ(test, post(fq, 2, false), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&fq->comp), 1);
}

/*
 * A plain arm while CQEs are unread fires at once and leaves the JFC
 * unarmed; so does one while ci is out of range. Once the CQ is drained
 * the arm waits for the next CQE.
 */
static void cq_rearm_with_unread_cqes(struct kunit *test)
{
	struct fq *fq = fq_create(test, 8, 8, true);
	struct udma_cqe cqe;

	fq_jfce(fq, true);
	KUNIT_ASSERT_EQ(test, post(fq, 0, false), 0);
	KUNIT_EXPECT_EQ(test, udma_rearm_jfc(&fq->jfc.base, false), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&fq->comp), 1);
	KUNIT_EXPECT_FALSE(test, fq->jfc.armed);
	KUNIT_ASSERT_EQ(test, post(fq, 1, false), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&fq->comp), 1);

	WRITE_ONCE(fq->jfc.cq->ctrl->ci, 1000);
	KUNIT_EXPECT_EQ(test, udma_rearm_jfc(&fq->jfc.base, false), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&fq->comp), 2);
	WRITE_ONCE(fq->jfc.cq->ctrl->ci, 0);

	KUNIT_ASSERT_EQ(test, fq_drain(fq, &cqe, 1), 1U);
	KUNIT_ASSERT_EQ(test, fq_drain(fq, &cqe, 1), 1U);
	KUNIT_EXPECT_EQ(test, udma_rearm_jfc(&fq->jfc.base, false), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&fq->comp), 2);
	KUNIT_EXPECT_TRUE(test, fq->jfc.armed);
	KUNIT_ASSERT_EQ(test, post(fq, 2, false), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&fq->comp), 3);
}

/* solicited_only: only a solicited CQE fires, unread CQEs do not. */
static void cq_rearm_solicited_only(struct kunit *test)
{
	struct fq *fq = fq_create(test, 8, 8, false);

	fq_jfce(fq, true);
	KUNIT_ASSERT_EQ(test, post(fq, 0, false), 0);
	KUNIT_EXPECT_EQ(test, udma_rearm_jfc(&fq->jfc.base, true), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&fq->comp), 0);
	KUNIT_ASSERT_EQ(test, post(fq, 1, false), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&fq->comp), 0);
	KUNIT_ASSERT_EQ(test, post(fq, 2, true), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&fq->comp), 1);
	KUNIT_ASSERT_EQ(test, post(fq, 3, true), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&fq->comp), 1);
	/* A kernel ring's unread CQEs fire a plain arm at once too. */
	KUNIT_EXPECT_EQ(test, udma_rearm_jfc(&fq->jfc.base, false), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&fq->comp), 2);
}

static struct kunit_case udma_cq_cases[] = {
	KUNIT_CASE(cq_fill_and_overflow),
	KUNIT_CASE(cq_laps_user),
	KUNIT_CASE(cq_laps_kernel),
	KUNIT_CASE(cq_index_wrap),
	KUNIT_CASE(cq_ci_out_of_range),
	KUNIT_CASE(cq_rearm_without_jfce),
	KUNIT_CASE(cq_rearm_fires_once),
	KUNIT_CASE(cq_rearm_with_unread_cqes),
	KUNIT_CASE(cq_rearm_solicited_only),
	{}
};

static struct kunit_suite udma_cq_suite = {
	.name = "udma_cq",
	.exit = fq_exit,
	.test_cases = udma_cq_cases,
};

kunit_test_suite(udma_cq_suite);
