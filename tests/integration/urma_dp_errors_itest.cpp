// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The UB/URMA stack authors
// The data path's error paths that protect the kernel and other processes:
// local SGEs the queue's context may not use, a CQE that does not fit (the
// queue goes to ERROR), a corrupt SQ producer index and an out-of-range CQ
// consumer index written into the shared rings, the RESET state, RNR waits
// ended by destroy or ERROR, and a rearm with CQEs unread.
//
// Expectations (include/uapi/ub/udma_abi.h, urma_opcode.h, the rules at
// the top of udma/sq.c and udma/cq.c):
//  - a local SGE of a segment of another context, or a range no segment
//    of the context covers: URMA_CR_LOC_ACCESS_ERR and no byte moves;
//  - a CQE that does not fit: URMA_EVENT_JFC_ERR, then the queue goes to
//    ERROR with URMA_EVENT_JFS_ERR; the WQEs it had not taken come back
//    from urma_flush_jfs as URMA_CR_WR_UNHANDLED;
//  - SQ pi more than the depth ahead of ci: JFS_ERR, ERROR, one
//    URMA_CR_WR_FLUSH_ERR_DONE, flush fails with EIO; CQ ci outside
//    [pi - depth, pi]: the CQ is full (JFC_ERR), nothing is written;
//  - ERROR -> RESET drops the WQEs not taken, without completions;
//  - a WQE waiting for RNR: destroy drops it (no CQE, no hang), ERROR
//    completes it with URMA_CR_WR_FLUSH_ERR before WR_FLUSH_ERR_DONE;
//  - a plain rearm while CQEs are unread fires at once.
#include "dp_extra.h"

namespace {

using ub_itest::DpOwnTest;
using ub_itest::Region;

class DpErrors : public DpOwnTest {
protected:
    void TearDown() override
    {
        if (ctx2_ != nullptr) {
            if (reg2_ != nullptr) {
                EXPECT_EQ(urma_unregister_seg(reg2_), URMA_SUCCESS);
            }
            EXPECT_EQ(urma_delete_context(ctx2_), URMA_SUCCESS);
        }
        if (buf2_ != nullptr)
            munmap(buf2_, 4096);
        DpOwnTest::TearDown();
    }

