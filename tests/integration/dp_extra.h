// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The UB/URMA stack authors
// Helpers of the data-path error, jetty and process suites (on top of
// dp_env.h): async events with a deadline, queue states, NOP chains, the
// mapped rings of a JFS, jetty and JFC (through liburma's internals) and a
// raw doorbell.
#pragma once

#include <poll.h>

#include <vector>

#include "dp_env.h"
#include "object.h"
#include "queue.h"
#include "uburma_cmd.h"

namespace ub_itest {

// The next async event of ctx within timeout_ms (acked before return);
// event_type -1 when none came.
struct AsyncEv {
    int type = -1;
    void *element = nullptr;
};

inline AsyncEv next_async_event(urma_context_t *ctx, int timeout_ms)
{
    AsyncEv out;
    struct pollfd pfd = {ctx->async_fd, POLLIN, 0};
    if (poll(&pfd, 1, timeout_ms) != 1)
        return out;
    urma_async_event_t ev = {};
    if (urma_get_async_event(ctx, &ev) != URMA_SUCCESS)
        return out;
    out.type = ev.event_type;
    out.element = ev.element.jfc;  // the union's pointer members alias
    urma_ack_async_event(&ev);
    return out;
}

// The next async event of ctx (within 10 s) is type on element.
inline void expect_async(urma_context_t *ctx, int type, const void *element)
{
    AsyncEv ev = next_async_event(ctx, 10000);
    EXPECT_EQ(ev.type, type);
    EXPECT_EQ(ev.element, element);
}

inline urma_status_t jfs_set_state(urma_jfs_t *jfs, urma_jetty_state_t st)
{
    urma_jfs_attr_t a = {};
    a.mask = JFS_STATE;
    a.state = st;
    return urma_modify_jfs(jfs, &a);
}

inline int jfs_state(urma_jfs_t *jfs)
{
    urma_jfs_cfg_t cfg;
    urma_jfs_attr_t attr = {};
    if (urma_query_jfs(jfs, &cfg, &attr) != URMA_SUCCESS)
        return -1;
    return attr.state;
}

inline urma_status_t jetty_set_state(urma_jetty_t *jetty, urma_jetty_state_t st)
{
    urma_jetty_attr_t a = {};
    a.mask = JETTY_STATE;
    a.state = st;
    return urma_modify_jetty(jetty, &a);
}

inline int jetty_state(urma_jetty_t *jetty)
{
    urma_jetty_cfg_t cfg = {};
    urma_jetty_attr_t attr = {};
    if (urma_query_jetty(jetty, &cfg, &attr) != URMA_SUCCESS)
        return -1;
    return attr.state;
}

// n signaled NOPs, user_ctx first..first+n-1, as one chain.
inline std::vector<urma_jfs_wr_t> nop_chain(uint32_t n, uint64_t first)
{
    std::vector<urma_jfs_wr_t> wr(n);
    for (uint32_t i = 0; i < n; i++) {
        wr[i] = {};
        wr[i].opcode = URMA_OPC_NOP;
        wr[i].flag.bs.complete_enable = 1;
        wr[i].user_ctx = first + i;
        wr[i].next = i + 1 < n ? &wr[i + 1] : nullptr;
    }
    return wr;
}

inline urma::RingMapping &sq_ring(urma_jfs_t *jfs)
{
    return urma::from_pub<urma::JfsImpl>(jfs)->sq.ring();
}

inline urma::RingMapping &sq_ring(urma_jetty_t *jetty)
{
    return urma::from_pub<urma::JettyImpl>(jetty)->sq.ring();
}

inline urma::RingMapping &cq_ring(urma_jfc_t *jfc)
{
    return urma::from_pub<urma::JfcImpl>(jfc)->cq.ring();
}

inline urma::RingMapping &rq_ring(urma_jfr_t *jfr)
{
    return urma::from_pub<urma::JfrImpl>(jfr)->rq.ring();
}

// The doorbell of a JFS or jetty (its handle), without posting: 0 or -errno.
inline int raw_doorbell(urma_context_t *ctx, uint64_t handle)
{
    struct uburma_cmd_ring_doorbell db = {};
    db.in.handle = handle;
    return urma::uburma_cmd(ctx->dev_fd, UBURMA_CMD_RING_DOORBELL, &db);
}

// Every completion record of jfc until it stays empty for quiet_ms.
inline std::vector<urma_cr_t> drain(urma_jfc_t *jfc, int quiet_ms = 100)
{
    std::vector<urma_cr_t> out;
    uint64_t quiet_until = now_ms() + static_cast<uint64_t>(quiet_ms);
    while (now_ms() < quiet_until) {
        urma_cr_t cr[16];
        int n = urma_poll_jfc(jfc, 16, cr);
        if (n < 0)
            break;
        for (int i = 0; i < n; i++)
            out.push_back(cr[i]);
        if (n > 0)
            quiet_until = now_ms() + static_cast<uint64_t>(quiet_ms);
        else
            usleep(1000);
    }
    return out;
}

// DpTest with JFCs and JFCEs of the test's own, deleted after every JFS
// (and what delete_senders() deletes) even when a test stops half-way, so
// that a failed assertion never keeps the context, hence the stack, alive.
class DpOwnTest : public DpTest {
protected:
    void TearDown() override
    {
        delete_senders();
        for (int i = njfs_ - 1; i >= 0; i--)
            if (extra_jfs_[i] != nullptr) {
                EXPECT_EQ(urma_delete_jfs(extra_jfs_[i]), URMA_SUCCESS);
                extra_jfs_[i] = nullptr;
            }
        for (auto it = jfcs_.rbegin(); it != jfcs_.rend(); ++it) {
            EXPECT_EQ(urma_delete_jfc(*it), URMA_SUCCESS);
        }
        for (auto it = jfces_.rbegin(); it != jfces_.rend(); ++it) {
            EXPECT_EQ(urma_delete_jfce(*it), URMA_SUCCESS);
        }
        DpTest::TearDown();
    }
    // Jetties and other users of the JFCs, deleted before them.
    virtual void delete_senders() {}

    urma_jfc_t *own_jfc(uint32_t depth, urma_jfce_t *jfce = nullptr)
    {
        urma_jfc_cfg_t c = jfc_cfg(depth, jfce);
        urma_jfc_t *jfc = urma_create_jfc(ctx_, &c);
        EXPECT_NE(jfc, nullptr) << std::strerror(errno);
        if (jfc != nullptr)
            jfcs_.push_back(jfc);
        return jfc;
    }

    urma_jfce_t *own_jfce()
    {
        urma_jfce_t *ce = urma_create_jfce(ctx_);
        EXPECT_NE(ce, nullptr) << std::strerror(errno);
        if (ce != nullptr)
            jfces_.push_back(ce);
        return ce;
    }

    std::vector<urma_jfc_t *> jfcs_;
    std::vector<urma_jfce_t *> jfces_;
};

}  // namespace ub_itest
