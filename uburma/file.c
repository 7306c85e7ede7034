// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * The file operations of /dev/uburma/<dev>: open, close and the one ioctl
 * that carries every command.
 */
#include <linux/fs.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include <uapi/ub/uburma_ioctl.h>

#include "uburma.h"

static int uburma_open(struct inode *inode, struct file *filp)
{
	struct uburma_device *udev =
		container_of(inode->i_cdev, struct uburma_device, cdev);
	struct uburma_file *ufile;
	int ret = 0;

	ufile = kzalloc(sizeof(*ufile), GFP_KERNEL);
	if (!ufile)
		return -ENOMEM;
	down_read(&udev->lock);
	if (!udev->ub_dev)
		ret = -ENODEV;
	up_read(&udev->lock);
	if (ret) {
		kfree(ufile);
		return ret;
	}
	get_device(&udev->dev);
	ufile->udev = udev;
	filp->private_data = ufile;
	return nonseekable_open(inode, filp);
}

static int uburma_release(struct inode *inode, struct file *filp)
{
	struct uburma_file *ufile = filp->private_data;

	put_device(&ufile->udev->dev);
	kfree(ufile);
	return 0;
}

const struct file_operations uburma_fops = {
	.owner = THIS_MODULE,
	.open = uburma_open,
	.release = uburma_release,
	.unlocked_ioctl = uburma_ioctl,
	.compat_ioctl = compat_ptr_ioctl,
	.llseek = no_llseek,
};
