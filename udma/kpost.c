// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * The data path of kernel clients (include/ub/ubcore_dp.h): posting work
 * requests to kernel JFSs, jetties and JFRs, and polling kernel JFCs.
 *
 * There is one engine. A kernel work request becomes the struct udma_sqe
 * (udma_rqe) a process writes into its mapped ring, written into the
 * queue's own ring, and the queue's doorbell path takes it from there: the
 * SQ's work processes it with the same code as a user WQE (sq.c, and
 * target.c at the target), a JFR doorbell wakes the senders waiting for
 * an RQE. Only who produces the entries differs: for a kernel ring the
 * producer index is ring->pi, which this file advances under ring->lock
 * and the engine reads under it (udma_ring in udma.h).
 *
 * Targets and remote segments are named in an SQE by their index in an
 * import table; kernel imports have a table of their own (ucontext.c), so
 * a kernel SQE names a struct ubcore_tjetty or an imported segment by the
 * index its import got.
 *
 * Context: posting encodes the request outside any lock (inline bytes are
 * copied then), takes the ring's lock with bottom halves disabled to place
 * it, and pokes the SQ's tasklet (udma_sq_poke()), which processes it in
 * softirq as soon as the caller enables bottom halves (at once if they
 * are): nothing here sleeps, so process and softirq callers are both
 * served; the WQE runs in softirq as the completions of received packets
 * do, so its completion handler takes no lock that softirqs could not take
 * already; and a WQE that needs process context goes on in the SQ's work
 * (engine.c). A queue created with
 * UBCORE_JFS_FLAG_POST_SLEEPABLE is run by its poster as a process's
 * doorbell runs its SQ (udma_sq_run()).
 * Polling takes the CQ ring's lock with interrupts disabled, as
 * udma_cq_post() does.
 */
#include <linux/errno.h>
#include <linux/minmax.h>
#include <linux/spinlock.h>
#include <linux/string.h>

#include <ub/ubcore_dp.h>

#include "udma.h"

/* What an SQE of one queue may hold, and what it may name. */
struct udma_kpost_sq {
	struct ubcore_device *dev;
	const struct ubcore_jfs_cfg *cfg;
	struct udma_sq *sq;
	bool bound;	/* an RC jetty bound to a peer: target_idx 0 is it */
};

/* A kernel object of @dev (a user context's cannot be named here). */
static bool udma_kpost_own(struct ubcore_device *obj_dev,
			   struct ubcore_ucontext *uctx,
			   struct ubcore_device *dev)
{
	return obj_dev == dev && !uctx;
}

static int udma_kpost_local_sge(struct ubcore_device *dev,
				const struct ubcore_sge *in,
				struct udma_sge *out)
{
	const struct ubcore_target_seg *tseg = in->tseg;

	/* A registered segment has a token ID; an imported one has none. */
	if (!tseg || !tseg->token_id ||
	    !udma_kpost_own(tseg->ub_dev, tseg->uctx, dev))
		return -EINVAL;
	out->va = in->addr;
	out->len = in->len;
	out->token_id = tseg->seg.token_id;
	return 0;
}

static int udma_kpost_local_sgl(const struct udma_kpost_sq *q,
				const struct ubcore_sg *sg, bool inline_data,
				struct udma_sqe *sqe)
{
	u32 i, off = 0, max;
	u64 total = 0;

	if (sg->num_sge && !sg->sge)
		return -EINVAL;
	if (inline_data) {
		max = min_t(u32, q->cfg->max_inline_data, UDMA_SQE_MAX_INLINE);
		for (i = 0; i < sg->num_sge; i++)
			total += sg->sge[i].len;
		if (total > max)
			return -EINVAL;
		/* Inline bytes need no segment: they are copied now. */
		for (i = 0; i < sg->num_sge; i++) {
			memcpy(sqe->inline_data + off,
			       (const void *)(uintptr_t)sg->sge[i].addr,
			       sg->sge[i].len);
			off += sg->sge[i].len;
		}
		sqe->flags |= UDMA_SQE_F_INLINE;
		sqe->inline_len = total;
		return 0;
	}
	if (sg->num_sge > q->cfg->max_sge || sg->num_sge > UDMA_SQE_MAX_SGE)
		return -EINVAL;
	for (i = 0; i < sg->num_sge; i++)
		if (udma_kpost_local_sge(q->dev, &sg->sge[i], &sqe->sge[i]))
			return -EINVAL;
	sqe->num_sge = sg->num_sge;
	return 0;
}

