// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * Bonding devices (bonding_dev_0, user guide 6.2) as UMDK's ubagg makes
 * them: CREATE_DEV names a bonding EID of the current node's topology and
 * a device name; the members are the devices that hold the primary EIDs
 * of that aggregated device's UEs (member i for IODie i), and each peer
 * bonding EID of the topology is reached on plane i at the primary EID of
 * its UE i. ubcore and the members' provider build the device
 * (include/ub/ubcore_bond.h); this file keeps which bonding EID made which
 * device and gives the devices their peers again when the topology
 * changes.
 *
 * Locking: ubagg_bond_admin (a mutex) serialises creations, deletions and
 * peer updates; ubagg_bond_lock (a mutex) protects ubagg_bonds and is
 * held for short lookups only, never around a call that registers or
 * unregisters a device, as ubcore calls the client's remove (which takes
 * it) from there. Order: ubagg_bond_admin -> ubcore's locks;
 * ubagg_bond_lock is innermost.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/err.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/vmalloc.h>
#include <ub/ubcore_bond.h>
#include <ub/ubcore_device.h>

#include "ubagg.h"

/**
 * struct ubagg_bond - a bonding device this module created
 * @node: on ubagg_bonds
 * @net: its namespace (the device's; it is removed before the namespace)
 * @eid: its bonding EID
 * @dev: the device, with a reference
 */
struct ubagg_bond {
	struct list_head node;
	struct net *net;
	union ubcore_eid eid;
	struct ubcore_device *dev;
};

static DEFINE_MUTEX(ubagg_bond_admin);	/* see above */
static DEFINE_MUTEX(ubagg_bond_lock);	/* see above */
static LIST_HEAD(ubagg_bonds);		/* ubagg_bond_lock */

/* The record of @eid in @net; ubagg_bond_lock held. */
static struct ubagg_bond *ubagg_bond_find(struct net *net,
					  const union ubcore_eid *eid)
{
	struct ubagg_bond *b;

	lockdep_assert_held(&ubagg_bond_lock);
	list_for_each_entry(b, &ubagg_bonds, node)
		if (net_eq(b->net, net) &&
		    !memcmp(b->eid.raw, eid->raw, sizeof(eid->raw)))
			return b;
	return NULL;
}

static bool ubagg_eid_zero(const u8 *eid)
{
	return !memchr_inv(eid, 0, UBAGG_EID_LEN);
}

/* The current node of @topo, or NULL. */
static const struct ubagg_topo_node *
ubagg_topo_current(const struct ubagg_topo *topo)
{
	u32 n;

	for (n = 0; n < topo->node_num; n++)
		if (topo->nodes[n].is_current)
			return &topo->nodes[n];
	return NULL;
}

/* The aggregated device of @node with bonding EID @eid, or NULL. */
static const struct ubagg_topo_agg_dev *
ubagg_topo_agg(const struct ubagg_topo_node *node, const union ubcore_eid *eid)
{
	u32 d;

	for (d = 0; d < UBAGG_DEV_NUM; d++)
		if (!memcmp(node->agg_devs[d].agg_eid, eid->raw, UBAGG_EID_LEN))
			return &node->agg_devs[d];
	return NULL;
}

/*
 * The peers of a bonding device of @cnt members: every bonding EID of the
 * other nodes, at their UEs' primary EIDs. *@peers is kvfree()'d by the
 * caller (NULL when there are none).
 */
static int ubagg_bond_peers(const struct ubagg_topo *topo, u32 cnt,
			    struct ubcore_bond_peer **peers, u32 *npeers)
{
	const struct ubagg_topo_agg_dev *agg;
	struct ubcore_bond_peer *p;
	u32 n, d, i, k = 0, max = 0;

	*peers = NULL;
	*npeers = 0;
	for (n = 0; topo && n < topo->node_num; n++)
		for (d = 0; d < UBAGG_DEV_NUM; d++)
			if (!topo->nodes[n].is_current &&
			    !ubagg_eid_zero(topo->nodes[n].agg_devs[d].agg_eid))
				max++;
	if (!max)
		return 0;
	p = kvcalloc(max, sizeof(*p), GFP_KERNEL);
	if (!p)
		return -ENOMEM;
	for (n = 0; n < topo->node_num; n++) {
		if (topo->nodes[n].is_current)
			continue;
		for (d = 0; d < UBAGG_DEV_NUM; d++) {
			agg = &topo->nodes[n].agg_devs[d];
			if (ubagg_eid_zero(agg->agg_eid))
				continue;
			memcpy(p[k].eid.raw, agg->agg_eid, UBAGG_EID_LEN);
			for (i = 0; i < cnt && i < UBAGG_IODIE_NUM; i++)
				memcpy(p[k].addr[i].raw, agg->ues[i].primary_eid,
				       UBAGG_EID_LEN);
			k++;
		}
	}
	*peers = p;
	*npeers = k;
	return 0;
}

