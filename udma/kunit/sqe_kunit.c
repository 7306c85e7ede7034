// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * KUnit tests of udma_sqe_check(): the format checks of a send queue entry
 * against its queue's limits, every rejection and what passes.
 */
#include <kunit/test.h>
#include <linux/kernel.h>
#include <linux/string.h>

#include "../udma.h"

static const struct udma_sq_limits rm_lim = {
	.trans_mode = UBCORE_TP_RM,
	.max_sge = 4,
	.max_inline = 64,
	.max_msg_size = 1 << 20,
	.max_write_size = 1 << 19,
	.max_read_size = 1 << 18,
	.atomic_feature = UDMA_ATOMIC_FEATURE,
};

static void sqe_init(struct udma_sqe *sqe, u8 opcode, u32 nsge, u32 sge_len)
{
	u32 i;

	memset(sqe, 0, sizeof(*sqe));
	sqe->opcode = opcode;
	sqe->flags = UDMA_SQE_F_COMPLETE;
	sqe->target_idx = 1;
	sqe->rseg_idx = 2;
	sqe->remote_va = 0x1000;
	sqe->remote_len = 1 << 20;
	sqe->num_sge = nsge;
	for (i = 0; i < nsge; i++) {
		sqe->sge[i].va = 0x2000 + i * 0x1000;
		sqe->sge[i].len = sge_len;
		sqe->sge[i].token_id = 3;
	}
}

static void atomic_init(struct udma_sqe *sqe, u8 opcode)
{
	sqe_init(sqe, opcode, 1, 8);
	sqe->remote_len = 8;
	sqe->remote_va = 0x1008;
}

/* In the order of their atomic_feature bits: atomics[i] needs BIT(i). */
static const u8 atomics[] = {
	URMA_OPC_CAS, URMA_OPC_SWAP, URMA_OPC_FADD, URMA_OPC_FSUB,
	URMA_OPC_FOR, URMA_OPC_FXOR, URMA_OPC_FAND,
};

static void sqe_valid(struct kunit *test)
{
	static const u8 data_ops[] = {
		URMA_OPC_WRITE, URMA_OPC_WRITE_IMM, URMA_OPC_WRITE_NOTIFY,
		URMA_OPC_READ, URMA_OPC_SEND, URMA_OPC_SEND_IMM,
		URMA_OPC_SEND_INVALIDATE,
	};
	struct udma_sqe sqe;
	u32 i;

	for (i = 0; i < ARRAY_SIZE(data_ops); i++) {
		sqe_init(&sqe, data_ops[i], 4, 100);
		KUNIT_EXPECT_EQ_MSG(test, udma_sqe_check(&sqe, &rm_lim),
				    URMA_CR_SUCCESS, "opcode 0x%x", data_ops[i]);
		/* Zero length, no SGE. */
		sqe_init(&sqe, data_ops[i], 0, 0);
		sqe.remote_len = 0;
		KUNIT_EXPECT_EQ_MSG(test, udma_sqe_check(&sqe, &rm_lim),
				    URMA_CR_SUCCESS, "opcode 0x%x", data_ops[i]);
	}
	for (i = 0; i < ARRAY_SIZE(atomics); i++) {
		atomic_init(&sqe, atomics[i]);
		KUNIT_EXPECT_EQ_MSG(test, udma_sqe_check(&sqe, &rm_lim),
				    URMA_CR_SUCCESS, "opcode 0x%x", atomics[i]);
	}
	/* Every flag. */
	sqe_init(&sqe, URMA_OPC_SEND, 0, 0);
	sqe.flags = UDMA_SQE_F_COMPLETE | UDMA_SQE_F_SOLICITED |
		    UDMA_SQE_F_FENCE | UDMA_SQE_F_INLINE;
	sqe.inline_len = 64;
	KUNIT_EXPECT_EQ(test, udma_sqe_check(&sqe, &rm_lim), URMA_CR_SUCCESS);
	/* Inline WRITE. */
	sqe_init(&sqe, URMA_OPC_WRITE, 0, 0);
	sqe.flags = UDMA_SQE_F_INLINE;
	sqe.inline_len = 10;
	sqe.remote_len = 10;
	KUNIT_EXPECT_EQ(test, udma_sqe_check(&sqe, &rm_lim), URMA_CR_SUCCESS);
	/* SEND ignores remote_len; WRITE and READ may fill it exactly. */
	sqe_init(&sqe, URMA_OPC_SEND, 4, 1000);
	sqe.remote_len = 0;
	KUNIT_EXPECT_EQ(test, udma_sqe_check(&sqe, &rm_lim), URMA_CR_SUCCESS);
	sqe_init(&sqe, URMA_OPC_READ, 4, 1000);
	sqe.remote_len = 4000;
	KUNIT_EXPECT_EQ(test, udma_sqe_check(&sqe, &rm_lim), URMA_CR_SUCCESS);
}

