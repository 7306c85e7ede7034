/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * udma: private declarations of the software UB device provider. A udma
 * device is one struct ubcore_device bound to one netdev (UBoE).
 */
#ifndef _UDMA_UDMA_H
#define _UDMA_UDMA_H

#include <linux/atomic.h>
#include <linux/build_bug.h>
#include <linux/gfp.h>
#include <linux/interrupt.h>
#include <linux/kref.h>
#include <linux/list.h>
#include <linux/netdevice.h>
#include <linux/sizes.h>
#include <linux/spinlock.h>
#include <linux/stddef.h>
#include <linux/mutex.h>
#include <linux/types.h>
#include <linux/workqueue.h>
#include <linux/xarray.h>

#include <ub/ubcore_bond.h>
#include <ub/ubcore_device.h>
#include <uapi/ub/ubcore_opcode.h>
#include <uapi/ub/udma_abi.h>

#include "msg.h"
#include "uboe_carrier.h"
#include "uboe_net.h"
#include "uboe_rtp.h"

/* Name format of devices created without an administrator's name. */
#define UDMA_DEV_NAME_FMT	"udma%d"
/* Provider name in ubcore_ops and link type in ubcore_link_ops. */
#define UDMA_DRIVER_NAME	"udma"

/*
 * Capabilities reported to ubcore (struct ubcore_device_cap). The engine is
 * software: the limits bound the kernel memory one device may pin for its
 * queues, not what some silicon holds.
 */
#define UDMA_MAX_JFC		1024
#define UDMA_MAX_JFS		1024
#define UDMA_MAX_JFR		1024
#define UDMA_MAX_JETTY		1024
/* Jetty groups are ubcore's objects; their members are jetties. */
#define UDMA_MAX_JETTY_GRP	1024
#define UDMA_MAX_JETTY_IN_GRP	UBCORE_MAX_JETTY_IN_JETTY_GRP
/* A JFC may collect the completions of a jetty's send and receive queues. */
#define UDMA_MAX_JFC_DEPTH	8192
#define UDMA_MAX_JFS_DEPTH	4096
#define UDMA_MAX_JFR_DEPTH	4096
/* A 256-byte SQE: a 64-byte header and 12 SGEs of 16 bytes (udma_abi.h). */
#define UDMA_MAX_JFS_SGE	12
/* UB writes and reads address one remote segment range. */
#define UDMA_MAX_JFS_RSGE	1
#define UDMA_MAX_JFR_SGE	13
/* Inline data in place of the SGEs of a 256-byte WQE. */
#define UDMA_MAX_JFS_INLINE	192
#define UDMA_MAX_MSG_SIZE	SZ_1G
#define UDMA_MAX_WRITE_SIZE	SZ_1G
#define UDMA_MAX_READ_SIZE	SZ_1G
#define UDMA_MAX_TOKEN_ID	65536
/* Every atomic URMA can post (STORE and LOAD have no URMA opcode). */
#define UDMA_ATOMIC_FEATURE	(UBCORE_ATOMIC_CAS | UBCORE_ATOMIC_SWAP | \
				 UBCORE_ATOMIC_FAA | UBCORE_ATOMIC_FSUB | \
				 UBCORE_ATOMIC_FOR | UBCORE_ATOMIC_FXOR | \
				 UBCORE_ATOMIC_FAND)
#define UDMA_TRANS_MODE		(UBCORE_TM_RM | UBCORE_TM_RC | UBCORE_TM_UM)
#define UDMA_CC_ALG		UBCORE_CC_NONE
/* Jetty IDs 1 .. 1023 are for well-known jetties of kernel clients. */
#define UDMA_RESERVED_JETTY_ID_MAX	1023

/*
 * UBoE headers in front of the payload of every packet, for the active MTU:
 * IPv6 (the larger IP header), UDP, our transport header (TPN, PSN, ACK and
 * flags) and the UB transaction headers (BTAH and extension headers).
 */
#define UDMA_IPV6_HDR_LEN	40
#define UDMA_UDP_HDR_LEN	8
#define UDMA_TP_HDR_LEN		16
#define UDMA_TA_HDR_LEN		32
#define UDMA_UBOE_HDR_LEN	(UDMA_IPV6_HDR_LEN + UDMA_UDP_HDR_LEN + \
				 UDMA_TP_HDR_LEN + UDMA_TA_HDR_LEN)

/**
 * struct udma_dev - a udma device: one UB device on one netdev
 * @ub_dev: the UB device; first member, as ubcore_alloc_device() requires.
 *	Its refcount is the lifetime of the whole structure; ubcore frees it
 *	after udma_release().
 * @netdev: the bound netdev. Set at allocation and never changed; held
 *	(@netdev_tracker) from allocation until udma_release(), so that it
 *	stays valid for query_port and for the notifier's comparison even
 *	after ubcore dropped its own reference and cleared @ub_dev.netdev.
 * @netdev_tracker: tracks our reference to @netdev
 * @list: in udma_dev_list (device.c) from before registration until the
 *	start of removal, empty otherwise; udma_list_lock. Taking a device off
 *	the list is the claim to remove it: only the path that did so
 *	unregisters and frees it.
 * @netdev_gone: @netdev is being unregistered; the reaper work removes the
 *	device. Set by the netdev notifier; udma_list_lock.
 * @ring_bytes: kernel memory of the queue rings of the device's live JFCs,
 *	JFSs, JFRs and jetties (added at create, subtracted at destroy; a ring
 *	still mapped by a process after its object is gone is not counted)
 * @seg_bytes: bytes of the device's registered segments
 * @nr_token_ids: live token IDs
 * @nr_segs: live registered segments
 * @nr_imported: live imported segments, JFRs and jetties
 * @wire: UBoE: the device's EIDs for the receive path, its wire counters
 *	(uboe_net.c)
 *
 * The counters are atomics, for debugging and for the data path's limits;
 * udma_release() warns if any is not zero by then.
 */
