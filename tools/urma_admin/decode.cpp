// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The UB/URMA stack authors
#include "decode.h"

#include <linux/netlink.h>
#include <ub/ubcore_netlink.h>

#include <cstring>
#include <string>

namespace urma_admin {

namespace {

std::optional<uint64_t> as_uint(const std::vector<uint8_t> &b)
{
    switch (b.size()) {
    case 1:
        return b[0];
    case 2: {
        uint16_t v;
        std::memcpy(&v, b.data(), sizeof(v));
        return v;
    }
    case 4: {
        uint32_t v;
        std::memcpy(&v, b.data(), sizeof(v));
        return v;
    }
    case 8: {
        uint64_t v;
        std::memcpy(&v, b.data(), sizeof(v));
        return v;
    }
    default:
        return std::nullopt;
    }
}

std::optional<uint64_t> get_uint(const RawAttrs &raw, int type)
{
    auto it = raw.find(type);
    return it == raw.end() ? std::nullopt : as_uint(it->second);
}

// A NUL-terminated string attribute.
std::optional<std::string> get_str(const RawAttrs &raw, int type)
{
    auto it = raw.find(type);
    if (it == raw.end())
        return std::nullopt;
    std::string s(it->second.begin(), it->second.end());
    return s.substr(0, s.find('\0'));
}

std::optional<Eid> get_eid(const RawAttrs &raw, int type)
{
    auto it = raw.find(type);
    Eid eid;
    if (it == raw.end() || it->second.size() != eid.size())
        return std::nullopt;
    std::memcpy(eid.data(), it->second.data(), eid.size());
    return eid;
}

NumAttrs nested_nums(const RawAttrs &raw, int type)
{
    auto it = raw.find(type);
    if (it == raw.end())
        return {};
    return decode_nums(parse_raw(it->second.data(), it->second.size()));
}

}  // namespace

RawAttrs parse_raw(const void *data, size_t len)
{
    RawAttrs out;
    auto *p = static_cast<const uint8_t *>(data);
    size_t off = 0;

    while (len - off >= NLA_HDRLEN) {
        nlattr a;
        std::memcpy(&a, p + off, sizeof(a));
        if (a.nla_len < NLA_HDRLEN || a.nla_len > len - off)
            break;
        const uint8_t *payload = p + off + NLA_HDRLEN;
        out[a.nla_type & NLA_TYPE_MASK] = std::vector<uint8_t>(payload, payload + a.nla_len - NLA_HDRLEN);
        off += NLA_ALIGN(a.nla_len);
        if (off > len)
            break;
    }
    return out;
}

NumAttrs decode_nums(const RawAttrs &raw)
{
    NumAttrs out;
    for (const auto &[type, bytes] : raw) {
        if (bytes.empty()) {
            out[type] = 1;  // a flag
        } else if (auto v = as_uint(bytes)) {
            out[type] = *v;
        }
    }
    return out;
}

std::optional<DeviceInfo> decode_device(const RawAttrs &raw)
{
    auto name = get_str(raw, UBCORE_NL_ATTR_DEV_NAME);
    if (!name)
        return std::nullopt;
    DeviceInfo d;
    d.name = *name;
    d.driver = get_str(raw, UBCORE_NL_ATTR_DRIVER_NAME).value_or("-");
    d.netdev = get_str(raw, UBCORE_NL_ATTR_NETDEV_NAME).value_or("");
    d.logical = raw.count(UBCORE_NL_ATTR_DEV_LOGICAL) != 0;
    d.eid_mode = static_cast<uint8_t>(get_uint(raw, UBCORE_NL_ATTR_EID_MODE).value_or(0));
    d.port_state = static_cast<uint8_t>(get_uint(raw, UBCORE_NL_ATTR_PORT_STATE).value_or(0));
    d.active_mtu = static_cast<uint32_t>(get_uint(raw, UBCORE_NL_ATTR_ACTIVE_MTU).value_or(0));
    d.caps = nested_nums(raw, UBCORE_NL_ATTR_DEV_CAP);
    d.objs = nested_nums(raw, UBCORE_NL_ATTR_DEV_OBJ);
    d.caps.erase(UBCORE_NL_CAP_PAD);
    d.objs.erase(UBCORE_NL_OBJ_PAD);
    return d;
}

std::optional<EidInfo> decode_eid(const RawAttrs &raw)
{
    auto idx = get_uint(raw, UBCORE_NL_ATTR_EID_INDEX);
    auto eid = get_eid(raw, UBCORE_NL_ATTR_EID);
    if (!idx || !eid)
        return std::nullopt;
    EidInfo e;
    e.index = static_cast<uint32_t>(*idx);
    e.eid = *eid;
    e.is_static = raw.count(UBCORE_NL_ATTR_EID_STATIC) != 0;
    return e;
}

std::optional<Resource> decode_resource(const RawAttrs &raw)
{
    auto type = get_uint(raw, UBCORE_NL_ATTR_RES_TYPE);
    auto nest = raw.find(UBCORE_NL_ATTR_RES);
    if (!type || *type > static_cast<uint64_t>(ResType::Tp) || nest == raw.end())
        return std::nullopt;
    Resource r;
    r.type = static_cast<ResType>(*type);
    RawAttrs inner = parse_raw(nest->second.data(), nest->second.size());
    r.eid = get_eid(inner, UBCORE_NL_RES_EID);
    inner.erase(UBCORE_NL_RES_EID);
    inner.erase(UBCORE_NL_RES_PAD);
    r.attrs = decode_nums(inner);
    // A hidden segment (another user's) comes without its token ID.
    if (!r.has(UBCORE_NL_RES_ID) && !r.has(UBCORE_NL_RES_HIDDEN))
        return std::nullopt;
    return r;
}

std::optional<SystemInfo> decode_system(const RawAttrs &raw)
{
    auto count = get_uint(raw, UBCORE_NL_ATTR_SYS_DEV_COUNT);
    if (!count)
        return std::nullopt;
    SystemInfo s;
    s.dev_count = static_cast<uint32_t>(*count);
    s.ns_mode = static_cast<uint8_t>(get_uint(raw, UBCORE_NL_ATTR_SYS_NS_MODE).value_or(0));
    s.nl_version = static_cast<uint32_t>(get_uint(raw, UBCORE_NL_ATTR_SYS_NL_VERSION).value_or(0));
    s.abi_version = static_cast<uint32_t>(get_uint(raw, UBCORE_NL_ATTR_SYS_ABI_VERSION).value_or(0));
    if (auto sharing = get_uint(raw, UBCORE_NL_ATTR_SYS_DEV_SHARING))
        s.dev_sharing = *sharing != 0;
    return s;
}

}  // namespace urma_admin