static void sqe_nop(struct kunit *test)
{
	struct udma_sqe sqe;

	/* A NOP's other fields mean nothing. */
	memset(&sqe, 0xa5, sizeof(sqe));
	sqe.opcode = URMA_OPC_NOP;
	sqe.flags = UDMA_SQE_F_COMPLETE;
	KUNIT_EXPECT_EQ(test, udma_sqe_check(&sqe, &rm_lim), URMA_CR_SUCCESS);
	sqe.flags = 0x80;
	KUNIT_EXPECT_EQ(test, udma_sqe_check(&sqe, &rm_lim),
			URMA_CR_LOC_OPERATION_ERR);
}

static void sqe_bad_flags(struct kunit *test)
{
	struct udma_sqe sqe;
	u32 bit;

	for (bit = 4; bit < 8; bit++) {
		sqe_init(&sqe, URMA_OPC_SEND, 1, 8);
		sqe.flags |= BIT(bit);
		KUNIT_EXPECT_EQ_MSG(test, udma_sqe_check(&sqe, &rm_lim),
				    URMA_CR_LOC_OPERATION_ERR, "bit %u", bit);
	}
	/* Flags are checked first. */
	sqe.opcode = 0x77;
	KUNIT_EXPECT_EQ(test, udma_sqe_check(&sqe, &rm_lim),
			URMA_CR_LOC_OPERATION_ERR);
}

static void sqe_bad_opcode(struct kunit *test)
{
	static const u8 unknown[] = {
		0x03, 0x0f, 0x11, 0x1f, 0x27, 0x3f, 0x43, 0x50, 0x52, 0x5f,
		0x61, 0x7f, 0x81, 0xff,
	};
	struct udma_sqe sqe;
	u32 i;

	for (i = 0; i < ARRAY_SIZE(unknown); i++) {
		sqe_init(&sqe, unknown[i], 1, 8);
		KUNIT_EXPECT_EQ_MSG(test, udma_sqe_check(&sqe, &rm_lim),
				    URMA_CR_UNSUPPORTED_OPCODE_ERR,
				    "opcode 0x%x", unknown[i]);
	}
}

