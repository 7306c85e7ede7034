// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The UB/URMA stack authors
// Async events through liburma: the port of a udma device on a veth goes
// down and up with the peer's link, an address added changes the EID
// table; each reaches the context's async fd (pollable) as an
// urma_async_event_t.
#include <gtest/gtest.h>

#include <poll.h>
#include <sys/stat.h>

#include <cerrno>
#include <cstring>
#include <string>

#include "stack.h"
#include "urma_api.h"
#include "urma_itest.h"

namespace {

// udma1 is the device of veth0 (udma0 is lo's), as in udma-port.sh.
const char kDev[] = "udma1";

class AsyncTest : public ::testing::Test {
protected:
    static void SetUpTestSuite()
    {
        ub_itest::run("ip link del ubt-veth0 2>/dev/null");
        ASSERT_EQ(ub_itest::run("ip link add ubt-veth0 type veth peer name ubt-veth1"), 0);
        ASSERT_EQ(ub_itest::run("ip addr add 10.77.0.1/24 dev ubt-veth0"), 0);
        ASSERT_EQ(ub_itest::run("ip link set ubt-veth0 up && ip link set ubt-veth1 up"), 0);
        ASSERT_TRUE(ub_itest::load_stack("lo,ubt-veth0"));
        ASSERT_TRUE(ub_itest::wait_for([] {
            return ub_itest::udma_ready(kDev) &&
                   ub_itest::run(std::string("grep -qx ACTIVE /sys/class/ubcore/") + kDev + "/port0/state") == 0;
        }, 10000));
    }
    static void TearDownTestSuite()
    {
        EXPECT_TRUE(ub_itest::unload_stack());
        ub_itest::run("ip link del ubt-veth0");
    }

    void SetUp() override
    {
        ASSERT_EQ(urma_init(nullptr), URMA_SUCCESS);
        ctx_ = ub_itest::open_ctx(kDev);
        ASSERT_NE(ctx_, nullptr) << std::strerror(errno);
    }
    void TearDown() override
    {
        // The tests create no objects: the context is all there is, then nothing.
        EXPECT_TRUE(ub_itest::only_contexts_left(1, kDev)) << ub_itest::counts(kDev);
        EXPECT_EQ(urma_delete_context(ctx_), URMA_SUCCESS);
        EXPECT_EQ(urma_uninit(), URMA_SUCCESS);
        EXPECT_TRUE(ub_itest::wait_for([] { return ub_itest::all_counts_zero(kDev); }, 3000))
            << ub_itest::counts(kDev);
        ub_itest::run("ip link set ubt-veth1 up");
    }

    // Reads events (acking each) until one of type want arrives within
    // timeout_ms; poll() must report the fd readable before each read.
    bool wait_event(urma_async_event_type_t want, urma_async_event_t *got, int timeout_ms = 10000)
    {
        for (int waited = 0; waited < timeout_ms; waited += 100) {
            struct pollfd p = {ctx_->async_fd, POLLIN, 0};
            int n = poll(&p, 1, 100);
            if (n <= 0)
                continue;
            if (!(p.revents & POLLIN))
                return false;
            urma_async_event_t ev;
            if (urma_get_async_event(ctx_, &ev) != URMA_SUCCESS)
                return false;
            urma_ack_async_event(&ev);
            if (ev.event_type == want) {
                *got = ev;
                return true;
            }
        }
        return false;
    }

    urma_context_t *ctx_ = nullptr;
};

TEST_F(AsyncTest, PortDownAndActive)
{
    urma_async_event_t ev = {};

    ASSERT_EQ(ub_itest::run("ip link set ubt-veth1 down"), 0);  // ubt-veth0 loses carrier
    ASSERT_TRUE(wait_event(URMA_EVENT_PORT_DOWN, &ev));
    EXPECT_EQ(ev.urma_ctx, ctx_);
    EXPECT_EQ(ev.element.port_id, 0u);

    ASSERT_EQ(ub_itest::run("ip link set ubt-veth1 up"), 0);
    ASSERT_TRUE(wait_event(URMA_EVENT_PORT_ACTIVE, &ev));
    EXPECT_EQ(ev.urma_ctx, ctx_);
    EXPECT_EQ(ev.element.port_id, 0u);
}

TEST_F(AsyncTest, EidChangeOnNewAddress)
{
    urma_async_event_t ev = {};

    ASSERT_EQ(ub_itest::run("ip addr add 10.77.0.9/24 dev ubt-veth0"), 0);
    ASSERT_TRUE(wait_event(URMA_EVENT_EID_CHANGE, &ev));
    EXPECT_EQ(ev.urma_ctx, ctx_);
    EXPECT_LT(ev.element.eid_idx, static_cast<uint32_t>(URMA_MAX_EID_CNT));
    // The index names the new EID in the device's list.
    uint32_t cnt = 0;
    urma_eid_info_t *list = urma_get_eid_list(ctx_->dev, &cnt);
    ASSERT_NE(list, nullptr);
    urma_eid_t want;
    ASSERT_EQ(urma_str_to_eid("10.77.0.9", &want), 0);
    bool found = false;
    for (uint32_t i = 0; i < cnt; i++)
        found |= list[i].eid_index == ev.element.eid_idx &&
                 std::memcmp(list[i].eid.raw, want.raw, sizeof(want.raw)) == 0;
    urma_free_eid_list(list);
    EXPECT_TRUE(found) << "eid_idx " << ev.element.eid_idx;
    ASSERT_EQ(ub_itest::run("ip addr del 10.77.0.9/24 dev ubt-veth0"), 0);
}

TEST_F(AsyncTest, GetAsyncEventArguments)
{
    urma_async_event_t ev;
    EXPECT_EQ(urma_get_async_event(nullptr, &ev), URMA_EINVAL);
    EXPECT_EQ(urma_get_async_event(ctx_, nullptr), URMA_EINVAL);
}

}  // namespace
