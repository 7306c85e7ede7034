// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * The data path entry points: doorbells, JFC rearm, binding an RC jetty to
 * an imported jetty, flushing a stopped send queue, and the posting and
 * polling of kernel clients (include/ub/ubcore_dp.h). They check what
 * ubcore knows about the objects and pass the call to the provider; the
 * rings themselves are the provider's.
 *
 * Binding: jetty->remote_jetty is set and cleared only here (and by
 * ubcore_delete_jetty()), under the owner's serialisation of its calls on
 * the jetty; the provider reads it with READ_ONCE(). A bound tjetty holds
 * a use count (tjetty->use_cnt, 0 or 1: one jetty per RC import) that makes
 * ubcore_unimport_jetty() fail with -EBUSY, and the RC TP of the pair
 * (tjetty->tp, from the connection manager, tp.c) until unbound.
 */
#include <linux/export.h>

#include "tp.h"
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
 * one) calls the JFC's jfce_handler once, from the context that writes
 * that CQE (udma: its engine's work or the target's context; the handler
 * must not sleep).
 *
 * Context: any context but hard interrupt; does not sleep (nor may a
 * provider's rearm_jfc). The caller keeps @jfc alive.
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
 * until ubcore_unbind_jetty() (or deleting @jetty). Binding opens the RC
 * TP of the pair (@jetty, the imported jetty) through the connection
 * manager and waits for the peer's answer. The caller serialises this with
 * its other calls on @jetty.
 *
 * Context: process context; sleeps up to the connection timeout.
 * Return: 0, -EINVAL (not RC, another device or context, not a jetty, or
 * @tjetty is being unimported; logged at debug level), -EEXIST (@jetty is
 * bound already, or another jetty is bound to @tjetty), -EOPNOTSUPP, the
 * connection's error (as ubcore_import_jetty(): -ENOENT, -EPROTOTYPE,
 * -EPERM, -ECONNREFUSED, -ETIMEDOUT, -EHOSTUNREACH, -EINTR) or the
 * provider's error (nothing changed).
 */
int ubcore_bind_jetty(struct ubcore_jetty *jetty, struct ubcore_tjetty *tjetty)
{
	return ubcore_bind_jetty_ex(jetty, tjetty, NULL);
}
EXPORT_SYMBOL_GPL(ubcore_bind_jetty);

/**
 * ubcore_bind_jetty_ex() - ubcore_bind_jetty() on a named TP
 * @jetty: as for ubcore_bind_jetty()
 * @tjetty: as for ubcore_bind_jetty()
 * @active: the TP the bind must use (from ubcore_get_tp_list(): the RC TP
 *	of this jetty pair, which the peer's bind made) and the peer's handle
 *	of it; NULL: the connection manager's (ubcore_bind_jetty())
 *
 * Context: process context; sleeps up to the connection timeout.
 * Return: as ubcore_bind_jetty(); -EINVAL (logged) also when the pair's
 * TP is not @active's.
 */
int ubcore_bind_jetty_ex(struct ubcore_jetty *jetty, struct ubcore_tjetty *tjetty,
			 const struct ubcore_active_tp_cfg *active)
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
	/* one jetty per RC import, as UMDK: the TP is the pair's */
	switch (atomic_cmpxchg(&tjetty->use_cnt, 0, 1)) {
	case 0:
		break;
	case -1:
		return ubcore_inval(dev, "bind: jetty %u: tjetty is being unimported",
				    jetty->id);
	default:
		dev_dbg_ratelimited(&dev->dev, "bind: jetty %u: tjetty %u is bound to another jetty\n",
				    jetty->id, tjetty->cfg.id.id);
		return -EEXIST;
	}
	ret = ubcore_tjetty_connect(tjetty, jetty->id);
	if (ret)
		goto put;
	if (active) {
		ret = ubcore_tjetty_check_tp(tjetty, active);
		if (ret)
			goto disconnect;
	}
	ret = dev->ops->bind_jetty(jetty, tjetty);
	if (ret)
		goto disconnect;
	WRITE_ONCE(jetty->remote_jetty, tjetty);
	return 0;

disconnect:
	ubcore_tjetty_disconnect(tjetty);
put:
	ubcore_use_put(&tjetty->use_cnt);
	return ret;
}
EXPORT_SYMBOL_GPL(ubcore_bind_jetty_ex);

