// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The UB/URMA stack authors
// Parsing of urma_admin's command line. The grammar is the user guide's
// (6.4.2); forms of the guide this stack does not implement are refused
// with a message that says so, rather than as unknown words.
#include "cli.h"

#include <arpa/inet.h>
#include <ub/ubagg_topo.h>

#include <cstdlib>
#include <cstring>

namespace urma_admin {

namespace {

// Longest names the kernel takes (UBCORE_MAX_DEV_NAME - 1, IFNAMSIZ - 1).
constexpr size_t kMaxDevName = 63;
constexpr size_t kMaxIfName = 15;
// The guide's range of <eid_idx>; the kernel's table is smaller and says so.
constexpr uint32_t kMaxEidIndex = 65535;

const char *const kResNames[] = {"jfc", "jfs", "jfr", "jetty", "seg", "tp"};

using Args = std::vector<std::string>;

UsageError unsupported(const std::string &what, const std::string &why = "")
{
    return UsageError{"'" + what + "' is not supported by this UB stack" +
                      (why.empty() ? "" : " (" + why + ")")};
}

// A UB device name as the kernel accepts it; empty result: fine.
std::string check_dev_name(const std::string &name)
{
    if (name.empty())
        return "empty device name";
    if (name.size() > kMaxDevName)
        return "device name '" + name + "' is longer than 63 bytes";
    return "";
}

// A <netns> argument: a path, or a name of ip-netns's directory.
std::optional<std::string> netns_path(const std::string &text)
{
    if (text.empty() || text.size() >= 4096)
        return std::nullopt;
    if (text.find('/') == std::string::npos)
        return "/var/run/netns/" + text;
    return text;
}

// "<what> ... <netns>": the namespace argument into c.
ParseResult netns_arg(const std::string &what, const std::string &text, Command c)
{
    auto path = netns_path(text);
    if (!path)
        return UsageError{what + ": bad network namespace '" + text + "'"};
    c.netns = *path;
    return c;
}

ParseResult show_res(const Args &a)
{
    // a: "dev" <dev> <kind> [ID], or "dev" <dev> --stats
    if (a.size() < 3 || a.size() > 4)
        return UsageError{"show dev: expected <dev> {jfc|jfs|jfr|jetty|seg|tp} [ID]"};
    Command c;
    c.verb = Verb::ShowRes;
    c.dev = a[1];
    if (std::string why = check_dev_name(c.dev); !why.empty())
        return UsageError{"show dev: " + why};
    if (a.size() == 3 && a[2] == "--stats") {
        c.verb = Verb::ShowStats;
        return c;
    }
    auto type = res_type_from_name(a[2]);
    if (!type) {
        if (a[2] == "jetty_group" || a[2] == "rc" || a[2] == "tpreuse")
            return unsupported("show dev <dev> " + a[2]);
        return UsageError{"show dev: unknown object kind '" + a[2] +
                          "' (jfc, jfs, jfr, jetty, seg or tp)"};
    }
    c.res = *type;
    if (a.size() == 4) {
        c.id = parse_u32(a[3], UINT32_MAX);
        if (!c.id)
            return UsageError{"show dev: bad ID '" + a[3] + "' (a decimal number)"};
    }
    return c;
}

ParseResult show_topo(const Args &a)
{
    // a: "topo" [NODE_ID]
    if (a.size() > 2)
        return UsageError{"show topo: expected [NODE_ID]"};
    Command c;
    c.verb = Verb::ShowTopo;
    if (a.size() == 2) {
        c.id = parse_u32(a[1], UINT32_MAX);
        if (!c.id)
            return UsageError{"show topo: bad node ID '" + a[1] + "' (a decimal number)"};
    }
    return c;
}

ParseResult show_cmd(const Args &a)
{
    if (!a.empty() && a[0] == "dev")
        return show_res(a);
    if (!a.empty() && a[0] == "topo")
        return show_topo(a);
    Command c;
    c.verb = Verb::Show;
    bool brief = false, all = false;
    for (size_t i = 0; i < a.size(); i++) {
        if (a[i] == "--dev" || a[i] == "-d") {
            if (i + 1 == a.size())
                return UsageError{"show: " + a[i] + " needs a device name"};
            c.dev = a[++i];
            if (std::string why = check_dev_name(c.dev); !why.empty())
                return UsageError{"show: " + why};
        } else if (a[i] == "--whole" || a[i] == "-w") {
            c.whole = true;
        } else if (a[i] == "--brief" || a[i] == "-b") {
            brief = true;
        } else if (a[i] == "--all" || a[i] == "-a") {
            all = true;
        } else {
            return UsageError{"show: unknown option '" + a[i] + "'"};
        }
    }
    if (brief && all)
        return UsageError{"show: --brief and --all exclude each other"};
    return c;
}

ParseResult eid_index_arg(const std::string &what, const std::string &text, Command c)
{
    auto idx = parse_u32(text, kMaxEidIndex);
    if (!idx)
        return UsageError{what + ": bad EID index '" + text + "' (0 .. 65535)"};
    c.eid_index = *idx;
    return c;
}

ParseResult eid_add(const Args &a)
{
    // a: <dev> <eid_idx> <eid> [options]
    for (size_t i = 3; i < a.size(); i++) {
        if (a[i] == "--ns")
            return unsupported("eid add --ns", "add it, then 'eid set <dev> <eid_idx> ns <netns>'");
        if (a[i] == "--mode")
            return unsupported("eid add --mode", "the mode is the device's: use 'eid set <dev> mode ...'");
        return UsageError{"eid add: unexpected '" + a[i] + "'"};
    }
    if (a.size() < 3)
        return UsageError{"eid add: expected <dev> <eid_idx> <eid>"};
    Command c;
    c.verb = Verb::EidAdd;
    c.dev = a[0];
    if (std::string why = check_dev_name(c.dev); !why.empty())
        return UsageError{"eid add: " + why};
    auto eid = parse_eid(a[2]);
    if (!eid)
        return UsageError{"eid add: bad EID '" + a[2] + "' (an IPv4 or IPv6 address)"};
    c.eid = *eid;
    return eid_index_arg("eid add", a[1], c);
}

ParseResult eid_del(const Args &a)
{
    if (a.size() != 2)
        return UsageError{"eid del: expected <dev> <eid_idx>"};
    Command c;
    c.verb = Verb::EidDel;
    c.dev = a[0];
    if (std::string why = check_dev_name(c.dev); !why.empty())
        return UsageError{"eid del: " + why};
    return eid_index_arg("eid del", a[1], c);
}

// eid set <dev> [<eid_idx>] mode {static|dynamic}: the mode is the
// device's in ubcore, so an index, when given, is only checked.
ParseResult eid_set(const Args &a)
{
    Command c;
    if (a.size() >= 3 && a[2] == "ns") {
        if (a.size() != 4)
            return UsageError{"eid set: expected <dev> <eid_idx> ns <netns>"};
        c.verb = Verb::EidSetNs;
        c.dev = a[0];
        if (std::string why = check_dev_name(c.dev); !why.empty())
            return UsageError{"eid set: " + why};
        ParseResult r = eid_index_arg("eid set", a[1], c);
        if (std::holds_alternative<UsageError>(r))
            return r;
        return netns_arg("eid set", a[3], std::get<Command>(r));
    }
    c.verb = Verb::EidSetMode;
    size_t mode_at;
    if (a.size() == 3 && a[1] == "mode") {
        mode_at = 2;
    } else if (a.size() == 4 && a[2] == "mode") {
        ParseResult r = eid_index_arg("eid set", a[1], c);
        if (std::holds_alternative<UsageError>(r))
            return r;
        c = std::get<Command>(r);
        mode_at = 3;
    } else {
        return UsageError{"eid set: expected <dev> [<eid_idx>] mode {static|dynamic}, or <dev> <eid_idx> ns <netns>"};
    }
    c.dev = a[0];
    if (std::string why = check_dev_name(c.dev); !why.empty())
        return UsageError{"eid set: " + why};
    if (a[mode_at] == "static")
        c.static_mode = true;
    else if (a[mode_at] != "dynamic")
        return UsageError{"eid set: unknown mode '" + a[mode_at] + "' (static or dynamic)"};
    return c;
}

ParseResult eid_cmd(const Args &a)
{
    if (a.empty())
        return UsageError{"eid: expected add, del or set"};
    Args rest(a.begin() + 1, a.end());
    if (a[0] == "add")
        return eid_add(rest);
    if (a[0] == "del")
        return eid_del(rest);
    if (a[0] == "set")
        return eid_set(rest);
    return UsageError{"eid: unknown subcommand '" + a[0] + "' (add, del or set)"};
}

ParseResult dev_add(const Args &a)
{
    // a: <name> netdev <ifname> [type <provider>]
    if ((a.size() != 3 && a.size() != 5) || a[1] != "netdev" || (a.size() == 5 && a[3] != "type"))
        return UsageError{"dev add: expected <name> netdev <ifname> [type <provider>]"};
    Command c;
    c.verb = Verb::DevAdd;
    c.dev = a[0];
    if (std::string why = check_dev_name(c.dev); !why.empty())
        return UsageError{"dev add: " + why};
    c.netdev = a[2];
    if (c.netdev.empty() || c.netdev.size() > kMaxIfName)
        return UsageError{"dev add: bad netdev name '" + c.netdev + "' (1 .. 15 bytes)"};
    if (a.size() == 5) {
        c.link_type = a[4];
        if (c.link_type.empty() || c.link_type.size() > 31)
            return UsageError{"dev add: bad provider name '" + c.link_type + "'"};
    }
    return c;
}

// dev set <dev> ns <netns>; the guide's "dev set <dev> sl" is not built.
ParseResult dev_set(const Args &a)
{
    if (a.size() >= 2 && a[1] == "sl")
        return unsupported("dev set <dev> sl", "udma has no service levels");
    if (a.size() != 3 || a[1] != "ns")
        return UsageError{"dev set: expected <dev> ns <netns>"};
    Command c;
    c.verb = Verb::DevSetNs;
    c.dev = a[0];
    if (std::string why = check_dev_name(c.dev); !why.empty())
        return UsageError{"dev set: " + why};
    return netns_arg("dev set", a[2], c);
}

// dev {expose|unexpose} <dev> <netns>
ParseResult dev_expose(const std::string &sub, const Args &a)
{
    if (a.size() != 2)
        return UsageError{"dev " + sub + ": expected <dev> <netns>"};
    Command c;
    c.verb = sub == "expose" ? Verb::DevExpose : Verb::DevUnexpose;
    c.dev = a[0];
    if (std::string why = check_dev_name(c.dev); !why.empty())
        return UsageError{"dev " + sub + ": " + why};
    return netns_arg("dev " + sub, a[1], c);
}

ParseResult dev_cmd(const Args &a)
{
    if (a.empty())
        return UsageError{"dev: expected add, del, set, expose or unexpose"};
    Args rest(a.begin() + 1, a.end());
    if (a[0] == "add")
        return dev_add(rest);
    if (a[0] == "del") {
        if (rest.size() != 1)
            return UsageError{"dev del: expected <name>"};
        Command c;
        c.verb = Verb::DevDel;
        c.dev = rest[0];
        if (std::string why = check_dev_name(c.dev); !why.empty())
            return UsageError{"dev del: " + why};
        return c;
    }
    if (a[0] == "set")
        return dev_set(rest);
    if (a[0] == "expose" || a[0] == "unexpose")
        return dev_expose(a[0], rest);
    return UsageError{"dev: unknown subcommand '" + a[0] + "' (add, del, set, expose or unexpose)"};
}

ParseResult topo_cmd(const Args &a)
{
    Command c;
    if (a.size() == 2 && a[0] == "set") {
        c.verb = Verb::TopoSet;
        c.file = a[1];
        return c;
    }
    if (a.size() == 1 && a[0] == "clear") {
        c.verb = Verb::TopoClear;
        return c;
    }
    return UsageError{"topo: expected 'set <file>' or 'clear'"};
}

// agg add <eid> <dev_name> [mode <mode>] | agg del <eid> | agg show
ParseResult agg_cmd(const Args &a)
{
    Command c;
    if (a.size() == 1 && a[0] == "show") {
        c.verb = Verb::AggShow;
        return c;
    }
    if (!a.empty() && a[0] == "expose")
        return unsupported("agg expose", "a bonding device stays in its members' network namespace");
    if (a.empty() || (a[0] != "add" && a[0] != "del"))
        return UsageError{"agg: expected 'add <eid> <dev_name> [mode <mode>]', 'del <eid>' or 'show'"};
    const bool add = a[0] == "add";
    if (add ? (a.size() != 3 && a.size() != 5) : a.size() != 2)
        return UsageError{add ? "agg add: expected <eid> <dev_name> [mode standalone|active_backup|balance]"
                              : "agg del: expected <eid>"};
    auto eid = parse_eid(a[1]);
    if (!eid)
        return UsageError{"agg " + a[0] + ": bad EID '" + a[1] + "'"};
    c.eid = *eid;
    if (!add) {
        c.verb = Verb::AggDel;
        return c;
    }
    c.verb = Verb::AggAdd;
    c.dev = a[2];
    if (std::string why = check_dev_name(c.dev); !why.empty())
        return UsageError{"agg add: " + why};
    if (a.size() == 5) {
        auto mode = a[3] == "mode" ? bond_mode_from_name(a[4]) : std::nullopt;
        if (!mode)
            return UsageError{"agg add: expected 'mode standalone|active_backup|balance', not '" + a[3] + " " +
                              a[4] + "'"};
        c.bond_mode = *mode;
    }
    return c;
}

ParseResult system_cmd(const Args &a)
{
    if (a.size() == 1 && a[0] == "show") {
        Command c;
        c.verb = Verb::SystemShow;
        return c;
    }
    if (!a.empty() && a[0] == "set") {
        if (a.size() == 3 && a[1] == "eid_sharing")
            return unsupported("system set eid_sharing", "an EID is seen in one namespace: 'eid set <dev> <eid_idx> ns'");
        if (a.size() != 3 || a[1] != "dev_sharing")
            return UsageError{"system set: expected dev_sharing {on|off}"};
        Command c;
        c.verb = Verb::SystemSetDevSharing;
        if (a[2] == "on")
            c.on = true;
        else if (a[2] != "off")
            return UsageError{"system set dev_sharing: expected on or off, not '" + a[2] + "'"};
        return c;
    }
    return UsageError{"system: expected 'show' or 'set dev_sharing {on|off}'"};
}

}  // namespace

std::optional<uint32_t> parse_u32(const std::string &text, uint32_t max)
{
    if (text.empty() || text.size() > 10 || text.find_first_not_of("0123456789") != std::string::npos)
        return std::nullopt;
    unsigned long long v = std::strtoull(text.c_str(), nullptr, 10);
    if (v > max)
        return std::nullopt;
    return static_cast<uint32_t>(v);
}

std::optional<ResType> res_type_from_name(const std::string &name)
{
    for (size_t i = 0; i < sizeof(kResNames) / sizeof(kResNames[0]); i++)
        if (name == kResNames[i])
            return static_cast<ResType>(i);
    return std::nullopt;
}

const char *res_type_name(ResType type)
{
    return kResNames[static_cast<size_t>(type)];
}

std::optional<Eid> parse_eid(const std::string &text)
{
    Eid eid{};
    in_addr v4;

    if (inet_pton(AF_INET6, text.c_str(), eid.data()) == 1)
        return eid;
    if (inet_pton(AF_INET, text.c_str(), &v4) == 1) {
        eid[10] = 0xff;
        eid[11] = 0xff;
        std::memcpy(&eid[12], &v4, sizeof(v4));
        return eid;
    }
    return std::nullopt;
}

std::string eid_to_string(const Eid &eid)
{
    char buf[INET6_ADDRSTRLEN];
    return inet_ntop(AF_INET6, eid.data(), buf, sizeof(buf)) ? buf : "?";
}

ParseResult parse_args(const std::vector<std::string> &args)
{
    if (args.empty())
        return UsageError{"no command given"};
    for (const auto &a : args) {
        if (a == "-h" || a == "--help") {
            Command c;
            c.verb = Verb::Help;
            return c;
        }
    }
    const std::string &cmd = args[0];
    Args rest(args.begin() + 1, args.end());
    if (cmd == "-V" || cmd == "--version") {
        if (!rest.empty())
            return UsageError{cmd + " takes no arguments"};
        Command c;
        c.verb = Verb::Version;
        return c;
    }
    if (!cmd.empty() && cmd[0] == '-')
        return UsageError{"unknown option '" + cmd + "'"};
    if (cmd == "show")
        return show_cmd(rest);
    if (cmd == "eid")
        return eid_cmd(rest);
    if (cmd == "dev")
        return dev_cmd(rest);
    if (cmd == "system")
        return system_cmd(rest);
    if (cmd == "topo")
        return topo_cmd(rest);
    if (cmd == "agg")
        return agg_cmd(rest);
    if (cmd == "main_ue_eid" || cmd == "perf")
        return unsupported(cmd);
    return UsageError{"unknown command '" + cmd + "'"};
}

std::optional<uint32_t> bond_mode_from_name(const std::string &name)
{
    for (uint32_t m = 0; m < UBAGG_BOND_MODE_MAX; m++)
        if (name == bond_mode_name(m))
            return m;
    return std::nullopt;
}

const char *bond_mode_name(uint32_t mode)
{
    switch (mode) {
    case UBAGG_BOND_STANDALONE:
        return "standalone";
    case UBAGG_BOND_ACTIVE_BACKUP:
        return "active_backup";
    case UBAGG_BOND_BALANCE:
        return "balance";
    default:
        return "?";
    }
}

std::string usage_text()
{
    return "Usage: urma_admin <command> [options]\n"
           "\n"
           "Commands:\n"
           "  show          Show information\n"
           "  dev           Device management operations\n"
           "  eid           EID management operations\n"
           "  system        System configuration operations\n"
           "  topo          Aggregation topology (ubagg.ko)\n"
           "  agg           Bonding devices (ubagg.ko)\n"
           "\n"
           "Options:\n"
           "  -h, --help     Show help and exit\n"
           "  -V, --version  Show version and exit\n"
           "\n"
           "  urma_admin show [--dev <dev>] [--brief|--all] [--whole]\n"
           "      UB devices: a table, or with --whole every attribute, EID and\n"
           "      object count (--brief and --all both list every device)\n"
           "  urma_admin show dev <dev> {jfc|jfs|jfr|jetty|seg|tp} [ID]\n"
           "      the device's objects of one kind, or one of them (seg: by token ID;\n"
           "      tp: the TP table, by TPN: peer EID and TPN, mode, state, users, age)\n"
           "  urma_admin show dev <dev> --stats\n"
           "      the device's UBoE counters: traffic, and drops by reason\n"
           "  urma_admin eid add <dev> <eid_idx> <eid>     add a static EID\n"
           "  urma_admin eid del <dev> <eid_idx>           delete a static EID\n"
           "  urma_admin eid set <dev> [<eid_idx>] mode {static|dynamic}\n"
           "      the device's EID mode (it applies to every index)\n"
           "  urma_admin dev add <name> netdev <ifname> [type <provider>]\n"
           "      create a UB device on a netdev (provider: udma)\n"
           "  urma_admin dev del <name>                    remove a UB device\n"
           "  urma_admin dev set <dev> ns <netns>          move a physical device to a\n"
           "      network namespace (its port stays with its netdev)\n"
           "  urma_admin dev expose <dev> <netns>          create a logical device of\n"
           "      <dev> in a network namespace\n"
           "  urma_admin dev unexpose <dev> <netns>        delete it (its EIDs go back)\n"
           "  urma_admin eid set <dev> <eid_idx> ns <netns>\n"
           "      the EID is then seen (on the logical device) in that namespace only\n"
           "  urma_admin system show                       what ubcore is\n"
           "  urma_admin system set dev_sharing {on|off}   automatic mode: a logical\n"
           "      device of every device in every network namespace\n"
           "  urma_admin show topo [NODE_ID]\n"
           "      the aggregation topology of a node (default: the current node):\n"
           "      its ports' links, bonding, primary and port EIDs (ubagg.ko)\n"
           "  urma_admin topo set <file>                   set this host's topology\n"
           "      from a file (urma_admin(8), ubagg/README.md: node, dev, ue, port, link)\n"
           "  urma_admin topo clear                        remove it\n"
           "  urma_admin agg add <eid> <dev_name> [mode standalone|active_backup|balance]\n"
           "      create the bonding device of this node's aggregated device <eid>\n"
           "      over the devices of its UEs' primary EIDs (default: standalone)\n"
           "  urma_admin agg del <eid>                     delete it\n"
           "  urma_admin agg show                          the bonding devices: EID,\n"
           "      mode, peers, members (port, in use, packets sent)\n"
           "\n"
           "<eid> is an IPv6 address or an IPv4 address (IPv4-mapped). <netns> is a\n"
           "network namespace file (/var/run/netns/<name>, /proc/<pid>/ns/net) or a\n"
           "name in /var/run/netns. Changes need CAP_NET_ADMIN (and over <netns>).\n"
           "Exit status: 0 success, 1 the operation failed, 2 usage.\n"
           "Not supported by this stack: jetty_group, rc and tpreuse,\n"
           "dev set sl, eid add --ns and --mode, system set eid_sharing,\n"
           "main_ue_eid, agg expose, perf.\n";
}

}  // namespace urma_admin
