// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The UB/URMA stack authors
// A TP's attributes and number (user guide 5.1.2.2, UMDK's names and
// types), over the connection manager's TPs (docs/connection-manager.md,
// "TP attributes"):
//  - urma_get_tp_attr / urma_set_tp_attr on a tp_handle of
//    urma_get_tp_list: a TP here has, of UMDK's bitmap, retry_times_init,
//    at (its ACK timeout, 4.096 us << at), SIP and DIP (its EIDs, which are
//    IP addresses); the first two can be set, by the only context that
//    uses the TP (UBURMA_CMD_GET_TP_ATTR, UBURMA_CMD_SET_TP_ATTR);
//  - urma_get_tpn: the TPN of an RC jetty's TP while it is bound (the
//    connection manager makes a jetty's own TP at bind, not at create);
//  - urma_modify_tp: UMDK's user-TP set-up, where the application drives
//    the TP to its peer. Here the connection manager has done that by the
//    time a TPN exists, so the call does what is left: it checks that the
//    TP is what the request describes (mode, peer TPN, state ACTIVE) and
//    applies cfg's retry_num and ack_timeout. What it cannot honour (PSNs,
//    MTU, addresses, flags...) is refused as UMDK's core refuses the call
//    for a device whose provider has no modify_tp, udma's: URMA_EINVAL.
#include <cerrno>
#include <climits>
#include <cstring>

#include "log.h"
#include "object.h"
#include "uburma_cmd.h"
#include "urma_api.h"

namespace {

// UMDK's core clears this bit (udp_global_en) before its provider sees the
// bitmap of urma_set_tp_attr.
constexpr uint32_t kStrippedBit = 1U << 16;

// The urma_tp_attr_mask_t bits urma_modify_tp can honour.
uint32_t modifiable()
{
    urma_tp_attr_mask_t m = {};
    m.bs.peer_tpn = 1;
    m.bs.state = 1;
    return m.value;
}

int popcount(uint32_t v)
{
    return __builtin_popcount(v);
}

// A TP command's result (ret: 0 or -errno) as a status; a failure is
// logged, verb naming the call and eperm what EPERM means for it.
urma_status_t result(const urma_context_t *ctx, uint64_t tp_handle, int ret, const char *verb, const char *eperm)
{
    if (ret == 0)
        return URMA_SUCCESS;
    URMA_LOG_ERR("%s: TP %llu of %s %s\n", verb, static_cast<unsigned long long>(tp_handle), ctx->dev->name,
                 ret == -EPERM ? eperm : std::strerror(-ret));
    return urma::status_of(ret);
}

// UBURMA_CMD_GET_TP_ATTR on tp_handle; a failure is logged (verb names the
// call) and returned as a status.
urma_status_t query(const urma_context_t *ctx, uint64_t tp_handle, struct uburma_cmd_get_tp_attr *cmd,
                    const char *verb)
{
    cmd->in.tp_handle = tp_handle;
    return result(ctx, tp_handle, urma::uburma_cmd(ctx->dev_fd, UBURMA_CMD_GET_TP_ATTR, cmd), verb,
                  "is not used by this context");
}

// UBURMA_CMD_SET_TP_ATTR; a failure is logged and returned as a status.
urma_status_t store(const urma_context_t *ctx, uint64_t tp_handle, uint32_t bitmap, uint8_t retry, uint8_t at,
                    const char *verb)
{
    struct uburma_cmd_set_tp_attr cmd = {};
    cmd.in.tp_handle = tp_handle;
    cmd.in.bitmap = bitmap;
    cmd.in.retry_times_init = retry;
    cmd.in.at = at;
    return result(ctx, tp_handle, urma::uburma_cmd(ctx->dev_fd, UBURMA_CMD_SET_TP_ATTR, &cmd), verb,
                  "is used by another context too, or not by this one");
}

}  // namespace

