// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * The generic netlink family "UBAGG_GENL" with UMDK's GET_TOPO: the
 * request names a user address (UBAGG_HDR_ARGS_ADDR) that the kernel reads
 * the node index from and writes the node into, in the sending process's
 * address space (a doit runs in the sender's context). The address is
 * used only through get_user()/put_user()/copy_to_user(): a bad one is
 * -EFAULT, never a kernel access.
 *
 * GET_TOPO is open to every user of the namespace, as RDMA's nldev
 * answers device and link queries to anyone (only its changes need
 * CAP_NET_ADMIN): the topology is addresses and links, what `ip addr`
 * shows any user; the change (/dev/ubagg) is privileged.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/uaccess.h>
#include <net/genetlink.h>

#include "ubagg.h"

static const struct nla_policy ubagg_nl_policy[UBAGG_NL_ATTR_MAX + 1] = {
	[UBAGG_HDR_ARGS_ADDR] = { .type = NLA_U64 },
};

static int ubagg_nl_get_topo(struct sk_buff *skb, struct genl_info *info)
{
	struct ubagg_nl_topo_info __user *uarg;
	struct ubagg_topo *topo;
	s32 idx;
	int ret = 0;

	if (GENL_REQ_ATTR_CHECK(info, UBAGG_HDR_ARGS_ADDR))
		return -EINVAL;
	uarg = u64_to_user_ptr(nla_get_u64(info->attrs[UBAGG_HDR_ARGS_ADDR]));
	if (get_user(idx, &uarg->in.node_idx))
		return -EFAULT;
	topo = ubagg_topo_get(genl_info_net(info));
	if (!topo) {
		NL_SET_ERR_MSG(info->extack,
			       "no topology is set in this network namespace");
		return -ENXIO;
	}
	if (idx < 0 || idx >= topo->node_num) {
		NL_SET_ERR_MSG(info->extack, "node index out of range");
		ret = -EINVAL;
	} else if (put_user(topo->node_num, &uarg->out.node_num) ||
		   copy_to_user(&uarg->out.topo_info, &topo->nodes[idx],
				sizeof(topo->nodes[idx]))) {
		ret = -EFAULT;
	}
	ubagg_topo_put(topo);
	return ret;
}

static const struct genl_ops ubagg_nl_ops[] = {
	{
		.cmd = UBAGG_NL_GET_TOPO,
		.doit = ubagg_nl_get_topo,
	},
};

static struct genl_family ubagg_nl_family __ro_after_init = {
	.name = UBAGG_GENL_FAMILY_NAME,
	.version = UBAGG_GENL_FAMILY_VERSION,
	.maxattr = UBAGG_NL_ATTR_MAX,
	.policy = ubagg_nl_policy,
	.netnsok = true,
	.parallel_ops = true,
	.module = THIS_MODULE,
	.ops = ubagg_nl_ops,
	.n_ops = ARRAY_SIZE(ubagg_nl_ops),
	/* a new family: strict checks on every command */
	.resv_start_op = UBAGG_NL_GET_TOPO,
};

/**
 * ubagg_netlink_init() - register "UBAGG_GENL"
 *
 * Return: 0 or the error of genl_register_family().
 */
int ubagg_netlink_init(void)
{
	return genl_register_family(&ubagg_nl_family);
}

/** ubagg_netlink_exit() - unregister it (no handler runs after) */
void ubagg_netlink_exit(void)
{
	genl_unregister_family(&ubagg_nl_family);
}
