// SPDX-License-Identifier: MIT
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * CQs (liburma JFCs) and RC QPs (a jetty receiving on its own JFR), with
 * roub.ko's rules (roub/README.md "QPs"): RC only, the guide's SGE
 * limits, the peer's jetty imported (and in RS mode bound) at RTR from the
 * address vector's GID and dest_qp_num, ERR flushing every outstanding
 * request, no way back to RESET.
 */
#include <endian.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "roub.h"

/*
 * Completion channels deliver the kernel's CQ events; a JFC's events go to
 * a liburma JFCE, which no uverbs channel can carry: CQs are polled.
 */
struct ibv_cq *roub_create_cq(struct ibv_context *context, int cqe,
			      struct ibv_comp_channel *channel, int comp_vector)
{
	struct roub_context *ctx = to_rctx(context);
	urma_jfc_cfg_t cfg = { 0 };
	struct roub_cq *cq;
	int err;

	(void)comp_vector;
	if (channel) {
		fprintf(stderr, "libroub: completion channels (CQ events) are not supported: poll the CQ\n");
		errno = EOPNOTSUPP;
		return NULL;
	}
	if (cqe < 1) {
		errno = EINVAL;
		return NULL;
	}
	cq = calloc(1, sizeof(*cq));
	if (!cq) {
		errno = ENOMEM;
		return NULL;
	}
	cfg.depth = (uint32_t)cqe;
	errno = 0;
	cq->jfc = urma_create_jfc(ctx->uctx, &cfg);
	if (!cq->jfc) {
		err = errno ? errno : ENOMEM;
		free(cq);
		errno = err;
		return NULL;
	}
	pthread_spin_init(&cq->lock, PTHREAD_PROCESS_PRIVATE);
	cq->cq.cqe = cqe;
	return &cq->cq;
}

int roub_destroy_cq(struct ibv_cq *ibcq)
{
	struct roub_cq *cq = to_rcq(ibcq);
	urma_status_t st;

	st = urma_delete_jfc(cq->jfc);
	if (st != URMA_SUCCESS)
		return (int)st;
	pthread_spin_destroy(&cq->lock);
	free(cq->sw);
	free(cq);
	return 0;
}

static uint32_t roub_pow2(uint32_t n)
{
	uint32_t p = 1;

	while (p < n)
		p <<= 1;
	return p;
}

static int roub_wq_init(struct roub_wq *wq, uint32_t max)
{
	wq->size = roub_pow2(max ? max : 1);
	wq->max = max;
	wq->wr_id = calloc(wq->size, sizeof(*wq->wr_id));
	wq->opcode = calloc(wq->size, sizeof(*wq->opcode));
	if (!wq->wr_id || !wq->opcode) {
		free(wq->wr_id);
		free(wq->opcode);
		return ENOMEM;
	}
	return 0;
}

static void roub_wq_free(struct roub_wq *wq)
{
	free(wq->wr_id);
	free(wq->opcode);
}

struct roub_qp *roub_qp_find(struct roub_context *ctx, uint32_t id)
{
	struct roub_qp_ref *r;

	for (r = ctx->qps[id % ROUB_QP_HASH]; r; r = r->next)
		if (r->id == id)
			return r->qp;
	return NULL;
}

static void roub_qp_ref_add(struct roub_context *ctx, struct roub_qp_ref *r)
{
	r->next = ctx->qps[r->id % ROUB_QP_HASH];
	ctx->qps[r->id % ROUB_QP_HASH] = r;
}

static void roub_qp_ref_del(struct roub_context *ctx, struct roub_qp_ref *r)
{
	struct roub_qp_ref **p;

	for (p = &ctx->qps[r->id % ROUB_QP_HASH]; *p; p = &(*p)->next) {
		if (*p == r) {
			*p = r->next;
			return;
		}
	}
}

static urma_transport_mode_t roub_tm(enum roub_rc_mode mode)
{
	return mode == ROUB_RC_MODE_RS ? URMA_TM_RC : URMA_TM_RM;
}

