// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The UB/URMA stack authors
// Jetty groups against the modules, with UMDK's semantics
// (urma_create_jetty_grp, urma_delete_jetty_grp, urma_jetty_cfg_t.jetty_grp,
// urma_rjetty_t.type URMA_JETTY_GROUP): the kernel object and its count,
// its ID in the jetty space, the members and the rules a member follows
// (RM, the group's token), delete refused while jetties are in it
// (URMA_ENOPERM), the limits (jetties per group: UMDK's 32; groups per
// context), a killed process leaving none behind, and messages to an
// imported group reaching its members by the group's policy.
#include <gtest/gtest.h>

#include <signal.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>
#include <vector>

#include <ub/udma_abi.h>
#include <ub/uburma_ioctl.h>

#include "stack.h"
#include "urma_api.h"
#include "urma_itest.h"

namespace {

using ub_itest::obj_count;

const std::string kLimits = "/sys/class/ubcore/udma0/limits/";
constexpr uint32_t kToken = 0xabcd;  // ub_itest::jfr_cfg's token (plain text)

using ub_itest::logged;

urma_jetty_grp_cfg_t grp_cfg(urma_jetty_grp_policy_t policy = URMA_JETTY_GRP_POLICY_RR, uint32_t token = kToken)
{
    urma_jetty_grp_cfg_t c = {};
    std::strcpy(c.name, "itest-group");
    c.flag.bs.token_policy = URMA_TOKEN_PLAIN_TEXT;
    c.token_value.token = token;
    c.policy = policy;
    c.user_ctx = 0x5150;
    return c;
}

// One command on the context's file, as liburma sends it (args_len given).
template <typename T> int raw_cmd(int fd, uint32_t command, T *args, uint32_t len = sizeof(T))
{
    struct uburma_cmd_hdr hdr = {};
    hdr.command = command;
    hdr.args_len = len;
    hdr.args_addr = reinterpret_cast<uintptr_t>(args);
    return ioctl(fd, UBURMA_CMD, &hdr) == 0 ? 0 : errno;
}

class JettyGrpTest : public ub_itest::CtxTest {
protected:
    void SetUp() override
    {
        ub_itest::CtxTest::SetUp();
        ASSERT_EQ(urma_register_log_func(ub_itest::log_capture), URMA_SUCCESS);
        ub_itest::log_clear();
    }
    void TearDown() override
    {
        urma_unregister_log_func();
        ub_itest::CtxTest::TearDown();
    }

