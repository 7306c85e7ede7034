// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The UB/URMA stack authors
#include "topo.h"

#include <algorithm>
#include <cstring>
#include <map>
#include <sstream>

#include "cli.h"

namespace urma_admin {

namespace {

constexpr uint32_t kPorts = UBAGG_IODIE_NUM * UBAGG_PORT_NUM;

bool eid_set(const uint8_t *eid)
{
    return std::any_of(eid, eid + UBAGG_EID_LEN, [](uint8_t b) { return b != 0; });
}

std::string eid_text(const uint8_t *raw)
{
    Eid eid;
    std::memcpy(eid.data(), raw, eid.size());
    return eid_to_string(eid);
}

// Builds the nodes statement by statement; each returns "" or an error.
class TopoParser {
public:
    std::string statement(const std::vector<std::string> &t);
    TopoNodes take() { return std::move(nodes_); }

private:
    std::string node(const std::vector<std::string> &t);
    std::string dev(const std::vector<std::string> &t);
    std::string ue(const std::vector<std::string> &t);
    std::string port(const std::vector<std::string> &t);
    std::string link(const std::vector<std::string> &t);
    std::string eid(const std::string &text, uint8_t *out);

    TopoNodes nodes_;
    ubagg_topo_agg_dev *dev_ = nullptr;
};

std::string TopoParser::eid(const std::string &text, uint8_t *out)
{
    auto e = parse_eid(text);
    if (!e)
        return "bad EID '" + text + "' (an IPv6 or IPv4 address)";
    if (!eid_set(e->data()))
        return "the EID :: means none";
    std::memcpy(out, e->data(), UBAGG_EID_LEN);
    return "";
}

std::string TopoParser::node(const std::vector<std::string> &t)
{
    if (t.size() < 2)
        return "node: expected <node_id>";
    if (nodes_.size() == UBAGG_MAX_NODE_NUM)
        return "more than 1024 nodes";
    auto id = parse_u32(t[1], UINT32_MAX);
    if (!id)
        return "node: bad node ID '" + t[1] + "'";
    for (const auto &n : nodes_)
        if (n.node_id == *id)
            return "node " + t[1] + " given twice";
    ubagg_topo_node n{};
    n.node_id = *id;
    for (size_t i = 2; i < t.size(); i++) {
        if (t[i] == "current") {
            n.is_current = 1;
        } else if (t[i] == "super" && i + 1 < t.size()) {
            auto s = parse_u32(t[++i], UINT32_MAX);
            if (!s)
                return "node: bad super node ID '" + t[i] + "'";
            n.super_node_id = *s;
        } else if (t[i] == "type" && i + 1 < t.size()) {
            ++i;
            if (t[i] == "fullmesh")
                n.type = UBAGG_TOPO_TYPE_FULLMESH_1D;
            else if (t[i] == "clos")
                n.type = UBAGG_TOPO_TYPE_CLOS;
            else
                return "node: unknown type '" + t[i] + "' (fullmesh or clos)";
        } else {
            return "node: unexpected '" + t[i] + "'";
        }
    }
    if (n.is_current && std::any_of(nodes_.begin(), nodes_.end(), [](const auto &o) { return o.is_current; }))
        return "node: two nodes are current";
    nodes_.push_back(n);
    dev_ = nullptr;
    return "";
}

std::string TopoParser::dev(const std::vector<std::string> &t)
{
    if (nodes_.empty())
        return "dev before any node";
    if (t.size() != 3)
        return "dev: expected <dev_idx> <bonding_eid>";
    auto idx = parse_u32(t[1], UBAGG_DEV_NUM - 1);
    if (!idx)
        return "dev: bad index '" + t[1] + "' (0 .. 255)";
    ubagg_topo_agg_dev *d = &nodes_.back().agg_devs[*idx];
    if (eid_set(d->agg_eid))
        return "dev " + t[1] + " given twice";
    dev_ = d;
    return eid(t[2], d->agg_eid);
}

std::string TopoParser::ue(const std::vector<std::string> &t)
{
    if (!dev_)
        return "ue before any dev";
    if (t.size() != 2 + 2 * 4)
        return "ue: expected <iodie> chip <id> die <id> entity <id> primary <eid>";
    auto iodie = parse_u32(t[1], UBAGG_IODIE_NUM - 1);
    if (!iodie)
        return "ue: bad IODie '" + t[1] + "' (0 or 1)";
    ubagg_topo_ue *u = &dev_->ues[*iodie];
    if (eid_set(u->primary_eid))
        return "ue " + t[1] + " given twice";
    std::map<std::string, std::string> kv;
    for (size_t i = 2; i + 1 < t.size(); i += 2)
        kv[t[i]] = t[i + 1];
    const std::pair<const char *, uint32_t *> ids[] = {
        {"chip", &u->chip_id}, {"die", &u->die_id}, {"entity", &u->entity_id}};
    for (const auto &[key, field] : ids) {
        auto v = kv.count(key) ? parse_u32(kv[key], UINT32_MAX) : std::nullopt;
        if (!v)
            return std::string("ue: missing or bad ") + key;
        *field = *v;
    }
    if (!kv.count("primary") || kv.size() != 4)
        return "ue: expected <iodie> chip <id> die <id> entity <id> primary <eid>";
    return eid(kv["primary"], u->primary_eid);
}

std::string TopoParser::port(const std::vector<std::string> &t)
{
    if (!dev_)
        return "port before any dev";
    if ((t.size() != 4 && t.size() != 6) || (t.size() == 6 && t[4] != "cna"))
        return "port: expected <iodie> <port> <port_eid> [cna <cna>]";
    auto iodie = parse_u32(t[1], UBAGG_IODIE_NUM - 1);
    auto p = parse_u32(t[2], UBAGG_PORT_NUM - 1);
    if (!iodie || !p)
        return "port: bad IODie or port '" + t[1] + " " + t[2] + "' (0 .. 1, 0 .. 8)";
    ubagg_topo_ue *u = &dev_->ues[*iodie];
    if (std::string why = eid(t[3], u->port_eid[*p]); !why.empty())
        return "port: " + why;
    return t.size() == 6 ? eid(t[5], u->cna[*p]) : "";
}

std::string TopoParser::link(const std::vector<std::string> &t)
{
    if (nodes_.empty())
        return "link before any node";
    if (t.size() != 3)
        return "link: expected <iodie>:<port> <remote_iodie>:<remote_port>";
    uint32_t idx[2];
    for (int i = 0; i < 2; i++) {
        const std::string &s = t[1 + i];
        size_t colon = s.find(':');
        auto iodie = colon == std::string::npos ? std::nullopt : parse_u32(s.substr(0, colon), UBAGG_IODIE_NUM - 1);
        auto p = colon == std::string::npos ? std::nullopt : parse_u32(s.substr(colon + 1), UBAGG_PORT_NUM - 1);
        if (!iodie || !p)
            return "link: bad port '" + s + "' (<iodie 0..1>:<port 0..8>)";
        idx[i] = *iodie * UBAGG_PORT_NUM + *p;
    }
    nodes_.back().links[idx[0]][idx[1]] = 1;
    return "";
}

std::string TopoParser::statement(const std::vector<std::string> &t)
{
    if (t[0] == "node")
        return node(t);
    if (t[0] == "dev")
        return dev(t);
    if (t[0] == "ue")
        return ue(t);
    if (t[0] == "port")
        return port(t);
    if (t[0] == "link")
        return link(t);
    return "unknown statement '" + t[0] + "' (node, dev, ue, port or link)";
}

}  // namespace

std::variant<TopoNodes, std::string> parse_topo(const std::string &text)
{
    TopoParser parser;
    std::istringstream in(text);
    std::string line;

    for (unsigned n = 1; std::getline(in, line); n++) {
        line = line.substr(0, line.find('#'));
        std::istringstream words(line);
        std::vector<std::string> t;
        for (std::string w; words >> w;)
            t.push_back(w);
        if (t.empty())
            continue;
        if (std::string why = parser.statement(t); !why.empty())
            return "line " + std::to_string(n) + ": " + why;
    }
    TopoNodes nodes = parser.take();
    if (nodes.empty())
        return std::string("no node");
    return nodes;
}

const ubagg_topo_node *find_topo_node(const TopoNodes &nodes, std::optional<uint32_t> node_id)
{
    if (!node_id) {
        node_id = 0;
        for (const auto &n : nodes)
            if (n.is_current) {
                node_id = n.node_id;
                break;
            }
    }
    for (const auto &n : nodes)
        if (n.node_id == *node_id)
            return &n;
    return nullptr;
}

namespace {

void format_links(std::ostringstream &o, const ubagg_topo_node &node)
{
    for (uint32_t iodie = 0; iodie < UBAGG_IODIE_NUM; iodie++) {
        o << "IODie " << iodie << ":\n";
        for (uint32_t port = 0; port < UBAGG_PORT_NUM; port++) {
            bool first = true;
            for (uint32_t r = 0; r < kPorts; r++) {
                if (!node.links[iodie * UBAGG_PORT_NUM + port][r])
                    continue;
                o << (first ? "Port " + std::to_string(port) + ": " : std::string(8, ' '))
                  << "Connected to IODie " << r / UBAGG_PORT_NUM << ", Port " << r % UBAGG_PORT_NUM << "\n";
                first = false;
            }
            if (first)
                o << "Port " << port << ": Not connected\n";
        }
        o << "\n";
    }
}

// The port EIDs or the CNAs of a UE: one line per port.
void format_port_eids(std::ostringstream &o, const uint8_t (*eids)[UBAGG_EID_LEN], const char *none)
{
    for (uint32_t p = 0; p < UBAGG_PORT_NUM; p++)
        o << "\t\t\t Port " << p << ": " << (eid_set(eids[p]) ? eid_text(eids[p]) : none) << "\n";
}

void format_ue(std::ostringstream &o, uint32_t iodie, const ubagg_topo_ue &ue)
{
    o << "\t UE " << iodie << ":\n"
      << "\t\t Chip id: " << ue.chip_id << "\n"
      << "\t\t Die id: " << ue.die_id << "\n"
      << "\t\t Entity id: " << ue.entity_id << "\n"
      << "\t\t Primary eid:\n"
      << "\t\t\t " << eid_text(ue.primary_eid) << "\n"
      << "\t\t Port eid:\n";
    format_port_eids(o, ue.port_eid, "Invalid EID");
    o << "\t\t Cna:\n";
    format_port_eids(o, ue.cna, "Invalid CNA");
}

}  // namespace

std::string topo_eid_text(const uint8_t *raw)
{
    return eid_text(raw);
}

std::string format_topo_node(const ubagg_topo_node &node, const BondNames &bonds)
{
    std::ostringstream o;

    o << "========================== topo map start =============================\n"
      << "===================== show node " << node.node_id << " topo info =======================\n";
    format_links(o, node);
    for (uint32_t d = 0; d < UBAGG_DEV_NUM; d++) {
        const ubagg_topo_agg_dev &dev = node.agg_devs[d];
        if (!eid_set(dev.agg_eid))
            continue;
        o << "Dev " << d << ": " << eid_text(dev.agg_eid);
        if (auto it = bonds.find(eid_text(dev.agg_eid)); it != bonds.end())
            o << " (" << it->second << ")";
        o << "\n";
        for (uint32_t u = 0; u < UBAGG_IODIE_NUM; u++)
            if (eid_set(dev.ues[u].primary_eid))
                format_ue(o, u, dev.ues[u]);
    }
    o << "========================== topo map end =============================\n";
    return o.str();
}

}  // namespace urma_admin
