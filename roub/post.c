// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * Posting: a verbs work request becomes one ubcore work request on the
 * QP's jetty (send) or JFR (receive), its sequence number as user_ctx
 * (roub.h struct roub_wq). Local SGEs name the segment of their lkey's MR.
 *
 * A WRITE or READ names the peer's memory by rkey and address: the rkey
 * is the remote segment's token ID and token value (roub.h "Keys"), so
 * the segment is imported under the peer's EID (the QP's destination GID)
 * once per QP and rkey, covering every address (the target checks the
 * range against its own segment). Importing may sleep and a post may not:
 * a request whose rkey the QP has not imported yet waits on the QP's
 * pending list, with every later send request behind it, and the QP's
 * import work (roub_workq) imports the rkey and posts them in order. A
 * request that fails there, after post_send returned, completes with an
 * error and takes the QP to ERR, as a local error does in verbs.
 *
 * Refused at post time (-EINVAL, *bad_wr, a log line): opcodes other than
 * the guide's four, SEND over 64 KiB and WRITE/READ over 2 GiB, too many
 * SGEs, an lkey of no MR, a QP not in RTS (send) or not in INIT, RTR or
 * RTS (receive); a full queue is -ENOMEM. In ERR every post completes at
 * once with IB_WC_WR_FLUSH_ERR.
 *
 * Context: process or softirq, not hard interrupts or with interrupts
 * off (ubcore's posts take BH locks).
 */
#include <linux/slab.h>

#include "roub.h"

static bool roub_is_rdma(enum ib_wr_opcode op)
{
	return op == IB_WR_RDMA_WRITE || op == IB_WR_RDMA_WRITE_WITH_IMM ||
	       op == IB_WR_RDMA_READ;
}

/* The ubcore SGEs of @p's local ranges (inline: no segment needed). */
static int roub_local_sges(struct roub_qp *qp, const struct roub_pending *p,
			   struct ubcore_sge *out)
{
	bool inl = p->send_flags & IB_SEND_INLINE;
	u32 i;

	for (i = 0; i < p->num_sge; i++) {
		out[i].addr = p->sge[i].addr;
		out[i].len = p->sge[i].length;
		out[i].tseg = inl ? NULL : roub_lkey_seg(qp->rdev, p->sge[i].lkey);
		if (!inl && !out[i].tseg) {
			ibdev_warn_ratelimited(qp->ibqp.device, "QP %u: lkey 0x%x is no MR's\n",
					       qp->ibqp.qp_num, p->sge[i].lkey);
			return -EINVAL;
		}
	}
	return 0;
}

/*
 * Post @p to the jetty as sequence number p->seq; the send lock held.
 * @rseg: the imported segment of an RDMA request's rkey.
 */
static int roub_submit(struct roub_qp *qp, const struct roub_pending *p,
		       struct ubcore_target_seg *rseg)
{
	struct ubcore_sge lsge[ROUB_MAX_SEND_SGE];
	struct ubcore_jfs_wr wr = {}, *bad;
	struct ubcore_sge rsge = {};
	enum ib_wc_opcode wc_op;
	u64 len = 0;
	u32 i;
	int ret;

	if (roub_wr_opcode(p->opcode, &wr.opcode, &wc_op))
		return -EINVAL;
	rcu_read_lock();
	ret = roub_local_sges(qp, p, lsge);
	rcu_read_unlock();
	if (ret)
		return ret;
	for (i = 0; i < p->num_sge; i++)
		len += p->sge[i].length;
	wr.flag.value = roub_wr_flags(p->send_flags, qp->sig_all);
	wr.user_ctx = p->seq;
	/* RS: the bound peer; RM: the imported jetty itself */
	wr.tjetty = qp->mode == ROUB_RC_MODE_RM ? qp->tjetty : NULL;
	rsge.addr = p->remote_addr;
	rsge.len = len;
	rsge.tseg = rseg;
	switch (p->opcode) {
	case IB_WR_RDMA_WRITE_WITH_IMM:
		wr.rw.notify_data = be32_to_cpu(p->imm);
		fallthrough;
	case IB_WR_RDMA_WRITE:
		wr.rw.src.sge = lsge;
		wr.rw.src.num_sge = p->num_sge;
		wr.rw.dst.sge = &rsge;
		wr.rw.dst.num_sge = 1;
		break;
	case IB_WR_RDMA_READ:
		wr.rw.src.sge = &rsge;
		wr.rw.src.num_sge = 1;
		wr.rw.dst.sge = lsge;
		wr.rw.dst.num_sge = p->num_sge;
		break;
	default:	/* IB_WR_SEND */
		wr.send.src.sge = lsge;
		wr.send.src.num_sge = p->num_sge;
		break;
	}
	return ubcore_post_jetty_send_wr(qp->jetty, &wr, &bad);
}

/* What post_send checks before a request takes a slot. */
static int roub_check_send(struct roub_qp *qp, const struct ib_send_wr *wr,
			   enum ib_wc_opcode *wc_op)
{
	enum ubcore_opcode uop;
	u64 len = 0;
	int i;

	if (roub_wr_opcode(wr->opcode, &uop, wc_op)) {
		ibdev_warn_ratelimited(qp->ibqp.device, "QP %u: opcode %d is not supported (WRITE, WRITE_WITH_IMM, SEND, READ)\n",
				       qp->ibqp.qp_num, wr->opcode);
		return -EINVAL;
	}
	if (wr->num_sge < 0 || wr->num_sge > qp->max_send_sge ||
	    (wr->num_sge && !wr->sg_list))
		return -EINVAL;
	for (i = 0; i < wr->num_sge; i++)
		len += wr->sg_list[i].length;
	if (roub_wr_len_check(wr->opcode, len)) {
		ibdev_warn_ratelimited(qp->ibqp.device, "QP %u: %s of %llu bytes refused: the limit is %u\n",
				       qp->ibqp.qp_num,
				       wr->opcode == IB_WR_SEND ? "SEND" :
				       "WRITE/READ", len,
				       wr->opcode == IB_WR_SEND ?
				       ROUB_MAX_SEND_BYTES : ROUB_MAX_RDMA_BYTES);
		return -EINVAL;
	}
	/* the UB device's own limit may be lower (port max_msg_sz) */
	if (len > qp->rdev->ub_dev->cap.max_msg_size) {
		ibdev_warn_ratelimited(qp->ibqp.device, "QP %u: %llu bytes refused: the device's messages are at most %llu\n",
				       qp->ibqp.qp_num, len,
				       qp->rdev->ub_dev->cap.max_msg_size);
		return -EINVAL;
	}
	return 0;
}

/*
 * @p for a request that waits for its rkey's import: inline bytes are
 * copied (the caller may reuse its buffer once post_send returns).
 */
static struct roub_pending *roub_pending_new(const struct ib_send_wr *wr)
{
	bool inl = wr->send_flags & IB_SEND_INLINE;
	struct roub_pending *p;
	u32 i, len = 0;
	u8 *data;

	if (inl)
		for (i = 0; i < wr->num_sge; i++)
			len += wr->sg_list[i].length;
	p = kzalloc(sizeof(*p) + len, GFP_ATOMIC);
	if (!p)
		return NULL;
	if (!inl)
		return p;
	data = (u8 *)(p + 1);
	for (i = 0; i < wr->num_sge; i++) {
		memcpy(data, (void *)(uintptr_t)wr->sg_list[i].addr,
		       wr->sg_list[i].length);
		data += wr->sg_list[i].length;
	}
	return p;
}

static void roub_pending_fill(struct roub_pending *p,
			      const struct ib_send_wr *wr, u32 seq)
{
	int i;

	p->seq = seq;
	p->opcode = wr->opcode;
	p->send_flags = wr->send_flags;
	p->imm = wr->ex.imm_data;
	if (roub_is_rdma(wr->opcode)) {
		p->remote_addr = rdma_wr(wr)->remote_addr;
		p->rkey = rdma_wr(wr)->rkey;
	}
	p->num_sge = wr->num_sge;
	for (i = 0; i < wr->num_sge; i++)
		p->sge[i] = wr->sg_list[i];
}

/* Inline bytes copied into @p: one range at the copy. */
static void roub_pending_inline(struct roub_pending *p)
{
	u32 i, len = 0;

	if (!(p->send_flags & IB_SEND_INLINE))
		return;
	for (i = 0; i < p->num_sge; i++)
		len += p->sge[i].length;
	p->sge[0].addr = (uintptr_t)(p + 1);
	p->sge[0].length = len;
	p->num_sge = len ? 1 : 0;
}

/*
 * One send request, the send lock held: straight to ubcore, or onto the
 * pending list (*@queued set) when it or one before it waits for an rkey.
 */
static int roub_post_send_one(struct roub_qp *qp, const struct ib_send_wr *wr,
			      bool *queued)
{
	struct roub_wq *wq = &qp->sq;
	struct ubcore_target_seg *rseg = NULL;
	struct roub_pending one, *p;
	enum ib_wc_opcode wc_op;
	u32 seq = wq->head;
	int ret;

	if (!roub_qp_can_post(qp->state, true)) {
		ibdev_warn_ratelimited(qp->ibqp.device, "QP %u: post_send in state %d\n",
				       qp->ibqp.qp_num, qp->state);
		return -EINVAL;
	}
	ret = roub_check_send(qp, wr, &wc_op);
	if (ret)
		return ret;
	if (seq - READ_ONCE(wq->tail) >= wq->max)
		return -ENOMEM;
	wq->slot[seq & (wq->size - 1)].wr_id = wr->wr_id;
	wq->slot[seq & (wq->size - 1)].opcode = wc_op;
	if (roub_is_rdma(wr->opcode))
		rseg = xa_load(&qp->rsegs, rdma_wr(wr)->rkey);
	if (list_empty(&qp->pending) &&
	    (rseg || !roub_is_rdma(wr->opcode))) {
		roub_pending_fill(&one, wr, seq);
		ret = roub_submit(qp, &one, rseg);
		if (ret)
			return ret;
	} else {
		p = roub_pending_new(wr);
		if (!p)
			return -ENOMEM;
		roub_pending_fill(p, wr, seq);
		roub_pending_inline(p);
		list_add_tail(&p->node, &qp->pending);
		*queued = true;
	}
	/* release: the slot before the sequence number that names it */
	smp_store_release(&wq->head, seq + 1);
	return 0;
}

/* post_send in ERR: every request completes flushed; the lock not held. */
static int roub_post_send_flush(struct roub_qp *qp, const struct ib_send_wr *wr,
				const struct ib_send_wr **bad_wr)
{
	struct roub_cq *cq = to_roub_cq(qp->ibqp.send_cq);
	enum ib_wc_opcode wc_op;
	int ret = 0;

	spin_lock_bh(&cq->lock);
	for (; wr; wr = wr->next) {
		ret = roub_check_send(qp, wr, &wc_op);
		if (ret) {
			*bad_wr = wr;
			break;
		}
		roub_cq_add_wc(cq, qp, wr->wr_id, wc_op, IB_WC_WR_FLUSH_ERR);
	}
	spin_unlock_bh(&cq->lock);
	roub_cq_kick(cq);
	return ret;
}

int roub_post_send(struct ib_qp *ibqp, const struct ib_send_wr *wr,
		   const struct ib_send_wr **bad_wr)
{
	struct roub_qp *qp = to_roub_qp(ibqp);
	bool queued = false;
	int ret = 0;

	spin_lock_bh(&qp->sq_lock);
	/* ERR is final (no way back to RESET): checked once */
	if (qp->state == IB_QPS_ERR) {
		spin_unlock_bh(&qp->sq_lock);
		return roub_post_send_flush(qp, wr, bad_wr);
	}
	for (; wr; wr = wr->next) {
		ret = roub_post_send_one(qp, wr, &queued);
		if (ret) {
			*bad_wr = wr;
			break;
		}
	}
	spin_unlock_bh(&qp->sq_lock);
	if (queued)
		queue_work(roub_workq, &qp->import_work);
	return ret;
}

static int roub_post_recv_one(struct roub_qp *qp, const struct ib_recv_wr *wr)
{
	struct roub_wq *wq = &qp->rq;
	struct ubcore_jfr_wr rwr = {}, *bad;
	struct ubcore_sge sge;
	u32 seq = wq->head;
	int ret;

	if (!roub_qp_can_post(qp->state, false)) {
		ibdev_warn_ratelimited(qp->ibqp.device, "QP %u: post_recv in state %d\n",
				       qp->ibqp.qp_num, qp->state);
		return -EINVAL;
	}
	if (wr->num_sge < 0 || wr->num_sge > ROUB_MAX_RECV_SGE ||
	    (wr->num_sge && !wr->sg_list))
		return -EINVAL;
	if (seq - READ_ONCE(wq->tail) >= wq->max)
		return -ENOMEM;
	if (wr->num_sge) {
		sge.addr = wr->sg_list[0].addr;
		sge.len = wr->sg_list[0].length;
		rcu_read_lock();
		sge.tseg = roub_lkey_seg(qp->rdev, wr->sg_list[0].lkey);
		rcu_read_unlock();
		if (!sge.tseg) {
			ibdev_warn_ratelimited(qp->ibqp.device, "QP %u: lkey 0x%x is no MR's\n",
					       qp->ibqp.qp_num,
					       wr->sg_list[0].lkey);
			return -EINVAL;
		}
		rwr.src.sge = &sge;
		rwr.src.num_sge = 1;
	}
	rwr.user_ctx = seq;
	wq->slot[seq & (wq->size - 1)].wr_id = wr->wr_id;
	ret = ubcore_post_jfr_wr(qp->jfr, &rwr, &bad);
	if (ret)
		return ret;
	/* release: the slot before the sequence number that names it */
	smp_store_release(&wq->head, seq + 1);
	return 0;
}

/* post_recv in ERR: flushed at once; the lock not held. */
static void roub_post_recv_flush(struct roub_qp *qp, const struct ib_recv_wr *wr)
{
	struct roub_cq *cq = to_roub_cq(qp->ibqp.recv_cq);

	spin_lock_bh(&cq->lock);
	for (; wr; wr = wr->next)
		roub_cq_add_wc(cq, qp, wr->wr_id, IB_WC_RECV,
			       IB_WC_WR_FLUSH_ERR);
	spin_unlock_bh(&cq->lock);
	roub_cq_kick(cq);
}

int roub_post_recv(struct ib_qp *ibqp, const struct ib_recv_wr *wr,
		   const struct ib_recv_wr **bad_wr)
{
	struct roub_qp *qp = to_roub_qp(ibqp);
	int ret = 0;

	spin_lock_bh(&qp->rq_lock);
	if (qp->state == IB_QPS_ERR) {
		spin_unlock_bh(&qp->rq_lock);
		roub_post_recv_flush(qp, wr);
		return 0;
	}
	for (; wr; wr = wr->next) {
		ret = roub_post_recv_one(qp, wr);
		if (ret) {
			*bad_wr = wr;
			break;
		}
	}
	spin_unlock_bh(&qp->rq_lock);
	return ret;
}

/* Import the peer's segment of @rkey (process context). */
static int roub_import_rkey(struct roub_qp *qp, u32 rkey)
{
	struct ubcore_target_seg_cfg cfg = {
		.seg.ubva.uasid = 0,
		.seg.ubva.va = 0,
		.seg.len = U64_MAX,
		.seg.token_id = roub_key_token_id(rkey),
		.token_value = rkey,
	};
	struct ubcore_target_seg *tseg;
	int ret;

	memcpy(cfg.seg.ubva.eid.raw, qp->dgid.raw, sizeof(cfg.seg.ubva.eid.raw));
	tseg = ubcore_import_seg(qp->rdev->ub_dev, &cfg, NULL);
	if (IS_ERR(tseg))
		return PTR_ERR(tseg);
	ret = xa_insert(&qp->rsegs, rkey, tseg, GFP_KERNEL);
	if (ret)
		ubcore_unimport_seg(tseg);
	return ret;
}

/*
 * A pending request that cannot be carried out: its completion says why
 * (a bad rkey is the peer's refusal in verbs), and the QP goes to ERR.
 */
static void roub_pending_fail(struct roub_qp *qp, struct roub_pending *p,
			      int err, enum ib_wc_status status)
{
	struct roub_cq *cq = to_roub_cq(qp->ibqp.send_cq);
	enum ib_wc_opcode wc_op = IB_WC_SEND;
	enum ubcore_opcode uop;

	roub_wr_opcode(p->opcode, &uop, &wc_op);
	ibdev_warn_ratelimited(qp->ibqp.device, "QP %u: request %u (rkey 0x%x): %d\n",
			       qp->ibqp.qp_num, p->seq, p->rkey, err);
	spin_lock_bh(&cq->lock);
	roub_cq_add_wc(cq, qp, qp->sq.slot[p->seq & (qp->sq.size - 1)].wr_id,
		       wc_op, status);
	spin_unlock_bh(&cq->lock);
	roub_cq_kick(cq);
	roub_qp_fail(qp);
}

/**
 * roub_import_work() - import the rkeys the pending requests name and
 *	post them, in order
 * @work: the QP's import_work
 */
void roub_import_work(struct work_struct *work)
{
	struct roub_qp *qp = container_of(work, struct roub_qp, import_work);
	struct ubcore_target_seg *rseg;
	struct roub_pending *p;
	int ret;

	for (;;) {
		spin_lock_bh(&qp->sq_lock);
		p = list_first_entry_or_null(&qp->pending, struct roub_pending,
					     node);
		/* ERR took the list (to flush it) */
		if (!p || qp->state != IB_QPS_RTS) {
			spin_unlock_bh(&qp->sq_lock);
			return;
		}
		rseg = roub_is_rdma(p->opcode) ? xa_load(&qp->rsegs, p->rkey) :
						 NULL;
		if (roub_is_rdma(p->opcode) && !rseg) {
			spin_unlock_bh(&qp->sq_lock);
			ret = roub_import_rkey(qp, p->rkey);
			if (!ret || ret == -EBUSY)
				continue;
			spin_lock_bh(&qp->sq_lock);
			list_del(&p->node);
			spin_unlock_bh(&qp->sq_lock);
			roub_pending_fail(qp, p, ret, IB_WC_REM_ACCESS_ERR);
			kfree(p);
			continue;
		}
		list_del(&p->node);
		ret = roub_submit(qp, p, rseg);
		spin_unlock_bh(&qp->sq_lock);
		if (ret)
			roub_pending_fail(qp, p, ret, IB_WC_LOC_QP_OP_ERR);
		kfree(p);
	}
}

/**
 * roub_qp_flush_pending() - drop the requests waiting for an import
 * @qp: the QP, in ERR or being destroyed (nothing adds to the list)
 *
 * Return: how many: the newest of the QP's sequence numbers, which ERR
 * flushes.
 */
u32 roub_qp_flush_pending(struct roub_qp *qp)
{
	struct roub_pending *p, *n;
	LIST_HEAD(list);
	u32 cnt = 0;

	spin_lock_bh(&qp->sq_lock);
	list_splice_init(&qp->pending, &list);
	spin_unlock_bh(&qp->sq_lock);
	list_for_each_entry_safe(p, n, &list, node) {
		cnt++;
		kfree(p);
	}
	return cnt;
}

/**
 * roub_qp_free_rsegs() - unimport the peer's segments a QP imported
 * @qp: the QP, being destroyed (no post, no import work)
 */
void roub_qp_free_rsegs(struct roub_qp *qp)
{
	struct ubcore_target_seg *tseg;
	unsigned long rkey;

	xa_for_each(&qp->rsegs, rkey, tseg)
		ubcore_unimport_seg(tseg);
	xa_destroy(&qp->rsegs);
}
