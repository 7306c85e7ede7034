// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The UB/URMA stack authors
// The calls of UMDK's API that this stack does not support yet, so that an
// application naming them links and learns so at run time: each checks its
// arguments as UMDK does (URMA_EINVAL), then refuses with URMA_ENOPERM
// (NULL with errno EPERM, or a negative value, where the call returns
// those) and a log line saying why.
//  - the TP-aware calls that set up or change a TP's attributes (user and
//    control-plane TPs): TPs are made and driven only by ubcore's
//    connection manager (docs/connection-manager.md). urma_get_tp_list and
//    the *_ex imports and bind are in tp.cpp.
#include <cerrno>

#include "log.h"
#include "urma_api.h"

namespace {

const char kNoTp[] = "the transport layer's TPs are made and driven by the kernel's connection manager only";

}  // namespace

extern "C" {

/* ------------------------------------------------------------ TP-aware */

int urma_get_tpn(urma_jetty_t *jetty)
{
    if (jetty == nullptr) {
        URMA_LOG_ERR("jetty is NULL\n");
        return -URMA_EINVAL;
    }
    URMA_LOG_ERR("get_tpn: %s\n", kNoTp);
    return -URMA_ENOPERM;
}

int urma_modify_tp(urma_context_t *ctx, uint32_t tpn, urma_tp_cfg_t *cfg, urma_tp_attr_t *attr,
                   urma_tp_attr_mask_t mask)
{
    (void)mask;
    if (ctx == nullptr || cfg == nullptr || attr == nullptr) {
        URMA_LOG_ERR("invalid argument\n");
        return URMA_EINVAL;
    }
    URMA_LOG_ERR("modify_tp %u: %s\n", tpn, kNoTp);
    return URMA_ENOPERM;
}

urma_status_t urma_set_tp_attr(const urma_context_t *ctx, const uint64_t tp_handle, const uint8_t tp_attr_cnt,
                               const uint32_t tp_attr_bitmap, const urma_tp_attr_value_t *tp_attr)
{
    (void)tp_attr_cnt;
    (void)tp_attr_bitmap;
    if (ctx == nullptr || tp_attr == nullptr) {
        URMA_LOG_ERR("invalid argument\n");
        return URMA_EINVAL;
    }
    URMA_LOG_ERR("set_tp_attr 0x%llx: %s\n", static_cast<unsigned long long>(tp_handle), kNoTp);
    return URMA_ENOPERM;
}

urma_status_t urma_get_tp_attr(const urma_context_t *ctx, const uint64_t tp_handle, uint8_t *tp_attr_cnt,
                               uint32_t *tp_attr_bitmap, urma_tp_attr_value_t *tp_attr)
{
    if (ctx == nullptr || tp_attr_cnt == nullptr || tp_attr_bitmap == nullptr || tp_attr == nullptr) {
        URMA_LOG_ERR("invalid argument\n");
        return URMA_EINVAL;
    }
    URMA_LOG_ERR("get_tp_attr 0x%llx: %s\n", static_cast<unsigned long long>(tp_handle), kNoTp);
    return URMA_ENOPERM;
}

}  // extern "C"
