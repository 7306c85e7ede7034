// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * The initiator side of the engine: taking WQEs off the SQ of a JFS or a
 * jetty, resolving what they name, handing each as a transaction to the
 * target (udma_target_execute(), txn.h) and completing it; the SQ's
 * states, flush and binding. engine.c decides when and where this runs.
 *
 * Taking a WQE: under the ring's lock, the ring is corrupt when userspace
 * set pi more than entry_cnt ahead of the kernel's ci (the queue goes to
 * ERROR); otherwise the entry at ci is copied into the queue (udma_sq.cur)
 * and ci advanced and published at once: the copy is the WQE from then on,
 * the ring entry is never read again. pi is read once per batch.
 *
 * A WQE, in order (the first failure is its CQE's status):
 *  1. udma_sqe_check() (sqe.c): the format against the queue's limits;
 *  2. NOP: completes at once;
 *  3. WRITE*, READ, atomics, SEND_INVALIDATE: rseg_idx, an imported
 *     segment (no such import: LOC_ACCESS_ERR); WRITE_NOTIFY also
 *     notify_rseg_idx (no such import: LOC_ACCESS_ERR; one of another EID
 *     than rseg_idx's: LOC_OPERATION_ERR, a transaction has one target);
 *  4. the target, whose EID gets the transaction: an RC jetty's bound
 *     peer (target_idx 0, or the index of an import of the same jetty:
 *     else LOC_OPERATION_ERR); otherwise target_idx in the context's
 *     import table, an imported JFR or jetty (no such import:
 *     LOC_ACCESS_ERR). A WRITE*, READ or atomic with target_idx 0 (not
 *     on a bound RC jetty) goes to its segment's EID instead. A kernel
 *     queue has no import table: it reaches its bound peer only. The
 *     segment a SEND_INVALIDATE names must have the target's EID (else
 *     LOC_OPERATION_ERR);
 *  5. local SGEs (zero-length ones are skipped): the registered segment of
 *     the SGE's token ID covering it (ubcore_find_get_seg()), of the
 *     queue's own context (LOC_ACCESS_ERR otherwise), held until the
 *     transaction is done;
 *  6. the transaction goes to the device of the target's EID; its answer:
 *	UDMA_TXN_OK               SUCCESS (completion_len: bytes moved)
 *	UDMA_TXN_RNR              retried (below), then RNR_RETRY_CNT_EXC_ERR
 *	UDMA_TXN_REM_ACCESS       REM_ACCESS_ABORT_ERR
 *	UDMA_TXN_REM_OPERATION    REM_OPERATION_ERR
 *	UDMA_TXN_REM_UNSUPPORTED  REM_UNSUPPORTED_REQ_ERR
 *	UDMA_TXN_LOC_LEN          LOC_LEN_ERR
 * A WQE completes with a CQE on the queue's JFC when it asked for one
 * (UDMA_SQE_F_COMPLETE) or failed. A failed WQE does not change the
 * queue's state: the next one is taken (guide 5.3.3: a bad request is
 * reported by its completion record). FENCE needs nothing: on the local
 * path every WQE is done before the next starts.
 *
 * RNR: the WQE stays the queue's current one and nothing behind it starts;
 * it is retried after 1, 2, 4 .. 64 ms (work of engine.c), cfg.rnr_retry
 * times (7 means 7, not "forever" as in InfiniBand). A JFR doorbell on
 * this host retries it at once without counting a retry.
 *
 * Fatal errors of the queue: a corrupt ring, or a CQE that does not fit in
 * the JFC (the JFC raises JFC_ERR). The queue goes to ERROR as below and
 * raises JFS_ERR or JETTY_ERR.
 *
 * States (modify_jfs, modify_jetty; transitions as ubcore allows):
 *  - ERROR: processing stops; the current WQE, if any (taken, waiting for
 *    an RNR retry or for the work), completes with WR_FLUSH_ERR; then a
 *    WR_FLUSH_ERR_DONE record (user_ctx 0). WQEs not taken stay in the
 *    ring for flush (userspace reports them as WR_UNHANDLED);
 *  - SUSPENDED: no WQE is started; the current one stays; a
 *    WR_SUSPEND_DONE record (user_ctx 0);
 *  - READY: processing goes on (from the current WQE);
 *  - RESET: the ring is emptied: the current WQE and every WQE not taken
 *    are dropped without completions (ci = pi).
 * Flush (ERROR or SUSPENDED): up to max_cnt WQEs not taken are taken off
 * (ci advanced), reported as the first index and the count.
 */
#include <linux/jiffies.h>
#include <linux/kernel.h>
#include <linux/lockdep.h>
#include <linux/minmax.h>
#include <linux/sched.h>
#include <linux/sizes.h>
#include <linux/string.h>