static void sqe_um_sends_only(struct kunit *test)
{
	static const u8 refused[] = {
		URMA_OPC_WRITE, URMA_OPC_WRITE_IMM, URMA_OPC_WRITE_NOTIFY,
		URMA_OPC_READ, URMA_OPC_CAS, URMA_OPC_FADD, URMA_OPC_FAND,
		URMA_OPC_SEND_INVALIDATE, URMA_OPC_WRITE_ATOMIC,
		URMA_OPC_FLUSH_DMA,
	};
	struct udma_sq_limits lim = rm_lim;
	struct udma_sqe sqe;
	u32 i;

	lim.trans_mode = UBCORE_TP_UM;
	for (i = 0; i < ARRAY_SIZE(refused); i++) {
		atomic_init(&sqe, refused[i]);
		KUNIT_EXPECT_EQ_MSG(test, udma_sqe_check(&sqe, &lim),
				    URMA_CR_UNSUPPORTED_OPCODE_ERR,
				    "opcode 0x%x", refused[i]);
	}
	sqe_init(&sqe, URMA_OPC_SEND, 1, 8);
	KUNIT_EXPECT_EQ(test, udma_sqe_check(&sqe, &lim), URMA_CR_SUCCESS);
	sqe_init(&sqe, URMA_OPC_SEND_IMM, 1, 8);
	KUNIT_EXPECT_EQ(test, udma_sqe_check(&sqe, &lim), URMA_CR_SUCCESS);
	sqe_init(&sqe, URMA_OPC_NOP, 0, 0);
	KUNIT_EXPECT_EQ(test, udma_sqe_check(&sqe, &lim), URMA_CR_SUCCESS);
}

static void sqe_atomic_feature(struct kunit *test)
{
	struct udma_sq_limits lim = rm_lim;
	struct udma_sqe sqe;
	u32 i;

	/* FAND's bit is ours, beyond the user guide's six. */
	KUNIT_EXPECT_EQ(test, UBCORE_ATOMIC_FAND, BIT(6));
	KUNIT_EXPECT_TRUE(test, UDMA_ATOMIC_FEATURE & UBCORE_ATOMIC_FAND);
	atomic_init(&sqe, URMA_OPC_FAND);
	lim.atomic_feature = UBCORE_ATOMIC_FAND;
	KUNIT_EXPECT_EQ(test, udma_sqe_check(&sqe, &lim), URMA_CR_SUCCESS);
	lim.atomic_feature = UDMA_ATOMIC_FEATURE & ~UBCORE_ATOMIC_FAND;
	KUNIT_EXPECT_EQ(test, udma_sqe_check(&sqe, &lim),
			URMA_CR_UNSUPPORTED_OPCODE_ERR);
	/* Each atomic needs its own bit. */
	for (i = 0; i < ARRAY_SIZE(atomics); i++) {
		lim.atomic_feature = UDMA_ATOMIC_FEATURE & ~BIT(i);
		atomic_init(&sqe, atomics[i]);
		KUNIT_EXPECT_EQ_MSG(test, udma_sqe_check(&sqe, &lim),
				    URMA_CR_UNSUPPORTED_OPCODE_ERR,
				    "opcode 0x%x", atomics[i]);
		lim.atomic_feature = BIT(i);
		KUNIT_EXPECT_EQ_MSG(test, udma_sqe_check(&sqe, &lim),
				    URMA_CR_SUCCESS, "opcode 0x%x", atomics[i]);
	}
}

static void sqe_rc_binding(struct kunit *test)
{
	struct udma_sq_limits lim = rm_lim;
	struct udma_sqe sqe;

	lim.trans_mode = UBCORE_TP_RC;
	lim.jetty = true;
	sqe_init(&sqe, URMA_OPC_SEND, 1, 8);
	sqe.target_idx = 0;
	KUNIT_EXPECT_EQ(test, udma_sqe_check(&sqe, &lim),
			URMA_CR_LOC_OPERATION_ERR);
	sqe.target_idx = 5;
	KUNIT_EXPECT_EQ(test, udma_sqe_check(&sqe, &lim),
			URMA_CR_LOC_OPERATION_ERR);
	lim.bound = true;
	KUNIT_EXPECT_EQ(test, udma_sqe_check(&sqe, &lim), URMA_CR_SUCCESS);
	sqe.target_idx = 0;
	KUNIT_EXPECT_EQ(test, udma_sqe_check(&sqe, &lim), URMA_CR_SUCCESS);
	/* An RC JFS cannot be bound: it names targets by index. */
	lim.jetty = false;
	lim.bound = false;
	sqe.target_idx = 5;
	KUNIT_EXPECT_EQ(test, udma_sqe_check(&sqe, &lim), URMA_CR_SUCCESS);
	/* A NOP needs no peer. */
	lim.jetty = true;
	sqe_init(&sqe, URMA_OPC_NOP, 0, 0);
	KUNIT_EXPECT_EQ(test, udma_sqe_check(&sqe, &lim), URMA_CR_SUCCESS);
}

