// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The UB/URMA stack authors
// Jetty groups: urma_create_jetty_grp, urma_delete_jetty_grp and the
// membership of jetties (jetty_grp.h). The kernel holds the group and its
// members (ubcore: a jetty ID that a peer imports as URMA_JETTY_GROUP, a
// message to it reaching one member by the group's policy); the list here
// is the public view UMDK gives of it.
#include "jetty_grp.h"

#include <pthread.h>

#include <cerrno>
#include <cstring>
#include <new>
#include <vector>

#include "log.h"
#include "object.h"
#include "ring_object.h"
#include "uburma_cmd.h"
#include "urma_api.h"

namespace urma {
namespace {

constexpr RingObjectKind kJettyGrp = {"jetty_grp", "", UBURMA_CMD_CREATE_JETTY_GRP, UBURMA_CMD_DELETE_JETTY_GRP};

struct JettyGrpImpl {
    urma_jetty_grp_t pub;
    std::vector<urma_jetty_t *> slots;  // pub.jetty_list: max_jetty_in_jetty_grp entries
};

class ListLock {
public:
    explicit ListLock(urma_jetty_grp_t *grp) : mu_(&grp->list_mutex) { pthread_mutex_lock(mu_); }
    ~ListLock() { pthread_mutex_unlock(mu_); }
    ListLock(const ListLock &) = delete;
    ListLock &operator=(const ListLock &) = delete;

private:
    pthread_mutex_t *mu_;
};

uint32_t slot_count(const urma_jetty_grp_t *grp)
{
    return static_cast<uint32_t>(from_pub<const JettyGrpImpl>(grp)->slots.size());
}

}  // namespace

int jetty_grp_join(urma_context_t *ctx, const urma_jetty_cfg_t &cfg, urma_jetty_t *jetty)
{
    urma_jetty_grp_t *grp = cfg.jetty_grp;
    if (grp->urma_ctx != ctx) {
        URMA_LOG_ERR("jetty_grp %u belongs to another context\n", grp->jetty_grp_id.id);
        return -EINVAL;
    }
    const bool shared = cfg.flag.bs.share_jfr == URMA_SHARE_JFR;
    const urma_jfr_cfg_t &jfr = shared ? cfg.shared.jfr->jfr_cfg : *cfg.jfr_cfg;
    if (grp->cfg.token_value.token != jfr.token_value.token ||
        grp->cfg.flag.bs.token_policy != jfr.flag.bs.token_policy || jfr.trans_mode != URMA_TM_RM ||
        cfg.jfs_cfg.trans_mode != URMA_TM_RM) {
        URMA_LOG_ERR("jetty in jetty_grp %u: not RM, or its jfr's token differs from the group's\n",
                     grp->jetty_grp_id.id);
        return -EINVAL;
    }
    ListLock lock(grp);
    for (uint32_t i = 0; i < slot_count(grp); i++) {
        if (grp->jetty_list[i] == nullptr) {
            grp->jetty_list[i] = jetty;
            grp->jetty_cnt++;
            return 0;
        }
    }
    URMA_LOG_ERR("failed to add jetty to jetty_grp %u: it has %u jetties\n", grp->jetty_grp_id.id, grp->jetty_cnt);
    return -EPERM;
}

void jetty_grp_leave(urma_jetty_grp_t *grp, urma_jetty_t *jetty)
{
    ListLock lock(grp);
    for (uint32_t i = 0; i < slot_count(grp); i++) {
        if (grp->jetty_list[i] == jetty) {
            grp->jetty_list[i] = nullptr;
            grp->jetty_cnt--;
            return;
        }
    }
}

}  // namespace urma

using urma::JettyGrpImpl;

