// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The UB/URMA stack authors
// The provider table a context carries (provider_ops.h): its layout is
// UMDK's struct urma_ops (UMDK's compiled applications read members at
// these offsets), its entries are the library's own calls, and the device
// attributes a TP-aware application reads next to it (priority_info).
#include <gtest/gtest.h>

#include <cstddef>

#include "device.h"
#include "provider_ops.h"

namespace {

// UMDK's struct urma_ops (src/urma/lib/urma/core/include/urma_provider.h):
// 100 pointer-sized members; the positions below are counted from it.
constexpr size_t kPtr = sizeof(void *);

TEST(ProviderOps, LayoutIsUmdks)
{
    EXPECT_EQ(sizeof(urma_ops_t), 100 * kPtr);
    EXPECT_EQ(offsetof(urma_ops_t, name), 0u);
    EXPECT_EQ(offsetof(urma_ops_t, create_jfc), 1 * kPtr);
    EXPECT_EQ(offsetof(urma_ops_t, advise_jetty_async), 49 * kPtr);
    EXPECT_EQ(offsetof(urma_ops_t, get_tpn), 62 * kPtr);
    EXPECT_EQ(offsetof(urma_ops_t, import_jetty_ex), 67 * kPtr);
    EXPECT_EQ(offsetof(urma_ops_t, user_ctl), 79 * kPtr);
    EXPECT_EQ(offsetof(urma_ops_t, post_jfs_wr), 80 * kPtr);
    EXPECT_EQ(offsetof(urma_ops_t, poll_jfc), 84 * kPtr);
    EXPECT_EQ(offsetof(urma_ops_t, ack_notify), 95 * kPtr);
    EXPECT_EQ(offsetof(urma_ops_t, get_dmac), 99 * kPtr);
}

TEST(ProviderOps, EntriesAreTheLibrarysCalls)
{
    const urma_ops_t *ops = urma::provider_ops();
    ASSERT_NE(ops, nullptr);
    EXPECT_EQ(ops, urma::provider_ops());
    EXPECT_STREQ(ops->name, "udma");
    EXPECT_EQ(ops->create_jfc, &urma_create_jfc);
    EXPECT_EQ(ops->import_jetty_ex, &urma_import_jetty_ex);
    EXPECT_EQ(ops->import_jfr_ex, &urma_import_jfr_ex);
    EXPECT_EQ(ops->bind_jetty_ex, &urma_bind_jetty_ex);
    EXPECT_EQ(ops->get_tp_list, &urma_get_tp_list);
    EXPECT_EQ(ops->post_jfs_wr, &urma_post_jfs_wr);
    EXPECT_EQ(ops->poll_jfc, &urma_poll_jfc);
    EXPECT_EQ(ops->get_dmac, &urma_get_dmac);
    // UMDK's API has no call that reaches advise_jetty_async.
    EXPECT_EQ(ops->advise_jetty_async, nullptr);
    // Every other entry is backed.
    const auto *slot = reinterpret_cast<void *const *>(ops);
    for (size_t i = 0; i < sizeof(urma_ops_t) / kPtr; i++) {
        if (i != offsetof(urma_ops_t, advise_jetty_async) / kPtr) {
            EXPECT_NE(slot[i], nullptr) << "member " << i;
        }
    }
}

TEST(ProviderOps, EntriesRunTheLibrarysChecks)
{
    const urma_ops_t *ops = urma::provider_ops();
    urma_user_ctl_in_t in = {};
    urma_user_ctl_out_t out = {};
    EXPECT_EQ(ops->user_ctl(nullptr, &in, &out), URMA_EINVAL);
    EXPECT_EQ(ops->create_jfc(nullptr, nullptr), nullptr);
    urma_rjetty_t rjetty = {};
    urma_active_tp_cfg_t tp = {};
    EXPECT_EQ(ops->import_jetty_ex(nullptr, &rjetty, nullptr, &tp), nullptr);
    urma_cr_t cr = {};
    EXPECT_LT(ops->poll_jfc(nullptr, 1, &cr), 0);
    urma_notify_t n = {};
    ops->ack_notify(1, &n);  // UMDK's no-op: nothing to release
}

// A TP-aware application (UMDK's urma_perftest) looks up the priority
// whose type is exactly RTP: udma serves every priority on RTPs.
TEST(DeviceAttr, EveryPriorityIsAnRtpServiceLevel)
{
    uburma_cmd_query_device q = {};
    urma_device_attr_t attr;
    urma::fill_device_attr(q, &attr);
    union urma_tp_type_en rtp = {};
    rtp.bs.rtp = 1;
    for (uint32_t i = 0; i < URMA_MAX_PRIORITY_CNT; i++) {
        EXPECT_EQ(attr.dev_cap.priority_info[i].SL, i);
        EXPECT_EQ(attr.dev_cap.priority_info[i].tp_type.value, rtp.value) << "priority " << i;
    }
}

}  // namespace
