// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The UB/URMA stack authors
// Processes and the data path: a process killed with work in flight
// (WQEs posted behind an RNR wait, a bound RC jetty with its own RNR wait
// on the survivor's JFR, async events never read or acked) while the
// survivor uses its segment and JFR; and a forked child, which must not
// inherit the mapped rings.
//
// Expectations (udma_abi.h, the top of udma/target.c, udma/ucontext.c):
//  - after the kill every object of the dead process is gone (the sysfs
//    counts return to what the survivor holds); the survivor's WRITE and
//    READ of the dead segment complete with URMA_CR_REM_ACCESS_ABORT_ERR
//    and its SEND to the dead JFR with URMA_CR_REM_OPERATION_ERR, and
//    nothing is written into its memory; an RQE the survivor posts later
//    is not taken by the dead sender;
//  - ring mappings are VM_DONTCOPY: a forked child that touches one dies
//    of SIGSEGV; they cannot be made executable (EACCES); exec in the
//    child and the parent's queues are unaffected.
#include <signal.h>
#include <sys/wait.h>

#include <array>

#include "dp_extra.h"

namespace {

using ub_itest::DpOwnTest;
using ub_itest::Region;

class DpProcess : public DpOwnTest {
protected:
    void delete_senders() override
    {
        if (jetty_ != nullptr) {
            EXPECT_EQ(urma_delete_jetty(jetty_), URMA_SUCCESS);
        }
        jetty_ = nullptr;
    }
    urma_jetty_t *jetty_ = nullptr;
};

// What the child tells the parent once everything is in place.
struct ChildInfo {
    urma_seg_t seg;
    urma_jfr_id_t jfr_id;
    uint32_t ok;
};

// The kinds a dead process may leave behind.
constexpr std::array<const char *, 9> kOwnKinds = {"ucontext", "jfc",    "jfs",          "jfr",   "jetty",
                                                   "token_id", "seg",    "pinned_pages", "tjetty"};

// ctx's import of a segment (token kSegToken) and of a JFR (token
// kJfrToken), as a peer imports them.
urma_target_seg_t *peer_import_seg(urma_context_t *ctx, urma_seg_t seg)
{
    urma_token_t t = {ub_itest::kSegToken};
    urma_import_seg_flag_t f = {};
    f.bs.access = ub_itest::kAllAccess;
    f.bs.mapping = URMA_SEG_NOMAP;
    return urma_import_seg(ctx, &seg, &t, 0, f);
}

urma_target_jetty_t *peer_import_jfr(urma_context_t *ctx, urma_jfr_id_t id)
{
    urma_rjfr_t rj = {};
    rj.jfr_id = id;
    rj.trans_mode = URMA_TM_RM;
    rj.flag.bs.token_policy = URMA_TOKEN_PLAIN_TEXT;
    urma_token_t t = {ub_itest::kJfrToken};
    return urma_import_jfr(ctx, &rj, &t);
}

// In a child: len bytes of fill mapped (*addr) and registered on ctx with
// every access right; nullptr if either fails.
urma_target_seg_t *child_seg(urma_context_t *ctx, size_t len, int fill, void **addr)
{
    void *p = mmap(nullptr, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        return nullptr;
    std::memset(p, fill, len);
    *addr = p;
    urma_seg_cfg_t gc = ub_itest::seg_cfg(p, len, ub_itest::kAllAccess);
    return urma_register_seg(ctx, &gc);
}

// The child of ChildKilledWithWorkInFlight; never returns.
[[noreturn]] void child_main(int wfd, urma_jetty_id_t parent_jetty)
{
    ChildInfo info = {};
    urma_context_t *ctx = ub_itest::open_ctx();
    if (ctx == nullptr)
        _exit(10);
    urma_jfc_cfg_t cc = ub_itest::jfc_cfg(64);
    urma_jfc_t *jfc = urma_create_jfc(ctx, &cc);
    urma_jfs_cfg_t sc = ub_itest::jfs_cfg(jfc, 64);
    sc.rnr_retry = 7;
    urma_jfs_t *jfs = urma_create_jfs(ctx, &sc);
    urma_jfr_cfg_t rc = ub_itest::jfr_cfg(jfc, 16);
    urma_jfr_t *jfr = urma_create_jfr(ctx, &rc);
    if (jfc == nullptr || jfs == nullptr || jfr == nullptr)
        _exit(11);
    urma_target_jetty_t *tjfr = peer_import_jfr(ctx, jfr->jfr_id);

    if (tjfr == nullptr)
        _exit(12);
    void *p = nullptr;
    urma_target_seg_t *seg = child_seg(ctx, 16384, 0x77, &p);
    if (seg == nullptr)
        _exit(13);
    urma_target_seg_t *iseg = peer_import_seg(ctx, seg->seg);
    if (iseg == nullptr)
        _exit(14);

    // An RC jetty bound to the parent's jetty; its SEND waits for an RQE
    // on the parent's JFR (RNR).
    urma_jetty_cfg_t jc = ub_itest::jetty_cfg_shared(jfc, jfr);
    jc.jfs_cfg.trans_mode = URMA_TM_RC;
    jc.jfs_cfg.rnr_retry = 7;
    urma_jetty_t *jetty = urma_create_jetty(ctx, &jc);
    urma_rjetty_t rje = {};
    rje.jetty_id = parent_jetty;
    rje.trans_mode = URMA_TM_RC;
    rje.type = URMA_JETTY;
    rje.flag.bs.token_policy = URMA_TOKEN_PLAIN_TEXT;
    urma_token_t tok = {ub_itest::kJfrToken};
    urma_target_jetty_t *tpar = jetty != nullptr ? urma_import_jetty(ctx, &rje, &tok) : nullptr;
    if (tpar == nullptr || urma_bind_jetty(jetty, tpar) != URMA_SUCCESS)
        _exit(15);
    urma_sge_t s = {reinterpret_cast<uintptr_t>(p), 128, seg, nullptr};
    urma_jfs_wr_t wr = {};
    wr.opcode = URMA_OPC_SEND;
    wr.flag.bs.complete_enable = 1;
    wr.send.src = {&s, 1};
    urma_jfs_wr_t *bad = nullptr;
    if (urma_post_jetty_send_wr(jetty, &wr, &bad) != URMA_SUCCESS)
        _exit(16);

    // The JFS: a SEND to its own JFR, which has no RQE (RNR), and WRITEs
    // queued behind it.
    if (urma_send(jfs, tjfr, seg, reinterpret_cast<uintptr_t>(p), 64, wr.flag, 1) != URMA_SUCCESS)
        _exit(17);
    for (uint64_t i = 0; i < 16; i++) {
        uint64_t a = reinterpret_cast<uintptr_t>(p) + 4096 + 64 * i;
        if (urma_write(jfs, tjfr, iseg, seg, a + 2048, a, 64, wr.flag, 2 + i) != URMA_SUCCESS)
            _exit(18);
    }

    // Async events nobody reads: a JFC too small for its JFS.
    urma_jfc_cfg_t small = ub_itest::jfc_cfg(2);
    urma_jfc_t *sjfc = urma_create_jfc(ctx, &small);
    urma_jfs_t *sjfs = sjfc != nullptr ? urma_create_jfs(ctx, &(sc = ub_itest::jfs_cfg(sjfc, 16))) : nullptr;
    if (sjfs == nullptr)
        _exit(19);
    auto nops = ub_itest::nop_chain(8, 0);
    if (urma_post_jfs_wr(sjfs, nops.data(), &bad) != URMA_SUCCESS)
        _exit(20);
    struct pollfd pfd = {ctx->async_fd, POLLIN, 0};
    if (poll(&pfd, 1, 10000) != 1)
        _exit(21);

    info.seg = seg->seg;
    info.jfr_id = jfr->jfr_id;
    info.ok = 1;
    if (write(wfd, &info, sizeof(info)) != static_cast<ssize_t>(sizeof(info)))
        _exit(22);
    for (;;)
        pause();
}

TEST_F(DpProcess, ChildKilledWithWorkInFlight)
{
    urma_jetty_cfg_t jc = ub_itest::jetty_cfg_shared(scq_, jfr_);
    jc.jfs_cfg.trans_mode = URMA_TM_RC;
    urma_jetty_t *jetty = jetty_ = urma_create_jetty(ctx_, &jc);
    ASSERT_NE(jetty, nullptr);
    Region &mine = region(16384);
    Region &src = region(4096);
    ASSERT_NE(src.reg, nullptr);
    std::array<long, kOwnKinds.size()> before;
    for (size_t i = 0; i < kOwnKinds.size(); i++)
        before[i] = ub_itest::obj_count(kOwnKinds[i]);
    const long tseg_before = ub_itest::obj_count("target_seg");
    const long tjfr_before = ub_itest::obj_count("tjfr");
    const volatile uint32_t *wanted = &ub_itest::rq_ring(jfr_).ctrl()->db_wanted;

    int fds[2];
    ASSERT_EQ(pipe(fds), 0);
    pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
        close(fds[0]);
        child_main(fds[1], jetty->jetty_id);
    }
    close(fds[1]);
    ChildInfo info = {};
    struct pollfd pfd = {fds[0], POLLIN, 0};
    ASSERT_EQ(poll(&pfd, 1, 30000), 1) << "the child did not report";
    ssize_t n = read(fds[0], &info, sizeof(info));
    close(fds[0]);
    if (n != static_cast<ssize_t>(sizeof(info))) {
        int st = 0;
        kill(pid, SIGKILL);
        waitpid(pid, &st, 0);
        FAIL() << "child failed, exit status " << (WIFEXITED(st) ? WEXITSTATUS(st) : -1);
    }
    ASSERT_EQ(info.ok, 1u);
    // The child's RC SEND waits for an RQE on our JFR.
    EXPECT_TRUE(ub_itest::wait_for([&] { return *wanted == 1u; }, 5000));

    // We use the child's segment and JFR while it lives.
    urma_target_seg_t *theirs = peer_import_seg(ctx_, info.seg);
    ASSERT_NE(theirs, nullptr);
    urma_target_jetty_t *their_jfr = peer_import_jfr(ctx_, info.jfr_id);
    ASSERT_NE(their_jfr, nullptr);
    const uint64_t tva = info.seg.ubva.va;
    std::memset(mine.buf, 0xee, 16384);
    ASSERT_EQ(urma_read(jfs_, their_jfr, mine.reg, theirs, mine.va(), tva, 256, signaled(), 1), URMA_SUCCESS);
    urma_cr_t c = wait_cr(scq_);
    EXPECT_EQ(c.status, URMA_CR_SUCCESS);
    EXPECT_EQ(ub_itest::first_not(mine.buf, 256, 0x77), 256u);

    ASSERT_EQ(kill(pid, SIGKILL), 0);
    int st = 0;
    ASSERT_EQ(waitpid(pid, &st, 0), pid);
    EXPECT_TRUE(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL);

    // Everything of the child goes; our imports stay.
    auto back = [&] {
        for (size_t i = 0; i < kOwnKinds.size(); i++)
            if (ub_itest::obj_count(kOwnKinds[i]) != before[i])
                return false;
        return true;
    };
    EXPECT_TRUE(ub_itest::wait_for(back, 10000)) << ub_itest::counts();
    EXPECT_EQ(ub_itest::obj_count("target_seg"), tseg_before + 1);
    EXPECT_EQ(ub_itest::obj_count("tjfr"), tjfr_before + 1);

    // Errors, not crashes, and nothing written into our memory.
    std::memset(mine.buf, 0xee, 16384);
    ASSERT_EQ(urma_read(jfs_, their_jfr, mine.reg, theirs, mine.va(), tva, 256, signaled(), 2), URMA_SUCCESS);
    c = wait_cr(scq_);
    EXPECT_EQ(c.status, URMA_CR_REM_ACCESS_ABORT_ERR);
    EXPECT_EQ(c.user_ctx, 2u);
    ASSERT_EQ(urma_write(jfs_, their_jfr, theirs, mine.reg, tva, mine.va(), 256, signaled(), 3), URMA_SUCCESS);
    c = wait_cr(scq_);
    EXPECT_EQ(c.status, URMA_CR_REM_ACCESS_ABORT_ERR);
    EXPECT_EQ(c.user_ctx, 3u);
    ASSERT_EQ(urma_send(jfs_, their_jfr, mine.reg, mine.va(), 64, signaled(), 4), URMA_SUCCESS);
    c = wait_cr(scq_);
    EXPECT_EQ(c.status, URMA_CR_REM_OPERATION_ERR);
    EXPECT_EQ(c.user_ctx, 4u);
    EXPECT_EQ(ub_itest::first_not(mine.buf, 16384, 0xee), 16384u);

    // The dead RC sender does not take the RQE we post now.
    ASSERT_EQ(recv(mine, 8192, 4096, 50), URMA_SUCCESS);
    EXPECT_TRUE(stays_empty(rcq_, 300));
    EXPECT_EQ(ub_itest::first_not(mine.buf, 16384, 0xee), 16384u);
    std::memset(src.buf, 0x42, 4096);
    ASSERT_EQ(urma_send(jfs_, tjfr_, src.reg, src.va(), 100, signaled(), 5), URMA_SUCCESS);
    EXPECT_EQ(wait_cr(scq_).status, URMA_CR_SUCCESS);
    urma_cr_t r = wait_cr(rcq_);
    EXPECT_EQ(r.status, URMA_CR_SUCCESS);
    EXPECT_EQ(r.user_ctx, 50u);
    EXPECT_EQ(r.remote_id.id, jfs_->jfs_id.id);
    EXPECT_EQ(ub_itest::first_not(mine.buf + 8192, 100, 0x42), 100u);

    EXPECT_EQ(urma_unimport_jfr(their_jfr), URMA_SUCCESS);
    EXPECT_EQ(urma_unimport_seg(theirs), URMA_SUCCESS);
    delete_senders();
    EXPECT_EQ(ub_itest::obj_count("target_seg"), tseg_before);
    EXPECT_EQ(ub_itest::obj_count("tjfr"), tjfr_before);
}

// The other way round: a child imports our segment and writes into it in
// a loop; it is killed mid-stream. Our segment unregisters at once, and
// nothing of the child stays.
TEST_F(DpProcess, PeerKilledWhileWritingOurSegment)
{
    Region &mine = region(65536);
    ASSERT_NE(mine.reg, nullptr);
    std::memset(mine.buf, 0, 65536);
    std::array<long, kOwnKinds.size()> before;
    for (size_t i = 0; i < kOwnKinds.size(); i++)
        before[i] = ub_itest::obj_count(kOwnKinds[i]);
    const long tseg_before = ub_itest::obj_count("target_seg");
    const urma_seg_t seg = mine.reg->seg;
    const urma_jfr_id_t jfr_id = jfr_->jfr_id;

    int fds[2];
    ASSERT_EQ(pipe(fds), 0);
    pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
        close(fds[0]);
        urma_context_t *ctx = ub_itest::open_ctx();
        urma_jfc_cfg_t cc = ub_itest::jfc_cfg(256);
        urma_jfc_t *jfc = ctx != nullptr ? urma_create_jfc(ctx, &cc) : nullptr;
        urma_jfs_cfg_t sc = ub_itest::jfs_cfg(jfc, 64);
        urma_jfs_t *jfs = jfc != nullptr ? urma_create_jfs(ctx, &sc) : nullptr;
        if (jfs == nullptr)
            _exit(10);
        void *p = nullptr;
        urma_target_seg_t *src = child_seg(ctx, 65536, 0x99, &p);
        urma_target_seg_t *dst = peer_import_seg(ctx, seg);
        urma_target_jetty_t *tjfr = peer_import_jfr(ctx, jfr_id);
        if (src == nullptr || dst == nullptr || tjfr == nullptr)
            _exit(11);
        urma_jfs_wr_flag_t fl = {};
        fl.bs.complete_enable = 1;
        bool told = false;
        for (uint64_t i = 0;; i++) {
            if (urma_write(jfs, tjfr, dst, src, seg.ubva.va, reinterpret_cast<uintptr_t>(p), 65536, fl, i) !=
                URMA_SUCCESS)
                _exit(12);
            urma_cr_t cr;
            int n;
            while ((n = urma_poll_jfc(jfc, 1, &cr)) == 0)
                ;
            if (n != 1 || cr.status != URMA_CR_SUCCESS)
                _exit(13);
            if (!told) {
                char b = 1;
                if (write(fds[1], &b, 1) != 1)
                    _exit(14);
                told = true;
            }
        }
    }
    close(fds[1]);
    struct pollfd pfd = {fds[0], POLLIN, 0};
    ASSERT_EQ(poll(&pfd, 1, 30000), 1) << "the child did not report";
    char b = 0;
    EXPECT_EQ(read(fds[0], &b, 1), 1);
    close(fds[0]);
    usleep(50 * 1000);
    ASSERT_EQ(kill(pid, SIGKILL), 0);
    int st = 0;
    ASSERT_EQ(waitpid(pid, &st, 0), pid);
    EXPECT_TRUE(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL) << "status " << st;
    EXPECT_EQ(ub_itest::first_not(mine.buf, 65536, 0x99), 65536u);

