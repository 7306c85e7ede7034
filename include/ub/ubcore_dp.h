/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * The data path of kernel clients (ipourma, roub, ums): work requests
 * posted to the JFSs, JFRs and jetties a kernel caller created (udata
 * NULL), and the completion records polled from its JFCs. Names and
 * shapes follow UMDK's kernel ubcore API (ubcore_api.h, ubcore_types.h);
 * opcodes and completion statuses are those of the user path
 * (include/uapi/ub/ubcore_opcode.h).
 *
 * The provider turns each work request into the same queue entry a user
 * process writes into its mapped ring and hands it to the same engine:
 * a kernel WQE and a user WQE take the same initiator and target code.
 *
 * Memory: a local SGE names bytes of a segment the kernel caller
 * registered on the same device (ubcore_register_seg() with udata NULL,
 * over a kernel VA range: @addr is a kernel address); a remote SGE names
 * bytes of a segment the kernel caller imported on the same device
 * (ubcore_import_seg(), @addr is the remote UB VA); the target JFR or
 * jetty of a SEND or WRITE_IMM is one the kernel caller imported
 * (ubcore_import_jfr() / ubcore_import_jetty()). Objects of a user
 * context cannot be used here (-EINVAL).
 *
 * Context (the rules of every function below): posting and polling may be
 * called in process and softirq context (a netdev's xmit or NAPI poll) and
 * with spinlocks held, never in hard interrupt context nor with interrupts
 * disabled; they never sleep. The provider processes posted work in its
 * own context, not the caller's (udma: the queue's tasklet, in softirq,
 * and a work item for what needs process context); the tasklet may run
 * before a post returns, when the caller has bottom halves enabled, as any
 * softirq may, and the queue's completion handler with it: the handler
 * takes only locks that are safe against softirqs. One caller at a time
 * per queue is not required: posts to one queue are serialised by the
 * queue's lock, polls of one JFC by the JFC's. The caller keeps the
 * objects alive during the call; a work request's SGE arrays and memory
 * need to live only until the post returns (the entry is copied), the
 * memory they name until the work request's completion.
 */
#ifndef _UB_UBCORE_DP_H
#define _UB_UBCORE_DP_H

#include <linux/types.h>

#include <ub/ubcore_jetty.h>
#include <ub/ubcore_segment.h>
#include <uapi/ub/ubcore_opcode.h>

/**
 * struct ubcore_sge - a range of a segment
 * @addr: first byte: a kernel address in a registered segment (local), or
 *	a UB VA in an imported segment (remote)
 * @len: bytes
 * @tseg: the segment
 */
struct ubcore_sge {
	u64 addr;
	u32 len;
	struct ubcore_target_seg *tseg;
};

/**
 * struct ubcore_sg - a list of ranges
 * @sge: the ranges
 * @num_sge: entries of @sge
 */
struct ubcore_sg {
	struct ubcore_sge *sge;
	u32 num_sge;
};

/**
 * struct ubcore_rw_wr - WRITE, WRITE_IMM, WRITE_NOTIFY, WRITE_ATOMIC,
 *	READ and FLUSH_DMA
 * @src: WRITE*: the local ranges (or the inline bytes); READ: one remote
 *	range; FLUSH_DMA: none
 * @dst: WRITE, WRITE_IMM, FLUSH_DMA: one remote range; WRITE_NOTIFY,
 *	WRITE_ATOMIC: two, the data range and the 8-byte notify word (the
 *	word WRITE_ATOMIC adds to); READ: the local ranges
 * @target_hint: jetty group hint (unused: no jetty groups)
 * @notify_data: WRITE_IMM: the immediate data; WRITE_NOTIFY: the value
 *	written to the notify word; WRITE_ATOMIC: the value added to it
 */
struct ubcore_rw_wr {
	struct ubcore_sg src;
	struct ubcore_sg dst;
	u8 target_hint;
	u64 notify_data;
};

/**
 * struct ubcore_send_wr - SEND, SEND_IMM, SEND_INVALIDATE
 * @src: the local ranges (or the inline bytes)
 * @target_hint: jetty group hint (unused)
 * @imm_data: SEND_IMM: the immediate data
 * @tseg: SEND_INVALIDATE: the imported segment of the target to invalidate
 */
struct ubcore_send_wr {
	struct ubcore_sg src;
	u8 target_hint;
	u64 imm_data;
	struct ubcore_target_seg *tseg;
};

/**
 * struct ubcore_cas_wr - CAS and SWAP
 * @dst: the remote 8-byte word
 * @src: the local 8 bytes that receive the word's old value
 * @cmp_data: CAS: the compare value
 * @swap_data: the value stored (CAS: when the word equals @cmp_data)
 */
struct ubcore_cas_wr {
	struct ubcore_sge *dst;
	struct ubcore_sge *src;
	u64 cmp_data;
	u64 swap_data;
};

/**
 * struct ubcore_faa_wr - FADD, FSUB, FAND, FOR, FXOR
 * @dst: the remote 8-byte word
 * @src: the local 8 bytes that receive the word's old value
 * @operand: the second operand
 */
struct ubcore_faa_wr {
	struct ubcore_sge *dst;
	struct ubcore_sge *src;
	u64 operand;
};

