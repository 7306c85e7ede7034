// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * The UBoE packet codec (uboe_codec.h): struct uboe_pkt to bytes and back,
 * in the layout of include/uapi/ub/uboe_wire.h.
 *
 * The decoder reads a packet in wire order and stops at the first fault:
 * the TPH (length, version, ICRC, reserved bits, opcode), then each header
 * the packet announces (truncation, reserved bits, reserved values), then
 * the rules of its opcode (uboe_check(): which headers, which segment
 * positions, which payload lengths), the same rules the encoder applies
 * before it writes anything.
 */
#include <linux/bug.h>
#include <linux/crc32.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/string.h>
#include <kunit/visibility.h>
#include <asm/unaligned.h>

#include "uboe_codec.h"

static_assert(sizeof(struct uboe_tph) == 16);
static_assert(sizeof(struct uboe_eidh) == 32);
static_assert(sizeof(struct uboe_tpackh) == 4);
static_assert(sizeof(struct uboe_btah) == 12);
static_assert(sizeof(struct uboe_atah) == 12);
static_assert(sizeof(struct uboe_tvetah) == 4);
static_assert(sizeof(struct uboe_maetah) == 16);
static_assert(sizeof(struct uboe_mtetah) == 4);
static_assert(sizeof(struct uboe_immetah) == 16);
static_assert(sizeof(struct uboe_ntfetah) == 24);
static_assert(sizeof(struct uboe_invetah) == 24);
static_assert(sizeof(struct uboe_ofstetah) == 4);
static_assert(sizeof(struct uboe_taidetah) == 4);
static_assert(sizeof(struct uboe_mgmtetah) == 8);
static_assert(sizeof(struct uboe_udetah) == 4);
static_assert(UBOE_X_TVETAH > UBOE_EXT_RSVD && UBOE_X_UDETAH > UBOE_EXT_RSVD);

static const char * const uboe_drop_names[UBOE_DROP_MAX] = {
	[UBOE_DROP_NONE]		= "none",
	[UBOE_DROP_TRUNCATED]		= "truncated",
	[UBOE_DROP_LEN_MISMATCH]	= "len_mismatch",
	[UBOE_DROP_BAD_VERSION]		= "bad_version",
	[UBOE_DROP_NO_ICRC]		= "no_icrc",
	[UBOE_DROP_BAD_ICRC]		= "bad_icrc",
	[UBOE_DROP_RESERVED]		= "reserved_set",
	[UBOE_DROP_UNKNOWN_TP_OPCODE]	= "unknown_tp_opcode",
	[UBOE_DROP_BAD_TP_FLAGS]	= "bad_tp_flags",
	[UBOE_DROP_BAD_TPN]		= "bad_tpn",
	[UBOE_DROP_BAD_SYNDROME]	= "bad_syndrome",
	[UBOE_DROP_BAD_TA_VERSION]	= "bad_ta_version",
	[UBOE_DROP_UNKNOWN_TA_OPCODE]	= "unknown_ta_opcode",
	[UBOE_DROP_TA_OPCODE_FOR_TP]	= "ta_opcode_for_tp",
	[UBOE_DROP_BAD_FIELD]		= "bad_field",
	[UBOE_DROP_BAD_STATUS]		= "bad_status",
	[UBOE_DROP_EXT_MISSING]		= "ext_missing",
	[UBOE_DROP_EXT_UNEXPECTED]	= "ext_unexpected",
	[UBOE_DROP_BAD_SEGMENT]		= "bad_segment",
	[UBOE_DROP_PAYLOAD_LEN]		= "payload_len",
	[UBOE_DROP_BAD_MGMT_VERSION]	= "bad_mgmt_version",
	[UBOE_DROP_UNKNOWN_MGMT_TYPE]	= "unknown_mgmt_type",
	[UBOE_DROP_UNKNOWN_TPN]		= "unknown_tpn",
	[UBOE_DROP_EID_NOT_HERE]	= "eid_not_here",
	[UBOE_DROP_MGMT_BODY_LEN]	= "mgmt_body_len",
	[UBOE_DROP_MGMT_BODY_VERSION]	= "mgmt_body_version",
	[UBOE_DROP_MGMT_EID_MISMATCH]	= "mgmt_eid_mismatch",
	[UBOE_DROP_MGMT_REFUSED]	= "mgmt_refused",
};

/**
 * uboe_drop_name() - the name of a drop reason
 * @drop: the reason
 *
 * Return: a lower-case identifier fit for a counter's file name in sysfs,
 * or "invalid" for a value that is no reason.
 */
const char *uboe_drop_name(enum uboe_drop drop)
{
	if ((unsigned int)drop >= UBOE_DROP_MAX)
		return "invalid";
	return uboe_drop_names[drop];
}
EXPORT_SYMBOL_IF_KUNIT(uboe_drop_name);

/**
 * uboe_icrc() - CRC32C of a packet's bytes, in pieces
 * @crc: 0 for the first piece, else the value returned for the previous one
 * @buf: the bytes
 * @len: number of bytes
 *
 * Return: the CRC32C (reflected, initial value and final xor 0xffffffff)
 * of all pieces so far: the ICRC when the last piece is in.
 */
u32 uboe_icrc(u32 crc, const void *buf, size_t len)
{
	return ~__crc32c_le(~crc, buf, len);
}
EXPORT_SYMBOL_IF_KUNIT(uboe_icrc);

/**
 * uboe_put_icrc() - end an encoded packet with its ICRC
 * @buf: the packet, its last UBOE_ICRC_SIZE bytes the ICRC's room
 * @total: its length, ICRC included
 */
void uboe_put_icrc(void *buf, size_t total)
{
	put_unaligned_be32(uboe_icrc(0, buf, total - UBOE_ICRC_SIZE),
			   (u8 *)buf + total - UBOE_ICRC_SIZE);
}

/* How a TAOpcode travels, the headers it takes and its payload. */
#define UBOE_K_RTP	0x01	/* over RTP_DATA */
#define UBOE_K_UTP	0x02	/* over UTP_DATA */
#define UBOE_K_SEG	0x04	/* in several packets (FIRST..LAST) */
#define UBOE_K_MEM	0x08	/* a TVETAH whenever MAETAH length != 0 */
#define UBOE_K_SE	0x10	/* may ask for a solicited event */

