// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The UB/URMA stack authors
//
// The generic netlink family "ubcore" against the real modules, in the test
// guest (as root): the suite loads ubcore.ko and udma.ko from $UB_KMOD, adds
// udma devices on "lo" through DEV_ADD, and checks every command's replies
// and errors against sysfs and against what the kernel must refuse.
#include <ub/ubcore_netlink.h>

#include <arpa/inet.h>
#include <linux/capability.h>
#include <linux/netlink.h>
#include <netlink/attr.h>
#include <netlink/genl/ctrl.h>
#include <netlink/genl/family.h>
#include <netlink/genl/genl.h>
#include <netlink/msg.h>
#include <netlink/netlink.h>
#include <netlink/socket.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include "stack.h"
#include "ubcore_nl.h"

#include <array>
#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <optional>
#include <regex>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;

using namespace ub_nl;
using Eid = std::array<uint8_t, UBCORE_NL_EID_LEN>;

const char *const kClass = "/sys/class/ubcore";
const char *const kDev = "nltest0";

Eid eid_v4(const char *addr)
{
    Eid e{};
    e[10] = 0xff;
    e[11] = 0xff;
    if (inet_pton(AF_INET, addr, &e[12]) != 1)
        throw std::runtime_error("bad IPv4 address");
    return e;
}

Eid eid_v6(const char *addr)
{
    Eid e{};
    if (inet_pton(AF_INET6, addr, e.data()) != 1)
        throw std::runtime_error("bad IPv6 address");
    return e;
}

std::string eid_text(const Eid &e)
{
    char buf[INET6_ADDRSTRLEN];
    return inet_ntop(AF_INET6, e.data(), buf, sizeof(buf)) ? buf : "?";
}

std::string read_line(const std::string &path)
{
    std::ifstream f(path);
    std::string line;
    std::getline(f, line);
    return line;
}

// Runs a program (no shell); its exit status, or -1.
int run(const std::vector<std::string> &argv)
{
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        std::vector<char *> args;
        for (const auto &a : argv)
            args.push_back(const_cast<char *>(a.c_str()));
        args.push_back(nullptr);
        execvp(args[0], args.data());
        _exit(127);
    }
    int status;
    if (waitpid(pid, &status, 0) != pid)
        return -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

struct EidEntry {
    uint32_t index;
    Eid eid;
    bool is_static;
};

class UbcoreNetlink : public ::testing::Test {
protected:
    static void SetUpTestSuite()
    {
        const char *kmod = std::getenv("UB_KMOD");

        load_error_.clear();
        if (kmod == nullptr || *kmod == '\0') {
            load_error_ = "UB_KMOD is not set";
            return;
        }
        for (const char *m : {"ubcore/ubcore.ko", "udma/udma.ko"}) {
            std::string path = std::string(kmod) + "/" + m;
            if (!ub_itest::insmod(path)) {
                load_error_ = "insmod " + path + " failed";
                return;
            }
        }
        loaded_ = true;
    }

    static void TearDownTestSuite()
    {
        for (const char *m : {"udma", "ubcore"}) {
            if (ub_itest::module_loaded(m)) {
                EXPECT_TRUE(ub_itest::rmmod(m)) << "rmmod " << m;
            }
        }
        loaded_ = false;
    }

    void SetUp() override
    {
        std::string why;
        ASSERT_TRUE(loaded_) << load_error_;
        ASSERT_TRUE(nl_.open(&why)) << why;
    }

    // Every device a test added goes, whatever the test's outcome.
    void TearDown() override
    {
        for (const auto &name : added_) {
            Reply r = dev_del(name);
            EXPECT_TRUE(r.error == 0 || r.error == -ENODEV)
                << "removing " << name << ": " << r.error << " " << r.extack;
        }
    }

    Reply dev_add(const std::string &type, const std::string &netdev,
                  const std::optional<std::string> &name = std::nullopt)
    {
        Builder b = both(put_str(UBCORE_NL_ATTR_LINK_TYPE, type),
                         put_str(UBCORE_NL_ATTR_NETDEV_NAME, netdev));
        if (name)
            b = both(b, dev_name(*name));
        return nl_.request(UBCORE_NL_CMD_DEV_ADD, false, b);
    }

