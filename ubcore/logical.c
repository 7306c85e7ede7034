// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * Logical devices: a UB device in containers (user guide 6.3.1).
 *
 * A physical device belongs to one network namespace (ubcore_dev_net());
 * a logical device of it, with the same name, can be created in each
 * other namespace and is seen only there (sysfs, netlink, its char
 * device). It is a device of its own for ubcore and its clients (its own
 * object tables, contexts, TPs), created by the physical device's provider
 * on the same port and engine (ubcore_ops.add_logical), so that its
 * packets go where the physical device's go (ubcore_dev_host_net()).
 *
 * EIDs. The physical device's table (eid_all) holds every EID, filled by
 * the netdev and the administrator as before; each slot has a namespace
 * (eid_net, NULL for the physical device's own) that an administrator sets
 * ("eid set <dev> <idx> ns <netns>"). The table each device shows
 * (eid_table, which everything else reads) is made from it: the physical
 * device's slots of no other namespace, a logical device's slots of its
 * namespace, at the same indexes (ubcore_eid_distribute()). Deleting a
 * logical device gives its slots back to the physical device; so does the
 * end of a namespace.
 *
 * Modes. Manual: "dev expose"/"dev unexpose" create and delete a logical
 * device in a namespace. Automatic ("system set dev_sharing on"): every
 * namespace gets a logical device of every physical device that can have
 * one, when it is created (ubcore_logical_net_ops), and when sharing is
 * turned on, the namespaces there are then; a physical device registered
 * while sharing is on gets one in every namespace. Turning sharing off
 * deletes none: they are then the administrator's to unexpose. A
 * namespace's end deletes its logical devices in either mode.
 *
 * Locking. ubcore_logical_mutex serialises every creation and deletion of
 * a logical device, the namespace changes of EIDs and devices and
 * ubcore_dev_sharing. Lock order: the provider's locks (udma_reg_mutex,
 * held around ubcore_unregister_device() of a physical device) ->
 * ubcore_logical_mutex -> ubcore_devices_rwsem -> rtnl_lock -> the
 * physical device's eid_lock -> a logical device's eid_lock (nested).
 * A physical device's logical_list changes under ubcore_logical_mutex and
 * ubcore_devices_rwsem (write), so either keeps it stable.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/err.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <net/net_namespace.h>
#include <net/netns/generic.h>

#include "ubcore_priv.h"

DEFINE_MUTEX(ubcore_logical_mutex);	/* see above */
/* Automatic mode (ubcore_logical_mutex to change; READ_ONCE to read). */
static bool ubcore_dev_sharing;

/* The namespace of a slot as eid_net stores it: NULL for @phys's own. */
static struct net *ubcore_eid_net_key(struct ubcore_device *phys,
				      struct net *net)
{
	return net_eq(net, ubcore_dev_net(phys)) ? NULL : net;
}

/* Make @dev's eid_table from @phys's eid_all; @dev's eid_lock held. */
static void ubcore_eid_fill(struct ubcore_device *dev,
			    struct ubcore_device *phys)
{
	struct net *net = dev == phys ? NULL : ubcore_dev_net(dev);
	struct ubcore_eid_entry want;
	u32 i;

	lockdep_assert_held(&dev->eid_lock);
	for (i = 0; i < UBCORE_MAX_EID_CNT; i++) {
		memset(&want, 0, sizeof(want));
		if (phys->eid_all[i].valid && phys->eid_net[i] == net)
			want = phys->eid_all[i];
		if (dev->eid_table[i].valid == want.valid &&
		    dev->eid_table[i].is_static == want.is_static &&
		    !memcmp(dev->eid_table[i].eid.raw, want.eid.raw,
			    sizeof(want.eid.raw)))
			continue;
		write_seqlock_bh(&dev->eid_seq);
		dev->eid_table[i] = want;
		write_sequnlock_bh(&dev->eid_seq);
		set_bit(i, dev->eid_changed);
	}
	ubcore_eid_index_sync(dev);
}

