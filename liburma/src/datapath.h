// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The UB/URMA stack authors
// The ring logic of the data path, apart from the syscalls around it:
// writing WR chains into an SQ or RQ, reading CQEs by their owner bit,
// building flush records. The C API (post.cpp, completion.cpp) adds the
// doorbell, rearm and flush commands; the host unit tests drive these on
// memfd-backed rings.
#pragma once

#include <cstdint>

#include "queue.h"
#include "urma_types.h"
#include "wqe.h"

namespace urma {

// Writes the chain at the SQ's pi while there is room (pi - ci < entry
// count), then publishes pi with one release store. Returns URMA_SUCCESS,
// or the first failure with *bad_wr naming that WR: URMA_ENOMEM for a full
// queue (UMDK's code), URMA_EINVAL for a WR encode_sqe refuses. The WRs
// before it stay posted (UMDK's behaviour); *posted says how many.
// The caller holds sq.lock().
urma_status_t sq_post(SendQueue &sq, const SqLimits &lim, urma_jfs_wr_t *wr, urma_jfs_wr_t **bad_wr,
                      uint32_t *posted);

// Same for an RQ.
urma_status_t rq_post(RecvQueue &rq, uint32_t max_sge, urma_jfr_wr_t *wr, urma_jfr_wr_t **bad_wr,
                      uint32_t *posted);

// Reads up to cr_cnt valid CQEs at ci into cr[] and publishes the new ci
// with a release store; returns how many. The caller holds cq.lock().
int cq_poll(CompQueue &cq, int cr_cnt, urma_cr_t *cr);

// The records of a flush: URMA_CR_WR_UNHANDLED for the SQ entries
// [first, first + cnt) with the user_ctx they were posted with.
void flush_records(SendQueue &sq, uint32_t first, uint32_t cnt, uint32_t local_id, bool jetty, urma_cr_t *cr);

}  // namespace urma