static void sqe_bad_inline(struct kunit *test)
{
	struct udma_sq_limits lim = rm_lim;
	struct udma_sqe sqe;

	/* INLINE with a READ or an atomic: nothing to send. */
	sqe_init(&sqe, URMA_OPC_READ, 0, 0);
	sqe.flags |= UDMA_SQE_F_INLINE;
	sqe.inline_len = 8;
	KUNIT_EXPECT_EQ(test, udma_sqe_check(&sqe, &rm_lim),
			URMA_CR_LOC_OPERATION_ERR);
	atomic_init(&sqe, URMA_OPC_CAS);
	sqe.num_sge = 0;
	sqe.flags |= UDMA_SQE_F_INLINE;
	sqe.inline_len = 8;
	KUNIT_EXPECT_EQ(test, udma_sqe_check(&sqe, &rm_lim),
			URMA_CR_LOC_OPERATION_ERR);
	/* INLINE and SGEs. */
	sqe_init(&sqe, URMA_OPC_SEND, 1, 8);
	sqe.flags |= UDMA_SQE_F_INLINE;
	sqe.inline_len = 8;
	KUNIT_EXPECT_EQ(test, udma_sqe_check(&sqe, &rm_lim),
			URMA_CR_LOC_OPERATION_ERR);
	/* inline_len without INLINE. */
	sqe_init(&sqe, URMA_OPC_SEND, 1, 8);
	sqe.inline_len = 8;
	KUNIT_EXPECT_EQ(test, udma_sqe_check(&sqe, &rm_lim),
			URMA_CR_LOC_OPERATION_ERR);
	/* Above the queue's max_inline_data ... */
	sqe_init(&sqe, URMA_OPC_SEND, 0, 0);
	sqe.flags |= UDMA_SQE_F_INLINE;
	sqe.inline_len = rm_lim.max_inline + 1;
	KUNIT_EXPECT_EQ(test, udma_sqe_check(&sqe, &rm_lim),
			URMA_CR_LOC_LEN_ERR);
	/* ... and above what an SQE holds, whatever the queue says. */
	lim.max_inline = 1000;
	sqe.inline_len = UDMA_SQE_MAX_INLINE;
	KUNIT_EXPECT_EQ(test, udma_sqe_check(&sqe, &lim), URMA_CR_SUCCESS);
	sqe.inline_len = UDMA_SQE_MAX_INLINE + 1;
	KUNIT_EXPECT_EQ(test, udma_sqe_check(&sqe, &lim), URMA_CR_LOC_LEN_ERR);
}

static void sqe_too_many_sge(struct kunit *test)
{
	struct udma_sq_limits lim = rm_lim;
	struct udma_sqe sqe;

	sqe_init(&sqe, URMA_OPC_SEND, rm_lim.max_sge + 1, 8);
	KUNIT_EXPECT_EQ(test, udma_sqe_check(&sqe, &rm_lim),
			URMA_CR_LOC_LEN_ERR);
	lim.max_sge = 255;
	sqe_init(&sqe, URMA_OPC_SEND, UDMA_SQE_MAX_SGE, 8);
	KUNIT_EXPECT_EQ(test, udma_sqe_check(&sqe, &lim), URMA_CR_SUCCESS);
	sqe.num_sge = UDMA_SQE_MAX_SGE + 1;
	KUNIT_EXPECT_EQ(test, udma_sqe_check(&sqe, &lim), URMA_CR_LOC_LEN_ERR);
	sqe.num_sge = 255;
	KUNIT_EXPECT_EQ(test, udma_sqe_check(&sqe, &lim), URMA_CR_LOC_LEN_ERR);
}

