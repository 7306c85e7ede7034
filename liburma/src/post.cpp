// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The UB/URMA stack authors
// Posting work: WR chains written straight into the mapped SQ / RQ, one
// release store of pi per chain and one doorbell command per call, and the
// one-WR conveniences of UMDK (urma_write, urma_read, urma_send, urma_recv).
#include <cerrno>
#include <cstring>

#include "datapath.h"
#include "log.h"
#include "object.h"
#include "queue.h"
#include "uburma_cmd.h"
#include "urma_api.h"

namespace urma {

namespace {

// The loop of sq_post() and rq_post(): write(wr, pi) encodes one WR into
// the entry at pi; what ("send", "receive") names the queue in the log.
template <typename Queue, typename Wr, typename Write>
urma_status_t ring_post(Queue &q, const char *what, Wr *wr, Wr **bad_wr, uint32_t *posted, Write write)
{
    RingMapping &ring = q.ring();
    const uint32_t cnt = ring.entry_cnt();
    uint32_t pi = q.pi();
    // The kernel's ci only grows; one read per call is enough to know a
    // lower bound of the room (UMDK reads it per WR only when full).
    uint32_t ci = load_acquire(&ring.ctrl()->ci);
    urma_status_t st = URMA_SUCCESS;
    uint32_t n = 0;

    for (Wr *it = wr; it != nullptr; it = it->next) {
        if (pi - ci >= cnt) {
            ci = load_acquire(&ring.ctrl()->ci);
            if (pi - ci >= cnt) {
                URMA_LOG_ERR("%s queue full: pi %u ci %u depth %u\n", what, pi, ci, cnt);
                st = URMA_ENOMEM;
            }
        }
        if (st == URMA_SUCCESS)
            st = write(*it, pi);
        if (st != URMA_SUCCESS) {
            if (bad_wr != nullptr)
                *bad_wr = it;
            break;
        }
        pi++;
        n++;
    }
    if (n != 0) {
        // The entries before pi, then pi: the kernel reads pi with acquire.
        store_release(&ring.ctrl()->pi, pi);
        q.set_pi(pi);
    }
    *posted = n;
    return st;
}

}  // namespace

urma_status_t sq_post(SendQueue &sq, const SqLimits &lim, urma_jfs_wr_t *wr, urma_jfs_wr_t **bad_wr,
                      uint32_t *posted)
{
    return ring_post(sq, "send", wr, bad_wr, posted, [&](const urma_jfs_wr_t &w, uint32_t pi) {
        urma_status_t st = encode_sqe(w, lim, static_cast<udma_sqe *>(sq.ring().entry(pi)));
        if (st == URMA_SUCCESS)
            sq.wrid(pi) = w.user_ctx;
        return st;
    });
}

urma_status_t rq_post(RecvQueue &rq, uint32_t max_sge, urma_jfr_wr_t *wr, urma_jfr_wr_t **bad_wr,
                      uint32_t *posted)
{
    return ring_post(rq, "receive", wr, bad_wr, posted, [&](const urma_jfr_wr_t &w, uint32_t pi) {
        return encode_rqe(w, max_sge, static_cast<udma_rqe *>(rq.ring().entry(pi)));
    });
}

namespace {

// One doorbell for everything posted by a call. Its failure (EINVAL: the
// object is gone; EIO: the device is) means nothing posted will complete.
urma_status_t ring_doorbell(urma_context_t *ctx, uint64_t handle)
{
    struct uburma_cmd_ring_doorbell cmd = {};
    cmd.in.handle = handle;
    int ret = uburma_cmd(ctx->dev_fd, UBURMA_CMD_RING_DOORBELL, &cmd);
    if (ret != 0) {
        URMA_LOG_ERR("doorbell failed: %s\n", std::strerror(-ret));
        return status_of(ret);
    }
    return URMA_SUCCESS;
}

// Posts a chain with post(&posted) under the queue's lock, then rings the
// doorbell once if anything was posted and the queue wants it.
template <typename Queue, typename Wr, typename Post>
urma_status_t post_and_ring(urma_context_t *ctx, uint64_t handle, Queue &q, Wr *wr, Wr **bad_wr, Post post)
{
    uint32_t posted = 0;
    urma_status_t st;
    {
        SpinGuard g(q.lock());
        st = post(&posted);
    }
    if (posted != 0 && q.doorbell_wanted()) {
        urma_status_t db = ring_doorbell(ctx, handle);
        if (db != URMA_SUCCESS) {
            *bad_wr = wr;
            return db;
        }
    }
    return st;
}

urma_status_t post_send(urma_context_t *ctx, uint64_t handle, SendQueue &sq, const SqLimits &lim,
                        urma_jfs_wr_t *wr, urma_jfs_wr_t **bad_wr)
{
    return post_and_ring(ctx, handle, sq, wr, bad_wr,
                         [&](uint32_t *posted) { return sq_post(sq, lim, wr, bad_wr, posted); });
}

urma_status_t post_recv(urma_jfr_t *jfr, urma_jfr_wr_t *wr, urma_jfr_wr_t **bad_wr)
{
    JfrImpl *impl = from_pub<JfrImpl>(jfr);
    return post_and_ring(jfr->urma_ctx, jfr->handle, impl->rq, wr, bad_wr, [&](uint32_t *posted) {
        return rq_post(impl->rq, jfr->jfr_cfg.max_sge, wr, bad_wr, posted);
    });
}

SqLimits limits_of(const urma_context_t *ctx, const urma_jfs_cfg_t &cfg, bool rc_jetty)
{
    SqLimits lim;
    lim.max_sge = cfg.max_sge;
    lim.max_inline = cfg.max_inline_data;
    lim.rc_jetty = rc_jetty;
    lim.bonding = from_pub<const ContextImpl>(ctx)->bonding;
    return lim;
}

// The one-WR WRITE or READ of urma_write() and urma_read(), after their
// checks.
urma_status_t post_one_rw(urma_jfs_t *jfs, urma_opcode_t opcode, urma_target_jetty_t *target_jfr,
                          urma_target_seg_t *dst_tseg, urma_target_seg_t *src_tseg, uint64_t dst, uint64_t src,
                          uint32_t len, urma_jfs_wr_flag_t flag, uint64_t user_ctx)
{
    urma_sge_t src_sge = {src, len, src_tseg, nullptr};
    urma_sge_t dst_sge = {dst, len, dst_tseg, nullptr};
    urma_jfs_wr_t wr = {};
    urma_jfs_wr_t *bad_wr = nullptr;
    wr.opcode = opcode;
    wr.flag = flag;
    wr.tjetty = target_jfr;
    wr.user_ctx = user_ctx;
    wr.rw.src.sge = &src_sge;
    wr.rw.src.num_sge = 1;
    wr.rw.dst.sge = &dst_sge;
    wr.rw.dst.num_sge = 1;
    return urma_post_jfs_wr(jfs, &wr, &bad_wr);
}

}  // namespace
}  // namespace urma

