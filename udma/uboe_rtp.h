/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * The reliable transport of UBoE TPs (uboe_rtp.c): per TP of a device,
 * PSNs, cumulative ACKs, NAK and go-back-N, RTO with back-off, the peer's
 * credit and a congestion window; and the segmentation of a message to
 * the path MTU.
 */
#ifndef _UDMA_UBOE_RTP_H
#define _UDMA_UBOE_RTP_H

#include <linux/bvec.h>
#include <linux/hrtimer.h>
#include <linux/list.h>
#include <linux/skbuff.h>
#include <linux/spinlock.h>
#include <linux/timer.h>
#include <linux/types.h>
#include <linux/wait.h>
#include <linux/workqueue.h>

#include <net/dst_cache.h>
#include <ub/ubcore_eid.h>

#include "msg.h"

struct ubcore_device;
struct udma_dev;

/*
 * Packets a sender has in flight per TP at most (the receiver's credit).
 * A window-bound transfer: 64 KiB WRITEs between two namespaces of a
 * stock-kernel guest moved 10.3 MB/s with 128 (its vCPUs half idle), 21
 * with 256, 18 with 512. The receiver holds one slot per PSN of it
 * (struct udma_rtp_rx.ooo).
 */
#define UDMA_RTP_WND		256
/* The receiver ACKs at least every this many packets... */
#define UDMA_RTP_ACK_EVERY	16
/*
 * ...and at the latest this long after the first one it did not ACK. Long
 * against a round trip, as TCP's delayed ACK: the ACK completes nothing
 * (a request completes on its TAACK) and a sender that needs it for its
 * window asks for it (TPH A), so a ping-pong of requests and TAACKs, each
 * packet of which the delay used to ACK on its own, sends one every
 * UDMA_RTP_ACK_EVERY packets instead: at 500 us, 40% of the packets
 * between two guests in write_lat were ACKs, and the median round trip
 * took twice as long as at 10 ms (docs/uboe-wire.md). Well below the
 * least RTO (uboe_rto_ms), which the ACK must beat.
 */
#define UDMA_RTP_ACK_DELAY_US	10000
/*
 * The RTO doubles per timeout up to this, or up to the estimate's RTO if
 * that is more (a path slower than this: an RTO below its RTT resends
 * what was not lost).
 */
#define UDMA_RTP_RTO_MAX_MS	2000
/*
 * A hole is NAKed once this many later packets arrived (reordering), or
 * at once after a NAKed hole before it was filled (udma_rtp_rx_nak_due()).
 */
#define UDMA_RTP_NAK_AFTER	4
/*
 * After its NAK, a receiver holding packets after a hole ACKs again (the
 * same PSN, TPACKH info: how many it holds) every this many it took into
 * holding, so that the sender keeps its window's worth in the network
 * instead of idling a round trip per loss (struct udma_rtp_tx.held).
 */
#define UDMA_RTP_HELD_ACK_EVERY	4
/*
 * The congestion window (struct udma_rtp_tx.cwnd): a new TP's, and the
 * least slow-start threshold a timeout leaves (a message's tail loses
 * its last packets with few in flight: halving that would crawl).
 */
#define UDMA_RTP_CWND_INIT	64
#define UDMA_RTP_SSTHRESH_MIN	16
/* RTT samples above this are taken as this (a stalled path, not an RTT). */
#define UDMA_RTP_RTT_MAX_US	(10 * USEC_PER_SEC)

/* PSN arithmetic, 24 bits with wrap (uboe_wire.h UBOE_PSN_MASK). */
static inline u32 udma_psn_add(u32 psn, u32 n)
{
	return (psn + n) & UBOE_PSN_MASK;
}

/* @a - @b as a distance forward from @b, 0 .. 2^24 - 1. */
static inline u32 udma_psn_diff(u32 a, u32 b)
{
	return (a - b) & UBOE_PSN_MASK;
}

/* Is @a before @b (within half the PSN space)? */
static inline bool udma_psn_before(u32 a, u32 b)
{
	return a != b && udma_psn_diff(b, a) < (UBOE_PSN_MASK + 1) / 2;
}

