// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The UB/URMA stack authors
//
// ubcore_nl_fuzz: a seeded fuzzer of the "ubcore" generic netlink family
// (ubcore_netlink.h), run in the test guest against the loaded stack.
//
// Messages are built from the family's commands and attributes, with
// mutations: unknown commands and attribute types, wrong payload lengths
// and types, strings without their NUL or too long, EIDs of the wrong
// size, nested attributes (deep ones too) where none belong and inside
// those that are nested, duplicated attributes, truncated attribute and
// message headers, odd flags (DUMP, ACK, ECHO, ATOMIC), several messages
// in one send, dumps read in part and abandoned by closing the socket, and
// socket options (extended ACK, strict checking, capped ACK) toggled. The
// device holds a user context with a JFC, JFS, JFR, jetty, token ID and
// segment (made through /dev/uburma) so that RES_GET dumps have something
// to walk.
//
// Phases: first workers as user nobody only (every admin command must be
// refused with EPERM, or EOPNOTSUPP for a dump, and the devices and EID
// tables must not change), then workers as root (which may add and remove
// devices and EIDs). Checked: every NLMSG_ERROR carries 0 or a documented
// errno; the fuzzer's processes die only by its own SIGKILLs; after the
// last process has gone every object count (/sys/class/ubcore/*/objects)
// is back to 0. The kernel's side (KASAN, lockdep, WARN, kmemleak, clean
// unload) is judged by tests/guest/cases/fuzz-ubcore-netlink.sh.
#include <dirent.h>
#include <fcntl.h>
#include <grp.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <poll.h>
#include <pwd.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>

#include <cinttypes>
#include <cstdarg>
#include <map>
#include <set>

#include <ub/ubcore_netlink.h>
#include <ub/udma_abi.h>

#include "fuzz_util.h"
#include "nl_util.h"
#include "ub_raw_cmd.h"

