// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * ipourma.ko: IP over URMA (user guide 7.2), a ubcore client. Each UB
 * device gets one netdev, "ipourma<N>" in the device's network namespace
 * (N counts within the namespace; sysfs "ubdev" names the UB device):
 * IFF_NOARP, no broadcast or multicast, IPv6 only, MTU 4094 by default and
 * [68, 4094] settable, whose addresses are the device's EIDs. Data-plane
 * counters in sysfs: query_ipourma_stats, and reset_ipourma_stats to
 * which "reset all status" clears them.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/if_arp.h>
#include <linux/module.h>
#include <linux/rtnetlink.h>
#include <linux/string.h>
#include <linux/sysfs.h>
#include <kunit/visibility.h>

#include "ipourma.h"

/* Seconds an unused peer stays imported. */
static unsigned int peer_age_secs = 300;
module_param(peer_age_secs, uint, 0444);
MODULE_PARM_DESC(peer_age_secs, "seconds an unused peer jetty stays imported (default 300)");

/* How packets travel: "um" (one packet a UM message) or "rm" (TSO). */
static char *trans_mode = "um";
module_param(trans_mode, charp, 0444);
MODULE_PARM_DESC(trans_mode, "um: each packet a UM SEND (UMDK's way, default); rm: RM SENDs of up to 64 KiB packets, with TSO and checksum offload (every host must use rm)");
static bool ipourma_rm;

/*
 * The netdevs' frees (ipourma_free_work()) and the peers' imports: an
 * import may wait seconds for a peer that does not answer, so imports run
 * side by side (max_active), each peer its own work item.
 */
static struct workqueue_struct *ipourma_wq;

/* The sysfs names of enum ipourma_stat. */
const char * const ipourma_stat_names[IPOURMA_STAT_MAX] = {
	[IPOURMA_STAT_TX_PACKETS] = "tx_packets",
	[IPOURMA_STAT_TX_BYTES] = "tx_bytes",
	[IPOURMA_STAT_TX_COMP_ERR] = "tx_completion_errors",
	[IPOURMA_STAT_TX_POST_ERR] = "tx_post_errors",
	[IPOURMA_STAT_TX_DROP_NOT_IPV6] = "tx_dropped_not_ipv6",
	[IPOURMA_STAT_TX_DROP_MCAST] = "tx_dropped_multicast",
	[IPOURMA_STAT_TX_DROP_NO_SRC_EID] = "tx_dropped_no_source_eid",
	[IPOURMA_STAT_TX_DROP_PEER] = "tx_dropped_peer",
	[IPOURMA_STAT_TX_QUEUE_STOP] = "tx_queue_stopped",
	[IPOURMA_STAT_TX_QUEUE_WAKE] = "tx_queue_woken",
	[IPOURMA_STAT_TX_GSO] = "tx_gso_packets",
	[IPOURMA_STAT_TX_LINEARIZED] = "tx_linearized",
	[IPOURMA_STAT_TX_DROP_OFFLOAD] = "tx_dropped_offload",
	[IPOURMA_STAT_TX_RECOVER] = "tx_recoveries",
	[IPOURMA_STAT_RX_PACKETS] = "rx_packets",
	[IPOURMA_STAT_RX_BYTES] = "rx_bytes",
	[IPOURMA_STAT_RX_COMP_ERR] = "rx_completion_errors",
	[IPOURMA_STAT_RX_BAD_HDR] = "rx_bad_header",
	[IPOURMA_STAT_RX_NO_SKB] = "rx_no_skb",
	[IPOURMA_STAT_RX_STALE] = "rx_stale",
	[IPOURMA_STAT_RX_POST_ERR] = "rx_post_errors",
	[IPOURMA_STAT_RX_GSO] = "rx_gso_packets",
	[IPOURMA_STAT_RX_BAD_META] = "rx_bad_offload",
	[IPOURMA_STAT_RX_PAGE_ALLOC] = "rx_pages_allocated",
	[IPOURMA_STAT_PEER_IMPORT] = "peer_imports",
	[IPOURMA_STAT_PEER_IMPORT_ERR] = "peer_import_errors",
	[IPOURMA_STAT_PEER_AGED] = "peer_aged",
	[IPOURMA_STAT_PEER_QUEUED] = "peer_queued_packets",
	[IPOURMA_STAT_PEER_OTHER_JETTY] = "peer_other_jetty",
	[IPOURMA_STAT_EP_ERR] = "jetty_errors",
	[IPOURMA_STAT_ADDR_ERR] = "address_errors",
};
EXPORT_SYMBOL_IF_KUNIT(ipourma_stat_names);

