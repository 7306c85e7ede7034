// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * When the engine runs: doorbells, the work that takes over what a
 * doorbell leaves, RNR retries, and the JFR doorbells that cut an RNR wait
 * short.
 *
 * A doorbell (ioctl, process context) processes up to its budget inline
 * (udma_sq_process()) if no one else processes the SQ at the moment, and
 * leaves the rest to the SQ's work on its workqueue, which requeues itself
 * until the SQ is drained: a large post never holds the caller, and one
 * SQ is processed by one context at a time (udma_sq.proc_lock; a doorbell
 * that finds it taken queues the work, which runs after the holder).
 * The work is delayed for an RNR retry. Destroy cancels it; a state change
 * waits for the processor (proc_lock) and needs no cancel: the work finds
 * the queue not READY and stops. A response from the wire is completed
 * by the receive softirq if the SQ has no processor at the moment
 * (udma_sq_answered(): a trylock, the completer only), else by the SQ's
 * work; one the softirq left to the device's receive work runs its SQ
 * the doorbell's way (udma_sq_run()).
 *
 * The receive work of each device (uboe_carrier.c) runs on udma_rx_wq:
 * per CPU and high priority, so the packets a softirq took are processed
 * on that CPU right after it, as a tasklet would be, and not on whichever
 * CPU an unbound worker wakes on: waking another CPU, idle, cost
 * milliseconds in a TCG guest on a busy host, on each hop of a round trip.
 *
 * A kernel client's queue runs in softirq first, as rxe's requester runs
 * from its tasklet: a post and a TP that has room again poke its tasklet
 * (udma_sq_poke()), which runs the requester and the completer as soon as
 * the poster enables bottom halves (udma_sq_process() with
 * UDMA_SQ_SOFTIRQ), and the receive softirq runs them when responses
 * answered WQEs (udma_sq_answered()): no worker's wake-up between a
 * netdev's xmit and its packet on the wire. What needs process context
 * (a destination on this host: the loopback runs the responder; memory
 * that GFP_ATOMIC cannot give), and what is left after the softirq's
 * budget, goes to the SQ's work, on udma_rx_wq for the reason above; a
 * user queue's work runs on udma_wq (its WQEs may copy gigabytes).
 */
#include <linux/bottom_half.h>
#include <linux/interrupt.h>
#include <linux/list.h>
#include <linux/seq_file.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>

#include <kunit/visibility.h>

#include "udma.h"

/* The user SQs' work: unbound, WQEs may take long (copies of 1 GiB). */
static struct workqueue_struct *udma_wq;
/* The devices' receive works: per CPU, high priority (see above). */
static struct workqueue_struct *udma_rx_wq;

/*
 * SQs waiting for an RNR retry, on any udma device of this host (a
 * receiver's JFR doorbell may help an initiator of another device). The
 * lock protects the list and the membership of each SQ (rnr_node); an SQ
 * on the list is alive (destroy takes it off first).
 */
static DEFINE_SPINLOCK(udma_rnr_lock);
static LIST_HEAD(udma_rnr_list);

/* Where @sq's work runs: a kernel client's queue has no user context. */
static struct workqueue_struct *udma_sq_wq(const struct udma_sq *sq)
{
	return udma_sq_uctx(sq) ? udma_wq : udma_rx_wq;
}

/**
 * udma_sq_kick() - have the SQ's work run
 * @sq: the queue
 * @delay: jiffies from now (a pending work keeps its own time)
 *
 * Nothing happens to a queue being destroyed. Any context.
 */
void udma_sq_kick(struct udma_sq *sq, unsigned long delay)
{
	spin_lock_bh(&sq->ring->lock);
	if (!sq->dying)
		queue_delayed_work(udma_sq_wq(sq), &sq->work, delay);
	spin_unlock_bh(&sq->ring->lock);
}
EXPORT_SYMBOL_IF_KUNIT(udma_sq_kick);

/**
 * udma_sq_poke() - have the SQ's requester run soon, in softirq if it can
 * @sq: the queue
 *
 * A kernel queue's tasklet runs when bottom halves are enabled on this
 * CPU again: at once if the caller has them enabled, else when it enables
 * them (the end of a netdev's xmit, of a softirq). A user queue's work
 * runs instead. Nothing happens to a queue being destroyed. Any context
 * but hard interrupt, interrupts enabled.
 */
void udma_sq_poke(struct udma_sq *sq)
{
	if (udma_sq_uctx(sq)) {
		udma_sq_kick(sq, 0);
		return;
	}
	/* (softirqs raised with BH off run at the enable, not in ksoftirqd) */
	local_bh_disable();
	spin_lock(&sq->ring->lock);
	if (!sq->dying)
		tasklet_schedule(&sq->tasklet);
	spin_unlock(&sq->ring->lock);
	local_bh_enable();
}
EXPORT_SYMBOL_IF_KUNIT(udma_sq_poke);

