/* SPDX-License-Identifier: GPL-2.0-only WITH Linux-syscall-note */
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * The operation vocabulary of URMA, shared by every producer and consumer
 * of work: the opcode of a work request (struct udma_sqe.opcode, struct
 * ubcore_jfs_wr.opcode), the status of a completion (struct
 * udma_cqe.status, struct ubcore_cr.status) and the opcode of a receive
 * completion (struct udma_cqe.opcode, struct ubcore_cr.opcode). The values
 * are those of UMDK's urma_opcode_t, urma_cr_status_t and
 * urma_cr_opcode_t (liburma's urma_opcode.h, which checks itself against
 * this header at build time); the kernel's names are UMDK ubcore's.
 *
 * This header is the one definition of these values in the kernel: udma's
 * engine and the kernel posting API (include/ub/ubcore_dp.h) both use it.
 */
#ifndef _UAPI_UB_UBCORE_OPCODE_H
#define _UAPI_UB_UBCORE_OPCODE_H

/* Work request opcodes, as urma_opcode_t. */
enum ubcore_opcode {
	UBCORE_OPC_WRITE		= 0x00,
	UBCORE_OPC_WRITE_IMM		= 0x01,
	UBCORE_OPC_WRITE_NOTIFY		= 0x02,
	UBCORE_OPC_READ			= 0x10,
	UBCORE_OPC_CAS			= 0x20,
	UBCORE_OPC_SWAP			= 0x21,
	UBCORE_OPC_FADD			= 0x22,
	UBCORE_OPC_FSUB			= 0x23,
	UBCORE_OPC_FAND			= 0x24,
	UBCORE_OPC_FOR			= 0x25,
	UBCORE_OPC_FXOR			= 0x26,
	UBCORE_OPC_SEND			= 0x40,
	UBCORE_OPC_SEND_IMM		= 0x41,
	UBCORE_OPC_SEND_INVALIDATE	= 0x42,
	UBCORE_OPC_NOP			= 0x51,
	/*
	 * UMDK's vendor extension: a WRITE, then an atomic add of the
	 * notify data to an 8-byte word (UMDK's udma provider calls it
	 * write with atomic add; the remote side is WRITE_NOTIFY's).
	 */
	UBCORE_OPC_WRITE_ATOMIC		= 0x60,
	/*
	 * The target makes the earlier writes of this initiator to a remote
	 * range visible before it answers (udma: see udma/resp.c).
	 */
	UBCORE_OPC_FLUSH_DMA		= 0x80,
};

/* Completion statuses, as urma_cr_status_t. */
enum ubcore_cr_status {
	UBCORE_CR_SUCCESS		= 0,
	UBCORE_CR_UNSUPPORTED_OPCODE_ERR,
	UBCORE_CR_LOC_LEN_ERR,
	UBCORE_CR_LOC_OPERATION_ERR,
	UBCORE_CR_LOC_ACCESS_ERR,
	UBCORE_CR_REM_RESP_LEN_ERR,
	UBCORE_CR_REM_UNSUPPORTED_REQ_ERR,
	UBCORE_CR_REM_OPERATION_ERR,
	UBCORE_CR_REM_ACCESS_ABORT_ERR,
	UBCORE_CR_ACK_TIMEOUT_ERR,
	UBCORE_CR_RNR_RETRY_CNT_EXC_ERR,
	UBCORE_CR_WR_FLUSH_ERR,
	UBCORE_CR_WR_SUSPEND_DONE,
	UBCORE_CR_WR_FLUSH_ERR_DONE,
	UBCORE_CR_WR_UNHANDLED,
	UBCORE_CR_LOC_DATA_POISON,
	UBCORE_CR_REM_DATA_POISON,
};

/* Opcodes of receive completions, as urma_cr_opcode_t. */
enum ubcore_cr_opcode {
	UBCORE_CR_OPC_SEND		= 0x00,
	UBCORE_CR_OPC_SEND_WITH_IMM	= 0x01,
	UBCORE_CR_OPC_SEND_WITH_INV	= 0x02,
	UBCORE_CR_OPC_WRITE_WITH_IMM	= 0x03,
};

#endif /* _UAPI_UB_UBCORE_OPCODE_H */
