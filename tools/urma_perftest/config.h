// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The UB/URMA stack authors
// urma_perftest's command line (user guide 6.4.1): the command, the options
// with the guide's letters, their defaults and ranges, and the documented
// constraints between them, into one Config. Pure logic: no URMA, no I/O
// beyond the strings it returns, so the host unit tests cover all of it.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace perftest {

enum class Command { ReadLat, WriteLat, SendLat, AtomicLat, ReadBw, WriteBw, SendBw, AtomicBw };
enum class Op { Read, Write, Send, Atomic };
enum class TransMode { RM = 0, RC = 1, UM = 2 };
enum class AtomicType { Cas, Faa };

const char *command_name(Command c);
const char *trans_mode_name(TransMode m);
bool is_bw(Command c);
Op op_of(Command c);

// Ranges of the guide's "strict range" options (constraint 7), as UMDK has
// them; the device's own limits are checked again when queues are made.
constexpr uint64_t kItersMin = 5, kItersMax = 100000000;
constexpr uint32_t kJfsDepthMax = 15000, kJfrDepthMax = 16384, kJettysMax = 65535;
constexpr uint32_t kInlineMax = 912, kCqModMax = 1024, kJfcDepthMax = 65536;
constexpr uint32_t kMaxOrder = 23, kSgeMax = 12, kSizeCqModLimit = 8192;
constexpr uint32_t kDefaultPort = 21115;

struct Config {
    Command cmd = Command::WriteLat;
    bool client = false;            // -S given
    std::string server = "127.0.0.1";
    uint32_t port = kDefaultPort;
    std::string dev;                // -d, required
    uint32_t eid_idx = 0;
    bool eid_idx_set = false;
    // UBoE (-u, --sip, --dip): udma's EIDs are its netdev's IP addresses
    // (IPv4 as ::ffff:a.b.c.d), so --sip picks the EID index whose EID is
    // that address instead of --eid_idx, and --dip is the EID the peer's
    // endpoint must have. The UDP/IP headers themselves are the device's.
    bool uboe = false;
    std::string sip, dip;  // as given, for messages
    std::array<uint8_t, 16> sip_eid = {}, dip_eid = {};
    uint32_t size = 2;              // -s
    bool size_set = false;
    uint64_t iters = 10000;         // -n
    bool iters_set = false;
    bool all = false;               // -a
    uint32_t order = kMaxOrder;     // -a<order>: sizes 2^1 .. 2^order
    TransMode trans_mode = TransMode::RM;
    uint32_t jettys = 1;            // -J
    uint32_t jfs_depth = 1;         // -T
    uint32_t jfr_depth = 1;         // -R
    uint32_t jfc_depth = 512;       // -C
    uint32_t inline_size = 0;       // -I
    bool use_jfce = false;          // -e
    uint32_t jfs_post_list = 1;     // -l
    uint32_t jfr_post_list = 1;     // -r
    uint32_t cq_mod = 100;          // -Q
    bool cq_mod_set = false;
    bool bidirection = false;       // -B
    uint32_t duration = 0;          // -D seconds (0: iterations)
    AtomicType atomic_type = AtomicType::Cas;
    bool atomic_type_set = false;
    bool no_peak = false;           // -N
    bool warm_up = false;           // -w
    bool infinite = false;          // -y
    uint32_t inf_period_ms = 2000;  // -y<seconds> or --inf_period_ms
    bool enable_imm = false;
    bool enable_notify = false;  // WRITE_NOTIFY: a notify word after each write
    uint32_t sge_num = 1;
    bool simplex = false;           // -b: JFS + JFR instead of jetties
    bool flat_api = false;          // -f: urma_write/read/send/recv (simplex only)
    bool jfc_inline = false;        // -c
    uint32_t err_timeout = 17;      // -E, URMA_TYPICAL_ERR_TIMEOUT
    uint32_t token_policy = 1;      // -K, URMA_TOKEN_PLAIN_TEXT
    bool lock_free = false;         // -L
    uint32_t priority = 0;          // -O
    bool share_jfr = false;         // -j
    uint32_t order_type = 0;        // --order_type
    int32_t wait_jfc_timeout = 1000;
    bool enable_ipv6 = false;
    bool cpu_freq_f = false;        // -F: accepted, see --help
    bool json = false;              // --json (ours)
    bool check = false;             // --check (ours)

    // The message sizes of the run: {size}, or 2^1 .. 2^order with -a.
    std::vector<uint32_t> sizes() const;
    uint32_t max_size() const;
    // --check has no way to verify this test (CAS in atomic_bw).
    bool check_unsupported() const;
};

enum class ParseStatus { Ok, Help, Version, Usage };

struct ParseResult {
    ParseStatus status = ParseStatus::Ok;
    std::string error;                  // with Usage: what is wrong
    std::vector<std::string> warnings;  // adjustments the guide makes with a warning
};

// Parses argv (argv[1] is the command) into cfg, applies the defaults of
// the command and the guide's constraints. getopt_long underneath: it
// resets optind, so it may be called again, but not from two threads.
ParseResult parse_args(int argc, char *const argv[], Config *cfg);

// The EID of an IP address given as text (IPv4 as ::ffff:a.b.c.d, or
// IPv6), as udma derives its EIDs from its netdev's addresses; false when
// ip is not an address.
bool ip_to_eid(const std::string &ip, std::array<uint8_t, 16> *eid);

// The --help text and the -V line.
std::string usage_text();
std::string version_text();

}  // namespace perftest
