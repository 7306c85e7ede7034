// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The UB/URMA stack authors
//
// What a hostile local user can learn and hold up (issue 17, findings 3 and
// 5), against the real modules in the test guest (as root; the unprivileged
// side runs in children as user nobody):
// - RES_GET hides other users' segment addresses, token IDs and owners
//   from a reader without CAP_NET_ADMIN (UBCORE_NL_RES_HIDDEN);
// - a second network namespace sees no UB device: not through netlink, not
//   in a sysfs mounted there, and /dev/uburma refuses it (EPERM); a device
//   on a netdev of that namespace is its alone;
// - a user copy or a pin stalled on a userfaultfd page holds neither the
//   device's removal nor other users' calls.
#include <ub/ubcore_netlink.h>
#include <ub/udma_abi.h>
#include <ub/uburma_ioctl.h>

#include <fcntl.h>
#include <grp.h>
#include <linux/userfaultfd.h>
#include <poll.h>
#include <sched.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <dirent.h>
#include <functional>
#include <future>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "dp_env.h"
#include "stack.h"
#include "ubcore_nl.h"
#include "urma_api.h"
#include "urma_itest.h"

namespace {

using namespace ub_nl;
using std::chrono::milliseconds;

const char *const kDev = "udma0";
const uid_t kNobody = 65534;

// The nested RES attributes of each message of a RES_GET reply.
std::vector<Attrs> res_of(const Reply &r)
{
    std::vector<Attrs> out;
    for (const Msg &m : r.msgs)
        if (m.has(UBCORE_NL_ATTR_RES))
            out.push_back(parse_nested(m.attrs.at(UBCORE_NL_ATTR_RES)));
    return out;
}

Reply res_dump(UbcoreNl &nl, uint8_t type, int64_t id = -1)
{
    Builder b = both(dev_name(kDev), put_u8(UBCORE_NL_ATTR_RES_TYPE, type));
    if (id >= 0)
        b = both(b, put_u32(UBCORE_NL_ATTR_RES_ID, static_cast<uint32_t>(id)));
    return nl.request(UBCORE_NL_CMD_RES_GET, true, b);
}

// Runs fn in a child process and returns its exit status (0: every check
// passed; the child says on stderr what failed). A child that hangs is
// killed after timeout_s.
int in_child(const std::function<int()> &fn, int timeout_s = 60)
{
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        alarm(static_cast<unsigned>(timeout_s));
        _exit(fn());
    }
    int st = 0;
    if (waitpid(pid, &st, 0) != pid)
        return -1;
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

// A check in a child: says what failed and counts it.
#define CHILD_CHECK(cond, fails)                                                \
    do {                                                                        \
        if (!(cond)) {                                                          \
            std::fprintf(stderr, "%s:%d: child check failed: %s\n", __FILE__, \
                         __LINE__, #cond);                                      \
            (fails)++;                                                          \
        }                                                                       \
    } while (0)

// Become user nobody with no capability left (setuid from root to a
// non-zero uid clears the permitted and effective sets).
bool become_nobody()
{
    return setgroups(0, nullptr) == 0 && setresgid(kNobody, kNobody, kNobody) == 0 &&
           setresuid(kNobody, kNobody, kNobody) == 0;
}

class ExposureTest : public ::testing::Test {
protected:
    void SetUp() override
    {
        ASSERT_TRUE(ub_itest::load_stack("lo"));
        ASSERT_TRUE(ub_itest::wait_udma_ready(kDev));
    }
    void TearDown() override { EXPECT_TRUE(ub_itest::unload_stack()); }
};

// Another user's segments come without token ID, VA and owner to a reader
// without CAP_NET_ADMIN; its own come whole; an administrator sees all.
TEST_F(ExposureTest, ResGetHidesOtherUsersSegmentsFromNonAdmins)
{
    const size_t len = 2 * 4096;
    int to_child[2], from_child[2];
    ASSERT_EQ(pipe(to_child), 0);
    ASSERT_EQ(pipe(from_child), 0);

    // The owner as nobody: a context and a segment, then it waits.
    struct Owned {
        uint32_t token_id;
        uint64_t va;
    };
    pid_t owner = fork();
    ASSERT_GE(owner, 0);
    if (owner == 0) {
        alarm(60);
        Owned o{0, 0};
        void *buf = mmap(nullptr, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        urma_context_t *ctx = nullptr;
        urma_target_seg_t *seg = nullptr;
        if (become_nobody() && buf != MAP_FAILED && urma_init(nullptr) == URMA_SUCCESS &&
            (ctx = ub_itest::open_ctx(kDev)) != nullptr) {
            urma_seg_cfg_t cfg = ub_itest::seg_cfg(buf, len);
            seg = urma_register_seg(ctx, &cfg);
        }
        if (seg != nullptr)
            o = {seg->seg.token_id, seg->seg.ubva.va};
        else
            std::perror("owner child: no segment");
        char c;
        if (write(from_child[1], &o, sizeof(o)) != sizeof(o) || read(to_child[0], &c, 1) != 1)
            _exit(2);
        _exit(seg != nullptr ? 0 : 1);
    }
    Owned nobody_seg{};
    ASSERT_EQ(read(from_child[0], &nobody_seg, sizeof(nobody_seg)), static_cast<ssize_t>(sizeof(nobody_seg)));
    ASSERT_NE(nobody_seg.token_id, 0u);

    // Root's segment (3 pages: told apart from nobody's by its length; the
    // two processes may well map their buffers at the same address).
    const size_t root_len = 3 * 4096;
    ASSERT_EQ(urma_init(nullptr), URMA_SUCCESS);
    urma_context_t *ctx = ub_itest::open_ctx(kDev);
    ASSERT_NE(ctx, nullptr);
    void *buf = mmap(nullptr, root_len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    ASSERT_NE(buf, MAP_FAILED);
    urma_seg_cfg_t cfg = ub_itest::seg_cfg(buf, root_len);
    urma_target_seg_t *seg = urma_register_seg(ctx, &cfg);
    ASSERT_NE(seg, nullptr);
    const uint32_t root_token = seg->seg.token_id;
    const uint64_t root_va = reinterpret_cast<uintptr_t>(buf);
    urma_jfc_cfg_t jcfg = ub_itest::jfc_cfg();
    urma_jfc_t *jfc = urma_create_jfc(ctx, &jcfg);
    ASSERT_NE(jfc, nullptr);

    // nobody reads.
    int rc = in_child([&] {
        int fails = 0;
        if (!become_nobody())
            return 100;
        UbcoreNl nl;
        std::string why;
        if (!nl.open(&why)) {
            std::fprintf(stderr, "%s\n", why.c_str());
            return 101;
        }
        Reply r = res_dump(nl, UBCORE_NL_RES_SEG);
        CHILD_CHECK(r.error == 0, fails);
        bool own_seen = false;
        int hidden = 0;
        for (const Attrs &a : res_of(r)) {
            if (a.count(UBCORE_NL_RES_HIDDEN)) {
                hidden++;
                CHILD_CHECK(!a.count(UBCORE_NL_RES_ID), fails);
                CHILD_CHECK(!a.count(UBCORE_NL_RES_VA), fails);
                CHILD_CHECK(!a.count(UBCORE_NL_RES_UASID), fails);
                CHILD_CHECK(!a.count(UBCORE_NL_RES_PID), fails);
                // What is no secret stays: length (root's) and rights.
                CHILD_CHECK(a.count(UBCORE_NL_RES_LEN) && attr_uint(a.at(UBCORE_NL_RES_LEN)) == root_len, fails);
                continue;
            }
            CHILD_CHECK(a.count(UBCORE_NL_RES_ID) && a.count(UBCORE_NL_RES_VA), fails);
            if (!a.count(UBCORE_NL_RES_ID) || !a.count(UBCORE_NL_RES_VA))
                continue;
            // a whole entry is nobody's own: root's token ID never shows
            CHILD_CHECK(attr_uint(a.at(UBCORE_NL_RES_ID)) != root_token, fails);
            CHILD_CHECK(a.count(UBCORE_NL_RES_LEN) && attr_uint(a.at(UBCORE_NL_RES_LEN)) == len, fails);
            if (attr_uint(a.at(UBCORE_NL_RES_ID)) == nobody_seg.token_id &&
                attr_uint(a.at(UBCORE_NL_RES_VA)) == nobody_seg.va)
                own_seen = true;
        }
        CHILD_CHECK(hidden == 1, fails);
        CHILD_CHECK(own_seen, fails);
        // root's token ID does not exist for nobody; its own does.
        CHILD_CHECK(res_dump(nl, UBCORE_NL_RES_SEG, root_token).error == -ENOENT, fails);
        Reply own = res_dump(nl, UBCORE_NL_RES_SEG, nobody_seg.token_id);
        CHILD_CHECK(own.error == 0 && res_of(own).size() == 1, fails);
        // root's JFC: no owner.
        Reply j = res_dump(nl, UBCORE_NL_RES_JFC);
        CHILD_CHECK(j.error == 0 && res_of(j).size() == 1, fails);
        for (const Attrs &a : res_of(j)) {
            CHILD_CHECK(a.count(UBCORE_NL_RES_HIDDEN), fails);
            CHILD_CHECK(!a.count(UBCORE_NL_RES_UASID) && !a.count(UBCORE_NL_RES_PID), fails);
        }
        return fails;
    });
    EXPECT_EQ(rc, 0) << "the unprivileged reader's checks failed (stderr above)";

    // root (CAP_NET_ADMIN) sees both whole.
    UbcoreNl nl;
    std::string why;
    ASSERT_TRUE(nl.open(&why)) << why;
    Reply r = res_dump(nl, UBCORE_NL_RES_SEG);
    ASSERT_EQ(r.error, 0) << r.extack;
    std::map<uint64_t, uint64_t> va_of;  // token ID -> VA
    for (const Attrs &a : res_of(r)) {
        EXPECT_EQ(a.count(UBCORE_NL_RES_HIDDEN), 0u);
        ASSERT_TRUE(a.count(UBCORE_NL_RES_ID) && a.count(UBCORE_NL_RES_VA) && a.count(UBCORE_NL_RES_UASID));
        va_of[attr_uint(a.at(UBCORE_NL_RES_ID))] = attr_uint(a.at(UBCORE_NL_RES_VA));
    }
    EXPECT_EQ(va_of, (std::map<uint64_t, uint64_t>{{root_token, root_va}, {nobody_seg.token_id, nobody_seg.va}}));

    ASSERT_EQ(write(to_child[1], "x", 1), 1);
    int st = 0;
    ASSERT_EQ(waitpid(owner, &st, 0), owner);
    EXPECT_TRUE(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    for (int fd : {to_child[0], to_child[1], from_child[0], from_child[1]})
        close(fd);
    EXPECT_EQ(urma_delete_jfc(jfc), URMA_SUCCESS);
    EXPECT_EQ(urma_unregister_seg(seg), URMA_SUCCESS);
    EXPECT_EQ(urma_delete_context(ctx), URMA_SUCCESS);
    EXPECT_EQ(urma_uninit(), URMA_SUCCESS);
    munmap(buf, root_len);
}

// The entries of a directory, "." and ".." left out.
std::set<std::string> dir_entries(const std::string &path)
{
    std::set<std::string> out;
    DIR *d = opendir(path.c_str());
    if (d == nullptr)
        return out;
    while (dirent *e = readdir(d))
        if (std::strcmp(e->d_name, ".") != 0 && std::strcmp(e->d_name, "..") != 0)
            out.insert(e->d_name);
    closedir(d);
    return out;
}

// A new network namespace with its own sysfs (and mount namespace).
bool enter_new_netns()
{
    return unshare(CLONE_NEWNET | CLONE_NEWNS) == 0 && mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) == 0 &&
           mount("sysfs", "/sys", "sysfs", 0, nullptr) == 0;
}

// The devices a DEV_GET dump lists.
std::set<std::string> dev_names(UbcoreNl &nl, int *error)
{
    std::set<std::string> out;
    Reply r = nl.request(UBCORE_NL_CMD_DEV_GET, true);
    *error = r.error;
    for (const Msg &m : r.msgs)
        if (m.has(UBCORE_NL_ATTR_DEV_NAME))
            out.insert(m.str(UBCORE_NL_ATTR_DEV_NAME));
    return out;
}

// A second network namespace sees none of the first's devices; a device on
// a netdev of the second is seen there only.
TEST_F(ExposureTest, SecondNetnsSeesNoDeviceAndOwnsItsOwn)
{
    int to_child[2], from_child[2];
    ASSERT_EQ(pipe(to_child), 0);
    ASSERT_EQ(pipe(from_child), 0);
    pid_t child = fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
        alarm(60);
        int fails = 0;
        char c = 'x';
        if (!enter_new_netns()) {
            std::perror("new netns");
            _exit(100);
        }
        UbcoreNl nl;
        std::string why;
        if (!nl.open(&why)) {
            std::fprintf(stderr, "%s\n", why.c_str());
            _exit(101);
        }
        int err = 0;
        CHILD_CHECK(dev_names(nl, &err).empty() && err == 0, fails);
        CHILD_CHECK(nl.request(UBCORE_NL_CMD_DEV_GET, false, dev_name(kDev)).error == -ENODEV, fails);
        CHILD_CHECK(nl.request(UBCORE_NL_CMD_EID_GET, true, dev_name(kDev)).error == -ENODEV, fails);
        CHILD_CHECK(res_dump(nl, UBCORE_NL_RES_JFC).error == -ENODEV, fails);
        Reply sys = nl.request(UBCORE_NL_CMD_SYS_GET, false);
        CHILD_CHECK(sys.error == 0 && sys.msgs.size() == 1, fails);
        if (sys.msgs.size() == 1) {
            CHILD_CHECK(sys.msgs[0].u32(UBCORE_NL_ATTR_SYS_DEV_COUNT) == 0, fails);
            CHILD_CHECK(sys.msgs[0].u8(UBCORE_NL_ATTR_SYS_NS_MODE) == UBCORE_NL_NS_EXCLUSIVE, fails);
        }
        // sysfs mounted here: the classes hold no device, abi_version stays.
        CHILD_CHECK(dir_entries("/sys/class/ubcore") == std::set<std::string>{"abi_version"}, fails);
        CHILD_CHECK(ub_itest::sysfs_long("/sys/class/ubcore/abi_version") == 1, fails);
        CHILD_CHECK(dir_entries("/sys/class/uburma").empty(), fails);
        // The node is in /dev (devtmpfs knows no namespace): open refuses.
        errno = 0;
        int fd = open("/dev/uburma/udma0", O_RDWR);
        CHILD_CHECK(fd < 0 && errno == EPERM, fails);
        if (fd >= 0)
            close(fd);

        // A device of this namespace, on a veth end here.
        CHILD_CHECK(ub_itest::run("ip link add nsx0 type veth peer name nsx1 && ip link set nsx0 up") == 0,
                    fails);
        Reply add = nl.request(UBCORE_NL_CMD_DEV_ADD, false,
                               both(both(dev_name("nsudma0"), put_str(UBCORE_NL_ATTR_NETDEV_NAME, "nsx0")),
                                    put_str(UBCORE_NL_ATTR_LINK_TYPE, "udma")));
        CHILD_CHECK(add.error == 0, fails);
        CHILD_CHECK(dev_names(nl, &err) == std::set<std::string>{"nsudma0"}, fails);
        CHILD_CHECK(dir_entries("/sys/class/ubcore").count("nsudma0") == 1, fails);
        CHILD_CHECK(ub_itest::wait_for([] { return dir_entries("/sys/class/uburma").count("nsudma0") == 1; }),
                    fails);
        fd = open("/dev/uburma/nsudma0", O_RDWR);
        CHILD_CHECK(fd >= 0, fails);
        if (fd >= 0)
            close(fd);
        // The parent looks now.
        if (write(from_child[1], &c, 1) != 1 || read(to_child[0], &c, 1) != 1)
            _exit(102);
        CHILD_CHECK(nl.request(UBCORE_NL_CMD_DEV_DEL, false, dev_name("nsudma0")).error == 0, fails);
        _exit(fails);
    }
    char c;
    ASSERT_EQ(read(from_child[0], &c, 1), 1);
    // The first namespace sees its udma0, not the child's device.
    UbcoreNl nl;
    std::string why;
    ASSERT_TRUE(nl.open(&why)) << why;
    int err = 0;
    std::set<std::string> names = dev_names(nl, &err);
    EXPECT_EQ(err, 0);
    EXPECT_EQ(names.count(kDev), 1u);
    EXPECT_EQ(names.count("nsudma0"), 0u);
    EXPECT_EQ(nl.request(UBCORE_NL_CMD_DEV_GET, false, dev_name("nsudma0")).error, -ENODEV);
    EXPECT_EQ(nl.request(UBCORE_NL_CMD_DEV_DEL, false, dev_name("nsudma0")).error, -ENODEV);
    EXPECT_EQ(dir_entries("/sys/class/ubcore").count("nsudma0"), 0u);
    EXPECT_EQ(dir_entries("/sys/class/ubcore").count("abi_version"), 1u);
    EXPECT_EQ(dir_entries("/sys/class/uburma").count("nsudma0"), 0u);
    errno = 0;
    int fd = open("/dev/uburma/nsudma0", O_RDWR);
    EXPECT_TRUE(fd < 0 && errno == EPERM) << "open of another namespace's device: fd " << fd << " errno " << errno;
    if (fd >= 0)
        close(fd);
    Reply sys = nl.request(UBCORE_NL_CMD_SYS_GET, false);
    ASSERT_EQ(sys.msgs.size(), 1u);
    EXPECT_EQ(sys.msgs[0].u32(UBCORE_NL_ATTR_SYS_DEV_COUNT), 1u);

    ASSERT_EQ(write(to_child[1], "x", 1), 1);
    int st = 0;
    ASSERT_EQ(waitpid(child, &st, 0), child);
    EXPECT_TRUE(WIFEXITED(st) && WEXITSTATUS(st) == 0) << "the child's checks failed (stderr above), status " << st;
    for (int fdp : {to_child[0], to_child[1], from_child[0], from_child[1]})
        close(fdp);
    // The namespace is gone with its veth, and the device with them.
    EXPECT_TRUE(ub_itest::wait_for([] {
        UbcoreNl n;
        std::string w;
        return n.open(&w) && n.request(UBCORE_NL_CMD_SYS_GET, false).msgs.at(0).u32(UBCORE_NL_ATTR_SYS_DEV_COUNT) == 1;
    }));
}

// --- Stalled user copies --------------------------------------------------

// A userfaultfd range whose pages never arrive until release().
class StalledRange {
public:
    explicit StalledRange(size_t len) : len_(len)
    {
        fd_ = static_cast<int>(syscall(SYS_userfaultfd, O_CLOEXEC | O_NONBLOCK));
        if (fd_ < 0)
            return;
        uffdio_api api = {};
        api.api = UFFD_API;
        if (ioctl(fd_, UFFDIO_API, &api) != 0)
            return;
        void *m = mmap(nullptr, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (m == MAP_FAILED)
            return;
        uffdio_register reg = {};
        reg.range.start = reinterpret_cast<uintptr_t>(m);
        reg.range.len = len;
        reg.mode = UFFDIO_REGISTER_MODE_MISSING;
        if (ioctl(fd_, UFFDIO_REGISTER, &reg) != 0) {
            munmap(m, len);
            return;
        }
        mem_ = m;
    }
    StalledRange(const StalledRange &) = delete;
    StalledRange &operator=(const StalledRange &) = delete;
    ~StalledRange()
    {
        release();
        if (mem_ != nullptr)
            munmap(mem_, len_);
        if (fd_ >= 0)
            close(fd_);
    }

    bool ok() const { return mem_ != nullptr; }
    void *mem() const { return mem_; }
    uint64_t addr() const { return reinterpret_cast<uintptr_t>(mem_); }

    // Whether a fault on the range arrived within timeout_ms.
    bool wait_fault(int timeout_ms)
    {
        pollfd p = {fd_, POLLIN, 0};
        if (poll(&p, 1, timeout_ms) != 1)
            return false;
        uffd_msg msg;
        return read(fd_, &msg, sizeof(msg)) == sizeof(msg) && msg.event == UFFD_EVENT_PAGEFAULT;
    }

    // The pages arrive (zero pages): the stalled copy goes on.
    void release()
    {
        if (mem_ == nullptr || released_)
            return;
        uffdio_zeropage z = {};
        z.range.start = addr();
        z.range.len = len_;
        ioctl(fd_, UFFDIO_ZEROPAGE, &z);
        released_ = true;
    }

private:
    int fd_ = -1;
    void *mem_ = nullptr;
    size_t len_;
    bool released_ = false;
};

// One UBURMA_CMD ioctl; -errno or 0.
template <typename T> int uburma_cmd(int fd, uint32_t cmd, T *args)
{
    uburma_cmd_hdr hdr = {};
    hdr.command = cmd;
    hdr.args_len = sizeof(*args);
    hdr.args_addr = reinterpret_cast<uintptr_t>(args);
    return ioctl(fd, UBURMA_CMD, &hdr) == 0 ? 0 : -errno;
}

int create_ctx(int fd)
{
    uburma_cmd_create_ctx c = {};
    c.in.eid_index = 0;
    c.in.uasid = static_cast<uint32_t>(getpid());
    int ret = uburma_cmd(fd, UBURMA_CMD_CREATE_CTX, &c);
    if (ret == 0)
        close(c.out.async_fd);
    return ret;
}

int query_device(int fd)
{
    uburma_cmd_query_device q = {};
    return uburma_cmd(fd, UBURMA_CMD_QUERY_DEVICE, &q);
}

// The commands of the stall tests, each with its user memory in the
// stalled range (fd has a context). REGISTER_SEG is not among them although
// its pages are pinned outside the locks too: on 6.1 a long-term pin
// (FOLL_LONGTERM) of a userfaultfd range fails at once with EFAULT (GUP
// faults without FAULT_FLAG_ALLOW_RETRY, which userfaultfd needs to wait),
// so userfaultfd cannot stall it; a FUSE mapping could.
int stall_create_jfc_resp(int fd, const StalledRange &r, size_t)
{
    uburma_cmd_create_jfc c = {};
    c.in.depth = 64;
    c.in.jfce_fd = -1;
    c.in.udata.out_addr = r.addr();
    c.in.udata.out_len = sizeof(udma_create_jfc_resp);
    return uburma_cmd(fd, UBURMA_CMD_CREATE_JFC, &c);
}

int stall_eid_list(int fd, const StalledRange &r, size_t)
{
    uburma_cmd_get_eid_list g = {};
    g.in.max_cnt = 4;
    g.in.eids_addr = r.addr();
    return uburma_cmd(fd, UBURMA_CMD_GET_EID_LIST, &g);
}

struct StallCase {
    const char *name;
    int (*op)(int fd, const StalledRange &r, size_t len);
    // its result once released: a copy out waits after the command did
    // its work (which the removal undid since)
    int want;
};

class StallTest : public ExposureTest, public ::testing::WithParamInterface<StallCase> {};

// How long removal and another user's call may take while a copy is
// stalled (the guest is slow, TCG under a debug kernel: generous, but far
// from "for ever").
constexpr int kBoundMs = 8000;

template <typename F> bool done_within(F &f, int ms)
{
    return f.wait_for(milliseconds(ms)) == std::future_status::ready;
}

// A command stalled on a userfaultfd page holds neither the device's
// removal (DEV_DEL) nor another user's calls; released, it fails cleanly.
TEST_P(StallTest, StalledCopyDoesNotBlockRemovalOrOthers)
{
    const size_t len = 4 * 4096;
    StalledRange range(len);
    ASSERT_TRUE(range.ok()) << "userfaultfd: " << std::strerror(errno);

    // Closed on every way out, so that the stack can be unloaded.
    struct Fd {
        int fd;
        ~Fd()
        {
            if (fd >= 0)
                close(fd);
        }
    } fd_guard{open("/dev/uburma/udma0", O_RDWR | O_CLOEXEC)}, other_guard{open("/dev/uburma/udma0", O_RDWR | O_CLOEXEC)};
    const int fd = fd_guard.fd, other = other_guard.fd;
    ASSERT_GE(fd, 0);
    ASSERT_GE(other, 0);
    ASSERT_EQ(create_ctx(fd), 0);
    ASSERT_EQ(create_ctx(other), 0);

    std::future<int> stalled = std::async(std::launch::async, [&] { return GetParam().op(fd, range, len); });
    std::future<int> del, late;
    // Whatever fails below, the fault is released before the futures are
    // waited for (destroyed after this guard).
    struct Release {
        StalledRange &r;
        ~Release() { r.release(); }
    } release{range};

    ASSERT_TRUE(range.wait_fault(kBoundMs)) << "the command did not touch the stalled range";
    // Another user, before removal.
    std::future<int> q = std::async(std::launch::async, [&] { return query_device(other); });
    ASSERT_TRUE(done_within(q, kBoundMs)) << "another user's QUERY_DEVICE is held by the stalled copy";
    EXPECT_EQ(q.get(), 0);

    // Removal of the device.
    del = std::async(std::launch::async, [] {
        UbcoreNl nl;
        std::string why;
        if (!nl.open(&why))
            return -1000;
        return nl.request(UBCORE_NL_CMD_DEV_DEL, false, dev_name(kDev)).error;
    });
    EXPECT_TRUE(done_within(del, kBoundMs)) << "DEV_DEL is held by the stalled copy";
    // Another user's call while (or after) the device goes: an answer, not a wait.
    late = std::async(std::launch::async, [&] { return query_device(other); });
    EXPECT_TRUE(done_within(late, kBoundMs)) << "another user's call is held by the stalled copy";

    range.release();
    ASSERT_TRUE(done_within(stalled, kBoundMs));
    ASSERT_TRUE(done_within(del, kBoundMs));
    ASSERT_TRUE(done_within(late, kBoundMs));
    EXPECT_EQ(del.get(), 0);
    EXPECT_EQ(late.get(), -EIO);
    EXPECT_EQ(stalled.get(), GetParam().want);
    EXPECT_EQ(access("/sys/class/ubcore/udma0", F_OK), -1);
}

INSTANTIATE_TEST_SUITE_P(Commands, StallTest,
                         ::testing::Values(StallCase{"CreateJfcResponse", stall_create_jfc_resp, 0},
                                           StallCase{"GetEidList", stall_eid_list, 0}),
                         [](const ::testing::TestParamInfo<StallCase> &i) { return std::string(i.param.name); });

// --- Token brute force ----------------------------------------------------

namespace brute {

using ub_itest::DpTest;
using ub_itest::Region;
using ub_itest::write_sysfs;

const std::string kAf = "/sys/class/ubcore/udma0/access_fail/";

std::vector<std::string> lines_of(const std::string &path)
{
    std::vector<std::string> out;
    FILE *f = std::fopen(path.c_str(), "r");
    if (f == nullptr)
        return out;
    char buf[256];
    while (std::fgets(buf, sizeof(buf), f) != nullptr)
        out.emplace_back(buf);
    std::fclose(f);
    return out;
}

class BruteForce : public DpTest {
protected:
    void TearDown() override
    {
        EXPECT_TRUE(write_sysfs(kAf + "threshold", "256"));
        DpTest::TearDown();
    }

    // One WRITE of 64 bytes from src to va of remote, on a JFS of its own
    // (a refused access puts its JFS in ERROR).
    urma_cr_status_t write64(urma_target_seg_t *remote, uint64_t va, const Region &src)
    {
        urma_jfs_cfg_t c = ub_itest::jfs_cfg(scq_, 16);
        urma_jfs_t *jfs = urma_create_jfs(ctx_, &c);
        EXPECT_NE(jfs, nullptr);
        if (jfs == nullptr)
            return static_cast<urma_cr_status_t>(0xff);
        urma_jfs_wr_flag_t f = {};
        f.bs.complete_enable = 1;
        EXPECT_EQ(urma_write(jfs, tjfr_, remote, src.reg, va, src.va(), 64, f, 42), URMA_SUCCESS);
        urma_cr_t cr = wait_cr(scq_);
        EXPECT_EQ(urma_delete_jfs(jfs), URMA_SUCCESS);
        return cr.status;
    }

    // The next async event of the context within ms, if any.
    bool async_event(urma_async_event_t *ev, int ms)
    {
        pollfd p = {ctx_->async_fd, POLLIN, 0};
        return poll(&p, 1, ms) == 1 && urma_get_async_event(ctx_, ev) == URMA_SUCCESS;
    }
};

// Wrong tokens against one segment: each is refused and counted; the one
// that reaches the threshold invalidates the segment (the right token is
// refused from then on) and its owner gets URMA_EVENT_SEG_INVALID; other
// segments stay as they were.
TEST_F(BruteForce, WrongTokensTripTheThresholdAndInvalidateTheSegment)
{
    // The default, as access_fail.c and the sysfs documentation give it.
    EXPECT_EQ(ub_itest::sysfs_long(kAf + "threshold"), 256);
    const long total0 = ub_itest::sysfs_long(kAf + "total");
    const long inval0 = ub_itest::sysfs_long(kAf + "segs_invalidated");
    ASSERT_GE(total0, 0);
    ASSERT_GE(inval0, 0);
    const int kThreshold = 8;
    ASSERT_TRUE(write_sysfs(kAf + "threshold", std::to_string(kThreshold)));
    EXPECT_EQ(ub_itest::sysfs_long(kAf + "threshold"), kThreshold);

    Region &src = region(4096);
    Region &dst = region(4096);
    Region &other = region(4096);
    ASSERT_NE(dst.imp, nullptr);
    ASSERT_NE(other.imp, nullptr);
    ub_itest::fill(src.buf, 4096, 7);
    std::memset(dst.buf, 0xee, 4096);
    // Each guess imports the segment with another token, as a peer would.
    uint32_t next_guess = ub_itest::kSegToken + 1;
    auto guess = [&] {
        urma_token_t t = {next_guess++};
        urma_import_seg_flag_t f = {};
        f.bs.access = ub_itest::kAllAccess;
        f.bs.mapping = URMA_SEG_NOMAP;
        urma_target_seg_t *imp = urma_import_seg(ctx_, &dst.reg->seg, &t, 0, f);
        EXPECT_NE(imp, nullptr);
        if (imp == nullptr)
            return static_cast<urma_cr_status_t>(0xff);
        urma_cr_status_t st = write64(imp, dst.va(), src);
        EXPECT_EQ(urma_unimport_seg(imp), URMA_SUCCESS);
        return st;
    };

    urma_async_event_t ev;
    for (int i = 0; i < kThreshold - 1; i++)
        EXPECT_EQ(guess(), URMA_CR_REM_ACCESS_ABORT_ERR) << "guess " << i;
    // One short of the threshold: still valid, no event.
    EXPECT_FALSE(async_event(&ev, 200));
    EXPECT_EQ(write64(dst.imp, dst.va(128), src), URMA_CR_SUCCESS);
    EXPECT_EQ(std::memcmp(dst.buf + 128, src.buf, 64), 0);
    EXPECT_EQ(ub_itest::sysfs_long(kAf + "segs_invalidated"), inval0);

    // The guess that reaches it.
    EXPECT_EQ(guess(), URMA_CR_REM_ACCESS_ABORT_ERR);
    ASSERT_TRUE(async_event(&ev, 5000)) << "no async event for the invalidated segment";
    EXPECT_EQ(ev.event_type, URMA_EVENT_SEG_INVALID);
    EXPECT_EQ(ev.element.tseg, dst.reg);
    urma_ack_async_event(&ev);
    // From now on even the right token is refused; other segments are not.
    std::memset(dst.buf, 0xee, 4096);
    EXPECT_EQ(write64(dst.imp, dst.va(), src), URMA_CR_REM_ACCESS_ABORT_ERR);
    EXPECT_EQ(ub_itest::first_not(dst.buf, 4096, 0xee), 4096u);
    EXPECT_EQ(write64(other.imp, other.va(), src), URMA_CR_SUCCESS);

    // Counters: every refusal (the threshold's worth and the right token
    // after), one segment invalidated, all from the one source EID.
    EXPECT_EQ(ub_itest::sysfs_long(kAf + "total"), total0 + kThreshold + 1);
    EXPECT_EQ(ub_itest::sysfs_long(kAf + "segs_invalidated"), inval0 + 1);
    std::vector<std::string> srcs = lines_of(kAf + "sources");
    ASSERT_EQ(srcs.size(), 1u);
    EXPECT_NE(srcs[0].find(" " + std::to_string(total0 + kThreshold + 1) + "\n"), std::string::npos) << srcs[0];
    // RES_GET has the segment's own count (an administrator reads).
    UbcoreNl nl;
    std::string why;
    ASSERT_TRUE(nl.open(&why)) << why;
    Reply r = res_dump(nl, UBCORE_NL_RES_SEG, dst.reg->seg.token_id);
    ASSERT_EQ(r.error, 0) << r.extack;
    std::vector<Attrs> segs = res_of(r);
    ASSERT_EQ(segs.size(), 1u);
    ASSERT_TRUE(segs[0].count(UBCORE_NL_RES_ACCESS_FAIL));
    EXPECT_EQ(attr_uint(segs[0].at(UBCORE_NL_RES_ACCESS_FAIL)), static_cast<uint64_t>(kThreshold));
}

}  // namespace brute

}  // namespace
