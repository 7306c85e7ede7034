// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The UB/URMA stack authors
// Flush of a JFS or jetty in ERROR or SUSPENDED state: the kernel takes the
// entries it has not started off the SQ and says which; the library reports
// them as URMA_CR_WR_UNHANDLED from its own record of what it posted.
#include <cerrno>
#include <cstring>

#include "datapath.h"
#include "log.h"
#include "object.h"
#include "queue.h"
#include "uburma_cmd.h"
#include "urma_api.h"

namespace urma {

void flush_records(SendQueue &sq, uint32_t first, uint32_t cnt, uint32_t local_id, bool jetty, urma_cr_t *cr)
{
    for (uint32_t i = 0; i < cnt; i++) {
        std::memset(&cr[i], 0, sizeof(cr[i]));
        cr[i].status = URMA_CR_WR_UNHANDLED;
        cr[i].user_ctx = sq.wrid(first + i);
        cr[i].local_id = local_id;
        cr[i].flag.bs.jetty = jetty ? 1 : 0;
    }
}

namespace {

int flush(urma_context_t *ctx, uint64_t handle, SendQueue &sq, uint32_t local_id, bool jetty, int cr_cnt,
          urma_cr_t *cr)
{
    if (cr_cnt == 0)
        return 0;
    SpinGuard g(sq.lock());
    struct uburma_cmd_flush cmd = {};
    cmd.in.handle = handle;
    cmd.in.max_cnt = static_cast<uint32_t>(cr_cnt);
    int ret = uburma_cmd(ctx->dev_fd, UBURMA_CMD_FLUSH, &cmd);
    if (ret != 0) {
        // EINVAL: not in ERROR or SUSPENDED state.
        URMA_LOG_ERR("flush of %u failed: %s\n", local_id, std::strerror(-ret));
        errno = -ret;
        return -1;
    }
    uint32_t cnt = cmd.out.cnt;
    if (cnt > static_cast<uint32_t>(cr_cnt) || cnt > sq.ring().entry_cnt() ||
        static_cast<uint32_t>(sq.pi() - cmd.out.first_index) < cnt) {
        // Entries we never posted: a kernel bug; report nothing made up.
        URMA_LOG_ERR("flush of %u returned first %u cnt %u beyond pi %u\n", local_id, cmd.out.first_index, cnt,
                     sq.pi());
        errno = EPROTO;
        return -1;
    }
    flush_records(sq, cmd.out.first_index, cnt, local_id, jetty, cr);
    return static_cast<int>(cnt);
}

}  // namespace
}  // namespace urma

extern "C" {

int urma_flush_jfs(urma_jfs_t *jfs, int cr_cnt, urma_cr_t *cr)
{
    if (jfs == nullptr || jfs->urma_ctx == nullptr || cr_cnt < 0 || (cr_cnt > 0 && cr == nullptr)) {
        URMA_LOG_ERR("invalid parameter\n");
        errno = EINVAL;
        return -1;
    }
    return urma::flush(jfs->urma_ctx, jfs->handle, urma::from_pub<urma::JfsImpl>(jfs)->sq, jfs->jfs_id.id, false,
                       cr_cnt, cr);
}

int urma_flush_jetty(urma_jetty_t *jetty, int cr_cnt, urma_cr_t *cr)
{
    if (jetty == nullptr || jetty->urma_ctx == nullptr || cr_cnt < 0 || (cr_cnt > 0 && cr == nullptr)) {
        URMA_LOG_ERR("invalid parameter\n");
        errno = EINVAL;
        return -1;
    }
    return urma::flush(jetty->urma_ctx, jetty->handle, urma::from_pub<urma::JettyImpl>(jetty)->sq,
                       jetty->jetty_id.id, true, cr_cnt, cr);
}

}  // extern "C"
