// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * The dispatch points of received UBoE packets, one per class. uboe_net.c
 * calls them for a packet that decoded (uboe_decode(): nothing in it is
 * malformed) and whose destination EID is one of @udev's; it has counted
 * it in rx_packets and rx_bytes (and a management message in mgmt_rx).
 *
 * Context: softirq (the UDP receive path), under rcu_read_lock(); they must
 * not sleep. @udev is valid for the call only: it is on its namespace's
 * device list, taken off it, and an RCU grace period passes, before it is
 * unregistered. @pkt and its payload point into @skb, which the caller
 * frees when the function returns: a handler that keeps the packet takes
 * its own reference (skb_get()) or copies what it needs.
 *
 * Return: UBOE_DROP_NONE when the packet was taken (or dropped on purpose
 * and counted by the handler), else the reason the caller counts.
 */
#include <linux/ip.h>
#include <linux/ipv6.h>

#include "mgmt.h"
#include "udma.h"

/**
 * udma_uboe_rx_ack() - an ACK or a NAK of a TP
 * @udev: the device that owns the destination EID
 * @pkt: the decoded packet
 * @skb: the datagram it came in
 *
 * Data packets go to udma_uboe_rx_data() (uboe_carrier.c); ACKs and NAKs
 * to the TP's reliable transport (udma_rtp_rx_ack(), uboe_rtp.c), which
 * checks that the TPN is an established TP of @udev with the packet's
 * source.
 *
 * Return: UBOE_DROP_NONE, or UBOE_DROP_UNKNOWN_TPN.
 */
enum uboe_drop udma_uboe_rx_ack(struct udma_dev *udev,
				const struct uboe_pkt *pkt,
				struct sk_buff *skb)
{
	union ubcore_eid src;

	if (pkt->has_eid)
		src = pkt->src_eid;
	else if (ip_hdr(skb)->version == 4)
		ubcore_eid_from_ipv4(&src, ip_hdr(skb)->saddr);
	else
		src.ip6 = ipv6_hdr(skb)->saddr;
	return udma_rtp_rx_ack(udev, pkt, &src);
}

/**
 * udma_uboe_rx_mgmt() - a management message (UTP_DATA, TAOpcode
 *	MANAGEMENT) for ubcore's connection manager
 * @udev: the device that owns the destination EID
 * @pkt: the decoded packet: @pkt->mgmt is the MGMTETAH, the payload the
 *	message body, @pkt->src_eid and @pkt->dst_eid its ends
 * @skb: the datagram it came in
 *
 * udma only moves the connection manager's messages: mgmt.c checks the
 * body against the packet and queues a copy to ubcore_recv_mgmt(). The
 * caller has counted it in mgmt_rx.
 *
 * Return: UBOE_DROP_NONE, or why it was dropped (UBOE_DROP_MGMT_*).
 */
enum uboe_drop udma_uboe_rx_mgmt(struct udma_dev *udev,
				 const struct uboe_pkt *pkt,
				 struct sk_buff *skb)
{
	return udma_mgmt_rx(udev, pkt);
}
