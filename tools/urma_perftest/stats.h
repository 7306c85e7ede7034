// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The UB/URMA stack authors
// The numbers of a run: latency percentiles from samples, bandwidth and
// message rate from byte counts and completion times.
#pragma once

#include <cstdint>
#include <vector>

namespace perftest {

struct LatStats {
    double min = 0, median = 0, avg = 0, max = 0, p99 = 0, p99_9 = 0;  // microseconds
};

// Percentile p (0 < p <= 100) of sorted samples by nearest rank: the
// smallest sample with at least p% of the samples at or below it.
double percentile(const std::vector<double> &sorted, double p);

// Summary of latency samples (us); sorts them. Zeros for no samples.
LatStats summarize(std::vector<double> samples);

// A completion event of a bandwidth run: by time t (s, monotonic), done
// WRs in total had completed.
struct Completion {
    double t;
    uint64_t done;
};

struct BwStats {
    double peak_MBps = 0, avg_MBps = 0, msg_rate_Mpps = 0;
};

constexpr double kMB = 1024.0 * 1024.0;  // 2^20, as perftest

// Average over [start, last completion]; the peak over any window of
// max(1, n/16) consecutive events (n events; the window's rate counts the
// WRs completed after its first event); no peak when no_peak.
BwStats bandwidth(uint64_t size, double start, const std::vector<Completion> &events, bool no_peak);

}  // namespace perftest
