// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * JFSs, JFRs, jetties and jetty groups: create, modify, query. Their
 * delete commands are in uobj.c.
 */
#include <linux/build_bug.h>
#include <linux/err.h>
#include <linux/string.h>

#include "uburma.h"

static void uburma_jfs_cfg_from_user(const struct uburma_jfs_cfg *u,
				     struct ubcore_jfs_cfg *k)
{
	k->depth = u->depth;
	k->flag = u->flag;
	k->trans_mode = u->trans_mode;
	k->priority = u->priority;
	k->max_sge = u->max_sge;
	k->max_rsge = u->max_rsge;
	k->rnr_retry = u->rnr_retry;
	k->err_timeout = u->err_timeout;
	k->max_inline_data = u->max_inline_data;
}

static void uburma_jfs_cfg_to_user(const struct ubcore_jfs_cfg *k,
				   struct uburma_jfs_cfg *u)
{
	memset(u, 0, sizeof(*u));
	u->depth = k->depth;
	u->flag = k->flag;
	u->trans_mode = k->trans_mode;
	u->priority = k->priority;
	u->max_sge = k->max_sge;
	u->max_rsge = k->max_rsge;
	u->rnr_retry = k->rnr_retry;
	u->err_timeout = k->err_timeout;
	u->max_inline_data = k->max_inline_data;
}

static void uburma_jfr_cfg_from_user(const struct uburma_jfr_cfg *u,
				     struct ubcore_jfr_cfg *k)
{
	k->id = u->id;
	k->depth = u->depth;
	k->flag = u->flag;
	k->trans_mode = u->trans_mode;
	k->token_value = u->token_value;
	k->max_sge = u->max_sge;
	k->min_rnr_timer = u->min_rnr_timer;
}

/* The token value is never returned. */
static void uburma_jfr_cfg_to_user(const struct ubcore_jfr_cfg *k, u32 id,
				   struct uburma_jfr_cfg *u)
{
	memset(u, 0, sizeof(*u));
	u->id = id;
	u->depth = k->depth;
	u->flag = k->flag;
	u->trans_mode = k->trans_mode;
	u->max_sge = k->max_sge;
	u->min_rnr_timer = k->min_rnr_timer;
}

int uburma_cmd_create_jfs(struct uburma_file *ufile, void *args)
{
	struct uburma_cmd_create_jfs *cmd = args;
	struct ubcore_jfs_cfg cfg = {};
	struct ubcore_udata udata;
	struct uburma_uobj *uobj;
	struct ubcore_jfs *jfs;
	int ret;

	ret = uburma_get_udata(ufile, &cmd->in.udata, &udata);
	if (ret)
		return ret;
	uburma_jfs_cfg_from_user(&cmd->in.cfg, &cfg);
	cfg.jfc = uburma_handle_object(ufile, cmd->in.jfc_handle,
				       UBURMA_OBJ_JFC);
	if (IS_ERR(cfg.jfc))
		return PTR_ERR(cfg.jfc);
	uobj = uburma_uobj_alloc(ufile, UBURMA_OBJ_JFS, cmd->in.urma_jfs);
	if (!uobj)
		return -ENOMEM;
	cfg.user_ctx = (uintptr_t)uobj;
	jfs = ubcore_create_jfs(ufile->udev->ub_dev, &cfg,
				uburma_obj_event_handler, &udata);
	ret = uburma_uobj_commit(uobj, jfs);
	if (ret)
		return ret;
	uburma_jfs_cfg_to_user(&jfs->cfg, &cmd->out.cfg);
	cmd->out.id = jfs->id;
	cmd->out.handle = uobj->handle;
	return 0;
}

int uburma_cmd_modify_jfs(struct uburma_file *ufile, void *args)
{
	struct uburma_cmd_modify_jetty *cmd = args;
	struct ubcore_jfs_attr attr = {};
	struct ubcore_udata udata;
	struct ubcore_jfs *jfs;

	jfs = uburma_get_udata_object(ufile, &cmd->in.udata,
				      cmd->in.handle, UBURMA_OBJ_JFS, &udata);
	if (IS_ERR(jfs))
		return PTR_ERR(jfs);
	attr.mask = cmd->in.mask;
	attr.state = cmd->in.state;
	return ubcore_modify_jfs(jfs, &attr, &udata);
}

