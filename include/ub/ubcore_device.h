/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * UB devices as ubcore sees them: what a provider (udma, or hardware later)
 * registers, the capabilities it reports, its EID table and port state, and
 * the clients (uburma, ipourma, roub, ums) that attach to every device.
 */
#ifndef _UB_UBCORE_DEVICE_H
#define _UB_UBCORE_DEVICE_H

#include <linux/device.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/netdevice.h>
#include <linux/seqlock.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>
#include <linux/xarray.h>

#include <ub/ubcore_dp.h>
#include <ub/ubcore_eid.h>
#include <ub/ubcore_jetty.h>
#include <ub/ubcore_segment.h>
#include <ub/ubcore_uobj.h>

struct vm_area_struct;

#define UBCORE_MAX_DEV_NAME	64
/* Size of a device's EID table; indexes are 0 .. UBCORE_MAX_EID_CNT - 1. */
#define UBCORE_MAX_EID_CNT	64
/* Kernel clients that can be registered at once. */
#define UBCORE_MAX_CLIENTS	16

/* Values as urma_port_state_t. */
enum ubcore_port_state {
	UBCORE_PORT_NOP = 0,
	UBCORE_PORT_DOWN,
	UBCORE_PORT_INIT,
	UBCORE_PORT_ARMED,
	UBCORE_PORT_ACTIVE,
	UBCORE_PORT_ACTIVE_DEFER,
};

/* Values as urma_mtu_t. */
enum ubcore_mtu {
	UBCORE_MTU_256 = 1,
	UBCORE_MTU_512,
	UBCORE_MTU_1024,
	UBCORE_MTU_2048,
	UBCORE_MTU_4096,
	UBCORE_MTU_8192,
};

/* How the EID table is filled: from the netdev's addresses, or by admin. */
enum ubcore_eid_mode {
	UBCORE_EID_MODE_DYNAMIC = 0,
	UBCORE_EID_MODE_STATIC,
};

/*
 * atomic_feature bits: bits 0-5 are the user guide's (urma_admin show -w).
 * The guide has no bit for FETCH_AND although URMA has its opcode
 * (URMA_OPC_FAND) and UB its transaction (Fetch_and, 0xD); bit 6 is ours
 * for it. UB's Store (0x9) and Load (0xA) atomics have no URMA opcode, so
 * no WR can ask for them and they get no bit: devices do not offer them.
 */
#define UBCORE_ATOMIC_CAS	BIT(0)
#define UBCORE_ATOMIC_SWAP	BIT(1)
#define UBCORE_ATOMIC_FAA	BIT(2)
#define UBCORE_ATOMIC_FSUB	BIT(3)
#define UBCORE_ATOMIC_FOR	BIT(4)
#define UBCORE_ATOMIC_FXOR	BIT(5)
#define UBCORE_ATOMIC_FAND	BIT(6)

/* trans_mode bits. */
#define UBCORE_TM_RM		BIT(0)
#define UBCORE_TM_RC		BIT(1)
#define UBCORE_TM_UM		BIT(2)

/* congestion_ctrl_alg bits. */
#define UBCORE_CC_NONE		BIT(0)
#define UBCORE_CC_DCQCN		BIT(1)

/**
 * struct ubcore_device_cap - what a device can do; fixed at registration
 * @max_jfc: number of JFCs
 * @max_jfs: number of JFSs
 * @max_jfr: number of JFRs
 * @max_jetty: number of jetties
 * @max_jfc_depth: entries of one JFC
 * @max_jfs_depth: WQEs of one JFS or jetty send queue
 * @max_jfr_depth: RQEs of one JFR or jetty receive queue
 * @max_jfs_sge: local SGEs in one send WQE
 * @max_jfs_rsge: remote SGEs in one send WQE (1 in UB)
 * @max_jfr_sge: SGEs in one receive WQE
 * @max_jfs_inline_size: inline data bytes in one send WQE
 * @max_msg_size: bytes of one message (sum of the SGEs)
 * @max_write_size: bytes of one write
 * @max_read_size: bytes of one read
 * @max_token_id: token IDs (segments) the device can hold
 * @atomic_feature: UBCORE_ATOMIC_* bits
 * @trans_mode: UBCORE_TM_* bits
 * @congestion_ctrl_alg: UBCORE_CC_* bits
 * @reserved_jetty_id_max: jetty IDs 1 .. this are reserved for well-known
 *	jetties that kernel clients ask for by number; dynamic IDs are above it
 * @max_jetty_grp: number of jetty groups (0: the device has none)
 * @max_jetty_in_jetty_grp: jetties in one group, at most
 *	UBCORE_MAX_JETTY_IN_JETTY_GRP
 */
