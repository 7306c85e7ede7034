// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The UB/URMA stack authors
// Imports: remote segments, JFRs and jetties recorded in the kernel so that
// local queues can target them with the token the owner gave out.
#include <cerrno>
#include <cstring>
#include <new>

#include <ub/udma_abi.h>

#include "advise.h"
#include "log.h"
#include "object.h"
#include "jetty.h"
#include "segment.h"
#include "target.h"
#include "uburma_cmd.h"
#include "urma_api.h"

namespace urma {
namespace {

// Releases an import by handle; shared by the three unimports.
urma_status_t unimport(urma_context_t *ctx, uint32_t command, uint64_t handle, const char *what)
{
    struct uburma_cmd_destroy cmd = {};
    cmd.in.handle = handle;
    int ret = uburma_cmd(ctx->dev_fd, command, &cmd);
    if (ret != 0 && !device_gone(ret)) {
        URMA_LOG_ERR("unimport %s failed: %s\n", what, std::strerror(-ret));
        return status_of(ret);
    }
    return URMA_SUCCESS;
}

// The fields the two import commands share.
template <typename Cmd>
void fill_import(Cmd *cmd, const urma_jetty_id_t &id, urma_transport_mode_t trans_mode, urma_target_type_t type,
                 urma_import_jetty_flag_t flag, urma_jetty_grp_policy_t policy, urma_tp_type_t tp_type,
                 const urma_token_t *token_value, struct udma_import_resp *resp)
{
    std::memcpy(cmd->in.eid, id.eid.raw, sizeof(cmd->in.eid));
    cmd->in.uasid = id.uasid;
    cmd->in.id = id.id;
    cmd->in.trans_mode = static_cast<uint32_t>(trans_mode);
    cmd->in.type = static_cast<uint32_t>(type);
    cmd->in.flag = flag.value;
    cmd->in.policy = static_cast<uint32_t>(policy);
    cmd->in.tp_type = static_cast<uint32_t>(tp_type);
    cmd->in.token_value = token_value != nullptr ? token_value->token : 0;
    cmd->in.udata.out_addr = reinterpret_cast<uintptr_t>(resp);
    cmd->in.udata.out_len = sizeof(*resp);
}

}  // namespace

// An import of a JFR (command UBURMA_CMD_IMPORT_JFR) or jetty; with active,
// on that TP (UBURMA_CMD_IMPORT_JETTY_EX, whatever command says).
urma_target_jetty_t *import_target(urma_context_t *ctx, uint32_t command, const urma_jetty_id_t &id,
                                   urma_transport_mode_t trans_mode, urma_target_type_t type,
                                   urma_import_jetty_flag_t flag, urma_jetty_grp_policy_t policy,
                                   urma_tp_type_t tp_type, const urma_token_t *token_value,
                                   const urma_active_tp_cfg_t *active)
{
    if (!trans_mode_valid(trans_mode)) {
        URMA_LOG_ERR("trans_mode %d invalid\n", static_cast<int>(trans_mode));
        errno = EINVAL;
        return nullptr;
    }
    if (flag.bs.token_policy != URMA_TOKEN_NONE && token_value == nullptr) {
        URMA_LOG_ERR("a token value is needed with token policy %u\n", flag.bs.token_policy);
        errno = EINVAL;
        return nullptr;
    }
    auto *impl = new (std::nothrow) TargetJettyImpl();
    if (impl == nullptr) {
        errno = ENOMEM;
        return nullptr;
    }
    urma_target_jetty_t *t = &impl->pub;
    struct udma_import_resp resp = {};
    uint32_t tpn = 0;
    uint64_t handle = 0;
    int ret;
    if (active == nullptr) {
        struct uburma_cmd_import_jetty cmd = {};
        fill_import(&cmd, id, trans_mode, type, flag, policy, tp_type, token_value, &resp);
        ret = uburma_cmd(ctx->dev_fd, command, &cmd);
        tpn = cmd.out.tpn;
        handle = cmd.out.handle;
    } else {
        struct uburma_cmd_import_jetty_ex cmd = {};
        fill_import(&cmd, id, trans_mode, type, flag, policy, tp_type, token_value, &resp);
        cmd.in.tp_handle = active->tp_handle;
        cmd.in.peer_tp_handle = active->peer_tp_handle;
        cmd.in.tag = active->tag;
        ret = uburma_cmd(ctx->dev_fd, UBURMA_CMD_IMPORT_JETTY_EX, &cmd);
        tpn = cmd.out.tpn;
        handle = cmd.out.handle;
    }
    if (ret == 0 && resp.target_idx == 0) {
        // udma_abi.h: never 0. Without an index SQEs cannot name the
        // target, so the import is useless; undo it.
        URMA_LOG_ERR("import of %u on %s returned no target index\n", id.id, ctx->dev->name);
        struct uburma_cmd_destroy undo = {};
        undo.in.handle = handle;
        uburma_cmd(ctx->dev_fd, type == URMA_JFR ? UBURMA_CMD_UNIMPORT_JFR : UBURMA_CMD_UNIMPORT_JETTY, &undo);
        ret = -EPROTO;
    }
    if (ret != 0) {
        // The connection manager's answer (docs/connection-manager.md):
        // ENOENT, EPROTOTYPE, EPERM, ECONNREFUSED, ETIMEDOUT...
        URMA_LOG_ERR("import of %u on %s failed: %s\n", id.id, ctx->dev->name, std::strerror(-ret));
        delete impl;
        errno = -ret;
        return nullptr;
    }
    impl->target_idx = resp.target_idx;
    t->urma_ctx = ctx;
    t->id = id;
    t->handle = handle;
    t->trans_mode = trans_mode;
    t->tp.tpn = tpn;
    t->type = type;
    t->flag = flag;
    t->policy = policy;
    t->tp_type = tp_type;
    ctx_get(ctx);
    import_registry_add(ctx, t);
    return t;
}

}  // namespace urma

