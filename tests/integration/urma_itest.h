// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The UB/URMA stack authors
// Helpers of the liburma object suites: sysfs object counts of a device and
// ready-made configurations.
#pragma once

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <string>
#include <vector>

#include "stack.h"
#include "ub_sysfs.h"
#include "urma_api.h"

namespace ub_itest {

// The sysfs helpers and object counts (tests/common/ub_sysfs.h).
using ub_test::counts;
using ub_test::kObjKinds;
using ub_test::obj_count;
using ub_test::sysfs_long;
using ub_test::write_sysfs;

// Whether every count of dev is 0 (all files present).
inline bool all_counts_zero(const std::string &dev = "udma0")
{
    for (const char *k : kObjKinds)
        if (obj_count(k, dev) != 0)
            return false;
    return true;
}

// Whether the only objects left on dev are n user contexts. A fixture's
// TearDown checks it after its per-object deletes and before
// urma_delete_context(), which frees whatever a test forgot to delete;
// checked only afterwards, a missed delete would never show.
inline bool only_contexts_left(long n, const std::string &dev = "udma0")
{
    for (const char *k : kObjKinds)
        if (obj_count(k, dev) != (std::string(k) == "ucontext" ? n : 0))
            return false;
    return true;
}

inline bool udma_ready(const std::string &dev = "udma0")
{
    struct stat st;
    return stat(("/sys/class/ubcore/" + dev + "/eids/eid0").c_str(), &st) == 0 &&
           stat(("/dev/uburma/" + dev).c_str(), &st) == 0;
}

// Waits for dev to be usable after the stack was loaded (the EID table is
// filled by a work item).
inline bool wait_udma_ready(const std::string &dev = "udma0")
{
    return wait_for([&dev] { return udma_ready(dev); }, 10000);
}

// A context on the first EID of dev (urma_init must have been called).
inline urma_context_t *open_ctx(const char *dev = "udma0")
{
    char name[64];
    std::snprintf(name, sizeof(name), "%s", dev);
    urma_device_t *d = urma_get_device_by_name(name);
    if (d == nullptr)
        return nullptr;
    uint32_t cnt = 0;
    urma_eid_info_t *eids = urma_get_eid_list(d, &cnt);
    if (eids == nullptr)
        return nullptr;
    uint32_t idx = eids[0].eid_index;
    urma_free_eid_list(eids);
    return urma_create_context(d, idx);
}

inline urma_jfc_cfg_t jfc_cfg(uint32_t depth = 64, urma_jfce_t *jfce = nullptr)
{
    urma_jfc_cfg_t c = {};
    c.depth = depth;
    c.jfce = jfce;
    c.user_ctx = 0x77;
    return c;
}

inline urma_jfs_cfg_t jfs_cfg(urma_jfc_t *jfc, uint32_t depth = 64)
{
    urma_jfs_cfg_t c = {};
    c.depth = depth;
    c.trans_mode = URMA_TM_RM;
    c.max_sge = 1;
    c.max_rsge = 1;
    c.rnr_retry = URMA_TYPICAL_RNR_RETRY;
    c.err_timeout = URMA_TYPICAL_ERR_TIMEOUT;
    c.jfc = jfc;
    return c;
}

inline urma_jfr_cfg_t jfr_cfg(urma_jfc_t *jfc, uint32_t depth = 64)
{
    urma_jfr_cfg_t c = {};
    c.depth = depth;
    c.trans_mode = URMA_TM_RM;
    c.max_sge = 1;
    c.min_rnr_timer = URMA_TYPICAL_MIN_RNR_TIMER;
    c.jfc = jfc;
    c.token_value.token = 0xabcd;
    c.flag.bs.token_policy = URMA_TOKEN_PLAIN_TEXT;
    return c;
}

inline urma_jetty_cfg_t jetty_cfg_shared(urma_jfc_t *jfc, urma_jfr_t *jfr)
{
    urma_jetty_cfg_t c = {};
    c.flag.bs.share_jfr = URMA_SHARE_JFR;
    c.jfs_cfg = jfs_cfg(jfc);
    c.shared.jfr = jfr;
    c.shared.jfc = nullptr;
    return c;
}

inline urma_seg_cfg_t seg_cfg(void *buf, uint64_t len, uint32_t access = URMA_ACCESS_READ | URMA_ACCESS_WRITE)
{
    urma_seg_cfg_t c = {};
    c.va = reinterpret_cast<uintptr_t>(buf);
    c.len = len;
    c.token_value.token = 0x5eed;
    c.flag.bs.token_policy = URMA_TOKEN_PLAIN_TEXT;
    c.flag.bs.access = access;
    return c;
}

// A suite over the stack loaded with udma on lo (udma0 ready), unloaded
// after the suite.
class StackTest : public ::testing::Test {
protected:
    static void SetUpTestSuite()
    {
        ASSERT_TRUE(load_stack("lo"));
        ASSERT_TRUE(wait_udma_ready());
    }
    static void TearDownTestSuite() { EXPECT_TRUE(unload_stack()); }
};

// A StackTest whose tests run over a context on udma0 (cap_: its limits);
// after each test every kernel count is 0.
class CtxTest : public StackTest {
protected:
    void SetUp() override
    {
        ASSERT_EQ(urma_init(nullptr), URMA_SUCCESS);
        ctx_ = open_ctx();
        ASSERT_NE(ctx_, nullptr) << std::strerror(errno);
        urma_device_attr_t attr;
        ASSERT_EQ(urma_query_device(ctx_->dev, &attr), URMA_SUCCESS);
        cap_ = attr.dev_cap;
    }
    void TearDown() override
    {
        // Each test deleted what it created: only the context is left, so a
        // missed per-object delete shows before the context frees it all.
        if (ctx_ != nullptr) {
            EXPECT_TRUE(wait_for([] { return only_contexts_left(1); }, 3000)) << counts();
            EXPECT_EQ(urma_delete_context(ctx_), URMA_SUCCESS);
        }
        EXPECT_EQ(urma_uninit(), URMA_SUCCESS);
        // The kernel freed everything: every count is back to 0.
        EXPECT_TRUE(wait_for([] { return all_counts_zero(); }, 3000)) << counts();
    }

    // jfr imported into this context (RM, plain-text token).
    urma_target_jetty_t *import_jfr(const urma_jfr_t *jfr, uint32_t token)
    {
        urma_rjfr_t rjfr = {};
        rjfr.jfr_id = jfr->jfr_id;
        rjfr.trans_mode = URMA_TM_RM;
        rjfr.flag.bs.token_policy = URMA_TOKEN_PLAIN_TEXT;
        urma_token_t t = {token};
        return urma_import_jfr(ctx_, &rjfr, &t);
    }

    urma_context_t *ctx_ = nullptr;
    urma_device_cap_t cap_ = {};
};

// liburma's log lines, as urma_register_log_func(log_capture) hands them over.
inline std::mutex g_log_lock;
inline std::vector<std::string> g_log;

inline void log_capture(int, char *message)
{
    std::lock_guard<std::mutex> guard(g_log_lock);
    g_log.emplace_back(message);
}

inline void log_clear()
{
    std::lock_guard<std::mutex> guard(g_log_lock);
    g_log.clear();
}

// Has a captured line contained what?
inline bool logged(const std::string &what)
{
    std::lock_guard<std::mutex> guard(g_log_lock);
    for (const std::string &m : g_log)
        if (m.find(what) != std::string::npos)
            return true;
    return false;
}

}  // namespace ub_itest
