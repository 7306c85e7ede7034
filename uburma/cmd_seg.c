// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * Token IDs and registered segments (ubcore pins the pages and charges
 * them to RLIMIT_MEMLOCK). Their destroy commands are in uobj.c.
 *
 * REGISTER_SEG pins the pages before the dispatcher takes udev->lock and
 * the file's mutex (uburma_cmd_register_seg_prepare()): pinning faults
 * the pages in, which a page that never arrives (FUSE, userfaultfd) can
 * stall for ever, and device removal must not wait for that.
 */
#include <linux/err.h>
#include <linux/slab.h>

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

/**
 * uburma_call_release() - drop what a command staged and did not hand over
 * @call: the command's staged user memory
 */
void uburma_call_release(struct uburma_call *call)
{
	kfree(call->udata.buf);
	call->udata.buf = NULL;
	/* not adopted by a segment: no device counted it */
	if (call->umem)
		ubcore_umem_release(NULL, call->umem);
	call->umem = NULL;
}

/*
 * Before any lock: pin the range, unless the flags ask for no pinning or
 * name rights that ubcore refuses anyway (it says why, under the locks).
 */
int uburma_cmd_register_seg_prepare(struct uburma_file *ufile, void *args,
				    struct uburma_call *call)
{
	struct uburma_cmd_register_seg *cmd = args;
	struct ubcore_umem *umem;

	if ((cmd->in.flag & UBCORE_SEG_FLAG_NON_PIN) ||
	    ubcore_check_seg_access(UBCORE_SEG_FLAG_ACCESS(cmd->in.flag)))
		return 0;
	umem = ubcore_umem_get(NULL, cmd->in.va, cmd->in.len);
	if (IS_ERR(umem))
		return PTR_ERR(umem);
	call->umem = umem;
	return 0;
}

/* With the pages pinned by uburma_cmd_register_seg_prepare(). */
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
	/* for its async event (UBCORE_EVENT_SEG_INVALID) */
	cfg.user_ctx = (u64)(uintptr_t)uobj;
	cfg.umem = ufile->call->umem;
	tseg = ubcore_register_seg(ufile->udev->ub_dev, &cfg, &udata);
	ret = uburma_uobj_commit(uobj, tseg);
	if (ret)
		return ret;
	/* adopted by the segment */
	ufile->call->umem = NULL;
	cmd->out.token_id = tseg->seg.token_id;
	cmd->out.handle = uobj->handle;
	return 0;
}
