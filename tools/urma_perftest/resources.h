// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The UB/URMA stack authors
// The URMA objects of one side of a run, each owned by a handle that
// deletes it, declared in creation order so that they go in reverse: the
// context, JFCE, the send and receive JFCs, JFRs, jetties (or JFSs with
// -b), one registered buffer, and then what is imported from the peer
// (its segment and its jetties or JFRs) and the RC bindings.
//
// Buffer layout, slot = the largest message rounded up to 64 bytes, J
// jetties: tx(i) = base + i * slot (what jetty i sends, writes or reads
// into), rx(i, k) = base + (J + k * J + i) * slot (where writes, atomics
// and the k-th receive of jetty i land); rx(i, 0) does not depend on how
// many receive slots a side has, so the peer can compute it. With
// --enable_notify the slot has 8 more bytes, the notify word at its end.
#pragma once

#include <sys/mman.h>

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "config.h"
#include "urma_api.h"
#include "wire.h"

namespace perftest {

template <auto Del> struct Deleter {
    template <typename T> void operator()(T *p) const { Del(p); }
};

using ContextPtr = std::unique_ptr<urma_context_t, Deleter<urma_delete_context>>;
using JfcePtr = std::unique_ptr<urma_jfce_t, Deleter<urma_delete_jfce>>;
using JfcPtr = std::unique_ptr<urma_jfc_t, Deleter<urma_delete_jfc>>;
using JfsPtr = std::unique_ptr<urma_jfs_t, Deleter<urma_delete_jfs>>;
using JfrPtr = std::unique_ptr<urma_jfr_t, Deleter<urma_delete_jfr>>;
using JettyPtr = std::unique_ptr<urma_jetty_t, Deleter<urma_delete_jetty>>;
using SegPtr = std::unique_ptr<urma_target_seg_t, Deleter<urma_unregister_seg>>;
using ImportSegPtr = std::unique_ptr<urma_target_seg_t, Deleter<urma_unimport_seg>>;
using TjfrPtr = std::unique_ptr<urma_target_jetty_t, Deleter<urma_unimport_jfr>>;
using TjettyPtr = std::unique_ptr<urma_target_jetty_t, Deleter<urma_unimport_jetty>>;
using BindingPtr = std::unique_ptr<urma_jetty_t, Deleter<urma_unbind_jetty>>;

// urma_init() and urma_uninit().
class UrmaLib {
public:
    UrmaLib() = default;
    UrmaLib(const UrmaLib &) = delete;
    UrmaLib &operator=(const UrmaLib &) = delete;
    ~UrmaLib();
    bool init(std::string *err);

private:
    bool inited_ = false;
};

// Anonymous memory, unmapped when it goes.
class Mapping {
public:
    Mapping() = default;
    Mapping(const Mapping &) = delete;
    Mapping &operator=(const Mapping &) = delete;
    ~Mapping();
    bool map(size_t len, std::string *err);
    uint8_t *data() const { return static_cast<uint8_t *>(p_); }
    size_t size() const { return len_; }

private:
    void *p_ = nullptr;
    size_t len_ = 0;
};

class Resources {
public:
    // Creates everything local; false with *err naming the step and cause.
    bool create(const Config &cfg, std::string *err);
    // What the peer needs to reach this side.
    Endpoint endpoint() const;
    // Imports the peer's segment and jetties (JFRs), binds RC jetties.
    bool connect(const Endpoint &peer, std::string *err);

    uint32_t jettys() const { return cfg_.jettys; }
    uint32_t slot() const { return slot_; }
    uint32_t rx_slots() const { return rx_slots_; }
    uint8_t *tx(uint32_t i) const { return buf_.data() + static_cast<size_t>(i) * slot_; }
    uint8_t *rx(uint32_t i, uint32_t k) const
    {
        return buf_.data() + (static_cast<size_t>(cfg_.jettys) * (1 + k) + i) * slot_;
    }
    uint64_t remote_tx(uint32_t i) const { return peer_va_ + static_cast<uint64_t>(i) * slot_; }
    uint64_t remote_rx(uint32_t i) const { return peer_va_ + static_cast<uint64_t>(cfg_.jettys + i) * slot_; }
    // --enable_notify: the last 8 bytes of rx(i, 0), here and at the peer.
    volatile uint64_t *notify(uint32_t i) const
    {
        return reinterpret_cast<volatile uint64_t *>(rx(i, 0) + slot_ - 8);
    }
    uint64_t remote_notify(uint32_t i) const { return remote_rx(i) + slot_ - 8; }

    urma_target_seg_t *seg() const { return seg_.get(); }
    urma_target_seg_t *remote_seg() const { return rseg_.get(); }
    urma_target_jetty_t *target(uint32_t i) const;
    urma_jfc_t *send_jfc() const { return scq_.get(); }
    urma_jfc_t *recv_jfc() const { return rcq_.get(); }

    // Posting on connection i: a jetty, or a JFS and JFR with -b.
    urma_status_t post_send(uint32_t i, urma_jfs_wr_t *wr, urma_jfs_wr_t **bad);
    urma_status_t post_recv(uint32_t i, urma_jfr_wr_t *wr, urma_jfr_wr_t **bad);
    urma_jfs_t *jfs(uint32_t i) const { return jfs_[i].get(); }
    urma_jfr_t *jfr(uint32_t i) const { return jfr_[cfg_.share_jfr ? 0 : i].get(); }
    // Which connection a send-side completion record belongs to.
    uint32_t conn_of_send(const urma_cr_t &cr) const;

    // Up to max completion records of jfc; busy polls, or with -e waits for
    // an event (rearm, wait, ack) when the JFC is empty. 0 when nothing
    // came, -1 with *err on a failure.
    int poll(urma_jfc_t *jfc, urma_cr_t *cr, int max, std::string *err);

private:
    // The index of the device's EID eid (--sip), in *idx; false when it has none.
    static bool eid_index_of(urma_device_t *dev, const std::array<uint8_t, 16> &eid, uint32_t *idx);
    bool make_queues(std::string *err);
    bool make_buffer(std::string *err);
    urma_jfs_cfg_t jfs_cfg() const;

    Config cfg_;
    uint32_t slot_ = 0, rx_slots_ = 1;
    uint32_t token_ = 0, jfr_token_ = 0;
    uint64_t peer_va_ = 0;
    // Declaration order is creation order: members are destroyed in reverse.
    UrmaLib lib_;
    Mapping buf_;
    ContextPtr ctx_;
    JfcePtr jfce_;
    JfcPtr scq_, rcq_;
    std::vector<JfrPtr> jfr_;
    std::vector<JfsPtr> jfs_;
    std::vector<JettyPtr> jetty_;
    SegPtr seg_;
    ImportSegPtr rseg_;
    std::vector<TjfrPtr> tjfr_;
    std::vector<TjettyPtr> tjetty_;
    std::vector<BindingPtr> bound_;
};

const char *cr_status_name(int status);

}  // namespace perftest
