// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The UB/URMA stack authors
// "show dev <dev> --stats": a device's UBoE wire counters, as the provider
// shows them in /sys/class/ubcore/<dev>/wire/ (one file per counter: the
// traffic counters and one per drop reason, docs/uboe-wire.md).
#pragma once

#include <string>

#include "backend.h"
#include "model.h"

namespace urma_admin {

// Where the devices' sysfs directories are.
constexpr const char *kUbcoreClassDir = "/sys/class/ubcore";

// Reads every counter file of <class_dir>/<dev>/wire. ENODEV: no such
// device; EOPNOTSUPP: the device has no wire/ (its provider keeps none);
// EIO: a file that does not hold one decimal number (the extack names it).
Status read_wire_stats(const std::string &class_dir, const std::string &dev, WireStats *out);

// The counters, one "name: value" line each: the traffic counters in a
// fixed order, then the drop reasons by name.
std::string format_wire_stats(const std::string &dev, const WireStats &stats);

}  // namespace urma_admin
