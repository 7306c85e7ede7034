// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The UB/URMA stack authors
// urma_perftest's pure logic: the command line (every option, the defaults
// per command, each documented constraint and its message), percentiles
// and bandwidth, the table and JSON output, the wire format of the TCP
// exchange (round trips, truncated and foreign messages), and the exchange
// between two sides over loopback when one of them gives up early.
#include <gtest/gtest.h>

#include <array>
#include <cstring>
#include <initializer_list>
#include <string>
#include <thread>
#include <vector>

#include "config.h"
#include "exchange.h"
#include "json.h"
#include "report.h"
#include "stats.h"
#include "wire.h"

namespace {

using namespace perftest;

// Parses "urma_perftest <args...>".
ParseResult parse(std::initializer_list<const char *> args, Config *cfg)
{
    std::vector<std::string> store = {"urma_perftest"};
    for (const char *a : args)
        store.emplace_back(a);
    std::vector<char *> argv;
    for (std::string &s : store)
        argv.push_back(s.data());
    argv.push_back(nullptr);
    return parse_args(static_cast<int>(store.size()), argv.data(), cfg);
}

// The usage error of a command line that must be refused.
std::string refused(std::initializer_list<const char *> args)
{
    Config c;
    ParseResult r = parse(args, &c);
    EXPECT_EQ(r.status, ParseStatus::Usage) << "accepted";
    return r.error;
}

bool has(const std::string &s, const std::string &part)
{
    return s.find(part) != std::string::npos;
}

TEST(PerftestArgs, CommandsAndDefaults)
{
    Config c;
    ASSERT_EQ(parse({"write_lat", "-d", "udma0"}, &c).status, ParseStatus::Ok);
    EXPECT_EQ(c.cmd, Command::WriteLat);
    EXPECT_FALSE(c.client);
    EXPECT_EQ(c.dev, "udma0");
    EXPECT_EQ(c.port, 21115u);
    EXPECT_EQ(c.size, 2u);
    EXPECT_EQ(c.iters, 10000u);
    EXPECT_EQ(c.jfs_depth, 1u);
    EXPECT_EQ(c.jfr_depth, 1u);
    EXPECT_EQ(c.jfc_depth, 512u);
    EXPECT_EQ(c.trans_mode, TransMode::RM);
    EXPECT_EQ(c.jettys, 1u);
    EXPECT_EQ(c.sge_num, 1u);
    EXPECT_EQ(c.inline_size, 0u);
    EXPECT_EQ(c.sizes(), std::vector<uint32_t>{2});

    ASSERT_EQ(parse({"send_bw", "-d", "udma0"}, &c).status, ParseStatus::Ok);
    EXPECT_EQ(c.size, 65536u);
    EXPECT_EQ(c.jfs_depth, 128u);
    EXPECT_EQ(c.jfr_depth, 512u);
    EXPECT_EQ(c.jfc_depth, 4096u);
    EXPECT_EQ(c.cq_mod, 100u);

    ASSERT_EQ(parse({"atomic_lat", "-d", "udma0"}, &c).status, ParseStatus::Ok);
    EXPECT_EQ(c.size, 8u);
    EXPECT_EQ(c.atomic_type, AtomicType::Cas);

    const char *names[] = {"read_lat", "write_lat", "send_lat", "atomic_lat",
                           "read_bw",  "write_bw",  "send_bw",  "atomic_bw"};
    for (const char *n : names) {
        ASSERT_EQ(parse({n, "-d", "udma0"}, &c).status, ParseStatus::Ok) << n;
        EXPECT_STREQ(command_name(c.cmd), n);
        EXPECT_EQ(is_bw(c.cmd), std::string(n).find("_bw") != std::string::npos);
    }
    EXPECT_TRUE(has(refused({"ping_lat", "-d", "udma0"}), "unknown command 'ping_lat'"));
    EXPECT_TRUE(has(refused({}), "a command is required"));
}

TEST(PerftestArgs, EveryOption)
{
    Config c;
    ParseResult r = parse({"send_bw", "-d", "udma0", "-s", "4096", "-n", "1000", "-S", "10.0.0.1", "-P", "4000",
                           "-p", "1", "-J", "4", "-T", "64", "-R", "256", "-C", "2048", "-I", "128", "-e", "-l",
                           "4", "-r", "8", "-Q", "8", "-B", "-N", "--enable_imm", "--sge_num", "2", "--eid_idx",
                           "3", "-E", "10", "-K", "0", "-L", "-O", "7", "-j", "true", "--order_type", "2",
                           "--wait_jfc_timeout", "-1", "--enable_ipv6", "-F", "-c", "--json", "--check"},
                          &c);
    ASSERT_EQ(r.status, ParseStatus::Ok) << r.error;
    EXPECT_TRUE(c.client);
    EXPECT_EQ(c.server, "10.0.0.1");
    EXPECT_EQ(c.port, 4000u);
    EXPECT_EQ(c.size, 4096u);
    EXPECT_EQ(c.iters, 1000u);
    EXPECT_EQ(c.trans_mode, TransMode::RC);
    EXPECT_EQ(c.jettys, 4u);
    EXPECT_EQ(c.jfs_depth, 64u);
    EXPECT_EQ(c.jfr_depth, 256u);
    EXPECT_EQ(c.jfc_depth, 2048u);
    EXPECT_EQ(c.inline_size, 128u);
    EXPECT_TRUE(c.use_jfce);
    EXPECT_EQ(c.jfs_post_list, 4u);
    EXPECT_EQ(c.jfr_post_list, 8u);
    EXPECT_EQ(c.cq_mod, 8u);
    EXPECT_TRUE(c.bidirection);
    EXPECT_TRUE(c.no_peak);
    EXPECT_TRUE(c.enable_imm);
    EXPECT_EQ(c.sge_num, 2u);
    EXPECT_EQ(c.eid_idx, 3u);
    EXPECT_EQ(c.err_timeout, 10u);
    EXPECT_EQ(c.token_policy, 0u);
    EXPECT_TRUE(c.lock_free);
    EXPECT_EQ(c.priority, 7u);
    EXPECT_TRUE(c.share_jfr);
    EXPECT_EQ(c.order_type, 2u);
    EXPECT_EQ(c.wait_jfc_timeout, -1);
    EXPECT_TRUE(c.enable_ipv6);
    EXPECT_TRUE(c.cpu_freq_f);
    EXPECT_TRUE(c.jfc_inline);
    EXPECT_TRUE(c.json);
    EXPECT_TRUE(c.check);

    // Long names, -p by name, -b with -f, -w, -A, -D, -y and its period.
    ASSERT_EQ(parse({"read_bw", "--dev=udma1", "--size=512", "--iters=20", "--trans_mode=RM", "--simplex_mode",
                     "--use_flat_api", "--warm_up", "--jfs_depth=16", "--cq_mod=4"},
                    &c)
                  .status,
              ParseStatus::Ok);
    EXPECT_EQ(c.dev, "udma1");
    EXPECT_EQ(c.size, 512u);
    EXPECT_EQ(c.trans_mode, TransMode::RM);
    EXPECT_TRUE(c.simplex);
    EXPECT_TRUE(c.flat_api);
    EXPECT_TRUE(c.warm_up);
    ASSERT_EQ(parse({"atomic_bw", "-d", "u", "-A", "faa", "-D", "3"}, &c).status, ParseStatus::Ok);
    EXPECT_EQ(c.atomic_type, AtomicType::Faa);
    EXPECT_EQ(c.duration, 3u);
    EXPECT_EQ(c.iters, 0u);     // -D: no iteration count
    EXPECT_TRUE(c.no_peak);     // -D: no peak
    ASSERT_EQ(parse({"write_bw", "-d", "u", "-y5"}, &c).status, ParseStatus::Ok);
    EXPECT_TRUE(c.infinite);
    EXPECT_EQ(c.inf_period_ms, 5000u);
    ASSERT_EQ(parse({"write_bw", "-d", "u", "--infinite", "--inf_period_ms", "150"}, &c).status, ParseStatus::Ok);
    EXPECT_EQ(c.inf_period_ms, 150u);
    ASSERT_EQ(parse({"write_bw", "-d", "u", "-p", "um"}, &c).status, ParseStatus::Usage);  // UM: sends only
    ASSERT_EQ(parse({"send_lat", "-d", "u", "-p", "2"}, &c).status, ParseStatus::Ok);
    EXPECT_EQ(c.trans_mode, TransMode::UM);
}

TEST(PerftestArgs, AllSizes)
{
    Config c;
    ASSERT_EQ(parse({"write_bw", "-d", "u", "-a"}, &c).status, ParseStatus::Ok);
    std::vector<uint32_t> s = c.sizes();
    ASSERT_EQ(s.size(), 23u);
    EXPECT_EQ(s.front(), 2u);
    EXPECT_EQ(s.back(), 8388608u);
    EXPECT_EQ(c.max_size(), 8388608u);
    ASSERT_EQ(parse({"write_bw", "-d", "u", "-a4"}, &c).status, ParseStatus::Ok);
    EXPECT_EQ(c.sizes(), (std::vector<uint32_t>{2, 4, 8, 16}));
    ASSERT_EQ(parse({"write_bw", "-d", "u", "--all=3"}, &c).status, ParseStatus::Ok);
    EXPECT_EQ(c.max_size(), 8u);
    EXPECT_TRUE(has(refused({"write_bw", "-d", "u", "-a24"}), "-a 24: must be a number in [1, 23]"));
}

TEST(PerftestArgs, HelpAndVersion)
{
    Config c;
    EXPECT_EQ(parse({"-h"}, &c).status, ParseStatus::Help);
    EXPECT_EQ(parse({"--help"}, &c).status, ParseStatus::Help);
    EXPECT_EQ(parse({"write_bw", "-h"}, &c).status, ParseStatus::Help);
    EXPECT_EQ(parse({"-V"}, &c).status, ParseStatus::Version);
    std::string h = usage_text();
    // Every option of the guide that this tool takes is listed.
    for (const char *o : {"--all", "--atomic_type", "--simplex_mode", "--bidirection", "--jfc_inline", "--jfc_depth",
                          "--dev", "--duration", "--use_jfce", "--eid_idx", "--err_timeout", "--use_flat_api",
                          "--cpu_freq_f", "--help", "--inline_size", "--share_jfr", "--jettys", "--token_policy",
                          "--iters", "--no_peak", "--jfs_post_list", "--lock_free", "--priority", "--trans_mode",
                          "--port", "--cq_mod", "--jfr_post_list", "--jfr_depth", "--size", "--server",
                          "--jfs_depth", "--warm_up", "--infinite", "--inf_period_ms", "--order_type",
                          "--enable_ipv6", "--enable_imm", "--sge_num", "--wait_jfc_timeout", "--json", "--check",
                          "--version", "--uboe", "--sip", "--dip", "2^20", "CLOCK_MONOTONIC"})
        EXPECT_TRUE(has(h, o)) << o;
    EXPECT_TRUE(has(version_text(), "urma_perftest"));
}

TEST(PerftestArgs, BadValues)
{
    EXPECT_TRUE(has(refused({"write_bw"}), "-d <dev_name> is required"));
    EXPECT_TRUE(has(refused({"write_bw", "-d", "u", "-n", "4"}), "-n 4: must be a number in [5, 100000000]"));
    EXPECT_TRUE(has(refused({"write_bw", "-d", "u", "-n", "12x"}), "-n 12x"));
    EXPECT_TRUE(has(refused({"write_bw", "-d", "u", "-n", "-7"}), "-n -7"));
    EXPECT_TRUE(has(refused({"write_bw", "-d", "u", "-T", "15001"}), "[1, 15000]"));
    EXPECT_TRUE(has(refused({"write_bw", "-d", "u", "-R", "0"}), "[1, 16384]"));
    EXPECT_TRUE(has(refused({"write_bw", "-d", "u", "-J", "65536"}), "[1, 65535]"));
    EXPECT_TRUE(has(refused({"write_bw", "-d", "u", "-I", "913"}), "[0, 912]"));
    EXPECT_TRUE(has(refused({"write_bw", "-d", "u", "-Q", "1025"}), "[1, 1024]"));
    EXPECT_TRUE(has(refused({"write_bw", "-d", "u", "-E", "32"}), "[0, 31]"));
    EXPECT_TRUE(has(refused({"write_bw", "-d", "u", "-O", "16"}), "[0, 15]"));
    EXPECT_TRUE(has(refused({"write_bw", "-d", "u", "-K", "4"}), "[0, 3]"));
    EXPECT_TRUE(has(refused({"write_bw", "-d", "u", "-P", "0"}), "[1, 65535]"));
    EXPECT_TRUE(has(refused({"write_bw", "-d", "u", "--sge_num", "13"}), "[1, 12]"));
    EXPECT_TRUE(has(refused({"write_bw", "-d", "u", "-p", "3"}), "0 (RM), 1 (RC) or 2 (UM)"));
    EXPECT_TRUE(has(refused({"atomic_bw", "-d", "u", "-A", "swap"}), "cas or faa"));
    EXPECT_TRUE(has(refused({"write_bw", "-d", "u", "-j", "yes", "-J", "2"}), "true or false"));
    EXPECT_TRUE(has(refused({"write_bw", "-d", "u", "--inf_period_ms", "120", "-y"}), "multiple of 50"));
    EXPECT_TRUE(has(refused({"write_bw", "-d", "u", "-C"}), "needs a value"));
    EXPECT_TRUE(has(refused({"write_bw", "-d", "u", "-Z"}), "unknown option -Z"));
    EXPECT_TRUE(has(refused({"write_bw", "-d", "u", "--bogus"}), "unknown option --bogus"));
    EXPECT_TRUE(has(refused({"write_bw", "-d", "u", "stray"}), "unexpected argument 'stray'"));
    EXPECT_TRUE(has(refused({"write_bw", "-d", "u", "--wait_jfc_timeout", "-2"}), "--wait_jfc_timeout"));
    // UMDK options with no meaning here are refused, with the reason.
    EXPECT_TRUE(has(refused({"write_bw", "-d", "u", "--rate_limit", "1"}), "--rate_limit: there is no rate limiter"));
    EXPECT_TRUE(has(refused({"write_bw", "-d", "u", "--vlan", "5"}), "netdev"));
    EXPECT_TRUE(has(refused({"write_bw", "-d", "u", "--enable_user_tp"}), "transport paths"));
}

// -u/--uboe, --sip, --dip: addresses name the EIDs (IPv4 mapped into IPv6).
TEST(PerftestArgs, Uboe)
{
    Config c;
    ASSERT_EQ(parse({"write_lat", "-d", "u", "-u", "--sip", "10.77.0.1", "--dip", "10.77.0.2"}, &c).status,
              ParseStatus::Ok);
    EXPECT_TRUE(c.uboe);
    EXPECT_EQ(c.sip, "10.77.0.1");
    EXPECT_EQ(c.dip, "10.77.0.2");
    const std::array<uint8_t, 16> a = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 10, 77, 0, 1};
    std::array<uint8_t, 16> b = a;
    b[15] = 2;
    EXPECT_EQ(c.sip_eid, a);
    EXPECT_EQ(c.dip_eid, b);
    ASSERT_EQ(parse({"send_bw", "-d", "u", "--uboe", "--sip", "fd00::1:2"}, &c).status, ParseStatus::Ok);
    const std::array<uint8_t, 16> v6 = {0xfd, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 2};
    EXPECT_EQ(c.sip_eid, v6);
    EXPECT_TRUE(c.dip.empty());
    EXPECT_TRUE(has(refused({"write_bw", "-d", "u", "-u"}), "-u/--uboe needs --sip"));
    EXPECT_TRUE(has(refused({"write_bw", "-d", "u", "--sip", "10.0.0.1"}), "need -u/--uboe"));
    EXPECT_TRUE(has(refused({"write_bw", "-d", "u", "-u", "--sip", "10.0.0.1", "--eid_idx", "1"}),
                    "--sip and --eid_idx conflict"));
    EXPECT_TRUE(has(refused({"write_bw", "-d", "u", "-u", "--sip", "10.0.0.300"}), "--sip 10.0.0.300: not an"));
    EXPECT_TRUE(has(refused({"write_bw", "-d", "u", "-u", "--sip", "10.0.0.1", "--dip", "host"}),
                    "--dip host: not an"));
    EXPECT_TRUE(has(refused({"write_bw", "-d", "u", "-u", "--sip"}), "needs a value"));
}

