// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The UB/URMA stack authors
// Context options and the provider pass-through (urma_set_context_opt,
// urma_user_ctl), with UMDK's checks and statuses. The one context option,
// URMA_OPT_AGGR_MODE, is for aggregated (bonding) devices, which UMDK
// refuses on any other device with URMA_EINVAL. Here a bonding device's
// mode is the device's, chosen when it is created (urma_admin agg add ...
// mode), not each context's: the kernel spreads the packets of every TP of
// the device (ubagg/README.md), so a context may set the mode its device
// has and no other. urma_user_ctl hands a command to the provider; UMDK
// returns the provider's URMA_ENOPERM for a command it does not know
// unchanged: udma knows none, a bonding device BONDP_USER_CTL_QUERY_PORT.
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "bond.h"
#include "log.h"
#include "urma_api.h"
#include "urma_ubagg.h"

namespace {

// URMA_OPT_AGGR_MODE: a bonding device's own mode only.
urma_status_t set_aggr_mode(urma_context_t *ctx, urma_context_aggr_mode_t mode)
{
    urma::BondState bond;
    if (!urma::read_bond(ctx->dev, &bond)) {
        URMA_LOG_ERR("%s is not an aggregated device: no aggregation mode to set\n", ctx->dev->name);
        return URMA_EINVAL;
    }
    if (mode != bond.mode) {
        URMA_LOG_ERR("%s is in aggregation mode %d, set when it was created (urma_admin agg add): "
                     "a context cannot choose %d\n",
                     ctx->dev->name, static_cast<int>(bond.mode), static_cast<int>(mode));
        return URMA_EINVAL;
    }
    ctx->aggr_mode = mode;
    return URMA_SUCCESS;
}

}  // namespace

extern "C" {

urma_status_t urma_set_context_opt(urma_context_t *ctx, urma_opt_name_t opt_name, const void *opt_value,
                                   size_t opt_len)
{
    if (ctx == nullptr || ctx->dev == nullptr) {
        URMA_LOG_ERR("invalid argument: ctx %p\n", static_cast<void *>(ctx));
        return URMA_EINVAL;
    }
    switch (opt_name) {
    case URMA_OPT_AGGR_MODE:
        if (opt_value == nullptr || opt_len != sizeof(urma_context_aggr_mode_t)) {
            URMA_LOG_ERR("aggr mode: value %p of %zu bytes, want %zu\n", opt_value, opt_len,
                         sizeof(urma_context_aggr_mode_t));
            return URMA_EINVAL;
        }
        return set_aggr_mode(ctx, *static_cast<const urma_context_aggr_mode_t *>(opt_value));
    default:
        URMA_LOG_ERR("context option %d unknown\n", static_cast<int>(opt_name));
        return URMA_EINVAL;
    }
}

}  // extern "C"

namespace {

// BONDP_USER_CTL_QUERY_PORT: every member is enabled; the active ones are
// those the device's mode sends through now.
urma_status_t query_port(urma_context_t *ctx, const urma::BondState &bond, const urma_user_ctl_in_t *in,
                         const urma_user_ctl_out_t *out)
{
    if (in->addr == 0 || out->addr == 0 || in->len != sizeof(bondp_query_port_in_t) ||
        out->len < sizeof(bondp_query_port_out_t)) {
        URMA_LOG_ERR("query port: in %u bytes, out %u bytes, want %zu and at least %zu\n", in->len, out->len,
                     sizeof(bondp_query_port_in_t), sizeof(bondp_query_port_out_t));
        return URMA_EINVAL;
    }
    const auto *q = reinterpret_cast<const bondp_query_port_in_t *>(static_cast<uintptr_t>(in->addr));
    // a JFR and a jetty both start with their context
    static_assert(offsetof(urma_jfr_t, urma_ctx) == 0 && offsetof(urma_jetty_t, urma_ctx) == 0,
                  "the union's members begin alike");
    if (q->jfr == nullptr || q->jfr->urma_ctx != ctx) {
        URMA_LOG_ERR("query port: the JFR or jetty %p is not of this context\n", static_cast<void *>(q->jfr));
        return URMA_EINVAL;
    }
    bondp_query_port_out_t res;
    std::memset(&res, 0, sizeof(res));
    for (uint32_t i = 0; i < bond.members.size() && i < URMA_UBAGG_DEV_MAX_NUM; i++) {
        res.enabled_indices[res.enabled_count++] = i;
        if (bond.members[i].active)
            res.active_indices[res.active_count++] = i;
    }
    std::memcpy(reinterpret_cast<void *>(static_cast<uintptr_t>(out->addr)), &res, sizeof(res));
    return URMA_SUCCESS;
}

}  // namespace

extern "C" {

urma_status_t urma_user_ctl(urma_context_t *ctx, urma_user_ctl_in_t *in, urma_user_ctl_out_t *out)
{
    if (ctx == nullptr || ctx->dev == nullptr || in == nullptr || out == nullptr) {
        URMA_LOG_ERR("invalid argument: ctx %p in %p out %p\n", static_cast<void *>(ctx), static_cast<void *>(in),
                     static_cast<void *>(out));
        return URMA_EINVAL;
    }
    if (in->len != 0 && in->addr == 0) {
        URMA_LOG_ERR("user_ctl %u: %u input bytes at address 0\n", in->opcode, in->len);
        return URMA_EINVAL;
    }
    urma::BondState bond;
    if (in->opcode == BONDP_USER_CTL_QUERY_PORT && urma::read_bond(ctx->dev, &bond))
        return query_port(ctx, bond, in, out);
    URMA_LOG_ERR("%s: the provider has no command %u\n", ctx->dev->name, in->opcode);
    return URMA_ENOPERM;
}

}  // extern "C"
