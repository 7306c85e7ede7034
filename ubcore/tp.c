// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * The TP table and the connection manager of a device (user guide 5.1.1).
 *
 * A TP ("transport") joins this device to one peer: its key is the local
 * and remote EID, the mode, and for RC the bound jetty pair. RM shares one
 * TP per (local EID, remote EID); RC has one per bound jetty pair; UM needs
 * none. Each TP runs the state machine of tp_fsm.c; its management
 * messages (struct uboe_mgmt_body) leave through the provider's
 * ops->send_mgmt and come back through ubcore_recv_mgmt(), which may be
 * called from softirq: it copies the message and defers it to the
 * device's ordered workqueue.
 *
 * A TP to this device's own EID (a process importing a jetty of its own
 * device) has two ends on the same device, like two hosts: the opening end
 * (loop_side 0) and the answering end (loop_side 1), each with its TPN.
 *
 * Locking: cm->lock (a mutex) protects the TP table (tps, pairs; both also
 * read under RCU by the data path's lookups), and every TP's state
 * machine, users, imports, open and keepalive fields; the machine's
 * callbacks run under it, in process context. cm->rx_lock (a spinlock,
 * irqsave) protects only the queue of received messages. A TP's
 * memory is counted by tp->ref: one reference for being in the table, one
 * per user, one while its timer work is queued, one while its keepalive
 * work is queued.
 *
 * Peer loss. A TP loses its peer (tp_lose_peer(): the state machine's
 * "peer lost" rows X12-X17) when the device's port leaves ACTIVE
 * (ubcore_cm_link_down()), when the keepalive gets no answer, or when the
 * peer refuses a keepalive because it does not know the TP (its device or
 * its module is new). The peer's DCONN_NOTIFY of a TP it discards (its
 * device is being removed: ubcore_cm_stop()) takes X11 at the initiator.
 * Either way the TP is destroyed, which tells the provider (cm_tp_destroy():
 * ops->tp_closed, what was sent on the TP fails at once, as at any close),
 * then cm_lost() the users: an RC TP's bound jetty goes to ERROR with
 * UBCORE_EVENT_JETTY_ERR, each RM import on the TP gets
 * UBCORE_EVENT_TP_ERR.
 *
 * Keepalive, one per established TP rather than one per peer EID: what a
 * probe checks is that the peer still has this TP (this TPN, from this
 * EID), which a per-peer probe could not say for each TP without listing
 * them; and a TP carrying data needs no probe (rx_stamp). Each established
 * TP's ka_work runs cm_keepalive_ms after the peer was last heard on it:
 * it sends a KEEPALIVE and runs again an interval later; after cm_retries
 * probes without an answer (or any other message or data from the peer)
 * the peer is lost, cm_keepalive_ms * (cm_retries + 1) after it was last
 * heard. A KEEPALIVE_REJ (the peer does not know the TPN) loses it at once.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/build_bug.h>
#include <linux/hashtable.h>
#include <linux/jhash.h>
#include <linux/kref.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/timekeeping.h>
#include <linux/wait.h>
#include <linux/workqueue.h>

#include <ub/ubcore_event.h>
#include <ub/ubcore_jetty.h>

#include <kunit/visibility.h>
#include <uapi/ub/uboe_wire.h>

#include <ub/ubcore_tp.h>

#include "tp.h"
#include "ubcore_priv.h"

#define UBCORE_CM_RX_MAX	1024	/* queued received messages */
#define UBCORE_CM_PAIR_BITS	6

static unsigned int cm_rto_ms = 200;
module_param(cm_rto_ms, uint, 0644);
MODULE_PARM_DESC(cm_rto_ms,
		 "connection manager: first retransmission timeout (ms), doubled at each retry (default 200)");
static unsigned int cm_retries = 4;
module_param(cm_retries, uint, 0644);
MODULE_PARM_DESC(cm_retries,
		 "connection manager: retransmissions before a connection times out, and keepalive probes before a peer is lost (default 4)");
static unsigned int cm_keepalive_ms = 1000;
module_param(cm_keepalive_ms, uint, 0644);
MODULE_PARM_DESC(cm_keepalive_ms,
		 "connection manager: idle time (ms) of an established TP before a keepalive probe, and between probes; 0: no keepalive (default 1000; read when a device is added)");

struct ubcore_cm_rx {
	struct list_head node;
	u8 type;
	u32 msg_id;
	u16 len;
	struct uboe_mgmt_body body;
};

/**
 * struct ubcore_cm - a device's TP table and connection manager
 * @dev: the device
 * @lock: see the top of the file
 * @tps: TPN -> struct ubcore_tp (TPNs from 1)
 * @pairs: the TPs by key (ubcore_tp_key), for RM sharing and RC pairs, and
 *	for the data path's ubcore_tp_find_pair() (RCU)
 * @waitq: opens waiting for their TP
 * @stats: the state machines' counters
 * @rx_lock: protects @rx_list, @rx_len and @stopped for the receive side
 * @rx_list: received messages not yet processed
 * @rx_len: entries of @rx_list
 * @rx_work: processes @rx_list
 * @wq: ordered: the receive work and the TPs' timers
 * @stopped: the device is going away: nothing is received or sent
 * @msg_id: the last message ID sent
 * @next_tpn: the next TPN to try (cyclic, under @lock)
 * @rto_ns: the TPs' first retransmission timeout (from cm_rto_ms)
 * @retries: their retransmissions (from cm_retries)
 * @rx_dropped: received messages dropped, by reason (enum ubcore_cm_drop)
 * @link_work: the device's port went down: every TP's peer is lost
 * @ka_jiffies: the keepalive interval (from cm_keepalive_ms), 0: off
 * @ka: keepalive counters (enum ubcore_cm_ka)
 */
struct ubcore_cm {
	struct ubcore_device *dev;
	struct mutex lock;		/* see above */
	struct xarray tps;
	DECLARE_HASHTABLE(pairs, UBCORE_CM_PAIR_BITS);
	wait_queue_head_t waitq;
	struct ubcore_tp_fsm_stats stats;
	spinlock_t rx_lock;		/* see above */
	struct list_head rx_list;
	u32 rx_len;
	struct work_struct rx_work;
	struct workqueue_struct *wq;
	bool stopped;
	u32 msg_id;
	u32 next_tpn;
	u64 rto_ns;
	u32 retries;
	atomic64_t rx_dropped[UBCORE_CM_DROP_MAX];
	struct work_struct link_work;
	unsigned long ka_jiffies;
	atomic64_t ka[UBCORE_CM_KA_MAX];
};

/*
 * A link check: one more RM import on an established, shared TP. The
 * guide (5.1.1.2) has the peer check every connection request, and a
 * reject on a shared TP roll back the transaction layer only ("在传输层复用
 * 场景不销毁"): so an import joining an established RM TP still asks the peer
 * for its target. The request is a CONN_REQ from the TP's own TPN, which
 * the peer answers outside the state machine (cm_link_request()) with a
 * CONN_REP or CONN_REJ that echoes the request's message ID and names the
 * target in dst_jetty (which an RM TP's own REP and REJ leave 0). The
 * check lives on the waiter's stack, on tp->checks under cm->lock.
 */
struct ubcore_tp_check {
	struct list_head node;
	u32 msg_id;
	int result;
	bool done;
};

static const char *const ka_names[UBCORE_CM_KA_MAX] = {
	[UBCORE_CM_KA_SENT] = "keepalive_sent",
	[UBCORE_CM_KA_ANSWERED] = "keepalive_answered",
	[UBCORE_CM_KA_REFUSED] = "keepalive_refused",
	[UBCORE_CM_KA_TIMEOUTS] = "keepalive_timeouts",
	[UBCORE_CM_KA_REJECTS_SENT] = "keepalive_rejects_sent",
	[UBCORE_CM_KA_TP_FAILED] = "transport_failed",
	[UBCORE_CM_KA_PEER_FAILED] = "peer_transport_failed",
};

static const char *const drop_names[UBCORE_CM_DROP_MAX] = {
	[UBCORE_CM_DROP_MALFORMED] = "malformed",
	[UBCORE_CM_DROP_NOT_MINE] = "not_mine",
	[UBCORE_CM_DROP_UNKNOWN_TPN] = "unknown_tpn",
	[UBCORE_CM_DROP_QUEUE_FULL] = "queue_full",
	[UBCORE_CM_DROP_STOPPED] = "stopped",
	[UBCORE_CM_DROP_REFUSED] = "refused",
	[UBCORE_CM_DROP_REOPEN_PROBED] = "reopen_probed",
};

static struct ubcore_tp *fsm_tp(struct ubcore_tp_fsm *fsm)
{
	return container_of(fsm, struct ubcore_tp, fsm);
}

static u32 key_hash(const struct ubcore_tp_key *key)
{
	return jhash(key, sizeof(*key), 0);
}

static bool key_equal(const struct ubcore_tp_key *a, const struct ubcore_tp_key *b)
{
	return !memcmp(a, b, sizeof(*a));
}

/* Both ends of the key are this device's: a TP to itself. */
static bool key_is_self(const struct ubcore_tp_key *key)
{
	return !memcmp(key->local.raw, key->remote.raw, UBCORE_EID_SIZE) &&
	       key->local_jetty == key->remote_jetty;
}

/* Caller holds cm->lock. */
static struct ubcore_tp *cm_find(struct ubcore_cm *cm,
				 const struct ubcore_tp_key *key)
{
	struct ubcore_tp *tp;

	hash_for_each_possible(cm->pairs, tp, node, key_hash(key))
		if (key_equal(&tp->key, key))
			return tp;
	return NULL;
}

static void tp_release(struct kref *ref)
{
	struct ubcore_tp *tp = container_of(ref, struct ubcore_tp, ref);

	kfree_rcu(tp, rcu);
}

/* The states in which the TP carries data, at either end. */
static bool tp_established(const struct ubcore_tp *tp)
{
	switch (tp->fsm.state) {
	case UBCORE_TPS_INITIATOR_ESTABLISHED:
	case UBCORE_TPS_TARGET_ESTABLISHED:
	case UBCORE_TPS_REUSED:
	case UBCORE_TPS_REUSE_SENT:
		return tp->linked;
	default:
		return false;
	}
}

/*
 * The peer may hold its end of @tp as established: ours is, or ours has
 * sent its CONN_REP (the initiator is established on receiving it, before
 * our end hears its CONN_ACK). A device going away notifies these.
 */
static bool tp_peer_may_hold(const struct ubcore_tp *tp)
{
	return tp_established(tp) ||
	       (tp->fsm.state == UBCORE_TPS_REP_SENT && tp->linked);
}

/*
 * (Re)starts @tp's keepalive: the peer counts as heard now. Caller holds
 * cm->lock; @tp is established and in the table.
 */
static void tp_ka_start(struct ubcore_tp *tp)
{
	struct ubcore_cm *cm = tp->cm;

	WRITE_ONCE(tp->rx_stamp, jiffies);
	tp->ka_misses = 0;
	if (!cm->ka_jiffies || cm->stopped) {
		if (cancel_delayed_work(&tp->ka_work))
			kref_put(&tp->ref, tp_release);
		return;
	}
	if (!mod_delayed_work(cm->wq, &tp->ka_work, cm->ka_jiffies))
		kref_get(&tp->ref);	/* was idle: the queued work's reference */
}

/*
 * Whether @tp takes the peer's data packets: established, or the target
 * that answered the request (REP sent). The initiator sends as soon as the
 * CONN_REP established its end, so its first packets may come before its
 * CONN_ACK (as an InfiniBand responder in RTR receives before it is told
 * the connection is established); the CONN_ACK's retransmission protocol
 * (X5, X8) still decides whether the TP is established.
 */
