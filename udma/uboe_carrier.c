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
 *    and destination TPN; without an established one the WQE completes
 *    with LOC_OPERATION_ERR (counted: tx_no_tp). Its packets go through
 *    the TP's reliable transport (uboe_rtp.c: PSN per TP, ACKs,
 *    go-back-N, RTO, a window), whose state udma_rtp_get() finds or
 *    creates. UM (UTP_DATA) needs none: a datagram of one packet and of
 *    the path MTU (the port's active MTU) at most (larger: LOC_LEN_ERR,
 *    tx_msg_too_big), done (SUCCESS) once sent; the
 *    target sends no response to it;
 *  - the packets' fields are the message's (struct udma_msg.pkt is a
 *    struct uboe_pkt already); the TPH PSN is the TP's; the WQE is
 *    named by INI_TASSN (the low 16 bits of its PSN in the queue), which
 *    the response echoes;
 *  - segmentation to the path MTU: a message whose payload does not fit
 *    in one packet at the netdev's MTU goes in FIRST, MIDDLE .., LAST
 *    packets of udma_uboe_seg_size() bytes (a multiple of 1 KiB), each
 *    with an OFSTETAH, the headers of the last packet only on the last
 *    (udma_uboe_seg_pkt()), in trains of one UDP GSO skb
 *    (udma_uboe_batch_add()); the TP's owner keeps one message's
 *    packets consecutive. A READ's response comes back segmented the same
 *    way. Messages up to max_msg_size (and the 32 bits of MAETAH length);
 *    an MTU that leaves less than 1 KiB of payload segments nothing
 *    (LOC_LEN_ERR, tx_msg_too_big);
 *  - a packet over a TP of WRITE, SEND or READ response data
 *    (udma_uboe_payload_by_ref()) of at least UDMA_UBOE_ZC_MIN bytes
 *    in pages the network stack may hold (pinned user memory, kernel
 *    memory not from a slab: udma_buf_pages()) holds references on
 *    those pages, and its skbs take them as fragments after a header
 *    fragment (udma_uboe_batch_add_pages()): no copy. Any other payload
 *    is copied from the registered memory into each packet (kept by
 *    the transport until ACKed, then the train's skb:
 *    udma_uboe_batch_add() encodes). Not UM's: its WQE completes once
 *    sent, and the application may write its buffer while the skb is
 *    still on its way. A send that fails completes the WQE with the
 *    status of udma_uboe_tx_status(); a TP that failed (no ACK after
 *    every retry) with ACK_TIMEOUT_ERR, and the queue goes to ERROR.
 *
 * Receiving (udma_uboe_rx_data(), softirq under RCU): an RTP packet's
 * TPN must be an established TP of this device whose peer is the
 * packet's source EID and source TPN (ubcore_tp_rx_lookup(), lockless);
 * else the packet is dropped (unknown_tpn). The packet then becomes a
 * struct udma_uboe_item holding a reference on the skb, whose
 * payload the message points into; the TP's transport takes it only in
 * PSN order (udma_rtp_rx_data()) and queues it on the device's receive
 * list if the device holds fewer than UDMA_UBOE_RXQ_MAX items (else it is
 * dropped, counted as rx_queue_full, and comes again: the sender
 * retransmits). The softirq then executes the requests and completes the
 * responses at the head of the list itself when they need no process
 * context (udma_uboe_rx_run()), and leaves the rest to the device's
 * receive work (a READ sends its data in many packets; a TP whose
 * window is closed makes the responder wait; a response whose SQ is not
 * found while one is being destroyed). Whichever runs them:
 *  - a request: hands the message to the responder (udma_resp_rcv_seg():
 *    the packets of a transaction in several are executed one by one
 *    into the target memory, the TP's struct udma_resp_seg holding the
 *    transaction's state), whose response comes back to
 *    udma_uboe_reply() and leaves as packets from the same device, to the
 *    request's source, over the same TP;
 *  - a response: finds the JFS or jetty of its INI_RC_ID on the device
 *    with a reference and queues the item on its SQ (udma_sq.rsp_list;
 *    the device's bound covers it) unless the SQ is being destroyed
 *    (dropped, rsp_no_sq), then hands the responses to the completer
 *    (udma_uboe_sq_drain()) under the SQ's proc_lock if it can take it
 *    (the softirq only tries: udma_sq_answered()), else kicks the SQ's
 *    work, which does. An SQ no longer found by its ID may be one whose destroy
 *    waits for its answers on the device's list (udma_sq_wait_answers()):
 *    the item is queued to it there, under the list's lock; else it is
 *    dropped (rsp_no_sq). SQ destroy purges what is left (counted,
 *    rsp_no_sq) once it is off the list with dying set and its work
 *    cancelled: nothing is queued to a dead SQ.
 *
 * Lifetime: an item lives on the device's list, or an SQ's list, or in
 * the hands of the work processing it. A device leaving UBoE first leaves
 * the receive path (udma_wire_dev_del(): an RCU grace period), then
 * udma_uboe_rx_stop() stops the list and cancels the work and frees what
 * is left, then stops the TPs' transport (udma_rtp_stop()); the SQs,
 * destroyed later with the device's objects, purge theirs.
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
/* Requests the receive softirq executes before it leaves the rest. */
#define UDMA_UBOE_RX_SOFTIRQ_BUDGET	8

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
	pl->skb = NULL;
	pl->total = pkt->payload_len;
	msg->payload = pkt->payload_len ? pl : NULL;
}
EXPORT_SYMBOL_IF_KUNIT(udma_uboe_pkt_to_msg);

/**
 * udma_uboe_payload_by_ref() - does a packet's payload go by reference
 * @pkt: a data packet's headers
 *
 * The payload of a WRITE, SEND or READ response is only copied, by the
 * target into its registered memory or by the completer into the
 * initiator's: so it may be sent from the pages of the registered memory
 * it comes from without a copy (udma_rtp_pkt.bvec), and received in
 * several pieces of its datagram (struct udma_local_buf.skb). Every other
 * payload (management, an atomic's operands) is read as bytes, in one
 * piece.
 *
 * Return: true for those three kinds.
 */
bool udma_uboe_payload_by_ref(const struct uboe_pkt *pkt)
{
	if (pkt->tp_opcode != UBOE_TP_RTP_DATA &&
	    pkt->tp_opcode != UBOE_TP_UTP_DATA)
		return false;
	switch (pkt->ta_opcode) {
	case UBOE_TA_SEND:
	case UBOE_TA_SEND_IMM:
	case UBOE_TA_WRITE:
	case UBOE_TA_WRITE_IMM:
	case UBOE_TA_WRITE_NOTIFY:
	case UBOE_TA_READ_RESP:
		return true;
	default:
		return false;
	}
}
EXPORT_SYMBOL_IF_KUNIT(udma_uboe_payload_by_ref);

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
 * Return: LOC_LEN_ERR for -EMSGSIZE (a UM datagram larger than a packet
 * at the path MTU, an MTU too small to segment at), LOC_ACCESS_ERR for
 * -EFAULT (its local memory), ACK_TIMEOUT_ERR for -ETIMEDOUT (its TP
 * failed: no ACK after every retry), else LOC_OPERATION_ERR (no route,
 * no memory, a packet the codec refuses).
 */
u8 udma_uboe_tx_status(int err)
{
	switch (err) {
	case -EMSGSIZE:
		return URMA_CR_LOC_LEN_ERR;
	case -ETIMEDOUT:
		return URMA_CR_ACK_TIMEOUT_ERR;
	case -EFAULT:
		return URMA_CR_LOC_ACCESS_ERR;
	default:
		return URMA_CR_LOC_OPERATION_ERR;
	}
}
EXPORT_SYMBOL_IF_KUNIT(udma_uboe_tx_status);

/* The payload room of a packet like @pkt at @udev's MTU, with an OFSTETAH. */
static u32 udma_uboe_room(const struct udma_dev *udev,
			  const struct uboe_pkt *pkt)
{
	struct uboe_pkt p = *pkt;

	p.hdrs |= UBOE_EXT_OFSTETAH;
	return udma_uboe_max_payload(READ_ONCE(udev->netdev->mtu),
				     ubcore_eid_is_ipv4(&pkt->dst_eid), &p);
}

/**
 * udma_ranges_slice() - bytes [@off, @off + @len) of a list of ranges
 * @r: the ranges
 * @nr: entries of @r
 * @off: offset of the first byte, in the ranges one after the other
 * @len: bytes
 * @out: the ranges of the slice, room for @nr; they share @r's segment
 *	references (valid while those are held)
 *
 * Return: entries of @out.
 */
u32 udma_ranges_slice(const struct udma_mem_range *r, u32 nr, u64 off,
		      u64 len, struct udma_mem_range *out)
{
	u32 i, n = 0;
	u64 k;

	for (i = 0; i < nr && len; i++) {
		if (off >= r[i].len) {
			off -= r[i].len;
			continue;
		}
		k = min_t(u64, len, r[i].len - off);
		out[n].seg = r[i].seg;
		out[n].va = r[i].va + off;
		out[n].len = k;
		n++;
		off = 0;
		len -= k;
	}
	return n;
}
EXPORT_SYMBOL_IF_KUNIT(udma_ranges_slice);

/**
 * udma_buf_slice() - bytes [@off, @off + @len) of a local buffer
 * @src: ranges or inline data, at least @off + @len bytes
 * @off: offset of the first byte
 * @len: bytes
 * @dst: the slice; it shares @src's segment references
 */
void udma_buf_slice(const struct udma_local_buf *src, u64 off, u64 len,
		    struct udma_local_buf *dst)
{
	dst->total = len;
	dst->inline_data = NULL;
	dst->skb = NULL;
	dst->nr = 0;
	if (src->nr) {
		dst->nr = udma_ranges_slice(src->range, src->nr, off, len,
					    dst->range);
	} else if (src->inline_data) {
		dst->inline_data = (const u8 *)src->inline_data + off;
	} else if (src->skb) {
		dst->skb = src->skb;
		dst->skb_off = src->skb_off + off;
	}
}
EXPORT_SYMBOL_IF_KUNIT(udma_buf_slice);

/**
 * udma_uboe_seg_pkt() - packet @i of a message in @n
 * @tmpl: the message's packet as if it were one (ONLY), all its headers
 * @i: the packet, 0 .. @n - 1
 * @n: udma_uboe_seg_count() of the message
 * @size: udma_uboe_seg_size() of it
 * @len: the message's bytes
 * @pkt: out: @tmpl with the place (FIRST, MIDDLE, LAST or ONLY), the
 *	headers of that place (those of the last packet only, and an
 *	OFSTETAH on every packet of a message in several) and
 *	@pkt->payload_len;
 *	@pkt->payload is the caller's
 */
void udma_uboe_seg_pkt(const struct uboe_pkt *tmpl, u32 i, u32 n, u32 size,
		       u64 len, struct uboe_pkt *pkt)
{
	u64 off = (u64)i * size;

	*pkt = *tmpl;
	pkt->seg = (i ? 0 : UBOE_SEG_FIRST) | (i == n - 1 ? UBOE_SEG_LAST : 0);
	if (i != n - 1)
		pkt->hdrs &= ~uboe_last_hdrs(tmpl->ta_opcode);
	/*
	 * every packet of a message in several, the FIRST too (offset 0):
	 * all but the last are then one size, one UDP GSO train
	 */
	if (n > 1) {
		pkt->hdrs |= UBOE_EXT_OFSTETAH;
		pkt->offset = off;
	}
	pkt->payload_len = min_t(u64, size, len - off);
}
EXPORT_SYMBOL_IF_KUNIT(udma_uboe_seg_pkt);

/*
 * A message with the headers of @tmpl (those of an ONLY packet) and @len
 * bytes of @src as its payload: one packet, or FIRST, MIDDLE .., LAST
 * ones of udma_uboe_seg_size() bytes each with an OFSTETAH, the headers
 * of the last packet only (uboe_last_hdrs()) on the last one. Over @rtp
 * reliably (its packets consecutive PSNs), or without a TP (@rtp NULL,
 * UM: one datagram at most).
 */
static int udma_uboe_tx_init(struct udma_uboe_tx *tx, struct udma_dev *udev,
			     struct udma_rtp *rtp, const struct uboe_pkt *tmpl,
			     const struct udma_local_buf *src, u64 len,
			     gfp_t gfp)
{
	tx->zerocopy = rtp && src && src->nr && udma_uboe_payload_by_ref(tmpl);
	tx->gfp = gfp;
	tx->may_defer = false;
	tx->route = NULL;
	tx->train = NULL;
	tx->size = udma_uboe_seg_size(len, udma_uboe_room(udev, tmpl));
	tx->n = udma_uboe_seg_count(len, tx->size);
	/* UM: one datagram of the path MTU at most, as the port reports it */
	if ((len && !tx->size) || len > U32_MAX ||
	    (!rtp && (tx->n > 1 || len > udma_path_mtu_bytes(udev))))
		return -EMSGSIZE;
	tx->rtp = rtp;
	tx->tmpl = *tmpl;
	tx->src = src;
	tx->len = len;
	tx->i = 0;
	return 0;
}

/*
 * The packet of @tx of @plen bytes of @slice: its pages referenced (see
 * the top of this file), or a copy of it; an ERR_PTR() when not.
 */
static struct udma_rtp_pkt *udma_uboe_tx_pkt(struct udma_dev *udev,
					     struct udma_uboe_tx *tx,
					     const struct udma_local_buf *slice,
					     u32 plen)
{
	struct udma_rtp_pkt *p;
	int ret;

	if (tx->zerocopy && plen >= UDMA_UBOE_ZC_MIN) {
		p = udma_rtp_pkt_alloc_pages(slice, tx->gfp);
		if (p) {
			udma_wire_inc(udev, UDMA_WIRE_TX_ZEROCOPY);
			return p;
		}
	}
	p = udma_rtp_pkt_alloc(plen, tx->gfp);
	if (!p)
		return ERR_PTR(tx->may_defer ? -EWOULDBLOCK : -ENOMEM);
	if (plen) {
		ret = udma_buf_copy_to_kernel(p->buf, slice, plen);
		if (ret) {
			udma_rtp_pkt_free(p);
			return ERR_PTR(ret == -EINVAL ? -EFAULT : ret);
		}
	}
	return p;
}

/*
 * Send the packets of @tx from @tx->i on, as @owner (udma_rtp_send():
 * with @w, -EAGAIN where it has to wait, @tx->i the packet to send
 * again; without, it sleeps unless @owner reserved the TP). Process
 * context; any context with @tx->gfp GFP_ATOMIC and the TP reserved.
 */
static int udma_uboe_tx_send(struct udma_dev *udev, struct udma_uboe_tx *tx,
			     const void *owner, struct udma_rtp_waiter *w)
{
	struct udma_uboe_batch own, *b = tx->train;
	struct udma_local_buf slice;
	struct udma_rtp_pkt *p;
	int ret = 0;
	u32 plen;
	u64 off;

	/* a message's packets leave in trains (see udma_uboe_batch_add()) */
	if (!b) {
		b = &own;
		udma_uboe_batch_init(b, udev, tx->n - tx->i);
	}
	for (; tx->i < tx->n; tx->i++) {
		off = (u64)tx->i * tx->size;
		plen = min_t(u64, tx->size, tx->len - off);
		if (plen)
			udma_buf_slice(tx->src, off, plen, &slice);
		p = udma_uboe_tx_pkt(udev, tx, &slice, plen);
		if (IS_ERR(p)) {
			/* (nothing of packet i went: it can go on from there) */
			ret = PTR_ERR(p);
			break;
		}
		udma_uboe_seg_pkt(&tx->tmpl, tx->i, tx->n, tx->size, tx->len,
				  &p->pkt);
		p->pkt.payload = p->buf;
		if (tx->rtp) {
			ret = udma_rtp_send(tx->rtp, p, owner, w, b);
			if (ret)
				udma_rtp_pkt_free(p);
		} else {
			/* a UM datagram: the train takes its payload's page */
			ret = udma_rtp_pkt_add(b, &p->pkt.dst_eid, p,
					       tx->route);
			udma_rtp_pkt_free(p);
		}
		if (ret)
			break;
	}
	/* the packets queued so far, while @owner still holds the TP */
	if (b == &own)
		udma_uboe_batch_flush(b);
	return ret;
}

static int udma_uboe_send(struct udma_dev *udev, struct udma_rtp *rtp,
			  const struct uboe_pkt *tmpl,
			  const struct udma_local_buf *src, u64 len,
			  const void *owner, gfp_t gfp)
{
	struct udma_uboe_tx tx;
	int ret;

	ret = udma_uboe_tx_init(&tx, udev, rtp, tmpl, src, len, gfp);
	return ret ?: udma_uboe_tx_send(udev, &tx, owner, NULL);
}

/*
 * The route cache of @sq's UM datagrams to @dst: the queue keeps the route
 * of its last destination, and forgets it for another. Its processor only,
 * which is alone: nothing else uses the cache while it is reset.
 */
static struct dst_cache *udma_uboe_um_route(struct udma_sq *sq,
					    const union ubcore_eid *dst)
{
	struct udma_uboe_sq_tx *st = &sq->uboe_tx;

	if (memcmp(st->um_dst.raw, dst->raw, sizeof(dst->raw))) {
		dst_cache_reset_now(&st->um_route);
		st->um_dst = *dst;
	}
	return &st->um_route;
}

/* @sq's UM datagram (no TP: one packet at most), with the queue's route. */
static int udma_uboe_send_um(struct udma_sq *sq, const struct uboe_pkt *tmpl,
			     const struct udma_local_buf *src, u64 len)
{
	struct udma_uboe_tx tx;
	int ret;

	ret = udma_uboe_tx_init(&tx, sq->udev, NULL, tmpl, src, len,
				udma_sq_gfp(sq));
	if (ret)
		return ret;
	tx.route = udma_uboe_um_route(sq, &tmpl->dst_eid);
	tx.train = &sq->uboe_tx.um_train;
	return udma_uboe_tx_send(sq->udev, &tx, sq, NULL);
}

/* The TP's wake of a queue that stopped for it: its processor goes on. */
static void udma_uboe_sq_wake(struct udma_rtp_waiter *w)
{
	struct udma_sq *sq = container_of(w, struct udma_sq, uboe_tx.wait);

	udma_sq_poke(sq);
}

/**
 * udma_uboe_sq_init() - a new queue has no request stopped for its TP
 * @sq: the queue, being initialised
 */
void udma_uboe_sq_init(struct udma_sq *sq)
{
	sq->uboe_tx.tx.rtp = NULL;
	INIT_LIST_HEAD(&sq->uboe_tx.wait.node);
	sq->uboe_tx.wait.wake = udma_uboe_sq_wake;
	memset(&sq->uboe_tx.um_dst, 0, sizeof(sq->uboe_tx.um_dst));
	/* without one, every datagram looks its route up (still correct) */
	dst_cache_init(&sq->uboe_tx.um_route, GFP_KERNEL | __GFP_NOWARN);
	udma_uboe_batch_init(&sq->uboe_tx.um_train, sq->udev, 1);
}

/**
 * udma_uboe_sq_fini() - a queue being destroyed lets its UM route go
 * @sq: the queue: its processor, tasklet and work are done for good
 */
void udma_uboe_sq_fini(struct udma_sq *sq)
{
	/* (every run flushed its train: an empty one is nothing to do) */
	udma_uboe_batch_flush(&sq->uboe_tx.um_train);
	dst_cache_destroy(&sq->uboe_tx.um_route);
}

/**
 * udma_uboe_sq_flush() - send the UM datagrams of a queue's run
 * @sq: the queue; the caller holds @sq->proc_lock, at the end of its run
 *
 * A run's datagrams to one destination leave together, as one UDP GSO
 * skb (struct udma_uboe_sq_tx.um_train): the IP layer's work and the
 * receiver's wake-up once for all, as a message's packets over a TP do.
 * Their WQEs completed when they joined the train (their payload copied).
 */
void udma_uboe_sq_flush(struct udma_sq *sq)
{
	udma_sq_assert_held(sq);
	udma_uboe_batch_flush(&sq->uboe_tx.um_train);
}

/**
 * udma_uboe_sq_cancel() - a queue gives up its request stopped for its TP
 * @sq: the queue; the caller holds @sq->proc_lock. Its WQE is completed
 *	or dropped by the caller (ERROR, RESET, destroy, an RNR rewind)
 */
void udma_uboe_sq_cancel(struct udma_sq *sq)
{
	struct udma_uboe_sq_tx *st = &sq->uboe_tx;

	udma_sq_assert_held(sq);
	if (!st->tx.rtp)
		return;
	udma_rtp_cancel(st->tx.rtp, sq, &st->wait);
	st->tx.rtp = NULL;
}

/*
 * @sq's request (its WQE at @sq->uboe_tx.psn) could not be sent (@err):
 * the WQE completes with the error's status; a TP that failed fails the
 * queue, this WQE first.
 */
static void udma_uboe_req_failed(struct udma_sq *sq, struct udma_rtp *rtp,
				 int err)
{
	struct udma_uboe_sq_tx *st = &sq->uboe_tx;

	if (err == -EMSGSIZE)
		udma_wire_inc(sq->udev, UDMA_WIRE_TX_TOO_BIG);
	dev_dbg_ratelimited(&sq->udev->ub_dev.dev,
			    "queue %u: request %u not sent: %d\n",
			    udma_sq_id(sq), st->psn, err);
	if (err == -ETIMEDOUT)
		udma_comp_tp_failed(sq, rtp, st->gen);
	else
		udma_comp_local(sq, st->psn, udma_uboe_tx_status(err));
}

/*
 * Send @sq's request on from where it is: all out (it waits for its
 * response), or stopped again for the TP, or failed.
 */
static void udma_uboe_sq_send(struct udma_sq *sq)
{
	struct udma_uboe_sq_tx *st = &sq->uboe_tx;
	struct udma_rtp *rtp = st->tx.rtp;
	int ret;

	/* from where it stopped, in the processor's context of the moment */
	st->tx.gfp = udma_sq_gfp(sq);
	st->tx.may_defer = sq->atomic;
	ret = udma_uboe_tx_send(sq->udev, &st->tx, sq, &st->wait);
	if (ret == -EAGAIN)
		return;
	if (ret == -EWOULDBLOCK) {
		/* no memory in softirq: the work goes on, stopped till then */
		udma_sq_kick(sq, 0);
		return;
	}
	if (!ret) {
		/* (udma_rtp_send() took the waiter off, freed the TP) */
		st->tx.rtp = NULL;
		return;
	}
	udma_uboe_sq_cancel(sq);
	udma_uboe_req_failed(sq, rtp, ret);
}

/**
 * udma_uboe_sq_resume() - go on with a queue's request stopped for its TP
 * @sq: the queue; the caller (its processor) holds @sq->proc_lock
 *
 * Return: true while it still waits (the TP's wake kicks the queue's
 * work): nothing else of the queue is sent meanwhile.
 */
bool udma_uboe_sq_resume(struct udma_sq *sq)
{
	udma_sq_assert_held(sq);
	if (!sq->uboe_tx.tx.rtp)
		return false;
	udma_uboe_sq_send(sq);
	return !!sq->uboe_tx.tx.rtp;
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
 * struct udma_carrier.xmit: the request leaves as packets, or stops for
 * its TP and goes on later (udma_uboe_sq_resume()), or its WQE completes
 * here (see the top of this file). The requester's context: process, or
 * softirq (@sq->atomic: GFP_ATOMIC, and memory it cannot have before
 * anything is sent leaves the request to the work), @req->sq's proc_lock
 * held.
 */
static int udma_uboe_carrier_xmit(struct udma_msg *req)
{
	struct udma_sq *sq = req->sq;
	struct udma_uboe_sq_tx *st = &sq->uboe_tx;
	struct udma_dev *udev = sq->udev;
	u32 tpn = 0, peer_tpn = 0;
	struct udma_rtp *rtp = NULL;
	struct udma_wqe *wqe;
	struct uboe_pkt pkt;
	u64 len;
	int ret;

	st->psn = req->pkt.psn;
	st->gen = 0;

	if (req->pkt.tp_opcode == UBOE_TP_RTP_DATA) {
		if (udma_uboe_req_tp(sq, req, &tpn, &peer_tpn)) {
			udma_wire_inc(udev, UDMA_WIRE_TX_NO_TP);
			dev_dbg_ratelimited(&udev->ub_dev.dev,
					    "queue %u: no TP to %pI6c\n",
					    udma_sq_id(sq),
					    req->pkt.dst_eid.raw);
			udma_comp_local(sq, req->pkt.psn,
					URMA_CR_LOC_OPERATION_ERR);
			return 0;
		}
		rtp = udma_rtp_get(udev, tpn, peer_tpn, &req->pkt.dst_eid,
				   udma_sq_gfp(sq));
		if (!rtp) {
			if (sq->atomic)
				return -EWOULDBLOCK;
			udma_comp_local(sq, req->pkt.psn,
					URMA_CR_LOC_OPERATION_ERR);
			return 0;
		}
		spin_lock_bh(&rtp->lock);
		udma_rtp_use_locked(rtp, peer_tpn, &req->pkt.src_eid,
				    &req->pkt.dst_eid);
		st->gen = rtp->gen;
		spin_unlock_bh(&rtp->lock);
		/* its failure fails the WQE (udma_comp_tp_failed()) */
		wqe = udma_sq_wqe(sq, req->pkt.psn);
		wqe->rtp = rtp;
		wqe->rtp_gen = st->gen;
	}
	len = udma_msg_len(req);
	udma_uboe_msg_to_pkt(req, tpn, peer_tpn, NULL, 0, &pkt);
	/* a READ's data come back in packets of the same size */
	if (pkt.ta_opcode == UBOE_TA_READ && pkt.mae.len &&
	    !udma_uboe_seg_size(pkt.mae.len, udma_uboe_room(udev, &pkt)))
		ret = -EMSGSIZE;
	else if (!rtp)
		ret = udma_uboe_send_um(sq, &pkt, req->payload, len);
	else
		ret = udma_uboe_tx_init(&st->tx, udev, rtp, &pkt,
					req->payload, len, udma_sq_gfp(sq));
	/* (UM: one datagram, and it did not go) */
	if (ret == -ENOMEM && sq->atomic && !rtp)
		return -EWOULDBLOCK;
	if (ret) {
		udma_uboe_req_failed(sq, rtp, ret);
		return 0;
	}
	/* UM: a datagram gets no response */
	if (!rtp) {
		udma_comp_local(sq, req->pkt.psn, URMA_CR_SUCCESS);
		return 0;
	}
	/* an atomic's operands are the request's, which goes now */
	if (req->payload && req->payload->inline_data == req->word) {
		memcpy(st->word, req->word, sizeof(st->word));
		st->operands.nr = 0;
		st->operands.skb = NULL;
		st->operands.inline_data = st->word;
		st->operands.total = req->payload->total;
		st->tx.src = &st->operands;
	}
	udma_uboe_sq_send(sq);
	return 0;
}

/*
 * struct udma_carrier.reply: the response to a request that came in as a
 * packet (an item of the receive work) leaves from the device it came to,
 * back to the request's source over the same TP (udma_resp_init() swapped
 * the TPNs and EIDs), in packets as the request did. A READ response the
 * MTU cannot carry (a peer that did not check) becomes a TAACK with
 * OPERATION. The responder's context: the receive work, or the receive
 * softirq (@it->atomic; udma_uboe_rx_run() reserved the TP for it).
 */
static void udma_uboe_reply(const struct udma_msg *req,
			    const struct udma_msg *rsp)
{
	const struct udma_uboe_item *it = container_of(req,
						       struct udma_uboe_item,
						       msg);
	gfp_t gfp = it->atomic ? GFP_ATOMIC : GFP_KERNEL;
	struct udma_dev *udev = it->udev;
	struct udma_msg refused;
	struct uboe_pkt pkt;
	int ret;

	/* UM: no response */
	if (req->pkt.tp_opcode != UBOE_TP_RTP_DATA || !it->rtp)
		return;
	udma_uboe_msg_to_pkt(rsp, rsp->pkt.stpn, rsp->pkt.dtpn, NULL, 0, &pkt);
	/* (the TP's one responder, the device's receive work, owns it) */
	ret = udma_uboe_send(udev, it->rtp, &pkt, rsp->payload,
			     udma_msg_len(rsp), &it->rtp->seg, gfp);
	if (ret == -EMSGSIZE || ret == -EFAULT) {
		if (ret == -EMSGSIZE)
			udma_wire_inc(udev, UDMA_WIRE_TX_TOO_BIG);
		/* the data could not be sent: say so rather than nothing */
		udma_resp_init(&refused, req, UBOE_RSPST_OPERATION);
		udma_uboe_msg_to_pkt(&refused, refused.pkt.stpn,
				     refused.pkt.dtpn, NULL, 0, &pkt);
		udma_uboe_send(udev, it->rtp, &pkt, NULL, 0, &it->rtp->seg,
			       gfp);
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
	atomic_dec(&it->udev->uboe_rx.alive);
	consume_skb(it->skb);
	kfree(it);
}

/**
 * udma_uboe_item_drop() - free a received packet never queued
 * @item: a struct udma_uboe_item the TP's transport held after a hole
 *
 * Any context.
 */
void udma_uboe_item_drop(void *item)
{
	struct udma_uboe_item *it = item;

	consume_skb(it->skb);
	kfree(it);
}

/**
 * udma_uboe_rx_room() - received packets a device may still hold
 * @udev: the device
 *
 * Return: UDMA_UBOE_RXQ_MAX less the items alive (queued for the receive
 * work or an SQ's work, or being processed).
 */
u32 udma_uboe_rx_room(struct udma_dev *udev)
{
	int alive = atomic_read(&udev->uboe_rx.alive);

	return alive < UDMA_UBOE_RXQ_MAX ? UDMA_UBOE_RXQ_MAX - alive : 0;
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

/* ... and its destination EID: its IP destination. */
static void udma_uboe_skb_dst_eid(const struct sk_buff *skb,
				  union ubcore_eid *eid)
{
	if (ip_hdr(skb)->version == 4)
		ubcore_eid_from_ipv4(eid, ip_hdr(skb)->daddr);
	else
		eid->ip6 = ipv6_hdr(skb)->daddr;
}

/* Queue @item for the receive work if there is room (see the top). */
static bool udma_uboe_take(void *item)
{
	struct udma_uboe_item *it = item;
	struct udma_uboe_rx *rx = &it->udev->uboe_rx;
	bool queued = false;

	spin_lock(&rx->lock);
	if (!rx->stopped && udma_uboe_rx_room(it->udev)) {
		list_add_tail(&it->node, &rx->list);
		rx->len++;
		atomic_inc(&rx->alive);
		queued = true;
	}
	spin_unlock(&rx->lock);
	if (!queued)
		udma_wire_inc(it->udev, UDMA_WIRE_RX_QUEUE_FULL);
	return queued;
}

static void udma_uboe_rx_run(struct udma_dev *udev);

/**
 * udma_uboe_rx_data() - a data packet: a request or a response, of a TP
 *	(RTP_DATA) or of none (UTP_DATA, UM)
 * @udev: the device that owns the destination EID
 * @pkt: the decoded packet
 * @skb: the datagram it came in
 *
 * Checks its TPN, passes it through the TP's transport (udma_rtp_rx_data():
 * in PSN order, once) and queues it for the device's receive work (see the
 * top of this file), which hands it to the responder or the completer.
 * Softirq, under rcu_read_lock(); does not sleep.
 *
 * Return: UBOE_DROP_NONE: queued, or dropped and counted (rx_queue_full,
 * the transport's counters); UBOE_DROP_UNKNOWN_TPN: an RTP packet of no
 * established TP of @udev with its source.
 */
enum uboe_drop udma_uboe_rx_data(struct udma_dev *udev,
				 const struct uboe_pkt *pkt,
				 struct sk_buff *skb)
{
	struct udma_uboe_item *it;
	union ubcore_eid src, dst;
	struct udma_rtp *rtp;
	bool queued;
	u32 peer_tpn;

	if (pkt->has_eid) {
		src = pkt->src_eid;
		dst = pkt->dst_eid;
	} else {
		udma_uboe_skb_src_eid(skb, &src);
		udma_uboe_skb_dst_eid(skb, &dst);
	}
	if (pkt->tp_opcode == UBOE_TP_RTP_DATA &&
	    (ubcore_tp_rx_lookup(&udev->ub_dev, pkt->dtpn, &src, &peer_tpn) ||
	     peer_tpn != pkt->stpn))
		return UBOE_DROP_UNKNOWN_TPN;
	it = kmalloc(sizeof(*it), GFP_ATOMIC);
	if (!it) {
		udma_wire_inc(udev, UDMA_WIRE_RX_QUEUE_FULL);
		return UBOE_DROP_NONE;
	}
	it->udev = udev;
	it->rtp = NULL;
	it->atomic = false;
	udma_uboe_pkt_to_msg(pkt, &it->pl, &it->msg);
	it->msg.pkt.src_eid = src;
	/* the payload is in @skb: ours until the item is freed */
	it->skb = skb_get(skb);
	if (!pkt->payload && pkt->payload_len) {
		it->pl.skb = skb;
		it->pl.skb_off = pkt->payload_off;
	}

	if (pkt->tp_opcode == UBOE_TP_RTP_DATA) {
		rtp = udma_rtp_get(udev, pkt->dtpn, pkt->stpn, &src, GFP_ATOMIC);
		it->rtp = rtp;
		queued = false;
		/* (once taken, @it is the receive work's: not read again) */
		if (rtp) {
			spin_lock_bh(&rtp->lock);
			udma_rtp_use_locked(rtp, pkt->stpn, &dst, &src);
			queued = udma_rtp_rx_data(rtp, pkt, udma_uboe_take,
						  udma_uboe_item_drop, it);
			spin_unlock_bh(&rtp->lock);
		}
	} else {
		queued = udma_uboe_take(it);
	}
	if (!queued) {
		consume_skb(skb);
		kfree(it);
		return UBOE_DROP_NONE;
	}
	udma_uboe_rx_run(udev);
	return UBOE_DROP_NONE;
}

/*
 * A request: the responder executes it and answers (udma_uboe_reply());
 * a message in several packets of a TP is the TP's to reassemble.
 */
static void udma_uboe_rx_req(struct udma_dev *udev, struct udma_uboe_item *it)
{
	it->msg.carrier = &udma_uboe_carrier;
	if (it->rtp)
		udma_resp_rcv_seg(&udev->ub_dev, &it->msg, &it->rtp->seg);
	else
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

/**
 * udma_uboe_tp_failed() - a TP failed: fail what was sent on it
 * @udev: the device
 * @rtp: the TP's transport
 * @gen: the TP of it that failed (udma_rtp.gen)
 *
 * Every queue of the device with WQEs sent on that TP and not answered
 * completes them with URMA_CR_ACK_TIMEOUT_ERR and goes to ERROR
 * (udma_comp_tp_failed()), at once, however many queues there are.
 * Process context; sleeps (each queue's proc_lock).
 */
void udma_uboe_tp_failed(struct udma_dev *udev, const struct udma_rtp *rtp,
			 u32 gen)
{
	struct udma_sq *sq;

	mutex_lock(&udev->sqs_lock);
	list_for_each_entry(sq, &udev->sqs, dev_node) {
		udma_sq_lock(sq);
		udma_comp_tp_failed(sq, rtp, gen);
		udma_sq_unlock(sq);
	}
	mutex_unlock(&udev->sqs_lock);
}

/* Queue @it on @sq's responses; the caller holds @sq->ring->lock. */
static void udma_uboe_sq_add(struct udma_sq *sq, struct udma_uboe_item *it)
{
	list_add_tail(&it->node, &sq->rsp_list);
	WRITE_ONCE(sq->rsp_len, sq->rsp_len + 1);
}

/*
 * A response whose SQ is no longer found by its ID: to the queue being
 * destroyed that waits for its answers (udma_sq_wait_answers()), if any.
 * Return: true when queued there.
 */
static bool udma_uboe_rsp_to_dying(struct udma_dev *udev,
				   struct udma_uboe_item *it)
{
	struct udma_sq *sq;
	bool queued = false;

	if (!READ_ONCE(udev->sqs_dying))
		return false;
	mutex_lock(&udev->sqs_lock);
	list_for_each_entry(sq, &udev->sqs, dev_node) {
		if (!READ_ONCE(sq->dying) ||
		    (udma_sq_id(sq) & UBOE_ID_MASK) != it->msg.pkt.rc_id)
			continue;
		spin_lock_bh(&sq->ring->lock);
		udma_uboe_sq_add(sq, it);
		spin_unlock_bh(&sq->ring->lock);
		udma_sq_answer_came(sq);
		queued = true;
		break;
	}
	mutex_unlock(&udev->sqs_lock);
	return queued;
}

/* Drop the reference udma_uboe_sq_get() took. */
static void udma_uboe_sq_put(struct ubcore_jfs *jfs, struct ubcore_jetty *jetty)
{
	if (jfs)
		ubcore_obj_ref_put(&jfs->obj_ref);
	else
		ubcore_obj_ref_put(&jetty->obj_ref);
}

/*
 * A response to @sq: to its list, for the completer, which runs here,
 * from the receive softirq (@softirq, udma_sq_answered()) or, as the
 * doorbell would, from the receive work: no hop to another worker.
 */
static void udma_uboe_rsp_to_sq(struct udma_sq *sq, struct udma_uboe_item *it,
				bool softirq)
{
	bool queued = false;

	spin_lock_bh(&sq->ring->lock);
	if (!sq->dying) {
		udma_uboe_sq_add(sq, it);
		queued = true;
	}
	spin_unlock_bh(&sq->ring->lock);
	if (!queued) {
		udma_wire_inc(it->udev, UDMA_WIRE_RSP_NO_SQ);
		udma_uboe_item_free(it);
	} else if (softirq) {
		udma_sq_answered(sq);
	} else {
		udma_sq_run(sq);
	}
}

/* A response, in the receive work. */
static void udma_uboe_rx_rsp(struct udma_dev *udev, struct udma_uboe_item *it)
{
	struct ubcore_jetty *jetty;
	struct ubcore_jfs *jfs;
	struct udma_sq *sq;

	sq = udma_uboe_sq_get(udev, it->msg.pkt.rc_id, &jfs, &jetty);
	if (!sq) {
		if (udma_uboe_rsp_to_dying(udev, it))
			return;
		udma_wire_inc(udev, UDMA_WIRE_RSP_NO_SQ);
		udma_uboe_item_free(it);
		return;
	}
	udma_uboe_rsp_to_sq(sq, it, false);
	udma_uboe_sq_put(jfs, jetty);
}

/*
 * Become the one that processes @rx->list (@rx->busy), unless another
 * is: it takes what was queued meanwhile.
 */
static bool udma_uboe_rx_own(struct udma_uboe_rx *rx)
{
	bool owned = false;

	spin_lock_bh(&rx->lock);
	if (!rx->busy) {
		rx->busy = true;
		owned = true;
	}
	spin_unlock_bh(&rx->lock);
	return owned;
}

/*
 * The owner's next item: the head of @rx->list (left there with @peek),
 * or NULL when the list is empty, and then the list has no owner.
 */
static struct udma_uboe_item *udma_uboe_rx_next(struct udma_uboe_rx *rx,
						bool peek)
{
	struct udma_uboe_item *it;

	spin_lock_bh(&rx->lock);
	it = list_first_entry_or_null(&rx->list, struct udma_uboe_item, node);
	if (!it) {
		rx->busy = false;
	} else if (!peek) {
		list_del(&it->node);
		rx->len--;
	}
	spin_unlock_bh(&rx->lock);
	return it;
}

/* The owner lets go of @rx->list; what is left is the work's. */
static void udma_uboe_rx_disown(struct udma_uboe_rx *rx)
{
	bool left;

	spin_lock_bh(&rx->lock);
	rx->busy = false;
	left = !list_empty(&rx->list);
	spin_unlock_bh(&rx->lock);
	if (left)
		udma_rx_kick(&rx->work);
}

/* The device's receive work: a budget of items, requeued while any left. */
static void udma_uboe_rx_work(struct work_struct *work)
{
	struct udma_uboe_rx *rx = container_of(work, struct udma_uboe_rx,
					       work);
	struct udma_dev *udev = container_of(rx, struct udma_dev, uboe_rx);
	struct udma_uboe_item *it;
	u32 n;

	if (!udma_uboe_rx_own(rx))
		return;
	for (n = 0; n < UDMA_UBOE_RX_BUDGET; n++) {
		it = udma_uboe_rx_next(rx, false);
		if (!it)
			return;
		if (!uboe_ta_is_response(it->msg.pkt.ta_opcode))
			udma_uboe_rx_req(udev, it);
		else
			udma_uboe_rx_rsp(udev, it);
		cond_resched();
	}
	udma_uboe_rx_disown(rx);
}

/*
 * A response, in the receive softirq, taken off @rx->list here: false
 * when it is left there for the work (its queue is not found while a
 * queue being destroyed may wait for it: udma_uboe_rsp_to_dying() sleeps).
 */
static bool udma_uboe_rx_rsp_softirq(struct udma_dev *udev,
				     struct udma_uboe_item *it)
{
	struct ubcore_jetty *jetty;
	struct ubcore_jfs *jfs;
	struct udma_sq *sq;

	sq = udma_uboe_sq_get(udev, it->msg.pkt.rc_id, &jfs, &jetty);
	if (!sq && READ_ONCE(udev->sqs_dying))
		return false;
	udma_uboe_rx_next(&udev->uboe_rx, false);
	if (!sq) {
		udma_wire_inc(udev, UDMA_WIRE_RSP_NO_SQ);
		udma_uboe_item_free(it);
		return true;
	}
	udma_uboe_rsp_to_sq(sq, it, true);
	udma_uboe_sq_put(jfs, jetty);
	return true;
}

/*
 * May the receive softirq execute the request @it: one whose response is
 * one packet at most (not a READ's data), on a TP its responder could
 * reserve (no waiting for the window in softirq), or on none (UM).
 */
static bool udma_uboe_rx_atomic_ok(struct udma_uboe_item *it)
{
	if (it->msg.pkt.ta_opcode == UBOE_TA_READ)
		return false;
	return !it->rtp || udma_rtp_reserve(it->rtp, &it->rtp->seg);
}

/*
 * The receive softirq executes the requests at the head of the device's
 * list itself, as rxe's responder runs from its receive path: no wake-up
 * of the work between a packet and its CQE, its completion event (a
 * kernel client's NAPI or tasklet runs right after) and its response;
 * and it completes what the responses answered (udma_sq_answered()), as
 * rxe's completer. It stops at the first item that needs process
 * context, or after UDMA_UBOE_RX_SOFTIRQ_BUDGET items, and the work does
 * the rest. One owner at a time (udma_uboe_rx_own()), so that requests
 * execute in arrival order whoever runs them.
 */
static void udma_uboe_rx_run(struct udma_dev *udev)
{
	struct udma_uboe_rx *rx = &udev->uboe_rx;
	struct udma_uboe_item *it;
	struct udma_rtp *rtp;
	u32 n;

	if (!udma_uboe_rx_own(rx))
		return;
	for (n = 0; n < UDMA_UBOE_RX_SOFTIRQ_BUDGET; n++) {
		/* only the owner takes items: the head stays where it is */
		it = udma_uboe_rx_next(rx, true);
		if (!it)
			return;
		if (uboe_ta_is_response(it->msg.pkt.ta_opcode)) {
			if (!udma_uboe_rx_rsp_softirq(udev, it))
				break;
			continue;
		}
		if (!udma_uboe_rx_atomic_ok(it))
			break;
		udma_uboe_rx_next(rx, false);
		rtp = it->rtp;
		it->atomic = true;
		udma_uboe_rx_req(udev, it);
		/* a request that sent no response (not the LAST packet) */
		if (rtp)
			udma_rtp_unreserve(rtp, &rtp->seg);
	}
	udma_uboe_rx_disown(rx);
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
	atomic_set(&rx->alive, 0);
	INIT_WORK(&rx->work, udma_uboe_rx_work);
	udma_rtp_init(udev);
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
	/* the TPs' timers, senders and unfinished messages */
	udma_rtp_stop(udev);
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
 * Any context: the completer copies READ data, a packet's at a time,
 * without sleeping.
 */
void udma_uboe_sq_drain(struct udma_sq *sq)
{
	struct udma_uboe_item *it, *tmp;
	LIST_HEAD(list);

	udma_sq_assert_held(sq);
	if (!READ_ONCE(sq->rsp_len))
		return;
	udma_uboe_sq_take(sq, &list);
	list_for_each_entry_safe(it, tmp, &list, node) {
		/*
		 * The TPH PSN is the TP's; the WQE is the one of the window
		 * whose PSN's low 16 bits the response's INI_TASSN echoes.
		 */
		it->msg.pkt.psn = (sq->head + (u16)(it->msg.pkt.tassn -
						    (u16)sq->head)) &
				  UBOE_PSN_MASK;
		udma_comp_rcv(sq, &it->msg);
		udma_uboe_item_free(it);
	}
}
EXPORT_SYMBOL_IF_KUNIT(udma_uboe_sq_drain);

/**
 * udma_uboe_sq_purge() - drop the responses of a queue being destroyed
 * @sq: the queue: @sq->dying is set, it is off its device's list and its
 *	work cancelled, so nothing is queued or taken any more
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
