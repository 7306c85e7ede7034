// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The UB/URMA stack authors
//
// ub_fault_inject: the stack under the kernel's fault injection (failslab,
// fail_page_alloc, fail_usercopy; Documentation/fault-injection), run in
// the test guest as root against the loaded stack.
//
// A scenario walks every allocation path of the stack, one call a step:
// open, context, JFCE, JFC, JFS, JFR, jetty (creates and ring mmaps), token
// ID, segment registration, imports of segment, JFR and jetty, a WRITE
// through the mapped SQ and its doorbell, re-arm, query, every unimport and
// delete, close; and through netlink SYS_GET, DEV_GET, EID_GET and RES_GET
// dumps, EID_ADD/EID_DEL, DEV_DEL and DEV_ADD.
//
// Sweep (--sweep): for every step and n = 1, 2, ... the steps before it run
// without faults, then the step runs with /proc/thread-self/fail-nth = n
// (with --sweep-stride K only every K-th n, from 1 + seed % K: "make
// check" takes K = 2):
// the n-th fault point the step reaches (an allocation of any kind, a copy
// from or to user memory) fails. Until n passes the last fault point of the
// step (fail-nth left unconsumed), each failure must come back to the
// caller as a documented errno with every object count unchanged, or, if
// the call succeeded anyway (the fault was absorbed), with exactly the
// objects the call makes. Then everything is closed and every count must
// be back to 0.
//
// Device sweep (--device-sweep): DEV_ADD then DEV_DEL of udma0 the same way,
// n = 1 .. 400 (DEV_ADD has more fault points than that). With
// --device-stride K only every K-th n, from 1 + seed % K: "make check"
// takes K = 4 (a quarter of the time; another seed, other points), "make
// check-long" every one.
//
// Random (--random-rounds N): N rounds of the whole scenario with the
// fault attributes' probability (--probability, percent), interval 1,
// times -1, task-filter on and make-it-fail set on this process around
// each step only; a failed step ends the round, with the same checks.
//
// The kernel's side (KASAN, lockdep, kmemleak, WARN, a clean unload) is
// judged by the harness (tests/guest/cases/fault-injection.sh). Prints a
// table of the steps: fault points, errors seen (by errno), faults absorbed.
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>

#include <array>
#include <cinttypes>
#include <functional>
#include <map>

#include <ub/udma_abi.h>

#include "fuzz_util.h"
#include "nl_util.h"
#include "ub_raw_cmd.h"

namespace {

using namespace ub_fuzz;

constexpr size_t kPage = 4096;
constexpr size_t kBufLen = 4 * kPage;
const char *const kDev = "udma0";
const char *const kDebugfs = "/sys/kernel/debug";
const char *const kAttrs[] = {"failslab", "fail_page_alloc", "fail_usercopy"};

// Object counts of udma0 (ub_test::kObjKinds), indexed by these.
using Counts = ub_test::ObjCounts;
enum { C_CTX, C_JFC, C_JFS, C_JFR, C_JETTY, C_TID, C_SEG, C_TSEG, C_TJFR, C_TJETTY, C_PINNED, C_JETTY_GRP };
static_assert(C_JETTY_GRP + 1 == ub_test::kNumObjKinds, "a count for every kind");

// Sentinels of the steps' own checks.
constexpr int kNoResult = -EPROTO;   // "succeeded" without its effect
constexpr int kHalfDone = -EUCLEAN;  // "failed" with its effect left
constexpr uint32_t kEidIndex = 9;
const std::string kEidPath = std::string("/sys/class/ubcore/") + kDev + "/eids/eid9";

// Whether udma0's EID table has an entry at kEidIndex (EID_GET).
bool eid_present(uint16_t fam)
{
    Bytes m = genl_msg(fam, UBCORE_NL_CMD_EID_GET, NLM_F_DUMP);
    put_str(m, UBCORE_NL_ATTR_DEV_NAME, kDev);
    return nl_dump_has_u32(m, UBCORE_NL_ATTR_EID_INDEX, kEidIndex);
}

// Errors of a netlink request whose answer was lost on the way back.
bool reply_lost(int r)
{
    return r == -ENOBUFS || r == -ETIMEDOUT || r == -EBADMSG || r == -EFAULT || r == -ENOMEM;
}

Counts counts() { return ub_test::obj_counts(kDev); }

using ub_test::counts_str;
using ub_test::write_sysfs;

bool exists(const std::string &path)
{
    struct stat st;
    return stat(path.c_str(), &st) == 0;
}

// Whether sysfs eids/ shows kEidIndex exactly when the EID table (EID_GET)
// has it, within 2 s: ubcore updates eids/ after the table, and retries an
// update that failed (ubcore_eid_sysfs_update()).
bool eid_sysfs_agrees(uint16_t fam)
{
    for (int i = 0; i < 200; i++) {
        if (eid_present(fam) == exists(kEidPath))
            return true;
        usleep(10000);
    }
    return eid_present(fam) == exists(kEidPath);
}

// The fault window: fail-nth (sweep) or make-it-fail (random) on this
// thread around one step. The files are opened once, before any fault.
class Faults {
public:
    bool init(unsigned probability)
    {
        nth_fd_ = open("/proc/thread-self/fail-nth", O_RDWR | O_CLOEXEC);
        mif_fd_ = open("/proc/thread-self/make-it-fail", O_RDWR | O_CLOEXEC);
        if (nth_fd_ < 0 || mif_fd_ < 0) {
            std::printf("no /proc/thread-self/fail-nth or make-it-fail: %s\n", std::strerror(errno));
            return false;
        }
        for (const char *a : kAttrs) {
            std::string d = std::string(kDebugfs) + "/" + a + "/";
            if (!exists(d)) {
                std::printf("fault injection %s missing (%s)\n", a, d.c_str());
                return false;
            }
            // verbose 0: no "forcing a failure" and no stack in the log
            // for each injected fault (a stack dump reads like a bug).
            bool ok = write_sysfs(d + "verbose", "0") && write_sysfs(d + "probability", std::to_string(probability)) &&
                      write_sysfs(d + "interval", "1") && write_sysfs(d + "times", "-1") &&
                      write_sysfs(d + "space", "0") && write_sysfs(d + "task-filter", "Y");
            if (std::string(a) != "fail_usercopy")
                ok = ok && write_sysfs(d + "ignore-gfp-wait", "N");
            if (std::string(a) == "fail_page_alloc")
                ok = ok && write_sysfs(d + "ignore-gfp-highmem", "N") && write_sysfs(d + "min-order", "0");
            if (!ok) {
                std::printf("cannot set up %s: %s\n", a, std::strerror(errno));
                return false;
            }
        }
        return true;
    }

