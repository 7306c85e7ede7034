// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The UB/URMA stack authors
//
// uboe_pkt_fuzz: a seeded fuzzer of udma's UBoE receive path, run in the
// test guest by tests/guest/cases/fuzz-uboe-packets.sh.
//
// Started inside the target namespace (ip netns exec, so that /sys and
// /proc/net are the target's), it opens the target device's counters
// (/sys/class/ubcore/<dev>/wire/*), the namespace's UDP counters
// (/proc/net/snmp, /proc/net/snmp6) and its UBoE drops (/proc/net/
// udma_uboe), then moves into the peer namespace and sends from there.
//
// Packets are built from the layouts of include/uapi/ub/uboe_wire.h by the
// small encoder below (no kernel code): every TP opcode, every TAOpcode
// UBoE carries, on every transport and segment position its rules allow,
// with every extension header it may take, management messages of every
// type with a struct uboe_mgmt_body of random fields; aimed at the
// device's EIDs (or, now and then, at an EID on no device), at TPNs of the
// device's TP table (cm/tp) and at random ones. Half are then mutated:
// truncated, extended, bit-flipped, reserved bits set, length fields
// changed, random bytes, wrong ICRCs (with the length and the ICRC fixed up
// again or not); some datagrams are random bytes, tiny or huge. They go
// out over IPv4 and IPv6 from a plain UDP socket (IPv4 also without a UDP
// checksum) or a raw socket (any source port; a correct, zero or wrong UDP
// checksum); one at a time or in bursts.
//
// Checked, after each step (one datagram or a burst), once the target's
// UDP layer has counted every datagram sent (Udp InDatagrams plus InErrors,
// IPv4 and IPv6, in the target namespace):
//  - every datagram that reached the UBoE sockets (N, the InDatagrams
//    delta) is accounted on the device: it is counted in rx_packets
//    (delivered) or in exactly one drop reason, and a delivered one may in
//    addition be dropped by its dispatch point: R <= N, D <= N, R + D >= N
//    (R: rx_packets delta, D: the sum of the drop reasons' deltas); a step
//    of one datagram so has (R, D) in {(0,1), (1,0), (1,1)};
//  - rx_bytes moves by the UDP payload length of each delivered datagram
//    (one datagram: exactly its length, or 0 when it was not delivered);
//    mgmt_rx moves by at most R;
//  - the namespace's eid_not_here moves with the device's (every datagram
//    arrives on the device's netdev), its other drops do not move;
//  - datagrams with a bad UDP checksum never reach the UBoE sockets
//    (InDatagrams does not move for them);
//  - a packet built valid and not mutated has its fate fixed by the wire
//    format: one for an EID on no device is dropped as eid_not_here; one
//    without ICRC sent over IPv4 without UDP checksum as no_icrc; any
//    other one is delivered (rx_packets), a management message counted in
//    mgmt_rx, an RTP_DATA, ACK or NAK for a TPN far above the device's
//    TP table dropped as unknown_tpn.
// The exact per-datagram checks (rx_bytes, the fixed fates) pause while
// the peer device sends (its connection manager answering the target's):
// such a datagram may be the one the target's UDP layer counted.
// At the end: the device's TP table (cm/tp, without the ages) and its
// object counts (objects/) are back to what they were before the run once
// the connection manager's timeouts have passed. The kernel's side (KASAN,
// lockdep, WARN, kmemleak, module unload) is judged by the case.
#include <arpa/inet.h>
#include <dirent.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/ip.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <unistd.h>

#include <array>
#include <cinttypes>
#include <cstdarg>
#include <map>
#include <set>
#include <sstream>

#include <ub/uboe_wire.h>

#include "fuzz_util.h"

namespace {

using namespace ub_fuzz;

struct Options {
    uint64_t seed = 0;
    uint64_t iterations = 2000;  // steps: one datagram or a burst
    bool verbose = false;
    std::string dev = "udmaB";
    std::string peer_ns = "uboeA";
    std::string peer_dev = "udmaA";  // the peer namespace's device, if any
    std::string addr4 = "10.77.0.2";  // the target device's addresses (EIDs)
    std::string addr6 = "fd77::2";
    std::string peer4 = "10.77.0.1";  // the sender's
    std::string peer6 = "fd77::1";
    uint64_t port = 4792;
    uint64_t cm_wait_s = 60;
    uint64_t flood = 0;  // --flood: datagrams, without the per-step checks
};

Options g_opt;
bool g_failed = false;
unsigned g_findings = 0;  // the run stops after kMaxFindings
constexpr unsigned kMaxFindings = 5;

void finding(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void finding(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    std::printf("FINDING: ");
    std::vprintf(fmt, ap);
    std::printf("\n");
    va_end(ap);
    std::fflush(stdout);
    g_failed = true;
    g_findings++;
}

// The drop reasons (docs/uboe-wire.md, the files of wire/ and the lines of
// /proc/net/udma_uboe).
const std::vector<std::string> kDrops = {
    "truncated",     "len_mismatch",      "bad_version",      "no_icrc",        "bad_icrc",
    "reserved_set",  "unknown_tp_opcode", "bad_tp_flags",     "bad_tpn",        "bad_syndrome",
    "bad_ta_version", "unknown_ta_opcode", "ta_opcode_for_tp", "bad_field",      "bad_status",
    "ext_missing",   "ext_unexpected",    "bad_segment",      "payload_len",    "bad_mgmt_version",
    "unknown_mgmt_type", "unknown_tpn",   "eid_not_here"};

// ---- reading the target's counters through descriptors opened there ----

std::string read_fd(int fd)
{
    std::string s;
    char buf[4096];
    off_t off = 0;
    for (;;) {
        ssize_t n = pread(fd, buf, sizeof(buf), off);
        if (n <= 0)
            break;
        s.append(buf, static_cast<size_t>(n));
        off += n;
    }
    return s;
}

int open_or_die(const std::string &path)
{
    int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        std::fprintf(stderr, "open %s: %s\n", path.c_str(), std::strerror(errno));
        std::exit(2);
    }
    return fd;
}

struct Snapshot {
    std::map<std::string, uint64_t> wire;  // the device's wire/ files
    uint64_t peer_tx = 0;                  // the peer device's tx_packets
    std::map<std::string, uint64_t> ns;    // /proc/net/udma_uboe
    uint64_t in4 = 0, err4 = 0, in6 = 0, err6 = 0;
};

class Counters {
public:
    void open_all()
    {
        std::string dir = "/sys/class/ubcore/" + g_opt.dev + "/wire";
        DIR *d = opendir(dir.c_str());
        if (d == nullptr) {
            std::fprintf(stderr, "no %s: run in the device's namespace\n", dir.c_str());
            std::exit(2);
        }
        while (struct dirent *de = readdir(d))
            if (de->d_name[0] != '.')
                wire_[de->d_name] = open_or_die(dir + "/" + de->d_name);
        closedir(d);
        for (const auto &k : kDrops)
            if (!wire_.count(k)) {
                std::fprintf(stderr, "%s has no %s\n", dir.c_str(), k.c_str());
                std::exit(2);
            }
        for (const char *k : {"rx_packets", "rx_bytes", "mgmt_rx"})
            if (!wire_.count(k)) {
                std::fprintf(stderr, "%s has no %s\n", dir.c_str(), k);
                std::exit(2);
            }
        snmp_ = open_or_die("/proc/self/net/snmp");
        snmp6_ = open_or_die("/proc/self/net/snmp6");
        ns_ = open_or_die("/proc/self/net/udma_uboe");
        tp_ = open_or_die("/sys/class/ubcore/" + g_opt.dev + "/cm/tp");
        std::string odir = "/sys/class/ubcore/" + g_opt.dev + "/objects";
        if ((d = opendir(odir.c_str())) != nullptr) {
            while (struct dirent *de = readdir(d))
                if (de->d_name[0] != '.')
                    objs_[de->d_name] = open_or_die(odir + "/" + de->d_name);
            closedir(d);
        }
    }

