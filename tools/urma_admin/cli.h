// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The UB/URMA stack authors
// The command line of urma_admin (user guide 6.4.2): parsed into a Command,
// or refused with a usage error that says why.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "model.h"

namespace urma_admin {

// Exit codes: success, a runtime error (the kernel refused, no such
// device), a usage error (bad command line).
constexpr int kExitOk = 0;
constexpr int kExitRuntime = 1;
constexpr int kExitUsage = 2;

enum class Verb {
    Help,        // -h, --help
    Version,     // -V, --version
    Show,        // show [--dev <dev>] [--brief|--all] [--whole]
    ShowRes,     // show dev <dev> <kind> [ID]
    ShowStats,   // show dev <dev> --stats
    EidAdd,      // eid add <dev> <eid_idx> <eid>
    EidDel,      // eid del <dev> <eid_idx>
    EidSetMode,  // eid set <dev> [<eid_idx>] mode {static|dynamic}
    DevAdd,      // dev add <name> netdev <ifname> [type <provider>]
    DevDel,      // dev del <name>
    DevSetNs,    // dev set <dev> ns <netns>
    DevExpose,   // dev expose <dev> <netns>
    DevUnexpose, // dev unexpose <dev> <netns>
    EidSetNs,    // eid set <dev> <eid_idx> ns <netns>
    SystemShow,  // system show
    SystemSetDevSharing,  // system set dev_sharing {on|off}
    ShowTopo,    // show topo [NODE_ID]
    TopoSet,     // topo set <file>
    TopoClear,   // topo clear
    AggAdd,      // agg add <eid> <dev_name> [mode standalone|active_backup|balance]
    AggDel,      // agg del <eid>
    AggShow,     // agg show
};

struct Command {
    Verb verb = Verb::Help;
    std::string dev;      // a UB device (empty: all, for Show)
    bool whole = false;   // Show: every attribute
    ResType res = ResType::Jfc;
    std::optional<uint32_t> id;  // ShowRes: one object; ShowTopo: the node ID
    uint32_t eid_index = 0;
    Eid eid{};
    bool static_mode = false;  // EidSetMode
    std::string netdev;        // DevAdd
    std::string link_type = "udma";
    // Dev*Ns, DevExpose, DevUnexpose, EidSetNs: a network namespace file
    // (/var/run/netns/<name>, /proc/<pid>/ns/net; a bare name is
    // /var/run/netns/<name>, as ip-netns names them)
    std::string netns;
    bool on = false;  // SystemSetDevSharing
    std::string file;  // TopoSet
    uint32_t bond_mode = 0;  // AggAdd: enum ubagg_bond_mode
};

struct UsageError {
    std::string message;
};

using ParseResult = std::variant<Command, UsageError>;

// Parses the arguments after the program name.
ParseResult parse_args(const std::vector<std::string> &args);

// The text of --help.
std::string usage_text();

// Text forms of resource kinds ("jfc" ...) and back.
std::optional<ResType> res_type_from_name(const std::string &name);
const char *res_type_name(ResType type);

// A decimal number of at most @max, or nothing.
std::optional<uint32_t> parse_u32(const std::string &text, uint32_t max);

// An EID from text: an IPv6 address, or an IPv4 address (IPv4-mapped).
std::optional<Eid> parse_eid(const std::string &text);
std::string eid_to_string(const Eid &eid);

// A bonding device's mode by name (standalone, active_backup, balance) and
// back (enum ubagg_bond_mode).
std::optional<uint32_t> bond_mode_from_name(const std::string &name);
const char *bond_mode_name(uint32_t mode);

}  // namespace urma_admin