#include <kunit/visibility.h>
#include <ub/ubcore_event.h>

#include "txn.h"
#include "udma.h"

static_assert(sizeof(struct udma_sqe) == UDMA_SQE_SIZE);

/* What one doorbell call does inline before it leaves the rest to work. */
#define UDMA_SQ_INLINE_WQES	64
#define UDMA_SQ_INLINE_BYTES	SZ_256K
/* What one run of the work does before it requeues itself. */
#define UDMA_SQ_WORK_WQES	256
#define UDMA_SQ_WORK_BYTES	SZ_4M
/* The first RNR retry delay, doubled per retry up to 2^6 times it. */
#define UDMA_RNR_DELAY_MS	1
#define UDMA_RNR_DELAY_MAX_SHIFT	6
/* rnr_retry is 3 bits in UB, as in InfiniBand. */
#define UDMA_RNR_RETRY_MAX	7

/* udma_sq_execute(): the target answered RNR (not a urma_cr_status_t). */
#define UDMA_SQ_RNR		0xff

/* What the WQEs of one batch share; taken once per batch. */
struct udma_sq_batch {
	struct udma_sq_limits lim;
	struct ubcore_device *dev;
	struct ubcore_ucontext *uctx;
	struct udma_ucontext *udma_uctx;
	union ubcore_eid src_eid;
	u32 src_uasid;
	u32 id;
};

static struct ubcore_jfs_cfg *udma_sq_cfg(const struct udma_sq *sq)
{
	return sq->jfs ? &sq->jfs->cfg : &sq->jetty->cfg.jfs_cfg;
}

static u32 udma_sq_id(const struct udma_sq *sq)
{
	return sq->jfs ? sq->jfs->id : sq->jetty->id;
}

static struct ubcore_ucontext *udma_sq_uctx(const struct udma_sq *sq)
{
	return sq->jfs ? sq->jfs->uctx : sq->jetty->uctx;
}

/**
 * udma_sq_init() - set up the engine's side of a new SQ
 * @sq: the queue, zeroed; the caller sets @sq->jfs or @sq->jetty
 * @udev: the device
 * @ring: the SQ ring
 *
 * The queue starts READY, as ubcore creates it. Process context.
 */
void udma_sq_init(struct udma_sq *sq, struct udma_dev *udev,
		  struct udma_ring *ring)
{
	sq->ring = ring;
	sq->udev = udev;
	INIT_DELAYED_WORK(&sq->work, udma_sq_work);
	mutex_init(&sq->proc_lock);
	sq->state = UBCORE_JETTY_STATE_READY;
	INIT_LIST_HEAD(&sq->rnr_node);
}
EXPORT_SYMBOL_IF_KUNIT(udma_sq_init);

/**
 * udma_sq_destroy() - stop the engine on an SQ for good
 * @sq: the queue; its object is being destroyed
 *
 * Nothing queues the SQ's work afterwards; a processor running now
 * finishes its WQE and stops; pending work is cancelled. The current WQE,
 * if any, is dropped without a completion. Process context; sleeps.
 */
void udma_sq_destroy(struct udma_sq *sq)
{
	spin_lock_bh(&sq->ring->lock);
	WRITE_ONCE(sq->dying, true);
	spin_unlock_bh(&sq->ring->lock);
	/* Wait for the processor of the moment; later ones see @dying. */
	mutex_lock(&sq->proc_lock);
	sq->cur_valid = false;
	sq->rnr_wait = false;
	mutex_unlock(&sq->proc_lock);
	/* No JFR doorbell finds the queue after this ... */
	udma_sq_rnr_del(sq);
	/* ... and no work of it is left after this. */
	cancel_delayed_work_sync(&sq->work);
	mutex_destroy(&sq->proc_lock);
}
EXPORT_SYMBOL_IF_KUNIT(udma_sq_destroy);

static void udma_sq_err_event(struct udma_sq *sq)
{
	struct ubcore_event ev = {
		.dev = &sq->udev->ub_dev,
		.type = sq->jfs ? UBCORE_EVENT_JFS_ERR : UBCORE_EVENT_JETTY_ERR,
		.element.obj_id = udma_sq_id(sq),
	};
	ubcore_event_callback_t handler;

	handler = sq->jfs ? sq->jfs->jfae_handler : sq->jetty->jfae_handler;
	if (handler)
		handler(&ev, udma_sq_uctx(sq));
}

