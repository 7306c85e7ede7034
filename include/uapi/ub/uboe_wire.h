/* SPDX-License-Identifier: GPL-2.0-only WITH Linux-syscall-note */
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * UBoE: the UB transport and transaction layers carried in UDP/IP. This
 * file is the wire format: every header of a UBoE packet with its byte
 * offsets, field widths and the seed table it comes from. udma.ko's codec
 * (udma/uboe_codec.c) encodes and validates it; a userspace decoder or
 * fuzzer needs nothing else. docs/uboe-wire.md explains the choices.
 *
 * Everything is big-endian (network byte order) on the wire. Bit numbers
 * count from the least significant bit of the big-endian field they are
 * in ([31:24] of a __be32 is its first byte on the wire). Every header is
 * a whole number of 4-byte words; the structs are packed because a header
 * starts at any multiple of 4 in the datagram, so their 8-byte fields may
 * be unaligned. Reserved bits and fields are 0 when sent and a receiver
 * drops a packet in which one is not.
 *
 * The UDP payload (the "UBoE packet"), in this order:
 *
 *   TPH      16 B  always          transport header (ours)
 *   EIDH     32 B  TPH E flag      source and destination EID (ours)
 *   then, by TPH opcode:
 *   RTP_DATA, UTP_DATA:
 *     BTAH   12 B  a request       or ATAH 12 B, a response (seed: BTAH, ATAH)
 *     TVETAH  4 B  BTAH TV_EN      token value
 *     MAETAH 16 B  ext bit         memory address, token ID, length
 *     MTETAH  4 B  ext bit         message target: jetty / JFR ID
 *     IMMETAH 16 B ext bit         immediate data, token value, length
 *     NTFETAH 24 B ext bit         notify data, address, token ID, value
 *     INVETAH 24 B ext bit         segment to invalidate (ours)
 *     OFSTETAH 4 B ext bit         offset of this packet's payload
 *     TAIDETAH 4 B ext bit         task ID, echoed in the response
 *     MGMTETAH 8 B ext bit         management message header
 *     UDETAH  4 B  BTAH UD_Flag    user defined: the initiator's UASID
 *     payload
 *   ACK, NAK:
 *     TPACKH  4 B                  acknowledgment (ours)
 *   ICRC      4 B  TPH C flag      CRC32C of everything before it
 *
 * Extension headers appear at most once each, in the order above; which
 * ones an opcode needs is in docs/uboe-wire.md and udma/uboe_codec.c.
 */
#ifndef _UAPI_UB_UBOE_WIRE_H
#define _UAPI_UB_UBOE_WIRE_H

#include <linux/types.h>

#define UBOE_WIRE_VERSION	1	/* TPH version of this layout */
#define UBOE_TA_VERSION		0	/* seed: BTAH TAver "currently 0" */
#define UBOE_MGMT_VERSION	1	/* MGMTETAH version */

/*
 * Largest UBoE packet: a UDP payload (65535 - 8 bytes of UDP header - 20
 * of IPv4; the IPv6 limit is larger but TPH.pkt_len is 16 bits anyway).
 */
#define UBOE_MAX_PKT		65507

/* Jetty, JFR and token IDs are 20 bits in UB (include/ub/ubcore_segment.h). */
#define UBOE_ID_BITS		20
#define UBOE_ID_MASK		0x000fffffU
/* TPN and PSN: 24 bits. TPN 0 names no TP (UTP_DATA). */
#define UBOE_TPN_MASK		0x00ffffffU
#define UBOE_PSN_MASK		0x00ffffffU

/*
 * TPH - transport header (ours: the seed describes the transaction layer
 * only; the UB transport layer's RTP/UTP names are kept).
 *
 *  off  size  field
 *   0    1    [7:4] version (UBOE_WIRE_VERSION), [3:0] reserved
 *   1    1    opcode: enum uboe_tp_opcode
 *   2    2    pkt_len: bytes of the UBoE packet, TPH to ICRC inclusive;
 *             equals the UDP payload length
 *   4    4    [31:24] flags UBOE_TPH_F_*, [23:0] destination TPN
 *   8    4    [31:24] reserved, [23:0] source TPN
 *  12    4    [31:24] reserved, [23:0] PSN
 */
