// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The UB/URMA stack authors
// The data-path suites' common setup: the stack on lo, one context that
// talks to itself (it imports its own JFR and segments, as a peer on
// another host would), regions registered and imported, and helpers that
// poll for completion records with a deadline.
#pragma once

#include <gtest/gtest.h>

#include <poll.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>

#include <ub/udma_abi.h>

#include "stack.h"
#include "urma_api.h"
#include "urma_itest.h"

namespace ub_itest {

constexpr uint32_t kJfrToken = 0xabcd;
constexpr uint32_t kSegToken = 0x5eed;
constexpr uint32_t kAllAccess = URMA_ACCESS_READ | URMA_ACCESS_WRITE | URMA_ACCESS_ATOMIC;

inline uint64_t now_ms()
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return static_cast<uint64_t>(ts.tv_sec) * 1000 + static_cast<uint64_t>(ts.tv_nsec) / 1000000;
}

// A buffer registered in the context and imported back: reg names it as
// local memory, imp as remote memory.
struct Region {
    uint8_t *buf = nullptr;
    size_t len = 0;
    size_t map_len = 0;
    urma_target_seg_t *reg = nullptr;
    urma_target_seg_t *imp = nullptr;
    uint64_t va(size_t off = 0) const { return reinterpret_cast<uintptr_t>(buf) + off; }
};

class DpTest : public CtxTest {
protected:
    void SetUp() override
    {
        CtxTest::SetUp();
        if (HasFatalFailure())
            return;
        urma_jfc_cfg_t c = jfc_cfg(1024);
        scq_ = urma_create_jfc(ctx_, &c);
        ASSERT_NE(scq_, nullptr);
        rcq_ = urma_create_jfc(ctx_, &c);
        ASSERT_NE(rcq_, nullptr);
        jfs_ = make_jfs(scq_);
        ASSERT_NE(jfs_, nullptr);
        urma_jfr_cfg_t r = jfr_cfg(rcq_, 256);
        r.max_sge = static_cast<uint8_t>(cap_.max_jfr_sge < UDMA_RQE_MAX_SGE ? cap_.max_jfr_sge : UDMA_RQE_MAX_SGE);
        r.token_value.token = kJfrToken;
        jfr_ = urma_create_jfr(ctx_, &r);
        ASSERT_NE(jfr_, nullptr) << std::strerror(errno);
        tjfr_ = import_jfr(jfr_, kJfrToken);
        ASSERT_NE(tjfr_, nullptr) << std::strerror(errno);
    }

    void TearDown() override
    {
        for (int i = nregions_ - 1; i >= 0; i--)
            drop(regions_[i]);
        if (tjfr_ != nullptr) {
            EXPECT_EQ(urma_unimport_jfr(tjfr_), URMA_SUCCESS);
        }
        if (jfr_ != nullptr) {
            EXPECT_EQ(urma_delete_jfr(jfr_), URMA_SUCCESS);
        }
        for (int i = njfs_ - 1; i >= 0; i--)
            if (extra_jfs_[i] != nullptr) {
                EXPECT_EQ(urma_delete_jfs(extra_jfs_[i]), URMA_SUCCESS);
            }
        if (scq_ != nullptr) {
            EXPECT_EQ(urma_delete_jfc(scq_), URMA_SUCCESS);
        }
        if (rcq_ != nullptr) {
            EXPECT_EQ(urma_delete_jfc(rcq_), URMA_SUCCESS);
        }
        CtxTest::TearDown();
    }

    // A JFS with every SGE and the inline data the device allows; deleted
    // in TearDown unless the test deletes it (forget_jfs).
    urma_jfs_t *make_jfs(urma_jfc_t *jfc, uint32_t depth = 256, uint8_t rnr_retry = URMA_TYPICAL_RNR_RETRY)
    {
        urma_jfs_cfg_t c = jfs_cfg(jfc, depth);
        c.max_sge = static_cast<uint8_t>(cap_.max_jfs_sge < UDMA_SQE_MAX_SGE ? cap_.max_jfs_sge : UDMA_SQE_MAX_SGE);
        c.max_rsge = 1;
        c.max_inline_data = cap_.max_jfs_inline_len < UDMA_SQE_MAX_INLINE ? cap_.max_jfs_inline_len
                                                                         : UDMA_SQE_MAX_INLINE;
        c.rnr_retry = rnr_retry;
        urma_jfs_t *jfs = urma_create_jfs(ctx_, &c);
        if (jfs != nullptr && njfs_ < kMaxJfs)
            extra_jfs_[njfs_++] = jfs;
        return jfs;
    }
    void forget_jfs(urma_jfs_t *jfs)
    {
        for (int i = 0; i < njfs_; i++)
            if (extra_jfs_[i] == jfs)
                extra_jfs_[i] = nullptr;
    }

