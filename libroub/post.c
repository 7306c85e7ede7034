// SPDX-License-Identifier: MIT
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * The data path: verbs work requests as liburma's (written into the
 * jetty's mapped SQ/RQ, one doorbell per batch), completions polled off
 * the JFC's mapped ring with no syscall, each turned into a verbs WC with
 * the tables of roub_map.h. A request carries its queue's sequence number
 * as the URMA user_ctx, so a record finds its wr_id and opcode; a peer's
 * rkey is imported once per QP (its token ID and value are the rkey's).
 */
#include <endian.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "roub.h"

/* Work requests per liburma call (one doorbell). */
#define ROUB_BATCH 16

/* The shared tables (roub/roub_tables.h) in libibverbs' and liburma's constants. */
#define ROUB_WR(x)	IBV_WR_##x
#define ROUB_UOP(x)	URMA_OPC_##x
#define ROUB_WCOP(x)	IBV_WC_##x
#define ROUB_CRST(x)	URMA_CR_##x
#define ROUB_WCST(x)	IBV_WC_##x
#define ROUB_CROP(x)	URMA_CR_OPC_##x
#define ROUB_ACC(x)	IBV_ACCESS_##x
#define ROUB_SEGACC(x)	URMA_ACCESS_##x
#include "roub_tables.h"

/* URMA access bits of verbs ones, as roub.ko's (roub_tables.h). */
uint32_t roub_seg_access(int access)
{
	return roub_access_of(access);
}

#define ROUB_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

int roub_wc_status(urma_cr_status_t st, enum ibv_wc_status *out)
{
	size_t i;

	if (st == URMA_CR_WR_SUSPEND_DONE || st == URMA_CR_WR_FLUSH_ERR_DONE)
		return 0; /* a queue's marker: no work request */
	*out = IBV_WC_GENERAL_ERR;
	for (i = 0; i < ROUB_ARRAY_SIZE(roub_statuses); i++)
		if (roub_statuses[i].cr == (int)st)
			*out = (enum ibv_wc_status)roub_statuses[i].wc;
	return 1;
}

static int roub_recv_opcode(urma_cr_opcode_t op, enum ibv_wc_opcode *out,
			    int *imm)
{
	size_t i;

	for (i = 0; i < ROUB_ARRAY_SIZE(roub_recv_opcodes); i++) {
		if (roub_recv_opcodes[i].cr == (int)op) {
			*out = (enum ibv_wc_opcode)roub_recv_opcodes[i].wc;
			*imm = roub_recv_opcodes[i].imm;
			return 0;
		}
	}
	return EPROTO;
}

static int roub_send_opcode(enum ibv_wr_opcode op, urma_opcode_t *uop,
			    enum ibv_wc_opcode *wc)
{
	size_t i;

	for (i = 0; i < ROUB_ARRAY_SIZE(roub_opcodes); i++) {
		if (roub_opcodes[i].wr == (int)op) {
			*uop = (urma_opcode_t)roub_opcodes[i].uop;
			*wc = (enum ibv_wc_opcode)roub_opcodes[i].wc;
			return 0;
		}
	}
	return EINVAL;
}

/* Append @wc to the CQ's own queue; its lock held. The queue grows. */
static void roub_cq_push(struct roub_cq *cq, const struct ibv_wc *wc)
{
	if (cq->sw_head - cq->sw_tail == cq->sw_size) {
		uint32_t size = cq->sw_size ? cq->sw_size * 2 : 64, i;
		struct ibv_wc *n = calloc(size, sizeof(*n));

		if (!n)
			return; /* out of memory: the WC is lost */
		for (i = 0; i < cq->sw_head - cq->sw_tail; i++)
			n[i] = cq->sw[(cq->sw_tail + i) & (cq->sw_size - 1)];
		free(cq->sw);
		cq->sw = n;
		cq->sw_head = i;
		cq->sw_tail = 0;
		cq->sw_size = size;
	}
	cq->sw[cq->sw_head++ & (cq->sw_size - 1)] = *wc;
}

/* Append a WC roub makes (a flush); the CQ's lock held. */
void roub_cq_add_wc(struct roub_cq *cq, struct roub_qp *qp, uint64_t wr_id,
		    enum ibv_wc_opcode opcode, enum ibv_wc_status status)
{
	struct ibv_wc wc;

	memset(&wc, 0, sizeof(wc));
	wc.wr_id = wr_id;
	wc.status = status;
	wc.opcode = opcode;
	wc.qp_num = qp->vqp.qp.qp_num;
	roub_cq_push(cq, &wc);
}

/*
 * A completion record as a WC; the CQ's lock and the context's lock (read)
 * held. Returns 0 for a record that is no WC (a marker, a QP gone).
 */
static int roub_cr_to_wc(struct roub_context *ctx, const urma_cr_t *cr,
			 struct ibv_wc *wc)
{
	enum ibv_wc_status status;
	struct roub_qp *qp;
	struct roub_wq *wq;
	uint32_t seq = (uint32_t)cr->user_ctx;
	int imm = 0;

	qp = roub_qp_find(ctx, cr->local_id);
	if (!qp || !roub_wc_status(cr->status, &status))
		return 0;
	memset(wc, 0, sizeof(*wc));
	wc->status = status;
	wc->vendor_err = cr->status;
	wc->qp_num = qp->vqp.qp.qp_num;
	wq = cr->flag.bs.s_r ? &qp->rq : &qp->sq;
	wc->wr_id = wq->wr_id[seq & (wq->size - 1)];
	/* completions come in order: every earlier request is done */
	__atomic_store_n(&wq->tail, seq + 1, __ATOMIC_RELEASE);
	if (!cr->flag.bs.s_r) {
		wc->opcode = qp->sq.opcode[seq & (qp->sq.size - 1)];
		wc->byte_len = cr->completion_len;
		return 1;
	}
	wc->opcode = IBV_WC_RECV;
	if (status != IBV_WC_SUCCESS)
		return 1;
	if (roub_recv_opcode(cr->opcode, &wc->opcode, &imm)) {
		wc->status = IBV_WC_GENERAL_ERR;
		return 1;
	}
	wc->byte_len = cr->completion_len;
	wc->src_qp = cr->remote_id.id;
	if (imm) {
		wc->wc_flags |= IBV_WC_WITH_IMM;
		/* 32 bits in verbs, in network order; URMA's 64-bit value */
		wc->imm_data = htobe32((uint32_t)cr->imm_data);
	}
	return 1;
}

/* Poll up to @num WCs off the JFC; both locks held. */
static int roub_cq_poll_jfc(struct roub_cq *cq, struct roub_context *ctx,
			    int num, struct ibv_wc *wc)
{
	urma_cr_t cr[ROUB_BATCH];
	int n = 0, got, i;

	while (n < num) {
		int want = num - n < ROUB_BATCH ? num - n : ROUB_BATCH;

		got = urma_poll_jfc(cq->jfc, want, cr);
		if (got <= 0)
			break;
		for (i = 0; i < got; i++)
			n += roub_cr_to_wc(ctx, &cr[i], &wc[n]);
		if (got < want)
			break;
	}
	return n;
}

/* Move what the JFC has into the CQ's own queue; both locks held. */
void roub_cq_drain_jfc(struct roub_cq *cq)
{
	struct roub_context *ctx = to_rctx(cq->cq.context);
	struct ibv_wc wc[ROUB_BATCH];
	int n, i;

	do {
		n = roub_cq_poll_jfc(cq, ctx, ROUB_BATCH, wc);
		for (i = 0; i < n; i++)
			roub_cq_push(cq, &wc[i]);
	} while (n == ROUB_BATCH);
}

int roub_poll_cq(struct ibv_cq *ibcq, int num, struct ibv_wc *wc)
{
	struct roub_cq *cq = to_rcq(ibcq);
	struct roub_context *ctx = to_rctx(ibcq->context);
	int n = 0;

	pthread_spin_lock(&cq->lock);
	while (n < num && cq->sw_tail != cq->sw_head)
		wc[n++] = cq->sw[cq->sw_tail++ & (cq->sw_size - 1)];
	if (n < num) {
		pthread_rwlock_rdlock(&ctx->lock);
		n += roub_cq_poll_jfc(cq, ctx, num - n, wc + n);
		pthread_rwlock_unlock(&ctx->lock);
	}
	pthread_spin_unlock(&cq->lock);
	return n;
}

/* The peer's segment of @rkey, imported on first use; sq_lock held. */
static urma_target_seg_t *roub_rseg(struct roub_qp *qp, uint32_t rkey)
{
	urma_import_seg_flag_t flag = { 0 };
	urma_token_t tok = { .token = rkey };
	urma_seg_t seg = { 0 };
	struct roub_rseg *r;

	for (r = qp->rsegs; r; r = r->next)
		if (r->rkey == rkey)
			return r->tseg;
	r = calloc(1, sizeof(*r));
	if (!r)
		return NULL;
	/* the whole range: the target checks it against its segment */
	memcpy(seg.ubva.eid.raw, qp->dgid.raw, sizeof(seg.ubva.eid.raw));
	seg.ubva.uasid = 0;
	seg.ubva.va = 0;
	seg.len = UINT64_MAX;
	seg.attr.bs.token_policy = URMA_TOKEN_PLAIN_TEXT;
	seg.attr.bs.access = URMA_ACCESS_READ | URMA_ACCESS_WRITE;
	seg.token_id = rkey >> ROUB_KEY_RAND_BITS;
	flag.bs.access = URMA_ACCESS_READ | URMA_ACCESS_WRITE;
	flag.bs.mapping = URMA_SEG_NOMAP;
	r->tseg = urma_import_seg(qp->ctx->uctx, &seg, &tok, 0, flag);
	if (!r->tseg) {
		free(r);
		return NULL;
	}
	r->rkey = rkey;
	r->next = qp->rsegs;
	qp->rsegs = r;
	return r->tseg;
}

void roub_qp_free_rsegs(struct roub_qp *qp)
{
	struct roub_rseg *r;

	while ((r = qp->rsegs)) {
		qp->rsegs = r->next;
		urma_unimport_seg(r->tseg);
		free(r);
	}
}

/* One batch slot: the URMA request and its SGEs. */
struct roub_swr {
	urma_jfs_wr_t w;
	urma_sge_t sge[ROUB_MAX_SEND_SGE];
	urma_sge_t rsge;
};

/* A verbs send request as URMA's; sq_lock held. */
static int roub_build_send(struct roub_qp *qp, const struct ibv_send_wr *wr,
			   struct roub_swr *s, enum ibv_wc_opcode *wc_op)
{
	struct roub_context *ctx = qp->ctx;
	bool inl = wr->send_flags & IBV_SEND_INLINE;
	urma_jfs_wr_t *w = &s->w;
	uint64_t len = 0;
	int i, n = wr->num_sge;
	int err;

	memset(w, 0, sizeof(*w));
	err = roub_send_opcode(wr->opcode, &w->opcode, wc_op);
	if (err)
		return err;
	if (n < 0 || (uint32_t)n > qp->max_send_sge)
		return EINVAL;
	pthread_rwlock_rdlock(&ctx->lock);
	for (i = 0; i < n; i++) {
		const struct ibv_sge *g = &wr->sg_list[i];
		struct roub_mr *mr = roub_mr_find(ctx, g->lkey);

		len += g->length;
		if (!mr && !inl) {
			pthread_rwlock_unlock(&ctx->lock);
			return EINVAL; /* an lkey of no MR */
		}
		s->sge[i].addr = g->addr;
		s->sge[i].len = g->length;
		s->sge[i].tseg = mr ? mr->tseg : NULL;
		s->sge[i].user_tseg = NULL;
	}
	pthread_rwlock_unlock(&ctx->lock);
	if (len > (wr->opcode == IBV_WR_SEND ? ROUB_MAX_SEND_BYTES :
					      ROUB_MAX_RDMA_BYTES))
		return EINVAL; /* the guide's limits */
	if (inl && len > qp->max_inline)
		return EINVAL;
	w->flag.bs.complete_enable = qp->sig_all ||
				     !!(wr->send_flags & IBV_SEND_SIGNALED);
	w->flag.bs.fence = !!(wr->send_flags & IBV_SEND_FENCE);
	w->flag.bs.solicited_enable = !!(wr->send_flags & IBV_SEND_SOLICITED);
	w->flag.bs.inline_flag = inl;
	w->tjetty = qp->tjetty;
	switch (wr->opcode) {
	case IBV_WR_SEND:
		w->send.src.sge = s->sge;
		w->send.src.num_sge = n;
		return 0;
	case IBV_WR_RDMA_WRITE_WITH_IMM:
		w->rw.notify_data = be32toh(wr->imm_data);
		/* fall through */
	case IBV_WR_RDMA_WRITE:
	case IBV_WR_RDMA_READ:
		s->rsge.addr = wr->wr.rdma.remote_addr;
		s->rsge.len = (uint32_t)len;
		s->rsge.tseg = roub_rseg(qp, wr->wr.rdma.rkey);
		s->rsge.user_tseg = NULL;
		if (!s->rsge.tseg)
			return errno ? errno : ENOMEM;
		if (wr->opcode == IBV_WR_RDMA_READ) {
			w->rw.src.sge = &s->rsge;
			w->rw.src.num_sge = 1;
			w->rw.dst.sge = s->sge;
			w->rw.dst.num_sge = n;
		} else {
			w->rw.src.sge = s->sge;
			w->rw.src.num_sge = n;
			w->rw.dst.sge = &s->rsge;
			w->rw.dst.num_sge = 1;
		}
		return 0;
	default:
		return EINVAL;
	}
}

/* Post @cnt built requests; on a refusal, roll the queue back. */
static int roub_send_batch(struct roub_qp *qp, struct roub_swr *b,
			   struct ibv_send_wr **src, int cnt,
			   struct ibv_send_wr **bad_wr)
{
	urma_jfs_wr_t *bad = NULL;
	urma_status_t st;
	int i;

	if (!cnt)
		return 0;
	for (i = 0; i < cnt; i++)
		b[i].w.next = i + 1 < cnt ? &b[i + 1].w : NULL;
	st = urma_post_jetty_send_wr(qp->jetty, &b[0].w, &bad);
	if (st == URMA_SUCCESS)
		return 0;
	for (i = 0; i < cnt && &b[i].w != bad; i++)
		;
	if (i == cnt)
		i = 0;
	qp->sq.head -= cnt - i;
	*bad_wr = src[i];
	/* urma_status_t values are errno values (ENOMEM: queue full) */
	return (int)st;
}

int roub_post_send(struct ibv_qp *ibqp, struct ibv_send_wr *wr,
		   struct ibv_send_wr **bad_wr)
{
	struct roub_qp *qp = to_rqp(ibqp);
	struct roub_swr b[ROUB_BATCH];
	struct ibv_send_wr *src[ROUB_BATCH];
	enum ibv_wc_opcode wc_op;
	int cnt = 0, err = 0;
	uint32_t seq;

	pthread_mutex_lock(&qp->sq_lock);
	if (qp->state == IBV_QPS_ERR) {
		struct roub_cq *cq = to_rcq(ibqp->send_cq);
		urma_opcode_t uop;

		/* in ERR every request completes at once, flushed */
		pthread_spin_lock(&cq->lock);
		for (; wr; wr = wr->next) {
			if (roub_send_opcode(wr->opcode, &uop, &wc_op))
				wc_op = IBV_WC_SEND;
			roub_cq_add_wc(cq, qp, wr->wr_id, wc_op,
				       IBV_WC_WR_FLUSH_ERR);
		}
		pthread_spin_unlock(&cq->lock);
		pthread_mutex_unlock(&qp->sq_lock);
		return 0;
	}
	if (qp->state != IBV_QPS_RTS) {
		*bad_wr = wr;
		pthread_mutex_unlock(&qp->sq_lock);
		return EINVAL;
	}
	for (; wr; wr = wr->next) {
		if (qp->sq.head - __atomic_load_n(&qp->sq.tail, __ATOMIC_ACQUIRE) >=
		    qp->sq.max) {
			err = ENOMEM;
			break;
		}
		err = roub_build_send(qp, wr, &b[cnt], &wc_op);
		if (err)
			break;
		seq = qp->sq.head++;
		qp->sq.wr_id[seq & (qp->sq.size - 1)] = wr->wr_id;
		qp->sq.opcode[seq & (qp->sq.size - 1)] = (uint8_t)wc_op;
		b[cnt].w.user_ctx = seq;
		src[cnt++] = wr;
		if (cnt == ROUB_BATCH) {
			err = roub_send_batch(qp, b, src, cnt, bad_wr);
			cnt = 0;
			if (err)
				goto out;
		}
	}
	if (err)
		*bad_wr = wr;
	/* a refusal here is of an earlier request: it wins */
	cnt = roub_send_batch(qp, b, src, cnt, bad_wr);
	if (cnt)
		err = cnt;
out:
	pthread_mutex_unlock(&qp->sq_lock);
	return err;
}

int roub_post_recv(struct ibv_qp *ibqp, struct ibv_recv_wr *wr,
		   struct ibv_recv_wr **bad_wr)
{
	struct roub_qp *qp = to_rqp(ibqp);
	struct roub_context *ctx = qp->ctx;
	urma_jfr_wr_t w;
	urma_jfr_wr_t *bad = NULL;
	urma_sge_t sge;
	struct roub_mr *mr;
	urma_status_t st;
	int err = 0;
	uint32_t seq;

	pthread_mutex_lock(&qp->rq_lock);
	if (qp->state == IBV_QPS_ERR) {
		struct roub_cq *cq = to_rcq(ibqp->recv_cq);

		pthread_spin_lock(&cq->lock);
		for (; wr; wr = wr->next)
			roub_cq_add_wc(cq, qp, wr->wr_id, IBV_WC_RECV,
				       IBV_WC_WR_FLUSH_ERR);
		pthread_spin_unlock(&cq->lock);
		pthread_mutex_unlock(&qp->rq_lock);
		return 0;
	}
	if (qp->state == IBV_QPS_RESET) {
		*bad_wr = wr;
		pthread_mutex_unlock(&qp->rq_lock);
		return EINVAL;
	}
	for (; wr; wr = wr->next) {
		if (wr->num_sge < 0 || wr->num_sge > ROUB_MAX_RECV_SGE) {
			err = EINVAL;
			break;
		}
		if (qp->rq.head - __atomic_load_n(&qp->rq.tail, __ATOMIC_ACQUIRE) >=
		    qp->rq.max) {
			err = ENOMEM;
			break;
		}
		memset(&w, 0, sizeof(w));
		memset(&sge, 0, sizeof(sge));
		if (wr->num_sge) {
			pthread_rwlock_rdlock(&ctx->lock);
			mr = roub_mr_find(ctx, wr->sg_list[0].lkey);
			sge.tseg = mr ? mr->tseg : NULL;
			pthread_rwlock_unlock(&ctx->lock);
			if (!mr) {
				err = EINVAL;
				break;
			}
			sge.addr = wr->sg_list[0].addr;
			sge.len = wr->sg_list[0].length;
			w.src.sge = &sge;
			w.src.num_sge = 1;
		}
		seq = qp->rq.head;
		w.user_ctx = seq;
		/* before the post: its completion may be polled at once */
		qp->rq.wr_id[seq & (qp->rq.size - 1)] = wr->wr_id;
		st = urma_post_jetty_recv_wr(qp->jetty, &w, &bad);
		if (st != URMA_SUCCESS) {
			err = (int)st;
			break;
		}
		qp->rq.head++;
	}
	if (err)
		*bad_wr = wr;
	pthread_mutex_unlock(&qp->rq_lock);
	return err;
}
