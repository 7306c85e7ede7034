// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * What the object files (jfc.c, jfs.c, jfr.c, jetty.c, tjetty.c,
 * segment.c, ucontext.c) share: parameter checks, live counts and the ID
 * tables.
 *
 * ID tables (jfc_table, jetty_table): an ID is reserved with a NULL entry
 * (ubcore_id_reserve()) before the provider creates the object and the
 * object is stored there (ubcore_id_publish()) once every common field is
 * set, so a lookup never sees a half-made object: xa_load() of a reserved
 * slot is NULL. Lookups (ubcore_id_find_get()) take the object's reference
 * under the xarray's lock; delete erases the entry under the same lock
 * before it drains the references, so no lookup can take a reference on a
 * freed object. The lock is taken with interrupts disabled (the tables are
 * XA_FLAGS_LOCK_IRQ) because lookups run in any context.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bits.h>
#include <linux/device.h>
#include <linux/minmax.h>

#include "ubcore_priv.h"

const char * const ubcore_obj_type_names[UBCORE_OBJ_TYPE_MAX] = {
	[UBCORE_OBJ_UCONTEXT] = "ucontext",
	[UBCORE_OBJ_JFC] = "jfc",
	[UBCORE_OBJ_JFS] = "jfs",
	[UBCORE_OBJ_JFR] = "jfr",
	[UBCORE_OBJ_JETTY] = "jetty",
	[UBCORE_OBJ_TOKEN_ID] = "token_id",
	[UBCORE_OBJ_SEG] = "seg",
	[UBCORE_OBJ_TARGET_SEG] = "target_seg",
	[UBCORE_OBJ_TJFR] = "tjfr",
	[UBCORE_OBJ_TJETTY] = "tjetty",
	[UBCORE_OBJ_JETTY_GRP] = "jetty_grp",
};

/* A user caller's context must be of @dev. */
int ubcore_check_udata(struct ubcore_device *dev, struct ubcore_udata *udata)
{
	if (udata && (!udata->uctx || udata->uctx->ub_dev != dev))
		return ubcore_inval(dev, "user context");
	return 0;
}

/* Exactly one transport mode bit, and one the device has. */
int ubcore_check_trans_mode(struct ubcore_device *dev, u32 trans_mode,
			    const char *what)
{
	if (hweight32(trans_mode) != 1 || !(trans_mode & dev->cap.trans_mode))
		return ubcore_inval(dev, "%s trans_mode 0x%x", what, trans_mode);
	return 0;
}

/* A JFC an object of @dev and the caller's context completes to. */
int ubcore_check_jfc(struct ubcore_device *dev, struct ubcore_jfc *jfc,
		     struct ubcore_udata *udata, const char *what)
{
	if (!jfc)
		return ubcore_inval(dev, "%s: no jfc", what);
	if (jfc->ub_dev != dev || jfc->uctx != ubcore_udata_uctx(udata))
		return ubcore_inval(dev, "%s: jfc %u of another device or context",
				    what, jfc->id);
	return 0;
}

/* The send side of a JFS or jetty (@what names it in the log). */
int ubcore_check_jfs_cfg(struct ubcore_device *dev,
			 const struct ubcore_jfs_cfg *cfg,
			 struct ubcore_udata *udata, const char *what)
{
	const struct ubcore_device_cap *cap = &dev->cap;

	if (!cfg->depth || cfg->depth > cap->max_jfs_depth)
		return ubcore_inval(dev, "%s depth %u", what, cfg->depth);
	if (cfg->max_sge > cap->max_jfs_sge)
		return ubcore_inval(dev, "%s max_sge %u", what, cfg->max_sge);
	if (cfg->max_rsge > cap->max_jfs_rsge)
		return ubcore_inval(dev, "%s max_rsge %u", what, cfg->max_rsge);
	if (cfg->max_inline_data > cap->max_jfs_inline_size)
		return ubcore_inval(dev, "%s max_inline_data %u", what,
				    cfg->max_inline_data);
	if (cfg->priority > 15)
		return ubcore_inval(dev, "%s priority %u", what, cfg->priority);
	if (cfg->rnr_retry > 7)
		return ubcore_inval(dev, "%s rnr_retry %u", what, cfg->rnr_retry);
	if (cfg->err_timeout > 31)
		return ubcore_inval(dev, "%s err_timeout %u", what,
				    cfg->err_timeout);
	if (udata && cfg->flag & UBCORE_JFS_FLAG_POST_SLEEPABLE)
		return ubcore_inval(dev, "%s flag 0x%x: a kernel queue's bit",
				    what, cfg->flag);
	if (ubcore_check_trans_mode(dev, cfg->trans_mode, what))
		return -EINVAL;
	return ubcore_check_jfc(dev, cfg->jfc, udata, what);
}