/* Forget the binding of @jetty (the provider has undone it). */
static void ubcore_jetty_clear_binding(struct ubcore_jetty *jetty)
{
	struct ubcore_tjetty *tjetty = jetty->remote_jetty;

	WRITE_ONCE(jetty->remote_jetty, NULL);
	ubcore_tjetty_disconnect(tjetty);
	ubcore_use_put(&tjetty->use_cnt);
}

/**
 * ubcore_unbind_jetty() - undo ubcore_bind_jetty()
 * @jetty: a bound jetty
 *
 * Closes the pair's RC TP (DCONN_NOTIFY to the peer). The caller
 * serialises this with its other calls on @jetty.
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

/*
 * Kernel posting and polling work on a kernel caller's objects only: a
 * user context's rings belong to its process. Refused with -EINVAL and a
 * debug line (ratelimited: these run in softirq context).
 */
static int ubcore_check_kernel_obj(struct ubcore_device *dev,
				   struct ubcore_ucontext *uctx,
				   const char *what, u32 id, bool has_op)
{
	if (uctx)
		return ubcore_inval(dev, "%s %u: not a kernel object", what, id);
	return has_op ? 0 : -EOPNOTSUPP;
}

/**
 * ubcore_post_jfs_wr() - post send work requests to a kernel JFS
 * @jfs: a JFS created with udata NULL
 * @wr: the first of a list of work requests (linked by @wr->next)
 * @bad_wr: set to the first work request not posted, when one is not
 *
 * The work requests are posted in order until one is malformed or the
 * queue is full; those before it are posted (and will complete), it and
 * those after it are not. Each completes with a completion record on the
 * JFS's JFC when it fails or asks for one (flag.bs.complete_enable).
 * What the provider checks only when it carries a request out (a remote
 * segment's token, a target's state) is reported in the completion
 * record, not here.
 *
 * Context: process or softirq context, with or without spinlocks held;
 * not hard interrupt; does not sleep (include/ub/ubcore_dp.h). A JFS
 * created with UBCORE_JFS_FLAG_POST_SLEEPABLE is the exception: process
 * context only, no spinlock held; may sleep, the provider processing the
 * new work requests here. The caller keeps @jfs alive.
 * Return: 0 when all were posted; -EINVAL (@jfs, @wr or @bad_wr NULL, a
 * user context's JFS, or a malformed work request: an opcode, SGE count,
 * inline length or segment the queue cannot take, a segment or target of
 * another device or of a user context); -ENOMEM (the queue is full);
 * -EOPNOTSUPP (the provider has no kernel data path).
 */
int ubcore_post_jfs_wr(struct ubcore_jfs *jfs, struct ubcore_jfs_wr *wr,
		       struct ubcore_jfs_wr **bad_wr)
{
	int ret;

	if (!jfs || !wr || !bad_wr)
		return -EINVAL;
	ret = ubcore_check_kernel_obj(jfs->ub_dev, jfs->uctx, "jfs", jfs->id,
				      jfs->ub_dev->ops->post_jfs_wr);
	if (ret) {
		*bad_wr = wr;
		return ret;
	}
	return jfs->ub_dev->ops->post_jfs_wr(jfs, wr, bad_wr);
}
EXPORT_SYMBOL_GPL(ubcore_post_jfs_wr);

/**
 * ubcore_post_jetty_send_wr() - post send work requests to a kernel jetty
 * @jetty: a jetty created with udata NULL
 * @wr: the first of a list of work requests
 * @bad_wr: set to the first work request not posted, when one is not
 *
 * As ubcore_post_jfs_wr(); on a bound RC jetty @wr->tjetty is NULL or the
 * bound jetty.
 *
 * Context: as ubcore_post_jfs_wr().
 * Return: as ubcore_post_jfs_wr().
 */
int ubcore_post_jetty_send_wr(struct ubcore_jetty *jetty,
			      struct ubcore_jfs_wr *wr,
			      struct ubcore_jfs_wr **bad_wr)
{
	int ret;

	if (!jetty || !wr || !bad_wr)
		return -EINVAL;
	ret = ubcore_check_kernel_obj(jetty->ub_dev, jetty->uctx, "jetty", jetty->id,
				      jetty->ub_dev->ops->post_jetty_send_wr);
	if (ret) {
		*bad_wr = wr;
		return ret;
	}
	return jetty->ub_dev->ops->post_jetty_send_wr(jetty, wr, bad_wr);
}
EXPORT_SYMBOL_GPL(ubcore_post_jetty_send_wr);

