/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * Jetties: JFC (completion), JFS (send), JFR (receive) and the jetty (a
 * JFS with a JFR), their states, and the remote JFRs and jetties an
 * initiator imports. Names and values follow UMDK's urma_types.h.
 *
 * IDs: JFCs have their own ID space per device. JFSs, JFRs and jetties
 * share one jetty ID space per device (a remote peer names a target by
 * jetty ID alone); IDs 1 .. cap.reserved_jetty_id_max are reserved for
 * well-known jetties that kernel clients ask for by number, user objects
 * get IDs above that range.
 *
 * References: a JFS, JFR or jetty holds a use count on its JFC(s), a jetty
 * on its shared JFR; destroying an object whose use count is not zero
 * fails with -EBUSY.
 */
#ifndef _UB_UBCORE_JETTY_H
#define _UB_UBCORE_JETTY_H

#include <linux/atomic.h>
#include <linux/bits.h>
#include <linux/spinlock.h>
#include <linux/types.h>

#include <ub/ubcore_eid.h>
#include <ub/ubcore_uobj.h>

struct ubcore_device;
struct ubcore_event;
struct ubcore_jfc;
struct ubcore_jetty_grp;
struct ubcore_tp;

/* Values as urma_transport_mode_t; the same bits as UBCORE_TM_* caps. */
enum ubcore_transport_mode {
	UBCORE_TP_RM = 0x1,
	UBCORE_TP_RC = 0x2,
	UBCORE_TP_UM = 0x4,
};

/* Values as urma_jetty_state_t (urma_jfs_state_t is the same). */
enum ubcore_jetty_state {
	UBCORE_JETTY_STATE_RESET = 0,
	UBCORE_JETTY_STATE_READY,
	UBCORE_JETTY_STATE_SUSPENDED,
	UBCORE_JETTY_STATE_ERROR,
};

/* Values as urma_jfr_state_t. */
enum ubcore_jfr_state {
	UBCORE_JFR_STATE_RESET = 0,
	UBCORE_JFR_STATE_READY,
	UBCORE_JFR_STATE_ERROR,
};

/* Fully qualified jetty ID, as urma_jetty_id_t. */
struct ubcore_jetty_id {
	union ubcore_eid eid;
	u32 uasid;
	u32 id;
};

/* Called when a JFC has a completion event for its JFCE (any context). */
typedef void (*ubcore_comp_callback_t)(struct ubcore_jfc *jfc);
/* Called for an async event of an object (JFC_ERR, JETTY_ERR, ...). */
typedef void (*ubcore_event_callback_t)(struct ubcore_event *event,
					struct ubcore_ucontext *uctx);

/* JFC attribute mask bits, as urma_jfc_attr_mask_t. */
#define UBCORE_JFC_MODERATE_COUNT	0x1
#define UBCORE_JFC_MODERATE_PERIOD	0x2

/**
 * struct ubcore_jfc_cfg - creation parameters of a JFC
 * @depth: CQEs; the provider rounds up within cap.max_jfc_depth and
 *	writes back what it created
 * @flag: urma_jfc_flag_t bits
 * @ceqn: completion event queue number
 * @jfce_handler: completion-event callback, or NULL for a polled JFC
 * @user_ctx: the creator's value, reported in events
 */
struct ubcore_jfc_cfg {
	u32 depth;
	u32 flag;
	u32 ceqn;
	ubcore_comp_callback_t jfce_handler;
	u64 user_ctx;
};

struct ubcore_jfc_attr {
	u32 mask;
	u16 moderate_count;
	u16 moderate_period;
};

/**
 * struct ubcore_jfc - jetty for completion
 * @ub_dev: the device
 * @uctx: the owning user context, NULL for kernel objects
 * @id: ID in the device's JFC space
 * @cfg: the parameters, as created
 * @jfae_handler: async event callback (JFC_ERR), or NULL
 * @use_cnt: JFSs, JFRs and jetties that complete to this JFC
 * @obj_ref: lifetime against lookups by ID
 *
 * Allocated by the provider's create_jfc (which may embed it), freed by its
 * destroy_jfc; ubcore sets every field but @cfg.depth.
 */
struct ubcore_jfc {
	struct ubcore_device *ub_dev;
	struct ubcore_ucontext *uctx;
	u32 id;
	struct ubcore_jfc_cfg cfg;
	ubcore_event_callback_t jfae_handler;
	atomic_t use_cnt;
	struct ubcore_obj_ref obj_ref;
};

