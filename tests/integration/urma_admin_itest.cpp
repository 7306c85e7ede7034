// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The UB/URMA stack authors
//
// The urma_admin binary against the real modules, in the test guest (as
// root): the suite loads the stack with udma0 on "lo", creates objects with
// liburma, runs the tool (fork/exec, output captured) and checks what it
// prints and how it exits, including wrong device names and a caller
// without CAP_NET_ADMIN.
#include <linux/capability.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "urma_itest.h"

#ifndef URMA_ADMIN_PATH
#error "URMA_ADMIN_PATH must name the built urma_admin"
#endif

namespace {

struct ToolRun {
    int code = -1;
    std::string out, err;
};

std::string slurp(FILE *f)
{
    std::string s;
    char buf[4096];
    size_t n;

    std::rewind(f);
    while ((n = std::fread(buf, 1, sizeof(buf), f)) > 0)
        s.append(buf, n);
    return s;
}

// Runs urma_admin with args; without_net_admin: in a child whose bounding
// set lacks CAP_NET_ADMIN, so that root execs the tool without it.
ToolRun admin(const std::vector<std::string> &args, bool without_net_admin = false)
{
    ToolRun r;
    FILE *out = std::tmpfile();
    FILE *err = std::tmpfile();
    if (out == nullptr || err == nullptr) {
        r.err = "tmpfile failed";
        return r;
    }
    pid_t pid = fork();
    if (pid == 0) {
        if (without_net_admin && prctl(PR_CAPBSET_DROP, CAP_NET_ADMIN, 0, 0, 0) != 0)
            _exit(120);
        dup2(fileno(out), STDOUT_FILENO);
        dup2(fileno(err), STDERR_FILENO);
        std::vector<char *> argv{const_cast<char *>(URMA_ADMIN_PATH)};
        for (const auto &a : args)
            argv.push_back(const_cast<char *>(a.c_str()));
        argv.push_back(nullptr);
        execv(URMA_ADMIN_PATH, argv.data());
        _exit(127);
    }
    int status = 0;
    if (pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status))
        r.code = WEXITSTATUS(status);
    r.out = slurp(out);
    r.err = slurp(err);
    std::fclose(out);
    std::fclose(err);
    return r;
}

std::string describe(const ToolRun &r)
{
    return "exit " + std::to_string(r.code) + "\nstdout:\n" + r.out + "stderr:\n" + r.err;
}

// The whitespace-separated cells of the table line whose first cell is key.
std::vector<std::string> row(const std::string &table, const std::string &key)
{
    std::istringstream lines(table);
    std::string line;
    while (std::getline(lines, line)) {
        std::istringstream cells(line);
        std::vector<std::string> v;
        std::string c;
        while (cells >> c)
            v.push_back(c);
        if (!v.empty() && v[0] == key)
            return v;
    }
    return {};
}

std::string join(const std::vector<std::string> &v, size_t from)
{
    std::string s;
    for (size_t i = from; i < v.size(); i++)
        s += (s.empty() ? "" : " ") + v[i];
    return s;
}

bool has(const std::string &s, const std::string &what)
{
    return s.find(what) != std::string::npos;
}

std::string sysfs_line(const std::string &path)
{
    std::ifstream f(path);
    std::string line;
    std::getline(f, line);
    return line;
}

class UrmaAdmin : public ub_itest::StackTest {
protected:
};

