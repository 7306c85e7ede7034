// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The UB/URMA stack authors
// urma_admin: query and configure UB devices (user guide 6.4.2).
#include <iostream>
#include <string>
#include <vector>

#include "app.h"
#include "nl_client.h"

int main(int argc, char **argv)
{
    std::vector<std::string> args(argv + 1, argv + argc);
    urma_admin::NlClient client;

    return urma_admin::run(args, client, std::cout, std::cerr);
}
