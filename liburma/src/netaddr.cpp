// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The UB/URMA stack authors
// The network side of a context (UMDK's address calls): a udma device runs
// over one netdev (/sys/class/ubcore/<dev>/netdev), and in UBoE an EID is
// an IP address: IPv6 as it is, IPv4 mapped to ::ffff:a.b.c.d (the kernel
// fills the EID table from the netdev's addresses that way). So:
//  - urma_get_net_addr_list: the device's EIDs that are addresses of its
//    netdev, with the EID index, the prefix length and the netdev's MAC;
//  - urma_get_eid_by_ip / urma_get_ip_by_eid: that mapping, either way (it
//    holds for a peer's addresses as well as for ours);
//  - urma_get_smac: the netdev's MAC; urma_get_dmac: the neighbour table's
//    entry for the address on that netdev (rtnetlink), or the netdev's own
//    MAC for one of its own addresses or on a loopback netdev.
#include <arpa/inet.h>
#include <ifaddrs.h>
#include <linux/neighbour.h>
#include <linux/rtnetlink.h>
#include <net/if.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "log.h"
#include "urma_api.h"

namespace urma {
namespace {

bool valid_family(const urma_net_addr_t &a)
{
    return a.sin_family == AF_INET || a.sin_family == AF_INET6;
}

void eid_of(const urma_net_addr_t &a, urma_eid_t *eid)
{
    std::memset(eid, 0, sizeof(*eid));
    if (a.sin_family == AF_INET6) {
        std::memcpy(eid->raw, &a.in6, sizeof(eid->raw));
        return;
    }
    eid->raw[10] = 0xff;
    eid->raw[11] = 0xff;
    std::memcpy(&eid->raw[12], &a.in4, 4);
}

bool eid_is_v4_mapped(const urma_eid_t &eid)
{
    static const uint8_t prefix[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};
    return std::memcmp(eid.raw, prefix, sizeof(prefix)) == 0;
}

bool eid_is_zero(const urma_eid_t &eid)
{
    static const uint8_t zero[URMA_EID_SIZE] = {};
    return std::memcmp(eid.raw, zero, sizeof(zero)) == 0;
}

void ip_of(const urma_eid_t &eid, urma_net_addr_t *a)
{
    std::memset(a, 0, sizeof(*a));
    if (eid_is_v4_mapped(eid)) {
        a->sin_family = AF_INET;
        std::memcpy(&a->in4, &eid.raw[12], 4);
    } else {
        a->sin_family = AF_INET6;
        std::memcpy(&a->in6, eid.raw, sizeof(a->in6));
    }
}

bool same_ip(const urma_net_addr_t &a, const sockaddr *sa)
{
    if (sa == nullptr || sa->sa_family != a.sin_family)
        return false;
    if (a.sin_family == AF_INET)
        return std::memcmp(&reinterpret_cast<const sockaddr_in *>(sa)->sin_addr, &a.in4, 4) == 0;
    return std::memcmp(&reinterpret_cast<const sockaddr_in6 *>(sa)->sin6_addr, &a.in6, 16) == 0;
}

uint32_t prefix_len(const sockaddr *mask)
{
    const uint8_t *p;
    size_t n;
    if (mask == nullptr)
        return 0;
    if (mask->sa_family == AF_INET) {
        p = reinterpret_cast<const uint8_t *>(&reinterpret_cast<const sockaddr_in *>(mask)->sin_addr);
        n = 4;
    } else if (mask->sa_family == AF_INET6) {
        p = reinterpret_cast<const uint8_t *>(&reinterpret_cast<const sockaddr_in6 *>(mask)->sin6_addr);
        n = 16;
    } else {
        return 0;
    }
    uint32_t bits = 0;
    for (size_t i = 0; i < n; i++)
        bits += static_cast<uint32_t>(__builtin_popcount(p[i]));
    return bits;
}

// The name of the netdev the device runs over; "" (logged) if unknown.
std::string netdev_of(const urma_context_t *ctx)
{
    std::ifstream in(std::string("/sys/class/ubcore/") + ctx->dev->name + "/netdev");
    std::string name;
    if (!(in >> name) || name.empty())
        URMA_LOG_ERR("%s: cannot read its netdev from sysfs\n", ctx->dev->name);
    return name;
}

// The netdev's MAC from sysfs; false (logged) if unreadable.
bool netdev_mac(const std::string &netdev, uint8_t *mac)
{
    std::ifstream in("/sys/class/net/" + netdev + "/address");
    std::string text;
    unsigned int b[URMA_MAC_BYTES];
    if (!(in >> text) || std::sscanf(text.c_str(), "%x:%x:%x:%x:%x:%x", &b[0], &b[1], &b[2], &b[3], &b[4],
                                     &b[5]) != URMA_MAC_BYTES) {
        URMA_LOG_ERR("cannot read the MAC address of %s\n", netdev.c_str());
        return false;
    }
    for (int i = 0; i < URMA_MAC_BYTES; i++)
        mac[i] = static_cast<uint8_t>(b[i]);
    return true;
}

bool netdev_is_loopback(const std::string &netdev)
{
    std::ifstream in("/sys/class/net/" + netdev + "/flags");
    unsigned long flags = 0;
    in >> std::hex >> flags;
    return (flags & IFF_LOOPBACK) != 0;
}

// The ifaddrs entry of address a on netdev, or nullptr.
const ifaddrs *find_addr(const ifaddrs *list, const std::string &netdev, const urma_net_addr_t &a)
{
    for (const ifaddrs *i = list; i != nullptr; i = i->ifa_next) {
        if (netdev == i->ifa_name && same_ip(a, i->ifa_addr))
            return i;
    }
    return nullptr;
}

class IfAddrs {
public:
    IfAddrs()
    {
        if (getifaddrs(&list_) != 0)
            list_ = nullptr;
    }
    ~IfAddrs()
    {
        if (list_ != nullptr)
            freeifaddrs(list_);
    }
    IfAddrs(const IfAddrs &) = delete;
    IfAddrs &operator=(const IfAddrs &) = delete;
    const ifaddrs *get() const { return list_; }

private:
    ifaddrs *list_ = nullptr;
};

// The neighbour table's link-layer address of a on ifindex (a dump of
// RTM_GETNEIGH); 0, -ENOENT when there is no usable entry, or -errno.
int neigh_lookup(int ifindex, const urma_net_addr_t &a, uint8_t *mac)
{
    int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);
    if (fd < 0)
        return -errno;
    struct {
        nlmsghdr nh;
        ndmsg nd;
    } req = {};
    req.nh.nlmsg_len = sizeof(req);
    req.nh.nlmsg_type = RTM_GETNEIGH;
    req.nh.nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
    req.nh.nlmsg_seq = 1;
    req.nd.ndm_family = static_cast<uint8_t>(a.sin_family);
    int ret = -ENOENT;
    if (send(fd, &req, sizeof(req), 0) < 0) {
        ret = -errno;
        close(fd);
        return ret;
    }
    const size_t alen = a.sin_family == AF_INET ? 4 : 16;
    std::vector<char> buf(32768);
    bool done = false;
    while (!done) {
        ssize_t n = recv(fd, buf.data(), buf.size(), 0);
        if (n < 0) {
            ret = errno == EINTR ? ret : -errno;
            if (errno == EINTR)
                continue;
            break;
        }
        int len = static_cast<int>(n);
        for (auto *nh = reinterpret_cast<nlmsghdr *>(buf.data()); NLMSG_OK(nh, len); nh = NLMSG_NEXT(nh, len)) {
            if (nh->nlmsg_type == NLMSG_DONE || nh->nlmsg_type == NLMSG_ERROR) {
                done = true;
                break;
            }
            auto *nd = static_cast<ndmsg *>(NLMSG_DATA(nh));
            if (nd->ndm_ifindex != ifindex ||
                (nd->ndm_state & (NUD_REACHABLE | NUD_STALE | NUD_DELAY | NUD_PROBE | NUD_PERMANENT |
                                  NUD_NOARP)) == 0)
                continue;
            const uint8_t *dst = nullptr, *lladdr = nullptr;
            size_t lllen = 0;
            int alen_left = static_cast<int>(NLMSG_PAYLOAD(nh, sizeof(*nd)));
            for (auto *rta = reinterpret_cast<rtattr *>(reinterpret_cast<char *>(nd) + NLMSG_ALIGN(sizeof(*nd)));
                 RTA_OK(rta, alen_left); rta = RTA_NEXT(rta, alen_left)) {
                if (rta->rta_type == NDA_DST && RTA_PAYLOAD(rta) == alen)
                    dst = static_cast<const uint8_t *>(RTA_DATA(rta));
                else if (rta->rta_type == NDA_LLADDR) {
                    lladdr = static_cast<const uint8_t *>(RTA_DATA(rta));
                    lllen = RTA_PAYLOAD(rta);
                }
            }
            const void *want = a.sin_family == AF_INET ? static_cast<const void *>(&a.in4)
                                                       : static_cast<const void *>(&a.in6);
            if (dst != nullptr && lladdr != nullptr && lllen == URMA_MAC_BYTES &&
                std::memcmp(dst, want, alen) == 0) {
                std::memcpy(mac, lladdr, URMA_MAC_BYTES);
                ret = 0;
            }
        }
    }
    close(fd);
    return ret;
}

}  // namespace
}  // namespace urma

