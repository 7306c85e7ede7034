// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The UB/URMA stack authors
// urma_perftest end to end: a server and a client process of the built
// tool on udma0 (bound to lo), over 127.0.0.1, for every command in RM and
// RC (and UM for the sends), with --json read back; -a, -e, --enable_imm,
// --sge_num, -J/-l/-Q, -b/-f with --check; the errors (no server, no such
// device, a refused constraint); and no object left behind on udma0.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "json.h"
#include "stack.h"
#include "urma_itest.h"

namespace {

using perftest::JsonValue;

struct Proc {
    pid_t pid = -1;
    std::string out_path, err_path;
};

struct Outcome {
    int rc = -1;
    std::string out, err;
};

std::string slurp(const std::string &path)
{
    std::ifstream f(path);
    std::stringstream ss;
    ss << f.rdbuf();
    return ss.str();
}

// Starts the tool with args, stdout and stderr into files named by tag.
// posix_spawn, not fork: the child shares this process's memory until its
// exec instead of copying its page tables (a fork costs about 0.25 s in
// the test guest, and a run spawns two processes).
Proc spawn(const std::vector<std::string> &args, const std::string &tag)
{
    Proc p;
    p.out_path = "/tmp/perftest-" + tag + ".out";
    p.err_path = "/tmp/perftest-" + tag + ".err";
    std::vector<std::string> full = {URMA_PERFTEST_PATH};
    full.insert(full.end(), args.begin(), args.end());
    std::vector<char *> argv;
    for (std::string &s : full)
        argv.push_back(s.data());
    argv.push_back(nullptr);
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 1, p.out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_addopen(&fa, 2, p.err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (posix_spawn(&p.pid, argv[0], &fa, nullptr, argv.data(), environ) != 0)
        p.pid = -1;
    posix_spawn_file_actions_destroy(&fa);
    return p;
}

// Waits up to timeout_s for p, then kills it (rc -1).
Outcome finish(const Proc &p, int timeout_s = 90)
{
    Outcome o;
    if (p.pid < 0) {
        ADD_FAILURE() << "could not start " << URMA_PERFTEST_PATH;
        return o;
    }
    int status = 0;
    for (int waited = 0;; waited += 50) {
        pid_t r = waitpid(p.pid, &status, WNOHANG);
        if (r == p.pid)
            break;
        if (waited > timeout_s * 1000) {
            kill(p.pid, SIGKILL);
            waitpid(p.pid, &status, 0);
            ADD_FAILURE() << "urma_perftest did not finish within " << timeout_s << " s";
            status = -1;
            break;
        }
        usleep(50 * 1000);
    }
    o.rc = status >= 0 && WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    o.out = slurp(p.out_path);
    o.err = slurp(p.err_path);
    return o;
}

// Whether a TCP socket listens on port (/proc/net/tcp, state 0A).
bool listening(unsigned port)
{
    std::ifstream f("/proc/net/tcp");
    std::string line;
    char want[16];
    std::snprintf(want, sizeof(want), ":%04X", port);
    while (std::getline(f, line)) {
        std::istringstream ls(line);
        std::string sl, local, remote, st;
        ls >> sl >> local >> remote >> st;
        if (local.size() > 5 && local.compare(local.size() - 5, 5, want) == 0 && st == "0A")
            return true;
    }
    return false;
}

class PerftestTest : public ub_itest::StackTest {
protected:
    void TearDown() override
    {
        // Both processes are gone: nothing of theirs is left on udma0.
        EXPECT_TRUE(ub_itest::wait_for([] { return ub_itest::all_counts_zero(); }, 5000)) << ub_itest::counts();
    }

    // Runs server and client with the same args (the client adds -S and
    // --json); the client's JSON is parsed into *json.
    void pair(std::vector<std::string> args, JsonValue *json, Outcome *client = nullptr)
    {
        const unsigned port = next_port_++;
        args.insert(args.end(), {"-d", "udma0", "-P", std::to_string(port)});
        Proc srv = spawn(args, "server");
        bool up = ub_itest::wait_for([&] { return listening(port); }, 30000);
        args.insert(args.end(), {"-S", "127.0.0.1", "--json"});
        Outcome c = up ? finish(spawn(args, "client")) : Outcome();
        Outcome s = finish(srv, up ? 30 : 1);
        ASSERT_TRUE(up) << "the server never listened: " << s.err;
        EXPECT_EQ(s.rc, 0) << "server: " << s.err;
        ASSERT_EQ(c.rc, 0) << "client: " << c.err;
        std::string err;
        ASSERT_TRUE(perftest::json_parse(c.out, json, &err)) << err << " in: " << c.out;
        if (client != nullptr)
            *client = c;
    }

    static void expect_bw(const JsonValue &v, const std::string &test, const std::string &mode, double size,
                          double iters)
    {
        ASSERT_EQ(v.type, JsonValue::Type::Object);
        ASSERT_NE(v.get("bw_avg_MBps"), nullptr);
        EXPECT_EQ(v.get("test")->str, test);
        EXPECT_EQ(v.get("trans_mode")->str, mode);
        EXPECT_EQ(v.get("size")->num, size);
        EXPECT_EQ(v.get("iterations")->num, iters);
        EXPECT_GT(v.get("bw_avg_MBps")->num, 0);
        EXPECT_GE(v.get("bw_peak_MBps")->num, v.get("bw_avg_MBps")->num);
        EXPECT_GT(v.get("msg_rate_Mpps")->num, 0);
    }

    static void expect_lat(const JsonValue &v, const std::string &test, const std::string &mode, double size,
                           double iters)
    {
        ASSERT_EQ(v.type, JsonValue::Type::Object);
        const JsonValue *l = v.get("lat_us");
        ASSERT_NE(l, nullptr);
        EXPECT_EQ(v.get("test")->str, test);
        EXPECT_EQ(v.get("trans_mode")->str, mode);
        EXPECT_EQ(v.get("size")->num, size);
        EXPECT_EQ(v.get("iterations")->num, iters);
        double min = l->get("min")->num, med = l->get("median")->num, p99 = l->get("p99")->num;
        double p999 = l->get("p99_9")->num, max = l->get("max")->num, avg = l->get("avg")->num;
        EXPECT_GT(min, 0);
        EXPECT_LE(min, med);
        EXPECT_LE(med, p99);
        EXPECT_LE(p99, p999);
        EXPECT_LE(p999, max);
        EXPECT_LE(min, avg);
        EXPECT_LE(avg, max);
    }

    // One process of the tool alone (usage errors, no server).
    static Outcome alone(const std::vector<std::string> &args) { return finish(spawn(args, "alone"), 60); }

    static unsigned next_port_;
};

unsigned PerftestTest::next_port_ = 21200;

constexpr int kIters = 200;

// Every command in RM and RC, the sends in UM too, with --check where the
// tool can verify the data.
TEST_F(PerftestTest, EveryCommandAndMode)
{
    struct Case {
        const char *cmd;
        const char *size;
        bool check;
    };
    const Case cases[] = {{"read_lat", "64", true},  {"write_lat", "64", true}, {"send_lat", "64", true},
                          {"atomic_lat", "8", true}, {"read_bw", "4096", true}, {"write_bw", "4096", true},
                          {"send_bw", "4096", true}, {"atomic_bw", "8", false}};
    for (const char *mode : {"RM", "RC", "UM"}) {
        for (const Case &c : cases) {
            const std::string cmd = c.cmd;
            if (std::string(mode) == "UM" && cmd.rfind("send", 0) != 0)
                continue;
            SCOPED_TRACE(cmd + " " + mode);
            std::vector<std::string> args = {cmd, "-n", std::to_string(kIters), "-s", c.size, "-p", mode};
            if (c.check)
                args.push_back("--check");
            JsonValue v;
            pair(args, &v);
            if (cmd.find("_bw") != std::string::npos)
                expect_bw(v, cmd, mode, std::stod(c.size), kIters);
            else
                expect_lat(v, cmd, mode, std::stod(c.size), kIters);
        }
    }
}

// -a: one result per size 2 .. 2^order.
TEST_F(PerftestTest, AllSizes)
{
    JsonValue v;
    pair({"write_lat", "-a4", "-n", "50"}, &v);
    const JsonValue *r = v.get("results");
    ASSERT_NE(r, nullptr);
    ASSERT_EQ(r->arr.size(), 4u);
    for (size_t k = 0; k < 4; k++)
        expect_lat(r->arr[k], "write_lat", "RM", 2 << k, 50);
}

// Events (-e), immediate data, SGE lists, several jetties with post lists
// and CQ moderation, the simplex flat API; each with its data checked.
TEST_F(PerftestTest, Options)
{
    JsonValue v;
    pair({"send_lat", "-e", "-n", "100", "-s", "256", "--check"}, &v);
    expect_lat(v, "send_lat", "RM", 256, 100);
    pair({"send_bw", "--enable_imm", "-n", "100", "-s", "1024", "--check"}, &v);
    expect_bw(v, "send_bw", "RM", 1024, 100);
    pair({"write_bw", "--sge_num", "4", "-n", "100", "-s", "8192", "--check"}, &v);
    expect_bw(v, "write_bw", "RM", 8192, 100);
    pair({"write_bw", "-J", "2", "-l", "4", "-Q", "8", "-T", "32", "-n", "96", "-s", "2048", "--check"}, &v);
    expect_bw(v, "write_bw", "RM", 2048, 96);
    pair({"write_lat", "--enable_notify", "-n", "100", "-s", "64", "--check"}, &v);
    expect_lat(v, "write_lat", "RM", 64, 100);
    pair({"write_bw", "--enable_notify", "-J", "2", "-n", "96", "-s", "4096", "--check"}, &v);
    expect_bw(v, "write_bw", "RM", 4096, 96);
    pair({"read_bw", "-b", "-f", "-n", "100", "-s", "512", "--check", "-I", "64"}, &v);
    expect_bw(v, "read_bw", "RM", 512, 100);
}

// A completion for every WR (-Q 1, and -e, which forces it for large
// messages): the completions that arrive after the last post must still be
// reaped (the first version stopped polling there and stalled).
TEST_F(PerftestTest, CompletionPerWr)
{
    JsonValue v;
    pair({"write_bw", "-Q", "1", "-n", "200", "-s", "4096", "--check"}, &v);
    expect_bw(v, "write_bw", "RM", 4096, 200);
    pair({"send_bw", "-Q", "1", "-n", "200", "-s", "4096", "--check"}, &v);
    expect_bw(v, "send_bw", "RM", 4096, 200);
    pair({"write_bw", "-Q", "2", "-T", "16", "-n", "200", "-s", "4096"}, &v);
    expect_bw(v, "write_bw", "RM", 4096, 200);
    pair({"read_bw", "-e", "-n", "100", "-s", "16384", "--check"}, &v);
    expect_bw(v, "read_bw", "RM", 16384, 100);
}

TEST_F(PerftestTest, Errors)
{
    // No server: the client names the address it could not reach.
    Outcome o = alone({"write_bw", "-d", "udma0", "-n", "100", "-S", "127.0.0.1", "-P", "21199", "--json"});
    EXPECT_EQ(o.rc, 1);
    EXPECT_NE(o.err.find("127.0.0.1:21199"), std::string::npos) << o.err;
    EXPECT_TRUE(o.out.empty()) << o.out;
    // No such device.
    o = alone({"read_lat", "-d", "nosuch0", "-n", "100"});
    EXPECT_EQ(o.rc, 1);
    EXPECT_NE(o.err.find("nosuch0"), std::string::npos) << o.err;
    // The guide's constraints, before anything is created.
    o = alone({"atomic_lat", "-d", "udma0", "-s", "16"});
    EXPECT_EQ(o.rc, 2);
    EXPECT_NE(o.err.find("-s must be 8"), std::string::npos) << o.err;
    o = alone({"write_bw", "-d", "udma0", "-e"});
    EXPECT_EQ(o.rc, 2);
    EXPECT_NE(o.err.find("-e is not supported with write"), std::string::npos) << o.err;
    // A device limit known only at run time: inline data beyond udma's.
    o = alone({"send_lat", "-d", "udma0", "-I", "900"});
    EXPECT_EQ(o.rc, 1);
    EXPECT_NE(o.err.find("inlines at most"), std::string::npos) << o.err;
}

}  // namespace
