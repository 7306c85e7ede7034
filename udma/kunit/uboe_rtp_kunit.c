// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * KUnit tests of the reliable transport of UBoE TPs (udma/uboe_rtp.c) and
 * of the segmentation of a message (udma/uboe_carrier.c), on their pure
 * parts: PSN arithmetic in 24 bits across the wrap (uboe_wire.h
 * UBOE_PSN_MASK), the retransmit queue and cumulative ACKs, the
 * receiver's verdict, ACK coalescing and the packets it holds after a
 * hole, and the packets of a message at
 * the sizes around one packet's room (OFSTETAH offsets in 1 KiB units,
 * uboe_wire.h).
 */
#include <kunit/test.h>
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "../target.h"
#include "../uboe_carrier.h"
#include "../uboe_rtp.h"

/* 24-bit PSNs: the last one, and wrap to 0. */
#define R_LAST		0xffffffU

static void rtp_psn_wrap(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, udma_psn_add(R_LAST, 1), 0);
	KUNIT_EXPECT_EQ(test, udma_psn_add(R_LAST - 1, 3), 1);
	KUNIT_EXPECT_EQ(test, udma_psn_add(5, R_LAST), 4);	/* 5 - 1 */
	KUNIT_EXPECT_EQ(test, udma_psn_diff(0, R_LAST - 1), 2);
	KUNIT_EXPECT_EQ(test, udma_psn_diff(R_LAST, 0), R_LAST);
	KUNIT_EXPECT_EQ(test, udma_psn_diff(7, 7), 0);
	KUNIT_EXPECT_TRUE(test, udma_psn_before(R_LAST - 1, 1));
	KUNIT_EXPECT_FALSE(test, udma_psn_before(1, R_LAST - 1));
	KUNIT_EXPECT_FALSE(test, udma_psn_before(9, 9));
	KUNIT_EXPECT_TRUE(test, udma_psn_before(0, 0x7fffff));
	/* half the space ahead is no longer "before" */
	KUNIT_EXPECT_FALSE(test, udma_psn_before(0, 0x800000));
}

static struct udma_rtp_pkt *rtp_pkt(struct kunit *test)
{
	struct udma_rtp_pkt *p = udma_rtp_pkt_alloc(16, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, p);
	return p;
}

/* The PSNs on the unacknowledged list, in order, into @psn. */
static u32 rtp_list(struct udma_rtp_tx *tx, u32 *psn, u32 max)
{
	struct udma_rtp_pkt *p;
	u32 n = 0;

	list_for_each_entry(p, &tx->unacked, node)
		if (n < max)
			psn[n++] = p->pkt.psn;
	return n;
}

/*
 * The RTT estimate (RFC 6298): the first sample sets SRTT and RTTVAR =
 * R/2; later ones move SRTT by 1/8 and RTTVAR by 1/4 of the difference;
 * the RTO is SRTT + max(G, 4 RTTVAR); an absurd sample counts as the cap.
 */
static void rtp_rtt_estimate(struct kunit *test)
{
	struct udma_rtp_rtt e = {};
	u32 i, rto;

	KUNIT_EXPECT_EQ(test, udma_rtp_rtt_sample(&e, 8000, 4000), 24000U);
	KUNIT_EXPECT_EQ(test, e.srtt_us, 8000U);
	KUNIT_EXPECT_EQ(test, e.rttvar_us, 4000U);
	/* R = 16000: RTTVAR 3000 + 2000, SRTT 7000 + 2000 */
	KUNIT_EXPECT_EQ(test, udma_rtp_rtt_sample(&e, 16000, 4000), 29000U);
	KUNIT_EXPECT_EQ(test, e.rttvar_us, 5000U);
	KUNIT_EXPECT_EQ(test, e.srtt_us, 9000U);
	/* a steady RTT: the variation fades to the granularity */
	for (i = 0; i < 100; i++)
		rto = udma_rtp_rtt_sample(&e, 9000, 4000);
	KUNIT_EXPECT_EQ(test, e.srtt_us, 9000U);
	KUNIT_EXPECT_EQ(test, rto, 13000U);
	/* a queue builds: the RTO follows it up */
	for (i = 0; i < 50; i++)
		rto = udma_rtp_rtt_sample(&e, 400000, 4000);
	KUNIT_EXPECT_GE(test, rto, 400000U);
	/* 0 counts as 1 us, a stall as UDMA_RTP_RTT_MAX_US */
	e = (struct udma_rtp_rtt){};
	KUNIT_EXPECT_EQ(test, udma_rtp_rtt_sample(&e, 0, 0), 1U);
	e = (struct udma_rtp_rtt){};
	udma_rtp_rtt_sample(&e, U32_MAX, 0);
	KUNIT_EXPECT_EQ(test, e.srtt_us, (u32)UDMA_RTP_RTT_MAX_US);
}

/*
 * A TP's RTO from the estimate: at least its first RTO; on a path of 3 s
 * RTTs above 3 s, past the back-off's cap (UDMA_RTP_RTO_MAX_MS), which
 * would time out every window; at most the largest sample.
 */
static void rtp_rto_estimate(struct kunit *test)
{
	struct udma_rtp_rtt e = {};
	u32 i, rto = 0;

	KUNIT_EXPECT_EQ(test, udma_rtp_rto_estimate(&e, 1000, 4000, 100000),
			100000U);
	for (i = 0; i < 50; i++)
		rto = udma_rtp_rto_estimate(&e, 3000000, 4000, 100000);
	KUNIT_EXPECT_GE(test, rto, 3000000U);
	KUNIT_EXPECT_GT(test, rto, (u32)UDMA_RTP_RTO_MAX_MS * USEC_PER_MSEC);
	e = (struct udma_rtp_rtt){};
	KUNIT_EXPECT_EQ(test, udma_rtp_rto_estimate(&e, U32_MAX, 4000, 100000),
			(u32)UDMA_RTP_RTT_MAX_US);
}

/* Queue @n new packets. */
static void rtp_queue_n(struct kunit *test, struct udma_rtp_tx *tx, u32 n)
{
	while (n--)
		udma_rtp_tx_queue(tx, rtp_pkt(test));
}

