// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * ums_kunit.ko: the CLC codec (ums/clc.c) and the LLC and CDC codec
 * (ums/msg.c), linked in. Expected bytes are the wire format's
 * (include/uapi/ub/ums_clc.h: UMDK's layout, RFC 7609's eyecatchers;
 * include/uapi/ub/ums_msg.h), written out here, not computed by the code
 * under test; every malformed case is rejected.
 */
#include <kunit/test.h>
#include <linux/module.h>
#include <linux/string.h>

#include "../clc.h"
#include "../msg.h"

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
	struct ums_clc_acc_info acc;
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
	KUNIT_EXPECT_EQ(test, ums_clc_parse_accept(good, 28, UMS_CLC_ACCEPT,
						   &acc), -EPROTO);
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

static void fill_acc(struct ums_clc_acc_info *info)
{
	int i;

	memset(info, 0, sizeof(*info));
	memcpy(info->peer_id, peer, sizeof(peer));
	for (i = 0; i < UMS_CLC_EID_LEN; i++)
		info->eid[i] = 0xb0 + i;
	info->jetty_id = 0x01020304;
	info->jetty_token = 0x05060708;
	info->conn_token = 0x0000a1b2;
	info->rmb_token_id = 0x000abcde;
	info->rmb_token_value = 0xdeadbeef;
	info->rmb_uasid = 7;
	info->rmb_va = 0xffffc90001234000ULL;
	info->rmb_len = 1 << 20;
	info->lgr_id = 42;
	info->first_contact = true;
}

/* Accept and confirm: 128 bytes, each field where the layout puts it. */
static void clc_accept_bytes(struct kunit *test)
{
	u8 buf[UMS_CLC_ACCEPT_CONFIRM_LEN], i;
	struct ums_clc_acc_info info, out;

	KUNIT_EXPECT_EQ(test, sizeof(struct ums_clc_accept), 128);
	fill_acc(&info);
	KUNIT_ASSERT_EQ(test, ums_clc_build_accept(buf, sizeof(buf),
						   UMS_CLC_ACCEPT, &info), 128);
	KUNIT_EXPECT_EQ(test, memcmp(buf, ebcdic_umsr, 4), 0);
	KUNIT_EXPECT_EQ(test, buf[4], 0x02);
	KUNIT_EXPECT_EQ(test, buf[5], 0);
	KUNIT_EXPECT_EQ(test, buf[6], 128);
	KUNIT_EXPECT_EQ(test, buf[7], 0x10);
	KUNIT_EXPECT_EQ(test, memcmp(buf + 8, peer, 8), 0);
	KUNIT_EXPECT_EQ(test, buf[16], 0xb0);		/* EID */
	KUNIT_EXPECT_EQ(test, buf[31], 0xbf);
	for (i = 0; i < 4; i++) {
		KUNIT_EXPECT_EQ(test, buf[32 + i], 1 + i);	/* jetty ID */
		KUNIT_EXPECT_EQ(test, buf[36 + i], 5 + i);	/* its token */
	}
	KUNIT_EXPECT_EQ(test, buf[42], 0xa1);		/* connection token */
	KUNIT_EXPECT_EQ(test, buf[43], 0xb2);
	KUNIT_EXPECT_EQ(test, buf[45], 0x0a);		/* RMB token ID */
	KUNIT_EXPECT_EQ(test, buf[47], 0xde);
	KUNIT_EXPECT_EQ(test, buf[48], 0xde);		/* RMB token value */
	KUNIT_EXPECT_EQ(test, buf[51], 0xef);
	KUNIT_EXPECT_EQ(test, buf[55], 7);		/* UASID */
	KUNIT_EXPECT_EQ(test, buf[56], 0xff);		/* VA, big endian */
	KUNIT_EXPECT_EQ(test, buf[61], 0x23);
	KUNIT_EXPECT_EQ(test, buf[63], 0x00);
	KUNIT_EXPECT_EQ(test, buf[65], 0x10);		/* 1 MiB */
	KUNIT_EXPECT_EQ(test, buf[71], 42);		/* link group */
	KUNIT_EXPECT_EQ(test, buf[72], 0x80);		/* first contact */
	KUNIT_EXPECT_EQ(test, buf[73], 0);
	KUNIT_EXPECT_EQ(test, memcmp(buf + 124, ebcdic_umsr, 4), 0);

	KUNIT_EXPECT_EQ(test, ums_clc_check_hdr(buf, 8), 128);
	KUNIT_ASSERT_EQ(test, ums_clc_parse_accept(buf, 128, UMS_CLC_ACCEPT,
						   &out), 0);
	KUNIT_EXPECT_EQ(test, memcmp(&out, &info, sizeof(out)), 0);
	/* an accept is not a confirm, and the other way round */
	KUNIT_EXPECT_EQ(test, ums_clc_parse_accept(buf, 128, UMS_CLC_CONFIRM,
						   &out), -EPROTO);
	info.first_contact = false;
	KUNIT_ASSERT_EQ(test, ums_clc_build_accept(buf, sizeof(buf),
						   UMS_CLC_CONFIRM, &info), 128);
	KUNIT_EXPECT_EQ(test, buf[4], 0x03);
	KUNIT_EXPECT_EQ(test, buf[72], 0);
	KUNIT_ASSERT_EQ(test, ums_clc_parse_accept(buf, 128, UMS_CLC_CONFIRM,
						   &out), 0);
	KUNIT_EXPECT_EQ(test, memcmp(&out, &info, sizeof(out)), 0);
	KUNIT_EXPECT_EQ(test, ums_clc_parse_accept(buf, 128, UMS_CLC_ACCEPT,
						   &out), -EPROTO);
	KUNIT_EXPECT_EQ(test, ums_clc_build_accept(buf, 127, UMS_CLC_ACCEPT,
						   &info), -ENOSPC);
}