enum uboe_payload_rule {
	UBOE_PL_ANY,		/* FIRST, MIDDLE: a non-zero multiple of 1 KiB */
	UBOE_PL_MEM_WRITE,	/* and offset + payload within MAETAH length */
	UBOE_PL_NONE,		/* no payload */
	UBOE_PL_OPERANDS,	/* MAETAH length 8, two 8-byte operands */
	UBOE_PL_WORD,		/* one 8-byte value */
	UBOE_PL_MGMT,		/* the management message body */
};

/**
 * struct uboe_ta_rule - what a TAOpcode's packets are made of
 * @kind: UBOE_K_*; 0: UBoE does not carry the opcode
 * @every: headers on every packet
 * @last: headers on the LAST (or ONLY) packet, and only there
 * @opt: headers any packet may have
 * @opt_last: headers the LAST (or ONLY) packet may have
 * @payload: enum uboe_payload_rule
 */
struct uboe_ta_rule {
	u8 kind;
	u32 every;
	u32 last;
	u32 opt;
	u32 opt_last;
	u8 payload;
};

#define UBOE_ATOMIC_RULE {						\
	.kind = UBOE_K_RTP | UBOE_K_MEM,				\
	.every = UBOE_EXT_MAETAH | UBOE_EXT_TAIDETAH,			\
	.opt = UBOE_X_TVETAH,						\
	.payload = UBOE_PL_OPERANDS,					\
}

/*
 * Indexed by TAOpcode. Seed ub-transaction-layer: MAETAH "Memory 事务必选",
 * MTETAH "Message 事务必选", TVETAH "安全验证时必选" (not for a memory
 * transaction of length 0, always for a message), TAIDETAH for READ and
 * its response, IMMETAH with the immediate data, NTFETAH on the last
 * packet of Write_with_notify, MGMTETAH "Management 事务必选".
 */
static const struct uboe_ta_rule uboe_ta_rules[] = {
	[UBOE_TA_SEND] = {
		.kind = UBOE_K_RTP | UBOE_K_UTP | UBOE_K_SEG | UBOE_K_SE,
		.every = UBOE_EXT_MTETAH | UBOE_X_TVETAH | UBOE_X_UDETAH,
		.opt = UBOE_EXT_OFSTETAH,
		.opt_last = UBOE_EXT_INVETAH,
		.payload = UBOE_PL_ANY,
	},
	[UBOE_TA_SEND_IMM] = {
		.kind = UBOE_K_RTP | UBOE_K_UTP | UBOE_K_SEG | UBOE_K_SE,
		.every = UBOE_EXT_MTETAH | UBOE_X_TVETAH | UBOE_X_UDETAH,
		.last = UBOE_EXT_IMMETAH,
		.opt = UBOE_EXT_OFSTETAH,
		.payload = UBOE_PL_ANY,
	},
	[UBOE_TA_WRITE] = {
		.kind = UBOE_K_RTP | UBOE_K_SEG | UBOE_K_MEM,
		.every = UBOE_EXT_MAETAH,
		.opt = UBOE_X_TVETAH | UBOE_EXT_OFSTETAH,
		.payload = UBOE_PL_MEM_WRITE,
	},
	[UBOE_TA_WRITE_IMM] = {
		.kind = UBOE_K_RTP | UBOE_K_SEG | UBOE_K_MEM | UBOE_K_SE,
		.every = UBOE_EXT_MAETAH,
		.last = UBOE_EXT_IMMETAH | UBOE_EXT_MTETAH | UBOE_X_UDETAH,
		.opt = UBOE_X_TVETAH | UBOE_EXT_OFSTETAH,
		.payload = UBOE_PL_MEM_WRITE,
	},
	[UBOE_TA_WRITE_NOTIFY] = {
		.kind = UBOE_K_RTP | UBOE_K_SEG | UBOE_K_MEM,
		.every = UBOE_EXT_MAETAH,
		.last = UBOE_EXT_NTFETAH,
		.opt = UBOE_X_TVETAH | UBOE_EXT_OFSTETAH,
		.payload = UBOE_PL_MEM_WRITE,
	},
	[UBOE_TA_READ] = {
		.kind = UBOE_K_RTP | UBOE_K_MEM,
		.every = UBOE_EXT_MAETAH | UBOE_EXT_TAIDETAH,
		.opt = UBOE_X_TVETAH,
		.payload = UBOE_PL_NONE,
	},
	[UBOE_TA_CAS] = UBOE_ATOMIC_RULE,
	[UBOE_TA_SWAP] = UBOE_ATOMIC_RULE,
	[UBOE_TA_STORE] = UBOE_ATOMIC_RULE,
	[UBOE_TA_LOAD] = UBOE_ATOMIC_RULE,
	[UBOE_TA_FADD] = UBOE_ATOMIC_RULE,
	[UBOE_TA_FSUB] = UBOE_ATOMIC_RULE,
	[UBOE_TA_FAND] = UBOE_ATOMIC_RULE,
	[UBOE_TA_FOR] = UBOE_ATOMIC_RULE,
	[UBOE_TA_FXOR] = UBOE_ATOMIC_RULE,
	[UBOE_TA_MANAGEMENT] = {
		.kind = UBOE_K_UTP,
		.every = UBOE_EXT_MGMTETAH,
		.payload = UBOE_PL_MGMT,
	},
	[UBOE_TA_TAACK] = {
		.kind = UBOE_K_RTP,
		.opt = UBOE_EXT_TAIDETAH,
		.payload = UBOE_PL_NONE,
	},
	[UBOE_TA_READ_RESP] = {
		.kind = UBOE_K_RTP | UBOE_K_SEG,
		.every = UBOE_EXT_TAIDETAH,
		.opt = UBOE_EXT_OFSTETAH,
		.payload = UBOE_PL_ANY,
	},
	[UBOE_TA_ATOMIC_RESP] = {
		.kind = UBOE_K_RTP,
		.every = UBOE_EXT_TAIDETAH,
		.payload = UBOE_PL_WORD,
	},
	/* ours: URMA's WRITE_ATOMIC, a WRITE_NOTIFY that adds (NTFETAH) */
	[UBOE_TA_WRITE_ATOMIC_ADD] = {
		.kind = UBOE_K_RTP | UBOE_K_SEG | UBOE_K_MEM,
		.every = UBOE_EXT_MAETAH,
		.last = UBOE_EXT_NTFETAH,
		.opt = UBOE_X_TVETAH | UBOE_EXT_OFSTETAH,
		.payload = UBOE_PL_MEM_WRITE,
	},
	/* ours: URMA's FLUSH_DMA, a range and no data */
	[UBOE_TA_FLUSH] = {
		.kind = UBOE_K_RTP | UBOE_K_MEM,
		.every = UBOE_EXT_MAETAH,
		.opt = UBOE_X_TVETAH,
		.payload = UBOE_PL_NONE,
	},
};

