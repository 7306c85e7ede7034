// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The UB/URMA stack authors
// UMDK's two-phase set-up of JFC, JFS, JFR and jetty: urma_alloc_* keeps a
// copy of the configuration in an inactive object, urma_set_*_opt edits it,
// urma_active_* checks it and makes the kernel object (the checks of
// create), urma_deactive_* deletes the kernel object and keeps the
// allocation, urma_free_* releases an inactive one. urma_get_*_opt reads
// the configuration and, of an active object, its ring. The batch deletes
// delete in order and stop at the first failure.
//
// Options that hand the device a queue context of the caller's (ring and
// doorbell addresses, IDs, indexes) are for hardware whose rings userspace
// places; udma's rings are kernel memory that the library maps, so setting
// them is refused with URMA_ENOPERM and the reason in the log.
#include <cstddef>
#include <cstring>
#include <new>

#include "lifecycle.h"
#include "log.h"
#include "object.h"
#include "queue.h"
#include "urma_api.h"

namespace urma {
namespace {

// Where an option lives: in the object's configuration (cfg), in the JFS
// configuration of a jetty (jfs_cfg), or in the mapped ring (the rest).
enum class OptKind { Cfg, JfsCfg, RingBase, Id, DbAddr, DbStatus, Pi, PiType, Ci, FullCtx };

struct OptEntry {
    uint64_t opt;
    OptKind kind;
    size_t offset;  // in the cfg struct (Cfg, JfsCfg)
    uint32_t size;  // the only length accepted
};

#define CFG(opt, type, field) {opt, OptKind::Cfg, offsetof(type, field), sizeof(type::field)}
#define JFS_CFG(opt, field) {opt, OptKind::JfsCfg, offsetof(urma_jfs_cfg_t, field), sizeof(urma_jfs_cfg_t::field)}
#define RING(opt, kind, size) {opt, OptKind::kind, 0, size}
// The ring options of P (URMA_JFC, URMA_JFS, URMA_JFR), whose ring base
// option is P_E_BASE_ADDR.
#define RING_OPTS(P, E)                                                                                      \
    RING(P##_##E##_BASE_ADDR, RingBase, 8), RING(P##_ID, Id, 4), RING(P##_DB_ADDR, DbAddr, 8),               \
        RING(P##_DB_STATUS, DbStatus, 1), RING(P##_PI, Pi, 2), RING(P##_PI_TYPE, PiType, 2),                 \
        RING(P##_CI, Ci, 2), RING(P##_FULL_CTX, FullCtx, 0)

constexpr OptEntry kJfcOpts[] = {
    CFG(URMA_JFC_DEPTH, urma_jfc_cfg_t, depth),
    CFG(URMA_JFC_CEQN, urma_jfc_cfg_t, ceqn),
    CFG(URMA_JFC_FLAG, urma_jfc_cfg_t, flag),
    CFG(URMA_JFC_BIND_JFCE, urma_jfc_cfg_t, jfce),
    CFG(URMA_JFC_USER_CTX, urma_jfc_cfg_t, user_ctx),
    RING_OPTS(URMA_JFC, CQE),
};

#define JFS_OPTS(K)                                                                                     \
    K(URMA_JFS_DEPTH, depth), K(URMA_JFS_FLAG, flag), K(URMA_JFS_TRANS_MODE, trans_mode),                \
        K(URMA_JFS_PRIORITY, priority), K(URMA_JFS_MAX_SGE, max_sge), K(URMA_JFS_MAX_RSGE, max_rsge),   \
        K(URMA_JFS_MAX_INLINE_DATA, max_inline_data), K(URMA_JFS_RNR_RETRY, rnr_retry),                \
        K(URMA_JFS_ERR_TIMEOUT, err_timeout), K(URMA_JFS_BIND_JFC, jfc), K(URMA_JFS_USER_CTX, user_ctx), \
        RING_OPTS(URMA_JFS, SQE)
#define JFS_AS_CFG(opt, field) CFG(opt, urma_jfs_cfg_t, field)

constexpr OptEntry kJfsOpts[] = {JFS_OPTS(JFS_AS_CFG)};

constexpr OptEntry kJfrOpts[] = {
    CFG(URMA_JFR_DEPTH, urma_jfr_cfg_t, depth),
    CFG(URMA_JFR_FLAG, urma_jfr_cfg_t, flag),
    CFG(URMA_JFR_TRANS_MODE, urma_jfr_cfg_t, trans_mode),
    CFG(URMA_JFR_MAX_SGE, urma_jfr_cfg_t, max_sge),
    CFG(URMA_JFR_MIN_RNR_TIMER, urma_jfr_cfg_t, min_rnr_timer),
    CFG(URMA_JFR_BIND_JFC, urma_jfr_cfg_t, jfc),
    CFG(URMA_JFR_TOKEN_VALUE, urma_jfr_cfg_t, token_value),
    CFG(URMA_JFR_USER_CTX, urma_jfr_cfg_t, user_ctx),
    RING_OPTS(URMA_JFR, RQE),
};

// A jetty: its own fields, and the JFS options on its send side.
constexpr OptEntry kJettyOpts[] = {
    CFG(URMA_JETTY_ID, urma_jetty_cfg_t, id),
    CFG(URMA_JETTY_FLAG, urma_jetty_cfg_t, flag),
    CFG(URMA_JETTY_BIND_JFR, urma_jetty_cfg_t, shared.jfr),
    CFG(URMA_JETTY_BIND_RX_JFC, urma_jetty_cfg_t, shared.jfc),
    CFG(URMA_JETTY_BIND_JTG, urma_jetty_cfg_t, jetty_grp),
    CFG(URMA_JETTY_USER_CTX, urma_jetty_cfg_t, user_ctx),
    RING(URMA_JETTY_FULL_CTX, FullCtx, 0),
    JFS_OPTS(JFS_CFG),
};

#undef CFG
#undef JFS_CFG
#undef RING_OPTS
#undef RING

template <size_t N> const OptEntry *find_opt(const OptEntry (&table)[N], uint64_t opt)
{
    for (const OptEntry &e : table) {
        if (e.opt == opt)
            return &e;
    }
    return nullptr;
}

// The checks both directions share: a known option of the right length.
const OptEntry *opt_checked(const OptEntry *e, uint64_t opt, const void *buf, uint32_t len, const char *what)
{
    if (buf == nullptr || len == 0) {
        URMA_LOG_ERR("%s opt 0x%llx: no buffer\n", what, static_cast<unsigned long long>(opt));
        return nullptr;
    }
    if (e == nullptr) {
        URMA_LOG_ERR("%s opt 0x%llx is not an option of a %s\n", what, static_cast<unsigned long long>(opt), what);
        return nullptr;
    }
    if (e->kind == OptKind::FullCtx) {
        return e;  // the length is the device's context size: refused below
    }
    if (len != e->size) {
        URMA_LOG_ERR("%s opt 0x%llx takes %u bytes, not %u\n", what, static_cast<unsigned long long>(opt), e->size,
                     len);
        return nullptr;
    }
    return e;
}

urma_status_t set_opt(const OptEntry *e, uint64_t opt, bool active, void *cfg, void *jfs_cfg, const void *buf,
                      uint32_t len, const char *what)
{
    e = opt_checked(e, opt, buf, len, what);
    if (e == nullptr)
        return URMA_EINVAL;
    if (active) {
        URMA_LOG_ERR("%s is active: options are set between urma_alloc_%s and urma_active_%s\n", what, what, what);
        return URMA_EINVAL;
    }
    switch (e->kind) {
    case OptKind::Cfg:
        std::memcpy(static_cast<char *>(cfg) + e->offset, buf, len);
        return URMA_SUCCESS;
    case OptKind::JfsCfg:
        std::memcpy(static_cast<char *>(jfs_cfg) + e->offset, buf, len);
        return URMA_SUCCESS;
    default:
        URMA_LOG_ERR("%s opt 0x%llx: udma maps rings and contexts it places itself; a caller's queue "
                     "context is not supported\n",
                     what, static_cast<unsigned long long>(opt));
        return URMA_ENOPERM;
    }
}

// What get reads of an active object's ring.
struct RingView {
    const RingMapping *ring;
    uint32_t id;
};

template <typename T> void put(void *buf, T v)
{
    std::memcpy(buf, &v, sizeof(v));
}

urma_status_t get_opt(const OptEntry *e, uint64_t opt, bool active, const void *cfg, const void *jfs_cfg,
                      const RingView &rv, void *buf, uint32_t len, const char *what)
{
    e = opt_checked(e, opt, buf, len, what);
    if (e == nullptr)
        return URMA_EINVAL;
    if (e->kind == OptKind::Cfg || e->kind == OptKind::JfsCfg) {
        const void *base = e->kind == OptKind::Cfg ? cfg : jfs_cfg;
        std::memcpy(buf, static_cast<const char *>(base) + e->offset, len);
        return URMA_SUCCESS;
    }
    if (e->kind == OptKind::DbAddr || e->kind == OptKind::FullCtx) {
        URMA_LOG_ERR("%s opt 0x%llx: udma has no %s\n", what, static_cast<unsigned long long>(opt),
                     e->kind == OptKind::DbAddr ? "doorbell register (the doorbell is a command)"
                                                : "hardware queue context");
        return URMA_ENOPERM;
    }
    if (!active || rv.ring == nullptr || !rv.ring->mapped()) {
        URMA_LOG_ERR("%s opt 0x%llx: the %s is not active, it has no ring\n", what,
                     static_cast<unsigned long long>(opt), what);
        return URMA_EINVAL;
    }
    const udma_ring_ctrl *ctrl = rv.ring->ctrl();
    switch (e->kind) {
    case OptKind::RingBase:
        put<uint64_t>(buf, reinterpret_cast<uintptr_t>(rv.ring->entry(0)));
        break;
    case OptKind::Id:
        put<uint32_t>(buf, rv.id);
        break;
    case OptKind::DbStatus:
        put<uint8_t>(buf, 1);  // valid while the object is active
        break;
    case OptKind::Pi:  // the indexes are free-running; the option has 16 bits
        put<uint16_t>(buf, static_cast<uint16_t>(__atomic_load_n(&ctrl->pi, __ATOMIC_ACQUIRE)));
        break;
    case OptKind::PiType:
        put<uint16_t>(buf, 1);  // a running count, not a slot index
        break;
    case OptKind::Ci:
        put<uint16_t>(buf, static_cast<uint16_t>(__atomic_load_n(&ctrl->ci, __ATOMIC_ACQUIRE)));
        break;
    default:
        return URMA_EINVAL;
    }
    return URMA_SUCCESS;
}

// What the two-phase calls need of each kind of object: Kind<urma_K_t> is
// its Life (lifecycle.h) plus its option table, and reaches the public
// struct's K_cfg, K_id and ring (Impl's member QUEUE).
template <typename Pub> struct Kind;

// The JFS configuration inside a configuration: a jetty's send side.
inline void *jfs_cfg_of(const void *) { return nullptr; }
inline void *jfs_cfg_of(urma_jetty_t *o) { return &o->jetty_cfg.jfs_cfg; }

#define URMA_TWO_PHASE_KIND(K, QUEUE, OPTS)                                                                    \
    template <> struct Kind<urma_##K##_t> : Life<urma_##K##_t> {                                               \
        static constexpr const auto &opts = OPTS;                                                              \
        static Cfg &cfg(urma_##K##_t *o) { return o->K##_cfg; }                                                \
        static void *jfs_cfg(urma_##K##_t *o) { return jfs_cfg_of(o); }                                        \
        static RingView ring(urma_##K##_t *o) { return {&from_pub<Impl>(o)->QUEUE.ring(), o->K##_id.id}; }     \
    }

URMA_TWO_PHASE_KIND(jfc, cq, kJfcOpts);
URMA_TWO_PHASE_KIND(jfs, sq, kJfsOpts);
URMA_TWO_PHASE_KIND(jfr, rq, kJfrOpts);
URMA_TWO_PHASE_KIND(jetty, sq, kJettyOpts);

#undef URMA_TWO_PHASE_KIND

// alloc: an inactive object with a copy of cfg; holds a context reference
// until free, as UMDK's does.
template <typename Pub> urma_status_t alloc_obj(urma_context_t *ctx, const typename Kind<Pub>::Cfg *cfg, Pub **out)
{
    using K = Kind<Pub>;
    if (ctx == nullptr || cfg == nullptr || out == nullptr) {
        URMA_LOG_ERR("alloc %s: invalid argument\n", K::name);
        return URMA_EINVAL;
    }
    auto *impl = new (std::nothrow) typename K::Impl();
    if (impl == nullptr)
        return URMA_ENOMEM;
    impl->pub.urma_ctx = ctx;
    K::cfg(&impl->pub) = *cfg;
    ctx_get(ctx);
    *out = &impl->pub;
    return URMA_SUCCESS;
}

template <typename Pub> urma_status_t set_obj_opt(Pub *obj, uint64_t opt, void *buf, uint32_t len)
{
    using K = Kind<Pub>;
    if (obj == nullptr) {
        URMA_LOG_ERR("set %s opt: the %s is NULL\n", K::name, K::name);
        return URMA_EINVAL;
    }
    return set_opt(find_opt(K::opts, opt), opt, K::active(obj), &K::cfg(obj), K::jfs_cfg(obj), buf, len, K::name);
}

template <typename Pub> urma_status_t get_obj_opt(Pub *obj, uint64_t opt, void *buf, uint32_t len)
{
    using K = Kind<Pub>;
    if (obj == nullptr) {
        URMA_LOG_ERR("get %s opt: the %s is NULL\n", K::name, K::name);
        return URMA_EINVAL;
    }
    return get_opt(find_opt(K::opts, opt), opt, K::active(obj), &K::cfg(obj), K::jfs_cfg(obj), K::ring(obj), buf,
                   len, K::name);
}

template <typename Pub> urma_status_t active_obj(Pub *obj)
{
    using K = Kind<Pub>;
    if (obj == nullptr || obj->urma_ctx == nullptr) {
        URMA_LOG_ERR("active %s: invalid argument\n", K::name);
        return URMA_EINVAL;
    }
    if (K::active(obj)) {
        URMA_LOG_ERR("active %s: active already\n", K::name);
        return URMA_EINVAL;
    }
    int ret = K::activate(from_pub<typename K::Impl>(obj), obj->urma_ctx, K::cfg(obj));
    return ret == 0 ? URMA_SUCCESS : status_of(ret);
}

template <typename Pub> urma_status_t deactive_obj(Pub *obj)
{
    using K = Kind<Pub>;
    if (obj == nullptr || !K::active(obj)) {
        URMA_LOG_ERR("deactive %s: %s\n", K::name, obj == nullptr ? "invalid argument" : "not active");
        return URMA_EINVAL;
    }
    int ret = K::deactivate(from_pub<typename K::Impl>(obj));
    return ret == 0 ? URMA_SUCCESS : status_of(ret);
}

template <typename Pub> urma_status_t free_obj(Pub *obj)
{
    using K = Kind<Pub>;
    if (obj == nullptr || K::active(obj)) {
        URMA_LOG_ERR("free %s: %s\n", K::name,
                     obj == nullptr ? "invalid argument" : "still active, deactivate it first");
        return URMA_EINVAL;
    }
    urma_context_t *ctx = obj->urma_ctx;
    delete from_pub<typename K::Impl>(obj);
    ctx_put(ctx);
    return URMA_SUCCESS;
}

// The batch deletes: every entry is checked before any is deleted (a NULL
// one refuses the batch with *bad at its first entry, as UMDK does); then
// each is deleted in order, and the first failure stops the batch with
// *bad at the object that failed: those before it are gone, it and those
// after it are not.
template <typename Pub>
urma_status_t delete_batch(Pub **arr, int num, Pub **bad, urma_status_t (*del)(Pub *))
{
    const char *what = Kind<Pub>::name;
    if (arr == nullptr || num <= 0 || bad == nullptr) {
        URMA_LOG_ERR("delete %s batch: invalid argument (array %p, count %d)\n", what, static_cast<void *>(arr),
                     num);
        return URMA_EINVAL;
    }
    for (int i = 0; i < num; i++) {
        if (arr[i] == nullptr) {
            URMA_LOG_ERR("delete %s batch: entry %d is NULL\n", what, i);
            *bad = arr[0];
            return URMA_EINVAL;
        }
    }
    for (int i = 0; i < num; i++) {
        urma_status_t st = del(arr[i]);
        if (st != URMA_SUCCESS) {
            URMA_LOG_ERR("delete %s batch: entry %d failed (%d); %d deleted\n", what, i, st, i);
            *bad = arr[i];
            return st;
        }
    }
    return URMA_SUCCESS;
}

}  // namespace
}  // namespace urma

// The seven calls of each kind, the same over Kind<urma_K_t>.
#define URMA_TWO_PHASE_API(K)                                                                                \
    urma_status_t urma_alloc_##K(urma_context_t *urma_ctx, urma_##K##_cfg_t *cfg, urma_##K##_t **K)          \
    {                                                                                                         \
        return urma::alloc_obj(urma_ctx, cfg, K);                                                             \
    }                                                                                                         \
    urma_status_t urma_set_##K##_opt(urma_##K##_t *K, uint64_t opt, void *buf, uint32_t len)                  \
    {                                                                                                         \
        return urma::set_obj_opt(K, opt, buf, len);                                                           \
    }                                                                                                         \
    urma_status_t urma_get_##K##_opt(urma_##K##_t *K, uint64_t opt, void *buf, uint32_t len)                  \
    {                                                                                                         \
        return urma::get_obj_opt(K, opt, buf, len);                                                           \
    }                                                                                                         \
    urma_status_t urma_active_##K(urma_##K##_t *K)                                                            \
    {                                                                                                         \
        return urma::active_obj(K);                                                                           \
    }                                                                                                         \
    urma_status_t urma_deactive_##K(urma_##K##_t *K)                                                          \
    {                                                                                                         \
        return urma::deactive_obj(K);                                                                         \
    }                                                                                                         \
    urma_status_t urma_free_##K(urma_##K##_t *K)                                                              \
    {                                                                                                         \
        return urma::free_obj(K);                                                                             \
    }                                                                                                         \
    urma_status_t urma_delete_##K##_batch(urma_##K##_t **arr, int num, urma_##K##_t **bad)                    \
    {                                                                                                         \
        return urma::delete_batch(arr, num, bad, urma_delete_##K);                                            \
    }

extern "C" {

URMA_TWO_PHASE_API(jfc)
URMA_TWO_PHASE_API(jfs)
URMA_TWO_PHASE_API(jfr)
URMA_TWO_PHASE_API(jetty)

}  // extern "C"