/*
 * The congestion window: UDMA_RTP_CWND_INIT in flight for a new TP
 * whatever the credit; slow start opens it by each packet acknowledged
 * up to the threshold, one per window's worth above it; never past
 * UDMA_RTP_WND; the credit bounds it too.
 */
static void rtp_tx_cwnd(struct kunit *test)
{
	struct udma_rtp_tx tx;
	u32 i;

	udma_rtp_tx_init(&tx);
	KUNIT_EXPECT_EQ(test, tx.cwnd, (u32)UDMA_RTP_CWND_INIT);
	KUNIT_EXPECT_EQ(test, udma_rtp_tx_limit(&tx), (u32)UDMA_RTP_CWND_INIT);
	rtp_queue_n(test, &tx, UDMA_RTP_CWND_INIT - 1);
	KUNIT_EXPECT_TRUE(test, udma_rtp_tx_room(&tx));
	rtp_queue_n(test, &tx, 1);
	KUNIT_EXPECT_FALSE(test, udma_rtp_tx_room(&tx));
	/* slow start: 16 acknowledged, 16 more */
	KUNIT_EXPECT_EQ(test, udma_rtp_tx_ack(&tx, 15, UDMA_RTP_WND), 16U);
	KUNIT_EXPECT_EQ(test, tx.cwnd, (u32)UDMA_RTP_CWND_INIT + 16);
	/* up to the threshold by slow start, the rest counts towards +1 */
	tx.ssthresh = UDMA_RTP_CWND_INIT + 20;
	KUNIT_EXPECT_EQ(test, udma_rtp_tx_ack(&tx, 25, UDMA_RTP_WND), 10U);
	KUNIT_EXPECT_EQ(test, tx.cwnd, (u32)UDMA_RTP_CWND_INIT + 20);
	KUNIT_EXPECT_EQ(test, tx.cwnd_acked, 6U);
	rtp_queue_n(test, &tx, 200);
	/* a window's worth (84) acknowledged in all: one more */
	KUNIT_EXPECT_EQ(test, udma_rtp_tx_ack(&tx, 25 + 77, UDMA_RTP_WND),
			77U);
	KUNIT_EXPECT_EQ(test, tx.cwnd, (u32)UDMA_RTP_CWND_INIT + 20);
	KUNIT_EXPECT_EQ(test, udma_rtp_tx_ack(&tx, 25 + 78, UDMA_RTP_WND), 1U);
	KUNIT_EXPECT_EQ(test, tx.cwnd, (u32)UDMA_RTP_CWND_INIT + 21);
	KUNIT_EXPECT_EQ(test, tx.cwnd_acked, 0U);
	/* never past UDMA_RTP_WND */
	tx.ssthresh = UDMA_RTP_WND;
	for (i = 0; i < 8; i++) {
		rtp_queue_n(test, &tx, 100);
		udma_rtp_tx_ack(&tx, udma_psn_add(tx.next, UBOE_PSN_MASK),
				UDMA_RTP_WND);
	}
	KUNIT_EXPECT_EQ(test, tx.cwnd, (u32)UDMA_RTP_WND);
	/* the peer's credit bounds it */
	udma_rtp_tx_ack(&tx, udma_psn_add(tx.next, UBOE_PSN_MASK), 8);
	KUNIT_EXPECT_EQ(test, udma_rtp_tx_limit(&tx), 8U);
	udma_rtp_tx_purge(&tx);
}

/*
 * Pacing: the gap between new packets is the smoothed RTT over the window
 * at the rate's percentage (twice it in slow start), none without an RTT
 * or a rate; the token bucket lets a burst go after an idle time, then
 * one packet per gap, and never banks more than the burst.
 */
static void rtp_tx_pace(struct kunit *test)
{
	const u64 t0 = 10 * NSEC_PER_SEC;
	struct udma_rtp_tx tx;
	u64 gap;
	int i;

	udma_rtp_tx_init(&tx);
	KUNIT_EXPECT_EQ(test, tx.pace_ns, 0ULL);
	KUNIT_EXPECT_EQ(test, udma_rtp_pace_gap_ns(&tx, 0, 120), 0ULL);
	KUNIT_EXPECT_EQ(test, udma_rtp_pace_gap_ns(&tx, 1000, 0), 0ULL);
	/* slow start (cwnd 64 < ssthresh): 1 ms over 64 packets at 240% */
	KUNIT_EXPECT_EQ(test, udma_rtp_pace_gap_ns(&tx, 1000, 120),
			div64_u64(1000000ULL * 100, 64 * 240));
	tx.ssthresh = tx.cwnd;
	gap = udma_rtp_pace_gap_ns(&tx, 1000, 100);
	KUNIT_EXPECT_EQ(test, gap, 1000000ULL / 64);
	/* the peer's credit bounds the window the rate is of */
	tx.wnd = 16;
	KUNIT_EXPECT_EQ(test, udma_rtp_pace_gap_ns(&tx, 1000, 100),
			1000000ULL / 16);
	/* an idle TP: 4 packets at t0, the 5th a gap later */
	for (i = 0; i < 4; i++) {
		KUNIT_EXPECT_LE(test, tx.pace_ns, t0);
		udma_rtp_tx_paced(&tx, t0, gap, 4);
	}
	KUNIT_EXPECT_EQ(test, tx.pace_ns, t0 + gap);
	udma_rtp_tx_paced(&tx, t0 + gap, gap, 4);
	KUNIT_EXPECT_EQ(test, tx.pace_ns, t0 + 2 * gap);
	/* a long idle time banks no more than the burst */
	udma_rtp_tx_paced(&tx, t0 + 1000 * gap, gap, 4);
	KUNIT_EXPECT_EQ(test, tx.pace_ns, t0 + 998 * gap);
	/* a burst beyond the window is the window's */
	udma_rtp_tx_paced(&tx, t0 + 2000 * gap, gap, U32_MAX);
	KUNIT_EXPECT_EQ(test, tx.pace_ns,
			t0 + 2000 * gap - (UDMA_RTP_WND - 2) * gap);
	/* a burst of 0 is 1; a gap of 0 turns pacing off */
	udma_rtp_tx_paced(&tx, t0 + 2000 * gap, gap, 0);
	KUNIT_EXPECT_EQ(test, tx.pace_ns, t0 + 2001 * gap);
	udma_rtp_tx_paced(&tx, t0 + 2000 * gap, 0, 4);
	KUNIT_EXPECT_EQ(test, tx.pace_ns, 0ULL);
}