static u64 ipourma_stat(struct ipourma_priv *priv, enum ipourma_stat s)
{
	return atomic64_read(&priv->stats[s]);
}

static int ipourma_open(struct net_device *ndev)
{
	struct ipourma_priv *priv = netdev_priv(ndev);

	if (!priv->ub_dev)
		return -ENODEV;
	napi_enable(&priv->napi);
	ipourma_rearm(priv);
	netif_start_queue(ndev);
	/* IPv6 dropped the addresses when the netdev went down */
	set_bit(0, &priv->resync);
	queue_work(system_wq, &priv->sync_work);
	return 0;
}

static int ipourma_stop(struct net_device *ndev)
{
	struct ipourma_priv *priv = netdev_priv(ndev);

	netif_stop_queue(ndev);
	napi_disable(&priv->napi);
	return 0;
}

/*
 * The core refuses an MTU outside [min_mtu, max_mtu] = [68, 4094] with
 * -EINVAL before this is called. Below IPv6's minimum (1280) IPv6 stops on
 * the netdev and drops its addresses; the sync puts them back once it
 * runs again.
 */
static int ipourma_change_mtu(struct net_device *ndev, int mtu)
{
	struct ipourma_priv *priv = netdev_priv(ndev);

	WRITE_ONCE(ndev->mtu, mtu);
	/* (the sync work does nothing once the device is going) */
	if (priv->ub_dev) {
		set_bit(0, &priv->resync);
		queue_work(system_wq, &priv->sync_work);
	}
	return 0;
}

static void ipourma_get_stats64(struct net_device *ndev,
				struct rtnl_link_stats64 *s)
{
	struct ipourma_priv *priv = netdev_priv(ndev);

	s->tx_packets = ipourma_stat(priv, IPOURMA_STAT_TX_PACKETS);
	s->tx_bytes = ipourma_stat(priv, IPOURMA_STAT_TX_BYTES);
	s->tx_errors = ipourma_stat(priv, IPOURMA_STAT_TX_COMP_ERR) +
		       ipourma_stat(priv, IPOURMA_STAT_TX_POST_ERR);
	s->tx_dropped = ipourma_stat(priv, IPOURMA_STAT_TX_DROP_NOT_IPV6) +
			ipourma_stat(priv, IPOURMA_STAT_TX_DROP_MCAST) +
			ipourma_stat(priv, IPOURMA_STAT_TX_DROP_OFFLOAD) +
			ipourma_stat(priv, IPOURMA_STAT_TX_DROP_NO_SRC_EID) +
			ipourma_stat(priv, IPOURMA_STAT_TX_DROP_PEER);
	s->rx_packets = ipourma_stat(priv, IPOURMA_STAT_RX_PACKETS);
	s->rx_bytes = ipourma_stat(priv, IPOURMA_STAT_RX_BYTES);
	s->rx_errors = ipourma_stat(priv, IPOURMA_STAT_RX_COMP_ERR) +
		       ipourma_stat(priv, IPOURMA_STAT_RX_BAD_HDR) +
		       ipourma_stat(priv, IPOURMA_STAT_RX_BAD_META);
	s->rx_dropped = ipourma_stat(priv, IPOURMA_STAT_RX_NO_SKB);
}