struct ubcore_device_cap {
	u32 max_jfc;
	u32 max_jfs;
	u32 max_jfr;
	u32 max_jetty;
	u32 max_jfc_depth;
	u32 max_jfs_depth;
	u32 max_jfr_depth;
	u32 max_jfs_sge;
	u32 max_jfs_rsge;
	u32 max_jfr_sge;
	u32 max_jfs_inline_size;
	u64 max_msg_size;
	u64 max_write_size;
	u64 max_read_size;
	u32 max_token_id;
	u32 atomic_feature;
	u32 trans_mode;
	u32 congestion_ctrl_alg;
	u32 reserved_jetty_id_max;
	u32 max_jetty_grp;
	u32 max_jetty_in_jetty_grp;
};

struct ubcore_device;
struct ubcore_cm;

/**
 * struct ubcore_ops - what a provider implements
 * @owner: the provider module; ubcore holds a reference on it only while it
 *	calls @dellink (the provider unregisters its devices before it unloads)
 * @driver_name: short name of the provider ("udma")
 * @query_port: report the state and active MTU of the port; called by
 *	ubcore when the bound netdev changes, may sleep
 * @release: free the provider's own resources of the device once the last
 *	reference is gone; ubcore frees the structure itself afterwards
 * @dellink: remove this device at an administrator's request (netlink
 *	"dev del"); may sleep; returns 0 or a negative errno
 * @alloc_ucontext: create the provider's part of a user context (it may
 *	embed struct ubcore_ucontext); ubcore sets the common fields after
 * @free_ucontext: free it; every object of the context is gone by then
 * @mmap: map provider memory (queue rings) of a context into userspace;
 *	the offset names what (provider ABI)
 * @create_jfc: allocate a JFC (it may embed struct ubcore_jfc) and its
 *	queue for cfg->depth entries, rounding cfg->depth up as it needs;
 *	ubcore has checked cfg against the capabilities and sets the common
 *	fields after
 * @modify_jfc: apply attributes
 * @destroy_jfc: free what create_jfc allocated; no lookup holds it
 * @create_jfs: as @create_jfc, for a JFS; cfg->depth and
 *	cfg->max_inline_data may be rounded up
 * @modify_jfs: apply a state change ubcore has checked
 * @destroy_jfs: free it
 * @create_jfr: as @create_jfs, for a JFR
 * @modify_jfr: apply a state change or threshold ubcore has checked
 * @destroy_jfr: free it
 * @create_jetty: as @create_jfs, for a jetty
 * @modify_jetty: apply a state change or threshold ubcore has checked
 * @destroy_jetty: free it
 * @alloc_token_id: allocate the provider's part of a token ID (it may embed
 *	struct ubcore_token_id); ubcore assigns the number
 * @free_token_id: free it after an RCU grace period (kfree_rcu()):
 *	segment lookups may still be reading it
 * @register_seg: allocate a registered segment (it may embed struct
 *	ubcore_target_seg); ubcore has validated cfg and pinned user pages,
 *	and fills the common fields (including umem) after
 * @unregister_seg: free it after an RCU grace period (kfree_rcu()); no
 *	lookup holds a reference, one under RCU may still be reading it
 * @import_seg: allocate an imported segment
 * @unimport_seg: free it
 * @import_jfr: allocate an imported JFR (struct ubcore_tjetty)
 * @unimport_jfr: free it
 * @import_jetty: allocate an imported jetty
 * @unimport_jetty: free it
 * @jfs_doorbell: process new SQEs of a JFS (up to its ring's pi)
 * @jfr_doorbell: new RQEs were posted to a JFR
 * @jetty_doorbell: process new SQEs of a jetty
 * @rearm_jfc: arm the JFC's next completion event
 * @bind_jetty: an RC jetty now sends to @tjetty (ubcore checked both)
 * @unbind_jetty: undo it
 * @flush_jfs: see ubcore_flush_jfs()
 * @flush_jetty: see ubcore_flush_jetty()
 * @post_jfs_wr: post work requests to a kernel JFS (ubcore checked the
 *	JFS is a kernel caller's); see ubcore_post_jfs_wr()
 * @post_jfr_wr: post receive buffers to a kernel JFR
 * @post_jetty_send_wr: as @post_jfs_wr, for a kernel jetty
 * @post_jetty_recv_wr: post receive buffers to a kernel jetty's JFR
 * @poll_jfc: take completion records off a kernel JFC
 * @device_group: the provider's own attributes, or NULL: a named group (a
 *	subdirectory of /sys/class/ubcore/<dev>/) that ubcore adds with its
 *	own groups, so that it appears with the device (as RDMA's
 *	ib_device_ops.device_group); its show callbacks get the device's
 *	struct device (to_ubcore_device())
 *
 * Create and allocate operations return the object or an ERR_PTR; all may
 * sleep but the post and poll operations and @rearm_jfc, which must not
 * (include/ub/ubcore_dp.h gives their context). ubcore serialises nothing
 * for the provider beyond what the object lifetimes imply.
 */
