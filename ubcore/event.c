// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * Delivery of a device's asynchronous events to kernel handlers (uburma
 * forwards them to user contexts; ULPs react to port changes).
 */
#include <linux/export.h>
#include <linux/spinlock.h>

#include <ub/ubcore_device.h>
#include <ub/ubcore_event.h>

/**
 * ubcore_register_event_handler() - receive a device's async events
 * @dev: the device
 * @handler: with event_handler set; stays registered until
 *	ubcore_unregister_event_handler()
 */
void ubcore_register_event_handler(struct ubcore_device *dev,
				   struct ubcore_event_handler *handler)
{
	unsigned long flags;

	spin_lock_irqsave(&dev->event_lock, flags);
	list_add_tail(&handler->node, &dev->event_handlers);
	spin_unlock_irqrestore(&dev->event_lock, flags);
}
EXPORT_SYMBOL_GPL(ubcore_register_event_handler);

/**
 * ubcore_unregister_event_handler() - stop receiving a device's events
 * @dev: the device
 * @handler: a registered handler; not called any more once this returns
 */
void ubcore_unregister_event_handler(struct ubcore_device *dev,
				     struct ubcore_event_handler *handler)
{
	unsigned long flags;

	spin_lock_irqsave(&dev->event_lock, flags);
	list_del(&handler->node);
	spin_unlock_irqrestore(&dev->event_lock, flags);
}
EXPORT_SYMBOL_GPL(ubcore_unregister_event_handler);

/**
 * ubcore_dispatch_async_event() - deliver an event to every handler
 * @event: the event; @event->dev is its device
 *
 * Callable from any context; handlers run under the device's event lock.
 */
void ubcore_dispatch_async_event(const struct ubcore_event *event)
{
	struct ubcore_device *dev = event->dev;
	struct ubcore_event_handler *handler;
	unsigned long flags;

	spin_lock_irqsave(&dev->event_lock, flags);
	list_for_each_entry(handler, &dev->event_handlers, node)
		handler->event_handler(handler, event);
	spin_unlock_irqrestore(&dev->event_lock, flags);
}
EXPORT_SYMBOL_GPL(ubcore_dispatch_async_event);
