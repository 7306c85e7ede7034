// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * Event files: the async event fd of a context (object errors, port and
 * EID changes) and the JFCE fds (completion event channels). Each is an
 * anonymous inode with a bounded queue of records that read(2) returns and
 * poll/epoll watch. Producers are ubcore callbacks in any context; the
 * queue itself (a spinlock, GFP_ATOMIC records, a bound beyond which new
 * records are dropped) is in event_queue.c.
 *
 * Lifetime: struct uburma_event_file is reference counted: its open file
 * holds one reference, the context another (async file), each JFC using it
 * another (JFCE). It holds a reference on the char device file it belongs
 * to (struct uburma_file), so it may outlive the char device fd; records
 * stop once the fd is closed or, for the async file, the context is gone.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/anon_inodes.h>
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/poll.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "uburma.h"
#include "event_queue.h"

/**
 * struct uburma_event_file - an async event or JFCE file
 * @ref: see the top of this file
 * @ufile: the char device file (a reference is held)
 * @wait: readers and pollers
 * @queue: the records (its lock is the ev_file->lock of uburma.h)
 */
struct uburma_event_file {
	struct kref ref;
	struct uburma_file *ufile;
	wait_queue_head_t wait;
	struct uburma_event_queue queue;
};

static void uburma_event_file_free(struct kref *ref)
{
	struct uburma_event_file *ev =
		container_of(ref, struct uburma_event_file, ref);

	uburma_event_queue_drain(&ev->queue);
	uburma_file_put(ev->ufile);
	kfree(ev);
}

void uburma_event_file_get(struct uburma_event_file *ev)
{
	kref_get(&ev->ref);
}

/* Process context only: the last put may free the char device file. */
void uburma_event_file_put(struct uburma_event_file *ev)
{
	if (ev)
		kref_put(&ev->ref, uburma_event_file_free);
}

/* Any context; @ev is kept alive by the caller. */
static void uburma_event_queue(struct uburma_event_file *ev,
			       struct uburma_uobj *uobj, u64 data, u32 type)
{
	if (uburma_event_queue_push(&ev->queue, uobj, data, type))
		wake_up_interruptible(&ev->wait);
}

/**
 * uburma_event_file_purge() - drop the queued records of an object
 * @ev: an event file, or NULL
 * @uobj: the object being destroyed
 *
 * After this no record names @uobj and its reported counters are final.
 */
void uburma_event_file_purge(struct uburma_event_file *ev,
			     struct uburma_uobj *uobj)
{
	if (ev)
		uburma_event_queue_purge(&ev->queue, uobj);
}

static bool uburma_event_ready(struct uburma_event_file *ev)
{
	return !uburma_event_queue_empty(&ev->queue);
}

static ssize_t uburma_event_read(struct file *filp, char __user *buf,
				 size_t count, loff_t *pos)
{
	struct uburma_event_file *ev = filp->private_data;
	size_t size = uburma_event_queue_rec_size(&ev->queue);
	union uburma_event_rec rec;
	size_t done = 0;
	int ret;

	if (count < size)
		return -EINVAL;
	while (done + size <= count) {
		while (!uburma_event_queue_pop(&ev->queue, &rec)) {
			if (done)
				return done;
			if (filp->f_flags & O_NONBLOCK)
				return -EAGAIN;
			ret = wait_event_interruptible(ev->wait,
						       uburma_event_ready(ev));
			if (ret)
				return ret;
		}

		if (copy_to_user(buf + done, &rec, size))
			return done ? done : -EFAULT;
		done += size;
	}
	return done;
}

static __poll_t uburma_event_poll(struct file *filp,
				  struct poll_table_struct *wait)
{
	struct uburma_event_file *ev = filp->private_data;
	__poll_t mask = 0;

	poll_wait(filp, &ev->wait, wait);
	spin_lock_irq(&ev->queue.lock);
	if (!list_empty(&ev->queue.list))
		mask = EPOLLIN | EPOLLRDNORM;
	spin_unlock_irq(&ev->queue.lock);
	return mask;
}

static int uburma_event_release(struct inode *inode, struct file *filp)
{
	struct uburma_event_file *ev = filp->private_data;

	uburma_event_queue_close(&ev->queue);
	uburma_event_file_put(ev);
	return 0;
}

static const struct file_operations uburma_async_fops = {
	.owner = THIS_MODULE,
	.read = uburma_event_read,
	.poll = uburma_event_poll,
	.release = uburma_event_release,
	.llseek = no_llseek,
};

static const struct file_operations uburma_jfce_fops = {
	.owner = THIS_MODULE,
	.read = uburma_event_read,
	.poll = uburma_event_poll,
	.release = uburma_event_release,
	.llseek = no_llseek,
};

/**
 * uburma_event_file_open() - a new event file
 * @ufile: the char device file it belongs to
 * @async: the async event file of a context, else a JFCE
 * @ev_out: set to the event file; the returned file holds the only
 *	reference
 *
 * The caller installs the file in an fd (fd_install) or fput()s it.
 * Return: the file or an ERR_PTR.
 */