struct udma_dev {
	struct ubcore_device ub_dev;
	struct net_device *netdev;
	netdevice_tracker netdev_tracker;
	struct list_head list;
	bool netdev_gone;

	atomic64_t ring_bytes;
	atomic64_t seg_bytes;
	atomic_t nr_token_ids;
	atomic_t nr_segs;
	atomic_t nr_imported;

	struct udma_wire wire;
	struct udma_uboe_rx uboe_rx;
	/* struct udma_rtp by local TPN (uboe_rtp.c); its xa_lock (BH) also
	 * guards @rtps_stopped, set when the device leaves UBoE
	 */
	struct xarray rtps;
	bool rtps_stopped;
	/* the device's JFS and jetty SQs (udma_sq.dev_node), for the failure
	 * of a TP (udma_uboe_tp_failed()) and the answers to a queue being
	 * destroyed (udma_sq_wait_answers()); taken before any SQ's proc_lock.
	 * @sqs_dying: queues of @sqs whose destroy waits for answers;
	 * written under it, READ_ONCE by the receive work
	 */
	struct mutex sqs_lock;
	struct list_head sqs;
	unsigned int sqs_dying;
	/* a bonding device's members and peers (bond.c); NULL for others */
	struct udma_bond *bond;
};

/**
 * struct udma_bond_peers - a bonding device's peers, as last set
 * @rcu: freed after the readers of the table it replaced
 * @cnt: entries of @peer
 * @peer: the peers
 */
struct udma_bond_peers {
	struct rcu_head rcu;
	u32 cnt;
	struct ubcore_bond_peer peer[];
};

/**
 * struct udma_bond - what makes a udma device a bonding device (bond.c)
 * @mode: enum ubagg_bond_mode; never changes
 * @cnt: members; never changes
 * @m: the members: the netdev each sends through (held until the
 *	device's release; the device is removed when one is unregistered),
 *	its device's name, and the packets sent through it
 * @peers: the peers; replaced under @peers_lock with rcu_replace_pointer(),
 *	read under rcu_read_lock() by the transmit path
 * @peers_lock: serialises the replacements of @peers
 */
struct udma_bond {
	u32 mode;
	u32 cnt;
	struct {
		struct net_device *ndev;
		netdevice_tracker tracker;
		char name[UBCORE_MAX_DEV_NAME];
		atomic64_t tx_packets;
	} m[UBCORE_BOND_MAX_MEMBERS];
	struct udma_bond_peers __rcu *peers;
	struct mutex peers_lock;	/* see above */
};

/* ubcore_alloc_device() allocates the whole udma_dev from its ubcore part. */
static_assert(offsetof(struct udma_dev, ub_dev) == 0);

static inline struct udma_dev *to_udma_dev(struct ubcore_device *ub_dev)
{
	return container_of(ub_dev, struct udma_dev, ub_dev);
}

/*
 * The memory of a queue (its ring, its SQ's window): charged to the
 * creator's memory cgroup; at its limit the creation fails with -ENOMEM
 * (__GFP_RETRY_MAYFAIL: no OOM kill for a ring, as the bpf ring buffer
 * does), without an allocator warning.
 */
#define UDMA_RING_GFP	(GFP_KERNEL_ACCOUNT | __GFP_RETRY_MAYFAIL | __GFP_NOWARN)

/**
 * struct udma_ring - a queue ring: a control page and a power-of-two array
 *	of fixed-size entries, in pages mapped contiguously (ring.c)
 * @ref: the ring's lifetime. One reference is held by the object that owns
 *	the ring (JFC, JFS, JFR or jetty) from create to destroy, one by the
 *	mmap table of the owner's user context while the ring is published
 *	there, and one by mmap() while it maps the ring. The last put frees
 *	the memory, or makes the ring an orphan of its context while a
 *	process still maps its pages (ring.c), so a process may destroy an
 *	object before it unmaps the ring and the kernel never touches freed
 *	memory.
 * @buf: the area: PAGE_SIZE bytes of control page, then the entries;
 *	zeroed, page-aligned; @size bytes
 * @pages: the @nr_pages pages of @buf, one reference each held by the ring
 * @nr_pages: @size / PAGE_SIZE
 * @owner: the user context the pages are charged to, or NULL (a kernel
 *	ring); set at create, for the ring's whole life
 * @orphan_node: in @owner's orphan list once the last reference is gone
 *	while a process still maps the ring; @owner->orphan_lock
 * @ctrl: the control page (== @buf), shared with userspace
 * @entries: the first entry (@buf + PAGE_SIZE)
 * @size: bytes of @buf, a multiple of PAGE_SIZE; the mmap length
 * @entry_size: bytes of one entry
 * @entry_cnt: entries; a power of two
 * @udev: the device, for its ring accounting; used by udma_ring_destroy()
 *	only (the device outlives its objects, not necessarily the ring)
 * @uctx: the user context whose mmap table holds the ring under
 *	@mmap_key, or NULL (a kernel ring, or unpublished). Only create and
 *	destroy of the owning object use it; the context outlives its objects.
 * @mmap_key: the ring's key in @uctx's mmap table (its mmap offset is
 *	@mmap_key << PAGE_SHIFT), 0 when not published
 * @lock: serialises the kernel side of the ring: @pi, @ci, the kernel's
 *	writes to @ctrl and to the entries it produces. A spinlock: the data
 *	path works in softirq and process context (spin_lock_bh()). Never
 *	held across udma_ring_put().
 * @pi: the kernel's producer index (CQ: next CQE to write; for a kernel
 *	ring also SQ and RQ)
 * @ci: the kernel's consumer index (SQ, RQ: next WQE to take; CQ of a
 *	kernel ring)
 *
 * Who writes what in a ring mapped by a user context (indexes are
 * free-running u32, entry i at i & (entry_cnt - 1)):
 *  - SQ and RQ: userspace writes the entries and then ctrl->pi (release).
 *    The kernel reads ctrl->pi once (acquire) and trusts it only as far as
 *    pi - @ci <= entry_cnt (more is a queue error); it copies each entry out of the ring before
 *    validating it and never reads the copy's source again; it publishes
 *    its progress in ctrl->ci from @ci, and never reads ctrl->ci back.
 *  - CQ: the kernel writes CQEs and then ctrl->pi from @pi (release);
 *    userspace writes ctrl->ci after reading CQEs. The kernel reads
 *    ctrl->ci only to bound free space: a value outside
 *    [@pi - entry_cnt, @pi] is a CQ overflow error, never an index used.
 * A kernel ring (no user context) has the same layout; kernel clients
 * produce and consume through the data path under @lock.
 *
 * The data path owns @pi, @ci and the entry formats; ring.c only sets the
 * ring up (everything zero) and tears it down.
 */
