// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The UB/URMA stack authors
// The jetty data path: urma_post_jetty_send_wr / _recv_wr between two
// jetties of one context (each imports the other, as peers on two hosts
// would), urma_flush_jetty, an RC jetty's bind and unbind with their
// errors, and the ERROR a full JFC puts a jetty in.
//
// Expectations (urma_api.h, urma_opcode.h, ubcore/dp.c, the top of
// udma/sq.c and udma/target.c):
//  - a SEND / SEND_IMM from jetty A to imported jetty B lands in the RQE
//    posted on B; the receive record names B (local_id) and A (remote_id);
//  - urma_flush_jetty: -1/EINVAL unless ERROR or SUSPENDED; in ERROR the
//    WRs not taken come back as URMA_CR_WR_UNHANDLED with the jetty's ID
//    and flag.bs.jetty set;
//  - an RC jetty sends only to its bound peer: unbound, every WR fails
//    with URMA_CR_LOC_OPERATION_ERR; bind twice: URMA_EEXIST; bind of a
//    non-RC jetty or to an import that is not an RC jetty: URMA_EINVAL;
//    unimport of the bound target: EBUSY; unbind of an unbound jetty:
//    URMA_EINVAL; deleting a bound jetty releases the target;
//  - a full JFC: URMA_EVENT_JFC_ERR, then URMA_EVENT_JETTY_ERR and ERROR.
#include "dp_extra.h"

namespace {

using ub_itest::DpOwnTest;
using ub_itest::Region;

class DpJetty : public DpOwnTest {
protected:
    void SetUp() override
    {
        DpOwnTest::SetUp();
        if (HasFatalFailure())
            return;
        urma_jfr_cfg_t r = ub_itest::jfr_cfg(rcq_, 64);
        r.max_sge = 1;
        r.token_value.token = ub_itest::kJfrToken;
        jfr_b_ = urma_create_jfr(ctx_, &r);
        ASSERT_NE(jfr_b_, nullptr);
    }

    void TearDown() override
    {
        DpOwnTest::TearDown();
    }

    void delete_senders() override
    {
        for (int i = njetties_ - 1; i >= 0; i--)
            if (jetties_[i] != nullptr) {
                EXPECT_EQ(urma_delete_jetty(jetties_[i]), URMA_SUCCESS);
            }
        for (int i = nimports_ - 1; i >= 0; i--) {
            EXPECT_EQ(urma_unimport_jetty(imports_[i]), URMA_SUCCESS);
        }
        if (jfr_b_ != nullptr) {
            EXPECT_EQ(urma_delete_jfr(jfr_b_), URMA_SUCCESS);
        }
    }

    // A jetty sending with mode on jfc and receiving on jfr.
    urma_jetty_t *jetty(urma_transport_mode_t mode, urma_jfr_t *jfr, urma_jfc_t *jfc = nullptr, uint32_t depth = 64)
    {
        urma_jetty_cfg_t c = ub_itest::jetty_cfg_shared(jfc != nullptr ? jfc : scq_, jfr);
        c.jfs_cfg.trans_mode = mode;
        c.jfs_cfg.depth = depth;
        urma_jetty_t *j = urma_create_jetty(ctx_, &c);
        EXPECT_NE(j, nullptr) << std::strerror(errno);
        if (j != nullptr)
            jetties_[njetties_++] = j;
        return j;
    }

    void forget(urma_jetty_t *j)
    {
        for (int i = 0; i < njetties_; i++)
            if (jetties_[i] == j)
                jetties_[i] = nullptr;
    }

    // Imports jetty j as mode; NULL and errno on failure.
    urma_target_jetty_t *try_import(urma_jetty_t *j, urma_transport_mode_t mode)
    {
        urma_rjetty_t rj = {};
        rj.jetty_id = j->jetty_id;
        rj.trans_mode = mode;
        rj.type = URMA_JETTY;
        rj.flag.bs.token_policy = URMA_TOKEN_PLAIN_TEXT;
        urma_token_t t = {ub_itest::kJfrToken};
        return urma_import_jetty(ctx_, &rj, &t);
    }

    urma_target_jetty_t *import(urma_jetty_t *j, urma_transport_mode_t mode)
    {
        urma_target_jetty_t *tj = try_import(j, mode);
        EXPECT_NE(tj, nullptr) << std::strerror(errno);
        if (tj != nullptr)
            imports_[nimports_++] = tj;
        return tj;
    }

    void forget_import(urma_target_jetty_t *tj)
    {
        for (int i = 0; i < nimports_; i++)
            if (imports_[i] == tj) {
                imports_[i] = imports_[--nimports_];
                return;
            }
    }