// The guide's constraints (6.4.1, "urma_perftest参数隐含关系"), one by one.
TEST(PerftestArgs, Constraints)
{
    EXPECT_TRUE(has(refused({"write_bw", "-d", "u", "-a", "-s", "64"}), "-a and -s conflict"));
    EXPECT_TRUE(has(refused({"write_bw", "-d", "u", "-D", "2", "-n", "100"}), "-D and -n conflict"));
    EXPECT_TRUE(has(refused({"write_lat", "-d", "u", "-e"}), "-e is not supported with write"));
    EXPECT_TRUE(has(refused({"write_bw", "-d", "u", "-e"}), "-e is not supported with write"));
    EXPECT_TRUE(has(refused({"send_lat", "-d", "u", "-J", "2"}), "-J with more than one jetty"));
    EXPECT_TRUE(has(refused({"read_lat", "-d", "u", "-N"}), "-N is only for bandwidth"));
    EXPECT_TRUE(has(refused({"atomic_lat", "-d", "u", "-s", "16"}), "-s must be 8"));
    EXPECT_TRUE(has(refused({"atomic_bw", "-d", "u", "-s", "4"}), "-s must be 8"));
    EXPECT_TRUE(has(refused({"write_bw", "-d", "u", "-n", "100", "-l", "3"}), "not a multiple of -l 3"));
    EXPECT_TRUE(has(refused({"send_bw", "-d", "u", "-n", "100", "-r", "3"}), "not a multiple of -r 3"));
    EXPECT_TRUE(has(refused({"write_bw", "-d", "u", "-n", "100", "-l", "4", "-Q", "6"}), "-Q 6 is not a multiple"));
    EXPECT_TRUE(has(refused({"write_bw", "-d", "u", "-n", "100", "-l", "4", "-T", "2"}), "smaller than -l 4"));
    EXPECT_TRUE(has(refused({"send_lat", "-d", "u", "-B"}), "-B is only for bandwidth"));
    EXPECT_TRUE(has(refused({"send_bw", "-d", "u", "-f"}), "-f needs -b"));
    EXPECT_TRUE(has(refused({"write_bw", "-d", "u", "-D", "2", "-a"}), "-D does not go with -e or -a"));
    EXPECT_TRUE(has(refused({"send_bw", "-d", "u", "-D", "2", "-e"}), "-D does not go with -e or -a"));
    EXPECT_TRUE(has(refused({"send_bw", "-d", "u", "-y", "-B"}), "-y conflicts with -B"));
    EXPECT_TRUE(has(refused({"read_bw", "-d", "u", "--enable_notify"}), "--enable_notify is only for write"));
    EXPECT_TRUE(has(refused({"write_lat", "-d", "u", "--enable_notify", "--enable_imm"}),
                    "does not go with --enable_imm"));
    Config n;
    ASSERT_EQ(parse({"write_lat", "-d", "u", "--enable_notify"}, &n).status, ParseStatus::Ok);
    EXPECT_TRUE(n.enable_notify);
    EXPECT_TRUE(has(refused({"write_bw", "-d", "u", "-y", "-B", "--enable_imm"}), "-y conflicts with -B"));
    EXPECT_TRUE(has(refused({"send_bw", "-d", "u", "-s", "100", "--sge_num", "3"}), "not a multiple of --sge_num"));
    EXPECT_TRUE(has(refused({"read_bw", "-d", "u", "-p", "2"}), "UM carries sends only"));
    EXPECT_TRUE(has(refused({"atomic_lat", "-d", "u", "-p", "UM"}), "UM carries sends only"));
    EXPECT_TRUE(has(refused({"write_lat", "-d", "u", "-y"}), "-y is only for bandwidth"));
    EXPECT_TRUE(has(refused({"write_lat", "-d", "u", "-w"}), "-w is only for read, write and atomic bandwidth"));
    EXPECT_TRUE(has(refused({"send_bw", "-d", "u", "-w"}), "-w is only for read, write and atomic bandwidth"));
    EXPECT_TRUE(has(refused({"send_bw", "-d", "u", "-A", "cas"}), "-A is only for atomic"));
    EXPECT_TRUE(has(refused({"read_bw", "-d", "u", "--enable_imm"}), "--enable_imm is only for write and send"));
    EXPECT_TRUE(has(refused({"atomic_bw", "-d", "u", "-a"}), "-a is not for atomic"));
    EXPECT_TRUE(has(refused({"write_lat", "-d", "u", "-l", "2"}), "-l and -r are only for bandwidth"));
    EXPECT_TRUE(has(refused({"write_lat", "-d", "u", "-Q", "2"}), "-Q is only for bandwidth"));
    EXPECT_TRUE(has(refused({"read_lat", "-d", "u", "-D", "2"}), "-D is only for bandwidth"));
    EXPECT_TRUE(has(refused({"write_bw", "-d", "u", "-y", "--json"}), "--json needs a finite run"));
    EXPECT_TRUE(has(refused({"write_bw", "-d", "u", "-D", "2", "--check"}), "--check needs a run of -n"));
    EXPECT_TRUE(has(refused({"atomic_bw", "-d", "u", "--check"}), "--check verifies"));
    EXPECT_TRUE(has(refused({"read_bw", "-d", "u", "-b", "-p", "1"}), "RC connects jetties"));
    EXPECT_TRUE(has(refused({"atomic_bw", "-d", "u", "-b", "-f"}), "-f posts one"));
    EXPECT_TRUE(has(refused({"write_bw", "-d", "u", "-b", "-j", "true"}), "-j is for jetty mode"));
}