namespace {

using namespace ub_fuzz;

struct Options {
    uint64_t seed = 0;
    uint64_t iterations = 2000;  // messages per phase, over every worker
    unsigned workers = 2;
    unsigned kill_pct = 30;
    bool verbose = false;
};

// The payload kinds of the family's attributes (ubcore_netlink.h).
enum AttrKind { A_STR, A_U8, A_U32, A_U64, A_EID, A_FLAG, A_NEST, A_BIN };
const std::map<int, AttrKind> kTopAttrs = {
    {UBCORE_NL_ATTR_PAD, A_BIN},           {UBCORE_NL_ATTR_DEV_NAME, A_STR},
    {UBCORE_NL_ATTR_DRIVER_NAME, A_STR},   {UBCORE_NL_ATTR_NETDEV_NAME, A_STR},
    {UBCORE_NL_ATTR_LINK_TYPE, A_STR},     {UBCORE_NL_ATTR_EID_MODE, A_U8},
    {UBCORE_NL_ATTR_PORT_STATE, A_U8},     {UBCORE_NL_ATTR_ACTIVE_MTU, A_U32},
    {UBCORE_NL_ATTR_DEV_CAP, A_NEST},      {UBCORE_NL_ATTR_EID_INDEX, A_U32},
    {UBCORE_NL_ATTR_EID, A_EID},           {UBCORE_NL_ATTR_EID_STATIC, A_FLAG},
    {UBCORE_NL_ATTR_DEV_OBJ, A_NEST},      {UBCORE_NL_ATTR_RES_TYPE, A_U8},
    {UBCORE_NL_ATTR_RES_ID, A_U32},        {UBCORE_NL_ATTR_RES, A_NEST},
    {UBCORE_NL_ATTR_SYS_DEV_COUNT, A_U32}, {UBCORE_NL_ATTR_SYS_NS_MODE, A_U8},
    {UBCORE_NL_ATTR_SYS_NL_VERSION, A_U32}, {UBCORE_NL_ATTR_SYS_ABI_VERSION, A_U32},
    {UBCORE_NL_ATTR_NS_FD, A_U32},         {UBCORE_NL_ATTR_SYS_DEV_SHARING, A_U8},
    {UBCORE_NL_ATTR_DEV_LOGICAL, A_FLAG},
};
// Which attributes each command takes (the rest are mostly left out, so
// that most messages reach the handlers).
const std::map<int, std::vector<int>> kCmdAttrs = {
    {UBCORE_NL_CMD_DEV_GET, {UBCORE_NL_ATTR_DEV_NAME}},
    {UBCORE_NL_CMD_DEV_ADD, {UBCORE_NL_ATTR_LINK_TYPE, UBCORE_NL_ATTR_NETDEV_NAME, UBCORE_NL_ATTR_DEV_NAME}},
    {UBCORE_NL_CMD_DEV_DEL, {UBCORE_NL_ATTR_DEV_NAME}},
    {UBCORE_NL_CMD_EID_GET, {UBCORE_NL_ATTR_DEV_NAME}},
    {UBCORE_NL_CMD_EID_ADD, {UBCORE_NL_ATTR_DEV_NAME, UBCORE_NL_ATTR_EID_INDEX, UBCORE_NL_ATTR_EID}},
    {UBCORE_NL_CMD_EID_DEL, {UBCORE_NL_ATTR_DEV_NAME, UBCORE_NL_ATTR_EID_INDEX}},
    {UBCORE_NL_CMD_EID_SET_MODE, {UBCORE_NL_ATTR_DEV_NAME, UBCORE_NL_ATTR_EID_MODE}},
    {UBCORE_NL_CMD_RES_GET, {UBCORE_NL_ATTR_DEV_NAME, UBCORE_NL_ATTR_RES_TYPE, UBCORE_NL_ATTR_RES_ID}},
    {UBCORE_NL_CMD_SYS_GET, {}},
    // the namespace commands: the fd is mostly not a namespace's (EBADF,
    // EINVAL); a namespace's fd, when the fuzzer has one, is its own
    {UBCORE_NL_CMD_DEV_SET_NS, {UBCORE_NL_ATTR_DEV_NAME, UBCORE_NL_ATTR_NS_FD}},
    {UBCORE_NL_CMD_DEV_EXPOSE, {UBCORE_NL_ATTR_DEV_NAME, UBCORE_NL_ATTR_NS_FD}},
    {UBCORE_NL_CMD_DEV_UNEXPOSE, {UBCORE_NL_ATTR_DEV_NAME, UBCORE_NL_ATTR_NS_FD}},
    {UBCORE_NL_CMD_EID_SET_NS, {UBCORE_NL_ATTR_DEV_NAME, UBCORE_NL_ATTR_EID_INDEX, UBCORE_NL_ATTR_NS_FD}},
    {UBCORE_NL_CMD_SYS_SET, {UBCORE_NL_ATTR_SYS_DEV_SHARING}},
};
const std::set<int> kAdminCmds = {UBCORE_NL_CMD_DEV_ADD,    UBCORE_NL_CMD_DEV_DEL,      UBCORE_NL_CMD_EID_ADD,
                                  UBCORE_NL_CMD_EID_DEL,    UBCORE_NL_CMD_EID_SET_MODE, UBCORE_NL_CMD_DEV_SET_NS,
                                  UBCORE_NL_CMD_DEV_EXPOSE, UBCORE_NL_CMD_DEV_UNEXPOSE, UBCORE_NL_CMD_EID_SET_NS,
                                  UBCORE_NL_CMD_SYS_SET};

// What ordinary users must not be able to change: the device names, their
// EID mode and EID table (sysfs).
std::string admin_state()
{
    std::string s;
    DIR *d = opendir("/sys/class/ubcore");
    if (d == nullptr)
        return s;
    std::set<std::string> devs;
    while (struct dirent *de = readdir(d))
        if (de->d_name[0] != '.' && de->d_type == DT_LNK)
            devs.insert(de->d_name);
    closedir(d);
    for (const auto &dev : devs) {
        s += dev + ":";
        std::string base = "/sys/class/ubcore/" + dev;
        auto cat = [&s](const std::string &p) {
            FILE *f = std::fopen(p.c_str(), "r");
            char line[128];
            if (f == nullptr)
                return;
            while (std::fgets(line, sizeof(line), f) != nullptr)
                s += line;
            std::fclose(f);
        };
        cat(base + "/eid_mode");
        if (DIR *e = opendir((base + "/eids").c_str())) {
            std::set<std::string> names;
            while (struct dirent *ee = readdir(e))
                if (ee->d_name[0] != '.')
                    names.insert(ee->d_name);
            closedir(e);
            for (const auto &n : names) {
                s += n + "=";
                cat(base + "/eids/" + n);
            }
        }
        s += "\n";
    }
    return s;
}

class Worker {
public:
    Worker(const Options &o, uint16_t fam, uint64_t seed, bool unpriv)
        : opt_(o), fam_(fam), rng_(seed), seed_(seed), unpriv_(unpriv)
    {
    }
    int run(uint64_t n);

private:
    void finding(const char *fmt, ...) __attribute__((format(printf, 2, 3)));
    Bytes payload(AttrKind k);
    void attrs(Bytes &b, int depth, const std::vector<int> *wanted);
    Bytes message(int *cmd, bool *well_formed, bool *dump, uint32_t *seq);
    void one();
    void drain(NlSock &s, int cmd, bool well_formed, bool dump, size_t max_msgs, uint32_t seq);
    void sockopts(NlSock &s);

