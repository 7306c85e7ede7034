// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * The socket operations of AF_SMC sockets. A socket wraps its clcsock
 * (ums.h); until the handshake has decided, the operations here act on
 * the UMS socket; after a fallback each one is the clcsock's, and a
 * socket with a file is switched to the clcsock outright (fallback.c), so
 * that system calls reach TCP directly. Locking: the socket lock of the
 * UMS socket orders its state changes (sk_state, @connect_nonblock,
 * @use_fallback, the accept queue); the clcsock has its own.
 */
#include <linux/module.h>
#include <linux/pipe_fs_i.h>
#include <linux/poll.h>
#include <linux/sched/signal.h>
#include <asm/ioctls.h>
#include <linux/sockios.h>
#include <linux/splice.h>
#include <linux/uio.h>
#include <net/tcp.h>

#include "ums.h"

/* SOL_SOCKET flags TCP acts on, set on the UMS socket by the core */
#define UMS_SK_FLAGS_TO_CLC ((1UL << SOCK_URGINLINE) | \
			     (1UL << SOCK_KEEPOPEN) | \
			     (1UL << SOCK_LINGER) | \
			     (1UL << SOCK_BROADCAST) | \
			     (1UL << SOCK_TIMESTAMP) | \
			     (1UL << SOCK_DBG) | \
			     (1UL << SOCK_RCVTSTAMP) | \
			     (1UL << SOCK_RCVTSTAMPNS) | \
			     (1UL << SOCK_LOCALROUTE) | \
			     (1UL << SOCK_RXQ_OVFL) | \
			     (1UL << SOCK_NOFCS) | \
			     (1UL << SOCK_TSTAMP_NEW))

/*
 * SOL_SOCKET options go to the UMS socket (net/core), not to its ops:
 * before the clcsock connects or listens, it takes those TCP acts on.
 */
static void ums_copy_settings(struct sock *to, const struct sock *from)
{
	to->sk_sndtimeo = from->sk_sndtimeo;
	to->sk_rcvtimeo = from->sk_rcvtimeo;
	to->sk_mark = from->sk_mark;
	to->sk_priority = from->sk_priority;
	to->sk_rcvlowat = from->sk_rcvlowat;
	to->sk_bound_dev_if = from->sk_bound_dev_if;
	to->sk_lingertime = from->sk_lingertime;
	to->sk_reuse = from->sk_reuse;
	to->sk_reuseport = from->sk_reuseport;
	to->sk_flags = (to->sk_flags & ~UMS_SK_FLAGS_TO_CLC) |
		       (from->sk_flags & UMS_SK_FLAGS_TO_CLC);
	to->sk_userlocks = from->sk_userlocks;
	if (from->sk_userlocks & SOCK_SNDBUF_LOCK)
		WRITE_ONCE(to->sk_sndbuf, from->sk_sndbuf);
	if (from->sk_userlocks & SOCK_RCVBUF_LOCK)
		WRITE_ONCE(to->sk_rcvbuf, from->sk_rcvbuf);
}

/* SO_KEEPALIVE on the UMS socket starts or stops TCP's timer. */
static void ums_set_keepalive(struct sock *sk, int val)
{
	struct sock *clcsk = ums_sk(sk)->clcsock->sk;

	clcsk->sk_prot->keepalive(clcsk, val);
}

struct proto ums_proto = {
	.name		= "UMS",
	.owner		= THIS_MODULE,
	.keepalive	= ums_set_keepalive,
	.obj_size	= sizeof(struct ums_sock),
};

struct proto ums_proto6 = {
	.name		= "UMS6",
	.owner		= THIS_MODULE,
	.keepalive	= ums_set_keepalive,
	.obj_size	= sizeof(struct ums_sock),
};

static void ums_connect_work(struct work_struct *work);
static void ums_listen_work(struct work_struct *work);
static void ums_hs_work(struct work_struct *work);

/* A new UMS socket (@sock NULL: a listener's child), without clcsock. */
static struct sock *ums_sk_alloc(struct net *net, struct socket *sock,
				 struct proto *prot, int kern)
{
	struct ums_net *un = ums_net(net);
	struct ums_sock *ums;
	struct sock *sk;