/**
 * struct ubcore_jfs_cfg - creation parameters of a JFS (and a jetty's send
 *	side)
 * @depth: WQEs, rounded up within cap.max_jfs_depth, written back
 * @flag: urma_jfs_flag_t bits, and UBCORE_JFS_FLAG_POST_SLEEPABLE
 * @trans_mode: one UBCORE_TP_* bit the device supports
 * @priority: 0 .. 15
 * @max_sge: local SGEs per WQE, at most cap.max_jfs_sge
 * @max_rsge: remote SGEs per WQE, at most cap.max_jfs_rsge
 * @max_inline_data: inline bytes, at most cap.max_jfs_inline_size; 0
 *	selects the maximum (written back)
 * @rnr_retry: 0 .. 7
 * @err_timeout: 0 .. 31
 * @jfc: where send completions go; required
 * @user_ctx: the creator's value
 */
struct ubcore_jfs_cfg {
	u32 depth;
	u32 flag;
	enum ubcore_transport_mode trans_mode;
	u8 priority;
	u8 max_sge;
	u8 max_rsge;
	u8 rnr_retry;
	u8 err_timeout;
	u32 max_inline_data;
	struct ubcore_jfc *jfc;
	u64 user_ctx;
};

/*
 * A jfs_cfg.flag bit beyond urma_jfs_flag_t's, for kernel JFSs and jetties
 * only (refused with a user context): every post to the queue is made in
 * process context, where the caller may sleep, so the device may process
 * the new WQEs in the caller's context instead of waking a worker for
 * them (ubcore_post_jfs_wr(), ubcore_post_jetty_send_wr()).
 */
#define UBCORE_JFS_FLAG_POST_SLEEPABLE	BIT(31)

/* JFS / jetty attribute mask bits, as urma_jfs_attr_mask_t. */
#define UBCORE_JFS_STATE		0x1

struct ubcore_jfs_attr {
	u32 mask;
	enum ubcore_jetty_state state;
};

/**
 * struct ubcore_jfs - jetty for send
 * @ub_dev: the device
 * @uctx: the owning context, or NULL
 * @id: ID in the device's jetty space
 * @cfg: the parameters, as created
 * @state: current state; changed only through ubcore_modify_jfs() and by
 *	the provider on a fatal error (READ_ONCE/WRITE_ONCE)
 * @jfae_handler: async event callback (JFS_ERR), or NULL
 * @obj_ref: lifetime against lookups by ID
 */
struct ubcore_jfs {
	struct ubcore_device *ub_dev;
	struct ubcore_ucontext *uctx;
	u32 id;
	struct ubcore_jfs_cfg cfg;
	enum ubcore_jetty_state state;
	ubcore_event_callback_t jfae_handler;
	struct ubcore_obj_ref obj_ref;
};

/**
 * struct ubcore_jfr_cfg - creation parameters of a JFR
 * @id: a specific jetty ID, or 0 for any; IDs in the reserved range are for
 *	kernel callers only
 * @depth: RQEs, rounded up within cap.max_jfr_depth, written back
 * @flag: urma_jfr_flag_t bits (token_policy, tag_matching, ...)
 * @trans_mode: one UBCORE_TP_* bit
 * @max_sge: SGEs per RQE, at most cap.max_jfr_sge
 * @min_rnr_timer: 0 .. 31
 * @jfc: where receive completions go; required
 * @token_value: senders must present this token
 * @user_ctx: the creator's value
 */
struct ubcore_jfr_cfg {
	u32 id;
	u32 depth;
	u32 flag;
	enum ubcore_transport_mode trans_mode;
	u8 max_sge;
	u8 min_rnr_timer;
	struct ubcore_jfc *jfc;
	u32 token_value;
	u64 user_ctx;
};

/* JFR / jetty attribute mask bits, as urma_jfr_attr_mask_t. */
#define UBCORE_JFR_RX_THRESHOLD		0x1
#define UBCORE_JFR_STATE		0x2

struct ubcore_jfr_attr {
	u32 mask;
	u32 rx_threshold;
	enum ubcore_jfr_state state;
};

/**
 * struct ubcore_jfr - jetty for receive
 * @ub_dev: the device
 * @uctx: the owning context, or NULL
 * @id: ID in the device's jetty space
 * @cfg: the parameters, as created
 * @state: current state (READ_ONCE/WRITE_ONCE)
 * @rx_threshold: JFR_LIMIT event threshold
 * @jfae_handler: async event callback (JFR_ERR, JFR_LIMIT), or NULL
 * @use_cnt: jetties that share this JFR
 * @obj_ref: lifetime against lookups by ID
 */