    Snapshot read() const
    {
        Snapshot s;
        for (const auto &kv : wire_)
            s.wire[kv.first] = std::strtoull(read_fd(kv.second).c_str(), nullptr, 10);
        std::istringstream ns(read_fd(ns_));
        std::string name;
        uint64_t v;
        while (ns >> name >> v)
            s.ns[name] = v;
        read_udp(&s);
        if (peer_tx_ >= 0)
            s.peer_tx = std::strtoull(read_fd(peer_tx_).c_str(), nullptr, 10);
        return s;
    }

    // The peer device's tx_packets, read in the peer namespace: a
    // connection manager there may answer what the target's sent it, and
    // such a datagram must not be taken for one of ours. Mounts that
    // namespace's sysfs in a mount namespace of our own.
    void open_peer(const std::string &dev)
    {
        if (dev.empty())
            return;
        if (unshare(CLONE_NEWNS) != 0 || mount("none", "/", nullptr, MS_REC | MS_SLAVE, nullptr) != 0 ||
            umount2("/sys", MNT_DETACH) != 0 || mount("sysfs", "/sys", "sysfs", 0, nullptr) != 0) {
            std::fprintf(stderr, "mount the peer namespace's sysfs: %s\n", std::strerror(errno));
            std::exit(2);
        }
        peer_tx_ = open_or_die("/sys/class/ubcore/" + dev + "/wire/tx_packets");
    }

    // The UDP layer's counters only (IPv4 and IPv6).
    void read_udp(Snapshot *s) const
    {
        udp4(&s->in4, &s->err4);
        std::istringstream s6(read_fd(snmp6_));
        std::string name;
        uint64_t v;
        while (s6 >> name >> v) {
            if (name == "Udp6InDatagrams")
                s->in6 = v;
            else if (name == "Udp6InErrors")
                s->err6 = v;
        }
    }

    // The TP table without the ages (the last field of each line).
    std::string tps() const
    {
        std::istringstream in(read_fd(tp_));
        std::string line, out;
        while (std::getline(in, line)) {
            size_t sp = line.rfind(' ');
            out += line.substr(0, sp) + "\n";
        }
        return out;
    }

    // The TPNs the table has now.
    std::set<uint32_t> tpns() const
    {
        std::istringstream in(read_fd(tp_));
        std::string line;
        std::set<uint32_t> out;
        while (std::getline(in, line))
            out.insert(static_cast<uint32_t>(std::strtoul(line.c_str(), nullptr, 10)));
        return out;
    }

    std::string objects() const
    {
        std::string out;
        for (const auto &kv : objs_)
            out += kv.first + "=" + std::to_string(std::strtoll(read_fd(kv.second).c_str(), nullptr, 10)) + " ";
        return out;
    }

private:
    void udp4(uint64_t *in, uint64_t *err) const
    {
        // "Udp: InDatagrams NoPorts InErrors ..." then "Udp: <values>"
        std::istringstream s(read_fd(snmp_));
        std::string line, names;
        while (std::getline(s, line)) {
            if (line.compare(0, 5, "Udp: ") != 0)
                continue;
            if (names.empty()) {
                names = line;
                continue;
            }
            std::istringstream n(names.substr(5)), v(line.substr(5));
            std::string k;
            uint64_t x;
            while (n >> k && v >> x) {
                if (k == "InDatagrams")
                    *in = x;
                else if (k == "InErrors")
                    *err = x;
            }
            return;
        }
    }

    std::map<std::string, int> wire_, objs_;
    int snmp_ = -1, snmp6_ = -1, ns_ = -1, tp_ = -1, peer_tx_ = -1;
};

// ---- the encoder: uboe_wire.h, byte by byte ----

using Bytes = std::vector<uint8_t>;

void put8(Bytes &b, uint8_t v) { b.push_back(v); }
void put16(Bytes &b, uint16_t v)
{
    put8(b, static_cast<uint8_t>(v >> 8));
    put8(b, static_cast<uint8_t>(v));
}
void put32(Bytes &b, uint32_t v)
{
    put16(b, static_cast<uint16_t>(v >> 16));
    put16(b, static_cast<uint16_t>(v));
}
void put64(Bytes &b, uint64_t v)
{
    put32(b, static_cast<uint32_t>(v >> 32));
    put32(b, static_cast<uint32_t>(v));
}
void set16(Bytes &b, size_t off, uint16_t v)
{
    b[off] = static_cast<uint8_t>(v >> 8);
    b[off + 1] = static_cast<uint8_t>(v);
}

// CRC32C (Castagnoli, reflected, init and final xor 0xffffffff).
uint32_t crc32c(const uint8_t *p, size_t n)
{
    uint32_t crc = 0xffffffffU;
    for (size_t i = 0; i < n; i++) {
        crc ^= p[i];
        for (int k = 0; k < 8; k++)
            crc = (crc >> 1) ^ (0x82F63B78U & (0U - (crc & 1U)));
    }
    return ~crc;
}

using Eid = std::array<uint8_t, 16>;

Eid eid_of(const std::string &addr)
{
    Eid e{};
    in_addr a4;
    if (inet_pton(AF_INET, addr.c_str(), &a4) == 1) {
        e[10] = 0xff;
        e[11] = 0xff;
        std::memcpy(&e[12], &a4, 4);
    } else if (inet_pton(AF_INET6, addr.c_str(), e.data()) != 1) {
        std::fprintf(stderr, "not an address: %s\n", addr.c_str());
        std::exit(2);
    }
    return e;
}

// What the generator knows of a valid packet's fate at the target.
enum Fate { F_DELIVER, F_MGMT, F_UNKNOWN_TPN, F_EID_NOT_HERE, F_ANY };

struct Pkt {
    Bytes b;
    Fate fate = F_ANY;     // for the packet as built (before mutations)
    bool icrc = false;
    bool mutated = false;
    std::string what;      // a short description for --verbose
};

// The rules of each TAOpcode (uboe_wire.h and docs/uboe-wire.md): how it
// travels and the extension headers it takes.
constexpr uint32_t X_TV = 0x10000, X_UD = 0x20000;  // BTAH TV_EN, UD_Flag
enum { K_RTP = 1, K_UTP = 2, K_SEG = 4, K_MEM = 8, K_SE = 16 };
enum PayloadRule { PL_ANY, PL_MEM_WRITE, PL_NONE, PL_OPERANDS, PL_WORD, PL_MGMT };
struct Rule {
    uint8_t op;
    unsigned kind;
    uint32_t every, last, opt, opt_last;
    PayloadRule payload;
};
constexpr uint32_t ATOMIC_EVERY = UBOE_EXT_MAETAH | UBOE_EXT_TAIDETAH;
const std::vector<Rule> kRules = {
    {UBOE_TA_SEND, K_RTP | K_UTP | K_SEG | K_SE, UBOE_EXT_MTETAH | X_TV | X_UD, 0, UBOE_EXT_OFSTETAH,
     UBOE_EXT_INVETAH, PL_ANY},
    {UBOE_TA_SEND_IMM, K_RTP | K_UTP | K_SEG | K_SE, UBOE_EXT_MTETAH | X_TV | X_UD, UBOE_EXT_IMMETAH,
     UBOE_EXT_OFSTETAH, 0, PL_ANY},
    {UBOE_TA_WRITE, K_RTP | K_SEG | K_MEM, UBOE_EXT_MAETAH, 0, X_TV | UBOE_EXT_OFSTETAH, 0, PL_MEM_WRITE},
    {UBOE_TA_WRITE_IMM, K_RTP | K_SEG | K_MEM | K_SE, UBOE_EXT_MAETAH,
     UBOE_EXT_IMMETAH | UBOE_EXT_MTETAH | X_UD, X_TV | UBOE_EXT_OFSTETAH, 0, PL_MEM_WRITE},
    {UBOE_TA_WRITE_NOTIFY, K_RTP | K_SEG | K_MEM, UBOE_EXT_MAETAH, UBOE_EXT_NTFETAH,
     X_TV | UBOE_EXT_OFSTETAH, 0, PL_MEM_WRITE},
    {UBOE_TA_READ, K_RTP | K_MEM, UBOE_EXT_MAETAH | UBOE_EXT_TAIDETAH, 0, X_TV, 0, PL_NONE},
    {UBOE_TA_CAS, K_RTP | K_MEM, ATOMIC_EVERY, 0, X_TV, 0, PL_OPERANDS},
    {UBOE_TA_SWAP, K_RTP | K_MEM, ATOMIC_EVERY, 0, X_TV, 0, PL_OPERANDS},
    {UBOE_TA_STORE, K_RTP | K_MEM, ATOMIC_EVERY, 0, X_TV, 0, PL_OPERANDS},
    {UBOE_TA_LOAD, K_RTP | K_MEM, ATOMIC_EVERY, 0, X_TV, 0, PL_OPERANDS},
    {UBOE_TA_FADD, K_RTP | K_MEM, ATOMIC_EVERY, 0, X_TV, 0, PL_OPERANDS},
    {UBOE_TA_FSUB, K_RTP | K_MEM, ATOMIC_EVERY, 0, X_TV, 0, PL_OPERANDS},
    {UBOE_TA_FAND, K_RTP | K_MEM, ATOMIC_EVERY, 0, X_TV, 0, PL_OPERANDS},
    {UBOE_TA_FOR, K_RTP | K_MEM, ATOMIC_EVERY, 0, X_TV, 0, PL_OPERANDS},
    {UBOE_TA_FXOR, K_RTP | K_MEM, ATOMIC_EVERY, 0, X_TV, 0, PL_OPERANDS},
    {UBOE_TA_MANAGEMENT, K_UTP, UBOE_EXT_MGMTETAH, 0, 0, 0, PL_MGMT},
    {UBOE_TA_TAACK, K_RTP, 0, 0, UBOE_EXT_TAIDETAH, 0, PL_NONE},
    {UBOE_TA_READ_RESP, K_RTP | K_SEG, UBOE_EXT_TAIDETAH, 0, UBOE_EXT_OFSTETAH, 0, PL_ANY},
    {UBOE_TA_ATOMIC_RESP, K_RTP, UBOE_EXT_TAIDETAH, 0, 0, 0, PL_WORD},
    {UBOE_TA_WRITE_ATOMIC_ADD, K_RTP | K_SEG | K_MEM, UBOE_EXT_MAETAH, UBOE_EXT_NTFETAH,
     X_TV | UBOE_EXT_OFSTETAH, 0, PL_MEM_WRITE},
    {UBOE_TA_FLUSH, K_RTP | K_MEM, UBOE_EXT_MAETAH, 0, X_TV, 0, PL_NONE},
};

class Gen {
public:
    Gen(Rng &rng, const std::vector<Eid> &dev_eids, const Eid &peer4, const Eid &peer6)
        : rng_(rng), dev_eids_(dev_eids), peer4_(peer4), peer6_(peer6)
    {
    }

