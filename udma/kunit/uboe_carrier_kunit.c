// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * KUnit tests of the UBoE carrier's pure parts (udma/uboe_carrier.c): a
 * request or a response message to its packet and back through the codec,
 * for every opcode the requester sends with the headers it needs
 * (include/uapi/ub/uboe_wire.h, docs/uboe-wire.md), the room a packet
 * leaves for its payload at an MTU, and the CQE status of a request that
 * could not be sent (urma_cr_status_t numbers of urma_opcode.h).
 */
#include <kunit/test.h>
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "../target.h"
#include "../uboe_carrier.h"

#define CBUF_SIZE	4096
#define C_STPN		0x000a0b
#define C_DTPN		0x0c0d0e
#define C_PSN		0x123456
#define C_RC_ID		0x00abc

#define MAE	UBOE_EXT_MAETAH
#define MTE	UBOE_EXT_MTETAH
#define IMM	UBOE_EXT_IMMETAH
#define NTF	UBOE_EXT_NTFETAH
#define INV	UBOE_EXT_INVETAH
#define TAI	UBOE_EXT_TAIDETAH
#define TVE	UBOE_X_TVETAH
#define UDE	UBOE_X_UDETAH

/*
 * What the requester (req.c) sends for each URMA opcode: the TAOpcode and
 * the extension headers the wire format asks for (uboe_wire.h: MAETAH
 * for memory transactions with TVETAH when it has a length, MTETAH +
 * TVETAH + UDETAH for messages, IMMETAH with immediate data, NTFETAH for
 * WRITE_NOTIFY, TAIDETAH for READ and the atomics, INVETAH for SEND with
 * invalidate), and the payload bytes.
 */
static const struct {
	const char *name;
	u8 ta;
	u32 hdrs;
	u32 len;
} c_reqs[] = {
	{ "SEND", 0x00, MTE | TVE | UDE, 300 },
	{ "SEND_IMM", 0x01, MTE | TVE | UDE | IMM, 64 },
	{ "SEND_INVALIDATE", 0x00, MTE | TVE | UDE | INV, 8 },
	{ "WRITE", 0x03, MAE | TVE, 1024 },
	{ "WRITE_IMM", 0x04, MAE | TVE | IMM | MTE | UDE, 16 },
	{ "WRITE_NOTIFY", 0x05, MAE | TVE | NTF, 32 },
	{ "READ", 0x06, MAE | TVE | TAI, 0 },
	{ "CAS", 0x07, MAE | TVE | TAI, 16 },
	{ "SWAP", 0x08, MAE | TVE | TAI, 16 },
	{ "FADD", 0x0b, MAE | TVE | TAI, 16 },
	{ "FSUB", 0x0c, MAE | TVE | TAI, 16 },
	{ "FAND", 0x0d, MAE | TVE | TAI, 16 },
	{ "FOR", 0x0e, MAE | TVE | TAI, 16 },
	{ "FXOR", 0x0f, MAE | TVE | TAI, 16 },
};

static void c_eid(union ubcore_eid *eid, u8 last)
{
	memset(eid, 0, sizeof(*eid));
	eid->raw[10] = 0xff;
	eid->raw[11] = 0xff;
	eid->raw[12] = 127;
	eid->raw[15] = last;
}

