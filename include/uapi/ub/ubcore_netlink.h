/* SPDX-License-Identifier: GPL-2.0-only WITH Linux-syscall-note */
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * The generic netlink family "ubcore": administration of UB devices and their
 * EID tables (urma_admin, "dev add/del", "eid add/del/mode").
 *
 * Every request carries attributes of enum ubcore_nl_attr; the kernel
 * validates them strictly: an attribute a command does not take, or one of
 * the wrong type or length, is refused with -EINVAL (-ERANGE for an EID
 * that is not 16 bytes) and an extended ACK that points at it. Errors are
 * negative errnos in the NLMSG_ERROR reply, most with an extended ACK
 * message (set NETLINK_EXT_ACK on the socket to receive it).
 *
 * Commands marked "admin" need CAP_NET_ADMIN (in the initial user namespace)
 * and fail with -EPERM without it; the others are open to every user.
 */
#ifndef _UAPI_UB_UBCORE_NETLINK_H
#define _UAPI_UB_UBCORE_NETLINK_H

#define UBCORE_GENL_FAMILY_NAME		"ubcore"
#define UBCORE_GENL_FAMILY_VERSION	1

/* Length of an EID (UBCORE_NL_ATTR_EID): 128 bits, network byte order. */
#define UBCORE_NL_EID_LEN		16