struct udma_ring {
	struct kref ref;
	void *buf;
	struct page **pages;
	u32 nr_pages;
	struct udma_ucontext *owner;
	struct list_head orphan_node;
	struct udma_ring_ctrl *ctrl;
	void *entries;
	size_t size;
	u32 entry_size;
	u32 entry_cnt;
	struct udma_dev *udev;
	struct udma_ucontext *uctx;
	u32 mmap_key;

	spinlock_t lock;	/* see above */
	u32 pi;
	u32 ci;
};

/* Entry @idx (free-running) of @ring. */
static inline void *udma_ring_entry(const struct udma_ring *ring, u32 idx)
{
	return ring->entries + (size_t)(idx & (ring->entry_cnt - 1)) *
	       ring->entry_size;
}

/**
 * struct udma_ucontext - udma's part of a user context
 * @base: the common part; ubcore fills it after alloc_ucontext
 * @mmap_xa: mmap table: key (the mmap offset in pages) -> struct udma_ring,
 *	holding a reference on each ring (XA_FLAGS_ALLOC1). Rings are
 *	published by the create of their object and removed by its destroy;
 *	mmap() looks them up. The xarray's own lock; a lookup takes its
 *	reference on the ring under that lock, so it cannot race with the
 *	removal's put.
 * @import_xa: import table: index (struct udma_import_resp.target_idx,
 *	the SQE's target_idx and rseg_idx) -> struct udma_import of an
 *	imported segment, JFR or jetty of this context (XA_FLAGS_ALLOC1, so
 *	0 is never an index). Entries are added by import and erased by
 *	unimport before the import is freed. The xarray's own lock, taken
 *	with BH off (the table of kernel imports is read in softirq, and
 *	both kinds share the code); the data path copies an entry out under it
 *	(udma_import_lookup()), so an erased entry has no reader left.
 * @import_next: the next index to try: indexes are allocated cyclically,
 *	so a stale index in an SQE names no import (LOC_ACCESS_ERR) rather
 *	than the next import of the process; under the xarray's lock
 * @ring_pages: pages of the context's rings, live and orphaned (at most
 *	ubcore_device.ctx_ring_pages; ring.c)
 * @orphan_lock: protects @orphans (a mutex: process context only)
 * @orphans: rings of deleted objects that the process still maps
 */
struct udma_ucontext {
	struct ubcore_ucontext base;
	struct xarray mmap_xa;
	struct xarray import_xa;
	u32 import_next;
	atomic_t ring_pages;
	struct mutex orphan_lock;	/* see above */
	struct list_head orphans;
};

static inline struct udma_ucontext *
to_udma_ucontext(struct ubcore_ucontext *uctx)
{
	return container_of(uctx, struct udma_ucontext, base);
}

/**
 * struct udma_jfc - a JFC
 * @base: the common part
 * @cq: the CQ ring (UDMA_CQE_SIZE entries)
 * @moderate_count: completions per event (0: every one); WRITE_ONCE by
 *	modify_jfc, READ_ONCE by the data path (not applied yet)
 * @moderate_period: microseconds an event may be delayed; as above
 * @armed: the next CQE (with @solicited_only: the next solicited one)
 *	calls cfg.jfce_handler once; set by rearm_jfc, cleared by the CQE
 *	that fires. Under @cq->lock.
 * @solicited_only: see @armed; under @cq->lock
 * @overflow: a CQE did not fit and JFC_ERR was raised; cleared by the next
 *	CQE that fits, so one overflow raises one event. Under @cq->lock.
 *
 * @cq->lock is taken with interrupts disabled (udma_cq_post() may be
 * called in any context) and has a lock class of its own, so that the
 * lock of a queue ring may be held around a post to a CQ.
 */
struct udma_jfc {
	struct ubcore_jfc base;
	struct udma_ring *cq;
	u16 moderate_count;
	u16 moderate_period;
	bool armed;
	bool solicited_only;
	bool overflow;
};

/*
 * The opcode of an SQE and the status of a CQE: the values of
 * include/uapi/ub/ubcore_opcode.h (the one definition, shared with the
 * kernel posting API), under the names of UMDK's urma_opcode.h that the
 * engine uses.
 */
