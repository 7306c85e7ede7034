// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * The data path entry points: doorbells, JFC rearm, binding an RC jetty to
 * an imported jetty, and flushing a stopped send queue. They check what
 * ubcore knows about the objects and pass the call to the provider; the
 * rings themselves are the provider's.
 *
 * Binding: jetty->remote_jetty is set and cleared only here (and by
 * ubcore_delete_jetty()), under the owner's serialisation of its calls on
 * the jetty; the provider reads it with READ_ONCE(). A bound tjetty holds
 * a use count (tjetty->use_cnt) that makes ubcore_unimport_jetty() fail
 * with -EBUSY.
 */
#include <linux/export.h>

#include "ubcore_priv.h"

/**
 * ubcore_jfs_doorbell() - new SQEs were posted to a JFS
 * @jfs: the JFS
 *
 * The provider processes the entries up to the ring's producer index,
 * some inline and the rest in the background.
 *
 * Context: process context; may sleep. The caller keeps @jfs alive.
 * Return: 0, -EINVAL (NULL), -EOPNOTSUPP (the provider has no data path)
 * or the provider's error about the JFS (never about the entries).
 */
int ubcore_jfs_doorbell(struct ubcore_jfs *jfs)
{
	const struct ubcore_ops *ops;

	if (!jfs)
		return -EINVAL;
	ops = jfs->ub_dev->ops;
	if (!ops->jfs_doorbell)
		return -EOPNOTSUPP;
	return ops->jfs_doorbell(jfs);
}
EXPORT_SYMBOL_GPL(ubcore_jfs_doorbell);

/**
 * ubcore_jfr_doorbell() - new RQEs were posted to a JFR
 * @jfr: the JFR
 *
 * Context: process context; may sleep. The caller keeps @jfr alive.
 * Return: 0, -EINVAL (NULL), -EOPNOTSUPP or the provider's error.
 */
int ubcore_jfr_doorbell(struct ubcore_jfr *jfr)
{
	const struct ubcore_ops *ops;

	if (!jfr)
		return -EINVAL;
	ops = jfr->ub_dev->ops;
	if (!ops->jfr_doorbell)
		return -EOPNOTSUPP;
	return ops->jfr_doorbell(jfr);
}
EXPORT_SYMBOL_GPL(ubcore_jfr_doorbell);

/**
 * ubcore_jetty_doorbell() - new SQEs were posted to a jetty
 * @jetty: the jetty
 *
 * Context: process context; may sleep. The caller keeps @jetty alive.
 * Return: 0, -EINVAL (NULL), -EOPNOTSUPP or the provider's error.
 */
int ubcore_jetty_doorbell(struct ubcore_jetty *jetty)
{
	const struct ubcore_ops *ops;

	if (!jetty)
		return -EINVAL;
	ops = jetty->ub_dev->ops;
	if (!ops->jetty_doorbell)
		return -EOPNOTSUPP;
	return ops->jetty_doorbell(jetty);
}
EXPORT_SYMBOL_GPL(ubcore_jetty_doorbell);

/**
 * ubcore_rearm_jfc() - ask for one completion event
 * @jfc: the JFC
 * @solicited_only: only a solicited CQE raises it
 *
 * The next CQE written to @jfc (with @solicited_only: the next solicited
 * one) calls the JFC's jfce_handler once.
 *
 * Context: process context; may sleep. The caller keeps @jfc alive.
 * Return: 0, -EINVAL (NULL), -EOPNOTSUPP or the provider's error.
 */
int ubcore_rearm_jfc(struct ubcore_jfc *jfc, bool solicited_only)
{
	const struct ubcore_ops *ops;

	if (!jfc)
		return -EINVAL;
	ops = jfc->ub_dev->ops;
	if (!ops->rearm_jfc)
		return -EOPNOTSUPP;
	return ops->rearm_jfc(jfc, solicited_only);
}
EXPORT_SYMBOL_GPL(ubcore_rearm_jfc);

/**
 * ubcore_bind_jetty() - make an RC jetty send to an imported jetty
 * @jetty: an RC jetty (jfs_cfg.trans_mode UBCORE_TP_RC), not bound
 * @tjetty: a jetty (type UBCORE_TARGET_JETTY) imported in RC mode on the
 *	same device and by the same context as @jetty
 *
 * On success jetty->remote_jetty is @tjetty, which cannot be unimported
 * until ubcore_unbind_jetty() (or deleting @jetty). The caller serialises
 * this with its other calls on @jetty.
 *
 * Context: process context; may sleep.
 * Return: 0, -EINVAL (not RC, another device or context, not a jetty, or
 * @tjetty is being unimported; logged at debug level), -EEXIST (@jetty is
 * bound already), -EOPNOTSUPP or the provider's error (nothing changed).
 */
int ubcore_bind_jetty(struct ubcore_jetty *jetty, struct ubcore_tjetty *tjetty)
{
	struct ubcore_device *dev;
	int ret;

	if (!jetty || !tjetty)
		return -EINVAL;
	dev = jetty->ub_dev;
	if (jetty->cfg.jfs_cfg.trans_mode != UBCORE_TP_RC)
		return ubcore_inval(dev, "bind: jetty %u is not RC (trans_mode 0x%x)",
				    jetty->id, jetty->cfg.jfs_cfg.trans_mode);
	if (tjetty->ub_dev != dev || tjetty->uctx != jetty->uctx)
		return ubcore_inval(dev, "bind: jetty %u: tjetty of another device or context",
				    jetty->id);
	if (tjetty->cfg.type != UBCORE_TARGET_JETTY ||
	    tjetty->cfg.trans_mode != UBCORE_TP_RC)
		return ubcore_inval(dev, "bind: jetty %u: tjetty type %u trans_mode 0x%x",
				    jetty->id, tjetty->cfg.type,
				    tjetty->cfg.trans_mode);
	if (jetty->remote_jetty) {
		dev_dbg_ratelimited(&dev->dev, "jetty %u is bound already\n",
				    jetty->id);
		return -EEXIST;
	}
	if (!dev->ops->bind_jetty || !dev->ops->unbind_jetty)
		return -EOPNOTSUPP;
	if (!ubcore_use_get(&tjetty->use_cnt))
		return ubcore_inval(dev, "bind: jetty %u: tjetty is being unimported",
				    jetty->id);
	ret = dev->ops->bind_jetty(jetty, tjetty);
	if (ret) {
		ubcore_use_put(&tjetty->use_cnt);
		return ret;
	}
	WRITE_ONCE(jetty->remote_jetty, tjetty);
	return 0;
}
EXPORT_SYMBOL_GPL(ubcore_bind_jetty);