	sk = sk_alloc(net, PF_SMC, GFP_KERNEL, prot, kern);
	if (!sk)
		return NULL;
	sock_init_data(sock, sk);
	sk->sk_state = UMS_INIT;
	sk->sk_protocol = prot == &ums_proto6 ? UMS_PROTO_SMC6 : UMS_PROTO_SMC;
	WRITE_ONCE(sk->sk_sndbuf, READ_ONCE(un->snd_buf));
	WRITE_ONCE(sk->sk_rcvbuf, READ_ONCE(un->rcv_buf));
	ums = ums_sk(sk);
	INIT_WORK(&ums->connect_work, ums_connect_work);
	INIT_WORK(&ums->listen_work, ums_listen_work);
	INIT_WORK(&ums->hs_work, ums_hs_work);
	INIT_LIST_HEAD(&ums->accept_q);
	INIT_LIST_HEAD(&ums->accept_node);
	return sk;
}

/**
 * ums_create() - socket(AF_SMC, SOCK_STREAM, @protocol)
 * @net: the caller's network namespace
 * @sock: the new socket
 * @protocol: SMCPROTO_SMC (0) or IPPROTO_TCP for IPv4, SMCPROTO_SMC6 (1)
 *	for IPv6
 * @kern: a kernel socket
 *
 * Return: 0 or a negative errno.
 */
int ums_create(struct net *net, struct socket *sock, int protocol, int kern)
{
	struct socket *clcsock;
	struct proto *prot;
	struct sock *sk;
	int family, rc;

	if (sock->type != SOCK_STREAM)
		return -ESOCKTNOSUPPORT;
	switch (protocol) {
	case UMS_PROTO_SMC:
	case IPPROTO_TCP:
		family = AF_INET;
		prot = &ums_proto;
		break;
	case UMS_PROTO_SMC6:
		family = AF_INET6;
		prot = &ums_proto6;
		break;
	default:
		return -EPROTONOSUPPORT;
	}
	/*
	 * Created as the caller's socket (not a kernel one): it holds its
	 * namespace while TCP closes it after the UMS socket is gone.
	 */
	rc = __sock_create(net, family, SOCK_STREAM, IPPROTO_TCP, &clcsock,
			   kern);
	if (rc)
		return rc;
	sock->state = SS_UNCONNECTED;
	sock->ops = &ums_sock_ops;
	sk = ums_sk_alloc(net, sock, prot, kern);
	if (!sk) {
		sock_release(clcsock);
		return -ENOBUFS;
	}
	ums_sk(sk)->clcsock = clcsock;
	ums_sock_list_add(ums_sk(sk));
	return 0;
}

/* Drop a child that was never accepted. */
static void ums_child_close(struct ums_sock *ums)
{
	/* off the list first: /proc looks at the connection of listed ones */
	ums_sock_list_del(ums);
	if (ums->conn) {
		lock_sock(&ums->sk);
		ums_data_close(ums);
		release_sock(&ums->sk);
	}
	sock_release(ums->clcsock);
	ums->clcsock = NULL;
	ums->sk.sk_state = UMS_CLOSED;
	sock_orphan(&ums->sk);
	sock_put(&ums->sk);
}

static void ums_listen_stop(struct ums_sock *ums)
{
	struct sock *clcsk = ums->clcsock->sk;

	write_lock_bh(&clcsk->sk_callback_lock);
	rcu_assign_sk_user_data(clcsk, NULL);
	clcsk->sk_data_ready = ums->clc_data_ready;
	write_unlock_bh(&clcsk->sk_callback_lock);
}

