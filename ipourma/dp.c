// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * The data path of an IPoURMA netdev, on ubcore's kernel API
 * (include/ub/ubcore_dp.h):
 * - TX: ipourma_xmit() posts a SEND from the netdev's JFS to the
 *   destination EID's imported well-known jetty, without a copy: its SGEs
 *   are the IPoURMA header (one constant buffer) and the skb's data (UM:
 *   a linear skb; RM: its head and fragments), all named through the
 *   linear map's local-only segment, so the skb (which may be a clone:
 *   TCP keeps the original for retransmission) is not written. The skb
 *   lives until its completion. The queue stops when every slot (hence
 *   every JFS entry) is in flight and wakes when completions free a
 *   quarter of them.
 * - RM only: the netdev does scatter-gather, TSO and checksum offload by
 *   leaving both to the receiver, as veth and virtio-net do: a packet
 *   with its checksum or segmentation to do goes as a SEND_IMM whose
 *   immediate data says what (hdr.c); the receiver marks its skb so
 *   (CHECKSUM_PARTIAL, gso_size), and the stack does it only if the
 *   packet leaves the host again. UBoE's UDP checksum covers the bytes on
 *   the wire. A peer that stops answering puts the JFS in ERROR (ACK
 *   timeout): the TX recovery work makes it anew.
 * - RX: each well-known jetty has @rx_depth buffers posted; the JFCs'
 *   completion callback schedules NAPI, whose poll reaps both JFCs within
 *   its budget, builds an skb per message (a large one in pages), hands
 *   it to GRO and posts the buffer again.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/if_ether.h>
#include <linux/ipv6.h>
#include <linux/rtnetlink.h>
#include <linux/virtio_net.h>
#include <linux/vmalloc.h>
#include <net/ipv6.h>

#include "ipourma.h"

/* RM: RNR retries before a packet is dropped (1 + 2 + .. 64 ms, udma) */
#define IPOURMA_RNR_RETRY	7
/* RX user_ctx: the endpoint generation above the buffer index. */
#define IPOURMA_RX_CTX(gen, slot)	(((u64)(gen) << 16) | (slot))
/* Wake the queue when this many slots are free again. */
#define IPOURMA_TX_WAKE		(IPOURMA_TX_DEPTH / 4)

/* Any context but hard interrupts (udma calls it from its work items). */
static void ipourma_comp(struct ubcore_jfc *jfc)
{
	struct ipourma_priv *priv = (void *)(uintptr_t)jfc->cfg.user_ctx;

	if (in_softirq() || irqs_disabled()) {
		napi_schedule(&priv->napi);
		return;
	}
	/* process context: run NET_RX now rather than at the next interrupt */
	local_bh_disable();
	napi_schedule(&priv->napi);
	local_bh_enable();
}

/**
 * ipourma_rearm() - ask both JFCs for their next completion event
 * @priv: the netdev's private part
 *
 * A JFC that holds unread completions fires at once (udma).
 */
void ipourma_rearm(struct ipourma_priv *priv)
{
	ubcore_rearm_jfc(priv->jfc_tx, false);
	ubcore_rearm_jfc(priv->jfc_rx, false);
}

static struct ubcore_jfc *ipourma_jfc(struct ipourma_priv *priv, u32 depth)
{
	struct ubcore_jfc_cfg cfg = {
		.depth = depth,
		.jfce_handler = ipourma_comp,
		.user_ctx = (uintptr_t)priv,
	};

	return ubcore_create_jfc(priv->ub_dev, &cfg, NULL, NULL);
}

/* Register @len bytes of vmalloc memory at @buf, for local access only. */
static struct ubcore_target_seg *ipourma_reg(struct ipourma_priv *priv,
					     void *buf, u64 len)
{
	struct ubcore_seg_cfg cfg = {
		.va = (uintptr_t)buf,
		.len = len,
		.token_id = priv->token,
		.flag = UBCORE_ACCESS_LOCAL_ONLY << 5,
	};

	return ubcore_register_seg(priv->ub_dev, &cfg, NULL);
}

static void ipourma_check(struct ipourma_priv *priv, const char *what, int ret)
{
	if (ret)
		netdev_warn(priv->ndev, "%s: %d\n", what, ret);
}

/* The JFS every packet is sent from, on the TX JFC. */
static struct ubcore_jfs *ipourma_jfs(struct ipourma_priv *priv)
{
	struct ubcore_jfs_cfg cfg = {
		.depth = IPOURMA_TX_DEPTH,
		.trans_mode = priv->rm ? UBCORE_TP_RM : UBCORE_TP_UM,
		.max_sge = priv->tx_max_sge,
		.max_rsge = 1,
		/* an RNR drops the packet late rather than soon */
		.rnr_retry = IPOURMA_RNR_RETRY,
		.jfc = priv->jfc_tx,
	};

	return ubcore_create_jfs(priv->ub_dev, &cfg, NULL, NULL);
}

