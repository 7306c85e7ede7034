// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * What the handshake asks of the host: is the peer in this network
 * namespace, which UB device (ubcore) serves the netdev a connection
 * runs over, with which EID, and which subnets that netdev is on.
 */
#include <linux/inetdevice.h>
#include <net/addrconf.h>
#include <net/dst.h>
#include <net/if_inet6.h>
#include <net/sock.h>

#include <ub/ubcore_device.h>
#include <ub/ubcore_eid.h>

#include "ums.h"

static bool ums_sk_is_v4(const struct sock *sk)
{
	return sk->sk_family == AF_INET ||
	       ipv6_addr_v4mapped(&sk->sk_v6_daddr);
}

/**
 * ums_dev_is_local() - both ends are in this network namespace
 * @clcsk: a connected clcsock
 *
 * Its route goes through loopback: the peer's address is one of ours.
 *
 * Return: true if so.
 */
bool ums_dev_is_local(struct sock *clcsk)
{
	struct dst_entry *dst = sk_dst_get(clcsk);
	bool local = dst && dst->dev && (dst->dev->flags & IFF_LOOPBACK);

	dst_release(dst);
	return local;
}

/* The subnets of @dev the connection's local address is on. */
static int ums_dev_prefixes(struct net_device *dev, struct sock *clcsk,
			    struct ums_clc_prop_info *info)
{
	__be32 saddr = inet_sk(clcsk)->inet_saddr;
	const struct inet6_ifaddr *ifa6;
	const struct in_ifaddr *ifa;
	struct inet6_dev *idev;
	struct in_device *in_dev;
	int rc = -ENOENT;

	rcu_read_lock();
	if (ums_sk_is_v4(clcsk)) {
		in_dev = __in_dev_get_rcu(dev);
		if (in_dev) {
			in_dev_for_each_ifa_rcu(ifa, in_dev) {
				if (!inet_ifa_match(saddr, ifa))
					continue;
				info->subnet = saddr & ifa->ifa_mask;
				info->prefix_len = ifa->ifa_prefixlen;
				rc = 0;
				break;
			}
		}
		rcu_read_unlock();
		return rc;
	}
	idev = __in6_dev_get(dev);
	if (idev) {
		read_lock_bh(&idev->lock);
		list_for_each_entry(ifa6, &idev->addr_list, if_list) {
			if (info->ipv6_cnt == UMS_CLC_MAX_V6_PREFIX)
				break;
			if (ipv6_addr_type(&ifa6->addr) & IPV6_ADDR_LINKLOCAL)
				continue;
			ipv6_addr_prefix(&info->ipv6[info->ipv6_cnt].prefix,
					 &ifa6->addr, ifa6->prefix_len);
			info->ipv6[info->ipv6_cnt++].len = ifa6->prefix_len;
			rc = 0;
		}
		read_unlock_bh(&idev->lock);
	}
	rcu_read_unlock();
	return rc;
}

/**
 * ums_dev_get() - the UB device of the netdev a connection's route uses
 * @clcsk: the connected clcsock
 * @netdev: its netdev, held (dev_put() when done), or NULL
 *
 * Return: the device, held (ubcore_put_device()), or NULL.
 */
struct ubcore_device *ums_dev_get(struct sock *clcsk,
				  struct net_device **netdev)
{
	struct dst_entry *dst = sk_dst_get(clcsk);
	struct ubcore_device *udev = NULL;

	*netdev = NULL;
	if (dst && dst->dev) {
		udev = ubcore_get_device_by_netdev(dst->dev, NULL);
		if (udev) {
			*netdev = dst->dev;
			dev_hold(*netdev);
		}
	}
	dst_release(dst);
	return udev;
}

/**
 * ums_dev_local_info() - what a client proposes
 * @clcsk: its connected clcsock
 * @info: filled with the EID and the subnets (not the peer ID)
 *
 * The EID is the connection's local address as an EID, which the UB
 * device of the route's netdev must hold.
 *
 * Return: 0, or %UMS_CLC_DECL_NOUMSDEV.
 */
int ums_dev_local_info(struct sock *clcsk, struct ums_clc_prop_info *info)
{
	struct ubcore_device *udev, *owner;
	struct net_device *netdev;
	union ubcore_eid eid;
	int rc = UMS_CLC_DECL_NOUMSDEV;

	udev = ums_dev_get(clcsk, &netdev);
	if (!udev)
		return rc;
	if (ums_sk_is_v4(clcsk))
		ubcore_eid_from_ipv4(&eid, inet_sk(clcsk)->inet_saddr);
	else
		memcpy(eid.raw, &clcsk->sk_v6_rcv_saddr, sizeof(eid.raw));
	owner = ubcore_get_device_by_eid_net(&eid, sock_net(clcsk));
	if (owner == udev && !ums_dev_prefixes(netdev, clcsk, info)) {
		memcpy(info->eid, eid.raw, UMS_CLC_EID_LEN);
		rc = 0;
	}
	if (owner)
		ubcore_put_device(owner);
	dev_put(netdev);
	ubcore_put_device(udev);
	return rc;
}

static bool ums_dev_prefix_match(const struct ums_clc_prop_info *mine,
				 const struct ums_clc_prop_info *peer)
{
	int i, j;

	if (mine->prefix_len && mine->prefix_len == peer->prefix_len &&
	    mine->subnet == peer->subnet)
		return true;
	for (i = 0; i < mine->ipv6_cnt; i++)
		for (j = 0; j < peer->ipv6_cnt; j++)
			if (mine->ipv6[i].len == peer->ipv6[j].len &&
			    ipv6_addr_equal(&mine->ipv6[i].prefix,
					    &peer->ipv6[j].prefix))
				return true;
	return false;
}

/**
 * ums_dev_check_peer() - the server's verdict on a valid proposal
 * @clcsk: the connection's clcsock, accepted
 * @peer: the proposal
 *
 * Return: %UMS_CLC_DECL_NOUMSDEV (no UB device serves the netdev the
 * connection arrived on), %UMS_CLC_DECL_DIFFPREFIX (the client is not on
 * one of its subnets), %UMS_CLC_DECL_MEM, or 0: the server may accept.
 */
u32 ums_dev_check_peer(struct sock *clcsk,
		       const struct ums_clc_prop_info *peer)
{
	struct ums_clc_prop_info *mine;
	struct ubcore_device *udev;
	struct net_device *netdev;
	u32 rc = UMS_CLC_DECL_NOUMSDEV;

	udev = ums_dev_get(clcsk, &netdev);
	if (!udev)
		return rc;
	mine = kzalloc(sizeof(*mine), GFP_KERNEL);
	if (!mine)
		rc = UMS_CLC_DECL_MEM;
	else if (ums_dev_prefixes(netdev, clcsk, mine) ||
		 !ums_dev_prefix_match(mine, peer))
		rc = UMS_CLC_DECL_DIFFPREFIX;
	else
		rc = 0;
	kfree(mine);
	dev_put(netdev);
	ubcore_put_device(udev);
	return rc;
}
