// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * The socket calls of a connection over UMS (struct ums_conn): sendmsg
 * copies into the send buffer, WRITEs into the peer's RMB and sends a
 * CDC, or leaves the bytes corked in the send buffer while a CDC is on
 * its way (ums_tx_should_cork(); its completion pushes them from
 * ums_tx_work()); recvmsg copies out of the RMB and sends a CDC once the
 * consumer cursor passed the update limit (a quarter of the RMB, so that
 * the peer is not woken for every read); poll, shutdown and close. Every
 * CDC pushes what is corked first. Every call runs under the socket
 * lock, which orders the connection's WRITEs and CDCs; the cursors are
 * under the connection's lock (link.h).
 */
#include <linux/poll.h>
#include <linux/sched/signal.h>
#include <asm/ioctls.h>
#include <linux/sockios.h>
#include <linux/uio.h>

#include "cursor.h"
#include "link.h"
#include "ums.h"

/* Bytes of the send buffer free, and of the peer's RMB; under lock. */
static u64 ums_tx_room(const struct ums_conn *conn)
{
	u64 snd = conn->sndbuf->size - (conn->tx_prep - conn->tx_done);
	u64 rmb = conn->peer_rmb_len - (conn->tx_prep - conn->peer_cons);

	return min(snd, rmb);
}

/* Under lock: nothing may be sent any more (the errno), or 0. */
static int ums_tx_error(const struct ums_conn *conn, const struct sock *sk)
{
	if (conn->err)
		return -conn->err;
	if (sk->sk_shutdown & SEND_SHUTDOWN || conn->done_writing ||
	    conn->peer_flags & (UMS_CDC_CONN_CLOSED | UMS_CDC_CONN_ABORT))
		return -EPIPE;
	return 0;
}

static bool ums_tx_ready(struct sock *sk)
{
	struct ums_conn *conn = ums_sk(sk)->conn;
	bool ready;

	spin_lock_bh(&conn->lock);
	ready = ums_tx_error(conn, sk) || ums_tx_room(conn);
	spin_unlock_bh(&conn->lock);
	return ready;
}

static int ums_post_write(struct ums_conn *conn, u64 pos, u32 len)
{
	struct ubcore_sge src = {
		.addr = (uintptr_t)conn->sndbuf->mem +
			(pos & (conn->sndbuf->size - 1)),
		.len = len,
		.tseg = conn->sndbuf->seg,
	};
	struct ubcore_sge dst = {
		.addr = conn->peer_rmb_va + (pos & (conn->peer_rmb_len - 1)),
		.len = len,
		.tseg = conn->peer_rmb,
	};
	struct ubcore_jfs_wr wr = {
		.opcode = UBCORE_OPC_WRITE,
		.rw.src = { .sge = &src, .num_sge = 1 },
		.rw.dst = { .sge = &dst, .num_sge = 1 },
	};

	return ums_lgr_post(conn->lgr, &wr);
}

/* Copy @len bytes of @msg into the send buffer at the cursor @pos. */
static int ums_tx_copy(struct ums_conn *conn, struct msghdr *msg, u64 pos,
		       u32 len)
{
	u32 sz = conn->sndbuf->size, off, n;

	for (off = 0; off < len; off += n) {
		n = ums_ring_piece(pos + off, len - off, sz, sz);
		if (copy_from_iter(conn->sndbuf->mem + ((pos + off) & (sz - 1)),
				   n, &msg->msg_iter) != n)
			return -EFAULT;
	}
	return 0;
}

/*
 * WRITE what the send buffer holds and the peer's RMB does not (each
 * contiguous piece of both rings one WRITE), then send a CDC with
 * @conn_flags: under the socket lock. A failed connection only sends the
 * CDC (a close after the peer's abort). Return: 0 or a negative errno.
 */
