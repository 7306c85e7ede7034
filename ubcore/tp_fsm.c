// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * The TP connection state machine of the URMA user guide 5.1.1.4 (建链状态机
 * 管理, figure 14), written as one table: state x event -> actions, next
 * state. Each row carries the guide's transition number and quotes the
 * guide's words for it, so the table can be checked line by line against
 * the figure. Rows the figure does not draw, but that the protocols of
 * 5.1.1.1/5.1.1.2 (reject, retransmission) or peer loss need, are named
 * "X.." and say where they come from.
 *
 * Two places where the guide's text is ambiguous, and what we do:
 *  - "1407" names both timeout -> reset on the target side and NOTIFY
 *    received -> reset; "1403" is timeout -> reset on the initiator side.
 *    timeout -> reset is one (state, event) pair, so it is one row named
 *    "1403/1407" (the trail's previous row, 1402 or 1406, tells the side);
 *    NOTIFY received -> reset is the row "1407n".
 *  - "1424" names both Target established -> NOTIFY received (DCONN_NOTIFY
 *    received) and Initiator established -> NOTIFY sent (local teardown):
 *    rows "1424r" and "1424s".
 *
 * Peer compare (1408-1410): the guide decides by "whether a connection
 * request was already received", which both ends see alike when both open
 * at once. We decide by a total order instead, so that exactly one end stays
 * initiator: the end with the smaller (EID, TPN), compared bytewise, stays
 * initiator (1409) and ignores the other's CONN_REQ; the other becomes the
 * target of that request (1410). Its own local open is kept (DEFER_OPEN)
 * and, once Target established, becomes a CONN_REUSE_REQ (1414): both ends'
 * users then share the one TP in the "reused" state, as 5.1.1.2 describes.
 */
#include <linux/errno.h>
#include <linux/export.h>
#include <linux/kernel.h>
#include <linux/string.h>

#include <kunit/visibility.h>

#include "tp_fsm.h"

#define S(x)	UBCORE_TPS_##x
#define E(x)	UBCORE_TPE_##x
#define A(x)	UBCORE_TPA_##x
#define ROW(n, f, e, t, a, r) \
	{ .name = (n), .from = S(f), .event = E(e), .to = S(t), .actions = (a), \
	  .result = (r) }

const struct ubcore_tp_fsm_row ubcore_tp_fsm_table[] = {
	/* 1401 发起端用户触发建链，本地创建传输层资源，
	 * 发起端处于reset状态，发送连接请求至目的端，
	 * 发起端切换为REQ sent状态
	 */
	ROW("1401", RESET, LOCAL_OPEN, REQ_SENT,
	    A(TP_CREATE) | A(SEND_REQ) | A(ARM_TIMER), 0),
	/* 1402 发起端未收到连接回复而触发超时，切换到timeout的暂态 */
	ROW("1402", REQ_SENT, TIMEOUT, TIMEOUT, A(STOP_TIMER), 0),
	/* 1403 然后自动切换到reset，建链流程失败 (initiator);
	 * 1407 并自动切换到reset状态，目的端建链流程失败 (target)
	 */
	ROW("1403/1407", TIMEOUT, AUTO, RESET, A(TP_DESTROY) | A(DONE),
	    -ETIMEDOUT),
	/* 1404 目的端处于reset状态，目的端接收连接请求完成后，切换为REQ
	 * received状态
	 */
	ROW("1404", RESET, RX_CONN_REQ, REQ_RECEIVED, A(LEARN_PEER), 0),
	/* 1405 目的端创建传输层资源，向发起端发送连接回复，
	 * 发送完成后切换为REP sent状态
	 * (after the request was checked: 5.1.1.2 拒绝连接协议)
	 */
	ROW("1405", REQ_RECEIVED, CHECK_OK, REP_SENT,
	    A(TP_CREATE) | A(SEND_REP) | A(ARM_TIMER), 0),
	/* 1406 若未收到连接确认而触发超时，则切换到timeout瞬态 */
	ROW("1406", REP_SENT, TIMEOUT, TIMEOUT, A(STOP_TIMER), 0),
	/* 1408 发起端处于REQ sent状态时，若收到连接请求消息，则切换到peer
	 * compare状态，比较两端信息判断本节点处于发起端还是目的端
	 */
	ROW("1408", REQ_SENT, RX_CONN_REQ, PEER_COMPARE, 0, 0),
	/* 1409 判断属于发起端，仍然自动切换回REQ sent状态 (the peer's
	 * CONN_REQ is ignored; ours keeps its timer)
	 */
	ROW("1409", PEER_COMPARE, CMP_INITIATOR, REQ_SENT, 0, 0),
	/* 1410 判断处于目的端，自动切换到REQ received状态 */
	ROW("1410", PEER_COMPARE, CMP_TARGET, REQ_RECEIVED,
	    A(STOP_TIMER) | A(LEARN_PEER) | A(DEFER_OPEN), 0),
	/* 1411 发起端处于REQ sent状态时，若收到连接响应消息，则切换到REP
	 * received状态
	 */
	ROW("1411", REQ_SENT, RX_CONN_REP, REP_RECEIVED,
	    A(STOP_TIMER) | A(LEARN_PEER), 0),
	/* 1412 完成本端传输层状态切换后，自动发送连接确认，自动切换到
	 * Initiator established状态
	 */
	ROW("1412", REP_RECEIVED, AUTO, INITIATOR_ESTABLISHED,
	    A(SEND_ACK) | A(DONE), 0),
	/* 1413 目的端处于REP sent状态时，若收到连接确认，则切换到Target
	 * established状态
	 */
	ROW("1413", REP_SENT, RX_CONN_ACK, TARGET_ESTABLISHED, A(STOP_TIMER), 0),
	/* 1414 目的端节点用户触发建链操作时，
	 * 此节点发送共享对等传输层连接请求，然后切换到REUSE sent状态
	 */
	ROW("1414", TARGET_ESTABLISHED, LOCAL_OPEN, REUSE_SENT,
	    A(SEND_REUSE_REQ) | A(ARM_TIMER), 0),
	/* 1415 发起端节点收到共享对等传输层连接请求，
	 * 切换到REUSE received瞬态
	 */
	ROW("1415", INITIATOR_ESTABLISHED, RX_REUSE_REQ, REUSE_RECEIVED, 0, 0),
	/* 1416 检查通过则发送共享对等传输层连接响应到目的端，
	 * 并切换到reused状态
	 */
	ROW("1416", REUSE_RECEIVED, CHECK_OK, REUSED, A(SEND_REUSE_REP), 0),
	/* 1417 目的端节点处于REUSE sent状态，
	 * 若未收到共享连接回复消息而触发超时，
	 * 则切换回Target established状态 (the local open fails)
	 */
	ROW("1417", REUSE_SENT, TIMEOUT, TARGET_ESTABLISHED,
	    A(STOP_TIMER) | A(DONE), -ETIMEDOUT),
	/* 1418 若收到共享对等传输层连接回复，则切换到reused暂态 */
	ROW("1418", REUSE_SENT, RX_REUSE_REP, REUSED,
	    A(STOP_TIMER) | A(DONE), 0),
	/* 1419 检查不通过则发送连接共享对等传输层连接拒绝消息，并切换回
	 * Initiator established状态
	 */
	ROW("1419", REUSE_RECEIVED, CHECK_FAIL, INITIATOR_ESTABLISHED,
	    A(SEND_REJ), 0),
	/* 1420 处于reused状态的任一节点，若用户先触发拆链，
	 * 此节点发送拆链通知，则此节点切换到NOTIFY sent on reuse暂态
	 */
	ROW("1420", REUSED, LOCAL_CLOSE, NOTIFY_SENT_ON_REUSE, A(SEND_DCONN), 0),
	/* 1421 处于reused状态的任一节点，若先收到拆链通知，则此节点切换到
	 * NOTIFY received on reuse暂态
	 */
	ROW("1421", REUSED, RX_DCONN_NOTIFY, NOTIFY_RECEIVED_ON_REUSE, 0, 0),
	/* 1422 此节点自动切换到Initiator established状态 */
	ROW("1422", NOTIFY_RECEIVED_ON_REUSE, AUTO, INITIATOR_ESTABLISHED, 0, 0),
	/* 1423 此节点自动切换到Target established状态 */
	ROW("1423", NOTIFY_SENT_ON_REUSE, AUTO, TARGET_ESTABLISHED, 0, 0),
	/* 1424 (Target established) 此节点若收到拆链通知，则切换到NOTIFY
	 * received瞬态
	 */
	ROW("1424r", TARGET_ESTABLISHED, RX_DCONN_NOTIFY, NOTIFY_RECEIVED, 0, 0),
	/* 1407 销毁传输层资源后，自动切换到reset状态 */
	ROW("1407n", NOTIFY_RECEIVED, AUTO, RESET, A(TP_DESTROY), 0),
	/* 1424 (Initiator established) 若此节点上用户触发拆链并发送拆链通知，
	 * 则此节点切换到NOTIFY sent瞬态
	 */
	ROW("1424s", INITIATOR_ESTABLISHED, LOCAL_CLOSE, NOTIFY_SENT,
	    A(SEND_DCONN), 0),
	/* 1425 并启动切换到reset状态，至此拆链流程结束 */
	ROW("1425", NOTIFY_SENT, AUTO, RESET, A(TP_DESTROY), 0),

	/*
	 * Not drawn in figure 14. Reject protocol (5.1.1.2 拒绝连接协议):
	 * X1 目的端节点检查不通过，此节点连接管理模块回复连接拒绝消息
	 * (the loser of a peer compare created its TP at 1401: destroyed)
	 */
	ROW("X1", REQ_RECEIVED, CHECK_FAIL, RESET,
	    A(SEND_REJ) | A(TP_DESTROY) | A(DONE), -ECONNREFUSED),
	/* X2 发起端节点连接管理模块收到连接拒绝消息，
	 * 执行错误回滚流程，包括本端传输层资源选择性销毁，
	 * 并返回建链失败执行结果
	 */
	ROW("X2", REQ_SENT, RX_CONN_REJ, RESET,
	    A(STOP_TIMER) | A(TP_DESTROY) | A(DONE), -ECONNREFUSED),
	/* X3 the reuse request was refused (the peer's 1419): 在传输层复用场景
	 * 不销毁, back to Target established like 1417
	 */
	ROW("X3", REUSE_SENT, RX_CONN_REJ, TARGET_ESTABLISHED,
	    A(STOP_TIMER) | A(DONE), -ECONNREFUSED),

	/*
	 * Retransmission (issue 10: "timeouts with retries"): a timer expiry
	 * with retries left sends the waiting message again before the
	 * guide's timeout transition (1402, 1406, 1417) is taken.
	 */
	ROW("X4", REQ_SENT, TIMER_RETRY, REQ_SENT, A(SEND_REQ) | A(RETRY), 0),
	ROW("X5", REP_SENT, TIMER_RETRY, REP_SENT, A(SEND_REP) | A(RETRY), 0),
	ROW("X6", REUSE_SENT, TIMER_RETRY, REUSE_SENT,
	    A(SEND_REUSE_REQ) | A(RETRY), 0),
	/* Duplicates: the answer to a retransmitted message was lost. */
	ROW("X7", REP_SENT, RX_CONN_REQ, REP_SENT, A(SEND_REP), 0),
	ROW("X8", INITIATOR_ESTABLISHED, RX_CONN_REP, INITIATOR_ESTABLISHED,
	    A(SEND_ACK), 0),
	ROW("X9", REUSED, RX_REUSE_REQ, REUSED, A(SEND_REUSE_REP), 0),
	/* X10 a local open while this end answers the peer's request: it is
	 * made a reuse request (1414) once Target established
	 */
	ROW("X10", REP_SENT, LOCAL_OPEN, REP_SENT, A(DEFER_OPEN), 0),

	/*
	 * Peer loss (issue 10): the peer's device, module, link or host is gone.
	 * X11 the target tore down the TP without a reuse (its device was
	 * removed): like peer loss for the initiator's users.
	 */
	ROW("X11", INITIATOR_ESTABLISHED, RX_DCONN_NOTIFY, RESET,
	    A(TP_DESTROY) | A(LOST), -ECONNRESET),
	ROW("X12", REQ_SENT, PEER_LOST, RESET,
	    A(STOP_TIMER) | A(TP_DESTROY) | A(DONE), -EHOSTUNREACH),
	ROW("X13", REP_SENT, PEER_LOST, RESET,
	    A(STOP_TIMER) | A(TP_DESTROY) | A(DONE), -EHOSTUNREACH),
	ROW("X14", REUSE_SENT, PEER_LOST, RESET,
	    A(STOP_TIMER) | A(TP_DESTROY) | A(DONE) | A(LOST), -EHOSTUNREACH),
	ROW("X15", INITIATOR_ESTABLISHED, PEER_LOST, RESET,
	    A(TP_DESTROY) | A(LOST), -EHOSTUNREACH),
	ROW("X16", TARGET_ESTABLISHED, PEER_LOST, RESET,
	    A(TP_DESTROY) | A(LOST), -EHOSTUNREACH),
	ROW("X17", REUSED, PEER_LOST, RESET,
	    A(TP_DESTROY) | A(LOST), -EHOSTUNREACH),
};
EXPORT_SYMBOL_IF_KUNIT(ubcore_tp_fsm_table);

const unsigned int ubcore_tp_fsm_table_size = ARRAY_SIZE(ubcore_tp_fsm_table);
EXPORT_SYMBOL_IF_KUNIT(ubcore_tp_fsm_table_size);

#undef ROW
#undef A
#undef E
#undef S

static const char *const state_names[UBCORE_TPS_COUNT] = {
	[UBCORE_TPS_RESET] = "reset",
	[UBCORE_TPS_REQ_SENT] = "REQ sent",
	[UBCORE_TPS_TIMEOUT] = "timeout",
	[UBCORE_TPS_PEER_COMPARE] = "peer compare",
	[UBCORE_TPS_REP_RECEIVED] = "REP received",
	[UBCORE_TPS_INITIATOR_ESTABLISHED] = "Initiator established",
	[UBCORE_TPS_NOTIFY_SENT] = "NOTIFY sent",
	[UBCORE_TPS_REUSE_RECEIVED] = "Reuse received",
	[UBCORE_TPS_NOTIFY_RECEIVED_ON_REUSE] = "NOTIFY received on reuse",
	[UBCORE_TPS_NOTIFY_SENT_ON_REUSE] = "NOTIFY sent on reuse",
	[UBCORE_TPS_REUSED] = "reused",
	[UBCORE_TPS_REQ_RECEIVED] = "REQ received",
	[UBCORE_TPS_REP_SENT] = "REP sent",
	[UBCORE_TPS_TARGET_ESTABLISHED] = "Target established",
	[UBCORE_TPS_NOTIFY_RECEIVED] = "NOTIFY received",
	[UBCORE_TPS_REUSE_SENT] = "Reuse sent",
};

static const char *const event_names[UBCORE_TPE_COUNT] = {
	[UBCORE_TPE_LOCAL_OPEN] = "local open",
	[UBCORE_TPE_LOCAL_CLOSE] = "local close",
	[UBCORE_TPE_RX_CONN_REQ] = "CONN_REQ",
	[UBCORE_TPE_RX_CONN_REP] = "CONN_REP",
	[UBCORE_TPE_RX_CONN_ACK] = "CONN_ACK",
	[UBCORE_TPE_RX_CONN_REJ] = "CONN_REJ",
	[UBCORE_TPE_RX_REUSE_REQ] = "CONN_REUSE_REQ",
	[UBCORE_TPE_RX_REUSE_REP] = "CONN_REUSE_REP",
	[UBCORE_TPE_RX_DCONN_NOTIFY] = "DCONN_NOTIFY",
	[UBCORE_TPE_PEER_LOST] = "peer lost",
	[UBCORE_TPE_TIMER_RETRY] = "timer (retry)",
	[UBCORE_TPE_TIMEOUT] = "timeout",
	[UBCORE_TPE_AUTO] = "auto",
	[UBCORE_TPE_CMP_INITIATOR] = "compare: initiator",
	[UBCORE_TPE_CMP_TARGET] = "compare: target",
	[UBCORE_TPE_CHECK_OK] = "check ok",
	[UBCORE_TPE_CHECK_FAIL] = "check failed",
};

/**
 * ubcore_tp_state_name() - the guide's name of a TP state
 * @s: the state
 *
 * Return: a static string, "?" for a value out of range.
 */
const char *ubcore_tp_state_name(enum ubcore_tp_state s)
{
	return (unsigned int)s < UBCORE_TPS_COUNT ? state_names[s] : "?";
}
EXPORT_SYMBOL_IF_KUNIT(ubcore_tp_state_name);

/**
 * ubcore_tp_event_name() - the name of a TP state machine event
 * @ev: the event
 *
 * Return: a static string, "?" for a value out of range.
 */
const char *ubcore_tp_event_name(enum ubcore_tp_event ev)
{
	return (unsigned int)ev < UBCORE_TPE_COUNT ? event_names[ev] : "?";
}
EXPORT_SYMBOL_IF_KUNIT(ubcore_tp_event_name);

/**
 * ubcore_tp_state_is_transient() - whether a state is left automatically
 * @s: the state
 *
 * Return: true for the states the guide calls 暂态/瞬态 or leaves by an
 * automatic step; the machine never rests in them between calls.
 */
bool ubcore_tp_state_is_transient(enum ubcore_tp_state s)
{
	switch (s) {
	case UBCORE_TPS_TIMEOUT:
	case UBCORE_TPS_PEER_COMPARE:
	case UBCORE_TPS_REP_RECEIVED:
	case UBCORE_TPS_NOTIFY_SENT:
	case UBCORE_TPS_REUSE_RECEIVED:
	case UBCORE_TPS_NOTIFY_RECEIVED_ON_REUSE:
	case UBCORE_TPS_NOTIFY_SENT_ON_REUSE:
	case UBCORE_TPS_REQ_RECEIVED:
	case UBCORE_TPS_NOTIFY_RECEIVED:
		return true;
	default:
		return false;
	}
}
EXPORT_SYMBOL_IF_KUNIT(ubcore_tp_state_is_transient);

/**
 * ubcore_tp_fsm_lookup() - the row for a state and an event
 * @s: current state
 * @ev: event
 *
 * Return: the row, or NULL when the table has none (the event is refused).
 */
const struct ubcore_tp_fsm_row *ubcore_tp_fsm_lookup(enum ubcore_tp_state s,
						     enum ubcore_tp_event ev)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(ubcore_tp_fsm_table); i++)
		if (ubcore_tp_fsm_table[i].from == s &&
		    ubcore_tp_fsm_table[i].event == ev)
			return &ubcore_tp_fsm_table[i];
	return NULL;
}
EXPORT_SYMBOL_IF_KUNIT(ubcore_tp_fsm_lookup);

