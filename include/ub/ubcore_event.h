/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * Asynchronous events of UB devices: port and EID changes, object errors.
 */
#ifndef _UB_UBCORE_EVENT_H
#define _UB_UBCORE_EVENT_H

#include <linux/list.h>
#include <linux/types.h>

struct ubcore_device;
struct ubcore_target_seg;
struct ubcore_tjetty;

/* Values as urma_async_event_type_t. */
enum ubcore_event_type {
	UBCORE_EVENT_JFC_ERR,
	UBCORE_EVENT_JFS_ERR,
	UBCORE_EVENT_JFR_ERR,
	UBCORE_EVENT_JFR_LIMIT,
	UBCORE_EVENT_JETTY_ERR,
	UBCORE_EVENT_JETTY_LIMIT,
	UBCORE_EVENT_JETTY_GRP_ERR,
	UBCORE_EVENT_PORT_ACTIVE,
	UBCORE_EVENT_PORT_DOWN,
	UBCORE_EVENT_DEV_FATAL,
	UBCORE_EVENT_EID_CHANGE,
	UBCORE_EVENT_ELR_ERR,
	UBCORE_EVENT_ELR_DONE,
	/*
	 * Ours, not UMDK's: a registered segment was invalidated after too
	 * many refused remote accesses (ubcore_report_access_fail()).
	 */
	UBCORE_EVENT_SEG_INVALID,
	/*
	 * UMDK's kernel name (ubcore_types.h), our value (after the ones
	 * above): the TP an RM import travels on lost its peer (the peer's
	 * device, module, link or host is gone: docs/connection-manager.md).
	 * element.tjetty names the import, valid while the handlers run; one
	 * event per import on the TP. Its next post fails as for any import
	 * without an established TP.
	 */
	UBCORE_EVENT_TP_ERR,
};

/**
 * struct ubcore_event - one asynchronous event
 * @dev: the device
 * @type: what happened
 * @element: what it happened to: a port number, an EID index, (for
 *	object errors) the object's ID, or (UBCORE_EVENT_SEG_INVALID) the
 *	segment, or (UBCORE_EVENT_TP_ERR) the import, valid while the
 *	handlers run
 */
struct ubcore_event {
	struct ubcore_device *dev;
	enum ubcore_event_type type;
	union {
		u32 port_id;
		u32 eid_idx;
		u32 obj_id;
		struct ubcore_target_seg *seg;
		struct ubcore_tjetty *tjetty;
	} element;
};

/**
 * struct ubcore_event_handler - a kernel receiver of a device's events
 * @event_handler: called for each event, in any context (it must not
 *	sleep), under the device's event lock
 * @node: private to ubcore
 */
struct ubcore_event_handler {
	void (*event_handler)(struct ubcore_event_handler *handler,
			      const struct ubcore_event *event);
	struct list_head node;
};

void ubcore_register_event_handler(struct ubcore_device *dev,
				   struct ubcore_event_handler *handler);
void ubcore_unregister_event_handler(struct ubcore_device *dev,
				     struct ubcore_event_handler *handler);
void ubcore_dispatch_async_event(const struct ubcore_event *event);

#endif /* _UB_UBCORE_EVENT_H */