int uburma_cmd_query_jfs(struct uburma_file *ufile, void *args)
{
	struct uburma_cmd_query_jfs *cmd = args;
	struct ubcore_jfs_attr attr = {};
	struct ubcore_jfs_cfg cfg = {};
	struct ubcore_jfs *jfs;
	int ret;

	jfs = uburma_handle_object(ufile, cmd->in.handle, UBURMA_OBJ_JFS);
	if (IS_ERR(jfs))
		return PTR_ERR(jfs);
	ret = ubcore_query_jfs(jfs, &cfg, &attr);
	if (ret)
		return ret;
	uburma_jfs_cfg_to_user(&cfg, &cmd->out.cfg);
	cmd->out.state = attr.state;
	return 0;
}

int uburma_cmd_create_jfr(struct uburma_file *ufile, void *args)
{
	struct uburma_cmd_create_jfr *cmd = args;
	struct ubcore_jfr_cfg cfg = {};
	struct ubcore_udata udata;
	struct uburma_uobj *uobj;
	struct ubcore_jfr *jfr;
	int ret;

	ret = uburma_get_udata(ufile, &cmd->in.udata, &udata);
	if (ret)
		return ret;
	uburma_jfr_cfg_from_user(&cmd->in.cfg, &cfg);
	cfg.jfc = uburma_handle_object(ufile, cmd->in.jfc_handle,
				       UBURMA_OBJ_JFC);
	if (IS_ERR(cfg.jfc))
		return PTR_ERR(cfg.jfc);
	uobj = uburma_uobj_alloc(ufile, UBURMA_OBJ_JFR, cmd->in.urma_jfr);
	if (!uobj)
		return -ENOMEM;
	cfg.user_ctx = (uintptr_t)uobj;
	jfr = ubcore_create_jfr(ufile->udev->ub_dev, &cfg,
				uburma_obj_event_handler, &udata);
	ret = uburma_uobj_commit(uobj, jfr);
	if (ret)
		return ret;
	uburma_jfr_cfg_to_user(&jfr->cfg, jfr->id, &cmd->out.cfg);
	cmd->out.handle = uobj->handle;
	return 0;
}

int uburma_cmd_modify_jfr(struct uburma_file *ufile, void *args)
{
	struct uburma_cmd_modify_jfr *cmd = args;
	struct ubcore_jfr_attr attr = {};
	struct ubcore_udata udata;
	struct ubcore_jfr *jfr;

	jfr = uburma_get_udata_object(ufile, &cmd->in.udata,
				      cmd->in.handle, UBURMA_OBJ_JFR, &udata);
	if (IS_ERR(jfr))
		return PTR_ERR(jfr);
	attr.mask = cmd->in.mask;
	attr.rx_threshold = cmd->in.rx_threshold;
	attr.state = cmd->in.state;
	return ubcore_modify_jfr(jfr, &attr, &udata);
}

int uburma_cmd_query_jfr(struct uburma_file *ufile, void *args)
{
	struct uburma_cmd_query_jfr *cmd = args;
	struct ubcore_jfr_attr attr = {};
	struct ubcore_jfr_cfg cfg = {};
	struct ubcore_jfr *jfr;
	int ret;

	jfr = uburma_handle_object(ufile, cmd->in.handle, UBURMA_OBJ_JFR);
	if (IS_ERR(jfr))
		return PTR_ERR(jfr);
	ret = ubcore_query_jfr(jfr, &cfg, &attr);
	if (ret)
		return ret;
	uburma_jfr_cfg_to_user(&cfg, jfr->id, &cmd->out.cfg);
	cmd->out.rx_threshold = attr.rx_threshold;
	cmd->out.state = attr.state;
	return 0;
}

