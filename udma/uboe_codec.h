/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * The UBoE packet codec: pure functions between a packet's bytes (the UDP
 * payload, include/uapi/ub/uboe_wire.h) and struct uboe_pkt, its decoded
 * fields. No device state, no allocation, no locks: callable in any
 * context. uboe_decode() trusts nothing in the bytes and says why it
 * drops a packet (enum uboe_drop); uboe_encode() refuses a descriptor the
 * decoder would drop, so what one host sends the other accepts.
 */
#ifndef _UDMA_UBOE_CODEC_H
#define _UDMA_UBOE_CODEC_H

#include <linux/types.h>

#include <ub/ubcore_eid.h>
#include <uapi/ub/uboe_wire.h>

/* A packet's place in its transaction: the TPH F and L flags. */
enum uboe_seg {
	UBOE_SEG_MIDDLE	= 0,
	UBOE_SEG_FIRST	= 1,
	UBOE_SEG_LAST	= 2,
	UBOE_SEG_ONLY	= UBOE_SEG_FIRST | UBOE_SEG_LAST,
};

/*
 * struct uboe_pkt.hdrs: the extension headers of a data packet; the wire's
 * BTAH/ATAH ext bits (UBOE_EXT_*) and these two, which the BTAH flags.
 */
#define UBOE_X_TVETAH	0x10000U	/* BTAH TV_EN */
#define UBOE_X_UDETAH	0x20000U	/* BTAH UD_Flag */

/**
 * enum uboe_drop - why a received packet is dropped
 * @UBOE_DROP_NONE: not dropped
 * @UBOE_DROP_TRUNCATED: the packet ends inside a header it announces
 * @UBOE_DROP_LEN_MISMATCH: TPH pkt_len is not the datagram's length
 * @UBOE_DROP_BAD_VERSION: TPH version is not UBOE_WIRE_VERSION
 * @UBOE_DROP_NO_ICRC: an ICRC is required (UBOE_DEC_NEED_ICRC) and absent
 * @UBOE_DROP_BAD_ICRC: the ICRC does not match the packet
 * @UBOE_DROP_RESERVED: a reserved bit or field is not 0
 * @UBOE_DROP_UNKNOWN_TP_OPCODE: TPH opcode is none of enum uboe_tp_opcode
 * @UBOE_DROP_BAD_TP_FLAGS: TPH flags the TP opcode does not allow
 * @UBOE_DROP_BAD_TPN: a TPN of 0 where a TP is needed, or not 0 on UTP
 * @UBOE_DROP_BAD_SYNDROME: an ACK or NAK's syndrome or info is invalid
 * @UBOE_DROP_BAD_TA_VERSION: BTAH/ATAH TAver is not UBOE_TA_VERSION
 * @UBOE_DROP_UNKNOWN_TA_OPCODE: a TAOpcode UBoE does not carry
 * @UBOE_DROP_TA_OPCODE_FOR_TP: a TAOpcode this TP opcode does not carry
 * @UBOE_DROP_BAD_FIELD: a field holds a reserved value
 * @UBOE_DROP_BAD_STATUS: an ATAH RSPST or RSPINFO that is not defined
 * @UBOE_DROP_EXT_MISSING: an extension header the opcode needs is absent
 * @UBOE_DROP_EXT_UNEXPECTED: an extension header the opcode does not take
 * @UBOE_DROP_BAD_SEGMENT: FIRST/MIDDLE/LAST where the opcode is one packet,
 *	or an offset on a first packet
 * @UBOE_DROP_PAYLOAD_LEN: the payload disagrees with the opcode or with
 *	the length fields of its headers
 * @UBOE_DROP_BAD_MGMT_VERSION: MGMTETAH version is not UBOE_MGMT_VERSION
 * @UBOE_DROP_UNKNOWN_MGMT_TYPE: MGMTETAH type is none of enum uboe_mgmt_type
 * @UBOE_DROP_UNKNOWN_TPN: (the transport's) no TP of that TPN here
 * @UBOE_DROP_EID_NOT_HERE: (the transport's) the destination EID is not
 *	one of the receiving namespace's devices
 * @UBOE_DROP_MGMT_BODY_LEN: (udma's management path) the body is not a
 *	struct uboe_mgmt_body (UBOE_MGMT_BODY_SIZE bytes)
 * @UBOE_DROP_MGMT_BODY_VERSION: (management path) body version is not
 *	UBOE_MGMT_BODY_VERSION
 * @UBOE_DROP_MGMT_EID_MISMATCH: (management path) the body's source or
 *	destination EID is not the packet's (EIDH)
 * @UBOE_DROP_MGMT_REFUSED: (management path) ubcore's connection manager
 *	did not take the message (its queue is full, it is stopping); it
 *	counts why in its own stats
 * @UBOE_DROP_MAX: number of reasons
 *
 * The codec returns those before UBOE_DROP_UNKNOWN_TPN; the others are
 * here so that one counter table (uboe_drop_name()) covers every drop of
 * the wire.
 */
