// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * The UBoE carrier of the engine's messages (msg.h): requests and
 * responses as UBoE packets (include/uapi/ub/uboe_wire.h) between the
 * requester of one device and the responder of another, here or on
 * another host, over the TPs of ubcore's connection manager.
 *
 * Sending a request (udma_carrier_xmit() picks this carrier for a
 * destination EID no device of this host has, or for every one with
 * force_wire), in the requester's context (process, under the SQ's
 * proc_lock):
 *  - RM and RC (RTP_DATA): the TP of the destination
 *    (ubcore_tp_find_pair(): RM the one of the EID pair, which imports
 *    open, RC the one of the bound jetty pair; lockless) gives the source
 *    and destination TPN; without
 *    an established one the WQE completes with LOC_OPERATION_ERR
 *    (counted: tx_no_tp). UM (UTP_DATA) needs none: a datagram, done
 *    (SUCCESS) once sent; the target sends no response to it;
 *  - the packet's fields are the message's (struct udma_msg.pkt is a
 *    struct uboe_pkt already); the TPH PSN is the queue's PSN of the WQE
 *    (per SQ, not yet per TP: the reliable transport of the TP, its PSN,
 *    ACKs and retransmission, are not done here);
 *  - one message is one packet (seg ONLY). A message whose payload, or a
 *    READ whose response, does not fit in one packet at the netdev's MTU
 *    is not sent: its WQE completes with LOC_LEN_ERR (counted:
 *    tx_msg_too_big). Segmentation to the MTU is the next step;
 *  - the payload is copied from the initiator's registered memory into
 *    the packet (a bounce buffer, then the skb: udma_uboe_xmit() encodes);
 *    a send that fails completes the WQE with the status of
 *    udma_uboe_tx_status().
 *
 * Receiving (udma_uboe_rx_data(), softirq under RCU): an RTP packet's
 * TPN must be an established TP of this device whose peer is the
 * packet's source EID and source TPN (ubcore_tp_rx_lookup(), lockless);
 * else the packet is dropped (unknown_tpn). The packet then becomes a
 * struct udma_uboe_item holding a reference on the skb, whose
 * payload the message points into; it is queued on the device's receive
 * list (at most UDMA_UBOE_RXQ_MAX: beyond, dropped and counted as
 * rx_queue_full) for the device's receive work, in process context,
 * because the responder and the completer sleep (page copies with
 * cond_resched(), segment lookups). The work:
 *  - a request: hands the message to the responder (udma_resp_rcv()),
 *    whose response comes back to udma_uboe_reply() and leaves as a
 *    packet from the same device, to the request's source; a response
 *    that cannot be sent is lost (the initiator's retransmission and ACK
 *    timeout are the reliable transport's, to come);
 *  - a response: finds the JFS or jetty of its INI_RC_ID on the device
 *    with a reference (none: dropped, rsp_no_sq) and queues the item on
 *    its SQ (udma_sq.rsp_list, at most UDMA_UBOE_SQ_RSP_MAX) unless the
 *    SQ is being destroyed (dropped, rsp_no_sq), then kicks the SQ's work,
 *    which hands the responses to the completer (udma_uboe_sq_drain())
 *    under the SQ's proc_lock. SQ destroy purges what is left (counted,
 *    rsp_no_sq) after it set dying, under the ring lock the queueing also
 *    takes, and cancelled the work: nothing is queued to a dead SQ.
 *
 * Lifetime: an item lives on the device's list, or an SQ's list, or in
 * the hands of the work processing it. A device leaving UBoE first leaves
 * the receive path (udma_wire_dev_del(): an RCU grace period), then
 * udma_uboe_rx_stop() stops the list and cancels the work and frees what
 * is left; the SQs, destroyed later with the device's objects, purge
 * theirs.
 */
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/kernel.h>
#include <linux/minmax.h>
#include <linux/slab.h>
#include <linux/udp.h>

#include <ub/ubcore_jetty.h>
#include <ub/ubcore_tp.h>

#include <kunit/visibility.h>

#include "target.h"
#include "udma.h"

