// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The UB/URMA stack authors
// The namespace pair of tests/guest/lib.sh (ub_nspair_*: namespaces uboeA
// and uboeB joined by the veth pair vA/vB, udmaA on vA in A, udmaB on vB in
// B, every packet between them a UBoE packet) for the suites that run a
// user process on each "host" (urma_nspair_itest, urma_wire_ops_itest).
// Including this header registers the bed as a global GoogleTest
// environment: the binary builds it with lib.sh's functions when it starts
// and removes it at the end, so the plain itest run of check-guest.sh runs
// it with its bed. The test process then lives in uboeA; each test
// (NsPair::start) forks a peer that enters uboeB (setns and a sysfs of its
// own, as "ip netns exec" does) and serves as the remote side, talking to
// the test over a socketpair (Chan: jetty IDs, segments, "go" signals).
// One end's URMA objects are a Side, used by the test and by the peer.
#pragma once

#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "cm_tp.h"
#include "dp_extra.h"

namespace ub_nspair {

using ub_itest::cells;
using ub_itest::describe;
using ub_itest::fill;
using ub_itest::kJfrToken;
using ub_itest::kSegToken;
using ub_itest::TpRow;

// The bed: lib.sh's defaults (UB_NS_A, UB_DEV_A, UB_IP6_A ...).
inline const std::string kNsA = "uboeA", kNsB = "uboeB";
inline const std::string kDevA = "udmaA", kDevB = "udmaB";
inline const std::string kVethA = "vA", kVethB = "vB";
inline const std::string kIp6A = "fd77::1", kIp6B = "fd77::2";

using ub_itest::lib_sh;

// This process into network namespace ns (lib.sh's /run/netns/ns), with a
// mount namespace of its own whose /sys is ns's (so /sys/class/ubcore and
// /sys/class/net show ns's devices), as "ip netns exec" does it.
inline bool enter_ns(const std::string &ns)
{
    int fd = open(("/run/netns/" + ns).c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        std::fprintf(stderr, "open /run/netns/%s: %s\n", ns.c_str(), std::strerror(errno));
        return false;
    }
    int ret = setns(fd, CLONE_NEWNET);
    close(fd);
    if (ret != 0 || unshare(CLONE_NEWNS) != 0 || mount("", "/", nullptr, MS_SLAVE | MS_REC, nullptr) != 0 ||
        umount2("/sys", MNT_DETACH) != 0 || mount(ns.c_str(), "/sys", "sysfs", 0, nullptr) != 0) {
        std::fprintf(stderr, "entering %s: %s\n", ns.c_str(), std::strerror(errno));
        return false;
    }
    return true;
}

// What fn returns when run in a child in namespace ns ("" if it failed).
inline std::string in_ns(const std::string &ns, const std::function<std::string()> &fn)
{
    int p[2];
    if (pipe(p) != 0)
        return "";
    pid_t pid = fork();
    if (pid == 0) {
        close(p[0]);
        if (!enter_ns(ns))
            _exit(1);
        std::string s = fn();
        size_t off = 0;
        while (off < s.size()) {
            ssize_t n = write(p[1], s.data() + off, s.size() - off);
            if (n <= 0)
                _exit(1);
            off += static_cast<size_t>(n);
        }
        _exit(0);
    }
    close(p[1]);
    std::string out;
    char buf[4096];
    ssize_t n;
    while ((n = read(p[0], buf, sizeof(buf))) > 0)
        out.append(buf, static_cast<size_t>(n));
    close(p[0]);
    int status = 0;
    if (pid > 0)
        waitpid(pid, &status, 0);
    return out;
}

inline std::string read_file(const std::string &path)
{
    std::ifstream f(path);
    std::stringstream text;
    text << f.rdbuf();
    return text.str();
}

// "ip link set netdev up|down" in this process's namespace, as lib.sh's
// ub_link_up and ub_link_down do it: the IFF_UP bit of sysfs "flags".
inline bool set_link(const std::string &netdev, bool up)
{
    const std::string path = "/sys/class/net/" + netdev + "/flags";
    long f = std::strtol(read_file(path).c_str(), nullptr, 0);
    char v[32];
    std::snprintf(v, sizeof(v), "%#lx\n", up ? f | 1 : f & ~1L);
    return f != 0 && ub_itest::write_sysfs(path, v);
}

// Both ends of the veth at mtu (the bed's is 1500), as "ip link set mtu"
// does it: sysfs "mtu". udma's packets follow it from the next message.
inline bool set_mtu(int mtu)
{
    const std::string v = std::to_string(mtu) + "\n";
    return ub_itest::write_sysfs("/sys/class/net/" + kVethA + "/mtu", v) &&
           in_ns(kNsB, [&v] {
               return ub_itest::write_sysfs("/sys/class/net/" + kVethB + "/mtu", v) ? "ok" : "";
           }) == "ok";
}

// A wire counter of udmaB (read in uboeB).
inline long wire_b(const std::string &counter)
{
    return std::strtol(
        in_ns(kNsB, [&counter] { return read_file("/sys/class/ubcore/" + kDevB + "/wire/" + counter); }).c_str(),
        nullptr, 10);
}

// udmaA's TP table (this process is in uboeA) and udmaB's (read in uboeB).
inline std::vector<TpRow> tps_a() { return ub_itest::tp_table(kDevA); }
inline std::vector<TpRow> tps_b()
{
    return ub_itest::parse_tp_table(in_ns(kNsB, [] { return read_file("/sys/class/ubcore/" + kDevB + "/cm/tp"); }));
}

// Whether both ends' tables have n rows within 5 s.
inline bool tables_have(size_t n)
{
    return ub_itest::wait_for([n] { return tps_a().size() == n; }, 5000) &&
           ub_itest::wait_for([n] { return tps_b().size() == n; }, 5000);
}

// Whether udmaB's end of its one TP is in state within 5 s. The target's
// end is established when its connection manager has handled the
// CONN_ACK, after the initiator's import or bind returned: until then it
// drops data (see SendRightBehindTheImportArrives), so the tests that are
// about something else wait for it before their first message.
inline bool peer_end_is(const std::string &state)
{
    return ub_itest::wait_for(
        [&state] {
            auto b = tps_b();
            return b.size() == 1 && b[0].state == state;
        },
        5000);
}

inline std::string both_tables() { return "udmaA:\n" + describe(tps_a()) + "udmaB:\n" + describe(tps_b()); }

// A wire counter of udmaA (this namespace's sysfs).
inline long wire_a(const std::string &counter)
{
    return ub_itest::sysfs_long("/sys/class/ubcore/" + kDevA + "/wire/" + counter);
}

// ---- one end's URMA objects -------------------------------------------------

// A registered buffer.
struct Buf {
    uint8_t *p = nullptr;
    size_t len = 0;
    urma_target_seg_t *reg = nullptr;
    uint64_t va(size_t off = 0) const { return reinterpret_cast<uintptr_t>(p) + off; }
};

// The objects of one end: a context on the EID of ip on dev, a send and a
// receive JFC, jetties (each with its own JFR on the receive JFC), buffers,
// imports. close() deletes what is left, newest first. No GoogleTest
// macros: the peer uses it too; failures are printed, with errno.
class Side {
public:
    ~Side() { close(); }