/**
 * ubcore_eid_distribute() - give each device of a physical device its EIDs
 * @phys: the physical device; its eid_lock held, and its logical_list
 *	kept stable (see the top of this file)
 *
 * Rebuilds the shown table of @phys and of each of its logical devices and
 * their entries in the EID index; the slots that changed are noted in each
 * device's eid_changed for ubcore_eid_raise_all().
 */
void ubcore_eid_distribute(struct ubcore_device *phys)
{
	struct ubcore_device *l;

	lockdep_assert_held(&phys->eid_lock);
	ubcore_eid_fill(phys, phys);
	list_for_each_entry(l, &phys->logical_list, logical_node) {
		mutex_lock_nested(&l->eid_lock, SINGLE_DEPTH_NESTING);
		ubcore_eid_fill(l, phys);
		mutex_unlock(&l->eid_lock);
	}
}

static void ubcore_eid_raise(struct ubcore_device *dev)
{
	DECLARE_BITMAP(changed, UBCORE_MAX_EID_CNT);

	mutex_lock(&dev->eid_lock);
	bitmap_copy(changed, dev->eid_changed, UBCORE_MAX_EID_CNT);
	bitmap_zero(dev->eid_changed, UBCORE_MAX_EID_CNT);
	mutex_unlock(&dev->eid_lock);
	ubcore_eid_changed(dev, changed);
}

/**
 * ubcore_eid_raise_all() - raise the EID events ubcore_eid_distribute()
 *	noted, on a physical device and its logical devices
 * @phys: the physical device (logical_list kept stable); no eid_lock held
 */
void ubcore_eid_raise_all(struct ubcore_device *phys)
{
	struct ubcore_device *l;

	ubcore_eid_raise(phys);
	list_for_each_entry(l, &phys->logical_list, logical_node)
		ubcore_eid_raise(l);
}

/*
 * The EIDs of @phys given to @net go back to @phys (slots of no other
 * namespace) and every device of @phys shows its EIDs again; the events
 * are raised after. @phys's logical_list kept stable by the caller.
 */
static void ubcore_eid_give_back(struct ubcore_device *phys,
				 const struct net *net)
{
	u32 i;

	mutex_lock(&phys->eid_lock);
	for (i = 0; i < UBCORE_MAX_EID_CNT; i++)
		if (phys->eid_net[i] == net)
			phys->eid_net[i] = NULL;
	ubcore_eid_distribute(phys);
	mutex_unlock(&phys->eid_lock);
}

/**
 * ubcore_eid_use() - a user context is created on an EID index
 * @dev: the device
 * @idx: the index, below UBCORE_MAX_EID_CNT
 * @need_eid: the slot must hold an EID (a user's context)
 *
 * Return: 0, or -ENOENT when @need_eid and the slot is empty.
 */
int ubcore_eid_use(struct ubcore_device *dev, u32 idx, bool need_eid)
{
	int ret = 0;

	mutex_lock(&dev->eid_lock);
	if (need_eid && !dev->eid_table[idx].valid)
		ret = -ENOENT;
	else
		dev->eid_users[idx]++;
	mutex_unlock(&dev->eid_lock);
	return ret;
}

/* The context of ubcore_eid_use() is gone. */
void ubcore_eid_unuse(struct ubcore_device *dev, u32 idx)
{
	mutex_lock(&dev->eid_lock);
	WARN_ON_ONCE(!dev->eid_users[idx]--);
	mutex_unlock(&dev->eid_lock);
}

/* @phys's logical device in @net, or NULL; ubcore_logical_mutex held. */
static struct ubcore_device *ubcore_logical_find(struct ubcore_device *phys,
						 const struct net *net)
{
	struct ubcore_device *l;

	lockdep_assert_held(&ubcore_logical_mutex);
	list_for_each_entry(l, &phys->logical_list, logical_node)
		if (net_eq(ubcore_dev_net(l), net))
			return l;
	return NULL;
}