struct file *uburma_event_file_open(struct uburma_file *ufile, bool async,
				    struct uburma_event_file **ev_out)
{
	struct uburma_event_file *ev;
	struct file *filp;

	ev = kzalloc(sizeof(*ev), GFP_KERNEL_ACCOUNT);
	if (!ev)
		return ERR_PTR(-ENOMEM);
	kref_init(&ev->ref);
	init_waitqueue_head(&ev->wait);
	uburma_event_queue_init(&ev->queue, async);
	kref_get(&ufile->ref);
	ev->ufile = ufile;

	filp = anon_inode_getfile(async ? "[uburma_async]" : "[uburma_jfce]",
				  async ? &uburma_async_fops : &uburma_jfce_fops,
				  ev, O_RDONLY);
	if (IS_ERR(filp)) {
		uburma_event_file_put(ev);
		return filp;
	}
	*ev_out = ev;
	return filp;
}

/**
 * uburma_jfce_get() - the JFCE of an fd, for a new JFC
 * @ufile: the char device file creating the JFC
 * @fd: the JFCE fd from the command
 *
 * Return: the JFCE with a reference, or NULL if @fd is not a JFCE of
 * @ufile.
 */
struct uburma_event_file *uburma_jfce_get(struct uburma_file *ufile, int fd)
{
	struct uburma_event_file *ev = NULL;
	struct fd f = fdget(fd);

	if (!f.file) {
		dev_dbg_ratelimited(&ufile->udev->dev, "JFCE fd %d is not open\n",
				    fd);
		return NULL;
	}
	if (f.file->f_op != &uburma_jfce_fops) {
		dev_dbg_ratelimited(&ufile->udev->dev, "fd %d is not a JFCE\n",
				    fd);
	} else if (((struct uburma_event_file *)f.file->private_data)->ufile !=
		   ufile) {
		dev_dbg_ratelimited(&ufile->udev->dev,
				    "JFCE fd %d belongs to another context\n",
				    fd);
	} else {
		ev = f.file->private_data;
		uburma_event_file_get(ev);
	}
	fdput(f);
	return ev;
}

static struct uburma_uobj *uburma_user_ctx_uobj(u64 user_ctx,
						enum uburma_obj_type type)
{
	struct uburma_uobj *uobj = (struct uburma_uobj *)(uintptr_t)user_ctx;

	return uobj && uobj->type == type ? uobj : NULL;
}

/*
 * An async event of an object found by ID (a reference is held). The
 * object is ours only if it is in @uctx: check that before its user_ctx is
 * taken for a uobj.
 */
static void uburma_obj_event_queue(struct ubcore_ucontext *uctx,
				   struct ubcore_ucontext *obj_uctx,
				   u64 user_ctx, enum uburma_obj_type type,
				   u32 event_type)
{
	struct uburma_event_file *ev;
	struct uburma_uobj *uobj;

	if (!uctx || obj_uctx != uctx)
		return;
	uobj = uburma_user_ctx_uobj(user_ctx, type);
	if (!uobj)
		return;
	ev = READ_ONCE(uobj->ufile->async_file);
	if (ev)
		uburma_event_queue(ev, uobj, uobj->urma_value, event_type);
}

/**
 * uburma_obj_event_handler() - ubcore's jfae_handler of our objects
 * @event: the event; element.obj_id names the object
 * @uctx: the object's context
 *
 * Any context. The object is found by ID with a reference, so that it (and
 * its uobj, freed only after the object) stays while the record is queued.
 */
void uburma_obj_event_handler(struct ubcore_event *event,
			      struct ubcore_ucontext *uctx)
{
	struct ubcore_device *dev = event->dev;
	u32 id = event->element.obj_id;
	struct ubcore_jetty *jetty;
	struct ubcore_jfc *jfc;
	struct ubcore_jfs *jfs;
	struct ubcore_jfr *jfr;

	switch (event->type) {
	case UBCORE_EVENT_JFC_ERR:
		jfc = ubcore_find_get_jfc(dev, id);
		if (!jfc)
			return;
		uburma_obj_event_queue(uctx, jfc->uctx, jfc->cfg.user_ctx,
				       UBURMA_OBJ_JFC, event->type);
		ubcore_obj_ref_put(&jfc->obj_ref);
		break;
	case UBCORE_EVENT_JFS_ERR:
		jfs = ubcore_find_get_jfs(dev, id);
		if (!jfs)
			return;
		uburma_obj_event_queue(uctx, jfs->uctx, jfs->cfg.user_ctx,
				       UBURMA_OBJ_JFS, event->type);
		ubcore_obj_ref_put(&jfs->obj_ref);
		break;
	case UBCORE_EVENT_JFR_ERR:
	case UBCORE_EVENT_JFR_LIMIT:
		jfr = ubcore_find_get_jfr(dev, id);
		if (!jfr)
			return;
		uburma_obj_event_queue(uctx, jfr->uctx, jfr->cfg.user_ctx,
				       UBURMA_OBJ_JFR, event->type);
		ubcore_obj_ref_put(&jfr->obj_ref);
		break;
	case UBCORE_EVENT_JETTY_ERR:
	case UBCORE_EVENT_JETTY_LIMIT:
		jetty = ubcore_find_get_jetty(dev, id);
		if (!jetty)
			return;
		uburma_obj_event_queue(uctx, jetty->uctx, jetty->cfg.user_ctx,
				       UBURMA_OBJ_JETTY, event->type);
		ubcore_obj_ref_put(&jetty->obj_ref);
		break;
	default:
		pr_debug_ratelimited("object event %u not forwarded\n",
				     event->type);
		break;
	}
}