static int ums_release(struct socket *sock)
{
	struct sock *sk = sock->sk;
	struct ums_sock *ums, *child, *tmp;
	LIST_HEAD(children);

	if (!sk)
		return 0;
	ums = ums_sk(sk);
	sock_hold(sk);
	/* off the list first: /proc looks at the connection of listed ones */
	ums_sock_list_del(ums);
	/* a non-blocking connect's work may wait on TCP or the peer's CLC */
	if (READ_ONCE(ums->connect_nonblock) && sk->sk_state == UMS_INIT)
		tcp_abort(ums->clcsock->sk, ECONNABORTED);
	if (cancel_work_sync(&ums->connect_work))
		sock_put(sk);

	lock_sock(sk);
	if (sk->sk_state == UMS_LISTEN) {
		sk->sk_state = UMS_CLOSED;
		ums_listen_stop(ums);
		list_splice_init(&ums->accept_q, &children);
	}
	if (ums->conn)
		ums_data_close(ums);
	sk->sk_state = UMS_CLOSED;
	sk->sk_shutdown = SHUTDOWN_MASK;
	ums_fallback_detach(ums);
	release_sock(sk);

	if (cancel_work_sync(&ums->listen_work))
		sock_put(sk);
	list_for_each_entry_safe(child, tmp, &children, accept_node) {
		list_del_init(&child->accept_node);
		ums_child_close(child);
	}
	sock_release(ums->clcsock);
	ums->clcsock = NULL;

	sock_orphan(sk);
	sock->sk = NULL;
	sock_put(sk);	/* the hold above */
	sock_put(sk);	/* the socket's */
	return 0;
}

static int ums_bind(struct socket *sock, struct sockaddr *uaddr, int addr_len)
{
	struct sock *sk = sock->sk;
	struct ums_sock *ums = ums_sk(sk);
	int rc = -EINVAL;

	lock_sock(sk);
	if (sk->sk_state == UMS_INIT && !ums->connect_nonblock &&
	    !ums->use_fallback) {
		ums_copy_settings(ums->clcsock->sk, sk);
		rc = kernel_bind(ums->clcsock, uaddr, addr_len);
	}
	release_sock(sk);
	return rc;
}

/*
 * The handshake of a connected clcsock has ended: UMS (@rc 0, the
 * connection set), fall back (@rc > 0, the reason) or fail (@rc < 0).
 * Under the socket lock.
 */
static int ums_connect_done(struct ums_sock *ums, int rc)
{
	struct sock *sk = &ums->sk;

	if (rc < 0) {
		sk->sk_err = -rc;
		sk->sk_state = UMS_CLOSED;
		kernel_sock_shutdown(ums->clcsock, SHUT_RDWR);
		return rc;
	}
	if (rc)
		ums_switch_to_fallback(ums, rc, false);
	sk->sk_state = UMS_ACTIVE;
	if (sk->sk_socket)
		sk->sk_socket->state = SS_CONNECTED;
	if (rc)
		ums_fallback_attach(ums);
	return 0;
}

/* A non-blocking (or interrupted) connect: the rest, off the caller. */
static void ums_connect_work(struct work_struct *work)
{
	struct ums_sock *ums = container_of(work, struct ums_sock,
					    connect_work);
	struct sock *clcsk = ums->clcsock->sk;
	struct sock *sk = &ums->sk;
	long timeo = MAX_SCHEDULE_TIMEOUT;
	int rc = 0;

	lock_sock(clcsk);
	if ((1 << clcsk->sk_state) & (TCPF_SYN_SENT | TCPF_SYN_RECV))
		rc = sk_stream_wait_connect(clcsk, &timeo);
	if (!rc && clcsk->sk_state != TCP_ESTABLISHED &&
	    clcsk->sk_state != TCP_CLOSE_WAIT)
		rc = sock_error(clcsk) ? : -ECONNABORTED;
	release_sock(clcsk);
	if (!rc)
		rc = ums_clc_client(ums);

	lock_sock(sk);
	ums_connect_done(ums, rc);
	WRITE_ONCE(ums->connect_nonblock, false);
	release_sock(sk);
	sk->sk_state_change(sk);
	sock_put(sk);	/* ums_connect()'s */
}

/* A waiter of ums_wait(): the events it waits for. */
struct ums_waiter {
	struct wait_queue_entry entry;
	__poll_t events;
};

/*
 * A wake-up whose poll key names none of the waiter's events leaves it
 * asleep: a reader is not woken for every completion that frees send
 * buffer, nor a writer for every byte that arrives.
 */
static int ums_waiter_wake(struct wait_queue_entry *entry, unsigned int mode,
			   int sync, void *key)
{
	struct ums_waiter *w = container_of(entry, struct ums_waiter, entry);

	if (key && w->events && !(key_to_poll(key) & w->events))
		return 0;
	return woken_wake_function(entry, mode, sync, key);
}

