// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * Connections over a link (struct ums_conn, link.h): their buffers and
 * token, the import of the peer's RMB, their end. A connection outlives
 * its socket while the peer may still write into its RMB (until the
 * peer's close, abort or the link's end), so that the RMB goes back to
 * the pool only when nothing writes into it any more.
 */
#include <linux/slab.h>

#include "link.h"
#include "ums.h"

/* Connection tokens: 1 .. 2^20 - 1 per link (the CDC's user_ctx). */
#define UMS_TOKEN_MAX	((1U << 20) - 1)

/**
 * ums_conn_create() - a new connection on a link, with its buffers
 * @lgr: the link group, a connection's place on it taken (ums_lgr_find(),
 *	ums_lgr_create()), which the connection takes over
 * @ums: the socket (its SO_SNDBUF and SO_RCVBUF size the buffers)
 *
 * Context: process context.
 * Return: the connection (the caller's reference) or an ERR_PTR.
 */
struct ums_conn *ums_conn_create(struct ums_lgr *lgr, struct ums_sock *ums)
{
	struct ums_conn *conn;
	int rc = -ECONNRESET;

	conn = kzalloc(sizeof(*conn), GFP_KERNEL);
	if (!conn)
		return ERR_PTR(-ENOMEM);
	kref_init(&conn->ref);
	spin_lock_init(&conn->lock);
	INIT_WORK(&conn->tx_work, ums_tx_work);
	conn->ums = ums;
	down_read(&lgr->dp_sem);
	if (lgr->destroyed)
		goto err;
	conn->rmb = ums_buf_get(lgr, ums_buf_size(READ_ONCE(ums->sk.sk_rcvbuf)),
				true);
	if (IS_ERR(conn->rmb)) {
		rc = PTR_ERR(conn->rmb);
		conn->rmb = NULL;
		goto err;
	}
	conn->sndbuf = ums_buf_get(lgr,
				   ums_buf_size(READ_ONCE(ums->sk.sk_sndbuf)),
				   false);
	if (IS_ERR(conn->sndbuf)) {
		rc = PTR_ERR(conn->sndbuf);
		conn->sndbuf = NULL;
		goto err;
	}
	rc = xa_alloc_bh(&lgr->conns, &conn->token, conn,
			 XA_LIMIT(1, UMS_TOKEN_MAX), GFP_KERNEL);
	if (rc)
		goto err;
	kref_get(&lgr->ref);
	conn->lgr = lgr;
	up_read(&lgr->dp_sem);
	return conn;

err:
	ums_buf_free(conn->rmb);
	ums_buf_free(conn->sndbuf);
	up_read(&lgr->dp_sem);
	kfree(conn);
	return ERR_PTR(rc);
}

/**
 * ums_conn_peer() - import the peer's RMB
 * @conn: the connection
 * @info: the peer's accept or confirm
 *
 * Context: process context.
 * Return: 0 or a negative errno.
 */
int ums_conn_peer(struct ums_conn *conn, const struct ums_clc_acc_info *info)
{
	struct ums_lgr *lgr = conn->lgr;
	struct ubcore_target_seg_cfg cfg = {
		.seg = {
			.ubva.uasid = info->rmb_uasid,
			.ubva.va = info->rmb_va,
			.len = info->rmb_len,
			.token_id = info->rmb_token_id,
		},
		.token_value = info->rmb_token_value,
	};
	struct ubcore_target_seg *tseg;
	int rc = -ECONNRESET;

	memcpy(cfg.seg.ubva.eid.raw, info->eid, sizeof(cfg.seg.ubva.eid.raw));
	down_read(&lgr->dp_sem);
	if (!lgr->destroyed) {
		tseg = ubcore_import_seg(lgr->dev, &cfg, NULL);
		rc = PTR_ERR_OR_ZERO(tseg);
		if (!rc) {
			conn->peer_rmb = tseg;
			conn->peer_rmb_va = info->rmb_va;
			conn->peer_rmb_len = info->rmb_len;
			conn->peer_token = info->conn_token;
		}
	}
	up_read(&lgr->dp_sem);
	return rc;
}

/**
 * ums_conn_fill_info() - the link's and the connection's part of an
 *	accept or confirm
 * @conn: the connection
 * @info: filled in whole but for @first_contact
 */
void ums_conn_fill_info(struct ums_conn *conn, struct ums_clc_acc_info *info)
{
	const struct ubcore_target_seg *seg = conn->rmb->seg;

	ums_lgr_fill_info(conn->lgr, info);
	info->conn_token = conn->token;
	info->rmb_token_id = seg->seg.token_id;
	info->rmb_token_value = seg->token_value;
	info->rmb_uasid = seg->seg.ubva.uasid;
	info->rmb_va = seg->seg.ubva.va;
	info->rmb_len = conn->rmb->size;
}

/**
 * ums_conn_release_objects() - unimport and unregister what the
 *	connection holds of ubcore, as its link's objects go
 * @conn: the connection
 *
 * Context: under its group's @dp_sem (write).
 */