TEST_F(UrmaAdmin, ShowListsTheDeviceAndWholeDecodesItsCapabilities)
{
    ToolRun r = admin({"show"});
    ASSERT_EQ(r.code, 0) << describe(r);
    EXPECT_TRUE(r.err.empty());
    auto udma0 = row(r.out, "udma0");
    ASSERT_EQ(udma0.size(), 7u) << r.out;
    EXPECT_EQ(udma0[1], "udma");
    EXPECT_EQ(udma0[2], "lo");
    EXPECT_EQ(udma0[3], "dynamic");

    r = admin({"show", "--dev", "udma0", "--whole"});
    ASSERT_EQ(r.code, 0) << describe(r);
    EXPECT_EQ(r.out.rfind("udma0:\n", 0), 0u) << r.out;
    // The decoded masks start with the value sysfs shows.
    for (const char *cap : {"atomic_feature", "trans_mode", "congestion_ctrl_alg"}) {
        std::string v = sysfs_line(std::string("/sys/class/ubcore/udma0/") + cap);
        EXPECT_TRUE(has(r.out, std::string("  ") + cap + ": " + v + " [")) << cap << " " << v << "\n" << r.out;
    }
    EXPECT_TRUE(has(r.out, "  max_jfc: " + sysfs_line("/sys/class/ubcore/udma0/max_jfc") + "\n")) << r.out;
    EXPECT_TRUE(has(r.out, "::ffff:127.0.0.1  dynamic")) << r.out;
}

TEST_F(UrmaAdmin, WrongDeviceNamesFailNamingTheDevice)
{
    for (const auto &args : std::vector<std::vector<std::string>>{
             {"show", "--dev", "nosuch9"},
             {"show", "dev", "nosuch9", "jfc"},
             {"eid", "del", "nosuch9", "1"},
         }) {
        ToolRun r = admin(args);
        EXPECT_EQ(r.code, 1) << describe(r);
        EXPECT_TRUE(has(r.err, "nosuch9")) << describe(r);
        EXPECT_TRUE(has(r.err, "No such device")) << describe(r);
        EXPECT_TRUE(r.out.empty());
    }
    ToolRun r = admin({"show", "dev", "udma0", "qp"});
    EXPECT_EQ(r.code, 2) << describe(r);
}

