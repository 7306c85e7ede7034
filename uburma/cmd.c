// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * Dispatch of UBURMA_CMD: the header names the command and the size of its
 * argument struct; the struct is copied in (copy_struct_from_user, so older
 * and newer callers both work), handled, and copied back.
 *
 * A command whose result cannot be copied back (-EFAULT) is undone: the
 * caller never learns the handle or fd it would name, so the object is
 * destroyed (uburma_cmd_undo()) and a new fd is never installed (a command
 * reserves it and leaves it in ufile->new_fd; the dispatch installs it
 * after the copy).
 *
 * Every command runs with udev->lock held for read (the UB device stays);
 * object commands also hold the file's mutex, so that the commands of one
 * file are serialised against each other and against the teardown of its
 * context, and need the context.
 *
 * No command touches user memory while it holds either lock: a user page
 * can stall a copy for ever (a FUSE mount, userfaultfd), and device removal
 * takes udev->lock for write and every file's mutex. The argument struct
 * and the provider data (struct uburma_udata, UBURMA_CMD_F_UDATA) are
 * copied in before the locks are taken and out after they are dropped
 * (struct uburma_udata_stage); GET_EID_LIST copies its list out after it
 * dropped udev->lock, and REGISTER_SEG pins its pages before it takes the
 * locks (cmd_seg.c).
 *
 * The data path commands RING_DOORBELL and REARM_JFC take neither the
 * mutex (object commands hold it for long operations) nor an allocation:
 * their argument structs live on the stack, like every one up to
 * UBURMA_CMD_STACK_ARGS bytes.
 */
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include <uapi/ub/uburma_ioctl.h>

#include "uburma.h"

/* Take ufile->mutex around the handler. */
#define UBURMA_CMD_F_LOCK	BIT(0)
/* Needs the file's context (EINVAL before CREATE_CTX); implies F_LOCK. */
#define UBURMA_CMD_F_CTX	BIT(1)
/* Has no output: the argument struct is not copied back. */
#define UBURMA_CMD_F_NO_OUT	BIT(2)
/* Carries provider data at udata_off (struct uburma_udata); needs F_LOCK. */
#define UBURMA_CMD_F_UDATA	BIT(3)
/* Takes udev->lock itself (it copies to user memory without it). */
#define UBURMA_CMD_F_UNLOCKED	BIT(4)

/* Argument structs up to this size are copied to the stack. */
#define UBURMA_CMD_STACK_ARGS	64

struct uburma_cmd_desc {
	int (*handler)(struct uburma_file *ufile, void *args);
	size_t size;		/* the current argument struct */
	size_t min_size;	/* its first version */
	unsigned int flags;	/* UBURMA_CMD_F_* */
	size_t udata_off;	/* of its struct uburma_udata (F_UDATA) */
	/* before the locks are taken (REGISTER_SEG pins its pages) */
	int (*prepare)(struct uburma_file *ufile, void *args,
		       struct uburma_call *call);
};

#define UBURMA_CMD_DESC_F(_cmd, _handler, _struct, _flags) \
	[_cmd] = { .handler = _handler, .size = sizeof(_struct), \
		   .min_size = sizeof(_struct), .flags = _flags }
#define UBURMA_CMD_DESC(_cmd, _handler, _struct) \
	UBURMA_CMD_DESC_F(_cmd, _handler, _struct, 0)
#define UBURMA_CMD_DESC_OBJ(_cmd, _handler, _struct) \
	UBURMA_CMD_DESC_F(_cmd, _handler, _struct, \
			  UBURMA_CMD_F_LOCK | UBURMA_CMD_F_CTX)
/* An object command with provider data (its in.udata). */
#define UBURMA_CMD_DESC_UD(_cmd, _handler, _struct) \
	[_cmd] = { .handler = _handler, .size = sizeof(_struct), \
		   .min_size = sizeof(_struct), \
		   .flags = UBURMA_CMD_F_LOCK | UBURMA_CMD_F_CTX | \
			    UBURMA_CMD_F_UDATA, \
		   .udata_off = offsetof(_struct, in.udata) }
