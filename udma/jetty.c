// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * JFSs, JFRs and jetties of udma, and the remote JFRs and jetties a
 * process imports. A JFS and a jetty have an SQ ring of UDMA_SQE_SIZE
 * entries; a JFR has an RQ ring of UDMA_RQE_SIZE entries; a jetty
 * receives on the JFR it shares, so it has no RQ of its own.
 *
 * The send queues' states: ubcore checks a transition and records it in
 * the common part (base.state) after modify_jfs / modify_jetty succeeded;
 * the engine keeps the state it acts on in struct udma_sq (sq.c), changes
 * it in those ops (stopping, flushing, completing as the transition asks)
 * and itself on a fatal error of the queue, and then writes base.state
 * too. A JFR's state is ubcore's alone; the target side reads it.
 */
#include <linux/err.h>
#include <linux/slab.h>

#include "udma.h"

/*
 * The SQ of a JFS or a jetty: its ring, and the engine's side
 * (udma_sq_init()). cfg->depth is rounded up, cfg->max_inline_data and
 * cfg->max_sge set to the maximum when 0; all are written back only on
 * success. The response is copied to @udata.
 */
static int udma_sq_create(struct udma_sq *sq, struct udma_dev *udev,
			  struct ubcore_jfs_cfg *cfg,
			  struct ubcore_udata *udata)
{
	const struct ubcore_device_cap *cap = &udev->ub_dev.cap;
	struct udma_create_jfs_resp resp = {};
	struct udma_ring *ring;
	u32 depth = cfg->depth;
	int ret;

	if (cfg->max_inline_data > cap->max_jfs_inline_size)
		return -EINVAL;
	ring = udma_ring_create(udev, udata, UDMA_SQE_SIZE, &depth,
				cap->max_jfs_depth, &resp.sq);
	if (IS_ERR(ring))
		return PTR_ERR(ring);
	ret = udma_copy_resp(udata, &resp, sizeof(resp));
	if (!ret)
		ret = udma_sq_init(sq, udev, ring);
	if (ret) {
		udma_ring_destroy(ring);
		return ret;
	}
	cfg->depth = depth;
	if (!cfg->max_inline_data)
		cfg->max_inline_data = cap->max_jfs_inline_size;
	if (!cfg->max_sge)
		cfg->max_sge = cap->max_jfs_sge;
	return 0;
}

/**
 * udma_create_jfs() - ubcore_ops.create_jfs
 * @ub_dev: the device
 * @cfg: checked by ubcore; depth and max_inline_data are written back
 * @udata: the user's udata (out: struct udma_create_jfs_resp), or NULL
 *
 * Return: the JFS or an ERR_PTR.
 */
struct ubcore_jfs *udma_create_jfs(struct ubcore_device *ub_dev,
				   struct ubcore_jfs_cfg *cfg,
				   struct ubcore_udata *udata)
{
	struct udma_jfs *jfs;
	int ret;

	jfs = kzalloc(sizeof(*jfs), GFP_KERNEL_ACCOUNT);
	if (!jfs)
		return ERR_PTR(-ENOMEM);
	ret = udma_sq_create(&jfs->sq, to_udma_dev(ub_dev), cfg, udata);
	if (ret) {
		kfree(jfs);
		return ERR_PTR(ret);
	}
	jfs->sq.jfs = &jfs->base;
	udma_sq_register(&jfs->sq);
	return &jfs->base;
}

/**
 * udma_modify_jfs() - ubcore_ops.modify_jfs
 * @base: the JFS
 * @attr: UBCORE_JFS_STATE; ubcore checked the transition and records it
 * @udata: unused
 *
 * The engine stops, flushes or resumes the SQ as udma_sq_set_state() says.
 * Process context.
 *
 * Return: 0, or -EINVAL for an unknown mask bit or a transition the
 * engine's state does not allow (it moved to ERROR meanwhile).
 */
int udma_modify_jfs(struct ubcore_jfs *base, const struct ubcore_jfs_attr *attr,
		    struct ubcore_udata *udata)
{
	if (attr->mask & ~UBCORE_JFS_STATE)
		return -EINVAL;
	if (!(attr->mask & UBCORE_JFS_STATE))
		return 0;
	return udma_sq_set_state(&to_udma_jfs(base)->sq, attr->state);
}

/**
 * udma_destroy_jfs() - ubcore_ops.destroy_jfs
 * @base: the JFS; no lookup holds it
 *
 * Stops the engine on the SQ (its work is cancelled) before the ring goes.
 */
