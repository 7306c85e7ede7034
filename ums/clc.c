// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * CLC messages in memory: encoders and validating decoders (clc.h).
 */
#include <linux/errno.h>
#include <linux/log2.h>
#include <linux/overflow.h>
#include <linux/string.h>
#include <asm/byteorder.h>

#include "clc.h"

static const u8 ums_clc_eyecatcher[UMS_CLC_EYECATCHER_LEN] =
	UMS_CLC_EYECATCHER;

static void ums_clc_put_hdr(struct ums_clc_hdr *hdr, u8 type, size_t len)
{
	memcpy(hdr->eyecatcher, ums_clc_eyecatcher, UMS_CLC_EYECATCHER_LEN);
	hdr->type = type;
	hdr->length = cpu_to_be16(len);
	hdr->vt = UMS_CLC_VT(UMS_CLC_V1, 0, UMS_CLC_TYPE_R);
}

static void ums_clc_put_trailer(void *msg, size_t len)
{
	memcpy((u8 *)msg + len - sizeof(struct ums_clc_trailer),
	       ums_clc_eyecatcher, UMS_CLC_EYECATCHER_LEN);
}

/**
 * ums_clc_build_proposal() - encode a proposal
 * @buf: where to write it
 * @size: room at @buf
 * @info: its content; at most %UMS_CLC_MAX_V6_PREFIX IPv6 prefixes
 *
 * Return: the message's length, -EINVAL for too many prefixes, -ENOSPC if
 * it does not fit.
 */
int ums_clc_build_proposal(void *buf, size_t size,
			   const struct ums_clc_prop_info *info)
{
	struct ums_clc_proposal *prop = buf;
	struct ums_clc_prefix_area *area;
	struct ums_clc_ipv6_prefix *v6;
	size_t len;
	int i;

	if (info->ipv6_cnt > UMS_CLC_MAX_V6_PREFIX)
		return -EINVAL;
	len = sizeof(*prop) + sizeof(*area) + info->ipv6_cnt * sizeof(*v6) +
	      sizeof(struct ums_clc_trailer);
	if (len > size)
		return -ENOSPC;
	memset(buf, 0, len);
	ums_clc_put_hdr(&prop->hdr, UMS_CLC_PROPOSAL, len);
	memcpy(prop->lcl.peer_id, info->peer_id, UMS_CLC_PEER_ID_LEN);
	memcpy(prop->lcl.eid, info->eid, UMS_CLC_EID_LEN);
	prop->lcl.session_id = cpu_to_be32(info->session_id);
	prop->iparea_offset = 0;
	area = (struct ums_clc_prefix_area *)(prop + 1);
	area->outgoing_subnet = info->subnet;
	area->prefix_len = info->prefix_len;
	area->ipv6_prefixes_cnt = info->ipv6_cnt;
	v6 = (struct ums_clc_ipv6_prefix *)(area + 1);
	for (i = 0; i < info->ipv6_cnt; i++) {
		memcpy(v6[i].prefix, &info->ipv6[i].prefix, 16);
		v6[i].prefix_len = info->ipv6[i].len;
	}
	ums_clc_put_trailer(buf, len);
	return len;
}

/**
 * ums_clc_build_decline() - encode a decline
 * @buf: where to write it
 * @size: room at @buf
 * @peer_id: the sender's system ID (%UMS_CLC_PEER_ID_LEN bytes)
 * @reason: a UMS_CLC_DECL_* code
 *
 * Return: the message's length, or -ENOSPC.
 */
int ums_clc_build_decline(void *buf, size_t size, const u8 *peer_id,
			  u32 reason)
{
	struct ums_clc_decline *dcl = buf;

	if (size < sizeof(*dcl))
		return -ENOSPC;
	memset(dcl, 0, sizeof(*dcl));
	ums_clc_put_hdr(&dcl->hdr, UMS_CLC_DECLINE, sizeof(*dcl));
	memcpy(dcl->peer_id, peer_id, UMS_CLC_PEER_ID_LEN);
	dcl->peer_diagnosis = cpu_to_be32(reason);
	dcl->os = UMS_CLC_OS_LINUX << 4;
	ums_clc_put_trailer(dcl, sizeof(*dcl));
	return sizeof(*dcl);
}

/* The smallest message of each type: a proposal with no prefix. */
static size_t ums_clc_min_len(u8 type)
{
	switch (type) {
	case UMS_CLC_PROPOSAL:
		return sizeof(struct ums_clc_proposal) +
		       sizeof(struct ums_clc_prefix_area) +
		       sizeof(struct ums_clc_trailer);
	case UMS_CLC_ACCEPT:
	case UMS_CLC_CONFIRM:
		return UMS_CLC_ACCEPT_CONFIRM_LEN;
	case UMS_CLC_DECLINE:
		return UMS_CLC_DECLINE_LEN;
	default:
		return 0;
	}
}

