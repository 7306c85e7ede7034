// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * Devices follow their bound netdev: in dynamic EID mode the EID table
 * mirrors the netdev's IPv4 (mapped) and IPv6 addresses, and the port state
 * follows carrier and MTU.
 *
 * The notifiers run under rtnl_lock, and IPv6's in atomic context, while
 * ubcore's lock order is ubcore_devices_rwsem -> rtnl_lock -> eid_lock. So a
 * notifier only queues a work item naming the netdev; the work re-reads the
 * whole state of the netdev ("sync") for every device bound to it. A sync is
 * idempotent, so coalescing or reordering notifications loses nothing.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/inetdevice.h>
#include <linux/netdevice.h>
#include <linux/rtnetlink.h>
#include <linux/slab.h>
#include <linux/workqueue.h>
#include <net/addrconf.h>
#include <net/if_inet6.h>

#include <ub/ubcore_event.h>

#include "tp.h"
#include "ubcore_priv.h"

static struct workqueue_struct *ubcore_netdev_wq;

struct ubcore_netdev_work {
	struct work_struct work;
	struct net_device *netdev;	/* held until the work has run */
	netdevice_tracker tracker;
};

/* The netdev's addresses as EIDs; the caller holds rtnl_lock. */
static u32 ubcore_netdev_addrs(struct net_device *netdev,
			       union ubcore_eid *addrs, u32 max)
{
	struct in_device *in_dev = __in_dev_get_rtnl(netdev);
	struct inet6_dev *in6_dev = __in6_dev_get(netdev);
	const struct in_ifaddr *ifa;
	struct inet6_ifaddr *ifp;
	u32 n = 0;

	ASSERT_RTNL();
	if (in_dev) {
		in_dev_for_each_ifa_rtnl(ifa, in_dev) {
			if (n == max)
				return n;
			ubcore_eid_from_ipv4(&addrs[n++], ifa->ifa_local);
		}
	}
	if (in6_dev) {
		read_lock_bh(&in6_dev->lock);
		list_for_each_entry(ifp, &in6_dev->addr_list, if_list) {
			if (n == max)
				break;
			if (ifp->flags & IFA_F_DADFAILED)
				continue;
			addrs[n++].ip6 = ifp->addr;
		}
		read_unlock_bh(&in6_dev->lock);
	}
	return n;
}

static void ubcore_port_sync(struct ubcore_device *dev)
{
	enum ubcore_port_state state = UBCORE_PORT_DOWN, old;
	enum ubcore_mtu mtu = UBCORE_MTU_256;
	struct ubcore_event event = { .dev = dev };

	if (!dev->ops->query_port || dev->ops->query_port(dev, &state, &mtu))
		return;
	WRITE_ONCE(dev->active_mtu, mtu);
	old = xchg(&dev->port_state, state);
	if (old == state || (state != UBCORE_PORT_ACTIVE && old != UBCORE_PORT_ACTIVE))
		return;
	event.type = state == UBCORE_PORT_ACTIVE ? UBCORE_EVENT_PORT_ACTIVE :
						   UBCORE_EVENT_PORT_DOWN;
	event.element.port_id = 0;
	ubcore_dispatch_async_event(&event);
	if (state != UBCORE_PORT_ACTIVE)
		ubcore_cm_link_down(dev);
}

/**
 * ubcore_netdev_sync_device() - re-read the bound netdev's state
 * @dev: the device; the caller holds ubcore_devices_rwsem (read or write)
 *	or otherwise keeps the device registered
 *
 * Sleeps (rtnl_lock, eid_lock).
 */
void ubcore_netdev_sync_device(struct ubcore_device *dev)
{
	struct ubcore_device *l;
	union ubcore_eid *addrs;
	u32 n = 0;

	if (dev->netdev) {
		addrs = kcalloc(UBCORE_MAX_EID_CNT, sizeof(*addrs), GFP_KERNEL);
		if (!addrs)
			return;
		rtnl_lock();
		n = ubcore_netdev_addrs(dev->netdev, addrs, UBCORE_MAX_EID_CNT);
		rtnl_unlock();
		ubcore_eid_sync_addrs(dev, addrs, n);
		kfree(addrs);
	}
	ubcore_port_sync(dev);
	/* logical devices share the port (the list is stable under the rwsem) */
	list_for_each_entry(l, &dev->logical_list, logical_node)
		ubcore_port_sync(l);
}