    std::set<uint32_t> real_tpns;  // the device's TPNs (cm/tp)
    bool far_tpns = false;         // only TPNs far above any TP's (--flood)

    // A valid packet of any kind.
    Pkt valid()
    {
        switch (rng_.below(8)) {
        case 0:
        case 1:
            return ack(rng_.pct(50) ? UBOE_TP_ACK : UBOE_TP_NAK);
        case 2:
        case 3:
            return data(UBOE_TP_UTP_DATA);
        default:
            return data(UBOE_TP_RTP_DATA);
        }
    }

    // A valid management message.
    Pkt mgmt() { return data(UBOE_TP_UTP_DATA, true); }

    // A management message to the device's EID @e (for the start probe).
    Pkt mgmt_to(const Eid &e)
    {
        forced_dst_ = &e;
        Pkt p = data(UBOE_TP_UTP_DATA, true);
        forced_dst_ = nullptr;
        return p;
    }

private:
    uint32_t id20() { return static_cast<uint32_t>(rng_.interesting()) & UBOE_ID_MASK; }

    Eid random_eid()
    {
        Eid e;
        rng_.fill(e.data(), e.size());
        return e;
    }

    // The destination EID of an EIDH: the device's, or (10%) none's.
    Eid dst_eid(bool *here)
    {
        if (forced_dst_ != nullptr) {
            *here = true;
            return *forced_dst_;
        }
        *here = !rng_.pct(10);
        if (*here)
            return rng_.pick(dev_eids_);
        Eid e = random_eid();
        for (const Eid &d : dev_eids_)
            if (e == d)
                e[0] ^= 1;
        return e;
    }

    Eid src_eid() { return rng_.pct(70) ? (rng_.pct(50) ? peer4_ : peer6_) : random_eid(); }

    // A TPN: one of the device's TPs, a small one, or one far above any.
    uint32_t tpn(bool *unknown)
    {
        if (far_tpns) {
            *unknown = true;
            return 0x800000U | static_cast<uint32_t>(rng_.below(0x7fffff) + 1);
        }
        if (!real_tpns.empty() && rng_.pct(30)) {
            std::vector<uint32_t> v(real_tpns.begin(), real_tpns.end());
            *unknown = false;
            return rng_.pick(v);
        }
        if (rng_.pct(30)) {
            uint32_t t = 1 + static_cast<uint32_t>(rng_.below(64));
            *unknown = false;  // may be a TP's some day
            return t;
        }
        *unknown = true;
        return 0x800000U | static_cast<uint32_t>(rng_.below(0x7fffff) + 1);
    }

    // TPH and EIDH; pkt_len and the ICRC are set by finish().
    void tph(Pkt &p, uint8_t op, uint32_t flags, uint32_t dtpn, uint32_t stpn, bool eid, bool *here)
    {
        p.icrc = rng_.pct(30);
        if (p.icrc)
            flags |= UBOE_TPH_F_ICRC;
        if (eid)
            flags |= UBOE_TPH_F_EID;
        put8(p.b, UBOE_WIRE_VERSION << UBOE_TPH_VER_SHIFT);
        put8(p.b, op);
        put16(p.b, 0);
        put32(p.b, flags | dtpn);
        put32(p.b, stpn);
        put32(p.b, static_cast<uint32_t>(rng_.next()) & UBOE_PSN_MASK);
        *here = true;
        if (eid) {
            Eid s = src_eid(), d = dst_eid(here);
            p.b.insert(p.b.end(), s.begin(), s.end());
            p.b.insert(p.b.end(), d.begin(), d.end());
        }
    }

    Pkt ack(uint8_t op)
    {
        Pkt p;
        bool unknown, here;
        uint32_t dtpn = tpn(&unknown);
        uint32_t stpn = 1 + static_cast<uint32_t>(rng_.below(UBOE_TPN_MASK));
        bool eid = rng_.pct(30);
        tph(p, op, 0, dtpn, stpn, eid, &here);
        // info: the packets held after the hole (ACK, SEQ_ERR NAK), any count
        uint8_t syn = 0, info = static_cast<uint8_t>(rng_.below(256));
        if (op == UBOE_TP_NAK) {
            syn = rng_.pct(50) ? UBOE_NAK_SEQ_ERR : UBOE_NAK_RNR;
            if (syn == UBOE_NAK_RNR)
                info = static_cast<uint8_t>(rng_.below(UBOE_RNR_TIMER_MAX + 1));
        }
        put8(p.b, syn);
        put8(p.b, info);
        put16(p.b, static_cast<uint16_t>(rng_.next()));
        p.fate = !here ? F_EID_NOT_HERE : unknown ? F_UNKNOWN_TPN : F_DELIVER;
        p.what = op == UBOE_TP_ACK ? "ACK" : "NAK";
        finish(p);
        return p;
    }