    // len bytes (at least one page mapped), registered with reg_access
    // and imported with token import_token; kept until TearDown.
    Region &region(size_t len, uint32_t reg_access = kAllAccess, uint32_t import_token = kSegToken)
    {
        static Region none;
        if (nregions_ == kMaxRegions) {
            ADD_FAILURE() << "too many regions";
            return none;
        }
        Region &r = regions_[nregions_++];
        size_t pg = static_cast<size_t>(sysconf(_SC_PAGESIZE));
        r.len = len;
        r.map_len = (len + pg - 1) / pg * pg;
        if (r.map_len == 0)
            r.map_len = pg;
        void *p = mmap(nullptr, r.map_len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (p == MAP_FAILED) {
            ADD_FAILURE() << "mmap " << r.map_len << ": " << std::strerror(errno);
            return r;
        }
        r.buf = static_cast<uint8_t *>(p);
        urma_seg_cfg_t sc = seg_cfg(r.buf, r.map_len, reg_access);
        sc.token_value.token = kSegToken;
        r.reg = urma_register_seg(ctx_, &sc);
        EXPECT_NE(r.reg, nullptr) << "register " << r.map_len << ": " << std::strerror(errno);
        if (r.reg == nullptr)
            return r;
        urma_token_t t = {import_token};
        urma_import_seg_flag_t f = {};
        f.bs.access = kAllAccess;
        f.bs.mapping = URMA_SEG_NOMAP;
        r.imp = urma_import_seg(ctx_, &r.reg->seg, &t, 0, f);
        EXPECT_NE(r.imp, nullptr) << "import: " << std::strerror(errno);
        return r;
    }

    void drop(Region &r)
    {
        if (r.imp != nullptr) {
            EXPECT_EQ(urma_unimport_seg(r.imp), URMA_SUCCESS);
        }
        if (r.reg != nullptr) {
            EXPECT_EQ(urma_unregister_seg(r.reg), URMA_SUCCESS);
        }
        if (r.buf != nullptr)
            munmap(r.buf, r.map_len);
        r = Region();
    }

    // The next completion record of jfc within timeout_ms; a failure (and
    // status 0xff) if none comes. poll: urma_poll_jfc or a provider entry.
    urma_cr_t wait_cr(urma_jfc_t *jfc, int timeout_ms = 30000,
                      int (*poll)(urma_jfc_t *, int, urma_cr_t *) = urma_poll_jfc)
    {
        urma_cr_t cr = {};
        uint64_t end = now_ms() + static_cast<uint64_t>(timeout_ms);
        for (;;) {
            int n = poll(jfc, 1, &cr);
            if (n == 1)
                return cr;
            EXPECT_EQ(n, 0);
            if (n < 0 || now_ms() > end)
                break;
            usleep(n == 0 ? 50 : 0);
        }
        ADD_FAILURE() << "no completion within " << timeout_ms << " ms";
        cr.status = static_cast<urma_cr_status_t>(0xff);
        return cr;
    }

    // Whether jfc stays empty for ms milliseconds.
    bool stays_empty(urma_jfc_t *jfc, int ms)
    {
        uint64_t end = now_ms() + static_cast<uint64_t>(ms);
        urma_cr_t cr;
        while (now_ms() < end) {
            if (urma_poll_jfc(jfc, 1, &cr) != 0)
                return false;
            usleep(1000);
        }
        return true;
    }

    // One-SGE helpers.
    static urma_sge_t sge(const Region &r, size_t off, uint32_t len, bool remote)
    {
        return urma_sge_t{r.va(off), len, remote ? r.imp : r.reg, nullptr};
    }
    static urma_jfs_wr_flag_t signaled()
    {
        urma_jfs_wr_flag_t f = {};
        f.bs.complete_enable = 1;
        return f;
    }

    // One RQE of one SGE.
    urma_status_t recv(const Region &r, size_t off, uint32_t len, uint64_t user_ctx)
    {
        return urma_recv(jfr_, r.reg, r.va(off), len, user_ctx);
    }

    static constexpr int kMaxRegions = 16;
    static constexpr int kMaxJfs = 64;
    urma_jfc_t *scq_ = nullptr;
    urma_jfc_t *rcq_ = nullptr;
    urma_jfs_t *jfs_ = nullptr;
    urma_jfr_t *jfr_ = nullptr;
    urma_target_jetty_t *tjfr_ = nullptr;
    Region regions_[kMaxRegions];
    int nregions_ = 0;
    urma_jfs_t *extra_jfs_[kMaxJfs] = {};
    int njfs_ = 0;
};

// A pattern that differs per byte and per seed, cheap to make.
inline void fill(uint8_t *p, size_t len, uint64_t seed)
{
    uint64_t x = seed * 0x9e3779b97f4a7c15ull + 1;
    size_t i = 0;
    for (; i + 8 <= len; i += 8) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        std::memcpy(p + i, &x, 8);
    }
    for (; i < len; i++)
        p[i] = static_cast<uint8_t>(x >> (8 * (i % 8)));
}

// Index of the first byte of p[0, len) that is not b, or len.
inline size_t first_not(const uint8_t *p, size_t len, uint8_t b)
{
    for (size_t i = 0; i < len; i++)
        if (p[i] != b)
            return i;
    return len;
}

}  // namespace ub_itest
