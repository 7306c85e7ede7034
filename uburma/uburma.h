/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * uburma: the userspace ABI of ubcore. One char device per UB device.
 *
 * No lock of uburma is held while user memory is touched (cmd.c).
 *
 * Lock order (outer first):
 *   mmap_lock (mmap(2) only; takes no uburma lock but udev->mmap_srcu)
 *   udev->lock (rwsem: read by commands and file release, write by device
 *	removal)
 *     ufile->mutex (object commands, context teardown)
 *       ubcore's own locks; mmap_lock (pinning, copy_to/from_user)
 *     ufile->handles' xa_lock (spinlock, process context; a leaf: the
 *	data path commands take an object reference under it)
 *     the provider's data path (doorbell, rearm; under udev->lock only)
 *   ubcore's dev->event_lock (device event handlers are called under it)
 *     udev->files_lock (spinlock, irqsave)
 *       ev_file->lock (spinlock, irqsave; event queues)
 * Event callbacks from ubcore run in any context and take only the two
 * spinlocks. mmap(2) holds mmap_lock, which commands take inside
 * udev->lock (pinning, user copies), so it must not take udev->lock: it
 * relies on udev->mmap_srcu instead, which removal synchronises before it
 * frees contexts.
 */
#ifndef _UBURMA_H
#define _UBURMA_H

#include <linux/cdev.h>
#include <linux/device.h>
#include <linux/kref.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/rwsem.h>
#include <linux/spinlock.h>
#include <linux/srcu.h>
#include <linux/wait.h>
#include <linux/xarray.h>

#include <ub/ubcore_device.h>
#include <ub/ubcore_event.h>
#include <ub/ubcore_tp.h>

#include <uapi/ub/uburma_ioctl.h>

/**
 * struct uburma_device - the char device of one UB device
 * @dev: in class uburma; its refcount keeps this structure (the client
 *	registration holds one reference, each open file another)
 * @cdev: /dev/uburma/<name>
 * @lock: held for read by every command and by file release, for write
 *	when the UB device goes away; protects @ub_dev
 * @net: the UB device's network namespace (ubcore_dev_net()): the char
 *	device is opened and its sysfs directory seen only from there
 * @node_ns: 0, or for a logical or bonding device the inode number of
 *	@net, which its /dev node's name carries (uburma_devnode()); fixed
 * @ub_dev: the UB device, or NULL once it is gone: the file is dead and
 *	every command fails with -EIO (written with WRITE_ONCE, mmap reads it
 *	under @mmap_srcu only)
 * @mmap_srcu: read side held by mmap(2) while it uses a context
 * @files_lock: protects @files; a spinlock, device events come in any
 *	context
 * @files: files that have a user context (struct uburma_file.node)
 * @event_handler: receives the UB device's async events
 */
struct uburma_device {
	struct device dev;
	struct cdev cdev;
	struct rw_semaphore lock;	/* see above */
	possible_net_t net;
	unsigned int node_ns;
	struct ubcore_device *ub_dev;
	struct srcu_struct mmap_srcu;
	spinlock_t files_lock;		/* see above */
	struct list_head files;
	struct ubcore_event_handler event_handler;
};

struct uburma_event_file;

/**
 * struct uburma_udata_stage - the provider data of a command, in kernel
 *	memory
 * @buf: @in_len bytes of input copied from the caller, then @out_len bytes
 *	of output for it (NULL when both are 0)
 * @in_len: bytes of input
 * @out_len: bytes of output room
 * @out_done: bytes of output the provider wrote (at most @out_len); only
 *	those are copied to the caller
 * @uout: where the output goes once the locks are dropped
 */
struct uburma_udata_stage {
	void *buf;
	u32 in_len;
	u32 out_len;
	u32 out_done;
	void __user *uout;
};

/**
 * struct uburma_call - what a command took from user memory before it took
 *	any lock (cmd.c)
 * @udata: its provider data (UBURMA_CMD_F_UDATA)
 * @umem: REGISTER_SEG: the pages of the segment, pinned; NULL once ubcore
 *	adopted them
 */
struct uburma_call {
	struct uburma_udata_stage udata;
	struct ubcore_umem *umem;
};

void uburma_call_release(struct uburma_call *call);

/**
 * struct uburma_file - one open file of a char device
 * @udev: the char device; a reference is held
 * @ref: the open file holds one reference, each event file (async, JFCE)
 *	another, so that an event file can name its char device file
 * @mutex: serialises the object commands of this file and the teardown of
 *	its context
 * @ucontext: the user context, or NULL (before CREATE_CTX, after
 *	teardown); set and cleared under @mutex, read by mmap under
 *	udev->mmap_srcu
 * @async_file: the async event file of the context (a reference is held),
 *	or NULL; under @mutex, stable while @ucontext is set
 * @handles: handle -> struct uburma_uobj; changed under @mutex; the data
 *	path commands (RING_DOORBELL, REARM_JFC) look up without @mutex,
 *	under the xarray's lock (uburma_uobj_get())
 * @node: in udev->files while @ucontext is set
 * @call: the staged user memory of the object command that runs; set and
 *	cleared around the handler under @mutex
 * @new_fd: a file descriptor a command reserved and @new_file, the file for
 *	it, or NULL: installed by the dispatch only after the command's result
 *	(which names the fd) reached the caller (cmd.c); under @mutex
 * @new_file: see @new_fd
 */