void udma_destroy_jfs(struct ubcore_jfs *base)
{
	struct udma_jfs *jfs = to_udma_jfs(base);

	udma_sq_destroy(&jfs->sq);
	udma_ring_destroy(jfs->sq.ring);
	kfree(jfs);
}

/**
 * udma_create_jfr() - ubcore_ops.create_jfr
 * @ub_dev: the device
 * @cfg: checked by ubcore; depth is rounded up and written back
 * @udata: the user's udata (out: struct udma_create_jfr_resp), or NULL
 *
 * Return: the JFR or an ERR_PTR.
 */
struct ubcore_jfr *udma_create_jfr(struct ubcore_device *ub_dev,
				   struct ubcore_jfr_cfg *cfg,
				   struct ubcore_udata *udata)
{
	struct udma_create_jfr_resp resp = {};
	struct udma_jfr *jfr;
	u32 depth = cfg->depth;
	int ret;

	jfr = kzalloc(sizeof(*jfr), GFP_KERNEL_ACCOUNT);
	if (!jfr)
		return ERR_PTR(-ENOMEM);
	jfr->rq = udma_ring_create(to_udma_dev(ub_dev), udata, UDMA_RQE_SIZE,
				   &depth, ub_dev->cap.max_jfr_depth, &resp.rq);
	if (IS_ERR(jfr->rq)) {
		ret = PTR_ERR(jfr->rq);
		goto free;
	}
	ret = udma_copy_resp(udata, &resp, sizeof(resp));
	if (ret)
		goto destroy_ring;
	cfg->depth = depth;
	return &jfr->base;

destroy_ring:
	udma_ring_destroy(jfr->rq);
free:
	kfree(jfr);
	return ERR_PTR(ret);
}

/**
 * udma_modify_jfr() - ubcore_ops.modify_jfr
 * @base: the JFR
 * @attr: UBCORE_JFR_RX_THRESHOLD and/or UBCORE_JFR_STATE; ubcore checked
 *	them and records them
 * @udata: unused
 *
 * Return: 0, or -EINVAL for an unknown mask bit.
 */
int udma_modify_jfr(struct ubcore_jfr *base, const struct ubcore_jfr_attr *attr,
		    struct ubcore_udata *udata)
{
	if (attr->mask & ~(UBCORE_JFR_RX_THRESHOLD | UBCORE_JFR_STATE))
		return -EINVAL;
	return 0;
}

/**
 * udma_destroy_jfr() - ubcore_ops.destroy_jfr
 * @base: the JFR; no lookup holds it and no jetty shares it
 */
void udma_destroy_jfr(struct ubcore_jfr *base)
{
	struct udma_jfr *jfr = to_udma_jfr(base);

	udma_ring_destroy(jfr->rq);
	kfree(jfr);
}

/**
 * udma_create_jetty() - ubcore_ops.create_jetty
 * @ub_dev: the device
 * @cfg: checked by ubcore; jfs_cfg.depth and jfs_cfg.max_inline_data are
 *	written back
 * @udata: the user's udata (out: struct udma_create_jfs_resp for the SQ),
 *	or NULL
 *
 * Return: the jetty, or an ERR_PTR (-EINVAL without a shared JFR).
 */
struct ubcore_jetty *udma_create_jetty(struct ubcore_device *ub_dev,
				       struct ubcore_jetty_cfg *cfg,
				       struct ubcore_udata *udata)
{
	struct udma_jetty *jetty;
	int ret;

	if (!(cfg->flag & UBCORE_JETTY_SHARE_JFR) || !cfg->jfr)
		return ERR_PTR(-EINVAL);
	jetty = kzalloc(sizeof(*jetty), GFP_KERNEL_ACCOUNT);
	if (!jetty)
		return ERR_PTR(-ENOMEM);
	ret = udma_sq_create(&jetty->sq, to_udma_dev(ub_dev), &cfg->jfs_cfg,
			     udata);
	if (ret) {
		kfree(jetty);
		return ERR_PTR(ret);
	}
	jetty->sq.jetty = &jetty->base;
	udma_sq_register(&jetty->sq);
	return &jetty->base;
}

/**
 * udma_modify_jetty() - ubcore_ops.modify_jetty
 * @base: the jetty
 * @attr: UBCORE_JFR_RX_THRESHOLD and/or UBCORE_JFR_STATE (the jetty's
 *	state); ubcore checked them and records them
 * @udata: unused
 *
 * A state change goes to the engine's SQ (udma_sq_set_state()). Process
 * context.
 *
 * Return: 0, or -EINVAL for an unknown mask bit or a transition the
 * engine's state does not allow (it moved to ERROR meanwhile).
 */