/* The PSN of the packet a recovery sends next, or -1 for none. */
static int rtp_resend_psn(struct udma_rtp_tx *tx)
{
	struct udma_rtp_pkt *p = udma_rtp_tx_next_resend(tx);

	return p ? (int)p->pkt.psn : -1;
}

/*
 * A timeout: the threshold halves (not below UDMA_RTP_SSTHRESH_MIN, and
 * not again at the next timeout in a row), the window drops to 1, and a
 * recovery sends the unacknowledged packets again from the oldest, at
 * the window's pace, skipping what a cumulative ACK says the receiver
 * has; no new packet goes until it is over.
 */
static void rtp_tx_recovery(struct kunit *test)
{
	struct udma_rtp_tx tx;

	udma_rtp_tx_init(&tx);
	KUNIT_EXPECT_EQ(test, rtp_resend_psn(&tx), -1);
	rtp_queue_n(test, &tx, 10);
	udma_rtp_tx_timeout(&tx, true);
	KUNIT_EXPECT_EQ(test, tx.ssthresh, (u32)UDMA_RTP_CWND_INIT / 2);
	KUNIT_EXPECT_EQ(test, tx.cwnd, 1U);
	KUNIT_EXPECT_FALSE(test, udma_rtp_tx_room(&tx));
	KUNIT_EXPECT_EQ(test, rtp_resend_psn(&tx), 0);
	KUNIT_EXPECT_EQ(test, rtp_resend_psn(&tx), -1);
	/* its ACK: a window of 2 (slow start) */
	KUNIT_EXPECT_EQ(test, udma_rtp_tx_ack(&tx, 0, UDMA_RTP_WND), 1U);
	KUNIT_EXPECT_EQ(test, tx.cwnd, 2U);
	KUNIT_EXPECT_EQ(test, rtp_resend_psn(&tx), 1);
	KUNIT_EXPECT_EQ(test, rtp_resend_psn(&tx), 2);
	KUNIT_EXPECT_EQ(test, rtp_resend_psn(&tx), -1);
	KUNIT_EXPECT_FALSE(test, udma_rtp_tx_room(&tx));
	/* the receiver held 3 to 5: the recovery goes on from 6 */
	KUNIT_EXPECT_EQ(test, udma_rtp_tx_ack(&tx, 5, UDMA_RTP_WND), 5U);
	KUNIT_EXPECT_EQ(test, tx.cwnd, 7U);
	KUNIT_EXPECT_EQ(test, rtp_resend_psn(&tx), 6);
	KUNIT_EXPECT_EQ(test, rtp_resend_psn(&tx), 7);
	KUNIT_EXPECT_EQ(test, rtp_resend_psn(&tx), 8);
	KUNIT_EXPECT_EQ(test, rtp_resend_psn(&tx), 9);
	/* over: new packets may go */
	KUNIT_EXPECT_PTR_EQ(test, tx.resend, NULL);
	KUNIT_EXPECT_EQ(test, rtp_resend_psn(&tx), -1);
	KUNIT_EXPECT_TRUE(test, udma_rtp_tx_room(&tx));
	/* timeouts in a row: the threshold stays, the least it can be */
	udma_rtp_tx_timeout(&tx, true);
	KUNIT_EXPECT_EQ(test, tx.ssthresh, (u32)UDMA_RTP_SSTHRESH_MIN);
	udma_rtp_tx_timeout(&tx, false);
	KUNIT_EXPECT_EQ(test, tx.ssthresh, (u32)UDMA_RTP_SSTHRESH_MIN);
	KUNIT_EXPECT_EQ(test, tx.cwnd, 1U);
	/* an ACK past the whole recovery ends it */
	KUNIT_EXPECT_EQ(test, udma_rtp_tx_ack(&tx, 9, UDMA_RTP_WND), 4U);
	KUNIT_EXPECT_PTR_EQ(test, tx.resend, NULL);
	KUNIT_EXPECT_TRUE(test, udma_rtp_tx_room(&tx));
	/* a purge ends one too */
	rtp_queue_n(test, &tx, 3);
	udma_rtp_tx_timeout(&tx, true);
	udma_rtp_tx_purge(&tx);
	KUNIT_EXPECT_PTR_EQ(test, tx.resend, NULL);
	KUNIT_EXPECT_EQ(test, rtp_resend_psn(&tx), -1);
}

/*
 * A NAK's hole halves the window and the threshold, once for the packets
 * sent before it (later NAKs of them are the same loss), not below
 * UDMA_RTP_SSTHRESH_MIN; the next loss counts once they are all
 * acknowledged; a timeout during it starts one of its own.
 */
