// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * The TP-aware commands (user guide 5.1.2.2; liburma's urma_get_tp_list(),
 * urma_import_jetty_ex(), urma_import_jfr_ex(), urma_bind_jetty_ex(),
 * urma_get_tp_attr(), urma_set_tp_attr(), urma_get_tpn()): the TP table
 * of ubcore's connection manager, read and named by handle.
 */
#include <linux/stddef.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include <ub/ubcore_jetty.h>
#include <ub/ubcore_tp.h>

#include "uburma.h"

/* More than any EID pair has: one RM TP, one RC TP per bound jetty pair. */
#define UBURMA_TP_LIST_MAX	4096

/*
 * No RM TP to the peer yet: the control plane makes one (ubcore_hold_tp())
 * for the file's context, and lists it. Caller holds udev->lock (read);
 * ufile->mutex keeps the context, in the order of every command.
 */
static int uburma_get_tp_list_hold(struct uburma_file *ufile,
				   const struct ubcore_get_tp_cfg *cfg, u32 room,
				   u32 *cnt, u64 *handles)
{
	int ret;

	mutex_lock(&ufile->mutex);
	ret = ufile->ucontext ? ubcore_hold_tp(ufile->ucontext, cfg) : -EINVAL;
	mutex_unlock(&ufile->mutex);
	if (ret)
		return ret;
	*cnt = room;
	return ubcore_get_tp_list(ufile->udev->ub_dev, cfg, cnt, handles);
}

/* UBURMA_CMD_F_UNLOCKED: no user page is touched under udev->lock. */
int uburma_cmd_get_tp_list(struct uburma_file *ufile, void *args)
{
	struct uburma_cmd_get_tp_list *cmd = args;
	struct ubcore_get_tp_cfg cfg = {
		.flag = cmd->in.flag,
		.trans_mode = cmd->in.trans_mode,
	};
	u32 room = min_t(u32, cmd->in.tp_cnt, UBURMA_TP_LIST_MAX), cnt = room;
	u64 *handles;
	int ret;

	if (!room)
		return -EINVAL;
	BUILD_BUG_ON(sizeof(cfg.local_eid.raw) != sizeof(cmd->in.local_eid));
	memcpy(cfg.local_eid.raw, cmd->in.local_eid, sizeof(cmd->in.local_eid));
	memcpy(cfg.peer_eid.raw, cmd->in.peer_eid, sizeof(cmd->in.peer_eid));
	handles = kcalloc(room, sizeof(*handles), GFP_KERNEL);
	if (!handles)
		return -ENOMEM;
	/* read under udev->lock, copied out after it (as the EID list) */
	down_read(&ufile->udev->lock);
	ret = ufile->udev->ub_dev ?
	      ubcore_get_tp_list(ufile->udev->ub_dev, &cfg, &cnt, handles) : -EIO;
	if (!ret && !cnt && cfg.trans_mode == UBCORE_TP_RM)
		ret = uburma_get_tp_list_hold(ufile, &cfg, room, &cnt, handles);
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

/* UBURMA_CMD_GET_TP_ATTR */
int uburma_cmd_get_tp_attr(struct uburma_file *ufile, void *args)
{
	struct uburma_cmd_get_tp_attr *cmd = args;
	struct ubcore_tp_attr attr;
	int ret;

	ret = ubcore_get_tp_attr(ufile->udev->ub_dev, ufile->ucontext,
				 cmd->in.tp_handle, &attr);
	if (ret)
		return ret;
	BUILD_BUG_ON(sizeof(attr.local.raw) != sizeof(cmd->out.sip));
	cmd->out.bitmap = UBURMA_TP_ATTR_SIP | UBURMA_TP_ATTR_DIP;
	memcpy(cmd->out.sip, attr.local.raw, sizeof(cmd->out.sip));
	memcpy(cmd->out.dip, attr.peer.raw, sizeof(cmd->out.dip));
	if (attr.xport.retry_cnt != UBCORE_TP_XPORT_UNSET) {
		cmd->out.bitmap |= UBURMA_TP_ATTR_RETRY_TIMES_INIT;
		cmd->out.retry_times_init = attr.xport.retry_cnt;
	}
	if (attr.xport.ack_timeout != UBCORE_TP_XPORT_UNSET) {
		cmd->out.bitmap |= UBURMA_TP_ATTR_AT;
		cmd->out.at = attr.xport.ack_timeout;
	}
	cmd->out.trans_mode = attr.trans_mode;
	/* only ESTABLISHED TPs have a handle */
	cmd->out.state = UBURMA_TP_STATE_ACTIVE;
	cmd->out.tpn = attr.tpn;
	cmd->out.peer_tpn = attr.peer_tpn;
	return 0;
}

/* UBURMA_CMD_SET_TP_ATTR */
int uburma_cmd_set_tp_attr(struct uburma_file *ufile, void *args)
{
	struct uburma_cmd_set_tp_attr *cmd = args;
	struct ubcore_tp_xport xport = {
		.retry_cnt = UBCORE_TP_XPORT_UNSET,
		.ack_timeout = UBCORE_TP_XPORT_UNSET,
	};

	BUILD_BUG_ON(UBURMA_TP_RETRY_TIMES_MAX != UBCORE_TP_RETRY_CNT_MAX);
	BUILD_BUG_ON(UBURMA_TP_AT_MAX != UBCORE_TP_ACK_TIMEOUT_MAX);
	if (!cmd->in.bitmap || (cmd->in.bitmap & ~UBURMA_TP_ATTR_SETTABLE)) {
		dev_dbg_ratelimited(&ufile->udev->ub_dev->dev,
				    "set_tp_attr: bits 0x%x cannot be set\n",
				    cmd->in.bitmap & ~UBURMA_TP_ATTR_SETTABLE);
		return -EINVAL;
	}
	if (cmd->in.bitmap & UBURMA_TP_ATTR_RETRY_TIMES_INIT) {
		if (cmd->in.retry_times_init > UBURMA_TP_RETRY_TIMES_MAX)
			return -EINVAL;
		xport.retry_cnt = cmd->in.retry_times_init;
	}
	if (cmd->in.bitmap & UBURMA_TP_ATTR_AT) {
		if (cmd->in.at > UBURMA_TP_AT_MAX)
			return -EINVAL;
		xport.ack_timeout = cmd->in.at;
	}
	return ubcore_set_tp_attr(ufile->udev->ub_dev, ufile->ucontext,
				  cmd->in.tp_handle, &xport);
}

/* UBURMA_CMD_GET_TPN */
int uburma_cmd_get_tpn(struct uburma_file *ufile, void *args)
{
	struct uburma_cmd_get_tpn *cmd = args;
	struct ubcore_jetty *jetty;

	jetty = uburma_handle_object(ufile, cmd->in.handle, UBURMA_OBJ_JETTY);
	if (IS_ERR(jetty))
		return PTR_ERR(jetty);
	return ubcore_get_jetty_tpn(jetty, &cmd->out.tpn);
}