/* Create @phys's logical device in @net; ubcore_logical_mutex held. */
static int ubcore_logical_create(struct ubcore_device *phys, struct net *net)
{
	struct ubcore_device *l;

	lockdep_assert_held(&ubcore_logical_mutex);
	if (ubcore_dev_is_logical(phys))
		return -EINVAL;
	/* a bonding device is its members' namespace's only */
	if (!phys->ops->add_logical || !phys->ops->del_logical || phys->is_bond)
		return -EOPNOTSUPP;
	if (phys->logical_closed)
		return -ENODEV;
	if (net_eq(net, ubcore_dev_net(phys)) || ubcore_logical_find(phys, net))
		return -EEXIST;
	l = phys->ops->add_logical(phys, net);
	if (IS_ERR(l)) {
		dev_warn(&phys->dev, "cannot create a logical device in namespace %u: %ld\n",
			 net->ns.inum, PTR_ERR(l));
		return PTR_ERR(l);
	}
	dev_info(&phys->dev, "logical device in namespace %u\n", net->ns.inum);
	return 0;
}

/* Delete a logical device; ubcore_logical_mutex held. */
static void ubcore_logical_destroy(struct ubcore_device *l)
{
	struct ubcore_device *phys = l->phys;

	lockdep_assert_held(&ubcore_logical_mutex);
	dev_info(&phys->dev, "logical device in namespace %u deleted\n",
		 ubcore_dev_net(l)->ns.inum);
	/* unregisters it; ubcore_unregister_device() gives back its EIDs */
	phys->ops->del_logical(l);
}

/**
 * ubcore_logical_detach() - a logical device leaves its physical device
 * @l: the logical device, being unregistered: off the device list and the
 *	EID index; the caller holds ubcore_devices_rwsem for write
 *
 * Its EID slots go back to the physical device.
 */
void ubcore_logical_detach(struct ubcore_device *l)
{
	struct ubcore_device *phys = l->phys;
	struct net *net = ubcore_dev_net(l);

	lockdep_assert_held_write(&ubcore_devices_rwsem);
	list_del_init(&l->logical_node);
	ubcore_eid_give_back(phys, net);
	ubcore_eid_raise_all(phys);
}

/**
 * ubcore_logical_remove_all() - delete a physical device's logical devices
 * @phys: the physical device, whose unregistration begins; it takes no
 *	more logical devices
 */
void ubcore_logical_remove_all(struct ubcore_device *phys)
{
	mutex_lock(&ubcore_logical_mutex);
	phys->logical_closed = true;
	while (!list_empty(&phys->logical_list))
		ubcore_logical_destroy(list_first_entry(&phys->logical_list,
							struct ubcore_device,
							logical_node));
	mutex_unlock(&ubcore_logical_mutex);
}

/**
 * ubcore_expose_device() - create a logical device in a namespace
 * @phys: a physical device
 * @net: the namespace
 *
 * Return: 0, -EINVAL (@phys is a logical device), -EOPNOTSUPP (its provider
 * has no logical devices), -EEXIST (@phys is in @net, or has a logical
 * device there), -ENODEV (@phys is going away), or the provider's error.
 */
int ubcore_expose_device(struct ubcore_device *phys, struct net *net)
{
	int ret;

	mutex_lock(&ubcore_logical_mutex);
	ret = ubcore_logical_create(phys, net);
	mutex_unlock(&ubcore_logical_mutex);
	return ret;
}

/**
 * ubcore_unexpose_device() - delete the logical device of a namespace
 * @phys: a physical device
 * @net: the namespace
 *
 * Its contexts and objects are destroyed as when a device goes away; its
 * EIDs go back to @phys.
 *
 * Return: 0, -EINVAL (@phys is a logical device), -ENOENT (no logical
 * device of @phys in @net).
 */
int ubcore_unexpose_device(struct ubcore_device *phys, struct net *net)
{
	struct ubcore_device *l;
	int ret = 0;

	if (ubcore_dev_is_logical(phys))
		return -EINVAL;
	mutex_lock(&ubcore_logical_mutex);
	l = ubcore_logical_find(phys, net);
	if (l)
		ubcore_logical_destroy(l);
	else
		ret = -ENOENT;
	mutex_unlock(&ubcore_logical_mutex);
	return ret;
}

/* The device that shows slot @idx of @phys now, or NULL; locks as below. */
static struct ubcore_device *ubcore_eid_holder(struct ubcore_device *phys,
					       u32 idx)
{
	struct net *net = phys->eid_net[idx];

	return net ? ubcore_logical_find(phys, net) : phys;
}

