// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * The verbs <-> URMA tables, each in one place: work request opcodes, send
 * flags, completion statuses and receive opcodes, the guide's size limits,
 * and what each QP state allows and makes of the jetty and its JFR. Pure
 * functions: roub_kunit.ko links this file too (no exports: both modules
 * may be loaded) and checks every entry.
 */
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/minmax.h>
#include <linux/string.h>

#include "roub.h"

/* The shared tables (roub_tables.h) in the kernel's constants. */
#define ROUB_WR(x)	IB_WR_##x
#define ROUB_UOP(x)	UBCORE_OPC_##x
#define ROUB_WCOP(x)	IB_WC_##x
#define ROUB_CRST(x)	UBCORE_CR_##x
#define ROUB_WCST(x)	IB_WC_##x
#define ROUB_CROP(x)	UBCORE_CR_OPC_##x
#define ROUB_ACC(x)	IB_ACCESS_##x
#define ROUB_SEGACC(x)	UBCORE_ACCESS_##x
#include "roub_tables.h"

/**
 * roub_seg_access() - the UB segment access of verbs MR access flags
 * @access: the MR's IB_ACCESS_* flags
 *
 * Return: UBCORE_ACCESS_* bits (WRITE brings READ, as
 * ubcore_check_seg_access() wants); LOCAL_ONLY without a remote right.
 */
u32 roub_seg_access(int access)
{
	return roub_access_of(access);
}

/**
 * roub_wr_opcode() - the URMA opcode of a verbs send opcode
 * @op: the work request's opcode
 * @uop: the URMA opcode
 * @wc_op: the opcode of its send completion
 *
 * Return: 0, or -EOPNOTSUPP for the opcodes RoUB does not carry.
 */
int roub_wr_opcode(enum ib_wr_opcode op, enum ubcore_opcode *uop,
		   enum ib_wc_opcode *wc_op)
{
	u32 i;

	for (i = 0; i < ARRAY_SIZE(roub_opcodes); i++) {
		if (roub_opcodes[i].wr == op) {
			*uop = roub_opcodes[i].uop;
			*wc_op = roub_opcodes[i].wc;
			return 0;
		}
	}
	return -EOPNOTSUPP;
}

/**
 * roub_wr_flags() - the URMA flag word of verbs send flags
 * @send_flags: IB_SEND_* bits
 * @sig_all: the QP signals every request (IB_SIGNAL_ALL_WR)
 *
 * Return: union ubcore_jfs_wr_flag's value. IB_SEND_IP_CSUM and the
 * other bits have no URMA meaning and are ignored.
 */
u32 roub_wr_flags(int send_flags, bool sig_all)
{
	union ubcore_jfs_wr_flag f = { .value = 0 };

	f.bs.complete_enable = sig_all || (send_flags & IB_SEND_SIGNALED);
	f.bs.fence = !!(send_flags & IB_SEND_FENCE);
	f.bs.solicited_enable = !!(send_flags & IB_SEND_SOLICITED);
	f.bs.inline_flag = !!(send_flags & IB_SEND_INLINE);
	return f.value;
}

/**
 * roub_wc_status() - the WC status of a completion record's status
 * @st: the record's
 * @out: the WC's
 *
 * Return: false for a record that is no work request's (a queue's
 * marker, or a status this table does not know: IB_WC_GENERAL_ERR then).
 */
bool roub_wc_status(enum ubcore_cr_status st, enum ib_wc_status *out)
{
	u32 i;

	for (i = 0; i < ARRAY_SIZE(roub_statuses); i++) {
		if (roub_statuses[i].cr == st) {
			*out = roub_statuses[i].wc;
			return true;
		}
	}
	*out = IB_WC_GENERAL_ERR;
	return st != UBCORE_CR_WR_SUSPEND_DONE &&
	       st != UBCORE_CR_WR_FLUSH_ERR_DONE;
}

/**
 * roub_recv_wc_opcode() - the WC opcode of a receive completion
 * @op: the record's opcode (what arrived)
 * @out: IB_WC_RECV or IB_WC_RECV_RDMA_WITH_IMM
 * @imm: whether the verbs WC carries immediate data
 *
 * Return: 0, or -EPROTO for what a RoUB peer never sends (SEND_WITH_INV).
 */
int roub_recv_wc_opcode(enum ubcore_cr_opcode op, enum ib_wc_opcode *out,
			bool *imm)
{
	u32 i;

	for (i = 0; i < ARRAY_SIZE(roub_recv_opcodes); i++) {
		if (roub_recv_opcodes[i].cr == op) {
			*out = roub_recv_opcodes[i].wc;
			*imm = roub_recv_opcodes[i].imm;
			return 0;
		}
	}
	return -EPROTO;
}

/**
 * roub_wr_len_check() - the guide's size limits (7.1, items 1 and 2)
 * @op: the opcode
 * @len: the sum of the request's SGE lengths
 *
 * Return: 0, or -EINVAL: a SEND over 64 KiB, a WRITE or READ over 2 GiB.
 */
int roub_wr_len_check(enum ib_wr_opcode op, u64 len)
{
	if (op == IB_WR_SEND)
		return len > ROUB_MAX_SEND_BYTES ? -EINVAL : 0;
	return len > ROUB_MAX_RDMA_BYTES ? -EINVAL : 0;
}