enum udma_urma_opcode {
	URMA_OPC_WRITE			= UBCORE_OPC_WRITE,
	URMA_OPC_WRITE_IMM		= UBCORE_OPC_WRITE_IMM,
	URMA_OPC_WRITE_NOTIFY		= UBCORE_OPC_WRITE_NOTIFY,
	URMA_OPC_READ			= UBCORE_OPC_READ,
	URMA_OPC_CAS			= UBCORE_OPC_CAS,
	URMA_OPC_SWAP			= UBCORE_OPC_SWAP,
	URMA_OPC_FADD			= UBCORE_OPC_FADD,
	URMA_OPC_FSUB			= UBCORE_OPC_FSUB,
	URMA_OPC_FAND			= UBCORE_OPC_FAND,
	URMA_OPC_FOR			= UBCORE_OPC_FOR,
	URMA_OPC_FXOR			= UBCORE_OPC_FXOR,
	URMA_OPC_SEND			= UBCORE_OPC_SEND,
	URMA_OPC_SEND_IMM		= UBCORE_OPC_SEND_IMM,
	URMA_OPC_SEND_INVALIDATE	= UBCORE_OPC_SEND_INVALIDATE,
	URMA_OPC_NOP			= UBCORE_OPC_NOP,
	URMA_OPC_WRITE_ATOMIC		= UBCORE_OPC_WRITE_ATOMIC,
	URMA_OPC_FLUSH_DMA		= UBCORE_OPC_FLUSH_DMA,
};

enum udma_urma_cr_status {
	URMA_CR_SUCCESS			= UBCORE_CR_SUCCESS,
	URMA_CR_UNSUPPORTED_OPCODE_ERR	= UBCORE_CR_UNSUPPORTED_OPCODE_ERR,
	URMA_CR_LOC_LEN_ERR		= UBCORE_CR_LOC_LEN_ERR,
	URMA_CR_LOC_OPERATION_ERR	= UBCORE_CR_LOC_OPERATION_ERR,
	URMA_CR_LOC_ACCESS_ERR		= UBCORE_CR_LOC_ACCESS_ERR,
	URMA_CR_REM_RESP_LEN_ERR	= UBCORE_CR_REM_RESP_LEN_ERR,
	URMA_CR_REM_UNSUPPORTED_REQ_ERR	= UBCORE_CR_REM_UNSUPPORTED_REQ_ERR,
	URMA_CR_REM_OPERATION_ERR	= UBCORE_CR_REM_OPERATION_ERR,
	URMA_CR_REM_ACCESS_ABORT_ERR	= UBCORE_CR_REM_ACCESS_ABORT_ERR,
	URMA_CR_ACK_TIMEOUT_ERR		= UBCORE_CR_ACK_TIMEOUT_ERR,
	URMA_CR_RNR_RETRY_CNT_EXC_ERR	= UBCORE_CR_RNR_RETRY_CNT_EXC_ERR,
	URMA_CR_WR_FLUSH_ERR		= UBCORE_CR_WR_FLUSH_ERR,
	URMA_CR_WR_SUSPEND_DONE		= UBCORE_CR_WR_SUSPEND_DONE,
	URMA_CR_WR_FLUSH_ERR_DONE	= UBCORE_CR_WR_FLUSH_ERR_DONE,
	URMA_CR_WR_UNHANDLED		= UBCORE_CR_WR_UNHANDLED,
	URMA_CR_LOC_DATA_POISON		= UBCORE_CR_LOC_DATA_POISON,
	URMA_CR_REM_DATA_POISON		= UBCORE_CR_REM_DATA_POISON,
};

/**
 * struct udma_sq_limits - what an SQE of one queue may ask for
 * @trans_mode: the queue's UBCORE_TP_* mode
 * @max_sge: cfg.max_sge (at most UDMA_SQE_MAX_SGE)
 * @max_inline: cfg.max_inline_data (at most UDMA_SQE_MAX_INLINE)
 * @max_msg_size: cap.max_msg_size (SEND)
 * @max_write_size: cap.max_write_size (WRITE, WRITE_IMM)
 * @max_read_size: cap.max_read_size (READ)
 * @atomic_feature: cap.atomic_feature
 * @jetty: the queue is a jetty's (an RC jetty sends to its bound peer; an
 *	RC JFS, which cannot be bound, names its target in each SQE)
 * @bound: the queue is a jetty bound to a peer
 * @bonding: the queue is a bonding device's (UBAGG_IMM_DATA_USABLE_MASK)
 */
struct udma_sq_limits {
	u32 trans_mode;
	u32 max_sge;
	u32 max_inline;
	u64 max_msg_size;
	u64 max_write_size;
	u64 max_read_size;
	u32 atomic_feature;
	bool jetty;
	bool bound;
	bool bonding;
};

/* What the engine knows of an imported target, copied out of the table. */
enum udma_import_type {
	UDMA_IMPORT_SEG = 1,
	UDMA_IMPORT_JFR,
	UDMA_IMPORT_JETTY,
};

/**
 * struct udma_import - an imported segment, JFR or jetty as the data path
 *	uses it; written at import, read-only afterwards
 * @type: enum udma_import_type
 * @idx: the index in the import table of @uctx, or in the kernel's table
 *	for a kernel import (ucontext.c); 0: not in a table
 * @uctx: the importing user context, or NULL for a kernel import
 * @eid: the target's EID
 * @uasid: the target's uasid
 * @id: JFR, jetty: the jetty ID
 * @token_id: segment: its token ID
 * @token_value: the token to present
 * @va: segment: first byte
 * @len: segment: bytes
 */
