/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * roub.ko: RDMA verbs over UB (user guide 7.1). One ib_device per UB
 * device, its verbs mapped onto the device's ubcore objects: a CQ is a JFC,
 * an RC QP a jetty with its own JFR, an MR a segment under a token ID.
 * roub/README.md has the design; this header the objects and their locks.
 */
#ifndef _ROUB_H
#define _ROUB_H

#include <linux/mutex.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>
#include <linux/xarray.h>
#include <rdma/ib_verbs.h>

#include <ub/ubcore_device.h>
#include <ub/ubcore_dp.h>
#include <ub/ubcore_event.h>
#include <uapi/ub/roub_abi.h>

#include "roub_map.h"

/* The guide's SGE and size limits are in roub_map.h (libroub's too). */
/* Reads (and atomics, none) in flight per QP: udma's SQ window bound. */
#define ROUB_MAX_RD_ATOM	16
/* The pkey table: the default full-membership key only. */
#define ROUB_DEFAULT_PKEY	0xffff

/*
 * Keys: an MR's lkey and rkey are one 32-bit value, the token ID of its
 * segment in the high 20 bits and 12 random bits below; the segment's
 * token value is the key itself (README "Keys"; the layout is the
 * provider ABI's, include/uapi/ub/roub_abi.h, as libroub makes them too).
 */
#define ROUB_KEY_RAND_MASK	GENMASK(ROUB_KEY_RAND_BITS - 1, 0)

static inline u32 roub_key_token_id(u32 key)
{
	return key >> ROUB_KEY_RAND_BITS;
}

static inline u32 roub_key_make(u32 token_id, u32 rand)
{
	return token_id << ROUB_KEY_RAND_BITS | (rand & ROUB_KEY_RAND_MASK);
}

/* What ROUB_RC_MODE selects for the jetty of an RC QP. */
enum roub_rc_mode {
	ROUB_RC_MODE_RS,	/* URMA RC: a jetty bound to the peer's */
	ROUB_RC_MODE_RM,	/* URMA RM: the peer's jetty imported, no bind */
};

enum roub_rc_mode roub_rc_mode_get(void);
/* The imports of rkeys and the QPs' moves to ERR (main.c). */
extern struct workqueue_struct *roub_workq;
int roub_rc_mode_parse(const char *val, enum roub_rc_mode *mode);

/**
 * struct roub_dev - the ib_device of a UB device
 * @ibdev: the RDMA device, registered as "roub_<UB device>"
 * @ub_dev: the UB device (its reference is ubcore's client contract:
 *	valid until the client's remove returns)
 * @eid_handler: the device's EID changes become IB_EVENT_GID_CHANGE
 * @objs: jetty and JFR IDs -> struct roub_qp, so that a completion record
 *	finds its QP; the xarray's lock, read under RCU by poll_cq (a QP is
 *	erased, then an RCU grace period passes before it is freed)
 * @mrs: token ID -> struct roub_mr, read under RCU by the posts (an MR is
 *	freed after a grace period)
 * @nr_qp: QPs of the device, at most @max_qp
 * @max_qp: half the device's jetties (the guide's rule)
 */
struct roub_dev {
	struct ib_device ibdev;
	struct ubcore_device *ub_dev;
	struct ubcore_event_handler eid_handler;
	struct xarray objs;
	struct xarray mrs;
	atomic_t nr_qp;
	u32 max_qp;
};

static inline struct roub_dev *to_roub_dev(struct ib_device *ibdev)
{
	return container_of(ibdev, struct roub_dev, ibdev);
}

struct roub_pd {
	struct ib_pd ibpd;
};

/*
 * A process's context (uverbs GET_CONTEXT): nothing below it. libroub
 * opens the UB device the answer names with liburma and makes its CQs,
 * QPs and MRs there (README "libroub").
 */
struct roub_ucontext {
	struct ib_ucontext ibuc;
};

/**
 * struct roub_mr - a memory region: a registered segment
 * @ibmr: the MR; lkey == rkey (see "Keys" above)
 * @token_id: the segment's own token ID
 * @tseg: the segment
 * @rcu: freed after the posts that may have found it are done
 */
struct roub_mr {
	struct ib_mr ibmr;
	struct ubcore_token_id *token_id;
	struct ubcore_target_seg *tseg;
	struct rcu_head rcu;
};

