// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * The bounded record queue of an event file. Producers are ubcore
 * callbacks in any context, so the queue is guarded by a spinlock
 * (irqsave) and records are allocated with GFP_ATOMIC; a full or closed
 * queue drops the new record. Waking readers is the caller's business.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <kunit/visibility.h>
#include <linux/slab.h>

#include "uburma.h"
#include "event_queue.h"

/**
 * struct uburma_event - one queued record
 * @node: in uburma_event_queue.list
 * @uobj: the object it is about, or NULL for a device event; the object's
 *	destruction removes its records before the uobj is freed
 * @rec: what read(2) returns
 */
struct uburma_event {
	struct list_head node;
	struct uburma_uobj *uobj;
	union uburma_event_rec rec;
};

/**
 * uburma_event_queue_init() - an empty, open queue
 * @q: the queue
 * @async: an async event queue (UBURMA_ASYNC_QUEUE_MAX records), else a
 *	JFCE queue (UBURMA_JFCE_QUEUE_MAX records)
 */
void uburma_event_queue_init(struct uburma_event_queue *q, bool async)
{
	spin_lock_init(&q->lock);
	INIT_LIST_HEAD(&q->list);
	q->count = 0;
	q->max = async ? UBURMA_ASYNC_QUEUE_MAX : UBURMA_JFCE_QUEUE_MAX;
	q->async = async;
	q->closed = false;
}
EXPORT_SYMBOL_IF_KUNIT(uburma_event_queue_init);

/* The size of the records read(2) returns. */
size_t uburma_event_queue_rec_size(const struct uburma_event_queue *q)
{
	return q->async ? sizeof(struct uburma_async_event) :
			  sizeof(struct uburma_jfce_event);
}
EXPORT_SYMBOL_IF_KUNIT(uburma_event_queue_rec_size);

/**
 * uburma_event_queue_push() - queue a record
 * @q: the queue
 * @uobj: the object the record is about, or NULL
 * @data: event_data (async) or urma_jfc (JFCE)
 * @type: event_type (async; unused for a JFCE)
 *
 * Any context.
 * Return: whether the record was queued (the caller wakes the readers);
 * false if it could not be allocated or the queue is full or closed.
 */
bool uburma_event_queue_push(struct uburma_event_queue *q,
			     struct uburma_uobj *uobj, u64 data, u32 type)
{
	struct uburma_event *e;
	unsigned long flags;
	bool queued = false;

	e = kzalloc(sizeof(*e), GFP_ATOMIC);
	if (!e)
		return false;
	e->uobj = uobj;
	if (q->async) {
		e->rec.async.event_data = data;
		e->rec.async.event_type = type;
	} else {
		e->rec.jfce.urma_jfc = data;
	}

	spin_lock_irqsave(&q->lock, flags);
	if (q->closed) {
		/* dropped */
	} else if (q->count >= q->max) {
		pr_warn_ratelimited("%s queue full (%u records), event dropped\n",
				    q->async ? "async event" : "JFCE", q->max);
	} else {
		list_add_tail(&e->node, &q->list);
		q->count++;
		queued = true;
	}
	spin_unlock_irqrestore(&q->lock, flags);

	if (!queued)
		kfree(e);
	return queued;
}
EXPORT_SYMBOL_IF_KUNIT(uburma_event_queue_push);

/**
 * uburma_event_queue_pop() - take the oldest record
 * @q: the queue
 * @rec: set to the record
 *
 * The record counts as reported to its object (async_events_reported or
 * comp_events_reported), under the queue lock. Process context.
 * Return: false if the queue is empty.
 */
bool uburma_event_queue_pop(struct uburma_event_queue *q,
			    union uburma_event_rec *rec)
{
	struct uburma_event *e;

	spin_lock_irq(&q->lock);
	e = list_first_entry_or_null(&q->list, struct uburma_event, node);
	if (!e) {
		spin_unlock_irq(&q->lock);
		return false;
	}
	list_del(&e->node);
	q->count--;
	if (e->uobj) {
		if (q->async)
			e->uobj->async_events_reported++;
		else
			e->uobj->comp_events_reported++;
	}
	spin_unlock_irq(&q->lock);

	*rec = e->rec;
	kfree(e);
	return true;
}
EXPORT_SYMBOL_IF_KUNIT(uburma_event_queue_pop);

/* Whether no record is queued (a hint, without the lock, for waiters). */
bool uburma_event_queue_empty(struct uburma_event_queue *q)
{
	return list_empty(&q->list);
}
EXPORT_SYMBOL_IF_KUNIT(uburma_event_queue_empty);

/**
 * uburma_event_queue_purge() - drop the queued records of an object
 * @q: the queue
 * @uobj: the object being destroyed
 *
 * The other records keep their order. After this no record names @uobj
 * and its reported counters are final.
 */
void uburma_event_queue_purge(struct uburma_event_queue *q,
			      struct uburma_uobj *uobj)
{
	struct uburma_event *e, *tmp;
	unsigned long flags;
	LIST_HEAD(drop);

	spin_lock_irqsave(&q->lock, flags);
	list_for_each_entry_safe(e, tmp, &q->list, node) {
		if (e->uobj != uobj)
			continue;
		list_move_tail(&e->node, &drop);
		q->count--;
	}
	spin_unlock_irqrestore(&q->lock, flags);
	list_for_each_entry_safe(e, tmp, &drop, node)
		kfree(e);
}
EXPORT_SYMBOL_IF_KUNIT(uburma_event_queue_purge);

/* The fd is closed: drop the queued records and every later one. */
void uburma_event_queue_close(struct uburma_event_queue *q)
{
	struct uburma_event *e, *tmp;
	LIST_HEAD(drop);

	spin_lock_irq(&q->lock);
	q->closed = true;
	list_splice_init(&q->list, &drop);
	q->count = 0;
	spin_unlock_irq(&q->lock);
	list_for_each_entry_safe(e, tmp, &drop, node)
		kfree(e);
}
EXPORT_SYMBOL_IF_KUNIT(uburma_event_queue_close);

/* Free every record of a queue nobody else can reach any more. */
void uburma_event_queue_drain(struct uburma_event_queue *q)
{
	struct uburma_event *e, *tmp;

	list_for_each_entry_safe(e, tmp, &q->list, node)
		kfree(e);
	INIT_LIST_HEAD(&q->list);
	q->count = 0;
}
EXPORT_SYMBOL_IF_KUNIT(uburma_event_queue_drain);
