// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * The EID index: every EID of every registered device, for the data
 * path's lookup of the device that owns a destination EID
 * (ubcore_get_device_by_eid()), which must not sleep nor walk lists.
 *
 * A hash table of struct ubcore_eid_node, one node per valid slot of a
 * registered device's EID table (dev->eid_node[slot]).
 * Readers: rcu_read_lock() only; they take the device's reference with
 * get_device() before leaving the read side.
 * Writers: ubcore_eid_index_sync(), under the device's eid_lock (so the
 * table it mirrors and dev->eid_node[] cannot change meanwhile), edit the
 * hash chains with the _rcu primitives under ubcore_eid_index_lock. A
 * node is freed with kfree_rcu(). A device leaves the index in
 * ubcore_unregister_device(), which then waits for a grace period: no
 * reader can still be about to take a reference on a device whose
 * registration ended.
 */
#include <linux/hashtable.h>
#include <linux/jhash.h>
#include <linux/rculist.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/string.h>

#include "ubcore_priv.h"

#define UBCORE_EID_INDEX_BITS	8

/**
 * struct ubcore_eid_node - one EID of one device in the index
 * @node: in its hash chain; ubcore_eid_index_lock (writers), RCU
 *	(readers)
 * @eid: the EID, as in the device's table when the node was added
 * @dev: the device; valid while the node is in the index
 * @rcu: freed after a grace period
 */
struct ubcore_eid_node {
	struct hlist_node node;
	union ubcore_eid eid;
	struct ubcore_device *dev;
	struct rcu_head rcu;
};

/* The hash chains: RCU for readers, ubcore_eid_index_lock for writers. */
static DEFINE_HASHTABLE(ubcore_eid_index, UBCORE_EID_INDEX_BITS);
static DEFINE_SPINLOCK(ubcore_eid_index_lock);

static u32 ubcore_eid_key(const union ubcore_eid *eid)
{
	return jhash(eid->raw, sizeof(eid->raw), 0);
}

static void ubcore_eid_index_del(struct ubcore_device *dev, u32 slot)
{
	struct ubcore_eid_node *n = dev->eid_node[slot];

	spin_lock(&ubcore_eid_index_lock);
	hash_del_rcu(&n->node);
	spin_unlock(&ubcore_eid_index_lock);
	dev->eid_node[slot] = NULL;
	kfree_rcu(n, rcu);
}

static void ubcore_eid_index_add(struct ubcore_device *dev, u32 slot)
{
	struct ubcore_eid_node *n;

	n = kzalloc(sizeof(*n), GFP_KERNEL);
	/* Out of memory: the EID is not reachable until the next change. */
	if (!n)
		return;
	n->eid = dev->eid_table[slot].eid;
	n->dev = dev;
	spin_lock(&ubcore_eid_index_lock);
	/* After the nodes there: the first device to have an EID wins. */
	hlist_add_tail_rcu(&n->node,
			   &ubcore_eid_index[hash_min(ubcore_eid_key(&n->eid),
						      UBCORE_EID_INDEX_BITS)]);
	spin_unlock(&ubcore_eid_index_lock);
	dev->eid_node[slot] = n;
}

/**
 * ubcore_eid_index_sync() - make a device's nodes in the index follow its
 *	EID table
 * @dev: the device; the caller holds @dev->eid_lock
 *
 * A device with @dev->eid_indexed has one node per valid slot; one
 * without has none. Context: process context (allocates).
 */
void ubcore_eid_index_sync(struct ubcore_device *dev)
{
	const struct ubcore_eid_entry *e;
	struct ubcore_eid_node *n;
	bool want;
	u32 i;

	lockdep_assert_held(&dev->eid_lock);
	for (i = 0; i < UBCORE_MAX_EID_CNT; i++) {
		e = &dev->eid_table[i];
		n = dev->eid_node[i];
		want = dev->eid_indexed && e->valid;
		if (n && (!want || memcmp(n->eid.raw, e->eid.raw,
					  sizeof(e->eid.raw))))
			ubcore_eid_index_del(dev, i);
		if (want && !dev->eid_node[i])
			ubcore_eid_index_add(dev, i);
	}
}

/**
 * ubcore_eid_index_set() - a device enters or leaves the index
 * @dev: the device
 * @on: its registration begins (true) or ends (false)
 *
 * Leaving waits for a grace period. Context: process context; sleeps.
 */
void ubcore_eid_index_set(struct ubcore_device *dev, bool on)
{
	mutex_lock(&dev->eid_lock);
	dev->eid_indexed = on;
	ubcore_eid_index_sync(dev);
	mutex_unlock(&dev->eid_lock);
	if (!on)
		synchronize_rcu();
}

/*
 * The first device of the index with @eid, on the host @net
 * (ubcore_dev_host_net()) unless @net is NULL.
 */
static struct ubcore_device *eid_index_get(const union ubcore_eid *eid,
					   const struct net *net)
{
	struct ubcore_device *found = NULL;
	struct ubcore_eid_node *n;

	if (!eid)
		return NULL;
	rcu_read_lock();
	hash_for_each_possible_rcu(ubcore_eid_index, n, node,
				   ubcore_eid_key(eid)) {
		if (!memcmp(n->eid.raw, eid->raw, sizeof(eid->raw)) &&
		    (!net || net_eq(ubcore_dev_host_net(n->dev), net))) {
			found = n->dev;
			get_device(&found->dev);
			break;
		}
	}
	rcu_read_unlock();
	return found;
}

/**
 * ubcore_get_device_by_eid() - the registered device that has an EID
 * @eid: the EID
 *
 * A lookup in the EID index under RCU. If several devices have @eid, the
 * one that had it first wins.
 *
 * Context: any context; does not sleep.
 * Return: the device with a reference (drop it with ubcore_put_device()),
 * or NULL. The device may be unregistering by the time it is used; its
 * tables stay valid while the reference is held.
 */
struct ubcore_device *ubcore_get_device_by_eid(const union ubcore_eid *eid)
{
	return eid_index_get(eid, NULL);
}
EXPORT_SYMBOL_GPL(ubcore_get_device_by_eid);

/**
 * ubcore_get_device_by_eid_net() - the registered device of a network
 *	namespace that has an EID
 * @eid: the EID
 * @net: the namespace
 *
 * As ubcore_get_device_by_eid(), among the devices whose port is in @net
 * (ubcore_dev_host_net(): a logical device's is its physical device's)
 * only: two namespaces are two hosts, and each may have a device with the
 * same EID.
 *
 * Context: any context; does not sleep.
 * Return: the device with a reference (drop it with ubcore_put_device()),
 * or NULL.
 */
struct ubcore_device *ubcore_get_device_by_eid_net(const union ubcore_eid *eid,
						   const struct net *net)
{
	return net ? eid_index_get(eid, net) : NULL;
}
EXPORT_SYMBOL_GPL(ubcore_get_device_by_eid_net);
