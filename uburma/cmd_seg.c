// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * Token IDs and registered segments (ubcore pins the pages and charges
 * them to RLIMIT_MEMLOCK). Their destroy commands are in uobj.c.
 */
#include <linux/err.h>

#include "uburma.h"

int uburma_cmd_alloc_token_id(struct uburma_file *ufile, void *args)
{
	struct uburma_cmd_alloc_token_id *cmd = args;
	struct ubcore_token_id *token_id;
	struct ubcore_udata udata;
	struct uburma_uobj *uobj;
	int ret;

	ret = uburma_get_udata(ufile, &cmd->in.udata, &udata);
	if (ret)
		return ret;
	uobj = uburma_uobj_alloc(ufile, UBURMA_OBJ_TOKEN_ID, 0);
	if (!uobj)
		return -ENOMEM;
	token_id = ubcore_alloc_token_id(ufile->udev->ub_dev, cmd->in.flag,
					 &udata);
	ret = uburma_uobj_commit(uobj, token_id);
	if (ret)
		return ret;
	cmd->out.token_id = token_id->token_id;
	cmd->out.handle = uobj->handle;
	return 0;
}

int uburma_cmd_register_seg(struct uburma_file *ufile, void *args)
{
	struct uburma_cmd_register_seg *cmd = args;
	struct ubcore_target_seg *tseg;
	struct ubcore_seg_cfg cfg = {};
	struct ubcore_udata udata;
	struct uburma_uobj *uobj;
	int ret;

	ret = uburma_get_udata(ufile, &cmd->in.udata, &udata);
	if (ret)
		return ret;
	/* 0: none; ubcore says whether the flags allow that. */
	if (cmd->in.token_id_handle) {
		cfg.token_id = uburma_handle_object(ufile,
						    cmd->in.token_id_handle,
						    UBURMA_OBJ_TOKEN_ID);
		if (IS_ERR(cfg.token_id))
			return PTR_ERR(cfg.token_id);
	}
	uobj = uburma_uobj_alloc(ufile, UBURMA_OBJ_SEG, 0);
	if (!uobj)
		return -ENOMEM;
	cfg.va = cmd->in.va;
	cfg.len = cmd->in.len;
	cfg.token_value = cmd->in.token_value;
	cfg.flag = cmd->in.flag;
	cfg.iova = cmd->in.iova;
	tseg = ubcore_register_seg(ufile->udev->ub_dev, &cfg, &udata);
	ret = uburma_uobj_commit(uobj, tseg);
	if (ret)
		return ret;
	cmd->out.token_id = tseg->seg.token_id;
	cmd->out.handle = uobj->handle;
	return 0;
}
