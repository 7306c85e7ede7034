// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The UB/URMA stack authors
// liburma's data path without a kernel: each opcode's SQE fields, RQEs,
// CQE decoding, and the ring logic (full queue, wrap, owner bit, flush
// records) on memfd-backed rings standing in for the mapped ones.
#include <gtest/gtest.h>

#include <sys/mman.h>
#include <unistd.h>

#include <cstring>
#include <vector>

#include <ub/ubagg_topo.h>
#include <ub/ubcore_opcode.h>

#include "datapath.h"
#include "target.h"
#include "urma_api.h"
#include "wqe.h"

namespace {

size_t page()
{
    return static_cast<size_t>(sysconf(_SC_PAGESIZE));
}

udma_ring_info ring_info(uint32_t cnt, uint32_t size)
{
    udma_ring_info info = {};
    info.entry_cnt = cnt;
    info.entry_size = size;
    uint64_t bytes = page() + static_cast<uint64_t>(cnt) * size;
    info.mmap_len = (bytes + page() - 1) / page() * page();
    return info;
}

// Fake objects: a registered segment (token_id set), an imported one
// (index 7) and an imported JFR (index 9).
class Encode : public ::testing::Test {
protected:
    void SetUp() override
    {
        local_.pub.seg.token_id = 0x1234;
        local_.pub.token_id = &tid_;
        local_.target_idx = 0;
        remote_.pub.seg.token_id = 0x5678;
        remote_.pub.token_id = nullptr;
        remote_.target_idx = 7;
        tjfr_.target_idx = 9;
        tjfr_.pub.type = URMA_JFR;
        lim_ = {4, 64, false};
    }
    urma_sge_t lsge(uint64_t addr, uint32_t len) { return {addr, len, &local_.pub, nullptr}; }
    urma_sge_t rsge(uint64_t addr, uint32_t len) { return {addr, len, &remote_.pub, nullptr}; }
    urma_jfs_wr_t wr(urma_opcode_t op)
    {
        urma_jfs_wr_t w = {};
        w.opcode = op;
        w.tjetty = &tjfr_.pub;
        w.user_ctx = 0xfeedbeef;
        w.flag.bs.complete_enable = 1;
        return w;
    }

