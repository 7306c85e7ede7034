// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * User contexts: the provider's state of one process on one device.
 */
#include <linux/err.h>
#include <linux/export.h>
#include <linux/cred.h>
#include <linux/pid.h>
#include <linux/sched.h>

#include "ubcore_priv.h"

/**
 * ubcore_alloc_ucontext() - create a user context
 * @dev: the device
 * @eid_index: the EID the process uses, 0 .. UBCORE_MAX_EID_CNT - 1
 * @uasid: the process's UB address space ID
 * @udata: the provider's command data (may be NULL)
 *
 * The context remembers the calling process as its creator.
 *
 * Context: process context; may sleep.
 * Return: the context, or ERR_PTR(-EINVAL) (bad @eid_index),
 * ERR_PTR(-EOPNOTSUPP) (the provider has no user contexts) or the
 * provider's error. Free with ubcore_free_ucontext().
 */
struct ubcore_ucontext *ubcore_alloc_ucontext(struct ubcore_device *dev,
					      u32 eid_index, u32 uasid,
					      struct ubcore_udata *udata)
{
	struct ubcore_ucontext *uctx;

	if (!dev)
		return ERR_PTR(-EINVAL);
	if (!dev->ops->alloc_ucontext || !dev->ops->free_ucontext)
		return ERR_PTR(-EOPNOTSUPP);
	if (eid_index >= UBCORE_MAX_EID_CNT)
		return ERR_PTR(ubcore_inval(dev, "eid_index %u", eid_index));

	uctx = dev->ops->alloc_ucontext(dev, eid_index, udata);
	if (IS_ERR_OR_NULL(uctx))
		return uctx ? uctx : ERR_PTR(-ENOMEM);
	uctx->ub_dev = dev;
	uctx->eid_index = eid_index;
	uctx->uasid = uasid;
	uctx->pid = get_task_pid(current, PIDTYPE_TGID);
	uctx->uid = current_euid();
	ubcore_obj_cnt_inc(dev, UBCORE_OBJ_UCONTEXT);
	return uctx;
}
EXPORT_SYMBOL_GPL(ubcore_alloc_ucontext);

/**
 * ubcore_free_ucontext() - free a user context
 * @uctx: from ubcore_alloc_ucontext(); every object of it is gone
 *
 * Context: process context; may sleep.
 */
void ubcore_free_ucontext(struct ubcore_ucontext *uctx)
{
	struct ubcore_device *dev;
	struct pid *pid;

	if (!uctx)
		return;
	dev = uctx->ub_dev;
	pid = uctx->pid;
	dev->ops->free_ucontext(uctx);
	put_pid(pid);
	ubcore_obj_cnt_put(dev, UBCORE_OBJ_UCONTEXT);
}
EXPORT_SYMBOL_GPL(ubcore_free_ucontext);
