// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * CDC messages of a connection: sent as an inline URMA SEND on the link
 * after the WRITEs they announce (the link's RC TP keeps them in order),
 * received in the link's completion tasklet. Cursors are byte counts
 * (include/uapi/ub/ums_msg.h); what a peer's CDC says is checked against
 * what it can be before the connection acts on it: its producer cursor
 * never goes back nor past our RMB's room, its consumer cursor never back
 * nor past what we wrote.
 */
#include "cursor.h"
#include "link.h"
#include "ums.h"

/*
 * user_ctx of a CDC's SEND: UMS_CDC_CTX, the connection token above bit
 * 40 and the low 40 bits of the producer cursor it carried (the send
 * buffer is free up to there once it completed: the link completes in
 * order, the WRITEs before it are done).
 */
#define UMS_CDC_CTX		BIT_ULL(63)
#define UMS_CDC_POS_BITS	40
#define UMS_CDC_POS_MASK	(BIT_ULL(UMS_CDC_POS_BITS) - 1)

/**
 * ums_cdc_send() - send the connection's cursors
 * @conn: the connection, under its socket's lock (which orders its CDCs)
 * @conn_flags: UMS_CDC_* flags to set from now on (0: none new)
 *
 * Context: process context.
 * Return: 0 or a negative errno (-ECONNRESET: the link is dead).
 */
int ums_cdc_send(struct ums_conn *conn, u8 conn_flags)
{
	u8 msg[UMS_MSG_LEN];
	struct ubcore_sge sge = { .addr = (uintptr_t)msg, .len = sizeof(msg) };
	struct ubcore_jfs_wr wr = {
		.opcode = UBCORE_OPC_SEND,
		.flag.bs.inline_flag = 1,
		.flag.bs.complete_enable = 1,
		.send.src = { .sge = &sge, .num_sge = 1 },
	};
	struct ums_cdc cdc = { .token = conn->peer_token };
	int rc;

	spin_lock_bh(&conn->lock);
	if (conn_flags & (UMS_CDC_CONN_CLOSED | UMS_CDC_CONN_ABORT))
		conn->closed = true;
	if (conn_flags & UMS_CDC_DONE_WRITING)
		conn->done_writing = true;
	cdc.seqno = conn->tx_seq++;
	cdc.prod = conn->tx_write;
	cdc.cons = conn->rx_cons;
	conn->rx_cons_sent = conn->rx_cons;
	cdc.conn_flags = conn_flags;
	if (conn->done_writing)
		cdc.conn_flags |= UMS_CDC_DONE_WRITING;
	conn->cdc_pend++;
	spin_unlock_bh(&conn->lock);
	wr.user_ctx = UMS_CDC_CTX | (u64)conn->token << UMS_CDC_POS_BITS |
		      (cdc.prod & UMS_CDC_POS_MASK);
	ums_cdc_build(msg, sizeof(msg), &cdc);
	rc = ums_lgr_post(conn->lgr, &wr);
	if (rc) {
		spin_lock_bh(&conn->lock);
		conn->cdc_pend--;
		spin_unlock_bh(&conn->lock);
	}
	return rc;
}

/**
 * ums_conn_lookup() - a connection of a link group by its token
 * @lgr: the group
 * @token: the connection's (ours)
 *
 * Context: any; takes the group's table lock (bh).
 * Return: the connection, held (ums_conn_put()), or NULL.
 */
struct ums_conn *ums_conn_lookup(struct ums_lgr *lgr, u32 token)
{
	struct ums_conn *conn;

	xa_lock_bh(&lgr->conns);
	conn = xa_load(&lgr->conns, token);
	if (conn && !kref_get_unless_zero(&conn->ref))
		conn = NULL;
	xa_unlock_bh(&lgr->conns);
	return conn;
}

/**
 * ums_cdc_sent() - a CDC's SEND completed
 * @lgr: its link group
 * @user_ctx: its user_ctx
 *
 * Context: the link's completion tasklet (softirq).
 */
void ums_cdc_sent(struct ums_lgr *lgr, u64 user_ctx)
{
	u32 token = (user_ctx & ~UMS_CDC_CTX) >> UMS_CDC_POS_BITS;
	struct ums_conn *conn;
	bool push;
	u64 done;

	if (!(user_ctx & UMS_CDC_CTX))
		return;
	conn = ums_conn_lookup(lgr, token);
	if (!conn)
		return;
	spin_lock_bh(&conn->lock);
	/* the full cursor: the newest one with these low bits */
	done = ums_cursor_expand(conn->tx_write, user_ctx, UMS_CDC_POS_BITS);
	if (ums_cursor_after(done, conn->tx_done)) {
		conn->tx_done = done;
		if (conn->ums)
			ums_wake(conn->ums, EPOLLOUT | EPOLLWRNORM);
	}
	if (conn->cdc_pend)
		conn->cdc_pend--;
	/* the last pending CDC is done: what was corked goes (ums_tx_work) */
	push = !conn->cdc_pend && conn->tx_prep != conn->tx_write &&
	       conn->ums && !conn->err;
	if (push)
		kref_get(&conn->ref);
	spin_unlock_bh(&conn->lock);
	if (push && !queue_work(ums_wq, &conn->tx_work))
		ums_conn_put(conn);
	ums_conn_put(conn);
}

/* Under @conn's lock: @cdc as the peer's new cursors; false if it lies. */
static bool ums_cdc_apply(struct ums_conn *conn, const struct ums_cdc *cdc)
{
	if (!ums_cdc_prod_ok(cdc->prod, conn->rx_prod, conn->rx_cons,
			     conn->rmb->size) ||
	    !ums_cdc_cons_ok(cdc->cons, conn->peer_cons, conn->tx_write))
		return false;
	conn->rx_prod = cdc->prod;
	conn->peer_cons = cdc->cons;
	conn->peer_flags |= cdc->conn_flags;
	return true;
}

/**
 * ums_cdc_recv() - a CDC message arrived on a link
 * @lgr: the link group
 * @buf: the message
 * @len: its length
 *
 * A message for no connection of the link is dropped (its connection
 * ended); one whose cursors cannot be resets its connection.
 *
 * Context: the link's completion tasklet (softirq).
 */
void ums_cdc_recv(struct ums_lgr *lgr, const void *buf, u32 len)
{
	struct ums_conn *conn;
	struct ums_cdc cdc;
	__poll_t mask = 0;
	u64 prod, cons;
	bool ok, end;
	u8 flags;

	if (ums_cdc_parse(buf, len, &cdc))
		return;
	conn = ums_conn_lookup(lgr, cdc.token);
	if (!conn)
		return;
	spin_lock_bh(&conn->lock);
	prod = conn->rx_prod;
	cons = conn->peer_cons;
	flags = conn->peer_flags;
	ok = ums_cdc_apply(conn, &cdc);
	end = !ok || cdc.conn_flags & (UMS_CDC_CONN_CLOSED |
				       UMS_CDC_CONN_ABORT);
	if (conn->rx_prod != prod)
		mask |= EPOLLIN | EPOLLRDNORM;
	if (conn->peer_cons != cons)
		mask |= EPOLLOUT | EPOLLWRNORM;
	/* new peer flags end reading or writing: every waiter (mask 0) */
	if (conn->ums && !end && (mask || conn->peer_flags != flags))
		ums_wake(conn->ums, conn->peer_flags != flags ? 0 : mask);
	spin_unlock_bh(&conn->lock);
	if (end)
		ums_conn_end(conn, !ok || cdc.conn_flags & UMS_CDC_CONN_ABORT ?
			     ECONNRESET : 0);
	ums_conn_put(conn);
}
