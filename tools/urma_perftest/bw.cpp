// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The UB/URMA stack authors
// The bandwidth tests. The sending side (the client; both with -B) keeps
// up to -T WRs in flight on every connection, posts them in chains of -l,
// asks for a completion every -Q WRs and records when each completion was
// seen; the receiving side of send_bw keeps its JFRs filled, -r at a time.
// When a sender is done it tells the peer (Stop), so a receiver that
// cannot count on every message arriving (UM, -D, -y) knows when to stop.
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <vector>

#include "ops.h"
#include "run.h"

namespace perftest {

namespace {

constexpr int kBatch = 16;

struct Loop {
    Side &s;
    uint32_t size;
    std::vector<Conn> conns;
    // Send part.
    bool sending = false;
    uint64_t total = 0;  // per connection; UINT64_MAX until -D/-y/Ctrl-C ends it
    std::vector<uint64_t> posted, done;
    uint64_t all_done = 0;
    std::vector<Completion> events;
    double start = 0;
    bool send_finished = false;
    // Receive part.
    bool receiving = false;
    uint64_t expect = 0;  // messages in all, when every one must arrive
    uint64_t received = 0;
    std::vector<uint32_t> repost;
    bool peer_done = false, peer_interrupted = false;
    double peer_done_at = 0;
    bool check_failed = false;
    // Reporting.
    double last_print = 0, period_start = 0;
    uint64_t period_done = 0;

