// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The UB/URMA stack authors
// JFSs, JFRs and jetties: the kernel objects, their rings mapped into the
// process (SQ for JFS and jetty, RQ for JFR), their states.
#include "jetty.h"

#include <cerrno>
#include <cstring>
#include <new>

#include <ub/udma_abi.h>

#include "advise.h"
#include "jetty_grp.h"
#include "lifecycle.h"
#include "log.h"
#include "object.h"
#include "queue.h"
#include "ring_object.h"
#include "uburma_cmd.h"
#include "urma_api.h"

namespace urma {

// Limits of the wire formats (urma_types.h comments).
constexpr uint32_t kMaxRnrRetry = 7;
constexpr uint32_t kMaxErrTimeout = 31;
constexpr uint32_t kMaxMinRnrTimer = 31;

bool trans_mode_valid(urma_transport_mode_t trans_mode)
{
    return trans_mode == URMA_TM_RM || trans_mode == URMA_TM_RC || trans_mode == URMA_TM_UM;
}

bool jfs_cfg_valid(const urma_jfs_cfg_t &cfg, const urma_device_cap_t &cap)
{
    if (cfg.depth == 0 || cfg.depth > cap.max_jfs_depth || cfg.max_inline_data > cap.max_jfs_inline_len ||
        cfg.max_sge > cap.max_jfs_sge || cfg.max_rsge > cap.max_jfs_rsge) {
        URMA_LOG_ERR("jfs cfg out of range: depth %u (max %u) inline %u (max %u) sge %u (max %u) "
                     "rsge %u (max %u)\n",
                     cfg.depth, cap.max_jfs_depth, cfg.max_inline_data, cap.max_jfs_inline_len, cfg.max_sge,
                     cap.max_jfs_sge, cfg.max_rsge, cap.max_jfs_rsge);
        return false;
    }
    if (cfg.jfc == nullptr) {
        URMA_LOG_ERR("jfs cfg has no jfc\n");
        return false;
    }
    if (!trans_mode_valid(cfg.trans_mode)) {
        URMA_LOG_ERR("jfs trans_mode %d invalid\n", static_cast<int>(cfg.trans_mode));
        return false;
    }
    if (cfg.priority > URMA_MAX_PRIORITY || cfg.rnr_retry > kMaxRnrRetry || cfg.err_timeout > kMaxErrTimeout) {
        URMA_LOG_ERR("jfs priority %u rnr_retry %u err_timeout %u out of range\n", cfg.priority,
                     cfg.rnr_retry, cfg.err_timeout);
        return false;
    }
    return true;
}

bool jfr_cfg_valid(const urma_jfr_cfg_t &cfg, const urma_device_cap_t &cap)
{
    if (cfg.depth == 0 || cfg.depth > cap.max_jfr_depth || cfg.max_sge > cap.max_jfr_sge) {
        URMA_LOG_ERR("jfr cfg out of range: depth %u (max %u) sge %u (max %u)\n", cfg.depth,
                     cap.max_jfr_depth, cfg.max_sge, cap.max_jfr_sge);
        return false;
    }
    if (cfg.jfc == nullptr) {
        URMA_LOG_ERR("jfr cfg has no jfc\n");
        return false;
    }
    if (!trans_mode_valid(cfg.trans_mode)) {
        URMA_LOG_ERR("jfr trans_mode %d invalid\n", static_cast<int>(cfg.trans_mode));
        return false;
    }
    if (cfg.min_rnr_timer > kMaxMinRnrTimer) {
        URMA_LOG_ERR("jfr min_rnr_timer %u out of range\n", cfg.min_rnr_timer);
        return false;
    }
    return true;
}

void jfs_cfg_to_abi(const urma_jfs_cfg_t &cfg, uburma_jfs_cfg *out)
{
    std::memset(out, 0, sizeof(*out));
    out->depth = cfg.depth;
    out->flag = cfg.flag.value;
    out->trans_mode = static_cast<uint32_t>(cfg.trans_mode);
    out->max_inline_data = cfg.max_inline_data;
    out->priority = cfg.priority;
    out->max_sge = cfg.max_sge;
    out->max_rsge = cfg.max_rsge;
    out->rnr_retry = cfg.rnr_retry;
    out->err_timeout = cfg.err_timeout;
}

void jfs_cfg_from_abi(const uburma_jfs_cfg &in, urma_jfs_cfg_t *cfg)
{
    cfg->depth = in.depth;
    cfg->flag.value = in.flag;
    cfg->trans_mode = static_cast<urma_transport_mode_t>(in.trans_mode);
    cfg->max_inline_data = in.max_inline_data;
    cfg->priority = in.priority;
    cfg->max_sge = in.max_sge;
    cfg->max_rsge = in.max_rsge;
    cfg->rnr_retry = in.rnr_retry;
    cfg->err_timeout = in.err_timeout;
}

void jfr_cfg_to_abi(const urma_jfr_cfg_t &cfg, uburma_jfr_cfg *out)
{
    std::memset(out, 0, sizeof(*out));
    out->id = cfg.id;
    out->depth = cfg.depth;
    out->flag = cfg.flag.value;
    out->trans_mode = static_cast<uint32_t>(cfg.trans_mode);
    out->token_value = cfg.token_value.token;
    out->max_sge = cfg.max_sge;
    out->min_rnr_timer = cfg.min_rnr_timer;
}

void jfr_cfg_from_abi(const uburma_jfr_cfg &in, urma_jfr_cfg_t *cfg)
{
    cfg->id = in.id;
    cfg->depth = in.depth;
    cfg->flag.value = in.flag;
    cfg->trans_mode = static_cast<urma_transport_mode_t>(in.trans_mode);
    cfg->max_sge = in.max_sge;
    cfg->min_rnr_timer = in.min_rnr_timer;
}

constexpr RingObjectKind kJfs = {"jfs", "SQ", UBURMA_CMD_CREATE_JFS, UBURMA_CMD_DELETE_JFS};
constexpr RingObjectKind kJfr = {"jfr", "RQ", UBURMA_CMD_CREATE_JFR, UBURMA_CMD_DELETE_JFR};
constexpr RingObjectKind kJetty = {"jetty", "SQ", UBURMA_CMD_CREATE_JETTY, UBURMA_CMD_DELETE_JETTY};

int jfs_activate(JfsImpl *impl, urma_context_t *ctx, const urma_jfs_cfg_t &cfg)
{
    if (!jfs_cfg_valid(cfg, ctx_cap(ctx)))
        return -EINVAL;
    if (cfg.jfc->urma_ctx != ctx) {
        URMA_LOG_ERR("jfc of the jfs belongs to another context\n");
        return -EINVAL;
    }
    urma_jfs_t *jfs = &impl->pub;
    struct udma_create_jfs_resp resp = {};
    struct uburma_cmd_create_jfs cmd = {};
    jfs_cfg_to_abi(cfg, &cmd.in.cfg);
    cmd.in.jfc_handle = cfg.jfc->handle;
    cmd.in.urma_jfs = reinterpret_cast<uintptr_t>(jfs);
    cmd.in.udata.out_addr = reinterpret_cast<uintptr_t>(&resp);
    cmd.in.udata.out_len = sizeof(resp);
    int ret = create_and_map(ctx, kJfs, &cmd, &cmd.out.id, impl->sq, resp.sq);
    if (ret != 0)
        return ret;
    jfs->urma_ctx = ctx;
    jfs->jfs_id.eid = ctx->eid;
    jfs->jfs_id.uasid = ctx->uasid;
    jfs->jfs_id.id = cmd.out.id;
    jfs->jfs_cfg = cfg;
    jfs_cfg_from_abi(cmd.out.cfg, &jfs->jfs_cfg);
    jfs->handle = cmd.out.handle;
    event_init(&jfs->event_mutex, &jfs->event_cond, &jfs->async_events_acked);
    jfs->urma_jfs_opt.is_actived = true;
    return 0;
}

int jfs_deactivate(JfsImpl *impl)
{
    urma_jfs_t *jfs = &impl->pub;
    int ret = delete_and_wait(jfs->urma_ctx, kJfs, jfs->handle, jfs->jfs_id.id, &jfs->event_mutex,
                              &jfs->event_cond, &jfs->async_events_acked);
    if (ret != 0)
        return ret;
    advise_forget(jfs);
    event_destroy(&jfs->event_mutex, &jfs->event_cond);
    reset_queue(impl->sq);
    jfs->urma_jfs_opt.is_actived = false;
    return 0;
}

int jfr_activate(JfrImpl *impl, urma_context_t *ctx, const urma_jfr_cfg_t &cfg)
{
    if (!jfr_cfg_valid(cfg, ctx_cap(ctx)))
        return -EINVAL;
    if (cfg.jfc->urma_ctx != ctx) {
        URMA_LOG_ERR("jfc of the jfr belongs to another context\n");
        return -EINVAL;
    }
    urma_jfr_t *jfr = &impl->pub;
    struct udma_create_jfr_resp resp = {};
    struct uburma_cmd_create_jfr cmd = {};
    jfr_cfg_to_abi(cfg, &cmd.in.cfg);
    cmd.in.jfc_handle = cfg.jfc->handle;
    cmd.in.urma_jfr = reinterpret_cast<uintptr_t>(jfr);
    cmd.in.udata.out_addr = reinterpret_cast<uintptr_t>(&resp);
    cmd.in.udata.out_len = sizeof(resp);
    int ret = create_and_map(ctx, kJfr, &cmd, &cmd.out.cfg.id, impl->rq, resp.rq);
    if (ret != 0)
        return ret;
    jfr->urma_ctx = ctx;
    jfr->jfr_id.eid = ctx->eid;
    jfr->jfr_id.uasid = ctx->uasid;
    jfr->jfr_id.id = cmd.out.cfg.id;
    jfr->jfr_cfg = cfg;
    jfr_cfg_from_abi(cmd.out.cfg, &jfr->jfr_cfg);
    jfr->handle = cmd.out.handle;
    event_init(&jfr->event_mutex, &jfr->event_cond, &jfr->async_events_acked);
    jfr->urma_jfr_opt.is_actived = true;
    return 0;
}

int jfr_deactivate(JfrImpl *impl)
{
    urma_jfr_t *jfr = &impl->pub;
    int ret = delete_and_wait(jfr->urma_ctx, kJfr, jfr->handle, jfr->jfr_id.id, &jfr->event_mutex,
                              &jfr->event_cond, &jfr->async_events_acked);
    if (ret != 0)
        return ret;
    event_destroy(&jfr->event_mutex, &jfr->event_cond);
    reset_queue(impl->rq);
    jfr->urma_jfr_opt.is_actived = false;
    return 0;
}

// The kernel jetty of a checked cfg (and the JFR made for it without a
// shared one), its SQ mapped.
static int jetty_create(JettyImpl *impl, urma_context_t *ctx, const urma_jetty_cfg_t &cfg);

int jetty_activate(JettyImpl *impl, urma_context_t *ctx, const urma_jetty_cfg_t &cfg)
{
    const bool shared = cfg.flag.bs.share_jfr == URMA_SHARE_JFR;
    if (shared ? cfg.shared.jfr == nullptr : cfg.jfr_cfg == nullptr) {
        URMA_LOG_ERR("jetty cfg has no %s\n", shared ? "shared jfr" : "jfr_cfg");
        return -EINVAL;
    }
    if (!jfs_cfg_valid(cfg.jfs_cfg, ctx_cap(ctx)))
        return -EINVAL;
    if (cfg.jfs_cfg.jfc->urma_ctx != ctx || (shared && cfg.shared.jfr->urma_ctx != ctx) ||
        (shared && cfg.shared.jfc != nullptr && cfg.shared.jfc->urma_ctx != ctx)) {
        URMA_LOG_ERR("jetty cfg names objects of another context\n");
        return -EINVAL;
    }
    urma_jetty_t *jetty = &impl->pub;
    if (cfg.jetty_grp != nullptr) {
        int ret = jetty_grp_join(ctx, cfg, jetty);
        if (ret != 0)
            return ret;
    }
    int ret = jetty_create(impl, ctx, cfg);
    if (ret != 0 && cfg.jetty_grp != nullptr)
        jetty_grp_leave(cfg.jetty_grp, jetty);
    return ret;
}

static int jetty_create(JettyImpl *impl, urma_context_t *ctx, const urma_jetty_cfg_t &cfg)
{
    const bool shared = cfg.flag.bs.share_jfr == URMA_SHARE_JFR;
    urma_jfr_t *jfr = shared ? cfg.shared.jfr : nullptr;
    if (!shared) {
        // The kernel's jetty receives on a JFR: make the jetty's own.
        impl->own_jfr = urma_create_jfr(ctx, cfg.jfr_cfg);
        if (impl->own_jfr == nullptr)
            return -errno;
        jfr = impl->own_jfr;
    }
    urma_jetty_t *jetty = &impl->pub;
    struct udma_create_jfs_resp resp = {};
    struct uburma_cmd_create_jetty cmd = {};
    cmd.in2.jetty_grp_handle = cfg.jetty_grp != nullptr ? cfg.jetty_grp->handle : 0;
    cmd.in.id = cfg.id;
    // The kernel's jetty always receives on a JFR it shares: the caller's
    // own one, or the one made for it above.
    cmd.in.flag = cfg.flag.value | URMA_SHARE_JFR;
    jfs_cfg_to_abi(cfg.jfs_cfg, &cmd.in.jfs_cfg);
    cmd.in.send_jfc_handle = cfg.jfs_cfg.jfc->handle;
    cmd.in.jfr_handle = jfr->handle;
    cmd.in.recv_jfc_handle = shared && cfg.shared.jfc != nullptr ? cfg.shared.jfc->handle : 0;
    cmd.in.urma_jetty = reinterpret_cast<uintptr_t>(jetty);
    cmd.in.udata.out_addr = reinterpret_cast<uintptr_t>(&resp);
    cmd.in.udata.out_len = sizeof(resp);
    int ret = create_and_map(ctx, kJetty, &cmd, &cmd.out.id, impl->sq, resp.sq);
    if (ret != 0) {
        if (impl->own_jfr != nullptr)
            urma_delete_jfr(impl->own_jfr);
        impl->own_jfr = nullptr;
        return ret;
    }
    jetty->urma_ctx = ctx;
    jetty->jetty_id.eid = ctx->eid;
    jetty->jetty_id.uasid = ctx->uasid;
    jetty->jetty_id.id = cmd.out.id;
    jetty->remote_jetty = nullptr;
    jetty->jetty_cfg = cfg;
    jetty->jetty_cfg.id = cmd.out.id;
    jfs_cfg_from_abi(cmd.out.jfs_cfg, &jetty->jetty_cfg.jfs_cfg);
    jetty->handle = cmd.out.handle;
    event_init(&jetty->event_mutex, &jetty->event_cond, &jetty->async_events_acked);
    jetty->urma_jetty_opt.is_actived = true;
    return 0;
}

int jetty_deactivate(JettyImpl *impl)
{
    urma_jetty_t *jetty = &impl->pub;
    int ret = delete_and_wait(jetty->urma_ctx, kJetty, jetty->handle, jetty->jetty_id.id, &jetty->event_mutex,
                              &jetty->event_cond, &jetty->async_events_acked);
    if (ret != 0)
        return ret;
    advise_forget(jetty);
    if (jetty->jetty_cfg.jetty_grp != nullptr)
        jetty_grp_leave(jetty->jetty_cfg.jetty_grp, jetty);
    if (impl->own_jfr != nullptr) {
        urma_status_t st = urma_delete_jfr(impl->own_jfr);
        if (st != URMA_SUCCESS)
            URMA_LOG_ERR("jetty %u: its own jfr was not deleted: %d\n", jetty->jetty_id.id, st);
        impl->own_jfr = nullptr;
    }
    event_destroy(&jetty->event_mutex, &jetty->event_cond);
    reset_queue(impl->sq);
    jetty->remote_jetty = nullptr;
    jetty->urma_jetty_opt.is_actived = false;
    return 0;
}

}  // namespace urma