#define UBOE_ATOMIC_SIZE	8
#define UBOE_OFST_UNIT		BIT(UBOE_OFST_SHIFT)
#define UBOE_HDRS_ALL		(UBOE_EXT_MAETAH | UBOE_EXT_MTETAH |	\
				 UBOE_EXT_IMMETAH | UBOE_EXT_NTFETAH |	\
				 UBOE_EXT_INVETAH | UBOE_EXT_OFSTETAH |	\
				 UBOE_EXT_TAIDETAH | UBOE_EXT_MGMTETAH |	\
				 UBOE_X_TVETAH | UBOE_X_UDETAH)

static bool uboe_is_response(u8 ta_opcode)
{
	return uboe_ta_is_response(ta_opcode);
}

static const struct uboe_ta_rule *uboe_ta_rule(u8 ta_opcode)
{
	if (ta_opcode >= ARRAY_SIZE(uboe_ta_rules) ||
	    !uboe_ta_rules[ta_opcode].kind)
		return NULL;
	return &uboe_ta_rules[ta_opcode];
}

/**
 * uboe_last_hdrs() - the extension headers only the LAST (or ONLY)
 *	packet of a TAOpcode's transaction may have
 * @ta_opcode: the TAOpcode
 *
 * Return: UBOE_EXT_* and UBOE_X_* bits (0 for an unknown opcode).
 */
u32 uboe_last_hdrs(u8 ta_opcode)
{
	const struct uboe_ta_rule *r = uboe_ta_rule(ta_opcode);

	return r ? r->last | r->opt_last : 0;
}
EXPORT_SYMBOL_IF_KUNIT(uboe_last_hdrs);

/* Values wider than their wire fields (only a descriptor can hold them). */
static bool uboe_fields_fit(const struct uboe_pkt *p)
{
	return !(p->seg & ~UBOE_SEG_ONLY) && !(p->hdrs & ~UBOE_HDRS_ALL) &&
	       !(p->rc_id & ~UBOE_ID_MASK) &&
	       !(p->mae.token_id & ~UBOE_ID_MASK) &&
	       !(p->mte.tgt_id & ~UBOE_ID_MASK) &&
	       !(p->ntf.token_id & ~UBOE_ID_MASK) &&
	       !(p->inv.token_id & ~UBOE_ID_MASK) &&
	       IS_ALIGNED(p->offset, UBOE_OFST_UNIT) &&
	       !((p->offset >> UBOE_OFST_SHIFT) & ~(u64)UBOE_OFST_MASK);
}

/* The BTAH fields a request has and a response has not, and vice versa. */
static enum uboe_drop uboe_check_ta_fields(const struct uboe_pkt *p,
					   const struct uboe_ta_rule *r)
{
	if (uboe_is_response(p->ta_opcode)) {
		if (p->ee || p->poison || p->no_taack || p->teo || p->tco ||
		    p->rc_type || p->solicited)
			return UBOE_DROP_BAD_FIELD;
		if (p->rspst > UBOE_RSPST_UNSUPPORTED)
			return UBOE_DROP_BAD_STATUS;
		if (p->rspst == UBOE_RSPST_RNR ?
		    p->rspinfo > UBOE_RNR_TIMER_MAX : p->rspinfo)
			return UBOE_DROP_BAD_STATUS;
		return UBOE_DROP_NONE;
	}
	if (p->rspst || p->rspinfo || p->sv)
		return UBOE_DROP_BAD_FIELD;
	if (p->ee > UBOE_EE_TEE || p->teo > UBOE_TEO_SO ||
	    p->rc_type > UBOE_RC_SC)
		return UBOE_DROP_BAD_FIELD;
	if (p->solicited && !(r->kind & UBOE_K_SE))
		return UBOE_DROP_BAD_FIELD;
	if (p->ta_opcode == UBOE_TA_SEND_IMM && (p->hdrs & UBOE_EXT_IMMETAH) &&
	    p->imm.token_value)
		return UBOE_DROP_RESERVED;
	if ((p->hdrs & UBOE_EXT_MGMTETAH) && (!p->mgmt.type ||
					      p->mgmt.type > UBOE_MGMT_TYPE_MAX))
		return UBOE_DROP_UNKNOWN_MGMT_TYPE;
	return UBOE_DROP_NONE;
}

/* Which headers the packet has against those its opcode and place take. */
static enum uboe_drop uboe_check_hdrs(const struct uboe_pkt *p,
				      const struct uboe_ta_rule *r)
{
	bool last = p->seg & UBOE_SEG_LAST;
	u32 need = r->every | (last ? r->last : 0);
	u32 allow = need | r->opt | (last ? r->opt_last : 0);

	if ((r->kind & UBOE_K_MEM) && p->mae.len)
		need |= UBOE_X_TVETAH;
	if (!(p->seg & UBOE_SEG_FIRST) && (r->opt & UBOE_EXT_OFSTETAH))
		need |= UBOE_EXT_OFSTETAH;
	if (need & ~p->hdrs)
		return UBOE_DROP_EXT_MISSING;
	if (p->hdrs & ~allow)
		return UBOE_DROP_EXT_UNEXPECTED;
	if (p->seg != UBOE_SEG_ONLY && !(r->kind & UBOE_K_SEG))
		return UBOE_DROP_BAD_SEGMENT;
	if ((p->seg & UBOE_SEG_FIRST) && (p->hdrs & UBOE_EXT_OFSTETAH) &&
	    p->offset)
		return UBOE_DROP_BAD_SEGMENT;
	return UBOE_DROP_NONE;
}