struct uburma_file {
	struct uburma_device *udev;
	struct kref ref;
	struct mutex mutex;		/* see above */
	struct ubcore_ucontext *ucontext;
	struct uburma_event_file *async_file;
	struct xarray handles;
	struct list_head node;
	struct uburma_call *call;
	int new_fd;
	struct file *new_file;
};

/* Kinds of per-file objects; order of teardown is uburma_teardown_order. */
enum uburma_obj_type {
	UBURMA_OBJ_TOKEN_ID,
	UBURMA_OBJ_SEG,
	UBURMA_OBJ_TARGET_SEG,
	UBURMA_OBJ_JFC,
	UBURMA_OBJ_JFS,
	UBURMA_OBJ_JFR,
	UBURMA_OBJ_JETTY,
	UBURMA_OBJ_TJFR,
	UBURMA_OBJ_TJETTY,
	UBURMA_OBJ_JETTY_GRP,
	UBURMA_OBJ_MAX,
};

/**
 * struct uburma_uobj - a handle's object
 * @ufile: the file it belongs to
 * @type: what @object is
 * @handle: its handle (0 until committed to the table)
 * @object: the ubcore object
 * @urma_value: the caller's value (urma_jfc etc.), reported in events
 * @jfce: the JFCE of a JFC created with one (a reference is held), or NULL
 * @async_events_reported: async event records of this object read by the
 *	user (under the async event file's lock)
 * @comp_events_reported: completion event records read (JFC; under the
 *	JFCE's lock)
 * @dying: its object is being destroyed; set and cleared under the
 *	handles' xarray lock (and ufile->mutex), so that uburma_uobj_get()
 *	never takes a reference on an object that may be freed
 *
 * ubcore objects with events carry a pointer to their uobj in
 * cfg.user_ctx, for the callbacks; it never leaves the kernel.
 */
struct uburma_uobj {
	struct uburma_file *ufile;
	enum uburma_obj_type type;
	u32 handle;
	void *object;
	u64 urma_value;
	struct uburma_event_file *jfce;
	u32 async_events_reported;
	u32 comp_events_reported;
	bool dying;
};

/* Char device minors, one per UB device. */
#define UBURMA_MAX_DEVICES	256
/* Largest provider data (struct uburma_udata in_len / out_len). */
#define UBURMA_MAX_UDATA_LEN	4096

extern struct class uburma_class;
extern dev_t uburma_devt_base;
extern const struct file_operations uburma_fops;

int uburma_client_init(void);
void uburma_client_exit(void);

long uburma_ioctl(struct file *filp, unsigned int cmd, unsigned long arg);

/* file.c */
void uburma_file_put(struct uburma_file *ufile);

/* uobj.c */
struct uburma_uobj *uburma_uobj_alloc(struct uburma_file *ufile,
				      enum uburma_obj_type type, u64 urma_value);
int uburma_uobj_commit(struct uburma_uobj *uobj, void *object);
struct uburma_uobj *uburma_uobj_lookup(struct uburma_file *ufile, u64 handle,
				       enum uburma_obj_type type);
struct uburma_uobj *uburma_uobj_lookup_types(struct uburma_file *ufile,
					     u64 handle, unsigned int types);
void *uburma_handle_object(struct uburma_file *ufile, u64 handle,
			   enum uburma_obj_type type);
struct uburma_uobj *uburma_uobj_get(struct uburma_file *ufile, u64 handle,
				    unsigned int types);
void uburma_uobj_put(struct uburma_uobj *uobj);
int uburma_uobj_destroy(struct uburma_uobj *uobj, u32 *async_reported,
			u32 *comp_reported);
int uburma_uobj_destroy_handle(struct uburma_file *ufile, u64 handle,
			       enum uburma_obj_type type, u32 *async_reported,
			       u32 *comp_reported);
void uburma_file_destroy_ctx(struct uburma_file *ufile);
void uburma_cmd_undo(struct uburma_file *ufile, u32 command, const void *args);

/* event_file.c */
struct file *uburma_event_file_open(struct uburma_file *ufile, bool async,
				    struct uburma_event_file **ev_out);
void uburma_event_file_get(struct uburma_event_file *ev);
struct uburma_event_file *uburma_jfce_get(struct uburma_file *ufile, int fd);
void uburma_event_file_put(struct uburma_event_file *ev);
void uburma_event_file_purge(struct uburma_event_file *ev,
			     struct uburma_uobj *uobj);
