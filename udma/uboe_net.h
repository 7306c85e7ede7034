/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * UBoE packet I/O of udma (uboe_net.c): two kernel UDP sockets (IPv4, IPv6)
 * per network namespace, the transmit function, the receive demultiplexer and
 * the per-device wire counters. The dispatch points that the engine and
 * ubcore's connection manager fill in are in uboe_dispatch.c.
 */
#ifndef _UDMA_UBOE_NET_H
#define _UDMA_UBOE_NET_H

#include <linux/list.h>
#include <linux/percpu.h>
#include <linux/rcupdate.h>
#include <linux/skbuff.h>
#include <linux/types.h>
#include <linux/workqueue.h>

#include <ub/ubcore_eid.h>
#include <ub/ubcore_event.h>

#include "uboe_codec.h"

struct bio_vec;

struct udma_dev;
struct udma_net;

/*
 * The default UDP port of UBoE (module parameter uboe_port): 4789 and 4790
 * are VXLAN's and VXLAN-GPE's, 4791 RoCEv2's; 4792 is not assigned to
 * UBoE by IANA, it is only this stack's default.
 */
#define UDMA_UBOE_PORT_DEFAULT	4792

/*
 * The wire counters of a device (sysfs wire/) and of a namespace
 * (/proc/net/udma_uboe). 1 .. UBOE_DROP_MAX - 1: packets dropped for that
 * enum uboe_drop (index 0, UBOE_DROP_NONE, is never counted); then these.
 */
enum udma_wire_cnt {
	/* packets delivered to the device (decoded, destination EID here) */
	UDMA_WIRE_RX_PACKETS = UBOE_DROP_MAX,
	/* their bytes, UDP payload (the UBoE packet) */
	UDMA_WIRE_RX_BYTES,
	/*
	 * datagrams of several packets (a UDP GSO train of this host's
	 * sender, or datagrams merged by GRO), taken whole, counted on the
	 * device of the netdev they came in on
	 */
	UDMA_WIRE_RX_TRAINS,
	/*
	 * received datagrams copied into one buffer because a packet of
	 * theirs straddled two of their pieces (page fragments, frag_list
	 * skbs); every other one is decoded where it is
	 */
	UDMA_WIRE_RX_LINEARIZED,
	/*
	 * received packets whose payload straddles pieces of their datagram
	 * and is copied from there by the target (udma_uboe_payload_by_ref())
	 */
	UDMA_WIRE_RX_SCATTERED,
	/* of the packets delivered, management messages */
	UDMA_WIRE_MGMT_RX,
	/* management messages sent through UBoE (mgmt.c) */
	UDMA_WIRE_MGMT_TX,
	/* packets handed to the IP layer, and their bytes (UDP payload) */
	UDMA_WIRE_TX_PACKETS,
	UDMA_WIRE_TX_BYTES,
	/* packets udma_uboe_xmit() could not send (no route, too big, ...) */
	UDMA_WIRE_TX_ERRORS,
	/*
	 * the UBoE carrier (uboe_carrier.c): received data packets dropped
	 * because the device's receive queue was full (or no memory);
	 * responses for no JFS or jetty of the device, or for one being
	 * destroyed; messages not sent because they do not fit in one
	 * packet at the path MTU (UM datagrams; any message when the MTU
	 * leaves less than 1 KiB of payload to segment at); requests not
	 * sent because no TP to the destination is established
	 */
	UDMA_WIRE_RX_QUEUE_FULL,
	UDMA_WIRE_RSP_NO_SQ,
	UDMA_WIRE_TX_TOO_BIG,
	UDMA_WIRE_TX_NO_TP,
	/*
	 * the reliable transport of TPs (uboe_rtp.c): packets sent again
	 * (go-back-N after a NAK or a timeout); received duplicates
	 * (dropped, ACKed again); received packets after a gap (dropped,
	 * NAKed once per gap); received packets beyond the window
	 * (dropped); NAKs sent and received; ACKs sent and received; TPs
	 * that failed (no ACK after every retry); unacknowledged packets
	 * dropped because ubcore closed their TP; times a sender stopped
	 * for the pacing (uboe_pace_pct)
	 */
	UDMA_WIRE_RTP_RETRANSMITS,
	UDMA_WIRE_RTP_DUP_DROPS,
	UDMA_WIRE_RTP_OUT_OF_SEQ,
	UDMA_WIRE_RTP_OUT_OF_WINDOW,
	UDMA_WIRE_RTP_NAK_TX,
	UDMA_WIRE_RTP_NAK_RX,
	UDMA_WIRE_RTP_ACK_TX,
	UDMA_WIRE_RTP_ACK_RX,
	UDMA_WIRE_RTP_ACK_TIMEOUTS,
	UDMA_WIRE_RTP_CLOSED_DROPS,
	UDMA_WIRE_RTP_PACED,
	/*
	 * responses of reliable TPs that fault injection lost on purpose
	 * (debugfs udma/fail_rtp_response): counted as sent, never sent
	 */
	UDMA_WIRE_TX_FAULT_DROPS,
	/*
	 * routes looked up for trains: once per train, but a TP's trains
	 * take the route its cache holds (udma_uboe_batch.route_cache)
	 */
	UDMA_WIRE_TX_ROUTE_LOOKUPS,
	/*
	 * packets of the reliable transport sent with their payload as
	 * references to the pages of the registered memory, not a copy
	 * (udma_rtp_pkt.bvec): once per packet, resends not counted
	 */
	UDMA_WIRE_TX_ZEROCOPY,
	UDMA_WIRE_NR_CNT
};