enum uboe_drop {
	UBOE_DROP_NONE,
	UBOE_DROP_TRUNCATED,
	UBOE_DROP_LEN_MISMATCH,
	UBOE_DROP_BAD_VERSION,
	UBOE_DROP_NO_ICRC,
	UBOE_DROP_BAD_ICRC,
	UBOE_DROP_RESERVED,
	UBOE_DROP_UNKNOWN_TP_OPCODE,
	UBOE_DROP_BAD_TP_FLAGS,
	UBOE_DROP_BAD_TPN,
	UBOE_DROP_BAD_SYNDROME,
	UBOE_DROP_BAD_TA_VERSION,
	UBOE_DROP_UNKNOWN_TA_OPCODE,
	UBOE_DROP_TA_OPCODE_FOR_TP,
	UBOE_DROP_BAD_FIELD,
	UBOE_DROP_BAD_STATUS,
	UBOE_DROP_EXT_MISSING,
	UBOE_DROP_EXT_UNEXPECTED,
	UBOE_DROP_BAD_SEGMENT,
	UBOE_DROP_PAYLOAD_LEN,
	UBOE_DROP_BAD_MGMT_VERSION,
	UBOE_DROP_UNKNOWN_MGMT_TYPE,
	UBOE_DROP_UNKNOWN_TPN,
	UBOE_DROP_EID_NOT_HERE,
	UBOE_DROP_MGMT_BODY_LEN,
	UBOE_DROP_MGMT_BODY_VERSION,
	UBOE_DROP_MGMT_EID_MISMATCH,
	UBOE_DROP_MGMT_REFUSED,
	UBOE_DROP_MAX
};

/**
 * struct uboe_pkt - the decoded fields of a UBoE packet
 * @tp_opcode: enum uboe_tp_opcode
 * @seg: enum uboe_seg
 * @ack_req: TPH A
 * @icrc: TPH C: the packet ends in an ICRC
 * @has_eid: TPH E: @src_eid and @dst_eid are valid (EIDH)
 * @dtpn: destination TPN
 * @stpn: source TPN
 * @psn: PSN
 * @src_eid: EIDH source
 * @dst_eid: EIDH destination
 * @syndrome: ACK, NAK: TPACKH syndrome (0, enum uboe_nak_code)
 * @info: ACK, NAK: TPACKH info
 * @window: ACK, NAK: TPACKH window
 * @ta_opcode: data packets: enum uboe_ta_opcode; a request (BTAH), or a
 *	response (ATAH: uboe_ta_is_response())
 * @tassn: INI_TASSN
 * @rc_id: INI_RC_ID
 * @hdrs: the extension headers present: UBOE_EXT_*, UBOE_X_*
 * @ee: request: EE_bits, enum uboe_ee
 * @poison: request: Poison
 * @no_taack: request: No_TAACK
 * @teo: request: ODR TEO, enum uboe_teo
 * @tco: request: ODR TCO
 * @rc_type: request: INI_RC_Type, enum uboe_rc_type
 * @solicited: request: SE (SEND, SEND_IMM, WRITE_IMM)
 * @rspst: response: enum uboe_rspst
 * @rspinfo: response: RSPINFO
 * @sv: response: SV
 * @token_value: TVETAH
 * @mae: MAETAH: @mae.va, @mae.token_id, @mae.len
 * @mte: MTETAH: @mte.tgt_id (TGT_TC_ID), @mte.hint
 * @imm: IMMETAH: @imm.data, @imm.token_value, @imm.msg_len
 * @ntf: NTFETAH: @ntf.data, @ntf.va, @ntf.token_id, @ntf.token_value
 * @inv: INVETAH: @inv.va, @inv.len, @inv.token_id, @inv.token_value
 * @offset: OFSTETAH, in bytes (a multiple of 1 KiB)
 * @taid: TAIDETAH
 * @mgmt: MGMTETAH: @mgmt.type (enum uboe_mgmt_type), @mgmt.msg_id; its
 *	body is the payload
 * @uasid: UDETAH
 * @payload: the payload; after uboe_decode() it points into the buffer
 * @payload_len: bytes at @payload
 * @payload_off: set by the decoder: the payload's offset in the packet
 *	(where it is when uboe_decode_head() leaves @payload NULL)
 *
 * Fields of headers the packet does not have are ignored by the encoder
 * and left as they were by the decoder, which starts from a zeroed struct.
 */