static void rtp_tx_nak_loss(struct kunit *test)
{
	struct udma_rtp_tx tx;

	udma_rtp_tx_init(&tx);
	rtp_queue_n(test, &tx, 64);
	udma_rtp_tx_loss(&tx);
	KUNIT_EXPECT_EQ(test, tx.cwnd, (u32)UDMA_RTP_CWND_INIT / 2);
	KUNIT_EXPECT_EQ(test, tx.ssthresh, (u32)UDMA_RTP_CWND_INIT / 2);
	udma_rtp_tx_loss(&tx);
	KUNIT_EXPECT_EQ(test, tx.cwnd, (u32)UDMA_RTP_CWND_INIT / 2);
	/* one of them still out: the same loss */
	KUNIT_EXPECT_EQ(test, udma_rtp_tx_ack(&tx, 62, UDMA_RTP_WND), 63U);
	KUNIT_EXPECT_TRUE(test, tx.recovering);
	udma_rtp_tx_loss(&tx);
	KUNIT_EXPECT_EQ(test, tx.ssthresh, (u32)UDMA_RTP_CWND_INIT / 2);
	/* all in: the next NAK is a new loss */
	rtp_queue_n(test, &tx, 8);
	KUNIT_EXPECT_EQ(test, udma_rtp_tx_ack(&tx, 63, UDMA_RTP_WND), 1U);
	KUNIT_EXPECT_FALSE(test, tx.recovering);
	tx.cwnd = 20;
	udma_rtp_tx_loss(&tx);
	KUNIT_EXPECT_EQ(test, tx.cwnd, (u32)UDMA_RTP_SSTHRESH_MIN);
	KUNIT_EXPECT_EQ(test, tx.recover, 72U);
	/* a timeout during the recovery: a window of 1, a recovery point */
	rtp_queue_n(test, &tx, 4);
	udma_rtp_tx_timeout(&tx, true);
	KUNIT_EXPECT_EQ(test, tx.cwnd, 1U);
	KUNIT_EXPECT_EQ(test, tx.recover, 76U);
	udma_rtp_tx_purge(&tx);
	KUNIT_EXPECT_FALSE(test, tx.recovering);
}

/*
 * Packets the peer holds after a hole are out of the network: a full
 * window with 6 of them held lets 6 more go, within the peer's credit;
 * the hole's resent packet is lost once packets sent after it are held;
 * a count of another hole is not taken; the hole filled, or a timeout,
 * and every unacknowledged packet counts again.
 */
static void rtp_tx_held(struct kunit *test)
{
	struct udma_rtp_tx tx;

	udma_rtp_tx_init(&tx);
	tx.cwnd = 16;
	rtp_queue_n(test, &tx, 16);
	KUNIT_EXPECT_FALSE(test, udma_rtp_tx_room(&tx));
	/* a NAK of PSN 0: 6 held after it */
	udma_rtp_tx_held(&tx, 0, 6);
	KUNIT_EXPECT_EQ(test, udma_rtp_tx_in_flight(&tx), 10U);
	KUNIT_EXPECT_TRUE(test, udma_rtp_tx_room(&tx));
	rtp_queue_n(test, &tx, 6);
	KUNIT_EXPECT_FALSE(test, udma_rtp_tx_room(&tx));
	/* never more than all but the hole, nor past the credit */
	udma_rtp_tx_held(&tx, 0, 255);
	KUNIT_EXPECT_EQ(test, tx.held, 21U);
	tx.wnd = 22;
	KUNIT_EXPECT_FALSE(test, udma_rtp_tx_room(&tx));
	tx.wnd = UDMA_RTP_WND;
	/*
	 * The hole resent after PSN 21: lost too once UDMA_RTP_NAK_AFTER
	 * packets sent after it are held as well.
	 */
	udma_rtp_tx_hole_resent(&tx);
	KUNIT_EXPECT_FALSE(test, udma_rtp_tx_hole_lost(&tx));
	rtp_queue_n(test, &tx, UDMA_RTP_NAK_AFTER);
	udma_rtp_tx_held(&tx, 0, 21 + UDMA_RTP_NAK_AFTER - 1);
	KUNIT_EXPECT_FALSE(test, udma_rtp_tx_hole_lost(&tx));
	udma_rtp_tx_held(&tx, 0, 21 + UDMA_RTP_NAK_AFTER);
	KUNIT_EXPECT_TRUE(test, udma_rtp_tx_hole_lost(&tx));
	udma_rtp_tx_hole_resent(&tx);
	KUNIT_EXPECT_FALSE(test, udma_rtp_tx_hole_lost(&tx));
	/* the count of a hole that is not the oldest packet: not taken */
	udma_rtp_tx_held(&tx, 3, 2);
	KUNIT_EXPECT_EQ(test, tx.held, 21U + UDMA_RTP_NAK_AFTER);
	/* the hole filled: the ACK moved on, its own count follows */
	KUNIT_EXPECT_EQ(test, udma_rtp_tx_ack(&tx, 9, UDMA_RTP_WND), 10U);
	KUNIT_EXPECT_EQ(test, tx.held, 0U);
	KUNIT_EXPECT_FALSE(test, tx.hole_sent);
	KUNIT_EXPECT_EQ(test, udma_rtp_tx_in_flight(&tx), 16U);
	udma_rtp_tx_held(&tx, 10, 4);
	KUNIT_EXPECT_EQ(test, udma_rtp_tx_in_flight(&tx), 12U);
	udma_rtp_tx_timeout(&tx, true);
	KUNIT_EXPECT_EQ(test, udma_rtp_tx_in_flight(&tx), 16U);
	udma_rtp_tx_purge(&tx);
	KUNIT_EXPECT_EQ(test, udma_rtp_tx_in_flight(&tx), 0U);
}

/*
 * Which packets ask for an ACK (TPH A): none in the first half of the
 * window, then the quarter window's PSNs and the one that fills it (the
 * receiver ACKs every UDMA_RTP_ACK_EVERY packets itself); with a window
 * of one, each packet.
 */
static void rtp_tx_ack_wanted(struct kunit *test)
{
	u32 asked[UDMA_RTP_CWND_INIT], n = 0, i;
	struct udma_rtp_tx tx;

	udma_rtp_tx_init(&tx);
	for (i = 0; i < UDMA_RTP_CWND_INIT; i++) {
		rtp_queue_n(test, &tx, 1);
		if (udma_rtp_tx_ack_wanted(&tx, i))
			asked[n++] = i;
	}
	KUNIT_ASSERT_EQ(test, n, 3U);
	KUNIT_EXPECT_EQ(test, asked[0], UDMA_RTP_CWND_INIT / 2U);
	KUNIT_EXPECT_EQ(test, asked[1], UDMA_RTP_CWND_INIT * 3U / 4);
	KUNIT_EXPECT_EQ(test, asked[2], UDMA_RTP_CWND_INIT - 1U);
	udma_rtp_tx_purge(&tx);

	tx.cwnd = 1;
	rtp_queue_n(test, &tx, 1);
	KUNIT_EXPECT_TRUE(test, udma_rtp_tx_ack_wanted(&tx, tx.next - 1));
	KUNIT_EXPECT_EQ(test, udma_rtp_tx_ack(&tx, tx.next - 1, UDMA_RTP_WND),
			1U);
	rtp_queue_n(test, &tx, 1);
	KUNIT_EXPECT_TRUE(test, udma_rtp_tx_ack_wanted(&tx, tx.next - 1));
	udma_rtp_tx_purge(&tx);
}