static const struct net_device_ops ipourma_netdev_ops = {
	.ndo_open = ipourma_open,
	.ndo_stop = ipourma_stop,
	.ndo_start_xmit = ipourma_xmit,
	.ndo_change_mtu = ipourma_change_mtu,
	.ndo_get_stats64 = ipourma_get_stats64,
};

/**
 * ipourma_is_netdev() - whether a netdev is an IPoURMA one
 * @ndev: the netdev
 *
 * Return: true if it is.
 */
bool ipourma_is_netdev(const struct net_device *ndev)
{
	return ndev->netdev_ops == &ipourma_netdev_ops;
}

static ssize_t query_ipourma_stats_show(struct device *d,
					struct device_attribute *attr,
					char *buf)
{
	struct ipourma_priv *priv = netdev_priv(to_net_dev(d));
	int i, len = 0;

	for (i = 0; i < IPOURMA_STAT_MAX; i++)
		len += sysfs_emit_at(buf, len, "%s: %llu\n",
				     ipourma_stat_names[i],
				     ipourma_stat(priv, i) -
				     atomic64_read(&priv->stats_base[i]));
	return len;
}
static DEVICE_ATTR_RO(query_ipourma_stats);

/* The guide's command: echo "reset all status" > reset_ipourma_stats. */
static ssize_t reset_ipourma_stats_store(struct device *d,
					 struct device_attribute *attr,
					 const char *buf, size_t count)
{
	struct net_device *ndev = to_net_dev(d);
	struct ipourma_priv *priv = netdev_priv(ndev);
	int i;

	if (!sysfs_streq(buf, "reset all status")) {
		netdev_warn(ndev, "reset_ipourma_stats: write \"reset all status\"\n");
		return -EINVAL;
	}
	for (i = 0; i < IPOURMA_STAT_MAX; i++)
		atomic64_set(&priv->stats_base[i], ipourma_stat(priv, i));
	return count;
}
static DEVICE_ATTR_WO(reset_ipourma_stats);

static ssize_t ubdev_show(struct device *d, struct device_attribute *attr,
			  char *buf)
{
	struct ipourma_priv *priv = netdev_priv(to_net_dev(d));

	return sysfs_emit(buf, "%s\n", priv->ubdev_name);
}
static DEVICE_ATTR_RO(ubdev);

static struct attribute *ipourma_attrs[] = {
	&dev_attr_query_ipourma_stats.attr,
	&dev_attr_reset_ipourma_stats.attr,
	&dev_attr_ubdev.attr,
	NULL,
};

static const struct attribute_group ipourma_group = {
	.attrs = ipourma_attrs,
};

static void ipourma_age_work(struct work_struct *work)
{
	struct ipourma_priv *priv = container_of(to_delayed_work(work),
						 struct ipourma_priv,
						 age_work);

	ipourma_peer_age(&priv->peers, jiffies);
	queue_delayed_work(system_wq, &priv->age_work, priv->peers.age / 2 + 1);
}

static void ipourma_setup(struct net_device *ndev)
{
	struct ipourma_priv *priv = netdev_priv(ndev);

	ndev->netdev_ops = &ipourma_netdev_ops;
	/* no ARPHRD for UB; one IPv6 autoconfiguration does not know */
	ndev->type = ARPHRD_VOID;
	ndev->flags = IFF_NOARP;
	ndev->mtu = IPOURMA_MTU_DEFAULT;
	ndev->min_mtu = IPOURMA_MTU_MIN;
	ndev->max_mtu = IPOURMA_MTU_MAX;
	ndev->hard_header_len = 0;
	ndev->needed_headroom = IPOURMA_HDR_LEN;
	ndev->addr_len = 0;
	ndev->tx_queue_len = 1000;
	/* the netdev lives and dies with its UB device, in its namespace */
	ndev->features |= NETIF_F_NETNS_LOCAL;
	ndev->sysfs_groups[0] = &ipourma_group;

	memset(priv, 0, sizeof(*priv));
	priv->ndev = ndev;
	priv->rm = ipourma_rm;
	if (priv->rm) {
		/*
		 * The receiver does what the sender leaves (dp.c); a packet
		 * up to 64 KiB is one message.
		 */
		ndev->hw_features |= NETIF_F_SG | NETIF_F_HW_CSUM |
				     NETIF_F_TSO6;
		ndev->features |= ndev->hw_features;
		priv->msg_max = IPOURMA_RM_MSG_MAX;
		priv->rx_depth = IPOURMA_RM_RX_DEPTH;
	} else {
		priv->msg_max = IPOURMA_MSG_MAX;
		priv->rx_depth = IPOURMA_RX_DEPTH;
	}
	INIT_WORK(&priv->tx_recover_work, ipourma_tx_recover_work);
	mutex_init(&priv->lock);
	spin_lock_init(&priv->addr_lock);
	INIT_WORK(&priv->sync_work, ipourma_sync_work);
	INIT_DELAYED_WORK(&priv->age_work, ipourma_age_work);
	priv->eid_handler.event_handler = ipourma_eid_event;
	ipourma_peer_cache_init(&priv->peers, &ipourma_peer_ops, priv,
				(unsigned long)peer_age_secs * HZ,
				priv->stats, ipourma_wq);
}