/* Counters of the machines started without a device's (tests of the table). */
static struct ubcore_tp_fsm_stats fsm_unowned_stats;

/**
 * ubcore_tp_fsm_init() - start a TP's state machine in reset
 * @fsm: the machine
 * @ops: the owner's callbacks (all required)
 * @stats: device counters to add to, or NULL
 * @local_eid: this end's EID
 * @peer_eid: the other end's EID
 * @local_tpn: this end's TPN
 * @rto_ns: first retransmission timeout in ns (doubled at each retry)
 * @max_retries: retransmissions before giving up
 */
void ubcore_tp_fsm_init(struct ubcore_tp_fsm *fsm,
			const struct ubcore_tp_fsm_ops *ops,
			struct ubcore_tp_fsm_stats *stats,
			const union ubcore_eid *local_eid,
			const union ubcore_eid *peer_eid, u32 local_tpn,
			u64 rto_ns, u32 max_retries)
{
	memset(fsm, 0, sizeof(*fsm));
	fsm->ops = ops;
	fsm->stats = stats ? stats : &fsm_unowned_stats;
	fsm->local_eid = *local_eid;
	fsm->peer_eid = *peer_eid;
	fsm->local_tpn = local_tpn;
	fsm->rto_ns = rto_ns;
	fsm->max_retries = max_retries;
	fsm->state = UBCORE_TPS_RESET;
}
EXPORT_SYMBOL_IF_KUNIT(ubcore_tp_fsm_init);