/*
 * State changes of a JFS or jetty an application may ask for (user guide
 * 5.2.4.1): a READY queue is suspended; a suspended one goes on (READY) or
 * fails; any queue can be put in ERROR; an ERROR queue is reset once
 * flushed, and a RESET queue is made READY again. Asking for the current
 * state changes nothing (the caller skips the provider).
 */
static const bool ubcore_jetty_transitions[4][4] = {
	[UBCORE_JETTY_STATE_RESET] = {
		[UBCORE_JETTY_STATE_READY] = true,
		[UBCORE_JETTY_STATE_ERROR] = true,
	},
	[UBCORE_JETTY_STATE_READY] = {
		[UBCORE_JETTY_STATE_SUSPENDED] = true,
		[UBCORE_JETTY_STATE_ERROR] = true,
	},
	[UBCORE_JETTY_STATE_SUSPENDED] = {
		[UBCORE_JETTY_STATE_READY] = true,
		[UBCORE_JETTY_STATE_ERROR] = true,
	},
	[UBCORE_JETTY_STATE_ERROR] = {
		[UBCORE_JETTY_STATE_RESET] = true,
	},
};

int ubcore_check_jetty_state(struct ubcore_device *dev,
			     enum ubcore_jetty_state from,
			     enum ubcore_jetty_state to)
{
	if ((u32)from >= ARRAY_SIZE(ubcore_jetty_transitions) ||
	    (u32)to >= ARRAY_SIZE(ubcore_jetty_transitions[0]) ||
	    (from != to && !ubcore_jetty_transitions[from][to]))
		return ubcore_inval(dev, "state change %u -> %u", from, to);
	return 0;
}

/*
 * Per-context limits by default: half of what the device has of each
 * object it counts (so one context never takes a whole device), and for
 * the objects the device does not count a number that no sane application
 * reaches; an administrator changes them in sysfs (limits/).
 */
#define UBCORE_CTX_SEG_DEFAULT		65536
#define UBCORE_CTX_IMPORT_DEFAULT	16384
#define UBCORE_CTX_RING_PAGES_DEFAULT	65536

void ubcore_ctx_limits_init(struct ubcore_device *dev)
{
	const struct ubcore_device_cap *cap = &dev->cap;
	u32 *lim = dev->ctx_limit;

	lim[UBCORE_OBJ_UCONTEXT] = U32_MAX;
	lim[UBCORE_OBJ_JFC] = max(cap->max_jfc / 2, 1U);
	lim[UBCORE_OBJ_JFS] = max(cap->max_jfs / 2, 1U);
	lim[UBCORE_OBJ_JFR] = max(cap->max_jfr / 2, 1U);
	lim[UBCORE_OBJ_JETTY] = max(cap->max_jetty / 2, 1U);
	lim[UBCORE_OBJ_TOKEN_ID] =
		max(min_t(u32, cap->max_token_id, BIT(UBCORE_TOKEN_ID_BITS)) / 2,
		    1U);
	lim[UBCORE_OBJ_SEG] = UBCORE_CTX_SEG_DEFAULT;
	lim[UBCORE_OBJ_TARGET_SEG] = UBCORE_CTX_IMPORT_DEFAULT;
	lim[UBCORE_OBJ_TJFR] = UBCORE_CTX_IMPORT_DEFAULT;
	lim[UBCORE_OBJ_TJETTY] = UBCORE_CTX_IMPORT_DEFAULT;
	lim[UBCORE_OBJ_JETTY_GRP] = max(cap->max_jetty_grp / 2, 1U);
	dev->ctx_ring_pages = UBCORE_CTX_RING_PAGES_DEFAULT;
}