/**
 * struct udma_rtp_pkt - a packet the peer has not acknowledged yet
 * @node: in struct udma_rtp_tx.unacked, PSN order
 * @pkt: the packet as udma_uboe_xmit() takes it; @pkt.payload is @buf
 *	(NULL with @nr_bvec)
 * @sent_ns: when it was first sent (ktime_get_ns()), for an RTT sample
 * @resent: it was sent again: its ACK gives no RTT sample (Karn)
 * @buf: the payload (a copy: the sender rebuilds nothing, see
 *	uboe_rtp.c), @payload_len bytes; NULL without one, or with @nr_bvec
 * @frag: @buf is in a page fragment, with UDMA_RTP_PKT_HEADROOM bytes
 *	before it and UBOE_ICRC_SIZE after it: the first sending encodes the
 *	packet there, and its train takes it as a fragment without a copy
 *	(udma_uboe_batch_add_frag()); else @buf is @data
 * @nr_bvec: entries of @bvec, 0 when the payload is at @buf
 * @data: the payload when not in a page fragment
 * @bvec: the payload without a copy: the pages of the registered memory
 *	it is in, a reference held on each (udma_rtp_pkt_alloc_pages());
 *	every sending puts them in its skb after a header fragment
 *	(udma_uboe_batch_add_pages()). Their bytes cannot change under the
 *	packet while it matters: the WQE completes on its TAACK, sent once
 *	every packet of it was placed, and a later sending of it is a
 *	duplicate the receiver drops by its PSN before it reads the payload.
 */
struct udma_rtp_pkt {
	struct list_head node;
	struct uboe_pkt pkt;
	u64 sent_ns;
	bool resent;
	bool frag;
	u8 *buf;
	u32 nr_bvec;
	union {
		DECLARE_FLEX_ARRAY(u8, data);
		DECLARE_FLEX_ARRAY(struct bio_vec, bvec);
	};
};

/*
 * Room before a payload in a page fragment for the packet's headers: the
 * longest headers (TPH, EIDH, TA header, every extension) are 168 bytes.
 */
#define UDMA_RTP_PKT_HEADROOM	192

/*
 * Pages a packet's payload may be referenced in (udma_rtp_pkt.bvec): an
 * skb's fragments less its header's and its ICRC's. A payload in more is
 * copied.
 */
#define UDMA_RTP_PKT_BVECS	(MAX_SKB_FRAGS - 2)

/**
 * struct udma_rtp_tx - the sending half of a TP's transport (pure state,
 *	no device: KUnit drives it)
 * @next: PSN of the next new packet
 * @una: PSN of the oldest unacknowledged packet (@next when none)
 * @wnd: packets the peer takes from @una on (its last credit, at least 1)
 * @unacked: struct udma_rtp_pkt from @una to @next - 1
 * @nr: entries of @unacked
 * @acked_sent_ns: set by each ACK that acknowledges something: when the
 *	newest packet it acknowledges was sent, 0 if it acknowledges one
 *	that was resent
 * @cwnd: packets the sender lets be in flight from @una (the congestion
 *	window, 1 .. UDMA_RTP_WND): a timeout sets it to 1, each
 *	acknowledged packet adds 1 below @ssthresh (slow start), one per
 *	window's worth above it
 * @ssthresh: the slow-start threshold: half @cwnd at a timeout
 * @cwnd_acked: packets acknowledged above @ssthresh towards @cwnd's next 1
 * @resend: after a timeout, the next packet of @unacked to send again
 *	(go-back-N, at @cwnd's pace); NULL when every unacknowledged packet
 *	went again since (or there was no timeout): new packets wait for it
 * @recovering: a loss (a NAK's hole, a timeout) shrank @cwnd and the
 *	packets sent before it are not all acknowledged: another NAK of
 *	them is the same loss
 * @recover: @next at that loss: @recovering ends when @una reaches it
 * @held: packets of @unacked after the oldest that the peer holds after
 *	the hole at @una (the TPACKH info of its ACK or NAK of that hole):
 *	out of the network, so not counted against @cwnd, as TCP's pipe
 *	(RFC 6675) leaves out what SACK reported; 0 when @una moves on
 * @hole_sent: the hole at @una that a NAK named was sent again, when
 *	@next was @hole_next (udma_rtp_tx_hole_lost()); false when @una
 *	moves on
 * @hole_next: see @hole_sent
 * @pace_ns: pacing: the earliest time (ktime_get_ns()) at which the next
 *	new packet may leave; a burst of udma_rtp_tx_paced()'s @burst
 *	packets may leave at once after an idle time
 */
