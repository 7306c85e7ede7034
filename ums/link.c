// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * Link groups and their link (link.h): creation, the bind of the two RC
 * jetties, LLC Confirm Link, the completion tasklet, the lookup of a link
 * for the next connection between the same pair, and the end of a link
 * (no connection left for UMS_LINK_LINGER, a failed link, the device
 * removed, the module unloaded).
 *
 * Every link group is on ums_lgr_list from creation to termination;
 * lookups take only the active ones. ums_lgr_mutex protects the list.
 * A connection's place on a link (conn_cnt) is taken by the lookup or
 * the creation that finds the link for it, so that no more than
 * UMS_LINK_CONNS share it and the linger timer does not end a link a
 * handshake is about to use.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/idr.h>
#include <linux/random.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>

#include <ub/ubcore_eid.h>
#include <ub/ubcore_jetty.h>

#include "link.h"
#include "ums.h"

/* ums_lgr_mutex protects ums_lgr_list: every link group not terminated */
DEFINE_MUTEX(ums_lgr_mutex);
LIST_HEAD(ums_lgr_list);
static DEFINE_IDA(ums_lgr_ida);
/* Completion records taken per poll (receive user_ctx: the buffer index) */
#define UMS_POLL_BATCH		16
/* Polls of a tasklet run before it lets other softirq work go first. */
#define UMS_POLL_BUDGET		4

/*
 * The JFC's completion event, from udma's receive softirq for a CDC that
 * arrived, or from the context that completed a send: the tasklet polls,
 * in softirq right after (as SMC-R's tasklets do), with no worker to wake
 * between a CDC and the reader it wakes.
 */
static void ums_lgr_comp(struct ubcore_jfc *jfc)
{
	struct ums_lgr *lgr = (void *)(uintptr_t)jfc->cfg.user_ctx;

	tasklet_schedule(&lgr->cq_tasklet);
}

static int ums_lgr_post_rx(struct ums_lgr *lgr, u32 idx)
{
	struct ubcore_sge sge = {
		.addr = (uintptr_t)lgr->rx_mem + idx * UMS_RX_BUF,
		.len = UMS_RX_BUF,
		.tseg = lgr->rx_seg,
	};
	struct ubcore_jfr_wr wr = {
		.src = { .sge = &sge, .num_sge = 1 },
		.user_ctx = idx,
	};
	struct ubcore_jfr_wr *bad;

	return ubcore_post_jetty_recv_wr(lgr->jetty, &wr, &bad);
}

static void ums_lgr_rx_llc(struct ums_lgr *lgr, const void *buf, u32 len)
{
	struct ums_llc_confirm cl;

	if (ums_llc_parse_confirm(buf, len, &cl)) {
		pr_warn_ratelimited("link %u: malformed LLC message\n", lgr->id);
		return;
	}
	spin_lock_bh(&lgr->lock);
	lgr->llc = cl;
	lgr->llc_got = true;
	spin_unlock_bh(&lgr->lock);
	wake_up_all(&lgr->llc_wait);
}

static void ums_lgr_fail(struct ums_lgr *lgr)
{
	kref_get(&lgr->ref);
	if (!queue_work(ums_wq, &lgr->term_work))
		ums_lgr_put(lgr);
}

/* One completion record; in the completion tasklet. */
static void ums_lgr_cqe(struct ums_lgr *lgr, const struct ubcore_cr *cr)
{
	u32 idx = cr->user_ctx;
	const u8 *buf;

	if (cr->status != UBCORE_CR_SUCCESS) {
		if (!READ_ONCE(lgr->dead))
			pr_info("link %u: completion status %d: link down\n",
				lgr->id, cr->status);
		ums_lgr_fail(lgr);
		return;
	}
	if (!(cr->flag & UBCORE_CR_FLAG_RECV)) {
		ums_cdc_sent(lgr, cr->user_ctx);
		return;
	}
	if (idx >= UMS_RX_DEPTH)
		return;
	buf = lgr->rx_mem + idx * UMS_RX_BUF;
	switch (ums_msg_type(buf, cr->completion_len)) {
	case UMS_CDC_MSG:
		ums_cdc_recv(lgr, buf, cr->completion_len);
		break;
	case UMS_LLC_CONFIRM_LINK:
		ums_lgr_rx_llc(lgr, buf, cr->completion_len);
		break;
	default:
		pr_warn_ratelimited("link %u: malformed message dropped\n",
				    lgr->id);
	}
	if (ums_lgr_post_rx(lgr, idx))
		ums_lgr_fail(lgr);
}

