// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The UB/URMA stack authors
// Every opcode of the data path through liburma against udma on lo, with
// the data checked byte for byte: sizes from 0 to 64 MiB, unaligned ends,
// gather and scatter, inline data, immediate data and byte counts in the
// completion records, user_ctx, unsignaled WRs, atomics, and the target's
// rejections (status in the CQE, target bytes unchanged).
//
// Expectations the engine must meet (reconciled by the lead):
//  - success: URMA_CR_SUCCESS, completion_len = bytes moved (8 for atomics)
//  - receive CQE: s_r = 1, opcode URMA_CR_OPC_SEND / _SEND_WITH_IMM /
//    _SEND_WITH_INV / _WRITE_WITH_IMM, imm_data with UDMA_CQE_F_IMM, the
//    invalidated token with SEND_WITH_INV, remote_id.id = JFS id, user_ctx
//    of the RQE
//  - wrong token, range beyond the segment, write to a read-only segment,
//    atomic without the atomic right, unregistered segment, invalidated
//    segment, the same for WRITE_NOTIFY's notify word, WRITE_ATOMIC's word
//    (which needs the atomic right), FLUSH_DMA's range (the write right)
//    and for the segment a SEND_INVALIDATE names:
//    URMA_CR_REM_ACCESS_ABORT_ERR (and no RQE taken)
//  - unimported segment or JFR index: URMA_CR_LOC_ACCESS_ERR
//  - udma lists every atomic URMA can post in atomic_feat (0x7f)
#include <cstdio>
#include <vector>

#include "dp_env.h"
#include "provider_ops.h"
#include "target.h"

