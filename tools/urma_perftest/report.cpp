// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The UB/URMA stack authors
#include "report.h"

#include <cmath>
#include <cstdarg>
#include <cstdio>

namespace perftest {

namespace {

std::string fmt(const char *f, ...) __attribute__((format(printf, 1, 2)));
std::string fmt(const char *f, ...)
{
    char buf[512];
    va_list ap;
    va_start(ap, f);
    std::vsnprintf(buf, sizeof(buf), f, ap);
    va_end(ap);
    return buf;
}

const char *title(Command c)
{
    switch (c) {
    case Command::ReadLat: return "Read Latency Test";
    case Command::WriteLat: return "Write Latency Test";
    case Command::SendLat: return "Send Latency Test";
    case Command::AtomicLat: return "Atomic Latency Test";
    case Command::ReadBw: return "Read BW Test";
    case Command::WriteBw: return "Write BW Test";
    case Command::SendBw: return "Send BW Test";
    case Command::AtomicBw: return "Atomic BW Test";
    }
    return "?";
}

const char *on_off(bool b)
{
    return b ? "ON" : "OFF";
}

std::string pair_line(const char *k1, const std::string &v1, const char *k2, const std::string &v2)
{
    return fmt(" %-15s: %-18s %-17s: %s\n", k1, v1.c_str(), k2, v2.c_str());
}

}  // namespace

std::string rule()
{
    return "---------------------------------------------------------------------------------------\n";
}

std::string banner(const Config &c)
{
    std::string s = rule();
    s += fmt("                    %s\n", title(c.cmd));
    s += pair_line("Device", c.dev, "Transport mode", trans_mode_name(c.trans_mode));
    s += pair_line(c.simplex ? "JFS/JFR pairs" : "Jetties", std::to_string(c.jettys), "Using JFC events",
                   on_off(c.use_jfce));
    s += pair_line("JFS depth", std::to_string(c.jfs_depth), "JFR depth", std::to_string(c.jfr_depth));
    s += pair_line("CQ moderation", is_bw(c.cmd) ? std::to_string(c.cq_mod) : "1", "Inline size",
                   std::to_string(c.inline_size));
    s += pair_line("SGEs", std::to_string(c.sge_num), "Immediate data", on_off(c.enable_imm));
    s += pair_line("Bidirectional", on_off(c.bidirection), "Timing", "CLOCK_MONOTONIC");
    if (op_of(c.cmd) == Op::Atomic)
        s += pair_line("Atomic type", c.atomic_type == AtomicType::Cas ? "CAS" : "FAA", "Data check",
                       on_off(c.check));
    else
        s += pair_line("Post list", std::to_string(c.jfs_post_list), "Data check", on_off(c.check));
    s += rule();
    if (is_bw(c.cmd))
        s += " #bytes     #iterations    BW peak[MB/sec]    BW average[MB/sec]   MsgRate[Mpps]\n";
    else
        s += " #bytes #iterations   t_min[usec]  t_median[usec]   t_avg[usec]   t_max[usec]"
             "  99% percentile[usec]  99.9% percentile[usec]\n";
    return s;
}

std::string bw_row(const BwRow &r)
{
    return fmt(" %-10u %-14llu %-18.2f %-20.2f %.6f\n", r.size, static_cast<unsigned long long>(r.iters),
               r.bw.peak_MBps, r.bw.avg_MBps, r.bw.msg_rate_Mpps);
}

std::string lat_row(const LatRow &r)
{
    return fmt(" %-6u %-11llu %11.2f %15.2f %13.2f %13.2f %21.2f %23.2f\n", r.size,
               static_cast<unsigned long long>(r.iters), r.lat.min, r.lat.median, r.lat.avg, r.lat.max, r.lat.p99,
               r.lat.p99_9);
}

std::string json_number(double v, int decimals)
{
    if (!std::isfinite(v))
        v = 0;
    return fmt("%.*f", decimals, v);
}

std::string bw_json(const Config &c, const BwRow &r)
{
    return fmt("{\"test\":\"%s\",\"trans_mode\":\"%s\",\"size\":%u,\"iterations\":%llu,", command_name(c.cmd),
               trans_mode_name(c.trans_mode), r.size, static_cast<unsigned long long>(r.iters)) +
           "\"bw_peak_MBps\":" + json_number(r.bw.peak_MBps, 3) + ",\"bw_avg_MBps\":" +
           json_number(r.bw.avg_MBps, 3) + ",\"msg_rate_Mpps\":" + json_number(r.bw.msg_rate_Mpps, 6) + "}";
}

std::string lat_json(const Config &c, const LatRow &r)
{
    return fmt("{\"test\":\"%s\",\"trans_mode\":\"%s\",\"size\":%u,\"iterations\":%llu,", command_name(c.cmd),
               trans_mode_name(c.trans_mode), r.size, static_cast<unsigned long long>(r.iters)) +
           "\"lat_us\":{\"min\":" + json_number(r.lat.min, 3) + ",\"median\":" + json_number(r.lat.median, 3) +
           ",\"avg\":" + json_number(r.lat.avg, 3) + ",\"max\":" + json_number(r.lat.max, 3) +
           ",\"p99\":" + json_number(r.lat.p99, 3) + ",\"p99_9\":" + json_number(r.lat.p99_9, 3) + "}}";
}

std::string json_output(const Config &c, const std::vector<std::string> &objects)
{
    if (!c.all && objects.size() == 1)
        return objects[0] + "\n";
    std::string s = "{\"results\":[";
    for (size_t i = 0; i < objects.size(); i++)
        s += (i != 0 ? "," : "") + objects[i];
    return s + "]}\n";
}

}  // namespace perftest
