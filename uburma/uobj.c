// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * The per-file handle table: handle -> struct uburma_uobj, the lookups that
 * check a handle's kind, the destruction of one object, and the teardown of
 * a whole context in dependency order (on close, process death or device
 * removal). Every function here runs with ufile->mutex held, but
 * uburma_uobj_get() and uburma_uobj_put().
 *
 * The data path commands find their object without ufile->mutex (which
 * object commands hold for long operations): uburma_uobj_get() takes a
 * reference on the ubcore object's obj_ref under the handles' xarray
 * lock, and only on an object whose uobj is not @dying. Destroy marks the
 * uobj @dying under the same lock before it deletes the object, and ubcore's
 * delete waits (ubcore_obj_ref_drain()) until every such reference is
 * put, so the object, and the uobj (freed after the object), stay valid
 * until uburma_uobj_put(). A destroy that fails (-EBUSY) clears @dying.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/err.h>
#include <linux/slab.h>
#include <linux/xarray.h>

#include <uapi/ub/uburma_ioctl.h>

#include "uburma.h"

static const char * const uburma_obj_names[UBURMA_OBJ_MAX] = {
	[UBURMA_OBJ_TOKEN_ID] = "token ID",
	[UBURMA_OBJ_SEG] = "segment",
	[UBURMA_OBJ_TARGET_SEG] = "imported segment",
	[UBURMA_OBJ_JFC] = "JFC",
	[UBURMA_OBJ_JFS] = "JFS",
	[UBURMA_OBJ_JFR] = "JFR",
	[UBURMA_OBJ_JETTY] = "jetty",
	[UBURMA_OBJ_TJFR] = "imported JFR",
	[UBURMA_OBJ_TJETTY] = "imported jetty",
	[UBURMA_OBJ_JETTY_GRP] = "jetty group",
};

/*
 * Users before what they use: a jetty before the imported jetty it is
 * bound to (deleting the jetty unbinds it) and before its jetty group.
 */
static const enum uburma_obj_type uburma_teardown_order[] = {
	UBURMA_OBJ_JETTY,
	UBURMA_OBJ_JETTY_GRP,
	UBURMA_OBJ_JFS,
	UBURMA_OBJ_TJETTY,
	UBURMA_OBJ_TJFR,
	UBURMA_OBJ_TARGET_SEG,
	UBURMA_OBJ_JFR,
	UBURMA_OBJ_JFC,
	UBURMA_OBJ_SEG,
	UBURMA_OBJ_TOKEN_ID,
};

/**
 * uburma_uobj_alloc() - a new handle object, not yet in the table
 * @ufile: the file
 * @type: what it will hold
 * @urma_value: the caller's value for events
 *
 * Hand it to uburma_uobj_commit() with what creating the ubcore object
 * returned, the object or its ERR_PTR.
 */
struct uburma_uobj *uburma_uobj_alloc(struct uburma_file *ufile,
				      enum uburma_obj_type type, u64 urma_value)
{
	struct uburma_uobj *uobj;

	uobj = kzalloc(sizeof(*uobj), GFP_KERNEL_ACCOUNT);
	if (!uobj)
		return NULL;
	uobj->ufile = ufile;
	uobj->type = type;
	uobj->urma_value = urma_value;
	return uobj;
}

/**
 * uburma_uobj_commit() - give a created object its handle
 * @uobj: from uburma_uobj_alloc()
 * @object: the ubcore object just created, or the ERR_PTR its creation
 *	returned
 *
 * If @object is an ERR_PTR, @uobj is freed (with the JFCE reference the
 * caller may have put in it) and the errno returned. If the handle cannot
 * be allocated, the object is destroyed and @uobj freed.
 * Return: 0 or a negative errno.
 */
int uburma_uobj_commit(struct uburma_uobj *uobj, void *object)
{
	struct uburma_file *ufile = uobj->ufile;
	int ret;

	lockdep_assert_held(&ufile->mutex);
	if (IS_ERR(object)) {
		uburma_event_file_put(uobj->jfce);
		kfree(uobj);
		return PTR_ERR(object);
	}
	uobj->object = object;
	ret = xa_alloc(&ufile->handles, &uobj->handle, uobj, xa_limit_32b,
		       GFP_KERNEL_ACCOUNT);
	if (ret) {
		uobj->handle = 0;
		if (uburma_uobj_destroy(uobj, NULL, NULL))
			dev_err(&ufile->udev->dev, "cannot undo a %s creation\n",
				uburma_obj_names[uobj->type]);
		return ret;
	}
	return 0;
}