/* Items the receive work processes before it lets others run. */
#define UDMA_UBOE_RX_BUDGET	64

/**
 * udma_uboe_msg_to_pkt() - the packet of a message
 * @msg: a request or a response
 * @stpn: this end's TPN (0 on UTP)
 * @dtpn: the peer's TPN (0 on UTP)
 * @payload: the payload bytes, or NULL
 * @len: bytes at @payload
 * @pkt: out: what uboe_encode() takes
 */
void udma_uboe_msg_to_pkt(const struct udma_msg *msg, u32 stpn, u32 dtpn,
			  const void *payload, u32 len, struct uboe_pkt *pkt)
{
	*pkt = msg->pkt;
	pkt->stpn = stpn;
	pkt->dtpn = dtpn;
	pkt->icrc = false;
	pkt->payload = len ? payload : NULL;
	pkt->payload_len = len;
}
EXPORT_SYMBOL_IF_KUNIT(udma_uboe_msg_to_pkt);

/**
 * udma_uboe_pkt_to_msg() - the message of a received packet
 * @pkt: the decoded packet; its payload stays where it is
 * @pl: the message's payload descriptor, to fill
 * @msg: out: the message; @msg->payload is @pl (the packet's payload as
 *	inline data) or NULL without a payload
 */
void udma_uboe_pkt_to_msg(const struct uboe_pkt *pkt,
			  struct udma_local_buf *pl, struct udma_msg *msg)
{
	memset(msg, 0, sizeof(*msg));
	msg->pkt = *pkt;
	msg->pkt.payload = NULL;
	msg->pkt.payload_len = 0;
	pl->nr = 0;
	pl->inline_data = pkt->payload_len ? pkt->payload : NULL;
	pl->total = pkt->payload_len;
	msg->payload = pkt->payload_len ? pl : NULL;
}
EXPORT_SYMBOL_IF_KUNIT(udma_uboe_pkt_to_msg);

/**
 * udma_uboe_max_payload() - the largest payload of a packet at an MTU
 * @mtu: the IP MTU of the path
 * @ipv4: IPv4 (else IPv6)
 * @pkt: the packet's headers (its payload is not looked at)
 *
 * Room for the IP and UDP headers, the UBoE headers of @pkt and an ICRC
 * (sent when the uboe_icrc parameter asks for it), within UBOE_MAX_PKT.
 *
 * Return: bytes of payload that fit, 0 if none do.
 */
u32 udma_uboe_max_payload(u32 mtu, bool ipv4, const struct uboe_pkt *pkt)
{
	u32 ip = (ipv4 ? sizeof(struct iphdr) : sizeof(struct ipv6hdr)) +
		 sizeof(struct udphdr);
	u32 hdr = uboe_hdr_len(pkt) + UBOE_ICRC_SIZE;
	u32 room;

	if (mtu <= ip)
		return 0;
	room = min_t(u32, mtu - ip, UBOE_MAX_PKT);
	return room > hdr ? room - hdr : 0;
}
EXPORT_SYMBOL_IF_KUNIT(udma_uboe_max_payload);

/**
 * udma_uboe_tx_status() - the CQE status of a request that was not sent
 * @err: the error of building or sending its packet
 *
 * Return: LOC_LEN_ERR for -EMSGSIZE (larger than a packet at the path
 * MTU), LOC_ACCESS_ERR for -EFAULT (its local memory), else
 * LOC_OPERATION_ERR (no route, no memory, a packet the codec refuses).
 */
u8 udma_uboe_tx_status(int err)
{
	switch (err) {
	case -EMSGSIZE:
		return URMA_CR_LOC_LEN_ERR;
	case -EFAULT:
		return URMA_CR_LOC_ACCESS_ERR;
	default:
		return URMA_CR_LOC_OPERATION_ERR;
	}
}
EXPORT_SYMBOL_IF_KUNIT(udma_uboe_tx_status);

