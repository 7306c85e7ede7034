/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * What the files of the "ubcore" generic netlink family (netlink.c, the
 * family and its device and EID commands; netlink_res.c, the object
 * listing) share.
 */
#ifndef _UBCORE_NETLINK_H
#define _UBCORE_NETLINK_H

#include <net/genetlink.h>
#include <net/netlink.h>

#include <uapi/ub/ubcore_netlink.h>

struct ubcore_device;

bool ubcore_nl_missing(struct netlink_ext_ack *extack, struct nlattr **attrs,
		       int type);
struct ubcore_device *ubcore_nl_get_dev(struct net *net, struct nlattr **attrs,
					struct netlink_ext_ack *extack);
void *ubcore_nl_put_hdr(struct sk_buff *skb, u32 portid, u32 seq, int flags,
			u8 cmd);

/* RES_GET (netlink_res.c). */
extern const struct nla_policy ubcore_nl_res_policy[UBCORE_NL_ATTR_MAX + 1];
int ubcore_nl_res_get_doit(struct sk_buff *skb, struct genl_info *info);
int ubcore_nl_res_get_start(struct netlink_callback *cb);
int ubcore_nl_res_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb);

/* The namespace commands (netlink_ns.c). */
extern const struct nla_policy ubcore_nl_dev_ns_policy[UBCORE_NL_ATTR_MAX + 1];
extern const struct nla_policy ubcore_nl_eid_ns_policy[UBCORE_NL_ATTR_MAX + 1];
extern const struct nla_policy ubcore_nl_sys_set_policy[UBCORE_NL_ATTR_MAX + 1];
int ubcore_nl_dev_set_ns_doit(struct sk_buff *skb, struct genl_info *info);
int ubcore_nl_dev_expose_doit(struct sk_buff *skb, struct genl_info *info);
int ubcore_nl_dev_unexpose_doit(struct sk_buff *skb, struct genl_info *info);
int ubcore_nl_eid_set_ns_doit(struct sk_buff *skb, struct genl_info *info);
int ubcore_nl_sys_set_doit(struct sk_buff *skb, struct genl_info *info);

#endif /* _UBCORE_NETLINK_H */
