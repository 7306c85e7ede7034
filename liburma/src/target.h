// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The UB/URMA stack authors
// Private wrappers of segments and imported targets: the index the kernel
// gave an import (struct udma_import_resp), which SQEs use to name it
// (rseg_idx, target_idx). Registered segments use the same wrapper with
// target_idx 0, so any urma_target_seg_t the API hands out is one.
#pragma once

#include <cstdint>

#include "object.h"
#include "urma_types.h"

namespace urma {

struct TargetSegImpl {
    urma_target_seg_t pub;
    uint32_t target_idx;  // imported: never 0; registered: 0
};

struct TargetJettyImpl {
    urma_target_jetty_t pub;
    uint32_t target_idx;  // never 0
};

// The SQE index of an imported segment, or 0 for one that is not imported
// (a registered one, which cannot be a remote operand).
inline uint32_t rseg_idx_of(const urma_target_seg_t *tseg)
{
    if (tseg == nullptr || tseg->token_id != nullptr)
        return 0;
    return from_pub<const TargetSegImpl>(tseg)->target_idx;
}

inline uint32_t target_idx_of(const urma_target_jetty_t *tjetty)
{
    return tjetty == nullptr ? 0 : from_pub<const TargetJettyImpl>(tjetty)->target_idx;
}

// import.cpp: an import of a JFR (command UBURMA_CMD_IMPORT_JFR) or a jetty
// (UBURMA_CMD_IMPORT_JETTY); with active, on that TP (urma_import_*_ex).
// NULL with errno on failure.
urma_target_jetty_t *import_target(urma_context_t *ctx, uint32_t command, const urma_jetty_id_t &id,
                                   urma_transport_mode_t trans_mode, urma_target_type_t type,
                                   urma_import_jetty_flag_t flag, urma_jetty_grp_policy_t policy,
                                   urma_tp_type_t tp_type, const urma_token_t *token_value,
                                   const urma_active_tp_cfg_t *active);

}  // namespace urma
