// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The UB/URMA stack authors
// Bit masks decoded as the user guide lists them (6.4.2, "show -w"):
// "0x5 [compare_and_swap(1) fetch_and_add(4)]".
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace urma_admin {

struct BitName {
    uint64_t bit;
    const char *name;
    const char *desc;  // nullptr: none; else shown as "NAME(desc, value)"
};

// "0x<value>", lower case.
std::string hex(uint64_t v);

// "0x<value> [name(bit) ...]"; bits without a name show as unknown(0x..).
std::string decode_bits(uint64_t value, const std::vector<BitName> &names);

std::string atomic_feature_text(uint64_t value);
std::string trans_mode_text(uint64_t value);
std::string congestion_ctrl_alg_text(uint64_t value);
// Segment access rights (UBCORE_ACCESS_*).
std::string access_text(uint64_t value);
// The names only, joined by '|' ("READ|WRITE"), for table cells; "-" for 0.
std::string short_bits(uint64_t value, const std::vector<BitName> &names);

extern const std::vector<BitName> kTransModeBits;
extern const std::vector<BitName> kAccessBits;

}  // namespace urma_admin