    Loop(Side &side, uint32_t sz) : s(side), size(sz) {}
};

bool posted_ok(urma_status_t st, std::string *err)
{
    if (st == URMA_SUCCESS)
        return true;
    *err = std::string("post: ") + std::strerror(st > 0 && st < 4096 ? st : EIO);
    return false;
}

bool timed(const Config &c)
{
    return c.duration != 0 || c.infinite;
}

// Posts what the window allows on every connection.
bool fill_window(Loop &l, bool stop_now, std::string *err)
{
    const Config &c = l.s.cfg;
    for (uint32_t i = 0; i < l.conns.size(); i++) {
        for (;;) {
            uint64_t left = l.total - l.posted[i];
            // A timed run stops where a signalled WR covers all posted ones.
            if (stop_now && l.posted[i] % c.cq_mod == 0)
                left = 0;
            uint32_t chunk = static_cast<uint32_t>(std::min<uint64_t>(c.jfs_post_list, left));
            if (chunk == 0 || l.posted[i] - l.done[i] + chunk > c.jfs_depth)
                break;
            if (!posted_ok(l.conns[i].post(l.posted[i], chunk, l.total, c.cq_mod), err))
                return false;
            l.posted[i] += chunk;
        }
    }
    return true;
}

bool send_done(const Loop &l)
{
    for (size_t i = 0; i < l.conns.size(); i++)
        if (l.done[i] != l.posted[i] || (l.posted[i] < l.total && !l.send_finished))
            return false;
    return true;
}

bool reap_sends(Loop &l, double *last_progress, std::string *err)
{
    urma_cr_t cr[kBatch];
    int n = l.s.res.poll(l.s.res.send_jfc(), cr, kBatch, err);
    if (n <= 0)
        return n == 0;
    double t = now_s();
    for (int k = 0; k < n; k++) {
        if (cr[k].status != URMA_CR_SUCCESS) {
            *err = cr_error(cr[k], command_name(l.s.cfg.cmd));
            return false;
        }
        uint32_t i = l.s.res.conn_of_send(cr[k]);
        if (i >= l.conns.size() || l.done[i] + cr[k].user_ctx > l.posted[i]) {
            *err = "a completion record of no WR this side posted";
            return false;
        }
        l.done[i] += cr[k].user_ctx;
        l.all_done += cr[k].user_ctx;
        l.events.push_back({t, l.all_done});
    }
    if (n > 0)
        *last_progress = t;
    return true;
}

bool reap_recvs(Loop &l, double *last_progress, std::string *err)
{
    const Config &c = l.s.cfg;
    urma_cr_t cr[kBatch];
    int n = l.s.res.poll(l.s.res.recv_jfc(), cr, kBatch, err);
    if (n < 0)
        return false;
    for (int k = 0; k < n; k++) {
        if (cr[k].status != URMA_CR_SUCCESS) {
            *err = cr_error(cr[k], "receive");
            return false;
        }
        uint32_t i = static_cast<uint32_t>(cr[k].user_ctx >> 32);
        uint32_t slot = static_cast<uint32_t>(cr[k].user_ctx & 0xffffffffu);
        if (i >= l.conns.size() || slot >= l.s.res.rx_slots()) {
            *err = "a receive completion of no posted receive";
            return false;
        }
        if (cr[k].completion_len != l.size || (c.enable_imm && cr[k].imm_data != kImmData))
            l.check_failed = true;
        else if (c.check && op_of(c.cmd) == Op::Send &&
                 !matches_pattern(l.s.res.rx(i, slot), l.size, pattern_conn(c, i), l.size))
            l.check_failed = true;
        l.received++;
        // Refill in chains of -r; a shared JFR is refilled through jetty 0.
        uint32_t r = c.share_jfr ? 0 : i;
        if (++l.repost[r] >= c.jfr_post_list) {
            if (!posted_ok(l.conns[r].post_recv(l.repost[r]), err))
                return false;
            l.repost[r] = 0;
        }
    }
    if (n > 0)
        *last_progress = now_s();
    return true;
}

// A Stop from the peer: it finished sending, or was interrupted (Ctrl-C).
bool check_peer(Loop &l, std::string *err)
{
    if (l.peer_done || !l.s.x.readable())
        return true;
    Stop st;
    if (recv_msg(l.s.x, MsgType::Stop, &st, kSetupTimeoutMs, err) != Recv::Ok)
        return false;
    l.peer_done = true;
    l.peer_done_at = now_s();
    l.peer_interrupted = st.reason == kStopInterrupted;
    return true;
}

void report_period(Loop &l, double t)
{
    const Config &c = l.s.cfg;
    if (c.infinite && t - l.period_start >= c.inf_period_ms / 1000.0) {
        BwRow row{l.size, (l.all_done - l.period_done) / l.conns.size(), {}};
        double dt = t - l.period_start;
        row.bw.avg_MBps = static_cast<double>(l.all_done - l.period_done) * l.size / dt / kMB;
        row.bw.msg_rate_Mpps = static_cast<double>(l.all_done - l.period_done) / dt / 1e6;
        std::fputs(bw_row(row).c_str(), stdout);
        std::fflush(stdout);
        l.period_start = t;
        l.period_done = l.all_done;
    } else if (!c.infinite && t - l.last_print >= 2.0 && l.sending) {
        uint64_t goal = c.duration != 0 ? 0 : l.total * l.conns.size();
        if (goal != 0)
            std::fprintf(stderr, "urma_perftest: %s %u B: %" PRIu64 "/%" PRIu64 " WRs\n", command_name(c.cmd),
                         l.size, l.all_done, goal);
        else
            std::fprintf(stderr, "urma_perftest: %s %u B: %.0f of %u s\n", command_name(c.cmd), l.size,
                         t - l.start, c.duration);
        l.last_print = t;
    }
}

bool receive_finished(const Loop &l, double t)
{
    if (!l.receiving)
        return true;
    if (l.expect != 0 && l.received >= l.expect)
        return true;
    // Messages that can still arrive after the sender's Stop are already
    // in flight: give them a moment.
    return l.peer_done && t - l.peer_done_at > 0.2;
}

bool loop(Loop &l, std::string *err)
{
    const Config &c = l.s.cfg;
    double last_progress = now_s();
    double t = last_progress;
    uint32_t spins = 0;
    uint32_t idle = 0; // polls in a row that reaped nothing
    for (;;) {
        // The clock every 64 polls (and when it decides: -D, events, the
        // end): a clock read costs a poll's time or more (under
        // emulation far more), time the device's own work on this CPU
        // could use; a completion reads it for its timestamp anyway.
        if (spins % 64 == 0 || c.duration != 0 || c.use_jfce || (l.sending && send_done(l)))
            t = now_s();
        double progress_before = last_progress;
        bool stop_now = false;
        if (l.sending && !l.send_finished) {
            if (c.duration != 0 && t - l.start >= c.duration)
                stop_now = true;
            if (c.infinite && (g_interrupted.load() || l.peer_interrupted))
                stop_now = true;
            if (!fill_window(l, stop_now, err))
                return false;
            if (stop_now || !timed(c)) {
                bool all_posted = true;
                for (size_t i = 0; i < l.conns.size(); i++)
                    all_posted = all_posted && (stop_now ? l.posted[i] % c.cq_mod == 0 : l.posted[i] == l.total);
                if (all_posted && stop_now)
                    l.send_finished = true;
                if (all_posted && !timed(c))
                    l.send_finished = true;
            }
        }
        // Completions keep coming after the last post.
        if (l.sending && !reap_sends(l, &last_progress, err))
            return false;
        if (l.receiving && !reap_recvs(l, &last_progress, err))
            return false;
        // Ctrl-C on a side that only receives: the sender must stop first.
        if (!l.sending && c.infinite && g_interrupted.exchange(false) &&
            !l.s.x.send(encode(Stop{kStopInterrupted}), err))
            return false;
        // With -e a poll may have waited for an event: look at the clock
        // every time then.
        if (++spins % 256 == 0 || c.use_jfce || (l.sending && send_done(l))) {
            if (!check_peer(l, err))
                return false;
            report_period(l, t);
            if (t - last_progress > kStallSeconds && !(l.sending && send_done(l))) {
                *err = "no completion for 30 s";
                return false;
            }
        }
        bool sent = !l.sending || send_done(l);
        if (sent && receive_finished(l, t))
            return true;
        idle = last_progress == progress_before ? idle + 1 : 0;
        spin_relax(idle);
    }
}

// Warm-up (-w): one window on every connection, completed, before timing.
bool warm_up(Loop &l, std::string *err)
{
    const Config &c = l.s.cfg;
    for (Conn &conn : l.conns) {
        uint32_t n = c.jfs_depth - c.jfs_depth % c.jfs_post_list;
        for (uint32_t k = 0; k < n; k += c.jfs_post_list)
            if (!posted_ok(conn.post(k, c.jfs_post_list, n, c.cq_mod), err))
                return false;
        uint64_t got = 0;
        while (got < n) {
            urma_cr_t cr;
            if (!wait_cr(l.s, l.s.res.send_jfc(), &cr, err))
                return false;
            got += cr.user_ctx;
        }
    }
    return true;
}

}  // namespace

bool run_bw(Side &s, uint32_t size, uint32_t tag, BwRow *row, std::string *err)
{
    const Config &c = s.cfg;
    const Op op = op_of(c.cmd);
    const uint32_t n = s.res.jettys();
    Loop l(s, size);
    l.sending = c.client || c.bidirection;
    l.receiving = op == Op::Send && (!c.client || c.bidirection);
    const bool peer_sends = !c.client || c.bidirection;
    l.total = timed(c) ? UINT64_MAX : c.iters;
    l.conns.resize(n);
    l.posted.assign(n, 0);
    l.done.assign(n, 0);
    l.repost.assign(n, 0);
    std::memset(s.res.rx(0, 0), 0, static_cast<size_t>(s.res.slot()) * n * s.res.rx_slots());
    for (uint32_t i = 0; i < n; i++) {
        l.conns[i].setup(c, s.res, i, size);
        fill_pattern(s.res.tx(i), size, pattern_conn(c, i), size);
    }
    if (l.receiving) {
        l.expect = timed(c) || c.trans_mode == TransMode::UM ? 0 : c.iters * n;
        for (uint32_t i = 0; i < (c.share_jfr ? 1 : n); i++)
            for (uint32_t k = 0; k < c.jfr_depth; k += c.jfr_post_list)
                if (!posted_ok(l.conns[i].post_recv(std::min(c.jfr_post_list, c.jfr_depth - k)), err))
                    return false;
    }
    if (c.warm_up && l.sending && !warm_up(l, err))
        return false;
    for (Conn &conn : l.conns)
        conn.setup(c, s.res, conn.index(), size);
    if (!s.x.barrier(tag, kSetupTimeoutMs, err))
        return false;
    l.start = l.last_print = l.period_start = now_s();
    bool ok = true;
    if (l.sending || l.receiving)
        ok = loop(l, err);
    // Ctrl-C ended this side's part; later waits must not see it again.
    const bool interrupted = g_interrupted.exchange(false);
    if (ok && l.sending)
        ok = s.x.send(encode(Stop{interrupted ? kStopInterrupted : kStopDone}), err);
    // A passive side (the server of read/write/atomic) waits for the
    // client's Stop; Ctrl-C on it stops the client first.
    if (ok && peer_sends && !l.peer_done) {
        Stop st;
        Recv r = recv_msg(s.x, MsgType::Stop, &st, -1, err);
        if (r == Recv::Interrupted) {
            g_interrupted = false;
            ok = s.x.send(encode(Stop{kStopInterrupted}), err) &&
                 recv_msg(s.x, MsgType::Stop, &st, -1, err) == Recv::Ok;
        } else {
            ok = r == Recv::Ok;
        }
    }
    Result mine, peer;
    mine.status = ok ? kResultOk : kResultFailed;
    mine.count = l.received;
    BwStats bw = bandwidth(size, l.start, l.events, c.no_peak);
    mine.peak_MBps = bw.peak_MBps;
    mine.avg_MBps = bw.avg_MBps;
    mine.msg_rate_Mpps = bw.msg_rate_Mpps;
    auto verify = [&](Result *r) {
        if (l.check_failed)
            r->status = kResultCheckFailed;
        if (!c.check)
            return;
        for (uint32_t i = 0; i < n; i++) {
            uint64_t word;
            std::memcpy(&word, s.res.rx(i, 0), sizeof(word));
            // FAA: every WR of the client on connection i, warm-up included.
            uint64_t faa = c.iters + (c.warm_up ? c.jfs_depth - c.jfs_depth % c.jfs_post_list : 0);
            bool good = true;
            if (l.sending && op == Op::Read)
                good = matches_pattern(s.res.rx(i, 0), size, i, size);
            else if (!c.client && op == Op::Write)
                good = matches_pattern(s.res.rx(i, 0), size, i, size) &&
                       (!c.enable_notify || *s.res.notify(i) == c.iters);
            else if (!c.client && op == Op::Atomic)
                good = word == faa;
            if (!good)
                r->status = kResultCheckFailed;
        }
    };
    std::string xerr;
    if (!trade_results(s, &mine, &peer, verify, &xerr)) {
        if (ok)
            *err = xerr;
        return false;
    }
    if (!ok)
        return false;
    if (l.receiving && l.expect != 0 && l.received != l.expect) {
        *err = "received " + std::to_string(l.received) + " of " + std::to_string(l.expect) + " messages";
        return false;
    }
    if (c.client && op == Op::Send && c.trans_mode == TransMode::UM && !c.bidirection)
        std::fprintf(stderr, "urma_perftest: UM: %" PRIu64 " of %" PRIu64 " messages arrived at the server\n",
                     peer.count, l.all_done);
    row->size = size;
    row->iters = timed(c) ? l.all_done / n : c.iters;
    row->bw = bw;
    if (c.bidirection) {
        row->bw.peak_MBps += peer.peak_MBps;
        row->bw.avg_MBps += peer.avg_MBps;
        row->bw.msg_rate_Mpps += peer.msg_rate_Mpps;
    }
    return true;
}

}  // namespace perftest
