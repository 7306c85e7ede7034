/* SPDX-License-Identifier: GPL-2.0-only WITH Linux-syscall-note */
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * The provider ABI of roub.ko: what libroub (the libibverbs provider,
 * libroub/) and roub.ko exchange through uverbs, and the layout of a RoUB
 * memory key, which both sides make and read (roub/README.md "Keys" and
 * "libroub").
 */
#ifndef _UAPI_UB_ROUB_ABI_H
#define _UAPI_UB_ROUB_ABI_H

#include <linux/types.h>

/*
 * The uverbs ABI version of the device (ib_device_ops.uverbs_abi_ver,
 * sysfs abi_version); libroub accepts this one only.
 */
#define ROUB_UVERBS_ABI_VERSION	1

/*
 * A memory key (lkey == rkey): the segment's token ID in the bits above
 * ROUB_KEY_RAND_BITS, random bits below; the segment's token value is the
 * key itself (plain-text token policy). A peer's rkey names its segment:
 * token ID = rkey >> ROUB_KEY_RAND_BITS, token value = rkey.
 */
#define ROUB_KEY_RAND_BITS	12
/* Token IDs that fit a key: below 2^(32 - ROUB_KEY_RAND_BITS). */
#define ROUB_KEY_MAX_TOKEN_ID	((1U << (32 - ROUB_KEY_RAND_BITS)) - 1)

/* The longest UB device name with its NUL (ubcore's UBCORE_MAX_DEV_NAME). */
#define ROUB_UB_DEV_NAME_MAX	64

/**
 * struct roub_alloc_ucontext_resp - the driver part of GET_CONTEXT's answer
 * @ub_dev_name: the UB device under the RoUB device (NUL-terminated): the
 *	provider opens it with liburma for the data path
 * @eid_index: the EID index of the device's GID 0, which user QPs send
 *	from (a liburma context is made on it)
 * @reserved: zero
 */
struct roub_alloc_ucontext_resp {
	char ub_dev_name[ROUB_UB_DEV_NAME_MAX];
	__u32 eid_index;
	__u32 reserved;
};

#endif /* _UAPI_UB_ROUB_ABI_H */
