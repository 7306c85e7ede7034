// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The UB/URMA stack authors
#include "wqe.h"

#include <ub/ubagg_topo.h>
#include <ub/ubcore_opcode.h>

#include <cstring>

#include "log.h"
#include "target.h"

namespace urma {
namespace {

// urma_opcode.h keeps UMDK's values; the kernel defines them once, in
// include/uapi/ub/ubcore_opcode.h: what the SQE and CQE carry must agree.
constexpr bool same(int urma, int ubcore) { return urma == ubcore; }
static_assert(same(URMA_OPC_WRITE, UBCORE_OPC_WRITE) && same(URMA_OPC_WRITE_IMM, UBCORE_OPC_WRITE_IMM) &&
              same(URMA_OPC_WRITE_NOTIFY, UBCORE_OPC_WRITE_NOTIFY) && same(URMA_OPC_READ, UBCORE_OPC_READ) &&
              same(URMA_OPC_CAS, UBCORE_OPC_CAS) && same(URMA_OPC_SWAP, UBCORE_OPC_SWAP) &&
              same(URMA_OPC_FADD, UBCORE_OPC_FADD) && same(URMA_OPC_FSUB, UBCORE_OPC_FSUB) &&
              same(URMA_OPC_FAND, UBCORE_OPC_FAND) && same(URMA_OPC_FOR, UBCORE_OPC_FOR) &&
              same(URMA_OPC_FXOR, UBCORE_OPC_FXOR) && same(URMA_OPC_SEND, UBCORE_OPC_SEND) &&
              same(URMA_OPC_SEND_IMM, UBCORE_OPC_SEND_IMM) &&
              same(URMA_OPC_SEND_INVALIDATE, UBCORE_OPC_SEND_INVALIDATE) && same(URMA_OPC_NOP, UBCORE_OPC_NOP) &&
              same(URMA_OPC_WRITE_ATOMIC, UBCORE_OPC_WRITE_ATOMIC) && same(URMA_OPC_FLUSH_DMA, UBCORE_OPC_FLUSH_DMA),
              "urma_opcode_t differs from the kernel's");
static_assert(same(URMA_CR_SUCCESS, UBCORE_CR_SUCCESS) &&
                  same(URMA_CR_UNSUPPORTED_OPCODE_ERR, UBCORE_CR_UNSUPPORTED_OPCODE_ERR) &&
                  same(URMA_CR_LOC_LEN_ERR, UBCORE_CR_LOC_LEN_ERR) &&
                  same(URMA_CR_LOC_OPERATION_ERR, UBCORE_CR_LOC_OPERATION_ERR) &&
                  same(URMA_CR_LOC_ACCESS_ERR, UBCORE_CR_LOC_ACCESS_ERR) &&
                  same(URMA_CR_REM_RESP_LEN_ERR, UBCORE_CR_REM_RESP_LEN_ERR) &&
                  same(URMA_CR_REM_UNSUPPORTED_REQ_ERR, UBCORE_CR_REM_UNSUPPORTED_REQ_ERR) &&
                  same(URMA_CR_REM_OPERATION_ERR, UBCORE_CR_REM_OPERATION_ERR) &&
                  same(URMA_CR_REM_ACCESS_ABORT_ERR, UBCORE_CR_REM_ACCESS_ABORT_ERR) &&
                  same(URMA_CR_ACK_TIMEOUT_ERR, UBCORE_CR_ACK_TIMEOUT_ERR) &&
                  same(URMA_CR_RNR_RETRY_CNT_EXC_ERR, UBCORE_CR_RNR_RETRY_CNT_EXC_ERR) &&
                  same(URMA_CR_WR_FLUSH_ERR, UBCORE_CR_WR_FLUSH_ERR) &&
                  same(URMA_CR_WR_SUSPEND_DONE, UBCORE_CR_WR_SUSPEND_DONE) &&
                  same(URMA_CR_WR_FLUSH_ERR_DONE, UBCORE_CR_WR_FLUSH_ERR_DONE) &&
                  same(URMA_CR_WR_UNHANDLED, UBCORE_CR_WR_UNHANDLED) &&
                  same(URMA_CR_LOC_DATA_POISON, UBCORE_CR_LOC_DATA_POISON) &&
                  same(URMA_CR_REM_DATA_POISON, UBCORE_CR_REM_DATA_POISON),
              "urma_cr_status_t differs from the kernel's");
static_assert(same(URMA_CR_OPC_SEND, UBCORE_CR_OPC_SEND) &&
                  same(URMA_CR_OPC_SEND_WITH_IMM, UBCORE_CR_OPC_SEND_WITH_IMM) &&
                  same(URMA_CR_OPC_SEND_WITH_INV, UBCORE_CR_OPC_SEND_WITH_INV) &&
                  same(URMA_CR_OPC_WRITE_WITH_IMM, UBCORE_CR_OPC_WRITE_WITH_IMM),
              "urma_cr_opcode_t differs from the kernel's");

uint8_t sqe_flags(urma_jfs_wr_flag_t f)
{
    uint8_t flags = 0;
    if (f.bs.complete_enable)
        flags |= UDMA_SQE_F_COMPLETE;
    if (f.bs.solicited_enable)
        flags |= UDMA_SQE_F_SOLICITED;
    if (f.bs.fence)
        flags |= UDMA_SQE_F_FENCE;
    return flags;
}

// A local SGE names memory of a segment registered in this context by its
// token ID (udma_abi.h); the kernel checks the range lies inside it.
bool local_sge(const urma_sge_t &in, udma_sge *out)
{
    if (in.tseg == nullptr) {
        URMA_LOG_ERR("local sge 0x%llx has no segment\n", static_cast<unsigned long long>(in.addr));
        return false;
    }
    out->va = in.addr;
    out->len = in.len;
    out->token_id = in.tseg->seg.token_id;
    return true;
}

// The local SGEs of a WR into the SQE, or their bytes into its inline data.
bool local_sgl(const urma_sg_t &sg, bool inline_data, const SqLimits &lim, udma_sqe *sqe)
{
    if (sg.num_sge != 0 && sg.sge == nullptr) {
        URMA_LOG_ERR("%u sges but no array\n", sg.num_sge);
        return false;
    }
    if (inline_data) {
        uint64_t total = 0;
        for (uint32_t i = 0; i < sg.num_sge; i++)
            total += sg.sge[i].len;
        uint32_t max = lim.max_inline < UDMA_SQE_MAX_INLINE ? lim.max_inline : UDMA_SQE_MAX_INLINE;
        if (total > max) {
            URMA_LOG_ERR("inline size %llu is over max size %u\n", static_cast<unsigned long long>(total), max);
            return false;
        }
        uint32_t off = 0;
        for (uint32_t i = 0; i < sg.num_sge; i++) {
            if (sg.sge[i].len != 0)
                std::memcpy(sqe->inline_data + off, reinterpret_cast<const void *>(sg.sge[i].addr),
                            sg.sge[i].len);
            off += sg.sge[i].len;
        }
        sqe->flags |= UDMA_SQE_F_INLINE;
        sqe->inline_len = static_cast<uint16_t>(total);
        return true;
    }
    if (sg.num_sge > lim.max_sge || sg.num_sge > UDMA_SQE_MAX_SGE) {
        URMA_LOG_ERR("%u sges, max %u\n", sg.num_sge, lim.max_sge);
        return false;
    }
    for (uint32_t i = 0; i < sg.num_sge; i++)
        if (!local_sge(sg.sge[i], &sqe->sge[i]))
            return false;
    sqe->num_sge = static_cast<uint8_t>(sg.num_sge);
    return true;
}

// The remote range of a memory operation: one SGE of an imported segment.
bool remote_sge(const urma_sge_t *sge, udma_sqe *sqe)
{
    if (sge == nullptr) {
        URMA_LOG_ERR("no remote sge\n");
        return false;
    }
    uint32_t idx = rseg_idx_of(sge->tseg);
    if (idx == 0) {
        // user_tseg (a segment described without an import) has no index
        // the kernel knows, so only imported segments are remote operands.
        URMA_LOG_ERR("remote sge 0x%llx is not in an imported segment\n",
                     static_cast<unsigned long long>(sge->addr));
        return false;
    }
    sqe->rseg_idx = idx;
    sqe->remote_va = sge->addr;
    sqe->remote_len = sge->len;
    return true;
}

bool remote_sgl(const urma_sg_t &sg, udma_sqe *sqe)
{
    if (sg.num_sge != 1) {
        URMA_LOG_ERR("remote side has %u sges, must be 1\n", sg.num_sge);
        return false;
    }
    return remote_sge(sg.sge, sqe);
}

// WRITE_NOTIFY's and WRITE_ATOMIC's remote side: the data range, then the
// 8-byte notify word (the word WRITE_ATOMIC adds to), which may lie in
// another imported segment of the same target.
bool notify_sgl(const urma_sg_t &sg, udma_sqe *sqe)
{
    if (sg.num_sge != 2 || sg.sge == nullptr) {
        URMA_LOG_ERR("write_notify/write_atomic has %u remote sges, must be 2 (data, notify)\n", sg.num_sge);
        return false;
    }
    const urma_sge_t &notify = sg.sge[1];
    uint32_t idx = rseg_idx_of(notify.tseg);
    if (idx == 0 || notify.len != sizeof(uint64_t)) {
        URMA_LOG_ERR("notify sge 0x%llx len %u: must be 8 bytes of an imported segment\n",
                     static_cast<unsigned long long>(notify.addr), notify.len);
        return false;
    }
    sqe->notify_rseg_idx = idx;
    sqe->notify_va = notify.addr;
    return remote_sge(&sg.sge[0], sqe);
}

// Atomics move one 8-byte word: the remote word, and one local SGE that
// receives its old value.
bool atomic_operands(const urma_sge_t *dst, const urma_sge_t *src, udma_sqe *sqe)
{
    if (dst == nullptr || src == nullptr || dst->len != sizeof(uint64_t) || src->len != sizeof(uint64_t)) {
        URMA_LOG_ERR("atomic operands must be one 8-byte remote and local sge\n");
        return false;
    }
    if (!remote_sge(dst, sqe) || !local_sge(*src, &sqe->sge[0]))
        return false;
    sqe->num_sge = 1;
    return true;
}

// A SEND_IMM's immediate data fits, unless the device is a bonding one
// and it uses the bonding layer's bits.
bool imm_data_fits(uint64_t imm, const SqLimits &lim)
{
    if (lim.bonding && (imm & ~UBAGG_IMM_DATA_USABLE_MASK) != 0) {
        URMA_LOG_ERR("send_imm on a bonding device: immediate data 0x%llx uses bits 21-39 (mask 0x%llx)\n",
                     static_cast<unsigned long long>(imm), UBAGG_IMM_DATA_USABLE_MASK);
        return false;
    }
    return true;
}

bool is_send(urma_opcode_t op)
{
    return op == URMA_OPC_SEND || op == URMA_OPC_SEND_IMM || op == URMA_OPC_SEND_INVALIDATE;
}

}  // namespace

urma_status_t encode_sqe(const urma_jfs_wr_t &wr, const SqLimits &lim, udma_sqe *sqe)
{
    std::memset(sqe, 0, sizeof(*sqe));
    sqe->opcode = static_cast<uint8_t>(wr.opcode);
    sqe->flags = sqe_flags(wr.flag);
    sqe->user_ctx = wr.user_ctx;
    const bool inline_data = wr.flag.bs.inline_flag != 0;
    bool ok;

    switch (wr.opcode) {
    case URMA_OPC_WRITE:
    case URMA_OPC_WRITE_IMM:
        ok = local_sgl(wr.rw.src, inline_data, lim, sqe) && remote_sgl(wr.rw.dst, sqe);
        sqe->data = wr.rw.notify_data;
        break;
    case URMA_OPC_WRITE_NOTIFY:
    case URMA_OPC_WRITE_ATOMIC:
        // WRITE_ATOMIC: the target adds notify_data to the notify word
        // after the data (UMDK's write with atomic add).
        ok = local_sgl(wr.rw.src, inline_data, lim, sqe) && notify_sgl(wr.rw.dst, sqe);
        sqe->data = wr.rw.notify_data;
        break;
    case URMA_OPC_FLUSH_DMA:
        // One remote range and no local memory: the target makes the
        // earlier writes to it visible before it answers.
        if (wr.rw.src.num_sge != 0 || inline_data) {
            URMA_LOG_ERR("flush_dma has %u local sges%s, must have none\n", wr.rw.src.num_sge,
                         inline_data ? " and inline" : "");
            ok = false;
            break;
        }
        ok = remote_sgl(wr.rw.dst, sqe);
        break;
    case URMA_OPC_READ:
        // The data comes back into local buffers: inline has no meaning.
        ok = local_sgl(wr.rw.dst, false, lim, sqe) && remote_sgl(wr.rw.src, sqe);
        break;
    case URMA_OPC_SEND:
    case URMA_OPC_SEND_IMM:
    case URMA_OPC_SEND_INVALIDATE:
        ok = local_sgl(wr.send.src, inline_data, lim, sqe);
        if (wr.opcode == URMA_OPC_SEND_IMM) {
            sqe->data = wr.send.imm_data;
            ok = ok && imm_data_fits(wr.send.imm_data, lim);
        }
        if (ok && wr.opcode == URMA_OPC_SEND_INVALIDATE) {
            // The segment to invalidate is the target's: one we imported.
            sqe->rseg_idx = rseg_idx_of(wr.send.tseg);
            if (sqe->rseg_idx == 0) {
                URMA_LOG_ERR("send_invalidate needs an imported segment\n");
                ok = false;
            }
        }
        break;
    case URMA_OPC_CAS:
    case URMA_OPC_SWAP:
        ok = atomic_operands(wr.cas.dst, wr.cas.src, sqe);
        sqe->data = wr.cas.swap_data;
        sqe->cmp_data = wr.opcode == URMA_OPC_CAS ? wr.cas.cmp_data : 0;
        break;
    case URMA_OPC_FADD:
    case URMA_OPC_FSUB:
    case URMA_OPC_FAND:
    case URMA_OPC_FOR:
    case URMA_OPC_FXOR:
        ok = atomic_operands(wr.faa.dst, wr.faa.src, sqe);
        sqe->data = wr.faa.operand;
        break;
    case URMA_OPC_NOP:
        return URMA_SUCCESS;  // no target, no memory
    default:
        URMA_LOG_ERR("opcode 0x%x not supported\n", static_cast<unsigned>(wr.opcode));
        return URMA_EINVAL;
    }
    if (!ok)
        return URMA_EINVAL;
    if (!lim.rc_jetty && wr.tjetty != nullptr && wr.tjetty->type == URMA_JETTY_GROUP &&
        (is_send(wr.opcode) ? wr.send.target_hint : wr.rw.target_hint) != 0) {
        // The target picks a member by its group's policy; with
        // HASH_HINT it takes hint 0 (the first member).
        URMA_LOG_ERR("target_hint %u: udma's SQE carries no target hint yet, only 0\n",
                     is_send(wr.opcode) ? wr.send.target_hint : wr.rw.target_hint);
        return URMA_ENOPERM;
    }
    if (lim.rc_jetty) {
        sqe->target_idx = 0;  // the bound jetty
    } else {
        sqe->target_idx = target_idx_of(wr.tjetty);
        if (sqe->target_idx == 0) {
            URMA_LOG_ERR("%s without a target jetty\n", is_send(wr.opcode) ? "send" : "wr");
            return URMA_EINVAL;
        }
    }
    return URMA_SUCCESS;
}

urma_status_t encode_rqe(const urma_jfr_wr_t &wr, uint32_t max_sge, udma_rqe *rqe)
{
    std::memset(rqe, 0, sizeof(*rqe));
    if (wr.src.num_sge > max_sge || wr.src.num_sge > UDMA_RQE_MAX_SGE ||
        (wr.src.num_sge != 0 && wr.src.sge == nullptr)) {
        URMA_LOG_ERR("receive wr has %u sges, max %u\n", wr.src.num_sge, max_sge);
        return URMA_EINVAL;
    }
    rqe->user_ctx = wr.user_ctx;
    for (uint32_t i = 0; i < wr.src.num_sge; i++) {
        udma_sge s = {};
        if (!local_sge(wr.src.sge[i], &s))
            return URMA_EINVAL;
        rqe->sge[i] = s;
    }
    rqe->num_sge = static_cast<uint8_t>(wr.src.num_sge);
    return URMA_SUCCESS;
}

void decode_cqe(const udma_cqe &cqe, urma_cr_t *cr)
{
    std::memset(cr, 0, sizeof(*cr));
    cr->status = static_cast<urma_cr_status_t>(cqe.status);
    cr->user_ctx = cqe.user_ctx;
    cr->completion_len = cqe.completion_len;
    cr->local_id = cqe.local_id;
    cr->tpn = cqe.tpn;
    if (cqe.flags & UDMA_CQE_F_RECV) {
        cr->flag.bs.s_r = 1;
        cr->opcode = static_cast<urma_cr_opcode_t>(cqe.opcode);
        std::memcpy(cr->remote_id.eid.raw, cqe.remote_eid, sizeof(cqe.remote_eid));
        cr->remote_id.uasid = cqe.remote_uasid;
        cr->remote_id.id = cqe.remote_id;
    }
    if (cqe.flags & UDMA_CQE_F_IMM) {
        cr->imm_data = cqe.imm_data;
    } else if (cqe.flags & UDMA_CQE_F_INV) {
        cr->invalid_token.token_id = static_cast<uint32_t>(cqe.imm_data);
        cr->invalid_token.token_value.token = static_cast<uint32_t>(cqe.imm_data >> 32);
    }
}

}  // namespace urma