    urma_jfc_t *make_jfc()
    {
        urma_jfc_cfg_t c = ub_itest::jfc_cfg(256);
        return urma_create_jfc(ctx_, &c);
    }
    urma_jfr_t *make_jfr(urma_jfc_t *jfc, uint32_t token = kToken,
                         urma_transport_mode_t mode = URMA_TM_RM)
    {
        urma_jfr_cfg_t c = ub_itest::jfr_cfg(jfc);
        c.token_value.token = token;
        c.trans_mode = mode;
        return urma_create_jfr(ctx_, &c);
    }
    urma_jetty_t *make_member(urma_jfc_t *jfc, urma_jfr_t *jfr, urma_jetty_grp_t *grp)
    {
        urma_jetty_cfg_t c = ub_itest::jetty_cfg_shared(jfc, jfr);
        c.jfs_cfg.trans_mode = jfr->jfr_cfg.trans_mode;
        c.jetty_grp = grp;
        return urma_create_jetty(ctx_, &c);
    }
};

// The device offers groups: udma's capabilities in sysfs and through
// urma_query_device, with UMDK's bound on jetties per group.
TEST_F(JettyGrpTest, DeviceOffersGroups)
{
    EXPECT_EQ(cap_.max_jetty_grp, 1024u);
    EXPECT_EQ(cap_.max_jetty_in_jetty_grp, URMA_MAX_JETTY_IN_JETTY_GRP);
    EXPECT_EQ(cap_.feature.bs.jetty_grp, 1u);
    EXPECT_EQ(ub_itest::sysfs_long("/sys/class/ubcore/udma0/max_jetty_grp"), 1024);
    EXPECT_EQ(ub_itest::sysfs_long("/sys/class/ubcore/udma0/max_jetty_in_jetty_grp"), 32);
    // An older caller's QUERY_DEVICE (without the group fields) still works.
    struct uburma_cmd_query_device q = {};
    EXPECT_EQ(raw_cmd(ctx_->dev_fd, UBURMA_CMD_QUERY_DEVICE, &q,
                      offsetof(struct uburma_cmd_query_device, out.max_jetty_grp)),
              0);
    EXPECT_EQ(q.out.max_jetty, cap_.max_jetty);
    EXPECT_EQ(q.out.max_jetty_grp, 0u);  // not written: beyond the caller's struct
    EXPECT_EQ(raw_cmd(ctx_->dev_fd, UBURMA_CMD_QUERY_DEVICE, &q,
                      offsetof(struct uburma_cmd_query_device, out.max_jetty_grp) - 4),
              EINVAL);
}

// Create makes one kernel object with a jetty ID above the reserved ones and
// the caller's configuration; delete of an empty group removes it.
TEST_F(JettyGrpTest, CreateDelete)
{
    urma_jetty_grp_cfg_t cfg = grp_cfg();
    urma_jetty_grp_t *grp = urma_create_jetty_grp(ctx_, &cfg);
    ASSERT_NE(grp, nullptr) << std::strerror(errno);
    EXPECT_EQ(obj_count("jetty_grp"), 1);
    EXPECT_EQ(grp->urma_ctx, ctx_);
    EXPECT_GT(grp->jetty_grp_id.id, 1023u);  // udma's reserved_jetty_id_max
    EXPECT_EQ(grp->jetty_grp_id.uasid, ctx_->uasid);
    EXPECT_EQ(std::memcmp(&grp->jetty_grp_id.eid, &ctx_->eid, sizeof(ctx_->eid)), 0);
    EXPECT_STREQ(grp->cfg.name, "itest-group");
    EXPECT_EQ(grp->cfg.user_ctx, 0x5150u);
    EXPECT_EQ(grp->cfg.id, grp->jetty_grp_id.id);
    EXPECT_EQ(grp->jetty_cnt, 0u);
    ASSERT_NE(grp->jetty_list, nullptr);
    EXPECT_EQ(urma_delete_context(ctx_), URMA_EAGAIN);  // the group holds the context

    // Its ID is a jetty ID: no jetty can take it, and a second group asking
    // for it finds it taken.
    urma_jfc_t *jfc = make_jfc();
    ASSERT_NE(jfc, nullptr);
    urma_jfr_t *jfr = make_jfr(jfc);
    ASSERT_NE(jfr, nullptr);
    urma_jetty_cfg_t jc = ub_itest::jetty_cfg_shared(jfc, jfr);
    jc.id = grp->jetty_grp_id.id;
    errno = 0;
    EXPECT_EQ(urma_create_jetty(ctx_, &jc), nullptr);
    EXPECT_EQ(errno, EBUSY);
    urma_jetty_grp_cfg_t same = grp_cfg();
    same.id = grp->jetty_grp_id.id;
    errno = 0;
    EXPECT_EQ(urma_create_jetty_grp(ctx_, &same), nullptr);
    EXPECT_EQ(errno, EBUSY);
    // ... nor a jetty's ID.
    jc.id = 0;
    urma_jetty_t *jetty = urma_create_jetty(ctx_, &jc);
    ASSERT_NE(jetty, nullptr);
    same.id = jetty->jetty_id.id;
    errno = 0;
    EXPECT_EQ(urma_create_jetty_grp(ctx_, &same), nullptr);
    EXPECT_EQ(errno, EBUSY);
    // A group with an ID of the caller's choice gets it.
    same.id = jetty->jetty_id.id + 100;
    urma_jetty_grp_t *chosen = urma_create_jetty_grp(ctx_, &same);
    ASSERT_NE(chosen, nullptr) << std::strerror(errno);
    EXPECT_EQ(chosen->jetty_grp_id.id, same.id);
    EXPECT_EQ(obj_count("jetty_grp"), 2);
    EXPECT_EQ(urma_delete_jetty_grp(chosen), URMA_SUCCESS);

    EXPECT_EQ(urma_delete_jetty(jetty), URMA_SUCCESS);
    EXPECT_EQ(urma_delete_jfr(jfr), URMA_SUCCESS);
    EXPECT_EQ(urma_delete_jfc(jfc), URMA_SUCCESS);
    EXPECT_EQ(urma_delete_jetty_grp(grp), URMA_SUCCESS);
    EXPECT_EQ(obj_count("jetty_grp"), 0);
}

// UMDK's argument checks (EINVAL) and the kernel's (policy, flag bits).
TEST_F(JettyGrpTest, BadArguments)
{
    urma_jetty_grp_cfg_t cfg = grp_cfg();
    errno = 0;
    EXPECT_EQ(urma_create_jetty_grp(nullptr, &cfg), nullptr);
    EXPECT_EQ(errno, EINVAL);
    errno = 0;
    EXPECT_EQ(urma_create_jetty_grp(ctx_, nullptr), nullptr);
    EXPECT_EQ(errno, EINVAL);
    std::memset(cfg.name, 'x', sizeof(cfg.name));  // no NUL
    errno = 0;
    EXPECT_EQ(urma_create_jetty_grp(ctx_, &cfg), nullptr);
    EXPECT_EQ(errno, EINVAL);
    cfg = grp_cfg(static_cast<urma_jetty_grp_policy_t>(2));
    errno = 0;
    EXPECT_EQ(urma_create_jetty_grp(ctx_, &cfg), nullptr);
    EXPECT_EQ(errno, EINVAL);
    cfg = grp_cfg();
    cfg.flag.value = 1u << 3;  // a reserved bit
    errno = 0;
    EXPECT_EQ(urma_create_jetty_grp(ctx_, &cfg), nullptr);
    EXPECT_EQ(errno, EINVAL);
    EXPECT_EQ(obj_count("jetty_grp"), 0);
    EXPECT_EQ(urma_delete_jetty_grp(nullptr), URMA_EINVAL);
}

// Members: RM jetties whose JFR has the group's token; the group lists
// them; delete of a group with jetties is URMA_ENOPERM (UMDK) and changes
// nothing; once they are deleted, the group goes.
TEST_F(JettyGrpTest, MembersAndNonEmptyDelete)
{
    urma_jetty_grp_cfg_t cfg = grp_cfg();
    urma_jetty_grp_t *grp = urma_create_jetty_grp(ctx_, &cfg);
    ASSERT_NE(grp, nullptr) << std::strerror(errno);
    urma_jfc_t *jfc = make_jfc();
    ASSERT_NE(jfc, nullptr);
    urma_jfr_t *jfr = make_jfr(jfc);
    ASSERT_NE(jfr, nullptr);
    urma_jetty_t *a = make_member(jfc, jfr, grp);
    ASSERT_NE(a, nullptr) << std::strerror(errno);
    urma_jetty_t *b = make_member(jfc, jfr, grp);
    ASSERT_NE(b, nullptr) << std::strerror(errno);
    EXPECT_EQ(grp->jetty_cnt, 2u);
    EXPECT_EQ(grp->jetty_list[0], a);
    EXPECT_EQ(grp->jetty_list[1], b);
    EXPECT_EQ(a->jetty_cfg.jetty_grp, grp);
    EXPECT_EQ(obj_count("jetty"), 2);

    EXPECT_EQ(urma_delete_jetty_grp(grp), URMA_ENOPERM);
    EXPECT_TRUE(logged("jetty grp in use"));
    EXPECT_EQ(obj_count("jetty_grp"), 1);
    // The kernel refuses too (EBUSY), whatever the library thinks.
    struct uburma_cmd_delete del = {};
    del.in.handle = grp->handle;
    EXPECT_EQ(raw_cmd(ctx_->dev_fd, UBURMA_CMD_DELETE_JETTY_GRP, &del), EBUSY);
    EXPECT_EQ(obj_count("jetty_grp"), 1);

    // Not the group's token, another token policy, not RM: EINVAL, no jetty.
    urma_jfr_t *other = make_jfr(jfc, kToken + 1);
    ASSERT_NE(other, nullptr);
    errno = 0;
    EXPECT_EQ(make_member(jfc, other, grp), nullptr);
    EXPECT_EQ(errno, EINVAL);
    urma_jfr_cfg_t none = ub_itest::jfr_cfg(jfc);
    none.flag.bs.token_policy = URMA_TOKEN_NONE;
    urma_jfr_t *nopolicy = urma_create_jfr(ctx_, &none);
    ASSERT_NE(nopolicy, nullptr);
    errno = 0;
    EXPECT_EQ(make_member(jfc, nopolicy, grp), nullptr);
    EXPECT_EQ(errno, EINVAL);
    urma_jfr_t *rc = make_jfr(jfc, kToken, URMA_TM_RC);
    ASSERT_NE(rc, nullptr);
    errno = 0;
    EXPECT_EQ(make_member(jfc, rc, grp), nullptr);
    EXPECT_EQ(errno, EINVAL);
    EXPECT_EQ(obj_count("jetty"), 2);
    EXPECT_EQ(grp->jetty_cnt, 2u);
    // The kernel checks the token itself: a raw create naming the group
    // with the other JFR is EINVAL.
    struct udma_create_jfs_resp resp = {};
    struct uburma_cmd_create_jetty raw = {};
    raw.in.flag = URMA_SHARE_JFR;
    raw.in.jfs_cfg.depth = 64;
    raw.in.jfs_cfg.trans_mode = URMA_TM_RM;
    raw.in.jfs_cfg.max_sge = 1;
    raw.in.jfs_cfg.max_rsge = 1;
    raw.in.send_jfc_handle = jfc->handle;
    raw.in.jfr_handle = other->handle;
    raw.in.udata.out_addr = reinterpret_cast<uintptr_t>(&resp);
    raw.in.udata.out_len = sizeof(resp);
    raw.in2.jetty_grp_handle = grp->handle;
    EXPECT_EQ(raw_cmd(ctx_->dev_fd, UBURMA_CMD_CREATE_JETTY, &raw), EINVAL);
    raw.in2.jetty_grp_handle = jfc->handle;  // a handle of another kind
    EXPECT_EQ(raw_cmd(ctx_->dev_fd, UBURMA_CMD_CREATE_JETTY, &raw), EINVAL);
    EXPECT_EQ(obj_count("jetty"), 2);

    // Leaving: delete takes a jetty off the list (the other stays in place).
    EXPECT_EQ(urma_delete_jetty(a), URMA_SUCCESS);
    EXPECT_EQ(grp->jetty_cnt, 1u);
    EXPECT_EQ(grp->jetty_list[1], b);
    EXPECT_EQ(urma_delete_jetty_grp(grp), URMA_ENOPERM);
    // Deactivated, a jetty is not a member; activated again, it is.
    ASSERT_EQ(urma_deactive_jetty(b), URMA_SUCCESS);
    EXPECT_EQ(grp->jetty_cnt, 0u);
    ASSERT_EQ(urma_active_jetty(b), URMA_SUCCESS);
    EXPECT_EQ(grp->jetty_cnt, 1u);
    EXPECT_EQ(urma_delete_jetty(b), URMA_SUCCESS);
    EXPECT_EQ(grp->jetty_cnt, 0u);

    EXPECT_EQ(urma_delete_jfr(rc), URMA_SUCCESS);
    EXPECT_EQ(urma_delete_jfr(nopolicy), URMA_SUCCESS);
    EXPECT_EQ(urma_delete_jfr(other), URMA_SUCCESS);
    EXPECT_EQ(urma_delete_jfr(jfr), URMA_SUCCESS);
    EXPECT_EQ(urma_delete_jfc(jfc), URMA_SUCCESS);
    EXPECT_EQ(urma_delete_jetty_grp(grp), URMA_SUCCESS);
    EXPECT_EQ(obj_count("jetty_grp"), 0);
}

// A group holds max_jetty_in_jetty_grp (32) jetties: the next create fails
// with UMDK's errno (EPERM) and its log line; the kernel holds the same
// bound (ENOSPC) for a caller that goes around the library. A context has
// at most limits/jetty_grp groups (ENOSPC).
TEST_F(JettyGrpTest, Limits)
{
    urma_jetty_grp_cfg_t cfg = grp_cfg();
    urma_jetty_grp_t *grp = urma_create_jetty_grp(ctx_, &cfg);
    ASSERT_NE(grp, nullptr) << std::strerror(errno);
    urma_jfc_t *jfc = make_jfc();
    ASSERT_NE(jfc, nullptr);
    urma_jfr_t *jfr = make_jfr(jfc);
    ASSERT_NE(jfr, nullptr);
    std::vector<urma_jetty_t *> members;
    for (uint32_t i = 0; i < URMA_MAX_JETTY_IN_JETTY_GRP; i++) {
        urma_jetty_t *j = make_member(jfc, jfr, grp);
        ASSERT_NE(j, nullptr) << "member " << i << ": " << std::strerror(errno);
        members.push_back(j);
    }
    EXPECT_EQ(grp->jetty_cnt, URMA_MAX_JETTY_IN_JETTY_GRP);
    errno = 0;
    EXPECT_EQ(make_member(jfc, jfr, grp), nullptr);
    EXPECT_EQ(errno, EPERM);
    EXPECT_TRUE(logged("failed to add jetty to jetty_grp"));
    EXPECT_EQ(obj_count("jetty"), 32);

    struct udma_create_jfs_resp resp = {};
    struct uburma_cmd_create_jetty raw = {};
    raw.in.flag = URMA_SHARE_JFR;
    raw.in.jfs_cfg.depth = 64;
    raw.in.jfs_cfg.trans_mode = URMA_TM_RM;
    raw.in.jfs_cfg.max_sge = 1;
    raw.in.jfs_cfg.max_rsge = 1;
    raw.in.send_jfc_handle = jfc->handle;
    raw.in.jfr_handle = jfr->handle;
    raw.in.udata.out_addr = reinterpret_cast<uintptr_t>(&resp);
    raw.in.udata.out_len = sizeof(resp);
    raw.in2.jetty_grp_handle = grp->handle;
    EXPECT_EQ(raw_cmd(ctx_->dev_fd, UBURMA_CMD_CREATE_JETTY, &raw), ENOSPC);
    EXPECT_EQ(obj_count("jetty"), 32);
    // An older caller's CREATE_JETTY (no in2) makes a jetty in no group.
    raw.in2.jetty_grp_handle = grp->handle;
    ASSERT_EQ(raw_cmd(ctx_->dev_fd, UBURMA_CMD_CREATE_JETTY, &raw,
                      offsetof(struct uburma_cmd_create_jetty, in2)),
              0);
    EXPECT_EQ(obj_count("jetty"), 33);
    struct uburma_cmd_delete del = {};
    del.in.handle = raw.out.handle;
    EXPECT_EQ(raw_cmd(ctx_->dev_fd, UBURMA_CMD_DELETE_JETTY, &del), 0);
    EXPECT_EQ(obj_count("jetty"), 32);

    // One member gone: there is room again.
    EXPECT_EQ(urma_delete_jetty(members.back()), URMA_SUCCESS);
    members.back() = make_member(jfc, jfr, grp);
    EXPECT_NE(members.back(), nullptr) << std::strerror(errno);
    urma_jetty_t *bad = nullptr;
    EXPECT_EQ(urma_delete_jetty_batch(members.data(), static_cast<int>(members.size()), &bad), URMA_SUCCESS);
    EXPECT_EQ(grp->jetty_cnt, 0u);
    EXPECT_EQ(urma_delete_jetty_grp(grp), URMA_SUCCESS);

    // Groups per context.
    const long old = ub_itest::sysfs_long(kLimits + "jetty_grp");
    EXPECT_EQ(old, 512);  // half of the device's 1024, as for every object
    ASSERT_TRUE(ub_itest::write_sysfs(kLimits + "jetty_grp", "2"));
    urma_jetty_grp_t *g1 = urma_create_jetty_grp(ctx_, &cfg);
    urma_jetty_grp_t *g2 = urma_create_jetty_grp(ctx_, &cfg);
    errno = 0;
    urma_jetty_grp_t *g3 = urma_create_jetty_grp(ctx_, &cfg);
    const int err3 = errno;
    EXPECT_TRUE(ub_itest::write_sysfs(kLimits + "jetty_grp", std::to_string(old)));
    ASSERT_NE(g1, nullptr);
    ASSERT_NE(g2, nullptr);
    EXPECT_EQ(g3, nullptr);
    EXPECT_EQ(err3, ENOSPC);
    EXPECT_EQ(obj_count("jetty_grp"), 2);
    EXPECT_EQ(urma_delete_jetty_grp(g1), URMA_SUCCESS);
    EXPECT_EQ(urma_delete_jetty_grp(g2), URMA_SUCCESS);
    if (g3 != nullptr)
        urma_delete_jetty_grp(g3);

    EXPECT_EQ(urma_delete_jfr(jfr), URMA_SUCCESS);
    EXPECT_EQ(urma_delete_jfc(jfc), URMA_SUCCESS);
}

// A process killed with a group and a member jetty in it: the kernel
// deletes the jetty, then the group; every count is back to 0.
TEST_F(JettyGrpTest, KilledProcessLeavesNoGroup)
{
    int ready[2];
    ASSERT_EQ(pipe(ready), 0);
    pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
        close(ready[0]);
        urma_context_t *ctx = ub_itest::open_ctx();
        if (ctx == nullptr)
            _exit(10);
        urma_jetty_grp_cfg_t cfg = grp_cfg();
        urma_jetty_grp_t *grp = urma_create_jetty_grp(ctx, &cfg);
        urma_jfc_cfg_t fc = ub_itest::jfc_cfg();
        urma_jfc_t *jfc = urma_create_jfc(ctx, &fc);
        if (grp == nullptr || jfc == nullptr)
            _exit(11);
        urma_jfr_cfg_t rc = ub_itest::jfr_cfg(jfc);
        urma_jfr_t *jfr = urma_create_jfr(ctx, &rc);
        if (jfr == nullptr)
            _exit(12);
        urma_jetty_cfg_t jc = ub_itest::jetty_cfg_shared(jfc, jfr);
        jc.jetty_grp = grp;
        if (urma_create_jetty(ctx, &jc) == nullptr || urma_create_jetty(ctx, &jc) == nullptr)
            _exit(13);
        if (write(ready[1], "R", 1) != 1)
            _exit(14);
        pause();
        _exit(15);
    }
    close(ready[1]);
    char c = 0;
    ASSERT_EQ(read(ready[0], &c, 1), 1) << "child failed to set up";
    close(ready[0]);
    // The parent's context and the child's.
    EXPECT_EQ(obj_count("ucontext"), 2);
    EXPECT_EQ(obj_count("jetty_grp"), 1);
    EXPECT_EQ(obj_count("jetty"), 2);
    ASSERT_EQ(kill(pid, SIGKILL), 0);
    int status = 0;
    ASSERT_EQ(waitpid(pid, &status, 0), pid);
    EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
    EXPECT_TRUE(ub_itest::wait_for([] { return ub_itest::only_contexts_left(1); }, 5000)) << ub_itest::counts();
    EXPECT_EQ(obj_count("jetty_grp"), 0);
}