/*
 * struct uburma_cmd_destroy has no output: nothing is copied back, so that
 * a destroy that happened is never reported as -EFAULT.
 */
#define UBURMA_CMD_DESC_DESTROY(_cmd, _handler) \
	UBURMA_CMD_DESC_F(_cmd, _handler, struct uburma_cmd_destroy, \
			  UBURMA_CMD_F_LOCK | UBURMA_CMD_F_CTX | \
			  UBURMA_CMD_F_NO_OUT)

static const struct uburma_cmd_desc uburma_cmds[] = {
	[UBURMA_CMD_QUERY_DEVICE] = {
		.handler = uburma_cmd_query_device,
		.size = sizeof(struct uburma_cmd_query_device),
		.min_size = offsetof(struct uburma_cmd_query_device,
				     out.max_jetty_grp),
	},
	UBURMA_CMD_DESC_F(UBURMA_CMD_GET_EID_LIST, uburma_cmd_get_eid_list,
			  struct uburma_cmd_get_eid_list, UBURMA_CMD_F_UNLOCKED),
	[UBURMA_CMD_CREATE_CTX] = {
		.handler = uburma_cmd_create_ctx,
		.size = sizeof(struct uburma_cmd_create_ctx),
		.min_size = sizeof(struct uburma_cmd_create_ctx),
		.flags = UBURMA_CMD_F_LOCK | UBURMA_CMD_F_UDATA,
		.udata_off = offsetof(struct uburma_cmd_create_ctx, in.udata),
	},
	UBURMA_CMD_DESC_UD(UBURMA_CMD_ALLOC_TOKEN_ID, uburma_cmd_alloc_token_id,
			   struct uburma_cmd_alloc_token_id),
	UBURMA_CMD_DESC_DESTROY(UBURMA_CMD_FREE_TOKEN_ID, uburma_cmd_free_token_id),
	[UBURMA_CMD_REGISTER_SEG] = {
		.handler = uburma_cmd_register_seg,
		.size = sizeof(struct uburma_cmd_register_seg),
		.min_size = sizeof(struct uburma_cmd_register_seg),
		.flags = UBURMA_CMD_F_LOCK | UBURMA_CMD_F_CTX |
			 UBURMA_CMD_F_UDATA,
		.udata_off = offsetof(struct uburma_cmd_register_seg, in.udata),
		.prepare = uburma_cmd_register_seg_prepare,
	},
	UBURMA_CMD_DESC_DESTROY(UBURMA_CMD_UNREGISTER_SEG, uburma_cmd_unregister_seg),
	UBURMA_CMD_DESC_UD(UBURMA_CMD_IMPORT_SEG, uburma_cmd_import_seg,
			   struct uburma_cmd_import_seg),
	UBURMA_CMD_DESC_DESTROY(UBURMA_CMD_UNIMPORT_SEG, uburma_cmd_unimport_seg),
	UBURMA_CMD_DESC_OBJ(UBURMA_CMD_CREATE_JFCE, uburma_cmd_create_jfce,
			    struct uburma_cmd_create_jfce),
	UBURMA_CMD_DESC_UD(UBURMA_CMD_CREATE_JFC, uburma_cmd_create_jfc,
			   struct uburma_cmd_create_jfc),
	UBURMA_CMD_DESC_UD(UBURMA_CMD_MODIFY_JFC, uburma_cmd_modify_jfc,
			   struct uburma_cmd_modify_jfc),
	UBURMA_CMD_DESC_OBJ(UBURMA_CMD_DELETE_JFC, uburma_cmd_delete_jfc,
			    struct uburma_cmd_delete),
	UBURMA_CMD_DESC_UD(UBURMA_CMD_CREATE_JFS, uburma_cmd_create_jfs,
			   struct uburma_cmd_create_jfs),
	UBURMA_CMD_DESC_UD(UBURMA_CMD_MODIFY_JFS, uburma_cmd_modify_jfs,
			   struct uburma_cmd_modify_jetty),
	UBURMA_CMD_DESC_OBJ(UBURMA_CMD_QUERY_JFS, uburma_cmd_query_jfs,
			    struct uburma_cmd_query_jfs),
	UBURMA_CMD_DESC_OBJ(UBURMA_CMD_DELETE_JFS, uburma_cmd_delete_jfs,
			    struct uburma_cmd_delete),
	UBURMA_CMD_DESC_UD(UBURMA_CMD_CREATE_JFR, uburma_cmd_create_jfr,
			   struct uburma_cmd_create_jfr),
	UBURMA_CMD_DESC_UD(UBURMA_CMD_MODIFY_JFR, uburma_cmd_modify_jfr,
			   struct uburma_cmd_modify_jfr),
	UBURMA_CMD_DESC_OBJ(UBURMA_CMD_QUERY_JFR, uburma_cmd_query_jfr,
			    struct uburma_cmd_query_jfr),
	UBURMA_CMD_DESC_OBJ(UBURMA_CMD_DELETE_JFR, uburma_cmd_delete_jfr,
			    struct uburma_cmd_delete),
	[UBURMA_CMD_CREATE_JETTY] = {
		.handler = uburma_cmd_create_jetty,
		.size = sizeof(struct uburma_cmd_create_jetty),
		.min_size = offsetof(struct uburma_cmd_create_jetty, in2),
		.flags = UBURMA_CMD_F_LOCK | UBURMA_CMD_F_CTX |
			 UBURMA_CMD_F_UDATA,
		.udata_off = offsetof(struct uburma_cmd_create_jetty, in.udata),
	},
	UBURMA_CMD_DESC_UD(UBURMA_CMD_MODIFY_JETTY, uburma_cmd_modify_jetty,
			   struct uburma_cmd_modify_jetty),
	UBURMA_CMD_DESC_OBJ(UBURMA_CMD_QUERY_JETTY, uburma_cmd_query_jetty,
			    struct uburma_cmd_query_jetty),
	UBURMA_CMD_DESC_OBJ(UBURMA_CMD_DELETE_JETTY, uburma_cmd_delete_jetty,
			    struct uburma_cmd_delete),
	UBURMA_CMD_DESC_UD(UBURMA_CMD_IMPORT_JFR, uburma_cmd_import_jfr,
			   struct uburma_cmd_import_jetty),
	UBURMA_CMD_DESC_DESTROY(UBURMA_CMD_UNIMPORT_JFR, uburma_cmd_unimport_jfr),
	UBURMA_CMD_DESC_UD(UBURMA_CMD_IMPORT_JETTY, uburma_cmd_import_jetty,
			   struct uburma_cmd_import_jetty),
	UBURMA_CMD_DESC_DESTROY(UBURMA_CMD_UNIMPORT_JETTY, uburma_cmd_unimport_jetty),
	/* The handle lookup of these two holds the object (uobj.c). */
	UBURMA_CMD_DESC_F(UBURMA_CMD_RING_DOORBELL, uburma_cmd_ring_doorbell,
			  struct uburma_cmd_ring_doorbell, UBURMA_CMD_F_NO_OUT),
	UBURMA_CMD_DESC_F(UBURMA_CMD_REARM_JFC, uburma_cmd_rearm_jfc,
			  struct uburma_cmd_rearm_jfc, UBURMA_CMD_F_NO_OUT),
	/* version 1: without the TP handles of urma_bind_jetty_ex() */
	[UBURMA_CMD_BIND_JETTY] = {
		.handler = uburma_cmd_bind_jetty,
		.size = sizeof(struct uburma_cmd_bind_jetty),
		.min_size = offsetofend(struct uburma_cmd_bind_jetty,
					in.tjetty_handle),
		.flags = UBURMA_CMD_F_LOCK | UBURMA_CMD_F_CTX | UBURMA_CMD_F_NO_OUT,
	},
	UBURMA_CMD_DESC_F(UBURMA_CMD_UNBIND_JETTY, uburma_cmd_unbind_jetty,
			  struct uburma_cmd_bind_jetty,
			  UBURMA_CMD_F_LOCK | UBURMA_CMD_F_CTX | UBURMA_CMD_F_NO_OUT),
	UBURMA_CMD_DESC_OBJ(UBURMA_CMD_FLUSH, uburma_cmd_flush,
			    struct uburma_cmd_flush),
	UBURMA_CMD_DESC_UD(UBURMA_CMD_CREATE_JETTY_GRP, uburma_cmd_create_jetty_grp,
			   struct uburma_cmd_create_jetty_grp),
	UBURMA_CMD_DESC_OBJ(UBURMA_CMD_DELETE_JETTY_GRP, uburma_cmd_delete_jetty_grp,
			    struct uburma_cmd_delete),
	UBURMA_CMD_DESC_F(UBURMA_CMD_GET_TP_LIST, uburma_cmd_get_tp_list,
			  struct uburma_cmd_get_tp_list, UBURMA_CMD_F_UNLOCKED),
	UBURMA_CMD_DESC_UD(UBURMA_CMD_IMPORT_JETTY_EX, uburma_cmd_import_jetty_ex,
			   struct uburma_cmd_import_jetty_ex),
	UBURMA_CMD_DESC_OBJ(UBURMA_CMD_GET_TP_ATTR, uburma_cmd_get_tp_attr,
			    struct uburma_cmd_get_tp_attr),
	UBURMA_CMD_DESC_F(UBURMA_CMD_SET_TP_ATTR, uburma_cmd_set_tp_attr,
			  struct uburma_cmd_set_tp_attr,
			  UBURMA_CMD_F_LOCK | UBURMA_CMD_F_CTX | UBURMA_CMD_F_NO_OUT),
	UBURMA_CMD_DESC_OBJ(UBURMA_CMD_GET_TPN, uburma_cmd_get_tpn,
			    struct uburma_cmd_get_tpn),
};

