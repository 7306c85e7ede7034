// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The UB/URMA stack authors
// urma_local_bench: the local data path of udma next to memcpy in the same
// process. One context writes into a segment it imported from itself (the
// loopback a two-process setup on one host would also take):
//  - WRITE bandwidth at 64 KiB and 1 MiB (MB/s), a window of WRs in flight
//  - 8-byte WRITE latency, post to CQE, in microseconds (median/avg/p99)
//  - memcpy bandwidth of the same sizes, and the ratio 1 MiB WRITE / memcpy
// Not urma_perftest: no peers, no options beyond the counts.
#include <getopt.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "urma_api.h"

namespace {

struct Options {
    const char *dev = "udma0";
    double seconds = 2.0;   // per bandwidth measurement
    int lat_iters = 10000;  // latency samples
    int window = 16;        // WRs in flight for bandwidth
};

void usage(const char *prog)
{
    std::printf("usage: %s [--dev NAME] [--seconds S] [--lat-iters N] [--window W]\n"
                "Local udma data path vs memcpy: WRITE bandwidth at 64 KiB and 1 MiB,\n"
                "8-byte WRITE latency (post to CQE), memcpy bandwidth, and the\n"
                "1 MiB WRITE/memcpy ratio (goal >= 0.5). Needs the stack loaded\n"
                "(udma bound to a netdev, uburma). Defaults: --dev udma0 --seconds 2\n"
                "--lat-iters 10000 --window 16.\n",
                prog);
}

double now_s()
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

// The objects of the run, released in reverse on every exit path.
struct Bench {
    urma_context_t *ctx = nullptr;
    urma_jfc_t *jfc = nullptr;
    urma_jfs_t *jfs = nullptr;
    urma_jfr_t *jfr = nullptr;
    urma_target_jetty_t *tjfr = nullptr;
    void *src = nullptr, *dst = nullptr;
    size_t len = 0;
    urma_target_seg_t *src_seg = nullptr, *dst_seg = nullptr, *dst_imp = nullptr;