static int roub_qp_check_init(struct roub_context *ctx,
			      const struct ibv_qp_init_attr *init)
{
	const struct ibv_qp_cap *c = &init->cap;

	if (init->qp_type != IBV_QPT_RC) {
		fprintf(stderr, "libroub: create_qp: type %d: only RC QPs are supported\n",
			init->qp_type);
		return EOPNOTSUPP;
	}
	if (init->srq)
		return EOPNOTSUPP;
	if (!init->send_cq || !init->recv_cq)
		return EINVAL;
	if (c->max_send_sge > ROUB_MAX_SEND_SGE ||
	    c->max_recv_sge > ROUB_MAX_RECV_SGE || !c->max_send_wr ||
	    c->max_inline_data > ctx->max_inline) {
		fprintf(stderr, "libroub: create_qp: wr %u/%u sge %u/%u inline %u over the limits (sge %d/%d, inline %u)\n",
			c->max_send_wr, c->max_recv_wr, c->max_send_sge,
			c->max_recv_sge, c->max_inline_data, ROUB_MAX_SEND_SGE,
			ROUB_MAX_RECV_SGE, ctx->max_inline);
		return EINVAL;
	}
	return 0;
}

static int roub_qp_create_ub(struct roub_qp *qp, struct ibv_qp_init_attr *init)
{
	urma_context_t *uctx = qp->ctx->uctx;
	urma_jetty_cfg_t jc = { 0 };
	urma_jfr_cfg_t rc = { 0 };
	int err;

	rc.depth = init->cap.max_recv_wr ? init->cap.max_recv_wr : 1;
	rc.trans_mode = roub_tm(qp->mode);
	rc.max_sge = ROUB_MAX_RECV_SGE;
	rc.min_rnr_timer = URMA_TYPICAL_MIN_RNR_TIMER;
	rc.jfc = to_rcq(init->recv_cq)->jfc;
	/* any sender (roub/README.md: UB has no one peer of a QP) */
	rc.flag.bs.token_policy = URMA_TOKEN_NONE;
	errno = 0;
	qp->jfr = urma_create_jfr(uctx, &rc);
	if (!qp->jfr)
		return errno ? errno : ENOMEM;
	jc.flag.bs.share_jfr = URMA_SHARE_JFR;
	jc.jfs_cfg.depth = init->cap.max_send_wr;
	jc.jfs_cfg.trans_mode = roub_tm(qp->mode);
	jc.jfs_cfg.max_sge = (uint8_t)(init->cap.max_send_sge ?
				       init->cap.max_send_sge : 1);
	jc.jfs_cfg.max_rsge = 1;
	jc.jfs_cfg.max_inline_data = init->cap.max_inline_data;
	/* verbs' "infinite" RNR retry; udma caps the wait */
	jc.jfs_cfg.rnr_retry = 7;
	jc.jfs_cfg.jfc = to_rcq(init->send_cq)->jfc;
	jc.shared.jfr = qp->jfr;
	errno = 0;
	qp->jetty = urma_create_jetty(uctx, &jc);
	if (!qp->jetty) {
		err = errno ? errno : ENOMEM;
		urma_delete_jfr(qp->jfr);
		return err;
	}
	return 0;
}

struct ibv_qp *roub_create_qp(struct ibv_pd *pd, struct ibv_qp_init_attr *init)
{
	struct roub_context *ctx = to_rctx(pd->context);
	struct roub_qp *qp;
	struct ibv_qp *ibqp;
	int err;

