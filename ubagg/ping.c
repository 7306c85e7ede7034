// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * The urma_ping responder, as UMDK's kernel has it: a ubcore client that
 * gives each UB device whose EID table holds a primary EID of its
 * namespace's topology the well-known jetty 5 (RM, shared JFR, priority
 * 6). Every SEND_IMM it receives it sends back to the sender's jetty
 * (imported RM, CTP, token 0) as a SEND_IMM with the same immediate data
 * and payload; urma_ping matches the reply by the immediate data.
 *
 * Each device's state changes in its own work items, under its lock: the
 * sync work creates or deletes the jetty when the device's EIDs
 * (UBCORE_EVENT_EID_CHANGE) or the namespace's topology (a SET) change;
 * the completion work, queued by the JFCs' jfce_handler, answers. A
 * receive buffer answered stays with its reply until the reply's
 * completion, then goes back to the JFR. Kernel objects of ubcore use EID
 * index 0, so the replies come from that EID of the device.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>
#include <linux/workqueue.h>
#include <ub/ubcore_device.h>
#include <ub/ubcore_dp.h>
#include <ub/ubcore_event.h>
#include <ub/ubcore_jetty.h>
#include <ub/ubcore_segment.h>
#include <uapi/ub/ubcore_opcode.h>

#include "ubagg.h"

#define UBAGG_PING_JETTY_ID	5	/* UMDK's PING_WK_JETTY_ID */
#define UBAGG_PING_PRIORITY	6	/* as UMDK's responder and urma_ping */
#define UBAGG_PING_DEPTH	64	/* receive buffers (and replies) */
#define UBAGG_PING_MSG_MAX	4096	/* urma_ping -s beyond it is cut */
#define UBAGG_PING_PEERS	64	/* imported senders kept */
#define UBAGG_PING_BATCH	16
#define UBAGG_TP_CTP		1	/* urma_tp_type_t URMA_CTP */

/**
 * struct ubagg_ping_peer - an imported sender jetty
 * @node: on the device's @peers, most recently used first
 * @id: the sender's EID, uasid and jetty ID
 * @tjetty: the import
 * @inflight: replies posted to it whose completion has not come
 */
struct ubagg_ping_peer {
	struct list_head node;
	struct ubcore_jetty_id id;
	struct ubcore_tjetty *tjetty;
	u32 inflight;
};

/**
 * struct ubagg_ping - the responder of one UB device
 * @dev: the device
 * @node: on ubagg_pings, under ubagg_pings_lock
 * @eid_handler: queues @sync_work on UBCORE_EVENT_EID_CHANGE
 * @sync_work: creates or deletes the jetty to match the topology
 * @cq_work: answers what completed
 * @lock: protects everything below
 * @gone: the device is being removed: nothing is created any more
 * @failed: a reply failed (its peer went): the jetty may be in ERROR,
 *	so the completion work makes it anew
 * @buf: UBAGG_PING_DEPTH buffers of UBAGG_PING_MSG_MAX bytes
 * @token: the token ID of @seg
 * @seg: @buf, local access only
 * @send_jfc: the replies' completions
 * @recv_jfc: the requests' completions
 * @jfr: the receive queue of @jetty
 * @jetty: jetty 5, or NULL when the device has no primary EID
 * @slot_peer: per buffer, the peer its reply went to, or NULL when the
 *	buffer is posted for receiving
 * @peers: the imports, most recently used first
 * @npeers: entries of @peers
 */
struct ubagg_ping {
	struct ubcore_device *dev;
	struct list_head node;
	struct ubcore_event_handler eid_handler;
	struct work_struct sync_work;
	struct work_struct cq_work;
	struct mutex lock;	/* see above */
	bool gone;
	bool failed;
	void *buf;
	struct ubcore_token_id *token;
	struct ubcore_target_seg *seg;
	struct ubcore_jfc *send_jfc;
	struct ubcore_jfc *recv_jfc;
	struct ubcore_jfr *jfr;
	struct ubcore_jetty *jetty;
	struct ubagg_ping_peer *slot_peer[UBAGG_PING_DEPTH];
	struct list_head peers;
	u32 npeers;
};

/* Every device's responder, for the topology's changes. */
static LIST_HEAD(ubagg_pings);
static DEFINE_MUTEX(ubagg_pings_lock);	/* protects ubagg_pings */

/* The sync and completion works; imports in them may wait seconds. */
static struct workqueue_struct *ubagg_ping_wq;

