/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * What every ubcore object shares: the user context it belongs to, the
 * provider data a user passes through, and the lifetime rules that let the
 * data path look objects up by ID while they are being destroyed.
 */
#ifndef _UB_UBCORE_UOBJ_H
#define _UB_UBCORE_UOBJ_H

#include <linux/atomic.h>
#include <linux/completion.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/pid.h>
#include <linux/refcount.h>
#include <linux/types.h>
#include <linux/uidgid.h>

struct ubcore_device;

/* Kinds of objects, for live counts (sysfs "objects/", netlink). */
enum ubcore_obj_type {
	UBCORE_OBJ_UCONTEXT,
	UBCORE_OBJ_JFC,
	UBCORE_OBJ_JFS,
	UBCORE_OBJ_JFR,
	UBCORE_OBJ_JETTY,
	UBCORE_OBJ_TOKEN_ID,
	UBCORE_OBJ_SEG,
	UBCORE_OBJ_TARGET_SEG,
	UBCORE_OBJ_TJFR,
	UBCORE_OBJ_TJETTY,
	UBCORE_OBJ_JETTY_GRP,
	UBCORE_OBJ_TYPE_MAX,
};

/* UB address space IDs are 24 bits; 0 is "none" (kernel objects). */
#define UBCORE_MAX_UASID	((1U << 24) - 1)

/**
 * struct ubcore_ucontext - the objects of one user process on one device
 * @ub_dev: the device
 * @eid_index: the EID the context was created on
 * @uasid: the process's UB address space ID, 1 .. UBCORE_MAX_UASID; owned
 *	by the creating process while a context uses it (ucontext.c)
 * @pid: the process (thread group) that created the context, referenced;
 *	set by ubcore, for administrators (netlink RES_GET)
 * @uid: the effective user ID of that process then; set by ubcore. RES_GET
 *	shows the addresses, token IDs and owner of the context's objects
 *	to this user and to network administrators of the device's namespace
 *	only
 * @obj_cnt: live objects of the context per enum ubcore_obj_type, each at
 *	most the device's per-context limit (ubcore_device.ctx_limit); set
 *	and read by ubcore only
 * @share: the objects of the creating user on the device, counted against
 *	the device's per-user limits (ubcore_device.user_limit); NULL when
 *	the creator had CAP_SYS_RESOURCE. ubcore's only.
 * @held_lock: protects @held_tps and @held_cnt
 * @held_tps: the TPs urma_get_tp_list() opened for the context before any
 *	import (ubcore's tp_hold.c), given back when the context is freed
 * @held_cnt: entries of @held_tps
 *
 * Created by the provider's alloc_ucontext (it may embed this structure),
 * freed by its free_ucontext once every object of the context is gone.
 * Kernel objects have no context (NULL).
 */
struct ubcore_user_share;

struct ubcore_ucontext {
	struct ubcore_device *ub_dev;
	u32 eid_index;
	u32 uasid;
	struct pid *pid;
	kuid_t uid;
	atomic_t obj_cnt[UBCORE_OBJ_TYPE_MAX];
	struct ubcore_user_share *share;
	struct mutex held_lock;		/* see above */
	struct list_head held_tps;
	u32 held_cnt;
};

/**
 * struct ubcore_udata - provider-specific command data from userspace
 * @uctx: the caller's context
 * @in: provider input (for udma: a struct of include/uapi/ub/udma_abi.h)
 * @in_len: bytes at @in
 * @out: provider output
 * @out_len: bytes at @out
 * @out_done: where the provider records how many bytes of @out it wrote;
 *	only those reach the caller (a caller's buffer past them is left as
 *	it was, as the RDMA core's ib_copy_to_udata() leaves it)
 *
 * NULL for kernel callers. @in and @out are kernel memory: uburma copies
 * the caller's input in before it takes any lock and the output out after
 * it dropped them, so that a stalled user page never holds up the device
 * (its removal, other users). Providers read at most @in_len bytes and
 * write at most @out_len bytes (memcpy), and set *@out_done.
 */
struct ubcore_udata {
	struct ubcore_ucontext *uctx;
	const void *in;
	u32 in_len;
	u32 out_len;
	void *out;
	u32 *out_done;
};

/**
 * struct ubcore_obj_ref - lifetime of an object found by ID
 * @ref: one reference held by the table from creation until destroy starts,
 *	one more by each lookup in flight (data path, target side)
 * @done: completed when @ref drops to zero; destroy waits for it before
 *	the provider frees the object
 */
struct ubcore_obj_ref {
	refcount_t ref;
	struct completion done;
};

static inline void ubcore_obj_ref_init(struct ubcore_obj_ref *r)
{
	refcount_set(&r->ref, 1);
	init_completion(&r->done);
}

/* Take a reference on an object found under RCU; false if it is dying. */
static inline bool ubcore_obj_ref_get(struct ubcore_obj_ref *r)
{
	return refcount_inc_not_zero(&r->ref);
}

static inline void ubcore_obj_ref_put(struct ubcore_obj_ref *r)
{
	if (refcount_dec_and_test(&r->ref))
		complete(&r->done);
}

/* Drop the table's reference and wait until no lookup holds the object. */
static inline void ubcore_obj_ref_drain(struct ubcore_obj_ref *r)
{
	ubcore_obj_ref_put(r);
	wait_for_completion(&r->done);
}

#endif /* _UB_UBCORE_UOBJ_H */