    // DEV_ADD of a udma device on lo named kDev, remembered for TearDown.
    void add_test_dev()
    {
        Reply r = dev_add("udma", "lo", std::string(kDev));
        ASSERT_EQ(r.error, 0) << r.extack;
        added_.push_back(kDev);
    }

    Reply dev_del(const std::string &name)
    {
        return nl_.request(UBCORE_NL_CMD_DEV_DEL, false, dev_name(name));
    }

    Reply dev_get(const std::string &name)
    {
        return nl_.request(UBCORE_NL_CMD_DEV_GET, false, dev_name(name));
    }

    Reply dev_dump() { return nl_.request(UBCORE_NL_CMD_DEV_GET, true); }

    // The DEV_GET dump's message about a device, if it is listed.
    std::optional<Msg> dumped_dev(const std::string &name)
    {
        Reply r = dev_dump();
        EXPECT_EQ(r.error, 0) << r.extack;
        for (const auto &m : r.msgs)
            if (m.has(UBCORE_NL_ATTR_DEV_NAME) && m.str(UBCORE_NL_ATTR_DEV_NAME) == name)
                return m;
        return std::nullopt;
    }

    Reply eid_dump(const std::string &name)
    {
        return nl_.request(UBCORE_NL_CMD_EID_GET, true, dev_name(name));
    }

    std::vector<EidEntry> eids(const std::string &name)
    {
        std::vector<EidEntry> out;
        Reply r = eid_dump(name);
        EXPECT_EQ(r.error, 0) << r.extack;
        for (const auto &m : r.msgs) {
            EidEntry e{};
            EXPECT_EQ(m.str(UBCORE_NL_ATTR_DEV_NAME), name);
            e.index = m.u32(UBCORE_NL_ATTR_EID_INDEX);
            const Bytes &b = m.attrs.at(UBCORE_NL_ATTR_EID);
            EXPECT_EQ(b.size(), e.eid.size());
            std::memcpy(e.eid.data(), b.data(), std::min(b.size(), e.eid.size()));
            e.is_static = m.has(UBCORE_NL_ATTR_EID_STATIC);
            out.push_back(e);
        }
        return out;
    }

    std::optional<EidEntry> find_eid(const std::string &name, const Eid &eid)
    {
        for (const auto &e : eids(name))
            if (e.eid == eid)
                return e;
        return std::nullopt;
    }

    Reply eid_add(const std::string &name, uint32_t idx, const Eid &eid)
    {
        return nl_.request(UBCORE_NL_CMD_EID_ADD, false,
                           both(dev_name(name),
                                both(put_u32(UBCORE_NL_ATTR_EID_INDEX, idx),
                                     put_bin(UBCORE_NL_ATTR_EID, Bytes(eid.begin(), eid.end())))));
    }

    Reply eid_del(const std::string &name, uint32_t idx)
    {
        return nl_.request(UBCORE_NL_CMD_EID_DEL, false,
                           both(dev_name(name), put_u32(UBCORE_NL_ATTR_EID_INDEX, idx)));
    }

    Reply eid_mode(const std::string &name, uint8_t mode)
    {
        return nl_.request(UBCORE_NL_CMD_EID_SET_MODE, false,
                           both(dev_name(name), put_u8(UBCORE_NL_ATTR_EID_MODE, mode)));
    }

    // Waits until the dynamic EIDs of lo are in the table.
    bool lo_eids_present(const std::string &name)
    {
        const Eid v4 = eid_v4("127.0.0.1"), v6 = eid_v6("::1");
        return ub_itest::wait_for([&] {
            auto a = find_eid(name, v4), b = find_eid(name, v6);
            return a && b && !a->is_static && !b->is_static;
        });
    }

    UbcoreNl nl_;
    std::vector<std::string> added_;
    static inline bool loaded_ = false;
    static inline std::string load_error_;
};