    bool open(const std::string &dev, const std::string &ip)
    {
        if (urma_init(nullptr) != URMA_SUCCESS)
            return fail("urma_init");
        inited_ = true;
        urma_device_t *d = urma_get_device_by_name(const_cast<char *>(dev.c_str()));
        if (d == nullptr)
            return fail("no device " + dev);
        urma_eid_t want = {};
        if (inet_pton(AF_INET6, ip.c_str(), want.raw) != 1)
            return fail("bad address " + ip);
        uint32_t cnt = 0;
        urma_eid_info_t *eids = urma_get_eid_list(d, &cnt);
        if (eids == nullptr)
            return fail("no EID list of " + dev);
        int idx = -1;
        for (uint32_t i = 0; i < cnt; i++)
            if (std::memcmp(eids[i].eid.raw, want.raw, sizeof(want.raw)) == 0)
                idx = static_cast<int>(eids[i].eid_index);
        urma_free_eid_list(eids);
        if (idx < 0)
            return fail(dev + " has no EID " + ip);
        eid = want;
        ctx = urma_create_context(d, static_cast<uint32_t>(idx));
        if (ctx == nullptr)
            return fail("context on " + dev);
        urma_jfc_cfg_t c = ub_itest::jfc_cfg(256);
        scq = urma_create_jfc(ctx, &c);
        rcq = urma_create_jfc(ctx, &c);
        return scq != nullptr && rcq != nullptr ? true : fail("JFC");
    }

