// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * The hand-built JFC and JFS of fake_queue.h. The tests play the owner of
 * the rings by the rules of udma_abi.h: SQEs at pi, then pi published with
 * a release store; a CQE is valid when its owner byte is the wrap parity
 * ((index / entry_cnt) & 1) ^ 1, and ci is advanced after reading it.
 */
#include <linux/log2.h>
#include <linux/slab.h>
#include <linux/string.h>

#include <ub/ubcore_event.h>

#include "fake_queue.h"

struct udma_ring *fq_ring(struct kunit *test, u32 entry_size, u32 cnt)
{
	struct udma_ring *ring;

	ring = kunit_kzalloc(test, sizeof(*ring), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, ring);
	ring->size = PAGE_SIZE + (size_t)entry_size * cnt;
	ring->buf = kunit_kzalloc(test, ring->size, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, ring->buf);
	ring->ctrl = ring->buf;
	ring->entries = ring->buf + PAGE_SIZE;
	ring->entry_size = entry_size;
	ring->entry_cnt = cnt;
	kref_init(&ring->ref);
	spin_lock_init(&ring->lock);
	return ring;
}

static void fq_event(struct ubcore_event *ev, struct ubcore_ucontext *uctx)
{
	struct fq *fq = container_of(ev->dev, struct fq, udev.ub_dev);

	switch (ev->type) {
	case UBCORE_EVENT_JFC_ERR:
		fq->jfc_err_id = ev->element.obj_id;
		atomic_inc(&fq->jfc_err);
		break;
	case UBCORE_EVENT_JFS_ERR:
		fq->jfs_err_id = ev->element.obj_id;
		atomic_inc(&fq->jfs_err);
		break;
	default:
		atomic_inc(&fq->other_events);
		break;
	}
}

static void fq_comp(struct ubcore_jfc *jfc)
{
	struct fq *fq = container_of(jfc, struct fq, jfc.base);

	atomic_inc(&fq->comp);
}

/*
 * A device, a JFC of @cq_cnt CQEs and a JFS of @sq_cnt SQEs (RM, 4 SGEs,
 * 64 inline bytes, rnr_retry 7); @user: owned by a user context. Freed by
 * the suite's exit (fq_exit()).
 */
struct fq *fq_create(struct kunit *test, u32 sq_cnt, u32 cq_cnt, bool user)
{
	struct ubcore_device *dev;
	struct fq *fq;

	fq = kunit_kzalloc(test, sizeof(*fq), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, fq);
	dev = &fq->udev.ub_dev;
	mutex_init(&dev->eid_lock);
	seqlock_init(&dev->eid_seq);
	xa_init_flags(&dev->token_table, XA_FLAGS_ALLOC1);
	spin_lock_init(&dev->seg_lock);
	dev->cap.max_msg_size = SZ_1M;
	dev->cap.max_write_size = SZ_1M;
	dev->cap.max_read_size = SZ_1M;
	dev->cap.atomic_feature = UDMA_ATOMIC_FEATURE;
	if (user) {
		fq->uctx = kunit_kzalloc(test, sizeof(*fq->uctx), GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, fq->uctx);
		fq->uctx->base.ub_dev = dev;
		xa_init_flags(&fq->uctx->mmap_xa, XA_FLAGS_ALLOC1);
		xa_init_flags(&fq->uctx->import_xa, XA_FLAGS_ALLOC1);
	}

	fq->jfc.cq = fq_ring(test, UDMA_CQE_SIZE, cq_cnt);
	fq->jfc.base.ub_dev = dev;
	fq->jfc.base.uctx = user ? &fq->uctx->base : NULL;
	fq->jfc.base.id = FQ_JFC_ID;
	fq->jfc.base.cfg.depth = cq_cnt;
	fq->jfc.base.jfae_handler = fq_event;
	udma_cq_init(&fq->jfc);

	fq->jfs.base.ub_dev = dev;
	fq->jfs.base.uctx = fq->jfc.base.uctx;
	fq->jfs.base.id = FQ_JFS_ID;
	fq->jfs.base.cfg.depth = sq_cnt;
	fq->jfs.base.cfg.trans_mode = UBCORE_TP_RM;
	fq->jfs.base.cfg.max_sge = 4;
	fq->jfs.base.cfg.max_inline_data = 64;
	fq->jfs.base.cfg.rnr_retry = 7;
	fq->jfs.base.cfg.jfc = &fq->jfc.base;
	fq->jfs.base.jfae_handler = fq_event;
	fq->jfs.base.state = UBCORE_JETTY_STATE_READY;
	fq->jfs.sq.jfs = &fq->jfs.base;
	KUNIT_ASSERT_EQ(test, udma_sq_init(&fq->jfs.sq, &fq->udev,
					   fq_ring(test, UDMA_SQE_SIZE, sq_cnt)),
			0);
	fq->sq_live = true;
	test->priv = fq;
	return fq;
}