TEST_F(UbcoreNetlink, FamilyResolvesWithItsVersion)
{
    nl_cache *cache = nullptr;

    EXPECT_GT(nl_.family(), 0);
    ASSERT_EQ(genl_ctrl_alloc_cache(nl_.sock(), &cache), 0);
    genl_family *fam = genl_ctrl_search_by_name(cache, UBCORE_GENL_FAMILY_NAME);
    ASSERT_NE(fam, nullptr);
    EXPECT_EQ(genl_family_get_id(fam), nl_.family());
    EXPECT_EQ(genl_family_get_version(fam), UBCORE_GENL_FAMILY_VERSION);
    genl_family_put(fam);
    nl_cache_free(cache);
}

TEST_F(UbcoreNetlink, DevAddCreatesADeviceSeenByDumpGetAndSysfs)
{
    add_test_dev();
    const std::string sys = std::string(kClass) + "/" + kDev;

    EXPECT_TRUE(fs::is_directory(sys));
    EXPECT_EQ(read_line(sys + "/netdev"), "lo");

    auto dumped = dumped_dev(kDev);
    ASSERT_TRUE(dumped.has_value()) << kDev << " not in the DEV_GET dump";
    Reply got = dev_get(kDev);
    ASSERT_EQ(got.error, 0) << got.extack;
    ASSERT_EQ(got.msgs.size(), 1u);

    for (const Msg &m : {*dumped, got.msgs[0]}) {
        EXPECT_EQ(m.str(UBCORE_NL_ATTR_DEV_NAME), kDev);
        EXPECT_EQ(m.str(UBCORE_NL_ATTR_DRIVER_NAME), "udma");
        EXPECT_EQ(m.str(UBCORE_NL_ATTR_DRIVER_NAME), read_line(sys + "/driver_name"));
        EXPECT_EQ(m.str(UBCORE_NL_ATTR_NETDEV_NAME), "lo");
        EXPECT_EQ(m.u8(UBCORE_NL_ATTR_EID_MODE), UBCORE_NL_EID_MODE_DYNAMIC);
        EXPECT_EQ(read_line(sys + "/eid_mode"), "dynamic");

        // lo is up with MTU 65536: the port is ACTIVE (4) at 8192 bytes.
        EXPECT_EQ(m.u8(UBCORE_NL_ATTR_PORT_STATE), 4);
        EXPECT_EQ(read_line(sys + "/port0/state"), "ACTIVE");
        EXPECT_EQ(m.u32(UBCORE_NL_ATTR_ACTIVE_MTU), 8192u);
        EXPECT_EQ(std::to_string(m.u32(UBCORE_NL_ATTR_ACTIVE_MTU)),
                  read_line(sys + "/port0/active_mtu"));

        // Every capability equals its sysfs file.
        ASSERT_TRUE(m.has(UBCORE_NL_ATTR_DEV_CAP));
        Attrs caps = parse_nested(m.attrs.at(UBCORE_NL_ATTR_DEV_CAP));
        const std::map<int, const char *> files = {
            {UBCORE_NL_CAP_MAX_JFC, "max_jfc"},
            {UBCORE_NL_CAP_MAX_JFS, "max_jfs"},
            {UBCORE_NL_CAP_MAX_JFR, "max_jfr"},
            {UBCORE_NL_CAP_MAX_JETTY, "max_jetty"},
            {UBCORE_NL_CAP_MAX_JFC_DEPTH, "max_jfc_depth"},
            {UBCORE_NL_CAP_MAX_JFS_DEPTH, "max_jfs_depth"},
            {UBCORE_NL_CAP_MAX_JFR_DEPTH, "max_jfr_depth"},
            {UBCORE_NL_CAP_MAX_JFS_SGE, "max_jfs_sge"},
            {UBCORE_NL_CAP_MAX_JFS_RSGE, "max_jfs_rsge"},
            {UBCORE_NL_CAP_MAX_JFR_SGE, "max_jfr_sge"},
            {UBCORE_NL_CAP_MAX_JFS_INLINE_SIZE, "max_jfs_inline_size"},
            {UBCORE_NL_CAP_MAX_MSG_SIZE, "max_msg_size"},
            {UBCORE_NL_CAP_MAX_WRITE_SIZE, "max_write_size"},
            {UBCORE_NL_CAP_MAX_READ_SIZE, "max_read_size"},
            {UBCORE_NL_CAP_MAX_TOKEN_ID, "max_token_id"},
            {UBCORE_NL_CAP_ATOMIC_FEATURE, "atomic_feature"},
            {UBCORE_NL_CAP_TRANS_MODE, "trans_mode"},
            {UBCORE_NL_CAP_CONGESTION_CTRL_ALG, "congestion_ctrl_alg"},
            {UBCORE_NL_CAP_RESERVED_JETTY_ID_MAX, "reserved_jetty_id_max"},
        };
        for (const auto &[attr, file] : files) {
            ASSERT_TRUE(caps.count(attr)) << "capability " << file << " missing";
            uint64_t sysfs = std::stoull(read_line(sys + "/" + file), nullptr, 0);
            EXPECT_EQ(attr_uint(caps.at(attr)), sysfs) << file;
        }
        for (int attr : {UBCORE_NL_CAP_MAX_JFC, UBCORE_NL_CAP_MAX_JFS, UBCORE_NL_CAP_MAX_JFR,
                         UBCORE_NL_CAP_MAX_JETTY, UBCORE_NL_CAP_ATOMIC_FEATURE,
                         UBCORE_NL_CAP_TRANS_MODE})
            EXPECT_NE(attr_uint(caps.at(attr)), 0u) << "capability " << attr;
        EXPECT_EQ(caps.at(UBCORE_NL_CAP_MAX_MSG_SIZE).size(), sizeof(uint64_t));

        // Every live object count equals its file in objects/; a new device
        // has none.
        ASSERT_TRUE(m.has(UBCORE_NL_ATTR_DEV_OBJ));
        Attrs objs = parse_nested(m.attrs.at(UBCORE_NL_ATTR_DEV_OBJ));
        const std::map<int, const char *> obj_files = {
            {UBCORE_NL_OBJ_UCONTEXT, "ucontext"},
            {UBCORE_NL_OBJ_JFC, "jfc"},
            {UBCORE_NL_OBJ_JFS, "jfs"},
            {UBCORE_NL_OBJ_JFR, "jfr"},
            {UBCORE_NL_OBJ_JETTY, "jetty"},
            {UBCORE_NL_OBJ_TOKEN_ID, "token_id"},
            {UBCORE_NL_OBJ_SEG, "seg"},
            {UBCORE_NL_OBJ_TARGET_SEG, "target_seg"},
            {UBCORE_NL_OBJ_TJFR, "tjfr"},
            {UBCORE_NL_OBJ_TJETTY, "tjetty"},
            {UBCORE_NL_OBJ_PINNED_PAGES, "pinned_pages"},
            {UBCORE_NL_OBJ_JETTY_GRP, "jetty_grp"},
        };
        for (const auto &[attr, file] : obj_files) {
            ASSERT_TRUE(objs.count(attr)) << "object count " << file << " missing";
            uint64_t sysfs = std::stoull(read_line(sys + "/objects/" + file));
            EXPECT_EQ(attr_uint(objs.at(attr)), sysfs) << file;
            EXPECT_EQ(attr_uint(objs.at(attr)), 0u) << file;
        }
        EXPECT_EQ(objs.at(UBCORE_NL_OBJ_PINNED_PAGES).size(), sizeof(uint64_t));
    }
}

