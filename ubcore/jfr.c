// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * JFRs (jetty for receive): in dev->jetty_table, tagged
 * UBCORE_JETTY_TAG_JFR; each holds a use count on its JFC, jetties that
 * share it hold one on it.
 */
#include <linux/err.h>
#include <linux/export.h>

#include "ubcore_priv.h"

/*
 * State changes of a JFR: READY to ERROR, ERROR to RESET, RESET to READY,
 * RESET to ERROR; the current state again changes nothing.
 */
static int ubcore_check_jfr_state(struct ubcore_device *dev,
				  enum ubcore_jfr_state from,
				  enum ubcore_jfr_state to)
{
	static const bool ok[3][3] = {
		[UBCORE_JFR_STATE_RESET] = {
			[UBCORE_JFR_STATE_READY] = true,
			[UBCORE_JFR_STATE_ERROR] = true,
		},
		[UBCORE_JFR_STATE_READY] = {
			[UBCORE_JFR_STATE_ERROR] = true,
		},
		[UBCORE_JFR_STATE_ERROR] = {
			[UBCORE_JFR_STATE_RESET] = true,
		},
	};

	if ((u32)from >= ARRAY_SIZE(ok) || (u32)to >= ARRAY_SIZE(ok[0]) ||
	    (from != to && !ok[from][to]))
		return ubcore_inval(dev, "jfr state change %u -> %u", from, to);
	return 0;
}

static int ubcore_check_jfr_cfg(struct ubcore_device *dev,
				const struct ubcore_jfr_cfg *cfg,
				struct ubcore_udata *udata)
{
	if (!cfg->depth || cfg->depth > dev->cap.max_jfr_depth)
		return ubcore_inval(dev, "jfr depth %u", cfg->depth);
	if (cfg->max_sge > dev->cap.max_jfr_sge)
		return ubcore_inval(dev, "jfr max_sge %u", cfg->max_sge);
	if (cfg->min_rnr_timer > 31)
		return ubcore_inval(dev, "jfr min_rnr_timer %u",
				    cfg->min_rnr_timer);
	if (ubcore_check_trans_mode(dev, cfg->trans_mode, "jfr"))
		return -EINVAL;
	return ubcore_check_jfc(dev, cfg->jfc, udata, "jfr");
}

/**
 * ubcore_create_jfr() - create a JFR in state READY
 * @dev: the device
 * @cfg: the parameters; the depth the provider created is written back
 * @jfae_handler: async event callback, or NULL
 * @udata: a user caller's context and provider data, NULL for the kernel
 *
 * The JFR gets jetty ID @cfg->id if it is not 0 (IDs up to
 * cap.reserved_jetty_id_max only for kernel callers), else the lowest free
 * ID above the reserved ones.
 *
 * Context: process context; may sleep.
 * Return: the JFR, or ERR_PTR(-EINVAL) (bad @cfg, logged at debug level),
 * ERR_PTR(-EBUSY) (@cfg->id is taken), ERR_PTR(-ENOSPC) (cap.max_jfr JFRs
 * exist), ERR_PTR(-EOPNOTSUPP), -ENOMEM or the provider's error.
 */
struct ubcore_jfr *ubcore_create_jfr(struct ubcore_device *dev,
				     struct ubcore_jfr_cfg *cfg,
				     ubcore_event_callback_t jfae_handler,
				     struct ubcore_udata *udata)
{
	struct ubcore_jfr *jfr;
	u32 id;
	int ret;

	if (!dev || !cfg)
		return ERR_PTR(-EINVAL);
	if (!dev->ops->create_jfr || !dev->ops->destroy_jfr)
		return ERR_PTR(-EOPNOTSUPP);
	ret = ubcore_check_udata(dev, udata) ?:
	      ubcore_check_jfr_cfg(dev, cfg, udata);
	if (ret)
		return ERR_PTR(ret);
	if (!ubcore_use_get(&cfg->jfc->use_cnt))
		return ERR_PTR(ubcore_inval(dev, "jfr: jfc %u is being destroyed",
					    cfg->jfc->id));

	ret = ubcore_jetty_id_reserve(dev, UBCORE_OBJ_JFR, dev->cap.max_jfr,
				      cfg->id, udata, &id);
	if (ret)
		goto err_use;

	jfr = dev->ops->create_jfr(dev, cfg, udata);
	if (IS_ERR_OR_NULL(jfr)) {
		ret = jfr ? PTR_ERR(jfr) : -ENOMEM;
		goto err_id;
	}
	jfr->ub_dev = dev;
	jfr->uctx = ubcore_udata_uctx(udata);
	jfr->id = id;
	jfr->cfg = *cfg;
	jfr->cfg.id = id;
	jfr->state = UBCORE_JFR_STATE_READY;
	jfr->rx_threshold = 0;
	jfr->jfae_handler = jfae_handler;
	atomic_set(&jfr->use_cnt, 0);
	ubcore_obj_ref_init(&jfr->obj_ref);
	ubcore_id_publish(&dev->jetty_table, id,
			  xa_tag_pointer(jfr, UBCORE_JETTY_TAG_JFR));
	return jfr;

err_id:
	ubcore_jetty_id_unreserve(dev, ubcore_udata_uctx(udata),
				  UBCORE_OBJ_JFR, id);
err_use:
	ubcore_use_put(&cfg->jfc->use_cnt);
	return ERR_PTR(ret);
}
EXPORT_SYMBOL_GPL(ubcore_create_jfr);