/**
 * ums_wait() - wait for a condition of a socket
 * @sk: the socket, under its lock, which is dropped while asleep
 * @timeo: jiffies at most (0: do not wait)
 * @done: the condition, read under the lock
 * @events: the EPOLL* events that may make @done true (0: any wake-up);
 *	errors and hang-ups always wake
 * @exclusive: wait as an exclusive waiter (accept)
 *
 * Return: 0 or a negative errno (-EAGAIN: timed out, or a signal's).
 */
int ums_wait(struct sock *sk, long timeo, bool (*done)(struct sock *sk),
	     __poll_t events, bool exclusive)
{
	struct ums_waiter w = {
		.events = events ? events | EPOLLERR | EPOLLHUP | EPOLLRDHUP :
				   0,
	};
	int rc = 0;

	init_wait(&w.entry);
	w.entry.func = ums_waiter_wake;
	if (exclusive)
		add_wait_queue_exclusive(sk_sleep(sk), &w.entry);
	else
		add_wait_queue(sk_sleep(sk), &w.entry);
	while (!done(sk)) {
		if (!timeo) {
			rc = -EAGAIN;
			break;
		}
		if (signal_pending(current)) {
			rc = sock_intr_errno(timeo);
			break;
		}
		sk_wait_event(sk, &timeo, done(sk), &w.entry);
	}
	remove_wait_queue(sk_sleep(sk), &w.entry);
	return rc;
}

static bool ums_connect_ended(struct sock *sk)
{
	return !READ_ONCE(ums_sk(sk)->connect_nonblock);
}

/* Wait until a connect in progress has ended; 0 or a negative errno. */
static int ums_wait_connect(struct sock *sk, long timeo)
{
	return ums_wait(sk, timeo, ums_connect_ended, 0, false);
}

static int ums_connect(struct socket *sock, struct sockaddr *addr, int alen,
		       int flags)
{
	struct sock *sk = sock->sk;
	struct ums_sock *ums = ums_sk(sk);
	int rc;

	lock_sock(sk);
	if (ums->use_fallback || sk->sk_state == UMS_LISTEN) {
		/* TCP's answer: EISCONN, EALREADY, ... */
		rc = kernel_connect(ums->clcsock, addr, alen, flags);
		goto out;
	}
	if (ums->connect_nonblock) {
		/* TCP's: a blocking call waits for the connect under way */
		if (flags & O_NONBLOCK) {
			rc = -EALREADY;
			goto out;
		}
		rc = ums_wait_connect(sk, sock_sndtimeo(sk, 0));
		if (!rc && !ums->use_fallback && !ums->conn)
			rc = sock_error(sk) ? : -ECONNABORTED;
		goto out;
	}
	if (sk->sk_state == UMS_CLOSED) {
		rc = sock_error(sk) ? : -ECONNABORTED;
		goto out;
	}
	if (sk->sk_state == UMS_ACTIVE) {
		/* connected over UMS: TCP's clcsock would say 0 once */
		rc = -EISCONN;
		goto out;
	}
	ums_copy_settings(ums->clcsock->sk, sk);
	tcp_sk(ums->clcsock->sk)->syn_smc = 1;
	rc = kernel_connect(ums->clcsock, addr, alen, flags);
	if (rc == -EINPROGRESS || rc == -ERESTARTSYS || rc == -EINTR) {
		/* TCP goes on connecting: so does the handshake after it */
		sock->state = SS_CONNECTING;
		WRITE_ONCE(ums->connect_nonblock, true);
		sock_hold(sk);
		queue_work(ums_wq, &ums->connect_work);
		goto out;
	}
	if (rc)
		goto out;
	sock->state = SS_CONNECTING;
	rc = ums_connect_done(ums, ums_clc_client(ums));
out:
	release_sock(sk);
	return rc;
}

