// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * Completion queues: a CQ is a JFC. A completion record becomes a work
 * completion through its QP (found by the record's local jetty or JFR ID)
 * and the QP's slot for the record's sequence number (user_ctx: the wr_id
 * and, for sends, the opcode; roub.h struct roub_wq).
 *
 * Some completions ubcore never writes: the send requests a jetty in
 * ERROR still holds untaken, every receive request of a QP in ERR (udma
 * does not flush a JFR), and requests posted in ERR. roub makes those
 * itself, into the CQ's own queue (@sw), after moving what the JFC holds
 * into it first, so that each QP's completions stay in order. A poll
 * takes @sw first, then the JFC.
 *
 * Events: the JFC's completion event (jfce_handler) calls the CQ's
 * comp_handler; req_notify_cq rearms the JFC. A made-up completion calls
 * comp_handler itself when the CQ is armed. IB_CQ_REPORT_MISSED_EVENTS
 * looks into the JFC by moving one record into @sw.
 */
#include <linux/log2.h>
#include <linux/slab.h>

#include "roub.h"

/* Records taken off a JFC per ubcore call (on the stack). */
#define ROUB_POLL_BATCH	8

#define ROUB_CQ_ARMED	0

static struct roub_cq *roub_jfc_cq(struct ubcore_jfc *jfc)
{
	return (struct roub_cq *)(uintptr_t)jfc->cfg.user_ctx;
}

/* The JFC's completion event (any context but hard interrupts). */
static void roub_cq_comp(struct ubcore_jfc *jfc)
{
	struct roub_cq *cq = roub_jfc_cq(jfc);

	clear_bit(ROUB_CQ_ARMED, &cq->flags);
	if (cq->ibcq.comp_handler)
		cq->ibcq.comp_handler(&cq->ibcq, cq->ibcq.cq_context);
}

static void roub_cq_err_event(struct roub_cq *cq)
{
	struct ib_event ev = {
		.device = cq->ibcq.device,
		.element.cq = &cq->ibcq,
		.event = IB_EVENT_CQ_ERR,
	};

	if (cq->ibcq.event_handler)
		cq->ibcq.event_handler(&ev, cq->ibcq.cq_context);
}

/* JFC_ERR: the JFC overflowed (its records are lost). */
static void roub_cq_async(struct ubcore_event *event,
			  struct ubcore_ucontext *uctx)
{
	struct ubcore_jfc *jfc;

	if (event->type != UBCORE_EVENT_JFC_ERR)
		return;
	jfc = ubcore_find_get_jfc(event->dev, event->element.obj_id);
	if (!jfc)
		return;
	roub_cq_err_event(roub_jfc_cq(jfc));
	ubcore_obj_ref_put(&jfc->obj_ref);
}

int roub_create_cq(struct ib_cq *ibcq, const struct ib_cq_init_attr *attr,
		   struct ib_udata *udata)
{
	struct roub_dev *rdev = to_roub_dev(ibcq->device);
	struct roub_cq *cq = to_roub_cq(ibcq);
	struct ubcore_jfc_cfg cfg = {
		.jfce_handler = roub_cq_comp,
		.user_ctx = (uintptr_t)cq,
	};

	if (udata)
		return -EOPNOTSUPP;
	if (attr->flags || attr->cqe <= 0 ||
	    attr->cqe > rdev->ibdev.attrs.max_cqe)
		return -EINVAL;
	cfg.depth = attr->cqe;
	spin_lock_init(&cq->lock);
	cq->jfc = ubcore_create_jfc(rdev->ub_dev, &cfg, roub_cq_async, NULL);
	if (IS_ERR(cq->jfc))
		return PTR_ERR(cq->jfc);
	/*
	 * @sw holds the JFC's records moved ahead of made-up ones and the
	 * flushes of the QPs' requests, whose number the CQ's size bounds
	 * (verbs: a CQ must fit every completion it may get).
	 */
	cq->sw_size = roundup_pow_of_two(cq->jfc->cfg.depth + attr->cqe);
	cq->sw = kvcalloc(cq->sw_size, sizeof(*cq->sw), GFP_KERNEL);
	if (!cq->sw) {
		ubcore_delete_jfc(cq->jfc);
		return -ENOMEM;
	}
	ibcq->cqe = cq->jfc->cfg.depth;
	return 0;
}

int roub_destroy_cq(struct ib_cq *ibcq, struct ib_udata *udata)
{
	struct roub_cq *cq = to_roub_cq(ibcq);
	int ret;

	/* the core destroys a CQ only when no QP uses it */
	ret = ubcore_delete_jfc(cq->jfc);
	if (ret)
		return ret;
	kvfree(cq->sw);
	return 0;
}

/*
 * The WC of a record, or false when it is none: a queue's marker, a record
 * of a destroyed QP, or of a request roub flushed already. Under RCU
 * (the QP) and the CQ's lock (the queue's tail).
 */
static bool roub_cr_to_wc(struct roub_cq *cq, const struct ubcore_cr *cr,
			  struct ib_wc *wc)
{
	struct roub_dev *rdev = to_roub_dev(cq->ibcq.device);
	bool recv = cr->flag & UBCORE_CR_FLAG_RECV;
	enum ib_wc_status status;
	const struct roub_slot *slot;
	struct roub_qp *qp;
	struct roub_wq *wq;
	u32 seq, head;
	bool imm;

	if (!roub_wc_status(cr->status, &status))
		return false;
	qp = xa_load(&rdev->objs, cr->local_id);
	if (!qp)
		return false;
	wq = recv ? &qp->rq : &qp->sq;
	seq = (u32)cr->user_ctx;
	/* acquire: the slot was written before head */
	head = smp_load_acquire(&wq->head);
	if (seq - wq->tail >= head - wq->tail)
		return false;
	slot = &wq->slot[seq & (wq->size - 1)];
	memset(wc, 0, sizeof(*wc));
	wc->wr_id = slot->wr_id;
	wc->status = status;
	wc->qp = &qp->ibqp;
	wc->byte_len = cr->completion_len;
	wc->port_num = 1;
	if (recv) {
		wc->src_qp = cr->remote_id.id;
		if (status == IB_WC_SUCCESS &&
		    !roub_recv_wc_opcode(cr->opcode, &wc->opcode, &imm) && imm) {
			/* verbs immediate data is 32 bits, big-endian */
			wc->ex.imm_data = cpu_to_be32((u32)cr->imm_data);
			wc->wc_flags |= IB_WC_WITH_IMM;
		}
	} else {
		wc->opcode = slot->opcode;
	}
	/* RC completes in order: every request before @seq is done too */
	WRITE_ONCE(wq->tail, seq + 1);
	return true;
}

/* Room in @sw for one more, or a CQ_ERR event (the CQ was too small). */
static struct ib_wc *roub_cq_sw_next(struct roub_cq *cq)
{
	lockdep_assert_held(&cq->lock);
	if (cq->sw_head - cq->sw_tail >= cq->sw_size) {
		ibdev_warn_ratelimited(cq->ibcq.device, "CQ overflow: completion lost\n");
		roub_cq_err_event(cq);
		return NULL;
	}
	return &cq->sw[cq->sw_head & (cq->sw_size - 1)];
}

/*
 * Move records of the JFC into @sw, up to @max WCs; the CQ's lock held.
 * Returns the WCs moved.
 */
static u32 roub_cq_move(struct roub_cq *cq, u32 max)
{
	struct ubcore_cr cr[ROUB_POLL_BATCH];
	u32 moved = 0;
	struct ib_wc *wc;
	int n, i;

	rcu_read_lock();
	while (moved < max) {
		n = ubcore_poll_jfc(cq->jfc, ROUB_POLL_BATCH, cr);
		if (n <= 0)
			break;
		for (i = 0; i < n; i++) {
			wc = roub_cq_sw_next(cq);
			if (wc && roub_cr_to_wc(cq, &cr[i], wc)) {
				cq->sw_head++;
				moved++;
			}
		}
		if (n < ROUB_POLL_BATCH || max == 1)
			break;
	}
	rcu_read_unlock();
	return moved;
}

/**
 * roub_cq_drain_jfc() - move every record of the JFC into the CQ's queue
 * @cq: the CQ; its lock held
 *
 * Before made-up completions are added behind them.
 */
void roub_cq_drain_jfc(struct roub_cq *cq)
{
	roub_cq_move(cq, U32_MAX);
}

/**
 * roub_cq_add_wc() - a made-up completion
 * @cq: the CQ; its lock held
 * @qp: the request's QP
 * @wr_id: the request's
 * @opcode: a send's WC opcode, or IB_WC_RECV
 * @status: IB_WC_WR_FLUSH_ERR, or the error of a request that failed
 *	after its post returned
 */
void roub_cq_add_wc(struct roub_cq *cq, struct roub_qp *qp, u64 wr_id,
		    enum ib_wc_opcode opcode, enum ib_wc_status status)
{
	struct ib_wc *wc = roub_cq_sw_next(cq);

	if (!wc)
		return;
	memset(wc, 0, sizeof(*wc));
	wc->wr_id = wr_id;
	wc->status = status;
	wc->opcode = opcode;
	wc->qp = &qp->ibqp;
	wc->port_num = 1;
	cq->sw_head++;
}

/**
 * roub_cq_kick() - the event for made-up completions
 * @cq: the CQ; its lock not held (the handler may poll)
 */
void roub_cq_kick(struct roub_cq *cq)
{
	if (test_and_clear_bit(ROUB_CQ_ARMED, &cq->flags) &&
	    cq->ibcq.comp_handler)
		cq->ibcq.comp_handler(&cq->ibcq, cq->ibcq.cq_context);
}

/* Context: process or softirq, not hard interrupts (ubcore's rule). */
int roub_poll_cq(struct ib_cq *ibcq, int num, struct ib_wc *wc)
{
	struct roub_cq *cq = to_roub_cq(ibcq);
	struct ubcore_cr cr[ROUB_POLL_BATCH];
	int n = 0, got, want, i;

	spin_lock_bh(&cq->lock);
	while (n < num && cq->sw_tail != cq->sw_head)
		wc[n++] = cq->sw[cq->sw_tail++ & (cq->sw_size - 1)];
	rcu_read_lock();
	while (n < num) {
		want = min(num - n, ROUB_POLL_BATCH);
		got = ubcore_poll_jfc(cq->jfc, want, cr);
		if (got <= 0)
			break;
		for (i = 0; i < got; i++)
			if (roub_cr_to_wc(cq, &cr[i], &wc[n]))
				n++;
		if (got < want)
			break;
	}
	rcu_read_unlock();
	spin_unlock_bh(&cq->lock);
	return n;
}

int roub_req_notify_cq(struct ib_cq *ibcq, enum ib_cq_notify_flags flags)
{
	struct roub_cq *cq = to_roub_cq(ibcq);
	bool solicited = (flags & IB_CQ_SOLICITED_MASK) == IB_CQ_SOLICITED;
	int ret;

	set_bit(ROUB_CQ_ARMED, &cq->flags);
	ret = ubcore_rearm_jfc(cq->jfc, solicited);
	if (ret || !(flags & IB_CQ_REPORT_MISSED_EVENTS))
		return ret;
	/* a record that came before the rearm raised no event: look */
	spin_lock_bh(&cq->lock);
	if (cq->sw_tail == cq->sw_head)
		roub_cq_move(cq, 1);
	ret = cq->sw_tail != cq->sw_head;
	spin_unlock_bh(&cq->lock);
	return ret;
}