struct uboe_tph {
	__u8 ver;
	__u8 opcode;
	__be16 pkt_len;
	__be32 flags_dtpn;
	__be32 stpn;
	__be32 psn;
} __attribute__((packed));

#define UBOE_TPH_VER_SHIFT	4
#define UBOE_TPH_VER_RSVD	0x0fU

/* Flags, bits [31:24] of flags_dtpn. */
#define UBOE_TPH_F_ACKREQ	0x80000000U	/* A: ask for an ACK now */
#define UBOE_TPH_F_FIRST	0x40000000U	/* F: first packet of a TA */
#define UBOE_TPH_F_LAST		0x20000000U	/* L: last packet of a TA */
#define UBOE_TPH_F_EID		0x10000000U	/* E: an EIDH follows */
#define UBOE_TPH_F_ICRC		0x08000000U	/* C: an ICRC ends the packet */
#define UBOE_TPH_F_RSVD		0x07000000U
#define UBOE_TPN_RSVD		0xff000000U	/* of stpn and psn */

/*
 * F and L give a packet's place in its transaction segment (a message
 * longer than one packet): FIRST (F), MIDDLE (none), LAST (L), ONLY (F|L).
 */
enum uboe_tp_opcode {
	/* reliable TP (RTP, seed "ROL ... RTP 模式"): PSN-sequenced, ACKed */
	UBOE_TP_RTP_DATA	= 0x01,
	/*
	 * unreliable (UTP, seed "UNO"): UM datagrams and management messages;
	 * no TP (both TPNs 0), one packet (ONLY), EIDH required
	 */
	UBOE_TP_UTP_DATA	= 0x02,
	/* cumulative ACK: every PSN up to TPH.psn arrived; TPACKH follows */
	UBOE_TP_ACK		= 0x03,
	/* NAK: TPH.psn is the PSN the receiver expects; TPACKH says why */
	UBOE_TP_NAK		= 0x04,
};

/*
 * EIDH - the source and destination EID (ours). UB's network layer
 * carries them; in UBoE the IP header stands in when the EIDs are the
 * netdev's addresses, but a device may hold EIDs that are not (static
 * mode), so a packet that names no TP carries them. Required on UTP_DATA,
 * allowed on the others.
 *
 *  off  size  field
 *   0   16    source EID (network byte order, as union ubcore_eid)
 *  16   16    destination EID
 */
struct uboe_eidh {
	__u8 src_eid[16];
	__u8 dst_eid[16];
} __attribute__((packed));

/*
 * TPACKH - after the TPH of ACK and NAK (ours).
 *
 *  off  size  field
 *   0    1    syndrome: 0 in an ACK, enum uboe_nak_code in a NAK
 *   1    1    info: in an ACK and a SEQ_ERR NAK, the packets after
 *             TPH.psn + 1 (ACK) or TPH.psn (NAK), the hole, that the
 *             receiver holds (255: 255 or more), which the sender does
 *             not count as in flight; RNR NAK: the time the sender waits
 *             before it retries, in the rnr_timer encoding of URMA
 *             (0..31); 32..255 are reserved
 *   2    2    window: packets the receiver takes after TPH.psn (credit)
 */
struct uboe_tpackh {
	__u8 syndrome;
	__u8 info;
	__be16 window;
} __attribute__((packed));

enum uboe_nak_code {
	UBOE_NAK_SEQ_ERR	= 1,	/* out of sequence: go back to TPH.psn */
	UBOE_NAK_RNR		= 2,	/* receiver not ready: no buffer now */
};

#define UBOE_RNR_TIMER_MAX	31

