// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The UB/URMA stack authors
// The entry formats of udma_abi.h in URMA's terms: a send WR as an SQE, a
// receive WR as an RQE, a CQE as a completion record. Pure functions over
// memory, so the host unit tests cover every opcode without a kernel.
#pragma once

#include <cstdint>

#include <ub/udma_abi.h>

#include "urma_types.h"

namespace urma {

// What a send queue accepts, from its configuration (the kernel's answer).
struct SqLimits {
    uint32_t max_sge;     // local SGEs per WR
    uint32_t max_inline;  // inline bytes per WR
    // An RC jetty sends to the jetty it is bound to: its SQEs carry
    // target_idx 0 and wr->tjetty is not looked at (UMDK does the same).
    bool rc_jetty;
    // A bonding device's queue: a SEND_IMM's immediate data may use only
    // the bits of UBAGG_IMM_DATA_USABLE_MASK (user guide 6.2.1).
    bool bonding = false;
};

// Fills *sqe (all 256 bytes) from wr; URMA_SUCCESS or URMA_EINVAL (logged)
// for a WR the device cannot express: unknown opcode, too many SGEs, inline
// data over the limit, no target, a remote segment that is not imported,
// an atomic operand that is not 8 bytes, a WRITE_NOTIFY without exactly two
// remote SGEs (data, then an 8-byte notify word), a SEND_INVALIDATE without
// an imported segment. Memory rights and ranges are the
// target's to check (they complete with an error CQE).
urma_status_t encode_sqe(const urma_jfs_wr_t &wr, const SqLimits &lim, udma_sqe *sqe);

// Fills *rqe from wr; URMA_EINVAL for more SGEs than max_sge (or the RQE
// holds) or an SGE without a segment.
urma_status_t encode_rqe(const urma_jfr_wr_t &wr, uint32_t max_sge, udma_rqe *rqe);

// The completion record of a CQE (the owner byte is the caller's concern).
void decode_cqe(const udma_cqe &cqe, urma_cr_t *cr);

}  // namespace urma