/**
 * ipourma_alloc_netdev() - an IPoURMA netdev, not registered
 * @ub_dev: its UB device, or NULL (KUnit: the netdev cannot go up)
 *
 * Context: process context, may sleep.
 * Return: the netdev (free_netdev() it), or NULL.
 */
struct net_device *ipourma_alloc_netdev(struct ubcore_device *ub_dev)
{
	struct ipourma_priv *priv;
	struct net_device *ndev;

	ndev = alloc_netdev(sizeof(struct ipourma_priv), "ipourma%d",
			    NET_NAME_ENUM, ipourma_setup);
	if (!ndev)
		return NULL;
	priv = netdev_priv(ndev);
	priv->ub_dev = ub_dev;
	if (ub_dev)
		strscpy(priv->ubdev_name, ub_dev->dev_name,
			sizeof(priv->ubdev_name));
	return ndev;
}
EXPORT_SYMBOL_IF_KUNIT(ipourma_alloc_netdev);

static struct ubcore_client ipourma_client;

static int ipourma_add(struct ubcore_device *dev)
{
	struct ipourma_priv *priv;
	struct net_device *ndev;
	int ret;

	if (dev->cap.reserved_jetty_id_max <
	    IPOURMA_JETTY_BASE + UBCORE_MAX_EID_CNT - 1) {
		pr_warn("%s: well-known jetties end at %u, IPoURMA needs %u..%u\n",
			dev->dev_name, dev->cap.reserved_jetty_id_max,
			IPOURMA_JETTY_BASE,
			IPOURMA_JETTY_BASE + UBCORE_MAX_EID_CNT - 1);
		return -EOPNOTSUPP;
	}
	if (!(dev->cap.trans_mode & (ipourma_rm ? UBCORE_TM_RM :
				     UBCORE_TM_UM))) {
		pr_warn("%s: no %s transport\n", dev->dev_name,
			ipourma_rm ? "RM" : "UM");
		return -EOPNOTSUPP;
	}
	ndev = ipourma_alloc_netdev(dev);
	if (!ndev)
		return -ENOMEM;
	priv = netdev_priv(ndev);
	dev_net_set(ndev, ubcore_dev_net(dev));
	netif_napi_add(ndev, &priv->napi, ipourma_poll);
	ret = ipourma_dp_init(priv);
	if (ret)
		goto err_free;
	ret = register_netdev(ndev);
	if (ret) {
		pr_warn("%s: register netdev: %d\n", dev->dev_name, ret);
		goto err_dp;
	}
	ubcore_register_event_handler(dev, &priv->eid_handler);
	ubcore_set_client_ctx(dev, &ipourma_client, priv);
	queue_work(system_wq, &priv->sync_work);
	queue_delayed_work(system_wq, &priv->age_work, priv->peers.age / 2 + 1);
	netdev_info(ndev, "IPoURMA on %s\n", dev->dev_name);
	return 0;

err_dp:
	ipourma_dp_fini(priv);
err_free:
	netif_napi_del(&priv->napi);
	free_netdev(ndev);
	return ret;
}