static void sqe_bad_atomic(struct kunit *test)
{
	struct udma_sqe sqe;
	u32 i;

	for (i = 0; i < ARRAY_SIZE(atomics); i++) {
		u8 opc = atomics[i];

		atomic_init(&sqe, opc);
		sqe.num_sge = 0;
		KUNIT_EXPECT_EQ(test, udma_sqe_check(&sqe, &rm_lim),
				URMA_CR_LOC_LEN_ERR);
		atomic_init(&sqe, opc);
		sqe.num_sge = 2;
		sqe.sge[1].len = 8;
		KUNIT_EXPECT_EQ(test, udma_sqe_check(&sqe, &rm_lim),
				URMA_CR_LOC_LEN_ERR);
		atomic_init(&sqe, opc);
		sqe.sge[0].len = 4;
		KUNIT_EXPECT_EQ(test, udma_sqe_check(&sqe, &rm_lim),
				URMA_CR_LOC_LEN_ERR);
		atomic_init(&sqe, opc);
		sqe.remote_len = 16;
		KUNIT_EXPECT_EQ(test, udma_sqe_check(&sqe, &rm_lim),
				URMA_CR_LOC_LEN_ERR);
		atomic_init(&sqe, opc);
		sqe.remote_va = 0x1004;
		KUNIT_EXPECT_EQ(test, udma_sqe_check(&sqe, &rm_lim),
				URMA_CR_LOC_OPERATION_ERR);
	}
}

static void sqe_too_long(struct kunit *test)
{
	struct udma_sq_limits lim = rm_lim;
	struct udma_sqe sqe;

	/* Each opcode has its own limit: 1 MiB, 512 KiB, 256 KiB here. */
	sqe_init(&sqe, URMA_OPC_SEND, 2, 1 << 19);
	KUNIT_EXPECT_EQ(test, udma_sqe_check(&sqe, &rm_lim), URMA_CR_SUCCESS);
	sqe.sge[1].len++;
	KUNIT_EXPECT_EQ(test, udma_sqe_check(&sqe, &rm_lim),
			URMA_CR_LOC_LEN_ERR);
	sqe_init(&sqe, URMA_OPC_WRITE, 2, 1 << 18);
	KUNIT_EXPECT_EQ(test, udma_sqe_check(&sqe, &rm_lim), URMA_CR_SUCCESS);
	sqe.sge[0].len++;
	KUNIT_EXPECT_EQ(test, udma_sqe_check(&sqe, &rm_lim),
			URMA_CR_LOC_LEN_ERR);
	sqe.opcode = URMA_OPC_WRITE_IMM;
	KUNIT_EXPECT_EQ(test, udma_sqe_check(&sqe, &rm_lim),
			URMA_CR_LOC_LEN_ERR);
	sqe_init(&sqe, URMA_OPC_READ, 2, 1 << 17);
	KUNIT_EXPECT_EQ(test, udma_sqe_check(&sqe, &rm_lim), URMA_CR_SUCCESS);
	sqe.sge[0].len++;
	KUNIT_EXPECT_EQ(test, udma_sqe_check(&sqe, &rm_lim),
			URMA_CR_LOC_LEN_ERR);

	/* The sum is 64-bit: 12 SGEs of 4 GiB - 1 do not wrap. */
	lim.max_sge = UDMA_SQE_MAX_SGE;
	sqe_init(&sqe, URMA_OPC_SEND, UDMA_SQE_MAX_SGE, U32_MAX);
	KUNIT_EXPECT_EQ(test, udma_sqe_check(&sqe, &lim), URMA_CR_LOC_LEN_ERR);
	lim.max_msg_size = (u64)UDMA_SQE_MAX_SGE * U32_MAX;
	KUNIT_EXPECT_EQ(test, udma_sqe_check(&sqe, &lim), URMA_CR_SUCCESS);
	lim.max_msg_size--;
	KUNIT_EXPECT_EQ(test, udma_sqe_check(&sqe, &lim), URMA_CR_LOC_LEN_ERR);
}