/* The completion tasklet: polls @jfc, within a budget, then rearms it. */
static void ums_lgr_cq_tasklet(struct tasklet_struct *t)
{
	struct ums_lgr *lgr = from_tasklet(lgr, t, cq_tasklet);
	struct ubcore_cr cr[UMS_POLL_BATCH];
	int n, i, polls = 0;
	bool off;

	spin_lock(&lgr->lock);
	off = lgr->cq_off;
	spin_unlock(&lgr->lock);
	/* (ums_lgr_destroy() waits for a tasklet that found it on) */
	if (off)
		return;
	do {
		n = ubcore_poll_jfc(lgr->jfc, UMS_POLL_BATCH, cr);
		for (i = 0; i < n; i++)
			ums_lgr_cqe(lgr, &cr[i]);
	} while (n == UMS_POLL_BATCH && ++polls < UMS_POLL_BUDGET);
	if (n == UMS_POLL_BATCH)
		tasklet_schedule(&lgr->cq_tasklet);
	else
		/* a JFC holding unread records fires again at once */
		ubcore_rearm_jfc(lgr->jfc, false);
	WRITE_ONCE(lgr->cq_polls, lgr->cq_polls + 1);
	wake_up_all(&lgr->sq_wait);
}

/*
 * Delete the ubcore objects of @lgr and of its connections (segments,
 * imports): the link is dead. Process context; not in the completion
 * work.
 */
static void ums_lgr_destroy(struct ums_lgr *lgr)
{
	struct ums_buf *buf, *tmp;
	struct ums_conn *conn;
	unsigned long token;

	spin_lock_bh(&lgr->lock);
	lgr->dead = true;
	lgr->cq_off = true;
	spin_unlock_bh(&lgr->lock);
	wake_up_all(&lgr->llc_wait);
	wake_up_all(&lgr->sq_wait);
	/* a tasklet that found the objects there is done with them */
	tasklet_kill(&lgr->cq_tasklet);

	down_write(&lgr->dp_sem);
	if (lgr->destroyed)
		goto out;
	lgr->destroyed = true;
	if (lgr->tjetty) {
		ubcore_unbind_jetty(lgr->jetty);
		ubcore_unimport_jetty(lgr->tjetty);
	}
	if (!IS_ERR_OR_NULL(lgr->jetty))
		ubcore_delete_jetty(lgr->jetty);
	if (!IS_ERR_OR_NULL(lgr->jfr))
		ubcore_delete_jfr(lgr->jfr);
	if (!IS_ERR_OR_NULL(lgr->jfc))
		ubcore_delete_jfc(lgr->jfc);
	xa_for_each(&lgr->conns, token, conn)
		ums_conn_release_objects(conn);
	list_for_each_entry_safe(buf, tmp, &lgr->free_bufs, node) {
		list_del(&buf->node);
		ums_buf_free(buf);
	}
	if (!IS_ERR_OR_NULL(lgr->rx_seg))
		ubcore_unregister_seg(lgr->rx_seg);
	if (!IS_ERR_OR_NULL(lgr->token))
		ubcore_free_token_id(lgr->token);
out:
	up_write(&lgr->dp_sem);
	/* one scheduled before the JFC went has run before the group goes */
	tasklet_kill(&lgr->cq_tasklet);
}