// Messages to an imported group: the target picks a READY member per
// message, round robin; each member receives on its own JFR. A member is
// a jetty like any other (imported by its own ID it gets what is sent to
// it), and it sends too. A hash-hint group takes hint 0 (its first
// member); another hint is refused at post (udma's SQE has no hint).
class JettyGrpDataTest : public JettyGrpTest {
protected:
    void SetUp() override
    {
        JettyGrpTest::SetUp();
        buf_ = static_cast<char *>(std::aligned_alloc(4096, kLen));
        ASSERT_NE(buf_, nullptr);
        std::memset(buf_, 0, kLen);
        urma_seg_cfg_t sc = ub_itest::seg_cfg(buf_, kLen);
        seg_ = urma_register_seg(ctx_, &sc);
        ASSERT_NE(seg_, nullptr) << std::strerror(errno);
        base_ = reinterpret_cast<uintptr_t>(buf_);
        send_jfc_ = make_jfc();
        ASSERT_NE(send_jfc_, nullptr);
        urma_jfs_cfg_t fc = ub_itest::jfs_cfg(send_jfc_);
        jfs_ = urma_create_jfs(ctx_, &fc);
        ASSERT_NE(jfs_, nullptr);
    }
    void TearDown() override
    {
        if (jfs_ != nullptr) {
            EXPECT_EQ(urma_delete_jfs(jfs_), URMA_SUCCESS);
        }
        if (send_jfc_ != nullptr) {
            EXPECT_EQ(urma_delete_jfc(send_jfc_), URMA_SUCCESS);
        }
        if (seg_ != nullptr) {
            EXPECT_EQ(urma_unregister_seg(seg_), URMA_SUCCESS);
        }
        std::free(buf_);
        JettyGrpTest::TearDown();
    }

