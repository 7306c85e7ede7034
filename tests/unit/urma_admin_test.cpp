// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The UB/URMA stack authors
// urma_admin without a kernel: the command line, the decoding of netlink
// attributes, the output formats, and the exit codes and error lines of
// whole runs against a fake Backend.
#include <linux/netlink.h>
#include <ub/ubcore_netlink.h>

#include <gtest/gtest.h>

#include <cerrno>
#include <cstring>
#include <sstream>

#include "app.h"
#include "bitmask.h"
#include "bond_info.h"
#include "cli.h"
#include "decode.h"
#include "format.h"
#include "topo.h"
#include "wire_stats.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>

namespace {

using namespace urma_admin;

Command parse_ok(const std::vector<std::string> &args)
{
    ParseResult r = parse_args(args);
    if (const auto *u = std::get_if<UsageError>(&r))
        ADD_FAILURE() << "refused: " << u->message;
    return std::holds_alternative<Command>(r) ? std::get<Command>(r) : Command{};
}

std::string parse_err(const std::vector<std::string> &args)
{
    ParseResult r = parse_args(args);
    if (std::holds_alternative<Command>(r)) {
        ADD_FAILURE() << "accepted";
        return "";
    }
    return std::get<UsageError>(r).message;
}

TEST(UrmaAdminParse, HelpAndVersion)
{
    EXPECT_EQ(parse_ok({"-h"}).verb, Verb::Help);
    EXPECT_EQ(parse_ok({"--help"}).verb, Verb::Help);
    EXPECT_EQ(parse_ok({"eid", "add", "--help"}).verb, Verb::Help);
    EXPECT_EQ(parse_ok({"-V"}).verb, Verb::Version);
    EXPECT_EQ(parse_ok({"--version"}).verb, Verb::Version);
    EXPECT_NE(parse_err({"-V", "x"}).find("no arguments"), std::string::npos);
}

TEST(UrmaAdminParse, Show)
{
    Command c = parse_ok({"show"});
    EXPECT_EQ(c.verb, Verb::Show);
    EXPECT_TRUE(c.dev.empty());
    EXPECT_FALSE(c.whole);
    c = parse_ok({"show", "--dev", "udma0", "--whole"});
    EXPECT_EQ(c.dev, "udma0");
    EXPECT_TRUE(c.whole);
    c = parse_ok({"show", "-d", "udma1", "-w", "--all"});
    EXPECT_EQ(c.dev, "udma1");
    EXPECT_TRUE(c.whole);
    EXPECT_EQ(parse_ok({"show", "--brief"}).verb, Verb::Show);
}

TEST(UrmaAdminParse, ShowBadForms)
{
    EXPECT_NE(parse_err({"show", "--dev"}).find("needs a device name"), std::string::npos);
    EXPECT_NE(parse_err({"show", "--bogus"}).find("unknown option '--bogus'"), std::string::npos);
    EXPECT_NE(parse_err({"show", "--brief", "--all"}).find("exclude"), std::string::npos);
    EXPECT_NE(parse_err({"show", "--dev", std::string(64, 'x')}).find("longer than 63"), std::string::npos);
    EXPECT_NE(parse_err({"show", "topo", "x"}).find("bad node ID 'x'"), std::string::npos);
    EXPECT_NE(parse_err({"show", "topo", "1", "2"}).find("expected [NODE_ID]"), std::string::npos);
}

TEST(UrmaAdminParse, Topo)
{
    Command c = parse_ok({"show", "topo"});
    EXPECT_EQ(c.verb, Verb::ShowTopo);
    EXPECT_FALSE(c.id);
    c = parse_ok({"show", "topo", "4"});
    EXPECT_EQ(c.verb, Verb::ShowTopo);
    EXPECT_EQ(c.id, 4u);
    c = parse_ok({"topo", "set", "/tmp/t"});
    EXPECT_EQ(c.verb, Verb::TopoSet);
    EXPECT_EQ(c.file, "/tmp/t");
    EXPECT_EQ(parse_ok({"topo", "clear"}).verb, Verb::TopoClear);
    EXPECT_NE(parse_err({"topo"}).find("expected 'set <file>' or 'clear'"), std::string::npos);
    EXPECT_NE(parse_err({"topo", "set"}).find("expected"), std::string::npos);
    EXPECT_NE(parse_err({"topo", "get", "x"}).find("expected"), std::string::npos);
}

TEST(UrmaAdminParse, ShowResources)
{
    const char *kinds[] = {"jfc", "jfs", "jfr", "jetty", "seg", "tp"};
    for (size_t i = 0; i < 6; i++) {
        Command c = parse_ok({"show", "dev", "udma0", kinds[i]});
        EXPECT_EQ(c.verb, Verb::ShowRes);
        EXPECT_EQ(c.dev, "udma0");
        EXPECT_EQ(static_cast<size_t>(c.res), i);
        EXPECT_FALSE(c.id.has_value());
        EXPECT_STREQ(res_type_name(c.res), kinds[i]);
    }
    Command c = parse_ok({"show", "dev", "udma0", "jetty", "4294967295"});
    ASSERT_TRUE(c.id.has_value());
    EXPECT_EQ(*c.id, 4294967295u);
    EXPECT_NE(parse_err({"show", "dev", "udma0", "jfc", "4294967296"}).find("bad ID"), std::string::npos);
    EXPECT_NE(parse_err({"show", "dev", "udma0", "jfc", "-1"}).find("bad ID"), std::string::npos);
    EXPECT_NE(parse_err({"show", "dev", "udma0", "jfc", "1x"}).find("bad ID"), std::string::npos);
    EXPECT_NE(parse_err({"show", "dev", "udma0", "qp"}).find("unknown object kind 'qp'"), std::string::npos);
    EXPECT_NE(parse_err({"show", "dev", "udma0", "tpreuse"}).find("not supported"), std::string::npos);
    EXPECT_NE(parse_err({"show", "dev", "udma0"}).find("expected"), std::string::npos);
    EXPECT_NE(parse_err({"show", "dev", "udma0", "jfc", "1", "2"}).find("expected"), std::string::npos);
}

TEST(UrmaAdminParse, Eid)
{
    Command c = parse_ok({"eid", "add", "udma0", "5", "fd00::1"});
    EXPECT_EQ(c.verb, Verb::EidAdd);
    EXPECT_EQ(c.dev, "udma0");
    EXPECT_EQ(c.eid_index, 5u);
    EXPECT_EQ(eid_to_string(c.eid), "fd00::1");
    c = parse_ok({"eid", "add", "udma0", "0", "10.0.0.2"});
    EXPECT_EQ(eid_to_string(c.eid), "::ffff:10.0.0.2");
    c = parse_ok({"eid", "del", "udma0", "65535"});
    EXPECT_EQ(c.verb, Verb::EidDel);
    EXPECT_EQ(c.eid_index, 65535u);
    c = parse_ok({"eid", "set", "udma0", "3", "mode", "static"});
    EXPECT_EQ(c.verb, Verb::EidSetMode);
    EXPECT_TRUE(c.static_mode);
    EXPECT_EQ(c.eid_index, 3u);
    c = parse_ok({"eid", "set", "udma0", "mode", "dynamic"});
    EXPECT_EQ(c.verb, Verb::EidSetMode);
    EXPECT_FALSE(c.static_mode);
    EXPECT_EQ(c.dev, "udma0");
}

TEST(UrmaAdminParse, EidBadForms)
{
    EXPECT_NE(parse_err({"eid"}).find("expected add"), std::string::npos);
    EXPECT_NE(parse_err({"eid", "move"}).find("unknown subcommand 'move'"), std::string::npos);
    EXPECT_NE(parse_err({"eid", "add", "udma0", "5"}).find("expected"), std::string::npos);
    EXPECT_NE(parse_err({"eid", "add", "udma0", "65536", "::1"}).find("bad EID index"), std::string::npos);
    EXPECT_NE(parse_err({"eid", "add", "udma0", "1", "fd00::zz"}).find("bad EID 'fd00::zz'"), std::string::npos);
    EXPECT_NE(parse_err({"eid", "add", "udma0", "1", "::1", "--ns", "/proc/1/ns/net"}).find("eid set <dev> <eid_idx> ns"),
              std::string::npos);
    EXPECT_NE(parse_err({"eid", "add", "udma0", "1", "::1", "junk"}).find("unexpected 'junk'"), std::string::npos);
    EXPECT_NE(parse_err({"eid", "del", "udma0"}).find("expected"), std::string::npos);
    EXPECT_NE(parse_err({"eid", "set", "udma0", "1", "mode", "auto"}).find("unknown mode 'auto'"),
              std::string::npos);
    EXPECT_NE(parse_err({"eid", "set", "udma0", "1", "ns"}).find("<eid_idx> ns <netns>"), std::string::npos);
    EXPECT_NE(parse_err({"eid", "set", "udma0", "1", "ns", "a", "b"}).find("<eid_idx> ns <netns>"),
              std::string::npos);
    EXPECT_NE(parse_err({"eid", "set", "udma0", "70000", "ns", "x"}).find("bad EID index"), std::string::npos);
    EXPECT_NE(parse_err({"eid", "set", "udma0", "1", "ns", ""}).find("bad network namespace"), std::string::npos);
    EXPECT_NE(parse_err({"eid", "set", "udma0", "x", "mode", "static"}).find("bad EID index"), std::string::npos);
}

TEST(UrmaAdminParse, Dev)
{
    Command c = parse_ok({"dev", "add", "ua0", "netdev", "veth0"});
    EXPECT_EQ(c.verb, Verb::DevAdd);
    EXPECT_EQ(c.dev, "ua0");
    EXPECT_EQ(c.netdev, "veth0");
    EXPECT_EQ(c.link_type, "udma");
    c = parse_ok({"dev", "add", "ua%d", "netdev", "lo", "type", "other"});
    EXPECT_EQ(c.link_type, "other");
    c = parse_ok({"dev", "del", "ua0"});
    EXPECT_EQ(c.verb, Verb::DevDel);
    EXPECT_EQ(c.dev, "ua0");
    EXPECT_NE(parse_err({"dev", "add", "ua0", "veth0"}).find("expected"), std::string::npos);
    EXPECT_NE(parse_err({"dev", "add", "ua0", "netdev", std::string(16, 'n')}).find("bad netdev"),
              std::string::npos);
    EXPECT_NE(parse_err({"dev", "del"}).find("expected <name>"), std::string::npos);
    EXPECT_NE(parse_err({"dev", "rename"}).find("unknown subcommand"), std::string::npos);
}

// User guide 6.3.1: the namespace commands, <netns> as a path or an
// ip-netns name.
TEST(UrmaAdminParse, Namespaces)
{
    Command c = parse_ok({"dev", "set", "udma0", "ns", "/proc/11962/ns/net"});
    EXPECT_EQ(c.verb, Verb::DevSetNs);
    EXPECT_EQ(c.dev, "udma0");
    EXPECT_EQ(c.netns, "/proc/11962/ns/net");
    c = parse_ok({"dev", "expose", "udma0", "/var/run/netns/x"});
    EXPECT_EQ(c.verb, Verb::DevExpose);
    EXPECT_EQ(c.netns, "/var/run/netns/x");
    c = parse_ok({"dev", "unexpose", "udma0", "x"});
    EXPECT_EQ(c.verb, Verb::DevUnexpose);
    EXPECT_EQ(c.netns, "/var/run/netns/x");
    c = parse_ok({"eid", "set", "udma0", "2", "ns", "./here"});
    EXPECT_EQ(c.verb, Verb::EidSetNs);
    EXPECT_EQ(c.eid_index, 2u);
    EXPECT_EQ(c.netns, "./here");
    c = parse_ok({"system", "set", "dev_sharing", "on"});
    EXPECT_EQ(c.verb, Verb::SystemSetDevSharing);
    EXPECT_TRUE(c.on);
    EXPECT_FALSE(parse_ok({"system", "set", "dev_sharing", "off"}).on);

    EXPECT_NE(parse_err({"dev", "set", "udma0", "ns"}).find("expected <dev> ns <netns>"), std::string::npos);
    EXPECT_NE(parse_err({"dev", "set", "udma0", "mtu", "x"}).find("expected <dev> ns <netns>"), std::string::npos);
    EXPECT_NE(parse_err({"dev", "set", "udma0", "sl", "--sl", "1"}).find("not supported"), std::string::npos);
    EXPECT_NE(parse_err({"dev", "set", std::string(64, 'd'), "ns", "x"}).find("longer than 63"),
              std::string::npos);
    EXPECT_NE(parse_err({"dev", "expose", "udma0"}).find("expected <dev> <netns>"), std::string::npos);
    EXPECT_NE(parse_err({"dev", "unexpose", "udma0", "a", "b"}).find("expected <dev> <netns>"),
              std::string::npos);
    EXPECT_NE(parse_err({"dev", "expose", "udma0", std::string(5000, 'p')}).find("bad network namespace"),
              std::string::npos);
    EXPECT_NE(parse_err({"system", "set", "dev_sharing", "maybe"}).find("on or off"), std::string::npos);
    EXPECT_NE(parse_err({"system", "set", "dev_sharing"}).find("dev_sharing {on|off}"), std::string::npos);
    EXPECT_NE(parse_err({"system", "set", "eid_sharing", "on"}).find("not supported"), std::string::npos);
}

TEST(UrmaAdminParse, SystemAndUnknown)
{
    EXPECT_EQ(parse_ok({"system", "show"}).verb, Verb::SystemShow);
    EXPECT_NE(parse_err({"system"}).find("expected 'show'"), std::string::npos);
    EXPECT_NE(parse_err({}).find("no command"), std::string::npos);
    EXPECT_NE(parse_err({"frobnicate"}).find("unknown command 'frobnicate'"), std::string::npos);
    EXPECT_NE(parse_err({"--frob"}).find("unknown option '--frob'"), std::string::npos);
    for (const char *c : {"perf", "main_ue_eid"})
        EXPECT_NE(parse_err({c, "show"}).find("not supported"), std::string::npos) << c;
}

TEST(UrmaAdminBits, GuideExamples)
{
    // The user guide's own examples (6.4.2).
    EXPECT_EQ(atomic_feature_text(0x5), "0x5 [compare_and_swap(1) fetch_and_add(4)]");
    EXPECT_EQ(trans_mode_text(0x7),
              "0x7 [RM(Reliable message, 1) RC(Reliable connection, 2) UM(Unreliable message, 4)]");
    EXPECT_EQ(congestion_ctrl_alg_text(0x13), "0x13 [NONE(1) DCQCN(2) LDCP_AND_CAQM(16)]");
}

TEST(UrmaAdminBits, EdgeCases)
{
    EXPECT_EQ(atomic_feature_text(0), "0x0 []");
    EXPECT_EQ(atomic_feature_text(0x3f),
              "0x3f [compare_and_swap(1) swap(2) fetch_and_add(4) fetch_and_sub(8) fetch_and_or(16) "
              "fetch_and_xor(32)]");
    EXPECT_EQ(atomic_feature_text(0x7f),
              "0x7f [compare_and_swap(1) swap(2) fetch_and_add(4) fetch_and_sub(8) fetch_and_or(16) "
              "fetch_and_xor(32) fetch_and_and(64)]");
    EXPECT_EQ(atomic_feature_text(0x181), "0x181 [compare_and_swap(1) unknown(0x180)]");
    EXPECT_EQ(congestion_ctrl_alg_text(0x100), "0x100 [ACC(256)]");
    EXPECT_EQ(access_text(0xe), "0xe [READ(2) WRITE(4) ATOMIC(8)]");
    EXPECT_EQ(short_bits(0x6, kAccessBits), "READ|WRITE");
    EXPECT_EQ(short_bits(0, kAccessBits), "-");
    EXPECT_EQ(short_bits(0x12, kAccessBits), "READ|0x10");
    EXPECT_EQ(short_bits(2, kTransModeBits), "RC");
}

// Netlink attribute bytes, built by hand as the kernel lays them out.
class Attrs {
public:
    Attrs &u8(int type, uint8_t v) { return put(type, &v, 1); }
    Attrs &u32(int type, uint32_t v) { return put(type, &v, 4); }
    Attrs &u64(int type, uint64_t v) { return put(type, &v, 8); }
    Attrs &flag(int type) { return put(type, nullptr, 0); }
    Attrs &str(int type, const std::string &s) { return put(type, s.c_str(), s.size() + 1); }
    Attrs &bin(int type, const void *p, size_t n) { return put(type, p, n); }
    Attrs &nest(int type, const Attrs &inner) { return put(type, inner.b_.data(), inner.b_.size()); }
    const std::vector<uint8_t> &bytes() const { return b_; }
    RawAttrs raw() const { return parse_raw(b_.data(), b_.size()); }

private:
    Attrs &put(int type, const void *p, size_t n)
    {
        nlattr a{static_cast<uint16_t>(NLA_HDRLEN + n), static_cast<uint16_t>(type)};
        size_t at = b_.size();
        b_.resize(at + NLA_ALIGN(NLA_HDRLEN + n), 0);
        std::memcpy(&b_[at], &a, sizeof(a));
        if (n)
            std::memcpy(&b_[at + NLA_HDRLEN], p, n);
        return *this;
    }
    std::vector<uint8_t> b_;
};

TEST(UrmaAdminDecode, RawAttrsStopAtMalformed)
{
    Attrs a;
    a.u32(3, 7).u8(4, 1);
    std::vector<uint8_t> b = a.bytes();
    RawAttrs raw = parse_raw(b.data(), b.size());
    ASSERT_EQ(raw.size(), 2u);
    EXPECT_EQ(raw[3].size(), 4u);
    // A length past the end drops that attribute and what follows.
    b[8] = 200;
    raw = parse_raw(b.data(), b.size());
    EXPECT_EQ(raw.size(), 1u);
    EXPECT_TRUE(parse_raw(b.data(), 3).empty());
}

TEST(UrmaAdminDecode, Device)
{
    Attrs caps, objs, a;
    caps.u32(UBCORE_NL_CAP_MAX_JFC, 1024).u64(UBCORE_NL_CAP_MAX_MSG_SIZE, 1ull << 32)
        .u32(UBCORE_NL_CAP_ATOMIC_FEATURE, 0x5);
    objs.u32(UBCORE_NL_OBJ_JFC, 2).u64(UBCORE_NL_OBJ_PINNED_PAGES, 9);
    a.str(UBCORE_NL_ATTR_DEV_NAME, "udma0").str(UBCORE_NL_ATTR_DRIVER_NAME, "udma")
        .str(UBCORE_NL_ATTR_NETDEV_NAME, "lo").u8(UBCORE_NL_ATTR_EID_MODE, 1).u8(UBCORE_NL_ATTR_PORT_STATE, 4)
        .u32(UBCORE_NL_ATTR_ACTIVE_MTU, 4096).nest(UBCORE_NL_ATTR_DEV_CAP, caps).nest(UBCORE_NL_ATTR_DEV_OBJ, objs);
    auto d = decode_device(a.raw());
    ASSERT_TRUE(d.has_value());
    EXPECT_EQ(d->name, "udma0");
    EXPECT_EQ(d->driver, "udma");
    EXPECT_EQ(d->netdev, "lo");
    EXPECT_EQ(d->eid_mode, 1);
    EXPECT_EQ(d->port_state, 4);
    EXPECT_EQ(d->active_mtu, 4096u);
    EXPECT_EQ(d->caps.at(UBCORE_NL_CAP_MAX_JFC), 1024u);
    EXPECT_EQ(d->caps.at(UBCORE_NL_CAP_MAX_MSG_SIZE), 1ull << 32);
    EXPECT_EQ(d->objs.at(UBCORE_NL_OBJ_PINNED_PAGES), 9u);
    EXPECT_FALSE(decode_device(Attrs().u8(UBCORE_NL_ATTR_EID_MODE, 0).raw()).has_value());
}

TEST(UrmaAdminDecode, EidResourceSystem)
{
    Eid eid = *parse_eid("fd00::7");
    auto e = decode_eid(Attrs().u32(UBCORE_NL_ATTR_EID_INDEX, 3).bin(UBCORE_NL_ATTR_EID, eid.data(), 16)
                            .flag(UBCORE_NL_ATTR_EID_STATIC).raw());
    ASSERT_TRUE(e.has_value());
    EXPECT_EQ(e->index, 3u);
    EXPECT_EQ(e->eid, eid);
    EXPECT_TRUE(e->is_static);
    EXPECT_FALSE(decode_eid(Attrs().u32(UBCORE_NL_ATTR_EID_INDEX, 3).bin(UBCORE_NL_ATTR_EID, eid.data(), 4).raw()));

    Attrs res;
    res.u32(UBCORE_NL_RES_ID, 12).bin(UBCORE_NL_RES_EID, eid.data(), 16).u64(UBCORE_NL_RES_VA, 0x7f0000001000)
        .flag(UBCORE_NL_RES_KERNEL);
    auto r = decode_resource(Attrs().str(UBCORE_NL_ATTR_DEV_NAME, "udma0").u8(UBCORE_NL_ATTR_RES_TYPE, 4)
                                 .nest(UBCORE_NL_ATTR_RES, res).raw());
    ASSERT_TRUE(r.has_value());
    EXPECT_EQ(r->type, ResType::Seg);
    EXPECT_EQ(r->get(UBCORE_NL_RES_ID), 12u);
    EXPECT_EQ(r->get(UBCORE_NL_RES_VA), 0x7f0000001000u);
    EXPECT_TRUE(r->has(UBCORE_NL_RES_KERNEL));
    ASSERT_TRUE(r->eid.has_value());
    EXPECT_EQ(*r->eid, eid);
    // Unknown type, or no ID: refused.
    EXPECT_FALSE(decode_resource(Attrs().u8(UBCORE_NL_ATTR_RES_TYPE, 9).nest(UBCORE_NL_ATTR_RES, res).raw()));
    EXPECT_FALSE(decode_resource(
        Attrs().u8(UBCORE_NL_ATTR_RES_TYPE, 0).nest(UBCORE_NL_ATTR_RES, Attrs().u32(UBCORE_NL_RES_DEPTH, 1)).raw()));

    auto s = decode_system(Attrs().u32(UBCORE_NL_ATTR_SYS_DEV_COUNT, 2).u8(UBCORE_NL_ATTR_SYS_NS_MODE, 0)
                               .u32(UBCORE_NL_ATTR_SYS_NL_VERSION, 1).u32(UBCORE_NL_ATTR_SYS_ABI_VERSION, 1).raw());
    ASSERT_TRUE(s.has_value());
    EXPECT_EQ(s->dev_count, 2u);
    EXPECT_EQ(s->nl_version, 1u);
}

DeviceInfo sample_device()
{
    DeviceInfo d;
    d.name = "udma0";
    d.driver = "udma";
    d.netdev = "lo";
    d.port_state = 4;
    d.active_mtu = 4096;
    d.caps = {{UBCORE_NL_CAP_MAX_JFC, 1024},
              {UBCORE_NL_CAP_ATOMIC_FEATURE, 0x5},
              {UBCORE_NL_CAP_TRANS_MODE, 0x7},
              {UBCORE_NL_CAP_CONGESTION_CTRL_ALG, 0x3}};
    d.objs = {{UBCORE_NL_OBJ_JFC, 2}, {UBCORE_NL_OBJ_PINNED_PAGES, 16}};
    d.eids = {{0, *parse_eid("127.0.0.1"), false}, {5, *parse_eid("fd00::5"), true}};
    return d;
}

// sample_device() as "show --whole" prints it: every capability of the
// guide's list, "-" for those the kernel did not send; the bit fields in
// the guide's notation (6.4.2: atomic_feature 0x5 is
// "[compare_and_swap(1) fetch_and_add(4)]").
const char kSampleWhole[] =
    "udma0:\n"
    "  driver: udma\n"
    "  netdev: lo\n"
    "  type: physical\n"
    "  eid_mode: dynamic\n"
    "  port_state: ACTIVE\n"
    "  active_mtu: 4096\n"
    "  max_jfc: 1024\n"
    "  max_jfs: -\n"
    "  max_jfr: -\n"
    "  max_jetty: -\n"
    "  max_jfc_depth: -\n"
    "  max_jfs_depth: -\n"
    "  max_jfr_depth: -\n"
    "  max_jfs_sge: -\n"
    "  max_jfs_rsge: -\n"
    "  max_jfr_sge: -\n"
    "  max_jfs_inline_size: -\n"
    "  max_msg_size: -\n"
    "  max_write_size: -\n"
    "  max_read_size: -\n"
    "  max_token_id: -\n"
    "  atomic_feature: 0x5 [compare_and_swap(1) fetch_and_add(4)]\n"
    "  trans_mode: 0x7 [RM(Reliable message, 1) RC(Reliable connection, 2) UM(Unreliable message, 4)]\n"
    "  congestion_ctrl_alg: 0x3 [NONE(1) DCQCN(2)]\n"
    "  reserved_jetty_id_max: -\n"
    "  eids:\n"
    "    0  ::ffff:127.0.0.1  dynamic\n"
    "    5  fd00::5  static\n"
    "  objects:\n"
    "    ucontext: -\n"
    "    jfc: 2\n"
    "    jfs: -\n"
    "    jfr: -\n"
    "    jetty: -\n"
    "    token_id: -\n"
    "    seg: -\n"
    "    target_seg: -\n"
    "    tjfr: -\n"
    "    tjetty: -\n"
    "    jetty_grp: -\n"
    "    pinned_pages: 16\n";

// sample_device() in the "show" table.
const char kSampleTable[] =
    "dev_name  driver  netdev  eid_mode  eid_cnt  port_state  active_mtu\n"
    "udma0     udma    lo      dynamic   2        ACTIVE      4096\n";

TEST(UrmaAdminFormat, Table)
{
    Table t({"a", "long_header"});
    t.add({"wide_cell", "x"});
    EXPECT_EQ(t.str(), "a          long_header\nwide_cell  x\n");
}

TEST(UrmaAdminFormat, DeviceTable)
{
    DeviceInfo unbound;
    unbound.name = "ub1";
    unbound.driver = "udma";
    unbound.eid_mode = 1;
    EXPECT_EQ(format_device_table({sample_device(), unbound}),
              "dev_name  driver  netdev  eid_mode  eid_cnt  port_state  active_mtu\n"
              "udma0     udma    lo      dynamic   2        ACTIVE      4096\n"
              "ub1       udma    -       static    0        NOP         0\n");
}

TEST(UrmaAdminFormat, DeviceWhole)
{
    EXPECT_EQ(format_device_whole(sample_device()), kSampleWhole);
    DeviceInfo bare;
    bare.name = "ub1";
    bare.driver = "udma";
    bare.eid_mode = 1;
    bare.port_state = 1;
    std::string s = format_device_whole(bare);
    EXPECT_EQ(s.rfind("ub1:\n  driver: udma\n  netdev: -\n  type: physical\n  eid_mode: static\n"
                      "  port_state: DOWN\n"
                      "  active_mtu: 0\n  max_jfc: -\n", 0),
              0u)
        << s;
    EXPECT_NE(s.find("  reserved_jetty_id_max: -\n  eids:\n    (none)\n  objects:\n    ucontext: -\n"),
              std::string::npos)
        << s;
}

Resource res(ResType t, NumAttrs a)
{
    Resource r;
    r.type = t;
    r.attrs = std::move(a);
    return r;
}

TEST(UrmaAdminFormat, ResourceTables)
{
    Resource jfc = res(ResType::Jfc, {{UBCORE_NL_RES_ID, 1}, {UBCORE_NL_RES_DEPTH, 64}, {UBCORE_NL_RES_JFCE, 1},
                                      {UBCORE_NL_RES_USE_CNT, 2}, {UBCORE_NL_RES_UASID, 77}, {UBCORE_NL_RES_PID, 123}});
    Resource kjfc = res(ResType::Jfc, {{UBCORE_NL_RES_ID, 2}, {UBCORE_NL_RES_DEPTH, 128},
                                       {UBCORE_NL_RES_USE_CNT, 0}, {UBCORE_NL_RES_KERNEL, 1}});
    EXPECT_EQ(format_resource_table(ResType::Jfc, {jfc, kjfc}),
              "jfc_id  depth  jfce  use_cnt  owner   uasid  pid\n"
              "1       64     yes   2        user    77     123\n"
              "2       128    no    0        kernel  -      -\n");

    Resource jetty = res(ResType::Jetty, {{UBCORE_NL_RES_ID, 1025}, {UBCORE_NL_RES_DEPTH, 64},
                                          {UBCORE_NL_RES_TRANS_MODE, 1}, {UBCORE_NL_RES_STATE, 1},
                                          {UBCORE_NL_RES_JFC_ID, 1}, {UBCORE_NL_RES_RECV_JFC_ID, 2},
                                          {UBCORE_NL_RES_JFR_ID, 1024}, {UBCORE_NL_RES_UASID, 5}});
    EXPECT_EQ(format_resource_table(ResType::Jetty, {jetty}),
              "jetty_id  depth  trans_mode  state  send_jfc  recv_jfc  jfr_id  owner  uasid  pid\n"
              "1025      64     RM          READY  1         2         1024    user   5      -\n");

    // JFR states are RESET, READY, ERROR: 2 is ERROR (a jetty's 2 is SUSPENDED).
    Resource jfr = res(ResType::Jfr, {{UBCORE_NL_RES_ID, 1024}, {UBCORE_NL_RES_STATE, 2}, {UBCORE_NL_RES_KERNEL, 1}});
    EXPECT_EQ(format_resource_table(ResType::Jfr, {jfr}),
              "jfr_id  depth  trans_mode  state  jfc_id  use_cnt  owner   uasid  pid\n"
              "1024    -      -           ERROR  -       -        kernel  -      -\n");

    Resource seg = res(ResType::Seg, {{UBCORE_NL_RES_ID, 3}, {UBCORE_NL_RES_VA, 0x1000}, {UBCORE_NL_RES_LEN, 8192},
                                      {UBCORE_NL_RES_ACCESS, 6}, {UBCORE_NL_RES_PINNED_PAGES, 2},
                                      {UBCORE_NL_RES_KERNEL, 1}});
    seg.eid = *parse_eid("fd00::1");
    EXPECT_EQ(format_resource_table(ResType::Seg, {seg}),
              "token_id  eid      va      len   access      pinned_pages  owner   uasid  pid\n"
              "3         fd00::1  0x1000  8192  READ|WRITE  2             kernel  -      -\n");
    EXPECT_EQ(format_resource_table(ResType::Tp, {}),
              "tpn  peer_eid  peer_tpn  trans_mode  state  users  age_ms\n");
    // A TP's state is the user guide 5.1.1.4's, in its legend's order: 5 is
    // Initiator established, 13 Target established.
    Resource tp = res(ResType::Tp, {{UBCORE_NL_RES_ID, 3}, {UBCORE_NL_RES_PEER_TPN, 7},
                                    {UBCORE_NL_RES_TRANS_MODE, 1}, {UBCORE_NL_RES_STATE, 5},
                                    {UBCORE_NL_RES_USERS, 2}, {UBCORE_NL_RES_AGE_MS, 1500},
                                    {UBCORE_NL_RES_KERNEL, 1}});
    tp.eid = *parse_eid("fd00::2");
    Resource tgt = res(ResType::Tp, {{UBCORE_NL_RES_ID, 4}, {UBCORE_NL_RES_PEER_TPN, 9},
                                     {UBCORE_NL_RES_TRANS_MODE, 2}, {UBCORE_NL_RES_STATE, 13},
                                     {UBCORE_NL_RES_USERS, 0}, {UBCORE_NL_RES_AGE_MS, 20},
                                     {UBCORE_NL_RES_KERNEL, 1}});
    tgt.eid = *parse_eid("fd00::3");
    EXPECT_EQ(format_resource_table(ResType::Tp, {tp, tgt}),
              "tpn  peer_eid  peer_tpn  trans_mode  state                  users  age_ms\n"
              "3    fd00::2   7         RM          Initiator_established  2      1500\n"
              "4    fd00::3   9         RC          Target_established     0      20\n");
}

TEST(UrmaAdminFormat, ResourceDetail)
{
    Resource jfs = res(ResType::Jfs, {{UBCORE_NL_RES_ID, 1030}, {UBCORE_NL_RES_DEPTH, 64}, {UBCORE_NL_RES_FLAG, 0},
                                      {UBCORE_NL_RES_TRANS_MODE, 1}, {UBCORE_NL_RES_STATE, 3},
                                      {UBCORE_NL_RES_JFC_ID, 4}, {UBCORE_NL_RES_UASID, 9}, {UBCORE_NL_RES_PID, 42}});
    EXPECT_EQ(format_resource_detail(jfs), "jfs:\n  id: 1030\n  depth: 64\n  flag: 0x0\n"
                                           "  trans_mode: 0x1 [RM(Reliable message, 1)]\n  state: ERROR\n"
                                           "  jfc_id: 4\n  owner: user\n  uasid: 9\n  pid: 42\n");
    Resource seg = res(ResType::Seg, {{UBCORE_NL_RES_ID, 3}, {UBCORE_NL_RES_ACCESS, 1}, {UBCORE_NL_RES_KERNEL, 1}});
    seg.eid = *parse_eid("::1");
    EXPECT_EQ(format_resource_detail(seg),
              "seg:\n  token_id: 3\n  eid: ::1\n  access: 0x1 [LOCAL_ONLY(1)]\n  owner: kernel\n");
    // Another user's segment, to a reader without CAP_NET_ADMIN.
    Resource hidden = res(ResType::Seg, {{UBCORE_NL_RES_ACCESS, 2}, {UBCORE_NL_RES_HIDDEN, 1}});
    EXPECT_EQ(format_resource_detail(hidden), "seg:\n  access: 0x2 [READ(2)]\n  owner: hidden\n");
}

TEST(UrmaAdminFormat, System)
{
    SystemInfo s{3, UBCORE_NL_NS_SHARED, 1, 2, std::nullopt};
    EXPECT_EQ(format_system(s), "dev_count: 3\nns_mode: shared\ndev_sharing: on\neid_sharing: on\n"
                                "netlink_version: 1\nabi_version: 2\n");
    s.ns_mode = UBCORE_NL_NS_EXCLUSIVE;
    EXPECT_EQ(format_system(s), "dev_count: 3\nns_mode: exclusive\ndev_sharing: off\neid_sharing: off\n"
                                "netlink_version: 1\nabi_version: 2\n");
    s.dev_sharing = true;
    EXPECT_EQ(format_system(s), "dev_count: 3\nns_mode: exclusive\ndev_sharing: on\neid_sharing: off\n"
                                "netlink_version: 1\nabi_version: 2\n");
}

// A Backend that records calls and answers as told.
class FakeBackend : public Backend {
public:
    Status connect_status;
    Status next;  // the answer of the next call
    std::vector<DeviceInfo> devices;
    std::vector<Resource> resources;
    WireStats wire;
    std::vector<std::string> calls;

