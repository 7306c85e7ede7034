// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * /proc/net/ums and /proc/net/ums6 (UMDK's columns, one line a socket of
 * the reader's network namespace, then the fallback reason ours and the
 * peer's) and /proc/net/ums_fallback (the namespace's fallbacks by
 * reason, as client and as server).
 */
#include <linux/proc_fs.h>
#include <linux/seq_file.h>
#include <net/net_namespace.h>
#include <net/sock.h>

#include "link.h"
#include "ums.h"

/*
 * Every UMS socket by IP family (sk_protocol: UMS_PROTO_SMC, _SMC6), for
 * the proc files. ums_socks_lock protects the lists; a socket leaves its
 * list before its clcsock is released, so a reader under the lock may
 * look at the clcsock's addresses.
 */
static HLIST_HEAD(ums_socks4);
static HLIST_HEAD(ums_socks6);
static DEFINE_SPINLOCK(ums_socks_lock);

static struct hlist_head *ums_socks(int protocol)
{
	return protocol == UMS_PROTO_SMC6 ? &ums_socks6 : &ums_socks4;
}

/**
 * ums_sock_list_add() - list a new socket, its clcsock set
 * @ums: the socket
 */
void ums_sock_list_add(struct ums_sock *ums)
{
	spin_lock_bh(&ums_socks_lock);
	hlist_add_head(&ums->list, ums_socks(ums->sk.sk_protocol));
	spin_unlock_bh(&ums_socks_lock);
}

/**
 * ums_sock_list_del() - unlist a socket before its clcsock goes
 * @ums: the socket
 */
void ums_sock_list_del(struct ums_sock *ums)
{
	spin_lock_bh(&ums_socks_lock);
	hlist_del_init(&ums->list);
	spin_unlock_bh(&ums_socks_lock);
}

/*
 * The EID and jetty of each end of @conn's link, or N/A without one. The
 * link of a listed socket's connection stays while the reader holds
 * ums_socks_lock (the socket leaves the list before it drops it).
 */
static void ums_link_names(const struct ums_conn *conn, char *leid,
			   char *ljetty, char *peid, char *pjetty)
{
	const struct ums_lgr *lgr = conn ? conn->lgr : NULL;

	if (!lgr || !lgr->tjetty) {
		strcpy(leid, "N/A,");
		strcpy(peid, "N/A,");
		strcpy(ljetty, "N/A");
		strcpy(pjetty, "N/A");
		return;
	}
	snprintf(leid, 48, "%pI6c,", lgr->eid);
	snprintf(peid, 48, "%pI6c,", lgr->peer_eid);
	snprintf(ljetty, 12, "%u", lgr->jetty->id);
	snprintf(pjetty, 12, "%u", lgr->tjetty->cfg.id.id);
}

static const char *ums_state_name(int state)
{
	switch (state) {
	case UMS_ACTIVE:
		return "UMS_ACTIVE";
	case UMS_INIT:
		return "UMS_INIT";
	case UMS_LISTEN:
		return "UMS_LISTEN";
	default:
		return "UMS_CLOSED";
	}
}

/* The position of the sockets of the reader's namespace; 0 is the header */
static struct sock *ums_seq_idx(struct seq_file *seq, loff_t pos)
{
	struct hlist_head *head = ums_socks((long)pde_data(file_inode(seq->file)));
	struct ums_sock *ums;

	hlist_for_each_entry(ums, head, list) {
		if (!net_eq(sock_net(&ums->sk), seq_file_net(seq)))
			continue;
		if (pos-- == 1)
			return &ums->sk;
	}
	return NULL;
}

static void *ums_seq_start(struct seq_file *seq, loff_t *pos)
	__acquires(&ums_socks_lock)
{
	spin_lock_bh(&ums_socks_lock);
	return *pos ? ums_seq_idx(seq, *pos) : SEQ_START_TOKEN;
}

static void *ums_seq_next(struct seq_file *seq, void *v, loff_t *pos)
{
	return ums_seq_idx(seq, ++*pos);
}

static void ums_seq_stop(struct seq_file *seq, void *v)
	__releases(&ums_socks_lock)
{
	spin_unlock_bh(&ums_socks_lock);
}

