// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * KUnit suite roub_map: the verbs <-> URMA tables of roub/map.c (linked
 * into this module): opcodes, send flags, completion statuses, receive
 * opcodes, the guide's size limits, the QP state table, the capabilities
 * derived from a UB device's and ROUB_RC_MODE's parsing.
 */
#include <kunit/test.h>

#include "../roub.h"

static void roub_opcode_test(struct kunit *test)
{
	static const struct {
		enum ib_wr_opcode wr;
		enum ubcore_opcode uop;
		enum ib_wc_opcode wc;
	} ok[] = {
		{ IB_WR_RDMA_WRITE, UBCORE_OPC_WRITE, IB_WC_RDMA_WRITE },
		{ IB_WR_RDMA_WRITE_WITH_IMM, UBCORE_OPC_WRITE_IMM, IB_WC_RDMA_WRITE },
		{ IB_WR_SEND, UBCORE_OPC_SEND, IB_WC_SEND },
		{ IB_WR_RDMA_READ, UBCORE_OPC_READ, IB_WC_RDMA_READ },
	};
	static const enum ib_wr_opcode refused[] = {
		IB_WR_SEND_WITH_IMM, IB_WR_SEND_WITH_INV, IB_WR_ATOMIC_CMP_AND_SWP,
		IB_WR_ATOMIC_FETCH_AND_ADD, IB_WR_LOCAL_INV, IB_WR_REG_MR,
		IB_WR_RDMA_READ_WITH_INV, IB_WR_MASKED_ATOMIC_CMP_AND_SWP,
	};
	enum ubcore_opcode uop;
	enum ib_wc_opcode wc;
	u32 i;

	for (i = 0; i < ARRAY_SIZE(ok); i++) {
		KUNIT_ASSERT_EQ(test, roub_wr_opcode(ok[i].wr, &uop, &wc), 0);
		KUNIT_EXPECT_EQ(test, uop, ok[i].uop);
		KUNIT_EXPECT_EQ(test, wc, ok[i].wc);
	}
	for (i = 0; i < ARRAY_SIZE(refused); i++)
		KUNIT_EXPECT_EQ(test, roub_wr_opcode(refused[i], &uop, &wc),
				-EOPNOTSUPP);
}

static void roub_flags_test(struct kunit *test)
{
	union ubcore_jfs_wr_flag f;

	f.value = roub_wr_flags(0, false);
	KUNIT_EXPECT_EQ(test, f.value, 0U);
	f.value = roub_wr_flags(IB_SEND_SIGNALED, false);
	KUNIT_EXPECT_EQ(test, (u32)f.bs.complete_enable, 1U);
	KUNIT_EXPECT_EQ(test, (u32)(f.bs.fence + f.bs.solicited_enable + f.bs.inline_flag), 0U);
	f.value = roub_wr_flags(0, true);
	KUNIT_EXPECT_EQ(test, (u32)f.bs.complete_enable, 1U);
	f.value = roub_wr_flags(IB_SEND_FENCE | IB_SEND_SOLICITED | IB_SEND_INLINE, false);
	KUNIT_EXPECT_EQ(test, (u32)f.bs.complete_enable, 0U);
	KUNIT_EXPECT_EQ(test, (u32)f.bs.fence, 1U);
	KUNIT_EXPECT_EQ(test, (u32)f.bs.solicited_enable, 1U);
	KUNIT_EXPECT_EQ(test, (u32)f.bs.inline_flag, 1U);
	/* bits without a URMA meaning change nothing */
	KUNIT_EXPECT_EQ(test, roub_wr_flags(IB_SEND_IP_CSUM, false), 0U);
}

