// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * What one user may hold of a device. The per-context limits (obj.c,
 * sysfs limits/) bound one context, but a user can open as many contexts
 * as it likes: without a bound per user, two contexts at their limits of
 * half the device take all of it. So every context of a user without
 * CAP_SYS_RESOURCE (the capability that lifts rlimits) counts its objects
 * in the share of its effective UID on that device too, against the limits
 * of sysfs user_limits/<type>, and at most user_limits/ucontext contexts
 * exist per user. A user at a limit gets -ENOSPC; other users do not
 * notice. The share lives while the user has a context on the device.
 */
#include <linux/capability.h>
#include <linux/cred.h>
#include <linux/slab.h>
#include <linux/uidgid.h>
#include <linux/xarray.h>

#include "ubcore_priv.h"

/* Contexts of one user on one device, by default. */
#define UBCORE_USER_CTX_DEFAULT		64

/**
 * ubcore_user_limits_init() - the default per-user limits of a device
 * @dev: the device, being registered
 *
 * A user may take what one context may (half the device, see
 * ubcore_ctx_limits_init()), in any number of its contexts, and open
 * UBCORE_USER_CTX_DEFAULT contexts.
 */
void ubcore_user_limits_init(struct ubcore_device *dev)
{
	memcpy(dev->user_limit, dev->ctx_limit, sizeof(dev->user_limit));
	dev->user_limit[UBCORE_OBJ_UCONTEXT] = UBCORE_USER_CTX_DEFAULT;
	mutex_init(&dev->user_lock);
	xa_init(&dev->user_shares);
}

/**
 * ubcore_user_share_get() - join the share of the calling user
 * @dev: the device, on which the caller is creating a context
 *
 * A caller with CAP_SYS_RESOURCE has no share (NULL) and no per-user
 * limit, as rlimits do not bind it.
 *
 * Context: process context; sleeps.
 * Return: the share, NULL, or ERR_PTR(-ENOSPC) (the user has
 * user_limits/ucontext contexts on @dev) or ERR_PTR(-ENOMEM). Leave it
 * with ubcore_user_share_put().
 */
struct ubcore_user_share *ubcore_user_share_get(struct ubcore_device *dev)
{
	u32 uid = from_kuid(&init_user_ns, current_euid());
	struct ubcore_user_share *s;
	int ret;

	if (capable(CAP_SYS_RESOURCE))
		return NULL;
	mutex_lock(&dev->user_lock);
	s = xa_load(&dev->user_shares, uid);
	if ((s ? s->ctxs : 0) >=
	    READ_ONCE(dev->user_limit[UBCORE_OBJ_UCONTEXT])) {
		dev_dbg_ratelimited(&dev->dev,
				    "user %u has its contexts (user_limits/ucontext)\n",
				    uid);
		s = ERR_PTR(-ENOSPC);
		goto unlock;
	}
	if (!s) {
		s = kzalloc(sizeof(*s), GFP_KERNEL_ACCOUNT);
		if (!s) {
			s = ERR_PTR(-ENOMEM);
			goto unlock;
		}
		s->uid = uid;
		ret = xa_err(xa_store(&dev->user_shares, uid, s,
				      GFP_KERNEL_ACCOUNT));
		if (ret) {
			kfree(s);
			s = ERR_PTR(ret);
			goto unlock;
		}
	}
	s->ctxs++;
unlock:
	mutex_unlock(&dev->user_lock);
	return s;
}

/**
 * ubcore_user_share_put() - leave a share
 * @dev: the device
 * @s: from ubcore_user_share_get() (NULL: none); the context that had it
 *	has no object left
 *
 * Context: process context; sleeps.
 */
void ubcore_user_share_put(struct ubcore_device *dev,
			   struct ubcore_user_share *s)
{
	int i;

	if (!s)
		return;
	mutex_lock(&dev->user_lock);
	if (!--s->ctxs) {
		for (i = 0; i < UBCORE_OBJ_TYPE_MAX; i++)
			WARN_ON_ONCE(atomic_read(&s->cnt[i]));
		xa_erase(&dev->user_shares, s->uid);
		kfree(s);
	}
	mutex_unlock(&dev->user_lock);
}
