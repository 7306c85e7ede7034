// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * UB device registration, lookup and the clients that attach to devices.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/export.h>
#include <linux/idr.h>
#include <linux/lockdep.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/rwsem.h>
#include <linux/slab.h>
#include <linux/string.h>

#include <ub/ubcore_bond.h>
#include <ub/ubcore_device.h>
#include <ub/ubcore_event.h>

#include "tp.h"
#include "ubcore_priv.h"

/*
 * ubcore_devices_rwsem protects ubcore_devices, ubcore_clients and each
 * device's ->registered. Writers (device and client registration) call the
 * clients' add/remove callbacks under it, so a callback must not look up
 * devices. Lock order: ubcore_devices_rwsem, then rtnl_lock, then eid_lock.
 *
 * ubcore_devices_list_lock also protects ubcore_devices: it is taken,
 * inside ubcore_devices_rwsem, only to add and remove a device, so that
 * ubcore_devices is stable under either lock, for a walk that cannot take
 * ubcore_devices_rwsem (it runs under locks of the clients, such as
 * uburma's udev->lock, that the clients' remove callbacks take while
 * ubcore_devices_rwsem is held for write). Lock order:
 * ubcore_devices_rwsem, then ubcore_devices_list_lock, then eid_lock;
 * nothing else is taken under ubcore_devices_list_lock. The data path
 * finds devices by EID in the EID index (eid_index.c) under RCU, without
 * any of these.
 *
 * The object tables of a device (jfc_table, jetty_table, jetty_grp_table:
 * their xarray locks, taken with interrupts disabled; seg_lock, likewise)
 * are leaves: nothing is taken and nothing sleeps under them. A jetty
 * group's lock is a leaf too, taken with interrupts disabled. token_table's xarray
 * lock is a leaf taken in process context. eid_lock is taken while no
 * object lock is held (segment registration reads the EID table).
 */
DECLARE_RWSEM(ubcore_devices_rwsem);
DEFINE_MUTEX(ubcore_devices_list_lock);	/* see above */
LIST_HEAD(ubcore_devices);
static LIST_HEAD(ubcore_clients);
static DEFINE_IDA(ubcore_client_ida);

static void ubcore_device_release(struct device *device)
{
	struct ubcore_device *dev = to_ubcore_device(device);

	WARN_ON(!xa_empty(&dev->client_ctx));
	xa_destroy(&dev->client_ctx);
	WARN_ON(!xa_empty(&dev->jfc_table));
	xa_destroy(&dev->jfc_table);
	WARN_ON(!xa_empty(&dev->jetty_table));
	xa_destroy(&dev->jetty_table);
	WARN_ON(!xa_empty(&dev->jetty_grp_table));
	xa_destroy(&dev->jetty_grp_table);
	WARN_ON(!xa_empty(&dev->token_table));
	xa_destroy(&dev->token_table);
	ubcore_cm_free(dev);
	if (dev->phys)
		put_device(&dev->phys->dev);
	mutex_destroy(&dev->eid_lock);
	mutex_destroy(&dev->eid_sysfs_lock);
	if (dev->ops && dev->ops->release)
		dev->ops->release(dev);
	kfree(dev);
}

/*
 * xa_init_flags() gives every xarray initialised in this file one lock
 * class; client_ctx and token_table are locked with interrupts on, the ID
 * tables with interrupts off from any context (lookups from a receive
 * softirq, obj.c): a class of their own keeps lockdep from taking the
 * one's use for the other's.
 */
static struct lock_class_key ubcore_irq_table_key;

static void ubcore_irq_tables_lockdep(struct ubcore_device *dev)
{
	lockdep_set_class(&dev->jfc_table.xa_lock, &ubcore_irq_table_key);
	lockdep_set_class(&dev->jetty_table.xa_lock, &ubcore_irq_table_key);
	lockdep_set_class(&dev->jetty_grp_table.xa_lock,
			  &ubcore_irq_table_key);
}

