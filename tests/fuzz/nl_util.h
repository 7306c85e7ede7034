// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The UB/URMA stack authors
// Raw generic netlink for the fuzzers and the fault-injection driver: a
// socket, attribute building, the "ubcore" family's ID, one request.
#pragma once

#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include <ub/ubcore_netlink.h>

namespace ub_fuzz {

using Bytes = std::vector<uint8_t>;

inline void put_attr(Bytes &b, uint16_t type, const void *data, size_t len)
{
    nlattr a = {static_cast<uint16_t>(NLA_HDRLEN + len), type};
    const auto *p = reinterpret_cast<const uint8_t *>(&a);
    b.insert(b.end(), p, p + sizeof(a));
    const auto *d = static_cast<const uint8_t *>(data);
    b.insert(b.end(), d, d + len);
    b.resize(NLA_ALIGN(b.size()), 0);
}

// A netlink socket of the family, with the reply loop.
class NlSock {
public:
    NlSock()
    {
        fd_ = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_GENERIC);
        if (fd_ >= 0) {
            sockaddr_nl sa = {};
            sa.nl_family = AF_NETLINK;
            bind(fd_, reinterpret_cast<sockaddr *>(&sa), sizeof(sa));
        }
    }
    ~NlSock()
    {
        if (fd_ >= 0)
            close(fd_);
    }
    NlSock(const NlSock &) = delete;
    NlSock &operator=(const NlSock &) = delete;
    int fd() const { return fd_; }

    bool send(const Bytes &m)
    {
        sockaddr_nl sa = {};
        sa.nl_family = AF_NETLINK;
        return sendto(fd_, m.data(), m.size(), 0, reinterpret_cast<sockaddr *>(&sa), sizeof(sa)) >= 0;
    }

    // Receives one datagram within timeout_ms; empty on timeout.
    Bytes recv(int timeout_ms)
    {
        pollfd p = {fd_, POLLIN, 0};
        if (poll(&p, 1, timeout_ms) <= 0)
            return {};
        Bytes buf(65536);
        ssize_t n = ::recv(fd_, buf.data(), buf.size(), MSG_DONTWAIT);
        if (n <= 0)
            return {};
        buf.resize(static_cast<size_t>(n));
        return buf;
    }

private:
    int fd_ = -1;
};

// The family's ID from the controller (CTRL_CMD_GETFAMILY); 0 if none.
inline uint16_t family_id()
{
    NlSock s;
    Bytes m(NLMSG_HDRLEN + GENL_HDRLEN, 0);
    put_attr(m, CTRL_ATTR_FAMILY_NAME, UBCORE_GENL_FAMILY_NAME, sizeof(UBCORE_GENL_FAMILY_NAME));
    auto *nh = reinterpret_cast<nlmsghdr *>(m.data());
    nh->nlmsg_len = static_cast<uint32_t>(m.size());
    nh->nlmsg_type = GENL_ID_CTRL;
    nh->nlmsg_flags = NLM_F_REQUEST;
    auto *gh = reinterpret_cast<genlmsghdr *>(m.data() + NLMSG_HDRLEN);
    gh->cmd = CTRL_CMD_GETFAMILY;
    gh->version = 1;
    if (!s.send(m))
        return 0;
    Bytes r = s.recv(2000);
    if (r.size() < NLMSG_HDRLEN + GENL_HDRLEN)
        return 0;
    auto *rh = reinterpret_cast<nlmsghdr *>(r.data());
    if (rh->nlmsg_type == NLMSG_ERROR)
        return 0;
    size_t off = NLMSG_HDRLEN + GENL_HDRLEN;
    while (off + NLA_HDRLEN <= std::min<size_t>(r.size(), rh->nlmsg_len)) {
        auto *a = reinterpret_cast<nlattr *>(r.data() + off);
        if (a->nla_len < NLA_HDRLEN)
            break;
        if ((a->nla_type & NLA_TYPE_MASK) == CTRL_ATTR_FAMILY_ID && a->nla_len >= NLA_HDRLEN + 2) {
            uint16_t id;
            std::memcpy(&id, r.data() + off + NLA_HDRLEN, 2);
            return id;
        }
        off += NLA_ALIGN(a->nla_len);
    }
    return 0;
}


