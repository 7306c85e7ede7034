// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * Token IDs (dev->token_table), registered segments (on their token ID's
 * seg_list, with the pages of a user segment pinned, see umem.c) and
 * imported segments.
 *
 * Locking of the lookup (ubcore_find_get_seg(), the data path's): under
 * rcu_read_lock() alone, the token ID by its number in the xarray, then
 * the few segments of that token ID on its seg_list, whose reference is
 * taken with refcount_inc_not_zero(): no lock, no interrupts disabled,
 * nothing that sleeps. Writers add and remove list entries with the _rcu
 * list primitives under dev->seg_lock; providers free token IDs and
 * segments only after an RCU grace period (ubcore_ops.free_token_id,
 * .unregister_seg), so a lookup never touches freed memory. A segment
 * taken off its list drains its references before it is freed: a lookup
 * that found it either got a reference first (waited for) or fails to.
 */
#include <linux/bits.h>
#include <linux/err.h>
#include <linux/export.h>
#include <linux/minmax.h>
#include <linux/overflow.h>
#include <linux/rculist.h>

#include "ubcore_priv.h"

/* The urma_seg_attr_t bits a segment reports: those of its flag. */
#define UBCORE_SEG_ATTR_MASK	GENMASK(13, 0)

/**
 * ubcore_check_seg_access() - check a combination of access rights
 * @access: UBCORE_ACCESS_* bits
 *
 * LOCAL_ONLY stands alone; otherwise WRITE needs READ and ATOMIC needs
 * WRITE and READ. No bit, or a bit outside UBCORE_ACCESS_MASK, is invalid.
 *
 * Context: any context.
 * Return: 0 if @access is valid, else -EINVAL.
 */
int ubcore_check_seg_access(u32 access)
{
	if (!access || (access & ~UBCORE_ACCESS_MASK))
		return -EINVAL;
	if (access & UBCORE_ACCESS_LOCAL_ONLY)
		return access == UBCORE_ACCESS_LOCAL_ONLY ? 0 : -EINVAL;
	if ((access & UBCORE_ACCESS_WRITE) && !(access & UBCORE_ACCESS_READ))
		return -EINVAL;
	if ((access & UBCORE_ACCESS_ATOMIC) && !(access & UBCORE_ACCESS_WRITE))
		return -EINVAL;
	return 0;
}
EXPORT_SYMBOL_GPL(ubcore_check_seg_access);

/**
 * ubcore_alloc_token_id() - allocate a token ID
 * @dev: the device
 * @flag: urma_token_id_flag_t bits, for the provider
 * @udata: a user caller's context and provider data, NULL for the kernel
 *
 * The number is the next free one in 1 .. min(2^20, cap.max_token_id) - 1
 * after the last one allocated (cyclic, as imports are): a freed number is
 * not handed out again at once, so a peer that still names the old one
 * does not reach the new owner's segments.
 *
 * Context: process context; may sleep.
 * Return: the token ID, or ERR_PTR(-ENOSPC) (every number is taken, or
 * the caller's context has limits/token_id of them),
 * ERR_PTR(-EINVAL), ERR_PTR(-EOPNOTSUPP), -ENOMEM or the provider's error.
 */
struct ubcore_token_id *ubcore_alloc_token_id(struct ubcore_device *dev,
					      u32 flag,
					      struct ubcore_udata *udata)
{
	struct ubcore_ucontext *uctx = ubcore_udata_uctx(udata);
	struct ubcore_token_id *token_id;
	u32 max, id;
	int ret;

	if (!dev)
		return ERR_PTR(-EINVAL);
	if (!dev->ops->alloc_token_id || !dev->ops->free_token_id)
		return ERR_PTR(-EOPNOTSUPP);
	ret = ubcore_check_udata(dev, udata);
	if (ret)
		return ERR_PTR(ret);
	max = min_t(u32, BIT(UBCORE_TOKEN_ID_BITS), dev->cap.max_token_id);
	if (max < 2)
		return ERR_PTR(-ENOSPC);

	ret = ubcore_obj_cnt_get(dev, uctx, UBCORE_OBJ_TOKEN_ID, U32_MAX);
	if (ret)
		return ERR_PTR(ret);
	ret = xa_alloc_cyclic(&dev->token_table, &id, NULL, XA_LIMIT(1, max - 1),
			      &dev->token_next, GFP_KERNEL_ACCOUNT);
	if (ret < 0) {
		ret = ret == -EBUSY ? -ENOSPC : ret;
		goto err_cnt;
	}
	token_id = dev->ops->alloc_token_id(dev, flag, udata);
	if (IS_ERR_OR_NULL(token_id)) {
		ret = token_id ? PTR_ERR(token_id) : -ENOMEM;
		xa_erase(&dev->token_table, id);
		goto err_cnt;
	}
	token_id->ub_dev = dev;
	token_id->uctx = uctx;
	token_id->token_id = id;
	token_id->flag = flag;
	atomic_set(&token_id->use_cnt, 0);
	INIT_LIST_HEAD(&token_id->seg_list);
	WARN_ON(xa_store(&dev->token_table, id, token_id, GFP_KERNEL));
	return token_id;

err_cnt:
	ubcore_obj_cnt_put(dev, uctx, UBCORE_OBJ_TOKEN_ID);
	return ERR_PTR(ret);
}
EXPORT_SYMBOL_GPL(ubcore_alloc_token_id);

/**
 * ubcore_free_token_id() - free a token ID
 * @token_id: from ubcore_alloc_token_id(); no segment uses it
 *
 * Context: process context; may sleep.
 * Return: 0, or -EBUSY (segments use it; nothing changed).
 */
int ubcore_free_token_id(struct ubcore_token_id *token_id)
{
	struct ubcore_ucontext *uctx;
	struct ubcore_device *dev;
	u32 id;

	if (!token_id)
		return -EINVAL;
	dev = token_id->ub_dev;
	uctx = token_id->uctx;
	id = token_id->token_id;
	if (!ubcore_use_claim(&token_id->use_cnt)) {
		dev_dbg(&dev->dev, "token id %u is used by %d segments\n", id,
			atomic_read(&token_id->use_cnt));
		return -EBUSY;
	}
	xa_erase(&dev->token_table, id);
	/* A lookup may still see it: the provider frees it after RCU. */
	dev->ops->free_token_id(token_id);
	ubcore_obj_cnt_put(dev, uctx, UBCORE_OBJ_TOKEN_ID);
	return 0;
}
EXPORT_SYMBOL_GPL(ubcore_free_token_id);

static int ubcore_check_seg_cfg(struct ubcore_device *dev,
				const struct ubcore_seg_cfg *cfg,
				struct ubcore_udata *udata)
{
	u32 access = UBCORE_SEG_FLAG_ACCESS(cfg->flag);
	u64 end;

	if (!cfg->len)
		return ubcore_inval(dev, "seg len 0");
	if (check_add_overflow(cfg->va, cfg->len, &end))
		return ubcore_inval(dev, "seg va 0x%llx len 0x%llx wraps",
				    cfg->va, cfg->len);
	if (ubcore_check_seg_access(access))
		return ubcore_inval(dev, "seg access 0x%x", access);
	if (!cfg->token_id)
		return ubcore_inval(dev, "seg: no token id");
	if (cfg->token_id->ub_dev != dev ||
	    cfg->token_id->uctx != ubcore_udata_uctx(udata))
		return ubcore_inval(dev, "seg: token id %u of another device or context",
				    cfg->token_id->token_id);
	return 0;
}

/* The EID a segment of @uctx is addressed by: its context's, else 0. */
static void ubcore_seg_eid(struct ubcore_device *dev,
			   struct ubcore_ucontext *uctx, union ubcore_eid *eid)
{
	memset(eid, 0, sizeof(*eid));
	if (ubcore_get_eid(dev, uctx ? uctx->eid_index : 0, eid))
		memset(eid, 0, sizeof(*eid));
}

/**
 * ubcore_register_seg() - register memory for remote access
 * @dev: the device
 * @cfg: what to register: a user VA range for a user caller (its pages are
 *	pinned), a kernel VA range for a kernel caller; the access bits in
 *	@cfg->flag; a token ID of @dev and of the caller's context
 * @udata: a user caller's context and provider data, NULL for the kernel
 *
 * The segment's UB address is the EID at the context's EID index (index 0
 * for the kernel; 0 if the slot is empty), the context's uasid and
 * @cfg->va.
 *
 * Context: process context; may sleep.
 * Return: the segment, or ERR_PTR(-EINVAL) (bad @cfg, logged at debug
 * level, or its token ID is being freed), ERR_PTR(-EOPNOTSUPP) (a
 * non-pinned segment, or no provider support), ERR_PTR(-EFAULT) (not user
 * memory), ERR_PTR(-ENOMEM) (over RLIMIT_MEMLOCK, larger than the
 * machine's memory, or out of memory), ERR_PTR(-EOPNOTSUPP) (the range is
 * not anonymous, shmem, hugetlb or private file memory, see umem.c),
 * ERR_PTR(-ENOSPC) (the context has limits/seg segments) or the provider's
 * error.
 */
struct ubcore_target_seg *ubcore_register_seg(struct ubcore_device *dev,
					      struct ubcore_seg_cfg *cfg,
					      struct ubcore_udata *udata)
{
	struct ubcore_ucontext *uctx = ubcore_udata_uctx(udata);
	struct ubcore_umem *umem = NULL;
	struct ubcore_target_seg *tseg;
	unsigned long flags;
	int ret;

	if (!dev || !cfg)
		return ERR_PTR(-EINVAL);
	if (!dev->ops->register_seg || !dev->ops->unregister_seg)
		return ERR_PTR(-EOPNOTSUPP);
	ret = ubcore_check_udata(dev, udata) ?:
	      ubcore_check_seg_cfg(dev, cfg, udata);
	if (ret)
		return ERR_PTR(ret);
	if (cfg->flag & UBCORE_SEG_FLAG_NON_PIN) {
		dev_dbg_ratelimited(&dev->dev, "non-pinned segments are not supported\n");
		return ERR_PTR(-EOPNOTSUPP);
	}
	if (!ubcore_use_get(&cfg->token_id->use_cnt))
		return ERR_PTR(ubcore_inval(dev, "seg: token id %u is being freed",
					    cfg->token_id->token_id));
	ret = ubcore_obj_cnt_get(dev, uctx, UBCORE_OBJ_SEG, U32_MAX);
	if (ret)
		goto err_use;

	if (udata && cfg->umem) {
		/* pinned by the caller (uburma, before its locks) */
		umem = cfg->umem;
		if (umem->va != cfg->va || umem->length != cfg->len) {
			ret = ubcore_inval(dev, "seg: pinned pages of another range");
			goto err_cnt;
		}
	} else if (udata) {
		umem = ubcore_umem_get(dev, cfg->va, cfg->len);
		if (IS_ERR(umem)) {
			ret = PTR_ERR(umem);
			goto err_cnt;
		}
	}
	tseg = dev->ops->register_seg(dev, cfg, udata);
	if (IS_ERR_OR_NULL(tseg)) {
		ret = tseg ? PTR_ERR(tseg) : -ENOMEM;
		goto err_umem;
	}
	tseg->ub_dev = dev;
	tseg->uctx = uctx;
	ubcore_seg_eid(dev, uctx, &tseg->seg.ubva.eid);
	tseg->seg.ubva.uasid = uctx ? uctx->uasid : 0;
	tseg->seg.ubva.va = cfg->va;
	tseg->seg.len = cfg->len;
	tseg->seg.attr = cfg->flag & UBCORE_SEG_ATTR_MASK;
	tseg->seg.token_id = cfg->token_id->token_id;
	tseg->token_id = cfg->token_id;
	tseg->token_value = cfg->token_value;
	tseg->umem = umem;
	if (umem && umem == cfg->umem)
		atomic64_add(umem->nr_pages, &dev->pinned_pages);
	tseg->mva = 0;
	tseg->user_ctx = cfg->user_ctx;
	tseg->invalid = false;
	atomic_set(&tseg->access_fail, 0);
	ubcore_obj_ref_init(&tseg->obj_ref);
	spin_lock_irqsave(&dev->seg_lock, flags);
	/* Publishes the fields above to lookups under RCU. */
	list_add_tail_rcu(&tseg->node, &cfg->token_id->seg_list);
	spin_unlock_irqrestore(&dev->seg_lock, flags);
	return tseg;

err_umem:
	if (umem != cfg->umem)
		ubcore_umem_release(dev, umem);
err_cnt:
	ubcore_obj_cnt_put(dev, uctx, UBCORE_OBJ_SEG);
err_use:
	ubcore_use_put(&cfg->token_id->use_cnt);
	return ERR_PTR(ret);
}
EXPORT_SYMBOL_GPL(ubcore_register_seg);

/**
 * ubcore_register_linear_seg() - the kernel's linear map as one local segment
 * @dev: the device
 * @token_id: a token ID of @dev that a kernel caller allocated
 *
 * With it, a kernel client's SGEs name any memory of the linear map
 * (kmalloc'd buffers, skb heads, page_address() of lowmem pages) by its
 * kernel address without registering each buffer, as RDMA's local DMA
 * lkey lets a ULP post its sk_buffs. The segment is UBCORE_ACCESS_LOCAL_ONLY:
 * no remote request passes a target's access check on it, and a user
 * context cannot name a kernel caller's segment in its SGEs. Unregister it
 * with ubcore_unregister_seg().
 *
 * Context: process context; may sleep.
 * Return: as ubcore_register_seg(); ERR_PTR(-EINVAL) for a token ID of a
 * user context or of another device.
 */
struct ubcore_target_seg *ubcore_register_linear_seg(struct ubcore_device *dev,
						     struct ubcore_token_id *token_id)
{
	struct ubcore_seg_cfg cfg = {
		.va = PAGE_OFFSET,
		.len = (uintptr_t)high_memory - PAGE_OFFSET,
		.token_id = token_id,
		.flag = UBCORE_SEG_FLAG_ACCESS_SET(UBCORE_ACCESS_LOCAL_ONLY),
	};

	return ubcore_register_seg(dev, &cfg, NULL);
}
EXPORT_SYMBOL_GPL(ubcore_register_linear_seg);

/**
 * ubcore_unregister_seg() - end remote access to a registered segment
 * @tseg: from ubcore_register_seg()
 *
 * Waits until no lookup holds the segment, has the provider free it,
 * unpins its pages and drops the use count on its token ID.
 *
 * Context: process context; may sleep.
 * Return: 0.
 */
int ubcore_unregister_seg(struct ubcore_target_seg *tseg)
{
	struct ubcore_token_id *token_id;
	struct ubcore_ucontext *uctx;
	struct ubcore_device *dev;
	struct ubcore_umem *umem;
	unsigned long flags;

	if (!tseg)
		return -EINVAL;
	dev = tseg->ub_dev;
	uctx = tseg->uctx;
	token_id = tseg->token_id;
	umem = tseg->umem;
	spin_lock_irqsave(&dev->seg_lock, flags);
	list_del_rcu(&tseg->node);
	spin_unlock_irqrestore(&dev->seg_lock, flags);
	ubcore_obj_ref_drain(&tseg->obj_ref);
	dev->ops->unregister_seg(tseg);
	ubcore_umem_release(dev, umem);
	ubcore_use_put(&token_id->use_cnt);
	ubcore_obj_cnt_put(dev, uctx, UBCORE_OBJ_SEG);
	return 0;
}
EXPORT_SYMBOL_GPL(ubcore_unregister_seg);

/* Does @seg cover [@va, @va + @len)? No overflow for any values. */
static bool ubcore_seg_covers(const struct ubcore_seg *seg, u64 va, u64 len)
{
	return va >= seg->ubva.va && len <= seg->len &&
	       va - seg->ubva.va <= seg->len - len;
}

/*
 * The lookup of ubcore_find_get_seg() and ubcore_find_get_remote_seg():
 * RCU only (see the top of this file).
 */
static struct ubcore_target_seg *ubcore_seg_lookup(struct ubcore_device *dev,
						   u32 token_id, u64 va,
						   u64 len, bool remote)
{
	struct ubcore_target_seg *tseg, *found = NULL;
	struct ubcore_token_id *token;

	rcu_read_lock();
	/* NULL for a free number or one still being allocated. */
	token = xa_load(&dev->token_table, token_id);
	if (!token)
		goto out;
	list_for_each_entry_rcu(tseg, &token->seg_list, node) {
		if (remote && READ_ONCE(tseg->invalid))
			continue;
		if (ubcore_seg_covers(&tseg->seg, va, len) &&
		    ubcore_obj_ref_get(&tseg->obj_ref)) {
			found = tseg;
			break;
		}
	}
out:
	rcu_read_unlock();
	return found;
}

/**
 * ubcore_find_get_seg() - the registered segment that covers a range, for
 *	its owner's local use
 * @dev: the device
 * @token_id: the segment's token ID number
 * @va: first byte of the range
 * @len: bytes of the range
 *
 * Invalidated segments are found too: invalidation ends remote access
 * only. The caller checks that the segment is its own.
 *
 * Context: any context.
 * Return: the segment with a reference (ubcore_obj_ref_put(&tseg->obj_ref)
 * when done), or NULL.
 */
struct ubcore_target_seg *ubcore_find_get_seg(struct ubcore_device *dev,
					      u32 token_id, u64 va, u64 len)
{
	return ubcore_seg_lookup(dev, token_id, va, len, false);
}
EXPORT_SYMBOL_GPL(ubcore_find_get_seg);

/**
 * ubcore_find_get_remote_seg() - the registered segment that covers a
 *	range, for a remote access
 * @dev: the device
 * @token_id: the segment's token ID number
 * @va: first byte of the range
 * @len: bytes of the range
 *
 * As ubcore_find_get_seg(), but an invalidated segment is not found. The
 * caller checks the token value and the access rights.
 *
 * Context: any context.
 * Return: the segment with a reference (ubcore_obj_ref_put(&tseg->obj_ref)
 * when done), or NULL.
 */
struct ubcore_target_seg *ubcore_find_get_remote_seg(struct ubcore_device *dev,
						     u32 token_id, u64 va,
						     u64 len)
{
	return ubcore_seg_lookup(dev, token_id, va, len, true);
}
EXPORT_SYMBOL_GPL(ubcore_find_get_remote_seg);

/**
 * ubcore_invalidate_seg() - end remote access to a registered segment
 * @tseg: a registered segment; the caller holds a reference (a lookup's)
 *	or owns it
 *
 * From the return on, ubcore_find_get_remote_seg() does not find @tseg; a
 * remote access that found it before may still be running (the target
 * checks the flag once more before it touches memory). Invalidating an
 * invalidated segment does nothing. Local use and unregistration are not
 * affected.
 *
 * Context: any context.
 */
void ubcore_invalidate_seg(struct ubcore_target_seg *tseg)
{
	struct ubcore_device *dev = tseg->ub_dev;
	unsigned long flags;

	spin_lock_irqsave(&dev->seg_lock, flags);
	WRITE_ONCE(tseg->invalid, true);
	spin_unlock_irqrestore(&dev->seg_lock, flags);
}
EXPORT_SYMBOL_GPL(ubcore_invalidate_seg);

/**
 * ubcore_import_seg() - record a remote segment
 * @dev: the local device
 * @cfg: the segment as its owner exported it (non-zero length, no
 *	wrap-around, a non-zero token ID), the token to present and the
 *	requested mapping address
 * @udata: a user caller's context and provider data, NULL for the kernel
 *
 * Context: process context; may sleep.
 * Return: the imported segment, or ERR_PTR(-EINVAL) (bad @cfg),
 * ERR_PTR(-ENOSPC) (the context has limits/target_seg imported segments),
 * ERR_PTR(-EOPNOTSUPP) or the provider's error.
 */
struct ubcore_target_seg *ubcore_import_seg(struct ubcore_device *dev,
					    struct ubcore_target_seg_cfg *cfg,
					    struct ubcore_udata *udata)
{
	struct ubcore_ucontext *uctx = ubcore_udata_uctx(udata);
	struct ubcore_target_seg *tseg;
	u64 end;
	int ret;

	if (!dev || !cfg)
		return ERR_PTR(-EINVAL);
	if (!dev->ops->import_seg || !dev->ops->unimport_seg)
		return ERR_PTR(-EOPNOTSUPP);
	ret = ubcore_check_udata(dev, udata);
	if (ret)
		return ERR_PTR(ret);
	if (!cfg->seg.len ||
	    check_add_overflow(cfg->seg.ubva.va, cfg->seg.len, &end))
		return ERR_PTR(ubcore_inval(dev, "target seg va 0x%llx len 0x%llx",
					    cfg->seg.ubva.va, cfg->seg.len));
	if (!cfg->seg.token_id)
		return ERR_PTR(ubcore_inval(dev, "target seg token id 0"));

	ret = ubcore_obj_cnt_get(dev, uctx, UBCORE_OBJ_TARGET_SEG, U32_MAX);
	if (ret)
		return ERR_PTR(ret);

	tseg = dev->ops->import_seg(dev, cfg, udata);
	if (IS_ERR_OR_NULL(tseg)) {
		ubcore_obj_cnt_put(dev, uctx, UBCORE_OBJ_TARGET_SEG);
		return tseg ? tseg : ERR_PTR(-ENOMEM);
	}
	tseg->ub_dev = dev;
	tseg->uctx = uctx;
	tseg->seg = cfg->seg;
	tseg->token_id = NULL;
	tseg->token_value = cfg->token_value;
	tseg->umem = NULL;
	tseg->mva = cfg->mva;
	tseg->user_ctx = 0;
	tseg->invalid = false;
	INIT_LIST_HEAD(&tseg->node);
	ubcore_obj_ref_init(&tseg->obj_ref);
	return tseg;
}
EXPORT_SYMBOL_GPL(ubcore_import_seg);

/**
 * ubcore_unimport_seg() - forget an imported segment
 * @tseg: from ubcore_import_seg()
 *
 * Context: process context; may sleep.
 * Return: 0.
 */
int ubcore_unimport_seg(struct ubcore_target_seg *tseg)
{
	struct ubcore_ucontext *uctx;
	struct ubcore_device *dev;

	if (!tseg)
		return -EINVAL;
	dev = tseg->ub_dev;
	uctx = tseg->uctx;
	dev->ops->unimport_seg(tseg);
	ubcore_obj_cnt_put(dev, uctx, UBCORE_OBJ_TARGET_SEG);
	return 0;
}
EXPORT_SYMBOL_GPL(ubcore_unimport_seg);