static bool tp_rx_open(const struct ubcore_tp *tp)
{
	return tp_established(tp) ||
	       (tp->linked && tp->fsm.state == UBCORE_TPS_REP_SENT);
}

/* For the lockless readers. Caller holds cm->lock. */
static void tp_publish(struct ubcore_tp *tp)
{
	bool ready = tp_established(tp), rx_open = tp_rx_open(tp);

	WRITE_ONCE(tp->ready_peer_tpn, rx_open ? tp->fsm.peer_tpn : 0);
	if (ready && !tp->ready)
		tp_ka_start(tp);
	WRITE_ONCE(tp->ready, ready);
	WRITE_ONCE(tp->rx_open, rx_open);
}

/* Answers every link check of @tp with @err. Caller holds cm->lock. */
static void tp_fail_checks(struct ubcore_tp *tp, int err)
{
	struct ubcore_tp_check *chk, *next;

	list_for_each_entry_safe(chk, next, &tp->checks, node) {
		list_del_init(&chk->node);
		chk->result = err;
		WRITE_ONCE(chk->done, true);
	}
	wake_up_all(&tp->cm->waitq);
}

/* Takes @tp out of the table. Caller holds cm->lock. */
static void tp_unlink(struct ubcore_tp *tp)
{
	struct ubcore_cm *cm = tp->cm;

	if (!tp->linked)
		return;
	tp->linked = false;
	tp_publish(tp);
	tp_fail_checks(tp, -ECONNRESET);
	xa_erase(&cm->tps, tp->fsm.local_tpn);
	hash_del_rcu(&tp->node);
	if (cancel_delayed_work(&tp->timer))
		kref_put(&tp->ref, tp_release);
	if (cancel_delayed_work(&tp->ka_work))
		kref_put(&tp->ref, tp_release);
	kref_put(&tp->ref, tp_release);
}

static bool tp_usable(const struct ubcore_tp *tp);

/*
 * After each event: a TP whose only opener gave up closes once its open
 * ends; a TP back in reset leaves the table. Caller holds cm->lock.
 */
static void tp_settle(struct ubcore_tp *tp)
{
	if (tp->abandoned && !tp->opening) {
		tp->abandoned = false;
		if (!tp->users && tp_usable(tp) && !tp->cm->stopped)
			ubcore_tp_fsm_event(&tp->fsm, UBCORE_TPE_LOCAL_CLOSE, NULL);
	}
	if (tp->fsm.state == UBCORE_TPS_RESET)
		tp_unlink(tp);
	tp_publish(tp);
}

static u8 errno_to_reason(int err)
{
	switch (err) {
	case -ENOENT:
		return UBOE_MGMT_REASON_NO_TARGET;
	case -EPROTOTYPE:
		return UBOE_MGMT_REASON_MODE;
	case -EPERM:
		return UBOE_MGMT_REASON_TOKEN;
	default:
		return UBOE_MGMT_REASON_REFUSED;
	}
}

static int reason_to_errno(u8 reason)
{
	switch (reason) {
	case UBOE_MGMT_REASON_NO_TARGET:
		return -ENOENT;
	case UBOE_MGMT_REASON_MODE:
		return -EPROTOTYPE;
	case UBOE_MGMT_REASON_TOKEN:
		return -EPERM;
	default:
		return -ECONNREFUSED;
	}
}

static const u8 msg_to_wire[] = {
	[UBCORE_TPM_CONN_REQ] = UBOE_MGMT_CONN_REQ,
	[UBCORE_TPM_CONN_REP] = UBOE_MGMT_CONN_REP,
	[UBCORE_TPM_CONN_ACK] = UBOE_MGMT_CONN_ACK,
	[UBCORE_TPM_CONN_REJ] = UBOE_MGMT_CONN_REJ,
	[UBCORE_TPM_REUSE_REQ] = UBOE_MGMT_CONN_REUSE_REQ,
	[UBCORE_TPM_REUSE_REP] = UBOE_MGMT_CONN_REUSE_REP,
	[UBCORE_TPM_DCONN_NOTIFY] = UBOE_MGMT_DCONN_NOTIFY,
};

/* The FSM's events of the messages up to DCONN_NOTIFY; keepalives are not. */
static const enum ubcore_tp_event wire_to_event[UBOE_MGMT_DCONN_NOTIFY + 1] = {
	[UBOE_MGMT_CONN_REQ] = UBCORE_TPE_RX_CONN_REQ,
	[UBOE_MGMT_CONN_REP] = UBCORE_TPE_RX_CONN_REP,
	[UBOE_MGMT_CONN_ACK] = UBCORE_TPE_RX_CONN_ACK,
	[UBOE_MGMT_CONN_REJ] = UBCORE_TPE_RX_CONN_REJ,
	[UBOE_MGMT_CONN_REUSE_REQ] = UBCORE_TPE_RX_REUSE_REQ,
	[UBOE_MGMT_CONN_REUSE_REP] = UBCORE_TPE_RX_REUSE_REP,
	[UBOE_MGMT_DCONN_NOTIFY] = UBCORE_TPE_RX_DCONN_NOTIFY,
};

/* ---- the state machine's callbacks (cm->lock held) ------------------- */

static u64 cm_now(struct ubcore_tp_fsm *fsm)
{
	return ktime_get_ns();
}

static void cm_set_timer(struct ubcore_tp_fsm *fsm, u64 deadline)
{
	struct ubcore_tp *tp = fsm_tp(fsm);
	u64 now = ktime_get_ns();

	if (!deadline || tp->cm->stopped || !tp->linked) {
		if (cancel_delayed_work(&tp->timer))
			kref_put(&tp->ref, tp_release);
		return;
	}
	if (!mod_delayed_work(tp->cm->wq, &tp->timer,
			      deadline > now ? nsecs_to_jiffies(deadline - now) : 0))
		kref_get(&tp->ref);	/* was idle: the queued work's reference */
}

/* A message of @tp with the fields every type has. */
static void tp_body(const struct ubcore_tp *tp, struct uboe_mgmt_body *body)
{
	*body = (struct uboe_mgmt_body){
		.version = UBOE_MGMT_BODY_VERSION,
		.trans_mode = tp->key.mode,
		.src_tpn = cpu_to_be32(tp->fsm.local_tpn),
		.dst_tpn = cpu_to_be32(tp->fsm.peer_tpn),
		.src_jetty = cpu_to_be32(tp->key.local_jetty),
		.dst_jetty = cpu_to_be32(tp->key.remote_jetty),
	};
	memcpy(body->src_eid, tp->key.local.raw, UBCORE_EID_SIZE);
	memcpy(body->dst_eid, tp->key.remote.raw, UBCORE_EID_SIZE);
}

/* Sends @body (of a TP with local TPN @tpn) to @dst. Caller holds cm->lock. */
static int cm_send_body(struct ubcore_cm *cm, const union ubcore_eid *dst,
			u32 tpn, u8 type, u32 msg_id,
			const struct uboe_mgmt_body *body)
{
	struct ubcore_device *dev = cm->dev;
	int ret;

	if (cm->stopped)
		return -ENODEV;
	if (!dev->ops->send_mgmt)
		return -EOPNOTSUPP;
	ret = dev->ops->send_mgmt(dev, dst, type, msg_id, body, sizeof(*body));
	if (ret)
		dev_dbg(&dev->dev, "tp %u: cannot send management message %u: %d\n",
			tpn, type, ret);
	return ret;
}

/* Sends @body to @tp's peer. Caller holds cm->lock. */
static int tp_send_body(struct ubcore_tp *tp, u8 type, u32 msg_id,
			const struct uboe_mgmt_body *body)
{
	return cm_send_body(tp->cm, &tp->key.remote, tp->fsm.local_tpn, type,
			    msg_id, body);
}

static int cm_send(struct ubcore_tp_fsm *fsm, enum ubcore_tp_msg_type type,
		   int status)
{
	struct ubcore_tp *tp = fsm_tp(fsm);
	struct uboe_mgmt_body body;

	tp_body(tp, &body);
	if (type == UBCORE_TPM_CONN_REQ || type == UBCORE_TPM_REUSE_REQ) {
		body.target_type = tp->target.type;
		body.dst_jetty = cpu_to_be32(tp->target.id);
		body.token_value = cpu_to_be32(tp->target.token_value);
	}
	if (type == UBCORE_TPM_CONN_REQ)
		body.dst_tpn = 0;
	if (type == UBCORE_TPM_CONN_REJ)
		body.reason = errno_to_reason(status);
	tp->last_send_err = tp_send_body(tp, msg_to_wire[type], ++tp->cm->msg_id,
					 &body);
	return tp->last_send_err;
}

static int cm_tp_create(struct ubcore_tp_fsm *fsm)
{
	/* The TP's resources are this entry: made before the machine ran. */
	return 0;
}

/*
 * The TP is gone at this end, however it ended: what was sent on it and
 * waits for an answer fails now (ops->tp_closed), before a loss's
 * cm_lost() tells the users.
 */
static void cm_tp_destroy(struct ubcore_tp_fsm *fsm)
{
	struct ubcore_device *dev = fsm_tp(fsm)->cm->dev;

	if (dev->ops->tp_closed)
		dev->ops->tp_closed(dev, fsm->local_tpn);
}

/*
 * Does the target a CONN_REQ / REUSE_REQ asks for exist here, in that mode,
 * with that token? The machine's answer: 0 or the errno sent in CONN_REJ.
 */
static int cm_check(struct ubcore_tp_fsm *fsm, enum ubcore_tp_event ev,
		    const struct ubcore_tp_fsm_msg *msg)
{
	struct ubcore_tp *tp = fsm_tp(fsm);
	const struct uboe_mgmt_body *b = tp->rx_body;

	if (WARN_ON_ONCE(!b))
		return -ECONNREFUSED;
	return ubcore_tp_check_target(tp->cm->dev, b->target_type,
				      be32_to_cpu(b->dst_jetty), b->trans_mode,
				      be32_to_cpu(b->token_value));
}

static void cm_done(struct ubcore_tp_fsm *fsm, int result)
{
	struct ubcore_tp *tp = fsm_tp(fsm);

	if (!tp->opening)
		return;
	tp->opening = false;
	tp->open_result = result;
	wake_up_all(&tp->cm->waitq);
}

/*
 * A jetty whose RC TP lost its peer: to ERROR (the provider completes its
 * WQEs with WR_FLUSH_ERR and a WR_FLUSH_ERR_DONE record) and
 * UBCORE_EVENT_JETTY_ERR to its owner. Process context (cm->lock held).
 */
static void tp_jetty_error(struct ubcore_device *dev, u32 id)
{
	struct ubcore_jetty_attr attr = {
		.mask = UBCORE_JFR_STATE,
		.state = UBCORE_JETTY_STATE_ERROR,
	};
	struct ubcore_event ev = {
		.dev = dev,
		.type = UBCORE_EVENT_JETTY_ERR,
		.element.obj_id = id,
	};
	struct ubcore_jetty *jetty = ubcore_find_get_jetty(dev, id);

	if (!jetty)
		return;
	if (READ_ONCE(jetty->state) != UBCORE_JETTY_STATE_ERROR &&
	    !ubcore_modify_jetty(jetty, &attr, NULL) && jetty->jfae_handler)
		jetty->jfae_handler(&ev, jetty->uctx);
	ubcore_obj_ref_put(&jetty->obj_ref);
}

/*
 * An RM import whose TP lost its peer: UBCORE_EVENT_TP_ERR to the device's
 * event handlers (uburma passes it to the import's owner). Caller holds
 * cm->lock, which keeps @tj (on tp->imports) alive.
 */
static void tp_import_error(struct ubcore_device *dev, struct ubcore_tjetty *tj)
{
	struct ubcore_event ev = {
		.dev = dev,
		.type = UBCORE_EVENT_TP_ERR,
		.element.tjetty = tj,
	};

	ubcore_dispatch_async_event(&ev);
}

