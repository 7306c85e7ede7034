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

constexpr OptEntry kJfcOpts[] = {
    CFG(URMA_JFC_DEPTH, urma_jfc_cfg_t, depth),
    CFG(URMA_JFC_CEQN, urma_jfc_cfg_t, ceqn),
    CFG(URMA_JFC_FLAG, urma_jfc_cfg_t, flag),
    CFG(URMA_JFC_BIND_JFCE, urma_jfc_cfg_t, jfce),
    CFG(URMA_JFC_USER_CTX, urma_jfc_cfg_t, user_ctx),
    RING(URMA_JFC_CQE_BASE_ADDR, RingBase, 8),
    RING(URMA_JFC_ID, Id, 4),
    RING(URMA_JFC_DB_ADDR, DbAddr, 8),
    RING(URMA_JFC_DB_STATUS, DbStatus, 1),
    RING(URMA_JFC_PI, Pi, 2),
    RING(URMA_JFC_PI_TYPE, PiType, 2),
    RING(URMA_JFC_CI, Ci, 2),
    RING(URMA_JFC_FULL_CTX, FullCtx, 0),
};

#define JFS_OPTS(K)                                                                                     \
    K(URMA_JFS_DEPTH, depth), K(URMA_JFS_FLAG, flag), K(URMA_JFS_TRANS_MODE, trans_mode),                \
        K(URMA_JFS_PRIORITY, priority), K(URMA_JFS_MAX_SGE, max_sge), K(URMA_JFS_MAX_RSGE, max_rsge),   \
        K(URMA_JFS_MAX_INLINE_DATA, max_inline_data), K(URMA_JFS_RNR_RETRY, rnr_retry),                \
        K(URMA_JFS_ERR_TIMEOUT, err_timeout), K(URMA_JFS_BIND_JFC, jfc), K(URMA_JFS_USER_CTX, user_ctx), \
        RING(URMA_JFS_SQE_BASE_ADDR, RingBase, 8), RING(URMA_JFS_ID, Id, 4),                            \
        RING(URMA_JFS_DB_ADDR, DbAddr, 8), RING(URMA_JFS_DB_STATUS, DbStatus, 1),                       \
        RING(URMA_JFS_PI, Pi, 2), RING(URMA_JFS_PI_TYPE, PiType, 2), RING(URMA_JFS_CI, Ci, 2),          \
        RING(URMA_JFS_FULL_CTX, FullCtx, 0)
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
    RING(URMA_JFR_RQE_BASE_ADDR, RingBase, 8),
    RING(URMA_JFR_ID, Id, 4),
    RING(URMA_JFR_DB_ADDR, DbAddr, 8),
    RING(URMA_JFR_DB_STATUS, DbStatus, 1),
    RING(URMA_JFR_PI, Pi, 2),
    RING(URMA_JFR_PI_TYPE, PiType, 2),
    RING(URMA_JFR_CI, Ci, 2),
    RING(URMA_JFR_FULL_CTX, FullCtx, 0),
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

// alloc: an inactive object with a copy of cfg; holds a context reference
// until free, as UMDK's does.
template <typename Impl, typename Pub, typename Cfg>
urma_status_t alloc_obj(urma_context_t *ctx, const Cfg *cfg, Pub **out, Cfg Pub::*cfg_field, const char *what)
{
    if (ctx == nullptr || cfg == nullptr || out == nullptr) {
        URMA_LOG_ERR("alloc %s: invalid argument\n", what);
        return URMA_EINVAL;
    }
    auto *impl = new (std::nothrow) Impl();
    if (impl == nullptr)
        return URMA_ENOMEM;
    impl->pub.urma_ctx = ctx;
    impl->pub.*cfg_field = *cfg;
    ctx_get(ctx);
    *out = &impl->pub;
    return URMA_SUCCESS;
}

