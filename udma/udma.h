/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * udma: private declarations of the software UB device provider. A udma
 * device is one struct ubcore_device bound to one netdev (UBoE).
 */
#ifndef _UDMA_UDMA_H
#define _UDMA_UDMA_H

#include <linux/build_bug.h>
#include <linux/list.h>
#include <linux/netdevice.h>
#include <linux/sizes.h>
#include <linux/stddef.h>
#include <linux/types.h>

#include <ub/ubcore_device.h>

/* Name format of devices created without an administrator's name. */
#define UDMA_DEV_NAME_FMT	"udma%d"
/* Provider name in ubcore_ops and link type in ubcore_link_ops. */
#define UDMA_DRIVER_NAME	"udma"

/*
 * Capabilities reported to ubcore (struct ubcore_device_cap). The engine is
 * software: the limits bound the kernel memory one device may pin for its
 * queues, not what some silicon holds.
 */
#define UDMA_MAX_JFC		1024
#define UDMA_MAX_JFS		1024
#define UDMA_MAX_JFR		1024
#define UDMA_MAX_JETTY		1024
/* A JFC may collect the completions of a jetty's send and receive queues. */
#define UDMA_MAX_JFC_DEPTH	8192
#define UDMA_MAX_JFS_DEPTH	4096
#define UDMA_MAX_JFR_DEPTH	4096
/* A 256-byte WQE: a 48-byte header and 13 SGEs of 16 bytes. */
#define UDMA_MAX_JFS_SGE	13
/* UB writes and reads address one remote segment range. */
#define UDMA_MAX_JFS_RSGE	1
#define UDMA_MAX_JFR_SGE	13
/* Inline data in place of the SGEs of a 256-byte WQE. */
#define UDMA_MAX_JFS_INLINE	192
#define UDMA_MAX_MSG_SIZE	SZ_1G
#define UDMA_MAX_WRITE_SIZE	SZ_1G
#define UDMA_MAX_READ_SIZE	SZ_1G
#define UDMA_MAX_TOKEN_ID	65536
#define UDMA_ATOMIC_FEATURE	(UBCORE_ATOMIC_CAS | UBCORE_ATOMIC_SWAP | \
				 UBCORE_ATOMIC_FAA | UBCORE_ATOMIC_FSUB | \
				 UBCORE_ATOMIC_FOR | UBCORE_ATOMIC_FXOR)
#define UDMA_TRANS_MODE		(UBCORE_TM_RM | UBCORE_TM_RC | UBCORE_TM_UM)
#define UDMA_CC_ALG		UBCORE_CC_NONE
/* Jetty IDs 1 .. 1023 are for well-known jetties of kernel clients. */
#define UDMA_RESERVED_JETTY_ID_MAX	1023

/*
 * UBoE headers in front of the payload of every packet, for the active MTU:
 * IPv6 (the larger IP header), UDP, our transport header (TPN, PSN, ACK and
 * flags) and the UB transaction headers (BTAH and extension headers).
 */
#define UDMA_IPV6_HDR_LEN	40
#define UDMA_UDP_HDR_LEN	8
#define UDMA_TP_HDR_LEN		16
#define UDMA_TA_HDR_LEN		32
#define UDMA_UBOE_HDR_LEN	(UDMA_IPV6_HDR_LEN + UDMA_UDP_HDR_LEN + \
				 UDMA_TP_HDR_LEN + UDMA_TA_HDR_LEN)

/**
 * struct udma_dev - a udma device: one UB device on one netdev
 * @ub_dev: the UB device; first member, as ubcore_alloc_device() requires.
 *	Its refcount is the lifetime of the whole structure; ubcore frees it
 *	after udma_release().
 * @netdev: the bound netdev. Set at allocation and never changed; held
 *	(@netdev_tracker) from allocation until udma_release(), so that it
 *	stays valid for query_port and for the notifier's comparison even
 *	after ubcore dropped its own reference and cleared @ub_dev.netdev.
 * @netdev_tracker: tracks our reference to @netdev
 * @list: in udma_dev_list (device.c) from before registration until the
 *	start of removal, empty otherwise; udma_list_lock. Taking a device off
 *	the list is the claim to remove it: only the path that did so
 *	unregisters and frees it.
 * @netdev_gone: @netdev is being unregistered; the reaper work removes the
 *	device. Set by the netdev notifier; udma_list_lock.
 */
struct udma_dev {
	struct ubcore_device ub_dev;
	struct net_device *netdev;
	netdevice_tracker netdev_tracker;
	struct list_head list;
	bool netdev_gone;
};

/* ubcore_alloc_device() allocates the whole udma_dev from its ubcore part. */
static_assert(offsetof(struct udma_dev, ub_dev) == 0);

static inline struct udma_dev *to_udma_dev(struct ubcore_device *ub_dev)
{
	return container_of(ub_dev, struct udma_dev, ub_dev);
}

/* device.c */
int udma_dev_add(struct net_device *ndev, const char *name_fmt);
bool udma_dev_mark_netdev_gone(struct net_device *ndev);
void udma_dev_reap(void);
void udma_dev_remove_all(void);
void udma_dev_wait_released(void);

/* netdev.c */
int udma_netdev_init(void);
void udma_netdev_exit(void);

#endif /* _UDMA_UDMA_H */