using urma::JettyImpl;
using urma::JfrImpl;
using urma::JfsImpl;

extern "C" {

/* ---------------------------------------------------------------- JFS */

urma_jfs_t *urma_create_jfs(urma_context_t *ctx, urma_jfs_cfg_t *jfs_cfg)
{
    return urma::create_obj<urma_jfs_t>(ctx, jfs_cfg);
}

urma_status_t urma_modify_jfs(urma_jfs_t *jfs, urma_jfs_attr_t *attr)
{
    if (jfs == nullptr || attr == nullptr) {
        URMA_LOG_ERR("invalid argument: jfs %p attr %p\n", static_cast<void *>(jfs),
                     static_cast<void *>(attr));
        return URMA_EINVAL;
    }
    if (attr->mask != JFS_STATE) {
        URMA_LOG_ERR("jfs attr mask 0x%x invalid\n", attr->mask);
        return URMA_EINVAL;
    }
    struct uburma_cmd_modify_jetty cmd = {};
    cmd.in.handle = jfs->handle;
    cmd.in.mask = attr->mask;
    cmd.in.state = static_cast<uint32_t>(attr->state);
    return urma::object_cmd(jfs->urma_ctx, UBURMA_CMD_MODIFY_JFS, &cmd, "modify", urma::kJfs, jfs->jfs_id.id);
}

urma_status_t urma_query_jfs(urma_jfs_t *jfs, urma_jfs_cfg_t *cfg, urma_jfs_attr_t *attr)
{
    if (jfs == nullptr || cfg == nullptr || attr == nullptr) {
        URMA_LOG_ERR("invalid argument: jfs %p cfg %p attr %p\n", static_cast<void *>(jfs),
                     static_cast<void *>(cfg), static_cast<void *>(attr));
        return URMA_EINVAL;
    }
    struct uburma_cmd_query_jfs cmd = {};
    cmd.in.handle = jfs->handle;
    urma_status_t st = urma::object_cmd(jfs->urma_ctx, UBURMA_CMD_QUERY_JFS,
                                        &cmd, "query", urma::kJfs, jfs->jfs_id.id);
    if (st != URMA_SUCCESS)
        return st;
    *cfg = jfs->jfs_cfg;
    urma::jfs_cfg_from_abi(cmd.out.cfg, cfg);
    attr->mask = JFS_STATE;
    attr->state = static_cast<urma_jfs_state_t>(cmd.out.state);
    return URMA_SUCCESS;
}

urma_status_t urma_delete_jfs(urma_jfs_t *jfs)
{
    return urma::delete_obj(jfs);
}

/* ---------------------------------------------------------------- JFR */

urma_jfr_t *urma_create_jfr(urma_context_t *ctx, urma_jfr_cfg_t *jfr_cfg)
{
    return urma::create_obj<urma_jfr_t>(ctx, jfr_cfg);
}

urma_status_t urma_modify_jfr(urma_jfr_t *jfr, urma_jfr_attr_t *attr)
{
    if (jfr == nullptr || attr == nullptr) {
        URMA_LOG_ERR("invalid argument: jfr %p attr %p\n", static_cast<void *>(jfr),
                     static_cast<void *>(attr));
        return URMA_EINVAL;
    }
    const uint32_t known = JFR_RX_THRESHOLD | JFR_STATE;
    if (attr->mask == 0 || (attr->mask & ~known) != 0) {
        URMA_LOG_ERR("jfr attr mask 0x%x invalid\n", attr->mask);
        return URMA_EINVAL;
    }
    struct uburma_cmd_modify_jfr cmd = {};
    cmd.in.handle = jfr->handle;
    cmd.in.mask = attr->mask;
    cmd.in.rx_threshold = attr->rx_threshold;
    cmd.in.state = static_cast<uint32_t>(attr->state);
    return urma::object_cmd(jfr->urma_ctx, UBURMA_CMD_MODIFY_JFR, &cmd, "modify", urma::kJfr, jfr->jfr_id.id);
}

urma_status_t urma_query_jfr(urma_jfr_t *jfr, urma_jfr_cfg_t *cfg, urma_jfr_attr_t *attr)
{
    if (jfr == nullptr || cfg == nullptr || attr == nullptr) {
        URMA_LOG_ERR("invalid argument: jfr %p cfg %p attr %p\n", static_cast<void *>(jfr),
                     static_cast<void *>(cfg), static_cast<void *>(attr));
        return URMA_EINVAL;
    }
    struct uburma_cmd_query_jfr cmd = {};
    cmd.in.handle = jfr->handle;
    urma_status_t st = urma::object_cmd(jfr->urma_ctx, UBURMA_CMD_QUERY_JFR,
                                        &cmd, "query", urma::kJfr, jfr->jfr_id.id);
    if (st != URMA_SUCCESS)
        return st;
    *cfg = jfr->jfr_cfg;
    urma::jfr_cfg_from_abi(cmd.out.cfg, cfg);
    attr->mask = JFR_RX_THRESHOLD | JFR_STATE;
    attr->rx_threshold = cmd.out.rx_threshold;
    attr->state = static_cast<urma_jfr_state_t>(cmd.out.state);
    return URMA_SUCCESS;
}

urma_status_t urma_delete_jfr(urma_jfr_t *jfr)
{
    return urma::delete_obj(jfr);
}

/* -------------------------------------------------------------- jetty */

urma_jetty_t *urma_create_jetty(urma_context_t *ctx, urma_jetty_cfg_t *jetty_cfg)
{
    return urma::create_obj<urma_jetty_t>(ctx, jetty_cfg);
}

urma_status_t urma_modify_jetty(urma_jetty_t *jetty, urma_jetty_attr_t *attr)
{
    if (jetty == nullptr || attr == nullptr) {
        URMA_LOG_ERR("invalid argument: jetty %p attr %p\n", static_cast<void *>(jetty),
                     static_cast<void *>(attr));
        return URMA_EINVAL;
    }
    const uint32_t known = JETTY_RX_THRESHOLD | JETTY_STATE;
    if (attr->mask == 0 || (attr->mask & ~known) != 0) {
        URMA_LOG_ERR("jetty attr mask 0x%x invalid\n", attr->mask);
        return URMA_EINVAL;
    }
    struct uburma_cmd_modify_jetty cmd = {};
    cmd.in.handle = jetty->handle;
    cmd.in.mask = attr->mask;
    cmd.in.rx_threshold = attr->rx_threshold;
    cmd.in.state = static_cast<uint32_t>(attr->state);
    return urma::object_cmd(jetty->urma_ctx, UBURMA_CMD_MODIFY_JETTY,
                            &cmd, "modify", urma::kJetty, jetty->jetty_id.id);
}

urma_status_t urma_query_jetty(urma_jetty_t *jetty, urma_jetty_cfg_t *cfg, urma_jetty_attr_t *attr)
{
    if (jetty == nullptr || cfg == nullptr || attr == nullptr) {
        URMA_LOG_ERR("invalid argument: jetty %p cfg %p attr %p\n", static_cast<void *>(jetty),
                     static_cast<void *>(cfg), static_cast<void *>(attr));
        return URMA_EINVAL;
    }
    struct uburma_cmd_query_jetty cmd = {};
    cmd.in.handle = jetty->handle;
    urma_status_t st = urma::object_cmd(jetty->urma_ctx, UBURMA_CMD_QUERY_JETTY,
                                        &cmd, "query", urma::kJetty, jetty->jetty_id.id);
    if (st != URMA_SUCCESS)
        return st;
    *cfg = jetty->jetty_cfg;
    cfg->id = cmd.out.id;
    cfg->flag.value = cmd.out.flag;
    // The kernel's flag always says shared (create passes URMA_SHARE_JFR);
    // whether the caller gave the JFR is the library's to tell.
    cfg->flag.bs.share_jfr = jetty->jetty_cfg.flag.bs.share_jfr;
    urma::jfs_cfg_from_abi(cmd.out.jfs_cfg, &cfg->jfs_cfg);
    attr->mask = JETTY_RX_THRESHOLD | JETTY_STATE;
    attr->rx_threshold = cmd.out.rx_threshold;
    attr->state = static_cast<urma_jetty_state_t>(cmd.out.state);
    return URMA_SUCCESS;
}

urma_status_t urma_delete_jetty(urma_jetty_t *jetty)
{
    return urma::delete_obj(jetty);
}

}  // extern "C"
