// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The UB/URMA stack authors
// JFCs (completion queues): the kernel object, its CQ ring mapped into the
// process, and the JFCE it may report completion events to.
#include <cerrno>
#include <new>

#include <ub/udma_abi.h>

#include "lifecycle.h"
#include "log.h"
#include "object.h"
#include "queue.h"
#include "ring_object.h"
#include "uburma_cmd.h"
#include "urma_api.h"

using urma::JfcImpl;

namespace {

constexpr urma::RingObjectKind kJfc = {"jfc", "CQ", UBURMA_CMD_CREATE_JFC, UBURMA_CMD_DELETE_JFC};

}  // namespace

namespace urma {

int jfc_activate(JfcImpl *impl, urma_context_t *ctx, const urma_jfc_cfg_t &cfg)
{
    const urma_device_cap_t &cap = ctx_cap(ctx);
    if (cfg.depth == 0 || cfg.depth > cap.max_jfc_depth) {
        URMA_LOG_ERR("jfc depth %u out of range 1..%u\n", cfg.depth, cap.max_jfc_depth);
        return -EINVAL;
    }
    if (cfg.jfce != nullptr && cfg.jfce->urma_ctx != ctx) {
        URMA_LOG_ERR("jfce belongs to another context\n");
        return -EINVAL;
    }
    urma_jfc_t *jfc = &impl->pub;
    struct udma_create_jfc_resp resp = {};
    struct uburma_cmd_create_jfc cmd = {};
    cmd.in.depth = cfg.depth;
    cmd.in.flag = cfg.flag.value;
    cmd.in.ceqn = cfg.ceqn;
    cmd.in.jfce_fd = cfg.jfce != nullptr ? cfg.jfce->fd : -1;
    cmd.in.urma_jfc = reinterpret_cast<uintptr_t>(jfc);
    cmd.in.udata.out_addr = reinterpret_cast<uintptr_t>(&resp);
    cmd.in.udata.out_len = sizeof(resp);
    int ret = create_and_map(ctx, kJfc, &cmd, &cmd.out.id, impl->cq, resp.cq);
    if (ret != 0)
        return ret;
    jfc->urma_ctx = ctx;
    jfc->jfc_id.eid = ctx->eid;
    jfc->jfc_id.uasid = ctx->uasid;
    jfc->jfc_id.id = cmd.out.id;
    jfc->jfc_cfg = cfg;
    jfc->jfc_cfg.depth = cmd.out.depth;  // rounded up by the kernel
    jfc->handle = cmd.out.handle;
    jfc->comp_events_acked = 0;
    event_init(&jfc->event_mutex, &jfc->event_cond, &jfc->async_events_acked);
    jfc->urma_jfc_opt.is_actived = true;
    if (cfg.jfce != nullptr)
        cfg.jfce->ref.atomic_cnt.fetch_add(1);
    return 0;
}

int jfc_deactivate(JfcImpl *impl)
{
    urma_jfc_t *jfc = &impl->pub;
    // EBUSY: a JFS, JFR or jetty still completes to it. If the device was
    // removed, the kernel already destroyed it: free our side.
    int ret = delete_and_wait(jfc->urma_ctx, kJfc, jfc->handle, jfc->jfc_id.id, &jfc->event_mutex,
                              &jfc->event_cond, &jfc->async_events_acked, &jfc->comp_events_acked);
    if (ret != 0)
        return ret;
    if (jfc->jfc_cfg.jfce != nullptr)
        jfc->jfc_cfg.jfce->ref.atomic_cnt.fetch_sub(1);
    event_destroy(&jfc->event_mutex, &jfc->event_cond);
    reset_queue(impl->cq);  // unmaps the CQ
    jfc->urma_jfc_opt.is_actived = false;
    return 0;
}

}  // namespace urma

extern "C" {

urma_jfc_t *urma_create_jfc(urma_context_t *ctx, urma_jfc_cfg_t *jfc_cfg)
{
    return urma::create_obj<urma_jfc_t>(ctx, jfc_cfg);
}

urma_status_t urma_modify_jfc(urma_jfc_t *jfc, urma_jfc_attr_t *attr)
{
    if (jfc == nullptr || attr == nullptr) {
        URMA_LOG_ERR("invalid argument: jfc %p attr %p\n", static_cast<void *>(jfc),
                     static_cast<void *>(attr));
        return URMA_EINVAL;
    }
    const uint32_t known = JFC_MODERATE_COUNT | JFC_MODERATE_PERIOD;
    if (attr->mask == 0 || (attr->mask & ~known) != 0) {
        URMA_LOG_ERR("jfc attr mask 0x%x invalid\n", attr->mask);
        return URMA_EINVAL;
    }
    struct uburma_cmd_modify_jfc cmd = {};
    cmd.in.handle = jfc->handle;
    cmd.in.mask = attr->mask;
    cmd.in.moderate_count = attr->moderate_count;
    cmd.in.moderate_period = attr->moderate_period;
    return urma::object_cmd(jfc->urma_ctx, UBURMA_CMD_MODIFY_JFC, &cmd, "modify", kJfc, jfc->jfc_id.id);
}

urma_status_t urma_delete_jfc(urma_jfc_t *jfc)
{
    return urma::delete_obj(jfc);
}

}  // extern "C"
