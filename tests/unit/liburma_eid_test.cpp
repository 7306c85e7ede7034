// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The UB/URMA stack authors
// urma_str_to_eid / urma_u32_to_eid: the text forms applications pass.
#include <gtest/gtest.h>

#include <cerrno>
#include <cstring>

#include "urma_api.h"

namespace {

class EidTest : public ::testing::Test {
protected:
    void SetUp() override
    {
        // Keep expected parse errors out of the test log.
        saved_ = urma_log_get_level();
        urma_log_set_level(URMA_VLOG_LEVEL_EMERG);
        std::memset(&eid_, 0xa5, sizeof(eid_));
    }
    void TearDown() override { urma_log_set_level(saved_); }

    urma_eid_t eid_;
    urma_vlog_level_t saved_;
};

const uint8_t kMapped10_0_0_2[URMA_EID_SIZE] = {0, 0, 0, 0, 0, 0, 0, 0,
                                                0, 0, 0xff, 0xff, 10, 0, 0, 2};

TEST_F(EidTest, Ipv6TextIsTheRawEid)
{
    ASSERT_EQ(urma_str_to_eid("fe80::1:2", &eid_), 0);
    const uint8_t want[URMA_EID_SIZE] = {0xfe, 0x80, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 2};
    EXPECT_EQ(std::memcmp(eid_.raw, want, sizeof(want)), 0);
}

TEST_F(EidTest, DottedIpv4IsMapped)
{
    ASSERT_EQ(urma_str_to_eid("10.0.0.2", &eid_), 0);
    EXPECT_EQ(std::memcmp(eid_.raw, kMapped10_0_0_2, URMA_EID_SIZE), 0);
    EXPECT_EQ(eid_.in4.reserved, 0u);
    EXPECT_EQ(eid_.in4.prefix, htonl(URMA_IPV4_MAP_IPV6_PREFIX));
}

TEST_F(EidTest, MappedIpv6TextEqualsDottedIpv4)
{
    urma_eid_t other;

    ASSERT_EQ(urma_str_to_eid("::ffff:10.0.0.2", &other), 0);
    EXPECT_EQ(std::memcmp(other.raw, kMapped10_0_0_2, URMA_EID_SIZE), 0);
}

TEST_F(EidTest, NumberIsHostOrderIpv4)
{
    ASSERT_EQ(urma_str_to_eid("0x0a000002", &eid_), 0);
    EXPECT_EQ(std::memcmp(eid_.raw, kMapped10_0_0_2, URMA_EID_SIZE), 0);
    ASSERT_EQ(urma_str_to_eid("167772162", &eid_), 0);
    EXPECT_EQ(std::memcmp(eid_.raw, kMapped10_0_0_2, URMA_EID_SIZE), 0);
}

TEST_F(EidTest, U32ToEid)
{
    urma_u32_to_eid(0x0a000002, &eid_);
    EXPECT_EQ(std::memcmp(eid_.raw, kMapped10_0_0_2, URMA_EID_SIZE), 0);
}

TEST_F(EidTest, RejectsGarbageAndLeavesEidAlone)
{
    const char *bad[] = {"", "fe80::1::2", "1.2.3.4.5", "256.0.0.1", "0x100000000",
                         "-1", "12ab", "1.2.3.4 ", " 1.2.3.4", "hello"};
    for (const char *s : bad) {
        EXPECT_EQ(urma_str_to_eid(s, &eid_), -EINVAL) << "input \"" << s << "\"";
        EXPECT_EQ(eid_.raw[0], 0xa5) << "input \"" << s << "\"";
        EXPECT_EQ(eid_.raw[15], 0xa5) << "input \"" << s << "\"";
    }
}

TEST_F(EidTest, RejectsNullArguments)
{
    EXPECT_EQ(urma_str_to_eid(nullptr, &eid_), -EINVAL);
    EXPECT_EQ(urma_str_to_eid("10.0.0.2", nullptr), -EINVAL);
}

}  // namespace
