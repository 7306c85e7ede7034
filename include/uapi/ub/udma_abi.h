/* SPDX-License-Identifier: GPL-2.0-only WITH Linux-syscall-note */
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * The provider ABI of udma: what liburma and udma.ko exchange in the udata
 * of uburma's create commands, and the layout of the queue rings that
 * userspace maps with mmap(2) on the device's char device.
 *
 * A ring is one mapping: a control page (struct udma_ring_ctrl) followed by
 * entry_cnt entries of entry_size bytes; entry_cnt is a power of two.
 * Indexes are free-running 32-bit counters; entry i is at (i & (cnt - 1)).
 *  - SQ (JFS, jetty) and RQ (JFR): userspace writes entries and then
 *    advances pi (release); the kernel consumes them and advances ci.
 *  - CQ (JFC): the kernel writes CQEs and advances pi; userspace advances
 *    ci after reading them. A CQE is valid when its owner bit equals the
 *    ring's wrap parity ((index / cnt) & 1) ^ 1; the kernel writes the
 *    owner byte last (after a write barrier), so userspace polls a CQ
 *    without entering the kernel. The kernel never writes a CQE over one
 *    userspace has not consumed (pi - ci == cnt: the CQ is full, JFC_ERR).
 *
 * Work is posted by writing SQEs (RQEs) at pi, advancing pi with a release
 * store, and ringing the doorbell (UBURMA_CMD_RING_DOORBELL), one syscall
 * for any number of entries. The kernel copies each entry out of the ring
 * before it looks at it and never reads it again; a malformed entry
 * completes with an error CQE.
 */
#ifndef _UAPI_UB_UDMA_ABI_H
#define _UAPI_UB_UDMA_ABI_H

#include <linux/types.h>

/* Entry sizes, fixed by the device. */
#define UDMA_SQE_SIZE		256
#define UDMA_RQE_SIZE		256
#define UDMA_CQE_SIZE		64

/*
 * The first page of every ring.
 *
 * @db_wanted, RQ (JFR) only: the kernel sets it when a message found the RQ
 * empty (the sender waits for an RQE: RNR), and the JFR's doorbell clears
 * it. Posting RQEs needs a doorbell only while it is set: userspace stores
 * pi, issues a full barrier, then reads @db_wanted; the kernel stores
 * @db_wanted, issues a full barrier, then reads pi again, so that one of
 * the two always sees the other. Ringing the doorbell anyway is correct,
 * only slower (a syscall per post). Zero in every other ring.
 */
struct udma_ring_ctrl {
	__u32 pi;		/* producer index */
	__u32 reserved0[15];	/* pi and ci on their own cache lines */
	__u32 ci;		/* consumer index */
	__u32 db_wanted;
	__u32 reserved1[14];
};

/*
 * Where a ring is: mmap(NULL, mmap_len, PROT_READ | PROT_WRITE, MAP_SHARED,
 * dev_fd, mmap_offset). The mapping is valid until the object is deleted
 * (and then unmapped by userspace); the offset is good for this file only.
 */
struct udma_ring_info {
	__aligned_u64 mmap_offset;
	__aligned_u64 mmap_len;
	__u32 entry_size;
	__u32 entry_cnt;
};

/*
 * An address range. Local SGEs (in SQEs and RQEs) name memory of a segment
 * registered in the same context: token_id is that segment's token ID and
 * [va, va + len) must lie inside it.
 */
struct udma_sge {
	__aligned_u64 va;
	__u32 len;
	__u32 token_id;
};

/* struct udma_sqe.flags, as urma_jfs_wr_flag_t's meaning */
#define UDMA_SQE_F_COMPLETE	0x01	/* complete_enable: write a CQE */
#define UDMA_SQE_F_SOLICITED	0x02	/* solicited_enable at the target */
#define UDMA_SQE_F_FENCE	0x04	/* wait for earlier READs / atomics */
#define UDMA_SQE_F_INLINE	0x08	/* payload in inline_data, not sge[] */

#define UDMA_SQE_HDR_SIZE	64
#define UDMA_SQE_MAX_SGE	12
#define UDMA_SQE_MAX_INLINE	192