/**
 * ubcore_alloc_device() - allocate a provider's device structure
 * @size: size of the provider's structure, whose first member is the
 *	struct ubcore_device (static_assert it in the provider)
 *
 * Return: the zeroed structure with the ubcore_device initialised, or NULL
 * when out of memory. Free with ubcore_dealloc_device().
 */
struct ubcore_device *ubcore_alloc_device(size_t size)
{
	struct ubcore_device *dev;

	if (WARN_ON(size < sizeof(*dev)))
		return NULL;
	dev = kzalloc(size, GFP_KERNEL);
	if (!dev)
		return NULL;
	device_initialize(&dev->dev);
	dev->dev.class = &ubcore_class;
	dev->dev.release = ubcore_device_release;
	dev->dev.groups = ubcore_device_groups;
	mutex_init(&dev->eid_lock);
	seqlock_init(&dev->eid_seq);
	ubcore_eid_sysfs_init_dev(dev);
	xa_init(&dev->client_ctx);
	INIT_LIST_HEAD(&dev->event_handlers);
	spin_lock_init(&dev->event_lock);
	INIT_LIST_HEAD(&dev->list_node);
	INIT_LIST_HEAD(&dev->logical_list);
	INIT_LIST_HEAD(&dev->logical_node);
	xa_init_flags(&dev->jfc_table, XA_FLAGS_ALLOC | XA_FLAGS_LOCK_IRQ);
	xa_init_flags(&dev->jetty_table, XA_FLAGS_ALLOC | XA_FLAGS_LOCK_IRQ);
	xa_init_flags(&dev->jetty_grp_table, XA_FLAGS_LOCK_IRQ);
	ubcore_irq_tables_lockdep(dev);
	xa_init_flags(&dev->token_table, XA_FLAGS_ALLOC1);
	spin_lock_init(&dev->seg_lock);
	ubcore_access_fail_init(dev);
	/* obj_cnt and pinned_pages start at zero (kzalloc) */
	if (ubcore_cm_create(dev)) {
		put_device(&dev->dev);
		return NULL;
	}
	return dev;
}
EXPORT_SYMBOL_GPL(ubcore_alloc_device);

/**
 * ubcore_dealloc_device() - drop the provider's reference to a device
 * @dev: a device from ubcore_alloc_device(), not registered (any more)
 *
 * The memory is freed, after ops->release, when the last reference is gone.
 */
void ubcore_dealloc_device(struct ubcore_device *dev)
{
	WARN_ON(dev->registered);
	put_device(&dev->dev);
}
EXPORT_SYMBOL_GPL(ubcore_dealloc_device);

/*
 * The device named @name: the one seen in @net, or with @net NULL any
 * device (logical devices share their physical device's name).
 */
static struct ubcore_device *__ubcore_find_device(const char *name,
						  const struct net *net)
{
	struct ubcore_device *dev;

	lockdep_assert_held(&ubcore_devices_rwsem);
	list_for_each_entry(dev, &ubcore_devices, list_node)
		if (!strcmp(dev->dev_name, name) &&
		    (!net || net_eq(ubcore_dev_net(dev), net)))
			return dev;
	return NULL;
}

/*
 * Name from a format with at most one %d: the lowest free index. A
 * logical device takes its physical device's name, free in its namespace;
 * a bonding device's name (bonding_dev_0 on every host) need only be free
 * in its namespace too.
 */
static int ubcore_assign_name(struct ubcore_device *dev, const char *name_fmt)
{
	char name[UBCORE_MAX_DEV_NAME];
	int i;

	lockdep_assert_held_write(&ubcore_devices_rwsem);
	if (!strchr(name_fmt, '%')) {
		if (strscpy(name, name_fmt, sizeof(name)) < 0 ||
		    __ubcore_find_device(name, dev->phys || dev->is_bond ?
					 ubcore_dev_net(dev) : NULL))
			return -EEXIST;
		goto done;
	}
	for (i = 0; i < INT_MAX; i++) {
		if (snprintf(name, sizeof(name), name_fmt, i) >= sizeof(name))
			return -ENAMETOOLONG;
		if (!__ubcore_find_device(name, NULL))
			goto done;
	}
	return -ENFILE;
done:
	strscpy(dev->dev_name, name, sizeof(dev->dev_name));
	return dev_set_name(&dev->dev, "%s", name);
}