/* Post a CQE of the queue; -ENOSPC when its JFC is full. */
static int udma_sq_post(struct udma_sq *sq, u8 status, u64 user_ctx, u32 len)
{
	struct udma_cqe cqe = {
		.status = status,
		.completion_len = len,
		.user_ctx = user_ctx,
		.local_id = udma_sq_id(sq),
	};

	return udma_cq_post(to_udma_jfc(udma_sq_cfg(sq)->jfc), &cqe, false);
}

/* The current WQE is done with (or dropped): forget its RNR state. */
static void udma_sq_drop_cur(struct udma_sq *sq)
{
	lockdep_assert_held(&sq->proc_lock);
	if (sq->rnr_wait)
		udma_sq_rnr_del(sq);
	sq->rnr_wait = false;
	sq->cur_valid = false;
}

static void udma_sq_store_state(struct udma_sq *sq, u32 state)
{
	lockdep_assert_held(&sq->proc_lock);
	sq->state = state;
	if (sq->jfs)
		WRITE_ONCE(sq->jfs->state, state);
	else
		WRITE_ONCE(sq->jetty->state, state);
}

/*
 * To ERROR: the current WQE completes with WR_FLUSH_ERR, then the
 * WR_FLUSH_ERR_DONE record. A full JFC loses them (it raised JFC_ERR).
 */
static void udma_sq_to_error(struct udma_sq *sq)
{
	udma_sq_store_state(sq, UBCORE_JETTY_STATE_ERROR);
	if (sq->cur_valid) {
		udma_sq_post(sq, URMA_CR_WR_FLUSH_ERR, sq->cur.user_ctx, 0);
		udma_sq_drop_cur(sq);
	}
	udma_sq_post(sq, URMA_CR_WR_FLUSH_ERR_DONE, 0, 0);
}

/* A fatal error of the queue found while processing it. */
static void udma_sq_fatal(struct udma_sq *sq)
{
	if (sq->state == UBCORE_JETTY_STATE_ERROR)
		return;
	udma_sq_to_error(sq);
	udma_sq_err_event(sq);
}

/*
 * The producer index of the SQ: a user ring's ctrl->pi, read once with
 * acquire (the WQEs before it are visible then); a kernel ring's own pi,
 * which kernel producers write under the ring's lock (held by the caller).
 */
static u32 udma_sq_pi(const struct udma_sq *sq)
{
	if (!udma_sq_uctx(sq)) {
		lockdep_assert_held(&sq->ring->lock);
		return sq->ring->pi;
	}
	/* Pairs with userspace's release store of pi after its WQEs. */
	return smp_load_acquire(&sq->ring->ctrl->pi);
}

/* RESET: drop the current WQE and every WQE not taken. */
static void udma_sq_discard(struct udma_sq *sq)
{
	struct udma_ring *ring = sq->ring;
	u32 pi;

	udma_sq_drop_cur(sq);
	spin_lock_bh(&ring->lock);
	pi = udma_sq_pi(sq);
	ring->ci = pi;
	WRITE_ONCE(ring->ctrl->ci, pi);
	spin_unlock_bh(&ring->lock);
}

/* The transitions ubcore allows (ubcore_check_jetty_state()). */
static bool udma_sq_transition_ok(u32 from, u32 to)
{
	switch (to) {
	case UBCORE_JETTY_STATE_ERROR:
		return true;
	case UBCORE_JETTY_STATE_RESET:
		return from == UBCORE_JETTY_STATE_ERROR;
	case UBCORE_JETTY_STATE_READY:
		return from == UBCORE_JETTY_STATE_RESET ||
		       from == UBCORE_JETTY_STATE_SUSPENDED;
	case UBCORE_JETTY_STATE_SUSPENDED:
		return from == UBCORE_JETTY_STATE_READY;
	default:
		return false;
	}
}

/**
 * udma_sq_set_state() - the owner changes the state of an SQ
 * @sq: the queue
 * @state: the new enum ubcore_jetty_state, a transition ubcore checked
 *	against the common part's state
 *
 * Waits until no WQE is being processed, then acts as the top of sq.c
 * says. The engine may have moved the queue to ERROR since ubcore looked:
 * a transition from ERROR that is not allowed fails. Process context.
 *
 * Return: 0, or -EINVAL for a transition the engine's state does not
 * allow.
 */
int udma_sq_set_state(struct udma_sq *sq, u32 state)
{
	int ret = 0;

	mutex_lock(&sq->proc_lock);
	if (state == sq->state)
		goto unlock;
	if (!udma_sq_transition_ok(sq->state, state)) {
		ret = -EINVAL;
		goto unlock;
	}
	switch (state) {
	case UBCORE_JETTY_STATE_ERROR:
		udma_sq_to_error(sq);
		break;
	case UBCORE_JETTY_STATE_SUSPENDED:
		udma_sq_store_state(sq, state);
		udma_sq_post(sq, URMA_CR_WR_SUSPEND_DONE, 0, 0);
		break;
	case UBCORE_JETTY_STATE_RESET:
		udma_sq_store_state(sq, state);
		udma_sq_discard(sq);
		break;
	default:	/* READY */
		udma_sq_store_state(sq, state);
		break;
	}
unlock:
	mutex_unlock(&sq->proc_lock);
	if (!ret && state == UBCORE_JETTY_STATE_READY)
		udma_sq_kick(sq, 0);
	return ret;
}
EXPORT_SYMBOL_IF_KUNIT(udma_sq_set_state);

