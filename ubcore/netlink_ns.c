// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * The namespace commands of the "ubcore" family (user guide 6.3.1):
 * DEV_SET_NS, DEV_EXPOSE, DEV_UNEXPOSE, EID_SET_NS and SYS_SET
 * (dev_sharing). The work is logical.c's; here the requests are checked
 * and each refusal gets its errno and an extended ACK message.
 *
 * Permissions. The device is named as the sender sees it, so it is in the
 * sender's namespace, whose owning user namespace GENL_UNS_ADMIN_PERM
 * checks CAP_NET_ADMIN in; the target namespace (an fd the sender opened)
 * needs CAP_NET_ADMIN in its owning user namespace as well, as moving a
 * netdev does. SYS_SET changes every namespace: CAP_NET_ADMIN in the
 * initial user namespace (GENL_ADMIN_PERM).
 *
 * Locking: none of its own; the handlers run without ubcore locks
 * (netlink.c), and logical.c takes its own.
 */
#include <linux/err.h>
#include <net/net_namespace.h>

#include "netlink.h"
#include "ubcore_priv.h"

/* DEV_SET_NS, DEV_EXPOSE, DEV_UNEXPOSE */
const struct nla_policy ubcore_nl_dev_ns_policy[UBCORE_NL_ATTR_MAX + 1] = {
	[UBCORE_NL_ATTR_DEV_NAME] = { .type = NLA_NUL_STRING,
				      .len = UBCORE_MAX_DEV_NAME - 1 },
	[UBCORE_NL_ATTR_NS_FD] = { .type = NLA_U32 },
};

const struct nla_policy ubcore_nl_eid_ns_policy[UBCORE_NL_ATTR_MAX + 1] = {
	[UBCORE_NL_ATTR_DEV_NAME] = { .type = NLA_NUL_STRING,
				      .len = UBCORE_MAX_DEV_NAME - 1 },
	[UBCORE_NL_ATTR_EID_INDEX] = { .type = NLA_U32 },
	[UBCORE_NL_ATTR_NS_FD] = { .type = NLA_U32 },
};

const struct nla_policy ubcore_nl_sys_set_policy[UBCORE_NL_ATTR_MAX + 1] = {
	[UBCORE_NL_ATTR_SYS_DEV_SHARING] = NLA_POLICY_MAX(NLA_U8, 1),
};

/* The namespace of the request's fd, with a reference, if the sender may. */
static struct net *ubcore_nl_target_net(struct sk_buff *skb,
					struct genl_info *info)
{
	struct nlattr *attr = info->attrs[UBCORE_NL_ATTR_NS_FD];
	struct net *net;

	if (ubcore_nl_missing(info->extack, info->attrs, UBCORE_NL_ATTR_NS_FD))
		return ERR_PTR(-EINVAL);
	net = get_net_ns_by_fd(nla_get_u32(attr));
	if (IS_ERR(net)) {
		NL_SET_ERR_MSG_ATTR(info->extack, attr,
				    "not an open network namespace file");
		return net;
	}
	if (!netlink_ns_capable(skb, net->user_ns, CAP_NET_ADMIN)) {
		put_net(net);
		NL_SET_ERR_MSG_ATTR(info->extack, attr,
				    "CAP_NET_ADMIN needed over the target namespace");
		return ERR_PTR(-EPERM);
	}
	return net;
}

/* The physical device the request names, with a reference. */
static struct ubcore_device *ubcore_nl_phys(struct genl_info *info)
{
	struct ubcore_device *dev;

	dev = ubcore_nl_get_dev(genl_info_net(info), info->attrs, info->extack);
	if (!IS_ERR(dev) && ubcore_dev_is_logical(dev)) {
		ubcore_put_device(dev);
		NL_SET_ERR_MSG_ATTR(info->extack,
				    info->attrs[UBCORE_NL_ATTR_DEV_NAME],
				    "a logical device: name its physical device, in its namespace");
		return ERR_PTR(-EINVAL);
	}
	return dev;
}

/* The messages of the errors the namespace commands share. */
static void ubcore_nl_ns_err(struct genl_info *info, int err)
{
	struct netlink_ext_ack *extack = info->extack;

	switch (err) {
	case -ENODEV:
		NL_SET_ERR_MSG(extack, "UB device is going away");
		break;
	case -EOPNOTSUPP:
		NL_SET_ERR_MSG(extack, "the device's provider has no logical devices");
		break;
	case -EBUSY:
		NL_SET_ERR_MSG(extack, "in use: a user context is open on it");
		break;
	}
}