static void cm_lost(struct ubcore_tp_fsm *fsm, int result)
{
	struct ubcore_tp *tp = fsm_tp(fsm);
	struct ubcore_device *dev = tp->cm->dev;
	struct ubcore_tjetty *tj;

	dev_warn(&dev->dev, "tp %u to %pI6c: lost (%d), %u users\n",
		 fsm->local_tpn, tp->key.remote.raw, result, tp->users);
	/*
	 * (What was sent on the TP failed with its own status, ACK timeout,
	 * at its destroy just before: cm_tp_destroy(), not flushed by the
	 * RC jetty's ERROR below.)
	 *
	 * The peer is gone (-EHOSTUNREACH) or discarded its end (X11, its
	 * device is being removed: -ECONNRESET): an RC TP's bound jetty can
	 * reach no one any more; an RM TP's imports are told, and their next
	 * post finds no established TP.
	 */
	if (tp->key.mode == UBOE_MGMT_TM_RC) {
		tp_jetty_error(tp->cm->dev, tp->key.local_jetty);
		return;
	}
	list_for_each_entry(tj, &tp->imports, tp_node)
		tp_import_error(tp->cm->dev, tj);
}

static const struct ubcore_tp_fsm_ops cm_fsm_ops = {
	.now = cm_now,
	.set_timer = cm_set_timer,
	.send = cm_send,
	.tp_create = cm_tp_create,
	.tp_destroy = cm_tp_destroy,
	.check = cm_check,
	.done = cm_done,
	.lost = cm_lost,
};

static void tp_timer_work(struct work_struct *work)
{
	struct ubcore_tp *tp = container_of(to_delayed_work(work),
					    struct ubcore_tp, timer);
	struct ubcore_cm *cm = tp->cm;

	mutex_lock(&cm->lock);
	if (tp->linked && !cm->stopped) {
		ubcore_tp_fsm_timer(&tp->fsm);
		tp_settle(tp);
	}
	mutex_unlock(&cm->lock);
	kref_put(&tp->ref, tp_release);
}

/* The states with a "peer lost" transition (tp_fsm.c X12-X17). */
static bool tp_can_lose_peer(const struct ubcore_tp *tp)
{
	switch (tp->fsm.state) {
	case UBCORE_TPS_REQ_SENT:
	case UBCORE_TPS_REP_SENT:
	case UBCORE_TPS_REUSE_SENT:
	case UBCORE_TPS_INITIATOR_ESTABLISHED:
	case UBCORE_TPS_TARGET_ESTABLISHED:
	case UBCORE_TPS_REUSED:
		return true;
	default:
		return false;
	}
}

/*
 * @tp's peer is gone (its link, its host, its device or module): the
 * machine's "peer lost" row, which fails a waiting open with -EHOSTUNREACH
 * or tells an established TP's users (cm_lost()), and the TP leaves the
 * table. The one path of every kind of peer loss. Caller holds cm->lock.
 */
static void tp_lose_peer(struct ubcore_tp *tp)
{
	if (!tp->linked || !tp_can_lose_peer(tp))
		return;
	ubcore_tp_fsm_event(&tp->fsm, UBCORE_TPE_PEER_LOST, NULL);
	tp_settle(tp);
}

/*
 * A keepalive probe of @tp, now; it counts as a miss until answered.
 * Caller holds cm->lock.
 */
static void tp_ka_probe(struct ubcore_tp *tp)
{
	struct ubcore_cm *cm = tp->cm;
	struct uboe_mgmt_body body;

	tp_body(tp, &body);
	tp->ka_msg_id = ++cm->msg_id;
	tp->ka_misses++;
	tp->ka_sent = jiffies;
	atomic64_inc(&cm->ka[UBCORE_CM_KA_SENT]);
	/* a failed send is a probe without answer, as a lost one */
	tp_send_body(tp, UBOE_MGMT_KEEPALIVE, tp->ka_msg_id, &body);
}

/*
 * The keepalive of an established TP (see the top of the file): runs
 * cm->ka_jiffies after the peer was last heard, then once an interval
 * while it is silent.
 */
static void tp_ka_work(struct work_struct *work)
{
	struct ubcore_tp *tp = container_of(to_delayed_work(work),
					    struct ubcore_tp, ka_work);
	struct ubcore_cm *cm = tp->cm;
	unsigned long heard, due;

	mutex_lock(&cm->lock);
	if (!tp->linked || cm->stopped || !tp->ready || !cm->ka_jiffies)
		goto out;
	heard = READ_ONCE(tp->rx_stamp);
	/* heard since the last probe went (its answer, in its jiffy too) */
	if (tp->ka_misses && !time_before(heard, tp->ka_sent))
		tp->ka_misses = 0;
	if (!tp->ka_misses && time_before(jiffies, heard + cm->ka_jiffies)) {
		due = heard + cm->ka_jiffies;		/* not idle yet */
	} else if (tp->ka_misses &&
		   time_before(jiffies, tp->ka_sent + cm->ka_jiffies)) {
		due = tp->ka_sent + cm->ka_jiffies;	/* an early run */
	} else if (tp->ka_misses >= cm->retries) {
		atomic64_inc(&cm->ka[UBCORE_CM_KA_TIMEOUTS]);
		dev_info(&cm->dev->dev, "tp %u to %pI6c: no answer to %u keepalives: peer lost\n",
			 tp->fsm.local_tpn, tp->key.remote.raw, tp->ka_misses);
		tp_lose_peer(tp);
		goto out;
	} else {
		tp_ka_probe(tp);
		due = jiffies + cm->ka_jiffies;
	}
	if (!mod_delayed_work(cm->wq, &tp->ka_work,
			      time_after(due, jiffies) ? due - jiffies : 0))
		kref_get(&tp->ref);
out:
	mutex_unlock(&cm->lock);
	kref_put(&tp->ref, tp_release);
}

/* A new TP in reset, in the table. Caller holds cm->lock. */
static struct ubcore_tp *tp_new(struct ubcore_cm *cm,
				const struct ubcore_tp_key *key)
{
	struct ubcore_tp *tp;
	u32 tpn;
	int ret;

	if (cm->stopped)
		return ERR_PTR(-ENODEV);
	tp = kzalloc(sizeof(*tp), GFP_KERNEL);
	if (!tp)
		return ERR_PTR(-ENOMEM);
	/* cyclic: a TP opened again gets a new TPN, the peer tells them apart */
	ret = xa_alloc_cyclic(&cm->tps, &tpn, tp, XA_LIMIT(1, U32_MAX),
			      &cm->next_tpn, GFP_KERNEL);
	if (ret < 0) {
		kfree(tp);
		return ERR_PTR(ret);
	}
	tp->cm = cm;
	tp->key = *key;
	kref_init(&tp->ref);		/* the table's */
	INIT_DELAYED_WORK(&tp->timer, tp_timer_work);
	INIT_DELAYED_WORK(&tp->ka_work, tp_ka_work);
	INIT_LIST_HEAD(&tp->checks);
	INIT_LIST_HEAD(&tp->imports);
	tp->created_ns = ktime_get_boottime_ns();
	tp->xport.retry_cnt = UBCORE_TP_XPORT_UNSET;
	tp->xport.ack_timeout = UBCORE_TP_XPORT_UNSET;
	tp->linked = true;
	ubcore_tp_fsm_init(&tp->fsm, &cm_fsm_ops, &cm->stats, &key->local,
			   &key->remote, tpn, cm->rto_ns, cm->retries);
	hash_add_rcu(cm->pairs, &tp->node, key_hash(key));
	return tp;
}

static bool tp_usable(const struct ubcore_tp *tp)
{
	return tp->linked && (tp->fsm.state == UBCORE_TPS_INITIATOR_ESTABLISHED ||
			      tp->fsm.state == UBCORE_TPS_REUSED);
}

/* tp_usable() for the rest of ubcore. Takes cm->lock. */
bool ubcore_tp_is_usable(struct ubcore_tp *tp)
{
	bool usable;

	mutex_lock(&tp->cm->lock);
	usable = tp_usable(tp);
	mutex_unlock(&tp->cm->lock);
	return usable;
}

/* How long an open may take: the first timeout, doubled at each retry. */
static unsigned long cm_open_timeout(const struct ubcore_cm *cm)
{
	u64 total = 0, rto = cm->rto_ns;
	u32 i;

	for (i = 0; i <= cm->retries && total < 60ULL * NSEC_PER_SEC; i++, rto <<= 1)
		total += rto;
	return nsecs_to_jiffies(total);
}

/*
 * The link check of an import joining the established RM TP @tp (see
 * struct ubcore_tp_check). Caller holds cm->lock, dropped while waiting.
 * Return: 0 or the peer's answer as for ubcore_tp_open(), -ETIMEDOUT,
 * -EINTR, -ECONNRESET (the TP went away meanwhile).
 */
static int tp_link_check(struct ubcore_tp *tp, const struct ubcore_tp_target *target)
{
	struct ubcore_cm *cm = tp->cm;
	struct ubcore_tp_check chk = { .msg_id = ++cm->msg_id };
	struct uboe_mgmt_body body;
	long left;
	int ret;

	tp_body(tp, &body);
	body.dst_tpn = 0;
	body.target_type = target->type;
	body.dst_jetty = cpu_to_be32(target->id);
	body.token_value = cpu_to_be32(target->token_value);
	list_add_tail(&chk.node, &tp->checks);
	ret = tp_send_body(tp, UBOE_MGMT_CONN_REQ, chk.msg_id, &body);
	if (ret) {
		list_del(&chk.node);
		return ret;
	}
	mutex_unlock(&cm->lock);
	left = wait_event_interruptible_timeout(cm->waitq, READ_ONCE(chk.done),
						cm_open_timeout(cm));
	mutex_lock(&cm->lock);
	if (chk.done)
		return chk.result;
	list_del(&chk.node);
	return left < 0 ? -EINTR : -ETIMEDOUT;
}

/**
 * ubcore_tp_open() - get the TP of a key for one more local user
 * @dev: the local device
 * @key: local and remote EID, mode (RM or RC), RC's jetty pair
 * @target: what the peer checks (the imported jetty or JFR and its token)
 * @out: the TP, to give back with ubcore_tp_close()
 *
 * The first user of a key starts the connection (CONN_REQ, or
 * CONN_REUSE_REQ when the peer already opened a TP to us) and every user
 * waits until the TP is established or the attempt failed. The wait is
 * interruptible; a user that gives up leaves the attempt running, and a
 * TP that gets established without users is closed again.
 *
 * Context: process context; sleeps for up to the connection timeout
 * (cm_rto_ms doubled cm_retries times).
 * Return: 0, or -ENOENT (no such jetty/JFR on the peer), -EPROTOTYPE
 * (transport mode mismatch), -EPERM (wrong token), -ECONNREFUSED (the
 * peer refused), -ETIMEDOUT (no answer), -EHOSTUNREACH, -EOPNOTSUPP (the
 * provider cannot send management messages), -EINTR (a signal came
 * first), -ENOMEM, -ENODEV. Each failure is logged.
 */
