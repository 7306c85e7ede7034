// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The UB/URMA stack authors
#include "nl_client.h"

#include <fcntl.h>
#include <unistd.h>

#include <linux/netlink.h>
#include <netlink/attr.h>
#include <netlink/genl/ctrl.h>
#include <netlink/genl/genl.h>
#include <sys/socket.h>
#include <ub/ubcore_netlink.h>

#include <cerrno>
#include <cstring>

#include "wire_stats.h"

namespace urma_admin {

namespace {

struct MsgFree {
    void operator()(nl_msg *m) const { nlmsg_free(m); }
};
struct CbPut {
    void operator()(nl_cb *cb) const { nl_cb_put(cb); }
};

// State of one request's receive loop.
struct RecvCtx {
    NlClient::Reply *reply;
    bool done = false;
};

int on_valid(nl_msg *m, void *arg)
{
    auto *ctx = static_cast<RecvCtx *>(arg);
    auto *gh = static_cast<genlmsghdr *>(nlmsg_data(nlmsg_hdr(m)));

    ctx->reply->msgs.push_back(parse_raw(genlmsg_attrdata(gh, 0), static_cast<size_t>(genlmsg_attrlen(gh, 0))));
    return NL_OK;
}

int on_ack(nl_msg *, void *arg)
{
    static_cast<RecvCtx *>(arg)->done = true;
    return NL_STOP;
}

// NLMSGERR_ATTR_MSG of extended ACK attributes, or "".
std::string extack_text(const RawAttrs &tlv)
{
    auto it = tlv.find(NLMSGERR_ATTR_MSG);
    if (it == tlv.end())
        return "";
    std::string s(it->second.begin(), it->second.end());
    return s.substr(0, s.find('\0'));
}

// The extended ACK's message after a struct nlmsgerr.
std::string extack_msg(const nlmsgerr *e)
{
    auto *nlh = reinterpret_cast<const nlmsghdr *>(reinterpret_cast<const char *>(e) - NLMSG_HDRLEN);
    if (!(nlh->nlmsg_flags & NLM_F_ACK_TLVS))
        return "";
    size_t off = sizeof(*e);
    // The request is echoed unless the ACK is capped.
    if (!(nlh->nlmsg_flags & NLM_F_CAPPED))
        off += e->msg.nlmsg_len - NLMSG_HDRLEN;
    size_t total = nlh->nlmsg_len - NLMSG_HDRLEN;
    if (off >= total)
        return "";
    return extack_text(parse_raw(reinterpret_cast<const char *>(e) + off, total - off));
}

// NLMSG_DONE ends a dump; it carries the error of a dump that failed midway
// and then, with NLM_F_ACK_TLVS, the extended ACK's attributes.
int on_finish(nl_msg *m, void *arg)
{
    auto *ctx = static_cast<RecvCtx *>(arg);
    nlmsghdr *nlh = nlmsg_hdr(m);
    int err = 0;

    ctx->done = true;
    if (nlh->nlmsg_len < NLMSG_LENGTH(sizeof(err)))
        return NL_STOP;
    std::memcpy(&err, nlmsg_data(nlh), sizeof(err));
    if (err >= 0)
        return NL_STOP;
    ctx->reply->status.err = -err;
    if (nlh->nlmsg_flags & NLM_F_ACK_TLVS) {
        size_t total = nlh->nlmsg_len - NLMSG_HDRLEN;
        ctx->reply->status.extack =
            extack_text(parse_raw(static_cast<const char *>(nlmsg_data(nlh)) + sizeof(err), total - sizeof(err)));
    }
    return NL_STOP;
}

int on_error(sockaddr_nl *, nlmsgerr *e, void *arg)
{
    auto *ctx = static_cast<RecvCtx *>(arg);

    ctx->reply->status.err = -e->error;
    ctx->reply->status.extack = extack_msg(e);
    ctx->done = true;
    return NL_STOP;
}

NlClient::Reply failed(int err, const std::string &why)
{
    NlClient::Reply r;
    r.status = Status{err, why};
    return r;
}

}  // namespace

Status NlClient::connect()
{
    int one = 1;
    timeval tv = {10, 0};

    sk_.reset(nl_socket_alloc());
    if (!sk_)
        return Status{ENOMEM, "cannot allocate a netlink socket"};
    int err = genl_connect(sk_.get());
    if (err < 0)
        return Status{EIO, std::string("cannot open a generic netlink socket: ") + nl_geterror(err)};
    nl_socket_disable_auto_ack(sk_.get());
    // The kernel's reason for a refusal (best effort: old kernels lack it).
    setsockopt(nl_socket_get_fd(sk_.get()), SOL_NETLINK, NETLINK_EXT_ACK, &one, sizeof(one));
    // A kernel that never answers makes an error, not a hang.
    setsockopt(nl_socket_get_fd(sk_.get()), SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
    family_ = genl_ctrl_resolve(sk_.get(), UBCORE_GENL_FAMILY_NAME);
    if (family_ < 0)
        return Status{ENOENT, "no generic netlink family \"ubcore\" (is ubcore.ko loaded?)"};
    return Status{};
}

NlClient::Reply NlClient::request(uint8_t cmd, bool dump, const Builder &build)
{
    return request_to(family_, UBCORE_GENL_FAMILY_VERSION, cmd, dump, build);
}

NlClient::Reply NlClient::request_to(int family, uint8_t version, uint8_t cmd, bool dump, const Builder &build)
{
    Reply reply;
    RecvCtx ctx{&reply};
    std::unique_ptr<nl_msg, MsgFree> m(nlmsg_alloc());

    if (!m || !genlmsg_put(m.get(), NL_AUTO_PORT, NL_AUTO_SEQ, family, 0, dump ? NLM_F_DUMP : NLM_F_ACK, cmd,
                           version))
        return failed(ENOMEM, "cannot build the request");
    if (build && !build(m.get()))
        return failed(EMSGSIZE, "the request does not fit a message");
    int err = nl_send_auto(sk_.get(), m.get());
    if (err < 0)
        return failed(EIO, std::string("send: ") + nl_geterror(err));

    std::unique_ptr<nl_cb, CbPut> cb(nl_cb_clone(nl_socket_get_cb(sk_.get())));
    if (!cb)
        return failed(ENOMEM, "cannot allocate netlink callbacks");
    nl_cb_set(cb.get(), NL_CB_VALID, NL_CB_CUSTOM, on_valid, &ctx);
    nl_cb_set(cb.get(), NL_CB_FINISH, NL_CB_CUSTOM, on_finish, &ctx);
    nl_cb_set(cb.get(), NL_CB_ACK, NL_CB_CUSTOM, on_ack, &ctx);
    nl_cb_err(cb.get(), NL_CB_CUSTOM, on_error, &ctx);
    while (!ctx.done) {
        err = nl_recvmsgs(sk_.get(), cb.get());
        // The error callback stops the loop with an error of its own.
        if (err < 0 && !ctx.done)
            return failed(EIO, std::string("receive: ") + nl_geterror(err));
    }
    return reply;
}

Status NlClient::command(uint8_t cmd, const Builder &build)
{
    return request(cmd, false, build).status;
}

namespace {

bool put_dev(nl_msg *m, const std::string &dev)
{
    return nla_put_string(m, UBCORE_NL_ATTR_DEV_NAME, dev.c_str()) == 0;
}

// A reply that lacked what the uapi header promises.
Status malformed()
{
    return Status{EPROTO, "malformed reply from the kernel"};
}

}  // namespace

Status NlClient::list_devices(std::vector<DeviceInfo> *out)
{
    Reply r = request(UBCORE_NL_CMD_DEV_GET, true, nullptr);
    if (!r.status.ok())
        return r.status;
    for (const auto &raw : r.msgs) {
        auto d = decode_device(raw);
        if (!d)
            return malformed();
        out->push_back(std::move(*d));
    }
    return Status{};
}

Status NlClient::get_device(const std::string &dev, DeviceInfo *out)
{
    Reply r = request(UBCORE_NL_CMD_DEV_GET, false, [&](nl_msg *m) { return put_dev(m, dev); });
    if (!r.status.ok())
        return r.status;
    auto d = r.msgs.size() == 1 ? decode_device(r.msgs[0]) : std::nullopt;
    if (!d)
        return malformed();
    *out = std::move(*d);
    return Status{};
}

Status NlClient::list_eids(const std::string &dev, std::vector<EidInfo> *out)
{
    Reply r = request(UBCORE_NL_CMD_EID_GET, true, [&](nl_msg *m) { return put_dev(m, dev); });
    if (!r.status.ok())
        return r.status;
    out->clear();
    for (const auto &raw : r.msgs) {
        auto e = decode_eid(raw);
        if (!e)
            return malformed();
        out->push_back(*e);
    }
    return Status{};
}

Status NlClient::list_resources(const std::string &dev, ResType type, std::optional<uint32_t> id,
                                std::vector<Resource> *out)
{
    Reply r = request(UBCORE_NL_CMD_RES_GET, true, [&](nl_msg *m) {
        return put_dev(m, dev) && nla_put_u8(m, UBCORE_NL_ATTR_RES_TYPE, static_cast<uint8_t>(type)) == 0 &&
               (!id || nla_put_u32(m, UBCORE_NL_ATTR_RES_ID, *id) == 0);
    });
    if (!r.status.ok())
        return r.status;
    for (const auto &raw : r.msgs) {
        auto res = decode_resource(raw);
        if (!res)
            return malformed();
        out->push_back(std::move(*res));
    }
    return Status{};
}

Status NlClient::get_resource(const std::string &dev, ResType type, uint32_t id, Resource *out)
{
    Reply r = request(UBCORE_NL_CMD_RES_GET, false, [&](nl_msg *m) {
        return put_dev(m, dev) && nla_put_u8(m, UBCORE_NL_ATTR_RES_TYPE, static_cast<uint8_t>(type)) == 0 &&
               nla_put_u32(m, UBCORE_NL_ATTR_RES_ID, id) == 0;
    });
    if (!r.status.ok())
        return r.status;
    auto res = r.msgs.size() == 1 ? decode_resource(r.msgs[0]) : std::nullopt;
    if (!res)
        return malformed();
    *out = std::move(*res);
    return Status{};
}

Status NlClient::get_wire_stats(const std::string &dev, WireStats *out)
{
    return read_wire_stats(kUbcoreClassDir, dev, out);
}

Status NlClient::system_get(SystemInfo *out)
{
    Reply r = request(UBCORE_NL_CMD_SYS_GET, false, nullptr);
    if (!r.status.ok())
        return r.status;
    auto s = r.msgs.size() == 1 ? decode_system(r.msgs[0]) : std::nullopt;
    if (!s)
        return malformed();
    *out = *s;
    return Status{};
}

Status NlClient::eid_add(const std::string &dev, uint32_t index, const Eid &eid)
{
    return command(UBCORE_NL_CMD_EID_ADD, [&](nl_msg *m) {
        return put_dev(m, dev) && nla_put_u32(m, UBCORE_NL_ATTR_EID_INDEX, index) == 0 &&
               nla_put(m, UBCORE_NL_ATTR_EID, static_cast<int>(eid.size()), eid.data()) == 0;
    });
}

Status NlClient::eid_del(const std::string &dev, uint32_t index)
{
    return command(UBCORE_NL_CMD_EID_DEL, [&](nl_msg *m) {
        return put_dev(m, dev) && nla_put_u32(m, UBCORE_NL_ATTR_EID_INDEX, index) == 0;
    });
}

Status NlClient::eid_set_mode(const std::string &dev, bool static_mode)
{
    uint8_t mode = static_mode ? UBCORE_NL_EID_MODE_STATIC : UBCORE_NL_EID_MODE_DYNAMIC;
    return command(UBCORE_NL_CMD_EID_SET_MODE, [&](nl_msg *m) {
        return put_dev(m, dev) && nla_put_u8(m, UBCORE_NL_ATTR_EID_MODE, mode) == 0;
    });
}

Status NlClient::dev_add(const std::string &name, const std::string &netdev, const std::string &type)
{
    return command(UBCORE_NL_CMD_DEV_ADD, [&](nl_msg *m) {
        return put_dev(m, name) && nla_put_string(m, UBCORE_NL_ATTR_NETDEV_NAME, netdev.c_str()) == 0 &&
               nla_put_string(m, UBCORE_NL_ATTR_LINK_TYPE, type.c_str()) == 0;
    });
}

Status NlClient::dev_del(const std::string &name)
{
    return command(UBCORE_NL_CMD_DEV_DEL, [&](nl_msg *m) { return put_dev(m, name); });
}

Status NlClient::ns_command(uint8_t cmd, const std::string &netns, const Builder &build)
{
    int fd = open(netns.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return Status{errno, "cannot open network namespace " + netns};
    Status st = command(cmd, [&](nl_msg *m) {
        return build(m) && nla_put_u32(m, UBCORE_NL_ATTR_NS_FD, static_cast<uint32_t>(fd)) == 0;
    });
    close(fd);
    return st;
}

Status NlClient::dev_set_ns(const std::string &dev, const std::string &netns)
{
    return ns_command(UBCORE_NL_CMD_DEV_SET_NS, netns, [&](nl_msg *m) { return put_dev(m, dev); });
}

Status NlClient::dev_expose(const std::string &dev, const std::string &netns, bool expose)
{
    return ns_command(expose ? UBCORE_NL_CMD_DEV_EXPOSE : UBCORE_NL_CMD_DEV_UNEXPOSE, netns,
                      [&](nl_msg *m) { return put_dev(m, dev); });
}

Status NlClient::eid_set_ns(const std::string &dev, uint32_t index, const std::string &netns)
{
    return ns_command(UBCORE_NL_CMD_EID_SET_NS, netns, [&](nl_msg *m) {
        return put_dev(m, dev) && nla_put_u32(m, UBCORE_NL_ATTR_EID_INDEX, index) == 0;
    });
}

Status NlClient::set_dev_sharing(bool on)
{
    return command(UBCORE_NL_CMD_SYS_SET, [&](nl_msg *m) {
        return nla_put_u8(m, UBCORE_NL_ATTR_SYS_DEV_SHARING, on ? 1 : 0) == 0;
    });
}

}  // namespace urma_admin
