// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * Imports of remote segments, JFRs and jetties (the initiator's records of
 * its targets). The unimport commands are in uobj.c.
 */
#include <linux/err.h>
#include <linux/string.h>

#include <ub/ubcore_tp.h>

#include "uburma.h"

int uburma_cmd_import_seg(struct uburma_file *ufile, void *args)
{
	struct uburma_cmd_import_seg *cmd = args;
	struct ubcore_target_seg_cfg cfg = {};
	struct ubcore_target_seg *tseg;
	struct ubcore_udata udata;
	struct uburma_uobj *uobj;
	int ret;

	ret = uburma_get_udata(ufile, &cmd->in.udata, &udata);
	if (ret)
		return ret;
	BUILD_BUG_ON(sizeof(cfg.seg.ubva.eid.raw) != sizeof(cmd->in.eid));
	memcpy(cfg.seg.ubva.eid.raw, cmd->in.eid, sizeof(cmd->in.eid));
	cfg.seg.ubva.uasid = cmd->in.uasid;
	cfg.seg.ubva.va = cmd->in.va;
	cfg.seg.len = cmd->in.len;
	cfg.seg.attr = cmd->in.attr;
	cfg.seg.token_id = cmd->in.token_id;
	cfg.token_value = cmd->in.token_value;
	cfg.flag = cmd->in.flag;
	cfg.mva = cmd->in.mva;

	uobj = uburma_uobj_alloc(ufile, UBURMA_OBJ_TARGET_SEG, 0);
	if (!uobj)
		return -ENOMEM;
	tseg = ubcore_import_seg(ufile->udev->ub_dev, &cfg, &udata);
	ret = uburma_uobj_commit(uobj, tseg);
	if (ret)
		return ret;
	cmd->out.handle = uobj->handle;
	return 0;
}

/*
 * An import of a JFR (@type UBURMA_OBJ_TJFR) or jetty; with @active, on
 * that TP (UBURMA_CMD_IMPORT_JETTY_EX, cmd_tp.c).
 */
int uburma_import_target(struct uburma_file *ufile,
			 struct uburma_cmd_import_jetty *cmd,
			 enum uburma_obj_type type,
			 const struct ubcore_active_tp_cfg *active)
{
	struct ubcore_tjetty_cfg cfg = {};
	struct ubcore_tjetty *tjetty;
	struct ubcore_udata udata;
	u32 tpn = 0, peer_tpn;
	struct uburma_uobj *uobj;
	int ret;

	ret = uburma_get_udata(ufile, &cmd->in.udata, &udata);
	if (ret)
		return ret;
	BUILD_BUG_ON(sizeof(cfg.id.eid.raw) != sizeof(cmd->in.eid));
	memcpy(cfg.id.eid.raw, cmd->in.eid, sizeof(cmd->in.eid));
	cfg.id.uasid = cmd->in.uasid;
	cfg.id.id = cmd->in.id;
	cfg.trans_mode = cmd->in.trans_mode;
	cfg.type = type == UBURMA_OBJ_TJFR ? UBCORE_TARGET_JFR : cmd->in.type;
	cfg.flag = cmd->in.flag;
	cfg.policy = cmd->in.policy;
	cfg.tp_type = cmd->in.tp_type;
	cfg.token_value = cmd->in.token_value;

	uobj = uburma_uobj_alloc(ufile, type, 0);
	if (!uobj)
		return -ENOMEM;
	/* for its async event (UBCORE_EVENT_TP_ERR) */
	cfg.user_ctx = (u64)(uintptr_t)uobj;
	if (active)
		tjetty = ubcore_import_jetty_ex(ufile->udev->ub_dev, &cfg, active,
						&udata);
	else if (type == UBURMA_OBJ_TJFR)
		tjetty = ubcore_import_jfr(ufile->udev->ub_dev, &cfg, &udata);
	else
		tjetty = ubcore_import_jetty(ufile->udev->ub_dev, &cfg, &udata);
	/* RM: the TP the import opened; RC (TP at bind) and UM: none */
	if (!IS_ERR_OR_NULL(tjetty))
		ubcore_tp_resolve(tjetty->ub_dev, tjetty, &tpn, &peer_tpn);
	ret = uburma_uobj_commit(uobj, tjetty);
	if (ret)
		return ret;
	cmd->out.tpn = tpn;
	cmd->out.handle = uobj->handle;
	return 0;
}

int uburma_cmd_import_jfr(struct uburma_file *ufile, void *args)
{
	return uburma_import_target(ufile, args, UBURMA_OBJ_TJFR, NULL);
}

int uburma_cmd_import_jetty(struct uburma_file *ufile, void *args)
{
	return uburma_import_target(ufile, args, UBURMA_OBJ_TJETTY, NULL);
}
