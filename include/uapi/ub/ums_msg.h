/* SPDX-License-Identifier: GPL-2.0-only WITH Linux-syscall-note */
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * The messages UMS sends over a link (a pair of RC jetties), each a URMA
 * SEND of UMS_MSG_LEN bytes into one of the receiver's ring buffers:
 * LLC (link layer control: Confirm Link and its response) and CDC
 * (connection data control: the cursors of one connection's buffers).
 * RFC 7609's SMC-R messages with UB names: an EID where SMC-R has a GID
 * and a jetty ID where it has a QP number. The first byte tells them
 * apart. Big-endian, packed: the layout is the wire's.
 */
#ifndef _UAPI_UB_UMS_MSG_H
#define _UAPI_UB_UMS_MSG_H

#include <linux/types.h>

/* Every LLC and CDC message is this long (SMC-R's 44). */
#define UMS_MSG_LEN		44

/* The first byte: what the message is. */
#define UMS_LLC_CONFIRM_LINK	0x01
#define UMS_CDC_MSG		0xfe

/* struct ums_llc_hdr.flags */
#define UMS_LLC_FLAG_RESP	0x80	/* the answer to a request */

struct ums_llc_hdr {
	__u8 type;
	__u8 length;			/* UMS_MSG_LEN */
	__u8 reserved;
	__u8 flags;
} __attribute__((packed));

/*
 * Confirm Link: the server's, on a new link once both jetties are bound,
 * and the client's response (UMS_LLC_FLAG_RESP). Each names its own end
 * of the link; @link_num is the link's number in its group (1 ..
 * @max_links), @link_uid the sender's ID of the link.
 */
struct ums_llc_confirm_link {
	struct ums_llc_hdr hdr;
	__u8 eid[16];
	__be32 jetty_id;
	__be32 link_uid;
	__u8 link_num;
	__u8 max_links;
	__u8 reserved[14];
} __attribute__((packed));

/* struct ums_cdc_msg.conn_flags */
#define UMS_CDC_DONE_WRITING	0x40	/* the sender shut its writing down */
#define UMS_CDC_CONN_CLOSED	0x20	/* the sender closed: nothing follows */
#define UMS_CDC_CONN_ABORT	0x10	/* the sender aborted the connection */

/* struct ums_cdc_msg.prod_flags */
#define UMS_CDC_WRITE_BLOCKED	0x80	/* the sender waits for room */

/*
 * CDC: after the WRITEs it announces, or when the sender consumed data.
 * @token is the receiver's connection token (from its Accept or Confirm).
 * The cursors are byte counts since the connection started, the ring
 * offset being the count modulo the buffer's size (a power of two), where
 * SMC-R has a (wrap, count) pair: @prod counts what the sender wrote into
 * the receiver's RMB, @cons what it consumed of its own.
 */
struct ums_cdc_msg {
	__u8 type;			/* UMS_CDC_MSG */
	__u8 length;			/* UMS_MSG_LEN */
	__be16 seqno;
	__be32 token;
	__be64 prod;
	__be64 cons;
	__u8 prod_flags;
	__u8 conn_flags;
	__u8 reserved[18];
} __attribute__((packed));

#endif /* _UAPI_UB_UMS_MSG_H */