static int ums_tx_push(struct ums_conn *conn, u8 conn_flags)
{
	u32 sz = conn->sndbuf->size, n;
	u64 pos, end;
	int rc;

	spin_lock_bh(&conn->lock);
	pos = conn->tx_write;
	end = conn->err ? pos : conn->tx_prep;
	spin_unlock_bh(&conn->lock);
	for (; pos != end; pos += n) {
		n = ums_ring_piece(pos, end - pos, sz, conn->peer_rmb_len);
		rc = ums_post_write(conn, pos, n);
		if (rc)
			return rc;
		spin_lock_bh(&conn->lock);
		conn->tx_write = pos + n;
		spin_unlock_bh(&conn->lock);
	}
	return ums_cdc_send(conn, conn_flags);
}

/* The bytes corked at most: half the send buffer, or the sysctl's. */
static u32 ums_cork_size(struct ums_sock *ums)
{
	u32 limit = READ_ONCE(ums_net(sock_net(&ums->sk))->autocorking_size);

	return min(ums->conn->sndbuf->size / 2, limit);
}

/**
 * ums_tx_work() - push the corked bytes of a connection
 * @work: its @tx_work, queued with a reference by the completion of the
 *	last pending CDC
 */
void ums_tx_work(struct work_struct *work)
{
	struct ums_conn *conn = container_of(work, struct ums_conn, tx_work);
	struct ums_sock *ums;
	bool push;

	spin_lock_bh(&conn->lock);
	ums = conn->ums;
	if (ums)
		sock_hold(&ums->sk);
	spin_unlock_bh(&conn->lock);
	if (ums) {
		lock_sock(&ums->sk);
		spin_lock_bh(&conn->lock);
		/* (a sendmsg, a read or the close may have pushed them) */
		push = ums->conn == conn && !conn->err && !conn->closed &&
		       conn->tx_prep != conn->tx_write;
		spin_unlock_bh(&conn->lock);
		if (push && ums_tx_push(conn, 0))
			ums_wake(ums, 0);
		release_sock(&ums->sk);
		sock_put(&ums->sk);
	}
	ums_conn_put(conn);
}

/**
 * ums_data_sendmsg() - sendmsg on a connection over UMS
 * @ums: the socket
 * @msg: what to send
 * @len: its length
 *
 * Return: the bytes sent, or a negative errno.
 */
int ums_data_sendmsg(struct ums_sock *ums, struct msghdr *msg, size_t len)
{
	struct ums_conn *conn = ums->conn;
	struct sock *sk = &ums->sk;
	size_t sent = 0;
	bool cork;
	long timeo;
	u64 pos;
	u32 n;
	int rc = 0;

	lock_sock(sk);
	timeo = sock_sndtimeo(sk, msg->msg_flags & MSG_DONTWAIT);
	while (sent < len) {
		rc = ums_wait(sk, timeo, ums_tx_ready,
			      EPOLLOUT | EPOLLWRNORM, false);
		if (rc)
			break;
		spin_lock_bh(&conn->lock);
		rc = ums_tx_error(conn, sk);
		n = min_t(u64, ums_tx_room(conn), len - sent);
		pos = conn->tx_prep;
		spin_unlock_bh(&conn->lock);
		if (rc)
			break;
		rc = ums_tx_copy(conn, msg, pos, n);
		if (rc)
			break;
		spin_lock_bh(&conn->lock);
		conn->tx_prep += n;
		cork = ums_tx_should_cork(conn->cdc_pend,
					  conn->tx_prep - conn->tx_write,
					  ums_cork_size(ums));
		if (cork)
			conn->corked++;
		spin_unlock_bh(&conn->lock);
		sent += n;
		if (!cork) {
			rc = ums_tx_push(conn, 0);
			if (rc)
				break;
		}
	}
	release_sock(sk);
	if (sent)
		return sent;
	if (rc == -EPIPE && !(msg->msg_flags & MSG_NOSIGNAL))
		send_sig(SIGPIPE, current, 0);
	return rc;
}

