// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * User contexts: the provider's state of one process on one device, and
 * the UB address space IDs (uasids) that name a process in UB addresses.
 *
 * A uasid belongs to the process (thread group) that first took it, for
 * as long as any of its contexts on any device uses it: another process
 * cannot take it, so the uasid in a segment's or jetty's address names the
 * process that created it. A process asks for the uasid it wants (liburma:
 * urma_init_attr_t.uasid, or a random one) or for 0, and then gets the one
 * it owns already or a new one (cyclic, 1 .. UBCORE_MAX_UASID).
 */
#include <linux/err.h>
#include <linux/export.h>
#include <linux/cred.h>
#include <linux/mutex.h>
#include <linux/pid.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/xarray.h>

#include "tp.h"
#include "ubcore_priv.h"

/*
 * struct ubcore_uasid - a uasid in use
 * @owner: the thread group that owns it (referenced)
 * @users: contexts that use it
 */
struct ubcore_uasid {
	struct pid *owner;
	u32 users;
};

/*
 * uasid -> struct ubcore_uasid (XA_FLAGS_ALLOC1); entries and their
 * fields change under ubcore_uasid_lock, which is taken only in process
 * context and never with another ubcore lock.
 */
static DEFINE_XARRAY_ALLOC1(ubcore_uasids);
static DEFINE_MUTEX(ubcore_uasid_lock);
static u32 ubcore_uasid_next;

/* The uasid the current process owns, or 0; ubcore_uasid_lock held. */
static u32 ubcore_uasid_of_current(struct pid *tgid)
{
	struct ubcore_uasid *u;
	unsigned long id;

	xa_for_each(&ubcore_uasids, id, u)
		if (u->owner == tgid)
			return id;
	return 0;
}

/*
 * Take @uasid for the current process (0: the one it owns, else a new
 * one): the uasid in *@out. Returns 0, -EINVAL (above UBCORE_MAX_UASID),
 * -EADDRINUSE (another process owns it), -ENOSPC or -ENOMEM.
 */
static int ubcore_uasid_get(struct ubcore_device *dev, u32 uasid, u32 *out)
{
	struct pid *tgid = task_tgid(current);
	struct ubcore_uasid *u;
	int ret = 0;

	if (uasid > UBCORE_MAX_UASID)
		return ubcore_inval(dev, "uasid %u (max %u)", uasid,
				    UBCORE_MAX_UASID);
	mutex_lock(&ubcore_uasid_lock);
	if (!uasid)
		uasid = ubcore_uasid_of_current(tgid);
	if (uasid) {
		u = xa_load(&ubcore_uasids, uasid);
		if (u && u->owner != tgid) {
			dev_dbg_ratelimited(&dev->dev,
					    "uasid %u belongs to another process\n",
					    uasid);
			ret = -EADDRINUSE;
			goto unlock;
		}
		if (u) {
			u->users++;
			goto done;
		}
	}
	u = kzalloc(sizeof(*u), GFP_KERNEL_ACCOUNT);
	if (!u) {
		ret = -ENOMEM;
		goto unlock;
	}
	if (uasid) {
		ret = xa_insert(&ubcore_uasids, uasid, u, GFP_KERNEL_ACCOUNT);
	} else {
		ret = xa_alloc_cyclic(&ubcore_uasids, &uasid, u,
				      XA_LIMIT(1, UBCORE_MAX_UASID),
				      &ubcore_uasid_next, GFP_KERNEL_ACCOUNT);
		ret = ret == -EBUSY ? -ENOSPC : min(ret, 0);
	}
	if (ret) {
		kfree(u);
		goto unlock;
	}
	u->owner = get_pid(tgid);
	u->users = 1;
done:
	*out = uasid;
unlock:
	mutex_unlock(&ubcore_uasid_lock);
	return ret;
}

static void ubcore_uasid_put(u32 uasid)
{
	struct ubcore_uasid *u;

	mutex_lock(&ubcore_uasid_lock);
	u = xa_load(&ubcore_uasids, uasid);
	if (!WARN_ON_ONCE(!u) && !--u->users) {
		xa_erase(&ubcore_uasids, uasid);
		put_pid(u->owner);
		kfree(u);
	}
	mutex_unlock(&ubcore_uasid_lock);
}