/* The payload of @pkt at @udev's MTU: the room left for it. */
static u32 udma_uboe_room(const struct udma_dev *udev,
			  const struct uboe_pkt *pkt)
{
	return udma_uboe_max_payload(READ_ONCE(udev->netdev->mtu),
				     ubcore_eid_is_ipv4(&pkt->dst_eid), pkt);
}

/*
 * Send @pkt with @len bytes of @src as its payload (copied into a bounce
 * buffer first). Process context.
 */
static int udma_uboe_send(struct udma_dev *udev, struct uboe_pkt *pkt,
			  const struct udma_local_buf *src, u32 len)
{
	void *bounce = NULL;
	int ret;

	if (len) {
		bounce = kmalloc(len, GFP_KERNEL);
		if (!bounce)
			return -ENOMEM;
		ret = udma_buf_copy_to_kernel(bounce, src, len);
		if (ret) {
			kfree(bounce);
			return ret == -EINVAL ? -EFAULT : ret;
		}
	}
	pkt->payload = bounce;
	pkt->payload_len = len;
	ret = udma_uboe_xmit(udev, &pkt->dst_eid, pkt);
	kfree(bounce);
	return ret;
}

/* The TP of a request from @sq: its TPNs, or an error. */
static int udma_uboe_req_tp(struct udma_sq *sq, const struct udma_msg *req,
			    u32 *tpn, u32 *peer_tpn)
{
	bool rc = udma_sq_cfg(sq)->trans_mode == UBCORE_TP_RC && sq->bound;

	return ubcore_tp_find_pair(&sq->udev->ub_dev, &req->pkt.src_eid,
				   &req->pkt.dst_eid,
				   rc ? UBOE_MGMT_TM_RC : UBOE_MGMT_TM_RM,
				   rc ? udma_sq_id(sq) : 0,
				   rc ? sq->peer.id : 0, tpn, peer_tpn);
}

/*
 * struct udma_carrier.xmit: the request leaves as a packet, or its WQE
 * completes here (see the top of this file). The requester's context:
 * process, @req->sq's proc_lock held.
 */
static void udma_uboe_carrier_xmit(struct udma_msg *req)
{
	struct udma_sq *sq = req->sq;
	struct udma_dev *udev = sq->udev;
	u32 tpn = 0, peer_tpn = 0, len, need;
	struct uboe_pkt pkt;
	int ret;

	if (req->pkt.tp_opcode == UBOE_TP_RTP_DATA &&
	    udma_uboe_req_tp(sq, req, &tpn, &peer_tpn)) {
		udma_wire_inc(udev, UDMA_WIRE_TX_NO_TP);
		dev_dbg_ratelimited(&udev->ub_dev.dev,
				    "queue %u: no TP to %pI6c\n",
				    udma_sq_id(sq), req->pkt.dst_eid.raw);
		udma_comp_local(sq, req->pkt.psn, URMA_CR_LOC_OPERATION_ERR);
		return;
	}
	len = min_t(u64, udma_msg_len(req), U32_MAX);
	udma_uboe_msg_to_pkt(req, tpn, peer_tpn, NULL, 0, &pkt);
	/* a READ's data come back in one response packet */
	need = pkt.ta_opcode == UBOE_TA_READ ? pkt.mae.len : len;
	if (need > udma_uboe_room(udev, &pkt) || udma_msg_len(req) > U32_MAX)
		ret = -EMSGSIZE;
	else
		ret = udma_uboe_send(udev, &pkt, req->payload, len);
	if (ret) {
		if (ret == -EMSGSIZE)
			udma_wire_inc(udev, UDMA_WIRE_TX_TOO_BIG);
		dev_dbg_ratelimited(&udev->ub_dev.dev,
				    "queue %u: request of %u bytes not sent: %d\n",
				    udma_sq_id(sq), len, ret);
		udma_comp_local(sq, req->pkt.psn, udma_uboe_tx_status(ret));
		return;
	}
	/* UM: a datagram gets no response */
	if (pkt.tp_opcode == UBOE_TP_UTP_DATA)
		udma_comp_local(sq, req->pkt.psn, URMA_CR_SUCCESS);
}

