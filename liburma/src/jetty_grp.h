// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The UB/URMA stack authors
// Jetty groups (UMDK's urma_jetty_grp_t): the kernel object, and the list
// of member jetties the public struct carries (jetty_list, jetty_cnt under
// list_mutex). A jetty is on the list while its kernel object is a member:
// from its activation (urma_create_jetty, urma_active_jetty) with
// cfg.jetty_grp until its delete or deactivation.
#pragma once

#include "urma_types.h"

namespace urma {

// UMDK's checks of a jetty's configuration against its group (a group of
// the same context; an RM jetty whose JFR has the group's token value and
// token policy), then a place on the list: -EINVAL, or -EPERM when the
// group has max_jetty_in_jetty_grp members (UMDK: "failed to add jetty to
// jetty_grp", errno EPERM). Logs why. Undo with jetty_grp_leave().
int jetty_grp_join(urma_context_t *ctx, const urma_jetty_cfg_t &cfg, urma_jetty_t *jetty);
void jetty_grp_leave(urma_jetty_grp_t *grp, urma_jetty_t *jetty);

}  // namespace urma