static void ums_lgr_free_work(struct work_struct *work)
{
	struct ums_lgr *lgr = container_of(work, struct ums_lgr, free_work);

	cancel_delayed_work_sync(&lgr->linger_work);
	ums_lgr_destroy(lgr);
	WARN_ON(!xa_empty(&lgr->conns));
	xa_destroy(&lgr->conns);
	vfree(lgr->rx_mem);
	ida_free(&ums_lgr_ida, lgr->id);
	ubcore_put_device(lgr->dev);
	kfree(lgr);
}

static void ums_lgr_release(struct kref *ref)
{
	struct ums_lgr *lgr = container_of(ref, struct ums_lgr, ref);

	/* a put may come from the completion tasklet, which the free kills */
	queue_work(ums_wq, &lgr->free_work);
}

/**
 * ums_lgr_put() - drop a reference to a link group
 * @lgr: the group
 *
 * The last one frees it (in a work item). Any context but hard irq.
 */
void ums_lgr_put(struct ums_lgr *lgr)
{
	kref_put(&lgr->ref, ums_lgr_release);
}

/*
 * End @lgr: off the list (dropping the list's reference), its objects
 * deleted, every connection on it reset. @linger: called by the linger
 * work itself, which is not to be waited for.
 */
static void __ums_lgr_terminate(struct ums_lgr *lgr, bool linger)
{
	bool listed;

	mutex_lock(&ums_lgr_mutex);
	listed = !list_empty(&lgr->node);
	list_del_init(&lgr->node);
	mutex_unlock(&ums_lgr_mutex);
	if (!linger)
		cancel_delayed_work_sync(&lgr->linger_work);
	ums_lgr_destroy(lgr);
	ums_conn_reset_all(lgr);
	if (listed)
		ums_lgr_put(lgr);
}

/**
 * ums_lgr_terminate() - end a link group now
 * @lgr: the group, held by the caller
 *
 * Its sockets get ECONNRESET; connections without a socket go.
 * Context: process context, may sleep; not the group's own works.
 */
void ums_lgr_terminate(struct ums_lgr *lgr)
{
	__ums_lgr_terminate(lgr, false);
}

static void ums_lgr_term_work(struct work_struct *work)
{
	struct ums_lgr *lgr = container_of(work, struct ums_lgr, term_work);

	ums_lgr_terminate(lgr);
	ums_lgr_put(lgr);
}

static void ums_lgr_linger_work(struct work_struct *work)
{
	struct ums_lgr *lgr = container_of(to_delayed_work(work),
					   struct ums_lgr, linger_work);
	bool idle;

	mutex_lock(&ums_lgr_mutex);
	spin_lock_bh(&lgr->lock);
	idle = !lgr->conn_cnt;
	if (idle)	/* no lookup may take it from now on */
		lgr->active = false;
	spin_unlock_bh(&lgr->lock);
	mutex_unlock(&ums_lgr_mutex);
	if (idle)
		__ums_lgr_terminate(lgr, true);
}

/**
 * ums_lgr_conn_gone() - a connection of a link group has ended
 * @lgr: the group
 *
 * The last one starts the linger timer. Any context but hard irq.
 */
void ums_lgr_conn_gone(struct ums_lgr *lgr)
{
	bool idle;

	spin_lock_bh(&lgr->lock);
	idle = !--lgr->conn_cnt && !lgr->dead;
	spin_unlock_bh(&lgr->lock);
	if (idle)
		mod_delayed_work(ums_wq, &lgr->linger_work, UMS_LINK_LINGER);
}

/**
 * ums_lgr_find() - an active link group for one more connection
 * @server: the role this end has in the group
 * @peer_id: the peer's system ID
 * @dev: the UB device the connection goes through
 * @peer_lgr_id: the server's ID of the group (a client's lookup), or 0
 *
 * Context: process context.
 * Return: the group, held, a connection's place on it taken (given back
 * by ums_lgr_conn_gone() unless a connection takes it over); or NULL if
 * none has room.
 */
struct ums_lgr *ums_lgr_find(bool server, const u8 *peer_id,
			     struct ubcore_device *dev, u32 peer_lgr_id)
{
	struct ums_lgr *lgr;
	bool ok;

