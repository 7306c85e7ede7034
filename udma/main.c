// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * udma: the software UB device, a UB engine over any Ethernet/IP netdev
 * (UBoE). This file holds the module's life cycle, the "netdev" parameter
 * that binds devices at load, and the link ops through which an
 * administrator adds devices at run time.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/netdevice.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <net/net_namespace.h>

#include "udma.h"

static char *udma_netdev_param;
module_param_named(netdev, udma_netdev_param, charp, 0444);
MODULE_PARM_DESC(netdev,
		 "Comma-separated netdevs (of the initial network namespace) to bind a device to at load, e.g. lo,veth0");

static int udma_newlink(const char *name, struct net_device *ndev)
{
	return udma_dev_add(ndev, name && *name ? name : UDMA_DEV_NAME_FMT);
}

static struct ubcore_link_ops udma_link_ops = {
	.type = UDMA_DRIVER_NAME,
	.newlink = udma_newlink,
};

static int udma_bind_one(const char *name)
{
	struct net_device *ndev;
	int ret;

	ndev = dev_get_by_name(&init_net, name);
	if (!ndev) {
		pr_err("netdev %s not found\n", name);
		return -ENODEV;
	}
	ret = udma_dev_add(ndev, UDMA_DEV_NAME_FMT);
	dev_put(ndev);
	if (ret)
		pr_err("cannot bind to netdev %s: %d\n", name, ret);
	return ret;
}

/* Bind the netdevs of the parameter, in order; empty names are skipped. */
static int udma_bind_param(void)
{
	char *names, *cur, *name;
	int ret = 0;

	if (!udma_netdev_param)
		return 0;
	names = kstrdup(udma_netdev_param, GFP_KERNEL);
	if (!names)
		return -ENOMEM;
	cur = names;
	while ((name = strsep(&cur, ","))) {
		name = strim(name);
		if (!*name)
			continue;
		ret = udma_bind_one(name);
		if (ret)
			break;
	}
	kfree(names);
	return ret;
}

/*
 * Undo everything but the link ops: devices first (refusing new ones), then
 * the notifier (so no netdev is left unwatched while it has a device), then
 * wait until ubcore has released every device, since it calls into this
 * module to do so; then UBoE's namespaces (no device, hence no socket, is
 * left) and the engine's workqueue (no queue is left); the packets' page
 * fragment caches last.
 */
static void udma_teardown(void)
{
	udma_dev_remove_all();
	udma_netdev_exit();
	udma_dev_wait_released();
	udma_uboe_exit();
	udma_engine_exit();
	udma_rtp_frags_drain();
}

static int __init udma_init(void)
{
	int ret;

	ret = udma_engine_init();
	if (ret)
		return ret;
	ret = udma_uboe_init();
	if (ret) {
		udma_engine_exit();
		return ret;
	}
	ret = udma_netdev_init();
	if (ret) {
		udma_uboe_exit();
		udma_engine_exit();
		return ret;
	}
	ret = udma_bind_param();
	if (ret) {
		udma_teardown();
		return ret;
	}
	ubcore_register_link_ops(&udma_link_ops);
	pr_info("loaded\n");
	return 0;
}

static void __exit udma_exit(void)
{
	/* ubcore calls newlink no more once this returns. */
	ubcore_unregister_link_ops(&udma_link_ops);
	udma_teardown();
	pr_info("unloaded\n");
}

module_init(udma_init);
module_exit(udma_exit);

MODULE_DESCRIPTION("UB/URMA software UB device over Ethernet/IP (UBoE)");
MODULE_AUTHOR("The UB/URMA stack authors");
MODULE_LICENSE("GPL");