static void fsm_send(struct ubcore_tp_fsm *fsm, enum ubcore_tp_msg_type type)
{
	int status = type == UBCORE_TPM_CONN_REJ ? fsm->status : 0;

	if (fsm->ops->send(fsm, type, status))
		atomic64_inc(&fsm->stats->send_errors);
}

static void fsm_arm(struct ubcore_tp_fsm *fsm)
{
	u32 shift = min_t(u32, fsm->retries, 16);

	fsm->deadline = fsm->ops->now(fsm) + (fsm->rto_ns << shift);
	fsm->ops->set_timer(fsm, fsm->deadline);
}

/*
 * Take one row: make resources first (their failure leaves the state as
 * it was), then move and act in the order of the UBCORE_TPA_* bits.
 */
static int fsm_take(struct ubcore_tp_fsm *fsm,
		    const struct ubcore_tp_fsm_row *row,
		    const struct ubcore_tp_fsm_msg *msg)
{
	static const struct { u16 act; u8 type; } sends[] = {
		{ UBCORE_TPA_SEND_REQ, UBCORE_TPM_CONN_REQ },
		{ UBCORE_TPA_SEND_REP, UBCORE_TPM_CONN_REP },
		{ UBCORE_TPA_SEND_ACK, UBCORE_TPM_CONN_ACK },
		{ UBCORE_TPA_SEND_REJ, UBCORE_TPM_CONN_REJ },
		{ UBCORE_TPA_SEND_REUSE_REQ, UBCORE_TPM_REUSE_REQ },
		{ UBCORE_TPA_SEND_REUSE_REP, UBCORE_TPM_REUSE_REP },
		{ UBCORE_TPA_SEND_DCONN, UBCORE_TPM_DCONN_NOTIFY },
	};
	u16 act = row->actions;
	int result = fsm->status ? fsm->status : row->result;
	unsigned int i;
	int err;

	if ((act & UBCORE_TPA_TP_CREATE) && !fsm->have_tp) {
		err = fsm->ops->tp_create(fsm);
		if (err)
			return err;
		fsm->have_tp = true;
	}
	fsm->trail[fsm->trail_len % UBCORE_TP_FSM_TRAIL] = row - ubcore_tp_fsm_table;
	fsm->trail_len++;
	fsm->state = row->to;
	atomic64_inc(&fsm->stats->transitions);

	if ((act & UBCORE_TPA_STOP_TIMER) && fsm->deadline) {
		fsm->deadline = 0;
		fsm->ops->set_timer(fsm, 0);
	}
	if ((act & UBCORE_TPA_LEARN_PEER) && msg)
		fsm->peer_tpn = msg->peer_tpn;
	if (act & UBCORE_TPA_DEFER_OPEN)
		fsm->open_deferred = true;
	for (i = 0; i < ARRAY_SIZE(sends); i++)
		if (act & sends[i].act)
			fsm_send(fsm, sends[i].type);
	if (act & UBCORE_TPA_ARM_TIMER) {
		fsm->retries = 0;
		fsm_arm(fsm);
	}
	if (act & UBCORE_TPA_RETRY) {
		fsm->retries++;
		atomic64_inc(&fsm->stats->retries);
		fsm_arm(fsm);
	}
	if ((act & UBCORE_TPA_TP_DESTROY) && fsm->have_tp) {
		fsm->have_tp = false;
		fsm->ops->tp_destroy(fsm);
	}
	if (act & UBCORE_TPA_DONE) {
		if (result)
			fsm->open_deferred = false;
		fsm->ops->done(fsm, result);
	}
	if (act & UBCORE_TPA_LOST)
		fsm->ops->lost(fsm, result);
	return 0;
}