	mutex_lock(&ums_lgr_mutex);
	list_for_each_entry(lgr, &ums_lgr_list, node) {
		if (lgr->server != server || lgr->dev != dev ||
		    memcmp(lgr->peer_id, peer_id, UMS_CLC_PEER_ID_LEN) ||
		    (peer_lgr_id && lgr->peer_lgr_id != peer_lgr_id))
			continue;
		spin_lock_bh(&lgr->lock);
		ok = lgr->active && !lgr->dead &&
		     lgr->conn_cnt < UMS_LINK_CONNS;
		if (ok)
			lgr->conn_cnt++;
		spin_unlock_bh(&lgr->lock);
		if (ok) {
			kref_get(&lgr->ref);
			mutex_unlock(&ums_lgr_mutex);
			return lgr;
		}
	}
	mutex_unlock(&ums_lgr_mutex);
	return NULL;
}

static int ums_lgr_objects(struct ums_lgr *lgr)
{
	struct ubcore_device *dev = lgr->dev;
	struct ubcore_jfc_cfg jfc_cfg = {
		.depth = UMS_SQ_DEPTH + UMS_RX_DEPTH,
		.jfce_handler = ums_lgr_comp,
		.user_ctx = (uintptr_t)lgr,
	};
	struct ubcore_jfr_cfg jfr_cfg = {
		.depth = UMS_RX_DEPTH,
		.trans_mode = UBCORE_TP_RC,
		.max_sge = 1,
	};
	struct ubcore_jetty_cfg jetty_cfg = {
		.flag = UBCORE_JETTY_SHARE_JFR,
		.jfs_cfg = {
			/* every post is ums_lgr_post()'s, which sleeps */
			.flag = UBCORE_JFS_FLAG_POST_SLEEPABLE,
			.depth = UMS_SQ_DEPTH,
			.trans_mode = UBCORE_TP_RC,
			.max_sge = 1,
			.max_rsge = 1,
		},
	};
	struct ubcore_seg_cfg seg_cfg = {
		.len = UMS_RX_DEPTH * UMS_RX_BUF,
		.flag = UBCORE_SEG_FLAG_ACCESS_SET(UBCORE_ACCESS_LOCAL_ONLY),
	};
	union ubcore_eid eid;
	int rc;
	u32 i;

	rc = ubcore_get_eid(dev, 0, &eid);
	if (rc)
		return rc;
	memcpy(lgr->eid, eid.raw, sizeof(lgr->eid));
	lgr->token = ubcore_alloc_token_id(dev, 0, NULL);
	if (IS_ERR(lgr->token))
		return PTR_ERR(lgr->token);
	lgr->rx_mem = vzalloc(UMS_RX_DEPTH * UMS_RX_BUF);
	if (!lgr->rx_mem)
		return -ENOMEM;
	seg_cfg.va = (uintptr_t)lgr->rx_mem;
	seg_cfg.token_id = lgr->token;
	lgr->rx_seg = ubcore_register_seg(dev, &seg_cfg, NULL);
	if (IS_ERR(lgr->rx_seg))
		return PTR_ERR(lgr->rx_seg);
	lgr->jfc = ubcore_create_jfc(dev, &jfc_cfg, NULL, NULL);
	if (IS_ERR(lgr->jfc))
		return PTR_ERR(lgr->jfc);
	jfr_cfg.jfc = lgr->jfc;
	jfr_cfg.token_value = lgr->jetty_token;
	lgr->jfr = ubcore_create_jfr(dev, &jfr_cfg, NULL, NULL);
	if (IS_ERR(lgr->jfr))
		return PTR_ERR(lgr->jfr);
	jetty_cfg.jfs_cfg.jfc = lgr->jfc;
	jetty_cfg.jfr = lgr->jfr;
	lgr->jetty = ubcore_create_jetty(dev, &jetty_cfg, NULL, NULL);
	if (IS_ERR(lgr->jetty))
		return PTR_ERR(lgr->jetty);
	for (i = 0; i < UMS_RX_DEPTH; i++) {
		rc = ums_lgr_post_rx(lgr, i);
		if (rc)
			return rc;
	}
	return ubcore_rearm_jfc(lgr->jfc, false);
}

