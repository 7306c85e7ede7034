/* SPDX-License-Identifier: GPL-2.0-only WITH Linux-syscall-note */
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * The verbs <-> URMA tables that roub.ko (map.c, for kernel verbs) and
 * libroub (the libibverbs provider, for user verbs) both apply, written
 * once. Each entry names the two sides by the suffix their constants share
 * in both worlds: ubcore's UBCORE_CR_<x> is liburma's URMA_CR_<x> (the
 * values are one, include/uapi/ub/ubcore_opcode.h), the kernel's
 * IB_WC_<y> is libibverbs' IBV_WC_<y> (the uverbs ABI), and so on; each
 * side expands the table with its own prefixes.
 */
#ifndef _ROUB_MAP_H
#define _ROUB_MAP_H

/* The guide's limits (7.1, "规格与约束"): SGEs and sizes. */
#define ROUB_MAX_SEND_SGE	8
#define ROUB_MAX_RECV_SGE	1
#define ROUB_MAX_SEND_BYTES	0x10000U
#define ROUB_MAX_RDMA_BYTES	0x80000000U

/*
 * Send opcodes, the guide's four (7.1, item 3):
 * X(verbs WR opcode, URMA opcode, verbs send WC opcode).
 */
#define ROUB_OPCODE_TABLE(X)				\
	X(RDMA_WRITE, WRITE, RDMA_WRITE)		\
	X(RDMA_WRITE_WITH_IMM, WRITE_IMM, RDMA_WRITE)	\
	X(SEND, SEND, SEND)				\
	X(RDMA_READ, READ, RDMA_READ)

/*
 * Completion statuses: X(URMA CR status, verbs WC status). The two
 * markers a queue writes for itself (WR_SUSPEND_DONE, WR_FLUSH_ERR_DONE:
 * no work request) have no WC; a status not listed is GENERAL_ERR.
 */
#define ROUB_STATUS_TABLE(X)				\
	X(SUCCESS, SUCCESS)				\
	X(UNSUPPORTED_OPCODE_ERR, LOC_QP_OP_ERR)	\
	X(LOC_LEN_ERR, LOC_LEN_ERR)			\
	X(LOC_OPERATION_ERR, LOC_QP_OP_ERR)		\
	X(LOC_ACCESS_ERR, LOC_PROT_ERR)			\
	X(REM_RESP_LEN_ERR, REM_INV_REQ_ERR)		\
	X(REM_UNSUPPORTED_REQ_ERR, REM_INV_REQ_ERR)	\
	X(REM_OPERATION_ERR, REM_OP_ERR)		\
	X(REM_ACCESS_ABORT_ERR, REM_ACCESS_ERR)		\
	X(ACK_TIMEOUT_ERR, RETRY_EXC_ERR)		\
	X(RNR_RETRY_CNT_EXC_ERR, RNR_RETRY_EXC_ERR)	\
	X(WR_FLUSH_ERR, WR_FLUSH_ERR)			\
	X(WR_UNHANDLED, WR_FLUSH_ERR)			\
	X(LOC_DATA_POISON, LOC_PROT_ERR)		\
	X(REM_DATA_POISON, REM_OP_ERR)

/*
 * Receive completions: X(URMA CR opcode, verbs WC opcode, with immediate
 * data). Anything else (SEND_WITH_INV) a RoUB peer never sends.
 */
#define ROUB_RECV_TABLE(X)				\
	X(SEND, RECV, 0)				\
	X(SEND_WITH_IMM, RECV, 1)			\
	X(WRITE_WITH_IMM, RECV_RDMA_WITH_IMM, 1)

#endif /* _ROUB_MAP_H */
