/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * What the files of ubcore.ko share with each other, and nothing else.
 */
#ifndef _UBCORE_PRIV_H
#define _UBCORE_PRIV_H

#include <linux/rwsem.h>

#include <ub/ubcore_device.h>

extern struct class ubcore_class;
extern struct rw_semaphore ubcore_devices_rwsem;
extern const struct attribute_group *ubcore_device_groups[];

int ubcore_device_get_live(struct ubcore_device *dev);
void ubcore_device_put_live(struct ubcore_device *dev);
/* Registered devices; iterate with ubcore_devices_rwsem held. */
extern struct list_head ubcore_devices;
#define ubcore_for_each_device(dev) \
	list_for_each_entry(dev, &ubcore_devices, list_node)

/* EID table operations; the caller holds dev->eid_lock. */
int ubcore_eid_table_sync(struct ubcore_eid_entry *table, u32 size,
			  const union ubcore_eid *addrs, u32 n,
			  unsigned long *changed);
int ubcore_eid_table_add(struct ubcore_eid_entry *table, u32 size, u32 idx,
			 const union ubcore_eid *eid);
int ubcore_eid_table_del(struct ubcore_eid_entry *table, u32 size, u32 idx);

void ubcore_eid_sync_addrs(struct ubcore_device *dev,
			   const union ubcore_eid *addrs, u32 n);
void ubcore_eid_sysfs_update(struct ubcore_device *dev);

void ubcore_sysfs_init(void);
int ubcore_newlink(const char *type, const char *name,
		   struct net_device *netdev);

/* Follow the bound netdev (addresses, carrier, MTU). */
void ubcore_netdev_sync_device(struct ubcore_device *dev);
int ubcore_netdev_init(void);
void ubcore_netdev_exit(void);

/* The generic netlink family "ubcore" (netlink.c). */
int ubcore_netlink_init(void);
void ubcore_netlink_exit(void);

#endif /* _UBCORE_PRIV_H */
