// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * JFSs (jetty for send): in dev->jetty_table, tagged UBCORE_JETTY_TAG_JFS;
 * each holds a use count on its JFC.
 */
#include <linux/err.h>
#include <linux/export.h>

#include "ubcore_priv.h"

/**
 * ubcore_create_jfs() - create a JFS in state READY
 * @dev: the device
 * @cfg: the parameters; the depth and inline size the provider created are
 *	written back
 * @jfae_handler: async event callback, or NULL
 * @udata: a user caller's context and provider data, NULL for the kernel
 *
 * The JFS gets the lowest free jetty ID above cap.reserved_jetty_id_max.
 *
 * Context: process context; may sleep.
 * Return: the JFS, or ERR_PTR(-EINVAL) (bad @cfg, logged at debug level,
 * or its JFC is being destroyed), ERR_PTR(-ENOSPC) (cap.max_jfs JFSs
 * exist), ERR_PTR(-EOPNOTSUPP), -ENOMEM or the provider's error.
 */
struct ubcore_jfs *ubcore_create_jfs(struct ubcore_device *dev,
				     struct ubcore_jfs_cfg *cfg,
				     ubcore_event_callback_t jfae_handler,
				     struct ubcore_udata *udata)
{
	struct ubcore_jfs *jfs;
	u32 id;
	int ret;

	if (!dev || !cfg)
		return ERR_PTR(-EINVAL);
	if (!dev->ops->create_jfs || !dev->ops->destroy_jfs)
		return ERR_PTR(-EOPNOTSUPP);
	ret = ubcore_check_udata(dev, udata) ?:
	      ubcore_check_jfs_cfg(dev, cfg, udata, "jfs");
	if (ret)
		return ERR_PTR(ret);
	if (!ubcore_use_get(&cfg->jfc->use_cnt))
		return ERR_PTR(ubcore_inval(dev, "jfs: jfc %u is being destroyed",
					    cfg->jfc->id));

	ret = ubcore_jetty_id_reserve(dev, UBCORE_OBJ_JFS, dev->cap.max_jfs,
				      0, udata, &id);
	if (ret)
		goto err_use;

	jfs = dev->ops->create_jfs(dev, cfg, udata);
	if (IS_ERR_OR_NULL(jfs)) {
		ret = jfs ? PTR_ERR(jfs) : -ENOMEM;
		goto err_id;
	}
	jfs->ub_dev = dev;
	jfs->uctx = ubcore_udata_uctx(udata);
	jfs->id = id;
	jfs->cfg = *cfg;
	jfs->state = UBCORE_JETTY_STATE_READY;
	jfs->jfae_handler = jfae_handler;
	ubcore_obj_ref_init(&jfs->obj_ref);
	ubcore_id_publish(&dev->jetty_table, id,
			  xa_tag_pointer(jfs, UBCORE_JETTY_TAG_JFS));
	return jfs;

err_id:
	ubcore_jetty_id_unreserve(dev, ubcore_udata_uctx(udata),
				  UBCORE_OBJ_JFS, id);
err_use:
	ubcore_use_put(&cfg->jfc->use_cnt);
	return ERR_PTR(ret);
}
EXPORT_SYMBOL_GPL(ubcore_create_jfs);

/**
 * ubcore_modify_jfs() - change the state of a JFS
 * @jfs: the JFS
 * @attr: UBCORE_JFS_STATE in @attr->mask and the new state
 * @udata: the caller's provider data, or NULL
 *
 * Allowed changes: READY to SUSPENDED, SUSPENDED to READY, any state to
 * ERROR, ERROR to RESET, RESET to READY; the current state again changes
 * nothing. The caller serialises modifications of one JFS.
 *
 * Context: process context; may sleep.
 * Return: 0, -EINVAL (unknown mask bits or a change not allowed),
 * -EOPNOTSUPP or the provider's error (the state is unchanged then).
 */
int ubcore_modify_jfs(struct ubcore_jfs *jfs, const struct ubcore_jfs_attr *attr,
		      struct ubcore_udata *udata)
{
	struct ubcore_device *dev;
	int ret;

	if (!jfs || !attr)
		return -EINVAL;
	dev = jfs->ub_dev;
	if (attr->mask & ~UBCORE_JFS_STATE)
		return ubcore_inval(dev, "jfs %u attr mask 0x%x", jfs->id,
				    attr->mask);
	if (!attr->mask || attr->state == READ_ONCE(jfs->state))
		return 0;
	ret = ubcore_check_jetty_state(dev, READ_ONCE(jfs->state), attr->state);
	if (ret)
		return ret;
	if (!dev->ops->modify_jfs)
		return -EOPNOTSUPP;
	ret = dev->ops->modify_jfs(jfs, attr, udata);
	if (ret)
		return ret;
	WRITE_ONCE(jfs->state, attr->state);
	return 0;
}
EXPORT_SYMBOL_GPL(ubcore_modify_jfs);

/**
 * ubcore_query_jfs() - the parameters and state of a JFS
 * @jfs: the JFS
 * @cfg: filled with the parameters as created
 * @attr: filled with the current state (mask UBCORE_JFS_STATE)
 *
 * Context: any context.
 * Return: 0, or -EINVAL (a NULL argument).
 */
int ubcore_query_jfs(struct ubcore_jfs *jfs, struct ubcore_jfs_cfg *cfg,
		     struct ubcore_jfs_attr *attr)
{
	if (!jfs || !cfg || !attr)
		return -EINVAL;
	*cfg = jfs->cfg;
	attr->mask = UBCORE_JFS_STATE;
	attr->state = READ_ONCE(jfs->state);
	return 0;
}
EXPORT_SYMBOL_GPL(ubcore_query_jfs);

/**
 * ubcore_delete_jfs() - destroy a JFS
 * @jfs: the JFS
 *
 * Waits until no lookup holds the JFS, has the provider free it and drops
 * the use count on its JFC.
 *
 * Context: process context; may sleep.
 * Return: 0.
 */
int ubcore_delete_jfs(struct ubcore_jfs *jfs)
{
	struct ubcore_ucontext *uctx;
	struct ubcore_device *dev;
	struct ubcore_jfc *jfc;

	if (!jfs)
		return -EINVAL;
	dev = jfs->ub_dev;
	uctx = jfs->uctx;
	jfc = jfs->cfg.jfc;
	xa_erase_irq(&dev->jetty_table, jfs->id);
	ubcore_obj_ref_drain(&jfs->obj_ref);
	dev->ops->destroy_jfs(jfs);
	ubcore_use_put(&jfc->use_cnt);
	ubcore_obj_cnt_put(dev, uctx, UBCORE_OBJ_JFS);
	return 0;
}
EXPORT_SYMBOL_GPL(ubcore_delete_jfs);

/**
 * ubcore_find_get_jfs() - look up a JFS by jetty ID
 * @dev: the device
 * @id: the jetty ID
 *
 * Context: any context.
 * Return: the JFS with a reference (ubcore_obj_ref_put(&jfs->obj_ref)), or
 * NULL (no JFS has this ID, or it is being created or destroyed).
 */
struct ubcore_jfs *ubcore_find_get_jfs(struct ubcore_device *dev, u32 id)
{
	return ubcore_id_find_get(&dev->jetty_table, id, UBCORE_JETTY_TAG_JFS,
				  offsetof(struct ubcore_jfs, obj_ref));
}
EXPORT_SYMBOL_GPL(ubcore_find_get_jfs);
