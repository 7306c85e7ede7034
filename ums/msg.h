/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * The LLC and CDC codec (include/uapi/ub/ums_msg.h) in memory, with no
 * link: the link (link.c) and the connections (cdc.c) move the messages.
 * A decoder trusts nothing: it checks the type, the length and every
 * field a receiver would act on.
 */
#ifndef _UMS_MSG_H
#define _UMS_MSG_H

#include <linux/types.h>
#include <uapi/ub/ums_msg.h>

/* What a Confirm Link says, in host order. */
struct ums_llc_confirm {
	bool resp;
	u8 eid[16];
	u32 jetty_id;
	u32 link_uid;
	u8 link_num;
	u8 max_links;
};

/* What a CDC message says, in host order. */
struct ums_cdc {
	u16 seqno;
	u32 token;
	u64 prod;
	u64 cons;
	u8 prod_flags;
	u8 conn_flags;
};

int ums_msg_type(const void *buf, size_t len);
int ums_llc_build_confirm(void *buf, size_t size,
			  const struct ums_llc_confirm *cl);
int ums_llc_parse_confirm(const void *buf, size_t len,
			  struct ums_llc_confirm *cl);
int ums_cdc_build(void *buf, size_t size, const struct ums_cdc *cdc);
int ums_cdc_parse(const void *buf, size_t len, struct ums_cdc *cdc);

#endif /* _UMS_MSG_H */