/**
 * enum ubcore_nl_cmd - commands of the "ubcore" family
 * @UBCORE_NL_CMD_UNSPEC: not a command
 * @UBCORE_NL_CMD_DEV_GET: one device (do, with %UBCORE_NL_ATTR_DEV_NAME) or
 *	every device (dump). Each reply holds %UBCORE_NL_ATTR_DEV_NAME,
 *	%UBCORE_NL_ATTR_DRIVER_NAME, %UBCORE_NL_ATTR_NETDEV_NAME (when the
 *	device is bound to a netdev), %UBCORE_NL_ATTR_EID_MODE,
 *	%UBCORE_NL_ATTR_PORT_STATE, %UBCORE_NL_ATTR_ACTIVE_MTU,
 *	%UBCORE_NL_ATTR_DEV_CAP and %UBCORE_NL_ATTR_DEV_OBJ. Errors: -ENODEV
 *	(no such device).
 * @UBCORE_NL_CMD_DEV_ADD: admin. Create a device of provider
 *	%UBCORE_NL_ATTR_LINK_TYPE ("udma") on the netdev
 *	%UBCORE_NL_ATTR_NETDEV_NAME of the caller's network namespace, named
 *	%UBCORE_NL_ATTR_DEV_NAME if given (a name, or a format with one "%d"
 *	for the lowest free number), else "<type>%d". Errors: -ENODEV (no such
 *	netdev), -EOPNOTSUPP (no such provider: its module is not loaded),
 *	-EEXIST (the name is taken, or the provider allows one device per
 *	netdev and there is one), -EINVAL (bad name), or the provider's error.
 * @UBCORE_NL_CMD_DEV_DEL: admin. Remove the device %UBCORE_NL_ATTR_DEV_NAME
 *	(a logical device: as DEV_UNEXPOSE).
 *	Errors: -ENODEV (no such device, or it is going away anyway),
 *	-EOPNOTSUPP (its provider does not remove devices on request).
 * @UBCORE_NL_CMD_EID_GET: dump the valid entries of the EID table of the
 *	device %UBCORE_NL_ATTR_DEV_NAME, one message per entry with
 *	%UBCORE_NL_ATTR_DEV_NAME, %UBCORE_NL_ATTR_EID_INDEX,
 *	%UBCORE_NL_ATTR_EID and %UBCORE_NL_ATTR_EID_STATIC for an entry an
 *	administrator added. Errors: -ENODEV.
 * @UBCORE_NL_CMD_EID_ADD: admin. Add the static EID %UBCORE_NL_ATTR_EID at
 *	%UBCORE_NL_ATTR_EID_INDEX of device %UBCORE_NL_ATTR_DEV_NAME. Errors:
 *	-ENODEV, -EINVAL (index out of range), -EEXIST (the EID is in the
 *	table, or the index holds a static EID), -EBUSY (the index holds a
 *	dynamic EID).
 * @UBCORE_NL_CMD_EID_DEL: admin. Remove the static EID at
 *	%UBCORE_NL_ATTR_EID_INDEX of device %UBCORE_NL_ATTR_DEV_NAME. Errors:
 *	-ENODEV, -EINVAL (index out of range), -ENOENT (the index is empty),
 *	-EPERM (it holds a dynamic EID, which follows the netdev).
 * @UBCORE_NL_CMD_EID_SET_MODE: admin. Set %UBCORE_NL_ATTR_EID_MODE of device
 *	%UBCORE_NL_ATTR_DEV_NAME; static mode drops the dynamic EIDs, dynamic
 *	mode fills the table from the netdev's addresses again. Errors:
 *	-ENODEV, -EINVAL (unknown mode).
 * @UBCORE_NL_CMD_RES_GET: the objects of one kind (%UBCORE_NL_ATTR_RES_TYPE)
 *	of device %UBCORE_NL_ATTR_DEV_NAME. Do: the one object
 *	%UBCORE_NL_ATTR_RES_ID (required; not for segments, which a token ID
 *	may name several of: -EOPNOTSUPP, dump them with the ID instead).
 *	Dump: every object of the kind in ascending ID order, or with
 *	%UBCORE_NL_ATTR_RES_ID only that one (segments: every segment of that
 *	token ID). Each reply holds %UBCORE_NL_ATTR_DEV_NAME,
 *	%UBCORE_NL_ATTR_RES_TYPE and one %UBCORE_NL_ATTR_RES. A dump resumes
 *	by ID between messages: an object created or destroyed meanwhile may
 *	or may not be listed, no object is listed twice (segments of one
 *	token ID resume by position in its list, which may shift). Token
 *	values are never reported. TPs are listed by TPN from the device's
 *	TP table (ubcore's connection manager). Errors:
 *	-ENODEV, -EINVAL (missing or unknown type, missing ID in a do),
 *	-ENOENT (no object with that ID), -EOPNOTSUPP (a do for segments).
 *	A dump refuses a bad device or type in the NLMSG_ERROR reply to the
 *	request (without a message), an unknown ID in its NLMSG_DONE (the
 *	errno, and the message with NLM_F_ACK_TLVS).
 * @UBCORE_NL_CMD_SYS_GET: do: what ubcore is: %UBCORE_NL_ATTR_SYS_DEV_COUNT,
 *	%UBCORE_NL_ATTR_SYS_NS_MODE, %UBCORE_NL_ATTR_SYS_NL_VERSION,
 *	%UBCORE_NL_ATTR_SYS_ABI_VERSION and %UBCORE_NL_ATTR_SYS_DEV_SHARING.
 *	Takes no attribute.
 * @UBCORE_NL_CMD_DEV_SET_NS: admin in the device's and the target
 *	namespace's user namespaces. Move physical device
 *	%UBCORE_NL_ATTR_DEV_NAME (seen in the sender's namespace) to the
 *	network namespace of %UBCORE_NL_ATTR_NS_FD: it is then seen there
 *	only; its port stays with its netdev. Errors: -ENODEV, -EINVAL (a
 *	logical device), -EBADF or -EINVAL (not a namespace fd), -EEXIST (a
 *	device of that name is there), -EBUSY (a user context is open on it),
 *	-EPERM.
 * @UBCORE_NL_CMD_DEV_EXPOSE: admin, as DEV_SET_NS. Create a logical device
 *	of physical device %UBCORE_NL_ATTR_DEV_NAME in the namespace of
 *	%UBCORE_NL_ATTR_NS_FD. Errors: -ENODEV, -EINVAL, -EBADF, -EEXIST (the
 *	device is in that namespace, or has a logical device there),
 *	-EOPNOTSUPP (its provider has no logical devices), -EPERM.
 * @UBCORE_NL_CMD_DEV_UNEXPOSE: admin, as DEV_SET_NS. Delete the logical
 *	device of %UBCORE_NL_ATTR_DEV_NAME in the namespace of
 *	%UBCORE_NL_ATTR_NS_FD; its objects are destroyed, its EIDs go back to
 *	the physical device. Errors: -ENODEV, -EINVAL, -EBADF, -ENOENT (no
 *	logical device there), -EPERM.
 * @UBCORE_NL_CMD_EID_SET_NS: admin, as DEV_SET_NS. Give EID
 *	%UBCORE_NL_ATTR_EID_INDEX of physical device %UBCORE_NL_ATTR_DEV_NAME
 *	the namespace of %UBCORE_NL_ATTR_NS_FD: the logical device there shows
 *	it, and no other device (the device's own namespace: back to it).
 *	Errors: -ENODEV, -EINVAL, -EBADF, -ENOENT (empty slot), -EBUSY (a user
 *	context uses the EID), -EPERM.
 * @UBCORE_NL_CMD_SYS_SET: admin (initial user namespace). Set
 *	%UBCORE_NL_ATTR_SYS_DEV_SHARING: on creates a logical device of every
 *	physical device in every namespace, now and in each one created
 *	later; off creates no more (deletes none). Errors: -EINVAL, -EPERM,
 *	or the first error of creating a logical device.
 * @__UBCORE_NL_CMD_MAX: one past the last command
 * @UBCORE_NL_CMD_MAX: the last command
 */
