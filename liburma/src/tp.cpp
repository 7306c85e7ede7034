// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The UB/URMA stack authors
// The TP-aware calls of the user guide 5.1.2.2 (UMDK's names and types):
// urma_get_tp_list lists the ESTABLISHED TPs the kernel's connection
// manager holds between two EIDs, as handles (a TP's number on this end);
// asked for RM with none there, the kernel opens the EID pair's RM TP
// first and the context holds it until it is deleted (UMDK's control
// plane makes TPs on demand; its perftest --tp_aware asks before it
// imports anything);
// urma_import_jetty_ex / urma_import_jfr_ex / urma_bind_jetty_ex make the
// import or bind on the TP a urma_active_tp_cfg_t names (its handle and the
// peer's handle of it) and fail with URMA_EINVAL if it is not the TP the
// import or bind uses (docs/connection-manager.md).
#include <cerrno>
#include <cstring>

#include "log.h"
#include "object.h"
#include "target.h"
#include "uburma_cmd.h"
#include "urma_api.h"

extern "C" {

urma_status_t urma_get_tp_list(urma_context_t *ctx, urma_get_tp_cfg_t *cfg, uint32_t *tp_cnt, urma_tp_info_t *tp_list)
{
    if (ctx == nullptr || cfg == nullptr || tp_cnt == nullptr || tp_list == nullptr || *tp_cnt == 0) {
        URMA_LOG_ERR("invalid argument\n");
        return URMA_EINVAL;
    }
    if (cfg->trans_mode != URMA_TM_RM && cfg->trans_mode != URMA_TM_RC && cfg->trans_mode != URMA_TM_UM) {
        URMA_LOG_ERR("trans_mode %d invalid\n", static_cast<int>(cfg->trans_mode));
        return URMA_EINVAL;
    }
    static_assert(sizeof(urma_tp_info_t) == sizeof(uint64_t), "urma_tp_info_t is one tp_handle");
    struct uburma_cmd_get_tp_list cmd = {};
    cmd.in.flag = cfg->flag.value;
    cmd.in.trans_mode = static_cast<uint32_t>(cfg->trans_mode);
    std::memcpy(cmd.in.local_eid, cfg->local_eid.raw, sizeof(cmd.in.local_eid));
    std::memcpy(cmd.in.peer_eid, cfg->peer_eid.raw, sizeof(cmd.in.peer_eid));
    cmd.in.tp_cnt = *tp_cnt;
    cmd.in.tp_list_addr = reinterpret_cast<uintptr_t>(tp_list);
    int ret = urma::uburma_cmd(ctx->dev_fd, UBURMA_CMD_GET_TP_LIST, &cmd);
    if (ret != 0) {
        URMA_LOG_ERR("get_tp_list on %s failed: %s\n", ctx->dev->name, std::strerror(-ret));
        return urma::status_of(ret);
    }
    *tp_cnt = cmd.out.tp_cnt;
    return URMA_SUCCESS;
}

urma_target_jetty_t *urma_import_jfr_ex(urma_context_t *ctx, urma_rjfr_t *rjfr, urma_token_t *token_value,
                                        urma_import_jfr_ex_cfg_t *cfg)
{
    if (ctx == nullptr || rjfr == nullptr || cfg == nullptr) {
        URMA_LOG_ERR("invalid argument\n");
        errno = EINVAL;
        return nullptr;
    }
    return urma::import_target(ctx, UBURMA_CMD_IMPORT_JFR, rjfr->jfr_id, rjfr->trans_mode, URMA_JFR, rjfr->flag,
                               URMA_JETTY_GRP_POLICY_RR, rjfr->tp_type, token_value, cfg);
}

urma_target_jetty_t *urma_import_jetty_ex(urma_context_t *ctx, urma_rjetty_t *rjetty, urma_token_t *token_value,
                                          urma_import_jetty_ex_cfg_t *cfg)
{
    if (ctx == nullptr || rjetty == nullptr || cfg == nullptr) {
        URMA_LOG_ERR("invalid argument\n");
        errno = EINVAL;
        return nullptr;
    }
    if (rjetty->type != URMA_JETTY) {
        // A JFR goes through urma_import_jfr_ex; a group has no one TP.
        URMA_LOG_ERR("import_jetty_ex of target type %d not supported\n", static_cast<int>(rjetty->type));
        errno = EINVAL;
        return nullptr;
    }
    return urma::import_target(ctx, UBURMA_CMD_IMPORT_JETTY, rjetty->jetty_id, rjetty->trans_mode, rjetty->type,
                               rjetty->flag, rjetty->policy, rjetty->tp_type, token_value, cfg);
}

}  // extern "C"