/* Count one more in @cnt unless @max are counted: -ENOSPC. */
static int ubcore_cnt_get(atomic_t *cnt, u32 max)
{
	int old = atomic_read(cnt);

	do {
		if ((u32)old >= max)
			return -ENOSPC;
	} while (!atomic_try_cmpxchg(cnt, &old, old + 1));
	return 0;
}

/**
 * ubcore_obj_cnt_get() - count one more object of a type
 * @dev: the device; at most @max of its objects of @type are alive
 * @uctx: the creating user context, or NULL (a kernel caller): at most
 *	dev->ctx_limit[@type] objects of @type of the context are alive,
 *	and dev->user_limit[@type] of its user's (@uctx->share, if any)
 * @type: the kind of object
 * @max: the device's limit (U32_MAX for none)
 *
 * Undo with ubcore_obj_cnt_put() with the same @uctx.
 *
 * Return: 0, or -ENOSPC (the device, the context or its user is full;
 * nothing is counted then).
 */
int ubcore_obj_cnt_get(struct ubcore_device *dev, struct ubcore_ucontext *uctx,
		       enum ubcore_obj_type type, u32 max)
{
	if (ubcore_cnt_get(&dev->obj_cnt[type], max)) {
		dev_dbg_ratelimited(&dev->dev, "no more than %u %s\n", max,
				    ubcore_obj_type_names[type]);
		return -ENOSPC;
	}
	if (uctx && ubcore_cnt_get(&uctx->obj_cnt[type],
				   READ_ONCE(dev->ctx_limit[type]))) {
		atomic_dec(&dev->obj_cnt[type]);
		dev_dbg_ratelimited(&dev->dev,
				    "no more than %u %s in one context (limits/)\n",
				    READ_ONCE(dev->ctx_limit[type]),
				    ubcore_obj_type_names[type]);
		return -ENOSPC;
	}
	if (uctx && uctx->share &&
	    ubcore_cnt_get(&uctx->share->cnt[type],
			   READ_ONCE(dev->user_limit[type]))) {
		atomic_dec(&uctx->obj_cnt[type]);
		atomic_dec(&dev->obj_cnt[type]);
		dev_dbg_ratelimited(&dev->dev,
				    "no more than %u %s for user %u (user_limits/)\n",
				    READ_ONCE(dev->user_limit[type]),
				    ubcore_obj_type_names[type],
				    uctx->share->uid);
		return -ENOSPC;
	}
	return 0;
}

/* Count one more object of a type without a limit (user contexts). */
void ubcore_obj_cnt_inc(struct ubcore_device *dev, enum ubcore_obj_type type)
{
	atomic_inc(&dev->obj_cnt[type]);
}

void ubcore_obj_cnt_put(struct ubcore_device *dev, struct ubcore_ucontext *uctx,
			enum ubcore_obj_type type)
{
	WARN_ON_ONCE(atomic_dec_return(&dev->obj_cnt[type]) < 0);
	if (uctx)
		WARN_ON_ONCE(atomic_dec_return(&uctx->obj_cnt[type]) < 0);
	if (uctx && uctx->share)
		WARN_ON_ONCE(atomic_dec_return(&uctx->share->cnt[type]) < 0);
}

/*
 * After the clients are gone every object must be gone too: an object
 * left is a client that did not destroy what it created.
 */
void ubcore_obj_warn_leaks(struct ubcore_device *dev)
{
	int i, n;

	for (i = 0; i < UBCORE_OBJ_TYPE_MAX; i++) {
		n = atomic_read(&dev->obj_cnt[i]);
		if (n)
			dev_err(&dev->dev, "%d %s left at unregistration\n", n,
				ubcore_obj_type_names[i]);
		WARN_ONCE(n, "ubcore: %s: objects leaked by a client\n",
			  dev->dev_name);
	}
}

/*
 * Reserve @id in @xa, or (@id 0) the lowest free ID within @limit; the ID
 * in *@out. Returns 0, -EBUSY (@id is taken), -ENOSPC (@limit is full) or
 * -ENOMEM. Undo with xa_erase_irq().
 */