/* Free the packets of the slots in flight: their SENDs are gone. */
static void ipourma_tx_drop_all(struct ipourma_priv *priv)
{
	u32 slot;

	for (slot = 0; slot < IPOURMA_TX_DEPTH; slot++) {
		dev_kfree_skb_any(priv->tx_skb[slot]);
		priv->tx_skb[slot] = NULL;
		priv->tx_done[slot] = false;
	}
	priv->tx_tail = priv->tx_head;
}

/* Drop the RX page ring's references (the stack may hold some pages yet). */
static void ipourma_rx_pages_free(struct ipourma_priv *priv)
{
	u32 i;

	if (!priv->rx_pages)
		return;
	for (i = 0; i < IPOURMA_RX_PAGES; i++)
		if (priv->rx_pages[i])
			put_page(priv->rx_pages[i]);
	kfree(priv->rx_pages);
	priv->rx_pages = NULL;
}

/**
 * ipourma_dp_init() - create the netdev's JFCs, JFS and TX buffer
 * @priv: the netdev's private part, with @ub_dev set
 *
 * Context: process context, may sleep.
 * Return: 0 or a negative errno (nothing is left created).
 */
int ipourma_dp_init(struct ipourma_priv *priv)
{
	struct ubcore_device *dev = priv->ub_dev;
	int ret;

	priv->tx_max_sge = priv->rm ? min_t(u32, dev->cap.max_jfs_sge,
					    IPOURMA_RM_TX_SGE) :
				      IPOURMA_TX_SGE;
	if (priv->tx_max_sge < IPOURMA_TX_SGE) {
		ret = -EOPNOTSUPP;
		goto err;
	}
	priv->token = ubcore_alloc_token_id(dev, 0, NULL);
	if (IS_ERR(priv->token)) {
		ret = PTR_ERR(priv->token);
		goto err;
	}
	/* every send side completes here: the JFS and the jetties' */
	priv->jfc_tx = ipourma_jfc(priv, IPOURMA_TX_DEPTH * 2);
	if (IS_ERR(priv->jfc_tx)) {
		ret = PTR_ERR(priv->jfc_tx);
		goto err_token;
	}
	priv->jfc_rx = ipourma_jfc(priv, min_t(u32, dev->cap.max_jfc_depth,
					       priv->rx_depth *
					       UBCORE_MAX_EID_CNT));
	if (IS_ERR(priv->jfc_rx)) {
		ret = PTR_ERR(priv->jfc_rx);
		goto err_jfc_tx;
	}
	priv->jfs = ipourma_jfs(priv);
	if (IS_ERR(priv->jfs)) {
		ret = PTR_ERR(priv->jfs);
		priv->jfs = NULL;
		goto err_jfc_rx;
	}
	priv->tx_hdr = kmalloc(IPOURMA_HDR_LEN, GFP_KERNEL);
	if (!priv->tx_hdr) {
		ret = -ENOMEM;
		goto err_jfs;
	}
	ipourma_hdr_write(priv->tx_hdr, htons(ETH_P_IPV6));
	priv->lin_seg = ubcore_register_linear_seg(dev, priv->token);
	if (IS_ERR(priv->lin_seg)) {
		ret = PTR_ERR(priv->lin_seg);
		goto err_hdr;
	}
	if (priv->rm) {
		priv->rx_pages = kcalloc(IPOURMA_RX_PAGES,
					 sizeof(*priv->rx_pages), GFP_KERNEL);
		if (!priv->rx_pages) {
			ret = -ENOMEM;
			goto err_seg;
		}
	}
	return 0;

err_seg:
	ubcore_unregister_seg(priv->lin_seg);
err_hdr:
	kfree(priv->tx_hdr);
err_jfs:
	ubcore_delete_jfs(priv->jfs);
err_jfc_rx:
	ubcore_delete_jfc(priv->jfc_rx);
err_jfc_tx:
	ubcore_delete_jfc(priv->jfc_tx);
err_token:
	ubcore_free_token_id(priv->token);
err:
	netdev_err(priv->ndev, "%s: data path objects: %d\n",
		   dev->dev_name, ret);
	return ret;
}

/**
 * ipourma_dp_fini() - delete what ipourma_dp_init() created
 * @priv: the netdev's private part; no endpoint is left, NAPI is off
 *
 * Context: process context, may sleep.
 */
void ipourma_dp_fini(struct ipourma_priv *priv)
{
	/* (a failed TX recovery left none) */
	if (priv->jfs)
		ipourma_check(priv, "delete jfs", ubcore_delete_jfs(priv->jfs));
	/* the packets whose completion NAPI did not reap */
	ipourma_tx_drop_all(priv);
	ipourma_check(priv, "unregister linear seg",
		      ubcore_unregister_seg(priv->lin_seg));
	ipourma_rx_pages_free(priv);
	kfree(priv->tx_hdr);
	ipourma_check(priv, "delete rx jfc", ubcore_delete_jfc(priv->jfc_rx));
	ipourma_check(priv, "delete tx jfc", ubcore_delete_jfc(priv->jfc_tx));
	ipourma_check(priv, "free token id",
		      ubcore_free_token_id(priv->token));
}

