// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * UBoE packet I/O: UB packets (include/uapi/ub/uboe_wire.h) in UDP over
 * IPv4 and IPv6.
 *
 * Each network namespace that has a udma device has two kernel UDP
 * sockets, IPv4 and IPv6 (v6only), bound to the uboe_port on every
 * address, created when its first device appears and released when its
 * last one goes (or the namespace does). They are plain UDP sockets with
 * UDP_GRO, not tunnel ones: the UDP layer segments every UDP GSO skb that
 * reaches an encap_rcv hook unless it is a tunnel's (udp_unexpected_gso()),
 * copying a train's payload into one new skb per packet. Here a train
 * (from a sender of this host, or merged by GRO off the wire) is queued
 * whole, and the namespace's receive tasklet takes its packets out of it
 * where they are. The tasklet (one at a time: a TP's packets are handled
 * in their order of arrival) validates every packet with uboe_decode(),
 * finds the device that owns the destination EID among the namespace's
 * devices and hands the packet to the dispatch point of its class
 * (uboe_dispatch.c). udma_uboe_xmit()
 * sends one packet to an EID: an EID is an IPv6 address, or an IPv4 one
 * mapped (::ffff:a.b.c.d, include/ub/ubcore_eid.h), so the packet goes to
 * that address, through its route and neighbour, from the device's
 * namespace and (unless it is a loopback device) out of its netdev.
 *
 * What the receive path counts, per device (sysfs wire/) or, when no
 * device can be charged, per namespace (/proc/net/udma_uboe):
 *  - a datagram that does not decode: its reason, on the device of the
 *    netdev it arrived on, else on the namespace;
 *  - one whose destination EID is on no device here: eid_not_here on the
 *    namespace, and on the device of the netdev it arrived on if any;
 *  - one delivered to a device: rx_packets, rx_bytes (and mgmt_rx for a
 *    management message) there, then the reason the dispatch point gives
 *    if it drops it (unknown_tpn while there is no TP table).
 * A datagram with a bad UDP checksum is dropped before, and counted as
 * UDP's recvmsg() counts it (Udp InCsumErrors and InErrors in
 * /proc/net/snmp and snmp6).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/device.h>
#include <linux/fault-inject.h>
#include <linux/highmem.h>
#include <linux/in.h>
#include <linux/interrupt.h>
#include <linux/in6.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/jhash.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/netdevice.h>
#include <linux/proc_fs.h>
#include <linux/rculist.h>
#include <linux/seq_file.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#include <linux/sysfs.h>
#include <linux/udp.h>
#include <kunit/visibility.h>
#include <net/dst_cache.h>
#include <net/ip.h>
#include <net/ip6_route.h>
#include <net/ipv6.h>
#include <net/ipv6_stubs.h>
#include <net/net_namespace.h>
#include <net/netns/generic.h>
#include <net/route.h>
#include <net/sock.h>
#include <net/udp.h>
#include <net/udp_tunnel.h>

#include "udma.h"

static ushort udma_uboe_port = UDMA_UBOE_PORT_DEFAULT;
module_param_named(uboe_port, udma_uboe_port, ushort, 0444);
MODULE_PARM_DESC(uboe_port,
		 "UDP port of UBoE, both ends, in every network namespace (default 4792; 4791 is RoCEv2's)");

static bool udma_uboe_icrc;
module_param_named(uboe_icrc, udma_uboe_icrc, bool, 0444);
MODULE_PARM_DESC(uboe_icrc,
		 "Send every UBoE packet with a CRC32C ICRC and drop those without one (default: no; the UDP checksum is the integrity check)");

static uint udma_uboe_train_pkts = 64;
module_param_named(uboe_train_pkts, udma_uboe_train_pkts, uint, 0644);
MODULE_PARM_DESC(uboe_train_pkts,
		 "UBoE packets of a message sent in one UDP GSO skb at most (default 64; 1: one skb a packet); read at each train");

static bool udma_uboe_force_wire;
module_param_named(force_wire, udma_uboe_force_wire, bool, 0644);
MODULE_PARM_DESC(force_wire,
		 "Send through UBoE even when the destination EID is on this host, so one host exercises the wire (default: no; read at each send)");

/**
 * udma_force_wire() - whether every destination goes through UBoE
 *
 * The module parameter force_wire; it may change at any time, so a caller
 * reads it once per message and keeps that answer for the message.
 *
 * Context: any.
 */
bool udma_force_wire(void)
{
	return READ_ONCE(udma_uboe_force_wire);
}

/**
 * udma_set_force_wire() - set force_wire, as writing the parameter does
 * @on: the new value
 *
 * Return: the old value. For KUnit suites that exercise the wire.
 */
bool udma_set_force_wire(bool on)
{
	return xchg(&udma_uboe_force_wire, on);
}
EXPORT_SYMBOL_IF_KUNIT(udma_set_force_wire);

/**
 * struct udma_net - udma in one network namespace
 * @lock: serialises the changes of @devs, @users, @sock4 and @sock6
 *	(process context: device add and removal, namespace exit)
 * @devs: the namespace's udma devices that receive (struct
 *	udma_wire.node); RCU list
 * @users: devices that may send: from udma_wire_dev_add() to
 *	udma_wire_dev_put(), which is after their unregistration (ubcore's
 *	connection manager tells the peers then); the sockets are open
 *	while there are any
 * @sock4: the IPv4 socket, or NULL; RCU (udma_uboe_xmit())
 * @sock6: the IPv6 socket, or NULL; RCU
 * @rx_tasklet: takes the sockets' datagrams (udma_uboe_rx_tasklet()),
 *	scheduled by their data_ready; killed at the namespace's exit
 * @stats: drops that no device can be charged for (enum udma_wire_cnt)
 *
 * In the namespace's net_generic() area, from the namespace's creation (or
 * module load) to its exit (or module unload).
 */
struct udma_net {
	struct mutex lock;		/* see above */
	struct list_head devs;
	unsigned int users;
	struct socket __rcu *sock4;
	struct socket __rcu *sock6;
	struct tasklet_struct rx_tasklet;
	struct udma_wire_stats __percpu *stats;
};

static unsigned int udma_net_id __read_mostly;

static struct udma_net *udma_net(struct net *net)
{
	return net_generic(net, udma_net_id);
}

static inline void udma_stats_add(struct udma_wire_stats __percpu *stats,
				  unsigned int idx, u64 n)
{
	this_cpu_add(stats->cnt[idx], n);
}

static u64 udma_stats_read(struct udma_wire_stats __percpu *stats,
			   unsigned int idx)
{
	u64 sum = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		sum += READ_ONCE(per_cpu_ptr(stats, cpu)->cnt[idx]);
	return sum;
}

/**
 * udma_wire_read() - the value of a counter of a device
 * @udev: the device
 * @idx: enum udma_wire_cnt, or an enum uboe_drop
 *
 * Any context. Per-CPU sums: a counter being added to meanwhile may be
 * read before or after the addition.
 *
 * Return: the counter's value; 0 for an index that is no counter.
 */
u64 udma_wire_read(struct udma_dev *udev, unsigned int idx)
{
	if (idx == UBOE_DROP_NONE || idx >= UDMA_WIRE_NR_CNT)
		return 0;
	return udma_stats_read(udev->wire.stats, idx);
}
EXPORT_SYMBOL_IF_KUNIT(udma_wire_read);

/**
 * udma_wire_add() - count @n events in a counter of a device
 * @udev: the device
 * @idx: enum udma_wire_cnt, or an enum uboe_drop other than UBOE_DROP_NONE
 * @n: how many
 *
 * Any context; no lock (per-CPU counters).
 */
void udma_wire_add(struct udma_dev *udev, unsigned int idx, u64 n)
{
	if (WARN_ON_ONCE(idx == UBOE_DROP_NONE || idx >= UDMA_WIRE_NR_CNT))
		return;
	udma_stats_add(udev->wire.stats, idx, n);
}

/**
 * udma_wire_inc() - count one event in a counter of a device
 * @udev: the device
 * @idx: as for udma_wire_add()
 */
void udma_wire_inc(struct udma_dev *udev, unsigned int idx)
{
	udma_wire_add(udev, idx, 1);
}

/* Receive ------------------------------------------------------------- */

