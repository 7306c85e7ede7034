// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * Providers that can create devices on a netdev at an administrator's
 * request (netlink "dev add <type> <netdev>").
 */
#include <kunit/visibility.h>
#include <linux/export.h>
#include <linux/list.h>
#include <linux/module.h>
#include <linux/mutex.h>

#include "ubcore_priv.h"

/* ubcore_link_lock protects ubcore_link_ops_list and serialises newlink. */
static DEFINE_MUTEX(ubcore_link_lock);
static LIST_HEAD(ubcore_link_ops_list);

/**
 * ubcore_register_link_ops() - offer device creation to administrators
 * @ops: the provider's link operations; registered until
 *	ubcore_unregister_link_ops()
 */
void ubcore_register_link_ops(struct ubcore_link_ops *ops)
{
	mutex_lock(&ubcore_link_lock);
	list_add_tail(&ops->list, &ubcore_link_ops_list);
	mutex_unlock(&ubcore_link_lock);
}
EXPORT_SYMBOL_GPL(ubcore_register_link_ops);

/**
 * ubcore_unregister_link_ops() - withdraw a provider's link operations
 * @ops: registered link operations; no newlink runs once this returns
 */
void ubcore_unregister_link_ops(struct ubcore_link_ops *ops)
{
	mutex_lock(&ubcore_link_lock);
	list_del(&ops->list);
	mutex_unlock(&ubcore_link_lock);
}
EXPORT_SYMBOL_GPL(ubcore_unregister_link_ops);

/*
 * ubcore_newlink() - create a device of provider @type on @netdev.
 * Returns 0, -EOPNOTSUPP (no such provider) or the provider's error.
 */
int ubcore_newlink(const char *type, const char *name,
		   struct net_device *netdev)
{
	struct ubcore_link_ops *ops;
	int ret = -EOPNOTSUPP;

	mutex_lock(&ubcore_link_lock);
	list_for_each_entry(ops, &ubcore_link_ops_list, list) {
		if (!strcmp(ops->type, type)) {
			ret = ops->newlink(name, netdev);
			break;
		}
	}
	mutex_unlock(&ubcore_link_lock);
	return ret;
}
EXPORT_SYMBOL_IF_KUNIT(ubcore_newlink);