static int ums_sendmsg(struct socket *sock, struct msghdr *msg, size_t len)
{
	struct sock *sk = sock->sk;
	struct ums_sock *ums = ums_sk(sk);
	int rc;

	if (!ums->use_fallback) {
		lock_sock(sk);
		rc = ums_wait_connect(sk, sock_sndtimeo(sk, msg->msg_flags &
							MSG_DONTWAIT));
		release_sock(sk);
		if (rc)
			return rc;
		if (ums->conn)
			return ums_data_sendmsg(ums, msg, len);
		if (!ums->use_fallback)
			return sk_stream_error(sk, msg->msg_flags, -EPIPE);
	}
	return ums->clcsock->ops->sendmsg(ums->clcsock, msg, len);
}

static int ums_recvmsg(struct socket *sock, struct msghdr *msg, size_t len,
		       int flags)
{
	struct sock *sk = sock->sk;
	struct ums_sock *ums = ums_sk(sk);
	int rc;

	if (!ums->use_fallback) {
		lock_sock(sk);
		rc = ums_wait_connect(sk, sock_rcvtimeo(sk, flags &
							MSG_DONTWAIT));
		release_sock(sk);
		if (rc)
			return rc;
		if (ums->conn)
			return ums_data_recvmsg(ums, msg, len, flags);
		if (!ums->use_fallback)
			return -ENOTCONN;
	}
	return ums->clcsock->ops->recvmsg(ums->clcsock, msg, len, flags);
}

static __poll_t ums_poll(struct file *file, struct socket *sock,
			 poll_table *wait)
{
	struct sock *sk = sock->sk;
	struct ums_sock *ums = ums_sk(sk);
	__poll_t mask = 0;

	sock_poll_wait(file, sock, wait);
	if (READ_ONCE(ums->use_fallback))
		return ums->clcsock->ops->poll(file, ums->clcsock, wait);
	switch (inet_sk_state_load(sk)) {
	case UMS_LISTEN:
		if (!list_empty_careful(&ums->accept_q))
			mask |= EPOLLIN | EPOLLRDNORM;
		return mask;
	case UMS_CLOSED:
		mask = EPOLLHUP;
		if (READ_ONCE(sk->sk_err))
			mask |= EPOLLERR;
		return mask;
	default:
		/* connecting: nothing until the handshake has decided */
		if (READ_ONCE(ums->connect_nonblock))
			return 0;
		if (ums->conn)
			return ums_data_poll(ums);
		/* never connected: what an unconnected TCP socket says */
		return ums->clcsock->ops->poll(file, ums->clcsock, wait);
	}
}

/* Under @lsk's lock: take TCP connections for the handshake. */
static void ums_listen_child(struct ums_sock *lums, struct socket *clcsock)
{
	struct sock *lsk = &lums->sk;
	struct sock *clcsk = clcsock->sk;
	struct ums_sock *ums;
	struct sock *sk;

	sk = ums_sk_alloc(sock_net(lsk), NULL, lsk->sk_prot, 0);
	if (!sk) {
		sock_release(clcsock);
		return;
	}
	ums = ums_sk(sk);
	ums_copy_settings(sk, lsk);
	/* TCP's child inherited the listener's callback: not ours to keep */
	write_lock_bh(&clcsk->sk_callback_lock);
	clcsk->sk_data_ready = lums->clc_data_ready;
	write_unlock_bh(&clcsk->sk_callback_lock);
	ums->clcsock = clcsock;
	ums->listener = lsk;
	sock_hold(lsk);
	sk_acceptq_added(lsk);
	ums_sock_list_add(ums);
	queue_work(ums_wq, &ums->hs_work);
}

static void ums_listen_work(struct work_struct *work)
{
	struct ums_sock *lums = container_of(work, struct ums_sock,
					     listen_work);
	struct sock *lsk = &lums->sk;
	struct socket *clcsock;

	lock_sock(lsk);
	while (lsk->sk_state == UMS_LISTEN && !sk_acceptq_is_full(lsk)) {
		if (kernel_accept(lums->clcsock, &clcsock, O_NONBLOCK))
			break;
		ums_listen_child(lums, clcsock);
	}
	release_sock(lsk);
	sock_put(lsk);	/* the queuer's */
}

static void ums_listen_kick(struct ums_sock *lums)
{
	sock_hold(&lums->sk);
	if (!queue_work(ums_wq, &lums->listen_work))
		sock_put(&lums->sk);
}