    // A jetty in mode with its own JFR (token kJfrToken) on rcq; kMaxSge
    // SGEs per WR and kMaxInline bytes of inline data.
    static constexpr uint8_t kMaxSge = 4;
    static constexpr uint32_t kMaxInline = 128;
    urma_jetty_t *jetty(urma_transport_mode_t mode, uint8_t rnr_retry = URMA_TYPICAL_RNR_RETRY)
    {
        urma_jfr_cfg_t rc = ub_itest::jfr_cfg(rcq);
        rc.trans_mode = mode;
        rc.token_value.token = kJfrToken;
        rc.max_sge = kMaxSge;
        urma_jetty_cfg_t jc = {};
        jc.jfs_cfg = ub_itest::jfs_cfg(scq);
        jc.jfs_cfg.trans_mode = mode;
        jc.jfs_cfg.max_sge = kMaxSge;
        jc.jfs_cfg.max_inline_data = kMaxInline;
        jc.jfs_cfg.rnr_retry = rnr_retry;
        jc.jfr_cfg = &rc;
        urma_jetty_t *j = urma_create_jetty(ctx, &jc);
        if (j == nullptr)
            fail("create jetty");
        else
            jetties_.push_back(j);
        return j;
    }
    bool delete_jetty(urma_jetty_t *j)
    {
        erase(jetties_, j);
        return urma_delete_jetty(j) == URMA_SUCCESS || fail("delete jetty");
    }

    // len bytes, registered with access (READ, WRITE and atomics unless
    // told) and token.
    Buf *buf(size_t len, uint32_t access = ub_itest::kAllAccess, uint32_t token = kSegToken)
    {
        auto b = std::make_unique<Buf>();
        b->len = len;
        b->p = static_cast<uint8_t *>(mmap(nullptr, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0));
        if (b->p == MAP_FAILED) {
            fail("mmap");
            return nullptr;
        }
        urma_seg_cfg_t sc = ub_itest::seg_cfg(b->p, len, access);
        sc.token_value.token = token;
        b->reg = urma_register_seg(ctx, &sc);
        bufs_.push_back(std::move(b));
        if (bufs_.back()->reg == nullptr) {
            fail("register segment");
            return nullptr;
        }
        return bufs_.back().get();
    }

    // The jetty id (on the peer) imported in mode with token; NULL with errno.
    urma_target_jetty_t *import(const urma_jetty_id_t &id, urma_transport_mode_t mode, uint32_t token = kJfrToken)
    {
        urma_target_jetty_t *tj = ub_itest::import_jetty(ctx, id, mode, token);
        int err = errno;
        if (tj != nullptr)
            imports_.push_back(tj);
        errno = err;
        return tj;
    }
    bool unimport(urma_target_jetty_t *tj)
    {
        erase(imports_, tj);
        return urma_unimport_jetty(tj) == URMA_SUCCESS || fail("unimport jetty");
    }

    // b's segment unregistered (its memory stays mapped).
    bool unregister(Buf *b)
    {
        urma_target_seg_t *reg = b->reg;
        b->reg = nullptr;
        return urma_unregister_seg(reg) == URMA_SUCCESS || fail("unregister segment");
    }

    // The peer's segment seg, imported with token.
    urma_target_seg_t *import_seg(urma_seg_t seg, uint32_t token = kSegToken)
    {
        urma_token_t t = {token};
        urma_import_seg_flag_t f = {};
        f.bs.access = ub_itest::kAllAccess;
        f.bs.mapping = URMA_SEG_NOMAP;
        urma_target_seg_t *s = urma_import_seg(ctx, &seg, &t, 0, f);
        if (s == nullptr)
            fail("import segment");
        else
            segs_.push_back(s);
        return s;
    }

    urma_status_t recv(urma_jetty_t *j, const Buf &b, size_t off, uint32_t len, uint64_t user_ctx)
    {
        urma_sge_t s = {b.va(off), len, b.reg, nullptr};
        urma_jfr_wr_t wr = {};
        wr.src = {&s, 1};
        wr.user_ctx = user_ctx;
        urma_jfr_wr_t *bad = nullptr;
        return urma_post_jetty_recv_wr(j, &wr, &bad);
    }

