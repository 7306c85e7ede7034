// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The UB/URMA stack authors
// urma_admin's output: the device table, a device's every attribute
// (--whole), object tables and details, the system's facts. Pure text
// from the model, so the host tests check it without a kernel.
#pragma once

#include <string>
#include <vector>

#include "model.h"

namespace urma_admin {

// Left-aligned columns two spaces apart, no trailing blanks.
class Table {
public:
    explicit Table(std::vector<std::string> header) : rows_{std::move(header)} {}
    void add(std::vector<std::string> row) { rows_.push_back(std::move(row)); }
    std::string str() const;

private:
    std::vector<std::vector<std::string>> rows_;
};

std::string port_state_name(uint8_t state);
std::string eid_mode_name(uint8_t mode);
// A JFS's or jetty's state, a JFR's state (their values differ).
std::string jetty_state_name(uint8_t state);
std::string jfr_state_name(uint8_t state);

// show: one line per device.
std::string format_device_table(const std::vector<DeviceInfo> &devs);
// show --whole: every attribute, EID and object count of a device.
std::string format_device_whole(const DeviceInfo &dev);
// show dev <dev> <kind>: one line per object.
std::string format_resource_table(ResType type, const std::vector<Resource> &res);
// show dev <dev> <kind> <ID>: every attribute of one object.
std::string format_resource_detail(const Resource &res);
// system show.
std::string format_system(const SystemInfo &sys);

}  // namespace urma_admin