/*
 * Run a kernel queue's requester and completer in softirq, its proc_lock
 * held: what needs process context is left to the work.
 */
static bool udma_sq_process_softirq(struct udma_sq *sq)
{
	bool more;

	sq->atomic = true;
	more = udma_sq_process(sq, UDMA_SQ_SOFTIRQ);
	sq->atomic = false;
	return more;
}

/**
 * udma_sq_tasklet() - a kernel queue's tasklet: one softirq batch
 * @t: udma_sq.tasklet
 */
void udma_sq_tasklet(struct tasklet_struct *t)
{
	struct udma_sq *sq = from_tasklet(sq, t, tasklet);
	bool more;

	if (!udma_sq_trylock(sq)) {
		/* The holder may have read pi already: the work looks again. */
		udma_sq_kick(sq, 0);
		return;
	}
	more = udma_sq_process_softirq(sq);
	udma_sq_unlock(sq);
	if (more)
		udma_sq_kick(sq, 0);
}

/**
 * udma_sq_rnr_add() - an SQ starts waiting for an RNR retry
 * @sq: the queue
 */
void udma_sq_rnr_add(struct udma_sq *sq)
{
	spin_lock_bh(&udma_rnr_lock);
	if (list_empty(&sq->rnr_node))
		list_add_tail(&sq->rnr_node, &udma_rnr_list);
	spin_unlock_bh(&udma_rnr_lock);
}
EXPORT_SYMBOL_IF_KUNIT(udma_sq_rnr_add);

/**
 * udma_sq_rnr_del() - an SQ no longer waits for an RNR retry
 * @sq: the queue (on the list or not)
 */
void udma_sq_rnr_del(struct udma_sq *sq)
{
	spin_lock_bh(&udma_rnr_lock);
	list_del_init(&sq->rnr_node);
	spin_unlock_bh(&udma_rnr_lock);
}
EXPORT_SYMBOL_IF_KUNIT(udma_sq_rnr_del);

/**
 * udma_sq_work() - the SQ's work: one batch, requeued while WQEs are left
 * @work: udma_sq.work
 */
void udma_sq_work(struct work_struct *work)
{
	struct udma_sq *sq = container_of(to_delayed_work(work), struct udma_sq,
					  work);
	bool more;

	udma_sq_lock(sq);
	more = udma_sq_process(sq, UDMA_SQ_WORK);
	udma_sq_unlock(sq);
	if (more)
		udma_sq_kick(sq, 0);
}

/**
 * udma_sq_run() - run an SQ here, within the doorbell's budget
 * @sq: the queue, alive for the call
 *
 * If another context processes the SQ, or WQEs are left after the budget,
 * the SQ's work does the rest. Process context; sleeps.
 */
void udma_sq_run(struct udma_sq *sq)
{
	bool more;

	if (!udma_sq_trylock(sq)) {
		/* The holder may have read pi already: the work looks again. */
		udma_sq_kick(sq, 0);
		return;
	}
	more = udma_sq_process(sq, UDMA_SQ_DOORBELL);
	udma_sq_unlock(sq);
	if (more)
		udma_sq_kick(sq, 0);
}

/**
 * udma_sq_answered() - complete what responses answered, from softirq
 * @sq: the queue, alive for the call, its responses queued
 *	(udma_sq.rsp_list)
 *
 * The receive softirq writes the CQEs itself, as rdma_rxe's completer
 * runs from its receive path: no wake-up of a worker between a response
 * and its CQE; a kernel queue's requester goes on here too, sending what
 * the window's new room allows. Where the SQ has a processor at the
 * moment, or the requester has more to send, the SQ's work does the rest.
 * Softirq; does not sleep.
 */
void udma_sq_answered(struct udma_sq *sq)
{
	bool more;

	if (!udma_sq_trylock(sq)) {
		/* The holder may have drained already: the work looks again. */
		udma_sq_kick(sq, 0);
		return;
	}
	more = udma_sq_uctx(sq) ? udma_sq_complete(sq) :
				  udma_sq_process_softirq(sq);
	udma_sq_unlock(sq);
	if (more)
		udma_sq_kick(sq, 0);
}
EXPORT_SYMBOL_IF_KUNIT(udma_sq_answered);

/**
 * udma_rx_kick() - have a device's receive work run on this CPU
 * @work: udma_uboe_rx.work
 *
 * Any context.
 */
void udma_rx_kick(struct work_struct *work)
{
	queue_work(udma_rx_wq, work);
}

/**
 * udma_jfs_doorbell() - ubcore_ops.jfs_doorbell
 * @jfs: the JFS whose SQ has new WQEs
 *
 * Process context. Malformed WQEs complete with error CQEs; nothing about
 * them is an error of this call.
 *
 * Return: 0.
 */
