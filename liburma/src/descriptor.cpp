// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The UB/URMA stack authors
// Descriptions of local objects for a peer (UMDK's urma_get_rjetty and
// urma_get_seg_ctx): what the peer passes to urma_import_jetty and
// urma_import_seg, in a heap copy the caller sends out of band and frees
// with urma_put_rjetty / urma_put_seg_ctx.
#include <cstdlib>

#include "log.h"
#include "object.h"
#include "queue.h"
#include "urma_api.h"

extern "C" {

urma_status_t urma_get_rjetty(urma_jetty_t *jetty, urma_rjetty_t **rjetty, uint32_t *length)
{
    if (jetty == nullptr || rjetty == nullptr || length == nullptr) {
        URMA_LOG_ERR("invalid argument: jetty %p rjetty %p length %p\n", static_cast<void *>(jetty),
                     static_cast<void *>(rjetty), static_cast<void *>(length));
        return URMA_EINVAL;
    }
    if (!jetty->urma_jetty_opt.is_actived || jetty->urma_ctx == nullptr) {
        URMA_LOG_ERR("jetty is not active: it has no ID to describe\n");
        return URMA_EINVAL;
    }
    // The JFR whose token policy a sender must follow: the shared one, or
    // the one the library made for the jetty.
    const urma_jfr_t *jfr = jetty->jetty_cfg.flag.bs.share_jfr == URMA_SHARE_JFR
                                ? jetty->jetty_cfg.shared.jfr
                                : urma::from_pub<urma::JettyImpl>(jetty)->own_jfr;
    if (jfr == nullptr) {
        URMA_LOG_ERR("jetty %u has no jfr\n", jetty->jetty_id.id);
        return URMA_EINVAL;
    }
    auto *r = static_cast<urma_rjetty_t *>(std::calloc(1, sizeof(urma_rjetty_t)));
    if (r == nullptr)
        return URMA_ENOMEM;
    r->jetty_id = jetty->jetty_id;
    r->trans_mode = jetty->jetty_cfg.jfs_cfg.trans_mode;
    r->policy = URMA_JETTY_GRP_POLICY_RR;
    r->type = URMA_JETTY;
    r->flag.bs.order_type = jetty->jetty_cfg.jfs_cfg.flag.bs.order_type;
    r->flag.bs.token_policy = jfr->jfr_cfg.flag.bs.token_policy;
    r->tp_type = URMA_RTP;
    *rjetty = r;
    *length = sizeof(*r);  // no user info follows
    return URMA_SUCCESS;
}

void urma_put_rjetty(urma_rjetty_t *rjetty)
{
    std::free(rjetty);
}

urma_status_t urma_get_seg_ctx(urma_target_seg_t *tseg, urma_seg_t **seg, uint32_t *size)
{
    if (tseg == nullptr || seg == nullptr || size == nullptr) {
        URMA_LOG_ERR("invalid argument: tseg %p seg %p size %p\n", static_cast<void *>(tseg),
                     static_cast<void *>(seg), static_cast<void *>(size));
        return URMA_EINVAL;
    }
    if (tseg->urma_ctx == nullptr) {
        URMA_LOG_ERR("segment has no context\n");
        return URMA_EINVAL;
    }
    auto *s = static_cast<urma_seg_t *>(std::calloc(1, sizeof(urma_seg_t)));
    if (s == nullptr)
        return URMA_ENOMEM;
    s->ubva = tseg->seg.ubva;
    s->len = tseg->seg.len;
    s->attr = tseg->seg.attr;
    s->attr.bs.has_user_info = 0;
    s->token_id = tseg->seg.token_id;
    *seg = s;
    *size = sizeof(*s);
    return URMA_SUCCESS;
}

void urma_put_seg_ctx(urma_seg_t *seg)
{
    std::free(seg);
}

}  // extern "C"