static void sqe_beyond_remote(struct kunit *test)
{
	struct udma_sqe sqe;

	sqe_init(&sqe, URMA_OPC_WRITE, 2, 100);
	sqe.remote_len = 199;
	KUNIT_EXPECT_EQ(test, udma_sqe_check(&sqe, &rm_lim),
			URMA_CR_LOC_LEN_ERR);
	sqe.opcode = URMA_OPC_WRITE_IMM;
	KUNIT_EXPECT_EQ(test, udma_sqe_check(&sqe, &rm_lim),
			URMA_CR_LOC_LEN_ERR);
	sqe.opcode = URMA_OPC_READ;
	KUNIT_EXPECT_EQ(test, udma_sqe_check(&sqe, &rm_lim),
			URMA_CR_LOC_LEN_ERR);
	sqe.remote_len = 200;
	KUNIT_EXPECT_EQ(test, udma_sqe_check(&sqe, &rm_lim), URMA_CR_SUCCESS);
	/* Inline data counts too. */
	sqe_init(&sqe, URMA_OPC_WRITE, 0, 0);
	sqe.flags |= UDMA_SQE_F_INLINE;
	sqe.inline_len = 9;
	sqe.remote_len = 8;
	KUNIT_EXPECT_EQ(test, udma_sqe_check(&sqe, &rm_lim),
			URMA_CR_LOC_LEN_ERR);
}

static void sqe_write_notify(struct kunit *test)
{
	struct udma_sqe sqe;

	sqe_init(&sqe, URMA_OPC_WRITE_NOTIFY, 2, 100);
	sqe.notify_rseg_idx = 4;
	sqe.notify_va = 0x5008;
	sqe.data = 0x1122334455667788ULL;
	KUNIT_EXPECT_EQ(test, udma_sqe_check(&sqe, &rm_lim), URMA_CR_SUCCESS);
	/* The notify word is one aligned 8-byte word. */
	sqe.notify_va = 0x5004;
	KUNIT_EXPECT_EQ(test, udma_sqe_check(&sqe, &rm_lim),
			URMA_CR_LOC_OPERATION_ERR);
	sqe.notify_va = 0x5001;
	KUNIT_EXPECT_EQ(test, udma_sqe_check(&sqe, &rm_lim),
			URMA_CR_LOC_OPERATION_ERR);
	/* Other opcodes ignore it. */
	sqe.opcode = URMA_OPC_WRITE;
	KUNIT_EXPECT_EQ(test, udma_sqe_check(&sqe, &rm_lim), URMA_CR_SUCCESS);
	/* A WRITE's limits: remote_len and max_write_size. */
	sqe_init(&sqe, URMA_OPC_WRITE_NOTIFY, 2, 100);
	sqe.remote_len = 199;
	KUNIT_EXPECT_EQ(test, udma_sqe_check(&sqe, &rm_lim),
			URMA_CR_LOC_LEN_ERR);
	sqe_init(&sqe, URMA_OPC_WRITE_NOTIFY, 2, 1 << 18);
	KUNIT_EXPECT_EQ(test, udma_sqe_check(&sqe, &rm_lim), URMA_CR_SUCCESS);
	sqe.sge[1].len++;
	KUNIT_EXPECT_EQ(test, udma_sqe_check(&sqe, &rm_lim),
			URMA_CR_LOC_LEN_ERR);
	/* Inline data, and no data at all. */
	sqe_init(&sqe, URMA_OPC_WRITE_NOTIFY, 0, 0);
	sqe.flags |= UDMA_SQE_F_INLINE;
	sqe.inline_len = 16;
	KUNIT_EXPECT_EQ(test, udma_sqe_check(&sqe, &rm_lim), URMA_CR_SUCCESS);
	sqe_init(&sqe, URMA_OPC_WRITE_NOTIFY, 0, 0);
	sqe.remote_len = 0;
	KUNIT_EXPECT_EQ(test, udma_sqe_check(&sqe, &rm_lim), URMA_CR_SUCCESS);
}

