// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The UB/URMA stack authors
#include "bond_info.h"

#include <sys/stat.h>

#include <cerrno>
#include <fstream>
#include <iterator>
#include <sstream>

#include "cli.h"

namespace urma_admin {

namespace {

bool is_dir(const std::string &path)
{
    struct stat st;
    return stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

bool read_file(const std::string &path, std::string *text)
{
    std::ifstream in(path);
    if (!in)
        return false;
    text->assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    return !in.bad();
}

// "<dev> up|down active|inactive <packets>"
bool parse_member(const std::string &line, BondMember *m)
{
    std::istringstream in(line);
    std::string up, active, packets, extra;
    if (!(in >> m->name >> up >> active >> packets) || (in >> extra))
        return false;
    if ((up != "up" && up != "down") || (active != "active" && active != "inactive"))
        return false;
    if (packets.empty() || packets.size() > 20 || packets.find_first_not_of("0123456789") != std::string::npos)
        return false;
    m->up = up == "up";
    m->active = active == "active";
    m->tx_packets = std::stoull(packets);
    return true;
}

}  // namespace

Status read_bond_info(const std::string &class_dir, const std::string &dev, BondInfo *out)
{
    const std::string dev_dir = class_dir + "/" + dev;
    const std::string dir = dev_dir + "/bond/";
    std::string mode, peers, members;

    if (!is_dir(dev_dir))
        return Status{ENODEV, "no UB device " + dev};
    if (!is_dir(dir))
        return Status{ENOENT, dev + " is not a bonding device"};
    if (!read_file(dir + "mode", &mode) || !read_file(dir + "peers", &peers) || !read_file(dir + "members", &members))
        return Status{EIO, "cannot read " + dir};
    *out = BondInfo{};
    if (mode.empty() || mode.back() != '\n')
        return Status{EIO, dir + "mode: '" + mode + "'"};
    auto m = bond_mode_from_name(mode.substr(0, mode.size() - 1));
    if (!m)
        return Status{EIO, dir + "mode: '" + mode + "'"};
    out->mode = *m;
    auto n = peers.empty() ? std::nullopt : parse_u32(peers.substr(0, peers.size() - 1), UINT32_MAX);
    if (!n || peers.back() != '\n')
        return Status{EIO, dir + "peers: '" + peers + "'"};
    out->peers = *n;
    std::istringstream lines(members);
    for (std::string line; std::getline(lines, line);) {
        BondMember member;
        if (!parse_member(line, &member))
            return Status{EIO, dir + "members: '" + line + "'"};
        out->members.push_back(member);
    }
    return Status{};
}

std::string format_bond(const std::string &dev, const Eid *eid, const BondInfo &info)
{
    std::ostringstream o;
    o << dev << "  eid " << (eid ? eid_to_string(*eid) : std::string("-")) << "  mode "
      << bond_mode_name(info.mode) << "  peers " << info.peers << "\n";
    for (const auto &m : info.members)
        o << "    member " << m.name << "  " << (m.up ? "up" : "down") << "  "
          << (m.active ? "active" : "inactive") << "  tx_packets " << m.tx_packets << "\n";
    return o.str();
}

}  // namespace urma_admin
