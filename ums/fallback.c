// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * Fallback to TCP: the reasons and their counters, and the switch of a
 * socket to its clcsock. Once fallen back, a socket's file points at the
 * clcsock (system calls reach TCP directly, with TCP's semantics for
 * every option and flag) and the clcsock's wakeups are forwarded to the
 * UMS socket's wait queue, on which poll and epoll may have registered
 * before the switch.
 */
#include <linux/poll.h>
#include <net/sock.h>

#include "ums.h"

/* Indexes of struct ums_net.fallback: every reason a socket falls back. */
const u32 ums_fallback_reasons[UMS_FB_REASONS] = {
	UMS_CLC_DECL_PEERNOUMS,
	UMS_CLC_DECL_LOCAL,
	UMS_CLC_DECL_NOUMSDEV,
	UMS_CLC_DECL_DIFFPREFIX,
	UMS_CLC_DECL_NOACTLINK,
	UMS_CLC_DECL_PEERDECL,
	UMS_CLC_DECL_SYNCERR,
	UMS_CLC_DECL_MEM,
	UMS_CLC_DECL_INTERR,
};

const char *const ums_fallback_names[UMS_FB_REASONS] = {
	"peer has no UMS",
	"peer in the same namespace",
	"no UB device",
	"subnet mismatch",
	"no link",
	"peer declined",
	"malformed CLC message",
	"out of memory",
	"internal error",
};

/**
 * ums_fallback_reason_index() - the counter of a reason
 * @reason: a UMS_CLC_DECL_* code
 *
 * Return: its index in ums_fallback_reasons[]; that of
 * %UMS_CLC_DECL_INTERR for a code ums.ko does not fall back for.
 */
int ums_fallback_reason_index(u32 reason)
{
	int i;

	for (i = 0; i < UMS_FB_REASONS; i++)
		if (ums_fallback_reasons[i] == reason)
			return i;
	return UMS_FB_REASONS - 1;
}

/**
 * ums_switch_to_fallback() - make a socket plain TCP on its clcsock
 * @ums: the socket, its handshake over; under its socket lock (a
 *	listener's child: its listener's)
 * @reason: why, a UMS_CLC_DECL_* code
 * @server: the socket is a listener's child
 */
void ums_switch_to_fallback(struct ums_sock *ums, u32 reason, bool server)
{
	struct ums_net *un = ums_net(sock_net(&ums->sk));

	ums->fallback_reason = reason;
	WRITE_ONCE(ums->use_fallback, true);
	atomic64_inc(&un->fallback[ums_fallback_reason_index(reason)][server]);
}

/**
 * ums_wake() - wake the waiters of a UMS socket
 * @ums: the socket
 * @mask: the EPOLL* events, or 0 for every waiter
 *
 * Any context but hard irq.
 */
void ums_wake(struct ums_sock *ums, __poll_t mask)
{
	struct socket_wq *wq;

	rcu_read_lock();
	wq = rcu_dereference(ums->sk.sk_wq);
	if (skwq_has_sleeper(wq)) {
		if (mask)
			wake_up_interruptible_poll(&wq->wait, mask);
		else
			wake_up_interruptible_all(&wq->wait);
	}
	rcu_read_unlock();
}

/*
 * Run the clcsock's own callback (saved at @saved in struct ums_sock),
 * then wake the UMS socket's waiters with @mask (0: all).
 */
static void ums_fb_forward(struct sock *clcsk, size_t saved, __poll_t mask)
{
	void (**callback)(struct sock *sk);
	struct ums_sock *ums;

	read_lock_bh(&clcsk->sk_callback_lock);
	ums = ums_clcsk_owner(clcsk);
	if (ums) {
		callback = (void *)((u8 *)ums + saved);
		(*callback)(clcsk);
		ums_wake(ums, mask);
	}
	read_unlock_bh(&clcsk->sk_callback_lock);
}

static void ums_fb_state_change(struct sock *clcsk)
{
	ums_fb_forward(clcsk, offsetof(struct ums_sock, fb_state_change), 0);
}

static void ums_fb_data_ready(struct sock *clcsk)
{
	ums_fb_forward(clcsk, offsetof(struct ums_sock, fb_data_ready),
		       EPOLLIN | EPOLLRDNORM | EPOLLRDBAND);
}

static void ums_fb_write_space(struct sock *clcsk)
{
	ums_fb_forward(clcsk, offsetof(struct ums_sock, fb_write_space),
		       EPOLLOUT | EPOLLWRNORM | EPOLLWRBAND);
}

static void ums_fb_error_report(struct sock *clcsk)
{
	ums_fb_forward(clcsk, offsetof(struct ums_sock, fb_error_report),
		       EPOLLERR);
}

/**
 * ums_fallback_attach() - point a fallen-back socket at its clcsock
 * @ums: the socket, fallen back, under its socket lock (a child being
 *	accepted: no one else sees it)
 *
 * The file (if any: a kernel socket has none) is the clcsock's from now
 * on until release; the clcsock's wakeups reach the UMS socket's waiters.
 */
void ums_fallback_attach(struct ums_sock *ums)
{
	struct socket *sock = ums->sk.sk_socket;
	struct sock *clcsk = ums->clcsock->sk;

	write_lock_bh(&clcsk->sk_callback_lock);
	__rcu_assign_sk_user_data_with_flags(clcsk, ums, SK_USER_DATA_NOCOPY);
	ums->fb_state_change = clcsk->sk_state_change;
	ums->fb_data_ready = clcsk->sk_data_ready;
	ums->fb_write_space = clcsk->sk_write_space;
	ums->fb_error_report = clcsk->sk_error_report;
	clcsk->sk_state_change = ums_fb_state_change;
	clcsk->sk_data_ready = ums_fb_data_ready;
	clcsk->sk_write_space = ums_fb_write_space;
	clcsk->sk_error_report = ums_fb_error_report;
	write_unlock_bh(&clcsk->sk_callback_lock);

	if (sock && sock->file) {
		ums->clcsock->file = sock->file;
		ums->clcsock->wq.fasync_list = sock->wq.fasync_list;
		sock->wq.fasync_list = NULL;
		WRITE_ONCE(sock->file->private_data, ums->clcsock);
	}
	/* what happened before the callbacks were ours */
	ums_wake(ums, 0);
}

/**
 * ums_fallback_detach() - undo ums_fallback_attach() before release
 * @ums: the socket, under its socket lock; fallen back or not
 */
void ums_fallback_detach(struct ums_sock *ums)
{
	struct sock *clcsk = ums->clcsock->sk;

	if (!ums->fb_data_ready)
		return;
	if (ums->clcsock->file) {
		WRITE_ONCE(ums->clcsock->file->private_data, ums->sk.sk_socket);
		ums->clcsock->file = NULL;
	}
	write_lock_bh(&clcsk->sk_callback_lock);
	rcu_assign_sk_user_data(clcsk, NULL);
	clcsk->sk_state_change = ums->fb_state_change;
	clcsk->sk_data_ready = ums->fb_data_ready;
	clcsk->sk_write_space = ums->fb_write_space;
	clcsk->sk_error_report = ums->fb_error_report;
	write_unlock_bh(&clcsk->sk_callback_lock);
	ums->fb_data_ready = NULL;
}