/* The device that owns @eid in @unet; rcu_read_lock() held. */
static struct udma_dev *udma_wire_by_eid(struct udma_net *unet,
					 const union ubcore_eid *eid)
{
	struct udma_wire *w;

	list_for_each_entry_rcu(w, &unet->devs, node) {
		const struct udma_wire_eids *eids = rcu_dereference(w->eids);
		u32 i;

		for (i = 0; eids && i < eids->cnt; i++)
			if (!memcmp(eids->eid[i].raw, eid->raw, sizeof(eid->raw)))
				return container_of(w, struct udma_dev, wire);
	}
	return NULL;
}

/*
 * The device bound to the netdev of index @ifindex in @unet;
 * rcu_read_lock() held. (A queued datagram's skb->dev is the UDP
 * layer's scratch space: skb_iif says where it came in.)
 */
static struct udma_dev *udma_wire_by_ifindex(struct udma_net *unet,
					     int ifindex)
{
	struct udma_wire *w;

	list_for_each_entry_rcu(w, &unet->devs, node) {
		struct udma_dev *udev = container_of(w, struct udma_dev, wire);

		if (udev->netdev->ifindex == ifindex)
			return udev;
	}
	return NULL;
}

/* The destination EID of a packet without an EIDH: its IP destination. */
static void udma_skb_dst_eid(const struct sk_buff *skb, union ubcore_eid *eid)
{
	if (ip_hdr(skb)->version == 4)
		ubcore_eid_from_ipv4(eid, ip_hdr(skb)->daddr);
	else
		eid->ip6 = ipv6_hdr(skb)->daddr;
}

/* Hand a delivered packet to its class's dispatch point. */
static enum uboe_drop udma_uboe_dispatch(struct udma_dev *udev,
					 const struct uboe_pkt *pkt,
					 struct sk_buff *skb)
{
	/* (udma_uboe_rcv_pieces() let only such packets be scattered) */
	if (WARN_ON_ONCE(!pkt->payload && pkt->payload_len &&
			 !udma_uboe_payload_by_ref(pkt)))
		return UBOE_DROP_TRUNCATED;
	switch (pkt->tp_opcode) {
	case UBOE_TP_ACK:
	case UBOE_TP_NAK:
		return udma_uboe_rx_ack(udev, pkt, skb);
	case UBOE_TP_UTP_DATA:
		if (pkt->ta_opcode == UBOE_TA_MANAGEMENT) {
			udma_stats_add(udev->wire.stats, UDMA_WIRE_MGMT_RX, 1);
			return udma_uboe_rx_mgmt(udev, pkt, skb);
		}
		fallthrough;
	default:
		return udma_uboe_rx_data(udev, pkt, skb);
	}
}

/*
 * The decode flags of the datagrams of @sk: without a UDP checksum (IPv4
 * allows it), the ICRC must be there. (A CHECKSUM_PARTIAL datagram or
 * train of this host's holds the pseudo-header's sum there, never 0: the
 * protocol number is in it.)
 */
static u32 udma_uboe_dec_flags(const struct sock *sk, const struct sk_buff *skb)
{
	if (READ_ONCE(udma_uboe_icrc) ||
	    (sk->sk_family == AF_INET && !udp_hdr(skb)->check))
		return UBOE_DEC_NEED_ICRC;
	return 0;
}

/*
 * Decode the packet of @len bytes at @off of the datagram @w walks: in one
 * piece, or its headers in one and a payload that the target only copies
 * (udma_uboe_payload_by_ref()) in the pieces after; then the payload is
 * NULL and @pkt->payload_off its offset in the datagram.
 */
static enum uboe_drop udma_uboe_rcv_decode(struct udma_skb_walk *w, u32 off,
					   u32 len, u32 flags,
					   struct uboe_pkt *pkt)
{
	enum uboe_drop drop;
	const u8 *head;
	u32 head_len;

	head = udma_skb_walk_head(w, off, len, &head_len);
	if (!head)
		return UBOE_DROP_TRUNCATED;
	drop = uboe_decode_head(head, head_len, len, flags, pkt);
	if (drop || pkt->payload || !pkt->payload_len)
		return drop;
	if (!udma_uboe_payload_by_ref(pkt))
		return UBOE_DROP_TRUNCATED;
	pkt->payload_off += off;
	return UBOE_DROP_NONE;
}

/*
 * The UBoE packet of @len bytes at @off in @skb (a datagram, or a segment
 * of a train, walked by @w), which came in on @ingress (or NULL). Return:
 * it went to a device's dispatch point, which holds @skb if it needs it.
 */
static bool udma_uboe_rcv_pkt(struct udma_net *unet, struct sk_buff *skb,
			      struct udma_dev *ingress, struct udma_skb_walk *w,
			      u32 off, u32 len, u32 flags)
{
	struct udma_dev *udev;
	union ubcore_eid dst;
	struct uboe_pkt pkt;
	enum uboe_drop drop;

	drop = udma_uboe_rcv_decode(w, off, len, flags, &pkt);
	if (drop) {
		udma_stats_add(ingress ? ingress->wire.stats : unet->stats,
			       drop, 1);
		return false;
	}

	if (pkt.has_eid)
		dst = pkt.dst_eid;
	else
		udma_skb_dst_eid(skb, &dst);
	udev = udma_wire_by_eid(unet, &dst);
	if (!udev) {
		udma_stats_add(unet->stats, UBOE_DROP_EID_NOT_HERE, 1);
		if (ingress)
			udma_stats_add(ingress->wire.stats,
				       UBOE_DROP_EID_NOT_HERE, 1);
		return false;
	}

	udma_stats_add(udev->wire.stats, UDMA_WIRE_RX_PACKETS, 1);
	udma_stats_add(udev->wire.stats, UDMA_WIRE_RX_BYTES, len);
	if (!pkt.payload && pkt.payload_len)
		udma_stats_add(udev->wire.stats, UDMA_WIRE_RX_SCATTERED, 1);
	drop = udma_uboe_dispatch(udev, &pkt, skb);
	if (drop) {
		udma_stats_add(udev->wire.stats, drop, 1);
		return false;
	}
	return true;
}

/* Add @n to UDP's counter @field of @sk's family, as UDP's recvmsg(). */
static void udma_uboe_udp_mib(struct sock *sk, int field, u32 n)
{
	struct net *net = sock_net(sk);

	if (sk->sk_family == AF_INET)
		__SNMP_ADD_STATS(net->mib.udp_statistics, field, n);
#if IS_ENABLED(CONFIG_IPV6)
	else
		__SNMP_ADD_STATS(net->mib.udp_stats_in6, field, n);
#endif
}

/* Step @w to the datagram's next piece: false past its end. */
static bool udma_skb_walk_step(struct udma_skb_walk *w)
{
	const struct sk_buff *skb = w->skb;

	w->start = w->end;
	if (!w->opaque && ++w->frag < skb_shinfo(skb)->nr_frags) {
		w->end += skb_frag_size(&skb_shinfo(skb)->frags[w->frag]);
		return true;
	}
	skb = skb == w->top ? skb_shinfo(skb)->frag_list : skb->next;
	if (!skb)
		return false;
	w->skb = skb;
	w->frag = -1;
	/* a frag_list skb with a frag_list of its own is not looked into */
	w->opaque = skb_has_frag_list(skb);
	w->end += w->opaque ? skb->len : skb_headlen(skb);
	return true;
}

/**
 * udma_skb_walk_init() - start a walk over a received datagram's pieces
 * @w: the walk
 * @skb: the datagram, @skb->data at its UDP payload
 */
void udma_skb_walk_init(struct udma_skb_walk *w, const struct sk_buff *skb)
{
	w->top = skb;
	w->skb = skb;
	w->frag = -1;
	w->opaque = false;
	w->start = 0;
	w->end = skb_headlen(skb);
}
EXPORT_SYMBOL_IF_KUNIT(udma_skb_walk_init);

/**
 * udma_skb_walk_head() - where a packet of a received datagram starts
 * @w: a walk over the datagram, at no packet beyond this one
 * @off: the packet's offset in the payload
 * @len: its length; @off + @len at most the datagram's length
 * @head_len: out: the packet's bytes from there in that piece, 1 .. @len
 *	(@len for an empty packet)
 *
 * A train that GRO merged off the wire keeps every datagram's payload
 * where the NIC put it: one page fragment each, or one skb each of the
 * frag_list. So a packet is usually in one piece, and decoded there; a
 * train of this host's sender may carry a payload in the pages it was
 * sent from, after its headers (udma_uboe_batch_add_pages()). The walk
 * moves forward only: a train's packets cost one pass over its pieces,
 * not one each.
 *
 * Return: the packet's first byte, or NULL when it sits in a high memory
 * page or in a piece not looked into (the datagram must be linearised)
 * or lies beyond the datagram.
 */
