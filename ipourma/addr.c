// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * Addresses and endpoints follow the EID table (user guide 7.2 #1): on
 * ubcore's EID_CHANGE events (and when the netdev goes up or IPv6 restarts
 * on it) the sync work gives every EID its well-known jetty and its /64
 * IPv6 address, and takes both away from EIDs that left. The addresses
 * are added and deleted through rtnetlink from a kernel socket in the
 * device's namespace, as "ip -6 addr" would; IPv4-mapped EIDs get no
 * address (IPoURMA is IPv6 only). The address validators refuse any
 * other address on an IPoURMA netdev: the user cannot set them.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/if_addr.h>
#include <linux/inetdevice.h>
#include <linux/net.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <linux/slab.h>
#include <net/addrconf.h>
#include <net/net_namespace.h>
#include <net/sock.h>
#include <kunit/visibility.h>

#include "ipourma.h"

/* The prefix length of an EID address: its /64 routes to the netdev. */
#define IPOURMA_ADDR_PLEN	64

static bool ipourma_eids_has(const struct ipourma_eids *e,
			     const struct in6_addr *a)
{
	u32 i;

	for_each_set_bit(i, e->valid, UBCORE_MAX_EID_CNT)
		if (ipv6_addr_equal(&e->eid[i], a))
			return true;
	return false;
}

/**
 * ipourma_addr_diff() - what to change to go from one EID set to another
 * @have: the addresses on the netdev, by the index they came from
 * @want: the EIDs now, by index
 * @add: set to the indexes of @want whose EID @have lacks
 * @del: set to the indexes of @have whose address @want lacks
 *
 * By value: an EID that moved to another index is neither added nor
 * deleted.
 */
void ipourma_addr_diff(const struct ipourma_eids *have,
		       const struct ipourma_eids *want, unsigned long *add,
		       unsigned long *del)
{
	u32 i;

	bitmap_zero(add, UBCORE_MAX_EID_CNT);
	bitmap_zero(del, UBCORE_MAX_EID_CNT);
	for_each_set_bit(i, want->valid, UBCORE_MAX_EID_CNT)
		if (!ipourma_eids_has(have, &want->eid[i]))
			__set_bit(i, add);
	for_each_set_bit(i, have->valid, UBCORE_MAX_EID_CNT)
		if (!ipourma_eids_has(want, &have->eid[i]))
			__set_bit(i, del);
}
EXPORT_SYMBOL_IF_KUNIT(ipourma_addr_diff);

/*
 * RTM_NEWADDR or RTM_DELADDR of @addr/64 on @ndev, through a kernel
 * rtnetlink socket of @net. The request names the kernel as its
 * destination (NETLINK_SKB_DST), so that rtnetlink checks only the
 * capability of the caller (a kernel worker). Process context, without
 * rtnl_lock (rtnetlink takes it). Returns rtnetlink's errno.
 */
static int ipourma_rtnl_addr(struct net *net, struct net_device *ndev,
			     const struct in6_addr *addr, int type)
{
	struct {
		struct nlmsghdr nh;
		struct ifaddrmsg ifa;
		struct nlattr nla;
		struct in6_addr addr;
	} req = {
		.nh = {
			.nlmsg_len = sizeof(req),
			.nlmsg_type = type,
			.nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK |
				(type == RTM_NEWADDR ? NLM_F_CREATE : 0),
		},
		.ifa = {
			.ifa_family = AF_INET6,
			.ifa_prefixlen = IPOURMA_ADDR_PLEN,
			.ifa_flags = IFA_F_NODAD | IFA_F_PERMANENT,
			.ifa_scope = RT_SCOPE_UNIVERSE,
			.ifa_index = ndev->ifindex,
		},
		.nla = {
			.nla_len = NLA_HDRLEN + sizeof(struct in6_addr),
			.nla_type = IFA_LOCAL,
		},
		.addr = *addr,
	};
	struct sockaddr_nl kernel = { .nl_family = AF_NETLINK };
	struct msghdr msg = {
		.msg_name = &kernel,
		.msg_namelen = sizeof(kernel),
	};
	struct kvec iov = { .iov_base = &req, .iov_len = sizeof(req) };
	struct nlmsghdr *nh;
	struct socket *sock;
	int ret, len;
	void *ack;

	BUILD_BUG_ON(sizeof(req) != NLMSG_HDRLEN + sizeof(struct ifaddrmsg) +
		     NLA_HDRLEN + sizeof(struct in6_addr));
	ack = kmalloc(NLMSG_GOODSIZE, GFP_KERNEL);
	if (!ack)
		return -ENOMEM;
	ret = sock_create_kern(net, AF_NETLINK, SOCK_RAW, NETLINK_ROUTE, &sock);
	if (ret)
		goto out;
	ret = kernel_sendmsg(sock, &msg, &iov, 1, sizeof(req));
	if (ret < 0)
		goto out_sock;
	/* rtnetlink handled the request in sendmsg: the ack is queued */
	memset(&msg, 0, sizeof(msg));
	iov = (struct kvec){ .iov_base = ack, .iov_len = NLMSG_GOODSIZE };
	len = kernel_recvmsg(sock, &msg, &iov, 1, NLMSG_GOODSIZE, MSG_DONTWAIT);
	ret = len < 0 ? len : -EPROTO;
	nh = ack;
	if (len >= (int)NLMSG_SPACE(sizeof(struct nlmsgerr)) &&
	    nh->nlmsg_type == NLMSG_ERROR)
		ret = ((struct nlmsgerr *)nlmsg_data(nh))->error;
out_sock:
	sock_release(sock);
out:
	kfree(ack);
	return ret;
}