/*
 * struct udma_carrier.reply: the response to a request that came in as a
 * packet (an item of the receive work) leaves from the device it came to,
 * back to the request's source over the same TP (udma_resp_init() swapped
 * the TPNs and EIDs). A READ response too large for one packet (a peer
 * that did not check) becomes a TAACK with OPERATION. The responder's
 * context: the receive work.
 */
static void udma_uboe_reply(const struct udma_msg *req,
			    const struct udma_msg *rsp)
{
	const struct udma_uboe_item *it = container_of(req,
						       struct udma_uboe_item,
						       msg);
	struct udma_dev *udev = it->udev;
	struct udma_msg refused;
	struct uboe_pkt pkt;
	u32 len;

	/* UM: no response */
	if (req->pkt.tp_opcode != UBOE_TP_RTP_DATA)
		return;
	len = min_t(u64, udma_msg_len(rsp), U32_MAX);
	udma_uboe_msg_to_pkt(rsp, rsp->pkt.stpn, rsp->pkt.dtpn, NULL, 0, &pkt);
	if (len > udma_uboe_room(udev, &pkt)) {
		udma_wire_inc(udev, UDMA_WIRE_TX_TOO_BIG);
		udma_resp_init(&refused, req, UBOE_RSPST_OPERATION);
		udma_uboe_msg_to_pkt(&refused, refused.pkt.stpn,
				     refused.pkt.dtpn, NULL, 0, &pkt);
		len = 0;
	}
	if (udma_uboe_send(udev, &pkt, rsp->payload, len) && len) {
		/* the data could not be read: say so rather than nothing */
		udma_resp_init(&refused, req, UBOE_RSPST_OPERATION);
		udma_uboe_msg_to_pkt(&refused, refused.pkt.stpn,
				     refused.pkt.dtpn, NULL, 0, &pkt);
		udma_uboe_xmit(udev, &pkt.dst_eid, &pkt);
	}
}

const struct udma_carrier udma_uboe_carrier = {
	.name = "uboe",
	.xmit = udma_uboe_carrier_xmit,
	.reply = udma_uboe_reply,
};
EXPORT_SYMBOL_IF_KUNIT(udma_uboe_carrier);

static void udma_uboe_item_free(struct udma_uboe_item *it)
{
	consume_skb(it->skb);
	kfree(it);
}

/* The source EID of a packet without an EIDH: its IP source. */
static void udma_uboe_skb_src_eid(const struct sk_buff *skb,
				  union ubcore_eid *eid)
{
	if (ip_hdr(skb)->version == 4)
		ubcore_eid_from_ipv4(eid, ip_hdr(skb)->saddr);
	else
		eid->ip6 = ipv6_hdr(skb)->saddr;
}

/*
 * May @pkt, from @src, use the TP it names: an established TP of @udev
 * joining it to @src, whose end is the packet's source TPN? UTP needs
 * none. Any context.
 */
static bool udma_uboe_tp_ok(struct udma_dev *udev, const struct uboe_pkt *pkt,
			    const union ubcore_eid *src)
{
	u32 peer_tpn;

	if (pkt->tp_opcode != UBOE_TP_RTP_DATA)
		return true;
	return !ubcore_tp_rx_lookup(&udev->ub_dev, pkt->dtpn, src, &peer_tpn) &&
	       peer_tpn == pkt->stpn;
}

/**
 * udma_uboe_rx_data() - a data packet: a request or a response, of a TP
 *	(RTP_DATA) or of none (UTP_DATA, UM)
 * @udev: the device that owns the destination EID
 * @pkt: the decoded packet
 * @skb: the datagram it came in
 *
 * Checks its TPN and queues it for the device's receive work (see the
 * top of this file), which hands it to the responder or the completer.
 * Softirq, under rcu_read_lock(); does not sleep.
 *
 * Return: UBOE_DROP_NONE: queued, or dropped and counted (rx_queue_full);
 * UBOE_DROP_UNKNOWN_TPN: an RTP packet of no established TP of @udev
 * with its source.
 */