struct ubcore_tp_xport;
struct ubcore_bond_cfg;
struct ubcore_bond_peer;
struct ubcore_bond_info;

struct ubcore_ops {
	struct module *owner;
	const char *driver_name;
	int (*query_port)(struct ubcore_device *dev, enum ubcore_port_state *state,
			  enum ubcore_mtu *mtu);
	void (*release)(struct ubcore_device *dev);
	int (*dellink)(struct ubcore_device *dev);

	struct ubcore_ucontext *(*alloc_ucontext)(struct ubcore_device *dev,
						  u32 eid_index,
						  struct ubcore_udata *udata);
	void (*free_ucontext)(struct ubcore_ucontext *uctx);
	int (*mmap)(struct ubcore_ucontext *uctx, struct vm_area_struct *vma);

	struct ubcore_jfc *(*create_jfc)(struct ubcore_device *dev,
					 struct ubcore_jfc_cfg *cfg,
					 struct ubcore_udata *udata);
	int (*modify_jfc)(struct ubcore_jfc *jfc,
			  const struct ubcore_jfc_attr *attr,
			  struct ubcore_udata *udata);
	void (*destroy_jfc)(struct ubcore_jfc *jfc);

	struct ubcore_jfs *(*create_jfs)(struct ubcore_device *dev,
					 struct ubcore_jfs_cfg *cfg,
					 struct ubcore_udata *udata);
	int (*modify_jfs)(struct ubcore_jfs *jfs,
			  const struct ubcore_jfs_attr *attr,
			  struct ubcore_udata *udata);
	void (*destroy_jfs)(struct ubcore_jfs *jfs);

	struct ubcore_jfr *(*create_jfr)(struct ubcore_device *dev,
					 struct ubcore_jfr_cfg *cfg,
					 struct ubcore_udata *udata);
	int (*modify_jfr)(struct ubcore_jfr *jfr,
			  const struct ubcore_jfr_attr *attr,
			  struct ubcore_udata *udata);
	void (*destroy_jfr)(struct ubcore_jfr *jfr);

	struct ubcore_jetty *(*create_jetty)(struct ubcore_device *dev,
					     struct ubcore_jetty_cfg *cfg,
					     struct ubcore_udata *udata);
	int (*modify_jetty)(struct ubcore_jetty *jetty,
			    const struct ubcore_jetty_attr *attr,
			    struct ubcore_udata *udata);
	void (*destroy_jetty)(struct ubcore_jetty *jetty);

	struct ubcore_token_id *(*alloc_token_id)(struct ubcore_device *dev,
						  u32 flag,
						  struct ubcore_udata *udata);
	void (*free_token_id)(struct ubcore_token_id *token_id);

	struct ubcore_target_seg *(*register_seg)(struct ubcore_device *dev,
						  struct ubcore_seg_cfg *cfg,
						  struct ubcore_udata *udata);
	void (*unregister_seg)(struct ubcore_target_seg *tseg);
	struct ubcore_target_seg *(*import_seg)(struct ubcore_device *dev,
						struct ubcore_target_seg_cfg *cfg,
						struct ubcore_udata *udata);
	void (*unimport_seg)(struct ubcore_target_seg *tseg);

	struct ubcore_tjetty *(*import_jfr)(struct ubcore_device *dev,
					    struct ubcore_tjetty_cfg *cfg,
					    struct ubcore_udata *udata);
	void (*unimport_jfr)(struct ubcore_tjetty *tjfr);
	struct ubcore_tjetty *(*import_jetty)(struct ubcore_device *dev,
					      struct ubcore_tjetty_cfg *cfg,
					      struct ubcore_udata *udata);
	void (*unimport_jetty)(struct ubcore_tjetty *tjetty);

