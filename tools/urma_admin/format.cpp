// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The UB/URMA stack authors
#include "format.h"

#include <ub/ubcore_netlink.h>

#include <algorithm>
#include <cstdio>

#include "bitmask.h"
#include "cli.h"

namespace urma_admin {

namespace {

std::string num(uint64_t v)
{
    return std::to_string(v);
}

// A capability or object count the kernel may leave out: "-" then.
std::string opt_num(const NumAttrs &attrs, int type)
{
    auto it = attrs.find(type);
    return it == attrs.end() ? "-" : num(it->second);
}

std::string name_of(uint8_t v, const std::vector<const char *> &names)
{
    if (v < names.size())
        return names[v];
    return "unknown(" + num(v) + ")";
}

// Who owns an object: "kernel" or "user", and the user context's UASID and
// creator PID when the kernel gave them; "hidden" when it is another user's
// and the reader is no network administrator.
std::vector<std::string> owner_cells(const Resource &r)
{
    if (r.has(UBCORE_NL_RES_HIDDEN))
        return {"hidden", "-", "-"};
    if (r.has(UBCORE_NL_RES_KERNEL))
        return {"kernel", "-", "-"};
    return {"user", r.has(UBCORE_NL_RES_UASID) ? num(r.get(UBCORE_NL_RES_UASID)) : "-",
            r.has(UBCORE_NL_RES_PID) ? num(r.get(UBCORE_NL_RES_PID)) : "-"};
}

std::string cell(const Resource &r, int attr)
{
    return r.has(attr) ? num(r.get(attr)) : "-";
}

std::string trans_mode_short(const Resource &r)
{
    return r.has(UBCORE_NL_RES_TRANS_MODE) ? short_bits(r.get(UBCORE_NL_RES_TRANS_MODE), kTransModeBits) : "-";
}

// A TP's state: the user guide 5.1.1.4's names, in its legend's order
// (UBCORE_NL_RES_STATE of a TP, include/uapi/ub/ubcore_netlink.h).
const std::vector<const char *> kTpStates = {
    "reset",          "REQ_sent",     "timeout",        "peer_compare",         "REP_received",
    "Initiator_established", "NOTIFY_sent", "Reuse_received", "NOTIFY_received_on_reuse",
    "NOTIFY_sent_on_reuse",  "reused",      "REQ_received",   "REP_sent",
    "Target_established",    "NOTIFY_received", "Reuse_sent"};

std::string state_cell(const Resource &r)
{
    if (!r.has(UBCORE_NL_RES_STATE))
        return "-";
    auto s = static_cast<uint8_t>(r.get(UBCORE_NL_RES_STATE));
    if (r.type == ResType::Tp)
        return name_of(s, kTpStates);
    return r.type == ResType::Jfr ? jfr_state_name(s) : jetty_state_name(s);
}

std::vector<std::string> table_row(const Resource &r)
{
    std::vector<std::string> row;
    switch (r.type) {
    case ResType::Jfc:
        row = {cell(r, UBCORE_NL_RES_ID), cell(r, UBCORE_NL_RES_DEPTH),
               r.has(UBCORE_NL_RES_JFCE) ? "yes" : "no", cell(r, UBCORE_NL_RES_USE_CNT)};
        break;
    case ResType::Jfs:
        row = {cell(r, UBCORE_NL_RES_ID), cell(r, UBCORE_NL_RES_DEPTH), trans_mode_short(r),
               state_cell(r), cell(r, UBCORE_NL_RES_JFC_ID), cell(r, UBCORE_NL_RES_PRIORITY)};
        break;
    case ResType::Jfr:
        row = {cell(r, UBCORE_NL_RES_ID), cell(r, UBCORE_NL_RES_DEPTH), trans_mode_short(r),
               state_cell(r), cell(r, UBCORE_NL_RES_JFC_ID), cell(r, UBCORE_NL_RES_USE_CNT)};
        break;
    case ResType::Jetty:
        row = {cell(r, UBCORE_NL_RES_ID),          cell(r, UBCORE_NL_RES_DEPTH),
               trans_mode_short(r),                state_cell(r),
               cell(r, UBCORE_NL_RES_JFC_ID),      cell(r, UBCORE_NL_RES_RECV_JFC_ID),
               cell(r, UBCORE_NL_RES_JFR_ID)};
        break;
    case ResType::Seg:
        row = {cell(r, UBCORE_NL_RES_ID), r.eid ? eid_to_string(*r.eid) : "-",
               r.has(UBCORE_NL_RES_VA) ? hex(r.get(UBCORE_NL_RES_VA)) : "-", cell(r, UBCORE_NL_RES_LEN),
               r.has(UBCORE_NL_RES_ACCESS) ? short_bits(r.get(UBCORE_NL_RES_ACCESS), kAccessBits) : "-",
               cell(r, UBCORE_NL_RES_PINNED_PAGES)};
        break;
    case ResType::Tp:
        row = {cell(r, UBCORE_NL_RES_ID), r.eid ? eid_to_string(*r.eid) : "-",
               cell(r, UBCORE_NL_RES_PEER_TPN), trans_mode_short(r), state_cell(r),
               cell(r, UBCORE_NL_RES_USERS), cell(r, UBCORE_NL_RES_AGE_MS)};
        return row;
    }
    for (auto &c : owner_cells(r))
        row.push_back(c);
    return row;
}

std::vector<std::string> table_header(ResType type)
{
    const std::vector<std::string> owner = {"owner", "uasid", "pid"};
    std::vector<std::string> h;
    switch (type) {
    case ResType::Jfc:
        h = {"jfc_id", "depth", "jfce", "use_cnt"};
        break;
    case ResType::Jfs:
        h = {"jfs_id", "depth", "trans_mode", "state", "jfc_id", "priority"};
        break;
    case ResType::Jfr:
        h = {"jfr_id", "depth", "trans_mode", "state", "jfc_id", "use_cnt"};
        break;
    case ResType::Jetty:
        h = {"jetty_id", "depth", "trans_mode", "state", "send_jfc", "recv_jfc", "jfr_id"};
        break;
    case ResType::Seg:
        h = {"token_id", "eid", "va", "len", "access", "pinned_pages"};
        break;
    case ResType::Tp:
        return {"tpn", "peer_eid", "peer_tpn", "trans_mode", "state", "users", "age_ms"};
    }
    h.insert(h.end(), owner.begin(), owner.end());
    return h;
}

struct DetailField {
    int attr;
    const char *name;
    enum { Num, Hex, Flag, TransMode, State, Access } kind;
};

const std::vector<DetailField> kDetailFields = {
    {UBCORE_NL_RES_ID, "id", DetailField::Num},
    {UBCORE_NL_RES_DEPTH, "depth", DetailField::Num},
    {UBCORE_NL_RES_FLAG, "flag", DetailField::Hex},
    {UBCORE_NL_RES_JFCE, "jfce", DetailField::Flag},
    {UBCORE_NL_RES_USE_CNT, "use_cnt", DetailField::Num},
    {UBCORE_NL_RES_TRANS_MODE, "trans_mode", DetailField::TransMode},
    {UBCORE_NL_RES_STATE, "state", DetailField::State},
    {UBCORE_NL_RES_JFC_ID, "jfc_id", DetailField::Num},
    {UBCORE_NL_RES_RECV_JFC_ID, "recv_jfc_id", DetailField::Num},
    {UBCORE_NL_RES_JFR_ID, "jfr_id", DetailField::Num},
    {UBCORE_NL_RES_PRIORITY, "priority", DetailField::Num},
    {UBCORE_NL_RES_MAX_SGE, "max_sge", DetailField::Num},
    {UBCORE_NL_RES_MAX_INLINE, "max_inline_data", DetailField::Num},
    {UBCORE_NL_RES_RNR_RETRY, "rnr_retry", DetailField::Num},
    {UBCORE_NL_RES_ERR_TIMEOUT, "err_timeout", DetailField::Num},
    {UBCORE_NL_RES_MIN_RNR_TIMER, "min_rnr_timer", DetailField::Num},
    {UBCORE_NL_RES_RX_THRESHOLD, "rx_threshold", DetailField::Num},
    {UBCORE_NL_RES_VA, "va", DetailField::Hex},
    {UBCORE_NL_RES_LEN, "len", DetailField::Num},
    {UBCORE_NL_RES_ACCESS, "access", DetailField::Access},
    {UBCORE_NL_RES_PINNED_PAGES, "pinned_pages", DetailField::Num},
    {UBCORE_NL_RES_PEER_TPN, "peer_tpn", DetailField::Num},
    {UBCORE_NL_RES_USERS, "users", DetailField::Num},
    {UBCORE_NL_RES_AGE_MS, "age_ms", DetailField::Num},
};

std::string detail_value(const Resource &r, const DetailField &f)
{
    uint64_t v = r.get(f.attr);
    switch (f.kind) {
    case DetailField::Hex:
        return hex(v);
    case DetailField::Flag:
        return "yes";
    case DetailField::TransMode:
        return trans_mode_text(v);
    case DetailField::State:
        return state_cell(r);
    case DetailField::Access:
        return access_text(v);
    case DetailField::Num:
        break;
    }
    return num(v);
}

}  // namespace

std::string Table::str() const
{
    std::vector<size_t> width;
    for (const auto &row : rows_) {
        if (width.size() < row.size())
            width.resize(row.size(), 0);
        for (size_t i = 0; i < row.size(); i++)
            width[i] = std::max(width[i], row[i].size());
    }
    std::string out;
    for (const auto &row : rows_) {
        std::string line;
        for (size_t i = 0; i < row.size(); i++) {
            line += row[i];
            if (i + 1 < row.size())
                line += std::string(width[i] - row[i].size() + 2, ' ');
        }
        out += line + "\n";
    }
    return out;
}

std::string port_state_name(uint8_t state)
{
    return name_of(state, {"NOP", "DOWN", "INIT", "ARMED", "ACTIVE", "ACTIVE_DEFER"});
}

std::string eid_mode_name(uint8_t mode)
{
    return name_of(mode, {"dynamic", "static"});
}

std::string jetty_state_name(uint8_t state)
{
    return name_of(state, {"RESET", "READY", "SUSPENDED", "ERROR"});
}

std::string jfr_state_name(uint8_t state)
{
    return name_of(state, {"RESET", "READY", "ERROR"});
}

std::string format_device_table(const std::vector<DeviceInfo> &devs)
{
    Table t({"dev_name", "driver", "netdev", "eid_mode", "eid_cnt", "port_state", "active_mtu"});
    for (const auto &d : devs)
        t.add({d.name, d.driver, d.netdev.empty() ? "-" : d.netdev, eid_mode_name(d.eid_mode),
               num(d.eids.size()), port_state_name(d.port_state), num(d.active_mtu)});
    return t.str();
}

std::string format_device_whole(const DeviceInfo &d)
{
    struct Cap {
        int attr;
        const char *name;
        std::string (*text)(uint64_t);
    };
    static const Cap caps[] = {
        {UBCORE_NL_CAP_MAX_JFC, "max_jfc", nullptr},
        {UBCORE_NL_CAP_MAX_JFS, "max_jfs", nullptr},
        {UBCORE_NL_CAP_MAX_JFR, "max_jfr", nullptr},
        {UBCORE_NL_CAP_MAX_JETTY, "max_jetty", nullptr},
        {UBCORE_NL_CAP_MAX_JFC_DEPTH, "max_jfc_depth", nullptr},
        {UBCORE_NL_CAP_MAX_JFS_DEPTH, "max_jfs_depth", nullptr},
        {UBCORE_NL_CAP_MAX_JFR_DEPTH, "max_jfr_depth", nullptr},
        {UBCORE_NL_CAP_MAX_JFS_SGE, "max_jfs_sge", nullptr},
        {UBCORE_NL_CAP_MAX_JFS_RSGE, "max_jfs_rsge", nullptr},
        {UBCORE_NL_CAP_MAX_JFR_SGE, "max_jfr_sge", nullptr},
        {UBCORE_NL_CAP_MAX_JFS_INLINE_SIZE, "max_jfs_inline_size", nullptr},
        {UBCORE_NL_CAP_MAX_MSG_SIZE, "max_msg_size", nullptr},
        {UBCORE_NL_CAP_MAX_WRITE_SIZE, "max_write_size", nullptr},
        {UBCORE_NL_CAP_MAX_READ_SIZE, "max_read_size", nullptr},
        {UBCORE_NL_CAP_MAX_TOKEN_ID, "max_token_id", nullptr},
        {UBCORE_NL_CAP_ATOMIC_FEATURE, "atomic_feature", atomic_feature_text},
        {UBCORE_NL_CAP_TRANS_MODE, "trans_mode", trans_mode_text},
        {UBCORE_NL_CAP_CONGESTION_CTRL_ALG, "congestion_ctrl_alg", congestion_ctrl_alg_text},
        {UBCORE_NL_CAP_RESERVED_JETTY_ID_MAX, "reserved_jetty_id_max", nullptr},
    };
    static const std::pair<int, const char *> objs[] = {
        {UBCORE_NL_OBJ_UCONTEXT, "ucontext"},     {UBCORE_NL_OBJ_JFC, "jfc"},
        {UBCORE_NL_OBJ_JFS, "jfs"},               {UBCORE_NL_OBJ_JFR, "jfr"},
        {UBCORE_NL_OBJ_JETTY, "jetty"},           {UBCORE_NL_OBJ_TOKEN_ID, "token_id"},
        {UBCORE_NL_OBJ_SEG, "seg"},               {UBCORE_NL_OBJ_TARGET_SEG, "target_seg"},
        {UBCORE_NL_OBJ_TJFR, "tjfr"},             {UBCORE_NL_OBJ_TJETTY, "tjetty"},
        {UBCORE_NL_OBJ_JETTY_GRP, "jetty_grp"},   {UBCORE_NL_OBJ_PINNED_PAGES, "pinned_pages"},
    };

    std::string out = d.name + ":\n";
    auto line = [&out](const std::string &k, const std::string &v) { out += "  " + k + ": " + v + "\n"; };
    line("driver", d.driver);
    line("netdev", d.netdev.empty() ? "-" : d.netdev);
    line("type", d.logical ? "logical" : "physical");
    line("eid_mode", eid_mode_name(d.eid_mode));
    line("port_state", port_state_name(d.port_state));
    line("active_mtu", num(d.active_mtu));
    for (const auto &c : caps) {
        auto it = d.caps.find(c.attr);
        if (it == d.caps.end())
            line(c.name, "-");
        else
            line(c.name, c.text ? c.text(it->second) : num(it->second));
    }
    out += "  eids:\n";
    if (d.eids.empty())
        out += "    (none)\n";
    for (const auto &e : d.eids)
        out += "    " + num(e.index) + "  " + eid_to_string(e.eid) + "  " + (e.is_static ? "static" : "dynamic") +
               "\n";
    out += "  objects:\n";
    for (const auto &[attr, name] : objs)
        out += "    " + std::string(name) + ": " + opt_num(d.objs, attr) + "\n";
    return out;
}

std::string format_resource_table(ResType type, const std::vector<Resource> &res)
{
    Table t(table_header(type));
    for (const auto &r : res)
        t.add(table_row(r));
    return t.str();
}

std::string format_resource_detail(const Resource &r)
{
    std::string out = std::string(res_type_name(r.type)) + ":\n";
    for (const auto &f : kDetailFields) {
        if (!r.has(f.attr))
            continue;
        if (f.attr == UBCORE_NL_RES_ID && r.type == ResType::Seg)
            out += "  token_id: " + num(r.get(f.attr)) + "\n";
        else
            out += std::string("  ") + f.name + ": " + detail_value(r, f) + "\n";
        if (f.attr == UBCORE_NL_RES_ID && r.eid)
            out += "  eid: " + eid_to_string(*r.eid) + "\n";
    }
    auto owner = owner_cells(r);
    out += "  owner: " + owner[0] + "\n";
    if (owner[0] == "user") {
        out += "  uasid: " + owner[1] + "\n";
        out += "  pid: " + owner[2] + "\n";
    }
    return out;
}

std::string format_system(const SystemInfo &s)
{
    std::string out;
    out += "dev_count: " + num(s.dev_count) + "\n";
    const bool known = s.ns_mode == UBCORE_NL_NS_SHARED || s.ns_mode == UBCORE_NL_NS_EXCLUSIVE;
    const std::string sharing = !known ? "-" : s.ns_mode == UBCORE_NL_NS_SHARED ? "on" : "off";
    out += "ns_mode: " +
           std::string(s.ns_mode == UBCORE_NL_NS_SHARED      ? "shared"
                       : s.ns_mode == UBCORE_NL_NS_EXCLUSIVE ? "exclusive"
                                                             : "unknown(" + num(s.ns_mode) + ")") +
           "\n";
    // The guide's two switches: dev_sharing as the kernel says (automatic
    // mode), eid_sharing as the mode implies it.
    out += "dev_sharing: " + (s.dev_sharing ? std::string(*s.dev_sharing ? "on" : "off") : sharing) + "\n";
    out += "eid_sharing: " + sharing + "\n";
    out += "netlink_version: " + num(s.nl_version) + "\n";
    out += "abi_version: " + num(s.abi_version) + "\n";
    return out;
}

}  // namespace urma_admin
