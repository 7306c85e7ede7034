/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * A JFC and a JFS of udma built by hand for the KUnit suites of cq.c, sq.c
 * and engine.c: real rings and the engine's own code, no ubcore device
 * behind them (its EID table is empty, it has no segments), and handlers
 * that count the events the engine raises.
 */
#ifndef _UDMA_KUNIT_FAKE_QUEUE_H
#define _UDMA_KUNIT_FAKE_QUEUE_H

#include <kunit/test.h>

#include "../msg.h"
#include "../udma.h"

#define FQ_JFC_ID	5
#define FQ_JFS_ID	7

/**
 * struct fq - a device, a JFC and a JFS on it
 * @udev: the device (its ubcore part zeroed, locks and tables set up)
 * @uctx: the owning user context, or NULL for kernel rings; with one the
 *	engine reads SQ pi and CQ ci from the control pages, as it does for
 *	a process
 * @jfc: the JFC; its CQ ring is @jfc.cq
 * @jfs: the JFS; sends its completions to @jfc
 * @sq_live: @jfs.sq is set up and not destroyed yet
 * @sq_pi: the producer index of the SQ as its owner keeps it
 * @cq_ci: the consumer index of the CQ as its owner keeps it
 * @jfc_err: JFC_ERR events raised, and @jfc_err_id the last one's object
 * @jfs_err: JFS_ERR events raised, and @jfs_err_id the last one's object
 * @other_events: any other event
 * @comp: completion events (jfce_handler calls)
 */
struct fq {
	struct udma_dev udev;
	struct udma_ucontext *uctx;
	struct udma_jfc jfc;
	struct udma_jfs jfs;
	bool sq_live;
	u32 sq_pi;
	u32 cq_ci;
	atomic_t jfc_err;
	u32 jfc_err_id;
	atomic_t jfs_err;
	u32 jfs_err_id;
	atomic_t other_events;
	atomic_t comp;
};

struct udma_ring *fq_ring(struct kunit *test, u32 entry_size, u32 cnt);
struct fq *fq_create(struct kunit *test, u32 sq_cnt, u32 cq_cnt, bool user);
void fq_exit(struct kunit *test);
void fq_jfce(struct fq *fq, bool on);
void fq_sqe_nop(struct udma_sqe *sqe, u64 user_ctx, u8 flags);
void fq_post(struct fq *fq, const struct udma_sqe *sqe);
void fq_post_nops(struct fq *fq, u32 n, u64 first_ctx);
void fq_set_sq_pi(struct fq *fq, u32 pi);
u32 fq_sq_ci(struct fq *fq);
bool fq_poll(struct fq *fq, struct udma_cqe *cqe);
u32 fq_drain(struct fq *fq, struct udma_cqe *cqe, u32 max);
bool fq_process(struct fq *fq, bool inline_budget);

#endif /* _UDMA_KUNIT_FAKE_QUEUE_H */
