// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The UB/URMA stack authors
// Argument structs of raw UBURMA_CMD creates (include/uapi/ub/uburma_ioctl.h,
// udma_abi.h) for the tests that speak the ABI without liburma: the
// fuzzers and fault-injection driver (tests/fuzz) and uburma_copyout_itest.
// RM queues with one SGE each way; a JFR with a plain-text token.
#pragma once

#include <cstdint>

#include <ub/udma_abi.h>
#include <ub/uburma_ioctl.h>

namespace ub_test {

// The provider's response of the command c goes to *resp.
template <typename C, typename R> void set_resp(C &c, R *resp)
{
    c.in.udata.out_addr = reinterpret_cast<uintptr_t>(resp);
    c.in.udata.out_len = sizeof(*resp);
}

// CREATE_JFC: depth entries, events to jfce_fd (-1: none).
inline uburma_cmd_create_jfc raw_jfc_args(udma_create_jfc_resp *resp, uint32_t depth = 16, int jfce_fd = -1)
{
    uburma_cmd_create_jfc c = {};
    c.in.depth = depth;
    c.in.jfce_fd = jfce_fd;
    set_resp(c, resp);
    return c;
}

inline uburma_jfs_cfg raw_jfs_cfg(uint32_t depth = 16)
{
    uburma_jfs_cfg c = {};
    c.depth = depth;
    c.trans_mode = 1;  // RM
    c.max_sge = 1;
    c.max_rsge = 1;
    return c;
}

// CREATE_JFS completing on jfc.
inline uburma_cmd_create_jfs raw_jfs_args(uint64_t jfc, udma_create_jfs_resp *resp, const uburma_jfs_cfg &cfg)
{
    uburma_cmd_create_jfs c = {};
    c.in.cfg = cfg;
    c.in.jfc_handle = jfc;
    set_resp(c, resp);
    return c;
}

// CREATE_JFR completing on jfc, with the plain-text token.
inline uburma_cmd_create_jfr raw_jfr_args(uint64_t jfc, udma_create_jfr_resp *resp, uint32_t depth = 16,
                                          uint32_t token = 0xabcd)
{
    uburma_cmd_create_jfr c = {};
    c.in.cfg.depth = depth;
    c.in.cfg.flag = 1;  // plain-text token
    c.in.cfg.trans_mode = 1;
    c.in.cfg.max_sge = 1;
    c.in.cfg.token_value = token;
    c.in.jfc_handle = jfc;
    set_resp(c, resp);
    return c;
}

// CREATE_JETTY sending on jfc and sharing jfr.
inline uburma_cmd_create_jetty raw_jetty_args(uint64_t jfc, uint64_t jfr, udma_create_jfs_resp *resp,
                                              const uburma_jfs_cfg &cfg)
{
    uburma_cmd_create_jetty c = {};
    c.in.flag = 1;  // share_jfr
    c.in.jfs_cfg = cfg;
    c.in.send_jfc_handle = jfc;
    c.in.jfr_handle = jfr;
    set_resp(c, resp);
    return c;
}

}  // namespace ub_test