int ubcore_tp_open(struct ubcore_device *dev, const struct ubcore_tp_key *key,
		   const struct ubcore_tp_target *target, struct ubcore_tp **out)
{
	struct ubcore_cm *cm = dev->cm;
	bool opened = false;
	struct ubcore_tp *tp;
	int ret = 0;

	if (!cm)
		return -ENODEV;
	if (!dev->ops->send_mgmt)
		return -EOPNOTSUPP;
	mutex_lock(&cm->lock);
	tp = cm_find(cm, key);
	if (!tp) {
		tp = tp_new(cm, key);
		if (IS_ERR(tp)) {
			mutex_unlock(&cm->lock);
			return PTR_ERR(tp);
		}
	}
	kref_get(&tp->ref);		/* this user's */
	tp->abandoned = false;
	if (tp->users++ == 0 && !tp_usable(tp) && !tp->opening) {
		opened = true;
		tp->target = *target;
		tp->opening = true;
		tp->last_send_err = 0;
		ret = ubcore_tp_fsm_event(&tp->fsm, UBCORE_TPE_LOCAL_OPEN, NULL);
		if (!ret && tp->fsm.state == UBCORE_TPS_REQ_SENT &&
		    tp->last_send_err == -EHOSTUNREACH) {
			/* no way to the peer at all: fail now, not at timeout */
			tp_lose_peer(tp);
			ret = -EHOSTUNREACH;
		}
		if (ret)
			tp->opening = false;
		tp_settle(tp);
	}
	while (!ret && tp->opening) {
		mutex_unlock(&cm->lock);
		ret = wait_event_interruptible(cm->waitq, !READ_ONCE(tp->opening));
		mutex_lock(&cm->lock);
		if (ret && !tp->opening)
			ret = 0;	/* answered anyway: take the answer */
		else if (ret)
			ret = -EINTR;
	}
	if (!ret && !tp_usable(tp))
		ret = tp->open_result ? tp->open_result : -ECONNRESET;
	/* the peer checked the opener's target; a joiner's is checked now */
	if (!ret && !opened && tp->key.mode == UBOE_MGMT_TM_RM &&
	    target->type != UBOE_MGMT_TARGET_NONE)
		ret = tp_link_check(tp, target);
	if (ret) {
		if (--tp->users == 0 && tp->opening)
			tp->abandoned = true;
		else if (!tp->users && tp_usable(tp) && !cm->stopped)
			ubcore_tp_fsm_event(&tp->fsm, UBCORE_TPE_LOCAL_CLOSE, NULL);
		tp_settle(tp);
		mutex_unlock(&cm->lock);
		kref_put(&tp->ref, tp_release);
		dev_info_ratelimited(&dev->dev,
				     "%s connection to %pI6c (jetty %u) failed: %d\n",
				     key->mode == UBOE_MGMT_TM_RC ? "RC" : "RM",
				     key->remote.raw, target->id, ret);
		return ret;
	}
	mutex_unlock(&cm->lock);
	*out = tp;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(ubcore_tp_open);

/**
 * ubcore_tp_close() - a user of a TP is gone
 * @tp: from ubcore_tp_open()
 *
 * The last local user tears the TP down (DCONN_NOTIFY).
 *
 * Context: process context; may sleep.
 */
void ubcore_tp_close(struct ubcore_tp *tp)
{
	struct ubcore_cm *cm = tp->cm;

	mutex_lock(&cm->lock);
	if (--tp->users == 0 && tp_usable(tp) && !cm->stopped)
		ubcore_tp_fsm_event(&tp->fsm, UBCORE_TPE_LOCAL_CLOSE, NULL);
	tp_settle(tp);
	mutex_unlock(&cm->lock);
	kref_put(&tp->ref, tp_release);
}
EXPORT_SYMBOL_IF_KUNIT(ubcore_tp_close);

/**
 * ubcore_tjetty_connect() - open the TP an import or a bind needs
 * @tj: the import; its cfg names the peer (EID), the target (jetty or JFR
 *	ID, type, token) and the mode
 * @local_jetty: RC: this end's jetty being bound; RM: 0
 *
 * RM shares one TP per (local EID, remote EID): the local EID is the
 * context's (uctx->eid_index; index 0 for a kernel caller). RC opens one TP
 * per (local jetty, remote jetty) pair. On success @tj->tp holds a user
 * reference, given back by ubcore_tjetty_disconnect().
 *
 * Context: process context; sleeps (see ubcore_tp_open()).
 * Return: 0, -EADDRNOTAVAIL (the context's EID is gone) or
 * ubcore_tp_open()'s error.
 */
int ubcore_tjetty_connect(struct ubcore_tjetty *tj, u32 local_jetty)
{
	struct ubcore_device *dev = tj->ub_dev;
	u32 eid_index = tj->uctx ? tj->uctx->eid_index : 0;
	struct ubcore_tp_target target = {
		.id = tj->cfg.id.id,
		.type = tj->cfg.type == UBCORE_TARGET_JFR ?
			UBOE_MGMT_TARGET_JFR : UBOE_MGMT_TARGET_JETTY,
		.token_value = tj->cfg.token_value,
	};
	struct ubcore_tp_key key = {
		.remote = tj->cfg.id.eid,
		.mode = tj->cfg.trans_mode == UBCORE_TP_RC ?
			UBOE_MGMT_TM_RC : UBOE_MGMT_TM_RM,
	};
	struct ubcore_tp *tp;
	int ret;

	if (ubcore_get_eid(dev, eid_index, &key.local)) {
		dev_info(&dev->dev, "connection to %pI6c: EID index %u has no EID\n",
			 key.remote.raw, eid_index);
		return -EADDRNOTAVAIL;
	}
	if (key.mode == UBOE_MGMT_TM_RC) {
		key.local_jetty = local_jetty;
		key.remote_jetty = tj->cfg.id.id;
	}
	ret = ubcore_tp_open(dev, &key, &target, &tp);
	if (ret)
		return ret;
	mutex_lock(&tp->cm->lock);
	list_add_tail(&tj->tp_node, &tp->imports);
	mutex_unlock(&tp->cm->lock);
	tj->tp = tp;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(ubcore_tjetty_connect);

/**
 * ubcore_tjetty_disconnect() - give back the TP of ubcore_tjetty_connect()
 * @tj: the import; nothing if it holds no TP
 *
 * The TP's last user sends DCONN_NOTIFY to the peer and frees it.
 *
 * Context: process context; may sleep.
 */
void ubcore_tjetty_disconnect(struct ubcore_tjetty *tj)
{
	struct ubcore_tp *tp = tj->tp;

	if (!tp)
		return;
	mutex_lock(&tp->cm->lock);
	list_del(&tj->tp_node);
	mutex_unlock(&tp->cm->lock);
	WRITE_ONCE(tj->tp, NULL);
	ubcore_tp_close(tp);
}
EXPORT_SYMBOL_IF_KUNIT(ubcore_tjetty_disconnect);

/**
 * ubcore_tjetty_check_tp() - is the TP of an import the one its caller named
 * @tj: an import holding a TP (ubcore_tjetty_connect() succeeded)
 * @active: the TP named (urma_import_jetty_ex(), urma_bind_jetty_ex())
 *
 * Context: process context; takes cm->lock.
 * Return: 0, or -EINVAL (logged) if @tj's TP is not @active's tp_handle or
 * its peer end is not @active's peer_tp_handle (for a TP to the device's
 * own EID, peer_tp_handle may name this end too).
 */
int ubcore_tjetty_check_tp(const struct ubcore_tjetty *tj,
			   const struct ubcore_active_tp_cfg *active)
{
	struct ubcore_tp *tp = tj->tp;
	u32 tpn, peer_tpn;
	bool loop;

	mutex_lock(&tp->cm->lock);
	tpn = tp->fsm.local_tpn;
	peer_tpn = tp->fsm.peer_tpn;
	loop = key_is_self(&tp->key);
	mutex_unlock(&tp->cm->lock);
	/*
	 * Both ends of a TP to the device's own EID are here, and two
	 * processes that list it (one handle each, by TPN) get the same
	 * end, which then names the peer's too: one TP has that key.
	 */
	if (active->tp_handle == tpn &&
	    (active->peer_tp_handle == peer_tpn ||
	     (loop && active->peer_tp_handle == tpn)))
		return 0;
	dev_info(&tj->ub_dev->dev,
		 "tp handle %llu (peer %llu) named, but the TP to %pI6c is %u (peer %u)\n",
		 active->tp_handle, active->peer_tp_handle, tj->cfg.id.eid.raw,
		 tpn, peer_tpn);
	return -EINVAL;
}

/**
 * ubcore_get_tp_list() - the ESTABLISHED TPs between two EIDs
 * @dev: the device
 * @cfg: the local EID (of @dev), the peer's and the mode (RM, RC; UM: none)
 * @tp_cnt: in: room in @tp_handles (not 0); out: how many were listed
 * @tp_handles: their handles (the TPN of this end), by TPN
 *
 * A TP to @dev's own EID has both ends here: each is listed, with the
 * other as its peer.
 *
 * Context: process context; takes cm->lock.
 * Return: 0 or -EINVAL (a NULL argument, *@tp_cnt 0, an unknown mode),
 * logged at debug level.
 */
int ubcore_get_tp_list(struct ubcore_device *dev,
		       const struct ubcore_get_tp_cfg *cfg, u32 *tp_cnt,
		       u64 *tp_handles)
{
	struct ubcore_cm *cm = dev ? dev->cm : NULL;
	struct ubcore_tp *tp;
	unsigned long tpn;
	u32 n = 0;
	u8 mode;

	if (!cm || !cfg || !tp_cnt || !*tp_cnt || !tp_handles)
		return -EINVAL;
	if (cfg->trans_mode == UBCORE_TP_UM) {
		*tp_cnt = 0;		/* UM needs none */
		return 0;
	}
	if (cfg->trans_mode != UBCORE_TP_RM && cfg->trans_mode != UBCORE_TP_RC)
		return ubcore_inval(dev, "get_tp_list: trans_mode 0x%x",
				    cfg->trans_mode);
	mode = cfg->trans_mode == UBCORE_TP_RC ? UBOE_MGMT_TM_RC : UBOE_MGMT_TM_RM;
	mutex_lock(&cm->lock);
	xa_for_each(&cm->tps, tpn, tp) {
		if (n == *tp_cnt)
			break;
		if (!tp_established(tp) || tp->key.mode != mode ||
		    memcmp(tp->key.local.raw, cfg->local_eid.raw, UBCORE_EID_SIZE) ||
		    memcmp(tp->key.remote.raw, cfg->peer_eid.raw, UBCORE_EID_SIZE))
			continue;
		tp_handles[n++] = tp->fsm.local_tpn;
	}
	mutex_unlock(&cm->lock);
	*tp_cnt = n;
	return 0;
}
EXPORT_SYMBOL_GPL(ubcore_get_tp_list);

/*
 * The ESTABLISHED TP whose handle is @tp_handle, if @uctx uses it: one of
 * its imports or bound jetties holds it (@all: every local user of the TP
 * is @uctx's). A kernel caller (@uctx NULL) uses every TP. Caller holds
 * cm->lock. Return: the TP, or an ERR_PTR: -EINVAL (no such TP), -EPERM.
 */
static struct ubcore_tp *tp_of_handle(struct ubcore_cm *cm,
				      const struct ubcore_ucontext *uctx,
				      u64 tp_handle, bool all)
{
	const struct ubcore_tjetty *tj;
	struct ubcore_tp *tp;
	u32 mine = 0;

	lockdep_assert_held(&cm->lock);
	tp = tp_handle <= U32_MAX ? xa_load(&cm->tps, tp_handle) : NULL;
	if (!tp || !tp_established(tp))
		return ERR_PTR(ubcore_inval(cm->dev, "tp_handle %llu", tp_handle));
	if (!uctx)
		return tp;
	list_for_each_entry(tj, &tp->imports, tp_node)
		mine += tj->uctx == uctx;
	/* (an open still on its way counts in users, not yet in imports) */
	if (mine && (!all || mine == tp->users))
		return tp;
	dev_dbg_ratelimited(&cm->dev->dev,
			    "TP %llu: %s of its %u users are the caller's\n",
			    tp_handle, mine ? "not all" : "none", tp->users);
	return ERR_PTR(-EPERM);
}

/**
 * ubcore_get_tp_attr() - the attributes of a TP (urma_get_tp_attr())
 * @dev: the device
 * @uctx: the caller's context (NULL: a kernel caller)
 * @tp_handle: from ubcore_get_tp_list()
 * @attr: filled in
 *
 * Context: process context; takes cm->lock.
 * Return: 0, -EINVAL (no ESTABLISHED TP @tp_handle), -EPERM (none of
 * @uctx's imports or bound jetties uses it).
 */
int ubcore_get_tp_attr(struct ubcore_device *dev,
		       const struct ubcore_ucontext *uctx, u64 tp_handle,
		       struct ubcore_tp_attr *attr)
{
	struct ubcore_cm *cm = dev ? dev->cm : NULL;
	struct ubcore_tp_xport def = {
		.retry_cnt = UBCORE_TP_XPORT_UNSET,
		.ack_timeout = UBCORE_TP_XPORT_UNSET,
	};
	struct ubcore_tp *tp;

	if (!cm || !attr)
		return -EINVAL;
	if (dev->ops->tp_defaults)
		dev->ops->tp_defaults(dev, &def);
	mutex_lock(&cm->lock);
	tp = tp_of_handle(cm, uctx, tp_handle, false);
	if (IS_ERR(tp)) {
		mutex_unlock(&cm->lock);
		return PTR_ERR(tp);
	}
	*attr = (struct ubcore_tp_attr){
		.tpn = tp->fsm.local_tpn,
		.peer_tpn = tp->fsm.peer_tpn,
		.local = tp->key.local,
		.peer = tp->key.remote,
		.trans_mode = tp->key.mode == UBOE_MGMT_TM_RC ?
			      UBCORE_TP_RC : UBCORE_TP_RM,
		.xport = tp->xport,
	};
	mutex_unlock(&cm->lock);
	if (attr->xport.retry_cnt == UBCORE_TP_XPORT_UNSET)
		attr->xport.retry_cnt = def.retry_cnt;
	if (attr->xport.ack_timeout == UBCORE_TP_XPORT_UNSET)
		attr->xport.ack_timeout = def.ack_timeout;
	return 0;
}
EXPORT_SYMBOL_GPL(ubcore_get_tp_attr);

/**
 * ubcore_set_tp_attr() - set a TP's transport values (urma_set_tp_attr())
 * @dev: the device
 * @uctx: the caller's context (NULL: a kernel caller)
 * @tp_handle: from ubcore_get_tp_list()
 * @xport: the values to set; UBCORE_TP_XPORT_UNSET: leave that one
 *
 * A TP shared with another context (an RM TP that two processes' imports
 * of the same EID pair use) is refused: one user must not change how
 * another's requests are retried. The values go with the TP: a TP opened
 * again starts with the provider's defaults.
 *
 * Context: process context; takes cm->lock.
 * Return: 0, -EINVAL (no ESTABLISHED TP @tp_handle, a value out of its
 * range), -EPERM (a local user of the TP is not @uctx's), -EOPNOTSUPP
 * (the device's TPs have no such values).
 */
int ubcore_set_tp_attr(struct ubcore_device *dev,
		       const struct ubcore_ucontext *uctx, u64 tp_handle,
		       const struct ubcore_tp_xport *xport)
{
	struct ubcore_cm *cm = dev ? dev->cm : NULL;
	struct ubcore_tp *tp;

	if (!cm || !xport)
		return -EINVAL;
	if (!dev->ops->tp_defaults)
		return -EOPNOTSUPP;
	if (xport->retry_cnt != UBCORE_TP_XPORT_UNSET &&
	    xport->retry_cnt > UBCORE_TP_RETRY_CNT_MAX)
		return ubcore_inval(dev, "TP retry count %u", xport->retry_cnt);
	if (xport->ack_timeout != UBCORE_TP_XPORT_UNSET &&
	    xport->ack_timeout > UBCORE_TP_ACK_TIMEOUT_MAX)
		return ubcore_inval(dev, "TP ACK timeout %u", xport->ack_timeout);
	mutex_lock(&cm->lock);
	tp = tp_of_handle(cm, uctx, tp_handle, true);
	if (IS_ERR(tp)) {
		mutex_unlock(&cm->lock);
		return PTR_ERR(tp);
	}
	if (xport->retry_cnt != UBCORE_TP_XPORT_UNSET)
		WRITE_ONCE(tp->xport.retry_cnt, xport->retry_cnt);
	if (xport->ack_timeout != UBCORE_TP_XPORT_UNSET)
		WRITE_ONCE(tp->xport.ack_timeout, xport->ack_timeout);
	mutex_unlock(&cm->lock);
	return 0;
}
EXPORT_SYMBOL_GPL(ubcore_set_tp_attr);

/**
 * ubcore_get_jetty_tpn() - the TPN of a jetty's own TP (urma_get_tpn())
 * @jetty: an RC jetty; the caller keeps its binding as it is meanwhile
 * @tpn: this end's TPN, on success
 *
 * Context: process context; takes cm->lock.
 * Return: 0, or -ENOTCONN: the jetty has no TP of its own (not RC, not
 * bound) or its TP is not ESTABLISHED (its peer was lost).
 */
int ubcore_get_jetty_tpn(struct ubcore_jetty *jetty, u32 *tpn)
{
	struct ubcore_tjetty *tj = jetty->remote_jetty;
	struct ubcore_tp *tp = tj ? tj->tp : NULL;
	int ret = -ENOTCONN;

	if (!tp)
		return ret;
	/* the bound import's user reference keeps @tp */
	mutex_lock(&tp->cm->lock);
	if (tp_established(tp)) {
		*tpn = tp->fsm.local_tpn;
		ret = 0;
	}
	mutex_unlock(&tp->cm->lock);
	return ret;
}
EXPORT_SYMBOL_GPL(ubcore_get_jetty_tpn);

/**
 * ubcore_tp_xport() - a TP's own transport values, for its provider
 * @dev: the device
 * @tpn: the TP's local TPN
 * @xport: filled in; UBCORE_TP_XPORT_UNSET where the TP has none of its own
 *	(the provider's default applies)
 *
 * Context: any context, softirq included; does not sleep (RCU).
 * Return: 0, or -ENOENT (no TP @tpn).
 */
int ubcore_tp_xport(struct ubcore_device *dev, u32 tpn,
		    struct ubcore_tp_xport *xport)
{
	struct ubcore_cm *cm = dev ? dev->cm : NULL;
	struct ubcore_tp *tp;
	int ret = -ENOENT;

	if (!cm)
		return ret;
	rcu_read_lock();
	tp = xa_load(&cm->tps, tpn);
	if (tp) {
		xport->retry_cnt = READ_ONCE(tp->xport.retry_cnt);
		xport->ack_timeout = READ_ONCE(tp->xport.ack_timeout);
		ret = 0;
	}
	rcu_read_unlock();
	return ret;
}
EXPORT_SYMBOL_GPL(ubcore_tp_xport);

/**
 * ubcore_tp_resolve() - the TP to send on for an import
 * @dev: the import's device
 * @tj: the import (RM: from import to unimport; RC: while bound)
 * @tpn: this end's TPN, on success
 * @peer_tpn: the peer's TPN, on success
 *
 * The caller keeps @tj alive (its own reference to the import or the
 * bound jetty) during the call.
 *
 * Context: any context, softirq included; does not sleep.
 * Return: 0, -EINVAL (@tj is not of @dev), -ENOTCONN (no TP, e.g. a UM
 * import or an unbound RC import, or the TP is not ESTABLISHED: being set
 * up, torn down or lost).
 */
int ubcore_tp_resolve(struct ubcore_device *dev, const struct ubcore_tjetty *tj,
		      u32 *tpn, u32 *peer_tpn)
{
	const struct ubcore_tp *tp;
	int ret = -ENOTCONN;

	if (!dev || !tj || tj->ub_dev != dev)
		return -EINVAL;
	rcu_read_lock();
	tp = READ_ONCE(tj->tp);
	if (tp && READ_ONCE(tp->ready)) {
		*tpn = tp->fsm.local_tpn;
		*peer_tpn = READ_ONCE(tp->ready_peer_tpn);
		ret = 0;
	}
	rcu_read_unlock();
	return ret;
}
EXPORT_SYMBOL_GPL(ubcore_tp_resolve);

/**
 * ubcore_tp_rx_lookup() - does a received packet belong to a TP
 * @dev: the receiving device
 * @tpn: the packet's destination TPN (this end's)
 * @src: the packet's source EID
 * @peer_tpn: the TP's peer TPN, on success; may be NULL
 *
 * On success the TP counts as active: its keepalive probes only after
 * cm_keepalive_ms without a packet from the peer.
 *
 * Context: any context, softirq included; does not sleep (RCU).
 * Return: 0 (a TP of @dev whose peer is @src, ESTABLISHED or the target's
 * end that answered the request: see tp_rx_open()), -ENOENT (no TP @tpn),
 * -ENOTCONN (not yet, or no longer, taking packets) or -EPROTO (@src is
 * not its peer).
 */
int ubcore_tp_rx_lookup(struct ubcore_device *dev, u32 tpn,
			const union ubcore_eid *src, u32 *peer_tpn)
{
	struct ubcore_cm *cm = dev ? dev->cm : NULL;
	struct ubcore_tp *tp;
	unsigned long now = jiffies;
	int ret;

	if (!cm || !src)
		return -ENOENT;
	rcu_read_lock();
	tp = xa_load(&cm->tps, tpn);
	if (!tp) {
		ret = -ENOENT;
	} else if (!READ_ONCE(tp->rx_open)) {
		ret = -ENOTCONN;
	} else if (memcmp(tp->key.remote.raw, src->raw, UBCORE_EID_SIZE)) {
		ret = -EPROTO;
	} else {
		if (peer_tpn)
			*peer_tpn = READ_ONCE(tp->ready_peer_tpn);
		/* the peer is heard: no keepalive (written once a jiffy) */
		if (READ_ONCE(tp->rx_stamp) != now)
			WRITE_ONCE(tp->rx_stamp, now);
		ret = 0;
	}
	rcu_read_unlock();
	return ret;
}
EXPORT_SYMBOL_GPL(ubcore_tp_rx_lookup);

/**
 * ubcore_tp_transport_failed() - a provider's reliable transport of a TP
 *	gave up (no acknowledgment after all its retries)
 * @dev: the device
 * @tpn: the TP's local TPN
 *
 * The TP carries nothing any more, either way. The peer is told
 * (DCONN_NOTIFY, reason UBOE_MGMT_REASON_TP_FAILED) so that its end is
 * lost too: what it sent on the TP and waits an answer for fails instead
 * of waiting for ever (the peer's own transport may be healthy: only this
 * end's packets went missing). This end is then lost as for peer loss
 * (ops->tp_closed, cm_lost(): the users' events) and leaves the table. A
 * notification that does not arrive is made up by the peer's keepalive,
 * which this end refuses from now on.
 *
 * Context: process context; sleeps (cm->lock).
 */
void ubcore_tp_transport_failed(struct ubcore_device *dev, u32 tpn)
{
	struct ubcore_cm *cm = dev->cm;
	struct uboe_mgmt_body body;
	struct ubcore_tp *tp;

	if (!cm)
		return;
	mutex_lock(&cm->lock);
	tp = xa_load(&cm->tps, tpn);
	if (tp && tp->linked && !cm->stopped && tp_can_lose_peer(tp)) {
		dev_warn(&dev->dev, "tp %u to %pI6c: its transport failed (no ACK after every retry): lost at both ends\n",
			 tpn, tp->key.remote.raw);
		atomic64_inc(&cm->ka[UBCORE_CM_KA_TP_FAILED]);
		if (tp_peer_may_hold(tp)) {
			tp_body(tp, &body);
			body.reason = UBOE_MGMT_REASON_TP_FAILED;
			tp_send_body(tp, UBOE_MGMT_DCONN_NOTIFY, ++cm->msg_id,
				     &body);
		}
		tp_lose_peer(tp);
	}
	mutex_unlock(&cm->lock);
}
EXPORT_SYMBOL_GPL(ubcore_tp_transport_failed);

/* ---- receiving ---------------------------------------------------------- */

static int body_check(const struct ubcore_cm_rx *rx)
{
	const struct uboe_mgmt_body *b = &rx->body;

	if (rx->len != sizeof(*b) || b->version != UBOE_MGMT_BODY_VERSION ||
	    !rx->type || rx->type > UBOE_MGMT_TYPE_MAX)
		return -EINVAL;
	if (b->trans_mode != UBOE_MGMT_TM_RM && b->trans_mode != UBOE_MGMT_TM_RC)
		return -EINVAL;
	if (rx->type == UBOE_MGMT_CONN_REQ || rx->type == UBOE_MGMT_CONN_REUSE_REQ) {
		/* NONE: an RM TP asked for before any import (ubcore_hold_tp()) */
		if (b->target_type == UBOE_MGMT_TARGET_NONE ?
		    b->trans_mode != UBOE_MGMT_TM_RM || b->dst_jetty ||
		    b->token_value :
		    b->target_type != UBOE_MGMT_TARGET_JFR &&
		    b->target_type != UBOE_MGMT_TARGET_JETTY)
			return -EINVAL;
	} else if (b->target_type || b->token_value) {
		return -EINVAL;
	}
	if (rx->type == UBOE_MGMT_CONN_REJ ? b->reason > UBOE_MGMT_REASON_MAX :
	    rx->type == UBOE_MGMT_DCONN_NOTIFY ?
	    b->reason && b->reason != UBOE_MGMT_REASON_TP_FAILED : b->reason)
		return -EINVAL;
	/* only a CONN_REQ does not know the receiver's TPN */
	if (rx->type == UBOE_MGMT_CONN_REQ ? !!b->dst_tpn : !b->dst_tpn)
		return -EINVAL;
	if (!b->src_tpn)
		return -EINVAL;
	if (b->trans_mode == UBOE_MGMT_TM_RM && b->src_jetty)
		return -EINVAL;
	return 0;
}

/* Whether @raw is one of @dev's EIDs. Takes dev->eid_lock. */
bool ubcore_eid_is_mine(struct ubcore_device *dev, const u8 *raw)
{
	bool found = false;
	u32 i;

	mutex_lock(&dev->eid_lock);
	for (i = 0; i < UBCORE_MAX_EID_CNT && !found; i++)
		found = dev->eid_table[i].valid &&
			!memcmp(dev->eid_table[i].eid.raw, raw, UBCORE_EID_SIZE);
	mutex_unlock(&dev->eid_lock);
	return found;
}

static void cm_drop(struct ubcore_cm *cm, enum ubcore_cm_drop why, u8 type)
{
	atomic64_inc(&cm->rx_dropped[why]);
	dev_dbg(&cm->dev->dev, "management message type %u dropped: %s\n",
		type, drop_names[why]);
}

/*
 * A CONN_REQ from the peer end of the established RM TP @tp: a link check
 * (struct ubcore_tp_check). Answers it. Caller holds cm->lock.
 */
static void cm_link_request(struct ubcore_tp *tp, const struct ubcore_cm_rx *rx)
{
	const struct uboe_mgmt_body *b = &rx->body;
	struct uboe_mgmt_body body;
	int err;

	err = ubcore_tp_check_target(tp->cm->dev, b->target_type,
				     be32_to_cpu(b->dst_jetty), b->trans_mode,
				     be32_to_cpu(b->token_value));
	if (err)
		dev_dbg(&tp->cm->dev->dev, "tp %u: link to %s %u refused: %d\n",
			tp->fsm.local_tpn,
			b->target_type == UBOE_MGMT_TARGET_JFR ? "jfr" : "jetty",
			be32_to_cpu(b->dst_jetty), err);
	tp_body(tp, &body);
	body.dst_jetty = b->dst_jetty;
	body.reason = err ? errno_to_reason(err) : 0;
	tp_send_body(tp, err ? UBOE_MGMT_CONN_REJ : UBOE_MGMT_CONN_REP,
		     rx->msg_id, &body);
}

/* The answer to a link check of @tp. Caller holds cm->lock. */
static void cm_link_answered(struct ubcore_tp *tp, const struct ubcore_cm_rx *rx,
			     int status)
{
	struct ubcore_tp_check *chk;

	list_for_each_entry(chk, &tp->checks, node) {
		if (chk->msg_id != rx->msg_id)
			continue;
		list_del_init(&chk->node);
		chk->result = status;
		WRITE_ONCE(chk->done, true);
		wake_up_all(&tp->cm->waitq);
		return;
	}
	cm_drop(tp->cm, UBCORE_CM_DROP_UNKNOWN_TPN, rx->type);	/* late */
}

/*
 * The TP a received message's dst_tpn names, if the message comes from
 * that TP's peer (its EIDs, mode, and its TPN once learnt), else NULL.
 * Caller holds cm->lock.
 */
static struct ubcore_tp *cm_find_tpn(struct ubcore_cm *cm,
				     const struct uboe_mgmt_body *b)
{
	struct ubcore_tp *tp = xa_load(&cm->tps, be32_to_cpu(b->dst_tpn));
	u32 peer_tpn = be32_to_cpu(b->src_tpn);

	if (!tp || memcmp(tp->key.remote.raw, b->src_eid, UBCORE_EID_SIZE) ||
	    memcmp(tp->key.local.raw, b->dst_eid, UBCORE_EID_SIZE) ||
	    tp->key.mode != b->trans_mode ||
	    (tp->fsm.peer_tpn && tp->fsm.peer_tpn != peer_tpn))
		return NULL;
	return tp;
}

/*
 * A probe for a TP this device does not have (the prober's peer is a new
 * device, or forgot it): KEEPALIVE_REJ, which makes the prober drop the
 * TP at once. The body is the probe's, swapped. Caller holds cm->lock.
 */
static void cm_keepalive_refuse(struct ubcore_cm *cm, const struct ubcore_cm_rx *rx)
{
	const struct uboe_mgmt_body *b = &rx->body;
	struct uboe_mgmt_body body = {
		.version = UBOE_MGMT_BODY_VERSION,
		.trans_mode = b->trans_mode,
		.src_tpn = b->dst_tpn,
		.dst_tpn = b->src_tpn,
		.src_jetty = b->dst_jetty,
		.dst_jetty = b->src_jetty,
	};
	union ubcore_eid dst;

	memcpy(body.src_eid, b->dst_eid, UBCORE_EID_SIZE);
	memcpy(body.dst_eid, b->src_eid, UBCORE_EID_SIZE);
	memcpy(dst.raw, b->src_eid, UBCORE_EID_SIZE);
	dev_dbg(&cm->dev->dev, "keepalive from %pI6c for tp %u (its tp %u): no such TP here, refused\n",
		b->src_eid, be32_to_cpu(b->dst_tpn), be32_to_cpu(b->src_tpn));
	atomic64_inc(&cm->ka[UBCORE_CM_KA_REJECTS_SENT]);
	cm_send_body(cm, &dst, 0, UBOE_MGMT_KEEPALIVE_REJ, rx->msg_id, &body);
}

/* A KEEPALIVE, KEEPALIVE_REP or KEEPALIVE_REJ. Caller holds cm->lock. */
static void cm_keepalive_rx(struct ubcore_cm *cm, const struct ubcore_cm_rx *rx)
{
	struct ubcore_tp *tp = cm_find_tpn(cm, &rx->body);
	struct uboe_mgmt_body body;

	/* a keepalive is of a TP both ends know: the peer's TPN is learnt */
	if (tp && tp->fsm.peer_tpn != be32_to_cpu(rx->body.src_tpn))
		tp = NULL;
	if (!tp) {
		if (rx->type == UBOE_MGMT_KEEPALIVE)
			cm_keepalive_refuse(cm, rx);
		else
			cm_drop(cm, UBCORE_CM_DROP_UNKNOWN_TPN, rx->type);
		return;
	}
	switch (rx->type) {
	case UBOE_MGMT_KEEPALIVE:
		WRITE_ONCE(tp->rx_stamp, jiffies);
		tp_body(tp, &body);
		tp_send_body(tp, UBOE_MGMT_KEEPALIVE_REP, rx->msg_id, &body);
		break;
	case UBOE_MGMT_KEEPALIVE_REP:
		WRITE_ONCE(tp->rx_stamp, jiffies);
		atomic64_inc(&cm->ka[UBCORE_CM_KA_ANSWERED]);
		/* the last probe answered: none is missing */
		if (rx->msg_id == tp->ka_msg_id)
			tp->ka_misses = 0;
		break;
	default:
		/* only the answer to this TP's last probe, while it waits */
		if (!tp->ka_misses || rx->msg_id != tp->ka_msg_id) {
			cm_drop(cm, UBCORE_CM_DROP_UNKNOWN_TPN, rx->type);
			break;
		}
		atomic64_inc(&cm->ka[UBCORE_CM_KA_REFUSED]);
		dev_info(&cm->dev->dev, "tp %u to %pI6c: the peer does not know it (tp %u): peer lost\n",
			 tp->fsm.local_tpn, tp->key.remote.raw, tp->fsm.peer_tpn);
		tp_lose_peer(tp);
		break;
	}
}

/*
 * A CONN_REQ for the key of established @tp, from another TPN of the
 * peer: the peer opens anew because its end is gone (a DCONN_NOTIFY lost,
 * a restart), or the request is forged (UBoE, like RoCEv2, authenticates
 * nothing, and an RM TP's key is only its EID pair). The old end is asked
 * first, with a keepalive probe: gone, it refuses (KEEPALIVE_REJ), this
 * end is lost at once, and the peer's next try of the request makes the
 * new TP; alive, it answers and the TP stays. The request is dropped
 * either way. One probe per connection manager RTO at most, so that a
 * flood of requests cannot make the keepalive count misses. Caller holds
 * cm->lock.
 */
static void cm_reopen_probe(struct ubcore_tp *tp, u32 peer_tpn)
{
	struct ubcore_cm *cm = tp->cm;

	cm_drop(cm, UBCORE_CM_DROP_REOPEN_PROBED, UBOE_MGMT_CONN_REQ);
	if (tp->reopen_asked &&
	    time_before(jiffies,
			tp->reopen_sent + nsecs_to_jiffies(cm->rto_ns)))
		return;
	tp->reopen_asked = true;
	tp->reopen_sent = jiffies;
	dev_dbg(&cm->dev->dev, "tp %u: %pI6c opens again from tp %u (is %u): asking the old end\n",
		tp->fsm.local_tpn, tp->key.remote.raw, peer_tpn,
		tp->fsm.peer_tpn);
	tp_ka_probe(tp);
}

/* One received message. Caller holds cm->lock. */
static void cm_process(struct ubcore_cm *cm, struct ubcore_cm_rx *rx)
{
	const struct uboe_mgmt_body *b = &rx->body;
	struct ubcore_tp_fsm_msg msg = {
		.peer_tpn = be32_to_cpu(b->src_tpn),
		.status = rx->type == UBOE_MGMT_CONN_REJ ?
			  reason_to_errno(b->reason) : 0,
	};
	struct ubcore_tp_key key = { .mode = b->trans_mode };
	struct ubcore_tp *tp;

	if (rx->type >= UBOE_MGMT_KEEPALIVE) {
		cm_keepalive_rx(cm, rx);
		return;
	}
	memcpy(key.local.raw, b->dst_eid, UBCORE_EID_SIZE);
	memcpy(key.remote.raw, b->src_eid, UBCORE_EID_SIZE);
	if (b->dst_tpn) {
		tp = cm_find_tpn(cm, b);
		if (!tp) {
			cm_drop(cm, UBCORE_CM_DROP_UNKNOWN_TPN, rx->type);
			return;
		}
		WRITE_ONCE(tp->rx_stamp, jiffies);
		if (rx->type == UBOE_MGMT_DCONN_NOTIFY &&
		    b->reason == UBOE_MGMT_REASON_TP_FAILED) {
			dev_warn(&cm->dev->dev, "tp %u to %pI6c: the peer's transport of it failed: lost\n",
				 tp->fsm.local_tpn, tp->key.remote.raw);
			atomic64_inc(&cm->ka[UBCORE_CM_KA_PEER_FAILED]);
			tp_lose_peer(tp);
			return;
		}
		if (b->trans_mode == UBOE_MGMT_TM_RM && b->dst_jetty &&
		    tp_established(tp) &&
		    (rx->type == UBOE_MGMT_CONN_REP || rx->type == UBOE_MGMT_CONN_REJ)) {
			cm_link_answered(tp, rx, msg.status);
			return;
		}
	} else {
		if (b->trans_mode == UBOE_MGMT_TM_RC) {
			key.local_jetty = be32_to_cpu(b->dst_jetty);
			key.remote_jetty = be32_to_cpu(b->src_jetty);
		}
		/* a request from this device's own opening end */
		key.loop_side = key_is_self(&key);
		tp = cm_find(cm, &key);
		if (tp && rx->type == UBOE_MGMT_CONN_REQ &&
		    b->trans_mode == UBOE_MGMT_TM_RM && tp_established(tp) &&
		    tp->fsm.peer_tpn == msg.peer_tpn) {
			cm_link_request(tp, rx);
			return;
		}
		if (tp && rx->type == UBOE_MGMT_CONN_REQ && tp->fsm.peer_tpn &&
		    tp->fsm.peer_tpn != msg.peer_tpn) {
			if (tp_established(tp)) {
				cm_reopen_probe(tp, msg.peer_tpn);
				return;
			}
			/*
			 * The peer opens anew from another TPN while this end
			 * is not established yet: its first try is void.
			 */
			dev_info(&cm->dev->dev, "tp %u: %pI6c opens again from tp %u (was %u): the old one is lost\n",
				 tp->fsm.local_tpn, b->src_eid, msg.peer_tpn,
				 tp->fsm.peer_tpn);
			tp_lose_peer(tp);
			if (!tp->linked)
				tp = NULL;
		}
		if (!tp) {
			tp = tp_new(cm, &key);
			if (IS_ERR(tp)) {
				cm_drop(cm, UBCORE_CM_DROP_REFUSED, rx->type);
				return;
			}
		}
	}
	tp->rx_body = b;
	if (ubcore_tp_fsm_event(&tp->fsm, wire_to_event[rx->type], &msg))
		atomic64_inc(&cm->rx_dropped[UBCORE_CM_DROP_REFUSED]);
	tp->rx_body = NULL;
	tp_settle(tp);
}

static void cm_rx_work(struct work_struct *work)
{
	struct ubcore_cm *cm = container_of(work, struct ubcore_cm, rx_work);
	struct ubcore_cm_rx *rx;
	unsigned long flags;

	for (;;) {
		spin_lock_irqsave(&cm->rx_lock, flags);
		rx = list_first_entry_or_null(&cm->rx_list, struct ubcore_cm_rx,
					      node);
		if (rx) {
			list_del(&rx->node);
			cm->rx_len--;
		}
		spin_unlock_irqrestore(&cm->rx_lock, flags);
		if (!rx)
			return;
		if (body_check(rx)) {
			cm_drop(cm, UBCORE_CM_DROP_MALFORMED, rx->type);
		} else if (!ubcore_eid_is_mine(cm->dev, rx->body.dst_eid)) {
			cm_drop(cm, UBCORE_CM_DROP_NOT_MINE, rx->type);
		} else {
			mutex_lock(&cm->lock);
			if (cm->stopped)
				cm_drop(cm, UBCORE_CM_DROP_STOPPED, rx->type);
			else
				cm_process(cm, rx);
			mutex_unlock(&cm->lock);
		}
		kfree(rx);
	}
}

/**
 * ubcore_recv_mgmt() - a connection manager message arrived for a device
 * @dev: the receiving device (its provider found it by the destination EID)
 * @type: the MGMTETAH type (enum uboe_mgmt_type)
 * @msg_id: the MGMTETAH message ID
 * @body: the message body, a struct uboe_mgmt_body; untrusted
 * @len: its length
 *
 * Copies the message and hands it to the device's connection manager
 * work, which validates every field (include/uapi/ub/uboe_wire.h) and
 * drops, counting by reason, what fails.
 *
 * Context: any context, softirq included; does not sleep.
 * Return: 0 when queued; -EINVAL (wrong length or type), -ENODEV (the
 * device has no running connection manager), -ENOBUFS (queue full) or
 * -ENOMEM, the message dropped and counted.
 */
int ubcore_recv_mgmt(struct ubcore_device *dev, u8 type, u32 msg_id,
		     const void *body, u16 len)
{
	struct ubcore_cm *cm = dev ? dev->cm : NULL;
	struct ubcore_cm_rx *rx;
	unsigned long flags;
	int ret = 0;

	if (!cm)
		return -ENODEV;
	if (len != sizeof(rx->body) || !body || !type || type > UBOE_MGMT_TYPE_MAX) {
		cm_drop(cm, UBCORE_CM_DROP_MALFORMED, type);
		return -EINVAL;
	}
	rx = kmalloc(sizeof(*rx), GFP_ATOMIC);
	if (!rx)
		return -ENOMEM;
	rx->type = type;
	rx->msg_id = msg_id;
	rx->len = len;
	memcpy(&rx->body, body, len);
	spin_lock_irqsave(&cm->rx_lock, flags);
	if (cm->stopped) {
		ret = -ENODEV;
	} else if (cm->rx_len >= UBCORE_CM_RX_MAX) {
		ret = -ENOBUFS;
	} else {
		list_add_tail(&rx->node, &cm->rx_list);
		cm->rx_len++;
		queue_work(cm->wq, &cm->rx_work);
	}
	spin_unlock_irqrestore(&cm->rx_lock, flags);
	if (ret) {
		cm_drop(cm, ret == -ENODEV ? UBCORE_CM_DROP_STOPPED :
			UBCORE_CM_DROP_QUEUE_FULL, type);
		kfree(rx);
	}
	return ret;
}
EXPORT_SYMBOL_GPL(ubcore_recv_mgmt);

static void cm_link_work(struct work_struct *work)
{
	struct ubcore_cm *cm = container_of(work, struct ubcore_cm, link_work);
	struct ubcore_tp *tp;
	unsigned long tpn;

	mutex_lock(&cm->lock);
	xa_for_each(&cm->tps, tpn, tp) {
		if (!cm->stopped)
			tp_lose_peer(tp);
	}
	mutex_unlock(&cm->lock);
}

/**
 * ubcore_cm_link_down() - a device's port went down: its TPs lose their
 *	peers
 * @dev: the device
 *
 * No packet leaves or arrives any more (the netdev is down, or lost its
 * carrier: a veth whose peer end went down). Every TP of the device takes
 * its "peer lost" transition (X12-X17) from the connection manager's work:
 * opens waiting fail with -EHOSTUNREACH, established TPs leave the table,
 * an RC TP's bound jetty goes to ERROR with UBCORE_EVENT_JETTY_ERR.
 *
 * Context: any; does not sleep.
 */
void ubcore_cm_link_down(struct ubcore_device *dev)
{
	if (dev->cm)
		queue_work(dev->cm->wq, &dev->cm->link_work);
}
EXPORT_SYMBOL_IF_KUNIT(ubcore_cm_link_down);

/**
 * ubcore_cm_drain() - wait until the connection manager handled every
 *	message received so far
 * @dev: the device
 *
 * Context: process context, holding no lock the manager's work takes
 * (cm->lock, an object's); sleeps.
 */
void ubcore_cm_drain(struct ubcore_device *dev)
{
	if (dev->cm)
		flush_work(&dev->cm->rx_work);
}

#define CM_TOKEN_POLICY(flag)	((flag) & 0x7)	/* urma_jfr_flag_t token_policy */
#define CM_TOKEN_NONE		0

/**
 * ubcore_tp_check_target() - may a peer connect to a jetty or JFR here
 * @dev: this device
 * @type: UBOE_MGMT_TARGET_JFR or _JETTY; or _NONE: the TP alone, which an
 *	RM TP may be (every import that joins it is checked on its own)
 * @id: its ID
 * @mode: the TP's mode (UBOE_MGMT_TM_*)
 * @token_value: the token the peer presents
 *
 * Context: any context.
 * Return: 0, -ENOENT (no such object), -EPROTOTYPE (another transport
 * mode) or -EPERM (the token does not match and the policy needs one).
 */
int ubcore_tp_check_target(struct ubcore_device *dev, u8 type, u32 id,
			   u8 mode, u32 token_value)
{
	const struct ubcore_jfr_cfg *jcfg = NULL;
	struct ubcore_jetty *jetty = NULL;
	struct ubcore_jfr *jfr = NULL;
	u32 obj_mode;
	int ret = 0;

	if (type == UBOE_MGMT_TARGET_NONE)
		return mode == UBOE_MGMT_TM_RM ? 0 : -EPROTOTYPE;
	if (type == UBOE_MGMT_TARGET_JFR) {
		jfr = ubcore_find_get_jfr(dev, id);
		if (!jfr)
			return -ENOENT;
		jcfg = &jfr->cfg;
		obj_mode = jcfg->trans_mode;
	} else {
		jetty = ubcore_find_get_jetty(dev, id);
		if (!jetty)
			return -ENOENT;
		obj_mode = jetty->cfg.jfs_cfg.trans_mode;
		if (jetty->cfg.jfr)
			jcfg = &jetty->cfg.jfr->cfg;
	}
	if (obj_mode != mode)
		ret = -EPROTOTYPE;
	else if (jcfg && CM_TOKEN_POLICY(jcfg->flag) != CM_TOKEN_NONE &&
		 jcfg->token_value != token_value)
		ret = -EPERM;
	if (jfr)
		ubcore_obj_ref_put(&jfr->obj_ref);
	if (jetty)
		ubcore_obj_ref_put(&jetty->obj_ref);
	return ret;
}
EXPORT_SYMBOL_IF_KUNIT(ubcore_tp_check_target);

/**
 * ubcore_tp_list() - the TPs of a device, by TPN
 * @dev: the device
 * @start: the first TPN to list
 * @info: filled with up to @n TPs
 * @n: room in @info
 *
 * Context: process context; takes cm->lock.
 * Return: the number of TPs filled in.
 */
int ubcore_tp_list(struct ubcore_device *dev, u32 start,
		   struct ubcore_tp_info *info, u32 n)
{
	struct ubcore_cm *cm = dev->cm;
	unsigned long tpn = start;
	u64 now = ktime_get_boottime_ns();
	struct ubcore_tp *tp;
	u32 cnt = 0;

	if (!cm)
		return 0;
	mutex_lock(&cm->lock);
	xa_for_each_start(&cm->tps, tpn, tp, start) {
		if (cnt == n)
			break;
		info[cnt] = (struct ubcore_tp_info){
			.tpn = tp->fsm.local_tpn,
			.peer_tpn = tp->fsm.peer_tpn,
			.peer = tp->key.remote,
			.state = tp->fsm.state,
			.mode = tp->key.mode,
			.users = tp->users,
			.age_ms = div_u64(now - tp->created_ns, NSEC_PER_MSEC),
		};
		cnt++;
	}
	mutex_unlock(&cm->lock);
	return cnt;
}
EXPORT_SYMBOL_IF_KUNIT(ubcore_tp_list);

/*
 * sysfs cm/: "tp", one line per TP of the table (TPN, peer EID, peer TPN,
 * mode, state, users, age in ms), and "stats", the counters as
 * "name value" lines.
 */
static ssize_t tp_show(struct device *device, struct device_attribute *attr,
		       char *buf)
{
	struct ubcore_device *dev = to_ubcore_device(device);
	struct ubcore_tp_info info[16];
	ssize_t len = 0;
	u32 start = 1;
	int n, i;

	do {
		n = ubcore_tp_list(dev, start, info, ARRAY_SIZE(info));
		for (i = 0; i < n && len < PAGE_SIZE - 160; i++)
			len += sysfs_emit_at(buf, len, "%u %pI6c %u %s %s %u %llu\n",
					     info[i].tpn, info[i].peer.raw,
					     info[i].peer_tpn,
					     info[i].mode == UBOE_MGMT_TM_RC ? "RC" : "RM",
					     ubcore_tp_state_name(info[i].state),
					     info[i].users, info[i].age_ms);
		if (n)
			start = info[n - 1].tpn + 1;
	} while (n == ARRAY_SIZE(info) && len < PAGE_SIZE - 160);
	return len;
}
static DEVICE_ATTR_RO(tp);

static ssize_t stats_show(struct device *device, struct device_attribute *attr,
			  char *buf)
{
	struct ubcore_cm *cm = to_ubcore_device(device)->cm;
	ssize_t len;
	int i;

	if (!cm)
		return 0;
	len = sysfs_emit(buf, "refused_events %lld\ntransitions %lld\nretries %lld\n",
			 atomic64_read(&cm->stats.refused),
			 atomic64_read(&cm->stats.transitions),
			 atomic64_read(&cm->stats.retries));
	len += sysfs_emit_at(buf, len, "timeouts %lld\nsend_errors %lld\n",
			     atomic64_read(&cm->stats.timeouts),
			     atomic64_read(&cm->stats.send_errors));
	for (i = 0; i < UBCORE_CM_DROP_MAX; i++)
		len += sysfs_emit_at(buf, len, "rx_dropped_%s %lld\n", drop_names[i],
				     atomic64_read(&cm->rx_dropped[i]));
	for (i = 0; i < UBCORE_CM_KA_MAX; i++)
		len += sysfs_emit_at(buf, len, "%s %lld\n", ka_names[i],
				     atomic64_read(&cm->ka[i]));
	return len;
}
static DEVICE_ATTR_RO(stats);

static struct attribute *ubcore_cm_attrs[] = {
	&dev_attr_tp.attr,
	&dev_attr_stats.attr,
	NULL,
};

const struct attribute_group ubcore_cm_group = {
	.name = "cm",
	.attrs = ubcore_cm_attrs,
};

/**
 * ubcore_cm_set_timing() - the timeouts of the TPs a device opens next
 * @dev: the device
 * @rto_ms: first retransmission timeout, doubled at each retry
 * @retries: retransmissions before the open times out
 */
void ubcore_cm_set_timing(struct ubcore_device *dev, u32 rto_ms, u32 retries)
{
	mutex_lock(&dev->cm->lock);
	dev->cm->rto_ns = (u64)max(rto_ms, 1U) * NSEC_PER_MSEC;
	dev->cm->retries = retries;
	mutex_unlock(&dev->cm->lock);
}
EXPORT_SYMBOL_IF_KUNIT(ubcore_cm_set_timing);

/**
 * ubcore_cm_set_keepalive() - a device's keepalive interval
 * @dev: the device
 * @keepalive_ms: idle time before a probe and between probes (as the
 *	module parameter cm_keepalive_ms); 0 stops the keepalive
 *
 * Applies at once to the device's established TPs, whose peers count as
 * heard now.
 *
 * Context: process context; takes cm->lock.
 */
void ubcore_cm_set_keepalive(struct ubcore_device *dev, u32 keepalive_ms)
{
	struct ubcore_cm *cm = dev->cm;
	struct ubcore_tp *tp;
	unsigned long tpn;

	mutex_lock(&cm->lock);
	cm->ka_jiffies = keepalive_ms ? max(msecs_to_jiffies(keepalive_ms), 1UL) : 0;
	xa_for_each(&cm->tps, tpn, tp)
		if (tp->ready)
			tp_ka_start(tp);
	mutex_unlock(&cm->lock);
}
EXPORT_SYMBOL_IF_KUNIT(ubcore_cm_set_keepalive);

/**
 * ubcore_cm_ka_count() - a keepalive counter of a device
 * @dev: the device
 * @which: the counter
 *
 * Return: its value (0 for an unknown one).
 */
u64 ubcore_cm_ka_count(struct ubcore_device *dev, enum ubcore_cm_ka which)
{
	return which < UBCORE_CM_KA_MAX ? atomic64_read(&dev->cm->ka[which]) : 0;
}
EXPORT_SYMBOL_IF_KUNIT(ubcore_cm_ka_count);

/**
 * ubcore_cm_dropped() - received management messages a device dropped
 * @dev: the device
 * @why: the reason
 *
 * Return: the count.
 */
u64 ubcore_cm_dropped(struct ubcore_device *dev, enum ubcore_cm_drop why)
{
	return why < UBCORE_CM_DROP_MAX ? atomic64_read(&dev->cm->rx_dropped[why]) : 0;
}
EXPORT_SYMBOL_IF_KUNIT(ubcore_cm_dropped);

/**
 * ubcore_cm_fsm_stats() - the state machine counters of a device's TPs
 * @dev: the device
 *
 * Return: the counters (alive as long as the device).
 */
const struct ubcore_tp_fsm_stats *ubcore_cm_fsm_stats(struct ubcore_device *dev)
{
	return &dev->cm->stats;
}
EXPORT_SYMBOL_IF_KUNIT(ubcore_cm_fsm_stats);

/* ---- the table's life ---------------------------------------------------- */

/* Makes dev->cm; before the device is registered. */
int ubcore_cm_create(struct ubcore_device *dev)
{
	struct ubcore_cm *cm;

	BUILD_BUG_ON(sizeof(struct uboe_mgmt_body) != UBOE_MGMT_BODY_SIZE);
	cm = kzalloc(sizeof(*cm), GFP_KERNEL);
	if (!cm)
		return -ENOMEM;
	cm->wq = alloc_ordered_workqueue("ubcore_cm", WQ_MEM_RECLAIM);
	if (!cm->wq) {
		kfree(cm);
		return -ENOMEM;
	}
	cm->dev = dev;
	cm->rto_ns = (u64)max(READ_ONCE(cm_rto_ms), 1U) * NSEC_PER_MSEC;
	cm->retries = READ_ONCE(cm_retries);
	cm->ka_jiffies = READ_ONCE(cm_keepalive_ms) ?
			 max(msecs_to_jiffies(READ_ONCE(cm_keepalive_ms)), 1UL) : 0;
	mutex_init(&cm->lock);
	xa_init_flags(&cm->tps, XA_FLAGS_ALLOC1);
	hash_init(cm->pairs);
	init_waitqueue_head(&cm->waitq);
	spin_lock_init(&cm->rx_lock);
	INIT_LIST_HEAD(&cm->rx_list);
	INIT_WORK(&cm->rx_work, cm_rx_work);
	INIT_WORK(&cm->link_work, cm_link_work);
	dev->cm = cm;
	return 0;
}

/*
 * The device is being unregistered (its users are gone): tell the peer of
 * every TP it may hold as established (the answering ends of the peers'
 * TPs, including those whose CONN_ACK is still on its way) with a
 * DCONN_NOTIFY, so that it drops its end at once (X11) rather than at its
 * keepalive's timeout; stop receiving, take every TP out of the table,
 * fail opens still waiting, and wait for the work. Sleeps.
 */
void ubcore_cm_stop(struct ubcore_device *dev)
{
	struct ubcore_cm *cm = dev->cm;
	struct ubcore_cm_rx *rx, *next;
	struct uboe_mgmt_body body;
	struct ubcore_tp *tp;
	unsigned long tpn, flags;
	LIST_HEAD(drop);

	if (!cm)
		return;
	mutex_lock(&cm->lock);
	xa_for_each(&cm->tps, tpn, tp) {
		if (!tp_peer_may_hold(tp))
			continue;
		tp_body(tp, &body);
		tp_send_body(tp, UBOE_MGMT_DCONN_NOTIFY, ++cm->msg_id, &body);
	}
	mutex_unlock(&cm->lock);
	spin_lock_irqsave(&cm->rx_lock, flags);
	cm->stopped = true;
	list_splice_init(&cm->rx_list, &drop);
	cm->rx_len = 0;
	spin_unlock_irqrestore(&cm->rx_lock, flags);
	list_for_each_entry_safe(rx, next, &drop, node)
		kfree(rx);

	mutex_lock(&cm->lock);
	xa_for_each(&cm->tps, tpn, tp) {
		cm_done(&tp->fsm, -ENODEV);
		tp_unlink(tp);
	}
	mutex_unlock(&cm->lock);
	/* the works left see cm->stopped and only drop their references */
	flush_workqueue(cm->wq);
}

/* Frees dev->cm when the device is released. */
void ubcore_cm_free(struct ubcore_device *dev)
{
	struct ubcore_cm *cm = dev->cm;

	if (!cm)
		return;
	WARN_ON(!xa_empty(&cm->tps));
	destroy_workqueue(cm->wq);
	xa_destroy(&cm->tps);
	mutex_destroy(&cm->lock);
	kfree(cm);
	dev->cm = NULL;
}

/**
 * ubcore_tp_find_pair() - the TP a request to a peer travels on
 * @dev: the local device
 * @local: this end's EID
 * @remote: the peer's EID
 * @mode: UBOE_MGMT_TM_RM (one TP per EID pair) or UBOE_MGMT_TM_RC
 * @local_jetty: RC: this end's jetty of the bound pair; RM: 0
 * @remote_jetty: RC: the peer's jetty; RM: 0
 * @tpn: out: this end's TPN
 * @peer_tpn: out: the peer's TPN
 *
 * For a request that names no import (a WRITE to an imported segment) or
 * whose import the caller cannot hold (ubcore_tp_resolve() needs it): the
 * established TP of the key, whichever end opened it (a TP to this
 * device's own EID has two ends here; either carries data). A lookup in
 * the table's hash of keys under RCU (TPs are added and removed there
 * under cm->lock and freed after a grace period).
 *
 * Context: any context, softirq included; does not sleep.
 * Return: 0, -ENODEV without a connection manager, -ENOTCONN when no TP
 * of the key is established.
 */
int ubcore_tp_find_pair(struct ubcore_device *dev,
			const union ubcore_eid *local,
			const union ubcore_eid *remote, u8 mode,
			u32 local_jetty, u32 remote_jetty, u32 *tpn,
			u32 *peer_tpn)
{
	struct ubcore_cm *cm = dev ? dev->cm : NULL;
	struct ubcore_tp_key key = {
		.local = *local,
		.remote = *remote,
		.local_jetty = local_jetty,
		.remote_jetty = remote_jetty,
		.mode = mode,
	};
	const struct ubcore_tp *tp;
	int ret = -ENOTCONN;

	if (!cm)
		return -ENODEV;
	rcu_read_lock();
	for (; key.loop_side <= 1 && ret; key.loop_side++) {
		hash_for_each_possible_rcu(cm->pairs, tp, node, key_hash(&key)) {
			/* the key and the TPN are fixed from creation */
			if (!READ_ONCE(tp->ready) || !key_equal(&tp->key, &key))
				continue;
			*tpn = tp->fsm.local_tpn;
			*peer_tpn = READ_ONCE(tp->ready_peer_tpn);
			ret = 0;
			break;
		}
	}
	rcu_read_unlock();
	return ret;
}
EXPORT_SYMBOL_GPL(ubcore_tp_find_pair);