int uburma_cmd_create_jetty(struct uburma_file *ufile, void *args)
{
	struct uburma_cmd_create_jetty *cmd = args;
	struct ubcore_jetty_cfg cfg = {};
	struct ubcore_udata udata;
	struct ubcore_jetty *jetty;
	struct uburma_uobj *uobj;
	int ret;

	ret = uburma_get_udata(ufile, &cmd->in.udata, &udata);
	if (ret)
		return ret;
	cfg.id = cmd->in.id;
	cfg.flag = cmd->in.flag;
	uburma_jfs_cfg_from_user(&cmd->in.jfs_cfg, &cfg.jfs_cfg);
	cfg.jfs_cfg.jfc = uburma_handle_object(ufile, cmd->in.send_jfc_handle,
					       UBURMA_OBJ_JFC);
	if (IS_ERR(cfg.jfs_cfg.jfc))
		return PTR_ERR(cfg.jfs_cfg.jfc);
	/* Optional: 0 for none. */
	if (cmd->in.recv_jfc_handle) {
		cfg.recv_jfc = uburma_handle_object(ufile,
						    cmd->in.recv_jfc_handle,
						    UBURMA_OBJ_JFC);
		if (IS_ERR(cfg.recv_jfc))
			return PTR_ERR(cfg.recv_jfc);
	}
	cfg.jfr = uburma_handle_object(ufile, cmd->in.jfr_handle,
				       UBURMA_OBJ_JFR);
	if (IS_ERR(cfg.jfr))
		return PTR_ERR(cfg.jfr);
	/* Optional: 0 (or an older caller without in2) for none. */
	if (cmd->in2.jetty_grp_handle) {
		cfg.jetty_grp = uburma_handle_object(ufile,
						     cmd->in2.jetty_grp_handle,
						     UBURMA_OBJ_JETTY_GRP);
		if (IS_ERR(cfg.jetty_grp))
			return PTR_ERR(cfg.jetty_grp);
	}
	uobj = uburma_uobj_alloc(ufile, UBURMA_OBJ_JETTY, cmd->in.urma_jetty);
	if (!uobj)
		return -ENOMEM;
	cfg.user_ctx = (uintptr_t)uobj;
	cfg.jfs_cfg.user_ctx = cfg.user_ctx;
	jetty = ubcore_create_jetty(ufile->udev->ub_dev, &cfg,
				    uburma_obj_event_handler, &udata);
	ret = uburma_uobj_commit(uobj, jetty);
	if (ret)
		return ret;
	uburma_jfs_cfg_to_user(&jetty->cfg.jfs_cfg, &cmd->out.jfs_cfg);
	cmd->out.id = jetty->id;
	cmd->out.handle = uobj->handle;
	return 0;
}

int uburma_cmd_modify_jetty(struct uburma_file *ufile, void *args)
{
	struct uburma_cmd_modify_jetty *cmd = args;
	struct ubcore_jetty_attr attr = {};
	struct ubcore_udata udata;
	struct ubcore_jetty *jetty;

	jetty = uburma_get_udata_object(ufile, &cmd->in.udata,
					cmd->in.handle, UBURMA_OBJ_JETTY, &udata);
	if (IS_ERR(jetty))
		return PTR_ERR(jetty);
	attr.mask = cmd->in.mask;
	attr.rx_threshold = cmd->in.rx_threshold;
	attr.state = cmd->in.state;
	return ubcore_modify_jetty(jetty, &attr, &udata);
}

int uburma_cmd_query_jetty(struct uburma_file *ufile, void *args)
{
	struct uburma_cmd_query_jetty *cmd = args;
	struct ubcore_jetty_attr attr = {};
	struct ubcore_jetty_cfg cfg = {};
	struct ubcore_jetty *jetty;
	int ret;

	jetty = uburma_handle_object(ufile, cmd->in.handle, UBURMA_OBJ_JETTY);
	if (IS_ERR(jetty))
		return PTR_ERR(jetty);
	ret = ubcore_query_jetty(jetty, &cfg, &attr);
	if (ret)
		return ret;
	uburma_jfs_cfg_to_user(&cfg.jfs_cfg, &cmd->out.jfs_cfg);
	cmd->out.id = jetty->id;
	cmd->out.flag = cfg.flag;
	cmd->out.rx_threshold = attr.rx_threshold;
	cmd->out.state = attr.state;
	return 0;
}

int uburma_cmd_create_jetty_grp(struct uburma_file *ufile, void *args)
{
	struct uburma_cmd_create_jetty_grp *cmd = args;
	struct ubcore_jetty_grp_cfg cfg = {};
	struct ubcore_jetty_grp *grp;
	struct ubcore_udata udata;
	struct uburma_uobj *uobj;
	int ret;

	static_assert(sizeof(cfg.name) == sizeof(cmd->in.name));
	ret = uburma_get_udata(ufile, &cmd->in.udata, &udata);
	if (ret)
		return ret;
	memcpy(cfg.name, cmd->in.name, sizeof(cfg.name));
	cfg.id = cmd->in.id;
	cfg.flag = cmd->in.flag;
	cfg.token_value = cmd->in.token_value;
	cfg.policy = cmd->in.policy;
	uobj = uburma_uobj_alloc(ufile, UBURMA_OBJ_JETTY_GRP,
				 cmd->in.urma_jetty_grp);
	if (!uobj)
		return -ENOMEM;
	cfg.user_ctx = (uintptr_t)uobj;
	grp = ubcore_create_jetty_grp(ufile->udev->ub_dev, &cfg, &udata);
	ret = uburma_uobj_commit(uobj, grp);
	if (ret)
		return ret;
	cmd->out.id = grp->id;
	cmd->out.handle = uobj->handle;
	return 0;
}