enum ubcore_nl_cmd {
	UBCORE_NL_CMD_UNSPEC,
	UBCORE_NL_CMD_DEV_GET,
	UBCORE_NL_CMD_DEV_ADD,
	UBCORE_NL_CMD_DEV_DEL,
	UBCORE_NL_CMD_EID_GET,
	UBCORE_NL_CMD_EID_ADD,
	UBCORE_NL_CMD_EID_DEL,
	UBCORE_NL_CMD_EID_SET_MODE,
	UBCORE_NL_CMD_RES_GET,
	UBCORE_NL_CMD_SYS_GET,
	UBCORE_NL_CMD_DEV_SET_NS,
	UBCORE_NL_CMD_DEV_EXPOSE,
	UBCORE_NL_CMD_DEV_UNEXPOSE,
	UBCORE_NL_CMD_EID_SET_NS,
	UBCORE_NL_CMD_SYS_SET,

	__UBCORE_NL_CMD_MAX,
	UBCORE_NL_CMD_MAX = __UBCORE_NL_CMD_MAX - 1
};

/**
 * enum ubcore_nl_attr - top-level attributes of the "ubcore" family
 * @UBCORE_NL_ATTR_UNSPEC: not an attribute
 * @UBCORE_NL_ATTR_PAD: padding of 64-bit attributes; ignore
 * @UBCORE_NL_ATTR_DEV_NAME: string, the UB device's name (at most 63 bytes)
 * @UBCORE_NL_ATTR_DRIVER_NAME: string, the provider of the device ("udma");
 *	in replies
 * @UBCORE_NL_ATTR_NETDEV_NAME: string, the name of a netdev (at most 15
 *	bytes)
 * @UBCORE_NL_ATTR_LINK_TYPE: string, the provider that creates a device
 *	(DEV_ADD, at most 31 bytes)
 * @UBCORE_NL_ATTR_EID_MODE: u8, how the EID table is filled, enum
 *	ubcore_nl_eid_mode
 * @UBCORE_NL_ATTR_PORT_STATE: u8, the port's state in replies, the values
 *	of urma_port_state_t: 0 NOP, 1 DOWN, 2 INIT, 3 ARMED, 4 ACTIVE,
 *	5 ACTIVE_DEFER
 * @UBCORE_NL_ATTR_ACTIVE_MTU: u32, the port's active MTU in bytes (0 when
 *	unknown); in replies
 * @UBCORE_NL_ATTR_DEV_CAP: nested, the device's capabilities, attributes of
 *	enum ubcore_nl_cap_attr; in replies
 * @UBCORE_NL_ATTR_EID_INDEX: u32, an index of the EID table (0 .. 63)
 * @UBCORE_NL_ATTR_EID: binary, exactly %UBCORE_NL_EID_LEN bytes: an EID (an
 *	IPv6 address; an IPv4 address is IPv4-mapped, ::ffff:a.b.c.d)
 * @UBCORE_NL_ATTR_EID_STATIC: flag, the EID was added by an administrator;
 *	in EID_GET replies
 * @UBCORE_NL_ATTR_DEV_OBJ: nested, the device's live objects, attributes of
 *	enum ubcore_nl_obj_attr; in DEV_GET replies
 * @UBCORE_NL_ATTR_RES_TYPE: u8, a kind of object, enum ubcore_nl_res_type
 *	(RES_GET; another value is refused with -EINVAL)
 * @UBCORE_NL_ATTR_RES_ID: u32, the ID of an object: JFC ID, jetty ID of a
 *	JFS, JFR or jetty, token ID of segments, TP number (RES_GET)
 * @UBCORE_NL_ATTR_RES: nested, one object, attributes of enum
 *	ubcore_nl_res_attr; in RES_GET replies
 * @UBCORE_NL_ATTR_SYS_DEV_COUNT: u32, registered UB devices; in SYS_GET
 *	replies
 * @UBCORE_NL_ATTR_SYS_NS_MODE: u8, how devices and EIDs are seen from
 *	network namespaces, enum ubcore_nl_ns_mode; in SYS_GET replies
 * @UBCORE_NL_ATTR_SYS_NL_VERSION: u32, %UBCORE_GENL_FAMILY_VERSION of the
 *	running kernel; in SYS_GET replies
 * @UBCORE_NL_ATTR_SYS_ABI_VERSION: u32, the uburma char device ABI version
 *	(UBCORE_ABI_VERSION of ubcore_abi.h); in SYS_GET replies
 * @UBCORE_NL_ATTR_NS_FD: u32, an open file descriptor of the sender's
 *	naming a network namespace (/var/run/netns/<name>, /proc/<pid>/ns/net)
 * @UBCORE_NL_ATTR_SYS_DEV_SHARING: u8, 1: automatic mode (the user guide's
 *	dev_sharing on), 0: manual; SYS_SET, SYS_GET replies
 * @UBCORE_NL_ATTR_DEV_LOGICAL: flag, the device is a logical device (of the
 *	physical device of its name in another namespace); in DEV_GET replies
 * @__UBCORE_NL_ATTR_MAX: one past the last attribute
 * @UBCORE_NL_ATTR_MAX: the last attribute
 */