/**
 * ums_lgr_create() - a new link group and its link's jetty, not bound
 * @dev: the UB device, held by the caller (the group takes its own)
 * @server: this end is the server
 * @peer_id: the peer's system ID
 *
 * Listed but not active: no lookup finds it before ums_lgr_activate().
 * The first connection's place on it is taken.
 *
 * Context: process context.
 * Return: the group with the caller's reference, or an ERR_PTR.
 */
struct ums_lgr *ums_lgr_create(struct ubcore_device *dev, bool server,
			       const u8 *peer_id)
{
	struct ums_lgr *lgr;
	int rc;

	lgr = kzalloc(sizeof(*lgr), GFP_KERNEL);
	if (!lgr)
		return ERR_PTR(-ENOMEM);
	rc = ida_alloc_min(&ums_lgr_ida, 1, GFP_KERNEL);
	if (rc < 0) {
		kfree(lgr);
		return ERR_PTR(rc);
	}
	lgr->id = rc;
	lgr->server = server;
	if (server)
		lgr->peer_lgr_id = lgr->id;
	memcpy(lgr->peer_id, peer_id, UMS_CLC_PEER_ID_LEN);
	get_device(&dev->dev);
	lgr->dev = dev;
	kref_init(&lgr->ref);		/* the caller's */
	kref_get(&lgr->ref);		/* the list's */
	lgr->jetty_token = get_random_u32();
	init_rwsem(&lgr->dp_sem);
	tasklet_setup(&lgr->cq_tasklet, ums_lgr_cq_tasklet);
	INIT_DELAYED_WORK(&lgr->linger_work, ums_lgr_linger_work);
	INIT_WORK(&lgr->term_work, ums_lgr_term_work);
	INIT_WORK(&lgr->free_work, ums_lgr_free_work);
	spin_lock_init(&lgr->lock);
	xa_init_flags(&lgr->conns, XA_FLAGS_ALLOC1 | XA_FLAGS_LOCK_BH);
	INIT_LIST_HEAD(&lgr->free_bufs);
	init_waitqueue_head(&lgr->llc_wait);
	init_waitqueue_head(&lgr->sq_wait);
	lgr->conn_cnt = 1;
	rc = ums_lgr_objects(lgr);
	if (rc) {
		pr_info("%s: link objects: %d\n", dev->dev_name, rc);
		lgr->dead = true;
		ums_lgr_put(lgr);	/* the list's */
		ums_lgr_put(lgr);
		return ERR_PTR(rc);
	}
	mutex_lock(&ums_lgr_mutex);
	list_add(&lgr->node, &ums_lgr_list);
	mutex_unlock(&ums_lgr_mutex);
	return lgr;
}

/**
 * ums_lgr_bind() - bind the link's jetty to the peer's
 * @lgr: the group, not bound yet
 * @peer_eid: the peer's device EID
 * @jetty_id: its link jetty
 * @jetty_token: the token its jetty wants
 *
 * The client's bind opens the link's TP (the peer's jetty must exist),
 * the server's reuses it. Waits for the connection manager (seconds).
 *
 * Context: process context.
 * Return: 0 or a negative errno.
 */