/* Under lock: bytes to read, and whether no more will come. */
static u64 ums_rx_avail(const struct ums_conn *conn, const struct sock *sk,
			bool *eof)
{
	*eof = conn->err || sk->sk_shutdown & RCV_SHUTDOWN ||
	       conn->peer_flags & (UMS_CDC_DONE_WRITING | UMS_CDC_CONN_CLOSED |
				   UMS_CDC_CONN_ABORT);
	return conn->rx_prod - conn->rx_cons;
}

static bool ums_rx_ready(struct sock *sk)
{
	struct ums_conn *conn = ums_sk(sk)->conn;
	bool eof;
	u64 avail;

	spin_lock_bh(&conn->lock);
	avail = ums_rx_avail(conn, sk, &eof);
	spin_unlock_bh(&conn->lock);
	return avail || eof;
}

/* Copy @len bytes of the RMB at cursor @pos into @msg. */
static int ums_rx_copy(struct ums_conn *conn, struct msghdr *msg, u64 pos,
		       u32 len)
{
	u32 sz = conn->rmb->size, off, n;

	for (off = 0; off < len; off += n) {
		n = ums_ring_piece(pos + off, len - off, sz, sz);
		if (copy_to_iter(conn->rmb->mem + ((pos + off) & (sz - 1)), n,
				 &msg->msg_iter) != n)
			return -EFAULT;
	}
	return 0;
}

/* After a read: tell the peer once it may write a quarter RMB more. */
static int ums_rx_update(struct ums_conn *conn)
{
	bool due;

	spin_lock_bh(&conn->lock);
	due = !conn->closed && !conn->err &&
	      conn->rx_cons - conn->rx_cons_sent >= conn->rmb->size / 4;
	spin_unlock_bh(&conn->lock);
	return due ? ums_tx_push(conn, 0) : 0;
}

/**
 * ums_data_recvmsg() - recvmsg on a connection over UMS
 * @ums: the socket
 * @msg: where to
 * @len: bytes at most
 * @flags: MSG_DONTWAIT, MSG_PEEK, MSG_WAITALL
 *
 * Return: the bytes read (0: the peer shut down its writing), or a
 * negative errno.
 */
int ums_data_recvmsg(struct ums_sock *ums, struct msghdr *msg, size_t len,
		     int flags)
{
	struct ums_conn *conn = ums->conn;
	struct sock *sk = &ums->sk;
	int target, rc = 0;
	size_t copied = 0;
	long timeo;
	bool eof;
	u64 avail, pos;
	u32 n;

	if (flags & MSG_OOB)
		return -EOPNOTSUPP;
	lock_sock(sk);
	timeo = sock_rcvtimeo(sk, flags & MSG_DONTWAIT);
	target = sock_rcvlowat(sk, flags & MSG_WAITALL, len);
	while (copied < len) {
		if (copied >= target)
			timeo = 0;
		rc = ums_wait(sk, timeo, ums_rx_ready,
			      EPOLLIN | EPOLLRDNORM, false);
		if (rc)
			break;
		spin_lock_bh(&conn->lock);
		avail = ums_rx_avail(conn, sk, &eof);
		pos = conn->rx_cons;
		rc = conn->err;
		spin_unlock_bh(&conn->lock);
		if (flags & MSG_PEEK) {
			avail -= copied;
			pos += copied;
		}
		if (!avail) {
			rc = rc ? -rc : 0;
			break;
		}
		n = min_t(u64, avail, len - copied);
		rc = ums_rx_copy(conn, msg, pos, n);
		if (rc)
			break;
		copied += n;
		if (flags & MSG_PEEK)
			continue;
		spin_lock_bh(&conn->lock);
		conn->rx_cons += n;
		spin_unlock_bh(&conn->lock);
		rc = ums_rx_update(conn);
		if (rc)
			break;
	}
	release_sock(sk);
	return copied ? copied : rc;
}

/**
 * ums_data_poll() - the readiness of a connection over UMS
 * @ums: the socket
 *
 * Return: the EPOLL* mask.
 */
