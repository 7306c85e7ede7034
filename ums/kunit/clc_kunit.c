// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * ums_kunit.ko: the CLC codec (ums/clc.c, linked in). Expected bytes are
 * the wire format's (include/uapi/ub/ums_clc.h: UMDK's layout, RFC 7609's
 * eyecatchers), written out here, not computed by the code under test;
 * every malformed case is rejected.
 */
#include <kunit/test.h>
#include <linux/module.h>
#include <linux/string.h>

#include "../clc.h"

static const u8 ebcdic_umsr[4] = { 0xe4, 0xd4, 0xe2, 0xd9 };
static const u8 peer[UMS_CLC_PEER_ID_LEN] = { 1, 2, 3, 4, 5, 6, 7, 8 };

static void fill_info(struct ums_clc_prop_info *info, int v6)
{
	int i;

	memset(info, 0, sizeof(*info));
	memcpy(info->peer_id, peer, sizeof(peer));
	for (i = 0; i < UMS_CLC_EID_LEN; i++)
		info->eid[i] = 0xa0 + i;
	info->session_id = 0x11223344;
	info->subnet = htonl(0x0a4d0000);
	info->prefix_len = 24;
	info->ipv6_cnt = v6;
	for (i = 0; i < v6; i++) {
		info->ipv6[i].prefix.s6_addr[0] = 0xfd;
		info->ipv6[i].prefix.s6_addr[1] = 0x77;
		info->ipv6[i].prefix.s6_addr[15] = i;
		info->ipv6[i].len = 64;
	}
}

/* The layout: sizes and offsets of the wire format. */
static void clc_layout(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, sizeof(struct ums_clc_hdr), 8);
	KUNIT_EXPECT_EQ(test, sizeof(struct ums_clc_local), 38);
	KUNIT_EXPECT_EQ(test, sizeof(struct ums_clc_proposal), 48);
	KUNIT_EXPECT_EQ(test, sizeof(struct ums_clc_prefix_area), 8);
	KUNIT_EXPECT_EQ(test, sizeof(struct ums_clc_ipv6_prefix), 17);
	KUNIT_EXPECT_EQ(test, sizeof(struct ums_clc_decline), 28);
}

static void clc_proposal_bytes(struct kunit *test)
{
	struct ums_clc_prop_info info, out;
	u8 buf[UMS_CLC_MAX_LEN];
	int len;

	fill_info(&info, 2);
	len = ums_clc_build_proposal(buf, sizeof(buf), &info);
	/* 48 fixed + 8 prefix area + 2 x 17 + 4 trailer */
	KUNIT_ASSERT_EQ(test, len, 94);
	KUNIT_EXPECT_EQ(test, memcmp(buf, ebcdic_umsr, 4), 0);
	KUNIT_EXPECT_EQ(test, buf[4], 0x01);		/* proposal */
	KUNIT_EXPECT_EQ(test, buf[5], 0);		/* length, big endian */
	KUNIT_EXPECT_EQ(test, buf[6], 94);
	KUNIT_EXPECT_EQ(test, buf[7], 0x10);		/* version 1, type R */
	KUNIT_EXPECT_EQ(test, memcmp(buf + 8, peer, 8), 0);
	KUNIT_EXPECT_EQ(test, buf[16], 0xa0);		/* EID */
	KUNIT_EXPECT_EQ(test, buf[31], 0xaf);
	KUNIT_EXPECT_EQ(test, buf[32], 0x11);		/* session ID */
	KUNIT_EXPECT_EQ(test, buf[35], 0x44);
	KUNIT_EXPECT_EQ(test, buf[46], 0);		/* iparea offset */
	KUNIT_EXPECT_EQ(test, buf[47], 0);
	KUNIT_EXPECT_EQ(test, buf[48], 10);		/* 10.77.0.0 */
	KUNIT_EXPECT_EQ(test, buf[49], 77);
	KUNIT_EXPECT_EQ(test, buf[52], 24);		/* /24 */
	KUNIT_EXPECT_EQ(test, buf[55], 2);		/* two IPv6 prefixes */
	KUNIT_EXPECT_EQ(test, buf[56], 0xfd);
	KUNIT_EXPECT_EQ(test, buf[72], 64);
	KUNIT_EXPECT_EQ(test, buf[73 + 15], 1);
	KUNIT_EXPECT_EQ(test, memcmp(buf + 90, ebcdic_umsr, 4), 0);

	KUNIT_EXPECT_EQ(test, ums_clc_check_hdr(buf, 8), 94);
	KUNIT_ASSERT_EQ(test, ums_clc_parse_proposal(buf, len, &out), 0);
	KUNIT_EXPECT_EQ(test, memcmp(out.peer_id, peer, 8), 0);
	KUNIT_EXPECT_EQ(test, memcmp(out.eid, info.eid, 16), 0);
	KUNIT_EXPECT_EQ(test, out.session_id, 0x11223344u);
	KUNIT_EXPECT_EQ(test, out.subnet, htonl(0x0a4d0000));
	KUNIT_EXPECT_EQ(test, out.prefix_len, 24);
	KUNIT_EXPECT_EQ(test, out.ipv6_cnt, 2);
	KUNIT_EXPECT_EQ(test, out.ipv6[1].len, 64);
	KUNIT_EXPECT_EQ(test, out.ipv6[1].prefix.s6_addr[15], 1);
}

