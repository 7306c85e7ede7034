// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The UB/URMA stack authors
//
// libroub against Debian's real libibverbs (rdma-core 44): the provider
// loads with RTLD_NOW (every IBVERBS_PRIVATE_34 symbol it takes is there,
// with that version), registers one driver at load, with the ABI version
// roub.ko gives its devices and a name match that takes roub_<UB device>
// and nothing else. A RoUB device to open exists only in the guest
// (tests/guest/cases/roub-verbs-user.sh).
#include <dlfcn.h>
#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include <ub/roub_abi.h>

#include "libroub_probe.h"

namespace {

TEST(LibroubAbi, LoadsAgainstRealLibibverbs)
{
    void *ibv = dlopen("libibverbs.so.1", RTLD_NOW | RTLD_GLOBAL);
    ASSERT_NE(ibv, nullptr) << dlerror();
    // libibverbs' own provider has the same private ABI: the pin holds.
    EXPECT_NE(dlvsym(ibv, "verbs_register_driver_34", "IBVERBS_PRIVATE_34"), nullptr)
        << "libibverbs.so.1 is not of IBVERBS_PRIVATE_34";
    EXPECT_NE(dlvsym(ibv, "verbs_set_ops", "IBVERBS_PRIVATE_34"), nullptr);

    ASSERT_EQ(probe_registrations(), 0);
    void *prov = dlopen(LIBROUB_SO, RTLD_NOW | RTLD_LOCAL);
    ASSERT_NE(prov, nullptr) << dlerror();
    EXPECT_EQ(probe_registrations(), 1);
    ASSERT_NE(probe_name(), nullptr);
    EXPECT_EQ(std::string(probe_name()), "roub");
    unsigned int min = 0, max = 0;
    probe_abi(&min, &max);
    EXPECT_EQ(min, static_cast<unsigned int>(ROUB_UVERBS_ABI_VERSION));
    EXPECT_EQ(max, static_cast<unsigned int>(ROUB_UVERBS_ABI_VERSION));
    EXPECT_TRUE(probe_has_ops());
    EXPECT_TRUE(probe_matches("roub_udma0"));
    EXPECT_TRUE(probe_matches("roub_udmaA"));
    EXPECT_FALSE(probe_matches("rxe0"));
    EXPECT_FALSE(probe_matches("mlx5_0"));
    // The provider exports nothing: libibverbs finds it by its constructor.
    EXPECT_EQ(dlsym(prov, "roub_alloc_context"), nullptr);
    dlclose(prov);
    dlclose(ibv);
}

TEST(LibroubAbi, DriverFileNamesTheProvider)
{
    FILE *f = std::fopen(LIBROUB_DRIVER_FILE, "r");
    ASSERT_NE(f, nullptr);
    char line[512];
    std::string driver;
    while (std::fgets(line, sizeof(line), f) != nullptr)
        if (std::string(line).rfind("driver ", 0) == 0)
            driver = std::string(line + 7);
    std::fclose(f);
    while (!driver.empty() && (driver.back() == '\n' || driver.back() == ' '))
        driver.pop_back();
    // libibverbs (dynamic_driver.c) dlopen()s "<path>-rdmav34.so" for an
    // absolute path: the installed library's name.
    ASSERT_FALSE(driver.empty());
    EXPECT_EQ(driver.front(), '/');
    EXPECT_EQ(driver.substr(driver.rfind('/') + 1), "libroub");
}

}  // namespace