TEST(PerftestArgs, Adjustments)
{
    Config c;
    // Read and atomic ignore -I, with a warning (constraint 4).
    ParseResult r = parse({"read_bw", "-d", "u", "-I", "64"}, &c);
    ASSERT_EQ(r.status, ParseStatus::Ok);
    EXPECT_EQ(c.inline_size, 0u);
    ASSERT_EQ(r.warnings.size(), 1u);
    EXPECT_TRUE(has(r.warnings[0], "-I has no effect"));
    // -l with no -Q sets cq_mod to -l (constraint 10).
    ASSERT_EQ(parse({"write_bw", "-d", "u", "-n", "100", "-l", "4"}, &c).status, ParseStatus::Ok);
    EXPECT_EQ(c.cq_mod, 4u);
    // jfs_depth above the iterations becomes the iterations (15).
    r = parse({"write_bw", "-d", "u", "-n", "50"}, &c);
    ASSERT_EQ(r.status, ParseStatus::Ok);
    EXPECT_EQ(c.jfs_depth, 50u);
    EXPECT_EQ(c.jfr_depth, 50u);  // write test: jfr_depth too
    EXPECT_EQ(c.cq_mod, 50u);     // cq_mod at most the JFS depth
    // Large messages with events: cq_mod 1 unless given (15).
    ASSERT_EQ(parse({"send_bw", "-d", "u", "-s", "16384", "-e"}, &c).status, ParseStatus::Ok);
    EXPECT_EQ(c.cq_mod, 1u);
    r = parse({"send_bw", "-d", "u", "-s", "16384", "-e", "-Q", "4"}, &c);
    ASSERT_EQ(r.status, ParseStatus::Ok);
    EXPECT_EQ(c.cq_mod, 4u);
    EXPECT_FALSE(r.warnings.empty());
    // Depths that -r does not divide: a warning only (12).
    r = parse({"send_bw", "-d", "u", "-n", "1000", "-r", "8", "-R", "100"}, &c);
    ASSERT_EQ(r.status, ParseStatus::Ok);
    EXPECT_FALSE(r.warnings.empty());
}