/* The event that leaves a transient state: the guide's automatic steps. */
static enum ubcore_tp_event fsm_decide(struct ubcore_tp_fsm *fsm,
				       const struct ubcore_tp_fsm_msg *msg)
{
	int cmp, err;

	switch (fsm->state) {
	case UBCORE_TPS_PEER_COMPARE:
		/* smaller (EID, TPN) stays initiator: see the top comment */
		cmp = memcmp(fsm->local_eid.raw, fsm->peer_eid.raw,
			     UBCORE_EID_SIZE);
		if (!cmp)
			cmp = fsm->local_tpn < msg->peer_tpn ? -1 : 1;
		return cmp < 0 ? UBCORE_TPE_CMP_INITIATOR : UBCORE_TPE_CMP_TARGET;
	case UBCORE_TPS_REQ_RECEIVED:
	case UBCORE_TPS_REUSE_RECEIVED:
		err = fsm->ops->check(fsm, fsm->state == UBCORE_TPS_REQ_RECEIVED ?
				      UBCORE_TPE_RX_CONN_REQ :
				      UBCORE_TPE_RX_REUSE_REQ, msg);
		if (!err)
			return UBCORE_TPE_CHECK_OK;
		fsm->status = err < 0 ? err : -ECONNREFUSED;
		return UBCORE_TPE_CHECK_FAIL;
	default:
		return UBCORE_TPE_AUTO;
	}
}

