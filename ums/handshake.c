// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * The CLC handshake on a connected clcsock, client and server side. Both
 * return 0 when the connection goes over UMS (the socket's @conn set),
 * the reason the socket falls back (a UMS_CLC_DECL_* code, > 0) or a
 * negative errno when the connection failed. Whoever falls back first
 * tells the peer with a decline (unless the peer has no UMS or declined
 * itself), so that neither end takes a CLC message for data.
 *
 * Over UMS: Proposal (client), Accept (server: its link's jetty, its RMB,
 * first contact or not), Confirm (client: the same of its own); on a new
 * link (first contact) both jetties are bound and LLC Confirm Link goes
 * over it, server to client and back, before the link serves the next
 * connection. Declining stays possible until the Confirm: after it, a
 * failure fails the connection. The server decides one handshake at a
 * time (ums_server_lock), so that a second connection from a peer whose
 * first link is being set up waits for it and shares it.
 */
#include <linux/random.h>
#include <linux/slab.h>
#include <linux/uio.h>
#include <net/sock.h>
#include <net/tcp.h>

#include "link.h"
#include "ums.h"

/* The server's handshakes from accept to confirm, one at a time. */
static DEFINE_MUTEX(ums_server_lock);

static int ums_clc_send(struct socket *clcsock, void *buf, size_t len)
{
	struct msghdr msg = { .msg_flags = MSG_NOSIGNAL };
	struct kvec vec = { .iov_base = buf, .iov_len = len };
	int rc = kernel_sendmsg(clcsock, &msg, &vec, 1, len);

	if (rc == len)
		return 0;
	return rc < 0 ? rc : -EPIPE;
}

/* Send a decline with @reason; return @reason, or the send's error. */
static int ums_clc_decline(struct socket *clcsock, u32 reason)
{
	struct ums_clc_decline dcl;
	int len, rc;

	len = ums_clc_build_decline(&dcl, sizeof(dcl), ums_peer_id, reason);
	rc = ums_clc_send(clcsock, &dcl, len);
	return rc ? rc : reason;
}

static int ums_clc_read(struct socket *clcsock, void *buf, size_t len)
{
	struct kvec vec = { .iov_base = buf, .iov_len = len };
	struct msghdr msg = {};
	int rc = kernel_recvmsg(clcsock, &msg, &vec, 1, len, MSG_WAITALL);

	if (rc == len)
		return 0;
	if (rc == -EAGAIN)
		return -ETIMEDOUT;
	return rc < 0 ? rc : -ECONNRESET;
}

/*
 * One whole message into @buf (UMS_CLC_MAX_LEN bytes), the peer given
 * UMS_CLC_WAIT for it. Return: its length, -EPROTO for a header no
 * message can have, or the connection's error.
 */
static int ums_clc_recv(struct socket *clcsock, u8 *buf)
{
	struct sock *clcsk = clcsock->sk;
	long timeo = clcsk->sk_rcvtimeo;
	int len, rc;

	clcsk->sk_rcvtimeo = UMS_CLC_WAIT;
	rc = ums_clc_read(clcsock, buf, sizeof(struct ums_clc_hdr));
	if (!rc) {
		len = ums_clc_check_hdr(buf, sizeof(struct ums_clc_hdr));
		rc = len < 0 ? len :
		     ums_clc_read(clcsock, buf + sizeof(struct ums_clc_hdr),
				  len - sizeof(struct ums_clc_hdr));
	}
	clcsk->sk_rcvtimeo = timeo;
	return rc ? rc : len;
}

/* A malformed message, or one of a type not expected now. */
static int ums_clc_unexpected(struct ums_sock *ums)
{
	return ums_clc_decline(ums->clcsock, UMS_CLC_DECL_SYNCERR);
}

/*
 * After a decline was received: fall back, with the peer's reason kept.
 * A malformed one is not answered: its sender has fallen back already
 * and would take an answer for data.
 */
static int ums_clc_declined(struct ums_sock *ums, const u8 *buf, int len)
{
	if (ums_clc_parse_decline(buf, len, &ums->peer_reason))
		return UMS_CLC_DECL_SYNCERR;
	return UMS_CLC_DECL_PEERDECL;
}

/* What a handshake works in: the message buffer and the messages. */
struct ums_clc_work {
	u8 msg[UMS_CLC_MAX_LEN];
	struct ums_clc_prop_info info;
	struct ums_clc_acc_info peer;
	struct ums_clc_acc_info mine;
};

/* Send our accept (server) or confirm (client) for @conn. */
static int ums_clc_send_acc(struct ums_sock *ums, struct ums_clc_work *w,
			    struct ums_conn *conn, u8 type, bool first)
{
	int len;

	ums_conn_fill_info(conn, &w->mine);
	w->mine.first_contact = first;
	len = ums_clc_build_accept(w->msg, sizeof(w->msg), type, &w->mine);
	return ums_clc_send(ums->clcsock, w->msg, len);
}

/* A handshake's failure after its link group was found or made. */
static void ums_clc_drop(struct ums_lgr *lgr, struct ums_conn *conn,
			 bool first)
{
	if (conn)
		ums_conn_abandon(conn);
	else
		ums_lgr_conn_gone(lgr);
	if (first)
		ums_lgr_terminate(lgr);
	ums_lgr_put(lgr);
}

/*
 * The client after a valid accept in @w->peer: the link (found, or new
 * and bound), the connection, the confirm, Confirm Link on a new link.
 */
static int ums_clc_client_link(struct ums_sock *ums, struct ums_clc_work *w,
			       struct ubcore_device *dev)
{
	bool first = w->peer.first_contact;
	struct ums_conn *conn = NULL;
	struct ums_lgr *lgr;
	int rc;

	if (first) {
		lgr = ums_lgr_create(dev, false, w->peer.peer_id);
		if (IS_ERR(lgr))
			return ums_clc_decline(ums->clcsock, UMS_CLC_DECL_MEM);
		lgr->peer_lgr_id = w->peer.lgr_id;
		rc = ums_lgr_bind(lgr, w->peer.eid, w->peer.jetty_id,
				  w->peer.jetty_token);
	} else {
		/* the server's link group, which must be ours too */
		lgr = ums_lgr_find(false, w->peer.peer_id, dev, w->peer.lgr_id);
		if (!lgr)
			return ums_clc_decline(ums->clcsock,
					       UMS_CLC_DECL_SYNCERR);
		rc = 0;
	}
	if (!rc) {
		conn = ums_conn_create(lgr, ums);
		rc = PTR_ERR_OR_ZERO(conn);
		if (rc)
			conn = NULL;
	}
	if (!rc)
		rc = ums_conn_peer(conn, &w->peer);
	if (rc) {
		ums_clc_drop(lgr, conn, first);
		return ums_clc_decline(ums->clcsock, UMS_CLC_DECL_INTERR);
	}
	rc = ums_clc_send_acc(ums, w, conn, UMS_CLC_CONFIRM, first);
	if (!rc && first)
		rc = ums_lgr_confirm_client(lgr);
	if (rc) {
		ums_clc_drop(lgr, conn, first);
		return rc > 0 ? -ECONNRESET : rc;
	}
	ums->conn = conn;
	ums_lgr_put(lgr);
	return 0;
}

/* The client's answer to an accept: its link, or a decline. */
static int ums_clc_client_accept(struct ums_sock *ums, struct ums_clc_work *w,
				 int len)
{
	struct ubcore_device *dev;
	struct net_device *netdev;
	int rc;

	if (ums_clc_parse_accept(w->msg, len, UMS_CLC_ACCEPT, &w->peer))
		return ums_clc_decline(ums->clcsock, UMS_CLC_DECL_SYNCERR);
	dev = ums_dev_get(ums->clcsock->sk, &netdev);
	if (!dev)
		return ums_clc_decline(ums->clcsock, UMS_CLC_DECL_NOUMSDEV);
	dev_put(netdev);
	rc = ums_clc_client_link(ums, w, dev);
	ubcore_put_device(dev);
	return rc;
}

/*
 * The peer's next message. Return: 0 when it is one of @type, its length
 * in *@len; else the end of the handshake: the fallback reason after a
 * decline, or a malformed or unexpected message (> 0: every code is), or
 * the connection's error (< 0).
 */
static int ums_clc_expect(struct ums_sock *ums, u8 *buf, u8 type, int *len)
{
	*len = ums_clc_recv(ums->clcsock, buf);
	if (*len == -EPROTO)
		return ums_clc_unexpected(ums);
	if (*len < 0)
		return *len;
	if (((struct ums_clc_hdr *)buf)->type == UMS_CLC_DECLINE)
		return ums_clc_declined(ums, buf, *len);
	if (((struct ums_clc_hdr *)buf)->type != type)
		return ums_clc_unexpected(ums);
	return 0;
}

/**
 * ums_clc_client() - the client's handshake
 * @ums: the socket, its clcsock connected
 *
 * Return: 0 (over UMS), the fallback reason, or a negative errno.
 */
int ums_clc_client(struct ums_sock *ums)
{
	struct sock *clcsk = ums->clcsock->sk;
	struct ums_clc_work *w;
	int len, rc;

	if (!tcp_sk(clcsk)->syn_smc)
		return UMS_CLC_DECL_PEERNOUMS;
	if (ums_dev_is_local(clcsk))
		return ums_clc_decline(ums->clcsock, UMS_CLC_DECL_LOCAL);
	w = kzalloc(sizeof(*w), GFP_KERNEL);
	if (!w)
		return ums_clc_decline(ums->clcsock, UMS_CLC_DECL_MEM);
	rc = ums_dev_local_info(clcsk, &w->info);
	if (rc) {
		rc = ums_clc_decline(ums->clcsock, rc);
		goto out;
	}
	memcpy(w->info.peer_id, ums_peer_id, UMS_CLC_PEER_ID_LEN);
	w->info.session_id = get_random_u32();
	len = ums_clc_build_proposal(w->msg, sizeof(w->msg), &w->info);
	rc = ums_clc_send(ums->clcsock, w->msg, len);
	if (!rc)
		rc = ums_clc_expect(ums, w->msg, UMS_CLC_ACCEPT, &len);
	if (!rc)
		rc = ums_clc_client_accept(ums, w, len);
out:
	kfree(w);
	return rc;
}

/*
 * The server after the client's confirm of @conn in @w->msg: on a new
 * link, bind and Confirm Link; then the client's RMB.
 */
static int ums_clc_server_confirm(struct ums_sock *ums, struct ums_clc_work *w,
				  int len, struct ums_lgr *lgr,
				  struct ums_conn *conn, bool first)
{
	int rc;

	if (ums_clc_parse_accept(w->msg, len, UMS_CLC_CONFIRM, &w->peer) ||
	    w->peer.lgr_id != lgr->id || w->peer.first_contact != first ||
	    memcmp(w->peer.peer_id, w->info.peer_id, UMS_CLC_PEER_ID_LEN))
		return -EPROTO;
	if (first) {
		rc = ums_lgr_bind(lgr, w->peer.eid, w->peer.jetty_id,
				  w->peer.jetty_token) ?:
		     ums_lgr_confirm_server(lgr);
		if (rc)
			return rc;
	} else if (memcmp(w->peer.eid, lgr->peer_eid, UMS_CLC_EID_LEN) ||
		   w->peer.jetty_id != lgr->tjetty->cfg.id.id) {
		return -EPROTO;
	}
	return ums_conn_peer(conn, &w->peer);
}

/* The server's accept of a valid proposal in @w->info, and the rest. */
static int ums_clc_server_accept(struct ums_sock *ums, struct ums_clc_work *w)
{
	struct ums_conn *conn = NULL;
	struct ubcore_device *dev;
	struct net_device *netdev;
	struct ums_lgr *lgr;
	bool first = false;
	int len, rc;

	dev = ums_dev_get(ums->clcsock->sk, &netdev);
	if (!dev)
		return ums_clc_decline(ums->clcsock, UMS_CLC_DECL_NOUMSDEV);
	dev_put(netdev);
	mutex_lock(&ums_server_lock);
	lgr = ums_lgr_find(true, w->info.peer_id, dev, 0);
	if (!lgr) {
		first = true;
		lgr = ums_lgr_create(dev, true, w->info.peer_id);
	}
	if (IS_ERR(lgr)) {
		rc = ums_clc_decline(ums->clcsock, UMS_CLC_DECL_MEM);
		goto out;
	}
	conn = ums_conn_create(lgr, ums);
	if (IS_ERR(conn)) {
		conn = NULL;
		rc = ums_clc_decline(ums->clcsock, UMS_CLC_DECL_MEM);
		goto drop;
	}
	rc = ums_clc_send_acc(ums, w, conn, UMS_CLC_ACCEPT, first) ?:
	     ums_clc_expect(ums, w->msg, UMS_CLC_CONFIRM, &len);
	if (rc)		/* declined (> 0) or broken */
		goto drop;
	rc = ums_clc_server_confirm(ums, w, len, lgr, conn, first);
	if (rc) {
		rc = rc == -EPROTO ? -ECONNRESET : rc;
		goto drop;
	}
	if (first)
		ums_lgr_activate(lgr);
	ums->conn = conn;
	ums_lgr_put(lgr);
	goto out;
drop:
	ums_clc_drop(lgr, conn, first);
out:
	mutex_unlock(&ums_server_lock);
	ubcore_put_device(dev);
	return rc;
}

/**
 * ums_clc_server() - the server's handshake
 * @ums: a listener's child, its clcsock accepted
 *
 * The client's first message is read whatever the answer: unread, it
 * would reach the application as data.
 *
 * Return: 0 (over UMS), the fallback reason, or a negative errno.
 */
int ums_clc_server(struct ums_sock *ums)
{
	struct sock *clcsk = ums->clcsock->sk;
	struct ums_clc_work *w;
	int len, rc;

	if (!tcp_sk(clcsk)->syn_smc)
		return UMS_CLC_DECL_PEERNOUMS;
	w = kzalloc(sizeof(*w), GFP_KERNEL);
	if (!w)
		return -ENOMEM;
	rc = ums_clc_expect(ums, w->msg, UMS_CLC_PROPOSAL, &len);
	if (!rc) {
		if (ums_clc_parse_proposal(w->msg, len, &w->info))
			rc = UMS_CLC_DECL_SYNCERR;
		else if (ums_dev_is_local(clcsk))
			rc = UMS_CLC_DECL_LOCAL;
		else
			rc = ums_dev_check_peer(clcsk, &w->info);
		if (rc)
			rc = ums_clc_decline(ums->clcsock, rc);
		else
			rc = ums_clc_server_accept(ums, w);
	}
	kfree(w);
	return rc;
}
