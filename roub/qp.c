// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * RC queue pairs. A QP is a jetty (its send queue, ID = qp_num) receiving
 * on a JFR of its own (its receive queue), both in the URMA mode that
 * ROUB_RC_MODE gave when it was created: RS is URMA RC, RM is URMA RM.
 *
 * The state machine is verbs' (ib_modify_qp_is_ok() checks each change
 * and its attributes); map.c's table says what each state allows. At RTR
 * the peer's jetty (the address vector's destination GID, an EID of the
 * peer's device, and dest_qp_num, its jetty ID) is imported and, in RS
 * mode, the jetty bound to it: the connection manager opens the pair's RC
 * TP and waits for the peer (both sides' binds meet on one TP). ERR puts
 * the jetty and the JFR in ERROR and completes every outstanding request
 * with IB_WC_WR_FLUSH_ERR (cq.c). SQD, SQE and a return to RESET from
 * another state are refused (-EOPNOTSUPP): a QP is not reused.
 */
#include <linux/log2.h>
#include <linux/random.h>
#include <linux/slab.h>

#include "roub.h"

static enum ubcore_transport_mode roub_tp_mode(enum roub_rc_mode mode)
{
	return mode == ROUB_RC_MODE_RS ? UBCORE_TP_RC : UBCORE_TP_RM;
}

/*
 * A queue's slots, its sequence numbers starting at random so that a
 * stale record of an earlier QP with the same jetty ID matches no slot.
 */
static int roub_wq_init(struct roub_wq *wq, u32 max)
{
	wq->max = max;
	wq->size = roundup_pow_of_two(max(max, 1U));
	wq->slot = kvcalloc(wq->size, sizeof(*wq->slot), GFP_KERNEL);
	if (!wq->slot)
		return -ENOMEM;
	wq->head = get_random_u32();
	wq->tail = wq->head;
	return 0;
}

static void roub_qp_event(struct roub_qp *qp, enum ib_event_type type)
{
	struct ib_event ev = {
		.device = qp->ibqp.device,
		.element.qp = &qp->ibqp,
		.event = type,
	};

	if (qp->ibqp.event_handler)
		qp->ibqp.event_handler(&ev, qp->ibqp.qp_context);
}

/*
 * JETTY_ERR or JFR_ERR (the peer lost, a corrupt queue, a full CQ): the
 * QP goes to ERR from a work (the flush sleeps); any context.
 */
static void roub_qp_async(struct ubcore_event *event,
			  struct ubcore_ucontext *uctx)
{
	struct ubcore_jetty *jetty;
	struct ubcore_jfr *jfr;
	struct roub_qp *qp;

	switch (event->type) {
	case UBCORE_EVENT_JETTY_ERR:
		jetty = ubcore_find_get_jetty(event->dev, event->element.obj_id);
		if (!jetty)
			return;
		qp = (struct roub_qp *)(uintptr_t)jetty->cfg.user_ctx;
		roub_qp_fail(qp);
		ubcore_obj_ref_put(&jetty->obj_ref);
		break;
	case UBCORE_EVENT_JFR_ERR:
		jfr = ubcore_find_get_jfr(event->dev, event->element.obj_id);
		if (!jfr)
			return;
		qp = (struct roub_qp *)(uintptr_t)jfr->cfg.user_ctx;
		roub_qp_fail(qp);
		ubcore_obj_ref_put(&jfr->obj_ref);
		break;
	default:
		break;
	}
}

/**
 * roub_qp_fail() - take a QP to ERR because of an error, not a modify
 * @qp: the QP
 *
 * Context: any; the move runs from roub_workq.
 */
void roub_qp_fail(struct roub_qp *qp)
{
	queue_work(roub_workq, &qp->err_work);
}

static int roub_qp_check_init(struct roub_dev *rdev,
			      const struct ib_qp_init_attr *init)
{
	const struct ib_device_attr *a = &rdev->ibdev.attrs;
	const struct ib_qp_cap *c = &init->cap;

	if (init->qp_type != IB_QPT_RC) {
		ibdev_warn_ratelimited(&rdev->ibdev, "create_qp: type %d: only RC QPs are supported\n",
				       init->qp_type);
		return -EOPNOTSUPP;
	}
	if (init->srq || init->create_flags || init->rwq_ind_tbl)
		return -EOPNOTSUPP;
	if (c->max_send_sge > a->max_send_sge ||
	    c->max_recv_sge > a->max_recv_sge ||
	    !c->max_send_wr || c->max_send_wr > a->max_qp_wr ||
	    c->max_recv_wr > a->max_qp_wr ||
	    c->max_inline_data > rdev->ub_dev->cap.max_jfs_inline_size) {
		ibdev_warn_ratelimited(&rdev->ibdev, "create_qp: wr %u/%u sge %u/%u inline %u over the limits (wr %d, sge %d/%d)\n",
				       c->max_send_wr, c->max_recv_wr,
				       c->max_send_sge, c->max_recv_sge,
				       c->max_inline_data, a->max_qp_wr,
				       a->max_send_sge, a->max_recv_sge);
		return -EINVAL;
	}
	return 0;
}

/* The JFR and the jetty of a new QP. */
static int roub_qp_create_ub(struct roub_qp *qp, struct ib_qp_init_attr *init)
{
	struct ubcore_device *ub = qp->rdev->ub_dev;
	struct ubcore_jfr_cfg rcfg = {
		.depth = max(init->cap.max_recv_wr, 1U),
		.trans_mode = roub_tp_mode(qp->mode),
		.max_sge = ROUB_MAX_RECV_SGE,
		.jfc = to_roub_cq(init->recv_cq)->jfc,
		.user_ctx = (uintptr_t)qp,
	};
	struct ubcore_jetty_cfg jcfg = {
		.flag = UBCORE_JETTY_SHARE_JFR,
		.jfs_cfg = {
			.depth = init->cap.max_send_wr,
			.trans_mode = roub_tp_mode(qp->mode),
			.max_sge = max(init->cap.max_send_sge, 1U),
			.max_rsge = 1,
			.max_inline_data = init->cap.max_inline_data,
			/* verbs' "infinite" RNR retry; udma caps the wait */
			.rnr_retry = 7,
			.jfc = to_roub_cq(init->send_cq)->jfc,
			.user_ctx = (uintptr_t)qp,
		},
		.user_ctx = (uintptr_t)qp,
	};

	qp->jfr = ubcore_create_jfr(ub, &rcfg, roub_qp_async, NULL);
	if (IS_ERR(qp->jfr))
		return PTR_ERR(qp->jfr);
	jcfg.jfr = qp->jfr;
	qp->jetty = ubcore_create_jetty(ub, &jcfg, roub_qp_async, NULL);
	if (IS_ERR(qp->jetty)) {
		ubcore_delete_jfr(qp->jfr);
		return PTR_ERR(qp->jetty);
	}
	return 0;
}

static void roub_qp_delete_ub(struct roub_qp *qp)
{
	ubcore_delete_jetty(qp->jetty);
	ubcore_delete_jfr(qp->jfr);
}

static void roub_qp_err_work(struct work_struct *work);

int roub_create_qp(struct ib_qp *ibqp, struct ib_qp_init_attr *init,
		   struct ib_udata *udata)
{
	struct roub_dev *rdev = to_roub_dev(ibqp->device);
	struct roub_qp *qp = to_roub_qp(ibqp);
	int ret;

	if (udata)
		return -EOPNOTSUPP;
	ret = roub_qp_check_init(rdev, init);
	if (ret)
		return ret;
	if (atomic_inc_return(&rdev->nr_qp) > rdev->max_qp) {
		ibdev_warn_ratelimited(&rdev->ibdev, "create_qp: %u QPs, the most (half the jetties)\n",
				       rdev->max_qp);
		ret = -ENOSPC;
		goto err_cnt;
	}
	qp->rdev = rdev;
	qp->mode = roub_rc_mode_get();
	qp->state = IB_QPS_RESET;
	qp->sig_all = init->sq_sig_type == IB_SIGNAL_ALL_WR;
	qp->max_send_sge = init->cap.max_send_sge;
	mutex_init(&qp->mutex);
	spin_lock_init(&qp->sq_lock);
	spin_lock_init(&qp->rq_lock);
	xa_init(&qp->rsegs);
	INIT_LIST_HEAD(&qp->pending);
	INIT_WORK(&qp->import_work, roub_import_work);
	INIT_WORK(&qp->err_work, roub_qp_err_work);
	ret = roub_wq_init(&qp->sq, init->cap.max_send_wr);
	if (ret)
		goto err_cnt;
	ret = roub_wq_init(&qp->rq, init->cap.max_recv_wr);
	if (ret)
		goto err_sq;
	ret = roub_qp_create_ub(qp, init);
	if (ret)
		goto err_rq;
	/* verbs' QP numbers are 24 bits */
	if (qp->jetty->id > IB_QPN_MASK) {
		ret = -ENOSPC;
		goto err_ub;
	}
	ret = xa_insert(&rdev->objs, qp->jetty->id, qp, GFP_KERNEL);
	if (ret)
		goto err_ub;
	ret = xa_insert(&rdev->objs, qp->jfr->id, qp, GFP_KERNEL);
	if (ret)
		goto err_xa;
	ibqp->qp_num = qp->jetty->id;
	init->cap.max_inline_data = qp->jetty->cfg.jfs_cfg.max_inline_data;
	return 0;

err_xa:
	xa_erase(&rdev->objs, qp->jetty->id);
err_ub:
	roub_qp_delete_ub(qp);
err_rq:
	kvfree(qp->rq.slot);
err_sq:
	kvfree(qp->sq.slot);
err_cnt:
	atomic_dec(&rdev->nr_qp);
	return ret;
}

/* Set the state; the QP's mutex held. Posts see it under their lock. */
static void roub_qp_set_state(struct roub_qp *qp, enum ib_qp_state state)
{
	spin_lock_bh(&qp->sq_lock);
	spin_lock_nested(&qp->rq_lock, SINGLE_DEPTH_NESTING);
	qp->state = state;
	spin_unlock(&qp->rq_lock);
	spin_unlock_bh(&qp->sq_lock);
}

/* Flush the send requests from @first on; the send CQ's lock held. */
static void roub_qp_flush_sq(struct roub_qp *qp, struct roub_cq *cq, u32 first)
{
	struct roub_wq *wq = &qp->sq;
	const struct roub_slot *s;
	u32 seq;

	/* what the JFC had is in the CQ's queue: flushes go behind it */
	roub_cq_drain_jfc(cq);
	if (first - wq->tail > wq->head - wq->tail)
		first = wq->tail;
	for (seq = first; seq != wq->head; seq++) {
		s = &wq->slot[seq & (wq->size - 1)];
		roub_cq_add_wc(cq, qp, s->wr_id, s->opcode,
			       IB_WC_WR_FLUSH_ERR);
	}
	WRITE_ONCE(wq->tail, wq->head);
}

static void roub_qp_flush_rq(struct roub_qp *qp, struct roub_cq *cq)
{
	struct roub_wq *wq = &qp->rq;
	u32 seq;

	roub_cq_drain_jfc(cq);
	for (seq = wq->tail; seq != wq->head; seq++)
		roub_cq_add_wc(cq, qp, wq->slot[seq & (wq->size - 1)].wr_id,
			       IB_WC_RECV, IB_WC_WR_FLUSH_ERR);
	WRITE_ONCE(wq->tail, wq->head);
}

/*
 * To ERR; the QP's mutex held. The jetty's ERROR flushes what it took
 * (WR_FLUSH_ERR records, in order); what it did not take, what waits for
 * an rkey import and every receive request are flushed here.
 */
static void roub_qp_to_err(struct roub_qp *qp)
{
	/* a jetty's state bit is the JFR's (struct ubcore_jetty_attr) */
	const struct ubcore_jetty_attr ja = {
		.mask = UBCORE_JFR_STATE,
		.state = UBCORE_JETTY_STATE_ERROR,
	};
	const struct ubcore_jfr_attr ra = {
		.mask = UBCORE_JFR_STATE,
		.state = UBCORE_JFR_STATE_ERROR,
	};
	struct roub_cq *scq = to_roub_cq(qp->ibqp.send_cq);
	struct roub_cq *rcq = to_roub_cq(qp->ibqp.recv_cq);
	u32 untaken = 0, first = 0, deferred;
	int ret;

	roub_qp_set_state(qp, IB_QPS_ERR);
	deferred = roub_qp_flush_pending(qp);
	ret = ubcore_modify_jetty(qp->jetty, &ja, NULL);
	if (!ret)
		ret = ubcore_flush_jetty(qp->jetty, U32_MAX, &first, &untaken);
	if (ret)
		ibdev_warn(qp->ibqp.device, "QP %u to ERR: jetty: %d\n",
			   qp->ibqp.qp_num, ret);
	ret = ubcore_modify_jfr(qp->jfr, &ra, NULL);
	if (ret)
		ibdev_warn(qp->ibqp.device, "QP %u to ERR: JFR: %d\n",
			   qp->ibqp.qp_num, ret);

	spin_lock_bh(&scq->lock);
	/*
	 * The newest requests: @deferred never reached ubcore, the
	 * @untaken before them the jetty did not take.
	 */
	roub_qp_flush_sq(qp, scq, qp->sq.head - deferred - untaken);
	spin_unlock_bh(&scq->lock);
	spin_lock_bh(&rcq->lock);
	roub_qp_flush_rq(qp, rcq);
	spin_unlock_bh(&rcq->lock);
	roub_cq_kick(scq);
	if (rcq != scq)
		roub_cq_kick(rcq);
}

static void roub_qp_err_work(struct work_struct *work)
{
	struct roub_qp *qp = container_of(work, struct roub_qp, err_work);
	bool moved = false;

	mutex_lock(&qp->mutex);
	if (qp->state != IB_QPS_ERR && qp->state != IB_QPS_RESET) {
		roub_qp_to_err(qp);
		moved = true;
	}
	mutex_unlock(&qp->mutex);
	if (moved) {
		ibdev_info_ratelimited(qp->ibqp.device, "QP %u: error, moved to ERR\n",
				       qp->ibqp.qp_num);
		roub_qp_event(qp, IB_EVENT_QP_FATAL);
	}
}

/* RTR: import the peer's jetty and (RS) bind to it; the mutex held. */
static int roub_qp_connect(struct roub_qp *qp)
{
	struct ubcore_tjetty_cfg cfg = {
		.id.uasid = 0,
		.id.id = qp->dest_qpn,
		.trans_mode = roub_tp_mode(qp->mode),
		.type = UBCORE_TARGET_JETTY,
		.token_value = 0,
	};
	struct ubcore_tjetty *tjetty;
	int ret;

	memcpy(cfg.id.eid.raw, qp->dgid.raw, sizeof(cfg.id.eid.raw));
	tjetty = ubcore_import_jetty(qp->rdev->ub_dev, &cfg, NULL);
	if (IS_ERR(tjetty)) {
		ret = PTR_ERR(tjetty);
		goto err;
	}
	if (qp->mode == ROUB_RC_MODE_RS) {
		ret = ubcore_bind_jetty(qp->jetty, tjetty);
		if (ret) {
			ubcore_unimport_jetty(tjetty);
			goto err;
		}
	}
	qp->tjetty = tjetty;
	return 0;

err:
	ibdev_warn(qp->ibqp.device, "QP %u to RTR: peer QP %u at %pI6: %d\n",
		   qp->ibqp.qp_num, qp->dest_qpn, qp->dgid.raw, ret);
	return ret;
}

static void roub_qp_disconnect(struct roub_qp *qp)
{
	if (!qp->tjetty)
		return;
	if (qp->mode == ROUB_RC_MODE_RS)
		ubcore_unbind_jetty(qp->jetty);
	ubcore_unimport_jetty(qp->tjetty);
	qp->tjetty = NULL;
}

/* The attributes roub takes; the mutex held. */
static int roub_qp_check_attr(struct roub_qp *qp, const struct ib_qp_attr *attr,
			      int mask)
{
	const struct ib_global_route *grh;

	if ((mask & IB_QP_ACCESS_FLAGS) &&
	    (attr->qp_access_flags & IB_ACCESS_REMOTE_ATOMIC))
		return -EOPNOTSUPP;
	if ((mask & IB_QP_PORT) && attr->port_num != 1)
		return -EINVAL;
	if ((mask & IB_QP_PKEY_INDEX) && attr->pkey_index)
		return -EINVAL;
	if ((mask & IB_QP_MAX_QP_RD_ATOMIC) &&
	    attr->max_rd_atomic > ROUB_MAX_RD_ATOM)
		return -EINVAL;
	if ((mask & IB_QP_MAX_DEST_RD_ATOMIC) &&
	    attr->max_dest_rd_atomic > ROUB_MAX_RD_ATOM)
		return -EINVAL;
	if (mask & IB_QP_AV) {
		if (!(rdma_ah_get_ah_flags(&attr->ah_attr) & IB_AH_GRH)) {
			ibdev_warn_ratelimited(qp->ibqp.device, "QP %u: the address vector needs a GRH (the peer's GID)\n",
					       qp->ibqp.qp_num);
			return -EINVAL;
		}
		grh = rdma_ah_read_grh(&attr->ah_attr);
		/* a kernel caller's source EID is ubcore's index 0 */
		if (grh->sgid_index) {
			ibdev_warn_ratelimited(qp->ibqp.device, "QP %u: source GID index %u: kernel QPs send from GID 0\n",
					       qp->ibqp.qp_num, grh->sgid_index);
			return -EINVAL;
		}
	}
	return 0;
}

static void roub_qp_save_attr(struct roub_qp *qp, const struct ib_qp_attr *attr,
			      int mask)
{
	struct ib_qp_attr *a = &qp->attr;

	if (mask & IB_QP_AV) {
		a->ah_attr = attr->ah_attr;
		qp->dgid = rdma_ah_read_grh(&attr->ah_attr)->dgid;
	}
	if (mask & IB_QP_DEST_QPN) {
		a->dest_qp_num = attr->dest_qp_num;
		qp->dest_qpn = attr->dest_qp_num;
	}
	if (mask & IB_QP_ACCESS_FLAGS)
		a->qp_access_flags = attr->qp_access_flags;
	if (mask & IB_QP_PATH_MTU)
		a->path_mtu = attr->path_mtu;
	if (mask & IB_QP_TIMEOUT)
		a->timeout = attr->timeout;
	if (mask & IB_QP_RETRY_CNT)
		a->retry_cnt = attr->retry_cnt;
	if (mask & IB_QP_RNR_RETRY)
		a->rnr_retry = attr->rnr_retry;
	if (mask & IB_QP_MIN_RNR_TIMER)
		a->min_rnr_timer = attr->min_rnr_timer;
	if (mask & IB_QP_RQ_PSN)
		a->rq_psn = attr->rq_psn;
	if (mask & IB_QP_SQ_PSN)
		a->sq_psn = attr->sq_psn;
	if (mask & IB_QP_MAX_QP_RD_ATOMIC)
		a->max_rd_atomic = attr->max_rd_atomic;
	if (mask & IB_QP_MAX_DEST_RD_ATOMIC)
		a->max_dest_rd_atomic = attr->max_dest_rd_atomic;
}

int roub_modify_qp(struct ib_qp *ibqp, struct ib_qp_attr *attr, int mask,
		   struct ib_udata *udata)
{
	struct roub_qp *qp = to_roub_qp(ibqp);
	enum ib_qp_state cur, next;
	int ret;

	if (udata)
		return -EOPNOTSUPP;
	mutex_lock(&qp->mutex);
	cur = (mask & IB_QP_CUR_STATE) ? attr->cur_qp_state : qp->state;
	next = (mask & IB_QP_STATE) ? attr->qp_state : cur;
	if (cur != qp->state ||
	    !ib_modify_qp_is_ok(cur, next, IB_QPT_RC, mask)) {
		ibdev_warn_ratelimited(ibqp->device, "QP %u: %d -> %d with mask 0x%x is not a valid change\n",
				       ibqp->qp_num, cur, next, mask);
		ret = -EINVAL;
		goto out;
	}
	if (next == IB_QPS_SQD || next == IB_QPS_SQE ||
	    (next == IB_QPS_RESET && cur != IB_QPS_RESET)) {
		ibdev_warn_ratelimited(ibqp->device, "QP %u: state %d is not supported (a QP is not reused)\n",
				       ibqp->qp_num, next);
		ret = -EOPNOTSUPP;
		goto out;
	}
	ret = roub_qp_check_attr(qp, attr, mask);
	if (ret)
		goto out;
	roub_qp_save_attr(qp, attr, mask);
	if (cur == IB_QPS_INIT && next == IB_QPS_RTR) {
		ret = roub_qp_connect(qp);
		if (ret)
			goto out;
	}
	if (next == IB_QPS_ERR && cur != IB_QPS_ERR)
		roub_qp_to_err(qp);
	else if (next != cur)
		roub_qp_set_state(qp, next);
out:
	mutex_unlock(&qp->mutex);
	return ret;
}

int roub_query_qp(struct ib_qp *ibqp, struct ib_qp_attr *attr, int mask,
		  struct ib_qp_init_attr *init)
{
	struct roub_qp *qp = to_roub_qp(ibqp);

	mutex_lock(&qp->mutex);
	*attr = qp->attr;
	attr->qp_state = qp->state;
	attr->cur_qp_state = qp->state;
	attr->port_num = 1;
	attr->cap.max_send_wr = qp->sq.max;
	attr->cap.max_recv_wr = qp->rq.max;
	attr->cap.max_send_sge = qp->max_send_sge;
	attr->cap.max_recv_sge = ROUB_MAX_RECV_SGE;
	attr->cap.max_inline_data = qp->jetty->cfg.jfs_cfg.max_inline_data;
	mutex_unlock(&qp->mutex);
	memset(init, 0, sizeof(*init));
	init->qp_type = IB_QPT_RC;
	init->send_cq = ibqp->send_cq;
	init->recv_cq = ibqp->recv_cq;
	init->cap = attr->cap;
	init->sq_sig_type = qp->sig_all ? IB_SIGNAL_ALL_WR : IB_SIGNAL_REQ_WR;
	return 0;
}

/*
 * The verbs user destroys a QP when it stops using it, or when the device
 * goes (its ib_client's remove): a bound jetty is unbound (the peer's
 * TP closes), in-flight work is dropped with the jetty.
 */
int roub_destroy_qp(struct ib_qp *ibqp, struct ib_udata *udata)
{
	struct roub_qp *qp = to_roub_qp(ibqp);
	struct roub_dev *rdev = qp->rdev;

	/* no new post queues them: the verbs user posts no more */
	cancel_work_sync(&qp->import_work);
	mutex_lock(&qp->mutex);
	roub_qp_set_state(qp, IB_QPS_RESET);
	roub_qp_flush_pending(qp);
	roub_qp_disconnect(qp);
	xa_erase(&rdev->objs, qp->jetty->id);
	xa_erase(&rdev->objs, qp->jfr->id);
	/* no more JETTY_ERR or JFR_ERR after this */
	roub_qp_delete_ub(qp);
	roub_qp_free_rsegs(qp);
	mutex_unlock(&qp->mutex);
	cancel_work_sync(&qp->err_work);
	/* polls that found the QP under RCU are done with its slots */
	synchronize_rcu();
	kvfree(qp->rq.slot);
	kvfree(qp->sq.slot);
	atomic_dec(&rdev->nr_qp);
	return 0;
}