const u8 *udma_skb_walk_head(struct udma_skb_walk *w, u32 off, u32 len,
			     u32 *head_len)
{
	const u8 *base;

	/* (an empty packet at a piece's end is found there) */
	while (off > w->end || (off == w->end && len))
		if (!udma_skb_walk_step(w))
			return NULL;
	if (off < w->start || w->opaque)
		return NULL;
	*head_len = min(len, w->end - off);
	if (w->frag < 0)
		return w->skb->data + (off - w->start);
	base = skb_frag_address_safe(&skb_shinfo(w->skb)->frags[w->frag]);
	return base ? base + (off - w->start) : NULL;
}
EXPORT_SYMBOL_IF_KUNIT(udma_skb_walk_head);

/**
 * udma_skb_walk_to() - where a packet of a received datagram is, if in one piece
 * @w: a walk over the datagram, at no packet beyond this one
 * @off: the packet's offset in the payload
 * @len: its length; @off + @len at most the datagram's length
 *
 * See udma_skb_walk_head().
 *
 * Return: the packet's first byte, or NULL when it straddles two pieces,
 * sits in a high memory page (the datagram must be linearised) or lies
 * beyond the datagram.
 */
const u8 *udma_skb_walk_to(struct udma_skb_walk *w, u32 off, u32 len)
{
	const u8 *head;
	u32 head_len;

	head = udma_skb_walk_head(w, off, len, &head_len);
	return head && head_len == len ? head : NULL;
}
EXPORT_SYMBOL_IF_KUNIT(udma_skb_walk_to);

/*
 * Is every @seg bytes of @skb in one piece, or decodable where it is
 * (udma_uboe_rcv_decode())? Else linearise it.
 */
static int udma_uboe_rcv_pieces(struct udma_dev *ingress, struct sk_buff *skb,
				u32 seg, u32 flags)
{
	struct udma_skb_walk w;
	struct uboe_pkt pkt;
	u32 off = 0, len;

	if (!skb_is_nonlinear(skb))
		return 0;
	udma_skb_walk_init(&w, skb);
	do {
		len = min(seg, skb->len - off);
		if (!udma_skb_walk_to(&w, off, len) &&
		    udma_uboe_rcv_decode(&w, off, len, flags, &pkt))
			goto linearize;
		off += len;
	} while (seg && off < skb->len);
	return 0;
linearize:
	if (ingress)
		udma_stats_add(ingress->wire.stats, UDMA_WIRE_RX_LINEARIZED, 1);
	return skb_linearize(skb);
}

/*
 * A datagram taken off @sk, @skb->data at its UDP payload: one UBoE
 * packet, or a train of them (a UDP GSO skb: every segment a packet of
 * gso_size bytes, the last one shorter or not), each decoded in place.
 * Softirq, rcu_read_lock() held. Consumes @skb.
 */
static void udma_uboe_rcv(struct udma_net *unet, struct sock *sk,
			  struct sk_buff *skb)
{
	bool csum_ok = udp_skb_csum_unnecessary(skb) ||
		       !__udp_lib_checksum_complete(skb);
	u32 off = 0, seg, segs, flags = udma_uboe_dec_flags(sk, skb);
	struct udma_skb_walk walk;
	struct udma_dev *ingress;
	bool taken = false;

	/* skb->dev held the UDP layer's scratch space since the queue */
	skb->dev = NULL;
	if (!csum_ok) {
		udma_uboe_udp_mib(sk, UDP_MIB_CSUMERRORS, 1);
		udma_uboe_udp_mib(sk, UDP_MIB_INERRORS, 1);
		goto free;
	}
	if (skb_is_gso(skb)) {
		seg = skb_shinfo(skb)->gso_size;
		segs = skb_shinfo(skb)->gso_segs;
	} else {
		seg = skb->len;
		segs = 1;
	}
	ingress = udma_wire_by_ifindex(unet, skb->skb_iif);
	if (udma_uboe_rcv_pieces(ingress, skb, seg, flags)) {
		udma_uboe_udp_mib(sk, UDP_MIB_INERRORS, 1);
		goto free;
	}
	if (seg < skb->len && ingress)
		udma_stats_add(ingress->wire.stats, UDMA_WIRE_RX_TRAINS, 1);
	/* (an empty datagram is decoded too: a truncated packet) */
	udma_skb_walk_init(&walk, skb);
	do {
		u32 len = min(seg, skb->len - off);

		taken |= udma_uboe_rcv_pkt(unet, skb, ingress, &walk, off, len,
					   flags);
		off += len;
	} while (seg && off < skb->len);
	/*
	 * received: one datagram a packet, as if the train were segmented;
	 * counted once udma counted their fates, as UDP's recvmsg() counts
	 * a datagram once it is taken
	 */
	udma_uboe_udp_mib(sk, UDP_MIB_INDATAGRAMS, segs);
	if (taken) {
		consume_skb(skb);
		return;
	}
free:
	kfree_skb(skb);
}

/* Datagrams of a socket the receive tasklet takes per run, at most. */
#define UDMA_UBOE_RX_BUDGET	64

/* Take @sock's datagrams (none if NULL), a budget's: were there more? */
static bool udma_uboe_drain(struct udma_net *unet, struct socket *sock)
{
	struct sk_buff *skb;
	int n, off, err;

	if (!sock)
		return false;
	for (n = 0; n < UDMA_UBOE_RX_BUDGET; n++) {
		off = 0;
		skb = __skb_recv_udp(sock->sk, MSG_DONTWAIT, &off, &err);
		if (!skb) {
			/* a socket error (ICMP) is reported once: go on */
			if (err == -EAGAIN)
				return false;
			continue;
		}
		udma_uboe_rcv(unet, sock->sk, skb);
	}
	return true;
}

/*
 * The namespace's receive tasklet: the datagrams of both sockets, a
 * budget of each per run, then again later if there are more (as a NAPI
 * poll: ksoftirqd takes over from a softirq that stays busy).
 */
static void udma_uboe_rx_tasklet(struct tasklet_struct *t)
{
	struct udma_net *unet = from_tasklet(unet, t, rx_tasklet);
	bool more;

	rcu_read_lock();
	more = udma_uboe_drain(unet, rcu_dereference(unet->sock4));
	more |= udma_uboe_drain(unet, rcu_dereference(unet->sock6));
	rcu_read_unlock();
	if (more)
		tasklet_schedule(t);
}

/* data_ready of both sockets: a datagram was queued (softirq). */
static void udma_uboe_data_ready(struct sock *sk)
{
	struct udma_net *unet;

	rcu_read_lock();
	unet = rcu_dereference_sk_user_data(sk);
	if (unet)
		tasklet_schedule(&unet->rx_tasklet);
	rcu_read_unlock();
}

/* Sockets ------------------------------------------------------------- */

/*
 * A UBoE socket's receive queue holds what arrives before the tasklet
 * runs, normally at the end of the same softirq: a NAPI poll's worth of
 * trains (64 of 64 KiB, twice that in truesize), with room to spare.
 * Beyond it the UDP layer drops (RcvbufErrors), and the senders'
 * transports send again. (The kernel doubles it, as for SO_RCVBUF.)
 */
#define UDMA_UBOE_RCVBUF	(16 << 20)

static int udma_sock_create(struct net *net, struct udma_net *unet,
			    sa_family_t family, struct socket **sockp)
{
	struct udp_port_cfg cfg = {
		.family = family,
		.local_udp_port = htons(udma_uboe_port),
		.use_udp_checksums = 1,
		.use_udp6_tx_checksums = 1,
		.use_udp6_rx_checksums = 1,
		.ipv6_v6only = 1,
	};
	struct socket *sock;
	int one = 1, ret;
	struct sock *sk;

	if (family == AF_INET)
		cfg.local_ip.s_addr = htonl(INADDR_ANY);
	else
		cfg.local_ip6 = in6addr_any;
	ret = udp_sock_create(net, &cfg, &sock);
	if (ret) {
		pr_err("cannot open the UBoE socket (IPv%d, UDP port %u): %d\n",
		       family == AF_INET ? 4 : 6, udma_uboe_port, ret);
		return ret;
	}
	sk = sock->sk;
	/* trains whole, and GRO of what comes off the wire */
	ret = sock->ops->setsockopt(sock, SOL_UDP, UDP_GRO,
				    KERNEL_SOCKPTR(&one), sizeof(one));
	if (ret) {
		pr_err("cannot set UDP_GRO on the UBoE socket: %d\n", ret);
		udp_tunnel_sock_release(sock);
		return ret;
	}
	sock_set_rcvbuf(sk, UDMA_UBOE_RCVBUF);
	write_lock_bh(&sk->sk_callback_lock);
	rcu_assign_sk_user_data(sk, unet);
	sk->sk_data_ready = udma_uboe_data_ready;
	write_unlock_bh(&sk->sk_callback_lock);
	*sockp = sock;
	return 0;
}

