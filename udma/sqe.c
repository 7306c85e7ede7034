// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * The format checks of a send queue entry: a pure function of the SQE (a
 * copy the kernel owns) and of the queue's limits, so that every rejection
 * is tested by KUnit. What needs tables (segments, imports, the bound peer
 * of an RC jetty) is checked afterwards by sq.c.
 *
 * The checks, in order; the first that fails gives the CQE's status:
 *  1. flags: an unknown bit                       LOC_OPERATION_ERR
 *  2. opcode: unknown; anything but SEND, SEND_IMM and NOP on a UM queue
 *     (UM carries no memory operation and no invalidation); an atomic
 *     outside cap.atomic_feature, WRITE_ATOMIC (an atomic add) without
 *     FAA in it                                   UNSUPPORTED_OPCODE_ERR
 *  3. NOP: nothing more
 *     SEND_IMM on a bonding device with immediate data outside
 *     UBAGG_IMM_DATA_USABLE_MASK (bits 21-39)  LOC_OPERATION_ERR
 *  4. an RC jetty that is not bound (RC sends only to the bound peer)
 *                                                 LOC_OPERATION_ERR
 *  5. inline: INLINE with READ, an atomic or FLUSH_DMA, with SGEs, or
 *     inline_len without INLINE                   LOC_OPERATION_ERR
 *     inline_len above max_inline_data            LOC_LEN_ERR
 *  6. num_sge above cfg.max_sge                   LOC_LEN_ERR
 *  7. atomics: not exactly one SGE of 8 bytes, or remote_len not 8
 *                                                 LOC_LEN_ERR
 *     remote_va not 8-byte aligned                LOC_OPERATION_ERR
 *  8. WRITE_NOTIFY, WRITE_ATOMIC: notify_va (the notify word, the word
 *     to add to) not 8-byte aligned               LOC_OPERATION_ERR
 *     FLUSH_DMA: local SGEs (it moves no data)    LOC_OPERATION_ERR
 *  9. the total (sum of SGE lengths in 64 bits: 12 SGEs of at most
 *     4 GiB cannot overflow, or inline_len) above max_msg_size (SEND*),
 *     max_write_size (WRITE*) or max_read_size (READ); WRITE* and READ
 *     above remote_len                            LOC_LEN_ERR
 *     (FLUSH_DMA: none; its remote range is the target's to check)
 * Indexes (target_idx, rseg_idx, notify_rseg_idx) name imports: sq.c
 * looks them up.
 */
#include <linux/kernel.h>

#include <kunit/visibility.h>

#include "udma.h"

#define UDMA_SQE_F_ALL	(UDMA_SQE_F_COMPLETE | UDMA_SQE_F_SOLICITED | \
			 UDMA_SQE_F_FENCE | UDMA_SQE_F_INLINE)

/* The atomic_feature bit of an atomic opcode; 0 when there is none. */
static u32 udma_opc_atomic_bit(u8 opcode)
{
	switch (opcode) {
	case URMA_OPC_CAS:
		return UBCORE_ATOMIC_CAS;
	case URMA_OPC_SWAP:
		return UBCORE_ATOMIC_SWAP;
	case URMA_OPC_FADD:
		return UBCORE_ATOMIC_FAA;
	case URMA_OPC_FSUB:
		return UBCORE_ATOMIC_FSUB;
	case URMA_OPC_FOR:
		return UBCORE_ATOMIC_FOR;
	case URMA_OPC_FXOR:
		return UBCORE_ATOMIC_FXOR;
	case URMA_OPC_FAND:
		return UBCORE_ATOMIC_FAND;
	case URMA_OPC_WRITE_ATOMIC:
		/* the write's last step is an atomic add */
		return UBCORE_ATOMIC_FAA;
	default:
		return 0;
	}
}

static bool udma_opc_is_atomic(u8 opcode)
{
	return opcode >= URMA_OPC_CAS && opcode <= URMA_OPC_FXOR;
}

/* Known and done by the engine (step 2 without the queue's limits). */
static bool udma_opc_supported(u8 opcode)
{
	switch (opcode) {
	case URMA_OPC_WRITE:
	case URMA_OPC_WRITE_IMM:
	case URMA_OPC_WRITE_NOTIFY:
	case URMA_OPC_WRITE_ATOMIC:
	case URMA_OPC_FLUSH_DMA:
	case URMA_OPC_READ:
	case URMA_OPC_SEND:
	case URMA_OPC_SEND_IMM:
	case URMA_OPC_SEND_INVALIDATE:
	case URMA_OPC_NOP:
		return true;
	default:
		return udma_opc_is_atomic(opcode);
	}
}

static u8 udma_sqe_check_opcode(const struct udma_sqe *sqe,
				const struct udma_sq_limits *lim)
{
	u8 opc = sqe->opcode;

	if (!udma_opc_supported(opc))
		return URMA_CR_UNSUPPORTED_OPCODE_ERR;
	if (lim->trans_mode == UBCORE_TP_UM && opc != URMA_OPC_SEND &&
	    opc != URMA_OPC_SEND_IMM && opc != URMA_OPC_NOP)
		return URMA_CR_UNSUPPORTED_OPCODE_ERR;
	if ((udma_opc_is_atomic(opc) || opc == URMA_OPC_WRITE_ATOMIC) &&
	    !(udma_opc_atomic_bit(opc) & lim->atomic_feature))
		return URMA_CR_UNSUPPORTED_OPCODE_ERR;
	return URMA_CR_SUCCESS;
}

