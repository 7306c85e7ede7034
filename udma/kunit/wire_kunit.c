// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * The suite udma_wire of udma_kapi_kunit.ko: the kernel data path's
 * operations of the local suite (kapi_kunit.c), on the same fixture, with
 * force_wire on, so that every request and every response crosses lo as a
 * UBoE packet (the UBoE carrier, uboe_carrier.c) over an RM TP of udma0 to
 * itself, which the suite opens through ubcore's connection manager.
 * Each case also checks the device's wire counters (sysfs wire/): one
 * data packet sent and one received per request and per response (two
 * each for the 64 KiB ones, segmented), besides the TP's ACKs, and the
 * counted reasons of what the carrier refuses and of the packets its
 * receive side drops.
 *
 * Expected statuses are urma_cr_status_t's numbers (urma_opcode.h).
 */
#include <kunit/test.h>
#include <linux/delay.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/string.h>

#include <ub/ubcore_device.h>
#include <ub/ubcore_dp.h>

#include "../../ubcore/tp.h"
#include "../udma.h"
#include "kapi.h"

#define SPEC_CR_LOC_OPERATION_ERR	3
/* Larger than any UBoE packet's payload (UBOE_MAX_PKT 65507 B). */
#define WIRE_BIG_LEN		(64 * 1024)
#define WIRE_BIG_BUF		(3 * WIRE_BIG_LEN)
/* Documentation range (RFC 3849): no device and no TP has it. */
#define WIRE_NOWHERE_EID	"2001:db8::7"

/* The suite's state besides the fixture; cases run one at a time. */
static struct {
	bool old_force_wire;
	struct ubcore_tp *tp;
	u64 tx, rx;
} wire;

static struct udma_dev *wire_udev(struct kapi *k)
{
	return to_udma_dev(k->dev);
}

/* Data packets: all but the transport's ACKs, NAKs and retransmits. */
static u64 wire_data_tx(struct udma_dev *udev)
{
	return udma_wire_read(udev, UDMA_WIRE_TX_PACKETS) -
	       udma_wire_read(udev, UDMA_WIRE_RTP_ACK_TX) -
	       udma_wire_read(udev, UDMA_WIRE_RTP_NAK_TX) -
	       udma_wire_read(udev, UDMA_WIRE_RTP_RETRANSMITS);
}

static u64 wire_data_rx(struct udma_dev *udev)
{
	return udma_wire_read(udev, UDMA_WIRE_RX_PACKETS) -
	       udma_wire_read(udev, UDMA_WIRE_RTP_ACK_RX) -
	       udma_wire_read(udev, UDMA_WIRE_RTP_NAK_RX) -
	       udma_wire_read(udev, UDMA_WIRE_RTP_RETRANSMITS);
}

static void wire_snap(struct kapi *k)
{
	wire.tx = wire_data_tx(wire_udev(k));
	wire.rx = wire_data_rx(wire_udev(k));
}

/*
 * @n data packets went out and came in since wire_snap(), once the
 * delayed ACKs (UDMA_RTP_ACK_DELAY_US) are out.
 */
static void wire_expect_packets(struct kunit *test, u64 n)
{
	struct kapi *k = test->priv;

	msleep(2 * UDMA_RTP_ACK_DELAY_US / USEC_PER_MSEC + 10);
	KUNIT_EXPECT_EQ(test, wire_data_tx(wire_udev(k)) - wire.tx, n);
	KUNIT_EXPECT_EQ(test, wire_data_rx(wire_udev(k)) - wire.rx, n);
}

static int wire_init(struct kunit *test)
{
	struct ubcore_tp_target target = {
		.type = UBOE_MGMT_TARGET_JETTY,
		.token_value = KAPI_JFR_TOKEN,
	};
	struct ubcore_tp_key key = { .mode = UBOE_MGMT_TM_RM };
	struct kapi *k;
	int ret;

	ret = kapi_init(test);
	if (ret)
		return ret;
	k = test->priv;
	key.local = k->eid;
	key.remote = k->eid;
	target.id = k->jetty_b->id;
	/* the RM TP of (udma0's EID, udma0's EID): the one requests take */
	wire.tp = NULL;
	KUNIT_ASSERT_EQ(test, ubcore_tp_open(k->dev, &key, &target, &wire.tp),
			0);
	wire.old_force_wire = udma_set_force_wire(true);
	wire_snap(k);
	return 0;
}