/*
 * The ACK's RTT sample (Karn): the send time of the newest packet it
 * acknowledges, 0 when it acknowledges any that was resent.
 */
static void rtp_tx_ack_sample(struct kunit *test)
{
	struct udma_rtp_tx tx;
	struct udma_rtp_pkt *p[5];
	u32 i;

	udma_rtp_tx_init(&tx);
	for (i = 0; i < 5; i++) {
		p[i] = rtp_pkt(test);
		udma_rtp_tx_queue(&tx, p[i]);
		p[i]->sent_ns = 1000 * (i + 1);
	}
	p[1]->resent = true;
	KUNIT_EXPECT_EQ(test, udma_rtp_tx_ack(&tx, 0, 10), 1U);
	KUNIT_EXPECT_EQ(test, tx.acked_sent_ns, 1000ULL);
	/* 1 (resent) and 2: the packet after the hole waited for it */
	KUNIT_EXPECT_EQ(test, udma_rtp_tx_ack(&tx, 2, 10), 2U);
	KUNIT_EXPECT_EQ(test, tx.acked_sent_ns, 0ULL);
	KUNIT_EXPECT_EQ(test, udma_rtp_tx_ack(&tx, 4, 10), 2U);
	KUNIT_EXPECT_EQ(test, tx.acked_sent_ns, 5000ULL);
}

/*
 * The retransmit queue across the PSN wrap: new packets take consecutive
 * PSNs; a cumulative ACK frees exactly the packets up to its PSN; an old
 * or duplicate ACK frees nothing, nor one of a PSN never sent; the
 * credit bounds the packets in flight and 0 counts as 1.
 */
static void rtp_tx_queue(struct kunit *test)
{
	struct udma_rtp_tx tx;
	u32 psn[8], i;

	udma_rtp_tx_init(&tx);
	KUNIT_EXPECT_EQ(test, tx.next, 0);
	KUNIT_EXPECT_EQ(test, tx.wnd, UDMA_RTP_WND);
	tx.next = R_LAST - 1;
	tx.una = R_LAST - 1;
	for (i = 0; i < 5; i++)
		udma_rtp_tx_queue(&tx, rtp_pkt(test));
	KUNIT_EXPECT_EQ(test, tx.nr, 5);
	KUNIT_EXPECT_EQ(test, tx.next, 3);
	KUNIT_ASSERT_EQ(test, rtp_list(&tx, psn, 8), 5);
	KUNIT_EXPECT_EQ(test, psn[0], R_LAST - 1);
	KUNIT_EXPECT_EQ(test, psn[1], R_LAST);
	KUNIT_EXPECT_EQ(test, psn[2], 0);
	KUNIT_EXPECT_EQ(test, psn[3], 1);
	KUNIT_EXPECT_EQ(test, psn[4], 2);

	/* ACK of R_LAST: the first two */
	KUNIT_EXPECT_EQ(test, udma_rtp_tx_ack(&tx, R_LAST, 10), 2);
	KUNIT_EXPECT_EQ(test, tx.una, 0);
	KUNIT_EXPECT_EQ(test, tx.nr, 3);
	KUNIT_EXPECT_EQ(test, tx.wnd, 10);
	KUNIT_ASSERT_EQ(test, rtp_list(&tx, psn, 8), 3);
	KUNIT_EXPECT_EQ(test, psn[0], 0);
	/* the same ACK again, an older one: nothing */
	KUNIT_EXPECT_EQ(test, udma_rtp_tx_ack(&tx, R_LAST, 10), 0);
	KUNIT_EXPECT_EQ(test, udma_rtp_tx_ack(&tx, R_LAST - 1, 10), 0);
	KUNIT_EXPECT_EQ(test, tx.nr, 3);
	/* an ACK of a PSN not sent yet: ignored */
	KUNIT_EXPECT_EQ(test, udma_rtp_tx_ack(&tx, 3, 10), 0);
	KUNIT_EXPECT_EQ(test, tx.nr, 3);
	KUNIT_EXPECT_EQ(test, tx.una, 0);

	/* the rest, with a credit of 0: one packet may still go */
	KUNIT_EXPECT_EQ(test, udma_rtp_tx_ack(&tx, 2, 0), 3);
	KUNIT_EXPECT_EQ(test, tx.nr, 0);
	KUNIT_EXPECT_EQ(test, tx.una, 3);
	KUNIT_EXPECT_EQ(test, tx.wnd, 1);
	KUNIT_EXPECT_TRUE(test, udma_rtp_tx_room(&tx));
	udma_rtp_tx_queue(&tx, rtp_pkt(test));
	KUNIT_EXPECT_FALSE(test, udma_rtp_tx_room(&tx));

	/*
	 * a credit larger than the window is the window (the congestion
	 * window open as far: rtp_tx_cwnd)
	 */
	KUNIT_EXPECT_EQ(test, udma_rtp_tx_ack(&tx, 2, 0xffff), 0);
	KUNIT_EXPECT_EQ(test, tx.wnd, UDMA_RTP_WND);
	tx.cwnd = UDMA_RTP_WND;
	KUNIT_EXPECT_TRUE(test, udma_rtp_tx_room(&tx));
	for (i = 1; i < UDMA_RTP_WND; i++)
		udma_rtp_tx_queue(&tx, rtp_pkt(test));
	KUNIT_EXPECT_FALSE(test, udma_rtp_tx_room(&tx));

	/* a failed TP: nothing left, the PSNs go on */
	udma_rtp_tx_purge(&tx);
	KUNIT_EXPECT_EQ(test, tx.nr, 0);
	KUNIT_EXPECT_TRUE(test, list_empty(&tx.unacked));
	KUNIT_EXPECT_EQ(test, tx.una, tx.next);
	KUNIT_EXPECT_EQ(test, tx.next, 3 + UDMA_RTP_WND);
}