    Status connect() override { return connect_status; }
    Status list_devices(std::vector<DeviceInfo> *out) override
    {
        calls.push_back("list_devices");
        *out = devices;
        return next;
    }
    Status get_device(const std::string &dev, DeviceInfo *out) override
    {
        calls.push_back("get_device " + dev);
        for (const auto &d : devices)
            if (d.name == dev)
                *out = d;
        return next;
    }
    Status list_eids(const std::string &dev, std::vector<EidInfo> *out) override
    {
        calls.push_back("list_eids " + dev);
        for (const auto &d : devices)
            if (d.name == dev)
                *out = d.eids;
        return Status{};
    }
    Status list_resources(const std::string &dev, ResType t, std::optional<uint32_t> id,
                          std::vector<Resource> *out) override
    {
        calls.push_back("list_resources " + dev + " " + res_type_name(t) + (id ? " " + std::to_string(*id) : ""));
        *out = resources;
        return next;
    }
    Status get_resource(const std::string &dev, ResType t, uint32_t id, Resource *out) override
    {
        calls.push_back("get_resource " + dev + " " + res_type_name(t) + " " + std::to_string(id));
        if (!resources.empty())
            *out = resources[0];
        return next;
    }
    Status system_get(SystemInfo *out) override
    {
        calls.push_back("system_get");
        *out = SystemInfo{1, 0, 1, 1, std::nullopt};
        return next;
    }
    Status get_wire_stats(const std::string &dev, WireStats *out) override
    {
        calls.push_back("get_wire_stats " + dev);
        *out = wire;
        return next;
    }
    Status eid_add(const std::string &dev, uint32_t index, const Eid &eid) override
    {
        calls.push_back("eid_add " + dev + " " + std::to_string(index) + " " + eid_to_string(eid));
        return next;
    }
    Status eid_del(const std::string &dev, uint32_t index) override
    {
        calls.push_back("eid_del " + dev + " " + std::to_string(index));
        return next;
    }
    Status eid_set_mode(const std::string &dev, bool static_mode) override
    {
        calls.push_back("eid_set_mode " + dev + (static_mode ? " static" : " dynamic"));
        return next;
    }
    Status dev_add(const std::string &name, const std::string &netdev, const std::string &type) override
    {
        calls.push_back("dev_add " + name + " " + netdev + " " + type);
        return next;
    }
    Status dev_del(const std::string &name) override
    {
        calls.push_back("dev_del " + name);
        return next;
    }
    Status dev_set_ns(const std::string &dev, const std::string &netns) override
    {
        calls.push_back("dev_set_ns " + dev + " " + netns);
        return next;
    }
    Status dev_expose(const std::string &dev, const std::string &netns, bool expose) override
    {
        calls.push_back((expose ? "dev_expose " : "dev_unexpose ") + dev + " " + netns);
        return next;
    }
    Status eid_set_ns(const std::string &dev, uint32_t index, const std::string &netns) override
    {
        calls.push_back("eid_set_ns " + dev + " " + std::to_string(index) + " " + netns);
        return next;
    }
    Status set_dev_sharing(bool on) override
    {
        calls.push_back(std::string("set_dev_sharing ") + (on ? "on" : "off"));
        return next;
    }
    TopoNodes topo;  // what topo_get answers and topo_set stores
    Status topo_get(TopoNodes *out) override
    {
        calls.push_back("topo_get");
        *out = topo;
        return next;
    }
    Status topo_set(const TopoNodes &nodes) override
    {
        calls.push_back("topo_set " + std::to_string(nodes.size()));
        if (next.ok())
            topo = nodes;
        return next;
    }
    std::map<std::string, BondInfo> bonds;  // bonding devices by name
    Status agg_add(const Eid &eid, const std::string &name, uint32_t mode) override
    {
        calls.push_back("agg_add " + eid_to_string(eid) + " " + name + " " + bond_mode_name(mode));
        return next;
    }
    Status agg_del(const Eid &eid) override
    {
        calls.push_back("agg_del " + eid_to_string(eid));
        return next;
    }
    Status bond_info(const std::string &dev, BondInfo *out) override
    {
        auto it = bonds.find(dev);
        if (it == bonds.end())
            return Status{ENOENT, ""};
        *out = it->second;
        return Status{};
    }
};

struct RunResult {
    int code;
    std::string out, err;
};

RunResult run_admin(FakeBackend &be, const std::vector<std::string> &args)
{
    std::ostringstream out, err;
    int code = run(args, be, out, err);
    return RunResult{code, out.str(), err.str()};
}

TEST(UrmaAdminRun, HelpVersionUsage)
{
    FakeBackend be;
    RunResult r = run_admin(be, {"--help"});
    EXPECT_EQ(r.code, kExitOk);
    EXPECT_EQ(r.out.rfind("Usage: urma_admin <command> [options]\n", 0), 0u);
    EXPECT_TRUE(r.err.empty());
    r = run_admin(be, {"-V"});
    EXPECT_EQ(r.code, kExitOk);
    EXPECT_EQ(r.out, std::string("urma_admin ") + URMA_ADMIN_VERSION + "\n");
    r = run_admin(be, {"bogus"});
    EXPECT_EQ(r.code, kExitUsage);
    EXPECT_TRUE(r.out.empty());
    EXPECT_EQ(r.err, "urma_admin: unknown command 'bogus'\nTry 'urma_admin --help' for more information.\n");
    r = run_admin(be, {});
    EXPECT_EQ(r.code, kExitUsage);
    EXPECT_TRUE(be.calls.empty()) << "usage errors reach no kernel";
}

TEST(UrmaAdminRun, RuntimeErrorsNameTheCommandAndCause)
{
    FakeBackend be;
    be.next = Status{ENODEV, "no such UB device"};
    RunResult r = run_admin(be, {"show", "--dev", "nosuch0"});
    EXPECT_EQ(r.code, kExitRuntime);
    EXPECT_EQ(r.err, "urma_admin: show --dev nosuch0: " + std::string(std::strerror(ENODEV)) +
                         ": no such UB device\n");
    EXPECT_TRUE(r.out.empty());

    be.next = Status{EPERM, ""};
    r = run_admin(be, {"eid", "add", "udma0", "3", "fd00::3"});
    EXPECT_EQ(r.code, kExitRuntime);
    EXPECT_EQ(r.err, "urma_admin: eid add udma0 3 fd00::3: Operation not permitted\n");
    EXPECT_EQ(be.calls.back(), "eid_add udma0 3 fd00::3");

    FakeBackend down;
    down.connect_status = Status{ENOENT, "no ubcore"};
    r = run_admin(down, {"system", "show"});
    EXPECT_EQ(r.code, kExitRuntime);
    EXPECT_NE(r.err.find("no ubcore"), std::string::npos);
    EXPECT_TRUE(down.calls.empty());
}

TEST(UrmaAdminRun, CommandsReachTheBackend)
{
    FakeBackend be;
    for (const auto &args : std::vector<std::vector<std::string>>{
             {"eid", "del", "udma0", "4"},
             {"eid", "set", "udma0", "mode", "static"},
             {"dev", "add", "ua0", "netdev", "veth0"},
             {"dev", "del", "ua0"},
             {"dev", "set", "udma0", "ns", "/proc/1/ns/net"},
             {"dev", "expose", "udma0", "c1"},
             {"dev", "unexpose", "udma0", "/var/run/netns/c1"},
             {"eid", "set", "udma0", "1", "ns", "c2"},
             {"system", "set", "dev_sharing", "on"},
         }) {
        RunResult r = run_admin(be, args);
        EXPECT_EQ(r.code, kExitOk);
        EXPECT_TRUE(r.out.empty());
        EXPECT_TRUE(r.err.empty());
    }
    EXPECT_EQ(be.calls, (std::vector<std::string>{"eid_del udma0 4", "eid_set_mode udma0 static",
                                                 "dev_add ua0 veth0 udma", "dev_del ua0",
                                                 "dev_set_ns udma0 /proc/1/ns/net",
                                                 "dev_expose udma0 /var/run/netns/c1",
                                                 "dev_unexpose udma0 /var/run/netns/c1",
                                                 "eid_set_ns udma0 1 /var/run/netns/c2", "set_dev_sharing on"}));

    // a refusal of the kernel reads as the command, the errno and the reason
    be.next = Status{EBUSY, "EID in use: a user context is open on it"};
    RunResult r = run_admin(be, {"eid", "set", "udma0", "1", "ns", "c2"});
    EXPECT_EQ(r.code, kExitRuntime);
    EXPECT_EQ(r.err, "urma_admin: eid set udma0 1 ns c2: " + std::string(std::strerror(EBUSY)) +
                         ": EID in use: a user context is open on it\n");
}

TEST(UrmaAdminRun, ShowPaths)
{
    FakeBackend be;
    be.devices = {sample_device()};
    RunResult r = run_admin(be, {"show"});
    EXPECT_EQ(r.code, kExitOk);
    EXPECT_EQ(r.out, kSampleTable);
    EXPECT_TRUE(r.err.empty());
    r = run_admin(be, {"show", "--dev", "udma0", "--whole"});
    EXPECT_EQ(r.code, kExitOk);
    EXPECT_EQ(r.out, kSampleWhole);
    // Two devices in full: a blank line between them.
    DeviceInfo second = sample_device();
    second.name = "udma1";
    be.devices.push_back(second);
    r = run_admin(be, {"show", "--whole"});
    std::string second_whole = kSampleWhole;
    second_whole.replace(0, 5, "udma1");
    EXPECT_EQ(r.out, std::string(kSampleWhole) + "\n" + second_whole);

    be.calls.clear();
    be.resources = {res(ResType::Jfc, {{UBCORE_NL_RES_ID, 7}, {UBCORE_NL_RES_KERNEL, 1}})};
    r = run_admin(be, {"show", "dev", "udma0", "jfc", "7"});
    EXPECT_EQ(r.code, kExitOk);
    EXPECT_EQ(r.out, "jfc:\n  id: 7\n  owner: kernel\n");
    r = run_admin(be, {"show", "dev", "udma0", "jfc"});
    EXPECT_EQ(r.code, kExitOk);
    EXPECT_EQ(r.out,
              "jfc_id  depth  jfce  use_cnt  owner   uasid  pid\n"
              "7       -      no    -        kernel  -      -\n");
    // A token ID may name several segments: "seg 7" lists them.
    Resource seg = res(ResType::Seg, {{UBCORE_NL_RES_ID, 7}, {UBCORE_NL_RES_VA, 0x2000}, {UBCORE_NL_RES_LEN, 4096},
                                      {UBCORE_NL_RES_UASID, 3}, {UBCORE_NL_RES_PID, 99}});
    be.resources = {seg, seg};
    be.resources[1].attrs[UBCORE_NL_RES_VA] = 0x8000;
    r = run_admin(be, {"show", "dev", "udma0", "seg", "7"});
    EXPECT_EQ(r.code, kExitOk);
    EXPECT_EQ(r.out,
              "token_id  eid  va      len   access  pinned_pages  owner  uasid  pid\n"
              "7         -    0x2000  4096  -       -             user   3      99\n"
              "7         -    0x8000  4096  -       -             user   3      99\n");
    EXPECT_EQ(be.calls, (std::vector<std::string>{"get_resource udma0 jfc 7", "list_resources udma0 jfc",
                                                 "list_resources udma0 seg 7"}));
    r = run_admin(be, {"system", "show"});
    EXPECT_EQ(r.code, kExitOk);
    EXPECT_EQ(r.out, "dev_count: 1\nns_mode: shared\ndev_sharing: on\neid_sharing: on\n"
                     "netlink_version: 1\nabi_version: 1\n");
}

// A directory tree under /tmp, removed with everything in it.
class TempDir {
public:
    TempDir()
    {
        char tmpl[] = "/tmp/urma_admin_test.XXXXXX";
        const char *d = mkdtemp(tmpl);
        EXPECT_NE(d, nullptr);
        path_ = d ? d : "";
    }
    ~TempDir()
    {
        if (!path_.empty())
            std::system(("rm -rf '" + path_ + "'").c_str());
    }
    const std::string &path() const { return path_; }
    void mkdir(const std::string &rel) const { ASSERT_EQ(::mkdir((path_ + "/" + rel).c_str(), 0755), 0); }
    void write(const std::string &rel, const std::string &text) const
    {
        std::ofstream(path_ + "/" + rel) << text;
    }

private:
    std::string path_;
};

TEST(UrmaAdminParse, ShowStats)
{
    Command c = parse_ok({"show", "dev", "udma0", "--stats"});
    EXPECT_EQ(c.verb, Verb::ShowStats);
    EXPECT_EQ(c.dev, "udma0");
    EXPECT_EQ(parse_err({"show", "dev", "udma0", "--stats", "1"}),
              "show dev: unknown object kind '--stats' (jfc, jfs, jfr, jetty, seg or tp)");
    EXPECT_EQ(parse_err({"show", "dev", std::string(64, 'x'), "--stats"}),
              "show dev: device name '" + std::string(64, 'x') + "' is longer than 63 bytes");
}

TEST(UrmaAdminWireStats, ReadsEveryCounterFile)
{
    TempDir t;
    t.mkdir("udma0");
    t.mkdir("udma0/wire");
    t.write("udma0/wire/rx_packets", "5\n");
    t.write("udma0/wire/truncated", "68\n");
    t.write("udma0/wire/tx_bytes", "18446744073709551615\n");
    WireStats s;
    Status st = read_wire_stats(t.path(), "udma0", &s);
    EXPECT_TRUE(st.ok()) << st.extack;
    EXPECT_EQ(s.counters, (std::map<std::string, uint64_t>{
                              {"rx_packets", 5}, {"truncated", 68}, {"tx_bytes", UINT64_MAX}}));
}

TEST(UrmaAdminWireStats, RefusesWhatIsNoCounter)
{
    TempDir t;
    t.mkdir("udma0");
    t.mkdir("udma0/wire");
    WireStats s;
    for (const std::string bad : {"", "\n", "12", "12x\n", "-1\n", " 1\n", "18446744073709551616\n"}) {
        t.write("udma0/wire/rx_packets", bad);
        Status st = read_wire_stats(t.path(), "udma0", &s);
        EXPECT_EQ(st.err, EIO) << "'" << bad << "'";
        EXPECT_NE(st.extack.find("udma0/wire/rx_packets holds no counter"), std::string::npos) << st.extack;
    }
    EXPECT_EQ(read_wire_stats(t.path(), "udma1", &s).err, ENODEV);
    t.mkdir("ipourma0");
    Status st = read_wire_stats(t.path(), "ipourma0", &s);
    EXPECT_EQ(st.err, EOPNOTSUPP);
    EXPECT_EQ(st.extack, "ipourma0 has no wire counters");
}

TEST(UrmaAdminWireStats, FormatTrafficThenDropsByName)
{
    WireStats s;
    s.counters = {{"truncated", 68},  {"rx_bytes", 1000}, {"eid_not_here", 2}, {"rx_packets", 10},
                  {"tx_packets", 3},  {"tx_bytes", 300},  {"tx_errors", 1},    {"mgmt_rx", 4},
                  {"mgmt_tx", 5},     {"tx_route_lookups", 2}, {"rx_trains", 1},
                  {"rx_linearized", 6}, {"rx_scattered", 8}, {"tx_zerocopy", 9}};
    EXPECT_EQ(format_wire_stats("udma0", s),
              "udma0 wire:\n"
              "  rx_packets: 10\n"
              "  rx_bytes: 1000\n"
              "  rx_trains: 1\n"
              "  rx_linearized: 6\n"
              "  rx_scattered: 8\n"
              "  mgmt_rx: 4\n"
              "  mgmt_tx: 5\n"
              "  tx_packets: 3\n"
              "  tx_bytes: 300\n"
              "  tx_zerocopy: 9\n"
              "  tx_errors: 1\n"
              "  tx_route_lookups: 2\n"
              "  drops:\n"
              "    eid_not_here: 2\n"
              "    truncated: 68\n");
}

// The reliable transport's counters (udma/uboe_net.c rtp_*) in their own
// section, by name, before the drops.
TEST(UrmaAdminWireStats, FormatTransportSection)
{
    WireStats s;
    s.counters = {{"rx_packets", 10},    {"rtp_retransmits", 7}, {"rtp_ack_tx", 5},
                  {"unknown_tpn", 1},    {"rtp_nak_rx", 2}};
    EXPECT_EQ(format_wire_stats("udma0", s),
              "udma0 wire:\n"
              "  rx_packets: 10\n"
              "  transport:\n"
              "    rtp_ack_tx: 5\n"
              "    rtp_nak_rx: 2\n"
              "    rtp_retransmits: 7\n"
              "  drops:\n"
              "    unknown_tpn: 1\n");
}

TEST(UrmaAdminRun, ShowStats)
{
    FakeBackend be;
    be.wire.counters = {{"rx_packets", 1}, {"unknown_tpn", 2}};
    RunResult r = run_admin(be, {"show", "dev", "udma0", "--stats"});
    EXPECT_EQ(r.code, kExitOk);
    EXPECT_EQ(r.out, "udma0 wire:\n  rx_packets: 1\n  drops:\n    unknown_tpn: 2\n");
    EXPECT_EQ(be.calls, (std::vector<std::string>{"get_wire_stats udma0"}));
    be.next = Status{EOPNOTSUPP, "udma0 has no wire counters"};
    r = run_admin(be, {"show", "dev", "udma0", "--stats"});
    EXPECT_EQ(r.code, kExitRuntime);
    EXPECT_EQ(r.err, "urma_admin: show dev udma0 --stats: " + std::string(std::strerror(EOPNOTSUPP)) +
                         ": udma0 has no wire counters\n");
}

// The namespace pair's topology as tests/guest/cases/ubagg-topo.sh sets it.
const char kPairTopo[] = R"(# two hosts, one bonding device each
node 2 super 1 current
  dev 0 fd77::a
    ue 0 chip 0 die 0 entity 1 primary 10.77.0.1
    port 0 4 fd77::1 cna 10.77.0.1   # the veth
  link 0:4 0:4
node 4 type clos
  dev 0 fd77::b
    ue 0 chip 0 die 0 entity 1 primary 10.77.0.2
    ue 1 chip 1 die 1 entity 2 primary fd77::22
    port 1 8 fd77::2
  link 0:4 0:4
  link 0:4 1:8
)";

