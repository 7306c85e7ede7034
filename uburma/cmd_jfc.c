// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * Completion: JFCE channels (event fds) and JFCs. DELETE_JFC is in uobj.c.
 */
#include <linux/err.h>
#include <linux/fcntl.h>
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/slab.h>

#include "uburma.h"

int uburma_cmd_create_jfce(struct uburma_file *ufile, void *args)
{
	struct uburma_cmd_create_jfce *cmd = args;
	struct uburma_event_file *ev;
	struct file *filp;
	int fd;

	fd = get_unused_fd_flags(O_CLOEXEC);
	if (fd < 0)
		return fd;
	filp = uburma_event_file_open(ufile, false, &ev);
	if (IS_ERR(filp)) {
		put_unused_fd(fd);
		return PTR_ERR(filp);
	}
	/* Installed once the caller has the number (uburma_run_cmd()). */
	ufile->new_fd = fd;
	ufile->new_file = filp;
	cmd->out.fd = fd;
	return 0;
}

int uburma_cmd_create_jfc(struct uburma_file *ufile, void *args)
{
	struct uburma_cmd_create_jfc *cmd = args;
	struct ubcore_jfc_cfg cfg = {};
	struct ubcore_udata udata;
	struct uburma_uobj *uobj;
	struct ubcore_jfc *jfc;
	int ret;

	ret = uburma_get_udata(ufile, &cmd->in.udata, &udata);
	if (ret)
		return ret;
	uobj = uburma_uobj_alloc(ufile, UBURMA_OBJ_JFC, cmd->in.urma_jfc);
	if (!uobj)
		return -ENOMEM;
	if (cmd->in.jfce_fd >= 0) {
		uobj->jfce = uburma_jfce_get(ufile, cmd->in.jfce_fd);
		if (!uobj->jfce) {
			kfree(uobj);
			return -EINVAL;
		}
		cfg.jfce_handler = uburma_jfce_handler;
	}
	cfg.depth = cmd->in.depth;
	cfg.flag = cmd->in.flag;
	cfg.ceqn = cmd->in.ceqn;
	/* For the callbacks; never leaves the kernel. */
	cfg.user_ctx = (uintptr_t)uobj;

	jfc = ubcore_create_jfc(ufile->udev->ub_dev, &cfg,
				uburma_obj_event_handler, &udata);
	ret = uburma_uobj_commit(uobj, jfc);
	if (ret)
		return ret;
	cmd->out.id = jfc->id;
	cmd->out.depth = jfc->cfg.depth;
	cmd->out.handle = uobj->handle;
	return 0;
}

int uburma_cmd_modify_jfc(struct uburma_file *ufile, void *args)
{
	struct uburma_cmd_modify_jfc *cmd = args;
	struct ubcore_jfc_attr attr = {};
	struct ubcore_udata udata;
	struct ubcore_jfc *jfc;

	jfc = uburma_get_udata_object(ufile, &cmd->in.udata, cmd->in.handle,
				      UBURMA_OBJ_JFC, &udata);
	if (IS_ERR(jfc))
		return PTR_ERR(jfc);
	attr.mask = cmd->in.mask;
	attr.moderate_count = cmd->in.moderate_count;
	attr.moderate_period = cmd->in.moderate_period;
	return ubcore_modify_jfc(jfc, &attr, &udata);
}