enum ubcore_nl_attr {
	UBCORE_NL_ATTR_UNSPEC,
	UBCORE_NL_ATTR_PAD,
	UBCORE_NL_ATTR_DEV_NAME,
	UBCORE_NL_ATTR_DRIVER_NAME,
	UBCORE_NL_ATTR_NETDEV_NAME,
	UBCORE_NL_ATTR_LINK_TYPE,
	UBCORE_NL_ATTR_EID_MODE,
	UBCORE_NL_ATTR_PORT_STATE,
	UBCORE_NL_ATTR_ACTIVE_MTU,
	UBCORE_NL_ATTR_DEV_CAP,
	UBCORE_NL_ATTR_EID_INDEX,
	UBCORE_NL_ATTR_EID,
	UBCORE_NL_ATTR_EID_STATIC,
	UBCORE_NL_ATTR_DEV_OBJ,
	UBCORE_NL_ATTR_RES_TYPE,
	UBCORE_NL_ATTR_RES_ID,
	UBCORE_NL_ATTR_RES,
	UBCORE_NL_ATTR_SYS_DEV_COUNT,
	UBCORE_NL_ATTR_SYS_NS_MODE,
	UBCORE_NL_ATTR_SYS_NL_VERSION,
	UBCORE_NL_ATTR_SYS_ABI_VERSION,
	UBCORE_NL_ATTR_NS_FD,
	UBCORE_NL_ATTR_SYS_DEV_SHARING,
	UBCORE_NL_ATTR_DEV_LOGICAL,

	__UBCORE_NL_ATTR_MAX,
	UBCORE_NL_ATTR_MAX = __UBCORE_NL_ATTR_MAX - 1
};

