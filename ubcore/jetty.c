// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * Jetties: a send queue and a shared JFR under one ID in dev->jetty_table,
 * tagged UBCORE_JETTY_TAG_JETTY. A jetty holds use counts on its send JFC,
 * on its receive JFC if it has its own, and on the JFR.
 */
#include <linux/err.h>
#include <linux/export.h>

#include "ubcore_priv.h"

static int ubcore_check_jetty_cfg(struct ubcore_device *dev,
				  const struct ubcore_jetty_cfg *cfg,
				  struct ubcore_udata *udata)
{
	int ret;

	if (!(cfg->flag & UBCORE_JETTY_SHARE_JFR))
		return ubcore_inval(dev, "jetty flag 0x%x: share_jfr required",
				    cfg->flag);
	if (!cfg->jfr)
		return ubcore_inval(dev, "jetty: no jfr");
	if (cfg->jfr->ub_dev != dev ||
	    cfg->jfr->uctx != ubcore_udata_uctx(udata))
		return ubcore_inval(dev, "jetty: jfr %u of another device or context",
				    cfg->jfr->id);
	ret = ubcore_check_jfs_cfg(dev, &cfg->jfs_cfg, udata, "jetty");
	if (ret)
		return ret;
	if (cfg->recv_jfc)
		return ubcore_check_jfc(dev, cfg->recv_jfc, udata, "jetty recv");
	return 0;
}

/* Use counts a jetty holds; false (nothing held) if one object is dying. */
static bool ubcore_jetty_get_uses(const struct ubcore_jetty_cfg *cfg)
{
	if (!ubcore_use_get(&cfg->jfs_cfg.jfc->use_cnt))
		return false;
	if (cfg->recv_jfc && !ubcore_use_get(&cfg->recv_jfc->use_cnt))
		goto put_send;
	if (!ubcore_use_get(&cfg->jfr->use_cnt))
		goto put_recv;
	return true;

put_recv:
	if (cfg->recv_jfc)
		ubcore_use_put(&cfg->recv_jfc->use_cnt);
put_send:
	ubcore_use_put(&cfg->jfs_cfg.jfc->use_cnt);
	return false;
}

static void ubcore_jetty_put_uses(const struct ubcore_jetty_cfg *cfg)
{
	ubcore_use_put(&cfg->jfr->use_cnt);
	if (cfg->recv_jfc)
		ubcore_use_put(&cfg->recv_jfc->use_cnt);
	ubcore_use_put(&cfg->jfs_cfg.jfc->use_cnt);
}

/**
 * ubcore_create_jetty() - create a jetty in state READY
 * @dev: the device
 * @cfg: the parameters; the send queue's depth and inline size the
 *	provider created are written back
 * @jfae_handler: async event callback, or NULL
 * @udata: a user caller's context and provider data, NULL for the kernel
 *
 * The jetty gets jetty ID @cfg->id if it is not 0 (IDs up to
 * cap.reserved_jetty_id_max only for kernel callers), else the lowest free
 * ID above the reserved ones. With @cfg->jetty_grp it is a member of that
 * group until it is deleted.
 *
 * Context: process context; may sleep.
 * Return: the jetty, or ERR_PTR(-EINVAL) (bad @cfg, logged at debug level,
 * or a JFC or the JFR is being destroyed, or the group does not take the
 * jetty: not RM, another token, being deleted), ERR_PTR(-EBUSY) (@cfg->id
 * is taken), ERR_PTR(-ENOSPC) (cap.max_jetty jetties exist, or the group
 * has cap.max_jetty_in_jetty_grp),
 * ERR_PTR(-EOPNOTSUPP), -ENOMEM or the provider's error.
 */
struct ubcore_jetty *ubcore_create_jetty(struct ubcore_device *dev,
					 struct ubcore_jetty_cfg *cfg,
					 ubcore_event_callback_t jfae_handler,
					 struct ubcore_udata *udata)
{
	struct ubcore_jetty *jetty;
	u32 id;
	int ret;