/* Sync the devices bound to @netdev, or all devices if it is NULL. */
static void ubcore_netdev_sync_devices(struct net_device *netdev)
{
	struct ubcore_device *dev;

	down_read(&ubcore_devices_rwsem);
	ubcore_for_each_device(dev)
		if (!netdev || dev->netdev == netdev)
			ubcore_netdev_sync_device(dev);
	up_read(&ubcore_devices_rwsem);
}

/* When a notifier cannot allocate its work item: sync every device. */
static void ubcore_netdev_sync_all_fn(struct work_struct *work)
{
	ubcore_netdev_sync_devices(NULL);
}

static DECLARE_WORK(ubcore_netdev_sync_all, ubcore_netdev_sync_all_fn);

static void ubcore_netdev_work_fn(struct work_struct *work)
{
	struct ubcore_netdev_work *w =
		container_of(work, struct ubcore_netdev_work, work);

	ubcore_netdev_sync_devices(w->netdev);
	netdev_put(w->netdev, &w->tracker);
	kfree(w);
}

/* Called from notifiers, maybe in atomic context. */
static void ubcore_netdev_queue_sync(struct net_device *netdev)
{
	struct ubcore_netdev_work *w = kzalloc(sizeof(*w), GFP_ATOMIC);

	if (!w) {
		queue_work(ubcore_netdev_wq, &ubcore_netdev_sync_all);
		return;
	}
	INIT_WORK(&w->work, ubcore_netdev_work_fn);
	w->netdev = netdev;
	netdev_hold(netdev, &w->tracker, GFP_ATOMIC);
	queue_work(ubcore_netdev_wq, &w->work);
}

static int ubcore_netdev_event(struct notifier_block *nb, unsigned long event,
			       void *ptr)
{
	switch (event) {
	case NETDEV_UP:
	case NETDEV_DOWN:
	case NETDEV_CHANGE:
	case NETDEV_CHANGEMTU:
		ubcore_netdev_queue_sync(netdev_notifier_info_to_dev(ptr));
		break;
	}
	return NOTIFY_DONE;
}

static int ubcore_inetaddr_event(struct notifier_block *nb,
				 unsigned long event, void *ptr)
{
	const struct in_ifaddr *ifa = ptr;

	if (event == NETDEV_UP || event == NETDEV_DOWN)
		ubcore_netdev_queue_sync(ifa->ifa_dev->dev);
	return NOTIFY_DONE;
}

static int ubcore_inet6addr_event(struct notifier_block *nb,
				  unsigned long event, void *ptr)
{
	const struct inet6_ifaddr *ifp = ptr;

	if (event == NETDEV_UP || event == NETDEV_DOWN)
		ubcore_netdev_queue_sync(ifp->idev->dev);
	return NOTIFY_DONE;
}

static struct notifier_block ubcore_netdev_nb = {
	.notifier_call = ubcore_netdev_event,
};

static struct notifier_block ubcore_inetaddr_nb = {
	.notifier_call = ubcore_inetaddr_event,
};

static struct notifier_block ubcore_inet6addr_nb = {
	.notifier_call = ubcore_inet6addr_event,
};

int ubcore_netdev_init(void)
{
	int ret;

	ubcore_netdev_wq = alloc_ordered_workqueue("ubcore_netdev", 0);
	if (!ubcore_netdev_wq)
		return -ENOMEM;
	ret = register_netdevice_notifier(&ubcore_netdev_nb);
	if (ret)
		goto err_wq;
	ret = register_inetaddr_notifier(&ubcore_inetaddr_nb);
	if (ret)
		goto err_netdev;
	ret = register_inet6addr_notifier(&ubcore_inet6addr_nb);
	if (ret)
		goto err_inet;
	return 0;

err_inet:
	unregister_inetaddr_notifier(&ubcore_inetaddr_nb);
err_netdev:
	unregister_netdevice_notifier(&ubcore_netdev_nb);
err_wq:
	destroy_workqueue(ubcore_netdev_wq);
	return ret;
}

void ubcore_netdev_exit(void)
{
	unregister_inet6addr_notifier(&ubcore_inet6addr_nb);
	unregister_inetaddr_notifier(&ubcore_inetaddr_nb);
	unregister_netdevice_notifier(&ubcore_netdev_nb);
	/* Drains queued syncs, which drop their netdev references. */
	destroy_workqueue(ubcore_netdev_wq);
}
