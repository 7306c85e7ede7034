// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The UB/URMA stack authors
#include "config.h"

#include <arpa/inet.h>
#include <getopt.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>

namespace perftest {

namespace {

struct CommandName {
    const char *name;
    Command cmd;
};

constexpr CommandName kCommands[] = {
    {"read_lat", Command::ReadLat},   {"write_lat", Command::WriteLat}, {"send_lat", Command::SendLat},
    {"atomic_lat", Command::AtomicLat}, {"read_bw", Command::ReadBw},   {"write_bw", Command::WriteBw},
    {"send_bw", Command::SendBw},     {"atomic_bw", Command::AtomicBw},
};

// Long-only options get values above the char range.
enum LongOnly {
    kEidIdx = 256,
    kInfPeriodMs,
    kOrderType,
    kEnableIpv6,
    kEnableImm,
    kEnableNotify,
    kSgeNum,
    kWaitJfcTimeout,
    kJson,
    kCheck,
    kSip,
    kDip,
    kUnsupported,  // one value for every refused option; the name tells which
};

// Options of UMDK's urma_perftest that this one refuses, and why: each
// needs something udma or this tool does not have. Refused, not ignored,
// so that no run pretends to have used them.
struct Refused {
    const char *name;
    int has_arg;
    const char *why;
};

constexpr const char *kNoRate = "there is no rate limiter in this urma_perftest";
constexpr const char *kNoUserTp = "udma has no user-controlled transport paths";
constexpr const char *kNetdev = "udma takes its addresses from the netdev it is bound to";
constexpr const char *kNotHere = "not implemented in this urma_perftest";

constexpr Refused kRefused[] = {
    {"dscp", required_argument, kNetdev},
    {"vlan", required_argument, kNetdev},
    {"sl", required_argument, kNetdev},
    {"bind_ip", required_argument, kNetdev},
    {"rate_limit", required_argument, kNoRate},
    {"rate_units", required_argument, kNoRate},
    {"burst_size", required_argument, kNoRate},
    {"enable_credit", no_argument, kNotHere},
    {"credit_threshold", required_argument, kNotHere},
    {"credit_notify_cnt", required_argument, kNotHere},
    {"jettys_pre_jfr", required_argument, kNotHere},
    {"seg_pre_jetty", no_argument, kNotHere},
    {"enable_err_continue", no_argument, kNotHere},
    {"enable_sync_stream", no_argument, kNotHere},
    {"enable_write_dirty", required_argument, kNotHere},
    {"pair_num", required_argument, kNotHere},
    {"enable_user_tp", no_argument, kNoUserTp},
    {"oor_en", no_argument, kNoUserTp},
    {"spray_en", no_argument, kNoUserTp},
    {"cc_en", no_argument, kNoUserTp},
    {"cc_alg", required_argument, kNoUserTp},
    {"retry_num", required_argument, kNoUserTp},
    {"ack_timeout", required_argument, kNoUserTp},
    {"async_import", no_argument, kNoUserTp},
    {"tp_aware", no_argument, kNoUserTp},
    {"tp_reuse", no_argument, kNoUserTp},
    {"ctp", no_argument, kNoUserTp},
    {"jetty_id", required_argument, kNotHere},
    {"page_size", required_argument, kNotHere},
    {"hugepage_size", required_argument, kNotHere},
    {"bond_mode", required_argument, "there are no bonding devices here"},
    {"bond_level", required_argument, "there are no bonding devices here"},
};

constexpr struct option kSupported[] = {
    {"all", optional_argument, nullptr, 'a'},
    {"atomic_type", required_argument, nullptr, 'A'},
    {"simplex_mode", no_argument, nullptr, 'b'},
    {"bidirection", no_argument, nullptr, 'B'},
    {"jfc_inline", no_argument, nullptr, 'c'},
    {"jfc_depth", required_argument, nullptr, 'C'},
    {"dev", required_argument, nullptr, 'd'},
    {"duration", required_argument, nullptr, 'D'},
    {"use_jfce", no_argument, nullptr, 'e'},
    {"eid_idx", required_argument, nullptr, kEidIdx},
    {"err_timeout", required_argument, nullptr, 'E'},
    {"use_flat_api", no_argument, nullptr, 'f'},
    {"cpu_freq_f", no_argument, nullptr, 'F'},
    {"help", no_argument, nullptr, 'h'},
    {"inline_size", required_argument, nullptr, 'I'},
    {"share_jfr", required_argument, nullptr, 'j'},
    {"jettys", required_argument, nullptr, 'J'},
    {"token_policy", required_argument, nullptr, 'K'},
    {"iters", required_argument, nullptr, 'n'},
    {"no_peak", no_argument, nullptr, 'N'},
    {"jfs_post_list", required_argument, nullptr, 'l'},
    {"lock_free", no_argument, nullptr, 'L'},
    {"priority", required_argument, nullptr, 'O'},
    {"trans_mode", required_argument, nullptr, 'p'},
    {"port", required_argument, nullptr, 'P'},
    {"cq_mod", required_argument, nullptr, 'Q'},
    {"jfr_post_list", required_argument, nullptr, 'r'},
    {"jfr_depth", required_argument, nullptr, 'R'},
    {"size", required_argument, nullptr, 's'},
    {"server", required_argument, nullptr, 'S'},
    {"jfs_depth", required_argument, nullptr, 'T'},
    {"warm_up", no_argument, nullptr, 'w'},
    {"infinite", optional_argument, nullptr, 'y'},
    {"inf_period_ms", required_argument, nullptr, kInfPeriodMs},
    {"order_type", required_argument, nullptr, kOrderType},
    {"enable_ipv6", no_argument, nullptr, kEnableIpv6},
    {"enable_imm", no_argument, nullptr, kEnableImm},
    {"enable_notify", no_argument, nullptr, kEnableNotify},
    {"sge_num", required_argument, nullptr, kSgeNum},
    {"wait_jfc_timeout", required_argument, nullptr, kWaitJfcTimeout},
    {"version", no_argument, nullptr, 'V'},
    {"json", no_argument, nullptr, kJson},
    {"check", no_argument, nullptr, kCheck},
    {"uboe", no_argument, nullptr, 'u'},
    {"sip", required_argument, nullptr, kSip},
    {"dip", required_argument, nullptr, kDip},
};

constexpr const char *kShortOpts = "+:a::A:bBcC:d:D:eE:fFhI:j:J:K:n:Nl:LO:p:P:Q:r:R:s:S:T:uwy::V";

std::vector<struct option> long_options()
{
    std::vector<struct option> v(std::begin(kSupported), std::end(kSupported));
    for (const Refused &r : kRefused)
        v.push_back({r.name, r.has_arg, nullptr, kUnsupported});
    v.push_back({nullptr, 0, nullptr, 0});
    return v;
}

// Which options were given, for defaults that depend on the command and for
// the "not with this test" checks.
struct Seen {
    bool jfs_depth = false, jfr_depth = false, jfc_depth = false, inline_size = false;
    bool jettys = false, post_list = false, share_jfr = false;
};

bool parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *out)
{
    if (s == nullptr || *s < '0' || *s > '9')
        return false;
    errno = 0;
    char *end = nullptr;
    unsigned long long v = std::strtoull(s, &end, 10);
    if (errno != 0 || *end != '\0' || v < min || v > max)
        return false;
    *out = v;
    return true;
}

template <typename T> bool parse_num(const char *s, uint64_t min, uint64_t max, T *out)
{
    uint64_t v;
    if (!parse_u64(s, min, max, &v))
        return false;
    *out = static_cast<T>(v);
    return true;
}

std::string range_error(const char *opt, const char *arg, uint64_t min, uint64_t max)
{
    return std::string(opt) + " " + (arg != nullptr ? arg : "") + ": must be a number in [" +
           std::to_string(min) + ", " + std::to_string(max) + "]";
}

bool parse_trans_mode(const char *s, TransMode *m)
{
    if (std::strcmp(s, "0") == 0 || strcasecmp(s, "RM") == 0)
        *m = TransMode::RM;
    else if (std::strcmp(s, "1") == 0 || strcasecmp(s, "RC") == 0)
        *m = TransMode::RC;
    else if (std::strcmp(s, "2") == 0 || strcasecmp(s, "UM") == 0)
        *m = TransMode::UM;
    else
        return false;
    return true;
}

// One option into cfg; an error message, or "" when it is fine.
std::string apply_option(int c, const char *arg, const char *long_name, Config *cfg, Seen *seen)
{
    // Each numeric option: its name for messages, its range, its field.
#define NUM(opt, min, max, field)                              \
    do {                                                       \
        if (!parse_num(arg, min, max, &cfg->field))            \
            return range_error(opt, arg, min, max);            \
    } while (0)
    switch (c) {
    case 'a':
        cfg->all = true;
        if (arg != nullptr)
            NUM("-a", 1, kMaxOrder, order);
        break;
    case 'A':
        if (std::strcmp(arg, "cas") == 0)
            cfg->atomic_type = AtomicType::Cas;
        else if (std::strcmp(arg, "faa") == 0)
            cfg->atomic_type = AtomicType::Faa;
        else
            return std::string("-A ") + arg + ": must be cas or faa";
        cfg->atomic_type_set = true;
        break;
    case 'b': cfg->simplex = true; break;
    case 'B': cfg->bidirection = true; break;
    case 'c': cfg->jfc_inline = true; break;
    case 'C': NUM("-C", 1, kJfcDepthMax, jfc_depth); seen->jfc_depth = true; break;
    case 'd':
        if (*arg == '\0' || std::strlen(arg) >= 64)
            return std::string("-d '") + arg + "': a device name of 1 to 63 characters";
        cfg->dev = arg;
        break;
    case 'D': NUM("-D", 1, 86400, duration); break;
    case 'e': cfg->use_jfce = true; break;
    case kEidIdx: NUM("--eid_idx", 0, 1023, eid_idx); cfg->eid_idx_set = true; break;
    case 'E': NUM("-E", 0, 31, err_timeout); break;
    case 'f': cfg->flat_api = true; break;
    case 'F': cfg->cpu_freq_f = true; break;
    case 'I': NUM("-I", 0, kInlineMax, inline_size); seen->inline_size = true; break;
    case 'j':
        if (std::strcmp(arg, "true") == 0)
            cfg->share_jfr = true;
        else if (std::strcmp(arg, "false") == 0)
            cfg->share_jfr = false;
        else
            return std::string("-j ") + arg + ": must be true or false";
        seen->share_jfr = true;
        break;
    case 'J': NUM("-J", 1, kJettysMax, jettys); seen->jettys = true; break;
    case 'K': NUM("-K", 0, 3, token_policy); break;
    case 'n': NUM("-n", kItersMin, kItersMax, iters); cfg->iters_set = true; break;
    case 'N': cfg->no_peak = true; break;
    case 'l': NUM("-l", 1, kJfsDepthMax, jfs_post_list); seen->post_list = true; break;
    case 'L': cfg->lock_free = true; break;
    case 'O': NUM("-O", 0, 15, priority); break;
    case 'p':
        if (!parse_trans_mode(arg, &cfg->trans_mode))
            return std::string("-p ") + arg + ": must be 0 (RM), 1 (RC) or 2 (UM)";
        break;
    case 'P': NUM("-P", 1, 65535, port); break;
    case 'Q': NUM("-Q", 1, kCqModMax, cq_mod); cfg->cq_mod_set = true; break;
    case 'r': NUM("-r", 1, kJfrDepthMax, jfr_post_list); seen->post_list = true; break;
    case 'R': NUM("-R", 1, kJfrDepthMax, jfr_depth); seen->jfr_depth = true; break;
    case 's': NUM("-s", 1, 1u << 30, size); cfg->size_set = true; break;
    case 'S':
        if (*arg == '\0')
            return "-S: an empty server address";
        cfg->server = arg;
        cfg->client = true;
        break;
    case 'T': NUM("-T", 1, kJfsDepthMax, jfs_depth); seen->jfs_depth = true; break;
    case 'u': cfg->uboe = true; break;
    case kSip:
        if (!ip_to_eid(arg, &cfg->sip_eid))
            return std::string("--sip ") + arg + ": not an IPv4 or IPv6 address";
        cfg->sip = arg;
        break;
    case kDip:
        if (!ip_to_eid(arg, &cfg->dip_eid))
            return std::string("--dip ") + arg + ": not an IPv4 or IPv6 address";
        cfg->dip = arg;
        break;
    case 'w': cfg->warm_up = true; break;
    case 'y':
        cfg->infinite = true;
        if (arg != nullptr) {
            uint32_t s;
            if (!parse_num(arg, 1, 3600, &s))
                return range_error("-y", arg, 1, 3600);
            cfg->inf_period_ms = s * 1000;
        }
        break;
    case kInfPeriodMs:
        NUM("--inf_period_ms", 50, 3600000, inf_period_ms);
        if (cfg->inf_period_ms % 50 != 0)
            return std::string("--inf_period_ms ") + arg + ": must be a multiple of 50";
        break;
    case kOrderType: NUM("--order_type", 0, 4, order_type); break;
    case kEnableIpv6: cfg->enable_ipv6 = true; break;
    case kEnableImm: cfg->enable_imm = true; break;
    case kEnableNotify: cfg->enable_notify = true; break;
    case kSgeNum: NUM("--sge_num", 1, kSgeMax, sge_num); break;
    case kWaitJfcTimeout: {
        char *end = nullptr;
        errno = 0;
        long v = std::strtol(arg, &end, 10);
        if (errno != 0 || end == arg || *end != '\0' || v < -1 || v > 3600000)
            return std::string("--wait_jfc_timeout ") + arg + ": must be -1, 0 or a timeout in ms";
        cfg->wait_jfc_timeout = static_cast<int32_t>(v);
        break;
    }
    case kJson: cfg->json = true; break;
    case kCheck: cfg->check = true; break;
    case kUnsupported:
        for (const Refused &r : kRefused)
            if (long_name != nullptr && std::strcmp(r.name, long_name) == 0)
                return std::string("--") + r.name + ": " + r.why;
        return "an option that is not supported";
    default: return "unknown option";
    }
#undef NUM
    return "";
}

bool lat_only_ok(const Config &c)
{
    return !is_bw(c.cmd);
}

// The defaults that depend on the command, for what was not given.
void command_defaults(Config *c, const Seen &seen)
{
    const bool bw = is_bw(c->cmd);
    if (!c->size_set)
        c->size = op_of(c->cmd) == Op::Atomic ? 8 : (bw ? 65536 : 2);
    if (!seen.jfs_depth)
        c->jfs_depth = bw ? 128 : 1;
    if (!seen.jfr_depth)
        c->jfr_depth = bw ? 512 : 1;
    if (!seen.jfc_depth)
        c->jfc_depth = bw ? 4096 : 512;
}

// Constraints 1-6, 8, 13, 14 and the test kinds of the options: "" or why not.
std::string check_combinations(const Config &c, const Seen &seen)
{
    const Op op = op_of(c.cmd);
    const bool lat = lat_only_ok(c);
    if (c.dev.empty())
        return "-d <dev_name> is required";
    if (c.all && c.size_set)
        return "-a and -s conflict: -a runs every size";
    if (!c.uboe && (!c.sip.empty() || !c.dip.empty()))
        return "--sip and --dip are UBoE addresses: they need -u/--uboe";
    if (c.uboe && c.sip.empty())
        return "-u/--uboe needs --sip <this host's address on the UBoE netdev>";
    if (c.uboe && c.eid_idx_set)
        return "--sip and --eid_idx conflict: --sip selects the EID index";
    if (c.duration != 0 && c.iters_set)
        return "-D and -n conflict: -D runs for a time instead of a number of iterations";
    if (op == Op::Atomic && c.size != 8)
        return "atomic tests move 8 bytes: -s must be 8";
    if (op == Op::Atomic && c.all)
        return "-a is not for atomic tests: their size is always 8";
    if (op == Op::Write && c.use_jfce)
        return "-e is not supported with write tests";
    if (lat && seen.jettys && c.jettys > 1)
        return "-J with more than one jetty is only for bandwidth tests";
    if (lat && c.no_peak)
        return "-N is only for bandwidth tests";
    if (lat && c.bidirection)
        return "-B is only for bandwidth tests";
    if (lat && c.infinite)
        return "-y is only for bandwidth tests";
    if (lat && c.duration != 0)
        return "-D is only for bandwidth tests in this urma_perftest";
    if (lat && seen.post_list)
        return "-l and -r are only for bandwidth tests";
    if (lat && c.cq_mod_set)
        return "-Q is only for bandwidth tests (latency tests complete every WR)";
    if (c.warm_up && (lat || op == Op::Send))
        return "-w is only for read, write and atomic bandwidth tests";
    if (c.flat_api && !c.simplex)
        return "-f needs -b: the flat API works on a JFS and a JFR";
    if (c.flat_api && (op == Op::Atomic || c.enable_imm || c.sge_num > 1 || c.jfs_post_list > 1 ||
                       c.jfr_post_list > 1))
        return "-f posts one single-SGE READ, WRITE or SEND at a time: not with atomics, --enable_imm, "
               "--sge_num or -l/-r";
    if (c.simplex && c.trans_mode == TransMode::RC)
        return "RC connects jetties (bind_jetty): not with -b";
    if (seen.share_jfr && c.simplex)
        return "-j is for jetty mode, not with -b";
    if (c.trans_mode == TransMode::UM && op != Op::Send)
        return std::string("UM carries sends only: ") + command_name(c.cmd) + " needs -p 0 (RM) or 1 (RC)";
    if (c.atomic_type_set && op != Op::Atomic)
        return "-A is only for atomic tests";
    if (c.enable_imm && (op == Op::Read || op == Op::Atomic))
        return "--enable_imm is only for write and send tests";
    if (c.enable_notify && op != Op::Write)
        return "--enable_notify is only for write tests";
    if (c.enable_notify && (c.enable_imm || c.flat_api))
        return "--enable_notify (WRITE_NOTIFY) does not go with --enable_imm or -f";
    if (c.sge_num > 1 && op == Op::Atomic)
        return "--sge_num: an atomic has one 8-byte operand";
    if (c.duration != 0 && (c.use_jfce || c.all))
        return "-D does not go with -e or -a";
    if (c.infinite && (c.duration != 0 || c.all))
        return "-y does not go with -D or -a";
    if (c.infinite && c.bidirection && (op == Op::Send || c.enable_imm))
        return "-y conflicts with -B in send and write-with-immediate tests";
    if (c.infinite && c.json)
        return "--json needs a finite run: not with -y";
    if (c.check && (c.infinite || c.duration != 0))
        return "--check needs a run of -n iterations: not with -y or -D";
    if (c.check && c.check_unsupported())
        return "--check verifies send, write, read and FAA data, and CAS in atomic_lat";
    return "";
}

// Constraints 9-12, 15 and 16.1: post lists, depths and cq_mod of
// bandwidth tests; fixes what the guide fixes, with a warning.
std::string adjust_bw(Config *c, ParseResult *r)
{
    const bool iter_mode = c->duration == 0 && !c->infinite;
    if (c->jfs_post_list > 1) {
        if (iter_mode && c->iters % c->jfs_post_list != 0)
            return "-n " + std::to_string(c->iters) + " is not a multiple of -l " + std::to_string(c->jfs_post_list);
        if (c->jfs_depth < c->jfs_post_list)
            return "-T " + std::to_string(c->jfs_depth) + " is smaller than -l " + std::to_string(c->jfs_post_list);
        if (!c->cq_mod_set)
            c->cq_mod = c->jfs_post_list;
        else if (c->cq_mod % c->jfs_post_list != 0)
            return "-Q " + std::to_string(c->cq_mod) + " is not a multiple of -l " + std::to_string(c->jfs_post_list);
    }
    if (c->jfr_post_list > 1) {
        if (iter_mode && c->iters % c->jfr_post_list != 0)
            return "-n " + std::to_string(c->iters) + " is not a multiple of -r " + std::to_string(c->jfr_post_list);
        if (op_of(c->cmd) == Op::Send &&
            (c->jfr_depth % c->jfr_post_list != 0 || c->jfs_depth % c->jfr_post_list != 0))
            r->warnings.push_back("-R/-T are not multiples of -r " + std::to_string(c->jfr_post_list));
        if (c->jfr_post_list > c->jfr_depth)
            return "-r " + std::to_string(c->jfr_post_list) + " is larger than -R " + std::to_string(c->jfr_depth);
    }
    if (iter_mode && c->jfs_depth > c->iters) {
        r->warnings.push_back("-T " + std::to_string(c->jfs_depth) + " lowered to -n " + std::to_string(c->iters));
        c->jfs_depth = static_cast<uint32_t>(c->iters);
    }
    if (iter_mode && op_of(c->cmd) == Op::Write && c->jfr_depth > c->iters)
        c->jfr_depth = static_cast<uint32_t>(c->iters);
    if (c->use_jfce && (c->max_size() > kSizeCqModLimit || c->all)) {
        if (!c->cq_mod_set)
            c->cq_mod = 1;
        else if (c->cq_mod > 1)
            r->warnings.push_back("-Q above 1 with -e and large messages: fewer events, longer waits");
    }
    if (c->cq_mod > c->jfs_depth) {
        if (c->cq_mod_set)
            r->warnings.push_back("-Q " + std::to_string(c->cq_mod) + " lowered to -T " +
                                  std::to_string(c->jfs_depth));
        c->cq_mod = c->jfs_depth;
    }
    if (c->duration != 0)
        c->no_peak = true;
    return "";
}

std::string finish(Config *c, const Seen &seen, ParseResult *r)
{
    command_defaults(c, seen);
    std::string err = check_combinations(*c, seen);
    if (!err.empty())
        return err;
    const Op op = op_of(c->cmd);
    if ((op == Op::Read || op == Op::Atomic) && c->inline_size != 0) {
        r->warnings.push_back("-I has no effect on read and atomic tests: inline size set to 0");
        c->inline_size = 0;
    }
    for (uint32_t s : c->sizes())
        if (s % c->sge_num != 0)
            return "size " + std::to_string(s) + " is not a multiple of --sge_num " + std::to_string(c->sge_num);
    if (c->duration != 0)
        c->iters = 0;
    if (is_bw(c->cmd))
        return adjust_bw(c, r);
    return "";
}

}  // namespace

