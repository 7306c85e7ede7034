// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * The TP-aware commands (user guide 5.1.2.2; liburma's urma_get_tp_list(),
 * urma_import_jetty_ex(), urma_import_jfr_ex(), urma_bind_jetty_ex()): the
 * TP table of ubcore's connection manager, read and named by handle.
 */
#include <linux/stddef.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include <ub/ubcore_tp.h>

#include "uburma.h"

/* More than any EID pair has: one RM TP, one RC TP per bound jetty pair. */
#define UBURMA_TP_LIST_MAX	4096

/* UBURMA_CMD_F_UNLOCKED: no user page is touched under udev->lock. */
int uburma_cmd_get_tp_list(struct uburma_file *ufile, void *args)
{
	struct uburma_cmd_get_tp_list *cmd = args;
	struct ubcore_get_tp_cfg cfg = {
		.flag = cmd->in.flag,
		.trans_mode = cmd->in.trans_mode,
	};
	u32 cnt = min_t(u32, cmd->in.tp_cnt, UBURMA_TP_LIST_MAX);
	u64 *handles;
	int ret;

	if (!cnt)
		return -EINVAL;
	BUILD_BUG_ON(sizeof(cfg.local_eid.raw) != sizeof(cmd->in.local_eid));
	memcpy(cfg.local_eid.raw, cmd->in.local_eid, sizeof(cmd->in.local_eid));
	memcpy(cfg.peer_eid.raw, cmd->in.peer_eid, sizeof(cmd->in.peer_eid));
	handles = kcalloc(cnt, sizeof(*handles), GFP_KERNEL);
	if (!handles)
		return -ENOMEM;
	/* read under udev->lock, copied out after it (as the EID list) */
	down_read(&ufile->udev->lock);
	ret = ufile->udev->ub_dev ?
	      ubcore_get_tp_list(ufile->udev->ub_dev, &cfg, &cnt, handles) : -EIO;
	up_read(&ufile->udev->lock);
	if (!ret && copy_to_user(u64_to_user_ptr(cmd->in.tp_list_addr), handles,
				 array_size(cnt, sizeof(*handles))))
		ret = -EFAULT;
	if (!ret)
		cmd->out.tp_cnt = cnt;
	kfree(handles);
	return ret;
}

/*
 * UBURMA_CMD_IMPORT_JETTY_EX: UBURMA_CMD_IMPORT_JETTY's fields (the same
 * layout up to udata) and the TP named.
 */
int uburma_cmd_import_jetty_ex(struct uburma_file *ufile, void *args)
{
	struct uburma_cmd_import_jetty_ex *ex = args;
	struct ubcore_active_tp_cfg active = {
		.tp_handle = ex->in.tp_handle,
		.peer_tp_handle = ex->in.peer_tp_handle,
		.tag = ex->in.tag,
	};
	struct uburma_cmd_import_jetty cmd = {};
	int ret;

	BUILD_BUG_ON(offsetof(struct uburma_cmd_import_jetty_ex, in.udata) !=
		     offsetof(struct uburma_cmd_import_jetty, in.udata));
	BUILD_BUG_ON(sizeof(cmd.in) >
		     offsetof(struct uburma_cmd_import_jetty_ex, in.tp_handle));
	memcpy(&cmd.in, &ex->in, sizeof(cmd.in));
	ret = uburma_import_target(ufile, &cmd, ex->in.type == UBCORE_TARGET_JFR ?
				   UBURMA_OBJ_TJFR : UBURMA_OBJ_TJETTY, &active);
	if (ret)
		return ret;
	ex->out.tpn = cmd.out.tpn;
	ex->out.handle = cmd.out.handle;
	return 0;
}