/* Open @unet's sockets; @unet->lock held, none open. */
static int udma_net_open(struct net *net, struct udma_net *unet)
{
	struct socket *s4, *s6;
	int ret;

	lockdep_assert_held(&unet->lock);
	ret = udma_sock_create(net, unet, AF_INET, &s4);
	if (ret)
		return ret;
	ret = udma_sock_create(net, unet, AF_INET6, &s6);
	if (ret) {
		udp_tunnel_sock_release(s4);
		return ret;
	}
	rcu_assign_pointer(unet->sock4, s4);
	rcu_assign_pointer(unet->sock6, s6);
	/* what arrived between a bind and its socket's data_ready */
	tasklet_schedule(&unet->rx_tasklet);
	return 0;
}

/*
 * Close @unet's sockets, if open; @unet->lock held. A sender that loaded
 * a pointer under rcu_read_lock() is done with it after the grace period
 * that udp_tunnel_sock_release() waits for (after it clears the sockets'
 * user data); so are data_ready and the receive tasklet, which find
 * neither the sockets nor the namespace afterwards.
 */
static void udma_net_close(struct udma_net *unet)
{
	struct socket *s4 = rcu_replace_pointer(unet->sock4, NULL,
						lockdep_is_held(&unet->lock));
	struct socket *s6 = rcu_replace_pointer(unet->sock6, NULL,
						lockdep_is_held(&unet->lock));

	if (s4)
		udp_tunnel_sock_release(s4);
	if (s6)
		udp_tunnel_sock_release(s6);
}

/* Devices ------------------------------------------------------------- */

/* Copy the device's EID table into wire.eids (process context). */
static void udma_wire_eid_work(struct work_struct *work)
{
	struct udma_dev *udev = container_of(work, struct udma_dev,
					     wire.eid_work);
	struct udma_wire_eids *eids, *old;
	union ubcore_eid eid;
	u32 i;

	eids = kzalloc(struct_size(eids, eid, UBCORE_MAX_EID_CNT), GFP_KERNEL);
	if (!eids) {
		/* keep the old copy; the next change or a retry fixes it */
		dev_warn_ratelimited(&udev->ub_dev.dev,
				     "no memory for the UBoE EID index, retrying\n");
		queue_work(system_wq, work);
		return;
	}
	for (i = 0; i < UBCORE_MAX_EID_CNT; i++)
		if (!ubcore_get_eid(&udev->ub_dev, i, &eid))
			eids->eid[eids->cnt++] = eid;
	/* only this work writes the pointer, and it never runs twice at once */
	old = rcu_replace_pointer(udev->wire.eids, eids, true);
	if (old)
		kfree_rcu(old, rcu);
}

/* ubcore's async events of the device: any context, under its lock. */
static void udma_wire_event(struct ubcore_event_handler *handler,
			    const struct ubcore_event *event)
{
	struct udma_dev *udev = container_of(handler, struct udma_dev,
					     wire.eid_handler);

	if (event->type == UBCORE_EVENT_EID_CHANGE)
		queue_work(system_wq, &udev->wire.eid_work);
}

/**
 * udma_wire_alloc() - set up the wire part of a new device
 * @udev: the device, being allocated
 *
 * Return: 0 or -ENOMEM.
 */
int udma_wire_alloc(struct udma_dev *udev)
{
	struct udma_wire *w = &udev->wire;

	INIT_LIST_HEAD(&w->node);
	INIT_WORK(&w->eid_work, udma_wire_eid_work);
	w->eid_handler.event_handler = udma_wire_event;
	w->stats = alloc_percpu(struct udma_wire_stats);
	return w->stats ? 0 : -ENOMEM;
}

/**
 * udma_wire_free() - free what udma_wire_alloc() allocated
 * @udev: the device, being released (udma_wire_dev_del() has run if
 *	udma_wire_dev_add() had)
 */
void udma_wire_free(struct udma_dev *udev)
{
	WARN_ON(udev->wire.on_list);
	kfree(rcu_dereference_protected(udev->wire.eids, true));
	free_percpu(udev->wire.stats);
}

/**
 * udma_wire_dev_add() - a registered device joins UBoE in its namespace
 * @udev: the device
 *
 * Opens the namespace's sockets if it is the first device there. Process
 * context; sleeps.
 *
 * Return: 0, or the error of opening a socket (e.g. -EADDRINUSE when the
 * port is taken in that namespace).
 */
int udma_wire_dev_add(struct udma_dev *udev)
{
	struct net *net = ubcore_dev_host_net(&udev->ub_dev);
	struct udma_net *unet = udma_net(net);
	int ret = 0;

	mutex_lock(&unet->lock);
	if (!unet->users)
		ret = udma_net_open(net, unet);
	if (!ret) {
		unet->users++;
		list_add_tail_rcu(&udev->wire.node, &unet->devs);
		udev->wire.on_list = true;
	}
	mutex_unlock(&unet->lock);
	if (ret)
		return ret;
	ubcore_register_event_handler(&udev->ub_dev, &udev->wire.eid_handler);
	/* the EIDs it had before the handler was there */
	queue_work(system_wq, &udev->wire.eid_work);
	return 0;
}

/**
 * udma_wire_dev_del() - a device stops receiving, before it is unregistered
 * @udev: a device udma_wire_dev_add() succeeded for
 *
 * After it returns, no receive path and no dispatch point uses @udev. It
 * may still send (the DCONN_NOTIFYs of its unregistration) until
 * udma_wire_dev_put(). Process context; sleeps.
 */
void udma_wire_dev_del(struct udma_dev *udev)
{
	struct udma_net *unet = udma_net(ubcore_dev_host_net(&udev->ub_dev));

	ubcore_unregister_event_handler(&udev->ub_dev, &udev->wire.eid_handler);
	cancel_work_sync(&udev->wire.eid_work);
	mutex_lock(&unet->lock);
	list_del_rcu(&udev->wire.node);
	udev->wire.on_list = false;
	synchronize_rcu();
	mutex_unlock(&unet->lock);
}

/**
 * udma_wire_dev_put() - a device leaves UBoE, after its unregistration
 * @udev: a device udma_wire_dev_del() ran for
 *
 * The namespace's sockets are closed if it was the last device there.
 * Process context; sleeps.
 */
void udma_wire_dev_put(struct udma_dev *udev)
{
	struct udma_net *unet = udma_net(ubcore_dev_host_net(&udev->ub_dev));

	mutex_lock(&unet->lock);
	if (!WARN_ON(!unet->users) && !--unet->users)
		udma_net_close(unet);	/* waits for an RCU grace period */
	mutex_unlock(&unet->lock);
}

/* Transmit ------------------------------------------------------------ */

/* Room in front of the UBoE packet: link layer, IPv6 (the larger), UDP. */
#define UDMA_UBOE_HEADROOM	(LL_MAX_HEADER + sizeof(struct ipv6hdr) + \
				 sizeof(struct udphdr))

/*
 * A train's UDP payload at most: its IP packet (before segmentation) must
 * fit the 16-bit length fields of IPv4 and IPv6 with room to spare.
 */
#define UDMA_UBOE_TRAIN_MAX	(SZ_64K - SZ_1K)

/* The output interface to route by: none for a loopback device. */
static int udma_xmit_oif(const struct udma_dev *udev)
{
	return udev->netdev->flags & IFF_LOOPBACK ? 0 : udev->netdev->ifindex;
}

#ifdef CONFIG_FAULT_INJECTION
/*
 * Fault injection, the kernel's (Documentation/fault-injection): the
 * responses of reliable TPs (RTP_DATA with an ATAH) that
 * /sys/kernel/debug/udma/fail_rtp_response/ selects are lost as on the
 * wire: udma_uboe_xmit() counts them sent and sends nothing. The
 * responder's transport then retransmits them, and fails when every copy
 * is lost, while its peer's requests still arrive and are ACKed: the one
 * way a TP fails at one end only (tests/guest/cases/udma-rtp-fail.sh).
 */
static DECLARE_FAULT_ATTR(udma_fail_rtp_response);