static u8 udma_sqe_check_inline(const struct udma_sqe *sqe,
				const struct udma_sq_limits *lim)
{
	if (!(sqe->flags & UDMA_SQE_F_INLINE))
		return sqe->inline_len ? URMA_CR_LOC_OPERATION_ERR :
					 URMA_CR_SUCCESS;
	if (sqe->opcode == URMA_OPC_READ || udma_opc_is_atomic(sqe->opcode) ||
	    sqe->opcode == URMA_OPC_FLUSH_DMA || sqe->num_sge)
		return URMA_CR_LOC_OPERATION_ERR;
	if (sqe->inline_len > lim->max_inline ||
	    sqe->inline_len > UDMA_SQE_MAX_INLINE)
		return URMA_CR_LOC_LEN_ERR;
	return URMA_CR_SUCCESS;
}

static u8 udma_sqe_check_atomic(const struct udma_sqe *sqe)
{
	if (sqe->num_sge != 1 || sqe->sge[0].len != sizeof(u64) ||
	    sqe->remote_len != sizeof(u64))
		return URMA_CR_LOC_LEN_ERR;
	if (!IS_ALIGNED(sqe->remote_va, sizeof(u64)))
		return URMA_CR_LOC_OPERATION_ERR;
	return URMA_CR_SUCCESS;
}

static bool udma_opc_is_send(u8 opcode)
{
	return opcode == URMA_OPC_SEND || opcode == URMA_OPC_SEND_IMM ||
	       opcode == URMA_OPC_SEND_INVALIDATE;
}

static u8 udma_sqe_check_len(const struct udma_sqe *sqe,
			     const struct udma_sq_limits *lim)
{
	u64 total = 0, max;
	u32 i;

	if (sqe->flags & UDMA_SQE_F_INLINE)
		total = sqe->inline_len;
	else
		for (i = 0; i < sqe->num_sge; i++)
			total += sqe->sge[i].len;

	if (udma_opc_is_send(sqe->opcode))
		max = lim->max_msg_size;
	else if (sqe->opcode == URMA_OPC_READ)
		max = lim->max_read_size;
	else	/* WRITE, WRITE_IMM, WRITE_NOTIFY, WRITE_ATOMIC */
		max = lim->max_write_size;
	if (total > max)
		return URMA_CR_LOC_LEN_ERR;
	if (!udma_opc_is_send(sqe->opcode) && total > sqe->remote_len)
		return URMA_CR_LOC_LEN_ERR;
	return URMA_CR_SUCCESS;
}

/**
 * udma_sqe_check() - check the format of a send queue entry
 * @sqe: the entry, copied out of the ring
 * @lim: the limits of its queue
 *
 * The checks and their statuses are listed at the top of sqe.c. Any
 * context; reads nothing but its arguments.
 *
 * Return: URMA_CR_SUCCESS, or the urma_cr_status_t of the CQE that
 * rejects the entry.
 */
u8 udma_sqe_check(const struct udma_sqe *sqe, const struct udma_sq_limits *lim)
{
	u8 st;

	if (sqe->flags & ~UDMA_SQE_F_ALL)
		return URMA_CR_LOC_OPERATION_ERR;
	st = udma_sqe_check_opcode(sqe, lim);
	if (st || sqe->opcode == URMA_OPC_NOP)
		return st;
	if (lim->bonding && sqe->opcode == URMA_OPC_SEND_IMM &&
	    (sqe->data & ~UBAGG_IMM_DATA_USABLE_MASK))
		return URMA_CR_LOC_OPERATION_ERR;
	if (lim->trans_mode == UBCORE_TP_RC && lim->jetty && !lim->bound)
		return URMA_CR_LOC_OPERATION_ERR;
	st = udma_sqe_check_inline(sqe, lim);
	if (st)
		return st;
	if (sqe->num_sge > lim->max_sge || sqe->num_sge > UDMA_SQE_MAX_SGE)
		return URMA_CR_LOC_LEN_ERR;
	if (udma_opc_is_atomic(sqe->opcode))
		return udma_sqe_check_atomic(sqe);
	/*
	 * The target writes the notify word with one aligned 8-byte store,
	 * or adds to it with one 8-byte atomic.
	 */
	if ((sqe->opcode == URMA_OPC_WRITE_NOTIFY ||
	     sqe->opcode == URMA_OPC_WRITE_ATOMIC) &&
	    !IS_ALIGNED(sqe->notify_va, sizeof(u64)))
		return URMA_CR_LOC_OPERATION_ERR;
	if (sqe->opcode == URMA_OPC_FLUSH_DMA)
		return sqe->num_sge ? URMA_CR_LOC_OPERATION_ERR :
				      URMA_CR_SUCCESS;
	return udma_sqe_check_len(sqe, lim);
}
EXPORT_SYMBOL_IF_KUNIT(udma_sqe_check);
