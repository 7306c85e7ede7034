// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The UB/URMA stack authors
// A create command whose result cannot be copied back to the caller
// (uburma_ioctl.h: the kernel writes back args_len bytes of the argument
// struct) fails with EFAULT and leaves nothing behind: no object, no
// handle, no file descriptor, no context. The argument struct is on a
// read-only page: the kernel reads it, does the work, and then cannot
// write the handle (or fd) back; the caller would never learn of an object
// kept. Found by the fault-injection sweep (fail_usercopy on the copy-out).
// A destroy that names only a handle writes nothing back, so it succeeds
// with its argument struct on a read-only page; a delete whose event
// counts cannot be written back fails with EFAULT, the object deleted.
#include <gtest/gtest.h>

#include <dirent.h>
#include <fcntl.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>

#include <ub/udma_abi.h>
#include <ub/uburma_ioctl.h>

#include "stack.h"
#include "ub_raw_cmd.h"
#include "urma_itest.h"

namespace {

using ub_itest::obj_count;

constexpr size_t kPage = 4096;

int ub_cmd(int fd, uint32_t command, void *args, uint32_t len)
{
    uburma_cmd_hdr hdr = {};
    hdr.command = command;
    hdr.args_len = len;
    hdr.args_addr = reinterpret_cast<uintptr_t>(args);
    return ioctl(fd, UBURMA_CMD, &hdr) == 0 ? 0 : -errno;
}

int open_fds()
{
    int n = 0;
    DIR *d = opendir("/proc/self/fd");
    if (d == nullptr)
        return -1;
    while (struct dirent *e = readdir(d))
        if (e->d_name[0] != '.')
            n++;
    closedir(d);
    return n;
}

class CopyOutTest : public ub_itest::StackTest {
protected:
    void SetUp() override
    {
        ASSERT_TRUE(ub_itest::all_counts_zero()) << ub_itest::counts();
        page_ = mmap(nullptr, kPage, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        ASSERT_NE(page_, MAP_FAILED);
        buf_ = static_cast<uint8_t *>(mmap(nullptr, 4 * kPage, PROT_READ | PROT_WRITE,
                                           MAP_PRIVATE | MAP_ANONYMOUS, -1, 0));
        ASSERT_NE(buf_, MAP_FAILED);
        std::memset(buf_, 1, 4 * kPage);
        fd_ = open("/dev/uburma/udma0", O_RDWR | O_CLOEXEC);
        ASSERT_GE(fd_, 0) << std::strerror(errno);
        uburma_eid_info eids[4] = {};
        uburma_cmd_get_eid_list el = {};
        el.in.max_cnt = 4;
        el.in.eids_addr = reinterpret_cast<uintptr_t>(eids);
        ASSERT_EQ(ub_cmd(fd_, UBURMA_CMD_GET_EID_LIST, &el, sizeof(el)), 0);
        ASSERT_GT(el.out.cnt, 0u);
        eid_ = eids[0];
    }

    void TearDown() override
    {
        if (fd_ >= 0)
            close(fd_);
        if (async_fd_ >= 0)
            close(async_fd_);
        munmap(page_, kPage);
        munmap(buf_, 4 * kPage);
        EXPECT_TRUE(ub_itest::wait_for([] { return ub_itest::all_counts_zero(); }, 3000))
            << ub_itest::counts();
    }

    void create_ctx()
    {
        uburma_cmd_create_ctx c = {};
        c.in.eid_index = eid_.eid_index;
        c.in.uasid = static_cast<uint32_t>(getpid());
        ASSERT_EQ(ub_cmd(fd_, UBURMA_CMD_CREATE_CTX, &c, sizeof(c)), 0);
        async_fd_ = c.out.async_fd;
    }

    // Runs the command with its argument struct on the read-only page:
    // EFAULT, the count of obj unchanged, no new file descriptor.
    template <typename T> void expect_undone(uint32_t command, const T &args, const char *obj)
    {
        std::memcpy(page_, &args, sizeof(args));
        ASSERT_EQ(mprotect(page_, kPage, PROT_READ), 0);
        const long before = obj_count(obj);
        const int fds = open_fds();
        EXPECT_EQ(ub_cmd(fd_, command, page_, sizeof(T)), -EFAULT);
        EXPECT_EQ(obj_count(obj), before) << obj << " kept although the call failed";
        EXPECT_EQ(open_fds(), fds) << "a file descriptor kept although the call failed";
        ASSERT_EQ(mprotect(page_, kPage, PROT_READ | PROT_WRITE), 0);
    }

    uint64_t jfc()
    {
        udma_create_jfc_resp resp = {};
        uburma_cmd_create_jfc c = ub_test::raw_jfc_args(&resp);
        EXPECT_EQ(ub_cmd(fd_, UBURMA_CMD_CREATE_JFC, &c, sizeof(c)), 0);
        return c.out.handle;
    }

    void *page_ = nullptr;
    uint8_t *buf_ = nullptr;
    int fd_ = -1, async_fd_ = -1;
    uburma_eid_info eid_ = {};
};

TEST_F(CopyOutTest, CreateCtxIsUndone)
{
    uburma_cmd_create_ctx c = {};
    c.in.eid_index = eid_.eid_index;
    c.in.uasid = static_cast<uint32_t>(getpid());
    expect_undone(UBURMA_CMD_CREATE_CTX, c, "ucontext");
    // The file has no context: a second CREATE_CTX works (not EEXIST).
    create_ctx();
    EXPECT_EQ(obj_count("ucontext"), 1);
}

TEST_F(CopyOutTest, CreateJfceIsUndone)
{
    create_ctx();
    uburma_cmd_create_jfce c = {};
    expect_undone(UBURMA_CMD_CREATE_JFCE, c, "ucontext");
}

TEST_F(CopyOutTest, CreateJfcIsUndone)
{
    create_ctx();
    udma_create_jfc_resp resp = {};
    uburma_cmd_create_jfc c = ub_test::raw_jfc_args(&resp);
    expect_undone(UBURMA_CMD_CREATE_JFC, c, "jfc");
}

// The provider data a command writes back is the provider's response, no
// more: an out buffer longer than the response keeps its bytes past it
// (the staged copy-out once wrote all out_len bytes, zeros past the
// response, over whatever the caller had there: the ioctl fuzzer's stack).
TEST_F(CopyOutTest, ProviderDataPastTheResponseIsLeftAlone)
{
    create_ctx();
    constexpr uint32_t kOut = 512;
    static_assert(sizeof(udma_create_jfc_resp) < kOut, "the response is shorter than the buffer");
    uburma_cmd_create_jfc c = {};
    c.in.depth = 16;
    c.in.jfce_fd = -1;
    c.in.udata.out_addr = reinterpret_cast<uintptr_t>(buf_);
    c.in.udata.out_len = kOut;
    ASSERT_EQ(ub_cmd(fd_, UBURMA_CMD_CREATE_JFC, &c, sizeof(c)), 0);
    for (size_t i = sizeof(udma_create_jfc_resp); i < 4 * kPage; i++)
        ASSERT_EQ(buf_[i], 1) << "byte " << i << " past the response was written";
    udma_create_jfc_resp resp;
    std::memcpy(&resp, buf_, sizeof(resp));
    EXPECT_NE(std::memcmp(buf_, std::string(sizeof(resp), '\1').data(), sizeof(resp)), 0)
        << "the response itself was not written";
    uburma_cmd_delete d = {};
    d.in.handle = c.out.handle;
    EXPECT_EQ(ub_cmd(fd_, UBURMA_CMD_DELETE_JFC, &d, sizeof(d)), 0);
}

TEST_F(CopyOutTest, CreateJfsJfrJettyAreUndone)
{
    create_ctx();
    const uint64_t cq = jfc();
    udma_create_jfs_resp sq = {};
    uburma_cmd_create_jfs s = ub_test::raw_jfs_args(cq, &sq, ub_test::raw_jfs_cfg());
    expect_undone(UBURMA_CMD_CREATE_JFS, s, "jfs");

    udma_create_jfr_resp rq = {};
    uburma_cmd_create_jfr r = ub_test::raw_jfr_args(cq, &rq);
    expect_undone(UBURMA_CMD_CREATE_JFR, r, "jfr");

    ASSERT_EQ(ub_cmd(fd_, UBURMA_CMD_CREATE_JFR, &r, sizeof(r)), 0);
    uburma_cmd_create_jetty j = ub_test::raw_jetty_args(cq, r.out.handle, &sq, ub_test::raw_jfs_cfg());
    expect_undone(UBURMA_CMD_CREATE_JETTY, j, "jetty");

    // The JFC and JFR have no users left: they delete.
    uburma_cmd_delete d = {};
    d.in.handle = r.out.handle;
    EXPECT_EQ(ub_cmd(fd_, UBURMA_CMD_DELETE_JFR, &d, sizeof(d)), 0);
    d.in.handle = cq;
    EXPECT_EQ(ub_cmd(fd_, UBURMA_CMD_DELETE_JFC, &d, sizeof(d)), 0);
}

TEST_F(CopyOutTest, TokenSegmentAndImportsAreUndone)
{
    create_ctx();
    uburma_cmd_alloc_token_id t = {};
    expect_undone(UBURMA_CMD_ALLOC_TOKEN_ID, t, "token_id");
    ASSERT_EQ(ub_cmd(fd_, UBURMA_CMD_ALLOC_TOKEN_ID, &t, sizeof(t)), 0);

    uburma_cmd_register_seg r = {};
    r.in.va = reinterpret_cast<uintptr_t>(buf_);
    r.in.len = 4 * kPage;
    r.in.token_id_handle = t.out.handle;
    r.in.token_value = 0x5eed;
    r.in.flag = 1 | (0x6u << 5) | (1u << 13);  // plain token, READ|WRITE, token ID given
    expect_undone(UBURMA_CMD_REGISTER_SEG, r, "seg");
    EXPECT_EQ(obj_count("pinned_pages"), 0);

    uburma_cmd_import_seg is = {};
    std::memcpy(is.in.eid, eid_.eid, sizeof(is.in.eid));
    is.in.uasid = static_cast<uint32_t>(getpid());
    is.in.token_id = t.out.token_id;
    is.in.va = reinterpret_cast<uintptr_t>(buf_);
    is.in.len = 4 * kPage;
    is.in.attr = 1 | (0x6u << 5);
    is.in.token_value = 0x5eed;
    udma_import_resp ir = {};
    ub_test::set_resp(is, &ir);
    expect_undone(UBURMA_CMD_IMPORT_SEG, is, "target_seg");

    const uint64_t cq = jfc();
    udma_create_jfr_resp rq = {};
    uburma_cmd_create_jfr jr = ub_test::raw_jfr_args(cq, &rq);
    ASSERT_EQ(ub_cmd(fd_, UBURMA_CMD_CREATE_JFR, &jr, sizeof(jr)), 0);
    uburma_cmd_import_jetty ij = {};
    std::memcpy(ij.in.eid, eid_.eid, sizeof(ij.in.eid));
    ij.in.uasid = static_cast<uint32_t>(getpid());
    ij.in.id = jr.out.cfg.id;
    ij.in.trans_mode = 1;
    ij.in.token_value = 0xabcd;
    ub_test::set_resp(ij, &ir);
    expect_undone(UBURMA_CMD_IMPORT_JFR, ij, "tjfr");
}

TEST_F(CopyOutTest, DestroyWritesNothingBack)
{
    create_ctx();
    uburma_cmd_alloc_token_id t = {};
    ASSERT_EQ(ub_cmd(fd_, UBURMA_CMD_ALLOC_TOKEN_ID, &t, sizeof(t)), 0);
    ASSERT_EQ(obj_count("token_id"), 1);
    uburma_cmd_destroy d = {};
    d.in.handle = t.out.handle;
    std::memcpy(page_, &d, sizeof(d));
    ASSERT_EQ(mprotect(page_, kPage, PROT_READ), 0);
    EXPECT_EQ(ub_cmd(fd_, UBURMA_CMD_FREE_TOKEN_ID, page_, sizeof(d)), 0);
    EXPECT_EQ(obj_count("token_id"), 0);
    ASSERT_EQ(mprotect(page_, kPage, PROT_READ | PROT_WRITE), 0);
}

TEST_F(CopyOutTest, DeleteWithoutItsCountsStillDeletes)
{
    create_ctx();
    uburma_cmd_delete d = {};
    d.in.handle = jfc();
    ASSERT_EQ(obj_count("jfc"), 1);
    std::memcpy(page_, &d, sizeof(d));
    ASSERT_EQ(mprotect(page_, kPage, PROT_READ), 0);
    EXPECT_EQ(ub_cmd(fd_, UBURMA_CMD_DELETE_JFC, page_, sizeof(d)), -EFAULT);
    EXPECT_EQ(obj_count("jfc"), 0);
    ASSERT_EQ(mprotect(page_, kPage, PROT_READ | PROT_WRITE), 0);
}

}  // namespace
