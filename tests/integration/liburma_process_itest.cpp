// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The UB/URMA stack authors
// liburma objects and processes: a killed process leaves nothing behind,
// the device can be removed under a process's objects, RLIMIT_MEMLOCK
// bounds registration, and many threads share one context.
#include <gtest/gtest.h>

#include <linux/capability.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "stack.h"
#include "urma_api.h"
#include "urma_itest.h"

namespace {

using ub_itest::obj_count;

constexpr size_t k64M = 64ul << 20;

class ProcessTest : public ub_itest::StackTest {
protected:
    void SetUp() override { ASSERT_TRUE(ub_itest::all_counts_zero()) << ub_itest::counts(); }
};

// One of each object in ctx, and a registered segment of seg_len bytes;
// false at the first failure.
struct Objects {
    urma_jfce_t *jfce = nullptr;
    urma_jfc_t *jfc = nullptr;
    urma_jfs_t *jfs = nullptr;
    urma_jfr_t *jfr = nullptr;
    urma_jetty_t *jetty = nullptr;
    urma_token_id_t *tid = nullptr;
    urma_target_seg_t *seg = nullptr;
    urma_target_seg_t *tseg = nullptr;
    urma_target_jetty_t *tjfr = nullptr;
    urma_target_jetty_t *tjetty = nullptr;
    void *buf = nullptr;
    size_t len = 0;