TEST_F(UbcoreNetlink, DevAddWithoutNameUsesTypeFormat)
{
    Reply r = dev_add("udma", "lo");
    ASSERT_EQ(r.error, 0) << r.extack;

    Reply d = dev_dump();
    ASSERT_EQ(d.error, 0) << d.extack;
    std::string name;
    for (const auto &m : d.msgs)
        if (m.has(UBCORE_NL_ATTR_NETDEV_NAME) && m.str(UBCORE_NL_ATTR_NETDEV_NAME) == "lo" &&
            m.str(UBCORE_NL_ATTR_DRIVER_NAME) == "udma")
            name = m.str(UBCORE_NL_ATTR_DEV_NAME);
    ASSERT_FALSE(name.empty()) << "no udma device on lo in the dump";
    added_.push_back(name);
    EXPECT_TRUE(std::regex_match(name, std::regex("udma[0-9]+"))) << name;
    EXPECT_TRUE(fs::is_directory(std::string(kClass) + "/" + name));
}

TEST_F(UbcoreNetlink, DynamicEidsFollowLo)
{
    add_test_dev();
    ASSERT_TRUE(lo_eids_present(kDev))
        << "::ffff:127.0.0.1 and ::1 not both dynamic EIDs within 5 s";
    for (const auto &e : eids(kDev)) {
        EXPECT_FALSE(e.is_static) << eid_text(e.eid);
        EXPECT_LT(e.index, 64u);
        EXPECT_TRUE(fs::exists(std::string(kClass) + "/" + kDev + "/eids/eid" +
                               std::to_string(e.index)))
            << "no sysfs file for EID " << eid_text(e.eid);
    }
}