/*
 * Unregister and free the netdev of a removed device, from ipourma_wq:
 * unregistering waits for the netdev's references, some of which ubcore's
 * netdev notifier works hold until ubcore_devices_rwsem, which ubcore holds
 * around the remove callback, is free again.
 */
static void ipourma_free_work(struct work_struct *work)
{
	struct ipourma_priv *priv = container_of(work, struct ipourma_priv,
						 free_work);
	struct net_device *ndev = priv->ndev;

	/* the namespace's end may have unregistered it already */
	rtnl_lock();
	if (ndev->reg_state == NETREG_REGISTERED)
		unregister_netdevice(ndev);
	rtnl_unlock();
	/* no open or MTU change queues a sync any more */
	cancel_work_sync(&priv->sync_work);
	netif_napi_del(&priv->napi);
	free_netdev(ndev);
}

/*
 * The device goes: its objects go now, the netdev (closed and detached,
 * so that it cannot be opened again) a little later, from ipourma_wq.
 */
static void ipourma_remove(struct ubcore_device *dev, void *ctx)
{
	struct ipourma_priv *priv = ctx;
	struct net_device *ndev = priv->ndev;
	u32 i;

	ubcore_unregister_event_handler(dev, &priv->eid_handler);
	mutex_lock(&priv->lock);
	priv->dying = true;
	mutex_unlock(&priv->lock);
	cancel_work_sync(&priv->sync_work);
	cancel_delayed_work_sync(&priv->age_work);
	/* no xmit, no NAPI poll after this (dev_close waits for them) */
	rtnl_lock();
	dev_close(ndev);
	netif_device_detach(ndev);
	rtnl_unlock();
	/* no xmit starts an import, no open or MTU change a sync */
	cancel_work_sync(&priv->sync_work);
	/* no NAPI poll queues a TX recovery */
	cancel_work_sync(&priv->tx_recover_work);
	ipourma_peer_cache_flush(&priv->peers);
	mutex_lock(&priv->lock);
	for (i = 0; i < UBCORE_MAX_EID_CNT; i++)
		ipourma_ep_destroy(priv, i);
	mutex_unlock(&priv->lock);
	ipourma_dp_fini(priv);
	INIT_WORK(&priv->free_work, ipourma_free_work);
	queue_work(ipourma_wq, &priv->free_work);
}

static struct ubcore_client ipourma_client = {
	.name = "ipourma",
	.add = ipourma_add,
	.remove = ipourma_remove,
};

static int __init ipourma_init(void)
{
	int ret;

	if (!peer_age_secs) {
		pr_err("peer_age_secs must be at least 1\n");
		return -EINVAL;
	}
	if (!strcmp(trans_mode, "rm")) {
		ipourma_rm = true;
	} else if (strcmp(trans_mode, "um")) {
		pr_err("trans_mode must be um or rm, not %s\n", trans_mode);
		return -EINVAL;
	}
	ipourma_wq = alloc_workqueue("ipourma", 0, 0);
	if (!ipourma_wq)
		return -ENOMEM;
	ret = ipourma_addr_register();
	if (ret)
		goto err_wq;
	ret = ubcore_register_client(&ipourma_client);
	if (ret)
		goto err_addr;
	return 0;

err_addr:
	ipourma_addr_unregister();
err_wq:
	destroy_workqueue(ipourma_wq);
	return ret;
}

static void __exit ipourma_exit(void)
{
	ubcore_unregister_client(&ipourma_client);
	/* the netdevs of the removed devices */
	destroy_workqueue(ipourma_wq);
	ipourma_addr_unregister();
}

module_init(ipourma_init);
module_exit(ipourma_exit);

MODULE_DESCRIPTION("IP over URMA: an IPv6 netdev per UB device");
MODULE_AUTHOR("The UB/URMA stack authors");
MODULE_LICENSE("GPL");
