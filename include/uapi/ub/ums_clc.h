/* SPDX-License-Identifier: GPL-2.0-only WITH Linux-syscall-note */
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * UMS CLC (connection layer control): the messages two UMS sockets trade
 * over their TCP connection to agree on UMS or to fall back to TCP. The
 * layout and values are UMDK's (ums_clc.h, itself RFC 7609's SMC-R CLC
 * with UB's EID where SMC has a GID); ums.ko's codec (ums/clc.c) encodes
 * and validates them. Everything is big-endian on the wire; the structs
 * are packed because the layout is the wire's, not the compiler's.
 *
 * Every message starts with struct ums_clc_hdr and ends with the 4-byte
 * trailer, the same eyecatcher as the header's.
 */
#ifndef _UAPI_UB_UMS_CLC_H
#define _UAPI_UB_UMS_CLC_H

#include <linux/types.h>

/* "UMSR" in EBCDIC, at the start and the end of every message. */
#define UMS_CLC_EYECATCHER	{ 0xe4, 0xd4, 0xe2, 0xd9 }
#define UMS_CLC_EYECATCHER_LEN	4

/* struct ums_clc_hdr.type */
#define UMS_CLC_PROPOSAL	0x01
#define UMS_CLC_ACCEPT		0x02
#define UMS_CLC_CONFIRM		0x03
#define UMS_CLC_DECLINE		0x04

/* struct ums_clc_hdr.vt: version in bits 7:4, typev2 in 3:2, typev1 in 1:0 */
#define UMS_CLC_V1		1
#define UMS_CLC_TYPE_R		0	/* UMS over UB (SMC-R's type) */
#define UMS_CLC_TYPE_N		2	/* no UMS type offered */
#define UMS_CLC_VT(version, typev2, typev1) \
	(((version) << 4) | ((typev2) << 2) | (typev1))
#define UMS_CLC_VT_VERSION(vt)	((vt) >> 4)
#define UMS_CLC_VT_TYPEV1(vt)	((vt) & 0x3)

#define UMS_CLC_PEER_ID_LEN	8	/* the sender's system ID */
#define UMS_CLC_EID_LEN		16
#define UMS_CLC_MAX_V6_PREFIX	8
/* The lengths of the fixed-size messages, and the receiver's bound. */
#define UMS_CLC_ACCEPT_CONFIRM_LEN	128
#define UMS_CLC_DECLINE_LEN		28
#define UMS_CLC_MAX_LEN			256

/* Decline reasons (struct ums_clc_decline.peer_diagnosis), UMDK's. */
#define UMS_CLC_DECL_MEM	0x01010000	/* insufficient memory */
#define UMS_CLC_DECL_CNFERR	0x03000000	/* configuration error */
#define UMS_CLC_DECL_PEERNOUMS	0x03010000	/* peer did not indicate UMS */
#define UMS_CLC_DECL_NOUMSDEV	0x03030000	/* no UMS (UB) device found */
#define UMS_CLC_DECL_DIFFPREFIX	0x03070000	/* IP prefix / subnet mismatch */
#define UMS_CLC_DECL_NOACTLINK	0x030a0000	/* no active UMS link */
#define UMS_CLC_DECL_SYNCERR	0x04000000	/* synchronization error */
#define UMS_CLC_DECL_PEERDECL	0x05000000	/* peer declined */
#define UMS_CLC_DECL_INTERR	0x09990000	/* internal error */
/*
 * Ours, not UMDK's: both ends are in one network namespace (the
 * connection runs over loopback), where UMS falls back to TCP.
 */
#define UMS_CLC_DECL_LOCAL	0x030e0000

/* OS type of a decline (bits 7:4 of struct ums_clc_decline.os) */
#define UMS_CLC_OS_LINUX	2

struct ums_clc_hdr {
	__u8 eyecatcher[UMS_CLC_EYECATCHER_LEN];
	__u8 type;
	__be16 length;		/* of the whole message, trailer included */
	__u8 vt;		/* UMS_CLC_VT() */
} __attribute__((packed));

struct ums_clc_trailer {
	__u8 eyecatcher[UMS_CLC_EYECATCHER_LEN];
} __attribute__((packed));

/* The sender's identity in a proposal (and, later, accept and confirm). */
struct ums_clc_local {
	__u8 peer_id[UMS_CLC_PEER_ID_LEN];
	__u8 eid[UMS_CLC_EID_LEN];	/* the UB EID of the sender's device */
	__be32 session_id;		/* chosen by the client */
	__u8 mac[6];
	__u8 flags;
	__u8 reserved[3];
} __attribute__((packed));

/*
 * Proposal: header, local, then @iparea_offset bytes the receiver skips,
 * then the prefix area, @ipv6_prefixes_cnt IPv6 prefixes, the trailer.
 */
struct ums_clc_proposal {
	struct ums_clc_hdr hdr;
	struct ums_clc_local lcl;
	__be16 iparea_offset;
} __attribute__((packed));

struct ums_clc_prefix_area {
	__be32 outgoing_subnet;		/* IPv4 subnet of the sender, or 0 */
	__u8 prefix_len;
	__u8 reserved[2];
	__u8 ipv6_prefixes_cnt;		/* at most UMS_CLC_MAX_V6_PREFIX */
} __attribute__((packed));

struct ums_clc_ipv6_prefix {
	__u8 prefix[16];
	__u8 prefix_len;
} __attribute__((packed));

struct ums_clc_decline {
	struct ums_clc_hdr hdr;
	__u8 peer_id[UMS_CLC_PEER_ID_LEN];
	__be32 peer_diagnosis;		/* UMS_CLC_DECL_* */
	__u8 os;			/* UMS_CLC_OS_LINUX << 4 */
	__u8 reserved[3];
	struct ums_clc_trailer trl;
} __attribute__((packed));

/*
 * An RMB (and a send buffer) is 16 KiB x 2^n bytes, n in 0 .. 12: an
 * accept or confirm naming another size is malformed.
 */
#define UMS_BUF_MIN		16384
#define UMS_BUF_MAX_ORDER	12
#define UMS_BUF_MAX		(UMS_BUF_MIN << UMS_BUF_MAX_ORDER)

/* struct ums_clc_accept.flags */
#define UMS_CLC_FIRST_CONTACT	0x80	/* a new link: LLC Confirm Link follows */

/*
 * Accept (server) and Confirm (client): the same layout, RFC 7609's
 * accept/confirm with UB names: the sender's device EID (index 0: the EID
 * its jetty and segments answer to) where SMC-R has a GID, its link's
 * jetty where SMC-R has a QP, and its RMB as a UB segment (token ID,
 * token value, UASID, VA, length) where SMC-R has an rkey and a DMA
 * address. @conn_token is the sender's connection token: the CDC
 * messages to the sender carry it. @lgr_id names the server's link group
 * (the client echoes it). Both are UMS_CLC_ACCEPT_CONFIRM_LEN bytes.
 */
struct ums_clc_accept {
	struct ums_clc_hdr hdr;
	__u8 peer_id[UMS_CLC_PEER_ID_LEN];
	__u8 eid[UMS_CLC_EID_LEN];
	__be32 jetty_id;
	__be32 jetty_token;
	__be32 conn_token;
	__be32 rmb_token_id;
	__be32 rmb_token_value;
	__be32 rmb_uasid;
	__be64 rmb_va;
	__be32 rmb_len;
	__be32 lgr_id;
	__u8 flags;			/* UMS_CLC_FIRST_CONTACT */
	__u8 reserved[51];
	struct ums_clc_trailer trl;
} __attribute__((packed));

#endif /* _UAPI_UB_UMS_CLC_H */
