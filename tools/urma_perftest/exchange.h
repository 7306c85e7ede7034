// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The UB/URMA stack authors
// The TCP side channel of a run: the server accepts one client, then both
// exchange their Hello (same test?), their Endpoints (where to write and
// whom to send to), barriers to start and finish each size together, and
// results. Every wait has a deadline or watches for Ctrl-C (-y), and a peer
// that goes away is an error that names it.
#pragma once

#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

#include "config.h"
#include "wire.h"

namespace perftest {

// Set by the SIGINT handler of -y; waits give up when it is set.
extern std::atomic<bool> g_interrupted;

// A socket file descriptor, closed when it goes.
class Fd {
public:
    Fd() = default;
    explicit Fd(int fd) : fd_(fd) {}
    Fd(const Fd &) = delete;
    Fd &operator=(const Fd &) = delete;
    Fd(Fd &&o) noexcept : fd_(o.release()) {}
    Fd &operator=(Fd &&o) noexcept;
    ~Fd();
    int get() const { return fd_; }
    int release();

private:
    int fd_ = -1;
};

enum class Recv { Ok, Timeout, Closed, Stopped, Interrupted, Error };

class Exchange {
public:
    // Server: listens on cfg.port (all addresses) and accepts one client.
    bool accept_client(const Config &cfg, std::string *err);
    // Client: connects to cfg.server:cfg.port, retrying a refusal for 2 s.
    bool connect_server(const Config &cfg, std::string *err);

    bool send(const std::vector<uint8_t> &msg, std::string *err);
    // The next message, which must be of type want (a Stop from the peer
    // gives Stopped); timeout_ms < 0 waits for ever (but not past Ctrl-C).
    // A failed Result where another message was due (the peer gave up
    // early) is an Error, and is kept for the next wait for a Result: the
    // two sides still trade results, and neither waits for ever.
    Recv recv(MsgType want, std::vector<uint8_t> *payload, int timeout_ms, std::string *err);
    // Whether a message is waiting, without blocking.
    bool readable();

    // Both sides send Sync(tag) and wait for the peer's.
    bool barrier(uint32_t tag, int timeout_ms, std::string *err);

    const std::string &peer() const { return peer_; }

private:
    bool read_full(uint8_t *buf, size_t len, int timeout_ms, Recv *st, std::string *err);

    Fd fd_;
    std::string peer_;
    bool has_early_result_ = false;
    std::vector<uint8_t> early_result_;
};

// Typed helpers over Exchange::recv.
template <typename T> Recv recv_msg(Exchange &x, MsgType want, T *m, int timeout_ms, std::string *err)
{
    std::vector<uint8_t> p;
    Recv st = x.recv(want, &p, timeout_ms, err);
    if (st == Recv::Ok && !decode(p.data(), p.size(), m, err))
        return Recv::Error;
    return st;
}

constexpr int kSetupTimeoutMs = 60000;

}  // namespace perftest