template <typename Impl, typename Pub, typename Cfg>
urma_status_t active_obj(Pub *obj, bool active, Cfg Pub::*cfg_field, int (*activate)(Impl *, urma_context_t *, const Cfg &),
                         const char *what)
{
    if (obj == nullptr || obj->urma_ctx == nullptr) {
        URMA_LOG_ERR("active %s: invalid argument\n", what);
        return URMA_EINVAL;
    }
    if (active) {
        URMA_LOG_ERR("active %s: active already\n", what);
        return URMA_EINVAL;
    }
    int ret = activate(from_pub<Impl>(obj), obj->urma_ctx, obj->*cfg_field);
    return ret == 0 ? URMA_SUCCESS : status_of(ret);
}

template <typename Impl, typename Pub>
urma_status_t deactive_obj(Pub *obj, bool active, int (*deactivate)(Impl *), const char *what)
{
    if (obj == nullptr) {
        URMA_LOG_ERR("deactive %s: invalid argument\n", what);
        return URMA_EINVAL;
    }
    if (!active) {
        URMA_LOG_ERR("deactive %s: not active\n", what);
        return URMA_EINVAL;
    }
    int ret = deactivate(from_pub<Impl>(obj));
    return ret == 0 ? URMA_SUCCESS : status_of(ret);
}

template <typename Impl, typename Pub> urma_status_t free_obj(Pub *obj, bool active, const char *what)
{
    if (obj == nullptr) {
        URMA_LOG_ERR("free %s: invalid argument\n", what);
        return URMA_EINVAL;
    }
    if (active) {
        URMA_LOG_ERR("free %s: still active, urma_deactive_%s first\n", what, what);
        return URMA_EINVAL;
    }
    urma_context_t *ctx = obj->urma_ctx;
    delete from_pub<Impl>(obj);
    ctx_put(ctx);
    return URMA_SUCCESS;
}

