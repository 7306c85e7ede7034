/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * The bounded record queue of an event file (async event or JFCE): the
 * pure queue logic of event_file.c, apart from the file and its waiters so
 * that KUnit can test it.
 */
#ifndef _UBURMA_EVENT_QUEUE_H
#define _UBURMA_EVENT_QUEUE_H

#include <linux/list.h>
#include <linux/spinlock.h>
#include <linux/types.h>

#include <uapi/ub/uburma_ioctl.h>

struct uburma_uobj;

#define UBURMA_ASYNC_QUEUE_MAX	1024
#define UBURMA_JFCE_QUEUE_MAX	8192

/**
 * struct uburma_event_queue - the records of an event file
 * @lock: protects @list, @count, @closed and the reported counters of the
 *	uobjs the queued records name
 * @list: struct uburma_event records, oldest first
 * @count: records in @list
 * @max: the bound of @count; a record beyond it is dropped
 * @async: an async event queue, else a JFCE queue
 * @closed: the fd is closed; new records are dropped
 */
struct uburma_event_queue {
	spinlock_t lock;		/* see above */
	struct list_head list;
	u32 count;
	u32 max;
	bool async;
	bool closed;
};

/**
 * union uburma_event_rec - a record as read(2) returns it
 * @async: the record of an async event queue
 * @jfce: the record of a JFCE queue
 */
union uburma_event_rec {
	struct uburma_async_event async;
	struct uburma_jfce_event jfce;
};

void uburma_event_queue_init(struct uburma_event_queue *q, bool async);
size_t uburma_event_queue_rec_size(const struct uburma_event_queue *q);
bool uburma_event_queue_push(struct uburma_event_queue *q,
			     struct uburma_uobj *uobj, u64 data, u32 type);
bool uburma_event_queue_pop(struct uburma_event_queue *q,
			    union uburma_event_rec *rec);
bool uburma_event_queue_empty(struct uburma_event_queue *q);
void uburma_event_queue_purge(struct uburma_event_queue *q,
			      struct uburma_uobj *uobj);
void uburma_event_queue_close(struct uburma_event_queue *q);
void uburma_event_queue_drain(struct uburma_event_queue *q);

#endif /* _UBURMA_EVENT_QUEUE_H */