/*
 * WRITE_ATOMIC: WRITE_NOTIFY's checks, and the device must advertise FAA
 * (its word is added to). FLUSH_DMA: a remote range, no local memory.
 */
static void sqe_write_atomic_and_flush(struct kunit *test)
{
	struct udma_sq_limits lim = rm_lim;
	struct udma_sqe sqe;

	KUNIT_EXPECT_EQ(test, URMA_OPC_WRITE_ATOMIC, 0x60);
	KUNIT_EXPECT_EQ(test, URMA_OPC_FLUSH_DMA, 0x80);

	sqe_init(&sqe, URMA_OPC_WRITE_ATOMIC, 2, 100);
	sqe.notify_rseg_idx = 4;
	sqe.notify_va = 0x5008;
	sqe.data = 1;
	KUNIT_EXPECT_EQ(test, udma_sqe_check(&sqe, &rm_lim), URMA_CR_SUCCESS);
	sqe.notify_va = 0x5004;
	KUNIT_EXPECT_EQ(test, udma_sqe_check(&sqe, &rm_lim),
			URMA_CR_LOC_OPERATION_ERR);
	sqe.notify_va = 0x5008;
	sqe.remote_len = 199;
	KUNIT_EXPECT_EQ(test, udma_sqe_check(&sqe, &rm_lim),
			URMA_CR_LOC_LEN_ERR);
	sqe.remote_len = 200;
	lim.atomic_feature = UDMA_ATOMIC_FEATURE & ~UBCORE_ATOMIC_FAA;
	KUNIT_EXPECT_EQ(test, udma_sqe_check(&sqe, &lim),
			URMA_CR_UNSUPPORTED_OPCODE_ERR);
	lim.atomic_feature = UBCORE_ATOMIC_FAA;
	KUNIT_EXPECT_EQ(test, udma_sqe_check(&sqe, &lim), URMA_CR_SUCCESS);
	sqe_init(&sqe, URMA_OPC_WRITE_ATOMIC, 0, 0);
	sqe.flags |= UDMA_SQE_F_INLINE;
	sqe.inline_len = 8;
	KUNIT_EXPECT_EQ(test, udma_sqe_check(&sqe, &rm_lim), URMA_CR_SUCCESS);
	sqe_init(&sqe, URMA_OPC_WRITE_ATOMIC, 0, 0);
	sqe.remote_len = 0;
	KUNIT_EXPECT_EQ(test, udma_sqe_check(&sqe, &rm_lim), URMA_CR_SUCCESS);

	/* FLUSH_DMA: any remote length, no SGE, no inline */
	sqe_init(&sqe, URMA_OPC_FLUSH_DMA, 0, 0);
	sqe.remote_len = U32_MAX;
	KUNIT_EXPECT_EQ(test, udma_sqe_check(&sqe, &rm_lim), URMA_CR_SUCCESS);
	sqe.remote_len = 0;
	KUNIT_EXPECT_EQ(test, udma_sqe_check(&sqe, &rm_lim), URMA_CR_SUCCESS);
	lim.atomic_feature = 0;
	KUNIT_EXPECT_EQ(test, udma_sqe_check(&sqe, &lim), URMA_CR_SUCCESS);
	sqe_init(&sqe, URMA_OPC_FLUSH_DMA, 1, 8);
	KUNIT_EXPECT_EQ(test, udma_sqe_check(&sqe, &rm_lim),
			URMA_CR_LOC_OPERATION_ERR);
	sqe_init(&sqe, URMA_OPC_FLUSH_DMA, 0, 0);
	sqe.flags |= UDMA_SQE_F_INLINE;
	sqe.inline_len = 8;
	KUNIT_EXPECT_EQ(test, udma_sqe_check(&sqe, &rm_lim),
			URMA_CR_LOC_OPERATION_ERR);
}

