/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * The TP table and connection manager of a device (tp.c), for the rest of
 * ubcore.
 */
#ifndef _UBCORE_TP_H
#define _UBCORE_TP_H

#include <linux/kref.h>
#include <linux/types.h>
#include <linux/workqueue.h>

#include <ub/ubcore_device.h>
#include <ub/ubcore_tp.h>

#include "tp_fsm.h"

/**
 * struct ubcore_tp_key - what one TP joins
 * @local: this end's EID
 * @remote: the peer's EID
 * @local_jetty: RC: this end's jetty of the bound pair; RM: 0
 * @remote_jetty: RC: the peer's jetty; RM: 0
 * @mode: UBOE_MGMT_TM_RM or UBOE_MGMT_TM_RC
 * @loop_side: 1 for the answering end of a TP whose two ends are this
 *	device (the key is its own mirror), else 0
 */
struct ubcore_tp_key {
	union ubcore_eid local;
	union ubcore_eid remote;
	u32 local_jetty;
	u32 remote_jetty;
	u8 mode;
	u8 loop_side;
	u8 rsvd[2];		/* 0: the key is hashed and compared whole */
};

/**
 * struct ubcore_tp_target - what a connection request asks the peer for
 * @id: the jetty or JFR ID on the peer
 * @type: UBOE_MGMT_TARGET_JFR or _JETTY; _NONE for an RM TP opened before
 *	any import (ubcore_hold_tp())
 * @token_value: the token to present
 */
struct ubcore_tp_target {
	u32 id;
	u8 type;
	u32 token_value;
};

/**
 * struct ubcore_tp - one TP of a device's table (fields under cm->lock)
 * @cm: the table
 * @fsm: its state machine (5.1.1.4)
 * @key: what it joins
 * @target: what this end's open asks the peer for
 * @node: in cm->pairs
 * @timer: the state machine's timer
 * @ref: see tp.c
 * @users: local users (imports, binds)
 * @opening: a local open waits for the machine's answer
 * @open_result: that answer
 * @linked: in the table (not back in reset)
 * @last_send_err: the last send's result
 * @created_ns: boot time of creation, for its age
 * @rx_body: the message being processed, for the machine's check
 * @abandoned: the only opener gave up waiting (a signal): once the open
 *	ends, an established TP without users is closed
 * @ready: established (any of the machine's established states) and in
 *	the table; written under cm->lock, read locklessly (READ_ONCE) by
 *	ubcore_tp_resolve() and ubcore_tp_rx_lookup()
 * @rx_open: @ready, or the target's end that answered the request (REP
 *	sent): takes the peer's packets (tp.c tp_rx_open()); written and read
 *	as @ready, by ubcore_tp_rx_lookup()
 * @ready_peer_tpn: the peer's TPN while @rx_open, read likewise
 * @rcu: freed after a grace period, for those lockless readers
 * @checks: link checks waiting for the peer's answer (tp.c)
 * @imports: the imports (struct ubcore_tjetty, tp_node) that hold this TP
 * @ka_work: the keepalive (tp.c): runs while the TP is established
 * @rx_stamp: jiffies when the peer last sent on this TP (a management
 *	message, or a data packet ubcore_tp_rx_lookup() found the TP for);
 *	written locklessly (WRITE_ONCE), read by @ka_work
 * @ka_misses: keepalive probes sent since the peer was last heard
 * @ka_sent: jiffies when the last probe was sent
 * @ka_msg_id: the message ID of the last probe
 * @reopen_asked: a CONN_REQ from another TPN of the peer made this end
 *	probe the old peer end (tp.c cm_reopen_probe()), at @reopen_sent
 * @reopen_sent: jiffies of that probe
 * @xport: its own transport values (urma_set_tp_attr()), each
 *	UBCORE_TP_XPORT_UNSET until set; written under cm->lock with
 *	WRITE_ONCE, read locklessly (RCU) by ubcore_tp_xport()
 */
struct ubcore_tp {
	struct ubcore_cm *cm;
	struct ubcore_tp_fsm fsm;
	struct ubcore_tp_key key;
	struct ubcore_tp_target target;
	struct hlist_node node;
	struct delayed_work timer;
	struct kref ref;
	u32 users;
	bool opening;
	int open_result;
	bool linked;
	int last_send_err;
	u64 created_ns;
	const struct uboe_mgmt_body *rx_body;
	bool abandoned;
	bool ready;
	bool rx_open;
	u32 ready_peer_tpn;
	struct rcu_head rcu;
	struct list_head checks;
	struct list_head imports;
	struct delayed_work ka_work;
	unsigned long rx_stamp;
	u32 ka_misses;
	unsigned long ka_sent;
	u32 ka_msg_id;
	bool reopen_asked;
	unsigned long reopen_sent;
	struct ubcore_tp_xport xport;
};