/* The payload's length against the opcode and the length fields. */
static enum uboe_drop uboe_check_payload(const struct uboe_pkt *p,
					 const struct uboe_ta_rule *r)
{
	u64 end = ((p->hdrs & UBOE_EXT_OFSTETAH) ? p->offset : 0) +
		  p->payload_len;
	bool last = p->seg & UBOE_SEG_LAST;

	if (!last && (!p->payload_len ||
		      !IS_ALIGNED(p->payload_len, UBOE_OFST_UNIT)))
		return UBOE_DROP_PAYLOAD_LEN;
	switch (r->payload) {
	case UBOE_PL_MEM_WRITE:
		if (end > p->mae.len || (last && end != p->mae.len))
			return UBOE_DROP_PAYLOAD_LEN;
		break;
	case UBOE_PL_NONE:
		if (p->payload_len)
			return UBOE_DROP_PAYLOAD_LEN;
		break;
	case UBOE_PL_OPERANDS:
		if (p->mae.len != UBOE_ATOMIC_SIZE ||
		    p->payload_len != 2 * UBOE_ATOMIC_SIZE)
			return UBOE_DROP_PAYLOAD_LEN;
		break;
	case UBOE_PL_WORD:
		if (p->payload_len != UBOE_ATOMIC_SIZE)
			return UBOE_DROP_PAYLOAD_LEN;
		break;
	default:
		break;
	}
	if (p->hdrs & UBOE_EXT_IMMETAH) {
		u64 msg_len = p->ta_opcode == UBOE_TA_WRITE_IMM ? p->mae.len :
				end;

		if (p->imm.msg_len != msg_len)
			return UBOE_DROP_PAYLOAD_LEN;
	}
	return UBOE_DROP_NONE;
}

static enum uboe_drop uboe_check_ta(const struct uboe_pkt *p)
{
	const struct uboe_ta_rule *r = uboe_ta_rule(p->ta_opcode);
	u8 via = p->tp_opcode == UBOE_TP_RTP_DATA ? UBOE_K_RTP : UBOE_K_UTP;
	enum uboe_drop drop;

	if (!r)
		return UBOE_DROP_UNKNOWN_TA_OPCODE;
	if (!(r->kind & via))
		return UBOE_DROP_TA_OPCODE_FOR_TP;
	drop = uboe_check_ta_fields(p, r);
	if (drop)
		return drop;
	drop = uboe_check_hdrs(p, r);
	if (drop)
		return drop;
	return uboe_check_payload(p, r);
}

/*
 * ACK: syndrome 0; NAK: SEQ_ERR, or RNR with a timer. The info of an ACK
 * and of a SEQ_ERR NAK counts the packets held after the hole: any value.
 */
static bool uboe_ack_syndrome_ok(const struct uboe_pkt *p)
{
	if (p->tp_opcode == UBOE_TP_ACK)
		return !p->syndrome;
	return p->syndrome == UBOE_NAK_SEQ_ERR ||
	       (p->syndrome == UBOE_NAK_RNR && p->info <= UBOE_RNR_TIMER_MAX);
}

static enum uboe_drop uboe_check_ack(const struct uboe_pkt *p)
{
	if (!uboe_ack_syndrome_ok(p))
		return UBOE_DROP_BAD_SYNDROME;
	return p->payload_len ? UBOE_DROP_PAYLOAD_LEN : UBOE_DROP_NONE;
}

/**
 * uboe_check() - the rules of a packet's opcodes, on its decoded fields
 * @pkt: the packet
 *
 * The checks that need more than one header: the TP opcode's flags and
 * TPNs, the TAOpcode's transport, headers, segment positions and payload
 * length, and values too wide for their fields. uboe_decode() applies it
 * to what it read and uboe_encode() to what it is asked to write.
 *
 * Return: UBOE_DROP_NONE, or why a receiver drops such a packet.
 */
enum uboe_drop uboe_check(const struct uboe_pkt *pkt)
{
	if ((pkt->dtpn | pkt->stpn) & ~UBOE_TPN_MASK ||
	    pkt->psn & ~UBOE_PSN_MASK || !uboe_fields_fit(pkt))
		return UBOE_DROP_BAD_FIELD;
	switch (pkt->tp_opcode) {
	case UBOE_TP_RTP_DATA:
		if (!pkt->dtpn || !pkt->stpn)
			return UBOE_DROP_BAD_TPN;
		return uboe_check_ta(pkt);
	case UBOE_TP_UTP_DATA:
		if (pkt->dtpn || pkt->stpn)
			return UBOE_DROP_BAD_TPN;
		if (!pkt->has_eid || pkt->seg != UBOE_SEG_ONLY || pkt->ack_req)
			return UBOE_DROP_BAD_TP_FLAGS;
		return uboe_check_ta(pkt);
	case UBOE_TP_ACK:
	case UBOE_TP_NAK:
		if (!pkt->dtpn || !pkt->stpn)
			return UBOE_DROP_BAD_TPN;
		if (pkt->seg != UBOE_SEG_MIDDLE || pkt->ack_req)
			return UBOE_DROP_BAD_TP_FLAGS;
		return uboe_check_ack(pkt);
	default:
		return UBOE_DROP_UNKNOWN_TP_OPCODE;
	}
}
EXPORT_SYMBOL_IF_KUNIT(uboe_check);

static bool uboe_is_data(const struct uboe_pkt *pkt)
{
	return pkt->tp_opcode == UBOE_TP_RTP_DATA ||
	       pkt->tp_opcode == UBOE_TP_UTP_DATA;
}

/* Extension headers in wire order, with their sizes. */
static const struct {
	u32 bit;
	u8 size;
} uboe_ext_order[] = {
	{ UBOE_X_TVETAH, sizeof(struct uboe_tvetah) },
	{ UBOE_EXT_MAETAH, sizeof(struct uboe_maetah) },
	{ UBOE_EXT_MTETAH, sizeof(struct uboe_mtetah) },
	{ UBOE_EXT_IMMETAH, sizeof(struct uboe_immetah) },
	{ UBOE_EXT_NTFETAH, sizeof(struct uboe_ntfetah) },
	{ UBOE_EXT_INVETAH, sizeof(struct uboe_invetah) },
	{ UBOE_EXT_OFSTETAH, sizeof(struct uboe_ofstetah) },
	{ UBOE_EXT_TAIDETAH, sizeof(struct uboe_taidetah) },
	{ UBOE_EXT_MGMTETAH, sizeof(struct uboe_mgmtetah) },
	{ UBOE_X_UDETAH, sizeof(struct uboe_udetah) },
};

