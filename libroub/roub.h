/* SPDX-License-Identifier: MIT */
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * libroub: the libibverbs provider of RoUB devices (roub/README.md
 * "libroub"). The kernel's RoUB device gives the context, the PDs and
 * the device, port and GID queries; CQs, QPs and MRs are liburma's JFCs,
 * jetties (each with its own JFR) and segments on the UB device under it,
 * so that posting and polling go through liburma's mapped rings.
 */
#ifndef LIBROUB_ROUB_H
#define LIBROUB_ROUB_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "rdma_core_abi.h"
#include "urma_api.h"

#include <ub/roub_abi.h>
#include "roub_map.h"

/* What ROUB_RC_MODE selects (roub/README.md "ROUB_RC_MODE"). */
enum roub_rc_mode {
	ROUB_RC_MODE_RS, /* URMA RC: the jetty bound to the peer's */
	ROUB_RC_MODE_RM, /* URMA RM: the peer's jetty imported, no bind */
};

#define ROUB_MR_HASH 256
#define ROUB_QP_HASH 256

struct roub_mr;
struct roub_qp;

/*
 * struct roub_context - an open RoUB device
 * @uctx: the liburma context on the UB device the kernel named
 * @lock: protects @mrs and @qps (read: posts and polls; write: create
 *	and destroy)
 * @mrs: token ID -> MR, chained
 * @qps: jetty and JFR IDs -> QP (both ID spaces are the device's one)
 */
struct roub_context {
	struct verbs_context vctx;
	urma_context_t *uctx;
	uint32_t max_inline;
	pthread_rwlock_t lock;
	struct roub_mr *mrs[ROUB_MR_HASH];
	struct roub_qp_ref *qps[ROUB_QP_HASH];
};

struct roub_mr {
	struct verbs_mr vmr;
	urma_token_id_t *token_id;
	urma_target_seg_t *tseg;
	struct roub_mr *next;
};

/* A queue of WCs roub makes (flushes) or moved off a JFC ahead of them. */
struct roub_cq {
	struct ibv_cq cq;
	urma_jfc_t *jfc;
	pthread_spinlock_t lock; /* @sw, @sw_head, @sw_tail; polls */
	struct ibv_wc *sw;
	uint32_t sw_size;
	uint32_t sw_head;
	uint32_t sw_tail;
};

/* The work requests of a queue, by sequence number (the URMA user_ctx). */
struct roub_wq {
	uint64_t *wr_id;
	uint8_t *opcode; /* enum ibv_wc_opcode of a send */
	uint32_t size;   /* power of two */
	uint32_t max;
	uint32_t head;   /* next sequence number */
	uint32_t tail;   /* oldest outstanding */
};

/* A peer's segment imported for its rkey. */
struct roub_rseg {
	uint32_t rkey;
	urma_target_seg_t *tseg;
	struct roub_rseg *next;
};

/* An entry of roub_context.qps. */
struct roub_qp_ref {
	uint32_t id;
	struct roub_qp *qp;
	struct roub_qp_ref *next;
};

/*
 * struct roub_qp - an RC QP: a jetty receiving on its own JFR
 * @sq_lock: posts of sends, @sq's head, @rsegs (a post may import an
 *	rkey: a mutex); @state changes take both locks
 * @rq_lock: posts of receives, @rq's head
 * @mutex: serialises modify_qp and destroy_qp
 * @sq, @rq: tails advance under the CQ's lock (completions)
 */
struct roub_qp {
	struct verbs_qp vqp;
	struct roub_context *ctx;
	enum roub_rc_mode mode;
	urma_jfr_t *jfr;
	urma_jetty_t *jetty;
	urma_target_jetty_t *tjetty;
	bool bound;
	pthread_mutex_t sq_lock;
	pthread_mutex_t rq_lock;
	pthread_mutex_t mutex;
	enum ibv_qp_state state;
	struct roub_wq sq;
	struct roub_wq rq;
	struct roub_rseg *rsegs;
	uint32_t max_send_sge;
	uint32_t max_inline;
	bool sig_all;
	union ibv_gid dgid;
	uint32_t dest_qpn;
	struct ibv_qp_attr attr;
	struct roub_qp_ref ref_jetty;
	struct roub_qp_ref ref_jfr;
};

static inline struct roub_context *to_rctx(struct ibv_context *c)
{
	return (struct roub_context *)((char *)c -
				       offsetof(struct roub_context, vctx.context));
}

static inline struct roub_cq *to_rcq(struct ibv_cq *cq)
{
	return (struct roub_cq *)((char *)cq - offsetof(struct roub_cq, cq));
}

static inline struct roub_qp *to_rqp(struct ibv_qp *qp)
{
	return (struct roub_qp *)((char *)qp - offsetof(struct roub_qp, vqp.qp));
}

/* context.c */
struct roub_mr *roub_mr_find(struct roub_context *ctx, uint32_t lkey);
enum roub_rc_mode roub_rc_mode(void);

/* qp.c */
struct ibv_cq *roub_create_cq(struct ibv_context *context, int cqe,
			      struct ibv_comp_channel *channel, int comp_vector);
int roub_destroy_cq(struct ibv_cq *cq);
struct ibv_qp *roub_create_qp(struct ibv_pd *pd, struct ibv_qp_init_attr *attr);
int roub_modify_qp(struct ibv_qp *qp, struct ibv_qp_attr *attr, int mask);
int roub_query_qp(struct ibv_qp *qp, struct ibv_qp_attr *attr, int mask,
		  struct ibv_qp_init_attr *init);
int roub_destroy_qp(struct ibv_qp *qp);
struct roub_qp *roub_qp_find(struct roub_context *ctx, uint32_t id);

/* post.c */
uint32_t roub_seg_access(int access);
int roub_post_send(struct ibv_qp *qp, struct ibv_send_wr *wr,
		   struct ibv_send_wr **bad_wr);
int roub_post_recv(struct ibv_qp *qp, struct ibv_recv_wr *wr,
		   struct ibv_recv_wr **bad_wr);
int roub_poll_cq(struct ibv_cq *cq, int num, struct ibv_wc *wc);
void roub_cq_drain_jfc(struct roub_cq *cq);
void roub_cq_add_wc(struct roub_cq *cq, struct roub_qp *qp, uint64_t wr_id,
		    enum ibv_wc_opcode opcode, enum ibv_wc_status status);
void roub_qp_free_rsegs(struct roub_qp *qp);
int roub_wc_status(urma_cr_status_t st, enum ibv_wc_status *out);

#endif /* LIBROUB_ROUB_H */
