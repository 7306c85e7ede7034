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

#include <uapi/ub/ubcore_abi.h>

#include "ubcore_priv.h"

static ssize_t abi_version_show(struct class *class,
				struct class_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%d\n", UBCORE_ABI_VERSION);
}
static CLASS_ATTR_RO(abi_version);

static struct attribute *ubcore_class_attrs[] = {
	&class_attr_abi_version.attr,
	NULL,
};
ATTRIBUTE_GROUPS(ubcore_class);

struct class ubcore_class = {
	.name = UBCORE_CLASS_NAME,
	.owner = THIS_MODULE,
	.class_groups = ubcore_class_groups,
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
	ret = ubcore_netdev_init();
	if (ret) {
		pr_err("cannot follow netdevs: %d\n", ret);
		goto err_class;
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
err_class:
	class_unregister(&ubcore_class);
	return ret;
}

static void __exit ubcore_exit(void)
{
	ubcore_netlink_exit();
	ubcore_netdev_exit();
	class_unregister(&ubcore_class);
}

module_init(ubcore_init);
module_exit(ubcore_exit);

MODULE_DESCRIPTION("UB/URMA core: devices, EIDs, jetties, segments");
MODULE_AUTHOR("The UB/URMA stack authors");
MODULE_LICENSE("GPL");
