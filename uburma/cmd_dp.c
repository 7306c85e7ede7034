// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * The data path commands. RING_DOORBELL (one call per batch of posted
 * entries) and REARM_JFC run without ufile->mutex: they find their object
 * with uburma_uobj_get(), which holds it against a concurrent delete of
 * the same handle by another thread (see uobj.c). BIND_JETTY,
 * UNBIND_JETTY and FLUSH are object commands (ufile->mutex held), which
 * serialises them with the state changes and the delete of the jetty.
 */
#include <ub/ubcore_tp.h>

#include "uburma.h"

int uburma_cmd_ring_doorbell(struct uburma_file *ufile, void *args)
{
	struct uburma_cmd_ring_doorbell *cmd = args;
	struct uburma_uobj *uobj;
	int ret;

	uobj = uburma_uobj_get(ufile, cmd->in.handle,
			       BIT(UBURMA_OBJ_JFS) | BIT(UBURMA_OBJ_JFR) |
			       BIT(UBURMA_OBJ_JETTY));
	if (!uobj)
		return -EINVAL;
	switch (uobj->type) {
	case UBURMA_OBJ_JFS:
		ret = ubcore_jfs_doorbell(uobj->object);
		break;
	case UBURMA_OBJ_JFR:
		ret = ubcore_jfr_doorbell(uobj->object);
		break;
	default:
		ret = ubcore_jetty_doorbell(uobj->object);
		break;
	}
	uburma_uobj_put(uobj);
	return ret;
}

int uburma_cmd_rearm_jfc(struct uburma_file *ufile, void *args)
{
	struct uburma_cmd_rearm_jfc *cmd = args;
	struct uburma_uobj *uobj;
	int ret;

	uobj = uburma_uobj_get(ufile, cmd->in.handle, BIT(UBURMA_OBJ_JFC));
	if (!uobj)
		return -EINVAL;
	ret = ubcore_rearm_jfc(uobj->object, !!cmd->in.solicited_only);
	uburma_uobj_put(uobj);
	return ret;
}

int uburma_cmd_bind_jetty(struct uburma_file *ufile, void *args)
{
	struct uburma_cmd_bind_jetty *cmd = args;
	struct ubcore_active_tp_cfg active = {
		.tp_handle = cmd->in.tp_handle,
		.peer_tp_handle = cmd->in.peer_tp_handle,
	};
	struct uburma_uobj *jetty, *tjetty;

	jetty = uburma_uobj_lookup(ufile, cmd->in.jetty_handle, UBURMA_OBJ_JETTY);
	tjetty = uburma_uobj_lookup(ufile, cmd->in.tjetty_handle,
				    UBURMA_OBJ_TJETTY);
	if (!jetty || !tjetty)
		return -EINVAL;
	/* TPNs are never 0: no handle is urma_bind_jetty() */
	return ubcore_bind_jetty_ex(jetty->object, tjetty->object,
				    active.tp_handle ? &active : NULL);
}

int uburma_cmd_unbind_jetty(struct uburma_file *ufile, void *args)
{
	struct uburma_cmd_bind_jetty *cmd = args;
	struct uburma_uobj *jetty;

	jetty = uburma_uobj_lookup(ufile, cmd->in.jetty_handle, UBURMA_OBJ_JETTY);
	if (!jetty)
		return -EINVAL;
	return ubcore_unbind_jetty(jetty->object);
}

int uburma_cmd_flush(struct uburma_file *ufile, void *args)
{
	struct uburma_cmd_flush *cmd = args;
	struct uburma_uobj *uobj;
	u32 first = 0, cnt = 0;
	int ret;

	uobj = uburma_uobj_lookup_types(ufile, cmd->in.handle,
					BIT(UBURMA_OBJ_JFS) |
					BIT(UBURMA_OBJ_JETTY));
	if (!uobj)
		return -EINVAL;
	if (uobj->type == UBURMA_OBJ_JFS)
		ret = ubcore_flush_jfs(uobj->object, cmd->in.max_cnt, &first,
				       &cnt);
	else
		ret = ubcore_flush_jetty(uobj->object, cmd->in.max_cnt, &first,
					 &cnt);
	if (ret)
		return ret;
	cmd->out.first_index = first;
	cmd->out.cnt = cnt;
	return 0;
}
