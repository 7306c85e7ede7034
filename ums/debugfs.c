// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * UMS's debugfs directory, /sys/kernel/debug/ums/ (root): what a socket
 * that stopped moving waits for. links: each link group, then each of
 * its connections' cursors (struct ums_conn), from which a reader sees
 * whether a sender waits for its WRITEs' completions (tx_done), for the
 * peer's CDC (peer_cons), for its own CDC's completion with bytes corked
 * (tx_prep past tx_write, cdc_pend), or a reader for data (rx_prod). Without
 * debugfs there are no files and nothing else changes.
 */
#include <linux/debugfs.h>
#include <linux/seq_file.h>

#include "link.h"
#include "ums.h"

static struct dentry *ums_debugfs_dir;

static void ums_conn_show(struct seq_file *m, struct ums_conn *conn)
{
	spin_lock_bh(&conn->lock);
	seq_printf(m, "  conn %08x peer %08x sock %d tx_prep %llu tx_write %llu tx_done %llu cdc_pend %u corked %llu peer_cons %llu peer_rmb %u sndbuf %u rx_prod %llu rx_cons %llu rx_cons_sent %llu rmb %u tx_seq %u peer_flags %#x done_writing %d closed %d err %d linger %d\n",
		   conn->token, conn->peer_token, !!conn->ums, conn->tx_prep,
		   conn->tx_write, conn->tx_done, conn->cdc_pend, conn->corked,
		   conn->peer_cons, conn->peer_rmb_len,
		   conn->sndbuf ? conn->sndbuf->size : 0, conn->rx_prod,
		   conn->rx_cons, conn->rx_cons_sent,
		   conn->rmb ? conn->rmb->size : 0, conn->tx_seq,
		   conn->peer_flags, conn->done_writing, conn->closed,
		   conn->err, conn->linger);
	spin_unlock_bh(&conn->lock);
}

/* The jetties' IDs: 0 and -1 once the group's objects are gone. */
static void ums_lgr_jetties(struct ums_lgr *lgr, u32 *jetty, int *peer)
{
	*jetty = 0;
	*peer = -1;
	down_read(&lgr->dp_sem);
	if (!lgr->destroyed && !IS_ERR_OR_NULL(lgr->jetty)) {
		*jetty = lgr->jetty->id;
		if (lgr->tjetty)
			*peer = lgr->tjetty->cfg.id.id;
	}
	up_read(&lgr->dp_sem);
}

static void ums_lgr_show(struct seq_file *m, struct ums_lgr *lgr)
{
	struct ums_conn *conn;
	unsigned long token;
	void *entry;
	int peer;
	u32 jetty;

	ums_lgr_jetties(lgr, &jetty, &peer);
	spin_lock_bh(&lgr->lock);
	seq_printf(m, "lgr %u peer_lgr %u %s dev %s jetty %u peer_jetty %d dead %d active %d conns %d cq_polls %u\n",
		   lgr->id, lgr->peer_lgr_id, lgr->server ? "server" : "client",
		   lgr->dev->dev_name, jetty, peer, lgr->dead, lgr->active,
		   lgr->conn_cnt, READ_ONCE(lgr->cq_polls));
	spin_unlock_bh(&lgr->lock);
	xa_for_each(&lgr->conns, token, entry) {
		conn = ums_conn_lookup(lgr, token);
		if (!conn)
			continue;
		ums_conn_show(m, conn);
		ums_conn_put(conn);
	}
}

static int ums_links_show(struct seq_file *m, void *v)
{
	struct ums_lgr *lgr;

	mutex_lock(&ums_lgr_mutex);
	list_for_each_entry(lgr, &ums_lgr_list, node)
		ums_lgr_show(m, lgr);
	mutex_unlock(&ums_lgr_mutex);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(ums_links);

/**
 * ums_debugfs_init() - create /sys/kernel/debug/ums/
 */
void ums_debugfs_init(void)
{
	ums_debugfs_dir = debugfs_create_dir("ums", NULL);
	debugfs_create_file("links", 0400, ums_debugfs_dir, NULL,
			    &ums_links_fops);
}

/**
 * ums_debugfs_exit() - remove it; reads in progress finish first
 */
void ums_debugfs_exit(void)
{
	debugfs_remove(ums_debugfs_dir);
}