    // A SEND of len bytes at b + off from j to tj (the bound peer if NULL).
    urma_status_t send(urma_jetty_t *j, urma_target_jetty_t *tj, const Buf &b, size_t off, uint32_t len,
                       uint64_t user_ctx)
    {
        urma_sge_t s = {b.va(off), len, b.reg, nullptr};
        urma_jfs_wr_t wr = {};
        wr.opcode = URMA_OPC_SEND;
        wr.flag.bs.complete_enable = 1;
        wr.tjetty = tj;
        wr.user_ctx = user_ctx;
        wr.send.src = {&s, 1};
        urma_jfs_wr_t *bad = nullptr;
        return urma_post_jetty_send_wr(j, &wr, &bad);
    }

    // A WRITE (local b + off to remote va) or a READ (remote va to b + off).
    urma_status_t rw(urma_opcode_t op, urma_jetty_t *j, urma_target_jetty_t *tj, const Buf &b, size_t off,
                     urma_target_seg_t *remote, uint64_t va, uint32_t len, uint64_t user_ctx)
    {
        urma_sge_t l = {b.va(off), len, b.reg, nullptr};
        urma_sge_t r = {va, len, remote, nullptr};
        urma_jfs_wr_t wr = {};
        wr.opcode = op;
        wr.flag.bs.complete_enable = 1;
        wr.tjetty = tj;
        wr.user_ctx = user_ctx;
        wr.rw.src = {op == URMA_OPC_READ ? &r : &l, 1};
        wr.rw.dst = {op == URMA_OPC_READ ? &l : &r, 1};
        urma_jfs_wr_t *bad = nullptr;
        return urma_post_jetty_send_wr(j, &wr, &bad);
    }

    // A FETCH_AND_ADD of operand to the remote word at va; the old value
    // lands at b + off.
    urma_status_t faa(urma_jetty_t *j, urma_target_jetty_t *tj, const Buf &b, size_t off, urma_target_seg_t *remote,
                      uint64_t va, uint64_t operand, uint64_t user_ctx)
    {
        urma_sge_t d = {va, 8, remote, nullptr};
        urma_sge_t s = {b.va(off), 8, b.reg, nullptr};
        urma_jfs_wr_t wr = {};
        wr.opcode = URMA_OPC_FADD;
        wr.flag.bs.complete_enable = 1;
        wr.tjetty = tj;
        wr.user_ctx = user_ctx;
        wr.faa.dst = &d;
        wr.faa.src = &s;
        wr.faa.operand = operand;
        urma_jfs_wr_t *bad = nullptr;
        return urma_post_jetty_send_wr(j, &wr, &bad);
    }

    // The next completion record of jfc within timeout_ms, or false.
    bool poll(urma_jfc_t *jfc, urma_cr_t *cr, int timeout_ms = 30000)
    {
        uint64_t end = ub_itest::now_ms() + static_cast<uint64_t>(timeout_ms);
        for (;;) {
            int n = urma_poll_jfc(jfc, 1, cr);
            if (n == 1)
                return true;
            if (n < 0 || ub_itest::now_ms() > end)
                return fail("no completion record within " + std::to_string(timeout_ms) + " ms");
            usleep(100);
        }
    }

    // The TPs of mode between this end's EID and peer's, as
    // urma_get_tp_list() gives them; -1 if it failed.
    int tp_count(urma_transport_mode_t mode, const urma_eid_t &peer, uint64_t *first = nullptr)
    {
        urma_get_tp_cfg_t cfg = {};
        cfg.trans_mode = mode;
        cfg.local_eid = eid;
        cfg.peer_eid = peer;
        urma_tp_info_t tps[8] = {};
        uint32_t cnt = 8;
        if (urma_get_tp_list(ctx, &cfg, &cnt, tps) != URMA_SUCCESS)
            return -1;
        if (first != nullptr && cnt > 0)
            *first = tps[0].tp_handle;
        return static_cast<int>(cnt);
    }