/* Sets *@new_fd and *@new_file to the fd the command reserved, if any. */
static int uburma_call_cmd(struct uburma_file *ufile,
			   const struct uburma_cmd_desc *desc, u32 command,
			   void *args, struct uburma_call *call,
			   int *new_fd, struct file **new_file)
{
	int ret;

	if (!(desc->flags & (UBURMA_CMD_F_LOCK | UBURMA_CMD_F_CTX)))
		return desc->handler(ufile, args);

	mutex_lock(&ufile->mutex);
	if ((desc->flags & UBURMA_CMD_F_CTX) && !ufile->ucontext) {
		dev_dbg_ratelimited(&ufile->udev->dev,
				    "command %u needs a context (CREATE_CTX first)\n",
				    command);
		ret = -EINVAL;
	} else {
		ufile->call = call;
		ret = desc->handler(ufile, args);
		ufile->call = NULL;
	}
	*new_fd = ufile->new_fd;
	*new_file = ufile->new_file;
	ufile->new_file = NULL;
	mutex_unlock(&ufile->mutex);
	return ret;
}

/*
 * Copy the provider data of a command in, before any lock is taken; its
 * output goes to the same buffer, after the input.
 */
static int uburma_udata_stage_in(struct uburma_file *ufile,
				 const struct uburma_udata *in,
				 struct uburma_udata_stage *stage)
{
	if (in->in_len > UBURMA_MAX_UDATA_LEN ||
	    in->out_len > UBURMA_MAX_UDATA_LEN) {
		dev_dbg_ratelimited(&ufile->udev->dev,
				    "provider data too long (in %u, out %u, max %u)\n",
				    in->in_len, in->out_len,
				    UBURMA_MAX_UDATA_LEN);
		return -EINVAL;
	}
	stage->in_len = in->in_len;
	stage->out_len = in->out_len;
	stage->uout = u64_to_user_ptr(in->out_addr);
	if (!in->in_len && !in->out_len)
		return 0;
	stage->buf = kzalloc(in->in_len + in->out_len, GFP_KERNEL_ACCOUNT);
	if (!stage->buf)
		return -ENOMEM;
	if (copy_from_user(stage->buf, u64_to_user_ptr(in->in_addr),
			   in->in_len))
		return -EFAULT;
	return 0;
}

