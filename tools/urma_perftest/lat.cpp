// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The UB/URMA stack authors
// The latency tests. write_lat is perftest's ping-pong on memory: each side
// WRITEs into the other's buffer and spins on the last byte of its own
// buffer until the peer's write arrived; send_lat (and write_lat with
// --enable_imm, whose WRITE_IMM completes at the target like a send) is the
// same ping-pong on receive completions. Both report round trip / 2.
// read_lat and atomic_lat time one READ, CAS or FAA from post to completion
// on the client while the server's memory answers.
#include <cstring>
#include <vector>

#include "ops.h"
#include "run.h"

namespace perftest {

namespace {

// The value of the last byte in iteration it: never 0 (the cleared
// buffer) and never the previous iteration's value.
uint8_t tick(uint64_t it)
{
    return static_cast<uint8_t>(it % 255 + 1);
}

bool post_ok(urma_status_t st, const char *what, std::string *err)
{
    if (st == URMA_SUCCESS)
        return true;
    *err = std::string("post ") + what + ": " + std::strerror(st > 0 && st < 4096 ? st : EIO);
    return false;
}

// Spins until *p is v (the last byte of the buffer, or the notify word);
// false after kStallSeconds.
template <typename T> bool wait_value(const volatile T *p, T v, std::string *err)
{
    double end = now_s() + kStallSeconds;
    uint32_t spins = 0;
    while (*p != v) {
        if (++spins % 4096 == 0 && now_s() > end) {
            *err = "the peer's write did not arrive within 30 s";
            return false;
        }
        spin_relax(spins);
    }
    return true;
}

// A receive completion with the size (and immediate data) the test sends.
bool wait_recv(Side &s, Conn &c, uint32_t size, std::string *err)
{
    urma_cr_t cr;
    if (!wait_cr(s, s.res.recv_jfc(), &cr, err))
        return false;
    if (cr.completion_len != size) {
        *err = "received " + std::to_string(cr.completion_len) + " bytes, expected " + std::to_string(size);
        return false;
    }
    if (s.cfg.enable_imm && cr.imm_data != kImmData) {
        *err = "received the wrong immediate data";
        return false;
    }
    if (s.cfg.check && op_of(s.cfg.cmd) == Op::Send) {
        uint32_t slot = static_cast<uint32_t>(cr.user_ctx & 0xffffffffu);
        if (!matches_pattern(s.res.rx(0, slot), size, 0, size)) {
            *err = "--check: a received message differs from what the peer sent";
            return false;
        }
    }
    return post_ok(c.post_recv(1), "receive", err);
}

// Waits for the peer's write of iteration value v: its notify word with
// --enable_notify (which lands after the data), else the data's last byte.
bool wait_write(Side &s, uint32_t size, uint8_t v, std::string *err)
{
    if (s.cfg.enable_notify)
        return wait_value<uint64_t>(s.res.notify(0), v, err);
    return wait_value<uint8_t>(s.res.rx(0, 0) + size - 1, v, err);
}

// Ping-pong: the client starts, the server answers; samples are half
// round trips on the client.
bool ping_pong(Side &s, Conn &c, uint32_t size, std::vector<double> *samples, std::string *err)
{
    const bool on_memory = op_of(s.cfg.cmd) == Op::Write && !s.cfg.enable_imm;
    uint8_t *out = s.res.tx(0) + size - 1;
    urma_cr_t cr;
    for (uint64_t it = 0; it < s.cfg.iters; it++) {
        const uint8_t v = tick(it);
        double t0 = now_s();
        if (!s.cfg.client) {
            if (on_memory ? !wait_write(s, size, v, err) : !wait_recv(s, c, size, err))
                return false;
        }
        if (on_memory)
            *out = v;
        if (!post_ok(c.post_one(0, 0, v), command_name(s.cfg.cmd), err) || !wait_cr(s, s.res.send_jfc(), &cr, err))
            return false;
        if (s.cfg.client) {
            if (on_memory ? !wait_write(s, size, v, err) : !wait_recv(s, c, size, err))
                return false;
            samples->push_back((now_s() - t0) * 1e6 / 2);
        }
    }
    return true;
}

// read_lat and atomic_lat on the client: one WR, its completion, a sample.
bool one_sided(Side &s, Conn &c, std::vector<double> *samples, std::string *err)
{
    const bool atomic = op_of(s.cfg.cmd) == Op::Atomic;
    const bool cas = s.cfg.atomic_type == AtomicType::Cas;
    urma_cr_t cr;
    for (uint64_t it = 0; it < s.cfg.iters; it++) {
        double t0 = now_s();
        // CAS it -> it + 1 and FAA +1 both return it when the target word
        // started at 0: --check follows the chain.
        if (!post_ok(c.post_one(cas ? it : 1, it + 1), command_name(s.cfg.cmd), err) ||
            !wait_cr(s, s.res.send_jfc(), &cr, err))
            return false;
        samples->push_back((now_s() - t0) * 1e6);
        if (atomic && s.cfg.check) {
            uint64_t old;
            std::memcpy(&old, s.res.tx(0), sizeof(old));
            if (old != it) {
                *err = "--check: atomic " + std::to_string(it) + " found " + std::to_string(old) + " at the target";
                return false;
            }
        }
    }
    return true;
}

}  // namespace

bool run_lat(Side &s, uint32_t size, uint32_t tag, LatRow *row, std::string *err)
{
    const Op op = op_of(s.cfg.cmd);
    Conn c;
    c.setup(s.cfg, s.res, 0, size);
    std::memset(s.res.rx(0, 0), 0, static_cast<size_t>(s.res.slot()) * s.res.rx_slots());
    fill_pattern(s.res.tx(0), size, 0, size);
    if (op == Op::Write && !s.cfg.enable_imm)
        s.res.tx(0)[size - 1] = 0;
    const bool messages = op == Op::Send || (op == Op::Write && s.cfg.enable_imm);
    if (messages && !post_ok(c.post_recv(1), "receive", err))
        return false;
    if (!s.x.barrier(tag, kSetupTimeoutMs, err))
        return false;
    std::vector<double> samples;
    samples.reserve(s.cfg.iters);
    bool ok;
    if (op == Op::Write || op == Op::Send)
        ok = ping_pong(s, c, size, &samples, err);
    else
        ok = !s.cfg.client || one_sided(s, c, &samples, err);
    Result mine, peer;
    mine.status = ok ? kResultOk : kResultFailed;
    mine.count = samples.size();
    // What memory must hold at the end: on the server the client's last
    // write (all but the tick byte) or the end of the CAS/FAA chain; on the
    // client what it read.
    auto verify = [&](Result *r) {
        if (!s.cfg.check)
            return;
        bool good = true;
        uint64_t word = 0;
        std::memcpy(&word, s.res.rx(0, 0), sizeof(word));
        if (!s.cfg.client && op == Op::Atomic)
            good = word == s.cfg.iters;
        else if (!s.cfg.client && op == Op::Write && !s.cfg.enable_imm)
            good = matches_pattern(s.res.rx(0, 0), size - 1, 0, size);
        else if (!s.cfg.client && op == Op::Write)
            good = matches_pattern(s.res.rx(0, 0), size, 0, size);
        else if (s.cfg.client && op == Op::Read)
            good = matches_pattern(s.res.rx(0, 0), size, 0, size);
        if (!good)
            r->status = kResultCheckFailed;
    };
    std::string xerr;
    if (!trade_results(s, &mine, &peer, verify, &xerr)) {
        if (ok)
            *err = xerr;
        return false;
    }
    if (!ok)
        return false;
    row->size = size;
    row->iters = s.cfg.iters;
    row->lat = summarize(std::move(samples));
    return true;
}

}  // namespace perftest
