// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * uburma.ko: module life cycle, the uburma class and the char device region.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/fs.h>
#include <linux/module.h>
#include <linux/netdevice.h>

#include <uapi/ub/uburma_ioctl.h>

#include "uburma.h"

dev_t uburma_devt_base;

/* Nodes go to /dev/uburma/<dev>. */
/*
 * /dev/uburma/<dev>; a logical device has its physical device's name, and
 * a bonding device is bonding_dev_0 on every host, so their node is
 * /dev/uburma/<dev>@<namespace inode number>, which its uevent's DEVNAME
 * tells (liburma reads it from sysfs).
 */
static char *uburma_devnode(struct device *dev, umode_t *mode)
{
	struct uburma_device *udev = container_of(dev, struct uburma_device, dev);

	if (mode)
		*mode = 0666;
	if (udev->node_ns)
		return kasprintf(GFP_KERNEL, "uburma/%s@%u", dev_name(dev),
				 udev->node_ns);
	return kasprintf(GFP_KERNEL, "uburma/%s", dev_name(dev));
}

/* sysfs shows a char device only in its UB device's network namespace. */
static const void *uburma_namespace(struct device *dev)
{
	return read_pnet(&container_of(dev, struct uburma_device, dev)->net);
}

struct class uburma_class = {
	.name = UBURMA_CLASS_NAME,
	.owner = THIS_MODULE,
	.devnode = uburma_devnode,
	.ns_type = &net_ns_type_operations,
	.namespace = uburma_namespace,
};

static int __init uburma_init(void)
{
	int ret;

	ret = alloc_chrdev_region(&uburma_devt_base, 0, UBURMA_MAX_DEVICES,
				  UBURMA_CLASS_NAME);
	if (ret) {
		pr_err("cannot allocate char device numbers: %d\n", ret);
		return ret;
	}
	ret = class_register(&uburma_class);
	if (ret) {
		pr_err("cannot register class: %d\n", ret);
		goto err_region;
	}
	ret = uburma_client_init();
	if (ret) {
		pr_err("cannot register with ubcore: %d\n", ret);
		goto err_class;
	}
	return 0;

err_class:
	class_unregister(&uburma_class);
err_region:
	unregister_chrdev_region(uburma_devt_base, UBURMA_MAX_DEVICES);
	return ret;
}

static void __exit uburma_exit(void)
{
	uburma_client_exit();
	class_unregister(&uburma_class);
	unregister_chrdev_region(uburma_devt_base, UBURMA_MAX_DEVICES);
}

module_init(uburma_init);
module_exit(uburma_exit);

MODULE_DESCRIPTION("UB/URMA userspace access: char devices and ioctls");
MODULE_AUTHOR("The UB/URMA stack authors");
MODULE_LICENSE("GPL");