/**
 * union ubcore_jfs_wr_flag - how a work request is carried out, as
 *	urma_jfs_wr_flag_t
 * @bs: the bits
 * @bs.place_order: placement order (0: none, 1: relaxed, 2: strong)
 * @bs.comp_order: complete in order with the previous work request
 * @bs.fence: start after the previous READs and atomics completed
 * @bs.solicited_enable: the receiver gets a solicited completion
 * @bs.complete_enable: write a completion record on success (a failure
 *	always writes one)
 * @bs.inline_flag: carry the bytes of the local ranges in the entry
 *	itself (at most the queue's max_inline_data)
 * @bs.reserved: zero
 * @value: all bits
 */
union ubcore_jfs_wr_flag {
	struct {
		u32 place_order : 2;
		u32 comp_order : 1;
		u32 fence : 1;
		u32 solicited_enable : 1;
		u32 complete_enable : 1;
		u32 inline_flag : 1;
		u32 reserved : 25;
	} bs;
	u32 value;
};

/**
 * struct ubcore_jfs_wr - a send-side work request
 * @opcode: what to do
 * @flag: how
 * @user_ctx: returned in the completion record
 * @tjetty: the imported JFR or jetty the operation goes to; NULL on a
 *	bound RC jetty (its peer); for WRITE, READ and atomics outside a
 *	bound RC jetty NULL means the EID of the remote segment
 * @rw: WRITE, WRITE_IMM, WRITE_NOTIFY, WRITE_ATOMIC, READ, FLUSH_DMA
 * @send: SEND, SEND_IMM, SEND_INVALIDATE
 * @cas: CAS, SWAP
 * @faa: FADD, FSUB, FAND, FOR, FXOR
 * @next: the next work request of the list, or NULL
 */
struct ubcore_jfs_wr {
	enum ubcore_opcode opcode;
	union ubcore_jfs_wr_flag flag;
	u64 user_ctx;
	struct ubcore_tjetty *tjetty;
	union {
		struct ubcore_rw_wr rw;
		struct ubcore_send_wr send;
		struct ubcore_cas_wr cas;
		struct ubcore_faa_wr faa;
	};
	struct ubcore_jfs_wr *next;
};

/**
 * struct ubcore_jfr_wr - a receive buffer for one incoming message
 * @src: the local ranges the message is written to
 * @user_ctx: returned in the receive completion record
 * @next: the next work request of the list, or NULL
 */
struct ubcore_jfr_wr {
	struct ubcore_sg src;
	u64 user_ctx;
	struct ubcore_jfr_wr *next;
};

/* struct ubcore_cr.flag bits */
#define UBCORE_CR_FLAG_RECV		0x01	/* a receive completion */
#define UBCORE_CR_FLAG_IMM		0x02	/* @imm_data is valid */
#define UBCORE_CR_FLAG_SOLICITED	0x04	/* the sender asked for it */
#define UBCORE_CR_FLAG_INV		0x08	/* @invalid_token is valid */

/**
 * struct ubcore_cr - a completion record
 * @status: how the work request ended
 * @user_ctx: the work request's
 * @opcode: receive completions: what arrived
 * @flag: UBCORE_CR_FLAG_* bits
 * @completion_len: bytes moved
 * @local_id: the JFS, JFR or jetty ID the record belongs to
 * @remote_id: receive completions: the sender's EID, uasid and JFS or
 *	jetty ID, as its message says (nothing authenticates them)
 * @imm_data: with UBCORE_CR_FLAG_IMM: the immediate data
 * @invalid_token: with UBCORE_CR_FLAG_INV: the segment a SEND_INVALIDATE
 *	ended remote access to
 * @invalid_token.token_id: its token ID
 * @invalid_token.token_value: its token value
 * @tpn: transport number (0 on the local path)
 */
struct ubcore_cr {
	enum ubcore_cr_status status;
	u64 user_ctx;
	enum ubcore_cr_opcode opcode;
	u32 flag;
	u32 completion_len;
	u32 local_id;
	struct ubcore_jetty_id remote_id;
	union {
		u64 imm_data;
		struct {
			u32 token_id;
			u32 token_value;
		} invalid_token;
	};
	u32 tpn;
};

int ubcore_post_jfs_wr(struct ubcore_jfs *jfs, struct ubcore_jfs_wr *wr,
		       struct ubcore_jfs_wr **bad_wr);
int ubcore_post_jfr_wr(struct ubcore_jfr *jfr, struct ubcore_jfr_wr *wr,
		       struct ubcore_jfr_wr **bad_wr);
int ubcore_post_jetty_send_wr(struct ubcore_jetty *jetty,
			      struct ubcore_jfs_wr *wr,
			      struct ubcore_jfs_wr **bad_wr);
int ubcore_post_jetty_recv_wr(struct ubcore_jetty *jetty,
			      struct ubcore_jfr_wr *wr,
			      struct ubcore_jfr_wr **bad_wr);
int ubcore_poll_jfc(struct ubcore_jfc *jfc, int cr_cnt, struct ubcore_cr *cr);

#endif /* _UB_UBCORE_DP_H */