TopoNodes topo_ok(const std::string &text)
{
    auto r = parse_topo(text);
    if (const auto *why = std::get_if<std::string>(&r))
        ADD_FAILURE() << "refused: " << *why;
    return std::holds_alternative<TopoNodes>(r) ? std::get<TopoNodes>(r) : TopoNodes{};
}

std::string topo_err(const std::string &text)
{
    auto r = parse_topo(text);
    if (std::holds_alternative<TopoNodes>(r)) {
        ADD_FAILURE() << "accepted: " << text;
        return "";
    }
    return std::get<std::string>(r);
}

TEST(UrmaAdminTopo, ParsesEveryStatement)
{
    TopoNodes t = topo_ok(kPairTopo);
    ASSERT_EQ(t.size(), 2u);
    EXPECT_EQ(t[0].node_id, 2u);
    EXPECT_EQ(t[0].super_node_id, 1u);
    EXPECT_EQ(t[0].is_current, 1u);
    EXPECT_EQ(t[0].type, static_cast<uint32_t>(UBAGG_TOPO_TYPE_FULLMESH_1D));
    EXPECT_EQ(t[1].type, static_cast<uint32_t>(UBAGG_TOPO_TYPE_CLOS));
    EXPECT_EQ(t[1].is_current, 0u);
    EXPECT_EQ(eid_to_string(*parse_eid("fd77::a")), "fd77::a");
    EXPECT_EQ(std::memcmp(t[0].agg_devs[0].agg_eid, parse_eid("fd77::a")->data(), 16), 0);
    const ubagg_topo_ue &ue = t[1].agg_devs[0].ues[1];
    EXPECT_EQ(ue.chip_id, 1u);
    EXPECT_EQ(ue.die_id, 1u);
    EXPECT_EQ(ue.entity_id, 2u);
    EXPECT_EQ(std::memcmp(ue.primary_eid, parse_eid("fd77::22")->data(), 16), 0);
    EXPECT_EQ(std::memcmp(ue.port_eid[8], parse_eid("fd77::2")->data(), 16), 0);
    // IPv4 EIDs are IPv4-mapped, as everywhere in urma_admin
    EXPECT_EQ(std::memcmp(t[0].agg_devs[0].ues[0].cna[4], parse_eid("::ffff:10.77.0.1")->data(), 16), 0);
    EXPECT_EQ(t[0].links[4][4], 1);
    EXPECT_EQ(t[1].links[4][UBAGG_PORT_NUM + 8], 1);
    EXPECT_EQ(t[1].links[UBAGG_PORT_NUM + 8][4], 0);  // links have a direction
    // nothing else is set
    EXPECT_EQ(t[0].agg_devs[1].agg_eid[15], 0);
    EXPECT_EQ(t[0].agg_devs[0].ues[1].primary_eid[15], 0);
}

