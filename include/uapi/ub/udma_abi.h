/* SPDX-License-Identifier: GPL-2.0-only WITH Linux-syscall-note */
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * The provider ABI of udma: what liburma and udma.ko exchange in the udata
 * of uburma's create commands, and the layout of the queue rings that
 * userspace maps with mmap(2) on the device's char device.
 *
 * A ring is one mapping: a control page (struct udma_ring_ctrl) followed by
 * entry_cnt entries of entry_size bytes; entry_cnt is a power of two.
 * Indexes are free-running 32-bit counters; entry i is at (i & (cnt - 1)).
 *  - SQ (JFS, jetty) and RQ (JFR): userspace writes entries and then
 *    advances pi (release); the kernel consumes them and advances ci.
 *  - CQ (JFC): the kernel writes CQEs and advances pi; userspace advances
 *    ci after reading them. A CQE is valid when its owner bit equals the
 *    ring's wrap parity ((index / cnt) & 1) ^ 1 (the data path defines the
 *    entry formats).
 */
#ifndef _UAPI_UB_UDMA_ABI_H
#define _UAPI_UB_UDMA_ABI_H

#include <linux/types.h>

/* Entry sizes, fixed by the device. */
#define UDMA_SQE_SIZE		256
#define UDMA_RQE_SIZE		256
#define UDMA_CQE_SIZE		64

/* The first page of every ring. */
struct udma_ring_ctrl {
	__u32 pi;		/* producer index */
	__u32 reserved0[15];	/* pi and ci on their own cache lines */
	__u32 ci;		/* consumer index */
	__u32 reserved1[15];
};

/*
 * Where a ring is: mmap(NULL, mmap_len, PROT_READ | PROT_WRITE, MAP_SHARED,
 * dev_fd, mmap_offset). The mapping is valid until the object is deleted
 * (and then unmapped by userspace); the offset is good for this file only.
 */
struct udma_ring_info {
	__aligned_u64 mmap_offset;
	__aligned_u64 mmap_len;
	__u32 entry_size;
	__u32 entry_cnt;
};

/* udata out of UBURMA_CMD_CREATE_JFC */
struct udma_create_jfc_resp {
	struct udma_ring_info cq;
};

/* udata out of UBURMA_CMD_CREATE_JFS and UBURMA_CMD_CREATE_JETTY */
struct udma_create_jfs_resp {
	struct udma_ring_info sq;
};

/* udata out of UBURMA_CMD_CREATE_JFR */
struct udma_create_jfr_resp {
	struct udma_ring_info rq;
};

#endif /* _UAPI_UB_UDMA_ABI_H */