    static void off()
    {
        for (const char *a : kAttrs)
            write_sysfs(std::string(kDebugfs) + "/" + a + "/probability", "0");
    }

    // Sweep: the n-th fault point from now fails.
    void arm_nth(unsigned n) { set(nth_fd_, n); }
    // True when the armed fault was injected; disarms.
    bool nth_injected()
    {
        char buf[32] = {};
        // The value is formatted before it is copied out: a copy that the
        // armed fault fails (EFAULT) means it had not been injected before.
        ssize_t r = pread(nth_fd_, buf, sizeof(buf) - 1, 0);
        bool injected = r > 0 && std::strtoul(buf, nullptr, 10) == 0;
        // Writing copies from user memory, one more fault point: at worst
        // that consumes the fault, and then it is 0 as well.
        set(nth_fd_, 0);
        return injected;
    }
    void make_it_fail(bool on) { set(mif_fd_, on ? 1 : 0); }

private:
    static void set(int fd, unsigned v)
    {
        std::string s = std::to_string(v);
        // The write's own copy from user memory may be failed (EFAULT);
        // try again.
        for (int i = 0; i < 100; i++)
            if (pwrite(fd, s.c_str(), s.size(), 0) == static_cast<ssize_t>(s.size()))
                return;
    }
    int nth_fd_ = -1, mif_fd_ = -1;
};

// What a scenario has made so far.
struct State {
    int fd = -1, async_fd = -1, jfce = -1;
    uint64_t jfc = 0, jfs = 0, jfr = 0, jetty = 0, tid = 0, seg = 0, tseg = 0, tjfr = 0, tjetty = 0;
    uint32_t jfr_id = 0, jetty_id = 0, token_id = 0, tseg_idx = 0, tjfr_idx = 0;
    udma_ring_info cq = {}, sq = {}, rq = {};
    void *cq_map = nullptr, *sq_map = nullptr, *rq_map = nullptr;
    uburma_eid_info eid = {};
    uint8_t *buf = nullptr;  // kBufLen, registered as the segment