    const Options &opt_;
    uint16_t fam_;
    Rng rng_;
    uint64_t seed_;
    bool unpriv_;
    uint32_t seq_ = 1;
    bool to_family_ = true;  // the last message built went to the family
    int findings_ = 0;
    uint64_t msgs_ = 0;
    std::map<int, uint64_t> errnos_;
};

void Worker::finding(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    std::fprintf(stderr, "FINDING (worker seed %" PRIu64 "%s, message %" PRIu64 "): ", seed_,
                 unpriv_ ? " nobody" : "", msgs_);
    std::vfprintf(stderr, fmt, ap);
    std::fprintf(stderr, "\n");
    va_end(ap);
    findings_++;
}

Bytes Worker::payload(AttrKind k)
{
    Bytes p;
    auto num = [&](size_t n) {
        uint64_t v = rng_.pct(50) ? rng_.below(80) : rng_.interesting();
        p.resize(n);
        std::memcpy(p.data(), &v, n);
    };
    switch (k) {
    case A_STR: {
        static const std::vector<std::string> names = {"udma0", "udma1", "lo", "udma", "udma%d", "nl%d", "x",
                                                       "udma%d%d", "%s%n", "", "dev\n", "../x", "udma0 "};
        std::string s = rng_.pct(75) ? rng_.pick(names) : std::string(rng_.below(300), static_cast<char>('a' + rng_.below(26)));
        p.assign(s.begin(), s.end());
        if (!rng_.pct(10))
            p.push_back(0);  // without the NUL sometimes
        break;
    }
    case A_U8:
        num(1);
        break;
    case A_U32:
        num(4);
        break;
    case A_U64:
        num(8);
        break;
    case A_EID:
        p.resize(UBCORE_NL_EID_LEN);
        rng_.fill(p.data(), p.size());
        if (rng_.pct(50)) {  // ::1, ::ffff:127.0.0.1
            std::memset(p.data(), 0, p.size());
            if (rng_.pct(50)) {
                p[15] = 1;
            } else {
                p[10] = p[11] = 0xff;
                p[12] = 127;
                p[15] = static_cast<uint8_t>(rng_.below(3));
            }
        }
        break;
    case A_FLAG:
        break;
    case A_NEST:
    case A_BIN:
        p.resize(rng_.below(40));
        rng_.fill(p.data(), p.size());
        break;
    }
    // Wrong size now and then: truncated or extended.
    if (rng_.pct(10)) {
        size_t n = rng_.pct(50) ? rng_.below(p.size() + 1) : p.size() + 1 + rng_.below(20);
        p.resize(n, static_cast<uint8_t>(rng_.next()));
    }
    return p;
}

// Attributes: mostly those the command takes, with their kinds; else any
// type (with the nested and byte-order bits sometimes), nested ones filled
// recursively.
void Worker::attrs(Bytes &b, int depth, const std::vector<int> *wanted)
{
    size_t n = wanted != nullptr && rng_.pct(70) ? wanted->size() : rng_.below(6);
    for (size_t i = 0; i < n; i++) {
        int type;
        if (wanted != nullptr && !wanted->empty() && rng_.pct(80))
            type = wanted->at(i < wanted->size() ? i : rng_.below(wanted->size()));
        else
            type = static_cast<int>(rng_.pct(85) ? rng_.below(UBCORE_NL_ATTR_MAX + 3) : rng_.below(65536));
        if (wanted != nullptr && i >= wanted->size() && rng_.pct(50))
            continue;
        auto it = kTopAttrs.find(type & NLA_TYPE_MASK);
        AttrKind k = it != kTopAttrs.end() && depth == 0 ? it->second : static_cast<AttrKind>(rng_.below(8));
        uint16_t t = static_cast<uint16_t>(type);
        const size_t start = b.size();
        if (rng_.pct(5))
            t |= NLA_F_NET_BYTEORDER;
        if (k == A_NEST || (rng_.pct(5) && depth < 3)) {
            Bytes inner;
            int max_depth = rng_.pct(3) ? 40 : 4;
            if (depth < max_depth)
                attrs(inner, depth + 1, nullptr);
            if (rng_.pct(70))
                t |= NLA_F_NESTED;
            if (NLA_HDRLEN + inner.size() > 0xffff)
                inner.resize(0xffff - NLA_HDRLEN);
            put_attr(b, t, inner.data(), inner.size());
        } else {
            Bytes p = payload(k);
            put_attr(b, t, p.data(), p.size());
        }
        if (rng_.pct(3)) {
            // A corrupt length in this attribute's header: shorter than a
            // header, or running past the message.
            uint16_t bad = static_cast<uint16_t>(rng_.pct(50) ? rng_.below(NLA_HDRLEN) : 0xffff - rng_.below(16));
            std::memcpy(b.data() + start, &bad, sizeof(bad));
        }
    }
}

Bytes Worker::message(int *cmd, bool *well_formed, bool *dump, uint32_t *seq)
{
    Bytes m(NLMSG_HDRLEN + GENL_HDRLEN, 0);
    *well_formed = true;
    int c = static_cast<int>(rng_.pct(90) ? 1 + rng_.below(UBCORE_NL_CMD_MAX) : rng_.below(256));
    auto wanted = kCmdAttrs.find(c);
    attrs(m, 0, wanted != kCmdAttrs.end() ? &wanted->second : nullptr);
    auto *nh = reinterpret_cast<nlmsghdr *>(m.data());
    nh->nlmsg_len = static_cast<uint32_t>(m.size());
    nh->nlmsg_type = rng_.pct(95) ? fam_ : static_cast<uint16_t>(rng_.below(64));
    to_family_ = nh->nlmsg_type == fam_;
    uint16_t flags = NLM_F_REQUEST;
    if (rng_.pct(60))
        flags |= NLM_F_ACK;
    if (rng_.pct(35))
        flags |= NLM_F_DUMP;
    if (rng_.pct(5))
        flags |= static_cast<uint16_t>(rng_.next());
    if (rng_.pct(3))
        flags &= static_cast<uint16_t>(~NLM_F_REQUEST);
    nh->nlmsg_flags = flags;
    nh->nlmsg_seq = *seq = seq_++;
    auto *gh = reinterpret_cast<genlmsghdr *>(m.data() + NLMSG_HDRLEN);
    gh->cmd = static_cast<uint8_t>(c);
    gh->version = static_cast<uint8_t>(rng_.pct(90) ? UBCORE_GENL_FAMILY_VERSION : rng_.next());
    if (rng_.pct(5))
        gh->reserved = static_cast<uint16_t>(rng_.next());
    if (rng_.pct(5)) {
        // The message header's length: short (the genl header cut off)
        // or longer than what is sent.
        nh->nlmsg_len = static_cast<uint32_t>(rng_.pct(50) ? rng_.below(m.size()) : m.size() + 1 + rng_.below(64));
        *well_formed = false;
    }
    // genl refuses (EINVAL, before the permission check) a non-zero
    // reserved field and flags other than ACK, ECHO and DUMP.
    const uint16_t known = NLM_F_REQUEST | NLM_F_ACK | NLM_F_ECHO | NLM_F_DUMP;
    if (nh->nlmsg_type != fam_ || !(flags & NLM_F_REQUEST) || (flags & ~known) != 0 || gh->reserved != 0)
        *well_formed = false;
    *cmd = c;
    *dump = (flags & NLM_F_DUMP) == NLM_F_DUMP;
    return m;
}

void Worker::sockopts(NlSock &s)
{
    static const int opts[] = {NETLINK_EXT_ACK, NETLINK_GET_STRICT_CHK, NETLINK_CAP_ACK, NETLINK_NO_ENOBUFS};
    for (int o : opts) {
        int v = rng_.pct(50) ? 1 : 0;
        setsockopt(s.fd(), SOL_NETLINK, o, &v, sizeof(v));
    }
}

// Reads replies until the request's answer (an error or ACK, or the dump's
// NLMSG_DONE), a timeout, or max_msgs messages (a dump left half read).
void Worker::drain(NlSock &s, int cmd, bool well_formed, bool dump, size_t max_msgs, uint32_t seq)
{
    size_t got = 0;
    for (int rounds = 0; rounds < 200 && got < max_msgs; rounds++) {
        Bytes r = s.recv(rounds == 0 ? 250 : 50);
        if (r.empty())
            return;
        size_t off = 0;
        while (off + NLMSG_HDRLEN <= r.size()) {
            auto *nh = reinterpret_cast<nlmsghdr *>(r.data() + off);
            if (nh->nlmsg_len < NLMSG_HDRLEN || off + nh->nlmsg_len > r.size()) {
                finding("reply with bad nlmsg_len %u", nh->nlmsg_len);
                return;
            }
            got++;
            if (nh->nlmsg_seq != seq) {
                // The rest of an earlier request's dump, left unread.
                off += NLMSG_ALIGN(nh->nlmsg_len);
                continue;
            }
            if (nh->nlmsg_type == NLMSG_ERROR || nh->nlmsg_type == NLMSG_DONE) {
                int err = 0;
                if (nh->nlmsg_len >= NLMSG_HDRLEN + sizeof(int))
                    std::memcpy(&err, r.data() + off + NLMSG_HDRLEN, sizeof(int));
                // Another family's errors (a message of a random type)
                // are not this fuzzer's business.
                if (to_family_ && (err > 0 || (err < 0 && !documented_errno(-err))))
                    finding("command %d: reply error %d", cmd, err);
                if (err < 0)
                    errnos_[-err]++;
                if (unpriv_ && kAdminCmds.count(cmd) != 0 && nh->nlmsg_type == NLMSG_ERROR) {
                    // Only a well-formed request reaches the family: a
                    // message without NLM_F_REQUEST, or of a control or
                    // another family's type, is acknowledged with 0 unread.
                    if (err == 0 && well_formed)
                        finding("admin command %d succeeded for an unprivileged user", cmd);
                    else if (well_formed && err != -EPERM && !(dump && err == -EOPNOTSUPP))
                        finding("admin command %d from an unprivileged user: %d, not EPERM", cmd, err);
                }
                if (nh->nlmsg_type == NLMSG_DONE || !dump || err != 0)
                    return;
            } else if (unpriv_ && well_formed && kAdminCmds.count(cmd) != 0 && nh->nlmsg_type == fam_) {
                finding("admin command %d answered an unprivileged user with data", cmd);
            } else if (!dump && nh->nlmsg_type == fam_ && !(nh->nlmsg_flags & NLM_F_MULTI)) {
                return;  // a do's one reply (no ACK asked for, or the ACK follows)
            }
            off += NLMSG_ALIGN(nh->nlmsg_len);
        }
    }
}

void Worker::one()
{
    NlSock s;
    if (s.fd() < 0) {
        finding("netlink socket: %s", std::strerror(errno));
        return;
    }
    sockopts(s);
    size_t batch = rng_.pct(15) ? 2 + rng_.below(4) : 1;
    for (size_t i = 0; i < batch; i++) {
        Bytes all;
        int cmd = 0;
        bool wf = false, dump = false;
        uint32_t seq = 0;
        // Several messages in one datagram, now and then.
        size_t in_one = rng_.pct(10) ? 2 + rng_.below(3) : 1;
        for (size_t j = 0; j < in_one; j++) {
            Bytes m = message(&cmd, &wf, &dump, &seq);
            all.insert(all.end(), m.begin(), m.end());
            msgs_++;
        }
        if (in_one > 1)
            wf = false;
        if (!s.send(all)) {
            if (!documented_errno(errno))
                finding("send: undocumented errno %d", errno);
            continue;
        }
        // A dump is read in full, in part, or not at all (the socket is
        // closed with the dump in progress).
        size_t max_msgs = dump && rng_.pct(30) ? rng_.below(3) : 1000;
        drain(s, cmd, wf && in_one == 1, dump, max_msgs, seq);
    }
}

int Worker::run(uint64_t n)
{
    for (uint64_t i = 0; msgs_ < n && i < n; i++)
        one();
    std::string errs;
    for (const auto &e : errnos_)
        errs += " " + std::to_string(e.first) + ":" + std::to_string(e.second);
    std::printf("worker seed %" PRIu64 "%s: %" PRIu64 " messages, %d findings, errnos%s\n", seed_,
                unpriv_ ? " (nobody)" : " (root)", msgs_, findings_, errs.c_str());
    return findings_;
}

// Objects for RES_GET to list: a context on udma0 with a JFC, JFS, JFR,
// jetty, token ID and segment. Returns the file (closed at the end), or -1.
int make_objects(void **buf)
{
    int fd = open("/dev/uburma/udma0", O_RDWR | O_CLOEXEC);
    if (fd < 0)
        return -1;
    uburma_eid_info eids[4] = {};
    uburma_cmd_get_eid_list el = {};
    el.in.max_cnt = 4;
    el.in.eids_addr = reinterpret_cast<uintptr_t>(eids);
    uburma_cmd_create_ctx ctx = {};
    if (ub_cmd(fd, UBURMA_CMD_GET_EID_LIST, &el, sizeof(el)) != 0 || el.out.cnt == 0)
        return fd;
    ctx.in.eid_index = eids[0].eid_index;
    ctx.in.uasid = static_cast<uint32_t>(getpid());
    if (ub_cmd(fd, UBURMA_CMD_CREATE_CTX, &ctx, sizeof(ctx)) != 0)
        return fd;
    close(ctx.out.async_fd);
    udma_create_jfc_resp cq = {};
    uburma_cmd_create_jfc jfc = ub_test::raw_jfc_args(&cq, 64);
    ub_cmd(fd, UBURMA_CMD_CREATE_JFC, &jfc, sizeof(jfc));
    const uburma_jfs_cfg cfg = ub_test::raw_jfs_cfg(64);
    udma_create_jfs_resp sq = {};
    uburma_cmd_create_jfs jfs = ub_test::raw_jfs_args(jfc.out.handle, &sq, cfg);
    ub_cmd(fd, UBURMA_CMD_CREATE_JFS, &jfs, sizeof(jfs));
    udma_create_jfr_resp rq = {};
    uburma_cmd_create_jfr jfr = ub_test::raw_jfr_args(jfc.out.handle, &rq, 64, 0x1234);
    ub_cmd(fd, UBURMA_CMD_CREATE_JFR, &jfr, sizeof(jfr));
    uburma_cmd_create_jetty jetty = ub_test::raw_jetty_args(jfc.out.handle, jfr.out.handle, &sq, cfg);
    ub_cmd(fd, UBURMA_CMD_CREATE_JETTY, &jetty, sizeof(jetty));
    uburma_cmd_alloc_token_id tid = {};
    ub_cmd(fd, UBURMA_CMD_ALLOC_TOKEN_ID, &tid, sizeof(tid));
    *buf = mmap(nullptr, 4 * 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (*buf != MAP_FAILED) {
        uburma_cmd_register_seg seg = {};
        seg.in.va = reinterpret_cast<uintptr_t>(*buf);
        seg.in.len = 4 * 4096;
        seg.in.token_id_handle = tid.out.handle;
        seg.in.token_value = 0x5eed;
        seg.in.flag = 1 | (0x6u << 5) | (1u << 13);  // plain token, READ|WRITE, token ID given
        ub_cmd(fd, UBURMA_CMD_REGISTER_SEG, &seg, sizeof(seg));
    }
    return fd;
}

void usage(const char *argv0)
{
    std::fprintf(stderr,
                 "usage: %s [--seed N] [--iterations N] [--workers N] [--kill-pct P] [--verbose]\n"
                 "Fuzzes the \"ubcore\" generic netlink family with N messages as user\n"
                 "nobody, then N as root. Exit 0: no finding, and every object count\n"
                 "back to 0 afterwards.\n",
                 argv0);
    std::exit(2);
}

}  // namespace

int main(int argc, char **argv)
{
    Options opt;
    Args(usage).workers(opt).parse(argc, argv);
    std::printf("ubcore_nl_fuzz: seed %" PRIu64 ", %" PRIu64 " messages per phase, %u workers\n", opt.seed,
                opt.iterations, opt.workers);
    std::fflush(stdout);
    if (geteuid() != 0) {
        std::printf("ubcore_nl_fuzz: must start as root (it runs a phase as nobody)\n");
        return 1;
    }
    uint16_t fam = family_id();
    if (fam == 0) {
        std::printf("ubcore_nl_fuzz: no \"%s\" generic netlink family\n", UBCORE_GENL_FAMILY_NAME);
        return 1;
    }
    void *buf = nullptr;
    int obj_fd = make_objects(&buf);
    std::string detail;
    total_objects(&detail);
    std::printf("objects for RES_GET: %s\n", detail.c_str());

    Rng master(opt.seed);
    const uint64_t t0 = monotonic_ms();
    int failures = 0;
    uint64_t kills = 0;
    for (int phase = 0; phase < 2; phase++) {
        const bool unpriv = phase == 0;
        const std::string before = admin_state();
        const uint64_t per = std::max<uint64_t>(1, opt.iterations / opt.workers);
        const uint64_t chunk = 200;  // messages of one worker process
        uint64_t done = 0;
        while (done < per * opt.workers) {
            std::vector<pid_t> pids;
            for (unsigned w = 0; w < opt.workers; w++) {
                uint64_t wseed = master.next();
                std::fflush(nullptr);
                pid_t pid = fork();
                if (pid == 0) {
                    if (obj_fd >= 0)
                        close(obj_fd);
                    if (unpriv)
                        drop_privileges();
                    Worker wk(opt, fam, wseed, unpriv);
                    int f = wk.run(chunk);
                    std::fflush(nullptr);
                    _exit(f == 0 ? 0 : 3);
                }
                if (pid > 0)
                    pids.push_back(pid);
                done += chunk;
            }
            pid_t victim = maybe_kill_one(master, pids, opt.kill_pct, 50000, 1000000, &kills);
            failures += reap_workers(pids, victim);
        }
        if (unpriv) {
            const std::string after = admin_state();
            if (after != before) {
                std::printf("FINDING: unprivileged workers changed devices or EIDs:\nbefore:\n%safter:\n%s",
                            before.c_str(), after.c_str());
                failures++;
            }
        }
        std::printf("phase %s: %" PRIu64 " messages\n", unpriv ? "nobody" : "root", done);
    }
    if (obj_fd >= 0)
        close(obj_fd);
    if (buf != nullptr && buf != MAP_FAILED)
        munmap(buf, 4 * 4096);
    detail.clear();
    bool zero = wait_objects_zero(10000, &detail);
    if (!zero) {
        std::printf("FINDING: objects left after every process exited: %s\n", detail.c_str());
        failures++;
    }
    std::printf("ubcore_nl_fuzz: seed %" PRIu64 ": %" PRIu64 " workers killed, %.1f s, %d failures; "
                "object counts %s\n",
                opt.seed, kills, static_cast<double>(monotonic_ms() - t0) / 1000.0, failures,
                zero ? "back to 0" : "NOT back to 0");
    return failures == 0 ? 0 : 1;
}