/* The import index of a kernel caller's imported segment, or 0. */
static u32 udma_kpost_rseg_idx(struct ubcore_device *dev,
			       struct ubcore_target_seg *tseg)
{
	if (!tseg || tseg->token_id ||
	    !udma_kpost_own(tseg->ub_dev, tseg->uctx, dev))
		return 0;
	return to_udma_import_seg(tseg)->imp.idx;
}

static int udma_kpost_remote_sge(struct ubcore_device *dev,
				 const struct ubcore_sge *sge,
				 struct udma_sqe *sqe)
{
	if (!sge)
		return -EINVAL;
	sqe->rseg_idx = udma_kpost_rseg_idx(dev, sge->tseg);
	if (!sqe->rseg_idx)
		return -EINVAL;
	sqe->remote_va = sge->addr;
	sqe->remote_len = sge->len;
	return 0;
}

static int udma_kpost_remote_sgl(struct ubcore_device *dev,
				 const struct ubcore_sg *sg,
				 struct udma_sqe *sqe)
{
	if (sg->num_sge != 1)
		return -EINVAL;
	return udma_kpost_remote_sge(dev, sg->sge, sqe);
}

/*
 * WRITE_NOTIFY, WRITE_ATOMIC: the data range, then the 8-byte notify word
 * (the word WRITE_ATOMIC adds to).
 */
static int udma_kpost_notify_sgl(struct ubcore_device *dev,
				 const struct ubcore_sg *sg,
				 struct udma_sqe *sqe)
{
	if (sg->num_sge != 2 || !sg->sge || sg->sge[1].len != sizeof(u64))
		return -EINVAL;
	sqe->notify_rseg_idx = udma_kpost_rseg_idx(dev, sg->sge[1].tseg);
	if (!sqe->notify_rseg_idx)
		return -EINVAL;
	sqe->notify_va = sg->sge[1].addr;
	return udma_kpost_remote_sge(dev, &sg->sge[0], sqe);
}

/* Atomics: one remote 8-byte word, one local 8 bytes for its old value. */
static int udma_kpost_atomic(struct ubcore_device *dev,
			     const struct ubcore_sge *dst,
			     const struct ubcore_sge *src,
			     struct udma_sqe *sqe)
{
	if (!dst || !src || dst->len != sizeof(u64) ||
	    src->len != sizeof(u64))
		return -EINVAL;
	if (udma_kpost_remote_sge(dev, dst, sqe) ||
	    udma_kpost_local_sge(dev, src, &sqe->sge[0]))
		return -EINVAL;
	sqe->num_sge = 1;
	return 0;
}

static int udma_kpost_target(const struct udma_kpost_sq *q,
			     const struct ubcore_jfs_wr *wr,
			     struct udma_sqe *sqe)
{
	bool needs = wr->opcode == UBCORE_OPC_SEND ||
		     wr->opcode == UBCORE_OPC_SEND_IMM ||
		     wr->opcode == UBCORE_OPC_SEND_INVALIDATE ||
		     wr->opcode == UBCORE_OPC_WRITE_IMM;
	struct ubcore_tjetty *tjetty = wr->tjetty;

	if (!tjetty) {
		/* The bound peer, or (memory operations) the segment's EID. */
		return needs && !q->bound ? -EINVAL : 0;
	}
	if (!udma_kpost_own(tjetty->ub_dev, tjetty->uctx, q->dev))
		return -EINVAL;
	sqe->target_idx = to_udma_tjetty(tjetty)->imp.idx;
	return sqe->target_idx ? 0 : -EINVAL;
}

static int udma_kpost_encode_sqe(const struct udma_kpost_sq *q,
				 const struct ubcore_jfs_wr *wr,
				 struct udma_sqe *sqe)
{
	bool inl = wr->flag.bs.inline_flag;
	struct ubcore_device *dev = q->dev;
	int ret;