// The batch deletes: every entry is checked before any is deleted (a NULL
// one refuses the batch with *bad at its first entry, as UMDK does); then
// each is deleted in order, and the first failure stops the batch with
// *bad at the object that failed: those before it are gone, it and those
// after it are not.
template <typename Pub>
urma_status_t delete_batch(Pub **arr, int num, Pub **bad, urma_status_t (*del)(Pub *), const char *what)
{
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

using urma::JettyImpl;
using urma::JfcImpl;
using urma::JfrImpl;
using urma::JfsImpl;
using urma::RingView;

extern "C" {

/* ---------------------------------------------------------------- JFC */

urma_status_t urma_alloc_jfc(urma_context_t *urma_ctx, urma_jfc_cfg_t *cfg, urma_jfc_t **jfc)
{
    return urma::alloc_obj<JfcImpl>(urma_ctx, cfg, jfc, &urma_jfc_t::jfc_cfg, "jfc");
}

urma_status_t urma_set_jfc_opt(urma_jfc_t *jfc, uint64_t opt, void *buf, uint32_t len)
{
    if (jfc == nullptr) {
        URMA_LOG_ERR("set jfc opt: jfc is NULL\n");
        return URMA_EINVAL;
    }
    return urma::set_opt(urma::find_opt(urma::kJfcOpts, opt), opt, jfc->urma_jfc_opt.is_actived, &jfc->jfc_cfg,
                         nullptr, buf, len, "jfc");
}

urma_status_t urma_get_jfc_opt(urma_jfc_t *jfc, uint64_t opt, void *buf, uint32_t len)
{
    if (jfc == nullptr) {
        URMA_LOG_ERR("get jfc opt: jfc is NULL\n");
        return URMA_EINVAL;
    }
    RingView rv = {&urma::from_pub<JfcImpl>(jfc)->cq.ring(), jfc->jfc_id.id};
    return urma::get_opt(urma::find_opt(urma::kJfcOpts, opt), opt, jfc->urma_jfc_opt.is_actived, &jfc->jfc_cfg,
                         nullptr, rv, buf, len, "jfc");
}

urma_status_t urma_active_jfc(urma_jfc_t *jfc)
{
    return urma::active_obj(jfc, jfc != nullptr && jfc->urma_jfc_opt.is_actived, &urma_jfc_t::jfc_cfg,
                            urma::jfc_activate, "jfc");
}

urma_status_t urma_deactive_jfc(urma_jfc_t *jfc)
{
    return urma::deactive_obj(jfc, jfc != nullptr && jfc->urma_jfc_opt.is_actived, urma::jfc_deactivate, "jfc");
}

urma_status_t urma_free_jfc(urma_jfc_t *jfc)
{
    return urma::free_obj<JfcImpl>(jfc, jfc != nullptr && jfc->urma_jfc_opt.is_actived, "jfc");
}

urma_status_t urma_delete_jfc_batch(urma_jfc_t **jfc_arr, int jfc_num, urma_jfc_t **bad_jfc)
{
    return urma::delete_batch(jfc_arr, jfc_num, bad_jfc, urma_delete_jfc, "jfc");
}

/* ---------------------------------------------------------------- JFS */

urma_status_t urma_alloc_jfs(urma_context_t *urma_ctx, urma_jfs_cfg_t *cfg, urma_jfs_t **jfs)
{
    return urma::alloc_obj<JfsImpl>(urma_ctx, cfg, jfs, &urma_jfs_t::jfs_cfg, "jfs");
}

urma_status_t urma_set_jfs_opt(urma_jfs_t *jfs, uint64_t opt, void *buf, uint32_t len)
{
    if (jfs == nullptr) {
        URMA_LOG_ERR("set jfs opt: jfs is NULL\n");
        return URMA_EINVAL;
    }
    return urma::set_opt(urma::find_opt(urma::kJfsOpts, opt), opt, jfs->urma_jfs_opt.is_actived, &jfs->jfs_cfg,
                         nullptr, buf, len, "jfs");
}

urma_status_t urma_get_jfs_opt(urma_jfs_t *jfs, uint64_t opt, void *buf, uint32_t len)
{
    if (jfs == nullptr) {
        URMA_LOG_ERR("get jfs opt: jfs is NULL\n");
        return URMA_EINVAL;
    }
    RingView rv = {&urma::from_pub<JfsImpl>(jfs)->sq.ring(), jfs->jfs_id.id};
    return urma::get_opt(urma::find_opt(urma::kJfsOpts, opt), opt, jfs->urma_jfs_opt.is_actived, &jfs->jfs_cfg,
                         nullptr, rv, buf, len, "jfs");
}

urma_status_t urma_active_jfs(urma_jfs_t *jfs)
{
    return urma::active_obj(jfs, jfs != nullptr && jfs->urma_jfs_opt.is_actived, &urma_jfs_t::jfs_cfg,
                            urma::jfs_activate, "jfs");
}

urma_status_t urma_deactive_jfs(urma_jfs_t *jfs)
{
    return urma::deactive_obj(jfs, jfs != nullptr && jfs->urma_jfs_opt.is_actived, urma::jfs_deactivate, "jfs");
}

urma_status_t urma_free_jfs(urma_jfs_t *jfs)
{
    return urma::free_obj<JfsImpl>(jfs, jfs != nullptr && jfs->urma_jfs_opt.is_actived, "jfs");
}

urma_status_t urma_delete_jfs_batch(urma_jfs_t **jfs_arr, int jfs_num, urma_jfs_t **bad_jfs)
{
    return urma::delete_batch(jfs_arr, jfs_num, bad_jfs, urma_delete_jfs, "jfs");
}

/* ---------------------------------------------------------------- JFR */

urma_status_t urma_alloc_jfr(urma_context_t *urma_ctx, urma_jfr_cfg_t *cfg, urma_jfr_t **jfr)
{
    return urma::alloc_obj<JfrImpl>(urma_ctx, cfg, jfr, &urma_jfr_t::jfr_cfg, "jfr");
}

urma_status_t urma_set_jfr_opt(urma_jfr_t *jfr, uint64_t opt, void *buf, uint32_t len)
{
    if (jfr == nullptr) {
        URMA_LOG_ERR("set jfr opt: jfr is NULL\n");
        return URMA_EINVAL;
    }
    return urma::set_opt(urma::find_opt(urma::kJfrOpts, opt), opt, jfr->urma_jfr_opt.is_actived, &jfr->jfr_cfg,
                         nullptr, buf, len, "jfr");
}

urma_status_t urma_get_jfr_opt(urma_jfr_t *jfr, uint64_t opt, void *buf, uint32_t len)
{
    if (jfr == nullptr) {
        URMA_LOG_ERR("get jfr opt: jfr is NULL\n");
        return URMA_EINVAL;
    }
    RingView rv = {&urma::from_pub<JfrImpl>(jfr)->rq.ring(), jfr->jfr_id.id};
    return urma::get_opt(urma::find_opt(urma::kJfrOpts, opt), opt, jfr->urma_jfr_opt.is_actived, &jfr->jfr_cfg,
                         nullptr, rv, buf, len, "jfr");
}

urma_status_t urma_active_jfr(urma_jfr_t *jfr)
{
    return urma::active_obj(jfr, jfr != nullptr && jfr->urma_jfr_opt.is_actived, &urma_jfr_t::jfr_cfg,
                            urma::jfr_activate, "jfr");
}

urma_status_t urma_deactive_jfr(urma_jfr_t *jfr)
{
    return urma::deactive_obj(jfr, jfr != nullptr && jfr->urma_jfr_opt.is_actived, urma::jfr_deactivate, "jfr");
}

urma_status_t urma_free_jfr(urma_jfr_t *jfr)
{
    return urma::free_obj<JfrImpl>(jfr, jfr != nullptr && jfr->urma_jfr_opt.is_actived, "jfr");
}

urma_status_t urma_delete_jfr_batch(urma_jfr_t **jfr_arr, int jfr_num, urma_jfr_t **bad_jfr)
{
    return urma::delete_batch(jfr_arr, jfr_num, bad_jfr, urma_delete_jfr, "jfr");
}

/* -------------------------------------------------------------- jetty */

urma_status_t urma_alloc_jetty(urma_context_t *urma_ctx, urma_jetty_cfg_t *cfg, urma_jetty_t **jetty)
{
    return urma::alloc_obj<JettyImpl>(urma_ctx, cfg, jetty, &urma_jetty_t::jetty_cfg, "jetty");
}

urma_status_t urma_set_jetty_opt(urma_jetty_t *jetty, uint64_t opt, void *buf, uint32_t len)
{
    if (jetty == nullptr) {
        URMA_LOG_ERR("set jetty opt: jetty is NULL\n");
        return URMA_EINVAL;
    }
    return urma::set_opt(urma::find_opt(urma::kJettyOpts, opt), opt, jetty->urma_jetty_opt.is_actived,
                         &jetty->jetty_cfg, &jetty->jetty_cfg.jfs_cfg, buf, len, "jetty");
}

urma_status_t urma_get_jetty_opt(urma_jetty_t *jetty, uint64_t opt, void *buf, uint32_t len)
{
    if (jetty == nullptr) {
        URMA_LOG_ERR("get jetty opt: jetty is NULL\n");
        return URMA_EINVAL;
    }
    RingView rv = {&urma::from_pub<JettyImpl>(jetty)->sq.ring(), jetty->jetty_id.id};
    return urma::get_opt(urma::find_opt(urma::kJettyOpts, opt), opt, jetty->urma_jetty_opt.is_actived,
                         &jetty->jetty_cfg, &jetty->jetty_cfg.jfs_cfg, rv, buf, len, "jetty");
}

urma_status_t urma_active_jetty(urma_jetty_t *jetty)
{
    return urma::active_obj(jetty, jetty != nullptr && jetty->urma_jetty_opt.is_actived, &urma_jetty_t::jetty_cfg,
                            urma::jetty_activate, "jetty");
}

urma_status_t urma_deactive_jetty(urma_jetty_t *jetty)
{
    return urma::deactive_obj(jetty, jetty != nullptr && jetty->urma_jetty_opt.is_actived, urma::jetty_deactivate,
                              "jetty");
}

urma_status_t urma_free_jetty(urma_jetty_t *jetty)
{
    return urma::free_obj<JettyImpl>(jetty, jetty != nullptr && jetty->urma_jetty_opt.is_actived, "jetty");
}

urma_status_t urma_delete_jetty_batch(urma_jetty_t **jetty_arr, int jetty_num, urma_jetty_t **bad_jetty)
{
    return urma::delete_batch(jetty_arr, jetty_num, bad_jetty, urma_delete_jetty, "jetty");
}

}  // extern "C"