static int fsm_refuse(struct ubcore_tp_fsm *fsm)
{
	fsm->refused++;
	atomic64_inc(&fsm->stats->refused);
	return -EPROTO;
}

static int fsm_run(struct ubcore_tp_fsm *fsm, enum ubcore_tp_event ev,
		   const struct ubcore_tp_fsm_msg *msg)
{
	const struct ubcore_tp_fsm_row *row;
	int err;

	fsm->status = ev == UBCORE_TPE_RX_CONN_REJ && msg && msg->status < 0 ?
		      msg->status : 0;
	row = ubcore_tp_fsm_lookup(fsm->state, ev);
	if (!row)
		return fsm_refuse(fsm);
	err = fsm_take(fsm, row, msg);
	if (err)
		return err;
	while (ubcore_tp_state_is_transient(fsm->state)) {
		ev = fsm_decide(fsm, msg);
		row = ubcore_tp_fsm_lookup(fsm->state, ev);
		if (WARN_ON_ONCE(!row))	/* the table is incomplete */
			return fsm_refuse(fsm);
		err = fsm_take(fsm, row, msg);
		if (err && ev == UBCORE_TPE_CHECK_OK) {
			/* resources for 1405 failed: refuse the request */
			fsm->status = err;
			row = ubcore_tp_fsm_lookup(fsm->state,
						   UBCORE_TPE_CHECK_FAIL);
			if (WARN_ON_ONCE(!row))
				return fsm_refuse(fsm);
			err = fsm_take(fsm, row, msg);
		}
		if (WARN_ON_ONCE(err))
			return err;
	}
	return 0;
}