TEST_F(UbcoreNetlink, StaticModeDropsDynamicEidsAndDynamicBringsThemBack)
{
    add_test_dev();
    ASSERT_TRUE(lo_eids_present(kDev));

    Reply r = eid_mode(kDev, UBCORE_NL_EID_MODE_STATIC);
    ASSERT_EQ(r.error, 0) << r.extack;
    EXPECT_TRUE(eids(kDev).empty()) << "dynamic EIDs left in static mode";
    Reply got = dev_get(kDev);
    ASSERT_EQ(got.error, 0) << got.extack;
    ASSERT_EQ(got.msgs.size(), 1u);
    EXPECT_EQ(got.msgs[0].u8(UBCORE_NL_ATTR_EID_MODE), UBCORE_NL_EID_MODE_STATIC);
    EXPECT_EQ(read_line(std::string(kClass) + "/" + kDev + "/eid_mode"), "static");

    r = eid_mode(kDev, UBCORE_NL_EID_MODE_DYNAMIC);
    ASSERT_EQ(r.error, 0) << r.extack;
    EXPECT_TRUE(lo_eids_present(kDev)) << "dynamic mode did not restore lo's EIDs";

    r = eid_mode(kDev, 2);
    EXPECT_EQ(r.error, -EINVAL);
    EXPECT_FALSE(r.extack.empty());
}

TEST_F(UbcoreNetlink, StaticEidAddAndDel)
{
    const Eid a = eid_v6("fd00::1"), b = eid_v6("fd00::2");

    add_test_dev();
    ASSERT_TRUE(lo_eids_present(kDev));
    const uint32_t dyn_idx = find_eid(kDev, eid_v6("::1"))->index;

    Reply r = eid_add(kDev, 10, a);
    ASSERT_EQ(r.error, 0) << r.extack;
    auto e = find_eid(kDev, a);
    ASSERT_TRUE(e.has_value());
    EXPECT_EQ(e->index, 10u);
    EXPECT_TRUE(e->is_static);
    EXPECT_TRUE(fs::exists(std::string(kClass) + "/" + kDev + "/eids/eid10"));

    // The same EID elsewhere, or another EID at a taken index.
    EXPECT_EQ(eid_add(kDev, 11, a).error, -EEXIST);
    EXPECT_EQ(eid_add(kDev, 10, b).error, -EEXIST);
    EXPECT_EQ(eid_add(kDev, dyn_idx, b).error, -EBUSY);
    r = eid_add(kDev, 64, b);
    EXPECT_EQ(r.error, -EINVAL);
    EXPECT_FALSE(r.extack.empty());
    EXPECT_EQ(eid_add(kDev, UINT32_MAX, b).error, -EINVAL);
    EXPECT_FALSE(find_eid(kDev, b).has_value()) << "a refused EID was added";

    // A static EID stays in static mode, where the dynamic ones go.
    ASSERT_EQ(eid_mode(kDev, UBCORE_NL_EID_MODE_STATIC).error, 0);
    auto all = eids(kDev);
    ASSERT_EQ(all.size(), 1u);
    EXPECT_EQ(all[0].eid, a);
    EXPECT_EQ(all[0].index, 10u);
    ASSERT_EQ(eid_mode(kDev, UBCORE_NL_EID_MODE_DYNAMIC).error, 0);
    ASSERT_TRUE(lo_eids_present(kDev));

    EXPECT_EQ(eid_del(kDev, dyn_idx).error, -EPERM);
    r = eid_del(kDev, 10);
    ASSERT_EQ(r.error, 0) << r.extack;
    EXPECT_FALSE(find_eid(kDev, a).has_value());
    EXPECT_FALSE(fs::exists(std::string(kClass) + "/" + kDev + "/eids/eid10"));
    r = eid_del(kDev, 10);
    EXPECT_EQ(r.error, -ENOENT);
    EXPECT_FALSE(r.extack.empty());
    EXPECT_EQ(eid_del(kDev, 64).error, -EINVAL);
}