int ums_lgr_bind(struct ums_lgr *lgr, const u8 *peer_eid, u32 jetty_id,
		 u32 jetty_token)
{
	struct ubcore_tjetty_cfg cfg = {
		.id.id = jetty_id,
		.trans_mode = UBCORE_TP_RC,
		.type = UBCORE_TARGET_JETTY,
		.token_value = jetty_token,
	};
	struct ubcore_tjetty *tjetty;
	int rc;

	memcpy(cfg.id.eid.raw, peer_eid, sizeof(cfg.id.eid.raw));
	memcpy(lgr->peer_eid, peer_eid, UMS_CLC_EID_LEN);
	down_read(&lgr->dp_sem);
	rc = -ECONNRESET;
	if (lgr->destroyed)
		goto out;
	tjetty = ubcore_import_jetty(lgr->dev, &cfg, NULL);
	rc = PTR_ERR_OR_ZERO(tjetty);
	if (rc)
		goto out;
	rc = ubcore_bind_jetty(lgr->jetty, tjetty);
	if (rc)
		ubcore_unimport_jetty(tjetty);
	else
		lgr->tjetty = tjetty;
out:
	up_read(&lgr->dp_sem);
	if (rc)
		pr_info("link %u: bind to jetty %u of %pI6c: %d\n", lgr->id,
			jetty_id, peer_eid, rc);
	return rc;
}

/**
 * ums_lgr_post() - post one send work request on a link
 * @lgr: the group
 * @wr: the request; WRITE or SEND on the bound jetty
 *
 * Waits while the send queue is full, until the completion tasklet polled
 * (it may have freed entries) or 2 ms passed (a send completes without a
 * record unless it asks for one: no poll may come).
 *
 * Context: process context.
 * Return: 0, -ECONNRESET (the link is dead) or the post's errno.
 */
int ums_lgr_post(struct ums_lgr *lgr, struct ubcore_jfs_wr *wr)
{
	struct ubcore_jfs_wr *bad;
	u32 polls;
	int rc;

	for (;;) {
		polls = READ_ONCE(lgr->cq_polls);
		down_read(&lgr->dp_sem);
		rc = -ECONNRESET;
		if (!lgr->destroyed && !READ_ONCE(lgr->dead))
			rc = ubcore_post_jetty_send_wr(lgr->jetty, wr, &bad);
		up_read(&lgr->dp_sem);
		if (rc != -ENOMEM)
			return rc;
		/* the queue is full: its completions make room */
		wait_event_timeout(lgr->sq_wait, READ_ONCE(lgr->dead) ||
				   READ_ONCE(lgr->cq_polls) != polls,
				   msecs_to_jiffies(2));
	}
}

static int ums_llc_send(struct ums_lgr *lgr, bool resp)
{
	struct ums_llc_confirm cl = {
		.resp = resp,
		.jetty_id = lgr->jetty->id,
		.link_uid = lgr->id,
		.link_num = 1,
		.max_links = 1,
	};
	u8 msg[UMS_MSG_LEN];
	struct ubcore_sge sge = { .addr = (uintptr_t)msg, .len = sizeof(msg) };
	struct ubcore_jfs_wr wr = {
		.opcode = UBCORE_OPC_SEND,
		.flag.bs.inline_flag = 1,
		.send.src = { .sge = &sge, .num_sge = 1 },
	};

	memcpy(cl.eid, lgr->eid, sizeof(cl.eid));
	ums_llc_build_confirm(msg, sizeof(msg), &cl);
	return ums_lgr_post(lgr, &wr);
}

/*
 * Wait for the peer's Confirm Link (@resp: the response to ours) naming
 * the jetty our link is bound to.
 */
static int ums_llc_wait(struct ums_lgr *lgr, bool resp)
{
	struct ums_llc_confirm cl;
	long left;

	left = wait_event_interruptible_timeout(lgr->llc_wait,
						READ_ONCE(lgr->llc_got) ||
						READ_ONCE(lgr->dead),
						UMS_CLC_WAIT);
	if (left < 0)
		return left;
	spin_lock_bh(&lgr->lock);
	cl = lgr->llc;
	left = lgr->llc_got ? 1 : 0;
	lgr->llc_got = false;
	spin_unlock_bh(&lgr->lock);
	if (!left)
		return READ_ONCE(lgr->dead) ? -ECONNRESET : -ETIMEDOUT;
	if (cl.resp != resp || cl.jetty_id != lgr->tjetty->cfg.id.id ||
	    memcmp(cl.eid, lgr->peer_eid, UMS_CLC_EID_LEN))
		return -EPROTO;
	return 0;
}