struct ubcore_jfr {
	struct ubcore_device *ub_dev;
	struct ubcore_ucontext *uctx;
	u32 id;
	struct ubcore_jfr_cfg cfg;
	enum ubcore_jfr_state state;
	u32 rx_threshold;
	ubcore_event_callback_t jfae_handler;
	atomic_t use_cnt;
	struct ubcore_obj_ref obj_ref;
};

/* urma_jetty_flag_t bit: receive on a shared JFR. */
#define UBCORE_JETTY_SHARE_JFR		0x1

/**
 * struct ubcore_jetty_cfg - creation parameters of a jetty
 * @id: a specific jetty ID, or 0 for any (reserved range: kernel only)
 * @flag: urma_jetty_flag_t bits; UBCORE_JETTY_SHARE_JFR is required (a
 *	jetty receives on a JFR it shares)
 * @jfs_cfg: the send side
 * @jfr: the shared JFR to receive on
 * @recv_jfc: receive completions go here instead of the JFR's JFC, or NULL
 * @jetty_grp: the group the jetty joins (ubcore_create_jetty_grp()), or
 *	NULL; the jetty is then an RM jetty whose JFR has the group's token
 *	value and token policy, and it holds a place in the group until it
 *	is deleted
 * @user_ctx: the creator's value
 */
struct ubcore_jetty_cfg {
	u32 id;
	u32 flag;
	struct ubcore_jfs_cfg jfs_cfg;
	struct ubcore_jfr *jfr;
	struct ubcore_jfc *recv_jfc;
	struct ubcore_jetty_grp *jetty_grp;
	u64 user_ctx;
};

struct ubcore_jetty_attr {
	u32 mask;	/* UBCORE_JFR_RX_THRESHOLD | UBCORE_JFR_STATE */
	u32 rx_threshold;
	enum ubcore_jetty_state state;
};

/**
 * struct ubcore_jetty - a JFS and a (shared) JFR under one ID
 * @ub_dev: the device
 * @uctx: the owning context, or NULL
 * @id: ID in the device's jetty space
 * @cfg: the parameters, as created
 * @state: current state (READ_ONCE/WRITE_ONCE)
 * @rx_threshold: JETTY_LIMIT event threshold
 * @jfae_handler: async event callback (JETTY_ERR), or NULL
 * @remote_jetty: the imported jetty an RC jetty is bound to, or NULL; set
 *	and cleared by ubcore_bind_jetty() / ubcore_unbind_jetty(), which the
 *	owner serialises with its other calls on the jetty; the bound tjetty
 *	cannot be unimported (-EBUSY) while bound
 * @obj_ref: lifetime against lookups by ID
 */
struct ubcore_jetty {
	struct ubcore_device *ub_dev;
	struct ubcore_ucontext *uctx;
	u32 id;
	struct ubcore_jetty_cfg cfg;
	enum ubcore_jetty_state state;
	u32 rx_threshold;
	ubcore_event_callback_t jfae_handler;
	struct ubcore_tjetty *remote_jetty;
	struct ubcore_obj_ref obj_ref;
};

/* Jetties in one group, at most (URMA_MAX_JETTY_IN_JETTY_GRP). */
#define UBCORE_MAX_JETTY_IN_JETTY_GRP	32
/* Bytes of a jetty group's name, with its NUL (URMA_MAX_NAME). */
#define UBCORE_JETTY_GRP_NAME_LEN	64

/*
 * urma_jetty_grp_flag_t: the token policy bits (URMA_TOKEN_*), the same
 * bits as urma_jfr_flag_t's.
 */
#define UBCORE_JETTY_GRP_FLAG_TOKEN_POLICY_MASK	0x7

/* How a message to a group finds its member, as urma_jetty_grp_policy_t. */
enum ubcore_jetty_grp_policy {
	UBCORE_JETTY_GRP_POLICY_RR = 0,
	UBCORE_JETTY_GRP_POLICY_HASH_HINT = 1,
};

/**
 * struct ubcore_jetty_grp_cfg - creation parameters of a jetty group, as
 *	urma_jetty_grp_cfg_t
 * @name: a NUL-terminated name, for the creator
 * @id: a specific jetty ID, or 0 for any (as ubcore_jetty_cfg.id)
 * @flag: urma_jetty_grp_flag_t bits: the token policy in bits 0-2
 * @token_value: the token every member's JFR has
 * @policy: enum ubcore_jetty_grp_policy
 * @user_ctx: the creator's value
 */