/**
 * uboe_hdr_len() - bytes of a packet's headers
 * @pkt: the packet
 *
 * Return: the offset of the payload in the encoded packet.
 */
size_t uboe_hdr_len(const struct uboe_pkt *pkt)
{
	size_t len = sizeof(struct uboe_tph);
	unsigned int i;

	if (pkt->has_eid)
		len += sizeof(struct uboe_eidh);
	if (!uboe_is_data(pkt))
		return len + sizeof(struct uboe_tpackh);
	len += sizeof(struct uboe_btah);
	for (i = 0; i < ARRAY_SIZE(uboe_ext_order); i++)
		if (pkt->hdrs & uboe_ext_order[i].bit)
			len += uboe_ext_order[i].size;
	return len;
}
EXPORT_SYMBOL_IF_KUNIT(uboe_hdr_len);

static void uboe_put_ta(const struct uboe_pkt *p, u8 *b)
{
	static_assert(offsetof(struct uboe_btah, ini_tassn) ==
		      offsetof(struct uboe_atah, ini_tassn));
	static_assert(offsetof(struct uboe_btah, ext) ==
		      offsetof(struct uboe_atah, ext));
	struct uboe_btah *bt = (struct uboe_btah *)b;
	struct uboe_atah *at = (struct uboe_atah *)b;
	u32 w;

	if (uboe_is_response(p->ta_opcode)) {
		at->opcode = p->ta_opcode;
		at->flags = UBOE_TA_VERSION << UBOE_ATAH_TAVER_SHIFT |
			    (p->sv ? UBOE_ATAH_SV : 0);
		at->ini_tassn = cpu_to_be16(p->tassn);
		at->rsp_rc = cpu_to_be32((u32)p->rspst << UBOE_ATAH_RSPST_SHIFT |
					 (u32)p->rspinfo <<
					 UBOE_ATAH_RSPINFO_SHIFT | p->rc_id);
		at->ext = cpu_to_be16(p->hdrs & ~UBOE_EXT_RSVD);
		at->rsvd = 0;
		return;
	}
	bt->opcode = p->ta_opcode;
	bt->flags = UBOE_TA_VERSION << UBOE_BTAH_TAVER_SHIFT |
		    p->ee << UBOE_BTAH_EE_SHIFT |
		    (p->hdrs & UBOE_X_TVETAH ? UBOE_BTAH_TV_EN : 0) |
		    (p->poison ? UBOE_BTAH_POISON : 0) |
		    (p->hdrs & UBOE_X_UDETAH ? UBOE_BTAH_UD : 0) |
		    (p->no_taack ? UBOE_BTAH_NO_TAACK : 0);
	bt->ini_tassn = cpu_to_be16(p->tassn);
	w = (u32)p->teo << UBOE_BTAH_TEO_SHIFT |
	    (p->tco ? UBOE_BTAH_TCO : 0) |
	    (u32)p->rc_type << UBOE_BTAH_RC_TYPE_SHIFT |
	    (p->solicited ? UBOE_BTAH_SE : 0) | p->rc_id;
	bt->odr_rc = cpu_to_be32(w);
	bt->ext = cpu_to_be16(p->hdrs & ~UBOE_EXT_RSVD);
	bt->rsvd = 0;
}

/* Write extension header @bit of @p at @b; returns its size. */
static size_t uboe_put_ext(const struct uboe_pkt *p, u32 bit, u8 *b)
{
	switch (bit) {
	case UBOE_X_TVETAH:
		put_unaligned_be32(p->token_value, b);
		return sizeof(struct uboe_tvetah);
	case UBOE_EXT_MAETAH: {
		struct uboe_maetah *h = (struct uboe_maetah *)b;

		h->va = cpu_to_be64(p->mae.va);
		h->token_id = cpu_to_be32(p->mae.token_id);
		h->len = cpu_to_be32(p->mae.len);
		return sizeof(*h);
	}
	case UBOE_EXT_MTETAH:
		put_unaligned_be32((u32)p->mte.hint << UBOE_MTETAH_HINT_SHIFT |
				   p->mte.tgt_id, b);
		return sizeof(struct uboe_mtetah);
	case UBOE_EXT_IMMETAH: {
		struct uboe_immetah *h = (struct uboe_immetah *)b;

		h->imm_data = cpu_to_be64(p->imm.data);
		h->token_value = cpu_to_be32(p->imm.token_value);
		h->msg_len = cpu_to_be32(p->imm.msg_len);
		return sizeof(*h);
	}
	case UBOE_EXT_NTFETAH: {
		struct uboe_ntfetah *h = (struct uboe_ntfetah *)b;

		h->data = cpu_to_be64(p->ntf.data);
		h->va = cpu_to_be64(p->ntf.va);
		h->token_id = cpu_to_be32(p->ntf.token_id);
		h->token_value = cpu_to_be32(p->ntf.token_value);
		return sizeof(*h);
	}
	case UBOE_EXT_INVETAH: {
		struct uboe_invetah *h = (struct uboe_invetah *)b;

		h->va = cpu_to_be64(p->inv.va);
		h->len = cpu_to_be64(p->inv.len);
		h->token_id = cpu_to_be32(p->inv.token_id);
		h->token_value = cpu_to_be32(p->inv.token_value);
		return sizeof(*h);
	}
	case UBOE_EXT_OFSTETAH:
		put_unaligned_be32(p->offset >> UBOE_OFST_SHIFT, b);
		return sizeof(struct uboe_ofstetah);
	case UBOE_EXT_TAIDETAH: {
		struct uboe_taidetah *h = (struct uboe_taidetah *)b;

		h->taid = cpu_to_be16(p->taid);
		h->rsvd = 0;
		return sizeof(*h);
	}
	case UBOE_EXT_MGMTETAH: {
		struct uboe_mgmtetah *h = (struct uboe_mgmtetah *)b;

		h->version = UBOE_MGMT_VERSION;
		h->type = p->mgmt.type;
		h->body_len = cpu_to_be16(p->payload_len);
		h->msg_id = cpu_to_be32(p->mgmt.msg_id);
		return sizeof(*h);
	}
	default: /* UBOE_X_UDETAH */
		put_unaligned_be32(p->uasid, b);
		return sizeof(struct uboe_udetah);
	}
}