/* The uobj of @handle if its type is one of @types (BIT(type)), or NULL. */
static struct uburma_uobj *uburma_uobj_find(struct uburma_file *ufile,
					    u64 handle, unsigned int types)
{
	struct uburma_uobj *uobj = NULL;

	if (handle && handle <= U32_MAX)
		uobj = xa_load(&ufile->handles, handle);
	if (!uobj) {
		dev_dbg_ratelimited(&ufile->udev->dev,
				    "unknown handle %llu (types 0x%x)\n", handle,
				    types);
		return NULL;
	}
	if (!(BIT(uobj->type) & types)) {
		dev_dbg_ratelimited(&ufile->udev->dev,
				    "handle %llu is a %s, not of types 0x%x\n",
				    handle, uburma_obj_names[uobj->type], types);
		return NULL;
	}
	return uobj;
}

/**
 * uburma_uobj_lookup() - the object of a handle
 * @ufile: the file
 * @handle: from a command
 * @type: the kind the command expects
 *
 * Return: the object, or NULL if @handle is 0, unknown or of another kind.
 */
struct uburma_uobj *uburma_uobj_lookup(struct uburma_file *ufile, u64 handle,
				       enum uburma_obj_type type)
{
	return uburma_uobj_lookup_types(ufile, handle, BIT(type));
}

/**
 * uburma_uobj_lookup_types() - the object of a handle of one of some kinds
 * @ufile: the file
 * @handle: from a command
 * @types: the kinds the command takes, BIT(UBURMA_OBJ_*) ORed
 *
 * Return: the object, or NULL if @handle is 0, unknown or of another kind.
 */
struct uburma_uobj *uburma_uobj_lookup_types(struct uburma_file *ufile,
					     u64 handle, unsigned int types)
{
	lockdep_assert_held(&ufile->mutex);
	return uburma_uobj_find(ufile, handle, types);
}

/**
 * uburma_handle_object() - the ubcore object of a handle a command names
 * @ufile: the file
 * @handle: from a command
 * @type: the kind the command expects
 *
 * Return: the object, or ERR_PTR(-EINVAL) if @handle is 0, unknown or of
 * another kind.
 */
void *uburma_handle_object(struct uburma_file *ufile, u64 handle,
			   enum uburma_obj_type type)
{
	struct uburma_uobj *uobj;

	uobj = uburma_uobj_lookup(ufile, handle, type);
	if (!uobj)
		return ERR_PTR(-EINVAL);
	return uobj->object;
}

/* The obj_ref of the ubcore object, for the kinds the data path uses. */
static struct ubcore_obj_ref *uburma_uobj_obj_ref(struct uburma_uobj *uobj)
{
	switch (uobj->type) {
	case UBURMA_OBJ_JFC:
		return &((struct ubcore_jfc *)uobj->object)->obj_ref;
	case UBURMA_OBJ_JFS:
		return &((struct ubcore_jfs *)uobj->object)->obj_ref;
	case UBURMA_OBJ_JFR:
		return &((struct ubcore_jfr *)uobj->object)->obj_ref;
	case UBURMA_OBJ_JETTY:
		return &((struct ubcore_jetty *)uobj->object)->obj_ref;
	default:
		return NULL;
	}
}

/**
 * uburma_uobj_get() - the object of a handle, without ufile->mutex
 * @ufile: the file
 * @handle: from a data path command
 * @types: the kinds the command takes, BIT(UBURMA_OBJ_*) of JFC, JFS, JFR
 *	or jetty
 *
 * Takes a reference on the ubcore object (its obj_ref) under the handles'
 * xarray lock; a concurrent destroy of the handle waits for it. The
 * caller holds udev->lock for read (the device, and so the context, stay).
 *
 * Context: process context.
 * Return: the uobj, valid with its object until uburma_uobj_put(), or
 * NULL if @handle is 0, unknown, of another kind or being destroyed.
 */
struct uburma_uobj *uburma_uobj_get(struct uburma_file *ufile, u64 handle,
				    unsigned int types)
{
	struct ubcore_obj_ref *ref;
	struct uburma_uobj *uobj;

	xa_lock(&ufile->handles);
	uobj = uburma_uobj_find(ufile, handle, types);
	if (uobj) {
		ref = uburma_uobj_obj_ref(uobj);
		if (uobj->dying || !ref || !ubcore_obj_ref_get(ref))
			uobj = NULL;
	}
	xa_unlock(&ufile->handles);
	return uobj;
}

