// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The UB/URMA stack authors
// The process's view of the UB devices: one urma_device_t per device ever
// seen, kept until urma_uninit() so that pointers handed out stay valid.
#pragma once

#include <string>

#include <ub/uburma_ioctl.h>

#include "urma_types.h"

struct urma_sysfs_dev {
    std::string dev_name;
};

namespace urma {

// Rescans /sys/class/uburma; returns the number of devices present now.
int scan_devices();

// The registry's entry for dev, or nullptr if dev is not one of ours.
bool is_known_device(const urma_device_t *dev);

// Whether the uburma module is loaded at all.
bool uburma_present();

void clear_devices();

// The URMA view of a QUERY_DEVICE answer (zeroes *dev_attr first).
void fill_device_attr(const uburma_cmd_query_device &cmd, urma_device_attr_t *dev_attr);

}  // namespace urma