int udma_modify_jetty(struct ubcore_jetty *base,
		      const struct ubcore_jetty_attr *attr,
		      struct ubcore_udata *udata)
{
	if (attr->mask & ~(UBCORE_JFR_RX_THRESHOLD | UBCORE_JFR_STATE))
		return -EINVAL;
	if (!(attr->mask & UBCORE_JFR_STATE))
		return 0;
	return udma_sq_set_state(&to_udma_jetty(base)->sq, attr->state);
}

/**
 * udma_destroy_jetty() - ubcore_ops.destroy_jetty
 * @base: the jetty; no lookup holds it
 *
 * Stops the engine on the SQ (its work is cancelled) before the ring goes.
 */
void udma_destroy_jetty(struct ubcore_jetty *base)
{
	struct udma_jetty *jetty = to_udma_jetty(base);

	udma_sq_destroy(&jetty->sq);
	udma_ring_destroy(jetty->sq.ring);
	kfree(jetty);
}

/*
 * Import records the target for the data path (struct udma_import) and
 * gives a user's import its index; the transport to it comes later.
 */
static struct ubcore_tjetty *udma_import(struct ubcore_device *ub_dev,
					 const struct ubcore_tjetty_cfg *cfg,
					 struct ubcore_udata *udata, u32 type)
{
	struct udma_tjetty *tjetty;
	int ret;

	tjetty = kzalloc(sizeof(*tjetty), GFP_KERNEL_ACCOUNT);
	if (!tjetty)
		return ERR_PTR(-ENOMEM);
	tjetty->udev = to_udma_dev(ub_dev);
	tjetty->imp.type = type;
	tjetty->imp.eid = cfg->id.eid;
	tjetty->imp.uasid = cfg->id.uasid;
	tjetty->imp.id = cfg->id.id;
	tjetty->imp.token_value = cfg->token_value;
	ret = udma_import_add(&tjetty->imp, udata);
	if (ret) {
		kfree(tjetty);
		return ERR_PTR(ret);
	}
	atomic_inc(&tjetty->udev->nr_imported);
	return &tjetty->base;
}

/**
 * udma_import_jfr() - ubcore_ops.import_jfr
 * @ub_dev: the local device
 * @cfg: the remote JFR; ubcore records it in the common part
 * @udata: the importing user's udata (out: struct udma_import_resp with
 *	the JFR's index for SQEs' target_idx), or NULL for the kernel
 *
 * Return: the imported JFR or an ERR_PTR (-ENOMEM, -ENOSPC when the
 * context's import table is full, -EFAULT).
 */
struct ubcore_tjetty *udma_import_jfr(struct ubcore_device *ub_dev,
				      struct ubcore_tjetty_cfg *cfg,
				      struct ubcore_udata *udata)
{
	return udma_import(ub_dev, cfg, udata, UDMA_IMPORT_JFR);
}

/**
 * udma_import_jetty() - ubcore_ops.import_jetty
 * @ub_dev: the local device
 * @cfg: the remote jetty; ubcore records it in the common part
 * @udata: the importing user's udata (out: struct udma_import_resp with
 *	the jetty's index for SQEs' target_idx), or NULL for the kernel
 *
 * Return: the imported jetty or an ERR_PTR (-ENOMEM, -ENOSPC when the
 * context's import table is full, -EFAULT).
 */
struct ubcore_tjetty *udma_import_jetty(struct ubcore_device *ub_dev,
					struct ubcore_tjetty_cfg *cfg,
					struct ubcore_udata *udata)
{
	return udma_import(ub_dev, cfg, udata, UDMA_IMPORT_JETTY);
}

/**
 * udma_unimport_jetty() - ubcore_ops.unimport_jfr and .unimport_jetty
 * @base: the imported JFR or jetty; its index is gone when this returns
 *	(a jetty bound to it keeps its own copy; ubcore refuses to unimport
 *	a bound one anyway)
 */
void udma_unimport_jetty(struct ubcore_tjetty *base)
{
	struct udma_tjetty *tjetty = to_udma_tjetty(base);

	udma_import_del(&tjetty->imp);
	atomic_dec(&tjetty->udev->nr_imported);
	kfree(tjetty);
}
