// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * The reliable transport of UBoE TPs (RTP_DATA), in the manner of
 * rdma_rxe's requester and completer (rxe_req.c: PSNs and the window;
 * rxe_comp.c: ACKs, retransmission, RTO and retry counters), but layered:
 * each end of a TP sends one stream of data packets, its requests and its
 * responses alike, PSN-sequenced from 0 (24 bits, with wrap), and the
 * other end acknowledges that stream with ACK and NAK packets (TPH opcode
 * UBOE_TP_ACK, UBOE_TP_NAK and a TPACKH, include/uapi/ub/uboe_wire.h).
 * The transaction layer above (the requester, responder and completer of
 * msg.h) sees every packet of the stream exactly once and in order.
 *
 * Sender (udma_rtp_send(), process context): a new packet takes the next
 * PSN and a place on the unacknowledged list, which keeps the encoded
 * fields and a copy of the payload until the packet is acknowledged; a
 * retransmission sends that copy again. The copy, not a rebuild from the
 * WQE: a packet may be a response (READ data the target may have changed
 * since, an atomic's old value that must not be computed twice), and the
 * WQE's local memory may be released before the transport's ACK (the
 * transaction's response can overtake it). A WRITE's, SEND's or READ
 * response's payload in pages may be kept as references to those pages
 * instead of a copy (udma_rtp_pkt.bvec: the pages outlive the memory's
 * release, and their bytes no longer matter once the target placed
 * them: a retransmission is then a duplicate it drops). Once half the
 * window is in flight, a packet on each quarter window's PSN and the one that fills
 * the window ask for the ACK (TPH A, udma_rtp_tx_ack_wanted()); the others
 * leave it to the receiver's ACK every UDMA_RTP_ACK_EVERY packets and
 * its delayed ACK (UDMA_RTP_ACK_DELAY_US, long against a round
 * trip: every UDMA_RTP_ACK_EVERY packets of a ping-pong rather than one
 * per packet). Not a message's last packet, as InfiniBand's
 * requester sets AckReq there: a UB request completes on its TAACK, a
 * response of the transaction layer, not on the transport's ACK, which
 * only frees the sender's copies. An ACK right away would cost the
 * receiver a packet to send, in its receive softirq, ahead of the
 * request's execution, for each request and each response. At most the
 * peer's credit (TPACKH window, at most UDMA_RTP_WND; a slow receiver
 * throttles the sender; a window of 0 is taken as 1, the probe the
 * retransmission timer repeats) or the congestion window, whichever is
 * less, is in flight from the oldest unacknowledged PSN. The congestion
 * window (struct udma_rtp_tx.cwnd) is TCP's (RFC 5681, with RFC 6582's
 * recovery point): UDMA_RTP_CWND_INIT for a new TP, slow start up to a
 * threshold and one packet per window above it; a timeout halves the
 * threshold and drops the window to 1; a NAK halves both, once for the
 * packets sent before the loss it names (udma_rtp_tx_loss()). Without
 * the window a path whose queue outgrew the RTO (ubagg-bond's four
 * jetties over a loaded guest: RTTs of seconds) had every TP resend its
 * whole window at each timeout, half the packets on the wire were
 * resends, and a TP whose estimate was still small ran out of retries.
 * Without the NAK's halving, a link that drops a burst's tail (two
 * guests on QEMU's UDP link: its host socket and the guest's virtio
 * queue hold less than 256 packets) lost as much of every window: 64 KiB
 * WRITEs moved 5.5 MB/s with 13% of the packets resent, 11.7 MB/s with
 * 0.2% after. netem's reordering makes NAKs of packets that were not lost
 * too, which now cost it a halving per round trip.
 *
 * Pacing (off unless uboe_pace_pct is set), as TCP's internal pacing
 * does it: new packets leave at uboe_pace_pct percent (200 is what was
 * measured) of the window per smoothed RTT, twice that in slow start
 * (udma_rtp_pace_gap_ns()), at most uboe_pace_burst (4) at
 * once after an idle time (a token bucket: udma_rtp_tx_paced(),
 * udma_rtp_tx.pace_ns). Without an RTT sample nothing is paced, nor are
 * retransmissions (the window bounds them) or a reserved sender's
 * packets. The window alone let a TP send it in one burst, and QEMU's
 * UDP link between two guests lost the bursts' tails in the receiving
 * QEMU's host socket (its drop counter rose exactly as rtp_retransmits
 * did): 64 KiB WRITEs at MTU 9000 resent 7% of their packets unpaced,
 * 1.5% paced, and moved 19% more (the median of 9 pairs of runs; see
 * docs/uboe-wire.md). It is off by default because the smoothed RTT
 * includes the receiver's ACK coalescing: under netem's 5 ms delay and
 * 5% loss (udma-rtp-netem, debug kernel) paced at 200 the 256 MiB WRITE
 * stream took 1370 s, the whole case 1701 s against 1013 unpaced.
 *
 * A sender beyond the window, or whose pacing time has not come, waits
 * holding nothing, as rdma_rxe's requester does: a queue's requester
 * stops where it is (the packet of its message it reached, struct
 * udma_uboe_sq_tx) and the ACK that opens the window, or the pace timer
 * (udma_rtp.pace_timer, an hrtimer at udma_rtp_tx.pace_ns), kicks its
 * work (struct udma_rtp_waiter), so that its proc_lock is free and
 * other queues and the receive side go on; the responder (the
 * device's receive work) sleeps on udma_rtp.wait. A message's packets
 * are consecutive PSNs (the receiver reassembles one message per TP at
 * a time): between its first and its last packet its sender owns the TP
 * (udma_rtp.tx_owner) and any other waits the same way.
 *
 * Receiver (udma_rtp_rx_data(), softirq): the packet of the expected PSN
 * is taken if the device's receive queue has room for it (else it is
 * dropped as if lost, rx_queue_full, and comes again), the expected PSN
 * advances, and a cumulative ACK (TPH PSN: the last PSN taken; TPACKH
 * window: the receive queue's room, at most UDMA_RTP_WND) goes out when
 * the packet asks for one (TPH A), every UDMA_RTP_ACK_EVERY packets, or
 * UDMA_RTP_ACK_DELAY_US (at most a quarter of the RTO) after the first
 * packet not acknowledged. A packet
 * before the expected PSN is a duplicate (rtp_dup_drops), dropped and
 * ACKed again (its ACK was lost) by the delayed ACK, one for a burst.
 * One after it within the window came after a hole (rtp_out_of_seq): it
 * is held (struct udma_rtp_rx.ooo, one slot per PSN of the window, a
 * second copy is a duplicate) and taken,
 * in order, as soon as the hole is filled; once UDMA_RTP_NAK_AFTER
 * packets arrived after the hole, one NAK SEQ_ERR (rtp_nak_tx) names it.
 * Each ACK and SEQ_ERR NAK says in its TPACKH info how many packets the
 * receiver holds after the hole (at most 255), and after the NAK it ACKs
 * again every UDMA_RTP_HELD_ACK_EVERY packets it takes into holding
 * (udma_rtp_rx_held_ack_due()).
 * One beyond the window is dropped (rtp_out_of_window). The transaction
 * layer still sees every packet once and in PSN order.
 *
 * Retransmission: a NAK (rtp_nak_rx) makes the sender send the packet it
 * names, the oldest unacknowledged, again; an RTO the oldest too, and
 * then the rest from it as far as the congestion window lets, more with
 * each ACK until every packet unacknowledged at the timeout went again
 * (go-back-N, struct udma_rtp_tx.resend; the receiver's cumulative ACK
 * skips what it held); new packets wait for that (rtp_retransmits:
 * packets sent again). The sender does not count what the peer holds
 * as in flight (struct udma_rtp_tx.held; RFC 6675's pipe, with the count
 * in place of SACK blocks): after a loss it goes on sending new packets
 * within the peer's credit and the halved window, rather than idling
 * for the round trip the hole's resending takes. When the peer holds
 * UDMA_RTP_NAK_AFTER packets sent after that resending and the hole is
 * still open, the resent packet was lost as well and goes again
 * (udma_rtp_tx_hole_lost()), before the RTO would find it.
 * Why not go-back-N on a NAK too: a network that
 * reorders (netem's jitter reorders nearly every burst) would have every
 * reordered packet trigger a resend of the whole window; holding what
 * came after a hole costs at most UDMA_RTP_WND packets per TP, and the
 * receiver still places each packet straight into the target memory
 * (WRITE at its offset, SEND at the running offset of its RQE) and
 * executes transactions in order, so an atomic executes exactly once (a
 * duplicate never reaches the responder; its response is a packet of the
 * responder's own stream, retransmitted from its copy, not executed
 * again: no replay cache is needed). The RTO's go-back-N covers a lost
 * NAK, a lost retransmission and the loss of the last packets (no later
 * packet to reveal the hole).
 *
 * RTO: estimated from the RTT as RFC 6298 does it (SRTT + 4 RTTVAR,
 * samples only from the ACKs of packets sent once: Karn), never less than
 * uboe_rto_ms (or the TP's ACK timeout) nor more than the largest RTT
 * sample (UDMA_RTP_RTT_MAX_US); doubled at every timeout up to
 * UDMA_RTP_RTO_MAX_MS (or the estimate's, if more), back to the estimate
 * on progress. The estimate is not capped at UDMA_RTP_RTO_MAX_MS: a path
 * whose queue grew past it (ubagg-bond's Balance write over a loaded
 * guest: RTTs of 2 s against an RTO capped at 2 s) timed out on packets
 * still queued, two thirds of them resent, goodput near 0. A fixed RTO
 * below the path's RTT resends whole windows that were not lost: on a
 * slow or loaded path (a guest whose vCPUs are starved, a long netem
 * queue) those resends lengthen the queue further, until the peer's own
 * packets are starved and its TP fails. After uboe_retry_cnt timeouts in
 * a row
 * (rtp_ack_timeouts) the TP has failed: its unacknowledged packets are
 * dropped, every sender waiting on it fails (-ETIMEDOUT) and every queue
 * with requests sent on it and not answered (acknowledged by the
 * transport or not) completes them with URMA_CR_ACK_TIMEOUT_ERR and goes
 * to ERROR (flush CQEs, JETTY_ERR / JFS_ERR event: udma_uboe_tp_failed(),
 * which finds them however many queues there are); then ubcore loses the
 * TP at both ends (ubcore_tp_transport_failed(): the peer is told), since
 * the peer's own transport may be healthy and its requests would otherwise
 * wait for ever for responses this end cannot send. The RTO and the retry limit are
 * module parameters: a TP of RM mode is shared by every jetty of an EID
 * pair, so no one jetty's err_timeout or retry count can be its.
 *
 * Close and peer loss: when ubcore's connection manager closes a TP at
 * this end (its last user closed it, the peer's DCONN_NOTIFY, or the
 * peer is gone: keepalives unanswered, this port down) it calls
 * udma_tp_closed() (ubcore_ops.tp_closed), and the TP fails as after the
 * last retry, at once; so do the WQEs whose requests the transport had
 * acknowledged but whose responses never came (every WQE records the TP
 * it was sent on, udma_wqe.rtp), which no retry would catch. A user that
 * closes the TP under its own requests (unbinds, unimports) gets them
 * back as ACK_TIMEOUT_ERR, and the memory they hold is free again: they
 * would else wait for ever, their segments with them.
 *
 * The state of a TP (struct udma_rtp) is created on the first packet sent
 * or received on it, in the device's xarray by local TPN, and checked on
 * every use: when the TPN comes back for another peer (ubcore made a new
 * TP) it starts over; a timeout on a TP that ubcore closed drops what
 * was unacknowledged (fails nothing). It is freed with the device (udma_rtp_free()); the
 * device's removal stops every TP first (udma_rtp_stop()).
 *
 * /sys/kernel/debug/udma/rtp (root) shows every TP's state, one line
 * each: what a transfer that stopped moving waits for.
 */
#include <linux/jiffies.h>
#include <linux/kernel.h>
#include <linux/list.h>
#include <linux/minmax.h>
#include <linux/moduleparam.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/xarray.h>

#include <ub/ubcore_tp.h>

#include <kunit/visibility.h>

#include "target.h"
#include "udma.h"

static unsigned int udma_rtp_rto_ms = 100;
module_param_named(uboe_rto_ms, udma_rtp_rto_ms, uint, 0644);
MODULE_PARM_DESC(uboe_rto_ms,
		 "UBoE TP retransmission timeout in ms, doubled per timeout (default 100)");

static unsigned int udma_rtp_pace_pct;
module_param_named(uboe_pace_pct, udma_rtp_pace_pct, uint, 0644);
MODULE_PARM_DESC(uboe_pace_pct,
		 "UBoE TP pacing rate in percent of its window per smoothed RTT, twice that in slow start; 0: no pacing (default 0; 200 for a link that drops bursts)");

static unsigned int udma_rtp_pace_burst = 4;
module_param_named(uboe_pace_burst, udma_rtp_pace_burst, uint, 0644);
MODULE_PARM_DESC(uboe_pace_burst,
		 "UBoE TP packets that may leave at once after an idle time when paced (default 4)");

static unsigned int udma_rtp_retry_cnt = 7;
module_param_named(uboe_retry_cnt, udma_rtp_retry_cnt, uint, 0644);
MODULE_PARM_DESC(uboe_retry_cnt,
		 "UBoE TP timeouts in a row before its requests fail with ACK_TIMEOUT_ERR (default 7)");

/* 4.096 us << at: a TP's ACK timeout (urma_tp_attr_value_t's at), in ns. */
static u64 udma_rtp_at_ns(u8 at)
{
	return 4096ULL << at;
}

/**
 * udma_tp_defaults() - ubcore_ops.tp_defaults: the module parameters as a
 *	TP's transport values
 * @ub_dev: the device
 * @xport: filled in: uboe_retry_cnt (at most UBCORE_TP_RETRY_CNT_MAX, the
 *	width of urma_tp_attr_value_t's field), and the smallest ACK timeout
 *	exponent whose timeout covers uboe_rto_ms (15, 134 ms, for 100 ms)
 */
void udma_tp_defaults(struct ubcore_device *ub_dev,
		      struct ubcore_tp_xport *xport)
{
	u64 rto_ns = (u64)clamp_val(READ_ONCE(udma_rtp_rto_ms), 1,
				    UDMA_RTP_RTO_MAX_MS) * NSEC_PER_MSEC;
	u8 at = 0;

	while (at < UBCORE_TP_ACK_TIMEOUT_MAX && udma_rtp_at_ns(at) < rto_ns)
		at++;
	xport->retry_cnt = min_t(unsigned int, READ_ONCE(udma_rtp_retry_cnt),
				 UBCORE_TP_RETRY_CNT_MAX);
	xport->ack_timeout = at;
}

/*
 * The TP's own values (urma_set_tp_attr(), kept by ubcore with the TP),
 * else UBCORE_TP_XPORT_UNSET: the module parameters apply.
 */
static struct ubcore_tp_xport udma_rtp_xport(const struct udma_rtp *rtp)
{
	struct ubcore_tp_xport x;

	if (ubcore_tp_xport(&rtp->udev->ub_dev, rtp->tpn, &x)) {
		x.retry_cnt = UBCORE_TP_XPORT_UNSET;
		x.ack_timeout = UBCORE_TP_XPORT_UNSET;
	}
	return x;
}

/* The first RTO of @rtp, jiffies. */
static unsigned long udma_rtp_rto0(const struct udma_rtp *rtp)
{
	struct ubcore_tp_xport x = udma_rtp_xport(rtp);
	unsigned int ms = READ_ONCE(udma_rtp_rto_ms);

	if (x.ack_timeout != UBCORE_TP_XPORT_UNSET)
		ms = min_t(u64, DIV_ROUND_UP_ULL(udma_rtp_at_ns(x.ack_timeout),
						 NSEC_PER_MSEC),
			   UDMA_RTP_RTO_MAX_MS);
	return max(msecs_to_jiffies(clamp_val(ms, 1, UDMA_RTP_RTO_MAX_MS)), 1UL);
}

/* The timeouts in a row after which @rtp fails. */
static unsigned int udma_rtp_retry_limit(const struct udma_rtp *rtp)
{
	struct ubcore_tp_xport x = udma_rtp_xport(rtp);

	return x.retry_cnt != UBCORE_TP_XPORT_UNSET ? x.retry_cnt :
	       READ_ONCE(udma_rtp_retry_cnt);
}

/* The pure parts ------------------------------------------------------ */

/* No hole at @una is known any more: nothing held, nothing resent. */
static void udma_rtp_tx_forget_hole(struct udma_rtp_tx *tx)
{
	tx->held = 0;
	tx->hole_sent = false;
}

/**
 * udma_rtp_tx_init() - an empty sending half, PSN 0 next
 * @tx: the state
 */
void udma_rtp_tx_init(struct udma_rtp_tx *tx)
{
	tx->next = 0;
	tx->una = 0;
	tx->wnd = UDMA_RTP_WND;
	INIT_LIST_HEAD(&tx->unacked);
	tx->nr = 0;
	tx->acked_sent_ns = 0;
	tx->cwnd = UDMA_RTP_CWND_INIT;
	tx->ssthresh = UDMA_RTP_WND;
	tx->cwnd_acked = 0;
	tx->resend = NULL;
	tx->recovering = false;
	tx->recover = 0;
	udma_rtp_tx_forget_hole(tx);
	tx->pace_ns = 0;
}
EXPORT_SYMBOL_IF_KUNIT(udma_rtp_tx_init);

/**
 * udma_rtp_tx_queue() - a new packet takes the next PSN
 * @tx: the state
 * @p: the packet; its @p->pkt.psn is set
 */
void udma_rtp_tx_queue(struct udma_rtp_tx *tx, struct udma_rtp_pkt *p)
{
	p->pkt.psn = tx->next;
	list_add_tail(&p->node, &tx->unacked);
	tx->nr++;
	tx->next = udma_psn_add(tx->next, 1);
}
EXPORT_SYMBOL_IF_KUNIT(udma_rtp_tx_queue);

/*
 * @n packets were acknowledged: the congestion window opens by @n below
 * the slow-start threshold, by one per window's worth above it.
 */
static void udma_rtp_tx_grow(struct udma_rtp_tx *tx, u32 n)
{
	u32 k = min(n, tx->ssthresh > tx->cwnd ? tx->ssthresh - tx->cwnd : 0);

	tx->cwnd += k;
	tx->cwnd_acked += n - k;
	while (tx->cwnd_acked >= tx->cwnd && tx->cwnd < UDMA_RTP_WND) {
		tx->cwnd_acked -= tx->cwnd;
		tx->cwnd++;
	}
	if (tx->cwnd >= UDMA_RTP_WND) {
		tx->cwnd = UDMA_RTP_WND;
		tx->cwnd_acked = 0;
	}
}

/**
 * udma_rtp_tx_ack() - a cumulative ACK
 * @tx: the state
 * @psn: every PSN up to this one arrived
 * @wnd: the peer's credit (TPACKH window)
 *
 * Frees the packets it acknowledges and opens the congestion window by
 * them; a recovery goes on from the oldest unacknowledged packet if it
 * had not reached it. An ACK of nothing new (a duplicate, an old one)
 * only updates the credit; one of a PSN not sent yet is ignored.
 *
 * Return: packets acknowledged.
 */
u32 udma_rtp_tx_ack(struct udma_rtp_tx *tx, u32 psn, u16 wnd)
{
	u32 n = udma_psn_diff(udma_psn_add(psn, 1), tx->una);
	bool resent = false, passed = false;
	struct udma_rtp_pkt *p;
	u32 i;

	if (n > tx->nr)
		return 0;
	tx->wnd = clamp_t(u32, wnd, 1, UDMA_RTP_WND);
	/*
	 * Karn: an ACK that covers a resent packet may answer the resend or
	 * the first sending, and the packets after it waited for the resend:
	 * no sample from it at all.
	 */
	for (i = 0; i < n; i++) {
		p = list_first_entry(&tx->unacked, struct udma_rtp_pkt, node);
		list_del(&p->node);
		resent |= p->resent;
		passed |= p == tx->resend;
		tx->acked_sent_ns = resent ? 0 : p->sent_ns;
		udma_rtp_pkt_free(p);
	}
	tx->nr -= n;
	tx->una = udma_psn_add(tx->una, n);
	if (n)
		udma_rtp_tx_forget_hole(tx);
	/* everything sent before the loss is in: the next NAK is news */
	if (tx->recovering &&
	    udma_psn_diff(tx->una, tx->recover) <= UBOE_PSN_MASK / 2)
		tx->recovering = false;
	/* the peer had what the recovery was about to send again */
	if (passed)
		tx->resend = tx->nr ? list_first_entry(&tx->unacked,
						       struct udma_rtp_pkt,
						       node) : NULL;
	if (n)
		udma_rtp_tx_grow(tx, n);
	return n;
}
EXPORT_SYMBOL_IF_KUNIT(udma_rtp_tx_ack);

/**
 * udma_rtp_tx_purge() - drop every unacknowledged packet
 * @tx: the state; its PSNs go on from where they were
 */
void udma_rtp_tx_purge(struct udma_rtp_tx *tx)
{
	struct udma_rtp_pkt *p, *tmp;

	list_for_each_entry_safe(p, tmp, &tx->unacked, node)
		udma_rtp_pkt_free(p);
	INIT_LIST_HEAD(&tx->unacked);
	tx->nr = 0;
	tx->una = tx->next;
	tx->resend = NULL;
	tx->recovering = false;
	udma_rtp_tx_forget_hole(tx);
}
EXPORT_SYMBOL_IF_KUNIT(udma_rtp_tx_purge);

/**
 * udma_rtp_tx_limit() - packets that may be in flight from the oldest
 *	unacknowledged
 * @tx: the state
 *
 * Return: the peer's credit or the congestion window, whichever is less.
 */
u32 udma_rtp_tx_limit(const struct udma_rtp_tx *tx)
{
	return min(tx->wnd, tx->cwnd);
}
EXPORT_SYMBOL_IF_KUNIT(udma_rtp_tx_limit);

/**
 * udma_rtp_tx_held() - the peer holds packets after the hole it names
 * @tx: the state, after udma_rtp_tx_ack() of the same ACK or NAK
 * @psn: the PSN the peer expects next (the hole)
 * @held: packets after @psn it holds (TPACKH info, at most 255)
 *
 * Only a count of the hole at @tx->una is taken: an older ACK's is of a
 * hole since filled. At most every unacknowledged packet but the hole.
 */
void udma_rtp_tx_held(struct udma_rtp_tx *tx, u32 psn, u32 held)
{
	if (psn == tx->una)
		tx->held = min(held, tx->nr ? tx->nr - 1 : 0);
}
EXPORT_SYMBOL_IF_KUNIT(udma_rtp_tx_held);

/**
 * udma_rtp_tx_hole_resent() - the hole a NAK named was sent again
 * @tx: the state, the hole at @tx->una
 */
void udma_rtp_tx_hole_resent(struct udma_rtp_tx *tx)
{
	tx->hole_sent = true;
	tx->hole_next = tx->next;
}
EXPORT_SYMBOL_IF_KUNIT(udma_rtp_tx_hole_resent);

/**
 * udma_rtp_tx_hole_lost() - was the resent packet of the hole lost too
 * @tx: the state, after the peer's count of what it holds (@tx->held)
 *
 * The peer holds at most the packets sent between the hole and its
 * resending; holding UDMA_RTP_NAK_AFTER more, sent after it, with the
 * hole still open, it lost the resent packet too (reordering goes no
 * further than that, as for a NAK). Without this only the RTO would
 * find it, and counting what the peer holds (udma_rtp_tx_in_flight())
 * lets the sender go on sending until then.
 *
 * Return: true when the caller is to send the hole again (and call
 * udma_rtp_tx_hole_resent()).
 */
bool udma_rtp_tx_hole_lost(const struct udma_rtp_tx *tx)
{
	return tx->hole_sent &&
	       tx->held >= udma_psn_diff(tx->hole_next, tx->una) - 1 +
			   UDMA_RTP_NAK_AFTER;
}
EXPORT_SYMBOL_IF_KUNIT(udma_rtp_tx_hole_lost);

/**
 * udma_rtp_tx_in_flight() - packets in the network
 * @tx: the state
 *
 * Return: the unacknowledged packets but those the peer holds.
 */
u32 udma_rtp_tx_in_flight(const struct udma_rtp_tx *tx)
{
	return tx->nr - tx->held;
}
EXPORT_SYMBOL_IF_KUNIT(udma_rtp_tx_in_flight);

/**
 * udma_rtp_tx_ack_wanted() - does a packet just queued ask for an ACK
 * @tx: the state, with the packet queued
 * @psn: the packet's PSN
 *
 * The receiver ACKs every UDMA_RTP_ACK_EVERY packets by itself; the
 * sender asks (TPH A) only so that its window opens before it runs out:
 * once half the window is in flight, on every quarter window's PSN and on
 * the packet that fills it. Asking on every packet past the half, as it
 * did, made a bulk transfer's receiver ACK each packet, one skb each way
 * per data packet that trains had not amortised.
 *
 * Return: true when the packet is to carry TPH A.
 */
bool udma_rtp_tx_ack_wanted(const struct udma_rtp_tx *tx, u32 psn)
{
	u32 limit = udma_rtp_tx_limit(tx), n = udma_rtp_tx_in_flight(tx);

	if (n < limit / 2)
		return false;
	return n >= limit || psn % max(limit / 4, 1U) == 0;
}
EXPORT_SYMBOL_IF_KUNIT(udma_rtp_tx_ack_wanted);

/**
 * udma_rtp_tx_room() - may a new packet be sent
 * @tx: the state
 *
 * Return: true while no recovery is under way, fewer packets than the
 * peer's credit are unacknowledged and fewer than the congestion window
 * are in flight (udma_rtp_tx_in_flight()).
 */
bool udma_rtp_tx_room(const struct udma_rtp_tx *tx)
{
	return !tx->resend && tx->nr < tx->wnd &&
	       udma_rtp_tx_in_flight(tx) < tx->cwnd;
}
EXPORT_SYMBOL_IF_KUNIT(udma_rtp_tx_room);

/**
 * udma_rtp_pace_gap_ns() - the time between two new packets when paced
 * @tx: the state
 * @srtt_us: the TP's smoothed RTT, 0 before its first sample
 * @pct: the pacing rate in percent of udma_rtp_tx_limit() per @srtt_us
 *	(uboe_pace_pct), twice that in slow start, as TCP paces
 *
 * Return: the gap in ns; 0 (no pacing) without an RTT or with @pct 0.
 */
u64 udma_rtp_pace_gap_ns(const struct udma_rtp_tx *tx, u32 srtt_us, u32 pct)
{
	u64 rate = (u64)udma_rtp_tx_limit(tx) * pct;

	if (!srtt_us || !rate)
		return 0;
	if (tx->cwnd < tx->ssthresh)
		rate *= 2;
	return div64_u64((u64)srtt_us * NSEC_PER_USEC * 100, rate);
}
EXPORT_SYMBOL_IF_KUNIT(udma_rtp_pace_gap_ns);

/**
 * udma_rtp_tx_paced() - a new packet left: when the next one may
 * @tx: the state
 * @now: the time it left (ktime_get_ns())
 * @gap: udma_rtp_pace_gap_ns(); 0 turns pacing off
 * @burst: packets that may leave at once after an idle time (at least 1,
 *	at most UDMA_RTP_WND)
 *
 * Sets @tx->pace_ns: a token bucket of @burst packets, refilled one
 * packet per @gap.
 */
void udma_rtp_tx_paced(struct udma_rtp_tx *tx, u64 now, u64 gap, u32 burst)
{
	/* (a burst beyond the window means nothing, and must not overflow) */
	u64 credit = gap * (clamp_t(u32, burst, 1, UDMA_RTP_WND) - 1);

	if (!gap) {
		tx->pace_ns = 0;
		return;
	}
	tx->pace_ns = max(tx->pace_ns, now > credit ? now - credit : 0) + gap;
}
EXPORT_SYMBOL_IF_KUNIT(udma_rtp_tx_paced);

/**
 * udma_rtp_tx_timeout() - the retransmission timer expired: go back to the
 *	oldest unacknowledged packet
 * @tx: the state, with packets unacknowledged
 * @first: the first timeout in a row: the slow-start threshold halves
 *	(later ones in a row leave it: the window they would halve is
 *	already 1)
 *
 * The congestion window drops to 1 and a recovery starts from the oldest
 * packet (udma_rtp_tx_next_resend()).
 */
void udma_rtp_tx_timeout(struct udma_rtp_tx *tx, bool first)
{
	if (first)
		tx->ssthresh = max_t(u32, tx->cwnd / 2, UDMA_RTP_SSTHRESH_MIN);
	tx->cwnd = 1;
	tx->cwnd_acked = 0;
	tx->recovering = true;
	tx->recover = tx->next;
	/* every packet goes again: what the peer held is not counted */
	udma_rtp_tx_forget_hole(tx);
	tx->resend = tx->nr ? list_first_entry(&tx->unacked,
					       struct udma_rtp_pkt, node) :
			      NULL;
}
EXPORT_SYMBOL_IF_KUNIT(udma_rtp_tx_timeout);

/**
 * udma_rtp_tx_loss() - a NAK named a hole
 * @tx: the state
 *
 * The congestion window halves (to UDMA_RTP_SSTHRESH_MIN at least), once
 * per window of packets: the NAKs of the packets sent before the first
 * loss are that loss (RFC 6582's recovery point). A burst larger than
 * the path holds (a guest's virtio queue, the host socket of QEMU's
 * link) loses its tail; without this the sender sent the next window as
 * large, and lost as much again.
 */
void udma_rtp_tx_loss(struct udma_rtp_tx *tx)
{
	if (tx->recovering)
		return;
	tx->ssthresh = max_t(u32, tx->cwnd / 2, UDMA_RTP_SSTHRESH_MIN);
	tx->cwnd = tx->ssthresh;
	tx->cwnd_acked = 0;
	tx->recovering = true;
	tx->recover = tx->next;
}
EXPORT_SYMBOL_IF_KUNIT(udma_rtp_tx_loss);

/* May the recovery send its next packet again now. */
static bool udma_rtp_tx_resend_due(const struct udma_rtp_tx *tx)
{
	return tx->resend &&
	       udma_psn_diff(tx->resend->pkt.psn, tx->una) <
	       udma_rtp_tx_limit(tx);
}

/**
 * udma_rtp_tx_next_resend() - the next packet a recovery sends again
 * @tx: the state
 *
 * Return: the packet, which the caller sends (it stays unacknowledged),
 * or NULL: no recovery under way, or as many in flight as
 * udma_rtp_tx_limit() lets be (the next ACK lets more go). The recovery
 * ends with its last packet.
 */
struct udma_rtp_pkt *udma_rtp_tx_next_resend(struct udma_rtp_tx *tx)
{
	struct udma_rtp_pkt *p = tx->resend;

	if (!udma_rtp_tx_resend_due(tx))
		return NULL;
	tx->resend = list_is_last(&p->node, &tx->unacked) ? NULL :
		     list_next_entry(p, node);
	return p;
}
EXPORT_SYMBOL_IF_KUNIT(udma_rtp_tx_next_resend);

/**
 * udma_rtp_rtt_sample() - an RTT sample updates the estimate (RFC 6298)
 * @e: the estimate
 * @r_us: the sample: from a packet's first sending to its ACK, in us
 *	(at most UDMA_RTP_RTT_MAX_US counts)
 * @g_us: the clock granularity of the retransmission timer, in us
 *
 * Return: the retransmission timeout the estimate gives, SRTT + max(G,
 * 4 RTTVAR), in us (the caller bounds it).
 */
u32 udma_rtp_rtt_sample(struct udma_rtp_rtt *e, u32 r_us, u32 g_us)
{
	u32 r = clamp_t(u32, r_us, 1, UDMA_RTP_RTT_MAX_US), d;

	if (!e->srtt_us) {
		e->srtt_us = r;
		e->rttvar_us = r / 2;
	} else {
		d = e->srtt_us > r ? e->srtt_us - r : r - e->srtt_us;
		e->rttvar_us = e->rttvar_us - e->rttvar_us / 4 + d / 4;
		e->srtt_us = max(e->srtt_us - e->srtt_us / 8 + r / 8, 1U);
	}
	return e->srtt_us + max(g_us, 4 * e->rttvar_us);
}
EXPORT_SYMBOL_IF_KUNIT(udma_rtp_rtt_sample);

/**
 * udma_rtp_rto_estimate() - an RTT sample updates the estimate; the RTO
 *	it gives a TP
 * @e: the estimate
 * @r_us: the sample, as for udma_rtp_rtt_sample()
 * @g_us: the clock granularity, as for udma_rtp_rtt_sample()
 * @rto0_us: the TP's first RTO, its least
 *
 * Return: udma_rtp_rtt_sample()'s RTO, at least @rto0_us and at most
 * UDMA_RTP_RTT_MAX_US: never below the RTT a slow path has, however
 * slow (the back-off's cap, UDMA_RTP_RTO_MAX_MS, does not bound it).
 */
u32 udma_rtp_rto_estimate(struct udma_rtp_rtt *e, u32 r_us, u32 g_us,
			  u32 rto0_us)
{
	/* (@rto0_us is at most UDMA_RTP_RTO_MAX_MS: udma_rtp_rto0()) */
	return clamp_t(u32, udma_rtp_rtt_sample(e, r_us, g_us), rto0_us,
		       UDMA_RTP_RTT_MAX_US);
}
EXPORT_SYMBOL_IF_KUNIT(udma_rtp_rto_estimate);

/**
 * udma_rtp_rx_verdict() - what a data packet of PSN @psn is to the receiver
 * @rx: the receiving half
 * @psn: the packet's PSN
 *
 * A sender never has more than UDMA_RTP_WND packets in flight from its
 * oldest unacknowledged one, which is at most the expected PSN: a packet
 * further ahead is not of this TP's stream.
 *
 * Return: enum udma_rtp_verdict.
 */
enum udma_rtp_verdict udma_rtp_rx_verdict(const struct udma_rtp_rx *rx,
					  u32 psn)
{
	u32 d = udma_psn_diff(psn, rx->epsn);

	if (!d)
		return UDMA_RTP_NEW;
	if (udma_psn_before(psn, rx->epsn))
		return UDMA_RTP_DUP;
	return d < UDMA_RTP_WND ? UDMA_RTP_GAP : UDMA_RTP_OUT;
}
EXPORT_SYMBOL_IF_KUNIT(udma_rtp_rx_verdict);

/**
 * udma_rtp_rx_take() - the expected packet was taken
 * @rx: the receiving half
 * @ack_req: the packet asked for an ACK (TPH A)
 *
 * Return: true when an ACK is due now (asked for, or UDMA_RTP_ACK_EVERY
 * packets since the last); the caller sends it and clears @rx->unacked.
 * Otherwise the delayed ACK covers the packet.
 */
bool udma_rtp_rx_take(struct udma_rtp_rx *rx, bool ack_req)
{
	rx->epsn = udma_psn_add(rx->epsn, 1);
	rx->nak_sent = false;
	rx->after = 0;
	rx->unacked++;
	return ack_req || rx->unacked >= UDMA_RTP_ACK_EVERY;
}
EXPORT_SYMBOL_IF_KUNIT(udma_rtp_rx_take);

/**
 * udma_rtp_rx_nak_due() - is the hole at the expected PSN to be NAKed now
 * @rx: the receiving half, after a packet was taken or held
 * @refilled: the packet just taken filled a hole that had been NAKed
 *
 * A hole is NAKed once: when UDMA_RTP_NAK_AFTER packets came after it
 * (reordering goes no further than that), or, right after a NAKed hole
 * was filled, when any packet came after the next one: the packets held
 * arrived before the resent one, a round trip ago, so that hole is a
 * loss too. A burst of losses then costs a round trip per hole, not a
 * retransmission timeout.
 *
 * Return: true when a NAK of @rx->epsn is due.
 */
bool udma_rtp_rx_nak_due(const struct udma_rtp_rx *rx, bool refilled)
{
	return !rx->nak_sent && (rx->after >= UDMA_RTP_NAK_AFTER ||
				 (refilled && rx->after));
}
EXPORT_SYMBOL_IF_KUNIT(udma_rtp_rx_nak_due);

/**
 * udma_rtp_rx_held_ack_due() - is an ACK of what is held due now
 * @rx: the receiving half, after a packet was held
 *
 * Once the hole at @rx->epsn was NAKed, every UDMA_RTP_HELD_ACK_EVERY
 * packets held tell the sender (TPACKH info) that as many more may go:
 * they left the network (struct udma_rtp_tx.held).
 *
 * Return: true when an ACK is due.
 */
bool udma_rtp_rx_held_ack_due(const struct udma_rtp_rx *rx)
{
	return rx->nak_sent && rx->nr_held % UDMA_RTP_HELD_ACK_EVERY == 0;
}
EXPORT_SYMBOL_IF_KUNIT(udma_rtp_rx_held_ack_due);

/**
 * udma_rtp_rx_hold() - keep a packet that arrived after a hole
 * @rx: the receiving half
 * @psn: its PSN, UDMA_RTP_GAP to @rx->epsn
 * @item: the caller's packet
 *
 * Return: true when held (until udma_rtp_rx_next() returns it or the TP
 * starts over); false when a packet of @psn is held already (@item is a
 * duplicate).
 */
bool udma_rtp_rx_hold(struct udma_rtp_rx *rx, u32 psn, void *item)
{
	u32 i = psn % UDMA_RTP_WND;

	if (rx->ooo[i] && rx->ooo_psn[i] == psn)
		return false;
	/* a stale one (before the expected PSN) was not freed: cannot be */
	if (WARN_ON_ONCE(rx->ooo[i]))
		return false;
	rx->ooo[i] = item;
	rx->ooo_psn[i] = psn;
	rx->nr_held++;
	rx->after++;
	return true;
}
EXPORT_SYMBOL_IF_KUNIT(udma_rtp_rx_hold);

/**
 * udma_rtp_rx_next() - the held packet of the expected PSN
 * @rx: the receiving half
 *
 * Return: the item held for @rx->epsn, no longer held (the caller takes
 * it, then udma_rtp_rx_take()), or NULL.
 */
void *udma_rtp_rx_next(struct udma_rtp_rx *rx)
{
	u32 i = rx->epsn % UDMA_RTP_WND;
	void *item = rx->ooo[i];

	if (!item || rx->ooo_psn[i] != rx->epsn)
		return NULL;
	rx->ooo[i] = NULL;
	rx->nr_held--;
	return item;
}
EXPORT_SYMBOL_IF_KUNIT(udma_rtp_rx_next);

/**
 * udma_rtp_rx_purge() - drop the held packets (a new TP, the device going)
 * @rx: the receiving half
 * @drop: frees one
 */
void udma_rtp_rx_purge(struct udma_rtp_rx *rx, void (*drop)(void *item))
{
	u32 i;

	for (i = 0; i < UDMA_RTP_WND; i++) {
		if (rx->ooo[i])
			drop(rx->ooo[i]);
		rx->ooo[i] = NULL;
	}
	rx->nr_held = 0;
}
EXPORT_SYMBOL_IF_KUNIT(udma_rtp_rx_purge);

/**
 * udma_uboe_seg_size() - payload bytes per packet of a message
 * @len: the message's bytes
 * @room: the payload a packet of the message has room for at the path
 *	MTU (its headers counted with an OFSTETAH)
 *
 * Every packet but the last of a message carries a multiple of 1 KiB
 * (OFSTETAH counts in KiB, uboe_wire.h).
 *
 * Return: @len when it fits in one packet (ONLY); else @room rounded down
 * to a multiple of 1 KiB; 0 when that is none (an MTU too small to
 * segment at).
 */
u32 udma_uboe_seg_size(u64 len, u32 room)
{
	if (len <= room)
		return len;
	return round_down(room, 1U << UBOE_OFST_SHIFT);
}
EXPORT_SYMBOL_IF_KUNIT(udma_uboe_seg_size);

/**
 * udma_uboe_seg_count() - packets of a message
 * @len: the message's bytes
 * @size: udma_uboe_seg_size() of it, not 0 unless @len is
 *
 * Return: 1 for an empty message, else @len / @size rounded up.
 */
u32 udma_uboe_seg_count(u64 len, u32 size)
{
	return len && size ? DIV_ROUND_UP_ULL(len, size) : 1;
}
EXPORT_SYMBOL_IF_KUNIT(udma_uboe_seg_count);

/* The device's TPs ---------------------------------------------------- */

/*
 * Page fragments for the payloads of packets (udma_rtp_pkt.frag), a cache
 * per CPU as the network stack has: taken with softirqs off (requesters
 * run in softirq too), without sleeping or dipping into the reserves;
 * drained at module exit (udma_rtp_frags_drain()).
 */
static DEFINE_PER_CPU(struct page_frag_cache, udma_rtp_frags);

static u8 *udma_rtp_frag_alloc(u32 size)
{
	u8 *va;

	local_bh_disable();
	va = page_frag_alloc_align(this_cpu_ptr(&udma_rtp_frags), size,
				   GFP_NOWAIT | __GFP_NOWARN, -SMP_CACHE_BYTES);
	local_bh_enable();
	return va;
}

/**
 * udma_rtp_frags_drain() - give back the pages the fragment caches hold
 *
 * Context: module exit, no packet allocated any more (the fragments that
 * skbs still hold keep their pages).
 */
void udma_rtp_frags_drain(void)
{
	struct page_frag_cache *nc;
	int cpu;

	for_each_possible_cpu(cpu) {
		nc = per_cpu_ptr(&udma_rtp_frags, cpu);
		if (!nc->va)
			continue;
		__page_frag_cache_drain(virt_to_head_page(nc->va),
					nc->pagecnt_bias);
		nc->va = NULL;
	}
}

/**
 * udma_rtp_pkt_alloc() - a packet for udma_rtp_send()
 * @len: payload bytes (at udma_rtp_pkt.buf)
 * @gfp: allocation flags
 *
 * The payload goes in a page fragment when one can be had at once (see
 * struct udma_rtp_pkt.frag), else after the packet's fields.
 *
 * The payload is not zeroed: the caller writes all @len bytes before
 * the packet is sent, or frees it; zeroing them first doubled the bytes
 * the sender writes per packet.
 *
 * Return: the packet, its fields zeroed but @buf (and @frag), or NULL.
 */
struct udma_rtp_pkt *udma_rtp_pkt_alloc(u32 len, gfp_t gfp)
{
	u32 fragsz = UDMA_RTP_PKT_HEADROOM + len + UBOE_ICRC_SIZE;
	struct udma_rtp_pkt *p;
	u8 *frag = NULL;

	/* (beyond a page the cache may only have a page: then not) */
	if (len)
		frag = udma_rtp_frag_alloc(fragsz);
	p = kmalloc(frag ? sizeof(*p) : struct_size(p, data, len), gfp);
	if (!p) {
		if (frag)
			skb_free_frag(frag);
		return NULL;
	}
	memset(p, 0, sizeof(*p));
	p->frag = !!frag;
	if (frag)
		p->buf = frag + UDMA_RTP_PKT_HEADROOM;
	else if (len)
		p->buf = p->data;
	return p;
}
EXPORT_SYMBOL_IF_KUNIT(udma_rtp_pkt_alloc);

/**
 * udma_rtp_pkt_alloc_pages() - a packet for udma_rtp_send() whose payload
 *	stays where it is
 * @src: the payload: registered memory in pages a reference can be held
 *	on (udma_buf_pages())
 * @gfp: allocation flags
 *
 * Return: the packet, its fields zeroed but @nr_bvec and @bvec (@buf
 * NULL), or NULL when @src is not in such pages, in more pieces than a
 * packet's skb fragments, or without memory: the caller copies it then
 * (udma_rtp_pkt_alloc()).
 */
struct udma_rtp_pkt *udma_rtp_pkt_alloc_pages(const struct udma_local_buf *src,
					      gfp_t gfp)
{
	struct udma_rtp_pkt *p;
	int n;

	p = kmalloc(struct_size(p, bvec, UDMA_RTP_PKT_BVECS), gfp);
	if (!p)
		return NULL;
	memset(p, 0, sizeof(*p));
	n = udma_buf_pages(src, p->bvec, UDMA_RTP_PKT_BVECS);
	if (n <= 0) {
		kfree(p);
		return NULL;
	}
	p->nr_bvec = n;
	return p;
}
EXPORT_SYMBOL_IF_KUNIT(udma_rtp_pkt_alloc_pages);

/**
 * udma_rtp_pkt_free() - free a packet of udma_rtp_pkt_alloc()
 * @p: the packet; a train that took its payload as a fragment keeps it
 *
 * Context: any.
 */
void udma_rtp_pkt_free(struct udma_rtp_pkt *p)
{
	u32 i;

	if (p->frag)
		skb_free_frag(p->buf - UDMA_RTP_PKT_HEADROOM);
	for (i = 0; i < p->nr_bvec; i++)
		put_page(p->bvec[i].bv_page);
	kfree(p);
}
EXPORT_SYMBOL_IF_KUNIT(udma_rtp_pkt_free);

/*
 * @p sent again, or alone: its payload copied into the train, or its
 * pages referenced again after a new header fragment.
 */
static int udma_rtp_pkt_again(struct udma_uboe_batch *b,
			      const union ubcore_eid *dst,
			      const struct udma_rtp_pkt *p)
{
	if (p->nr_bvec)
		return udma_uboe_batch_add_pages(b, dst, &p->pkt, p->bvec,
						 p->nr_bvec);
	return udma_uboe_batch_add(b, dst, &p->pkt);
}

/**
 * udma_rtp_pkt_add() - a packet's first sending: add it to a train
 * @b: the train (udma_uboe_batch_init())
 * @dst: the destination EID
 * @p: the packet; its payload's fragment, if it has one, is in no skb yet
 *	and the train takes it (udma_uboe_batch_add_frag()); else as
 *	udma_rtp_pkt_again(): its pages referenced, or its payload copied
 * @route: the route cache of @dst, or NULL (the route is looked up)
 *
 * Context: any (process, softirq); does not sleep.
 *
 * Return: as udma_uboe_batch_add().
 */
int udma_rtp_pkt_add(struct udma_uboe_batch *b, const union ubcore_eid *dst,
		     struct udma_rtp_pkt *p, struct dst_cache *route)
{
	b->route_cache = route;
	if (p->frag)
		return udma_uboe_batch_add_frag(b, dst, &p->pkt,
						UDMA_RTP_PKT_HEADROOM);
	return udma_rtp_pkt_again(b, dst, p);
}

/* @p of @rtp in a train of its own. */
static int udma_rtp_pkt_xmit(struct udma_rtp *rtp, const struct udma_rtp_pkt *p)
{
	struct udma_uboe_batch b;
	int ret;

	udma_uboe_batch_init(&b, rtp->udev, 1);
	b.route_cache = &rtp->route;
	ret = udma_rtp_pkt_again(&b, &rtp->peer, p);
	udma_uboe_batch_flush(&b);
	return ret;
}

/* The receive queue's room, the credit an ACK gives. */
static u16 udma_rtp_credit(struct udma_rtp *rtp)
{
	return min_t(u32, udma_uboe_rx_room(rtp->udev), UDMA_RTP_WND);
}

/* Send an ACK (for every PSN before the expected) or a NAK of @syndrome. */
static void udma_rtp_send_ack(struct udma_rtp *rtp, u8 opcode, u8 syndrome)
{
	struct uboe_pkt pkt = {
		.tp_opcode = opcode,
		.seg = UBOE_SEG_MIDDLE,
		.dtpn = rtp->peer_tpn,
		.stpn = rtp->tpn,
		.has_eid = true,
		.src_eid = rtp->src,
		.dst_eid = rtp->peer,
		.syndrome = syndrome,
		.info = min_t(u32, rtp->rx.nr_held, U8_MAX),
		.window = udma_rtp_credit(rtp),
	};

	lockdep_assert_held(&rtp->lock);
	if (opcode == UBOE_TP_ACK) {
		pkt.psn = udma_psn_add(rtp->rx.epsn, UBOE_PSN_MASK);
		rtp->rx.unacked = 0;
		rtp->rx.dup_ack = false;
		udma_wire_inc(rtp->udev, UDMA_WIRE_RTP_ACK_TX);
	} else {
		pkt.psn = rtp->rx.epsn;
		udma_wire_inc(rtp->udev, UDMA_WIRE_RTP_NAK_TX);
	}
	udma_uboe_xmit_cached(rtp->udev, &rtp->peer, &pkt, &rtp->route);
}

/*
 * A recovery (go-back-N after a timeout) sends again what the congestion
 * window lets go now, in one train.
 */
static void udma_rtp_recover_locked(struct udma_rtp *rtp)
{
	struct udma_uboe_batch b;
	struct udma_rtp_pkt *p;

	lockdep_assert_held(&rtp->lock);
	if (!rtp->tx.resend)
		return;
	udma_uboe_batch_init(&b, rtp->udev, udma_rtp_tx_limit(&rtp->tx));
	b.route_cache = &rtp->route;
	while ((p = udma_rtp_tx_next_resend(&rtp->tx))) {
		/* the last of the train asks for the ACK that lets more go */
		p->pkt.ack_req = !udma_rtp_tx_resend_due(&rtp->tx);
		p->resent = true;
		if (!udma_rtp_pkt_again(&b, &rtp->peer, p))
			udma_wire_inc(rtp->udev, UDMA_WIRE_RTP_RETRANSMITS);
	}
	udma_uboe_batch_flush(&b);
}

/* Send the oldest unacknowledged packet again (the hole a NAK names). */
static void udma_rtp_resend_one(struct udma_rtp *rtp)
{
	struct udma_rtp_pkt *p = list_first_entry(&rtp->tx.unacked,
						  struct udma_rtp_pkt, node);

	lockdep_assert_held(&rtp->lock);
	p->pkt.ack_req = true;
	p->resent = true;
	udma_rtp_tx_hole_resent(&rtp->tx);
	if (!udma_rtp_pkt_xmit(rtp, p))
		udma_wire_inc(rtp->udev, UDMA_WIRE_RTP_RETRANSMITS);
}

/*
 * The TP failed: nothing is sent on it any more, and the WQEs sent on it
 * (@fail_work finds them on the device's queues, as many as there are)
 * will get no response.
 */
static void udma_rtp_fail_locked(struct udma_rtp *rtp)
{
	lockdep_assert_held(&rtp->lock);
	rtp->failed = true;
	rtp->fail_gen = rtp->gen;
	udma_rtp_tx_purge(&rtp->tx);
}

/* Senders that stopped for the TP may try again (the window opened, the
 * TP is free, failed or stopped).
 */
static void udma_rtp_wake_locked(struct udma_rtp *rtp)
{
	struct udma_rtp_waiter *w, *tmp;

	lockdep_assert_held(&rtp->lock);
	list_for_each_entry_safe(w, tmp, &rtp->waiters, node) {
		list_del_init(&w->node);
		w->wake(w);
	}
}

static void udma_rtp_rto_timer(struct timer_list *t)
{
	struct udma_rtp *rtp = from_timer(rtp, t, rto_timer);
	bool failed = false, woken = false;
	u32 peer_tpn;

	spin_lock_bh(&rtp->lock);
	if (rtp->stopped || rtp->failed || !rtp->tx.nr)
		goto out;
	/*
	 * The TP went (ubcore closed it): nothing is owed on it any more.
	 * Its senders are woken: the next packet of one starts a new TP, or
	 * fails for want of one.
	 */
	if (ubcore_tp_rx_lookup(&rtp->udev->ub_dev, rtp->tpn, &rtp->peer,
				&peer_tpn) || peer_tpn != rtp->peer_tpn) {
		udma_wire_add(rtp->udev, UDMA_WIRE_RTP_CLOSED_DROPS, rtp->tx.nr);
		net_dbg_ratelimited("%s: TP %u closed with %u packets unacknowledged\n",
				    rtp->udev->ub_dev.dev_name, rtp->tpn,
				    rtp->tx.nr);
		udma_rtp_tx_purge(&rtp->tx);
		rtp->tx_owner = NULL;
		udma_rtp_wake_locked(rtp);
		woken = true;
		goto out;
	}
	if (++rtp->retries > udma_rtp_retry_limit(rtp)) {
		udma_wire_inc(rtp->udev, UDMA_WIRE_RTP_ACK_TIMEOUTS);
		net_info_ratelimited("%s: TP %u: no ACK from %pI6c after %u retries\n",
				     rtp->udev->ub_dev.dev_name, rtp->tpn,
				     rtp->peer.raw, rtp->retries - 1);
		udma_rtp_fail_locked(rtp);
		udma_rtp_wake_locked(rtp);
		failed = true;
		goto out;
	}
	rtp->rto = min(rtp->rto * 2,
		       max(msecs_to_jiffies(UDMA_RTP_RTO_MAX_MS), rtp->rto_base));
	/*
	 * The oldest packet goes again, and the rest from it as its ACKs
	 * open the window (the receiver holds what came after a hole: its
	 * cumulative ACK skips what it has).
	 */
	udma_rtp_tx_timeout(&rtp->tx, rtp->retries == 1);
	udma_rtp_recover_locked(rtp);
	mod_timer(&rtp->rto_timer, jiffies + rtp->rto);
out:
	spin_unlock_bh(&rtp->lock);
	if (failed || woken)
		wake_up_all(&rtp->wait);
	if (failed)
		queue_work(system_unbound_wq, &rtp->fail_work);
}

/* The pacing's time came: the senders that stopped for it try again. */
static enum hrtimer_restart udma_rtp_pace_timer(struct hrtimer *t)
{
	struct udma_rtp *rtp = container_of(t, struct udma_rtp, pace_timer);

	spin_lock_bh(&rtp->lock);
	udma_rtp_wake_locked(rtp);
	spin_unlock_bh(&rtp->lock);
	wake_up_all(&rtp->wait);
	return HRTIMER_NORESTART;
}

static enum hrtimer_restart udma_rtp_ack_timer(struct hrtimer *t)
{
	struct udma_rtp *rtp = container_of(t, struct udma_rtp, ack_timer);

	spin_lock_bh(&rtp->lock);
	if (!rtp->stopped && (rtp->rx.unacked || rtp->rx.dup_ack))
		udma_rtp_send_ack(rtp, UBOE_TP_ACK, 0);
	spin_unlock_bh(&rtp->lock);
	return HRTIMER_NORESTART;
}

/*
 * Fail the WQEs sent on the TP that failed, on every queue; then ubcore
 * loses the TP at both ends (the peer's requests on it wait for answers
 * this end can no longer send), unless a new TP took its TPN meanwhile.
 */
static void udma_rtp_fail_work(struct work_struct *work)
{
	struct udma_rtp *rtp = container_of(work, struct udma_rtp, fail_work);
	bool same;
	u32 gen;

	spin_lock_bh(&rtp->lock);
	gen = rtp->fail_gen;
	spin_unlock_bh(&rtp->lock);
	udma_uboe_tp_failed(rtp->udev, rtp, gen);
	spin_lock_bh(&rtp->lock);
	same = rtp->gen == gen && rtp->failed && !rtp->lost && !rtp->stopped;
	spin_unlock_bh(&rtp->lock);
	if (same)
		ubcore_tp_transport_failed(&rtp->udev->ub_dev, rtp->tpn);
}

/* Start over for a new TP of the same local TPN. */
static void udma_rtp_reset_locked(struct udma_rtp *rtp, u32 peer_tpn,
				  const union ubcore_eid *peer)
{
	lockdep_assert_held(&rtp->lock);
	udma_rtp_tx_purge(&rtp->tx);
	udma_rtp_tx_init(&rtp->tx);
	udma_rtp_rx_purge(&rtp->rx, udma_uboe_item_drop);
	memset(&rtp->rx, 0, sizeof(rtp->rx));
	rtp->peer_tpn = peer_tpn;
	rtp->peer = *peer;
	/* the port, and so the route, follow the peer's TPN */
	dst_cache_reset(&rtp->route);
	memset(&rtp->rtt, 0, sizeof(rtp->rtt));
	rtp->rto_base = udma_rtp_rto0(rtp);
	rtp->rto = rtp->rto_base;
	rtp->retries = 0;
	rtp->failed = false;
	rtp->lost = false;
	rtp->gen++;
	/* a message of the old TP that was going out is void */
	rtp->tx_owner = NULL;
	udma_rtp_wake_locked(rtp);
}

static struct udma_rtp *udma_rtp_alloc(struct udma_dev *udev, u32 tpn,
				       gfp_t gfp)
{
	struct udma_rtp *rtp = kzalloc(sizeof(*rtp), gfp);

	if (!rtp)
		return NULL;
	rtp->udev = udev;
	rtp->tpn = tpn;
	spin_lock_init(&rtp->lock);
	udma_rtp_tx_init(&rtp->tx);
	rtp->rto_base = udma_rtp_rto0(rtp);
	rtp->rto = rtp->rto_base;
	timer_setup(&rtp->rto_timer, udma_rtp_rto_timer, 0);
	/* softirq context, as a timer_list's: the same locking */
	hrtimer_init(&rtp->ack_timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_SOFT);
	rtp->ack_timer.function = udma_rtp_ack_timer;
	hrtimer_init(&rtp->pace_timer, CLOCK_MONOTONIC, HRTIMER_MODE_ABS_SOFT);
	rtp->pace_timer.function = udma_rtp_pace_timer;
	init_waitqueue_head(&rtp->wait);
	INIT_LIST_HEAD(&rtp->waiters);
	INIT_WORK(&rtp->fail_work, udma_rtp_fail_work);
	/* without one, every train looks its route up (still correct) */
	dst_cache_init(&rtp->route, gfp | __GFP_NOWARN);
	return rtp;
}

/**
 * udma_rtp_init() - a new device has no TP state
 * @udev: the device, being allocated
 */
void udma_rtp_init(struct udma_dev *udev)
{
	xa_init_flags(&udev->rtps, XA_FLAGS_LOCK_BH);
}

/**
 * udma_rtp_get() - the transport state of a TP of a device
 * @udev: the device
 * @tpn: this end's TPN
 * @peer_tpn: the peer's TPN, for a new one
 * @peer: the peer's EID, for a new one
 * @gfp: for a new one
 *
 * Created on first use. Returned unlocked: the caller takes @rtp->lock
 * (spin_lock_bh()) and joins it to the TP's ends with
 * udma_rtp_use_locked() before any other use, so that a packet's caller
 * takes the lock once for the check and its own work.
 *
 * Context: any; softirq with GFP_ATOMIC.
 * Return: the state (valid until the device is released), or NULL (no
 * memory, or the device is being removed).
 */
struct udma_rtp *udma_rtp_get(struct udma_dev *udev, u32 tpn, u32 peer_tpn,
			      const union ubcore_eid *peer, gfp_t gfp)
{
	struct udma_rtp *rtp, *old;

	rtp = xa_load(&udev->rtps, tpn);
	if (rtp)
		return rtp;
	rtp = udma_rtp_alloc(udev, tpn, gfp);
	if (!rtp)
		return NULL;
	rtp->peer_tpn = peer_tpn;
	rtp->peer = *peer;
	xa_lock_bh(&udev->rtps);
	if (udev->rtps_stopped)
		old = ERR_PTR(-ENODEV);
	else
		old = __xa_cmpxchg(&udev->rtps, tpn, NULL, rtp, gfp);
	xa_unlock_bh(&udev->rtps);
	if (!old)
		return rtp;
	dst_cache_destroy(&rtp->route);
	kfree(rtp);
	return xa_is_err(old) || IS_ERR(old) ? NULL : old;
}
EXPORT_SYMBOL_IF_KUNIT(udma_rtp_get);

/**
 * udma_rtp_use_locked() - join a TP's transport state to the TP's ends
 * @rtp: the state (udma_rtp_get()), its lock held
 * @peer_tpn: the peer's TPN
 * @src: this end's EID (NULL: not known here, the one known stays)
 * @peer: the peer's EID
 *
 * Started over when its TPN was another peer's, or its TP was lost.
 */
void udma_rtp_use_locked(struct udma_rtp *rtp, u32 peer_tpn,
			 const union ubcore_eid *src,
			 const union ubcore_eid *peer)
{
	lockdep_assert_held(&rtp->lock);
	if (rtp->lost || rtp->peer_tpn != peer_tpn ||
	    memcmp(&rtp->peer, peer, sizeof(*peer)))
		udma_rtp_reset_locked(rtp, peer_tpn, peer);
	if (src)
		rtp->src = *src;
}
EXPORT_SYMBOL_IF_KUNIT(udma_rtp_use_locked);

/* May @owner send a packet now: room, and no other's message going out. */
static bool udma_rtp_room_for(const struct udma_rtp *rtp, const void *owner)
{
	lockdep_assert_held(&rtp->lock);
	return udma_rtp_tx_room(&rtp->tx) &&
	       (!rtp->tx_owner || rtp->tx_owner == owner);
}

/*
 * Has the pacing's time for the next new packet come; if not, the pace
 * timer wakes the senders that stop for it then.
 */
static bool udma_rtp_pace_due_locked(struct udma_rtp *rtp)
{
	lockdep_assert_held(&rtp->lock);
	if (!rtp->tx.pace_ns || ktime_get_ns() >= rtp->tx.pace_ns)
		return true;
	if (!rtp->stopped && !hrtimer_is_queued(&rtp->pace_timer))
		hrtimer_start(&rtp->pace_timer, ns_to_ktime(rtp->tx.pace_ns),
			      HRTIMER_MODE_ABS_SOFT);
	udma_wire_inc(rtp->udev, UDMA_WIRE_RTP_PACED);
	return false;
}

/* May a sleeping sender go on: it may send, or has a reason to give up. */
static bool udma_rtp_may_send(struct udma_rtp *rtp, const void *owner)
{
	bool ret;

	spin_lock_bh(&rtp->lock);
	ret = rtp->stopped || rtp->failed ||
	      (udma_rtp_room_for(rtp, owner) && udma_rtp_pace_due_locked(rtp));
	spin_unlock_bh(&rtp->lock);
	return ret;
}

/*
 * If @owner's message holds the TP, the TP is free again: the senders
 * waiting for it are woken. Unlocks @rtp->lock.
 */
static void udma_rtp_release_unlock(struct udma_rtp *rtp, const void *owner)
	__releases(&rtp->lock)
{
	bool released = rtp->tx_owner == owner;

	if (rtp->tx_nowait == owner)
		rtp->tx_nowait = NULL;
	if (released) {
		rtp->tx_owner = NULL;
		udma_rtp_wake_locked(rtp);
	}
	spin_unlock_bh(&rtp->lock);
	if (released)
		wake_up_all(&rtp->wait);
}

/*
 * A packet the IP layer could not route now, as when its port just went
 * down (a bonding device's member before it fails over, a route
 * withdrawn): the transport keeps it as lost rather than fail its
 * message, as TCP does, and it goes again at the RTO, by then perhaps
 * through another member. A route that does not come back fails the TP
 * after its retries (ACK_TIMEOUT_ERR).
 */
static bool udma_rtp_route_lost(int err)
{
	return err == -ENETUNREACH || err == -EHOSTUNREACH || err == -ENETDOWN;
}

/**
 * udma_rtp_send() - send a data packet on a TP, reliably
 * @rtp: the TP
 * @p: the packet (udma_rtp_pkt_alloc()), one of a message (its seg says
 *	which: the TP is @owner's from the first to the last); its PSN is
 *	assigned here. On success the TP owns it (until the peer
 *	acknowledges it); on failure the caller frees it
 * @owner: the sender (its message's packets go out one after the other)
 * @w: a sender that does not sleep: without room in the window, or while
 *	another's message goes out, @w joins the TP's waiters and -EAGAIN
 *	comes back (the caller sends @p again when woken); NULL: sleeps
 *	until it may send
 * @b: the train the packet joins (udma_uboe_batch_add()), sent when the
 *	message ends, when the sender has to wait, at an error, or when the
 *	packet cannot join it; NULL: the packet leaves at once
 *
 * A packet the IP layer refuses at once for good (too big, invalid) is
 * not kept: its PSN is taken back; one it cannot route now is kept as
 * lost (udma_rtp_route_lost()). Any error ends @owner's message on the
 * TP.
 *
 * An @owner that reserved the TP (udma_rtp_reserve()) neither waits nor
 * joins the waiters: it sends past the window.
 *
 * Context: process context; sleeps without @w, unless @owner reserved
 * the TP: then any context.
 *
 * Return: 0; -EAGAIN (@w only); -ETIMEDOUT when the TP failed (no ACK
 * after every retry, or its peer lost); -ENETDOWN when the device is
 * being removed; -EBUSY when @owner reserved the TP and a reset of the
 * TP let another's message take it; or udma_uboe_batch_add()'s error.
 */
int udma_rtp_send(struct udma_rtp *rtp, struct udma_rtp_pkt *p,
		  const void *owner, struct udma_rtp_waiter *w,
		  struct udma_uboe_batch *b)
{
	int ret;

	for (;;) {
		spin_lock_bh(&rtp->lock);
		if (rtp->stopped) {
			ret = -ENETDOWN;
			goto out;
		}
		if (rtp->failed) {
			ret = -ETIMEDOUT;
			goto out;
		}
		if (udma_rtp_room_for(rtp, owner) &&
		    udma_rtp_pace_due_locked(rtp))
			break;
		if (rtp->tx_nowait == owner) {
			if (!rtp->tx_owner || rtp->tx_owner == owner)
				break;
			/* a reset gave the TP to another's message */
			ret = -EBUSY;
			goto out;
		}
		/* what the peer has to ACK for the window to open goes now */
		if (b)
			udma_uboe_batch_flush(b);
		if (w) {
			if (list_empty(&w->node))
				list_add_tail(&w->node, &rtp->waiters);
			spin_unlock_bh(&rtp->lock);
			return -EAGAIN;
		}
		spin_unlock_bh(&rtp->lock);
		wait_event_timeout(rtp->wait, udma_rtp_may_send(rtp, owner),
				   msecs_to_jiffies(UDMA_RTP_RTO_MAX_MS));
	}
	if (w)
		list_del_init(&w->node);
	udma_rtp_tx_queue(&rtp->tx, p);
	p->sent_ns = ktime_get_ns();
	p->resent = false;
	udma_rtp_tx_paced(&rtp->tx, p->sent_ns,
			  udma_rtp_pace_gap_ns(&rtp->tx, rtp->rtt.srtt_us,
					       READ_ONCE(udma_rtp_pace_pct)),
			  READ_ONCE(udma_rtp_pace_burst));
	/* half the window out: ask for the ACKs that open it */
	if (udma_rtp_tx_ack_wanted(&rtp->tx, p->pkt.psn))
		p->pkt.ack_req = true;
	if (b)
		ret = udma_rtp_pkt_add(b, &rtp->peer, p, &rtp->route);
	else
		ret = udma_rtp_pkt_xmit(rtp, p);
	/* a route that went (a port down): lost, the RTO sends it again */
	if (udma_rtp_route_lost(ret))
		ret = 0;
	if (ret) {
		/* the tail: nothing after it was sent */
		list_del(&p->node);
		rtp->tx.nr--;
		rtp->tx.next = udma_psn_add(rtp->tx.next, UBOE_PSN_MASK);
		goto out;
	}
	if (!timer_pending(&rtp->rto_timer))
		mod_timer(&rtp->rto_timer, jiffies + rtp->rto);
	if (!(p->pkt.seg & UBOE_SEG_LAST)) {
		rtp->tx_owner = owner;
		spin_unlock_bh(&rtp->lock);
		return 0;
	}
out:
	/* before another's message may follow on the TP */
	if (b)
		udma_uboe_batch_flush(b);
	/* the message is over (sent, or failed): the TP is free */
	udma_rtp_release_unlock(rtp, owner);
	return ret;
}
EXPORT_SYMBOL_IF_KUNIT(udma_rtp_send);

/**
 * udma_rtp_reserve() - take a TP for a message that must not wait
 * @rtp: the TP
 * @owner: the sender, as for udma_rtp_send()
 *
 * If @owner may send now (room in the window, no other's message going
 * out), the TP is @owner's until its message's last packet has gone, or
 * until udma_rtp_unreserve(): other senders wait meanwhile, and @owner's
 * packets never do (udma_rtp_send()), even if an RTO or the peer's
 * credit closes the window. A stopped or failed TP is reserved too: a
 * send on it fails at once.
 *
 * Context: any; does not sleep.
 * Return: true if @owner holds the TP.
 */
bool udma_rtp_reserve(struct udma_rtp *rtp, const void *owner)
{
	bool ok;

	spin_lock_bh(&rtp->lock);
	ok = udma_rtp_room_for(rtp, owner);
	if (ok)
		rtp->tx_owner = owner;
	/* never waits even if a reset revives the TP before the send */
	ok = ok || rtp->stopped || rtp->failed;
	if (ok)
		rtp->tx_nowait = owner;
	spin_unlock_bh(&rtp->lock);
	return ok;
}
EXPORT_SYMBOL_IF_KUNIT(udma_rtp_reserve);

/**
 * udma_rtp_unreserve() - end a reservation no message used up
 * @rtp: the TP
 * @owner: the sender that reserved it (nothing happens if it no longer
 *	holds it)
 *
 * Context: any; does not sleep.
 */
void udma_rtp_unreserve(struct udma_rtp *rtp, const void *owner)
{
	spin_lock_bh(&rtp->lock);
	udma_rtp_release_unlock(rtp, owner);
}
EXPORT_SYMBOL_IF_KUNIT(udma_rtp_unreserve);

/**
 * udma_rtp_cancel() - a sender gives up its message on a TP
 * @rtp: the TP
 * @owner: the sender, as for udma_rtp_send()
 * @w: its waiter, as for udma_rtp_send()
 *
 * @w waits no more; if @owner's message was going out, the TP is free
 * (the receiver drops the message's packets so far at the next FIRST).
 * Process context.
 */
void udma_rtp_cancel(struct udma_rtp *rtp, const void *owner,
		     struct udma_rtp_waiter *w)
{
	spin_lock_bh(&rtp->lock);
	list_del_init(&w->node);
	udma_rtp_release_unlock(rtp, owner);
}

/*
 * The delayed ACK: UDMA_RTP_ACK_DELAY_US from the first packet it covers,
 * or a quarter of the RTO if that is less (a TP whose ACK timeout was
 * set short: the ACK must come before the peer's RTO, which this end's
 * stands for).
 */
static void udma_rtp_ack_later(struct udma_rtp *rtp)
{
	u64 delay_us;

	if (hrtimer_is_queued(&rtp->ack_timer))
		return;
	delay_us = min_t(u64, UDMA_RTP_ACK_DELAY_US,
			 jiffies_to_usecs(rtp->rto_base) / 4);
	hrtimer_start(&rtp->ack_timer, ns_to_ktime(delay_us * NSEC_PER_USEC),
		      HRTIMER_MODE_REL_SOFT);
}

/**
 * udma_rtp_rx_data() - a data packet of a TP arrived
 * @rtp: the TP (its peer checked by the caller), locked: as
 *	udma_rtp_use_locked() left it; still locked on return
 * @take: queues a packet for the transaction layer; false when it cannot
 *	(the receive queue is full: the packet counts as lost)
 * @drop: frees a packet held after a hole that is not needed any more
 * @item: the caller's packet, for @take and @drop
 *
 * @pkt: the packet
 *
 * See the top of this file. Softirq; does not sleep.
 *
 * Return: true when @item was taken or is held; false when the caller
 * frees it.
 */
bool udma_rtp_rx_data(struct udma_rtp *rtp, const struct uboe_pkt *pkt,
		      bool (*take)(void *item), void (*drop)(void *item),
		      void *item)
{
	struct udma_rtp_rx *rx = &rtp->rx;
	bool kept = false, ack = false, nakked;
	void *next;

	lockdep_assert_held(&rtp->lock);
	if (rtp->stopped)
		return false;
	switch (udma_rtp_rx_verdict(rx, pkt->psn)) {
	case UDMA_RTP_NEW:
		if (!take(item))
			break;
		kept = true;
		/* the hole it fills was NAKed: it is the resent packet */
		nakked = rx->nak_sent;
		ack = udma_rtp_rx_take(rx, pkt->ack_req);
		/* what was held after it, in order, as far as it goes */
		while ((next = udma_rtp_rx_next(rx))) {
			if (!take(next)) {
				drop(next);
				break;
			}
			ack |= udma_rtp_rx_take(rx, false);
		}
		/* held ones left: they came after the next hole */
		rx->after = rx->nr_held;
		if (udma_rtp_rx_nak_due(rx, nakked)) {
			rx->nak_sent = true;
			udma_rtp_send_ack(rtp, UBOE_TP_NAK, UBOE_NAK_SEQ_ERR);
		}
		if (ack)
			udma_rtp_send_ack(rtp, UBOE_TP_ACK, 0);
		else
			udma_rtp_ack_later(rtp);
		break;
	case UDMA_RTP_DUP:
		/* its ACK was lost: ACK again, one for a burst of them */
		udma_wire_inc(rtp->udev, UDMA_WIRE_RTP_DUP_DROPS);
		rx->dup_ack = true;
		udma_rtp_ack_later(rtp);
		break;
	case UDMA_RTP_GAP:
		udma_wire_inc(rtp->udev, UDMA_WIRE_RTP_OUT_OF_SEQ);
		kept = udma_rtp_rx_hold(rx, pkt->psn, item);
		if (!kept)
			udma_wire_inc(rtp->udev, UDMA_WIRE_RTP_DUP_DROPS);
		/* reordered, or lost: NAK once enough came after it */
		if (udma_rtp_rx_nak_due(rx, false)) {
			rx->nak_sent = true;
			udma_rtp_send_ack(rtp, UBOE_TP_NAK, UBOE_NAK_SEQ_ERR);
		} else if (kept && udma_rtp_rx_held_ack_due(rx)) {
			udma_rtp_send_ack(rtp, UBOE_TP_ACK, 0);
		}
		break;
	default:
		udma_wire_inc(rtp->udev, UDMA_WIRE_RTP_OUT_OF_WINDOW);
		break;
	}
	return kept;
}
EXPORT_SYMBOL_IF_KUNIT(udma_rtp_rx_data);

/*
 * An ACK acknowledged something: the retries start over, and the RTO is
 * the estimate's, updated with the ACK's RTT sample if it gives one. (Not
 * kept backed off until the next sample, as RFC 6298 5.7 would: through
 * netem's 5% loss nearly every window has a resent packet, its ACKs give
 * no sample, and each loss at a message's tail then waited out an RTO
 * backed off to seconds: the 2 MiB WRITE of udma-rtp-netem took up to
 * 40 s instead of 8 to 23.)
 */
static void udma_rtp_progress_locked(struct udma_rtp *rtp)
{
	u64 sent = rtp->tx.acked_sent_ns;
	u32 rto_us;

	lockdep_assert_held(&rtp->lock);
	rtp->retries = 0;
	if (sent) {
		rto_us = udma_rtp_rto_estimate(&rtp->rtt,
					       div_u64(ktime_get_ns() - sent,
						       NSEC_PER_USEC),
					       jiffies_to_usecs(1),
					       jiffies_to_usecs(udma_rtp_rto0(rtp)));
		rtp->rto_base = usecs_to_jiffies(rto_us);
	}
	rtp->rto = rtp->rto_base;
}

/**
 * udma_rtp_rx_ack() - an ACK or a NAK arrived
 * @udev: the device that owns its destination EID
 * @pkt: the packet
 * @src: its source EID
 *
 * The TPN must be an established TP of @udev joining it to @src, with the
 * packet's source TPN as its other end. An ACK frees what it
 * acknowledges and opens the window; a NAK SEQ_ERR also sends the packet
 * it names (the hole) again. Softirq.
 *
 * Return: UBOE_DROP_NONE, or UBOE_DROP_UNKNOWN_TPN.
 */
enum uboe_drop udma_rtp_rx_ack(struct udma_dev *udev,
			       const struct uboe_pkt *pkt,
			       const union ubcore_eid *src)
{
	struct udma_rtp *rtp;
	u32 peer_tpn, acked;

	if (ubcore_tp_rx_lookup(&udev->ub_dev, pkt->dtpn, src, &peer_tpn) ||
	    peer_tpn != pkt->stpn)
		return UBOE_DROP_UNKNOWN_TPN;
	/* (an ACK of nothing this end sent is ignored: udma_rtp_tx_ack()) */
	rtp = udma_rtp_get(udev, pkt->dtpn, peer_tpn, src, GFP_ATOMIC);
	if (!rtp)
		return UBOE_DROP_NONE;
	spin_lock_bh(&rtp->lock);
	udma_rtp_use_locked(rtp, peer_tpn, pkt->has_eid ? &pkt->dst_eid : NULL,
			    src);
	if (pkt->tp_opcode == UBOE_TP_ACK) {
		udma_wire_inc(udev, UDMA_WIRE_RTP_ACK_RX);
		acked = udma_rtp_tx_ack(&rtp->tx, pkt->psn, pkt->window);
	} else {
		udma_wire_inc(udev, UDMA_WIRE_RTP_NAK_RX);
		/* every PSN before the one it expects arrived */
		acked = udma_rtp_tx_ack(&rtp->tx,
					udma_psn_add(pkt->psn, UBOE_PSN_MASK),
					pkt->window);
	}
	/* what the receiver holds after the hole (TPACKH info) */
	if (pkt->syndrome != UBOE_NAK_RNR)
		udma_rtp_tx_held(&rtp->tx, pkt->tp_opcode == UBOE_TP_ACK ?
				 udma_psn_add(pkt->psn, 1) : pkt->psn,
				 pkt->info);
	if (acked)
		udma_rtp_progress_locked(rtp);
	/* the hole the receiver names: the oldest unacknowledged packet */
	if (pkt->tp_opcode == UBOE_TP_NAK && pkt->syndrome == UBOE_NAK_SEQ_ERR &&
	    pkt->psn == rtp->tx.una && rtp->tx.nr && !rtp->stopped) {
		udma_rtp_tx_loss(&rtp->tx);
		udma_rtp_resend_one(rtp);
	} else if (udma_rtp_tx_hole_lost(&rtp->tx) && !rtp->stopped) {
		udma_rtp_resend_one(rtp);
	}
	/* a recovery goes on as far as the window opened */
	if (acked && !rtp->stopped)
		udma_rtp_recover_locked(rtp);
	if (!rtp->tx.nr)
		del_timer(&rtp->rto_timer);
	else if (acked || pkt->tp_opcode == UBOE_TP_NAK)
		mod_timer(&rtp->rto_timer, jiffies + rtp->rto);
	/* the ACK that opens the window resumes the senders that stopped */
	if (udma_rtp_tx_room(&rtp->tx))
		udma_rtp_wake_locked(rtp);
	spin_unlock_bh(&rtp->lock);
	wake_up_all(&rtp->wait);
	return UBOE_DROP_NONE;
}
EXPORT_SYMBOL_IF_KUNIT(udma_rtp_rx_ack);

/**
 * udma_tp_closed() - ubcore_ops.tp_closed: a TP is gone at this end
 * @ub_dev: the device
 * @tpn: the TP's local TPN
 *
 * The TP fails as after the last retry, at once: its unacknowledged
 * packets are dropped, its senders fail, and every queue with WQEs sent on
 * it and not answered (acknowledged by the transport or not: the response
 * will never come) completes them with URMA_CR_ACK_TIMEOUT_ERR and goes
 * to ERROR, with its async event (udma_uboe_tp_failed()), before this
 * returns. The next use of @tpn is a new TP. Process context (the
 * connection manager's, its lock held); sleeps.
 */
void udma_tp_closed(struct ubcore_device *ub_dev, u32 tpn)
{
	struct udma_dev *udev = to_udma_dev(ub_dev);
	struct udma_rtp *rtp = xa_load(&udev->rtps, tpn);
	u32 gen;

	/* (nothing was ever sent or received on it) */
	if (!rtp)
		return;
	spin_lock_bh(&rtp->lock);
	udma_rtp_fail_locked(rtp);
	rtp->lost = true;
	gen = rtp->gen;
	udma_rtp_wake_locked(rtp);
	spin_unlock_bh(&rtp->lock);
	wake_up_all(&rtp->wait);
	udma_uboe_tp_failed(udev, rtp, gen);
}

/**
 * udma_rtp_stop() - the device's TPs send and take nothing any more
 * @udev: the device, off the receive path, its receive work stopped
 *
 * Wakes and fails the senders, stops the timers, drops the unacknowledged
 * packets and the responder's unfinished message of each TP. Process
 * context.
 */
void udma_rtp_stop(struct udma_dev *udev)
{
	struct udma_rtp *rtp;
	unsigned long tpn;

	xa_lock_bh(&udev->rtps);
	udev->rtps_stopped = true;
	xa_unlock_bh(&udev->rtps);
	xa_for_each(&udev->rtps, tpn, rtp) {
		spin_lock_bh(&rtp->lock);
		rtp->stopped = true;
		udma_rtp_tx_purge(&rtp->tx);
		udma_rtp_rx_purge(&rtp->rx, udma_uboe_item_drop);
		udma_rtp_wake_locked(rtp);
		spin_unlock_bh(&rtp->lock);
		wake_up_all(&rtp->wait);
		del_timer_sync(&rtp->rto_timer);
		hrtimer_cancel(&rtp->ack_timer);
		hrtimer_cancel(&rtp->pace_timer);
		cancel_work_sync(&rtp->fail_work);
		udma_resp_seg_abort(&rtp->seg);
	}
}

/**
 * udma_rtp_free() - free the device's TP states
 * @udev: the device, being released: no sender is left
 */
void udma_rtp_free(struct udma_dev *udev)
{
	struct udma_rtp *rtp;
	unsigned long tpn;

	udma_rtp_stop(udev);
	xa_for_each(&udev->rtps, tpn, rtp) {
		dst_cache_destroy(&rtp->route);
		kfree(rtp);
	}
	xa_destroy(&udev->rtps);
}

/**
 * udma_rtp_show() - the state of a device's TPs, one line each
 * @m: the file (/sys/kernel/debug/udma/rtp: udma/debugfs.c)
 * @udev: the device, not released meanwhile
 */
void udma_rtp_show(struct seq_file *m, struct udma_dev *udev)
{
	struct udma_rtp *rtp;
	unsigned long tpn;
	size_t waiters;

	xa_for_each(&udev->rtps, tpn, rtp) {
		spin_lock_bh(&rtp->lock);
		waiters = list_count_nodes(&rtp->waiters);
		seq_printf(m, "%s tp %u peer %pI6c tp %u gen %u%s%s%s: tx next %u una %u unacked %u wnd %u cwnd %u/%u resend %d retries %u/%u rto_ms %u/%u/%u srtt_us %u/%u timer %d owner %s waiters %zu; rx epsn %u held %u after %u unacked %u\n",
			   udev->ub_dev.dev_name, rtp->tpn, rtp->peer.raw,
			   rtp->peer_tpn, rtp->gen,
			   rtp->failed ? " failed" : "",
			   rtp->lost ? " lost" : "",
			   rtp->stopped ? " stopped" : "",
			   rtp->tx.next, rtp->tx.una, rtp->tx.nr, rtp->tx.wnd,
			   rtp->tx.cwnd, rtp->tx.ssthresh,
			   rtp->tx.resend ? (int)rtp->tx.resend->pkt.psn : -1,
			   rtp->retries, udma_rtp_retry_limit(rtp),
			   jiffies_to_msecs(rtp->rto),
			   jiffies_to_msecs(rtp->rto_base),
			   jiffies_to_msecs(udma_rtp_rto0(rtp)),
			   rtp->rtt.srtt_us, rtp->rtt.rttvar_us,
			   timer_pending(&rtp->rto_timer),
			   rtp->tx_owner ? "yes" : "no", waiters,
			   rtp->rx.epsn, rtp->rx.nr_held, rtp->rx.after,
			   rtp->rx.unacked);
		spin_unlock_bh(&rtp->lock);
	}
}
