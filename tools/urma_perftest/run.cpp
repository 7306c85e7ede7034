// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The UB/URMA stack authors
// One side of a run: create the URMA resources, connect the TCP side
// channel, agree on the test (Hello), trade Endpoints and import the peer,
// run every size with barriers around it, print the table or the JSON.
#include "run.h"

#include <sched.h>
#include <time.h>

#include <cstdio>
#include <cstring>

namespace perftest {

double now_s()
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

void spin_relax(uint32_t spins)
{
    static const bool one_cpu = [] {
        cpu_set_t set;
        CPU_ZERO(&set);
        return sched_getaffinity(0, sizeof(set), &set) == 0 && CPU_COUNT(&set) == 1;
    }();
    if (one_cpu && spins % 256 == 255)
        sched_yield();
}

std::string cr_error(const urma_cr_t &cr, const char *where)
{
    return std::string(where) + " completed with status " + std::to_string(cr.status) + " (" +
           cr_status_name(cr.status) + ")";
}

bool wait_cr(Side &s, urma_jfc_t *jfc, urma_cr_t *cr, std::string *err)
{
    const double end = now_s() + kStallSeconds;
    for (uint32_t spins = 0;; spins++) {
        int n = s.res.poll(jfc, cr, 1, err);
        if (n < 0)
            return false;
        if (n == 1) {
            if (cr->status == URMA_CR_SUCCESS)
                return true;
            *err = cr_error(*cr, jfc == s.res.recv_jfc() ? "receive" : command_name(s.cfg.cmd));
            return false;
        }
        if (spins % 1024 == 0 && now_s() > end) {
            *err = "no completion within 30 s";
            return false;
        }
        spin_relax(spins);
    }
}

bool trade_results(Side &s, Result *mine, Result *peer, const std::function<void(Result *)> &verify,
                   std::string *err)
{
    auto receive = [&]() {
        Recv r = recv_msg(s.x, MsgType::Result, peer, -1, err);
        // A Stop still on its way (the peer interrupted, or finished
        // sending while this side was done): the Result comes after it.
        if (r == Recv::Stopped)
            r = recv_msg(s.x, MsgType::Result, peer, -1, err);
        return r == Recv::Ok;
    };
    if (s.cfg.client) {
        if (mine->status == kResultOk)
            verify(mine);
        if (!s.x.send(encode(*mine), err) || !receive())
            return false;
    } else {
        if (!receive())
            return false;
        if (mine->status == kResultOk)
            verify(mine);
        if (!s.x.send(encode(*mine), err))
            return false;
    }
    if (mine->status == kResultCheckFailed) {
        *err = "--check: the data here differs from what " + s.x.peer() + " sent";
        return false;
    }
    if (peer->status == kResultCheckFailed) {
        *err = "--check: " + s.x.peer() + " found data that differs from what was sent";
        return false;
    }
    if (peer->status != kResultOk) {
        *err = s.x.peer() + " failed (see its output)";
        return false;
    }
    return true;
}

namespace {

Hello hello_of(const Config &c)
{
    Hello h;
    h.cmd = static_cast<uint8_t>(c.cmd);
    h.trans_mode = static_cast<uint8_t>(c.trans_mode);
    h.atomic_type = static_cast<uint8_t>(c.atomic_type);
    h.flags = static_cast<uint8_t>((c.simplex ? kHelloSimplex : 0) | (c.bidirection ? kHelloBidir : 0) |
                                   (c.enable_imm ? kHelloImm : 0) | (c.all ? kHelloAll : 0) |
                                   (c.infinite ? kHelloInfinite : 0) | (c.check ? kHelloCheck : 0) |
                                   (c.enable_notify ? kHelloNotify : 0));
    h.jettys = c.jettys;
    h.size = c.size;
    h.order = c.all ? c.order : 0;
    h.duration = c.duration;
    h.sge_num = c.sge_num;
    h.iters = c.iters;
    return h;
}

// The peer must run the same test: what differs, or "".
std::string hello_mismatch(const Hello &a, const Hello &b)
{
    if (a.cmd != b.cmd)
        return std::string("the peer runs ") + command_name(static_cast<Command>(b.cmd));
    if (a.trans_mode != b.trans_mode)
        return std::string("the peer uses -p ") + trans_mode_name(static_cast<TransMode>(b.trans_mode));
    if (a.size != b.size || a.order != b.order)
        return "the peer uses other sizes (-s " + std::to_string(b.size) + ", -a order " + std::to_string(b.order) +
               ")";
    if (a.iters != b.iters || a.duration != b.duration)
        return "the peer runs -n " + std::to_string(b.iters) + " / -D " + std::to_string(b.duration);
    if (a.jettys != b.jettys)
        return "the peer uses -J " + std::to_string(b.jettys);
    if (!(a == b))
        return "the peer's -A, -b, -B, -y, --enable_imm, --enable_notify, --check or --sge_num differ";
    return "";
}

bool agree(const Config &c, Exchange &x, std::string *err)
{
    if (c.client) {
        if (!x.connect_server(c, err))
            return false;
    } else {
        if (!c.json)
            std::fprintf(stderr, "urma_perftest: %s server waiting for a client on port %u\n", command_name(c.cmd),
                         c.port);
        if (!x.accept_client(c, err))
            return false;
    }
    Hello mine = hello_of(c), peer;
    if (!x.send(encode(mine), err) || recv_msg(x, MsgType::Hello, &peer, kSetupTimeoutMs, err) != Recv::Ok)
        return false;
    std::string diff = hello_mismatch(mine, peer);
    if (!diff.empty()) {
        *err = "the peer runs another test: " + diff;
        return false;
    }
    return true;
}

// Trades Endpoints with the peer and imports it.
bool connect_peer(Exchange &x, Resources &res, std::string *err)
{
    Endpoint peer;
    if (!x.send(encode(res.endpoint()), err) ||
        recv_msg(x, MsgType::Endpoint, &peer, kSetupTimeoutMs, err) != Recv::Ok || !res.connect(peer, err))
        return false;
    // Both sides imported the other before either posts.
    return x.barrier(0, kSetupTimeoutMs, err);
}

int fail(const Config &c, const std::string &err)
{
    std::fprintf(stderr, "urma_perftest: %s: %s\n", command_name(c.cmd), err.c_str());
    return 1;
}

}  // namespace

int run(const Config &c)
{
    // Local resources first: a wrong device or option fails before any
    // peer is involved (the peer then sees the connection close).
    Resources res;
    std::string err;
    if (!res.create(c, &err))
        return fail(c, err);
    Exchange x;
    if (!agree(c, x, &err) || !connect_peer(x, res, &err))
        return fail(c, err);
    Side s{c, res, x};
    FILE *table = c.json ? stderr : stdout;
    if (c.client) {
        std::fputs(banner(c).c_str(), table);
        std::fflush(table);
    }
    std::vector<std::string> json;
    uint32_t tag = 1;
    for (uint32_t size : c.sizes()) {
        std::string line;
        if (is_bw(c.cmd)) {
            BwRow row{};
            if (!run_bw(s, size, tag++, &row, &err))
                return fail(c, err);
            line = bw_row(row);
            json.push_back(bw_json(c, row));
        } else {
            LatRow row{};
            if (!run_lat(s, size, tag++, &row, &err))
                return fail(c, err);
            line = lat_row(row);
            json.push_back(lat_json(c, row));
        }
        if (c.client) {
            std::fputs(line.c_str(), table);
            std::fflush(table);
        }
    }
    if (c.client) {
        std::fputs(rule().c_str(), table);
        if (c.json)
            std::fputs(json_output(c, json).c_str(), stdout);
    } else if (!c.json) {
        std::fprintf(stderr, "urma_perftest: %s server done\n", command_name(c.cmd));
    }
    return 0;
}

}  // namespace perftest