bool ip_to_eid(const std::string &ip, std::array<uint8_t, 16> *eid)
{
    in_addr v4;
    if (inet_pton(AF_INET, ip.c_str(), &v4) == 1) {
        eid->fill(0);
        (*eid)[10] = 0xff;
        (*eid)[11] = 0xff;
        std::memcpy(eid->data() + 12, &v4, sizeof(v4));
        return true;
    }
    return inet_pton(AF_INET6, ip.c_str(), eid->data()) == 1;
}

bool Config::check_unsupported() const
{
    return op_of(cmd) == Op::Atomic && atomic_type == AtomicType::Cas && is_bw(cmd);
}

const char *command_name(Command c)
{
    for (const CommandName &n : kCommands)
        if (n.cmd == c)
            return n.name;
    return "?";
}

const char *trans_mode_name(TransMode m)
{
    switch (m) {
    case TransMode::RM: return "RM";
    case TransMode::RC: return "RC";
    case TransMode::UM: return "UM";
    }
    return "?";
}

bool is_bw(Command c)
{
    return c == Command::ReadBw || c == Command::WriteBw || c == Command::SendBw || c == Command::AtomicBw;
}

Op op_of(Command c)
{
    switch (c) {
    case Command::ReadLat:
    case Command::ReadBw: return Op::Read;
    case Command::WriteLat:
    case Command::WriteBw: return Op::Write;
    case Command::SendLat:
    case Command::SendBw: return Op::Send;
    default: return Op::Atomic;
    }
}