TEST(UrmaAdminTopo, RefusesBadFiles)
{
    EXPECT_EQ(topo_err(""), "no node");
    EXPECT_EQ(topo_err("# nothing\n"), "no node");
    EXPECT_EQ(topo_err("dev 0 ::1\n"), "line 1: dev before any node");
    EXPECT_EQ(topo_err("node 1\nue 0 chip 0 die 0 entity 0 primary ::1\n"), "line 2: ue before any dev");
    EXPECT_EQ(topo_err("node 1\nnode 1\n"), "line 2: node 1 given twice");
    EXPECT_EQ(topo_err("node 1 current\nnode 2 current\n"), "line 2: node: two nodes are current");
    EXPECT_EQ(topo_err("node x\n"), "line 1: node: bad node ID 'x'");
    EXPECT_EQ(topo_err("node 1 type ring\n"), "line 1: node: unknown type 'ring' (fullmesh or clos)");
    EXPECT_EQ(topo_err("node 1\ndev 256 ::1\n"), "line 2: dev: bad index '256' (0 .. 255)");
    EXPECT_EQ(topo_err("node 1\ndev 0 ::1\ndev 0 ::2\n"), "line 3: dev 0 given twice");
    EXPECT_EQ(topo_err("node 1\ndev 0 ::\n"), "line 2: the EID :: means none");
    EXPECT_EQ(topo_err("node 1\ndev 0 nope\n"), "line 2: bad EID 'nope' (an IPv6 or IPv4 address)");
    EXPECT_EQ(topo_err("node 1\ndev 0 ::1\nue 2 chip 0 die 0 entity 0 primary ::2\n"),
              "line 3: ue: bad IODie '2' (0 or 1)");
    EXPECT_EQ(topo_err("node 1\ndev 0 ::1\nue 0 chip 0 die 0 primary ::2 extra 1\n"), "line 3: ue: missing or bad entity");
    EXPECT_EQ(topo_err("node 1\ndev 0 ::1\nue 0 chip 0 die 0 entity 0\n"),
              "line 3: ue: expected <iodie> chip <id> die <id> entity <id> primary <eid>");
    EXPECT_EQ(topo_err("node 1\ndev 0 ::1\nport 0 9 ::3\n"), "line 3: port: bad IODie or port '0 9' (0 .. 1, 0 .. 8)");
    EXPECT_EQ(topo_err("node 1\nlink 0:9 0:1\n"), "line 2: link: bad port '0:9' (<iodie 0..1>:<port 0..8>)");
    EXPECT_EQ(topo_err("node 1\nlink 0-1 0:1\n"), "line 2: link: bad port '0-1' (<iodie 0..1>:<port 0..8>)");
    EXPECT_EQ(topo_err("node 1\nbond 0\n"), "line 2: unknown statement 'bond' (node, dev, ue, port or link)");
    std::string many;
    for (int i = 0; i <= UBAGG_MAX_NODE_NUM; i++)
        many += "node " + std::to_string(i) + "\n";
    EXPECT_EQ(topo_err(many), "line 1025: more than 1024 nodes");
}

