// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * Imported remote JFRs and jetties (initiator side). Import only records
 * the target; the transport connection is a later layer's.
 */
#include <linux/err.h>
#include <linux/export.h>

#include "ubcore_priv.h"

static int ubcore_check_tjetty_cfg(struct ubcore_device *dev,
				   const struct ubcore_tjetty_cfg *cfg,
				   bool jfr)
{
	const char *what = jfr ? "tjfr" : "tjetty";

	if (!cfg->id.id)
		return ubcore_inval(dev, "%s id 0", what);
	if (jfr ? cfg->type != UBCORE_TARGET_JFR :
		  cfg->type != UBCORE_TARGET_JETTY &&
		  cfg->type != UBCORE_TARGET_JETTY_GROUP)
		return ubcore_inval(dev, "%s type %u", what, cfg->type);
	return ubcore_check_trans_mode(dev, cfg->trans_mode, what);
}

static struct ubcore_tjetty *ubcore_import(struct ubcore_device *dev,
					   struct ubcore_tjetty_cfg *cfg,
					   struct ubcore_udata *udata, bool jfr)
{
	struct ubcore_tjetty *(*import)(struct ubcore_device *dev,
					struct ubcore_tjetty_cfg *cfg,
					struct ubcore_udata *udata);
	enum ubcore_obj_type type = jfr ? UBCORE_OBJ_TJFR : UBCORE_OBJ_TJETTY;
	struct ubcore_ucontext *uctx = ubcore_udata_uctx(udata);
	struct ubcore_tjetty *tjetty;
	int ret;

	if (!dev || !cfg)
		return ERR_PTR(-EINVAL);
	import = jfr ? dev->ops->import_jfr : dev->ops->import_jetty;
	if (!import || !(jfr ? dev->ops->unimport_jfr : dev->ops->unimport_jetty))
		return ERR_PTR(-EOPNOTSUPP);
	ret = ubcore_check_udata(dev, udata) ?:
	      ubcore_check_tjetty_cfg(dev, cfg, jfr) ?:
	      ubcore_obj_cnt_get(dev, uctx, type, U32_MAX);
	if (ret)
		return ERR_PTR(ret);

	tjetty = import(dev, cfg, udata);
	if (IS_ERR_OR_NULL(tjetty)) {
		ubcore_obj_cnt_put(dev, uctx, type);
		return tjetty ? tjetty : ERR_PTR(-ENOMEM);
	}
	tjetty->ub_dev = dev;
	tjetty->uctx = uctx;
	tjetty->cfg = *cfg;
	atomic_set(&tjetty->use_cnt, 0);
	return tjetty;
}

/**
 * ubcore_import_jfr() - import a remote JFR
 * @dev: the local device
 * @cfg: the target (type UBCORE_TARGET_JFR, a non-zero ID, one transport
 *	mode of the device) and its token
 * @udata: a user caller's context and provider data, NULL for the kernel
 *
 * Context: process context; may sleep.
 * Return: the imported JFR, or ERR_PTR(-EINVAL) (bad @cfg, logged at debug
 * level), ERR_PTR(-ENOSPC) (the context has limits/tjfr imported JFRs),
 * ERR_PTR(-EOPNOTSUPP) or the provider's error.
 */
struct ubcore_tjetty *ubcore_import_jfr(struct ubcore_device *dev,
					struct ubcore_tjetty_cfg *cfg,
					struct ubcore_udata *udata)
{
	return ubcore_import(dev, cfg, udata, true);
}
EXPORT_SYMBOL_GPL(ubcore_import_jfr);

/**
 * ubcore_unimport_jfr() - forget an imported JFR
 * @tjfr: from ubcore_import_jfr()
 *
 * Context: process context; may sleep.
 * Return: 0.
 */
int ubcore_unimport_jfr(struct ubcore_tjetty *tjfr)
{
	struct ubcore_ucontext *uctx;
	struct ubcore_device *dev;

	if (!tjfr)
		return -EINVAL;
	dev = tjfr->ub_dev;
	uctx = tjfr->uctx;
	dev->ops->unimport_jfr(tjfr);
	ubcore_obj_cnt_put(dev, uctx, UBCORE_OBJ_TJFR);
	return 0;
}
EXPORT_SYMBOL_GPL(ubcore_unimport_jfr);

/**
 * ubcore_import_jetty() - import a remote jetty
 * @dev: the local device
 * @cfg: the target (type UBCORE_TARGET_JETTY or _JETTY_GROUP, a non-zero
 *	ID, one transport mode of the device) and its token
 * @udata: a user caller's context and provider data, NULL for the kernel
 *
 * Context: process context; may sleep.
 * Return: the imported jetty, or ERR_PTR(-EINVAL) (bad @cfg, logged at
 * debug level), ERR_PTR(-ENOSPC) (the context has limits/tjetty imported
 * jetties), ERR_PTR(-EOPNOTSUPP) or the provider's error.
 */
struct ubcore_tjetty *ubcore_import_jetty(struct ubcore_device *dev,
					  struct ubcore_tjetty_cfg *cfg,
					  struct ubcore_udata *udata)
{
	return ubcore_import(dev, cfg, udata, false);
}
EXPORT_SYMBOL_GPL(ubcore_import_jetty);

/**
 * ubcore_unimport_jetty() - forget an imported jetty
 * @tjetty: from ubcore_import_jetty(); no jetty is bound to it
 *
 * Context: process context; may sleep.
 * Return: 0, or -EBUSY (a jetty is bound to it, ubcore_bind_jetty();
 * nothing changed).
 */
int ubcore_unimport_jetty(struct ubcore_tjetty *tjetty)
{
	struct ubcore_ucontext *uctx;
	struct ubcore_device *dev;

	if (!tjetty)
		return -EINVAL;
	dev = tjetty->ub_dev;
	if (!ubcore_use_claim(&tjetty->use_cnt)) {
		dev_dbg(&dev->dev, "tjetty %u: %d jetties are bound to it\n",
			tjetty->cfg.id.id, atomic_read(&tjetty->use_cnt));
		return -EBUSY;
	}
	uctx = tjetty->uctx;
	dev->ops->unimport_jetty(tjetty);
	ubcore_obj_cnt_put(dev, uctx, UBCORE_OBJ_TJETTY);
	return 0;
}
EXPORT_SYMBOL_GPL(ubcore_unimport_jetty);