/**
 * uburma_jfce_handler() - ubcore's jfce_handler of our JFCs
 * @jfc: a JFC created with a JFCE; alive during the call
 *
 * Any context.
 */
void uburma_jfce_handler(struct ubcore_jfc *jfc)
{
	struct uburma_uobj *uobj = uburma_user_ctx_uobj(jfc->cfg.user_ctx,
							UBURMA_OBJ_JFC);

	if (uobj && uobj->jfce)
		uburma_event_queue(uobj->jfce, uobj, uobj->urma_value, 0);
}

static void uburma_dev_event_fanout(struct uburma_device *udev, u64 data,
				    u32 type)
{
	struct uburma_file *ufile;
	unsigned long flags;

	spin_lock_irqsave(&udev->files_lock, flags);
	list_for_each_entry(ufile, &udev->files, node)
		uburma_event_queue(ufile->async_file, NULL, data, type);
	spin_unlock_irqrestore(&udev->files_lock, flags);
}

/*
 * A segment's event goes to its owner's file only, with the segment's
 * handle as event_data (REGISTER_SEG takes no urma value). The raiser
 * holds a reference on the segment, which keeps its uobj (freed only after
 * the segment); a segment of ours has a context and its uobj in user_ctx.
 */
static void uburma_seg_event(struct ubcore_target_seg *tseg, u32 event_type)
{
	struct uburma_event_file *ev;
	struct uburma_uobj *uobj;

	if (!tseg->uctx)
		return;
	uobj = uburma_user_ctx_uobj(tseg->user_ctx, UBURMA_OBJ_SEG);
	if (!uobj || !READ_ONCE(uobj->handle) ||
	    READ_ONCE(uobj->ufile->ucontext) != tseg->uctx)
		return;
	ev = READ_ONCE(uobj->ufile->async_file);
	if (ev)
		uburma_event_queue(ev, uobj, uobj->handle, event_type);
}

/*
 * An RM import's TP lost its peer: to its owner's file only, with the
 * import's handle as event_data (IMPORT_JETTY takes no urma value). ubcore
 * raises it under its connection manager's lock with the import on the
 * TP, so the import and its uobj (freed only after the unimport, which
 * takes that lock) stay while the record is queued.
 */
static void uburma_tjetty_event(struct ubcore_tjetty *tj, u32 event_type)
{
	struct uburma_event_file *ev;
	struct uburma_uobj *uobj;

	if (!tj->uctx)
		return;
	uobj = uburma_user_ctx_uobj(tj->cfg.user_ctx,
				    tj->cfg.type == UBCORE_TARGET_JFR ?
				    UBURMA_OBJ_TJFR : UBURMA_OBJ_TJETTY);
	if (!uobj || !READ_ONCE(uobj->handle) ||
	    READ_ONCE(uobj->ufile->ucontext) != tj->uctx)
		return;
	ev = READ_ONCE(uobj->ufile->async_file);
	if (ev)
		uburma_event_queue(ev, uobj, uobj->handle, event_type);
}

/**
 * uburma_dev_event_handler() - a UB device's async events
 * @handler: udev->event_handler
 * @event: the event
 *
 * Called by ubcore in any context. Device events go to every context of
 * the device; object events reach their objects' handlers instead.
 */
void uburma_dev_event_handler(struct ubcore_event_handler *handler,
			      const struct ubcore_event *event)
{
	struct uburma_device *udev =
		container_of(handler, struct uburma_device, event_handler);

	switch (event->type) {
	case UBCORE_EVENT_PORT_ACTIVE:
	case UBCORE_EVENT_PORT_DOWN:
	case UBCORE_EVENT_DEV_FATAL:
		uburma_dev_event_fanout(udev, event->element.port_id,
					event->type);
		break;
	case UBCORE_EVENT_EID_CHANGE:
		uburma_dev_event_fanout(udev, event->element.eid_idx,
					event->type);
		break;
	case UBCORE_EVENT_SEG_INVALID:
		uburma_seg_event(event->element.seg, event->type);
		break;
	case UBCORE_EVENT_TP_ERR:
		uburma_tjetty_event(event->element.tjetty, event->type);
		break;
	default:
		break;
	}
}

/* The UB device is going away: tell every context (DEV_FATAL). */
void uburma_dev_event_fatal(struct uburma_device *udev)
{
	uburma_dev_event_fanout(udev, 0, UBCORE_EVENT_DEV_FATAL);
}
