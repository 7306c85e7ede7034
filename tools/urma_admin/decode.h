// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The UB/URMA stack authors
// The attributes of the "ubcore" family's replies (ubcore_netlink.h) into
// the model. Pure: it walks netlink attribute bytes itself, so the host
// tests feed it synthetic replies.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <vector>

#include "model.h"

namespace urma_admin {

// Attribute type -> payload (the top level of one message, or a nest).
using RawAttrs = std::map<int, std::vector<uint8_t>>;

// Walks netlink attributes (struct nlattr, 4-byte aligned); stops at the
// first malformed one.
RawAttrs parse_raw(const void *data, size_t len);

// Numeric attributes of any size (u8 .. u64) and flags (value 1).
NumAttrs decode_nums(const RawAttrs &raw);

// nullopt when a required attribute is missing or malformed.
std::optional<DeviceInfo> decode_device(const RawAttrs &raw);
std::optional<EidInfo> decode_eid(const RawAttrs &raw);
std::optional<Resource> decode_resource(const RawAttrs &raw);
std::optional<SystemInfo> decode_system(const RawAttrs &raw);

}  // namespace urma_admin