extern "C" {

urma_status_t urma_get_tp_attr(const urma_context_t *ctx, const uint64_t tp_handle, uint8_t *tp_attr_cnt,
                               uint32_t *tp_attr_bitmap, urma_tp_attr_value_t *tp_attr)
{
    if (ctx == nullptr || tp_attr_cnt == nullptr || tp_attr_bitmap == nullptr || tp_attr == nullptr) {
        URMA_LOG_ERR("invalid argument\n");
        return URMA_EINVAL;
    }
    struct uburma_cmd_get_tp_attr cmd = {};
    urma_status_t st = query(ctx, tp_handle, &cmd, "get_tp_attr");
    if (st != URMA_SUCCESS)
        return st;
    static_assert(sizeof(tp_attr->sip) == sizeof(cmd.out.sip) && sizeof(tp_attr->dip) == sizeof(cmd.out.dip),
                  "SIP and DIP are EIDs");
    std::memset(tp_attr, 0, sizeof(*tp_attr));
    tp_attr->retry_times_init = cmd.out.retry_times_init;
    tp_attr->at = cmd.out.at;
    std::memcpy(tp_attr->sip, cmd.out.sip, sizeof(tp_attr->sip));
    std::memcpy(tp_attr->dip, cmd.out.dip, sizeof(tp_attr->dip));
    *tp_attr_bitmap = cmd.out.bitmap;
    *tp_attr_cnt = static_cast<uint8_t>(popcount(cmd.out.bitmap));
    return URMA_SUCCESS;
}

urma_status_t urma_set_tp_attr(const urma_context_t *ctx, const uint64_t tp_handle, const uint8_t tp_attr_cnt,
                               const uint32_t tp_attr_bitmap, const urma_tp_attr_value_t *tp_attr)
{
    if (ctx == nullptr || tp_attr == nullptr) {
        URMA_LOG_ERR("invalid argument\n");
        return URMA_EINVAL;
    }
    if (tp_attr_cnt != popcount(tp_attr_bitmap)) {
        URMA_LOG_ERR("set_tp_attr: tp_attr_cnt %u, but bitmap 0x%x has %d bits\n", tp_attr_cnt, tp_attr_bitmap,
                     popcount(tp_attr_bitmap));
        return URMA_EINVAL;
    }
    const uint32_t bitmap = tp_attr_bitmap & ~kStrippedBit;
    if (bitmap & ~UBURMA_TP_ATTR_SETTABLE)
        URMA_LOG_ERR("set_tp_attr: bits 0x%x cannot be set on %s (only retry_times_init and at: a TP's addresses "
                     "are its EIDs, and it has no other of these attributes)\n",
                     bitmap & ~UBURMA_TP_ATTR_SETTABLE, ctx->dev->name);
    // the kernel refuses them too (EINVAL), and every bit when one is bad
    return store(ctx, tp_handle, bitmap, tp_attr->retry_times_init, tp_attr->at, "set_tp_attr");
}

int urma_get_tpn(urma_jetty_t *jetty)
{
    if (jetty == nullptr || jetty->urma_ctx == nullptr) {
        URMA_LOG_ERR("jetty is NULL\n");
        return -URMA_EINVAL;
    }
    struct uburma_cmd_get_tpn cmd = {};
    cmd.in.handle = jetty->handle;
    int ret = urma::uburma_cmd(jetty->urma_ctx->dev_fd, UBURMA_CMD_GET_TPN, &cmd);
    if (ret == -ENOTCONN) {
        // UMDK's core says -URMA_EINVAL where the device gives no TPN.
        URMA_LOG_ERR("get_tpn: jetty %u has no TP of its own (an RC jetty has one while it is bound)\n",
                     jetty->jetty_id.id);
        return -URMA_EINVAL;
    }
    if (ret != 0) {
        URMA_LOG_ERR("get_tpn of jetty %u failed: %s\n", jetty->jetty_id.id, std::strerror(-ret));
        return -static_cast<int>(urma::status_of(ret));
    }
    if (cmd.out.tpn > INT_MAX) {
        URMA_LOG_ERR("get_tpn: TPN %u of jetty %u does not fit the return value\n", cmd.out.tpn, jetty->jetty_id.id);
        return -URMA_EINVAL;
    }
    return static_cast<int>(cmd.out.tpn);
}

int urma_modify_tp(urma_context_t *ctx, uint32_t tpn, urma_tp_cfg_t *cfg, urma_tp_attr_t *attr,
                   urma_tp_attr_mask_t mask)
{
    if (ctx == nullptr || cfg == nullptr || attr == nullptr) {
        URMA_LOG_ERR("invalid argument\n");
        return URMA_EINVAL;
    }
    struct uburma_cmd_get_tp_attr cmd = {};
    urma_status_t st = query(ctx, tpn, &cmd, "modify_tp");
    if (st != URMA_SUCCESS)
        return st;
    const char *why = nullptr;
    if (mask.value & ~modifiable())
        why = "its mask names attributes other than peer_tpn and state";
    else if (mask.bs.peer_tpn && attr->peer_tpn != cmd.out.peer_tpn)
        why = "its peer_tpn is not the TP's peer TPN";
    else if (mask.bs.state && attr->state != URMA_TP_STATE_ACTIVE)
        why = "a TP here is ACTIVE from its handshake to its teardown";
    else if (static_cast<uint32_t>(cfg->trans_mode) != cmd.out.trans_mode)
        why = "its cfg's trans_mode is not the TP's";
    else if (cfg->flag.value != 0 || cfg->retry_factor != 0 || cfg->dscp != 0 || cfg->oor_cnt != 0)
        why = "its cfg has flags, a retry_factor, a dscp or an oor_cnt (of cfg, only retry_num and ack_timeout)";
    else if (cfg->retry_num > UBURMA_TP_RETRY_TIMES_MAX || cfg->ack_timeout > UBURMA_TP_AT_MAX)
        why = "its cfg's retry_num is over 7 or its ack_timeout over 31";
    if (why != nullptr) {
        URMA_LOG_ERR("modify_tp %u (mask 0x%x) on %s: not supported, %s; the connection manager sets up the TP\n",
                     tpn, mask.value, ctx->dev->name, why);
        return URMA_EINVAL;
    }
    return store(ctx, tpn, UBURMA_TP_ATTR_RETRY_TIMES_INIT | UBURMA_TP_ATTR_AT, cfg->retry_num, cfg->ack_timeout,
                 "modify_tp");
}

}  // extern "C"