/**
 * udma_sq_flush() - take WQEs not yet taken off a stopped SQ
 * @sq: the queue
 * @max_cnt: at most this many
 * @first: set to the ring index of the first
 * @cnt: set to how many
 *
 * Process context.
 *
 * Return: 0; -EINVAL unless the queue is in ERROR or SUSPENDED; -EIO when
 * userspace's pi is out of range (nothing is taken).
 */
int udma_sq_flush(struct udma_sq *sq, u32 max_cnt, u32 *first, u32 *cnt)
{
	struct udma_ring *ring = sq->ring;
	int ret = 0;
	u32 pi, n;

	mutex_lock(&sq->proc_lock);
	if (sq->state != UBCORE_JETTY_STATE_ERROR &&
	    sq->state != UBCORE_JETTY_STATE_SUSPENDED) {
		ret = -EINVAL;
		goto unlock;
	}
	spin_lock_bh(&ring->lock);
	pi = udma_sq_pi(sq);
	n = pi - ring->ci;
	if (n > ring->entry_cnt) {
		ret = -EIO;
	} else {
		n = min(n, max_cnt);
		*first = ring->ci;
		*cnt = n;
		ring->ci += n;
		WRITE_ONCE(ring->ctrl->ci, ring->ci);
	}
	spin_unlock_bh(&ring->lock);
unlock:
	mutex_unlock(&sq->proc_lock);
	return ret;
}
EXPORT_SYMBOL_IF_KUNIT(udma_sq_flush);

/**
 * udma_flush_jfs() - ubcore_ops.flush_jfs
 * @jfs: the JFS
 * @max_cnt: at most this many WQEs
 * @first: set to the ring index of the first taken off
 * @cnt: set to how many were taken off
 *
 * Return: as udma_sq_flush().
 */
int udma_flush_jfs(struct ubcore_jfs *jfs, u32 max_cnt, u32 *first, u32 *cnt)
{
	return udma_sq_flush(&to_udma_jfs(jfs)->sq, max_cnt, first, cnt);
}

/**
 * udma_flush_jetty() - ubcore_ops.flush_jetty
 * @jetty: the jetty
 * @max_cnt: at most this many WQEs
 * @first: set to the ring index of the first taken off
 * @cnt: set to how many were taken off
 *
 * Return: as udma_sq_flush().
 */
int udma_flush_jetty(struct ubcore_jetty *jetty, u32 max_cnt, u32 *first,
		     u32 *cnt)
{
	return udma_sq_flush(&to_udma_jetty(jetty)->sq, max_cnt, first, cnt);
}

/**
 * udma_bind_jetty() - ubcore_ops.bind_jetty
 * @jetty: an RC jetty
 * @tjetty: the imported jetty it sends to from now on
 *
 * The engine keeps its own copy of the peer. Process context.
 *
 * Return: 0, or -EEXIST when the jetty is bound already.
 */
int udma_bind_jetty(struct ubcore_jetty *jetty, struct ubcore_tjetty *tjetty)
{
	struct udma_sq *sq = &to_udma_jetty(jetty)->sq;
	int ret = 0;

	mutex_lock(&sq->proc_lock);
	if (sq->bound) {
		ret = -EEXIST;
	} else {
		sq->peer = to_udma_tjetty(tjetty)->imp;
		sq->bound = true;
	}
	mutex_unlock(&sq->proc_lock);
	return ret;
}

/**
 * udma_unbind_jetty() - ubcore_ops.unbind_jetty
 * @jetty: the jetty; WQEs taken afterwards have no bound peer
 *
 * Process context.
 *
 * Return: 0.
 */
int udma_unbind_jetty(struct ubcore_jetty *jetty)
{
	struct udma_sq *sq = &to_udma_jetty(jetty)->sq;

	mutex_lock(&sq->proc_lock);
	sq->bound = false;
	memset(&sq->peer, 0, sizeof(sq->peer));
	mutex_unlock(&sq->proc_lock);
	return 0;
}