struct udma_import {
	u32 type;
	u32 idx;
	struct udma_ucontext *uctx;
	union ubcore_eid eid;
	u32 uasid;
	u32 id;
	u32 token_id;
	u32 token_value;
	u64 va;
	u64 len;
};

/*
 * Requests one SQ may have in flight at most: its window holds as many
 * WQEs as its ring, a power of two, up to this.
 */
#define UDMA_SQ_WINDOW_MAX	64

/*
 * How long the destroy of an SQ waits for the answers to its requests on
 * the wire (udma_sq_wait_answers()): a live peer answers within a round
 * trip; one that does not answer in this time holds up no destroy longer.
 */
#define UDMA_SQ_ANSWER_WAIT_MS	500

/* Where a WQE of the window is (struct udma_wqe.state). */
enum udma_wqe_state {
	UDMA_WQE_TAKEN,		/* copied off the ring, not sent */
	UDMA_WQE_SENT,		/* its request is out, no response yet */
	UDMA_WQE_DONE,		/* answered or failed here: its CQE is due */
};

/* struct udma_wqe.status of a WQE the target answered RNR. */
#define UDMA_WQE_RNR	0xff

/**
 * struct udma_wqe - a WQE of an SQ's window
 * @sqe: the copy taken off the ring (never read there again)
 * @buf: the local memory it names, resolved when it is sent; its segment
 *	references are held while @held
 * @held: @buf holds references
 * @state: enum udma_wqe_state
 * @status: DONE: the CQE's urma_cr_status_t, or UDMA_WQE_RNR
 * @rsp: SENT: the response that carries its data (UBOE_TA_READ_RESP,
 *	UBOE_TA_ATOMIC_RESP) or UBOE_TA_TAACK
 * @len: DONE: the CQE's completion_len
 * @rd_off: SENT READ: bytes of its data placed so far (its READ_RESP
 *	packets arrive in order, each at this offset)
 * @rtp: SENT over a TP of the UBoE carrier: the TP's transport, whose
 *	failure fails the WQE (udma_comp_tp_failed()); NULL: no TP (the
 *	loopback, UM)
 * @rtp_gen: @rtp's udma_rtp.gen when the WQE was sent (the TP it was
 *	sent on, not a later one of the same TPN)
 */
struct udma_wqe {
	struct udma_sqe sqe;
	struct udma_local_buf buf;
	bool held;
	u8 state;
	u8 status;
	u8 rsp;
	u32 len;
	u64 rd_off;
	struct udma_rtp *rtp;
	u32 rtp_gen;
};

/**
 * struct udma_sq - the engine's side of a send queue (JFS or jetty)
 * @ring: the SQ ring (UDMA_SQE_SIZE entries); owned by the queue
 * @udev: the device
 * @jfs: the JFS, or NULL for a jetty
 * @jetty: the jetty, or NULL for a JFS
 * @work: the requester's task: processes the SQ in the background
 *	(udma_sq_wq()): the rest of a doorbell beyond the inline budget, of
 *	a softirq batch beyond its budget or what it left for process
 *	context, RNR retries (delayed), a window that has room again
 * @tasklet: a kernel queue's requester in softirq (udma_sq_poke()): its
 *	posts, a TP that has room again, responses that leave WQEs to send
 * @proc_lock: held by the one context that runs the requester and the
 *	completer of the SQ (the doorbell caller inline, or @work), and by
 *	state changes, flush and bind, which so never run in the middle of
 *	a WQE; bit 0, taken and released by udma_sq_lock(), udma_sq_trylock()
 *	and udma_sq_unlock() only. Not a mutex: a process-context holder may
 *	sleep (copies, target lookups, a TP's window), but the receive
 *	softirq takes it too, with a try that never waits, to complete
 *	what a response answered (udma_sq_answered()). Taken before
 *	@ring->lock.
 * @proc_map: lockdep's view of @proc_lock, a sleeping lock whose only
 *	softirq use is a trylock
 * @atomic: the processor of the moment runs in softirq (@tasklet, or the
 *	receive softirq): it allocates with GFP_ATOMIC (udma_sq_gfp()) and
 *	leaves a WQE that needs process context to @work; @proc_lock
 * @state: the engine's state (enum ubcore_jetty_state), the one it acts
 *	on; @proc_lock. The common part's state follows it.
 * @dying: destroy has begun: nothing queues @work or @tasklet any more.
 *	Set under @ring->lock, read under it by udma_sq_kick() and
 *	udma_sq_poke(), READ_ONCE elsewhere.
 * @wnd: the window: the WQE of PSN p is @wnd[p & (@wnd_size - 1)];
 *	its WQEs are under @proc_lock, like everything below
 * @wnd_size: WQEs in @wnd, a power of two (udma_sq_init())
 * @head: PSN of the oldest WQE whose CQE is not written
 * @next: PSN of the next WQE to send; @head <= @next <= @tail
 * @tail: PSN after the last WQE taken; @tail - @head <= @wnd_size
 * @carrier: the carrier of the queue's requests; NULL: the one
 *	udma_carrier_xmit() picks for the destination (KUnit sets its own)
 * @resp_dropped: responses the completer dropped (no WQE waits for
 *	them, or they do not answer its request)
 * @rnr_wait: the WQE at @head answered RNR and waits for @rnr_until
 * @rnr_left: retries left for it
 * @rnr_tries: RNR retries of it so far (the delay doubles)
 * @rnr_until: jiffies when it is retried
 * @rnr_woken: a JFR doorbell asked for an early retry (does not count as
 *	one); WRITE_ONCE/READ_ONCE
 * @rnr_node: in udma_rnr_list while @rnr_wait; udma_rnr_lock
 * @peer: the bound peer of an RC jetty (from bind_jetty); @proc_lock
 * @bound: @peer is valid; @proc_lock
 * @rsp_list: responses the UBoE carrier received for the queue (struct
 *	udma_uboe_item), for @work to hand to the completer; @ring->lock
 *	(the receive work adds, the processor or destroy's wait for the
 *	answers takes them all, destroy purges them once the queue is off
 *	udma_dev.sqs with @dying set: nothing is added after that)
 * @rsp_len: entries of @rsp_list; written under @ring->lock, READ_ONCE
 *	elsewhere
 * @dev_node: in udma_dev.sqs from create to destroy (empty for a queue
 *	of no device's list: KUnit's); udma_dev.sqs_lock
 * @answer_ev: bumped (udma_sq_answer_came()) when an answer destroy
 *	waits for came; written under @ring->lock, READ_ONCE elsewhere
 * @uboe_tx: the request at @next - 1 when it stopped for its TP (the
 *	window full, or another's message going out) with what it holds of
 *	the TP: the processor stops until the TP wakes it, without holding
 *	@proc_lock meanwhile; @proc_lock
 */
