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
 * the extra bytes are zero. A create whose result cannot be written back
 * fails with EFAULT and leaves nothing behind (no object, handle or fd).
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
	UBURMA_CMD_CREATE_CTX,
	UBURMA_CMD_ALLOC_TOKEN_ID,
	UBURMA_CMD_FREE_TOKEN_ID,
	UBURMA_CMD_REGISTER_SEG,
	UBURMA_CMD_UNREGISTER_SEG,
	UBURMA_CMD_IMPORT_SEG,
	UBURMA_CMD_UNIMPORT_SEG,
	UBURMA_CMD_CREATE_JFCE,
	UBURMA_CMD_CREATE_JFC,
	UBURMA_CMD_MODIFY_JFC,
	UBURMA_CMD_DELETE_JFC,
	UBURMA_CMD_CREATE_JFS,
	UBURMA_CMD_MODIFY_JFS,
	UBURMA_CMD_QUERY_JFS,
	UBURMA_CMD_DELETE_JFS,
	UBURMA_CMD_CREATE_JFR,
	UBURMA_CMD_MODIFY_JFR,
	UBURMA_CMD_QUERY_JFR,
	UBURMA_CMD_DELETE_JFR,
	UBURMA_CMD_CREATE_JETTY,
	UBURMA_CMD_MODIFY_JETTY,
	UBURMA_CMD_QUERY_JETTY,
	UBURMA_CMD_DELETE_JETTY,
	UBURMA_CMD_IMPORT_JFR,
	UBURMA_CMD_UNIMPORT_JFR,
	UBURMA_CMD_IMPORT_JETTY,
	UBURMA_CMD_UNIMPORT_JETTY,
	UBURMA_CMD_RING_DOORBELL,
	UBURMA_CMD_REARM_JFC,
	UBURMA_CMD_BIND_JETTY,
	UBURMA_CMD_UNBIND_JETTY,
	UBURMA_CMD_FLUSH,
	UBURMA_CMD_CREATE_JETTY_GRP,
	UBURMA_CMD_DELETE_JETTY_GRP,
	UBURMA_CMD_GET_TP_LIST,
	UBURMA_CMD_IMPORT_JETTY_EX,
	UBURMA_CMD_GET_TP_ATTR,
	UBURMA_CMD_SET_TP_ATTR,
	UBURMA_CMD_GET_TPN,
};

/*
 * Object commands need the file's context (UBURMA_CMD_CREATE_CTX first,
 * else EINVAL). A handle names an object of this file: a number the kernel
 * chose, never 0 (0 in a handle field means "none"); an unknown handle, or
 * one of the wrong kind, is EINVAL. The urma_* fields are the caller's own
 * values (liburma: its object's address), returned in events.
 */

/*
 * Provider-specific data (for udma: the structs of udma_abi.h), passed to
 * the provider as it is.
 */