/**
 * uboe_encode_hdr() - write a packet's headers
 * @pkt: the packet; @pkt->payload is not read
 * @buf: where the headers go
 * @size: bytes at @buf
 *
 * Writes the headers only (TPH pkt_len counts @pkt->payload_len and the
 * ICRC): the caller places the payload after them and, with @pkt->icrc,
 * the ICRC of everything (uboe_icrc()) after the payload, big-endian.
 *
 * Return: the length of the headers; -EINVAL when a receiver would drop
 * the packet (uboe_check()), -EMSGSIZE when it is longer than
 * UBOE_MAX_PKT, -ENOSPC when the headers do not fit in @size.
 */
int uboe_encode_hdr(const struct uboe_pkt *pkt, void *buf, size_t size)
{
	size_t hlen = uboe_hdr_len(pkt);
	size_t total = uboe_pkt_len(pkt, hlen);
	struct uboe_tph *tph = buf;
	unsigned int i;
	u8 *b = buf;
	u32 flags;

	if (uboe_check(pkt))
		return -EINVAL;
	if (total > UBOE_MAX_PKT)
		return -EMSGSIZE;
	if (size < hlen)
		return -ENOSPC;

	flags = (pkt->ack_req ? UBOE_TPH_F_ACKREQ : 0) |
		(pkt->seg & UBOE_SEG_FIRST ? UBOE_TPH_F_FIRST : 0) |
		(pkt->seg & UBOE_SEG_LAST ? UBOE_TPH_F_LAST : 0) |
		(pkt->has_eid ? UBOE_TPH_F_EID : 0) |
		(pkt->icrc ? UBOE_TPH_F_ICRC : 0);
	tph->ver = UBOE_WIRE_VERSION << UBOE_TPH_VER_SHIFT;
	tph->opcode = pkt->tp_opcode;
	tph->pkt_len = cpu_to_be16(total);
	tph->flags_dtpn = cpu_to_be32(flags | pkt->dtpn);
	tph->stpn = cpu_to_be32(pkt->stpn);
	tph->psn = cpu_to_be32(pkt->psn);
	b += sizeof(*tph);

	if (pkt->has_eid) {
		struct uboe_eidh *eidh = (struct uboe_eidh *)b;

		memcpy(eidh->src_eid, pkt->src_eid.raw, sizeof(eidh->src_eid));
		memcpy(eidh->dst_eid, pkt->dst_eid.raw, sizeof(eidh->dst_eid));
		b += sizeof(*eidh);
	}

	if (!uboe_is_data(pkt)) {
		struct uboe_tpackh *ack = (struct uboe_tpackh *)b;

		ack->syndrome = pkt->syndrome;
		ack->info = pkt->info;
		ack->window = cpu_to_be16(pkt->window);
		return hlen;
	}

	uboe_put_ta(pkt, b);
	b += sizeof(struct uboe_btah);
	for (i = 0; i < ARRAY_SIZE(uboe_ext_order); i++)
		if (pkt->hdrs & uboe_ext_order[i].bit)
			b += uboe_put_ext(pkt, uboe_ext_order[i].bit, b);
	return hlen;
}
EXPORT_SYMBOL_IF_KUNIT(uboe_encode_hdr);

/**
 * uboe_encode() - write a whole packet
 * @pkt: the packet, with its payload
 * @buf: where it goes
 * @size: bytes at @buf
 *
 * Return: the length of the packet (the UDP payload); -EINVAL when a
 * receiver would drop it or @pkt->payload is NULL with a payload length,
 * -EMSGSIZE when it is longer than UBOE_MAX_PKT, -ENOSPC when it does not
 * fit in @size.
 */
int uboe_encode(const struct uboe_pkt *pkt, void *buf, size_t size)
{
	size_t total;
	u8 *b = buf;
	int hlen;

	if (pkt->payload_len && !pkt->payload)
		return -EINVAL;
	hlen = uboe_encode_hdr(pkt, buf, size);
	if (hlen < 0)
		return hlen;
	total = uboe_pkt_len(pkt, hlen);
	if (size < total)
		return -ENOSPC;
	if (pkt->payload_len)
		memcpy(b + hlen, pkt->payload, pkt->payload_len);
	if (pkt->icrc)
		uboe_put_icrc(b, total);
	return total;
}
EXPORT_SYMBOL_IF_KUNIT(uboe_encode);

/* A read position in the packet, [p, end). */
struct uboe_rd {
	const u8 *p;
	const u8 *end;
};

static const void *uboe_pull(struct uboe_rd *rd, size_t n)
{
	const u8 *h = rd->p;

	if ((size_t)(rd->end - rd->p) < n)
		return NULL;
	rd->p += n;
	return h;
}

static enum uboe_drop uboe_get_btah(const struct uboe_btah *bt,
				    struct uboe_pkt *p)
{
	u32 w = be32_to_cpu(bt->odr_rc);
	u16 ext = be16_to_cpu(bt->ext);

	if (bt->flags >> UBOE_BTAH_TAVER_SHIFT != UBOE_TA_VERSION)
		return UBOE_DROP_BAD_TA_VERSION;
	if ((w & UBOE_BTAH_RC_RSVD) || (ext & UBOE_EXT_RSVD) || bt->rsvd)
		return UBOE_DROP_RESERVED;
	p->ee = (bt->flags & UBOE_BTAH_EE_MASK) >> UBOE_BTAH_EE_SHIFT;
	p->poison = bt->flags & UBOE_BTAH_POISON;
	p->no_taack = bt->flags & UBOE_BTAH_NO_TAACK;
	p->tassn = be16_to_cpu(bt->ini_tassn);
	p->teo = w >> UBOE_BTAH_TEO_SHIFT;
	p->tco = w & UBOE_BTAH_TCO;
	p->rc_type = (w & UBOE_BTAH_RC_TYPE_MASK) >> UBOE_BTAH_RC_TYPE_SHIFT;
	p->solicited = w & UBOE_BTAH_SE;
	p->rc_id = w & UBOE_ID_MASK;
	p->hdrs = ext | (bt->flags & UBOE_BTAH_TV_EN ? UBOE_X_TVETAH : 0) |
		  (bt->flags & UBOE_BTAH_UD ? UBOE_X_UDETAH : 0);
	return UBOE_DROP_NONE;
}