/* A request as req.c builds it, with the headers and fields of @i. */
static void c_req(struct udma_msg *m, unsigned int i)
{
	struct uboe_pkt *p = &m->pkt;

	memset(m, 0, sizeof(*m));
	p->tp_opcode = UBOE_TP_RTP_DATA;
	p->seg = UBOE_SEG_ONLY;
	p->psn = C_PSN;
	p->has_eid = true;
	c_eid(&p->src_eid, 1);
	c_eid(&p->dst_eid, 2);
	p->ta_opcode = c_reqs[i].ta;
	p->tassn = C_PSN & 0xffff;
	p->rc_id = C_RC_ID;
	p->tco = true;
	p->hdrs = c_reqs[i].hdrs;
	p->token_value = 0x5a5a5a5a;
	p->uasid = 7;
	p->mte.tgt_id = 33;
	p->mae.va = 0x7f0000001000ULL;
	p->mae.token_id = 0x54321;
	p->mae.len = p->ta_opcode >= 0x07 ? 8 : c_reqs[i].len;
	if (p->ta_opcode == 0x06)
		p->mae.len = 512;
	p->imm.data = 0xabcdef0123ULL;
	if (p->hdrs & IMM)
		p->imm.msg_len = p->ta_opcode == 0x04 ? p->mae.len :
				 c_reqs[i].len;
	if (p->ta_opcode == 0x04)
		p->imm.token_value = 0x2222;
	p->ntf.data = 0x1122;
	p->ntf.va = 0x7f0000002000ULL;
	p->ntf.token_id = 0x12;
	p->ntf.token_value = 0x34;
	p->inv.va = 0x7f0000003000ULL;
	p->inv.len = 4096;
	p->inv.token_id = 0x56;
	p->inv.token_value = 0x78;
	if (p->hdrs & TAI)
		p->taid = C_PSN & 0xffff;
	p->solicited = p->ta_opcode <= 0x01;
}

/* The messages of a case (too large for the stack together). */
struct c_ctx {
	struct udma_msg req, wreq, rsp, r;
	struct udma_local_buf pl, rpl;
};

static struct c_ctx *c_ctx(struct kunit *test)
{
	struct c_ctx *c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, c);
	return c;
}

static void c_fill(u8 *b, u32 len, u8 seed)
{
	u32 i;

	for (i = 0; i < len; i++)
		b[i] = seed + i * 13;
}

/*
 * @m with @len bytes of @data to a packet, encoded, decoded, and back to
 * a message in @out whose payload points into @buf.
 */
static void c_round_trip(struct kunit *test, const struct udma_msg *m,
			 u32 stpn, u32 dtpn, const u8 *data, u32 len, u8 *buf,
			 struct udma_local_buf *pl, struct udma_msg *out)
{
	struct uboe_pkt pkt, dec;
	int n;

	udma_uboe_msg_to_pkt(m, stpn, dtpn, data, len, &pkt);
	KUNIT_ASSERT_EQ(test, uboe_check(&pkt), UBOE_DROP_NONE);
	n = uboe_encode(&pkt, buf, CBUF_SIZE);
	KUNIT_ASSERT_GT(test, n, 0);
	KUNIT_ASSERT_EQ(test, (size_t)n, uboe_hdr_len(&pkt) + len);
	memset(&dec, 0, sizeof(dec));
	KUNIT_ASSERT_EQ(test, uboe_decode(buf, n, 0, &dec), UBOE_DROP_NONE);
	udma_uboe_pkt_to_msg(&dec, pl, out);
}