    // A SEND of len bytes at src + off through jetty j (to tj, or to the
    // bound peer when tj is null).
    urma_status_t send(urma_jetty_t *j, urma_target_jetty_t *tj, Region &src, size_t off, uint32_t len,
                       uint64_t user_ctx, urma_opcode_t opc = URMA_OPC_SEND, uint64_t imm = 0)
    {
        urma_sge_t s = sge(src, off, len, false);
        urma_jfs_wr_t wr = {};
        wr.opcode = opc;
        wr.flag = signaled();
        wr.tjetty = tj;
        wr.user_ctx = user_ctx;
        wr.send.src = {&s, 1};
        wr.send.imm_data = imm;
        urma_jfs_wr_t *bad = nullptr;
        return urma_post_jetty_send_wr(j, &wr, &bad);
    }

    urma_status_t recv_on(urma_jetty_t *j, Region &dst, size_t off, uint32_t len, uint64_t user_ctx)
    {
        urma_sge_t s = sge(dst, off, len, false);
        urma_jfr_wr_t wr = {};
        wr.src = {&s, 1};
        wr.user_ctx = user_ctx;
        urma_jfr_wr_t *bad = nullptr;
        return urma_post_jetty_recv_wr(j, &wr, &bad);
    }

    urma_jfr_t *jfr_b_ = nullptr;
    urma_jetty_t *jetties_[8] = {};
    int njetties_ = 0;
    urma_target_jetty_t *imports_[8] = {};
    int nimports_ = 0;
};

TEST_F(DpJetty, SendAndReceiveBetweenJetties)
{
    urma_jetty_t *a = jetty(URMA_TM_RM, jfr_);
    urma_jetty_t *b = jetty(URMA_TM_RM, jfr_b_);
    ASSERT_NE(a, nullptr);
    ASSERT_NE(b, nullptr);
    urma_target_jetty_t *tb = import(b, URMA_TM_RM);
    ASSERT_NE(tb, nullptr);
    Region &src = region(8192);
    Region &dst = region(8192);
    ASSERT_NE(dst.imp, nullptr);
    ub_itest::fill(src.buf, 8192, 11);
    std::memset(dst.buf, 0xee, 8192);

    ASSERT_EQ(recv_on(b, dst, 0, 4096, 100), URMA_SUCCESS);
    ASSERT_EQ(recv_on(b, dst, 4096, 4096, 101), URMA_SUCCESS);
    ASSERT_EQ(send(a, tb, src, 0, 3000, 1), URMA_SUCCESS);
    ASSERT_EQ(send(a, tb, src, 4096, 17, 2, URMA_OPC_SEND_IMM, 0x1234567890abcdefull), URMA_SUCCESS);

    for (uint64_t i = 1; i <= 2; i++) {
        urma_cr_t c = wait_cr(scq_);
        EXPECT_EQ(c.status, URMA_CR_SUCCESS);
        EXPECT_EQ(c.user_ctx, i);
        EXPECT_EQ(c.local_id, a->jetty_id.id);
    }
    urma_cr_t r = wait_cr(rcq_);
    EXPECT_EQ(r.status, URMA_CR_SUCCESS);
    EXPECT_EQ(r.user_ctx, 100u);
    EXPECT_EQ(r.completion_len, 3000u);
    EXPECT_EQ(r.local_id, b->jetty_id.id);
    EXPECT_EQ(r.remote_id.id, a->jetty_id.id);
    EXPECT_EQ(r.opcode, URMA_CR_OPC_SEND);
    EXPECT_EQ(r.flag.bs.s_r, 1u);
    r = wait_cr(rcq_);
    EXPECT_EQ(r.status, URMA_CR_SUCCESS);
    EXPECT_EQ(r.user_ctx, 101u);
    EXPECT_EQ(r.completion_len, 17u);
    EXPECT_EQ(r.opcode, URMA_CR_OPC_SEND_WITH_IMM);
    EXPECT_EQ(r.imm_data, 0x1234567890abcdefull);
    EXPECT_EQ(std::memcmp(dst.buf, src.buf, 3000), 0);
    EXPECT_EQ(ub_itest::first_not(dst.buf + 3000, 1096, 0xee), 1096u);
    EXPECT_EQ(std::memcmp(dst.buf + 4096, src.buf + 4096, 17), 0);

    // A WRITE through the jetty into an imported segment of B's owner.
    urma_sge_t s = sge(src, 0, 512, false);
    urma_sge_t d = sge(dst, 6000, 512, true);
    urma_jfs_wr_t wr = {};
    wr.opcode = URMA_OPC_WRITE;
    wr.flag = signaled();
    wr.tjetty = tb;
    wr.user_ctx = 3;
    wr.rw.src = {&s, 1};
    wr.rw.dst = {&d, 1};
    urma_jfs_wr_t *bad = nullptr;
    ASSERT_EQ(urma_post_jetty_send_wr(a, &wr, &bad), URMA_SUCCESS);
    urma_cr_t c = wait_cr(scq_);
    EXPECT_EQ(c.status, URMA_CR_SUCCESS);
    EXPECT_EQ(c.user_ctx, 3u);
    EXPECT_EQ(std::memcmp(dst.buf + 6000, src.buf, 512), 0);

    // No RQE left on B: a SEND to B waits (RNR), the RQE posted then
    // takes it.
    ASSERT_EQ(send(a, tb, src, 0, 64, 4), URMA_SUCCESS);
    EXPECT_TRUE(stays_empty(scq_, 20));
    ASSERT_EQ(recv_on(b, dst, 0, 64, 102), URMA_SUCCESS);
    c = wait_cr(scq_);
    EXPECT_EQ(c.status, URMA_CR_SUCCESS);
    EXPECT_EQ(c.user_ctx, 4u);
    EXPECT_EQ(wait_cr(rcq_).user_ctx, 102u);
}

TEST_F(DpJetty, FlushJetty)
{
    urma_jetty_t *a = jetty(URMA_TM_RM, jfr_);
    urma_jetty_t *b = jetty(URMA_TM_RM, jfr_b_);
    ASSERT_NE(a, nullptr);
    ASSERT_NE(b, nullptr);
    urma_target_jetty_t *tb = import(b, URMA_TM_RM);
    ASSERT_NE(tb, nullptr);
    Region &src = region(4096);
    urma_cr_t fl[8];

    errno = 0;
    EXPECT_EQ(urma_flush_jetty(a, 8, fl), -1);
    EXPECT_EQ(errno, EINVAL);
    ASSERT_EQ(ub_itest::jetty_set_state(a, URMA_JETTY_STATE_ERROR), URMA_SUCCESS);
    EXPECT_EQ(ub_itest::jetty_state(a), URMA_JETTY_STATE_ERROR);
    urma_cr_t c = wait_cr(scq_);
    EXPECT_EQ(c.status, URMA_CR_WR_FLUSH_ERR_DONE);
    EXPECT_EQ(c.local_id, a->jetty_id.id);
    for (uint64_t i = 0; i < 5; i++)
        ASSERT_EQ(send(a, tb, src, 0, 64, 50 + i), URMA_SUCCESS);
    EXPECT_TRUE(stays_empty(scq_, 100));
    ASSERT_EQ(urma_flush_jetty(a, 3, fl), 3);
    ASSERT_EQ(urma_flush_jetty(a, 8, fl + 3), 2);
    for (int i = 0; i < 5; i++) {
        EXPECT_EQ(fl[i].status, URMA_CR_WR_UNHANDLED);
        EXPECT_EQ(fl[i].user_ctx, 50u + static_cast<uint64_t>(i));
        EXPECT_EQ(fl[i].local_id, a->jetty_id.id);
        EXPECT_EQ(fl[i].flag.bs.jetty, 1u);
    }
    EXPECT_EQ(urma_flush_jetty(a, 8, fl), 0);
    EXPECT_TRUE(stays_empty(rcq_, 1));

    // SUSPENDED (on B): flush works there too; READY resumes.
    ASSERT_EQ(ub_itest::jetty_set_state(b, URMA_JETTY_STATE_SUSPENDED), URMA_SUCCESS);
    c = wait_cr(scq_);
    EXPECT_EQ(c.status, URMA_CR_WR_SUSPEND_DONE);
    EXPECT_EQ(urma_flush_jetty(b, 8, fl), 0);
    ASSERT_EQ(ub_itest::jetty_set_state(b, URMA_JETTY_STATE_READY), URMA_SUCCESS);
    errno = 0;
    EXPECT_EQ(urma_flush_jetty(b, 8, fl), -1);
    EXPECT_EQ(errno, EINVAL);
}

TEST_F(DpJetty, RcBindAndUnbind)
{
    urma_jetty_t *rc = jetty(URMA_TM_RC, jfr_);
    urma_jetty_t *peer = jetty(URMA_TM_RC, jfr_b_);
    urma_jetty_t *rm = jetty(URMA_TM_RM, jfr_);
    ASSERT_NE(rc, nullptr);
    ASSERT_NE(peer, nullptr);
    ASSERT_NE(rm, nullptr);
    urma_target_jetty_t *tpeer = import(peer, URMA_TM_RC);
    ASSERT_NE(tpeer, nullptr);
    // The peer checks the mode at import time (connection manager):
    // an RC jetty imported as RM is refused with EPROTOTYPE.
    errno = 0;
    EXPECT_EQ(try_import(peer, URMA_TM_RM), nullptr);
    EXPECT_EQ(errno, EPROTOTYPE);
    // An RM import (of the RM jetty) cannot be bound to an RC jetty.
    urma_target_jetty_t *tpeer_rm = import(rm, URMA_TM_RM);
    ASSERT_NE(tpeer_rm, nullptr);
    Region &src = region(4096);
    Region &dst = region(4096);
    ub_itest::fill(src.buf, 4096, 21);
    std::memset(dst.buf, 0xee, 4096);
    ASSERT_EQ(urma_recv(jfr_b_, dst.reg, dst.va(), 4096, 200), URMA_SUCCESS);

    // Unbound: RC sends to no one.
    ASSERT_EQ(send(rc, tpeer, src, 0, 64, 1), URMA_SUCCESS);
    urma_cr_t c = wait_cr(scq_);
    EXPECT_EQ(c.status, URMA_CR_LOC_OPERATION_ERR);
    EXPECT_EQ(c.user_ctx, 1u);
    EXPECT_EQ(ub_itest::jetty_state(rc), URMA_JETTY_STATE_READY);
    EXPECT_EQ(urma_unbind_jetty(rc), URMA_EINVAL);

    // Bind errors.
    EXPECT_EQ(urma_bind_jetty(rm, tpeer), URMA_EINVAL);
    EXPECT_EQ(urma_bind_jetty(rc, tpeer_rm), URMA_EINVAL);
    EXPECT_EQ(urma_bind_jetty(rc, tjfr_), URMA_EINVAL);
    ASSERT_EQ(urma_bind_jetty(rc, tpeer), URMA_SUCCESS);
    EXPECT_EQ(rc->remote_jetty, tpeer);
    EXPECT_EQ(urma_bind_jetty(rc, tpeer), URMA_EEXIST);
    EXPECT_EQ(urma_unimport_jetty(tpeer), EBUSY);

    // Bound: the WR names no target and reaches the peer.
    ASSERT_EQ(send(rc, nullptr, src, 0, 300, 2), URMA_SUCCESS);
    c = wait_cr(scq_);
    EXPECT_EQ(c.status, URMA_CR_SUCCESS);
    EXPECT_EQ(c.user_ctx, 2u);
    urma_cr_t r = wait_cr(rcq_);
    EXPECT_EQ(r.status, URMA_CR_SUCCESS);
    EXPECT_EQ(r.user_ctx, 200u);
    EXPECT_EQ(r.completion_len, 300u);
    EXPECT_EQ(r.local_id, peer->jetty_id.id);
    EXPECT_EQ(r.remote_id.id, rc->jetty_id.id);
    EXPECT_EQ(std::memcmp(dst.buf, src.buf, 300), 0);

    // Unbound again: sends fail, the target can go.
    ASSERT_EQ(urma_unbind_jetty(rc), URMA_SUCCESS);
    EXPECT_EQ(rc->remote_jetty, nullptr);
    ASSERT_EQ(send(rc, nullptr, src, 0, 64, 3), URMA_SUCCESS);
    c = wait_cr(scq_);
    EXPECT_EQ(c.status, URMA_CR_LOC_OPERATION_ERR);
    EXPECT_EQ(c.user_ctx, 3u);
    EXPECT_TRUE(stays_empty(rcq_, 50));

    // Deleting a bound jetty releases its target.
    ASSERT_EQ(urma_bind_jetty(rc, tpeer), URMA_SUCCESS);
    EXPECT_EQ(urma_unimport_jetty(tpeer), EBUSY);
    forget(rc);
    ASSERT_EQ(urma_delete_jetty(rc), URMA_SUCCESS);
    EXPECT_EQ(urma_unimport_jetty(tpeer), URMA_SUCCESS);
    forget_import(tpeer);
    EXPECT_EQ(ub_itest::obj_count("tjetty"), 1);
}

TEST_F(DpJetty, CqOverflowMovesJettyToError)
{
    uint32_t d = 0;
    urma_jetty_t *a = overflow_cq([this](urma_jfc_t *c, uint32_t depth) { return jetty(URMA_TM_RM, jfr_, c, depth); },
                                  urma_post_jetty_send_wr, ub_itest::jetty_state, URMA_EVENT_JETTY_ERR, 2, nullptr, &d);
    ASSERT_NE(a, nullptr);
    ASSERT_FALSE(HasFailure());
    std::vector<urma_cr_t> fl(2 * d);
    ASSERT_EQ(urma_flush_jetty(a, static_cast<int>(fl.size()), fl.data()), static_cast<int>(d - 1));
    EXPECT_EQ(fl[0].user_ctx, d + 1u);
}

}  // namespace
