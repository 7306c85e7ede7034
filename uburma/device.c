// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * uburma as a client of ubcore: a char device appears with each UB device
 * and turns dead (every command -EIO) when the UB device goes away, even
 * while files are open; the structure lives until the last file (and the
 * last event file) is closed. The removal destroys the contexts and objects
 * of the open files first, so that the UB device (and its provider module)
 * can go while processes still hold fds.
 */
#include <linux/idr.h>
#include <linux/slab.h>

#include "uburma.h"

static DEFINE_IDA(uburma_minor_ida);
static struct ubcore_client uburma_client;

static void uburma_device_release(struct device *dev)
{
	struct uburma_device *udev = container_of(dev, struct uburma_device, dev);

	ida_free(&uburma_minor_ida, MINOR(dev->devt) - MINOR(uburma_devt_base));
	cleanup_srcu_struct(&udev->mmap_srcu);
	kfree(udev);
}

static int uburma_add_device(struct ubcore_device *ub_dev)
{
	struct uburma_device *udev;
	int minor, ret;

	udev = kzalloc(sizeof(*udev), GFP_KERNEL);
	if (!udev)
		return -ENOMEM;
	ret = init_srcu_struct(&udev->mmap_srcu);
	if (ret) {
		kfree(udev);
		return ret;
	}
	minor = ida_alloc_max(&uburma_minor_ida, UBURMA_MAX_DEVICES - 1,
			      GFP_KERNEL);
	if (minor < 0) {
		cleanup_srcu_struct(&udev->mmap_srcu);
		kfree(udev);
		return minor;
	}
	init_rwsem(&udev->lock);
	write_pnet(&udev->net, ubcore_dev_net(ub_dev));
	/* names seen in more than one namespace: bonding_dev_0 on each host */
	if (ubcore_dev_is_logical(ub_dev) || ub_dev->is_bond)
		udev->node_ns = ubcore_dev_net(ub_dev)->ns.inum;
	udev->ub_dev = ub_dev;
	spin_lock_init(&udev->files_lock);
	INIT_LIST_HEAD(&udev->files);
	udev->event_handler.event_handler = uburma_dev_event_handler;
	device_initialize(&udev->dev);
	udev->dev.class = &uburma_class;
	udev->dev.devt = MKDEV(MAJOR(uburma_devt_base),
			       MINOR(uburma_devt_base) + minor);
	udev->dev.release = uburma_device_release;
	cdev_init(&udev->cdev, &uburma_fops);
	udev->cdev.owner = THIS_MODULE;
	ret = dev_set_name(&udev->dev, "%s", ub_dev->dev_name);
	if (!ret)
		ret = cdev_device_add(&udev->cdev, &udev->dev);
	if (ret) {
		dev_err(&ub_dev->dev, "cannot create its char device: %d\n", ret);
		put_device(&udev->dev);
		return ret;
	}
	ubcore_set_client_ctx(ub_dev, &uburma_client, udev);
	ubcore_register_event_handler(ub_dev, &udev->event_handler);
	return 0;
}

static void uburma_remove_device(struct ubcore_device *ub_dev, void *ctx)
{
	struct uburma_device *udev = ctx;
	struct uburma_file *ufile, *tmp;

	if (!udev)
		return;
	cdev_device_del(&udev->cdev, &udev->dev);
	ubcore_unregister_event_handler(ub_dev, &udev->event_handler);
	/*
	 * Waits for running commands and file releases; later ones see a dead
	 * device. mmap does not take the lock: wait for it with the SRCU.
	 */
	down_write(&udev->lock);
	uburma_dev_event_fatal(udev);
	WRITE_ONCE(udev->ub_dev, NULL);
	synchronize_srcu(&udev->mmap_srcu);
	/*
	 * With the lock held for write no command or release changes the
	 * list; each teardown takes its file off it.
	 */
	list_for_each_entry_safe(ufile, tmp, &udev->files, node) {
		mutex_lock(&ufile->mutex);
		uburma_file_destroy_ctx(ufile);
		mutex_unlock(&ufile->mutex);
	}
	up_write(&udev->lock);
	put_device(&udev->dev);
}

static struct ubcore_client uburma_client = {
	.name = "uburma",
	.add = uburma_add_device,
	.remove = uburma_remove_device,
};

int uburma_client_init(void)
{
	return ubcore_register_client(&uburma_client);
}

void uburma_client_exit(void)
{
	ubcore_unregister_client(&uburma_client);
}
