// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The UB/URMA stack authors
// urma_perftest: latency and bandwidth of URMA operations between two
// processes (user guide 6.4.1). Exit status: 0, 1 run-time failure, 2 usage.
#include <signal.h>

#include <cstdio>
#include <cstring>

#include "config.h"
#include "exchange.h"
#include "run.h"

namespace {

void on_sigint(int)
{
    perftest::g_interrupted = true;
}

}  // namespace

int main(int argc, char **argv)
{
    perftest::Config cfg;
    perftest::ParseResult r = perftest::parse_args(argc, argv, &cfg);
    switch (r.status) {
    case perftest::ParseStatus::Help:
        std::fputs(perftest::usage_text().c_str(), stdout);
        return 0;
    case perftest::ParseStatus::Version:
        std::fputs(perftest::version_text().c_str(), stdout);
        return 0;
    case perftest::ParseStatus::Usage:
        std::fprintf(stderr, "urma_perftest: %s\nTry 'urma_perftest --help'.\n", r.error.c_str());
        return 2;
    case perftest::ParseStatus::Ok:
        break;
    }
    for (const std::string &w : r.warnings)
        std::fprintf(stderr, "urma_perftest: warning: %s\n", w.c_str());
    if (cfg.infinite) {
        // -y ends with Ctrl-C on either side: finish the period, tell the
        // peer, print the summary.
        struct sigaction sa = {};
        sa.sa_handler = on_sigint;
        sigaction(SIGINT, &sa, nullptr);
    }
    return perftest::run(cfg);
}