	int (*jfs_doorbell)(struct ubcore_jfs *jfs);
	int (*jfr_doorbell)(struct ubcore_jfr *jfr);
	int (*jetty_doorbell)(struct ubcore_jetty *jetty);
	int (*rearm_jfc)(struct ubcore_jfc *jfc, bool solicited_only);
	int (*bind_jetty)(struct ubcore_jetty *jetty, struct ubcore_tjetty *tjetty);
	int (*unbind_jetty)(struct ubcore_jetty *jetty);
	int (*flush_jfs)(struct ubcore_jfs *jfs, u32 max_cnt, u32 *first,
			 u32 *cnt);
	int (*flush_jetty)(struct ubcore_jetty *jetty, u32 max_cnt, u32 *first,
			   u32 *cnt);

	int (*post_jfs_wr)(struct ubcore_jfs *jfs, struct ubcore_jfs_wr *wr,
			   struct ubcore_jfs_wr **bad_wr);
	int (*post_jfr_wr)(struct ubcore_jfr *jfr, struct ubcore_jfr_wr *wr,
			   struct ubcore_jfr_wr **bad_wr);
	int (*post_jetty_send_wr)(struct ubcore_jetty *jetty,
				  struct ubcore_jfs_wr *wr,
				  struct ubcore_jfs_wr **bad_wr);
	int (*post_jetty_recv_wr)(struct ubcore_jetty *jetty,
				  struct ubcore_jfr_wr *wr,
				  struct ubcore_jfr_wr **bad_wr);
	int (*poll_jfc)(struct ubcore_jfc *jfc, int cr_cnt,
			struct ubcore_cr *cr);
	const struct attribute_group *device_group;
	/*
	 * Send a connection manager message (@body: a struct uboe_mgmt_body
	 * of @len bytes, include/uapi/ub/uboe_wire.h) to the device that owns
	 * @dst: directly when it is on this host, else as a UBoE packet with a
	 * MGMTETAH. Called from a workqueue, may sleep; returns 0 when the
	 * message left (it may still be lost), else a negative errno
	 * (-EHOSTUNREACH: no way to @dst). The receiver's provider passes it
	 * to ubcore_recv_mgmt(). NULL: the device has no connection manager
	 * transport (imports that need a TP fail with -EOPNOTSUPP).
	 */
	int (*send_mgmt)(struct ubcore_device *dev, const union ubcore_eid *dst,
			 u8 type, u32 msg_id, const void *body, u16 len);
	/*
	 * The TP of local TPN @tpn is gone at this end: its last user closed
	 * it, the peer closed or refused it, or it lost its peer (no answer
	 * to keepalives, the peer's device removed, this device's port
	 * down). Nothing sent on it will be answered; the provider fails
	 * what waits for an answer on it at once (a request whose TP its
	 * user closed before the response came would else hold its memory
	 * for ever). Called by the connection manager before it tells the
	 * TP's users of a loss (an RC TP's bound jetty goes to ERROR, an RM
	 * TP's imports get UBCORE_EVENT_TP_ERR), in process context with its
	 * lock held: the provider may sleep but must not call the connection
	 * manager. NULL: nothing to fail.
	 */
	void (*tp_closed)(struct ubcore_device *dev, u32 tpn);
	/*
	 * The transport values a TP has until urma_set_tp_attr() sets its
	 * own (ubcore_get_tp_attr() reports them; the provider reads a TP's
	 * own with ubcore_tp_xport()). Any context; must not sleep. NULL:
	 * the device's TPs have no such values (get reports none, set is
	 * refused).
	 */
	void (*tp_defaults)(struct ubcore_device *dev,
			    struct ubcore_tp_xport *xport);
	/*
	 * Logical devices (ubcore/logical.c, user guide 6.3.1): create one
	 * of @phys, a physical device of this provider, for network
	 * namespace @net: allocate a device that shares @phys's port and
	 * engine, register it with ubcore_register_logical(), join what the
	 * provider keeps per device, and return it (the allocation's
	 * reference is then ubcore's), or an ERR_PTR. @del_logical undoes
	 * it all: unregisters the device and drops that reference. Both are
	 * called by ubcore only, in process context, under its logical
	 * device lock and nothing else of ubcore's; @del_logical may run
	 * inside the provider's own ubcore_unregister_device() of @phys, so
	 * it must not take a lock held around that call. NULL: the
	 * provider has no logical devices (-EOPNOTSUPP).
	 */
	struct ubcore_device *(*add_logical)(struct ubcore_device *phys,
					     struct net *net);
	void (*del_logical)(struct ubcore_device *dev);
	/*
	 * Bonding devices (include/ub/ubcore_bond.h, user guide 6.2):
	 * @add_bond creates one over @cfg->members, devices of this
	 * provider (ubcore checked them), registers it with
	 * ubcore_register_bond() and returns it (the allocation's reference
	 * is then ubcore's), or an ERR_PTR; the provider's @dellink removes
	 * it. @set_bond_peers replaces the addresses by which the bonding
	 * device reaches each peer bonding EID through each member;
	 * @query_bond reports its mode and members. Process context, may
	 * sleep. NULL: the provider has no bonding devices (-EOPNOTSUPP).
	 */
	struct ubcore_device *(*add_bond)(const struct ubcore_bond_cfg *cfg);
	int (*set_bond_peers)(struct ubcore_device *bond,
			      const struct ubcore_bond_peer *peers, u32 cnt);
	int (*query_bond)(struct ubcore_device *bond,
			  struct ubcore_bond_info *info);
};