    // The management message body: valid fields, or now and then random.
    Bytes body(uint8_t type, const Eid &dst)
    {
        Bytes b;
        bool req = type == UBOE_MGMT_CONN_REQ || type == UBOE_MGMT_CONN_REUSE_REQ;
        Eid s = src_eid();
        // A request from the peer's own EID for the pair's RM TP names the
        // live TP by its EIDs (RM TPs are keyed by the pair, not by a TPN):
        // from a new TPN it is the peer opening anew, or a forgery, and
        // ubcore asks the old end before it drops anything (--flood: the
        // transfer on the live TP must survive them).
        uint8_t tm = rng_.pct(90) ? (rng_.pct(50) ? UBOE_MGMT_TM_RM : UBOE_MGMT_TM_RC)
                                  : static_cast<uint8_t>(rng_.next());
        put8(b, rng_.pct(90) ? UBOE_MGMT_BODY_VERSION : static_cast<uint8_t>(rng_.next()));
        put8(b, tm);
        put8(b, rng_.pct(90) ? (req ? static_cast<uint8_t>(1 + rng_.below(2)) : 0)
                             : static_cast<uint8_t>(rng_.next()));
        put8(b, rng_.pct(90) ? (type == UBOE_MGMT_CONN_REJ
                                    ? static_cast<uint8_t>(1 + rng_.below(UBOE_MGMT_REASON_MAX))
                                    : 0)
                             : static_cast<uint8_t>(rng_.next()));
        bool unknown;
        put32(b, tpn(&unknown));
        put32(b, type == UBOE_MGMT_CONN_REQ && rng_.pct(80) ? 0 : tpn(&unknown));
        put32(b, id20());
        put32(b, id20());
        put32(b, static_cast<uint32_t>(rng_.interesting()));
        Eid d = rng_.pct(90) ? dst : random_eid();
        b.insert(b.end(), s.begin(), s.end());
        b.insert(b.end(), d.begin(), d.end());
        if (rng_.pct(10))
            b.resize(rng_.below(2 * UBOE_MGMT_BODY_SIZE));
        return b;
    }

