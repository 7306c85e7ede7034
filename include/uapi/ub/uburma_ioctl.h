/* SPDX-License-Identifier: GPL-2.0-only WITH Linux-syscall-note */
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * The ioctl ABI of /dev/uburma/<dev>: one ioctl, UBURMA_CMD, whose header
 * names a command and points at its argument struct. Every argument struct
 * is { in; out; }. The size in the header versions it: the kernel accepts
 * any args_len from the first version of a struct up to the current one,
 * reads the fields that an older caller did not know as zero, and writes
 * back only args_len bytes; a larger args_len is refused with E2BIG unless
 * the extra bytes are zero.
 */
#ifndef _UAPI_UB_UBURMA_IOCTL_H
#define _UAPI_UB_UBURMA_IOCTL_H

#include <linux/ioctl.h>
#include <linux/types.h>

/* Name of the char device class: /sys/class/uburma, /dev/uburma/<dev> */
#define UBURMA_CLASS_NAME	"uburma"

struct uburma_cmd_hdr {
	__u32 command;		/* enum uburma_cmd */
	__u32 args_len;		/* bytes at args_addr */
	__aligned_u64 args_addr;	/* the command's argument struct */
};

#define UBURMA_CMD_MAGIC	'U'
#define UBURMA_CMD		_IOWR(UBURMA_CMD_MAGIC, 1, struct uburma_cmd_hdr)
/* Largest argument struct the kernel copies in one command. */
#define UBURMA_CMD_MAX_ARGS	4096

enum uburma_cmd {
	UBURMA_CMD_QUERY_DEVICE = 1,
	UBURMA_CMD_GET_EID_LIST,
};

/* UBURMA_CMD_QUERY_DEVICE: capabilities and port state. */
struct uburma_cmd_query_device {
	struct {
		__u32 reserved;
	} in;
	struct {
		__u32 max_jfc;
		__u32 max_jfs;
		__u32 max_jfr;
		__u32 max_jetty;
		__u32 max_jfc_depth;
		__u32 max_jfs_depth;
		__u32 max_jfr_depth;
		__u32 max_jfs_sge;
		__u32 max_jfs_rsge;
		__u32 max_jfr_sge;
		__u32 max_jfs_inline_size;
		__u32 max_token_id;
		__aligned_u64 max_msg_size;
		__aligned_u64 max_write_size;
		__aligned_u64 max_read_size;
		__u32 atomic_feature;
		__u32 trans_mode;
		__u32 congestion_ctrl_alg;
		__u32 reserved_jetty_id_max;
		__u32 port_state;	/* as urma_port_state_t */
		__u32 active_mtu;	/* as urma_mtu_t */
	} out;
};

struct uburma_eid_info {
	__u8 eid[16];
	__u32 eid_index;
	__u32 reserved;
};

/*
 * UBURMA_CMD_GET_EID_LIST: the valid entries of the EID table, at most
 * in.max_cnt of them written to in.eids_addr; out.cnt says how many.
 */
struct uburma_cmd_get_eid_list {
	struct {
		__u32 max_cnt;
		__u32 reserved;
		__aligned_u64 eids_addr;	/* struct uburma_eid_info[max_cnt] */
	} in;
	struct {
		__u32 cnt;
		__u32 reserved;
	} out;
};

#endif /* _UAPI_UB_UBURMA_IOCTL_H */
