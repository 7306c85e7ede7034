// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * KUnit tests of the management message's packet (udma/mgmt.c):
 * udma_mgmt_build() against bytes written from the layout of
 * include/uapi/ub/uboe_wire.h (TPH, EIDH, BTAH, MGMTETAH, body), what it
 * refuses, the round trip through the codec, and every reason
 * udma_mgmt_check() drops a decoded message for.
 */
#include <kunit/test.h>
#include <linux/string.h>

#include "../mgmt.h"

#define MGMT_PKT_LEN	(16 + 32 + 12 + 8 + 56)

/* A CONN_REQ body from 10.0.0.1 (::ffff:10.0.0.1) to fd00::2. */
static void body_init(struct uboe_mgmt_body *b, union ubcore_eid *dst)
{
	static const u8 src[16] = { [10] = 0xff, [11] = 0xff, [12] = 10,
				    [15] = 1 };
	static const u8 d[16] = { 0xfd, [15] = 2 };

	memset(b, 0, sizeof(*b));
	b->version = 1;			/* UBOE_MGMT_BODY_VERSION */
	b->trans_mode = 1;		/* RM */
	b->target_type = 2;		/* jetty */
	b->src_tpn = cpu_to_be32(0x11);
	b->src_jetty = 0;
	b->dst_jetty = cpu_to_be32(0x22);
	b->token_value = cpu_to_be32(0xa5a5a5a5);
	memcpy(b->src_eid, src, 16);
	memcpy(b->dst_eid, d, 16);
	memcpy(dst->raw, d, 16);
}

/* The bytes of that CONN_REQ, message ID 0x01020304, from the layout. */
static const u8 g_conn_req[MGMT_PKT_LEN] = {
	/* TPH: version 1, UTP_DATA, pkt_len 124, F L E, TPNs 0, PSN 0 */
	0x10, 0x02, 0x00, 0x7c, 0x70, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	/* EIDH at 16: source, destination */
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 10, 0, 0, 1,
	0xfd, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2,
	/* BTAH at 48: MANAGEMENT 0x10, TAver 0, TASSN 0, ODR 0, ext MGMT */
	0x10, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x80, 0x00, 0x00,
	/* MGMTETAH at 60: version 1, CONN_REQ, body_len 56, msg_id */
	0x01, 0x01, 0x00, 0x38, 0x01, 0x02, 0x03, 0x04,
	/* body at 68: version, RM, jetty, reason, src_tpn, dst_tpn */
	0x01, 0x01, 0x02, 0x00, 0x00, 0x00, 0x00, 0x11,
	0x00, 0x00, 0x00, 0x00,
	/* src_jetty, dst_jetty, token_value */
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x22,
	0xa5, 0xa5, 0xa5, 0xa5,
	/* src_eid, dst_eid */
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 10, 0, 0, 1,
	0xfd, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2,
};

static void mgmt_build_golden(struct kunit *test)
{
	struct uboe_mgmt_body b;
	union ubcore_eid dst;
	struct uboe_pkt p;
	u8 buf[MGMT_PKT_LEN + 8];

	body_init(&b, &dst);
	KUNIT_ASSERT_EQ(test, udma_mgmt_build(&p, &dst, UBOE_MGMT_CONN_REQ,
					      0x01020304, &b, sizeof(b)), 0);
	KUNIT_ASSERT_EQ(test, uboe_hdr_len(&p) + p.payload_len,
			(size_t)MGMT_PKT_LEN);
	KUNIT_ASSERT_EQ(test, uboe_encode(&p, buf, sizeof(buf)), MGMT_PKT_LEN);
	KUNIT_EXPECT_EQ(test, memcmp(buf, g_conn_req, MGMT_PKT_LEN), 0);
}

static void mgmt_build_refused(struct kunit *test)
{
	struct uboe_mgmt_body b;
	union ubcore_eid dst, other;
	struct uboe_pkt p;

	body_init(&b, &dst);
	KUNIT_EXPECT_EQ(test, udma_mgmt_build(&p, &dst, UBOE_MGMT_CONN_REQ, 1,
					      NULL, sizeof(b)), -EINVAL);
	KUNIT_EXPECT_EQ(test, udma_mgmt_build(&p, &dst, UBOE_MGMT_CONN_REQ, 1,
					      &b, sizeof(b) - 1), -EINVAL);
	KUNIT_EXPECT_EQ(test, udma_mgmt_build(&p, &dst, UBOE_MGMT_CONN_REQ, 1,
					      &b, sizeof(b) + 1), -EINVAL);
	other = dst;
	other.raw[15] ^= 1;
	KUNIT_EXPECT_EQ(test, udma_mgmt_build(&p, &other, UBOE_MGMT_CONN_REQ,
					      1, &b, sizeof(b)), -EINVAL);
}