enum uboe_drop udma_uboe_rx_data(struct udma_dev *udev,
				 const struct uboe_pkt *pkt,
				 struct sk_buff *skb)
{
	struct udma_uboe_rx *rx = &udev->uboe_rx;
	struct udma_uboe_item *it;
	union ubcore_eid src;
	bool queued = false;

	if (pkt->has_eid)
		src = pkt->src_eid;
	else
		udma_uboe_skb_src_eid(skb, &src);
	if (!udma_uboe_tp_ok(udev, pkt, &src))
		return UBOE_DROP_UNKNOWN_TPN;
	it = kmalloc(sizeof(*it), GFP_ATOMIC);
	if (!it) {
		udma_wire_inc(udev, UDMA_WIRE_RX_QUEUE_FULL);
		return UBOE_DROP_NONE;
	}
	it->udev = udev;
	udma_uboe_pkt_to_msg(pkt, &it->pl, &it->msg);
	it->msg.pkt.src_eid = src;
	/* the payload points into @skb: ours until the item is freed */
	it->skb = skb_get(skb);

	spin_lock(&rx->lock);
	if (!rx->stopped && rx->len < UDMA_UBOE_RXQ_MAX) {
		list_add_tail(&it->node, &rx->list);
		rx->len++;
		queued = true;
	}
	spin_unlock(&rx->lock);
	if (!queued) {
		udma_wire_inc(udev, UDMA_WIRE_RX_QUEUE_FULL);
		udma_uboe_item_free(it);
		return UBOE_DROP_NONE;
	}
	queue_work(system_unbound_wq, &rx->work);
	return UBOE_DROP_NONE;
}

/* A request: the responder executes it and answers (udma_uboe_reply()). */
static void udma_uboe_rx_req(struct udma_dev *udev, struct udma_uboe_item *it)
{
	it->msg.carrier = &udma_uboe_carrier;
	udma_resp_rcv(&udev->ub_dev, &it->msg);
	udma_uboe_item_free(it);
}

/* The SQ of the JFS or jetty @id of @udev, with a reference on it. */
static struct udma_sq *udma_uboe_sq_get(struct udma_dev *udev, u32 id,
					struct ubcore_jfs **jfs,
					struct ubcore_jetty **jetty)
{
	*jetty = NULL;
	*jfs = ubcore_find_get_jfs(&udev->ub_dev, id);
	if (*jfs)
		return &to_udma_jfs(*jfs)->sq;
	*jetty = ubcore_find_get_jetty(&udev->ub_dev, id);
	return *jetty ? &to_udma_jetty(*jetty)->sq : NULL;
}

/* A response: to its SQ's list, for the SQ's work (the completer). */
static void udma_uboe_rx_rsp(struct udma_dev *udev, struct udma_uboe_item *it)
{
	struct ubcore_jetty *jetty;
	struct ubcore_jfs *jfs;
	struct udma_sq *sq;
	bool queued = false;

	sq = udma_uboe_sq_get(udev, it->msg.pkt.rc_id, &jfs, &jetty);
	if (!sq) {
		udma_wire_inc(udev, UDMA_WIRE_RSP_NO_SQ);
		goto free;
	}
	spin_lock_bh(&sq->ring->lock);
	if (!sq->dying && sq->rsp_len < UDMA_UBOE_SQ_RSP_MAX) {
		list_add_tail(&it->node, &sq->rsp_list);
		WRITE_ONCE(sq->rsp_len, sq->rsp_len + 1);
		queued = true;
	}
	spin_unlock_bh(&sq->ring->lock);
	if (queued)
		udma_sq_kick(sq, 0);
	else
		udma_wire_inc(udev, UDMA_WIRE_RSP_NO_SQ);
	if (jfs)
		ubcore_obj_ref_put(&jfs->obj_ref);
	else
		ubcore_obj_ref_put(&jetty->obj_ref);
	if (queued)
		return;
free:
	udma_uboe_item_free(it);
}