	memset(sqe, 0, sizeof(*sqe));
	sqe->opcode = wr->opcode;
	sqe->user_ctx = wr->user_ctx;
	if (wr->flag.bs.complete_enable)
		sqe->flags |= UDMA_SQE_F_COMPLETE;
	if (wr->flag.bs.solicited_enable)
		sqe->flags |= UDMA_SQE_F_SOLICITED;
	if (wr->flag.bs.fence)
		sqe->flags |= UDMA_SQE_F_FENCE;

	switch (wr->opcode) {
	case UBCORE_OPC_WRITE:
	case UBCORE_OPC_WRITE_IMM:
		ret = udma_kpost_local_sgl(q, &wr->rw.src, inl, sqe) ?:
		      udma_kpost_remote_sgl(dev, &wr->rw.dst, sqe);
		sqe->data = wr->rw.notify_data;
		break;
	case UBCORE_OPC_WRITE_NOTIFY:
	case UBCORE_OPC_WRITE_ATOMIC:
		ret = udma_kpost_local_sgl(q, &wr->rw.src, inl, sqe) ?:
		      udma_kpost_notify_sgl(dev, &wr->rw.dst, sqe);
		sqe->data = wr->rw.notify_data;
		break;
	case UBCORE_OPC_FLUSH_DMA:
		/* A remote range, no local memory. */
		ret = wr->rw.src.num_sge || inl ? -EINVAL :
		      udma_kpost_remote_sgl(dev, &wr->rw.dst, sqe);
		break;
	case UBCORE_OPC_READ:
		/* The data comes back into local memory: no inline. */
		ret = udma_kpost_local_sgl(q, &wr->rw.dst, false, sqe) ?:
		      udma_kpost_remote_sgl(dev, &wr->rw.src, sqe);
		break;
	case UBCORE_OPC_SEND:
	case UBCORE_OPC_SEND_IMM:
	case UBCORE_OPC_SEND_INVALIDATE:
		ret = udma_kpost_local_sgl(q, &wr->send.src, inl, sqe);
		sqe->data = wr->send.imm_data;
		if (!ret && wr->opcode == UBCORE_OPC_SEND_INVALIDATE) {
			sqe->rseg_idx = udma_kpost_rseg_idx(dev, wr->send.tseg);
			ret = sqe->rseg_idx ? 0 : -EINVAL;
		}
		break;
	case UBCORE_OPC_CAS:
	case UBCORE_OPC_SWAP:
		ret = udma_kpost_atomic(dev, wr->cas.dst, wr->cas.src, sqe);
		sqe->data = wr->cas.swap_data;
		if (wr->opcode == UBCORE_OPC_CAS)
			sqe->cmp_data = wr->cas.cmp_data;
		break;
	case UBCORE_OPC_FADD:
	case UBCORE_OPC_FSUB:
	case UBCORE_OPC_FAND:
	case UBCORE_OPC_FOR:
	case UBCORE_OPC_FXOR:
		ret = udma_kpost_atomic(dev, wr->faa.dst, wr->faa.src, sqe);
		sqe->data = wr->faa.operand;
		break;
	case UBCORE_OPC_NOP:
		return 0;	/* no memory, no target */
	default:
		return -EINVAL;
	}
	return ret ?: udma_kpost_target(q, wr, sqe);
}

/* Place @sqe at the SQ ring's pi: 0, or -ENOMEM when the ring is full. */
static int udma_kpost_place(struct udma_ring *ring, const void *entry,
			    size_t len)
{
	int ret = 0;

	spin_lock_bh(&ring->lock);
	if (ring->pi - ring->ci >= ring->entry_cnt) {
		ret = -ENOMEM;
	} else {
		memcpy(udma_ring_entry(ring, ring->pi), entry, len);
		ring->pi++;
	}
	spin_unlock_bh(&ring->lock);
	return ret;
}

static int udma_kpost_send(const struct udma_kpost_sq *q,
			   struct ubcore_jfs_wr *wr,
			   struct ubcore_jfs_wr **bad_wr)
{
	struct udma_sqe sqe;
	bool posted = false;
	int ret = 0;

