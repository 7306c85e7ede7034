// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The UB/URMA stack authors
// What every object of a context shares: the context's private wrapper (the
// device limits checked before a create), references on the context, the
// async-event acknowledgement handshake of delete, and the mapping of
// kernel errors onto URMA's return conventions.
//
// Each object type is allocated as a private struct whose first member is
// the public one (struct JfcImpl { urma_jfc_t pub; ... }); the API hands
// out &impl->pub and gets the impl back with from_pub(). The wrappers are
// standard layout, so the public struct and its wrapper share an address.
#pragma once

#include <pthread.h>

#include <cerrno>
#include <cstdint>
#include <mutex>
#include <type_traits>
#include <unordered_map>

#include "urma_types.h"

namespace urma {

// The registered segments of a context by kernel handle: the kernel names
// a segment in its async event (URMA_EVENT_SEG_INVALID) by handle; and
// likewise the imported jetties and JFRs (URMA_EVENT_TP_ERR).
struct SegRegistry {
    std::mutex mu;
    std::unordered_map<uint64_t, urma_target_seg_t *> by_handle;
    std::unordered_map<uint64_t, urma_target_jetty_t *> imports;
};

struct ContextImpl {
    urma_context_t pub;
    // The device's limits, read once at create (UMDK caches them too):
    // every create is checked against them before the kernel is asked.
    urma_device_cap_t cap;
    SegRegistry *segs = nullptr;  // owned; NULL in a context made by hand (unit tests)
    bool bonding = false;         // a bonding device's (urma_admin agg add)
};

template <typename Impl, typename Pub> Impl *from_pub(Pub *pub)
{
    static_assert(std::is_standard_layout<Impl>::value, "wrapper must be standard layout");
    return reinterpret_cast<Impl *>(pub);
}

inline const urma_device_cap_t &ctx_cap(const urma_context_t *ctx)
{
    return from_pub<const ContextImpl>(ctx)->cap;
}

// Every object holds one reference on its context; urma_delete_context
// refuses while any is held.
inline void ctx_get(urma_context_t *ctx)
{
    ctx->ref.atomic_cnt.fetch_add(1);
}

inline void ctx_put(urma_context_t *ctx)
{
    ctx->ref.atomic_cnt.fetch_sub(1);
}

// The segment registry of a context (segment.cpp).
void seg_registry_add(urma_context_t *ctx, urma_target_seg_t *tseg);
void seg_registry_remove(urma_context_t *ctx, uint64_t handle);
urma_target_seg_t *seg_registry_find(const urma_context_t *ctx, uint64_t handle);
void import_registry_add(urma_context_t *ctx, urma_target_jetty_t *tjetty);
void import_registry_remove(urma_context_t *ctx, uint64_t handle);
urma_target_jetty_t *import_registry_find(const urma_context_t *ctx, uint64_t handle);

// errno value of a failed command (kernel gives -errno) as urma_status_t:
// URMA's codes are errno values, so the kernel's reason reaches the caller.
inline urma_status_t status_of(int neg_errno)
{
    return neg_errno < 0 ? -neg_errno : URMA_FAIL;
}

// The kernel says EIO for any command on a file whose device was removed:
// by then it has destroyed every object of the file itself.
inline bool device_gone(int neg_errno)
{
    return neg_errno == -EIO || neg_errno == -ENODEV;
}

// The acknowledgement handshake (UMDK's): delete learns from the kernel how
// many async events of the object were read, and waits until the user has
// acked that many, so no event handed out can point at freed memory.
inline void event_init(pthread_mutex_t *mutex, pthread_cond_t *cond, uint32_t *acked)
{
    pthread_mutex_init(mutex, nullptr);
    pthread_cond_init(cond, nullptr);
    *acked = 0;
}

inline void event_destroy(pthread_mutex_t *mutex, pthread_cond_t *cond)
{
    pthread_cond_destroy(cond);
    pthread_mutex_destroy(mutex);
}

// A JFC also waits for its completion events (comp_acked, comp_reported).
inline void event_wait_acked(pthread_mutex_t *mutex, pthread_cond_t *cond, const uint32_t *acked,
                             uint32_t reported, const uint32_t *comp_acked = nullptr,
                             uint32_t comp_reported = 0)
{
    pthread_mutex_lock(mutex);
    while (*acked != reported || (comp_acked != nullptr && *comp_acked != comp_reported))
        pthread_cond_wait(cond, mutex);
    pthread_mutex_unlock(mutex);
}

inline void event_ack(pthread_mutex_t *mutex, pthread_cond_t *cond, uint32_t *acked, uint32_t n)
{
    pthread_mutex_lock(mutex);
    *acked += n;
    pthread_cond_broadcast(cond);
    pthread_mutex_unlock(mutex);
}

}  // namespace urma