static void udma_sq_batch_init(struct udma_sq *sq, struct udma_sq_batch *b)
{
	const struct ubcore_jfs_cfg *cfg = udma_sq_cfg(sq);
	struct ubcore_device *dev = &sq->udev->ub_dev;
	const struct ubcore_device_cap *cap = &dev->cap;

	b->lim = (struct udma_sq_limits){
		.trans_mode = cfg->trans_mode,
		.max_sge = cfg->max_sge,
		.max_inline = cfg->max_inline_data,
		.max_msg_size = cap->max_msg_size,
		.max_write_size = cap->max_write_size,
		.max_read_size = cap->max_read_size,
		.atomic_feature = cap->atomic_feature,
		.jetty = !!sq->jetty,
		.bound = sq->bound,
	};
	b->dev = dev;
	b->uctx = udma_sq_uctx(sq);
	b->udma_uctx = b->uctx ? to_udma_ucontext(b->uctx) : NULL;
	b->src_uasid = b->uctx ? b->uctx->uasid : 0;
	b->id = udma_sq_id(sq);
	/* An EID removed meanwhile: the target sees a zero source EID. */
	if (ubcore_get_eid(dev, b->uctx ? b->uctx->eid_index : 0, &b->src_eid))
		memset(&b->src_eid, 0, sizeof(b->src_eid));
}

static bool udma_import_same(const struct udma_import *a,
			     const struct udma_import *b)
{
	return a->id == b->id && !memcmp(&a->eid, &b->eid, sizeof(a->eid));
}

static u8 udma_sq_resolve_target(struct udma_sq *sq,
				 const struct udma_sq_batch *b,
				 const struct udma_sqe *sqe,
				 struct udma_import *peer)
{
	if (b->lim.trans_mode == UBCORE_TP_RC && sq->bound) {
		if (!sqe->target_idx) {
			*peer = sq->peer;
			return URMA_CR_SUCCESS;
		}
		if (!udma_import_lookup(b->udma_uctx, sqe->target_idx,
					UDMA_IMPORT_JETTY, peer))
			return URMA_CR_LOC_ACCESS_ERR;
		return udma_import_same(peer, &sq->peer) ?
		       URMA_CR_SUCCESS : URMA_CR_LOC_OPERATION_ERR;
	}
	if (!udma_import_lookup(b->udma_uctx, sqe->target_idx,
				UDMA_IMPORT_JETTY, peer))
		return URMA_CR_LOC_ACCESS_ERR;
	return URMA_CR_SUCCESS;
}

/* SEND, SEND_IMM, SEND_INVALIDATE: delivered into an RQE. */
static bool udma_sqe_is_message(const struct udma_sqe *sqe)
{
	return sqe->opcode == URMA_OPC_SEND ||
	       sqe->opcode == URMA_OPC_SEND_IMM ||
	       sqe->opcode == URMA_OPC_SEND_INVALIDATE;
}

/*
 * A WRITE*, READ or atomic that names no target (target_idx 0) outside an
 * RC jetty goes to the EID of its imported segment.
 */
static bool udma_sq_seg_only(const struct udma_sq *sq,
			     const struct udma_sq_batch *b,
			     const struct udma_sqe *sqe)
{
	if (sqe->target_idx || udma_sqe_is_message(sqe) ||
	    sqe->opcode == URMA_OPC_WRITE_IMM)
		return false;
	return b->lim.trans_mode != UBCORE_TP_RC || !sq->bound;
}

static void udma_local_buf_put(struct udma_local_buf *buf)
{
	u32 i;

	for (i = 0; i < buf->nr; i++)
		ubcore_obj_ref_put(&buf->range[i].seg->obj_ref);
	buf->nr = 0;
}

/* Resolve the local SGEs (or the inline data) of a checked SQE. */
static u8 udma_sq_get_local(const struct udma_sq_batch *b,
			    const struct udma_sqe *sqe,
			    struct udma_local_buf *buf)
{
	struct ubcore_target_seg *seg;
	u32 i;

	buf->nr = 0;
	buf->total = 0;
	buf->inline_data = NULL;
	if (sqe->flags & UDMA_SQE_F_INLINE) {
		buf->inline_data = sqe->inline_data;
		buf->total = sqe->inline_len;
		return URMA_CR_SUCCESS;
	}
	for (i = 0; i < sqe->num_sge; i++) {
		const struct udma_sge *sge = &sqe->sge[i];

		if (!sge->len)
			continue;
		seg = ubcore_find_get_seg(b->dev, sge->token_id, sge->va,
					  sge->len);
		if (!seg)
			goto access;
		/* A process uses the memory it registered, nothing else. */
		if (seg->uctx != b->uctx) {
			ubcore_obj_ref_put(&seg->obj_ref);
			goto access;
		}
		buf->range[buf->nr].seg = seg;
		buf->range[buf->nr].va = sge->va;
		buf->range[buf->nr].len = sge->len;
		buf->nr++;
		buf->total += sge->len;
	}
	return URMA_CR_SUCCESS;

access:
	udma_local_buf_put(buf);
	return URMA_CR_LOC_ACCESS_ERR;
}