static void ubcore_client_add_one(struct ubcore_client *client,
				  struct ubcore_device *dev)
{
	int ret;

	ret = client->add ? client->add(dev) : 0;
	if (!ret) {
		set_bit(client->id, dev->clients_attached);
		return;
	}
	xa_erase(&dev->client_ctx, client->id);
	if (ret != -EOPNOTSUPP)
		dev_warn(&dev->dev, "client %s not attached: %d\n",
			 client->name, ret);
}

static void ubcore_client_remove_one(struct ubcore_client *client,
				     struct ubcore_device *dev)
{
	if (!test_and_clear_bit(client->id, dev->clients_attached))
		return;
	if (client->remove)
		client->remove(dev, xa_load(&dev->client_ctx, client->id));
	xa_erase(&dev->client_ctx, client->id);
}

/*
 * Register @dev, seen in @net and with its port in @host_net (a logical
 * device: @dev->phys is set).
 */
static int ubcore_register(struct ubcore_device *dev, const char *name_fmt,
			   struct net *net, struct net *host_net)
{
	int ret;

	ubcore_ctx_limits_init(dev);
	ubcore_user_limits_init(dev);
	down_write(&ubcore_devices_rwsem);
	/* before device_add(): sysfs files the device by its namespace */
	write_pnet(&dev->net, net);
	write_pnet(&dev->host_net, host_net);
	ret = ubcore_assign_name(dev, name_fmt);
	if (ret)
		goto unlock;
	ubcore_sysfs_set_groups(dev);
	ret = device_add(&dev->dev);
	if (ret) {
		pr_err("cannot add device %s: %d\n", dev->dev_name, ret);
		goto unlock;
	}
	ubcore_eid_sysfs_start(dev);
	if (dev->netdev)
		dev_hold(dev->netdev);
	ubcore_netdev_sync_device(dev);
	mutex_lock(&ubcore_devices_list_lock);
	list_add_tail(&dev->list_node, &ubcore_devices);
	mutex_unlock(&ubcore_devices_list_lock);
	if (dev->phys) {
		/* it shows the EIDs its namespace has */
		list_add_tail(&dev->logical_node, &dev->phys->logical_list);
		mutex_lock(&dev->phys->eid_lock);
		ubcore_eid_distribute(dev->phys);
		mutex_unlock(&dev->phys->eid_lock);
		ubcore_eid_raise_all(dev->phys);
	}
	ubcore_eid_index_set(dev, true);
	dev->registered = true;
	ubcore_clients_attach(dev);
	dev_info(&dev->dev, "registered (%s%s%s%s%s)\n", dev->ops->driver_name,
		 dev->netdev ? " on " : "",
		 dev->netdev ? netdev_name(dev->netdev) : "",
		 dev->phys ? ", logical" : "", dev->is_bond ? ", bonding" : "");
unlock:
	up_write(&ubcore_devices_rwsem);
	return ret;
}

/**
 * ubcore_register_device() - make a device visible to ubcore's clients
 * @dev: from ubcore_alloc_device(), with ops and cap (and netdev) set
 * @name_fmt: the device name, or a format with one %d for the lowest free
 *	number ("udma%d")
 *
 * Adds the device to class ubcore (sysfs), fills the EID table from the
 * netdev in dynamic mode and attaches every registered client. The device
 * is seen in its netdev's network namespace (the initial one without a
 * netdev); in automatic mode (dev_sharing) it gets a logical device in
 * every other one.
 *
 * Return: 0, or -EINVAL (no ops), -EEXIST (name taken), -ENAMETOOLONG, or
 * the error of device_add().
 */
