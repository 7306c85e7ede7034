// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * LLC and CDC messages in memory: encoders and validating decoders
 * (msg.h).
 */
#include <linux/errno.h>
#include <linux/string.h>
#include <asm/byteorder.h>

#include "msg.h"

/* The flags a CDC message may carry; any other bit is malformed. */
#define UMS_CDC_CONN_FLAGS	(UMS_CDC_DONE_WRITING | UMS_CDC_CONN_CLOSED | \
				 UMS_CDC_CONN_ABORT)

/**
 * ums_msg_type() - what a received link message is
 * @buf: the message
 * @len: the bytes received
 *
 * Return: %UMS_LLC_CONFIRM_LINK or %UMS_CDC_MSG, or -EPROTO for a
 * message of another length or type.
 */
int ums_msg_type(const void *buf, size_t len)
{
	const u8 *b = buf;

	if (len != UMS_MSG_LEN || b[1] != UMS_MSG_LEN)
		return -EPROTO;
	if (b[0] != UMS_LLC_CONFIRM_LINK && b[0] != UMS_CDC_MSG)
		return -EPROTO;
	return b[0];
}

/**
 * ums_llc_build_confirm() - encode a Confirm Link or its response
 * @buf: where to write it
 * @size: room at @buf
 * @cl: its content
 *
 * Return: its length, or -ENOSPC.
 */
int ums_llc_build_confirm(void *buf, size_t size,
			  const struct ums_llc_confirm *cl)
{
	struct ums_llc_confirm_link *m = buf;

	if (size < sizeof(*m))
		return -ENOSPC;
	memset(m, 0, sizeof(*m));
	m->hdr.type = UMS_LLC_CONFIRM_LINK;
	m->hdr.length = UMS_MSG_LEN;
	m->hdr.flags = cl->resp ? UMS_LLC_FLAG_RESP : 0;
	memcpy(m->eid, cl->eid, sizeof(m->eid));
	m->jetty_id = cpu_to_be32(cl->jetty_id);
	m->link_uid = cpu_to_be32(cl->link_uid);
	m->link_num = cl->link_num;
	m->max_links = cl->max_links;
	return sizeof(*m);
}

/**
 * ums_llc_parse_confirm() - validate and decode a Confirm Link
 * @buf: the message
 * @len: its length as received
 * @cl: its content, on success
 *
 * The jetty ID must not be 0, the link number within 1 .. @max_links,
 * and no flag but %UMS_LLC_FLAG_RESP set.
 *
 * Return: 0, or -EPROTO.
 */
int ums_llc_parse_confirm(const void *buf, size_t len,
			  struct ums_llc_confirm *cl)
{
	const struct ums_llc_confirm_link *m = buf;

	if (ums_msg_type(buf, len) != UMS_LLC_CONFIRM_LINK)
		return -EPROTO;
	if (m->hdr.flags & ~UMS_LLC_FLAG_RESP || !m->jetty_id ||
	    !m->link_num || m->link_num > m->max_links)
		return -EPROTO;
	cl->resp = m->hdr.flags & UMS_LLC_FLAG_RESP;
	memcpy(cl->eid, m->eid, sizeof(cl->eid));
	cl->jetty_id = be32_to_cpu(m->jetty_id);
	cl->link_uid = be32_to_cpu(m->link_uid);
	cl->link_num = m->link_num;
	cl->max_links = m->max_links;
	return 0;
}

/**
 * ums_cdc_build() - encode a CDC message
 * @buf: where to write it
 * @size: room at @buf
 * @cdc: its content
 *
 * Return: its length, or -ENOSPC.
 */
int ums_cdc_build(void *buf, size_t size, const struct ums_cdc *cdc)
{
	struct ums_cdc_msg *m = buf;

	if (size < sizeof(*m))
		return -ENOSPC;
	memset(m, 0, sizeof(*m));
	m->type = UMS_CDC_MSG;
	m->length = UMS_MSG_LEN;
	m->seqno = cpu_to_be16(cdc->seqno);
	m->token = cpu_to_be32(cdc->token);
	m->prod = cpu_to_be64(cdc->prod);
	m->cons = cpu_to_be64(cdc->cons);
	m->prod_flags = cdc->prod_flags;
	m->conn_flags = cdc->conn_flags;
	return sizeof(*m);
}

/**
 * ums_cdc_parse() - validate and decode a CDC message
 * @buf: the message
 * @len: its length as received
 * @cdc: its content, on success
 *
 * The token must not be 0 and no unknown flag be set; the cursors are
 * checked by the connection, which knows its buffers (cdc.c).
 *
 * Return: 0, or -EPROTO.
 */
int ums_cdc_parse(const void *buf, size_t len, struct ums_cdc *cdc)
{
	const struct ums_cdc_msg *m = buf;

	if (ums_msg_type(buf, len) != UMS_CDC_MSG)
		return -EPROTO;
	if (!m->token || m->prod_flags & ~UMS_CDC_WRITE_BLOCKED ||
	    m->conn_flags & ~UMS_CDC_CONN_FLAGS)
		return -EPROTO;
	cdc->seqno = be16_to_cpu(m->seqno);
	cdc->token = be32_to_cpu(m->token);
	cdc->prod = be64_to_cpu(m->prod);
	cdc->cons = be64_to_cpu(m->cons);
	cdc->prod_flags = m->prod_flags;
	cdc->conn_flags = m->conn_flags;
	return 0;
}
