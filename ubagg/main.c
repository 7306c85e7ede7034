// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * ubagg.ko: module load and unload (ubagg/README.md has the design).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>

#include "ubagg.h"

/*
 * The topology store first: the char device and the netlink family read
 * and write it, the responder follows it.
 */
static int __init ubagg_init(void)
{
	int ret;

	ret = ubagg_topo_init();
	if (ret)
		return ret;
	ret = ubagg_netlink_init();
	if (ret)
		goto err_topo;
	ret = ubagg_cdev_init();
	if (ret)
		goto err_netlink;
	ret = ubagg_bond_init();
	if (ret)
		goto err_cdev;
	ret = ubagg_ping_init();
	if (ret)
		goto err_bond;
	return 0;

err_bond:
	ubagg_bond_exit();
err_cdev:
	ubagg_cdev_exit();
err_netlink:
	ubagg_netlink_exit();
err_topo:
	ubagg_topo_exit();
	return ret;
}

static void __exit ubagg_exit(void)
{
	ubagg_ping_exit();
	ubagg_cdev_exit();
	ubagg_bond_exit();
	ubagg_netlink_exit();
	ubagg_topo_exit();
}

module_init(ubagg_init);
module_exit(ubagg_exit);

MODULE_DESCRIPTION("UB aggregation: the topology (GET_TOPO), bonding devices and the urma_ping responder");
MODULE_AUTHOR("The UB/URMA stack authors");
MODULE_LICENSE("GPL");