/* Whether a context uses slot @idx of @holder; @phys's eid_lock held. */
static bool ubcore_eid_busy(struct ubcore_device *phys,
			    struct ubcore_device *holder, u32 idx)
{
	bool busy;

	if (!holder)
		return false;
	if (holder == phys)
		return phys->eid_users[idx];
	mutex_lock_nested(&holder->eid_lock, SINGLE_DEPTH_NESTING);
	busy = holder->eid_users[idx];
	mutex_unlock(&holder->eid_lock);
	return busy;
}

/**
 * ubcore_eid_set_ns() - give an EID of a physical device a namespace
 * @phys: the physical device
 * @idx: the slot
 * @net: the namespace; @phys's own gives the EID back to @phys
 *
 * The EID is then shown by the logical device of @net (when there is one,
 * or when one is created), and by no other device.
 *
 * Return: 0, -EINVAL (@phys is a logical device, or @idx out of range),
 * -ENOENT (no EID in the slot), -EBUSY (a user context is created on the
 * EID), -ENODEV (@phys is going away).
 */
int ubcore_eid_set_ns(struct ubcore_device *phys, u32 idx, struct net *net)
{
	int ret;

	if (ubcore_dev_is_logical(phys) || idx >= UBCORE_MAX_EID_CNT)
		return -EINVAL;
	mutex_lock(&ubcore_logical_mutex);
	ret = ubcore_device_get_live(phys);
	if (ret)
		goto unlock;
	net = ubcore_eid_net_key(phys, net);
	mutex_lock(&phys->eid_lock);
	if (!phys->eid_all[idx].valid)
		ret = -ENOENT;
	else if (phys->eid_net[idx] != net &&
		 ubcore_eid_busy(phys, ubcore_eid_holder(phys, idx), idx))
		ret = -EBUSY;
	if (!ret) {
		phys->eid_net[idx] = net;
		ubcore_eid_distribute(phys);
	}
	mutex_unlock(&phys->eid_lock);
	if (!ret)
		ubcore_eid_raise_all(phys);
	ubcore_device_put_live(phys);
unlock:
	mutex_unlock(&ubcore_logical_mutex);
	return ret;
}

/**
 * ubcore_eid_get_ns() - the namespace an EID of a physical device is in
 * @phys: the physical device
 * @idx: the slot, below UBCORE_MAX_EID_CNT
 *
 * Return: the namespace (no reference: use it under ubcore's locks or
 * compare it only), @phys's own for a slot of no other.
 */
struct net *ubcore_eid_get_ns(struct ubcore_device *phys, u32 idx)
{
	struct net *net;

	mutex_lock(&phys->eid_lock);
	net = phys->eid_net[idx] ?: ubcore_dev_net(phys);
	mutex_unlock(&phys->eid_lock);
	return net;
}

/*
 * Move @phys to @net: its clients leave it and come back there (a new
 * char device, ...), its sysfs directory moves. ubcore_logical_mutex
 * held; @phys registered and unused.
 */
static int ubcore_dev_move(struct ubcore_device *phys, struct net *net)
{
	int ret;

	lockdep_assert_held(&ubcore_logical_mutex);
	if (net_eq(net, ubcore_dev_net(phys)))
		return 0;
	down_write(&ubcore_devices_rwsem);
	if (!phys->registered) {
		ret = -ENODEV;
		goto unlock;
	}
	if (atomic_read(&phys->obj_cnt[UBCORE_OBJ_UCONTEXT])) {
		ret = -EBUSY;
		goto unlock;
	}
	ubcore_clients_detach(phys);
	write_pnet(&phys->net, net);
	/* the EIDs given to @net are its own now */
	ubcore_eid_give_back(phys, net);
	/* the directory keeps its name and takes the new namespace's tag */
	ret = device_rename(&phys->dev, phys->dev_name);
	if (ret)
		dev_err(&phys->dev, "sysfs did not follow to namespace %u: %d\n",
			net->ns.inum, ret);
	ubcore_clients_attach(phys);
	dev_info(&phys->dev, "moved to namespace %u\n", net->ns.inum);
	ret = 0;
unlock:
	up_write(&ubcore_devices_rwsem);
	if (!ret)
		ubcore_eid_raise_all(phys);
	return ret;
}