    auto back = [&] {
        for (size_t i = 0; i < kOwnKinds.size(); i++)
            if (ub_itest::obj_count(kOwnKinds[i]) != before[i])
                return false;
        return ub_itest::obj_count("target_seg") == tseg_before && ub_itest::obj_count("tjfr") == 1;
    };
    EXPECT_TRUE(ub_itest::wait_for(back, 10000)) << ub_itest::counts();
    const long segs = ub_itest::obj_count("seg");
    const uint64_t t0 = ub_itest::now_ms();
    drop(mine);
    EXPECT_LT(ub_itest::now_ms() - t0, 2000u);
    EXPECT_EQ(ub_itest::obj_count("seg"), segs - 1);
}

// Runs fn in a forked child; its wait status.
template <typename Fn> int in_child(Fn fn)
{
    pid_t pid = fork();
    if (pid == 0) {
        fn();
        _exit(0);
    }
    int st = -1;
    if (pid < 0 || waitpid(pid, &st, 0) != pid)
        return -1;
    return st;
}

TEST_F(DpProcess, ForkedChildDoesNotInheritRings)
{
    urma::RingMapping &sq = ub_itest::sq_ring(jfs_);
    urma::RingMapping &cq = ub_itest::cq_ring(scq_);
    urma::RingMapping &rq = ub_itest::rq_ring(jfr_);
    volatile uint32_t *sq_pi = &sq.ctrl()->pi;
    volatile uint8_t *cqe = static_cast<volatile uint8_t *>(cq.entry(0));
    volatile uint32_t *rq_pi = &rq.ctrl()->pi;

    int st = in_child([&] { (void)*sq_pi; });
    EXPECT_TRUE(WIFSIGNALED(st) && WTERMSIG(st) == SIGSEGV) << "status " << st;
    st = in_child([&] { *cqe = 1; });
    EXPECT_TRUE(WIFSIGNALED(st) && WTERMSIG(st) == SIGSEGV) << "status " << st;
    st = in_child([&] { *rq_pi = 100; });
    EXPECT_TRUE(WIFSIGNALED(st) && WTERMSIG(st) == SIGSEGV) << "status " << st;
    st = in_child([] { execl("/bin/true", "true", static_cast<char *>(nullptr)); });
    EXPECT_TRUE(WIFEXITED(st) && WEXITSTATUS(st) == 0) << "status " << st;

    // Never executable.
    errno = 0;
    EXPECT_EQ(mprotect(sq.addr(), sq.len(), PROT_READ | PROT_EXEC), -1);
    EXPECT_EQ(errno, EACCES);

    // The parent's queues work as before.
    EXPECT_EQ(rq.ctrl()->pi, 0u);
    Region &src = region(4096);
    Region &dst = region(4096);
    ASSERT_NE(dst.imp, nullptr);
    ub_itest::fill(src.buf, 4096, 9);
    ASSERT_EQ(recv(dst, 0, 4096, 7), URMA_SUCCESS);
    ASSERT_EQ(urma_send(jfs_, tjfr_, src.reg, src.va(), 4096, signaled(), 8), URMA_SUCCESS);
    urma_cr_t c = wait_cr(scq_);
    EXPECT_EQ(c.status, URMA_CR_SUCCESS);
    EXPECT_EQ(c.user_ctx, 8u);
    EXPECT_EQ(wait_cr(rcq_).user_ctx, 7u);
    EXPECT_EQ(std::memcmp(dst.buf, src.buf, 4096), 0);
}

}  // namespace