    // Deletes every object left, newest first; false if a delete failed.
    bool close()
    {
        bool ok = true;
        for (auto it = segs_.rbegin(); it != segs_.rend(); ++it)
            ok &= urma_unimport_seg(*it) == URMA_SUCCESS;
        // jetties first: deleting a bound jetty unbinds its import
        for (auto it = jetties_.rbegin(); it != jetties_.rend(); ++it)
            ok &= urma_delete_jetty(*it) == URMA_SUCCESS;
        for (auto it = imports_.rbegin(); it != imports_.rend(); ++it)
            ok &= urma_unimport_jetty(*it) == URMA_SUCCESS;
        for (auto it = bufs_.rbegin(); it != bufs_.rend(); ++it) {
            if ((*it)->reg != nullptr)
                ok &= urma_unregister_seg((*it)->reg) == URMA_SUCCESS;
            munmap((*it)->p, (*it)->len);
        }
        for (urma_jfc_t *c : {rcq, scq})
            if (c != nullptr)
                ok &= urma_delete_jfc(c) == URMA_SUCCESS;
        if (ctx != nullptr)
            ok &= urma_delete_context(ctx) == URMA_SUCCESS;
        if (inited_)
            ok &= urma_uninit() == URMA_SUCCESS;
        segs_.clear();
        imports_.clear();
        jetties_.clear();
        bufs_.clear();
        rcq = scq = nullptr;
        ctx = nullptr;
        inited_ = false;
        return ok || fail("close");
    }

    urma_context_t *ctx = nullptr;
    urma_jfc_t *scq = nullptr, *rcq = nullptr;
    urma_eid_t eid = {};

private:
    static bool fail(const std::string &what)
    {
        std::fprintf(stderr, "[pid %d] %s failed: %s\n", getpid(), what.c_str(), std::strerror(errno));
        return false;
    }
    template <typename T> static void erase(std::vector<T> &v, T x)
    {
        for (auto it = v.begin(); it != v.end(); ++it)
            if (*it == x) {
                v.erase(it);
                return;
            }
    }