extern "C" {

urma_jetty_grp_t *urma_create_jetty_grp(urma_context_t *ctx, urma_jetty_grp_cfg_t *cfg)
{
    if (ctx == nullptr || cfg == nullptr || strnlen(cfg->name, URMA_MAX_NAME) >= URMA_MAX_NAME) {
        URMA_LOG_ERR("invalid argument: ctx %p cfg %p (or a name without its NUL)\n", static_cast<void *>(ctx),
                     static_cast<void *>(cfg));
        errno = EINVAL;
        return nullptr;
    }
    const uint32_t max = urma::ctx_cap(ctx).max_jetty_in_jetty_grp;
    if (max == 0 || max > URMA_MAX_JETTY_IN_JETTY_GRP) {
        URMA_LOG_ERR("max_jetty_in_jetty_grp %u is err.\n", max);
        errno = EINVAL;
        return nullptr;
    }
    auto *impl = new (std::nothrow) JettyGrpImpl();
    if (impl == nullptr) {
        errno = ENOMEM;
        return nullptr;
    }
    try {
        impl->slots.assign(max, nullptr);
    } catch (const std::bad_alloc &) {
        delete impl;
        errno = ENOMEM;
        return nullptr;
    }
    urma_jetty_grp_t *grp = &impl->pub;
    struct uburma_cmd_create_jetty_grp cmd = {};
    static_assert(sizeof(cmd.in.name) == sizeof(cfg->name), "name sizes differ");
    std::memcpy(cmd.in.name, cfg->name, sizeof(cmd.in.name));
    cmd.in.id = cfg->id;
    cmd.in.flag = cfg->flag.value;
    cmd.in.token_value = cfg->token_value.token;
    cmd.in.policy = static_cast<uint32_t>(cfg->policy);
    cmd.in.urma_jetty_grp = reinterpret_cast<uintptr_t>(grp);
    int ret = urma::uburma_cmd(ctx->dev_fd, UBURMA_CMD_CREATE_JETTY_GRP, &cmd);
    if (ret != 0) {
        URMA_LOG_ERR("create jetty_grp on %s failed: %s\n", ctx->dev->name, std::strerror(-ret));
        delete impl;
        errno = -ret;
        return nullptr;
    }
    grp->urma_ctx = ctx;
    grp->jetty_grp_id.eid = ctx->eid;
    grp->jetty_grp_id.uasid = ctx->uasid;
    grp->jetty_grp_id.id = cmd.out.id;
    grp->cfg = *cfg;
    grp->cfg.id = cmd.out.id;
    grp->jetty_cnt = 0;
    grp->jetty_list = impl->slots.data();
    grp->handle = cmd.out.handle;
    pthread_mutex_init(&grp->list_mutex, nullptr);
    urma::event_init(&grp->event_mutex, &grp->event_cond, &grp->async_events_acked);
    urma::ctx_get(ctx);
    return grp;
}

urma_status_t urma_delete_jetty_grp(urma_jetty_grp_t *jetty_grp)
{
    if (jetty_grp == nullptr || jetty_grp->urma_ctx == nullptr || jetty_grp->jetty_list == nullptr) {
        URMA_LOG_ERR("invalid jetty group %p\n", static_cast<void *>(jetty_grp));
        return URMA_EINVAL;
    }
    {
        urma::ListLock lock(jetty_grp);
        if (jetty_grp->jetty_cnt > 0) {
            URMA_LOG_ERR("jetty grp in use, jetty_cnt=%u.\n", jetty_grp->jetty_cnt);
            return URMA_ENOPERM;
        }
    }
    urma_context_t *ctx = jetty_grp->urma_ctx;
    int ret = urma::delete_and_wait(ctx, urma::kJettyGrp, jetty_grp->handle, jetty_grp->jetty_grp_id.id,
                                    &jetty_grp->event_mutex, &jetty_grp->event_cond,
                                    &jetty_grp->async_events_acked);
    if (ret != 0)
        return ret == -EBUSY ? URMA_ENOPERM : urma::status_of(ret);
    urma::event_destroy(&jetty_grp->event_mutex, &jetty_grp->event_cond);
    pthread_mutex_destroy(&jetty_grp->list_mutex);
    delete urma::from_pub<JettyGrpImpl>(jetty_grp);
    urma::ctx_put(ctx);
    return URMA_SUCCESS;
}

}  // extern "C"