/**
 * uburma_uobj_put() - drop the reference of uburma_uobj_get()
 * @uobj: from uburma_uobj_get(); may be freed as soon as this returns
 */
void uburma_uobj_put(struct uburma_uobj *uobj)
{
	ubcore_obj_ref_put(uburma_uobj_obj_ref(uobj));
}

/* Keep uburma_uobj_get() off (@dying) or let it in again. */
static void uburma_uobj_set_dying(struct uburma_uobj *uobj, bool dying)
{
	struct xarray *handles = &uobj->ufile->handles;

	xa_lock(handles);
	uobj->dying = dying;
	xa_unlock(handles);
}

static int uburma_uobj_destroy_object(struct uburma_uobj *uobj)
{
	switch (uobj->type) {
	case UBURMA_OBJ_TOKEN_ID:
		return ubcore_free_token_id(uobj->object);
	case UBURMA_OBJ_SEG:
		return ubcore_unregister_seg(uobj->object);
	case UBURMA_OBJ_TARGET_SEG:
		return ubcore_unimport_seg(uobj->object);
	case UBURMA_OBJ_JFC:
		return ubcore_delete_jfc(uobj->object);
	case UBURMA_OBJ_JFS:
		return ubcore_delete_jfs(uobj->object);
	case UBURMA_OBJ_JFR:
		return ubcore_delete_jfr(uobj->object);
	case UBURMA_OBJ_JETTY:
		return ubcore_delete_jetty(uobj->object);
	case UBURMA_OBJ_TJFR:
		return ubcore_unimport_jfr(uobj->object);
	case UBURMA_OBJ_TJETTY:
		return ubcore_unimport_jetty(uobj->object);
	case UBURMA_OBJ_JETTY_GRP:
		return ubcore_delete_jetty_grp(uobj->object);
	default:
		return -EINVAL;
	}
}

/**
 * uburma_uobj_destroy() - destroy an object and forget its handle
 * @uobj: committed, or being committed
 * @async_reported: if not NULL, set to the async events of the object the
 *	user read
 * @comp_reported: if not NULL, set to its completion events read (JFC)
 *
 * The object's unread events are dropped. If ubcore refuses (-EBUSY: the
 * object is still in use), nothing changes.
 * Return: 0 or a negative errno.
 */
int uburma_uobj_destroy(struct uburma_uobj *uobj, u32 *async_reported,
			u32 *comp_reported)
{
	struct uburma_file *ufile = uobj->ufile;
	int ret;

	lockdep_assert_held(&ufile->mutex);
	/* Not committed (handle 0): no data path command can find it. */
	if (uobj->handle)
		uburma_uobj_set_dying(uobj, true);
	ret = uburma_uobj_destroy_object(uobj);
	if (ret) {
		if (uobj->handle)
			uburma_uobj_set_dying(uobj, false);
		return ret;
	}
	/* No callback can name @uobj any more: drop what is queued. */
	if (uobj->handle)
		xa_erase(&ufile->handles, uobj->handle);
	uburma_event_file_purge(ufile->async_file, uobj);
	if (uobj->jfce) {
		uburma_event_file_purge(uobj->jfce, uobj);
		uburma_event_file_put(uobj->jfce);
	}
	/* Readers count under the queue locks the purges took. */
	if (async_reported)
		*async_reported = uobj->async_events_reported;
	if (comp_reported)
		*comp_reported = uobj->comp_events_reported;
	kfree(uobj);
	return 0;
}

/**
 * uburma_uobj_destroy_handle() - the destroy and delete commands
 * @ufile: the file
 * @handle: from the command
 * @type: the kind the command destroys
 * @async_reported: see uburma_uobj_destroy()
 * @comp_reported: see uburma_uobj_destroy()
 *
 * Return: 0, -EINVAL for a bad handle, -EBUSY if the object is in use, or
 * another negative errno.
 */
int uburma_uobj_destroy_handle(struct uburma_file *ufile, u64 handle,
			       enum uburma_obj_type type, u32 *async_reported,
			       u32 *comp_reported)
{
	struct uburma_uobj *uobj;
	int ret;

	uobj = uburma_uobj_lookup(ufile, handle, type);
	if (!uobj)
		return -EINVAL;
	ret = uburma_uobj_destroy(uobj, async_reported, comp_reported);
	if (ret == -EBUSY)
		dev_dbg_ratelimited(&ufile->udev->dev,
				    "%s of handle %llu is still in use\n",
				    uburma_obj_names[type], handle);
	return ret;
}