	err = roub_qp_check_init(ctx, init);
	if (err) {
		errno = err;
		return NULL;
	}
	qp = calloc(1, sizeof(*qp));
	if (!qp) {
		errno = ENOMEM;
		return NULL;
	}
	qp->ctx = ctx;
	qp->mode = roub_rc_mode();
	qp->state = IBV_QPS_RESET;
	qp->sig_all = init->sq_sig_all;
	qp->max_send_sge = init->cap.max_send_sge;
	pthread_mutex_init(&qp->sq_lock, NULL);
	pthread_mutex_init(&qp->rq_lock, NULL);
	pthread_mutex_init(&qp->mutex, NULL);
	err = roub_wq_init(&qp->sq, init->cap.max_send_wr);
	if (err)
		goto err_free;
	err = roub_wq_init(&qp->rq, init->cap.max_recv_wr);
	if (err)
		goto err_sq;
	err = roub_qp_create_ub(qp, init);
	if (err)
		goto err_rq;
	/* verbs' QP numbers are 24 bits */
	if (qp->jetty->jetty_id.id > 0xffffff) {
		err = ENOSPC;
		goto err_ub;
	}
	qp->max_inline = qp->jetty->jetty_cfg.jfs_cfg.max_inline_data;
	if (qp->max_inline > ctx->max_inline)
		qp->max_inline = ctx->max_inline;
	init->cap.max_inline_data = qp->max_inline;

	ibqp = &qp->vqp.qp;
	ibqp->context = pd->context;
	ibqp->qp_context = init->qp_context;
	ibqp->pd = pd;
	ibqp->send_cq = init->send_cq;
	ibqp->recv_cq = init->recv_cq;
	ibqp->qp_num = qp->jetty->jetty_id.id;
	ibqp->qp_type = init->qp_type;
	ibqp->state = IBV_QPS_RESET;
	ibqp->events_completed = 0;
	pthread_mutex_init(&ibqp->mutex, NULL);
	pthread_cond_init(&ibqp->cond, NULL);

	qp->ref_jetty.id = qp->jetty->jetty_id.id;
	qp->ref_jetty.qp = qp;
	qp->ref_jfr.id = qp->jfr->jfr_id.id;
	qp->ref_jfr.qp = qp;
	pthread_rwlock_wrlock(&ctx->lock);
	roub_qp_ref_add(ctx, &qp->ref_jetty);
	roub_qp_ref_add(ctx, &qp->ref_jfr);
	pthread_rwlock_unlock(&ctx->lock);
	return ibqp;

err_ub:
	urma_delete_jetty(qp->jetty);
	urma_delete_jfr(qp->jfr);
err_rq:
	roub_wq_free(&qp->rq);
err_sq:
	roub_wq_free(&qp->sq);
err_free:
	free(qp);
	errno = err;
	return NULL;
}

static void roub_qp_set_state(struct roub_qp *qp, enum ibv_qp_state state)
{
	pthread_mutex_lock(&qp->sq_lock);
	pthread_mutex_lock(&qp->rq_lock);
	qp->state = state;
	pthread_mutex_unlock(&qp->rq_lock);
	pthread_mutex_unlock(&qp->sq_lock);
}

/*
 * To ERR; the QP's mutex held. The jetty's ERROR flushes what it took
 * (WR_FLUSH_ERR records on the JFC); urma_flush_jetty() reports what it
 * did not take; every receive request is flushed here. The JFCs' records
 * go into the CQs' own queues first, so that the order holds.
 */