__poll_t ums_data_poll(struct ums_sock *ums)
{
	struct ums_conn *conn = ums->conn;
	struct sock *sk = &ums->sk;
	__poll_t mask = 0;
	bool eof;

	spin_lock_bh(&conn->lock);
	if (conn->err)
		mask |= EPOLLERR;
	if (ums_rx_avail(conn, sk, &eof) || eof)
		mask |= EPOLLIN | EPOLLRDNORM;
	if (conn->peer_flags & (UMS_CDC_DONE_WRITING | UMS_CDC_CONN_CLOSED |
				UMS_CDC_CONN_ABORT))
		mask |= EPOLLRDHUP;
	if (ums_tx_error(conn, sk) || ums_tx_room(conn))
		mask |= EPOLLOUT | EPOLLWRNORM;
	if (conn->err || (conn->done_writing && mask & EPOLLRDHUP) ||
	    READ_ONCE(sk->sk_shutdown) == SHUTDOWN_MASK)
		mask |= EPOLLHUP;
	spin_unlock_bh(&conn->lock);
	return mask;
}

/**
 * ums_data_shutdown() - shutdown on a connection over UMS
 * @ums: the socket
 * @how: SHUT_RD, SHUT_WR or SHUT_RDWR
 *
 * Shutting writing down tells the peer (a CDC), which then reads the end.
 *
 * Return: 0 or a negative errno.
 */
int ums_data_shutdown(struct ums_sock *ums, int how)
{
	struct ums_conn *conn = ums->conn;
	struct sock *sk = &ums->sk;
	bool tell;
	int rc = 0;

	if (how < SHUT_RD || how > SHUT_RDWR)
		return -EINVAL;
	lock_sock(sk);
	sk->sk_shutdown |= how + 1;
	spin_lock_bh(&conn->lock);
	tell = how != SHUT_RD && !conn->done_writing && !conn->err;
	spin_unlock_bh(&conn->lock);
	if (tell)
		rc = ums_tx_push(conn, UMS_CDC_DONE_WRITING);
	release_sock(sk);
	ums_wake(ums, 0);
	return rc;
}

/**
 * ums_data_ioctl() - SIOCINQ (FIONREAD) and SIOCOUTQ over UMS
 * @ums: the socket
 * @cmd: SIOCINQ: bytes to read; SIOCOUTQ: bytes sent whose WRITE has not
 *	completed
 * @arg: where to put the count
 *
 * Return: 0 or -EFAULT.
 */
int ums_data_ioctl(struct ums_sock *ums, unsigned int cmd, int __user *arg)
{
	struct ums_conn *conn = ums->conn;
	bool eof;
	u64 n;

	spin_lock_bh(&conn->lock);
	n = cmd == SIOCINQ ? ums_rx_avail(conn, &ums->sk, &eof) :
			     conn->tx_prep - conn->tx_done;
	spin_unlock_bh(&conn->lock);
	return put_user((int)min_t(u64, n, INT_MAX), arg);
}

/**
 * ums_data_close() - the socket of a connection over UMS is released
 * @ums: the socket, under its lock
 *
 * The peer is told: an orderly close, or an abort when data it sent was
 * not read (as TCP's reset). The connection may outlive the socket
 * (ums_conn_detach()).
 */
void ums_data_close(struct ums_sock *ums)
{
	struct ums_conn *conn = ums->conn;
	bool eof, tell;
	u8 flag;

	spin_lock_bh(&conn->lock);
	flag = ums_rx_avail(conn, &ums->sk, &eof) ? UMS_CDC_CONN_ABORT :
						    UMS_CDC_CONN_CLOSED;
	/* after the peer's abort too: its connection waits for our close */
	tell = !conn->closed;
	spin_unlock_bh(&conn->lock);
	if (tell)
		ums_tx_push(conn, flag);
	ums->conn = NULL;
	ums_conn_detach(conn);
}
