// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * /dev/ubagg: UMDK's ioctl for setting the topology (UVS's
 * uvs_ubagg_ioctl_set_topo) and reading it whole, and for creating and
 * deleting bonding devices and naming them. Each command acts on the
 * caller's network namespace. The node is mode 0600 (root opens it, as
 * UMDK's UVS daemon does); SET, CREATE_DEV and DELETE_DEV also need
 * CAP_NET_ADMIN over the namespace, so a file passed to someone else
 * changes nothing.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/capability.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/nsproxy.h>
#include <linux/sched.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "ubagg.h"

/* A command's fixed-size argument: its length checked, then copied in. */
static int ubagg_cmd_arg(const struct ubagg_cmd_hdr *hdr, void *arg, u32 len)
{
	if (hdr->args_len != len)
		return -EINVAL;
	if (copy_from_user(arg, u64_to_user_ptr(hdr->args_addr), len))
		return -EFAULT;
	return 0;
}

static int ubagg_cmd_set_topo(struct net *net, const struct ubagg_cmd_hdr *hdr)
{
	struct ubagg_set_topo_arg arg;
	int ret;

	if (!ns_capable(net->user_ns, CAP_NET_ADMIN))
		return -EPERM;
	ret = ubagg_cmd_arg(hdr, &arg, sizeof(arg));
	if (ret)
		return ret;
	return ubagg_topo_set(net, u64_to_user_ptr(arg.topo), arg.topo_num);
}

static int ubagg_cmd_get_topo(struct net *net, const struct ubagg_cmd_hdr *hdr)
{
	void __user *uarg = u64_to_user_ptr(hdr->args_addr);
	struct ubagg_get_topo_arg arg;
	struct ubagg_topo *topo;
	int ret;

	ret = ubagg_cmd_arg(hdr, &arg, sizeof(arg));
	if (ret)
		return ret;
	topo = ubagg_topo_get(net);
	arg.topo_num = topo ? topo->node_num : 0;
	if (topo && copy_to_user(u64_to_user_ptr(arg.topo), topo->nodes,
				 array_size(topo->node_num,
					    sizeof(*topo->nodes))))
		ret = -EFAULT;
	ubagg_topo_put(topo);
	if (!ret && copy_to_user(uarg, &arg, sizeof(arg)))
		ret = -EFAULT;
	return ret;
}

/* UMDK's argument (Standalone) or ours with the mode: args_len says. */
static int ubagg_cmd_create_dev(struct net *net,
				const struct ubagg_cmd_hdr *hdr)
{
	struct ubagg_create_dev_mode_arg arg = {};
	union ubcore_eid eid;

	if (!ns_capable(net->user_ns, CAP_NET_ADMIN))
		return -EPERM;
	if (hdr->args_len != sizeof(struct ubagg_create_dev_arg) &&
	    hdr->args_len != sizeof(arg))
		return -EINVAL;
	if (copy_from_user(&arg, u64_to_user_ptr(hdr->args_addr),
			   hdr->args_len))
		return -EFAULT;
	if (arg.rsvd || !memchr(arg.dev_name, 0, sizeof(arg.dev_name)))
		return -EINVAL;
	memcpy(eid.raw, arg.agg_eid, sizeof(eid.raw));
	return ubagg_bond_create(net, &eid, arg.dev_name, arg.mode);
}

static int ubagg_cmd_delete_dev(struct net *net,
				const struct ubagg_cmd_hdr *hdr)
{
	struct ubagg_delete_dev_arg arg;
	union ubcore_eid eid;
	int ret;

	if (!ns_capable(net->user_ns, CAP_NET_ADMIN))
		return -EPERM;
	ret = ubagg_cmd_arg(hdr, &arg, sizeof(arg));
	if (ret)
		return ret;
	memcpy(eid.raw, arg.agg_eid, sizeof(eid.raw));
	return ubagg_bond_delete(net, &eid);
}

static int ubagg_cmd_get_dev_name(struct net *net,
				  const struct ubagg_cmd_hdr *hdr)
{
	void __user *uarg = u64_to_user_ptr(hdr->args_addr);
	struct ubagg_get_dev_name_arg arg;
	union ubcore_eid eid;
	int ret;

	ret = ubagg_cmd_arg(hdr, &arg, sizeof(arg));
	if (ret)
		return ret;
	memcpy(eid.raw, arg.eid, sizeof(eid.raw));
	memset(arg.dev_name, 0, sizeof(arg.dev_name));
	ret = ubagg_bond_dev_name(net, &eid, arg.dev_name);
	if (!ret && copy_to_user(uarg, &arg, sizeof(arg)))
		ret = -EFAULT;
	return ret;
}

static long ubagg_ioctl(struct file *file, unsigned int cmd, unsigned long addr)
{
	struct net *net = current->nsproxy->net_ns;
	struct ubagg_cmd_hdr hdr;

	if (cmd != UBAGG_CMD)
		return -ENOTTY;
	if (copy_from_user(&hdr, (void __user *)addr, sizeof(hdr)))
		return -EFAULT;
	switch (hdr.command) {
	case UBAGG_CMD_SET_TOPO_INFO:
		return ubagg_cmd_set_topo(net, &hdr);
	case UBAGG_CMD_GET_TOPO_INFO:
		return ubagg_cmd_get_topo(net, &hdr);
	case UBAGG_CMD_CREATE_DEV:
		return ubagg_cmd_create_dev(net, &hdr);
	case UBAGG_CMD_DELETE_DEV:
		return ubagg_cmd_delete_dev(net, &hdr);
	case UBAGG_CMD_GET_DEV_NAME:
		return ubagg_cmd_get_dev_name(net, &hdr);
	default:
		return -EINVAL;
	}
}

static const struct file_operations ubagg_fops = {
	.owner = THIS_MODULE,
	.unlocked_ioctl = ubagg_ioctl,
	.compat_ioctl = compat_ptr_ioctl,
	.llseek = noop_llseek,
};

static struct miscdevice ubagg_misc = {
	.minor = MISC_DYNAMIC_MINOR,
	.name = "ubagg",
	.fops = &ubagg_fops,
	.mode = 0600,
};

/**
 * ubagg_cdev_init() - create /dev/ubagg
 *
 * Return: 0 or the error of misc_register().
 */
int ubagg_cdev_init(void)
{
	return misc_register(&ubagg_misc);
}

/** ubagg_cdev_exit() - remove /dev/ubagg (no ioctl runs once it returns) */
void ubagg_cdev_exit(void)
{
	misc_deregister(&ubagg_misc);
}
