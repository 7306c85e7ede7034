// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The UB/URMA stack authors
// The aggregation topology (ubagg.ko, include/uapi/ub/ubagg_topo.h): the
// text file "urma_admin topo set" reads, and the output of
// "urma_admin show topo [NODE_ID]" in UMDK's urma_admin format.
#pragma once

#include <ub/ubagg_topo.h>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace urma_admin {

using TopoNodes = std::vector<ubagg_topo_node>;

// A topology file's nodes, or the first error ("line N: why"). The format
// (one statement a line, '#' starts a comment; dev, ue, port and link
// belong to the node above them, ue and port to the dev above them):
//   node <node_id> [super <super_node_id>] [type fullmesh|clos] [current]
//   dev <dev_idx 0..255> <bonding_eid>
//   ue <iodie 0..1> chip <id> die <id> entity <id> primary <eid>
//   port <iodie 0..1> <port 0..8> <port_eid> [cna <cna>]
//   link <iodie>:<port> <remote_iodie>:<remote_port>
std::variant<TopoNodes, std::string> parse_topo(const std::string &text);

// The node show topo picks: @node_id's, or without one the current node
// (is_current), or node ID 0 when none is marked (as UMDK's tool does).
// nullptr when there is no such node.
const ubagg_topo_node *find_topo_node(const TopoNodes &nodes, std::optional<uint32_t> node_id);

// The bonding devices of this host, by bonding EID (as show topo prints
// EIDs): "<dev> over <member> <member>...".
using BondNames = std::map<std::string, std::string>;

// UMDK's "show topo" text for one node; an aggregated device whose bonding
// EID is in @bonds gets its bonding device's name and members after it.
std::string format_topo_node(const ubagg_topo_node &node, const BondNames &bonds = {});

// A bonding EID as format_topo_node() prints it (a BondNames key).
std::string topo_eid_text(const uint8_t *raw);

}  // namespace urma_admin