    bool inited_ = false;
    std::vector<urma_jetty_t *> jetties_;
    std::vector<urma_target_jetty_t *> imports_;
    std::vector<urma_target_seg_t *> segs_;
    std::vector<std::unique_ptr<Buf>> bufs_;
};

// ---- the peer: a child in uboeB -------------------------------------------

// One message between the test and its peer: a step name and its values.
struct Msg {
    char step[32];
    uint64_t value;
    uint64_t arg[4];
    urma_cr_t cr;
    urma_jetty_id_t jetty[3];
    urma_seg_t seg;
    urma_eid_t eid;
};

// The test's end or the peer's of a SOCK_SEQPACKET socketpair.
class Chan {
public:
    explicit Chan(int fd = -1) : fd_(fd) {}
    bool say(const char *step, Msg m = {})
    {
        std::snprintf(m.step, sizeof(m.step), "%s", step);
        return write(fd_, &m, sizeof(m)) == static_cast<ssize_t>(sizeof(m));
    }
    // The next message, which must be step, within timeout_ms.
    bool hear(const char *step, Msg *m = nullptr, int timeout_ms = 120000)
    {
        Msg tmp;
        Msg *out = m != nullptr ? m : &tmp;
        if (!next(out, timeout_ms)) {
            std::fprintf(stderr, "[pid %d] nothing heard for step %s\n", getpid(), step);
            return false;
        }
        if (std::strncmp(out->step, step, sizeof(out->step)) != 0) {
            std::fprintf(stderr, "[pid %d] heard step %.32s, want %s\n", getpid(), out->step, step);
            return false;
        }
        return true;
    }
    // The next message, whatever its step, within timeout_ms.
    bool next(Msg *m, int timeout_ms = 120000)
    {
        struct pollfd p = {fd_, POLLIN, 0};
        return poll(&p, 1, timeout_ms) == 1 && read(fd_, m, sizeof(*m)) == static_cast<ssize_t>(sizeof(*m));
    }
    // say(step), then hear(reply).
    bool ask(const char *step, const char *reply, Msg *m = nullptr) { return say(step) && hear(reply, m); }
    int fd() const { return fd_; }

private:
    int fd_;
};

// In the peer: a failed check prints where and why and ends the peer with
// status 1, which fails the test (NsPair::TearDown).
#define PEER_CHECK(cond)                                                                                       \
    do {                                                                                                       \
        if (!(cond)) {                                                                                         \
            std::fprintf(stderr, "peer %s:%d: %s is false (errno %d %s)\n", __FILE__, __LINE__, #cond, errno, \
                         std::strerror(errno));                                                                \
            return 1;                                                                                          \
        }                                                                                                      \
    } while (0)

// The peer's program: runs in uboeB with a Side opened on udmaB's fd77::2
// and its end of the channel; returns its exit status.
using PeerFn = std::function<int(Side &, Chan &)>;

// In the peer: a jetty in mode and a buffer of len bytes, a receive of
// its first recv_len bytes (user_ctx 1) posted, offered to the test as
// "ready" (the jetty, the buffer's segment); NULL if that failed.
inline urma_jetty_t *offer(Side &s, Chan &c, urma_transport_mode_t mode, Buf **b, size_t len = 4096,
                    uint32_t recv_len = 1024)
{
    urma_jetty_t *j = s.jetty(mode);
    *b = j != nullptr ? s.buf(len) : nullptr;
    if (*b == nullptr || s.recv(j, **b, 0, recv_len, 1) != URMA_SUCCESS)
        return nullptr;
    Msg m = {};
    m.jetty[0] = j->jetty_id;
    m.seg = (*b)->reg->seg;
    return c.say("ready", m) ? j : nullptr;
}

// In the peer: the next record of its receive JFC is a receive of len
// bytes (user_ctx) that put fill(seed) at b + off.
inline bool received(Side &s, const Buf &b, size_t off, uint32_t len, uint64_t seed, uint64_t user_ctx = 1)
{
    urma_cr_t cr;
    if (!s.poll(s.rcq, &cr, 60000))
        return false;
    std::vector<uint8_t> want(len);
    fill(want.data(), len, seed);
    if (cr.status != URMA_CR_SUCCESS || cr.completion_len != len || cr.user_ctx != user_ctx ||
        std::memcmp(b.p + off, want.data(), len) != 0) {
        std::fprintf(stderr, "peer: receive: status %d, %u bytes, user_ctx %llu, data %s\n", cr.status,
                     cr.completion_len, static_cast<unsigned long long>(cr.user_ctx),
                     std::memcmp(b.p + off, want.data(), len) == 0 ? "as sent" : "not as sent");
        return false;
    }
    return true;
}

// ---- the bed ----------------------------------------------------------------

// Builds lib.sh's namespace pair, loads the stack (udma bound to nothing)
// and adds udmaA and udmaB from inside their namespaces; then moves this
// process into uboeA. At the end: back to where it was, the stack
// unloaded, the namespaces deleted.
class NsPairBed : public ::testing::Environment {
public:
    void SetUp() override
    {
        ASSERT_EQ(lib_sh("ub_nspair_destroy; ub_nspair_create && ub_load_stack && ub_nspair_add_devs"), 0);
        net_ = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
        mnt_ = open("/proc/self/ns/mnt", O_RDONLY | O_CLOEXEC);
        ASSERT_GE(net_, 0);
        ASSERT_GE(mnt_, 0);
        ASSERT_TRUE(enter_ns(kNsA));
    }
    void TearDown() override
    {
        // Back to the first namespaces, so that lib.sh's "ip netns del"
        // unmounts /run/netns/* where they were mounted.
        EXPECT_EQ(setns(mnt_, CLONE_NEWNS), 0) << std::strerror(errno);
        EXPECT_EQ(setns(net_, CLONE_NEWNET), 0) << std::strerror(errno);
        close(mnt_);
        close(net_);
        EXPECT_EQ(lib_sh("ub_unload_stack; r=$?; ub_nspair_destroy; exit $r"), 0);
    }

private:
    int net_ = -1, mnt_ = -1;
};

inline ::testing::Environment *const g_bed = ::testing::AddGlobalTestEnvironment(new NsPairBed);

class NsPair : public ::testing::Test {
protected:
    // Forks the peer (before this process touches liburma: the peer shares
    // nothing of it), then opens this end: udmaA's fd77::1 (or my_dev's
    // my_ip; the peer: peer_dev's peer_ip in peer_ns).
    void start(PeerFn fn, const std::string &peer_ns = kNsB, const std::string &peer_dev = kDevB,
               const std::string &peer_ip = kIp6B, const std::string &my_dev = kDevA,
               const std::string &my_ip = kIp6A)
    {
        int sv[2];
        ASSERT_EQ(socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv), 0);
        pid_ = fork();
        ASSERT_GE(pid_, 0);
        if (pid_ == 0) {
            close(sv[0]);
            int rc = 1;
            if (enter_ns(peer_ns)) {
                Side s;
                Chan c(sv[1]);
                if (s.open(peer_dev, peer_ip))
                    rc = fn(s, c);
                if (rc == 0 && !s.close())
                    rc = 1;
            }
            _exit(rc);
        }
        close(sv[1]);
        peer = Chan(sv[0]);
        ASSERT_TRUE(me.open(my_dev, my_ip));
    }