    bool create(urma_context_t *ctx, size_t seg_len)
    {
        jfce = urma_create_jfce(ctx);
        urma_jfc_cfg_t cc = ub_itest::jfc_cfg(64, jfce);
        jfc = jfce != nullptr ? urma_create_jfc(ctx, &cc) : nullptr;
        if (jfc == nullptr)
            return false;
        urma_jfs_cfg_t sc = ub_itest::jfs_cfg(jfc);
        urma_jfr_cfg_t rc = ub_itest::jfr_cfg(jfc);
        jfs = urma_create_jfs(ctx, &sc);
        jfr = urma_create_jfr(ctx, &rc);
        if (jfs == nullptr || jfr == nullptr)
            return false;
        urma_jetty_cfg_t jc = ub_itest::jetty_cfg_shared(jfc, jfr);
        jetty = urma_create_jetty(ctx, &jc);
        tid = urma_alloc_token_id(ctx);
        len = seg_len;
        buf = mmap(nullptr, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (jetty == nullptr || tid == nullptr || buf == MAP_FAILED)
            return false;
        std::memset(buf, 1, len);  // fault the pages in
        urma_seg_cfg_t sg = ub_itest::seg_cfg(buf, len);
        seg = urma_register_seg(ctx, &sg);
        if (seg == nullptr)
            return false;
        urma_token_t tok = {0x5eed};
        urma_import_seg_flag_t f = {};
        tseg = urma_import_seg(ctx, &seg->seg, &tok, 0, f);
        // The imports open an RM TP: the target checks the JFR's token.
        urma_token_t jfr_tok = {0xabcd};  // ub_itest::jfr_cfg's
        urma_rjfr_t rj = {};
        rj.jfr_id = jfr->jfr_id;
        rj.trans_mode = URMA_TM_RM;
        tjfr = urma_import_jfr(ctx, &rj, &jfr_tok);
        urma_rjetty_t rje = {};
        rje.jetty_id = jetty->jetty_id;
        rje.trans_mode = URMA_TM_RM;
        rje.type = URMA_JETTY;
        tjetty = urma_import_jetty(ctx, &rje, &jfr_tok);
        return tseg != nullptr && tjfr != nullptr && tjetty != nullptr;
    }

    // Deletes in dependency order; returns how many deletes failed.
    int destroy()
    {
        int bad = 0;
        bad += tjetty != nullptr && urma_unimport_jetty(tjetty) != URMA_SUCCESS;
        bad += tjfr != nullptr && urma_unimport_jfr(tjfr) != URMA_SUCCESS;
        bad += tseg != nullptr && urma_unimport_seg(tseg) != URMA_SUCCESS;
        bad += seg != nullptr && urma_unregister_seg(seg) != URMA_SUCCESS;
        bad += tid != nullptr && urma_free_token_id(tid) != URMA_SUCCESS;
        bad += jetty != nullptr && urma_delete_jetty(jetty) != URMA_SUCCESS;
        bad += jfr != nullptr && urma_delete_jfr(jfr) != URMA_SUCCESS;
        bad += jfs != nullptr && urma_delete_jfs(jfs) != URMA_SUCCESS;
        bad += jfc != nullptr && urma_delete_jfc(jfc) != URMA_SUCCESS;
        bad += jfce != nullptr && urma_delete_jfce(jfce) != URMA_SUCCESS;
        if (buf != nullptr && buf != MAP_FAILED)
            munmap(buf, len);
        *this = Objects();
        return bad;
    }
};

// Child side of a fork: exits with the first failing step's number.
[[noreturn]] void child_exit(int code)
{
    _exit(code);
}

// Forks a child running fn(pipe write end); the parent gets the pid and the
// read end, which yields one byte when the child is ready.
template <typename Fn> pid_t fork_child(int *ready_fd, int *go_fd, Fn fn)
{
    int ready[2] = {-1, -1}, go[2] = {-1, -1};
    if (pipe(ready) != 0 || pipe(go) != 0)
        return -1;
    pid_t pid = fork();
    if (pid == 0) {
        close(ready[0]);
        close(go[1]);
        fn(ready[1], go[0]);
        _exit(0);
    }
    close(ready[1]);
    close(go[0]);
    *ready_fd = ready[0];
    *go_fd = go[1];
    return pid;
}

bool wait_ready(int fd)
{
    char c;
    return read(fd, &c, 1) == 1 && c == 'R';
}

// A process killed with SIGKILL holding a context, one of each object and a
// 64 MiB segment: the kernel frees everything and unpins every page.
TEST_F(ProcessTest, KilledProcessLeavesNothing)
{
    int ready = -1, go = -1;
    pid_t pid = fork_child(&ready, &go, [](int r, int g) {
        if (urma_init(nullptr) != URMA_SUCCESS)
            child_exit(10);
        urma_context_t *ctx = ub_itest::open_ctx();
        if (ctx == nullptr)
            child_exit(11);
        Objects o;
        if (!o.create(ctx, k64M))
            child_exit(12);
        if (write(r, "R", 1) != 1)
            child_exit(13);
        char c;
        (void)!read(g, &c, 1);  // wait for the kill
        child_exit(14);
    });
    ASSERT_GT(pid, 0);
    ASSERT_TRUE(wait_ready(ready)) << "child failed to set up";
    EXPECT_EQ(obj_count("ucontext"), 1);
    EXPECT_EQ(obj_count("jfc"), 1);
    EXPECT_EQ(obj_count("jfs"), 1);
    EXPECT_EQ(obj_count("jfr"), 1);
    EXPECT_EQ(obj_count("jetty"), 1);
    EXPECT_EQ(obj_count("seg"), 1);
    EXPECT_EQ(obj_count("target_seg"), 1);
    EXPECT_EQ(obj_count("tjfr"), 1);
    EXPECT_EQ(obj_count("tjetty"), 1);
    EXPECT_GE(obj_count("pinned_pages"), static_cast<long>(k64M / sysconf(_SC_PAGESIZE)));

    ASSERT_EQ(kill(pid, SIGKILL), 0);
    int status = 0;
    ASSERT_EQ(waitpid(pid, &status, 0), pid);
    EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
    close(ready);
    close(go);
    EXPECT_TRUE(ub_itest::wait_for([] { return ub_itest::all_counts_zero(); }, 5000)) << ub_itest::counts();
}

// rmmod udma while a process holds a context with objects: the unload
// completes, the process's later calls fail cleanly (creates: NULL with
// EIO; deletes free the library's side since the kernel already did), and
// the counts go with the device.
TEST_F(ProcessTest, DeviceRemovedUnderObjects)
{
    int ready = -1, go = -1;
    pid_t pid = fork_child(&ready, &go, [](int r, int g) {
        if (urma_init(nullptr) != URMA_SUCCESS)
            child_exit(10);
        urma_context_t *ctx = ub_itest::open_ctx();
        if (ctx == nullptr)
            child_exit(11);
        Objects o;
        if (!o.create(ctx, 1 << 20))
            child_exit(12);
        if (write(r, "R", 1) != 1)
            child_exit(13);
        char c;
        if (read(g, &c, 1) != 1)
            child_exit(14);
        // The device is gone now.
        urma_jfc_cfg_t cc = ub_itest::jfc_cfg();
        errno = 0;
        if (urma_create_jfc(ctx, &cc) != nullptr || errno != EIO)
            child_exit(20);
        urma_jfs_cfg_t q;
        urma_jfs_attr_t qa;
        if (urma_query_jfs(o.jfs, &q, &qa) == URMA_SUCCESS)
            child_exit(21);
        urma_jfc_attr_t a = {};
        a.mask = JFC_MODERATE_COUNT;
        if (urma_modify_jfc(o.jfc, &a) == URMA_SUCCESS)
            child_exit(22);
        if (o.destroy() != 0)
            child_exit(23);
        if (urma_delete_context(ctx) != URMA_SUCCESS)
            child_exit(24);
        child_exit(0);
    });
    ASSERT_GT(pid, 0);
    ASSERT_TRUE(wait_ready(ready)) << "child failed to set up";
    EXPECT_EQ(obj_count("jetty"), 1);

    // The unload must not wait for the process.
    auto start = std::chrono::steady_clock::now();
    EXPECT_EQ(ub_itest::run("timeout 30 rmmod udma"), 0);
    EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(20));
    EXPECT_FALSE(ub_itest::module_loaded("udma"));
    EXPECT_EQ(obj_count("jfc"), -1);  // the device and its counts are gone