/* The device's receive work: a budget of items, requeued while any left. */
static void udma_uboe_rx_work(struct work_struct *work)
{
	struct udma_uboe_rx *rx = container_of(work, struct udma_uboe_rx,
					       work);
	struct udma_dev *udev = container_of(rx, struct udma_dev, uboe_rx);
	struct udma_uboe_item *it;
	u32 n;

	for (n = 0; n < UDMA_UBOE_RX_BUDGET; n++) {
		spin_lock_bh(&rx->lock);
		it = list_first_entry_or_null(&rx->list, struct udma_uboe_item,
					      node);
		if (it) {
			list_del(&it->node);
			rx->len--;
		}
		spin_unlock_bh(&rx->lock);
		if (!it)
			return;
		if (it->msg.pkt.ta_opcode < UBOE_TA_TAACK)
			udma_uboe_rx_req(udev, it);
		else
			udma_uboe_rx_rsp(udev, it);
		cond_resched();
	}
	queue_work(system_unbound_wq, work);
}

/**
 * udma_uboe_rx_init() - set up a new device's receive list
 * @udev: the device, being allocated
 */
void udma_uboe_rx_init(struct udma_dev *udev)
{
	struct udma_uboe_rx *rx = &udev->uboe_rx;

	spin_lock_init(&rx->lock);
	INIT_LIST_HEAD(&rx->list);
	INIT_WORK(&rx->work, udma_uboe_rx_work);
}

/**
 * udma_uboe_rx_stop() - a device takes no more packets
 * @udev: the device, off the receive path (udma_wire_dev_del() returned)
 *
 * Stops the list, waits for the work and frees the items left. Process
 * context; sleeps.
 */
void udma_uboe_rx_stop(struct udma_dev *udev)
{
	struct udma_uboe_rx *rx = &udev->uboe_rx;
	struct udma_uboe_item *it, *tmp;
	LIST_HEAD(left);

	spin_lock_bh(&rx->lock);
	rx->stopped = true;
	spin_unlock_bh(&rx->lock);
	cancel_work_sync(&rx->work);
	spin_lock_bh(&rx->lock);
	list_splice_init(&rx->list, &left);
	rx->len = 0;
	spin_unlock_bh(&rx->lock);
	list_for_each_entry_safe(it, tmp, &left, node)
		udma_uboe_item_free(it);
}

/* Take the responses queued on @sq. */
static void udma_uboe_sq_take(struct udma_sq *sq, struct list_head *list)
{
	spin_lock_bh(&sq->ring->lock);
	list_splice_init(&sq->rsp_list, list);
	WRITE_ONCE(sq->rsp_len, 0);
	spin_unlock_bh(&sq->ring->lock);
}

/**
 * udma_uboe_sq_drain() - hand the responses the wire brought to the
 *	completer
 * @sq: the queue; the caller holds @sq->proc_lock (its processor)
 *
 * Process context; may sleep (the completer copies READ data).
 */
void udma_uboe_sq_drain(struct udma_sq *sq)
{
	struct udma_uboe_item *it, *tmp;
	LIST_HEAD(list);

	lockdep_assert_held(&sq->proc_lock);
	if (!READ_ONCE(sq->rsp_len))
		return;
	udma_uboe_sq_take(sq, &list);
	list_for_each_entry_safe(it, tmp, &list, node) {
		udma_comp_rcv(sq, &it->msg);
		udma_uboe_item_free(it);
	}
}
EXPORT_SYMBOL_IF_KUNIT(udma_uboe_sq_drain);

/**
 * udma_uboe_sq_purge() - drop the responses of a queue being destroyed
 * @sq: the queue: @sq->dying is set and its work cancelled, so nothing is
 *	queued or taken any more
 *
 * Each is counted (rsp_no_sq). Process context.
 */
void udma_uboe_sq_purge(struct udma_sq *sq)
{
	struct udma_uboe_item *it, *tmp;
	LIST_HEAD(list);

	if (!READ_ONCE(sq->rsp_len))
		return;
	udma_uboe_sq_take(sq, &list);
	list_for_each_entry_safe(it, tmp, &list, node) {
		udma_wire_inc(it->udev, UDMA_WIRE_RSP_NO_SQ);
		udma_uboe_item_free(it);
	}
}