    void close_all()
    {
        for (auto *m : {&cq_map, &sq_map, &rq_map})
            if (*m != nullptr) {
                munmap(*m, m == &cq_map ? cq.mmap_len : m == &sq_map ? sq.mmap_len : rq.mmap_len);
                *m = nullptr;
            }
        for (int *f : {&fd, &async_fd, &jfce})
            if (*f >= 0) {
                close(*f);
                *f = -1;
            }
        uint8_t *b = buf;
        *this = State();
        buf = b;
    }
};

// A step: the call (0 or -errno) and the counts a success adds.
struct Step {
    const char *name;
    std::function<int(State &)> run;
    std::map<int, long> delta;  // index into Counts -> change on success
    // A delete whose result (the event counts) cannot be written back:
    // EFAULT, with the object deleted all the same (uburma_ioctl.h).
    bool efault_done = false;
};

int cmd(State &s, uint32_t c, void *args, uint32_t len) { return ub_cmd(s.fd, c, args, len); }

// A command with provider data: the provider's response goes to *resp.
template <typename C, typename R> int cmd_resp(State &s, uint32_t command, C &c, R *resp)
{
    ub_test::set_resp(c, resp);
    return cmd(s, command, &c, sizeof(c));
}

int do_mmap(State &s, const udma_ring_info &r, void **out)
{
    void *p = mmap(nullptr, r.mmap_len, PROT_READ | PROT_WRITE, MAP_SHARED, s.fd, static_cast<off_t>(r.mmap_offset));
    if (p == MAP_FAILED)
        return -errno;
    *out = p;
    // The mapping works: the ring's control page reads.
    return static_cast<volatile udma_ring_ctrl *>(p)->reserved0[0] == 0 ? 0 : kNoResult;
}

uburma_jfs_cfg jfs_cfg()
{
    uburma_jfs_cfg c = ub_test::raw_jfs_cfg(16);
    c.rnr_retry = 7;
    c.err_timeout = 17;
    return c;
}

std::vector<Step> ioctl_steps()
{
    std::vector<Step> v;
    v.push_back({"open", [](State &s) {
                     s.fd = open((std::string("/dev/uburma/") + kDev).c_str(), O_RDWR | O_CLOEXEC);
                     return s.fd >= 0 ? 0 : -errno;
                 }, {}});
    v.push_back({"get_eid_list", [](State &s) {
                     uburma_eid_info e[4] = {};
                     uburma_cmd_get_eid_list c = {};
                     c.in.max_cnt = 4;
                     c.in.eids_addr = reinterpret_cast<uintptr_t>(e);
                     int r = cmd(s, UBURMA_CMD_GET_EID_LIST, &c, sizeof(c));
                     if (r == 0 && c.out.cnt == 0)
                         return -ENODATA;
                     s.eid = e[0];
                     return r;
                 }, {}});
    v.push_back({"create_ctx", [](State &s) {
                     uburma_cmd_create_ctx c = {};
                     c.in.eid_index = s.eid.eid_index;
                     c.in.uasid = static_cast<uint32_t>(getpid());
                     int r = cmd(s, UBURMA_CMD_CREATE_CTX, &c, sizeof(c));
                     if (r == 0)
                         s.async_fd = c.out.async_fd;
                     return r;
                 }, {{C_CTX, 1}}});
    v.push_back({"create_jfce", [](State &s) {
                     uburma_cmd_create_jfce c = {};
                     int r = cmd(s, UBURMA_CMD_CREATE_JFCE, &c, sizeof(c));
                     if (r == 0)
                         s.jfce = c.out.fd;
                     return r;
                 }, {}});
    v.push_back({"create_jfc", [](State &s) {
                     udma_create_jfc_resp resp = {};
                     uburma_cmd_create_jfc c = ub_test::raw_jfc_args(&resp, 64, s.jfce);
                     int r = cmd(s, UBURMA_CMD_CREATE_JFC, &c, sizeof(c));
                     s.jfc = c.out.handle;
                     s.cq = resp.cq;
                     return r;
                 }, {{C_JFC, 1}}});
    v.push_back({"mmap_cq", [](State &s) { return do_mmap(s, s.cq, &s.cq_map); }, {}});
    v.push_back({"create_jfs", [](State &s) {
                     udma_create_jfs_resp resp = {};
                     uburma_cmd_create_jfs c = ub_test::raw_jfs_args(s.jfc, &resp, jfs_cfg());
                     int r = cmd(s, UBURMA_CMD_CREATE_JFS, &c, sizeof(c));
                     s.jfs = c.out.handle;
                     s.sq = resp.sq;
                     return r;
                 }, {{C_JFS, 1}}});
    v.push_back({"mmap_sq", [](State &s) { return do_mmap(s, s.sq, &s.sq_map); }, {}});
    v.push_back({"create_jfr", [](State &s) {
                     udma_create_jfr_resp resp = {};
                     uburma_cmd_create_jfr c = ub_test::raw_jfr_args(s.jfc, &resp);
                     int r = cmd(s, UBURMA_CMD_CREATE_JFR, &c, sizeof(c));
                     s.jfr = c.out.handle;
                     s.jfr_id = c.out.cfg.id;
                     s.rq = resp.rq;
                     return r;
                 }, {{C_JFR, 1}}});
    v.push_back({"mmap_rq", [](State &s) { return do_mmap(s, s.rq, &s.rq_map); }, {}});
    v.push_back({"create_jetty", [](State &s) {
                     udma_create_jfs_resp resp = {};
                     uburma_cmd_create_jetty c = ub_test::raw_jetty_args(s.jfc, s.jfr, &resp, jfs_cfg());
                     int r = cmd(s, UBURMA_CMD_CREATE_JETTY, &c, sizeof(c));
                     s.jetty = c.out.handle;
                     s.jetty_id = c.out.id;
                     return r;
                 }, {{C_JETTY, 1}}});
    v.push_back({"alloc_token_id", [](State &s) {
                     uburma_cmd_alloc_token_id c = {};
                     int r = cmd(s, UBURMA_CMD_ALLOC_TOKEN_ID, &c, sizeof(c));
                     s.tid = c.out.handle;
                     s.token_id = c.out.token_id;
                     return r;
                 }, {{C_TID, 1}}});
    v.push_back({"register_seg", [](State &s) {
                     uburma_cmd_register_seg c = {};
                     c.in.va = reinterpret_cast<uintptr_t>(s.buf);
                     c.in.len = kBufLen;
                     c.in.token_id_handle = s.tid;
                     c.in.token_value = 0x5eed;
                     c.in.flag = 1 | (0xeu << 5) | (1u << 13);  // plain token, R/W/atomic, token ID given
                     int r = cmd(s, UBURMA_CMD_REGISTER_SEG, &c, sizeof(c));
                     s.seg = c.out.handle;
                     return r;
                 }, {{C_SEG, 1}, {C_PINNED, kBufLen / kPage}}});
    v.push_back({"import_seg", [](State &s) {
                     udma_import_resp resp = {};
                     uburma_cmd_import_seg c = {};
                     std::memcpy(c.in.eid, s.eid.eid, sizeof(c.in.eid));
                     c.in.uasid = static_cast<uint32_t>(getpid());
                     c.in.token_id = s.token_id;
                     c.in.va = reinterpret_cast<uintptr_t>(s.buf);
                     c.in.len = kBufLen;
                     c.in.attr = 1 | (0xeu << 5);
                     c.in.token_value = 0x5eed;
                     int r = cmd_resp(s, UBURMA_CMD_IMPORT_SEG, c, &resp);
                     s.tseg = c.out.handle;
                     s.tseg_idx = resp.target_idx;
                     return r;
                 }, {{C_TSEG, 1}}});
    auto import_jetty = [](State &s, bool jfr) {
        udma_import_resp resp = {};
        uburma_cmd_import_jetty c = {};
        std::memcpy(c.in.eid, s.eid.eid, sizeof(c.in.eid));
        c.in.uasid = static_cast<uint32_t>(getpid());
        c.in.id = jfr ? s.jfr_id : s.jetty_id;
        c.in.trans_mode = 1;
        c.in.type = jfr ? 0 : 1;  // URMA_JFR, URMA_JETTY
        c.in.token_value = 0xabcd;
        int r = cmd_resp(s, jfr ? UBURMA_CMD_IMPORT_JFR : UBURMA_CMD_IMPORT_JETTY, c, &resp);
        (jfr ? s.tjfr : s.tjetty) = c.out.handle;
        if (jfr)
            s.tjfr_idx = resp.target_idx;
        return r;
    };
    v.push_back({"import_jfr", [import_jetty](State &s) { return import_jetty(s, true); }, {{C_TJFR, 1}}});
    v.push_back({"import_jetty", [import_jetty](State &s) { return import_jetty(s, false); }, {{C_TJETTY, 1}}});
    v.push_back({"post_write", [](State &s) {
                     // One WRITE of 64 bytes from the segment into itself
                     // through the imports, posted on the mapped SQ.
                     auto *ctrl = static_cast<udma_ring_ctrl *>(s.sq_map);
                     uint32_t pi = ctrl->pi;
                     auto *sqe = reinterpret_cast<udma_sqe *>(static_cast<uint8_t *>(s.sq_map) + kPage +
                                                              (pi % s.sq.entry_cnt) * s.sq.entry_size);
                     std::memset(sqe, 0, sizeof(*sqe));
                     sqe->opcode = 0;  // URMA_OPC_WRITE
                     sqe->flags = UDMA_SQE_F_COMPLETE;
                     sqe->num_sge = 1;
                     sqe->target_idx = s.tjfr_idx;
                     sqe->rseg_idx = s.tseg_idx;
                     sqe->remote_va = reinterpret_cast<uintptr_t>(s.buf) + 2 * kPage;
                     sqe->remote_len = 64;
                     sqe->sge[0].va = reinterpret_cast<uintptr_t>(s.buf);
                     sqe->sge[0].len = 64;
                     sqe->sge[0].token_id = s.token_id;
                     __atomic_store_n(&ctrl->pi, pi + 1, __ATOMIC_RELEASE);
                     uburma_cmd_ring_doorbell c = {};
                     c.in.handle = s.jfs;
                     return cmd(s, UBURMA_CMD_RING_DOORBELL, &c, sizeof(c));
                 }, {}});
    v.push_back({"rearm_jfc", [](State &s) {
                     uburma_cmd_rearm_jfc c = {};
                     c.in.handle = s.jfc;
                     return cmd(s, UBURMA_CMD_REARM_JFC, &c, sizeof(c));
                 }, {}});
    v.push_back({"query_jetty", [](State &s) {
                     uburma_cmd_query_jetty c = {};
                     c.in.handle = s.jetty;
                     return cmd(s, UBURMA_CMD_QUERY_JETTY, &c, sizeof(c));
                 }, {}});
    auto destroy = [](uint32_t c, uint64_t State::*h) {
        return [c, h](State &s) {
            uburma_cmd_delete d = {};  // uburma_cmd_destroy is its prefix
            d.in.handle = s.*h;
            bool del = c == UBURMA_CMD_DELETE_JFC || c == UBURMA_CMD_DELETE_JFS || c == UBURMA_CMD_DELETE_JFR ||
                       c == UBURMA_CMD_DELETE_JETTY;
            return cmd(s, c, &d, del ? sizeof(uburma_cmd_delete) : sizeof(uburma_cmd_destroy));
        };
    };
    v.push_back({"unimport_jetty", destroy(UBURMA_CMD_UNIMPORT_JETTY, &State::tjetty), {{C_TJETTY, -1}}});
    v.push_back({"unimport_jfr", destroy(UBURMA_CMD_UNIMPORT_JFR, &State::tjfr), {{C_TJFR, -1}}});
    v.push_back({"unimport_seg", destroy(UBURMA_CMD_UNIMPORT_SEG, &State::tseg), {{C_TSEG, -1}}});
    v.push_back({"unregister_seg", destroy(UBURMA_CMD_UNREGISTER_SEG, &State::seg),
                 {{C_SEG, -1}, {C_PINNED, -static_cast<long>(kBufLen / kPage)}}});
    v.push_back({"free_token_id", destroy(UBURMA_CMD_FREE_TOKEN_ID, &State::tid), {{C_TID, -1}}});
    v.push_back({"delete_jetty", destroy(UBURMA_CMD_DELETE_JETTY, &State::jetty), {{C_JETTY, -1}}, true});
    v.push_back({"delete_jfr", destroy(UBURMA_CMD_DELETE_JFR, &State::jfr), {{C_JFR, -1}}, true});
    v.push_back({"delete_jfs", destroy(UBURMA_CMD_DELETE_JFS, &State::jfs), {{C_JFS, -1}}, true});
    v.push_back({"delete_jfc", destroy(UBURMA_CMD_DELETE_JFC, &State::jfc), {{C_JFC, -1}}, true});
    v.push_back({"munmap_rings", [](State &s) {
                     // munmap may fail (ENOMEM): the ring stays mapped.
                     for (auto *m : {&s.cq_map, &s.sq_map, &s.rq_map})
                         if (*m != nullptr) {
                             size_t len = m == &s.cq_map ? s.cq.mmap_len : m == &s.sq_map ? s.sq.mmap_len : s.rq.mmap_len;
                             if (munmap(*m, len) != 0)
                                 return -errno;
                             *m = nullptr;
                         }
                     return 0;
                 }, {}});
    v.push_back({"close", [](State &s) {
                     // The release cannot fail: it must free the context.
                     close(s.jfce);
                     close(s.async_fd);
                     int r = close(s.fd) == 0 ? 0 : -errno;
                     s.fd = s.jfce = s.async_fd = -1;
                     return r;
                 }, {{C_CTX, -1}}});
    return v;
}

// Netlink steps, run with the ioctl objects up to import_jetty in place.
std::vector<Step> netlink_steps(uint16_t fam)
{
    std::vector<Step> v;
    auto dump = [fam](uint8_t c, int res_type) {
        return [fam, c, res_type](State &) {
            Bytes m = genl_msg(fam, c, c == UBCORE_NL_CMD_SYS_GET ? NLM_F_ACK : NLM_F_DUMP);
            if (c != UBCORE_NL_CMD_SYS_GET && c != UBCORE_NL_CMD_DEV_GET)
                put_str(m, UBCORE_NL_ATTR_DEV_NAME, kDev);
            if (res_type >= 0) {
                uint8_t t = static_cast<uint8_t>(res_type);
                put_attr(m, UBCORE_NL_ATTR_RES_TYPE, &t, 1);
            }
            size_t n = 0;
            int r = nl_request(m, &n);
            return r == 0 && n == 0 && c != UBCORE_NL_CMD_SYS_GET ? -ENODATA : r;
        };
    };
    v.push_back({"nl_sys_get", dump(UBCORE_NL_CMD_SYS_GET, -1), {}});
    v.push_back({"nl_dev_get_dump", dump(UBCORE_NL_CMD_DEV_GET, -1), {}});
    v.push_back({"nl_eid_get_dump", dump(UBCORE_NL_CMD_EID_GET, -1), {}});
    for (int t : {UBCORE_NL_RES_JFC, UBCORE_NL_RES_JFS, UBCORE_NL_RES_JFR, UBCORE_NL_RES_JETTY, UBCORE_NL_RES_SEG})
        v.push_back({"nl_res_get_dump", dump(UBCORE_NL_CMD_RES_GET, t), {}});
    v.push_back({"nl_eid_add", [fam](State &) {
                     Bytes m = genl_msg(fam, UBCORE_NL_CMD_EID_ADD, NLM_F_ACK);
                     put_str(m, UBCORE_NL_ATTR_DEV_NAME, kDev);
                     uint32_t idx = kEidIndex;
                     put_attr(m, UBCORE_NL_ATTR_EID_INDEX, &idx, sizeof(idx));
                     uint8_t eid[16] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 10, 9, 9, 9};
                     put_attr(m, UBCORE_NL_ATTR_EID, eid, sizeof(eid));
                     int r = nl_request(m);
                     // Whether sysfs follows the table: checked by the
                     // driver (eid_sysfs_agrees()).
                     return r;
                 }, {}});
    return v;
}

