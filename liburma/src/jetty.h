// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The UB/URMA stack authors
// Checks and ABI conversions of JFS / JFR / jetty configurations: pure
// functions, so the host unit tests cover them without a kernel.
#pragma once

#include <ub/uburma_ioctl.h>

#include "urma_types.h"

namespace urma {

// Whether trans_mode is exactly one of RM, RC, UM.
bool trans_mode_valid(urma_transport_mode_t trans_mode);

// Checks of urma_create_jfs against the device's limits (UMDK's): depth in
// 1..max_jfs_depth, inline data, SGEs, a JFC, a transport mode, priority,
// retry and timeout in range. Logs the reason; false if invalid.
bool jfs_cfg_valid(const urma_jfs_cfg_t &cfg, const urma_device_cap_t &cap);
// Same for urma_create_jfr: depth in 1..max_jfr_depth, SGEs, a JFC, a mode.
bool jfr_cfg_valid(const urma_jfr_cfg_t &cfg, const urma_device_cap_t &cap);

void jfs_cfg_to_abi(const urma_jfs_cfg_t &cfg, uburma_jfs_cfg *out);
// The kernel's answer over a copy of the caller's cfg (keeps jfc, user_ctx).
void jfs_cfg_from_abi(const uburma_jfs_cfg &in, urma_jfs_cfg_t *cfg);
void jfr_cfg_to_abi(const urma_jfr_cfg_t &cfg, uburma_jfr_cfg *out);
// Keeps jfc, user_ctx and the token value, which the kernel does not return.
void jfr_cfg_from_abi(const uburma_jfr_cfg &in, urma_jfr_cfg_t *cfg);

}  // namespace urma
