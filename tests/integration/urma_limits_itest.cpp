// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The UB/URMA stack authors
// What an unprivileged user can make the kernel do (issue 17): huge
// registrations fail before any allocation and without an allocator
// warning; kernel memory of objects and rings is charged to the memory
// cgroup; imports, objects and token IDs are capped per context
// (/sys/class/ubcore/<dev>/limits/) and per user (user_limits/); rings that live on in a mapping after
// their object is deleted are counted and bounded; uasids and EID indexes
// are checked; token IDs are cyclic; only anonymous, shmem, hugetlb and
// private memory is pinned; a ring mapping cannot be inherited by a child.
// Parts that are about unprivileged users run in a child that opens what
// needs root and then becomes nobody (setresuid drops every capability).
#include <gtest/gtest.h>

#include <fcntl.h>
#include <grp.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include <ub/uburma_ioctl.h>
#include <ub/udma_abi.h>

#include "stack.h"
#include "urma_api.h"
#include "urma_itest.h"

namespace {

using ub_itest::obj_count;

constexpr uid_t kNobody = 65534;
const std::string kSys = "/sys/class/ubcore/udma0/";

long limit(const std::string &name)
{
    return ub_itest::sysfs_long(kSys + "limits/" + name);
}

bool set_limit(const std::string &name, long v)
{
    return ub_itest::write_sysfs(kSys + "limits/" + name, std::to_string(v));
}

long user_limit(const std::string &name)
{
    return ub_itest::sysfs_long(kSys + "user_limits/" + name);
}

bool set_user_limit(const std::string &name, long v)
{
    return ub_itest::write_sysfs(kSys + "user_limits/" + name, std::to_string(v));
}

// Becomes nobody: every uid and gid, and with them every capability.
bool become_nobody()
{
    return setgroups(0, nullptr) == 0 && setresgid(kNobody, kNobody, kNobody) == 0 &&
           setresuid(kNobody, kNobody, kNobody) == 0 && geteuid() == kNobody;
}

// Runs fn in a child process; its return is an error message, "" for
// success. The parent gets the message ("" if the child succeeded), or a
// note if the child died.
std::string in_child(const std::function<std::string()> &fn)
{
    int p[2];
    if (pipe2(p, O_CLOEXEC) != 0)
        return "pipe failed";
    pid_t pid = fork();
    if (pid < 0)
        return "fork failed";
    if (pid == 0) {
        close(p[0]);
        std::string err = fn();
        if (!err.empty() && write(p[1], err.data(), err.size()) < 0)
            _exit(2);
        _exit(err.empty() ? 0 : 1);
    }
    close(p[1]);
    std::string msg;
    char buf[512];
    ssize_t n;
    while ((n = read(p[0], buf, sizeof(buf))) > 0)
        msg.append(buf, static_cast<size_t>(n));
    close(p[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    if (WIFSIGNALED(status))
        return "child killed by signal " + std::to_string(WTERMSIG(status)) + " " + msg;
    if (WEXITSTATUS(status) != 0 && msg.empty())
        return "child failed with status " + std::to_string(WEXITSTATUS(status));
    return msg;
}

#define CHILD_EXPECT(cond, what)                                                                    \
    do {                                                                                            \
        if (!(cond))                                                                                \
            return std::string(what) + " (line " + std::to_string(__LINE__) + ", errno " +          \
                   std::strerror(errno) + ")";                                                      \
    } while (0)

// /dev/uburma/udma0 through the raw ioctl ABI: a context, JFCs and JFSs
// with their rings, without liburma (which maps and unmaps rings itself).
struct RawDev {
    int fd = -1;
    int async_fd = -1;
    uint32_t uasid = 0;

    RawDev() { fd = open("/dev/uburma/udma0", O_RDWR | O_CLOEXEC); }
    ~RawDev()
    {
        if (async_fd >= 0)
            close(async_fd);
        if (fd >= 0)
            close(fd);
    }
    RawDev(const RawDev &) = delete;
    RawDev &operator=(const RawDev &) = delete;

    template <typename T> int cmd(uint32_t command, T *args)
    {
        struct uburma_cmd_hdr hdr = {};
        hdr.command = command;
        hdr.args_len = sizeof(T);
        hdr.args_addr = reinterpret_cast<uintptr_t>(args);
        return ioctl(fd, UBURMA_CMD, &hdr) == 0 ? 0 : -errno;
    }
    int create_ctx(uint32_t eid_index, uint32_t want_uasid)
    {
        struct uburma_cmd_create_ctx c = {};
        c.in.eid_index = eid_index;
        c.in.uasid = want_uasid;
        int ret = cmd(UBURMA_CMD_CREATE_CTX, &c);
        if (ret == 0) {
            async_fd = c.out.async_fd;
            uasid = c.out.uasid;
        }
        return ret;
    }
    int create_jfc(uint32_t depth, uint64_t *handle)
    {
        struct uburma_cmd_create_jfc c = {};
        struct udma_create_jfc_resp resp = {};
        c.in.depth = depth;
        c.in.jfce_fd = -1;
        c.in.udata.out_addr = reinterpret_cast<uintptr_t>(&resp);
        c.in.udata.out_len = sizeof(resp);
        int ret = cmd(UBURMA_CMD_CREATE_JFC, &c);
        *handle = c.out.handle;
        return ret;
    }
    int create_jfs(uint64_t jfc, uint32_t depth, uint64_t *handle, struct udma_ring_info *sq)
    {
        struct uburma_cmd_create_jfs c = {};
        struct udma_create_jfs_resp resp = {};
        c.in.cfg.depth = depth;
        c.in.cfg.trans_mode = URMA_TM_RM;
        c.in.cfg.max_sge = 1;
        c.in.cfg.max_rsge = 1;
        c.in.cfg.rnr_retry = URMA_TYPICAL_RNR_RETRY;
        c.in.cfg.err_timeout = URMA_TYPICAL_ERR_TIMEOUT;
        c.in.jfc_handle = jfc;
        c.in.udata.out_addr = reinterpret_cast<uintptr_t>(&resp);
        c.in.udata.out_len = sizeof(resp);
        int ret = cmd(UBURMA_CMD_CREATE_JFS, &c);
        *handle = c.out.handle;
        *sq = resp.sq;
        return ret;
    }
    int destroy(uint32_t command, uint64_t handle)
    {
        struct uburma_cmd_delete d = {};
        d.in.handle = handle;
        return cmd(command, &d);
    }
    void *map(const struct udma_ring_info &ri)
    {
        void *p = mmap(nullptr, ri.mmap_len, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
                       static_cast<off_t>(ri.mmap_offset));
        return p == MAP_FAILED ? nullptr : p;
    }
};

// New kernel log records since construction (/dev/kmsg, opened as root).
class KmsgSince {
public:
    KmsgSince()
    {
        fd_ = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
        if (fd_ >= 0)
            lseek(fd_, 0, SEEK_END);
    }
    ~KmsgSince()
    {
        if (fd_ >= 0)
            close(fd_);
    }
    KmsgSince(const KmsgSince &) = delete;
    KmsgSince &operator=(const KmsgSince &) = delete;
    bool ok() const { return fd_ >= 0; }
    std::string read_all()
    {
        std::string all;
        char rec[8192];
        for (;;) {
            ssize_t n = read(fd_, rec, sizeof(rec));
            if (n > 0) {
                all.append(rec, static_cast<size_t>(n));
                continue;
            }
            if (n < 0 && errno == EPIPE)  // overwritten records: go on
                continue;
            break;
        }
        return all;
    }

private:
    int fd_ = -1;
};

class LimitsTest : public ub_itest::StackTest {
protected:
    void SetUp() override
    {
        ASSERT_TRUE(ub_itest::all_counts_zero()) << ub_itest::counts();
        for (const char *n : kLimits)
            saved_.push_back(limit(n));
        for (const char *n : kUserLimits)
            saved_user_.push_back(user_limit(n));
    }
    void TearDown() override
    {
        for (size_t i = 0; i < saved_.size(); i++)
            EXPECT_TRUE(set_limit(kLimits[i], saved_[i]));
        for (size_t i = 0; i < saved_user_.size(); i++)
            EXPECT_TRUE(set_user_limit(kUserLimits[i], saved_user_[i]));
        EXPECT_TRUE(ub_itest::wait_for([] { return ub_itest::all_counts_zero(); }, 3000))
            << ub_itest::counts();
        EXPECT_EQ(ub_itest::sysfs_long(kSys + "objects/orphan_ring_pages"), 0);
    }

    static constexpr const char *kLimits[] = {"jfc", "jfs", "jfr", "jetty", "token_id", "seg",
                                             "target_seg", "tjfr", "tjetty", "ring_pages"};
    static constexpr const char *kUserLimits[] = {"ucontext", "jfc"};
    std::vector<long> saved_;
    std::vector<long> saved_user_;
};

// Finding 1: a 2 TiB and a just-under-1 TiB registration by nobody fail
// with ENOMEM before the kernel allocates anything for them: no allocator
// warning and no failed allocation in the kernel log, nothing pinned.
TEST_F(LimitsTest, HugeRegistrationByNobodyFailsCleanly)
{
    KmsgSince kmsg;
    ASSERT_TRUE(kmsg.ok()) << std::strerror(errno);
    std::string err = in_child([]() -> std::string {
        CHILD_EXPECT(urma_init(nullptr) == URMA_SUCCESS, "urma_init");
        urma_context_t *ctx = ub_itest::open_ctx();
        CHILD_EXPECT(ctx != nullptr, "context");
        urma_token_id_t *tid = urma_alloc_token_id(ctx);
        CHILD_EXPECT(tid != nullptr, "token id");
        CHILD_EXPECT(become_nobody(), "setresuid nobody");
        // A small mapping at 1 TiB, so that the whole range is user address
        // space (access_ok); the kernel must refuse the length before it
        // looks at the pages.
        void *buf = mmap(reinterpret_cast<void *>(1ull << 40), 1 << 20, PROT_READ | PROT_WRITE,
                         MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
        CHILD_EXPECT(buf != MAP_FAILED, "mmap at 1 TiB");
        const uint64_t lens[] = {2ull << 40, (1ull << 40) - 4096};
        for (uint64_t len : lens) {
            urma_seg_cfg_t sc = ub_itest::seg_cfg(buf, len);
            sc.token_id = tid;
            sc.flag.bs.token_id_valid = URMA_TOKEN_ID_VALID;
            errno = 0;
            CHILD_EXPECT(urma_register_seg(ctx, &sc) == nullptr, "huge register succeeded");
            CHILD_EXPECT(errno == ENOMEM, "huge register: not ENOMEM");
        }
        CHILD_EXPECT(ub_itest::obj_count("pinned_pages") == 0, "pages pinned");
        CHILD_EXPECT(ub_itest::obj_count("seg") == 0, "segment left");
        CHILD_EXPECT(urma_free_token_id(tid) == URMA_SUCCESS, "free token id");
        CHILD_EXPECT(urma_delete_context(ctx) == URMA_SUCCESS, "delete context");
        urma_uninit();
        return "";
    });
    EXPECT_EQ(err, "");
    std::string log = kmsg.read_all();
    for (const char *bad : {"WARNING:", "vmalloc error", "page allocation failure", "kvmalloc"})
        EXPECT_EQ(log.find(bad), std::string::npos) << bad << " in the kernel log:\n" << log;
}

// Finding 2: objects and rings are charged to the memory cgroup. In a
// cgroup with memory.max at 8 MiB, creating 1 MiB rings fails with ENOMEM
// long before 64 of them exist (uncharged, all 64 would be created).
TEST_F(LimitsTest, MemcgBoundsRings)
{
    const std::string root = "/sys/fs/cgroup";
    if (access((root + "/cgroup.controllers").c_str(), F_OK) != 0) {
        ASSERT_EQ(mount("cgroup2", root.c_str(), "cgroup2", 0, nullptr), 0) << std::strerror(errno);
    }
    ASSERT_TRUE(ub_itest::write_sysfs(root + "/cgroup.subtree_control", "+memory")) << std::strerror(errno);
    const std::string cg = root + "/ub_limits_itest";
    rmdir(cg.c_str());
    ASSERT_EQ(mkdir(cg.c_str(), 0755), 0) << std::strerror(errno);
    ASSERT_TRUE(ub_itest::write_sysfs(cg + "/memory.max", std::to_string(8 << 20)));
    // Only the cgroup bounds this test: the rings' own limit is out of the way.
    ASSERT_TRUE(set_limit("ring_pages", 1 << 20));
    ASSERT_TRUE(set_limit("jfs", 1024));

    std::string err = in_child([&cg]() -> std::string {
        CHILD_EXPECT(ub_itest::write_sysfs(cg + "/cgroup.procs", std::to_string(getpid())), "join cgroup");
        RawDev d;
        CHILD_EXPECT(d.fd >= 0, "open");
        CHILD_EXPECT(d.create_ctx(0, 0) == 0, "create ctx");
        CHILD_EXPECT(become_nobody(), "setresuid nobody");
        uint64_t jfc;
        CHILD_EXPECT(d.create_jfc(64, &jfc) == 0, "create jfc");
        std::vector<uint64_t> jfss;
        int ret = 0;
        for (int i = 0; i < 64 && ret == 0; i++) {
            uint64_t h;
            struct udma_ring_info sq;
            ret = d.create_jfs(jfc, 4096, &h, &sq);  // 1 MiB + 4 KiB of ring
            if (ret == 0)
                jfss.push_back(h);
        }
        CHILD_EXPECT(ret == -ENOMEM, "64 rings of 1 MiB in an 8 MiB cgroup: no ENOMEM, created " +
                                         std::to_string(jfss.size()));
        CHILD_EXPECT(jfss.size() < 8, "more rings than memory.max holds: " + std::to_string(jfss.size()));
        for (uint64_t h : jfss)
            CHILD_EXPECT(d.destroy(UBURMA_CMD_DELETE_JFS, h) == 0, "delete jfs");
        // The charge went back with the rings: creation works again.
        uint64_t h;
        struct udma_ring_info sq;
        CHILD_EXPECT(d.create_jfs(jfc, 4096, &h, &sq) == 0, "create jfs after freeing");
        CHILD_EXPECT(d.destroy(UBURMA_CMD_DELETE_JFS, h) == 0, "delete jfs");
        CHILD_EXPECT(d.destroy(UBURMA_CMD_DELETE_JFC, jfc) == 0, "delete jfc");
        return "";
    });
    EXPECT_EQ(err, "");
    long events_max = -1;
    FILE *f = std::fopen((cg + "/memory.events").c_str(), "r");
    if (f != nullptr) {
        char key[64];
        long v;
        while (std::fscanf(f, "%63s %ld", key, &v) == 2)
            if (std::string(key) == "max")
                events_max = v;
        std::fclose(f);
    }
    EXPECT_GT(events_max, 0) << "the cgroup's limit was never hit";
    EXPECT_TRUE(ub_itest::wait_for([&cg] { return rmdir(cg.c_str()) == 0; }, 3000)) << std::strerror(errno);
}

// Finding 2: imports are capped per context (limits/target_seg, tjfr,
// tjetty): ENOSPC for that context, while another context still imports.
TEST_F(LimitsTest, ImportsAreCappedPerContext)
{
    ASSERT_TRUE(set_limit("target_seg", 3));
    ASSERT_TRUE(set_limit("tjfr", 2));
    ASSERT_TRUE(set_limit("tjetty", 2));
    ASSERT_EQ(urma_init(nullptr), URMA_SUCCESS);
    urma_context_t *a = ub_itest::open_ctx();
    urma_context_t *b = ub_itest::open_ctx();
    ASSERT_NE(a, nullptr);
    ASSERT_NE(b, nullptr);

    void *buf = std::aligned_alloc(4096, 8192);
    ASSERT_NE(buf, nullptr);
    urma_seg_cfg_t scfg = ub_itest::seg_cfg(buf, 8192);
    urma_target_seg_t *seg = urma_register_seg(a, &scfg);
    ASSERT_NE(seg, nullptr) << std::strerror(errno);
    urma_jfc_cfg_t ccfg = ub_itest::jfc_cfg();
    urma_jfc_t *jfc = urma_create_jfc(a, &ccfg);
    ASSERT_NE(jfc, nullptr);
    urma_jfr_cfg_t rcfg = ub_itest::jfr_cfg(jfc);
    urma_jfr_t *jfr = urma_create_jfr(a, &rcfg);
    ASSERT_NE(jfr, nullptr);

    urma_token_t token = {0x5eed};
    urma_import_seg_flag_t iflag = {};
    iflag.bs.access = URMA_ACCESS_READ | URMA_ACCESS_WRITE;
    urma_rjfr_t rjfr = {};
    rjfr.jfr_id = jfr->jfr_id;
    rjfr.trans_mode = URMA_TM_RM;
    rjfr.flag.bs.token_policy = URMA_TOKEN_PLAIN_TEXT;
    urma_token_t jtoken = {0xabcd};
    // Imports open a TP: the peer checks that the jetty exists (sharing
    // the JFR, and so its token).
    urma_jetty_cfg_t jcfg = ub_itest::jetty_cfg_shared(jfc, jfr);
    urma_jetty_t *jetty = urma_create_jetty(a, &jcfg);
    ASSERT_NE(jetty, nullptr) << std::strerror(errno);
    urma_rjetty_t rjetty = {};
    rjetty.jetty_id = jetty->jetty_id;
    rjetty.trans_mode = URMA_TM_RM;
    rjetty.type = URMA_JETTY;

    std::vector<urma_target_seg_t *> segs;
    std::vector<urma_target_jetty_t *> tjfrs, tjettys;
    for (int i = 0; i < 3; i++) {
        segs.push_back(urma_import_seg(a, &seg->seg, &token, 0, iflag));
        ASSERT_NE(segs.back(), nullptr) << i << ": " << std::strerror(errno);
    }
    // What a failed expectation let through is released again, so that
    // the next tests start from zero.
    errno = 0;
    urma_target_seg_t *over = urma_import_seg(a, &seg->seg, &token, 0, iflag);
    EXPECT_EQ(over, nullptr);
    EXPECT_EQ(errno, ENOSPC);
    if (over != nullptr) {
        segs.push_back(over);
    }
    for (int i = 0; i < 2; i++) {
        tjfrs.push_back(urma_import_jfr(a, &rjfr, &jtoken));
        ASSERT_NE(tjfrs.back(), nullptr) << std::strerror(errno);
        tjettys.push_back(urma_import_jetty(a, &rjetty, &jtoken));
        ASSERT_NE(tjettys.back(), nullptr) << std::strerror(errno);
    }
    errno = 0;
    urma_target_jetty_t *over_jfr = urma_import_jfr(a, &rjfr, &jtoken);
    EXPECT_EQ(over_jfr, nullptr);
    EXPECT_EQ(errno, ENOSPC);
    errno = 0;
    urma_target_jetty_t *over_jetty = urma_import_jetty(a, &rjetty, &jtoken);
    EXPECT_EQ(over_jetty, nullptr);
    EXPECT_EQ(errno, ENOSPC);
    if (over_jfr != nullptr) {
        tjfrs.push_back(over_jfr);
    }
    if (over_jetty != nullptr) {
        tjettys.push_back(over_jetty);
    }
    EXPECT_EQ(obj_count("target_seg"), 3);
    EXPECT_EQ(obj_count("tjfr"), 2);
    EXPECT_EQ(obj_count("tjetty"), 2);

    // The other context is not affected.
    urma_target_seg_t *bseg = urma_import_seg(b, &seg->seg, &token, 0, iflag);
    EXPECT_NE(bseg, nullptr) << std::strerror(errno);
    urma_target_jetty_t *bjfr = urma_import_jfr(b, &rjfr, &jtoken);
    EXPECT_NE(bjfr, nullptr) << std::strerror(errno);

    if (bseg != nullptr) {
        EXPECT_EQ(urma_unimport_seg(bseg), URMA_SUCCESS);
    }
    if (bjfr != nullptr) {
        EXPECT_EQ(urma_unimport_jfr(bjfr), URMA_SUCCESS);
    }
    for (auto *s : segs)
        EXPECT_EQ(urma_unimport_seg(s), URMA_SUCCESS);
    for (auto *t : tjfrs)
        EXPECT_EQ(urma_unimport_jfr(t), URMA_SUCCESS);
    for (auto *t : tjettys)
        EXPECT_EQ(urma_unimport_jetty(t), URMA_SUCCESS);
    EXPECT_EQ(urma_delete_jetty(jetty), URMA_SUCCESS);
    EXPECT_EQ(urma_delete_jfr(jfr), URMA_SUCCESS);
    EXPECT_EQ(urma_delete_jfc(jfc), URMA_SUCCESS);
    EXPECT_EQ(urma_unregister_seg(seg), URMA_SUCCESS);
    std::free(buf);
    EXPECT_EQ(urma_delete_context(a), URMA_SUCCESS);
    EXPECT_EQ(urma_delete_context(b), URMA_SUCCESS);
    EXPECT_EQ(urma_uninit(), URMA_SUCCESS);
}

// Finding 2: a CREATE_JFS / mmap / DELETE_JFS loop by nobody keeps ring
// pages alive in its mappings; they are counted (objects/orphan_ring_pages)
// and bounded (limits/ring_pages: ENOSPC), and given back on munmap.
TEST_F(LimitsTest, OrphanedRingsAreCountedAndBounded)
{
    ASSERT_TRUE(set_limit("ring_pages", 64));
    std::string err = in_child([]() -> std::string {
        RawDev d;
        CHILD_EXPECT(d.fd >= 0, "open");
        CHILD_EXPECT(d.create_ctx(0, 0) == 0, "create ctx");
        CHILD_EXPECT(become_nobody(), "setresuid nobody");
        uint64_t jfc;
        CHILD_EXPECT(d.create_jfc(64, &jfc) == 0, "create jfc");  // 64 x 64 B + 1 page: 2 pages
        std::vector<std::pair<void *, size_t>> maps;
        int ret = 0;
        long pages = 0;
        for (int i = 0; i < 100 && ret == 0; i++) {
            uint64_t h;
            struct udma_ring_info sq;
            ret = d.create_jfs(jfc, 64, &h, &sq);  // 64 x 256 B + 1 page: 5 pages
            if (ret != 0)
                break;
            CHILD_EXPECT(sq.mmap_len == 5 * 4096, "sq ring size");
            void *p = d.map(sq);
            CHILD_EXPECT(p != nullptr, "mmap sq");
            static_cast<volatile char *>(p)[0] = 1;
            maps.emplace_back(p, sq.mmap_len);
            CHILD_EXPECT(d.destroy(UBURMA_CMD_DELETE_JFS, h) == 0, "delete jfs");
            pages += 5;
            CHILD_EXPECT(ub_itest::sysfs_long(kSys + "objects/orphan_ring_pages") == pages,
                         "orphan_ring_pages is not " + std::to_string(pages));
        }
        // 2 + 12 x 5 = 62 pages fit in 64; the 13th ring does not.
        CHILD_EXPECT(ret == -ENOSPC, "the loop was not bounded");
        CHILD_EXPECT(maps.size() == 12, "rings before the limit: " + std::to_string(maps.size()));
        for (auto &m : maps)
            munmap(m.first, m.second);
        uint64_t h;
        struct udma_ring_info sq;
        CHILD_EXPECT(d.create_jfs(jfc, 64, &h, &sq) == 0, "create jfs after munmap");
        CHILD_EXPECT(ub_itest::sysfs_long(kSys + "objects/orphan_ring_pages") == 0, "orphans left after munmap");
        CHILD_EXPECT(d.destroy(UBURMA_CMD_DELETE_JFS, h) == 0, "delete jfs");
        CHILD_EXPECT(d.destroy(UBURMA_CMD_DELETE_JFC, jfc) == 0, "delete jfc");
        return "";
    });
    EXPECT_EQ(err, "");
}

// Finding 4: the device's objects and token IDs are shared out per context
// (limits/*): ENOSPC for the context at its share, while another context
// of the same user still succeeds.
TEST_F(LimitsTest, ObjectShareIsPerContext)
{
    // The defaults: half of the device each.
    EXPECT_EQ(limit("jfc"), ub_itest::sysfs_long(kSys + "max_jfc") / 2);
    EXPECT_EQ(limit("jetty"), ub_itest::sysfs_long(kSys + "max_jetty") / 2);
    ASSERT_TRUE(set_limit("jfc", 3));
    ASSERT_TRUE(set_limit("jfs", 2));
    ASSERT_TRUE(set_limit("token_id", 2));
    std::string err = in_child([]() -> std::string {
        CHILD_EXPECT(urma_init(nullptr) == URMA_SUCCESS, "urma_init");
        urma_context_t *a = ub_itest::open_ctx();
        urma_context_t *b = ub_itest::open_ctx();
        CHILD_EXPECT(a != nullptr && b != nullptr, "contexts");
        CHILD_EXPECT(become_nobody(), "setresuid nobody");
        urma_jfc_cfg_t cc = ub_itest::jfc_cfg(1);
        std::vector<urma_jfc_t *> jfcs;
        for (int i = 0; i < 3; i++) {
            jfcs.push_back(urma_create_jfc(a, &cc));
            CHILD_EXPECT(jfcs.back() != nullptr, "jfc within the share");
        }
        errno = 0;
        CHILD_EXPECT(urma_create_jfc(a, &cc) == nullptr && errno == ENOSPC, "4th jfc of a: not ENOSPC");
        urma_jfs_cfg_t sc = ub_itest::jfs_cfg(jfcs[0], 1);
        urma_jfs_t *s1 = urma_create_jfs(a, &sc);
        urma_jfs_t *s2 = urma_create_jfs(a, &sc);
        CHILD_EXPECT(s1 != nullptr && s2 != nullptr, "jfs within the share");
        errno = 0;
        CHILD_EXPECT(urma_create_jfs(a, &sc) == nullptr && errno == ENOSPC, "3rd jfs of a: not ENOSPC");
        urma_token_id_t *t1 = urma_alloc_token_id(a);
        urma_token_id_t *t2 = urma_alloc_token_id(a);
        CHILD_EXPECT(t1 != nullptr && t2 != nullptr, "token ids within the share");
        errno = 0;
        CHILD_EXPECT(urma_alloc_token_id(a) == nullptr && errno == ENOSPC, "3rd token id of a: not ENOSPC");

        urma_jfc_t *bjfc = urma_create_jfc(b, &cc);
        CHILD_EXPECT(bjfc != nullptr, "b cannot create a jfc");
        urma_jfs_cfg_t bsc = ub_itest::jfs_cfg(bjfc, 1);
        urma_jfs_t *bjfs = urma_create_jfs(b, &bsc);
        CHILD_EXPECT(bjfs != nullptr, "b cannot create a jfs");
        urma_token_id_t *bt = urma_alloc_token_id(b);
        CHILD_EXPECT(bt != nullptr, "b cannot allocate a token id");

        CHILD_EXPECT(urma_free_token_id(bt) == URMA_SUCCESS, "free");
        CHILD_EXPECT(urma_delete_jfs(bjfs) == URMA_SUCCESS, "delete");
        CHILD_EXPECT(urma_delete_jfc(bjfc) == URMA_SUCCESS, "delete");
        CHILD_EXPECT(urma_free_token_id(t1) == URMA_SUCCESS && urma_free_token_id(t2) == URMA_SUCCESS, "free");
        CHILD_EXPECT(urma_delete_jfs(s1) == URMA_SUCCESS && urma_delete_jfs(s2) == URMA_SUCCESS, "delete");
        for (auto *j : jfcs)
            CHILD_EXPECT(urma_delete_jfc(j) == URMA_SUCCESS, "delete jfc");
        CHILD_EXPECT(urma_delete_context(a) == URMA_SUCCESS && urma_delete_context(b) == URMA_SUCCESS,
                     "delete contexts");
        urma_uninit();
        return "";
    });
    EXPECT_EQ(err, "");
}

// Finding 4, per user: a user cannot take the device by opening more
// contexts. The contexts of one unprivileged user share user_limits/*:
// at most user_limits/ucontext contexts, and together at most
// user_limits/jfc JFCs (ENOSPC for the context under its own limit).
TEST_F(LimitsTest, ObjectShareIsPerUser)
{
    // The defaults: what one context may, and 64 contexts.
    EXPECT_EQ(user_limit("jfc"), limit("jfc"));
    EXPECT_EQ(user_limit("ucontext"), 64);
    ASSERT_TRUE(set_limit("jfc", 3));
    ASSERT_TRUE(set_user_limit("jfc", 4));
    ASSERT_TRUE(set_user_limit("ucontext", 2));
    std::string err = in_child([]() -> std::string {
        CHILD_EXPECT(become_nobody(), "setresuid nobody");
        RawDev a, b, c;
        CHILD_EXPECT(a.fd >= 0 && b.fd >= 0 && c.fd >= 0, "open /dev/uburma/udma0");
        CHILD_EXPECT(a.create_ctx(0, 0) == 0, "context a");
        CHILD_EXPECT(b.create_ctx(0, 0) == 0, "context b");
        int ret = c.create_ctx(0, 0);
        CHILD_EXPECT(ret == -ENOSPC, "third context of nobody: " + std::to_string(ret));
        uint64_t h[5] = {};
        for (int i = 0; i < 3; i++)
            CHILD_EXPECT(a.create_jfc(4, &h[i]) == 0, "jfc of a within both limits");
        CHILD_EXPECT(b.create_jfc(4, &h[3]) == 0, "4th jfc of the user");
        ret = b.create_jfc(4, &h[4]);
        CHILD_EXPECT(ret == -ENOSPC, "5th jfc of the user, 2nd of b: " + std::to_string(ret));
        CHILD_EXPECT(obj_count("jfc") == 4, "jfc count");
        // A deleted JFC of a gives the user room in b.
        CHILD_EXPECT(a.destroy(UBURMA_CMD_DELETE_JFC, h[0]) == 0, "delete jfc of a");
        CHILD_EXPECT(b.create_jfc(4, &h[4]) == 0, "jfc of b after a's delete");
        for (int i = 1; i < 3; i++)
            CHILD_EXPECT(a.destroy(UBURMA_CMD_DELETE_JFC, h[i]) == 0, "delete jfc of a");
        CHILD_EXPECT(b.destroy(UBURMA_CMD_DELETE_JFC, h[3]) == 0, "delete jfc of b");
        CHILD_EXPECT(b.destroy(UBURMA_CMD_DELETE_JFC, h[4]) == 0, "delete jfc of b");
        return "";
    });
    EXPECT_EQ(err, "");
}

// Finding 6: the kernel checks the identities a context claims. An EID
// index without an EID is refused; a uasid belongs to the process that
// took it (EADDRINUSE for any other) until its last context is gone; 0
// gets one the kernel picks; reserved jetty IDs are the kernel's (EINVAL).
TEST_F(LimitsTest, ChosenIdentitiesAreChecked)
{
    {
        RawDev d;
        ASSERT_GE(d.fd, 0);
        EXPECT_EQ(d.create_ctx(5, 0), -EINVAL);  // udma0 on lo has eid0 only
        EXPECT_EQ(d.create_ctx(UINT32_MAX, 0), -EINVAL);
        EXPECT_EQ(d.create_ctx(0, 1u << 24), -EINVAL);
    }

    constexpr uint32_t kClaimed = 4711;
    int go[2], ready[2];
    ASSERT_EQ(pipe2(go, O_CLOEXEC), 0);
    ASSERT_EQ(pipe2(ready, O_CLOEXEC), 0);
    pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
        RawDev d;
        char c = d.create_ctx(0, kClaimed) == 0 && d.uasid == kClaimed && become_nobody() ? 'y' : 'n';
        if (write(ready[1], &c, 1) != 1 || read(go[0], &c, 1) != 1)
            _exit(2);
        _exit(0);
    }
    char c = 0;
    ASSERT_EQ(read(ready[0], &c, 1), 1);
    EXPECT_EQ(c, 'y') << "the child did not get the uasid it asked for";
    {
        // No ASSERT until the child is let go: it would wait for ever.
        RawDev taken, d, d2;
        EXPECT_EQ(taken.create_ctx(0, kClaimed), -EADDRINUSE);
        EXPECT_EQ(d.create_ctx(0, 0), 0);
        EXPECT_NE(d.uasid, 0u);
        EXPECT_NE(d.uasid, kClaimed);
        EXPECT_LT(d.uasid, 1u << 24);
        // A second context of this process gets the same one.
        EXPECT_EQ(d2.create_ctx(0, 0), 0);
        EXPECT_EQ(d2.uasid, d.uasid);
    }
    ASSERT_EQ(write(go[1], "x", 1), 1);
    int status = 0;
    ASSERT_EQ(waitpid(pid, &status, 0), pid);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    for (int fd : {go[0], go[1], ready[0], ready[1]})
        close(fd);
    {
        RawDev d;  // the child's contexts are gone: the uasid is free
        EXPECT_EQ(d.create_ctx(0, kClaimed), 0);
        EXPECT_EQ(d.uasid, kClaimed);
    }

    // liburma: a uasid the application chose that another process owns.
    std::string err = in_child([]() -> std::string {
        RawDev owner;
        CHILD_EXPECT(owner.create_ctx(0, kClaimed) == 0, "take the uasid");
        std::string inner = in_child([]() -> std::string {
            urma_init_attr_t attr = {};
            attr.uasid = kClaimed;
            CHILD_EXPECT(urma_init(&attr) == URMA_SUCCESS, "urma_init");
            errno = 0;
            CHILD_EXPECT(ub_itest::open_ctx() == nullptr && errno == EADDRINUSE, "context on a taken uasid");
            urma_uninit();
            return "";
        });
        return inner;
    });
    EXPECT_EQ(err, "");

    // Reserved jetty IDs (1 .. reserved_jetty_id_max) are the kernel's.
    long reserved = ub_itest::sysfs_long(kSys + "reserved_jetty_id_max");
    ASSERT_GT(reserved, 0);
    ASSERT_EQ(urma_init(nullptr), URMA_SUCCESS);
    urma_context_t *ctx = ub_itest::open_ctx();
    ASSERT_NE(ctx, nullptr);
    uint32_t got = 0;
    ASSERT_EQ(urma_get_uasid(&got), URMA_SUCCESS);
    EXPECT_EQ(ctx->uasid, got);
    urma_jfc_cfg_t cc = ub_itest::jfc_cfg();
    urma_jfc_t *jfc = urma_create_jfc(ctx, &cc);
    ASSERT_NE(jfc, nullptr);
    urma_jfr_cfg_t rc = ub_itest::jfr_cfg(jfc);
    for (uint32_t id : {1u, static_cast<uint32_t>(reserved)}) {
        rc.id = id;
        errno = 0;
        EXPECT_EQ(urma_create_jfr(ctx, &rc), nullptr) << id;
        EXPECT_EQ(errno, EINVAL) << id;
    }
    rc.id = static_cast<uint32_t>(reserved) + 1;
    urma_jfr_t *jfr = urma_create_jfr(ctx, &rc);
    ASSERT_NE(jfr, nullptr) << std::strerror(errno);
    EXPECT_EQ(jfr->jfr_id.id, rc.id);
    EXPECT_EQ(urma_delete_jfr(jfr), URMA_SUCCESS);
    EXPECT_EQ(urma_delete_jfc(jfc), URMA_SUCCESS);
    EXPECT_EQ(urma_delete_context(ctx), URMA_SUCCESS);
    EXPECT_EQ(urma_uninit(), URMA_SUCCESS);
}

// Finding 7: token IDs are allocated cyclically: a freed number is not
// handed out again at once.
TEST_F(LimitsTest, TokenIdsAreNotReusedAtOnce)
{
    ASSERT_EQ(urma_init(nullptr), URMA_SUCCESS);
    urma_context_t *ctx = ub_itest::open_ctx();
    ASSERT_NE(ctx, nullptr);
    urma_token_id_t *a = urma_alloc_token_id(ctx);
    ASSERT_NE(a, nullptr);
    uint32_t first = a->token_id;
    ASSERT_EQ(urma_free_token_id(a), URMA_SUCCESS);
    urma_token_id_t *b = urma_alloc_token_id(ctx);
    ASSERT_NE(b, nullptr);
    EXPECT_NE(b->token_id, first);
    EXPECT_EQ(urma_free_token_id(b), URMA_SUCCESS);
    EXPECT_EQ(urma_delete_context(ctx), URMA_SUCCESS);
    EXPECT_EQ(urma_uninit(), URMA_SUCCESS);
}

// Finding 7: only memory whose pages may stay pinned is registered: a
// MAP_SHARED mapping of a regular file (ramfs here) is refused with
// EOPNOTSUPP, as is a queue ring's mapping; anonymous, shmem and private
// file memory are accepted.
TEST_F(LimitsTest, LongTermPinsOnlyOfPinnableMemory)
{
    const std::string dir = "/tmp/ub_limits_ramfs";
    mkdir(dir.c_str(), 0755);
    ASSERT_EQ(mount("ub_ramfs", dir.c_str(), "ramfs", 0, nullptr), 0) << std::strerror(errno);
    const std::string path = dir + "/file";
    int fd = open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    ASSERT_GE(fd, 0);
    ASSERT_EQ(ftruncate(fd, 65536), 0);
    int memfd = memfd_create("ub_limits", MFD_CLOEXEC);
    ASSERT_GE(memfd, 0);
    ASSERT_EQ(ftruncate(memfd, 65536), 0);

    ASSERT_EQ(urma_init(nullptr), URMA_SUCCESS);
    urma_context_t *ctx = ub_itest::open_ctx();
    ASSERT_NE(ctx, nullptr);
    auto try_register = [ctx](void *p, size_t len) -> int {
        urma_seg_cfg_t sc = ub_itest::seg_cfg(p, len);
        errno = 0;
        urma_target_seg_t *s = urma_register_seg(ctx, &sc);
        if (s == nullptr)
            return errno;
        return urma_unregister_seg(s) == URMA_SUCCESS ? 0 : -1;
    };
    struct Case {
        const char *what;
        int flags;
        int fd;
        int expect;
    } cases[] = {
        {"shared ramfs file", MAP_SHARED, fd, EOPNOTSUPP},
        {"private ramfs file", MAP_PRIVATE, fd, 0},
        {"anonymous", MAP_PRIVATE | MAP_ANONYMOUS, -1, 0},
        {"shared anonymous (shmem)", MAP_SHARED | MAP_ANONYMOUS, -1, 0},
        {"memfd (shmem)", MAP_SHARED, memfd, 0},
    };
    for (const Case &c : cases) {
        void *p = mmap(nullptr, 65536, PROT_READ | PROT_WRITE, c.flags, c.fd, 0);
        ASSERT_NE(p, MAP_FAILED) << c.what;
        EXPECT_EQ(try_register(p, 65536), c.expect) << c.what;
        munmap(p, 65536);
    }
    EXPECT_EQ(obj_count("pinned_pages"), 0);

    // A queue ring's mapping is no memory to register.
    {
        RawDev d;
        ASSERT_EQ(d.create_ctx(0, 0), 0);
        uint64_t h;
        struct udma_ring_info sq;
        uint64_t rjfc;
        ASSERT_EQ(d.create_jfc(64, &rjfc), 0);
        ASSERT_EQ(d.create_jfs(rjfc, 64, &h, &sq), 0);
        void *ring = d.map(sq);
        ASSERT_NE(ring, nullptr);
        EXPECT_NE(try_register(ring, sq.mmap_len), 0);
        EXPECT_EQ(obj_count("pinned_pages"), 0);
        munmap(ring, sq.mmap_len);
        EXPECT_EQ(d.destroy(UBURMA_CMD_DELETE_JFS, h), 0);
        EXPECT_EQ(d.destroy(UBURMA_CMD_DELETE_JFC, rjfc), 0);
    }
    EXPECT_EQ(urma_delete_context(ctx), URMA_SUCCESS);
    EXPECT_EQ(urma_uninit(), URMA_SUCCESS);
    close(memfd);
    close(fd);
    unlink(path.c_str());
    EXPECT_EQ(umount(dir.c_str()), 0);
    rmdir(dir.c_str());
}

// Finding 7: a ring mapping is never inherited: madvise(MADV_DOFORK) on it
// fails (EINVAL, the mapping is VM_IO), and a child does not have it.
TEST_F(LimitsTest, RingMappingIsNotInherited)
{
    RawDev d;
    ASSERT_EQ(d.create_ctx(0, 0), 0);
    uint64_t jfc, h;
    struct udma_ring_info sq;
    ASSERT_EQ(d.create_jfc(64, &jfc), 0);
    ASSERT_EQ(d.create_jfs(jfc, 64, &h, &sq), 0);
    void *ring = d.map(sq);
    ASSERT_NE(ring, nullptr);
    errno = 0;
    EXPECT_EQ(madvise(ring, sq.mmap_len, MADV_DOFORK), -1);
    EXPECT_EQ(errno, EINVAL);
    std::string err = in_child([ring, &sq]() -> std::string {
        // msync of an address that is not mapped fails with ENOMEM.
        errno = 0;
        CHILD_EXPECT(msync(ring, sq.mmap_len, MS_ASYNC) == -1 && errno == ENOMEM, "the child has the ring");
        return "";
    });
    EXPECT_EQ(err, "");
    munmap(ring, sq.mmap_len);
    EXPECT_EQ(d.destroy(UBURMA_CMD_DELETE_JFS, h), 0);
    EXPECT_EQ(d.destroy(UBURMA_CMD_DELETE_JFC, jfc), 0);
}

}  // namespace
