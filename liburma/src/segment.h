// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The UB/URMA stack authors
// Segment rules as pure functions (host unit tests cover them).
#pragma once

#include "urma_types.h"

namespace urma {

// The access rules of the user guide (9.2): LOCAL_ONLY excludes the other
// bits; WRITE needs READ; ATOMIC needs READ and WRITE. Logs the reason.
bool seg_access_valid(uint32_t access);

// Checks of urma_register_seg's cfg (UMDK's): va and len non-zero, the
// access rules, token_id given exactly when token_id_valid says so.
bool seg_cfg_valid(const urma_seg_cfg_t &cfg);

// The attributes of a registered segment from its registration flags;
// user_token_id says whether the token id is the caller's (token_id_valid)
// or one the library allocated for it.
urma_seg_attr_t seg_attr_from_flag(urma_reg_seg_flag_t flag);

}  // namespace urma
