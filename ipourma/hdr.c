// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * The 2-byte IPoURMA header (user guide 7.2 #3) in front of every IP packet
 * of a message: the EtherType of the packet, big endian. IPoURMA carries
 * IPv6 only (7.2 #2), so a receiver accepts ETH_P_IPV6 alone.
 */
#include <linux/errno.h>
#include <linux/if_ether.h>
#include <kunit/visibility.h>

#include "ipourma.h"

/**
 * ipourma_hdr_write() - write the header at the start of a message
 * @buf: the message's first byte
 * @proto: the packet's EtherType, big endian
 */
void ipourma_hdr_write(void *buf, __be16 proto)
{
	struct ipourma_hdr *hdr = buf;

	hdr->proto = proto;
}
EXPORT_SYMBOL_IF_KUNIT(ipourma_hdr_write);

/**
 * ipourma_hdr_parse() - check the header of a received message
 * @buf: the message
 * @len: its length, the header included
 *
 * Return: the length of the IP packet behind the header; -EINVAL if the
 * message is too short to hold the header and an IPv6 header's first
 * byte, -EMSGSIZE if it is longer than IPOURMA_MSG_MAX, -EPROTONOSUPPORT
 * if the header names anything but IPv6.
 */
int ipourma_hdr_parse(const void *buf, u32 len)
{
	const struct ipourma_hdr *hdr = buf;

	if (len <= IPOURMA_HDR_LEN)
		return -EINVAL;
	if (len > IPOURMA_MSG_MAX)
		return -EMSGSIZE;
	if (hdr->proto != htons(ETH_P_IPV6))
		return -EPROTONOSUPPORT;
	return len - IPOURMA_HDR_LEN;
}
EXPORT_SYMBOL_IF_KUNIT(ipourma_hdr_parse);