/**
 * ums_lgr_confirm_server() - the server's Confirm Link on a new link
 * @lgr: the group, bound
 *
 * Context: process context.
 * Return: 0 when the client answered, or a negative errno.
 */
int ums_lgr_confirm_server(struct ums_lgr *lgr)
{
	return ums_llc_send(lgr, false) ?: ums_llc_wait(lgr, true);
}

/**
 * ums_lgr_confirm_client() - the client's side of Confirm Link
 * @lgr: the group, bound
 *
 * The link is active before the answer goes: the server's next accept
 * on it (which the answer allows) finds it.
 *
 * Context: process context.
 * Return: 0 when the server's came and was answered, or a negative errno.
 */
int ums_lgr_confirm_client(struct ums_lgr *lgr)
{
	int rc = ums_llc_wait(lgr, false);

	if (rc)
		return rc;
	ums_lgr_activate(lgr);
	return ums_llc_send(lgr, true);
}

/**
 * ums_lgr_activate() - the link is confirmed: lookups may take it
 * @lgr: the group
 */
void ums_lgr_activate(struct ums_lgr *lgr)
{
	spin_lock_bh(&lgr->lock);
	lgr->active = true;
	spin_unlock_bh(&lgr->lock);
}

/**
 * ums_lgr_fill_info() - the link's part of an accept or confirm
 * @lgr: the group
 * @info: filled with our peer ID, device EID, jetty, its token, the
 *	group's ID (the server's)
 */
void ums_lgr_fill_info(struct ums_lgr *lgr, struct ums_clc_acc_info *info)
{
	memcpy(info->peer_id, ums_peer_id, UMS_CLC_PEER_ID_LEN);
	memcpy(info->eid, lgr->eid, UMS_CLC_EID_LEN);
	info->jetty_id = lgr->jetty->id;
	info->jetty_token = lgr->jetty_token;
	info->lgr_id = lgr->peer_lgr_id;
}

/* Terminate every group that @match(@lgr, @arg). Process context. */
static void ums_lgr_terminate_if(bool (*match)(struct ums_lgr *, void *),
				 void *arg)
{
	struct ums_lgr *lgr;

	for (;;) {
		mutex_lock(&ums_lgr_mutex);
		list_for_each_entry(lgr, &ums_lgr_list, node)
			if (match(lgr, arg))
				break;
		if (list_entry_is_head(lgr, &ums_lgr_list, node)) {
			mutex_unlock(&ums_lgr_mutex);
			return;
		}
		kref_get(&lgr->ref);
		mutex_unlock(&ums_lgr_mutex);
		ums_lgr_terminate(lgr);
		ums_lgr_put(lgr);
	}
}

static bool ums_lgr_on_dev(struct ums_lgr *lgr, void *dev)
{
	return lgr->dev == dev;
}

static bool ums_lgr_any(struct ums_lgr *lgr, void *arg)
{
	return true;
}

static int ums_dev_add(struct ubcore_device *dev)
{
	return 0;
}

/* The device goes: its links with it (their sockets get ECONNRESET). */
static void ums_dev_remove(struct ubcore_device *dev, void *client_ctx)
{
	ums_lgr_terminate_if(ums_lgr_on_dev, dev);
}

static struct ubcore_client ums_client = {
	.name = "ums",
	.add = ums_dev_add,
	.remove = ums_dev_remove,
};

/**
 * ums_link_init() - register the ubcore client
 *
 * Return: 0 or a negative errno.
 */
int ums_link_init(void)
{
	return ubcore_register_client(&ums_client);
}

/**
 * ums_link_exit() - end every link (no socket is left), before ums_wq
 *	goes
 */
void ums_link_exit(void)
{
	ubcore_unregister_client(&ums_client);
	ums_lgr_terminate_if(ums_lgr_any, NULL);
	/* the frees the last puts queued */
	flush_workqueue(ums_wq);
}