extern "C" {

urma_net_addr_info_t *urma_get_net_addr_list(urma_context_t *ctx, uint32_t *cnt)
{
    if (ctx == nullptr || ctx->dev == nullptr || cnt == nullptr) {
        URMA_LOG_ERR("invalid argument: ctx %p cnt %p\n", static_cast<void *>(ctx), static_cast<void *>(cnt));
        errno = EINVAL;
        return nullptr;
    }
    std::string netdev = urma::netdev_of(ctx);
    uint8_t mac[URMA_MAC_BYTES];
    if (netdev.empty() || !urma::netdev_mac(netdev, mac)) {
        errno = ENODEV;
        return nullptr;
    }
    uint32_t eid_cnt = 0;
    urma_eid_info_t *eids = urma_get_eid_list(ctx->dev, &eid_cnt);
    if (eids == nullptr) {
        URMA_LOG_ERR("%s has no EID\n", ctx->dev->name);
        errno = ENOENT;
        return nullptr;
    }
    urma::IfAddrs ifa;
    auto *list = static_cast<urma_net_addr_info_t *>(std::calloc(eid_cnt, sizeof(urma_net_addr_info_t)));
    if (list == nullptr) {
        urma_free_eid_list(eids);
        errno = ENOMEM;
        return nullptr;
    }
    uint32_t n = 0;
    for (uint32_t i = 0; i < eid_cnt; i++) {
        urma_net_addr_t a;
        urma::ip_of(eids[i].eid, &a);
        const ifaddrs *found = urma::find_addr(ifa.get(), netdev, a);
        if (found == nullptr)
            continue;  // an EID set by hand, not an address of the netdev
        a.prefix_len = urma::prefix_len(found->ifa_netmask);
        std::memcpy(a.mac, mac, sizeof(mac));
        list[n].netaddr = a;
        list[n].index = eids[i].eid_index;
        n++;
    }
    urma_free_eid_list(eids);
    if (n == 0) {
        std::free(list);
        URMA_LOG_ERR("%s: no EID is an address of %s\n", ctx->dev->name, netdev.c_str());
        errno = ENOENT;
        return nullptr;
    }
    *cnt = n;
    return list;
}

void urma_free_net_addr_list(urma_net_addr_info_t *net_addr_list)
{
    if (net_addr_list == nullptr) {
        URMA_LOG_ERR("net_addr_list is NULL\n");
        return;
    }
    std::free(net_addr_list);
}

urma_status_t urma_get_eid_by_ip(const urma_context_t *ctx, const urma_net_addr_t *net_addr, urma_eid_t *eid)
{
    if (ctx == nullptr || net_addr == nullptr || eid == nullptr) {
        URMA_LOG_ERR("invalid argument\n");
        return URMA_EINVAL;
    }
    if (!urma::valid_family(*net_addr)) {
        URMA_LOG_ERR("address family %d is neither AF_INET nor AF_INET6\n", net_addr->sin_family);
        return URMA_EINVAL;
    }
    urma_eid_t e;
    urma::eid_of(*net_addr, &e);
    if (urma::eid_is_zero(e) || (net_addr->sin_family == AF_INET && net_addr->in4.s_addr == INADDR_ANY)) {
        URMA_LOG_ERR("the unspecified address has no EID\n");
        return URMA_EINVAL;
    }
    *eid = e;
    return URMA_SUCCESS;
}

urma_status_t urma_get_ip_by_eid(const urma_context_t *ctx, const urma_eid_t *eid, urma_net_addr_t *net_addr)
{
    if (ctx == nullptr || eid == nullptr || net_addr == nullptr) {
        URMA_LOG_ERR("invalid argument\n");
        return URMA_EINVAL;
    }
    if (urma::eid_is_zero(*eid)) {
        URMA_LOG_ERR("the zero EID has no address\n");
        return URMA_EINVAL;
    }
    urma::ip_of(*eid, net_addr);
    return URMA_SUCCESS;
}

urma_status_t urma_get_smac(const urma_context_t *ctx, uint8_t *mac)
{
    if (ctx == nullptr || ctx->dev == nullptr || mac == nullptr) {
        URMA_LOG_ERR("invalid argument\n");
        return URMA_EINVAL;
    }
    std::string netdev = urma::netdev_of(ctx);
    if (netdev.empty() || !urma::netdev_mac(netdev, mac))
        return URMA_FAIL;
    return URMA_SUCCESS;
}

urma_status_t urma_get_dmac(const urma_context_t *ctx, const urma_net_addr_t *net_addr, uint8_t *mac)
{
    if (ctx == nullptr || ctx->dev == nullptr || net_addr == nullptr || mac == nullptr) {
        URMA_LOG_ERR("invalid argument\n");
        return URMA_EINVAL;
    }
    if (!urma::valid_family(*net_addr)) {
        URMA_LOG_ERR("address family %d is neither AF_INET nor AF_INET6\n", net_addr->sin_family);
        return URMA_EINVAL;
    }
    std::string netdev = urma::netdev_of(ctx);
    if (netdev.empty())
        return URMA_FAIL;
    urma::IfAddrs ifa;
    if (urma::netdev_is_loopback(netdev) || urma::find_addr(ifa.get(), netdev, *net_addr) != nullptr)
        return urma::netdev_mac(netdev, mac) ? URMA_SUCCESS : URMA_FAIL;
    int ifindex = static_cast<int>(if_nametoindex(netdev.c_str()));
    int ret = ifindex > 0 ? urma::neigh_lookup(ifindex, *net_addr, mac) : -ENODEV;
    if (ret != 0) {
        char text[INET6_ADDRSTRLEN] = "?";
        inet_ntop(net_addr->sin_family, &net_addr->in6, text, sizeof(text));
        URMA_LOG_ERR("%s: no neighbour entry for %s on %s: %s\n", ctx->dev->name, text, netdev.c_str(),
                     std::strerror(-ret));
        return ret == -ENOENT ? ENOENT : URMA_FAIL;  // errno-style, as the others
    }
    return URMA_SUCCESS;
}

}  // extern "C"
