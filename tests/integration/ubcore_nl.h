// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The UB/URMA stack authors
// A client of the generic netlink family "ubcore" for the integration
// suites (libnl): one request at a time, replies parsed into attribute maps.
#pragma once

#include <ub/ubcore_netlink.h>

#include <linux/netlink.h>
#include <netlink/attr.h>
#include <netlink/genl/ctrl.h>
#include <netlink/genl/family.h>
#include <netlink/genl/genl.h>
#include <netlink/msg.h>
#include <netlink/netlink.h>
#include <netlink/socket.h>
#include <sys/socket.h>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <functional>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace ub_nl {

using Bytes = std::vector<uint8_t>;
using Attrs = std::map<int, Bytes>;

// One received message: its top-level attributes by type.
struct Msg {
    Attrs attrs;

    bool has(int type) const { return attrs.count(type) != 0; }

    std::string str(int type) const
    {
        const Bytes &b = attrs.at(type);
        std::string s(b.begin(), b.end());
        return s.substr(0, s.find('\0'));
    }

    uint8_t u8(int type) const { return attrs.at(type).at(0); }

    uint32_t u32(int type) const
    {
        uint32_t v;
        const Bytes &b = attrs.at(type);
        if (b.size() != sizeof(v))
            throw std::runtime_error("attribute is not a u32");
        std::memcpy(&v, b.data(), sizeof(v));
        return v;
    }
};

// The outcome of one request: 0 or the kernel's negative errno, its
// extended ACK message, and the messages it answered with.
struct Reply {
    int error = 0;
    std::string extack;
    std::vector<Msg> msgs;
};

inline Attrs parse_attrs(const nlattr *head, int len)
{
    Attrs out;
    const nlattr *a;
    int rem;

    nla_for_each_attr(a, const_cast<nlattr *>(head), len, rem) {
        auto *p = static_cast<const uint8_t *>(nla_data(a));
        out[nla_type(a)] = Bytes(p, p + nla_len(a));
    }
    return out;
}

inline Attrs parse_nested(const Bytes &payload)
{
    return parse_attrs(reinterpret_cast<const nlattr *>(payload.data()),
                       static_cast<int>(payload.size()));
}

inline uint64_t attr_uint(const Bytes &b)
{
    if (b.size() == sizeof(uint32_t)) {
        uint32_t v;
        std::memcpy(&v, b.data(), sizeof(v));
        return v;
    }
    if (b.size() == sizeof(uint64_t)) {
        uint64_t v;
        std::memcpy(&v, b.data(), sizeof(v));
        return v;
    }
    throw std::runtime_error("attribute is not a u32 or u64");
}

struct RecvCtx {
    Reply *reply;
    bool done = false;
};

inline int on_valid(nl_msg *m, void *arg)
{
    auto *ctx = static_cast<RecvCtx *>(arg);
    nlmsghdr *nlh = nlmsg_hdr(m);

    ctx->reply->msgs.push_back(
        Msg{parse_attrs(genlmsg_attrdata(static_cast<genlmsghdr *>(nlmsg_data(nlh)), 0),
                        genlmsg_attrlen(static_cast<genlmsghdr *>(nlmsg_data(nlh)), 0))});
    return NL_OK;
}

// NLMSG_DONE of a dump; it carries the dump's error, if any.
inline int on_finish(nl_msg *m, void *arg)
{
    auto *ctx = static_cast<RecvCtx *>(arg);
    nlmsghdr *nlh = nlmsg_hdr(m);
    int err = 0;

    if (nlh->nlmsg_len >= NLMSG_LENGTH(sizeof(err)))
        std::memcpy(&err, nlmsg_data(nlh), sizeof(err));
    if (err < 0)
        ctx->reply->error = err;
    ctx->done = true;
    return NL_STOP;
}

inline int on_ack(nl_msg *, void *arg)
{
    static_cast<RecvCtx *>(arg)->done = true;
    return NL_STOP;
}

// NLMSG_ERROR with an error: the errno, and the extended ACK's message.
inline int on_error(sockaddr_nl *, nlmsgerr *e, void *arg)
{
    auto *ctx = static_cast<RecvCtx *>(arg);
    auto *nlh = reinterpret_cast<nlmsghdr *>(reinterpret_cast<char *>(e) - NLMSG_HDRLEN);

    ctx->reply->error = e->error;
    ctx->done = true;
    if (nlh->nlmsg_flags & NLM_F_ACK_TLVS) {
        size_t off = sizeof(*e);
        if (!(nlh->nlmsg_flags & NLM_F_CAPPED))
            off += e->msg.nlmsg_len - NLMSG_HDRLEN;
        int len = static_cast<int>(nlh->nlmsg_len - NLMSG_HDRLEN - off);
        if (len > 0) {
            Attrs tlv = parse_attrs(
                reinterpret_cast<const nlattr *>(reinterpret_cast<char *>(e) + off), len);
            if (tlv.count(NLMSGERR_ATTR_MSG)) {
                const Bytes &b = tlv[NLMSGERR_ATTR_MSG];
                ctx->reply->extack.assign(b.begin(), b.end());
                ctx->reply->extack = ctx->reply->extack.substr(0, ctx->reply->extack.find('\0'));
            }
        }
    }
    return NL_STOP;
}