/* Nothing of the TP end @tpn of @udev waits for an ACK (at most 2 s). */
static void wire_quiesce(struct udma_dev *udev, u32 tpn)
{
	struct udma_rtp *rtp = xa_load(&udev->rtps, tpn);
	bool idle = !rtp;
	int i;

	for (i = 0; i < 100 && !idle; i++) {
		spin_lock_bh(&rtp->lock);
		idle = !rtp->tx.nr && !rtp->rx.unacked;
		spin_unlock_bh(&rtp->lock);
		if (!idle)
			msleep(2 * UDMA_RTP_ACK_DELAY_US / USEC_PER_MSEC + 10);
	}
}

static void wire_exit(struct kunit *test)
{
	struct kapi *k = test->priv;

	/* the case's last ACKs in, before its TP goes */
	if (wire.tp) {
		wire_quiesce(wire_udev(k), wire.tp->fsm.local_tpn);
		wire_quiesce(wire_udev(k), wire.tp->fsm.peer_tpn);
	}
	udma_set_force_wire(wire.old_force_wire);
	if (wire.tp)
		ubcore_tp_close(wire.tp);
	wire.tp = NULL;
	kapi_exit(test);
}

/*
 * A case of the local suite through the wire: each of its @ops requests
 * and each response is one packet sent and received.
 */
#define WIRE_CASE(op, ops)						\
static void wire_##op(struct kunit *test)				\
{									\
	kapi_##op(test);						\
	wire_expect_packets(test, 2 * (ops));				\
}

WIRE_CASE(write, 1)
WIRE_CASE(write_bad_token, 1)
WIRE_CASE(read, 1)
WIRE_CASE(send_recv, 1)
/* FADD, then CAS */
WIRE_CASE(atomic, 2)

/*
 * A WRITE and a READ of 64 KiB do not fit in one packet (UBOE_MAX_PKT
 * 65507 B): each goes in two, FIRST and LAST (lo's MTU leaves 65419 B of
 * room with an OFSTETAH: 63 KiB a packet, then 1 KiB), and arrives whole.
 * Data packets: WRITE 2 + TAACK 1, READ 1 + READ_RESP 2.
 */
