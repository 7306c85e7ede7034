// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The UB/URMA stack authors
// urma_advise_jfr / urma_advise_jetty and their undo. On a UB device UMDK
// checks the arguments (both ends RM) and has nothing more to set up: the
// target's TP is chosen per message. udma is a UB device on one host: the
// library checks the same and records the pair, so that advising it twice
// says URMA_EEXIST and unadvising a pair never advised is refused, as the
// API describes. The records are this process's only.
#include "advise.h"

#include <mutex>
#include <set>
#include <utility>

#include "log.h"
#include "urma_api.h"

namespace urma {
namespace {

std::mutex g_lock;  // guards g_advised
std::set<std::pair<const void *, const void *>> g_advised;

bool rm_pair(urma_transport_mode_t local, const urma_target_jetty_t *t)
{
    return local == URMA_TM_RM && t->trans_mode == URMA_TM_RM;
}

urma_status_t advise(const void *local, urma_context_t *ctx, urma_transport_mode_t mode,
                     urma_target_jetty_t *target, urma_target_type_t want, const char *what)
{
    if (ctx == nullptr || target->urma_ctx != ctx) {
        URMA_LOG_ERR("advise %s: the target was imported in another context\n", what);
        return URMA_EINVAL;
    }
    if (!rm_pair(mode, target)) {
        URMA_LOG_ERR("advise %s: both ends must be RM (local %d, target %d)\n", what, static_cast<int>(mode),
                     static_cast<int>(target->trans_mode));
        return URMA_EINVAL;
    }
    if (target->type != want) {
        URMA_LOG_ERR("advise %s: target type %d is not %d\n", what, static_cast<int>(target->type),
                     static_cast<int>(want));
        return URMA_EINVAL;
    }
    std::lock_guard<std::mutex> guard(g_lock);
    if (!g_advised.emplace(local, target).second) {
        URMA_LOG_WARN("advise %s: advised already\n", what);
        return URMA_EEXIST;
    }
    return URMA_SUCCESS;
}

urma_status_t unadvise(const void *local, const urma_target_jetty_t *target, const char *what)
{
    std::lock_guard<std::mutex> guard(g_lock);
    if (g_advised.erase({local, target}) == 0) {
        URMA_LOG_ERR("unadvise %s: the pair was not advised\n", what);
        return URMA_EINVAL;
    }
    return URMA_SUCCESS;
}

}  // namespace

void advise_forget(const void *obj)
{
    std::lock_guard<std::mutex> guard(g_lock);
    for (auto it = g_advised.begin(); it != g_advised.end();) {
        if (it->first == obj || it->second == obj)
            it = g_advised.erase(it);
        else
            ++it;
    }
}

}  // namespace urma

extern "C" {

urma_status_t urma_advise_jfr(urma_jfs_t *jfs, urma_target_jetty_t *tjfr)
{
    if (jfs == nullptr || tjfr == nullptr || !jfs->urma_jfs_opt.is_actived) {
        URMA_LOG_ERR("invalid argument: jfs %p tjfr %p\n", static_cast<void *>(jfs), static_cast<void *>(tjfr));
        return URMA_EINVAL;
    }
    return urma::advise(jfs, jfs->urma_ctx, jfs->jfs_cfg.trans_mode, tjfr, URMA_JFR, "jfr");
}

urma_status_t urma_unadvise_jfr(urma_jfs_t *jfs, urma_target_jetty_t *tjfr)
{
    if (jfs == nullptr || tjfr == nullptr) {
        URMA_LOG_ERR("invalid argument: jfs %p tjfr %p\n", static_cast<void *>(jfs), static_cast<void *>(tjfr));
        return URMA_EINVAL;
    }
    return urma::unadvise(jfs, tjfr, "jfr");
}

// UMDK's calls cb_fun only where the channel is made in the background; on
// a UB device it returns at once. Here the advise is done at once too and
// its result also goes to cb_fun before the return, so a caller waiting
// for the callback is never left waiting.
urma_status_t urma_advise_jfr_async(urma_jfs_t *jfs, urma_target_jetty_t *tjfr, urma_advise_async_cb_func cb_fun,
                                    void *cb_arg)
{
    if (jfs == nullptr || tjfr == nullptr || cb_fun == nullptr || cb_arg == nullptr ||
        jfs->urma_ctx != tjfr->urma_ctx) {
        URMA_LOG_ERR("invalid argument: jfs %p tjfr %p cb %p arg %p\n", static_cast<void *>(jfs),
                     static_cast<void *>(tjfr), reinterpret_cast<void *>(cb_fun), cb_arg);
        return URMA_EINVAL;
    }
    urma_status_t st = urma_advise_jfr(jfs, tjfr);
    if (st == URMA_EINVAL)
        return st;
    cb_fun(st, cb_arg);
    return URMA_SUCCESS;
}

urma_status_t urma_advise_jetty(urma_jetty_t *jetty, urma_target_jetty_t *tjetty)
{
    if (jetty == nullptr || tjetty == nullptr || !jetty->urma_jetty_opt.is_actived) {
        URMA_LOG_ERR("invalid argument: jetty %p tjetty %p\n", static_cast<void *>(jetty),
                     static_cast<void *>(tjetty));
        return URMA_EINVAL;
    }
    return urma::advise(jetty, jetty->urma_ctx, jetty->jetty_cfg.jfs_cfg.trans_mode, tjetty, URMA_JETTY,
                        "jetty");
}

urma_status_t urma_unadvise_jetty(urma_jetty_t *jetty, urma_target_jetty_t *tjetty)
{
    if (jetty == nullptr || tjetty == nullptr) {
        URMA_LOG_ERR("invalid argument: jetty %p tjetty %p\n", static_cast<void *>(jetty),
                     static_cast<void *>(tjetty));
        return URMA_EINVAL;
    }
    return urma::unadvise(jetty, tjetty, "jetty");
}

}  // extern "C"