    Pkt data(uint8_t tp_op, bool want_mgmt = false)
    {
        // the TAOpcodes this TP opcode carries
        std::vector<const Rule *> rules;
        for (const Rule &r : kRules)
            if ((r.kind & (tp_op == UBOE_TP_RTP_DATA ? K_RTP : K_UTP)) &&
                (!want_mgmt || r.op == UBOE_TA_MANAGEMENT))
                rules.push_back(&r);
        const Rule &r = *rng_.pick(rules);
        bool utp = tp_op == UBOE_TP_UTP_DATA;
        bool resp = r.op >= UBOE_TA_TAACK && r.op <= UBOE_TA_ATOMIC_RESP;

        // segment position
        uint32_t seg = UBOE_TPH_F_FIRST | UBOE_TPH_F_LAST;
        if (!utp && (r.kind & K_SEG))
            seg = static_cast<uint32_t>(rng_.below(4)) << 29;  // MIDDLE, LAST, FIRST, ONLY
        bool first = seg & UBOE_TPH_F_FIRST, last = seg & UBOE_TPH_F_LAST;

        // headers
        uint32_t hdrs = r.every | (last ? r.last : 0);
        uint32_t allow = r.opt | (last ? r.opt_last : 0);
        for (uint32_t bit = 1; bit <= X_UD; bit <<= 1)
            if ((allow & bit) && rng_.pct(50))
                hdrs |= bit;
        if (!first && (r.opt & UBOE_EXT_OFSTETAH))
            hdrs |= UBOE_EXT_OFSTETAH;

        // payload and lengths
        uint64_t offset = 0;
        if ((hdrs & UBOE_EXT_OFSTETAH) && !first)
            offset = rng_.below(64) << UBOE_OFST_SHIFT;
        size_t plen = 0;
        if (!last)
            plen = (1 + rng_.below(2)) << UBOE_OFST_SHIFT;
        else if (r.payload == PL_ANY || r.payload == PL_MEM_WRITE)
            plen = rng_.pct(10) ? 0 : rng_.below(rng_.pct(10) ? 8000 : 300);
        else if (r.payload == PL_OPERANDS)
            plen = 16;
        else if (r.payload == PL_WORD)
            plen = 8;
        uint32_t mae_len = static_cast<uint32_t>(rng_.next());
        if (r.payload == PL_MEM_WRITE)
            mae_len = static_cast<uint32_t>(offset + plen + (last ? 0 : rng_.below(4096)));
        else if (r.payload == PL_OPERANDS)
            mae_len = 8;
        else if (r.op == UBOE_TA_READ)
            mae_len = rng_.pct(10) ? 0 : static_cast<uint32_t>(rng_.interesting());
        if ((r.kind & K_MEM) && mae_len)
            hdrs |= X_TV;

        bool unknown = true, here;
        uint32_t dtpn = 0, stpn = 0;
        if (!utp) {
            dtpn = tpn(&unknown);
            stpn = 1 + static_cast<uint32_t>(rng_.below(UBOE_TPN_MASK));
        }
        uint32_t flags = seg;
        if (!utp && rng_.pct(30))
            flags |= UBOE_TPH_F_ACKREQ;
        Pkt p;
        tph(p, tp_op, flags, dtpn, stpn, utp || rng_.pct(20), &here);
        Eid dst{};
        if (flags & UBOE_TPH_F_EID || utp)
            std::copy(p.b.end() - 16, p.b.end(), dst.begin());

        // BTAH or ATAH
        put8(p.b, r.op);
        uint16_t ext = static_cast<uint16_t>(hdrs & 0xffff);
        if (resp) {
            put8(p.b, rng_.pct(50) ? UBOE_ATAH_SV : 0);
            put16(p.b, static_cast<uint16_t>(rng_.next()));
            uint32_t rspst = static_cast<uint32_t>(rng_.below(UBOE_RSPST_UNSUPPORTED + 1));
            uint32_t info = rspst == UBOE_RSPST_RNR ? static_cast<uint32_t>(rng_.below(32)) : 0;
            uint32_t rc = id20();
            put32(p.b, rspst << UBOE_ATAH_RSPST_SHIFT | info << UBOE_ATAH_RSPINFO_SHIFT | rc);
        } else {
            uint8_t f = static_cast<uint8_t>(rng_.below(2) << UBOE_BTAH_EE_SHIFT);
            f |= hdrs & X_TV ? UBOE_BTAH_TV_EN : 0;
            f |= hdrs & X_UD ? UBOE_BTAH_UD : 0;
            f |= rng_.pct(20) ? UBOE_BTAH_POISON : 0;
            f |= rng_.pct(30) ? UBOE_BTAH_NO_TAACK : 0;
            put8(p.b, f);
            put16(p.b, static_cast<uint16_t>(rng_.next()));
            uint32_t w = static_cast<uint32_t>(rng_.below(3)) << UBOE_BTAH_TEO_SHIFT;
            w |= rng_.pct(50) ? UBOE_BTAH_TCO : 0;
            w |= static_cast<uint32_t>(rng_.below(2)) << UBOE_BTAH_RC_TYPE_SHIFT;
            w |= (r.kind & K_SE) && rng_.pct(50) ? UBOE_BTAH_SE : 0;
            w |= id20();
            put32(p.b, w);
        }
        put16(p.b, ext);
        put16(p.b, 0);

        // extension headers, in wire order
        uint8_t mtype = static_cast<uint8_t>(1 + rng_.below(UBOE_MGMT_TYPE_MAX));
        Bytes pl;
        if (r.payload == PL_MGMT) {
            pl = body(mtype, dst);
        } else {
            pl.resize(plen);
            rng_.fill(pl.data(), pl.size());
        }
        uint64_t end = offset + pl.size();
        if (hdrs & X_TV)
            put32(p.b, static_cast<uint32_t>(rng_.interesting()));
        if (hdrs & UBOE_EXT_MAETAH) {
            put64(p.b, rng_.interesting());
            put32(p.b, id20());
            put32(p.b, mae_len);
        }
        if (hdrs & UBOE_EXT_MTETAH) {
            uint32_t hint = static_cast<uint32_t>(rng_.below(256)) << UBOE_MTETAH_HINT_SHIFT;
            put32(p.b, hint | id20());
        }
        if (hdrs & UBOE_EXT_IMMETAH) {
            put64(p.b, rng_.next());
            put32(p.b, r.op == UBOE_TA_WRITE_IMM ? static_cast<uint32_t>(rng_.next()) : 0);
            put32(p.b, r.op == UBOE_TA_WRITE_IMM ? mae_len : static_cast<uint32_t>(end));
        }
        if (hdrs & UBOE_EXT_NTFETAH) {
            put64(p.b, rng_.next());
            put64(p.b, rng_.interesting());
            put32(p.b, id20());
            put32(p.b, static_cast<uint32_t>(rng_.next()));
        }
        if (hdrs & UBOE_EXT_INVETAH) {
            put64(p.b, rng_.interesting());
            put64(p.b, rng_.interesting());
            put32(p.b, id20());
            put32(p.b, static_cast<uint32_t>(rng_.next()));
        }
        if (hdrs & UBOE_EXT_OFSTETAH)
            put32(p.b, static_cast<uint32_t>(offset >> UBOE_OFST_SHIFT));
        if (hdrs & UBOE_EXT_TAIDETAH) {
            put16(p.b, static_cast<uint16_t>(rng_.next()));
            put16(p.b, 0);
        }
        if (hdrs & UBOE_EXT_MGMTETAH) {
            put8(p.b, UBOE_MGMT_VERSION);
            put8(p.b, mtype);
            put16(p.b, static_cast<uint16_t>(pl.size()));
            put32(p.b, static_cast<uint32_t>(rng_.next()));
        }
        if (hdrs & X_UD)
            put32(p.b, static_cast<uint32_t>(rng_.next()));
        p.b.insert(p.b.end(), pl.begin(), pl.end());

        if (!here)
            p.fate = F_EID_NOT_HERE;
        else if (r.op == UBOE_TA_MANAGEMENT)
            p.fate = F_MGMT;
        else if (!utp && unknown)
            p.fate = F_UNKNOWN_TPN;
        else
            p.fate = F_DELIVER;
        char what[64];
        std::snprintf(what, sizeof(what), "%s TA 0x%02x seg %u hdrs 0x%05x payload %zu",
                      utp ? "UTP" : "RTP", r.op, seg >> 29, hdrs, pl.size());
        p.what = what;
        finish(p);
        return p;
    }

public:
    // TPH pkt_len, then the ICRC when the C flag is set.
    static void finish(Pkt &p)
    {
        if (p.b.size() < 4)
            return;
        set16(p.b, 2, static_cast<uint16_t>(p.b.size() + (p.icrc ? UBOE_ICRC_SIZE : 0)));
        if (p.icrc)
            put32(p.b, crc32c(p.b.data(), p.b.size()));
    }

private:
    Rng &rng_;
    std::vector<Eid> dev_eids_;
    Eid peer4_, peer6_;
    const Eid *forced_dst_ = nullptr;
};

// Mutations of a built packet.
void mutate(Rng &rng, Pkt &p)
{
    p.mutated = true;
    bool had_icrc = p.icrc;
    if (had_icrc && p.b.size() >= UBOE_ICRC_SIZE && rng.pct(50))
        p.b.resize(p.b.size() - UBOE_ICRC_SIZE);  // to be recomputed
    else
        had_icrc = false;
    unsigned n = 1 + static_cast<unsigned>(rng.below(4));
    for (unsigned i = 0; i < n; i++) {
        size_t sz = p.b.size();
        // mostly in the headers
        size_t at = sz == 0 ? 0 : rng.below(rng.pct(80) ? std::min<size_t>(sz, 140) : sz);
        switch (rng.below(9)) {
        case 0:  // truncate
            p.b.resize(rng.below(sz + 1));
            break;
        case 1:  // bit flip
        case 2:
            if (sz)
                p.b[at] ^= static_cast<uint8_t>(1U << rng.below(8));
            break;
        case 3:  // a random byte
            if (sz)
                p.b[at] = static_cast<uint8_t>(rng.next());
            break;
        case 4:  // reserved bits of the TPH
            if (sz >= 16) {
                static const size_t offs[] = {0, 4, 8, 12};
                size_t o = offs[rng.below(4)];
                p.b[o] |= o == 0 ? static_cast<uint8_t>(1U << rng.below(4))
                                 : o == 4 ? static_cast<uint8_t>(1U << rng.below(3))
                                          : static_cast<uint8_t>(1U << rng.below(8));
            }
            break;
        case 5:  // bytes appended
        {
            size_t k = 1 + rng.below(64);
            for (size_t j = 0; j < k; j++)
                p.b.push_back(static_cast<uint8_t>(rng.next()));
            break;
        }
        case 6:  // a length field: pkt_len or a 16/32-bit word
            if (sz >= 4 && rng.pct(50))
                set16(p.b, 2, static_cast<uint16_t>(rng.pct(50) ? sz + rng.below(3) - 1 : rng.next()));
            else if (sz >= 4)
                set16(p.b, (at & ~size_t(1)) % (sz - 1), static_cast<uint16_t>(rng.interesting()));
            break;
        case 7:  // the flags byte of the TPH (F, L, E, C, A)
            if (sz >= 5)
                p.b[4] ^= static_cast<uint8_t>(0x80U >> rng.below(5));
            break;
        default:  // a random run of bytes
            if (sz) {
                size_t k = 1 + rng.below(16);
                for (size_t j = at; j < sz && j < at + k; j++)
                    p.b[j] = static_cast<uint8_t>(rng.next());
            }
            break;
        }
    }
    // Make the length and the ICRC right again (or not), to get deeper.
    if (p.b.size() >= 4 && rng.pct(50))
        set16(p.b, 2, static_cast<uint16_t>(p.b.size() + (had_icrc ? UBOE_ICRC_SIZE : 0)));
    if (had_icrc)
        put32(p.b, crc32c(p.b.data(), p.b.size()));
}

// A datagram of random bytes: tiny, ordinary or huge.
Pkt random_datagram(Rng &rng)
{
    Pkt p;
    p.mutated = true;
    switch (rng.below(4)) {
    case 0:
        p.b.resize(rng.below(20));
        break;
    case 1:
        p.b.resize(60000 + rng.below(UBOE_MAX_PKT - 60000 + 1));
        break;
    default:
        p.b.resize(rng.below(2000));
        break;
    }
    rng.fill(p.b.data(), p.b.size());
    if (p.b.size() >= 16 && rng.pct(50)) {  // a TPH that gets past the first checks
        p.b[0] = UBOE_WIRE_VERSION << UBOE_TPH_VER_SHIFT;
        set16(p.b, 2, static_cast<uint16_t>(p.b.size()));
    }
    p.what = "random bytes";
    return p;
}

// ---- sending ----

uint16_t csum_fold(uint32_t sum)
{
    while (sum >> 16)
        sum = (sum & 0xffff) + (sum >> 16);
    return static_cast<uint16_t>(~sum);
}

uint32_t csum_add(uint32_t sum, const uint8_t *p, size_t n)
{
    for (size_t i = 0; i + 1 < n; i += 2)
        sum += static_cast<uint32_t>(p[i] << 8 | p[i + 1]);
    if (n & 1)
        sum += static_cast<uint32_t>(p[n - 1] << 8);
    while (sum >> 16)
        sum = (sum & 0xffff) + (sum >> 16);
    return sum;
}

enum Csum { C_RIGHT, C_ZERO, C_WRONG };

class Sender {
public:
    void open_all()
    {
        inet_pton(AF_INET, g_opt.addr4.c_str(), &dst4_.sin_addr);
        dst4_.sin_family = AF_INET;
        dst4_.sin_port = htons(static_cast<uint16_t>(g_opt.port));
        inet_pton(AF_INET6, g_opt.addr6.c_str(), &dst6_.sin6_addr);
        dst6_.sin6_family = AF_INET6;
        dst6_.sin6_port = dst4_.sin_port;
        inet_pton(AF_INET, g_opt.peer4.c_str(), &src4_);
        inet_pton(AF_INET6, g_opt.peer6.c_str(), &src6_);
        udp4_ = sock(AF_INET, SOCK_DGRAM, 0);
        udp4nc_ = sock(AF_INET, SOCK_DGRAM, 0);
        int one = 1;
        if (setsockopt(udp4nc_, SOL_SOCKET, SO_NO_CHECK, &one, sizeof(one)) != 0)
            die("SO_NO_CHECK");
        udp6_ = sock(AF_INET6, SOCK_DGRAM, 0);
        raw4_ = sock(AF_INET, SOCK_RAW, IPPROTO_UDP);
        raw6_ = sock(AF_INET6, SOCK_RAW, IPPROTO_UDP);
        // the raw sockets send only: a small receive buffer for what they see
        int small = 4096;
        setsockopt(raw4_, SOL_SOCKET, SO_RCVBUF, &small, sizeof(small));
        setsockopt(raw6_, SOL_SOCKET, SO_RCVBUF, &small, sizeof(small));
        sockaddr_in b4{};
        b4.sin_family = AF_INET;
        b4.sin_addr = src4_;
        sockaddr_in6 b6{};
        b6.sin6_family = AF_INET6;
        b6.sin6_addr = src6_;
        if (bind(raw4_, reinterpret_cast<sockaddr *>(&b4), sizeof(b4)) != 0 ||
            bind(raw6_, reinterpret_cast<sockaddr *>(&b6), sizeof(b6)) != 0)
            die("bind the raw sockets");
    }