static bool udma_uboe_fault(const struct uboe_pkt *pkt)
{
	return pkt->tp_opcode == UBOE_TP_RTP_DATA &&
	       uboe_ta_is_response(pkt->ta_opcode) &&
	       should_fail(&udma_fail_rtp_response, 1);
}

/**
 * udma_uboe_fault_init() - the fault point's debugfs directory
 * @dir: /sys/kernel/debug/udma/
 */
void udma_uboe_fault_init(struct dentry *dir)
{
#ifdef CONFIG_FAULT_INJECTION_DEBUG_FS
	fault_create_debugfs_attr("fail_rtp_response", dir,
				  &udma_fail_rtp_response);
#endif
}
#else
static bool udma_uboe_fault(const struct uboe_pkt *pkt)
{
	return false;
}

void udma_uboe_fault_init(struct dentry *dir)
{
}
#endif

/**
 * udma_uboe_batch_init() - an empty train
 * @b: the train
 * @udev: the sending device
 * @hint: packets the caller expects to add before the next flush (1 or
 *	more): the first skb is sized for that many, within
 *	UDMA_UBOE_TRAIN_MAX
 */
void udma_uboe_batch_init(struct udma_uboe_batch *b, struct udma_dev *udev,
			  u32 hint)
{
	memset(b, 0, sizeof(*b));
	b->udev = udev;
	b->hint = max(hint, 1U);
}
EXPORT_SYMBOL_IF_KUNIT(udma_uboe_batch_init);

/*
 * An skb of @size bytes of head. Up to 32 KiB the head is a page fragment
 * (build_skb()): with init_on_alloc (Debian's default) a kmalloc'd head
 * of a 4 KiB datagram is zeroed whole by its 8 KiB slab object, where a
 * fragment's page is zeroed once for all the heads carved out of it.
 * (__netdev_alloc_skb() takes a fragment only up to one page: a 4 KiB
 * datagram's head would be kmalloc'd there.) A fragment is always taken
 * GFP_ATOMIC; @gfp is for a kmalloc'd head.
 */
static struct sk_buff *udma_uboe_alloc_skb(u32 size, gfp_t gfp)
{
	u32 fragsz = SKB_DATA_ALIGN(size) +
		     SKB_DATA_ALIGN(sizeof(struct skb_shared_info));
	struct sk_buff *skb;
	void *data;

	if (fragsz <= PAGE_FRAG_CACHE_MAX_SIZE) {
		data = netdev_alloc_frag(fragsz);
		if (data) {
			skb = build_skb(data, fragsz);
			if (skb)
				return skb;
			skb_free_frag(data);
		}
	}
	return alloc_skb(size, gfp);
}

/* A new skb for a train whose first packet has @len bytes, and its port. */
static int udma_batch_skb(struct udma_uboe_batch *b, struct net *net,
			  const union ubcore_eid *dst, u32 dtpn, u32 len)
{
	/* room for the packets the caller expects, one at least */
	u32 cap = b->frags ? 0 :
		  len * clamp_t(u32, min(b->hint,
					 READ_ONCE(udma_uboe_train_pkts)), 1,
				max_t(u32, UDMA_UBOE_TRAIN_MAX / len, 1));

	b->skb = udma_uboe_alloc_skb(UDMA_UBOE_HEADROOM + cap,
				     GFP_ATOMIC | __GFP_NOWARN);
	if (!b->skb && cap > len)
		b->skb = udma_uboe_alloc_skb(UDMA_UBOE_HEADROOM + len,
					     GFP_ATOMIC);
	if (!b->skb)
		return -ENOMEM;
	skb_reserve(b->skb, UDMA_UBOE_HEADROOM);
	/* one UDP source port per TP and peer: ECMP keeps a TP on one path */
	skb_set_hash(b->skb, jhash_2words(dtpn, jhash(dst->raw,
						      sizeof(dst->raw), 0), 0),
		     PKT_HASH_TYPE_L4);
	b->sport = udp_flow_src_port(net, b->skb, 0, 0, true);
	return 0;
}

/*
 * The route @cache holds for the train, as UDP tunnels keep theirs: the
 * kernel's dst_cache drops a route the routing tables have changed under
 * (an IPv6 route's cookie, the IPv4 tables' generation) or that is older
 * than the cache's last reset. One of another namespace is not taken
 * either (the device moved). rcu_read_lock() held.
 */
static bool udma_batch_cached_route(struct udma_uboe_batch *b,
				    struct net *net, struct dst_cache *cache)
{
	struct dst_entry *d;
	struct rtable *rt;
	__be32 saddr4;

	local_bh_disable();	/* the cache is per CPU, softirqs use it */
	if (b->v4) {
		rt = dst_cache_get_ip4(cache, &saddr4);
		d = rt ? &rt->dst : NULL;
	} else {
		d = dst_cache_get_ip6(cache, &b->saddr.ip6);
	}
	local_bh_enable();
	if (!d)
		return false;
	if (!net_eq(dev_net(d->dev), net)) {
		dst_release(d);
		return false;
	}
	if (b->v4)
		ubcore_eid_from_ipv4(&b->saddr, saddr4);
	b->route = d;
	return true;
}

/* Look the route of a train to @b->addr up, from @oif. RCU held. */
static int udma_batch_lookup_route(struct udma_uboe_batch *b, struct net *net,
				   struct socket *sock, int oif)
{
	udma_stats_add(b->udev->wire.stats, UDMA_WIRE_TX_ROUTE_LOOKUPS, 1);
	if (b->v4) {
		struct flowi4 fl4 = {
			.daddr = b->addr.in4.addr,
			.flowi4_oif = oif,
			.flowi4_proto = IPPROTO_UDP,
			.fl4_sport = b->sport,
			.fl4_dport = htons(udma_uboe_port),
		};
		struct rtable *rt = ip_route_output_key(net, &fl4);

		if (IS_ERR(rt))
			return PTR_ERR(rt);
		b->route = &rt->dst;
		ubcore_eid_from_ipv4(&b->saddr, fl4.saddr);
	} else {
		struct flowi6 fl6 = {
			.daddr = b->addr.ip6,
			.flowi6_oif = oif,
			.flowi6_proto = IPPROTO_UDP,
			.fl6_sport = b->sport,
			.fl6_dport = htons(udma_uboe_port),
		};
		struct dst_entry *d;

		if (!ipv6_mod_enabled())
			return -EAFNOSUPPORT;
		d = ipv6_stub->ipv6_dst_lookup_flow(net, sock->sk, &fl6, NULL);
		if (IS_ERR(d))
			return PTR_ERR(d);
		b->route = d;
		b->saddr.ip6 = fl6.saddr;
	}
	return 0;
}

/*
 * The route of a train to @b->addr, from @oif: @cache's, or looked up
 * and stored in @cache (when not NULL). rcu_read_lock() held.
 */
static int udma_batch_route(struct udma_uboe_batch *b, struct net *net,
			    struct socket *sock, int oif,
			    struct dst_cache *cache)
{
	int ret;

	if (cache && udma_batch_cached_route(b, net, cache))
		return 0;
	ret = udma_batch_lookup_route(b, net, sock, oif);
	if (ret || !cache)
		return ret;
	local_bh_disable();
	if (b->v4)
		dst_cache_set_ip4(cache, b->route, b->saddr.in4.addr);
	else
		dst_cache_set_ip6(cache, b->route, &b->saddr.ip6);
	local_bh_enable();
	return 0;
}

/* Start a train to @dst with a first packet like @p of @len bytes. */
static int udma_batch_start(struct udma_uboe_batch *b,
			    const union ubcore_eid *dst,
			    const struct uboe_pkt *p, u32 len)
{
	struct udma_dev *udev = b->udev;
	struct net *net = ubcore_dev_host_net(&udev->ub_dev);
	struct udma_net *unet = udma_net(net);
	/* a bond's route follows its members: looked up every time */
	struct dst_cache *cache = udev->bond ? NULL : b->route_cache;
	int oif = udma_xmit_oif(udev);
	struct socket *sock;
	u32 ip_len;
	int ret;

	ret = udma_batch_skb(b, net, dst, p->dtpn, len);
	if (ret)
		return ret;
	b->addr = *dst;
	rcu_read_lock();
	/* a bonding device: a member's address, the EIDs say where to */
	if (udev->bond)
		ret = p->has_eid ? udma_bond_route(udev, p->stpn, dst,
						    &b->addr, &oif) : -EINVAL;
	b->v4 = ubcore_eid_is_ipv4(&b->addr);
	sock = b->v4 ? rcu_dereference(unet->sock4) :
		       rcu_dereference(unet->sock6);
	if (!ret && !sock)
		ret = -ENETDOWN;
	if (!ret)
		ret = udma_batch_route(b, net, sock, oif, cache);
	rcu_read_unlock();
	if (ret)
		goto free;
	ip_len = (b->v4 ? sizeof(struct iphdr) : sizeof(struct ipv6hdr)) +
		 sizeof(struct udphdr);
	if (len + ip_len > dst_mtu(b->route)) {
		ret = -EMSGSIZE;
		goto put;
	}
	b->dst = *dst;
	b->stpn = p->stpn;
	b->dtpn = p->dtpn;
	b->seg = len;
	b->nocheck = p->icrc;
	return 0;

put:
	dst_release(b->route);
	b->route = NULL;
free:
	kfree_skb(b->skb);
	b->skb = NULL;
	return ret;
}