struct udma_sq {
	struct udma_ring *ring;
	struct udma_dev *udev;
	struct ubcore_jfs *jfs;
	struct ubcore_jetty *jetty;
	struct delayed_work work;
	struct tasklet_struct tasklet;
	unsigned long proc_lock;	/* see above */
	struct lockdep_map proc_map;
	bool atomic;
	u32 state;
	bool dying;

	struct udma_wqe *wnd;
	u32 wnd_size;
	u32 head;
	u32 next;
	u32 tail;
	const struct udma_carrier *carrier;
	u32 resp_dropped;

	bool rnr_wait;
	u8 rnr_left;
	u8 rnr_tries;
	unsigned long rnr_until;
	bool rnr_woken;
	struct list_head rnr_node;

	struct udma_import peer;
	bool bound;

	struct list_head rsp_list;
	u32 rsp_len;
	struct list_head dev_node;
	u32 answer_ev;
	struct udma_uboe_sq_tx uboe_tx;
};

/*
 * What a queue's processor allocates with: in softirq, what fails is left
 * to the work (udma_sq.atomic), so it need not warn.
 */
static inline gfp_t udma_sq_gfp(const struct udma_sq *sq)
{
	return sq->atomic ? GFP_ATOMIC | __GFP_NOWARN : GFP_KERNEL;
}

/* The WQE of PSN @psn in @sq's window. */
static inline struct udma_wqe *udma_sq_wqe(const struct udma_sq *sq, u32 psn)
{
	return &sq->wnd[psn & (sq->wnd_size - 1)];
}

/* @sq holds WQEs taken off its ring and not completed. */
static inline bool udma_sq_busy(const struct udma_sq *sq)
{
	return sq->tail != sq->head;
}

/**
 * struct udma_jfs - a JFS
 * @base: the common part
 * @sq: the send queue and its ring
 */
struct udma_jfs {
	struct ubcore_jfs base;
	struct udma_sq sq;
};

/**
 * struct udma_jfr - a JFR
 * @base: the common part
 * @rq: the RQ ring (UDMA_RQE_SIZE entries)
 */
struct udma_jfr {
	struct ubcore_jfr base;
	struct udma_ring *rq;
};

/**
 * struct udma_jetty - a jetty: a send queue of its own, receiving on the
 *	shared JFR of its cfg (which holds the RQ)
 * @base: the common part
 * @sq: the send queue and its ring
 */
struct udma_jetty {
	struct ubcore_jetty base;
	struct udma_sq sq;
};

/*
 * Token IDs, segments and imported targets keep their device themselves:
 * they account to it, and must not depend on the order in which ubcore
 * fills the common part.
 */

/**
 * struct udma_token_id - a token ID
 * @base: the common part; ubcore assigns the number
 * @udev: the device
 * @rcu: freed after an RCU grace period (segment lookups read it)
 */
struct udma_token_id {
	struct ubcore_token_id base;
	struct udma_dev *udev;
	struct rcu_head rcu;
};

/**
 * struct udma_seg - a registered segment
 * @base: the common part; ubcore fills it (and its umem) after
 *	register_seg
 * @udev: the device
 * @len: the registered bytes, as accounted in udma_dev.seg_bytes
 * @rcu: freed after an RCU grace period (segment lookups walk it)
 */
struct udma_seg {
	struct ubcore_target_seg base;
	struct udma_dev *udev;
	u64 len;
	struct rcu_head rcu;
};

/**
 * struct udma_import_seg - an imported (remote) segment
 * @base: the common part
 * @udev: the local device
 * @imp: what the data path needs of it, in the import table
 */
struct udma_import_seg {
	struct ubcore_target_seg base;
	struct udma_dev *udev;
	struct udma_import imp;
};

/**
 * struct udma_tjetty - an imported JFR or jetty
 * @base: the common part
 * @udev: the local device
 * @imp: what the data path needs of it, in the import table
 */
struct udma_tjetty {
	struct ubcore_tjetty base;
	struct udma_dev *udev;
	struct udma_import imp;
};

static inline struct udma_jfc *to_udma_jfc(struct ubcore_jfc *jfc)
{
	return container_of(jfc, struct udma_jfc, base);
}

static inline struct udma_jfs *to_udma_jfs(struct ubcore_jfs *jfs)
{
	return container_of(jfs, struct udma_jfs, base);
}