/* Overwrite the big-endian u32 at @off of @buf with @v. */
static void put32(u8 *buf, int off, u32 v)
{
	buf[off] = v >> 24;
	buf[off + 1] = v >> 16;
	buf[off + 2] = v >> 8;
	buf[off + 3] = v;
}

/* Every field an accept's reader acts on, and the frame, malformed. */
static void clc_accept_malformed(struct kunit *test)
{
	static const struct {
		int off;
		u32 v;
		const char *what;
	} bad32[] = {
		{ 32, 0, "jetty ID 0" },
		{ 40, 0, "connection token 0" },
		{ 44, 0, "RMB token ID 0" },
		{ 44, 1 << 20, "RMB token ID beyond 20 bits" },
		{ 64, 0, "RMB length 0" },
		{ 64, 16383, "RMB length below 16 KiB" },
		{ 64, 3 << 14, "RMB length not 16 KiB x 2^n" },
		{ 64, 128 << 20, "RMB length beyond 64 MiB" },
		{ 68, 0, "link group 0" },
	};
	u8 good[UMS_CLC_ACCEPT_CONFIRM_LEN], buf[UMS_CLC_ACCEPT_CONFIRM_LEN];
	struct ums_clc_acc_info info, out;
	int i;

	fill_acc(&info);
	ums_clc_build_accept(good, sizeof(good), UMS_CLC_ACCEPT, &info);
	for (i = 0; i < ARRAY_SIZE(bad32); i++) {
		memcpy(buf, good, sizeof(buf));
		put32(buf, bad32[i].off, bad32[i].v);
		KUNIT_EXPECT_EQ_MSG(test, ums_clc_parse_accept(buf, 128,
							       UMS_CLC_ACCEPT,
							       &out),
				    -EPROTO, "%s", bad32[i].what);
	}
	/* the largest RMB passes, at a VA where its range would wrap not */
	memcpy(buf, good, sizeof(buf));
	put32(buf, 64, 64 << 20);
	KUNIT_EXPECT_EQ(test, ums_clc_parse_accept(buf, 128, UMS_CLC_ACCEPT,
						   &out), 0);
	memset(buf + 56, 0xff, 8);			/* VA + length wraps */
	KUNIT_EXPECT_EQ(test, ums_clc_parse_accept(buf, 128, UMS_CLC_ACCEPT,
						   &out), -EPROTO);
	memcpy(buf, good, sizeof(buf));
	buf[72] = 0x40;					/* an unknown flag */
	KUNIT_EXPECT_EQ(test, ums_clc_parse_accept(buf, 128, UMS_CLC_ACCEPT,
						   &out), -EPROTO);
	memcpy(buf, good, sizeof(buf));
	buf[7] = 0x12;					/* typev1 N */
	KUNIT_EXPECT_EQ(test, ums_clc_parse_accept(buf, 128, UMS_CLC_ACCEPT,
						   &out), -EPROTO);
	memcpy(buf, good, sizeof(buf));
	buf[127] = 0;					/* trailer */
	KUNIT_EXPECT_EQ(test, ums_clc_parse_accept(buf, 128, UMS_CLC_ACCEPT,
						   &out), -EPROTO);
	memcpy(buf, good, sizeof(buf));
	buf[0] = 0;					/* eyecatcher */
	KUNIT_EXPECT_EQ(test, ums_clc_parse_accept(buf, 128, UMS_CLC_ACCEPT,
						   &out), -EPROTO);
	memcpy(buf, good, sizeof(buf));
	buf[6] = 64;					/* length */
	KUNIT_EXPECT_EQ(test, ums_clc_check_hdr(buf, 8), -EPROTO);
	KUNIT_EXPECT_EQ(test, ums_clc_parse_accept(buf, 128, UMS_CLC_ACCEPT,
						   &out), -EPROTO);
	/* received shorter than it says */
	KUNIT_EXPECT_EQ(test, ums_clc_parse_accept(good, 127, UMS_CLC_ACCEPT,
						   &out), -EPROTO);
}