/**
 * ubcore_tp_fsm_event() - feed one external event to a TP's state machine
 * @fsm: the machine
 * @ev: an event of the first group (UBCORE_TPE_LOCAL_OPEN ... TIMEOUT)
 * @msg: the received message's fields for UBCORE_TPE_RX_*, else NULL
 *
 * Takes the event's row and then the rows of the automatic steps until the
 * machine rests in a non-transient state. A local open kept by DEFER_OPEN
 * is replayed when the machine rests in Target established (1414).
 * Context: the caller serialises calls for one machine; does not sleep
 * unless the owner's ops do.
 *
 * Return: 0; -EPROTO if the table has no row for (state, @ev) (the event
 * is refused, counted, and the state is unchanged); -EINVAL for an
 * internal event; the error of ops->tp_create (state unchanged).
 */
int ubcore_tp_fsm_event(struct ubcore_tp_fsm *fsm, enum ubcore_tp_event ev,
			const struct ubcore_tp_fsm_msg *msg)
{
	static const struct ubcore_tp_fsm_msg none;
	int err;

	if ((unsigned int)ev >= UBCORE_TPE_EXTERNAL_COUNT) {
		fsm_refuse(fsm);
		return -EINVAL;
	}
	err = fsm_run(fsm, ev, msg ? msg : &none);
	if (!err && fsm->open_deferred &&
	    fsm->state == UBCORE_TPS_TARGET_ESTABLISHED) {
		fsm->open_deferred = false;
		err = fsm_run(fsm, UBCORE_TPE_LOCAL_OPEN, &none);
	}
	return err;
}
EXPORT_SYMBOL_IF_KUNIT(ubcore_tp_fsm_event);