static void clc_proposal_build_limits(struct kunit *test)
{
	struct ums_clc_prop_info info;
	u8 buf[UMS_CLC_MAX_LEN];

	fill_info(&info, UMS_CLC_MAX_V6_PREFIX);
	KUNIT_EXPECT_EQ(test, ums_clc_build_proposal(buf, sizeof(buf), &info),
			60 + 8 * 17);
	KUNIT_EXPECT_EQ(test, ums_clc_build_proposal(buf, 60 + 8 * 17 - 1,
						     &info), -ENOSPC);
	info.ipv6_cnt = UMS_CLC_MAX_V6_PREFIX + 1;
	KUNIT_EXPECT_EQ(test, ums_clc_build_proposal(buf, sizeof(buf), &info),
			-EINVAL);
}

static void clc_decline_bytes(struct kunit *test)
{
	u8 buf[UMS_CLC_DECLINE_LEN];
	u32 reason = 0;

	KUNIT_ASSERT_EQ(test, ums_clc_build_decline(buf, sizeof(buf), peer,
						    UMS_CLC_DECL_NOUMSDEV), 28);
	KUNIT_EXPECT_EQ(test, memcmp(buf, ebcdic_umsr, 4), 0);
	KUNIT_EXPECT_EQ(test, buf[4], 0x04);
	KUNIT_EXPECT_EQ(test, buf[6], 28);
	KUNIT_EXPECT_EQ(test, memcmp(buf + 8, peer, 8), 0);
	/* 0x03030000, big endian */
	KUNIT_EXPECT_EQ(test, buf[16], 0x03);
	KUNIT_EXPECT_EQ(test, buf[17], 0x03);
	KUNIT_EXPECT_EQ(test, buf[18], 0x00);
	KUNIT_EXPECT_EQ(test, buf[20], 0x20);		/* Linux */
	KUNIT_EXPECT_EQ(test, memcmp(buf + 24, ebcdic_umsr, 4), 0);
	KUNIT_EXPECT_EQ(test, ums_clc_parse_decline(buf, 28, &reason), 0);
	KUNIT_EXPECT_EQ(test, reason, 0x03030000u);
	KUNIT_EXPECT_EQ(test, ums_clc_build_decline(buf, 27, peer, 0), -ENOSPC);
}

/* Each byte of the header and trailer that makes a message malformed. */
static void clc_decline_malformed(struct kunit *test)
{
	u8 good[UMS_CLC_DECLINE_LEN], buf[UMS_CLC_DECLINE_LEN];
	static const int bad_bytes[] = { 0, 1, 2, 3, 24, 25, 26, 27 };
	u32 reason;
	int i;

	ums_clc_build_decline(good, sizeof(good), peer, UMS_CLC_DECL_MEM);
	for (i = 0; i < ARRAY_SIZE(bad_bytes); i++) {
		memcpy(buf, good, sizeof(buf));
		buf[bad_bytes[i]] ^= 0x01;
		KUNIT_EXPECT_EQ_MSG(test, ums_clc_parse_decline(buf, 28, &reason),
				    -EPROTO, "byte %d", bad_bytes[i]);
	}
	memcpy(buf, good, sizeof(buf));
	buf[6] = 29;				/* length not a decline's */
	KUNIT_EXPECT_EQ(test, ums_clc_check_hdr(buf, 8), -EPROTO);
	buf[6] = 27;
	KUNIT_EXPECT_EQ(test, ums_clc_check_hdr(buf, 8), -EPROTO);
	memcpy(buf, good, sizeof(buf));
	buf[7] = 0x00;				/* version 0 */
	KUNIT_EXPECT_EQ(test, ums_clc_check_hdr(buf, 8), -EPROTO);
	memcpy(buf, good, sizeof(buf));
	buf[4] = 0x05;				/* no such type */
	KUNIT_EXPECT_EQ(test, ums_clc_check_hdr(buf, 8), -EPROTO);
	buf[4] = 0x00;
	KUNIT_EXPECT_EQ(test, ums_clc_check_hdr(buf, 8), -EPROTO);
	/* whole but received shorter or longer than it says */
	KUNIT_EXPECT_EQ(test, ums_clc_parse_decline(good, 27, &reason), -EPROTO);
	KUNIT_EXPECT_EQ(test, ums_clc_check_hdr(good, 7), -EPROTO);
	/* a valid decline is not a proposal or an accept */
	KUNIT_EXPECT_EQ(test, ums_clc_parse_accept(good, 28), -EPROTO);
}