static int ums_seq_show(struct seq_file *seq, void *v)
{
	bool v6 = (long)pde_data(file_inode(seq->file)) == UMS_PROTO_SMC6;
	int aw = v6 ? 41 : 15;
	struct ums_sock *ums;
	struct sock *clcsk;
	char src[48], dst[48], leid[48], peid[48], ljetty[12], pjetty[12];

	if (v == SEQ_START_TOKEN) {
		seq_printf(seq, "Index %*s %*s %21s %10s %44s %8s %44s %8s %10s %10s\n",
			   aw + 6, "SRC_IP:Port", aw + 6, "DEST_IP:Port",
			   "State", "Fallback", "SRC_EID,", "JETTY_ID",
			   "DEST_EID,", "JETTY_ID", "Reason", "PeerReason");
		return 0;
	}
	ums = ums_sk(v);
	clcsk = ums->clcsock->sk;
	if (v6) {
		snprintf(src, sizeof(src), "[%pI6c]:%u", &clcsk->sk_v6_rcv_saddr,
			 clcsk->sk_num);
		snprintf(dst, sizeof(dst), "[%pI6c]:%u", &clcsk->sk_v6_daddr,
			 ntohs(clcsk->sk_dport));
	} else {
		snprintf(src, sizeof(src), "%pI4:%u", &clcsk->sk_rcv_saddr,
			 clcsk->sk_num);
		snprintf(dst, sizeof(dst), "%pI4:%u", &clcsk->sk_daddr,
			 ntohs(clcsk->sk_dport));
	}
	ums_link_names(READ_ONCE(ums->conn), leid, ljetty, peid, pjetty);
	seq_printf(seq, "%4lld: %*s %*s %21s %10s %44s %8s %44s %8s 0x%08x 0x%08x\n",
		   (long long)seq->index - 1, aw + 6, src, aw + 6, dst,
		   ums_state_name(READ_ONCE(ums->sk.sk_state)),
		   READ_ONCE(ums->use_fallback) ? "True" : "False",
		   leid, ljetty, peid, pjetty, ums->fallback_reason,
		   ums->peer_reason);
	return 0;
}

static const struct seq_operations ums_seq_ops = {
	.start	= ums_seq_start,
	.next	= ums_seq_next,
	.stop	= ums_seq_stop,
	.show	= ums_seq_show,
};

static int ums_fallback_show(struct seq_file *seq, void *v)
{
	struct ums_net *un = ums_net(seq_file_single_net(seq));
	int i;

	seq_puts(seq, "Code           Client     Server Reason\n");
	for (i = 0; i < UMS_FB_REASONS; i++)
		seq_printf(seq, "0x%08x %10lld %10lld %s\n",
			   ums_fallback_reasons[i],
			   (long long)atomic64_read(&un->fallback[i][0]),
			   (long long)atomic64_read(&un->fallback[i][1]),
			   ums_fallback_names[i]);
	return 0;
}

/**
 * ums_proc_init_net() - the proc files of a network namespace
 * @net: the namespace
 *
 * Return: 0 or -ENOMEM.
 */
int ums_proc_init_net(struct net *net)
{
	if (!proc_create_net_data("ums", 0444, net->proc_net, &ums_seq_ops,
				  sizeof(struct seq_net_private),
				  (void *)(long)UMS_PROTO_SMC))
		goto err;
	if (!proc_create_net_data("ums6", 0444, net->proc_net, &ums_seq_ops,
				  sizeof(struct seq_net_private),
				  (void *)(long)UMS_PROTO_SMC6))
		goto err_ums;
	if (!proc_create_net_single("ums_fallback", 0444, net->proc_net,
				    ums_fallback_show, NULL))
		goto err_ums6;
	return 0;
err_ums6:
	remove_proc_entry("ums6", net->proc_net);
err_ums:
	remove_proc_entry("ums", net->proc_net);
err:
	return -ENOMEM;
}

/**
 * ums_proc_exit_net() - remove the proc files of a network namespace
 * @net: the namespace
 */
void ums_proc_exit_net(struct net *net)
{
	remove_proc_entry("ums_fallback", net->proc_net);
	remove_proc_entry("ums6", net->proc_net);
	remove_proc_entry("ums", net->proc_net);
}