    ASSERT_EQ(write(go, "G", 1), 1);
    int status = 0;
    ASSERT_EQ(waitpid(pid, &status, 0), pid);
    EXPECT_TRUE(WIFEXITED(status)) << "child crashed: signal " << WTERMSIG(status);
    EXPECT_EQ(WEXITSTATUS(status), 0) << "child failed at step " << WEXITSTATUS(status);
    close(ready);
    close(go);

    std::string kmod = std::getenv("UB_KMOD") != nullptr ? std::getenv("UB_KMOD") : "";
    ASSERT_EQ(ub_itest::run("insmod " + kmod + "/udma/udma.ko netdev=lo"), 0);
    ASSERT_TRUE(ub_itest::wait_udma_ready());
    EXPECT_TRUE(ub_itest::all_counts_zero()) << ub_itest::counts();
}

// Drops CAP_IPC_LOCK from the calling process (root in the guest would
// otherwise be exempt from RLIMIT_MEMLOCK).
bool drop_ipc_lock()
{
    struct __user_cap_header_struct hdr = {};
    struct __user_cap_data_struct data[2] = {};

    hdr.version = _LINUX_CAPABILITY_VERSION_3;
    hdr.pid = 0;
    if (syscall(SYS_capget, &hdr, data) != 0)
        return false;
    const uint32_t bit = 1u << (CAP_IPC_LOCK % 32);
    data[CAP_IPC_LOCK / 32].effective &= ~bit;
    data[CAP_IPC_LOCK / 32].permitted &= ~bit;
    data[CAP_IPC_LOCK / 32].inheritable &= ~bit;
    return syscall(SYS_capset, &hdr, data) == 0;
}

// With RLIMIT_MEMLOCK at 1 MiB and no CAP_IPC_LOCK, registering 64 MiB fails
// cleanly with ENOMEM and pins nothing; 512 KiB still works.
TEST_F(ProcessTest, MemlockLimitBoundsRegistration)
{
    int ready = -1, go = -1;
    pid_t pid = fork_child(&ready, &go, [](int r, int) {
        struct rlimit rl = {1 << 20, 1 << 20};
        if (setrlimit(RLIMIT_MEMLOCK, &rl) != 0)
            child_exit(10);
        if (!drop_ipc_lock())
            child_exit(11);
        if (urma_init(nullptr) != URMA_SUCCESS)
            child_exit(12);
        urma_context_t *ctx = ub_itest::open_ctx();
        if (ctx == nullptr)
            child_exit(13);
        void *big = mmap(nullptr, k64M, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (big == MAP_FAILED)
            child_exit(14);
        std::memset(big, 1, k64M);
        urma_seg_cfg_t cfg = ub_itest::seg_cfg(big, k64M);
        errno = 0;
        if (urma_register_seg(ctx, &cfg) != nullptr)
            child_exit(20);
        if (errno != ENOMEM)
            child_exit(21);
        if (obj_count("seg") != 0 || obj_count("pinned_pages") != 0 || obj_count("token_id") != 0)
            child_exit(22);
        cfg = ub_itest::seg_cfg(big, 512 << 10);
        urma_target_seg_t *seg = urma_register_seg(ctx, &cfg);
        if (seg == nullptr)
            child_exit(23);
        if (obj_count("pinned_pages") != (512 << 10) / sysconf(_SC_PAGESIZE))
            child_exit(24);
        if (urma_unregister_seg(seg) != URMA_SUCCESS)
            child_exit(25);
        if (urma_delete_context(ctx) != URMA_SUCCESS)
            child_exit(26);
        (void)!write(r, "R", 1);
        child_exit(0);
    });
    ASSERT_GT(pid, 0);
    int status = 0;
    ASSERT_EQ(waitpid(pid, &status, 0), pid);
    close(ready);
    close(go);
    ASSERT_TRUE(WIFEXITED(status)) << "child died: signal " << WTERMSIG(status);
    EXPECT_EQ(WEXITSTATUS(status), 0) << "child failed at step " << WEXITSTATUS(status);
    EXPECT_TRUE(ub_itest::wait_for([] { return ub_itest::all_counts_zero(); }, 3000)) << ub_itest::counts();
}

// 8 threads create and destroy JFCs, JFSs, JFRs, jetties and segments in
// one context for UB_STRESS_SECONDS (default 10 in make check, 300 in make
// check-long): every call succeeds and nothing is left.
TEST_F(ProcessTest, ThreadsShareAContext)
{
    const char *env = std::getenv("UB_STRESS_SECONDS");
    const int seconds = env != nullptr && std::atoi(env) > 0 ? std::atoi(env) : ub_itest::check_long() ? 300 : 10;
    ASSERT_EQ(urma_init(nullptr), URMA_SUCCESS);
    urma_context_t *ctx = ub_itest::open_ctx();
    ASSERT_NE(ctx, nullptr);

    std::atomic<bool> stop{false};
    std::atomic<long> rounds{0};
    std::atomic<int> failures{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < 8; t++) {
        threads.emplace_back([&, t] {
            const size_t len = (t + 1) * 4096;
            void *buf = std::aligned_alloc(4096, len);
            while (!stop) {
                urma_jfc_cfg_t cc = ub_itest::jfc_cfg(16 + t);
                urma_jfc_t *jfc = urma_create_jfc(ctx, &cc);
                if (jfc == nullptr) {
                    failures++;
                    continue;
                }
                urma_jfs_cfg_t sc = ub_itest::jfs_cfg(jfc, 8);
                urma_jfr_cfg_t rc = ub_itest::jfr_cfg(jfc, 8);
                urma_jfs_t *jfs = urma_create_jfs(ctx, &sc);
                urma_jfr_t *jfr = urma_create_jfr(ctx, &rc);
                urma_jetty_t *jetty = nullptr;
                if (jfr != nullptr) {
                    urma_jetty_cfg_t jc = ub_itest::jetty_cfg_shared(jfc, jfr);
                    jetty = urma_create_jetty(ctx, &jc);
                }
                urma_seg_cfg_t sg = ub_itest::seg_cfg(buf, len);
                urma_target_seg_t *seg = urma_register_seg(ctx, &sg);
                failures += (jfs == nullptr) + (jfr == nullptr) + (jetty == nullptr) + (seg == nullptr);
                if (seg != nullptr && urma_unregister_seg(seg) != URMA_SUCCESS)
                    failures++;
                if (jetty != nullptr && urma_delete_jetty(jetty) != URMA_SUCCESS)
                    failures++;
                if (jfr != nullptr && urma_delete_jfr(jfr) != URMA_SUCCESS)
                    failures++;
                if (jfs != nullptr && urma_delete_jfs(jfs) != URMA_SUCCESS)
                    failures++;
                if (urma_delete_jfc(jfc) != URMA_SUCCESS)
                    failures++;
                rounds++;
            }
            std::free(buf);
        });
    }
    std::this_thread::sleep_for(std::chrono::seconds(seconds));
    stop = true;
    for (auto &th : threads)
        th.join();
    EXPECT_EQ(failures.load(), 0);
    EXPECT_GT(rounds.load(), 8);
    for (const char *k : {"jfc", "jfs", "jfr", "jetty", "seg", "token_id", "pinned_pages"})
        EXPECT_EQ(obj_count(k), 0) << k;
    EXPECT_EQ(urma_delete_context(ctx), URMA_SUCCESS);
    EXPECT_EQ(urma_uninit(), URMA_SUCCESS);
    EXPECT_TRUE(ub_itest::wait_for([] { return ub_itest::all_counts_zero(); }, 3000)) << ub_itest::counts();
}

}  // namespace
