/* SPDX-License-Identifier: GPL-2.0-only WITH Linux-syscall-note */
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * The aggregation topology of ubagg.ko (user guide 6.2), with UMDK's
 * layout and values, so that UMDK's urma_ping and urma_admin read it
 * unchanged:
 *
 * - set (and read whole) through the char device /dev/ubagg: one ioctl,
 *   UBAGG_CMD, whose header names a command, the size of its argument
 *   and the argument's user address (UMDK's uvs_ubagg_cmd_hdr);
 * - read node by node through the generic netlink family "UBAGG_GENL",
 *   command UBAGG_NL_GET_TOPO, whose one attribute UBAGG_HDR_ARGS_ADDR
 *   (NLA_U64) is the user address of a struct ubagg_nl_topo_info: the
 *   kernel reads in.node_idx from it and writes out.node_num and
 *   out.topo_info into it (UMDK's ABI: the reply is the ACK).
 *
 * A node is a host; per node, up to UBAGG_DEV_NUM aggregated (bonding)
 * devices, each with its bonding EID and, per IODie, the UB entity (UE)
 * that serves it: chip, die and entity IDs, its primary EID, its port
 * EIDs and CNAs; and the links matrix between the node's ports
 * (links[local][remote]: port local of this node reaches port remote,
 * both numbered iodie * UBAGG_PORT_NUM + port). An all-zero EID is "none".
 */
#ifndef _UAPI_UB_UBAGG_TOPO_H
#define _UAPI_UB_UBAGG_TOPO_H

#include <linux/ioctl.h>
#include <linux/types.h>
#ifdef __KERNEL__
#include <linux/build_bug.h>
#endif

#define UBAGG_EID_LEN		16
#define UBAGG_MAX_NODE_NUM	1024	/* nodes UMDK's tools read at most */
#define UBAGG_IODIE_NUM		2	/* IODies per node */
#define UBAGG_PORT_NUM		9	/* ports per IODie */
#define UBAGG_DEV_NUM		256	/* aggregated devices per node */

/*
 * The bits of a SEND_IMM's immediate data an application may use on a
 * bonding device (user guide 6.2.1): 0 to 20 and 40 to 63. Bits 21 to 39
 * belong to the bonding layer, so a SEND_IMM on a bonding device with any
 * of them set is refused (liburma: URMA_EINVAL at post; a WQE written
 * into the ring by other means: a LOC_OPERATION_ERR completion). Other
 * devices carry all 64 bits.
 */
#define UBAGG_IMM_DATA_USABLE_MASK	0xFFFFFF00001FFFFFULL

/* struct ubagg_topo_node.type */
#define UBAGG_TOPO_TYPE_FULLMESH_1D	0
#define UBAGG_TOPO_TYPE_CLOS		1

struct ubagg_topo_ue {
	__u32 chip_id;
	__u32 die_id;
	__u32 entity_id;
	__u8 primary_eid[UBAGG_EID_LEN];
	__u8 port_eid[UBAGG_PORT_NUM][UBAGG_EID_LEN];
	__u8 cna[UBAGG_PORT_NUM][UBAGG_EID_LEN];	/* CTP only */
};

struct ubagg_topo_agg_dev {
	__u8 agg_eid[UBAGG_EID_LEN];			/* the bonding EID */
	struct ubagg_topo_ue ues[UBAGG_IODIE_NUM];	/* per IODie */
};

struct ubagg_topo_node {
	__u32 type;		/* UBAGG_TOPO_TYPE_* */
	__u32 super_node_id;
	__u32 node_id;
	__u32 is_current;	/* non-zero: the node of the host that set it */
	__u8 links[UBAGG_IODIE_NUM * UBAGG_PORT_NUM]
		  [UBAGG_IODIE_NUM * UBAGG_PORT_NUM];	/* 0 or 1 (C bool) */
	struct ubagg_topo_agg_dev agg_devs[UBAGG_DEV_NUM];
};

/* ---- /dev/ubagg ---- */

struct ubagg_cmd_hdr {
	__u32 command;		/* enum ubagg_cmd */
	__u32 args_len;		/* must be the command's argument size */
	__u64 args_addr;	/* user address of the argument */
};

#define UBAGG_CMD_MAGIC	'B'
#define UBAGG_CMD	_IOWR(UBAGG_CMD_MAGIC, 1, struct ubagg_cmd_hdr)

/*
 * UMDK's command numbers. SET_TOPO_INFO, CREATE_DEV and DELETE_DEV need
 * CAP_NET_ADMIN in the user namespace of the caller's network namespace.
 */
enum ubagg_cmd {
	UBAGG_CMD_SET_TOPO_INFO = 1,
	UBAGG_CMD_GET_TOPO_INFO,
	UBAGG_CMD_CREATE_DEV,
	UBAGG_CMD_DELETE_DEV,
	UBAGG_CMD_GET_DEV_NAME,
};

/*
 * UBAGG_CMD_SET_TOPO_INFO: @topo is the user address of @topo_num nodes;
 * they replace the caller's network namespace's topology (@topo_num 0
 * clears it). -EINVAL for more than UBAGG_MAX_NODE_NUM nodes, -E2BIG for
 * more than the module's max_nodes.
 */
struct ubagg_set_topo_arg {
	__aligned_u64 topo;
	__u32 topo_num;
	__u32 rsvd;
};

/*
 * UBAGG_CMD_GET_TOPO_INFO: the kernel writes the namespace's nodes at the
 * user address @topo (room for UBAGG_MAX_NODE_NUM nodes, as UMDK's
 * caller has) and their number into @topo_num.
 */
struct ubagg_get_topo_arg {
	__aligned_u64 topo;
	__u32 topo_num;
	__u32 rsvd;
};

#define UBAGG_MAX_DEV_NAME_LEN	64

/*
 * The modes of a bonding device, with the values of liburma's
 * urma_context_aggr_mode_t (URMA_AGGR_MODE_*) and UMDK's
 * bondp_bonding_mode_t.
 */
enum ubagg_bond_mode {
	UBAGG_BOND_STANDALONE,		/* the first member only */
	UBAGG_BOND_ACTIVE_BACKUP,	/* the first member up */
	UBAGG_BOND_BALANCE,		/* TPs round robin over those up */
	UBAGG_BOND_MODE_MAX,
};

/*
 * UBAGG_CMD_CREATE_DEV: create the bonding device @dev_name of the
 * aggregated device of the caller's node (the topology's current node)
 * whose bonding EID is @agg_eid, over the devices that hold its UEs'
 * primary EIDs (member i for IODie i). UMDK's argument (80 bytes) makes
 * it in Standalone mode; struct ubagg_create_dev_mode_arg (ours, 88
 * bytes: args_len tells them apart) names the mode. -ENXIO: no topology;
 * -ENOENT: no such aggregated device, or a UE's device is missing;
 * -EEXIST: @agg_eid or @dev_name taken; -EINVAL: an empty EID or name,
 * an unknown mode, fewer than two UEs.
 */
struct ubagg_create_dev_arg {
	__u8 agg_eid[UBAGG_EID_LEN];
	char dev_name[UBAGG_MAX_DEV_NAME_LEN];
};

struct ubagg_create_dev_mode_arg {
	__u8 agg_eid[UBAGG_EID_LEN];
	char dev_name[UBAGG_MAX_DEV_NAME_LEN];
	__u32 mode;			/* enum ubagg_bond_mode */
	__u32 rsvd;			/* 0 */
};

/* UBAGG_CMD_DELETE_DEV: delete the bonding device of @agg_eid (-ENOENT). */
struct ubagg_delete_dev_arg {
	__u8 agg_eid[UBAGG_EID_LEN];
};

/*
 * UBAGG_CMD_GET_DEV_NAME: the name of the bonding device whose bonding EID
 * is @eid, in the caller's namespace (-ENOENT). Open to every user.
 */
struct ubagg_get_dev_name_arg {
	__u8 eid[UBAGG_EID_LEN];
	char dev_name[UBAGG_MAX_DEV_NAME_LEN];
};

/* ---- generic netlink "UBAGG_GENL" ---- */

#define UBAGG_GENL_FAMILY_NAME		"UBAGG_GENL"
#define UBAGG_GENL_FAMILY_VERSION	1

enum ubagg_nl_cmd {
	UBAGG_NL_CMD_UNSPEC,
	UBAGG_NL_GET_TOPO,	/* open to every user of the namespace */
};

enum ubagg_nl_attr {
	UBAGG_NL_ATTR_UNSPEC,
	UBAGG_HDR_ARGS_ADDR = 4,	/* NLA_U64: a user address */
	__UBAGG_NL_ATTR_MAX,
};

#define UBAGG_NL_ATTR_MAX (__UBAGG_NL_ATTR_MAX - 1)

/*
 * UBAGG_NL_GET_TOPO's argument: node @in.node_idx (0 .. node_num - 1) of
 * the caller's namespace. -ENXIO when the namespace has no topology,
 * -EINVAL for an index out of range, -EFAULT for an address the caller
 * cannot read and write.
 */
struct ubagg_nl_topo_info {
	struct {
		__s32 node_idx;
	} in;
	struct {
		__u32 node_num;
		struct ubagg_topo_node topo_info;
	} out;
};

/* UMDK's sizes: any change here breaks its tools. */
#define UBAGG_TOPO_UE_SIZE	316
#define UBAGG_TOPO_AGG_DEV_SIZE	648
#define UBAGG_TOPO_NODE_SIZE	166228

#if defined(__KERNEL__) || defined(__cplusplus)
static_assert(sizeof(struct ubagg_topo_ue) == UBAGG_TOPO_UE_SIZE,
	      "UMDK's urma_topo_ue");
static_assert(sizeof(struct ubagg_topo_agg_dev) == UBAGG_TOPO_AGG_DEV_SIZE,
	      "UMDK's urma_topo_agg_dev");
static_assert(sizeof(struct ubagg_topo_node) == UBAGG_TOPO_NODE_SIZE,
	      "UMDK's urma_topo_node");
static_assert(sizeof(struct ubagg_nl_topo_info) == 8 + UBAGG_TOPO_NODE_SIZE,
	      "UMDK's ping_core_cmd_topo_info");
static_assert(sizeof(struct ubagg_cmd_hdr) == 16, "UMDK's uvs_ubagg_cmd_hdr");
static_assert(sizeof(struct ubagg_set_topo_arg) == 16,
	      "UMDK's uvs_ubagg_set_topo_info");
static_assert(sizeof(struct ubagg_create_dev_arg) == 80,
	      "UMDK's ubagg_create_dev_arg");
static_assert(sizeof(struct ubagg_create_dev_mode_arg) == 88,
	      "ubagg_create_dev_arg and the mode");
static_assert(sizeof(struct ubagg_delete_dev_arg) == 16,
	      "UMDK's ubagg_delete_dev_arg");
static_assert(sizeof(struct ubagg_get_dev_name_arg) == 80,
	      "UMDK's ubagg_get_dev_name_arg");
#endif

#endif /* _UAPI_UB_UBAGG_TOPO_H */