std::vector<uint32_t> Config::sizes() const
{
    if (!all)
        return {size};
    std::vector<uint32_t> v;
    for (uint32_t k = 1; k <= order; k++)
        v.push_back(1u << k);
    return v;
}

uint32_t Config::max_size() const
{
    return all ? 1u << order : size;
}

ParseResult parse_args(int argc, char *const argv[], Config *cfg)
{
    ParseResult r;
    *cfg = Config();
    auto usage = [&r](const std::string &msg) {
        r.status = ParseStatus::Usage;
        r.error = msg;
        return r;
    };
    if (argc < 2)
        return usage("a command is required (read_lat, write_lat, send_lat, atomic_lat, read_bw, write_bw, "
                     "send_bw, atomic_bw)");
    const char *first = argv[1];
    if (std::strcmp(first, "-h") == 0 || std::strcmp(first, "--help") == 0) {
        r.status = ParseStatus::Help;
        return r;
    }
    if (std::strcmp(first, "-V") == 0 || std::strcmp(first, "--version") == 0) {
        r.status = ParseStatus::Version;
        return r;
    }
    bool found = false;
    for (const CommandName &n : kCommands)
        if (std::strcmp(first, n.name) == 0) {
            cfg->cmd = n.cmd;
            found = true;
        }
    if (!found)
        return usage(std::string("unknown command '") + first + "'");

    std::vector<struct option> longopts = long_options();
    Seen seen;
    optind = 0;  // GNU: start over, whatever an earlier parse left
    opterr = 0;  // our own messages
    int c, idx;
    // getopt sees the command as argv[0].
    char *const *args = argv + 1;
    while ((idx = -1, c = getopt_long(argc - 1, args, kShortOpts, longopts.data(), &idx)) != -1) {
        if (c == 'h') {
            r.status = ParseStatus::Help;
            return r;
        }
        if (c == 'V') {
            r.status = ParseStatus::Version;
            return r;
        }
        // After an error optind is past the offending element.
        std::string name = optopt > 0 && optopt < 256 ? std::string("-") + static_cast<char>(optopt) : args[optind - 1];
        if (c == '?')
            return usage("unknown option " + name);
        if (c == ':')
            return usage("option " + name + " needs a value");
        std::string err = apply_option(c, optarg, idx >= 0 ? longopts[static_cast<size_t>(idx)].name : nullptr,
                                       cfg, &seen);
        if (!err.empty())
            return usage(err);
    }
    if (optind < argc - 1)
        return usage(std::string("unexpected argument '") + args[optind] + "'");
    std::string err = finish(cfg, seen, &r);
    if (!err.empty())
        return usage(err);
    return r;
}