/* The suites' exit: no work of the queue may outlive the test. */
void fq_exit(struct kunit *test)
{
	struct fq *fq = test->priv;

	if (!fq)
		return;
	if (fq->sq_live)
		udma_sq_destroy(&fq->jfs.sq);
	fq->sq_live = false;
	if (fq->uctx) {
		xa_destroy(&fq->uctx->import_xa);
		xa_destroy(&fq->uctx->mmap_xa);
	}
	xa_destroy(&fq->udev.ub_dev.token_table);
	mutex_destroy(&fq->udev.ub_dev.eid_lock);
}

/* The JFC has a JFCE (a jfce_handler) or not. */
void fq_jfce(struct fq *fq, bool on)
{
	fq->jfc.base.cfg.jfce_handler = on ? fq_comp : NULL;
}

void fq_sqe_nop(struct udma_sqe *sqe, u64 user_ctx, u8 flags)
{
	memset(sqe, 0, sizeof(*sqe));
	sqe->opcode = URMA_OPC_NOP;
	sqe->flags = flags;
	sqe->user_ctx = user_ctx;
}

/* Publish the SQ's producer index as its owner does. */
void fq_set_sq_pi(struct fq *fq, u32 pi)
{
	struct udma_ring *ring = fq->jfs.sq.ring;

	fq->sq_pi = pi;
	if (fq->uctx) {
		/* The SQEs before pi: pairs with udma_sq_pi()'s acquire. */
		smp_store_release(&ring->ctrl->pi, pi);
		return;
	}
	spin_lock_bh(&ring->lock);
	ring->pi = pi;
	spin_unlock_bh(&ring->lock);
}

void fq_post(struct fq *fq, const struct udma_sqe *sqe)
{
	memcpy(udma_ring_entry(fq->jfs.sq.ring, fq->sq_pi), sqe, sizeof(*sqe));
	fq_set_sq_pi(fq, fq->sq_pi + 1);
}

/* @n signaled NOPs, user_ctx @first_ctx onwards. */
void fq_post_nops(struct fq *fq, u32 n, u64 first_ctx)
{
	struct udma_sqe sqe;
	u32 i;

	for (i = 0; i < n; i++) {
		fq_sqe_nop(&sqe, first_ctx + i, UDMA_SQE_F_COMPLETE);
		fq_post(fq, &sqe);
	}
}

/* The SQ's consumer index as the kernel publishes it. */
u32 fq_sq_ci(struct fq *fq)
{
	/* Pairs with udma_sq_take()'s release of ci after its copy. */
	return smp_load_acquire(&fq->jfs.sq.ring->ctrl->ci);
}

/* The next valid CQE, consumed; false when there is none. */
bool fq_poll(struct fq *fq, struct udma_cqe *cqe)
{
	struct udma_ring *cq = fq->jfc.cq;
	struct udma_cqe *e = udma_ring_entry(cq, fq->cq_ci);
	u8 valid = ((fq->cq_ci >> ilog2(cq->entry_cnt)) & 1) ^ 1;
	unsigned long flags;

	if (READ_ONCE(e->owner) != valid)
		return false;
	smp_rmb();	/* the CQE after its owner byte */
	memcpy(cqe, e, sizeof(*cqe));
	fq->cq_ci++;
	if (fq->uctx) {
		WRITE_ONCE(cq->ctrl->ci, fq->cq_ci);
		return true;
	}
	spin_lock_irqsave(&cq->lock, flags);
	cq->ci = fq->cq_ci;
	spin_unlock_irqrestore(&cq->lock, flags);
	return true;
}

/* Poll up to @max CQEs into @cqe; how many. */
u32 fq_drain(struct fq *fq, struct udma_cqe *cqe, u32 max)
{
	u32 n = 0;

	while (n < max && fq_poll(fq, &cqe[n]))
		n++;
	return n;
}

/* One run of the SQ's processor, as the doorbell or the work runs it. */
bool fq_process(struct fq *fq, bool inline_budget)
{
	bool more;

	udma_sq_lock(&fq->jfs.sq);
	more = udma_sq_process(&fq->jfs.sq, inline_budget ? UDMA_SQ_DOORBELL :
							   UDMA_SQ_WORK);
	udma_sq_unlock(&fq->jfs.sq);
	return more;
}
