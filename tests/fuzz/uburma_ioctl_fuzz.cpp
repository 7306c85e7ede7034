// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The UB/URMA stack authors
//
// uburma_ioctl_fuzz: a seeded fuzzer of /dev/uburma/<dev> (uburma_ioctl.h,
// udma_abi.h), run in the test guest against the loaded stack.
//
// Worker processes, as root and as user nobody, issue commands that are
// structure-aware (valid-looking argument structs built from the handles,
// IDs, EIDs and segments the worker has, then a few fields mutated: handles,
// lengths, sizes, flags, user pointers to unmapped, read-only, kernel and
// page-crossing addresses, args_len shorter or longer than the struct) or
// raw (random command numbers and bytes). They map the rings the kernel
// announces (and mutated offsets, lengths and protections), scribble the
// mapped rings with random and structured WQEs and indexes, ring doorbells,
// flush, re-arm; a second thread in each worker races doorbells, queries
// and deletes against the first; workers fork children that share their
// files (and rings after MADV_DOFORK); the driver SIGKILLs workers and
// children in the middle of their work.
//
// Checked: every call returns 0 or a documented errno (fuzz_util.h), a
// created object has a non-zero handle, the fuzzer's own processes die
// only by its own SIGKILLs, and after the last process is gone every
// object count of every device (/sys/class/ubcore/*/objects) is back to 0.
// A round that does not end in time is a finding too: the driver's
// watchdog logs each stuck task's state, wait channel and kernel stack,
// triggers sysrq w, SIGKILLs them and goes on (or stops if they stay).
// The kernel's side (KASAN, lockdep, WARN, kmemleak, a clean unload) is
// judged by the harness (tests/guest/cases/fuzz-uburma-ioctl.sh).
//
// Reproduce: the seed is printed first and replays the run; each worker's
// seed is printed too, and --worker-seed S (after --nobody for a worker
// that ran as nobody) replays that worker alone. A worker's sequence also
// depends on its racing thread and on kernel timing, so a replay may differ.
#include <dirent.h>
#include <fcntl.h>
#include <grp.h>
#include <poll.h>
#include <pwd.h>
#include <sched.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>

#include <algorithm>
#include <atomic>
#include <cstdarg>
#include <cinttypes>
#include <map>
#include <thread>

#include <ub/udma_abi.h>

#include "fuzz_util.h"

namespace {

using namespace ub_fuzz;

constexpr size_t kPage = 4096;
constexpr size_t kScratchPages = 16;
constexpr size_t kDataPages = 64;
constexpr size_t kDataGuardPages = 8;
constexpr uint32_t kLastCmd = UBURMA_CMD_IMPORT_JETTY_EX;
// The round watchdog: a round normally takes ~15 ms per operation of a
// worker (debug kernel under TCG); past 480 ms per operation (two minutes
// for 250) its processes are stuck, and at least 30 s whatever per_round.
constexpr uint64_t kRoundMsPerOp = 480;
constexpr uint64_t kRoundMinMs = 30000;
// How long a SIGKILLed stuck process may take to go.
constexpr uint64_t kReapMs = 20000;
// The opcodes of urma_opcode.h (URMA_OPC_*), as the SQE carries them.
const std::vector<uint8_t> kOpcodes = {0x00, 0x01, 0x02, 0x10, 0x20, 0x21, 0x22, 0x23, 0x24,
                                       0x25, 0x26, 0x40, 0x41, 0x42, 0x51, 0x60, 0x80};

struct Options {
    uint64_t seed = 0;
    uint64_t iterations = 2000;  // operations in all, over every worker
    unsigned workers = 4;
    unsigned per_round = 250;    // operations of one worker before it exits
    unsigned kill_pct = 30;      // chance that a round SIGKILLs one worker
    uint64_t round_ms = 0;       // the watchdog's bound on a round (0: kRoundMsPerOp * per_round)
    std::string dev = "udma0";
    bool verbose = false;
};

enum Kind { K_TOKEN, K_SEG, K_TSEG, K_JFC, K_JFS, K_JFR, K_JETTY, K_TJFR, K_TJETTY, K_MAX };
const char *const kKindName[K_MAX] = {"token", "seg", "tseg", "jfc", "jfs", "jfr", "jetty", "tjfr", "tjetty"};

struct Obj {
    Kind kind;
    uint64_t handle;
    uint32_t id;        // JFC/JFS/JFR/jetty ID, token ID, or the import's target_idx
    uint64_t va, len;   // segments
    udma_ring_info ring;  // JFC/JFS/JFR/jetty, as the create returned it
};

struct Map {
    uint8_t *addr;
    size_t len;
    uint64_t handle;  // the object whose ring this is (for its doorbell)
    uint32_t entry_size, entry_cnt;
    bool dofork;      // MADV_DOFORK: a forked child has it too
    bool zapped;      // MADV_DONTNEED: the pages are gone (SIGBUS on access)
};

// Shared with the racing thread: handles to use, written by the main thread.
constexpr size_t kRaceSlots = 16;
struct RaceState {
    std::atomic<uint64_t> handles[kRaceSlots];
    std::atomic<int> fd{-1};
    std::atomic<bool> stop{false};
};

uint64_t g_seed, g_op;  // for on_fatal()

class Worker {
public:
    Worker(const Options &o, uint64_t seed, bool unprivileged)
        : opt_(o), rng_(seed), seed_(seed), unpriv_(unprivileged)
    {
    }

    // Runs n operations; returns the number of findings (bad errnos etc.).
    int run(uint64_t n);

private:
    // One ioctl with accounting: 0 or -errno.
    int cmd(uint32_t command, void *args, uint32_t len, const char *what);
    int cmd_mut(uint32_t command, void *args, uint32_t size, const char *what);
    void finding(const char *fmt, ...) __attribute__((format(printf, 2, 3)));

    // Addresses for the kernel to read or write: mostly in the scratch
    // area, sometimes NULL, unmapped, read-only, kernel, page-crossing.
    uint64_t user_addr(size_t size);
    bool own_memory(uint64_t v) const;
    uint64_t data_addr(__u64 *len);
    uint64_t handle_of(Kind k);
    uint64_t any_handle();
    const Obj *obj_of(Kind k);
    void forget(uint64_t handle);
    void destroy(Kind k, uint32_t command, const char *name);
    uint32_t depth();
    void udata(uburma_udata *u, void *resp, uint32_t resp_len);

    void open_dev();
    void close_dev();
    void create_ctx();
    void step();
    void op_query();
    void op_token();
    void op_register_seg();
    void op_import_seg();
    void op_jfce();
    void op_create_jfc();
    void op_create_jfs(bool jetty);
    void op_create_jfr();
    void op_modify_query();
    void op_delete();
    void op_import_jetty(bool jfr);
    void op_bind();
    void op_doorbell();
    void op_flush();
    void op_mmap();
    void op_munmap();
    void op_madvise();
    void op_scribble();
    void op_raw();
    void op_events();
    void op_fork();
    void fill_sqe(udma_sqe *sqe);
    void fill_rqe(udma_rqe *rqe);
    void race_publish();
    static void race_thread(RaceState *rs, uint64_t seed);