/*
 * A receiving half, zeroed, expecting @epsn; on the heap: its slots, one
 * per PSN of the window, are too large for a test's stack frame.
 */
static struct udma_rtp_rx *rtp_rx_new(struct kunit *test, u32 epsn)
{
	struct udma_rtp_rx *rx = kunit_kzalloc(test, sizeof(*rx), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, rx);
	rx->epsn = epsn;
	return rx;
}

/*
 * The receiver's verdict around an expected PSN at the wrap, and ACK
 * coalescing: an ACK every UDMA_RTP_ACK_EVERY (16) packets, or at once
 * for a packet with ACKREQ.
 */
static void rtp_rx_coalesce(struct kunit *test)
{
	struct udma_rtp_rx *rx = rtp_rx_new(test, R_LAST);
	u32 i;

	KUNIT_EXPECT_EQ(test, udma_rtp_rx_verdict(rx, R_LAST), UDMA_RTP_NEW);
	KUNIT_EXPECT_EQ(test, udma_rtp_rx_verdict(rx, R_LAST - 1),
			UDMA_RTP_DUP);
	KUNIT_EXPECT_EQ(test, udma_rtp_rx_verdict(rx, 0x800000),
			UDMA_RTP_DUP);
	KUNIT_EXPECT_EQ(test, udma_rtp_rx_verdict(rx, 0), UDMA_RTP_GAP);
	KUNIT_EXPECT_EQ(test, udma_rtp_rx_verdict(rx, UDMA_RTP_WND - 2),
			UDMA_RTP_GAP);
	KUNIT_EXPECT_EQ(test, udma_rtp_rx_verdict(rx, UDMA_RTP_WND - 1),
			UDMA_RTP_OUT);
	KUNIT_EXPECT_EQ(test, udma_rtp_rx_verdict(rx, 0x7ffffe),
			UDMA_RTP_OUT);

	rx->nak_sent = true;
	for (i = 1; i < UDMA_RTP_ACK_EVERY; i++)
		KUNIT_EXPECT_FALSE(test, udma_rtp_rx_take(rx, false));
	KUNIT_EXPECT_FALSE(test, rx->nak_sent);
	KUNIT_EXPECT_EQ(test, rx->unacked, UDMA_RTP_ACK_EVERY - 1);
	KUNIT_EXPECT_TRUE(test, udma_rtp_rx_take(rx, false));
	KUNIT_EXPECT_EQ(test, rx->epsn, UDMA_RTP_ACK_EVERY - 1);
	rx->unacked = 0;		/* the ACK went out */
	KUNIT_EXPECT_FALSE(test, udma_rtp_rx_take(rx, false));
	KUNIT_EXPECT_TRUE(test, udma_rtp_rx_take(rx, true));
	KUNIT_EXPECT_EQ(test, rx->epsn, UDMA_RTP_ACK_EVERY + 1);
	/* what was expected is a duplicate now */
	KUNIT_EXPECT_EQ(test, udma_rtp_rx_verdict(rx, R_LAST), UDMA_RTP_DUP);
}

/*
 * When a hole is NAKed: after UDMA_RTP_NAK_AFTER packets beyond it, once;
 * and, right after a NAKed hole was filled by its resent packet, at the
 * first packet beyond the next hole (a loss, not reordering); a hole
 * filled without a NAK (reordering) does not make the next one urgent.
 */
static void rtp_rx_nak_due(struct kunit *test)
{
	static int items[8];
	struct udma_rtp_rx *rx = rtp_rx_new(test, 0);
	bool refilled;
	u32 psn;

	/* 0 and 5 lost; 1 .. 4 and 6 arrive */
	for (psn = 1; psn <= 4; psn++) {
		KUNIT_EXPECT_FALSE(test, udma_rtp_rx_nak_due(rx, false));
		KUNIT_ASSERT_TRUE(test, udma_rtp_rx_hold(rx, psn, &items[psn]));
	}
	KUNIT_EXPECT_TRUE(test, udma_rtp_rx_nak_due(rx, false));
	rx->nak_sent = true;		/* the NAK of 0 went out */
	KUNIT_EXPECT_FALSE(test, udma_rtp_rx_nak_due(rx, false));
	KUNIT_ASSERT_TRUE(test, udma_rtp_rx_hold(rx, 6, &items[6]));
	KUNIT_EXPECT_FALSE(test, udma_rtp_rx_nak_due(rx, false));

	/* the resent 0 arrives: 1 .. 4 follow it, 5 is missing, 6 held */
	refilled = rx->nak_sent;
	udma_rtp_rx_take(rx, false);
	while (udma_rtp_rx_next(rx))
		udma_rtp_rx_take(rx, false);
	rx->after = rx->nr_held;
	KUNIT_EXPECT_EQ(test, rx->epsn, 5);
	KUNIT_EXPECT_EQ(test, rx->after, 1);
	KUNIT_EXPECT_TRUE(test, udma_rtp_rx_nak_due(rx, refilled));
	/* without the NAK before, one packet beyond is reordering */
	KUNIT_EXPECT_FALSE(test, udma_rtp_rx_nak_due(rx, false));
	rx->nak_sent = true;
	KUNIT_EXPECT_FALSE(test, udma_rtp_rx_nak_due(rx, true));

	/* 5 arrives: nothing held, nothing due */
	refilled = rx->nak_sent;
	udma_rtp_rx_take(rx, false);
	while (udma_rtp_rx_next(rx))
		udma_rtp_rx_take(rx, false);
	rx->after = rx->nr_held;
	KUNIT_EXPECT_EQ(test, rx->epsn, 7);
	KUNIT_EXPECT_FALSE(test, udma_rtp_rx_nak_due(rx, refilled));
}

static int rtp_dropped;
static int rtp_dropped;

static void rtp_drop(void *item)
{
	rtp_dropped++;
}

