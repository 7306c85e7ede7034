// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The UB/URMA stack authors
// Shared by the fuzzers and the fault-injection driver of tests/fuzz: a
// seeded generator, the object counts of every UB device (sysfs, from
// tests/common/ub_sysfs.h), the errno values the stack's ABI documents, the
// raw UBURMA_CMD call, the command line, and forked workers.
#pragma once

#include <grp.h>
#include <pwd.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <functional>
#include <string>
#include <vector>

#include <ub/uburma_ioctl.h>

#include "ub_sysfs.h"

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
    // imports and binds: the connection manager's answers
    // (docs/connection-manager.md)
    case EPROTOTYPE: case ETIMEDOUT: case EHOSTUNREACH: case EADDRNOTAVAIL: case ECONNRESET:
        return true;
    default:
        return false;
    }
}

// The object counts of every device (tests/common/ub_sysfs.h).
using ub_test::total_objects;
using ub_test::wait_objects_zero;

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

// The command line of a fuzzer, option by option: a flag, a number
// (parse_u64) or a string after the option's name. An unknown option, a
// missing or malformed value, or one the option refuses calls usage(argv0)
// (which exits). Actions run in the order of the command line.
class Args {
public:
    using Usage = void (*)(const char *argv0);
    explicit Args(Usage usage) : usage_(usage) {}

    Args &flag(const char *name, bool *v)
    {
        opts_.push_back({name, false, [v](const char *) {
                             *v = true;
                             return true;
                         }});
        return *this;
    }
    // A number; refused (usage) when fn returns false.
    Args &num(const char *name, std::function<bool(uint64_t)> fn)
    {
        opts_.push_back({name, true, [fn](const char *s) {
                             uint64_t v = 0;
                             return parse_u64(s, &v) && fn(v);
                         }});
        return *this;
    }
    Args &num(const char *name, uint64_t *v, uint64_t max = UINT64_MAX)
    {
        return num(name, [v, max](uint64_t x) {
            *v = x;
            return x <= max;
        });
    }
    // A count, at least min (a smaller value is taken as min).
    Args &num(const char *name, unsigned *v, unsigned min = 0)
    {
        return num(name, [v, min](uint64_t x) {
            *v = static_cast<unsigned>(std::max<uint64_t>(min, x));
            return true;
        });
    }
    Args &str(const char *name, std::string *v)
    {
        opts_.push_back({name, true, [v](const char *s) {
                             *v = s;
                             return true;
                         }});
        return *this;
    }
    // --seed S; without it, parse() takes fresh_seed().
    Args &seed(uint64_t *v)
    {
        seed_ = v;
        return num("--seed", [this, v](uint64_t x) {
            *v = x;
            seeded_ = true;
            return true;
        });
    }

    // The options of a fuzzer with forked workers: --seed, --iterations,
    // --workers (at least 1), --kill-pct and --verbose, into the fields of
    // the same names.
    template <typename O> Args &workers(O &opt)
    {
        return seed(&opt.seed)
            .num("--iterations", &opt.iterations)
            .num("--workers", &opt.workers, 1)
            .num("--kill-pct", &opt.kill_pct)
            .flag("--verbose", &opt.verbose);
    }

    void parse(int argc, char **argv)
    {
        for (int i = 1; i < argc; i++) {
            const Opt *o = find(argv[i]);
            if (o == nullptr || (o->has_value && i + 1 >= argc))
                usage_(argv[0]);
            if (!o->apply(o->has_value ? argv[++i] : nullptr))
                usage_(argv[0]);
        }
        if (seed_ != nullptr && !seeded_)
            *seed_ = fresh_seed();
    }

private:
    struct Opt {
        std::string name;
        bool has_value;
        std::function<bool(const char *)> apply;
    };
    const Opt *find(const std::string &name) const
    {
        for (const Opt &o : opts_)
            if (o.name == name)
                return &o;
        return nullptr;
    }

    Usage usage_;
    std::vector<Opt> opts_;
    uint64_t *seed_ = nullptr;
    bool seeded_ = false;
};

// Makes this (forked) process user nobody, or exits with 2; dumpable
// again (setresuid() cleared it), so its /proc files stay readable.
inline void drop_privileges()
{
    struct passwd *pw = getpwnam("nobody");
    uid_t uid = pw != nullptr ? pw->pw_uid : 65534;
    gid_t gid = pw != nullptr ? pw->pw_gid : 65534;
    if (setgroups(0, nullptr) != 0 || setresgid(gid, gid, gid) != 0 || setresuid(uid, uid, uid) != 0) {
        std::perror("drop privileges");
        _exit(2);
    }
    prctl(PR_SET_DUMPABLE, 1);
}

// With a chance of pct percent (from rng), SIGKILLs one of pids after
// min_us plus up to spread_us microseconds; returns it (-1: none), and
// counts the kill in *kills.
inline pid_t maybe_kill_one(Rng &rng, const std::vector<pid_t> &pids, unsigned pct, uint64_t min_us,
                            uint64_t spread_us, uint64_t *kills)
{
    if (!rng.pct(pct) || pids.empty())
        return -1;
    pid_t victim = pids[rng.below(pids.size())];
    usleep(static_cast<useconds_t>(min_us + rng.below(spread_us)));
    if (kill(victim, SIGKILL) == 0)
        (*kills)++;
    return victim;
}

// Waits for every worker; returns how many failed: exited non-zero, or
// died of a signal other than the SIGKILL of victim.
inline int reap_workers(const std::vector<pid_t> &pids, pid_t victim)
{
    int failures = 0;
    for (pid_t pid : pids) {
        int st = 0;
        waitpid(pid, &st, 0);
        if (WIFEXITED(st) && WEXITSTATUS(st) == 0)
            continue;
        if (pid == victim && WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL)
            continue;
        if (WIFSIGNALED(st))
            std::printf("FINDING: worker %d died of signal %d\n", pid, WTERMSIG(st));
        else
            std::printf("worker %d exited with %d (findings above)\n", pid, WEXITSTATUS(st));
        failures++;
    }
    return failures;
}

}  // namespace ub_fuzz