	for (; wr; wr = wr->next) {
		ret = udma_kpost_encode_sqe(q, wr, &sqe);
		if (ret)
			dev_dbg_ratelimited(&q->dev->dev,
					    "sq %u: malformed work request (opcode 0x%x)\n",
					    q->sq->jfs ? q->sq->jfs->id :
							 q->sq->jetty->id,
					    wr->opcode);
		else
			ret = udma_kpost_place(q->sq->ring, &sqe, sizeof(sqe));
		if (ret) {
			*bad_wr = wr;
			break;
		}
		posted = true;
	}
	if (!posted)
		return ret;
	/*
	 * The doorbell of a kernel queue: its tasklet takes the new SQEs, or
	 * the caller, when it said it may sleep, as a process's doorbell.
	 */
	if (q->cfg->flag & UBCORE_JFS_FLAG_POST_SLEEPABLE) {
		might_sleep();
		udma_sq_run(q->sq);
	} else {
		udma_sq_poke(q->sq);
	}
	return ret;
}

/**
 * udma_post_jfs_wr() - ubcore_ops.post_jfs_wr
 * @jfs: a kernel JFS
 * @wr: the work requests
 * @bad_wr: the first one not posted
 *
 * Context: process or softirq context; does not sleep (but see
 * UBCORE_JFS_FLAG_POST_SLEEPABLE).
 * Return: 0, -EINVAL (a malformed work request) or -ENOMEM (the SQ is
 * full).
 */
int udma_post_jfs_wr(struct ubcore_jfs *jfs, struct ubcore_jfs_wr *wr,
		     struct ubcore_jfs_wr **bad_wr)
{
	struct udma_kpost_sq q = {
		.dev = jfs->ub_dev,
		.cfg = &jfs->cfg,
		.sq = &to_udma_jfs(jfs)->sq,
	};

	return udma_kpost_send(&q, wr, bad_wr);
}

/**
 * udma_post_jetty_send_wr() - ubcore_ops.post_jetty_send_wr
 * @jetty: a kernel jetty
 * @wr: the work requests
 * @bad_wr: the first one not posted
 *
 * Context: as udma_post_jfs_wr().
 * Return: as udma_post_jfs_wr().
 */
int udma_post_jetty_send_wr(struct ubcore_jetty *jetty,
			    struct ubcore_jfs_wr *wr,
			    struct ubcore_jfs_wr **bad_wr)
{
	struct udma_kpost_sq q = {
		.dev = jetty->ub_dev,
		.cfg = &jetty->cfg.jfs_cfg,
		.sq = &to_udma_jetty(jetty)->sq,
		.bound = jetty->cfg.jfs_cfg.trans_mode == UBCORE_TP_RC &&
			 READ_ONCE(jetty->remote_jetty),
	};

	return udma_kpost_send(&q, wr, bad_wr);
}

static int udma_kpost_encode_rqe(struct ubcore_jfr *jfr,
				 const struct ubcore_jfr_wr *wr,
				 struct udma_rqe *rqe)
{
	u32 i;

	memset(rqe, 0, sizeof(*rqe));
	if (wr->src.num_sge > jfr->cfg.max_sge ||
	    wr->src.num_sge > UDMA_RQE_MAX_SGE ||
	    (wr->src.num_sge && !wr->src.sge))
		return -EINVAL;
	rqe->user_ctx = wr->user_ctx;
	for (i = 0; i < wr->src.num_sge; i++)
		if (udma_kpost_local_sge(jfr->ub_dev, &wr->src.sge[i],
					 &rqe->sge[i]))
			return -EINVAL;
	rqe->num_sge = wr->src.num_sge;
	return 0;
}

/**
 * udma_post_jfr_wr() - ubcore_ops.post_jfr_wr
 * @jfr: a kernel JFR
 * @wr: the receive work requests
 * @bad_wr: the first one not posted
 *
 * Context: process or softirq context; does not sleep.
 * Return: 0, -EINVAL (a malformed work request) or -ENOMEM (the RQ is
 * full).
 */
int udma_post_jfr_wr(struct ubcore_jfr *jfr, struct ubcore_jfr_wr *wr,
		     struct ubcore_jfr_wr **bad_wr)
{
	struct udma_ring *rq = to_udma_jfr(jfr)->rq;
	bool posted = false;
	struct udma_rqe rqe;
	int ret = 0;