TEST(PerftestStats, Percentiles)
{
    std::vector<double> v;
    for (int i = 1; i <= 1000; i++)
        v.push_back(i);
    EXPECT_DOUBLE_EQ(percentile(v, 99), 990);
    EXPECT_DOUBLE_EQ(percentile(v, 99.9), 999);
    EXPECT_DOUBLE_EQ(percentile(v, 100), 1000);
    EXPECT_DOUBLE_EQ(percentile(v, 50), 500);
    EXPECT_DOUBLE_EQ(percentile({7}, 99), 7);
    EXPECT_DOUBLE_EQ(percentile({}, 99), 0);
    std::vector<double> ten = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
    EXPECT_DOUBLE_EQ(percentile(ten, 99), 10);
    EXPECT_DOUBLE_EQ(percentile(ten, 10), 1);
    EXPECT_DOUBLE_EQ(percentile(ten, 11), 2);

    LatStats s = summarize({5, 1, 4, 2, 3});
    EXPECT_DOUBLE_EQ(s.min, 1);
    EXPECT_DOUBLE_EQ(s.max, 5);
    EXPECT_DOUBLE_EQ(s.median, 3);
    EXPECT_DOUBLE_EQ(s.avg, 3);
    EXPECT_DOUBLE_EQ(s.p99, 5);
    s = summarize({4, 1, 3, 2});
    EXPECT_DOUBLE_EQ(s.median, 2.5);
    EXPECT_DOUBLE_EQ(s.avg, 2.5);
    s = summarize({});
    EXPECT_DOUBLE_EQ(s.max, 0);
}