    const Options &opt_;
    Rng rng_;
    uint64_t seed_;
    bool unpriv_;
    bool child_ = false;
    int fd_ = -1;
    int async_fd_ = -1;
    bool ctx_ = false;
    std::vector<int> jfce_fds_;
    std::vector<Obj> objs_;
    std::vector<Map> maps_;
    std::vector<uburma_eid_info> eids_;
    uint8_t *scratch_ = nullptr;  // kScratchPages RW, a PROT_NONE page, a read-only page
    uint8_t *data_ = nullptr;     // kDataPages RW: segments
    int findings_ = 0;
    uint64_t ops_ = 0;
    std::map<int, uint64_t> errnos_;
    uint64_t ok_[kLastCmd + 1] = {};
    RaceState *race_ = nullptr;
};

void Worker::finding(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    std::fprintf(stderr, "FINDING (worker seed %" PRIu64 ", op %" PRIu64 "): ", seed_, ops_);
    std::vfprintf(stderr, fmt, ap);
    std::fprintf(stderr, "\n");
    va_end(ap);
    findings_++;
}

int Worker::cmd(uint32_t command, void *args, uint32_t len, const char *what)
{
    int ret = ub_cmd(fd_, command, args, len);
    if (ret < 0) {
        errnos_[-ret]++;
        if (!documented_errno(-ret))
            finding("%s (command %u, len %u): undocumented errno %d (%s)", what, command, len, -ret,
                    std::strerror(-ret));
    } else if (command <= kLastCmd) {
        ok_[command]++;
    }
    if (opt_.verbose)
        std::fprintf(stderr, "  %s cmd %u len %u -> %d\n", what, command, len, ret);
    return ret;
}

// The struct as built, most of the time; else with one to three mutations:
// a field's bytes replaced by an interesting value, bits flipped, or
// args_len shortened, lengthened with zeros, or lengthened with junk.
int Worker::cmd_mut(uint32_t command, void *args, uint32_t size, const char *what)
{
    uint8_t buf[512];
    uint32_t len = size;

    std::memset(buf, 0, sizeof(buf));
    std::memcpy(buf, args, size);
    if (rng_.pct(15)) {
        for (uint64_t i = 0, n = 1 + rng_.below(3); i < n; i++) {
            uint64_t off = rng_.below(size) & ~3ULL;
            uint64_t v = rng_.interesting();
            switch (rng_.below(3)) {
            case 0:
                std::memcpy(buf + off, &v, std::min<uint64_t>(4, size - off));
                break;
            case 1:
                if (off + 8 <= size)
                    std::memcpy(buf + off, &v, 8);
                break;
            default:
                buf[rng_.below(size)] ^= static_cast<uint8_t>(1u << rng_.below(8));
            }
        }
    }
    if (rng_.pct(8)) {
        switch (rng_.below(4)) {
        case 0:
            len = static_cast<uint32_t>(rng_.below(size));
            break;
        case 1:
            len = size + 8 * static_cast<uint32_t>(1 + rng_.below(8));
            break;
        case 2:
            len = size + 8;
            buf[size + rng_.below(8)] = static_cast<uint8_t>(1 + rng_.below(255));
            break;
        default:
            len = rng_.pct(50) ? UBURMA_CMD_MAX_ARGS + 1 : 0xffffffffu;
        }
    }
    // A mutated pointer must not name the fuzzer's own memory (its stack,
    // heap, libraries, the racing thread's stack): the kernel would rightly
    // write there (a response, a registered segment's WRITEs) and the
    // worker would crash on its own corrupted data. Such a word becomes
    // the PROT_NONE guard page (EFAULT); unmapped addresses stay.
    for (uint32_t i = 0; i + 8 <= size; i += 8) {
        uint64_t was, now;
        std::memcpy(&was, static_cast<uint8_t *>(args) + i, 8);
        std::memcpy(&now, buf + i, 8);
        if (was != now && own_memory(now)) {
            now = reinterpret_cast<uintptr_t>(scratch_ + kScratchPages * kPage);
            std::memcpy(buf + i, &now, 8);
        }
    }
    if (opt_.verbose) {
        for (uint32_t i = 0; i + 8 <= size; i += 8) {
            uint64_t was, now;
            std::memcpy(&was, static_cast<uint8_t *>(args) + i, 8);
            std::memcpy(&now, buf + i, 8);
            if (was != now)
                std::fprintf(stderr, "  %s: bytes %u..%u %#" PRIx64 " -> %#" PRIx64 "\n", what, i, i + 7, was, now);
        }
    }
    int ret = cmd(command, buf, len, what);
    if (ret == 0 && len >= size && len <= sizeof(buf))
        std::memcpy(args, buf, size);
    else if (ret == 0)
        std::memset(args, 0, size);  // nothing trustworthy came back
    if (ret == 0 && len > size && len <= UBURMA_CMD_MAX_ARGS) {
        // Only zero bytes may follow a struct (E2BIG otherwise).
        for (uint32_t i = size; i < len && i < sizeof(buf); i++)
            if (buf[i] != 0) {
                finding("%s: accepted args_len %u with non-zero byte %u past the struct", what, len, i);
                break;
            }
    }
    return ret;
}

// Mapped memory of this process other than the areas made for the kernel
// to write (scratch with its guard and read-only pages, data with its
// guard pages).
bool Worker::own_memory(uint64_t v) const
{
    if (v < 0x10000 || v >= (1ULL << 47))
        return false;
    auto in = [v](const uint8_t *base, size_t len) {
        auto b = reinterpret_cast<uintptr_t>(base);
        return v >= b && v < b + len;
    };
    if (in(scratch_, (kScratchPages + 2) * kPage) || in(data_, (kDataPages + kDataGuardPages) * kPage))
        return false;
    return msync(reinterpret_cast<void *>(v & ~(kPage - 1)), kPage, MS_ASYNC) == 0 || errno != ENOMEM;
}

uint64_t Worker::user_addr(size_t size)
{
    const size_t span = kScratchPages * kPage;
    switch (rng_.below(20)) {
    case 0:
        return 0;
    case 1:
        return 0xffff888000000000ULL + rng_.below(1 << 20);  // kernel direct map
    case 2:
        return reinterpret_cast<uintptr_t>(scratch_ + span);  // PROT_NONE
    case 3:
        return reinterpret_cast<uintptr_t>(scratch_ + span + kPage);  // read-only
    case 4:  // crosses into the PROT_NONE page
        return reinterpret_cast<uintptr_t>(scratch_ + span - std::max<size_t>(1, size / 2));
    default:
        return reinterpret_cast<uintptr_t>(scratch_ + rng_.below(span - std::min(size, span)));
    }
}

// A range for REGISTER_SEG: mostly inside the data area, sometimes past
// it, unaligned, empty, huge, or the scratch or read-only pages.
uint64_t Worker::data_addr(__u64 *len)
{
    const uint64_t span = kDataPages * kPage;
    uint64_t off = rng_.pct(70) ? rng_.below(kDataPages) * kPage : rng_.below(span);
    uint64_t base = reinterpret_cast<uintptr_t>(data_) + off;

    switch (rng_.below(12)) {
    case 0:
        *len = 0;
        break;
    case 1:
        *len = span - off + kPage * (1 + rng_.below(4));  // runs past the area
        break;
    case 2:
        // Huge: an allocator must not be asked for its page array first.
        *len = 1ULL << (30 + rng_.below(12));
        break;
    case 3:
        *len = rng_.interesting();
        break;
    case 4:
        base = reinterpret_cast<uintptr_t>(scratch_ + kScratchPages * kPage + kPage);  // read-only
        *len = kPage;
        break;
    case 5:
        // An address that is never ours: below mmap_min_addr or in the
        // kernel's half. (A random one could be the fuzzer's own stack or
        // heap: registered, then written by the WRITEs and SENDs it posts.)
        base = rng_.pct(50) ? rng_.below(0x10000) : 0xffff800000000000ULL | (rng_.next() & 0x7fffffffffffULL);
        *len = kPage * (1 + rng_.below(4));
        break;
    default:
        *len = 1 + rng_.below(span - off);
    }
    return base;
}

const Obj *Worker::obj_of(Kind k)
{
    std::vector<size_t> idx;
    for (size_t i = 0; i < objs_.size(); i++)
        if (objs_[i].kind == k)
            idx.push_back(i);
    if (idx.empty())
        return nullptr;
    return &objs_[rng_.pick(idx)];
}

// Mostly a handle of the kind; sometimes 0, one of another kind, or junk.
uint64_t Worker::handle_of(Kind k)
{
    if (rng_.pct(85)) {
        const Obj *o = obj_of(k);
        if (o != nullptr)
            return o->handle;
    }
    return any_handle();
}

uint64_t Worker::any_handle()
{
    switch (rng_.below(4)) {
    case 0:
        return 0;
    case 1:
        return rng_.interesting();
    default:
        if (!objs_.empty())
            return objs_[rng_.below(objs_.size())].handle;
        return 1 + rng_.below(64);
    }
}

void Worker::forget(uint64_t handle)
{
    for (size_t i = 0; i < objs_.size(); i++)
        if (objs_[i].handle == handle) {
            objs_.erase(objs_.begin() + static_cast<long>(i));
            return;
        }
}

// Destroys (command, uburma_cmd_destroy) an object of kind k, or a handle
// that is not one; forgets it when that succeeds.
void Worker::destroy(Kind k, uint32_t command, const char *name)
{
    uburma_cmd_destroy d = {};
    d.in.handle = handle_of(k);
    if (cmd_mut(command, &d, sizeof(d), name) == 0)
        forget(d.in.handle);
}

uint32_t Worker::depth()
{
    switch (rng_.below(12)) {
    case 0:
        return static_cast<uint32_t>(rng_.interesting());
    case 1:
        return 0;
    default:
        return 1u << rng_.below(11);
    }
}

// Provider data: an out buffer for the response (the caller's, in
// scratch memory), an in buffer of random bytes, sometimes bad pointers.
void Worker::udata(uburma_udata *u, void *resp, uint32_t resp_len)
{
    u->out_addr = reinterpret_cast<uintptr_t>(resp);
    u->out_len = resp_len;
    u->in_addr = 0;
    u->in_len = 0;
    if (rng_.pct(10)) {
        u->in_len = static_cast<uint32_t>(rng_.below(64));
        u->in_addr = user_addr(u->in_len);
    }
    if (rng_.pct(10)) {
        u->out_len = static_cast<uint32_t>(rng_.pct(50) ? rng_.below(resp_len + 1) : rng_.interesting());
        if (u->out_len > resp_len || rng_.pct(30))
            u->out_addr = user_addr(u->out_len);
    }
}

void Worker::open_dev()
{
    std::string path = "/dev/uburma/" + opt_.dev;
    fd_ = open(path.c_str(), O_RDWR | O_CLOEXEC);
    if (fd_ < 0) {
        // The device may be gone for good (a netlink fuzzer's DEV_DEL).
        if (errno != ENOENT && errno != ENODEV)
            finding("open %s: %s", path.c_str(), std::strerror(errno));
        return;
    }
    if (race_ != nullptr)
        race_->fd.store(fd_);
    ctx_ = false;
}

// Everything of the file goes with it; mappings stay until unmapped.
void Worker::close_dev()
{
    if (race_ != nullptr)
        race_->fd.store(-1);
    if (fd_ >= 0)
        close(fd_);
    if (async_fd_ >= 0)
        close(async_fd_);
    for (int f : jfce_fds_)
        close(f);
    fd_ = async_fd_ = -1;
    jfce_fds_.clear();
    objs_.clear();
    ctx_ = false;
    race_publish();
}

void Worker::create_ctx()
{
    uburma_cmd_get_eid_list el = {};
    uburma_eid_info list[8] = {};
    el.in.max_cnt = 8;
    el.in.eids_addr = reinterpret_cast<uintptr_t>(list);
    if (cmd(UBURMA_CMD_GET_EID_LIST, &el, sizeof(el), "get_eid_list") == 0) {
        eids_.assign(list, list + std::min<uint32_t>(el.out.cnt, 8));
    }

    uint8_t resp[64];
    uburma_cmd_create_ctx c = {};
    c.in.eid_index = eids_.empty() || rng_.pct(10) ? static_cast<uint32_t>(rng_.interesting()) : rng_.pick(eids_).eid_index;
    c.in.uasid = rng_.pct(20) ? static_cast<uint32_t>(rng_.interesting()) : static_cast<uint32_t>(getpid());
    udata(&c.in.udata, resp, 0);
    int ret = cmd_mut(UBURMA_CMD_CREATE_CTX, &c, sizeof(c), "create_ctx");
    if (ret == 0) {
        ctx_ = true;
        if (c.out.async_fd >= 0) {
            if (async_fd_ >= 0)
                close(async_fd_);
            async_fd_ = c.out.async_fd;
        }
    } else if (ret == -EEXIST) {
        ctx_ = true;
    }
}

void Worker::op_query()
{
    if (rng_.pct(50)) {
        uburma_cmd_query_device q = {};
        cmd_mut(UBURMA_CMD_QUERY_DEVICE, &q, sizeof(q), "query_device");
    } else {
        uburma_cmd_get_eid_list el = {};
        el.in.max_cnt = static_cast<uint32_t>(rng_.pct(70) ? rng_.below(70) : rng_.interesting());
        el.in.eids_addr = user_addr(std::min<uint64_t>(el.in.max_cnt, 64) * sizeof(uburma_eid_info));
        cmd_mut(UBURMA_CMD_GET_EID_LIST, &el, sizeof(el), "get_eid_list");
    }
}

void Worker::op_token()
{
    if (rng_.pct(60)) {
        uburma_cmd_alloc_token_id a = {};
        a.in.flag = rng_.pct(80) ? 0 : static_cast<uint32_t>(rng_.interesting());
        if (cmd_mut(UBURMA_CMD_ALLOC_TOKEN_ID, &a, sizeof(a), "alloc_token_id") == 0 && a.out.handle != 0)
            objs_.push_back({K_TOKEN, a.out.handle, a.out.token_id, 0, 0, {}});
    } else {
        destroy(K_TOKEN, UBURMA_CMD_FREE_TOKEN_ID, "free_token_id");
    }
}

void Worker::op_register_seg()
{
    if (rng_.pct(35)) {
        destroy(K_SEG, UBURMA_CMD_UNREGISTER_SEG, "unregister_seg");
        return;
    }
    uburma_cmd_register_seg r = {};
    r.in.va = data_addr(&r.in.len);
    r.in.token_id_handle = handle_of(K_TOKEN);
    r.in.iova = rng_.pct(90) ? 0 : rng_.interesting();
    r.in.token_value = static_cast<uint32_t>(rng_.next());
    // token_policy 0..7 | access bits 5..10 | token_id_valid (bit 13)
    r.in.flag = static_cast<uint32_t>(rng_.below(3)) | static_cast<uint32_t>(rng_.below(16) << 5) | (1u << 13);
    if (rng_.pct(10))
        r.in.flag = static_cast<uint32_t>(rng_.interesting());
    uint8_t resp[16];
    udata(&r.in.udata, resp, 0);
    if (cmd_mut(UBURMA_CMD_REGISTER_SEG, &r, sizeof(r), "register_seg") == 0) {
        if (r.out.handle == 0)
            finding("register_seg: success with handle 0");
        else
            objs_.push_back({K_SEG, r.out.handle, r.out.token_id, r.in.va, r.in.len, {}});
    }
}

void Worker::op_import_seg()
{
    if (rng_.pct(35)) {
        destroy(K_TSEG, UBURMA_CMD_UNIMPORT_SEG, "unimport_seg");
        return;
    }
    uburma_cmd_import_seg im = {};
    const Obj *seg = obj_of(K_SEG);
    if (!eids_.empty() && rng_.pct(85))
        std::memcpy(im.in.eid, rng_.pick(eids_).eid, sizeof(im.in.eid));
    else
        rng_.fill(im.in.eid, sizeof(im.in.eid));
    im.in.uasid = rng_.pct(80) ? static_cast<uint32_t>(getpid()) : static_cast<uint32_t>(rng_.next());
    im.in.token_id = seg != nullptr && rng_.pct(85) ? seg->id : static_cast<uint32_t>(rng_.interesting());
    im.in.va = seg != nullptr ? seg->va : rng_.interesting();
    im.in.len = seg != nullptr && rng_.pct(80) ? seg->len : rng_.interesting();
    im.in.attr = static_cast<uint32_t>(rng_.below(3)) | static_cast<uint32_t>(rng_.below(16) << 5);
    im.in.flag = static_cast<uint32_t>(rng_.below(4));
    im.in.token_value = static_cast<uint32_t>(rng_.next());
    udma_import_resp resp = {};
    udata(&im.in.udata, &resp, sizeof(resp));
    if (cmd_mut(UBURMA_CMD_IMPORT_SEG, &im, sizeof(im), "import_seg") == 0 && im.out.handle != 0)
        objs_.push_back({K_TSEG, im.out.handle, resp.target_idx, im.in.va, im.in.len, {}});
}

void Worker::op_jfce()
{
    if (jfce_fds_.size() > 4 || rng_.pct(20)) {
        if (!jfce_fds_.empty()) {
            size_t i = rng_.below(jfce_fds_.size());
            close(jfce_fds_[i]);
            jfce_fds_.erase(jfce_fds_.begin() + static_cast<long>(i));
        }
        return;
    }
    uburma_cmd_create_jfce c = {};
    if (cmd_mut(UBURMA_CMD_CREATE_JFCE, &c, sizeof(c), "create_jfce") == 0 && c.out.fd > 2) {
        // A mutated args_len may hide out.fd; a bogus fd here would close
        // one of ours, so keep only what looks like a JFCE (O_CLOEXEC).
        if (fcntl(c.out.fd, F_GETFD) == FD_CLOEXEC)
            jfce_fds_.push_back(c.out.fd);
    }
}

void Worker::op_create_jfc()
{
    if (rng_.pct(20)) {
        uburma_cmd_modify_jfc m = {};
        m.in.handle = handle_of(K_JFC);
        m.in.mask = static_cast<uint32_t>(rng_.below(4));
        m.in.moderate_count = static_cast<uint16_t>(rng_.next());
        m.in.moderate_period = static_cast<uint16_t>(rng_.next());
        cmd_mut(UBURMA_CMD_MODIFY_JFC, &m, sizeof(m), "modify_jfc");
        return;
    }
    uburma_cmd_create_jfc c = {};
    c.in.depth = depth();
    c.in.flag = rng_.pct(85) ? 0 : static_cast<uint32_t>(rng_.interesting());
    c.in.ceqn = rng_.pct(90) ? 0 : static_cast<uint32_t>(rng_.interesting());
    c.in.jfce_fd = !jfce_fds_.empty() && rng_.pct(50) ? rng_.pick(jfce_fds_) : (rng_.pct(80) ? -1 : static_cast<int>(rng_.below(64)));
    c.in.urma_jfc = rng_.next();
    udma_create_jfc_resp resp = {};
    udata(&c.in.udata, &resp, sizeof(resp));
    if (cmd_mut(UBURMA_CMD_CREATE_JFC, &c, sizeof(c), "create_jfc") == 0 && c.out.handle != 0)
        objs_.push_back({K_JFC, c.out.handle, c.out.id, 0, 0, resp.cq});
}

void Worker::op_create_jfs(bool jetty)
{
    // Each field is valid most of the time, so that most creates get
    // through and the objects they make are there to be used.
    uburma_jfs_cfg cfg = {};
    cfg.depth = depth();
    cfg.flag = rng_.pct(90) ? 0 : static_cast<uint32_t>(rng_.next());
    cfg.trans_mode = rng_.pct(90) ? 1u << rng_.below(2) : static_cast<uint32_t>(rng_.interesting());
    cfg.max_inline_data = rng_.pct(90) ? static_cast<uint32_t>(rng_.below(UDMA_SQE_MAX_INLINE + 1))
                                        : static_cast<uint32_t>(rng_.interesting());
    cfg.priority = static_cast<uint8_t>(rng_.pct(90) ? rng_.below(16) : rng_.next());
    cfg.max_sge = static_cast<uint8_t>(rng_.pct(90) ? 1 + rng_.below(UDMA_SQE_MAX_SGE) : rng_.next());
    cfg.max_rsge = static_cast<uint8_t>(rng_.pct(90) ? 1 : rng_.next());
    cfg.rnr_retry = static_cast<uint8_t>(rng_.pct(90) ? rng_.below(8) : rng_.next());
    cfg.err_timeout = static_cast<uint8_t>(rng_.pct(90) ? rng_.below(32) : rng_.next());
    udma_create_jfs_resp resp = {};
    if (!jetty) {
        uburma_cmd_create_jfs c = {};
        c.in.cfg = cfg;
        c.in.jfc_handle = handle_of(K_JFC);
        c.in.urma_jfs = rng_.next();
        udata(&c.in.udata, &resp, sizeof(resp));
        if (cmd_mut(UBURMA_CMD_CREATE_JFS, &c, sizeof(c), "create_jfs") == 0 && c.out.handle != 0)
            objs_.push_back({K_JFS, c.out.handle, c.out.id, 0, 0, resp.sq});
        return;
    }
    if (rng_.pct(40))
        cfg.trans_mode = 2;  // RC: BIND_JETTY needs one
    uburma_cmd_create_jetty c = {};
    c.in.id = rng_.pct(70) ? 0 : static_cast<uint32_t>(rng_.pct(50) ? rng_.below(2048) : rng_.interesting());
    c.in.flag = rng_.pct(70) ? 1 : static_cast<uint32_t>(rng_.interesting());  // share_jfr
    c.in.jfs_cfg = cfg;
    c.in.send_jfc_handle = handle_of(K_JFC);
    c.in.jfr_handle = handle_of(K_JFR);
    c.in.recv_jfc_handle = rng_.pct(50) ? 0 : handle_of(K_JFC);
    c.in.urma_jetty = rng_.next();
    udata(&c.in.udata, &resp, sizeof(resp));
    if (cmd_mut(UBURMA_CMD_CREATE_JETTY, &c, sizeof(c), "create_jetty") == 0 && c.out.handle != 0)
        objs_.push_back({K_JETTY, c.out.handle, c.out.id, 0, 0, resp.sq});
}

void Worker::op_create_jfr()
{
    uburma_cmd_create_jfr c = {};
    c.in.cfg.id = rng_.pct(70) ? 0 : static_cast<uint32_t>(rng_.pct(50) ? rng_.below(2048) : rng_.interesting());
    c.in.cfg.depth = depth();
    c.in.cfg.flag = rng_.pct(60) ? 1 : static_cast<uint32_t>(rng_.interesting());  // token_policy plain
    c.in.cfg.trans_mode = rng_.pct(90) ? 1u << rng_.below(2) : static_cast<uint32_t>(rng_.interesting());
    c.in.cfg.token_value = static_cast<uint32_t>(rng_.next());
    c.in.cfg.max_sge = static_cast<uint8_t>(rng_.pct(90) ? 1 + rng_.below(UDMA_RQE_MAX_SGE) : rng_.next());
    c.in.cfg.min_rnr_timer = static_cast<uint8_t>(rng_.pct(90) ? rng_.below(32) : rng_.next());
    c.in.jfc_handle = handle_of(K_JFC);
    c.in.urma_jfr = rng_.next();
    udma_create_jfr_resp resp = {};
    udata(&c.in.udata, &resp, sizeof(resp));
    if (cmd_mut(UBURMA_CMD_CREATE_JFR, &c, sizeof(c), "create_jfr") == 0 && c.out.handle != 0)
        objs_.push_back({K_JFR, c.out.handle, c.out.cfg.id, 0, 0, resp.rq});
}

void Worker::op_modify_query()
{
    switch (rng_.below(6)) {
    case 0:
    case 1: {
        uburma_cmd_modify_jetty m = {};
        bool jetty = rng_.pct(50);
        m.in.handle = handle_of(jetty ? K_JETTY : K_JFS);
        // Mostly a state change (JETTY_STATE, 0x2) to SUSPENDED or ERROR
        // (urma_jetty_state_t 2, 3), so that FLUSH finds work.
        m.in.mask = static_cast<uint32_t>(rng_.pct(70) ? 0x2 : rng_.below(8));
        m.in.rx_threshold = static_cast<uint32_t>(rng_.pct(70) ? rng_.below(64) : rng_.interesting());
        m.in.state = static_cast<uint32_t>(rng_.pct(90) ? rng_.below(4) : rng_.interesting());
        cmd_mut(jetty ? UBURMA_CMD_MODIFY_JETTY : UBURMA_CMD_MODIFY_JFS, &m, sizeof(m), "modify_jfs/jetty");
        break;
    }
    case 2: {
        uburma_cmd_modify_jfr m = {};
        m.in.handle = handle_of(K_JFR);
        m.in.mask = static_cast<uint32_t>(rng_.pct(70) ? 0x2 : rng_.below(8));
        m.in.rx_threshold = static_cast<uint32_t>(rng_.pct(70) ? rng_.below(64) : rng_.interesting());
        m.in.state = static_cast<uint32_t>(rng_.pct(90) ? rng_.below(3) : rng_.interesting());
        cmd_mut(UBURMA_CMD_MODIFY_JFR, &m, sizeof(m), "modify_jfr");
        break;
    }
    case 3: {
        uburma_cmd_query_jfs q = {};
        q.in.handle = handle_of(K_JFS);
        cmd_mut(UBURMA_CMD_QUERY_JFS, &q, sizeof(q), "query_jfs");
        break;
    }
    case 4: {
        uburma_cmd_query_jfr q = {};
        q.in.handle = handle_of(K_JFR);
        cmd_mut(UBURMA_CMD_QUERY_JFR, &q, sizeof(q), "query_jfr");
        break;
    }
    default: {
        uburma_cmd_query_jetty q = {};
        q.in.handle = handle_of(K_JETTY);
        cmd_mut(UBURMA_CMD_QUERY_JETTY, &q, sizeof(q), "query_jetty");
    }
    }
}

void Worker::op_delete()
{
    static const std::pair<Kind, uint32_t> del[] = {
        {K_JFC, UBURMA_CMD_DELETE_JFC},     {K_JFS, UBURMA_CMD_DELETE_JFS},
        {K_JFR, UBURMA_CMD_DELETE_JFR},     {K_JETTY, UBURMA_CMD_DELETE_JETTY},
        {K_TJFR, UBURMA_CMD_UNIMPORT_JFR},  {K_TJETTY, UBURMA_CMD_UNIMPORT_JETTY},
    };
    const auto &d = del[rng_.below(6)];
    if (d.first == K_TJFR || d.first == K_TJETTY) {
        uburma_cmd_destroy c = {};
        c.in.handle = handle_of(d.first);
        if (cmd_mut(d.second, &c, sizeof(c), "unimport_jfr/jetty") == 0)
            forget(c.in.handle);
        return;
    }
    uburma_cmd_delete c = {};
    c.in.handle = handle_of(d.first);
    if (cmd_mut(d.second, &c, sizeof(c), "delete") == 0)
        forget(c.in.handle);
}

void Worker::op_import_jetty(bool jfr)
{
    uburma_cmd_import_jetty im = {};
    const Obj *t = obj_of(jfr ? K_JFR : (rng_.pct(50) ? K_JETTY : K_JFR));
    if (!eids_.empty() && rng_.pct(85))
        std::memcpy(im.in.eid, rng_.pick(eids_).eid, sizeof(im.in.eid));
    else
        rng_.fill(im.in.eid, sizeof(im.in.eid));
    im.in.uasid = rng_.pct(80) ? static_cast<uint32_t>(getpid()) : static_cast<uint32_t>(rng_.next());
    im.in.id = t != nullptr && rng_.pct(80) ? t->id : static_cast<uint32_t>(rng_.interesting());
    im.in.trans_mode = rng_.pct(80) ? 1u << rng_.below(3) : static_cast<uint32_t>(rng_.interesting());
    im.in.type = static_cast<uint32_t>(rng_.below(4));
    im.in.flag = static_cast<uint32_t>(rng_.below(4));
    im.in.policy = static_cast<uint32_t>(rng_.below(3));
    im.in.tp_type = static_cast<uint32_t>(rng_.below(3));
    im.in.token_value = static_cast<uint32_t>(rng_.next());
    udma_import_resp resp = {};
    udata(&im.in.udata, &resp, sizeof(resp));
    uint32_t c = jfr ? UBURMA_CMD_IMPORT_JFR : UBURMA_CMD_IMPORT_JETTY;
    if (cmd_mut(c, &im, sizeof(im), "import_jfr/jetty") == 0 && im.out.handle != 0)
        objs_.push_back({jfr ? K_TJFR : K_TJETTY, im.out.handle, resp.target_idx, 0, 0, {}});
}

void Worker::op_bind()
{
    uburma_cmd_bind_jetty b = {};
    b.in.jetty_handle = handle_of(K_JETTY);
    b.in.tjetty_handle = handle_of(K_TJETTY);
    bool bind = rng_.pct(60);
    cmd_mut(bind ? UBURMA_CMD_BIND_JETTY : UBURMA_CMD_UNBIND_JETTY, &b, sizeof(b), "bind/unbind");
}

void Worker::op_doorbell()
{
    if (rng_.pct(30)) {
        uburma_cmd_rearm_jfc r = {};
        r.in.handle = handle_of(K_JFC);
        r.in.solicited_only = static_cast<uint32_t>(rng_.below(3));
        cmd_mut(UBURMA_CMD_REARM_JFC, &r, sizeof(r), "rearm_jfc");
        return;
    }
    static const Kind k[] = {K_JFS, K_JETTY, K_JFR, K_JFC};
    uburma_cmd_ring_doorbell d = {};
    d.in.handle = handle_of(k[rng_.below(4)]);
    cmd_mut(UBURMA_CMD_RING_DOORBELL, &d, sizeof(d), "doorbell");
}

void Worker::op_flush()
{
    uburma_cmd_flush f = {};
    f.in.handle = handle_of(rng_.pct(50) ? K_JFS : K_JETTY);
    f.in.max_cnt = static_cast<uint32_t>(rng_.pct(70) ? rng_.below(64) : rng_.interesting());
    cmd_mut(UBURMA_CMD_FLUSH, &f, sizeof(f), "flush");
}

void Worker::op_mmap()
{
    std::vector<const Obj *> rings;
    for (const Obj &o : objs_)
        if (o.ring.mmap_len != 0)
            rings.push_back(&o);
    uint64_t off, len;
    const Obj *o = rings.empty() ? nullptr : rings[rng_.below(rings.size())];
    if (o != nullptr && rng_.pct(80)) {
        off = o->ring.mmap_offset;
        len = o->ring.mmap_len;
    } else {
        off = rng_.below(64) * kPage;
        len = kPage * (1 + rng_.below(8));
    }
    int prot = PROT_READ | PROT_WRITE;
    int flags = MAP_SHARED;
    if (rng_.pct(15)) {
        switch (rng_.below(5)) {
        case 0:
            len += kPage * (1 + rng_.below(3));
            break;
        case 1:
            len = len > kPage ? len - kPage : len;
            break;
        case 2:
            prot |= PROT_EXEC;
            break;
        case 3:
            flags = MAP_PRIVATE;
            break;
        default:
            off += kPage;
        }
    }
    if (maps_.size() > 24)
        return op_munmap();
    void *p = mmap(nullptr, len, prot, flags, fd_, static_cast<off_t>(off));
    if (p == MAP_FAILED) {
        errnos_[errno]++;
        if (!documented_errno(errno))
            finding("mmap offset %#" PRIx64 " len %#" PRIx64 ": undocumented errno %d", off, len, errno);
        return;
    }
    if ((prot & PROT_EXEC) || flags != MAP_SHARED)
        finding("mmap accepted %s", (prot & PROT_EXEC) ? "PROT_EXEC" : "MAP_PRIVATE");
    Map m = {static_cast<uint8_t *>(p), len, o != nullptr && off == o->ring.mmap_offset ? o->handle : 0,
             o != nullptr ? o->ring.entry_size : 0, o != nullptr ? o->ring.entry_cnt : 0, false, false};
    maps_.push_back(m);
    if (rng_.pct(20)) {
        // Growing a ring mapping (VM_DONTEXPAND) must fail.
        void *q = mremap(p, len, len + kPage, MREMAP_MAYMOVE);
        if (q != MAP_FAILED) {
            finding("mremap grew a ring mapping");
            maps_.back().addr = static_cast<uint8_t *>(q);
            maps_.back().len = len + kPage;
        }
    }
    if (rng_.pct(10) && mprotect(p, len, PROT_READ | PROT_EXEC) == 0)
        finding("mprotect made a ring mapping executable");
}

void Worker::op_munmap()
{
    if (maps_.empty())
        return;
    size_t i = rng_.below(maps_.size());
    if (rng_.pct(20) && maps_[i].len > kPage) {
        // Unmap the first page only: the rest stays mapped.
        munmap(maps_[i].addr, kPage);
        maps_[i].addr += kPage;
        maps_[i].len -= kPage;
        maps_[i].handle = 0;
        maps_[i].entry_cnt = 0;
        return;
    }
    munmap(maps_[i].addr, maps_[i].len);
    maps_.erase(maps_.begin() + static_cast<long>(i));
}

void Worker::op_madvise()
{
    if (maps_.empty())
        return;
    Map &m = maps_[rng_.below(maps_.size())];
    static const int advice[] = {MADV_DOFORK, MADV_DONTFORK, MADV_DONTNEED, MADV_WILLNEED, MADV_DODUMP};
    int a = advice[rng_.below(5)];
    if (madvise(m.addr, m.len, a) == 0) {
        // A ring mapping has no fault handler: after MADV_DONTNEED its
        // pages are gone for this process, and touching them is SIGBUS.
        if (a == MADV_DONTNEED)
            m.zapped = true;
        else if (a == MADV_DOFORK)
            m.dofork = true;
        else if (a == MADV_DONTFORK)
            m.dofork = false;
    }
}

void Worker::fill_sqe(udma_sqe *sqe)
{
    std::memset(sqe, 0, sizeof(*sqe));
    sqe->opcode = rng_.pct(90) ? rng_.pick(kOpcodes) : static_cast<uint8_t>(rng_.next());
    sqe->flags = static_cast<uint8_t>(rng_.below(16));
    sqe->user_ctx = rng_.next();
    const Obj *t = obj_of(rng_.pct(50) ? K_TJFR : K_TJETTY);
    sqe->target_idx = t != nullptr && rng_.pct(80) ? t->id : static_cast<uint32_t>(rng_.interesting());
    const Obj *rs = obj_of(K_TSEG);
    sqe->rseg_idx = rs != nullptr && rng_.pct(80) ? rs->id : static_cast<uint32_t>(rng_.interesting());
    sqe->remote_va = rs != nullptr && rng_.pct(80) ? rs->va + rng_.below(rs->len + 64) : rng_.interesting();
    sqe->remote_len = static_cast<uint32_t>(rng_.pct(70) ? rng_.below(8192) : rng_.interesting());
    sqe->notify_rseg_idx = sqe->rseg_idx;
    sqe->notify_va = sqe->remote_va + (rng_.below(8) << 3);
    sqe->data = rng_.next();
    sqe->cmp_data = rng_.next();
    if (sqe->flags & UDMA_SQE_F_INLINE) {
        sqe->inline_len = static_cast<uint16_t>(rng_.pct(80) ? rng_.below(UDMA_SQE_MAX_INLINE + 1) : rng_.next());
        rng_.fill(sqe->inline_data, UDMA_SQE_MAX_INLINE);
        return;
    }
    sqe->num_sge = static_cast<uint8_t>(rng_.pct(90) ? rng_.below(UDMA_SQE_MAX_SGE + 2) : rng_.next());
    for (unsigned i = 0; i < UDMA_SQE_MAX_SGE; i++) {
        const Obj *s = obj_of(K_SEG);
        udma_sge &g = sqe->sge[i];
        g.token_id = s != nullptr && rng_.pct(85) ? s->id : static_cast<uint32_t>(rng_.interesting());
        g.va = s != nullptr && rng_.pct(85) ? s->va + rng_.below(s->len + 16) : rng_.interesting();
        g.len = static_cast<uint32_t>(rng_.pct(80) ? rng_.below(4096) : rng_.interesting());
    }
}

void Worker::fill_rqe(udma_rqe *rqe)
{
    std::memset(rqe, 0, sizeof(*rqe));
    rqe->user_ctx = rng_.next();
    rqe->num_sge = static_cast<uint8_t>(rng_.pct(90) ? rng_.below(UDMA_RQE_MAX_SGE + 2) : rng_.next());
    for (unsigned i = 0; i < UDMA_RQE_MAX_SGE; i++) {
        const Obj *s = obj_of(K_SEG);
        rqe->sge[i].token_id = s != nullptr && rng_.pct(85) ? s->id : static_cast<uint32_t>(rng_.next());
        rqe->sge[i].va = s != nullptr && rng_.pct(85) ? s->va + rng_.below(s->len + 16) : rng_.interesting();
        rqe->sge[i].len = static_cast<uint32_t>(rng_.pct(80) ? rng_.below(4096) : rng_.interesting());
    }
}

// Writes indexes and entries into a mapped ring the way a buggy or hostile
// process would, then rings the doorbell of its object (or another).
void Worker::op_scribble()
{
    std::vector<size_t> usable;
    for (size_t i = 0; i < maps_.size(); i++)
        if ((!child_ || maps_[i].dofork) && !maps_[i].zapped)
            usable.push_back(i);
    if (usable.empty())
        return;
    Map &m = maps_[rng_.pick(usable)];
    if (m.len < kPage)
        return;
    auto *ctrl = reinterpret_cast<volatile udma_ring_ctrl *>(m.addr);
    const size_t esz = m.entry_size != 0 ? m.entry_size : UDMA_SQE_SIZE;
    const size_t nent = (m.len - kPage) / esz;
    uint32_t pi = ctrl->pi;
    uint32_t n = static_cast<uint32_t>(rng_.below(8));
    for (uint32_t i = 0; i < n && nent != 0; i++) {
        uint32_t idx = pi + i;
        uint8_t *e = m.addr + kPage + (idx % nent) * esz;
        if (esz == UDMA_SQE_SIZE && rng_.pct(80)) {
            udma_sqe s;
            if (rng_.pct(70)) {
                fill_sqe(&s);
            } else {
                udma_rqe r;
                fill_rqe(&r);
                static_assert(sizeof(r) <= sizeof(s), "RQE fits");
                std::memset(&s, 0, sizeof(s));
                std::memcpy(&s, &r, sizeof(r));
            }
            std::memcpy(e, &s, esz);
        } else {
            rng_.fill(e, esz);
        }
    }
    switch (rng_.below(6)) {
    case 0:
        ctrl->pi = static_cast<uint32_t>(rng_.interesting());
        break;
    case 1:
        ctrl->ci = static_cast<uint32_t>(rng_.interesting());
        break;
    case 2:
        ctrl->db_wanted = static_cast<uint32_t>(rng_.next());
        break;
    default:
        __atomic_store_n(&reinterpret_cast<udma_ring_ctrl *>(m.addr)->pi, pi + n, __ATOMIC_RELEASE);
    }
    uburma_cmd_ring_doorbell d = {};
    d.in.handle = m.handle != 0 && rng_.pct(85) ? m.handle : any_handle();
    cmd(UBURMA_CMD_RING_DOORBELL, &d, sizeof(d), "doorbell(scribbled)");
}

// Random command numbers and bytes, pointers and lengths; other ioctls.
void Worker::op_raw()
{
    uint8_t *args = scratch_ + rng_.below(kScratchPages * kPage - 512);
    rng_.fill(args, 512);
    uint32_t command = static_cast<uint32_t>(rng_.pct(80) ? rng_.below(kLastCmd + 3) : rng_.interesting());
    uint32_t len = static_cast<uint32_t>(rng_.pct(70) ? rng_.below(512) : rng_.interesting());
    if (rng_.pct(15)) {
        // Another ioctl number, or a header at a bad address.
        unsigned long nr = rng_.pct(50) ? static_cast<unsigned long>(rng_.next() & 0xffffffffu) : UBURMA_CMD;
        void *arg = rng_.pct(50) ? reinterpret_cast<void *>(user_addr(16)) : args;
        int ret = ioctl(fd_, nr, arg) == 0 ? 0 : -errno;
        if (ret < 0) {
            errnos_[-ret]++;
            if (!documented_errno(-ret))
                finding("ioctl %#lx: undocumented errno %d", nr, -ret);
        }
        return;
    }
    uburma_cmd_hdr hdr = {command, len, rng_.pct(80) ? reinterpret_cast<uintptr_t>(args) : user_addr(len)};
    int ret = ioctl(fd_, UBURMA_CMD, &hdr) == 0 ? 0 : -errno;
    if (ret < 0) {
        errnos_[-ret]++;
        if (!documented_errno(-ret))
            finding("raw command %u len %u: undocumented errno %d", command, len, -ret);
    } else if (command == 0 || command > kLastCmd) {
        finding("raw command %u succeeded", command);
    }
    // A create may have succeeded with junk: it stays until close.
}

void Worker::op_events()
{
    uint8_t buf[64];
    int f = -1;
    if (async_fd_ >= 0 && rng_.pct(50))
        f = async_fd_;
    else if (!jfce_fds_.empty())
        f = rng_.pick(jfce_fds_);
    if (f < 0)
        return;
    // Non-blocking: between poll and read the racing thread, or a forked
    // child sharing the file, may take the record or delete its object
    // (which purges the records that name it), and a blocking read would
    // then wait for an event nobody makes (check-long, seed
    // 7714330115428706876: the round watchdog found a worker asleep in
    // uburma_event_read).
    int fl = fcntl(f, F_GETFL);
    if (fl >= 0 && !(fl & O_NONBLOCK))
        fcntl(f, F_SETFL, fl | O_NONBLOCK);
    struct pollfd p = {f, POLLIN, 0};
    if (poll(&p, 1, 0) > 0 && (p.revents & POLLIN)) {
        size_t len = rng_.pct(80) ? sizeof(buf) : rng_.below(sizeof(buf));
        if (read(f, buf, len) < 0 && errno != EAGAIN && errno != EINVAL)
            finding("read of an event fd: %s", std::strerror(errno));
    }
}

// A child shares the file (and the rings mapped with MADV_DOFORK): it
// works on them for a while and exits, or is killed on the way.
void Worker::op_fork()
{
    if (child_)
        return;
    uint64_t child_seed = rng_.next();
    uint64_t steps = 5 + rng_.below(30);
    bool kill_it = rng_.pct(40);
    uint64_t delay_us = rng_.below(20000);
    std::fflush(nullptr);
    pid_t pid = fork();
    if (pid < 0)
        return;
    if (pid == 0) {
        child_ = true;
        rng_ = Rng(child_seed);
        race_ = nullptr;  // the racing thread is not in the child
        for (uint64_t i = 0; i < steps; i++)
            step();
        std::fflush(nullptr);
        _exit(findings_ == 0 ? 0 : 3);
    }
    if (kill_it) {
        usleep(static_cast<useconds_t>(delay_us));
        kill(pid, SIGKILL);
    }
    int st = 0;
    waitpid(pid, &st, 0);
    if (WIFEXITED(st) && WEXITSTATUS(st) != 0)
        findings_++;
    else if (WIFSIGNALED(st) && WTERMSIG(st) != SIGKILL)
        finding("forked child died of signal %d", WTERMSIG(st));
}

void Worker::race_publish()
{
    if (race_ == nullptr)
        return;
    for (size_t i = 0; i < kRaceSlots; i++)
        race_->handles[i].store(i < objs_.size() ? objs_[objs_.size() - 1 - i].handle : 0);
}

// Doorbells, re-arms, queries and deletes of the worker's recent handles,
// racing the main thread's creates and deletes on the same file.
void Worker::race_thread(RaceState *rs, uint64_t seed)
{
    Rng rng(seed);
    while (!rs->stop.load()) {
        int fd = rs->fd.load();
        uint64_t h = rs->handles[rng.below(kRaceSlots)].load();
        if (fd < 0 || h == 0) {
            usleep(1000);
            continue;
        }
        union {
            uburma_cmd_ring_doorbell db;
            uburma_cmd_rearm_jfc rearm;
            uburma_cmd_query_jetty qj;
            uburma_cmd_delete del;
            uburma_cmd_flush fl;
        } a;
        std::memset(&a, 0, sizeof(a));
        a.db.in.handle = h;
        static const std::pair<uint32_t, uint32_t> c[] = {
            {UBURMA_CMD_RING_DOORBELL, sizeof(uburma_cmd_ring_doorbell)},
            {UBURMA_CMD_REARM_JFC, sizeof(uburma_cmd_rearm_jfc)},
            {UBURMA_CMD_QUERY_JETTY, sizeof(uburma_cmd_query_jetty)},
            {UBURMA_CMD_QUERY_JFS, sizeof(uburma_cmd_query_jfs)},
            {UBURMA_CMD_FLUSH, sizeof(uburma_cmd_flush)},
            {UBURMA_CMD_DELETE_JFS, sizeof(uburma_cmd_delete)},
            {UBURMA_CMD_DELETE_JETTY, sizeof(uburma_cmd_delete)},
            {UBURMA_CMD_DELETE_JFC, sizeof(uburma_cmd_delete)},
        };
        const auto &pick = c[rng.below(8)];
        int ret = ub_cmd(fd, pick.first, &a, pick.second);
        if (ret < 0 && !documented_errno(-ret) && -ret != EBADF)
            std::fprintf(stderr, "FINDING (race thread): command %u: undocumented errno %d\n", pick.first, -ret);
        usleep(static_cast<useconds_t>(rng.below(2000)));
    }
}

void Worker::step()
{
    ops_++;
    g_op = ops_;
    if (fd_ < 0) {
        open_dev();
        if (fd_ < 0)
            return;
    }
    if (!ctx_ && rng_.pct(90)) {
        create_ctx();
        return;
    }
    switch (rng_.below(32)) {
    case 0:
        op_query();
        break;
    case 1:
    case 2:
        op_token();
        break;
    case 3:
    case 4:
        op_register_seg();
        break;
    case 5:
        op_import_seg();
        break;
    case 6:
        op_jfce();
        break;
    case 7:
    case 8:
        op_create_jfc();
        break;
    case 9:
    case 10:
        op_create_jfs(false);
        break;
    case 11:
        op_create_jfs(true);
        break;
    case 12:
    case 13:
        op_create_jfr();
        break;
    case 14:
        op_modify_query();
        break;
    case 15:
    case 16:
        op_delete();
        break;
    case 17:
        op_import_jetty(rng_.pct(50));
        break;
    case 18:
        op_bind();
        break;
    case 19:
        op_doorbell();
        break;
    case 20:
        op_flush();
        break;
    case 21:
    case 22:
        op_mmap();
        break;
    case 23:
        op_munmap();
        break;
    case 24:
        op_madvise();
        break;
    case 25:
    case 26:
    case 27:
        op_scribble();
        break;
    case 28:
        op_raw();
        break;
    case 29:
        op_events();
        break;
    case 30:
        if (rng_.pct(30))
            op_fork();
        else
            create_ctx();  // again: EEXIST
        break;
    default:
        if (rng_.pct(15))
            close_dev();  // everything of the file goes
        else if (rng_.pct(50))
            op_raw();
        else
            op_scribble();
    }
    race_publish();
}

// A worker that dies of a signal says where, then dies of it.
void on_fatal(int sig, siginfo_t *si, void *uc)
{
    char msg[200];
    const auto *ctx = static_cast<const ucontext_t *>(uc);
    unsigned long long ip = 0;
#if defined(__x86_64__)
    ip = static_cast<unsigned long long>(ctx->uc_mcontext.gregs[REG_RIP]);
#elif defined(__aarch64__)
    ip = static_cast<unsigned long long>(ctx->uc_mcontext.pc);
#endif
    int len = std::snprintf(msg, sizeof(msg),
                            "worker seed %" PRIu64 ": signal %d at address %p (ip %#llx), operation %" PRIu64 "\n",
                            g_seed, sig, si->si_addr, ip, g_op);
    if (write(2, msg, static_cast<size_t>(len)) < 0) {
    }
    signal(sig, SIG_DFL);
    raise(sig);
}

int Worker::run(uint64_t n)
{
    struct sigaction sa = {};
    sa.sa_sigaction = on_fatal;
    sa.sa_flags = SA_SIGINFO;
    sigaction(SIGBUS, &sa, nullptr);
    sigaction(SIGSEGV, &sa, nullptr);
    g_seed = seed_;
    // The scratch area, a PROT_NONE guard page and a read-only page.
    const size_t span = (kScratchPages + 2) * kPage;
    auto *s = static_cast<uint8_t *>(mmap(nullptr, span, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0));
    // The data area, then kDataGuardPages PROT_NONE pages: a range that
    // runs past the area must fail to pin, not register whatever the
    // process has mapped next to it.
    data_ = static_cast<uint8_t *>(mmap(nullptr, (kDataPages + kDataGuardPages) * kPage, PROT_READ | PROT_WRITE,
                                        MAP_PRIVATE | MAP_ANONYMOUS, -1, 0));
    if (s == MAP_FAILED || data_ == MAP_FAILED) {
        std::perror("mmap");
        return 1;
    }
    scratch_ = s;
    mprotect(s + kScratchPages * kPage, kPage, PROT_NONE);
    mprotect(s + (kScratchPages + 1) * kPage, kPage, PROT_READ);
    mprotect(data_ + kDataPages * kPage, kDataGuardPages * kPage, PROT_NONE);
    std::memset(data_, 0x5a, kDataPages * kPage);

    RaceState rs;
    for (auto &h : rs.handles)
        h.store(0);
    race_ = &rs;
    std::thread racer(race_thread, &rs, seed_ ^ 0x5ace);
    for (uint64_t i = 0; i < n; i++)
        step();
    rs.stop.store(true);
    racer.join();
    race_ = nullptr;
    close_dev();
    for (const Map &m : maps_)
        munmap(m.addr, m.len);
    maps_.clear();

    std::string errs;
    for (const auto &e : errnos_)
        errs += " " + std::to_string(e.first) + ":" + std::to_string(e.second);
    std::string oks;
    for (uint32_t c = 1; c <= kLastCmd; c++)
        oks += " " + std::to_string(ok_[c]);
    std::printf("worker seed %" PRIu64 "%s: %" PRIu64 " ops, %d findings, errnos%s; successes by command 1..%u:%s\n",
                seed_, unpriv_ ? " (nobody)" : "", ops_, findings_, errs.c_str(), kLastCmd, oks.c_str());
    return findings_;
}

std::string read_text(const std::string &path)
{
    std::string out;
    FILE *f = std::fopen(path.c_str(), "r");
    if (f == nullptr)
        return "(" + std::string(std::strerror(errno)) + ")\n";
    char buf[4096];
    size_t n;
    while ((n = std::fread(buf, 1, sizeof(buf), f)) > 0)
        out.append(buf, n);
    std::fclose(f);
    if (out.empty() || out.back() != '\n')
        out += '\n';
    return out;
}

// Every process whose parent is in roots, and theirs, and so on (the
// workers' forked children; orphans come to the driver, a subreaper).
std::vector<pid_t> descendants(const std::vector<pid_t> &roots)
{
    std::vector<std::pair<pid_t, pid_t>> all;  // pid, ppid
    DIR *d = opendir("/proc");
    if (d != nullptr) {
        while (struct dirent *de = readdir(d)) {
            pid_t pid = static_cast<pid_t>(std::atoi(de->d_name));
            if (pid <= 0)
                continue;
            std::string st = read_text("/proc/" + std::string(de->d_name) + "/stat");
            size_t rp = st.rfind(')');
            int ppid = 0;
            char state = 0;
            if (rp != std::string::npos && std::sscanf(st.c_str() + rp + 1, " %c %d", &state, &ppid) == 2)
                all.push_back({pid, ppid});
        }
        closedir(d);
    }
    std::vector<pid_t> out = roots;
    for (size_t i = 0; i < out.size(); i++)
        for (const auto &p : all)
            if (p.second == out[i] && std::find(out.begin(), out.end(), p.first) == out.end())
                out.push_back(p.first);
    return out;
}

// A stuck round: each task's state, wait channel and kernel stack into
// the log, the kernel's list of blocked tasks (sysrq w) into its log.
void dump_stuck(const std::vector<pid_t> &pids)
{
    for (pid_t pid : pids) {
        std::string dir = "/proc/" + std::to_string(pid);
        DIR *t = opendir((dir + "/task").c_str());
        if (t == nullptr)
            continue;
        while (struct dirent *de = readdir(t)) {
            if (de->d_name[0] == '.')
                continue;
            std::string td = dir + "/task/" + de->d_name;
            std::string st = read_text(td + "/stat");
            size_t rp = st.rfind(')');
            char state = '?';
            if (rp != std::string::npos)
                std::sscanf(st.c_str() + rp + 1, " %c", &state);
            std::string wchan = read_text(td + "/wchan");
            if (!wchan.empty() && wchan.back() == '\n')
                wchan.pop_back();
            std::printf("  stuck task %d/%s: state %c, wchan %s, stack:\n%s", pid, de->d_name, state,
                        wchan.c_str(), read_text(td + "/stack").c_str());
        }
        closedir(t);
    }
    FILE *f = std::fopen("/proc/sysrq-trigger", "w");
    if (f != nullptr) {
        std::fputs("w", f);
        std::fclose(f);
        std::printf("  sysrq w: the kernel's blocked tasks are in its log\n");
    } else {
        std::printf("  sysrq w: %s\n", std::strerror(errno));
    }
    std::fflush(stdout);
}

void usage(const char *argv0)
{
    std::fprintf(stderr,
                 "usage: %s [--seed N] [--iterations N] [--workers N] [--per-round N]\n"
                 "          [--kill-pct P] [--round-ms MS] [--dev NAME] [--verbose] [--nobody]\n"
                 "          [--worker-seed S]\n"
                 "Fuzzes /dev/uburma/NAME (default udma0) with N operations in all;\n"
                 "odd-numbered workers run as user nobody. Exit 0: no finding and every\n"
                 "object count back to 0 afterwards. --worker-seed S replays the worker\n"
                 "that printed seed S (--per-round operations; options before it;\n"
                 "--nobody first for a worker that printed \"(nobody)\"). A round whose\n"
                 "processes are not done in --round-ms (default %llu ms per --per-round\n"
                 "operation, at least %llu) is a finding: their kernel stacks and sysrq w\n"
                 "are dumped and they are SIGKILLed; the run stops if they do not go.\n",
                 argv0, static_cast<unsigned long long>(kRoundMsPerOp),
                 static_cast<unsigned long long>(kRoundMinMs));
    std::exit(2);
}

}  // namespace

