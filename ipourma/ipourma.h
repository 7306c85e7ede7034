/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * IPoURMA (user guide 7.2): one IPv6-only netdev per UB device, whose
 * addresses are the device's EIDs; every IP packet travels, behind a 2-byte
 * IPoURMA header, as a URMA SEND (UM) from the netdev's JFS to the
 * well-known jetty of the destination EID (jetty 32 + the EID's index).
 */
#ifndef _IPOURMA_H
#define _IPOURMA_H

#include <linux/atomic.h>
#include <linux/bitmap.h>
#include <linux/hashtable.h>
#include <linux/in6.h>
#include <linux/mutex.h>
#include <linux/netdevice.h>
#include <linux/skbuff.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>
#include <net/ipv6.h>

#include <ub/ubcore_device.h>
#include <ub/ubcore_dp.h>
#include <ub/ubcore_event.h>

/* The IPoURMA header: 2 bytes in front of every IP packet (guide 7.2 #3). */
#define IPOURMA_HDR_LEN		2
/* MTU: 4094 by default, settable within [68, 4094] (guide 7.2 #4). */
#define IPOURMA_MTU_MIN		68
#define IPOURMA_MTU_MAX		4094
#define IPOURMA_MTU_DEFAULT	IPOURMA_MTU_MAX
/* One UM message: the header and the largest packet, 4096 bytes. */
#define IPOURMA_MSG_MAX		(IPOURMA_MTU_MAX + IPOURMA_HDR_LEN)
/*
 * One RM message: the header and the largest IPv6 packet without a jumbo
 * option (a TSO skb of TCP, or one GRO merged elsewhere and forwarded).
 */
#define IPOURMA_RM_PKT_MAX	(IPV6_MAXPLEN + sizeof(struct ipv6hdr))
#define IPOURMA_RM_MSG_MAX	(IPOURMA_RM_PKT_MAX + IPOURMA_HDR_LEN)
/* The first well-known jetty; EID index i uses jetty 32 + i (7.2 #5). */
#define IPOURMA_JETTY_BASE	32
/*
 * Receive buffers posted per well-known jetty (128 x 64 EIDs: udma's
 * largest JFC holds a completion for each), and TX slots per netdev. At
 * 64 each, iperf3 TCP over the netdev moved 0.7x what it moves with these
 * (ipourma/README.md).
 */
#define IPOURMA_RX_DEPTH	128
#define IPOURMA_TX_DEPTH	256
/* RM: receive buffers of IPOURMA_RM_MSG_MAX bytes per well-known jetty. */
#define IPOURMA_RM_RX_DEPTH	64
/* UM: SGEs of a SEND: the header, then the packet (a linear skb). */
#define IPOURMA_TX_SGE		2
/* RM: the header, the skb's head and its fragments, at most. */
#define IPOURMA_RM_TX_SGE	(2 + MAX_SKB_FRAGS)
/* RM: peers whose messages timed out that one TX recovery forgets */
#define IPOURMA_TX_DEAD_MAX	4
/*
 * RM: the pages a large packet is received into, reused once the stack
 * freed them (4 MiB with 4 KiB pages: 64 messages of 64 KiB).
 */
#define IPOURMA_RX_PAGES	1024
/* RM: bytes of a large packet received into the skb's head; the rest in pages */
#define IPOURMA_RX_HEAD		256
/* Completion records taken per ubcore_poll_jfc() call. */
#define IPOURMA_POLL_BATCH	16

/**
 * struct ipourma_hdr - the IPoURMA header
 * @proto: the EtherType of the packet behind it (ETH_P_IPV6), big endian
 */
struct ipourma_hdr {
	__be16 proto;
} __packed;

void ipourma_hdr_write(void *buf, __be16 proto);
int ipourma_hdr_parse(const void *buf, u32 len, u32 max);

struct virtio_net_hdr;
u64 ipourma_meta_pack(const struct virtio_net_hdr *vh);
int ipourma_meta_unpack(u64 imm, struct virtio_net_hdr *vh);

/* Data-plane counters; query_ipourma_stats prints them by these names. */
enum ipourma_stat {
	IPOURMA_STAT_TX_PACKETS,
	IPOURMA_STAT_TX_BYTES,
	IPOURMA_STAT_TX_COMP_ERR,
	IPOURMA_STAT_TX_POST_ERR,
	IPOURMA_STAT_TX_DROP_NOT_IPV6,
	IPOURMA_STAT_TX_DROP_MCAST,
	IPOURMA_STAT_TX_DROP_NO_SRC_EID,
	IPOURMA_STAT_TX_DROP_PEER,
	IPOURMA_STAT_TX_QUEUE_STOP,
	IPOURMA_STAT_TX_QUEUE_WAKE,
	IPOURMA_STAT_TX_GSO,
	IPOURMA_STAT_TX_LINEARIZED,
	IPOURMA_STAT_TX_DROP_OFFLOAD,
	IPOURMA_STAT_TX_RECOVER,
	IPOURMA_STAT_RX_PACKETS,
	IPOURMA_STAT_RX_BYTES,
	IPOURMA_STAT_RX_COMP_ERR,
	IPOURMA_STAT_RX_BAD_HDR,
	IPOURMA_STAT_RX_NO_SKB,
	IPOURMA_STAT_RX_STALE,
	IPOURMA_STAT_RX_POST_ERR,
	IPOURMA_STAT_RX_GSO,
	IPOURMA_STAT_RX_BAD_META,
	IPOURMA_STAT_RX_PAGE_ALLOC,
	IPOURMA_STAT_PEER_IMPORT,
	IPOURMA_STAT_PEER_IMPORT_ERR,
	IPOURMA_STAT_PEER_AGED,
	IPOURMA_STAT_PEER_QUEUED,
	IPOURMA_STAT_PEER_OTHER_JETTY,
	IPOURMA_STAT_EP_ERR,
	IPOURMA_STAT_ADDR_ERR,
	IPOURMA_STAT_MAX,
};

/**
 * struct ipourma_peer - a destination EID and its imported well-known jetty
 * @node: in the cache's @table (writers under the cache's @lock, readers
 *	under RCU)
 * @eid: the destination EID (the IPv6 destination address)
 * @jetty_id: the well-known jetty to import (UMDK's guess: the index of
 *	our source EID), then the one imported (its import work only)
 * @tjetty: the import; set before @state becomes READY (release/acquire)
 *	and constant from then until the peer is freed after an RCU grace
 *	period
 * @state: IPOURMA_PEER_* (smp_store_release / smp_load_acquire)
 * @last_used: jiffies of the last packet sent to it (READ_ONCE/WRITE_ONCE)
 * @failed_at: jiffies of the last failed import (the cache's @lock)
 * @pending: packets waiting for the import, at most IPOURMA_PEER_PENDING
 *	(its own lock)
 * @cache: the cache it is in
 * @work: its import (queued by ipourma_peer_enqueue() on the cache's @wq)
 * @rcu: frees it after the readers
 */
struct ipourma_peer {
	struct hlist_node node;
	struct in6_addr eid;
	u32 jetty_id;
	struct ubcore_tjetty *tjetty;
	int state;
	unsigned long last_used;
	unsigned long failed_at;
	struct sk_buff_head pending;
	struct ipourma_peer_cache *cache;
	struct work_struct work;
	struct rcu_head rcu;
};

enum {
	IPOURMA_PEER_IMPORTING,	/* its import work is queued or running */
	IPOURMA_PEER_READY,	/* @tjetty is usable */
	IPOURMA_PEER_FAILED,	/* the import failed; retried after 1 s */
};

/* Packets queued per peer while it is imported; more are dropped. */
#define IPOURMA_PEER_PENDING	16
/* Peers at most per netdev; a packet to one more is dropped. */
#define IPOURMA_PEER_MAX	256
#define IPOURMA_PEER_HASH_BITS	6

/**
 * struct ipourma_peer_ops - what the peer cache calls (KUnit fakes them)
 * @probe: whether @eid's device has the well-known jetty @id: 0 if it
 *	has, -ENOENT if it has not, another negative errno if that cannot
 *	be told (no answer, no way to ask); process context, may sleep;
 *	optional
 * @import: import the jetty @id of @eid; process context, may sleep;
 *	returns the import or an ERR_PTR
 * @unimport: undo it; process context
 * @resend: send a packet that waited for its peer's import; process
 *	context; takes the skb
 */
struct ipourma_peer_ops {
	int (*probe)(void *ctx, const struct in6_addr *eid, u32 id);
	struct ubcore_tjetty *(*import)(void *ctx, const struct in6_addr *eid,
					u32 id);
	void (*unimport)(void *ctx, struct ubcore_tjetty *tjetty);
	void (*resend)(void *ctx, struct sk_buff *skb);
};

/**
 * struct ipourma_peer_cache - imported peers by destination EID
 * @lock: serialises the writers of @table, @count and the peers' @state
 *	transitions but READY publication; a spinlock taken with BHs off
 *	(the TX path adds peers in softirq context)
 * @table: the peers; lookups under RCU (the TX path)
 * @count: peers in @table
 * @ops: the import calls
 * @ctx: their context
 * @age: jiffies a READY or FAILED peer stays unused before it is dropped
 * @stats: where the cache counts (the owner's counters), or NULL
 * @wq: where the peers' import works run
 */
struct ipourma_peer_cache {
	spinlock_t lock;	/* see above */
	DECLARE_HASHTABLE(table, IPOURMA_PEER_HASH_BITS);
	u32 count;
	const struct ipourma_peer_ops *ops;
	void *ctx;
	unsigned long age;
	atomic64_t *stats;
	struct workqueue_struct *wq;
};

void ipourma_peer_cache_init(struct ipourma_peer_cache *c,
			     const struct ipourma_peer_ops *ops, void *ctx,
			     unsigned long age, atomic64_t *stats,
			     struct workqueue_struct *wq);
struct ipourma_peer *ipourma_peer_lookup(struct ipourma_peer_cache *c,
					 const struct in6_addr *eid);
int ipourma_peer_enqueue(struct ipourma_peer_cache *c,
			 const struct in6_addr *eid, u32 jetty_id,
			 struct sk_buff *skb);
u32 ipourma_peer_age(struct ipourma_peer_cache *c, unsigned long now);
bool ipourma_peer_forget(struct ipourma_peer_cache *c,
			 const struct in6_addr *eid);
void ipourma_peer_cache_flush(struct ipourma_peer_cache *c);

/**
 * struct ipourma_eids - EIDs by index, as the EID table holds them
 * @valid: the indexes that hold an EID
 * @eid: the EIDs
 */
struct ipourma_eids {
	DECLARE_BITMAP(valid, UBCORE_MAX_EID_CNT);
	struct in6_addr eid[UBCORE_MAX_EID_CNT];
};

void ipourma_addr_diff(const struct ipourma_eids *have,
		       const struct ipourma_eids *want, unsigned long *add,
		       unsigned long *del);

/**
 * struct ipourma_ep - the well-known jetty of one EID and its RX ring
 * @idx: the EID's index; the jetty is IPOURMA_JETTY_BASE + @idx
 * @gen: the generation, in the high bits of the RX user_ctx, so that a
 *	completion of an earlier endpoint of the same index is ignored
 * @eid: the EID
 * @jfr: the jetty's JFR
 * @jetty: the well-known jetty
 * @rx_buf: the netdev's @rx_depth buffers of @msg_max bytes (vmalloc)
 * @rx_seg: @rx_buf registered (local access only)
 * @rcu: frees it after the NAPI poll and xmit readers
 */
struct ipourma_ep {
	u32 idx;
	u16 gen;
	struct in6_addr eid;
	struct ubcore_jfr *jfr;
	struct ubcore_jetty *jetty;
	void *rx_buf;
	struct ubcore_target_seg *rx_seg;
	struct rcu_head rcu;
};

/**
 * struct ipourma_priv - the netdev's private part
 * @ndev: the netdev
 * @ub_dev: the UB device (ubcore holds it while the client is attached);
 *	NULL for a netdev that KUnit made without one. Used by the data path
 *	and the works only: they are stopped before the device goes.
 * @ubdev_name: its name, for sysfs "ubdev" and logs (the netdev outlives
 *	the client's remove callback, see @free_work)
 * @free_work: unregisters and frees the netdev after the device went
 *	(ipourma_remove() cannot wait for the netdev's references: ubcore's
 *	netdev notifier works hold some while they wait for the lock that
 *	ubcore holds around the remove callback)
 * @lock: serialises the endpoint and address changes (@ep writers, @have,
 *	@ep_gen, @dying); a mutex, process context
 * @dying: the device is being removed: the works do nothing more
 * @ep: per EID index, the endpoint (RCU; written under @lock)
 * @ep_gen: the last endpoint generation handed out
 * @have: the addresses this module put on the netdev
 * @addr_lock: protects @allowed (the address validators read it under
 *	rtnl_lock, where @lock cannot be taken); a spinlock
 * @allowed: the EIDs the netdev may hold as addresses
 * @resync: re-add every EID address at the next sync (after the netdev
 *	went up or IPv6 restarted on it); atomic bit 0
 * @eid_handler: ubcore's EID_CHANGE events queue @sync_work
 * @sync_work: brings the endpoints and addresses to the EID table
 * @age_work: drops the unused peers
 * @peers: the peer cache
 * @token: the token ID of the registered buffers
 * @jfc_tx: send completions (the JFS's and the jetties' send side)
 * @jfc_rx: receive completions of every well-known jetty
 * @jfs: the JFS every packet is sent from
 * @rm: the netdev's packets travel as RM messages (module parameter
 *	trans_mode): up to IPOURMA_RM_PKT_MAX bytes a packet (TSO), checksum
 *	and segmentation left to the receiver as SEND_IMM's immediate data;
 *	else UM, one packet of at most the MTU a message. Constant.
 * @msg_max: the longest message, the header included (constant)
 * @rx_depth: receive buffers per well-known jetty (constant)
 * @tx_max_sge: SGEs of a SEND at most: the JFS's (constant)
 * @tx_recover_work: makes the JFS anew after it went to ERROR (a peer
 *	stopped answering): under rtnl_lock, with xmit and NAPI stopped
 * @tx_dead: the destinations of the packets that timed out, for the
 *	recovery to forget (written by the NAPI poll, read by the recovery
 *	with NAPI disabled)
 * @tx_dead_cnt: entries of @tx_dead
 * @rx_pages: RM: IPOURMA_RX_PAGES pages a large packet's bytes are copied
 *	into, each holding a reference of its own: one the stack no longer
 *	holds is used again, without the allocator (which zeroes every page
 *	it hands out under init_on_alloc, Debian's default); the NAPI poll
 *	only (kcalloc'd; NULL in UM)
 * @rx_page_next: the entry of @rx_pages to use next (the NAPI poll)
 * @lin_seg: the kernel's linear map, registered local-only
 *	(ubcore_register_linear_seg()): the SGEs of a packet name its skb
 * @tx_hdr: the IPoURMA header every packet starts with (kmalloc'd, in
 *	@lin_seg; read-only once written)
 * @tx_skb: per slot, the packet in flight from it (its memory is the
 *	SEND's source until the completion); set by xmit before the post,
 *	freed and cleared by the NAPI poll as tail passes the slot
 * @tx_head: slots handed out; written by xmit only (the TX queue's lock),
 *	WRITE_ONCE, read by the NAPI poll with READ_ONCE
 * @tx_tail: slots completed; written by the NAPI poll only
 *	(smp_store_release, read with smp_load_acquire)
 * @tx_done: per slot, its completion arrived; set and cleared by the NAPI
 *	poll only (cleared as tail passes the slot)
 * @napi: reaps both JFCs
 * @stats: counters by enum ipourma_stat (atomic64)
 * @stats_base: their values at the last "reset all status": the sysfs
 *	view subtracts them, the netdev's counters do not (atomic64)
 */
struct ipourma_priv {
	struct net_device *ndev;
	struct ubcore_device *ub_dev;
	char ubdev_name[UBCORE_MAX_DEV_NAME];
	struct work_struct free_work;
	struct mutex lock;	/* see above */
	bool dying;
	struct ipourma_ep __rcu *ep[UBCORE_MAX_EID_CNT];
	u16 ep_gen;
	struct ipourma_eids have;
	spinlock_t addr_lock;	/* see above */
	struct ipourma_eids allowed;
	unsigned long resync;
	struct ubcore_event_handler eid_handler;
	struct work_struct sync_work;
	struct delayed_work age_work;
	struct ipourma_peer_cache peers;
	struct ubcore_token_id *token;
	struct ubcore_jfc *jfc_tx;
	struct ubcore_jfc *jfc_rx;
	struct ubcore_jfs *jfs;
	bool rm;
	u32 msg_max;
	u32 rx_depth;
	u32 tx_max_sge;
	struct work_struct tx_recover_work;
	struct in6_addr tx_dead[IPOURMA_TX_DEAD_MAX];
	u32 tx_dead_cnt;
	struct page **rx_pages;
	u32 rx_page_next;
	struct ubcore_target_seg *lin_seg;
	__be16 *tx_hdr;
	struct sk_buff *tx_skb[IPOURMA_TX_DEPTH];
	u32 tx_head;
	u32 tx_tail;
	bool tx_done[IPOURMA_TX_DEPTH];
	struct napi_struct napi;
	atomic64_t stats[IPOURMA_STAT_MAX];
	atomic64_t stats_base[IPOURMA_STAT_MAX];
};

static inline void ipourma_count(struct ipourma_priv *priv,
				 enum ipourma_stat s, u64 n)
{
	atomic64_add(n, &priv->stats[s]);
}

/* main.c */
struct net_device *ipourma_alloc_netdev(struct ubcore_device *ub_dev);
extern const char * const ipourma_stat_names[IPOURMA_STAT_MAX];

bool ipourma_is_netdev(const struct net_device *ndev);

/* addr.c */
void ipourma_sync_work(struct work_struct *work);
void ipourma_eid_event(struct ubcore_event_handler *handler,
		       const struct ubcore_event *event);
int ipourma_addr_register(void);
void ipourma_addr_unregister(void);

/* dp.c */
int ipourma_dp_init(struct ipourma_priv *priv);
void ipourma_tx_recover_work(struct work_struct *work);
void ipourma_dp_fini(struct ipourma_priv *priv);
int ipourma_ep_create(struct ipourma_priv *priv, u32 idx,
		      const struct in6_addr *eid);
void ipourma_ep_destroy(struct ipourma_priv *priv, u32 idx);
netdev_tx_t ipourma_xmit(struct sk_buff *skb, struct net_device *ndev);
int ipourma_poll(struct napi_struct *napi, int budget);
void ipourma_rearm(struct ipourma_priv *priv);
extern const struct ipourma_peer_ops ipourma_peer_ops;

#endif /* _IPOURMA_H */
