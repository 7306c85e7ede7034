/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * The UBoE carrier of the engine's messages (uboe_carrier.c): requests
 * and responses as UBoE packets between devices, over the TPs of ubcore's
 * connection manager.
 */
#ifndef _UDMA_UBOE_CARRIER_H
#define _UDMA_UBOE_CARRIER_H

#include <linux/list.h>
#include <linux/skbuff.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <linux/workqueue.h>
#include <net/dst_cache.h>

#include "msg.h"
#include "uboe_net.h"
#include "uboe_rtp.h"

struct udma_dev;
struct udma_sq;

/**
 * struct udma_uboe_tx - a message going out in packets over a TP, from
 *	the packet where it is
 * @rtp: the TP; NULL: none (UM), or, in struct udma_uboe_sq_tx, no
 *	message
 * @tmpl: its packet as if it were one (ONLY), all its headers
 * @src: its payload
 * @len: its bytes
 * @size: payload bytes per packet (udma_uboe_seg_size())
 * @n: its packets (udma_uboe_seg_count())
 * @i: the packet to send next
 * @gfp: how its packets are allocated (GFP_ATOMIC: from the receive
 *	softirq, or a queue's processor in softirq)
 * @may_defer: a packet that cannot be allocated stops the message where
 *	it is (-EWOULDBLOCK), holding what it holds of the TP, for process
 *	context to go on (a queue's processor in softirq); else it fails
 *	the message (-ENOMEM)
 * @route: without a TP, the route cache of the datagram's destination
 *	(struct udma_uboe_sq_tx.um_route), or NULL: its route is looked up
 * @train: without a TP, the train the datagram joins and leaves in when
 *	its sender flushes it (struct udma_uboe_sq_tx.um_train), or NULL:
 *	a train of its own, sent at once
 * @zerocopy: its packets may go without a copy of their payload (see
 *	uboe_carrier.c)
 */
struct udma_uboe_tx {
	struct udma_rtp *rtp;
	struct dst_cache *route;
	struct uboe_pkt tmpl;
	const struct udma_local_buf *src;
	u64 len;
	u32 size;
	u32 n;
	u32 i;
	gfp_t gfp;
	bool may_defer;
	struct udma_uboe_batch *train;
	bool zerocopy;
};

/*
 * The smallest payload a packet sends without a copy: below, taking a
 * reference on each page costs about what copying the bytes does.
 */
#define UDMA_UBOE_ZC_MIN	2048

/**
 * struct udma_uboe_sq_tx - the request of a queue that stopped for its TP
 *	(the window full, or another's message going out), to go on from
 *	where it stopped when @wait is woken; the queue's proc_lock
 * @tx: the message (@tx.rtp NULL: none stopped)
 * @wait: on the TP's waiters; its wake kicks the queue's work
 * @psn: its WQE's PSN
 * @gen: the TP it was sent on (udma_rtp.gen)
 * @word: an atomic's operands (the request's do not outlive the send)
 * @operands: @tx.src of an atomic: @word
 * @um_dst: the destination of the queue's last UM datagram
 * @um_route: the route to @um_dst (a TP keeps its own: udma_rtp.route),
 *	for the next datagram to the same EID; the queue's processor only.
 *	Empty for good when it got no memory: every datagram then looks
 *	its route up
 * @um_train: the UM datagrams of the queue's run so far, for one UDP GSO
 *	skb (to one destination, of one size but the last); the run
 *	flushes it at its end (udma_uboe_sq_flush()); the processor only
 */
struct udma_uboe_sq_tx {
	struct udma_uboe_tx tx;
	struct udma_rtp_waiter wait;
	u32 psn;
	u32 gen;
	__be64 word[2];
	struct udma_local_buf operands;
	union ubcore_eid um_dst;
	struct dst_cache um_route;
	struct udma_uboe_batch um_train;
};

/*
 * Received data packets a device holds at most: queued for its receive
 * work or an SQ's, or being processed (the credit its TPs give).
 */
#define UDMA_UBOE_RXQ_MAX	4096

