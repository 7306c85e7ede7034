// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * Imported remote JFRs and jetties (initiator side). An RM import opens
 * (or shares) the TP to the target's EID through the connection manager
 * (tp.c) and fails with the peer's answer; an RC import opens nothing
 * until a jetty is bound to it (dp.c); UM needs no TP.
 */
#include <linux/err.h>
#include <linux/export.h>

#include "tp.h"
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
					   struct ubcore_udata *udata, bool jfr,
					   const struct ubcore_active_tp_cfg *active)
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
	tjetty->tp = NULL;
	atomic_set(&tjetty->use_cnt, 0);
	/* a jetty group has no single target for the peer to check */
	if (cfg->trans_mode == UBCORE_TP_RM && cfg->type != UBCORE_TARGET_JETTY_GROUP) {
		ret = ubcore_tjetty_connect(tjetty, 0);
		if (!ret && active)
			ret = ubcore_tjetty_check_tp(tjetty, active);
		if (ret)
			goto undo;
	}
	return tjetty;

undo:
	ubcore_tjetty_disconnect(tjetty);
	if (jfr)
		dev->ops->unimport_jfr(tjetty);
	else
		dev->ops->unimport_jetty(tjetty);
	ubcore_obj_cnt_put(dev, uctx, type);
	return ERR_PTR(ret);
}

/**
 * ubcore_import_jfr() - import a remote JFR
 * @dev: the local device
 * @cfg: the target (type UBCORE_TARGET_JFR, a non-zero ID, one transport
 *	mode of the device) and its token
 * @udata: a user caller's context and provider data, NULL for the kernel
 *
 * In RM mode the import opens or shares the TP to the JFR's EID and waits
 * for it (see ubcore_tjetty_connect()).
 *
 * Context: process context; sleeps up to the connection timeout.
 * Return: the imported JFR, or ERR_PTR(-EINVAL) (bad @cfg, logged at debug
 * level), ERR_PTR(-ENOSPC) (the context has limits/tjfr imported JFRs),
 * ERR_PTR(-EOPNOTSUPP), the provider's error, or the connection's:
 * -ENOENT (no such JFR on the peer), -EPROTOTYPE (mode mismatch), -EPERM
 * (wrong token), -ECONNREFUSED, -ETIMEDOUT, -EHOSTUNREACH, -EINTR
 * (docs/connection-manager.md).
 */
struct ubcore_tjetty *ubcore_import_jfr(struct ubcore_device *dev,
					struct ubcore_tjetty_cfg *cfg,
					struct ubcore_udata *udata)
{
	return ubcore_import(dev, cfg, udata, true, NULL);
}
EXPORT_SYMBOL_GPL(ubcore_import_jfr);

/**
 * ubcore_unimport_jfr() - forget an imported JFR
 * @tjfr: from ubcore_import_jfr()
 *
 * The last import using its RM TP closes it (DCONN_NOTIFY to the peer).
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
	ubcore_tjetty_disconnect(tjfr);
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
 * In RM mode the import opens or shares the TP to the jetty's EID and
 * waits for it (see ubcore_tjetty_connect()); in RC mode ubcore_bind_jetty()
 * opens the TP.
 *
 * Context: process context; sleeps up to the connection timeout.
 * Return: the imported jetty, or ERR_PTR(-EINVAL) (bad @cfg, logged at
 * debug level), ERR_PTR(-ENOSPC) (the context has limits/tjetty imported
 * jetties), ERR_PTR(-EOPNOTSUPP), the provider's error, or the
 * connection's (as ubcore_import_jfr()).
 */
struct ubcore_tjetty *ubcore_import_jetty(struct ubcore_device *dev,
					  struct ubcore_tjetty_cfg *cfg,
					  struct ubcore_udata *udata)
{
	return ubcore_import(dev, cfg, udata, false, NULL);
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
	ubcore_tjetty_disconnect(tjetty);
	dev->ops->unimport_jetty(tjetty);
	ubcore_obj_cnt_put(dev, uctx, UBCORE_OBJ_TJETTY);
	return 0;
}
EXPORT_SYMBOL_GPL(ubcore_unimport_jetty);

/**
 * ubcore_import_jetty_ex() - import a remote jetty or JFR on a named TP
 * @dev: the local device
 * @cfg: as for ubcore_import_jetty() (type UBCORE_TARGET_JFR: as for
 *	ubcore_import_jfr()); RM only: an RC import has no TP until bound
 *	(ubcore_bind_jetty_ex())
 * @active: the TP (from ubcore_get_tp_list()) and the peer's handle of it
 * @udata: a user caller's context and provider data, NULL for the kernel
 *
 * The import shares the TP of its EID pair as any RM import does; it fails
 * if that TP is not the one @active names.
 *
 * Context: process context; sleeps up to the connection timeout.
 * Return: the import, or ERR_PTR(-EINVAL) (RC/UM or a bad @cfg, or another
 * TP than @active's, logged) or any error of ubcore_import_jetty().
 */
struct ubcore_tjetty *ubcore_import_jetty_ex(struct ubcore_device *dev,
					     struct ubcore_tjetty_cfg *cfg,
					     const struct ubcore_active_tp_cfg *active,
					     struct ubcore_udata *udata)
{
	if (!dev || !cfg || !active)
		return ERR_PTR(-EINVAL);
	if (cfg->trans_mode != UBCORE_TP_RM || cfg->type == UBCORE_TARGET_JETTY_GROUP)
		return ERR_PTR(ubcore_inval(dev, "import_ex: mode 0x%x type %u: no TP at import",
					    cfg->trans_mode, cfg->type));
	return ubcore_import(dev, cfg, udata, cfg->type == UBCORE_TARGET_JFR,
			     active);
}
EXPORT_SYMBOL_GPL(ubcore_import_jetty_ex);