/* Forget the binding of @jetty (the provider has undone it). */
static void ubcore_jetty_clear_binding(struct ubcore_jetty *jetty)
{
	struct ubcore_tjetty *tjetty = jetty->remote_jetty;

	WRITE_ONCE(jetty->remote_jetty, NULL);
	ubcore_use_put(&tjetty->use_cnt);
}

/**
 * ubcore_unbind_jetty() - undo ubcore_bind_jetty()
 * @jetty: a bound jetty
 *
 * The caller serialises this with its other calls on @jetty.
 *
 * Context: process context; may sleep.
 * Return: 0, -EINVAL (@jetty is not bound) or the provider's error (the
 * jetty stays bound then).
 */
int ubcore_unbind_jetty(struct ubcore_jetty *jetty)
{
	int ret;

	if (!jetty)
		return -EINVAL;
	if (!jetty->remote_jetty)
		return ubcore_inval(jetty->ub_dev, "unbind: jetty %u is not bound",
				    jetty->id);
	ret = jetty->ub_dev->ops->unbind_jetty(jetty);
	if (ret)
		return ret;
	ubcore_jetty_clear_binding(jetty);
	return 0;
}
EXPORT_SYMBOL_GPL(ubcore_unbind_jetty);

/*
 * For ubcore_delete_jetty(): unbind a jetty that is going away, once no
 * lookup holds it; a provider error is logged, the binding dropped anyway.
 */
void ubcore_jetty_drop_binding(struct ubcore_jetty *jetty)
{
	int ret;

	if (!jetty->remote_jetty)
		return;
	ret = jetty->ub_dev->ops->unbind_jetty(jetty);
	if (ret)
		dev_warn(&jetty->ub_dev->dev, "jetty %u: unbind failed: %d\n",
			 jetty->id, ret);
	ubcore_jetty_clear_binding(jetty);
}

/* Flushing takes entries off a stopped send queue only. */
static int ubcore_check_flush_state(struct ubcore_device *dev, u32 id,
				    enum ubcore_jetty_state state)
{
	if (state != UBCORE_JETTY_STATE_ERROR &&
	    state != UBCORE_JETTY_STATE_SUSPENDED)
		return ubcore_inval(dev, "flush: %u is in state %u", id, state);
	return 0;
}

/**
 * ubcore_flush_jfs() - take unstarted entries off the SQ of a JFS
 * @jfs: the JFS, in state ERROR or SUSPENDED
 * @max_cnt: at most this many entries
 * @first: the ring index of the first entry taken
 * @cnt: how many were taken (0 .. @max_cnt)
 *
 * The provider advances the ring's consumer index past the entries; the
 * caller reports them as not handled from its own copy of the ring. The
 * caller serialises this with state changes of @jfs.
 *
 * Context: process context; may sleep.
 * Return: 0, -EINVAL (another state, logged at debug level), -EOPNOTSUPP
 * or the provider's error.
 */
int ubcore_flush_jfs(struct ubcore_jfs *jfs, u32 max_cnt, u32 *first, u32 *cnt)
{
	struct ubcore_device *dev;
	int ret;

	if (!jfs || !first || !cnt)
		return -EINVAL;
	dev = jfs->ub_dev;
	ret = ubcore_check_flush_state(dev, jfs->id, READ_ONCE(jfs->state));
	if (ret)
		return ret;
	if (!dev->ops->flush_jfs)
		return -EOPNOTSUPP;
	return dev->ops->flush_jfs(jfs, max_cnt, first, cnt);
}
EXPORT_SYMBOL_GPL(ubcore_flush_jfs);

/**
 * ubcore_flush_jetty() - take unstarted entries off the SQ of a jetty
 * @jetty: the jetty, in state ERROR or SUSPENDED
 * @max_cnt: at most this many entries
 * @first: the ring index of the first entry taken
 * @cnt: how many were taken (0 .. @max_cnt)
 *
 * As ubcore_flush_jfs().
 *
 * Context: process context; may sleep.
 * Return: 0, -EINVAL (another state, logged at debug level), -EOPNOTSUPP
 * or the provider's error.
 */
int ubcore_flush_jetty(struct ubcore_jetty *jetty, u32 max_cnt, u32 *first,
		       u32 *cnt)
{
	struct ubcore_device *dev;
	int ret;

	if (!jetty || !first || !cnt)
		return -EINVAL;
	dev = jetty->ub_dev;
	ret = ubcore_check_flush_state(dev, jetty->id, READ_ONCE(jetty->state));
	if (ret)
		return ret;
	if (!dev->ops->flush_jetty)
		return -EOPNOTSUPP;
	return dev->ops->flush_jetty(jetty, max_cnt, first, cnt);
}
EXPORT_SYMBOL_GPL(ubcore_flush_jetty);