/* The EIDs of the device now; IPv4-mapped ones are left out of @addrs. */
static void ipourma_read_eids(struct ipourma_priv *priv,
			      struct ipourma_eids *eids,
			      struct ipourma_eids *addrs)
{
	union ubcore_eid eid;
	u32 i;

	memset(eids, 0, sizeof(*eids));
	memset(addrs, 0, sizeof(*addrs));
	for (i = 0; i < UBCORE_MAX_EID_CNT; i++) {
		if (ubcore_get_eid(priv->ub_dev, i, &eid))
			continue;
		__set_bit(i, eids->valid);
		eids->eid[i] = eid.ip6;
		if (ubcore_eid_is_ipv4(&eid))
			continue;
		__set_bit(i, addrs->valid);
		addrs->eid[i] = eid.ip6;
	}
}

static void ipourma_sync_eps(struct ipourma_priv *priv,
			     const struct ipourma_eids *eids)
{
	struct ipourma_ep *ep;
	u32 i;

	for (i = 0; i < UBCORE_MAX_EID_CNT; i++) {
		ep = rcu_dereference_protected(priv->ep[i],
					       lockdep_is_held(&priv->lock));
		if (ep && (!test_bit(i, eids->valid) ||
			   !ipv6_addr_equal(&ep->eid, &eids->eid[i]))) {
			ipourma_ep_destroy(priv, i);
			ep = NULL;
		}
		if (!ep && test_bit(i, eids->valid))
			ipourma_ep_create(priv, i, &eids->eid[i]);
	}
}

static void ipourma_sync_addrs(struct ipourma_priv *priv,
			       const struct ipourma_eids *want)
{
	DECLARE_BITMAP(add, UBCORE_MAX_EID_CNT);
	DECLARE_BITMAP(del, UBCORE_MAX_EID_CNT);
	struct net_device *ndev = priv->ndev;
	struct net *net;
	int ret;
	u32 i;

	ipourma_addr_diff(&priv->have, want, add, del);
	/* after a restart of IPv6 on the netdev: every address again */
	if (test_and_clear_bit(0, &priv->resync))
		bitmap_copy(add, want->valid, UBCORE_MAX_EID_CNT);
	spin_lock(&priv->addr_lock);
	priv->allowed = *want;
	spin_unlock(&priv->addr_lock);

	/* a namespace on its way out takes the netdev and its addresses */
	net = maybe_get_net(dev_net(ndev));
	if (!net)
		return;
	for_each_set_bit(i, del, UBCORE_MAX_EID_CNT) {
		ret = ipourma_rtnl_addr(net, ndev, &priv->have.eid[i],
					RTM_DELADDR);
		if (ret && ret != -EADDRNOTAVAIL && ret != -ENODEV) {
			netdev_warn(ndev, "delete address %pI6c: %d\n",
				    &priv->have.eid[i], ret);
			ipourma_count(priv, IPOURMA_STAT_ADDR_ERR, 1);
		}
		__clear_bit(i, priv->have.valid);
	}
	for_each_set_bit(i, add, UBCORE_MAX_EID_CNT) {
		ret = ipourma_rtnl_addr(net, ndev, &want->eid[i], RTM_NEWADDR);
		if (ret && ret != -EEXIST) {
			netdev_warn(ndev, "add address %pI6c: %d\n",
				    &want->eid[i], ret);
			ipourma_count(priv, IPOURMA_STAT_ADDR_ERR, 1);
			continue;
		}
	}
	put_net(net);
	priv->have = *want;
}