/* The force_wire module parameter (uboe_net.c). */
bool udma_force_wire(void);
bool udma_set_force_wire(bool on);

/* Per-CPU counters, added with this_cpu_*(): any context, no lock. */
struct udma_wire_stats {
	u64 cnt[UDMA_WIRE_NR_CNT];
};

/**
 * struct udma_wire_eids - a copy of a device's EID table for the receive
 *	path, which may not take the table's mutex
 * @rcu: frees the copy after the readers of the one it replaced
 * @cnt: valid entries at @eid
 * @eid: the EIDs
 */
struct udma_wire_eids {
	struct rcu_head rcu;
	u32 cnt;
	union ubcore_eid eid[];
};

/**
 * struct udma_wire - a device's part of UBoE
 * @node: in its namespace's udma_net.devs (RCU list); written under
 *	udma_net.lock, read under rcu_read_lock() by the receive path
 * @eids: the device's EIDs as the receive path matches them; published
 *	with rcu_assign_pointer() by @eid_work only (a work item never runs
 *	twice at once), read under rcu_read_lock(); freed with kfree_rcu()
 * @eid_work: copies the EID table into @eids; queued by @eid_handler on
 *	every EID change and once when the device joins its namespace;
 *	cancelled (after @eid_handler is unregistered) before it leaves
 * @eid_handler: ubcore's async events of the device (EID changes)
 * @stats: the device's counters (enum udma_wire_cnt), from allocation to
 *	udma_release()
 * @on_list: @node is on its namespace's list; udma_net.lock
 */
struct udma_wire {
	struct list_head node;
	struct udma_wire_eids __rcu *eids;
	struct work_struct eid_work;
	struct ubcore_event_handler eid_handler;
	struct udma_wire_stats __percpu *stats;
	bool on_list;
};

struct dst_cache;
struct dst_entry;

/**
 * struct udma_uboe_batch - a train: UBoE packets of one TP to one
 *	destination, sent as one UDP GSO skb (uboe_net.c); the caller's,
 *	one context at a time
 * @udev: the sending device
 * @skb: the packets so far, back to back, each @seg bytes but the last,
 *	which may be shorter; NULL: empty
 * @route: the route of the train, held while @skb is
 * @dst: the destination EID
 * @addr: the IP destination (@dst, or a bonding member's peer address)
 * @saddr: the IP source the route chose
 * @stpn: the packets' source TPN
 * @dtpn: their destination TPN
 * @seg: the first packet's bytes: the segment size
 * @n: packets in @skb
 * @hint: packets the caller expects, for the size of a new @skb
 * @sport: the UDP source port of the train's TP and destination
 * @v4: IPv4 (else IPv6)
 * @closed: the last packet is shorter than @seg: no more may follow
 * @nocheck: every packet has an ICRC (a lone IPv4 one goes without the
 *	UDP checksum)
 * @frags: the packets are page fragments of @skb
 *	(udma_uboe_batch_add_frag()), not copies in its head
 */
