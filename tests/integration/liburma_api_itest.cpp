// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The UB/URMA stack authors
// The calls of urma_api.h that liburma gained for issue 16, against the
// modules: two-phase set-up (alloc, options, active, deactive, free) with
// the kernel's object counts and a SEND/RECV through activated objects;
// batch deletes stopping at the first failure; advise; descriptors for a
// peer; context options and user_ctl; network addresses of lo and of a
// veth with a neighbour entry; and the calls not supported yet, which
// refuse with URMA_ENOPERM and say why in the log.
#include <gtest/gtest.h>

#include <arpa/inet.h>
#include <poll.h>
#include <sys/mman.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>
#include <vector>

#include "stack.h"
#include "urma_api.h"
#include "urma_itest.h"

namespace {

using ub_itest::obj_count;

using ub_itest::logged;

class ApiTest : public ub_itest::CtxTest {
protected:
    void SetUp() override
    {
        ub_itest::CtxTest::SetUp();
        ASSERT_EQ(urma_register_log_func(ub_itest::log_capture), URMA_SUCCESS);
        ub_itest::log_clear();
    }
    void TearDown() override
    {
        urma_unregister_log_func();
        ub_itest::CtxTest::TearDown();
    }

    urma_jfc_t *make_jfc()
    {
        urma_jfc_cfg_t c = ub_itest::jfc_cfg();
        return urma_create_jfc(ctx_, &c);
    }