static u8 udma_ta_opcode(u8 opcode)
{
	switch (opcode) {
	case URMA_OPC_WRITE:
		return UDMA_TA_WRITE;
	case URMA_OPC_WRITE_IMM:
		return UDMA_TA_WRITE_IMM;
	case URMA_OPC_WRITE_NOTIFY:
		return UDMA_TA_WRITE_NOTIFY;
	case URMA_OPC_READ:
		return UDMA_TA_READ;
	case URMA_OPC_CAS:
		return UDMA_TA_CAS;
	case URMA_OPC_SWAP:
		return UDMA_TA_SWAP;
	case URMA_OPC_FADD:
		return UDMA_TA_FADD;
	case URMA_OPC_FSUB:
		return UDMA_TA_FSUB;
	case URMA_OPC_FAND:
		return UDMA_TA_FAND;
	case URMA_OPC_FOR:
		return UDMA_TA_FOR;
	case URMA_OPC_FXOR:
		return UDMA_TA_FXOR;
	case URMA_OPC_SEND_IMM:
		return UDMA_TA_SEND_IMM;
	default:	/* SEND, SEND_INVALIDATE (udma_txn.invalidate) */
		return UDMA_TA_SEND;
	}
}

static u8 udma_txn_cr_status(enum udma_txn_status ts)
{
	switch (ts) {
	case UDMA_TXN_OK:
		return URMA_CR_SUCCESS;
	case UDMA_TXN_RNR:
		return UDMA_SQ_RNR;
	case UDMA_TXN_REM_ACCESS:
		return URMA_CR_REM_ACCESS_ABORT_ERR;
	case UDMA_TXN_REM_UNSUPPORTED:
		return URMA_CR_REM_UNSUPPORTED_REQ_ERR;
	case UDMA_TXN_LOC_LEN:
		return URMA_CR_LOC_LEN_ERR;
	default:	/* UDMA_TXN_REM_OPERATION */
		return URMA_CR_REM_OPERATION_ERR;
	}
}

/*
 * The imported segments a WQE names: rseg_idx (not for SEND and SEND_IMM)
 * and WRITE_NOTIFY's notify_rseg_idx, which must be of the same EID.
 */
static u8 udma_sq_resolve_segs(const struct udma_sq_batch *b,
			       const struct udma_sqe *sqe,
			       struct udma_import *rseg,
			       struct udma_import *nseg)
{
	if (sqe->opcode == URMA_OPC_SEND || sqe->opcode == URMA_OPC_SEND_IMM)
		return URMA_CR_SUCCESS;
	if (!udma_import_lookup(b->udma_uctx, sqe->rseg_idx, UDMA_IMPORT_SEG,
				rseg))
		return URMA_CR_LOC_ACCESS_ERR;
	if (sqe->opcode != URMA_OPC_WRITE_NOTIFY)
		return URMA_CR_SUCCESS;
	if (!udma_import_lookup(b->udma_uctx, sqe->notify_rseg_idx,
				UDMA_IMPORT_SEG, nseg))
		return URMA_CR_LOC_ACCESS_ERR;
	if (memcmp(&nseg->eid, &rseg->eid, sizeof(rseg->eid)))
		return URMA_CR_LOC_OPERATION_ERR;
	return URMA_CR_SUCCESS;
}

/* The transaction's fields that name target memory and data. */
static void udma_sq_txn_target(struct udma_txn *txn, const struct udma_sqe *sqe,
			       const struct udma_import *rseg,
			       const struct udma_import *nseg)
{
	switch (sqe->opcode) {
	case URMA_OPC_SEND:
		return;
	case URMA_OPC_SEND_IMM:
		txn->imm_data = sqe->data;
		return;
	case URMA_OPC_SEND_INVALIDATE:
		txn->invalidate = true;
		txn->token_id = rseg->token_id;
		txn->token_value = rseg->token_value;
		txn->dst_va = rseg->va;
		txn->inv_len = rseg->len;
		return;
	case URMA_OPC_WRITE_NOTIFY:
		txn->notify_token_id = nseg->token_id;
		txn->notify_token_value = nseg->token_value;
		txn->notify_va = sqe->notify_va;
		fallthrough;
	case URMA_OPC_WRITE_IMM:
		txn->imm_data = sqe->data;
		break;
	default:
		break;
	}
	txn->token_id = rseg->token_id;
	txn->token_value = rseg->token_value;
	txn->dst_va = sqe->remote_va;
}