static inline struct udma_jfr *to_udma_jfr(struct ubcore_jfr *jfr)
{
	return container_of(jfr, struct udma_jfr, base);
}

static inline struct udma_jetty *to_udma_jetty(struct ubcore_jetty *jetty)
{
	return container_of(jetty, struct udma_jetty, base);
}

static inline struct udma_token_id *
to_udma_token_id(struct ubcore_token_id *token_id)
{
	return container_of(token_id, struct udma_token_id, base);
}

static inline struct udma_seg *to_udma_seg(struct ubcore_target_seg *tseg)
{
	return container_of(tseg, struct udma_seg, base);
}

static inline struct udma_import_seg *
to_udma_import_seg(struct ubcore_target_seg *tseg)
{
	return container_of(tseg, struct udma_import_seg, base);
}

static inline struct udma_tjetty *to_udma_tjetty(struct ubcore_tjetty *tjetty)
{
	return container_of(tjetty, struct udma_tjetty, base);
}

/* device.c */
int udma_dev_add(struct net_device *ndev, const char *name_fmt);

/* bond.c */
struct udma_bond *udma_bond_alloc(const struct ubcore_bond_cfg *cfg);
void udma_bond_free(struct udma_bond *bond);
bool udma_bond_uses(const struct udma_bond *bond,
		    const struct net_device *ndev);
bool udma_bond_port_state(const struct udma_bond *bond);
int udma_bond_route(struct udma_dev *udev, u32 tpn,
		    const union ubcore_eid *dst, union ubcore_eid *addr,
		    int *oif);
int udma_set_bond_peers(struct ubcore_device *ub_dev,
			const struct ubcore_bond_peer *peers, u32 cnt);
int udma_query_bond(struct ubcore_device *ub_dev,
		    struct ubcore_bond_info *info);
bool udma_dev_mark_netdev_gone(struct net_device *ndev);
void udma_dev_reap(void);
void udma_dev_remove_all(void);
void udma_dev_wait_released(void);
struct seq_file;
void udma_dev_show_each(struct seq_file *m,
			void (*show)(struct seq_file *m, struct udma_dev *udev));
void udma_sq_show(struct seq_file *m, struct udma_dev *udev);
u32 udma_path_mtu_bytes(const struct udma_dev *udev);

/* netdev.c */
int udma_netdev_init(void);
void udma_netdev_exit(void);

/* ring.c */
struct udma_ring *udma_ring_create(struct udma_dev *udev,
				   struct ubcore_udata *udata, u32 entry_size,
				   u32 *depth, u32 max_depth,
				   struct udma_ring_info *info);
void udma_ring_destroy(struct udma_ring *ring);
void udma_ring_get(struct udma_ring *ring);
void udma_ring_put(struct udma_ring *ring);
void udma_ring_reap(struct udma_ucontext *uctx, bool all);
int udma_copy_resp(struct ubcore_udata *udata, const void *resp, size_t len);

/* ucontext.c */
struct ubcore_ucontext *udma_alloc_ucontext(struct ubcore_device *ub_dev,
					    u32 eid_index,
					    struct ubcore_udata *udata);
void udma_free_ucontext(struct ubcore_ucontext *uctx);
int udma_mmap(struct ubcore_ucontext *uctx, struct vm_area_struct *vma);
int udma_ucontext_publish(struct udma_ucontext *uctx, struct udma_ring *ring);
void udma_ucontext_unpublish(struct udma_ring *ring);
int udma_import_add(struct udma_import *imp, struct ubcore_udata *udata);
void udma_import_del(struct udma_import *imp);
bool udma_import_lookup(struct udma_ucontext *uctx, u32 idx, u32 type,
			struct udma_import *out);

/* jfc.c */
struct ubcore_jfc *udma_create_jfc(struct ubcore_device *ub_dev,
				   struct ubcore_jfc_cfg *cfg,
				   struct ubcore_udata *udata);
int udma_modify_jfc(struct ubcore_jfc *jfc, const struct ubcore_jfc_attr *attr,
		    struct ubcore_udata *udata);
void udma_destroy_jfc(struct ubcore_jfc *jfc);

/* cq.c (udma_cq_post() is declared in msg.h) */
void udma_cq_init(struct udma_jfc *jfc);
int udma_rearm_jfc(struct ubcore_jfc *jfc, bool solicited_only);

/* sqe.c */
u8 udma_sqe_check(const struct udma_sqe *sqe,
		  const struct udma_sq_limits *lim);

/* sq.c */
struct ubcore_jfs_cfg *udma_sq_cfg(const struct udma_sq *sq);
u32 udma_sq_id(const struct udma_sq *sq);
struct ubcore_ucontext *udma_sq_uctx(const struct udma_sq *sq);
u32 udma_sq_pi(const struct udma_sq *sq);
int udma_sq_post(struct udma_sq *sq, u8 status, u64 user_ctx, u32 len);
void udma_sq_fatal(struct udma_sq *sq);
int udma_sq_init(struct udma_sq *sq, struct udma_dev *udev,
		 struct udma_ring *ring);
void udma_sq_register(struct udma_sq *sq);
void udma_sq_destroy(struct udma_sq *sq);
void udma_sq_answer_came(struct udma_sq *sq);
void udma_sq_lock(struct udma_sq *sq);
bool udma_sq_trylock(struct udma_sq *sq);
void udma_sq_unlock(struct udma_sq *sq);
/* The caller holds @sq's proc_lock. */
#define udma_sq_assert_held(sq) lockdep_assert(lock_is_held(&(sq)->proc_map))
int udma_sq_set_state(struct udma_sq *sq, u32 state);
int udma_sq_flush(struct udma_sq *sq, u32 max_cnt, u32 *first, u32 *cnt);
int udma_bind_jetty(struct ubcore_jetty *jetty, struct ubcore_tjetty *tjetty);
int udma_unbind_jetty(struct ubcore_jetty *jetty);
int udma_flush_jfs(struct ubcore_jfs *jfs, u32 max_cnt, u32 *first, u32 *cnt);
int udma_flush_jetty(struct ubcore_jetty *jetty, u32 max_cnt, u32 *first,
		     u32 *cnt);