/**
 * uburma_file_destroy_ctx() - destroy a file's context and all its objects
 * @ufile: the file; with udev->lock held (for read by file release, for
 *	write by device removal) and ufile->mutex held
 *
 * Does nothing if the file has no context (never had one, or it is gone
 * already): whichever of release and removal comes first tears down.
 */
void uburma_file_destroy_ctx(struct uburma_file *ufile)
{
	struct uburma_device *udev = ufile->udev;
	struct uburma_event_file *async_file;
	struct ubcore_ucontext *uctx;
	struct uburma_uobj *uobj;
	unsigned long flags, idx;
	unsigned int i;
	int ret;

	lockdep_assert_held(&udev->lock);
	lockdep_assert_held(&ufile->mutex);
	uctx = ufile->ucontext;
	if (!uctx)
		return;

	/* No more device events to this context. */
	spin_lock_irqsave(&udev->files_lock, flags);
	list_del_init(&ufile->node);
	spin_unlock_irqrestore(&udev->files_lock, flags);

	for (i = 0; i < ARRAY_SIZE(uburma_teardown_order); i++) {
		xa_for_each(&ufile->handles, idx, uobj) {
			if (uobj->type != uburma_teardown_order[i])
				continue;
			ret = uburma_uobj_destroy(uobj, NULL, NULL);
			if (ret) {
				/*
				 * Cannot happen in this order; keep the uobj
				 * (ubcore may still call back with it).
				 */
				dev_err(&udev->dev,
					"cannot destroy %s of handle %lu: %d, leaking it\n",
					uburma_obj_names[uobj->type], idx, ret);
				xa_erase(&ufile->handles, idx);
			}
		}
	}

	ubcore_free_ucontext(uctx);
	WRITE_ONCE(ufile->ucontext, NULL);
	async_file = ufile->async_file;
	WRITE_ONCE(ufile->async_file, NULL);
	uburma_event_file_put(async_file);
}

/**
 * uburma_cmd_undo() - undo a command whose result the caller did not get
 * @ufile: the file
 * @command: the command, which succeeded
 * @args: its argument struct, with the handle it returned
 *
 * The copy of the result back to the caller failed, so the caller never
 * learns the new object's handle (or a context's async fd): the object is
 * destroyed, a new context torn down. Takes udev->lock and ufile->mutex
 * (the result is copied without them). If the object is in use by then (a
 * racing command of another thread found it), it stays with the file.
 */
