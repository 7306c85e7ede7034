// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The UB/URMA stack authors
// Token ids and registered segments. Registration pins the memory in the
// kernel (charged to RLIMIT_MEMLOCK); a segment registered without a token
// id of the caller's gets one allocated here and freed at unregister, as
// UMDK does.
#include "segment.h"

#include <cerrno>
#include <cstring>
#include <new>

#include "log.h"
#include "object.h"
#include "target.h"
#include "uburma_cmd.h"
#include "urma_api.h"

namespace urma {

void seg_registry_add(urma_context_t *ctx, urma_target_seg_t *tseg)
{
    SegRegistry *r = from_pub<ContextImpl>(ctx)->segs;
    if (r == nullptr)
        return;
    std::lock_guard<std::mutex> lock(r->mu);
    r->by_handle[tseg->handle] = tseg;
}

void seg_registry_remove(urma_context_t *ctx, uint64_t handle)
{
    SegRegistry *r = from_pub<ContextImpl>(ctx)->segs;
    if (r == nullptr)
        return;
    std::lock_guard<std::mutex> lock(r->mu);
    r->by_handle.erase(handle);
}

urma_target_seg_t *seg_registry_find(const urma_context_t *ctx, uint64_t handle)
{
    SegRegistry *r = from_pub<const ContextImpl>(ctx)->segs;
    if (r == nullptr)
        return nullptr;
    std::lock_guard<std::mutex> lock(r->mu);
    auto it = r->by_handle.find(handle);
    return it == r->by_handle.end() ? nullptr : it->second;
}

void import_registry_add(urma_context_t *ctx, urma_target_jetty_t *tjetty)
{
    SegRegistry *r = from_pub<ContextImpl>(ctx)->segs;
    if (r == nullptr)
        return;
    std::lock_guard<std::mutex> lock(r->mu);
    r->imports[tjetty->handle] = tjetty;
}

void import_registry_remove(urma_context_t *ctx, uint64_t handle)
{
    SegRegistry *r = from_pub<ContextImpl>(ctx)->segs;
    if (r == nullptr)
        return;
    std::lock_guard<std::mutex> lock(r->mu);
    r->imports.erase(handle);
}

urma_target_jetty_t *import_registry_find(const urma_context_t *ctx, uint64_t handle)
{
    SegRegistry *r = from_pub<const ContextImpl>(ctx)->segs;
    if (r == nullptr)
        return nullptr;
    std::lock_guard<std::mutex> lock(r->mu);
    auto it = r->imports.find(handle);
    return it == r->imports.end() ? nullptr : it->second;
}

bool seg_access_valid(uint32_t access)
{
    const uint32_t remote = URMA_ACCESS_READ | URMA_ACCESS_WRITE | URMA_ACCESS_ATOMIC;

    if ((access & ~(remote | URMA_ACCESS_LOCAL_ONLY)) != 0) {
        URMA_LOG_ERR("unknown access bits 0x%x\n", access);
        return false;
    }
    if ((access & URMA_ACCESS_LOCAL_ONLY) && (access & remote)) {
        URMA_LOG_ERR("local only access cannot be combined with other accesses\n");
        return false;
    }
    if ((access & URMA_ACCESS_WRITE) && !(access & URMA_ACCESS_READ)) {
        URMA_LOG_ERR("write access needs read access\n");
        return false;
    }
    if ((access & URMA_ACCESS_ATOMIC) &&
        (access & (URMA_ACCESS_READ | URMA_ACCESS_WRITE)) != (URMA_ACCESS_READ | URMA_ACCESS_WRITE)) {
        URMA_LOG_ERR("atomic access needs read and write access\n");
        return false;
    }
    return true;
}

bool seg_cfg_valid(const urma_seg_cfg_t &cfg)
{
    if (cfg.va == 0 || cfg.len == 0) {
        URMA_LOG_ERR("segment va 0x%llx len %llu invalid\n", static_cast<unsigned long long>(cfg.va),
                     static_cast<unsigned long long>(cfg.len));
        return false;
    }
    if ((cfg.flag.bs.token_id_valid == URMA_TOKEN_ID_VALID) != (cfg.token_id != nullptr)) {
        URMA_LOG_ERR("token_id must be set exactly when token_id_valid is set\n");
        return false;
    }
    if (cfg.flag.bs.token_policy >= URMA_TOKEN_RESERVED) {
        URMA_LOG_ERR("token policy %u invalid\n", cfg.flag.bs.token_policy);
        return false;
    }
    return seg_access_valid(cfg.flag.bs.access);
}

urma_seg_attr_t seg_attr_from_flag(urma_reg_seg_flag_t flag)
{
    urma_seg_attr_t attr = {};

    attr.bs.token_policy = flag.bs.token_policy;
    attr.bs.cacheable = flag.bs.cacheable;
    attr.bs.dsva = flag.bs.dsva;
    attr.bs.access = flag.bs.access;
    attr.bs.non_pin = flag.bs.non_pin;
    attr.bs.user_iova = flag.bs.user_iova;
    attr.bs.user_token_id = flag.bs.token_id_valid;
    return attr;
}

}  // namespace urma