struct udma_rtp_tx {
	u32 next;
	u32 una;
	u32 wnd;
	struct list_head unacked;
	u32 nr;
	u64 acked_sent_ns;
	u32 cwnd;
	u32 ssthresh;
	u32 cwnd_acked;
	struct udma_rtp_pkt *resend;
	bool recovering;
	u32 recover;
	u32 held;
	bool hole_sent;
	u32 hole_next;
	u64 pace_ns;
};

/**
 * struct udma_rtp_rtt - a TP's round-trip time estimate (RFC 6298's
 *	SRTT and RTTVAR), in microseconds; all 0 before the first sample
 * @srtt_us: the smoothed RTT
 * @rttvar_us: its variation
 */
struct udma_rtp_rtt {
	u32 srtt_us;
	u32 rttvar_us;
};

/**
 * struct udma_rtp_rx - the receiving half of a TP's transport
 * @epsn: the PSN expected next
 * @unacked: packets taken since the last ACK
 * @nak_sent: a NAK for @epsn went out (one per hole)
 * @dup_ack: a duplicate arrived since the last ACK: the delayed ACK goes
 *	out even if nothing new was taken
 * @after: packets after the hole at @epsn that arrived since it opened
 * @ooo: packets that arrived after a hole, held until it is filled: the
 *	one of PSN p at @ooo[p % UDMA_RTP_WND] (an opaque item of the
 *	carrier's, struct udma_uboe_item), @ooo_psn[] its PSN
 * @ooo_psn: see @ooo
 * @nr_held: packets in @ooo
 */
struct udma_rtp_rx {
	u32 epsn;
	u32 unacked;
	bool nak_sent;
	bool dup_ack;
	u32 after;
	void *ooo[UDMA_RTP_WND];
	u32 ooo_psn[UDMA_RTP_WND];
	u32 nr_held;
};

/**
 * struct udma_rtp_waiter - a sender that waits for a TP without sleeping
 *	(a queue's requester: it stops and is kicked)
 * @node: in udma_rtp.waiters while it waits, empty otherwise
 * @wake: it may try again (the window opened, the TP's message in packets
 *	is over, or the TP failed or stopped); called under udma_rtp.lock,
 *	in any context: must not sleep
 */
struct udma_rtp_waiter {
	struct list_head node;
	void (*wake)(struct udma_rtp_waiter *w);
};

/**
 * struct udma_resp_seg - the responder's state of the message that is
 *	arriving in several packets on one TP (resp.c; the device's receive
 *	work only: no lock)
 * @active: its FIRST packet was taken, its LAST not yet
 * @answered: its response went out already (it failed at a packet): the
 *	rest of its packets are skipped
 * @rqe: SEND: an RQE was taken and its receive CQE is not written yet
 * @ta_opcode: its TAOpcode
 * @tassn: its INI_TASSN
 * @rc_id: its INI_RC_ID
 * @next_off: the offset the next packet must carry
 * @cr: SEND: the status of the receive CQE so far
 * @user_ctx: SEND: the RQE's
 * @rcv: SEND: the receiver, with a reference
 * @ranges: SEND: the RQE's ranges, each holding a segment reference
 * @first: its FIRST packet's fields (no payload), for the receive CQE of
 *	a message that never ends (udma_resp_seg_abort())
 */
struct udma_resp_seg {
	bool active;
	bool answered;
	bool rqe;
	u8 ta_opcode;
	u16 tassn;
	u32 rc_id;
	u64 next_off;
	u8 cr;
	u64 user_ctx;
	struct udma_receiver rcv;
	struct udma_rqe_ranges ranges;
	struct udma_msg first;
};