int ubcore_id_reserve(struct xarray *xa, u32 id, struct xa_limit limit,
		      u32 *out)
{
	int ret;

	if (id) {
		ret = xa_insert_irq(xa, id, NULL, GFP_KERNEL_ACCOUNT);
		if (!ret)
			*out = id;
		return ret;
	}
	ret = xa_alloc_irq(xa, out, NULL, limit, GFP_KERNEL_ACCOUNT);
	return ret == -EBUSY ? -ENOSPC : ret;
}

/*
 * A jetty ID for a JFS, JFR, jetty or jetty group: @id if given (reserved
 * IDs only for kernel callers), else the lowest free one above the
 * reserved range.
 */
static int ubcore_jetty_id_alloc(struct ubcore_device *dev, u32 id,
				 struct ubcore_udata *udata, u32 *out)
{
	const struct ubcore_device_cap *cap = &dev->cap;
	u64 max = (u64)cap->reserved_jetty_id_max + cap->max_jfs +
		  cap->max_jfr + cap->max_jetty + cap->max_jetty_grp;
	struct xa_limit limit = {
		.min = cap->reserved_jetty_id_max + 1,
		.max = min_t(u64, max, U32_MAX),
	};
	int ret;

	if (id > limit.max)
		return ubcore_inval(dev, "jetty id %u (max %u)", id, limit.max);
	if (id && id <= cap->reserved_jetty_id_max && udata)
		return ubcore_inval(dev, "jetty id %u: reserved", id);
	ret = ubcore_id_reserve(&dev->jetty_table, id, limit, out);
	if (ret == -EBUSY)
		dev_dbg_ratelimited(&dev->dev, "jetty id %u is taken\n", id);
	return ret;
}

/*
 * The first steps of creating a JFS, JFR, jetty or jetty group: count it as one more
 * object of @type (at most @max), then reserve its jetty ID (see
 * ubcore_jetty_id_alloc()) in a NULL slot. Nothing is held on failure.
 */
int ubcore_jetty_id_reserve(struct ubcore_device *dev,
			    enum ubcore_obj_type type, u32 max, u32 id,
			    struct ubcore_udata *udata, u32 *out)
{
	struct ubcore_ucontext *uctx = ubcore_udata_uctx(udata);
	int ret;

	ret = ubcore_obj_cnt_get(dev, uctx, type, max);
	if (ret)
		return ret;
	ret = ubcore_jetty_id_alloc(dev, id, udata, out);
	if (ret)
		ubcore_obj_cnt_put(dev, uctx, type);
	return ret;
}

/*
 * Undo ubcore_jetty_id_reserve() when the creation fails, before the ID
 * is published.
 */
void ubcore_jetty_id_unreserve(struct ubcore_device *dev,
			       struct ubcore_ucontext *uctx,
			       enum ubcore_obj_type type, u32 id)
{
	xa_erase_irq(&dev->jetty_table, id);
	ubcore_obj_cnt_put(dev, uctx, type);
}

/* Store the finished object in the slot ubcore_id_reserve() reserved. */
void ubcore_id_publish(struct xarray *xa, u32 id, void *entry)
{
	/* The slot exists: no allocation, no error. */
	WARN_ON(xa_store_irq(xa, id, entry, GFP_KERNEL));
}

/*
 * The object at @id if its entry has @tag, with a reference taken on the
 * struct ubcore_obj_ref at @ref_offset in it; else NULL. Any context.
 */
void *ubcore_id_find_get(struct xarray *xa, u32 id, unsigned int tag,
			 size_t ref_offset)
{
	unsigned long flags;
	void *entry, *obj = NULL;

	xa_lock_irqsave(xa, flags);
	entry = xa_load(xa, id);
	if (entry && xa_pointer_tag(entry) == tag) {
		obj = xa_untag_pointer(entry);
		if (!ubcore_obj_ref_get((struct ubcore_obj_ref *)((u8 *)obj +
								  ref_offset)))
			obj = NULL;
	}
	xa_unlock_irqrestore(xa, flags);
	return obj;
}