static void roub_status_test(struct kunit *test)
{
	static const struct {
		enum ubcore_cr_status cr;
		enum ib_wc_status wc;
	} map[] = {
		{ UBCORE_CR_SUCCESS, IB_WC_SUCCESS },
		{ UBCORE_CR_UNSUPPORTED_OPCODE_ERR, IB_WC_LOC_QP_OP_ERR },
		{ UBCORE_CR_LOC_LEN_ERR, IB_WC_LOC_LEN_ERR },
		{ UBCORE_CR_LOC_OPERATION_ERR, IB_WC_LOC_QP_OP_ERR },
		{ UBCORE_CR_LOC_ACCESS_ERR, IB_WC_LOC_PROT_ERR },
		{ UBCORE_CR_REM_RESP_LEN_ERR, IB_WC_REM_INV_REQ_ERR },
		{ UBCORE_CR_REM_UNSUPPORTED_REQ_ERR, IB_WC_REM_INV_REQ_ERR },
		{ UBCORE_CR_REM_OPERATION_ERR, IB_WC_REM_OP_ERR },
		{ UBCORE_CR_REM_ACCESS_ABORT_ERR, IB_WC_REM_ACCESS_ERR },
		{ UBCORE_CR_ACK_TIMEOUT_ERR, IB_WC_RETRY_EXC_ERR },
		{ UBCORE_CR_RNR_RETRY_CNT_EXC_ERR, IB_WC_RNR_RETRY_EXC_ERR },
		{ UBCORE_CR_WR_FLUSH_ERR, IB_WC_WR_FLUSH_ERR },
		{ UBCORE_CR_WR_UNHANDLED, IB_WC_WR_FLUSH_ERR },
		{ UBCORE_CR_LOC_DATA_POISON, IB_WC_LOC_PROT_ERR },
		{ UBCORE_CR_REM_DATA_POISON, IB_WC_REM_OP_ERR },
	};
	enum ib_wc_status st;
	u32 i;

	for (i = 0; i < ARRAY_SIZE(map); i++) {
		KUNIT_EXPECT_TRUE(test, roub_wc_status(map[i].cr, &st));
		KUNIT_EXPECT_EQ(test, st, map[i].wc);
	}
	/* a queue's markers are no work request's */
	KUNIT_EXPECT_FALSE(test, roub_wc_status(UBCORE_CR_WR_SUSPEND_DONE, &st));
	KUNIT_EXPECT_FALSE(test, roub_wc_status(UBCORE_CR_WR_FLUSH_ERR_DONE, &st));
	/* an unknown status is an error, not a success */
	KUNIT_EXPECT_TRUE(test, roub_wc_status(1000, &st));
	KUNIT_EXPECT_EQ(test, st, IB_WC_GENERAL_ERR);
}

static void roub_recv_opcode_test(struct kunit *test)
{
	enum ib_wc_opcode op;
	bool imm;

	KUNIT_ASSERT_EQ(test, roub_recv_wc_opcode(UBCORE_CR_OPC_SEND, &op, &imm), 0);
	KUNIT_EXPECT_EQ(test, op, IB_WC_RECV);
	KUNIT_EXPECT_FALSE(test, imm);
	KUNIT_ASSERT_EQ(test, roub_recv_wc_opcode(UBCORE_CR_OPC_SEND_WITH_IMM, &op, &imm), 0);
	KUNIT_EXPECT_EQ(test, op, IB_WC_RECV);
	KUNIT_EXPECT_TRUE(test, imm);
	KUNIT_ASSERT_EQ(test, roub_recv_wc_opcode(UBCORE_CR_OPC_WRITE_WITH_IMM, &op, &imm), 0);
	KUNIT_EXPECT_EQ(test, op, IB_WC_RECV_RDMA_WITH_IMM);
	KUNIT_EXPECT_TRUE(test, imm);
	KUNIT_EXPECT_EQ(test, roub_recv_wc_opcode(UBCORE_CR_OPC_SEND_WITH_INV, &op, &imm),
			-EPROTO);
}