/*
 * Both ends of a request: the physical device and the target namespace,
 * each with a reference (ubcore_nl_put_both()).
 */
static int ubcore_nl_get_both(struct sk_buff *skb, struct genl_info *info,
			      struct ubcore_device **phys, struct net **net)
{
	*phys = ubcore_nl_phys(info);
	if (IS_ERR(*phys))
		return PTR_ERR(*phys);
	*net = ubcore_nl_target_net(skb, info);
	if (IS_ERR(*net)) {
		ubcore_put_device(*phys);
		return PTR_ERR(*net);
	}
	return 0;
}

static void ubcore_nl_put_both(struct ubcore_device *phys, struct net *net)
{
	put_net(net);
	ubcore_put_device(phys);
}

typedef int (*ubcore_nl_ns_fn)(struct ubcore_device *phys, struct net *net);

/* A device command: look up both ends, run @fn, explain its error. */
static int ubcore_nl_dev_ns_do(struct sk_buff *skb, struct genl_info *info,
			       ubcore_nl_ns_fn fn)
{
	struct ubcore_device *phys;
	struct net *net;
	int ret;

	ret = ubcore_nl_get_both(skb, info, &phys, &net);
	if (ret)
		return ret;
	ret = fn(phys, net);
	ubcore_nl_put_both(phys, net);
	if (ret == -EEXIST)
		NL_SET_ERR_MSG(info->extack,
			       "a device of that name is in the namespace already");
	else if (ret == -ENOENT)
		NL_SET_ERR_MSG(info->extack,
			       "the device has no logical device in the namespace");
	else
		ubcore_nl_ns_err(info, ret);
	return ret;
}

int ubcore_nl_dev_set_ns_doit(struct sk_buff *skb, struct genl_info *info)
{
	return ubcore_nl_dev_ns_do(skb, info, ubcore_dev_set_ns);
}

int ubcore_nl_dev_expose_doit(struct sk_buff *skb, struct genl_info *info)
{
	return ubcore_nl_dev_ns_do(skb, info, ubcore_expose_device);
}

int ubcore_nl_dev_unexpose_doit(struct sk_buff *skb, struct genl_info *info)
{
	return ubcore_nl_dev_ns_do(skb, info, ubcore_unexpose_device);
}

int ubcore_nl_eid_set_ns_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *idx_attr = info->attrs[UBCORE_NL_ATTR_EID_INDEX];
	struct ubcore_device *phys;
	struct net *net;
	u32 idx;
	int ret;

	if (ubcore_nl_missing(info->extack, info->attrs, UBCORE_NL_ATTR_EID_INDEX))
		return -EINVAL;
	idx = nla_get_u32(idx_attr);
	if (idx >= UBCORE_MAX_EID_CNT) {
		NL_SET_ERR_MSG_ATTR(info->extack, idx_attr,
				    "EID index out of range (0 .. 63)");
		return -EINVAL;
	}
	ret = ubcore_nl_get_both(skb, info, &phys, &net);
	if (ret)
		return ret;
	ret = ubcore_eid_set_ns(phys, idx, net);
	ubcore_nl_put_both(phys, net);
	if (ret == -ENOENT)
		NL_SET_ERR_MSG_ATTR(info->extack, idx_attr, "no EID at this index");
	else if (ret == -EBUSY)
		NL_SET_ERR_MSG_ATTR(info->extack, idx_attr,
				    "EID in use: a user context is open on it");
	else
		ubcore_nl_ns_err(info, ret);
	return ret;
}

int ubcore_nl_sys_set_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *attr = info->attrs[UBCORE_NL_ATTR_SYS_DEV_SHARING];
	int ret;

	if (ubcore_nl_missing(info->extack, info->attrs,
			      UBCORE_NL_ATTR_SYS_DEV_SHARING))
		return -EINVAL;
	ret = ubcore_set_dev_sharing(nla_get_u8(attr));
	if (ret)
		NL_SET_ERR_MSG(info->extack,
			       "sharing is on, but a logical device could not be created (see the kernel log)");
	return ret;
}
