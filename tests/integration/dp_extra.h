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

    // A full JFC is fatal to the queue that cannot complete. Makes a JFC
    // of depth 4 (*depth: the depth it got, d) and on it a queue of depth
    // 4 * d with make(jfc, 4 * d), posts nops_per_depth * d signalled NOPs
    // (user_ctx 0, 1, ...) there with post, and checks the overflow: JFC_ERR,
    // then err_event on the queue, which is in ERROR (state); the d CQEs
    // that fit are successes with user_ctx 0 .. d-1. Returns the queue and
    // (if jfc_out) the JFC; nullptr (after a failure) when it could not be
    // set up.
    template <typename Q, typename Make>
    Q *overflow_cq(Make make, urma_status_t (*post)(Q *, urma_jfs_wr_t *, urma_jfs_wr_t **), int (*state)(Q *),
                   int err_event, uint32_t nops_per_depth, urma_jfc_t **jfc_out, uint32_t *depth)
    {
        urma_jfc_t *jfc = own_jfc(4);
        if (jfc == nullptr)
            return nullptr;
        const uint32_t d = jfc->jfc_cfg.depth;
        Q *q = make(jfc, 4 * d);
        EXPECT_NE(q, nullptr);
        if (q == nullptr)
            return nullptr;
        auto wr = nop_chain(nops_per_depth * d, 0);
        urma_jfs_wr_t *bad = nullptr;
        EXPECT_EQ(post(q, wr.data(), &bad), URMA_SUCCESS);

        expect_async(ctx_, URMA_EVENT_JFC_ERR, jfc);
        expect_async(ctx_, err_event, q);
        EXPECT_EQ(state(q), URMA_JETTY_STATE_ERROR);

        std::vector<urma_cr_t> got = drain(jfc);
        EXPECT_EQ(got.size(), d);
        for (uint32_t i = 0; i < d && i < got.size(); i++) {
            EXPECT_EQ(got[i].status, URMA_CR_SUCCESS);
            EXPECT_EQ(got[i].user_ctx, i);
        }
        if (jfc_out != nullptr)
            *jfc_out = jfc;
        *depth = d;
        return q;
    }

    std::vector<urma_jfc_t *> jfcs_;
    std::vector<urma_jfce_t *> jfces_;
};

}  // namespace ub_itest
