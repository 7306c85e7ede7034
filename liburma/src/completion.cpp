// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The UB/URMA stack authors
// Completions: polling the mapped CQ without a syscall, and completion
// events (rearm, wait on the JFCE fd, acknowledge).
#include <poll.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "datapath.h"
#include "log.h"
#include "object.h"
#include "queue.h"
#include "uburma_cmd.h"
#include "urma_api.h"

namespace urma {

int cq_poll(CompQueue &cq, int cr_cnt, urma_cr_t *cr)
{
    RingMapping &ring = cq.ring();
    const uint32_t cnt = ring.entry_cnt();
    uint32_t ci = cq.ci();
    int n = 0;

    while (n < cr_cnt) {
        auto *cqe = static_cast<udma_cqe *>(ring.entry(ci));
        // Valid when the owner bit is the wrap parity of ci, flipped: the
        // kernel writes the owner byte last, so the acquire load orders
        // the reads of the rest after it.
        uint8_t owner = __atomic_load_n(&cqe->owner, __ATOMIC_ACQUIRE);
        uint8_t want = ((ci & cnt) != 0 ? 1 : 0) ^ 1;
        if ((owner & 1) != want)
            break;
        decode_cqe(*cqe, &cr[n]);
        ci++;
        n++;
    }
    if (n != 0) {
        // The kernel may reuse the slots once it sees ci (release: our
        // reads of them are done).
        store_release(&ring.ctrl()->ci, ci);
        cq.set_ci(ci);
    }
    return n;
}

}  // namespace urma

using urma::JfcImpl;

extern "C" {

int urma_poll_jfc(urma_jfc_t *jfc, int cr_cnt, urma_cr_t *cr)
{
    if (jfc == nullptr || jfc->urma_ctx == nullptr || cr == nullptr || cr_cnt < 0) {
        URMA_LOG_ERR("invalid parameter\n");
        return -1;
    }
    JfcImpl *impl = urma::from_pub<JfcImpl>(jfc);
    urma::SpinGuard g(impl->cq.lock());
    return urma::cq_poll(impl->cq, cr_cnt, cr);
}

urma_status_t urma_rearm_jfc(urma_jfc_t *jfc, bool solicited_only)
{
    if (jfc == nullptr || jfc->urma_ctx == nullptr) {
        URMA_LOG_ERR("invalid parameter\n");
        return URMA_EINVAL;
    }
    struct uburma_cmd_rearm_jfc cmd = {};
    cmd.in.handle = jfc->handle;
    cmd.in.solicited_only = solicited_only ? 1 : 0;
    int ret = urma::uburma_cmd(jfc->urma_ctx->dev_fd, UBURMA_CMD_REARM_JFC, &cmd);
    if (ret != 0) {
        URMA_LOG_ERR("rearm jfc %u failed: %s\n", jfc->jfc_id.id, std::strerror(-ret));
        return urma::status_of(ret);
    }
    return URMA_SUCCESS;
}

int urma_wait_jfc(urma_jfce_t *jfce, uint32_t jfc_cnt, int time_out, urma_jfc_t *jfc[])
{
    if (jfce == nullptr || jfce->urma_ctx == nullptr || jfc_cnt == 0 || jfc == nullptr || jfce->fd < 0) {
        URMA_LOG_ERR("invalid parameter\n");
        return -1;
    }
    struct pollfd pfd = {jfce->fd, POLLIN, 0};
    int ret;
    do {
        ret = poll(&pfd, 1, time_out);
    } while (ret < 0 && errno == EINTR);
    if (ret < 0) {
        URMA_LOG_ERR("poll of jfce fd failed: %s\n", std::strerror(errno));
        return -1;
    }
    if (ret == 0)
        return 0;  // timed out: no event (UMDK returns 0 for a non-blocking wait)

    // The fd reads whole records and returns what is queued once it has
    // one, so after POLLIN the first read does not block; later chunks are
    // read only while poll says more are there.
    constexpr uint32_t kChunk = 64;
    struct uburma_jfce_event ev[kChunk];
    uint32_t got = 0;
    while (got < jfc_cnt) {
        uint32_t want = jfc_cnt - got < kChunk ? jfc_cnt - got : kChunk;
        ssize_t n;
        do {
            n = read(jfce->fd, ev, want * sizeof(ev[0]));
        } while (n < 0 && errno == EINTR);
        if (n < 0) {
            if (errno == EAGAIN || got != 0)
                break;
            URMA_LOG_ERR("reading jfce fd failed: %s\n", std::strerror(errno));
            return -1;
        }
        uint32_t recs = static_cast<uint32_t>(n) / sizeof(ev[0]);
        for (uint32_t i = 0; i < recs; i++)
            jfc[got + i] = reinterpret_cast<urma_jfc_t *>(static_cast<uintptr_t>(ev[i].urma_jfc));
        got += recs;
        if (recs < want)
            break;
        struct pollfd more = {jfce->fd, POLLIN, 0};
        if (poll(&more, 1, 0) <= 0)
            break;
    }
    return static_cast<int>(got);
}

void urma_ack_jfc(urma_jfc_t *jfc[], uint32_t nevents[], uint32_t jfc_cnt)
{
    if (jfc == nullptr || nevents == nullptr || jfc_cnt == 0) {
        URMA_LOG_ERR("invalid parameter\n");
        return;
    }
    // urma_delete_jfc waits until every event the kernel handed out is
    // acknowledged here, so a JFC pointer from wait_jfc stays valid.
    for (uint32_t i = 0; i < jfc_cnt; i++) {
        if (jfc[i] == nullptr || nevents[i] == 0)
            continue;
        urma::event_ack(&jfc[i]->event_mutex, &jfc[i]->event_cond, &jfc[i]->comp_events_acked, nevents[i]);
    }
}

}  // extern "C"