/**
 * struct ubcore_link_ops - how an administrator creates devices of a
 *	provider on a netdev (netlink "dev add <type> <netdev> [name]")
 * @type: the provider's name on the command line ("udma")
 * @newlink: create and register a device on @netdev, named @name (a
 *	format with %d allowed); may sleep; called without rtnl_lock;
 *	returns 0 or a negative errno
 * @list: private to ubcore
 */
struct ubcore_link_ops {
	const char *type;
	int (*newlink)(const char *name, struct net_device *netdev);
	struct list_head list;
};

void ubcore_register_link_ops(struct ubcore_link_ops *ops);
void ubcore_unregister_link_ops(struct ubcore_link_ops *ops);

/**
 * struct ubcore_eid_entry - one slot of a device's EID table
 * @eid: the EID
 * @valid: the slot holds an EID
 * @is_static: added by an administrator (kept when the netdev's addresses
 *	change); otherwise it follows an address of the netdev
 */
struct ubcore_eid_node;

struct ubcore_eid_entry {
	union ubcore_eid eid;
	bool valid;
	bool is_static;
};

/* Source EIDs whose refused remote accesses a device counts. */
#define UBCORE_ACCESS_FAIL_SOURCES	32
/* Refused remote accesses that invalidate a segment, by default. */
#define UBCORE_ACCESS_FAIL_THRESHOLD	256

/**
 * struct ubcore_access_fail_src - refused remote accesses from one EID
 * @eid: the initiator's EID
 * @count: accesses refused
 */
struct ubcore_access_fail_src {
	union ubcore_eid eid;
	u64 count;
};

/**
 * struct ubcore_access_fail - remote accesses a device refused as a target
 *	(ubcore/access_fail.c; sysfs access_fail/)
 * @lock: protects the rest but @threshold; a spinlock, irqsave
 * @threshold: refusals that invalidate a segment (0: never);
 *	READ_ONCE/WRITE_ONCE
 * @total: every refusal
 * @segs_invalidated: segments invalidated for reaching @threshold
 * @sources_dropped: sources forgotten to make room in @sources
 * @nr_sources: entries of @sources in use
 * @sources: refusals per source EID
 */
struct ubcore_access_fail {
	spinlock_t lock;		/* see above */
	u32 threshold;
	u64 total;
	u64 segs_invalidated;
	u64 sources_dropped;
	u32 nr_sources;
	struct ubcore_access_fail_src sources[UBCORE_ACCESS_FAIL_SOURCES];
};