/* Give @dev (of @cnt members) its peers from @topo; ubagg_bond_admin held. */
static int ubagg_bond_set_peers(struct ubcore_device *dev,
				const struct ubagg_topo *topo)
{
	struct ubcore_bond_peer *peers;
	struct ubcore_bond_info info;
	u32 npeers;
	int ret;

	lockdep_assert_held(&ubagg_bond_admin);
	ret = ubcore_bond_query(dev, &info);
	if (!ret)
		ret = ubagg_bond_peers(topo, info.member_cnt, &peers, &npeers);
	if (ret)
		return ret;
	ret = ubcore_bond_set_peers(dev, peers, npeers);
	kvfree(peers);
	return ret;
}

/**
 * ubagg_bond_create() - UBAGG_CMD_CREATE_DEV
 * @net: the caller's namespace
 * @eid: the bonding EID
 * @name: the device's name (NUL-terminated)
 * @mode: enum ubagg_bond_mode
 *
 * Return: 0 or a negative errno (include/uapi/ub/ubagg_topo.h).
 */
int ubagg_bond_create(struct net *net, const union ubcore_eid *eid,
		      const char *name, u32 mode)
{
	struct ubcore_bond_cfg cfg = {
		.name = name, .net = net, .eid = *eid, .mode = mode,
	};
	const struct ubagg_topo_agg_dev *agg;
	const struct ubagg_topo_node *node;
	struct ubagg_topo *topo;
	struct ubcore_device *dev;
	struct ubagg_bond *b;
	union ubcore_eid primary;
	u32 i;
	int ret;

	if (ubagg_eid_zero(eid->raw) || !name[0] || mode >= UBAGG_BOND_MODE_MAX)
		return -EINVAL;
	b = kzalloc(sizeof(*b), GFP_KERNEL);
	if (!b)
		return -ENOMEM;
	mutex_lock(&ubagg_bond_admin);
	topo = ubagg_topo_get(net);
	node = topo ? ubagg_topo_current(topo) : NULL;
	if (!node) {
		ret = -ENXIO;
		goto out;
	}
	agg = ubagg_topo_agg(node, eid);
	if (!agg) {
		ret = -ENOENT;
		goto out;
	}
	mutex_lock(&ubagg_bond_lock);
	ret = ubagg_bond_find(net, eid) ? -EEXIST : 0;
	mutex_unlock(&ubagg_bond_lock);
	if (ret)
		goto out;
	for (i = 0; i < UBAGG_IODIE_NUM; i++) {
		if (ubagg_eid_zero(agg->ues[i].primary_eid))
			break;
		memcpy(primary.raw, agg->ues[i].primary_eid, UBAGG_EID_LEN);
		cfg.members[i] = ubcore_get_device_by_eid_net(&primary, net);
		if (!cfg.members[i]) {
			pr_warn("no device holds primary EID %pI6c of IODie %u\n",
				primary.raw, i);
			ret = -ENOENT;
			goto put;
		}
		cfg.member_cnt++;
	}
	dev = ubcore_bond_create(&cfg);
	if (IS_ERR(dev)) {
		ret = PTR_ERR(dev);
		goto put;
	}
	ret = ubagg_bond_set_peers(dev, topo);
	if (ret) {
		ubcore_bond_delete(dev);
		ubcore_put_device(dev);
		goto put;
	}
	b->net = net;
	b->eid = *eid;
	b->dev = dev;
	mutex_lock(&ubagg_bond_lock);
	list_add_tail(&b->node, &ubagg_bonds);
	mutex_unlock(&ubagg_bond_lock);
	b = NULL;
	pr_info("%s: bonding EID %pI6c over %u members\n", dev->dev_name,
		eid->raw, cfg.member_cnt);
put:
	for (i = 0; i < cfg.member_cnt; i++)
		ubcore_put_device(cfg.members[i]);
out:
	ubagg_topo_put(topo);
	mutex_unlock(&ubagg_bond_admin);
	kfree(b);
	return ret;
}

/* Take @b off the list and delete its device; ubagg_bond_admin held. */
static void ubagg_bond_destroy(struct ubagg_bond *b)
{
	int ret;

	lockdep_assert_held(&ubagg_bond_admin);
	ret = ubcore_bond_delete(b->dev);
	if (ret && ret != -ENODEV)
		pr_warn("cannot delete %s: %d\n", b->dev->dev_name, ret);
	ubcore_put_device(b->dev);
	kfree(b);
}

/**
 * ubagg_bond_delete() - UBAGG_CMD_DELETE_DEV
 * @net: the caller's namespace
 * @eid: the bonding EID
 *
 * Return: 0, -ENOENT.
 */
