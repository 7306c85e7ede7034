/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * The CLC codec: builds and validates the messages of
 * include/uapi/ub/ums_clc.h in memory, with no socket; the handshake
 * (handshake.c) moves them. A decoder trusts nothing of what it got: a
 * message it returns is whole, of a known type and version, with both
 * eyecatchers and every length and count in bounds.
 */
#ifndef _UMS_CLC_H
#define _UMS_CLC_H

#include <linux/in6.h>
#include <linux/types.h>
#include <uapi/ub/ums_clc.h>

/* What a proposal says, in host order. */
struct ums_clc_prop_info {
	u8 peer_id[UMS_CLC_PEER_ID_LEN];
	u8 eid[UMS_CLC_EID_LEN];
	u32 session_id;
	__be32 subnet;			/* IPv4: the sender's subnet, or 0 */
	u8 prefix_len;
	u8 ipv6_cnt;
	struct {
		struct in6_addr prefix;
		u8 len;
	} ipv6[UMS_CLC_MAX_V6_PREFIX];
};

/* What an accept or a confirm says, in host order. */
struct ums_clc_acc_info {
	u8 peer_id[UMS_CLC_PEER_ID_LEN];
	u8 eid[UMS_CLC_EID_LEN];
	u32 jetty_id;
	u32 jetty_token;
	u32 conn_token;
	u32 rmb_token_id;
	u32 rmb_token_value;
	u32 rmb_uasid;
	u64 rmb_va;
	u32 rmb_len;
	u32 lgr_id;
	bool first_contact;
};

int ums_clc_build_proposal(void *buf, size_t size,
			   const struct ums_clc_prop_info *info);
int ums_clc_build_decline(void *buf, size_t size, const u8 *peer_id,
			  u32 reason);
int ums_clc_check_hdr(const void *buf, size_t len);
int ums_clc_parse_proposal(const void *buf, size_t len,
			   struct ums_clc_prop_info *info);
int ums_clc_parse_decline(const void *buf, size_t len, u32 *reason);
int ums_clc_build_accept(void *buf, size_t size, u8 type,
			 const struct ums_clc_acc_info *info);
int ums_clc_parse_accept(const void *buf, size_t len, u8 type,
			 struct ums_clc_acc_info *info);

#endif /* _UMS_CLC_H */
