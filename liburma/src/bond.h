// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The UB/URMA stack authors
// Bonding devices as liburma sees them: a UB device whose sysfs directory
// has bond/ (ubcore, include/ub/ubcore_bond.h). Its jetties are ordinary
// jetties of the device: the kernel spreads their packets over the
// members, so liburma only reports the device's mode and members.
#pragma once

#include <cstdint>
#include <vector>

#include "urma_types.h"

namespace urma {

struct BondMember {
    bool up = false;
    bool active = false;  // the mode sends through it now
};

struct BondState {
    urma_context_aggr_mode_t mode = URMA_AGGR_MODE_STANDALONE;
    std::vector<BondMember> members;
};

// Reads <dev->path>/bond/; false when dev is no bonding device (or its
// files do not read as ubcore writes them).
bool read_bond(const urma_device_t *dev, BondState *out);

}  // namespace urma