int udma_jfs_doorbell(struct ubcore_jfs *jfs)
{
	udma_sq_run(&to_udma_jfs(jfs)->sq);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(udma_jfs_doorbell);

/**
 * udma_jetty_doorbell() - ubcore_ops.jetty_doorbell
 * @jetty: the jetty whose SQ has new WQEs
 *
 * Process context.
 *
 * Return: 0.
 */
int udma_jetty_doorbell(struct ubcore_jetty *jetty)
{
	udma_sq_run(&to_udma_jetty(jetty)->sq);
	return 0;
}

/**
 * udma_jfr_doorbell() - ubcore_ops.jfr_doorbell
 * @jfr: the JFR that has new RQEs
 *
 * The target side takes RQEs from the ring when a message arrives, so the
 * RQEs need nothing here; but an initiator on this host may be waiting
 * for an RNR retry of a message to this JFR: every SQ waiting for one is
 * retried now (an early retry does not use up one of its retries). A
 * retry that finds the RQ still empty asks for the next doorbell again
 * (udma_ring_ctrl.db_wanted, cleared here first).
 *
 * Any context.
 *
 * Return: 0.
 */
int udma_jfr_doorbell(struct ubcore_jfr *jfr)
{
	struct udma_sq *sq;

	WRITE_ONCE(to_udma_jfr(jfr)->rq->ctrl->db_wanted, 0);
	spin_lock_bh(&udma_rnr_lock);
	list_for_each_entry(sq, &udma_rnr_list, rnr_node) {
		WRITE_ONCE(sq->rnr_woken, true);
		mod_delayed_work(udma_sq_wq(sq), &sq->work, 0);
	}
	spin_unlock_bh(&udma_rnr_lock);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(udma_jfr_doorbell);

/**
 * udma_engine_init() - set up the engine at module load
 *
 * Return: 0 or -ENOMEM.
 */
int udma_engine_init(void)
{
	udma_wq = alloc_workqueue("udma_engine", WQ_UNBOUND, 0);
	if (!udma_wq)
		return -ENOMEM;
	udma_rx_wq = alloc_workqueue("udma_rx", WQ_HIGHPRI, 0);
	if (!udma_rx_wq) {
		destroy_workqueue(udma_wq);
		return -ENOMEM;
	}
	return 0;
}

/**
 * udma_engine_exit() - tear the engine down at module unload
 *
 * Every device, hence every SQ, is gone by then.
 */
void udma_engine_exit(void)
{
	WARN_ON(!list_empty(&udma_rnr_list));
	destroy_workqueue(udma_rx_wq);
	destroy_workqueue(udma_wq);
}

/* One queue: where its window stands, what it waits for. */
static void udma_sq_show_one(struct seq_file *m, struct udma_sq *sq)
{
	static const char wqe_state[] = { 'T', 'S', 'D' };
	u32 psn, pi;

	seq_printf(m, "%s queue %u", sq->udev->ub_dev.dev_name, udma_sq_id(sq));
	/* a processor that never lets go of it is the answer */
	if (!udma_sq_trylock(sq)) {
		seq_puts(m, ": busy (its processor holds it)\n");
		return;
	}
	spin_lock_bh(&sq->ring->lock);
	pi = udma_sq_pi(sq);
	spin_unlock_bh(&sq->ring->lock);
	seq_printf(m, " state %u: pi %u head %u next %u tail %u window ",
		   sq->state, pi, sq->head, sq->next, sq->tail);
	for (psn = sq->head; psn != sq->tail; psn++) {
		u8 st = udma_sq_wqe(sq, psn)->state;

		seq_putc(m, st < ARRAY_SIZE(wqe_state) ? wqe_state[st] : '?');
	}
	seq_printf(m, " responses queued %u dropped %u rnr %d tp_wait %d work %d\n",
		   READ_ONCE(sq->rsp_len), sq->resp_dropped, sq->rnr_wait,
		   !!sq->uboe_tx.tx.rtp, delayed_work_pending(&sq->work));
	udma_sq_unlock(sq);
}

/**
 * udma_sq_show() - the state of a device's send queues, one line each
 * @m: the file (/sys/kernel/debug/udma/sqs: udma/debugfs.c); the window
 *	shows each WQE taken from the head: T taken, S sent, D done
 * @udev: the device, not released meanwhile
 *
 * Sleeps (the device's queue list).
 */
void udma_sq_show(struct seq_file *m, struct udma_dev *udev)
{
	struct udma_sq *sq;

	mutex_lock(&udev->sqs_lock);
	list_for_each_entry(sq, &udev->sqs, dev_node)
		udma_sq_show_one(m, sq);
	mutex_unlock(&udev->sqs_lock);
}
