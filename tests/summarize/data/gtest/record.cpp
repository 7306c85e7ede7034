// SPDX-License-Identifier: MIT
// The recorded reports of this directory, from GoogleTest 1.12.1 (Debian 12):
//   g++ -std=c++17 record.cpp -lgtest -lgtest_main -pthread -o t
//   MODE=ok|setup|teardown|skip ./t --gtest_output=json:MODE.json
// (passing.json, setup-fails.json, teardown-fails.json, skip.json) and
// the exit statuses 0, 1, 1, 0. Not built by CMake.
#include <gtest/gtest.h>
#include <cstdlib>
#include <cstring>
static const char *mode() { const char *m = getenv("MODE"); return m ? m : ""; }
class Fx : public ::testing::Test {
protected:
  static void SetUpTestSuite() { if (!strcmp(mode(), "setup")) FAIL() << "setup broke"; }
  static void TearDownTestSuite() { if (!strcmp(mode(), "teardown")) ADD_FAILURE() << "teardown broke"; }
};
TEST_F(Fx, One) { if (!strcmp(mode(), "exit")) exit(0); if (!strcmp(mode(), "abort")) abort(); }
TEST_F(Fx, Two) { if (!strcmp(mode(), "skip")) GTEST_SKIP() << "no device here"; }
TEST(Plain, Three) {}
TEST(Plain, DISABLED_Four) {}
class P : public ::testing::TestWithParam<int> {};
TEST_P(P, Param) { EXPECT_GE(GetParam(), 0); }
INSTANTIATE_TEST_SUITE_P(Inst, P, ::testing::Values(1, 2));