static void ubagg_ping_comp(struct ubcore_jfc *jfc)
{
	struct ubagg_ping *p = (void *)(uintptr_t)jfc->cfg.user_ctx;

	queue_work(ubagg_ping_wq, &p->cq_work);
}

static void ubagg_ping_peer_free(struct ubagg_ping *p,
				 struct ubagg_ping_peer *peer)
{
	list_del(&peer->node);
	p->npeers--;
	if (ubcore_unimport_jetty(peer->tjetty))
		pr_warn("%s: unimport of a ping peer failed\n",
			p->dev->dev_name);
	kfree(peer);
}

/* The least recently used peer with no reply in flight, or NULL. */
static struct ubagg_ping_peer *ubagg_ping_idle_peer(struct ubagg_ping *p)
{
	struct ubagg_ping_peer *peer;

	list_for_each_entry_reverse(peer, &p->peers, node)
		if (!peer->inflight)
			return peer;
	return NULL;
}

/* The import of @id, found or made (the oldest idle one goes when full). */
static struct ubagg_ping_peer *ubagg_ping_peer(struct ubagg_ping *p,
					       const struct ubcore_jetty_id *id)
{
	struct ubcore_tjetty_cfg cfg = {
		.id = *id,
		.trans_mode = UBCORE_TP_RM,
		.type = UBCORE_TARGET_JETTY,
		.tp_type = UBAGG_TP_CTP,
	};
	struct ubagg_ping_peer *peer;

	lockdep_assert_held(&p->lock);
	list_for_each_entry(peer, &p->peers, node) {
		if (peer->id.id == id->id && peer->id.uasid == id->uasid &&
		    !memcmp(&peer->id.eid, &id->eid, sizeof(id->eid))) {
			list_move(&peer->node, &p->peers);
			return peer;
		}
	}
	if (p->npeers >= UBAGG_PING_PEERS) {
		peer = ubagg_ping_idle_peer(p);
		if (!peer)
			return NULL;
		ubagg_ping_peer_free(p, peer);
	}
	peer = kzalloc(sizeof(*peer), GFP_KERNEL);
	if (!peer)
		return NULL;
	peer->tjetty = ubcore_import_jetty(p->dev, &cfg, NULL);
	if (IS_ERR(peer->tjetty)) {
		pr_info_ratelimited("%s: cannot import ping sender %pI6c jetty %u: %ld\n",
				    p->dev->dev_name, &id->eid, id->id,
				    PTR_ERR(peer->tjetty));
		kfree(peer);
		return NULL;
	}
	peer->id = *id;
	list_add(&peer->node, &p->peers);
	p->npeers++;
	return peer;
}

static u64 ubagg_ping_slot_addr(struct ubagg_ping *p, u32 slot)
{
	return (uintptr_t)p->buf + (u64)slot * UBAGG_PING_MSG_MAX;
}

static int ubagg_ping_post_recv(struct ubagg_ping *p, u32 slot)
{
	struct ubcore_sge sge = {
		.addr = ubagg_ping_slot_addr(p, slot),
		.len = UBAGG_PING_MSG_MAX,
		.tseg = p->seg,
	};
	struct ubcore_jfr_wr wr = {
		.src = { .sge = &sge, .num_sge = 1 },
		.user_ctx = slot,
	};
	struct ubcore_jfr_wr *bad = NULL;

	p->slot_peer[slot] = NULL;
	return ubcore_post_jetty_recv_wr(p->jetty, &wr, &bad);
}

/* Send the request in buffer @slot back; false if it was not sent. */
static bool ubagg_ping_reply(struct ubagg_ping *p, const struct ubcore_cr *cr,
			     u32 slot)
{
	struct ubagg_ping_peer *peer = ubagg_ping_peer(p, &cr->remote_id);
	struct ubcore_sge sge = {
		.addr = ubagg_ping_slot_addr(p, slot),
		.len = min_t(u32, cr->completion_len, UBAGG_PING_MSG_MAX),
		.tseg = p->seg,
	};
	struct ubcore_jfs_wr wr = {
		.opcode = UBCORE_OPC_SEND_IMM,
		.flag.bs.complete_enable = 1,
		.user_ctx = slot,
		.send = {
			.src = { .sge = &sge, .num_sge = 1 },
			.imm_data = cr->imm_data,
		},
	};
	struct ubcore_jfs_wr *bad = NULL;

	if (!peer)
		return false;
	wr.tjetty = peer->tjetty;
	if (ubcore_post_jetty_send_wr(p->jetty, &wr, &bad))
		return false;
	peer->inflight++;
	p->slot_peer[slot] = peer;
	return true;
}