/*
 * TAOpcode: seed ub-transaction-layer "四类事务" and the Memory, Message
 * and Management tables; ATAH opcodes from "ATAH". Write_with_be (0x14),
 * Prefetch_tgt (0x15), Writeback (0x17) and Writeback_with_be (0x18) are
 * the seed's too but not carried by UBoE here: a receiver drops them as
 * unknown. WRITE_ATOMIC_ADD and FLUSH are ours (vendor TAOpcodes beyond
 * the seed's table, for URMA's WRITE_ATOMIC and FLUSH_DMA, which the seed
 * has no transaction for): 0x19 is the opcode UMDK's udma provider gives
 * write with atomic add in its SQE, whose other opcodes are the seed's
 * TAOpcodes; FLUSH takes the next free value.
 */
enum uboe_ta_opcode {
	UBOE_TA_SEND		= 0x00,
	UBOE_TA_SEND_IMM	= 0x01,
	UBOE_TA_WRITE		= 0x03,
	UBOE_TA_WRITE_IMM	= 0x04,
	UBOE_TA_WRITE_NOTIFY	= 0x05,
	UBOE_TA_READ		= 0x06,
	UBOE_TA_CAS		= 0x07,
	UBOE_TA_SWAP		= 0x08,
	UBOE_TA_STORE		= 0x09,
	UBOE_TA_LOAD		= 0x0a,
	UBOE_TA_FADD		= 0x0b,
	UBOE_TA_FSUB		= 0x0c,
	UBOE_TA_FAND		= 0x0d,
	UBOE_TA_FOR		= 0x0e,
	UBOE_TA_FXOR		= 0x0f,
	UBOE_TA_MANAGEMENT	= 0x10,
	/* responses: ATAH */
	UBOE_TA_TAACK		= 0x11,
	UBOE_TA_READ_RESP	= 0x12,
	UBOE_TA_ATOMIC_RESP	= 0x13,
	/* requests again (vendor) */
	UBOE_TA_WRITE_ATOMIC_ADD = 0x19,
	UBOE_TA_FLUSH		= 0x1a,
};

/*
 * BTAH - basic transaction header, Full format (seed "BTAH" table: the
 * fields and widths are the seed's, their places ours; the extension
 * bitmap is ours, see UBOE_EXT_*). Every request has one.
 *
 *  off  size  field
 *   0    1    TAOpcode (enum uboe_ta_opcode, 0x00..0x10, 0x19, 0x1a)
 *   1    1    [7:6] TAver (UBOE_TA_VERSION), [5:4] EE_bits (enum
 *             uboe_ee), [3] TV_EN (a TVETAH follows), [2] Poison (payload
 *             holds poisoned data), [1] UD_Flag (a UDETAH follows),
 *             [0] No_TAACK (the initiator wants no TAACK)
 *   2    2    INI_TASSN: the initiator's transaction sequence number
 *   4    4    [31:29] ODR: [31:30] TEO (enum uboe_teo), [29] TCO (1:
 *             completions in order); [28:27] INI_RC_Type (enum
 *             uboe_rc_type); [26] SE: solicited event (ours, message
 *             opcodes only); [25:20] reserved; [19:0] INI_RC_ID: the
 *             initiator's jetty (JFS) ID, or its SC ID
 *   8    2    ext: UBOE_EXT_* bits, the extension headers present
 *  10    2    reserved
 */
struct uboe_btah {
	__u8 opcode;
	__u8 flags;
	__be16 ini_tassn;
	__be32 odr_rc;
	__be16 ext;
	__be16 rsvd;
} __attribute__((packed));

#define UBOE_BTAH_TAVER_SHIFT	6
#define UBOE_BTAH_EE_SHIFT	4
#define UBOE_BTAH_EE_MASK	0x30U
#define UBOE_BTAH_TV_EN		0x08U
#define UBOE_BTAH_POISON	0x04U
#define UBOE_BTAH_UD		0x02U
#define UBOE_BTAH_NO_TAACK	0x01U