struct uburma_udata {
	__aligned_u64 in_addr;
	__aligned_u64 out_addr;
	__u32 in_len;
	__u32 out_len;
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
		/* Since the second version (args_len covers them): */
		__u32 max_jetty_grp;	/* 0: no jetty groups */
		__u32 max_jetty_in_jetty_grp;
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

/*
 * UBURMA_CMD_CREATE_CTX: the file's user context on EID in.eid_index (a
 * slot that holds an EID, else EINVAL). Once per file (EEXIST).
 * out.async_fd is a new file descriptor (O_CLOEXEC) that reads struct
 * uburma_async_event records and works with poll/epoll.
 *
 * UB address space IDs (1 .. UBURMA_MAX_UASID) belong to processes: the
 * kernel gives the context in.uasid if no other process owns it (the
 * calling process then owns it while any of its contexts uses it), or
 * fails with EADDRINUSE; in.uasid 0 asks for the one the process owns
 * already, or a new one the kernel picks. out.uasid is the context's.
 */
#define UBURMA_MAX_UASID	((1U << 24) - 1)

struct uburma_cmd_create_ctx {
	struct {
		__u32 eid_index;
		__u32 uasid;		/* 0: the kernel picks */
		struct uburma_udata udata;
	} in;
	struct {
		__s32 async_fd;
		__u32 uasid;
	} out;
};

/* Records read from the async fd; read(2) blocks unless O_NONBLOCK. */
struct uburma_async_event {
	__aligned_u64 event_data;	/* the object's urma_* value, or a port or EID index */
	__u32 event_type;		/* urma_async_event_type_t */
	__u32 reserved;
};

/* Records read from a JFCE fd: a JFC with a completion event. */
struct uburma_jfce_event {
	__aligned_u64 urma_jfc;
};

/* UBURMA_CMD_ALLOC_TOKEN_ID */
struct uburma_cmd_alloc_token_id {
	struct {
		__u32 flag;		/* urma_token_id_flag_t */
		__u32 reserved;
		struct uburma_udata udata;
	} in;
	struct {
		__u32 token_id;
		__u32 reserved;
		__aligned_u64 handle;
	} out;
};

/*
 * Commands that name only a handle: FREE_TOKEN_ID, UNREGISTER_SEG,
 * UNIMPORT_SEG, UNIMPORT_JFR, UNIMPORT_JETTY. Nothing is written back.
 */
struct uburma_cmd_destroy {
	struct {
		__aligned_u64 handle;
	} in;
};

/*
 * Deletes of objects that have events: DELETE_JFC, DELETE_JFS, DELETE_JFR,
 * DELETE_JETTY, DELETE_JETTY_GRP. The object's unread events are dropped; out says how many
 * were read, which liburma waits to see acknowledged. EFAULT when out
 * cannot be written back: the object is deleted all the same.
 */
struct uburma_cmd_delete {
	struct {
		__aligned_u64 handle;
	} in;
	struct {
		__u32 async_events_reported;
		__u32 comp_events_reported;	/* JFC only */
	} out;
};

/* UBURMA_CMD_REGISTER_SEG: pins [va, va + len) charged to RLIMIT_MEMLOCK. */
struct uburma_cmd_register_seg {
	struct {
		__aligned_u64 va;
		__aligned_u64 len;
		__aligned_u64 token_id_handle;
		__aligned_u64 iova;
		__u32 token_value;
		__u32 flag;		/* urma_reg_seg_flag_t */
		struct uburma_udata udata;
	} in;
	struct {
		__u32 token_id;
		__u32 reserved;
		__aligned_u64 handle;
	} out;
};

/* UBURMA_CMD_IMPORT_SEG: records a remote segment (urma_seg_t). */
struct uburma_cmd_import_seg {
	struct {
		__u8 eid[16];
		__u32 uasid;
		__u32 token_id;
		__aligned_u64 va;
		__aligned_u64 len;
		__aligned_u64 mva;
		__u32 attr;		/* urma_seg_attr_t */
		__u32 flag;		/* urma_import_seg_flag_t */
		__u32 token_value;
		__u32 reserved;
		struct uburma_udata udata;
	} in;
	struct {
		__aligned_u64 handle;
	} out;
};

/*
 * UBURMA_CMD_CREATE_JFCE: a completion event channel. out.fd (O_CLOEXEC)
 * reads struct uburma_jfce_event records and works with poll/epoll; it is
 * deleted by closing it, and lives on until the last JFC using it is gone.
 */
struct uburma_cmd_create_jfce {
	struct {
		__u32 reserved;
	} in;
	struct {
		__s32 fd;
		__u32 reserved;
	} out;
};

/* UBURMA_CMD_CREATE_JFC */
struct uburma_cmd_create_jfc {
	struct {
		__u32 depth;
		__u32 flag;		/* urma_jfc_flag_t */
		__u32 ceqn;
		__s32 jfce_fd;		/* -1: no event channel */
		__aligned_u64 urma_jfc;
		struct uburma_udata udata;
	} in;
	struct {
		__u32 id;
		__u32 depth;
		__aligned_u64 handle;
	} out;
};

/* UBURMA_CMD_MODIFY_JFC */
struct uburma_cmd_modify_jfc {
	struct {
		__aligned_u64 handle;
		__u32 mask;		/* urma_jfc_attr_mask_t */
		__u16 moderate_count;
		__u16 moderate_period;
		struct uburma_udata udata;
	} in;
};

/* The send side of a JFS or jetty, as urma_jfs_cfg_t. */
struct uburma_jfs_cfg {
	__u32 depth;
	__u32 flag;		/* urma_jfs_flag_t */
	__u32 trans_mode;	/* urma_transport_mode_t */
	__u32 max_inline_data;
	__u8 priority;
	__u8 max_sge;
	__u8 max_rsge;
	__u8 rnr_retry;
	__u8 err_timeout;
	__u8 reserved[3];
};

/* UBURMA_CMD_CREATE_JFS; out.cfg is what was created (depth rounded up). */
struct uburma_cmd_create_jfs {
	struct {
		struct uburma_jfs_cfg cfg;
		__aligned_u64 jfc_handle;
		__aligned_u64 urma_jfs;
		struct uburma_udata udata;
	} in;
	struct {
		struct uburma_jfs_cfg cfg;
		__u32 id;
		__u32 reserved;
		__aligned_u64 handle;
	} out;
};

/* UBURMA_CMD_MODIFY_JFS, UBURMA_CMD_MODIFY_JETTY (state only for a JFS) */
struct uburma_cmd_modify_jetty {
	struct {
		__aligned_u64 handle;
		__u32 mask;		/* urma_jetty_attr_mask_t / urma_jfs_attr_mask_t */
		__u32 rx_threshold;
		__u32 state;		/* urma_jetty_state_t */
		__u32 reserved;
		struct uburma_udata udata;
	} in;
};

/* UBURMA_CMD_QUERY_JFS */
struct uburma_cmd_query_jfs {
	struct {
		__aligned_u64 handle;
	} in;
	struct {
		struct uburma_jfs_cfg cfg;
		__u32 state;
		__u32 reserved;
	} out;
};

/*
 * The receive side, as urma_jfr_cfg_t. A JFR or jetty ID asked for (id not
 * 0) must be above the device's reserved_jetty_id_max: IDs 1 .. that are
 * the well-known jetties of kernel clients, and a user's request for one
 * fails with EINVAL (as does an ID above the device's range; EBUSY if it
 * is taken).
 */
struct uburma_jfr_cfg {
	__u32 id;		/* 0: any; see above */
	__u32 depth;
	__u32 flag;		/* urma_jfr_flag_t */
	__u32 trans_mode;
	__u32 token_value;
	__u8 max_sge;
	__u8 min_rnr_timer;
	__u8 reserved[2];
};

/* UBURMA_CMD_CREATE_JFR */
struct uburma_cmd_create_jfr {
	struct {
		struct uburma_jfr_cfg cfg;
		__aligned_u64 jfc_handle;
		__aligned_u64 urma_jfr;
		struct uburma_udata udata;
	} in;
	struct {
		struct uburma_jfr_cfg cfg;
		__aligned_u64 handle;
	} out;
};

/* UBURMA_CMD_MODIFY_JFR */
struct uburma_cmd_modify_jfr {
	struct {
		__aligned_u64 handle;
		__u32 mask;		/* urma_jfr_attr_mask_t */
		__u32 rx_threshold;
		__u32 state;		/* urma_jfr_state_t */
		__u32 reserved;
		struct uburma_udata udata;
	} in;
};

/* UBURMA_CMD_QUERY_JFR; the token value is not returned. */
struct uburma_cmd_query_jfr {
	struct {
		__aligned_u64 handle;
	} in;
	struct {
		struct uburma_jfr_cfg cfg;
		__u32 rx_threshold;
		__u32 state;
	} out;
};

/*
 * UBURMA_CMD_CREATE_JETTY: receives on the shared JFR in.jfr_handle.
 * in2, since the second version of the struct (args_len covers it):
 * jetty_grp_handle, a jetty group the jetty joins (0: none); the jetty is
 * then RM and its JFR has the group's token value and token policy
 * (EINVAL), and the group has room for it (ENOSPC).
 */
struct uburma_cmd_create_jetty {
	struct {
		__u32 id;		/* 0: any; as uburma_jfr_cfg.id */
		__u32 flag;		/* urma_jetty_flag_t */
		struct uburma_jfs_cfg jfs_cfg;
		__aligned_u64 send_jfc_handle;
		__aligned_u64 jfr_handle;
		__aligned_u64 recv_jfc_handle;	/* 0: the JFR's */
		__aligned_u64 urma_jetty;
		struct uburma_udata udata;
	} in;
	struct {
		struct uburma_jfs_cfg jfs_cfg;
		__u32 id;
		__u32 reserved;
		__aligned_u64 handle;
	} out;
	struct {
		__aligned_u64 jetty_grp_handle;
	} in2;
};

/* UBURMA_CMD_QUERY_JETTY */
struct uburma_cmd_query_jetty {
	struct {
		__aligned_u64 handle;
	} in;
	struct {
		struct uburma_jfs_cfg jfs_cfg;
		__u32 id;
		__u32 flag;
		__u32 rx_threshold;
		__u32 state;
	} out;
};

/*
 * UBURMA_CMD_IMPORT_JFR, UBURMA_CMD_IMPORT_JETTY: records a remote target
 * (urma_rjfr_t / urma_rjetty_t) and the token to present.
 */
struct uburma_cmd_import_jetty {
	struct {
		__u8 eid[16];
		__u32 uasid;
		__u32 id;
		__u32 trans_mode;
		__u32 type;		/* urma_target_type_t; IMPORT_JETTY only */
		__u32 flag;		/* urma_import_jetty_flag_t */
		__u32 policy;		/* urma_jetty_grp_policy_t */
		__u32 tp_type;		/* urma_tp_type_t */
		__u32 token_value;
		struct uburma_udata udata;
	} in;
	struct {
		__u32 tpn;
		__u32 reserved;
		__aligned_u64 handle;
	} out;
};

/*
 * UBURMA_CMD_RING_DOORBELL: new entries are in the ring of in.handle (a
 * JFS or jetty: its SQ; a JFR: its RQ) up to the ring's pi. The kernel
 * processes some inline and the rest in the background; completions come
 * through the CQ. EINVAL for an unknown handle; the entries themselves are
 * never an error of this call.
 */
struct uburma_cmd_ring_doorbell {
	struct {
		__aligned_u64 handle;
	} in;
};

/*
 * UBURMA_CMD_REARM_JFC: the next CQE (with in.solicited_only: the next
 * solicited one) raises one completion event on the JFC's JFCE.
 */
struct uburma_cmd_rearm_jfc {
	struct {
		__aligned_u64 handle;
		__u32 solicited_only;
		__u32 reserved;
	} in;
};

/*
 * UBURMA_CMD_BIND_JETTY: an RC jetty sends to one imported jetty
 * (in.tjetty_handle) from now on; EEXIST if it is bound already.
 * UBURMA_CMD_UNBIND_JETTY: in.tjetty_handle is ignored.
 */
struct uburma_cmd_bind_jetty {
	struct {
		__aligned_u64 jetty_handle;
		__aligned_u64 tjetty_handle;
		/*
		 * urma_bind_jetty_ex(): the TP the bind must use (a
		 * tp_handle of UBURMA_CMD_GET_TP_LIST) and the peer's handle
		 * of it; 0: none, the connection manager's TP (version 2)
		 */
		__aligned_u64 tp_handle;
		__aligned_u64 peer_tp_handle;
	} in;
};

/*
 * UBURMA_CMD_FLUSH: the JFS or jetty (in.handle) is in ERROR or SUSPENDED
 * state; the kernel takes up to in.max_cnt entries the engine has not
 * started, from out.first_index on, off the SQ (advancing ci) and returns
 * how many (out.cnt). Userspace reports them as URMA_CR_WR_UNHANDLED from
 * its own copy of the ring. EINVAL in any other state.
 */
struct uburma_cmd_flush {
	struct {
		__aligned_u64 handle;
		__u32 max_cnt;
		__u32 reserved;
	} in;
	struct {
		__u32 first_index;
		__u32 cnt;
	} out;
};

/* Bytes of a jetty group's name, with its NUL (as URMA_MAX_NAME). */
#define UBURMA_JETTY_GRP_NAME_LEN	64

/*
 * UBURMA_CMD_CREATE_JETTY_GRP: an empty group of jetties a peer reaches
 * under one jetty ID (out.id, in.id if not 0; as uburma_jfr_cfg.id), as
 * urma_jetty_grp_cfg_t. in.name is NUL-terminated; in.flag holds the token
 * policy (bits 0-2, URMA_TOKEN_*) and nothing else; in.policy is
 * urma_jetty_grp_policy_t (EINVAL otherwise). ENOSPC when the device has
 * max_jetty_grp groups or the context its limit; EOPNOTSUPP on a device
 * without groups.
 * UBURMA_CMD_DELETE_JETTY_GRP (struct uburma_cmd_delete): EBUSY while
 * jetties are in the group.
 */
struct uburma_cmd_create_jetty_grp {
	struct {
		char name[UBURMA_JETTY_GRP_NAME_LEN];
		__u32 id;		/* 0: any */
		__u32 flag;		/* urma_jetty_grp_flag_t */
		__u32 token_value;
		__u32 policy;		/* urma_jetty_grp_policy_t */
		__aligned_u64 urma_jetty_grp;
		struct uburma_udata udata;
	} in;
	struct {
		__u32 id;
		__u32 reserved;
		__aligned_u64 handle;
	} out;
};

/*
 * UBURMA_CMD_GET_TP_LIST (urma_get_tp_list()): the ESTABLISHED TPs of the
 * device between in.local_eid (an EID of the device) and in.peer_eid in
 * in.trans_mode (URMA_TM_RM or URMA_TM_RC; URMA_TM_UM: none), at most in.tp_cnt
 * of them; each as a tp_handle (__u64: the TPN; the peer's TPN is the
 * peer's tp_handle of the same TP) written to in.tp_list_addr, by TPN.
 * out.tp_cnt is how many. EINVAL for an unknown mode or a zero in.tp_cnt.
 */
struct uburma_cmd_get_tp_list {
	struct {
		__u32 flag;		/* urma_get_tp_cfg_flag_t */
		__u32 trans_mode;
		__u8 local_eid[16];
		__u8 peer_eid[16];
		__u32 tp_cnt;
		__u32 reserved;
		__aligned_u64 tp_list_addr;	/* __u64 tp_handle[tp_cnt] */
	} in;
	struct {
		__u32 tp_cnt;
		__u32 reserved;
	} out;
};

/*
 * UBURMA_CMD_IMPORT_JETTY_EX (urma_import_jetty_ex(), urma_import_jfr_ex()):
 * UBURMA_CMD_IMPORT_JETTY (in.type: a jetty or a JFR) on the TP in.tp_handle
 * (from UBURMA_CMD_GET_TP_LIST: ESTABLISHED, to the target's EID in its
 * mode) whose peer end is in.peer_tp_handle; EINVAL if the import's TP is
 * not that one.
 */
struct uburma_cmd_import_jetty_ex {
	struct {
		__u8 eid[16];
		__u32 uasid;
		__u32 id;
		__u32 trans_mode;
		__u32 type;		/* urma_target_type_t */
		__u32 flag;		/* urma_import_jetty_flag_t */
		__u32 policy;		/* urma_jetty_grp_policy_t */
		__u32 tp_type;		/* urma_tp_type_t */
		__u32 token_value;
		struct uburma_udata udata;
		__aligned_u64 tp_handle;
		__aligned_u64 peer_tp_handle;
		__aligned_u64 tag;
	} in;
	struct {
		__u32 tpn;
		__u32 reserved;
		__aligned_u64 handle;
	} out;
};

/*
 * The bits of a TP attribute bitmap (urma_get_tp_attr(), urma_set_tp_attr():
 * UMDK's numbering, one per field of urma_tp_attr_value_t in order). A TP
 * of this stack has the first four; the others name nothing here.
 */
#define UBURMA_TP_ATTR_RETRY_TIMES_INIT	(1U << 0)	/* retries, 0-7 */
#define UBURMA_TP_ATTR_AT		(1U << 1)	/* ACK timeout, 0-31 */
#define UBURMA_TP_ATTR_SIP		(1U << 2)	/* this end's EID */
#define UBURMA_TP_ATTR_DIP		(1U << 3)	/* the peer's EID */
/* The ones a TP has (read), and the ones that may be set. */
#define UBURMA_TP_ATTR_HAS	(UBURMA_TP_ATTR_RETRY_TIMES_INIT | \
				 UBURMA_TP_ATTR_AT | UBURMA_TP_ATTR_SIP | \
				 UBURMA_TP_ATTR_DIP)
