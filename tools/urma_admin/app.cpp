// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The UB/URMA stack authors
#include "app.h"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>

#include "bond_info.h"
#include "cli.h"
#include "format.h"
#include "topo.h"
#include "wire_stats.h"

#ifndef URMA_ADMIN_VERSION
#error "URMA_ADMIN_VERSION must be defined by the build"
#endif

namespace urma_admin {

namespace {

std::string join(const std::vector<std::string> &args)
{
    std::string s;
    for (const auto &a : args)
        s += (s.empty() ? "" : " ") + a;
    return s;
}

// One request's context: where output goes and how failures read.
class Runner {
public:
    Runner(Backend &be, std::ostream &out, std::ostream &err, std::string what)
        : be_(be), out_(out), err_(err), what_(std::move(what))
    {
    }

    int run(const Command &c);

private:
    int fail(const Status &st)
    {
        err_ << "urma_admin: " << what_ << ": " << std::strerror(st.err);
        if (!st.extack.empty())
            err_ << ": " << st.extack;
        err_ << "\n";
        return kExitRuntime;
    }

    int show(const Command &c);
    int show_res(const Command &c);
    int system_show();
    int show_stats(const Command &c);
    int show_topo(const Command &c);
    int topo_set(const Command &c);
    int agg_show();
    // The bonding devices of this host: name -> what they are.
    Status bonds(std::map<std::string, std::pair<Eid, BondInfo>> *out);