// Objects created here are listed with their IDs and attributes.
class UrmaAdminObjects : public UrmaAdmin {
protected:
    void SetUp() override
    {
        ASSERT_EQ(urma_init(nullptr), URMA_SUCCESS);
        ctx_ = ub_itest::open_ctx();
        ASSERT_NE(ctx_, nullptr) << std::strerror(errno);
        jfce_ = urma_create_jfce(ctx_);
        ASSERT_NE(jfce_, nullptr);
        urma_jfc_cfg_t c1 = ub_itest::jfc_cfg(64, jfce_);
        jfc_ = urma_create_jfc(ctx_, &c1);
        urma_jfc_cfg_t c2 = ub_itest::jfc_cfg(32);
        jfc2_ = urma_create_jfc(ctx_, &c2);
        ASSERT_TRUE(jfc_ && jfc2_);
        urma_jfs_cfg_t s = ub_itest::jfs_cfg(jfc_);
        jfs_ = urma_create_jfs(ctx_, &s);
        urma_jfr_cfg_t rc = ub_itest::jfr_cfg(jfc2_);
        jfr_ = urma_create_jfr(ctx_, &rc);
        ASSERT_TRUE(jfs_ && jfr_);
        urma_jetty_cfg_t jc = ub_itest::jetty_cfg_shared(jfc_, jfr_);
        jetty_ = urma_create_jetty(ctx_, &jc);
        ASSERT_NE(jetty_, nullptr);
        buf_ = mmap(nullptr, kLen, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        ASSERT_NE(buf_, MAP_FAILED);
        tid_ = urma_alloc_token_id(ctx_);
        ASSERT_NE(tid_, nullptr);
        urma_seg_cfg_t sc = ub_itest::seg_cfg(buf_, kLen);
        sc.token_id = tid_;
        sc.flag.bs.token_id_valid = URMA_TOKEN_ID_VALID;
        seg_ = urma_register_seg(ctx_, &sc);
        ASSERT_NE(seg_, nullptr) << std::strerror(errno);
        ASSERT_EQ(urma_get_uasid(&uasid_), URMA_SUCCESS);
    }
    void TearDown() override
    {
        if (seg_) {
            EXPECT_EQ(urma_unregister_seg(seg_), URMA_SUCCESS);
        }
        if (tid_) {
            EXPECT_EQ(urma_free_token_id(tid_), URMA_SUCCESS);
        }
        if (buf_ != MAP_FAILED && buf_ != nullptr) {
            munmap(buf_, kLen);
        }
        if (jetty_) {
            EXPECT_EQ(urma_delete_jetty(jetty_), URMA_SUCCESS);
        }
        if (jfr_) {
            EXPECT_EQ(urma_delete_jfr(jfr_), URMA_SUCCESS);
        }
        if (jfs_) {
            EXPECT_EQ(urma_delete_jfs(jfs_), URMA_SUCCESS);
        }
        for (urma_jfc_t *j : {jfc_, jfc2_}) {
            if (j) {
                EXPECT_EQ(urma_delete_jfc(j), URMA_SUCCESS);
            }
        }
        if (jfce_) {
            EXPECT_EQ(urma_delete_jfce(jfce_), URMA_SUCCESS);
        }
        // The deletes above leave only the context.
        if (ctx_) {
            EXPECT_TRUE(ub_itest::wait_for([] { return ub_itest::only_contexts_left(1); }, 3000))
                << ub_itest::counts();
            EXPECT_EQ(urma_delete_context(ctx_), URMA_SUCCESS);
        }
        EXPECT_EQ(urma_uninit(), URMA_SUCCESS);
        EXPECT_TRUE(ub_itest::wait_for([] { return ub_itest::all_counts_zero(); }, 3000)) << ub_itest::counts();
    }

    std::string owner_tail() const { return "user " + std::to_string(uasid_) + " " + std::to_string(getpid()); }
    static std::string id(uint32_t v) { return std::to_string(v); }

    static constexpr size_t kLen = 4 * 4096;
    urma_context_t *ctx_ = nullptr;
    urma_jfce_t *jfce_ = nullptr;
    urma_jfc_t *jfc_ = nullptr, *jfc2_ = nullptr;
    urma_jfs_t *jfs_ = nullptr;
    urma_jfr_t *jfr_ = nullptr;
    urma_jetty_t *jetty_ = nullptr;
    void *buf_ = nullptr;
    urma_token_id_t *tid_ = nullptr;
    urma_target_seg_t *seg_ = nullptr;
    uint32_t uasid_ = 0;
};

TEST_F(UrmaAdminObjects, JfcListAndOne)
{
    ToolRun r = admin({"show", "dev", "udma0", "jfc"});
    ASSERT_EQ(r.code, 0) << describe(r);
    EXPECT_EQ(join(row(r.out, "jfc_id"), 0), "jfc_id depth jfce use_cnt owner uasid pid") << r.out;
    // id depth jfce use_cnt owner uasid pid; jfc_ serves the JFS and the jetty.
    EXPECT_EQ(join(row(r.out, id(jfc_->jfc_id.id)), 1), id(jfc_->jfc_cfg.depth) + " yes 2 " + owner_tail()) << r.out;
    EXPECT_EQ(join(row(r.out, id(jfc2_->jfc_id.id)), 1), id(jfc2_->jfc_cfg.depth) + " no 1 " + owner_tail())
        << r.out;

    r = admin({"show", "dev", "udma0", "jfc", id(jfc_->jfc_id.id)});
    ASSERT_EQ(r.code, 0) << describe(r);
    EXPECT_EQ(r.out.rfind("jfc:\n  id: " + id(jfc_->jfc_id.id) + "\n", 0), 0u) << r.out;
    EXPECT_TRUE(has(r.out, "  jfce: yes\n")) << r.out;
    EXPECT_TRUE(has(r.out, "  pid: " + std::to_string(getpid()) + "\n")) << r.out;

    r = admin({"show", "dev", "udma0", "jfc", "999999"});
    EXPECT_EQ(r.code, 1) << describe(r);
    EXPECT_TRUE(has(r.err, "No such file or directory: no such jfc")) << describe(r);
}

TEST_F(UrmaAdminObjects, JfsJfrJetty)
{
    ToolRun r = admin({"show", "dev", "udma0", "jfs"});
    ASSERT_EQ(r.code, 0) << describe(r);
    // id depth trans_mode state jfc_id priority owner uasid pid
    auto v = row(r.out, id(jfs_->jfs_id.id));
    EXPECT_EQ(join(v, 1), id(jfs_->jfs_cfg.depth) + " RM READY " + id(jfc_->jfc_id.id) + " " +
                              id(jfs_->jfs_cfg.priority) + " " + owner_tail())
        << r.out;
    // Only JFSs: the jetty and JFR share the ID space but are not listed.
    EXPECT_TRUE(row(r.out, id(jetty_->jetty_id.id)).empty()) << r.out;
    EXPECT_TRUE(row(r.out, id(jfr_->jfr_id.id)).empty()) << r.out;

    r = admin({"show", "dev", "udma0", "jfr"});
    ASSERT_EQ(r.code, 0) << describe(r);
    // id depth trans_mode state jfc_id use_cnt(jetties sharing it) owner
    EXPECT_EQ(join(row(r.out, id(jfr_->jfr_id.id)), 1),
              id(jfr_->jfr_cfg.depth) + " RM READY " + id(jfc2_->jfc_id.id) + " 1 " + owner_tail())
        << r.out;

    r = admin({"show", "dev", "udma0", "jetty"});
    ASSERT_EQ(r.code, 0) << describe(r);
    // id depth trans_mode state send_jfc recv_jfc jfr_id owner
    EXPECT_EQ(join(row(r.out, id(jetty_->jetty_id.id)), 1),
              id(jetty_->jetty_cfg.jfs_cfg.depth) + " RM READY " + id(jfc_->jfc_id.id) + " " +
                  id(jfc2_->jfc_id.id) + " " + id(jfr_->jfr_id.id) + " " + owner_tail())
        << r.out;

    r = admin({"show", "dev", "udma0", "jetty", id(jfs_->jfs_id.id)});
    EXPECT_EQ(r.code, 1) << "a JFS's ID is no jetty: " << describe(r);
    EXPECT_TRUE(has(r.err, "no such jetty")) << describe(r);
}

TEST_F(UrmaAdminObjects, SegmentsAndTps)
{
    ToolRun r = admin({"show", "dev", "udma0", "seg"});
    ASSERT_EQ(r.code, 0) << describe(r);
    char va[32];
    std::snprintf(va, sizeof(va), "0x%llx", static_cast<unsigned long long>(reinterpret_cast<uintptr_t>(buf_)));
    // token_id eid va len access pinned_pages owner
    auto v = row(r.out, id(tid_->token_id));
    ASSERT_EQ(v.size(), 9u) << r.out;
    EXPECT_EQ(join(v, 2), std::string(va) + " " + std::to_string(kLen) + " READ|WRITE 4 " + owner_tail()) << r.out;

    r = admin({"show", "dev", "udma0", "seg", id(tid_->token_id)});
    ASSERT_EQ(r.code, 0) << describe(r);
    EXPECT_EQ(row(r.out, id(tid_->token_id)), v) << r.out;
    r = admin({"show", "dev", "udma0", "seg", "77777"});
    EXPECT_EQ(r.code, 1) << describe(r);
    EXPECT_TRUE(has(r.err, "no such token ID")) << describe(r);

    // No import opened a TP here: the TP table is empty, no TP found.
    r = admin({"show", "dev", "udma0", "tp"});
    EXPECT_EQ(r.code, 0) << describe(r);
    EXPECT_EQ(r.out, "tpn  peer_eid  peer_tpn  trans_mode  state  users  age_ms\n");
    r = admin({"show", "dev", "udma0", "tp", "1"});
    EXPECT_EQ(r.code, 1) << describe(r);
}

TEST_F(UrmaAdmin, EidAddDelAndModeShowInShow)
{
    ToolRun r = admin({"eid", "add", "udma0", "40", "fd00::40"});
    ASSERT_EQ(r.code, 0) << describe(r);
    r = admin({"show", "--dev", "udma0", "--whole"});
    EXPECT_TRUE(has(r.out, "    40  fd00::40  static\n")) << r.out;

    r = admin({"eid", "add", "udma0", "41", "fd00::40"});
    EXPECT_EQ(r.code, 1) << "the EID is in the table: " << describe(r);
    EXPECT_TRUE(has(r.err, "File exists")) << describe(r);

    r = admin({"eid", "set", "udma0", "mode", "static"});
    ASSERT_EQ(r.code, 0) << describe(r);
    r = admin({"show", "--dev", "udma0", "--whole"});
    EXPECT_TRUE(has(r.out, "  eid_mode: static\n")) << r.out;
    EXPECT_FALSE(has(r.out, "dynamic\n    ")) << r.out;
    EXPECT_FALSE(has(r.out, "::ffff:127.0.0.1")) << "static mode drops the dynamic EIDs\n" << r.out;

    r = admin({"eid", "set", "udma0", "0", "mode", "dynamic"});
    ASSERT_EQ(r.code, 0) << describe(r);
    r = admin({"eid", "del", "udma0", "40"});
    ASSERT_EQ(r.code, 0) << describe(r);
    r = admin({"show", "--dev", "udma0", "--whole"});
    EXPECT_TRUE(has(r.out, "  eid_mode: dynamic\n")) << r.out;
    EXPECT_FALSE(has(r.out, "fd00::40")) << r.out;
    EXPECT_TRUE(ub_itest::wait_for([] { return has(admin({"show", "--dev", "udma0", "-w"}).out, "::ffff:127.0.0.1"); }))
        << "dynamic mode brings lo's addresses back";

    r = admin({"eid", "del", "udma0", "40"});
    EXPECT_EQ(r.code, 1) << describe(r);
    EXPECT_TRUE(has(r.err, "no EID at this index")) << describe(r);
}

TEST_F(UrmaAdmin, DevAddAndDelOnVethAndSystemShow)
{
    ASSERT_EQ(ub_itest::run("ip link add uaveth0 type veth peer name uaveth1"), 0);
    ToolRun r = admin({"dev", "add", "uat0", "netdev", "uaveth0"});
    EXPECT_EQ(r.code, 0) << describe(r);
    r = admin({"show"});
    auto v = row(r.out, "uat0");
    ASSERT_EQ(v.size(), 7u) << r.out;
    EXPECT_EQ(v[2], "uaveth0");
    r = admin({"system", "show"});
    EXPECT_EQ(r.code, 0) << describe(r);
    EXPECT_EQ(r.out, "dev_count: 2\nns_mode: exclusive\ndev_sharing: off\neid_sharing: off\n"
                     "netlink_version: 1\nabi_version: 1\n");

    r = admin({"dev", "add", "uat1", "netdev", "nosuchif0"});
    EXPECT_EQ(r.code, 1) << describe(r);
    EXPECT_TRUE(has(r.err, "no such netdev")) << describe(r);

    r = admin({"dev", "del", "uat0"});
    EXPECT_EQ(r.code, 0) << describe(r);
    r = admin({"show"});
    EXPECT_TRUE(row(r.out, "uat0").empty()) << r.out;
    r = admin({"dev", "del", "uat0"});
    EXPECT_EQ(r.code, 1) << describe(r);
    EXPECT_TRUE(has(r.err, "dev del uat0: No such device")) << describe(r);
    EXPECT_EQ(ub_itest::run("ip link del uaveth0"), 0);
}

TEST_F(UrmaAdmin, WithoutCapNetAdminChangesFailButShowWorks)
{
    ToolRun r = admin({"eid", "add", "udma0", "42", "fd00::42"}, true);
    EXPECT_EQ(r.code, 1) << describe(r);
    EXPECT_TRUE(has(r.err, "Operation not permitted")) << describe(r);
    r = admin({"dev", "add", "uat2", "netdev", "lo"}, true);
    EXPECT_EQ(r.code, 1) << describe(r);
    EXPECT_TRUE(has(r.err, "Operation not permitted")) << describe(r);
    r = admin({"show", "--dev", "udma0", "--whole"}, true);
    EXPECT_EQ(r.code, 0) << describe(r);
    EXPECT_FALSE(has(r.out, "fd00::42")) << r.out;
    r = admin({"show"});
    EXPECT_TRUE(row(r.out, "uat2").empty()) << r.out;
}

}  // namespace
