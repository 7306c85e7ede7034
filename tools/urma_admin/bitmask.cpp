// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The UB/URMA stack authors
// The bit names are the user guide's (6.4.2) and urma_types.h's.
#include "bitmask.h"

#include <cstdio>

namespace urma_admin {

std::string hex(uint64_t v)
{
    char buf[24];
    std::snprintf(buf, sizeof(buf), "0x%llx", static_cast<unsigned long long>(v));
    return buf;
}

namespace {

// The guide's six, then ubcore's FETCH_AND (UBCORE_ATOMIC_FAND), which the
// guide's list lacks.
const std::vector<BitName> kAtomicBits = {
    {1, "compare_and_swap", nullptr}, {2, "swap", nullptr},          {4, "fetch_and_add", nullptr},
    {8, "fetch_and_sub", nullptr},    {16, "fetch_and_or", nullptr}, {32, "fetch_and_xor", nullptr},
    {64, "fetch_and_and", nullptr},
};

const std::vector<BitName> kCcAlgBits = {
    {1, "NONE", nullptr},   {2, "DCQCN", nullptr},  {4, "DCQCN_AND_NETWORK_CC", nullptr},
    {8, "LDCP", nullptr},   {16, "LDCP_AND_CAQM", nullptr}, {32, "LDCP_AND_OPEN_CC", nullptr},
    {64, "HC3", nullptr},   {128, "DIP", nullptr},  {256, "ACC", nullptr},
};

}  // namespace

const std::vector<BitName> kTransModeBits = {
    {1, "RM", "Reliable message"},
    {2, "RC", "Reliable connection"},
    {4, "UM", "Unreliable message"},
};

const std::vector<BitName> kAccessBits = {
    {1, "LOCAL_ONLY", nullptr},
    {2, "READ", nullptr},
    {4, "WRITE", nullptr},
    {8, "ATOMIC", nullptr},
};

std::string decode_bits(uint64_t value, const std::vector<BitName> &names)
{
    std::string out = hex(value) + " [";
    uint64_t left = value;
    bool first = true;

    auto add = [&](const std::string &item) {
        out += (first ? "" : " ") + item;
        first = false;
    };
    for (const auto &b : names) {
        if (!(value & b.bit))
            continue;
        left &= ~b.bit;
        std::string num = std::to_string(b.bit);
        add(std::string(b.name) + "(" + (b.desc ? std::string(b.desc) + ", " : "") + num + ")");
    }
    if (left)
        add("unknown(" + hex(left) + ")");
    return out + "]";
}

std::string short_bits(uint64_t value, const std::vector<BitName> &names)
{
    std::string out;
    uint64_t left = value;

    for (const auto &b : names) {
        if (!(value & b.bit))
            continue;
        left &= ~b.bit;
        out += (out.empty() ? "" : "|") + std::string(b.name);
    }
    if (left)
        out += (out.empty() ? "" : "|") + hex(left);
    return out.empty() ? "-" : out;
}

std::string atomic_feature_text(uint64_t value)
{
    return decode_bits(value, kAtomicBits);
}

std::string trans_mode_text(uint64_t value)
{
    return decode_bits(value, kTransModeBits);
}

std::string congestion_ctrl_alg_text(uint64_t value)
{
    return decode_bits(value, kCcAlgBits);
}

std::string access_text(uint64_t value)
{
    return decode_bits(value, kAccessBits);
}

}  // namespace urma_admin