/**
 * enum ubcore_nl_cap_attr - attributes nested in %UBCORE_NL_ATTR_DEV_CAP
 * @UBCORE_NL_CAP_UNSPEC: not an attribute
 * @UBCORE_NL_CAP_PAD: padding of 64-bit attributes; ignore
 * @UBCORE_NL_CAP_MAX_JFC: u32, number of JFCs
 * @UBCORE_NL_CAP_MAX_JFS: u32, number of JFSs
 * @UBCORE_NL_CAP_MAX_JFR: u32, number of JFRs
 * @UBCORE_NL_CAP_MAX_JETTY: u32, number of jetties
 * @UBCORE_NL_CAP_MAX_JFC_DEPTH: u32, entries of one JFC
 * @UBCORE_NL_CAP_MAX_JFS_DEPTH: u32, WQEs of one JFS or jetty send queue
 * @UBCORE_NL_CAP_MAX_JFR_DEPTH: u32, RQEs of one JFR or jetty receive queue
 * @UBCORE_NL_CAP_MAX_JFS_SGE: u32, local SGEs in one send WQE
 * @UBCORE_NL_CAP_MAX_JFS_RSGE: u32, remote SGEs in one send WQE
 * @UBCORE_NL_CAP_MAX_JFR_SGE: u32, SGEs in one receive WQE
 * @UBCORE_NL_CAP_MAX_JFS_INLINE_SIZE: u32, inline bytes in one send WQE
 * @UBCORE_NL_CAP_MAX_MSG_SIZE: u64, bytes of one message
 * @UBCORE_NL_CAP_MAX_WRITE_SIZE: u64, bytes of one write
 * @UBCORE_NL_CAP_MAX_READ_SIZE: u64, bytes of one read
 * @UBCORE_NL_CAP_MAX_TOKEN_ID: u32, token IDs the device can hold
 * @UBCORE_NL_CAP_ATOMIC_FEATURE: u32, atomics supported, bits as in
 *	urma_admin: 0 CAS, 1 SWAP, 2 FAA, 3 FSUB, 4 FOR, 5 FXOR
 * @UBCORE_NL_CAP_TRANS_MODE: u32, transport modes, bits: 0 RM, 1 RC, 2 UM
 * @UBCORE_NL_CAP_CONGESTION_CTRL_ALG: u32, congestion control algorithms,
 *	bits: 0 none, 1 DCQCN
 * @UBCORE_NL_CAP_RESERVED_JETTY_ID_MAX: u32, jetty IDs 1 .. this are
 *	reserved for well-known jetties
 * @__UBCORE_NL_CAP_MAX: one past the last attribute
 * @UBCORE_NL_CAP_MAX: the last attribute
 */
enum ubcore_nl_cap_attr {
	UBCORE_NL_CAP_UNSPEC,
	UBCORE_NL_CAP_PAD,
	UBCORE_NL_CAP_MAX_JFC,
	UBCORE_NL_CAP_MAX_JFS,
	UBCORE_NL_CAP_MAX_JFR,
	UBCORE_NL_CAP_MAX_JETTY,
	UBCORE_NL_CAP_MAX_JFC_DEPTH,
	UBCORE_NL_CAP_MAX_JFS_DEPTH,
	UBCORE_NL_CAP_MAX_JFR_DEPTH,
	UBCORE_NL_CAP_MAX_JFS_SGE,
	UBCORE_NL_CAP_MAX_JFS_RSGE,
	UBCORE_NL_CAP_MAX_JFR_SGE,
	UBCORE_NL_CAP_MAX_JFS_INLINE_SIZE,
	UBCORE_NL_CAP_MAX_MSG_SIZE,
	UBCORE_NL_CAP_MAX_WRITE_SIZE,
	UBCORE_NL_CAP_MAX_READ_SIZE,
	UBCORE_NL_CAP_MAX_TOKEN_ID,
	UBCORE_NL_CAP_ATOMIC_FEATURE,
	UBCORE_NL_CAP_TRANS_MODE,
	UBCORE_NL_CAP_CONGESTION_CTRL_ALG,
	UBCORE_NL_CAP_RESERVED_JETTY_ID_MAX,

	__UBCORE_NL_CAP_MAX,
	UBCORE_NL_CAP_MAX = __UBCORE_NL_CAP_MAX - 1
};