/* Every request: the packet carries its fields and its payload. */
static void carrier_requests(struct kunit *test)
{
	u8 *buf = kunit_kzalloc(test, CBUF_SIZE, GFP_KERNEL);
	u8 *data = kunit_kzalloc(test, CBUF_SIZE, GFP_KERNEL);
	struct c_ctx *c = c_ctx(test);
	struct udma_local_buf *pl = &c->pl;
	struct udma_msg *m = &c->req, *r = &c->r;
	unsigned int i;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	KUNIT_ASSERT_NOT_NULL(test, data);
	for (i = 0; i < ARRAY_SIZE(c_reqs); i++) {
		u32 len = c_reqs[i].len;

		kunit_info(test, "%s", c_reqs[i].name);
		c_fill(data, len, i);
		c_req(m, i);
		c_round_trip(test, m, C_STPN, C_DTPN, data, len, buf, pl, r);
		KUNIT_EXPECT_EQ(test, r->pkt.tp_opcode, UBOE_TP_RTP_DATA);
		KUNIT_EXPECT_EQ(test, r->pkt.seg, UBOE_SEG_ONLY);
		KUNIT_EXPECT_EQ(test, r->pkt.stpn, C_STPN);
		KUNIT_EXPECT_EQ(test, r->pkt.dtpn, C_DTPN);
		KUNIT_EXPECT_EQ(test, r->pkt.psn, C_PSN);
		KUNIT_EXPECT_EQ(test, r->pkt.ta_opcode, c_reqs[i].ta);
		KUNIT_EXPECT_EQ(test, r->pkt.hdrs, c_reqs[i].hdrs);
		KUNIT_EXPECT_EQ(test, r->pkt.rc_id, C_RC_ID);
		KUNIT_EXPECT_EQ(test, r->pkt.tassn, C_PSN & 0xffff);
		KUNIT_EXPECT_TRUE(test, r->pkt.has_eid);
		KUNIT_EXPECT_EQ(test, memcmp(&r->pkt.src_eid, &m->pkt.src_eid,
					     sizeof(m->pkt.src_eid)), 0);
		KUNIT_EXPECT_EQ(test, memcmp(&r->pkt.dst_eid, &m->pkt.dst_eid,
					     sizeof(m->pkt.dst_eid)), 0);
		KUNIT_EXPECT_EQ(test, r->pkt.token_value, 0x5a5a5a5a);
		if (c_reqs[i].hdrs & MAE) {
			KUNIT_EXPECT_EQ(test, r->pkt.mae.va, 0x7f0000001000ULL);
			KUNIT_EXPECT_EQ(test, r->pkt.mae.token_id, 0x54321);
			KUNIT_EXPECT_EQ(test, r->pkt.mae.len, m->pkt.mae.len);
		}
		if (c_reqs[i].hdrs & MTE) {
			KUNIT_EXPECT_EQ(test, r->pkt.mte.tgt_id, 33);
			KUNIT_EXPECT_EQ(test, r->pkt.uasid, 7);
		}
		if (c_reqs[i].hdrs & IMM)
			KUNIT_EXPECT_EQ(test, r->pkt.imm.data, 0xabcdef0123ULL);
		if (c_reqs[i].hdrs & NTF) {
			KUNIT_EXPECT_EQ(test, r->pkt.ntf.va,
					0x7f0000002000ULL);
			KUNIT_EXPECT_EQ(test, r->pkt.ntf.data, 0x1122);
		}
		if (c_reqs[i].hdrs & INV) {
			KUNIT_EXPECT_EQ(test, r->pkt.inv.va,
					0x7f0000003000ULL);
			KUNIT_EXPECT_EQ(test, r->pkt.inv.len, 4096);
		}
		if (c_reqs[i].hdrs & TAI)
			KUNIT_EXPECT_EQ(test, r->pkt.taid, C_PSN & 0xffff);
		/* the message's payload: the packet's bytes, in place */
		KUNIT_EXPECT_EQ(test, udma_msg_len(r), (u64)len);
		KUNIT_EXPECT_NULL(test, r->pkt.payload);
		if (!len) {
			KUNIT_EXPECT_NULL(test, r->payload);
			continue;
		}
		KUNIT_ASSERT_PTR_EQ(test, r->payload,
				    (const struct udma_local_buf *)pl);
		KUNIT_EXPECT_EQ(test, pl->nr, 0);
		KUNIT_EXPECT_PTR_EQ(test, pl->inline_data,
				    (const void *)(buf + uboe_hdr_len(&r->pkt)));
		KUNIT_EXPECT_EQ(test, memcmp(pl->inline_data, data, len), 0);
	}
}

/* UM: a SEND on UTP, no TP at either end. */
static void carrier_um_send(struct kunit *test)
{
	u8 *buf = kunit_kzalloc(test, CBUF_SIZE, GFP_KERNEL);
	struct udma_local_buf pl;
	struct udma_msg m, r;
	static const u8 data[] = "datagram";

	KUNIT_ASSERT_NOT_NULL(test, buf);
	c_req(&m, 0);
	m.pkt.tp_opcode = UBOE_TP_UTP_DATA;
	c_round_trip(test, &m, 0, 0, data, sizeof(data), buf, &pl, &r);
	KUNIT_EXPECT_EQ(test, r.pkt.tp_opcode, UBOE_TP_UTP_DATA);
	KUNIT_EXPECT_EQ(test, r.pkt.stpn, 0);
	KUNIT_EXPECT_EQ(test, r.pkt.dtpn, 0);
	KUNIT_EXPECT_EQ(test, udma_msg_len(&r), sizeof(data));
	/* a TP's request needs both TPNs */
	udma_uboe_msg_to_pkt(&m, 0, 0, data, sizeof(data), &r.pkt);
	r.pkt.tp_opcode = UBOE_TP_RTP_DATA;
	KUNIT_EXPECT_EQ(test, uboe_check(&r.pkt), UBOE_DROP_BAD_TPN);
}