/* May a packet of @len bytes like @p, in @nfrags fragments, join the train? */
static bool udma_batch_fits(const struct udma_uboe_batch *b,
			    const union ubcore_eid *dst,
			    const struct uboe_pkt *p, u32 len, u32 nfrags)
{
	return !b->closed && b->n < READ_ONCE(udma_uboe_train_pkts) &&
	       len <= b->seg &&
	       (b->frags ? skb_shinfo(b->skb)->nr_frags + nfrags <=
			   MAX_SKB_FRAGS :
			   len <= skb_tailroom(b->skb)) &&
	       b->skb->len + len <= UDMA_UBOE_TRAIN_MAX &&
	       p->stpn == b->stpn && p->dtpn == b->dtpn &&
	       !memcmp(dst->raw, b->dst.raw, sizeof(dst->raw));
}

/* Count the error of a packet not sent. */
static int udma_uboe_tx_err(struct udma_dev *udev, int ret)
{
	udma_stats_add(udev->wire.stats, UDMA_WIRE_TX_ERRORS, 1);
	net_dbg_ratelimited("%s: cannot send a UBoE packet: %d\n",
			    udev->ub_dev.dev_name, ret);
	return ret;
}

/*
 * Make room in @b for a packet like @p of @len bytes, in @nfrags page
 * fragments (a train of fragments) or in the head (0): flush it if the
 * packet cannot join, start one if there is none. Return: 0, 1 when
 * fault injection dropped the packet (counted as sent), or the error
 * (counted).
 */
static int udma_batch_open(struct udma_uboe_batch *b,
			   const union ubcore_eid *dst,
			   const struct uboe_pkt *p, u32 len, u32 nfrags)
{
	bool frags = nfrags;
	int ret;

	if (len > UBOE_MAX_PKT || nfrags > MAX_SKB_FRAGS)
		return udma_uboe_tx_err(b->udev, -EMSGSIZE);
	if (b->skb && (b->frags != frags ||
		       !udma_batch_fits(b, dst, p, len, nfrags)))
		udma_uboe_batch_flush(b);
	if (udma_uboe_fault(p)) {
		udma_stats_add(b->udev->wire.stats, UDMA_WIRE_TX_FAULT_DROPS, 1);
		udma_stats_add(b->udev->wire.stats, UDMA_WIRE_TX_PACKETS, 1);
		udma_stats_add(b->udev->wire.stats, UDMA_WIRE_TX_BYTES, len);
		return 1;
	}
	if (b->skb)
		return 0;
	/* the kind of the train to start (its head's size); none if it fails */
	b->frags = frags;
	ret = udma_batch_start(b, dst, p, len);
	return ret ? udma_uboe_tx_err(b->udev, ret) : 0;
}

/* Add @len bytes at @off of @page to @b's skb, whose reference it takes. */
static void udma_batch_add_frag(struct udma_uboe_batch *b, struct page *page,
				u32 off, u32 len)
{
	skb_add_rx_frag(b->skb, skb_shinfo(b->skb)->nr_frags, page, off, len,
			len);
}

/* A packet of @len bytes joined @b. */
static void udma_batch_added(struct udma_uboe_batch *b,
			     const struct uboe_pkt *p, u32 len)
{
	b->n++;
	b->nocheck = b->nocheck && p->icrc;
	b->closed = len < b->seg;
}

/**
 * udma_uboe_batch_add() - add a UBoE packet to a train
 * @b: the train (udma_uboe_batch_init())
 * @dst: the destination EID: its IPv6 address, or the IPv4 address it
 *	maps (::ffff:a.b.c.d); a bonding device sends through the member
 *	udma_bond_route() chooses, to the peer's address there
 * @pkt: the packet, as uboe_encode() takes it; when the module parameter
 *	uboe_icrc is set the packet gets an ICRC whatever @pkt->icrc says
 *
 * The packet is encoded at the end of the train, which leaves as one UDP
 * GSO skb at udma_uboe_batch_flush(): every packet its own UDP datagram
 * on the wire, the IP layer's work done once for all. A packet that
 * cannot join the train (another TP or destination, larger than its
 * first, or the train full) flushes it first; one shorter than the first
 * ends it. The packet is not segmented: it must fit the route's MTU with
 * its IP and UDP headers.
 *
 * Context: any (process, softirq); does not sleep.
 *
 * Return: 0; -EINVAL when @pkt is not a valid packet (uboe_encode()),
 * -EMSGSIZE when it is larger than UBOE_MAX_PKT or than the path's MTU,
 * -ENOMEM, -ENETDOWN when the device has left its namespace's UBoE (it
 * is being removed), or the routing error (-ENETUNREACH, -EHOSTUNREACH,
 * -EAFNOSUPPORT without IPv6, ...). The packets added before are not
 * affected.
 */