void ums_conn_release_objects(struct ums_conn *conn)
{
	if (conn->peer_rmb)
		ubcore_unimport_seg(conn->peer_rmb);
	conn->peer_rmb = NULL;
	if (conn->rmb && conn->rmb->seg)
		ubcore_unregister_seg(conn->rmb->seg);
	if (conn->sndbuf && conn->sndbuf->seg)
		ubcore_unregister_seg(conn->sndbuf->seg);
	if (conn->rmb)
		conn->rmb->seg = NULL;
	if (conn->sndbuf)
		conn->sndbuf->seg = NULL;
}

static void ums_conn_free_work(struct work_struct *work)
{
	struct ums_conn *conn = container_of(work, struct ums_conn, free_work);
	struct ums_lgr *lgr = conn->lgr;

	down_read(&lgr->dp_sem);
	xa_erase_bh(&lgr->conns, conn->token);
	/* (after the group's destruction, nothing is registered any more) */
	if (conn->peer_rmb)
		ubcore_unimport_seg(conn->peer_rmb);
	if (lgr->destroyed || conn->abandoned) {
		ums_buf_free(conn->rmb);
		ums_buf_free(conn->sndbuf);
	} else {
		ums_buf_put(lgr, conn->rmb);
		ums_buf_put(lgr, conn->sndbuf);
	}
	up_read(&lgr->dp_sem);
	ums_lgr_conn_gone(lgr);
	ums_lgr_put(lgr);
	kfree(conn);
}

static void ums_conn_release(struct kref *ref)
{
	struct ums_conn *conn = container_of(ref, struct ums_conn, ref);

	/* the last put may be the completion tasklet's, in softirq */
	INIT_WORK(&conn->free_work, ums_conn_free_work);
	queue_work(ums_wq, &conn->free_work);
}

/**
 * ums_conn_put() - drop a reference to a connection
 * @conn: the connection
 *
 * Any context but hard irq.
 */
void ums_conn_put(struct ums_conn *conn)
{
	kref_put(&conn->ref, ums_conn_release);
}

/*
 * Under @conn's lock: the connection failed with @err (a positive errno),
 * or the peer closed it (0). A connection without a socket no longer
 * lingers: return true when its own reference is to be dropped.
 */
static bool ums_conn_end_locked(struct ums_conn *conn, int err)
{
	bool drop = conn->linger;

	if (err && !conn->err)
		conn->err = err;
	conn->linger = false;
	if (conn->ums)
		ums_wake(conn->ums, 0);
	return drop;
}

/**
 * ums_conn_end() - the peer closed or aborted, or the link failed
 * @conn: the connection, held by the caller
 * @err: ECONNRESET, or 0 for the peer's orderly close
 */
void ums_conn_end(struct ums_conn *conn, int err)
{
	bool drop;

	spin_lock_bh(&conn->lock);
	drop = ums_conn_end_locked(conn, err);
	spin_unlock_bh(&conn->lock);
	if (drop)
		ums_conn_put(conn);
}

/**
 * ums_conn_reset_all() - every connection of a dead link: ECONNRESET
 * @lgr: the group
 *
 * Context: process context.
 */
void ums_conn_reset_all(struct ums_lgr *lgr)
{
	struct ums_conn *conn;
	unsigned long token;

	xa_lock_bh(&lgr->conns);
	xa_for_each(&lgr->conns, token, conn) {
		if (!kref_get_unless_zero(&conn->ref))
			continue;
		xa_unlock_bh(&lgr->conns);
		ums_conn_end(conn, ECONNRESET);
		ums_conn_put(conn);
		xa_lock_bh(&lgr->conns);
	}
	xa_unlock_bh(&lgr->conns);
}

/**
 * ums_conn_abandon() - drop a connection the handshake did not finish
 * @conn: the connection; the caller's reference is dropped
 *
 * The peer may have our RMB without ever closing: its buffers are freed
 * (unregistered), not pooled for another connection.
 */
void ums_conn_abandon(struct ums_conn *conn)
{
	spin_lock_bh(&conn->lock);
	conn->abandoned = true;
	conn->ums = NULL;
	spin_unlock_bh(&conn->lock);
	ums_conn_put(conn);
}

/**
 * ums_conn_detach() - the socket is released
 * @conn: its connection; the socket's reference is dropped
 *
 * The connection lingers (holding itself) while the peer may still write
 * into its RMB: it has not closed, and neither link nor peer failed.
 */
void ums_conn_detach(struct ums_conn *conn)
{
	spin_lock_bh(&conn->lock);
	conn->ums = NULL;
	if (!conn->err &&
	    !(conn->peer_flags & (UMS_CDC_CONN_CLOSED | UMS_CDC_CONN_ABORT))) {
		conn->linger = true;
		kref_get(&conn->ref);
	}
	spin_unlock_bh(&conn->lock);
	ums_conn_put(conn);
}