/*
 * Responses (udma_resp_init()): back over the same TP, the TPNs and EIDs
 * swapped, PSN, INI_TASSN, INI_RC_ID and TAIDETAH echoed; READ_RESP with
 * the data, ATOMIC_RESP with the old value, TAACK with a status.
 */
static void carrier_responses(struct kunit *test)
{
	u8 *buf = kunit_kzalloc(test, CBUF_SIZE, GFP_KERNEL);
	u8 *data = kunit_kzalloc(test, CBUF_SIZE, GFP_KERNEL);
	struct c_ctx *c = c_ctx(test);
	__be64 old = cpu_to_be64(0x1122334455667788ULL);

	KUNIT_ASSERT_NOT_NULL(test, buf);
	KUNIT_ASSERT_NOT_NULL(test, data);
	/* a READ as it arrives: from the peer's TPN C_STPN to ours C_DTPN */
	c_req(&c->req, 6);
	c_round_trip(test, &c->req, C_STPN, C_DTPN, NULL, 0, buf, &c->pl, &c->wreq);
	udma_resp_init(&c->rsp, &c->wreq, UBOE_RSPST_OK);
	c->rsp.pkt.ta_opcode = UBOE_TA_READ_RESP;
	c_fill(data, 512, 3);
	c->rpl = (struct udma_local_buf){ .inline_data = data, .total = 512 };
	c->rsp.payload = &c->rpl;
	c_round_trip(test, &c->rsp, c->rsp.pkt.stpn, c->rsp.pkt.dtpn, data, 512, buf,
		     &c->pl, &c->r);
	KUNIT_EXPECT_EQ(test, c->r.pkt.ta_opcode, UBOE_TA_READ_RESP);
	KUNIT_EXPECT_EQ(test, c->r.pkt.stpn, C_DTPN);
	KUNIT_EXPECT_EQ(test, c->r.pkt.dtpn, C_STPN);
	KUNIT_EXPECT_EQ(test, c->r.pkt.psn, C_PSN);
	KUNIT_EXPECT_EQ(test, c->r.pkt.tassn, C_PSN & 0xffff);
	KUNIT_EXPECT_EQ(test, c->r.pkt.rc_id, C_RC_ID);
	KUNIT_EXPECT_EQ(test, c->r.pkt.hdrs, TAI);
	KUNIT_EXPECT_EQ(test, c->r.pkt.taid, C_PSN & 0xffff);
	KUNIT_EXPECT_EQ(test, c->r.pkt.rspst, UBOE_RSPST_OK);
	KUNIT_EXPECT_EQ(test, memcmp(&c->r.pkt.src_eid, &c->req.pkt.dst_eid,
				     sizeof(c->req.pkt.dst_eid)), 0);
	KUNIT_EXPECT_EQ(test, memcmp(&c->r.pkt.dst_eid, &c->req.pkt.src_eid,
				     sizeof(c->req.pkt.src_eid)), 0);
	KUNIT_EXPECT_EQ(test, udma_msg_len(&c->r), 512);
	KUNIT_EXPECT_EQ(test, memcmp(c->r.payload->inline_data, data, 512), 0);

	/* an atomic's old value: 8 bytes, big-endian */
	c_req(&c->req, 9);
	c_round_trip(test, &c->req, C_STPN, C_DTPN, data, 16, buf, &c->pl, &c->wreq);
	udma_resp_init(&c->rsp, &c->wreq, UBOE_RSPST_OK);
	c->rsp.pkt.ta_opcode = UBOE_TA_ATOMIC_RESP;
	c_round_trip(test, &c->rsp, c->rsp.pkt.stpn, c->rsp.pkt.dtpn, (u8 *)&old, 8,
		     buf, &c->pl, &c->r);
	KUNIT_EXPECT_EQ(test, c->r.pkt.ta_opcode, UBOE_TA_ATOMIC_RESP);
	KUNIT_EXPECT_EQ(test, udma_msg_len(&c->r), 8);
	KUNIT_EXPECT_EQ(test, memcmp(c->r.payload->inline_data, &old, 8), 0);

	/* a refusal: a TAACK without payload */
	c_req(&c->req, 3);
	c_round_trip(test, &c->req, C_STPN, C_DTPN, data, 1024, buf, &c->pl, &c->wreq);
	udma_resp_init(&c->rsp, &c->wreq, UBOE_RSPST_ACCESS);
	c_round_trip(test, &c->rsp, c->rsp.pkt.stpn, c->rsp.pkt.dtpn, NULL, 0, buf,
		     &c->pl, &c->r);
	KUNIT_EXPECT_EQ(test, c->r.pkt.ta_opcode, UBOE_TA_TAACK);
	KUNIT_EXPECT_EQ(test, c->r.pkt.rspst, UBOE_RSPST_ACCESS);
	KUNIT_EXPECT_EQ(test, c->r.pkt.hdrs, 0);
	KUNIT_EXPECT_NULL(test, c->r.payload);
}