/**
 * ums_clc_check_hdr() - validate the header of a message being received
 * @buf: its first sizeof(struct ums_clc_hdr) bytes
 * @len: how many bytes @buf holds
 *
 * Checks the eyecatcher, the type, the version and that the length is one
 * the type can have and at most %UMS_CLC_MAX_LEN, so that the receiver
 * knows how much more to read.
 *
 * Return: the message's length, or -EPROTO.
 */
int ums_clc_check_hdr(const void *buf, size_t len)
{
	const struct ums_clc_hdr *hdr = buf;
	size_t min, mlen;

	if (len < sizeof(*hdr) ||
	    memcmp(hdr->eyecatcher, ums_clc_eyecatcher, UMS_CLC_EYECATCHER_LEN))
		return -EPROTO;
	min = ums_clc_min_len(hdr->type);
	if (!min || UMS_CLC_VT_VERSION(hdr->vt) < UMS_CLC_V1)
		return -EPROTO;
	mlen = be16_to_cpu(hdr->length);
	if (mlen < min || mlen > UMS_CLC_MAX_LEN)
		return -EPROTO;
	if (hdr->type != UMS_CLC_PROPOSAL && mlen != min)
		return -EPROTO;
	return mlen;
}

/* The header and the trailer of a whole message of @type. */
static int ums_clc_check_msg(const void *buf, size_t len, u8 type)
{
	const struct ums_clc_hdr *hdr = buf;
	const struct ums_clc_trailer *trl;
	int mlen = ums_clc_check_hdr(buf, len);

	if (mlen < 0)
		return mlen;
	if (hdr->type != type || mlen != len)
		return -EPROTO;
	trl = (const void *)((const u8 *)buf + len - sizeof(*trl));
	if (memcmp(trl->eyecatcher, ums_clc_eyecatcher, UMS_CLC_EYECATCHER_LEN))
		return -EPROTO;
	return 0;
}

/**
 * ums_clc_parse_proposal() - validate and decode a whole proposal
 * @buf: the message
 * @len: its length as received
 * @info: its content, on success
 *
 * Beyond the header and trailer, the IP area's offset and the count of
 * IPv6 prefixes must add up to exactly the message's length, each prefix
 * length must fit its family, and typev1 must offer UMS over UB.
 *
 * Return: 0, or -EPROTO.
 */
int ums_clc_parse_proposal(const void *buf, size_t len,
			   struct ums_clc_prop_info *info)
{
	const struct ums_clc_proposal *prop = buf;
	const struct ums_clc_prefix_area *area;
	const struct ums_clc_ipv6_prefix *v6;
	size_t off;
	int rc, i;

	rc = ums_clc_check_msg(buf, len, UMS_CLC_PROPOSAL);
	if (rc)
		return rc;
	if (UMS_CLC_VT_TYPEV1(prop->hdr.vt) != UMS_CLC_TYPE_R)
		return -EPROTO;
	off = sizeof(*prop) + be16_to_cpu(prop->iparea_offset);
	if (off + sizeof(*area) + sizeof(struct ums_clc_trailer) > len)
		return -EPROTO;
	area = (const void *)((const u8 *)buf + off);
	if (area->ipv6_prefixes_cnt > UMS_CLC_MAX_V6_PREFIX ||
	    area->prefix_len > 32 ||
	    off + sizeof(*area) + area->ipv6_prefixes_cnt * sizeof(*v6) +
	    sizeof(struct ums_clc_trailer) != len)
		return -EPROTO;
	memset(info, 0, sizeof(*info));
	memcpy(info->peer_id, prop->lcl.peer_id, UMS_CLC_PEER_ID_LEN);
	memcpy(info->eid, prop->lcl.eid, UMS_CLC_EID_LEN);
	info->session_id = be32_to_cpu(prop->lcl.session_id);
	info->subnet = area->outgoing_subnet;
	info->prefix_len = area->prefix_len;
	info->ipv6_cnt = area->ipv6_prefixes_cnt;
	v6 = (const void *)(area + 1);
	for (i = 0; i < info->ipv6_cnt; i++) {
		if (v6[i].prefix_len > 128)
			return -EPROTO;
		memcpy(&info->ipv6[i].prefix, v6[i].prefix, 16);
		info->ipv6[i].len = v6[i].prefix_len;
	}
	return 0;
}

/**
 * ums_clc_parse_decline() - validate and decode a whole decline
 * @buf: the message
 * @len: its length as received
 * @reason: the peer's UMS_CLC_DECL_* code, on success
 *
 * Return: 0, or -EPROTO.
 */