/* Execute one WQE: its CQE status (or UDMA_SQ_RNR) and bytes moved. */
static u8 udma_sq_execute(struct udma_sq *sq, const struct udma_sq_batch *b,
			  const struct udma_sqe *sqe, u32 *len)
{
	struct udma_import peer, rseg = {}, nseg = {};
	struct udma_local_buf buf;
	struct udma_txn txn = {};
	bool message;
	u8 st;

	*len = 0;
	st = udma_sqe_check(sqe, &b->lim);
	if (st || sqe->opcode == URMA_OPC_NOP)
		return st;
	message = udma_sqe_is_message(sqe);
	st = udma_sq_resolve_segs(b, sqe, &rseg, &nseg);
	if (st)
		return st;
	if (udma_sq_seg_only(sq, b, sqe)) {
		memset(&peer, 0, sizeof(peer));
		peer.eid = rseg.eid;
	} else {
		st = udma_sq_resolve_target(sq, b, sqe, &peer);
		if (st)
			return st;
	}
	if (sqe->opcode == URMA_OPC_SEND_INVALIDATE &&
	    memcmp(&rseg.eid, &peer.eid, sizeof(peer.eid)))
		return URMA_CR_LOC_OPERATION_ERR;
	st = udma_sq_get_local(b, sqe, &buf);
	if (st)
		return st;

	txn.opcode = udma_ta_opcode(sqe->opcode);
	txn.solicited = sqe->flags & UDMA_SQE_F_SOLICITED;
	txn.src_eid = b->src_eid;
	txn.src_uasid = b->src_uasid;
	txn.src_jetty_id = b->id;
	txn.dst_eid = peer.eid;
	txn.len = buf.total;
	if (message || sqe->opcode == URMA_OPC_WRITE_IMM) {
		txn.dst_jetty_id = peer.id;
		txn.jetty_token = peer.token_value;
	}
	udma_sq_txn_target(&txn, sqe, &rseg, &nseg);
	switch (sqe->opcode) {
	case URMA_OPC_SEND:
	case URMA_OPC_SEND_IMM:
	case URMA_OPC_SEND_INVALIDATE:
	case URMA_OPC_WRITE:
	case URMA_OPC_WRITE_IMM:
	case URMA_OPC_WRITE_NOTIFY:
		txn.payload = &buf;
		break;
	case URMA_OPC_READ:
		txn.response = &buf;
		break;
	default:	/* atomics: one 8-byte SGE for the old value */
		txn.operand1 = sqe->data;
		txn.operand2 = sqe->cmp_data;
		txn.response = &buf;
		break;
	}

	st = udma_txn_cr_status(udma_target_execute(&txn));
	udma_local_buf_put(&buf);
	if (st == URMA_CR_SUCCESS)
		*len = min_t(u64, txn.done_len, U32_MAX);
	return st;
}

/*
 * The current WQE answered RNR: wait for a retry (true), or the retries
 * are used up (false). An early retry (a JFR doorbell woke the queue)
 * that fails again does not count.
 */
static bool udma_sq_rnr_wait(struct udma_sq *sq)
{
	unsigned long now = jiffies, delay;

	WRITE_ONCE(sq->rnr_woken, false);
	if (!sq->rnr_wait) {
		sq->rnr_left = min_t(u8, udma_sq_cfg(sq)->rnr_retry,
				     UDMA_RNR_RETRY_MAX);
		sq->rnr_tries = 0;
	} else if (time_before(now, sq->rnr_until)) {
		udma_sq_kick(sq, sq->rnr_until - now);
		return true;
	}
	if (!sq->rnr_left)
		return false;
	sq->rnr_left--;
	delay = msecs_to_jiffies(UDMA_RNR_DELAY_MS <<
				 min_t(u8, sq->rnr_tries,
				       UDMA_RNR_DELAY_MAX_SHIFT));
	sq->rnr_tries++;
	sq->rnr_until = now + delay;
	if (!sq->rnr_wait) {
		sq->rnr_wait = true;
		udma_sq_rnr_add(sq);
	}
	udma_sq_kick(sq, delay);
	return true;
}

/*
 * Execute the current WQE and complete it, unless it waits for an RNR
 * retry. False when processing has to stop (RNR wait, fatal error).
 */
static bool udma_sq_run_cur(struct udma_sq *sq, const struct udma_sq_batch *b)
{
	u64 user_ctx = sq->cur.user_ctx;
	bool complete = sq->cur.flags & UDMA_SQE_F_COMPLETE;
	u32 len;
	u8 st;

	st = udma_sq_execute(sq, b, &sq->cur, &len);
	if (st == UDMA_SQ_RNR) {
		if (udma_sq_rnr_wait(sq))
			return false;
		st = URMA_CR_RNR_RETRY_CNT_EXC_ERR;
	}
	udma_sq_drop_cur(sq);
	if (st == URMA_CR_SUCCESS && !complete)
		return true;
	if (udma_sq_post(sq, st, user_ctx, len)) {
		udma_sq_fatal(sq);
		return false;
	}
	return true;
}