extern "C" {

urma_token_id_t *urma_alloc_token_id(urma_context_t *ctx)
{
    urma_token_id_flag_t flag = {};
    return urma_alloc_token_id_ex(ctx, flag);
}

urma_token_id_t *urma_alloc_token_id_ex(urma_context_t *ctx, urma_token_id_flag_t flag)
{
    if (ctx == nullptr) {
        URMA_LOG_ERR("context is NULL\n");
        errno = EINVAL;
        return nullptr;
    }
    if (flag.bs.reserved != 0) {
        URMA_LOG_ERR("token id flag 0x%x invalid\n", flag.value);
        errno = EINVAL;
        return nullptr;
    }
    auto *tid = new (std::nothrow) urma_token_id_t();
    if (tid == nullptr) {
        errno = ENOMEM;
        return nullptr;
    }
    struct uburma_cmd_alloc_token_id cmd = {};
    cmd.in.flag = flag.value;
    int ret = urma::uburma_cmd(ctx->dev_fd, UBURMA_CMD_ALLOC_TOKEN_ID, &cmd);
    if (ret != 0) {
        URMA_LOG_ERR("alloc token id on %s failed: %s\n", ctx->dev->name, std::strerror(-ret));
        delete tid;
        errno = -ret;
        return nullptr;
    }
    tid->urma_ctx = ctx;
    tid->token_id = cmd.out.token_id;
    tid->handle = cmd.out.handle;
    tid->flag = flag;
    tid->ref.atomic_cnt = 0;  // segments using it
    urma::ctx_get(ctx);
    return tid;
}

urma_status_t urma_free_token_id(urma_token_id_t *token_id)
{
    if (token_id == nullptr) {
        URMA_LOG_ERR("token id is NULL\n");
        return URMA_EINVAL;
    }
    if (token_id->ref.atomic_cnt.load() != 0) {
        URMA_LOG_ERR("token id %u is still used by %lu segments\n", token_id->token_id,
                     token_id->ref.atomic_cnt.load());
        return URMA_EINVAL;
    }
    urma_context_t *ctx = token_id->urma_ctx;
    struct uburma_cmd_destroy cmd = {};
    cmd.in.handle = token_id->handle;
    int ret = urma::uburma_cmd(ctx->dev_fd, UBURMA_CMD_FREE_TOKEN_ID, &cmd);
    if (ret != 0 && !urma::device_gone(ret)) {
        URMA_LOG_ERR("free token id %u failed: %s\n", token_id->token_id, std::strerror(-ret));
        return urma::status_of(ret);
    }
    delete token_id;
    urma::ctx_put(ctx);
    return URMA_SUCCESS;
}

urma_target_seg_t *urma_register_seg(urma_context_t *ctx, urma_seg_cfg_t *seg_cfg)
{
    if (ctx == nullptr || seg_cfg == nullptr) {
        URMA_LOG_ERR("invalid argument: ctx %p cfg %p\n", static_cast<void *>(ctx),
                     static_cast<void *>(seg_cfg));
        errno = EINVAL;
        return nullptr;
    }
    if (!urma::seg_cfg_valid(*seg_cfg)) {
        errno = EINVAL;
        return nullptr;
    }
    if (seg_cfg->token_id != nullptr && seg_cfg->token_id->urma_ctx != ctx) {
        URMA_LOG_ERR("token id belongs to another context\n");
        errno = EINVAL;
        return nullptr;
    }
    auto *impl = new (std::nothrow) urma::TargetSegImpl();  // target_idx 0: not imported
    if (impl == nullptr) {
        errno = ENOMEM;
        return nullptr;
    }
    urma_target_seg_t *tseg = &impl->pub;
    const bool own_tid = seg_cfg->flag.bs.token_id_valid == URMA_TOKEN_ID_INVALID;
    urma_token_id_t *tid = seg_cfg->token_id;
    if (own_tid) {
        // UMDK: without a token id of the caller's, the segment gets its own.
        tid = urma_alloc_token_id(ctx);
        if (tid == nullptr) {
            int err = errno;
            delete impl;
            errno = err;
            return nullptr;
        }
    }
    urma_reg_seg_flag_t flag = seg_cfg->flag;
    flag.bs.token_id_valid = URMA_TOKEN_ID_VALID;  // the kernel always gets one
    struct uburma_cmd_register_seg cmd = {};
    cmd.in.va = seg_cfg->va;
    cmd.in.len = seg_cfg->len;
    cmd.in.token_id_handle = tid->handle;
    cmd.in.iova = seg_cfg->iova;
    cmd.in.token_value = seg_cfg->token_value.token;
    cmd.in.flag = flag.value;
    int ret = urma::uburma_cmd(ctx->dev_fd, UBURMA_CMD_REGISTER_SEG, &cmd);
    if (ret != 0) {
        // ENOMEM: over RLIMIT_MEMLOCK (or out of memory); EFAULT: bad range.
        URMA_LOG_ERR("register seg va 0x%llx len %llu on %s failed: %s\n",
                     static_cast<unsigned long long>(seg_cfg->va), static_cast<unsigned long long>(seg_cfg->len),
                     ctx->dev->name, std::strerror(-ret));
        if (own_tid)
            urma_free_token_id(tid);
        delete impl;
        errno = -ret;
        return nullptr;
    }
    tseg->seg.ubva.eid = ctx->eid;
    tseg->seg.ubva.uasid = ctx->uasid;
    tseg->seg.ubva.va = seg_cfg->va;
    tseg->seg.len = seg_cfg->len;
    tseg->seg.attr = urma::seg_attr_from_flag(seg_cfg->flag);
    tseg->seg.token_id = cmd.out.token_id;
    tseg->user_ctx = seg_cfg->user_ctx;
    tseg->mva = 0;
    tseg->urma_ctx = ctx;
    tseg->token_id = tid;
    tseg->handle = cmd.out.handle;
    tid->ref.atomic_cnt.fetch_add(1);
    urma::ctx_get(ctx);
    urma::seg_registry_add(ctx, tseg);
    return tseg;
}

urma_status_t urma_unregister_seg(urma_target_seg_t *target_seg)
{
    if (target_seg == nullptr || target_seg->urma_ctx == nullptr || target_seg->token_id == nullptr) {
        URMA_LOG_ERR("invalid registered segment %p\n", static_cast<void *>(target_seg));
        return URMA_EINVAL;
    }
    urma_context_t *ctx = target_seg->urma_ctx;
    urma_token_id_t *tid = target_seg->token_id;
    struct uburma_cmd_destroy cmd = {};
    cmd.in.handle = target_seg->handle;
    int ret = urma::uburma_cmd(ctx->dev_fd, UBURMA_CMD_UNREGISTER_SEG, &cmd);
    if (ret != 0 && !urma::device_gone(ret)) {
        URMA_LOG_ERR("unregister seg failed: %s\n", std::strerror(-ret));
        return urma::status_of(ret);
    }
    urma::seg_registry_remove(ctx, target_seg->handle);
    const bool own_tid = target_seg->seg.attr.bs.user_token_id == URMA_TOKEN_ID_INVALID;
    tid->ref.atomic_cnt.fetch_sub(1);
    delete urma::from_pub<urma::TargetSegImpl>(target_seg);
    urma::ctx_put(ctx);
    if (own_tid)
        return urma_free_token_id(tid);
    return URMA_SUCCESS;
}

}  // extern "C"