static void ubagg_ping_on_recv(struct ubagg_ping *p, const struct ubcore_cr *cr)
{
	u32 slot = cr->user_ctx;

	if (slot >= UBAGG_PING_DEPTH || cr->status == UBCORE_CR_WR_FLUSH_ERR)
		return;
	/* urma_ping sends SEND_IMM only; anything else is not answered */
	if (cr->status == UBCORE_CR_SUCCESS && (cr->flag & UBCORE_CR_FLAG_IMM) &&
	    ubagg_ping_reply(p, cr, slot))
		return;
	if (ubagg_ping_post_recv(p, slot))
		pr_warn_ratelimited("%s: ping receive buffer %u not posted\n",
				    p->dev->dev_name, slot);
}

static void ubagg_ping_on_send(struct ubagg_ping *p, const struct ubcore_cr *cr)
{
	u32 slot = cr->user_ctx;

	if (slot >= UBAGG_PING_DEPTH || !p->slot_peer[slot])
		return;
	p->slot_peer[slot]->inflight--;
	if (cr->status != UBCORE_CR_SUCCESS) {
		p->failed = true;
		return;
	}
	if (ubagg_ping_post_recv(p, slot))
		pr_warn_ratelimited("%s: ping receive buffer %u not posted\n",
				    p->dev->dev_name, slot);
}

/* Answer what the JFCs hold; returns how many records there were. */
static int ubagg_ping_drain(struct ubagg_ping *p)
{
	struct ubcore_cr cr[UBAGG_PING_BATCH];
	int n, i, total = 0;

	while ((n = ubcore_poll_jfc(p->recv_jfc, UBAGG_PING_BATCH, cr)) > 0) {
		for (i = 0; i < n; i++)
			ubagg_ping_on_recv(p, &cr[i]);
		total += n;
	}
	while ((n = ubcore_poll_jfc(p->send_jfc, UBAGG_PING_BATCH, cr)) > 0) {
		for (i = 0; i < n; i++)
			ubagg_ping_on_send(p, &cr[i]);
		total += n;
	}
	return total;
}

static void ubagg_ping_destroy(struct ubagg_ping *p)
{
	struct ubagg_ping_peer *peer, *tmp;

	lockdep_assert_held(&p->lock);
	if (!p->jetty)
		return;
	ubcore_delete_jetty(p->jetty);
	p->jetty = NULL;
	list_for_each_entry_safe(peer, tmp, &p->peers, node)
		ubagg_ping_peer_free(p, peer);
	memset(p->slot_peer, 0, sizeof(p->slot_peer));
	p->failed = false;
	ubcore_delete_jfr(p->jfr);
	ubcore_delete_jfc(p->recv_jfc);
	ubcore_delete_jfc(p->send_jfc);
	ubcore_unregister_seg(p->seg);
	ubcore_free_token_id(p->token);
	vfree(p->buf);
	p->buf = NULL;
}

static struct ubcore_jfc *ubagg_ping_jfc(struct ubagg_ping *p)
{
	struct ubcore_jfc_cfg cfg = {
		.depth = UBAGG_PING_DEPTH,
		.jfce_handler = ubagg_ping_comp,
		.user_ctx = (uintptr_t)p,
	};

	return ubcore_create_jfc(p->dev, &cfg, NULL, NULL);
}

/* The buffers, their segment and the JFCs (undone by the caller). */
static int ubagg_ping_create_mem(struct ubagg_ping *p)
{
	struct ubcore_seg_cfg seg_cfg = {
		.len = (u64)UBAGG_PING_DEPTH * UBAGG_PING_MSG_MAX,
		.flag = UBCORE_ACCESS_LOCAL_ONLY << 5,
	};

	p->buf = vzalloc(seg_cfg.len);
	if (!p->buf)
		return -ENOMEM;
	p->token = ubcore_alloc_token_id(p->dev, 0, NULL);
	if (IS_ERR(p->token))
		return PTR_ERR(p->token);
	seg_cfg.va = (uintptr_t)p->buf;
	seg_cfg.token_id = p->token;
	p->seg = ubcore_register_seg(p->dev, &seg_cfg, NULL);
	if (IS_ERR(p->seg))
		return PTR_ERR(p->seg);
	p->send_jfc = ubagg_ping_jfc(p);
	if (IS_ERR(p->send_jfc))
		return PTR_ERR(p->send_jfc);
	p->recv_jfc = ubagg_ping_jfc(p);
	return PTR_ERR_OR_ZERO(p->recv_jfc);
}

