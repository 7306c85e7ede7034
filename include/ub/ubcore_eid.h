/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * EID: the 128-bit UB endpoint identifier. In UBoE an EID is an IPv6 address;
 * an IPv4 address is carried IPv4-mapped (::ffff:a.b.c.d).
 */
#ifndef _UB_UBCORE_EID_H
#define _UB_UBCORE_EID_H

#include <linux/types.h>
#include <linux/in6.h>

#define UBCORE_EID_SIZE		16
/* Longest text form: eight groups of four hex digits and seven colons. */
#define UBCORE_EID_STR_LEN	39

union ubcore_eid {
	u8 raw[UBCORE_EID_SIZE];	/* network byte order */
	struct {
		__be64 reserved;	/* 0 when IPv4-mapped */
		__be32 prefix;		/* 0x0000ffff when IPv4-mapped */
		__be32 addr;
	} in4;
	struct {
		__be64 subnet_prefix;
		__be64 interface_id;
	} in6;
	struct in6_addr ip6;
};

void ubcore_eid_from_ipv4(union ubcore_eid *eid, __be32 addr);
bool ubcore_eid_is_ipv4(const union ubcore_eid *eid);
int ubcore_eid_parse(const char *str, size_t len, union ubcore_eid *eid);
int ubcore_eid_format(const union ubcore_eid *eid, char *buf, size_t size);

#endif /* _UB_UBCORE_EID_H */
