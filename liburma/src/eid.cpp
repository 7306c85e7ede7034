// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The UB/URMA stack authors
// EID conversions: an EID is 128 bits in network order; an IPv4 address is
// carried IPv4-mapped (::ffff:a.b.c.d).
#include <arpa/inet.h>
#include <endian.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>

#include "log.h"
#include "urma_api.h"

namespace {

// A bare number as an IPv4 address, the way strtoul reads it (0x.., 0.., dec),
// rejecting anything that does not fit in 32 bits or has trailing characters.
bool parse_u32(const char *buf, uint32_t *out)
{
    char *end = nullptr;
    unsigned long long v;

    if (buf[0] == '-' || buf[0] == '+' || buf[0] == ' ')
        return false;
    errno = 0;
    v = std::strtoull(buf, &end, 0);
    if (errno != 0 || end == buf || *end != '\0' || v > UINT32_MAX)
        return false;
    *out = static_cast<uint32_t>(v);
    return true;
}

}  // namespace

extern "C" {

void urma_u32_to_eid(uint32_t ipv4, urma_eid_t *eid)
{
    if (eid == nullptr)
        return;
    eid->in4.reserved = 0;
    eid->in4.prefix = htobe32(URMA_IPV4_MAP_IPV6_PREFIX);
    eid->in4.addr = htobe32(ipv4);
}

int urma_str_to_eid(const char *buf, urma_eid_t *eid)
{
    struct in_addr v4;
    uint32_t num;

    if (buf == nullptr || eid == nullptr || buf[0] == '\0') {
        URMA_LOG_ERR("invalid argument: buf %p eid %p\n", static_cast<const void *>(buf),
                     static_cast<void *>(eid));
        return -EINVAL;
    }
    if (inet_pton(AF_INET6, buf, eid->raw) == 1)
        return 0;
    if (inet_pton(AF_INET, buf, &v4) == 1) {
        urma_u32_to_eid(be32toh(v4.s_addr), eid);
        return 0;
    }
    if (parse_u32(buf, &num)) {
        urma_u32_to_eid(num, eid);
        return 0;
    }
    URMA_LOG_ERR("not an EID: \"%.64s\"\n", buf);
    return -EINVAL;
}

}  // extern "C"