struct Stats {
    unsigned points = 0;      // fault points of the step (sweep)
    unsigned runs = 0;
    std::map<int, unsigned> errnos;
    unsigned absorbed = 0;    // a fault injected, the call succeeded
    unsigned ok = 0;
};

class Driver {
public:
    Driver(Faults &f, uint16_t fam) : faults_(f), fam_(fam) {}
    int sweep(unsigned stride, unsigned first);
    int random(uint64_t rounds, uint64_t seed);
    int device_sweep(unsigned stride, unsigned first);
    void report();

private:
    bool setup(State &s, const std::vector<Step> &steps, size_t upto);
    bool teardown(State &s, const char *what);
    bool check(const Step &st, int r, const Counts &before, const char *mode, unsigned n);
    int attempt(Stats &stat, unsigned nth, const std::function<int()> &call, bool *injected);
    void finding(const std::string &m)
    {
        std::printf("FINDING: %s\n", m.c_str());
        findings_++;
    }

    Faults &faults_;
    uint16_t fam_;
    std::map<std::string, Stats> stats_;
    std::vector<std::string> order_;
    int findings_ = 0;
    uint8_t *buf_ = nullptr;

public:
    bool init_buf()
    {
        buf_ = static_cast<uint8_t *>(mmap(nullptr, kBufLen, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0));
        if (buf_ == MAP_FAILED)
            return false;
        std::memset(buf_, 0x11, kBufLen);  // faulted in before any fault window
        return true;
    }
};