/* Every type through the codec and back, then accepted by the check. */
static void mgmt_round_trip(struct kunit *test)
{
	struct uboe_mgmt_body b;
	union ubcore_eid dst;
	struct uboe_pkt p, d;
	u8 buf[MGMT_PKT_LEN];
	u8 type;

	body_init(&b, &dst);
	for (type = UBOE_MGMT_CONN_REQ; type <= UBOE_MGMT_TYPE_MAX; type++) {
		KUNIT_ASSERT_EQ(test, udma_mgmt_build(&p, &dst, type, type * 7,
						      &b, sizeof(b)), 0);
		KUNIT_ASSERT_EQ(test, uboe_encode(&p, buf, sizeof(buf)),
				MGMT_PKT_LEN);
		memset(&d, 0, sizeof(d));
		KUNIT_ASSERT_EQ(test, uboe_decode(buf, sizeof(buf), 0, &d),
				UBOE_DROP_NONE);
		KUNIT_EXPECT_EQ(test, d.mgmt.type, type);
		KUNIT_EXPECT_EQ(test, d.mgmt.msg_id, (u32)type * 7);
		KUNIT_EXPECT_EQ(test, d.payload_len, (u32)sizeof(b));
		KUNIT_EXPECT_EQ(test, memcmp(d.payload, &b, sizeof(b)), 0);
		KUNIT_EXPECT_EQ(test, udma_mgmt_check(&d), UBOE_DROP_NONE);
	}
}

/* Each way a decoded message disagrees with its packet, its own reason. */
static void mgmt_check_drops(struct kunit *test)
{
	struct uboe_mgmt_body b, bad;
	union ubcore_eid dst;
	struct uboe_pkt p, q;

	body_init(&b, &dst);
	KUNIT_ASSERT_EQ(test, udma_mgmt_build(&p, &dst, UBOE_MGMT_CONN_REP, 9,
					      &b, sizeof(b)), 0);
	KUNIT_EXPECT_EQ(test, udma_mgmt_check(&p), UBOE_DROP_NONE);

	q = p;
	q.payload_len = 0;
	KUNIT_EXPECT_EQ(test, udma_mgmt_check(&q), UBOE_DROP_MGMT_BODY_LEN);
	q.payload_len = 55;
	KUNIT_EXPECT_EQ(test, udma_mgmt_check(&q), UBOE_DROP_MGMT_BODY_LEN);
	q.payload_len = 57;
	KUNIT_EXPECT_EQ(test, udma_mgmt_check(&q), UBOE_DROP_MGMT_BODY_LEN);
	q.payload_len = 56;
	q.payload = NULL;
	KUNIT_EXPECT_EQ(test, udma_mgmt_check(&q), UBOE_DROP_MGMT_BODY_LEN);

	bad = b;
	q = p;
	q.payload = &bad;
	bad.version = 0;
	KUNIT_EXPECT_EQ(test, udma_mgmt_check(&q), UBOE_DROP_MGMT_BODY_VERSION);
	bad.version = 2;
	KUNIT_EXPECT_EQ(test, udma_mgmt_check(&q), UBOE_DROP_MGMT_BODY_VERSION);

	bad = b;
	bad.src_eid[0] ^= 0x80;
	KUNIT_EXPECT_EQ(test, udma_mgmt_check(&q), UBOE_DROP_MGMT_EID_MISMATCH);
	bad = b;
	bad.dst_eid[15] ^= 0x01;
	KUNIT_EXPECT_EQ(test, udma_mgmt_check(&q), UBOE_DROP_MGMT_EID_MISMATCH);
	q = p;
	q.src_eid.raw[12] = 11;
	KUNIT_EXPECT_EQ(test, udma_mgmt_check(&q), UBOE_DROP_MGMT_EID_MISMATCH);
	q = p;
	q.dst_eid.raw[0] = 0xfe;
	KUNIT_EXPECT_EQ(test, udma_mgmt_check(&q), UBOE_DROP_MGMT_EID_MISMATCH);
	q = p;
	q.has_eid = false;
	KUNIT_EXPECT_EQ(test, udma_mgmt_check(&q), UBOE_DROP_MGMT_EID_MISMATCH);
}

/* The names of the reasons in wire/ (docs/uboe-wire.md). */
static void mgmt_drop_names(struct kunit *test)
{
	KUNIT_EXPECT_STREQ(test, uboe_drop_name(UBOE_DROP_MGMT_BODY_LEN),
			   "mgmt_body_len");
	KUNIT_EXPECT_STREQ(test, uboe_drop_name(UBOE_DROP_MGMT_BODY_VERSION),
			   "mgmt_body_version");
	KUNIT_EXPECT_STREQ(test, uboe_drop_name(UBOE_DROP_MGMT_EID_MISMATCH),
			   "mgmt_eid_mismatch");
	KUNIT_EXPECT_STREQ(test, uboe_drop_name(UBOE_DROP_MGMT_REFUSED),
			   "mgmt_refused");
}

static struct kunit_case udma_mgmt_cases[] = {
	KUNIT_CASE(mgmt_build_golden),
	KUNIT_CASE(mgmt_build_refused),
	KUNIT_CASE(mgmt_round_trip),
	KUNIT_CASE(mgmt_check_drops),
	KUNIT_CASE(mgmt_drop_names),
	{}
};

static struct kunit_suite udma_mgmt_suite = {
	.name = "udma_mgmt",
	.test_cases = udma_mgmt_cases,
};

kunit_test_suite(udma_mgmt_suite);