/*
 * Packets after a hole are held, one per PSN (a second copy is refused),
 * and come out in PSN order once the hole is filled; once the hole was
 * NAKed, every UDMA_RTP_HELD_ACK_EVERY held are ACKed; a purge drops
 * what is held.
 */
static void rtp_rx_reorder(struct kunit *test)
{
	static int items[8];
	struct udma_rtp_rx *rx = rtp_rx_new(test, R_LAST - 1);

	/* R_LAST - 1 is missing; R_LAST, 0 and 2 arrive */
	KUNIT_EXPECT_EQ(test, udma_rtp_rx_verdict(rx, 0), UDMA_RTP_GAP);
	KUNIT_EXPECT_TRUE(test, udma_rtp_rx_hold(rx, 0, &items[2]));
	KUNIT_EXPECT_TRUE(test, udma_rtp_rx_hold(rx, R_LAST, &items[1]));
	KUNIT_EXPECT_TRUE(test, udma_rtp_rx_hold(rx, 2, &items[4]));
	KUNIT_EXPECT_FALSE(test, udma_rtp_rx_hold(rx, 0, &items[5]));
	KUNIT_EXPECT_EQ(test, rx->nr_held, 3);
	KUNIT_EXPECT_EQ(test, rx->after, 3);
	KUNIT_EXPECT_NULL(test, udma_rtp_rx_next(rx));
	/* what is held is ACKed every UDMA_RTP_HELD_ACK_EVERY, once NAKed */
	KUNIT_EXPECT_TRUE(test, udma_rtp_rx_hold(rx, 3, &items[6]));
	KUNIT_EXPECT_EQ(test, rx->nr_held, 4);
	KUNIT_EXPECT_FALSE(test, udma_rtp_rx_held_ack_due(rx));
	rx->nak_sent = true;
	KUNIT_EXPECT_TRUE(test, udma_rtp_rx_held_ack_due(rx));
	KUNIT_EXPECT_TRUE(test, udma_rtp_rx_hold(rx, 4, &items[7]));
	KUNIT_EXPECT_FALSE(test, udma_rtp_rx_held_ack_due(rx));

	/* the hole filled: R_LAST, then 0; 1 is the next hole */
	udma_rtp_rx_take(rx, false);
	KUNIT_EXPECT_EQ(test, rx->after, 0);
	KUNIT_EXPECT_PTR_EQ(test, udma_rtp_rx_next(rx), (void *)&items[1]);
	udma_rtp_rx_take(rx, false);
	KUNIT_EXPECT_PTR_EQ(test, udma_rtp_rx_next(rx), (void *)&items[2]);
	udma_rtp_rx_take(rx, false);
	KUNIT_EXPECT_EQ(test, rx->epsn, 1);
	KUNIT_EXPECT_NULL(test, udma_rtp_rx_next(rx));
	KUNIT_EXPECT_EQ(test, rx->nr_held, 3);
	KUNIT_EXPECT_FALSE(test, rx->nak_sent);

	rtp_dropped = 0;
	udma_rtp_rx_purge(rx, rtp_drop);
	KUNIT_EXPECT_EQ(test, rtp_dropped, 3);
	KUNIT_EXPECT_EQ(test, rx->nr_held, 0);
	KUNIT_EXPECT_NULL(test, rx->ooo[2 % UDMA_RTP_WND]);
}

/*
 * A WRITE's packets at a room of 1384 bytes (MTU 1500, IPv4: 1500 - 20 -
 * 8 - 80 of headers - 4 of OFSTETAH - 4 of ICRC): 0, 1, 1383 and 1384
 * bytes in one packet (ONLY, no OFSTETAH); 1385 in two, 1024 + 361, the
 * second at offset 1024 with an OFSTETAH. A WRITE_IMM's IMMETAH, MTETAH
 * and UDETAH on the last packet only. Each packet passes the codec's
 * rules (uboe_check()).
 */
