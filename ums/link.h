/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * Link groups, links, buffers and connections: the URMA side of UMS.
 *
 * A link group (struct ums_lgr) is what two hosts share: here one link, a
 * pair of RC jetties bound to each other (the link group size is 1: no
 * second link, no failover). RC rather than RM: a link is SMC-R's RC QP
 * pair, its own TP keeps the WRITEs of a connection ahead of the CDC
 * that announces them, and a lost peer puts this jetty (not a TP shared
 * with other users of the EID pair) in ERROR, which its JFC reports.
 * Up to UMS_LINK_CONNS connections share a link; each has an RMB (the
 * peer WRITEs into it) and a send buffer, both registered segments that
 * go back to the link group's pool when the connection ends.
 *
 * References: the list of link groups holds one on each listed group,
 * each connection one on its group; a socket holds one on its
 * connection, and so does the group's table of connections while the
 * connection is in it.
 */
#ifndef _UMS_LINK_H
#define _UMS_LINK_H

#include <linux/interrupt.h>
#include <linux/kref.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/rwsem.h>
#include <linux/spinlock.h>
#include <linux/wait.h>
#include <linux/workqueue.h>
#include <linux/xarray.h>

#include <ub/ubcore_device.h>
#include <ub/ubcore_dp.h>

#include "clc.h"
#include "msg.h"

/* Connections a link carries at most (the user guide's 32). */
#define UMS_LINK_CONNS		32
/* Receive buffers posted on a link, each UMS_RX_BUF bytes. */
#define UMS_RX_DEPTH		128
#define UMS_RX_BUF		64
/* Send queue entries of a link's jetty. */
#define UMS_SQ_DEPTH		512
/* How long a link without connections stays for the next one. */
#define UMS_LINK_LINGER		(10 * HZ)

/**
 * struct ums_buf - an RMB or a send buffer
 * @node: in its group's @free_bufs while unused (the group's @lock)
 * @mem: the memory (vmalloc)
 * @size: bytes, 16 KiB x 2^n
 * @seg: its registration; NULL once the group's objects are destroyed
 */
struct ums_buf {
	struct list_head node;
	void *mem;
	u32 size;
	struct ubcore_target_seg *seg;
};

/**
 * struct ums_lgr - a link group with its one link
 * @node: in ums_lgr_list (ums_lgr_mutex)
 * @ref: see link.h's comment
 * @id: this end's ID of the group (IDA), in accepts and LLC
 * @peer_lgr_id: the server's ID (on the server: @id), which the client's
 *	lookup matches
 * @server: this end accepted the connection that created the link
 * @peer_id: the peer's system ID
 * @peer_eid: the peer's device EID (its link jetty and RMBs answer to it)
 * @dev: the UB device, held
 * @eid: our device EID (index 0: a kernel caller's jetty sends from it)
 * @token: the token ID of the group's segments
 * @jfc: the link's JFC (send and receive completions), armed
 * @jfr: the jetty's receive queue
 * @jetty: the link's RC jetty
 * @jetty_token: the token a peer presents to it
 * @tjetty: the peer's jetty, imported and bound; NULL until then
 * @rx_mem: the receive ring, UMS_RX_DEPTH buffers of UMS_RX_BUF bytes
 * @rx_seg: its registration (local only)
 * @dp_sem: held for reading by whoever posts to the link or uses its
 *	segments (but the completion tasklet, which @cq_off keeps off),
 *	for writing by ums_lgr_destroy(), which sets @destroyed
 * @destroyed: the ubcore objects are gone (under @dp_sem)
 * @cq_tasklet: polls @jfc (scheduled by the JFC's completion callback;
 *	softirq: it posts receive buffers and takes spinlocks only)
 * @cq_off: @cq_tasklet leaves @jfc alone: set (under @lock) before the
 *	objects are destroyed
 * @linger_work: destroys the group once it had no connection for
 *	UMS_LINK_LINGER
 * @term_work: ums_lgr_terminate() off the completion tasklet
 * @free_work: destroys and frees the group after its last reference
 * @lock: protects @dead, @cq_off, @active, @conn_cnt, @free_bufs, @llc,
 *	@llc_got
 * @dead: the link failed or is going: no new connection, no new post
 * @active: Confirm Link done: a next connection may use the link
 * @conn_cnt: connections in @conns
 * @conns: connection token -> struct ums_conn (ALLOC1; its own lock)
 * @free_bufs: unused buffers, for the next connections
 * @llc_wait: woken when @llc_got is set or the group dies
 * @llc: the last Confirm Link received
 * @llc_got: @llc holds one not yet taken
 * @sq_wait: woken when send queue entries may have completed
 * @cq_polls: completion tasklet runs that polled @jfc so far (written by
 *	the tasklet only): a poster that found the send queue full waits for it to
 *	move
 */