    Backend &be_;
    std::ostream &out_;
    std::ostream &err_;
    std::string what_;
};

int Runner::show(const Command &c)
{
    std::vector<DeviceInfo> devs;
    Status st;

    if (!c.dev.empty()) {
        devs.resize(1);
        st = be_.get_device(c.dev, &devs[0]);
    } else {
        st = be_.list_devices(&devs);
    }
    if (!st.ok())
        return fail(st);
    std::vector<DeviceInfo> shown;
    for (auto &d : devs) {
        st = be_.list_eids(d.name, &d.eids);
        // A device of a full listing that went away meanwhile is left out.
        if (st.err == ENODEV && c.dev.empty())
            continue;
        if (!st.ok())
            return fail(st);
        shown.push_back(std::move(d));
    }
    if (!c.whole) {
        out_ << format_device_table(shown);
        return kExitOk;
    }
    for (size_t i = 0; i < shown.size(); i++)
        out_ << (i ? "\n" : "") << format_device_whole(shown[i]);
    return kExitOk;
}

int Runner::show_res(const Command &c)
{
    // One object by ID, but a token ID may name several segments.
    if (c.id && c.res != ResType::Seg) {
        Resource r;
        Status st = be_.get_resource(c.dev, c.res, *c.id, &r);
        if (!st.ok())
            return fail(st);
        out_ << format_resource_detail(r);
        return kExitOk;
    }
    std::vector<Resource> res;
    Status st = be_.list_resources(c.dev, c.res, c.id, &res);
    if (!st.ok())
        return fail(st);
    out_ << format_resource_table(c.res, res);
    return kExitOk;
}

int Runner::system_show()
{
    SystemInfo s;
    Status st = be_.system_get(&s);
    if (!st.ok())
        return fail(st);
    out_ << format_system(s);
    return kExitOk;
}

int Runner::show_stats(const Command &c)
{
    WireStats s;
    Status st = be_.get_wire_stats(c.dev, &s);
    if (!st.ok())
        return fail(st);
    out_ << format_wire_stats(c.dev, s);
    return kExitOk;
}

int Runner::show_topo(const Command &c)
{
    TopoNodes nodes;
    Status st = be_.topo_get(&nodes);
    if (!st.ok())
        return fail(st);
    const ubagg_topo_node *node = find_topo_node(nodes, c.id);
    if (!node)
        return fail(Status{ENOENT, "node " + (c.id ? std::to_string(*c.id) : std::string("0")) +
                                       " is not in the topology"});
    // the bonding devices are this host's: only its own node names them
    BondNames names;
    std::map<std::string, std::pair<Eid, BondInfo>> found;
    if (node->is_current && bonds(&found).ok()) {
        for (const auto &[dev, b] : found) {
            std::string text = dev + " over";
            for (const auto &m : b.second.members)
                text += " " + m.name;
            names[topo_eid_text(b.first.data())] = text;
        }
    }
    out_ << format_topo_node(*node, names);
    return kExitOk;
}

Status Runner::bonds(std::map<std::string, std::pair<Eid, BondInfo>> *out)
{
    std::vector<DeviceInfo> devs;
    Status st = be_.list_devices(&devs);
    if (!st.ok())
        return st;
    for (const auto &d : devs) {
        BondInfo info;
        std::vector<EidInfo> eids;
        // a device that went meanwhile, or no bonding device: left out
        if (!be_.bond_info(d.name, &info).ok() || !be_.list_eids(d.name, &eids).ok())
            continue;
        Eid eid{};
        for (const auto &e : eids)
            if (e.index == 0)
                eid = e.eid;
        (*out)[d.name] = {eid, info};
    }
    return Status{};
}

int Runner::agg_show()
{
    std::map<std::string, std::pair<Eid, BondInfo>> found;
    Status st = bonds(&found);
    if (!st.ok())
        return fail(st);
    for (const auto &[dev, b] : found)
        out_ << format_bond(dev, &b.first, b.second);
    return kExitOk;
}

int Runner::topo_set(const Command &c)
{
    std::ifstream in(c.file);
    if (!in)
        return fail(Status{errno ? errno : ENOENT, "cannot read " + c.file});
    std::ostringstream text;
    text << in.rdbuf();
    auto parsed = parse_topo(text.str());
    if (const auto *why = std::get_if<std::string>(&parsed))
        return fail(Status{EINVAL, c.file + ": " + *why});
    Status st = be_.topo_set(std::get<TopoNodes>(parsed));
    return st.ok() ? kExitOk : fail(st);
}

int Runner::run(const Command &c)
{
    Status st = be_.connect();
    if (!st.ok())
        return fail(st);
    switch (c.verb) {
    case Verb::Show:
        return show(c);
    case Verb::ShowRes:
        return show_res(c);
    case Verb::ShowStats:
        return show_stats(c);
    case Verb::SystemShow:
        return system_show();
    case Verb::EidAdd:
        st = be_.eid_add(c.dev, c.eid_index, c.eid);
        break;
    case Verb::EidDel:
        st = be_.eid_del(c.dev, c.eid_index);
        break;
    case Verb::EidSetMode:
        st = be_.eid_set_mode(c.dev, c.static_mode);
        break;
    case Verb::DevAdd:
        st = be_.dev_add(c.dev, c.netdev, c.link_type);
        break;
    case Verb::DevDel:
        st = be_.dev_del(c.dev);
        break;
    case Verb::DevSetNs:
        st = be_.dev_set_ns(c.dev, c.netns);
        break;
    case Verb::DevExpose:
    case Verb::DevUnexpose:
        st = be_.dev_expose(c.dev, c.netns, c.verb == Verb::DevExpose);
        break;
    case Verb::EidSetNs:
        st = be_.eid_set_ns(c.dev, c.eid_index, c.netns);
        break;
    case Verb::SystemSetDevSharing:
        st = be_.set_dev_sharing(c.on);
        break;
    case Verb::ShowTopo:
        return show_topo(c);
    case Verb::TopoSet:
        return topo_set(c);
    case Verb::TopoClear:
        st = be_.topo_set({});
        break;
    case Verb::AggAdd:
        st = be_.agg_add(c.eid, c.dev, c.bond_mode);
        break;
    case Verb::AggDel:
        st = be_.agg_del(c.eid);
        break;
    case Verb::AggShow:
        return agg_show();
    case Verb::Help:
    case Verb::Version:
        break;
    }
    return st.ok() ? kExitOk : fail(st);
}

}  // namespace

const char *version()
{
    return URMA_ADMIN_VERSION;
}

int run(const std::vector<std::string> &args, Backend &backend, std::ostream &out, std::ostream &err)
{
    ParseResult parsed = parse_args(args);
    if (const auto *u = std::get_if<UsageError>(&parsed)) {
        err << "urma_admin: " << u->message << "\n"
            << "Try 'urma_admin --help' for more information.\n";
        return kExitUsage;
    }
    const Command &c = std::get<Command>(parsed);
    if (c.verb == Verb::Help) {
        out << usage_text();
        return kExitOk;
    }
    if (c.verb == Verb::Version) {
        out << "urma_admin " << version() << "\n";
        return kExitOk;
    }
    return Runner(backend, out, err, join(args)).run(c);
}

}  // namespace urma_admin