static void sqe_send_invalidate(struct kunit *test)
{
	struct udma_sqe sqe;

	/* A SEND's limits: max_msg_size, not remote_len. */
	sqe_init(&sqe, URMA_OPC_SEND_INVALIDATE, 2, 1 << 19);
	sqe.remote_len = 0;
	KUNIT_EXPECT_EQ(test, udma_sqe_check(&sqe, &rm_lim), URMA_CR_SUCCESS);
	sqe.sge[0].len++;
	KUNIT_EXPECT_EQ(test, udma_sqe_check(&sqe, &rm_lim),
			URMA_CR_LOC_LEN_ERR);
	sqe_init(&sqe, URMA_OPC_SEND_INVALIDATE, 0, 0);
	sqe.flags |= UDMA_SQE_F_INLINE | UDMA_SQE_F_SOLICITED;
	sqe.inline_len = 32;
	KUNIT_EXPECT_EQ(test, udma_sqe_check(&sqe, &rm_lim), URMA_CR_SUCCESS);
}

/*
 * A bonding device's SEND_IMM: bits 21 to 39 of the immediate data are
 * refused, the others pass; other opcodes and other devices carry all.
 */
static void sqe_bonding_imm(struct kunit *test)
{
	struct udma_sq_limits lim = rm_lim;
	struct udma_sqe sqe;
	u32 bit;

	lim.bonding = true;
	sqe_init(&sqe, URMA_OPC_SEND_IMM, 1, 8);
	sqe.data = UBAGG_IMM_DATA_USABLE_MASK;
	KUNIT_EXPECT_EQ(test, udma_sqe_check(&sqe, &lim), URMA_CR_SUCCESS);
	for (bit = 0; bit < 64; bit++) {
		bool usable = bit < 21 || bit > 39;

		sqe.data = BIT_ULL(bit);
		KUNIT_EXPECT_EQ_MSG(test, udma_sqe_check(&sqe, &lim),
				    usable ? URMA_CR_SUCCESS :
					     URMA_CR_LOC_OPERATION_ERR,
				    "bit %u", bit);
		KUNIT_EXPECT_EQ_MSG(test, udma_sqe_check(&sqe, &rm_lim),
				    URMA_CR_SUCCESS, "bit %u, not bonding", bit);
	}
	sqe_init(&sqe, URMA_OPC_WRITE_IMM, 1, 8);
	sqe.data = ~0ULL;
	KUNIT_EXPECT_EQ(test, udma_sqe_check(&sqe, &lim), URMA_CR_SUCCESS);
}

static struct kunit_case udma_sqe_cases[] = {
	KUNIT_CASE(sqe_valid),
	KUNIT_CASE(sqe_nop),
	KUNIT_CASE(sqe_bad_flags),
	KUNIT_CASE(sqe_bad_opcode),
	KUNIT_CASE(sqe_um_sends_only),
	KUNIT_CASE(sqe_atomic_feature),
	KUNIT_CASE(sqe_rc_binding),
	KUNIT_CASE(sqe_bad_inline),
	KUNIT_CASE(sqe_too_many_sge),
	KUNIT_CASE(sqe_bad_atomic),
	KUNIT_CASE(sqe_too_long),
	KUNIT_CASE(sqe_beyond_remote),
	KUNIT_CASE(sqe_write_notify),
	KUNIT_CASE(sqe_write_atomic_and_flush),
	KUNIT_CASE(sqe_send_invalidate),
	KUNIT_CASE(sqe_bonding_imm),
	{}
};

static struct kunit_suite udma_sqe_suite = {
	.name = "udma_sqe",
	.test_cases = udma_sqe_cases,
};

kunit_test_suites(&udma_sqe_suite);