/**
 * struct udma_rtp - a TP of a device, as its transport sees it; created
 *	on the first packet sent or received on it, kept (in udma_dev.rtps,
 *	by local TPN) until the device is released; reset when the TPN
 *	comes back for another peer (a new TP)
 * @udev: the device
 * @tpn: this end's TPN
 * @lock: protects every field below but @seg and @fail_work;
 *	taken in softirq (packets, timers) and with BHs off in process
 *	context
 * @peer_tpn: the peer's TPN
 * @peer: the peer's EID
 * @src: this end's EID, for the EIDH of ACKs and NAKs
 * @tx: the sending half
 * @rx: the receiving half
 * @rtt: the RTT estimate, from the ACKs of packets sent once
 * @rto_base: the retransmission timeout the estimate gives (at least
 *	the TP's first, udma_rtp_rto0()), jiffies
 * @rto: the current retransmission timeout: @rto_base doubled per
 *	timeout in a row (up to UDMA_RTP_RTO_MAX_MS or @rto_base), back to
 *	@rto_base on progress, jiffies
 * @retries: timeouts in a row without progress
 * @failed: the peer did not ACK after every retry: nothing is sent any
 *	more (sends fail with -ETIMEDOUT) until the TP is reset
 * @stopped: the device is going: no timer is armed any more
 * @lost: ubcore closed the TP (udma_tp_closed()): it is out of ubcore's
 *	table, so the next use of this TPN is a new TP (reset)
 * @gen: the TP of this TPN it is now, counted from 0 by every reset: a
 *	WQE sent on it records it (udma_wqe.rtp_gen), so that the failure
 *	of one TP fails the WQEs sent on that one only
 * @fail_gen: @gen of the TP that failed, for @fail_work
 * @rto_timer: retransmits from @tx.una (go-back-N)
 * @ack_timer: the delayed ACK (an hrtimer: UDMA_RTP_ACK_DELAY_US is not
 *	rounded to the jiffies, 4 ms at HZ=250)
 * @pace_timer: wakes the senders that stopped for pacing at @tx.pace_ns
 * @wait: senders that sleep until they may send (the responder)
 * @tx_owner: the sender whose message is going out in packets, between
 *	its first and its last (they are consecutive PSNs: the receiver
 *	reassembles one message per TP at a time), NULL: none; only it
 *	sends meanwhile. Not a lock: it holds nothing while it waits
 * @tx_nowait: the sender that took the TP with udma_rtp_reserve(), until
 *	its message ends or udma_rtp_unreserve(): it never waits, and its
 *	packets go even past the window (one response of the receive
 *	softirq's: a bounded overshoot)
 * @waiters: struct udma_rtp_waiter: senders that stopped for the window
 *	or for @tx_owner, woken (not in order) when they may try again
 * @seg: the responder's message in packets (the receive work's)
 * @fail_work: fails the WQEs sent on the TP @fail_gen, on whichever of
 *	the device's queues they are (udma_uboe_tp_failed(); process
 *	context)
 * @route: the route of the TP's packets to @peer, per CPU (struct
 *	udma_uboe_batch.route_cache): any context with BHs off, no lock;
 *	reset with the TP. Empty for good when it got no memory: every
 *	train then looks the route up
 */
struct udma_rtp {
	struct udma_dev *udev;
	u32 tpn;
	spinlock_t lock;		/* see above */
	u32 peer_tpn;
	union ubcore_eid peer;
	union ubcore_eid src;
	struct udma_rtp_tx tx;
	struct udma_rtp_rx rx;
	struct udma_rtp_rtt rtt;
	unsigned long rto_base;
	unsigned long rto;
	u8 retries;
	bool failed;
	bool stopped;
	bool lost;
	u32 gen;
	u32 fail_gen;
	struct timer_list rto_timer;
	struct hrtimer ack_timer;
	struct hrtimer pace_timer;
	wait_queue_head_t wait;
	const void *tx_owner;
	const void *tx_nowait;
	struct list_head waiters;
	struct udma_resp_seg seg;
	struct work_struct fail_work;
	struct dst_cache route;
};

/* What the receiver does with a data packet of a PSN. */
enum udma_rtp_verdict {
	UDMA_RTP_NEW,		/* the expected PSN: take it */
	UDMA_RTP_DUP,		/* before it: a duplicate, ACK again */
	UDMA_RTP_GAP,		/* after it, in the window: hold it */
	UDMA_RTP_OUT,		/* beyond the window: drop */
};

