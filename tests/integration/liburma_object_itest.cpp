// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The UB/URMA stack authors
// liburma's object calls against ubcore, uburma and udma on lo: each call on
// success and on each documented error, the kernel's object counts in sysfs,
// capability limits, and objects in use.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <sys/epoll.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "stack.h"
#include "urma_api.h"
#include "urma_itest.h"

namespace {

using ub_itest::obj_count;

using ObjectTest = ub_itest::CtxTest;

TEST_F(ObjectTest, ContextHasAsyncFdAndKernelContext)
{
    EXPECT_GE(ctx_->async_fd, 0);
    EXPECT_GE(fcntl(ctx_->async_fd, F_GETFD), 0);
    EXPECT_TRUE(fcntl(ctx_->async_fd, F_GETFD) & FD_CLOEXEC);
    EXPECT_EQ(obj_count("ucontext"), 1);
    uint32_t uasid = 0;
    ASSERT_EQ(urma_get_uasid(&uasid), URMA_SUCCESS);
    EXPECT_EQ(ctx_->uasid, uasid);

    // Objects hold the context: delete refuses while one exists.
    urma_jfc_cfg_t cfg = ub_itest::jfc_cfg();
    urma_jfc_t *jfc = urma_create_jfc(ctx_, &cfg);
    ASSERT_NE(jfc, nullptr);
    EXPECT_EQ(urma_delete_context(ctx_), URMA_EAGAIN);
    EXPECT_EQ(urma_delete_jfc(jfc), URMA_SUCCESS);
}

TEST_F(ObjectTest, Jfc)
{
    urma_jfc_cfg_t cfg = ub_itest::jfc_cfg(100);
    urma_jfc_t *jfc = urma_create_jfc(ctx_, &cfg);

    ASSERT_NE(jfc, nullptr) << std::strerror(errno);
    EXPECT_EQ(jfc->urma_ctx, ctx_);
    EXPECT_NE(jfc->handle, 0u);
    EXPECT_NE(jfc->jfc_id.id, 0u);
    EXPECT_EQ(std::memcmp(jfc->jfc_id.eid.raw, ctx_->eid.raw, sizeof(ctx_->eid.raw)), 0);
    EXPECT_EQ(jfc->jfc_id.uasid, ctx_->uasid);
    EXPECT_GE(jfc->jfc_cfg.depth, 100u);  // the kernel's rounded depth
    EXPECT_EQ(jfc->jfc_cfg.user_ctx, 0x77u);
    EXPECT_EQ(obj_count("jfc"), 1);

    urma_jfc_attr_t attr = {};
    attr.mask = JFC_MODERATE_COUNT | JFC_MODERATE_PERIOD;
    attr.moderate_count = 4;
    attr.moderate_period = 10;
    EXPECT_EQ(urma_modify_jfc(jfc, &attr), URMA_SUCCESS);
    attr.mask = 0;
    EXPECT_EQ(urma_modify_jfc(jfc, &attr), URMA_EINVAL);
    attr.mask = 0x4;
    EXPECT_EQ(urma_modify_jfc(jfc, &attr), URMA_EINVAL);
    EXPECT_EQ(urma_modify_jfc(jfc, nullptr), URMA_EINVAL);

    EXPECT_EQ(urma_delete_jfc(jfc), URMA_SUCCESS);
    EXPECT_EQ(obj_count("jfc"), 0);

    errno = 0;
    EXPECT_EQ(urma_create_jfc(ctx_, nullptr), nullptr);
    EXPECT_EQ(errno, EINVAL);
    errno = 0;
    EXPECT_EQ(urma_create_jfc(nullptr, &cfg), nullptr);
    EXPECT_EQ(errno, EINVAL);
    cfg.depth = 0;
    errno = 0;
    EXPECT_EQ(urma_create_jfc(ctx_, &cfg), nullptr);
    EXPECT_EQ(errno, EINVAL);
    cfg.depth = cap_.max_jfc_depth + 1;
    errno = 0;
    EXPECT_EQ(urma_create_jfc(ctx_, &cfg), nullptr);
    EXPECT_EQ(errno, EINVAL);
    cfg.depth = cap_.max_jfc_depth;  // the largest is fine
    jfc = urma_create_jfc(ctx_, &cfg);
    ASSERT_NE(jfc, nullptr) << std::strerror(errno);
    EXPECT_EQ(jfc->jfc_cfg.depth, cap_.max_jfc_depth);
    EXPECT_EQ(urma_delete_jfc(jfc), URMA_SUCCESS);
    EXPECT_EQ(urma_delete_jfc(nullptr), URMA_EINVAL);
    EXPECT_EQ(obj_count("jfc"), 0);
}

TEST_F(ObjectTest, Jfs)
{
    urma_jfc_cfg_t ccfg = ub_itest::jfc_cfg();
    urma_jfc_t *jfc = urma_create_jfc(ctx_, &ccfg);
    ASSERT_NE(jfc, nullptr);
    urma_jfs_cfg_t cfg = ub_itest::jfs_cfg(jfc, 50);
    cfg.user_ctx = 0x99;
    urma_jfs_t *jfs = urma_create_jfs(ctx_, &cfg);

    ASSERT_NE(jfs, nullptr) << std::strerror(errno);
    EXPECT_NE(jfs->handle, 0u);
    EXPECT_GT(jfs->jfs_id.id, 0u);
    EXPECT_EQ(jfs->jfs_id.uasid, ctx_->uasid);
    EXPECT_GE(jfs->jfs_cfg.depth, 50u);
    EXPECT_EQ(jfs->jfs_cfg.jfc, jfc);
    EXPECT_EQ(jfs->jfs_cfg.user_ctx, 0x99u);
    EXPECT_EQ(obj_count("jfs"), 1);

    urma_jfs_cfg_t q = {};
    urma_jfs_attr_t qa = {};
    ASSERT_EQ(urma_query_jfs(jfs, &q, &qa), URMA_SUCCESS);
    EXPECT_EQ(q.depth, jfs->jfs_cfg.depth);
    EXPECT_EQ(q.trans_mode, URMA_TM_RM);
    EXPECT_EQ(q.max_sge, 1);
    EXPECT_EQ(q.jfc, jfc);
    EXPECT_EQ(urma_query_jfs(jfs, nullptr, &qa), URMA_EINVAL);

    urma_jfs_attr_t attr = {};
    attr.mask = JFS_STATE;
    attr.state = URMA_JETTY_STATE_ERROR;
    ASSERT_EQ(urma_modify_jfs(jfs, &attr), URMA_SUCCESS);
    ASSERT_EQ(urma_query_jfs(jfs, &q, &qa), URMA_SUCCESS);
    EXPECT_EQ(qa.state, URMA_JETTY_STATE_ERROR);
    attr.mask = 0x2;
    EXPECT_EQ(urma_modify_jfs(jfs, &attr), URMA_EINVAL);
    EXPECT_EQ(urma_modify_jfs(jfs, nullptr), URMA_EINVAL);

    // Wrong configurations fail before the kernel.
    for (auto bad : {0u, cap_.max_jfs_depth + 1}) {
        urma_jfs_cfg_t b = ub_itest::jfs_cfg(jfc, bad);
        errno = 0;
        EXPECT_EQ(urma_create_jfs(ctx_, &b), nullptr);
        EXPECT_EQ(errno, EINVAL);
    }
    urma_jfs_cfg_t b = ub_itest::jfs_cfg(nullptr);
    EXPECT_EQ(urma_create_jfs(ctx_, &b), nullptr);
    b = ub_itest::jfs_cfg(jfc);
    b.max_sge = static_cast<uint8_t>(cap_.max_jfs_sge + 1);
    EXPECT_EQ(urma_create_jfs(ctx_, &b), nullptr);
    b = ub_itest::jfs_cfg(jfc);
    b.trans_mode = static_cast<urma_transport_mode_t>(0);
    EXPECT_EQ(urma_create_jfs(ctx_, &b), nullptr);
    EXPECT_EQ(urma_create_jfs(ctx_, nullptr), nullptr);
    EXPECT_EQ(obj_count("jfs"), 1);

    EXPECT_EQ(urma_delete_jfs(jfs), URMA_SUCCESS);
    EXPECT_EQ(obj_count("jfs"), 0);
    EXPECT_EQ(urma_delete_jfc(jfc), URMA_SUCCESS);
}

TEST_F(ObjectTest, Jfr)
{
    urma_jfc_cfg_t ccfg = ub_itest::jfc_cfg();
    urma_jfc_t *jfc = urma_create_jfc(ctx_, &ccfg);
    ASSERT_NE(jfc, nullptr);
    urma_jfr_cfg_t cfg = ub_itest::jfr_cfg(jfc, 33);
    urma_jfr_t *jfr = urma_create_jfr(ctx_, &cfg);

    ASSERT_NE(jfr, nullptr) << std::strerror(errno);
    EXPECT_NE(jfr->handle, 0u);
    EXPECT_GT(jfr->jfr_id.id, 0u);
    EXPECT_EQ(jfr->jfr_cfg.id, jfr->jfr_id.id);
    EXPECT_GE(jfr->jfr_cfg.depth, 33u);
    EXPECT_EQ(jfr->jfr_cfg.token_value.token, 0xabcdu);
    EXPECT_EQ(obj_count("jfr"), 1);

    urma_jfr_attr_t attr = {};
    attr.mask = JFR_RX_THRESHOLD;
    attr.rx_threshold = 5;
    ASSERT_EQ(urma_modify_jfr(jfr, &attr), URMA_SUCCESS);
    urma_jfr_cfg_t q = {};
    urma_jfr_attr_t qa = {};
    ASSERT_EQ(urma_query_jfr(jfr, &q, &qa), URMA_SUCCESS);
    EXPECT_EQ(qa.rx_threshold, 5u);
    EXPECT_EQ(q.depth, jfr->jfr_cfg.depth);
    EXPECT_EQ(q.id, jfr->jfr_id.id);
    EXPECT_EQ(q.token_value.token, 0xabcdu);
    attr.mask = JFR_STATE;
    attr.state = URMA_JFR_STATE_ERROR;
    ASSERT_EQ(urma_modify_jfr(jfr, &attr), URMA_SUCCESS);
    ASSERT_EQ(urma_query_jfr(jfr, &q, &qa), URMA_SUCCESS);
    EXPECT_EQ(qa.state, URMA_JFR_STATE_ERROR);
    attr.mask = 0;
    EXPECT_EQ(urma_modify_jfr(jfr, &attr), URMA_EINVAL);
    EXPECT_EQ(urma_query_jfr(jfr, &q, nullptr), URMA_EINVAL);

    for (auto bad : {0u, cap_.max_jfr_depth + 1}) {
        urma_jfr_cfg_t b = ub_itest::jfr_cfg(jfc, bad);
        errno = 0;
        EXPECT_EQ(urma_create_jfr(ctx_, &b), nullptr);
        EXPECT_EQ(errno, EINVAL);
    }
    urma_jfr_cfg_t b = ub_itest::jfr_cfg(nullptr);
    EXPECT_EQ(urma_create_jfr(ctx_, &b), nullptr);
    b = ub_itest::jfr_cfg(jfc);
    b.max_sge = static_cast<uint8_t>(cap_.max_jfr_sge + 1);
    EXPECT_EQ(urma_create_jfr(ctx_, &b), nullptr);
    EXPECT_EQ(obj_count("jfr"), 1);

    EXPECT_EQ(urma_delete_jfr(jfr), URMA_SUCCESS);
    EXPECT_EQ(obj_count("jfr"), 0);
    EXPECT_EQ(urma_delete_jfc(jfc), URMA_SUCCESS);
}

TEST_F(ObjectTest, JettySharedAndOwnJfr)
{
    urma_jfc_cfg_t ccfg = ub_itest::jfc_cfg();
    urma_jfc_t *jfc = urma_create_jfc(ctx_, &ccfg);
    ASSERT_NE(jfc, nullptr);
    urma_jfr_cfg_t rcfg = ub_itest::jfr_cfg(jfc);
    urma_jfr_t *jfr = urma_create_jfr(ctx_, &rcfg);
    ASSERT_NE(jfr, nullptr);

    urma_jetty_cfg_t cfg = ub_itest::jetty_cfg_shared(jfc, jfr);
    cfg.user_ctx = 0x55;
    urma_jetty_t *jetty = urma_create_jetty(ctx_, &cfg);
    ASSERT_NE(jetty, nullptr) << std::strerror(errno);
    EXPECT_NE(jetty->handle, 0u);
    EXPECT_GT(jetty->jetty_id.id, 0u);
    EXPECT_EQ(jetty->jetty_cfg.id, jetty->jetty_id.id);
    EXPECT_GE(jetty->jetty_cfg.jfs_cfg.depth, 64u);
    EXPECT_EQ(jetty->jetty_cfg.shared.jfr, jfr);
    EXPECT_EQ(jetty->jetty_cfg.user_ctx, 0x55u);
    EXPECT_EQ(obj_count("jetty"), 1);

    urma_jetty_cfg_t q = {};
    urma_jetty_attr_t qa = {};
    ASSERT_EQ(urma_query_jetty(jetty, &q, &qa), URMA_SUCCESS);
    EXPECT_EQ(q.id, jetty->jetty_id.id);
    EXPECT_EQ(q.jfs_cfg.depth, jetty->jetty_cfg.jfs_cfg.depth);
    EXPECT_EQ(q.flag.bs.share_jfr, static_cast<uint32_t>(URMA_SHARE_JFR));
    urma_jetty_attr_t attr = {};
    attr.mask = JETTY_RX_THRESHOLD | JETTY_STATE;
    attr.rx_threshold = 3;
    attr.state = URMA_JETTY_STATE_ERROR;
    ASSERT_EQ(urma_modify_jetty(jetty, &attr), URMA_SUCCESS);
    ASSERT_EQ(urma_query_jetty(jetty, &q, &qa), URMA_SUCCESS);
    EXPECT_EQ(qa.rx_threshold, 3u);
    EXPECT_EQ(qa.state, URMA_JETTY_STATE_ERROR);
    attr.mask = 0x8;
    EXPECT_EQ(urma_modify_jetty(jetty, &attr), URMA_EINVAL);

    // The shared JFR is in use by the jetty.
    EXPECT_EQ(urma_delete_jfr(jfr), EBUSY);

    // A jetty with its own JFR (share_jfr = 0): the library makes it.
    urma_jetty_cfg_t own = {};
    own.jfs_cfg = ub_itest::jfs_cfg(jfc);
    own.jfr_cfg = &rcfg;
    urma_jetty_t *jetty2 = urma_create_jetty(ctx_, &own);
    ASSERT_NE(jetty2, nullptr) << std::strerror(errno);
    EXPECT_EQ(obj_count("jetty"), 2);
    EXPECT_EQ(obj_count("jfr"), 2);
    EXPECT_EQ(urma_delete_jetty(jetty2), URMA_SUCCESS);
    EXPECT_EQ(obj_count("jfr"), 1);

    // Errors: no JFR, bad depth.
    urma_jetty_cfg_t b = ub_itest::jetty_cfg_shared(jfc, nullptr);
    errno = 0;
    EXPECT_EQ(urma_create_jetty(ctx_, &b), nullptr);
    EXPECT_EQ(errno, EINVAL);
    b = ub_itest::jetty_cfg_shared(jfc, jfr);
    b.jfs_cfg.depth = 0;
    EXPECT_EQ(urma_create_jetty(ctx_, &b), nullptr);
    b.jfs_cfg.depth = cap_.max_jfs_depth + 1;
    EXPECT_EQ(urma_create_jetty(ctx_, &b), nullptr);
    EXPECT_EQ(urma_create_jetty(ctx_, nullptr), nullptr);
    EXPECT_EQ(obj_count("jetty"), 1);

    EXPECT_EQ(urma_delete_jetty(jetty), URMA_SUCCESS);
    EXPECT_EQ(obj_count("jetty"), 0);
    EXPECT_EQ(urma_delete_jfr(jfr), URMA_SUCCESS);
    EXPECT_EQ(urma_delete_jfc(jfc), URMA_SUCCESS);
}

// A JFC a JFS completes to cannot go: the kernel refuses (EBUSY) and the
// JFC stays fully usable; once the JFS is gone the delete succeeds.
TEST_F(ObjectTest, DeleteJfcInUseIsEbusy)
{
    urma_jfc_cfg_t ccfg = ub_itest::jfc_cfg();
    urma_jfc_t *jfc = urma_create_jfc(ctx_, &ccfg);
    ASSERT_NE(jfc, nullptr);
    urma_jfs_cfg_t scfg = ub_itest::jfs_cfg(jfc);
    urma_jfs_t *jfs = urma_create_jfs(ctx_, &scfg);
    ASSERT_NE(jfs, nullptr);

    EXPECT_EQ(urma_delete_jfc(jfc), EBUSY);
    EXPECT_EQ(obj_count("jfc"), 1);
    urma_jfc_attr_t attr = {};
    attr.mask = JFC_MODERATE_COUNT;
    attr.moderate_count = 1;
    EXPECT_EQ(urma_modify_jfc(jfc, &attr), URMA_SUCCESS);

    EXPECT_EQ(urma_delete_jfs(jfs), URMA_SUCCESS);
    EXPECT_EQ(urma_delete_jfc(jfc), URMA_SUCCESS);
    EXPECT_EQ(obj_count("jfc"), 0);
}

// A handle the kernel does not know (or of another kind) is EINVAL.
TEST_F(ObjectTest, UnknownHandleIsEinval)
{
    urma_jfc_cfg_t ccfg = ub_itest::jfc_cfg();
    urma_jfc_t *jfc = urma_create_jfc(ctx_, &ccfg);
    ASSERT_NE(jfc, nullptr);
    urma_jfs_cfg_t scfg = ub_itest::jfs_cfg(jfc);
    urma_jfs_t *jfs = urma_create_jfs(ctx_, &scfg);
    ASSERT_NE(jfs, nullptr);

    // Copies of the public structs with a made-up handle: the library sends
    // it as it is; nothing is freed on failure.
    urma_jfc_t fake_jfc;
    std::memcpy(static_cast<void *>(&fake_jfc), jfc, sizeof(fake_jfc));
    fake_jfc.handle = 0x7fff1234;
    urma_jfc_attr_t attr = {};
    attr.mask = JFC_MODERATE_COUNT;
    EXPECT_EQ(urma_modify_jfc(&fake_jfc, &attr), URMA_EINVAL);
    EXPECT_EQ(urma_delete_jfc(&fake_jfc), URMA_EINVAL);
    // A JFS handle used as a JFC's: the wrong kind.
    fake_jfc.handle = jfs->handle;
    EXPECT_EQ(urma_modify_jfc(&fake_jfc, &attr), URMA_EINVAL);

    urma_jfs_t fake_jfs;
    std::memcpy(static_cast<void *>(&fake_jfs), jfs, sizeof(fake_jfs));
    fake_jfs.handle = 0x7fff1234;
    urma_jfs_cfg_t q;
    urma_jfs_attr_t qa;
    EXPECT_EQ(urma_query_jfs(&fake_jfs, &q, &qa), URMA_EINVAL);
    EXPECT_EQ(urma_delete_jfs(&fake_jfs), URMA_EINVAL);
    EXPECT_EQ(obj_count("jfs"), 1);
    EXPECT_EQ(obj_count("jfc"), 1);

    EXPECT_EQ(urma_delete_jfs(jfs), URMA_SUCCESS);
    EXPECT_EQ(urma_delete_jfc(jfc), URMA_SUCCESS);
}

// Creating past max_jfc fails cleanly (ENOSPC) and leaves everything usable;
// the same for JFSs against max_jfs.
TEST_F(ObjectTest, CapabilityLimits)
{
    // One context may have half of each by default (limits/): this test
    // is about the device's own limits, so the context may have them all.
    const std::string lim = "/sys/class/ubcore/udma0/limits/";
    const long saved_jfc = ub_itest::sysfs_long(lim + "jfc");
    const long saved_jfs = ub_itest::sysfs_long(lim + "jfs");
    ASSERT_TRUE(ub_itest::write_sysfs(lim + "jfc", std::to_string(cap_.max_jfc)));
    ASSERT_TRUE(ub_itest::write_sysfs(lim + "jfs", std::to_string(cap_.max_jfs)));
    struct Restore {
        std::string lim;
        long jfc, jfs;
        ~Restore()
        {
            ub_itest::write_sysfs(lim + "jfc", std::to_string(jfc));
            ub_itest::write_sysfs(lim + "jfs", std::to_string(jfs));
        }
    } restore{lim, saved_jfc, saved_jfs};
    ASSERT_GT(cap_.max_jfc, 0u);
    ASSERT_LE(cap_.max_jfc, 65536u) << "too many JFCs for one test";
    std::vector<urma_jfc_t *> jfcs;
    urma_jfc_cfg_t ccfg = ub_itest::jfc_cfg(1);
    for (uint32_t i = 0; i < cap_.max_jfc; i++) {
        urma_jfc_t *j = urma_create_jfc(ctx_, &ccfg);
        ASSERT_NE(j, nullptr) << "jfc " << i << " of " << cap_.max_jfc << ": " << std::strerror(errno);
        jfcs.push_back(j);
    }
    EXPECT_EQ(obj_count("jfc"), static_cast<long>(cap_.max_jfc));
    errno = 0;
    EXPECT_EQ(urma_create_jfc(ctx_, &ccfg), nullptr);
    EXPECT_EQ(errno, ENOSPC);
    EXPECT_EQ(obj_count("jfc"), static_cast<long>(cap_.max_jfc));

    // Still usable: the existing JFCs serve a JFS; one freed slot is reusable.
    urma_jfs_cfg_t scfg = ub_itest::jfs_cfg(jfcs[0]);
    urma_jfs_t *jfs = urma_create_jfs(ctx_, &scfg);
    ASSERT_NE(jfs, nullptr) << std::strerror(errno);
    EXPECT_EQ(urma_delete_jfs(jfs), URMA_SUCCESS);
    ASSERT_EQ(urma_delete_jfc(jfcs.back()), URMA_SUCCESS);
    jfcs.back() = urma_create_jfc(ctx_, &ccfg);
    ASSERT_NE(jfcs.back(), nullptr) << std::strerror(errno);

    // JFSs share the jetty ID space with JFRs and jetties; none exist here.
    ASSERT_LE(cap_.max_jfs, 65536u);
    std::vector<urma_jfs_t *> jfss;
    urma_jfs_cfg_t small = ub_itest::jfs_cfg(jfcs[0], 1);
    for (uint32_t i = 0; i < cap_.max_jfs; i++) {
        urma_jfs_t *s = urma_create_jfs(ctx_, &small);
        if (s == nullptr)
            break;
        jfss.push_back(s);
    }
    // max_jfs may be larger than the jetty IDs left for users; either way
    // the first failure must be a clean ENOSPC.
    EXPECT_GT(jfss.size(), 0u);
    errno = 0;
    EXPECT_EQ(urma_create_jfs(ctx_, &small), nullptr);
    EXPECT_EQ(errno, ENOSPC);
    EXPECT_EQ(obj_count("jfs"), static_cast<long>(jfss.size()));
    ASSERT_EQ(urma_delete_jfs(jfss.back()), URMA_SUCCESS);
    jfss.back() = urma_create_jfs(ctx_, &small);
    EXPECT_NE(jfss.back(), nullptr) << std::strerror(errno);

    for (auto *s : jfss)
        if (s != nullptr) {
            EXPECT_EQ(urma_delete_jfs(s), URMA_SUCCESS);
        }
    for (auto *j : jfcs)
        EXPECT_EQ(urma_delete_jfc(j), URMA_SUCCESS);
    EXPECT_EQ(obj_count("jfc"), 0);
    EXPECT_EQ(obj_count("jfs"), 0);
}

TEST_F(ObjectTest, TokenIdsAndSegments)
{
    const size_t len = 1 << 20;
    void *buf = mmap(nullptr, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    ASSERT_NE(buf, MAP_FAILED);

    urma_token_id_t *tid = urma_alloc_token_id(ctx_);
    ASSERT_NE(tid, nullptr) << std::strerror(errno);
    EXPECT_NE(tid->token_id, 0u);
    EXPECT_NE(tid->handle, 0u);
    EXPECT_EQ(tid->urma_ctx, ctx_);
    EXPECT_EQ(obj_count("token_id"), 1);

    // With the caller's token id.
    urma_seg_cfg_t cfg = ub_itest::seg_cfg(buf, len);
    cfg.token_id = tid;
    cfg.flag.bs.token_id_valid = URMA_TOKEN_ID_VALID;
    cfg.user_ctx = 0x42;
    urma_target_seg_t *seg = urma_register_seg(ctx_, &cfg);
    ASSERT_NE(seg, nullptr) << std::strerror(errno);
    EXPECT_EQ(seg->seg.ubva.va, reinterpret_cast<uintptr_t>(buf));
    EXPECT_EQ(std::memcmp(seg->seg.ubva.eid.raw, ctx_->eid.raw, sizeof(ctx_->eid.raw)), 0);
    EXPECT_EQ(seg->seg.ubva.uasid, ctx_->uasid);
    EXPECT_EQ(seg->seg.len, len);
    EXPECT_EQ(seg->seg.attr.bs.access, static_cast<uint32_t>(URMA_ACCESS_READ | URMA_ACCESS_WRITE));
    EXPECT_EQ(seg->seg.attr.bs.user_token_id, 1u);
    EXPECT_EQ(seg->seg.token_id, tid->token_id);
    EXPECT_EQ(seg->token_id, tid);
    EXPECT_EQ(seg->user_ctx, 0x42u);
    EXPECT_NE(seg->handle, 0u);
    EXPECT_EQ(obj_count("seg"), 1);
    EXPECT_EQ(obj_count("pinned_pages"), static_cast<long>(len / sysconf(_SC_PAGESIZE)));
    // A token id in use cannot be freed.
    EXPECT_EQ(urma_free_token_id(tid), URMA_EINVAL);
    EXPECT_EQ(obj_count("token_id"), 1);

    // Without one: the library allocates a token id and frees it with the segment.
    urma_seg_cfg_t cfg2 = ub_itest::seg_cfg(buf, 4096, URMA_ACCESS_LOCAL_ONLY);
    urma_target_seg_t *seg2 = urma_register_seg(ctx_, &cfg2);
    ASSERT_NE(seg2, nullptr) << std::strerror(errno);
    EXPECT_EQ(obj_count("token_id"), 2);
    EXPECT_EQ(seg2->seg.attr.bs.user_token_id, 0u);
    ASSERT_NE(seg2->token_id, nullptr);
    EXPECT_NE(seg2->seg.token_id, tid->token_id);
    EXPECT_EQ(urma_unregister_seg(seg2), URMA_SUCCESS);
    EXPECT_EQ(obj_count("token_id"), 1);

    // Access combinations the user guide forbids, a zero length, a token id
    // flag without a token id.
    for (uint32_t bad : {URMA_ACCESS_WRITE, URMA_ACCESS_ATOMIC | URMA_ACCESS_READ,
                         URMA_ACCESS_ATOMIC | URMA_ACCESS_WRITE, URMA_ACCESS_LOCAL_ONLY | URMA_ACCESS_READ}) {
        urma_seg_cfg_t b = ub_itest::seg_cfg(buf, 4096, bad);
        errno = 0;
        EXPECT_EQ(urma_register_seg(ctx_, &b), nullptr) << "access 0x" << std::hex << bad;
        EXPECT_EQ(errno, EINVAL);
    }
    urma_seg_cfg_t b = ub_itest::seg_cfg(buf, 0);
    EXPECT_EQ(urma_register_seg(ctx_, &b), nullptr);
    b = ub_itest::seg_cfg(buf, 4096);
    b.flag.bs.token_id_valid = URMA_TOKEN_ID_VALID;
    EXPECT_EQ(urma_register_seg(ctx_, &b), nullptr);
    EXPECT_EQ(urma_register_seg(ctx_, nullptr), nullptr);
    EXPECT_EQ(obj_count("seg"), 1);
    EXPECT_EQ(obj_count("token_id"), 1);

    EXPECT_EQ(urma_unregister_seg(seg), URMA_SUCCESS);
    EXPECT_EQ(obj_count("seg"), 0);
    EXPECT_EQ(obj_count("pinned_pages"), 0);
    EXPECT_EQ(urma_free_token_id(tid), URMA_SUCCESS);
    EXPECT_EQ(obj_count("token_id"), 0);
    munmap(buf, len);
}

TEST_F(ObjectTest, Imports)
{
    // Import what this context itself exports (the loopback case).
    void *buf = std::aligned_alloc(4096, 8192);
    ASSERT_NE(buf, nullptr);
    urma_seg_cfg_t scfg = ub_itest::seg_cfg(buf, 8192);
    urma_target_seg_t *seg = urma_register_seg(ctx_, &scfg);
    ASSERT_NE(seg, nullptr) << std::strerror(errno);

    urma_token_t token = {0x5eed};
    urma_import_seg_flag_t iflag = {};
    iflag.bs.access = URMA_ACCESS_READ | URMA_ACCESS_WRITE;
    urma_target_seg_t *tseg = urma_import_seg(ctx_, &seg->seg, &token, 0, iflag);
    ASSERT_NE(tseg, nullptr) << std::strerror(errno);
    EXPECT_EQ(tseg->seg.ubva.va, seg->seg.ubva.va);
    EXPECT_EQ(tseg->seg.len, 8192u);
    EXPECT_EQ(tseg->token_id, nullptr);
    EXPECT_NE(tseg->handle, 0u);
    EXPECT_EQ(obj_count("target_seg"), 1);
    errno = 0;
    EXPECT_EQ(urma_import_seg(ctx_, &seg->seg, nullptr, 0, iflag), nullptr);  // token policy needs a token
    EXPECT_EQ(errno, EINVAL);
    EXPECT_EQ(urma_import_seg(ctx_, nullptr, &token, 0, iflag), nullptr);
    iflag.bs.access = URMA_ACCESS_WRITE;
    EXPECT_EQ(urma_import_seg(ctx_, &seg->seg, &token, 0, iflag), nullptr);
    EXPECT_EQ(urma_unimport_seg(seg), URMA_EINVAL);  // a registered segment is not an import
    EXPECT_EQ(urma_unimport_seg(tseg), URMA_SUCCESS);
    EXPECT_EQ(obj_count("target_seg"), 0);

    urma_jfc_cfg_t ccfg = ub_itest::jfc_cfg();
    urma_jfc_t *jfc = urma_create_jfc(ctx_, &ccfg);
    ASSERT_NE(jfc, nullptr);
    urma_jfr_cfg_t rcfg = ub_itest::jfr_cfg(jfc);
    urma_jfr_t *jfr = urma_create_jfr(ctx_, &rcfg);
    ASSERT_NE(jfr, nullptr);
    urma_jetty_cfg_t jcfg = ub_itest::jetty_cfg_shared(jfc, jfr);
    urma_jetty_t *jetty = urma_create_jetty(ctx_, &jcfg);
    ASSERT_NE(jetty, nullptr);

    urma_rjfr_t rjfr = {};
    rjfr.jfr_id = jfr->jfr_id;
    rjfr.trans_mode = URMA_TM_RM;
    rjfr.flag.bs.token_policy = URMA_TOKEN_PLAIN_TEXT;
    urma_token_t jtoken = {0xabcd};
    urma_target_jetty_t *tjfr = urma_import_jfr(ctx_, &rjfr, &jtoken);
    ASSERT_NE(tjfr, nullptr) << std::strerror(errno);
    EXPECT_EQ(tjfr->type, URMA_JFR);
    EXPECT_EQ(tjfr->id.id, jfr->jfr_id.id);
    EXPECT_NE(tjfr->handle, 0u);
    EXPECT_EQ(obj_count("tjfr"), 1);
    EXPECT_EQ(urma_import_jfr(ctx_, &rjfr, nullptr), nullptr);
    urma_rjfr_t badmode = rjfr;
    badmode.trans_mode = static_cast<urma_transport_mode_t>(0);
    EXPECT_EQ(urma_import_jfr(ctx_, &badmode, &jtoken), nullptr);

    urma_rjetty_t rjetty = {};
    rjetty.jetty_id = jetty->jetty_id;
    rjetty.trans_mode = URMA_TM_RM;
    rjetty.type = URMA_JETTY;
    urma_target_jetty_t *tjetty = urma_import_jetty(ctx_, &rjetty, &jtoken);
    ASSERT_NE(tjetty, nullptr) << std::strerror(errno);
    EXPECT_EQ(tjetty->type, URMA_JETTY);
    EXPECT_EQ(tjetty->id.id, jetty->jetty_id.id);
    EXPECT_EQ(obj_count("tjetty"), 1);
    // A target type import_jetty does not take (a JFR), an RC group.
    rjetty.type = URMA_JFR;
    errno = 0;
    EXPECT_EQ(urma_import_jetty(ctx_, &rjetty, &jtoken), nullptr);
    EXPECT_EQ(errno, EINVAL);
    rjetty.type = URMA_JETTY_GROUP;
    rjetty.trans_mode = URMA_TM_RC;
    errno = 0;
    EXPECT_EQ(urma_import_jetty(ctx_, &rjetty, &jtoken), nullptr);
    EXPECT_EQ(errno, EINVAL);
    EXPECT_EQ(urma_unimport_jfr(tjetty), URMA_EINVAL);  // kinds do not mix
    EXPECT_EQ(urma_unimport_jetty(tjfr), URMA_EINVAL);

    EXPECT_EQ(urma_unimport_jetty(tjetty), URMA_SUCCESS);
    EXPECT_EQ(urma_unimport_jfr(tjfr), URMA_SUCCESS);
    EXPECT_EQ(obj_count("tjfr"), 0);
    EXPECT_EQ(obj_count("tjetty"), 0);
    EXPECT_EQ(urma_delete_jetty(jetty), URMA_SUCCESS);
    EXPECT_EQ(urma_delete_jfr(jfr), URMA_SUCCESS);
    EXPECT_EQ(urma_delete_jfc(jfc), URMA_SUCCESS);
    EXPECT_EQ(urma_unregister_seg(seg), URMA_SUCCESS);
    std::free(buf);
}

// A JFCE is a pollable fd, quiet while idle; it cannot go while a JFC uses it.
TEST_F(ObjectTest, JfcePollableAndHeldByJfc)
{
    urma_jfce_t *jfce = urma_create_jfce(ctx_);
    ASSERT_NE(jfce, nullptr) << std::strerror(errno);
    EXPECT_GE(jfce->fd, 0);
    EXPECT_EQ(jfce->urma_ctx, ctx_);
    EXPECT_TRUE(fcntl(jfce->fd, F_GETFD) & FD_CLOEXEC);

    int ep = epoll_create1(EPOLL_CLOEXEC);
    ASSERT_GE(ep, 0);
    struct epoll_event ev = {};
    ev.events = EPOLLIN;
    ASSERT_EQ(epoll_ctl(ep, EPOLL_CTL_ADD, jfce->fd, &ev), 0);
    struct epoll_event out;
    EXPECT_EQ(epoll_wait(ep, &out, 1, 200), 0);

    urma_jfc_cfg_t ccfg = ub_itest::jfc_cfg(64, jfce);
    urma_jfc_t *jfc = urma_create_jfc(ctx_, &ccfg);
    ASSERT_NE(jfc, nullptr) << std::strerror(errno);
    EXPECT_EQ(jfc->jfc_cfg.jfce, jfce);
    EXPECT_EQ(epoll_wait(ep, &out, 1, 200), 0);  // no completions: nothing
    EXPECT_EQ(urma_delete_jfce(jfce), URMA_FAIL);
    EXPECT_GE(fcntl(jfce->fd, F_GETFD), 0);

    EXPECT_EQ(urma_delete_jfc(jfc), URMA_SUCCESS);
    int fd = jfce->fd;
    close(ep);
    EXPECT_EQ(urma_delete_jfce(jfce), URMA_SUCCESS);
    EXPECT_EQ(fcntl(fd, F_GETFD), -1);  // closed
    EXPECT_EQ(urma_create_jfce(nullptr), nullptr);
}

}  // namespace
