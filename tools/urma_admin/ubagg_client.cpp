// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The UB/URMA stack authors
// NlClient's topology requests to ubagg.ko, with UMDK's ABI
// (include/uapi/ub/ubagg_topo.h): GET_TOPO of "UBAGG_GENL" for each node,
// which the kernel writes into our memory at the address the request
// names; the replacement, and the bonding devices' creation and deletion,
// through /dev/ubagg's ioctl.
#include <fcntl.h>
#include <netlink/attr.h>
#include <netlink/genl/ctrl.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <memory>

#include "bond_info.h"
#include "nl_client.h"
#include "wire_stats.h"

namespace urma_admin {

namespace {

constexpr const char *kUbaggDev = "/dev/ubagg";

struct Fd {
    int fd;
    explicit Fd(int f) : fd(f) {}
    ~Fd()
    {
        if (fd >= 0)
            close(fd);
    }
    Fd(const Fd &) = delete;
    Fd &operator=(const Fd &) = delete;
};

}  // namespace

Status NlClient::topo_get(TopoNodes *out)
{
    if (ubagg_family_ < 0) {
        ubagg_family_ = genl_ctrl_resolve(sk_.get(), UBAGG_GENL_FAMILY_NAME);
        if (ubagg_family_ < 0)
            return Status{ENOENT, "no generic netlink family \"" UBAGG_GENL_FAMILY_NAME "\" (is ubagg.ko loaded?)"};
    }
    out->clear();
    // One node per request, until the node count the first answer gives.
    uint32_t node_num = 1;
    for (uint32_t i = 0; i < node_num; i++) {
        auto arg = std::make_unique<ubagg_nl_topo_info>();
        std::memset(arg.get(), 0, sizeof(*arg));
        arg->in.node_idx = static_cast<int32_t>(i);
        const uint64_t addr = reinterpret_cast<uintptr_t>(arg.get());
        Reply r = request_to(ubagg_family_, UBAGG_GENL_FAMILY_VERSION, UBAGG_NL_GET_TOPO, false,
                             [&](nl_msg *m) { return nla_put_u64(m, UBAGG_HDR_ARGS_ADDR, addr) == 0; });
        if (r.status.err == ENXIO && r.status.extack.empty())
            r.status.extack = "no topology is set in this network namespace";
        if (!r.status.ok())
            return r.status;
        if (arg->out.node_num == 0 || arg->out.node_num > UBAGG_MAX_NODE_NUM)
            return Status{EPROTO, "the kernel gave a node count of " + std::to_string(arg->out.node_num)};
        if (i == 0)
            node_num = arg->out.node_num;
        out->push_back(arg->out.topo_info);
    }
    return Status{};
}

namespace {

// One /dev/ubagg command with its argument.
Status ubagg_cmd(uint32_t command, void *arg, uint32_t len)
{
    Fd dev(open(kUbaggDev, O_RDWR | O_CLOEXEC));
    if (dev.fd < 0)
        return Status{errno, std::string("cannot open ") + kUbaggDev + (errno == ENOENT ? " (is ubagg.ko loaded?)" : "")};
    ubagg_cmd_hdr hdr{};
    hdr.command = command;
    hdr.args_len = len;
    hdr.args_addr = reinterpret_cast<uintptr_t>(arg);
    if (ioctl(dev.fd, UBAGG_CMD, &hdr) != 0)
        return Status{errno, ""};
    return Status{};
}

}  // namespace

Status NlClient::topo_set(const TopoNodes &nodes)
{
    ubagg_set_topo_arg arg{};
    arg.topo = reinterpret_cast<uintptr_t>(nodes.data());
    arg.topo_num = static_cast<uint32_t>(nodes.size());
    return ubagg_cmd(UBAGG_CMD_SET_TOPO_INFO, &arg, sizeof(arg));
}

Status NlClient::agg_add(const Eid &eid, const std::string &name, uint32_t mode)
{
    ubagg_create_dev_mode_arg arg{};
    std::memcpy(arg.agg_eid, eid.data(), sizeof(arg.agg_eid));
    if (name.size() >= sizeof(arg.dev_name))
        return Status{EINVAL, "device name too long"};
    std::memcpy(arg.dev_name, name.data(), name.size());
    arg.mode = mode;
    Status st = ubagg_cmd(UBAGG_CMD_CREATE_DEV, &arg, sizeof(arg));
    if (st.err == ENXIO && st.extack.empty())
        st.extack = "no topology is set in this network namespace";
    else if (st.err == ENOENT && st.extack.empty())
        st.extack = "the current node has no aggregated device with that EID, or a UE's primary EID is on no device";
    return st;
}

Status NlClient::agg_del(const Eid &eid)
{
    ubagg_delete_dev_arg arg{};
    std::memcpy(arg.agg_eid, eid.data(), sizeof(arg.agg_eid));
    Status st = ubagg_cmd(UBAGG_CMD_DELETE_DEV, &arg, sizeof(arg));
    if (st.err == ENOENT && st.extack.empty())
        st.extack = "no bonding device has that EID";
    return st;
}

Status NlClient::bond_info(const std::string &dev, BondInfo *out)
{
    return read_bond_info(kUbcoreClassDir, dev, out);
}

}  // namespace urma_admin