static int ubagg_ping_create_jetty(struct ubagg_ping *p)
{
	struct ubcore_jfr_cfg jfr_cfg = {
		.depth = UBAGG_PING_DEPTH,
		.trans_mode = UBCORE_TP_RM,
		.max_sge = 1,
		.jfc = p->recv_jfc,
	};
	struct ubcore_jetty_cfg jetty_cfg = {
		.id = UBAGG_PING_JETTY_ID,
		.flag = UBCORE_JETTY_SHARE_JFR,
		.jfs_cfg = {
			.depth = UBAGG_PING_DEPTH,
			.trans_mode = UBCORE_TP_RM,
			.priority = UBAGG_PING_PRIORITY,
			.max_sge = 1,
			.max_rsge = 1,
			.jfc = p->send_jfc,
		},
		.recv_jfc = p->recv_jfc,
	};

	p->jfr = ubcore_create_jfr(p->dev, &jfr_cfg, NULL, NULL);
	if (IS_ERR(p->jfr))
		return PTR_ERR(p->jfr);
	jetty_cfg.jfr = p->jfr;
	p->jetty = ubcore_create_jetty(p->dev, &jetty_cfg, NULL, NULL);
	if (IS_ERR(p->jetty)) {
		ubcore_delete_jfr(p->jfr);
		p->jfr = NULL;
		return PTR_ERR(p->jetty);
	}
	return 0;
}

/* Undo a partial ubagg_ping_create_mem() (NULL or ERR_PTR members). */
static void ubagg_ping_free_mem(struct ubagg_ping *p)
{
	if (!IS_ERR_OR_NULL(p->recv_jfc))
		ubcore_delete_jfc(p->recv_jfc);
	if (!IS_ERR_OR_NULL(p->send_jfc))
		ubcore_delete_jfc(p->send_jfc);
	if (!IS_ERR_OR_NULL(p->seg))
		ubcore_unregister_seg(p->seg);
	if (!IS_ERR_OR_NULL(p->token))
		ubcore_free_token_id(p->token);
	vfree(p->buf);
	p->buf = NULL;
	p->recv_jfc = NULL;
	p->send_jfc = NULL;
	p->seg = NULL;
	p->token = NULL;
}

static int ubagg_ping_create(struct ubagg_ping *p)
{
	int ret;
	u32 i;

	lockdep_assert_held(&p->lock);
	ret = ubagg_ping_create_mem(p);
	if (!ret)
		ret = ubagg_ping_create_jetty(p);
	if (ret) {
		p->jetty = NULL;
		ubagg_ping_free_mem(p);
		return ret;
	}
	for (i = 0; i < UBAGG_PING_DEPTH; i++) {
		ret = ubagg_ping_post_recv(p, i);
		if (ret) {
			ubagg_ping_destroy(p);
			return ret;
		}
	}
	ubcore_rearm_jfc(p->recv_jfc, false);
	ubcore_rearm_jfc(p->send_jfc, false);
	return 0;
}

static void ubagg_ping_cq_work(struct work_struct *work)
{
	struct ubagg_ping *p = container_of(work, struct ubagg_ping, cq_work);

	mutex_lock(&p->lock);
	if (p->jetty) {
		/* rearm, then drain again: what came in between is answered */
		do {
			ubagg_ping_drain(p);
			ubcore_rearm_jfc(p->recv_jfc, false);
			ubcore_rearm_jfc(p->send_jfc, false);
		} while (ubagg_ping_drain(p));
	}
	/* a failed reply left the jetty in ERROR: start again */
	if (p->failed && p->jetty) {
		p->failed = false;
		pr_info_ratelimited("%s: a ping reply failed: jetty %u made anew\n",
				    p->dev->dev_name, UBAGG_PING_JETTY_ID);
		ubagg_ping_destroy(p);
		if (ubagg_ping_create(p))
			pr_warn("%s: no urma_ping responder any more\n",
				p->dev->dev_name);
	}
	mutex_unlock(&p->lock);
}

/* Whether the device has a primary EID of its namespace's topology. */
static bool ubagg_ping_wanted(struct ubagg_ping *p)
{
	struct net *net = maybe_get_net(ubcore_dev_net(p->dev));
	struct ubagg_topo *topo;
	union ubcore_eid eid;
	bool found = false;
	u32 i;

	if (!net)	/* the namespace is going: so is the device */
		return false;
	topo = ubagg_topo_get(net);
	put_net(net);
	if (!topo)
		return false;
	for (i = 0; i < UBCORE_MAX_EID_CNT && !found; i++)
		found = !ubcore_get_eid(p->dev, i, &eid) &&
			ubagg_topo_is_primary(topo, &eid);
	ubagg_topo_put(topo);
	return found;
}