int ubcore_register_device(struct ubcore_device *dev, const char *name_fmt)
{
	struct net *net;
	int ret;

	if (!dev || !dev->ops || !dev->ops->driver_name || !name_fmt)
		return -EINVAL;
	net = dev->netdev ? dev_net(dev->netdev) : &init_net;
	ret = ubcore_register(dev, name_fmt, net, net);
	if (!ret)
		ubcore_logical_dev_registered(dev);
	return ret;
}
EXPORT_SYMBOL_GPL(ubcore_register_device);

/**
 * ubcore_register_bond() - register a bonding device
 * @dev: from ubcore_alloc_device() by the members' provider, with ops and
 *	cap set and no netdev: its ports are its members'
 * @name: its name (no format)
 * @net: the namespace of its members, where it is seen and sends
 *
 * For the provider's ubcore_ops.add_bond only. The device has no logical
 * devices and does not move between namespaces; its EID table is static
 * (ubcore_bond_create() gives it the bonding EID).
 *
 * Return: 0, -EINVAL, -EEXIST (name taken), or the error of device_add().
 */
int ubcore_register_bond(struct ubcore_device *dev, const char *name,
			 struct net *net)
{
	if (!dev || dev->netdev || dev->phys || !dev->ops ||
	    !dev->ops->driver_name || !name || strchr(name, '%'))
		return -EINVAL;
	dev->is_bond = true;
	dev->eid_mode = UBCORE_EID_MODE_STATIC;
	return ubcore_register(dev, name, net, net);
}
EXPORT_SYMBOL_GPL(ubcore_register_bond);

/**
 * ubcore_register_logical() - register a logical device
 * @dev: from ubcore_alloc_device() by @phys's provider, with ops and cap
 *	set and no netdev: it shares @phys's port
 * @phys: a registered physical device
 * @net: the namespace it is seen in
 *
 * For the provider's ubcore_ops.add_logical only (ubcore_logical_mutex is
 * held). The device takes @phys's name and holds a reference to @phys;
 * its EID table shows @phys's EIDs of @net (ubcore/logical.c).
 *
 * Return: 0, -EINVAL, -EEXIST (a device of that name is seen in @net), or
 * the error of device_add().
 */
int ubcore_register_logical(struct ubcore_device *dev,
			    struct ubcore_device *phys, struct net *net)
{
	lockdep_assert_held(&ubcore_logical_mutex);
	if (!dev || !phys || dev->netdev || ubcore_dev_is_logical(phys) ||
	    !dev->ops || !dev->ops->driver_name)
		return -EINVAL;
	if (!dev->phys) {
		get_device(&phys->dev);
		dev->phys = phys;
	}
	return ubcore_register(dev, phys->dev_name, net,
			       ubcore_dev_host_net(phys));
}
EXPORT_SYMBOL_GPL(ubcore_register_logical);

/* Add every client to @dev; ubcore_devices_rwsem held for write. */
void ubcore_clients_attach(struct ubcore_device *dev)
{
	struct ubcore_client *client;

	lockdep_assert_held_write(&ubcore_devices_rwsem);
	list_for_each_entry(client, &ubcore_clients, list_node)
		ubcore_client_add_one(client, dev);
}

/*
 * Remove every client from @dev, in reverse order; ubcore_devices_rwsem
 * held for write. The clients destroy what they created on it.
 */
void ubcore_clients_detach(struct ubcore_device *dev)
{
	struct ubcore_client *client;

	lockdep_assert_held_write(&ubcore_devices_rwsem);
	list_for_each_entry_reverse(client, &ubcore_clients, list_node)
		ubcore_client_remove_one(client, dev);
}