void uburma_cmd_undo(struct uburma_file *ufile, u32 command, const void *args)
{
	struct uburma_device *udev = ufile->udev;
	enum uburma_obj_type type;
	u64 handle;
	int ret;

	switch (command) {
	case UBURMA_CMD_CREATE_CTX:
		handle = 0;
		type = UBURMA_OBJ_MAX;
		break;
	case UBURMA_CMD_ALLOC_TOKEN_ID:
		handle = ((const struct uburma_cmd_alloc_token_id *)args)->out.handle;
		type = UBURMA_OBJ_TOKEN_ID;
		break;
	case UBURMA_CMD_REGISTER_SEG:
		handle = ((const struct uburma_cmd_register_seg *)args)->out.handle;
		type = UBURMA_OBJ_SEG;
		break;
	case UBURMA_CMD_IMPORT_SEG:
		handle = ((const struct uburma_cmd_import_seg *)args)->out.handle;
		type = UBURMA_OBJ_TARGET_SEG;
		break;
	case UBURMA_CMD_CREATE_JFC:
		handle = ((const struct uburma_cmd_create_jfc *)args)->out.handle;
		type = UBURMA_OBJ_JFC;
		break;
	case UBURMA_CMD_CREATE_JFS:
		handle = ((const struct uburma_cmd_create_jfs *)args)->out.handle;
		type = UBURMA_OBJ_JFS;
		break;
	case UBURMA_CMD_CREATE_JFR:
		handle = ((const struct uburma_cmd_create_jfr *)args)->out.handle;
		type = UBURMA_OBJ_JFR;
		break;
	case UBURMA_CMD_CREATE_JETTY:
		handle = ((const struct uburma_cmd_create_jetty *)args)->out.handle;
		type = UBURMA_OBJ_JETTY;
		break;
	case UBURMA_CMD_IMPORT_JFR:
		handle = ((const struct uburma_cmd_import_jetty *)args)->out.handle;
		type = UBURMA_OBJ_TJFR;
		break;
	case UBURMA_CMD_IMPORT_JETTY:
		handle = ((const struct uburma_cmd_import_jetty *)args)->out.handle;
		type = UBURMA_OBJ_TJETTY;
		break;
	case UBURMA_CMD_IMPORT_JETTY_EX: {
		const struct uburma_cmd_import_jetty_ex *ex = args;

		handle = ex->out.handle;
		type = ex->in.type == UBCORE_TARGET_JFR ? UBURMA_OBJ_TJFR :
							  UBURMA_OBJ_TJETTY;
		break;
	}
	case UBURMA_CMD_CREATE_JETTY_GRP:
		handle = ((const struct uburma_cmd_create_jetty_grp *)args)->out.handle;
		type = UBURMA_OBJ_JETTY_GRP;
		break;
	default:
		return;		/* nothing made, or only an fd (not installed) */
	}

	down_read(&udev->lock);
	mutex_lock(&ufile->mutex);
	/* Without ub_dev, device removal has torn the context down. */
	if (udev->ub_dev) {
		if (type == UBURMA_OBJ_MAX) {
			uburma_file_destroy_ctx(ufile);
		} else {
			ret = uburma_uobj_destroy_handle(ufile, handle, type,
							 NULL, NULL);
			if (ret)
				dev_dbg_ratelimited(&udev->dev,
						    "command %u: cannot undo handle %llu: %d\n",
						    command, handle, ret);
		}
	}
	mutex_unlock(&ufile->mutex);
	up_read(&udev->lock);
}

/* Commands that name only a handle. */
static int uburma_cmd_destroy(struct uburma_file *ufile, void *args,
			      enum uburma_obj_type type)
{
	struct uburma_cmd_destroy *cmd = args;

	return uburma_uobj_destroy_handle(ufile, cmd->in.handle, type, NULL,
					  NULL);
}

int uburma_cmd_free_token_id(struct uburma_file *ufile, void *args)
{
	return uburma_cmd_destroy(ufile, args, UBURMA_OBJ_TOKEN_ID);
}

int uburma_cmd_unregister_seg(struct uburma_file *ufile, void *args)
{
	return uburma_cmd_destroy(ufile, args, UBURMA_OBJ_SEG);
}

int uburma_cmd_unimport_seg(struct uburma_file *ufile, void *args)
{
	return uburma_cmd_destroy(ufile, args, UBURMA_OBJ_TARGET_SEG);
}

int uburma_cmd_unimport_jfr(struct uburma_file *ufile, void *args)
{
	return uburma_cmd_destroy(ufile, args, UBURMA_OBJ_TJFR);
}

int uburma_cmd_unimport_jetty(struct uburma_file *ufile, void *args)
{
	return uburma_cmd_destroy(ufile, args, UBURMA_OBJ_TJETTY);
}

/* Deletes of objects with events: report how many were read. */
static int uburma_cmd_delete(struct uburma_file *ufile, void *args,
			     enum uburma_obj_type type)
{
	struct uburma_cmd_delete *cmd = args;

	return uburma_uobj_destroy_handle(ufile, cmd->in.handle, type,
					  &cmd->out.async_events_reported,
					  &cmd->out.comp_events_reported);
}

int uburma_cmd_delete_jfc(struct uburma_file *ufile, void *args)
{
	return uburma_cmd_delete(ufile, args, UBURMA_OBJ_JFC);
}

int uburma_cmd_delete_jfs(struct uburma_file *ufile, void *args)
{
	return uburma_cmd_delete(ufile, args, UBURMA_OBJ_JFS);
}

int uburma_cmd_delete_jfr(struct uburma_file *ufile, void *args)
{
	return uburma_cmd_delete(ufile, args, UBURMA_OBJ_JFR);
}

int uburma_cmd_delete_jetty(struct uburma_file *ufile, void *args)
{
	return uburma_cmd_delete(ufile, args, UBURMA_OBJ_JETTY);
}

int uburma_cmd_delete_jetty_grp(struct uburma_file *ufile, void *args)
{
	return uburma_cmd_delete(ufile, args, UBURMA_OBJ_JETTY_GRP);
}