#define UBURMA_TP_ATTR_SETTABLE	(UBURMA_TP_ATTR_RETRY_TIMES_INIT | \
				 UBURMA_TP_ATTR_AT)
/* The largest values of the settable ones (their widths in UMDK's struct). */
#define UBURMA_TP_RETRY_TIMES_MAX	7
#define UBURMA_TP_AT_MAX		31

/* The state of a TP as urma_tp_state_t names it. */
#define UBURMA_TP_STATE_ACTIVE		2

/*
 * UBURMA_CMD_GET_TP_ATTR (urma_get_tp_attr()): the attributes of the TP
 * in.tp_handle (UBURMA_CMD_GET_TP_LIST's: ESTABLISHED) that one of the
 * caller's imports or bound jetties uses. out.bitmap: those filled in
 * (UBURMA_TP_ATTR_HAS); the rest is ours: its TPNs, mode and state.
 * at: the ACK timeout is 4.096 us << at. EINVAL: no such TP (not
 * ESTABLISHED); EPERM: none of the caller's imports uses it.
 */
struct uburma_cmd_get_tp_attr {
	struct {
		__aligned_u64 tp_handle;
	} in;
	struct {
		__u32 bitmap;		/* UBURMA_TP_ATTR_* */
		__u8 retry_times_init;
		__u8 at;
		__u8 sip[16];
		__u8 dip[16];
		__u8 trans_mode;	/* urma_transport_mode_t */
		__u8 state;		/* urma_tp_state_t */
		__u32 tpn;
		__u32 peer_tpn;
	} out;
};