static void wire_segmented(struct kunit *test)
{
	struct kapi *k = test->priv;
	struct ubcore_target_seg *seg, *rseg;
	struct ubcore_target_seg_cfg icfg = {
		.token_value = KAPI_SEG_TOKEN,
	};
	struct ubcore_sge l, r;
	struct ubcore_jfs_wr wr;
	u64 too_big;
	u8 *buf;

	buf = kunit_kzalloc(test, WIRE_BIG_BUF, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	seg = kapi_reg(test, k, buf, WIRE_BIG_BUF);
	icfg.seg = seg->seg;
	rseg = ubcore_import_seg(k->dev, &icfg, NULL);
	KUNIT_ASSERT_FALSE(test, IS_ERR(rseg));
	too_big = udma_wire_read(wire_udev(k), UDMA_WIRE_TX_TOO_BIG);
	wire_snap(k);

	/* buf[0, 64K) to buf[128K, 192K) */
	kapi_fill(buf, WIRE_BIG_LEN, 5);
	kapi_write_wr(k, &wr, &l, &r, rseg, 0x3001);
	l = (struct ubcore_sge){ .addr = (uintptr_t)buf, .len = WIRE_BIG_LEN,
				 .tseg = seg };
	r = (struct ubcore_sge){ .addr = (uintptr_t)buf + 2 * WIRE_BIG_LEN,
				 .len = WIRE_BIG_LEN, .tseg = rseg };
	kapi_post_send(test, k->jetty_a, &wr);
	kapi_expect_send_cr(test, k, 0, 0x3001, WIRE_BIG_LEN);
	KUNIT_EXPECT_EQ(test, memcmp(buf + 2 * WIRE_BIG_LEN, buf,
				     WIRE_BIG_LEN), 0);

	/* buf[128K, 192K) back to buf[64K, 128K) */
	l.addr = (uintptr_t)buf + WIRE_BIG_LEN;
	wr.opcode = UBCORE_OPC_READ;
	wr.user_ctx = 0x3002;
	wr.rw.src = (struct ubcore_sg){ .sge = &r, .num_sge = 1 };
	wr.rw.dst = (struct ubcore_sg){ .sge = &l, .num_sge = 1 };
	kapi_post_send(test, k->jetty_a, &wr);
	kapi_expect_send_cr(test, k, 0, 0x3002, WIRE_BIG_LEN);
	KUNIT_EXPECT_EQ(test, memcmp(buf + WIRE_BIG_LEN, buf, WIRE_BIG_LEN),
			0);

	KUNIT_EXPECT_EQ(test, udma_wire_read(wire_udev(k),
					     UDMA_WIRE_TX_TOO_BIG), too_big);
	wire_expect_packets(test, 6);
	KUNIT_EXPECT_EQ(test, ubcore_unimport_seg(rseg), 0);
	KUNIT_EXPECT_EQ(test, ubcore_unregister_seg(seg), 0);
}

/*
 * A WRITE to a segment of an EID no TP leads to: LOC_OPERATION_ERR,
 * counted (tx_no_tp), nothing sent.
 */
static void wire_no_tp(struct kunit *test)
{
	struct kapi *k = test->priv;
	struct ubcore_target_seg_cfg icfg = {
		.seg = k->dst_seg->seg,
		.token_value = KAPI_SEG_TOKEN,
	};
	struct ubcore_target_seg *rseg;
	struct ubcore_sge l, r;
	struct ubcore_jfs_wr wr;
	u64 no_tp;

	KUNIT_ASSERT_EQ(test, ubcore_eid_parse(WIRE_NOWHERE_EID,
					       strlen(WIRE_NOWHERE_EID),
					       &icfg.seg.ubva.eid), 0);
	rseg = ubcore_import_seg(k->dev, &icfg, NULL);
	KUNIT_ASSERT_FALSE(test, IS_ERR(rseg));
	no_tp = udma_wire_read(wire_udev(k), UDMA_WIRE_TX_NO_TP);
	wire_snap(k);

	kapi_write_wr(k, &wr, &l, &r, rseg, 0x3003);
	kapi_post_send(test, k->jetty_a, &wr);
	kapi_expect_send_cr(test, k, SPEC_CR_LOC_OPERATION_ERR, 0x3003, 0);
	KUNIT_EXPECT_EQ(test, udma_wire_read(wire_udev(k),
					     UDMA_WIRE_TX_NO_TP) - no_tp, 1);
	wire_expect_packets(test, 0);
	KUNIT_EXPECT_TRUE(test, kapi_zero(k->dst, KAPI_BUF_LEN));
	KUNIT_EXPECT_EQ(test, ubcore_unimport_seg(rseg), 0);
}

/* Wait (at most 5 s) until counter @idx of @udev reaches @want. */
static u64 wire_wait(struct udma_dev *udev, unsigned int idx, u64 want)
{
	u64 v = udma_wire_read(udev, idx);
	int i;

	for (i = 0; i < 250 && v < want; i++) {
		msleep(2 * UDMA_RTP_ACK_DELAY_US / USEC_PER_MSEC + 10);
		v = udma_wire_read(udev, idx);
	}
	return v;
}

/*
 * Packets the receive work drops, sent to udma0 as another host would:
 * a response for no jetty of the device over the suite's TP (rsp_no_sq),
 * a response and a WRITE over a TPN that is no TP here, and over the TP
 * from another peer TPN (unknown_tpn). Nothing is written, no CQE.
 */
static void wire_rx_drops(struct kunit *test)
{
	struct kapi *k = test->priv;
	struct udma_dev *udev = wire_udev(k);
	static const u8 data[8] = "not here";
	u64 no_sq, unknown;
	struct uboe_pkt p = {
		.tp_opcode = UBOE_TP_RTP_DATA,
		.seg = UBOE_SEG_ONLY,
		.has_eid = true,
		.src_eid = k->eid,
		.dst_eid = k->eid,
		.dtpn = wire.tp->fsm.local_tpn,
		.stpn = wire.tp->fsm.peer_tpn,
		.ta_opcode = UBOE_TA_TAACK,
		.rc_id = UBOE_ID_MASK,
	};

	no_sq = udma_wire_read(udev, UDMA_WIRE_RSP_NO_SQ);
	unknown = udma_wire_read(udev, UBOE_DROP_UNKNOWN_TPN);
	KUNIT_ASSERT_EQ(test, udma_uboe_xmit(udev, &k->eid, &p), 0);
	KUNIT_EXPECT_EQ(test, wire_wait(udev, UDMA_WIRE_RSP_NO_SQ, no_sq + 1),
			no_sq + 1);

	/* jetty A's, over no TP of ours, then from another peer TPN */
	p.rc_id = k->jetty_a->id;
	p.dtpn = UBOE_TPN_MASK;
	KUNIT_ASSERT_EQ(test, udma_uboe_xmit(udev, &k->eid, &p), 0);
	p.dtpn = wire.tp->fsm.local_tpn;
	p.stpn = wire.tp->fsm.peer_tpn ^ 0x800000;
	KUNIT_ASSERT_EQ(test, udma_uboe_xmit(udev, &k->eid, &p), 0);
	/* a WRITE into B's segment over no TP */
	p.dtpn = UBOE_TPN_MASK;
	p.stpn = wire.tp->fsm.peer_tpn;
	p.ta_opcode = UBOE_TA_WRITE;
	p.hdrs = UBOE_EXT_MAETAH | UBOE_X_TVETAH;
	p.mae.va = k->dst_seg->seg.ubva.va;
	p.mae.token_id = k->dst_seg->seg.token_id;
	p.mae.len = sizeof(data);
	p.token_value = KAPI_SEG_TOKEN;
	p.payload = data;
	p.payload_len = sizeof(data);
	KUNIT_ASSERT_EQ(test, udma_uboe_xmit(udev, &k->eid, &p), 0);
	KUNIT_EXPECT_EQ(test, wire_wait(udev, UBOE_DROP_UNKNOWN_TPN,
					unknown + 3), unknown + 3);
	KUNIT_EXPECT_EQ(test, udma_wire_read(udev, UDMA_WIRE_RSP_NO_SQ),
			no_sq + 1);
	KUNIT_EXPECT_TRUE(test, kapi_zero(k->dst, KAPI_BUF_LEN));
	kapi_expect_empty(test, k->jfc_a);
	kapi_expect_empty(test, k->jfc_b);
}

/* Set the peer's credit of @rtp; returns the old one. */
static u16 wire_set_wnd(struct udma_rtp *rtp, u16 wnd)
{
	u16 old;

	spin_lock_bh(&rtp->lock);
	old = rtp->tx.wnd;
	rtp->tx.wnd = wnd;
	spin_unlock_bh(&rtp->lock);
	return old;
}

/*
 * The reservation of the receive softirq's responder (udma_rtp_reserve()):
 * one sender holds the TP at a time, none without room; and the holder's
 * packet goes even when the window closed after the reservation, with
 * bottom halves off, without sleeping (the debug kernel's atomic-sleep
 * check would complain): past the window, over the suite's TP, where it
 * arrives as a response for no queue. Each way the TP is free after.
 */
static void wire_reserve(struct kunit *test)
{
	struct kapi *k = test->priv;
	struct udma_dev *udev = wire_udev(k);
	u32 tpn = wire.tp->fsm.local_tpn, peer = wire.tp->fsm.peer_tpn;
	struct udma_rtp_pkt *p;
	struct udma_rtp *rtp;
	int owner_a, owner_b;
	bool room;
	u64 no_sq;
	u16 wnd;
	int ret;

	rtp = udma_rtp_get(udev, tpn, peer, &k->eid, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, rtp);
	spin_lock_bh(&rtp->lock);
	udma_rtp_use_locked(rtp, peer, &k->eid, &k->eid);
	spin_unlock_bh(&rtp->lock);

	KUNIT_ASSERT_TRUE(test, udma_rtp_reserve(rtp, &owner_a));
	KUNIT_EXPECT_FALSE(test, udma_rtp_reserve(rtp, &owner_b));
	udma_rtp_unreserve(rtp, &owner_a);
	KUNIT_EXPECT_PTR_EQ(test, rtp->tx_owner, NULL);
	KUNIT_EXPECT_PTR_EQ(test, rtp->tx_nowait, NULL);
	KUNIT_EXPECT_TRUE(test, udma_rtp_reserve(rtp, &owner_b));
	udma_rtp_unreserve(rtp, &owner_b);

	wnd = wire_set_wnd(rtp, 0);
	KUNIT_EXPECT_FALSE(test, udma_rtp_reserve(rtp, &owner_a));
	/*
	 * a failed TP: reserved, the send fails at once (or, revived by a
	 * reset meanwhile, goes past the window)
	 */
	spin_lock_bh(&rtp->lock);
	rtp->failed = true;
	spin_unlock_bh(&rtp->lock);
	KUNIT_EXPECT_TRUE(test, udma_rtp_reserve(rtp, &owner_a));
	KUNIT_EXPECT_PTR_EQ(test, rtp->tx_nowait, (const void *)&owner_a);
	KUNIT_EXPECT_PTR_EQ(test, rtp->tx_owner, NULL);
	udma_rtp_unreserve(rtp, &owner_a);
	KUNIT_EXPECT_PTR_EQ(test, rtp->tx_nowait, NULL);
	spin_lock_bh(&rtp->lock);
	rtp->failed = false;
	spin_unlock_bh(&rtp->lock);
	wire_set_wnd(rtp, wnd);

	p = udma_rtp_pkt_alloc(0, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, p);
	p->pkt = (struct uboe_pkt){
		.tp_opcode = UBOE_TP_RTP_DATA,
		.seg = UBOE_SEG_ONLY,
		.has_eid = true,
		.src_eid = k->eid,
		.dst_eid = k->eid,
		.stpn = tpn,
		.dtpn = peer,
		.ta_opcode = UBOE_TA_TAACK,
		.rc_id = UBOE_ID_MASK,
	};
	no_sq = udma_wire_read(udev, UDMA_WIRE_RSP_NO_SQ);
	KUNIT_ASSERT_TRUE(test, udma_rtp_reserve(rtp, &owner_a));
	wnd = wire_set_wnd(rtp, 0);
	spin_lock_bh(&rtp->lock);
	room = udma_rtp_tx_room(&rtp->tx);
	spin_unlock_bh(&rtp->lock);
	KUNIT_EXPECT_FALSE(test, room);
	local_bh_disable();
	ret = udma_rtp_send(rtp, p, &owner_a, NULL, NULL);
	local_bh_enable();
	KUNIT_EXPECT_EQ(test, ret, 0);
	if (ret)
		udma_rtp_pkt_free(p);
	spin_lock_bh(&rtp->lock);
	KUNIT_EXPECT_PTR_EQ(test, rtp->tx_owner, NULL);
	KUNIT_EXPECT_PTR_EQ(test, rtp->tx_nowait, NULL);
	/* (unless the packet's ACK brought the peer's credit already) */
	if (!rtp->tx.wnd)
		rtp->tx.wnd = wnd;
	spin_unlock_bh(&rtp->lock);
	KUNIT_EXPECT_EQ(test, wire_wait(udev, UDMA_WIRE_RSP_NO_SQ, no_sq + 1),
			no_sq + 1);
}

static struct kunit_case wire_cases[] = {
	KUNIT_CASE(wire_write),
	KUNIT_CASE(wire_write_bad_token),
	KUNIT_CASE(wire_read),
	KUNIT_CASE(wire_send_recv),
	KUNIT_CASE(wire_atomic),
	KUNIT_CASE(wire_segmented),
	KUNIT_CASE(wire_no_tp),
	KUNIT_CASE(wire_rx_drops),
	KUNIT_CASE(wire_reserve),
	{}
};

static struct kunit_suite wire_suite = {
	.name = "udma_wire",
	.init = wire_init,
	.exit = wire_exit,
	.test_cases = wire_cases,
};

kunit_test_suite(wire_suite);

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);
