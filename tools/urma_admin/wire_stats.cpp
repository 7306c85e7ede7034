// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The UB/URMA stack authors
#include "wire_stats.h"

#include <dirent.h>
#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <fstream>
#include <iterator>
#include <memory>

namespace urma_admin {

namespace {

// The counters that are not drop reasons of received packets, in the order
// they are shown (the UBoE carrier's messages not sent among them).
const char *const kTraffic[] = {"rx_packets",     "rx_bytes",    "rx_trains",   "rx_linearized",
                                "rx_scattered",   "mgmt_rx",     "mgmt_tx",     "tx_packets",
                                "tx_bytes",       "tx_zerocopy", "tx_errors",   "tx_msg_too_big",
                                "tx_no_tp",       "tx_route_lookups"};

bool is_dir(const std::string &path)
{
    struct stat st;
    return stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

// One decimal number and a newline, as sysfs shows a counter.
bool parse_counter(const std::string &text, uint64_t *v)
{
    if (text.size() < 2 || text.size() > 21 || text.back() != '\n')
        return false;
    std::string digits = text.substr(0, text.size() - 1);
    if (digits.find_first_not_of("0123456789") != std::string::npos)
        return false;
    errno = 0;
    char *end = nullptr;
    unsigned long long n = std::strtoull(digits.c_str(), &end, 10);
    if (errno || *end)
        return false;
    *v = n;
    return true;
}

struct DirClose {
    void operator()(DIR *d) const { closedir(d); }
};

}  // namespace

Status read_wire_stats(const std::string &class_dir, const std::string &dev, WireStats *out)
{
    const std::string dev_dir = class_dir + "/" + dev;
    const std::string dir = dev_dir + "/wire";

    if (!is_dir(dev_dir))
        return Status{ENODEV, "no UB device " + dev};
    std::unique_ptr<DIR, DirClose> d(opendir(dir.c_str()));
    if (!d)
        return Status{errno == ENOENT ? EOPNOTSUPP : errno, dev + " has no wire counters"};
    out->counters.clear();
    while (const dirent *e = readdir(d.get())) {
        const std::string name = e->d_name;
        if (name == "." || name == "..")
            continue;
        std::ifstream f(dir + "/" + name);
        std::string text((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
        uint64_t v = 0;
        if (!f.good() && !f.eof())
            return Status{EIO, "cannot read " + dir + "/" + name};
        if (!parse_counter(text, &v))
            return Status{EIO, dir + "/" + name + " holds no counter"};
        out->counters[name] = v;
    }
    return Status{};
}

std::string format_wire_stats(const std::string &dev, const WireStats &stats)
{
    std::string s = dev + " wire:\n";
    for (const char *name : kTraffic) {
        auto it = stats.counters.find(name);
        if (it != stats.counters.end())
            s += "  " + it->first + ": " + std::to_string(it->second) + "\n";
    }
    // The reliable transport of TPs: rtp_*.
    auto is_rtp = [](const std::string &name) { return name.rfind("rtp_", 0) == 0; };
    std::string rtp;
    for (const auto &[name, v] : stats.counters) {
        if (is_rtp(name))
            rtp += "    " + name + ": " + std::to_string(v) + "\n";
    }
    if (!rtp.empty())
        s += "  transport:\n" + rtp;
    s += "  drops:\n";
    for (const auto &[name, v] : stats.counters) {
        if (!is_rtp(name) &&
            std::find(std::begin(kTraffic), std::end(kTraffic), name) == std::end(kTraffic))
            s += "    " + name + ": " + std::to_string(v) + "\n";
    }
    return s;
}

}  // namespace urma_admin