    // Plain UDP; returns whether it went out.
    bool udp(bool v6, bool no_check, const Bytes &b)
    {
        int s = v6 ? udp6_ : no_check ? udp4nc_ : udp4_;
        const sockaddr *to = v6 ? reinterpret_cast<const sockaddr *>(&dst6_)
                                : reinterpret_cast<const sockaddr *>(&dst4_);
        socklen_t len = v6 ? sizeof(dst6_) : sizeof(dst4_);
        return sendto(s, b.data(), b.size(), 0, to, len) == static_cast<ssize_t>(b.size());
    }

    // A UDP header of our own through a raw socket.
    bool raw(bool v6, uint16_t sport, Csum c, Rng &rng, const Bytes &b)
    {
        Bytes d;
        size_t ulen = 8 + b.size();
        if (ulen > 0xffff)
            return false;
        put16(d, sport);
        put16(d, static_cast<uint16_t>(g_opt.port));
        put16(d, static_cast<uint16_t>(ulen));
        put16(d, 0);
        d.insert(d.end(), b.begin(), b.end());
        // pseudo header: addresses, protocol, UDP length
        uint32_t sum = 0;
        if (v6) {
            sum = csum_add(sum, src6_.s6_addr, 16);
            sum = csum_add(sum, dst6_.sin6_addr.s6_addr, 16);
        } else {
            sum = csum_add(sum, reinterpret_cast<const uint8_t *>(&src4_), 4);
            sum = csum_add(sum, reinterpret_cast<const uint8_t *>(&dst4_.sin_addr), 4);
        }
        sum += IPPROTO_UDP + static_cast<uint32_t>(ulen);
        uint16_t ck = csum_fold(csum_add(sum, d.data(), d.size()));
        if (ck == 0)
            ck = 0xffff;
        if (c == C_ZERO) {
            ck = 0;
        } else if (c == C_WRONG) {
            ck ^= static_cast<uint16_t>(1 + rng.below(0xfffe));
            if (ck == 0)
                ck = 0x1234;  // 0 is "no checksum" over IPv4
        }
        set16(d, 6, ck);
        sockaddr_in6 t6 = dst6_;
        sockaddr_in t4 = dst4_;
        t6.sin6_port = 0;  // raw sockets: no port (the UDP header has it)
        t4.sin_port = 0;
        const sockaddr *to = v6 ? reinterpret_cast<const sockaddr *>(&t6)
                                : reinterpret_cast<const sockaddr *>(&t4);
        socklen_t len = v6 ? sizeof(t6) : sizeof(t4);
        return sendto(v6 ? raw6_ : raw4_, d.data(), d.size(), 0, to, len) == static_cast<ssize_t>(d.size());
    }

private:
    static void die(const char *what)
    {
        std::perror(what);
        std::exit(2);
    }
    static int sock(int fam, int type, int proto)
    {
        int s = socket(fam, type | SOCK_CLOEXEC, proto);
        if (s < 0)
            die("socket");
        return s;
    }
    sockaddr_in dst4_{};
    sockaddr_in6 dst6_{};
    in_addr src4_{};
    in6_addr src6_{};
    int udp4_ = -1, udp4nc_ = -1, udp6_ = -1, raw4_ = -1, raw6_ = -1;
};

// One datagram of a step, as sent.
struct Sent {
    Pkt p;
    bool v6 = false;
    bool need_icrc = false;  // IPv4 without UDP checksum
    bool reaches = true;     // the UDP layer passes it to the UBoE socket
};

struct Totals {
    uint64_t steps = 0, bursts = 0, sent = 0, reached = 0, csum_dropped = 0, send_failed = 0;
    uint64_t built = 0, mutated = 0, random = 0, fated = 0, v6 = 0, raw = 0;
    uint64_t extra = 0;          // datagrams the target got that we did not send
    uint64_t after_delivery = 0; // delivered, then dropped by the dispatch point
};

uint64_t d(const Snapshot &a, const Snapshot &b, const std::string &k)
{
    auto ia = a.wire.find(k), ib = b.wire.find(k);
    return ia == a.wire.end() || ib == b.wire.end() ? 0 : ib->second - ia->second;
}

uint64_t dns(const Snapshot &a, const Snapshot &b, const std::string &k)
{
    auto ia = a.ns.find(k), ib = b.ns.find(k);
    return ia == a.ns.end() || ib == b.ns.end() ? 0 : ib->second - ia->second;
}

std::string hex(const Bytes &b)
{
    std::string s;
    char x[4];
    for (size_t i = 0; i < b.size() && i < 96; i++) {
        std::snprintf(x, sizeof(x), "%02x", b[i]);
        s += x;
    }
    return s + (b.size() > 96 ? "..." : "");
}

std::string dump(const std::vector<Sent> &v)
{
    std::string s;
    for (const Sent &x : v)
        s += std::string("\n  ") + (x.v6 ? "v6 " : "v4 ") + (x.p.mutated ? "mutated " : "") + x.p.what +
             " len " + std::to_string(x.p.b.size()) + ": " + hex(x.p.b);
    return s;
}

// One datagram of the mix, sent: 5% random bytes, else a built packet (a
// quarter of them management messages), half of those mutated; over IPv4
// or IPv6, a fifth from the raw socket (any source port; a right, zero or
// wrong UDP checksum), the others from a UDP socket (IPv4 a tenth without
// checksum). False when the send failed.
bool send_one(Rng &rng, Gen &gen, Sender &tx, Totals &t, Sent *s)
{
    if (rng.pct(5)) {
        s->p = random_datagram(rng);
        t.random++;
    } else {
        s->p = rng.pct(25) ? gen.mgmt() : gen.valid();
        t.built++;
        if (rng.pct(50)) {
            mutate(rng, s->p);
            t.mutated++;
        }
    }
    s->v6 = rng.pct(50);
    bool ok;
    if (rng.pct(20)) {
        static const uint16_t ports[] = {0, 4792, 4791, 1, 65535};
        uint16_t sport = rng.pct(50) ? ports[rng.below(5)] : static_cast<uint16_t>(rng.next());
        Csum ck = rng.pct(80) ? C_RIGHT : rng.pct(50) ? C_ZERO : C_WRONG;
        s->need_icrc = !s->v6 && ck == C_ZERO;
        s->reaches = ck == C_RIGHT || s->need_icrc;
        ok = tx.raw(s->v6, sport, ck, rng, s->p.b);
        t.raw++;
    } else {
        s->need_icrc = !s->v6 && rng.pct(10);
        ok = tx.udp(s->v6, s->need_icrc, s->p.b);
    }
    if (!ok) {
        t.send_failed++;
        return false;
    }
    t.v6 += s->v6;
    t.sent++;
    return true;
}

// Waits until the target's UDP layer has seen the step's datagrams.
bool settle(const Counters &c, const Snapshot &before, uint64_t reach, uint64_t bad, Snapshot *after)
{
    // The UDP layer counts a datagram after the UBoE hook returned: once
    // it has counted them all, the device's counters are final.
    for (int i = 0; i < 5000; i++) {
        Snapshot u;
        c.read_udp(&u);
        uint64_t in = u.in4 - before.in4 + u.in6 - before.in6;
        uint64_t err = u.err4 - before.err4 + u.err6 - before.err6;
        if (in >= reach && err >= bad) {
            *after = c.read();
            return true;
        }
        usleep(i < 20 ? 100 : 1000);
    }
    return false;
}

// The checks of one step (see the top of the file).
void check_step(const std::vector<Sent> &sent, const Snapshot &a, const Snapshot &b, Totals &t, uint64_t step,
                bool quiet)
{
    uint64_t reach = 0, bad = 0;
    for (const Sent &s : sent)
        (s.reaches ? reach : bad)++;
    uint64_t n = b.in4 - a.in4 + b.in6 - a.in6;
    uint64_t errs = b.err4 - a.err4 + b.err6 - a.err6;
    uint64_t r = d(a, b, "rx_packets"), dr = 0;
    for (const auto &k : kDrops)
        dr += d(a, b, k);
    t.reached += reach;
    t.csum_dropped += bad;
    if (n > reach)
        t.extra += n - reach;
    if (r + dr > n)
        t.after_delivery += r + dr - n;
    std::string why;
    char buf[200];
    if (n < reach || errs < bad) {
        std::snprintf(buf, sizeof(buf), "the UDP layer counted %" PRIu64 " datagrams and %" PRIu64
                      " errors, want %" PRIu64 " and %" PRIu64 "; ", n, errs, reach, bad);
        why += buf;
    }
    if (r > n || dr > n || r + dr < n) {
        std::snprintf(buf, sizeof(buf), "%" PRIu64 " datagrams reached the socket, rx_packets moved by %" PRIu64
                      " and the drop reasons by %" PRIu64 "; ", n, r, dr);
        why += buf;
    }
    if (d(a, b, "mgmt_rx") > r)
        why += "mgmt_rx moved by more than rx_packets; ";
    if (dns(a, b, "eid_not_here") != d(a, b, "eid_not_here"))
        why += "the namespace's eid_not_here and the device's moved apart; ";
    for (const auto &k : kDrops)
        if (k != "eid_not_here" && dns(a, b, k) != 0)
            why += "the namespace's " + k + " moved; ";
    uint64_t bytes = d(a, b, "rx_bytes"), all = 0;
    for (const Sent &s : sent)
        all += s.reaches ? s.p.b.size() : 0;
    if (bytes > all && n == reach && quiet)
        why += "rx_bytes moved by more than the bytes sent; ";
    // one datagram and nothing else (the peer device sent nothing since
    // the last step began): its exact account
    if (sent.size() == 1 && n == 1 && reach == 1 && quiet) {
        const Sent &s = sent[0];
        if (bytes != (r ? s.p.b.size() : 0)) {
            std::snprintf(buf, sizeof(buf), "rx_bytes moved by %" PRIu64 " for %s datagram of %zu bytes; ",
                          bytes, r ? "a delivered" : "an undelivered", s.p.b.size());
            why += buf;
        }
        if (!s.p.mutated && s.p.fate != F_ANY) {
            t.fated++;
            std::map<std::string, uint64_t> want;  // counters that must move, by how much
            if (s.need_icrc && !s.p.icrc)  // the decoder's first checks
                want = {{"no_icrc", 1}, {"rx_packets", 0}};
            else if (s.p.fate == F_EID_NOT_HERE)
                want = {{"eid_not_here", 1}, {"rx_packets", 0}};
            else if (s.p.fate == F_MGMT)
                want = {{"rx_packets", 1}, {"mgmt_rx", 1}};
            else if (s.p.fate == F_UNKNOWN_TPN)
                want = {{"rx_packets", 1}, {"unknown_tpn", 1}, {"mgmt_rx", 0}};
            else
                want = {{"rx_packets", 1}, {"mgmt_rx", 0}};
            for (const auto &kv : want)
                if (d(a, b, kv.first) != kv.second) {
                    std::snprintf(buf, sizeof(buf), "a valid packet moved %s by %" PRIu64 ", want %" PRIu64 "; ",
                                  kv.first.c_str(), d(a, b, kv.first), kv.second);
                    why += buf;
                }
        }
    }
    if (!why.empty()) {
        std::string moved;
        for (const auto &kv : b.wire)
            if (d(a, b, kv.first))
                moved += " " + kv.first + "+" + std::to_string(d(a, b, kv.first));
        finding("step %" PRIu64 ": %scounters moved:%s; datagrams:%s", step, why.c_str(), moved.c_str(),
                dump(sent).c_str());
    }
}

// The UDP layer's count of datagrams to the namespace (IPv4 and IPv6,
// delivered and in error).
uint64_t udp_total(const Snapshot &s) { return s.in4 + s.in6 + s.err4 + s.err6; }

// --flood N: N datagrams of the mix as fast as they go, without the
// per-step checks: the receive path under load while a transfer runs on
// the devices' TP (tests/guest/cases/fuzz-uboe-flood.sh). They aim at no
// TPN a TP may have (Gen::far_tpns): UBoE, like RoCEv2, does not
// authenticate packets, and one forged for the live TP's TPNs from the
// peer's address would be the peer's. Requests that name the live RM TP by
// its EID pair from another TPN are in the mix: the connection manager
// asks the old end first (Gen::body). Checked once the target's UDP layer has
// stopped counting: it counted datagrams, the device counted drops, and
// every datagram that reached the UBoE sockets was delivered or dropped
// (R + D >= N, the transfer's own in R and N alike).
int flood(Counters &c, Sender &tx, Gen &gen, Rng &rng)
{
    gen.far_tpns = true;
    Totals t;
    const Snapshot start = c.read();
    const uint64_t t0 = monotonic_ms(), tenth = std::max<uint64_t>(g_opt.flood / 10, 1);
    for (uint64_t i = 0; i < g_opt.flood; i++) {
        Sent s;
        send_one(rng, gen, tx, t, &s);
        if ((i + 1) % tenth == 0)
            std::printf("%" PRIu64 " datagrams in %.1f s\n", i + 1,
                        static_cast<double>(monotonic_ms() - t0) / 1000);
    }
    const double secs = static_cast<double>(monotonic_ms() - t0) / 1000;
    // until the target's UDP layer has counted nothing new for a second
    Snapshot u, last;
    c.read_udp(&last);
    for (int still = 0; still < 10;) {
        usleep(100000);
        c.read_udp(&u);
        still = udp_total(u) == udp_total(last) ? still + 1 : 0;
        last = u;
    }
    const Snapshot end = c.read();
    uint64_t n = end.in4 - start.in4 + end.in6 - start.in6, r = d(start, end, "rx_packets"), dr = 0;
    for (const std::string &k : kDrops)
        dr += d(start, end, k);
    std::printf("flood: %" PRIu64 " datagrams sent in %.1f s (%.0f a second; IPv6 %" PRIu64 ", raw %" PRIu64
                ", send errors %" PRIu64 "); the target's UDP layer took %" PRIu64 ", %" PRIu64
                " in error; delivered %" PRIu64 ", dropped %" PRIu64 "\n",
                t.sent, secs, secs > 0 ? static_cast<double>(t.sent) / secs : 0.0, t.v6, t.raw, t.send_failed, n,
                end.err4 - start.err4 + end.err6 - start.err6, r, dr);
    std::printf("device %s:", g_opt.dev.c_str());
    for (const auto &kv : end.wire)
        if (d(start, end, kv.first))
            std::printf(" %s %" PRIu64, kv.first.c_str(), d(start, end, kv.first));
    std::printf("\n");
    if (t.sent == 0 || n == 0)
        finding("nothing sent or taken: %" PRIu64 " sent, %" PRIu64 " taken", t.sent, n);
    if (dr == 0)
        finding("no drop counted");
    if (r + dr < n)
        finding("%" PRIu64 " datagrams reached the UBoE sockets, %" PRIu64 " delivered and %" PRIu64
                 " dropped: some unaccounted",
                 n, r, dr);
    std::printf("%s\n", g_failed ? "FAIL" : "PASS");
    return g_failed ? 1 : 0;
}

void setns_or_die(const std::string &name)
{
    std::string path = "/run/netns/" + name;
    int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0 || setns(fd, CLONE_NEWNET) != 0) {
        std::fprintf(stderr, "setns %s: %s\n", path.c_str(), std::strerror(errno));
        std::exit(2);
    }
    close(fd);
}

