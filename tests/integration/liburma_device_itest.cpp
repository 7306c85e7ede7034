// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The UB/URMA stack authors
// liburma's device and context calls against ubcore, uburma and udma on lo.
#include <gtest/gtest.h>

#include <arpa/inet.h>
#include <sys/ioctl.h>
#include <sys/stat.h>

#include <ub/uburma_ioctl.h>

#include <cerrno>
#include <cstring>
#include <string>

#include "stack.h"
#include "urma_api.h"

namespace {

class DeviceTest : public ::testing::Test {
protected:
    static void SetUpTestSuite()
    {
        ASSERT_TRUE(ub_itest::load_stack("lo"));
        // The EID table is filled by a work item after registration.
        ASSERT_TRUE(ub_itest::wait_for([] {
            struct stat st;
            return stat("/sys/class/ubcore/udma0/eids/eid0", &st) == 0 &&
                   stat("/dev/uburma/udma0", &st) == 0;
        }));
    }
    static void TearDownTestSuite() { EXPECT_TRUE(ub_itest::unload_stack()); }

    void SetUp() override { ASSERT_EQ(urma_init(nullptr), URMA_SUCCESS); }
    void TearDown() override { EXPECT_EQ(urma_uninit(), URMA_SUCCESS); }

    static urma_device_t *udma0()
    {
        char name[] = "udma0";
        return urma_get_device_by_name(name);
    }
};

bool has_eid(const urma_eid_info_t *list, uint32_t cnt, const char *text)
{
    urma_eid_t want;

    if (urma_str_to_eid(text, &want) != 0)
        return false;
    for (uint32_t i = 0; i < cnt; i++)
        if (std::memcmp(list[i].eid.raw, want.raw, sizeof(want.raw)) == 0)
            return true;
    return false;
}

TEST_F(DeviceTest, InitTwiceIsEexist)
{
    EXPECT_EQ(urma_init(nullptr), URMA_EEXIST);
}

TEST_F(DeviceTest, UasidChosenOrGiven)
{
    uint32_t uasid = 0;

    ASSERT_EQ(urma_get_uasid(&uasid), URMA_SUCCESS);
    EXPECT_NE(uasid, 0u);
    EXPECT_EQ(urma_get_uasid(nullptr), URMA_EINVAL);

    ASSERT_EQ(urma_uninit(), URMA_SUCCESS);
    urma_init_attr_t attr = {};
    attr.uasid = 4242;
    ASSERT_EQ(urma_init(&attr), URMA_SUCCESS);
    ASSERT_EQ(urma_get_uasid(&uasid), URMA_SUCCESS);
    EXPECT_EQ(uasid, 4242u);
}

TEST_F(DeviceTest, DeviceListHasUdma0)
{
    int n = -1;
    urma_device_t **list = urma_get_device_list(&n);

    ASSERT_NE(list, nullptr);
    ASSERT_EQ(n, 1);
    EXPECT_STREQ(list[0]->name, "udma0");
    EXPECT_EQ(list[0]->type, URMA_TRANSPORT_UB);
    EXPECT_STREQ(list[0]->path, "/sys/class/ubcore/udma0");
    EXPECT_EQ(list[1], nullptr);
    urma_free_device_list(list);

    errno = 0;
    EXPECT_EQ(urma_get_device_list(nullptr), nullptr);
    EXPECT_EQ(errno, EINVAL);
}

TEST_F(DeviceTest, ByName)
{
    char unknown[] = "nosuchdev";

    EXPECT_NE(udma0(), nullptr);
    errno = 0;
    EXPECT_EQ(urma_get_device_by_name(unknown), nullptr);
    EXPECT_EQ(errno, ENODEV);
    EXPECT_EQ(urma_get_device_by_name(nullptr), nullptr);
}

TEST_F(DeviceTest, QueryDeviceMatchesSysfs)
{
    urma_device_attr_t attr;
    urma_device_t *dev = udma0();

    ASSERT_NE(dev, nullptr);
    ASSERT_EQ(urma_query_device(dev, &attr), URMA_SUCCESS);
    FILE *f = std::fopen("/sys/class/ubcore/udma0/max_jfc", "r");
    ASSERT_NE(f, nullptr);
    unsigned int max_jfc = 0;
    ASSERT_EQ(std::fscanf(f, "%u", &max_jfc), 1);
    std::fclose(f);
    EXPECT_EQ(attr.dev_cap.max_jfc, max_jfc);
    EXPECT_GT(attr.dev_cap.max_jfs_depth, 0u);
    EXPECT_EQ(attr.dev_cap.max_jfs_rsge, 1u);
    EXPECT_EQ(attr.port_cnt, 1);
    // lo is up: the port is active with an MTU of at least 1024 bytes.
    EXPECT_EQ(attr.port_attr[0].state, URMA_PORT_ACTIVE);
    EXPECT_GE(attr.port_attr[0].active_mtu, URMA_MTU_1024);
    // Every atomic URMA can post; the kernel's FAND bit (64) lands in
    // fetch_and_and, which sits between fetch_and_sub and fetch_and_or.
    EXPECT_TRUE(attr.dev_cap.atomic_feat.bs.cas);
    EXPECT_TRUE(attr.dev_cap.atomic_feat.bs.swap);
    EXPECT_TRUE(attr.dev_cap.atomic_feat.bs.fetch_and_add);
    EXPECT_TRUE(attr.dev_cap.atomic_feat.bs.fetch_and_sub);
    EXPECT_TRUE(attr.dev_cap.atomic_feat.bs.fetch_and_and);
    EXPECT_TRUE(attr.dev_cap.atomic_feat.bs.fetch_and_or);
    EXPECT_TRUE(attr.dev_cap.atomic_feat.bs.fetch_and_xor);
    EXPECT_EQ(attr.dev_cap.atomic_feat.value, 0x7fu);

    EXPECT_EQ(urma_query_device(nullptr, &attr), URMA_EINVAL);
    EXPECT_EQ(urma_query_device(dev, nullptr), URMA_EINVAL);
    urma_device_t fake = *dev;
    EXPECT_EQ(urma_query_device(&fake, &attr), URMA_EINVAL);
}

TEST_F(DeviceTest, EidListFollowsLo)
{
    uint32_t cnt = 0;
    urma_eid_info_t *list = urma_get_eid_list(udma0(), &cnt);

    ASSERT_NE(list, nullptr);
    EXPECT_TRUE(has_eid(list, cnt, "127.0.0.1"));
    EXPECT_TRUE(has_eid(list, cnt, "::1"));
    urma_free_eid_list(list);

    // An address added to lo becomes an EID; removed, it goes away.
    ASSERT_EQ(ub_itest::run("ip addr add 127.0.0.77/8 dev lo"), 0);
    EXPECT_TRUE(ub_itest::wait_for([] {
        uint32_t n = 0;
        urma_eid_info_t *l = urma_get_eid_list(udma0(), &n);
        bool found = has_eid(l, n, "127.0.0.77");
        urma_free_eid_list(l);
        return found;
    }));
    urma_eid_t eid;
    ASSERT_EQ(urma_str_to_eid("127.0.0.77", &eid), 0);
    EXPECT_EQ(urma_get_device_by_eid(eid, URMA_TRANSPORT_UB), udma0());
    // UMDK searches the devices of the given transport type only: udma's
    // are UB, so no other type finds one (ENODEV, as for an unknown EID).
    for (urma_transport_type_t other : {URMA_TRANSPORT_IB, URMA_TRANSPORT_IP, URMA_TRANSPORT_SOFTUB,
                                        URMA_TRANSPORT_HNS_UB, URMA_TRANSPORT_INVALID}) {
        errno = 0;
        EXPECT_EQ(urma_get_device_by_eid(eid, other), nullptr) << other;
        EXPECT_EQ(errno, ENODEV) << other;
    }
    ASSERT_EQ(ub_itest::run("ip addr del 127.0.0.77/8 dev lo"), 0);
    EXPECT_TRUE(ub_itest::wait_for([] {
        uint32_t n = 0;
        urma_eid_info_t *l = urma_get_eid_list(udma0(), &n);
        bool found = has_eid(l, n, "127.0.0.77");
        urma_free_eid_list(l);
        return !found;
    }));
    errno = 0;
    EXPECT_EQ(urma_get_device_by_eid(eid, URMA_TRANSPORT_UB), nullptr);
    EXPECT_EQ(errno, ENODEV);

    EXPECT_EQ(urma_get_eid_list(nullptr, &cnt), nullptr);
    EXPECT_EQ(urma_get_eid_list(udma0(), nullptr), nullptr);
}

TEST_F(DeviceTest, ContextOnAValidEid)
{
    uint32_t cnt = 0;
    urma_eid_info_t *list = urma_get_eid_list(udma0(), &cnt);
    ASSERT_NE(list, nullptr);
    uint32_t idx = list[0].eid_index;
    urma_eid_t eid = list[0].eid;
    urma_free_eid_list(list);

    urma_context_t *ctx = urma_create_context(udma0(), idx);
    ASSERT_NE(ctx, nullptr);
    EXPECT_EQ(ctx->dev, udma0());
    EXPECT_EQ(ctx->eid_index, idx);
    EXPECT_EQ(std::memcmp(ctx->eid.raw, eid.raw, sizeof(eid.raw)), 0);
    EXPECT_GE(ctx->dev_fd, 0);
    EXPECT_EQ(urma_delete_context(ctx), URMA_SUCCESS);

    errno = 0;
    EXPECT_EQ(urma_create_context(udma0(), 63), nullptr);
    EXPECT_EQ(errno, EINVAL);
    EXPECT_EQ(urma_create_context(nullptr, 0), nullptr);
    EXPECT_EQ(urma_delete_context(nullptr), URMA_EINVAL);
}

// Removing the device (udma unload) while a context is open: the file turns
// dead, queries fail, closing it still works, and the unload completes.
TEST_F(DeviceTest, DeviceRemovalWithOpenContext)
{
    urma_context_t *ctx = urma_create_context(udma0(), 0);
    ASSERT_NE(ctx, nullptr);
    urma_device_t *dev = ctx->dev;

    ASSERT_TRUE(ub_itest::rmmod("udma"));
    // The open file is dead: a command on it fails with EIO.
    struct uburma_cmd_query_device q = {};
    struct uburma_cmd_hdr hdr = {};
    hdr.command = UBURMA_CMD_QUERY_DEVICE;
    hdr.args_len = sizeof(q);
    hdr.args_addr = reinterpret_cast<uintptr_t>(&q);
    EXPECT_EQ(ioctl(ctx->dev_fd, UBURMA_CMD, &hdr), -1);
    EXPECT_EQ(errno, EIO);
    // And the device is gone for new users.
    urma_device_attr_t attr;
    EXPECT_NE(urma_query_device(dev, &attr), URMA_SUCCESS);
    EXPECT_EQ(urma_delete_context(ctx), URMA_SUCCESS);

    std::string kmod = std::getenv("UB_KMOD");
    ASSERT_TRUE(ub_itest::insmod(kmod + "/udma/udma.ko", "netdev=lo"));
    EXPECT_TRUE(ub_itest::wait_for([] {
        struct stat st;
        return stat("/sys/class/ubcore/udma0/eids/eid0", &st) == 0;
    }));
}

}  // namespace