static void ubagg_ping_sync_work(struct work_struct *work)
{
	struct ubagg_ping *p = container_of(work, struct ubagg_ping, sync_work);
	bool want = ubagg_ping_wanted(p);
	int ret;

	mutex_lock(&p->lock);
	if (p->gone || want == !!p->jetty)
		goto out;
	if (!want) {
		ubagg_ping_destroy(p);
		goto out;
	}
	ret = ubagg_ping_create(p);
	if (ret)
		pr_warn("%s: no urma_ping responder (jetty %u): %d\n",
			p->dev->dev_name, UBAGG_PING_JETTY_ID, ret);
out:
	mutex_unlock(&p->lock);
}

static void ubagg_ping_eid_event(struct ubcore_event_handler *h,
				 const struct ubcore_event *ev)
{
	struct ubagg_ping *p = container_of(h, struct ubagg_ping, eid_handler);

	if (ev->type == UBCORE_EVENT_EID_CHANGE)
		queue_work(ubagg_ping_wq, &p->sync_work);
}

/**
 * ubagg_ping_topo_changed() - a namespace's topology changed
 * @net: the namespace
 *
 * Each of its devices' responders follows, in its sync work.
 *
 * Context: process context, may sleep.
 */
void ubagg_ping_topo_changed(struct net *net)
{
	struct ubagg_ping *p;

	mutex_lock(&ubagg_pings_lock);
	list_for_each_entry(p, &ubagg_pings, node)
		if (net_eq(ubcore_dev_net(p->dev), net))
			queue_work(ubagg_ping_wq, &p->sync_work);
	mutex_unlock(&ubagg_pings_lock);
}

static struct ubcore_client ubagg_client;

static int ubagg_ping_add(struct ubcore_device *dev)
{
	struct ubagg_ping *p = kzalloc(sizeof(*p), GFP_KERNEL);

	if (!p)
		return -ENOMEM;
	p->dev = dev;
	mutex_init(&p->lock);
	INIT_LIST_HEAD(&p->peers);
	INIT_WORK(&p->sync_work, ubagg_ping_sync_work);
	INIT_WORK(&p->cq_work, ubagg_ping_cq_work);
	p->eid_handler.event_handler = ubagg_ping_eid_event;
	ubcore_set_client_ctx(dev, &ubagg_client, p);
	mutex_lock(&ubagg_pings_lock);
	list_add(&p->node, &ubagg_pings);
	mutex_unlock(&ubagg_pings_lock);
	ubcore_register_event_handler(dev, &p->eid_handler);
	queue_work(ubagg_ping_wq, &p->sync_work);
	return 0;
}

static void ubagg_ping_remove(struct ubcore_device *dev, void *ctx)
{
	struct ubagg_ping *p = ctx;

	/* nothing queues the sync work after these two */
	mutex_lock(&ubagg_pings_lock);
	list_del(&p->node);
	mutex_unlock(&ubagg_pings_lock);
	ubcore_unregister_event_handler(dev, &p->eid_handler);
	cancel_work_sync(&p->sync_work);
	mutex_lock(&p->lock);
	p->gone = true;
	ubagg_ping_destroy(p);
	mutex_unlock(&p->lock);
	/* the JFCs are gone: no handler queues it again */
	cancel_work_sync(&p->cq_work);
	mutex_destroy(&p->lock);
	kfree(p);
}

static struct ubcore_client ubagg_client = {
	.name = "ubagg",
	.add = ubagg_ping_add,
	.remove = ubagg_ping_remove,
};

/**
 * ubagg_ping_init() - register the responder's client
 *
 * Return: 0 or a negative errno.
 */
int ubagg_ping_init(void)
{
	int ret;

	ubagg_ping_wq = alloc_workqueue("ubagg_ping", WQ_UNBOUND, 0);
	if (!ubagg_ping_wq)
		return -ENOMEM;
	ret = ubcore_register_client(&ubagg_client);
	if (ret)
		destroy_workqueue(ubagg_ping_wq);
	return ret;
}

/** ubagg_ping_exit() - remove every responder */
void ubagg_ping_exit(void)
{
	ubcore_unregister_client(&ubagg_client);
	destroy_workqueue(ubagg_ping_wq);
}