/**
 * ubcore_tp_fsm_timer() - the machine's timer fired
 * @fsm: the machine
 *
 * Reads the clock: before the deadline nothing happens (the timer is armed
 * again); at or after it, the event is UBCORE_TPE_TIMER_RETRY while retries
 * are left, else UBCORE_TPE_TIMEOUT (counted in stats->timeouts).
 * Context: as ubcore_tp_fsm_event().
 *
 * Return: 0 when an event was taken, -EAGAIN if the deadline is not
 * reached, -ENOENT if no timer runs (a stale expiry), else as
 * ubcore_tp_fsm_event().
 */
int ubcore_tp_fsm_timer(struct ubcore_tp_fsm *fsm)
{
	enum ubcore_tp_event ev;

	if (!fsm->deadline)
		return -ENOENT;
	if (fsm->ops->now(fsm) < fsm->deadline) {
		fsm->ops->set_timer(fsm, fsm->deadline);
		return -EAGAIN;
	}
	fsm->deadline = 0;
	if (fsm->retries < fsm->max_retries) {
		ev = UBCORE_TPE_TIMER_RETRY;
	} else {
		ev = UBCORE_TPE_TIMEOUT;
		atomic64_inc(&fsm->stats->timeouts);
	}
	return ubcore_tp_fsm_event(fsm, ev, NULL);
}
EXPORT_SYMBOL_IF_KUNIT(ubcore_tp_fsm_timer);
