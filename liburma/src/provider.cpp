// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The UB/URMA stack authors
// Context options and the provider pass-through (urma_set_context_opt,
// urma_user_ctl), with UMDK's checks and statuses. The one context option,
// URMA_OPT_AGGR_MODE, is for aggregated (bonding) devices, which UMDK
// refuses on any other device with URMA_EINVAL; udma devices are never
// aggregated. urma_user_ctl hands a command to the provider; UMDK returns
// the provider's URMA_ENOPERM for a command it does not know unchanged,
// and udma knows none yet (the aggregation work adds its commands here).
#include "log.h"
#include "urma_api.h"

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
        URMA_LOG_ERR("%s is not an aggregated device: no aggregation mode to set\n", ctx->dev->name);
        return URMA_EINVAL;
    default:
        URMA_LOG_ERR("context option %d unknown\n", static_cast<int>(opt_name));
        return URMA_EINVAL;
    }
}

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
    URMA_LOG_ERR("%s: the udma provider has no command %u\n", ctx->dev->name, in->opcode);
    return URMA_ENOPERM;
}

}  // extern "C"