/* Post RX buffer @slot of @ep. Any context but hard interrupts. */
static int ipourma_post_rx(const struct ipourma_priv *priv,
			   struct ipourma_ep *ep, u32 slot)
{
	struct ubcore_sge sge = {
		.addr = (uintptr_t)ep->rx_buf + slot * priv->msg_max,
		.len = priv->msg_max,
		.tseg = ep->rx_seg,
	};
	struct ubcore_jfr_wr wr = {
		.src = { .sge = &sge, .num_sge = 1 },
		.user_ctx = IPOURMA_RX_CTX(ep->gen, slot),
	};
	struct ubcore_jfr_wr *bad = NULL;

	return ubcore_post_jetty_recv_wr(ep->jetty, &wr, &bad);
}

static void ipourma_ep_free(struct ipourma_priv *priv, struct ipourma_ep *ep)
{
	if (!IS_ERR_OR_NULL(ep->jetty))
		ipourma_check(priv, "delete jetty",
			      ubcore_delete_jetty(ep->jetty));
	if (!IS_ERR_OR_NULL(ep->jfr))
		ipourma_check(priv, "delete jfr", ubcore_delete_jfr(ep->jfr));
	if (!IS_ERR_OR_NULL(ep->rx_seg))
		ipourma_check(priv, "unregister rx seg",
			      ubcore_unregister_seg(ep->rx_seg));
	vfree(ep->rx_buf);
	kfree(ep);
}

/**
 * ipourma_ep_create() - the well-known jetty of an EID, with its RX ring
 * @priv: the netdev's private part
 * @idx: the EID's index; the jetty is IPOURMA_JETTY_BASE + @idx
 * @eid: the EID
 *
 * Context: process context, may sleep; under @priv->lock.
 * Return: 0 or a negative errno.
 */
int ipourma_ep_create(struct ipourma_priv *priv, u32 idx,
		      const struct in6_addr *eid)
{
	struct ubcore_device *dev = priv->ub_dev;
	enum ubcore_transport_mode tm = priv->rm ? UBCORE_TP_RM : UBCORE_TP_UM;
	struct ubcore_jfr_cfg jfr_cfg = {
		.depth = priv->rx_depth,
		.trans_mode = tm,
		.max_sge = 1,
		.jfc = priv->jfc_rx,
	};
	struct ubcore_jetty_cfg jetty_cfg = {
		.id = IPOURMA_JETTY_BASE + idx,
		.flag = UBCORE_JETTY_SHARE_JFR,
		.jfs_cfg = {
			.depth = 1,
			.trans_mode = tm,
			.max_sge = 1,
			.max_rsge = 1,
			.jfc = priv->jfc_tx,
		},
	};
	struct ipourma_ep *ep;
	int ret;
	u32 i;

	lockdep_assert_held(&priv->lock);
	ep = kzalloc(sizeof(*ep), GFP_KERNEL);
	if (!ep)
		return -ENOMEM;
	ep->idx = idx;
	ep->gen = ++priv->ep_gen;
	ep->eid = *eid;
	ep->rx_buf = vzalloc(priv->rx_depth * priv->msg_max);
	if (!ep->rx_buf) {
		ret = -ENOMEM;
		goto err;
	}
	ep->rx_seg = ipourma_reg(priv, ep->rx_buf,
				 priv->rx_depth * priv->msg_max);
	if (IS_ERR(ep->rx_seg)) {
		ret = PTR_ERR(ep->rx_seg);
		goto err;
	}
	ep->jfr = ubcore_create_jfr(dev, &jfr_cfg, NULL, NULL);
	if (IS_ERR(ep->jfr)) {
		ret = PTR_ERR(ep->jfr);
		goto err;
	}
	jetty_cfg.jfr = ep->jfr;
	ep->jetty = ubcore_create_jetty(dev, &jetty_cfg, NULL, NULL);
	if (IS_ERR(ep->jetty)) {
		ret = PTR_ERR(ep->jetty);
		goto err;
	}
	for (i = 0; i < priv->rx_depth; i++) {
		ret = ipourma_post_rx(priv, ep, i);
		if (ret)
			goto err;
	}
	rcu_assign_pointer(priv->ep[idx], ep);
	return 0;

err:
	netdev_err(priv->ndev, "%s: well-known jetty %u for EID %pI6c: %d\n",
		   dev->dev_name, IPOURMA_JETTY_BASE + idx, eid, ret);
	ipourma_count(priv, IPOURMA_STAT_EP_ERR, 1);
	ipourma_ep_free(priv, ep);
	return ret;
}

/**
 * ipourma_ep_destroy() - delete the endpoint of an EID index, if any
 * @priv: the netdev's private part
 * @idx: the EID index
 *
 * Context: process context, may sleep; under @priv->lock.
 */
void ipourma_ep_destroy(struct ipourma_priv *priv, u32 idx)
{
	struct ipourma_ep *ep;

	ep = rcu_dereference_protected(priv->ep[idx],
				       lockdep_is_held(&priv->lock));
	if (!ep)
		return;
	RCU_INIT_POINTER(priv->ep[idx], NULL);
	/* the NAPI poll and xmit see it no more */
	synchronize_net();
	ipourma_ep_free(priv, ep);
}

