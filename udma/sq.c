// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * The send queues of JFSs and jetties: their setup and teardown, their
 * states, flush and binding. The requester (req.c) and the completer
 * (comp.c) process them; engine.c decides when and where.
 *
 * Fatal errors of the queue: a corrupt ring, or a CQE that does not fit in
 * the JFC (the JFC raises JFC_ERR). The queue goes to ERROR as below and
 * raises JFS_ERR or JETTY_ERR.
 *
 * States (modify_jfs, modify_jetty; transitions as ubcore allows):
 *  - ERROR: processing stops; every WQE of the window (taken, waiting
 *    for an RNR retry, for the work or for its response) completes with
 *    WR_FLUSH_ERR, in order; then a WR_FLUSH_ERR_DONE record (user_ctx
 *    0). WQEs not taken stay in the
 *    ring for flush (userspace reports them as WR_UNHANDLED);
 *  - SUSPENDED: no WQE is started; the window stays; a
 *    WR_SUSPEND_DONE record (user_ctx 0);
 *  - READY: processing goes on (from the window's head);
 *  - RESET: the ring is emptied: the window and every WQE not taken are
 *    dropped without completions (ci = pi).
 * Flush (ERROR or SUSPENDED): up to max_cnt WQEs not taken are taken off
 * (ci advanced), reported as the first index and the count.
 */
#include <linux/bitops.h>
#include <linux/delay.h>
#include <linux/jiffies.h>
#include <linux/kernel.h>
#include <linux/lockdep.h>
#include <linux/minmax.h>
#include <linux/sched.h>
#include <linux/sizes.h>
#include <linux/string.h>
#include <linux/wait_bit.h>

#include <kunit/visibility.h>
#include <ub/ubcore_event.h>

#include "msg.h"
#include "udma.h"

struct ubcore_jfs_cfg *udma_sq_cfg(const struct udma_sq *sq)
{
	return sq->jfs ? &sq->jfs->cfg : &sq->jetty->cfg.jfs_cfg;
}

u32 udma_sq_id(const struct udma_sq *sq)
{
	return sq->jfs ? sq->jfs->id : sq->jetty->id;
}

struct ubcore_ucontext *udma_sq_uctx(const struct udma_sq *sq)
{
	return sq->jfs ? sq->jfs->uctx : sq->jetty->uctx;
}

/* One lock class for every SQ's proc_lock, as one mutex_init() site was. */
static struct lock_class_key udma_sq_proc_key;

/**
 * udma_sq_lock() - become the SQ's processor, waiting for the one there is
 * @sq: the queue
 *
 * Process context; sleeps. Uninterruptible, like mutex_lock(): a
 * processor only holds it for a budget of WQEs or a state change.
 */
void udma_sq_lock(struct udma_sq *sq)
{
	might_sleep();
	lock_map_acquire(&sq->proc_map);
	wait_on_bit_lock(&sq->proc_lock, 0, TASK_UNINTERRUPTIBLE);
}
EXPORT_SYMBOL_IF_KUNIT(udma_sq_lock);

/**
 * udma_sq_trylock() - become the SQ's processor if there is none
 * @sq: the queue
 *
 * The one way the receive softirq takes it (lockdep does not mark a
 * trylock's context, so a process-context holder that sleeps with
 * softirqs enabled is no inversion: the softirq never waits for it).
 * Any context.
 *
 * Return: true when the caller holds it.
 */
bool udma_sq_trylock(struct udma_sq *sq)
{
	if (test_and_set_bit_lock(0, &sq->proc_lock))
		return false;
	lock_map_acquire_try(&sq->proc_map);
	return true;
}
EXPORT_SYMBOL_IF_KUNIT(udma_sq_trylock);

/**
 * udma_sq_unlock() - stop being the SQ's processor
 * @sq: the queue, whose proc_lock the caller holds
 *
 * Any context.
 */
void udma_sq_unlock(struct udma_sq *sq)
{
	lock_map_release(&sq->proc_map);
	clear_and_wake_up_bit(0, &sq->proc_lock);
}
EXPORT_SYMBOL_IF_KUNIT(udma_sq_unlock);

/**
 * udma_sq_init() - set up the engine's side of a new SQ
 * @sq: the queue, zeroed; the caller sets @sq->jfs or @sq->jetty
 * @udev: the device
 * @ring: the SQ ring
 *
 * The queue starts READY, as ubcore creates it. Its window holds as many
 * WQEs as the ring, up to UDMA_SQ_WINDOW_MAX: a queue deep enough keeps
 * that many requests on the wire, which a path whose round trip is long
 * against a request's transmission needs; a power of two, so that the
 * WQE of a PSN stays in place when the PSN wraps. Process context.
 *
 * Return: 0 or -ENOMEM.
 */
int udma_sq_init(struct udma_sq *sq, struct udma_dev *udev,
		 struct udma_ring *ring)
{
	sq->wnd_size = min_t(u32, roundup_pow_of_two(max(ring->entry_cnt, 1U)),
			     UDMA_SQ_WINDOW_MAX);
	sq->wnd = kvcalloc(sq->wnd_size, sizeof(*sq->wnd), UDMA_RING_GFP);
	if (!sq->wnd)
		return -ENOMEM;
	sq->ring = ring;
	sq->udev = udev;
	INIT_DELAYED_WORK(&sq->work, udma_sq_work);
	tasklet_setup(&sq->tasklet, udma_sq_tasklet);
	lockdep_init_map(&sq->proc_map, "udma_sq.proc_lock", &udma_sq_proc_key,
			 0);
	sq->state = UBCORE_JETTY_STATE_READY;
	INIT_LIST_HEAD(&sq->rnr_node);
	INIT_LIST_HEAD(&sq->rsp_list);
	INIT_LIST_HEAD(&sq->dev_node);
	udma_uboe_sq_init(sq);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(udma_sq_init);

/**
 * udma_sq_register() - a new SQ joins its device's list
 * @sq: the queue, initialised (udma_sq_init()), its object created
 *
 * On the list, a failed TP finds the queue's WQEs it fails
 * (udma_uboe_tp_failed()), however many queues used it. Process context.
 */
void udma_sq_register(struct udma_sq *sq)
{
	mutex_lock(&sq->udev->sqs_lock);
	list_add_tail(&sq->dev_node, &sq->udev->sqs);
	mutex_unlock(&sq->udev->sqs_lock);
}
EXPORT_SYMBOL_IF_KUNIT(udma_sq_register);

/*
 * The WQEs of the window are done with (or dropped): forget their RNR
 * state and the local memory they hold. @flush: each completes with
 * WR_FLUSH_ERR (a full JFC loses them; it raised JFC_ERR).
 */
static void udma_sq_drop_window(struct udma_sq *sq, bool flush)
{
	struct udma_wqe *wqe;

	udma_sq_assert_held(sq);
	if (sq->rnr_wait)
		udma_sq_rnr_del(sq);
	sq->rnr_wait = false;
	udma_uboe_sq_cancel(sq);
	for (; sq->head != sq->tail; sq->head++) {
		wqe = udma_sq_wqe(sq, sq->head);
		udma_wqe_release(wqe);
		if (flush)
			udma_sq_post(sq, URMA_CR_WR_FLUSH_ERR,
				     wqe->sqe.user_ctx, 0);
	}
	sq->next = sq->tail;
}

/**
 * udma_sq_answer_came() - an answer a queue's destroy waits for came
 * @sq: the queue, being destroyed
 *
 * Wakes udma_sq_wait_answers(). Any context but hard IRQ.
 */
void udma_sq_answer_came(struct udma_sq *sq)
{
	spin_lock_bh(&sq->ring->lock);
	WRITE_ONCE(sq->answer_ev, sq->answer_ev + 1);
	spin_unlock_bh(&sq->ring->lock);
	wake_up_var(&sq->answer_ev);
}
EXPORT_SYMBOL_IF_KUNIT(udma_sq_answer_came);

/*
 * A request stopped for its TP (udma_uboe_sq_resume()) will not go on:
 * no answer comes to it.
 */
static void udma_sq_cancel_stopped(struct udma_sq *sq)
{
	u32 psn = sq->uboe_tx.psn;

	if (!sq->uboe_tx.tx.rtp)
		return;
	udma_uboe_sq_cancel(sq);
	udma_comp_local(sq, psn, URMA_CR_WR_FLUSH_ERR);
}

/* Does a request of @sq wait for its response? */
static bool udma_sq_unanswered(const struct udma_sq *sq)
{
	u32 psn;

	udma_sq_assert_held(sq);
	for (psn = sq->head; psn != sq->next; psn++)
		if (udma_sq_wqe(sq, psn)->state == UDMA_WQE_SENT)
			return true;
	return false;
}

/*
 * Destroy waits for the answers to the requests the queue has on the wire,
 * up to UDMA_SQ_ANSWER_WAIT_MS, then leaves udma_dev.sqs: a request the
 * peer has not executed yet could otherwise still take an RQE posted
 * there after the destroy returned (an RNR retry of a SEND). No longer
 * found by its ID, the queue gets its answers from the receive work
 * through the device's list (udma_uboe_rsp_to_dying()), or a failure of
 * the TP answers them (udma_comp_tp_failed()); no CQE is written. A
 * request the peer still has not answered at the bound may yet be
 * executed there: its TP's transport delivers what it was given.
 */
static void udma_sq_wait_answers(struct udma_sq *sq)
{
	unsigned long end = jiffies + msecs_to_jiffies(UDMA_SQ_ANSWER_WAIT_MS);
	struct udma_dev *udev = sq->udev;
	bool waiting;
	long left;
	u32 ev;

	mutex_lock(&udev->sqs_lock);
	WRITE_ONCE(udev->sqs_dying, udev->sqs_dying + 1);
	mutex_unlock(&udev->sqs_lock);
	for (;;) {
		/* (the processor of the moment first; later ones see @dying) */
		udma_sq_lock(sq);
		ev = READ_ONCE(sq->answer_ev);
		udma_sq_cancel_stopped(sq);
		udma_uboe_sq_drain(sq);
		waiting = udma_sq_unanswered(sq);
		udma_sq_unlock(sq);
		/* (signed: a tick after @end must not wrap into a long wait) */
		left = (long)(end - jiffies);
		if (!waiting || left <= 0)
			break;
		wait_var_event_timeout(&sq->answer_ev,
				       READ_ONCE(sq->answer_ev) != ev, left);
	}
	mutex_lock(&udev->sqs_lock);
	WRITE_ONCE(udev->sqs_dying, udev->sqs_dying - 1);
	list_del_init(&sq->dev_node);
	mutex_unlock(&udev->sqs_lock);
}

/**
 * udma_sq_destroy() - stop the engine on an SQ for good
 * @sq: the queue; its object is being destroyed
 *
 * Nothing queues the SQ's work or tasklet afterwards; a processor running
 * now finishes its WQE and stops; pending work and tasklet are
 * cancelled. A queue of a device's list waits for the answers to its
 * requests on the wire (udma_sq_wait_answers()). The WQEs of the window
 * are dropped without completions. Process context; sleeps.
 */
void udma_sq_destroy(struct udma_sq *sq)
{
	spin_lock_bh(&sq->ring->lock);
	WRITE_ONCE(sq->dying, true);
	spin_unlock_bh(&sq->ring->lock);
	/* (only create and destroy change the node: no race on the test) */
	if (!list_empty(&sq->dev_node))
		udma_sq_wait_answers(sq);
	/* Wait for the processor of the moment; later ones see @dying. */
	udma_sq_lock(sq);
	udma_sq_drop_window(sq, false);
	udma_sq_unlock(sq);
	/* No JFR doorbell finds the queue after this ... */
	udma_sq_rnr_del(sq);
	/* ... nor a tasklet (it may kick the work: not any more) ... */
	tasklet_kill(&sq->tasklet);
	/* ... and no work of it is left after this. */
	cancel_delayed_work_sync(&sq->work);
	/* Responses the wire brought and no one will complete now. */
	udma_uboe_sq_purge(sq);
	udma_uboe_sq_fini(sq);
	kvfree(sq->wnd);
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
int udma_sq_post(struct udma_sq *sq, u8 status, u64 user_ctx, u32 len)
{
	struct udma_cqe cqe = {
		.status = status,
		.completion_len = len,
		.user_ctx = user_ctx,
		.local_id = udma_sq_id(sq),
	};

	return udma_cq_post(to_udma_jfc(udma_sq_cfg(sq)->jfc), &cqe, false);
}

static void udma_sq_store_state(struct udma_sq *sq, u32 state)
{
	udma_sq_assert_held(sq);
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
	udma_sq_drop_window(sq, true);
	udma_sq_post(sq, URMA_CR_WR_FLUSH_ERR_DONE, 0, 0);
}

/* A fatal error of the queue found while processing it. */
void udma_sq_fatal(struct udma_sq *sq)
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
u32 udma_sq_pi(const struct udma_sq *sq)
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

	udma_sq_drop_window(sq, false);
	spin_lock_bh(&ring->lock);
	pi = udma_sq_pi(sq);
	ring->ci = pi;
	WRITE_ONCE(ring->ctrl->ci, pi);
	spin_unlock_bh(&ring->lock);
}

/*
 * To ERROR at its owner's request: the answers to the requests the queue
 * has on the wire come first, up to UDMA_SQ_ANSWER_WAIT_MS, as for
 * destroy (udma_sq_wait_answers()): a WQE flushed here must not be executed at its target
 * afterwards, as an RNR retry of a SEND on the wire would be when an RQE
 * is posted there after the flush. The queue is in ERROR for the
 * processor meanwhile: nothing new is sent, no RNR retry; the answers
 * that come complete their WQEs, and udma_sq_to_error() flushes the
 * rest. Called and returns with @sq->proc_lock held; drops it to sleep.
 */
static void udma_sq_error_wait(struct udma_sq *sq)
{
	unsigned long end = jiffies + msecs_to_jiffies(UDMA_SQ_ANSWER_WAIT_MS);

	udma_sq_assert_held(sq);
	udma_sq_store_state(sq, UBCORE_JETTY_STATE_ERROR);
	for (;;) {
		udma_sq_cancel_stopped(sq);
		udma_uboe_sq_drain(sq);
		udma_comp_run(sq);
		if (!udma_sq_unanswered(sq) || time_after_eq(jiffies, end))
			return;
		udma_sq_unlock(sq);
		usleep_range(200, 500);
		udma_sq_lock(sq);
	}
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
 * says; to ERROR, after the answers to the requests on the wire (at most
 * UDMA_SQ_ANSWER_WAIT_MS). The engine may have moved the queue to ERROR
 * since ubcore looked:
 * a transition from ERROR that is not allowed fails. Process context.
 *
 * Return: 0, or -EINVAL for a transition the engine's state does not
 * allow.
 */
int udma_sq_set_state(struct udma_sq *sq, u32 state)
{
	int ret = 0;

	udma_sq_lock(sq);
	if (state == sq->state)
		goto unlock;
	if (!udma_sq_transition_ok(sq->state, state)) {
		ret = -EINVAL;
		goto unlock;
	}
	switch (state) {
	case UBCORE_JETTY_STATE_ERROR:
		udma_sq_error_wait(sq);
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
	udma_sq_unlock(sq);
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

	udma_sq_lock(sq);
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
	udma_sq_unlock(sq);
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

	udma_sq_lock(sq);
	if (sq->bound) {
		ret = -EEXIST;
	} else {
		sq->peer = to_udma_tjetty(tjetty)->imp;
		sq->bound = true;
	}
	udma_sq_unlock(sq);
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

	udma_sq_lock(sq);
	sq->bound = false;
	memset(&sq->peer, 0, sizeof(sq->peer));
	udma_sq_unlock(sq);
	return 0;
}
