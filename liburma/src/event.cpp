// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The UB/URMA stack authors
// Event channels: JFCEs (completion events, one fd each) and the context's
// async event fd (errors of objects, port and EID changes of the device).
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <new>

#include "log.h"
#include "object.h"
#include "uburma_cmd.h"
#include "urma_api.h"

extern "C" {

urma_jfce_t *urma_create_jfce(urma_context_t *ctx)
{
    if (ctx == nullptr) {
        URMA_LOG_ERR("context is NULL\n");
        errno = EINVAL;
        return nullptr;
    }
    auto *jfce = new (std::nothrow) urma_jfce_t();
    if (jfce == nullptr) {
        errno = ENOMEM;
        return nullptr;
    }
    struct uburma_cmd_create_jfce cmd = {};
    int ret = urma::uburma_cmd(ctx->dev_fd, UBURMA_CMD_CREATE_JFCE, &cmd);
    if (ret != 0) {
        URMA_LOG_ERR("create jfce on %s failed: %s\n", ctx->dev->name, std::strerror(-ret));
        delete jfce;
        errno = -ret;
        return nullptr;
    }
    jfce->urma_ctx = ctx;
    jfce->fd = cmd.out.fd;
    // One reference of its own; each JFC using it adds one.
    jfce->ref.atomic_cnt = 1;
    urma::ctx_get(ctx);
    return jfce;
}

urma_status_t urma_delete_jfce(urma_jfce_t *jfce)
{
    if (jfce == nullptr) {
        URMA_LOG_ERR("jfce is NULL\n");
        return URMA_EINVAL;
    }
    if (jfce->ref.atomic_cnt.load() > 1) {
        URMA_LOG_ERR("jfce is still used by %lu jfcs\n", jfce->ref.atomic_cnt.load() - 1);
        return URMA_FAIL;
    }
    urma_context_t *ctx = jfce->urma_ctx;
    // Closing the fd is the delete (uburma_ioctl.h); no JFC uses it any more.
    close(jfce->fd);
    delete jfce;
    urma::ctx_put(ctx);
    return URMA_SUCCESS;
}

urma_status_t urma_get_async_event(urma_context_t *ctx, urma_async_event_t *event)
{
    if (ctx == nullptr || event == nullptr || ctx->async_fd < 0) {
        URMA_LOG_ERR("invalid argument: ctx %p event %p\n", static_cast<void *>(ctx),
                     static_cast<void *>(event));
        return URMA_EINVAL;
    }
    struct uburma_async_event rec = {};
    ssize_t n;
    do {
        n = read(ctx->async_fd, &rec, sizeof(rec));
    } while (n < 0 && errno == EINTR);
    if (n != static_cast<ssize_t>(sizeof(rec))) {
        // EAGAIN on a non-blocking fd with nothing queued is not worth a log line.
        if (!(n < 0 && errno == EAGAIN))
            URMA_LOG_ERR("reading the async fd of %s failed: %zd %s\n", ctx->dev->name, n,
                         n < 0 ? std::strerror(errno) : "short read");
        return URMA_FAIL;
    }
    std::memset(event, 0, sizeof(*event));
    event->urma_ctx = ctx;
    event->event_type = static_cast<urma_async_event_type_t>(rec.event_type);
    event->priv = nullptr;
    switch (event->event_type) {
    case URMA_EVENT_JFC_ERR:
        event->element.jfc = reinterpret_cast<urma_jfc_t *>(rec.event_data);
        break;
    case URMA_EVENT_JFS_ERR:
        event->element.jfs = reinterpret_cast<urma_jfs_t *>(rec.event_data);
        break;
    case URMA_EVENT_JFR_ERR:
    case URMA_EVENT_JFR_LIMIT:
        event->element.jfr = reinterpret_cast<urma_jfr_t *>(rec.event_data);
        break;
    case URMA_EVENT_JETTY_ERR:
    case URMA_EVENT_JETTY_LIMIT:
        event->element.jetty = reinterpret_cast<urma_jetty_t *>(rec.event_data);
        break;
    case URMA_EVENT_JETTY_GRP_ERR:
        event->element.jetty_grp = reinterpret_cast<urma_jetty_grp_t *>(rec.event_data);
        break;
    case URMA_EVENT_PORT_ACTIVE:
    case URMA_EVENT_PORT_DOWN:
        event->element.port_id = static_cast<uint32_t>(rec.event_data);
        break;
    case URMA_EVENT_EID_CHANGE:
        event->element.eid_idx = static_cast<uint32_t>(rec.event_data);
        break;
    case URMA_EVENT_DEV_FATAL:
        break;
    case URMA_EVENT_SEG_INVALID:
        // The kernel names the segment by its handle.
        event->element.tseg = urma::seg_registry_find(ctx, rec.event_data);
        break;
    case URMA_EVENT_TP_ERR:
        // Likewise the import, by its handle.
        event->element.tjetty = urma::import_registry_find(ctx, rec.event_data);
        break;
    default:
        URMA_LOG_ERR("unknown async event type %u\n", rec.event_type);
        return URMA_FAIL;
    }
    return URMA_SUCCESS;
}

void urma_ack_async_event(urma_async_event_t *event)
{
    if (event == nullptr || event->urma_ctx == nullptr) {
        URMA_LOG_ERR("invalid event\n");
        return;
    }
    switch (event->event_type) {
    case URMA_EVENT_JFC_ERR: {
        urma_jfc_t *o = event->element.jfc;
        urma::event_ack(&o->event_mutex, &o->event_cond, &o->async_events_acked, 1);
        break;
    }
    case URMA_EVENT_JFS_ERR: {
        urma_jfs_t *o = event->element.jfs;
        urma::event_ack(&o->event_mutex, &o->event_cond, &o->async_events_acked, 1);
        break;
    }
    case URMA_EVENT_JFR_ERR:
    case URMA_EVENT_JFR_LIMIT: {
        urma_jfr_t *o = event->element.jfr;
        urma::event_ack(&o->event_mutex, &o->event_cond, &o->async_events_acked, 1);
        break;
    }
    case URMA_EVENT_JETTY_ERR:
    case URMA_EVENT_JETTY_LIMIT: {
        urma_jetty_t *o = event->element.jetty;
        urma::event_ack(&o->event_mutex, &o->event_cond, &o->async_events_acked, 1);
        break;
    }
    case URMA_EVENT_JETTY_GRP_ERR: {
        urma_jetty_grp_t *o = event->element.jetty_grp;
        urma::event_ack(&o->event_mutex, &o->event_cond, &o->async_events_acked, 1);
        break;
    }
    default:
        // Device events name no object: nothing waits for their ack.
        break;
    }
}

}  // extern "C"
