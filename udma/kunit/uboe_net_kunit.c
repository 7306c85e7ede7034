// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * KUnit tests of uboe_net.c on a real udma device on the initial
 * namespace's loopback: udma_uboe_xmit() sends through the IPv4 and IPv6
 * routes of the destination EID (127.0.0.1, ::1, the device's own EIDs),
 * from process and softirq context, with and without an ICRC; the packets
 * come back through the UDP socket's receive hook to the same device,
 * which counts them as management messages. And what udma_uboe_xmit()
 * refuses: a packet a receiver would drop, one too large, a destination
 * with no route. Expected sizes are the wire layout's (uboe_wire.h): a
 * management message is TPH 16 + EIDH 32 + BTAH 12 + MGMTETAH 8 + body,
 * plus ICRC 4.
 */
#include <kunit/test.h>
#include <linux/bottom_half.h>
#include <linux/delay.h>
#include <linux/errno.h>
#include <linux/inet.h>
#include <linux/bvec.h>
#include <linux/netdevice.h>
#include <net/dst_cache.h>
#include <net/net_namespace.h>

#include "../udma.h"

#define UBOE_KUNIT_BODY		"conn-req"
#define UBOE_KUNIT_MGMT_LEN	(16 + 32 + 12 + 8 + sizeof(UBOE_KUNIT_BODY) - 1)

struct uboe_kunit {
	struct ubcore_device *dev;
	struct udma_dev *udev;
};

static void eid_v4(union ubcore_eid *eid, const char *addr)
{
	__be32 a = in_aton(addr);

	ubcore_eid_from_ipv4(eid, a);
}

static void eid_v6(union ubcore_eid *eid, const char *addr)
{
	memset(eid, 0, sizeof(*eid));
	in6_pton(addr, -1, eid->raw, -1, NULL);
}

/* A management message from @eid to @eid. */
static void mgmt_pkt(struct uboe_pkt *p, const union ubcore_eid *eid)
{
	memset(p, 0, sizeof(*p));
	p->tp_opcode = UBOE_TP_UTP_DATA;
	p->seg = UBOE_SEG_ONLY;
	p->has_eid = true;
	p->src_eid = *eid;
	p->dst_eid = *eid;
	p->ta_opcode = UBOE_TA_MANAGEMENT;
	p->hdrs = UBOE_EXT_MGMTETAH;
	p->mgmt.type = UBOE_MGMT_CONN_REQ;
	p->mgmt.msg_id = 7;
	p->payload = UBOE_KUNIT_BODY;
	p->payload_len = sizeof(UBOE_KUNIT_BODY) - 1;
}

static bool has_eid(struct udma_dev *udev, const union ubcore_eid *eid)
{
	const struct udma_wire_eids *eids;
	bool found = false;
	u32 i;

	rcu_read_lock();
	eids = rcu_dereference(udev->wire.eids);
	for (i = 0; eids && i < eids->cnt; i++)
		found |= !memcmp(&eids->eid[i], eid, sizeof(*eid));
	rcu_read_unlock();
	return found;
}

/* Wait (at most 10 s) until counter @idx of @udev reaches @want. */
static u64 wait_cnt(struct udma_dev *udev, unsigned int idx, u64 want)
{
	u64 v = 0;
	int i;

	for (i = 0; i < 500; i++) {
		v = udma_wire_read(udev, idx);
		if (v >= want)
			break;
		msleep(20);
	}
	return v;
}

static int uboe_kunit_init(struct kunit *test)
{
	struct net_device *lo = init_net.loopback_dev;
	union ubcore_eid v4, v6;
	struct uboe_kunit *k;
	int i, ret;

	k = kunit_kzalloc(test, sizeof(*k), GFP_KERNEL);
	if (!k)
		return -ENOMEM;
	ret = udma_dev_add(lo, "uboekunit");
	if (ret) {
		kunit_err(test, "no udma device on lo: %d\n", ret);
		return ret;
	}
	k->dev = ubcore_get_device_by_name("uboekunit");
	if (!k->dev)
		return -ENODEV;
	k->udev = to_udma_dev(k->dev);
	test->priv = k;
	eid_v4(&v4, "127.0.0.1");
	eid_v6(&v6, "::1");
	/* the receive path learns the EIDs from a work item */
	for (i = 0; i < 500; i++) {
		if (has_eid(k->udev, &v4) && has_eid(k->udev, &v6))
			return 0;
		msleep(20);
	}
	kunit_err(test, "the device on lo has not 127.0.0.1 and ::1 as EIDs\n");
	return 0;
}

static void uboe_kunit_exit(struct kunit *test)
{
	struct uboe_kunit *k = test->priv;

	if (!k || !k->dev)
		return;
	KUNIT_EXPECT_EQ(test, k->dev->ops->dellink(k->dev), 0);
	ubcore_put_device(k->dev);
}

/* Out through the IPv4 and the IPv6 route and back in, counted both ways. */
static void uboe_xmit_v4_v6_loop(struct kunit *test)
{
	struct uboe_kunit *k = test->priv;
	union ubcore_eid v4, v6;
	struct uboe_pkt p;

	eid_v4(&v4, "127.0.0.1");
	eid_v6(&v6, "::1");
	mgmt_pkt(&p, &v4);
	KUNIT_ASSERT_EQ(test, udma_uboe_xmit(k->udev, &v4, &p), 0);
	KUNIT_EXPECT_EQ(test, udma_wire_read(k->udev, UDMA_WIRE_TX_PACKETS), 1);
	KUNIT_EXPECT_EQ(test, udma_wire_read(k->udev, UDMA_WIRE_TX_BYTES),
			UBOE_KUNIT_MGMT_LEN);
	KUNIT_EXPECT_EQ(test, wait_cnt(k->udev, UDMA_WIRE_MGMT_RX, 1), 1);

	mgmt_pkt(&p, &v6);
	KUNIT_ASSERT_EQ(test, udma_uboe_xmit(k->udev, &v6, &p), 0);
	KUNIT_EXPECT_EQ(test, wait_cnt(k->udev, UDMA_WIRE_MGMT_RX, 2), 2);

	/* from softirq context: the engine's timers and receive path */
	mgmt_pkt(&p, &v4);
	local_bh_disable();
	KUNIT_EXPECT_EQ(test, udma_uboe_xmit(k->udev, &v4, &p), 0);
	local_bh_enable();
	KUNIT_EXPECT_EQ(test, wait_cnt(k->udev, UDMA_WIRE_MGMT_RX, 3), 3);

	/* with an ICRC, which the receiver checks */
	mgmt_pkt(&p, &v6);
	p.icrc = true;
	KUNIT_EXPECT_EQ(test, udma_uboe_xmit(k->udev, &v6, &p), 0);
	KUNIT_EXPECT_EQ(test, wait_cnt(k->udev, UDMA_WIRE_MGMT_RX, 4), 4);

	KUNIT_EXPECT_EQ(test, udma_wire_read(k->udev, UDMA_WIRE_TX_PACKETS), 4);
	KUNIT_EXPECT_EQ(test, udma_wire_read(k->udev, UDMA_WIRE_TX_BYTES),
			4 * UBOE_KUNIT_MGMT_LEN + UBOE_ICRC_SIZE);
	KUNIT_EXPECT_EQ(test, wait_cnt(k->udev, UDMA_WIRE_RX_PACKETS, 4), 4);
	KUNIT_EXPECT_EQ(test, udma_wire_read(k->udev, UDMA_WIRE_RX_BYTES),
			4 * UBOE_KUNIT_MGMT_LEN + UBOE_ICRC_SIZE);
	KUNIT_EXPECT_EQ(test, udma_wire_read(k->udev, UDMA_WIRE_TX_ERRORS), 0);
	KUNIT_EXPECT_EQ(test, udma_wire_read(k->udev, UBOE_DROP_EID_NOT_HERE), 0);
}

/* What is not sent is counted in tx_errors, and nothing goes out. */
static void uboe_xmit_refused(struct kunit *test)
{
	struct uboe_kunit *k = test->priv;
	union ubcore_eid v4, far4, far6;
	struct uboe_pkt p;

	eid_v4(&v4, "127.0.0.1");
	/* TEST-NET-1 and the documentation prefix: the guest has no route */
	eid_v4(&far4, "192.0.2.1");
	eid_v6(&far6, "2001:db8::1");

	mgmt_pkt(&p, &v4);
	p.mgmt.type = 0;	/* no such message: a receiver drops it */
	KUNIT_EXPECT_EQ(test, udma_uboe_xmit(k->udev, &v4, &p), -EINVAL);
	mgmt_pkt(&p, &v4);
	p.payload_len = UBOE_MAX_PKT;
	KUNIT_EXPECT_EQ(test, udma_uboe_xmit(k->udev, &v4, &p), -EMSGSIZE);
	mgmt_pkt(&p, &far4);
	KUNIT_EXPECT_EQ(test, udma_uboe_xmit(k->udev, &far4, &p), -ENETUNREACH);
	mgmt_pkt(&p, &far6);
	KUNIT_EXPECT_EQ(test, udma_uboe_xmit(k->udev, &far6, &p), -ENETUNREACH);

	KUNIT_EXPECT_EQ(test, udma_wire_read(k->udev, UDMA_WIRE_TX_ERRORS), 4);
	KUNIT_EXPECT_EQ(test, udma_wire_read(k->udev, UDMA_WIRE_TX_PACKETS), 0);
	KUNIT_EXPECT_EQ(test, udma_wire_read(k->udev, UDMA_WIRE_TX_BYTES), 0);
}

/* A destination EID no device has: eid_not_here on the receiving device. */
static void uboe_rx_eid_not_here(struct kunit *test)
{
	struct uboe_kunit *k = test->priv;
	union ubcore_eid v4, other;
	struct uboe_pkt p;

	eid_v4(&v4, "127.0.0.1");
	eid_v4(&other, "127.0.0.2");	/* routed to lo, but no EID */
	mgmt_pkt(&p, &v4);
	p.dst_eid = other;
	KUNIT_ASSERT_EQ(test, udma_uboe_xmit(k->udev, &v4, &p), 0);
	KUNIT_EXPECT_EQ(test, wait_cnt(k->udev, UBOE_DROP_EID_NOT_HERE, 1), 1);
	KUNIT_EXPECT_EQ(test, udma_wire_read(k->udev, UDMA_WIRE_RX_PACKETS), 0);
	KUNIT_EXPECT_EQ(test, udma_wire_read(k->udev, UDMA_WIRE_MGMT_RX), 0);
}

/*
 * Trains: packets of one TP to one EID leave as one UDP GSO skb and
 * arrive whole (lo passes UDP GSO skbs on), each packet decoded on its
 * own where it is; a shorter packet ends a train, a longer one or another
 * destination starts the next; IPv4 and IPv6.
 */
static void uboe_train_segments(struct kunit *test)
{
	struct uboe_kunit *k = test->priv;
	struct udma_uboe_batch b;
	union ubcore_eid v4, v6;
	struct uboe_pkt p;
	u64 bytes = 0;
	int i;

	eid_v4(&v4, "127.0.0.1");
	eid_v6(&v6, "::1");
	udma_uboe_batch_init(&b, k->udev, 8);
	for (i = 0; i < 5; i++) {
		mgmt_pkt(&p, &v4);
		p.mgmt.msg_id = i;
		KUNIT_ASSERT_EQ(test, udma_uboe_batch_add(&b, &v4, &p), 0);
		bytes += UBOE_KUNIT_MGMT_LEN;
	}
	KUNIT_EXPECT_EQ(test, b.n, 5);
	/* a shorter one joins and ends the train */
	mgmt_pkt(&p, &v4);
	p.payload_len--;
	KUNIT_ASSERT_EQ(test, udma_uboe_batch_add(&b, &v4, &p), 0);
	bytes += UBOE_KUNIT_MGMT_LEN - 1;
	KUNIT_EXPECT_EQ(test, b.n, 6);
	KUNIT_EXPECT_TRUE(test, b.closed);
	/* nothing left yet: the train is one skb */
	KUNIT_EXPECT_EQ(test, udma_wire_read(k->udev, UDMA_WIRE_TX_PACKETS), 0);
	mgmt_pkt(&p, &v4);
	KUNIT_ASSERT_EQ(test, udma_uboe_batch_add(&b, &v4, &p), 0);
	bytes += UBOE_KUNIT_MGMT_LEN;
	KUNIT_EXPECT_EQ(test, b.n, 1);
	KUNIT_EXPECT_EQ(test, udma_wire_read(k->udev, UDMA_WIRE_TX_PACKETS), 6);
	/* a longer one starts another */
	mgmt_pkt(&p, &v4);
	p.icrc = true;
	KUNIT_ASSERT_EQ(test, udma_uboe_batch_add(&b, &v4, &p), 0);
	bytes += UBOE_KUNIT_MGMT_LEN + UBOE_ICRC_SIZE;
	KUNIT_EXPECT_EQ(test, b.n, 1);
	/* another destination too: the IPv6 one, a train of 4 */
	for (i = 0; i < 4; i++) {
		mgmt_pkt(&p, &v6);
		KUNIT_ASSERT_EQ(test, udma_uboe_batch_add(&b, &v6, &p), 0);
		bytes += UBOE_KUNIT_MGMT_LEN;
	}
	KUNIT_EXPECT_EQ(test, b.n, 4);
	udma_uboe_batch_flush(&b);
	KUNIT_EXPECT_EQ(test, b.n, 0);
	KUNIT_EXPECT_PTR_EQ(test, b.skb, NULL);
	/* flushing an empty train sends nothing */
	udma_uboe_batch_flush(&b);

	KUNIT_EXPECT_EQ(test, udma_wire_read(k->udev, UDMA_WIRE_TX_PACKETS), 12);
	KUNIT_EXPECT_EQ(test, udma_wire_read(k->udev, UDMA_WIRE_TX_BYTES), bytes);
	KUNIT_EXPECT_EQ(test, wait_cnt(k->udev, UDMA_WIRE_MGMT_RX, 12), 12);
	KUNIT_EXPECT_EQ(test, wait_cnt(k->udev, UDMA_WIRE_RX_PACKETS, 12), 12);
	KUNIT_EXPECT_EQ(test, udma_wire_read(k->udev, UDMA_WIRE_RX_BYTES), bytes);
	KUNIT_EXPECT_EQ(test, udma_wire_read(k->udev, UDMA_WIRE_TX_ERRORS), 0);
	/* the train of 6 and the one of 4; the single packets are none */
	KUNIT_EXPECT_EQ(test, udma_wire_read(k->udev, UDMA_WIRE_RX_TRAINS), 2);
}

/* A management message like mgmt_pkt()'s, its body in a page fragment. */
static struct udma_rtp_pkt *frag_pkt(struct kunit *test,
				     const union ubcore_eid *eid, u32 id)
{
	u32 len = sizeof(UBOE_KUNIT_BODY) - 1;
	struct udma_rtp_pkt *p = udma_rtp_pkt_alloc(len, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, p);
	KUNIT_ASSERT_TRUE(test, p->frag);
	mgmt_pkt(&p->pkt, eid);
	p->pkt.mgmt.msg_id = id;
	memcpy(p->buf, UBOE_KUNIT_BODY, len);
	p->pkt.payload = p->buf;
	return p;
}

/*
 * Packets whose payloads are page fragments join a train in place, each
 * one fragment of its skb, and arrive whole on lo, decoded where they are
 * (not linearised). The packets may be freed before the train leaves: it
 * holds their pages. A copied packet does not join such a train.
 */
static void uboe_train_frags(struct kunit *test)
{
	struct uboe_kunit *k = test->priv;
	struct udma_uboe_batch b;
	struct udma_rtp_pkt *rp;
	union ubcore_eid v4;
	struct uboe_pkt p;
	u64 bytes = 0;
	int i;

	eid_v4(&v4, "127.0.0.1");
	udma_uboe_batch_init(&b, k->udev, 8);
	for (i = 0; i < 4; i++) {
		rp = frag_pkt(test, &v4, i);
		KUNIT_EXPECT_EQ(test,
				udma_uboe_batch_add_frag(&b, &v4, &rp->pkt,
							 UDMA_RTP_PKT_HEADROOM),
				0);
		udma_rtp_pkt_free(rp);
		bytes += UBOE_KUNIT_MGMT_LEN;
	}
	KUNIT_ASSERT_NOT_NULL(test, b.skb);
	KUNIT_EXPECT_TRUE(test, b.frags);
	KUNIT_EXPECT_EQ(test, b.n, 4);
	KUNIT_EXPECT_EQ(test, skb_shinfo(b.skb)->nr_frags, 4);
	KUNIT_EXPECT_EQ(test, b.skb->len, bytes);
	/* a copy ends it, and is a train of its own */
	mgmt_pkt(&p, &v4);
	KUNIT_ASSERT_EQ(test, udma_uboe_batch_add(&b, &v4, &p), 0);
	bytes += UBOE_KUNIT_MGMT_LEN;
	KUNIT_EXPECT_FALSE(test, b.frags);
	KUNIT_EXPECT_EQ(test, udma_wire_read(k->udev, UDMA_WIRE_TX_PACKETS), 4);
	/* with an ICRC, after the payload in the fragment */
	rp = frag_pkt(test, &v4, 9);
	rp->pkt.icrc = true;
	KUNIT_EXPECT_EQ(test, udma_uboe_batch_add_frag(&b, &v4, &rp->pkt,
						       UDMA_RTP_PKT_HEADROOM),
			0);
	bytes += UBOE_KUNIT_MGMT_LEN + UBOE_ICRC_SIZE;
	KUNIT_EXPECT_TRUE(test, b.frags);
	/* headers that do not fit before the payload: copied */
	KUNIT_EXPECT_EQ(test, udma_uboe_batch_add_frag(&b, &v4, &rp->pkt, 8),
			0);
	bytes += UBOE_KUNIT_MGMT_LEN + UBOE_ICRC_SIZE;
	KUNIT_EXPECT_FALSE(test, b.frags);
	udma_uboe_batch_flush(&b);
	udma_rtp_pkt_free(rp);

	KUNIT_EXPECT_EQ(test, udma_wire_read(k->udev, UDMA_WIRE_TX_PACKETS), 7);
	KUNIT_EXPECT_EQ(test, udma_wire_read(k->udev, UDMA_WIRE_TX_BYTES), bytes);
	KUNIT_EXPECT_EQ(test, wait_cnt(k->udev, UDMA_WIRE_MGMT_RX, 7), 7);
	KUNIT_EXPECT_EQ(test, udma_wire_read(k->udev, UDMA_WIRE_RX_BYTES), bytes);
	KUNIT_EXPECT_EQ(test, udma_wire_read(k->udev, UDMA_WIRE_RX_TRAINS), 1);
	KUNIT_EXPECT_EQ(test, udma_wire_read(k->udev, UDMA_WIRE_RX_LINEARIZED),
			0);
	KUNIT_EXPECT_EQ(test, udma_wire_read(k->udev, UDMA_WIRE_TX_ERRORS), 0);
}

/* A WRITE of @len bytes over a TP this device does not have, to @eid. */
static void write_pkt(struct uboe_pkt *p, const union ubcore_eid *eid,
		      u32 psn, u32 len)
{
	*p = (struct uboe_pkt){
		.tp_opcode = UBOE_TP_RTP_DATA,
		.seg = UBOE_SEG_ONLY,
		.has_eid = true,
		.src_eid = *eid,
		.dst_eid = *eid,
		.dtpn = 0x777,
		.stpn = 0x778,
		.psn = psn,
		.ta_opcode = UBOE_TA_WRITE,
		.hdrs = UBOE_EXT_MAETAH | UBOE_X_TVETAH,
		.token_value = 0x1234,
		.mae = { .va = 0x10000, .token_id = 5, .len = len },
		.payload_len = len,
	};
}

/*
 * A WRITE's payload sent where it is (udma_uboe_batch_add_pages()): a
 * header fragment, then the pages, in a train marked as sharing them.
 * Each packet's bytes are what the encoder writes for the same packet in
 * one piece. The pages may go before the train does: it holds them. On
 * lo the packets arrive in pieces, are decoded from their headers
 * without being linearised (rx_scattered), and go to the data path,
 * which knows no such TP (unknown_tpn). With an ICRC, computed over the
 * pages, the packet is linearised to be checked, and passes.
 */
static void uboe_train_pages(struct kunit *test)
{
	struct uboe_kunit *k = test->priv;
	u32 len = 4096, hlen, i, plen;
	struct udma_uboe_batch b;
	struct page *pg[2];
	struct bio_vec bv[2];
	union ubcore_eid v4;
	struct uboe_pkt p;
	u8 *want, *got;

	eid_v4(&v4, "127.0.0.1");
	want = kunit_kzalloc(test, 2 * 8192, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, want);
	got = want + 8192;
	for (i = 0; i < 2; i++) {
		pg[i] = alloc_page(GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, pg[i]);
		memset(page_address(pg[i]), 'a' + i, PAGE_SIZE);
	}
	bvec_set_page(&bv[0], pg[0], 3096, 1000);
	bvec_set_page(&bv[1], pg[1], 1000, 0);
	udma_uboe_batch_init(&b, k->udev, 8);
	for (i = 0; i < 3; i++) {
		write_pkt(&p, &v4, i, len);
		KUNIT_ASSERT_EQ(test, udma_uboe_batch_add_pages(&b, &v4, &p,
								bv, 2), 0);
	}
	KUNIT_ASSERT_NOT_NULL(test, b.skb);
	KUNIT_EXPECT_TRUE(test, b.frags);
	KUNIT_EXPECT_EQ(test, b.n, 3);
	KUNIT_EXPECT_EQ(test, skb_shinfo(b.skb)->nr_frags, 9);
	KUNIT_EXPECT_TRUE(test, skb_has_shared_frag(b.skb));
	/* the first packet, against the encoder's */
	write_pkt(&p, &v4, 0, len);
	memset(got, 'a', 3096);
	memset(got + 3096, 'b', 1000);
	p.payload = got;
	hlen = uboe_hdr_len(&p);
	plen = uboe_pkt_len(&p, hlen);
	KUNIT_ASSERT_EQ(test, uboe_encode(&p, want, plen), (int)plen);
	KUNIT_EXPECT_EQ(test, b.skb->len, 3 * plen);
	KUNIT_ASSERT_EQ(test, skb_copy_bits(b.skb, 0, got, plen), 0);
	KUNIT_EXPECT_EQ(test, memcmp(got, want, plen), 0);
	put_page(pg[1]);
	udma_uboe_batch_flush(&b);
	KUNIT_EXPECT_EQ(test, udma_wire_read(k->udev, UDMA_WIRE_TX_PACKETS), 3);
	KUNIT_EXPECT_EQ(test, wait_cnt(k->udev, UBOE_DROP_UNKNOWN_TPN, 3), 3);
	KUNIT_EXPECT_EQ(test, udma_wire_read(k->udev, UDMA_WIRE_RX_SCATTERED),
			3);
	KUNIT_EXPECT_EQ(test, udma_wire_read(k->udev, UDMA_WIRE_RX_LINEARIZED),
			0);

	/* one with an ICRC: 4 fragments, linearised on receipt, valid */
	bvec_set_page(&bv[0], pg[0], 4096, 0);
	write_pkt(&p, &v4, 3, len);
	p.icrc = true;
	KUNIT_ASSERT_EQ(test, udma_uboe_batch_add_pages(&b, &v4, &p, bv, 1),
			0);
	KUNIT_EXPECT_EQ(test, skb_shinfo(b.skb)->nr_frags, 3);
	put_page(pg[0]);
	udma_uboe_batch_flush(&b);
	KUNIT_EXPECT_EQ(test, wait_cnt(k->udev, UBOE_DROP_UNKNOWN_TPN, 4), 4);
	KUNIT_EXPECT_EQ(test, udma_wire_read(k->udev, UDMA_WIRE_RX_LINEARIZED),
			1);
	KUNIT_EXPECT_EQ(test, udma_wire_read(k->udev, UBOE_DROP_BAD_ICRC), 0);
	KUNIT_EXPECT_EQ(test, udma_wire_read(k->udev, UDMA_WIRE_TX_ERRORS), 0);
}

/* A train's refusals are its packets': the ones before still leave. */
static void uboe_train_refused(struct kunit *test)
{
	struct uboe_kunit *k = test->priv;
	struct udma_uboe_batch b;
	union ubcore_eid v4, far4;
	struct uboe_pkt p;

	eid_v4(&v4, "127.0.0.1");
	eid_v4(&far4, "192.0.2.1");
	udma_uboe_batch_init(&b, k->udev, 4);
	mgmt_pkt(&p, &v4);
	KUNIT_ASSERT_EQ(test, udma_uboe_batch_add(&b, &v4, &p), 0);
	KUNIT_ASSERT_EQ(test, udma_uboe_batch_add(&b, &v4, &p), 0);
	p.mgmt.type = 0;	/* no such message */
	KUNIT_EXPECT_EQ(test, udma_uboe_batch_add(&b, &v4, &p), -EINVAL);
	KUNIT_EXPECT_EQ(test, b.n, 2);
	mgmt_pkt(&p, &far4);
	KUNIT_EXPECT_EQ(test, udma_uboe_batch_add(&b, &far4, &p),
			-ENETUNREACH);
	KUNIT_EXPECT_EQ(test, b.n, 0);
	KUNIT_EXPECT_PTR_EQ(test, b.skb, NULL);
	udma_uboe_batch_flush(&b);
	KUNIT_EXPECT_EQ(test, udma_wire_read(k->udev, UDMA_WIRE_TX_PACKETS), 2);
	KUNIT_EXPECT_EQ(test, udma_wire_read(k->udev, UDMA_WIRE_TX_ERRORS), 2);
	KUNIT_EXPECT_EQ(test, wait_cnt(k->udev, UDMA_WIRE_MGMT_RX, 2), 2);
}

/* Send @n management messages to @eid with route cache @c (NULL: none). */
static void send_cached(struct kunit *test, const union ubcore_eid *eid,
			struct dst_cache *c, int n)
{
	struct uboe_kunit *k = test->priv;
	struct uboe_pkt p;

	while (n--) {
		mgmt_pkt(&p, eid);
		KUNIT_EXPECT_EQ(test,
				udma_uboe_xmit_cached(k->udev, eid, &p, c), 0);
	}
}

/*
 * A TP's route cache: its first train looks the route up and keeps it
 * with its source address, the next ones take it, until the cache is
 * reset; IPv4 and IPv6 each in their cache; without one, every train
 * looks its route up.
 */
static void uboe_train_route_cache(struct kunit *test)
{
	struct uboe_kunit *k = test->priv;
	struct dst_cache c4, c6;
	union ubcore_eid v4, v6;
	struct dst_entry *d;
	struct in6_addr src;

	eid_v4(&v4, "127.0.0.1");
	eid_v6(&v6, "::1");
	KUNIT_ASSERT_EQ(test, dst_cache_init(&c4, GFP_KERNEL), 0);
	if (dst_cache_init(&c6, GFP_KERNEL)) {
		dst_cache_destroy(&c4);
		KUNIT_FAIL(test, "no memory for a route cache");
		return;
	}
	/* a route kept in the jiffy of the cache's reset is not taken */
	msleep(20);
	send_cached(test, &v6, &c6, 3);
	KUNIT_EXPECT_EQ(test,
			udma_wire_read(k->udev, UDMA_WIRE_TX_ROUTE_LOOKUPS), 1);
	local_bh_disable();
	d = dst_cache_get_ip6(&c6, &src);
	local_bh_enable();
	KUNIT_EXPECT_NOT_ERR_OR_NULL(test, d);
	KUNIT_EXPECT_TRUE(test, ipv6_addr_loopback(&src));
	dst_release(d);

	send_cached(test, &v4, &c4, 3);
	KUNIT_EXPECT_EQ(test,
			udma_wire_read(k->udev, UDMA_WIRE_TX_ROUTE_LOOKUPS), 2);
	send_cached(test, &v4, NULL, 2);
	KUNIT_EXPECT_EQ(test,
			udma_wire_read(k->udev, UDMA_WIRE_TX_ROUTE_LOOKUPS), 4);
	dst_cache_reset(&c6);
	send_cached(test, &v6, &c6, 1);
	KUNIT_EXPECT_EQ(test,
			udma_wire_read(k->udev, UDMA_WIRE_TX_ROUTE_LOOKUPS), 5);

	KUNIT_EXPECT_EQ(test, wait_cnt(k->udev, UDMA_WIRE_MGMT_RX, 9), 9);
	KUNIT_EXPECT_EQ(test, udma_wire_read(k->udev, UDMA_WIRE_TX_ERRORS), 0);
	dst_cache_destroy(&c6);
	dst_cache_destroy(&c4);
}

#define NO_SPAN ((const u8 *)NULL)

/* A page fragment of @len bytes at @off of a new page, filled with @c. */
static struct page *span_frag(struct kunit *test, struct sk_buff *skb,
			      u32 off, u32 len, u8 c)
{
	struct page *page = alloc_page(GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, page);
	memset(page_address(page), c, PAGE_SIZE);
	skb_add_rx_frag(skb, skb_shinfo(skb)->nr_frags, page, off, len,
			PAGE_SIZE);
	return page;
}

/* A fresh walk to one packet, so each lookup below stands alone. */
static const u8 *span_at(const struct sk_buff *skb, u32 off, u32 len)
{
	struct udma_skb_walk w;

	udma_skb_walk_init(&w, skb);
	return udma_skb_walk_to(&w, off, len);
}

/*
 * Where a walk finds a packet of a datagram of three pieces, as
 * GRO leaves a train off the wire: 100 bytes of head, page fragments of
 * 200 and 300 bytes, then a frag_list skb of 150 bytes of head and a page
 * fragment of 50. A packet in one piece is found there; one that
 * straddles two, or lies beyond the datagram, is not. One walk finds a
 * train's packets in turn.
 */
static void uboe_rx_skb_span(struct kunit *test)
{
	struct sk_buff *skb = alloc_skb(128, GFP_KERNEL);
	struct sk_buff *tail = alloc_skb(256, GFP_KERNEL);
	struct udma_skb_walk w;
	struct page *a, *b, *c;
	u32 off;

	KUNIT_ASSERT_NOT_NULL(test, skb);
	KUNIT_ASSERT_NOT_NULL(test, tail);
	skb_put(skb, 100);
	a = span_frag(test, skb, 0, 200, 'a');
	b = span_frag(test, skb, 100, 300, 'b');
	skb_put(tail, 150);
	c = span_frag(test, tail, 64, 50, 'c');
	skb_shinfo(skb)->frag_list = tail;
	skb->len += tail->len;
	skb->data_len += tail->len;
	KUNIT_ASSERT_EQ(test, skb->len, 800);

	KUNIT_EXPECT_PTR_EQ(test, span_at(skb, 0, 100), skb->data);
	KUNIT_EXPECT_PTR_EQ(test, span_at(skb, 10, 0), skb->data + 10);
	KUNIT_EXPECT_PTR_EQ(test, span_at(skb, 50, 60), NO_SPAN);
	KUNIT_EXPECT_PTR_EQ(test, span_at(skb, 100, 200),
			    (const u8 *)page_address(a));
	KUNIT_EXPECT_PTR_EQ(test, span_at(skb, 150, 50),
			    (const u8 *)page_address(a) + 50);
	KUNIT_EXPECT_PTR_EQ(test, span_at(skb, 299, 2), NO_SPAN);
	KUNIT_EXPECT_PTR_EQ(test, span_at(skb, 300, 300),
			    (const u8 *)page_address(b) + 100);
	KUNIT_EXPECT_PTR_EQ(test, span_at(skb, 590, 20), NO_SPAN);
	KUNIT_EXPECT_PTR_EQ(test, span_at(skb, 600, 150), tail->data);
	KUNIT_EXPECT_PTR_EQ(test, span_at(skb, 750, 50),
			    (const u8 *)page_address(c) + 64);
	KUNIT_EXPECT_PTR_EQ(test, span_at(skb, 740, 20), NO_SPAN);
	KUNIT_EXPECT_PTR_EQ(test, span_at(skb, 790, 20), NO_SPAN);
	KUNIT_EXPECT_PTR_EQ(test, span_at(skb, 800, 1), NO_SPAN);
	/* what each piece holds: the pointers are the bytes' */
	KUNIT_EXPECT_EQ(test, *span_at(skb, 420, 1), 'b');
	KUNIT_EXPECT_EQ(test, *span_at(skb, 799, 1), 'c');

	/* one walk over packets of 100 bytes: the last one straddles */
	udma_skb_walk_init(&w, skb);
	for (off = 0; off < 700; off += 100)
		KUNIT_EXPECT_NOT_NULL(test, udma_skb_walk_to(&w, off, 100));
	KUNIT_EXPECT_PTR_EQ(test, udma_skb_walk_to(&w, 700, 100), NO_SPAN);
	udma_skb_walk_init(&w, skb);
	KUNIT_EXPECT_PTR_EQ(test, udma_skb_walk_to(&w, 500, 100),
			    (const u8 *)page_address(b) + 300);
	KUNIT_EXPECT_PTR_EQ(test, udma_skb_walk_to(&w, 750, 50),
			    (const u8 *)page_address(c) + 64);
	KUNIT_EXPECT_PTR_EQ(test, udma_skb_walk_to(&w, 800, 1), NO_SPAN);
	kfree_skb(skb);
}

static struct kunit_case udma_uboe_net_cases[] = {
	KUNIT_CASE(uboe_xmit_v4_v6_loop),
	KUNIT_CASE(uboe_train_segments),
	KUNIT_CASE(uboe_train_frags),
	KUNIT_CASE(uboe_train_pages),
	KUNIT_CASE(uboe_train_refused),
	KUNIT_CASE(uboe_train_route_cache),
	KUNIT_CASE(uboe_xmit_refused),
	KUNIT_CASE(uboe_rx_eid_not_here),
	KUNIT_CASE(uboe_rx_skb_span),
	{}
};

static struct kunit_suite udma_uboe_net_suite = {
	.name = "udma_uboe_net",
	.init = uboe_kunit_init,
	.exit = uboe_kunit_exit,
	.test_cases = udma_uboe_net_cases,
};

kunit_test_suite(udma_uboe_net_suite);