Stats &stat_of(std::map<std::string, Stats> &m, std::vector<std::string> &order, const std::string &name)
{
    if (m.find(name) == m.end())
        order.push_back(name);
    return m[name];
}

bool Driver::setup(State &s, const std::vector<Step> &steps, size_t upto)
{
    s.buf = buf_;
    for (size_t i = 0; i < upto; i++) {
        int r = steps[i].run(s);
        if (r < 0) {
            finding(std::string("set-up step ") + steps[i].name + " failed without a fault: " + std::strerror(-r));
            return false;
        }
    }
    return true;
}

bool Driver::teardown(State &s, const char *what)
{
    s.close_all();
    std::string detail;
    if (!wait_objects_zero(5000, &detail)) {
        finding(std::string("objects left after ") + what + ": " + detail);
        return false;
    }
    return true;
}

// One call in a fault window, counted in stat: the nth fault point of the
// call fails (sweep), or with nth 0 every fault point may fail
// (make-it-fail, random rounds). Returns the call's result; *injected:
// whether the nth fault was injected (always false for make-it-fail,
// which cannot tell).
int Driver::attempt(Stats &stat, unsigned nth, const std::function<int()> &call, bool *injected)
{
    if (nth != 0)
        faults_.arm_nth(nth);
    else
        faults_.make_it_fail(true);
    int r = call();
    if (nth != 0) {
        *injected = faults_.nth_injected();
    } else {
        faults_.make_it_fail(false);
        *injected = false;
    }
    stat.runs++;
    if (r < 0)
        stat.errnos[-r]++;
    else if (*injected)
        stat.absorbed++;
    else
        stat.ok++;
    return r;
}