    // A second context of this process with one registered page, filled
    // with 0x5a.
    void second_context()
    {
        ctx2_ = ub_itest::open_ctx();
        ASSERT_NE(ctx2_, nullptr);
        void *p = mmap(nullptr, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        ASSERT_NE(p, MAP_FAILED);
        buf2_ = static_cast<uint8_t *>(p);
        std::memset(buf2_, 0x5a, 4096);
        urma_seg_cfg_t sc = ub_itest::seg_cfg(buf2_, 4096, ub_itest::kAllAccess);
        reg2_ = urma_register_seg(ctx2_, &sc);
        ASSERT_NE(reg2_, nullptr);
    }

    urma_status_t write_sge(urma_sge_t src, Region &dst, uint64_t user_ctx)
    {
        urma_sge_t d = {dst.va(), src.len, dst.imp, nullptr};
        urma_jfs_wr_t wr = {};
        wr.opcode = URMA_OPC_WRITE;
        wr.flag = signaled();
        wr.tjetty = tjfr_;
        wr.user_ctx = user_ctx;
        wr.rw.src = {&src, 1};
        wr.rw.dst = {&d, 1};
        urma_jfs_wr_t *bad = nullptr;
        return urma_post_jfs_wr(jfs_, &wr, &bad);
    }

    void expect_cr(urma_jfc_t *jfc, urma_cr_status_t status, uint64_t user_ctx)
    {
        urma_cr_t c = wait_cr(jfc);
        EXPECT_EQ(c.status, status) << "user_ctx " << user_ctx;
        EXPECT_EQ(c.user_ctx, user_ctx);
    }

    urma_context_t *ctx2_ = nullptr;
    urma_target_seg_t *reg2_ = nullptr;
    uint8_t *buf2_ = nullptr;
};

// The security check of udma_sq_get_local(): a process uses the memory
// its context registered, nothing else, even with a valid token ID.
TEST_F(DpErrors, LocalSgeOfAnotherContext)
{
    second_context();
    Region &mine = region(4096);
    ASSERT_NE(mine.imp, nullptr);
    std::memset(mine.buf, 0xee, 4096);

    // WRITE from the other context's memory into ours.
    urma_sge_t foreign = {reinterpret_cast<uintptr_t>(buf2_), 256, reg2_, nullptr};
    ASSERT_EQ(write_sge(foreign, mine, 1), URMA_SUCCESS);
    expect_cr(scq_, URMA_CR_LOC_ACCESS_ERR, 1);
    EXPECT_EQ(ub_itest::first_not(mine.buf, 4096, 0xee), 4096u);

    // READ of our memory into the other context's.
    urma_sge_t remote = {mine.va(), 256, mine.imp, nullptr};
    urma_jfs_wr_t wr = {};
    wr.opcode = URMA_OPC_READ;
    wr.flag = signaled();
    wr.tjetty = tjfr_;
    wr.user_ctx = 2;
    wr.rw.src = {&remote, 1};
    wr.rw.dst = {&foreign, 1};
    urma_jfs_wr_t *bad = nullptr;
    ASSERT_EQ(urma_post_jfs_wr(jfs_, &wr, &bad), URMA_SUCCESS);
    expect_cr(scq_, URMA_CR_LOC_ACCESS_ERR, 2);
    EXPECT_EQ(ub_itest::first_not(buf2_, 4096, 0x5a), 4096u);

    // SEND of the other context's memory: no RQE is taken.
    Region &rbuf = region(4096);
    std::memset(rbuf.buf, 0xee, 4096);
    ASSERT_EQ(recv(rbuf, 0, 4096, 30), URMA_SUCCESS);
    ASSERT_EQ(urma_send(jfs_, tjfr_, reg2_, reinterpret_cast<uintptr_t>(buf2_), 128, signaled(), 3),
              URMA_SUCCESS);
    expect_cr(scq_, URMA_CR_LOC_ACCESS_ERR, 3);
    EXPECT_TRUE(stays_empty(rcq_, 100));
    EXPECT_EQ(ub_itest::first_not(rbuf.buf, 4096, 0xee), 4096u);

    // The same WRITE from our own memory works (the path is not broken).
    Region &src = region(4096);
    std::memset(src.buf, 0x11, 4096);
    ASSERT_EQ(write_sge(sge(src, 0, 256, false), mine, 4), URMA_SUCCESS);
    expect_cr(scq_, URMA_CR_SUCCESS, 4);
    EXPECT_EQ(ub_itest::first_not(mine.buf, 256, 0x11), 256u);
}

// Ranges no registered segment of the context covers.
TEST_F(DpErrors, LocalSgeOutsideRegisteredMemory)
{
    Region &src = region(4096);
    Region &dst = region(4096);
    ASSERT_NE(dst.imp, nullptr);
    std::memset(src.buf, 0x33, 4096);
    std::memset(dst.buf, 0xee, 4096);

    // Past the end of the segment (one page registered).
    ASSERT_EQ(write_sge({src.va(4096 - 64), 128, src.reg, nullptr}, dst, 1), URMA_SUCCESS);
    expect_cr(scq_, URMA_CR_LOC_ACCESS_ERR, 1);
    // Before its start.
    ASSERT_EQ(write_sge({src.va() - 64, 128, src.reg, nullptr}, dst, 2), URMA_SUCCESS);
    expect_cr(scq_, URMA_CR_LOC_ACCESS_ERR, 2);
    // Unregistered memory under the token ID of a segment.
    void *p = mmap(nullptr, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    ASSERT_NE(p, MAP_FAILED);
    std::memset(p, 0x44, 4096);
    ASSERT_EQ(write_sge({reinterpret_cast<uintptr_t>(p), 64, src.reg, nullptr}, dst, 3), URMA_SUCCESS);
    expect_cr(scq_, URMA_CR_LOC_ACCESS_ERR, 3);
    // A segment unregistered after the WR was written (its token ID is
    // gone): a copy of the descriptor.
    Region &gone = region(4096);
    urma_target_seg_t stale = *gone.reg;
    ASSERT_EQ(urma_unregister_seg(gone.reg), URMA_SUCCESS);
    gone.reg = nullptr;
    ASSERT_EQ(write_sge({gone.va(), 64, &stale, nullptr}, dst, 4), URMA_SUCCESS);
    expect_cr(scq_, URMA_CR_LOC_ACCESS_ERR, 4);
    munmap(p, 4096);

    EXPECT_EQ(ub_itest::first_not(dst.buf, 4096, 0xee), 4096u);
    EXPECT_EQ(ub_itest::jfs_state(jfs_), URMA_JETTY_STATE_READY);
}

// A full JFC is fatal to the queue that cannot complete: JFC_ERR, then
// JFS_ERR and ERROR; what it had not taken stays for flush.
TEST_F(DpErrors, CqOverflowMovesJfsToError)
{
    urma_jfc_t *jfc = nullptr;
    uint32_t d = 0;
    urma_jfs_t *jfs = overflow_cq([this](urma_jfc_t *c, uint32_t depth) { return make_jfs(c, depth); },
                                  urma_post_jfs_wr, ub_itest::jfs_state, URMA_EVENT_JFS_ERR, 3, &jfc, &d);
    ASSERT_NE(jfs, nullptr);
    ASSERT_FALSE(HasFailure());
    // d CQEs fit (checked above); WQE d completed without one; d+1 .. 3d-1
    // are not taken.
    std::vector<urma_cr_t> fl(3 * d);
    int n = urma_flush_jfs(jfs, static_cast<int>(fl.size()), fl.data());
    ASSERT_EQ(n, static_cast<int>(2 * d - 1)) << std::strerror(errno);
    for (int i = 0; i < n; i++) {
        EXPECT_EQ(fl[i].status, URMA_CR_WR_UNHANDLED);
        EXPECT_EQ(fl[i].user_ctx, d + 1 + static_cast<uint64_t>(i));
        EXPECT_EQ(fl[i].local_id, jfs->jfs_id.id);
    }
    // Nothing more runs: a NOP posted now is flushed, not executed.
    auto one = ub_itest::nop_chain(1, 500);
    urma_jfs_wr_t *bad = nullptr;
    ASSERT_EQ(urma_post_jfs_wr(jfs, one.data(), &bad), URMA_SUCCESS);
    EXPECT_TRUE(stays_empty(jfc, 100));
    ASSERT_EQ(urma_flush_jfs(jfs, 4, fl.data()), 1);
    EXPECT_EQ(fl[0].user_ctx, 500u);
    EXPECT_EQ(ub_itest::next_async_event(ctx_, 0).type, -1);
}

// A producer index written past the ring into the shared page.
TEST_F(DpErrors, CorruptSqProducerIndex)
{
    urma_jfs_t *jfs = make_jfs(scq_, 16);
    ASSERT_NE(jfs, nullptr);
    urma::RingMapping &ring = ub_itest::sq_ring(jfs);
    const uint32_t cnt = ring.entry_cnt();
    auto wr = ub_itest::nop_chain(2, 0);
    urma_jfs_wr_t *bad = nullptr;
    ASSERT_EQ(urma_post_jfs_wr(jfs, wr.data(), &bad), URMA_SUCCESS);
    expect_cr(scq_, URMA_CR_SUCCESS, 0);
    expect_cr(scq_, URMA_CR_SUCCESS, 1);
    ASSERT_EQ(urma::load_acquire(&ring.ctrl()->ci), 2u);

    urma::store_release(&ring.ctrl()->pi, 2 + cnt + 1);
    ASSERT_EQ(ub_itest::raw_doorbell(ctx_, jfs->handle), 0);
    ub_itest::expect_async(ctx_, URMA_EVENT_JFS_ERR, jfs);
    EXPECT_EQ(ub_itest::jfs_state(jfs), URMA_JETTY_STATE_ERROR);
    urma_cr_t c = wait_cr(scq_);
    EXPECT_EQ(c.status, URMA_CR_WR_FLUSH_ERR_DONE);
    EXPECT_EQ(c.user_ctx, 0u);
    EXPECT_TRUE(stays_empty(scq_, 100));
    EXPECT_EQ(urma::load_acquire(&ring.ctrl()->ci), 2u);
    urma_cr_t fl[4];
    errno = 0;
    EXPECT_EQ(urma_flush_jfs(jfs, 4, fl), -1);
    EXPECT_EQ(errno, EIO);
    // Another queue of the process is unaffected.
    ASSERT_EQ(urma_post_jfs_wr(jfs_, wr.data(), &bad), URMA_SUCCESS);
    expect_cr(scq_, URMA_CR_SUCCESS, 0);
    expect_cr(scq_, URMA_CR_SUCCESS, 1);
    forget_jfs(jfs);
    EXPECT_EQ(urma_delete_jfs(jfs), URMA_SUCCESS);
}

// A consumer index outside [pi - depth, pi] written into the CQ's page:
// the CQ counts as full, nothing is written, the queue goes to ERROR.
TEST_F(DpErrors, CqConsumerIndexOutOfRange)
{
    urma_jfc_t *jfc = own_jfc(8);
    ASSERT_NE(jfc, nullptr);
    urma_jfs_t *jfs = make_jfs(jfc, 16);
    ASSERT_NE(jfs, nullptr);
    urma::RingMapping &cq = ub_itest::cq_ring(jfc);
    ASSERT_EQ(urma::load_acquire(&cq.ctrl()->pi), 0u);

    urma::store_release(&cq.ctrl()->ci, 1000);  // ahead of pi
    auto wr = ub_itest::nop_chain(1, 7);
    urma_jfs_wr_t *bad = nullptr;
    ASSERT_EQ(urma_post_jfs_wr(jfs, wr.data(), &bad), URMA_SUCCESS);
    ub_itest::expect_async(ctx_, URMA_EVENT_JFC_ERR, jfc);
    ub_itest::expect_async(ctx_, URMA_EVENT_JFS_ERR, jfs);
    EXPECT_EQ(urma::load_acquire(&cq.ctrl()->pi), 0u);
    auto *first = static_cast<const udma_cqe *>(cq.entry(0));
    EXPECT_EQ(first->owner, 0u) << "a CQE was written";
    urma::store_release(&cq.ctrl()->ci, 0);
    EXPECT_TRUE(stays_empty(jfc, 100));
    EXPECT_EQ(ub_itest::jfs_state(jfs), URMA_JETTY_STATE_ERROR);
}

// ERROR -> RESET drops what was posted and not taken; READY works again.
TEST_F(DpErrors, ResetDropsPostedWork)
{
    Region &src = region(4096);
    Region &dst = region(4096);
    ASSERT_NE(dst.imp, nullptr);
    std::memset(src.buf, 0x21, 4096);
    std::memset(dst.buf, 0xee, 4096);
    urma_jfs_t *jfs = make_jfs(scq_, 16);
    ASSERT_NE(jfs, nullptr);
    urma::RingMapping &ring = ub_itest::sq_ring(jfs);
    urma_cr_t fl[8];

    // RESET only from ERROR.
    EXPECT_NE(ub_itest::jfs_set_state(jfs, URMA_JETTY_STATE_RESET), URMA_SUCCESS);
    ASSERT_EQ(ub_itest::jfs_set_state(jfs, URMA_JETTY_STATE_ERROR), URMA_SUCCESS);
    expect_cr(scq_, URMA_CR_WR_FLUSH_ERR_DONE, 0);
    for (uint64_t i = 0; i < 4; i++)
        ASSERT_EQ(urma_write(jfs, tjfr_, dst.imp, src.reg, dst.va(64 * i), src.va(64 * i), 64, signaled(), 10 + i),
                  URMA_SUCCESS);
    EXPECT_EQ(urma::load_acquire(&ring.ctrl()->ci), 0u);

    ASSERT_EQ(ub_itest::jfs_set_state(jfs, URMA_JETTY_STATE_RESET), URMA_SUCCESS);
    EXPECT_EQ(ub_itest::jfs_state(jfs), URMA_JETTY_STATE_RESET);
    EXPECT_EQ(urma::load_acquire(&ring.ctrl()->ci), 4u);
    errno = 0;
    EXPECT_EQ(urma_flush_jfs(jfs, 8, fl), -1);
    EXPECT_EQ(errno, EINVAL);
    EXPECT_NE(ub_itest::jfs_set_state(jfs, URMA_JETTY_STATE_SUSPENDED), URMA_SUCCESS);

    ASSERT_EQ(ub_itest::jfs_set_state(jfs, URMA_JETTY_STATE_READY), URMA_SUCCESS);
    EXPECT_TRUE(stays_empty(scq_, 200));
    EXPECT_EQ(ub_itest::first_not(dst.buf, 4096, 0xee), 4096u);
    ASSERT_EQ(urma_write(jfs, tjfr_, dst.imp, src.reg, dst.va(1024), src.va(), 64, signaled(), 20), URMA_SUCCESS);
    expect_cr(scq_, URMA_CR_SUCCESS, 20);
    EXPECT_EQ(ub_itest::first_not(dst.buf, 1024, 0xee), 1024u);
    EXPECT_EQ(ub_itest::first_not(dst.buf + 1024, 64, 0x21), 64u);
    EXPECT_EQ(urma::load_acquire(&ring.ctrl()->ci), 5u);
}

// A SEND waiting for an RQE (RNR, 7 retries backing off to 64 ms): the
// sender is deleted meanwhile. No CQE, no hang, and an RQE posted later
// is not taken by the dead WQE.
TEST_F(DpErrors, RnrWaitThenDestroy)
{
    Region &src = region(4096);
    Region &dst = region(4096);
    ub_itest::fill(src.buf, 4096, 3);
    urma_jfs_t *jfs = make_jfs(scq_, 16, 7);
    ASSERT_NE(jfs, nullptr);
    const volatile uint32_t *wanted = &ub_itest::rq_ring(jfr_).ctrl()->db_wanted;
    ASSERT_EQ(urma_send(jfs, tjfr_, src.reg, src.va(), 256, signaled(), 1), URMA_SUCCESS);
    ASSERT_TRUE(ub_itest::wait_for([&] { return *wanted == 1u; }, 5000));
    const uint64_t t0 = ub_itest::now_ms();
    forget_jfs(jfs);
    EXPECT_EQ(urma_delete_jfs(jfs), URMA_SUCCESS);
    EXPECT_LT(ub_itest::now_ms() - t0, 2000u);
    std::memset(dst.buf, 0xee, 4096);
    ASSERT_EQ(recv(dst, 0, 4096, 2), URMA_SUCCESS);
    EXPECT_TRUE(stays_empty(scq_, 300));
    EXPECT_TRUE(stays_empty(rcq_, 1));
    EXPECT_EQ(ub_itest::first_not(dst.buf, 4096, 0xee), 4096u);
    // The RQE is still there for the next sender.
    ASSERT_EQ(urma_send(jfs_, tjfr_, src.reg, src.va(), 256, signaled(), 3), URMA_SUCCESS);
    expect_cr(scq_, URMA_CR_SUCCESS, 3);
    urma_cr_t r = wait_cr(rcq_);
    EXPECT_EQ(r.status, URMA_CR_SUCCESS);
    EXPECT_EQ(r.user_ctx, 2u);
    EXPECT_EQ(std::memcmp(dst.buf, src.buf, 256), 0);
}

// The same wait ended by ERROR: the waiting WQE completes with
// WR_FLUSH_ERR, then WR_FLUSH_ERR_DONE; it is never delivered.
TEST_F(DpErrors, RnrWaitThenError)
{
    Region &src = region(4096);
    Region &dst = region(4096);
    urma_jfs_t *jfs = make_jfs(scq_, 16, 7);
    ASSERT_NE(jfs, nullptr);
    const volatile uint32_t *wanted = &ub_itest::rq_ring(jfr_).ctrl()->db_wanted;
    ASSERT_EQ(urma_send(jfs, tjfr_, src.reg, src.va(), 256, signaled(), 5), URMA_SUCCESS);
    ASSERT_TRUE(ub_itest::wait_for([&] { return *wanted == 1u; }, 5000));
    const uint64_t t0 = ub_itest::now_ms();
    ASSERT_EQ(ub_itest::jfs_set_state(jfs, URMA_JETTY_STATE_ERROR), URMA_SUCCESS);
    expect_cr(scq_, URMA_CR_WR_FLUSH_ERR, 5);
    expect_cr(scq_, URMA_CR_WR_FLUSH_ERR_DONE, 0);
    EXPECT_LT(ub_itest::now_ms() - t0, 2000u);
    std::memset(dst.buf, 0xee, 4096);
    ASSERT_EQ(recv(dst, 0, 4096, 6), URMA_SUCCESS);
    EXPECT_TRUE(stays_empty(rcq_, 300));
    EXPECT_TRUE(stays_empty(scq_, 1));
    EXPECT_EQ(ub_itest::first_not(dst.buf, 4096, 0xee), 4096u);
}

// A plain rearm with a CQE in the ring the owner has not polled fires the
// JFCE at once; once the CQ is drained a rearm waits for the next CQE.
TEST_F(DpErrors, RearmWithUnreadCqesFiresAtOnce)
{
    urma_jfce_t *ce = own_jfce();
    ASSERT_NE(ce, nullptr);
    urma_jfc_t *jfc = own_jfc(16, ce);
    ASSERT_NE(jfc, nullptr);
    urma_jfs_t *jfs = make_jfs(jfc, 16);
    ASSERT_NE(jfs, nullptr);
    urma::RingMapping &cq = ub_itest::cq_ring(jfc);
    urma_jfc_t *out[1] = {};
    uint32_t one = 1;

    auto wr = ub_itest::nop_chain(1, 1);
    urma_jfs_wr_t *bad = nullptr;
    ASSERT_EQ(urma_post_jfs_wr(jfs, wr.data(), &bad), URMA_SUCCESS);
    ASSERT_TRUE(ub_itest::wait_for([&] { return urma::load_acquire(&cq.ctrl()->pi) == 1u; }, 5000));
    ASSERT_EQ(urma_rearm_jfc(jfc, false), URMA_SUCCESS);
    ASSERT_EQ(urma_wait_jfc(ce, 1, 0, out), 1) << "the rearm did not fire";
    EXPECT_EQ(out[0], jfc);
    urma_ack_jfc(out, &one, 1);

    // Drained: the arm waits, and the next CQE fires it.
    urma_cr_t cr;
    ASSERT_EQ(urma_poll_jfc(jfc, 1, &cr), 1);
    EXPECT_EQ(cr.user_ctx, 1u);
    ASSERT_EQ(urma_rearm_jfc(jfc, false), URMA_SUCCESS);
    EXPECT_EQ(urma_wait_jfc(ce, 1, 200, out), 0);
    auto wr2 = ub_itest::nop_chain(1, 2);
    ASSERT_EQ(urma_post_jfs_wr(jfs, wr2.data(), &bad), URMA_SUCCESS);
    ASSERT_EQ(urma_wait_jfc(ce, 1, 10000, out), 1);
    EXPECT_EQ(out[0], jfc);
    urma_ack_jfc(out, &one, 1);
    ASSERT_EQ(urma_poll_jfc(jfc, 1, &cr), 1);
    EXPECT_EQ(cr.user_ctx, 2u);

}

}  // namespace