struct ubcore_jetty_grp_cfg {
	char name[UBCORE_JETTY_GRP_NAME_LEN];
	u32 id;
	u32 flag;
	u32 token_value;
	u32 policy;
	u64 user_ctx;
};

/**
 * struct ubcore_jetty_grp - jetties that a peer reaches under one jetty ID
 * @ub_dev: the device
 * @uctx: the owning context, or NULL
 * @id: its ID in the device's jetty space (a slot no JFS, JFR or jetty
 *	can take)
 * @cfg: the parameters, as created
 * @lock: protects @jetty, @jetty_cnt, @joining, @next and @dead; a
 *	spinlock taken with interrupts off, the target side of the data path
 *	picks members in any context
 * @jetty: the members, @jetty_cnt of them from index 0 on
 * @jetty_cnt: members
 * @joining: jetties being created into the group: they hold a place
 * @next: the member the next round-robin pick starts at
 * @dead: being deleted: no jetty may join any more
 * @obj_ref: lifetime against lookups by ID
 *
 * Allocated and freed by ubcore; the provider has no part in it.
 */
struct ubcore_jetty_grp {
	struct ubcore_device *ub_dev;
	struct ubcore_ucontext *uctx;
	u32 id;
	struct ubcore_jetty_grp_cfg cfg;
	spinlock_t lock;	/* see above */
	struct ubcore_jetty *jetty[UBCORE_MAX_JETTY_IN_JETTY_GRP];
	u32 jetty_cnt;
	u32 joining;
	u32 next;
	bool dead;
	struct ubcore_obj_ref obj_ref;
};

/* What an imported target is, as urma_target_type_t. */
enum ubcore_target_type {
	UBCORE_TARGET_JFR = 0,
	UBCORE_TARGET_JETTY,
	UBCORE_TARGET_JETTY_GROUP,
};

/**
 * struct ubcore_tjetty_cfg - a remote JFR or jetty, as exchanged out of
 *	band (urma_rjfr_t / urma_rjetty_t) plus the token to present
 * @id: EID, uasid and jetty ID of the target
 * @trans_mode: one UBCORE_TP_* bit
 * @type: JFR or jetty
 * @flag: urma_import_jetty_flag_t bits
 * @policy: jetty group policy
 * @tp_type: urma_tp_type_t
 * @token_value: the target's token
 * @user_ctx: the importer's, not interpreted (uburma's: its object, for
 *	UBCORE_EVENT_TP_ERR)
 */
struct ubcore_tjetty_cfg {
	struct ubcore_jetty_id id;
	enum ubcore_transport_mode trans_mode;
	enum ubcore_target_type type;
	u32 flag;
	u32 policy;
	u32 tp_type;
	u32 token_value;
	u64 user_ctx;
};

/**
 * struct ubcore_tjetty - an imported remote JFR or jetty (initiator side)
 * @ub_dev: the local device
 * @uctx: the owning context, or NULL
 * @cfg: what was imported
 * @use_cnt: jetties bound to it (RC: at most one)
 * @tp: the transport connection to the target, with a reference: RM from
 *	import to unimport (shared by every import of the same EID pair),
 *	RC from bind to unbind (one per bound jetty pair), UM none; NULL
 *	otherwise. Set and cleared by ubcore only (ubcore_tp_resolve() reads
 *	it for providers).
 * @tp_node: on @tp's list of imports while @tp is set, under the
 *	connection manager's lock (peer loss raises UBCORE_EVENT_TP_ERR
 *	for each RM import on the lost TP)
 */
struct ubcore_tjetty {
	struct ubcore_device *ub_dev;
	struct ubcore_ucontext *uctx;
	struct ubcore_tjetty_cfg cfg;
	atomic_t use_cnt;
	struct ubcore_tp *tp;
	struct list_head tp_node;
};

struct ubcore_jfc *ubcore_create_jfc(struct ubcore_device *dev,
				     struct ubcore_jfc_cfg *cfg,
				     ubcore_event_callback_t jfae_handler,
				     struct ubcore_udata *udata);
int ubcore_modify_jfc(struct ubcore_jfc *jfc, const struct ubcore_jfc_attr *attr,
		      struct ubcore_udata *udata);
int ubcore_delete_jfc(struct ubcore_jfc *jfc);

struct ubcore_jfs *ubcore_create_jfs(struct ubcore_device *dev,
				     struct ubcore_jfs_cfg *cfg,
				     ubcore_event_callback_t jfae_handler,
				     struct ubcore_udata *udata);
int ubcore_modify_jfs(struct ubcore_jfs *jfs, const struct ubcore_jfs_attr *attr,
		      struct ubcore_udata *udata);