/* Why a received management message was dropped (counted per device). */
enum ubcore_cm_drop {
	UBCORE_CM_DROP_MALFORMED,
	UBCORE_CM_DROP_NOT_MINE,
	UBCORE_CM_DROP_UNKNOWN_TPN,
	UBCORE_CM_DROP_QUEUE_FULL,
	UBCORE_CM_DROP_STOPPED,
	UBCORE_CM_DROP_REFUSED,
	UBCORE_CM_DROP_REOPEN_PROBED,	/* CONN_REQ from a new TPN: old end asked */
	UBCORE_CM_DROP_MAX
};

/*
 * Peer-loss counters of a device: the keepalive's and the transport's
 * (tp.c; sysfs cm/stats).
 */
enum ubcore_cm_ka {
	UBCORE_CM_KA_SENT,		/* probes sent */
	UBCORE_CM_KA_ANSWERED,		/* KEEPALIVE_REP received */
	UBCORE_CM_KA_REFUSED,		/* KEEPALIVE_REJ received: TP lost */
	UBCORE_CM_KA_TIMEOUTS,		/* TPs lost after cm_retries probes */
	UBCORE_CM_KA_REJECTS_SENT,	/* probes for a TP unknown here */
	UBCORE_CM_KA_TP_FAILED,		/* TPs this end's transport gave up */
	UBCORE_CM_KA_PEER_FAILED,	/* TPs the peer's transport gave up */
	UBCORE_CM_KA_MAX
};

int ubcore_cm_create(struct ubcore_device *dev);
void ubcore_cm_stop(struct ubcore_device *dev);
void ubcore_cm_free(struct ubcore_device *dev);
void ubcore_cm_link_down(struct ubcore_device *dev);
void ubcore_cm_drain(struct ubcore_device *dev);

int ubcore_tp_open(struct ubcore_device *dev, const struct ubcore_tp_key *key,
		   const struct ubcore_tp_target *target, struct ubcore_tp **out);
void ubcore_tp_close(struct ubcore_tp *tp);
bool ubcore_tp_is_usable(struct ubcore_tp *tp);
bool ubcore_eid_is_mine(struct ubcore_device *dev, const u8 *raw);
void ubcore_release_held_tps(struct ubcore_ucontext *uctx);
int ubcore_tjetty_connect(struct ubcore_tjetty *tj, u32 local_jetty);
void ubcore_tjetty_disconnect(struct ubcore_tjetty *tj);
int ubcore_tjetty_check_tp(const struct ubcore_tjetty *tj,
			   const struct ubcore_active_tp_cfg *active);
int ubcore_tp_check_target(struct ubcore_device *dev, u8 type, u32 id,
			   u8 mode, u32 token_value);

/**
 * struct ubcore_tp_info - one TP as listed (sysfs, netlink)
 * @tpn: this end's TPN
 * @peer_tpn: the peer's
 * @peer: the peer's EID
 * @state: enum ubcore_tp_state
 * @mode: UBOE_MGMT_TM_*
 * @users: local users
 * @age_ms: since creation
 */
struct ubcore_tp_info {
	u32 tpn;
	u32 peer_tpn;
	union ubcore_eid peer;
	u8 state;
	u8 mode;
	u32 users;
	u64 age_ms;
};

void ubcore_cm_set_timing(struct ubcore_device *dev, u32 rto_ms, u32 retries);
void ubcore_cm_set_keepalive(struct ubcore_device *dev, u32 keepalive_ms);
u64 ubcore_cm_ka_count(struct ubcore_device *dev, enum ubcore_cm_ka which);
u64 ubcore_cm_dropped(struct ubcore_device *dev, enum ubcore_cm_drop why);
const struct ubcore_tp_fsm_stats *ubcore_cm_fsm_stats(struct ubcore_device *dev);
int ubcore_tp_list(struct ubcore_device *dev, u32 start,
		   struct ubcore_tp_info *info, u32 n);
#endif /* _UBCORE_TP_H */