    // The peer's exit status (-1 if it did not exit; it is killed after
    // timeout_ms).
    int reap(int timeout_ms = 60000)
    {
        if (pid_ <= 0)
            return status_;
        int st = 0;
        uint64_t end = ub_itest::now_ms() + static_cast<uint64_t>(timeout_ms);
        pid_t r;
        while ((r = waitpid(pid_, &st, WNOHANG)) == 0 && ub_itest::now_ms() < end)
            usleep(10000);
        if (r == 0) {
            kill(pid_, SIGKILL);
            waitpid(pid_, &st, 0);
        }
        pid_ = 0;
        status_ = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
        return status_;
    }

    // Kills the peer (it is dead for this test's purposes).
    void kill_peer()
    {
        ASSERT_GT(pid_, 0);
        kill(pid_, SIGKILL);
        waitpid(pid_, nullptr, 0);
        pid_ = 0;
        status_ = 0;
    }

    void TearDown() override
    {
        EXPECT_TRUE(me.close());
        // A peer still waiting for a step (the test failed) hears the end.
        if (peer.fd() >= 0)
            close(peer.fd());
        EXPECT_EQ(reap(), 0) << "the peer failed (its messages are above)";
        // Every TP went with its last user, at both ends; nothing of this
        // process is left on udmaA.
        EXPECT_TRUE(tables_have(0)) << both_tables();
        EXPECT_TRUE(ub_itest::wait_for([] { return ub_itest::all_counts_zero(kDevA); }, 3000))
            << ub_itest::counts(kDevA);
    }

    // The peer's offer (m): its jetty imported in mode (tj), a jetty of
    // this end in the same mode (j) and a buffer of 8 KiB (l).
    struct Offer {
        Msg m;
        urma_jetty_t *j;
        Buf *l;
        urma_target_jetty_t *tj;
    };
    void take_offer(urma_transport_mode_t mode, Offer *o)
    {
        ASSERT_TRUE(peer.hear("ready", &o->m));
        o->j = me.jetty(mode);
        o->l = me.buf(8192);
        ASSERT_TRUE(o->j && o->l);
        o->tj = me.import(o->m.jetty[0], mode);
        ASSERT_NE(o->tj, nullptr) << std::strerror(errno);
    }

    // A peer that offers a jetty of mode (offer()) and keeps it until told
    // "done"; its offer taken (take_offer()).
    void offer_until_done(urma_transport_mode_t mode, Offer *o)
    {
        start([mode](Side &s, Chan &c) {
            Buf *b = nullptr;
            PEER_CHECK(offer(s, c, mode, &b));
            PEER_CHECK(c.hear("done"));
            return 0;
        });
        ASSERT_NO_FATAL_FAILURE(take_offer(mode, o));
    }

    // While it lives, the peer is silent: everything its veth sends is
    // lost (netem loss 100% on vB); the qdisc goes with it.
    class PeerSilenced {
    public:
        PeerSilenced() : ok_(lib_sh("tc -n \"$UB_NS_B\" qdisc add dev \"$UB_VETH_B\" root netem loss 100%") == 0) {}
        PeerSilenced(const PeerSilenced &) = delete;
        PeerSilenced &operator=(const PeerSilenced &) = delete;
        ~PeerSilenced()
        {
            if (ok_) {
                EXPECT_EQ(lib_sh("tc -n \"$UB_NS_B\" qdisc del dev \"$UB_VETH_B\" root"), 0);
            }
        }
        bool ok() const { return ok_; }

    private:
        bool ok_;
    };

    // A SEND or a WRITE, READ or FAA (post) completes with status.
    void completes(urma_status_t posted, uint64_t user_ctx, urma_cr_status_t status = URMA_CR_SUCCESS)
    {
        ASSERT_EQ(posted, URMA_SUCCESS);
        urma_cr_t cr;
        ASSERT_TRUE(me.poll(me.scq, &cr));
        EXPECT_EQ(cr.status, status);
        EXPECT_EQ(cr.user_ctx, user_ctx);
    }

    Side me;
    Chan peer;

private:
    pid_t pid_ = 0;
    int status_ = -1;
};

}  // namespace ub_nspair