TEST_F(UbcoreNetlink, MalformedRequestsAreRefused)
{
    add_test_dev();

    // An EID must be exactly 16 bytes.
    Reply r = nl_.request(UBCORE_NL_CMD_EID_ADD, false,
                          both(dev_name(kDev),
                               both(put_u32(UBCORE_NL_ATTR_EID_INDEX, 20),
                                    put_bin(UBCORE_NL_ATTR_EID, Bytes(15, 0xfd)))));
    EXPECT_EQ(r.error, -ERANGE);
    EXPECT_FALSE(r.extack.empty());
    // A missing attribute.
    r = nl_.request(UBCORE_NL_CMD_EID_ADD, false,
                    both(dev_name(kDev), put_u32(UBCORE_NL_ATTR_EID_INDEX, 20)));
    EXPECT_EQ(r.error, -EINVAL);
    EXPECT_FALSE(r.extack.empty());
    // An attribute the command does not take (strict validation).
    r = nl_.request(UBCORE_NL_CMD_EID_DEL, false,
                    both(dev_name(kDev),
                         both(put_u32(UBCORE_NL_ATTR_EID_INDEX, 20),
                              put_u8(UBCORE_NL_ATTR_EID_MODE, 0))));
    EXPECT_EQ(r.error, -EINVAL);
    // A device name that is too long (63 bytes at most).
    r = dev_get(std::string(64, 'x'));
    EXPECT_EQ(r.error, -EINVAL);
    EXPECT_EQ(dev_get(std::string(63, 'x')).error, -ENODEV);
    // DEV_ADD names that are not plain names or one "%d".
    for (const char *bad : {"a/b", "x%s", "x%d%d", "x y", ""}) {
        r = dev_add("udma", "lo", std::string(bad));
        EXPECT_EQ(r.error, -EINVAL) << "name '" << bad << "'";
    }
    EXPECT_EQ(dev_add("udma", "").error, -ENODEV);
    EXPECT_EQ(nl_.request(UBCORE_NL_CMD_DEV_ADD, false,
                          put_str(UBCORE_NL_ATTR_LINK_TYPE, "udma")).error,
              -EINVAL);
    // Unknown devices.
    EXPECT_EQ(dev_get("nosuchdev").error, -ENODEV);
    EXPECT_EQ(eid_dump("nosuchdev").error, -ENODEV);
    EXPECT_EQ(eid_add("nosuchdev", 20, eid_v6("fd00::3")).error, -ENODEV);
    EXPECT_EQ(eid_del("nosuchdev", 20).error, -ENODEV);
    EXPECT_EQ(eid_mode("nosuchdev", UBCORE_NL_EID_MODE_STATIC).error, -ENODEV);
    EXPECT_EQ(dev_del("nosuchdev").error, -ENODEV);
}

