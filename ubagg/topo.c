// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * The topology store: one published struct ubagg_topo per network
 * namespace (each namespace is a host, with its own view: is_current
 * marks its own node). A SET builds a new one from the user's nodes and
 * publishes it; readers take a reference, so a reader copying a node to
 * user memory (which may fault and sleep) never holds a lock.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/mm.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/overflow.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <net/netns/generic.h>

#include "ubagg.h"

/*
 * UMDK's tools read up to 1024 nodes of 162 KiB each; a namespace keeps
 * at most max_nodes of them (16: 2.6 MiB), so that an unprivileged
 * namespace's root cannot pin 170 MB of kernel memory.
 */
static unsigned int max_nodes = 16;
module_param(max_nodes, uint, 0444);
MODULE_PARM_DESC(max_nodes, "nodes a namespace's topology may have (default 16, at most 1024)");

/**
 * struct ubagg_net - ubagg's part of a network namespace
 * @lock: protects @topo (publishing and taking a reference)
 * @topo: the published topology, or NULL before the first SET and after
 *	a SET of 0 nodes
 */
struct ubagg_net {
	struct mutex lock;	/* see above */
	struct ubagg_topo *topo;
};

static unsigned int ubagg_net_id;

static void ubagg_topo_release(struct kref *ref)
{
	kvfree(container_of(ref, struct ubagg_topo, ref));
}

/**
 * ubagg_topo_put() - drop a reference taken by ubagg_topo_get()
 * @topo: the topology, or NULL
 *
 * Context: process context (the last put frees with kvfree()).
 */
void ubagg_topo_put(struct ubagg_topo *topo)
{
	if (topo)
		kref_put(&topo->ref, ubagg_topo_release);
}

/**
 * ubagg_topo_get() - the published topology of a namespace
 * @net: the namespace
 *
 * Context: process context, may sleep.
 * Return: the topology with a reference (ubagg_topo_put()), or NULL when
 * the namespace has none.
 */
struct ubagg_topo *ubagg_topo_get(struct net *net)
{
	struct ubagg_net *un = net_generic(net, ubagg_net_id);
	struct ubagg_topo *topo;

	mutex_lock(&un->lock);
	topo = un->topo;
	if (topo)
		kref_get(&topo->ref);
	mutex_unlock(&un->lock);
	return topo;
}

/* Readers compare links with true: keep them 0 or 1 whatever was set. */
static void ubagg_topo_normalise(struct ubagg_topo *topo)
{
	struct ubagg_topo_node *node;
	u32 i, a, b;

	for (i = 0; i < topo->node_num; i++) {
		node = &topo->nodes[i];
		for (a = 0; a < ARRAY_SIZE(node->links); a++)
			for (b = 0; b < ARRAY_SIZE(node->links[a]); b++)
				node->links[a][b] = !!node->links[a][b];
	}
}

/**
 * ubagg_topo_set() - replace a namespace's topology
 * @net: the namespace
 * @nodes: user address of @node_num struct ubagg_topo_node
 * @node_num: number of nodes; 0 removes the topology
 *
 * The caller has checked the caller's privilege. Nothing changes on an
 * error. The urma_ping responders of the namespace's devices and its
 * bonding devices' peers follow.
 *
 * Context: process context, may sleep.
 * Return: 0, -EINVAL (more than UBAGG_MAX_NODE_NUM nodes), -E2BIG (more
 * than max_nodes), -ENOMEM or -EFAULT.
 */
int ubagg_topo_set(struct net *net, const void __user *nodes, u32 node_num)
{
	struct ubagg_net *un = net_generic(net, ubagg_net_id);
	struct ubagg_topo *topo = NULL, *old;

	if (node_num > UBAGG_MAX_NODE_NUM)
		return -EINVAL;
	if (node_num > max_nodes)
		return -E2BIG;
	if (node_num) {
		topo = kvmalloc(struct_size(topo, nodes, node_num),
				GFP_KERNEL_ACCOUNT);
		if (!topo)
			return -ENOMEM;
		if (copy_from_user(topo->nodes, nodes,
				   array_size(node_num, sizeof(*topo->nodes)))) {
			kvfree(topo);
			return -EFAULT;
		}
		kref_init(&topo->ref);
		topo->node_num = node_num;
		ubagg_topo_normalise(topo);
	}
	mutex_lock(&un->lock);
	old = un->topo;
	un->topo = topo;
	mutex_unlock(&un->lock);
	ubagg_topo_put(old);
	ubagg_ping_topo_changed(net);
	ubagg_bond_topo_changed(net);
	return 0;
}

/**
 * ubagg_topo_is_primary() - whether an EID is a primary EID of a topology
 * @topo: the topology
 * @eid: the EID (not all zero)
 *
 * Return: true if some UE of some aggregated device of some node has it
 * as its primary EID.
 */
bool ubagg_topo_is_primary(const struct ubagg_topo *topo,
			   const union ubcore_eid *eid)
{
	const struct ubagg_topo_agg_dev *agg;
	u32 n, d, u;

	for (n = 0; n < topo->node_num; n++) {
		for (d = 0; d < UBAGG_DEV_NUM; d++) {
			agg = &topo->nodes[n].agg_devs[d];
			for (u = 0; u < UBAGG_IODIE_NUM; u++)
				if (!memcmp(agg->ues[u].primary_eid, eid->raw,
					    UBAGG_EID_LEN))
					return true;
		}
	}
	return false;
}

static int __net_init ubagg_net_init(struct net *net)
{
	struct ubagg_net *un = net_generic(net, ubagg_net_id);

	mutex_init(&un->lock);
	un->topo = NULL;
	return 0;
}

static void __net_exit ubagg_net_exit(struct net *net)
{
	struct ubagg_net *un = net_generic(net, ubagg_net_id);

	ubagg_bond_net_exit(net);
	/* no reader is left: the namespace is gone (or the module goes) */
	ubagg_topo_put(un->topo);
	un->topo = NULL;
	mutex_destroy(&un->lock);
}

static struct pernet_operations ubagg_net_ops = {
	.init = ubagg_net_init,
	.exit = ubagg_net_exit,
	.id = &ubagg_net_id,
	.size = sizeof(struct ubagg_net),
};

/**
 * ubagg_topo_init() - the per-namespace store
 *
 * Return: 0 or the error of register_pernet_subsys().
 */
int ubagg_topo_init(void)
{
	if (max_nodes > UBAGG_MAX_NODE_NUM) {
		pr_err("max_nodes %u is above %u\n", max_nodes,
		       UBAGG_MAX_NODE_NUM);
		return -EINVAL;
	}
	return register_pernet_subsys(&ubagg_net_ops);
}

/** ubagg_topo_exit() - free every namespace's topology */
void ubagg_topo_exit(void)
{
	unregister_pernet_subsys(&ubagg_net_ops);
}
