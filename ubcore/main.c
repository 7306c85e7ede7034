// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * ubcore: the core of the UB/URMA stack. This file holds the module's life
 * cycle and the "ubcore" device class under which UB devices appear.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/device.h>
#include <linux/module.h>
#include <net/net_namespace.h>

#include <uapi/ub/ubcore_abi.h>

#include "ubcore_priv.h"

static ssize_t abi_version_show(struct class *class,
				struct class_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%d\n", UBCORE_ABI_VERSION);
}
static CLASS_ATTR_RO(abi_version);

/* The namespace sysfs files a device under (the class is tagged by it). */
static const void *ubcore_class_namespace(struct device *device)
{
	return ubcore_dev_net(to_ubcore_device(device));
}

/*
 * Devices are seen only in their network namespace (a sysfs mounted there),
 * as netdevs and RDMA devices are: the class directory is tagged, and
 * every file in it needs a namespace, abi_version too: one per namespace.
 */
struct class ubcore_class = {
	.name = UBCORE_CLASS_NAME,
	.owner = THIS_MODULE,
	.ns_type = &net_ns_type_operations,
	.namespace = ubcore_class_namespace,
};

static int __net_init ubcore_net_init(struct net *net)
{
	return class_create_file_ns(&ubcore_class, &class_attr_abi_version, net);
}

static void __net_exit ubcore_net_exit(struct net *net)
{
	class_remove_file_ns(&ubcore_class, &class_attr_abi_version, net);
}

static struct pernet_operations ubcore_net_ops = {
	.init = ubcore_net_init,
	.exit = ubcore_net_exit,
};

static int __init ubcore_init(void)
{
	int ret;

	ubcore_sysfs_init();
	ret = class_register(&ubcore_class);
	if (ret) {
		pr_err("cannot register class %s: %d\n", UBCORE_CLASS_NAME, ret);
		return ret;
	}
	ret = register_pernet_subsys(&ubcore_net_ops);
	if (ret) {
		pr_err("cannot follow network namespaces: %d\n", ret);
		goto err_class;
	}
	ret = ubcore_logical_init();
	if (ret) {
		pr_err("cannot follow network namespaces for logical devices: %d\n",
		       ret);
		goto err_pernet;
	}
	ret = ubcore_netdev_init();
	if (ret) {
		pr_err("cannot follow netdevs: %d\n", ret);
		goto err_logical;
	}
	ret = ubcore_netlink_init();
	if (ret) {
		pr_err("cannot register the generic netlink family: %d\n", ret);
		goto err_netdev;
	}
	pr_info("loaded, ABI version %d\n", UBCORE_ABI_VERSION);
	return 0;

err_netdev:
	ubcore_netdev_exit();
err_logical:
	ubcore_logical_exit();
err_pernet:
	unregister_pernet_subsys(&ubcore_net_ops);
err_class:
	class_unregister(&ubcore_class);
	return ret;
}

static void __exit ubcore_exit(void)
{
	ubcore_netlink_exit();
	ubcore_netdev_exit();
	ubcore_logical_exit();
	unregister_pernet_subsys(&ubcore_net_ops);
	class_unregister(&ubcore_class);
}

module_init(ubcore_init);
module_exit(ubcore_exit);

MODULE_DESCRIPTION("UB/URMA core: devices, EIDs, jetties, segments");
MODULE_AUTHOR("The UB/URMA stack authors");
MODULE_LICENSE("GPL");
