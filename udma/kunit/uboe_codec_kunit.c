// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * KUnit tests of the UBoE packet codec (udma/uboe_codec.c) against the
 * layout of include/uapi/ub/uboe_wire.h and the rules of docs/uboe-wire.md:
 * packets written byte by byte from the layout (golden), the round trip of
 * every TAOpcode with every combination of its headers, and every way a
 * packet is dropped, each with its own reason. Byte offsets below are the
 * layout's, written out: they are what a second implementation must match.
 */
#include <kunit/test.h>
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "../uboe_codec.h"

#define TBUF_SIZE	8192

#define MAE	UBOE_EXT_MAETAH
#define MTE	UBOE_EXT_MTETAH
#define IMM	UBOE_EXT_IMMETAH
#define NTF	UBOE_EXT_NTFETAH
#define INV	UBOE_EXT_INVETAH
#define OFS	UBOE_EXT_OFSTETAH
#define TAI	UBOE_EXT_TAIDETAH
#define MGT	UBOE_EXT_MGMTETAH
#define TVE	UBOE_X_TVETAH
#define UDE	UBOE_X_UDETAH

/* Wire order and sizes of the extension headers (uboe_wire.h). */
static const struct {
	u32 bit;
	u32 size;
	const char *name;
} ext_hdrs[] = {
	{ TVE, 4, "TVETAH" }, { MAE, 16, "MAETAH" }, { MTE, 4, "MTETAH" },
	{ IMM, 16, "IMMETAH" }, { NTF, 24, "NTFETAH" }, { INV, 24, "INVETAH" },
	{ OFS, 4, "OFSTETAH" }, { TAI, 4, "TAIDETAH" }, { MGT, 8, "MGMTETAH" },
	{ UDE, 4, "UDETAH" },
};

/* ------------------------------------------------------------------ */
/* Golden packets, written from the layout. */

/*
 * RTP WRITE, ONLY, ACK requested; dtpn 0x000102, stpn 0x000a0b, PSN
 * 0x123456; TASSN 0x0102, TEO SO, TCO, jetty 0xabc; TVETAH 0xdeadbeef;
 * MAETAH va 0x1122334455667788 token ID 0x54321 length 8; "ABCDEFGH".
 */
static const u8 g_write[] = {
	/* TPH */
	0x10, 0x01, 0x00, 0x38, 0xe0, 0x00, 0x01, 0x02,
	0x00, 0x00, 0x0a, 0x0b, 0x00, 0x12, 0x34, 0x56,
	/* BTAH at 16 */
	0x03, 0x08, 0x01, 0x02, 0xa0, 0x00, 0x0a, 0xbc,
	0x00, 0x01, 0x00, 0x00,
	/* TVETAH at 28 */
	0xde, 0xad, 0xbe, 0xef,
	/* MAETAH at 32 */
	0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88,
	0x00, 0x05, 0x43, 0x21, 0x00, 0x00, 0x00, 0x08,
	/* payload at 48 */
	'A', 'B', 'C', 'D', 'E', 'F', 'G', 'H',
};

/*
 * ACK of PSN 0x123456 from TP 0x0102 to TP 0x0a0b, window 64, with an
 * ICRC (CRC32C of the first 20 bytes, computed outside the kernel).
 */
static const u8 g_ack[] = {
	0x10, 0x03, 0x00, 0x18, 0x08, 0x00, 0x0a, 0x0b,
	0x00, 0x00, 0x01, 0x02, 0x00, 0x12, 0x34, 0x56,
	/* TPACKH at 16 */
	0x00, 0x00, 0x00, 0x40,
	/* ICRC at 20 */
	0xbc, 0x7b, 0x29, 0xea,
};

/*
 * UTP MANAGEMENT CONN_REQ from ::ffff:10.0.0.1 to ::ffff:10.0.0.2, PSN 7,
 * message ID 0x01020304, body "CONN_REQ", with an ICRC.
 */
static const u8 g_mgmt[] = {
	0x10, 0x02, 0x00, 0x50, 0x78, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x07,
	/* EIDH at 16 */
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 10, 0, 0, 1,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 10, 0, 0, 2,
	/* BTAH at 48 */
	0x10, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x80, 0x00, 0x00,
	/* MGMTETAH at 60 */
	0x01, 0x01, 0x00, 0x08, 0x01, 0x02, 0x03, 0x04,
	/* body at 68 */
	'C', 'O', 'N', 'N', '_', 'R', 'E', 'Q',
	/* ICRC at 76 */
	0xcc, 0x6d, 0xf6, 0xcb,
};

/*
 * RTP READ_RESP, LAST; dtpn 5, stpn 6, PSN 0xffffff; TASSN 0xfffe,
 * status OK, jetty 0x12345; OFSTETAH 2 KiB; TAIDETAH 0x7777; "xyz".
 */
static const u8 g_read_resp[] = {
	0x10, 0x01, 0x00, 0x27, 0x20, 0x00, 0x00, 0x05,
	0x00, 0x00, 0x00, 0x06, 0x00, 0xff, 0xff, 0xff,
	/* ATAH at 16 */
	0x12, 0x00, 0xff, 0xfe, 0x00, 0x01, 0x23, 0x45,
	0x00, 0x60, 0x00, 0x00,
	/* OFSTETAH at 28, TAIDETAH at 32 */
	0x00, 0x00, 0x00, 0x02, 0x77, 0x77, 0x00, 0x00,
	/* payload at 36 */
	'x', 'y', 'z',
};

/*
 * RTP SEND_IMM, ONLY, solicited; dtpn 1, stpn 2, PSN 0; TASSN 3, jetty 4;
 * TVETAH 0x01020304; MTETAH hint 5, JFR 6; IMMETAH 0x0102030405060708,
 * length 4; UDETAH UASID 10; "ping".
 */
static const u8 g_send_imm[] = {
	0x10, 0x01, 0x00, 0x3c, 0x60, 0x00, 0x00, 0x01,
	0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x00,
	/* BTAH at 16 */
	0x01, 0x0a, 0x00, 0x03, 0x04, 0x00, 0x00, 0x04,
	0x00, 0x06, 0x00, 0x00,
	/* TVETAH at 28, MTETAH at 32 */
	0x01, 0x02, 0x03, 0x04, 0x05, 0x00, 0x00, 0x06,
	/* IMMETAH at 36 */
	0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x04,
	/* UDETAH at 52 */
	0x00, 0x00, 0x00, 0x0a,
	/* payload at 56 */
	'p', 'i', 'n', 'g',
};

static void golden_write_pkt(struct uboe_pkt *p)
{
	memset(p, 0, sizeof(*p));
	p->tp_opcode = UBOE_TP_RTP_DATA;
	p->seg = UBOE_SEG_ONLY;
	p->ack_req = true;
	p->dtpn = 0x102;
	p->stpn = 0xa0b;
	p->psn = 0x123456;
	p->ta_opcode = UBOE_TA_WRITE;
	p->tassn = 0x102;
	p->teo = UBOE_TEO_SO;
	p->tco = true;
	p->rc_id = 0xabc;
	p->hdrs = TVE | MAE;
	p->token_value = 0xdeadbeef;
	p->mae.va = 0x1122334455667788ULL;
	p->mae.token_id = 0x54321;
	p->mae.len = 8;
	p->payload = "ABCDEFGH";
	p->payload_len = 8;
}

static void golden_ack_pkt(struct uboe_pkt *p)
{
	memset(p, 0, sizeof(*p));
	p->tp_opcode = UBOE_TP_ACK;
	p->icrc = true;
	p->dtpn = 0xa0b;
	p->stpn = 0x102;
	p->psn = 0x123456;
	p->window = 64;
}

static void golden_mgmt_pkt(struct uboe_pkt *p)
{
	memset(p, 0, sizeof(*p));
	p->tp_opcode = UBOE_TP_UTP_DATA;
	p->seg = UBOE_SEG_ONLY;
	p->icrc = true;
	p->has_eid = true;
	p->psn = 7;
	ubcore_eid_from_ipv4(&p->src_eid, cpu_to_be32(0x0a000001));
	ubcore_eid_from_ipv4(&p->dst_eid, cpu_to_be32(0x0a000002));
	p->ta_opcode = UBOE_TA_MANAGEMENT;
	p->hdrs = MGT;
	p->mgmt.type = UBOE_MGMT_CONN_REQ;
	p->mgmt.msg_id = 0x01020304;
	p->payload = "CONN_REQ";
	p->payload_len = 8;
}

static void golden_read_resp_pkt(struct uboe_pkt *p)
{
	memset(p, 0, sizeof(*p));
	p->tp_opcode = UBOE_TP_RTP_DATA;
	p->seg = UBOE_SEG_LAST;
	p->dtpn = 5;
	p->stpn = 6;
	p->psn = 0xffffff;
	p->ta_opcode = UBOE_TA_READ_RESP;
	p->tassn = 0xfffe;
	p->rc_id = 0x12345;
	p->hdrs = OFS | TAI;
	p->offset = 2048;
	p->taid = 0x7777;
	p->payload = "xyz";
	p->payload_len = 3;
}

static void golden_send_imm_pkt(struct uboe_pkt *p)
{
	memset(p, 0, sizeof(*p));
	p->tp_opcode = UBOE_TP_RTP_DATA;
	p->seg = UBOE_SEG_ONLY;
	p->dtpn = 1;
	p->stpn = 2;
	p->ta_opcode = UBOE_TA_SEND_IMM;
	p->tassn = 3;
	p->rc_id = 4;
	p->solicited = true;
	p->hdrs = TVE | MTE | IMM | UDE;
	p->token_value = 0x01020304;
	p->mte.hint = 5;
	p->mte.tgt_id = 6;
	p->imm.data = 0x0102030405060708ULL;
	p->imm.msg_len = 4;
	p->uasid = 10;
	p->payload = "ping";
	p->payload_len = 4;
}

/*
 * Payload truncation of a golden packet with its length fixed up: what
 * the codec can tell (PAYLOAD_LEN where a length field or the opcode fixes
 * the payload; NONE where nothing does: the ICRC or the UDP checksum is
 * what catches those).
 */
struct golden {
	const char *name;
	const u8 *bytes;
	u32 len;
	u32 hdr_len;
	void (*pkt)(struct uboe_pkt *p);
	enum uboe_drop payload_cut;
};