TEST(UrmaAdminTopo, FindsTheNodeToShow)
{
    TopoNodes t = topo_ok(kPairTopo);
    ASSERT_EQ(t.size(), 2u);
    EXPECT_EQ(find_topo_node(t, std::nullopt), &t[0]);  // the current one
    EXPECT_EQ(find_topo_node(t, 4u), &t[1]);
    EXPECT_EQ(find_topo_node(t, 3u), nullptr);
    t[0].is_current = 0;  // none current: node ID 0, as UMDK's tool
    EXPECT_EQ(find_topo_node(t, std::nullopt), nullptr);
    t[1].node_id = 0;
    EXPECT_EQ(find_topo_node(t, std::nullopt), &t[1]);
}

TEST(UrmaAdminTopo, FormatsLikeUmdk)
{
    TopoNodes t = topo_ok("node 2\n dev 3 fd77::a\n  ue 1 chip 5 die 6 entity 7 primary 10.77.0.1\n"
                          "  port 1 0 fd77::1 cna fd77::c\n link 0:1 1:2\n link 0:1 0:8\n");
    ASSERT_EQ(t.size(), 1u);
    std::string links;
    for (int die = 0; die < 2; die++) {
        links += "IODie " + std::to_string(die) + ":\n";
        for (int p = 0; p < 9; p++) {
            if (die == 0 && p == 1)
                links += "Port 1: Connected to IODie 0, Port 8\n        Connected to IODie 1, Port 2\n";
            else
                links += "Port " + std::to_string(p) + ": Not connected\n";
        }
        links += "\n";
    }
    std::string ports, cnas;
    for (int p = 0; p < 9; p++) {
        ports += "\t\t\t Port " + std::to_string(p) + ": " + (p ? "Invalid EID" : "fd77::1") + "\n";
        cnas += "\t\t\t Port " + std::to_string(p) + ": " + (p ? "Invalid CNA" : "fd77::c") + "\n";
    }
    EXPECT_EQ(format_topo_node(t[0]),
              "========================== topo map start =============================\n"
              "===================== show node 2 topo info =======================\n" +
                  links +
                  "Dev 3: fd77::a\n"
                  "\t UE 1:\n"
                  "\t\t Chip id: 5\n"
                  "\t\t Die id: 6\n"
                  "\t\t Entity id: 7\n"
                  "\t\t Primary eid:\n"
                  "\t\t\t ::ffff:10.77.0.1\n"
                  "\t\t Port eid:\n" +
                  ports + "\t\t Cna:\n" + cnas +
                  "========================== topo map end =============================\n");
}