struct ums_lgr {
	struct list_head node;
	struct kref ref;
	u32 id;
	u32 peer_lgr_id;
	bool server;
	u8 peer_id[UMS_CLC_PEER_ID_LEN];
	u8 peer_eid[UMS_CLC_EID_LEN];
	struct ubcore_device *dev;
	u8 eid[UMS_CLC_EID_LEN];
	struct ubcore_token_id *token;
	struct ubcore_jfc *jfc;
	struct ubcore_jfr *jfr;
	struct ubcore_jetty *jetty;
	u32 jetty_token;
	struct ubcore_tjetty *tjetty;
	void *rx_mem;
	struct ubcore_target_seg *rx_seg;
	struct rw_semaphore dp_sem;
	bool destroyed;
	struct tasklet_struct cq_tasklet;
	struct delayed_work linger_work;
	struct work_struct term_work;
	struct work_struct free_work;
	spinlock_t lock;	/* see above */
	bool dead;
	bool cq_off;
	bool active;
	int conn_cnt;
	struct xarray conns;
	struct list_head free_bufs;
	wait_queue_head_t llc_wait;
	struct ums_llc_confirm llc;
	bool llc_got;
	wait_queue_head_t sq_wait;
	u32 cq_polls;
};

struct ums_sock;

/**
 * struct ums_conn - a connection over a link
 * @ref: see link.h's comment
 * @lgr: its link group, held
 * @token: ours: the peer's CDCs carry it
 * @peer_token: the peer's: our CDCs carry it
 * @rmb: our RMB, which the peer writes into
 * @sndbuf: our send buffer, the source of our WRITEs
 * @peer_rmb: the peer's RMB, imported; NULL until then, and once the
 *	group's objects are destroyed
 * @peer_rmb_va: its UB VA
 * @peer_rmb_len: its length
 * @lock: protects everything below
 * @ums: the socket, NULL once it is released
 * @tx_prep: bytes copied into the send buffer
 * @tx_write: of those, bytes written (WRITE posted) into the peer's RMB;
 *	the rest wait for the pending CDC's completion (autocorking,
 *	ums_tx_should_cork())
 * @tx_done: of those, bytes whose WRITE completed: the send buffer is
 *	free up to here
 * @cdc_pend: CDCs posted whose completion has not come
 * @corked: sendmsg pieces that waited in the send buffer (debugfs)
 * @peer_cons: bytes the peer consumed from its RMB (its CDCs)
 * @rx_prod: bytes the peer wrote into our RMB (its CDCs)
 * @rx_cons: bytes the socket consumed from it
 * @rx_cons_sent: @rx_cons as our last CDC told it
 * @tx_seq: sequence number of our next CDC
 * @peer_flags: UMS_CDC_DONE_WRITING, _CONN_CLOSED, _CONN_ABORT received
 * @done_writing: we sent UMS_CDC_DONE_WRITING (or more)
 * @closed: we sent UMS_CDC_CONN_CLOSED or _CONN_ABORT: nothing follows
 * @err: the connection failed (ECONNRESET: the link or the peer)
 * @linger: the socket is gone but the peer may still write into the RMB:
 *	the connection holds a reference on itself until the peer's
 *	UMS_CDC_CONN_CLOSED or _ABORT, or the link's end
 * @abandoned: the handshake failed: the buffers are not pooled
 * @tx_work: pushes the corked bytes once no CDC is pending (queued by
 *	the completion tasklet, with a reference)
 * @free_work: the release after the last reference (it may sleep)
 */
