// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The UB/URMA stack authors
// Two user processes on two "hosts" (issue 10): the namespace pair of
// tests/guest/lib.sh (ub_nspair_*: namespaces uboeA and uboeB joined by
// the veth pair vA/vB, udmaA on vA in A, udmaB on vB in B, every packet
// between them a UBoE packet). This binary builds the bed itself with
// lib.sh's functions when it starts (the global environment below) and
// removes it at the end, so the plain itest run of check-guest.sh runs it
// with its bed. The test process then lives in uboeA; each test forks a
// peer that enters uboeB (setns and a sysfs of its own, as "ip netns exec"
// does) and serves as the remote side, talking to the test over a
// socketpair (jetty IDs, segments, "go" signals).
//
// Expectations: the user guide 5.1.1 (RM shares one TP per EID pair, RC
// one per bound jetty pair, UM none; both ends opening at once make one
// TP; a reject reaches the caller), docs/connection-manager.md (the
// errnos, peer loss: an RC TP's bound jetty goes to ERROR with
// URMA_EVENT_JETTY_ERR, its WQEs flushed, a WR_FLUSH_ERR_DONE record),
// the state names of figure 14 as ubcore and urma_admin print them, and
// lib.sh's addresses (the bed's EIDs).
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

#ifndef URMA_ADMIN_PATH
#error "URMA_ADMIN_PATH must name the built urma_admin"
#endif

namespace {

using ub_itest::cells;
using ub_itest::describe;
using ub_itest::fill;
using ub_itest::kJfrToken;
using ub_itest::kSegToken;
using ub_itest::TpRow;

// The bed: lib.sh's defaults (UB_NS_A, UB_DEV_A, UB_IP6_A ...).
const std::string kNsA = "uboeA", kNsB = "uboeB";
const std::string kDevA = "udmaA", kDevB = "udmaB";
const std::string kVethB = "vB";
const std::string kIp6A = "fd77::1", kIp6B = "fd77::2";

// Runs lib.sh's functions (script) in bash; its exit status.
int lib_sh(const std::string &script)
{
    const char *top = std::getenv("UB_TOP");
    if (top == nullptr || std::getenv("UB_KMOD") == nullptr) {
        std::fprintf(stderr, "UB_TOP and UB_KMOD must be set (tests/guest/check-guest.sh does)\n");
        return -1;
    }
    std::string cmd = "bash -c '. \"$UB_TOP/tests/guest/lib.sh\" && " + script + "'";
    return ub_itest::run(cmd);
}

// This process into network namespace ns (lib.sh's /run/netns/ns), with a
// mount namespace of its own whose /sys is ns's (so /sys/class/ubcore and
// /sys/class/net show ns's devices), as "ip netns exec" does it.
bool enter_ns(const std::string &ns)
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
std::string in_ns(const std::string &ns, const std::function<std::string()> &fn)
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

std::string read_file(const std::string &path)
{
    std::ifstream f(path);
    std::stringstream text;
    text << f.rdbuf();
    return text.str();
}

// "ip link set netdev up|down" in this process's namespace, as lib.sh's
// ub_link_up and ub_link_down do it: the IFF_UP bit of sysfs "flags".
bool set_link(const std::string &netdev, bool up)
{
    const std::string path = "/sys/class/net/" + netdev + "/flags";
    long f = std::strtol(read_file(path).c_str(), nullptr, 0);
    char v[32];
    std::snprintf(v, sizeof(v), "%#lx\n", up ? f | 1 : f & ~1L);
    return f != 0 && ub_itest::write_sysfs(path, v);
}

// A wire counter of udmaB (read in uboeB).
long wire_b(const std::string &counter)
{
    return std::strtol(
        in_ns(kNsB, [&counter] { return read_file("/sys/class/ubcore/" + kDevB + "/wire/" + counter); }).c_str(),
        nullptr, 10);
}

// udmaA's TP table (this process is in uboeA) and udmaB's (read in uboeB).
std::vector<TpRow> tps_a() { return ub_itest::tp_table(kDevA); }
std::vector<TpRow> tps_b()
{
    return ub_itest::parse_tp_table(in_ns(kNsB, [] { return read_file("/sys/class/ubcore/" + kDevB + "/cm/tp"); }));
}

// Whether both ends' tables have n rows within 5 s.
bool tables_have(size_t n)
{
    return ub_itest::wait_for([n] { return tps_a().size() == n; }, 5000) &&
           ub_itest::wait_for([n] { return tps_b().size() == n; }, 5000);
}

// Whether udmaB's end of its one TP is in state within 5 s. The target's
// end is established when its connection manager has handled the
// CONN_ACK, after the initiator's import or bind returned: until then it
// drops data (see SendRightBehindTheImportArrives), so the tests that are
// about something else wait for it before their first message.
bool peer_end_is(const std::string &state)
{
    return ub_itest::wait_for(
        [&state] {
            auto b = tps_b();
            return b.size() == 1 && b[0].state == state;
        },
        5000);
}

std::string both_tables() { return "udmaA:\n" + describe(tps_a()) + "udmaB:\n" + describe(tps_b()); }

// A wire counter of udmaA (this namespace's sysfs).
long wire_a(const std::string &counter)
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