    urma_token_id_t tid_ = {};
    urma::TargetSegImpl local_ = {};
    urma::TargetSegImpl remote_ = {};
    urma::TargetJettyImpl tjfr_ = {};
    urma::SqLimits lim_ = {};
    udma_sqe sqe_ = {};
};

TEST_F(Encode, SqeLayoutIsTheAbi)
{
    EXPECT_EQ(sizeof(udma_sqe), static_cast<size_t>(UDMA_SQE_SIZE));
    EXPECT_EQ(offsetof(udma_sqe, sge), static_cast<size_t>(UDMA_SQE_HDR_SIZE));
    EXPECT_EQ(sizeof(udma_rqe), static_cast<size_t>(UDMA_RQE_SIZE));
    EXPECT_EQ(sizeof(udma_cqe), static_cast<size_t>(UDMA_CQE_SIZE));
}

TEST_F(Encode, WriteGathersLocalSgesToOneRemoteRange)
{
    urma_sge_t src[2] = {lsge(0x1000, 100), lsge(0x2000, 28)};
    urma_sge_t dst = rsge(0x9000, 128);
    urma_jfs_wr_t w = wr(URMA_OPC_WRITE);
    w.flag.bs.solicited_enable = 1;
    w.flag.bs.fence = 1;
    w.rw.src = {src, 2};
    w.rw.dst = {&dst, 1};
    ASSERT_EQ(urma::encode_sqe(w, lim_, &sqe_), URMA_SUCCESS);
    EXPECT_EQ(sqe_.opcode, URMA_OPC_WRITE);
    EXPECT_EQ(sqe_.flags, UDMA_SQE_F_COMPLETE | UDMA_SQE_F_SOLICITED | UDMA_SQE_F_FENCE);
    EXPECT_EQ(sqe_.num_sge, 2);
    EXPECT_EQ(sqe_.user_ctx, 0xfeedbeefu);
    EXPECT_EQ(sqe_.target_idx, 9u);
    EXPECT_EQ(sqe_.rseg_idx, 7u);
    EXPECT_EQ(sqe_.remote_va, 0x9000u);
    EXPECT_EQ(sqe_.remote_len, 128u);
    EXPECT_EQ(sqe_.sge[0].va, 0x1000u);
    EXPECT_EQ(sqe_.sge[0].len, 100u);
    EXPECT_EQ(sqe_.sge[0].token_id, 0x1234u);
    EXPECT_EQ(sqe_.sge[1].va, 0x2000u);
    EXPECT_EQ(sqe_.sge[1].len, 28u);
}

TEST_F(Encode, WriteImmCarriesData)
{
    urma_sge_t src = lsge(0x1000, 8);
    urma_sge_t dst = rsge(0x9000, 8);
    urma_jfs_wr_t w = wr(URMA_OPC_WRITE_IMM);
    w.rw.src = {&src, 1};
    w.rw.dst = {&dst, 1};
    w.rw.notify_data = 0xabcdef0123456789ull;
    ASSERT_EQ(urma::encode_sqe(w, lim_, &sqe_), URMA_SUCCESS);
    EXPECT_EQ(sqe_.opcode, URMA_OPC_WRITE_IMM);
    EXPECT_EQ(sqe_.data, 0xabcdef0123456789ull);
    EXPECT_EQ(sqe_.notify_rseg_idx, 0u);
    EXPECT_EQ(sqe_.notify_va, 0u);
}

// WRITE_NOTIFY: dst.sge[0] is the data range, dst.sge[1] the notify word,
// here in another imported segment (index 8).
TEST_F(Encode, WriteNotifyNamesTheNotifyWord)
{
    urma::TargetSegImpl other = {};
    other.pub.seg.token_id = 0x9abc;
    other.target_idx = 8;
    urma_sge_t src = lsge(0x1000, 100);
    urma_sge_t dst[2] = {rsge(0x9000, 100), {0x7008, 8, &other.pub, nullptr}};
    urma_jfs_wr_t w = wr(URMA_OPC_WRITE_NOTIFY);
    w.rw.src = {&src, 1};
    w.rw.dst = {dst, 2};
    w.rw.notify_data = 0x1122334455667788ull;
    ASSERT_EQ(urma::encode_sqe(w, lim_, &sqe_), URMA_SUCCESS);
    EXPECT_EQ(sqe_.opcode, URMA_OPC_WRITE_NOTIFY);
    EXPECT_EQ(sqe_.data, 0x1122334455667788ull);
    EXPECT_EQ(sqe_.rseg_idx, 7u);
    EXPECT_EQ(sqe_.remote_va, 0x9000u);
    EXPECT_EQ(sqe_.remote_len, 100u);
    EXPECT_EQ(sqe_.notify_rseg_idx, 8u);
    EXPECT_EQ(sqe_.notify_va, 0x7008u);
    EXPECT_EQ(sqe_.num_sge, 1);
    EXPECT_EQ(sqe_.target_idx, 9u);
    // The same segment for both.
    dst[1] = rsge(0x9100, 8);
    ASSERT_EQ(urma::encode_sqe(w, lim_, &sqe_), URMA_SUCCESS);
    EXPECT_EQ(sqe_.notify_rseg_idx, 7u);
    EXPECT_EQ(sqe_.notify_va, 0x9100u);

    // Not two remote SGEs, a notify word that is not 8 bytes or not in an
    // imported segment.
    w.rw.dst = {dst, 1};
    EXPECT_EQ(urma::encode_sqe(w, lim_, &sqe_), URMA_EINVAL);
    urma_sge_t three[3] = {dst[0], dst[1], dst[1]};
    w.rw.dst = {three, 3};
    EXPECT_EQ(urma::encode_sqe(w, lim_, &sqe_), URMA_EINVAL);
    w.rw.dst = {nullptr, 2};
    EXPECT_EQ(urma::encode_sqe(w, lim_, &sqe_), URMA_EINVAL);
    w.rw.dst = {dst, 2};
    dst[1].len = 4;
    EXPECT_EQ(urma::encode_sqe(w, lim_, &sqe_), URMA_EINVAL);
    dst[1] = lsge(0x1008, 8);
    EXPECT_EQ(urma::encode_sqe(w, lim_, &sqe_), URMA_EINVAL);
    dst[1] = {0x7008, 8, nullptr, nullptr};
    EXPECT_EQ(urma::encode_sqe(w, lim_, &sqe_), URMA_EINVAL);
    // A plain WRITE still takes one remote SGE only.
    dst[1] = rsge(0x9100, 8);
    w.opcode = URMA_OPC_WRITE;
    EXPECT_EQ(urma::encode_sqe(w, lim_, &sqe_), URMA_EINVAL);
}

// WRITE_ATOMIC (UMDK's write with atomic add): WRITE_NOTIFY's shape, the
// notify data is the addend of the word at dst.sge[1].
TEST_F(Encode, WriteAtomicNamesTheWordToAddTo)
{
    urma::TargetSegImpl other = {};
    other.pub.seg.token_id = 0x9abc;
    other.target_idx = 8;
    urma_sge_t src = lsge(0x1000, 100);
    urma_sge_t dst[2] = {rsge(0x9000, 100), {0x7008, 8, &other.pub, nullptr}};
    urma_jfs_wr_t w = wr(URMA_OPC_WRITE_ATOMIC);
    w.rw.src = {&src, 1};
    w.rw.dst = {dst, 2};
    w.rw.notify_data = 5;
    ASSERT_EQ(urma::encode_sqe(w, lim_, &sqe_), URMA_SUCCESS);
    EXPECT_EQ(sqe_.opcode, URMA_OPC_WRITE_ATOMIC);
    EXPECT_EQ(sqe_.opcode, UBCORE_OPC_WRITE_ATOMIC);
    EXPECT_EQ(sqe_.data, 5u);
    EXPECT_EQ(sqe_.rseg_idx, 7u);
    EXPECT_EQ(sqe_.remote_va, 0x9000u);
    EXPECT_EQ(sqe_.remote_len, 100u);
    EXPECT_EQ(sqe_.notify_rseg_idx, 8u);
    EXPECT_EQ(sqe_.notify_va, 0x7008u);
    EXPECT_EQ(sqe_.num_sge, 1);
    EXPECT_EQ(sqe_.sge[0].va, 0x1000u);
    EXPECT_EQ(sqe_.target_idx, 9u);
    // Inline data as for any WRITE.
    uint64_t bytes = 0x0102030405060708ull;
    urma_sge_t isrc = {reinterpret_cast<uint64_t>(&bytes), 8, nullptr, nullptr};
    w.rw.src = {&isrc, 1};
    w.flag.bs.inline_flag = 1;
    ASSERT_EQ(urma::encode_sqe(w, lim_, &sqe_), URMA_SUCCESS);
    EXPECT_EQ(sqe_.flags & UDMA_SQE_F_INLINE, UDMA_SQE_F_INLINE);
    EXPECT_EQ(sqe_.inline_len, 8);
    w.flag.bs.inline_flag = 0;
    w.rw.src = {&src, 1};
    // One remote SGE, or a word that is not 8 bytes of an imported segment.
    w.rw.dst = {dst, 1};
    EXPECT_EQ(urma::encode_sqe(w, lim_, &sqe_), URMA_EINVAL);
    w.rw.dst = {dst, 2};
    dst[1].len = 16;
    EXPECT_EQ(urma::encode_sqe(w, lim_, &sqe_), URMA_EINVAL);
    dst[1] = lsge(0x1008, 8);
    EXPECT_EQ(urma::encode_sqe(w, lim_, &sqe_), URMA_EINVAL);
}

// FLUSH_DMA: one remote range (dst), no local memory.
TEST_F(Encode, FlushDmaNamesARemoteRange)
{
    urma_sge_t dst = rsge(0x9000, 4096);
    urma_jfs_wr_t w = wr(URMA_OPC_FLUSH_DMA);
    w.rw.dst = {&dst, 1};
    ASSERT_EQ(urma::encode_sqe(w, lim_, &sqe_), URMA_SUCCESS);
    EXPECT_EQ(sqe_.opcode, URMA_OPC_FLUSH_DMA);
    EXPECT_EQ(sqe_.opcode, UBCORE_OPC_FLUSH_DMA);
    EXPECT_EQ(sqe_.rseg_idx, 7u);
    EXPECT_EQ(sqe_.remote_va, 0x9000u);
    EXPECT_EQ(sqe_.remote_len, 4096u);
    EXPECT_EQ(sqe_.num_sge, 0);
    EXPECT_EQ(sqe_.flags & UDMA_SQE_F_INLINE, 0);
    EXPECT_EQ(sqe_.target_idx, 9u);
    // Local SGEs or inline, two remote SGEs, a registered segment.
    urma_sge_t src = lsge(0x1000, 8);
    w.rw.src = {&src, 1};
    EXPECT_EQ(urma::encode_sqe(w, lim_, &sqe_), URMA_EINVAL);
    w.rw.src = {nullptr, 0};
    w.flag.bs.inline_flag = 1;
    EXPECT_EQ(urma::encode_sqe(w, lim_, &sqe_), URMA_EINVAL);
    w.flag.bs.inline_flag = 0;
    urma_sge_t two[2] = {dst, dst};
    w.rw.dst = {two, 2};
    EXPECT_EQ(urma::encode_sqe(w, lim_, &sqe_), URMA_EINVAL);
    urma_sge_t reg = lsge(0x9000, 8);
    w.rw.dst = {&reg, 1};
    EXPECT_EQ(urma::encode_sqe(w, lim_, &sqe_), URMA_EINVAL);
}

TEST_F(Encode, ReadScattersRemoteRangeIntoLocalSges)
{
    urma_sge_t remote = rsge(0x9000, 48);
    urma_sge_t local[3] = {lsge(0x1000, 16), lsge(0x2000, 16), lsge(0x3000, 16)};
    urma_jfs_wr_t w = wr(URMA_OPC_READ);
    w.flag.bs.inline_flag = 1;  // meaningless for READ, ignored
    w.rw.src = {&remote, 1};
    w.rw.dst = {local, 3};
    ASSERT_EQ(urma::encode_sqe(w, lim_, &sqe_), URMA_SUCCESS);
    EXPECT_EQ(sqe_.opcode, URMA_OPC_READ);
    EXPECT_EQ(sqe_.flags & UDMA_SQE_F_INLINE, 0);
    EXPECT_EQ(sqe_.num_sge, 3);
    EXPECT_EQ(sqe_.sge[2].va, 0x3000u);
    EXPECT_EQ(sqe_.rseg_idx, 7u);
    EXPECT_EQ(sqe_.remote_va, 0x9000u);
    EXPECT_EQ(sqe_.remote_len, 48u);
}

TEST_F(Encode, SendAndSendImm)
{
    urma_sge_t src = lsge(0x1000, 77);
    urma_jfs_wr_t w = wr(URMA_OPC_SEND_IMM);
    w.send.src = {&src, 1};
    w.send.imm_data = 42;
    ASSERT_EQ(urma::encode_sqe(w, lim_, &sqe_), URMA_SUCCESS);
    EXPECT_EQ(sqe_.opcode, URMA_OPC_SEND_IMM);
    EXPECT_EQ(sqe_.data, 42u);
    EXPECT_EQ(sqe_.target_idx, 9u);
    EXPECT_EQ(sqe_.rseg_idx, 0u);
    EXPECT_EQ(sqe_.num_sge, 1);
    EXPECT_EQ(sqe_.sge[0].len, 77u);
    w.opcode = URMA_OPC_SEND;
    ASSERT_EQ(urma::encode_sqe(w, lim_, &sqe_), URMA_SUCCESS);
    EXPECT_EQ(sqe_.opcode, URMA_OPC_SEND);
}

// A bonding device's SEND_IMM may not use bits 21-39 of the immediate
// data (user guide 6.2.1); its other bits, its other opcodes and every
// other device carry all 64.
TEST_F(Encode, BondingSendImmKeepsTheBondingBitsFree)
{
    urma_sge_t src = lsge(0x1000, 8);
    urma_jfs_wr_t w = wr(URMA_OPC_SEND_IMM);
    w.send.src = {&src, 1};
    urma::SqLimits bond = lim_;
    bond.bonding = true;
    w.send.imm_data = UBAGG_IMM_DATA_USABLE_MASK;
    ASSERT_EQ(urma::encode_sqe(w, bond, &sqe_), URMA_SUCCESS);
    EXPECT_EQ(sqe_.data, UBAGG_IMM_DATA_USABLE_MASK);
    for (unsigned bit = 0; bit < 64; bit++) {
        w.send.imm_data = 1ULL << bit;
        const bool usable = bit < 21 || bit > 39;
        EXPECT_EQ(urma::encode_sqe(w, bond, &sqe_), usable ? URMA_SUCCESS : URMA_EINVAL) << "bit " << bit;
        EXPECT_EQ(urma::encode_sqe(w, lim_, &sqe_), URMA_SUCCESS) << "bit " << bit << ", not bonding";
        EXPECT_EQ(sqe_.data, 1ULL << bit);
    }
    urma_sge_t dst = rsge(0x2000, 8);
    urma_jfs_wr_t wi = wr(URMA_OPC_WRITE_IMM);
    wi.rw.src = {&src, 1};
    wi.rw.dst = {&dst, 1};
    wi.rw.notify_data = ~0ULL;
    EXPECT_EQ(urma::encode_sqe(wi, bond, &sqe_), URMA_SUCCESS);
}

TEST_F(Encode, SendInvalidateNamesTheImportedSegment)
{
    urma_sge_t src = lsge(0x1000, 8);
    urma_jfs_wr_t w = wr(URMA_OPC_SEND_INVALIDATE);
    w.send.src = {&src, 1};
    w.send.imm_data = 42;  // not a SEND_IMM: not sent
    w.send.tseg = &remote_.pub;
    ASSERT_EQ(urma::encode_sqe(w, lim_, &sqe_), URMA_SUCCESS);
    EXPECT_EQ(sqe_.opcode, URMA_OPC_SEND_INVALIDATE);
    EXPECT_EQ(sqe_.rseg_idx, 7u);
    EXPECT_EQ(sqe_.target_idx, 9u);
    EXPECT_EQ(sqe_.data, 0u);
    EXPECT_EQ(sqe_.num_sge, 1);
    w.send.tseg = nullptr;
    EXPECT_EQ(urma::encode_sqe(w, lim_, &sqe_), URMA_EINVAL);
    // A registered segment is ours, not the target's.
    w.send.tseg = &local_.pub;
    EXPECT_EQ(urma::encode_sqe(w, lim_, &sqe_), URMA_EINVAL);
}

TEST_F(Encode, InlineCopiesThePayload)
{
    char a[5] = {'h', 'e', 'l', 'l', 'o'};
    char b[3] = {'!', '!', '!'};
    urma_sge_t src[2] = {{reinterpret_cast<uintptr_t>(a), 5, nullptr, nullptr},
                         {reinterpret_cast<uintptr_t>(b), 3, nullptr, nullptr}};
    urma_jfs_wr_t w = wr(URMA_OPC_SEND);
    w.flag.bs.inline_flag = 1;
    w.send.src = {src, 2};
    ASSERT_EQ(urma::encode_sqe(w, lim_, &sqe_), URMA_SUCCESS);
    EXPECT_TRUE(sqe_.flags & UDMA_SQE_F_INLINE);
    EXPECT_EQ(sqe_.num_sge, 0);
    EXPECT_EQ(sqe_.inline_len, 8);
    EXPECT_EQ(std::memcmp(sqe_.inline_data, "hello!!!", 8), 0);

    // Over the queue's max_inline_data (64 here), and over the SQE's 192.
    std::vector<char> big(65, 'x');
    urma_sge_t s = {reinterpret_cast<uintptr_t>(big.data()), 65, nullptr, nullptr};
    w.send.src = {&s, 1};
    EXPECT_EQ(urma::encode_sqe(w, lim_, &sqe_), URMA_EINVAL);
    std::vector<char> huge(UDMA_SQE_MAX_INLINE + 1, 'y');
    s = {reinterpret_cast<uintptr_t>(huge.data()), UDMA_SQE_MAX_INLINE + 1, nullptr, nullptr};
    urma::SqLimits wide = {4, 4096, false};
    EXPECT_EQ(urma::encode_sqe(w, wide, &sqe_), URMA_EINVAL);
    s.len = UDMA_SQE_MAX_INLINE;
    EXPECT_EQ(urma::encode_sqe(w, wide, &sqe_), URMA_SUCCESS);
    EXPECT_EQ(sqe_.inline_len, UDMA_SQE_MAX_INLINE);
}

TEST_F(Encode, CasAndSwap)
{
    urma_sge_t dst = rsge(0x9008, 8);
    urma_sge_t old = lsge(0x1000, 8);
    urma_jfs_wr_t w = wr(URMA_OPC_CAS);
    w.cas.dst = &dst;
    w.cas.src = &old;
    w.cas.cmp_data = 11;
    w.cas.swap_data = 22;
    ASSERT_EQ(urma::encode_sqe(w, lim_, &sqe_), URMA_SUCCESS);
    EXPECT_EQ(sqe_.opcode, URMA_OPC_CAS);
    EXPECT_EQ(sqe_.data, 22u);
    EXPECT_EQ(sqe_.cmp_data, 11u);
    EXPECT_EQ(sqe_.rseg_idx, 7u);
    EXPECT_EQ(sqe_.remote_va, 0x9008u);
    EXPECT_EQ(sqe_.remote_len, 8u);
    EXPECT_EQ(sqe_.num_sge, 1);
    EXPECT_EQ(sqe_.sge[0].va, 0x1000u);
    EXPECT_EQ(sqe_.sge[0].token_id, 0x1234u);
    w.opcode = URMA_OPC_SWAP;
    ASSERT_EQ(urma::encode_sqe(w, lim_, &sqe_), URMA_SUCCESS);
    EXPECT_EQ(sqe_.opcode, URMA_OPC_SWAP);
    EXPECT_EQ(sqe_.data, 22u);
    EXPECT_EQ(sqe_.cmp_data, 0u);
    // Operands are 8 bytes.
    dst.len = 4;
    EXPECT_EQ(urma::encode_sqe(w, lim_, &sqe_), URMA_EINVAL);
}

TEST_F(Encode, FetchAndOps)
{
    urma_sge_t dst = rsge(0x9000, 8);
    urma_sge_t old = lsge(0x1000, 8);
    for (urma_opcode_t op : {URMA_OPC_FADD, URMA_OPC_FSUB, URMA_OPC_FAND, URMA_OPC_FOR, URMA_OPC_FXOR}) {
        urma_jfs_wr_t w = wr(op);
        w.faa.dst = &dst;
        w.faa.src = &old;
        w.faa.operand = 0x55;
        ASSERT_EQ(urma::encode_sqe(w, lim_, &sqe_), URMA_SUCCESS) << op;
        EXPECT_EQ(sqe_.opcode, op);
        EXPECT_EQ(sqe_.data, 0x55u);
        EXPECT_EQ(sqe_.rseg_idx, 7u);
        EXPECT_EQ(sqe_.num_sge, 1);
    }
}

TEST_F(Encode, NopNeedsNothing)
{
    urma_jfs_wr_t w = wr(URMA_OPC_NOP);
    w.tjetty = nullptr;
    ASSERT_EQ(urma::encode_sqe(w, lim_, &sqe_), URMA_SUCCESS);
    EXPECT_EQ(sqe_.opcode, URMA_OPC_NOP);
    EXPECT_EQ(sqe_.user_ctx, 0xfeedbeefu);
}

TEST_F(Encode, Rejections)
{
    urma_sge_t src[5] = {lsge(1, 1), lsge(2, 1), lsge(3, 1), lsge(4, 1), lsge(5, 1)};
    urma_sge_t dst = rsge(0x9000, 8);
    urma_jfs_wr_t w = wr(URMA_OPC_WRITE);
    w.rw.src = {src, 5};  // max_sge 4
    w.rw.dst = {&dst, 1};
    EXPECT_EQ(urma::encode_sqe(w, lim_, &sqe_), URMA_EINVAL);
    w.rw.src = {src, 1};
    ASSERT_EQ(urma::encode_sqe(w, lim_, &sqe_), URMA_SUCCESS);
    // No target jetty.
    w.tjetty = nullptr;
    EXPECT_EQ(urma::encode_sqe(w, lim_, &sqe_), URMA_EINVAL);
    // An RC jetty sends to its bound peer: target_idx 0, tjetty unused.
    urma::SqLimits rc = lim_;
    rc.rc_jetty = true;
    ASSERT_EQ(urma::encode_sqe(w, rc, &sqe_), URMA_SUCCESS);
    EXPECT_EQ(sqe_.target_idx, 0u);
    w.tjetty = &tjfr_.pub;
    // A registered (not imported) segment as the remote side.
    urma_sge_t bad_dst = lsge(0x9000, 8);
    w.rw.dst = {&bad_dst, 1};
    EXPECT_EQ(urma::encode_sqe(w, lim_, &sqe_), URMA_EINVAL);
    // Two remote SGEs.
    urma_sge_t two[2] = {dst, dst};
    w.rw.dst = {two, 2};
    EXPECT_EQ(urma::encode_sqe(w, lim_, &sqe_), URMA_EINVAL);
    // A local SGE without a segment.
    w.rw.dst = {&dst, 1};
    urma_sge_t noseg = {0x1000, 8, nullptr, nullptr};
    w.rw.src = {&noseg, 1};
    EXPECT_EQ(urma::encode_sqe(w, lim_, &sqe_), URMA_EINVAL);
    // Opcodes UMDK does not define.
    w.rw.src = {src, 1};
    for (urma_opcode_t op : {static_cast<urma_opcode_t>(0x7f), static_cast<urma_opcode_t>(0x61), URMA_OPC_LAST}) {
        w.opcode = op;
        EXPECT_EQ(urma::encode_sqe(w, lim_, &sqe_), URMA_EINVAL) << op;
    }
}

TEST_F(Encode, Rqe)
{
    urma_sge_t sges[3] = {lsge(0x1000, 10), lsge(0x2000, 20), lsge(0x3000, 30)};
    urma_jfr_wr_t w = {};
    w.src = {sges, 3};
    w.user_ctx = 99;
    udma_rqe rqe;
    ASSERT_EQ(urma::encode_rqe(w, 4, &rqe), URMA_SUCCESS);
    EXPECT_EQ(rqe.user_ctx, 99u);
    EXPECT_EQ(rqe.num_sge, 3);
    EXPECT_EQ(rqe.sge[1].va, 0x2000u);
    EXPECT_EQ(rqe.sge[1].len, 20u);
    EXPECT_EQ(rqe.sge[1].token_id, 0x1234u);
    EXPECT_EQ(urma::encode_rqe(w, 2, &rqe), URMA_EINVAL);
    urma_sge_t noseg = {0x1000, 8, nullptr, nullptr};
    w.src = {&noseg, 1};
    EXPECT_EQ(urma::encode_rqe(w, 4, &rqe), URMA_EINVAL);
}

TEST(Decode, SendSideAndReceiveSide)
{
    udma_cqe c = {};
    c.status = URMA_CR_REM_ACCESS_ABORT_ERR;
    c.user_ctx = 5;
    c.completion_len = 4096;
    c.local_id = 3;
    c.imm_data = 0x77;  // not flagged: not reported
    urma_cr_t cr;
    urma::decode_cqe(c, &cr);
    EXPECT_EQ(cr.status, URMA_CR_REM_ACCESS_ABORT_ERR);
    EXPECT_EQ(cr.user_ctx, 5u);
    EXPECT_EQ(cr.completion_len, 4096u);
    EXPECT_EQ(cr.local_id, 3u);
    EXPECT_EQ(cr.flag.bs.s_r, 0);
    EXPECT_EQ(cr.imm_data, 0u);

    c = {};
    c.status = URMA_CR_SUCCESS;
    c.opcode = URMA_CR_OPC_SEND_WITH_IMM;
    c.flags = UDMA_CQE_F_RECV | UDMA_CQE_F_IMM;
    c.imm_data = 0x1122334455667788ull;
    c.remote_id = 17;
    c.remote_uasid = 1000;
    c.remote_eid[15] = 1;
    c.tpn = 4;
    urma::decode_cqe(c, &cr);
    EXPECT_EQ(cr.flag.bs.s_r, 1);
    EXPECT_EQ(cr.opcode, URMA_CR_OPC_SEND_WITH_IMM);
    EXPECT_EQ(cr.imm_data, 0x1122334455667788ull);
    EXPECT_EQ(cr.remote_id.id, 17u);
    EXPECT_EQ(cr.remote_id.uasid, 1000u);
    EXPECT_EQ(cr.remote_id.eid.raw[15], 1);
    EXPECT_EQ(cr.tpn, 4u);

    // SEND_WITH_INV: the invalidated segment's token ID and value.
    c = {};
    c.opcode = URMA_CR_OPC_SEND_WITH_INV;
    c.flags = UDMA_CQE_F_RECV | UDMA_CQE_F_INV;
    c.imm_data = 0x00005eed00000123ull;
    urma::decode_cqe(c, &cr);
    EXPECT_EQ(cr.opcode, URMA_CR_OPC_SEND_WITH_INV);
    EXPECT_EQ(cr.invalid_token.token_id, 0x123u);
    EXPECT_EQ(cr.invalid_token.token_value.token, 0x5eedu);
}

// Rings over a memfd, as the device file's mmap gives them.
class Rings : public ::testing::Test {
protected:
    void SetUp() override
    {
        fd_ = memfd_create("ring", MFD_CLOEXEC);
        ASSERT_GE(fd_, 0);
        ASSERT_EQ(ftruncate(fd_, static_cast<off_t>(8 * page())), 0);
        local_.pub.seg.token_id = 1;
        local_.pub.token_id = &tid_;
        remote_.target_idx = 3;
        tjfr_.target_idx = 4;
    }
    void TearDown() override { close(fd_); }