/* A listening clcsock's sk_data_ready: a TCP connection to take. */
static void ums_clc_listen_data_ready(struct sock *clcsk)
{
	struct ums_sock *lums;

	read_lock_bh(&clcsk->sk_callback_lock);
	lums = ums_clcsk_owner(clcsk);
	if (lums) {
		lums->clc_data_ready(clcsk);
		if (READ_ONCE(lums->sk.sk_state) == UMS_LISTEN)
			ums_listen_kick(lums);
	}
	read_unlock_bh(&clcsk->sk_callback_lock);
}

/* The server side of a child's handshake, then the accept queue. */
static void ums_hs_work(struct work_struct *work)
{
	struct ums_sock *ums = container_of(work, struct ums_sock, hs_work);
	struct sock *lsk = ums->listener;
	int rc = ums_clc_server(ums);

	lock_sock(lsk);
	if (rc >= 0 && lsk->sk_state == UMS_LISTEN) {
		if (rc)
			ums_switch_to_fallback(ums, rc, true);
		ums->sk.sk_state = UMS_ACTIVE;
		list_add_tail(&ums->accept_node, &ums_sk(lsk)->accept_q);
		lsk->sk_data_ready(lsk);
		release_sock(lsk);
	} else {
		sk_acceptq_removed(lsk);
		release_sock(lsk);
		ums_child_close(ums);
	}
	ums->listener = NULL;
	sock_put(lsk);
}

static int ums_listen(struct socket *sock, int backlog)
{
	struct sock *sk = sock->sk;
	struct ums_sock *ums = ums_sk(sk);
	struct sock *clcsk = ums->clcsock->sk;
	int rc = -EINVAL;

	lock_sock(sk);
	if (sk->sk_state == UMS_LISTEN) {
		rc = kernel_listen(ums->clcsock, backlog);
		if (!rc)
			WRITE_ONCE(sk->sk_max_ack_backlog, backlog);
		goto out;
	}
	if (sk->sk_state != UMS_INIT || ums->connect_nonblock ||
	    ums->use_fallback || sock->state != SS_UNCONNECTED)
		goto out;
	ums_copy_settings(clcsk, sk);
	tcp_sk(clcsk)->syn_smc = 1;
	write_lock_bh(&clcsk->sk_callback_lock);
	__rcu_assign_sk_user_data_with_flags(clcsk, ums, SK_USER_DATA_NOCOPY);
	ums->clc_data_ready = clcsk->sk_data_ready;
	clcsk->sk_data_ready = ums_clc_listen_data_ready;
	write_unlock_bh(&clcsk->sk_callback_lock);
	sk->sk_state = UMS_LISTEN;
	rc = kernel_listen(ums->clcsock, backlog);
	if (rc) {
		sk->sk_state = UMS_INIT;
		ums_listen_stop(ums);
		goto out;
	}
	WRITE_ONCE(sk->sk_max_ack_backlog, backlog);
	sk->sk_ack_backlog = 0;
out:
	release_sock(sk);
	return rc;
}

/* A child to accept, or no more listening. */
static bool ums_accept_ready(struct sock *lsk)
{
	return !list_empty(&ums_sk(lsk)->accept_q) ||
	       lsk->sk_state != UMS_LISTEN;
}

static int ums_accept(struct socket *sock, struct socket *new_sock,
		      int flags, bool kern)
{
	struct sock *lsk = sock->sk;
	struct ums_sock *lums = ums_sk(lsk);
	struct ums_sock *ums;
	int rc = 0;

	lock_sock(lsk);
	if (lsk->sk_state != UMS_LISTEN) {
		rc = -EINVAL;
		goto out;
	}
	rc = ums_wait(lsk, sock_rcvtimeo(lsk, flags & O_NONBLOCK),
		      ums_accept_ready, 0, true);
	if (!rc && lsk->sk_state != UMS_LISTEN)
		rc = -EINVAL;
	if (rc)
		goto out;
	ums = list_first_entry(&lums->accept_q, struct ums_sock, accept_node);
	list_del_init(&ums->accept_node);
	sk_acceptq_removed(lsk);
	/* room again: TCP may hold connections the full queue left there */
	ums_listen_kick(lums);

	/* off the queue, the child is ours alone: no lock of its own */
	sock_graft(&ums->sk, new_sock);
	new_sock->state = SS_CONNECTED;
	if (ums->use_fallback)
		ums_fallback_attach(ums);
out:
	release_sock(lsk);
	return rc;
}