static enum uboe_drop uboe_get_atah(const struct uboe_atah *at,
				    struct uboe_pkt *p)
{
	u32 w = be32_to_cpu(at->rsp_rc);
	u16 ext = be16_to_cpu(at->ext);

	if (at->flags >> UBOE_ATAH_TAVER_SHIFT != UBOE_TA_VERSION)
		return UBOE_DROP_BAD_TA_VERSION;
	if ((at->flags & UBOE_ATAH_RSVD) || (w & UBOE_ATAH_RSPST_RSVD) ||
	    (ext & UBOE_EXT_RSVD) || at->rsvd)
		return UBOE_DROP_RESERVED;
	p->sv = at->flags & UBOE_ATAH_SV;
	p->tassn = be16_to_cpu(at->ini_tassn);
	p->rspst = w >> UBOE_ATAH_RSPST_SHIFT;
	p->rspinfo = (w & UBOE_ATAH_RSPINFO_MASK) >> UBOE_ATAH_RSPINFO_SHIFT;
	p->rc_id = w & UBOE_ID_MASK;
	p->hdrs = ext;
	return UBOE_DROP_NONE;
}

/* Read extension header @bit at @b (of its size) into @p. */
static enum uboe_drop uboe_get_ext(u32 bit, const u8 *b, struct uboe_pkt *p)
{
	u32 w;

	switch (bit) {
	case UBOE_X_TVETAH:
		p->token_value = get_unaligned_be32(b);
		break;
	case UBOE_EXT_MAETAH: {
		const struct uboe_maetah *h = (const struct uboe_maetah *)b;

		w = be32_to_cpu(h->token_id);
		if (w & ~UBOE_ID_MASK)
			return UBOE_DROP_RESERVED;
		p->mae.va = be64_to_cpu(h->va);
		p->mae.token_id = w;
		p->mae.len = be32_to_cpu(h->len);
		break;
	}
	case UBOE_EXT_MTETAH:
		w = get_unaligned_be32(b);
		if (w & UBOE_MTETAH_RSVD)
			return UBOE_DROP_RESERVED;
		p->mte.hint = w >> UBOE_MTETAH_HINT_SHIFT;
		p->mte.tgt_id = w & UBOE_ID_MASK;
		break;
	case UBOE_EXT_IMMETAH: {
		const struct uboe_immetah *h = (const struct uboe_immetah *)b;

		p->imm.data = be64_to_cpu(h->imm_data);
		p->imm.token_value = be32_to_cpu(h->token_value);
		p->imm.msg_len = be32_to_cpu(h->msg_len);
		break;
	}
	case UBOE_EXT_NTFETAH: {
		const struct uboe_ntfetah *h = (const struct uboe_ntfetah *)b;

		w = be32_to_cpu(h->token_id);
		if (w & ~UBOE_ID_MASK)
			return UBOE_DROP_RESERVED;
		p->ntf.data = be64_to_cpu(h->data);
		p->ntf.va = be64_to_cpu(h->va);
		p->ntf.token_id = w;
		p->ntf.token_value = be32_to_cpu(h->token_value);
		break;
	}
	case UBOE_EXT_INVETAH: {
		const struct uboe_invetah *h = (const struct uboe_invetah *)b;

		w = be32_to_cpu(h->token_id);
		if (w & ~UBOE_ID_MASK)
			return UBOE_DROP_RESERVED;
		p->inv.va = be64_to_cpu(h->va);
		p->inv.len = be64_to_cpu(h->len);
		p->inv.token_id = w;
		p->inv.token_value = be32_to_cpu(h->token_value);
		break;
	}
	case UBOE_EXT_OFSTETAH:
		w = get_unaligned_be32(b);
		if (w & ~UBOE_OFST_MASK)
			return UBOE_DROP_RESERVED;
		p->offset = (u64)w << UBOE_OFST_SHIFT;
		break;
	case UBOE_EXT_TAIDETAH: {
		const struct uboe_taidetah *h = (const struct uboe_taidetah *)b;

		if (h->rsvd)
			return UBOE_DROP_RESERVED;
		p->taid = be16_to_cpu(h->taid);
		break;
	}
	case UBOE_EXT_MGMTETAH: {
		const struct uboe_mgmtetah *h = (const struct uboe_mgmtetah *)b;

		if (h->version != UBOE_MGMT_VERSION)
			return UBOE_DROP_BAD_MGMT_VERSION;
		p->mgmt.type = h->type;
		p->mgmt.msg_id = be32_to_cpu(h->msg_id);
		break;
	}
	default: /* UBOE_X_UDETAH */
		p->uasid = get_unaligned_be32(b);
		break;
	}
	return UBOE_DROP_NONE;
}

static enum uboe_drop uboe_get_ta(struct uboe_rd *rd, struct uboe_pkt *p)
{
	const struct uboe_btah *bt = uboe_pull(rd, sizeof(*bt));
	const struct uboe_mgmtetah *mgmt = NULL;
	enum uboe_drop drop;
	unsigned int i;

	if (!bt)
		return UBOE_DROP_TRUNCATED;
	p->ta_opcode = bt->opcode;
	if (!uboe_ta_rule(p->ta_opcode))
		return UBOE_DROP_UNKNOWN_TA_OPCODE;
	if (uboe_is_response(p->ta_opcode))
		drop = uboe_get_atah((const struct uboe_atah *)bt, p);
	else
		drop = uboe_get_btah(bt, p);
	if (drop)
		return drop;
	for (i = 0; i < ARRAY_SIZE(uboe_ext_order); i++) {
		const u8 *h;

		if (!(p->hdrs & uboe_ext_order[i].bit))
			continue;
		h = uboe_pull(rd, uboe_ext_order[i].size);
		if (!h)
			return UBOE_DROP_TRUNCATED;
		drop = uboe_get_ext(uboe_ext_order[i].bit, h, p);
		if (drop)
			return drop;
		if (uboe_ext_order[i].bit == UBOE_EXT_MGMTETAH)
			mgmt = (const struct uboe_mgmtetah *)h;
	}
	/* The management body is the payload. */
	if (mgmt && be16_to_cpu(mgmt->body_len) != rd->end - rd->p)
		return UBOE_DROP_PAYLOAD_LEN;
	return UBOE_DROP_NONE;
}

