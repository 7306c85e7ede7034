// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * TPs a user context asked for before it imported anything. UMDK's
 * urma_get_tp_list() gets the TPs of an EID pair from the control plane,
 * which makes them when there are none (its perftest --tp_aware, Ascend's
 * MAMI path): the handles go to the peer out of band and the imports then
 * name them (urma_import_jetty_ex()). Here the connection manager makes an
 * RM TP at the first import; asked first, it opens the TP with no target
 * (UBOE_MGMT_TARGET_NONE, which the peer accepts for RM only: a TP alone
 * gives access to nothing, and each import that joins it is checked by
 * the peer on its own) and the context holds it until it is freed. RC TPs
 * belong to a bound jetty pair, so they are not made here.
 */
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/slab.h>

#include <ub/ubcore_uobj.h>
#include <uapi/ub/uboe_wire.h>

#include "tp.h"
#include "ubcore_priv.h"

/* A context holds at most this many TPs (one per peer EID and local EID). */
#define UBCORE_HELD_TP_MAX	64

/**
 * struct ubcore_tp_hold - a TP a user context holds
 * @node: in uctx->held_tps
 * @tp: a user reference of ubcore_tp_open()
 */
struct ubcore_tp_hold {
	struct list_head node;
	struct ubcore_tp *tp;
};

/* Drops the holds whose TP is gone (peer lost, closed by the peer). */
static void held_prune(struct ubcore_ucontext *uctx)
{
	struct ubcore_tp_hold *h, *next;

	lockdep_assert_held(&uctx->held_lock);
	list_for_each_entry_safe(h, next, &uctx->held_tps, node) {
		if (ubcore_tp_is_usable(h->tp))
			continue;
		list_del(&h->node);
		uctx->held_cnt--;
		ubcore_tp_close(h->tp);
		kfree(h);
	}
}

static bool held_has(struct ubcore_ucontext *uctx, const struct ubcore_tp_key *key)
{
	struct ubcore_tp_hold *h;

	list_for_each_entry(h, &uctx->held_tps, node)
		if (!memcmp(&h->tp->key, key, sizeof(*key)))
			return true;
	return false;
}

/**
 * ubcore_hold_tp() - open the RM TP of an EID pair for a user context
 * @uctx: the context; it holds the TP until ubcore_free_ucontext()
 * @cfg: one of the device's EIDs, the peer's EID, trans_mode UBCORE_TP_RM
 *
 * Does nothing when @uctx already holds that TP and it is established.
 *
 * Context: process context; sleeps for up to the connection timeout.
 * Return: 0, -EINVAL (not RM), -EADDRNOTAVAIL (@cfg's local EID is not the
 * device's), -ENOSPC (@uctx holds UBCORE_HELD_TP_MAX TPs), -ENOMEM or
 * ubcore_tp_open()'s error. Each failure is logged.
 */
int ubcore_hold_tp(struct ubcore_ucontext *uctx, const struct ubcore_get_tp_cfg *cfg)
{
	struct ubcore_device *dev = uctx->ub_dev;
	struct ubcore_tp_target target = { .type = UBOE_MGMT_TARGET_NONE };
	struct ubcore_tp_key key = {
		.local = cfg->local_eid,
		.remote = cfg->peer_eid,
		.mode = UBOE_MGMT_TM_RM,
	};
	struct ubcore_tp_hold *h;
	int ret;

	if (cfg->trans_mode != UBCORE_TP_RM)
		return ubcore_inval(dev, "hold_tp: trans_mode 0x%x", cfg->trans_mode);
	if (!ubcore_eid_is_mine(dev, cfg->local_eid.raw)) {
		dev_info_ratelimited(&dev->dev, "get_tp_list: %pI6c is not an EID of this device\n",
				     cfg->local_eid.raw);
		return -EADDRNOTAVAIL;
	}
	h = kzalloc(sizeof(*h), GFP_KERNEL_ACCOUNT);
	if (!h)
		return -ENOMEM;
	mutex_lock(&uctx->held_lock);
	held_prune(uctx);
	if (held_has(uctx, &key)) {
		ret = 0;
		goto out_free;
	}
	if (uctx->held_cnt >= UBCORE_HELD_TP_MAX) {
		dev_info_ratelimited(&dev->dev, "get_tp_list: the context holds %u TPs already\n",
				     uctx->held_cnt);
		ret = -ENOSPC;
		goto out_free;
	}
	ret = ubcore_tp_open(dev, &key, &target, &h->tp);
	if (ret)
		goto out_free;
	list_add_tail(&h->node, &uctx->held_tps);
	uctx->held_cnt++;
	mutex_unlock(&uctx->held_lock);
	/*
	 * A TP to the device's own EID has both ends here, and its target
	 * end is established by the CONN_ACK that this end queued to the
	 * manager's work before the open returned: once that work ran, the
	 * caller's listing finds both ends.
	 */
	if (!memcmp(cfg->local_eid.raw, cfg->peer_eid.raw, UBCORE_EID_SIZE))
		ubcore_cm_drain(dev);
	return 0;

out_free:
	mutex_unlock(&uctx->held_lock);
	kfree(h);
	return ret;
}
EXPORT_SYMBOL_GPL(ubcore_hold_tp);

/* Gives back every TP @uctx holds. Context: process context; may sleep. */
void ubcore_release_held_tps(struct ubcore_ucontext *uctx)
{
	struct ubcore_tp_hold *h, *next;

	mutex_lock(&uctx->held_lock);
	list_for_each_entry_safe(h, next, &uctx->held_tps, node) {
		list_del(&h->node);
		ubcore_tp_close(h->tp);
		kfree(h);
	}
	uctx->held_cnt = 0;
	mutex_unlock(&uctx->held_lock);
}
