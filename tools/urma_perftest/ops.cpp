// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The UB/URMA stack authors
#include "ops.h"

namespace perftest {

namespace {

uint8_t pattern_byte(size_t off, uint32_t conn, uint32_t size)
{
    uint32_t x = static_cast<uint32_t>(off) * 2654435761u ^ (conn + 1) * 40503u ^ size * 97u;
    return static_cast<uint8_t>(x >> 13);
}

// n SGEs of equal length covering [addr, addr + size).
// Fills out[0 .. n) with n equal parts of [addr, addr + size).
void split_into(urma_sge_t *out, uint8_t *addr, uint32_t size, uint32_t n, urma_target_seg_t *seg)
{
    uint32_t part = size / n;
    for (uint32_t k = 0; k < n; k++)
        out[k] = urma_sge_t{reinterpret_cast<uintptr_t>(addr) + static_cast<uint64_t>(k) * part, part, seg, nullptr};
}

void split(std::vector<urma_sge_t> *v, uint8_t *addr, uint32_t size, uint32_t n, urma_target_seg_t *seg)
{
    v->resize(n);
    split_into(v->data(), addr, size, n, seg);
}

}  // namespace

void fill_pattern(uint8_t *p, size_t len, uint32_t conn, uint32_t size)
{
    for (size_t k = 0; k < len; k++)
        p[k] = pattern_byte(k, conn, size);
}

bool matches_pattern(const uint8_t *p, size_t len, uint32_t conn, uint32_t size)
{
    for (size_t k = 0; k < len; k++)
        if (p[k] != pattern_byte(k, conn, size))
            return false;
    return true;
}

uint32_t pattern_conn(const Config &cfg, uint32_t i)
{
    return cfg.share_jfr && op_of(cfg.cmd) == Op::Send ? 0 : i;
}

void Conn::setup(const Config &cfg, Resources &res, uint32_t i, uint32_t size)
{
    cfg_ = &cfg;
    res_ = &res;
    i_ = i;
    size_ = size;
    op_ = op_of(cfg.cmd);
    next_rx_ = 0;
    last_signalled_ = 0;
    cas_cmp_ = 0;
    cas_swap_ = 1;
    urma_target_seg_t *rseg = res.remote_seg();
    switch (op_) {
    case Op::Write:
        split(&local_, res.tx(i), size, cfg.sge_num, res.seg());
        remote_ = urma_sge_t{res.remote_rx(i), size, rseg, nullptr};
        remote_dst_[0] = remote_;
        remote_dst_[1] = urma_sge_t{res.remote_notify(i), 8, rseg, nullptr};
        break;
    case Op::Read:
        split(&local_, res.rx(i, 0), size, cfg.sge_num, res.seg());
        remote_ = urma_sge_t{res.remote_tx(i), size, rseg, nullptr};
        break;
    case Op::Send:
        split(&local_, res.tx(i), size, cfg.sge_num, res.seg());
        break;
    case Op::Atomic:
        remote_ = urma_sge_t{res.remote_rx(i), 8, rseg, nullptr};
        atomic_local_ = urma_sge_t{reinterpret_cast<uintptr_t>(res.tx(i)), 8, res.seg(), nullptr};
        break;
    }
    wr_.assign(cfg.jfs_post_list, urma_jfs_wr_t{});
    rwr_.assign(cfg.jfr_post_list, urma_jfr_wr_t{});
    rsge_.assign(static_cast<size_t>(cfg.jfr_post_list) * cfg.sge_num, urma_sge_t{});
}

void Conn::fill(urma_jfs_wr_t *wr, bool signalled, uint64_t user_ctx)
{
    *wr = urma_jfs_wr_t{};
    wr->tjetty = res_->target(i_);
    wr->user_ctx = user_ctx;
    wr->flag.bs.complete_enable = signalled;
    const bool inl = cfg_->inline_size != 0 && size_ <= cfg_->inline_size;
    const uint32_t nsge = static_cast<uint32_t>(local_.size());
    switch (op_) {
    case Op::Write:
        wr->opcode = cfg_->enable_imm ? URMA_OPC_WRITE_IMM : URMA_OPC_WRITE;
        wr->flag.bs.inline_flag = inl;
        wr->rw.src = {local_.data(), nsge};
        wr->rw.dst = {&remote_, 1};
        wr->rw.notify_data = kImmData;
        if (cfg_->enable_notify) {
            wr->opcode = URMA_OPC_WRITE_NOTIFY;
            wr->rw.dst = {remote_dst_, 2};
            wr->rw.notify_data = notify_;
        }
        break;
    case Op::Read:
        wr->opcode = URMA_OPC_READ;
        wr->rw.src = {&remote_, 1};
        wr->rw.dst = {local_.data(), nsge};
        break;
    case Op::Send:
        wr->opcode = cfg_->enable_imm ? URMA_OPC_SEND_IMM : URMA_OPC_SEND;
        wr->flag.bs.inline_flag = inl;
        wr->send.src = {local_.data(), nsge};
        wr->send.imm_data = kImmData;
        break;
    case Op::Atomic:
        if (cfg_->atomic_type == AtomicType::Cas) {
            wr->opcode = URMA_OPC_CAS;
            wr->cas.dst = &remote_;
            wr->cas.src = &atomic_local_;
            wr->cas.cmp_data = cas_cmp_;
            wr->cas.swap_data = cas_swap_;
        } else {
            wr->opcode = URMA_OPC_FADD;
            wr->faa.dst = &remote_;
            wr->faa.src = &atomic_local_;
            wr->faa.operand = 1;
        }
        break;
    }
}

urma_status_t Conn::post_flat(const urma_jfs_wr_t &wr)
{
    urma_jfs_t *jfs = res_->jfs(i_);
    const urma_sge_t &l = local_[0];
    switch (op_) {
    case Op::Write:
        return urma_write(jfs, wr.tjetty, remote_.tseg, l.tseg, remote_.addr, l.addr, size_, wr.flag, wr.user_ctx);
    case Op::Read:
        return urma_read(jfs, wr.tjetty, l.tseg, remote_.tseg, l.addr, remote_.addr, size_, wr.flag, wr.user_ctx);
    default:
        return urma_send(jfs, wr.tjetty, l.tseg, l.addr, size_, wr.flag, wr.user_ctx);
    }
}

urma_status_t Conn::post(uint64_t first, uint32_t count, uint64_t total, uint32_t cq_mod)
{
    if (count > wr_.size())
        wr_.resize(count);
    for (uint32_t n = 0; n < count; n++) {
        uint64_t k = first + n + 1;
        bool sig = k % cq_mod == 0 || k == total;
        notify_ = k;
        fill(&wr_[n], sig, sig ? k - last_signalled_ : 0);
        if (sig)
            last_signalled_ = k;
        wr_[n].next = n + 1 < count ? &wr_[n + 1] : nullptr;
    }
    if (cfg_->flat_api) {
        for (uint32_t n = 0; n < count; n++) {
            urma_status_t st = post_flat(wr_[n]);
            if (st != URMA_SUCCESS)
                return st;
        }
        return URMA_SUCCESS;
    }
    urma_jfs_wr_t *bad = nullptr;
    return res_->post_send(i_, wr_.data(), &bad);
}

urma_status_t Conn::post_one(uint64_t cmp_or_add, uint64_t swap, uint64_t notify)
{
    cas_cmp_ = cmp_or_add;
    cas_swap_ = swap;
    notify_ = notify;
    fill(&wr_[0], true, 1);
    wr_[0].next = nullptr;
    if (op_ == Op::Atomic && cfg_->atomic_type == AtomicType::Faa)
        wr_[0].faa.operand = cmp_or_add;
    if (cfg_->flat_api)
        return post_flat(wr_[0]);
    urma_jfs_wr_t *bad = nullptr;
    return res_->post_send(i_, wr_.data(), &bad);
}

urma_status_t Conn::post_recv(uint32_t count)
{
    const uint32_t nsge = cfg_->sge_num;
    if (count > rwr_.size()) {
        rwr_.resize(count);
        rsge_.resize(static_cast<size_t>(count) * nsge);
    }
    for (uint32_t n = 0; n < count; n++) {
        uint32_t k = next_rx_++ % res_->rx_slots();
        split_into(&rsge_[static_cast<size_t>(n) * nsge], res_->rx(i_, k), size_, nsge, res_->seg());
        rwr_[n] = urma_jfr_wr_t{};
        rwr_[n].src = {&rsge_[static_cast<size_t>(n) * nsge], nsge};
        rwr_[n].user_ctx = (static_cast<uint64_t>(i_) << 32) | k;
        rwr_[n].next = n + 1 < count ? &rwr_[n + 1] : nullptr;
    }
    if (cfg_->flat_api) {
        for (uint32_t n = 0; n < count; n++) {
            const urma_sge_t &s = rwr_[n].src.sge[0];
            urma_status_t st = urma_recv(res_->jfr(i_), s.tseg, s.addr, s.len, rwr_[n].user_ctx);
            if (st != URMA_SUCCESS)
                return st;
        }
        return URMA_SUCCESS;
    }
    urma_jfr_wr_t *bad = nullptr;
    return res_->post_recv(i_, rwr_.data(), &bad);
}

}  // namespace perftest