/**
 * struct udma_sqe - a send queue entry (JFS, jetty)
 * @opcode: urma_opcode_t (WRITE, WRITE_IMM, WRITE_NOTIFY, READ, CAS, SWAP,
 *	FADD, FSUB, FAND, FOR, FXOR, SEND, SEND_IMM, SEND_INVALIDATE, NOP,
 *	WRITE_ATOMIC, FLUSH_DMA)
 * @flags: UDMA_SQE_F_*
 * @num_sge: local SGEs in @sge (0 with UDMA_SQE_F_INLINE)
 * @inline_len: bytes in @inline_data with UDMA_SQE_F_INLINE
 * @user_ctx: returned in the CQE
 * @target_idx: the imported JFR or jetty (struct udma_import_resp) the
 *	operation goes to; 0 on an RC jetty: its bound peer
 * @rseg_idx: the imported segment holding the remote range (WRITE*, READ,
 *	atomics, FLUSH_DMA); for SEND_INVALIDATE the imported segment to invalidate, a
 *	segment of the target JFR's or jetty's owner
 * @remote_va: start of the remote range
 * @remote_len: bytes of the remote range: 8 for atomics; for WRITE* and
 *	READ the local total must fit in it; FLUSH_DMA flushes all of it
 * @notify_rseg_idx: WRITE_NOTIFY, WRITE_ATOMIC: the imported segment
 *	holding the notify word (may be @rseg_idx or another import of the
 *	same target)
 * @notify_va: WRITE_NOTIFY, WRITE_ATOMIC: address of the notify word, 8
 *	bytes at an 8-byte aligned address; after all data of the WRITE the
 *	target writes @data there with one 8-byte store (WRITE_NOTIFY) or
 *	adds @data to it with one 8-byte atomic (WRITE_ATOMIC)
 * @data: immediate data (WRITE_IMM, SEND_IMM), notify data (WRITE_NOTIFY),
 *	the addend (WRITE_ATOMIC),
 *	the operand (FADD .. FXOR) or the swap value (CAS, SWAP)
 * @cmp_data: the compare value of CAS
 * @sge: local SGEs: the source of WRITE* and SEND*, the destination of
 *	READ, and for atomics one 8-byte SGE that receives the old remote value
 * @inline_data: the payload, instead of @sge
 *
 * Fields an opcode does not use are ignored.
 */
struct udma_sqe {
	__u8 opcode;
	__u8 flags;
	__u8 num_sge;
	__u8 reserved0;
	__u16 inline_len;
	__u16 reserved1;
	__aligned_u64 user_ctx;
	__u32 target_idx;
	__u32 rseg_idx;
	__aligned_u64 remote_va;
	__u32 remote_len;
	__u32 notify_rseg_idx;
	__aligned_u64 data;
	__aligned_u64 cmp_data;
	__aligned_u64 notify_va;
	union {
		struct udma_sge sge[UDMA_SQE_MAX_SGE];
		__u8 inline_data[UDMA_SQE_MAX_INLINE];
	};
};

#define UDMA_RQE_MAX_SGE	15

/* A receive queue entry (JFR): where one incoming SEND lands. */
struct udma_rqe {
	__aligned_u64 user_ctx;
	__u8 num_sge;
	__u8 reserved[7];
	struct udma_sge sge[UDMA_RQE_MAX_SGE];
};

/* struct udma_cqe.flags */
#define UDMA_CQE_F_IMM		0x01	/* imm_data is valid */
#define UDMA_CQE_F_RECV		0x02	/* a receive completion (JFR side) */
#define UDMA_CQE_F_SOLICITED	0x04	/* the sender asked for an event */
#define UDMA_CQE_F_INV		0x08	/* imm_data names the invalidated segment */

/**
 * struct udma_cqe - a completion queue entry, as urma_cr_t
 * @status: urma_cr_status_t
 * @opcode: urma_cr_opcode_t of a receive completion
 * @flags: UDMA_CQE_F_*
 * @owner: see the ring rules above; written last
 * @completion_len: bytes transferred
 * @user_ctx: the WQE's (send side) or RQE's (receive side)
 * @imm_data: immediate data of a receive completion (UDMA_CQE_F_IMM); with
 *	UDMA_CQE_F_INV (opcode SEND_WITH_INV) the token ID (bits 0-31) and the
 *	token value (bits 32-63) of the segment the SEND invalidated
 * @local_id: the JFS, JFR or jetty ID the completion belongs to
 * @remote_id: receive side: the sender's JFS or jetty ID
 * @remote_eid: receive side: the sender's EID
 * @remote_uasid: receive side: the sender's uasid
 * @tpn: transport number (0 on the local path)
 *
 * @remote_id, @remote_eid and @remote_uasid are what the sender's packet
 * says; nothing authenticates them. A receiver must not trust them to name
 * the sender (a local sender's uasid is the one its process owns, but a
 * remote host chooses all three freely); the token of the JFR or segment
 * is the only access control.
 */
struct udma_cqe {
	__u8 status;
	__u8 opcode;
	__u8 flags;
	__u8 owner;
	__u32 completion_len;
	__aligned_u64 user_ctx;
	__aligned_u64 imm_data;
	__u32 local_id;
	__u32 remote_id;
	__u8 remote_eid[16];
	__u32 remote_uasid;
	__u32 tpn;
	__aligned_u64 reserved;
};

/* udata out of UBURMA_CMD_CREATE_JFC */
struct udma_create_jfc_resp {
	struct udma_ring_info cq;
};

/* udata out of UBURMA_CMD_CREATE_JFS and UBURMA_CMD_CREATE_JETTY */
struct udma_create_jfs_resp {
	struct udma_ring_info sq;
};

/* udata out of UBURMA_CMD_CREATE_JFR */
struct udma_create_jfr_resp {
	struct udma_ring_info rq;
};

/*
 * udata out of UBURMA_CMD_IMPORT_SEG, _IMPORT_JFR and _IMPORT_JETTY: the
 * index SQEs use to name the imported object (rseg_idx, target_idx);
 * never 0, valid in this context until the unimport.
 */
struct udma_import_resp {
	__u32 target_idx;
	__u32 reserved;
};

#endif /* _UAPI_UB_UDMA_ABI_H */