static void rtp_segments(struct kunit *test)
{
	static const u64 lens[] = { 0, 1, 1383, 1384 };
	const u32 room = 1500 - 20 - 8 - 80 - 4 - 4;
	struct uboe_pkt t = {
		.tp_opcode = UBOE_TP_RTP_DATA, .seg = UBOE_SEG_ONLY,
		.dtpn = 1, .stpn = 2, .has_eid = true,
		.ta_opcode = UBOE_TA_WRITE,
		.hdrs = UBOE_EXT_MAETAH | UBOE_X_TVETAH,
	}, p;
	u32 i, size, n;

	for (i = 0; i < ARRAY_SIZE(lens); i++) {
		size = udma_uboe_seg_size(lens[i], room);
		n = udma_uboe_seg_count(lens[i], size);
		KUNIT_EXPECT_EQ(test, size, lens[i]);
		KUNIT_EXPECT_EQ(test, n, 1);
		t.mae.len = lens[i];
		t.hdrs = UBOE_EXT_MAETAH | (lens[i] ? UBOE_X_TVETAH : 0);
		udma_uboe_seg_pkt(&t, 0, n, size, lens[i], &p);
		KUNIT_EXPECT_EQ(test, p.seg, UBOE_SEG_ONLY);
		KUNIT_EXPECT_EQ(test, p.payload_len, lens[i]);
		KUNIT_EXPECT_FALSE(test, p.hdrs & UBOE_EXT_OFSTETAH);
		KUNIT_EXPECT_EQ(test, uboe_check(&p), UBOE_DROP_NONE);
	}

	t.hdrs = UBOE_EXT_MAETAH | UBOE_X_TVETAH;
	t.mae.len = room + 1;
	size = udma_uboe_seg_size(room + 1, room);
	n = udma_uboe_seg_count(room + 1, size);
	KUNIT_EXPECT_EQ(test, size, 1024);
	KUNIT_EXPECT_EQ(test, n, 2);
	udma_uboe_seg_pkt(&t, 0, n, size, room + 1, &p);
	KUNIT_EXPECT_EQ(test, p.seg, UBOE_SEG_FIRST);
	KUNIT_EXPECT_EQ(test, p.payload_len, 1024);
	/* the FIRST too, at 0: the packets but the last are one size */
	KUNIT_EXPECT_TRUE(test, p.hdrs & UBOE_EXT_OFSTETAH);
	KUNIT_EXPECT_EQ(test, p.offset, 0);
	KUNIT_EXPECT_EQ(test, uboe_hdr_len(&p), uboe_hdr_len(&t) +
			sizeof(struct uboe_ofstetah));
	KUNIT_EXPECT_EQ(test, uboe_check(&p), UBOE_DROP_NONE);
	udma_uboe_seg_pkt(&t, 1, n, size, room + 1, &p);
	KUNIT_EXPECT_EQ(test, p.seg, UBOE_SEG_LAST);
	KUNIT_EXPECT_EQ(test, p.payload_len, 361);
	KUNIT_EXPECT_TRUE(test, p.hdrs & UBOE_EXT_OFSTETAH);
	KUNIT_EXPECT_EQ(test, p.offset, 1024);
	KUNIT_EXPECT_EQ(test, uboe_check(&p), UBOE_DROP_NONE);

	/* 1 MiB at 8192 a packet (MTU 9000): 128, the middle ones 8 KiB */
	size = udma_uboe_seg_size(SZ_1M, 9000 - 20 - 8 - 80 - 4 - 4);
	KUNIT_EXPECT_EQ(test, size, 8192);
	n = udma_uboe_seg_count(SZ_1M, size);
	KUNIT_EXPECT_EQ(test, n, 128);
	t.mae.len = SZ_1M;
	udma_uboe_seg_pkt(&t, 64, n, size, SZ_1M, &p);
	KUNIT_EXPECT_EQ(test, p.seg, UBOE_SEG_MIDDLE);
	KUNIT_EXPECT_EQ(test, p.offset, 64 * 8192);
	KUNIT_EXPECT_EQ(test, p.payload_len, 8192);
	KUNIT_EXPECT_EQ(test, uboe_check(&p), UBOE_DROP_NONE);

	/* WRITE_IMM: the message target and the immediate on the last */
	t.ta_opcode = UBOE_TA_WRITE_IMM;
	t.hdrs = UBOE_EXT_MAETAH | UBOE_X_TVETAH | UBOE_EXT_IMMETAH |
		 UBOE_EXT_MTETAH | UBOE_X_UDETAH;
	t.mae.len = 3000;
	t.imm.msg_len = 3000;
	size = udma_uboe_seg_size(3000, room);
	n = udma_uboe_seg_count(3000, size);
	KUNIT_EXPECT_EQ(test, n, 3);
	udma_uboe_seg_pkt(&t, 1, n, size, 3000, &p);
	KUNIT_EXPECT_EQ(test, p.hdrs, UBOE_EXT_MAETAH | UBOE_X_TVETAH |
				     UBOE_EXT_OFSTETAH);
	KUNIT_EXPECT_EQ(test, uboe_check(&p), UBOE_DROP_NONE);
	udma_uboe_seg_pkt(&t, 2, n, size, 3000, &p);
	KUNIT_EXPECT_EQ(test, p.hdrs, t.hdrs | UBOE_EXT_OFSTETAH);
	KUNIT_EXPECT_EQ(test, p.offset, 2048);
	KUNIT_EXPECT_EQ(test, p.payload_len, 3000 - 2048);
	KUNIT_EXPECT_EQ(test, uboe_check(&p), UBOE_DROP_NONE);

	/* an MTU that leaves less than 1 KiB cannot carry more than that */
	KUNIT_EXPECT_EQ(test, udma_uboe_seg_size(1000, 1000), 1000);
	KUNIT_EXPECT_EQ(test, udma_uboe_seg_size(1001, 1000), 0);
}

/* Slices of ranges: offsets across range boundaries. */
static void rtp_slices(struct kunit *test)
{
	struct udma_mem_range r[3] = {
		{ .va = 0x1000, .len = 100 },
		{ .va = 0x5000, .len = 50 },
		{ .va = 0x9000, .len = 200 },
	}, out[3];

	KUNIT_ASSERT_EQ(test, udma_ranges_slice(r, 3, 90, 70, out), 3);
	KUNIT_EXPECT_EQ(test, out[0].va, 0x1000 + 90);
	KUNIT_EXPECT_EQ(test, out[0].len, 10);
	KUNIT_EXPECT_EQ(test, out[1].va, 0x5000);
	KUNIT_EXPECT_EQ(test, out[1].len, 50);
	KUNIT_EXPECT_EQ(test, out[2].va, 0x9000);
	KUNIT_EXPECT_EQ(test, out[2].len, 10);
	KUNIT_ASSERT_EQ(test, udma_ranges_slice(r, 3, 150, 200, out), 1);
	KUNIT_EXPECT_EQ(test, out[0].va, 0x9000);
	KUNIT_EXPECT_EQ(test, out[0].len, 200);
	KUNIT_EXPECT_EQ(test, udma_ranges_slice(r, 3, 0, 0, out), 0);
}

static struct kunit_case rtp_cases[] = {
	KUNIT_CASE(rtp_psn_wrap),
	KUNIT_CASE(rtp_tx_queue),
	KUNIT_CASE(rtp_rtt_estimate),
	KUNIT_CASE(rtp_rto_estimate),
	KUNIT_CASE(rtp_tx_ack_sample),
	KUNIT_CASE(rtp_tx_cwnd),
	KUNIT_CASE(rtp_tx_pace),
	KUNIT_CASE(rtp_tx_recovery),
	KUNIT_CASE(rtp_tx_nak_loss),
	KUNIT_CASE(rtp_tx_held),
	KUNIT_CASE(rtp_tx_ack_wanted),
	KUNIT_CASE(rtp_rx_coalesce),
	KUNIT_CASE(rtp_rx_nak_due),
	KUNIT_CASE(rtp_rx_reorder),
	KUNIT_CASE(rtp_segments),
	KUNIT_CASE(rtp_slices),
	{}
};

static struct kunit_suite rtp_suite = {
	.name = "udma_uboe_rtp",
	.test_cases = rtp_cases,
};

kunit_test_suite(rtp_suite);