    urma_jfr_t *make_jfr(urma_jfc_t *jfc)
    {
        urma_jfr_cfg_t c = ub_itest::jfr_cfg(jfc);
        return urma_create_jfr(ctx_, &c);
    }
};

template <typename T> urma_status_t get32(T *obj, urma_status_t (*get)(T *, uint64_t, void *, uint32_t), uint64_t opt,
                                         uint32_t *v)
{
    return get(obj, opt, v, sizeof(*v));
}

// JFC: alloc makes no kernel object; the options edit the configuration;
// active makes it with that configuration (and checks it); deactive
// deletes it and keeps the allocation, at the same address; free ends it.
TEST_F(ApiTest, TwoPhaseJfc)
{
    urma_jfc_cfg_t cfg = ub_itest::jfc_cfg(16);
    urma_jfc_t *jfc = nullptr;
    ASSERT_EQ(urma_alloc_jfc(ctx_, &cfg, &jfc), URMA_SUCCESS);
    ASSERT_NE(jfc, nullptr);
    EXPECT_EQ(obj_count("jfc"), 0);
    EXPECT_FALSE(jfc->urma_jfc_opt.is_actived);
    EXPECT_EQ(urma_delete_context(ctx_), URMA_EAGAIN);  // the allocation holds the context

    uint32_t depth = 200;
    EXPECT_EQ(urma_set_jfc_opt(jfc, URMA_JFC_DEPTH, &depth, sizeof(depth)), URMA_SUCCESS);
    uint64_t user_ctx = 0xfeed;
    EXPECT_EQ(urma_set_jfc_opt(jfc, URMA_JFC_USER_CTX, &user_ctx, sizeof(user_ctx)), URMA_SUCCESS);
    uint32_t v = 0;
    ASSERT_EQ(get32(jfc, urma_get_jfc_opt, URMA_JFC_DEPTH, &v), URMA_SUCCESS);
    EXPECT_EQ(v, 200u);
    // Wrong length, an option of another object, no buffer.
    EXPECT_EQ(urma_set_jfc_opt(jfc, URMA_JFC_DEPTH, &user_ctx, sizeof(user_ctx)), URMA_EINVAL);
    EXPECT_EQ(urma_set_jfc_opt(jfc, URMA_JFS_DEPTH, &depth, sizeof(depth)), URMA_EINVAL);
    EXPECT_EQ(urma_set_jfc_opt(jfc, URMA_JFC_DEPTH, nullptr, 4), URMA_EINVAL);
    EXPECT_EQ(urma_get_jfc_opt(jfc, 0x7777, &v, sizeof(v)), URMA_EINVAL);
    // A queue context of the caller's: udma places its rings itself.
    uint64_t addr = 0x1000;
    EXPECT_EQ(urma_set_jfc_opt(jfc, URMA_JFC_CQE_BASE_ADDR, &addr, sizeof(addr)), URMA_ENOPERM);
    EXPECT_TRUE(logged("rings")) << "no reason logged";
    // The ring's view needs an active JFC; delete needs one too (UMDK).
    EXPECT_EQ(get32(jfc, urma_get_jfc_opt, URMA_JFC_ID, &v), URMA_EINVAL);
    EXPECT_EQ(urma_delete_jfc(jfc), URMA_EINVAL);
    EXPECT_EQ(urma_deactive_jfc(jfc), URMA_EINVAL);

    ASSERT_EQ(urma_active_jfc(jfc), URMA_SUCCESS);
    EXPECT_TRUE(jfc->urma_jfc_opt.is_actived);
    EXPECT_EQ(obj_count("jfc"), 1);
    EXPECT_GE(jfc->jfc_cfg.depth, 200u);
    EXPECT_EQ(jfc->jfc_cfg.user_ctx, 0xfeedu);
    EXPECT_NE(jfc->jfc_id.id, 0u);
    ASSERT_EQ(get32(jfc, urma_get_jfc_opt, URMA_JFC_ID, &v), URMA_SUCCESS);
    EXPECT_EQ(v, jfc->jfc_id.id);
    ASSERT_EQ(urma_get_jfc_opt(jfc, URMA_JFC_CQE_BASE_ADDR, &addr, sizeof(addr)), URMA_SUCCESS);
    EXPECT_NE(addr, 0u);
    uint16_t pi_type = 0, pi = 1, ci = 1;
    ASSERT_EQ(urma_get_jfc_opt(jfc, URMA_JFC_PI_TYPE, &pi_type, sizeof(pi_type)), URMA_SUCCESS);
    EXPECT_EQ(pi_type, 1u);
    ASSERT_EQ(urma_get_jfc_opt(jfc, URMA_JFC_PI, &pi, sizeof(pi)), URMA_SUCCESS);
    ASSERT_EQ(urma_get_jfc_opt(jfc, URMA_JFC_CI, &ci, sizeof(ci)), URMA_SUCCESS);
    EXPECT_EQ(pi, 0u);
    EXPECT_EQ(ci, 0u);
    EXPECT_EQ(urma_get_jfc_opt(jfc, URMA_JFC_DB_ADDR, &addr, sizeof(addr)), URMA_ENOPERM);
    urma_cr_t cr;
    EXPECT_EQ(urma_poll_jfc(jfc, 1, &cr), 0);
    // Active: no more options, no second active, no free.
    EXPECT_EQ(urma_set_jfc_opt(jfc, URMA_JFC_DEPTH, &depth, sizeof(depth)), URMA_EINVAL);
    EXPECT_EQ(urma_active_jfc(jfc), URMA_EINVAL);
    EXPECT_EQ(urma_free_jfc(jfc), URMA_EINVAL);

    urma_jfc_t *same = jfc;
    ASSERT_EQ(urma_deactive_jfc(jfc), URMA_SUCCESS);
    EXPECT_EQ(obj_count("jfc"), 0);
    EXPECT_EQ(get32(jfc, urma_get_jfc_opt, URMA_JFC_ID, &v), URMA_EINVAL);
    // Again, with a depth the device refuses: active checks the configuration.
    depth = cap_.max_jfc_depth + 1;
    EXPECT_EQ(urma_set_jfc_opt(jfc, URMA_JFC_DEPTH, &depth, sizeof(depth)), URMA_SUCCESS);
    EXPECT_EQ(urma_active_jfc(jfc), URMA_EINVAL);
    EXPECT_EQ(obj_count("jfc"), 0);
    depth = 64;
    EXPECT_EQ(urma_set_jfc_opt(jfc, URMA_JFC_DEPTH, &depth, sizeof(depth)), URMA_SUCCESS);
    ASSERT_EQ(urma_active_jfc(jfc), URMA_SUCCESS);
    EXPECT_EQ(jfc, same);
    EXPECT_EQ(obj_count("jfc"), 1);
    ASSERT_EQ(urma_deactive_jfc(jfc), URMA_SUCCESS);
    EXPECT_EQ(urma_free_jfc(jfc), URMA_SUCCESS);

    EXPECT_EQ(urma_alloc_jfc(nullptr, &cfg, &jfc), URMA_EINVAL);
    EXPECT_EQ(urma_alloc_jfc(ctx_, nullptr, &jfc), URMA_EINVAL);
    EXPECT_EQ(urma_alloc_jfc(ctx_, &cfg, nullptr), URMA_EINVAL);
}

// JFS, JFR and jetty the same way; then a SEND from the activated JFS to
// the activated JFR completes on both sides, and the SQ's indexes moved.
TEST_F(ApiTest, TwoPhaseJfsJfrJettyCarryData)
{
    urma_jfc_t *jfc = make_jfc();
    ASSERT_NE(jfc, nullptr);

    urma_jfr_cfg_t rcfg = ub_itest::jfr_cfg(nullptr, 8);
    urma_jfr_t *jfr = nullptr;
    ASSERT_EQ(urma_alloc_jfr(ctx_, &rcfg, &jfr), URMA_SUCCESS);
    EXPECT_EQ(urma_active_jfr(jfr), URMA_EINVAL);  // no JFC yet
    EXPECT_EQ(urma_set_jfr_opt(jfr, URMA_JFR_BIND_JFC, &jfc, sizeof(jfc)), URMA_SUCCESS);
    uint32_t token = 0x1234;
    EXPECT_EQ(urma_set_jfr_opt(jfr, URMA_JFR_TOKEN_VALUE, &token, sizeof(token)), URMA_SUCCESS);
    EXPECT_EQ(urma_set_jfr_opt(jfr, URMA_JFR_RQE_BASE_ADDR, &token, sizeof(uint64_t)), URMA_ENOPERM);
    EXPECT_EQ(obj_count("jfr"), 0);
    ASSERT_EQ(urma_active_jfr(jfr), URMA_SUCCESS);
    EXPECT_EQ(obj_count("jfr"), 1);
    uint32_t v = 0;
    ASSERT_EQ(get32(jfr, urma_get_jfr_opt, URMA_JFR_ID, &v), URMA_SUCCESS);
    EXPECT_EQ(v, jfr->jfr_id.id);

    urma_jfs_cfg_t scfg = ub_itest::jfs_cfg(nullptr, 4);
    urma_jfs_t *jfs = nullptr;
    ASSERT_EQ(urma_alloc_jfs(ctx_, &scfg, &jfs), URMA_SUCCESS);
    EXPECT_EQ(urma_set_jfs_opt(jfs, URMA_JFS_BIND_JFC, &jfc, sizeof(jfc)), URMA_SUCCESS);
    uint32_t depth = 32;
    EXPECT_EQ(urma_set_jfs_opt(jfs, URMA_JFS_DEPTH, &depth, sizeof(depth)), URMA_SUCCESS);
    uint8_t prio = 3;
    EXPECT_EQ(urma_set_jfs_opt(jfs, URMA_JFS_PRIORITY, &prio, sizeof(prio)), URMA_SUCCESS);
    EXPECT_EQ(urma_set_jfs_opt(jfs, URMA_JFS_PRIORITY, &depth, sizeof(depth)), URMA_EINVAL);
    ASSERT_EQ(urma_active_jfs(jfs), URMA_SUCCESS);
    EXPECT_EQ(obj_count("jfs"), 1);
    EXPECT_GE(jfs->jfs_cfg.depth, 32u);
    EXPECT_EQ(jfs->jfs_cfg.priority, 3u);
    uint16_t pi = 1, ci = 1;
    ASSERT_EQ(urma_get_jfs_opt(jfs, URMA_JFS_PI, &pi, sizeof(pi)), URMA_SUCCESS);
    EXPECT_EQ(pi, 0u);

    // One SEND of 64 bytes from the JFS to the JFR.
    void *buf = std::aligned_alloc(4096, 8192);
    ASSERT_NE(buf, nullptr);
    std::memset(buf, 0, 8192);
    std::memcpy(buf, "two-phase objects carry data", 29);
    urma_seg_cfg_t segcfg = ub_itest::seg_cfg(buf, 8192);
    urma_target_seg_t *seg = urma_register_seg(ctx_, &segcfg);
    ASSERT_NE(seg, nullptr) << std::strerror(errno);
    urma_target_jetty_t *tjfr = import_jfr(jfr, 0x1234);
    ASSERT_NE(tjfr, nullptr) << std::strerror(errno);
    const uintptr_t base = reinterpret_cast<uintptr_t>(buf);
    ASSERT_EQ(urma_recv(jfr, seg, base + 4096, 64, 0x11), URMA_SUCCESS);
    urma_jfs_wr_flag_t f = {};
    f.bs.complete_enable = 1;
    ASSERT_EQ(urma_send(jfs, tjfr, seg, base, 64, f, 0x22), URMA_SUCCESS);
    int got = 0;
    uint64_t seen = 0;
    ASSERT_TRUE(ub_itest::wait_for([&] {
        urma_cr_t cr[2];
        int n = urma_poll_jfc(jfc, 2, cr);
        for (int i = 0; i < n; i++) {
            EXPECT_EQ(cr[i].status, URMA_CR_SUCCESS);
            seen |= cr[i].user_ctx;
        }
        got += n > 0 ? n : 0;
        return got >= 2;
    }));
    EXPECT_EQ(seen, 0x33u);  // 0x11 (receive) | 0x22 (send)
    EXPECT_STREQ(static_cast<char *>(buf) + 4096, "two-phase objects carry data");
    ASSERT_EQ(urma_get_jfs_opt(jfs, URMA_JFS_PI, &pi, sizeof(pi)), URMA_SUCCESS);
    ASSERT_EQ(urma_get_jfs_opt(jfs, URMA_JFS_CI, &ci, sizeof(ci)), URMA_SUCCESS);
    EXPECT_EQ(pi, 1u);
    EXPECT_EQ(ci, 1u);

    // A jetty on the same JFR, its JFS options set through the jetty.
    urma_jetty_cfg_t jcfg = ub_itest::jetty_cfg_shared(jfc, jfr);
    urma_jetty_t *jetty = nullptr;
    ASSERT_EQ(urma_alloc_jetty(ctx_, &jcfg, &jetty), URMA_SUCCESS);
    uint64_t uctx = 0xabc;
    EXPECT_EQ(urma_set_jetty_opt(jetty, URMA_JETTY_USER_CTX, &uctx, sizeof(uctx)), URMA_SUCCESS);
    depth = 16;
    EXPECT_EQ(urma_set_jetty_opt(jetty, URMA_JFS_DEPTH, &depth, sizeof(depth)), URMA_SUCCESS);
    EXPECT_EQ(urma_set_jetty_opt(jetty, URMA_JFC_DEPTH, &depth, sizeof(depth)), URMA_EINVAL);
    EXPECT_EQ(obj_count("jetty"), 0);
    ASSERT_EQ(urma_active_jetty(jetty), URMA_SUCCESS);
    EXPECT_EQ(obj_count("jetty"), 1);
    EXPECT_EQ(jetty->jetty_cfg.user_ctx, 0xabcu);
    ASSERT_EQ(get32(jetty, urma_get_jetty_opt, URMA_JFS_DEPTH, &v), URMA_SUCCESS);
    EXPECT_GE(v, 16u);
    ASSERT_EQ(get32(jetty, urma_get_jetty_opt, URMA_JETTY_ID, &v), URMA_SUCCESS);
    EXPECT_EQ(v, jetty->jetty_id.id);
    EXPECT_EQ(urma_free_jetty(jetty), URMA_EINVAL);
    ASSERT_EQ(urma_deactive_jetty(jetty), URMA_SUCCESS);
    EXPECT_EQ(obj_count("jetty"), 0);
    EXPECT_EQ(urma_free_jetty(jetty), URMA_SUCCESS);

    EXPECT_EQ(urma_unimport_jfr(tjfr), URMA_SUCCESS);
    EXPECT_EQ(urma_unregister_seg(seg), URMA_SUCCESS);
    std::free(buf);
    EXPECT_EQ(urma_deactive_jfs(jfs), URMA_SUCCESS);
    EXPECT_EQ(urma_free_jfs(jfs), URMA_SUCCESS);
    EXPECT_EQ(urma_delete_jfr(jfr), URMA_SUCCESS);  // an activated object deletes like a created one
    EXPECT_EQ(urma_delete_jfc(jfc), URMA_SUCCESS);
}

// The batch deletes stop at the first failure: *bad is the object that
// failed, those before it are gone, it and those after it remain.
TEST_F(ApiTest, BatchDeletesStopAtFirstFailure)
{
    urma_jfc_t *jfcs[3] = {make_jfc(), make_jfc(), make_jfc()};
    for (urma_jfc_t *j : jfcs)
        ASSERT_NE(j, nullptr);
    urma_jfs_cfg_t scfg = ub_itest::jfs_cfg(jfcs[1]);
    urma_jfs_t *jfs = urma_create_jfs(ctx_, &scfg);  // keeps jfcs[1] busy
    ASSERT_NE(jfs, nullptr);

    urma_jfc_t *bad = nullptr;
    urma_jfc_t *with_null[2] = {jfcs[0], nullptr};
    EXPECT_EQ(urma_delete_jfc_batch(with_null, 2, &bad), URMA_EINVAL);
    EXPECT_EQ(bad, jfcs[0]);
    EXPECT_EQ(obj_count("jfc"), 3);  // nothing deleted
    EXPECT_EQ(urma_delete_jfc_batch(jfcs, 0, &bad), URMA_EINVAL);
    EXPECT_EQ(urma_delete_jfc_batch(jfcs, 3, nullptr), URMA_EINVAL);

    bad = nullptr;
    EXPECT_EQ(urma_delete_jfc_batch(jfcs, 3, &bad), EBUSY);
    EXPECT_EQ(bad, jfcs[1]);
    EXPECT_EQ(obj_count("jfc"), 2);  // jfcs[0] deleted; [1] and [2] remain

    urma_jfs_t *jfss[1] = {jfs};
    urma_jfs_t *bad_jfs = nullptr;
    EXPECT_EQ(urma_delete_jfs_batch(jfss, 1, &bad_jfs), URMA_SUCCESS);
    EXPECT_EQ(obj_count("jfs"), 0);
    EXPECT_EQ(urma_delete_jfc_batch(&jfcs[1], 2, &bad), URMA_SUCCESS);
    EXPECT_EQ(obj_count("jfc"), 0);

    // JFR and jetty: a JFR shared by a jetty is busy.
    urma_jfc_t *jfc = make_jfc();
    ASSERT_NE(jfc, nullptr);
    urma_jfr_cfg_t rcfg = ub_itest::jfr_cfg(jfc);
    urma_jfr_t *jfrs[2] = {urma_create_jfr(ctx_, &rcfg), urma_create_jfr(ctx_, &rcfg)};
    ASSERT_NE(jfrs[0], nullptr);
    ASSERT_NE(jfrs[1], nullptr);
    urma_jetty_cfg_t jcfg = ub_itest::jetty_cfg_shared(jfc, jfrs[0]);
    urma_jetty_t *jetties[2] = {urma_create_jetty(ctx_, &jcfg), urma_create_jetty(ctx_, &jcfg)};
    ASSERT_NE(jetties[0], nullptr);
    ASSERT_NE(jetties[1], nullptr);
    urma_jfr_t *bad_jfr = nullptr;
    EXPECT_EQ(urma_delete_jfr_batch(jfrs, 2, &bad_jfr), EBUSY);
    EXPECT_EQ(bad_jfr, jfrs[0]);
    EXPECT_EQ(obj_count("jfr"), 2);
    urma_jetty_t *bad_jetty = nullptr;
    EXPECT_EQ(urma_delete_jetty_batch(jetties, 2, &bad_jetty), URMA_SUCCESS);
    EXPECT_EQ(obj_count("jetty"), 0);
    EXPECT_EQ(urma_delete_jfr_batch(jfrs, 2, &bad_jfr), URMA_SUCCESS);
    EXPECT_EQ(obj_count("jfr"), 0);
    EXPECT_EQ(urma_delete_jfc(jfc), URMA_SUCCESS);
}

struct AdviseResult {
    int calls = 0;
    urma_status_t status = -1;
};

void advise_cb(urma_status_t st, void *arg)
{
    auto *r = static_cast<AdviseResult *>(arg);
    r->calls++;
    r->status = st;
}

// advise: both ends RM; the pair is recorded (a second advise is
// URMA_EEXIST, unadvising a pair never advised is refused); unimporting the
// target forgets it.
TEST_F(ApiTest, AdviseRecordsPairs)
{
    urma_jfc_t *jfc = make_jfc();
    ASSERT_NE(jfc, nullptr);
    urma_jfr_t *jfr = make_jfr(jfc);
    ASSERT_NE(jfr, nullptr);
    urma_jfs_cfg_t scfg = ub_itest::jfs_cfg(jfc);
    urma_jfs_t *jfs = urma_create_jfs(ctx_, &scfg);
    ASSERT_NE(jfs, nullptr);
    urma_token_t token = {0xabcd};
    urma_target_jetty_t *tjfr = import_jfr(jfr, token.token);
    ASSERT_NE(tjfr, nullptr);

    EXPECT_EQ(urma_unadvise_jfr(jfs, tjfr), URMA_EINVAL);
    EXPECT_EQ(urma_advise_jfr(jfs, tjfr), URMA_SUCCESS);
    EXPECT_EQ(urma_advise_jfr(jfs, tjfr), URMA_EEXIST);
    EXPECT_EQ(urma_unadvise_jfr(jfs, tjfr), URMA_SUCCESS);
    EXPECT_EQ(urma_unadvise_jfr(jfs, tjfr), URMA_EINVAL);

    AdviseResult r;
    EXPECT_EQ(urma_advise_jfr_async(jfs, tjfr, advise_cb, &r), URMA_SUCCESS);
    EXPECT_EQ(r.calls, 1);
    EXPECT_EQ(r.status, URMA_SUCCESS);
    EXPECT_EQ(urma_advise_jfr_async(jfs, tjfr, advise_cb, &r), URMA_SUCCESS);
    EXPECT_EQ(r.calls, 2);
    EXPECT_EQ(r.status, URMA_EEXIST);
    EXPECT_EQ(urma_advise_jfr_async(jfs, tjfr, nullptr, &r), URMA_EINVAL);
    EXPECT_EQ(urma_advise_jfr_async(jfs, tjfr, advise_cb, nullptr), URMA_EINVAL);

    // Unimport forgets the pair: a new import is advised afresh.
    EXPECT_EQ(urma_unimport_jfr(tjfr), URMA_SUCCESS);
    tjfr = import_jfr(jfr, token.token);
    ASSERT_NE(tjfr, nullptr);
    EXPECT_EQ(urma_advise_jfr(jfs, tjfr), URMA_SUCCESS);

    // Not RM: refused.
    urma_jfs_cfg_t rc = ub_itest::jfs_cfg(jfc);
    rc.trans_mode = URMA_TM_RC;
    urma_jfs_t *jfs_rc = urma_create_jfs(ctx_, &rc);
    ASSERT_NE(jfs_rc, nullptr);
    EXPECT_EQ(urma_advise_jfr(jfs_rc, tjfr), URMA_EINVAL);

    // Jetties: the target must be an imported jetty.
    urma_jetty_cfg_t jcfg = ub_itest::jetty_cfg_shared(jfc, jfr);
    urma_jetty_t *jetty = urma_create_jetty(ctx_, &jcfg);
    ASSERT_NE(jetty, nullptr);
    urma_rjetty_t *rjetty = nullptr;
    uint32_t len = 0;
    ASSERT_EQ(urma_get_rjetty(jetty, &rjetty, &len), URMA_SUCCESS);
    urma_target_jetty_t *tjetty = urma_import_jetty(ctx_, rjetty, &token);
    ASSERT_NE(tjetty, nullptr) << std::strerror(errno);
    urma_put_rjetty(rjetty);
    EXPECT_EQ(urma_advise_jetty(jetty, tjfr), URMA_EINVAL);
    EXPECT_EQ(urma_advise_jetty(jetty, tjetty), URMA_SUCCESS);
    EXPECT_EQ(urma_advise_jetty(jetty, tjetty), URMA_EEXIST);
    EXPECT_EQ(urma_unadvise_jetty(jetty, tjetty), URMA_SUCCESS);
    EXPECT_EQ(urma_unadvise_jetty(jetty, tjetty), URMA_EINVAL);
    EXPECT_EQ(urma_advise_jetty(nullptr, tjetty), URMA_EINVAL);

    EXPECT_EQ(urma_unimport_jetty(tjetty), URMA_SUCCESS);
    EXPECT_EQ(urma_delete_jetty(jetty), URMA_SUCCESS);
    EXPECT_EQ(urma_unimport_jfr(tjfr), URMA_SUCCESS);
    EXPECT_EQ(urma_delete_jfs(jfs_rc), URMA_SUCCESS);
    EXPECT_EQ(urma_delete_jfs(jfs), URMA_SUCCESS);
    EXPECT_EQ(urma_delete_jfr(jfr), URMA_SUCCESS);
    EXPECT_EQ(urma_delete_jfc(jfc), URMA_SUCCESS);
}

// The descriptions a peer imports with: from urma_get_rjetty and
// urma_get_seg_ctx, and the imports they make.
TEST_F(ApiTest, DescriptorsImport)
{
    urma_jfc_t *jfc = make_jfc();
    ASSERT_NE(jfc, nullptr);
    urma_jfr_cfg_t rcfg = ub_itest::jfr_cfg(jfc);
    urma_jetty_cfg_t own = {};
    own.jfs_cfg = ub_itest::jfs_cfg(jfc);
    own.jfs_cfg.flag.bs.order_type = URMA_OI;
    own.jfr_cfg = &rcfg;  // a jetty with its own JFR
    urma_jetty_t *jetty = urma_create_jetty(ctx_, &own);
    ASSERT_NE(jetty, nullptr) << std::strerror(errno);

    urma_rjetty_t *rjetty = nullptr;
    uint32_t len = 0;
    ASSERT_EQ(urma_get_rjetty(jetty, &rjetty, &len), URMA_SUCCESS);
    EXPECT_EQ(len, sizeof(urma_rjetty_t));
    EXPECT_EQ(rjetty->jetty_id.id, jetty->jetty_id.id);
    EXPECT_EQ(rjetty->jetty_id.uasid, ctx_->uasid);
    EXPECT_EQ(std::memcmp(rjetty->jetty_id.eid.raw, ctx_->eid.raw, URMA_EID_SIZE), 0);
    EXPECT_EQ(rjetty->trans_mode, URMA_TM_RM);
    EXPECT_EQ(rjetty->type, URMA_JETTY);
    EXPECT_EQ(rjetty->flag.bs.order_type, static_cast<uint32_t>(URMA_OI));
    EXPECT_EQ(rjetty->flag.bs.token_policy, static_cast<uint32_t>(URMA_TOKEN_PLAIN_TEXT));
    urma_token_t token = {0xabcd};
    urma_target_jetty_t *tjetty = urma_import_jetty(ctx_, rjetty, &token);
    ASSERT_NE(tjetty, nullptr) << std::strerror(errno);
    EXPECT_EQ(tjetty->id.id, jetty->jetty_id.id);
    urma_put_rjetty(rjetty);
    urma_put_rjetty(nullptr);
    EXPECT_EQ(urma_get_rjetty(jetty, nullptr, &len), URMA_EINVAL);
    EXPECT_EQ(urma_get_rjetty(jetty, &rjetty, nullptr), URMA_EINVAL);

    void *buf = std::aligned_alloc(4096, 8192);
    ASSERT_NE(buf, nullptr);
    urma_seg_cfg_t scfg = ub_itest::seg_cfg(buf, 8192);
    urma_target_seg_t *seg = urma_register_seg(ctx_, &scfg);
    ASSERT_NE(seg, nullptr);
    urma_seg_t *desc = nullptr;
    uint32_t size = 0;
    ASSERT_EQ(urma_get_seg_ctx(seg, &desc, &size), URMA_SUCCESS);
    EXPECT_EQ(size, sizeof(urma_seg_t));
    EXPECT_EQ(desc->ubva.va, reinterpret_cast<uintptr_t>(buf));
    EXPECT_EQ(desc->len, 8192u);
    EXPECT_EQ(desc->token_id, seg->seg.token_id);
    EXPECT_EQ(desc->attr.bs.access, static_cast<uint32_t>(URMA_ACCESS_READ | URMA_ACCESS_WRITE));
    urma_token_t stoken = {0x5eed};
    urma_import_seg_flag_t iflag = {};
    iflag.bs.access = URMA_ACCESS_READ | URMA_ACCESS_WRITE;
    urma_target_seg_t *tseg = urma_import_seg(ctx_, desc, &stoken, 0, iflag);
    ASSERT_NE(tseg, nullptr) << std::strerror(errno);
    EXPECT_EQ(tseg->seg.len, 8192u);
    urma_put_seg_ctx(desc);
    EXPECT_EQ(urma_get_seg_ctx(seg, nullptr, &size), URMA_EINVAL);

    EXPECT_EQ(urma_unimport_seg(tseg), URMA_SUCCESS);
    EXPECT_EQ(urma_unregister_seg(seg), URMA_SUCCESS);
    std::free(buf);
    EXPECT_EQ(urma_unimport_jetty(tjetty), URMA_SUCCESS);
    EXPECT_EQ(urma_delete_jetty(jetty), URMA_SUCCESS);
    EXPECT_EQ(urma_delete_jfc(jfc), URMA_SUCCESS);
}

// urma_set_context_opt: its one option is for aggregated devices; udma
// devices are not (UMDK's URMA_EINVAL). urma_user_ctl: udma has no provider
// command (URMA_ENOPERM, passed through as UMDK does).
TEST_F(ApiTest, ContextOptAndUserCtl)
{
    urma_context_aggr_mode_t mode = URMA_AGGR_MODE_BALANCE;
    EXPECT_EQ(urma_set_context_opt(ctx_, URMA_OPT_AGGR_MODE, &mode, sizeof(mode)), URMA_EINVAL);
    EXPECT_TRUE(logged("not an aggregated device"));
    EXPECT_EQ(urma_set_context_opt(ctx_, URMA_OPT_AGGR_MODE, &mode, 1), URMA_EINVAL);
    EXPECT_EQ(urma_set_context_opt(ctx_, URMA_OPT_AGGR_MODE, nullptr, sizeof(mode)), URMA_EINVAL);
    EXPECT_EQ(urma_set_context_opt(ctx_, static_cast<urma_opt_name_t>(9), &mode, sizeof(mode)), URMA_EINVAL);

    urma_user_ctl_in_t in = {};
    urma_user_ctl_out_t out = {};
    in.opcode = 1;
    EXPECT_EQ(urma_user_ctl(ctx_, &in, &out), URMA_ENOPERM);
    EXPECT_TRUE(logged("no command 1"));
    in.len = 8;
    EXPECT_EQ(urma_user_ctl(ctx_, &in, &out), URMA_EINVAL);  // bytes at address 0
    EXPECT_EQ(urma_user_ctl(ctx_, nullptr, &out), URMA_EINVAL);
}

urma_net_addr_t ip4(const char *text)
{
    urma_net_addr_t a = {};
    a.sin_family = AF_INET;
    inet_pton(AF_INET, text, &a.in4);
    return a;
}

urma_net_addr_t ip6(const char *text)
{
    urma_net_addr_t a = {};
    a.sin_family = AF_INET6;
    inet_pton(AF_INET6, text, &a.in6);
    return a;
}

urma_eid_t eid_of(const char *text)
{
    urma_eid_t e = {};
    inet_pton(AF_INET6, text, e.raw);
    return e;
}

// EID <-> IP: IPv4 is ::ffff:a.b.c.d, IPv6 is itself (UBoE, DESIGN: the
// netdev's addresses give the device its EIDs); on lo the address list is
// 127.0.0.1/8 and ::1/128 at their EID indexes, and every MAC is lo's
// (all zero).
TEST_F(ApiTest, AddressesOnLo)
{
    urma_eid_t eid = {};
    urma_net_addr_t a = ip4("192.0.2.7");
    ASSERT_EQ(urma_get_eid_by_ip(ctx_, &a, &eid), URMA_SUCCESS);
    urma_eid_t want = eid_of("::ffff:192.0.2.7");
    EXPECT_EQ(std::memcmp(eid.raw, want.raw, URMA_EID_SIZE), 0);
    urma_net_addr_t back = {};
    ASSERT_EQ(urma_get_ip_by_eid(ctx_, &eid, &back), URMA_SUCCESS);
    EXPECT_EQ(back.sin_family, AF_INET);
    EXPECT_EQ(back.in4.s_addr, a.in4.s_addr);
    a = ip6("2001:db8::5");
    ASSERT_EQ(urma_get_eid_by_ip(ctx_, &a, &eid), URMA_SUCCESS);
    want = eid_of("2001:db8::5");
    EXPECT_EQ(std::memcmp(eid.raw, want.raw, URMA_EID_SIZE), 0);
    ASSERT_EQ(urma_get_ip_by_eid(ctx_, &eid, &back), URMA_SUCCESS);
    EXPECT_EQ(back.sin_family, AF_INET6);
    EXPECT_EQ(std::memcmp(&back.in6, &a.in6, 16), 0);
    a.sin_family = AF_UNIX;
    EXPECT_EQ(urma_get_eid_by_ip(ctx_, &a, &eid), URMA_EINVAL);
    a = ip4("0.0.0.0");
    EXPECT_EQ(urma_get_eid_by_ip(ctx_, &a, &eid), URMA_EINVAL);
    urma_eid_t zero = {};
    EXPECT_EQ(urma_get_ip_by_eid(ctx_, &zero, &back), URMA_EINVAL);

    uint32_t cnt = 0, eid_cnt = 0;
    urma_net_addr_info_t *list = urma_get_net_addr_list(ctx_, &cnt);
    ASSERT_NE(list, nullptr) << std::strerror(errno);
    urma_eid_info_t *eids = urma_get_eid_list(ctx_->dev, &eid_cnt);
    ASSERT_NE(eids, nullptr);
    bool v4 = false, v6 = false;
    for (uint32_t i = 0; i < cnt; i++) {
        const urma_net_addr_t &n = list[i].netaddr;
        const uint8_t zero_mac[URMA_MAC_BYTES] = {};
        EXPECT_EQ(std::memcmp(n.mac, zero_mac, URMA_MAC_BYTES), 0);
        urma_eid_t e;
        ASSERT_EQ(urma_get_eid_by_ip(ctx_, &n, &e), URMA_SUCCESS);
        bool indexed = false;
        for (uint32_t j = 0; j < eid_cnt; j++)
            indexed |= eids[j].eid_index == list[i].index && std::memcmp(eids[j].eid.raw, e.raw, 16) == 0;
        EXPECT_TRUE(indexed) << "entry " << i << " is not the EID at its index";
        if (n.sin_family == AF_INET && n.in4.s_addr == htonl(INADDR_LOOPBACK)) {
            v4 = true;
            EXPECT_EQ(n.prefix_len, 8u);
        }
        if (n.sin_family == AF_INET6 && IN6_IS_ADDR_LOOPBACK(&n.in6)) {
            v6 = true;
            EXPECT_EQ(n.prefix_len, 128u);
        }
    }
    EXPECT_TRUE(v4);
    EXPECT_TRUE(v6);
    urma_free_eid_list(eids);
    urma_free_net_addr_list(list);
    EXPECT_EQ(urma_get_net_addr_list(ctx_, nullptr), nullptr);

    uint8_t mac[URMA_MAC_BYTES] = {1, 1, 1, 1, 1, 1};
    const uint8_t zero_mac[URMA_MAC_BYTES] = {};
    ASSERT_EQ(urma_get_smac(ctx_, mac), URMA_SUCCESS);
    EXPECT_EQ(std::memcmp(mac, zero_mac, URMA_MAC_BYTES), 0);
    std::memset(mac, 1, sizeof(mac));
    a = ip4("127.0.0.1");
    ASSERT_EQ(urma_get_dmac(ctx_, &a, mac), URMA_SUCCESS);
    EXPECT_EQ(std::memcmp(mac, zero_mac, URMA_MAC_BYTES), 0);
    a.sin_family = AF_PACKET;
    EXPECT_EQ(urma_get_dmac(ctx_, &a, mac), URMA_EINVAL);
    EXPECT_EQ(urma_get_smac(ctx_, nullptr), URMA_EINVAL);
}

bool readable(int fd)
{
    struct pollfd p = {fd, POLLIN, 0};
    return poll(&p, 1, 0) == 1 && (p.revents & POLLIN) != 0;
}

// Notifiers: an asynchronous import or bind is done before the call
// returns on udma, and its result waits on the notifier, whose fd is
// readable while one does.
TEST_F(ApiTest, NotifierAsyncImportAndBind)
{
    urma_jfc_t *jfc = make_jfc();
    ASSERT_NE(jfc, nullptr);
    urma_jfr_cfg_t rcfg = ub_itest::jfr_cfg(jfc);
    rcfg.trans_mode = URMA_TM_RC;
    urma_jetty_cfg_t jcfg = {};
    jcfg.jfs_cfg = ub_itest::jfs_cfg(jfc);
    jcfg.jfs_cfg.trans_mode = URMA_TM_RC;
    jcfg.jfr_cfg = &rcfg;
    urma_jetty_t *a = urma_create_jetty(ctx_, &jcfg);
    urma_jetty_t *b = urma_create_jetty(ctx_, &jcfg);
    ASSERT_NE(a, nullptr) << std::strerror(errno);
    ASSERT_NE(b, nullptr) << std::strerror(errno);

    urma_notifier_t *notifier = urma_create_notifier(ctx_);
    ASSERT_NE(notifier, nullptr) << std::strerror(errno);
    EXPECT_GE(notifier->fd, 0);
    EXPECT_EQ(notifier->urma_ctx, ctx_);
    EXPECT_FALSE(readable(notifier->fd));
    urma_notify_t got[4] = {};
    EXPECT_EQ(urma_wait_notify(notifier, 4, got, 0), 0);
    EXPECT_EQ(urma_wait_notify(notifier, 4, got, 100), 0);  // times out
    EXPECT_EQ(urma_delete_context(ctx_), URMA_EAGAIN);      // held by the notifier

    urma_rjetty_t *rjetty = nullptr;
    uint32_t len = 0;
    ASSERT_EQ(urma_get_rjetty(b, &rjetty, &len), URMA_SUCCESS);
    urma_token_t token = {0xabcd};
    urma_target_jetty_t *tb = urma_import_jetty_async(notifier, rjetty, &token, 0x77, 1000);
    ASSERT_NE(tb, nullptr) << std::strerror(errno);
    EXPECT_EQ(obj_count("tjetty"), 1);
    EXPECT_TRUE(readable(notifier->fd));
    ASSERT_EQ(urma_wait_notify(notifier, 4, got, 0), 1);
    EXPECT_EQ(got[0].type, URMA_IMPORT_JETTY_NOTIFY);
    EXPECT_EQ(got[0].status, URMA_SUCCESS);
    EXPECT_EQ(got[0].user_ctx, 0x77u);
    EXPECT_EQ(got[0].tjetty, tb);
    EXPECT_FALSE(readable(notifier->fd));
    // An import the library refuses (an RC jetty group: groups are RM)
    // fails at once.
    urma_rjetty_t group = *rjetty;
    group.type = URMA_JETTY_GROUP;
    errno = 0;
    EXPECT_EQ(urma_import_jetty_async(notifier, &group, &token, 1, 1000), nullptr);
    EXPECT_EQ(errno, EINVAL);
    EXPECT_FALSE(readable(notifier->fd));
    EXPECT_EQ(urma_import_jetty_async(notifier, rjetty, nullptr, 1, 1000), nullptr);
    urma_put_rjetty(rjetty);

    ASSERT_EQ(urma_bind_jetty_async(notifier, a, tb, 0x88, 1000), URMA_SUCCESS);
    ASSERT_EQ(urma_wait_notify(notifier, 4, got, 1000), 1);
    EXPECT_EQ(got[0].type, URMA_BIND_JETTY_NOTIFY);
    EXPECT_EQ(got[0].status, URMA_SUCCESS);
    EXPECT_EQ(got[0].user_ctx, 0x88u);
    EXPECT_EQ(got[0].jetty, a);
    EXPECT_EQ(a->remote_jetty, tb);
    ASSERT_EQ(urma_bind_jetty_async(notifier, a, tb, 0x89, 1000), URMA_SUCCESS);
    ASSERT_EQ(urma_wait_notify(notifier, 4, got, 0), 1);
    EXPECT_EQ(got[0].status, URMA_EEXIST);  // bound already
    EXPECT_EQ(urma_unbind_jetty_async(a), URMA_SUCCESS);
    EXPECT_EQ(urma_unbind_jetty_async(a), URMA_EINVAL);  // not bound

    // An RM jetty is not bound (UMDK: URMA_ENOPERM).
    urma_jfr_t *jfr = make_jfr(jfc);
    ASSERT_NE(jfr, nullptr);
    urma_jetty_cfg_t rm = ub_itest::jetty_cfg_shared(jfc, jfr);
    urma_jetty_t *c = urma_create_jetty(ctx_, &rm);
    ASSERT_NE(c, nullptr);
    EXPECT_EQ(urma_bind_jetty_async(notifier, c, tb, 1, 1000), URMA_ENOPERM);
    EXPECT_EQ(urma_wait_notify(notifier, 4, got, 0), 0);

    EXPECT_EQ(urma_unimport_jetty_async(tb), URMA_SUCCESS);
    EXPECT_EQ(obj_count("tjetty"), 0);
    urma_notify_t note = {};
    EXPECT_EQ(urma_ack_notify(ctx_, 1, &note), URMA_SUCCESS);  // UMDK's legacy no-op
    EXPECT_EQ(urma_delete_notifier(notifier), URMA_SUCCESS);
    EXPECT_EQ(urma_delete_jetty(c), URMA_SUCCESS);
    EXPECT_EQ(urma_delete_jfr(jfr), URMA_SUCCESS);
    EXPECT_EQ(urma_delete_jetty(a), URMA_SUCCESS);
    EXPECT_EQ(urma_delete_jetty(b), URMA_SUCCESS);
    EXPECT_EQ(urma_delete_jfc(jfc), URMA_SUCCESS);
}

// A veth with fixed MACs and a neighbour entry: udma0 on veth0. smac is
// veth0's MAC, dmac a neighbour's from the table (or the own MAC for an own
// address), an address without an entry is ENOENT.
class VethAddrTest : public ::testing::Test {
protected:
    static void SetUpTestSuite()
    {
        ASSERT_EQ(ub_itest::run("ip link add ubveth0 address 02:aa:bb:cc:dd:01 type veth peer name ubveth1 "
                                "address 02:aa:bb:cc:dd:02 && ip addr add 10.91.0.1/24 dev ubveth0 && "
                                "ip link set ubveth1 up && ip link set ubveth0 up && "
                                "ip neigh replace 10.91.0.2 lladdr 02:11:22:33:44:55 dev ubveth0 nud permanent"),
                  0);
        ASSERT_TRUE(ub_itest::load_stack("ubveth0"));
        ASSERT_TRUE(ub_itest::wait_udma_ready());
    }
    static void TearDownTestSuite()
    {
        EXPECT_TRUE(ub_itest::unload_stack());
        ub_itest::run("ip link del ubveth0");
    }
};

TEST_F(VethAddrTest, MacsAndAddressList)
{
    ASSERT_EQ(urma_init(nullptr), URMA_SUCCESS);
    urma_context_t *ctx = ub_itest::open_ctx();
    ASSERT_NE(ctx, nullptr) << std::strerror(errno);
    const uint8_t own[URMA_MAC_BYTES] = {0x02, 0xaa, 0xbb, 0xcc, 0xdd, 0x01};
    const uint8_t neigh[URMA_MAC_BYTES] = {0x02, 0x11, 0x22, 0x33, 0x44, 0x55};
    uint8_t mac[URMA_MAC_BYTES] = {};
    ASSERT_EQ(urma_get_smac(ctx, mac), URMA_SUCCESS);
    EXPECT_EQ(std::memcmp(mac, own, URMA_MAC_BYTES), 0);
    urma_net_addr_t a = ip4("10.91.0.2");
    ASSERT_EQ(urma_get_dmac(ctx, &a, mac), URMA_SUCCESS);
    EXPECT_EQ(std::memcmp(mac, neigh, URMA_MAC_BYTES), 0);
    a = ip4("10.91.0.1");
    ASSERT_EQ(urma_get_dmac(ctx, &a, mac), URMA_SUCCESS);
    EXPECT_EQ(std::memcmp(mac, own, URMA_MAC_BYTES), 0);
    a = ip4("10.91.0.3");
    EXPECT_EQ(urma_get_dmac(ctx, &a, mac), ENOENT);

    uint32_t cnt = 0;
    urma_net_addr_info_t *list = urma_get_net_addr_list(ctx, &cnt);
    ASSERT_NE(list, nullptr) << std::strerror(errno);
    bool found = false;
    for (uint32_t i = 0; i < cnt; i++) {
        const urma_net_addr_t &n = list[i].netaddr;
        EXPECT_EQ(std::memcmp(n.mac, own, URMA_MAC_BYTES), 0);
        if (n.sin_family == AF_INET && n.in4.s_addr == ip4("10.91.0.1").in4.s_addr) {
            found = true;
            EXPECT_EQ(n.prefix_len, 24u);
        }
    }
    EXPECT_TRUE(found);
    urma_free_net_addr_list(list);
    EXPECT_EQ(urma_delete_context(ctx), URMA_SUCCESS);
    EXPECT_EQ(urma_uninit(), URMA_SUCCESS);
}

}  // namespace