/* The endpoint whose EID is @saddr, under RCU; or NULL. */
static struct ipourma_ep *ipourma_src_ep(struct ipourma_priv *priv,
					 const struct in6_addr *saddr)
{
	struct ipourma_ep *ep;
	u32 i;

	for (i = 0; i < UBCORE_MAX_EID_CNT; i++) {
		ep = rcu_dereference(priv->ep[i]);
		if (ep && ipv6_addr_equal(&ep->eid, saddr))
			return ep;
	}
	return NULL;
}

static u32 ipourma_tx_free(struct ipourma_priv *priv)
{
	/* acquire: the reaper is done with the slots below tail */
	u32 tail = smp_load_acquire(&priv->tx_tail);

	return IPOURMA_TX_DEPTH - (READ_ONCE(priv->tx_head) - tail);
}

/*
 * The SGEs of @skb's message into @sge (@priv->tx_max_sge of them): the
 * header, the skb's head, its fragments. Return: how many.
 */
static u32 ipourma_tx_sges(const struct ipourma_priv *priv,
			   const struct sk_buff *skb, struct ubcore_sge *sge)
{
	const struct skb_shared_info *sh = skb_shinfo(skb);
	u32 n = 0, i;

	sge[n++] = (struct ubcore_sge){ .addr = (uintptr_t)priv->tx_hdr,
					.len = IPOURMA_HDR_LEN,
					.tseg = priv->lin_seg };
	if (skb_headlen(skb))
		sge[n++] = (struct ubcore_sge){ .addr = (uintptr_t)skb->data,
						.len = skb_headlen(skb),
						.tseg = priv->lin_seg };
	for (i = 0; i < sh->nr_frags; i++)
		sge[n++] = (struct ubcore_sge){
			.addr = (uintptr_t)skb_frag_address(&sh->frags[i]),
			.len = skb_frag_size(&sh->frags[i]),
			.tseg = priv->lin_seg };
	return n;
}

/*
 * Whether @skb's memory fits the SGEs of a SEND: a head (kmalloc or
 * page-fragment memory) and fragments in the linear map, few enough.
 */
static bool ipourma_tx_fits(const struct ipourma_priv *priv,
			    const struct sk_buff *skb)
{
	const struct skb_shared_info *sh = skb_shinfo(skb);
	u32 i;

	if (skb_has_frag_list(skb) ||
	    1 + !!skb_headlen(skb) + sh->nr_frags > priv->tx_max_sge)
		return false;
	for (i = 0; i < sh->nr_frags; i++)
		if (PageHighMem(skb_frag_page(&sh->frags[i])))
			return false;
	return true;
}

/*
 * What of @skb's checksum and segmentation the receiver is to do, as
 * SEND_IMM's immediate data into @imm. Return: 1 if there is some, 0 if
 * none, -EINVAL for an offload IPoURMA does not carry.
 */
static int ipourma_tx_meta(const struct ipourma_priv *priv,
			   const struct sk_buff *skb, u64 *imm)
{
	struct virtio_net_hdr vh;

	if (skb->ip_summed != CHECKSUM_PARTIAL && !skb_is_gso(skb))
		return 0;
	/* UM: the netdev offers neither; the core did both */
	if (!priv->rm || virtio_net_hdr_from_skb(skb, &vh, true, false, 0))
		return -EINVAL;
	*imm = ipourma_meta_pack(&vh);
	return 1;
}

/*
 * Post @skb to @peer from slot tx_head (with @imm as immediate data if
 * @has_imm); the TX queue's lock is held. On success the slot owns @skb.
 */
static int ipourma_post_tx(struct ipourma_priv *priv, struct sk_buff *skb,
			   struct ipourma_peer *peer, bool has_imm, u64 imm)
{
	u32 slot = priv->tx_head % IPOURMA_TX_DEPTH;
	struct ubcore_sge sge[IPOURMA_RM_TX_SGE];
	struct ubcore_jfs_wr wr = {
		.opcode = has_imm ? UBCORE_OPC_SEND_IMM : UBCORE_OPC_SEND,
		.flag.bs.complete_enable = 1,
		.user_ctx = slot,
		.tjetty = peer->tjetty,
		.send.src = { .sge = sge },
		.send.imm_data = imm,
	};
	struct ubcore_jfs_wr *bad = NULL;
	int ret;

	/*
	 * xmit made it fit (ipourma_tx_fits()); its head is kmalloc or
	 * page-fragment memory, in the linear map
	 */
	if (WARN_ON_ONCE(skb_headlen(skb) && !virt_addr_valid(skb->data)))
		return -EFAULT;
	wr.send.src.num_sge = ipourma_tx_sges(priv, skb, sge);
	/* the completion may be reaped before the post returns */
	priv->tx_skb[slot] = skb;
	ret = ubcore_post_jfs_wr(priv->jfs, &wr, &bad);
	if (ret) {
		priv->tx_skb[slot] = NULL;
		return ret;
	}
	WRITE_ONCE(priv->tx_head, priv->tx_head + 1);
	return 0;
}