    // A chain of n SENDs with user_ctx base, base+1, ...
    std::vector<urma_jfs_wr_t> chain(size_t n, uint64_t base)
    {
        std::vector<urma_jfs_wr_t> v(n);
        for (size_t i = 0; i < n; i++) {
            v[i] = {};
            v[i].opcode = URMA_OPC_SEND;
            v[i].tjetty = &tjfr_.pub;
            v[i].user_ctx = base + i;
            v[i].send.src = {&sge_, 1};
            v[i].next = i + 1 < n ? &v[i + 1] : nullptr;
        }
        return v;
    }

    int fd_ = -1;
    urma_token_id_t tid_ = {};
    urma::TargetSegImpl local_ = {};
    urma::TargetSegImpl remote_ = {};
    urma::TargetJettyImpl tjfr_ = {};
    urma_sge_t sge_ = {0x1000, 8, &local_.pub, nullptr};
    urma::SqLimits lim_ = {1, 0, false};
};

TEST_F(Rings, SqFullAndWrap)
{
    urma::SendQueue sq;
    ASSERT_EQ(sq.map(fd_, ring_info(4, UDMA_SQE_SIZE)), 0);
    auto *ctrl = sq.ring().ctrl();

    // Five into four slots: four posted, the fifth is bad_wr, ENOMEM.
    auto v = chain(5, 100);
    urma_jfs_wr_t *bad = nullptr;
    uint32_t posted = 0;
    EXPECT_EQ(urma::sq_post(sq, lim_, &v[0], &bad, &posted), URMA_ENOMEM);
    EXPECT_EQ(posted, 4u);
    EXPECT_EQ(bad, &v[4]);
    EXPECT_EQ(ctrl->pi, 4u);
    for (uint32_t i = 0; i < 4; i++)
        EXPECT_EQ(static_cast<udma_sqe *>(sq.ring().entry(i))->user_ctx, 100u + i);

    // Full: nothing more, pi unchanged.
    auto one = chain(1, 200);
    EXPECT_EQ(urma::sq_post(sq, lim_, &one[0], &bad, &posted), URMA_ENOMEM);
    EXPECT_EQ(posted, 0u);
    EXPECT_EQ(bad, &one[0]);
    EXPECT_EQ(ctrl->pi, 4u);

    // The kernel consumed two: two more fit, into slots 0 and 1 (wrap).
    ctrl->ci = 2;
    auto w = chain(3, 300);
    EXPECT_EQ(urma::sq_post(sq, lim_, &w[0], &bad, &posted), URMA_ENOMEM);
    EXPECT_EQ(posted, 2u);
    EXPECT_EQ(bad, &w[2]);
    EXPECT_EQ(ctrl->pi, 6u);
    EXPECT_EQ(static_cast<udma_sqe *>(sq.ring().entry(0))->user_ctx, 300u);
    EXPECT_EQ(static_cast<udma_sqe *>(sq.ring().entry(1))->user_ctx, 301u);
    EXPECT_EQ(static_cast<udma_sqe *>(sq.ring().entry(2))->user_ctx, 102u);
    EXPECT_EQ(sq.wrid(4), 300u);
    EXPECT_EQ(sq.wrid(5), 301u);

    // The index runs past 2^32 without trouble.
    ctrl->ci = 0xfffffffeu;
    ctrl->pi = 0xfffffffeu;
    sq.set_pi(0xfffffffeu);
    auto x = chain(4, 400);
    EXPECT_EQ(urma::sq_post(sq, lim_, &x[0], &bad, &posted), URMA_SUCCESS);
    EXPECT_EQ(posted, 4u);
    EXPECT_EQ(ctrl->pi, 2u);
    EXPECT_EQ(static_cast<udma_sqe *>(sq.ring().entry(1))->user_ctx, 403u);
}

TEST_F(Rings, SqBadWrInTheMiddleKeepsEarlierOnes)
{
    urma::SendQueue sq;
    ASSERT_EQ(sq.map(fd_, ring_info(8, UDMA_SQE_SIZE)), 0);
    auto v = chain(3, 1);
    v[1].opcode = static_cast<urma_opcode_t>(0x7f);
    urma_jfs_wr_t *bad = nullptr;
    uint32_t posted = 0;
    EXPECT_EQ(urma::sq_post(sq, lim_, &v[0], &bad, &posted), URMA_EINVAL);
    EXPECT_EQ(posted, 1u);
    EXPECT_EQ(bad, &v[1]);
    EXPECT_EQ(sq.ring().ctrl()->pi, 1u);
}

TEST_F(Rings, RqFull)
{
    urma::RecvQueue rq;
    ASSERT_EQ(rq.map(fd_, ring_info(2, UDMA_RQE_SIZE)), 0);
    urma_jfr_wr_t w[3] = {};
    for (int i = 0; i < 3; i++) {
        w[i].src = {&sge_, 1};
        w[i].user_ctx = 10 + i;
        w[i].next = i < 2 ? &w[i + 1] : nullptr;
    }
    urma_jfr_wr_t *bad = nullptr;
    uint32_t posted = 0;
    EXPECT_EQ(urma::rq_post(rq, 1, w, &bad, &posted), URMA_ENOMEM);
    EXPECT_EQ(posted, 2u);
    EXPECT_EQ(bad, &w[2]);
    EXPECT_EQ(rq.ring().ctrl()->pi, 2u);
    EXPECT_EQ(static_cast<udma_rqe *>(rq.ring().entry(1))->user_ctx, 11u);
}

// Writes a CQE the way the kernel does: fields, then the owner byte.
void put_cqe(urma::CompQueue &cq, uint32_t idx, uint64_t user_ctx)
{
    auto *c = static_cast<udma_cqe *>(cq.ring().entry(idx));
    const uint32_t cnt = cq.ring().entry_cnt();
    uint8_t owner = static_cast<uint8_t>(((idx / cnt) & 1) ^ 1);
    c->status = URMA_CR_SUCCESS;
    c->user_ctx = user_ctx;
    c->completion_len = static_cast<uint32_t>(user_ctx);
    __atomic_store_n(&c->owner, owner, __ATOMIC_RELEASE);
}

TEST_F(Rings, CqOwnerBitAndWrap)
{
    urma::CompQueue cq;
    ASSERT_EQ(cq.map(fd_, ring_info(4, UDMA_CQE_SIZE)), 0);
    urma_cr_t cr[8];

    EXPECT_EQ(urma::cq_poll(cq, 8, cr), 0);  // zeroed ring: owner 0, nothing valid
    for (uint32_t i = 0; i < 3; i++)
        put_cqe(cq, i, 10 + i);
    EXPECT_EQ(urma::cq_poll(cq, 2, cr), 2);  // cr_cnt limits
    EXPECT_EQ(cr[0].user_ctx, 10u);
    EXPECT_EQ(cr[1].user_ctx, 11u);
    EXPECT_EQ(cq.ring().ctrl()->ci, 2u);
    EXPECT_EQ(urma::cq_poll(cq, 8, cr), 1);
    EXPECT_EQ(cr[0].user_ctx, 12u);
    EXPECT_EQ(cq.ring().ctrl()->ci, 3u);

    // Slot 3 (first pass, owner 1), then slots 0 and 1 of the second pass
    // (owner 0). Slot 2 still holds the first pass's owner 1: stale.
    put_cqe(cq, 3, 13);
    put_cqe(cq, 4, 14);
    put_cqe(cq, 5, 15);
    EXPECT_EQ(urma::cq_poll(cq, 8, cr), 3);
    EXPECT_EQ(cr[0].user_ctx, 13u);
    EXPECT_EQ(cr[1].user_ctx, 14u);
    EXPECT_EQ(cr[2].user_ctx, 15u);
    EXPECT_EQ(cr[2].completion_len, 15u);
    EXPECT_EQ(cq.ring().ctrl()->ci, 6u);
    EXPECT_EQ(urma::cq_poll(cq, 8, cr), 0);
}

TEST_F(Rings, FlushRecordsComeFromThePostedWrs)
{
    urma::SendQueue sq;
    ASSERT_EQ(sq.map(fd_, ring_info(4, UDMA_SQE_SIZE)), 0);
    auto v = chain(4, 500);
    urma_jfs_wr_t *bad = nullptr;
    uint32_t posted = 0;
    ASSERT_EQ(urma::sq_post(sq, lim_, &v[0], &bad, &posted), URMA_SUCCESS);
    // Overwriting the ring does not change what flush reports.
    std::memset(sq.ring().entry(2), 0xff, UDMA_SQE_SIZE);
    urma_cr_t cr[2];
    urma::flush_records(sq, 2, 2, 77, true, cr);
    EXPECT_EQ(cr[0].status, URMA_CR_WR_UNHANDLED);
    EXPECT_EQ(cr[0].user_ctx, 502u);
    EXPECT_EQ(cr[1].user_ctx, 503u);
    EXPECT_EQ(cr[1].local_id, 77u);
    EXPECT_EQ(cr[1].flag.bs.jetty, 1);
}

TEST(DataPathApi, ArgumentChecks)
{
    urma_jfs_wr_t wr = {};
    urma_jfs_wr_t *bad = nullptr;
    urma_jfr_wr_t rwr = {};
    urma_jfr_wr_t *rbad = nullptr;
    urma_cr_t cr;
    urma_jfc_t *jfcs[1] = {nullptr};
    uint32_t n[1] = {1};
    EXPECT_EQ(urma_post_jfs_wr(nullptr, &wr, &bad), URMA_EINVAL);
    EXPECT_EQ(urma_post_jetty_send_wr(nullptr, &wr, &bad), URMA_EINVAL);
    EXPECT_EQ(urma_post_jfr_wr(nullptr, &rwr, &rbad), URMA_EINVAL);
    EXPECT_EQ(urma_post_jetty_recv_wr(nullptr, &rwr, &rbad), URMA_EINVAL);
    EXPECT_EQ(urma_poll_jfc(nullptr, 1, &cr), -1);
    EXPECT_EQ(urma_rearm_jfc(nullptr, false), URMA_EINVAL);
    EXPECT_EQ(urma_wait_jfc(nullptr, 1, 0, jfcs), -1);
    urma_ack_jfc(jfcs, n, 1);  // NULL entries are skipped
    EXPECT_EQ(urma_flush_jfs(nullptr, 1, &cr), -1);
    EXPECT_EQ(urma_flush_jetty(nullptr, 1, &cr), -1);
    EXPECT_EQ(urma_bind_jetty(nullptr, nullptr), URMA_EINVAL);
    EXPECT_EQ(urma_unbind_jetty(nullptr), URMA_EINVAL);
    urma_jfs_wr_flag_t f = {};
    EXPECT_EQ(urma_write(nullptr, nullptr, nullptr, nullptr, 0, 0, 0, f, 0), URMA_EINVAL);
    EXPECT_EQ(urma_read(nullptr, nullptr, nullptr, nullptr, 0, 0, 0, f, 0), URMA_EINVAL);
    EXPECT_EQ(urma_send(nullptr, nullptr, nullptr, 0, 0, f, 0), URMA_EINVAL);
    EXPECT_EQ(urma_recv(nullptr, nullptr, 0, 0, 0), URMA_EINVAL);
}

}  // namespace
