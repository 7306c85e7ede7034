// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * Bonding devices (include/ub/ubcore_bond.h): ubcore checks what a client
 * (ubagg.ko) asks for and hands it to the members' provider, which builds
 * the device and chooses the member of each packet.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/err.h>
#include <linux/export.h>
#include <linux/string.h>

#include <ub/ubcore_bond.h>

#include "ubcore_priv.h"

/* Whether @cfg's members may make a bonding device; rwsem held (read). */
static int ubcore_bond_check(const struct ubcore_bond_cfg *cfg)
{
	const struct ubcore_ops *ops = cfg->members[0]->ops;
	u32 i, j;

	for (i = 0; i < cfg->member_cnt; i++) {
		struct ubcore_device *m = cfg->members[i];

		if (!m->registered)
			return -ENODEV;
		if (m->ops != ops || ubcore_dev_is_logical(m) || m->is_bond ||
		    !net_eq(ubcore_dev_net(m), cfg->net) ||
		    !net_eq(ubcore_dev_host_net(m), cfg->net))
			return -EINVAL;
		for (j = 0; j < i; j++)
			if (cfg->members[j] == m)
				return -EINVAL;
	}
	return ops->add_bond ? 0 : -EOPNOTSUPP;
}

/**
 * ubcore_bond_create() - create a bonding device
 * @cfg: its name, namespace, bonding EID, mode and members (the caller
 *	holds a reference to each)
 *
 * The members' provider creates and registers the device (its
 * ubcore_ops.add_bond); it then gets @cfg->eid at index 0 of its (static)
 * EID table. Process context; sleeps.
 *
 * Return: the device, with a reference the caller drops with
 * ubcore_put_device(), or an ERR_PTR: -EINVAL (a bad configuration: a
 * mode out of range, fewer than two members, members of different
 * providers or namespaces, a logical or bonding member, a zero EID),
 * -ENODEV (a member going away), -EOPNOTSUPP (the provider has none),
 * -EEXIST (the name or the EID is taken), or the provider's error.
 */
struct ubcore_device *ubcore_bond_create(const struct ubcore_bond_cfg *cfg)
{
	static const union ubcore_eid zero;
	struct ubcore_device *bond, *other;
	int ret;

	if (!cfg || !cfg->name || !cfg->net || cfg->mode >= UBAGG_BOND_MODE_MAX ||
	    cfg->member_cnt < 2 || cfg->member_cnt > UBCORE_BOND_MAX_MEMBERS ||
	    !memcmp(cfg->eid.raw, zero.raw, sizeof(zero.raw)))
		return ERR_PTR(-EINVAL);
	other = ubcore_get_device_by_eid_net(&cfg->eid, cfg->net);
	if (other) {
		ubcore_put_device(other);
		return ERR_PTR(-EEXIST);
	}
	down_read(&ubcore_devices_rwsem);
	ret = ubcore_bond_check(cfg);
	up_read(&ubcore_devices_rwsem);
	if (ret)
		return ERR_PTR(ret);

	/* the provider registers it: no ubcore lock may be held here */
	bond = cfg->members[0]->ops->add_bond(cfg);
	if (IS_ERR(bond))
		return bond;
	get_device(&bond->dev);
	ret = ubcore_add_static_eid(bond, 0, &cfg->eid);
	if (ret) {
		dev_warn(&bond->dev, "cannot take its bonding EID: %d\n", ret);
		ubcore_bond_delete(bond);
		ubcore_put_device(bond);
		return ERR_PTR(ret);
	}
	return bond;
}
EXPORT_SYMBOL_GPL(ubcore_bond_create);

/**
 * ubcore_bond_delete() - delete a bonding device
 * @bond: the device; the caller holds a reference
 *
 * Unregisters it (its provider's dellink): its objects are destroyed as
 * for any device removed. Process context; sleeps; takes no ubcore lock
 * before the provider's.
 *
 * Return: 0, -EINVAL (not a bonding device), -ENODEV (already going).
 */
int ubcore_bond_delete(struct ubcore_device *bond)
{
	if (!bond->is_bond || !bond->ops->dellink)
		return -EINVAL;
	return bond->ops->dellink(bond);
}
EXPORT_SYMBOL_GPL(ubcore_bond_delete);

/**
 * ubcore_bond_set_peers() - tell a bonding device how to reach its peers
 * @bond: the device
 * @peers: @cnt peer bonding EIDs with their address on each plane
 * @cnt: entries; 0 clears them
 *
 * Replaces what the device knew. A peer that is not in the table is
 * reached at its EID itself through the member the mode chooses.
 * Process context; sleeps.
 *
 * Return: 0, -EINVAL, -ENOMEM, -ENODEV.
 */
int ubcore_bond_set_peers(struct ubcore_device *bond,
			  const struct ubcore_bond_peer *peers, u32 cnt)
{
	int ret;

	if (!bond->is_bond || !bond->ops->set_bond_peers || (cnt && !peers))
		return -EINVAL;
	ret = ubcore_device_get_live(bond);
	if (ret)
		return ret;
	ret = bond->ops->set_bond_peers(bond, peers, cnt);
	ubcore_device_put_live(bond);
	return ret;
}
EXPORT_SYMBOL_GPL(ubcore_bond_set_peers);

/**
 * ubcore_bond_query() - a bonding device's mode and members now
 * @bond: the device
 * @info: filled in
 *
 * Any process context; does not take ubcore's device lock.
 *
 * Return: 0, -EINVAL (not a bonding device).
 */
int ubcore_bond_query(struct ubcore_device *bond,
		      struct ubcore_bond_info *info)
{
	if (!bond->is_bond || !bond->ops->query_bond)
		return -EINVAL;
	memset(info, 0, sizeof(*info));
	return bond->ops->query_bond(bond, info);
}
EXPORT_SYMBOL_GPL(ubcore_bond_query);