/**
 * ipourma_xmit() - ndo_start_xmit: send an IPv6 packet as a SEND
 * @skb: the packet (its data starts at the IPv6 header)
 * @ndev: the netdev
 *
 * A packet whose peer is not imported yet waits on the peer (the import
 * work resends it) or is dropped when too many wait; a packet that is not
 * IPv6 unicast from one of the netdev's EIDs is dropped. All counted.
 *
 * Context: softirq or process context with BHs off, the queue's lock held.
 * Return: NETDEV_TX_OK, or NETDEV_TX_BUSY if no slot is free (the queue
 * is stopped before that can happen).
 */
netdev_tx_t ipourma_xmit(struct sk_buff *skb, struct net_device *ndev)
{
	struct ipourma_priv *priv = netdev_priv(ndev);
	enum ipourma_stat drop;
	struct ipourma_peer *peer;
	const struct ipv6hdr *ip6;
	struct ipourma_ep *ep;
	bool gso = skb_is_gso(skb);
	u32 len = skb->len;
	int has_imm;
	u64 imm = 0;
	int ret;

	if (unlikely(!ipourma_tx_free(priv))) {
		netif_stop_queue(ndev);
		return NETDEV_TX_BUSY;
	}
	/* a TX recovery that could not make a JFS */
	drop = IPOURMA_STAT_TX_POST_ERR;
	if (unlikely(!priv->jfs))
		goto drop;
	drop = IPOURMA_STAT_TX_DROP_NOT_IPV6;
	if (skb->protocol != htons(ETH_P_IPV6) ||
	    !pskb_may_pull(skb, sizeof(*ip6)) ||
	    len > priv->msg_max - IPOURMA_HDR_LEN)
		goto drop;
	ip6 = ipv6_hdr(skb);
	drop = IPOURMA_STAT_TX_DROP_MCAST;
	if (ipv6_addr_is_multicast(&ip6->daddr))
		goto drop;
	drop = IPOURMA_STAT_TX_DROP_OFFLOAD;
	has_imm = ipourma_tx_meta(priv, skb, &imm);
	if (has_imm < 0)
		goto drop;
	if (!ipourma_tx_fits(priv, skb)) {
		drop = IPOURMA_STAT_TX_POST_ERR;
		if (__skb_linearize(skb))
			goto drop;
		ipourma_count(priv, IPOURMA_STAT_TX_LINEARIZED, 1);
		/* (linearizing may have moved the header) */
		ip6 = ipv6_hdr(skb);
	}
	/*
	 * The slot holds @skb until its SEND completes, hops of workers and
	 * a NAPI poll later: charged to its socket that long, it would make
	 * TCP's small-queue limit (about 1 ms of data) the window. The TX
	 * ring bounds what is held instead, as virtio-net does without TX
	 * NAPI.
	 */
	skb_orphan(skb);
	nf_reset_ct(skb);

	rcu_read_lock();
	drop = IPOURMA_STAT_TX_DROP_NO_SRC_EID;
	ep = ipourma_src_ep(priv, &ip6->saddr);
	if (!ep)
		goto drop_unlock;
	peer = ipourma_peer_lookup(&priv->peers, &ip6->daddr);
	if (!peer) {
		/*
		 * UMDK's rule: the destination's jetty for our EID index
		 * (the peer uses the same indexes).
		 */
		ret = ipourma_peer_enqueue(&priv->peers, &ip6->daddr,
					   IPOURMA_JETTY_BASE + ep->idx, skb);
		if (ret == -EAGAIN)
			peer = ipourma_peer_lookup(&priv->peers, &ip6->daddr);
		if (!peer) {
			rcu_read_unlock();
			drop = IPOURMA_STAT_TX_DROP_PEER;
			if (ret < 0)
				goto drop;
			return NETDEV_TX_OK;
		}
	}
	ret = ipourma_post_tx(priv, skb, peer, has_imm, imm);
	rcu_read_unlock();
	if (ret) {
		drop = IPOURMA_STAT_TX_POST_ERR;
		goto drop;
	}
	ipourma_count(priv, IPOURMA_STAT_TX_PACKETS, 1);
	if (gso)
		ipourma_count(priv, IPOURMA_STAT_TX_GSO, 1);
	ipourma_count(priv, IPOURMA_STAT_TX_BYTES, len);

	if (!ipourma_tx_free(priv)) {
		netif_stop_queue(ndev);
		ipourma_count(priv, IPOURMA_STAT_TX_QUEUE_STOP, 1);
		/* pairs with the barrier of the reaper after it moves tail */
		smp_mb();
		if (ipourma_tx_free(priv) >= IPOURMA_TX_WAKE) {
			netif_wake_queue(ndev);
			ipourma_count(priv, IPOURMA_STAT_TX_QUEUE_WAKE, 1);
		}
	}
	return NETDEV_TX_OK;

drop_unlock:
	rcu_read_unlock();
drop:
	ipourma_count(priv, drop, 1);
	dev_kfree_skb_any(skb);
	return NETDEV_TX_OK;
}

/*
 * The JFS went to ERROR: the peer of @skb (if any) timed out. The NAPI
 * poll; the recovery work takes it from here.
 */