static void roub_qp_to_err(struct roub_qp *qp)
{
	const urma_jetty_attr_t ja = {
		.mask = JETTY_STATE,
		.state = URMA_JETTY_STATE_ERROR,
	};
	const urma_jfr_attr_t ra = {
		.mask = JFR_STATE,
		.state = URMA_JFR_STATE_ERROR,
	};
	struct roub_cq *scq = to_rcq(qp->vqp.qp.send_cq);
	struct roub_cq *rcq = to_rcq(qp->vqp.qp.recv_cq);
	urma_cr_t *cr = NULL;
	int n = 0, i;
	uint32_t seq, out;

	roub_qp_set_state(qp, IBV_QPS_ERR);
	if (urma_modify_jetty(qp->jetty, (urma_jetty_attr_t *)&ja) != URMA_SUCCESS)
		fprintf(stderr, "libroub: QP %u to ERR: jetty refused\n",
			qp->vqp.qp.qp_num);
	if (urma_modify_jfr(qp->jfr, (urma_jfr_attr_t *)&ra) != URMA_SUCCESS)
		fprintf(stderr, "libroub: QP %u to ERR: JFR refused\n",
			qp->vqp.qp.qp_num);
	out = qp->sq.head - __atomic_load_n(&qp->sq.tail, __ATOMIC_ACQUIRE);
	if (out) {
		cr = calloc(out, sizeof(*cr));
		if (cr)
			n = urma_flush_jetty(qp->jetty, (int)out, cr);
	}
	pthread_spin_lock(&scq->lock);
	pthread_rwlock_rdlock(&qp->ctx->lock);
	roub_cq_drain_jfc(scq);
	for (i = 0; i < n; i++)
		roub_cq_add_wc(scq, qp, qp->sq.wr_id[cr[i].user_ctx & (qp->sq.size - 1)],
			       qp->sq.opcode[cr[i].user_ctx & (qp->sq.size - 1)],
			       IBV_WC_WR_FLUSH_ERR);
	if (n > 0)
		__atomic_store_n(&qp->sq.tail, qp->sq.head, __ATOMIC_RELEASE);
	pthread_rwlock_unlock(&qp->ctx->lock);
	pthread_spin_unlock(&scq->lock);
	free(cr);

	pthread_spin_lock(&rcq->lock);
	pthread_rwlock_rdlock(&qp->ctx->lock);
	roub_cq_drain_jfc(rcq);
	for (seq = qp->rq.tail; seq != qp->rq.head; seq++)
		roub_cq_add_wc(rcq, qp, qp->rq.wr_id[seq & (qp->rq.size - 1)],
			       IBV_WC_RECV, IBV_WC_WR_FLUSH_ERR);
	__atomic_store_n(&qp->rq.tail, qp->rq.head, __ATOMIC_RELEASE);
	pthread_rwlock_unlock(&qp->ctx->lock);
	pthread_spin_unlock(&rcq->lock);
}

/* RTR: import the peer's jetty and (RS) bind to it; the mutex held. */
static int roub_qp_connect(struct roub_qp *qp)
{
	urma_rjetty_t rj = { 0 };
	urma_token_t tok = { 0 };
	char gid[64];
	int err;

	memcpy(rj.jetty_id.eid.raw, qp->dgid.raw, sizeof(rj.jetty_id.eid.raw));
	rj.jetty_id.uasid = 0;
	rj.jetty_id.id = qp->dest_qpn;
	rj.trans_mode = roub_tm(qp->mode);
	rj.type = URMA_JETTY;
	rj.flag.bs.token_policy = URMA_TOKEN_NONE;
	errno = 0;
	qp->tjetty = urma_import_jetty(qp->ctx->uctx, &rj, &tok);
	if (!qp->tjetty) {
		err = errno ? errno : EIO;
		goto err;
	}
	if (qp->mode == ROUB_RC_MODE_RS) {
		urma_status_t st = urma_bind_jetty(qp->jetty, qp->tjetty);

		if (st != URMA_SUCCESS) {
			err = (int)st;
			urma_unimport_jetty(qp->tjetty);
			qp->tjetty = NULL;
			goto err;
		}
		qp->bound = true;
	}
	return 0;

err:
	snprintf(gid, sizeof(gid), "%016llx%016llx",
		 (unsigned long long)be64toh(qp->dgid.global.subnet_prefix),
		 (unsigned long long)be64toh(qp->dgid.global.interface_id));
	fprintf(stderr, "libroub: QP %u to RTR: peer QP %u at GID %s: %s\n",
		qp->vqp.qp.qp_num, qp->dest_qpn, gid, strerror(err));
	return err;
}

static void roub_qp_disconnect(struct roub_qp *qp)
{
	if (qp->bound)
		urma_unbind_jetty(qp->jetty);
	qp->bound = false;
	if (qp->tjetty)
		urma_unimport_jetty(qp->tjetty);
	qp->tjetty = NULL;
}