/**
 * ubcore_dev_set_ns() - move a physical device to another namespace
 * @phys: the physical device
 * @net: the namespace
 *
 * Only where the device is seen changes; its port stays where its netdev
 * is (ubcore_dev_host_net()). Its EIDs of no other namespace go with it.
 *
 * Return: 0, -EINVAL (a logical device), -EOPNOTSUPP (a bonding device:
 * it stays with its members), -EEXIST (a device of that name is in @net,
 * such as a logical device of @phys), -EBUSY (a user context is open on
 * it), -ENODEV (going away).
 */
int ubcore_dev_set_ns(struct ubcore_device *phys, struct net *net)
{
	struct ubcore_device *other;
	int ret = 0;

	if (ubcore_dev_is_logical(phys))
		return -EINVAL;
	if (phys->is_bond)
		return -EOPNOTSUPP;
	mutex_lock(&ubcore_logical_mutex);
	if (net_eq(net, ubcore_dev_net(phys)))
		goto unlock;
	other = ubcore_get_device_by_name_net(phys->dev_name, net);
	if (other) {
		ubcore_put_device(other);
		ret = -EEXIST;
		goto unlock;
	}
	ret = ubcore_dev_move(phys, net);
unlock:
	mutex_unlock(&ubcore_logical_mutex);
	return ret;
}

/*
 * Physical devices registered now (only those that can have logical
 * devices when @sharable), each with a reference; NULL-terminated.
 */
static struct ubcore_device **ubcore_phys_devices(bool sharable)
{
	struct ubcore_device *dev, **devs;
	size_t n = 0;

	down_read(&ubcore_devices_rwsem);
	ubcore_for_each_device(dev)
		n++;
	devs = kcalloc(n + 1, sizeof(*devs), GFP_KERNEL);
	n = 0;
	if (devs) {
		ubcore_for_each_device(dev)
			if (!ubcore_dev_is_logical(dev) &&
			    (!sharable ||
			     (dev->ops->add_logical && !dev->is_bond))) {
				get_device(&dev->dev);
				devs[n++] = dev;
			}
	}
	up_read(&ubcore_devices_rwsem);
	return devs;
}

static void ubcore_put_devices(struct ubcore_device **devs)
{
	size_t i;

	for (i = 0; devs[i]; i++)
		ubcore_put_device(devs[i]);
	kfree(devs);
}

/* Automatic mode: logical devices in @net; ubcore_logical_mutex held. */
static int ubcore_share_into(struct net *net)
{
	struct ubcore_device **devs = ubcore_phys_devices(true);
	int ret = 0, err;
	size_t i;

	if (!devs)
		return -ENOMEM;
	for (i = 0; devs[i]; i++) {
		if (net_eq(net, ubcore_dev_net(devs[i])) ||
		    ubcore_logical_find(devs[i], net))
			continue;
		err = ubcore_logical_create(devs[i], net);
		if (err && err != -ENODEV && !ret)
			ret = err;
	}
	ubcore_put_devices(devs);
	return ret;
}

/*
 * Every namespace between the init and the exit of ubcore_logical_net_ops
 * (registering them runs the init for the namespaces there are), on
 * ubcore_logical_nets under ubcore_logical_mutex: a namespace being created
 * is on it before it is on the kernel's list, so turning sharing on misses
 * none.
 */
struct ubcore_logical_net {
	struct list_head node;
	struct net *net;
};

static unsigned int ubcore_logical_net_id __read_mostly;
static LIST_HEAD(ubcore_logical_nets);	/* ubcore_logical_mutex */

#define ubcore_for_each_net(ln) \
	list_for_each_entry(ln, &ubcore_logical_nets, node)

/**
 * ubcore_set_dev_sharing() - turn automatic mode on or off
 * @on: on: every namespace there is gets a logical device of every
 *	physical device, and so will every new one; off: nothing is deleted,
 *	new namespaces get none
 *
 * Return: 0, or the first error of creating a logical device (the others
 * are created all the same, each failure logged), or -ENOMEM.
 */
