// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The UB/URMA stack authors
// perftest-style tables and the --json output of a run.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "config.h"
#include "stats.h"

namespace perftest {

struct BwRow {
    uint32_t size;
    uint64_t iters;
    BwStats bw;
};

struct LatRow {
    uint32_t size;
    uint64_t iters;
    LatStats lat;
};

// The banner of a run: the test, the device and the settings that shape
// the numbers, then the column titles of its table.
std::string banner(const Config &c);
std::string bw_row(const BwRow &r);
std::string lat_row(const LatRow &r);
std::string rule();

// One JSON object per row (the schema scripts/bench.sh reads), and the
// whole output: the one object, or {"results":[...]} with -a.
std::string bw_json(const Config &c, const BwRow &r);
std::string lat_json(const Config &c, const LatRow &r);
std::string json_output(const Config &c, const std::vector<std::string> &objects);

// A number for JSON: fixed notation, never NaN or infinity (0 then).
std::string json_number(double v, int decimals);

}  // namespace perftest