static void ipourma_tx_failed(struct ipourma_priv *priv,
			      const struct sk_buff *skb)
{
	const struct in6_addr *dst = skb ? &ipv6_hdr(skb)->daddr : NULL;
	u32 i;

	for (i = 0; dst && i < priv->tx_dead_cnt; i++)
		if (ipv6_addr_equal(&priv->tx_dead[i], dst))
			dst = NULL;
	if (dst && priv->tx_dead_cnt < IPOURMA_TX_DEAD_MAX)
		priv->tx_dead[priv->tx_dead_cnt++] = *dst;
	queue_work(system_wq, &priv->tx_recover_work);
}

/* One send completion record of the JFS; the NAPI poll. */
static void ipourma_tx_one(struct ipourma_priv *priv, const struct ubcore_cr *cr)
{
	/* the jetties' send sides never post */
	if (cr->local_id != priv->jfs->id)
		return;
	/* the end of a flush (ERROR): a record of the queue, not a WQE's */
	if (cr->status == UBCORE_CR_WR_FLUSH_ERR_DONE) {
		ipourma_tx_failed(priv, NULL);
		return;
	}
	if (cr->user_ctx >= IPOURMA_TX_DEPTH ||
	    cr->status == UBCORE_CR_WR_SUSPEND_DONE)
		return;
	if (cr->status != UBCORE_CR_SUCCESS) {
		ipourma_count(priv, IPOURMA_STAT_TX_COMP_ERR, 1);
		if (cr->status == UBCORE_CR_ACK_TIMEOUT_ERR)
			ipourma_tx_failed(priv, priv->tx_skb[cr->user_ctx]);
	}
	priv->tx_done[cr->user_ctx] = true;
}

/* Reap the send completions; the NAPI poll (@budget: its budget). */
static void ipourma_tx_reap(struct ipourma_priv *priv, int budget)
{
	struct ubcore_cr cr[IPOURMA_POLL_BATCH];
	u32 tail = priv->tx_tail, head;
	int n, i;

	/* (a TX recovery that could not make a JFS: nothing is sent) */
	if (!priv->jfs)
		return;
	do {
		n = ubcore_poll_jfc(priv->jfc_tx, IPOURMA_POLL_BATCH, cr);
		for (i = 0; i < n; i++)
			ipourma_tx_one(priv, &cr[i]);
	} while (n == IPOURMA_POLL_BATCH);

	head = READ_ONCE(priv->tx_head);
	for (; tail != head; tail++) {
		u32 slot = tail % IPOURMA_TX_DEPTH;

		if (!priv->tx_done[slot])
			break;
		priv->tx_done[slot] = false;
		napi_consume_skb(priv->tx_skb[slot], budget);
		priv->tx_skb[slot] = NULL;
	}
	if (tail == priv->tx_tail)
		return;
	/* release: xmit reuses the slots only after this */
	smp_store_release(&priv->tx_tail, tail);
	/* pairs with the barrier of xmit after it stops the queue */
	smp_mb();
	if (netif_queue_stopped(priv->ndev) &&
	    ipourma_tx_free(priv) >= IPOURMA_TX_WAKE) {
		netif_wake_queue(priv->ndev);
		ipourma_count(priv, IPOURMA_STAT_TX_QUEUE_WAKE, 1);
	}
}

/*
 * A page for a received packet's bytes, with a reference for the skb: the
 * ring's next one if only the ring holds it still (the stack freed its
 * skb), else a new one that takes its place. The NAPI poll.
 */
static struct page *ipourma_rx_page(struct ipourma_priv *priv)
{
	struct page **slot = &priv->rx_pages[priv->rx_page_next++ %
					     IPOURMA_RX_PAGES];
	struct page *page = *slot;

	/* (an emergency reserve's page goes back at once) */
	if (page && page_ref_count(page) == 1 && !page_is_pfmemalloc(page)) {
		get_page(page);
		return page;
	}
	page = dev_alloc_page();
	if (!page)
		return NULL;
	ipourma_count(priv, IPOURMA_STAT_RX_PAGE_ALLOC, 1);
	if (*slot)
		put_page(*slot);
	/* the ring's reference, and the skb's */
	get_page(page);
	*slot = page;
	return page;
}

/*
 * An skb holding the @len bytes of @pkt: up to the MTU in its head, a
 * larger (RM) packet's first IPOURMA_RX_HEAD bytes in its head and the
 * rest in the RX page ring's pages (no high-order allocation in the
 * receive path).
 */
static struct sk_buff *ipourma_rx_skb(struct ipourma_priv *priv,
				      const u8 *pkt, u32 len)
{
	u32 head = len <= IPOURMA_MTU_MAX ? len : IPOURMA_RX_HEAD;
	struct sk_buff *skb;
	struct page *page;
	u32 off, n;
	int i = 0;

	BUILD_BUG_ON(DIV_ROUND_UP(IPOURMA_RM_PKT_MAX - IPOURMA_RX_HEAD,
				  PAGE_SIZE) > MAX_SKB_FRAGS);
	skb = napi_alloc_skb(&priv->napi, head);
	if (!skb)
		return NULL;
	skb_put_data(skb, pkt, head);
	for (off = head; off < len; off += n) {
		page = ipourma_rx_page(priv);
		if (!page) {
			kfree_skb(skb);
			return NULL;
		}
		n = min_t(u32, len - off, PAGE_SIZE);
		memcpy(page_address(page), pkt + off, n);
		skb_add_rx_frag(skb, i++, page, 0, n, PAGE_SIZE);
	}
	return skb;
}