/**
 * struct ubcore_device - a UB device
 * @dev_name: name, unique among UB devices ("udma0")
 * @dev: the device in class "ubcore"; its refcount is the lifetime of this
 *	structure
 * @ops: the provider's operations
 * @cap: capabilities; set by the provider before registration, then fixed
 * @netdev: the bound netdev (UBoE), or NULL; held (dev_hold) while bound
 * @net: the network namespace the device belongs to: where its sysfs
 *	directories, netlink and char device are seen. A physical device:
 *	its netdev's when it is registered (the initial one without a
 *	netdev), changed only by an administrator ("dev set ns"); a
 *	logical device: the namespace it was created for, fixed.
 * @host_net: the namespace of the device's port, where its packets go
 *	and come (UBoE sockets, the EID index's host): a physical device's
 *	netdev's (or the initial one), a logical device's physical one's;
 *	fixed at registration (ubcore_dev_host_net())
 * @phys: a logical device's physical device (a reference is held), or
 *	NULL for a physical device; fixed
 * @logical_list: a physical device's logical devices (ubcore_logical_mutex
 *	and ubcore_devices_rwsem for write to change it, either to read it)
 * @logical_node: a logical device's entry in its physical device's
 *	@logical_list
 * @logical_closed: a physical device takes no more logical devices: its
 *	unregistration began (ubcore_logical_mutex)
 * @is_bond: a bonding device (ubcore_register_bond()); set before it is
 *	registered, never changed
 * @eid_all: a physical device's EID table as the netdev and the
 *	administrator fill it, whatever namespace each EID is in (@eid_lock);
 *	@eid_table is made from it (logical.c)
 * @eid_net: per slot of @eid_all, the namespace the administrator gave the
 *	EID (the logical device of that namespace shows it), or NULL: the
 *	physical device's own (@eid_lock); a namespace's slots are reset to
 *	NULL when it goes away
 * @eid_changed: slots of @eid_table that changed and whose events are not
 *	raised yet (@eid_lock)
 * @eid_users: per slot of @eid_table, the user contexts created on it
 *	(@eid_lock): such an EID is in use and does not change namespace
 * @eid_lock: protects @eid_mode, @eid_table, @eid_node and @eid_indexed
 * @eid_seq: the writers of @eid_table also write it under this seqlock
 *	(BH off), so that ubcore_get_eid() reads an entry in any context
 *	without @eid_lock
 * @eid_mode: how the EID table is filled
 * @eid_table: the EIDs of this device: a physical device's slots of
 *	@eid_all that are in no other namespace, a logical device's slots of
 *	its physical device's that are in its namespace (same indexes)
 * @eid_node: per slot of @eid_table, the device's node in the EID index
 *	(eid_index.c), or NULL
 * @eid_indexed: the device is registered: its EIDs are in the EID index
 * @eid_sysfs_lock: serialises the updates of sysfs eids/ to @eid_table,
 *	so that the last update shows the table as it is; taken without
 *	@eid_lock (the files' show callbacks take @eid_lock and removing a
 *	file waits for them), protects @eid_sysfs_live and @eid_sysfs_delay
 * @eid_sysfs_live: eids/ may be updated (from device_add() until
 *	unregistration starts)
 * @eid_sysfs_delay: the delay (jiffies) of the next retry of a failed
 *	update, doubled up to one second; 0 when eids/ matched at the last
 *	update
 * @eid_sysfs_work: retries a failed update (from a worker, whose
 *	allocations do not share the failing task's context) until eids/
 *	matches @eid_table; cancelled before the device leaves sysfs
 * @port_state: last state reported by ops->query_port (READ_ONCE)
 * @active_mtu: last MTU reported by ops->query_port (READ_ONCE)
 * @list_node: in the list of registered devices (ubcore_devices_rwsem;
 *	added and removed under ubcore's device list lock too)
 * @client_ctx: per-client data, indexed by client id; the xarray's lock
 * @clients_attached: client ids whose add succeeded (ubcore_devices_rwsem)
 * @event_handlers: kernel handlers of this device's async events
 *	(@event_lock)
 * @event_lock: protects @event_handlers; a spinlock, events are raised
 *	from any context
 * @registered: between the end of registration and the start of
 *	unregistration (ubcore_devices_rwsem)
 * @jfc_table: JFC ID -> struct ubcore_jfc (XA_FLAGS_ALLOC |
 *	XA_FLAGS_LOCK_IRQ); an ID is reserved (NULL entry) while its object is
 *	created; the xarray's lock, taken with interrupts disabled: lookups
 *	take their object reference under it, so that an object erased from
 *	the table has no lookup left that could still take one
 * @jetty_table: jetty ID -> JFS, JFR or jetty, as a pointer tagged with
 *	its UBCORE_JETTY_TAG_*; same rules as @jfc_table. A jetty group's ID
 *	is a jetty ID too (a peer names either by number): its slot stays
 *	reserved (NULL) and the group is in @jetty_grp_table
 * @jetty_grp_table: jetty ID -> struct ubcore_jetty_grp (XA_FLAGS_LOCK_IRQ);
 *	stored once the group is made, erased before it is freed; lookups
 *	take the group's reference under the xarray's lock, as in @jfc_table
 * @token_table: token ID -> struct ubcore_token_id (XA_FLAGS_ALLOC1);
 *	read under RCU by segment lookups; the provider frees a token ID
 *	after an RCU grace period, so a lookup can use what it loaded
 * @seg_lock: serialises the writers of the token IDs' segment lists
 *	(_rcu list primitives; lookups walk them under RCU and take a
 *	segment's reference with refcount_inc_not_zero()) and of a
 *	segment's invalid flag; a spinlock taken with interrupts disabled
 * @token_next: where the cyclic search for the next token ID starts
 *	(xa_alloc_cyclic() under @token_table's lock)
 * @obj_cnt: live objects per enum ubcore_obj_type
 * @pinned_pages: user pages pinned by the device's segments
 * @access_fail: remote accesses refused by the device as a target
 * @ctx_limit: per enum ubcore_obj_type, the most live objects one user
 *	context may have (sysfs limits/<type>, READ_ONCE); kernel callers
 *	have no context and no such limit. Set to defaults at registration.
 * @user_limit: per enum ubcore_obj_type, the most live objects the
 *	contexts of one user without CAP_SYS_RESOURCE may have together, and
 *	([UBCORE_OBJ_UCONTEXT]) the most contexts it may have (sysfs
 *	user_limits/<type>, READ_ONCE; user_share.c)
 * @user_lock: serialises the changes of @user_shares and of a share's
 *	context count; process context only
 * @user_shares: effective UID -> struct ubcore_user_share, of the users
 *	with a context on the device
 * @ctx_ring_pages: the most pages of queue rings one user context may hold,
 *	counting the rings of deleted objects that it still maps (sysfs
 *	limits/ring_pages, READ_ONCE); the provider enforces it
 * @orphan_ring_pages: pages of queue rings whose object is deleted but
 *	that a process still maps (sysfs objects/orphan_ring_pages); the
 *	provider counts them
 * @groups: the sysfs groups of @dev: ubcore's and ops->device_group,
 *	NULL-terminated; set at registration
 */