TEST(UrmaAdminRun, Topo)
{
    FakeBackend be;
    char path[] = "/tmp/urma_admin_topo_XXXXXX";
    int fd = mkstemp(path);
    ASSERT_GE(fd, 0);
    close(fd);
    std::ofstream(path) << kPairTopo;

    RunResult r = run_admin(be, {"topo", "set", path});
    EXPECT_EQ(r.code, kExitOk) << r.err;
    EXPECT_EQ(be.topo.size(), 2u);
    r = run_admin(be, {"show", "topo"});
    EXPECT_EQ(r.code, kExitOk);
    EXPECT_EQ(r.out, format_topo_node(be.topo[0]));
    r = run_admin(be, {"show", "topo", "4"});
    EXPECT_EQ(r.out, format_topo_node(be.topo[1]));
    r = run_admin(be, {"show", "topo", "9"});
    EXPECT_EQ(r.code, kExitRuntime);
    EXPECT_EQ(r.err, "urma_admin: show topo 9: " + std::string(std::strerror(ENOENT)) +
                         ": node 9 is not in the topology\n");
    r = run_admin(be, {"topo", "clear"});
    EXPECT_EQ(r.code, kExitOk);
    EXPECT_TRUE(be.topo.empty());

    // a bad file is not sent; the kernel's refusal is reported
    std::ofstream(path) << "node 1\nlink 0:9 0:0\n";
    be.calls.clear();
    r = run_admin(be, {"topo", "set", path});
    EXPECT_EQ(r.code, kExitRuntime);
    EXPECT_EQ(r.err, std::string("urma_admin: topo set ") + path + ": " + std::strerror(EINVAL) + ": " + path +
                         ": line 2: link: bad port '0:9' (<iodie 0..1>:<port 0..8>)\n");
    EXPECT_TRUE(be.calls.empty());
    std::ofstream(path) << kPairTopo;
    be.next = Status{EPERM, ""};
    r = run_admin(be, {"topo", "set", path});
    EXPECT_EQ(r.code, kExitRuntime);
    EXPECT_EQ(r.err, std::string("urma_admin: topo set ") + path + ": " + std::strerror(EPERM) + "\n");
    unlink(path);
    r = run_admin(be, {"topo", "set", path});
    EXPECT_EQ(r.code, kExitRuntime);
    EXPECT_NE(r.err.find("cannot read"), std::string::npos);
    be.next = Status{ENXIO, "no topology is set in this network namespace"};
    r = run_admin(be, {"show", "topo"});
    EXPECT_EQ(r.code, kExitRuntime);
    EXPECT_NE(r.err.find("no topology is set"), std::string::npos);
}

