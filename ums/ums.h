/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * ums.ko: the AF_SMC socket family over UB (UMS). A UMS socket wraps an
 * internal TCP socket, the "clcsock": the connection is set up over it,
 * both ends trade CLC messages on it (handshake.c) and, when they cannot
 * use UMS, the socket stays on that TCP connection ("fallback"), which is
 * the only outcome until the URMA data path exists.
 */
#ifndef _UMS_UMS_H
#define _UMS_UMS_H

#include <linux/list.h>
#include <linux/net.h>
#include <linux/workqueue.h>
#include <net/sock.h>

#include "clc.h"

struct ums_conn;
struct ubcore_device;

/* Values of sk_state, UMDK's (the names are /proc/net/ums's). */
enum {
	UMS_ACTIVE = 1,
	UMS_INIT = 2,
	UMS_CLOSED = 7,
	UMS_LISTEN = 10,
};

/* socket(AF_SMC, SOCK_STREAM, protocol): the IP family of the clcsock */
#define UMS_PROTO_SMC	0	/* SMCPROTO_SMC: IPv4 */
#define UMS_PROTO_SMC6	1	/* SMCPROTO_SMC6: IPv6 */

/* How long a peer has to send its next CLC message (UMDK's). */
#define UMS_CLC_WAIT	(20 * HZ)

/**
 * struct ums_sock - a UMS socket
 * @sk: the socket (first: sk_alloc() allocates struct ums_sock)
 * @clcsock: the internal TCP socket; set at creation (a listener's
 *	children: at accept of the TCP connection), released in release
 * @conn: the connection over UMS, once the handshake set it up (then
 *	@use_fallback stays false); until release
 * @use_fallback: the connection is plain TCP on @clcsock; set once, by
 *	the handshake under the socket lock, never cleared
 * @fallback_reason: why (a UMS_CLC_DECL_* code); written with @use_fallback
 * @peer_reason: the code of the peer's decline, when it declined
 * @connect_nonblock: a non-blocking connect's @connect_work is queued or
 *	running (socket lock)
 * @connect_work: the TCP connect and CLC of a non-blocking connect
 * @listen_work: a listener's: takes the TCP connections of @clcsock
 * @hs_work: a listener's child's: the server side of the CLC
 * @listener: a child's listener, held (sock_hold) until the child is
 *	queued for accept or dropped
 * @accept_q: a listener's children whose handshake is done, oldest first;
 *	under the listener's socket lock
 * @accept_node: a child's entry in its listener's @accept_q
 * @list: the entry in the list of every UMS socket (proc.c)
 * @clc_data_ready: a listener's @clcsock's sk_data_ready before ours
 * @fb_state_change: a fallen-back socket's @clcsock callbacks before ours
 * @fb_data_ready: as @fb_state_change
 * @fb_write_space: as @fb_state_change
 * @fb_error_report: as @fb_state_change
 *
 * The clcsock callbacks and their sk_user_data (this socket) are written
 * under the clcsock's sk_callback_lock (write_lock_bh) and read under it
 * (read_lock_bh), so no callback sees this socket after it restored them.
 */
struct ums_sock {
	struct sock sk;
	struct socket *clcsock;
	struct ums_conn *conn;
	bool use_fallback;
	u32 fallback_reason;
	u32 peer_reason;
	bool connect_nonblock;
	struct work_struct connect_work;
	struct work_struct listen_work;
	struct work_struct hs_work;
	struct sock *listener;
	struct list_head accept_q;
	struct list_head accept_node;
	struct hlist_node list;
	void (*clc_data_ready)(struct sock *sk);
	void (*fb_state_change)(struct sock *sk);
	void (*fb_data_ready)(struct sock *sk);
	void (*fb_write_space)(struct sock *sk);
	void (*fb_error_report)(struct sock *sk);
};

static inline struct ums_sock *ums_sk(const struct sock *sk)
{
	return (struct ums_sock *)sk;
}

/*
 * The UMS socket a clcsock's callbacks serve: its sk_user_data, read
 * under its sk_callback_lock, which its writers hold too.
 */
static inline struct ums_sock *ums_clcsk_owner(struct sock *clcsk)
{
	return (void *)((uintptr_t)READ_ONCE(clcsk->sk_user_data) &
			SK_USER_DATA_PTRMASK);
}

/*
 * Fallback reasons counted per network namespace: the index of a code in
 * ums_fallback_reasons[] (fallback.c).
 */
#define UMS_FB_REASONS	9

/**
 * struct ums_net - a network namespace's UMS state
 * @autocorking_size: sysctl net.ums.autocorking_size
 * @snd_buf: sysctl net.ums.snd_buf, the initial SO_SNDBUF of a socket
 * @rcv_buf: sysctl net.ums.rcv_buf, the initial SO_RCVBUF of a socket
 * @sysctl_hdr: the registered net.ums table
 * @fallback: connections fallen back, by reason and side ([.][0]: client,
 *	[.][1]: server); atomic, any context
 */
struct ums_net {
	unsigned int autocorking_size;
	unsigned int snd_buf;
	unsigned int rcv_buf;
	struct ctl_table_header *sysctl_hdr;
	atomic64_t fallback[UMS_FB_REASONS][2];
};

struct ums_net *ums_net(const struct net *net);

extern struct workqueue_struct *ums_wq;
extern u8 ums_peer_id[UMS_CLC_PEER_ID_LEN];

/* af_ums.c */
extern const struct proto_ops ums_sock_ops;
int ums_create(struct net *net, struct socket *sock, int protocol, int kern);
int ums_wait(struct sock *sk, long timeo, bool (*done)(struct sock *sk),
	     __poll_t events, bool exclusive);
extern struct proto ums_proto;
extern struct proto ums_proto6;

/* fallback.c */
void ums_wake(struct ums_sock *ums, __poll_t mask);
void ums_switch_to_fallback(struct ums_sock *ums, u32 reason, bool server);
void ums_fallback_attach(struct ums_sock *ums);
void ums_fallback_detach(struct ums_sock *ums);
int ums_fallback_reason_index(u32 reason);
extern const u32 ums_fallback_reasons[UMS_FB_REASONS];
extern const char *const ums_fallback_names[UMS_FB_REASONS];

/* handshake.c */
int ums_clc_client(struct ums_sock *ums);
int ums_clc_server(struct ums_sock *ums);

/* data.c */
int ums_data_sendmsg(struct ums_sock *ums, struct msghdr *msg, size_t len);
int ums_data_recvmsg(struct ums_sock *ums, struct msghdr *msg, size_t len,
		     int flags);
__poll_t ums_data_poll(struct ums_sock *ums);
int ums_data_shutdown(struct ums_sock *ums, int how);
int ums_data_ioctl(struct ums_sock *ums, unsigned int cmd, int __user *arg);
void ums_data_close(struct ums_sock *ums);

/* dev.c */
int ums_dev_local_info(struct sock *clcsk, struct ums_clc_prop_info *info);
u32 ums_dev_check_peer(struct sock *clcsk,
		       const struct ums_clc_prop_info *info);
bool ums_dev_is_local(struct sock *clcsk);
struct ubcore_device *ums_dev_get(struct sock *clcsk,
				  struct net_device **netdev);

/* proc.c */
void ums_sock_list_add(struct ums_sock *ums);
void ums_sock_list_del(struct ums_sock *ums);
int ums_proc_init_net(struct net *net);
void ums_proc_exit_net(struct net *net);

/* sysctl.c */
int ums_sysctl_init_net(struct net *net);
void ums_sysctl_exit_net(struct net *net);

#endif /* _UMS_UMS_H */