/**
 * enum ubcore_nl_obj_attr - attributes nested in %UBCORE_NL_ATTR_DEV_OBJ:
 *	how many objects of each kind the device has now (the files of
 *	/sys/class/ubcore/<dev>/objects/)
 * @UBCORE_NL_OBJ_UNSPEC: not an attribute
 * @UBCORE_NL_OBJ_PAD: padding of 64-bit attributes; ignore
 * @UBCORE_NL_OBJ_UCONTEXT: u32, user contexts
 * @UBCORE_NL_OBJ_JFC: u32, JFCs
 * @UBCORE_NL_OBJ_JFS: u32, JFSs
 * @UBCORE_NL_OBJ_JFR: u32, JFRs
 * @UBCORE_NL_OBJ_JETTY: u32, jetties
 * @UBCORE_NL_OBJ_TOKEN_ID: u32, token IDs
 * @UBCORE_NL_OBJ_SEG: u32, registered segments
 * @UBCORE_NL_OBJ_TARGET_SEG: u32, imported segments
 * @UBCORE_NL_OBJ_TJFR: u32, imported JFRs
 * @UBCORE_NL_OBJ_TJETTY: u32, imported jetties
 * @UBCORE_NL_OBJ_PINNED_PAGES: u64, user pages pinned by segments
 * @UBCORE_NL_OBJ_JETTY_GRP: u32, jetty groups
 * @__UBCORE_NL_OBJ_MAX: one past the last attribute
 * @UBCORE_NL_OBJ_MAX: the last attribute
 */
enum ubcore_nl_obj_attr {
	UBCORE_NL_OBJ_UNSPEC,
	UBCORE_NL_OBJ_PAD,
	UBCORE_NL_OBJ_UCONTEXT,
	UBCORE_NL_OBJ_JFC,
	UBCORE_NL_OBJ_JFS,
	UBCORE_NL_OBJ_JFR,
	UBCORE_NL_OBJ_JETTY,
	UBCORE_NL_OBJ_TOKEN_ID,
	UBCORE_NL_OBJ_SEG,
	UBCORE_NL_OBJ_TARGET_SEG,
	UBCORE_NL_OBJ_TJFR,
	UBCORE_NL_OBJ_TJETTY,
	UBCORE_NL_OBJ_PINNED_PAGES,
	UBCORE_NL_OBJ_JETTY_GRP,

	__UBCORE_NL_OBJ_MAX,
	UBCORE_NL_OBJ_MAX = __UBCORE_NL_OBJ_MAX - 1
};

/**
 * enum ubcore_nl_eid_mode - values of %UBCORE_NL_ATTR_EID_MODE
 * @UBCORE_NL_EID_MODE_DYNAMIC: the EID table follows the addresses of the
 *	bound netdev; an administrator may add static EIDs at free indexes
 * @UBCORE_NL_EID_MODE_STATIC: only an administrator's EIDs
 */
enum ubcore_nl_eid_mode {
	UBCORE_NL_EID_MODE_DYNAMIC = 0,
	UBCORE_NL_EID_MODE_STATIC = 1,
};

/**
 * enum ubcore_nl_res_type - values of %UBCORE_NL_ATTR_RES_TYPE
 * @UBCORE_NL_RES_JFC: JFCs
 * @UBCORE_NL_RES_JFS: JFSs
 * @UBCORE_NL_RES_JFR: JFRs
 * @UBCORE_NL_RES_JETTY: jetties
 * @UBCORE_NL_RES_SEG: registered segments (not imported ones)
 * @UBCORE_NL_RES_TP: transport channels (TPs) of the connection manager
 * @__UBCORE_NL_RES_TYPE_MAX: one past the last type
 */
enum ubcore_nl_res_type {
	UBCORE_NL_RES_JFC,
	UBCORE_NL_RES_JFS,
	UBCORE_NL_RES_JFR,
	UBCORE_NL_RES_JETTY,
	UBCORE_NL_RES_SEG,
	UBCORE_NL_RES_TP,

	__UBCORE_NL_RES_TYPE_MAX,
};