    ~Bench()
    {
        if (dst_imp != nullptr)
            urma_unimport_seg(dst_imp);
        if (dst_seg != nullptr)
            urma_unregister_seg(dst_seg);
        if (src_seg != nullptr)
            urma_unregister_seg(src_seg);
        if (tjfr != nullptr)
            urma_unimport_jfr(tjfr);
        if (jfr != nullptr)
            urma_delete_jfr(jfr);
        if (jfs != nullptr)
            urma_delete_jfs(jfs);
        if (jfc != nullptr)
            urma_delete_jfc(jfc);
        if (ctx != nullptr)
            urma_delete_context(ctx);
        if (src != nullptr)
            munmap(src, len);
        if (dst != nullptr)
            munmap(dst, len);
        urma_uninit();
    }
};

bool fail(const char *what)
{
    std::fprintf(stderr, "urma_local_bench: %s failed: %s\n", what, std::strerror(errno));
    return false;
}

urma_target_seg_t *reg(urma_context_t *ctx, void *buf, size_t len)
{
    urma_seg_cfg_t c = {};
    c.va = reinterpret_cast<uintptr_t>(buf);
    c.len = len;
    c.token_value.token = 0x5eed;
    c.flag.bs.token_policy = URMA_TOKEN_PLAIN_TEXT;
    c.flag.bs.access = URMA_ACCESS_READ | URMA_ACCESS_WRITE;
    return urma_register_seg(ctx, &c);
}

bool setup(Bench &b, const Options &o)
{
    if (urma_init(nullptr) != URMA_SUCCESS)
        return fail("urma_init");
    char name[64];
    std::snprintf(name, sizeof(name), "%s", o.dev);
    urma_device_t *dev = urma_get_device_by_name(name);
    if (dev == nullptr)
        return fail("urma_get_device_by_name");
    uint32_t cnt = 0;
    urma_eid_info_t *eids = urma_get_eid_list(dev, &cnt);
    if (eids == nullptr || cnt == 0)
        return fail("urma_get_eid_list");
    uint32_t idx = eids[0].eid_index;
    urma_free_eid_list(eids);
    if ((b.ctx = urma_create_context(dev, idx)) == nullptr)
        return fail("urma_create_context");
    urma_jfc_cfg_t jc = {};
    jc.depth = 1024;
    if ((b.jfc = urma_create_jfc(b.ctx, &jc)) == nullptr)
        return fail("urma_create_jfc");
    urma_jfs_cfg_t sc = {};
    sc.depth = 256;
    sc.trans_mode = URMA_TM_RM;
    sc.max_sge = 1;
    sc.max_rsge = 1;
    sc.rnr_retry = URMA_TYPICAL_RNR_RETRY;
    sc.err_timeout = URMA_TYPICAL_ERR_TIMEOUT;
    sc.jfc = b.jfc;
    if ((b.jfs = urma_create_jfs(b.ctx, &sc)) == nullptr)
        return fail("urma_create_jfs");
    urma_jfr_cfg_t rc = {};
    rc.depth = 16;
    rc.trans_mode = URMA_TM_RM;
    rc.max_sge = 1;
    rc.jfc = b.jfc;
    rc.token_value.token = 0xabcd;
    rc.flag.bs.token_policy = URMA_TOKEN_PLAIN_TEXT;
    if ((b.jfr = urma_create_jfr(b.ctx, &rc)) == nullptr)
        return fail("urma_create_jfr");
    urma_rjfr_t rj = {};
    rj.jfr_id = b.jfr->jfr_id;
    rj.trans_mode = URMA_TM_RM;
    rj.flag.bs.token_policy = URMA_TOKEN_PLAIN_TEXT;
    urma_token_t jt = {0xabcd};
    if ((b.tjfr = urma_import_jfr(b.ctx, &rj, &jt)) == nullptr)
        return fail("urma_import_jfr");
    b.len = 1u << 20;
    b.src = mmap(nullptr, b.len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    b.dst = mmap(nullptr, b.len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (b.src == MAP_FAILED || b.dst == MAP_FAILED) {
        b.src = b.src == MAP_FAILED ? nullptr : b.src;
        b.dst = b.dst == MAP_FAILED ? nullptr : b.dst;
        return fail("mmap");
    }
    std::memset(b.src, 0xa5, b.len);
    std::memset(b.dst, 0, b.len);
    if ((b.src_seg = reg(b.ctx, b.src, b.len)) == nullptr || (b.dst_seg = reg(b.ctx, b.dst, b.len)) == nullptr)
        return fail("urma_register_seg");
    urma_token_t st = {0x5eed};
    urma_import_seg_flag_t f = {};
    f.bs.access = URMA_ACCESS_READ | URMA_ACCESS_WRITE;
    if ((b.dst_imp = urma_import_seg(b.ctx, &b.dst_seg->seg, &st, 0, f)) == nullptr)
        return fail("urma_import_seg");
    return true;
}

// Waits for one CQE; false on timeout (10 s) or an error status.
bool wait_one(urma_jfc_t *jfc)
{
    urma_cr_t cr;
    double end = now_s() + 10.0;
    for (;;) {
        int n = urma_poll_jfc(jfc, 1, &cr);
        if (n == 1) {
            if (cr.status != URMA_CR_SUCCESS) {
                std::fprintf(stderr, "urma_local_bench: completion status %d\n", cr.status);
                return false;
            }
            return true;
        }
        if (n < 0 || now_s() > end) {
            std::fprintf(stderr, "urma_local_bench: no completion\n");
            return false;
        }
    }
}

urma_status_t post_write(Bench &b, uint32_t size, uint64_t ctx)
{
    urma_jfs_wr_flag_t f = {};
    f.bs.complete_enable = 1;
    return urma_write(b.jfs, b.tjfr, b.dst_imp, b.src_seg, reinterpret_cast<uintptr_t>(b.dst),
                      reinterpret_cast<uintptr_t>(b.src), size, f, ctx);
}

// WRITE bandwidth: keep `window` WRs in flight for `seconds`; MB/s (1e6).
double write_bw(Bench &b, uint32_t size, const Options &o)
{
    uint64_t posted = 0, done = 0;
    double start = now_s(), end = start + o.seconds;
    while (now_s() < end || done < posted) {
        while (posted - done < static_cast<uint64_t>(o.window) && now_s() < end) {
            if (post_write(b, size, posted) != URMA_SUCCESS)
                return -1;
            posted++;
        }
        if (!wait_one(b.jfc))
            return -1;
        done++;
    }
    double t = now_s() - start;
    // The data arrived: spot-check the last byte written.
    if (static_cast<uint8_t *>(b.dst)[size - 1] != 0xa5)
        return -1;
    return static_cast<double>(done) * size / t / 1e6;
}

double memcpy_bw(Bench &b, uint32_t size, const Options &o)
{
    uint64_t n = 0;
    double start = now_s(), end = start + o.seconds / 2;
    while (now_s() < end) {
        for (int i = 0; i < 16; i++) {
            std::memcpy(b.dst, b.src, size);
            // Keep the copy from being optimised away.
            asm volatile("" : : "r"(b.dst) : "memory");
        }
        n += 16;
    }
    return static_cast<double>(n) * size / (now_s() - start) / 1e6;
}

bool latency(Bench &b, const Options &o, double *med, double *avg, double *p99)
{
    std::vector<double> us;
    us.reserve(static_cast<size_t>(o.lat_iters));
    for (int i = 0; i < o.lat_iters; i++) {
        double t0 = now_s();
        if (post_write(b, 8, static_cast<uint64_t>(i)) != URMA_SUCCESS || !wait_one(b.jfc))
            return false;
        us.push_back((now_s() - t0) * 1e6);
    }
    std::sort(us.begin(), us.end());
    double sum = 0;
    for (double v : us)
        sum += v;
    *med = us[us.size() / 2];
    *avg = sum / static_cast<double>(us.size());
    *p99 = us[std::min(us.size() - 1, us.size() * 99 / 100)];
    return true;
}

}  // namespace

int main(int argc, char **argv)
{
    Options o;
    static const struct option longopts[] = {{"dev", required_argument, nullptr, 'd'},
                                             {"seconds", required_argument, nullptr, 's'},
                                             {"lat-iters", required_argument, nullptr, 'l'},
                                             {"window", required_argument, nullptr, 'w'},
                                             {"help", no_argument, nullptr, 'h'},
                                             {nullptr, 0, nullptr, 0}};
    int c;
    while ((c = getopt_long(argc, argv, "d:s:l:w:h", longopts, nullptr)) != -1) {
        switch (c) {
        case 'd': o.dev = optarg; break;
        case 's': o.seconds = std::atof(optarg); break;
        case 'l': o.lat_iters = std::atoi(optarg); break;
        case 'w': o.window = std::atoi(optarg); break;
        case 'h': usage(argv[0]); return 0;
        default: usage(argv[0]); return 2;
        }
    }
    if (o.seconds <= 0 || o.lat_iters <= 0 || o.window <= 0 || o.window > 256) {
        usage(argv[0]);
        return 2;
    }
    Bench b;
    if (!setup(b, o))
        return 1;
    std::printf("%-24s %12s %12s\n", "size", "write MB/s", "memcpy MB/s");
    double w1m = 0, m1m = 0;
    for (uint32_t size : {64u << 10, 1u << 20}) {
        double w = write_bw(b, size, o);
        if (w < 0) {
            std::fprintf(stderr, "urma_local_bench: write bandwidth at %u failed\n", size);
            return 1;
        }
        double m = memcpy_bw(b, size, o);
        std::printf("%-24u %12.1f %12.1f\n", size, w, m);
        if (size == (1u << 20)) {
            w1m = w;
            m1m = m;
        }
    }
    double med, avg, p99;
    if (!latency(b, o, &med, &avg, &p99)) {
        std::fprintf(stderr, "urma_local_bench: latency run failed\n");
        return 1;
    }
    std::printf("8-byte write latency us: median %.2f avg %.2f p99 %.2f (%d samples)\n", med, avg, p99,
                o.lat_iters);
    double ratio = w1m / m1m;
    std::printf("1 MiB write/memcpy ratio: %.3f (goal >= 0.5: %s)\n", ratio, ratio >= 0.5 ? "met" : "not met");
    return 0;
}