TEST_F(UbcoreNetlink, DevAddErrors)
{
    Reply r = dev_add("udma", "nosuchnetdev0", std::string(kDev));
    EXPECT_EQ(r.error, -ENODEV);
    EXPECT_FALSE(r.extack.empty());
    r = dev_add("nosuchtype", "lo", std::string(kDev));
    EXPECT_EQ(r.error, -EOPNOTSUPP);
    EXPECT_FALSE(r.extack.empty());
    EXPECT_FALSE(fs::exists(std::string(kClass) + "/" + kDev));
    EXPECT_FALSE(dumped_dev(kDev).has_value());

    add_test_dev();
    size_t before = dev_dump().msgs.size();
    r = dev_add("udma", "lo", std::string("nltest1"));
    EXPECT_EQ(r.error, -EEXIST) << "a second udma device on lo";
    EXPECT_FALSE(r.extack.empty());
    EXPECT_FALSE(fs::exists(std::string(kClass) + "/nltest1"));
    EXPECT_EQ(dev_dump().msgs.size(), before);
}

TEST_F(UbcoreNetlink, DevAddErrorsOnTakenName)
{
    add_test_dev();
    ASSERT_EQ(run({"ip", "link", "add", "nlt-veth0", "type", "veth", "peer", "name",
                   "nlt-veth1"}),
              0);
    Reply r = dev_add("udma", "nlt-veth0", std::string(kDev));
    EXPECT_EQ(r.error, -EEXIST);
    r = dev_add("udma", "nlt-veth0", std::string("nltest1"));
    EXPECT_EQ(r.error, 0) << r.extack;
    if (r.error == 0) {
        added_.push_back("nltest1");
        auto m = dumped_dev("nltest1");
        ASSERT_TRUE(m.has_value());
        EXPECT_EQ(m->str(UBCORE_NL_ATTR_NETDEV_NAME), "nlt-veth0");
        // Down and without a peer: the port is DOWN (1).
        EXPECT_EQ(m->u8(UBCORE_NL_ATTR_PORT_STATE), 1);
    }
    // Deleting the netdev removes its udma device (udma's reaper).
    EXPECT_EQ(run({"ip", "link", "del", "nlt-veth0"}), 0);
    EXPECT_TRUE(ub_itest::wait_for([&] { return !dumped_dev("nltest1").has_value(); }))
        << "nltest1 outlived its netdev";
}

TEST_F(UbcoreNetlink, DevDelRemovesTheDevice)
{
    add_test_dev();
    ASSERT_TRUE(dumped_dev(kDev).has_value());

    Reply r = dev_del(kDev);
    ASSERT_EQ(r.error, 0) << r.extack;
    EXPECT_FALSE(dumped_dev(kDev).has_value());
    EXPECT_FALSE(fs::exists(std::string(kClass) + "/" + kDev));
    r = dev_get(kDev);
    EXPECT_EQ(r.error, -ENODEV);
    EXPECT_FALSE(r.extack.empty());
    EXPECT_EQ(dev_del(kDev).error, -ENODEV);
    EXPECT_EQ(eid_dump(kDev).error, -ENODEV);

    // lo is free for a udma device again.
    add_test_dev();
    EXPECT_TRUE(dumped_dev(kDev).has_value());
}

// Exit codes of the unprivileged child.
enum : int {
    kChildOk = 0,
    kChildSetupFailed = 10,
    kChildStillCapable = 11,
    kChildNoFamily = 12,
    kChildReadRefused = 13,
    kChildAdminAllowed = 20,  // + the command number
};