/* req.c */

/*
 * Who runs udma_sq_process(), which sets its budget: a doorbell's caller,
 * the SQ's work, or a kernel queue's softirq (udma_sq.atomic set).
 */
enum udma_sq_runner {
	UDMA_SQ_DOORBELL,
	UDMA_SQ_WORK,
	UDMA_SQ_SOFTIRQ,
};

bool udma_sq_process(struct udma_sq *sq, enum udma_sq_runner runner);
bool udma_sq_complete(struct udma_sq *sq);
void udma_wqe_release(struct udma_wqe *wqe);

/* comp.c */
bool udma_comp_run(struct udma_sq *sq);
void udma_comp_local(struct udma_sq *sq, u32 psn, u8 status);
void udma_comp_tp_failed(struct udma_sq *sq, const struct udma_rtp *rtp,
			 u32 gen);

/* engine.c */
int udma_engine_init(void);
void udma_engine_exit(void);
void udma_sq_kick(struct udma_sq *sq, unsigned long delay);
void udma_sq_poke(struct udma_sq *sq);
void udma_sq_tasklet(struct tasklet_struct *t);
void udma_sq_run(struct udma_sq *sq);
void udma_sq_answered(struct udma_sq *sq);
void udma_rx_kick(struct work_struct *work);
void udma_sq_rnr_add(struct udma_sq *sq);
void udma_sq_rnr_del(struct udma_sq *sq);
void udma_sq_work(struct work_struct *work);
int udma_jfs_doorbell(struct ubcore_jfs *jfs);
int udma_jetty_doorbell(struct ubcore_jetty *jetty);
int udma_jfr_doorbell(struct ubcore_jfr *jfr);

/* kpost.c: the data path of kernel clients (include/ub/ubcore_dp.h) */
int udma_post_jfs_wr(struct ubcore_jfs *jfs, struct ubcore_jfs_wr *wr,
		     struct ubcore_jfs_wr **bad_wr);
int udma_post_jetty_send_wr(struct ubcore_jetty *jetty,
			    struct ubcore_jfs_wr *wr,
			    struct ubcore_jfs_wr **bad_wr);
int udma_post_jfr_wr(struct ubcore_jfr *jfr, struct ubcore_jfr_wr *wr,
		     struct ubcore_jfr_wr **bad_wr);
int udma_post_jetty_recv_wr(struct ubcore_jetty *jetty,
			    struct ubcore_jfr_wr *wr,
			    struct ubcore_jfr_wr **bad_wr);
int udma_poll_jfc(struct ubcore_jfc *jfc, int cr_cnt, struct ubcore_cr *cr);

/* jetty.c */
struct ubcore_jfs *udma_create_jfs(struct ubcore_device *ub_dev,
				   struct ubcore_jfs_cfg *cfg,
				   struct ubcore_udata *udata);
int udma_modify_jfs(struct ubcore_jfs *jfs, const struct ubcore_jfs_attr *attr,
		    struct ubcore_udata *udata);
void udma_destroy_jfs(struct ubcore_jfs *jfs);
struct ubcore_jfr *udma_create_jfr(struct ubcore_device *ub_dev,
				   struct ubcore_jfr_cfg *cfg,
				   struct ubcore_udata *udata);
int udma_modify_jfr(struct ubcore_jfr *jfr, const struct ubcore_jfr_attr *attr,
		    struct ubcore_udata *udata);
void udma_destroy_jfr(struct ubcore_jfr *jfr);
struct ubcore_jetty *udma_create_jetty(struct ubcore_device *ub_dev,
				       struct ubcore_jetty_cfg *cfg,
				       struct ubcore_udata *udata);
int udma_modify_jetty(struct ubcore_jetty *jetty,
		      const struct ubcore_jetty_attr *attr,
		      struct ubcore_udata *udata);
void udma_destroy_jetty(struct ubcore_jetty *jetty);
struct ubcore_tjetty *udma_import_jfr(struct ubcore_device *ub_dev,
				      struct ubcore_tjetty_cfg *cfg,
				      struct ubcore_udata *udata);
struct ubcore_tjetty *udma_import_jetty(struct ubcore_device *ub_dev,
					struct ubcore_tjetty_cfg *cfg,
					struct ubcore_udata *udata);
void udma_unimport_jetty(struct ubcore_tjetty *tjetty);

/* segment.c */
struct ubcore_token_id *udma_alloc_token_id(struct ubcore_device *ub_dev,
					    u32 flag,
					    struct ubcore_udata *udata);
void udma_free_token_id(struct ubcore_token_id *token_id);
struct ubcore_target_seg *udma_register_seg(struct ubcore_device *ub_dev,
					    struct ubcore_seg_cfg *cfg,
					    struct ubcore_udata *udata);
void udma_unregister_seg(struct ubcore_target_seg *tseg);
struct ubcore_target_seg *udma_import_seg(struct ubcore_device *ub_dev,
					  struct ubcore_target_seg_cfg *cfg,
					  struct ubcore_udata *udata);
void udma_unimport_seg(struct ubcore_target_seg *tseg);

#endif /* _UDMA_UDMA_H */