// A genl message of the family: header, command, then attributes appended
// with put_attr; finish() sets the length.
inline Bytes genl_msg(uint16_t fam, uint8_t cmd, uint16_t flags)
{
    Bytes m(NLMSG_HDRLEN + GENL_HDRLEN, 0);
    auto *nh = reinterpret_cast<nlmsghdr *>(m.data());
    nh->nlmsg_type = fam;
    nh->nlmsg_flags = static_cast<uint16_t>(NLM_F_REQUEST | flags);
    nh->nlmsg_seq = 1;
    auto *gh = reinterpret_cast<genlmsghdr *>(m.data() + NLMSG_HDRLEN);
    gh->cmd = cmd;
    gh->version = UBCORE_GENL_FAMILY_VERSION;
    return m;
}

inline void put_str(Bytes &m, uint16_t type, const std::string &s)
{
    put_attr(m, type, s.c_str(), s.size() + 1);
}

// Sends m (a do with NLM_F_ACK, or a dump) and reads until its ACK, error
// or NLMSG_DONE. Returns 0, the negative errno of the reply, the negative
// errno of send/recv, or -ETIMEDOUT; *msgs counts data messages.
inline int nl_request(Bytes m, size_t *msgs = nullptr)
{
    reinterpret_cast<nlmsghdr *>(m.data())->nlmsg_len = static_cast<uint32_t>(m.size());
    NlSock s;
    if (s.fd() < 0)
        return -errno;
    if (!s.send(m))
        return -errno;
    const bool dump = (reinterpret_cast<nlmsghdr *>(m.data())->nlmsg_flags & NLM_F_DUMP) == NLM_F_DUMP;
    for (int rounds = 0; rounds < 1000; rounds++) {
        Bytes r = s.recv(3000);
        if (r.empty())
            return -ETIMEDOUT;
        size_t off = 0;
        while (off + NLMSG_HDRLEN <= r.size()) {
            auto *nh = reinterpret_cast<nlmsghdr *>(r.data() + off);
            if (nh->nlmsg_len < NLMSG_HDRLEN || off + nh->nlmsg_len > r.size())
                return -EBADMSG;
            if (nh->nlmsg_type == NLMSG_ERROR || nh->nlmsg_type == NLMSG_DONE) {
                int err = 0;
                if (nh->nlmsg_len >= NLMSG_HDRLEN + sizeof(int))
                    std::memcpy(&err, r.data() + off + NLMSG_HDRLEN, sizeof(int));
                if (nh->nlmsg_type == NLMSG_DONE || !dump || err != 0)
                    return err;
            } else if (msgs != nullptr) {
                (*msgs)++;
            }
            off += NLMSG_ALIGN(nh->nlmsg_len);
        }
    }
    return -ETIMEDOUT;
}

// Whether a dump (m, with NLM_F_DUMP) has a message whose top-level u32
// attribute attr is value; false also when the dump fails.
inline bool nl_dump_has_u32(Bytes m, uint16_t attr, uint32_t value)
{
    reinterpret_cast<nlmsghdr *>(m.data())->nlmsg_len = static_cast<uint32_t>(m.size());
    NlSock s;
    if (s.fd() < 0 || !s.send(m))
        return false;
    bool found = false;
    for (int rounds = 0; rounds < 1000; rounds++) {
        Bytes r = s.recv(3000);
        if (r.empty())
            return false;
        size_t off = 0;
        while (off + NLMSG_HDRLEN <= r.size()) {
            auto *nh = reinterpret_cast<nlmsghdr *>(r.data() + off);
            if (nh->nlmsg_len < NLMSG_HDRLEN || off + nh->nlmsg_len > r.size())
                return false;
            if (nh->nlmsg_type == NLMSG_ERROR || nh->nlmsg_type == NLMSG_DONE)
                return found;
            size_t a = off + NLMSG_HDRLEN + GENL_HDRLEN;
            while (a + NLA_HDRLEN <= off + nh->nlmsg_len) {
                auto *na = reinterpret_cast<nlattr *>(r.data() + a);
                if (na->nla_len < NLA_HDRLEN)
                    break;
                uint32_t v;
                if ((na->nla_type & NLA_TYPE_MASK) == attr && na->nla_len == NLA_HDRLEN + sizeof(v)) {
                    std::memcpy(&v, r.data() + a + NLA_HDRLEN, sizeof(v));
                    found = found || v == value;
                }
                a += NLA_ALIGN(na->nla_len);
            }
            off += NLMSG_ALIGN(nh->nlmsg_len);
        }
    }
    return found;
}

}  // namespace ub_fuzz