TEST(UrmaAdminParse, Agg)
{
    Command c = parse_ok({"agg", "add", "fd77::a", "bonding_dev_0"});
    EXPECT_EQ(c.verb, Verb::AggAdd);
    EXPECT_EQ(eid_to_string(c.eid), "fd77::a");
    EXPECT_EQ(c.dev, "bonding_dev_0");
    EXPECT_EQ(c.bond_mode, static_cast<uint32_t>(UBAGG_BOND_STANDALONE));
    c = parse_ok({"agg", "add", "192.168.1.100", "bonding_dev_0", "mode", "active_backup"});
    EXPECT_EQ(eid_to_string(c.eid), "::ffff:192.168.1.100");
    EXPECT_EQ(c.bond_mode, static_cast<uint32_t>(UBAGG_BOND_ACTIVE_BACKUP));
    EXPECT_EQ(parse_ok({"agg", "add", "fd77::a", "b", "mode", "balance"}).bond_mode,
              static_cast<uint32_t>(UBAGG_BOND_BALANCE));
    c = parse_ok({"agg", "del", "fd77::a"});
    EXPECT_EQ(c.verb, Verb::AggDel);
    EXPECT_EQ(eid_to_string(c.eid), "fd77::a");
    EXPECT_EQ(parse_ok({"agg", "show"}).verb, Verb::AggShow);

    EXPECT_NE(parse_err({"agg"}).find("expected 'add"), std::string::npos);
    EXPECT_NE(parse_err({"agg", "frob"}).find("expected 'add"), std::string::npos);
    EXPECT_NE(parse_err({"agg", "add", "fd77::a"}).find("agg add: expected <eid> <dev_name>"), std::string::npos);
    EXPECT_NE(parse_err({"agg", "add", "fd77::a", "b", "mode"}).find("agg add: expected"), std::string::npos);
    EXPECT_NE(parse_err({"agg", "add", "nonsense", "b"}).find("bad EID 'nonsense'"), std::string::npos);
    EXPECT_NE(parse_err({"agg", "add", "fd77::a", "b", "mode", "roundrobin"})
                  .find("expected 'mode standalone|active_backup|balance', not 'mode roundrobin'"),
              std::string::npos);
    EXPECT_NE(parse_err({"agg", "add", "fd77::a", "b", "kind", "balance"}).find("not 'kind balance'"),
              std::string::npos);
    EXPECT_NE(parse_err({"agg", "add", "fd77::a", std::string(64, 'x')}).find("longer than 63"), std::string::npos);
    EXPECT_NE(parse_err({"agg", "del"}).find("agg del: expected <eid>"), std::string::npos);
    EXPECT_NE(parse_err({"agg", "del", "fd77::a", "x"}).find("agg del: expected <eid>"), std::string::npos);
    EXPECT_NE(parse_err({"agg", "show", "x"}).find("expected 'add"), std::string::npos);
    EXPECT_NE(parse_err({"agg", "expose", "fd77::a", "ns1"}).find("not supported"), std::string::npos);

    for (uint32_t m = 0; m < UBAGG_BOND_MODE_MAX; m++)
        EXPECT_EQ(bond_mode_from_name(bond_mode_name(m)), m);
    EXPECT_EQ(bond_mode_from_name("?"), std::nullopt);
    EXPECT_STREQ(bond_mode_name(UBAGG_BOND_MODE_MAX), "?");
}