extern "C" {

urma_target_seg_t *urma_import_seg(urma_context_t *ctx, urma_seg_t *seg, urma_token_t *token_value, uint64_t addr,
                                   urma_import_seg_flag_t flag)
{
    if (ctx == nullptr || seg == nullptr) {
        URMA_LOG_ERR("invalid argument: ctx %p seg %p\n", static_cast<void *>(ctx), static_cast<void *>(seg));
        errno = EINVAL;
        return nullptr;
    }
    if (seg->attr.bs.token_policy != URMA_TOKEN_NONE && token_value == nullptr) {
        URMA_LOG_ERR("a token value is needed with token policy %u\n", seg->attr.bs.token_policy);
        errno = EINVAL;
        return nullptr;
    }
    if (seg->len == 0 || !urma::seg_access_valid(flag.bs.access)) {
        errno = EINVAL;
        return nullptr;
    }
    auto *impl = new (std::nothrow) urma::TargetSegImpl();
    if (impl == nullptr) {
        errno = ENOMEM;
        return nullptr;
    }
    urma_target_seg_t *tseg = &impl->pub;
    struct udma_import_resp resp = {};
    struct uburma_cmd_import_seg cmd = {};
    std::memcpy(cmd.in.eid, seg->ubva.eid.raw, sizeof(cmd.in.eid));
    cmd.in.uasid = seg->ubva.uasid;
    cmd.in.token_id = seg->token_id;
    cmd.in.va = seg->ubva.va;
    cmd.in.len = seg->len;
    cmd.in.mva = addr;
    cmd.in.attr = seg->attr.value;
    cmd.in.flag = flag.value;
    cmd.in.token_value = token_value != nullptr ? token_value->token : 0;
    cmd.in.udata.out_addr = reinterpret_cast<uintptr_t>(&resp);
    cmd.in.udata.out_len = sizeof(resp);
    int ret = urma::uburma_cmd(ctx->dev_fd, UBURMA_CMD_IMPORT_SEG, &cmd);
    if (ret == 0 && resp.target_idx == 0) {
        URMA_LOG_ERR("import seg on %s returned no target index\n", ctx->dev->name);
        struct uburma_cmd_destroy undo = {};
        undo.in.handle = cmd.out.handle;
        urma::uburma_cmd(ctx->dev_fd, UBURMA_CMD_UNIMPORT_SEG, &undo);
        ret = -EPROTO;
    }
    if (ret != 0) {
        URMA_LOG_ERR("import seg on %s failed: %s\n", ctx->dev->name, std::strerror(-ret));
        delete impl;
        errno = -ret;
        return nullptr;
    }
    impl->target_idx = resp.target_idx;
    tseg->seg = *seg;
    tseg->mva = addr;
    tseg->urma_ctx = ctx;
    tseg->token_id = nullptr;  // imported: the token id is the owner's
    tseg->handle = cmd.out.handle;
    urma::ctx_get(ctx);
    return tseg;
}

urma_status_t urma_unimport_seg(urma_target_seg_t *tseg)
{
    if (tseg == nullptr || tseg->urma_ctx == nullptr || tseg->token_id != nullptr) {
        URMA_LOG_ERR("invalid imported segment %p\n", static_cast<void *>(tseg));
        return URMA_EINVAL;
    }
    urma_context_t *ctx = tseg->urma_ctx;
    urma_status_t st = urma::unimport(ctx, UBURMA_CMD_UNIMPORT_SEG, tseg->handle, "seg");
    if (st != URMA_SUCCESS)
        return st;
    delete urma::from_pub<urma::TargetSegImpl>(tseg);
    urma::ctx_put(ctx);
    return URMA_SUCCESS;
}

urma_target_jetty_t *urma_import_jfr(urma_context_t *ctx, urma_rjfr_t *rjfr, urma_token_t *token_value)
{
    if (ctx == nullptr || rjfr == nullptr) {
        URMA_LOG_ERR("invalid argument: ctx %p rjfr %p\n", static_cast<void *>(ctx), static_cast<void *>(rjfr));
        errno = EINVAL;
        return nullptr;
    }
    return urma::import_target(ctx, UBURMA_CMD_IMPORT_JFR, rjfr->jfr_id, rjfr->trans_mode, URMA_JFR, rjfr->flag,
                               URMA_JETTY_GRP_POLICY_RR, rjfr->tp_type, token_value, nullptr);
}

urma_status_t urma_unimport_jfr(urma_target_jetty_t *target_jfr)
{
    if (target_jfr == nullptr || target_jfr->urma_ctx == nullptr || target_jfr->type != URMA_JFR) {
        URMA_LOG_ERR("invalid imported jfr %p\n", static_cast<void *>(target_jfr));
        return URMA_EINVAL;
    }
    urma_context_t *ctx = target_jfr->urma_ctx;
    urma_status_t st = urma::unimport(ctx, UBURMA_CMD_UNIMPORT_JFR, target_jfr->handle, "jfr");
    if (st != URMA_SUCCESS)
        return st;
    urma::import_registry_remove(ctx, target_jfr->handle);
    urma::advise_forget(target_jfr);
    delete urma::from_pub<urma::TargetJettyImpl>(target_jfr);
    urma::ctx_put(ctx);
    return URMA_SUCCESS;
}

urma_target_jetty_t *urma_import_jetty(urma_context_t *ctx, urma_rjetty_t *rjetty, urma_token_t *token_value)
{
    if (ctx == nullptr || rjetty == nullptr) {
        URMA_LOG_ERR("invalid argument: ctx %p rjetty %p\n", static_cast<void *>(ctx),
                     static_cast<void *>(rjetty));
        errno = EINVAL;
        return nullptr;
    }
    if (rjetty->type != URMA_JETTY && rjetty->type != URMA_JETTY_GROUP) {
        // URMA_JFR targets go through urma_import_jfr.
        URMA_LOG_ERR("import_jetty of target type %d not supported\n", static_cast<int>(rjetty->type));
        errno = EINVAL;
        return nullptr;
    }
    if (rjetty->type == URMA_JETTY_GROUP && rjetty->trans_mode != URMA_TM_RM) {
        // A group's members are RM jetties (UMDK's udma: groups are RM only).
        URMA_LOG_ERR("import of jetty group %u: trans_mode %d, groups are RM\n", rjetty->jetty_id.id,
                     static_cast<int>(rjetty->trans_mode));
        errno = EINVAL;
        return nullptr;
    }
    return urma::import_target(ctx, UBURMA_CMD_IMPORT_JETTY, rjetty->jetty_id, rjetty->trans_mode, rjetty->type,
                               rjetty->flag, rjetty->policy, rjetty->tp_type, token_value, nullptr);
}

urma_status_t urma_unimport_jetty(urma_target_jetty_t *tjetty)
{
    if (tjetty == nullptr || tjetty->urma_ctx == nullptr || tjetty->type == URMA_JFR) {
        URMA_LOG_ERR("invalid imported jetty %p\n", static_cast<void *>(tjetty));
        return URMA_EINVAL;
    }
    urma_context_t *ctx = tjetty->urma_ctx;
    urma_status_t st = urma::unimport(ctx, UBURMA_CMD_UNIMPORT_JETTY, tjetty->handle, "jetty");
    if (st != URMA_SUCCESS)
        return st;
    urma::import_registry_remove(ctx, tjetty->handle);
    urma::advise_forget(tjetty);
    delete urma::from_pub<urma::TargetJettyImpl>(tjetty);
    urma::ctx_put(ctx);
    return URMA_SUCCESS;
}

}  // extern "C"