#define UBOE_BTAH_TEO_SHIFT	30
#define UBOE_BTAH_TCO		0x20000000U
#define UBOE_BTAH_RC_TYPE_SHIFT	27
#define UBOE_BTAH_RC_TYPE_MASK	0x18000000U
#define UBOE_BTAH_SE		0x04000000U
#define UBOE_BTAH_RC_RSVD	0x03f00000U

/* EE_bits: seed "执行环境安全属性 (non-TEE/TEE)"; 2 and 3 are reserved. */
enum uboe_ee {
	UBOE_EE_NON_TEE	= 0,
	UBOE_EE_TEE	= 1,
};

/* TEO: seed "TEO (Transaction Execution Order)"; 3 is reserved. */
enum uboe_teo {
	UBOE_TEO_NO	= 0,
	UBOE_TEO_RO	= 1,
	UBOE_TEO_SO	= 2,
};

/* INI_RC_Type: seed "INI_RC_Type=SC" (ROT); 2 and 3 are reserved. */
enum uboe_rc_type {
	UBOE_RC_JETTY	= 0,
	UBOE_RC_SC	= 1,
};

/*
 * ATAH - acknowledge transaction header, Full format (seed "ATAH": the
 * fields are the seed's, their places ours and the same as BTAH's where
 * both have them). Every response has one.
 *
 *  off  size  field
 *   0    1    TAOpcode: TAACK, READ_RESP, ATOMIC_RESP (0x11..0x13)
 *   1    1    [7:6] TAver, [5] SV (SC allocated, seed "ATAH.SV=1"),
 *             [4:0] reserved
 *   2    2    INI_TASSN, echoed from the request
 *   4    4    [31:29] RSPST (enum uboe_rspst), [28] reserved,
 *             [27:20] RSPINFO (0 unless RSPST says otherwise), [19:0]
 *             INI_RC_ID, echoed from the request
 *   8    2    ext: UBOE_EXT_* bits
 *  10    2    reserved
 */
struct uboe_atah {
	__u8 opcode;
	__u8 flags;
	__be16 ini_tassn;
	__be32 rsp_rc;
	__be16 ext;
	__be16 rsvd;
} __attribute__((packed));

#define UBOE_ATAH_TAVER_SHIFT	6
#define UBOE_ATAH_SV		0x20U
#define UBOE_ATAH_RSVD		0x1fU
#define UBOE_ATAH_RSPST_SHIFT	29
#define UBOE_ATAH_RSPST_RSVD	0x10000000U
#define UBOE_ATAH_RSPINFO_SHIFT	20
#define UBOE_ATAH_RSPINFO_MASK	0x0ff00000U

/*
 * RSPST: the transaction's completion status (seed "RSPST+RSPINFO": the
 * values are ours, those udma's target returns). 5..7 are reserved.
 */
enum uboe_rspst {
	UBOE_RSPST_OK		= 0,
	UBOE_RSPST_RNR		= 1,	/* no RQE; RSPINFO: rnr timer 0..31 */
	UBOE_RSPST_ACCESS	= 2,	/* token, bounds, rights, no segment */
	UBOE_RSPST_OPERATION	= 3,	/* no such jetty/JFR, RQE too small */
	UBOE_RSPST_UNSUPPORTED	= 4,	/* an opcode the target does not do */
};

/* BTAH/ATAH ext: the extension headers present (ours), in wire order. */
#define UBOE_EXT_MAETAH		0x0001U
#define UBOE_EXT_MTETAH		0x0002U
#define UBOE_EXT_IMMETAH	0x0004U
#define UBOE_EXT_NTFETAH	0x0008U
#define UBOE_EXT_INVETAH	0x0010U
#define UBOE_EXT_OFSTETAH	0x0020U
#define UBOE_EXT_TAIDETAH	0x0040U
#define UBOE_EXT_MGMTETAH	0x0080U
#define UBOE_EXT_RSVD		0xff00U

