// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * JFCs (jetty for completion): IDs 1 .. cap.max_jfc in dev->jfc_table.
 */
#include <linux/err.h>
#include <linux/export.h>

#include "ubcore_priv.h"

/**
 * ubcore_create_jfc() - create a JFC
 * @dev: the device
 * @cfg: the parameters; the depth the provider created is written back
 * @jfae_handler: async event callback, or NULL
 * @udata: a user caller's context and provider data, NULL for the kernel
 *
 * Context: process context; may sleep.
 * Return: the JFC, or ERR_PTR(-EINVAL) (bad @cfg, logged at debug level),
 * ERR_PTR(-ENOSPC) (cap.max_jfc JFCs exist), ERR_PTR(-EOPNOTSUPP), -ENOMEM
 * or the provider's error.
 */
struct ubcore_jfc *ubcore_create_jfc(struct ubcore_device *dev,
				     struct ubcore_jfc_cfg *cfg,
				     ubcore_event_callback_t jfae_handler,
				     struct ubcore_udata *udata)
{
	struct ubcore_jfc *jfc;
	u32 id;
	int ret;

	if (!dev || !cfg)
		return ERR_PTR(-EINVAL);
	if (!dev->ops->create_jfc || !dev->ops->destroy_jfc)
		return ERR_PTR(-EOPNOTSUPP);
	ret = ubcore_check_udata(dev, udata);
	if (ret)
		return ERR_PTR(ret);
	if (!cfg->depth || cfg->depth > dev->cap.max_jfc_depth)
		return ERR_PTR(ubcore_inval(dev, "jfc depth %u", cfg->depth));

	ret = ubcore_obj_cnt_get(dev, ubcore_udata_uctx(udata), UBCORE_OBJ_JFC,
				 dev->cap.max_jfc);
	if (ret)
		return ERR_PTR(ret);
	ret = ubcore_id_reserve(&dev->jfc_table, 0, XA_LIMIT(1, dev->cap.max_jfc),
				&id);
	if (ret)
		goto err_cnt;

	jfc = dev->ops->create_jfc(dev, cfg, udata);
	if (IS_ERR_OR_NULL(jfc)) {
		ret = jfc ? PTR_ERR(jfc) : -ENOMEM;
		goto err_id;
	}
	jfc->ub_dev = dev;
	jfc->uctx = ubcore_udata_uctx(udata);
	jfc->id = id;
	jfc->cfg = *cfg;
	jfc->jfae_handler = jfae_handler;
	atomic_set(&jfc->use_cnt, 0);
	ubcore_obj_ref_init(&jfc->obj_ref);
	ubcore_id_publish(&dev->jfc_table, id, jfc);
	return jfc;

err_id:
	xa_erase_irq(&dev->jfc_table, id);
err_cnt:
	ubcore_obj_cnt_put(dev, ubcore_udata_uctx(udata), UBCORE_OBJ_JFC);
	return ERR_PTR(ret);
}
EXPORT_SYMBOL_GPL(ubcore_create_jfc);

/**
 * ubcore_modify_jfc() - change the moderation of a JFC
 * @jfc: the JFC
 * @attr: UBCORE_JFC_MODERATE_* in @attr->mask and their values
 * @udata: the caller's provider data, or NULL
 *
 * Context: process context; may sleep.
 * Return: 0, -EINVAL (unknown mask bits), -EOPNOTSUPP or the provider's
 * error.
 */
int ubcore_modify_jfc(struct ubcore_jfc *jfc, const struct ubcore_jfc_attr *attr,
		      struct ubcore_udata *udata)
{
	struct ubcore_device *dev;

	if (!jfc || !attr)
		return -EINVAL;
	dev = jfc->ub_dev;
	if (attr->mask & ~(UBCORE_JFC_MODERATE_COUNT | UBCORE_JFC_MODERATE_PERIOD))
		return ubcore_inval(dev, "jfc %u attr mask 0x%x", jfc->id,
				    attr->mask);
	if (!attr->mask)
		return 0;
	if (!dev->ops->modify_jfc)
		return -EOPNOTSUPP;
	return dev->ops->modify_jfc(jfc, attr, udata);
}
EXPORT_SYMBOL_GPL(ubcore_modify_jfc);

/**
 * ubcore_delete_jfc() - destroy a JFC
 * @jfc: the JFC; no JFS, JFR or jetty completes to it
 *
 * Waits until no lookup holds the JFC, then has the provider free it.
 *
 * Context: process context; may sleep.
 * Return: 0, or -EBUSY (objects complete to it; nothing changed).
 */
int ubcore_delete_jfc(struct ubcore_jfc *jfc)
{
	struct ubcore_ucontext *uctx;
	struct ubcore_device *dev;

	if (!jfc)
		return -EINVAL;
	dev = jfc->ub_dev;
	uctx = jfc->uctx;
	if (!ubcore_use_claim(&jfc->use_cnt)) {
		dev_dbg(&dev->dev, "jfc %u is used by %d objects\n", jfc->id,
			atomic_read(&jfc->use_cnt));
		return -EBUSY;
	}
	xa_erase_irq(&dev->jfc_table, jfc->id);
	ubcore_obj_ref_drain(&jfc->obj_ref);
	dev->ops->destroy_jfc(jfc);
	ubcore_obj_cnt_put(dev, uctx, UBCORE_OBJ_JFC);
	return 0;
}
EXPORT_SYMBOL_GPL(ubcore_delete_jfc);

/**
 * ubcore_find_get_jfc() - look up a JFC by ID
 * @dev: the device
 * @id: the JFC ID
 *
 * Context: any context.
 * Return: the JFC with a reference (ubcore_obj_ref_put(&jfc->obj_ref)), or
 * NULL (no such JFC, being created or being destroyed).
 */
struct ubcore_jfc *ubcore_find_get_jfc(struct ubcore_device *dev, u32 id)
{
	return ubcore_id_find_get(&dev->jfc_table, id, 0,
				  offsetof(struct ubcore_jfc, obj_ref));
}
EXPORT_SYMBOL_GPL(ubcore_find_get_jfc);
