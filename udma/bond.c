// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * Bonding devices of udma (include/ub/ubcore_bond.h). A bonding device is
 * a udma device of its own (its own engine, object tables, TPs and their
 * reliable transport) with the bonding EID and no netdev of its own: its
 * UBoE packets leave through the netdevs of its members, the member of
 * each packet chosen by the mode (udma_bond_route()), and always carry
 * their EIDs, so that they reach the peer's bonding device whichever of
 * its members they arrive on. A TP changes member when its member's port
 * goes down and back when it returns; what was in flight on the lost
 * member is sent again by the TP's transport (uboe_rtp.c), which numbers
 * every packet, so nothing is lost or delivered twice.
 *
 * Modes: Standalone sends through member 0 only; ActiveBackup through the
 * first member that is up (member 0 when it is); Balance spreads TPs over
 * the members, TP n (its local TPN, which ubcore gives out in sequence)
 * starting at member n mod the member count and taking the next one up
 * from there.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/err.h>
#include <linux/netdevice.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>

#include <ub/ubcore_bond.h>

#include "udma.h"

/* Whether @ndev can carry packets now. */
static bool udma_bond_port_up(const struct net_device *ndev)
{
	return netif_running(ndev) && netif_carrier_ok(ndev) &&
	       READ_ONCE(ndev->reg_state) == NETREG_REGISTERED;
}

static bool udma_eid_zero(const union ubcore_eid *eid)
{
	return !memchr_inv(eid->raw, 0, sizeof(eid->raw));
}

/* The peers' entry of @eid, or NULL; rcu_read_lock() held. */
static const struct ubcore_bond_peer *
udma_bond_peer(const struct udma_bond *bond, const union ubcore_eid *eid)
{
	const struct udma_bond_peers *peers = rcu_dereference(bond->peers);
	u32 i;

	for (i = 0; peers && i < peers->cnt; i++)
		if (!memcmp(peers->peer[i].eid.raw, eid->raw, sizeof(eid->raw)))
			return &peers->peer[i];
	return NULL;
}

/* Member @i reaches @peer (or any address, with no entry). */
static bool udma_bond_reaches(const struct ubcore_bond_peer *peer, u32 i)
{
	return !peer || !udma_eid_zero(&peer->addr[i]);
}

/* The member the mode sends through, starting at @first; -1 if none. */
static int udma_bond_pick(const struct udma_bond *bond,
			  const struct ubcore_bond_peer *peer, u32 first)
{
	u32 k, i;

	if (bond->mode == UBAGG_BOND_STANDALONE)
		return udma_bond_reaches(peer, 0) ? 0 : -1;
	for (k = 0; k < bond->cnt; k++) {
		i = (first + k) % bond->cnt;
		if (udma_bond_reaches(peer, i) &&
		    udma_bond_port_up(bond->m[i].ndev))
			return i;
	}
	return -1;
}

/**
 * udma_bond_route() - where a bonding device's packet goes
 * @udev: the bonding device
 * @tpn: the local TPN of the packet's TP (0 for a message of no TP)
 * @dst: the packet's destination EID
 * @addr: set to the address to send to: the peer's address on the
 *	chosen member's plane, or @dst itself for an EID not in the peers
 * @oif: set to the ifindex of the chosen member's netdev
 *
 * Counts the packet on the member. Context: any; rcu_read_lock() held.
 *
 * Return: 0, or -ENETDOWN when no member the mode allows is up (or
 * reaches @dst).
 */
int udma_bond_route(struct udma_dev *udev, u32 tpn,
		    const union ubcore_eid *dst, union ubcore_eid *addr,
		    int *oif)
{
	struct udma_bond *bond = udev->bond;
	const struct ubcore_bond_peer *peer = udma_bond_peer(bond, dst);
	u32 first = bond->mode == UBAGG_BOND_BALANCE ? tpn % bond->cnt : 0;
	int i = udma_bond_pick(bond, peer, first);

	if (i < 0)
		return -ENETDOWN;
	*addr = peer ? peer->addr[i] : *dst;
	*oif = bond->m[i].ndev->ifindex;
	atomic64_inc(&bond->m[i].tx_packets);
	return 0;
}

/**
 * udma_bond_alloc() - the bonding part of a device to be
 * @cfg: the configuration ubcore checked
 *
 * Holds each member's netdev. Process context.
 *
 * Return: the bond, or NULL (no memory).
 */
struct udma_bond *udma_bond_alloc(const struct ubcore_bond_cfg *cfg)
{
	u32 i, cnt = cfg->member_cnt;
	struct udma_bond *bond;