/* The state changes roub takes (as roub.ko: no SQD, SQE, nor a return to RESET). */
static bool roub_qp_transition_ok(enum ibv_qp_state cur, enum ibv_qp_state next,
				  int mask)
{
	if (next == IBV_QPS_ERR)
		return true;
	switch (cur) {
	case IBV_QPS_RESET:
		return next == IBV_QPS_RESET || next == IBV_QPS_INIT;
	case IBV_QPS_INIT:
		if (next == IBV_QPS_RTR)
			return (mask & (IBV_QP_AV | IBV_QP_DEST_QPN)) ==
			       (IBV_QP_AV | IBV_QP_DEST_QPN);
		return next == IBV_QPS_INIT;
	case IBV_QPS_RTR:
		return next == IBV_QPS_RTS;
	case IBV_QPS_RTS:
		return next == IBV_QPS_RTS;
	default:
		return false;
	}
}

static int roub_qp_check_attr(struct roub_qp *qp, const struct ibv_qp_attr *attr,
			      int mask)
{
	if ((mask & IBV_QP_ACCESS_FLAGS) &&
	    (attr->qp_access_flags & IBV_ACCESS_REMOTE_ATOMIC))
		return EOPNOTSUPP;
	if ((mask & IBV_QP_PORT) && attr->port_num != 1)
		return EINVAL;
	if ((mask & IBV_QP_PKEY_INDEX) && attr->pkey_index)
		return EINVAL;
	if (mask & IBV_QP_AV) {
		if (!attr->ah_attr.is_global) {
			fprintf(stderr, "libroub: QP %u: the address vector needs a GRH (the peer's GID; ibv_rc_pingpong -g 0, perftest -x 0)\n",
				qp->vqp.qp.qp_num);
			return EINVAL;
		}
		/* the liburma context is on GID 0's EID index */
		if (attr->ah_attr.grh.sgid_index) {
			fprintf(stderr, "libroub: QP %u: source GID index %u: RoUB QPs send from GID 0\n",
				qp->vqp.qp.qp_num, attr->ah_attr.grh.sgid_index);
			return EINVAL;
		}
	}
	return 0;
}

static void roub_qp_save_attr(struct roub_qp *qp, const struct ibv_qp_attr *attr,
			      int mask)
{
	struct ibv_qp_attr *a = &qp->attr;

	if (mask & IBV_QP_AV) {
		a->ah_attr = attr->ah_attr;
		qp->dgid = attr->ah_attr.grh.dgid;
	}
	if (mask & IBV_QP_DEST_QPN) {
		a->dest_qp_num = attr->dest_qp_num;
		qp->dest_qpn = attr->dest_qp_num;
	}
	if (mask & IBV_QP_ACCESS_FLAGS)
		a->qp_access_flags = attr->qp_access_flags;
	if (mask & IBV_QP_PATH_MTU)
		a->path_mtu = attr->path_mtu;
	if (mask & IBV_QP_TIMEOUT)
		a->timeout = attr->timeout;
	if (mask & IBV_QP_RETRY_CNT)
		a->retry_cnt = attr->retry_cnt;
	if (mask & IBV_QP_RNR_RETRY)
		a->rnr_retry = attr->rnr_retry;
	if (mask & IBV_QP_MIN_RNR_TIMER)
		a->min_rnr_timer = attr->min_rnr_timer;
	if (mask & IBV_QP_RQ_PSN)
		a->rq_psn = attr->rq_psn;
	if (mask & IBV_QP_SQ_PSN)
		a->sq_psn = attr->sq_psn;
	if (mask & IBV_QP_MAX_QP_RD_ATOMIC)
		a->max_rd_atomic = attr->max_rd_atomic;
	if (mask & IBV_QP_MAX_DEST_RD_ATOMIC)
		a->max_dest_rd_atomic = attr->max_dest_rd_atomic;
	if (mask & IBV_QP_PORT)
		a->port_num = attr->port_num;
}