    // A jetty in mode with its own JFR (token kJfrToken) on rcq.
    urma_jetty_t *jetty(urma_transport_mode_t mode)
    {
        urma_jfr_cfg_t rc = ub_itest::jfr_cfg(rcq);
        rc.trans_mode = mode;
        rc.token_value.token = kJfrToken;
        urma_jetty_cfg_t jc = {};
        jc.jfs_cfg = ub_itest::jfs_cfg(scq);
        jc.jfs_cfg.trans_mode = mode;
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

    // len bytes, registered for READ, WRITE and atomics with token kSegToken.
    Buf *buf(size_t len)
    {
        auto b = std::make_unique<Buf>();
        b->len = len;
        b->p = static_cast<uint8_t *>(mmap(nullptr, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0));
        if (b->p == MAP_FAILED) {
            fail("mmap");
            return nullptr;
        }
        urma_seg_cfg_t sc = ub_itest::seg_cfg(b->p, len, ub_itest::kAllAccess);
        sc.token_value.token = kSegToken;
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

    // The peer's segment seg, imported with kSegToken.
    urma_target_seg_t *import_seg(urma_seg_t seg)
    {
        urma_token_t t = {kSegToken};
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
        struct pollfd p = {fd_, POLLIN, 0};
        if (poll(&p, 1, timeout_ms) != 1 || read(fd_, out, sizeof(*out)) != static_cast<ssize_t>(sizeof(*out))) {
            std::fprintf(stderr, "[pid %d] nothing heard for step %s\n", getpid(), step);
            return false;
        }
        if (std::strncmp(out->step, step, sizeof(out->step)) != 0) {
            std::fprintf(stderr, "[pid %d] heard step %.32s, want %s\n", getpid(), out->step, step);
            return false;
        }
        return true;
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
urma_jetty_t *offer(Side &s, Chan &c, urma_transport_mode_t mode, Buf **b, size_t len = 4096,
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
bool received(Side &s, const Buf &b, size_t off, uint32_t len, uint64_t seed, uint64_t user_ctx = 1)
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

::testing::Environment *const g_bed = ::testing::AddGlobalTestEnvironment(new NsPairBed);

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

// RM: the import opens the one TP of the EID pair across the namespaces
// (Initiator established here, Target established there, each naming the
// other's EID and TPN); SEND, WRITE, READ and FETCH_AND_ADD travel over it
// with their data; a message larger than one UBoE packet is segmented.
TEST_F(NsPair, RmImportCarriesSendWriteReadAndFaa)
{
    start([](Side &s, Chan &c) {
        Buf *b = nullptr;
        urma_jetty_t *pj = offer(s, c, URMA_TM_RM, &b, 8192);
        PEER_CHECK(pj != nullptr);
        fill(b->p + 2048, 512, 3);
        *reinterpret_cast<uint64_t *>(b->p + 4096) = 0x1000;
        PEER_CHECK(received(s, *b, 0, 1000, 1));
        PEER_CHECK(c.say("got-send"));
        PEER_CHECK(c.hear("wrote"));
        uint8_t w[512];
        fill(w, sizeof(w), 2);
        PEER_CHECK(std::memcmp(b->p + 1024, w, sizeof(w)) == 0);
        PEER_CHECK(c.say("checked-write"));
        PEER_CHECK(c.hear("added"));
        PEER_CHECK(*reinterpret_cast<uint64_t *>(b->p + 4096) == 0x1023);
        PEER_CHECK(c.say("checked-faa"));
        PEER_CHECK(s.recv(pj, *b, 0, 8192, 2) == URMA_SUCCESS);
        PEER_CHECK(c.say("posted-8k"));
        PEER_CHECK(received(s, *b, 0, 8192, 4, 2));
        PEER_CHECK(c.say("got-8k"));
        PEER_CHECK(c.hear("done"));
        return 0;
    });
    Offer o;
    ASSERT_NO_FATAL_FAILURE(take_offer(URMA_TM_RM, &o));
    auto &[m, j, l, tj] = o;
    EXPECT_EQ(ub_itest::eid_string(m.jetty[0].eid), kIp6B);
    ASSERT_NE(tj->tp.tpn, 0u);

    ASSERT_TRUE(tables_have(1)) << both_tables();
    ASSERT_TRUE(peer_end_is("Target established")) << both_tables();
    auto a = tps_a(), b = tps_b();
    EXPECT_EQ(a[0].tpn, tj->tp.tpn);
    EXPECT_EQ(a[0].peer, kIp6B);
    EXPECT_EQ(a[0].mode, "RM");
    EXPECT_EQ(a[0].state, "Initiator established");
    EXPECT_EQ(a[0].users, 1u);
    EXPECT_EQ(b[0].peer, kIp6A);
    EXPECT_EQ(b[0].mode, "RM");
    EXPECT_EQ(b[0].users, 0u);
    EXPECT_EQ(b[0].tpn, a[0].peer_tpn);
    EXPECT_EQ(b[0].peer_tpn, a[0].tpn);
    EXPECT_EQ(me.tp_count(URMA_TM_RM, m.jetty[0].eid), 1) << "one TP to the peer's EID";

    // The SEND leaves as a UBoE packet and its response comes back as one
    // (udmaB is in another namespace: another host, not the loopback).
    const long tx = wire_a("tx_packets"), rx = wire_a("rx_packets");
    fill(l->p, 1000, 1);
    ASSERT_NO_FATAL_FAILURE(completes(me.send(j, tj, *l, 0, 1000, 11), 11));
    EXPECT_GT(wire_a("tx_packets"), tx);
    EXPECT_GT(wire_a("rx_packets"), rx);
    ASSERT_TRUE(peer.hear("got-send"));

    urma_target_seg_t *rs = me.import_seg(m.seg);
    ASSERT_NE(rs, nullptr);
    const uint64_t va = m.seg.ubva.va;
    fill(l->p + 1024, 512, 2);
    ASSERT_NO_FATAL_FAILURE(completes(me.rw(URMA_OPC_WRITE, j, tj, *l, 1024, rs, va + 1024, 512, 12), 12));
    ASSERT_TRUE(peer.ask("wrote", "checked-write"));

    std::memset(l->p + 2048, 0, 512);
    ASSERT_NO_FATAL_FAILURE(completes(me.rw(URMA_OPC_READ, j, tj, *l, 2048, rs, va + 2048, 512, 13), 13));
    uint8_t want[512];
    fill(want, sizeof(want), 3);
    EXPECT_EQ(std::memcmp(l->p + 2048, want, sizeof(want)), 0) << "READ brought the peer's bytes";

    *reinterpret_cast<uint64_t *>(l->p + 4096) = 0;
    ASSERT_NO_FATAL_FAILURE(completes(me.faa(j, tj, *l, 4096, rs, va + 4096, 0x23, 14), 14));
    EXPECT_EQ(*reinterpret_cast<uint64_t *>(l->p + 4096), 0x1000u) << "the old value";
    ASSERT_TRUE(peer.ask("added", "checked-faa"));

    // 8192 bytes do not fit in one UBoE packet at vA's MTU of 1500: the
    // carrier segments the SEND (1 KiB of payload a packet at this MTU,
    // docs/uboe-wire.md: 8 packets) and the peer's one RQE takes it whole.
    ASSERT_TRUE(peer.hear("posted-8k"));
    const long too_big = wire_a("tx_msg_too_big"), tx8 = wire_a("tx_packets");
    fill(l->p, 8192, 4);
    ASSERT_NO_FATAL_FAILURE(completes(me.send(j, tj, *l, 0, 8192, 15), 15));
    EXPECT_GE(wire_a("tx_packets") - tx8, 8) << "one packet per KiB";
    EXPECT_EQ(wire_a("tx_msg_too_big"), too_big);
    ASSERT_TRUE(peer.hear("got-8k"));
    ASSERT_TRUE(peer.say("done"));
}

// RC: the import opens nothing; the bind opens the pair's TP; the peer
// binds back on it (one TP, "reused" at both ends); SENDs both ways.
TEST_F(NsPair, RcBindCarriesSendsBothWays)
{
    start([](Side &s, Chan &c) {
        Buf *b = nullptr;
        urma_jetty_t *j = offer(s, c, URMA_TM_RC, &b);
        PEER_CHECK(j != nullptr);
        Msg m;
        PEER_CHECK(c.hear("bound", &m));
        PEER_CHECK(received(s, *b, 0, 200, 5));
        urma_target_jetty_t *tj = s.import(m.jetty[0], URMA_TM_RC);
        PEER_CHECK(tj != nullptr);
        PEER_CHECK(urma_bind_jetty(j, tj) == URMA_SUCCESS);
        fill(b->p + 1024, 100, 6);
        PEER_CHECK(s.send(j, nullptr, *b, 1024, 100, 2) == URMA_SUCCESS);
        urma_cr_t cr;
        PEER_CHECK(s.poll(s.scq, &cr));
        PEER_CHECK(cr.status == URMA_CR_SUCCESS);
        PEER_CHECK(c.say("sent-back"));
        PEER_CHECK(c.hear("unbind"));
        PEER_CHECK(urma_unbind_jetty(j) == URMA_SUCCESS);
        PEER_CHECK(c.say("unbound"));
        PEER_CHECK(c.hear("done"));
        return 0;
    });
    Offer o;
    ASSERT_NO_FATAL_FAILURE(take_offer(URMA_TM_RC, &o));
    auto &[m, j, l, tj] = o;
    EXPECT_EQ(tj->tp.tpn, 0u) << "RC: no TP before the bind";
    EXPECT_TRUE(tps_a().empty()) << both_tables();
    ASSERT_EQ(urma_bind_jetty(j, tj), URMA_SUCCESS);
    ASSERT_TRUE(tables_have(1)) << both_tables();
    ASSERT_TRUE(peer_end_is("Target established")) << both_tables();
    EXPECT_EQ(tps_a()[0].mode, "RC");
    EXPECT_EQ(tps_a()[0].state, "Initiator established");
    EXPECT_EQ(tps_a()[0].peer, kIp6B);
    EXPECT_EQ(tps_b()[0].mode, "RC");
    EXPECT_EQ(tps_b()[0].peer, kIp6A);

    ASSERT_EQ(me.recv(j, *l, 2048, 256, 3), URMA_SUCCESS);
    fill(l->p, 200, 5);
    ASSERT_NO_FATAL_FAILURE(completes(me.send(j, nullptr, *l, 0, 200, 21), 21));
    m = {};
    m.jetty[0] = j->jetty_id;
    ASSERT_TRUE(peer.say("bound", m));
    ASSERT_TRUE(peer.hear("sent-back"));
    EXPECT_TRUE(received(me, *l, 2048, 100, 6, 3));
    // The peer's bind took the TP of the pair: still one, reused by both.
    ASSERT_TRUE(tables_have(1)) << both_tables();
    for (const auto &rows : {tps_a(), tps_b()}) {
        EXPECT_EQ(rows[0].state, "reused") << both_tables();
        EXPECT_EQ(rows[0].users, 1u) << both_tables();
    }
    EXPECT_EQ(urma_unbind_jetty(j), URMA_SUCCESS);
    ASSERT_TRUE(peer.ask("unbind", "unbound"));
    EXPECT_TRUE(tables_have(0)) << both_tables();
    ASSERT_TRUE(peer.say("done"));
}

// UM: a datagram; the import opens no TP on either side.
TEST_F(NsPair, UmSendNeedsNoTp)
{
    start([](Side &s, Chan &c) {
        Buf *b = nullptr;
        PEER_CHECK(offer(s, c, URMA_TM_UM, &b));
        PEER_CHECK(received(s, *b, 0, 300, 7));
        PEER_CHECK(c.say("got"));
        PEER_CHECK(c.hear("done"));
        return 0;
    });
    Offer o;
    ASSERT_NO_FATAL_FAILURE(take_offer(URMA_TM_UM, &o));
    auto &[m, j, l, tj] = o;
    EXPECT_EQ(tj->tp.tpn, 0u);
    fill(l->p, 300, 7);
    ASSERT_NO_FATAL_FAILURE(completes(me.send(j, tj, *l, 0, 300, 31), 31));
    ASSERT_TRUE(peer.hear("got"));
    EXPECT_TRUE(tps_a().empty()) << both_tables();
    EXPECT_TRUE(tps_b().empty()) << both_tables();
    ASSERT_TRUE(peer.say("done"));
}

// Both ends import each other's RM jetty at once, five times: the
// CONN_REQs may cross (1408-1410) or not (1414); either way one TP of the
// EID pair, urma_get_tp_list names it at each end, both ends "reused",
// one user each; the unimports close it at both ends.
TEST_F(NsPair, BothSidesImportingAtOnceMakeOneTp)
{
    constexpr int kRounds = 5;
    start([](Side &s, Chan &c) {
        urma_jetty_t *j = s.jetty(URMA_TM_RM);
        PEER_CHECK(j != nullptr);
        Msg m = {};
        m.jetty[0] = j->jetty_id;
        PEER_CHECK(c.say("ready", m));
        PEER_CHECK(c.hear("jetty", &m));
        for (int round = 0; round < kRounds; round++) {
            PEER_CHECK(c.hear("go"));
            urma_target_jetty_t *tj = s.import(m.jetty[0], URMA_TM_RM);
            PEER_CHECK(tj != nullptr);
            Msg r = {};
            r.value = tj->tp.tpn;
            PEER_CHECK(c.say("imported", r));
            PEER_CHECK(c.hear("unimport"));
            PEER_CHECK(s.unimport(tj));
            PEER_CHECK(c.say("unimported"));
        }
        PEER_CHECK(c.hear("done"));
        return 0;
    });
    Msg m;
    ASSERT_TRUE(peer.hear("ready", &m));
    urma_jetty_t *j = me.jetty(URMA_TM_RM);
    ASSERT_NE(j, nullptr);
    Msg mine = {};
    mine.jetty[0] = j->jetty_id;
    ASSERT_TRUE(peer.say("jetty", mine));
    for (int round = 0; round < kRounds; round++) {
        SCOPED_TRACE("round " + std::to_string(round));
        ASSERT_TRUE(peer.say("go"));
        urma_target_jetty_t *tj = me.import(m.jetty[0], URMA_TM_RM);
        ASSERT_NE(tj, nullptr) << std::strerror(errno);
        Msg r;
        ASSERT_TRUE(peer.hear("imported", &r));
        uint64_t handle = 0;
        EXPECT_EQ(me.tp_count(URMA_TM_RM, m.jetty[0].eid, &handle), 1);
        EXPECT_EQ(handle, tj->tp.tpn);
        ASSERT_TRUE(tables_have(1)) << both_tables();
        auto a = tps_a(), b = tps_b();
        EXPECT_EQ(a[0].tpn, tj->tp.tpn);
        EXPECT_EQ(b[0].tpn, r.value) << "the peer's import is on its end of the same TP";
        EXPECT_EQ(a[0].peer_tpn, b[0].tpn);
        EXPECT_EQ(b[0].peer_tpn, a[0].tpn);
        for (const auto &row : {a[0], b[0]}) {
            EXPECT_EQ(row.state, "reused") << both_tables();
            EXPECT_EQ(row.users, 1u) << both_tables();
        }
        EXPECT_TRUE(me.unimport(tj));
        ASSERT_TRUE(peer.ask("unimport", "unimported"));
        EXPECT_TRUE(tables_have(0)) << both_tables();
    }
    ASSERT_TRUE(peer.say("done"));
}

// Each reject of the peer reaches the import or the bind as its errno (=
// urma_status_t) with a log line; an unreachable peer times out, an
// unroutable one fails at once; no TP is left at either end.
TEST_F(NsPair, RejectsReachTheImporter)
{
    start([](Side &s, Chan &c) {
        urma_jetty_t *rm = s.jetty(URMA_TM_RM);
        urma_jetty_t *rc = s.jetty(URMA_TM_RC);
        urma_jetty_t *gone = s.jetty(URMA_TM_RM);
        PEER_CHECK(rm && rc && gone);
        Msg m = {};
        m.jetty[0] = rm->jetty_id;
        m.jetty[1] = rc->jetty_id;
        m.jetty[2] = gone->jetty_id;
        PEER_CHECK(s.delete_jetty(gone));
        PEER_CHECK(c.say("ready", m));
        PEER_CHECK(c.hear("done"));
        return 0;
    });
    Msg m;
    ASSERT_TRUE(peer.hear("ready", &m));
    const urma_jetty_id_t rm = m.jetty[0], rc = m.jetty[1], gone = m.jetty[2];
    urma_register_log_func(ub_itest::log_capture);
    ub_itest::log_clear();
    EXPECT_EQ(me.import(gone, URMA_TM_RM), nullptr);
    EXPECT_EQ(errno, ENOENT) << "no such jetty on the peer";
    EXPECT_TRUE(ub_itest::logged("import of " + std::to_string(gone.id)));
    EXPECT_EQ(me.import(rc, URMA_TM_RM), nullptr);
    EXPECT_EQ(errno, EPROTOTYPE) << "an RC jetty imported in RM";
    EXPECT_EQ(me.import(rm, URMA_TM_RM, kJfrToken + 1), nullptr);
    EXPECT_EQ(errno, URMA_ENOPERM) << "a wrong token";
    EXPECT_TRUE(tables_have(0)) << "the rollbacks left no TP:\n" << both_tables();

    // RC: the bind gets the answer.
    urma_jetty_t *j = me.jetty(URMA_TM_RC);
    ASSERT_NE(j, nullptr);
    urma_target_jetty_t *t_rm = me.import(rm, URMA_TM_RC);
    urma_target_jetty_t *t_bad = me.import(rc, URMA_TM_RC, kJfrToken + 1);
    ASSERT_TRUE(t_rm && t_bad) << std::strerror(errno);
    EXPECT_EQ(urma_bind_jetty(j, t_rm), EPROTOTYPE) << "an RM jetty bound in RC";
    EXPECT_EQ(urma_bind_jetty(j, t_bad), URMA_ENOPERM);
    EXPECT_TRUE(ub_itest::logged("bind jetty " + std::to_string(j->jetty_id.id) + " failed"));
    EXPECT_TRUE(tables_have(0)) << both_tables();

    // Nobody has fd77::99 on the link: no answer, the CM's timeout.
    urma_jetty_id_t nobody = rm;
    ASSERT_EQ(inet_pton(AF_INET6, "fd77::99", nobody.eid.raw), 1);
    auto t0 = std::chrono::steady_clock::now();
    EXPECT_EQ(me.import(nobody, URMA_TM_RM), nullptr);
    EXPECT_EQ(errno, URMA_ETIMEOUT) << "a peer that does not answer";
    std::printf("unanswered import: %lld ms\n",
                static_cast<long long>(std::chrono::duration_cast<std::chrono::milliseconds>(
                                           std::chrono::steady_clock::now() - t0)
                                           .count()));
    // uboeA has no route to fd00::/16: the provider cannot send at all.
    ASSERT_EQ(inet_pton(AF_INET6, "fd00::dead", nobody.eid.raw), 1);
    EXPECT_EQ(me.import(nobody, URMA_TM_RM), nullptr);
    EXPECT_EQ(errno, EHOSTUNREACH) << "a peer with no route to it";
    urma_unregister_log_func();
    EXPECT_TRUE(tables_have(0)) << both_tables();
    ASSERT_TRUE(peer.say("done"));
}

// Teardown from either side: the importer unimports first; the owner
// deletes its jetty first (the TP is the EID pair's: it stays for its
// user); the owner's process exits first. Either way the importer's
// unimport then closes the TP at both ends.
TEST_F(NsPair, TeardownFromEitherSide)
{
    start([](Side &s, Chan &c) {
        urma_jetty_t *j = s.jetty(URMA_TM_RM);
        PEER_CHECK(j != nullptr);
        Msg m = {};
        m.jetty[0] = j->jetty_id;
        PEER_CHECK(c.say("ready", m));
        PEER_CHECK(c.hear("delete"));
        PEER_CHECK(s.delete_jetty(j));
        j = s.jetty(URMA_TM_RM);
        PEER_CHECK(j != nullptr);
        m.jetty[0] = j->jetty_id;
        PEER_CHECK(c.say("deleted", m));
        PEER_CHECK(c.hear("exit"));
        // Exits with its objects: closing its file frees them.
        _exit(0);
    });
    Msg m;
    ASSERT_TRUE(peer.hear("ready", &m));
    // the importer first
    urma_target_jetty_t *tj = me.import(m.jetty[0], URMA_TM_RM);
    ASSERT_NE(tj, nullptr) << std::strerror(errno);
    ASSERT_TRUE(tables_have(1)) << both_tables();
    EXPECT_TRUE(me.unimport(tj));
    EXPECT_TRUE(tables_have(0)) << both_tables();

    // the owner deletes its jetty first
    tj = me.import(m.jetty[0], URMA_TM_RM);
    ASSERT_NE(tj, nullptr) << std::strerror(errno);
    ASSERT_TRUE(peer.ask("delete", "deleted", &m));
    ASSERT_TRUE(tables_have(1)) << "the TP stays for its user:\n" << both_tables();
    EXPECT_EQ(tps_a()[0].users, 1u);
    EXPECT_TRUE(me.unimport(tj));
    EXPECT_TRUE(tables_have(0)) << both_tables();

    // the owner's process exits first
    tj = me.import(m.jetty[0], URMA_TM_RM);
    ASSERT_NE(tj, nullptr) << std::strerror(errno);
    ASSERT_TRUE(peer.say("exit"));
    EXPECT_EQ(reap(), 0);
    ASSERT_TRUE(tables_have(1)) << "the TP stays for its user:\n" << both_tables();
    EXPECT_EQ(tps_a()[0].users, 1u);
    EXPECT_TRUE(me.unimport(tj));
    EXPECT_TRUE(tables_have(0)) << both_tables();
}

// The peer of the tests that need one RM jetty that takes one SEND of 64
// bytes (fill seed 9): it says "got" when the SEND arrived.
int one_receive(Side &s, Chan &c)
{
    Buf *b = nullptr;
    PEER_CHECK(offer(s, c, URMA_TM_RM, &b));
    PEER_CHECK(received(s, *b, 0, 64, 9));
    PEER_CHECK(c.say("got"));
    PEER_CHECK(c.hear("done"));
    return 0;
}

// 1000 imports of one remote jetty in RM: one TP at each end, 1000 users
// here; a SEND through the last import arrives.
TEST_F(NsPair, ThousandImportsOfOneRemoteJettyShareOneTp)
{
    constexpr int kImports = 1000;
    start(one_receive);
    Offer o;
    ASSERT_NO_FATAL_FAILURE(take_offer(URMA_TM_RM, &o));
    auto &[m, j, l, first] = o;
    std::vector<urma_target_jetty_t *> imports{first};
    auto t0 = std::chrono::steady_clock::now();
    for (int i = 1; i < kImports; i++) {
        urma_target_jetty_t *tj = me.import(m.jetty[0], URMA_TM_RM);
        ASSERT_NE(tj, nullptr) << "import " << i << ": " << std::strerror(errno);
        imports.push_back(tj);
    }
    auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - t0).count();
    std::printf("%d more imports of one remote jetty: %lld ms\n", kImports - 1, static_cast<long long>(ms));
    for (auto *tj : imports)
        EXPECT_EQ(tj->tp.tpn, first->tp.tpn);
    ASSERT_TRUE(tables_have(1)) << both_tables();
    ASSERT_TRUE(peer_end_is("Target established")) << both_tables();
    EXPECT_EQ(tps_a()[0].users, static_cast<uint32_t>(kImports));
    EXPECT_EQ(me.tp_count(URMA_TM_RM, m.jetty[0].eid), 1);
    fill(l->p, 64, 9);
    ASSERT_NO_FATAL_FAILURE(completes(me.send(j, imports.back(), *l, 0, 64, 41), 41));
    ASSERT_TRUE(peer.hear("got"));
    for (auto *tj : imports)
        EXPECT_TRUE(me.unimport(tj));
    EXPECT_TRUE(tables_have(0)) << both_tables();
    ASSERT_TRUE(peer.say("done"));
}

// A SEND posted as soon as the import returned, five times (each import
// opens the TP anew): the import returns when this end is established
// (CONN_REP), the peer's end is established when its connection manager
// has handled the CONN_ACK, which the SEND may overtake. The user guide's
// initiator may send once established; the SEND must arrive.
TEST_F(NsPair, SendRightBehindTheImportArrives)
{
    constexpr int kRounds = 5;
    start([](Side &s, Chan &c) {
        Buf *b = nullptr;
        urma_jetty_t *j = offer(s, c, URMA_TM_RM, &b);
        PEER_CHECK(j != nullptr);
        for (int round = 0; round < kRounds; round++) {
            PEER_CHECK(received(s, *b, 0, 64, 9));
            PEER_CHECK(s.recv(j, *b, 0, 1024, 1) == URMA_SUCCESS);
            PEER_CHECK(c.say("got"));
        }
        PEER_CHECK(c.hear("done"));
        return 0;
    });
    Msg m;
    ASSERT_TRUE(peer.hear("ready", &m));
    urma_jetty_t *j = me.jetty(URMA_TM_RM);
    Buf *l = me.buf(4096);
    ASSERT_TRUE(j && l);
    fill(l->p, 64, 9);
    for (int round = 0; round < kRounds; round++) {
        SCOPED_TRACE("round " + std::to_string(round));
        const long dropped = wire_b("unknown_tpn");
        urma_target_jetty_t *tj = me.import(m.jetty[0], URMA_TM_RM);
        ASSERT_NE(tj, nullptr) << std::strerror(errno);
        ASSERT_EQ(me.send(j, tj, *l, 0, 64, 70 + round), URMA_SUCCESS);
        urma_cr_t cr;
        const bool done = me.poll(me.scq, &cr, 10000);
        EXPECT_EQ(wire_b("unknown_tpn"), dropped) << "udmaB dropped the SEND: its end of the TP was not established";
        ASSERT_TRUE(done);
        EXPECT_EQ(cr.status, URMA_CR_SUCCESS);
        ASSERT_TRUE(peer.hear("got"));
        EXPECT_TRUE(me.unimport(tj));
        ASSERT_TRUE(tables_have(0)) << both_tables();
    }
    ASSERT_TRUE(peer.say("done"));
}

// urma_admin run in each namespace: "show dev <dev> tp" lists the TP with
// the other namespace's EID, "--stats" nonzero packet counts; a device of
// the other namespace is not there.
TEST_F(NsPair, UrmaAdminShowsTheTpAndCountersInEachNamespace)
{
    start(one_receive);
    Offer o;
    ASSERT_NO_FATAL_FAILURE(take_offer(URMA_TM_RM, &o));
    auto &[m, j, l, tj] = o;
    ASSERT_TRUE(peer_end_is("Target established")) << both_tables();
    fill(l->p, 64, 9);
    ASSERT_NO_FATAL_FAILURE(completes(me.send(j, tj, *l, 0, 64, 51), 51));
    ASSERT_TRUE(peer.hear("got"));
    ASSERT_TRUE(tables_have(1)) << both_tables();
    const std::string a_tpn = std::to_string(tps_a()[0].tpn), b_tpn = std::to_string(tps_b()[0].tpn);

    auto in_b = [] { return enter_ns(kNsB); };
    const std::vector<std::string> header{"tpn", "peer_eid", "peer_tpn", "trans_mode", "state", "users", "age_ms"};
    std::string out;
    ASSERT_EQ(ub_itest::admin({"show", "dev", kDevA, "tp"}, &out), 0) << out;
    auto t = cells(out);
    ASSERT_EQ(t.size(), 2u) << out;
    EXPECT_EQ(t[0], header) << out;
    ASSERT_EQ(t[1].size(), 7u) << out;
    EXPECT_EQ(std::vector<std::string>(t[1].begin(), t[1].end() - 1),
              (std::vector<std::string>{a_tpn, kIp6B, b_tpn, "RM", "Initiator_established", "1"}))
        << out;
    ASSERT_EQ(ub_itest::admin({"show", "dev", kDevB, "tp"}, &out, in_b), 0) << out;
    t = cells(out);
    ASSERT_EQ(t.size(), 2u) << out;
    ASSERT_EQ(t[1].size(), 7u) << out;
    EXPECT_EQ(std::vector<std::string>(t[1].begin(), t[1].end() - 1),
              (std::vector<std::string>{b_tpn, kIp6A, a_tpn, "RM", "Target_established", "0"}))
        << out;
    // Each namespace sees its own device only.
    EXPECT_EQ(ub_itest::admin({"show", "dev", kDevB, "tp"}, &out), 1) << out;
    EXPECT_EQ(ub_itest::admin({"show", "dev", kDevA, "tp"}, &out, in_b), 1) << out;

    // --stats: "  name: value" lines; the import's messages and the SEND
    // went both ways. (The counters are the devices' since the bed was
    // built: earlier tests' failed sends count in tx_errors.)
    for (const std::string &dev : {kDevA, kDevB}) {
        SCOPED_TRACE(dev);
        ASSERT_EQ(ub_itest::admin({"show", "dev", dev, "--stats"}, &out,
                                  dev == kDevB ? std::function<bool()>(in_b) : nullptr),
                  0)
            << out;
        std::map<std::string, long> v;
        for (const auto &row : cells(out))
            if (row.size() == 2 && row[0].back() == ':')
                v[row[0].substr(0, row[0].size() - 1)] = std::stol(row[1]);
        for (const char *c : {"tx_packets", "rx_packets", "tx_bytes", "rx_bytes", "mgmt_rx"})
            EXPECT_GT(v[c], 0) << c << " in\n" << out;
    }
    EXPECT_TRUE(me.unimport(tj));
    ASSERT_TRUE(peer.say("done"));
}

// Peer death as the survivor's process sees it (docs/connection-manager.md,
// "Peer loss"): an RC jetty here bound to a jetty of the peer, the peer's
// process killed, everything the peer sends dropped (netem loss 100% on
// vB: the DCONN_NOTIFY its device's removal sends must not arrive, or the
// TP would be gone before the SEND), a SEND on its way, the peer's device
// deleted (the SEND finds no device and is never answered), then the
// peer's veth set down: this end's link loses its carrier, the TP its
// peer, and the bound jetty goes to ERROR: URMA_EVENT_JETTY_ERR, the SEND
// (sent on the TP, never answered) completes with ACK_TIMEOUT_ERR (udma's
// tp_lost) and a WR_FLUSH_ERR_DONE record follows; no
// TP is left. The device's removal with the DCONN_NOTIFY arriving is
// ubcore_cm_peer's (tests/guest/cases/cm-peer-loss.sh). The bed is put
// back afterwards (no qdisc on vB, vB up, its IPv6 address, udmaB).
TEST_F(NsPair, PeerDeathPutsTheBoundRcJettyInErrorWithFlush)
{
    start([](Side &s, Chan &c) {
        Buf *b = nullptr;
        PEER_CHECK(offer(s, c, URMA_TM_RC, &b));
        c.hear("never", nullptr, 600000);  // until killed
        return 1;
    });
    Offer o;
    ASSERT_NO_FATAL_FAILURE(take_offer(URMA_TM_RC, &o));
    auto &[m, j, l, tj] = o;
    ASSERT_EQ(urma_bind_jetty(j, tj), URMA_SUCCESS);
    ASSERT_TRUE(tables_have(1)) << both_tables();

    kill_peer();
    // The bed as it was afterwards, whatever happens: vB up with its IPv6
    // address (a link set down loses it), udmaB back, udmaA's port up.
    struct Restore {
        ~Restore()
        {
            EXPECT_EQ(lib_sh("tc -n \"$UB_NS_B\" qdisc del dev \"$UB_VETH_B\" root"), 0);
            EXPECT_EQ(in_ns(kNsB, [] { return set_link(kVethB, true) ? "up" : ""; }), "up");
            EXPECT_EQ(lib_sh("ip -n \"$UB_NS_B\" addr replace \"$UB_IP6_B/64\" dev \"$UB_VETH_B\" nodad && "
                             "ub_nspair_add_dev \"$UB_NS_B\" \"$UB_DEV_B\" \"$UB_VETH_B\" \"$UB_IP4_B\" "
                             "\"$UB_IP6_B\""),
                      0);
            EXPECT_TRUE(ub_itest::wait_for(
                [] { return read_file("/sys/class/ubcore/" + kDevA + "/port0/state") == "ACTIVE\n"; }, 10000));
        }
    } restore;
    ASSERT_EQ(lib_sh("tc -n \"$UB_NS_B\" qdisc add dev \"$UB_VETH_B\" root netem loss 100%"), 0);
    ASSERT_EQ(me.send(j, nullptr, *l, 0, 64, 61), URMA_SUCCESS);
    std::string out;
    ASSERT_EQ(ub_itest::admin({"dev", "del", kDevB}, &out, [] { return enter_ns(kNsB); }), 0) << out;
    ASSERT_EQ(in_ns(kNsB, [] { return set_link(kVethB, false) ? "down" : ""; }), "down");

    // The port's going down is an event too (URMA_EVENT_PORT_DOWN): the
    // jetty's is among the events of the next 15 s.
    ub_itest::AsyncEv ev;
    const uint64_t end = ub_itest::now_ms() + 15000;
    do
        ev = ub_itest::next_async_event(me.ctx, static_cast<int>(end - std::min(end, ub_itest::now_ms())));
    while (ev.type != -1 && ev.type != URMA_EVENT_JETTY_ERR);
    EXPECT_EQ(ev.type, URMA_EVENT_JETTY_ERR);
    EXPECT_EQ(ev.element, j);
    EXPECT_EQ(ub_itest::jetty_state(j), URMA_JETTY_STATE_ERROR);
    urma_cr_t cr;
    ASSERT_TRUE(me.poll(me.scq, &cr, 5000));
    EXPECT_EQ(cr.status, URMA_CR_ACK_TIMEOUT_ERR);
    EXPECT_EQ(cr.user_ctx, 61u);
    ASSERT_TRUE(me.poll(me.scq, &cr, 5000));
    EXPECT_EQ(cr.status, URMA_CR_WR_FLUSH_ERR_DONE);
    EXPECT_TRUE(ub_itest::wait_for([] { return tps_a().empty(); }, 5000)) << both_tables();
}

// ---- the peer vanishing mid-stream (issue 11) ------------------------------

// A module parameter, set for a test and put back after it.
class ModParam {
public:
    ModParam(const std::string &module, const std::string &name, const std::string &value)
        : path_("/sys/module/" + module + "/parameters/" + name), old_(read_file(path_))
    {
        EXPECT_TRUE(ub_itest::write_sysfs(path_, value)) << path_;
    }
    ~ModParam() { EXPECT_TRUE(ub_itest::write_sysfs(path_, old_)) << path_; }

private:
    std::string path_, old_;
};

// Whether udmaB has its IPv6 address as an EID again (after vB was down).
bool b_has_eid()
{
    return in_ns(kNsB, [] {
               std::string all;
               std::error_code ec;
               for (std::filesystem::directory_iterator it("/sys/class/ubcore/" + kDevB + "/eids", ec), end;
                    !ec && it != end; it.increment(ec))
                   all += read_file(it->path());
               return all;
           }).find(kIp6B) != std::string::npos;
}

// The stream: kStreamWrites WRITEs of kStreamLen bytes each, posted at
// once from an RM jetty here to one segment of the peer: at 1 KiB of
// payload a packet (vA's MTU 1500) each is 1024 packets, and the queue's
// window holds 8 of them, so the peer goes while many are in flight.
constexpr uint32_t kStreamWrites = 48;
constexpr uint32_t kStreamLen = 1 << 20;

// The two ends of a stream: the bed's, or a pair of the test's own; leave:
// the peer process leaves its namespace once its objects are made.
struct Ends {
    std::string peer_ns = kNsB, peer_dev = kDevB, peer_ip = kIp6B;
    std::string my_dev = kDevA, my_ip = kIp6A;
    bool leave = false;
};

class NsPairVanish : public NsPair {
protected:
    // The peer offers an RM jetty and a segment of kStreamLen bytes and
    // waits (until killed); this end imports both, starts the stream, waits
    // for its first completion (it flows), then gone() makes the peer
    // vanish. Then what the survivor sees (docs/connection-manager.md,
    // "Peer loss"): the WQEs sent on the TP complete with ACK_TIMEOUT_ERR
    // (udma's RTO after uboe_retry_cnt retries, or at once when ubcore
    // finds the peer lost: ops->tp_lost), the jetty goes to ERROR
    // (URMA_EVENT_JETTY_ERR), the WQEs taken and not sent complete with
    // WR_FLUSH_ERR, a WR_FLUSH_ERR_DONE record follows, and flush gives the
    // ones still in the ring as WR_UNHANDLED; in post order throughout.
    // The RTO is 50 ms and 3 retries for the test (0.75 s), not 100 ms and
    // 7 (8.7 s). At the end nothing is left on this end's device (objects,
    // TPs) once it deleted its objects.
    void vanish_mid_stream(const std::function<void()> &gone, const Ends &e = Ends())
    {
        ModParam rto("udma", "uboe_rto_ms", "50"), retries("udma", "uboe_retry_cnt", "3");
        const bool leave = e.leave;
        start(
            [leave](Side &s, Chan &c) {
                urma_jetty_t *pj = s.jetty(URMA_TM_RM);
                Buf *b = pj != nullptr ? s.buf(kStreamLen) : nullptr;
                PEER_CHECK(b != nullptr);
                Msg m = {};
                m.jetty[0] = pj->jetty_id;
                m.seg = b->reg->seg;
                if (leave) {
                    // out of the namespace (its sysfs mount holds it too),
                    // so that deleting it ends it: the objects stay
                    int fd = open("/proc/1/ns/net", O_RDONLY | O_CLOEXEC);
                    PEER_CHECK(fd >= 0 && umount2("/sys", MNT_DETACH) == 0 && setns(fd, CLONE_NEWNET) == 0);
                    close(fd);
                }
                PEER_CHECK(c.say("ready", m));
                c.hear("never", nullptr, 600000);  // until killed
                return 1;
            },
            e.peer_ns, e.peer_dev, e.peer_ip, e.my_dev, e.my_ip);
        Msg m;
        ASSERT_TRUE(peer.hear("ready", &m));
        urma_jetty_t *j = me.jetty(URMA_TM_RM);
        Buf *l = me.buf(kStreamLen);
        ASSERT_TRUE(j && l);
        fill(l->p, kStreamLen, 7);
        urma_target_jetty_t *tj = me.import(m.jetty[0], URMA_TM_RM);
        ASSERT_NE(tj, nullptr) << std::strerror(errno);
        urma_target_seg_t *rs = me.import_seg(m.seg);
        ASSERT_NE(rs, nullptr);
        ASSERT_TRUE(ub_itest::wait_for([&e] { return ub_itest::tp_table(e.my_dev).size() == 1; }, 5000))
            << describe(ub_itest::tp_table(e.my_dev));
        ASSERT_TRUE(ub_itest::wait_for(
            [&e] {
                auto b = ub_itest::parse_tp_table(
                    in_ns(e.peer_ns, [&e] { return read_file("/sys/class/ubcore/" + e.peer_dev + "/cm/tp"); }));
                return b.size() == 1 && b[0].state == "Target established";
            },
            5000));

        for (uint32_t i = 1; i <= kStreamWrites; i++)
            ASSERT_EQ(me.rw(URMA_OPC_WRITE, j, tj, *l, 0, rs, m.seg.ubva.va, kStreamLen, i), URMA_SUCCESS);
        urma_cr_t cr;
        ASSERT_TRUE(me.poll(me.scq, &cr, 60000));
        ASSERT_EQ(cr.status, URMA_CR_SUCCESS) << "the stream does not flow";
        ASSERT_EQ(cr.user_ctx, 1u);
        const uint64_t t0 = ub_itest::now_ms();
        ASSERT_NO_FATAL_FAILURE(gone());

        // The records, in post order: SUCCESS .., ACK_TIMEOUT_ERR ..,
        // WR_FLUSH_ERR .., WR_FLUSH_ERR_DONE.
        std::vector<urma_cr_t> crs{cr};
        while (crs.back().status != URMA_CR_WR_FLUSH_ERR_DONE) {
            ASSERT_TRUE(me.poll(me.scq, &cr, 30000)) << crs.size() << " records";
            crs.push_back(cr);
        }
        const uint64_t t1 = ub_itest::now_ms();
        size_t ok = 0, timeouts = 0, flushed = 0;
        while (ok < crs.size() && crs[ok].status == URMA_CR_SUCCESS)
            ok++;
        while (ok + timeouts < crs.size() && crs[ok + timeouts].status == URMA_CR_ACK_TIMEOUT_ERR)
            timeouts++;
        while (ok + timeouts + flushed < crs.size() && crs[ok + timeouts + flushed].status == URMA_CR_WR_FLUSH_ERR)
            flushed++;
        std::string seq;
        for (const auto &c : crs)
            seq += std::to_string(c.status) + "/" + std::to_string(c.user_ctx) + " ";
        EXPECT_LT(ok, kStreamWrites) << "the stream was over before the peer went: " << seq;
        EXPECT_GE(timeouts, 1u) << seq;
        EXPECT_EQ(ok + timeouts + flushed + 1, crs.size()) << "SUCCESS, ACK_TIMEOUT_ERR, WR_FLUSH_ERR, DONE: " << seq;
        for (size_t i = 0; i + 1 < crs.size(); i++)
            EXPECT_EQ(crs[i].user_ctx, i + 1) << "post order: " << seq;
        EXPECT_EQ(crs.back().user_ctx, 0u);
        std::printf("peer gone: %zu WRITEs done, %zu ACK_TIMEOUT_ERR, %zu WR_FLUSH_ERR, %llu ms to the DONE record\n",
                    ok, timeouts, flushed, static_cast<unsigned long long>(t1 - t0));

        // The jetty's event (the port's and the import's TP_ERR may come
        // too) and its state.
        ub_itest::AsyncEv ev;
        const uint64_t end = ub_itest::now_ms() + 10000;
        do
            ev = ub_itest::next_async_event(me.ctx, static_cast<int>(end - std::min(end, ub_itest::now_ms())));
        while (ev.type != -1 && ev.type != URMA_EVENT_JETTY_ERR);
        EXPECT_EQ(ev.type, URMA_EVENT_JETTY_ERR);
        EXPECT_EQ(ev.element, j);
        EXPECT_EQ(ub_itest::jetty_state(j), URMA_JETTY_STATE_ERROR);

        // What the queue never took: WR_UNHANDLED, in post order.
        std::vector<urma_cr_t> left(kStreamWrites);
        const int n = urma_flush_jetty(j, static_cast<int>(left.size()), left.data());
        EXPECT_EQ(n, static_cast<int>(kStreamWrites - (crs.size() - 1)));
        for (int i = 0; i < n; i++) {
            EXPECT_EQ(left[i].status, URMA_CR_WR_UNHANDLED);
            EXPECT_EQ(left[i].user_ctx, crs.size() + static_cast<size_t>(i));
        }

        // Nothing left here once this end deleted its objects (the TP
        // goes with its last user, or when the keepalive gives up).
        EXPECT_TRUE(me.close());
        EXPECT_TRUE(ub_itest::wait_for([&e] { return ub_itest::tp_table(e.my_dev).empty(); }, 15000))
            << describe(ub_itest::tp_table(e.my_dev));
        EXPECT_TRUE(ub_itest::wait_for([&e] { return ub_itest::all_counts_zero(e.my_dev); }, 3000))
            << ub_itest::counts(e.my_dev);
    }
};

// The peer's device deleted. Everything the peer sends is dropped first
// (netem loss 100% on vB), as when its host goes: else its process's
// objects go before its device's DCONN_NOTIFY (uburma's removal) and the
// WRITEs arriving meanwhile fail with REM_ACCESS_ABORT_ERR, and the
// DCONN_NOTIFY would say it. The survivor learns it from its RTO.
TEST_F(NsPairVanish, DeviceDeletedMidStream)
{
    struct Restore {
        ~Restore()
        {
            EXPECT_EQ(lib_sh("tc -n \"$UB_NS_B\" qdisc del dev \"$UB_VETH_B\" root; "
                             "ub_nspair_add_dev \"$UB_NS_B\" \"$UB_DEV_B\" \"$UB_VETH_B\" \"$UB_IP4_B\" "
                             "\"$UB_IP6_B\""),
                      0);
        }
    };
    std::unique_ptr<Restore> restore;
    vanish_mid_stream([this, &restore] {
        ASSERT_EQ(lib_sh("tc -n \"$UB_NS_B\" qdisc add dev \"$UB_VETH_B\" root netem loss 100%"), 0);
        restore = std::make_unique<Restore>();
        kill_peer();
        std::string out;
        ASSERT_EQ(ub_itest::admin({"dev", "del", kDevB}, &out, [] { return enter_ns(kNsB); }), 0) << out;
    });
}

// The peer's veth set down: this end's link loses its carrier, ubcore
// loses the TP's peer and udma fails what was sent on it at once
// (ops->tp_lost), without waiting for its RTO.
TEST_F(NsPairVanish, VethDownMidStream)
{
    struct Restore {
        ~Restore()
        {
            EXPECT_EQ(in_ns(kNsB, [] { return set_link(kVethB, true) ? "up" : ""; }), "up");
            EXPECT_EQ(lib_sh("ip -n \"$UB_NS_B\" addr replace \"$UB_IP6_B/64\" dev \"$UB_VETH_B\" nodad"), 0);
            EXPECT_TRUE(ub_itest::wait_for(
                [] { return read_file("/sys/class/ubcore/" + kDevA + "/port0/state") == "ACTIVE\n"; }, 10000));
            EXPECT_TRUE(ub_itest::wait_for(b_has_eid, 10000));
        }
    };
    std::unique_ptr<Restore> restore;
    vanish_mid_stream([&restore] {
        restore = std::make_unique<Restore>();
        ASSERT_EQ(in_ns(kNsB, [] { return set_link(kVethB, false) ? "down" : ""; }), "down");
    });
    kill_peer();
}

// The peer's namespace deleted. Deleting uboeB would delete vA with vB
// (a veth pair goes as one) and udmaA with it: the survivor would lose its
// own device. So this case makes a pair in which the peer's namespace goes
// alone: vA2 in uboeA (fd78:1::1) and vC in a namespace uboeC (fd78:2::2),
// each a veth to a router namespace uboeX (IPv6 forwarding; the test
// kernel has no bridge); udmaA2 on vA2 and udmaC on vC, added with a
// keepalive of 200 ms. The peer process leaves uboeC once its objects are
// made (else it would keep the namespace alive, and its exit would
// destroy its objects while vC still answers); "ip netns del uboeC" then
// takes vC and udmaC away, nothing of the peer answers any more, and the
// survivor's RTO fails what it sent.
TEST_F(NsPairVanish, NamespaceDeletedMidStream)
{
    struct Bed {
        ~Bed()
        {
            EXPECT_EQ(lib_sh("ub_ns uboeA \"$UB_ADMIN\" dev del udmaA2; ip netns del uboeC 2>/dev/null; "
                             "ip netns del uboeX"),
                      0);
        }
    } bed;
    ASSERT_EQ(lib_sh("printf \"%s\\n\" \"netns add uboeX\" \"netns add uboeC\" "
                     "\"link add vA2 type veth peer name vX1\" \"link add vC type veth peer name vX2\" "
                     "\"link set vA2 netns uboeA\" \"link set vX1 netns uboeX\" "
                     "\"link set vX2 netns uboeX\" \"link set vC netns uboeC\" | ip -batch - && "
                     "printf \"%s\\n\" \"link set lo up\" \"link set vX1 up\" \"link set vX2 up\" "
                     "\"addr add fd78:1::2/64 dev vX1 nodad\" \"addr add fd78:2::1/64 dev vX2 nodad\" "
                     "| ip -n uboeX -batch - && "
                     "printf \"%s\\n\" \"link set vA2 up\" \"addr add 10.78.1.1/24 dev vA2\" "
                     "\"addr add fd78:1::1/64 dev vA2 nodad\" \"route add fd78:2::/64 via fd78:1::2\" "
                     "| ip -n uboeA -batch - && "
                     "printf \"%s\\n\" \"link set lo up\" \"link set vC up\" \"addr add 10.78.2.2/24 dev vC\" "
                     "\"addr add fd78:2::2/64 dev vC nodad\" \"route add fd78:1::/64 via fd78:2::1\" "
                     "| ip -n uboeC -batch -"),
              0);
    ASSERT_EQ(in_ns("uboeX",
                    [] {
                        return ub_itest::write_sysfs("/proc/sys/net/ipv6/conf/all/forwarding", "1\n") ? "on" : "";
                    }),
              "on");
    {
        ModParam ka("ubcore", "cm_keepalive_ms", "200");
        ASSERT_EQ(lib_sh("ub_nspair_add_dev uboeA udmaA2 vA2 10.78.1.1 fd78:1::1 && "
                         "ub_nspair_add_dev uboeC udmaC vC 10.78.2.2 fd78:2::2"),
                  0);
    }
    Ends e;
    e.peer_ns = "uboeC";
    e.peer_dev = "udmaC";
    e.peer_ip = "fd78:2::2";
    e.my_dev = "udmaA2";
    e.my_ip = "fd78:1::1";
    e.leave = true;
    vanish_mid_stream([] { ASSERT_EQ(lib_sh("ip netns del uboeC"), 0); }, e);
    kill_peer();
}

}  // namespace
