// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The UB/URMA stack authors
#include "bond.h"

#include <ub/ubagg_topo.h>

#include <fstream>
#include <sstream>
#include <string>

namespace urma {

static_assert(URMA_AGGR_MODE_STANDALONE == static_cast<int>(UBAGG_BOND_STANDALONE) &&
                  URMA_AGGR_MODE_ACTIVE_BACKUP == static_cast<int>(UBAGG_BOND_ACTIVE_BACKUP) &&
                  URMA_AGGR_MODE_BALANCE == static_cast<int>(UBAGG_BOND_BALANCE),
              "urma_context_aggr_mode_t is enum ubagg_bond_mode");

bool read_bond(const urma_device_t *dev, BondState *out)
{
    const std::string dir = std::string(dev->path) + "/bond/";
    std::ifstream mode_in(dir + "mode"), members_in(dir + "members");
    std::string mode;

    if (!mode_in || !members_in || !std::getline(mode_in, mode))
        return false;
    if (mode == "standalone")
        out->mode = URMA_AGGR_MODE_STANDALONE;
    else if (mode == "active_backup")
        out->mode = URMA_AGGR_MODE_ACTIVE_BACKUP;
    else if (mode == "balance")
        out->mode = URMA_AGGR_MODE_BALANCE;
    else
        return false;
    out->members.clear();
    // "<dev> up|down active|inactive <packets>"
    for (std::string line; std::getline(members_in, line);) {
        std::istringstream f(line);
        std::string name, up, active;
        if (!(f >> name >> up >> active))
            return false;
        out->members.push_back(BondMember{up == "up", active == "active"});
    }
    return !out->members.empty();
}

}  // namespace urma
