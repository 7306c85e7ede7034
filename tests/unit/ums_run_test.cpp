// SPDX-License-Identifier: MIT
// ums_run's command line: options, the command, and the UMS User Guide's
// error messages.
#include <gtest/gtest.h>

#include "cli.h"

namespace {

using ums_run::Options;
using ums_run::parse;

TEST(UmsRunCli, CommandAndItsOptions)
{
	Options o;
	std::string err;
	ASSERT_TRUE(parse({"iperf3", "-c", "10.0.0.1", "-d"}, &o, &err));
	EXPECT_FALSE(o.debug);
	EXPECT_EQ(o.command,
		  (std::vector<std::string>{"iperf3", "-c", "10.0.0.1", "-d"}));
}

TEST(UmsRunCli, DebugThenCommand)
{
	Options o;
	std::string err;
	ASSERT_TRUE(parse({"-d", "--", "-weird-name", "x"}, &o, &err));
	EXPECT_TRUE(o.debug);
	EXPECT_EQ(o.command, (std::vector<std::string>{"-weird-name", "x"}));
}

TEST(UmsRunCli, Help)
{
	Options o;
	std::string err;
	ASSERT_TRUE(parse({"--help"}, &o, &err));
	EXPECT_TRUE(o.help);
	EXPECT_NE(ums_run::usage().find("usage: ums_run"), std::string::npos);
}

TEST(UmsRunCli, GuideErrors)
{
	Options o;
	std::string err;
	EXPECT_FALSE(parse({}, &o, &err));
	EXPECT_EQ(err, "Error: Missing command param");
	EXPECT_FALSE(parse({"-d"}, &o, &err));
	EXPECT_EQ(err, "Error: Missing command param");
	EXPECT_FALSE(parse({"-x", "ls"}, &o, &err));
	EXPECT_EQ(err, "Error: invalid option: -x");
}

}  // namespace
