// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * The 2-byte IPoURMA header (user guide 7.2 #3) in front of every IP packet
 * of a message: the EtherType of the packet, big endian. IPoURMA carries
 * IPv6 only (7.2 #2), so a receiver accepts ETH_P_IPV6 alone.
 *
 * RM messages (module parameter trans_mode=rm) may also carry, as SEND_IMM's
 * 64-bit immediate data, what the sender left of the packet's checksum and
 * segmentation: virtio_net_hdr's fields, which the receiver applies with
 * virtio_net_hdr_to_skb() as tun and packet sockets do (the kernel's one
 * checked way to take them from an untrusted source).
 */
#include <linux/bitfield.h>
#include <linux/errno.h>
#include <linux/if_ether.h>
#include <linux/virtio_net.h>
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
 * @max: the longest message the netdev takes, the header included
 *
 * Return: the length of the IP packet behind the header; -EINVAL if the
 * message is too short to hold the header and an IPv6 header's first
 * byte, -EMSGSIZE if it is longer than @max, -EPROTONOSUPPORT if the
 * header names anything but IPv6.
 */
int ipourma_hdr_parse(const void *buf, u32 len, u32 max)
{
	const struct ipourma_hdr *hdr = buf;

	if (len <= IPOURMA_HDR_LEN)
		return -EINVAL;
	if (len > max)
		return -EMSGSIZE;
	if (hdr->proto != htons(ETH_P_IPV6))
		return -EPROTONOSUPPORT;
	return len - IPOURMA_HDR_LEN;
}
EXPORT_SYMBOL_IF_KUNIT(ipourma_hdr_parse);

/* The immediate data: virtio_net_hdr's fields but hdr_len (a hint only). */
#define IPOURMA_META_FLAGS	GENMASK_ULL(7, 0)
#define IPOURMA_META_GSO_TYPE	GENMASK_ULL(15, 8)
#define IPOURMA_META_GSO_SIZE	GENMASK_ULL(31, 16)
#define IPOURMA_META_CSUM_START	GENMASK_ULL(47, 32)
#define IPOURMA_META_CSUM_OFF	GENMASK_ULL(63, 48)

/**
 * ipourma_meta_pack() - the immediate data that carries a packet's offloads
 * @vh: from virtio_net_hdr_from_skb(), little endian
 *
 * Return: the immediate data.
 */
u64 ipourma_meta_pack(const struct virtio_net_hdr *vh)
{
	return FIELD_PREP(IPOURMA_META_FLAGS, vh->flags) |
	       FIELD_PREP(IPOURMA_META_GSO_TYPE, vh->gso_type) |
	       FIELD_PREP(IPOURMA_META_GSO_SIZE,
			  __virtio16_to_cpu(true, vh->gso_size)) |
	       FIELD_PREP(IPOURMA_META_CSUM_START,
			  __virtio16_to_cpu(true, vh->csum_start)) |
	       FIELD_PREP(IPOURMA_META_CSUM_OFF,
			  __virtio16_to_cpu(true, vh->csum_offset));
}
EXPORT_SYMBOL_IF_KUNIT(ipourma_meta_pack);

/**
 * ipourma_meta_unpack() - the offloads a received immediate data names
 * @imm: the immediate data (from the peer: nothing in it is trusted here,
 *	virtio_net_hdr_to_skb() checks it against the packet)
 * @vh: filled, little endian, hdr_len 0
 *
 * IPoURMA carries IPv6 alone: only TCPv6 segmentation is accepted, and
 * only with the checksum left to do (as TSO leaves it).
 *
 * Return: 0, or -EINVAL if @imm names another segmentation or flag.
 */
int ipourma_meta_unpack(u64 imm, struct virtio_net_hdr *vh)
{
	vh->flags = FIELD_GET(IPOURMA_META_FLAGS, imm);
	vh->gso_type = FIELD_GET(IPOURMA_META_GSO_TYPE, imm);
	vh->hdr_len = 0;
	vh->gso_size = __cpu_to_virtio16(true,
					 FIELD_GET(IPOURMA_META_GSO_SIZE, imm));
	vh->csum_start = __cpu_to_virtio16(true,
					   FIELD_GET(IPOURMA_META_CSUM_START,
						     imm));
	vh->csum_offset = __cpu_to_virtio16(true,
					    FIELD_GET(IPOURMA_META_CSUM_OFF,
						      imm));
	if (vh->flags & ~VIRTIO_NET_HDR_F_NEEDS_CSUM)
		return -EINVAL;
	if (vh->gso_type == VIRTIO_NET_HDR_GSO_NONE)
		return 0;
	if ((vh->gso_type & ~VIRTIO_NET_HDR_GSO_ECN) !=
	    VIRTIO_NET_HDR_GSO_TCPV6 || !vh->flags)
		return -EINVAL;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(ipourma_meta_unpack);