/**
 * ubcore_unregister_device() - detach the clients and remove a device
 * @dev: a registered device
 *
 * A physical device's logical devices are deleted first (its provider's
 * ubcore_ops.del_logical); a logical device's EIDs go back to its physical
 * device. Every client's remove callback runs (in reverse order of
 * registration) before this returns, and must destroy the objects the client created on
 * the device (objects left are reported with a warning); after it the
 * provider may free its resources and call ubcore_dealloc_device(). Sleeps.
 */
void ubcore_unregister_device(struct ubcore_device *dev)
{
	/* a physical device's logical devices go first */
	if (!ubcore_dev_is_logical(dev))
		ubcore_logical_remove_all(dev);
	down_write(&ubcore_devices_rwsem);
	if (WARN_ON(!dev->registered)) {
		up_write(&ubcore_devices_rwsem);
		return;
	}
	dev->registered = false;
	mutex_lock(&ubcore_devices_list_lock);
	list_del_init(&dev->list_node);
	mutex_unlock(&ubcore_devices_list_lock);
	/* The data path finds it no more (after a grace period). */
	ubcore_eid_index_set(dev, false);
	if (ubcore_dev_is_logical(dev))
		ubcore_logical_detach(dev);
	ubcore_clients_detach(dev);
	up_write(&ubcore_devices_rwsem);
	/* The clients destroyed their objects in their remove callbacks. */
	ubcore_obj_warn_leaks(dev);
	ubcore_cm_stop(dev);

	dev_info(&dev->dev, "unregistered\n");
	ubcore_eid_sysfs_stop(dev);
	device_del(&dev->dev);
	if (dev->netdev) {
		dev_put(dev->netdev);
		dev->netdev = NULL;
	}
}
EXPORT_SYMBOL_GPL(ubcore_unregister_device);

/**
 * ubcore_get_device_by_name() - look up a registered physical device
 * @name: its name
 *
 * Logical devices, which have their physical device's name, are not found.
 *
 * Return: the device with a reference (drop it with ubcore_put_device()),
 * or NULL.
 */
struct ubcore_device *ubcore_get_device_by_name(const char *name)
{
	struct ubcore_device *dev, *found = NULL;

	down_read(&ubcore_devices_rwsem);
	list_for_each_entry(dev, &ubcore_devices, list_node) {
		if (!ubcore_dev_is_logical(dev) && !strcmp(dev->dev_name, name)) {
			found = dev;
			get_device(&dev->dev);
			break;
		}
	}
	up_read(&ubcore_devices_rwsem);
	return found;
}
EXPORT_SYMBOL_GPL(ubcore_get_device_by_name);

/**
 * ubcore_get_device_by_name_net() - the registered device of a name seen
 *	in a network namespace
 * @name: its name
 * @net: the namespace: a physical device there, or a logical device
 *	created there
 *
 * Return: the device with a reference (drop it with ubcore_put_device()),
 * or NULL.
 */
struct ubcore_device *ubcore_get_device_by_name_net(const char *name,
						    const struct net *net)
{
	struct ubcore_device *dev;

	down_read(&ubcore_devices_rwsem);
	dev = __ubcore_find_device(name, net);
	if (dev)
		get_device(&dev->dev);
	up_read(&ubcore_devices_rwsem);
	return dev;
}
EXPORT_SYMBOL_GPL(ubcore_get_device_by_name_net);

/**
 * ubcore_get_device_by_netdev() - the registered device bound to a netdev
 * @netdev: the netdev
 * @ops: only devices of this provider, or NULL for any
 *
 * Return: the device with a reference (drop it with ubcore_put_device()),
 * or NULL.
 */
struct ubcore_device *ubcore_get_device_by_netdev(struct net_device *netdev,
						  const struct ubcore_ops *ops)
{
	struct ubcore_device *dev, *found = NULL;

	down_read(&ubcore_devices_rwsem);
	list_for_each_entry(dev, &ubcore_devices, list_node) {
		if (dev->netdev == netdev && (!ops || dev->ops == ops)) {
			found = dev;
			get_device(&dev->dev);
			break;
		}
	}
	up_read(&ubcore_devices_rwsem);
	return found;
}
EXPORT_SYMBOL_GPL(ubcore_get_device_by_netdev);