static const struct golden goldens[] = {
	{ "write", g_write, sizeof(g_write), 48, golden_write_pkt,
	  UBOE_DROP_PAYLOAD_LEN },
	{ "ack", g_ack, sizeof(g_ack), 20, golden_ack_pkt,
	  UBOE_DROP_NONE },
	{ "mgmt", g_mgmt, sizeof(g_mgmt), 68, golden_mgmt_pkt,
	  UBOE_DROP_PAYLOAD_LEN },
	{ "read_resp", g_read_resp, sizeof(g_read_resp), 36,
	  golden_read_resp_pkt, UBOE_DROP_NONE },
	{ "send_imm", g_send_imm, sizeof(g_send_imm), 56, golden_send_imm_pkt,
	  UBOE_DROP_PAYLOAD_LEN },
};

static void golden_desc(const struct golden *g, char *desc)
{
	strscpy(desc, g->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(golden, goldens, golden_desc);

static void field_eq(struct kunit *test, u64 a, u64 b, const char *field,
		     const char *what)
{
	KUNIT_EXPECT_EQ_MSG(test, a, b, "%s: %s", what, field);
}

/* Every field of two descriptors, payload bytes included. */
static void expect_pkt_eq(struct kunit *test, const struct uboe_pkt *a,
			  const struct uboe_pkt *b, const char *what)
{
	field_eq(test, a->tp_opcode, b->tp_opcode, "tp_opcode", what);
	field_eq(test, a->seg, b->seg, "seg", what);
	field_eq(test, a->ack_req, b->ack_req, "ack_req", what);
	field_eq(test, a->icrc, b->icrc, "icrc", what);
	field_eq(test, a->has_eid, b->has_eid, "has_eid", what);
	field_eq(test, a->dtpn, b->dtpn, "dtpn", what);
	field_eq(test, a->stpn, b->stpn, "stpn", what);
	field_eq(test, a->psn, b->psn, "psn", what);
	field_eq(test, a->syndrome, b->syndrome, "syndrome", what);
	field_eq(test, a->info, b->info, "info", what);
	field_eq(test, a->window, b->window, "window", what);
	field_eq(test, a->ta_opcode, b->ta_opcode, "ta_opcode", what);
	field_eq(test, a->tassn, b->tassn, "tassn", what);
	field_eq(test, a->rc_id, b->rc_id, "rc_id", what);
	field_eq(test, a->hdrs, b->hdrs, "hdrs", what);
	field_eq(test, a->ee, b->ee, "ee", what);
	field_eq(test, a->poison, b->poison, "poison", what);
	field_eq(test, a->no_taack, b->no_taack, "no_taack", what);
	field_eq(test, a->teo, b->teo, "teo", what);
	field_eq(test, a->tco, b->tco, "tco", what);
	field_eq(test, a->rc_type, b->rc_type, "rc_type", what);
	field_eq(test, a->solicited, b->solicited, "solicited", what);
	field_eq(test, a->rspst, b->rspst, "rspst", what);
	field_eq(test, a->rspinfo, b->rspinfo, "rspinfo", what);
	field_eq(test, a->sv, b->sv, "sv", what);
	field_eq(test, a->token_value, b->token_value, "token_value", what);
	field_eq(test, a->mae.va, b->mae.va, "mae.va", what);
	field_eq(test, a->mae.token_id, b->mae.token_id, "mae.token_id", what);
	field_eq(test, a->mae.len, b->mae.len, "mae.len", what);
	field_eq(test, a->mte.tgt_id, b->mte.tgt_id, "mte.tgt_id", what);
	field_eq(test, a->mte.hint, b->mte.hint, "mte.hint", what);
	field_eq(test, a->imm.data, b->imm.data, "imm.data", what);
	field_eq(test, a->imm.token_value, b->imm.token_value,
		 "imm.token_value", what);
	field_eq(test, a->imm.msg_len, b->imm.msg_len, "imm.msg_len", what);
	field_eq(test, a->ntf.data, b->ntf.data, "ntf.data", what);
	field_eq(test, a->ntf.va, b->ntf.va, "ntf.va", what);
	field_eq(test, a->ntf.token_id, b->ntf.token_id, "ntf.token_id", what);
	field_eq(test, a->ntf.token_value, b->ntf.token_value,
		 "ntf.token_value", what);
	field_eq(test, a->inv.va, b->inv.va, "inv.va", what);
	field_eq(test, a->inv.len, b->inv.len, "inv.len", what);
	field_eq(test, a->inv.token_id, b->inv.token_id, "inv.token_id", what);
	field_eq(test, a->inv.token_value, b->inv.token_value,
		 "inv.token_value", what);
	field_eq(test, a->offset, b->offset, "offset", what);
	field_eq(test, a->taid, b->taid, "taid", what);
	field_eq(test, a->mgmt.type, b->mgmt.type, "mgmt.type", what);
	field_eq(test, a->mgmt.msg_id, b->mgmt.msg_id, "mgmt.msg_id", what);
	field_eq(test, a->uasid, b->uasid, "uasid", what);
	field_eq(test, a->payload_len, b->payload_len, "payload_len", what);
	KUNIT_EXPECT_EQ_MSG(test, memcmp(a->src_eid.raw, b->src_eid.raw, 16),
			    0, "%s: src_eid", what);
	KUNIT_EXPECT_EQ_MSG(test, memcmp(a->dst_eid.raw, b->dst_eid.raw, 16),
			    0, "%s: dst_eid", what);
	if (a->payload_len == b->payload_len && a->payload_len)
		KUNIT_EXPECT_EQ_MSG(test, memcmp(a->payload, b->payload,
						 a->payload_len), 0,
				    "%s: payload bytes", what);
}

/* The decoder reads the hand-written bytes as the fields they were made of. */
static void golden_decode(struct kunit *test)
{
	const struct golden *g = test->param_value;
	struct uboe_pkt want, got;

	g->pkt(&want);
	KUNIT_ASSERT_EQ(test, uboe_decode(g->bytes, g->len, 0, &got),
			UBOE_DROP_NONE);
	expect_pkt_eq(test, &got, &want, g->name);
	KUNIT_EXPECT_PTR_EQ(test, got.payload, (const void *)(g->bytes +
							       g->hdr_len));
	KUNIT_EXPECT_EQ(test, uboe_hdr_len(&want), (size_t)g->hdr_len);
	/* An ICRC, when there is one, is also enough when one is required. */
	KUNIT_EXPECT_EQ(test, uboe_decode(g->bytes, g->len, UBOE_DEC_NEED_ICRC,
					  &got),
			want.icrc ? UBOE_DROP_NONE : UBOE_DROP_NO_ICRC);
}

/* The encoder writes exactly the hand-written bytes. */
static void golden_encode(struct kunit *test)
{
	const struct golden *g = test->param_value;
	u8 *buf = kunit_kzalloc(test, TBUF_SIZE, GFP_KERNEL);
	struct uboe_pkt p;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	g->pkt(&p);
	KUNIT_ASSERT_EQ(test, uboe_encode(&p, buf, TBUF_SIZE), (int)g->len);
	KUNIT_EXPECT_EQ(test, memcmp(buf, g->bytes, g->len), 0);
	/* The headers alone, for a payload the caller places itself. */
	memset(buf, 0, TBUF_SIZE);
	KUNIT_ASSERT_EQ(test, uboe_encode_hdr(&p, buf, g->hdr_len),
			(int)g->hdr_len);
	KUNIT_EXPECT_EQ(test, memcmp(buf, g->bytes, g->hdr_len), 0);
	/* Exactly the room needed, and one byte less. */
	KUNIT_EXPECT_EQ(test, uboe_encode(&p, buf, g->len), (int)g->len);
	KUNIT_EXPECT_EQ(test, uboe_encode(&p, buf, g->len - 1), -ENOSPC);
	KUNIT_EXPECT_EQ(test, uboe_encode_hdr(&p, buf, g->hdr_len - 1),
			-ENOSPC);
}

/* The ICRC is the standard CRC32C, in one piece or several. */
static void icrc_crc32c(struct kunit *test)
{
	/* The CRC32C check value (RFC 3720 B.4 uses the same polynomial). */
	KUNIT_EXPECT_EQ(test, uboe_icrc(0, "123456789", 9), 0xe3069283U);
	KUNIT_EXPECT_EQ(test, uboe_icrc(uboe_icrc(0, "1234", 4), "56789", 5),
			0xe3069283U);
	KUNIT_EXPECT_EQ(test, uboe_icrc(0, g_ack, 20), 0xbc7b29eaU);
}

/* ------------------------------------------------------------------ */
/* Truncation. */

static void put_be16_at(u8 *b, u16 v)
{
	b[0] = v >> 8;
	b[1] = v;
}

/*
 * Cut at every offset. As received (pkt_len still the full length): below
 * the TPH the packet is truncated, after it pkt_len disagrees. With
 * pkt_len made to agree (as a forger would): inside the headers the
 * packet is truncated; inside the payload the opcode's own length rules
 * decide; with an ICRC the cut packet's last 4 bytes are no CRC of it.
 */
static void truncated_every_offset(struct kunit *test)
{
	const struct golden *g = test->param_value;
	u8 *buf = kunit_kzalloc(test, TBUF_SIZE, GFP_KERNEL);
	bool icrc = g->bytes[4] & 0x08;
	struct uboe_pkt p;
	u32 k;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	for (k = 0; k < g->len; k++) {
		enum uboe_drop want;

		KUNIT_EXPECT_EQ_MSG(test, uboe_decode(g->bytes, k, 0, &p),
				    k < 16 ? UBOE_DROP_TRUNCATED :
					     UBOE_DROP_LEN_MISMATCH,
				    "%s cut at %u", g->name, k);
		if (k < 16)
			continue;

		/* pkt_len fixed up */
		memcpy(buf, g->bytes, k);
		put_be16_at(buf + 2, k);
		if (icrc)
			want = k < 20 ? UBOE_DROP_TRUNCATED :
					UBOE_DROP_BAD_ICRC;
		else
			want = k < g->hdr_len ? UBOE_DROP_TRUNCATED :
						g->payload_cut;
		KUNIT_EXPECT_EQ_MSG(test, uboe_decode(buf, k, 0, &p), want,
				    "%s cut at %u, length fixed", g->name, k);

		/*
		 * ... and the ICRC flag cleared: the headers decide; these
		 * two fix their payload's length (0 and the body's 8).
		 */
		if (!icrc)
			continue;
		buf[4] &= ~0x08;
		if (k < g->hdr_len)
			want = UBOE_DROP_TRUNCATED;
		else
			want = k == g->len - 4 ? UBOE_DROP_NONE :
						 UBOE_DROP_PAYLOAD_LEN;
		KUNIT_EXPECT_EQ_MSG(test, uboe_decode(buf, k, 0, &p), want,
				    "%s cut at %u, no ICRC", g->name, k);
	}
}

/* ------------------------------------------------------------------ */
/* The TPH: length, version, ICRC, opcodes, TPNs, flags. */

static void len_mismatch(struct kunit *test)
{
	u8 buf[sizeof(g_write) + 1];
	struct uboe_pkt p;
	static const u16 lens[] = { 0, 16, 47, 55, 57, 0xffff };
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(lens); i++) {
		memcpy(buf, g_write, sizeof(g_write));
		put_be16_at(buf + 2, lens[i]);
		KUNIT_EXPECT_EQ_MSG(test, uboe_decode(buf, sizeof(g_write), 0,
						      &p),
				    UBOE_DROP_LEN_MISMATCH, "pkt_len %u",
				    lens[i]);
	}
	/* A datagram longer than its packet: one byte of trailing junk. */
	memcpy(buf, g_write, sizeof(g_write));
	buf[sizeof(g_write)] = 0;
	KUNIT_EXPECT_EQ(test, uboe_decode(buf, sizeof(buf), 0, &p),
			UBOE_DROP_LEN_MISMATCH);
	/* Longer than any UBoE packet can say it is. */
	KUNIT_EXPECT_EQ(test, uboe_decode(g_write, 0x10038, 0, &p),
			UBOE_DROP_LEN_MISMATCH);
}

/*
 * Headers in one piece, the payload beyond it: decoded from the headers
 * alone, the payload's place given by its offset. The same bytes whole
 * decode the same. Too short a head, a head longer than the packet, or
 * an ICRC the head cannot cover: dropped.
 */
static void decode_head(struct kunit *test)
{
	u32 hlen = sizeof(g_write) - 8;	/* golden_write_pkt(): 8 B payload */
	struct uboe_pkt want, got;
	u32 head;

	golden_write_pkt(&want);
	for (head = hlen; head < sizeof(g_write); head++) {
		KUNIT_ASSERT_EQ(test, uboe_decode_head(g_write, head,
						       sizeof(g_write), 0,
						       &got),
				UBOE_DROP_NONE);
		KUNIT_EXPECT_PTR_EQ(test, got.payload, NULL);
		KUNIT_EXPECT_EQ(test, got.payload_off, hlen);
		/* the payload is where its offset says */
		got.payload = g_write + got.payload_off;
		expect_pkt_eq(test, &got, &want, "write, head only");
	}
	KUNIT_ASSERT_EQ(test, uboe_decode_head(g_write, sizeof(g_write),
					       sizeof(g_write), 0, &got),
			UBOE_DROP_NONE);
	KUNIT_EXPECT_PTR_EQ(test, got.payload,
			    (const void *)(g_write + hlen));
	KUNIT_EXPECT_EQ(test, got.payload_off, hlen);
	KUNIT_EXPECT_EQ(test, uboe_decode_head(g_write, hlen - 1,
					       sizeof(g_write), 0, &got),
			UBOE_DROP_TRUNCATED);
	KUNIT_EXPECT_EQ(test, uboe_decode_head(g_write, sizeof(g_write),
					       sizeof(g_write) - 1, 0, &got),
			UBOE_DROP_LEN_MISMATCH);
	/* the management golden has an ICRC: whole, or dropped */
	KUNIT_EXPECT_EQ(test, uboe_decode_head(g_mgmt, sizeof(g_mgmt) - 1,
					       sizeof(g_mgmt), 0, &got),
			UBOE_DROP_TRUNCATED);
	KUNIT_EXPECT_EQ(test, uboe_decode_head(g_mgmt, sizeof(g_mgmt),
					       sizeof(g_mgmt), 0, &got),
			UBOE_DROP_NONE);
}

static void bad_version(struct kunit *test)
{
	u8 buf[sizeof(g_write)];
	struct uboe_pkt p;
	unsigned int v;

	for (v = 0; v < 16; v++) {
		memcpy(buf, g_write, sizeof(buf));
		buf[0] = v << 4;
		KUNIT_EXPECT_EQ_MSG(test, uboe_decode(buf, sizeof(buf), 0, &p),
				    v == UBOE_WIRE_VERSION ? UBOE_DROP_NONE :
				    UBOE_DROP_BAD_VERSION, "version %u", v);
	}
}

/*
 * Flip every bit of packets that carry an ICRC. The version nibble and
 * pkt_len are checked first; the C flag, cleared, leaves a packet whose
 * last 4 bytes are payload; any other flipped bit breaks the ICRC.
 */
static void bad_icrc(struct kunit *test)
{
	static const struct golden *const crc_pkts[] = {
		&goldens[1], &goldens[2],
	};
	u8 buf[sizeof(g_mgmt)];
	struct uboe_pkt p;
	unsigned int i, byte, bit;

	for (i = 0; i < ARRAY_SIZE(crc_pkts); i++) {
		const struct golden *g = crc_pkts[i];

		for (byte = 0; byte < g->len; byte++) {
			for (bit = 0; bit < 8; bit++) {
				enum uboe_drop want = UBOE_DROP_BAD_ICRC;

				if (byte == 0 && bit >= 4)
					want = UBOE_DROP_BAD_VERSION;
				else if (byte == 2 || byte == 3)
					want = UBOE_DROP_LEN_MISMATCH;
				else if (byte == 4 && bit == 3)
					want = UBOE_DROP_PAYLOAD_LEN;
				memcpy(buf, g->bytes, g->len);
				buf[byte] ^= 1 << bit;
				KUNIT_EXPECT_EQ_MSG(test,
						    uboe_decode(buf, g->len, 0,
								&p),
						    want, "%s byte %u bit %u",
						    g->name, byte, bit);
			}
		}
		/* The C flag cleared where an ICRC is required. */
		memcpy(buf, g->bytes, g->len);
		buf[4] &= ~0x08;
		KUNIT_EXPECT_EQ(test, uboe_decode(buf, g->len,
						  UBOE_DEC_NEED_ICRC, &p),
				UBOE_DROP_NO_ICRC);
	}
}

/* Recompute a mutated packet's ICRC (bytes 0..len-5), when it has one. */
static void reseal(u8 *buf, u32 len)
{
	u32 crc;

	if (!(buf[4] & 0x08))
		return;
	crc = uboe_icrc(0, buf, len - 4);
	buf[len - 4] = crc >> 24;
	buf[len - 3] = crc >> 16;
	buf[len - 2] = crc >> 8;
	buf[len - 1] = crc;
}

/* Mutations of the golden packets: one byte changed, one reason. */
struct mutation {
	const char *what;
	const struct golden *g;
	u32 off;
	u8 and;
	u8 or;
	enum uboe_drop want;
};

#define G_WRITE		(&goldens[0])
#define G_ACK		(&goldens[1])
#define G_MGMT		(&goldens[2])
#define G_READ_RESP	(&goldens[3])
#define G_SEND_IMM	(&goldens[4])

static const struct mutation mutations[] = {
	/* TPH opcode (byte 1) */
	{ "TP opcode 0", G_WRITE, 1, 0, 0x00, UBOE_DROP_UNKNOWN_TP_OPCODE },
	{ "TP opcode 5", G_WRITE, 1, 0, 0x05, UBOE_DROP_UNKNOWN_TP_OPCODE },
	{ "TP opcode 0xff", G_ACK, 1, 0, 0xff, UBOE_DROP_UNKNOWN_TP_OPCODE },
	{ "ACK as NAK without a code", G_ACK, 1, 0, 0x04,
	  UBOE_DROP_BAD_SYNDROME },
	/* TPNs (bytes 5..7, 9..11) */
	{ "dtpn 0x000100", G_WRITE, 7, 0, 0, UBOE_DROP_NONE },
	{ "stpn 0x000a00", G_WRITE, 11, 0, 0, UBOE_DROP_NONE },
	{ "UTP to a TPN", G_MGMT, 7, 0xff, 0x01, UBOE_DROP_BAD_TPN },
	{ "UTP from a TPN", G_MGMT, 11, 0xff, 0x01, UBOE_DROP_BAD_TPN },
	/* TPH flags (byte 4) */
	{ "UTP asking for an ACK", G_MGMT, 4, 0xff, 0x80,
	  UBOE_DROP_BAD_TP_FLAGS },
	{ "UTP FIRST only", G_MGMT, 4, 0xdf, 0, UBOE_DROP_BAD_TP_FLAGS },
	{ "ACK asking for an ACK", G_ACK, 4, 0xff, 0x80,
	  UBOE_DROP_BAD_TP_FLAGS },
	{ "ACK as FIRST", G_ACK, 4, 0xff, 0x40, UBOE_DROP_BAD_TP_FLAGS },
	/* TPACKH (bytes 16, 17) */
	{ "ACK with a syndrome", G_ACK, 16, 0, UBOE_NAK_SEQ_ERR,
	  UBOE_DROP_BAD_SYNDROME },
	{ "ACK holding 255", G_ACK, 17, 0, 0xff, UBOE_DROP_NONE },
	/* BTAH */
	{ "TAver 1", G_WRITE, 17, 0xff, 0x40, UBOE_DROP_BAD_TA_VERSION },
	{ "TAver 3", G_WRITE, 17, 0xff, 0xc0, UBOE_DROP_BAD_TA_VERSION },
	{ "EE_bits 2", G_WRITE, 17, 0xff, 0x20, UBOE_DROP_BAD_FIELD },
	{ "EE_bits 3", G_WRITE, 17, 0xff, 0x30, UBOE_DROP_BAD_FIELD },
	{ "EE_bits TEE", G_WRITE, 17, 0xff, 0x10, UBOE_DROP_NONE },
	{ "TEO 3", G_WRITE, 20, 0xff, 0xc0, UBOE_DROP_BAD_FIELD },
	{ "INI_RC_Type 2", G_WRITE, 20, 0xff, 0x10, UBOE_DROP_BAD_FIELD },
	{ "INI_RC_Type SC", G_WRITE, 20, 0xff, 0x08, UBOE_DROP_NONE },
	{ "SE on WRITE", G_WRITE, 20, 0xff, 0x04, UBOE_DROP_BAD_FIELD },
	{ "Poison", G_WRITE, 17, 0xff, 0x04, UBOE_DROP_NONE },
	{ "No_TAACK", G_WRITE, 17, 0xff, 0x01, UBOE_DROP_NONE },
	{ "TAOpcode 0x02", G_WRITE, 16, 0, 0x02, UBOE_DROP_UNKNOWN_TA_OPCODE },
	{ "Write_with_be 0x14", G_WRITE, 16, 0, 0x14,
	  UBOE_DROP_UNKNOWN_TA_OPCODE },
	{ "Prefetch_tgt 0x15", G_WRITE, 16, 0, 0x15,
	  UBOE_DROP_UNKNOWN_TA_OPCODE },
	{ "TAOpcode 0x16", G_WRITE, 16, 0, 0x16, UBOE_DROP_UNKNOWN_TA_OPCODE },
	{ "Writeback 0x17", G_WRITE, 16, 0, 0x17, UBOE_DROP_UNKNOWN_TA_OPCODE },
	{ "Writeback_with_be 0x18", G_WRITE, 16, 0, 0x18,
	  UBOE_DROP_UNKNOWN_TA_OPCODE },
	{ "WRITE_ATOMIC_ADD without NTFETAH", G_WRITE, 16, 0, 0x19,
	  UBOE_DROP_EXT_MISSING },
	{ "FLUSH with a payload", G_WRITE, 16, 0, 0x1a,
	  UBOE_DROP_PAYLOAD_LEN },
	{ "TAOpcode 0x1b", G_WRITE, 16, 0, 0x1b, UBOE_DROP_UNKNOWN_TA_OPCODE },
	{ "TAOpcode 0xff", G_WRITE, 16, 0, 0xff, UBOE_DROP_UNKNOWN_TA_OPCODE },
	{ "MANAGEMENT over RTP", G_WRITE, 16, 0, 0x10,
	  UBOE_DROP_TA_OPCODE_FOR_TP },
	{ "WRITE over UTP", G_MGMT, 48, 0, 0x03, UBOE_DROP_TA_OPCODE_FOR_TP },
	{ "READ_RESP over UTP", G_MGMT, 48, 0, 0x12,
	  UBOE_DROP_TA_OPCODE_FOR_TP },
	/* ATAH */
	{ "ATAH TAver 2", G_READ_RESP, 17, 0xff, 0x80,
	  UBOE_DROP_BAD_TA_VERSION },
	{ "ATAH SV", G_READ_RESP, 17, 0xff, 0x20, UBOE_DROP_NONE },
	{ "RSPST 5", G_READ_RESP, 20, 0xff, 0xa0, UBOE_DROP_BAD_STATUS },
	{ "RSPST 7", G_READ_RESP, 20, 0xff, 0xe0, UBOE_DROP_BAD_STATUS },
	{ "RSPST ACCESS", G_READ_RESP, 20, 0xff, 0x40, UBOE_DROP_NONE },
	{ "RSPINFO with OK", G_READ_RESP, 21, 0xff, 0x10,
	  UBOE_DROP_BAD_STATUS },
	{ "RNR timer 16", G_READ_RESP, 20, 0xff, 0x21, UBOE_DROP_NONE },
	{ "RNR timer 32", G_READ_RESP, 20, 0xff, 0x22, UBOE_DROP_BAD_STATUS },
	{ "TAACK as READ_RESP's opcode", G_READ_RESP, 16, 0, 0x11,
	  UBOE_DROP_EXT_UNEXPECTED },
	/* segment positions */
	{ "READ_RESP ONLY at an offset", G_READ_RESP, 4, 0xff, 0x40,
	  UBOE_DROP_BAD_SEGMENT },
	{ "READ_RESP MIDDLE of 3 bytes", G_READ_RESP, 4, 0xdf, 0,
	  UBOE_DROP_PAYLOAD_LEN },
	{ "WRITE LAST without offset", G_WRITE, 4, 0xbf, 0,
	  UBOE_DROP_EXT_MISSING },
	/* length fields */
	{ "MAETAH length 7", G_WRITE, 47, 0, 7, UBOE_DROP_PAYLOAD_LEN },
	{ "MAETAH length 9", G_WRITE, 47, 0, 9, UBOE_DROP_PAYLOAD_LEN },
	{ "MAETAH length 0 with data", G_WRITE, 47, 0, 0,
	  UBOE_DROP_PAYLOAD_LEN },
	{ "IMMETAH msg_len 5", G_SEND_IMM, 51, 0, 5, UBOE_DROP_PAYLOAD_LEN },
	{ "IMMETAH msg_len 3", G_SEND_IMM, 51, 0, 3, UBOE_DROP_PAYLOAD_LEN },
	{ "MGMTETAH body_len 7", G_MGMT, 63, 0, 7, UBOE_DROP_PAYLOAD_LEN },
	{ "MGMTETAH body_len 9", G_MGMT, 63, 0, 9, UBOE_DROP_PAYLOAD_LEN },
	/* MGMTETAH (bytes 60, 61) */
	{ "MGMT version 0", G_MGMT, 60, 0, 0, UBOE_DROP_BAD_MGMT_VERSION },
	{ "MGMT version 2", G_MGMT, 60, 0, 2, UBOE_DROP_BAD_MGMT_VERSION },
	{ "MGMT type 0", G_MGMT, 61, 0, 0, UBOE_DROP_UNKNOWN_MGMT_TYPE },
	{ "MGMT type 11", G_MGMT, 61, 0, 11, UBOE_DROP_UNKNOWN_MGMT_TYPE },
	{ "MGMT type 0xff", G_MGMT, 61, 0, 0xff, UBOE_DROP_UNKNOWN_MGMT_TYPE },
	{ "MGMT DCONN_NOTIFY", G_MGMT, 61, 0, UBOE_MGMT_DCONN_NOTIFY,
	  UBOE_DROP_NONE },
	{ "MGMT KEEPALIVE_REJ", G_MGMT, 61, 0, UBOE_MGMT_KEEPALIVE_REJ,
	  UBOE_DROP_NONE },
};

static void mutation_desc(const struct mutation *m, char *desc)
{
	strscpy(desc, m->what, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(mutation, mutations, mutation_desc);

/*
 * Each mutation alone yields its reason. Those that stay valid show the
 * bits next to the refused ones are not refused too: another non-zero
 * TPN (the codec does not know TPs), TEE, SC, Poison, No_TAACK, SV.
 */
static void mutated(struct kunit *test)
{
	const struct mutation *m = test->param_value;
	u8 *buf = kunit_kzalloc(test, TBUF_SIZE, GFP_KERNEL);
	struct uboe_pkt p;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	memcpy(buf, m->g->bytes, m->g->len);
	buf[m->off] = (buf[m->off] & m->and) | m->or;
	reseal(buf, m->g->len);
	KUNIT_EXPECT_EQ(test, uboe_decode(buf, m->g->len, 0, &p), m->want);
}

/* TPN 0 on a packet of a TP, either end, ACK or data. */
static void tpn_zero(struct kunit *test)
{
	static const struct { const struct golden *g; u32 off; } cases[] = {
		{ G_WRITE, 4 }, { G_WRITE, 8 }, { G_ACK, 4 }, { G_ACK, 8 },
	};
	u8 buf[sizeof(g_write)];
	struct uboe_pkt p;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		const struct golden *g = cases[i].g;

		memcpy(buf, g->bytes, g->len);
		/* keep the flag byte of flags_dtpn, clear the 24-bit TPN */
		buf[cases[i].off + 1] = 0;
		buf[cases[i].off + 2] = 0;
		buf[cases[i].off + 3] = 0;
		reseal(buf, g->len);
		KUNIT_EXPECT_EQ_MSG(test, uboe_decode(buf, g->len, 0, &p),
				    UBOE_DROP_BAD_TPN, "%s TPN at %u",
				    g->name, cases[i].off);
	}
}

/* NAK codes: SEQ_ERR with any held count, RNR with a timer up to 31. */
static void nak_codes(struct kunit *test)
{
	u8 buf[sizeof(g_ack)];
	struct uboe_pkt p;
	unsigned int code, info;

	for (code = 0; code < 256; code++) {
		for (info = 0; info < 256; info += 31) {
			enum uboe_drop want = UBOE_DROP_BAD_SYNDROME;

			if (code == UBOE_NAK_SEQ_ERR ||
			    (code == UBOE_NAK_RNR && info <= 31))
				want = UBOE_DROP_NONE;
			memcpy(buf, g_ack, sizeof(buf));
			buf[1] = UBOE_TP_NAK;
			buf[16] = code;
			buf[17] = info;
			reseal(buf, sizeof(buf));
			KUNIT_EXPECT_EQ_MSG(test, uboe_decode(buf, sizeof(buf),
							      0, &p),
					    want, "code %u info %u", code, info);
		}
	}
	/* an ACK carries no payload: without the ICRC, its 4 bytes are one */
	memcpy(buf, g_ack, sizeof(buf));
	buf[4] &= ~0x08;
	KUNIT_EXPECT_EQ(test, uboe_decode(buf, sizeof(buf), 0, &p),
			UBOE_DROP_PAYLOAD_LEN);
	buf[3] = 20;
	KUNIT_EXPECT_EQ(test, uboe_decode(buf, 20, 0, &p), UBOE_DROP_NONE);
}

/* ------------------------------------------------------------------ */
/* Reserved bits: every one, alone, is refused. */

/* A WRITE_NOTIFY and a SEND with invalidate, to reach NTFETAH, INVETAH. */
static void notify_pkt(struct uboe_pkt *p)
{
	memset(p, 0, sizeof(*p));
	p->tp_opcode = UBOE_TP_RTP_DATA;
	p->seg = UBOE_SEG_ONLY;
	p->dtpn = 1;
	p->stpn = 1;
	p->ta_opcode = UBOE_TA_WRITE_NOTIFY;
	p->hdrs = TVE | MAE | NTF;
	p->mae.len = 4;
	p->payload = "data";
	p->payload_len = 4;
}

static void send_inv_pkt(struct uboe_pkt *p)
{
	memset(p, 0, sizeof(*p));
	p->tp_opcode = UBOE_TP_RTP_DATA;
	p->seg = UBOE_SEG_ONLY;
	p->dtpn = 1;
	p->stpn = 1;
	p->ta_opcode = UBOE_TA_SEND;
	p->hdrs = TVE | MTE | INV | UDE;
}

struct rsvd_field {
	const char *what;
	u32 golden;		/* index in goldens[], or ~0: @pkt */
	void (*pkt)(struct uboe_pkt *p);
	u32 off;
	u8 mask;
};

static const struct rsvd_field rsvd_fields[] = {
	{ "TPH byte 0 [3:0]", 0, NULL, 0, 0x0f },
	{ "TPH flags [26:24]", 0, NULL, 4, 0x07 },
	{ "TPH stpn [31:24]", 0, NULL, 8, 0xff },
	{ "TPH psn [31:24]", 0, NULL, 12, 0xff },
	{ "TPH of an ACK, psn [31:24]", 1, NULL, 12, 0xff },
	{ "BTAH odr_rc [25:24]", 0, NULL, 20, 0x03 },
	{ "BTAH odr_rc [23:20]", 0, NULL, 21, 0xf0 },
	{ "BTAH ext [15:8]", 0, NULL, 24, 0xff },
	{ "BTAH rsvd", 0, NULL, 26, 0xff },
	{ "BTAH rsvd", 0, NULL, 27, 0xff },
	{ "MAETAH token_id [31:24]", 0, NULL, 40, 0xff },
	{ "MAETAH token_id [23:20]", 0, NULL, 41, 0xf0 },
	{ "ATAH flags [4:0]", 3, NULL, 17, 0x1f },
	{ "ATAH rsp_rc [28]", 3, NULL, 20, 0x10 },
	{ "ATAH ext [15:8]", 3, NULL, 24, 0xff },
	{ "ATAH rsvd", 3, NULL, 26, 0xff },
	{ "ATAH rsvd", 3, NULL, 27, 0xff },
	{ "OFSTETAH [31:24]", 3, NULL, 28, 0xff },
	{ "TAIDETAH rsvd", 3, NULL, 34, 0xff },
	{ "TAIDETAH rsvd", 3, NULL, 35, 0xff },
	{ "MTETAH [23:20]", 4, NULL, 33, 0xf0 },
	{ "SEND_IMM IMMETAH token_value", 4, NULL, 44, 0xff },
	{ "SEND_IMM IMMETAH token_value", 4, NULL, 47, 0xff },
	{ "BTAH ext [15:8] of UTP", 2, NULL, 56, 0xff },
	/* TPH 16, BTAH 12, TVETAH 4, MAETAH 16: NTFETAH at 48 */
	{ "NTFETAH token_id [31:24]", ~0U, notify_pkt, 64, 0xff },
	{ "NTFETAH token_id [23:20]", ~0U, notify_pkt, 65, 0xf0 },
	/* TPH 16, BTAH 12, TVETAH 4, MTETAH 4: INVETAH at 36 */
	{ "INVETAH token_id [31:24]", ~0U, send_inv_pkt, 52, 0xff },
	{ "INVETAH token_id [23:20]", ~0U, send_inv_pkt, 53, 0xf0 },
};

static void rsvd_desc(const struct rsvd_field *r, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s, byte %u", r->what, r->off);
}

KUNIT_ARRAY_PARAM(rsvd, rsvd_fields, rsvd_desc);

static void reserved_bits(struct kunit *test)
{
	const struct rsvd_field *r = test->param_value;
	u8 *pkt = kunit_kzalloc(test, TBUF_SIZE, GFP_KERNEL);
	u8 *buf = kunit_kzalloc(test, TBUF_SIZE, GFP_KERNEL);
	struct uboe_pkt p;
	unsigned int bit;
	int len;

	KUNIT_ASSERT_NOT_NULL(test, pkt);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	if (r->golden != ~0U) {
		len = goldens[r->golden].len;
		memcpy(pkt, goldens[r->golden].bytes, len);
	} else {
		r->pkt(&p);
		len = uboe_encode(&p, pkt, TBUF_SIZE);
		KUNIT_ASSERT_GT(test, len, 0);
	}
	KUNIT_ASSERT_EQ(test, uboe_decode(pkt, len, 0, &p), UBOE_DROP_NONE);
	for (bit = 0; bit < 8; bit++) {
		if (!(r->mask & (1 << bit)))
			continue;
		memcpy(buf, pkt, len);
		buf[r->off] |= 1 << bit;
		reseal(buf, len);
		KUNIT_EXPECT_EQ_MSG(test, uboe_decode(buf, len, 0, &p),
				    UBOE_DROP_RESERVED, "bit %u", bit);
	}
}

/* ------------------------------------------------------------------ */
/* Every TAOpcode: its headers, its segments, the round trip. */

enum payload_kind { PL_DATA, PL_MEM, PL_NONE, PL_OPERANDS, PL_WORD, PL_MGMT };

/*
 * The rules of docs/uboe-wire.md "Which headers", one line per TAOpcode:
 * which TP carries it, whether it spans packets, the headers on every
 * packet, on the last packet only, allowed anywhere, allowed on the last.
 * A memory opcode (mem) also needs TVETAH unless its length is 0; a
 * segmented one needs OFSTETAH on MIDDLE and LAST packets.
 */
static const struct op_rule {
	const char *name;
	u8 opcode;
	bool rtp, utp, seg, mem, se;
	u32 every, last, opt, opt_last;
	enum payload_kind pl;
} op_rules[] = {
	{ "SEND", UBOE_TA_SEND, 1, 1, 1, 0, 1,
	  MTE | TVE | UDE, 0, OFS, INV, PL_DATA },
	{ "SEND_IMM", UBOE_TA_SEND_IMM, 1, 1, 1, 0, 1,
	  MTE | TVE | UDE, IMM, OFS, 0, PL_DATA },
	{ "WRITE", UBOE_TA_WRITE, 1, 0, 1, 1, 0,
	  MAE, 0, TVE | OFS, 0, PL_MEM },
	{ "WRITE_IMM", UBOE_TA_WRITE_IMM, 1, 0, 1, 1, 1,
	  MAE, IMM | MTE | UDE, TVE | OFS, 0, PL_MEM },
	{ "WRITE_NOTIFY", UBOE_TA_WRITE_NOTIFY, 1, 0, 1, 1, 0,
	  MAE, NTF, TVE | OFS, 0, PL_MEM },
	{ "READ", UBOE_TA_READ, 1, 0, 0, 1, 0,
	  MAE | TAI, 0, TVE, 0, PL_NONE },
	{ "CAS", UBOE_TA_CAS, 1, 0, 0, 1, 0, MAE | TAI, 0, TVE, 0,
	  PL_OPERANDS },
	{ "SWAP", UBOE_TA_SWAP, 1, 0, 0, 1, 0, MAE | TAI, 0, TVE, 0,
	  PL_OPERANDS },
	{ "STORE", UBOE_TA_STORE, 1, 0, 0, 1, 0, MAE | TAI, 0, TVE, 0,
	  PL_OPERANDS },
	{ "LOAD", UBOE_TA_LOAD, 1, 0, 0, 1, 0, MAE | TAI, 0, TVE, 0,
	  PL_OPERANDS },
	{ "FADD", UBOE_TA_FADD, 1, 0, 0, 1, 0, MAE | TAI, 0, TVE, 0,
	  PL_OPERANDS },
	{ "FSUB", UBOE_TA_FSUB, 1, 0, 0, 1, 0, MAE | TAI, 0, TVE, 0,
	  PL_OPERANDS },
	{ "FAND", UBOE_TA_FAND, 1, 0, 0, 1, 0, MAE | TAI, 0, TVE, 0,
	  PL_OPERANDS },
	{ "FOR", UBOE_TA_FOR, 1, 0, 0, 1, 0, MAE | TAI, 0, TVE, 0,
	  PL_OPERANDS },
	{ "FXOR", UBOE_TA_FXOR, 1, 0, 0, 1, 0, MAE | TAI, 0, TVE, 0,
	  PL_OPERANDS },
	{ "MANAGEMENT", UBOE_TA_MANAGEMENT, 0, 1, 0, 0, 0,
	  MGT, 0, 0, 0, PL_MGMT },
	{ "TAACK", UBOE_TA_TAACK, 1, 0, 0, 0, 0, 0, 0, TAI, 0, PL_NONE },
	{ "READ_RESP", UBOE_TA_READ_RESP, 1, 0, 1, 0, 0,
	  TAI, 0, OFS, 0, PL_DATA },
	{ "ATOMIC_RESP", UBOE_TA_ATOMIC_RESP, 1, 0, 0, 0, 0,
	  TAI, 0, 0, 0, PL_WORD },
	{ "WRITE_ATOMIC_ADD", UBOE_TA_WRITE_ATOMIC_ADD, 1, 0, 1, 1, 0,
	  MAE, NTF, TVE | OFS, 0, PL_MEM },
	{ "FLUSH", UBOE_TA_FLUSH, 1, 0, 0, 1, 0,
	  MAE, 0, TVE, 0, PL_NONE },
};

static void op_desc(const struct op_rule *r, char *desc)
{
	strscpy(desc, r->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(op, op_rules, op_desc);

static u8 payload_bytes[4096];

static bool is_last(u8 seg)
{
	return seg & UBOE_SEG_LAST;
}

/* Headers a packet of @r at @seg must have, and may have. */
static u32 needed(const struct op_rule *r, u8 seg)
{
	u32 need = r->every | (is_last(seg) ? r->last : 0);

	if (r->seg && !(seg & UBOE_SEG_FIRST))
		need |= OFS;
	return need;
}

static u32 allowed(const struct op_rule *r, u8 seg)
{
	return needed(r, seg) | r->opt | (is_last(seg) ? r->opt_last : 0);
}

/* What the decoder leaves 0: the fields of headers a packet has not. */
static void clear_absent(struct uboe_pkt *p)
{
	if (!p->has_eid) {
		memset(&p->src_eid, 0, sizeof(p->src_eid));
		memset(&p->dst_eid, 0, sizeof(p->dst_eid));
	}
	if (!(p->hdrs & TVE))
		p->token_value = 0;
	if (!(p->hdrs & MAE))
		memset(&p->mae, 0, sizeof(p->mae));
	if (!(p->hdrs & MTE))
		memset(&p->mte, 0, sizeof(p->mte));
	if (!(p->hdrs & IMM))
		memset(&p->imm, 0, sizeof(p->imm));
	if (!(p->hdrs & NTF))
		memset(&p->ntf, 0, sizeof(p->ntf));
	if (!(p->hdrs & INV))
		memset(&p->inv, 0, sizeof(p->inv));
	if (!(p->hdrs & OFS))
		p->offset = 0;
	if (!(p->hdrs & TAI))
		p->taid = 0;
	if (!(p->hdrs & MGT))
		memset(&p->mgmt, 0, sizeof(p->mgmt));
	if (!(p->hdrs & UDE))
		p->uasid = 0;
}

/*
 * A valid packet of @r at @seg with headers @hdrs (a superset of the
 * needed ones, within the allowed ones): every field of every header set
 * to a value that uses its full width, lengths consistent. Without TVETAH
 * a memory transaction has length 0.
 */
static void fill(struct uboe_pkt *p, const struct op_rule *r, u8 tp, u8 seg,
		 u32 hdrs, bool eid, bool icrc)
{
	bool mid = !(seg & UBOE_SEG_FIRST);
	u32 len;

	memset(p, 0, sizeof(*p));
	p->tp_opcode = tp;
	p->seg = seg;
	p->icrc = icrc;
	p->has_eid = eid;
	if (tp == UBOE_TP_RTP_DATA) {
		p->dtpn = 0xfedcba;
		p->stpn = 0x000001;
		p->ack_req = is_last(seg);
	}
	p->psn = 0xabcdef;
	memset(p->src_eid.raw, 0xa5, 16);
	memset(p->dst_eid.raw, 0x5a, 16);
	p->ta_opcode = r->opcode;
	p->tassn = 0xbeef;
	p->rc_id = 0xfffff;
	p->hdrs = hdrs;
	if (uboe_ta_is_response(r->opcode)) {
		p->sv = true;
		if (r->opcode == UBOE_TA_TAACK) {
			p->rspst = UBOE_RSPST_RNR;
			p->rspinfo = 31;
		}
	} else {
		p->ee = UBOE_EE_TEE;
		p->teo = UBOE_TEO_RO;
		p->tco = true;
		p->rc_type = UBOE_RC_SC;
		p->no_taack = r->opcode == UBOE_TA_MANAGEMENT;
		p->solicited = r->se;
	}
	p->token_value = 0x89abcdef;
	p->mae.va = 0xfedcba9876543210ULL;
	p->mae.token_id = 0xfffff;
	p->mte.tgt_id = 0xabcde;
	p->mte.hint = 0xff;
	p->imm.data = 0x0123456789abcdefULL;
	p->imm.token_value = r->opcode == UBOE_TA_WRITE_IMM ? 0xffffffff : 0;
	p->ntf.data = 0x1122334455667788ULL;
	p->ntf.va = 0xffffffffffff0008ULL;
	p->ntf.token_id = 0x80001;
	p->ntf.token_value = 0xfffffffe;
	p->inv.va = 0x8000000000000000ULL;
	p->inv.len = 0xffffffff00000000ULL;
	p->inv.token_id = 0x7ffff;
	p->inv.token_value = 1;
	/* 4 GiB - 4 KiB: MAETAH length (32 bits) still holds offset + 100 */
	p->offset = (hdrs & OFS) && mid ? 0x3ffffcULL << 10 : 0;
	p->taid = 0xfffe;
	p->mgmt.type = UBOE_MGMT_CONN_REUSE_REP;
	p->mgmt.msg_id = 0xffffffff;
	p->uasid = 0xffffffff;

	len = is_last(seg) ? 100 : 2048;
	switch (r->pl) {
	case PL_DATA:
		p->payload_len = len;
		break;
	case PL_MEM:
		if (!(hdrs & TVE)) {
			p->mae.len = 0;
			break;
		}
		p->payload_len = len;
		p->mae.len = is_last(seg) ? p->offset + len : 0xffffffff;
		break;
	case PL_NONE:
		p->mae.len = (r->mem && (hdrs & TVE)) ? 0x10000 : 0;
		break;
	case PL_OPERANDS:
		p->payload_len = 16;
		p->mae.len = 8;
		break;
	case PL_WORD:
		p->payload_len = 8;
		break;
	case PL_MGMT:
		p->payload_len = 24;
		break;
	}
	if (hdrs & IMM)
		p->imm.msg_len = r->opcode == UBOE_TA_WRITE_IMM ? p->mae.len :
				 p->offset + p->payload_len;
	p->payload = payload_bytes;
	clear_absent(p);
}

/* The length of the encoded packet, from the sizes of the layout. */
static u32 wire_len(const struct uboe_pkt *p)
{
	u32 len = 16 + (p->has_eid ? 32 : 0) + 12 + p->payload_len +
		  (p->icrc ? 4 : 0);
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(ext_hdrs); i++)
		if (p->hdrs & ext_hdrs[i].bit)
			len += ext_hdrs[i].size;
	return len;
}

/* Headers that are neither needed nor fixed: each subset is tried. */
static u32 optional(const struct op_rule *r, u8 seg)
{
	u32 opt = allowed(r, seg) & ~needed(r, seg);

	/* TVETAH is optional only where the length may be 0. */
	if (r->mem && (r->pl == PL_OPERANDS || seg != UBOE_SEG_ONLY))
		opt &= ~TVE;
	return opt;
}

static u32 nth_subset(u32 set, u32 n)
{
	u32 sub = 0, bit;

	for (bit = 1; set; bit <<= 1) {
		if (!(set & bit))
			continue;
		if (n & 1)
			sub |= bit;
		n >>= 1;
		set &= ~bit;
	}
	return sub;
}

/* Encode and decode one packet; false when it did not come back. */
static bool round_trip_one(struct kunit *test, const struct uboe_pkt *p,
			   u8 *buf)
{
	struct uboe_pkt got;
	int len = uboe_encode(p, buf, TBUF_SIZE);
	enum uboe_drop drop;

	KUNIT_EXPECT_EQ_MSG(test, len, (int)wire_len(p),
			    "seg %u hdrs %#x eid %d icrc %d", p->seg, p->hdrs,
			    p->has_eid, p->icrc);
	if (len <= 0)
		return false;
	drop = uboe_decode(buf, len, p->icrc ? UBOE_DEC_NEED_ICRC : 0, &got);
	KUNIT_EXPECT_EQ_MSG(test, drop, UBOE_DROP_NONE,
			    "seg %u hdrs %#x eid %d icrc %d", p->seg, p->hdrs,
			    p->has_eid, p->icrc);
	if (drop)
		return false;
	expect_pkt_eq(test, &got, p, "round trip");
	return true;
}

/*
 * Every TP that carries the opcode, every segment position it may take,
 * every subset of its optional headers, with and without EIDH and ICRC:
 * the encoder writes the length the layout says, the decoder returns
 * every field, and so does it with an ICRC required when there is one.
 */
static void op_round_trip(struct kunit *test)
{
	const struct op_rule *r = test->param_value;
	u8 *buf = kunit_kzalloc(test, TBUF_SIZE, GFP_KERNEL);
	unsigned int tp, seg, n, x, count = 0;
	struct uboe_pkt p;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	for (n = 0; n < sizeof(payload_bytes); n++)
		payload_bytes[n] = n * 7 + r->opcode;
	for (tp = UBOE_TP_RTP_DATA; tp <= UBOE_TP_UTP_DATA; tp++) {
		bool utp = tp == UBOE_TP_UTP_DATA;

		if (!(utp ? r->utp : r->rtp))
			continue;
		for (seg = 0; seg <= UBOE_SEG_ONLY; seg++) {
			u32 opt = optional(r, seg);
			u32 need = needed(r, seg);

			if (seg != UBOE_SEG_ONLY && (!r->seg || utp))
				continue;
			if (r->mem && !(opt & TVE))
				need |= TVE;
			for (n = 0; n < 1U << hweight32(opt); n++) {
				for (x = 0; x < 4; x++) {
					fill(&p, r, tp, seg,
					     need | nth_subset(opt, n),
					     (x & 1) || utp, x & 2);
					if (!round_trip_one(test, &p, buf))
						return;
					count++;
				}
			}
		}
	}
	kunit_info(test, "%u packets", count);
	KUNIT_EXPECT_GE(test, count, 4U);
}

/* Wire offset of header @bit in packet @b (without EIDH), for @hdrs. */
static u32 ext_offset(u32 hdrs, u32 bit)
{
	u32 off = 16 + 12;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(ext_hdrs) && ext_hdrs[i].bit != bit; i++)
		if (hdrs & ext_hdrs[i].bit)
			off += ext_hdrs[i].size;
	return off;
}

/* Set or clear the presence of header @bit in the BTAH/ATAH at @ta. */
static void set_present(u8 *ta, u32 bit, bool on)
{
	u16 ext = ta[8] << 8 | ta[9];
	u8 flag = bit == TVE ? 0x08 : bit == UDE ? 0x02 : 0;

	if (flag) {
		ta[1] = on ? ta[1] | flag : ta[1] & ~flag;
		return;
	}
	ext = on ? ext | bit : ext & ~bit;
	put_be16_at(ta + 8, ext);
}

/*
 * With the EIDH (UTP) the headers move by 32 bytes: the packet is built
 * on RTP where the opcode allows it, so only MANAGEMENT needs the shift.
 */
static void op_headers(struct kunit *test)
{
	const struct op_rule *r = test->param_value;
	u8 *pkt = kunit_kzalloc(test, TBUF_SIZE, GFP_KERNEL);
	u8 *buf = kunit_kzalloc(test, TBUF_SIZE, GFP_KERNEL);
	u8 tp = r->rtp ? UBOE_TP_RTP_DATA : UBOE_TP_UTP_DATA;
	u32 shift = tp == UBOE_TP_UTP_DATA ? 32 : 0;
	u32 need = needed(r, UBOE_SEG_ONLY) | (r->mem ? TVE : 0);
	u32 allow = allowed(r, UBOE_SEG_ONLY) | (r->mem ? TVE : 0);
	struct uboe_pkt p, q;
	unsigned int i;
	int len;

	KUNIT_ASSERT_NOT_NULL(test, pkt);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	fill(&p, r, tp, UBOE_SEG_ONLY, need, tp == UBOE_TP_UTP_DATA, false);
	len = uboe_encode(&p, pkt, TBUF_SIZE);
	KUNIT_ASSERT_GT(test, len, 0);

	for (i = 0; i < ARRAY_SIZE(ext_hdrs); i++) {
		u32 bit = ext_hdrs[i].bit;
		u32 off = ext_offset(need, bit) + shift;
		u32 size = ext_hdrs[i].size;
		enum uboe_drop want;
		int blen;

		/* the encoder refuses the same headers the decoder drops */
		q = p;
		q.hdrs ^= bit;
		if (bit == IMM)
			q.imm.msg_len = p.payload_len;
		KUNIT_EXPECT_EQ_MSG(test, uboe_encode(&q, buf, TBUF_SIZE) > 0,
				    !(need & bit) && (allow & bit),
				    "encode with %s %s", ext_hdrs[i].name,
				    need & bit ? "removed" : "added");

		/* ATAH has no TV_EN or UD_Flag: the reserved_bits case */
		if ((bit == TVE || bit == UDE) && uboe_ta_is_response(r->opcode))
			continue;
		memcpy(buf, pkt, off);
		if (need & bit) {
			memcpy(buf + off, pkt + off + size, len - off - size);
			blen = len - size;
			want = UBOE_DROP_EXT_MISSING;
		} else {
			memset(buf + off, 0, size);
			if (bit == MGT) {
				buf[off] = UBOE_MGMT_VERSION;
				buf[off + 1] = UBOE_MGMT_CONN_REQ;
				put_be16_at(buf + off + 2, p.payload_len);
			}
			if (bit == IMM)
				buf[off + 15] = p.payload_len;
			memcpy(buf + off + size, pkt + off, len - off);
			blen = len + size;
			want = allow & bit ? UBOE_DROP_NONE :
					     UBOE_DROP_EXT_UNEXPECTED;
		}
		set_present(buf + 16 + shift, bit, !(need & bit));
		put_be16_at(buf + 2, blen);
		KUNIT_EXPECT_EQ_MSG(test, uboe_decode(buf, blen, 0, &q), want,
				    "%s %s", ext_hdrs[i].name,
				    need & bit ? "removed" : "added");
	}
}

/*
 * The segment positions: a one-packet opcode is ONLY; a segmented one's
 * FIRST and MIDDLE packets carry a non-zero multiple of 1 KiB, and only
 * non-first packets an offset. Checked on the encoder and, for the bytes,
 * by flipping F and L in an encoded packet.
 */
static void op_segments(struct kunit *test)
{
	const struct op_rule *r = test->param_value;
	u8 tp = r->rtp ? UBOE_TP_RTP_DATA : UBOE_TP_UTP_DATA;
	u8 *buf = kunit_kzalloc(test, TBUF_SIZE, GFP_KERNEL);
	struct uboe_pkt p;
	unsigned int seg;
	int len;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	for (seg = 0; seg < UBOE_SEG_ONLY; seg++) {
		u32 hdrs = needed(r, seg) | (r->mem ? TVE : 0);

		fill(&p, r, tp, seg, hdrs, tp == UBOE_TP_UTP_DATA, false);
		if (!r->seg) {
			KUNIT_EXPECT_EQ_MSG(test, uboe_check(&p),
					    tp == UBOE_TP_UTP_DATA ?
					    UBOE_DROP_BAD_TP_FLAGS :
					    UBOE_DROP_BAD_SEGMENT,
					    "seg %u", seg);
			KUNIT_EXPECT_EQ(test, uboe_encode(&p, buf, TBUF_SIZE),
					-EINVAL);
			/* the bytes: an ONLY packet with F or L cleared */
			fill(&p, r, tp, UBOE_SEG_ONLY, hdrs,
			     tp == UBOE_TP_UTP_DATA, false);
			len = uboe_encode(&p, buf, TBUF_SIZE);
			KUNIT_ASSERT_GT(test, len, 0);
			buf[4] = (buf[4] & ~0x60) | (seg & 1 ? 0x40 : 0) |
				 (seg & 2 ? 0x20 : 0);
			KUNIT_EXPECT_EQ_MSG(test, uboe_decode(buf, len, 0, &p),
					    tp == UBOE_TP_UTP_DATA ?
					    UBOE_DROP_BAD_TP_FLAGS :
					    UBOE_DROP_BAD_SEGMENT,
					    "seg %u", seg);
			continue;
		}
		KUNIT_EXPECT_EQ_MSG(test, uboe_check(&p), UBOE_DROP_NONE,
				    "seg %u", seg);
		if (is_last(seg))
			continue;
		/* FIRST and MIDDLE: a whole number of KiB, not 0 */
		p.payload_len = 1000;
		KUNIT_EXPECT_EQ_MSG(test, uboe_check(&p), UBOE_DROP_PAYLOAD_LEN,
				    "seg %u, 1000 bytes", seg);
		p.payload_len = 0;
		KUNIT_EXPECT_EQ_MSG(test, uboe_check(&p), UBOE_DROP_PAYLOAD_LEN,
				    "seg %u, no payload", seg);
		p.payload_len = 3072;
		KUNIT_EXPECT_EQ_MSG(test, uboe_check(&p), UBOE_DROP_NONE,
				    "seg %u, 3 KiB", seg);
	}
	if (!r->seg)
		return;
	/* An offset on a first packet. */
	fill(&p, r, tp, UBOE_SEG_FIRST, needed(r, UBOE_SEG_FIRST) | OFS |
	     (r->mem ? TVE : 0), false, false);
	p.offset = 1024;
	KUNIT_EXPECT_EQ(test, uboe_check(&p), UBOE_DROP_BAD_SEGMENT);
	p.offset = 0;
	KUNIT_EXPECT_EQ(test, uboe_check(&p), UBOE_DROP_NONE);
}

/*
 * One byte more and one byte less of payload, length fields unchanged
 * (pkt_len follows): dropped wherever the opcode or a length field fixes
 * the payload (every opcode but SEND and READ_RESP, whose last packet may
 * carry any length). Atomics: operands of 8 bytes only.
 */
static void op_payload_len(struct kunit *test)
{
	const struct op_rule *r = test->param_value;
	u8 tp = r->rtp ? UBOE_TP_RTP_DATA : UBOE_TP_UTP_DATA;
	u32 hdrs = needed(r, UBOE_SEG_ONLY) | (r->mem ? TVE : 0);
	u8 *buf = kunit_kzalloc(test, TBUF_SIZE, GFP_KERNEL);
	enum uboe_drop want = UBOE_DROP_PAYLOAD_LEN;
	struct uboe_pkt p, q;
	int len;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	if (r->opcode == UBOE_TA_SEND || r->opcode == UBOE_TA_READ_RESP)
		want = UBOE_DROP_NONE;
	fill(&p, r, tp, UBOE_SEG_ONLY, hdrs, !r->rtp, false);
	len = uboe_encode(&p, buf, TBUF_SIZE);
	KUNIT_ASSERT_GT(test, len, 0);
	buf[len] = 0x55;
	put_be16_at(buf + 2, len + 1);
	KUNIT_EXPECT_EQ_MSG(test, uboe_decode(buf, len + 1, 0, &q), want,
			    "one byte more");
	if (p.payload_len) {
		put_be16_at(buf + 2, len - 1);
		KUNIT_EXPECT_EQ_MSG(test, uboe_decode(buf, len - 1, 0, &q),
				    want, "one byte less");
	}
	if (r->pl != PL_OPERANDS)
		return;
	fill(&p, r, tp, UBOE_SEG_ONLY, hdrs, false, false);
	p.mae.len = 4;
	KUNIT_EXPECT_EQ(test, uboe_check(&p), UBOE_DROP_PAYLOAD_LEN);
	p.payload_len = 8;
	KUNIT_EXPECT_EQ(test, uboe_check(&p), UBOE_DROP_PAYLOAD_LEN);
	p.mae.len = 16;
	p.payload_len = 32;
	KUNIT_EXPECT_EQ(test, uboe_check(&p), UBOE_DROP_PAYLOAD_LEN);
}

/* The wrong TP for the opcode, ACK/NAK for any. */
static void op_wrong_tp(struct kunit *test)
{
	const struct op_rule *r = test->param_value;
	u32 hdrs = needed(r, UBOE_SEG_ONLY) | (r->mem ? TVE : 0);
	struct uboe_pkt p;

	if (!r->utp) {
		fill(&p, r, UBOE_TP_UTP_DATA, UBOE_SEG_ONLY, hdrs, true, false);
		KUNIT_EXPECT_EQ(test, uboe_check(&p),
				UBOE_DROP_TA_OPCODE_FOR_TP);
	}
	if (!r->rtp) {
		fill(&p, r, UBOE_TP_RTP_DATA, UBOE_SEG_ONLY, hdrs, true, false);
		p.dtpn = 1;
		p.stpn = 1;
		KUNIT_EXPECT_EQ(test, uboe_check(&p),
				UBOE_DROP_TA_OPCODE_FOR_TP);
	}
	/* Only SEND, SEND_IMM and WRITE_IMM may ask for a solicited event. */
	if (!uboe_ta_is_response(r->opcode)) {
		fill(&p, r, r->rtp ? UBOE_TP_RTP_DATA : UBOE_TP_UTP_DATA,
		     UBOE_SEG_ONLY, hdrs, !r->rtp, false);
		p.solicited = true;
		KUNIT_EXPECT_EQ(test, uboe_check(&p),
				r->se ? UBOE_DROP_NONE : UBOE_DROP_BAD_FIELD);
	}
}

/*
 * A packet the decoder accepts is in the one form the encoder writes: no
 * bit of it is ignored. From every opcode's ONLY packet and the goldens,
 * 1 to 3 random bits flipped (fixed seed): whatever is accepted encodes
 * back to the same bytes, and the decoder never reads outside the packet
 * (KASAN watches the kzalloc'ed copy, sized to the packet).
 */
static u32 xorshift(u32 *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 17;
	*s ^= *s << 5;
	return *s;
}

/* Flip 1 to 3 bits of @seed; true when the result is accepted. */
static bool flip_and_decode(struct kunit *test, const u8 *seed, int len,
			    u32 *rnd, u8 *out)
{
	u8 *buf = kmalloc(len, GFP_KERNEL);
	struct uboe_pkt p;
	bool accepted;
	unsigned int k;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	memcpy(buf, seed, len);
	for (k = xorshift(rnd) % 3; k < 3; k++) {
		u32 bit = xorshift(rnd) % (len * 8);

		buf[bit / 8] ^= 1 << (bit % 8);
	}
	accepted = uboe_decode(buf, len, 0, &p) == UBOE_DROP_NONE;
	if (accepted) {
		KUNIT_EXPECT_EQ(test, uboe_encode(&p, out, TBUF_SIZE), len);
		KUNIT_EXPECT_EQ(test, memcmp(out, buf, len), 0);
	}
	kfree(buf);
	return accepted;
}

static void accepted_is_canonical(struct kunit *test)
{
	u8 *seed = kunit_kzalloc(test, TBUF_SIZE, GFP_KERNEL);
	u8 *out = kunit_kzalloc(test, TBUF_SIZE, GFP_KERNEL);
	unsigned int i, n, accepted = 0, dropped = 0;
	u32 rnd = 0x2545f491;
	struct uboe_pkt p;

	KUNIT_ASSERT_NOT_NULL(test, seed);
	KUNIT_ASSERT_NOT_NULL(test, out);
	for (i = 0; i < ARRAY_SIZE(op_rules) + ARRAY_SIZE(goldens); i++) {
		const struct op_rule *r = &op_rules[i % ARRAY_SIZE(op_rules)];
		int len;

		if (i < ARRAY_SIZE(op_rules)) {
			fill(&p, r, r->rtp ? UBOE_TP_RTP_DATA :
			     UBOE_TP_UTP_DATA, UBOE_SEG_ONLY,
			     needed(r, UBOE_SEG_ONLY) | (r->mem ? TVE : 0),
			     !r->rtp, i & 1);
			len = uboe_encode(&p, seed, TBUF_SIZE);
			KUNIT_ASSERT_GT(test, len, 0);
		} else {
			len = goldens[i - ARRAY_SIZE(op_rules)].len;
			memcpy(seed, goldens[i - ARRAY_SIZE(op_rules)].bytes,
			       len);
		}
		for (n = 0; n < 200; n++) {
			if (flip_and_decode(test, seed, len, &rnd, out))
				accepted++;
			else
				dropped++;
		}
	}
	kunit_info(test, "%u accepted, %u dropped", accepted, dropped);
	KUNIT_EXPECT_GT(test, accepted, 0U);
	KUNIT_EXPECT_GT(test, dropped, 0U);
}

/* ------------------------------------------------------------------ */
/* The encoder's refusals. */

static void encode_refuses(struct kunit *test)
{
	u8 *buf = kunit_kzalloc(test, TBUF_SIZE, GFP_KERNEL);
	struct uboe_pkt p;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	golden_write_pkt(&p);
	p.payload = NULL;
	KUNIT_EXPECT_EQ(test, uboe_encode(&p, buf, TBUF_SIZE), -EINVAL);

	/* fields wider than the wire's */
	golden_write_pkt(&p);
	p.mae.token_id = 0x100000;
	KUNIT_EXPECT_EQ(test, uboe_check(&p), UBOE_DROP_BAD_FIELD);
	KUNIT_EXPECT_EQ(test, uboe_encode(&p, buf, TBUF_SIZE), -EINVAL);
	golden_write_pkt(&p);
	p.rc_id = 0x100000;
	KUNIT_EXPECT_EQ(test, uboe_check(&p), UBOE_DROP_BAD_FIELD);
	golden_write_pkt(&p);
	p.dtpn = 0x1000000;
	KUNIT_EXPECT_EQ(test, uboe_check(&p), UBOE_DROP_BAD_FIELD);
	golden_write_pkt(&p);
	p.psn = 0x1000000;
	KUNIT_EXPECT_EQ(test, uboe_check(&p), UBOE_DROP_BAD_FIELD);
	golden_write_pkt(&p);
	p.hdrs |= 0x100;
	KUNIT_EXPECT_EQ(test, uboe_check(&p), UBOE_DROP_BAD_FIELD);
	golden_write_pkt(&p);
	p.ee = 2;
	KUNIT_EXPECT_EQ(test, uboe_check(&p), UBOE_DROP_BAD_FIELD);
	golden_write_pkt(&p);
	p.rspst = UBOE_RSPST_ACCESS;
	KUNIT_EXPECT_EQ(test, uboe_check(&p), UBOE_DROP_BAD_FIELD);
	golden_read_resp_pkt(&p);
	p.solicited = true;
	KUNIT_EXPECT_EQ(test, uboe_check(&p), UBOE_DROP_BAD_FIELD);

	/* offsets: whole KiB, 24 bits of them */
	golden_read_resp_pkt(&p);
	p.offset = 2047;
	KUNIT_EXPECT_EQ(test, uboe_check(&p), UBOE_DROP_BAD_FIELD);
	p.offset = 1ULL << 34;
	KUNIT_EXPECT_EQ(test, uboe_check(&p), UBOE_DROP_BAD_FIELD);
	p.offset = (1ULL << 34) - 1024;
	KUNIT_EXPECT_EQ(test, uboe_check(&p), UBOE_DROP_NONE);

	/* no TAOpcode UBoE does not carry, no unknown TP opcode */
	golden_write_pkt(&p);
	p.ta_opcode = 0x14;
	KUNIT_EXPECT_EQ(test, uboe_check(&p), UBOE_DROP_UNKNOWN_TA_OPCODE);
	p.tp_opcode = 0;
	KUNIT_EXPECT_EQ(test, uboe_check(&p), UBOE_DROP_UNKNOWN_TP_OPCODE);

	/* a management message of an unknown type */
	golden_mgmt_pkt(&p);
	p.has_eid = false;
	KUNIT_EXPECT_EQ(test, uboe_check(&p), UBOE_DROP_BAD_TP_FLAGS);
	golden_mgmt_pkt(&p);
	p.mgmt.type = UBOE_MGMT_TYPE_MAX + 1;
	KUNIT_EXPECT_EQ(test, uboe_encode(&p, buf, TBUF_SIZE), -EINVAL);

	/* too long for a UDP datagram: UBOE_MAX_PKT is 65507 */
	golden_read_resp_pkt(&p);
	p.payload = payload_bytes;
	p.payload_len = 65507 - 36;
	KUNIT_EXPECT_EQ(test, uboe_encode_hdr(&p, buf, TBUF_SIZE), 36);
	p.payload_len++;
	KUNIT_EXPECT_EQ(test, uboe_encode_hdr(&p, buf, TBUF_SIZE), -EMSGSIZE);
	p.payload_len -= 4;
	p.icrc = true;
	KUNIT_EXPECT_EQ(test, uboe_encode_hdr(&p, buf, TBUF_SIZE), -EMSGSIZE);
}

/* Every reason has its own name; these are the counters' file names. */
static void drop_names(struct kunit *test)
{
	unsigned int i, j;

	KUNIT_EXPECT_STREQ(test, uboe_drop_name(UBOE_DROP_NONE), "none");
	KUNIT_EXPECT_STREQ(test, uboe_drop_name(UBOE_DROP_TRUNCATED),
			   "truncated");
	KUNIT_EXPECT_STREQ(test, uboe_drop_name(UBOE_DROP_LEN_MISMATCH),
			   "len_mismatch");
	KUNIT_EXPECT_STREQ(test, uboe_drop_name(UBOE_DROP_BAD_ICRC),
			   "bad_icrc");
	KUNIT_EXPECT_STREQ(test, uboe_drop_name(UBOE_DROP_RESERVED),
			   "reserved_set");
	KUNIT_EXPECT_STREQ(test, uboe_drop_name(UBOE_DROP_EID_NOT_HERE),
			   "eid_not_here");
	KUNIT_EXPECT_STREQ(test, uboe_drop_name(UBOE_DROP_MAX), "invalid");
	KUNIT_EXPECT_STREQ(test, uboe_drop_name((enum uboe_drop)-1),
			   "invalid");
	for (i = 0; i < UBOE_DROP_MAX; i++) {
		const char *name = uboe_drop_name(i);

		KUNIT_EXPECT_NOT_NULL(test, name);
		if (!name)
			continue;
		KUNIT_EXPECT_GT_MSG(test, strlen(name), 0UL, "reason %u", i);
		KUNIT_EXPECT_STRNEQ(test, name, "invalid");
		for (j = 0; j < i; j++)
			KUNIT_EXPECT_STRNEQ(test, name, uboe_drop_name(j));
	}
}

static struct kunit_case uboe_codec_cases[] = {
	KUNIT_CASE_PARAM(golden_decode, golden_gen_params),
	KUNIT_CASE_PARAM(golden_encode, golden_gen_params),
	KUNIT_CASE(icrc_crc32c),
	KUNIT_CASE_PARAM(truncated_every_offset, golden_gen_params),
	KUNIT_CASE(len_mismatch),
	KUNIT_CASE(decode_head),
	KUNIT_CASE(bad_version),
	KUNIT_CASE(bad_icrc),
	KUNIT_CASE_PARAM(mutated, mutation_gen_params),
	KUNIT_CASE(tpn_zero),
	KUNIT_CASE(nak_codes),
	KUNIT_CASE_PARAM(reserved_bits, rsvd_gen_params),
	KUNIT_CASE_PARAM(op_round_trip, op_gen_params),
	KUNIT_CASE_PARAM(op_headers, op_gen_params),
	KUNIT_CASE_PARAM(op_segments, op_gen_params),
	KUNIT_CASE_PARAM(op_payload_len, op_gen_params),
	KUNIT_CASE_PARAM(op_wrong_tp, op_gen_params),
	KUNIT_CASE(accepted_is_canonical),
	KUNIT_CASE(encode_refuses),
	KUNIT_CASE(drop_names),
	{}
};

static struct kunit_suite uboe_codec_suite = {
	.name = "udma_uboe_codec",
	.test_cases = uboe_codec_cases,
};

kunit_test_suite(uboe_codec_suite);
