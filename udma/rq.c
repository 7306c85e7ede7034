// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * Receive queues: the target side takes one RQE off a JFR's RQ ring for
 * each SEND, SEND_WITH_IMM and WRITE_WITH_IMM it delivers.
 *
 * The ring rules are those of struct udma_ring (udma.h): a user JFR's
 * producer index is ctrl->pi, written by userspace, read once per take
 * (acquire) and trusted only as far as pi - ci <= entry_cnt; a kernel JFR's
 * is ring->pi, written by the kernel client under ring->lock. The RQE is
 * copied out of the ring before anyone looks at it, ci advances under
 * ring->lock and is published in ctrl->ci (release), so that userspace may
 * reuse the entry once it sees the new ci.
 */
#include <linux/build_bug.h>
#include <linux/spinlock.h>
#include <linux/string.h>

#include <ub/ubcore_event.h>

#include <kunit/visibility.h>

#include "target.h"

static_assert(sizeof(struct udma_rqe) <= UDMA_RQE_SIZE);

static void udma_jfr_event(struct ubcore_jfr *jfr, enum ubcore_event_type type)
{
	struct ubcore_event event = {
		.dev = jfr->ub_dev,
		.type = type,
		.element.obj_id = jfr->id,
	};

	if (jfr->jfae_handler)
		jfr->jfae_handler(&event, jfr->uctx);
}

/*
 * A user JFR's RQ is empty: ask its owner for a doorbell with the next RQEs
 * (struct udma_ring_ctrl.db_wanted), then read pi again, in case they were
 * posted before the owner could see the flag. Returns the RQEs posted now.
 */
static u32 udma_rq_want_doorbell(struct udma_ring *rq, u32 *pi, u32 ci)
{
	WRITE_ONCE(rq->ctrl->db_wanted, 1);
	smp_mb();	/* the flag before the second look at pi */
	*pi = smp_load_acquire(&rq->ctrl->pi);
	return *pi - ci;
}

/**
 * udma_rq_take() - take the next RQE of a JFR
 * @jfr: a JFR the caller holds a reference on
 * @rqe: out: a copy of the RQE (not validated)
 * @posted: out, with UDMA_RQ_TAKEN: RQEs still posted after this one
 *
 * A producer index more than the ring's size ahead of the consumer index
 * is a corrupt ring: the JFR goes to ERROR and its owner gets JFR_ERR.
 * When the posted RQEs drop below the JFR's rx_threshold (if set), the
 * owner gets JFR_LIMIT, once for each time the count crosses it. Events are
 * raised after the ring lock is dropped.
 *
 * Context: any context but hard interrupt; takes the ring's lock with
 * bottom halves disabled.
 * Return: UDMA_RQ_TAKEN, UDMA_RQ_EMPTY (nothing posted, nothing changed) or
 * UDMA_RQ_ERROR (the JFR is not READY).
 */
enum udma_rq_result udma_rq_take(struct udma_jfr *jfr, struct udma_rqe *rqe,
				 u32 *posted)
{
	struct ubcore_jfr *base = &jfr->base;
	struct udma_ring *rq = jfr->rq;
	enum udma_rq_result ret;
	bool corrupt = false;
	bool limit = false;
	u32 pi, ci, before, thr;

	spin_lock_bh(&rq->lock);
	if (READ_ONCE(base->state) != UBCORE_JFR_STATE_READY) {
		ret = UDMA_RQ_ERROR;
		goto unlock;
	}
	/* pairs with userspace's release of pi after writing the RQEs */
	pi = base->uctx ? smp_load_acquire(&rq->ctrl->pi) : rq->pi;
	ci = rq->ci;
	before = pi - ci;
	if (!before && base->uctx)
		before = udma_rq_want_doorbell(rq, &pi, ci);
	if (before > rq->entry_cnt) {
		WRITE_ONCE(base->state, UBCORE_JFR_STATE_ERROR);
		corrupt = true;
		ret = UDMA_RQ_ERROR;
		goto unlock;
	}
	if (!before) {
		ret = UDMA_RQ_EMPTY;
		goto unlock;
	}
	memcpy(rqe, udma_ring_entry(rq, rq->ci), sizeof(*rqe));
	rq->ci++;
	/* the copy is done before userspace may reuse the entry */
	smp_store_release(&rq->ctrl->ci, rq->ci);
	*posted = before - 1;
	thr = READ_ONCE(base->rx_threshold);
	limit = thr && before >= thr && before - 1 < thr;
	ret = UDMA_RQ_TAKEN;
unlock:
	spin_unlock_bh(&rq->lock);

	if (corrupt) {
		dev_dbg_ratelimited(&base->ub_dev->dev,
				    "jfr %u: producer index %u, consumer index %u: queue error\n",
				    base->id, pi, ci);
		udma_jfr_event(base, UBCORE_EVENT_JFR_ERR);
	}
	if (limit)
		udma_jfr_event(base, UBCORE_EVENT_JFR_LIMIT);
	return ret;
}
EXPORT_SYMBOL_IF_KUNIT(udma_rq_take);
