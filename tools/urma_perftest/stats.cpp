// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The UB/URMA stack authors
#include "stats.h"

#include <algorithm>
#include <cmath>

namespace perftest {

double percentile(const std::vector<double> &sorted, double p)
{
    if (sorted.empty())
        return 0;
    // Nearest rank: ceil(p/100 * N), 1-based; a tiny slack so that
    // 99.9% of 1000 is rank 999 despite binary fractions.
    double rank = std::ceil(p / 100.0 * static_cast<double>(sorted.size()) - 1e-9);
    size_t idx = rank < 1 ? 0 : static_cast<size_t>(rank) - 1;
    return sorted[std::min(idx, sorted.size() - 1)];
}

LatStats summarize(std::vector<double> samples)
{
    LatStats s;
    if (samples.empty())
        return s;
    std::sort(samples.begin(), samples.end());
    const size_t n = samples.size();
    double sum = 0;
    for (double v : samples)
        sum += v;
    s.min = samples.front();
    s.max = samples.back();
    s.avg = sum / static_cast<double>(n);
    s.median = n % 2 == 1 ? samples[n / 2] : (samples[n / 2 - 1] + samples[n / 2]) / 2;
    s.p99 = percentile(samples, 99);
    s.p99_9 = percentile(samples, 99.9);
    return s;
}

BwStats bandwidth(uint64_t size, double start, const std::vector<Completion> &events, bool no_peak)
{
    BwStats b;
    if (events.empty())
        return b;
    const Completion &last = events.back();
    double t = last.t - start;
    if (t <= 0)
        return b;
    double bytes = static_cast<double>(last.done) * static_cast<double>(size);
    b.avg_MBps = bytes / t / kMB;
    b.msg_rate_Mpps = static_cast<double>(last.done) / t / 1e6;
    if (no_peak)
        return b;
    // The first window starts at the run's start (done 0 at start).
    const size_t w = std::max<size_t>(1, events.size() / 16);
    for (size_t i = 0; i + w <= events.size(); i++) {
        double t0 = i == 0 ? start : events[i - 1].t;
        uint64_t d0 = i == 0 ? 0 : events[i - 1].done;
        const Completion &e = events[i + w - 1];
        double dt = e.t - t0;
        if (dt <= 0)
            continue;
        double rate = static_cast<double>(e.done - d0) * static_cast<double>(size) / dt / kMB;
        b.peak_MBps = std::max(b.peak_MBps, rate);
    }
    // Clock granularity can leave every window empty of time.
    if (b.peak_MBps < b.avg_MBps)
        b.peak_MBps = b.avg_MBps;
    return b;
}

}  // namespace perftest
