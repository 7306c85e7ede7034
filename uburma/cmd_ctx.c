// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * The user context of a file (CREATE_CTX, with its async event fd) and the
 * provider data every object command passes through.
 */
#include <linux/err.h>
#include <linux/fcntl.h>
#include <linux/file.h>
#include <linux/fs.h>

#include "uburma.h"

/**
 * uburma_get_udata() - provider data of a command, as ubcore takes it
 * @ufile: the file (its context, if any, goes into @udata); its mutex is
 *	held
 * @in: from the command
 * @udata: filled in: the kernel copy of @in's data, staged by the
 *	dispatcher before it took any lock (cmd.c), and room for the output,
 *	copied to the caller after the locks are dropped
 *
 * Return: 0 (the lengths were checked when the data was staged).
 */
int uburma_get_udata(struct uburma_file *ufile, const struct uburma_udata *in,
		     struct ubcore_udata *udata)
{
	struct uburma_udata_stage *stage;

	lockdep_assert_held(&ufile->mutex);
	/* Only commands with UBURMA_CMD_F_UDATA get here. */
	if (WARN_ON_ONCE(!ufile->call))
		return -EINVAL;
	stage = &ufile->call->udata;
	WARN_ON_ONCE(in->in_len != stage->in_len ||
		     in->out_len != stage->out_len);
	udata->uctx = ufile->ucontext;
	udata->in = stage->buf;
	udata->in_len = stage->in_len;
	udata->out = stage->buf ? (u8 *)stage->buf + stage->in_len : NULL;
	udata->out_len = stage->out_len;
	stage->out_done = 0;
	udata->out_done = &stage->out_done;
	return 0;
}

/**
 * uburma_get_udata_object() - provider data and object of a modify command
 * @ufile: the file
 * @in: the provider data of the command
 * @handle: the handle it names
 * @type: the kind it expects
 * @udata: filled in
 *
 * Return: the ubcore object, or the ERR_PTR of uburma_get_udata()'s error
 * or of -EINVAL for a bad handle, in that order.
 */
void *uburma_get_udata_object(struct uburma_file *ufile,
			      const struct uburma_udata *in, u64 handle,
			      enum uburma_obj_type type,
			      struct ubcore_udata *udata)
{
	int ret;

	ret = uburma_get_udata(ufile, in, udata);
	if (ret)
		return ERR_PTR(ret);
	return uburma_handle_object(ufile, handle, type);
}

/* With ufile->mutex held. */
int uburma_cmd_create_ctx(struct uburma_file *ufile, void *args)
{
	struct uburma_cmd_create_ctx *cmd = args;
	struct uburma_device *udev = ufile->udev;
	struct ubcore_ucontext *uctx;
	struct uburma_event_file *ev;
	struct ubcore_udata udata;
	unsigned long flags;
	struct file *filp;
	int fd, ret;

	if (ufile->ucontext) {
		dev_dbg_ratelimited(&udev->dev, "the file has a context already\n");
		return -EEXIST;
	}
	ret = uburma_get_udata(ufile, &cmd->in.udata, &udata);
	if (ret)
		return ret;

	fd = get_unused_fd_flags(O_CLOEXEC);
	if (fd < 0)
		return fd;
	filp = uburma_event_file_open(ufile, true, &ev);
	if (IS_ERR(filp)) {
		ret = PTR_ERR(filp);
		goto err_fd;
	}
	uctx = ubcore_alloc_ucontext(udev->ub_dev, cmd->in.eid_index,
				     cmd->in.uasid, &udata);
	if (IS_ERR(uctx)) {
		ret = PTR_ERR(uctx);
		goto err_file;
	}

	uburma_event_file_get(ev);
	WRITE_ONCE(ufile->async_file, ev);
	/* Pairs with the acquire in mmap, which does not take the mutex. */
	smp_store_release(&ufile->ucontext, uctx);
	spin_lock_irqsave(&udev->files_lock, flags);
	list_add_tail(&ufile->node, &udev->files);
	spin_unlock_irqrestore(&udev->files_lock, flags);

	/* Installed once the caller has the number (uburma_run_cmd()). */
	ufile->new_fd = fd;
	ufile->new_file = filp;
	cmd->out.async_fd = fd;
	cmd->out.uasid = uctx->uasid;
	return 0;

err_file:
	fput(filp);
err_fd:
	put_unused_fd(fd);
	return ret;
}