/**
 * ubcore_modify_jfr() - change the state or threshold of a JFR
 * @jfr: the JFR
 * @attr: UBCORE_JFR_RX_THRESHOLD (at most the depth) and/or
 *	UBCORE_JFR_STATE in @attr->mask, and their values
 * @udata: the caller's provider data, or NULL
 *
 * Allowed state changes: READY to ERROR, ERROR to RESET, RESET to READY
 * or ERROR; the current state again changes nothing. The caller serialises
 * modifications of one JFR.
 *
 * Context: process context; may sleep.
 * Return: 0, -EINVAL (unknown mask bits, a threshold above the depth or a
 * change not allowed), -EOPNOTSUPP or the provider's error (nothing
 * changed then).
 */
int ubcore_modify_jfr(struct ubcore_jfr *jfr, const struct ubcore_jfr_attr *attr,
		      struct ubcore_udata *udata)
{
	struct ubcore_jfr_attr a;
	struct ubcore_device *dev;
	int ret;

	if (!jfr || !attr)
		return -EINVAL;
	dev = jfr->ub_dev;
	a = *attr;
	if (a.mask & ~(UBCORE_JFR_RX_THRESHOLD | UBCORE_JFR_STATE))
		return ubcore_inval(dev, "jfr %u attr mask 0x%x", jfr->id, a.mask);
	if ((a.mask & UBCORE_JFR_RX_THRESHOLD) && a.rx_threshold > jfr->cfg.depth)
		return ubcore_inval(dev, "jfr %u rx_threshold %u", jfr->id,
				    a.rx_threshold);
	if (a.mask & UBCORE_JFR_STATE) {
		ret = ubcore_check_jfr_state(dev, READ_ONCE(jfr->state), a.state);
		if (ret)
			return ret;
		if (a.state == READ_ONCE(jfr->state))
			a.mask &= ~UBCORE_JFR_STATE;
	}
	if (!a.mask)
		return 0;
	if (!dev->ops->modify_jfr)
		return -EOPNOTSUPP;
	ret = dev->ops->modify_jfr(jfr, &a, udata);
	if (ret)
		return ret;
	if (a.mask & UBCORE_JFR_RX_THRESHOLD)
		WRITE_ONCE(jfr->rx_threshold, a.rx_threshold);
	if (a.mask & UBCORE_JFR_STATE)
		WRITE_ONCE(jfr->state, a.state);
	return 0;
}
EXPORT_SYMBOL_GPL(ubcore_modify_jfr);

/**
 * ubcore_query_jfr() - the parameters and attributes of a JFR
 * @jfr: the JFR
 * @cfg: filled with the parameters as created (with its ID)
 * @attr: filled with the threshold and the current state
 *
 * Context: any context.
 * Return: 0, or -EINVAL (a NULL argument).
 */
int ubcore_query_jfr(struct ubcore_jfr *jfr, struct ubcore_jfr_cfg *cfg,
		     struct ubcore_jfr_attr *attr)
{
	if (!jfr || !cfg || !attr)
		return -EINVAL;
	*cfg = jfr->cfg;
	attr->mask = UBCORE_JFR_RX_THRESHOLD | UBCORE_JFR_STATE;
	attr->rx_threshold = READ_ONCE(jfr->rx_threshold);
	attr->state = READ_ONCE(jfr->state);
	return 0;
}
EXPORT_SYMBOL_GPL(ubcore_query_jfr);

/**
 * ubcore_delete_jfr() - destroy a JFR
 * @jfr: the JFR; no jetty shares it
 *
 * Context: process context; may sleep.
 * Return: 0, or -EBUSY (jetties share it; nothing changed).
 */
int ubcore_delete_jfr(struct ubcore_jfr *jfr)
{
	struct ubcore_ucontext *uctx;
	struct ubcore_device *dev;
	struct ubcore_jfc *jfc;

	if (!jfr)
		return -EINVAL;
	dev = jfr->ub_dev;
	uctx = jfr->uctx;
	if (!ubcore_use_claim(&jfr->use_cnt)) {
		dev_dbg(&dev->dev, "jfr %u is shared by %d jetties\n", jfr->id,
			atomic_read(&jfr->use_cnt));
		return -EBUSY;
	}
	jfc = jfr->cfg.jfc;
	xa_erase_irq(&dev->jetty_table, jfr->id);
	ubcore_obj_ref_drain(&jfr->obj_ref);
	dev->ops->destroy_jfr(jfr);
	ubcore_use_put(&jfc->use_cnt);
	ubcore_obj_cnt_put(dev, uctx, UBCORE_OBJ_JFR);
	return 0;
}
EXPORT_SYMBOL_GPL(ubcore_delete_jfr);

/**
 * ubcore_find_get_jfr() - look up a JFR by jetty ID
 * @dev: the device
 * @id: the jetty ID
 *
 * Context: any context.
 * Return: the JFR with a reference (ubcore_obj_ref_put(&jfr->obj_ref)), or
 * NULL (no JFR has this ID, or it is being created or destroyed).
 */
struct ubcore_jfr *ubcore_find_get_jfr(struct ubcore_device *dev, u32 id)
{
	return ubcore_id_find_get(&dev->jetty_table, id, UBCORE_JETTY_TAG_JFR,
				  offsetof(struct ubcore_jfr, obj_ref));
}
EXPORT_SYMBOL_GPL(ubcore_find_get_jfr);