using Builder = std::function<void(nl_msg *)>;

// A socket of the "ubcore" family that sends one request at a time.
class UbcoreNl {
public:
    UbcoreNl() = default;
    UbcoreNl(const UbcoreNl &) = delete;
    UbcoreNl &operator=(const UbcoreNl &) = delete;
    ~UbcoreNl()
    {
        if (sk_ != nullptr)
            nl_socket_free(sk_);
    }

    // Connects and resolves the family; false (and why) on failure.
    bool open(std::string *why)
    {
        int one = 1;
        timeval tv = {10, 0};

        sk_ = nl_socket_alloc();
        if (sk_ == nullptr) {
            *why = "nl_socket_alloc failed";
            return false;
        }
        int err = genl_connect(sk_);
        if (err < 0) {
            *why = std::string("genl_connect: ") + nl_geterror(err);
            return false;
        }
        nl_socket_disable_auto_ack(sk_);
        setsockopt(nl_socket_get_fd(sk_), SOL_NETLINK, NETLINK_EXT_ACK, &one, sizeof(one));
        // A kernel that never answers fails the test instead of hanging it.
        setsockopt(nl_socket_get_fd(sk_), SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
        family_ = genl_ctrl_resolve(sk_, UBCORE_GENL_FAMILY_NAME);
        if (family_ < 0) {
            *why = std::string("genl_ctrl_resolve(ubcore): ") + nl_geterror(family_);
            return false;
        }
        return true;
    }

    int family() const { return family_; }
    nl_sock *sock() { return sk_; }

    Reply request(uint8_t cmd, bool dump, const Builder &build = nullptr)
    {
        Reply reply;
        RecvCtx ctx{&reply};
        nl_msg *m = nlmsg_alloc();

        if (m == nullptr ||
            genlmsg_put(m, NL_AUTO_PORT, NL_AUTO_SEQ, family_, 0,
                        dump ? NLM_F_DUMP : NLM_F_ACK, cmd,
                        UBCORE_GENL_FAMILY_VERSION) == nullptr) {
            reply.error = -ENOMEM;
            nlmsg_free(m);
            return reply;
        }
        if (build)
            build(m);
        int err = nl_send_auto(sk_, m);
        nlmsg_free(m);
        if (err < 0) {
            reply.error = -EIO;
            reply.extack = std::string("send: ") + nl_geterror(err);
            return reply;
        }

        nl_cb *cb = nl_cb_clone(nl_socket_get_cb(sk_));
        nl_cb_set(cb, NL_CB_VALID, NL_CB_CUSTOM, on_valid, &ctx);
        nl_cb_set(cb, NL_CB_FINISH, NL_CB_CUSTOM, on_finish, &ctx);
        nl_cb_set(cb, NL_CB_ACK, NL_CB_CUSTOM, on_ack, &ctx);
        nl_cb_err(cb, NL_CB_CUSTOM, on_error, &ctx);
        while (!ctx.done) {
            err = nl_recvmsgs(sk_, cb);
            if (err < 0 && !ctx.done) {
                reply.error = -EIO;
                reply.extack = std::string("receive: ") + nl_geterror(err);
                break;
            }
        }
        nl_cb_put(cb);
        return reply;
    }

private:
    nl_sock *sk_ = nullptr;
    int family_ = -1;
};

inline Builder dev_name(const std::string &name)
{
    return [name](nl_msg *m) { nla_put_string(m, UBCORE_NL_ATTR_DEV_NAME, name.c_str()); };
}

inline Builder both(Builder a, Builder b)
{
    return [a, b](nl_msg *m) {
        a(m);
        b(m);
    };
}

inline Builder put_u32(int type, uint32_t v)
{
    return [type, v](nl_msg *m) { nla_put_u32(m, type, v); };
}

inline Builder put_u8(int type, uint8_t v)
{
    return [type, v](nl_msg *m) { nla_put_u8(m, type, v); };
}

inline Builder put_str(int type, const std::string &s)
{
    return [type, s](nl_msg *m) { nla_put_string(m, type, s.c_str()); };
}

inline Builder put_bin(int type, const Bytes &b)
{
    return [type, b](nl_msg *m) { nla_put(m, type, static_cast<int>(b.size()), b.data()); };
}

}  // namespace ub_nl
