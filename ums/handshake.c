// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * The CLC handshake on a connected clcsock, client and server side. Both
 * return the reason the socket falls back (a UMS_CLC_DECL_* code, >= 0)
 * or a negative errno when the connection failed. Whoever falls back
 * first tells the peer with a decline (unless the peer has no UMS or
 * declined itself), so that neither end takes a CLC message for data.
 * Accepting needs a link over the URMA data path, which does not exist
 * yet: today every handshake ends in a decline.
 */
#include <linux/random.h>
#include <linux/slab.h>
#include <linux/uio.h>
#include <net/sock.h>
#include <net/tcp.h>

#include "ums.h"

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

/* What a handshake works in: the message buffer and a proposal. */
struct ums_clc_work {
	u8 msg[UMS_CLC_MAX_LEN];
	struct ums_clc_prop_info info;
};

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
 * Return: the fallback reason, or a negative errno.
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
	if (!rc)	/* a link needs the URMA data path */
		rc = ums_clc_decline(ums->clcsock,
				     ums_clc_parse_accept(w->msg, len) ?
				     UMS_CLC_DECL_SYNCERR :
				     UMS_CLC_DECL_NOACTLINK);
out:
	kfree(w);
	return rc;
}

/**
 * ums_clc_server() - the server's handshake
 * @ums: a listener's child, its clcsock accepted
 *
 * The client's first message is read whatever the answer: unread, it
 * would reach the application as data.
 *
 * Return: the fallback reason, or a negative errno.
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
		rc = ums_clc_decline(ums->clcsock, rc);
	}
	kfree(w);
	return rc;
}