/*
 * The payload room: MTU - IP - UDP (8) - the packet's headers - ICRC (4),
 * within the 65507 bytes of a UDP payload. A WRITE's headers: TPH 16,
 * EIDH 32, BTAH 12, TVETAH 4, MAETAH 16 = 80; a READ's 84 (TAIDETAH).
 */
static void carrier_max_payload(struct kunit *test)
{
	struct udma_msg m;

	c_req(&m, 3);
	KUNIT_EXPECT_EQ(test, udma_uboe_max_payload(1500, true, &m.pkt),
			1500 - 20 - 8 - 80 - 4);
	KUNIT_EXPECT_EQ(test, udma_uboe_max_payload(1500, false, &m.pkt),
			1500 - 40 - 8 - 80 - 4);
	KUNIT_EXPECT_EQ(test, udma_uboe_max_payload(9000, false, &m.pkt),
			9000 - 40 - 8 - 80 - 4);
	/* lo: the UDP payload limit, not the MTU, decides */
	KUNIT_EXPECT_EQ(test, udma_uboe_max_payload(65536, true, &m.pkt),
			65507 - 80 - 4);
	c_req(&m, 6);
	KUNIT_EXPECT_EQ(test, udma_uboe_max_payload(1500, true, &m.pkt),
			1500 - 20 - 8 - 84 - 4);
	/* no room at all */
	KUNIT_EXPECT_EQ(test, udma_uboe_max_payload(100, false, &m.pkt), 0);
	KUNIT_EXPECT_EQ(test, udma_uboe_max_payload(20, true, &m.pkt), 0);
}

/* urma_cr_status_t: LOC_LEN_ERR 2, LOC_OPERATION_ERR 3, LOC_ACCESS_ERR 4. */
static void carrier_tx_status(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, udma_uboe_tx_status(-EMSGSIZE), 2);
	KUNIT_EXPECT_EQ(test, udma_uboe_tx_status(-EFAULT), 4);
	KUNIT_EXPECT_EQ(test, udma_uboe_tx_status(-ENETUNREACH), 3);
	KUNIT_EXPECT_EQ(test, udma_uboe_tx_status(-ENOMEM), 3);
	KUNIT_EXPECT_EQ(test, udma_uboe_tx_status(-EINVAL), 3);
}

static struct kunit_case carrier_cases[] = {
	KUNIT_CASE(carrier_requests),
	KUNIT_CASE(carrier_um_send),
	KUNIT_CASE(carrier_responses),
	KUNIT_CASE(carrier_max_payload),
	KUNIT_CASE(carrier_tx_status),
	{}
};

static struct kunit_suite carrier_suite = {
	.name = "udma_uboe_carrier",
	.test_cases = carrier_cases,
};

kunit_test_suite(carrier_suite);