int roub_modify_qp(struct ibv_qp *ibqp, struct ibv_qp_attr *attr, int mask)
{
	struct roub_qp *qp = to_rqp(ibqp);
	enum ibv_qp_state cur, next;
	int err = 0;

	pthread_mutex_lock(&qp->mutex);
	cur = (mask & IBV_QP_CUR_STATE) ? attr->cur_qp_state : qp->state;
	next = (mask & IBV_QP_STATE) ? attr->qp_state : cur;
	if (cur != qp->state ||
	    ((mask & IBV_QP_STATE) && !roub_qp_transition_ok(cur, next, mask))) {
		fprintf(stderr, "libroub: QP %u: %d -> %d refused\n",
			ibqp->qp_num, cur, next);
		err = (next == IBV_QPS_SQD || next == IBV_QPS_SQE ||
		       (next == IBV_QPS_RESET && cur != IBV_QPS_RESET)) ?
			      EOPNOTSUPP : EINVAL;
		goto out;
	}
	err = roub_qp_check_attr(qp, attr, mask);
	if (err)
		goto out;
	roub_qp_save_attr(qp, attr, mask);
	if (!(mask & IBV_QP_STATE) || next == cur)
		goto out;
	if (next == IBV_QPS_RTR) {
		err = roub_qp_connect(qp);
		if (err)
			goto out;
	}
	if (next == IBV_QPS_ERR)
		roub_qp_to_err(qp);
	else
		roub_qp_set_state(qp, next);
out:
	pthread_mutex_unlock(&qp->mutex);
	return err;
}

int roub_query_qp(struct ibv_qp *ibqp, struct ibv_qp_attr *attr, int mask,
		  struct ibv_qp_init_attr *init)
{
	struct roub_qp *qp = to_rqp(ibqp);

	(void)mask;
	pthread_mutex_lock(&qp->mutex);
	*attr = qp->attr;
	attr->qp_state = qp->state;
	attr->cur_qp_state = qp->state;
	attr->cap.max_send_wr = qp->sq.max;
	attr->cap.max_recv_wr = qp->rq.max;
	attr->cap.max_send_sge = qp->max_send_sge;
	attr->cap.max_recv_sge = ROUB_MAX_RECV_SGE;
	attr->cap.max_inline_data = qp->max_inline;
	pthread_mutex_unlock(&qp->mutex);
	memset(init, 0, sizeof(*init));
	init->qp_context = ibqp->qp_context;
	init->send_cq = ibqp->send_cq;
	init->recv_cq = ibqp->recv_cq;
	init->cap = attr->cap;
	init->qp_type = ibqp->qp_type;
	init->sq_sig_all = qp->sig_all;
	return 0;
}

int roub_destroy_qp(struct ibv_qp *ibqp)
{
	struct roub_qp *qp = to_rqp(ibqp);
	struct roub_context *ctx = qp->ctx;
	urma_status_t st;

	pthread_mutex_lock(&qp->mutex);
	roub_qp_disconnect(qp);
	roub_qp_free_rsegs(qp);
	st = urma_delete_jetty(qp->jetty);
	if (st == URMA_SUCCESS)
		st = urma_delete_jfr(qp->jfr);
	pthread_mutex_unlock(&qp->mutex);
	if (st != URMA_SUCCESS)
		return (int)st;
	pthread_rwlock_wrlock(&ctx->lock);
	roub_qp_ref_del(ctx, &qp->ref_jetty);
	roub_qp_ref_del(ctx, &qp->ref_jfr);
	pthread_rwlock_unlock(&ctx->lock);
	pthread_mutex_destroy(&qp->sq_lock);
	pthread_mutex_destroy(&qp->rq_lock);
	pthread_mutex_destroy(&qp->mutex);
	roub_wq_free(&qp->sq);
	roub_wq_free(&qp->rq);
	free(qp);
	return 0;
}