/**
 * ubcore_put_device() - drop a reference taken by a lookup
 * @dev: the device
 */
void ubcore_put_device(struct ubcore_device *dev)
{
	put_device(&dev->dev);
}
EXPORT_SYMBOL_GPL(ubcore_put_device);

/*
 * ubcore_device_get_live() - keep @dev registered for an administrative
 * operation: takes ubcore_devices_rwsem for read. Returns 0, or -ENODEV
 * (with the lock dropped) when @dev is being unregistered.
 */
int ubcore_device_get_live(struct ubcore_device *dev)
{
	down_read(&ubcore_devices_rwsem);
	if (dev->registered)
		return 0;
	up_read(&ubcore_devices_rwsem);
	return -ENODEV;
}

void ubcore_device_put_live(struct ubcore_device *dev)
{
	up_read(&ubcore_devices_rwsem);
}

/**
 * ubcore_register_client() - attach a kernel client to every device
 * @client: with name and callbacks set
 *
 * @client->add runs for every device registered now and later.
 *
 * Return: 0, -ENOSPC (UBCORE_MAX_CLIENTS are registered) or -ENOMEM.
 */
int ubcore_register_client(struct ubcore_client *client)
{
	struct ubcore_device *dev;
	int id;

	id = ida_alloc_max(&ubcore_client_ida, UBCORE_MAX_CLIENTS - 1, GFP_KERNEL);
	if (id < 0)
		return id;
	client->id = id;

	down_write(&ubcore_devices_rwsem);
	list_add_tail(&client->list_node, &ubcore_clients);
	list_for_each_entry(dev, &ubcore_devices, list_node)
		ubcore_client_add_one(client, dev);
	up_write(&ubcore_devices_rwsem);
	pr_debug("client %s registered\n", client->name);
	return 0;
}
EXPORT_SYMBOL_GPL(ubcore_register_client);

/**
 * ubcore_unregister_client() - detach a client from every device
 * @client: a registered client
 *
 * @client->remove has run for every device it was added to when this
 * returns. Sleeps.
 */
void ubcore_unregister_client(struct ubcore_client *client)
{
	struct ubcore_device *dev;

	down_write(&ubcore_devices_rwsem);
	list_for_each_entry(dev, &ubcore_devices, list_node)
		ubcore_client_remove_one(client, dev);
	list_del(&client->list_node);
	up_write(&ubcore_devices_rwsem);
	ida_free(&ubcore_client_ida, client->id);
}
EXPORT_SYMBOL_GPL(ubcore_unregister_client);

/**
 * ubcore_set_client_ctx() - store a client's context for a device
 * @dev: the device, which @client was added to
 * @client: the client
 * @ctx: its data; handed back to @client->remove
 *
 * Called from @client->add (or later, while the client is attached). Fails
 * (logged) only when out of memory; a client that cannot live without its
 * context checks with ubcore_get_client_ctx().
 */
void ubcore_set_client_ctx(struct ubcore_device *dev,
			   struct ubcore_client *client, void *ctx)
{
	void *old = xa_store(&dev->client_ctx, client->id, ctx, GFP_KERNEL);

	if (xa_is_err(old))
		dev_err(&dev->dev, "client %s: cannot store its context: %d\n",
			client->name, xa_err(old));
}
EXPORT_SYMBOL_GPL(ubcore_set_client_ctx);

/**
 * ubcore_get_client_ctx() - a client's context for a device
 * @dev: the device
 * @client: the client
 *
 * Return: what @client stored with ubcore_set_client_ctx(), or NULL.
 */
void *ubcore_get_client_ctx(struct ubcore_device *dev,
			    struct ubcore_client *client)
{
	return xa_load(&dev->client_ctx, client->id);
}
EXPORT_SYMBOL_GPL(ubcore_get_client_ctx);