/*
 * TVETAH - token value (seed "扩展包头" TVETAH: TokenValue 32-bit). Checked
 * against MAETAH.TokenID's token (memory) or MTETAH's jetty/JFR token
 * (message). Follows the BTAH when TV_EN is set.
 */
struct uboe_tvetah {
	__be32 token_value;
} __attribute__((packed));

/*
 * MAETAH - memory address (seed: Address 64-bit + TokenID 20-bit +
 * Length). Required on every packet of a memory transaction.
 *
 *  off  size  field
 *   0    8    address: first byte of the transaction at the target
 *   8    4    [31:20] reserved, [19:0] TokenID of the target segment
 *  12    4    length: bytes of the whole transaction (READ: to read;
 *             atomics: operand size, 8)
 */
struct uboe_maetah {
	__be64 va;
	__be32 token_id;
	__be32 len;
} __attribute__((packed));

/*
 * MTETAH - message target (seed: TGT_TC_ID + Hint). Required on every
 * packet of SEND and SEND_IMM, and on the LAST or ONLY packet of
 * WRITE_IMM (seed: only its packet with the immediate data takes an RQE).
 *
 *  off  size  field
 *   0    4    [31:24] Hint (load balancing in a TC group), [23:20]
 *             reserved, [19:0] TGT_TC_ID: the target JFR or jetty ID
 */
struct uboe_mtetah {
	__be32 hint_tgt;
} __attribute__((packed));

#define UBOE_MTETAH_HINT_SHIFT	24
#define UBOE_MTETAH_RSVD	0x00f00000U

/*
 * IMMETAH - immediate data (seed: 8 bytes of immediate data + TokenValue +
 * Msg_Length). On the LAST or ONLY packet of SEND_IMM and WRITE_IMM.
 *
 *  off  size  field
 *   0    8    immediate data, for the target's receive CQE
 *   8    4    WRITE_IMM: token value of the target jetty/JFR (the
 *             TVETAH holds the segment's); SEND_IMM: reserved (the
 *             TVETAH holds the jetty's)
 *  12    4    msg_len: bytes of the whole message (WRITE_IMM: MAETAH
 *             length; SEND_IMM: offset + payload of this last packet)
 */
struct uboe_immetah {
	__be64 imm_data;
	__be32 token_value;
	__be32 msg_len;
} __attribute__((packed));

/*
 * NTFETAH - notify (seed: notify data + target address + access
 * credential). On the LAST or ONLY packet of WRITE_NOTIFY: the target
 * stores the notify data at the address after all data of the WRITE; of
 * WRITE_ATOMIC_ADD: the target atomically adds the notify data to the
 * word at the address after all data of the WRITE.
 *
 *  off  size  field
 *   0    8    notify data
 *   8    8    address of the notify word (8 bytes, 8-byte aligned)
 *  16    4    [31:20] reserved, [19:0] TokenID of its segment
 *  20    4    token value for that TokenID
 */
struct uboe_ntfetah {
	__be64 data;
	__be64 va;
	__be32 token_id;
	__be32 token_value;
} __attribute__((packed));

/*
 * INVETAH - a segment to invalidate (ours: URMA's SEND_WITH_INVALIDATE has
 * no TAOpcode in the seed; it is a Send that also names a segment of the
 * target). On the LAST or ONLY packet of SEND.
 *
 *  off  size  field
 *   0    8    address of the segment
 *   8    8    length of the segment, as imported
 *  16    4    [31:20] reserved, [19:0] TokenID of the segment
 *  20    4    its token value
 */
struct uboe_invetah {
	__be64 va;
	__be64 len;
	__be32 token_id;
	__be32 token_value;
} __attribute__((packed));

/*
 * OFSTETAH - offset (seed: Offset 24-bit, granularity 1 KB). Byte offset
 * of this packet's payload in its transaction, in units of 1 KiB; so
 * every packet but the last of a transaction carries a multiple of 1 KiB.
 * Required on MIDDLE and LAST packets, optional (and 0) on FIRST and ONLY.
 *
 *  off  size  field
 *   0    4    [31:24] reserved, [23:0] offset / 1024
 */