/**
 * ipourma_sync_work() - bring endpoints and addresses to the EID table
 * @work: the netdev's sync_work
 */
void ipourma_sync_work(struct work_struct *work)
{
	struct ipourma_priv *priv = container_of(work, struct ipourma_priv,
						 sync_work);
	struct ipourma_eids *eids;

	eids = kmalloc_array(2, sizeof(*eids), GFP_KERNEL);
	if (!eids) {
		ipourma_count(priv, IPOURMA_STAT_ADDR_ERR, 1);
		return;
	}
	mutex_lock(&priv->lock);
	if (!priv->dying) {
		ipourma_read_eids(priv, &eids[0], &eids[1]);
		ipourma_sync_eps(priv, &eids[0]);
		ipourma_sync_addrs(priv, &eids[1]);
	}
	mutex_unlock(&priv->lock);
	kfree(eids);
}

/* ubcore's async events of the device: any context, must not sleep. */
void ipourma_eid_event(struct ubcore_event_handler *handler,
		       const struct ubcore_event *event)
{
	struct ipourma_priv *priv = container_of(handler, struct ipourma_priv,
						 eid_handler);

	if (event->type == UBCORE_EVENT_EID_CHANGE)
		queue_work(system_wq, &priv->sync_work);
}

/* An IPv6 address being added to a netdev: under rtnl_lock. */
static int ipourma_inet6_validate(struct notifier_block *nb,
				  unsigned long event, void *ptr)
{
	struct in6_validator_info *info = ptr;
	struct net_device *ndev = info->i6vi_dev->dev;
	struct ipourma_priv *priv;
	bool ok;

	if (event != NETDEV_UP || !ipourma_is_netdev(ndev))
		return NOTIFY_DONE;
	priv = netdev_priv(ndev);
	spin_lock(&priv->addr_lock);
	ok = ipourma_eids_has(&priv->allowed, &info->i6vi_addr);
	spin_unlock(&priv->addr_lock);
	if (ok)
		return NOTIFY_DONE;
	netdev_warn(ndev, "refused address %pI6c: the addresses are the EIDs of %s\n",
		    &info->i6vi_addr, priv->ubdev_name);
	NL_SET_ERR_MSG(info->extack,
		       "IPoURMA: the addresses are the UB device's EIDs");
	return notifier_from_errno(-EPERM);
}

/* An IPv4 address being added to a netdev: IPoURMA is IPv6 only. */
static int ipourma_inet_validate(struct notifier_block *nb,
				 unsigned long event, void *ptr)
{
	struct in_validator_info *info = ptr;
	struct net_device *ndev = info->ivi_dev->dev;

	if (event != NETDEV_UP || !ipourma_is_netdev(ndev))
		return NOTIFY_DONE;
	netdev_warn(ndev, "refused IPv4 address %pI4: IPoURMA is IPv6 only\n",
		    &info->ivi_addr);
	NL_SET_ERR_MSG(info->extack, "IPoURMA: IPv6 only");
	return notifier_from_errno(-EPERM);
}

static struct notifier_block ipourma_inet6_nb = {
	.notifier_call = ipourma_inet6_validate,
};

static struct notifier_block ipourma_inet_nb = {
	.notifier_call = ipourma_inet_validate,
};

/**
 * ipourma_addr_register() - install the address validators
 *
 * Return: 0 or a negative errno.
 */
int ipourma_addr_register(void)
{
	int ret;

	ret = register_inet6addr_validator_notifier(&ipourma_inet6_nb);
	if (ret)
		return ret;
	ret = register_inetaddr_validator_notifier(&ipourma_inet_nb);
	if (ret)
		unregister_inet6addr_validator_notifier(&ipourma_inet6_nb);
	return ret;
}

/** ipourma_addr_unregister() - remove them */
void ipourma_addr_unregister(void)
{
	unregister_inetaddr_validator_notifier(&ipourma_inet_nb);
	unregister_inet6addr_validator_notifier(&ipourma_inet6_nb);
}
