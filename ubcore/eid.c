// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * EID conversions between the wire/ABI form and text. The text form is what
 * sysfs shows and what administrators type: an IPv6 address, or a dotted IPv4
 * address that stands for its IPv4-mapped EID.
 */
#include <linux/errno.h>
#include <linux/export.h>
#include <linux/inet.h>
#include <linux/kernel.h>
#include <linux/string.h>
#include <net/ipv6.h>

#include <ub/ubcore_eid.h>

/**
 * ubcore_eid_from_ipv4() - build the IPv4-mapped EID of an IPv4 address
 * @eid: result
 * @addr: IPv4 address in network byte order
 */
void ubcore_eid_from_ipv4(union ubcore_eid *eid, __be32 addr)
{
	ipv6_addr_set_v4mapped(addr, &eid->ip6);
}
EXPORT_SYMBOL_GPL(ubcore_eid_from_ipv4);

/**
 * ubcore_eid_is_ipv4() - whether an EID is an IPv4-mapped address
 * @eid: the EID
 *
 * Return: true for ::ffff:a.b.c.d.
 */
bool ubcore_eid_is_ipv4(const union ubcore_eid *eid)
{
	return ipv6_addr_v4mapped(&eid->ip6);
}
EXPORT_SYMBOL_GPL(ubcore_eid_is_ipv4);

/**
 * ubcore_eid_parse() - parse the text form of an EID
 * @str: text, not necessarily NUL-terminated; one trailing newline is allowed
 *	 so that sysfs and netlink input can be passed as is
 * @len: length of @str in bytes
 * @eid: result, written only on success
 *
 * Accepts any IPv6 text form and dotted-quad IPv4 (mapped to ::ffff:a.b.c.d).
 *
 * Return: 0 on success, -EINVAL if @str is not exactly one address.
 */
int ubcore_eid_parse(const char *str, size_t len, union ubcore_eid *eid)
{
	union ubcore_eid tmp;
	const char *end;
	__be32 v4;

	if (len && str[len - 1] == '\n')
		len--;
	if (!len || len > INET6_ADDRSTRLEN)
		return -EINVAL;

	if (in4_pton(str, len, (u8 *)&v4, -1, &end) && end == str + len)
		ubcore_eid_from_ipv4(&tmp, v4);
	else if (!in6_pton(str, len, tmp.raw, -1, &end) || end != str + len)
		return -EINVAL;
	*eid = tmp;
	return 0;
}
EXPORT_SYMBOL_GPL(ubcore_eid_parse);

/**
 * ubcore_eid_format() - write the canonical text form of an EID
 * @eid: the EID
 * @buf: output buffer
 * @size: size of @buf; UBCORE_EID_STR_LEN + 1 always suffices
 *
 * IPv4-mapped EIDs print as dotted IPv4, others as compressed IPv6, so that
 * the output parses back with ubcore_eid_parse() to the same EID.
 *
 * Return: the number of characters written (without the NUL), or -ENOSPC.
 */
int ubcore_eid_format(const union ubcore_eid *eid, char *buf, size_t size)
{
	int n;

	if (ubcore_eid_is_ipv4(eid))
		n = snprintf(buf, size, "%pI4", &eid->in4.addr);
	else
		n = snprintf(buf, size, "%pI6c", &eid->ip6);
	return (size_t)n < size ? n : -ENOSPC;
}
EXPORT_SYMBOL_GPL(ubcore_eid_format);
