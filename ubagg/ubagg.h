/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * ubagg.ko: the aggregation topology of each network namespace (a host),
 * set through /dev/ubagg, read through /dev/ubagg and the generic netlink
 * family "UBAGG_GENL" (include/uapi/ub/ubagg_topo.h), and the urma_ping
 * responder on well-known jetty 5 of every UB device that has a primary
 * EID of its namespace's topology; and the bonding devices made from the
 * topology (bond.c).
 */
#ifndef _UBAGG_H
#define _UBAGG_H

#include <linux/kref.h>
#include <linux/types.h>
#include <net/net_namespace.h>
#include <uapi/ub/ubagg_topo.h>
#include <ub/ubcore_eid.h>

/**
 * struct ubagg_topo - one namespace's topology, as set; never changed
 *	after it is published (a SET publishes a new one)
 * @ref: the namespace's reference and the readers'
 * @node_num: entries of @nodes
 * @nodes: the nodes (links normalised to 0 or 1)
 */
struct ubagg_topo {
	struct kref ref;
	u32 node_num;
	struct ubagg_topo_node nodes[];
};

/* topo.c */
int ubagg_topo_init(void);
void ubagg_topo_exit(void);
struct ubagg_topo *ubagg_topo_get(struct net *net);
void ubagg_topo_put(struct ubagg_topo *topo);
int ubagg_topo_set(struct net *net, const void __user *nodes, u32 node_num);
bool ubagg_topo_is_primary(const struct ubagg_topo *topo,
			   const union ubcore_eid *eid);

/* cdev.c */
int ubagg_cdev_init(void);
void ubagg_cdev_exit(void);

/* netlink.c */
int ubagg_netlink_init(void);
void ubagg_netlink_exit(void);

/* bond.c */
int ubagg_bond_init(void);
void ubagg_bond_exit(void);
int ubagg_bond_create(struct net *net, const union ubcore_eid *eid,
		      const char *name, u32 mode);
int ubagg_bond_delete(struct net *net, const union ubcore_eid *eid);
int ubagg_bond_dev_name(struct net *net, const union ubcore_eid *eid,
			char name[UBAGG_MAX_DEV_NAME_LEN]);
void ubagg_bond_topo_changed(struct net *net);
void ubagg_bond_net_exit(struct net *net);

/* ping.c */
int ubagg_ping_init(void);
void ubagg_ping_exit(void);
void ubagg_ping_topo_changed(struct net *net);

#endif /* _UBAGG_H */
