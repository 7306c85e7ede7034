// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The UB/URMA stack authors
// urma_admin from its arguments to its output and exit code.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "backend.h"

namespace urma_admin {

// The version -V prints (the project's, from CMake).
const char *version();

// Runs the command line (without the program name) against @backend:
// results to @out, "urma_admin: <what>: <cause>" lines to @err. Returns
// kExitOk, kExitRuntime or kExitUsage (cli.h).
int run(const std::vector<std::string> &args, Backend &backend, std::ostream &out, std::ostream &err);

}  // namespace urma_admin
