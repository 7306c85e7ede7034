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

#include <new>

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

// A queue back to its state before map(): unmapped, indexes at 0.
template <typename Queue> void reset_queue(Queue &q)
{
    q.~Queue();
    new (&q) Queue();
}

}  // namespace urma