enum udma_sq_take {
	UDMA_SQ_TAKEN,
	UDMA_SQ_EMPTY,
	UDMA_SQ_CORRUPT,
};

/* Copy the WQE at ci into @sq->cur and advance ci, up to @pi. */
static enum udma_sq_take udma_sq_take(struct udma_sq *sq, u32 pi)
{
	struct udma_ring *ring = sq->ring;
	enum udma_sq_take ret = UDMA_SQ_TAKEN;
	u32 ci;

	spin_lock_bh(&ring->lock);
	ci = ring->ci;
	if (pi - ci > ring->entry_cnt) {
		ret = UDMA_SQ_CORRUPT;
	} else if (pi == ci) {
		ret = UDMA_SQ_EMPTY;
	} else {
		memcpy(&sq->cur, udma_ring_entry(ring, ci), sizeof(sq->cur));
		ring->ci = ci + 1;
		/*
		 * Userspace may reuse the entry: it is not read again (the
		 * release orders the copy before the new ci).
		 */
		smp_store_release(&ring->ctrl->ci, ci + 1);
		sq->cur_valid = true;
		sq->rnr_wait = false;
	}
	spin_unlock_bh(&ring->lock);
	return ret;
}

/* Bytes of a WQE for the budget (the copy; not yet checked). */
static u64 udma_sqe_bytes(const struct udma_sqe *sqe)
{
	u64 total = 0;
	u32 i;

	if (sqe->flags & UDMA_SQE_F_INLINE)
		return sqe->inline_len;
	for (i = 0; i < min_t(u32, sqe->num_sge, UDMA_SQE_MAX_SGE); i++)
		total += sqe->sge[i].len;
	return total;
}

static bool udma_sq_running(const struct udma_sq *sq)
{
	return sq->state == UBCORE_JETTY_STATE_READY && !READ_ONCE(sq->dying);
}

/**
 * udma_sq_process() - process WQEs of an SQ
 * @sq: the queue; the caller holds @sq->proc_lock
 * @inline_budget: the doorbell caller's budget (64 WQEs, 256 KiB, and a
 *	WQE that does not fit is left taken for the work); else the work's
 *	(256 WQEs, 4 MiB, at least one WQE)
 *
 * Reads pi once and processes WQEs up to it while the queue is READY.
 * Sleeps (process context): copies, target lookups.
 *
 * Return: true when WQEs may be left (the caller queues the work), false
 * when the SQ is empty, stopped, or waits for an RNR retry (its work is
 * queued for that already).
 */
bool udma_sq_process(struct udma_sq *sq, bool inline_budget)
{
	u32 max_wqes = inline_budget ? UDMA_SQ_INLINE_WQES : UDMA_SQ_WORK_WQES;
	u64 max_bytes = inline_budget ? UDMA_SQ_INLINE_BYTES :
					UDMA_SQ_WORK_BYTES;
	struct udma_sq_batch b;
	u64 bytes = 0, next;
	u32 done, pi;

	lockdep_assert_held(&sq->proc_lock);
	if (!udma_sq_running(sq))
		return false;
	if (sq->cur_valid && sq->rnr_wait && !READ_ONCE(sq->rnr_woken) &&
	    time_before(jiffies, sq->rnr_until)) {
		udma_sq_kick(sq, sq->rnr_until - jiffies);
		return false;
	}
	udma_sq_batch_init(sq, &b);
	spin_lock_bh(&sq->ring->lock);
	pi = udma_sq_pi(sq);
	spin_unlock_bh(&sq->ring->lock);

	for (done = 0; done < max_wqes; done++) {
		if (!udma_sq_running(sq))
			return false;
		if (!sq->cur_valid) {
			switch (udma_sq_take(sq, pi)) {
			case UDMA_SQ_EMPTY:
				return false;
			case UDMA_SQ_CORRUPT:
				udma_sq_fatal(sq);
				return false;
			default:
				break;
			}
		}
		next = udma_sqe_bytes(&sq->cur);
		if (bytes + next > max_bytes && (inline_budget || done))
			return true;
		bytes += next;
		if (!udma_sq_run_cur(sq, &b))
			return false;
		if (!inline_budget)
			cond_resched();
	}
	return true;
}
EXPORT_SYMBOL_IF_KUNIT(udma_sq_process);