/**
 * struct roub_cq - a completion queue: a JFC and a queue of made-up
 *	completions
 * @ibcq: the CQ
 * @jfc: its JFC; the JFC's completion events call the CQ's comp_handler
 * @lock: protects @sw, @sw_head and @sw_tail; a BH lock (polls
 *	come from softirq: ib_poll_handler), never taken with a QP's lock
 *	held (QP locks nest inside it)
 * @sw: completions roub makes itself (flushes of work the JFC never
 *	reports: see roub/README.md "QP error and flush") and those polled
 *	off the JFC ahead of them to keep the order; polled before the JFC
 * @sw_size: entries of @sw, a power of two
 * @sw_head: next entry to write (free-running)
 * @sw_tail: next entry to poll (free-running)
 * @flags: bit ROUB_CQ_ARMED (cq.c), set by req_notify_cq and cleared by
 *	the next event: a made-up completion
 *	calls comp_handler as a JFC completion would
 */
struct roub_cq {
	struct ib_cq ibcq;
	struct ubcore_jfc *jfc;
	spinlock_t lock;	/* see above */
	struct ib_wc *sw;
	u32 sw_size;
	u32 sw_head;
	u32 sw_tail;
	unsigned long flags;
};

static inline struct roub_cq *to_roub_cq(struct ib_cq *ibcq)
{
	return container_of(ibcq, struct roub_cq, ibcq);
}

/* One posted work request as its completion will need it. */
struct roub_slot {
	u64 wr_id;
	u8 opcode;	/* enum ib_wc_opcode of a send; 0 on the RQ */
};

/**
 * struct roub_wq - the work requests of a queue, in order: each carries
 *	its sequence number as the ubcore user_ctx, so that a completion
 *	record finds its wr_id and opcode, and the ones still outstanding
 *	are known when the QP goes to ERR
 * @slot: @size entries, a power of two, indexed by sequence number
 * @size: entries of @slot
 * @max: work requests outstanding at most (the QP's max_*_wr)
 * @head: the next sequence number (the post side writes it under the
 *	queue's lock; completions read it with READ_ONCE)
 * @tail: the oldest outstanding one (written by the completion side under
 *	its CQ's lock; posts read it with READ_ONCE)
 */
struct roub_wq {
	struct roub_slot *slot;
	u32 size;
	u32 max;
	u32 head;
	u32 tail;
};

/* A send work request waiting for the import of its rkey. */
struct roub_pending {
	struct list_head node;
	u32 seq;
	enum ib_wr_opcode opcode;
	int send_flags;
	__be32 imm;
	u64 remote_addr;
	u32 rkey;
	u32 num_sge;
	struct ib_sge sge[ROUB_MAX_SEND_SGE];
};

/**
 * struct roub_qp - an RC queue pair
 * @ibqp: the QP; its qp_num is the jetty's ID
 * @rdev: the device
 * @mode: RS or RM (ROUB_RC_MODE when the QP was created)
 * @jfr: the QP's own JFR (its receive queue)
 * @jetty: the jetty (its send queue; receives on @jfr)
 * @tjetty: the peer's jetty, imported at RTR; NULL before
 * @mutex: serialises modify_qp, destroy_qp and the import work
 * @sq_lock: protects @state changes, @sq's head and slots, @pending and
 *	@deferring; a BH lock (posts come from softirq), under which the
 *	post to ubcore happens so that the state and the order hold
 * @rq_lock: the same for @rq
 * @state: enum ib_qp_state; written under @mutex and both queue locks,
 *	read under either
 * @sq: the send requests
 * @rq: the receive requests
 * @rsegs: rkey -> imported segment of the peer (its token ID and value
 *	are the rkey's); stored by the import work under @mutex, read by
 *	posts (xa_load), all freed at destroy
 * @pending: send requests waiting for an rkey import, in order; while it
 *	is not empty every new send request waits behind it
 * @import_work: imports the rkeys of @pending and posts them (roub_workq)
 * @err_work: takes the QP to ERR after an error ubcore reported (the
 *	jetty's or JFR's JETTY_ERR/JFR_ERR event) or a deferred post failed
 * @max_send_sge: the QP's, as created
 * @dgid: the peer's GID (EID), from RTR's address vector
 * @dest_qpn: the peer's QP number (jetty ID)
 * @sig_all: every send request is signaled (IB_SIGNAL_ALL_WR)
 * @attr: what modify_qp was given, for query_qp
 */
struct roub_qp {
	struct ib_qp ibqp;
	struct roub_dev *rdev;
	enum roub_rc_mode mode;
	struct ubcore_jfr *jfr;
	struct ubcore_jetty *jetty;
	struct ubcore_tjetty *tjetty;
	struct mutex mutex;	/* see above */
	spinlock_t sq_lock;	/* see above */
	spinlock_t rq_lock;	/* see above */
	enum ib_qp_state state;
	struct roub_wq sq;
	struct roub_wq rq;
	struct xarray rsegs;
	struct list_head pending;
	struct work_struct import_work;
	struct work_struct err_work;
	u32 max_send_sge;
	union ib_gid dgid;
	u32 dest_qpn;
	bool sig_all;
	struct ib_qp_attr attr;
};

