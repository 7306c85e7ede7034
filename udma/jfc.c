// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * JFCs of udma: a CQ ring of UDMA_CQE_SIZE entries that the kernel fills
 * (cq.c) and the owner (a process through its mapping, or a kernel client)
 * reads, and the event moderation the data path stores (not applied yet:
 * every CQE that satisfies an arm raises the event).
 */
#include <linux/err.h>
#include <linux/slab.h>

#include "udma.h"

/**
 * udma_create_jfc() - ubcore_ops.create_jfc
 * @ub_dev: the device
 * @cfg: checked by ubcore; cfg->depth is rounded up and written back
 * @udata: the user's udata (out: struct udma_create_jfc_resp), or NULL
 *
 * Return: the JFC or an ERR_PTR.
 */
struct ubcore_jfc *udma_create_jfc(struct ubcore_device *ub_dev,
				   struct ubcore_jfc_cfg *cfg,
				   struct ubcore_udata *udata)
{
	struct udma_dev *udev = to_udma_dev(ub_dev);
	struct udma_create_jfc_resp resp = {};
	struct udma_jfc *jfc;
	u32 depth = cfg->depth;
	int ret;

	jfc = kzalloc(sizeof(*jfc), GFP_KERNEL_ACCOUNT);
	if (!jfc)
		return ERR_PTR(-ENOMEM);
	jfc->cq = udma_ring_create(udev, udata, UDMA_CQE_SIZE, &depth,
				   ub_dev->cap.max_jfc_depth, &resp.cq);
	if (IS_ERR(jfc->cq)) {
		ret = PTR_ERR(jfc->cq);
		goto free;
	}
	udma_cq_init(jfc);
	ret = udma_copy_resp(udata, &resp, sizeof(resp));
	if (ret)
		goto destroy_ring;
	cfg->depth = depth;
	return &jfc->base;

destroy_ring:
	udma_ring_destroy(jfc->cq);
free:
	kfree(jfc);
	return ERR_PTR(ret);
}

/**
 * udma_modify_jfc() - ubcore_ops.modify_jfc: store the event moderation
 * @base: the JFC
 * @attr: UBCORE_JFC_MODERATE_COUNT and/or UBCORE_JFC_MODERATE_PERIOD
 * @udata: unused
 *
 * Return: 0, or -EINVAL for an unknown mask bit.
 */
int udma_modify_jfc(struct ubcore_jfc *base, const struct ubcore_jfc_attr *attr,
		    struct ubcore_udata *udata)
{
	struct udma_jfc *jfc = to_udma_jfc(base);

	if (attr->mask & ~(UBCORE_JFC_MODERATE_COUNT |
			   UBCORE_JFC_MODERATE_PERIOD))
		return -EINVAL;
	if (attr->mask & UBCORE_JFC_MODERATE_COUNT)
		WRITE_ONCE(jfc->moderate_count, attr->moderate_count);
	if (attr->mask & UBCORE_JFC_MODERATE_PERIOD)
		WRITE_ONCE(jfc->moderate_period, attr->moderate_period);
	return 0;
}

/**
 * udma_destroy_jfc() - ubcore_ops.destroy_jfc
 * @base: the JFC; no lookup holds it and nothing completes to it
 */
void udma_destroy_jfc(struct ubcore_jfc *base)
{
	struct udma_jfc *jfc = to_udma_jfc(base);

	udma_ring_destroy(jfc->cq);
	kfree(jfc);
}