TEST(PerftestStats, Bandwidth)
{
    // 100 WRs of 1 MiB in 1 s, completions every 10 WRs at an even pace.
    std::vector<Completion> ev;
    for (int k = 1; k <= 10; k++)
        ev.push_back({0.1 * k, static_cast<uint64_t>(10 * k)});
    BwStats b = bandwidth(1 << 20, 0, ev, false);
    EXPECT_NEAR(b.avg_MBps, 100, 1e-9);
    EXPECT_NEAR(b.msg_rate_Mpps, 100e-6, 1e-12);
    EXPECT_NEAR(b.peak_MBps, 100, 1e-6);
    // A fast stretch in the middle is the peak.
    ev = {{0.5, 10}, {0.51, 20}, {1.0, 30}};
    b = bandwidth(1 << 20, 0, ev, false);
    EXPECT_NEAR(b.avg_MBps, 30, 1e-9);
    EXPECT_NEAR(b.peak_MBps, 1000, 1e-6);
    b = bandwidth(1 << 20, 0, ev, true);
    EXPECT_DOUBLE_EQ(b.peak_MBps, 0);
    EXPECT_NEAR(b.avg_MBps, 30, 1e-9);
    b = bandwidth(64, 0, {}, false);
    EXPECT_DOUBLE_EQ(b.avg_MBps, 0);
}