static void clc_proposal_malformed(struct kunit *test)
{
	struct ums_clc_prop_info info, out;
	u8 good[UMS_CLC_MAX_LEN], buf[UMS_CLC_MAX_LEN];
	int len;

	fill_info(&info, 1);
	len = ums_clc_build_proposal(good, sizeof(good), &info);
	KUNIT_ASSERT_EQ(test, len, 77);
	KUNIT_ASSERT_EQ(test, ums_clc_parse_proposal(good, len, &out), 0);

	memcpy(buf, good, len);
	buf[len - 1] ^= 0xff;			/* trailer */
	KUNIT_EXPECT_EQ(test, ums_clc_parse_proposal(buf, len, &out), -EPROTO);
	memcpy(buf, good, len);
	buf[7] = 0x12;				/* typev1 N: no UMS-R */
	KUNIT_EXPECT_EQ(test, ums_clc_parse_proposal(buf, len, &out), -EPROTO);
	memcpy(buf, good, len);
	buf[55] = 2;				/* count beyond the length */
	KUNIT_EXPECT_EQ(test, ums_clc_parse_proposal(buf, len, &out), -EPROTO);
	buf[55] = 0;				/* count short of the length */
	KUNIT_EXPECT_EQ(test, ums_clc_parse_proposal(buf, len, &out), -EPROTO);
	memcpy(buf, good, len);
	buf[55] = UMS_CLC_MAX_V6_PREFIX + 1;
	KUNIT_EXPECT_EQ(test, ums_clc_parse_proposal(buf, len, &out), -EPROTO);
	memcpy(buf, good, len);
	buf[47] = 17;				/* IP area beyond the message */
	KUNIT_EXPECT_EQ(test, ums_clc_parse_proposal(buf, len, &out), -EPROTO);
	memcpy(buf, good, len);
	buf[46] = 0xff;				/* offset that would wrap */
	buf[47] = 0xff;
	KUNIT_EXPECT_EQ(test, ums_clc_parse_proposal(buf, len, &out), -EPROTO);
	memcpy(buf, good, len);
	buf[52] = 33;				/* IPv4 prefix length */
	KUNIT_EXPECT_EQ(test, ums_clc_parse_proposal(buf, len, &out), -EPROTO);
	memcpy(buf, good, len);
	buf[56 + 16] = 129;			/* IPv6 prefix length */
	KUNIT_EXPECT_EQ(test, ums_clc_parse_proposal(buf, len, &out), -EPROTO);
	/* shorter than the smallest proposal, or longer than the bound */
	memcpy(buf, good, len);
	buf[6] = 59;
	KUNIT_EXPECT_EQ(test, ums_clc_check_hdr(buf, 8), -EPROTO);
	buf[5] = 0x01;
	buf[6] = 0x01;				/* 257 */
	KUNIT_EXPECT_EQ(test, ums_clc_check_hdr(buf, 8), -EPROTO);
	/* received length differs from the header's */
	KUNIT_EXPECT_EQ(test, ums_clc_parse_proposal(good, len - 1, &out),
			-EPROTO);
	/* a valid proposal is not a decline */
	KUNIT_EXPECT_EQ(test, ums_clc_parse_decline(good, len, &out.session_id),
			-EPROTO);
}

/* An accept's frame: 128 bytes, type R, eyecatchers. */
static void clc_accept_frame(struct kunit *test)
{
	u8 buf[UMS_CLC_ACCEPT_CONFIRM_LEN] = {};

	memcpy(buf, ebcdic_umsr, 4);
	buf[4] = UMS_CLC_ACCEPT;
	buf[6] = 128;
	buf[7] = 0x10;
	memcpy(buf + 124, ebcdic_umsr, 4);
	KUNIT_EXPECT_EQ(test, ums_clc_check_hdr(buf, 8), 128);
	KUNIT_EXPECT_EQ(test, ums_clc_parse_accept(buf, 128), 0);
	buf[127] = 0;
	KUNIT_EXPECT_EQ(test, ums_clc_parse_accept(buf, 128), -EPROTO);
	buf[127] = 0xd9;
	buf[7] = 0x12;
	KUNIT_EXPECT_EQ(test, ums_clc_parse_accept(buf, 128), -EPROTO);
	buf[7] = 0x10;
	buf[6] = 64;
	KUNIT_EXPECT_EQ(test, ums_clc_check_hdr(buf, 8), -EPROTO);
	buf[6] = 128;
	buf[4] = UMS_CLC_CONFIRM;
	KUNIT_EXPECT_EQ(test, ums_clc_check_hdr(buf, 8), 128);
	KUNIT_EXPECT_EQ(test, ums_clc_parse_accept(buf, 128), -EPROTO);
}

static struct kunit_case ums_clc_cases[] = {
	KUNIT_CASE(clc_layout),
	KUNIT_CASE(clc_proposal_bytes),
	KUNIT_CASE(clc_proposal_build_limits),
	KUNIT_CASE(clc_decline_bytes),
	KUNIT_CASE(clc_decline_malformed),
	KUNIT_CASE(clc_proposal_malformed),
	KUNIT_CASE(clc_accept_frame),
	{}
};

static struct kunit_suite ums_clc_suite = {
	.name = "ums_clc",
	.test_cases = ums_clc_cases,
};

kunit_test_suite(ums_clc_suite);

MODULE_DESCRIPTION("KUnit tests of the UMS CLC codec");
MODULE_LICENSE("GPL");