// A failure leaves the counts as they were; a success changes them by the
// step's delta.
bool Driver::check(const Step &st, int r, const Counts &before, const char *mode, unsigned n)
{
    Counts after = counts();
    Counts want = before;
    if (r >= 0)
        for (const auto &d : st.delta)
            want[static_cast<size_t>(d.first)] += d.second;
    if (r == -EFAULT && st.efault_done && after != want) {
        // The delete may have happened, only its result not written.
        Counts done = before;
        for (const auto &d : st.delta)
            done[static_cast<size_t>(d.first)] += d.second;
        if (after == done)
            want = done;
    }
    const std::string where = std::string(st.name) + " (" + mode + " " + std::to_string(n) + ")";
    if (r == kNoResult || r == -ENODATA)
        finding(where + ": succeeded without its result");
    else if (r == kHalfDone)
        finding(where + ": failed, but left its result");
    else if (r < 0 && !documented_errno(-r) && !reply_lost(r))
        finding(where + ": undocumented errno " + std::to_string(-r));
    if (after != want) {
        finding(std::string(st.name) + " (" + mode + " " + std::to_string(n) + ") returned " + std::to_string(r) +
                (r < 0 ? std::string(" (") + std::strerror(-r) + ")" : "") + " with counts " + counts_str(after) +
                "; want " + counts_str(want));
        return false;
    }
    return true;
}