void uburma_obj_event_handler(struct ubcore_event *event,
			      struct ubcore_ucontext *uctx);
void uburma_jfce_handler(struct ubcore_jfc *jfc);
void uburma_dev_event_handler(struct ubcore_event_handler *handler,
			      const struct ubcore_event *event);
void uburma_dev_event_fatal(struct uburma_device *udev);

/* cmd_ctx.c */
int uburma_get_udata(struct uburma_file *ufile, const struct uburma_udata *in,
		     struct ubcore_udata *udata);
void *uburma_get_udata_object(struct uburma_file *ufile,
			      const struct uburma_udata *in, u64 handle,
			      enum uburma_obj_type type,
			      struct ubcore_udata *udata);

/*
 * Commands; each runs with udev->lock held for read and ub_dev alive
 * (GET_EID_LIST takes it itself).
 * Object commands (all but the device ones, CREATE_CTX, RING_DOORBELL and
 * REARM_JFC) also run with ufile->mutex held and ufile->ucontext set.
 */
int uburma_cmd_query_device(struct uburma_file *ufile, void *args);
int uburma_cmd_get_eid_list(struct uburma_file *ufile, void *args);
int uburma_cmd_create_ctx(struct uburma_file *ufile, void *args);
int uburma_cmd_alloc_token_id(struct uburma_file *ufile, void *args);
int uburma_cmd_free_token_id(struct uburma_file *ufile, void *args);
int uburma_cmd_register_seg_prepare(struct uburma_file *ufile, void *args,
				    struct uburma_call *call);
int uburma_cmd_register_seg(struct uburma_file *ufile, void *args);
int uburma_cmd_unregister_seg(struct uburma_file *ufile, void *args);
int uburma_cmd_import_seg(struct uburma_file *ufile, void *args);
int uburma_cmd_unimport_seg(struct uburma_file *ufile, void *args);
int uburma_cmd_create_jfce(struct uburma_file *ufile, void *args);
int uburma_cmd_create_jfc(struct uburma_file *ufile, void *args);
int uburma_cmd_modify_jfc(struct uburma_file *ufile, void *args);
int uburma_cmd_delete_jfc(struct uburma_file *ufile, void *args);
int uburma_cmd_create_jfs(struct uburma_file *ufile, void *args);
int uburma_cmd_modify_jfs(struct uburma_file *ufile, void *args);
int uburma_cmd_query_jfs(struct uburma_file *ufile, void *args);
int uburma_cmd_delete_jfs(struct uburma_file *ufile, void *args);
int uburma_cmd_create_jfr(struct uburma_file *ufile, void *args);
int uburma_cmd_modify_jfr(struct uburma_file *ufile, void *args);
int uburma_cmd_query_jfr(struct uburma_file *ufile, void *args);
int uburma_cmd_delete_jfr(struct uburma_file *ufile, void *args);
int uburma_cmd_create_jetty(struct uburma_file *ufile, void *args);
int uburma_cmd_modify_jetty(struct uburma_file *ufile, void *args);
int uburma_cmd_query_jetty(struct uburma_file *ufile, void *args);
int uburma_cmd_delete_jetty(struct uburma_file *ufile, void *args);
int uburma_cmd_import_jfr(struct uburma_file *ufile, void *args);
int uburma_cmd_unimport_jfr(struct uburma_file *ufile, void *args);
int uburma_cmd_import_jetty(struct uburma_file *ufile, void *args);
int uburma_cmd_unimport_jetty(struct uburma_file *ufile, void *args);
int uburma_cmd_ring_doorbell(struct uburma_file *ufile, void *args);
int uburma_cmd_rearm_jfc(struct uburma_file *ufile, void *args);
int uburma_cmd_bind_jetty(struct uburma_file *ufile, void *args);
int uburma_cmd_unbind_jetty(struct uburma_file *ufile, void *args);
int uburma_cmd_flush(struct uburma_file *ufile, void *args);
int uburma_cmd_create_jetty_grp(struct uburma_file *ufile, void *args);
int uburma_cmd_delete_jetty_grp(struct uburma_file *ufile, void *args);
int uburma_import_target(struct uburma_file *ufile,
			 struct uburma_cmd_import_jetty *cmd,
			 enum uburma_obj_type type,
			 const struct ubcore_active_tp_cfg *active);
/* cmd_tp.c */
int uburma_cmd_get_tp_list(struct uburma_file *ufile, void *args);
int uburma_cmd_import_jetty_ex(struct uburma_file *ufile, void *args);
int uburma_cmd_get_tp_attr(struct uburma_file *ufile, void *args);
int uburma_cmd_set_tp_attr(struct uburma_file *ufile, void *args);
int uburma_cmd_get_tpn(struct uburma_file *ufile, void *args);

#endif /* _UBURMA_H */
