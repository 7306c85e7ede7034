/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * uburma: the userspace ABI of ubcore. One char device per UB device.
 */
#ifndef _UBURMA_H
#define _UBURMA_H

#include <linux/cdev.h>
#include <linux/device.h>
#include <linux/rwsem.h>

#include <ub/ubcore_device.h>

/**
 * struct uburma_device - the char device of one UB device
 * @dev: in class uburma; its refcount keeps this structure (the client
 *	registration holds one reference, each open file another)
 * @cdev: /dev/uburma/<name>
 * @lock: held for read by every command, for write when the UB device goes
 *	away; protects @ub_dev
 * @ub_dev: the UB device, or NULL once it is gone: the file is dead and
 *	every command fails with -EIO
 */
struct uburma_device {
	struct device dev;
	struct cdev cdev;
	struct rw_semaphore lock;	/* see above */
	struct ubcore_device *ub_dev;
};

/* Per open file. */
struct uburma_file {
	struct uburma_device *udev;
};

/* Char device minors, one per UB device. */
#define UBURMA_MAX_DEVICES	256

extern struct class uburma_class;
extern dev_t uburma_devt_base;
extern const struct file_operations uburma_fops;

int uburma_client_init(void);
void uburma_client_exit(void);

long uburma_ioctl(struct file *filp, unsigned int cmd, unsigned long arg);

/* Commands; each runs with udev->lock held for read and ub_dev alive. */
int uburma_cmd_query_device(struct uburma_file *ufile, void *args);
int uburma_cmd_get_eid_list(struct uburma_file *ufile, void *args);

#endif /* _UBURMA_H */