static void llc_confirm_bytes(struct kunit *test)
{
	struct ums_llc_confirm cl = {
		.resp = true,
		.jetty_id = 0x11223344,
		.link_uid = 9,
		.link_num = 1,
		.max_links = 1,
	}, out;
	u8 buf[UMS_MSG_LEN];

	KUNIT_EXPECT_EQ(test, sizeof(struct ums_llc_confirm_link), 44);
	memset(cl.eid, 0xc5, sizeof(cl.eid));
	KUNIT_ASSERT_EQ(test, ums_llc_build_confirm(buf, sizeof(buf), &cl), 44);
	KUNIT_EXPECT_EQ(test, buf[0], 0x01);
	KUNIT_EXPECT_EQ(test, buf[1], 44);
	KUNIT_EXPECT_EQ(test, buf[3], 0x80);		/* response */
	KUNIT_EXPECT_EQ(test, buf[4], 0xc5);		/* EID */
	KUNIT_EXPECT_EQ(test, buf[20], 0x11);		/* jetty ID */
	KUNIT_EXPECT_EQ(test, buf[23], 0x44);
	KUNIT_EXPECT_EQ(test, buf[27], 9);		/* link UID */
	KUNIT_EXPECT_EQ(test, buf[28], 1);		/* link number */
	KUNIT_EXPECT_EQ(test, buf[29], 1);		/* links at most */
	KUNIT_EXPECT_EQ(test, ums_msg_type(buf, 44), UMS_LLC_CONFIRM_LINK);
	KUNIT_ASSERT_EQ(test, ums_llc_parse_confirm(buf, 44, &out), 0);
	KUNIT_EXPECT_EQ(test, memcmp(&out, &cl, sizeof(out)), 0);
	KUNIT_EXPECT_EQ(test, ums_llc_build_confirm(buf, 43, &cl), -ENOSPC);
}

static void llc_confirm_malformed(struct kunit *test)
{
	struct ums_llc_confirm cl = {
		.jetty_id = 5, .link_num = 1, .max_links = 1,
	}, out;
	u8 good[UMS_MSG_LEN], buf[UMS_MSG_LEN];
	struct ums_cdc cdc;

	ums_llc_build_confirm(good, sizeof(good), &cl);
	KUNIT_ASSERT_EQ(test, ums_llc_parse_confirm(good, 44, &out), 0);
	KUNIT_EXPECT_FALSE(test, out.resp);
	KUNIT_EXPECT_EQ(test, ums_llc_parse_confirm(good, 43, &out), -EPROTO);
	KUNIT_EXPECT_EQ(test, ums_msg_type(good, 45), -EPROTO);
	memcpy(buf, good, sizeof(buf));
	buf[1] = 40;					/* length field */
	KUNIT_EXPECT_EQ(test, ums_llc_parse_confirm(buf, 44, &out), -EPROTO);
	memcpy(buf, good, sizeof(buf));
	buf[0] = 0x02;					/* no such type */
	KUNIT_EXPECT_EQ(test, ums_msg_type(buf, 44), -EPROTO);
	memcpy(buf, good, sizeof(buf));
	buf[3] = 0x01;					/* unknown flag */
	KUNIT_EXPECT_EQ(test, ums_llc_parse_confirm(buf, 44, &out), -EPROTO);
	memcpy(buf, good, sizeof(buf));
	buf[23] = 0;					/* jetty ID 0 */
	KUNIT_EXPECT_EQ(test, ums_llc_parse_confirm(buf, 44, &out), -EPROTO);
	memcpy(buf, good, sizeof(buf));
	buf[28] = 0;					/* link number 0 */
	KUNIT_EXPECT_EQ(test, ums_llc_parse_confirm(buf, 44, &out), -EPROTO);
	buf[28] = 2;					/* beyond max_links */
	KUNIT_EXPECT_EQ(test, ums_llc_parse_confirm(buf, 44, &out), -EPROTO);
	/* a Confirm Link is not a CDC */
	KUNIT_EXPECT_EQ(test, ums_cdc_parse(good, 44, &cdc), -EPROTO);
}