/**
 * enum ubcore_nl_res_attr - attributes nested in %UBCORE_NL_ATTR_RES; which
 *	kinds of object carry each is in brackets
 * @UBCORE_NL_RES_UNSPEC: not an attribute
 * @UBCORE_NL_RES_PAD: padding of 64-bit attributes; ignore
 * @UBCORE_NL_RES_ID: u32, the object's ID; a segment's token ID [all]
 * @UBCORE_NL_RES_DEPTH: u32, entries of the queue as created (rounded up
 *	by the provider); a jetty's send queue [jfc jfs jfr jetty]
 * @UBCORE_NL_RES_FLAG: u32, the creation flags: urma_jfc_flag_t,
 *	urma_jfs_flag_t, urma_jfr_flag_t or urma_jetty_flag_t bits
 *	[jfc jfs jfr jetty]
 * @UBCORE_NL_RES_JFCE: flag, completion events go to a handler (a JFCE
 *	for a user JFC) [jfc]
 * @UBCORE_NL_RES_USE_CNT: u32, JFSs, JFRs and jetties that complete to the
 *	JFC; jetties that share the JFR [jfc jfr]
 * @UBCORE_NL_RES_TRANS_MODE: u32, one bit of the UBCORE_NL_CAP_TRANS_MODE
 *	bits [jfs jfr jetty]
 * @UBCORE_NL_RES_STATE: u8, the state: urma_jetty_state_t values (0 RESET,
 *	1 READY, 2 SUSPENDED, 3 ERROR) for a JFS or jetty, urma_jfr_state_t
 *	values (0 RESET, 1 READY, 2 ERROR) for a JFR [jfs jfr jetty]
 * @UBCORE_NL_RES_JFC_ID: u32, the JFC send completions (JFS, jetty) or
 *	receive completions (JFR) go to [jfs jfr jetty]
 * @UBCORE_NL_RES_RECV_JFC_ID: u32, the JFC a jetty's receive completions
 *	go to [jetty]
 * @UBCORE_NL_RES_JFR_ID: u32, the JFR a jetty receives on [jetty]
 * @UBCORE_NL_RES_PRIORITY: u8, 0 .. 15 [jfs jetty]
 * @UBCORE_NL_RES_MAX_SGE: u32, SGEs per WQE [jfs jfr jetty]
 * @UBCORE_NL_RES_MAX_INLINE: u32, inline bytes per WQE [jfs jetty]
 * @UBCORE_NL_RES_RNR_RETRY: u8, 0 .. 7 [jfs jetty]
 * @UBCORE_NL_RES_ERR_TIMEOUT: u8, 0 .. 31 [jfs jetty]
 * @UBCORE_NL_RES_MIN_RNR_TIMER: u8, 0 .. 31 [jfr]
 * @UBCORE_NL_RES_RX_THRESHOLD: u32, the limit event threshold [jfr jetty]
 * @UBCORE_NL_RES_KERNEL: flag, a kernel client's object (no user context,
 *	so no %UBCORE_NL_RES_UASID or %UBCORE_NL_RES_PID) [all]
 * @UBCORE_NL_RES_UASID: u32, the UASID of the owning user context [all]
 * @UBCORE_NL_RES_PID: u32, the process that created the owning user
 *	context, as seen from the reader's PID namespace; absent when it is
 *	not visible there [all]
 * @UBCORE_NL_RES_EID: binary, %UBCORE_NL_EID_LEN bytes, the EID of the
 *	segment's UB address [seg]
 * @UBCORE_NL_RES_VA: u64, the virtual address of the segment's first byte
 *	[seg]
 * @UBCORE_NL_RES_LEN: u64, bytes of the segment [seg]
 * @UBCORE_NL_RES_ACCESS: u32, remote access rights: 0x1 LOCAL_ONLY,
 *	0x2 READ, 0x4 WRITE, 0x8 ATOMIC [seg]
 * @UBCORE_NL_RES_PINNED_PAGES: u64, user pages the segment keeps pinned (0
 *	for a kernel segment) [seg]
 * @UBCORE_NL_RES_HIDDEN: flag, the object is another user's (or the
 *	kernel's) and the reader has no CAP_NET_ADMIN in the device's network
 *	namespace: its owner (%UBCORE_NL_RES_UASID, %UBCORE_NL_RES_PID) and,
 *	for a segment, its token ID (%UBCORE_NL_RES_ID) and
 *	%UBCORE_NL_RES_VA are left out; a dump by token ID finds only the
 *	reader's own segments [all]
 * @UBCORE_NL_RES_ACCESS_FAIL: u32, remote accesses to the segment that
 *	its target refused (wrong token, right or range); the segment is
 *	invalidated when they reach the device's access_fail/threshold
 *	in sysfs [seg]
 * @UBCORE_NL_RES_PEER_TPN: u32, the peer's TPN of the TP (0: not known
 *	yet); for a TP, %UBCORE_NL_RES_ID is this end's TPN,
 *	%UBCORE_NL_RES_EID the peer's EID, %UBCORE_NL_RES_TRANS_MODE its mode
 *	and %UBCORE_NL_RES_STATE its state in the connection state machine of
 *	the user guide 5.1.1.4, in the guide's legend order: 0 reset, 1 REQ
 *	sent, 5 Initiator established, 10 reused, 12 REP sent, 13 Target
 *	established, 15 Reuse sent (the others are transient) [tp]
 * @UBCORE_NL_RES_USERS: u32, local users of the TP (imports, binds) [tp]
 * @UBCORE_NL_RES_AGE_MS: u64, milliseconds since the TP was created [tp]
 * @__UBCORE_NL_RES_MAX: one past the last attribute
 * @UBCORE_NL_RES_MAX: the last attribute
 */