	for (; wr; wr = wr->next) {
		ret = udma_kpost_encode_rqe(jfr, wr, &rqe);
		if (ret)
			dev_dbg_ratelimited(&jfr->ub_dev->dev,
					    "jfr %u: malformed receive work request\n",
					    jfr->id);
		else
			ret = udma_kpost_place(rq, &rqe, sizeof(rqe));
		if (ret) {
			*bad_wr = wr;
			break;
		}
		posted = true;
	}
	/* Senders waiting for an RQE (RNR) try again now. */
	if (posted)
		udma_jfr_doorbell(jfr);
	return ret;
}

/**
 * udma_post_jetty_recv_wr() - ubcore_ops.post_jetty_recv_wr
 * @jetty: a kernel jetty; the buffers go to the JFR it receives on
 * @wr: the receive work requests
 * @bad_wr: the first one not posted
 *
 * Context: process or softirq context; does not sleep.
 * Return: as udma_post_jfr_wr().
 */
int udma_post_jetty_recv_wr(struct ubcore_jetty *jetty,
			    struct ubcore_jfr_wr *wr,
			    struct ubcore_jfr_wr **bad_wr)
{
	return udma_post_jfr_wr(jetty->cfg.jfr, wr, bad_wr);
}

static void udma_kpost_cqe_to_cr(const struct udma_cqe *cqe,
				 struct ubcore_cr *cr)
{
	memset(cr, 0, sizeof(*cr));
	cr->status = cqe->status;
	cr->user_ctx = cqe->user_ctx;
	cr->completion_len = cqe->completion_len;
	cr->local_id = cqe->local_id;
	cr->tpn = cqe->tpn;
	if (cqe->flags & UDMA_CQE_F_RECV) {
		cr->flag |= UBCORE_CR_FLAG_RECV;
		cr->opcode = cqe->opcode;
		memcpy(cr->remote_id.eid.raw, cqe->remote_eid,
		       sizeof(cqe->remote_eid));
		cr->remote_id.uasid = cqe->remote_uasid;
		cr->remote_id.id = cqe->remote_id;
	}
	if (cqe->flags & UDMA_CQE_F_SOLICITED)
		cr->flag |= UBCORE_CR_FLAG_SOLICITED;
	if (cqe->flags & UDMA_CQE_F_IMM) {
		cr->flag |= UBCORE_CR_FLAG_IMM;
		cr->imm_data = cqe->imm_data;
	} else if (cqe->flags & UDMA_CQE_F_INV) {
		cr->flag |= UBCORE_CR_FLAG_INV;
		cr->invalid_token.token_id = lower_32_bits(cqe->imm_data);
		cr->invalid_token.token_value = upper_32_bits(cqe->imm_data);
	}
}

/**
 * udma_poll_jfc() - ubcore_ops.poll_jfc
 * @base: a kernel JFC
 * @cr_cnt: at most this many records
 * @cr: where they go
 *
 * Takes CQEs between the kernel consumer index and the producer index of
 * the CQ ring under its lock (the producer, udma_cq_post(), writes them
 * under it) and advances ci past them, which frees their slots.
 *
 * Context: any context but hard interrupt; does not sleep.
 * Return: the number of records taken.
 */
int udma_poll_jfc(struct ubcore_jfc *base, int cr_cnt, struct ubcore_cr *cr)
{
	struct udma_ring *cq = to_udma_jfc(base)->cq;
	struct udma_cqe cqe;
	unsigned long flags;
	int n;

	for (n = 0; n < cr_cnt; n++) {
		spin_lock_irqsave(&cq->lock, flags);
		if (cq->ci == cq->pi) {
			spin_unlock_irqrestore(&cq->lock, flags);
			break;
		}
		memcpy(&cqe, udma_ring_entry(cq, cq->ci), sizeof(cqe));
		cq->ci++;
		WRITE_ONCE(cq->ctrl->ci, cq->ci);
		spin_unlock_irqrestore(&cq->lock, flags);
		udma_kpost_cqe_to_cr(&cqe, &cr[n]);
	}
	return n;
}