static void cdc_bytes(struct kunit *test)
{
	struct ums_cdc cdc = {
		.seqno = 0xfffe,
		.token = 0x000a0b0c,
		.prod = 0x0000000100000010ULL,	/* past 4 GiB: no wrap count */
		.cons = 0x20,
		.prod_flags = UMS_CDC_WRITE_BLOCKED,
		.conn_flags = UMS_CDC_DONE_WRITING | UMS_CDC_CONN_CLOSED,
	}, out;
	u8 buf[UMS_MSG_LEN];

	KUNIT_EXPECT_EQ(test, sizeof(struct ums_cdc_msg), 44);
	KUNIT_ASSERT_EQ(test, ums_cdc_build(buf, sizeof(buf), &cdc), 44);
	KUNIT_EXPECT_EQ(test, buf[0], 0xfe);
	KUNIT_EXPECT_EQ(test, buf[1], 44);
	KUNIT_EXPECT_EQ(test, buf[2], 0xff);		/* sequence number */
	KUNIT_EXPECT_EQ(test, buf[3], 0xfe);
	KUNIT_EXPECT_EQ(test, buf[5], 0x0a);		/* token */
	KUNIT_EXPECT_EQ(test, buf[7], 0x0c);
	KUNIT_EXPECT_EQ(test, buf[11], 0x01);		/* producer, BE */
	KUNIT_EXPECT_EQ(test, buf[15], 0x10);
	KUNIT_EXPECT_EQ(test, buf[23], 0x20);		/* consumer */
	KUNIT_EXPECT_EQ(test, buf[24], 0x80);
	KUNIT_EXPECT_EQ(test, buf[25], 0x60);
	KUNIT_EXPECT_EQ(test, ums_msg_type(buf, 44), UMS_CDC_MSG);
	KUNIT_ASSERT_EQ(test, ums_cdc_parse(buf, 44, &out), 0);
	KUNIT_EXPECT_EQ(test, memcmp(&out, &cdc, sizeof(out)), 0);
	KUNIT_EXPECT_EQ(test, ums_cdc_build(buf, 43, &cdc), -ENOSPC);
}

static void cdc_malformed(struct kunit *test)
{
	struct ums_cdc cdc = { .token = 1 }, out;
	u8 good[UMS_MSG_LEN], buf[UMS_MSG_LEN];

	ums_cdc_build(good, sizeof(good), &cdc);
	KUNIT_ASSERT_EQ(test, ums_cdc_parse(good, 44, &out), 0);
	KUNIT_EXPECT_EQ(test, ums_cdc_parse(good, 43, &out), -EPROTO);
	memcpy(buf, good, sizeof(buf));
	buf[7] = 0;					/* token 0 */
	KUNIT_EXPECT_EQ(test, ums_cdc_parse(buf, 44, &out), -EPROTO);
	memcpy(buf, good, sizeof(buf));
	buf[24] = 0x01;					/* unknown flags */
	KUNIT_EXPECT_EQ(test, ums_cdc_parse(buf, 44, &out), -EPROTO);
	memcpy(buf, good, sizeof(buf));
	buf[25] = 0x08;
	KUNIT_EXPECT_EQ(test, ums_cdc_parse(buf, 44, &out), -EPROTO);
	memcpy(buf, good, sizeof(buf));
	buf[1] = 45;					/* length field */
	KUNIT_EXPECT_EQ(test, ums_cdc_parse(buf, 44, &out), -EPROTO);
	/* a CDC is not a Confirm Link */
	KUNIT_EXPECT_EQ(test, ums_llc_parse_confirm(good, 44, NULL), -EPROTO);
}

static struct kunit_case ums_clc_cases[] = {
	KUNIT_CASE(clc_layout),
	KUNIT_CASE(clc_proposal_bytes),
	KUNIT_CASE(clc_proposal_build_limits),
	KUNIT_CASE(clc_decline_bytes),
	KUNIT_CASE(clc_decline_malformed),
	KUNIT_CASE(clc_proposal_malformed),
	KUNIT_CASE(clc_accept_bytes),
	KUNIT_CASE(clc_accept_malformed),
	KUNIT_CASE(llc_confirm_bytes),
	KUNIT_CASE(llc_confirm_malformed),
	KUNIT_CASE(cdc_bytes),
	KUNIT_CASE(cdc_malformed),
	{}
};

static struct kunit_suite ums_clc_suite = {
	.name = "ums_clc",
	.test_cases = ums_clc_cases,
};

kunit_test_suite(ums_clc_suite);

MODULE_DESCRIPTION("KUnit tests of the UMS CLC, LLC and CDC codecs");
MODULE_LICENSE("GPL");
