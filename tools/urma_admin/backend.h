// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The UB/URMA stack authors
// What urma_admin asks of the kernel, one call per request. The netlink
// client (nl_client.h) implements it; the host tests put a fake behind it
// to check exit codes and messages.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "model.h"
#include "topo.h"

namespace urma_admin {

// The outcome of a request: 0 or a positive errno, and the kernel's
// extended ACK message when it gave one.
struct Status {
    int err = 0;
    std::string extack;

    bool ok() const { return err == 0; }
};

class Backend {
public:
    virtual ~Backend() = default;

    // Reaches ubcore; every other call needs it first.
    virtual Status connect() = 0;

    virtual Status list_devices(std::vector<DeviceInfo> *out) = 0;
    virtual Status get_device(const std::string &dev, DeviceInfo *out) = 0;
    virtual Status list_eids(const std::string &dev, std::vector<EidInfo> *out) = 0;
    // Every object of a kind, or with an ID those with it (segments of a
    // token ID).
    virtual Status list_resources(const std::string &dev, ResType type, std::optional<uint32_t> id,
                                  std::vector<Resource> *out) = 0;
    virtual Status get_resource(const std::string &dev, ResType type, uint32_t id, Resource *out) = 0;
    virtual Status system_get(SystemInfo *out) = 0;
    // The device's UBoE wire counters.
    virtual Status get_wire_stats(const std::string &dev, WireStats *out) = 0;

    virtual Status eid_add(const std::string &dev, uint32_t index, const Eid &eid) = 0;
    virtual Status eid_del(const std::string &dev, uint32_t index) = 0;
    virtual Status eid_set_mode(const std::string &dev, bool static_mode) = 0;
    virtual Status dev_add(const std::string &name, const std::string &netdev, const std::string &type) = 0;
    virtual Status dev_del(const std::string &name) = 0;
    // The namespace commands; netns is the path of a namespace file.
    virtual Status dev_set_ns(const std::string &dev, const std::string &netns) = 0;
    virtual Status dev_expose(const std::string &dev, const std::string &netns, bool expose) = 0;
    virtual Status eid_set_ns(const std::string &dev, uint32_t index, const std::string &netns) = 0;
    virtual Status set_dev_sharing(bool on) = 0;

    // The aggregation topology of the caller's namespace (ubagg.ko): every
    // node (UBAGG_GENL's GET_TOPO, node by node), and its replacement
    // (/dev/ubagg; no node removes it).
    virtual Status topo_get(TopoNodes *out) = 0;
    virtual Status topo_set(const TopoNodes &nodes) = 0;
    // Bonding devices (/dev/ubagg's CREATE_DEV with the mode, DELETE_DEV),
    // and what one is now: ENOENT when @dev is not a bonding device.
    virtual Status agg_add(const Eid &eid, const std::string &name, uint32_t mode) = 0;
    virtual Status agg_del(const Eid &eid) = 0;
    virtual Status bond_info(const std::string &dev, BondInfo *out) = 0;
};

}  // namespace urma_admin