/*
 * UBURMA_CMD_SET_TP_ATTR (urma_set_tp_attr()): sets the attributes of
 * in.bitmap on the TP in.tp_handle, all or none: each must be in
 * UBURMA_TP_ATTR_SETTABLE and within its width (else EINVAL), and every
 * local user of the TP must be the caller's (else EPERM: a TP shared with
 * another context, as an RM TP of two processes' imports to the same EID
 * pair, keeps its values). A TP starts with the provider's defaults.
 */
struct uburma_cmd_set_tp_attr {
	struct {
		__aligned_u64 tp_handle;
		__u32 bitmap;		/* UBURMA_TP_ATTR_* */
		__u8 retry_times_init;
		__u8 at;
		__u8 reserved[2];
	} in;
};

/*
 * UBURMA_CMD_GET_TPN (urma_get_tpn()): the TPN at this end of the TP of
 * the jetty in.handle: an RC jetty's, while it is bound (the TP belongs
 * to the bound pair). ENOTCONN: the jetty has no TP of its own (RM, UM,
 * or RC not bound).
 */
struct uburma_cmd_get_tpn {
	struct {
		__aligned_u64 handle;
	} in;
	struct {
		__u32 tpn;
		__u32 reserved;
	} out;
};

#endif /* _UAPI_UB_UBURMA_IOCTL_H */
