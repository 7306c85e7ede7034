// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The UB/URMA stack authors
// What urma_admin knows about devices, EIDs, objects and the system: the
// replies of the "ubcore" netlink family, decoded (decode.h), ready to be
// formatted (format.h). Numeric attributes are kept by their uapi attribute
// type (UBCORE_NL_CAP_*, UBCORE_NL_OBJ_*, UBCORE_NL_RES_*), so that the
// formatter shows what the kernel sent and nothing it did not.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace urma_admin {

using Eid = std::array<uint8_t, 16>;

// Attribute type -> value; a flag attribute has the value 1.
using NumAttrs = std::map<int, uint64_t>;

struct EidInfo {
    uint32_t index = 0;
    Eid eid{};
    bool is_static = false;
};

struct DeviceInfo {
    std::string name;
    std::string driver;
    std::string netdev;  // empty: not bound
    bool logical = false;  // a logical device (user guide 6.3.1)
    uint8_t eid_mode = 0;
    uint8_t port_state = 0;
    uint32_t active_mtu = 0;
    NumAttrs caps;  // UBCORE_NL_CAP_*
    NumAttrs objs;  // UBCORE_NL_OBJ_*
    std::vector<EidInfo> eids;
};

// The kinds of objects of "show dev <dev> <kind>"; values as
// enum ubcore_nl_res_type.
enum class ResType : uint8_t { Jfc = 0, Jfs, Jfr, Jetty, Seg, Tp };

struct Resource {
    ResType type = ResType::Jfc;
    NumAttrs attrs;          // UBCORE_NL_RES_*
    std::optional<Eid> eid;  // UBCORE_NL_RES_EID (segments)

    bool has(int attr) const { return attrs.count(attr) != 0; }
    uint64_t get(int attr) const
    {
        auto it = attrs.find(attr);
        return it == attrs.end() ? 0 : it->second;
    }
};

// A device's UBoE counters (sysfs wire/): counter name -> value.
struct WireStats {
    std::map<std::string, uint64_t> counters;
};

// A bonding device (sysfs bond/): its mode (enum ubagg_bond_mode), the
// peer bonding EIDs it has addresses of, and its members in order.
struct BondMember {
    std::string name;
    bool up = false;
    bool active = false;  // the mode sends through it now
    uint64_t tx_packets = 0;
};

struct BondInfo {
    uint32_t mode = 0;
    uint32_t peers = 0;
    std::vector<BondMember> members;
};

struct SystemInfo {
    uint32_t dev_count = 0;
    uint8_t ns_mode = 0;
    uint32_t nl_version = 0;
    uint32_t abi_version = 0;
    std::optional<bool> dev_sharing;  // automatic mode, when the kernel says
};

}  // namespace urma_admin