static void roub_len_test(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, roub_wr_len_check(IB_WR_SEND, SZ_64K), 0);
	KUNIT_EXPECT_EQ(test, roub_wr_len_check(IB_WR_SEND, SZ_64K + 1), -EINVAL);
	KUNIT_EXPECT_EQ(test, roub_wr_len_check(IB_WR_SEND, 0), 0);
	KUNIT_EXPECT_EQ(test, roub_wr_len_check(IB_WR_RDMA_WRITE, SZ_2G), 0);
	KUNIT_EXPECT_EQ(test, roub_wr_len_check(IB_WR_RDMA_WRITE, SZ_2G + 1ULL), -EINVAL);
	KUNIT_EXPECT_EQ(test, roub_wr_len_check(IB_WR_RDMA_WRITE_WITH_IMM, SZ_2G + 1ULL),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, roub_wr_len_check(IB_WR_RDMA_READ, SZ_2G), 0);
	KUNIT_EXPECT_EQ(test, roub_wr_len_check(IB_WR_RDMA_READ, SZ_2G + 1ULL), -EINVAL);
	/* a WRITE may be larger than a SEND */
	KUNIT_EXPECT_EQ(test, roub_wr_len_check(IB_WR_RDMA_WRITE, SZ_64K + 1), 0);
}

static void roub_qp_state_test(struct kunit *test)
{
	static const struct {
		enum ib_qp_state s;
		bool send, recv;
		enum ubcore_jetty_state jetty;
		enum ubcore_jfr_state jfr;
	} t[] = {
		{ IB_QPS_RESET, false, false, UBCORE_JETTY_STATE_READY, UBCORE_JFR_STATE_READY },
		{ IB_QPS_INIT, false, true, UBCORE_JETTY_STATE_READY, UBCORE_JFR_STATE_READY },
		{ IB_QPS_RTR, false, true, UBCORE_JETTY_STATE_READY, UBCORE_JFR_STATE_READY },
		{ IB_QPS_RTS, true, true, UBCORE_JETTY_STATE_READY, UBCORE_JFR_STATE_READY },
		{ IB_QPS_ERR, true, true, UBCORE_JETTY_STATE_ERROR, UBCORE_JFR_STATE_ERROR },
	};
	enum ubcore_jetty_state js;
	enum ubcore_jfr_state rs;
	u32 i;

	for (i = 0; i < ARRAY_SIZE(t); i++) {
		KUNIT_EXPECT_EQ(test, roub_qp_can_post(t[i].s, true), t[i].send);
		KUNIT_EXPECT_EQ(test, roub_qp_can_post(t[i].s, false), t[i].recv);
		KUNIT_ASSERT_EQ(test, roub_qp_ub_states(t[i].s, &js, &rs), 0);
		KUNIT_EXPECT_EQ(test, js, t[i].jetty);
		KUNIT_EXPECT_EQ(test, rs, t[i].jfr);
	}
	KUNIT_EXPECT_EQ(test, roub_qp_ub_states(IB_QPS_SQD, &js, &rs), -EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, roub_qp_ub_states(IB_QPS_SQE, &js, &rs), -EOPNOTSUPP);
	KUNIT_EXPECT_FALSE(test, roub_qp_can_post(IB_QPS_SQD, true));
	KUNIT_EXPECT_FALSE(test, roub_qp_can_post(IB_QPS_SQE, false));
	KUNIT_EXPECT_FALSE(test, roub_qp_can_post(100, true));
}

