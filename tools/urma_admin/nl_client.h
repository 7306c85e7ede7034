// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The UB/URMA stack authors
// The Backend over the "ubcore" generic netlink family (libnl-genl-3), with
// extended ACKs on so that the kernel's reason reaches the error line.
#pragma once

#include <netlink/handlers.h>
#include <netlink/msg.h>
#include <netlink/socket.h>

#include <cstdint>
#include <functional>
#include <memory>

#include "backend.h"
#include "decode.h"

namespace urma_admin {

class NlClient : public Backend {
public:
    Status connect() override;
    Status list_devices(std::vector<DeviceInfo> *out) override;
    Status get_device(const std::string &dev, DeviceInfo *out) override;
    Status list_eids(const std::string &dev, std::vector<EidInfo> *out) override;
    Status list_resources(const std::string &dev, ResType type, std::optional<uint32_t> id,
                          std::vector<Resource> *out) override;
    Status get_resource(const std::string &dev, ResType type, uint32_t id, Resource *out) override;
    Status system_get(SystemInfo *out) override;
    // From sysfs (/sys/class/ubcore/<dev>/wire/), not from netlink.
    Status get_wire_stats(const std::string &dev, WireStats *out) override;
    Status eid_add(const std::string &dev, uint32_t index, const Eid &eid) override;
    Status eid_del(const std::string &dev, uint32_t index) override;
    Status eid_set_mode(const std::string &dev, bool static_mode) override;
    Status dev_add(const std::string &name, const std::string &netdev, const std::string &type) override;
    Status dev_del(const std::string &name) override;
    Status dev_set_ns(const std::string &dev, const std::string &netns) override;
    Status dev_expose(const std::string &dev, const std::string &netns, bool expose) override;
    Status eid_set_ns(const std::string &dev, uint32_t index, const std::string &netns) override;
    Status set_dev_sharing(bool on) override;
    // ubagg_client.cpp
    Status topo_get(TopoNodes *out) override;
    Status topo_set(const TopoNodes &nodes) override;
    Status agg_add(const Eid &eid, const std::string &name, uint32_t mode) override;
    Status agg_del(const Eid &eid) override;
    // From sysfs (/sys/class/ubcore/<dev>/bond/).
    Status bond_info(const std::string &dev, BondInfo *out) override;

    // What a request got back: the outcome and the top-level attributes of
    // each message.
    struct Reply {
        Status status;
        std::vector<RawAttrs> msgs;
    };

private:
    struct SockFree {
        void operator()(nl_sock *s) const { nl_socket_free(s); }
    };
    // Adds a request's attributes; false when the message is full.
    using Builder = std::function<bool(nl_msg *)>;

    Reply request(uint8_t cmd, bool dump, const Builder &build);
    // The same to another generic netlink family.
    Reply request_to(int family, uint8_t version, uint8_t cmd, bool dump, const Builder &build);
    // A request without reply messages (the admin commands).
    Status command(uint8_t cmd, const Builder &build);
    // A command that names network namespace file netns by an fd.
    Status ns_command(uint8_t cmd, const std::string &netns, const Builder &build);

    std::unique_ptr<nl_sock, SockFree> sk_;
    int family_ = -1;
    int ubagg_family_ = -1;  // resolved at the first topology request
};

}  // namespace urma_admin
