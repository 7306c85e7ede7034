// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The UB/URMA stack authors
#include "stack.h"

#include <fcntl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <cstdio>
#include <vector>

namespace ub_itest {
namespace {

std::string env(const char *name)
{
    const char *v = std::getenv(name);
    return v != nullptr ? v : "";
}

// Module paths relative to $UB_KMOD, in load order. Empty, with the reason
// on stderr, when UB_TOP or UB_KMOD is not set or the list is unreadable:
// a suite run by hand without them must fail, not test a stack it never
// loaded.
std::vector<std::string> stack_modules()
{
    std::vector<std::string> mods;
    if (env("UB_TOP").empty() || env("UB_KMOD").empty()) {
        std::fprintf(stderr, "stack: UB_TOP and UB_KMOD must be set (tests/guest/check-guest.sh does)\n");
        return mods;
    }
    const std::string path = env("UB_TOP") + "/tests/guest/modules.list";
    std::ifstream list(path);
    std::string line;

    while (std::getline(list, line))
        if (!line.empty() && line[0] != '#')
            mods.push_back(line);
    if (mods.empty())
        std::fprintf(stderr, "stack: no modules listed in %s\n", path.c_str());
    return mods;
}

std::string module_name(const std::string &path)
{
    std::string base = path.substr(path.rfind('/') + 1);
    return base.substr(0, base.size() - 3);
}

}  // namespace

bool check_long()
{
    const char *v = std::getenv("UB_CHECK_LONG");
    return v != nullptr && *v != '\0';
}

bool module_loaded(const std::string &name)
{
    std::ifstream mods("/proc/modules");
    std::string line;

    while (std::getline(mods, line))
        if (line.compare(0, name.size() + 1, name + " ") == 0)
            return true;
    return false;
}

int run(const std::string &cmd)
{
    int status = std::system(cmd.c_str());
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

int lib_sh(const std::string &script)
{
    if (std::getenv("UB_TOP") == nullptr || std::getenv("UB_KMOD") == nullptr) {
        std::cerr << "UB_TOP and UB_KMOD must be set (tests/guest/check-guest.sh does)\n";
        return -1;
    }
    return run("bash -c '. \"$UB_TOP/tests/guest/lib.sh\" && " + script + "'");
}

bool insmod(const std::string &path, const std::string &params)
{
    int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        std::cerr << "insmod " << path << ": " << std::strerror(errno) << "\n";
        return false;
    }
    long rc = syscall(SYS_finit_module, fd, params.c_str(), 0);
    int err = errno;
    close(fd);
    if (rc != 0) {
        std::cerr << "insmod " << path << " " << params << ": " << std::strerror(err)
                  << "\n";
        return false;
    }
    return true;
}

bool rmmod(const std::string &name)
{
    if (syscall(SYS_delete_module, name.c_str(), O_NONBLOCK) != 0) {
        std::cerr << "rmmod " << name << ": " << std::strerror(errno) << "\n";
        return false;
    }
    return true;
}

bool load_stack(const std::string &udma_netdevs)
{
    const auto mods = stack_modules();
    if (mods.empty())
        return false;
    for (const auto &m : mods) {
        std::string params;

        if (module_name(m) == "udma" && !udma_netdevs.empty())
            params = "netdev=" + udma_netdevs;
        // UB_UDMA_PARAMS: more udma parameters for a whole run ("force_wire=1",
        // tests/guest/cases/udma-force-wire-dp.sh).
        if (module_name(m) == "udma" && !env("UB_UDMA_PARAMS").empty())
            params += (params.empty() ? "" : " ") + env("UB_UDMA_PARAMS");
        if (!insmod(env("UB_KMOD") + "/" + m, params)) {
            unload_stack();
            return false;
        }
    }
    return true;
}

bool unload_stack()
{
    auto mods = stack_modules();
    bool ok = true;

    // With extra udma parameters, say how many UBoE packets udma0 sent and
    // received while it was loaded (the force_wire case checks them).
    if (!env("UB_UDMA_PARAMS").empty() && module_loaded("udma")) {
        std::ifstream tx("/sys/class/ubcore/udma0/wire/tx_packets");
        std::ifstream rx("/sys/class/ubcore/udma0/wire/rx_packets");
        unsigned long long ntx = 0, nrx = 0;

        if (tx >> ntx && rx >> nrx)
            std::fprintf(stderr, "stack: udma0 wire tx_packets %llu rx_packets %llu\n", ntx, nrx);
    }
    for (auto it = mods.rbegin(); it != mods.rend(); ++it) {
        std::string name = module_name(*it);
        if (module_loaded(name) && !rmmod(name))
            ok = false;
    }
    return ok;
}

}  // namespace ub_itest