static int ums_getname(struct socket *sock, struct sockaddr *addr, int peer)
{
	struct ums_sock *ums = ums_sk(sock->sk);

	return ums->clcsock->ops->getname(ums->clcsock, addr, peer);
}

static int ums_shutdown(struct socket *sock, int how)
{
	struct sock *sk = sock->sk;
	struct ums_sock *ums = ums_sk(sk);
	int rc;

	if (ums->conn)
		return ums_data_shutdown(ums, how);
	rc = ums->clcsock->ops->shutdown(ums->clcsock, how);
	sk->sk_state_change(sk);
	return rc;
}

static int ums_setsockopt(struct socket *sock, int level, int optname,
			  sockptr_t optval, unsigned int optlen)
{
	struct ums_sock *ums = ums_sk(sock->sk);

	/* an upper layer protocol would take over the clcsock's stream */
	if (level == SOL_TCP && optname == TCP_ULP)
		return -EOPNOTSUPP;
	return ums->clcsock->ops->setsockopt(ums->clcsock, level, optname,
					     optval, optlen);
}

static int ums_getsockopt(struct socket *sock, int level, int optname,
			  char __user *optval, int __user *optlen)
{
	struct ums_sock *ums = ums_sk(sock->sk);

	return ums->clcsock->ops->getsockopt(ums->clcsock, level, optname,
					     optval, optlen);
}

static int ums_ioctl(struct socket *sock, unsigned int cmd, unsigned long arg)
{
	struct ums_sock *ums = ums_sk(sock->sk);

	if (ums->conn && (cmd == SIOCINQ || cmd == SIOCOUTQ))
		return ums_data_ioctl(ums, cmd, (int __user *)arg);
	return ums->clcsock->ops->ioctl(ums->clcsock, cmd, arg);
}

static ssize_t ums_sendpage(struct socket *sock, struct page *page,
			    int offset, size_t size, int flags)
{
	struct ums_sock *ums = ums_sk(sock->sk);

	if (ums->conn)
		return sock_no_sendpage(sock, page, offset, size, flags);
	if (!READ_ONCE(ums->use_fallback))
		return -EPIPE;
	return ums->clcsock->ops->sendpage(ums->clcsock, page, offset, size,
					   flags);
}

/*
 * Over UMS the bytes are copied from the RMB into the pipe's own pages,
 * as recvmsg copies them into user memory: the RMB is the peer's to write
 * again as soon as they are consumed, so its pages cannot be lent to a
 * pipe. The caller (do_splice_to()) bounds @len by the pipe's room.
 */
static ssize_t ums_splice_read(struct socket *sock, loff_t *ppos,
			       struct pipe_inode_info *pipe, size_t len,
			       unsigned int flags)
{
	struct ums_sock *ums = ums_sk(sock->sk);
	struct msghdr msg = {};

	if (READ_ONCE(ums->use_fallback))
		return ums->clcsock->ops->splice_read(ums->clcsock, ppos, pipe,
						      len, flags);
	iov_iter_pipe(&msg.msg_iter, ITER_DEST, pipe, len);
	return ums_recvmsg(sock, &msg, len,
			   flags & SPLICE_F_NONBLOCK ? MSG_DONTWAIT : 0);
}

const struct proto_ops ums_sock_ops = {
	.family		= PF_SMC,
	.owner		= THIS_MODULE,
	.release	= ums_release,
	.bind		= ums_bind,
	.connect	= ums_connect,
	.socketpair	= sock_no_socketpair,
	.accept		= ums_accept,
	.getname	= ums_getname,
	.poll		= ums_poll,
	.ioctl		= ums_ioctl,
	.listen		= ums_listen,
	.shutdown	= ums_shutdown,
	.setsockopt	= ums_setsockopt,
	.getsockopt	= ums_getsockopt,
	.sendmsg	= ums_sendmsg,
	.recvmsg	= ums_recvmsg,
	.mmap		= sock_no_mmap,
	.sendpage	= ums_sendpage,
	.splice_read	= ums_splice_read,
};
