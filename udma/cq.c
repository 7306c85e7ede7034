// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * Completions: writing CQEs into a JFC's CQ ring, the JFC_ERR of a full
 * CQ, and the completion events (JFCE) a rearm asks for.
 *
 * The ring rules (udma_abi.h): the kernel writes a CQE at pi, sets its
 * owner byte last, then advances ctrl->pi with a release store; userspace
 * advances ctrl->ci after reading (a kernel consumer advances the ring's
 * own ci under its lock). The kernel reads ci only to know the free space:
 * pi - ci must lie in [0, cnt); anything else (a full CQ, or a ci
 * userspace set out of range) is treated as full, and no CQE is ever
 * written over one the owner has not consumed.
 */
#include <linux/lockdep.h>
#include <linux/log2.h>
#include <linux/string.h>

#include <kunit/visibility.h>
#include <ub/ubcore_event.h>

#include "msg.h"
#include "udma.h"

static_assert(sizeof(struct udma_cqe) == UDMA_CQE_SIZE);

/* CQ ring locks nest inside SQ and RQ ring locks: a class of their own. */
static struct lock_class_key udma_cq_lock_key;

/**
 * udma_cq_init() - set up the completion side of a new JFC
 * @jfc: the JFC, its ring created
 *
 * Process context.
 */
void udma_cq_init(struct udma_jfc *jfc)
{
	lockdep_set_class(&jfc->cq->lock, &udma_cq_lock_key);
}
EXPORT_SYMBOL_IF_KUNIT(udma_cq_init);

static void udma_jfc_err_event(struct udma_jfc *jfc)
{
	struct ubcore_event ev = {
		.dev = jfc->base.ub_dev,
		.type = UBCORE_EVENT_JFC_ERR,
		.element.obj_id = jfc->base.id,
	};

	if (jfc->base.jfae_handler)
		jfc->base.jfae_handler(&ev, jfc->base.uctx);
}

static void udma_jfc_comp_event(struct udma_jfc *jfc)
{
	ubcore_comp_callback_t handler = jfc->base.cfg.jfce_handler;

	if (handler)
		handler(&jfc->base);
}

/*
 * The consumer index of the CQ: a user ring's ctrl->ci (untrusted: only a
 * bound of the free space), a kernel ring's own ci, which its kernel
 * consumer advances under the ring's lock (held by the caller).
 */
static u32 udma_cq_ci(const struct udma_jfc *jfc)
{
	lockdep_assert_held(&jfc->cq->lock);
	return jfc->base.uctx ? READ_ONCE(jfc->cq->ctrl->ci) : jfc->cq->ci;
}

/**
 * udma_cq_post() - write a CQE into a JFC's CQ ring
 * @jfc: the JFC
 * @cqe: the completion; its owner byte is ignored (set here)
 * @solicited: the completion is solicited (fires an arm with
 *	solicited_only)
 *
 * Under the CQ ring's lock: when the CQ has room, copies @cqe to the entry
 * at pi with the owner byte written last (after smp_wmb()), then publishes
 * pi + 1 with a release store. An armed JFC whose arm this CQE satisfies
 * is disarmed and its jfce_handler called once, after the lock is dropped.
 * When the CQ is full the CQE is dropped and JFC_ERR raised through the
 * JFC's jfae_handler, once until a CQE fits again.
 *
 * Context: any context (the lock is taken with interrupts disabled); the
 * handlers are called without it.
 * Return: 0, or -ENOSPC when the CQ is full.
 */
int udma_cq_post(struct udma_jfc *jfc, struct udma_cqe *cqe, bool solicited)
{
	struct udma_ring *cq = jfc->cq;
	bool fire = false, overflow = false;
	struct udma_cqe *dst;
	unsigned long flags;
	u32 pi, ci;
	u8 owner;

	spin_lock_irqsave(&cq->lock, flags);
	pi = cq->pi;
	ci = udma_cq_ci(jfc);
	if (pi - ci >= cq->entry_cnt) {
		overflow = !jfc->overflow;
		jfc->overflow = true;
		spin_unlock_irqrestore(&cq->lock, flags);
		if (overflow)
			udma_jfc_err_event(jfc);
		return -ENOSPC;
	}
	jfc->overflow = false;

	owner = ((pi >> ilog2(cq->entry_cnt)) & 1) ^ 1;
	dst = udma_ring_entry(cq, pi);
	/* The stale entry's owner is !owner: the copy leaves it invalid. */
	cqe->owner = !owner;
	memcpy(dst, cqe, sizeof(*cqe));
	smp_wmb();	/* the CQE before its owner byte */
	WRITE_ONCE(dst->owner, owner);
	cqe->owner = owner;
	cq->pi = pi + 1;
	/* Pairs with the owner's acquire of pi: the CQE is complete. */
	smp_store_release(&cq->ctrl->pi, pi + 1);

	if (jfc->armed && (!jfc->solicited_only || solicited)) {
		jfc->armed = false;
		fire = true;
	}
	spin_unlock_irqrestore(&cq->lock, flags);

	if (fire)
		udma_jfc_comp_event(jfc);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(udma_cq_post);

/**
 * udma_rearm_jfc() - ubcore_ops.rearm_jfc
 * @base: the JFC
 * @solicited_only: only a solicited CQE fires the event
 *
 * The next CQE (with @solicited_only: the next solicited one) calls the
 * JFC's jfce_handler once. A plain arm of a JFC that holds CQEs userspace
 * has not consumed (or whose ctrl->ci is out of range) fires at once
 * instead, so that a CQE written between the owner's last poll and its
 * rearm cannot be missed; the guide's "rearm fails while CQEs are unread"
 * would make that race the application's problem.
 *
 * Context: any context.
 * Return: 0, or -EINVAL for a JFC without a JFCE (no jfce_handler).
 */
int udma_rearm_jfc(struct ubcore_jfc *base, bool solicited_only)
{
	struct udma_jfc *jfc = to_udma_jfc(base);
	struct udma_ring *cq = jfc->cq;
	unsigned long flags;
	bool fire = false;

	if (!base->cfg.jfce_handler)
		return -EINVAL;
	spin_lock_irqsave(&cq->lock, flags);
	if (!solicited_only && cq->pi != udma_cq_ci(jfc)) {
		jfc->armed = false;
		fire = true;
	} else {
		jfc->armed = true;
		jfc->solicited_only = solicited_only;
	}
	spin_unlock_irqrestore(&cq->lock, flags);

	if (fire)
		udma_jfc_comp_event(jfc);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(udma_rearm_jfc);
