// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The UB/URMA stack authors
// Shared by the fuzzers and the fault-injection driver of tests/fuzz: a
// seeded generator, the object counts of every UB device (sysfs), the errno
// values the stack's ABI documents, and the raw UBURMA_CMD call.
#pragma once

#include <dirent.h>
#include <sys/ioctl.h>
#include <sys/types.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <string>
#include <vector>

#include <ub/uburma_ioctl.h>

namespace ub_fuzz {

// xoshiro256** seeded through splitmix64: the same seed gives the same
// sequence on every machine (std::mt19937's distributions do not promise
// that across library versions).
class Rng {
public:
    explicit Rng(uint64_t seed)
    {
        for (auto &w : s_) {
            seed += 0x9e3779b97f4a7c15ULL;
            uint64_t z = seed;
            z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
            z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
            w = z ^ (z >> 31);
        }
    }

    uint64_t next()
    {
        const uint64_t r = rotl(s_[1] * 5, 7) * 9;
        const uint64_t t = s_[1] << 17;
        s_[2] ^= s_[0];
        s_[3] ^= s_[1];
        s_[1] ^= s_[2];
        s_[0] ^= s_[3];
        s_[2] ^= t;
        s_[3] = rotl(s_[3], 45);
        return r;
    }

    // Uniform in [0, n); 0 when n is 0.
    uint64_t below(uint64_t n) { return n == 0 ? 0 : next() % n; }
    // True with probability pct percent.
    bool pct(unsigned pct) { return below(100) < pct; }
    template <typename T> const T &pick(const std::vector<T> &v) { return v[below(v.size())]; }

    // An "interesting" 64-bit value: boundaries, powers of two and their
    // neighbours, small numbers, or random bits.
    uint64_t interesting()
    {
        switch (below(8)) {
        case 0:
            return below(4);
        case 1:
            return ~0ULL - below(3);
        case 2:
            return (1ULL << below(64)) - 1 + below(3);
        case 3:
            return 0x7fffffffULL + below(3);
        case 4:
            return 0xffffffffULL - below(2) + below(3);
        case 5:
            return below(65536);
        default:
            return next();
        }
    }

    void fill(void *p, size_t n)
    {
        auto *b = static_cast<uint8_t *>(p);
        for (size_t i = 0; i < n; i++)
            b[i] = static_cast<uint8_t>(next());
    }

private:
    static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
    uint64_t s_[4];
};

// A seed from the clock and the PID, for runs without --seed.
inline uint64_t fresh_seed()
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (static_cast<uint64_t>(ts.tv_sec) << 32) ^ static_cast<uint64_t>(ts.tv_nsec) ^
           (static_cast<uint64_t>(getpid()) << 16);
}

inline uint64_t monotonic_ms()
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return static_cast<uint64_t>(ts.tv_sec) * 1000 + static_cast<uint64_t>(ts.tv_nsec) / 1000000;
}

// The ioctl, as liburma issues it: 0 or -errno.
inline int ub_cmd(int fd, uint32_t command, void *args, uint32_t len)
{
    struct uburma_cmd_hdr hdr = {};
    hdr.command = command;
    hdr.args_len = len;
    hdr.args_addr = reinterpret_cast<uintptr_t>(args);
    return ioctl(fd, UBURMA_CMD, &hdr) == 0 ? 0 : -errno;
}

// Errors the stack's ABI documents (uburma_ioctl.h, ubcore_netlink.h,
// udma_abi.h) plus those of the generic paths in front of it (netlink
// parsing, mmap, resource limits). Anything else (ERESTARTSYS leaking out,
// ENOSYS, a positive return) is a bug the fuzzers report.
inline bool documented_errno(int e)
{
    switch (e) {
    case EPERM: case ENOENT: case EIO: case E2BIG: case EBADF: case EAGAIN:
    case ENOMEM: case EACCES: case EFAULT: case EBUSY: case EEXIST: case ENODEV:
    case EINVAL: case ENFILE: case EMFILE: case ENOTTY: case ENOSPC: case ERANGE:
    case EOPNOTSUPP: case EMSGSIZE: case ENOBUFS: case EOVERFLOW: case ECONNREFUSED:
    case EINTR: case ENXIO:
    case EADDRINUSE:  // CREATE_CTX: another process owns in.uasid
        return true;
    default:
        return false;
    }
}

// Objects of every UB device: the sum of each file of
// /sys/class/ubcore/*/objects/ (pinned_pages included), and one line
// naming the non-zero ones.
inline long total_objects(std::string *detail = nullptr)
{
    const char *cls = "/sys/class/ubcore";
    long total = 0;
    DIR *d = opendir(cls);
    if (d == nullptr)
        return 0;  // no ubcore: no objects
    while (struct dirent *de = readdir(d)) {
        if (de->d_name[0] == '.')
            continue;
        std::string objdir = std::string(cls) + "/" + de->d_name + "/objects";
        DIR *o = opendir(objdir.c_str());
        if (o == nullptr)
            continue;
        while (struct dirent *oe = readdir(o)) {
            if (oe->d_name[0] == '.')
                continue;
            std::string path = objdir + "/" + oe->d_name;
            FILE *f = std::fopen(path.c_str(), "r");
            long v = 0;
            if (f == nullptr || std::fscanf(f, "%ld", &v) != 1)
                v = 1;  // unreadable: never "zero"
            if (f != nullptr)
                std::fclose(f);
            total += v;
            if (v != 0 && detail != nullptr)
                *detail += std::string(de->d_name) + "/" + oe->d_name + "=" + std::to_string(v) + " ";
        }
        closedir(o);
    }
    closedir(d);
    return total;
}

// Waits up to timeout_ms for every object count to be 0.
inline bool wait_objects_zero(int timeout_ms, std::string *detail)
{
    for (int waited = 0;; waited += 50) {
        std::string d;
        if (total_objects(&d) == 0)
            return true;
        if (waited >= timeout_ms) {
            if (detail != nullptr)
                *detail = d;
            return false;
        }
        usleep(50 * 1000);
    }
}

// Reads an unsigned number from the command line: decimal or 0x-hex.
inline bool parse_u64(const char *s, uint64_t *v)
{
    char *end = nullptr;
    errno = 0;
    unsigned long long x = std::strtoull(s, &end, 0);
    if (errno != 0 || end == s || *end != '\0')
        return false;
    *v = x;
    return true;
}

}  // namespace ub_fuzz
