// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The UB/URMA stack authors
// The two halves of an object with a ring (JFC, JFS, JFR, jetty): activate
// makes the kernel object and maps its ring into an allocated wrapper,
// deactivate deletes it again and leaves the wrapper as allocated. The
// create and delete calls are allocate + activate and deactivate + free;
// UMDK's two-phase calls (urma_alloc_*, urma_active_*, urma_deactive_*,
// urma_free_*) use the halves directly, so the object keeps its address
// (the kernel reports events with it) through both phases.
#pragma once

#include <cerrno>
#include <new>

#include "log.h"
#include "object.h"
#include "queue.h"
#include "urma_types.h"

namespace urma {

// Each returns 0 or -errno, and logs why. activate checks cfg against the
// device's limits first (UMDK checks at activation, not at allocation);
// deactivate fails only when the kernel refuses (EBUSY: still in use).
int jfc_activate(JfcImpl *impl, urma_context_t *ctx, const urma_jfc_cfg_t &cfg);
int jfc_deactivate(JfcImpl *impl);
int jfs_activate(JfsImpl *impl, urma_context_t *ctx, const urma_jfs_cfg_t &cfg);
int jfs_deactivate(JfsImpl *impl);
int jfr_activate(JfrImpl *impl, urma_context_t *ctx, const urma_jfr_cfg_t &cfg);
int jfr_deactivate(JfrImpl *impl);
int jetty_activate(JettyImpl *impl, urma_context_t *ctx, const urma_jetty_cfg_t &cfg);
int jetty_deactivate(JettyImpl *impl);

// Life<urma_K_t>: K's implementation (Impl), configuration (Cfg), name,
// activate/deactivate, and the public struct's urma_K_opt.is_actived.
template <typename Pub> struct Life;

#define URMA_LIFE(K, IMPL)                                                                  \
    template <> struct Life<urma_##K##_t> {                                                 \
        using Impl = IMPL;                                                                  \
        using Cfg = urma_##K##_cfg_t;                                                       \
        static constexpr const char *name = #K;                                             \
        static constexpr auto activate = K##_activate;                                      \
        static constexpr auto deactivate = K##_deactivate;                                  \
        static bool &active(urma_##K##_t *o) { return o->urma_##K##_opt.is_actived; }       \
    }

URMA_LIFE(jfc, JfcImpl);
URMA_LIFE(jfs, JfsImpl);
URMA_LIFE(jfr, JfrImpl);
URMA_LIFE(jetty, JettyImpl);

#undef URMA_LIFE

// urma_create_K: allocate + activate; NULL with errno set on failure. The
// object holds a context reference until it is deleted.
template <typename Pub> Pub *create_obj(urma_context_t *ctx, const typename Life<Pub>::Cfg *cfg)
{
    using L = Life<Pub>;
    if (ctx == nullptr || cfg == nullptr) {
        URMA_LOG_ERR("create %s: invalid argument: ctx %p cfg %p\n", L::name, static_cast<void *>(ctx),
                     static_cast<const void *>(cfg));
        errno = EINVAL;
        return nullptr;
    }
    auto *impl = new (std::nothrow) typename L::Impl();
    if (impl == nullptr) {
        errno = ENOMEM;
        return nullptr;
    }
    int ret = L::activate(impl, ctx, *cfg);
    if (ret != 0) {
        delete impl;
        errno = -ret;
        return nullptr;
    }
    ctx_get(ctx);
    return &impl->pub;
}

// urma_delete_K: deactivate + free, for an active object (an allocated,
// inactive one is urma_free_K's).
template <typename Pub> urma_status_t delete_obj(Pub *obj)
{
    using L = Life<Pub>;
    if (obj == nullptr) {
        URMA_LOG_ERR("delete %s: the %s is NULL\n", L::name, L::name);
        return URMA_EINVAL;
    }
    if (!L::active(obj)) {
        URMA_LOG_ERR("delete %s: not active (urma_free_%s frees an allocated one)\n", L::name, L::name);
        return URMA_EINVAL;
    }
    urma_context_t *ctx = obj->urma_ctx;
    int ret = L::deactivate(from_pub<typename L::Impl>(obj));
    if (ret != 0)
        return status_of(ret);
    delete from_pub<typename L::Impl>(obj);
    ctx_put(ctx);
    return URMA_SUCCESS;
}

// A queue back to its state before map(): unmapped, indexes at 0.
template <typename Queue> void reset_queue(Queue &q)
{
    q.~Queue();
    new (&q) Queue();
}

}  // namespace urma
