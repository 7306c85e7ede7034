// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * The file operations of /dev/uburma/<dev>: open, close (which destroys
 * the file's context and objects), mmap of provider memory and the one
 * ioctl that carries every command.
 */
#include <linux/fs.h>
#include <linux/mm.h>
#include <linux/nsproxy.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include <uapi/ub/uburma_ioctl.h>

#include "uburma.h"

static void uburma_file_free(struct kref *ref)
{
	struct uburma_file *ufile = container_of(ref, struct uburma_file, ref);
	struct uburma_device *udev = ufile->udev;

	WARN_ON(!xa_empty(&ufile->handles));
	xa_destroy(&ufile->handles);
	mutex_destroy(&ufile->mutex);
	kfree(ufile);
	put_device(&udev->dev);
}

/* Process context: the last put may free the char device structure. */
void uburma_file_put(struct uburma_file *ufile)
{
	kref_put(&ufile->ref, uburma_file_free);
}

static int uburma_open(struct inode *inode, struct file *filp)
{
	struct uburma_device *udev =
		container_of(inode->i_cdev, struct uburma_device, cdev);
	struct uburma_file *ufile;
	int ret = 0;

	/*
	 * The device node is in every namespace's /dev (devtmpfs); the UB
	 * device belongs to one, as RDMA's char devices do.
	 */
	if (!net_eq(current->nsproxy->net_ns, read_pnet(&udev->net))) {
		dev_dbg_ratelimited(&udev->dev,
				    "open from another network namespace refused\n");
		return -EPERM;
	}
	ufile = kzalloc(sizeof(*ufile), GFP_KERNEL_ACCOUNT);
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
	kref_init(&ufile->ref);
	mutex_init(&ufile->mutex);
	xa_init_flags(&ufile->handles, XA_FLAGS_ALLOC1);
	INIT_LIST_HEAD(&ufile->node);
	filp->private_data = ufile;
	return nonseekable_open(inode, filp);
}

static int uburma_release(struct inode *inode, struct file *filp)
{
	struct uburma_file *ufile = filp->private_data;
	struct uburma_device *udev = ufile->udev;

	/* If the device went away first, its removal tore the context down. */
	down_read(&udev->lock);
	mutex_lock(&ufile->mutex);
	uburma_file_destroy_ctx(ufile);
	mutex_unlock(&ufile->mutex);
	up_read(&udev->lock);
	uburma_file_put(ufile);
	return 0;
}

/*
 * mmap(2) holds mmap_lock, which commands take inside udev->lock (pinning,
 * user copies): this must not take udev->lock or ufile->mutex. Device
 * removal clears ub_dev, then waits for mmap_srcu readers before it frees
 * contexts; file release cannot run during this file's mmap.
 */
static int uburma_mmap(struct file *filp, struct vm_area_struct *vma)
{
	struct uburma_file *ufile = filp->private_data;
	struct uburma_device *udev = ufile->udev;
	struct ubcore_ucontext *uctx;
	struct ubcore_device *ub_dev;
	int idx, ret;

	idx = srcu_read_lock(&udev->mmap_srcu);
	ub_dev = READ_ONCE(udev->ub_dev);
	/* Pairs with the release in CREATE_CTX: the context is set up. */
	uctx = smp_load_acquire(&ufile->ucontext);
	if (!ub_dev) {
		ret = -EIO;
	} else if (!uctx) {
		dev_dbg_ratelimited(&udev->dev, "mmap needs a context\n");
		ret = -EINVAL;
	} else if (!ub_dev->ops->mmap) {
		ret = -EOPNOTSUPP;
	} else {
		ret = ub_dev->ops->mmap(uctx, vma);
	}
	srcu_read_unlock(&udev->mmap_srcu, idx);
	return ret;
}

const struct file_operations uburma_fops = {
	.owner = THIS_MODULE,
	.open = uburma_open,
	.release = uburma_release,
	.unlocked_ioctl = uburma_ioctl,
	.compat_ioctl = compat_ptr_ioctl,
	.mmap = uburma_mmap,
	.llseek = no_llseek,
};