int Driver::sweep(unsigned stride, unsigned first)
{
    State s;
    auto io = ioctl_steps();
    auto nl = netlink_steps(fam_);
    // The netlink steps run on top of the ioctl steps up to import_jetty.
    size_t nl_base = 0;
    while (nl_base < io.size() && std::string(io[nl_base].name) != "import_jetty")
        nl_base++;
    nl_base++;
    struct Item {
        const std::vector<Step> *steps;
        size_t setup;
        const Step *step;
    };
    std::vector<Item> items;
    for (size_t k = 0; k < io.size(); k++)
        items.push_back({&io, k, &io[k]});
    for (const Step &st : nl)
        items.push_back({&io, nl_base, &st});

    const unsigned kMaxPoints = 400;
    for (const Item &it : items) {
        Stats &stat = stat_of(stats_, order_, it.step->name);
        // A failed step must leave the state as it was (checked through
        // the counts), so the next n runs on the same set-up; a success
        // (or a wrong count) is undone by closing everything.
        bool ready = false;
        unsigned n, last = 0;  // the last n that failed a fault point
        for (n = first; n <= kMaxPoints; n += stride) {
            if (!ready && !setup(s, *it.steps, it.setup)) {
                teardown(s, "a failed set-up");
                return findings_;
            }
            ready = true;
            Counts before = counts();
            bool injected = false;
            int r = attempt(stat, n, [&] { return it.step->run(s); }, &injected);
            if (std::string(it.step->name) == "nl_eid_add") {
                const std::string where = "nl_eid_add (fail-nth " + std::to_string(n) + ", returned " +
                                          std::to_string(r) + ")";
                if (!eid_sysfs_agrees(fam_))
                    finding(where + ": EID " + std::to_string(kEidIndex) + (eid_present(fam_) ? " in" : " not in") +
                            " the table but not so in sysfs after 2 s");
                if (eid_present(fam_)) {  // delete it now
                    uint32_t idx = kEidIndex;
                    Bytes d = genl_msg(fam_, UBCORE_NL_CMD_EID_DEL, NLM_F_ACK);
                    put_str(d, UBCORE_NL_ATTR_DEV_NAME, kDev);
                    put_attr(d, UBCORE_NL_ATTR_EID_INDEX, &idx, sizeof(idx));
                    nl_request(d);
                    if (!eid_sysfs_agrees(fam_))
                        finding(where + ": EID " + std::to_string(kEidIndex) +
                                " deleted from the table but still in sysfs after 2 s");
                }
            }
            bool same = check(*it.step, r, before, "fail-nth", n);
            if (r < 0 && !injected && r != kNoResult && r != kHalfDone)
                finding(std::string(it.step->name) + " (fail-nth " + std::to_string(n) + ") failed with " +
                        std::to_string(r) + " although no fault was injected");
            const bool changed = r >= 0 || (r == -EFAULT && it.step->efault_done && counts() != before);
            if (changed || !same || !injected || std::string(it.step->name) == "close") {
                if (!teardown(s, it.step->name))
                    return findings_;
                ready = false;
            }
            if (!injected)
                break;
            last = n;
        }
        if (ready && !teardown(s, it.step->name))
            return findings_;
        // (with a stride: the step has at least these)
        stat.points += last;
        if (n > kMaxPoints)
            std::printf("%s: more than %u fault points; stopped there\n", it.step->name, kMaxPoints);
    }
    return findings_;
}

// DEV_DEL and DEV_ADD of udma0 on lo under fail-nth: a failed DEV_ADD
// leaves no device, a failed DEV_DEL leaves the device; udma0 is back at
// the end.
int Driver::device_sweep(unsigned stride, unsigned first)
{
    const std::string path = std::string("/sys/class/ubcore/") + kDev;
    auto dev_add = [this]() {
        Bytes m = genl_msg(fam_, UBCORE_NL_CMD_DEV_ADD, NLM_F_ACK);
        put_str(m, UBCORE_NL_ATTR_LINK_TYPE, "udma");
        put_str(m, UBCORE_NL_ATTR_NETDEV_NAME, "lo");
        put_str(m, UBCORE_NL_ATTR_DEV_NAME, kDev);
        return nl_request(m);
    };
    auto dev_del = [this]() {
        Bytes m = genl_msg(fam_, UBCORE_NL_CMD_DEV_DEL, NLM_F_ACK);
        put_str(m, UBCORE_NL_ATTR_DEV_NAME, kDev);
        return nl_request(m);
    };
    auto wait_dev = [&path](bool present) {
        for (int i = 0; i < 100; i++) {
            if (exists(path) == present && (!present || exists(path + "/eids/eid0")))
                return true;
            usleep(50000);
        }
        return false;
    };
    for (int which = 0; which < 2; which++) {
        const bool add = which == 0;
        const char *name = add ? "nl_dev_add" : "nl_dev_del";
        Stats &stat = stat_of(stats_, order_, name);
        unsigned n, last = 0;
        for (n = first; n <= 400; n += stride) {
            // Before: the device absent (DEV_ADD) or present (DEV_DEL).
            if (add && exists(path) && dev_del() != 0) {
                finding("DEV_DEL without faults failed");
                return findings_;
            }
            if (!add && !exists(path) && dev_add() != 0) {
                finding("DEV_ADD without faults failed");
                return findings_;
            }
            if (!wait_dev(!add)) {
                finding(std::string("udma0 did not ") + (add ? "go" : "come back"));
                return findings_;
            }
            bool injected = false;
            int r = attempt(stat, n, add ? std::function<int()>(dev_add) : std::function<int()>(dev_del), &injected);
            bool there = exists(path);
            if (r < 0 && !documented_errno(-r) && !reply_lost(r))
                finding(std::string(name) + ": undocumented errno " + std::to_string(-r));
            if (r == 0 && there != add)
                finding(std::string(name) + " (fail-nth " + std::to_string(n) + ") succeeded, but udma0 is " +
                        (there ? "there" : "gone"));
            if (r < 0 && there == add && !reply_lost(r))
                finding(std::string(name) + " (fail-nth " + std::to_string(n) + ") failed with " +
                        std::to_string(r) + ", but did its work");
            if (!injected)
                break;
            last = n;
        }
        // the last point reached (with a stride: within stride of it)
        stat.points += last;
    }
    if (!exists(path) && dev_add() != 0)
        finding("cannot add udma0 back");
    if (!wait_dev(true))
        finding("udma0 has no EID after the device sweep");
    return findings_;
}

