// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The UB/URMA stack authors
// The calls of UMDK's API that this stack does not support yet, so that an
// application naming them links and learns so at run time: each checks its
// arguments as UMDK does (URMA_EINVAL), then refuses with URMA_ENOPERM
// (NULL with errno EPERM, or a negative value, where the call returns
// those) and a log line saying why.
//  - TP-aware calls (user and control-plane TPs): they name transport
//    channels (TPs) of udma's transport layer, which does not exist yet;
//    every message goes through the one-host path.
#include <cerrno>

#include "log.h"
#include "urma_api.h"

namespace {

const char kNoTp[] = "the transport layer (TPs) of udma does not exist yet";

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
    URMA_LOG_ERR("get_tp_list: %s\n", kNoTp);
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

urma_target_jetty_t *urma_import_jfr_ex(urma_context_t *ctx, urma_rjfr_t *rjfr, urma_token_t *token_value,
                                        urma_import_jfr_ex_cfg_t *cfg)
{
    (void)token_value;
    if (ctx == nullptr || rjfr == nullptr || cfg == nullptr) {
        URMA_LOG_ERR("invalid argument\n");
        errno = EINVAL;
        return nullptr;
    }
    URMA_LOG_ERR("import_jfr_ex: %s\n", kNoTp);
    errno = EPERM;
    return nullptr;
}

urma_target_jetty_t *urma_import_jetty_ex(urma_context_t *ctx, urma_rjetty_t *rjetty, urma_token_t *token_value,
                                          urma_import_jetty_ex_cfg_t *cfg)
{
    (void)token_value;
    if (ctx == nullptr || rjetty == nullptr || cfg == nullptr) {
        URMA_LOG_ERR("invalid argument\n");
        errno = EINVAL;
        return nullptr;
    }
    URMA_LOG_ERR("import_jetty_ex: %s\n", kNoTp);
    errno = EPERM;
    return nullptr;
}

urma_status_t urma_bind_jetty_ex(urma_jetty_t *jetty, urma_target_jetty_t *tjetty, urma_bind_jetty_ex_cfg_t *cfg)
{
    if (jetty == nullptr || tjetty == nullptr || cfg == nullptr) {
        URMA_LOG_ERR("invalid argument\n");
        return URMA_EINVAL;
    }
    URMA_LOG_ERR("bind_jetty_ex: %s\n", kNoTp);
    return URMA_ENOPERM;
}

}  // extern "C"
