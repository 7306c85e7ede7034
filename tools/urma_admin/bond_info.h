// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The UB/URMA stack authors
// Bonding devices as ubcore shows them in /sys/class/ubcore/<dev>/bond/
// (mode, peers, members: "<dev> up|down active|inactive <packets>" a line),
// and "agg show"'s text.
#pragma once

#include <string>

#include "backend.h"
#include "model.h"

namespace urma_admin {

// Reads <class_dir>/<dev>/bond/. ENODEV: no such device; ENOENT: not a
// bonding device; EIO: a file that does not read as it should (the extack
// names it).
Status read_bond_info(const std::string &class_dir, const std::string &dev, BondInfo *out);

// One device: "<dev> eid <eid> mode <mode> peers <n>", then a line per
// member.
std::string format_bond(const std::string &dev, const Eid *eid, const BondInfo &info);

}  // namespace urma_admin