TEST(PerftestReport, TablesAndJson)
{
    Config c;
    ASSERT_EQ(parse({"write_bw", "-d", "udma0", "-s", "65536", "-n", "1000"}, &c).status, ParseStatus::Ok);
    std::string b = banner(c);
    EXPECT_TRUE(has(b, "Write BW Test"));
    EXPECT_TRUE(has(b, "udma0"));
    EXPECT_TRUE(has(b, "BW peak[MB/sec]"));
    BwRow row{65536, 1000, {1234.5, 1000.25, 0.016004}};
    EXPECT_EQ(bw_row(row), " 65536      1000           1234.50            1000.25              0.016004\n");
    std::string j = bw_json(c, row);
    EXPECT_EQ(j, "{\"test\":\"write_bw\",\"trans_mode\":\"RM\",\"size\":65536,\"iterations\":1000,"
                 "\"bw_peak_MBps\":1234.500,\"bw_avg_MBps\":1000.250,\"msg_rate_Mpps\":0.016004}");
    EXPECT_EQ(json_output(c, {j}), j + "\n");
    JsonValue v;
    std::string err;
    ASSERT_TRUE(json_parse(j, &v, &err)) << err;
    EXPECT_EQ(v.get("test")->str, "write_bw");
    EXPECT_DOUBLE_EQ(v.get("bw_avg_MBps")->num, 1000.25);

    ASSERT_EQ(parse({"send_lat", "-d", "udma0", "-p", "RC", "-a2"}, &c).status, ParseStatus::Ok);
    EXPECT_TRUE(has(banner(c), "t_median[usec]"));
    LatRow lr{2, 100, {1.5, 2, 2.25, 9, 8, 9}};
    EXPECT_TRUE(has(lat_row(lr), "1.50"));
    std::string lj = lat_json(c, lr);
    EXPECT_EQ(lj, "{\"test\":\"send_lat\",\"trans_mode\":\"RC\",\"size\":2,\"iterations\":100,\"lat_us\":"
                  "{\"min\":1.500,\"median\":2.000,\"avg\":2.250,\"max\":9.000,\"p99\":8.000,\"p99_9\":9.000}}");
    // -a: one object per size under "results".
    std::string all = json_output(c, {lj, lj});
    ASSERT_TRUE(json_parse(all, &v, &err)) << err;
    ASSERT_NE(v.get("results"), nullptr);
    EXPECT_EQ(v.get("results")->arr.size(), 2u);
    EXPECT_DOUBLE_EQ(v.get("results")->arr[1].get("lat_us")->get("p99")->num, 8);
    EXPECT_EQ(json_number(1.0 / 0.0, 2), "0.00");
}

TEST(PerftestReport, JsonReader)
{
    JsonValue v;
    std::string err;
    ASSERT_TRUE(json_parse(" {\"a\":[1,-2.5e1,true,false,null,\"x\\\"y\"],\"b\":{}} ", &v, &err)) << err;
    const JsonValue *a = v.get("a");
    ASSERT_NE(a, nullptr);
    ASSERT_EQ(a->arr.size(), 6u);
    EXPECT_DOUBLE_EQ(a->arr[1].num, -25);
    EXPECT_TRUE(a->arr[2].b);
    EXPECT_EQ(a->arr[4].type, JsonValue::Type::Null);
    EXPECT_EQ(a->arr[5].str, "x\"y");
    for (const char *bad : {"", "{", "{\"a\":}", "{\"a\":1,}", "[1 2]", "{} x", "\"open", "{a:1}", "tru"})
        EXPECT_FALSE(json_parse(bad, &v, &err)) << bad;
}

// The exchange's messages byte for byte (wire.h: a 12-byte header, magic
// "UPT1", version 1 and the type as u16, the payload length as u32; then
// each type's fields in order, integers little endian, doubles as their
// IEEE-754 bits). Each is encoded to exactly these bytes and decoded from
// them (not from encode()'s output) to the same fields.
using Bytes = std::vector<uint8_t>;

Bytes wire(std::initializer_list<Bytes> parts)
{
    Bytes out;
    for (const Bytes &p : parts)
        out.insert(out.end(), p.begin(), p.end());
    return out;
}

// Decodes a whole message: its header must be of type want.
template <typename M> bool decode_msg(const Bytes &m, MsgType want, M *out)
{
    std::string err;
    Header h;
    if (!decode_header(m.data(), m.size(), &h, &err)) {
        ADD_FAILURE() << "header: " << err;
        return false;
    }
    EXPECT_EQ(h.type, want);
    EXPECT_EQ(h.len, m.size() - kHeaderLen);
    if (!decode(m.data() + kHeaderLen, m.size() - kHeaderLen, out, &err)) {
        ADD_FAILURE() << err;
        return false;
    }
    return true;
}

