// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The UB/URMA stack authors
// For integration tests in the guest: load and unload the stack's modules
// (tests/guest/modules.list, from $UB_KMOD) around a test suite.
#pragma once

#include <unistd.h>

#include <string>

namespace ub_itest {

// Runs a command through /bin/sh; returns its exit status (-1 if it died).
int run(const std::string &cmd);

// Runs script in bash after sourcing tests/guest/lib.sh (its ub_nspair_*,
// ub_load_stack ... and the bed's names UB_NS_A, UB_IP4_B ...); its exit
// status, -1 without UB_TOP and UB_KMOD (check-guest.sh sets them).
int lib_sh(const std::string &script);

// Loads the module at path with the given parameters ("netdev=lo"), as
// insmod does (finit_module), and unloads a module by name, as rmmod does
// (delete_module, O_NONBLOCK). Without the shell and insmod/rmmod: under the
// debug test kernel each exec costs seconds. On failure they print why
// (strerror) to stderr and return false.
bool insmod(const std::string &path, const std::string &params = "");
bool rmmod(const std::string &name);

// Loads every module of the stack; udma is bound to the given netdevs
// ("lo", "lo,veth0"); nothing is bound when empty. Returns false (and
// unloads what it loaded) on failure.
bool load_stack(const std::string &udma_netdevs = "lo");

// Unloads the stack in reverse order; false if a module stayed loaded.
bool unload_stack();

// Whether a module is loaded now.
bool module_loaded(const std::string &name);

// Whether this is "make check-long" (UB_CHECK_LONG set): stress and soak
// tests then run their long counts.
bool check_long();

// Polls pred every 50 ms for up to timeout_ms.
template <typename Pred> bool wait_for(Pred pred, int timeout_ms = 5000)
{
    for (int waited = 0; waited <= timeout_ms; waited += 50) {
        if (pred())
            return true;
        usleep(50 * 1000);
    }
    return false;
}

}  // namespace ub_itest