int ubcore_query_jfs(struct ubcore_jfs *jfs, struct ubcore_jfs_cfg *cfg,
		     struct ubcore_jfs_attr *attr);
int ubcore_delete_jfs(struct ubcore_jfs *jfs);

struct ubcore_jfr *ubcore_create_jfr(struct ubcore_device *dev,
				     struct ubcore_jfr_cfg *cfg,
				     ubcore_event_callback_t jfae_handler,
				     struct ubcore_udata *udata);
int ubcore_modify_jfr(struct ubcore_jfr *jfr, const struct ubcore_jfr_attr *attr,
		      struct ubcore_udata *udata);
int ubcore_query_jfr(struct ubcore_jfr *jfr, struct ubcore_jfr_cfg *cfg,
		     struct ubcore_jfr_attr *attr);
int ubcore_delete_jfr(struct ubcore_jfr *jfr);

struct ubcore_jetty *ubcore_create_jetty(struct ubcore_device *dev,
					 struct ubcore_jetty_cfg *cfg,
					 ubcore_event_callback_t jfae_handler,
					 struct ubcore_udata *udata);
int ubcore_modify_jetty(struct ubcore_jetty *jetty,
			const struct ubcore_jetty_attr *attr,
			struct ubcore_udata *udata);
int ubcore_query_jetty(struct ubcore_jetty *jetty, struct ubcore_jetty_cfg *cfg,
		       struct ubcore_jetty_attr *attr);
int ubcore_delete_jetty(struct ubcore_jetty *jetty);

struct ubcore_jetty_grp *ubcore_create_jetty_grp(struct ubcore_device *dev,
						 struct ubcore_jetty_grp_cfg *cfg,
						 struct ubcore_udata *udata);
int ubcore_delete_jetty_grp(struct ubcore_jetty_grp *grp);

struct ubcore_tjetty *ubcore_import_jfr(struct ubcore_device *dev,
					struct ubcore_tjetty_cfg *cfg,
					struct ubcore_udata *udata);
int ubcore_unimport_jfr(struct ubcore_tjetty *tjfr);
struct ubcore_tjetty *ubcore_import_jetty(struct ubcore_device *dev,
					  struct ubcore_tjetty_cfg *cfg,
					  struct ubcore_udata *udata);
int ubcore_unimport_jetty(struct ubcore_tjetty *tjetty);

/*
 * The data path. Userspace posts into mmap'ed rings and rings a doorbell;
 * these pass the doorbell to the provider. Process context; they return 0
 * or a negative errno about the object, never about the posted entries
 * (those complete with error CQEs).
 */
int ubcore_jfs_doorbell(struct ubcore_jfs *jfs);
int ubcore_jfr_doorbell(struct ubcore_jfr *jfr);
int ubcore_jetty_doorbell(struct ubcore_jetty *jetty);
/* The next CQE (solicited only: the next solicited one) calls jfce_handler. */
int ubcore_rearm_jfc(struct ubcore_jfc *jfc, bool solicited_only);
/* RC: send to @tjetty (an imported jetty of the same context). */
int ubcore_bind_jetty(struct ubcore_jetty *jetty, struct ubcore_tjetty *tjetty);
int ubcore_unbind_jetty(struct ubcore_jetty *jetty);
/*
 * Take up to @max_cnt not yet started entries off the SQ of a JFS or jetty
 * in ERROR or SUSPENDED state; *@first is the ring index of the first,
 * *@cnt how many (-EINVAL in another state).
 */
int ubcore_flush_jfs(struct ubcore_jfs *jfs, u32 max_cnt, u32 *first, u32 *cnt);
int ubcore_flush_jetty(struct ubcore_jetty *jetty, u32 max_cnt, u32 *first,
		       u32 *cnt);

/*
 * Lookups for the target side of the data path: an object by ID with a
 * reference (ubcore_obj_ref_put(&obj->obj_ref) when done), or NULL. May be
 * called in any context.
 */
struct ubcore_jfc *ubcore_find_get_jfc(struct ubcore_device *dev, u32 id);
struct ubcore_jfs *ubcore_find_get_jfs(struct ubcore_device *dev, u32 id);
struct ubcore_jfr *ubcore_find_get_jfr(struct ubcore_device *dev, u32 id);
/* A jetty group's ID gives one of its READY members by the group's policy. */
struct ubcore_jetty *ubcore_find_get_jetty(struct ubcore_device *dev, u32 id);

#endif /* _UB_UBCORE_JETTY_H */