void usage(const char *argv0)
{
    std::fprintf(stderr,
                 "usage: %s [--seed N] [--iterations N | --flood N] [--verbose] [--dev NAME] [--peer-ns NS]\n"
                 "          [--peer-dev NAME]\n"
                 "          [--addr4 A] [--addr6 A] [--peer4 A] [--peer6 A] [--port P] [--cm-wait S]\n"
                 "Run in the target device's network namespace (ip netns exec); sends from\n"
                 "namespace NS (/run/netns/NS, default uboeA) to the device (default udmaB)\n"
                 "at addr4/addr6 (default 10.77.0.2, fd77::2; its EIDs) from peer4/peer6\n"
                 "(default 10.77.0.1, fd77::1), UDP port P (default 4792). --peer-dev: the\n"
                 "device in NS (default udmaA; \"\" for none): while it sends, the exact\n"
                 "per-datagram checks pause. --iterations:\n"
                 "steps (one datagram or a burst), default 2000. --cm-wait: seconds the\n"
                 "connection manager's TP table may take to return to its start (default 60).\n"
                 "--flood N: N datagrams as fast as they go, to no TPN a TP may have, then only\n"
                 "the totals are checked (a transfer may run meanwhile).\n"
                 "Exit status: 0 clean, 1 findings, 2 setup error.\n",
                 argv0);
    std::exit(2);
}

}  // namespace