TEST(PerftestWire, RoundTrips)
{
    Hello hello;
    hello.cmd = 6;
    hello.trans_mode = 2;
    hello.atomic_type = 1;
    hello.flags = kHelloImm | kHelloCheck;
    hello.jettys = 3;
    hello.size = 4096;
    hello.order = 5;
    hello.duration = 10;
    hello.sge_num = 2;
    hello.iters = 1ull << 40;
    const Bytes hello_bytes = wire({
        {'U', 'P', 'T', '1', 0x01, 0x00, 0x01, 0x00, 0x20, 0x00, 0x00, 0x00},  // hello, 32 bytes
        {0x06, 0x02, 0x01, 0x24},                                              // cmd, mode, atomic, flags
        {0x03, 0x00, 0x00, 0x00},                                              // jettys
        {0x00, 0x10, 0x00, 0x00},                                              // size
        {0x05, 0x00, 0x00, 0x00},                                              // order
        {0x0a, 0x00, 0x00, 0x00},                                              // duration
        {0x02, 0x00, 0x00, 0x00},                                              // sge_num
        {0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00},                      // iters
    });
    EXPECT_EQ(encode(hello), hello_bytes);
    Hello hb;
    ASSERT_TRUE(decode_msg(hello_bytes, MsgType::Hello, &hb));
    EXPECT_TRUE(hb == hello);

    Endpoint e;
    for (int i = 0; i < 16; i++)
        e.eid[i] = static_cast<uint8_t>(i * 7);
    e.uasid = 77;
    e.token_policy = 1;
    e.seg_va = 0x7f0012345000ull;
    e.seg_len = 1 << 20;
    e.seg_token_id = 5;
    e.seg_attr = 0x123;
    e.seg_token = 0xdeadbeef;
    e.jfr_token = 0xcafe;
    e.ids = {1024, 1025, 4000};
    const Bytes endpoint_bytes = wire({
        {'U', 'P', 'T', '1', 0x01, 0x00, 0x02, 0x00, 0x48, 0x00, 0x00, 0x00},  // endpoint, 72 bytes
        {0x00, 0x07, 0x0e, 0x15, 0x1c, 0x23, 0x2a, 0x31,                      // eid
         0x38, 0x3f, 0x46, 0x4d, 0x54, 0x5b, 0x62, 0x69},
        {0x4d, 0x00, 0x00, 0x00},                                              // uasid
        {0x01, 0x00, 0x00, 0x00},                                              // token_policy
        {0x00, 0x50, 0x34, 0x12, 0x00, 0x7f, 0x00, 0x00},                      // seg_va
        {0x00, 0x00, 0x10, 0x00, 0x00, 0x00, 0x00, 0x00},                      // seg_len
        {0x05, 0x00, 0x00, 0x00},                                              // seg_token_id
        {0x23, 0x01, 0x00, 0x00},                                              // seg_attr
        {0xef, 0xbe, 0xad, 0xde},                                              // seg_token
        {0xfe, 0xca, 0x00, 0x00},                                              // jfr_token
        {0x03, 0x00, 0x00, 0x00},                                              // 3 ids
        {0x00, 0x04, 0x00, 0x00, 0x01, 0x04, 0x00, 0x00, 0xa0, 0x0f, 0x00, 0x00},
    });
    EXPECT_EQ(encode(e), endpoint_bytes);
    Endpoint eb;
    ASSERT_TRUE(decode_msg(endpoint_bytes, MsgType::Endpoint, &eb));
    EXPECT_EQ(std::memcmp(eb.eid, e.eid, 16), 0);
    EXPECT_EQ(eb.uasid, 77u);
    EXPECT_EQ(eb.token_policy, 1u);
    EXPECT_EQ(eb.seg_va, 0x7f0012345000ull);
    EXPECT_EQ(eb.seg_len, 1ull << 20);
    EXPECT_EQ(eb.seg_token_id, 5u);
    EXPECT_EQ(eb.seg_attr, 0x123u);
    EXPECT_EQ(eb.seg_token, 0xdeadbeefu);
    EXPECT_EQ(eb.jfr_token, 0xcafeu);
    EXPECT_EQ(eb.ids, (std::vector<uint32_t>{1024, 1025, 4000}));

    const Bytes sync_bytes = wire({
        {'U', 'P', 'T', '1', 0x01, 0x00, 0x03, 0x00, 0x0c, 0x00, 0x00, 0x00},  // sync, 12 bytes
        {0x09, 0x00, 0x00, 0x00},                                              // tag
        {0x2a, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00},                      // value
    });
    EXPECT_EQ(encode(Sync{9, 42}), sync_bytes);
    Sync sb;
    ASSERT_TRUE(decode_msg(sync_bytes, MsgType::Sync, &sb));
    EXPECT_EQ(sb.tag, 9u);
    EXPECT_EQ(sb.value, 42u);

    const Bytes result_bytes = wire({
        {'U', 'P', 'T', '1', 0x01, 0x00, 0x04, 0x00, 0x24, 0x00, 0x00, 0x00},  // result, 36 bytes
        {0x02, 0x00, 0x00, 0x00},                                              // status
        {0x7b, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00},                      // count
        {0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xf8, 0x3f},                      // 1.5
        {0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x04, 0x40},                      // 2.5
        {0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xd0, 0x3f},                      // 0.25
    });
    EXPECT_EQ(encode(Result{kResultCheckFailed, 123, 1.5, 2.5, 0.25}), result_bytes);
    Result rb;
    ASSERT_TRUE(decode_msg(result_bytes, MsgType::Result, &rb));
    EXPECT_EQ(rb.status, 2u);
    EXPECT_EQ(rb.count, 123u);
    EXPECT_EQ(rb.peak_MBps, 1.5);
    EXPECT_EQ(rb.avg_MBps, 2.5);
    EXPECT_EQ(rb.msg_rate_Mpps, 0.25);

    const Bytes stop_bytes = wire({
        {'U', 'P', 'T', '1', 0x01, 0x00, 0x05, 0x00, 0x04, 0x00, 0x00, 0x00},  // stop, 4 bytes
        {0x01, 0x00, 0x00, 0x00},                                              // interrupted
    });
    EXPECT_EQ(encode(Stop{kStopInterrupted}), stop_bytes);
    Stop stb;
    ASSERT_TRUE(decode_msg(stop_bytes, MsgType::Stop, &stb));
    EXPECT_EQ(stb.reason, 1u);
}