/**
 * struct udma_uboe_rx - a device's received data packets, waiting for
 *	the receive softirq or, when they need process context (a response:
 *	its SQ's proc_lock; a READ: its data in many packets; a TP whose
 *	window is closed), the receive work
 * @lock: protects @list, @len and @stopped; taken in softirq (the UDP
 *	receive path) and, with BHs off, in process context
 * @list: struct udma_uboe_item, in arrival order
 * @len: entries of @list
 * @alive: items of the device not freed yet, on @list, on an SQ's
 *	response list or in a work's hands (at most UDMA_UBOE_RXQ_MAX)
 * @stopped: the device is leaving UBoE: nothing is queued any more
 * @busy: someone processes @list, @work or a receive softirq
 *	(udma_uboe_rx_run()); only it takes items off, one at a time, so
 *	requests of a device execute in arrival order. Whoever queues an
 *	item while it is set leaves the item to it: it lets go only when
 *	it finds the list empty, or hands what is left to @work
 * @work: processes @list in process context
 */
struct udma_uboe_rx {
	spinlock_t lock;		/* see above */
	struct list_head list;
	u32 len;
	atomic_t alive;
	bool stopped;
	bool busy;
	struct work_struct work;
};

/**
 * struct udma_uboe_item - one received data packet, decoded, and the
 *	message it becomes
 * @node: in struct udma_uboe_rx.list or an SQ's response list
 * @skb: the datagram, with a reference of ours: @msg's payload points
 *	into it
 * @udev: the device it arrived at (the responder's reply leaves from it)
 * @rtp: the TP it came on (RTP_DATA), or NULL (UTP_DATA)
 * @msg: the request or response, its @msg.pkt the decoded packet
 * @pl: @msg's payload: the packet's payload bytes, in @skb
 * @atomic: processed in the receive softirq (udma_uboe_rx_run()): the
 *	response must not sleep
 */
struct udma_uboe_item {
	struct list_head node;
	struct sk_buff *skb;
	struct udma_dev *udev;
	struct udma_rtp *rtp;
	struct udma_msg msg;
	struct udma_local_buf pl;
	bool atomic;
};

extern const struct udma_carrier udma_uboe_carrier;

void udma_uboe_rx_init(struct udma_dev *udev);
void udma_uboe_rx_stop(struct udma_dev *udev);
void udma_uboe_sq_drain(struct udma_sq *sq);
void udma_uboe_sq_init(struct udma_sq *sq);
void udma_uboe_sq_fini(struct udma_sq *sq);
void udma_uboe_sq_flush(struct udma_sq *sq);
bool udma_uboe_sq_resume(struct udma_sq *sq);
void udma_uboe_sq_cancel(struct udma_sq *sq);
void udma_uboe_sq_purge(struct udma_sq *sq);
u32 udma_uboe_rx_room(struct udma_dev *udev);
void udma_uboe_item_drop(void *item);
void udma_uboe_tp_failed(struct udma_dev *udev, const struct udma_rtp *rtp,
			 u32 gen);

/* The carrier's pure parts, for KUnit. */
void udma_uboe_msg_to_pkt(const struct udma_msg *msg, u32 stpn, u32 dtpn,
			  const void *payload, u32 len, struct uboe_pkt *pkt);
void udma_uboe_pkt_to_msg(const struct uboe_pkt *pkt,
			  struct udma_local_buf *pl, struct udma_msg *msg);
u32 udma_uboe_max_payload(u32 mtu, bool ipv4, const struct uboe_pkt *pkt);
bool udma_uboe_payload_by_ref(const struct uboe_pkt *pkt);
u8 udma_uboe_tx_status(int err);
u32 udma_ranges_slice(const struct udma_mem_range *r, u32 nr, u64 off,
		      u64 len, struct udma_mem_range *out);
void udma_uboe_seg_pkt(const struct uboe_pkt *tmpl, u32 i, u32 n, u32 size,
		       u64 len, struct uboe_pkt *pkt);
void udma_buf_slice(const struct udma_local_buf *src, u64 off, u64 len,
		    struct udma_local_buf *dst);

#endif /* _UDMA_UBOE_CARRIER_H */
