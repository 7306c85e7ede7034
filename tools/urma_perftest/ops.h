// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The UB/URMA stack authors
// The work requests of one connection (jetty i, or JFS/JFR pair i) for one
// message size: the READ, WRITE(_IMM), SEND(_IMM), CAS or FAA of the test
// with its SGEs built once, posted in chains of -l, signalled every -Q-th
// WR; and the receive WRs, posted in chains of -r.
#pragma once

#include <cstdint>
#include <vector>

#include "config.h"
#include "resources.h"

namespace perftest {

// The immediate data of WRITE_IMM / SEND_IMM: a constant the receiver
// checks with --check. Bits 21-39 clear: a bonding device refuses a
// SEND_IMM that uses them (UBAGG_IMM_DATA_USABLE_MASK, user guide 6.2.1).
constexpr uint64_t kImmData = 0x5045520000055354ull;

class Conn {
public:
    void setup(const Config &cfg, Resources &res, uint32_t i, uint32_t size);

    // Posts count WRs, numbered first+1 .. first+count of total; WR k is
    // signalled when k % cq_mod == 0 or k == total (every WR when cq_mod
    // is 1), and its user_ctx is how many WRs its completion stands for.
    urma_status_t post(uint64_t first, uint32_t count, uint64_t total, uint32_t cq_mod);
    // One signalled WR (latency tests) with the given atomic operands; a
    // WRITE_NOTIFY (--enable_notify) stores notify at the peer.
    urma_status_t post_one(uint64_t cmp_or_add, uint64_t swap, uint64_t notify = 0);
    // Posts count receives into the next receive slots.
    urma_status_t post_recv(uint32_t count);

    uint32_t index() const { return i_; }

private:
    void fill(urma_jfs_wr_t *wr, bool signalled, uint64_t user_ctx);
    urma_status_t post_flat(const urma_jfs_wr_t &wr);

    const Config *cfg_ = nullptr;
    Resources *res_ = nullptr;
    uint32_t i_ = 0, size_ = 0;
    Op op_ = Op::Write;
    std::vector<urma_sge_t> local_;
    urma_sge_t remote_ = {};
    urma_sge_t remote_dst_[2] = {};  // --enable_notify: the data, the notify word
    uint64_t notify_ = 0;            // the notify data of the next WR filled
    urma_sge_t atomic_local_ = {};
    std::vector<urma_jfs_wr_t> wr_;
    std::vector<urma_sge_t> rsge_;   // sge_num per receive WR of a chain
    std::vector<urma_jfr_wr_t> rwr_;
    uint32_t next_rx_ = 0;
    uint64_t last_signalled_ = 0;
    uint64_t cas_cmp_ = 0, cas_swap_ = 0;
};

// The bytes jetty i sends or offers for reading at a size: the same on
// both sides, so that --check can tell what must arrive.
void fill_pattern(uint8_t *p, size_t len, uint32_t conn, uint32_t size);
bool matches_pattern(const uint8_t *p, size_t len, uint32_t conn, uint32_t size);
// The pattern index of connection i: 0 for all when sends land in one
// shared JFR (-j true), where a receive does not tell which jetty sent it.
uint32_t pattern_conn(const Config &cfg, uint32_t i);

}  // namespace perftest