/* After the locks are dropped: the provider's output, if it succeeded. */
static int uburma_udata_stage_out(const struct uburma_udata_stage *stage)
{
	if (!stage->out_done)
		return 0;
	if (copy_to_user(stage->uout, (u8 *)stage->buf + stage->in_len,
			 min(stage->out_done, stage->out_len)))
		return -EFAULT;
	return 0;
}

static long uburma_run_cmd(struct uburma_file *ufile,
			   const struct uburma_cmd_hdr *hdr)
{
	void __user *uargs = u64_to_user_ptr(hdr->args_addr);
	u64 stack_args[UBURMA_CMD_STACK_ARGS / sizeof(u64)];
	const struct uburma_cmd_desc *desc;
	struct uburma_device *udev = ufile->udev;
	struct uburma_call call = {};
	struct file *new_file = NULL;
	int new_fd = -1;
	void *args;
	long ret;

	if (hdr->command >= ARRAY_SIZE(uburma_cmds) ||
	    !uburma_cmds[hdr->command].handler)
		return -EOPNOTSUPP;
	desc = &uburma_cmds[hdr->command];
	if (hdr->args_len < desc->min_size || hdr->args_len > UBURMA_CMD_MAX_ARGS)
		return -EINVAL;

	/* copy_struct_from_user() writes all desc->size bytes. */
	if (desc->size <= sizeof(stack_args)) {
		args = stack_args;
	} else {
		args = kzalloc(desc->size, GFP_KERNEL);
		if (!args)
			return -ENOMEM;
	}
	ret = copy_struct_from_user(args, desc->size, uargs, hdr->args_len);
	if (ret)
		goto out;
	if (desc->flags & UBURMA_CMD_F_UDATA) {
		ret = uburma_udata_stage_in(ufile,
					    (void *)((u8 *)args + desc->udata_off),
					    &call.udata);
		if (ret)
			goto out;
	}
	if (desc->prepare) {
		ret = desc->prepare(ufile, args, &call);
		if (ret)
			goto out;
	}

	if (desc->flags & UBURMA_CMD_F_UNLOCKED) {
		ret = desc->handler(ufile, args);
	} else {
		down_read(&udev->lock);
		ret = udev->ub_dev ?
		      uburma_call_cmd(ufile, desc, hdr->command, args, &call,
				      &new_fd, &new_file) :
		      -EIO;
		up_read(&udev->lock);
	}

	if (!ret) {
		ret = uburma_udata_stage_out(&call.udata);
		if (!ret && !(desc->flags & UBURMA_CMD_F_NO_OUT) &&
		    copy_to_user(uargs, args,
				 min_t(size_t, hdr->args_len, desc->size)))
			ret = -EFAULT;
		if (ret)
			uburma_cmd_undo(ufile, hdr->command, args);
	}
	if (new_file && !ret) {
		fd_install(new_fd, new_file);
	} else if (new_file) {
		fput(new_file);
		put_unused_fd(new_fd);
	}
out:
	uburma_call_release(&call);
	if (args != stack_args)
		kfree(args);
	return ret;
}

long uburma_ioctl(struct file *filp, unsigned int cmd, unsigned long arg)
{
	struct uburma_cmd_hdr hdr;

	if (cmd != UBURMA_CMD)
		return -ENOTTY;
	if (copy_from_user(&hdr, (void __user *)arg, sizeof(hdr)))
		return -EFAULT;
	return uburma_run_cmd(filp->private_data, &hdr);
}
