// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * Following the bound netdevs: when one is unregistered (deleted, or moved
 * to another network namespace), its udma device goes away with it. Port
 * state and MTU changes are ubcore's to follow, through ops->query_port.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/netdevice.h>
#include <linux/notifier.h>
#include <linux/workqueue.h>

#include "udma.h"

/*
 * The reaper: removes the devices marked by the notifier. A device cannot be
 * unregistered in the notifier itself, which runs under rtnl_lock, while
 * ubcore takes ubcore_devices_rwsem before rtnl_lock. Until the work has run,
 * the device holds the netdev and its unregistration waits (in
 * netdev_run_todo(), without rtnl_lock). Queued only by the notifier;
 * udma_netdev_exit() flushes it once the notifier is gone.
 */
static void udma_reap_fn(struct work_struct *work)
{
	udma_dev_reap();
}

static DECLARE_WORK(udma_reap_work, udma_reap_fn);

static int udma_netdev_event(struct notifier_block *nb, unsigned long event,
			     void *ptr)
{
	struct net_device *ndev = netdev_notifier_info_to_dev(ptr);

	if (event != NETDEV_UNREGISTER)
		return NOTIFY_DONE;
	if (udma_dev_mark_netdev_gone(ndev))
		schedule_work(&udma_reap_work);
	return NOTIFY_OK;
}

static struct notifier_block udma_netdev_nb = {
	.notifier_call = udma_netdev_event,
};

/**
 * udma_netdev_init() - start following netdevs
 *
 * Return: 0 or the error of register_netdevice_notifier().
 */
int udma_netdev_init(void)
{
	int ret;

	ret = register_netdevice_notifier(&udma_netdev_nb);
	if (ret)
		pr_err("cannot register the netdev notifier: %d\n", ret);
	return ret;
}

/**
 * udma_netdev_exit() - stop following netdevs
 *
 * After udma_dev_remove_all(): unregistering the notifier replays
 * NETDEV_UNREGISTER for every netdev, which then finds no device. When this
 * returns, no notifier call is running and the reaper is idle and will not
 * be queued again. Sleeps.
 */
void udma_netdev_exit(void)
{
	unregister_netdevice_notifier(&udma_netdev_nb);
	flush_work(&udma_reap_work);
}