TEST(UrmaAdminBond, ReadsSysfs)
{
    TempDir t;
    t.mkdir("bonding_dev_0");
    t.mkdir("bonding_dev_0/bond");
    t.write("bonding_dev_0/bond/mode", "active_backup\n");
    t.write("bonding_dev_0/bond/peers", "3\n");
    t.write("bonding_dev_0/bond/members", "udmaA1 down inactive 17\nudmaA2 up active 18446744073709551615\n");
    BondInfo b;
    Status st = read_bond_info(t.path(), "bonding_dev_0", &b);
    ASSERT_TRUE(st.ok()) << st.extack;
    EXPECT_EQ(b.mode, static_cast<uint32_t>(UBAGG_BOND_ACTIVE_BACKUP));
    EXPECT_EQ(b.peers, 3u);
    ASSERT_EQ(b.members.size(), 2u);
    EXPECT_EQ(b.members[0].name, "udmaA1");
    EXPECT_FALSE(b.members[0].up);
    EXPECT_FALSE(b.members[0].active);
    EXPECT_EQ(b.members[0].tx_packets, 17u);
    EXPECT_TRUE(b.members[1].up);
    EXPECT_TRUE(b.members[1].active);
    EXPECT_EQ(b.members[1].tx_packets, UINT64_MAX);

    for (const std::string bad : {"udmaA1 up\n", "udmaA1 sideways active 1\n", "udmaA1 up busy 1\n",
                                  "udmaA1 up active -1\n", "udmaA1 up active 1 2\n"}) {
        t.write("bonding_dev_0/bond/members", bad);
        st = read_bond_info(t.path(), "bonding_dev_0", &b);
        EXPECT_EQ(st.err, EIO) << bad;
        EXPECT_NE(st.extack.find("members"), std::string::npos) << st.extack;
    }
    t.write("bonding_dev_0/bond/members", "");
    t.write("bonding_dev_0/bond/mode", "round_robin\n");
    EXPECT_EQ(read_bond_info(t.path(), "bonding_dev_0", &b).err, EIO);
    t.write("bonding_dev_0/bond/mode", "balance\n");
    t.write("bonding_dev_0/bond/peers", "x\n");
    EXPECT_EQ(read_bond_info(t.path(), "bonding_dev_0", &b).err, EIO);
    t.write("bonding_dev_0/bond/peers", "0\n");
    EXPECT_TRUE(read_bond_info(t.path(), "bonding_dev_0", &b).ok());
    EXPECT_TRUE(b.members.empty());
    EXPECT_EQ(read_bond_info(t.path(), "nodev", &b).err, ENODEV);
    t.mkdir("udma0");
    st = read_bond_info(t.path(), "udma0", &b);
    EXPECT_EQ(st.err, ENOENT);
    EXPECT_EQ(st.extack, "udma0 is not a bonding device");
}

TEST(UrmaAdminRun, Agg)
{
    FakeBackend be;
    RunResult r = run_admin(be, {"agg", "add", "fd77::a", "bonding_dev_0", "mode", "balance"});
    EXPECT_EQ(r.code, kExitOk) << r.err;
    r = run_admin(be, {"agg", "del", "fd77::a"});
    EXPECT_EQ(r.code, kExitOk) << r.err;
    EXPECT_EQ(be.calls, (std::vector<std::string>{"agg_add fd77::a bonding_dev_0 balance", "agg_del fd77::a"}));
    be.next = Status{ENOENT, "no bonding device has that EID"};
    r = run_admin(be, {"agg", "del", "fd77::b"});
    EXPECT_EQ(r.code, kExitRuntime);
    EXPECT_EQ(r.err, "urma_admin: agg del fd77::b: " + std::string(std::strerror(ENOENT)) +
                         ": no bonding device has that EID\n");
    be.next = Status{};

    // agg show: the bonding devices only, with their EID 0
    DeviceInfo udma, bond;
    udma.name = "udmaA1";
    bond.name = "bonding_dev_0";
    EidInfo e;
    e.eid = *parse_eid("fd77::a");
    bond.eids = {e};
    be.devices = {udma, bond};
    BondInfo b;
    b.mode = UBAGG_BOND_ACTIVE_BACKUP;
    b.peers = 1;
    b.members = {{"udmaA1", true, true, 10}, {"udmaA2", false, false, 0}};
    be.bonds["bonding_dev_0"] = b;
    r = run_admin(be, {"agg", "show"});
    EXPECT_EQ(r.code, kExitOk) << r.err;
    EXPECT_EQ(r.out, "bonding_dev_0  eid fd77::a  mode active_backup  peers 1\n"
                     "    member udmaA1  up  active  tx_packets 10\n"
                     "    member udmaA2  down  inactive  tx_packets 0\n");
    EXPECT_EQ(format_bond("bonding_dev_0", &e.eid, b), r.out);

    // show topo names the bonding device of the current node's aggregated device
    be.topo = topo_ok(kPairTopo);
    r = run_admin(be, {"show", "topo"});
    EXPECT_EQ(r.code, kExitOk) << r.err;
    EXPECT_NE(r.out.find("Dev 0: fd77::a (bonding_dev_0 over udmaA1 udmaA2)\n"), std::string::npos) << r.out;
    EXPECT_EQ(r.out, format_topo_node(be.topo[0], {{"fd77::a", "bonding_dev_0 over udmaA1 udmaA2"}}));
    // another node's devices are not this host's
    r = run_admin(be, {"show", "topo", "4"});
    EXPECT_EQ(r.out, format_topo_node(be.topo[1]));
    EXPECT_EQ(r.out.find("bonding_dev_0"), std::string::npos);
}

}  // namespace