int ubagg_bond_delete(struct net *net, const union ubcore_eid *eid)
{
	struct ubagg_bond *b;

	mutex_lock(&ubagg_bond_admin);
	mutex_lock(&ubagg_bond_lock);
	b = ubagg_bond_find(net, eid);
	if (b)
		list_del(&b->node);
	mutex_unlock(&ubagg_bond_lock);
	if (b)
		ubagg_bond_destroy(b);
	mutex_unlock(&ubagg_bond_admin);
	return b ? 0 : -ENOENT;
}

/**
 * ubagg_bond_dev_name() - UBAGG_CMD_GET_DEV_NAME
 * @net: the caller's namespace
 * @eid: a bonding EID
 * @name: set to its device's name
 *
 * Return: 0, -ENOENT.
 */
int ubagg_bond_dev_name(struct net *net, const union ubcore_eid *eid,
			char name[UBAGG_MAX_DEV_NAME_LEN])
{
	struct ubagg_bond *b;

	mutex_lock(&ubagg_bond_lock);
	b = ubagg_bond_find(net, eid);
	if (b)
		strscpy(name, b->dev->dev_name, UBAGG_MAX_DEV_NAME_LEN);
	mutex_unlock(&ubagg_bond_lock);
	return b ? 0 : -ENOENT;
}

/**
 * ubagg_bond_topo_changed() - a namespace's topology was set
 * @net: the namespace
 *
 * Its bonding devices get their peers anew (none without a topology).
 */
void ubagg_bond_topo_changed(struct net *net)
{
	struct ubagg_topo *topo = ubagg_topo_get(net);
	struct ubcore_device **devs = NULL;
	struct ubagg_bond *b;
	u32 n = 0, i;
	int ret;

	mutex_lock(&ubagg_bond_admin);
	/* the devices, held: their provider may remove them meanwhile */
	mutex_lock(&ubagg_bond_lock);
	list_for_each_entry(b, &ubagg_bonds, node)
		n += net_eq(b->net, net);
	if (n)
		devs = kcalloc(n, sizeof(*devs), GFP_KERNEL);
	n = 0;
	list_for_each_entry(b, &ubagg_bonds, node)
		if (devs && net_eq(b->net, net)) {
			get_device(&b->dev->dev);
			devs[n++] = b->dev;
		}
	mutex_unlock(&ubagg_bond_lock);
	for (i = 0; i < n; i++) {
		ret = ubagg_bond_set_peers(devs[i], topo);
		if (ret && ret != -ENODEV)
			pr_warn("%s: peers not updated: %d\n",
				devs[i]->dev_name, ret);
		ubcore_put_device(devs[i]);
	}
	mutex_unlock(&ubagg_bond_admin);
	kfree(devs);
	ubagg_topo_put(topo);
}

/* Delete the devices of @net (every one when @net is NULL). */
static void ubagg_bond_delete_all(struct net *net)
{
	struct ubagg_bond *b;

	mutex_lock(&ubagg_bond_admin);
	for (;;) {
		mutex_lock(&ubagg_bond_lock);
		list_for_each_entry(b, &ubagg_bonds, node)
			if (!net || net_eq(b->net, net))
				goto found;
		b = NULL;
found:
		if (b)
			list_del(&b->node);
		mutex_unlock(&ubagg_bond_lock);
		if (!b)
			break;
		ubagg_bond_destroy(b);
	}
	mutex_unlock(&ubagg_bond_admin);
}

/**
 * ubagg_bond_net_exit() - a namespace goes: its bonding devices with it
 * @net: the namespace
 */
void ubagg_bond_net_exit(struct net *net)
{
	ubagg_bond_delete_all(net);
}

/* A bonding device is watched for its removal by its provider. */
static int ubagg_bond_add(struct ubcore_device *dev)
{
	return dev->is_bond ? 0 : -ENODEV;
}

/*
 * The device goes (its provider removed it, or we did): forget it. Under
 * ubcore's device lock, maybe inside ubagg_bond_destroy() (which took the
 * record off the list before).
 */
static void ubagg_bond_remove(struct ubcore_device *dev, void *client_ctx)
{
	struct ubagg_bond *b, *found = NULL;

	mutex_lock(&ubagg_bond_lock);
	list_for_each_entry(b, &ubagg_bonds, node)
		if (b->dev == dev) {
			found = b;
			list_del(&b->node);
			break;
		}
	mutex_unlock(&ubagg_bond_lock);
	if (found) {
		ubcore_put_device(found->dev);
		kfree(found);
	}
}

static struct ubcore_client ubagg_bond_client = {
	.name = "ubagg_bond",
	.add = ubagg_bond_add,
	.remove = ubagg_bond_remove,
};

/**
 * ubagg_bond_init() - watch the bonding devices
 *
 * Return: 0 or the error of ubcore_register_client().
 */
int ubagg_bond_init(void)
{
	return ubcore_register_client(&ubagg_bond_client);
}

/** ubagg_bond_exit() - delete every bonding device this module made */
void ubagg_bond_exit(void)
{
	ubagg_bond_delete_all(NULL);
	ubcore_unregister_client(&ubagg_bond_client);
}