// In a forked child: drop CAP_NET_ADMIN (bounding set, then every set),
// become nobody, and try each command.
int unprivileged_child()
{
    __user_cap_header_struct hdr = {_LINUX_CAPABILITY_VERSION_3, 0};
    __user_cap_data_struct data[2] = {};

    if (prctl(PR_CAPBSET_DROP, CAP_NET_ADMIN, 0, 0, 0) != 0 ||
        syscall(SYS_capget, &hdr, data) != 0)
        return kChildSetupFailed;
    data[0].effective &= ~(1u << CAP_NET_ADMIN);
    data[0].permitted &= ~(1u << CAP_NET_ADMIN);
    data[0].inheritable &= ~(1u << CAP_NET_ADMIN);
    if (syscall(SYS_capset, &hdr, data) != 0 || setgid(65534) != 0 || setuid(65534) != 0)
        return kChildSetupFailed;
    if (syscall(SYS_capget, &hdr, data) != 0)
        return kChildSetupFailed;
    if (data[0].effective & (1u << CAP_NET_ADMIN))
        return kChildStillCapable;

    UbcoreNl nl;
    std::string why;
    if (!nl.open(&why))
        return kChildNoFamily;

    // Reading is open to everyone.
    Reply r = nl.request(UBCORE_NL_CMD_DEV_GET, true);
    bool seen = false;
    for (const auto &m : r.msgs)
        seen |= m.has(UBCORE_NL_ATTR_DEV_NAME) && m.str(UBCORE_NL_ATTR_DEV_NAME) == kDev;
    if (r.error != 0 || !seen || nl.request(UBCORE_NL_CMD_EID_GET, true, dev_name(kDev)).error != 0)
        return kChildReadRefused;

    const Eid eid = eid_v6("fd00::99");
    const std::vector<std::pair<uint8_t, Builder>> admin = {
        {UBCORE_NL_CMD_EID_ADD,
         both(dev_name(kDev), both(put_u32(UBCORE_NL_ATTR_EID_INDEX, 30),
                                   put_bin(UBCORE_NL_ATTR_EID, Bytes(eid.begin(), eid.end()))))},
        // An empty index: allowed, this would fail with -ENOENT instead.
        {UBCORE_NL_CMD_EID_DEL, both(dev_name(kDev), put_u32(UBCORE_NL_ATTR_EID_INDEX, 40))},
        {UBCORE_NL_CMD_EID_SET_MODE,
         both(dev_name(kDev), put_u8(UBCORE_NL_ATTR_EID_MODE, UBCORE_NL_EID_MODE_STATIC))},
        {UBCORE_NL_CMD_DEV_DEL, dev_name(kDev)},
        {UBCORE_NL_CMD_DEV_ADD, both(put_str(UBCORE_NL_ATTR_LINK_TYPE, "udma"),
                                     put_str(UBCORE_NL_ATTR_NETDEV_NAME, "lo"))},
    };
    for (const auto &[cmd, build] : admin)
        if (nl.request(cmd, false, build).error != -EPERM)
            return kChildAdminAllowed + cmd;
    return kChildOk;
}

TEST_F(UbcoreNetlink, AdminCommandsNeedCapNetAdmin)
{
    add_test_dev();
    ASSERT_TRUE(lo_eids_present(kDev));
    const auto before = eids(kDev);

    pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0)
        _exit(unprivileged_child());
    int status = 0;
    ASSERT_EQ(waitpid(pid, &status, 0), pid);
    ASSERT_TRUE(WIFEXITED(status));
    EXPECT_EQ(WEXITSTATUS(status), kChildOk)
        << "child exit code " << WEXITSTATUS(status) << " (20 + n: command n was not refused "
        << "with -EPERM; 10: setup; 11: still capable; 12: no family; 13: reading refused)";

    // Nothing changed.
    auto dev = dumped_dev(kDev);
    ASSERT_TRUE(dev.has_value());
    EXPECT_EQ(dev->u8(UBCORE_NL_ATTR_EID_MODE), UBCORE_NL_EID_MODE_DYNAMIC);
    auto after = eids(kDev);
    ASSERT_EQ(after.size(), before.size());
    for (size_t i = 0; i < after.size(); i++) {
        EXPECT_EQ(after[i].index, before[i].index);
        EXPECT_EQ(after[i].eid, before[i].eid);
    }
    EXPECT_FALSE(find_eid(kDev, eid_v6("fd00::99")).has_value());
}

}  // namespace