static void roub_device_attr_test(struct kunit *test)
{
	struct ubcore_device_cap cap = {
		.max_jfc = 100, .max_jfr = 1000, .max_jetty = 1001,
		.max_jfc_depth = 4096, .max_jfs_depth = 1024,
		.max_jfr_depth = 512, .max_jfs_sge = 16, .max_jfr_sge = 4,
		.max_token_id = 1 << 20, .max_msg_size = 1ULL << 32,
	};
	struct ib_device_attr a;

	roub_fill_device_attr(&cap, &a);
	/* QPs: half the jetties */
	KUNIT_EXPECT_EQ(test, a.max_qp, 500);
	KUNIT_EXPECT_EQ(test, a.max_qp_wr, 512);
	KUNIT_EXPECT_EQ(test, a.max_send_sge, 8);
	KUNIT_EXPECT_EQ(test, a.max_recv_sge, 1);
	KUNIT_EXPECT_EQ(test, a.max_cq, 100);
	KUNIT_EXPECT_EQ(test, a.max_cqe, 4096);
	KUNIT_EXPECT_EQ(test, a.max_mr, (1 << 20) - 1);
	KUNIT_EXPECT_EQ(test, a.atomic_cap, IB_ATOMIC_NONE);
	KUNIT_EXPECT_EQ(test, a.max_srq, 0);
	/* a device with fewer SGEs than the guide's limits keeps its own */
	cap.max_jfs_sge = 4;
	cap.max_jetty = 10;
	cap.max_jfr = 2;
	roub_fill_device_attr(&cap, &a);
	KUNIT_EXPECT_EQ(test, a.max_send_sge, 4);
	KUNIT_EXPECT_EQ(test, a.max_qp, 2);
}

static void roub_rc_mode_test(struct kunit *test)
{
	enum roub_rc_mode m = ROUB_RC_MODE_RM;

	KUNIT_EXPECT_EQ(test, roub_rc_mode_parse("RS", &m), 0);
	KUNIT_EXPECT_EQ(test, m, ROUB_RC_MODE_RS);
	KUNIT_EXPECT_EQ(test, roub_rc_mode_parse("rm", &m), 0);
	KUNIT_EXPECT_EQ(test, m, ROUB_RC_MODE_RM);
	/* only the first two characters count */
	KUNIT_EXPECT_EQ(test, roub_rc_mode_parse("rSxyz\n", &m), 0);
	KUNIT_EXPECT_EQ(test, m, ROUB_RC_MODE_RS);
	KUNIT_EXPECT_EQ(test, roub_rc_mode_parse("Rm\n", &m), 0);
	KUNIT_EXPECT_EQ(test, m, ROUB_RC_MODE_RM);
	KUNIT_EXPECT_EQ(test, roub_rc_mode_parse("RC", &m), -EINVAL);
	KUNIT_EXPECT_EQ(test, roub_rc_mode_parse("R", &m), -EINVAL);
	KUNIT_EXPECT_EQ(test, roub_rc_mode_parse("", &m), -EINVAL);
	KUNIT_EXPECT_EQ(test, m, ROUB_RC_MODE_RM);
}

static void roub_key_test(struct kunit *test)
{
	u32 key = roub_key_make(0xabcde, 0x12345);

	KUNIT_EXPECT_EQ(test, roub_key_token_id(key), 0xabcdeU);
	KUNIT_EXPECT_EQ(test, key & ROUB_KEY_RAND_MASK, 0x345U);
	/* the largest 20-bit token ID fits */
	KUNIT_EXPECT_EQ(test, roub_key_token_id(roub_key_make(0xfffff, 0)), 0xfffffU);
}

static struct kunit_case roub_map_cases[] = {
	KUNIT_CASE(roub_opcode_test),
	KUNIT_CASE(roub_flags_test),
	KUNIT_CASE(roub_status_test),
	KUNIT_CASE(roub_recv_opcode_test),
	KUNIT_CASE(roub_len_test),
	KUNIT_CASE(roub_qp_state_test),
	KUNIT_CASE(roub_device_attr_test),
	KUNIT_CASE(roub_rc_mode_test),
	KUNIT_CASE(roub_key_test),
	{}
};

static struct kunit_suite roub_map_suite = {
	.name = "roub_map",
	.test_cases = roub_map_cases,
};

kunit_test_suite(roub_map_suite);

MODULE_DESCRIPTION("KUnit tests of RoUB's verbs <-> URMA tables");
MODULE_LICENSE("GPL");