int udma_uboe_batch_add(struct udma_uboe_batch *b, const union ubcore_eid *dst,
			const struct uboe_pkt *pkt)
{
	struct uboe_pkt p = *pkt;
	int len, ret;

	p.icrc = p.icrc || READ_ONCE(udma_uboe_icrc);
	len = uboe_pkt_len(&p, uboe_hdr_len(&p));
	ret = udma_batch_open(b, dst, &p, len, 0);
	if (ret)
		return ret > 0 ? 0 : ret;
	ret = uboe_encode(&p, skb_put(b->skb, len), len);
	if (ret < 0) {
		skb_trim(b->skb, b->skb->len - len);
		if (!b->n)
			udma_uboe_batch_flush(b);
		return udma_uboe_tx_err(b->udev, ret);
	}
	udma_batch_added(b, &p, len);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(udma_uboe_batch_add);

/**
 * udma_uboe_batch_add_frag() - add a UBoE packet to a train, in place
 * @b: the train (udma_uboe_batch_init())
 * @dst: the destination EID, as for udma_uboe_batch_add()
 * @pkt: the packet, as for udma_uboe_batch_add(); @pkt->payload is in a
 *	page fragment (page_frag_alloc()) with @headroom bytes free before
 *	it and UBOE_ICRC_SIZE after it, which no skb holds yet
 * @headroom: see @pkt
 *
 * The headers (and the ICRC) are encoded around the payload, and the
 * train takes the whole packet as a page fragment, with a reference on
 * its page: no copy of the payload, which the caller may keep (to send
 * again with udma_uboe_batch_add()) or free. A train holds packets added
 * one way or the other, not both. Without a payload, or when the headers
 * do not fit in @headroom, the packet is copied as by
 * udma_uboe_batch_add().
 *
 * Context: any (process, softirq); does not sleep.
 *
 * Return: as udma_uboe_batch_add().
 */
int udma_uboe_batch_add_frag(struct udma_uboe_batch *b,
			     const union ubcore_eid *dst,
			     const struct uboe_pkt *pkt, u32 headroom)
{
	struct uboe_pkt p = *pkt;
	struct page *page;
	u32 hlen, len;
	u8 *start;
	int ret;

	p.icrc = p.icrc || READ_ONCE(udma_uboe_icrc);
	hlen = uboe_hdr_len(&p);
	if (!p.payload_len || hlen > headroom)
		return udma_uboe_batch_add(b, dst, pkt);
	len = uboe_pkt_len(&p, hlen);
	ret = udma_batch_open(b, dst, &p, len, 1);
	if (ret)
		return ret > 0 ? 0 : ret;
	start = (u8 *)p.payload - hlen;
	ret = uboe_encode_hdr(&p, start, hlen);
	if (ret < 0) {
		if (!b->n)
			udma_uboe_batch_flush(b);
		return udma_uboe_tx_err(b->udev, ret);
	}
	if (p.icrc)
		uboe_put_icrc(start, len);
	page = virt_to_head_page(start);
	get_page(page);
	udma_batch_add_frag(b, page, start - (u8 *)page_address(page), len);
	udma_batch_added(b, &p, len);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(udma_uboe_batch_add_frag);

/* The ICRC of a packet: its headers at @hdr, then the bytes of @bv. */
static u32 udma_uboe_pages_icrc(const u8 *hdr, u32 hlen,
				const struct bio_vec *bv, u32 nr)
{
	u32 crc = uboe_icrc(0, hdr, hlen), i;
	void *va;

	for (i = 0; i < nr; i++) {
		va = kmap_local_page(bv[i].bv_page);
		crc = uboe_icrc(crc, va + bv[i].bv_offset, bv[i].bv_len);
		kunmap_local(va);
	}
	return crc;
}

/**
 * udma_uboe_batch_add_pages() - add a UBoE packet to a train, its payload
 *	where it is
 * @b: the train (udma_uboe_batch_init())
 * @dst: the destination EID, as for udma_uboe_batch_add()
 * @pkt: the packet, as for udma_uboe_batch_add(), but its payload
 *	(@pkt->payload_len bytes, @pkt->payload unused) is @bv
 * @bv: the payload's pieces, in pages the caller holds a reference on
 * @nr: entries of @bv, at least 1
 *
 * The headers are encoded into a fragment of their own, and the train
 * takes it and then a reference on each page of the payload: no copy.
 * The skb is marked as holding pages others may write
 * (SKBFL_SHARED_FRAG): whatever would change them in place (a checksum
 * in software) copies them first. With an ICRC, it is computed over the
 * pages and goes in a last fragment.
 *
 * Context: any (process, softirq); does not sleep.
 *
 * Return: as udma_uboe_batch_add().
 */
int udma_uboe_batch_add_pages(struct udma_uboe_batch *b,
			      const union ubcore_eid *dst,
			      const struct uboe_pkt *pkt,
			      const struct bio_vec *bv, u32 nr)
{
	struct uboe_pkt p = *pkt;
	struct page *hpage;
	u32 hlen, len, i;
	int ret;
	u8 *hdr;

	p.icrc = p.icrc || READ_ONCE(udma_uboe_icrc);
	hlen = uboe_hdr_len(&p);
	len = uboe_pkt_len(&p, hlen);
	ret = udma_batch_open(b, dst, &p, len, 1 + nr + p.icrc);
	if (ret)
		return ret > 0 ? 0 : ret;
	hdr = netdev_alloc_frag(hlen + UBOE_ICRC_SIZE);
	ret = hdr ? uboe_encode_hdr(&p, hdr, hlen) : -ENOMEM;
	if (ret < 0) {
		if (hdr)
			skb_free_frag(hdr);
		if (!b->n)
			udma_uboe_batch_flush(b);
		return udma_uboe_tx_err(b->udev, ret);
	}
	if (p.icrc)
		put_unaligned_be32(udma_uboe_pages_icrc(hdr, hlen, bv, nr),
				   hdr + hlen);
	hpage = virt_to_head_page(hdr);
	udma_batch_add_frag(b, hpage, hdr - (u8 *)page_address(hpage), hlen);
	for (i = 0; i < nr; i++) {
		get_page(bv[i].bv_page);
		udma_batch_add_frag(b, bv[i].bv_page, bv[i].bv_offset,
				    bv[i].bv_len);
	}
	if (p.icrc) {
		get_page(hpage);
		udma_batch_add_frag(b, hpage,
				    hdr + hlen - (u8 *)page_address(hpage),
				    UBOE_ICRC_SIZE);
	}
	skb_shinfo(b->skb)->flags |= SKBFL_SHARED_FRAG;
	udma_batch_added(b, &p, len);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(udma_uboe_batch_add_pages);

/**
 * udma_uboe_batch_flush() - send a train's packets
 * @b: the train; empty again afterwards, with its device and hint
 *
 * One packet leaves as an ordinary UDP datagram, several as one UDP GSO
 * skb of that many segments (the segment size the first packet's), which
 * the IP layer, a veth or the NIC segments, or the receiving UDP socket
 * does before UBoE's receive hook sees them. Counts tx_packets and
 * tx_bytes, or tx_errors for the packets of a train that could not leave.
 * Delivery is not confirmed: a packet the IP layer drops later (no
 * neighbour, a full queue) is lost silently, as on any datagram path; the
 * transport retransmits.
 *
 * Context: any; does not sleep.
 */
void udma_uboe_batch_flush(struct udma_uboe_batch *b)
{
	struct udma_dev *udev = b->udev;
	struct sk_buff *skb = b->skb;
	struct udma_net *unet;
	struct socket *sock;
	u32 n = b->n, bytes;

	/* (an empty train asks nothing of its device: it may have no net) */
	if (!skb)
		return;
	unet = udma_net(ubcore_dev_host_net(&udev->ub_dev));
	b->skb = NULL;
	b->n = 0;
	b->closed = false;
	bytes = skb->len;
	if (!n) {
		kfree_skb(skb);
		dst_release(b->route);
		b->route = NULL;
		return;
	}
	skb->protocol = b->v4 ? htons(ETH_P_IP) : htons(ETH_P_IPV6);
	if (n > 1) {
		skb_shinfo(skb)->gso_size = b->seg;
		skb_shinfo(skb)->gso_type = SKB_GSO_UDP_L4;
		skb_shinfo(skb)->gso_segs = n;
		/* each segment's checksum, from the pseudo-header's */
		skb->ip_summed = CHECKSUM_PARTIAL;
		skb->csum_start = skb_headroom(skb) - sizeof(struct udphdr);
		skb->csum_offset = offsetof(struct udphdr, check);
	}
	rcu_read_lock();
	sock = b->v4 ? rcu_dereference(unet->sock4) :
		       rcu_dereference(unet->sock6);
	if (sock && b->v4)
		/* with an ICRC, the UDP checksum may be left out (IPv4) */
		udp_tunnel_xmit_skb(container_of(b->route, struct rtable,
						 dst),
				    sock->sk, skb,
				    b->saddr.in4.addr, b->addr.in4.addr, 0,
				    ip4_dst_hoplimit(b->route), htons(IP_DF),
				    b->sport, htons(udma_uboe_port), false,
				    b->nocheck && n == 1);
	else if (sock)
		udp_tunnel6_xmit_skb(b->route, sock->sk, skb, NULL,
				     &b->saddr.ip6, &b->addr.ip6, 0,
				     ip6_dst_hoplimit(b->route), 0, b->sport,
				     htons(udma_uboe_port), false);
	rcu_read_unlock();
	if (!sock) {
		/* the device is leaving its namespace's UBoE */
		dst_release(b->route);
		b->route = NULL;
		kfree_skb(skb);
		udma_stats_add(udev->wire.stats, UDMA_WIRE_TX_ERRORS, n);
		return;
	}
	/* the route went with the skb */
	b->route = NULL;
	udma_stats_add(udev->wire.stats, UDMA_WIRE_TX_PACKETS, n);
	udma_stats_add(udev->wire.stats, UDMA_WIRE_TX_BYTES, bytes);
}
EXPORT_SYMBOL_IF_KUNIT(udma_uboe_batch_flush);

/**
 * udma_uboe_xmit_cached() - send one UBoE packet to an EID
 * @udev: the sending device
 * @dst: the destination EID, as for udma_uboe_batch_add()
 * @pkt: the packet, as for udma_uboe_batch_add()
 * @route: the route cache of the packet's TP (struct
 *	udma_uboe_batch.route_cache), or NULL: the route is looked up
 *
 * A train of one (udma_uboe_batch_add(), udma_uboe_batch_flush()).
 *
 * Context: any (process, softirq); does not sleep.
 *
 * Return: as udma_uboe_batch_add().
 */
int udma_uboe_xmit_cached(struct udma_dev *udev, const union ubcore_eid *dst,
			  const struct uboe_pkt *pkt, struct dst_cache *route)
{
	struct udma_uboe_batch b;
	int ret;

	udma_uboe_batch_init(&b, udev, 1);
	b.route_cache = route;
	ret = udma_uboe_batch_add(&b, dst, pkt);
	udma_uboe_batch_flush(&b);
	return ret;
}
EXPORT_SYMBOL_IF_KUNIT(udma_uboe_xmit_cached);

/* Counters: sysfs and procfs ------------------------------------------ */

static const char * const udma_wire_cnt_names[] = {
	[UDMA_WIRE_RX_PACKETS - UBOE_DROP_MAX] = "rx_packets",
	[UDMA_WIRE_RX_BYTES - UBOE_DROP_MAX] = "rx_bytes",
	[UDMA_WIRE_RX_TRAINS - UBOE_DROP_MAX] = "rx_trains",
	[UDMA_WIRE_RX_LINEARIZED - UBOE_DROP_MAX] = "rx_linearized",
	[UDMA_WIRE_RX_SCATTERED - UBOE_DROP_MAX] = "rx_scattered",
	[UDMA_WIRE_MGMT_RX - UBOE_DROP_MAX] = "mgmt_rx",
	[UDMA_WIRE_MGMT_TX - UBOE_DROP_MAX] = "mgmt_tx",
	[UDMA_WIRE_TX_PACKETS - UBOE_DROP_MAX] = "tx_packets",
	[UDMA_WIRE_TX_BYTES - UBOE_DROP_MAX] = "tx_bytes",
	[UDMA_WIRE_TX_ERRORS - UBOE_DROP_MAX] = "tx_errors",
	[UDMA_WIRE_RX_QUEUE_FULL - UBOE_DROP_MAX] = "rx_queue_full",
	[UDMA_WIRE_RSP_NO_SQ - UBOE_DROP_MAX] = "rsp_no_sq",
	[UDMA_WIRE_TX_TOO_BIG - UBOE_DROP_MAX] = "tx_msg_too_big",
	[UDMA_WIRE_TX_NO_TP - UBOE_DROP_MAX] = "tx_no_tp",
	[UDMA_WIRE_RTP_RETRANSMITS - UBOE_DROP_MAX] = "rtp_retransmits",
	[UDMA_WIRE_RTP_DUP_DROPS - UBOE_DROP_MAX] = "rtp_dup_drops",
	[UDMA_WIRE_RTP_OUT_OF_SEQ - UBOE_DROP_MAX] = "rtp_out_of_seq",
	[UDMA_WIRE_RTP_OUT_OF_WINDOW - UBOE_DROP_MAX] = "rtp_out_of_window",
	[UDMA_WIRE_RTP_NAK_TX - UBOE_DROP_MAX] = "rtp_nak_tx",
	[UDMA_WIRE_RTP_NAK_RX - UBOE_DROP_MAX] = "rtp_nak_rx",
	[UDMA_WIRE_RTP_ACK_TX - UBOE_DROP_MAX] = "rtp_ack_tx",
	[UDMA_WIRE_RTP_ACK_RX - UBOE_DROP_MAX] = "rtp_ack_rx",
	[UDMA_WIRE_RTP_ACK_TIMEOUTS - UBOE_DROP_MAX] = "rtp_ack_timeouts",
	[UDMA_WIRE_RTP_CLOSED_DROPS - UBOE_DROP_MAX] = "rtp_closed_drops",
	[UDMA_WIRE_RTP_PACED - UBOE_DROP_MAX] = "rtp_paced",
	[UDMA_WIRE_TX_FAULT_DROPS - UBOE_DROP_MAX] = "tx_fault_drops",
	[UDMA_WIRE_TX_ROUTE_LOOKUPS - UBOE_DROP_MAX] = "tx_route_lookups",
	[UDMA_WIRE_TX_ZEROCOPY - UBOE_DROP_MAX] = "tx_zerocopy",
};

static_assert(ARRAY_SIZE(udma_wire_cnt_names) ==
	      UDMA_WIRE_NR_CNT - UBOE_DROP_MAX);

/* The name of counter @idx: a drop reason's, or one of the others. */
static const char *udma_wire_cnt_name(unsigned int idx)
{
	return idx < UBOE_DROP_MAX ? uboe_drop_name(idx) :
	       udma_wire_cnt_names[idx - UBOE_DROP_MAX];
}

/* wire/<counter>: the attribute's var is its enum udma_wire_cnt. */
static ssize_t wire_cnt_show(struct device *device,
			     struct device_attribute *attr, char *buf)
{
	uintptr_t idx = (uintptr_t)container_of(attr, struct dev_ext_attribute,
						attr)->var;
	struct udma_dev *udev = to_udma_dev(to_ubcore_device(device));

	return sysfs_emit(buf, "%llu\n", udma_wire_read(udev, idx));
}

/* Every counter but UBOE_DROP_NONE; filled by udma_uboe_init(). */
static struct dev_ext_attribute udma_wire_attrs[UDMA_WIRE_NR_CNT - 1];
static struct attribute *udma_wire_attr_list[UDMA_WIRE_NR_CNT];

/*
 * /sys/class/ubcore/<dev>/wire/: one file per drop reason, named by
 * uboe_drop_name(), and rx_packets, rx_bytes, mgmt_rx, mgmt_tx, tx_packets,
 * tx_bytes, tx_errors; added by ubcore with the device (ops.device_group).
 */
const struct attribute_group udma_wire_group = {
	.name = "wire",
	.attrs = udma_wire_attr_list,
};

/* /proc/net/udma_uboe: "<counter> <value>" of the namespace's drops. */
static int udma_net_stats_show(struct seq_file *seq, void *v)
{
	struct udma_net *unet = udma_net(seq_file_single_net(seq));
	unsigned int i;

	for (i = UBOE_DROP_NONE + 1; i < UBOE_DROP_MAX; i++)
		seq_printf(seq, "%s %llu\n", uboe_drop_name(i),
			   udma_stats_read(unet->stats, i));
	return 0;
}

/* Namespaces ---------------------------------------------------------- */

static int __net_init udma_net_init(struct net *net)
{
	struct udma_net *unet = udma_net(net);

	mutex_init(&unet->lock);
	INIT_LIST_HEAD(&unet->devs);
	tasklet_setup(&unet->rx_tasklet, udma_uboe_rx_tasklet);
	unet->stats = alloc_percpu(struct udma_wire_stats);
	if (!unet->stats)
		return -ENOMEM;
	if (!proc_create_net_single("udma_uboe", 0444, net->proc_net,
				    udma_net_stats_show, NULL)) {
		free_percpu(unet->stats);
		return -ENOMEM;
	}
	return 0;
}

/*
 * The namespace goes: its netdevs were unregistered before (pernet device
 * operations exit first), and with them its udma devices, whose netdev
 * references that unregistration waits for. So the sockets are closed
 * already; close them anyway should a device have been left.
 */
static void __net_exit udma_net_exit(struct net *net)
{
	struct udma_net *unet = udma_net(net);

	remove_proc_entry("udma_uboe", net->proc_net);
	mutex_lock(&unet->lock);
	WARN_ON(!list_empty(&unet->devs));
	udma_net_close(unet);
	mutex_unlock(&unet->lock);
	/* no socket is left to schedule it */
	tasklet_kill(&unet->rx_tasklet);
	free_percpu(unet->stats);
	mutex_destroy(&unet->lock);
}

static struct pernet_operations udma_net_ops = {
	.init = udma_net_init,
	.exit = udma_net_exit,
	.id = &udma_net_id,
	.size = sizeof(struct udma_net),
};

/**
 * udma_uboe_init() - start UBoE: the counters' attributes, the namespaces,
 *	the integrity measurement's debugfs file
 *
 * Return: 0 or the error of register_pernet_subsys().
 */
int udma_uboe_init(void)
{
	unsigned int i, n = 0;
	int ret;

	for (i = UBOE_DROP_NONE + 1; i < UDMA_WIRE_NR_CNT; i++, n++) {
		struct dev_ext_attribute *ea = &udma_wire_attrs[n];

		sysfs_attr_init(&ea->attr.attr);
		ea->attr.attr.name = udma_wire_cnt_name(i);
		ea->attr.attr.mode = 0444;
		ea->attr.show = wire_cnt_show;
		ea->var = (void *)(uintptr_t)i;
		udma_wire_attr_list[n] = &ea->attr.attr;
	}
	ret = register_pernet_subsys(&udma_net_ops);
	if (ret) {
		pr_err("cannot follow network namespaces: %d\n", ret);
		return ret;
	}
	udma_uboe_bench_init();
	udma_debugfs_init();
	return 0;
}

/**
 * udma_uboe_exit() - stop UBoE, after every device is gone
 */
void udma_uboe_exit(void)
{
	udma_debugfs_exit();
	udma_uboe_bench_exit();
	unregister_pernet_subsys(&udma_net_ops);
}