    // A member of grp with its own JFC and JFR.
    struct Member {
        urma_jfc_t *jfc = nullptr;
        urma_jfr_t *jfr = nullptr;
        urma_jetty_t *jetty = nullptr;
    };
    bool add_member(urma_jetty_grp_t *grp, Member *m)
    {
        m->jfc = make_jfc();
        m->jfr = m->jfc != nullptr ? make_jfr(m->jfc) : nullptr;
        m->jetty = m->jfr != nullptr ? make_member(m->jfc, m->jfr, grp) : nullptr;
        return m->jetty != nullptr;
    }
    void drop_member(Member *m)
    {
        if (m->jetty != nullptr) {
            EXPECT_EQ(urma_delete_jetty(m->jetty), URMA_SUCCESS);
        }
        if (m->jfr != nullptr) {
            EXPECT_EQ(urma_delete_jfr(m->jfr), URMA_SUCCESS);
        }
        if (m->jfc != nullptr) {
            EXPECT_EQ(urma_delete_jfc(m->jfc), URMA_SUCCESS);
        }
        *m = Member();
    }
    urma_target_jetty_t *import(const urma_jetty_id_t &id, urma_target_type_t type,
                                urma_jetty_grp_policy_t policy = URMA_JETTY_GRP_POLICY_RR)
    {
        urma_rjetty_t r = {};
        r.jetty_id = id;
        r.trans_mode = URMA_TM_RM;
        r.type = type;
        r.policy = policy;
        r.flag.bs.token_policy = URMA_TOKEN_PLAIN_TEXT;
        urma_token_t t = {kToken};
        return urma_import_jetty(ctx_, &r, &t);
    }
    // The completions of one JFC until n arrived (or a timeout): user_ctx of each.
    std::vector<uint64_t> poll_n(urma_jfc_t *jfc, int n)
    {
        std::vector<uint64_t> got;
        ub_itest::wait_for([&] {
            urma_cr_t cr[8];
            int k = urma_poll_jfc(jfc, 8, cr);
            for (int i = 0; i < k; i++) {
                EXPECT_EQ(cr[i].status, URMA_CR_SUCCESS) << "user_ctx " << cr[i].user_ctx;
                got.push_back(cr[i].user_ctx);
            }
            return static_cast<int>(got.size()) >= n;
        });
        return got;
    }
    urma_status_t send(urma_target_jetty_t *t, uint32_t off, const char *text, uint64_t user_ctx)
    {
        std::strcpy(buf_ + off, text);
        urma_jfs_wr_flag_t f = {};
        f.bs.complete_enable = 1;
        return urma_send(jfs_, t, seg_, base_ + off, 64, f, user_ctx);
    }