int main(int argc, char **argv)
{
    Options opt;
    bool nobody = false;
    Args(usage)
        .workers(opt)
        .num("--per-round", &opt.per_round, 1)
        .num("--round-ms", &opt.round_ms)
        .str("--dev", &opt.dev)
        .flag("--nobody", &nobody)
        .num("--worker-seed",
             [&opt, &nobody](uint64_t wseed) {
                 // One worker of a run, by the seed it printed, in this
                 // process, with the options before it (--nobody: as
                 // the run's odd-numbered workers).
                 if (nobody && geteuid() == 0)
                     drop_privileges();
                 Worker wk(opt, wseed, geteuid() != 0);
                 std::exit(wk.run(opt.per_round) == 0 ? 0 : 1);
                 return true;
             })
        .parse(argc, argv);
    std::printf("uburma_ioctl_fuzz: seed %" PRIu64 ", %" PRIu64 " operations, %u workers, %u per round\n", opt.seed,
                opt.iterations, opt.workers, opt.per_round);
    std::fflush(stdout);

    // Orphans (a SIGKILLed worker's forked children) come here, to be
    // reaped, judged and, if stuck, found by the watchdog.
    prctl(PR_SET_CHILD_SUBREAPER, 1);
    const uint64_t round_ms = opt.round_ms != 0 ? opt.round_ms
                                                : std::max<uint64_t>(kRoundMinMs, kRoundMsPerOp * opt.per_round);
    Rng master(opt.seed);
    const uint64_t t0 = monotonic_ms();
    uint64_t done = 0, rounds = 0, kills = 0, stuck_rounds = 0;
    int failures = 0;
    bool stop = false;
    // A process ended: a finding unless it exited 0 or died of one of our
    // SIGKILLs (the victim's, the watchdog's, or a worker's of its child).
    auto judge = [&](pid_t pid, int st, bool killed, const char *what) {
        if (WIFEXITED(st) && WEXITSTATUS(st) == 0)
            return;
        if (WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL && killed)
            return;
        if (WIFSIGNALED(st))
            std::printf("FINDING: %s %d died of signal %d\n", what, pid, WTERMSIG(st));
        else
            std::printf("%s %d exited with %d (findings above)\n", what, pid, WEXITSTATUS(st));
        failures++;
    };
    while (done < opt.iterations && !stop) {
        // One round: each worker does up to per_round operations; one of
        // them may be SIGKILLed in the middle.
        std::map<pid_t, std::pair<uint64_t, bool>> live;  // worker: seed, as nobody
        std::vector<pid_t> pids;
        for (unsigned w = 0; w < opt.workers && done < opt.iterations; w++) {
            uint64_t n = std::min<uint64_t>(opt.per_round, opt.iterations - done);
            uint64_t wseed = master.next();
            bool unpriv = (w % 2) == 1 && geteuid() == 0;
            done += n;
            std::fflush(nullptr);
            pid_t pid = fork();
            if (pid < 0) {
                std::perror("fork");
                return 1;
            }
            if (pid == 0) {
                prctl(PR_SET_CHILD_SUBREAPER, 0);
                if (unpriv)
                    drop_privileges();
                Worker wk(opt, wseed, unpriv);
                int f = wk.run(n);
                std::fflush(nullptr);
                _exit(f == 0 ? 0 : 3);
            }
            pids.push_back(pid);
            live[pid] = {wseed, unpriv};
        }
        const uint64_t start = monotonic_ms();
        pid_t victim = -1;
        uint64_t kill_at = 0;
        if (master.pct(opt.kill_pct) && !pids.empty()) {
            victim = pids[master.below(pids.size())];
            kill_at = start + (100000 + master.below(2000000)) / 1000;
        }
        bool watchdog_killed = false;
        uint64_t deadline = start + round_ms;
        // Until every worker and every orphan of this round is reaped.
        for (;;) {
            int st = 0;
            pid_t pid = waitpid(-1, &st, WNOHANG);
            if (pid > 0) {
                auto it = live.find(pid);
                if (it != live.end()) {
                    judge(pid, st, watchdog_killed || (pid == victim && kill_at == 0), "worker");
                    live.erase(it);
                } else {
                    judge(pid, st, true, "orphaned child");  // its worker may have SIGKILLed it
                }
                continue;
            }
            if (pid < 0 && errno == ECHILD)
                break;
            const uint64_t now = monotonic_ms();
            if (victim > 0 && kill_at != 0 && now >= kill_at) {
                if (live.count(victim) != 0 && kill(victim, SIGKILL) == 0)
                    kills++;
                kill_at = 0;
            }
            if (now >= deadline && !watchdog_killed) {
                std::vector<pid_t> stuck = descendants({getpid()});
                stuck.erase(stuck.begin());  // not the driver
                std::printf("FINDING: round %" PRIu64 " not done after %" PRIu64 " ms; its workers:", rounds,
                            now - start);
                for (const auto &w : live)
                    std::printf(" pid %d (--worker-seed %" PRIu64 "%s)", w.first, w.second.first,
                                w.second.second ? ", --nobody" : "");
                std::printf("\n");
                dump_stuck(stuck);
                for (pid_t p : stuck)
                    kill(p, SIGKILL);
                failures++;
                stuck_rounds++;
                watchdog_killed = true;
                deadline = now + kReapMs;
            } else if (now >= deadline) {
                std::vector<pid_t> left = descendants({getpid()});
                left.erase(left.begin());
                std::printf("FINDING: processes of round %" PRIu64 " still there %" PRIu64
                            " ms after SIGKILL; stopping\n",
                            rounds, kReapMs);
                dump_stuck(left);
                failures++;
                stop = true;
                break;
            }
            usleep(20 * 1000);
        }
        rounds++;
    }

    std::string detail;
    bool zero = wait_objects_zero(10000, &detail);
    if (!zero) {
        std::printf("FINDING: objects left after every process exited: %s\n", detail.c_str());
        failures++;
    }
    std::printf("uburma_ioctl_fuzz: seed %" PRIu64 ": %" PRIu64 " operations in %" PRIu64
                " rounds, %" PRIu64 " workers killed, %" PRIu64 " rounds stuck, %.1f s, %d failures; object counts %s\n",
                opt.seed, done, rounds, kills, stuck_rounds, static_cast<double>(monotonic_ms() - t0) / 1000.0, failures,
                zero ? "back to 0" : "NOT back to 0");
    return failures == 0 ? 0 : 1;
}
