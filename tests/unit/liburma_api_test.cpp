// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The UB/URMA stack authors
// The whole of urma_api.h from a C program (urma_api_all.c), linked against
// the shared liburma: every declared function is defined (the link), each
// refuses invalid arguments as the API says (the run), and none of the
// header's functions is left out of the program (the comparison); and
// docs/umdk-api.md gives each function of the header its status.
#include <gtest/gtest.h>

#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>

#include "urma_api_all.h"

namespace {

std::string slurp(const char *path)
{
    std::ifstream in(path);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

// Names of the form urma_xxx( in text, comments removed first.
std::set<std::string> called_names(std::string text)
{
    text = std::regex_replace(text, std::regex(R"(/\*[\s\S]*?\*/)"), " ");
    std::set<std::string> names;
    std::regex call(R"(\b(urma_[a-z0-9_]+)\s*\()");
    for (std::sregex_iterator it(text.begin(), text.end(), call), end; it != end; ++it)
        names.insert((*it)[1]);
    return names;
}

TEST(LiburmaApi, HeaderDeclares128Functions)
{
    // UMDK's urma_api.h declares 128 functions (issue 16).
    EXPECT_EQ(called_names(slurp(URMA_API_HEADER)).size(), 128u);
}

TEST(LiburmaApi, ProgramCallsEveryFunction)
{
    std::set<std::string> declared = called_names(slurp(URMA_API_HEADER));
    std::set<std::string> called = called_names(slurp(URMA_API_ALL_SOURCE));
    for (const std::string &name : declared)
        EXPECT_TRUE(called.count(name)) << name << " is not called by urma_api_all.c";
}

// docs/umdk-api.md: one line per function of the header, each once, each
// with one of the page's three statuses.
TEST(LiburmaApi, DocListsEveryFunctionWithItsStatus)
{
    std::set<std::string> declared = called_names(slurp(URMA_API_HEADER));
    std::set<std::string> listed;
    std::istringstream doc(slurp(UMDK_API_DOC));
    std::regex line(R"(^- `(urma_[a-z0-9_]+)`: (works with limits|works|refused)(\.| .+)$)");
    std::string text;
    while (std::getline(doc, text)) {
        if (text.rfind("- `urma_", 0) != 0)
            continue;
        std::smatch m;
        if (!std::regex_match(text, m, line)) {
            ADD_FAILURE() << "no status: " << text;
            continue;
        }
        EXPECT_TRUE(listed.insert(m[1]).second) << m[1] << " is listed twice";
        EXPECT_TRUE(declared.count(m[1])) << m[1] << " is not in urma_api.h";
    }
    for (const std::string &name : declared)
        EXPECT_TRUE(listed.count(name)) << name << " is not in docs/umdk-api.md";
}

TEST(LiburmaApi, EveryFunctionRefusesInvalidArguments)
{
    const char *fail = urma_api_call_all();
    EXPECT_EQ(fail, nullptr) << fail;
}

}  // namespace