/*
 * Apply what the sender left of the checksum and segmentation (a
 * SEND_IMM's immediate data) to @skb. Return: 0, or -EINVAL if the
 * immediate data does not fit the packet.
 */
static int ipourma_rx_meta(struct ipourma_priv *priv, struct sk_buff *skb,
			   const struct ubcore_cr *cr)
{
	struct virtio_net_hdr vh;

	if (!(cr->flag & UBCORE_CR_FLAG_IMM))
		return 0;
	if (ipourma_meta_unpack(cr->imm_data, &vh) ||
	    virtio_net_hdr_to_skb(skb, &vh, true))
		return -EINVAL;
	if (skb_is_gso(skb))
		ipourma_count(priv, IPOURMA_STAT_RX_GSO, 1);
	return 0;
}

/* One receive completion; under RCU in the NAPI poll. */
static void ipourma_rx_one(struct ipourma_priv *priv, const struct ubcore_cr *cr)
{
	u32 idx = cr->local_id - IPOURMA_JETTY_BASE;
	u32 slot = cr->user_ctx & 0xffff;
	struct ipourma_ep *ep;
	struct sk_buff *skb;
	u8 *buf;
	int len;

	ep = idx < UBCORE_MAX_EID_CNT ? rcu_dereference(priv->ep[idx]) : NULL;
	if (!ep || cr->user_ctx != IPOURMA_RX_CTX(ep->gen, slot) ||
	    slot >= priv->rx_depth) {
		ipourma_count(priv, IPOURMA_STAT_RX_STALE, 1);
		return;
	}
	buf = ep->rx_buf + slot * priv->msg_max;
	if (cr->status != UBCORE_CR_SUCCESS) {
		ipourma_count(priv, IPOURMA_STAT_RX_COMP_ERR, 1);
		goto repost;
	}
	len = ipourma_hdr_parse(buf, cr->completion_len, priv->msg_max);
	if (len < 0) {
		ipourma_count(priv, IPOURMA_STAT_RX_BAD_HDR, 1);
		goto repost;
	}
	skb = ipourma_rx_skb(priv, buf + IPOURMA_HDR_LEN, len);
	if (!skb) {
		ipourma_count(priv, IPOURMA_STAT_RX_NO_SKB, 1);
		goto repost;
	}
	skb->protocol = htons(ETH_P_IPV6);
	skb->pkt_type = PACKET_HOST;
	skb->dev = priv->ndev;
	skb_reset_mac_header(skb);
	skb_reset_network_header(skb);
	if (ipourma_rx_meta(priv, skb, cr)) {
		ipourma_count(priv, IPOURMA_STAT_RX_BAD_META, 1);
		kfree_skb(skb);
		goto repost;
	}
	ipourma_count(priv, IPOURMA_STAT_RX_PACKETS, 1);
	ipourma_count(priv, IPOURMA_STAT_RX_BYTES, len);
	/*
	 * GRO merges a TCP stream's segments (UM: 4 KiB at most each, the
	 * MTU) before the stack sees them: one TCP receive, one ACK, per
	 * merge. It validates the TCP checksum itself (CHECKSUM_NONE), or
	 * leaves it undone (CHECKSUM_PARTIAL: the sender's offload).
	 */
	napi_gro_receive(&priv->napi, skb);
repost:
	if (ipourma_post_rx(priv, ep, slot))
		ipourma_count(priv, IPOURMA_STAT_RX_POST_ERR, 1);
}

/**
 * ipourma_poll() - the NAPI poll: send completions, then receives
 * @napi: the netdev's NAPI
 * @budget: receives to handle at most
 *
 * Context: softirq.
 * Return: the receives handled.
 */
int ipourma_poll(struct napi_struct *napi, int budget)
{
	struct ipourma_priv *priv = container_of(napi, struct ipourma_priv,
						 napi);
	struct ubcore_cr cr[IPOURMA_POLL_BATCH];
	int done = 0, n, i;

	ipourma_tx_reap(priv, budget);
	while (done < budget) {
		n = ubcore_poll_jfc(priv->jfc_rx,
				    min(budget - done, IPOURMA_POLL_BATCH), cr);
		if (n <= 0)
			break;
		rcu_read_lock();
		for (i = 0; i < n; i++)
			ipourma_rx_one(priv, &cr[i]);
		rcu_read_unlock();
		done += n;
	}
	if (done < budget && napi_complete_done(napi, done))
		ipourma_rearm(priv);
	return done;
}

/*
 * Make the JFS anew, its slots in flight dropped: xmit and NAPI are
 * stopped (or the netdev is down). Return: 0, or the errno of the new
 * JFS (there is none then).
 */