struct uboe_ofstetah {
	__be32 offset;
} __attribute__((packed));

#define UBOE_OFST_SHIFT		10	/* 1 KiB units */
#define UBOE_OFST_MASK		0x00ffffffU

/*
 * TAIDETAH - task ID (seed: TAID 16-bit, echoed request to response).
 *
 *  off  size  field
 *   0    2    TAID
 *   2    2    reserved
 */
struct uboe_taidetah {
	__be16 taid;
	__be16 rsvd;
} __attribute__((packed));

/*
 * MGMTETAH - management header (seed: "MGMTETAH Management 事务必选 管理命令
 * 净荷"; the fields are ours). The payload is the management message body;
 * its layout is the connection manager's (ubcore).
 *
 *  off  size  field
 *   0    1    version (UBOE_MGMT_VERSION)
 *   1    1    type: enum uboe_mgmt_type
 *   2    2    body_len: payload bytes (equals the packet's payload)
 *   4    4    msg_id: the sender's message ID, echoed in the reply
 */
struct uboe_mgmtetah {
	__u8 version;
	__u8 type;
	__be16 body_len;
	__be32 msg_id;
} __attribute__((packed));

/* Connection manager messages (user guide 5.1.1.1, 5.1.1.2). */
enum uboe_mgmt_type {
	UBOE_MGMT_CONN_REQ		= 1,
	UBOE_MGMT_CONN_REP		= 2,
	UBOE_MGMT_CONN_ACK		= 3,
	UBOE_MGMT_CONN_REJ		= 4,
	UBOE_MGMT_CONN_REUSE_REQ	= 5,
	UBOE_MGMT_CONN_REUSE_REP	= 6,
	UBOE_MGMT_DCONN_NOTIFY		= 7,
	/*
	 * Keepalive (ours: the guide names no message for it;
	 * docs/connection-manager.md). KEEPALIVE probes an established TP
	 * that has been idle; the body is the TP's as in the messages above
	 * (src_tpn the prober's TPN, dst_tpn the receiver's, the TP's mode,
	 * RC's jetty pair), target_type, reason and token_value 0. The
	 * receiver that has that TP (its TPN, the sender's EID and TPN)
	 * answers KEEPALIVE_REP with the TP's body; one that does not (its
	 * device or module is new) answers KEEPALIVE_REJ, whose src_tpn is
	 * the probe's dst_tpn (the TPN it does not know) and dst_tpn the
	 * probe's src_tpn, EIDs and jetties swapped. Both echo the probe's
	 * MGMTETAH msg_id.
	 */
	UBOE_MGMT_KEEPALIVE		= 8,
	UBOE_MGMT_KEEPALIVE_REP		= 9,
	UBOE_MGMT_KEEPALIVE_REJ		= 10,
};

#define UBOE_MGMT_TYPE_MAX	UBOE_MGMT_KEEPALIVE_REJ