/* Pure parts (KUnit) */
void udma_rtp_tx_init(struct udma_rtp_tx *tx);
void udma_rtp_tx_queue(struct udma_rtp_tx *tx, struct udma_rtp_pkt *p);
u32 udma_rtp_tx_ack(struct udma_rtp_tx *tx, u32 psn, u16 wnd);
void udma_rtp_tx_purge(struct udma_rtp_tx *tx);
bool udma_rtp_tx_room(const struct udma_rtp_tx *tx);
void udma_rtp_tx_held(struct udma_rtp_tx *tx, u32 psn, u32 held);
u32 udma_rtp_tx_in_flight(const struct udma_rtp_tx *tx);
bool udma_rtp_rx_held_ack_due(const struct udma_rtp_rx *rx);
void udma_rtp_tx_hole_resent(struct udma_rtp_tx *tx);
bool udma_rtp_tx_hole_lost(const struct udma_rtp_tx *tx);
u64 udma_rtp_pace_gap_ns(const struct udma_rtp_tx *tx, u32 srtt_us, u32 pct);
void udma_rtp_tx_paced(struct udma_rtp_tx *tx, u64 now, u64 gap, u32 burst);
u32 udma_rtp_tx_limit(const struct udma_rtp_tx *tx);
bool udma_rtp_tx_ack_wanted(const struct udma_rtp_tx *tx, u32 psn);
void udma_rtp_tx_timeout(struct udma_rtp_tx *tx, bool first);
void udma_rtp_tx_loss(struct udma_rtp_tx *tx);
struct udma_rtp_pkt *udma_rtp_tx_next_resend(struct udma_rtp_tx *tx);
u32 udma_rtp_rtt_sample(struct udma_rtp_rtt *e, u32 r_us, u32 g_us);
u32 udma_rtp_rto_estimate(struct udma_rtp_rtt *e, u32 r_us, u32 g_us,
			  u32 rto0_us);
enum udma_rtp_verdict udma_rtp_rx_verdict(const struct udma_rtp_rx *rx,
					  u32 psn);
bool udma_rtp_rx_take(struct udma_rtp_rx *rx, bool ack_req);
bool udma_rtp_rx_hold(struct udma_rtp_rx *rx, u32 psn, void *item);
bool udma_rtp_rx_nak_due(const struct udma_rtp_rx *rx, bool refilled);
void *udma_rtp_rx_next(struct udma_rtp_rx *rx);
void udma_rtp_rx_purge(struct udma_rtp_rx *rx, void (*drop)(void *item));
u32 udma_uboe_seg_size(u64 len, u32 room);
u32 udma_uboe_seg_count(u64 len, u32 size);

/* The device's TPs */
void udma_rtp_init(struct udma_dev *udev);
void udma_rtp_stop(struct udma_dev *udev);
void udma_rtp_free(struct udma_dev *udev);
struct seq_file;
void udma_rtp_show(struct seq_file *m, struct udma_dev *udev);
struct udma_rtp *udma_rtp_get(struct udma_dev *udev, u32 tpn, u32 peer_tpn,
			      const union ubcore_eid *peer, gfp_t gfp);
void udma_rtp_use_locked(struct udma_rtp *rtp, u32 peer_tpn,
			 const union ubcore_eid *src,
			 const union ubcore_eid *peer);
struct udma_uboe_batch;
int udma_rtp_send(struct udma_rtp *rtp, struct udma_rtp_pkt *p,
		  const void *owner, struct udma_rtp_waiter *w,
		  struct udma_uboe_batch *b);
bool udma_rtp_reserve(struct udma_rtp *rtp, const void *owner);
void udma_rtp_unreserve(struct udma_rtp *rtp, const void *owner);
void udma_rtp_cancel(struct udma_rtp *rtp, const void *owner,
		     struct udma_rtp_waiter *w);
bool udma_rtp_rx_data(struct udma_rtp *rtp, const struct uboe_pkt *pkt,
		      bool (*take)(void *item), void (*drop)(void *item),
		      void *item);
enum uboe_drop udma_rtp_rx_ack(struct udma_dev *udev,
			       const struct uboe_pkt *pkt,
			       const union ubcore_eid *src);
struct udma_rtp_pkt *udma_rtp_pkt_alloc(u32 len, gfp_t gfp);
struct udma_rtp_pkt *udma_rtp_pkt_alloc_pages(const struct udma_local_buf *src,
					      gfp_t gfp);
void udma_rtp_pkt_free(struct udma_rtp_pkt *p);
int udma_rtp_pkt_add(struct udma_uboe_batch *b, const union ubcore_eid *dst,
		     struct udma_rtp_pkt *p, struct dst_cache *route);
void udma_rtp_frags_drain(void);
void udma_tp_closed(struct ubcore_device *ub_dev, u32 tpn);
struct ubcore_tp_xport;
void udma_tp_defaults(struct ubcore_device *ub_dev,
		      struct ubcore_tp_xport *xport);

#endif /* _UDMA_UBOE_RTP_H */
