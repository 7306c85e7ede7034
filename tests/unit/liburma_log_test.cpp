// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The UB/URMA stack authors
// liburma's log sink and level: what reaches a registered callback.
#include <gtest/gtest.h>

#include <string>
#include <thread>
#include <vector>

#include "urma_api.h"

namespace {

struct Record {
    int level;
    std::string file;
    std::string message;
};
std::vector<Record> g_records;

void capture(int level, char *message)
{
    g_records.push_back({level, "", message});
}

void capture_loc(int level, const char *file, const char *, int, char *message)
{
    g_records.push_back({level, file, message});
}

class LogTest : public ::testing::Test {
protected:
    void SetUp() override
    {
        saved_ = urma_log_get_level();
        g_records.clear();
    }
    void TearDown() override
    {
        urma_unregister_log_func();
        urma_log_set_level(saved_);
    }
    // An invalid EID is a known way to make liburma log an error.
    static void provoke_error()
    {
        urma_eid_t eid;
        ASSERT_NE(urma_str_to_eid("not-an-eid", &eid), 0);
    }
    urma_vlog_level_t saved_;
};

TEST_F(LogTest, RegisteredCallbackReceivesErrors)
{
    ASSERT_EQ(urma_register_log_func(capture), URMA_SUCCESS);
    urma_log_set_level(URMA_VLOG_LEVEL_INFO);
    provoke_error();
    ASSERT_EQ(g_records.size(), 1u);
    EXPECT_EQ(g_records[0].level, URMA_VLOG_LEVEL_ERR);
    EXPECT_NE(g_records[0].message.find("not-an-eid"), std::string::npos);
}

TEST_F(LogTest, LevelFiltersMessages)
{
    ASSERT_EQ(urma_register_log_func(capture), URMA_SUCCESS);
    urma_log_set_level(URMA_VLOG_LEVEL_CRIT);
    EXPECT_EQ(urma_log_get_level(), URMA_VLOG_LEVEL_CRIT);
    provoke_error();
    EXPECT_TRUE(g_records.empty());
}

TEST_F(LogTest, OutOfRangeLevelIsIgnored)
{
    urma_log_set_level(URMA_VLOG_LEVEL_WARNING);
    urma_log_set_level(URMA_VLOG_LEVEL_MAX);
    EXPECT_EQ(urma_log_get_level(), URMA_VLOG_LEVEL_WARNING);
    urma_log_set_level(static_cast<urma_vlog_level_t>(100));
    EXPECT_EQ(urma_log_get_level(), URMA_VLOG_LEVEL_WARNING);
}

TEST_F(LogTest, NullCallbackIsRejected)
{
    EXPECT_EQ(urma_register_log_func(nullptr), URMA_EINVAL);
    EXPECT_EQ(urma_register_loc_log_func(nullptr), URMA_EINVAL);
}

TEST_F(LogTest, LocationCallbackGetsSourceFile)
{
    ASSERT_EQ(urma_register_loc_log_func(capture_loc), URMA_SUCCESS);
    urma_log_set_level(URMA_VLOG_LEVEL_ERR);
    provoke_error();
    ASSERT_EQ(g_records.size(), 1u);
    EXPECT_EQ(g_records[0].file, "eid.cpp");
}

TEST_F(LogTest, UnregisterStopsDelivery)
{
    ASSERT_EQ(urma_register_log_func(capture), URMA_SUCCESS);
    ASSERT_EQ(urma_unregister_log_func(), URMA_SUCCESS);
    // The error goes to syslog now, not to the removed callback.
    urma_log_set_level(URMA_VLOG_LEVEL_ERR);
    provoke_error();
    EXPECT_TRUE(g_records.empty());
}

// urma_log_set_thread_tag (UMDK): "-" until set, per thread, in each of the
// thread's messages between the thread ID and the function; a tag of
// URMA_MAX_NAME (64) characters or more, or NULL, is refused and the old
// one kept.
TEST_F(LogTest, ThreadTagIsPerThreadAndInEachMessage)
{
    std::string other;
    std::thread([&other] { other = urma_log_get_thread_tag(); }).join();
    EXPECT_EQ(other, "-");

    urma_log_set_thread_tag("worker-7");
    EXPECT_STREQ(urma_log_get_thread_tag(), "worker-7");
    std::thread([&other] { other = urma_log_get_thread_tag(); }).join();
    EXPECT_EQ(other, "-");

    ASSERT_EQ(urma_register_log_func(capture), URMA_SUCCESS);
    urma_log_set_level(URMA_VLOG_LEVEL_INFO);
    provoke_error();
    ASSERT_EQ(g_records.size(), 1u);
    EXPECT_NE(g_records[0].message.find("|worker-7|"), std::string::npos) << g_records[0].message;

    g_records.clear();
    urma_log_set_thread_tag(std::string(64, 'x').c_str());
    EXPECT_STREQ(urma_log_get_thread_tag(), "worker-7");
    ASSERT_EQ(g_records.size(), 1u);  // the refusal is logged
    EXPECT_EQ(g_records[0].level, URMA_VLOG_LEVEL_ERR);
    urma_log_set_thread_tag(nullptr);
    EXPECT_STREQ(urma_log_get_thread_tag(), "worker-7");
    const std::string longest(63, 'y');
    urma_log_set_thread_tag(longest.c_str());
    EXPECT_EQ(std::string(urma_log_get_thread_tag()), longest);
    urma_log_set_thread_tag("-");
}

}  // namespace