namespace {

using ub_itest::DpTest;
using ub_itest::Region;

constexpr size_t kSizes[] = {0, 1, 7, 4095, 4096, 4097, 1u << 20, 64u << 20};
constexpr size_t kPad = 64;

class Ops : public DpTest {};

// WRITE then READ back, aligned and unaligned (source at +3, target at +5).
TEST_F(Ops, WriteAndReadEverySize)
{
    Region &src = region(kSizes[7] + kPad);
    Region &dst = region(kSizes[7] + kPad);
    Region &back = region(kSizes[7] + kPad);
    ASSERT_NE(back.imp, nullptr);
    uint64_t ctx = 1;
    for (size_t size : kSizes) {
        if (size > cap_.max_write_size || size > cap_.max_read_size) {
            ADD_FAILURE() << size << " over the device's max write/read size";
            continue;
        }
        for (size_t so : {size_t(0), size_t(3)}) {
            size_t doff = so == 0 ? 0 : 5;
            SCOPED_TRACE("size " + std::to_string(size) + " src+" + std::to_string(so));
            ub_itest::fill(src.buf, size + kPad, size + so);
            std::memset(dst.buf, 0xee, size + kPad);
            ASSERT_EQ(urma_write(jfs_, tjfr_, dst.imp, src.reg, dst.va(doff), src.va(so),
                                 static_cast<uint32_t>(size), signaled(), ctx),
                      URMA_SUCCESS);
            urma_cr_t cr = wait_cr(scq_);
            EXPECT_EQ(cr.status, URMA_CR_SUCCESS);
            EXPECT_EQ(cr.user_ctx, ctx);
            EXPECT_EQ(cr.completion_len, size);
            EXPECT_EQ(cr.local_id, jfs_->jfs_id.id);
            EXPECT_EQ(cr.flag.bs.s_r, 0);
            ctx++;
            EXPECT_EQ(std::memcmp(dst.buf + doff, src.buf + so, size), 0);
            EXPECT_EQ(ub_itest::first_not(dst.buf, doff, 0xee), doff);
            EXPECT_EQ(ub_itest::first_not(dst.buf + doff + size, kPad - doff, 0xee), kPad - doff);

            std::memset(back.buf, 0x11, size + kPad);
            ASSERT_EQ(urma_read(jfs_, tjfr_, back.reg, dst.imp, back.va(1), dst.va(doff),
                                static_cast<uint32_t>(size), signaled(), ctx),
                      URMA_SUCCESS);
            cr = wait_cr(scq_);
            EXPECT_EQ(cr.status, URMA_CR_SUCCESS);
            EXPECT_EQ(cr.user_ctx, ctx);
            EXPECT_EQ(cr.completion_len, size);
            ctx++;
            EXPECT_EQ(std::memcmp(back.buf + 1, src.buf + so, size), 0);
            EXPECT_EQ(back.buf[0], 0x11);
            EXPECT_EQ(ub_itest::first_not(back.buf + 1 + size, kPad - 1, 0x11), kPad - 1);
        }
    }
}

TEST_F(Ops, SendEverySize)
{
    Region &src = region(kSizes[7] + kPad);
    Region &dst = region(kSizes[7] + kPad);
    ASSERT_NE(dst.imp, nullptr);
    uint64_t ctx = 100;
    for (size_t size : kSizes) {
        if (size > cap_.max_msg_size) {
            ADD_FAILURE() << size << " over max_msg_size " << cap_.max_msg_size;
            continue;
        }
        SCOPED_TRACE("size " + std::to_string(size));
        ub_itest::fill(src.buf, size + kPad, size);
        std::memset(dst.buf, 0xee, size + kPad);
        // The RQE is larger than the message, at an odd offset.
        ASSERT_EQ(recv(dst, 3, static_cast<uint32_t>(size + 8), ctx + 1), URMA_SUCCESS);
        ASSERT_EQ(urma_send(jfs_, tjfr_, src.reg, src.va(1), static_cast<uint32_t>(size), signaled(), ctx),
                  URMA_SUCCESS);
        urma_cr_t s = wait_cr(scq_);
        EXPECT_EQ(s.status, URMA_CR_SUCCESS);
        EXPECT_EQ(s.user_ctx, ctx);
        EXPECT_EQ(s.completion_len, size);
        urma_cr_t r = wait_cr(rcq_);
        EXPECT_EQ(r.status, URMA_CR_SUCCESS);
        EXPECT_EQ(r.user_ctx, ctx + 1);
        EXPECT_EQ(r.completion_len, size);
        EXPECT_EQ(r.flag.bs.s_r, 1);
        EXPECT_EQ(r.opcode, URMA_CR_OPC_SEND);
        EXPECT_EQ(r.remote_id.id, jfs_->jfs_id.id);
        EXPECT_EQ(r.local_id, jfr_->jfr_id.id);
        EXPECT_EQ(std::memcmp(dst.buf + 3, src.buf + 1, size), 0);
        EXPECT_EQ(ub_itest::first_not(dst.buf, 3, 0xee), 3u);
        EXPECT_EQ(ub_itest::first_not(dst.buf + 3 + size, kPad - 3, 0xee), kPad - 3);
        ctx += 2;
    }
}

TEST_F(Ops, ImmediateData)
{
    Region &src = region(4096);
    Region &dst = region(4096);
    ASSERT_NE(dst.imp, nullptr);
    ub_itest::fill(src.buf, 4096, 9);

    // SEND_IMM: the immediate in the receive record.
    ASSERT_EQ(recv(dst, 0, 4096, 7), URMA_SUCCESS);
    urma_sge_t s = sge(src, 0, 100, false);
    urma_jfs_wr_t wr = {};
    urma_jfs_wr_t *bad = nullptr;
    wr.opcode = URMA_OPC_SEND_IMM;
    wr.flag = signaled();
    wr.tjetty = tjfr_;
    wr.user_ctx = 8;
    wr.send.src = {&s, 1};
    wr.send.imm_data = 0x0102030405060708ull;
    ASSERT_EQ(urma_post_jfs_wr(jfs_, &wr, &bad), URMA_SUCCESS);
    EXPECT_EQ(wait_cr(scq_).status, URMA_CR_SUCCESS);
    urma_cr_t r = wait_cr(rcq_);
    EXPECT_EQ(r.status, URMA_CR_SUCCESS);
    EXPECT_EQ(r.opcode, URMA_CR_OPC_SEND_WITH_IMM);
    EXPECT_EQ(r.imm_data, 0x0102030405060708ull);
    EXPECT_EQ(r.completion_len, 100u);
    EXPECT_EQ(r.user_ctx, 7u);
    EXPECT_EQ(std::memcmp(dst.buf, src.buf, 100), 0);

    // WRITE_IMM: data at the remote address, the immediate (and length)
    // in a receive record that consumes an RQE.
    std::memset(dst.buf, 0, 4096);
    Region &rq = region(64);
    ASSERT_EQ(recv(rq, 0, 64, 77), URMA_SUCCESS);
    urma_sge_t d = sge(dst, 512, 300, true);
    s = sge(src, 0, 300, false);
    wr = {};
    wr.opcode = URMA_OPC_WRITE_IMM;
    wr.flag = signaled();
    wr.tjetty = tjfr_;
    wr.user_ctx = 9;
    wr.rw.src = {&s, 1};
    wr.rw.dst = {&d, 1};
    wr.rw.notify_data = 0xdeadbeefcafef00dull;
    ASSERT_EQ(urma_post_jfs_wr(jfs_, &wr, &bad), URMA_SUCCESS);
    urma_cr_t c = wait_cr(scq_);
    EXPECT_EQ(c.status, URMA_CR_SUCCESS);
    EXPECT_EQ(c.user_ctx, 9u);
    r = wait_cr(rcq_);
    EXPECT_EQ(r.status, URMA_CR_SUCCESS);
    EXPECT_EQ(r.opcode, URMA_CR_OPC_WRITE_WITH_IMM);
    EXPECT_EQ(r.imm_data, 0xdeadbeefcafef00dull);
    EXPECT_EQ(r.completion_len, 300u);
    EXPECT_EQ(r.user_ctx, 77u);
    EXPECT_EQ(std::memcmp(dst.buf + 512, src.buf, 300), 0);
}

// The provider table a context carries (UMDK's applications use it):
// the library's table, and a WRITE posted and polled through it.
TEST_F(Ops, ThroughTheContextsProviderTable)
{
    const urma_ops_t *ops = ctx_->ops;
    ASSERT_EQ(ops, urma::provider_ops());
    EXPECT_STREQ(ops->name, "udma");
    ASSERT_NE(ops->import_jetty_ex, nullptr);
    Region &src = region(4096);
    Region &dst = region(4096);
    ub_itest::fill(src.buf, 4096, 16);
    std::memset(dst.buf, 0, 4096);
    urma_sge_t s = sge(src, 0, 4096, false);
    urma_sge_t d = sge(dst, 0, 4096, true);
    urma_jfs_wr_t wr = {};
    urma_jfs_wr_t *bad = nullptr;
    wr.opcode = URMA_OPC_WRITE;
    wr.flag = signaled();
    wr.tjetty = tjfr_;
    wr.user_ctx = 5;
    wr.rw.src = {&s, 1};
    wr.rw.dst = {&d, 1};
    ASSERT_EQ(ops->post_jfs_wr(jfs_, &wr, &bad), URMA_SUCCESS);
    urma_cr_t cr = wait_cr(scq_, 30000, ops->poll_jfc);
    EXPECT_EQ(cr.status, URMA_CR_SUCCESS);
    EXPECT_EQ(cr.user_ctx, 5u);
    EXPECT_EQ(std::memcmp(dst.buf, src.buf, 4096), 0);
}

// Several local SGEs gathered into one remote range, a remote range read
// into several local SGEs, and a SEND of 4 SGEs scattered over an RQE of 3.
TEST_F(Ops, GatherAndScatter)
{
    ASSERT_GE(jfs_->jfs_cfg.max_sge, 4);
    ASSERT_GE(jfr_->jfr_cfg.max_sge, 3);
    Region &src = region(16384);
    Region &dst = region(16384);
    ASSERT_NE(dst.imp, nullptr);
    ub_itest::fill(src.buf, 16384, 3);
    std::memset(dst.buf, 0, 16384);
    urma_sge_t g[4] = {sge(src, 1, 10, false), sge(src, 4096, 4097, false), sge(src, 9000, 1, false),
                       sge(src, 12000, 333, false)};
    const uint32_t total = 10 + 4097 + 1 + 333;
    urma_sge_t d = sge(dst, 7, total, true);
    urma_jfs_wr_t wr = {};
    urma_jfs_wr_t *bad = nullptr;
    wr.opcode = URMA_OPC_WRITE;
    wr.flag = signaled();
    wr.tjetty = tjfr_;
    wr.rw.src = {g, 4};
    wr.rw.dst = {&d, 1};
    ASSERT_EQ(urma_post_jfs_wr(jfs_, &wr, &bad), URMA_SUCCESS);
    urma_cr_t c = wait_cr(scq_);
    EXPECT_EQ(c.status, URMA_CR_SUCCESS);
    EXPECT_EQ(c.completion_len, total);
    size_t off = 7;
    for (auto &e : g) {
        EXPECT_EQ(std::memcmp(dst.buf + off, reinterpret_cast<void *>(e.addr), e.len), 0);
        off += e.len;
    }

    // READ the same range back into three pieces.
    Region &back = region(16384);
    std::memset(back.buf, 0, 16384);
    urma_sge_t sc[3] = {sge(back, 100, 1000, false), sge(back, 5000, 3000, false),
                        sge(back, 10000, total - 4000, false)};
    urma_sge_t rs = sge(dst, 7, total, true);
    wr = {};
    wr.opcode = URMA_OPC_READ;
    wr.flag = signaled();
    wr.tjetty = tjfr_;
    wr.rw.src = {&rs, 1};
    wr.rw.dst = {sc, 3};
    ASSERT_EQ(urma_post_jfs_wr(jfs_, &wr, &bad), URMA_SUCCESS);
    c = wait_cr(scq_);
    EXPECT_EQ(c.status, URMA_CR_SUCCESS);
    EXPECT_EQ(c.completion_len, total);
    off = 7;
    for (auto &e : sc) {
        EXPECT_EQ(std::memcmp(reinterpret_cast<void *>(e.addr), dst.buf + off, e.len), 0);
        off += e.len;
    }

    // SEND gathered from 4 SGEs into an RQE of 3 with other boundaries.
    Region &rbuf = region(16384);
    std::memset(rbuf.buf, 0, 16384);
    urma_sge_t rsg[3] = {sge(rbuf, 0, 2000, false), sge(rbuf, 8192, 2000, false), sge(rbuf, 12288, 1000, false)};
    urma_jfr_wr_t rwr = {};
    urma_jfr_wr_t *rbad = nullptr;
    rwr.src = {rsg, 3};
    rwr.user_ctx = 55;
    ASSERT_EQ(urma_post_jfr_wr(jfr_, &rwr, &rbad), URMA_SUCCESS);
    wr = {};
    wr.opcode = URMA_OPC_SEND;
    wr.flag = signaled();
    wr.tjetty = tjfr_;
    wr.send.src = {g, 4};
    ASSERT_EQ(urma_post_jfs_wr(jfs_, &wr, &bad), URMA_SUCCESS);
    EXPECT_EQ(wait_cr(scq_).status, URMA_CR_SUCCESS);
    urma_cr_t r = wait_cr(rcq_);
    EXPECT_EQ(r.status, URMA_CR_SUCCESS);
    EXPECT_EQ(r.completion_len, total);
    std::vector<uint8_t> want, got;
    for (auto &e : g)
        want.insert(want.end(), reinterpret_cast<uint8_t *>(e.addr), reinterpret_cast<uint8_t *>(e.addr) + e.len);
    for (auto &e : rsg)
        got.insert(got.end(), reinterpret_cast<uint8_t *>(e.addr), reinterpret_cast<uint8_t *>(e.addr) + e.len);
    got.resize(total);
    EXPECT_EQ(got, want);
}

TEST_F(Ops, InlineWriteAndSend)
{
    ASSERT_GE(jfs_->jfs_cfg.max_inline_data, 100u);
    Region &dst = region(4096);
    ASSERT_NE(dst.imp, nullptr);
    std::memset(dst.buf, 0, 4096);
    uint8_t payload[100];
    ub_itest::fill(payload, sizeof(payload), 4);
    urma_jfs_wr_flag_t f = signaled();
    f.bs.inline_flag = 1;
    // Inline: the source needs no segment (UMDK's urma_write/urma_send).
    ASSERT_EQ(urma_write(jfs_, tjfr_, dst.imp, nullptr, dst.va(9), reinterpret_cast<uintptr_t>(payload), 100, f, 1),
              URMA_SUCCESS);
    std::memset(payload, 0, sizeof(payload));  // copied at post time
    urma_cr_t c = wait_cr(scq_);
    EXPECT_EQ(c.status, URMA_CR_SUCCESS);
    EXPECT_EQ(c.completion_len, 100u);
    uint8_t want[100];
    ub_itest::fill(want, sizeof(want), 4);
    EXPECT_EQ(std::memcmp(dst.buf + 9, want, 100), 0);

    Region &rb = region(4096);
    ASSERT_EQ(recv(rb, 0, 4096, 3), URMA_SUCCESS);
    ASSERT_EQ(urma_send(jfs_, tjfr_, nullptr, reinterpret_cast<uintptr_t>(want), 100, f, 2), URMA_SUCCESS);
    EXPECT_EQ(wait_cr(scq_).status, URMA_CR_SUCCESS);
    urma_cr_t r = wait_cr(rcq_);
    EXPECT_EQ(r.status, URMA_CR_SUCCESS);
    EXPECT_EQ(r.completion_len, 100u);
    EXPECT_EQ(std::memcmp(rb.buf, want, 100), 0);

    // Over the queue's inline limit: refused by the library, nothing posted.
    std::vector<uint8_t> big(jfs_->jfs_cfg.max_inline_data + 1u, 1);
    EXPECT_EQ(urma_send(jfs_, tjfr_, nullptr, reinterpret_cast<uintptr_t>(big.data()),
                        static_cast<uint32_t>(big.size()), f, 3),
              URMA_EINVAL);
    EXPECT_TRUE(stays_empty(scq_, 200));
}

// Only WRs with complete_enable make a CQE; user_ctx comes back as given.
TEST_F(Ops, UnsignaledAndUserCtx)
{
    Region &src = region(4096);
    Region &dst = region(4096);
    ASSERT_NE(dst.imp, nullptr);
    ub_itest::fill(src.buf, 4096, 5);
    std::memset(dst.buf, 0, 4096);
    urma_sge_t s[3], d[3];
    urma_jfs_wr_t wr[3] = {};
    urma_jfs_wr_t *bad = nullptr;
    for (int i = 0; i < 3; i++) {
        s[i] = sge(src, 1000 * i, 1000, false);
        d[i] = sge(dst, 1000 * i, 1000, true);
        wr[i].opcode = URMA_OPC_WRITE;
        wr[i].flag.bs.complete_enable = i == 2 ? 1 : 0;
        wr[i].tjetty = tjfr_;
        wr[i].user_ctx = 0xabc000 + i;
        wr[i].rw.src = {&s[i], 1};
        wr[i].rw.dst = {&d[i], 1};
        wr[i].next = i < 2 ? &wr[i + 1] : nullptr;
    }
    ASSERT_EQ(urma_post_jfs_wr(jfs_, wr, &bad), URMA_SUCCESS);
    urma_cr_t c = wait_cr(scq_);
    EXPECT_EQ(c.status, URMA_CR_SUCCESS);
    EXPECT_EQ(c.user_ctx, 0xabc002u);
    EXPECT_TRUE(stays_empty(scq_, 300));
    EXPECT_EQ(std::memcmp(dst.buf, src.buf, 3000), 0);

    // Library-side refusals name the first WR not posted; earlier ones are
    // posted (UMDK).
    wr[1].rw.src.num_sge = jfs_->jfs_cfg.max_sge + 1u;
    wr[0].flag.bs.complete_enable = 1;
    ASSERT_EQ(urma_post_jfs_wr(jfs_, wr, &bad), URMA_EINVAL);
    EXPECT_EQ(bad, &wr[1]);
    c = wait_cr(scq_);
    EXPECT_EQ(c.status, URMA_CR_SUCCESS);
    EXPECT_EQ(c.user_ctx, 0xabc000u);
    EXPECT_TRUE(stays_empty(scq_, 200));
}

// A full SQ: the library refuses with URMA_ENOMEM and bad_wr at the first
// WR that does not fit (the doorbell rings once, at the end of the call).
TEST_F(Ops, QueueFull)
{
    urma_jfs_t *jfs = make_jfs(scq_, 8);
    ASSERT_NE(jfs, nullptr);
    const uint32_t depth = jfs->jfs_cfg.depth;
    Region &dst = region(4096);
    ASSERT_NE(dst.imp, nullptr);
    std::vector<urma_jfs_wr_t> wr(depth + 1);
    for (uint32_t i = 0; i <= depth; i++) {
        wr[i] = {};
        wr[i].opcode = URMA_OPC_NOP;
        wr[i].flag.bs.complete_enable = 1;
        wr[i].user_ctx = i;
        wr[i].next = i < depth ? &wr[i + 1] : nullptr;
    }
    urma_jfs_wr_t *bad = nullptr;
    EXPECT_EQ(urma_post_jfs_wr(jfs, wr.data(), &bad), URMA_ENOMEM);
    EXPECT_EQ(bad, &wr[depth]);
    for (uint32_t i = 0; i < depth; i++) {
        urma_cr_t c = wait_cr(scq_);
        EXPECT_EQ(c.status, URMA_CR_SUCCESS);
        EXPECT_EQ(c.user_ctx, i);
    }
}

class Atomics : public DpTest {
protected:
    // One atomic on a fresh JFS (an error may take a JFS to ERROR); returns
    // the CQE status, *old the value the local SGE received.
    urma_cr_status_t atomic(urma_opcode_t op, Region &word, Region &old, uint64_t cmp, uint64_t val)
    {
        urma_jfs_t *jfs = make_jfs(scq_, 16);
        EXPECT_NE(jfs, nullptr);
        if (jfs == nullptr)
            return static_cast<urma_cr_status_t>(0xff);
        urma_sge_t d = sge(word, 0, 8, true);
        urma_sge_t s = sge(old, 0, 8, false);
        urma_jfs_wr_t wr = {};
        urma_jfs_wr_t *bad = nullptr;
        wr.opcode = op;
        wr.flag = signaled();
        wr.tjetty = tjfr_;
        wr.user_ctx = op;
        if (op == URMA_OPC_CAS || op == URMA_OPC_SWAP) {
            wr.cas.dst = &d;
            wr.cas.src = &s;
            wr.cas.cmp_data = cmp;
            wr.cas.swap_data = val;
        } else {
            wr.faa.dst = &d;
            wr.faa.src = &s;
            wr.faa.operand = val;
        }
        EXPECT_EQ(urma_post_jfs_wr(jfs, &wr, &bad), URMA_SUCCESS);
        urma_cr_t c = wait_cr(scq_);
        EXPECT_EQ(c.user_ctx, static_cast<uint64_t>(op));
        if (c.status == URMA_CR_SUCCESS) {
            EXPECT_EQ(c.completion_len, 8u);
        }
        return c.status;
    }
    static uint64_t &w(Region &r) { return *reinterpret_cast<uint64_t *>(r.buf); }
};

TEST_F(Atomics, EveryOpcodeTheDeviceHas)
{
    // udma does every atomic URMA has an opcode for, FETCH_AND included:
    // in urma_atomic_feature_t (cas, swap, fetch_and_add, fetch_and_sub,
    // fetch_and_and, fetch_and_or, fetch_and_xor: bits 0-6) that is 0x7f;
    // in the kernel's atomic_feature (the user guide's bits, urma_admin
    // show -w: 1, 2, 4, 8, 16 fetch_and_or, 32 fetch_and_xor, and 64 for
    // fetch_and) it is 0x7f as well. Nothing else.
    EXPECT_EQ(cap_.atomic_feat.value, 0x7fu);
    std::FILE *f = std::fopen("/sys/class/ubcore/udma0/atomic_feature", "r");
    ASSERT_NE(f, nullptr);
    char line[32] = {};
    EXPECT_NE(std::fgets(line, sizeof(line), f), nullptr);
    std::fclose(f);
    EXPECT_STREQ(line, "0x7f\n");

    Region &word = region(4096);
    Region &old = region(4096);
    ASSERT_NE(old.imp, nullptr);
    struct Case {
        urma_opcode_t op;
        uint64_t start, cmp, val, want;
    } cases[] = {
        {URMA_OPC_CAS, 100, 100, 7, 7},    // compare hits: swapped
        {URMA_OPC_CAS, 100, 99, 7, 100},   // compare misses: unchanged
        {URMA_OPC_FADD, 100, 0, 23, 123},
        {URMA_OPC_FADD, ~0ull, 0, 2, 1},  // wraps
        {URMA_OPC_SWAP, 100, 0, 5, 5},
        {URMA_OPC_FSUB, 100, 0, 1, 99},
        {URMA_OPC_FAND, 0xf0f0, 0, 0xff00, 0xf000},
        {URMA_OPC_FAND, ~0ull, 0, 0x8000000000000001ull, 0x8000000000000001ull},
        {URMA_OPC_FAND, 0x1234, 0, 0, 0},
        {URMA_OPC_FOR, 0xf0f0, 0, 0x0f00, 0xfff0},
        {URMA_OPC_FXOR, 0xf0f0, 0, 0xffff, 0x0f0f},
    };
    for (const Case &k : cases) {
        SCOPED_TRACE("opcode " + std::to_string(k.op));
        w(word) = k.start;
        w(old) = 0x5a5a5a5a;
        EXPECT_EQ(atomic(k.op, word, old, k.cmp, k.val), URMA_CR_SUCCESS);
        EXPECT_EQ(w(word), k.want);
        EXPECT_EQ(w(old), k.start);  // the old value comes back
    }
}

class Rejects : public DpTest {
protected:
    // One WRITE of 64 bytes to (r, off) on a fresh JFS; the CQE status.
    urma_cr_status_t write64(urma_target_seg_t *remote, uint64_t va, uint32_t len = 64)
    {
        urma_jfs_t *jfs = make_jfs(scq_, 16);
        EXPECT_NE(jfs, nullptr);
        Region &src = region(4096);
        ub_itest::fill(src.buf, 4096, 1);
        EXPECT_EQ(urma_write(jfs, tjfr_, remote, src.reg, va, src.va(), len, signaled(), 42), URMA_SUCCESS);
        urma_cr_t c = wait_cr(scq_);
        EXPECT_EQ(c.user_ctx, 42u);
        return c.status;
    }
};

TEST_F(Rejects, WrongToken)
{
    Region &dst = region(4096, ub_itest::kAllAccess, ub_itest::kSegToken + 1);
    ASSERT_NE(dst.imp, nullptr);
    std::memset(dst.buf, 0xee, 4096);
    EXPECT_EQ(write64(dst.imp, dst.va()), URMA_CR_REM_ACCESS_ABORT_ERR);
    EXPECT_EQ(ub_itest::first_not(dst.buf, 4096, 0xee), 4096u);
}

TEST_F(Rejects, BeyondTheSegment)
{
    Region &dst = region(4096);
    ASSERT_NE(dst.imp, nullptr);
    std::memset(dst.buf, 0xee, 4096);
    // Starts inside, ends 32 bytes past the end: nothing is written.
    EXPECT_EQ(write64(dst.imp, dst.va(4096 - 32)), URMA_CR_REM_ACCESS_ABORT_ERR);
    EXPECT_EQ(ub_itest::first_not(dst.buf, 4096, 0xee), 4096u);
    // Entirely before it.
    EXPECT_EQ(write64(dst.imp, dst.va() - 4096), URMA_CR_REM_ACCESS_ABORT_ERR);
    EXPECT_EQ(ub_itest::first_not(dst.buf, 4096, 0xee), 4096u);
}

TEST_F(Rejects, ReadOnlySegmentWritten)
{
    Region &dst = region(4096, URMA_ACCESS_READ);
    ASSERT_NE(dst.imp, nullptr);
    std::memset(dst.buf, 0xee, 4096);
    EXPECT_EQ(write64(dst.imp, dst.va()), URMA_CR_REM_ACCESS_ABORT_ERR);
    EXPECT_EQ(ub_itest::first_not(dst.buf, 4096, 0xee), 4096u);
}

TEST_F(Rejects, AtomicWithoutAtomicRight)
{
    Region &dst = region(4096, URMA_ACCESS_READ | URMA_ACCESS_WRITE);
    Region &old = region(4096);
    ASSERT_NE(old.imp, nullptr);
    *reinterpret_cast<uint64_t *>(dst.buf) = 1000;
    urma_jfs_t *jfs = make_jfs(scq_, 16);
    ASSERT_NE(jfs, nullptr);
    urma_sge_t d = sge(dst, 0, 8, true);
    urma_sge_t s = sge(old, 0, 8, false);
    urma_jfs_wr_t wr = {};
    urma_jfs_wr_t *bad = nullptr;
    wr.opcode = URMA_OPC_FADD;
    wr.flag = signaled();
    wr.tjetty = tjfr_;
    wr.faa.dst = &d;
    wr.faa.src = &s;
    wr.faa.operand = 1;
    ASSERT_EQ(urma_post_jfs_wr(jfs, &wr, &bad), URMA_SUCCESS);
    EXPECT_EQ(wait_cr(scq_).status, URMA_CR_REM_ACCESS_ABORT_ERR);
    EXPECT_EQ(*reinterpret_cast<uint64_t *>(dst.buf), 1000u);
}

TEST_F(Rejects, UnregisteredAfterImport)
{
    Region &dst = region(4096);
    ASSERT_NE(dst.imp, nullptr);
    std::memset(dst.buf, 0xee, 4096);
    ASSERT_EQ(urma_unregister_seg(dst.reg), URMA_SUCCESS);
    dst.reg = nullptr;
    EXPECT_EQ(write64(dst.imp, dst.va()), URMA_CR_REM_ACCESS_ABORT_ERR);
    EXPECT_EQ(ub_itest::first_not(dst.buf, 4096, 0xee), 4096u);
}

// An SQE naming an index that was unimported: the library cannot build
// one from a live import, so the test keeps a copy of the wrapper.
TEST_F(Rejects, UnimportedSegment)
{
    Region &dst = region(4096);
    ASSERT_NE(dst.imp, nullptr);
    std::memset(dst.buf, 0xee, 4096);
    urma::TargetSegImpl stale = *urma::from_pub<urma::TargetSegImpl>(dst.imp);
    ASSERT_NE(stale.target_idx, 0u);
    ASSERT_EQ(urma_unimport_seg(dst.imp), URMA_SUCCESS);
    dst.imp = nullptr;
    // The initiator finds no such import: nothing reaches the target.
    EXPECT_EQ(write64(&stale.pub, dst.va()), URMA_CR_LOC_ACCESS_ERR);
    EXPECT_EQ(ub_itest::first_not(dst.buf, 4096, 0xee), 4096u);
}

TEST_F(Rejects, UnimportedJfr)
{
    Region &src = region(4096);
    Region &dst = region(4096);
    ASSERT_NE(dst.imp, nullptr);
    std::memset(dst.buf, 0xee, 4096);
    ASSERT_EQ(recv(dst, 0, 4096, 1), URMA_SUCCESS);
    urma::TargetJettyImpl stale = *urma::from_pub<urma::TargetJettyImpl>(tjfr_);
    ASSERT_EQ(urma_unimport_jfr(tjfr_), URMA_SUCCESS);
    tjfr_ = nullptr;
    urma_jfs_t *jfs = make_jfs(scq_, 16);
    ASSERT_NE(jfs, nullptr);
    ASSERT_EQ(urma_send(jfs, &stale.pub, src.reg, src.va(), 64, signaled(), 5), URMA_SUCCESS);
    urma_cr_t c = wait_cr(scq_);
    EXPECT_EQ(c.user_ctx, 5u);
    EXPECT_EQ(c.status, URMA_CR_LOC_ACCESS_ERR);
    EXPECT_TRUE(stays_empty(rcq_, 200));
    EXPECT_EQ(ub_itest::first_not(dst.buf, 4096, 0xee), 4096u);
}

// WRITE_NOTIFY: the data, then the 8-byte notify word (dst.sge[1]).
class Notify : public DpTest {
protected:
    // One WRITE_NOTIFY of len bytes from src to data with the notify word
    // at ntf, on a fresh JFS (after an error too); the CQE.
    urma_cr_t write_notify(const urma_sge_t &src, const urma_sge_t &data, const urma_sge_t &ntf, uint64_t notify,
                           uint64_t user_ctx = 0x4e)
    {
        urma_jfs_t *jfs = make_jfs(scq_, 16);
        EXPECT_NE(jfs, nullptr);
        urma_cr_t none = {};
        none.status = static_cast<urma_cr_status_t>(0xff);
        if (jfs == nullptr)
            return none;
        urma_sge_t l = src;
        urma_sge_t r[2] = {data, ntf};
        urma_jfs_wr_t wr = {};
        urma_jfs_wr_t *bad = nullptr;
        wr.opcode = op_;
        wr.flag = signaled();
        wr.tjetty = tjfr_;
        wr.user_ctx = user_ctx;
        wr.rw.src = {&l, 1};
        wr.rw.dst = {r, 2};
        wr.rw.notify_data = notify;
        EXPECT_EQ(urma_post_jfs_wr(jfs, &wr, &bad), URMA_SUCCESS);
        urma_cr_t c = wait_cr(scq_);
        EXPECT_EQ(c.user_ctx, user_ctx);
        return c;
    }
    static uint64_t word(const Region &r, size_t off) { return *reinterpret_cast<const uint64_t *>(r.buf + off); }
    static void set_word(Region &r, size_t off, uint64_t v) { *reinterpret_cast<uint64_t *>(r.buf + off) = v; }
    // WRITE_NOTIFY, or WRITE_ATOMIC (the same WR: the word is added to).
    urma_opcode_t op_ = URMA_OPC_WRITE_NOTIFY;
};

TEST_F(Notify, DataThenNotifyWordEverySize)
{
    const size_t sizes[] = {0, 1, 4097, 1u << 20};
    Region &src = region((1u << 20) + kPad);
    Region &dst = region((1u << 20) + kPad);
    Region &ntf = region(4096);  // a second segment
    ASSERT_NE(ntf.imp, nullptr);
    uint64_t notify = 0x1000;
    for (size_t size : sizes) {
        SCOPED_TRACE("size " + std::to_string(size));
        ub_itest::fill(src.buf, size + kPad, size + 7);
        std::memset(dst.buf, 0xee, size + kPad);
        std::memset(ntf.buf, 0xee, 4096);
        notify = notify * 3 + size;
        urma_cr_t c = write_notify(sge(src, 3, static_cast<uint32_t>(size), false),
                                   sge(dst, 5, static_cast<uint32_t>(size), true), sge(ntf, 64, 8, true), notify);
        EXPECT_EQ(c.status, URMA_CR_SUCCESS);
        EXPECT_EQ(c.completion_len, size);
        EXPECT_EQ(std::memcmp(dst.buf + 5, src.buf + 3, size), 0);
        EXPECT_EQ(ub_itest::first_not(dst.buf, 5, 0xee), 5u);
        EXPECT_EQ(ub_itest::first_not(dst.buf + 5 + size, kPad - 5, 0xee), kPad - 5);
        EXPECT_EQ(word(ntf, 64), notify);
        EXPECT_EQ(ub_itest::first_not(ntf.buf, 64, 0xee), 64u);
        EXPECT_EQ(ub_itest::first_not(ntf.buf + 72, 4096 - 72, 0xee), 4096u - 72);
    }

    // The notify word in the data's own segment, after the data.
    std::memset(dst.buf, 0, 8192);
    urma_cr_t c = write_notify(sge(src, 0, 4000, false), sge(dst, 0, 4000, true), sge(dst, 4096, 8, true),
                               0xfeedfacecafebeefull);
    EXPECT_EQ(c.status, URMA_CR_SUCCESS);
    EXPECT_EQ(std::memcmp(dst.buf, src.buf, 4000), 0);
    EXPECT_EQ(word(dst, 4096), 0xfeedfacecafebeefull);
}

// Every rejection leaves the data range and the notify word as they were.
TEST_F(Notify, RejectedChangesNeitherLocation)
{
    Region &src = region(4096);
    Region &dst = region(4096);
    Region &ntf = region(4096);
    Region &ntf_bad_token = region(4096, ub_itest::kAllAccess, ub_itest::kSegToken + 1);
    Region &ntf_ro = region(4096, URMA_ACCESS_READ);
    Region &dst_ro = region(4096, URMA_ACCESS_READ);
    ASSERT_NE(dst_ro.imp, nullptr);
    ub_itest::fill(src.buf, 4096, 11);
    struct Case {
        const char *what;
        urma_sge_t data, ntf;
        urma_cr_status_t want;
    } cases[] = {
        {"notify word beyond its segment", sge(dst, 0, 256, true), sge(ntf, 4096, 8, true),
         URMA_CR_REM_ACCESS_ABORT_ERR},
        {"notify word before its segment", sge(dst, 0, 256, true), {ntf.va() - 8, 8, ntf.imp, nullptr},
         URMA_CR_REM_ACCESS_ABORT_ERR},
        {"wrong token for the notify segment", sge(dst, 0, 256, true), sge(ntf_bad_token, 0, 8, true),
         URMA_CR_REM_ACCESS_ABORT_ERR},
        {"read-only notify segment", sge(dst, 0, 256, true), sge(ntf_ro, 0, 8, true), URMA_CR_REM_ACCESS_ABORT_ERR},
        {"read-only data segment", sge(dst_ro, 0, 256, true), sge(ntf, 0, 8, true), URMA_CR_REM_ACCESS_ABORT_ERR},
        {"data beyond its segment", sge(dst, 4000, 256, true), sge(ntf, 0, 8, true), URMA_CR_REM_ACCESS_ABORT_ERR},
        {"notify word not aligned", sge(dst, 0, 256, true), sge(ntf, 4, 8, true), URMA_CR_LOC_OPERATION_ERR},
    };
    Region *all[] = {&dst, &ntf, &ntf_bad_token, &ntf_ro, &dst_ro};
    for (const Case &k : cases) {
        SCOPED_TRACE(k.what);
        for (Region *r : all)
            std::memset(r->buf, 0xee, 4096);
        urma_cr_t c = write_notify(sge(src, 0, 256, false), k.data, k.ntf, 0x1122334455667788ull);
        EXPECT_EQ(c.status, k.want);
        for (Region *r : all)
            EXPECT_EQ(ub_itest::first_not(r->buf, 4096, 0xee), 4096u);
    }
    // Only data and no notify word: not a WRITE_NOTIFY the library posts.
    urma_sge_t l = sge(src, 0, 256, false);
    urma_sge_t d = sge(dst, 0, 256, true);
    urma_jfs_wr_t wr = {};
    urma_jfs_wr_t *bad = nullptr;
    wr.opcode = URMA_OPC_WRITE_NOTIFY;
    wr.flag = signaled();
    wr.tjetty = tjfr_;
    wr.rw.src = {&l, 1};
    wr.rw.dst = {&d, 1};
    EXPECT_EQ(urma_post_jfs_wr(jfs_, &wr, &bad), URMA_EINVAL);
    EXPECT_EQ(bad, &wr);
    EXPECT_TRUE(stays_empty(scq_, 100));
    EXPECT_EQ(ub_itest::first_not(dst.buf, 4096, 0xee), 4096u);
}

// WRITE_ATOMIC (UMDK's write with atomic add): WRITE_NOTIFY's WR, but the
// notify data is added to the word (dst.sge[1]) with one 8-byte atomic.
class WriteAtomic : public Notify {
protected:
    WriteAtomic() { op_ = URMA_OPC_WRITE_ATOMIC; }
};

TEST_F(WriteAtomic, DataThenAddEverySize)
{
    const size_t sizes[] = {0, 1, 4097, 1u << 20};
    Region &src = region((1u << 20) + kPad);
    Region &dst = region((1u << 20) + kPad);
    Region &cnt = region(4096);  // a second segment
    ASSERT_NE(cnt.imp, nullptr);
    std::memset(cnt.buf, 0xee, 4096);
    uint64_t sum = 1000;
    set_word(cnt, 64, sum);
    for (size_t size : sizes) {
        SCOPED_TRACE("size " + std::to_string(size));
        ub_itest::fill(src.buf, size + kPad, size + 3);
        std::memset(dst.buf, 0xee, size + kPad);
        const uint64_t add = 0x100000000ull + size;
        urma_cr_t c = write_notify(sge(src, 3, static_cast<uint32_t>(size), false),
                                   sge(dst, 5, static_cast<uint32_t>(size), true), sge(cnt, 64, 8, true), add);
        sum += add;
        EXPECT_EQ(c.status, URMA_CR_SUCCESS);
        EXPECT_EQ(c.completion_len, size);
        EXPECT_EQ(std::memcmp(dst.buf + 5, src.buf + 3, size), 0);
        EXPECT_EQ(ub_itest::first_not(dst.buf, 5, 0xee), 5u);
        EXPECT_EQ(ub_itest::first_not(dst.buf + 5 + size, kPad - 5, 0xee), kPad - 5);
        EXPECT_EQ(word(cnt, 64), sum);
        EXPECT_EQ(ub_itest::first_not(cnt.buf, 64, 0xee), 64u);
        EXPECT_EQ(ub_itest::first_not(cnt.buf + 72, 4096 - 72, 0xee), 4096u - 72);
    }
    // The add wraps; the word may be in the data's own segment.
    set_word(dst, 4096, ~0ull);
    urma_cr_t c = write_notify(sge(src, 0, 4000, false), sge(dst, 0, 4000, true), sge(dst, 4096, 8, true), 2);
    EXPECT_EQ(c.status, URMA_CR_SUCCESS);
    EXPECT_EQ(std::memcmp(dst.buf, src.buf, 4000), 0);
    EXPECT_EQ(word(dst, 4096), 1u);
}

// Every rejection leaves the data range and the word as they were: the
// word needs the ATOMIC right (as FADD), the data the WRITE right.
TEST_F(WriteAtomic, RejectedChangesNeitherLocation)
{
    Region &src = region(4096);
    Region &dst = region(4096);
    Region &cnt = region(4096);
    Region &cnt_bad_token = region(4096, ub_itest::kAllAccess, ub_itest::kSegToken + 1);
    Region &cnt_rw = region(4096, URMA_ACCESS_READ | URMA_ACCESS_WRITE);
    Region &dst_bad_token = region(4096, ub_itest::kAllAccess, ub_itest::kSegToken + 1);
    Region &dst_ro = region(4096, URMA_ACCESS_READ);
    ASSERT_NE(dst_ro.imp, nullptr);
    ub_itest::fill(src.buf, 4096, 12);
    struct Case {
        const char *what;
        urma_sge_t data, word;
        urma_cr_status_t want;
    } cases[] = {
        {"word beyond its segment", sge(dst, 0, 256, true), sge(cnt, 4096, 8, true), URMA_CR_REM_ACCESS_ABORT_ERR},
        {"wrong token for the word", sge(dst, 0, 256, true), sge(cnt_bad_token, 0, 8, true),
         URMA_CR_REM_ACCESS_ABORT_ERR},
        {"word without the atomic right", sge(dst, 0, 256, true), sge(cnt_rw, 0, 8, true),
         URMA_CR_REM_ACCESS_ABORT_ERR},
        {"word not aligned", sge(dst, 0, 256, true), sge(cnt, 4, 8, true), URMA_CR_LOC_OPERATION_ERR},
        {"wrong token for the data", sge(dst_bad_token, 0, 256, true), sge(cnt, 0, 8, true),
         URMA_CR_REM_ACCESS_ABORT_ERR},
        {"data without the write right", sge(dst_ro, 0, 256, true), sge(cnt, 0, 8, true),
         URMA_CR_REM_ACCESS_ABORT_ERR},
        {"data beyond its segment", sge(dst, 4000, 256, true), sge(cnt, 0, 8, true), URMA_CR_REM_ACCESS_ABORT_ERR},
    };
    Region *all[] = {&dst, &cnt, &cnt_bad_token, &cnt_rw, &dst_bad_token, &dst_ro};
    for (const Case &k : cases) {
        SCOPED_TRACE(k.what);
        for (Region *r : all)
            std::memset(r->buf, 0xee, 4096);
        urma_cr_t c = write_notify(sge(src, 0, 256, false), k.data, k.word, 1);
        EXPECT_EQ(c.status, k.want);
        for (Region *r : all)
            EXPECT_EQ(ub_itest::first_not(r->buf, 4096, 0xee), 4096u);
    }
}

// FLUSH_DMA: one remote range, no local memory; it completes (length 0)
// after the WRITEs before it on the queue, whose bytes are in place; the
// target checks it as a WRITE of the range.
class FlushDma : public DpTest {
protected:
    urma_cr_status_t flush(urma_jfs_t *jfs, const urma_sge_t &range, uint64_t user_ctx)
    {
        urma_sge_t r = range;
        urma_jfs_wr_t wr = {};
        urma_jfs_wr_t *bad = nullptr;
        wr.opcode = URMA_OPC_FLUSH_DMA;
        wr.flag = signaled();
        wr.tjetty = tjfr_;
        wr.user_ctx = user_ctx;
        wr.rw.dst = {&r, 1};
        EXPECT_EQ(urma_post_jfs_wr(jfs, &wr, &bad), URMA_SUCCESS);
        urma_cr_t c = wait_cr(scq_);
        EXPECT_EQ(c.user_ctx, user_ctx);
        if (c.status == URMA_CR_SUCCESS) {
            EXPECT_EQ(c.completion_len, 0u);
        }
        return c.status;
    }
};

TEST_F(FlushDma, AfterWritesAndItsChecks)
{
    Region &src = region(65536);
    Region &dst = region(65536);
    Region &bad_token = region(4096, ub_itest::kAllAccess, ub_itest::kSegToken + 1);
    Region &ro = region(4096, URMA_ACCESS_READ);
    ASSERT_NE(ro.imp, nullptr);
    urma_jfs_t *jfs = make_jfs(scq_, 64);
    ASSERT_NE(jfs, nullptr);
    ub_itest::fill(src.buf, 65536, 21);
    std::memset(dst.buf, 0xee, 65536);
    // 16 unsignaled WRITEs of 4 KiB, then the FLUSH_DMA of the range.
    urma_jfs_wr_flag_t quiet = {};
    for (int i = 0; i < 16; i++)
        ASSERT_EQ(urma_write(jfs, tjfr_, dst.imp, src.reg, dst.va(i * 4096), src.va(i * 4096), 4096, quiet, i),
                  URMA_SUCCESS);
    EXPECT_EQ(flush(jfs, sge(dst, 0, 65536, true), 100), URMA_CR_SUCCESS);
    EXPECT_EQ(std::memcmp(dst.buf, src.buf, 65536), 0);
    EXPECT_EQ(flush(jfs, sge(dst, 0, 0, true), 101), URMA_CR_SUCCESS);  // zero length
    // A wrong token, beyond the segment, no WRITE right: the local path's
    // status; the queue goes on.
    EXPECT_EQ(flush(make_jfs(scq_, 4), sge(bad_token, 0, 4096, true), 102), URMA_CR_REM_ACCESS_ABORT_ERR);
    EXPECT_EQ(flush(make_jfs(scq_, 4), sge(dst, 4096, 65536, true), 103), URMA_CR_REM_ACCESS_ABORT_ERR);
    EXPECT_EQ(flush(make_jfs(scq_, 4), {dst.va() - 4096, 64, dst.imp, nullptr}, 104), URMA_CR_REM_ACCESS_ABORT_ERR);
    EXPECT_EQ(flush(make_jfs(scq_, 4), sge(ro, 0, 64, true), 105), URMA_CR_REM_ACCESS_ABORT_ERR);
    // Local memory is refused at post.
    urma_sge_t l = sge(src, 0, 64, false), r = sge(dst, 0, 64, true);
    urma_jfs_wr_t wr = {};
    urma_jfs_wr_t *bad = nullptr;
    wr.opcode = URMA_OPC_FLUSH_DMA;
    wr.flag = signaled();
    wr.tjetty = tjfr_;
    wr.rw.src = {&l, 1};
    wr.rw.dst = {&r, 1};
    EXPECT_EQ(urma_post_jfs_wr(jfs, &wr, &bad), URMA_EINVAL);
    EXPECT_EQ(bad, &wr);
    // Unregistered after the import.
    Region &gone = region(4096);
    ASSERT_NE(gone.imp, nullptr);
    ASSERT_EQ(urma_unregister_seg(gone.reg), URMA_SUCCESS);
    gone.reg = nullptr;
    EXPECT_EQ(flush(make_jfs(scq_, 4), sge(gone, 0, 64, true), 106), URMA_CR_REM_ACCESS_ABORT_ERR);
}

// SEND_INVALIDATE: delivered as a SEND, then the segment it names takes no
// remote access any more.
class Invalidate : public DpTest {
protected:
    // One WR on a fresh JFS; the sender's CQE.
    urma_cr_t post(urma_jfs_wr_t &wr)
    {
        urma_jfs_t *jfs = make_jfs(scq_, 16);
        EXPECT_NE(jfs, nullptr);
        urma_cr_t none = {};
        none.status = static_cast<urma_cr_status_t>(0xff);
        if (jfs == nullptr)
            return none;
        urma_jfs_wr_t *bad = nullptr;
        wr.flag = signaled();
        wr.tjetty = tjfr_;
        EXPECT_EQ(urma_post_jfs_wr(jfs, &wr, &bad), URMA_SUCCESS);
        urma_cr_t c = wait_cr(scq_);
        EXPECT_EQ(c.user_ctx, wr.user_ctx);
        return c;
    }
    urma_cr_t send_invalidate(urma_target_seg_t *seg, const Region &src, uint32_t len, uint64_t user_ctx)
    {
        urma_sge_t s = sge(src, 0, len, false);
        urma_jfs_wr_t wr = {};
        wr.opcode = URMA_OPC_SEND_INVALIDATE;
        wr.user_ctx = user_ctx;
        wr.send.src = {&s, 1};
        wr.send.tseg = seg;
        return post(wr);
    }
    urma_cr_status_t write(urma_target_seg_t *remote, uint64_t va, const Region &src, uint32_t len)
    {
        urma_sge_t l = sge(src, 0, len, false);
        urma_sge_t r = {va, len, remote, nullptr};
        urma_jfs_wr_t wr = {};
        wr.opcode = URMA_OPC_WRITE;
        wr.user_ctx = 0x57;
        wr.rw.src = {&l, 1};
        wr.rw.dst = {&r, 1};
        return post(wr).status;
    }
    urma_cr_status_t read(urma_target_seg_t *remote, uint64_t va, const Region &dst, uint32_t len)
    {
        urma_sge_t l = sge(dst, 0, len, false);
        urma_sge_t r = {va, len, remote, nullptr};
        urma_jfs_wr_t wr = {};
        wr.opcode = URMA_OPC_READ;
        wr.user_ctx = 0x52;
        wr.rw.src = {&r, 1};
        wr.rw.dst = {&l, 1};
        return post(wr).status;
    }
    // A SEND into the RQE the test posted before: proves it was not taken.
    void expect_rqe_still_posted(const Region &src, uint64_t rqe_ctx)
    {
        ASSERT_EQ(urma_send(jfs_, tjfr_, src.reg, src.va(), 16, signaled(), 0x5e), URMA_SUCCESS);
        EXPECT_EQ(wait_cr(scq_).status, URMA_CR_SUCCESS);
        urma_cr_t r = wait_cr(rcq_);
        EXPECT_EQ(r.status, URMA_CR_SUCCESS);
        EXPECT_EQ(r.opcode, URMA_CR_OPC_SEND);
        EXPECT_EQ(r.user_ctx, rqe_ctx);
    }
};

TEST_F(Invalidate, DeliversThenRefusesRemoteAccess)
{
    Region &src = region(4096);
    Region &seg = region(4096);
    Region &other = region(4096);
    Region &rbuf = region(4096);
    Region &back = region(4096);
    ASSERT_NE(back.imp, nullptr);
    ub_itest::fill(src.buf, 4096, 21);
    std::memset(rbuf.buf, 0, 4096);
    ASSERT_EQ(recv(rbuf, 0, 4096, 0x1111), URMA_SUCCESS);

    urma_cr_t c = send_invalidate(seg.imp, src, 100, 0x2222);
    EXPECT_EQ(c.status, URMA_CR_SUCCESS);
    EXPECT_EQ(c.completion_len, 100u);
    urma_cr_t r = wait_cr(rcq_);
    EXPECT_EQ(r.status, URMA_CR_SUCCESS);
    EXPECT_EQ(r.flag.bs.s_r, 1);
    EXPECT_EQ(r.opcode, URMA_CR_OPC_SEND_WITH_INV);
    EXPECT_EQ(r.completion_len, 100u);
    EXPECT_EQ(r.user_ctx, 0x1111u);
    EXPECT_EQ(r.local_id, jfr_->jfr_id.id);
    EXPECT_EQ(r.invalid_token.token_id, seg.reg->seg.token_id);
    EXPECT_EQ(r.invalid_token.token_value.token, ub_itest::kSegToken);
    EXPECT_EQ(std::memcmp(rbuf.buf, src.buf, 100), 0);
    EXPECT_EQ(ub_itest::first_not(rbuf.buf + 100, 4096 - 100, 0), 4096u - 100);

    // Every remote access to the segment fails and changes nothing.
    std::memset(seg.buf, 0xee, 4096);
    EXPECT_EQ(write(seg.imp, seg.va(), src, 64), URMA_CR_REM_ACCESS_ABORT_ERR);
    std::memset(back.buf, 0x33, 4096);
    EXPECT_EQ(read(seg.imp, seg.va(), back, 64), URMA_CR_REM_ACCESS_ABORT_ERR);
    EXPECT_EQ(ub_itest::first_not(back.buf, 4096, 0x33), 4096u);
    urma_sge_t d = sge(seg, 8, 8, true);
    urma_sge_t o = sge(back, 0, 8, false);
    urma_jfs_wr_t wr = {};
    wr.opcode = URMA_OPC_FADD;
    wr.user_ctx = 0xfa;
    wr.faa.dst = &d;
    wr.faa.src = &o;
    wr.faa.operand = 1;
    EXPECT_EQ(post(wr).status, URMA_CR_REM_ACCESS_ABORT_ERR);
    // ... as the notify word of a WRITE_NOTIFY (the data goes elsewhere) ...
    urma_sge_t l = sge(src, 0, 64, false);
    urma_sge_t rn[2] = {sge(other, 0, 64, true), sge(seg, 16, 8, true)};
    std::memset(other.buf, 0xee, 4096);
    wr = {};
    wr.opcode = URMA_OPC_WRITE_NOTIFY;
    wr.user_ctx = 0x4e;
    wr.rw.src = {&l, 1};
    wr.rw.dst = {rn, 2};
    wr.rw.notify_data = 5;
    EXPECT_EQ(post(wr).status, URMA_CR_REM_ACCESS_ABORT_ERR);
    EXPECT_EQ(ub_itest::first_not(other.buf, 4096, 0xee), 4096u);
    // ... and a second invalidation, which takes no RQE.
    ASSERT_EQ(recv(rbuf, 0, 4096, 0x3333), URMA_SUCCESS);
    EXPECT_EQ(send_invalidate(seg.imp, src, 16, 0x4444).status, URMA_CR_REM_ACCESS_ABORT_ERR);
    EXPECT_TRUE(stays_empty(rcq_, 100));
    EXPECT_EQ(ub_itest::first_not(seg.buf, 4096, 0xee), 4096u);
    expect_rqe_still_posted(src, 0x3333);

    // Another segment takes remote access as before.
    EXPECT_EQ(write(other.imp, other.va(), src, 64), URMA_CR_SUCCESS);
    EXPECT_EQ(std::memcmp(other.buf, src.buf, 64), 0);
    // The owner still uses the invalidated segment locally: as the source
    // of a WRITE and as a receive buffer.
    ub_itest::fill(seg.buf, 4096, 22);
    EXPECT_EQ(write(other.imp, other.va(1024), seg, 128), URMA_CR_SUCCESS);
    EXPECT_EQ(std::memcmp(other.buf + 1024, seg.buf, 128), 0);
    ASSERT_EQ(recv(seg, 0, 4096, 0x5555), URMA_SUCCESS);
    ASSERT_EQ(urma_send(jfs_, tjfr_, src.reg, src.va(), 200, signaled(), 0x66), URMA_SUCCESS);
    EXPECT_EQ(wait_cr(scq_).status, URMA_CR_SUCCESS);
    r = wait_cr(rcq_);
    EXPECT_EQ(r.status, URMA_CR_SUCCESS);
    EXPECT_EQ(r.user_ctx, 0x5555u);
    EXPECT_EQ(std::memcmp(seg.buf, src.buf, 200), 0);
    // Unregistering it in TearDown brings the counts back to 0.
}

TEST_F(Invalidate, WrongTokenTakesNoRqeAndInvalidatesNothing)
{
    Region &src = region(4096);
    Region &seg = region(4096);
    ASSERT_NE(seg.imp, nullptr);
    ub_itest::fill(src.buf, 4096, 23);
    // A second import of the segment presenting a wrong token.
    urma_token_t bad_token = {ub_itest::kSegToken + 1};
    urma_import_seg_flag_t f = {};
    f.bs.access = ub_itest::kAllAccess;
    f.bs.mapping = URMA_SEG_NOMAP;
    urma_target_seg_t *bad_imp = urma_import_seg(ctx_, &seg.reg->seg, &bad_token, 0, f);
    ASSERT_NE(bad_imp, nullptr);

    std::memset(seg.buf, 0xee, 4096);
    ASSERT_EQ(recv(src, 2048, 1024, 0x7777), URMA_SUCCESS);
    EXPECT_EQ(send_invalidate(bad_imp, src, 32, 0x8888).status, URMA_CR_REM_ACCESS_ABORT_ERR);
    EXPECT_TRUE(stays_empty(rcq_, 100));
    EXPECT_EQ(ub_itest::first_not(seg.buf, 4096, 0xee), 4096u);
    expect_rqe_still_posted(src, 0x7777);
    // The segment is still valid: the right token writes it.
    EXPECT_EQ(write(seg.imp, seg.va(100), src, 64), URMA_CR_SUCCESS);
    EXPECT_EQ(std::memcmp(seg.buf + 100, src.buf, 64), 0);
    EXPECT_EQ(urma_unimport_seg(bad_imp), URMA_SUCCESS);
}

// A message ends remote access to its receiver's memory only: a segment of
// another context is refused, and stays valid.
TEST_F(Invalidate, SegmentOfAnotherContext)
{
    Region &src = region(4096);
    ub_itest::fill(src.buf, 4096, 24);
    urma_context_t *ctx2 = ub_itest::open_ctx();
    ASSERT_NE(ctx2, nullptr);
    size_t pg = static_cast<size_t>(sysconf(_SC_PAGESIZE));
    void *p = mmap(nullptr, pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    ASSERT_NE(p, MAP_FAILED);
    std::memset(p, 0xee, pg);
    urma_seg_cfg_t sc = ub_itest::seg_cfg(p, pg, ub_itest::kAllAccess);
    sc.token_value.token = ub_itest::kSegToken;
    urma_target_seg_t *reg2 = urma_register_seg(ctx2, &sc);
    ASSERT_NE(reg2, nullptr);
    urma_token_t t = {ub_itest::kSegToken};
    urma_import_seg_flag_t f = {};
    f.bs.access = ub_itest::kAllAccess;
    f.bs.mapping = URMA_SEG_NOMAP;
    urma_target_seg_t *imp2 = urma_import_seg(ctx_, &reg2->seg, &t, 0, f);
    ASSERT_NE(imp2, nullptr);

    ASSERT_EQ(recv(src, 2048, 1024, 0x9999), URMA_SUCCESS);
    EXPECT_EQ(send_invalidate(imp2, src, 32, 0xaaaa).status, URMA_CR_REM_ACCESS_ABORT_ERR);
    EXPECT_TRUE(stays_empty(rcq_, 100));
    EXPECT_EQ(ub_itest::first_not(static_cast<uint8_t *>(p), pg, 0xee), pg);
    expect_rqe_still_posted(src, 0x9999);
    EXPECT_EQ(write(imp2, reinterpret_cast<uintptr_t>(p), src, 64), URMA_CR_SUCCESS);
    EXPECT_EQ(std::memcmp(p, src.buf, 64), 0);

    EXPECT_EQ(urma_unimport_seg(imp2), URMA_SUCCESS);
    EXPECT_EQ(urma_unregister_seg(reg2), URMA_SUCCESS);
    EXPECT_EQ(urma_delete_context(ctx2), URMA_SUCCESS);
    munmap(p, pg);
}

}  // namespace