static inline struct roub_qp *to_roub_qp(struct ib_qp *ibqp)
{
	return container_of(ibqp, struct roub_qp, ibqp);
}

/* map.c: the verbs <-> URMA tables (KUnit: roub/kunit/roub_kunit.c) */
u32 roub_seg_access(int access);
int roub_wr_opcode(enum ib_wr_opcode op, enum ubcore_opcode *uop,
		   enum ib_wc_opcode *wc_op);
u32 roub_wr_flags(int send_flags, bool sig_all);
bool roub_wc_status(enum ubcore_cr_status st, enum ib_wc_status *out);
int roub_recv_wc_opcode(enum ubcore_cr_opcode op, enum ib_wc_opcode *out,
			bool *imm);
int roub_wr_len_check(enum ib_wr_opcode op, u64 len);
bool roub_qp_can_post(enum ib_qp_state state, bool send);
int roub_qp_ub_states(enum ib_qp_state state, enum ubcore_jetty_state *jetty,
		      enum ubcore_jfr_state *jfr);

/* device.c */
int roub_query_device(struct ib_device *ibdev, struct ib_device_attr *attr,
		      struct ib_udata *udata);
void roub_fill_device_attr(const struct ubcore_device_cap *cap,
			   struct ib_device_attr *attr);
int roub_query_port(struct ib_device *ibdev, u32 port,
		    struct ib_port_attr *attr);
int roub_get_port_immutable(struct ib_device *ibdev, u32 port,
			    struct ib_port_immutable *imm);
enum rdma_link_layer roub_get_link_layer(struct ib_device *ibdev, u32 port);
int roub_query_gid(struct ib_device *ibdev, u32 port, int index,
		   union ib_gid *gid);
int roub_query_pkey(struct ib_device *ibdev, u32 port, u16 index, u16 *pkey);
void roub_eid_event(struct ubcore_event_handler *handler,
		    const struct ubcore_event *event);

/* main.c */
int roub_alloc_ucontext(struct ib_ucontext *ibuc, struct ib_udata *udata);
void roub_dealloc_ucontext(struct ib_ucontext *ibuc);

/* mr.c */
int roub_alloc_pd(struct ib_pd *ibpd, struct ib_udata *udata);
int roub_dealloc_pd(struct ib_pd *ibpd, struct ib_udata *udata);
struct ib_mr *roub_get_dma_mr(struct ib_pd *ibpd, int access);
struct ib_mr *roub_reg_user_mr(struct ib_pd *ibpd, u64 start, u64 length,
			       u64 virt, int access, struct ib_udata *udata);
int roub_dereg_mr(struct ib_mr *ibmr, struct ib_udata *udata);
struct ubcore_target_seg *roub_lkey_seg(struct roub_dev *rdev, u32 lkey);

/* cq.c */
int roub_create_cq(struct ib_cq *ibcq, const struct ib_cq_init_attr *attr,
		   struct ib_udata *udata);
int roub_destroy_cq(struct ib_cq *ibcq, struct ib_udata *udata);
int roub_poll_cq(struct ib_cq *ibcq, int num, struct ib_wc *wc);
int roub_req_notify_cq(struct ib_cq *ibcq, enum ib_cq_notify_flags flags);
void roub_cq_drain_jfc(struct roub_cq *cq);
void roub_cq_add_wc(struct roub_cq *cq, struct roub_qp *qp, u64 wr_id,
		    enum ib_wc_opcode opcode, enum ib_wc_status status);
void roub_cq_kick(struct roub_cq *cq);

/* qp.c */
int roub_create_qp(struct ib_qp *ibqp, struct ib_qp_init_attr *init,
		   struct ib_udata *udata);
int roub_modify_qp(struct ib_qp *ibqp, struct ib_qp_attr *attr, int mask,
		   struct ib_udata *udata);
int roub_query_qp(struct ib_qp *ibqp, struct ib_qp_attr *attr, int mask,
		  struct ib_qp_init_attr *init);
int roub_destroy_qp(struct ib_qp *ibqp, struct ib_udata *udata);
void roub_qp_fail(struct roub_qp *qp);

/* post.c */
int roub_post_send(struct ib_qp *ibqp, const struct ib_send_wr *wr,
		   const struct ib_send_wr **bad_wr);
int roub_post_recv(struct ib_qp *ibqp, const struct ib_recv_wr *wr,
		   const struct ib_recv_wr **bad_wr);
void roub_import_work(struct work_struct *work);
u32 roub_qp_flush_pending(struct roub_qp *qp);
void roub_qp_free_rsegs(struct roub_qp *qp);

#endif /* _ROUB_H */