using urma::JettyImpl;
using urma::JfsImpl;

extern "C" {

urma_status_t urma_post_jfs_wr(urma_jfs_t *jfs, urma_jfs_wr_t *wr, urma_jfs_wr_t **bad_wr)
{
    if (jfs == nullptr || jfs->urma_ctx == nullptr || wr == nullptr || bad_wr == nullptr) {
        URMA_LOG_ERR("invalid parameter\n");
        return URMA_EINVAL;
    }
    JfsImpl *impl = urma::from_pub<JfsImpl>(jfs);
    return urma::post_send(jfs->urma_ctx, jfs->handle, impl->sq, urma::limits_of(jfs->urma_ctx, jfs->jfs_cfg, false), wr,
                           bad_wr);
}

urma_status_t urma_post_jetty_send_wr(urma_jetty_t *jetty, urma_jfs_wr_t *wr, urma_jfs_wr_t **bad_wr)
{
    if (jetty == nullptr || jetty->urma_ctx == nullptr || wr == nullptr || bad_wr == nullptr) {
        URMA_LOG_ERR("invalid parameter\n");
        return URMA_EINVAL;
    }
    JettyImpl *impl = urma::from_pub<JettyImpl>(jetty);
    const bool rc = jetty->jetty_cfg.jfs_cfg.trans_mode == URMA_TM_RC;
    return urma::post_send(jetty->urma_ctx, jetty->handle, impl->sq, urma::limits_of(jetty->urma_ctx, jetty->jetty_cfg.jfs_cfg, rc),
                           wr, bad_wr);
}

urma_status_t urma_post_jfr_wr(urma_jfr_t *jfr, urma_jfr_wr_t *wr, urma_jfr_wr_t **bad_wr)
{
    if (jfr == nullptr || jfr->urma_ctx == nullptr || wr == nullptr || bad_wr == nullptr) {
        URMA_LOG_ERR("invalid parameter\n");
        return URMA_EINVAL;
    }
    return urma::post_recv(jfr, wr, bad_wr);
}

urma_status_t urma_post_jetty_recv_wr(urma_jetty_t *jetty, urma_jfr_wr_t *wr, urma_jfr_wr_t **bad_wr)
{
    if (jetty == nullptr || jetty->urma_ctx == nullptr || wr == nullptr || bad_wr == nullptr) {
        URMA_LOG_ERR("invalid parameter\n");
        return URMA_EINVAL;
    }
    // The jetty receives on its own JFR or the shared one it was given.
    JettyImpl *impl = urma::from_pub<JettyImpl>(jetty);
    urma_jfr_t *jfr = impl->own_jfr != nullptr ? impl->own_jfr : jetty->jetty_cfg.shared.jfr;
    if (jfr == nullptr) {
        URMA_LOG_ERR("jetty %u has no jfr\n", jetty->jetty_id.id);
        return URMA_EINVAL;
    }
    return urma::post_recv(jfr, wr, bad_wr);
}

urma_status_t urma_write(urma_jfs_t *jfs, urma_target_jetty_t *target_jfr, urma_target_seg_t *dst_tseg,
                         urma_target_seg_t *src_tseg, uint64_t dst, uint64_t src, uint32_t len, urma_jfs_wr_flag_t flag,
                         uint64_t user_ctx)
{
    // src_tseg may be NULL with inline data (UMDK).
    if (jfs == nullptr || target_jfr == nullptr || dst_tseg == nullptr) {
        URMA_LOG_ERR("invalid parameter\n");
        return URMA_EINVAL;
    }
    return urma::post_one_rw(jfs, URMA_OPC_WRITE, target_jfr, dst_tseg, src_tseg, dst, src, len, flag, user_ctx);
}

urma_status_t urma_read(urma_jfs_t *jfs, urma_target_jetty_t *target_jfr, urma_target_seg_t *dst_tseg,
                        urma_target_seg_t *src_tseg, uint64_t dst, uint64_t src, uint32_t len, urma_jfs_wr_flag_t flag,
                        uint64_t user_ctx)
{
    if (jfs == nullptr || target_jfr == nullptr || dst_tseg == nullptr || src_tseg == nullptr) {
        URMA_LOG_ERR("invalid parameter\n");
        return URMA_EINVAL;
    }
    // dst: the local buffer; src: the remote one (UMDK's urma_read).
    return urma::post_one_rw(jfs, URMA_OPC_READ, target_jfr, dst_tseg, src_tseg, dst, src, len, flag, user_ctx);
}

urma_status_t urma_send(urma_jfs_t *jfs, urma_target_jetty_t *target_jfr, urma_target_seg_t *src_tseg, uint64_t src,
                        uint32_t len, urma_jfs_wr_flag_t flag, uint64_t user_ctx)
{
    if (jfs == nullptr || target_jfr == nullptr || target_jfr->urma_ctx == nullptr) {
        URMA_LOG_ERR("invalid parameter\n");
        return URMA_EINVAL;
    }
    if (flag.bs.inline_flag == URMA_INLINE_DISABLE && src_tseg == nullptr) {
        URMA_LOG_ERR("send without a segment needs inline data\n");
        return URMA_EINVAL;
    }
    urma_sge_t src_sge = {src, len, src_tseg, nullptr};
    urma_jfs_wr_t wr = {};
    urma_jfs_wr_t *bad_wr = nullptr;
    wr.opcode = URMA_OPC_SEND;
    wr.flag = flag;
    wr.tjetty = target_jfr;
    wr.user_ctx = user_ctx;
    wr.send.src.sge = &src_sge;
    wr.send.src.num_sge = 1;
    return urma_post_jfs_wr(jfs, &wr, &bad_wr);
}

urma_status_t urma_recv(urma_jfr_t *jfr, urma_target_seg_t *recv_tseg, uint64_t buf, uint32_t len, uint64_t user_ctx)
{
    if (jfr == nullptr || recv_tseg == nullptr) {
        URMA_LOG_ERR("invalid parameter\n");
        return URMA_EINVAL;
    }
    if (buf == 0) {
        // UMDK's check_valid_jfr_wr: a NULL buffer is URMA_FAIL.
        URMA_LOG_ERR("receive buffer is NULL\n");
        return URMA_FAIL;
    }
    urma_sge_t sge = {buf, len, recv_tseg, nullptr};
    urma_jfr_wr_t wr = {};
    urma_jfr_wr_t *bad_wr = nullptr;
    wr.src.sge = &sge;
    wr.src.num_sge = 1;
    wr.user_ctx = user_ctx;
    return urma_post_jfr_wr(jfr, &wr, &bad_wr);
}

}  // extern "C"