int ums_clc_parse_decline(const void *buf, size_t len, u32 *reason)
{
	const struct ums_clc_decline *dcl = buf;
	int rc = ums_clc_check_msg(buf, len, UMS_CLC_DECLINE);

	if (rc)
		return rc;
	*reason = be32_to_cpu(dcl->peer_diagnosis);
	return 0;
}

/**
 * ums_clc_build_accept() - encode an accept or a confirm
 * @buf: where to write it
 * @size: room at @buf
 * @type: %UMS_CLC_ACCEPT or %UMS_CLC_CONFIRM
 * @info: its content
 *
 * Return: the message's length, or -ENOSPC.
 */
int ums_clc_build_accept(void *buf, size_t size, u8 type,
			 const struct ums_clc_acc_info *info)
{
	struct ums_clc_accept *acc = buf;

	if (size < sizeof(*acc))
		return -ENOSPC;
	memset(acc, 0, sizeof(*acc));
	ums_clc_put_hdr(&acc->hdr, type, sizeof(*acc));
	memcpy(acc->peer_id, info->peer_id, UMS_CLC_PEER_ID_LEN);
	memcpy(acc->eid, info->eid, UMS_CLC_EID_LEN);
	acc->jetty_id = cpu_to_be32(info->jetty_id);
	acc->jetty_token = cpu_to_be32(info->jetty_token);
	acc->conn_token = cpu_to_be32(info->conn_token);
	acc->rmb_token_id = cpu_to_be32(info->rmb_token_id);
	acc->rmb_token_value = cpu_to_be32(info->rmb_token_value);
	acc->rmb_uasid = cpu_to_be32(info->rmb_uasid);
	acc->rmb_va = cpu_to_be64(info->rmb_va);
	acc->rmb_len = cpu_to_be32(info->rmb_len);
	acc->lgr_id = cpu_to_be32(info->lgr_id);
	acc->flags = info->first_contact ? UMS_CLC_FIRST_CONTACT : 0;
	ums_clc_put_trailer(acc, sizeof(*acc));
	return sizeof(*acc);
}

/* An RMB length UMS can have: 16 KiB x 2^n, at most UMS_BUF_MAX. */
static bool ums_clc_rmb_len_ok(u32 len)
{
	return len >= UMS_BUF_MIN && len <= UMS_BUF_MAX && is_power_of_2(len);
}

/**
 * ums_clc_parse_accept() - validate and decode a whole accept or confirm
 * @buf: the message
 * @len: its length as received
 * @type: the type expected, %UMS_CLC_ACCEPT or %UMS_CLC_CONFIRM
 * @info: its content, on success
 *
 * Beyond the frame: typev1 must be UMS over UB, no flag but first contact
 * set, the jetty, the connection token, the RMB's token ID (within UB's 20
 * bits) and the link group not 0, the RMB's length one UMS has (16 KiB x
 * 2^n up to %UMS_BUF_MAX) and its range not wrap.
 *
 * Return: 0, or -EPROTO.
 */
int ums_clc_parse_accept(const void *buf, size_t len, u8 type,
			 struct ums_clc_acc_info *info)
{
	const struct ums_clc_accept *acc = buf;
	int rc = ums_clc_check_msg(buf, len, type);
	u64 va, end;

	if (rc)
		return rc;
	if (UMS_CLC_VT_TYPEV1(acc->hdr.vt) != UMS_CLC_TYPE_R ||
	    acc->flags & ~UMS_CLC_FIRST_CONTACT)
		return -EPROTO;
	memset(info, 0, sizeof(*info));
	info->jetty_id = be32_to_cpu(acc->jetty_id);
	info->conn_token = be32_to_cpu(acc->conn_token);
	info->rmb_token_id = be32_to_cpu(acc->rmb_token_id);
	info->rmb_len = be32_to_cpu(acc->rmb_len);
	info->lgr_id = be32_to_cpu(acc->lgr_id);
	va = be64_to_cpu(acc->rmb_va);
	if (!info->jetty_id || !info->conn_token || !info->lgr_id ||
	    !info->rmb_token_id || info->rmb_token_id >> 20 ||
	    !ums_clc_rmb_len_ok(info->rmb_len) ||
	    check_add_overflow(va, (u64)info->rmb_len, &end))
		return -EPROTO;
	memcpy(info->peer_id, acc->peer_id, UMS_CLC_PEER_ID_LEN);
	memcpy(info->eid, acc->eid, UMS_CLC_EID_LEN);
	info->jetty_token = be32_to_cpu(acc->jetty_token);
	info->rmb_token_value = be32_to_cpu(acc->rmb_token_value);
	info->rmb_uasid = be32_to_cpu(acc->rmb_uasid);
	info->rmb_va = va;
	info->first_contact = acc->flags & UMS_CLC_FIRST_CONTACT;
	return 0;
}
