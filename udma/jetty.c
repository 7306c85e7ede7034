// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * JFSs, JFRs and jetties of udma, and the remote JFRs and jetties a
 * process imports. A JFS and a jetty have an SQ ring of UDMA_SQE_SIZE
 * entries; a JFR has an RQ ring of UDMA_RQE_SIZE entries; a jetty
 * receives on the JFR it shares, so it has no RQ of its own.
 *
 * States are kept by ubcore in the common part (base.state), which ubcore
 * changes after checking the transition; the data path reads them there.
 */
#include <linux/err.h>
#include <linux/slab.h>

#include "udma.h"

/*
 * The SQ of a JFS or a jetty: cfg->depth is rounded up and cfg->
 * max_inline_data set to the maximum when 0; both are written back only on
 * success. The response is copied to @udata.
 */
static struct udma_ring *udma_sq_create(struct udma_dev *udev,
					struct ubcore_jfs_cfg *cfg,
					struct ubcore_udata *udata)
{
	const struct ubcore_device_cap *cap = &udev->ub_dev.cap;
	struct udma_create_jfs_resp resp = {};
	struct udma_ring *sq;
	u32 depth = cfg->depth;
	int ret;

	if (cfg->max_inline_data > cap->max_jfs_inline_size)
		return ERR_PTR(-EINVAL);
	sq = udma_ring_create(udev, udata, UDMA_SQE_SIZE, &depth,
			      cap->max_jfs_depth, &resp.sq);
	if (IS_ERR(sq))
		return sq;
	ret = udma_copy_resp(udata, &resp, sizeof(resp));
	if (ret) {
		udma_ring_destroy(sq);
		return ERR_PTR(ret);
	}
	cfg->depth = depth;
	if (!cfg->max_inline_data)
		cfg->max_inline_data = cap->max_jfs_inline_size;
	return sq;
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

	jfs = kzalloc(sizeof(*jfs), GFP_KERNEL);
	if (!jfs)
		return ERR_PTR(-ENOMEM);
	jfs->sq = udma_sq_create(to_udma_dev(ub_dev), cfg, udata);
	if (IS_ERR(jfs->sq)) {
		int ret = PTR_ERR(jfs->sq);

		kfree(jfs);
		return ERR_PTR(ret);
	}
	return &jfs->base;
}

/**
 * udma_modify_jfs() - ubcore_ops.modify_jfs
 * @base: the JFS
 * @attr: UBCORE_JFS_STATE; ubcore checked the transition and records it
 * @udata: unused
 *
 * Return: 0, or -EINVAL for an unknown mask bit.
 */
int udma_modify_jfs(struct ubcore_jfs *base, const struct ubcore_jfs_attr *attr,
		    struct ubcore_udata *udata)
{
	return attr->mask & ~UBCORE_JFS_STATE ? -EINVAL : 0;
}

/**
 * udma_destroy_jfs() - ubcore_ops.destroy_jfs
 * @base: the JFS; no lookup holds it
 */
void udma_destroy_jfs(struct ubcore_jfs *base)
{
	struct udma_jfs *jfs = to_udma_jfs(base);

	udma_ring_destroy(jfs->sq);
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

	jfr = kzalloc(sizeof(*jfr), GFP_KERNEL);
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

	if (!(cfg->flag & UBCORE_JETTY_SHARE_JFR) || !cfg->jfr)
		return ERR_PTR(-EINVAL);
	jetty = kzalloc(sizeof(*jetty), GFP_KERNEL);
	if (!jetty)
		return ERR_PTR(-ENOMEM);
	jetty->sq = udma_sq_create(to_udma_dev(ub_dev), &cfg->jfs_cfg, udata);
	if (IS_ERR(jetty->sq)) {
		int ret = PTR_ERR(jetty->sq);

		kfree(jetty);
		return ERR_PTR(ret);
	}
	return &jetty->base;
}

/**
 * udma_modify_jetty() - ubcore_ops.modify_jetty
 * @base: the jetty
 * @attr: UBCORE_JFR_RX_THRESHOLD and/or UBCORE_JFR_STATE; ubcore checked
 *	them and records them
 * @udata: unused
 *
 * Return: 0, or -EINVAL for an unknown mask bit.
 */
int udma_modify_jetty(struct ubcore_jetty *base,
		      const struct ubcore_jetty_attr *attr,
		      struct ubcore_udata *udata)
{
	if (attr->mask & ~(UBCORE_JFR_RX_THRESHOLD | UBCORE_JFR_STATE))
		return -EINVAL;
	return 0;
}

/**
 * udma_destroy_jetty() - ubcore_ops.destroy_jetty
 * @base: the jetty; no lookup holds it
 */
void udma_destroy_jetty(struct ubcore_jetty *base)
{
	struct udma_jetty *jetty = to_udma_jetty(base);

	udma_ring_destroy(jetty->sq);
	kfree(jetty);
}

/* Import records the target only; the transport to it comes later. */
static struct ubcore_tjetty *udma_import(struct ubcore_device *ub_dev)
{
	struct udma_tjetty *tjetty;

	tjetty = kzalloc(sizeof(*tjetty), GFP_KERNEL);
	if (!tjetty)
		return ERR_PTR(-ENOMEM);
	tjetty->udev = to_udma_dev(ub_dev);
	atomic_inc(&tjetty->udev->nr_imported);
	return &tjetty->base;
}

/**
 * udma_import_jfr() - ubcore_ops.import_jfr
 * @ub_dev: the local device
 * @cfg: the remote JFR; ubcore records it in the common part
 * @udata: unused
 *
 * Return: the imported JFR or ERR_PTR(-ENOMEM).
 */
struct ubcore_tjetty *udma_import_jfr(struct ubcore_device *ub_dev,
				      struct ubcore_tjetty_cfg *cfg,
				      struct ubcore_udata *udata)
{
	return udma_import(ub_dev);
}

/**
 * udma_import_jetty() - ubcore_ops.import_jetty
 * @ub_dev: the local device
 * @cfg: the remote jetty; ubcore records it in the common part
 * @udata: unused
 *
 * Return: the imported jetty or ERR_PTR(-ENOMEM).
 */
struct ubcore_tjetty *udma_import_jetty(struct ubcore_device *ub_dev,
					struct ubcore_tjetty_cfg *cfg,
					struct ubcore_udata *udata)
{
	return udma_import(ub_dev);
}

/**
 * udma_unimport_jetty() - ubcore_ops.unimport_jfr and .unimport_jetty
 * @base: the imported JFR or jetty
 */
void udma_unimport_jetty(struct ubcore_tjetty *base)
{
	struct udma_tjetty *tjetty = to_udma_tjetty(base);

	atomic_dec(&tjetty->udev->nr_imported);
	kfree(tjetty);
}