int main(int argc, char **argv)
{
    for (int i = 1; i < argc; i++)
        if (std::strcmp(argv[i], "--help") == 0 || std::strcmp(argv[i], "-h") == 0)
            usage(argv[0]);
    Args(usage)
        .seed(&g_opt.seed)
        .num("--iterations", &g_opt.iterations)
        .flag("--verbose", &g_opt.verbose)
        .str("--dev", &g_opt.dev)
        .str("--peer-ns", &g_opt.peer_ns)
        .str("--peer-dev", &g_opt.peer_dev)
        .str("--addr4", &g_opt.addr4)
        .str("--addr6", &g_opt.addr6)
        .str("--peer4", &g_opt.peer4)
        .str("--peer6", &g_opt.peer6)
        .num("--port", &g_opt.port, 65535)
        .num("--cm-wait", &g_opt.cm_wait_s, 3600)
        .num("--flood", &g_opt.flood)
        .parse(argc, argv);
    std::printf("seed %" PRIu64 " (replay: --seed %" PRIu64 " --iterations %" PRIu64 ")\n", g_opt.seed,
                g_opt.seed, g_opt.iterations);
    std::fflush(stdout);
    setvbuf(stdout, nullptr, _IOLBF, 0);

    Counters c;
    c.open_all();
    const std::string tps0 = c.tps(), objs0 = c.objects();
    setns_or_die(g_opt.peer_ns);
    c.open_peer(g_opt.peer_dev);
    Sender tx;
    tx.open_all();

    Rng rng(g_opt.seed);
    std::vector<Eid> dev_eids = {eid_of(g_opt.addr4), eid_of(g_opt.addr6)};
    Gen gen(rng, dev_eids, eid_of(g_opt.peer4), eid_of(g_opt.peer6));

    // The receive path learns the device's EIDs from a work item: probe
    // with valid management messages until one is taken, each family.
    for (int v6 = 0; v6 < 2; v6++) {
        bool ok = false;
        for (int i = 0; i < 300 && !ok; i++) {
            Snapshot s0 = c.read();
            Pkt p = gen.mgmt_to(dev_eids[v6]);
            tx.udp(v6, false, p.b);
            usleep(50000);
            ok = d(s0, c.read(), "mgmt_rx") > 0;
        }
        if (!ok) {
            std::printf("%s: no management message taken in 15 s (EIDs not learnt?)\n",
                        v6 ? "IPv6" : "IPv4");
            return 2;
        }
    }

    if (g_opt.flood != 0)
        return flood(c, tx, gen, rng);

    Totals t;
    const Snapshot start = c.read();
    const uint64_t t0 = monotonic_ms();
    // Each step's counters start where the last one's ended: a datagram
    // that comes in between is in the next step's UDP count too.
    Snapshot before = start;
    uint64_t peer_tx = start.peer_tx;  // at the start of the last step
    for (uint64_t step = 0; step < g_opt.iterations; step++) {
        if (step % 16 == 0)
            gen.real_tpns = c.tpns();
        size_t k = rng.pct(10) ? 2 + rng.below(31) : 1;
        std::vector<Sent> out;
        for (size_t i = 0; i < k; i++) {
            Sent s;
            if (send_one(rng, gen, tx, t, &s))
                out.push_back(s);
        }
        t.steps++;
        t.bursts += k > 1;
        uint64_t reach = 0, bad = 0;
        for (const Sent &s : out)
            (s.reaches ? reach : bad)++;
        Snapshot after;
        if (!settle(c, before, reach, bad, &after)) {
            finding("step %" PRIu64 ": the target's UDP layer did not count the datagrams in 5 s:%s", step,
                    dump(out).c_str());
            break;
        }
        if (g_opt.verbose)
            std::printf("step %" PRIu64 ":%s\n", step, dump(out).c_str());
        check_step(out, before, after, t, step, after.peer_tx == peer_tx);
        peer_tx = before.peer_tx;
        if (g_findings >= kMaxFindings)
            break;
        before = after;
    }
    const Snapshot end = c.read();

    std::printf("%.1f s: steps %" PRIu64 " (bursts %" PRIu64 "), datagrams sent %" PRIu64 " (IPv6 %" PRIu64 ", raw %" PRIu64
                "), reached the socket %" PRIu64 ", bad UDP checksum %" PRIu64 ", send errors %" PRIu64 "\n",
                static_cast<double>(monotonic_ms() - t0) / 1000, t.steps, t.bursts, t.sent, t.v6, t.raw, t.reached, t.csum_dropped, t.send_failed);
    std::printf("built %" PRIu64 " (mutated %" PRIu64 "), random %" PRIu64 ", exact fate checked %" PRIu64
                ", from elsewhere %" PRIu64 ", dropped after delivery %" PRIu64 "\n",
                t.built, t.mutated, t.random, t.fated, t.extra, t.after_delivery);
    std::printf("device %s:", g_opt.dev.c_str());
    for (const auto &kv : end.wire)
        if (d(start, end, kv.first))
            std::printf(" %s %" PRIu64, kv.first.c_str(), d(start, end, kv.first));
    std::printf("\nnamespace:");
    for (const auto &kv : end.ns)
        if (dns(start, end, kv.first))
            std::printf(" %s %" PRIu64, kv.first.c_str(), dns(start, end, kv.first));
    std::printf("\n");

    // No state left behind once the connection manager's timeouts passed.
    std::string tps = c.tps(), objs = c.objects();
    for (uint64_t i = 0; i < g_opt.cm_wait_s * 10 && (tps != tps0 || objs != objs0); i++) {
        usleep(100000);
        tps = c.tps();
        objs = c.objects();
    }
    if (tps != tps0)
        finding("cm/tp after %" PRIu64 " s:\n%swant:\n%s", g_opt.cm_wait_s, tps.c_str(), tps0.c_str());
    if (objs != objs0)
        finding("objects: %s, want %s", objs.c_str(), objs0.c_str());
    std::printf("%s\n", g_failed ? "FAIL" : "PASS");
    return g_failed ? 1 : 0;
}
