// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The UB/URMA stack authors
// NlClient's topology requests to ubagg.ko, with UMDK's ABI
// (include/uapi/ub/ubagg_topo.h): GET_TOPO of "UBAGG_GENL" for each node,
// which the kernel writes into our memory at the address the request
// names; the replacement through /dev/ubagg's ioctl.
#include <fcntl.h>
#include <netlink/attr.h>
#include <netlink/genl/ctrl.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <memory>

#include "nl_client.h"

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

Status NlClient::topo_set(const TopoNodes &nodes)
{
    Fd dev(open(kUbaggDev, O_RDWR | O_CLOEXEC));
    if (dev.fd < 0)
        return Status{errno, std::string("cannot open ") + kUbaggDev + (errno == ENOENT ? " (is ubagg.ko loaded?)" : "")};
    ubagg_set_topo_arg arg{};
    arg.topo = reinterpret_cast<uintptr_t>(nodes.data());
    arg.topo_num = static_cast<uint32_t>(nodes.size());
    ubagg_cmd_hdr hdr{};
    hdr.command = UBAGG_CMD_SET_TOPO_INFO;
    hdr.args_len = sizeof(arg);
    hdr.args_addr = reinterpret_cast<uintptr_t>(&arg);
    if (ioctl(dev.fd, UBAGG_CMD, &hdr) != 0)
        return Status{errno, ""};
    return Status{};
}

}  // namespace urma_admin
