// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The UB/URMA stack authors
// Binding an RC jetty to one imported jetty: its SQEs then carry target_idx
// 0 and go to that peer (udma_abi.h). The kernel opens the pair's RC TP
// (its connection manager) and fails the bind with the peer's answer.
#include <cerrno>
#include <cstring>

#include "log.h"
#include "object.h"
#include "uburma_cmd.h"
#include "urma_api.h"

namespace urma {
namespace {

urma_status_t bind(urma_jetty_t *jetty, urma_target_jetty_t *tjetty, const urma_active_tp_cfg_t *active)
{
    if (jetty == nullptr || jetty->urma_ctx == nullptr || tjetty == nullptr || tjetty->urma_ctx != jetty->urma_ctx) {
        URMA_LOG_ERR("invalid parameter\n");
        return URMA_EINVAL;
    }
    if (tjetty->type != URMA_JETTY) {
        URMA_LOG_ERR("bind target is not an imported jetty\n");
        return URMA_EINVAL;
    }
    struct uburma_cmd_bind_jetty cmd = {};
    cmd.in.jetty_handle = jetty->handle;
    cmd.in.tjetty_handle = tjetty->handle;
    if (active != nullptr) {
        cmd.in.tp_handle = active->tp_handle;
        cmd.in.peer_tp_handle = active->peer_tp_handle;
    }
    int ret = uburma_cmd(jetty->urma_ctx->dev_fd, UBURMA_CMD_BIND_JETTY, &cmd);
    if (ret != 0) {
        // EEXIST: bound already (URMA_EEXIST, as the API says); the
        // connection manager's answers: docs/connection-manager.md.
        URMA_LOG_ERR("bind jetty %u failed: %s\n", jetty->jetty_id.id, std::strerror(-ret));
        return status_of(ret);
    }
    jetty->remote_jetty = tjetty;
    return URMA_SUCCESS;
}

}  // namespace
}  // namespace urma

extern "C" {

urma_status_t urma_bind_jetty(urma_jetty_t *jetty, urma_target_jetty_t *tjetty)
{
    return urma::bind(jetty, tjetty, nullptr);
}

// On the TP cfg names (urma_get_tp_list): the RC TP of this jetty pair, which
// the peer's bind made; URMA_EINVAL if the bind's TP is another.
urma_status_t urma_bind_jetty_ex(urma_jetty_t *jetty, urma_target_jetty_t *tjetty, urma_bind_jetty_ex_cfg_t *cfg)
{
    if (cfg == nullptr || cfg->tp_handle == 0) {
        URMA_LOG_ERR("invalid parameter: no TP handle\n");
        return URMA_EINVAL;
    }
    return urma::bind(jetty, tjetty, cfg);
}

urma_status_t urma_unbind_jetty(urma_jetty_t *jetty)
{
    if (jetty == nullptr || jetty->urma_ctx == nullptr) {
        URMA_LOG_ERR("invalid parameter\n");
        return URMA_EINVAL;
    }
    struct uburma_cmd_bind_jetty cmd = {};
    cmd.in.jetty_handle = jetty->handle;
    int ret = urma::uburma_cmd(jetty->urma_ctx->dev_fd, UBURMA_CMD_UNBIND_JETTY, &cmd);
    if (ret != 0 && !urma::device_gone(ret)) {
        URMA_LOG_ERR("unbind jetty %u failed: %s\n", jetty->jetty_id.id, std::strerror(-ret));
        return urma::status_of(ret);
    }
    jetty->remote_jetty = nullptr;
    return URMA_SUCCESS;
}

}  // extern "C"