std::string version_text()
{
    return "urma_perftest (ub-urma) 0.1.0, URMA API 0.9\n";
}

std::string usage_text()
{
    std::string s =
        "Usage: urma_perftest command [command options]\n"
        "urma_perftest URMA perftest tool: latency and bandwidth of URMA reads, writes,\n"
        "sends and atomics between a server (no -S) and a client (-S <server ip>).\n"
        "Command syntax:\n"
        "  read_lat    Test for read latency.\n"
        "  write_lat   Test for write latency.\n"
        "  send_lat    Test for send latency.\n"
        "  atomic_lat  Test for atomic latency.\n"
        "  read_bw     Test for read bandwidth.\n"
        "  write_bw    Test for write bandwidth.\n"
        "  send_bw     Test for send bandwidth.\n"
        "  atomic_bw   Test for atomic bandwidth.\n"
        "\n"
        "Options:\n"
        "  -a, --all[=order]           Run sizes 2^1 .. 2^order (order 1..23, default 23).\n"
        "  -A, --atomic_type <type>    Atomic type, cas (default) or faa; atomic tests only.\n"
        "  -b, --simplex_mode          A JFS and a JFR per connection instead of a jetty.\n"
        "  -B, --bidirection           Both sides send (bandwidth tests); the client reports the sum.\n"
        "  -c, --jfc_inline            Ask for inline completions; refused when the device lacks them.\n"
        "  -C, --jfc_depth <dep>       JFC depth (default 4096 for bw, 512 for lat; 1..65536).\n"
        "  -d, --dev <dev_name>        The URMA device (required), e.g. udma0.\n"
        "  -D, --duration <second>     Run bandwidth tests for this long instead of -n (no peak).\n"
        "  -e, --use_jfce              Wait for JFC events (rearm/wait/ack) instead of busy polling.\n"
        "      --eid_idx <idx>         EID index of the device for the context (default 0).\n"
        "  -u, --uboe                  UBoE: the peers are named by IP address (--sip, --dip). udma's\n"
        "                              EIDs are its netdev's addresses (IPv4 as ::ffff:a.b.c.d) and the\n"
        "                              UDP/IP headers are the device's, so the addresses pick EIDs:\n"
        "      --sip <ip>              (needs -u) Use the device's EID of this address (instead of\n"
        "                              --eid_idx); fails when the device's netdev does not have it.\n"
        "      --dip <ip>              (needs -u) The peer's EID must be this address's; fails after\n"
        "                              the exchange otherwise. -S stays the side channel's address.\n"
        "  -E, --err_timeout <time>    JFS error timeout, 0..31: 4.096 us * 2^time (default 17).\n"
        "  -f, --use_flat_api          Post with urma_read/urma_write/urma_send/urma_recv (needs -b).\n"
        "  -F, --cpu_freq_f            Accepted; has no effect: times come from CLOCK_MONOTONIC, not\n"
        "                              the CPU cycle counter, so CPU frequency changes do not skew them.\n"
        "  -h, --help                  Show this help.\n"
        "  -I, --inline_size <size>    Send write/send payloads up to this size inline (0..912, default 0;\n"
        "                              the device's max_jfs_inline_len bounds it; no effect on read/atomic).\n"
        "  -j, --share_jfr <true/false> The jetties share one JFR (jetty mode).\n"
        "  -J, --jettys <num>          Jetties (or JFS/JFR pairs) per side, bandwidth tests (1..65535).\n"
        "  -K, --token_policy <policy> 0 NONE, 1 PLAIN_TEXT (default), 2 SIGNED, 3 ALL_ENCRYPTED; the\n"
        "                              policy of the segment and JFR. udma checks the token value in\n"
        "                              every policy but NONE and does not encrypt.\n"
        "  -n, --iters <iters>         Iterations per size (5..100000000, default 10000).\n"
        "  -N, --no_peak               Do not compute the peak bandwidth (bandwidth tests).\n"
        "  -l, --jfs_post_list <size>  Post send WRs in chains of this many (bandwidth tests).\n"
        "  -L, --lock_free             Create the JFS/jetty and JFC lock free (one thread uses them).\n"
        "  -O, --priority <prio>       JFS priority 0..15.\n"
        "  -p, --trans_mode <mode>     0 or RM (default), 1 or RC (bind_jetty to the peer), 2 or UM\n"
        "                              (sends only).\n"
        "  -P, --port <port>           TCP port of the server (default 21115).\n"
        "  -Q, --cq_mod <num>          One completion per <num> WRs (bandwidth tests, 1..1024,\n"
        "                              default 100, at most -T).\n"
        "  -r, --jfr_post_list <size>  Post receive WRs in chains of this many (bandwidth tests).\n"
        "  -R, --jfr_depth <dep>       JFR depth (default 512 for bw, 1 for lat; 1..16384).\n"
        "  -s, --size <size>           Message size (default 2 for lat, 65536 for bw, 8 for atomic).\n"
        "  -S, --server <ip>           Run as the client of the server at <ip> (IPv4, or IPv6 with\n"
        "                              --enable_ipv6). The client retries a refused connection for 2 s.\n"
        "  -T, --jfs_depth <dep>       JFS depth: WRs in flight (default 128 for bw, 1 for lat).\n"
        "  -w, --warm_up               One window of WRs before measuring (read/write/atomic bw).\n"
        "  -y, --infinite[=second]     Bandwidth tests run until Ctrl-C on either side, printing the\n"
        "                              bandwidth of each period (default 2 s).\n"
        "      --inf_period_ms <ms>    The period of -y in ms, a multiple of 50.\n"
        "      --order_type <type>     JFS order type: 0 default, 1 OT, 2 OI, 3 OL, 4 NO.\n"
        "      --enable_ipv6           Listen on / connect to IPv6 addresses.\n"
        "      --enable_imm            WRITE_IMM / SEND_IMM with immediate data (write and send tests;\n"
        "                              write_imm completes at the target like a send).\n"
        "      --enable_notify         WRITE_NOTIFY (write tests): after each write's data the\n"
        "                              target's notify word, 8 bytes after its buffer slot, gets\n"
        "                              the WR's number; write_lat waits on that word.\n"
        "      --sge_num <num>         Split each message into <num> SGEs (1..12; -s must divide).\n"
        "      --wait_jfc_timeout <ms> urma_wait_jfc timeout with -e (-1 forever, default 1000).\n"
        "      --json                  Client: print one JSON object on stdout, tables to stderr.\n"
        "      --check                 Verify the data: each received message (send), the target\n"
        "                              buffer after the run (write, read), the FAA count, the CAS\n"
        "                              chain of atomic_lat.\n"
        "  -V, --version               Show the version.\n"
        "\n"
        "Refused here (UMDK options this device or tool has no use for): --dscp, --vlan, --sl,\n"
        "--bind_ip, --rate_limit, --rate_units, --burst_size, --enable_credit,\n"
        "--credit_threshold, --credit_notify_cnt, --jettys_pre_jfr, --seg_pre_jetty,\n"
        "--enable_err_continue, --enable_sync_stream, --enable_write_dirty,\n"
        "--pair_num, --enable_user_tp, --oor_en, --spray_en, --cc_en, --cc_alg, --retry_num,\n"
        "--ack_timeout, --async_import, --tp_aware, --tp_reuse, --ctp, --jetty_id, --page_size,\n"
        "--hugepage_size, --bond_mode, --bond_level.\n"
        "\n"
        "What is measured:\n"
        "  Times are CLOCK_MONOTONIC. 1 MB = 2^20 bytes (as perftest); Mpps = 10^6 messages/s.\n"
        "  write_lat: ping-pong; each side WRITEs into the other's buffer and polls the last byte\n"
        "    of its own buffer for the new value (with --enable_imm: waits for the receive\n"
        "    completion instead); latency = round trip / 2.\n"
        "  send_lat: ping-pong of SEND/RECV, each side waits for its receive completion;\n"
        "    latency = round trip / 2.\n"
        "  read_lat, atomic_lat: post one READ / CAS or FAA and poll (or wait for) its completion.\n"
        "  *_bw: keep -T WRs in flight per jetty, one completion per -Q WRs; average =\n"
        "    bytes / time from the first post to the last completion; peak = the best rate over\n"
        "    any stretch of 1/16 of the run's completions.\n"
        "  send_bw: the server reposts receives as they complete; in UM, sends that find no\n"
        "    receive are dropped and the server's count of arrived messages is printed.\n"
        "Constraints (user guide 6.4.1): -a/-s and -D/-n conflict; atomic needs -s 8; no -e with\n"
        "write; -J, -N, -B, -y, -D, -l, -r, -Q only with bandwidth tests; -f needs -b; -n must be a\n"
        "multiple of -l and -r, -Q of -l; the size a multiple of --sge_num; UM only with send.\n"
        "Exit status: 0 done, 1 run-time failure, 2 usage error.\n";
    return s;
}

}  // namespace perftest