/**
 * ubcore_post_jfr_wr() - post receive buffers to a kernel JFR
 * @jfr: a JFR created with udata NULL
 * @wr: the first of a list of receive work requests
 * @bad_wr: set to the first work request not posted, when one is not
 *
 * Each work request takes one incoming SEND, SEND_IMM or WRITE_IMM, in
 * order, and completes with a receive completion record on the JFR's JFC
 * (or the receiving jetty's recv_jfc). A sender waiting because the JFR
 * had no buffer (RNR) is retried at once.
 *
 * Context: as ubcore_post_jfs_wr().
 * Return: 0 when all were posted; -EINVAL (NULL arguments, a user
 * context's JFR, more SGEs than the JFR's max_sge, an SGE outside a
 * registered kernel segment of the device); -ENOMEM (the queue is full);
 * -EOPNOTSUPP.
 */
int ubcore_post_jfr_wr(struct ubcore_jfr *jfr, struct ubcore_jfr_wr *wr,
		       struct ubcore_jfr_wr **bad_wr)
{
	int ret;

	if (!jfr || !wr || !bad_wr)
		return -EINVAL;
	ret = ubcore_check_kernel_obj(jfr->ub_dev, jfr->uctx, "jfr", jfr->id,
				      jfr->ub_dev->ops->post_jfr_wr);
	if (ret) {
		*bad_wr = wr;
		return ret;
	}
	return jfr->ub_dev->ops->post_jfr_wr(jfr, wr, bad_wr);
}
EXPORT_SYMBOL_GPL(ubcore_post_jfr_wr);

/**
 * ubcore_post_jetty_recv_wr() - post receive buffers to a kernel jetty
 * @jetty: a jetty created with udata NULL
 * @wr: the first of a list of receive work requests
 * @bad_wr: set to the first work request not posted, when one is not
 *
 * The buffers go to the JFR the jetty receives on (its shared JFR), as
 * ubcore_post_jfr_wr().
 *
 * Context: as ubcore_post_jfs_wr().
 * Return: as ubcore_post_jfr_wr().
 */
int ubcore_post_jetty_recv_wr(struct ubcore_jetty *jetty,
			      struct ubcore_jfr_wr *wr,
			      struct ubcore_jfr_wr **bad_wr)
{
	int ret;

	if (!jetty || !wr || !bad_wr)
		return -EINVAL;
	ret = ubcore_check_kernel_obj(jetty->ub_dev, jetty->uctx, "jetty", jetty->id,
				      jetty->ub_dev->ops->post_jetty_recv_wr);
	if (ret) {
		*bad_wr = wr;
		return ret;
	}
	return jetty->ub_dev->ops->post_jetty_recv_wr(jetty, wr, bad_wr);
}
EXPORT_SYMBOL_GPL(ubcore_post_jetty_recv_wr);

/**
 * ubcore_poll_jfc() - take completion records off a kernel JFC
 * @jfc: a JFC created with udata NULL
 * @cr_cnt: at most this many records
 * @cr: room for @cr_cnt records
 *
 * Records come in the order the provider wrote them. Each taken frees its
 * slot in the JFC for the next completion.
 *
 * Context: any context but hard interrupt (a NAPI poll, a timer);
 * does not sleep. The caller keeps @jfc alive.
 * Return: the number of records written to @cr (0: none pending), or
 * -EINVAL (@jfc or @cr NULL, @cr_cnt negative, a user context's JFC) or
 * -EOPNOTSUPP.
 */
int ubcore_poll_jfc(struct ubcore_jfc *jfc, int cr_cnt, struct ubcore_cr *cr)
{
	int ret;

	if (!jfc || !cr || cr_cnt < 0)
		return -EINVAL;
	ret = ubcore_check_kernel_obj(jfc->ub_dev, jfc->uctx, "jfc", jfc->id,
				      jfc->ub_dev->ops->poll_jfc);
	if (ret)
		return ret;
	return jfc->ub_dev->ops->poll_jfc(jfc, cr_cnt, cr);
}
EXPORT_SYMBOL_GPL(ubcore_poll_jfc);