	/* ubcore checks the count; a local bound FORTIFY_SOURCE can see too */
	if (WARN_ON_ONCE(cnt > ARRAY_SIZE(bond->m)))
		return NULL;
	bond = kzalloc(sizeof(*bond), GFP_KERNEL);
	if (!bond)
		return NULL;
	bond->mode = cfg->mode;
	bond->cnt = cnt;
	mutex_init(&bond->peers_lock);
	for (i = 0; i < cnt; i++) {
		struct udma_dev *m = to_udma_dev(cfg->members[i]);

		bond->m[i].ndev = m->netdev;
		netdev_hold(m->netdev, &bond->m[i].tracker, GFP_KERNEL);
		/* not strscpy: 6.1's FORTIFY_SOURCE misjudges this member */
		scnprintf(bond->m[i].name, sizeof(bond->m[i].name), "%s",
			  m->ub_dev.dev_name);
	}
	return bond;
}

/**
 * udma_bond_free() - free what udma_bond_alloc() made
 * @bond: the bond, or NULL; no packet is sent through it any more
 */
void udma_bond_free(struct udma_bond *bond)
{
	u32 i;

	if (!bond)
		return;
	for (i = 0; i < bond->cnt; i++)
		netdev_put(bond->m[i].ndev, &bond->m[i].tracker);
	kvfree(rcu_dereference_protected(bond->peers, true));
	kfree(bond);
}

/**
 * udma_bond_uses() - whether a bond sends through a netdev
 * @bond: the bond, or NULL
 * @ndev: the netdev
 *
 * Return: true when @ndev is a member's.
 */
bool udma_bond_uses(const struct udma_bond *bond,
		    const struct net_device *ndev)
{
	u32 i;

	for (i = 0; bond && i < bond->cnt; i++)
		if (bond->m[i].ndev == ndev)
			return true;
	return false;
}

/**
 * udma_bond_port_state() - a bonding device's port
 * @bond: the bond
 *
 * Return: true when a member the mode may send through is up.
 */
bool udma_bond_port_state(const struct udma_bond *bond)
{
	u32 i;

	if (bond->mode == UBAGG_BOND_STANDALONE)
		return udma_bond_port_up(bond->m[0].ndev);
	for (i = 0; i < bond->cnt; i++)
		if (udma_bond_port_up(bond->m[i].ndev))
			return true;
	return false;
}

/* ubcore_ops.set_bond_peers */
int udma_set_bond_peers(struct ubcore_device *ub_dev,
			const struct ubcore_bond_peer *peers, u32 cnt)
{
	struct udma_bond *bond = to_udma_dev(ub_dev)->bond;
	struct udma_bond_peers *new = NULL, *old;

	if (!bond)
		return -EINVAL;
	if (cnt) {
		new = kvmalloc(struct_size(new, peer, cnt), GFP_KERNEL);
		if (!new)
			return -ENOMEM;
		new->cnt = cnt;
		memcpy(new->peer, peers, flex_array_size(new, peer, cnt));
	}
	mutex_lock(&bond->peers_lock);
	old = rcu_replace_pointer(bond->peers, new,
				  lockdep_is_held(&bond->peers_lock));
	mutex_unlock(&bond->peers_lock);
	synchronize_rcu();
	kvfree(old);
	return 0;
}

/* ubcore_ops.query_bond */
int udma_query_bond(struct ubcore_device *ub_dev,
		    struct ubcore_bond_info *info)
{
	struct udma_bond *bond = to_udma_dev(ub_dev)->bond;
	const struct udma_bond_peers *peers;
	int active;
	u32 i;

	if (!bond)
		return -EINVAL;
	info->mode = bond->mode;
	info->member_cnt = bond->cnt;
	rcu_read_lock();
	peers = rcu_dereference(bond->peers);
	info->peer_cnt = peers ? peers->cnt : 0;
	rcu_read_unlock();
	/* what a TP starting at member 0 gets (Balance: every one up) */
	active = udma_bond_pick(bond, NULL, 0);
	for (i = 0; i < bond->cnt; i++) {
		strscpy(info->member[i].name, bond->m[i].name,
			sizeof(info->member[i].name));
		info->member[i].up = udma_bond_port_up(bond->m[i].ndev);
		info->member[i].active =
			bond->mode == UBAGG_BOND_BALANCE ? info->member[i].up :
							   active == (int)i;
		info->member[i].tx_packets =
			atomic64_read(&bond->m[i].tx_packets);
	}
	return 0;
}
