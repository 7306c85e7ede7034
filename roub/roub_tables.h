/* SPDX-License-Identifier: GPL-2.0-only WITH Linux-syscall-note */
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * The verbs <-> URMA tables that roub.ko (map.c, kernel verbs) and libroub
 * (libroub/post.c, user verbs) both apply, written once. Each side
 * includes this file once, after defining the macros that give the
 * constants of its world for a name their constants share: ubcore's
 * UBCORE_CR_<x> is liburma's URMA_CR_<x> (one set of values,
 * include/uapi/ub/ubcore_opcode.h), the kernel's IB_WC_<y> is
 * libibverbs' IBV_WC_<y> (the uverbs ABI), and so on:
 *   ROUB_WR(x)    a verbs send opcode (IB_WR_x, IBV_WR_x)
 *   ROUB_UOP(x)   a URMA opcode (UBCORE_OPC_x, URMA_OPC_x)
 *   ROUB_WCOP(x)  a verbs WC opcode (IB_WC_x, IBV_WC_x)
 *   ROUB_CRST(x)  a URMA completion status (UBCORE_CR_x, URMA_CR_x)
 *   ROUB_WCST(x)  a verbs WC status (IB_WC_x, IBV_WC_x)
 *   ROUB_CROP(x)  a URMA receive opcode (UBCORE_CR_OPC_x, URMA_CR_OPC_x)
 *   ROUB_ACC(x)   a verbs MR access flag (IB_ACCESS_x, IBV_ACCESS_x)
 *   ROUB_SEGACC(x) a URMA segment access (UBCORE_ACCESS_x, URMA_ACCESS_x)
 */
#ifndef _ROUB_TABLES_H
#define _ROUB_TABLES_H

/* The four send opcodes of the guide's post_send (7.1, item 3). */
static const struct {
	int wr;
	int uop;
	int wc;
} roub_opcodes[] = {
	{ ROUB_WR(RDMA_WRITE), ROUB_UOP(WRITE), ROUB_WCOP(RDMA_WRITE) },
	{ ROUB_WR(RDMA_WRITE_WITH_IMM), ROUB_UOP(WRITE_IMM), ROUB_WCOP(RDMA_WRITE) },
	{ ROUB_WR(SEND), ROUB_UOP(SEND), ROUB_WCOP(SEND) },
	{ ROUB_WR(RDMA_READ), ROUB_UOP(READ), ROUB_WCOP(RDMA_READ) },
};

/*
 * Completion statuses. The two markers a queue writes for itself
 * (WR_SUSPEND_DONE, WR_FLUSH_ERR_DONE: no work request) have no WC; a
 * status not listed is GENERAL_ERR.
 */
static const struct {
	int cr;
	int wc;
} roub_statuses[] = {
	{ ROUB_CRST(SUCCESS), ROUB_WCST(SUCCESS) },
	{ ROUB_CRST(UNSUPPORTED_OPCODE_ERR), ROUB_WCST(LOC_QP_OP_ERR) },
	{ ROUB_CRST(LOC_LEN_ERR), ROUB_WCST(LOC_LEN_ERR) },
	{ ROUB_CRST(LOC_OPERATION_ERR), ROUB_WCST(LOC_QP_OP_ERR) },
	{ ROUB_CRST(LOC_ACCESS_ERR), ROUB_WCST(LOC_PROT_ERR) },
	{ ROUB_CRST(REM_RESP_LEN_ERR), ROUB_WCST(REM_INV_REQ_ERR) },
	{ ROUB_CRST(REM_UNSUPPORTED_REQ_ERR), ROUB_WCST(REM_INV_REQ_ERR) },
	{ ROUB_CRST(REM_OPERATION_ERR), ROUB_WCST(REM_OP_ERR) },
	{ ROUB_CRST(REM_ACCESS_ABORT_ERR), ROUB_WCST(REM_ACCESS_ERR) },
	{ ROUB_CRST(ACK_TIMEOUT_ERR), ROUB_WCST(RETRY_EXC_ERR) },
	{ ROUB_CRST(RNR_RETRY_CNT_EXC_ERR), ROUB_WCST(RNR_RETRY_EXC_ERR) },
	{ ROUB_CRST(WR_FLUSH_ERR), ROUB_WCST(WR_FLUSH_ERR) },
	{ ROUB_CRST(WR_UNHANDLED), ROUB_WCST(WR_FLUSH_ERR) },
	{ ROUB_CRST(LOC_DATA_POISON), ROUB_WCST(LOC_PROT_ERR) },
	{ ROUB_CRST(REM_DATA_POISON), ROUB_WCST(REM_OP_ERR) },
};

/*
 * Receive completions: what arrived, the WC's opcode and whether it
 * carries immediate data. Anything else (SEND_WITH_INV) a RoUB peer never
 * sends.
 */
static const struct {
	int cr;
	int wc;
	int imm;
} roub_recv_opcodes[] = {
	{ ROUB_CROP(SEND), ROUB_WCOP(RECV), 0 },
	{ ROUB_CROP(SEND_WITH_IMM), ROUB_WCOP(RECV), 1 },
	{ ROUB_CROP(WRITE_WITH_IMM), ROUB_WCOP(RECV_RDMA_WITH_IMM), 1 },
};

/*
 * The segment access of an MR's verbs access flags: UB's WRITE needs
 * READ; LOCAL_ONLY when the MR gives no remote right.
 */
static inline unsigned int roub_access_of(int access)
{
	unsigned int a = 0;

	if (access & ROUB_ACC(REMOTE_READ))
		a |= ROUB_SEGACC(READ);
	if (access & ROUB_ACC(REMOTE_WRITE))
		a |= ROUB_SEGACC(WRITE) | ROUB_SEGACC(READ);
	return a ? a : ROUB_SEGACC(LOCAL_ONLY);
}

#endif /* _ROUB_TABLES_H */