	if (!dev || !cfg)
		return ERR_PTR(-EINVAL);
	if (!dev->ops->create_jetty || !dev->ops->destroy_jetty)
		return ERR_PTR(-EOPNOTSUPP);
	ret = ubcore_check_udata(dev, udata) ?:
	      ubcore_check_jetty_cfg(dev, cfg, udata);
	if (ret)
		return ERR_PTR(ret);
	if (!ubcore_jetty_get_uses(cfg))
		return ERR_PTR(ubcore_inval(dev, "jetty: its jfc or jfr is being destroyed"));

	if (cfg->jetty_grp) {
		ret = ubcore_jetty_grp_join(dev, cfg, udata);
		if (ret)
			goto err_use;
	}
	ret = ubcore_jetty_id_reserve(dev, UBCORE_OBJ_JETTY, dev->cap.max_jetty,
				      cfg->id, udata, &id);
	if (ret)
		goto err_grp;

	jetty = dev->ops->create_jetty(dev, cfg, udata);
	if (IS_ERR_OR_NULL(jetty)) {
		ret = jetty ? PTR_ERR(jetty) : -ENOMEM;
		goto err_id;
	}
	jetty->ub_dev = dev;
	jetty->uctx = ubcore_udata_uctx(udata);
	jetty->id = id;
	jetty->cfg = *cfg;
	jetty->cfg.id = id;
	jetty->state = UBCORE_JETTY_STATE_READY;
	jetty->rx_threshold = 0;
	jetty->jfae_handler = jfae_handler;
	jetty->remote_jetty = NULL;
	ubcore_obj_ref_init(&jetty->obj_ref);
	ubcore_id_publish(&dev->jetty_table, id,
			  xa_tag_pointer(jetty, UBCORE_JETTY_TAG_JETTY));
	if (cfg->jetty_grp)
		ubcore_jetty_grp_add(cfg->jetty_grp, jetty);
	return jetty;

err_id:
	ubcore_jetty_id_unreserve(dev, ubcore_udata_uctx(udata),
				  UBCORE_OBJ_JETTY, id);
err_grp:
	if (cfg->jetty_grp)
		ubcore_jetty_grp_unjoin(cfg->jetty_grp);
err_use:
	ubcore_jetty_put_uses(cfg);
	return ERR_PTR(ret);
}
EXPORT_SYMBOL_GPL(ubcore_create_jetty);

/**
 * ubcore_modify_jetty() - change the state or threshold of a jetty
 * @jetty: the jetty
 * @attr: UBCORE_JFR_RX_THRESHOLD (at most the JFR's depth) and/or
 *	UBCORE_JFR_STATE in @attr->mask, and their values
 * @udata: the caller's provider data, or NULL
 *
 * Allowed state changes are those of a JFS (ubcore_modify_jfs()). The
 * caller serialises modifications of one jetty.
 *
 * Context: process context; may sleep.
 * Return: 0, -EINVAL (unknown mask bits, a threshold above the depth or a
 * change not allowed), -EOPNOTSUPP or the provider's error (nothing
 * changed then).
 */
int ubcore_modify_jetty(struct ubcore_jetty *jetty,
			const struct ubcore_jetty_attr *attr,
			struct ubcore_udata *udata)
{
	struct ubcore_jetty_attr a;
	struct ubcore_device *dev;
	int ret;