/*
 * The management message body (the MGMTETAH's payload), one layout for
 * every type: ubcore's connection manager message (user guide 5.1.1.1,
 * 5.1.1.2; the fields are ours). ubcore checks every field on receipt and
 * drops (and counts) a body that fails: a wrong length or version, an
 * unknown type, trans_mode or target_type, a reason outside a CONN_REJ
 * (but a DCONN_NOTIFY's UBOE_MGMT_REASON_TP_FAILED),
 * reserved bytes not 0, or a dst_eid that is not the receiving device's.
 *
 *  off  size  field
 *   0    1    version (UBOE_MGMT_BODY_VERSION)
 *   1    1    trans_mode: UBOE_MGMT_TM_RM or UBOE_MGMT_TM_RC
 *   2    1    target_type: enum uboe_mgmt_target (CONN_REQ, REUSE_REQ),
 *             else 0
 *   3    1    reason: enum uboe_mgmt_reason (CONN_REJ; DCONN_NOTIFY:
 *             NONE or TP_FAILED), else 0
 *   4    4    src_tpn: the sender's TPN
 *   8    4    dst_tpn: the receiver's TPN, 0 in a CONN_REQ (not known yet)
 *  12    4    src_jetty: RC: the sender's jetty ID; RM: 0
 *  16    4    dst_jetty: the receiver's jetty or JFR ID: the target a
 *             CONN_REQ / REUSE_REQ asks for (RM and RC), RC: the bound one
 *  20    4    token_value: CONN_REQ, REUSE_REQ: the target's token, else 0
 *  24   16    src_eid: the sender's EID
 *  40   16    dst_eid: the receiver's EID
 *  56         (size)
 */
struct uboe_mgmt_body {
	__u8 version;
	__u8 trans_mode;
	__u8 target_type;
	__u8 reason;
	__be32 src_tpn;
	__be32 dst_tpn;
	__be32 src_jetty;
	__be32 dst_jetty;
	__be32 token_value;
	__u8 src_eid[16];
	__u8 dst_eid[16];
} __attribute__((packed));

#define UBOE_MGMT_BODY_VERSION	1
#define UBOE_MGMT_BODY_SIZE	56

/* trans_mode: the urma_transport_mode_t bit of the TP. */
#define UBOE_MGMT_TM_RM		0x1
#define UBOE_MGMT_TM_RC		0x2

enum uboe_mgmt_target {
	UBOE_MGMT_TARGET_NONE	= 0,
	UBOE_MGMT_TARGET_JFR	= 1,
	UBOE_MGMT_TARGET_JETTY	= 2,
};

/*
 * Why a CONN_REJ refuses (the errno the initiator's caller gets), and why
 * a DCONN_NOTIFY tears a TP down.
 */
enum uboe_mgmt_reason {
	UBOE_MGMT_REASON_NONE		= 0,
	UBOE_MGMT_REASON_NO_TARGET	= 1,	/* no such jetty/JFR: ENOENT */
	UBOE_MGMT_REASON_MODE		= 2,	/* mode mismatch: EPROTOTYPE */
	UBOE_MGMT_REASON_TOKEN		= 3,	/* wrong token: EPERM */
	UBOE_MGMT_REASON_REFUSED	= 4,	/* anything else: ECONNREFUSED */
	/*
	 * DCONN_NOTIFY only: the sender's reliable transport of the TP gave
	 * up (no ACK after every retry). The receiver loses the TP as if its
	 * peer were gone (what it sent on it fails with ACK_TIMEOUT_ERR)
	 * rather than treating it as a close (ours: docs/uboe-wire.md).
	 */
	UBOE_MGMT_REASON_TP_FAILED	= 5,
};

/* The largest reason of a CONN_REJ. */
#define UBOE_MGMT_REASON_MAX	UBOE_MGMT_REASON_REFUSED

/*
 * UDETAH - user defined (seed: "UDETAH User Defined，厂商自定义 4 字节").
 * udma puts the initiator's UASID here, for the receive CQE that names the
 * sender: required wherever the MTETAH is, allowed nowhere else. Follows
 * the other extension headers when BTAH UD_Flag is set.
 */
struct uboe_udetah {
	__be32 uasid;
} __attribute__((packed));

/*
 * ICRC: CRC32C (Castagnoli, reflected, init and final xor 0xffffffff, as
 * iSCSI and ext4) of the packet from the TPH's first byte to the byte
 * before the ICRC, stored big-endian. Present when TPH C is set; then the
 * sender may leave the UDP checksum 0 (IPv4). Without C the UDP checksum
 * is the integrity check (docs/uboe-wire.md gives the trade-off).
 */
#define UBOE_ICRC_SIZE		4

#endif /* _UAPI_UB_UBOE_WIRE_H */