/* The TPH's fields, but its version and length (uboe_decode()). */
static enum uboe_drop uboe_get_tph(const struct uboe_tph *tph,
				   struct uboe_pkt *p)
{
	u32 flags = be32_to_cpu(tph->flags_dtpn);
	u32 stpn = be32_to_cpu(tph->stpn);
	u32 psn = be32_to_cpu(tph->psn);

	if ((tph->ver & UBOE_TPH_VER_RSVD) || (flags & UBOE_TPH_F_RSVD) ||
	    (stpn & UBOE_TPN_RSVD) || (psn & UBOE_TPN_RSVD))
		return UBOE_DROP_RESERVED;
	p->tp_opcode = tph->opcode;
	if (p->tp_opcode < UBOE_TP_RTP_DATA || p->tp_opcode > UBOE_TP_NAK)
		return UBOE_DROP_UNKNOWN_TP_OPCODE;
	p->seg = (flags & UBOE_TPH_F_FIRST ? UBOE_SEG_FIRST : 0) |
		 (flags & UBOE_TPH_F_LAST ? UBOE_SEG_LAST : 0);
	p->ack_req = flags & UBOE_TPH_F_ACKREQ;
	p->has_eid = flags & UBOE_TPH_F_EID;
	p->dtpn = flags & UBOE_TPN_MASK;
	p->stpn = stpn;
	p->psn = psn;
	return UBOE_DROP_NONE;
}

/**
 * uboe_decode_head() - validate a received packet whose headers are in
 *	one piece and read its fields
 * @head: the packet's first bytes: its headers at least
 * @head_len: bytes at @head, at most @len
 * @len: the packet's length (the UDP length minus the UDP header)
 * @flags: UBOE_DEC_*
 * @pkt: filled in: @pkt->payload_off is where the payload starts in the
 *	packet; @pkt->payload points to it when the whole payload is at
 *	@head, else it is NULL (the caller knows where the rest is)
 *
 * As uboe_decode(), but a packet with an ICRC must be whole at @head
 * (the ICRC covers the payload): UBOE_DROP_TRUNCATED if it is not.
 *
 * Return: UBOE_DROP_NONE, or why the packet must be dropped.
 */
enum uboe_drop uboe_decode_head(const void *head, size_t head_len, size_t len,
				u32 flags, struct uboe_pkt *pkt)
{
	const struct uboe_tph *tph = head;
	struct uboe_rd rd = { .p = head, .end = (const u8 *)head + head_len };
	size_t hlen, trailer = 0;
	enum uboe_drop drop;

	memset(pkt, 0, sizeof(*pkt));
	if (head_len > len)
		return UBOE_DROP_LEN_MISMATCH;
	if (!uboe_pull(&rd, sizeof(*tph)))
		return UBOE_DROP_TRUNCATED;
	if (tph->ver >> UBOE_TPH_VER_SHIFT != UBOE_WIRE_VERSION)
		return UBOE_DROP_BAD_VERSION;
	if (be16_to_cpu(tph->pkt_len) != len)
		return UBOE_DROP_LEN_MISMATCH;
	if (tph->flags_dtpn & cpu_to_be32(UBOE_TPH_F_ICRC)) {
		if (head_len != len || len < sizeof(*tph) + UBOE_ICRC_SIZE)
			return UBOE_DROP_TRUNCATED;
		rd.end -= UBOE_ICRC_SIZE;
		trailer = UBOE_ICRC_SIZE;
		if (uboe_icrc(0, head, len - UBOE_ICRC_SIZE) !=
		    get_unaligned_be32(rd.end))
			return UBOE_DROP_BAD_ICRC;
		pkt->icrc = true;
	} else if (flags & UBOE_DEC_NEED_ICRC) {
		return UBOE_DROP_NO_ICRC;
	}
	drop = uboe_get_tph(tph, pkt);
	if (drop)
		return drop;
	if (pkt->has_eid) {
		const struct uboe_eidh *eidh = uboe_pull(&rd, sizeof(*eidh));

		if (!eidh)
			return UBOE_DROP_TRUNCATED;
		memcpy(pkt->src_eid.raw, eidh->src_eid, sizeof(eidh->src_eid));
		memcpy(pkt->dst_eid.raw, eidh->dst_eid, sizeof(eidh->dst_eid));
	}
	if (uboe_is_data(pkt)) {
		drop = uboe_get_ta(&rd, pkt);
	} else {
		const struct uboe_tpackh *ack = uboe_pull(&rd, sizeof(*ack));

		drop = UBOE_DROP_TRUNCATED;
		if (ack) {
			pkt->syndrome = ack->syndrome;
			pkt->info = ack->info;
			pkt->window = be16_to_cpu(ack->window);
			drop = UBOE_DROP_NONE;
		}
	}
	if (drop)
		return drop;
	hlen = rd.p - (const u8 *)head;
	pkt->payload_off = hlen;
	pkt->payload_len = len - hlen - trailer;
	pkt->payload = head_len == len ? rd.p : NULL;
	return uboe_check(pkt);
}
EXPORT_SYMBOL_IF_KUNIT(uboe_decode_head);

/**
 * uboe_decode() - validate a received packet and read its fields
 * @buf: the packet: the whole UDP payload, in one piece
 * @len: its length (the UDP length minus the UDP header)
 * @flags: UBOE_DEC_*
 * @pkt: filled in; on success @pkt->payload points into @buf
 *
 * Nothing in @buf is trusted: every length is checked before a byte is
 * read, every reserved bit and value is refused, and the packet must
 * follow its opcode's rules (uboe_check()). An ICRC, when the packet has
 * one, is checked before anything after the TPH's first 4 bytes is used.
 * @pkt is undefined when a packet is dropped.
 *
 * Return: UBOE_DROP_NONE, or why the packet must be dropped.
 */
enum uboe_drop uboe_decode(const void *buf, size_t len, u32 flags,
			   struct uboe_pkt *pkt)
{
	return uboe_decode_head(buf, len, len, flags, pkt);
}
EXPORT_SYMBOL_IF_KUNIT(uboe_decode);