struct ubcore_device {
	char dev_name[UBCORE_MAX_DEV_NAME];
	struct device dev;
	const struct ubcore_ops *ops;
	struct ubcore_device_cap cap;
	struct net_device *netdev;
	possible_net_t net;
	possible_net_t host_net;
	struct ubcore_device *phys;
	struct list_head logical_list;
	struct list_head logical_node;
	bool logical_closed;
	bool is_bond;

	struct mutex eid_lock;		/* see above */
	seqlock_t eid_seq;		/* see above */
	enum ubcore_eid_mode eid_mode;
	struct ubcore_eid_entry eid_table[UBCORE_MAX_EID_CNT];
	struct ubcore_eid_entry eid_all[UBCORE_MAX_EID_CNT];
	struct net *eid_net[UBCORE_MAX_EID_CNT];
	DECLARE_BITMAP(eid_changed, UBCORE_MAX_EID_CNT);
	u32 eid_users[UBCORE_MAX_EID_CNT];
	struct ubcore_eid_node *eid_node[UBCORE_MAX_EID_CNT];
	bool eid_indexed;
	struct mutex eid_sysfs_lock;	/* see above */
	bool eid_sysfs_live;
	unsigned long eid_sysfs_delay;
	struct delayed_work eid_sysfs_work;

	enum ubcore_port_state port_state;
	enum ubcore_mtu active_mtu;

	/* private to ubcore */
	struct list_head list_node;
	struct xarray client_ctx;
	DECLARE_BITMAP(clients_attached, UBCORE_MAX_CLIENTS);
	struct list_head event_handlers;
	spinlock_t event_lock;		/* see above */
	bool registered;

	struct xarray jfc_table;
	struct xarray jetty_table;
	struct xarray jetty_grp_table;
	struct xarray token_table;
	spinlock_t seg_lock;		/* see above */
	u32 token_next;
	atomic_t obj_cnt[UBCORE_OBJ_TYPE_MAX];
	atomic64_t pinned_pages;
	struct ubcore_access_fail access_fail;
	u32 ctx_limit[UBCORE_OBJ_TYPE_MAX];
	u32 user_limit[UBCORE_OBJ_TYPE_MAX];
	struct mutex user_lock;		/* see above */
	struct xarray user_shares;
	u32 ctx_ring_pages;
	atomic64_t orphan_ring_pages;
	const struct attribute_group *groups[12];
	struct ubcore_cm *cm;		/* tp.c: TP table, connection manager */
};

