// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The UB/URMA stack authors
// The kernel side of the objects with a ring (JFC, JFS, JFR, jetty): the
// create command and the mapping of the ring its response describes,
// undone if the mapping fails; the delete command and the wait for the
// user's acknowledgements of the events the kernel reported.
#pragma once

#include <pthread.h>

#include <cstdint>
#include <cstring>

#include <ub/udma_abi.h>

#include "log.h"
#include "object.h"
#include "uburma_cmd.h"
#include "urma_types.h"

namespace urma {

// What the commands and the log call a kind of object with a ring.
struct RingObjectKind {
    const char *name;  // "jfs"
    const char *ring;  // "SQ"
    uint32_t create_cmd;
    uint32_t delete_cmd;
};

// Runs the create command cmd, then maps into q the ring its response
// describes; if that fails, deletes the kernel object again. *id (in cmd's
// output) names the object in the log. Returns 0 or -errno, logged.
template <typename Cmd, typename Queue>
int create_and_map(urma_context_t *ctx, const RingObjectKind &kind, Cmd *cmd, const uint32_t *id, Queue &q,
                   const udma_ring_info &ring)
{
    int ret = uburma_cmd(ctx->dev_fd, kind.create_cmd, cmd);
    if (ret != 0) {
        URMA_LOG_ERR("create %s on %s failed: %s\n", kind.name, ctx->dev->name, std::strerror(-ret));
        return ret;
    }
    ret = q.map(ctx->dev_fd, ring);
    if (ret != 0) {
        URMA_LOG_ERR("cannot map the %s of %s %u: %s\n", kind.ring, kind.name, *id, std::strerror(-ret));
        struct uburma_cmd_delete del = {};
        del.in.handle = cmd->out.handle;
        uburma_cmd(ctx->dev_fd, kind.delete_cmd, &del);
    }
    return ret;
}

// Runs a modify or query command (verb) on an object; a failure is logged
// and returned as a status.
template <typename Cmd>
urma_status_t object_cmd(urma_context_t *ctx, uint32_t command, Cmd *cmd, const char *verb,
                         const RingObjectKind &kind, uint32_t id)
{
    int ret = uburma_cmd(ctx->dev_fd, command, cmd);
    if (ret != 0) {
        URMA_LOG_ERR("%s %s %u failed: %s\n", verb, kind.name, id, std::strerror(-ret));
        return status_of(ret);
    }
    return URMA_SUCCESS;
}

// The common end of the deletes: the kernel's delete, then (unless the
// device is gone and took the object with it) the wait for the user to ack
// what the kernel reported: async events, and for a JFC (comp_acked)
// completion events. Returns 0 or the -errno of a refused delete.
inline int delete_and_wait(urma_context_t *ctx, const RingObjectKind &kind, uint64_t handle, uint32_t id,
                           pthread_mutex_t *mutex, pthread_cond_t *cond, const uint32_t *acked,
                           const uint32_t *comp_acked = nullptr)
{
    struct uburma_cmd_delete cmd = {};
    cmd.in.handle = handle;
    int ret = uburma_cmd(ctx->dev_fd, kind.delete_cmd, &cmd);
    if (ret != 0 && !device_gone(ret)) {
        URMA_LOG_ERR("delete %s %u failed: %s\n", kind.name, id, std::strerror(-ret));
        return ret;
    }
    if (ret != 0)
        URMA_LOG_WARN("%s %u: device %s is gone\n", kind.name, id, ctx->dev->name);
    else
        event_wait_acked(mutex, cond, acked, cmd.out.async_events_reported, comp_acked,
                         cmd.out.comp_events_reported);
    return 0;
}

}  // namespace urma