/*
 * Per QP state: whether send and receive requests may be posted, and the
 * states of the jetty and its JFR. ubcore creates both READY; a QP in
 * RESET, INIT or RTR keeps them READY (receives in INIT and RTR land in
 * the JFR; roub refuses sends before RTS). ERR puts both in ERROR (the
 * jetty flushes), and the way back to RESET is ubcore's ERROR -> RESET ->
 * READY. SQD and SQE have no URMA counterpart: modify_qp refuses them.
 */
static const struct {
	bool send, recv;
	enum ubcore_jetty_state jetty;
	enum ubcore_jfr_state jfr;
	bool valid;
} roub_qp_states[] = {
	[IB_QPS_RESET] = { false, false, UBCORE_JETTY_STATE_READY,
			   UBCORE_JFR_STATE_READY, true },
	[IB_QPS_INIT] = { false, true, UBCORE_JETTY_STATE_READY,
			  UBCORE_JFR_STATE_READY, true },
	[IB_QPS_RTR] = { false, true, UBCORE_JETTY_STATE_READY,
			 UBCORE_JFR_STATE_READY, true },
	[IB_QPS_RTS] = { true, true, UBCORE_JETTY_STATE_READY,
			 UBCORE_JFR_STATE_READY, true },
	[IB_QPS_ERR] = { true, true, UBCORE_JETTY_STATE_ERROR,
			 UBCORE_JFR_STATE_ERROR, true },
};

/**
 * roub_qp_can_post() - whether a QP state takes posts
 * @state: the QP's
 * @send: the send queue (else the receive queue)
 *
 * In ERR a post is taken and completes at once with IB_WC_WR_FLUSH_ERR.
 *
 * Return: true if the post is taken.
 */
bool roub_qp_can_post(enum ib_qp_state state, bool send)
{
	if ((u32)state >= ARRAY_SIZE(roub_qp_states) ||
	    !roub_qp_states[state].valid)
		return false;
	return send ? roub_qp_states[state].send : roub_qp_states[state].recv;
}

/**
 * roub_qp_ub_states() - the jetty's and the JFR's state for a QP state
 * @state: the QP's
 * @jetty: the jetty's
 * @jfr: the JFR's
 *
 * Return: 0, or -EOPNOTSUPP (SQD, SQE).
 */
int roub_qp_ub_states(enum ib_qp_state state, enum ubcore_jetty_state *jetty,
		      enum ubcore_jfr_state *jfr)
{
	if ((u32)state >= ARRAY_SIZE(roub_qp_states) ||
	    !roub_qp_states[state].valid)
		return -EOPNOTSUPP;
	*jetty = roub_qp_states[state].jetty;
	*jfr = roub_qp_states[state].jfr;
	return 0;
}

/**
 * roub_fill_device_attr() - verbs capabilities from a UB device's
 * @cap: the UB device's
 * @attr: filled (zeroed first)
 *
 * The guide's rules: QPs at most half the jetties (each QP is a jetty and
 * a JFR, and the JFRs share the jetty ID space), send SGEs at most 8,
 * receive SGEs 1. A message is at most the device's and the guide's 2 GiB.
 */
void roub_fill_device_attr(const struct ubcore_device_cap *cap,
			   struct ib_device_attr *attr)
{
	memset(attr, 0, sizeof(*attr));
	attr->max_mr_size = U64_MAX;
	attr->page_size_cap = PAGE_SIZE;
	attr->max_qp = min_t(u32, min(cap->max_jetty / 2, cap->max_jfr), INT_MAX);
	attr->max_qp_wr = min_t(u32, min(cap->max_jfs_depth, cap->max_jfr_depth),
				INT_MAX);
	attr->max_send_sge = min_t(u32, cap->max_jfs_sge, ROUB_MAX_SEND_SGE);
	attr->max_recv_sge = min_t(u32, cap->max_jfr_sge, ROUB_MAX_RECV_SGE);
	attr->max_sge_rd = attr->max_send_sge;
	attr->max_cq = min_t(u32, cap->max_jfc, INT_MAX);
	attr->max_cqe = min_t(u32, cap->max_jfc_depth, INT_MAX);
	/* token ID 0 is never allocated */
	attr->max_mr = cap->max_token_id ? min_t(u32, cap->max_token_id - 1,
						 INT_MAX) : 0;
	/* a PD is roub's alone: no UB object */
	attr->max_pd = INT_MAX;
	attr->max_qp_rd_atom = ROUB_MAX_RD_ATOM;
	attr->max_qp_init_rd_atom = ROUB_MAX_RD_ATOM;
	attr->max_res_rd_atom = attr->max_qp * ROUB_MAX_RD_ATOM;
	attr->atomic_cap = IB_ATOMIC_NONE;
	attr->masked_atomic_cap = IB_ATOMIC_NONE;
	attr->max_pkeys = 1;
	attr->max_srq = 0;
}

/**
 * roub_rc_mode_parse() - ROUB_RC_MODE's value as the guide reads it
 * @val: the text: its first two characters, case-insensitive, "RS" or
 *	"RM" (7.1, item 5)
 * @mode: the mode
 *
 * Return: 0, or -EINVAL.
 */
int roub_rc_mode_parse(const char *val, enum roub_rc_mode *mode)
{
	if (!val || strlen(val) < 2)
		return -EINVAL;
	if (!strncasecmp(val, "RS", 2)) {
		*mode = ROUB_RC_MODE_RS;
		return 0;
	}
	if (!strncasecmp(val, "RM", 2)) {
		*mode = ROUB_RC_MODE_RM;
		return 0;
	}
	return -EINVAL;
}
