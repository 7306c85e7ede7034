// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The UB/URMA stack authors
// The queues of the data path as the library sees them: the producer side
// of a mapped SQ or RQ and the consumer side of a mapped CQ, and the
// private wrappers of JFC, JFS, JFR and jetty that hold them.
//
// The rings follow udma_abi.h: free-running 32-bit indexes in the control
// page; the library is the only writer of an SQ/RQ's pi and of a CQ's ci,
// so it keeps its own copy of that index and publishes it with a release
// store, and reads the kernel's index (SQ/RQ ci, CQE owner bytes) with
// acquire loads.
#pragma once

#include <pthread.h>

#include <cstdint>

#include <ub/udma_abi.h>

#include "ring.h"
#include "urma_types.h"

namespace urma {

inline uint32_t load_acquire(const uint32_t *p)
{
    return __atomic_load_n(p, __ATOMIC_ACQUIRE);
}

inline void store_release(uint32_t *p, uint32_t v)
{
    __atomic_store_n(p, v, __ATOMIC_RELEASE);
}

// A spinlock held for a few stores: posting and polling never sleep, and
// UMDK's provider serialises them the same way.
class SpinLock {
public:
    SpinLock() { pthread_spin_init(&lock_, PTHREAD_PROCESS_PRIVATE); }
    ~SpinLock() { pthread_spin_destroy(&lock_); }
    SpinLock(const SpinLock &) = delete;
    SpinLock &operator=(const SpinLock &) = delete;
    void lock() { pthread_spin_lock(&lock_); }
    void unlock() { pthread_spin_unlock(&lock_); }

private:
    pthread_spinlock_t lock_;
};

class SpinGuard {
public:
    explicit SpinGuard(SpinLock &l) : l_(l) { l_.lock(); }
    ~SpinGuard() { l_.unlock(); }
    SpinGuard(const SpinGuard &) = delete;
    SpinGuard &operator=(const SpinGuard &) = delete;

private:
    SpinLock &l_;
};

// The producer side of an SQ (JFS, jetty). wrid keeps each slot's user_ctx
// so that a flush can report the WRs the kernel hands back even if the
// ring memory was overwritten meanwhile (it is ordinary process memory).
class SendQueue {
public:
    SendQueue() = default;
    ~SendQueue() { delete[] wrid_; }
    SendQueue(const SendQueue &) = delete;
    SendQueue &operator=(const SendQueue &) = delete;

    // Maps the ring and takes over its pi; 0 or -errno.
    int map(int fd, const udma_ring_info &info);
    // Every post of WQEs rings the doorbell: the kernel processes them then.
    bool doorbell_wanted() const { return true; }
    RingMapping &ring() { return ring_; }
    SpinLock &lock() { return lock_; }
    uint32_t pi() const { return pi_; }
    void set_pi(uint32_t pi) { pi_ = pi; }
    uint64_t &wrid(uint32_t idx) { return wrid_[idx & (ring_.entry_cnt() - 1)]; }

private:
    RingMapping ring_;
    SpinLock lock_;
    uint32_t pi_ = 0;
    uint64_t *wrid_ = nullptr;
};

// The producer side of an RQ (JFR).
class RecvQueue {
public:
    int map(int fd, const udma_ring_info &info);
    // After RQEs were published (pi stored): whether the kernel asked for a
    // doorbell (udma_ring_ctrl.db_wanted: a sender waits for an RQE). The
    // full fence pairs with the kernel's between its flag and its look at
    // pi, so a sender is never left to its RNR timer.
    bool doorbell_wanted()
    {
        __atomic_thread_fence(__ATOMIC_SEQ_CST);
        return __atomic_load_n(&ring_.ctrl()->db_wanted, __ATOMIC_RELAXED) != 0;
    }
    RingMapping &ring() { return ring_; }
    SpinLock &lock() { return lock_; }
    uint32_t pi() const { return pi_; }
    void set_pi(uint32_t pi) { pi_ = pi; }

private:
    RingMapping ring_;
    SpinLock lock_;
    uint32_t pi_ = 0;
};

// The consumer side of a CQ (JFC).
class CompQueue {
public:
    int map(int fd, const udma_ring_info &info);
    RingMapping &ring() { return ring_; }
    SpinLock &lock() { return lock_; }
    uint32_t ci() const { return ci_; }
    void set_ci(uint32_t ci) { ci_ = ci; }

private:
    RingMapping ring_;
    SpinLock lock_;
    uint32_t ci_ = 0;
};

struct JfcImpl {
    urma_jfc_t pub;
    CompQueue cq;  // the CQEs the kernel writes; polled without syscalls
};

struct JfsImpl {
    urma_jfs_t pub;
    SendQueue sq;  // WQEs the library writes, the kernel consumes
};

struct JfrImpl {
    urma_jfr_t pub;
    RecvQueue rq;
};

struct JettyImpl {
    urma_jetty_t pub;
    SendQueue sq;
    // For a jetty created with its own JFR (share_jfr = 0, jfr_cfg): the
    // JFR the library made for it, deleted with the jetty.
    urma_jfr_t *own_jfr;
};

}  // namespace urma