enum ubcore_nl_res_attr {
	UBCORE_NL_RES_UNSPEC,
	UBCORE_NL_RES_PAD,
	UBCORE_NL_RES_ID,
	UBCORE_NL_RES_DEPTH,
	UBCORE_NL_RES_FLAG,
	UBCORE_NL_RES_JFCE,
	UBCORE_NL_RES_USE_CNT,
	UBCORE_NL_RES_TRANS_MODE,
	UBCORE_NL_RES_STATE,
	UBCORE_NL_RES_JFC_ID,
	UBCORE_NL_RES_RECV_JFC_ID,
	UBCORE_NL_RES_JFR_ID,
	UBCORE_NL_RES_PRIORITY,
	UBCORE_NL_RES_MAX_SGE,
	UBCORE_NL_RES_MAX_INLINE,
	UBCORE_NL_RES_RNR_RETRY,
	UBCORE_NL_RES_ERR_TIMEOUT,
	UBCORE_NL_RES_MIN_RNR_TIMER,
	UBCORE_NL_RES_RX_THRESHOLD,
	UBCORE_NL_RES_KERNEL,
	UBCORE_NL_RES_UASID,
	UBCORE_NL_RES_PID,
	UBCORE_NL_RES_EID,
	UBCORE_NL_RES_VA,
	UBCORE_NL_RES_LEN,
	UBCORE_NL_RES_ACCESS,
	UBCORE_NL_RES_PINNED_PAGES,
	UBCORE_NL_RES_HIDDEN,
	UBCORE_NL_RES_ACCESS_FAIL,
	UBCORE_NL_RES_PEER_TPN,
	UBCORE_NL_RES_USERS,
	UBCORE_NL_RES_AGE_MS,

	__UBCORE_NL_RES_MAX,
	UBCORE_NL_RES_MAX = __UBCORE_NL_RES_MAX - 1
};

/**
 * enum ubcore_nl_ns_mode - values of %UBCORE_NL_ATTR_SYS_NS_MODE
 * @UBCORE_NL_NS_SHARED: every UB device and its EIDs are seen from every
 *	network namespace (the user guide's dev_sharing and eid_sharing on)
 * @UBCORE_NL_NS_EXCLUSIVE: a UB device belongs to one network namespace
 *	(a physical device: its netdev's, the initial one without a netdev,
 *	or where DEV_SET_NS moved it; a logical device: the one it was
 *	created in) and it, its EIDs and its objects are seen only from
 *	there: netlink, sysfs mounted there, /dev/uburma (open elsewhere:
 *	-EPERM); the mode ubcore implements, with logical devices for the
 *	other namespaces (%UBCORE_NL_ATTR_SYS_DEV_SHARING)
 */
enum ubcore_nl_ns_mode {
	UBCORE_NL_NS_SHARED = 0,
	UBCORE_NL_NS_EXCLUSIVE = 1,
};

#endif /* _UAPI_UB_UBCORE_NETLINK_H */