	if (!jetty || !attr)
		return -EINVAL;
	dev = jetty->ub_dev;
	a = *attr;
	if (a.mask & ~(UBCORE_JFR_RX_THRESHOLD | UBCORE_JFR_STATE))
		return ubcore_inval(dev, "jetty %u attr mask 0x%x", jetty->id,
				    a.mask);
	if ((a.mask & UBCORE_JFR_RX_THRESHOLD) &&
	    a.rx_threshold > jetty->cfg.jfr->cfg.depth)
		return ubcore_inval(dev, "jetty %u rx_threshold %u", jetty->id,
				    a.rx_threshold);
	if (a.mask & UBCORE_JFR_STATE) {
		ret = ubcore_check_jetty_state(dev, READ_ONCE(jetty->state),
					       a.state);
		if (ret)
			return ret;
		if (a.state == READ_ONCE(jetty->state))
			a.mask &= ~UBCORE_JFR_STATE;
	}
	if (!a.mask)
		return 0;
	if (!dev->ops->modify_jetty)
		return -EOPNOTSUPP;
	ret = dev->ops->modify_jetty(jetty, &a, udata);
	if (ret)
		return ret;
	if (a.mask & UBCORE_JFR_RX_THRESHOLD)
		WRITE_ONCE(jetty->rx_threshold, a.rx_threshold);
	if (a.mask & UBCORE_JFR_STATE)
		WRITE_ONCE(jetty->state, a.state);
	return 0;
}
EXPORT_SYMBOL_GPL(ubcore_modify_jetty);

/**
 * ubcore_query_jetty() - the parameters and attributes of a jetty
 * @jetty: the jetty
 * @cfg: filled with the parameters as created (with its ID)
 * @attr: filled with the threshold and the current state
 *
 * Context: any context.
 * Return: 0, or -EINVAL (a NULL argument).
 */
int ubcore_query_jetty(struct ubcore_jetty *jetty, struct ubcore_jetty_cfg *cfg,
		       struct ubcore_jetty_attr *attr)
{
	if (!jetty || !cfg || !attr)
		return -EINVAL;
	*cfg = jetty->cfg;
	attr->mask = UBCORE_JFR_RX_THRESHOLD | UBCORE_JFR_STATE;
	attr->rx_threshold = READ_ONCE(jetty->rx_threshold);
	attr->state = READ_ONCE(jetty->state);
	return 0;
}
EXPORT_SYMBOL_GPL(ubcore_query_jetty);

/**
 * ubcore_delete_jetty() - destroy a jetty
 * @jetty: the jetty
 *
 * Takes it out of its jetty group, waits until no lookup holds the jetty,
 * unbinds it if it is bound (ubcore_bind_jetty()), has the provider free
 * it and drops the use counts on its JFCs and JFR.
 *
 * Context: process context; may sleep.
 * Return: 0.
 */
int ubcore_delete_jetty(struct ubcore_jetty *jetty)
{
	struct ubcore_ucontext *uctx;
	struct ubcore_jetty_cfg cfg;
	struct ubcore_device *dev;

	if (!jetty)
		return -EINVAL;
	dev = jetty->ub_dev;
	uctx = jetty->uctx;
	cfg = jetty->cfg;
	if (cfg.jetty_grp)
		ubcore_jetty_grp_leave(cfg.jetty_grp, jetty);
	xa_erase_irq(&dev->jetty_table, jetty->id);
	ubcore_obj_ref_drain(&jetty->obj_ref);
	ubcore_jetty_drop_binding(jetty);
	dev->ops->destroy_jetty(jetty);
	ubcore_jetty_put_uses(&cfg);
	ubcore_obj_cnt_put(dev, uctx, UBCORE_OBJ_JETTY);
	return 0;
}
EXPORT_SYMBOL_GPL(ubcore_delete_jetty);

/**
 * ubcore_find_get_jetty() - look up a jetty by jetty ID
 * @dev: the device
 * @id: the jetty ID of a jetty, or of a jetty group: then one of its READY
 *	members, picked by the group's policy (jetty_grp.c)
 *
 * Context: any context.
 * Return: the jetty with a reference (ubcore_obj_ref_put(&jetty->obj_ref)),
 * or NULL (no jetty has this ID, it is being created or destroyed, or the
 * group has no READY member).
 */
struct ubcore_jetty *ubcore_find_get_jetty(struct ubcore_device *dev, u32 id)
{
	struct ubcore_jetty *jetty;

	jetty = ubcore_id_find_get(&dev->jetty_table, id, UBCORE_JETTY_TAG_JETTY,
				   offsetof(struct ubcore_jetty, obj_ref));
	return jetty ?: ubcore_jetty_grp_find_get_member(dev, id);
}
EXPORT_SYMBOL_GPL(ubcore_find_get_jetty);