struct uboe_pkt {
	u8 tp_opcode;
	u8 seg;
	bool ack_req;
	bool icrc;
	bool has_eid;
	u32 dtpn;
	u32 stpn;
	u32 psn;
	union ubcore_eid src_eid;
	union ubcore_eid dst_eid;

	u8 syndrome;
	u8 info;
	u16 window;

	u8 ta_opcode;
	u16 tassn;
	u32 rc_id;
	u32 hdrs;
	u8 ee;
	bool poison;
	bool no_taack;
	u8 teo;
	bool tco;
	u8 rc_type;
	bool solicited;
	u8 rspst;
	u8 rspinfo;
	bool sv;

	u32 token_value;
	struct {
		u64 va;
		u32 token_id;
		u32 len;
	} mae;
	struct {
		u32 tgt_id;
		u8 hint;
	} mte;
	struct {
		u64 data;
		u32 token_value;
		u32 msg_len;
	} imm;
	struct {
		u64 data;
		u64 va;
		u32 token_id;
		u32 token_value;
	} ntf;
	struct {
		u64 va;
		u64 len;
		u32 token_id;
		u32 token_value;
	} inv;
	u64 offset;
	u16 taid;
	struct {
		u8 type;
		u32 msg_id;
	} mgmt;
	u32 uasid;

	const void *payload;
	u32 payload_len;
	u32 payload_off;
};

/**
 * uboe_ta_is_response() - is a TAOpcode one of a response (ATAH)
 * @ta_opcode: enum uboe_ta_opcode
 *
 * Return: true for TAACK, READ_RESP and ATOMIC_RESP.
 */
static inline bool uboe_ta_is_response(u8 ta_opcode)
{
	return ta_opcode >= UBOE_TA_TAACK && ta_opcode <= UBOE_TA_ATOMIC_RESP;
}

/* A packet's length with @hlen bytes of headers: its payload, its ICRC. */
static inline size_t uboe_pkt_len(const struct uboe_pkt *pkt, size_t hlen)
{
	return hlen + pkt->payload_len + (pkt->icrc ? UBOE_ICRC_SIZE : 0);
}

/* uboe_decode() flags */
#define UBOE_DEC_NEED_ICRC	0x1	/* drop packets without an ICRC */

enum uboe_drop uboe_check(const struct uboe_pkt *pkt);
size_t uboe_hdr_len(const struct uboe_pkt *pkt);
u32 uboe_last_hdrs(u8 ta_opcode);
int uboe_encode_hdr(const struct uboe_pkt *pkt, void *buf, size_t size);
int uboe_encode(const struct uboe_pkt *pkt, void *buf, size_t size);
enum uboe_drop uboe_decode_head(const void *head, size_t head_len, size_t len,
				u32 flags, struct uboe_pkt *pkt);
enum uboe_drop uboe_decode(const void *buf, size_t len, u32 flags,
			   struct uboe_pkt *pkt);
u32 uboe_icrc(u32 crc, const void *buf, size_t len);
void uboe_put_icrc(void *buf, size_t total);
const char *uboe_drop_name(enum uboe_drop drop);

#endif /* _UDMA_UBOE_CODEC_H */
