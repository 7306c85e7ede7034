// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The UB/URMA stack authors
// One side of a run after the set-up: the test families (lat.cpp, bw.cpp)
// and the helpers they share.
#pragma once

#include <functional>
#include <string>

#include "config.h"
#include "exchange.h"
#include "report.h"
#include "resources.h"

namespace perftest {

struct Side {
    const Config &cfg;
    Resources &res;
    Exchange &x;
};

// Without any completion or reply for this long, a run is stuck.
constexpr double kStallSeconds = 30.0;

double now_s();

// Called on every empty poll of a busy-wait (spins counts them): where this
// process can run on one CPU only, it yields that CPU every 256 empty
// polls, so that the peer it waits for (the other process of a ping-pong on
// the same CPU) runs now rather than at the next scheduler tick (4 ms at
// HZ=250: 8 ms an iteration). With two CPUs or more it does nothing, so
// that the measured spin is the one every other perftest does.
void spin_relax(uint32_t spins);

// The next completion record of jfc, whose status must be SUCCESS; false
// with *err after kStallSeconds or on an error record.
bool wait_cr(Side &s, urma_jfc_t *jfc, urma_cr_t *cr, std::string *err);
// *err for a completion record that is not SUCCESS.
std::string cr_error(const urma_cr_t &cr, const char *where);

// The end of a size: the client sends its Result and reads the server's;
// the server reads the client's first, so that verify (which may look at
// memory the client wrote) runs after the client is done, then sends its
// own. A side whose own or peer's data check failed gets false.
bool trade_results(Side &s, Result *mine, Result *peer, const std::function<void(Result *)> &verify,
                   std::string *err);

// A latency test at one size; the client fills *row.
bool run_lat(Side &s, uint32_t size, uint32_t tag, LatRow *row, std::string *err);
// A bandwidth test at one size; the client fills *row (with -B, the sum of
// both sides).
bool run_bw(Side &s, uint32_t size, uint32_t tag, BwRow *row, std::string *err);

// The whole run of one side: exchange, resources, every size, output.
// Returns the exit status (0, or 1 with a message on stderr).
int run(const Config &cfg);

}  // namespace perftest