/**
 * ubcore_alloc_ucontext() - create a user context
 * @dev: the device
 * @eid_index: the EID the process uses, 0 .. UBCORE_MAX_EID_CNT - 1; for a
 *	user (@udata given) a slot that holds an EID
 * @uasid: the UB address space ID the process asks for, 1 ..
 *	UBCORE_MAX_UASID, or 0 for the one it owns or a new one; see above
 * @udata: the provider's command data (may be NULL)
 *
 * The context remembers the calling process as its creator; uctx->uasid
 * is the uasid it got.
 *
 * Context: process context; may sleep.
 * Return: the context, or ERR_PTR(-EINVAL) (bad @eid_index or @uasid),
 * ERR_PTR(-EADDRINUSE) (@uasid belongs to another process),
 * ERR_PTR(-EOPNOTSUPP) (the provider has no user contexts), -ENOSPC (no
 * uasid left, or the calling user has its user_limits/ucontext contexts),
 * -ENOMEM or the provider's error. Free with ubcore_free_ucontext().
 */
struct ubcore_ucontext *ubcore_alloc_ucontext(struct ubcore_device *dev,
					      u32 eid_index, u32 uasid,
					      struct ubcore_udata *udata)
{
	struct ubcore_user_share *share;
	struct ubcore_ucontext *uctx;
	int i, ret;

	if (!dev)
		return ERR_PTR(-EINVAL);
	if (!dev->ops->alloc_ucontext || !dev->ops->free_ucontext)
		return ERR_PTR(-EOPNOTSUPP);
	if (eid_index >= UBCORE_MAX_EID_CNT ||
	    ubcore_eid_use(dev, eid_index, udata))
		return ERR_PTR(ubcore_inval(dev, "eid_index %u", eid_index));
	share = ubcore_user_share_get(dev);
	if (IS_ERR(share)) {
		ubcore_eid_unuse(dev, eid_index);
		return ERR_CAST(share);
	}
	ret = ubcore_uasid_get(dev, uasid, &uasid);
	if (ret) {
		ubcore_user_share_put(dev, share);
		ubcore_eid_unuse(dev, eid_index);
		return ERR_PTR(ret);
	}

	uctx = dev->ops->alloc_ucontext(dev, eid_index, udata);
	if (IS_ERR_OR_NULL(uctx)) {
		ubcore_uasid_put(uasid);
		ubcore_user_share_put(dev, share);
		ubcore_eid_unuse(dev, eid_index);
		return uctx ? uctx : ERR_PTR(-ENOMEM);
	}
	uctx->share = share;
	uctx->ub_dev = dev;
	uctx->eid_index = eid_index;
	uctx->uasid = uasid;
	uctx->pid = get_task_pid(current, PIDTYPE_TGID);
	uctx->uid = current_euid();
	for (i = 0; i < UBCORE_OBJ_TYPE_MAX; i++)
		atomic_set(&uctx->obj_cnt[i], 0);
	mutex_init(&uctx->held_lock);
	INIT_LIST_HEAD(&uctx->held_tps);
	uctx->held_cnt = 0;
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
	struct ubcore_user_share *share;
	struct ubcore_device *dev;
	u32 uasid, eid_index;
	struct pid *pid;
	int i;

	if (!uctx)
		return;
	dev = uctx->ub_dev;
	ubcore_release_held_tps(uctx);
	mutex_destroy(&uctx->held_lock);
	pid = uctx->pid;
	uasid = uctx->uasid;
	eid_index = uctx->eid_index;
	for (i = 0; i < UBCORE_OBJ_TYPE_MAX; i++)
		WARN_ON_ONCE(atomic_read(&uctx->obj_cnt[i]));
	share = uctx->share;
	dev->ops->free_ucontext(uctx);
	put_pid(pid);
	ubcore_uasid_put(uasid);
	ubcore_user_share_put(dev, share);
	ubcore_eid_unuse(dev, eid_index);
	ubcore_obj_cnt_put(dev, NULL, UBCORE_OBJ_UCONTEXT);
}
EXPORT_SYMBOL_GPL(ubcore_free_ucontext);