int ubcore_set_dev_sharing(bool on)
{
	struct ubcore_logical_net *ln;
	int ret = 0, err;

	mutex_lock(&ubcore_logical_mutex);
	WRITE_ONCE(ubcore_dev_sharing, on);
	if (on) {
		ubcore_for_each_net(ln) {
			err = ubcore_share_into(ln->net);
			if (err && !ret)
				ret = err;
		}
	}
	mutex_unlock(&ubcore_logical_mutex);
	pr_info("dev_sharing %s\n", on ? "on" : "off");
	return ret;
}

/* Whether automatic mode is on. */
bool ubcore_get_dev_sharing(void)
{
	return READ_ONCE(ubcore_dev_sharing);
}

/**
 * ubcore_logical_dev_registered() - a physical device was registered
 * @phys: it; no ubcore lock held
 *
 * In automatic mode it gets a logical device in every other namespace.
 */
void ubcore_logical_dev_registered(struct ubcore_device *phys)
{
	struct ubcore_logical_net *ln;

	if (!phys->ops->add_logical || phys->is_bond)
		return;
	mutex_lock(&ubcore_logical_mutex);
	if (ubcore_dev_sharing) {
		ubcore_for_each_net(ln)
			if (!net_eq(ln->net, ubcore_dev_net(phys)))
				ubcore_logical_create(phys, ln->net);
	}
	mutex_unlock(&ubcore_logical_mutex);
}

/*
 * A namespace is created: in automatic mode it gets a logical device of
 * every physical device. Never fails the namespace (a failure is logged).
 */
static int __net_init ubcore_logical_net_init(struct net *net)
{
	struct ubcore_logical_net *ln = net_generic(net, ubcore_logical_net_id);

	mutex_lock(&ubcore_logical_mutex);
	ln->net = net;
	list_add_tail(&ln->node, &ubcore_logical_nets);
	if (ubcore_dev_sharing)
		ubcore_share_into(net);
	mutex_unlock(&ubcore_logical_mutex);
	return 0;
}

/*
 * A namespace goes away: its logical devices are deleted (their objects
 * destroyed, their EIDs given back), the EIDs given to it go back to their
 * physical devices, and the physical devices moved into it go back to the
 * initial one.
 */
static void __net_exit ubcore_logical_net_exit(struct net *net)
{
	struct ubcore_logical_net *ln = net_generic(net, ubcore_logical_net_id);
	struct ubcore_device **devs, *l;
	size_t i;

	mutex_lock(&ubcore_logical_mutex);
	list_del(&ln->node);
	devs = ubcore_phys_devices(false);
	for (i = 0; devs && devs[i]; i++) {
		struct ubcore_device *phys = devs[i];

		l = ubcore_logical_find(phys, net);
		if (l)
			ubcore_logical_destroy(l);
		if (net_eq(ubcore_dev_net(phys), net) &&
		    ubcore_dev_move(phys, &init_net))
			dev_err(&phys->dev, "stays in a namespace that is gone\n");
		down_read(&ubcore_devices_rwsem);
		ubcore_eid_give_back(phys, net);
		ubcore_eid_raise_all(phys);
		up_read(&ubcore_devices_rwsem);
	}
	if (devs)
		ubcore_put_devices(devs);
	mutex_unlock(&ubcore_logical_mutex);
}

/*
 * Device pernet operations: in a new namespace they run after every
 * subsystem's (udma's UBoE state, for one, exists when a logical device's
 * clients add netdevs there), and at its end before them.
 */
static struct pernet_operations ubcore_logical_net_ops = {
	.init = ubcore_logical_net_init,
	.exit = ubcore_logical_net_exit,
	.id = &ubcore_logical_net_id,
	.size = sizeof(struct ubcore_logical_net),
};

/**
 * ubcore_logical_init() - follow network namespaces for logical devices
 *
 * Return: 0 or the error of register_pernet_device().
 */
int __init ubcore_logical_init(void)
{
	return register_pernet_device(&ubcore_logical_net_ops);
}

/**
 * ubcore_logical_exit() - stop following them; no device is left by then
 */
void ubcore_logical_exit(void)
{
	unregister_pernet_device(&ubcore_logical_net_ops);
}