int Driver::random(uint64_t rounds, uint64_t seed)
{
    Rng rng(seed);
    auto io = ioctl_steps();
    State s;
    for (uint64_t round = 0; round < rounds; round++) {
        s.buf = buf_;
        // A random prefix of the scenario, a few times the data path.
        size_t upto = io.size();
        if (rng.pct(50))
            upto = 1 + rng.below(io.size());
        for (size_t k = 0; k < upto; k++) {
            const Step &st = io[k];
            Stats &stat = stat_of(stats_, order_, std::string("random:") + st.name);
            Counts before = counts();
            bool injected = false;
            int r = attempt(stat, 0, [&] { return st.run(s); }, &injected);
            check(st, r, before, "random round", static_cast<unsigned>(round));
            if (r < 0 || std::string(st.name) == "close")
                break;
        }
        if (!teardown(s, "a random round"))
            break;
    }
    return findings_;
}

void Driver::report()
{
    std::printf("%-20s %7s %6s %6s %8s  %s\n", "step", "points", "runs", "ok", "absorbed", "errors (errno:count)");
    for (const auto &name : order_) {
        const Stats &st = stats_[name];
        std::string errs;
        for (const auto &e : st.errnos)
            errs += std::string(" ") + std::to_string(e.first) + ":" + std::to_string(e.second);
        std::printf("%-20s %7u %6u %6u %8u %s\n", name.c_str(), st.points, st.runs, st.ok, st.absorbed,
                    errs.c_str());
    }
}

void usage(const char *argv0)
{
    std::fprintf(stderr,
                 "usage: %s [--sweep] [--sweep-stride K] [--device-sweep] [--device-stride K]\n"
                 "       [--random-rounds N]\n"
                 "       [--probability P] [--seed S]\n"
                 "Runs the stack's allocation paths under failslab, fail_page_alloc and\n"
                 "fail_usercopy (needs root, debugfs and the stack loaded with udma0 on lo).\n",
                 argv0);
    std::exit(2);
}

}  // namespace

int main(int argc, char **argv)
{
    bool sweep = false, dev_sweep = false;
    uint64_t rounds = 0, prob = 3, seed = 0, stride = 1, sweep_stride = 1;
    Args(usage)
        .flag("--sweep", &sweep)
        .num("--sweep-stride", &sweep_stride, 400)
        .flag("--device-sweep", &dev_sweep)
        .num("--device-stride", &stride, 400)
        .num("--random-rounds", &rounds)
        .num("--probability", &prob, 100)
        .seed(&seed)
        .parse(argc, argv);
    if (stride == 0 || sweep_stride == 0)
        usage(argv[0]);
    const unsigned first = 1 + static_cast<unsigned>(seed % stride);
    const unsigned sweep_first = 1 + static_cast<unsigned>(seed % sweep_stride);
    std::printf("ub_fault_inject: seed %" PRIu64 "%s (fail-nth %u, %u, ...)%s (fail-nth %u, %u, ...), %" PRIu64
                " random rounds at %" PRIu64 "%%\n",
                seed, sweep ? ", sweep" : ", no sweep", sweep_first,
                sweep_first + static_cast<unsigned>(sweep_stride), dev_sweep ? ", device sweep" : ", no device sweep",
                first, first + static_cast<unsigned>(stride), rounds, prob);
    std::fflush(stdout);
    uint16_t fam = family_id();
    if (fam == 0) {
        std::printf("no ubcore netlink family\n");
        return 1;
    }
    Faults faults;
    if (!faults.init(0))
        return 1;
    Driver d(faults, fam);
    if (!d.init_buf())
        return 1;
    const uint64_t t0 = monotonic_ms();
    int findings = 0;
    if (sweep)
        findings = d.sweep(static_cast<unsigned>(sweep_stride), sweep_first);
    std::printf("sweep: %.1f s\n", static_cast<double>(monotonic_ms() - t0) / 1000.0);
    if (dev_sweep)
        findings = d.device_sweep(static_cast<unsigned>(stride), first);
    std::printf("device sweep: until %.1f s\n", static_cast<double>(monotonic_ms() - t0) / 1000.0);
    if (rounds != 0) {
        if (!faults.init(static_cast<unsigned>(prob)))
            return 1;
        findings = d.random(rounds, seed);
    }
    Faults::off();
    d.report();
    std::string detail;
    bool zero = wait_objects_zero(5000, &detail);
    if (!zero)
        std::printf("FINDING: objects left at the end: %s\n", detail.c_str());
    std::printf("ub_fault_inject: %d findings in %.1f s; object counts %s\n", findings,
                static_cast<double>(monotonic_ms() - t0) / 1000.0, zero ? "back to 0" : "NOT back to 0");
    return findings == 0 && zero ? 0 : 1;
}