TEST(PerftestWire, TruncatedAndGarbage)
{
    std::string err;
    Header h;
    std::vector<uint8_t> m = encode(Hello{});
    EXPECT_FALSE(decode_header(m.data(), kHeaderLen - 1, &h, &err));
    EXPECT_TRUE(has(err, "truncated header"));
    std::vector<uint8_t> bad = m;
    bad[0] ^= 0xff;
    EXPECT_FALSE(decode_header(bad.data(), bad.size(), &h, &err));
    EXPECT_TRUE(has(err, "bad magic"));
    bad = m;
    bad[4] = 2;
    EXPECT_FALSE(decode_header(bad.data(), bad.size(), &h, &err));
    EXPECT_TRUE(has(err, "version 2"));
    bad = m;
    bad[6] = 99;
    EXPECT_FALSE(decode_header(bad.data(), bad.size(), &h, &err));
    EXPECT_TRUE(has(err, "unknown message type 99"));
    bad = m;
    bad[11] = 0x7f;
    EXPECT_FALSE(decode_header(bad.data(), bad.size(), &h, &err));
    EXPECT_TRUE(has(err, "too long"));

    Hello hb;
    EXPECT_FALSE(decode(m.data() + kHeaderLen, m.size() - kHeaderLen - 1, &hb, &err));
    EXPECT_TRUE(has(err, "hello message of"));
    bad = m;
    bad[kHeaderLen] = 8;  // no command 8
    EXPECT_FALSE(decode(bad.data() + kHeaderLen, bad.size() - kHeaderLen, &hb, &err));

    Endpoint e;
    e.ids = {1, 2};
    m = encode(e);
    Endpoint eb;
    // Cut anywhere: refused.
    for (size_t cut = 0; cut < m.size() - kHeaderLen; cut++)
        EXPECT_FALSE(decode(m.data() + kHeaderLen, cut, &eb, &err)) << cut;
    // A count that the length does not hold, and a count of 0.
    bad = m;
    bad[m.size() - 12] = 200;
    EXPECT_FALSE(decode(bad.data() + kHeaderLen, bad.size() - kHeaderLen, &eb, &err));
    e.ids.clear();
    m = encode(e);
    EXPECT_FALSE(decode(m.data() + kHeaderLen, m.size() - kHeaderLen, &eb, &err));
    EXPECT_TRUE(has(err, "0 jetties"));

    // Garbage of every length: nothing decodes, but for the one message
    // with no field to check (a sync of exactly 12 bytes); never a crash.
    // junk[i] = i * 131 + 7: bytes 07 8a 0d 90 13 96 19 9c 1f a2 25 a8 ...
    std::vector<uint8_t> junk(300);
    for (size_t i = 0; i < junk.size(); i++)
        junk[i] = static_cast<uint8_t>(i * 131 + 7);
    for (size_t len = 0; len < junk.size(); len++) {
        SCOPED_TRACE("length " + std::to_string(len));
        Result r;
        Sync s;
        Stop st;
        EXPECT_FALSE(decode_header(junk.data(), len, &h, &err));
        EXPECT_TRUE(has(err, len < kHeaderLen ? "truncated header" : "bad magic")) << err;
        EXPECT_FALSE(decode(junk.data(), len, &hb, &err));
        EXPECT_TRUE(has(err, len == 32 ? "hello with an unknown" : "hello message of")) << err;
        EXPECT_FALSE(decode(junk.data(), len, &eb, &err));
        // From 60 bytes on, the id count (bytes 56-59) is 0x38b532af.
        EXPECT_TRUE(has(err, len < 60 ? "is truncated" : "endpoint with 951399087 jetties")) << err;
        EXPECT_FALSE(decode(junk.data(), len, &r, &err));
        EXPECT_TRUE(has(err, len == 36 ? "result with an unknown status" : "result message of")) << err;
        EXPECT_FALSE(decode(junk.data(), len, &st, &err));
        EXPECT_TRUE(has(err, len == 4 ? "stop with unknown reason 2416806407" : "stop message of")) << err;
        if (len != 12) {
            EXPECT_FALSE(decode(junk.data(), len, &s, &err));
            EXPECT_TRUE(has(err, "sync message of")) << err;
            continue;
        }
        ASSERT_TRUE(decode(junk.data(), len, &s, &err)) << err;
        EXPECT_EQ(s.tag, 0x900d8a07u);
        EXPECT_EQ(s.value, 0xa825a21f9c199613ull);
    }
    Stop st;
    std::vector<uint8_t> sm = encode(Stop{7});
    EXPECT_FALSE(decode(sm.data() + kHeaderLen, sm.size() - kHeaderLen, &st, &err));
}

// A side that gives up early (the client of a bandwidth test after "no
// completion for 30 s") sends its failed Result where the other waits for
// its Stop; the other must still trade results with it, not wait for a
// second Result for ever (the two stood still until the harness killed
// them).
TEST(PerftestExchange, EarlyFailedResultIsTradedNotAwaitedTwice)
{
    Config cfg;
    cfg.port = 20000 + static_cast<uint32_t>(::getpid() % 20000);
    std::string server_err;
    Result server_got;
    Recv stop_wait = Recv::Ok, result_wait = Recv::Error;
    std::thread server([&] {
        Exchange x;
        if (!x.accept_client(cfg, &server_err))
            return;
        Stop st;
        stop_wait = recv_msg(x, MsgType::Stop, &st, 10000, &server_err);
        result_wait = recv_msg(x, MsgType::Result, &server_got, 10000, &server_err);
        Result mine;
        x.send(encode(mine), &server_err);
    });
    Exchange client;
    std::string err;
    bool connected = false;
    for (int i = 0; i < 50 && !connected; i++) {
        connected = client.connect_server(cfg, &err);
        if (!connected)
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    ASSERT_TRUE(connected) << err;
    Result failed;
    failed.status = kResultFailed;
    failed.count = 7;
    ASSERT_TRUE(client.send(encode(failed), &err)) << err;
    Result back;
    EXPECT_EQ(recv_msg(client, MsgType::Result, &back, 10000, &err), Recv::Ok) << err;
    EXPECT_EQ(back.status, kResultOk);
    server.join();
    EXPECT_EQ(stop_wait, Recv::Error);
    EXPECT_EQ(result_wait, Recv::Ok) << server_err;
    EXPECT_EQ(server_got.status, kResultFailed);
    EXPECT_EQ(server_got.count, 7u);
}

}  // namespace