/*
 * Tags of the entries of ubcore_device.jetty_table (xa_tag_pointer). Only
 * 0, 1 and 3 are valid: an entry tagged 2 looks like an XArray internal
 * entry.
 */
#define UBCORE_JETTY_TAG_JFR	0
#define UBCORE_JETTY_TAG_JFS	1
#define UBCORE_JETTY_TAG_JETTY	3

static inline struct ubcore_device *to_ubcore_device(struct device *dev)
{
	return container_of(dev, struct ubcore_device, dev);
}

/**
 * ubcore_dev_net() - the network namespace of a device
 * @dev: a device that was registered
 *
 * Return: the namespace (no reference is taken).
 */
static inline struct net *ubcore_dev_net(const struct ubcore_device *dev)
{
	return read_pnet(&dev->net);
}

/**
 * ubcore_dev_host_net() - the network namespace of a device's port
 * @dev: a device that was registered
 *
 * Where its packets travel: the namespace of the netdev of the device (of
 * its physical device, for a logical one). Two devices are on one host
 * when these are equal, whatever namespaces they are seen in.
 *
 * Return: the namespace (no reference is taken).
 */
static inline struct net *ubcore_dev_host_net(const struct ubcore_device *dev)
{
	return read_pnet(&dev->host_net);
}

/* Whether @dev is a logical device (of dev->phys). */
static inline bool ubcore_dev_is_logical(const struct ubcore_device *dev)
{
	return dev->phys;
}

struct ubcore_device *ubcore_alloc_device(size_t size);
void ubcore_dealloc_device(struct ubcore_device *dev);

int ubcore_register_device(struct ubcore_device *dev, const char *name_fmt);
void ubcore_unregister_device(struct ubcore_device *dev);

struct ubcore_device *ubcore_get_device_by_name(const char *name);
struct ubcore_device *ubcore_get_device_by_name_net(const char *name,
						    const struct net *net);
int ubcore_register_logical(struct ubcore_device *dev,
			    struct ubcore_device *phys, struct net *net);
/* The registered device whose EID table holds @eid (eid_index.c). */
struct ubcore_device *ubcore_get_device_by_eid(const union ubcore_eid *eid);
struct ubcore_device *ubcore_get_device_by_eid_net(const union ubcore_eid *eid,
						   const struct net *net);
struct ubcore_device *ubcore_get_device_by_netdev(struct net_device *netdev,
						  const struct ubcore_ops *ops);
void ubcore_put_device(struct ubcore_device *dev);

/* A received connection manager message (ubcore_ops.send_mgmt); any context. */
int ubcore_recv_mgmt(struct ubcore_device *dev, u8 type, u32 msg_id,
		     const void *body, u16 len);

/* EID table administration; return 0 or a negative errno. */
int ubcore_add_static_eid(struct ubcore_device *dev, u32 idx,
			  const union ubcore_eid *eid);
int ubcore_del_static_eid(struct ubcore_device *dev, u32 idx);
int ubcore_set_eid_mode(struct ubcore_device *dev, enum ubcore_eid_mode mode);
int ubcore_get_eid(struct ubcore_device *dev, u32 idx, union ubcore_eid *eid);

/* User contexts (uburma creates one per open file that asks for it). */
struct ubcore_ucontext *ubcore_alloc_ucontext(struct ubcore_device *dev,
					      u32 eid_index, u32 uasid,
					      struct ubcore_udata *udata);
void ubcore_free_ucontext(struct ubcore_ucontext *uctx);

/**
 * struct ubcore_client - a kernel user of every UB device
 * @name: client name, for logs
 * @add: called for each registered device, before and after the client
 *	registers; may sleep; a non-zero return means the client does not use
 *	this device (no @remove for it)
 * @remove: called when the device or the client goes away, with the
 *	context the client stored with ubcore_set_client_ctx()
 * @list_node: private to ubcore
 * @id: private to ubcore
 */
struct ubcore_client {
	const char *name;
	int (*add)(struct ubcore_device *dev);
	void (*remove)(struct ubcore_device *dev, void *client_ctx);

	struct list_head list_node;
	u32 id;
};

int ubcore_register_client(struct ubcore_client *client);
void ubcore_unregister_client(struct ubcore_client *client);
void ubcore_set_client_ctx(struct ubcore_device *dev,
			   struct ubcore_client *client, void *ctx);
void *ubcore_get_client_ctx(struct ubcore_device *dev,
			    struct ubcore_client *client);

#endif /* _UB_UBCORE_DEVICE_H */