struct ums_conn {
	struct kref ref;
	struct ums_lgr *lgr;
	u32 token;
	u32 peer_token;
	struct ums_buf *rmb;
	struct ums_buf *sndbuf;
	struct ubcore_target_seg *peer_rmb;
	u64 peer_rmb_va;
	u32 peer_rmb_len;
	spinlock_t lock;	/* see above */
	struct ums_sock *ums;
	u64 tx_prep;
	u64 tx_write;
	u64 tx_done;
	u32 cdc_pend;
	u64 corked;
	u64 peer_cons;
	u64 rx_prod;
	u64 rx_cons;
	u64 rx_cons_sent;
	u16 tx_seq;
	u8 peer_flags;
	bool done_writing;
	bool closed;
	int err;
	bool linger;
	bool abandoned;
	struct work_struct tx_work;
	struct work_struct free_work;
};

extern struct mutex ums_lgr_mutex;
extern struct list_head ums_lgr_list;

/* link.c */
struct ums_lgr *ums_lgr_find(bool server, const u8 *peer_id,
			     struct ubcore_device *dev, u32 peer_lgr_id);
struct ums_lgr *ums_lgr_create(struct ubcore_device *dev, bool server,
			       const u8 *peer_id);
int ums_lgr_bind(struct ums_lgr *lgr, const u8 *peer_eid, u32 jetty_id,
		 u32 jetty_token);
int ums_lgr_confirm_server(struct ums_lgr *lgr);
int ums_lgr_confirm_client(struct ums_lgr *lgr);
void ums_lgr_activate(struct ums_lgr *lgr);
void ums_lgr_put(struct ums_lgr *lgr);
void ums_lgr_terminate(struct ums_lgr *lgr);
void ums_lgr_conn_gone(struct ums_lgr *lgr);
int ums_lgr_post(struct ums_lgr *lgr, struct ubcore_jfs_wr *wr);
void ums_lgr_fill_info(struct ums_lgr *lgr, struct ums_clc_acc_info *info);
int ums_link_init(void);
void ums_link_exit(void);

/* buf.c */
u32 ums_buf_size(int sockbuf);
struct ums_buf *ums_buf_get(struct ums_lgr *lgr, u32 size, bool remote);
void ums_buf_put(struct ums_lgr *lgr, struct ums_buf *buf);
void ums_buf_free(struct ums_buf *buf);

/* conn.c */
struct ums_conn *ums_conn_create(struct ums_lgr *lgr, struct ums_sock *ums);
int ums_conn_peer(struct ums_conn *conn, const struct ums_clc_acc_info *info);
void ums_conn_put(struct ums_conn *conn);
void ums_conn_fill_info(struct ums_conn *conn, struct ums_clc_acc_info *info);
void ums_conn_release_objects(struct ums_conn *conn);
void ums_conn_reset_all(struct ums_lgr *lgr);
void ums_conn_end(struct ums_conn *conn, int err);
void ums_conn_detach(struct ums_conn *conn);
void ums_conn_abandon(struct ums_conn *conn);

/* data.c */
void ums_tx_work(struct work_struct *work);

/* cdc.c */
int ums_cdc_send(struct ums_conn *conn, u8 conn_flags);
void ums_cdc_recv(struct ums_lgr *lgr, const void *buf, u32 len);
void ums_cdc_sent(struct ums_lgr *lgr, u64 user_ctx);
struct ums_conn *ums_conn_lookup(struct ums_lgr *lgr, u32 token);

/* debugfs.c */
void ums_debugfs_init(void);
void ums_debugfs_exit(void);

#endif /* _UMS_LINK_H */
