// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * Token IDs and segments of udma. ubcore owns the ID tables, the lookups,
 * the validation and the pinning of user pages; udma keeps per-device
 * accounting (struct udma_dev) that the data path bounds its work with.
 */
#include <linux/err.h>
#include <linux/slab.h>

#include "udma.h"

/**
 * udma_alloc_token_id() - ubcore_ops.alloc_token_id
 * @ub_dev: the device
 * @flag: urma_token_id_flag_t bits; ubcore records them
 * @udata: unused
 *
 * Return: the token ID (ubcore assigns its number) or ERR_PTR(-ENOMEM).
 */
struct ubcore_token_id *udma_alloc_token_id(struct ubcore_device *ub_dev,
					    u32 flag,
					    struct ubcore_udata *udata)
{
	struct udma_token_id *token_id;

	token_id = kzalloc(sizeof(*token_id), GFP_KERNEL_ACCOUNT);
	if (!token_id)
		return ERR_PTR(-ENOMEM);
	token_id->udev = to_udma_dev(ub_dev);
	atomic_inc(&token_id->udev->nr_token_ids);
	return &token_id->base;
}

/**
 * udma_free_token_id() - ubcore_ops.free_token_id
 * @base: the token ID; no segment uses it
 */
void udma_free_token_id(struct ubcore_token_id *base)
{
	struct udma_token_id *token_id = to_udma_token_id(base);

	atomic_dec(&token_id->udev->nr_token_ids);
	/* Segment lookups read token IDs under RCU. */
	kfree_rcu(token_id, rcu);
}

/**
 * udma_register_seg() - ubcore_ops.register_seg
 * @ub_dev: the device
 * @cfg: validated by ubcore, which pinned user pages and fills the common
 *	part after
 * @udata: unused
 *
 * Return: the segment or ERR_PTR(-ENOMEM).
 */
struct ubcore_target_seg *udma_register_seg(struct ubcore_device *ub_dev,
					    struct ubcore_seg_cfg *cfg,
					    struct ubcore_udata *udata)
{
	struct udma_seg *seg;

	seg = kzalloc(sizeof(*seg), GFP_KERNEL_ACCOUNT);
	if (!seg)
		return ERR_PTR(-ENOMEM);
	seg->udev = to_udma_dev(ub_dev);
	seg->len = cfg->len;
	atomic_inc(&seg->udev->nr_segs);
	atomic64_add(seg->len, &seg->udev->seg_bytes);
	return &seg->base;
}

/**
 * udma_unregister_seg() - ubcore_ops.unregister_seg
 * @base: the segment; no lookup holds it (ubcore unpins its pages)
 */
void udma_unregister_seg(struct ubcore_target_seg *base)
{
	struct udma_seg *seg = to_udma_seg(base);

	atomic64_sub(seg->len, &seg->udev->seg_bytes);
	atomic_dec(&seg->udev->nr_segs);
	/* Segment lookups walk the segments under RCU. */
	kfree_rcu(seg, rcu);
}

/**
 * udma_import_seg() - ubcore_ops.import_seg
 * @ub_dev: the local device
 * @cfg: the remote segment; ubcore records it in the common part
 * @udata: the importing user's udata (out: struct udma_import_resp with
 *	the segment's index for SQEs' rseg_idx), or NULL for the kernel
 *
 * Import records the segment only: udma maps nothing (the common part's
 * mva stays 0); the data path reaches the remote memory through the
 * target (udma_target_execute()) with what the import table holds.
 *
 * Return: the imported segment or an ERR_PTR (-ENOMEM, -ENOSPC when the
 * context's import table is full, -EFAULT).
 */
struct ubcore_target_seg *udma_import_seg(struct ubcore_device *ub_dev,
					  struct ubcore_target_seg_cfg *cfg,
					  struct ubcore_udata *udata)
{
	struct udma_import_seg *tseg;
	int ret;

	tseg = kzalloc(sizeof(*tseg), GFP_KERNEL_ACCOUNT);
	if (!tseg)
		return ERR_PTR(-ENOMEM);
	tseg->udev = to_udma_dev(ub_dev);
	tseg->imp.type = UDMA_IMPORT_SEG;
	tseg->imp.eid = cfg->seg.ubva.eid;
	tseg->imp.uasid = cfg->seg.ubva.uasid;
	tseg->imp.va = cfg->seg.ubva.va;
	tseg->imp.len = cfg->seg.len;
	tseg->imp.token_id = cfg->seg.token_id;
	tseg->imp.token_value = cfg->token_value;
	ret = udma_import_add(&tseg->imp, udata);
	if (ret) {
		kfree(tseg);
		return ERR_PTR(ret);
	}
	atomic_inc(&tseg->udev->nr_imported);
	return &tseg->base;
}

/**
 * udma_unimport_seg() - ubcore_ops.unimport_seg
 * @base: the imported segment; its index is gone when this returns
 */
void udma_unimport_seg(struct ubcore_target_seg *base)
{
	struct udma_import_seg *tseg = to_udma_import_seg(base);

	udma_import_del(&tseg->imp);
	atomic_dec(&tseg->udev->nr_imported);
	kfree(tseg);
}