    static constexpr size_t kLen = 16384;
    char *buf_ = nullptr;
    uintptr_t base_ = 0;
    urma_target_seg_t *seg_ = nullptr;
    urma_jfc_t *send_jfc_ = nullptr;
    urma_jfs_t *jfs_ = nullptr;
};

TEST_F(JettyGrpDataTest, RoundRobinOverMembers)
{
    urma_jetty_grp_cfg_t cfg = grp_cfg();
    urma_jetty_grp_t *grp = urma_create_jetty_grp(ctx_, &cfg);
    ASSERT_NE(grp, nullptr) << std::strerror(errno);
    Member m[2];
    ASSERT_TRUE(add_member(grp, &m[0])) << std::strerror(errno);
    ASSERT_TRUE(add_member(grp, &m[1])) << std::strerror(errno);
    // Two RQEs on each member's JFR, at 4096 + 1024 * (2 * member + k).
    for (int i = 0; i < 2; i++)
        for (int k = 0; k < 2; k++)
            ASSERT_EQ(urma_recv(m[i].jfr, seg_, base_ + 4096 + 1024 * (2 * i + k), 64,
                                0x100 * (i + 1) + k),
                      URMA_SUCCESS);

    // An RC group, a group import of an unknown type: EINVAL.
    urma_rjetty_t bad = {};
    bad.jetty_id = grp->jetty_grp_id;
    bad.trans_mode = URMA_TM_RC;
    bad.type = URMA_JETTY_GROUP;
    urma_token_t t = {kToken};
    errno = 0;
    EXPECT_EQ(urma_import_jetty(ctx_, &bad, &t), nullptr);
    EXPECT_EQ(errno, EINVAL);
    urma_target_jetty_t *tg = import(grp->jetty_grp_id, URMA_JETTY_GROUP);
    ASSERT_NE(tg, nullptr) << std::strerror(errno);
    EXPECT_EQ(tg->type, URMA_JETTY_GROUP);

    // Four SENDs to the group: member 0, 1, 0, 1.
    const char *text[4] = {"to the group 0", "to the group 1", "to the group 2", "to the group 3"};
    for (int n = 0; n < 4; n++)
        ASSERT_EQ(send(tg, 256 * n, text[n], 0x10 + n), URMA_SUCCESS);
    std::vector<uint64_t> sent = poll_n(send_jfc_, 4);
    EXPECT_EQ(sent.size(), 4u);
    std::vector<uint64_t> r0 = poll_n(m[0].jfc, 2), r1 = poll_n(m[1].jfc, 2);
    EXPECT_EQ(r0, (std::vector<uint64_t>{0x100, 0x101}));
    EXPECT_EQ(r1, (std::vector<uint64_t>{0x200, 0x201}));
    EXPECT_STREQ(buf_ + 4096, text[0]);
    EXPECT_STREQ(buf_ + 4096 + 1024, text[2]);
    EXPECT_STREQ(buf_ + 4096 + 2048, text[1]);
    EXPECT_STREQ(buf_ + 4096 + 3072, text[3]);

    // A member imported by its own ID receives what is sent to it.
    ASSERT_EQ(urma_recv(m[1].jfr, seg_, base_ + 8192, 64, 0x202), URMA_SUCCESS);
    urma_target_jetty_t *t1 = import(m[1].jetty->jetty_id, URMA_JETTY);
    ASSERT_NE(t1, nullptr) << std::strerror(errno);
    ASSERT_EQ(send(t1, 2048, "to member 1", 0x20), URMA_SUCCESS);
    EXPECT_EQ(poll_n(send_jfc_, 1), (std::vector<uint64_t>{0x20}));
    EXPECT_EQ(poll_n(m[1].jfc, 1), (std::vector<uint64_t>{0x202}));
    EXPECT_STREQ(buf_ + 8192, "to member 1");

    // With member 0 gone, every message goes to member 1.
    drop_member(&m[0]);
    ASSERT_EQ(urma_recv(m[1].jfr, seg_, base_ + 9216, 64, 0x203), URMA_SUCCESS);
    ASSERT_EQ(send(tg, 3072, "only member 1", 0x30), URMA_SUCCESS);
    EXPECT_EQ(poll_n(send_jfc_, 1), (std::vector<uint64_t>{0x30}));
    EXPECT_EQ(poll_n(m[1].jfc, 1), (std::vector<uint64_t>{0x203}));
    EXPECT_STREQ(buf_ + 9216, "only member 1");

    // A hint other than 0 cannot be carried.
    urma_jfs_wr_t wr = {};
    urma_sge_t sge = {base_, 64, seg_, nullptr};
    wr.opcode = URMA_OPC_SEND;
    wr.tjetty = tg;
    wr.send.src.sge = &sge;
    wr.send.src.num_sge = 1;
    wr.send.target_hint = 3;
    urma_jfs_wr_t *bad_wr = nullptr;
    EXPECT_EQ(urma_post_jfs_wr(jfs_, &wr, &bad_wr), URMA_ENOPERM);
    EXPECT_EQ(bad_wr, &wr);
    EXPECT_TRUE(logged("target_hint 3"));

    EXPECT_EQ(urma_unimport_jetty(t1), URMA_SUCCESS);
    EXPECT_EQ(urma_unimport_jetty(tg), URMA_SUCCESS);
    drop_member(&m[1]);
    EXPECT_EQ(urma_delete_jetty_grp(grp), URMA_SUCCESS);
}