static int ipourma_tx_reset(struct ipourma_priv *priv)
{
	struct ubcore_cr cr[IPOURMA_POLL_BATCH];
	struct ubcore_jfs *jfs;

	if (priv->jfs)
		ipourma_check(priv, "delete jfs", ubcore_delete_jfs(priv->jfs));
	priv->jfs = NULL;
	/* its last records: a new JFS must not take them for its own */
	while (ubcore_poll_jfc(priv->jfc_tx, IPOURMA_POLL_BATCH, cr) ==
	       IPOURMA_POLL_BATCH)
		;
	ipourma_tx_drop_all(priv);
	jfs = ipourma_jfs(priv);
	if (IS_ERR(jfs))
		return PTR_ERR(jfs);
	priv->jfs = jfs;
	return 0;
}

/**
 * ipourma_tx_recover_work() - make the JFS anew after it went to ERROR
 * @work: the netdev's @tx_recover_work
 *
 * A peer that stops answering fails its messages with ACK_TIMEOUT_ERR
 * and puts the JFS (RM) in ERROR, which would stop every peer's packets:
 * the packets in flight are dropped (TCP sends them again), the JFS made
 * anew, and the peers that timed out forgotten, so that their next packet
 * imports them anew (a peer that is gone fails that import; its packets
 * are dropped without touching the JFS).
 *
 * Context: process context (system_wq); takes rtnl_lock. The netdev's
 * removal cancels it after closing the netdev.
 */
void ipourma_tx_recover_work(struct work_struct *work)
{
	struct ipourma_priv *priv = container_of(work, struct ipourma_priv,
						 tx_recover_work);
	struct in6_addr dead[IPOURMA_TX_DEAD_MAX];
	struct net_device *ndev = priv->ndev;
	bool running;
	u32 n, i;
	int ret;

	rtnl_lock();
	running = netif_running(ndev);
	if (running) {
		netif_tx_disable(ndev);
		napi_disable(&priv->napi);
	}
	n = priv->tx_dead_cnt;
	memcpy(dead, priv->tx_dead, n * sizeof(dead[0]));
	priv->tx_dead_cnt = 0;
	ret = ipourma_tx_reset(priv);
	if (running) {
		napi_enable(&priv->napi);
		ipourma_rearm(priv);
		if (!ret)
			netif_wake_queue(ndev);
	}
	rtnl_unlock();
	ipourma_count(priv, IPOURMA_STAT_TX_RECOVER, 1);
	if (ret) {
		netdev_err(ndev, "TX recovery: new JFS: %d; nothing is sent any more\n",
			   ret);
		return;
	}
	netdev_warn(ndev, "TX recovered: %u peer(s) stopped answering\n", n);
	for (i = 0; i < n; i++)
		ipourma_peer_forget(&priv->peers, &dead[i]);
}

/*
 * Whether @eid's device has the well-known jetty @id: an RM import asks
 * the peer's connection manager, which checks the jetty it names
 * (docs/connection-manager.md): -ENOENT, there is none; -EPROTOTYPE, there
 * is one but it is not RM, as the well-known jetties (UM) are. The probe
 * holds no TP: the import is undone at once (or never established).
 */
static int ipourma_probe(void *ctx, const struct in6_addr *eid, u32 id)
{
	struct ipourma_priv *priv = ctx;
	struct ubcore_tjetty_cfg cfg = {
		.id.id = id,
		.trans_mode = UBCORE_TP_RM,
		.type = UBCORE_TARGET_JETTY,
	};
	struct ubcore_tjetty *tjetty;
	int ret;

	memcpy(cfg.id.eid.raw, eid, sizeof(cfg.id.eid.raw));
	tjetty = ubcore_import_jetty(priv->ub_dev, &cfg, NULL);
	if (!IS_ERR(tjetty)) {
		ipourma_check(priv, "unimport probe",
			      ubcore_unimport_jetty(tjetty));
		return 0;
	}
	ret = PTR_ERR(tjetty);
	return ret == -EPROTOTYPE ? 0 : ret;
}

static struct ubcore_tjetty *ipourma_import(void *ctx,
					    const struct in6_addr *eid, u32 id)
{
	struct ipourma_priv *priv = ctx;
	struct ubcore_tjetty_cfg cfg = {
		.id.id = id,
		.trans_mode = priv->rm ? UBCORE_TP_RM : UBCORE_TP_UM,
		.type = UBCORE_TARGET_JETTY,
	};

	memcpy(cfg.id.eid.raw, eid, sizeof(cfg.id.eid.raw));
	return ubcore_import_jetty(priv->ub_dev, &cfg, NULL);
}

static void ipourma_unimport(void *ctx, struct ubcore_tjetty *tjetty)
{
	ipourma_check(ctx, "unimport jetty", ubcore_unimport_jetty(tjetty));
}

/* A packet that waited for its peer: through the queue again. */
static void ipourma_resend(void *ctx, struct sk_buff *skb)
{
	dev_queue_xmit(skb);
}

const struct ipourma_peer_ops ipourma_peer_ops = {
	.probe = ipourma_probe,
	.import = ipourma_import,
	.unimport = ipourma_unimport,
	.resend = ipourma_resend,
};