struct udma_uboe_batch {
	struct udma_dev *udev;
	/*
	 * the route cache of the TP whose packets are added next, or NULL:
	 * the caller sets it before udma_uboe_batch_add(); a train starts
	 * with the route it holds, and stores the one it looks up there
	 */
	struct dst_cache *route_cache;
	struct sk_buff *skb;
	struct dst_entry *route;
	union ubcore_eid dst;
	union ubcore_eid addr;
	union ubcore_eid saddr;
	u32 stpn;
	u32 dtpn;
	u32 seg;
	u32 n;
	u32 hint;
	__be16 sport;
	bool v4;
	bool closed;
	bool nocheck;
	bool frags;
};

/*
 * A walk over a received datagram's pieces at increasing offsets
 * (udma_skb_walk_to()): its head, page fragments, then each skb of its
 * frag_list, the same way.
 */
struct udma_skb_walk {
	const struct sk_buff *top;	/* the datagram */
	const struct sk_buff *skb;	/* the piece's skb */
	int frag;			/* -1: the head; else a page fragment */
	bool opaque;			/* the whole skb: not looked into */
	u32 start;			/* the piece's offsets in the datagram */
	u32 end;
};

/* uboe_net.c */
int udma_uboe_init(void);
void udma_uboe_exit(void);
int udma_wire_alloc(struct udma_dev *udev);
void udma_wire_free(struct udma_dev *udev);
int udma_wire_dev_add(struct udma_dev *udev);
void udma_wire_dev_del(struct udma_dev *udev);
void udma_wire_dev_put(struct udma_dev *udev);
u64 udma_wire_read(struct udma_dev *udev, unsigned int idx);
void udma_skb_walk_init(struct udma_skb_walk *w, const struct sk_buff *skb);
const u8 *udma_skb_walk_head(struct udma_skb_walk *w, u32 off, u32 len,
			     u32 *head_len);
const u8 *udma_skb_walk_to(struct udma_skb_walk *w, u32 off, u32 len);
void udma_wire_add(struct udma_dev *udev, unsigned int idx, u64 n);
void udma_wire_inc(struct udma_dev *udev, unsigned int idx);
int udma_uboe_xmit_cached(struct udma_dev *udev, const union ubcore_eid *dst,
			  const struct uboe_pkt *pkt, struct dst_cache *route);

/* One UBoE packet to an EID, its route looked up (udma_uboe_xmit_cached()). */
static inline int udma_uboe_xmit(struct udma_dev *udev,
				 const union ubcore_eid *dst,
				 const struct uboe_pkt *pkt)
{
	return udma_uboe_xmit_cached(udev, dst, pkt, NULL);
}

void udma_uboe_batch_init(struct udma_uboe_batch *b, struct udma_dev *udev,
			  u32 hint);
int udma_uboe_batch_add(struct udma_uboe_batch *b, const union ubcore_eid *dst,
			const struct uboe_pkt *pkt);
int udma_uboe_batch_add_pages(struct udma_uboe_batch *b,
			      const union ubcore_eid *dst,
			      const struct uboe_pkt *pkt,
			      const struct bio_vec *bv, u32 nr);
int udma_uboe_batch_add_frag(struct udma_uboe_batch *b,
			     const union ubcore_eid *dst,
			     const struct uboe_pkt *pkt, u32 headroom);
void udma_uboe_batch_flush(struct udma_uboe_batch *b);
extern const struct attribute_group udma_wire_group;

/* uboe_bench.c: the integrity checks' cost (debugfs) */
void udma_uboe_bench_init(void);
void udma_uboe_bench_exit(void);
void udma_debugfs_init(void);
struct dentry;
void udma_uboe_fault_init(struct dentry *dir);
void udma_debugfs_exit(void);

/* uboe_dispatch.c: where a received, decoded packet goes, by its class */
enum uboe_drop udma_uboe_rx_data(struct udma_dev *udev,
				 const struct uboe_pkt *pkt,
				 struct sk_buff *skb);
enum uboe_drop udma_uboe_rx_ack(struct udma_dev *udev,
				const struct uboe_pkt *pkt,
				struct sk_buff *skb);
enum uboe_drop udma_uboe_rx_mgmt(struct udma_dev *udev,
				 const struct uboe_pkt *pkt,
				 struct sk_buff *skb);

#endif /* _UDMA_UBOE_NET_H */