// An empty group, or one whose members are not READY, takes no message:
// the sender's completion says so (REM_OPERATION, as for an unknown jetty).
TEST_F(JettyGrpDataTest, NoReadyMemberRefuses)
{
    urma_jetty_grp_cfg_t cfg = grp_cfg(URMA_JETTY_GRP_POLICY_HASH_HINT);
    urma_jetty_grp_t *grp = urma_create_jetty_grp(ctx_, &cfg);
    ASSERT_NE(grp, nullptr) << std::strerror(errno);
    urma_target_jetty_t *tg = import(grp->jetty_grp_id, URMA_JETTY_GROUP, URMA_JETTY_GRP_POLICY_HASH_HINT);
    ASSERT_NE(tg, nullptr) << std::strerror(errno);
    ASSERT_EQ(send(tg, 0, "nobody", 0x40), URMA_SUCCESS);
    urma_cr_t cr = {};
    ASSERT_TRUE(ub_itest::wait_for([&] { return urma_poll_jfc(send_jfc_, 1, &cr) == 1; }));
    EXPECT_EQ(cr.status, URMA_CR_REM_OPERATION_ERR);
    EXPECT_EQ(cr.user_ctx, 0x40u);
    EXPECT_EQ(urma_unimport_jetty(tg), URMA_SUCCESS);
    EXPECT_EQ(urma_delete_jetty_grp(grp), URMA_SUCCESS);
}

}  // namespace
