// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The UB/URMA stack authors
// The provider table of provider_ops.h. Its entries are the library's own
// implementations of the API calls, so an application that goes through
// ctx->ops reaches the same code as one that calls urma_*; the compiler
// checks each entry's type against UMDK's member. ack_notify differs from
// the API's signature and has an adapter here; advise_jetty_async stays
// NULL: UMDK's API has no call that reaches it.
#include "provider_ops.h"

namespace urma {
namespace {

// UMDK's provider-level ack_notify has no context and nothing to release:
// a notification is the caller's memory (urma_ack_notify is UMDK's no-op).
void ack_notify(uint32_t cnt, urma_notify_t *notify)
{
    (void)cnt;
    (void)notify;
}

urma_ops_t make_ops()
{
    urma_ops_t o = {};

    o.name = "udma";
    o.create_jfc = urma_create_jfc;
    o.modify_jfc = urma_modify_jfc;
    o.delete_jfc = urma_delete_jfc;
    o.delete_jfc_batch = urma_delete_jfc_batch;
    o.alloc_jfc = urma_alloc_jfc;
    o.set_jfc_opt = urma_set_jfc_opt;
    o.active_jfc = urma_active_jfc;
    o.get_jfc_opt = urma_get_jfc_opt;
    o.deactive_jfc = urma_deactive_jfc;
    o.free_jfc = urma_free_jfc;
    o.create_jfs = urma_create_jfs;
    o.modify_jfs = urma_modify_jfs;
    o.query_jfs = urma_query_jfs;
    o.flush_jfs = urma_flush_jfs;
    o.delete_jfs = urma_delete_jfs;
    o.delete_jfs_batch = urma_delete_jfs_batch;
    o.alloc_jfs = urma_alloc_jfs;
    o.set_jfs_opt = urma_set_jfs_opt;
    o.active_jfs = urma_active_jfs;
    o.get_jfs_opt = urma_get_jfs_opt;
    o.deactive_jfs = urma_deactive_jfs;
    o.free_jfs = urma_free_jfs;
    o.create_jfr = urma_create_jfr;
    o.modify_jfr = urma_modify_jfr;
    o.query_jfr = urma_query_jfr;
    o.delete_jfr = urma_delete_jfr;
    o.delete_jfr_batch = urma_delete_jfr_batch;
    o.import_jfr = urma_import_jfr;
    o.unimport_jfr = urma_unimport_jfr;
    o.advise_jfr = urma_advise_jfr;
    o.unadvise_jfr = urma_unadvise_jfr;
    o.advise_jfr_async = urma_advise_jfr_async;
    o.alloc_jfr = urma_alloc_jfr;
    o.set_jfr_opt = urma_set_jfr_opt;
    o.active_jfr = urma_active_jfr;
    o.get_jfr_opt = urma_get_jfr_opt;
    o.deactive_jfr = urma_deactive_jfr;
    o.free_jfr = urma_free_jfr;
    o.create_jetty = urma_create_jetty;
    o.modify_jetty = urma_modify_jetty;
    o.query_jetty = urma_query_jetty;
    o.flush_jetty = urma_flush_jetty;
    o.delete_jetty = urma_delete_jetty;
    o.delete_jetty_batch = urma_delete_jetty_batch;
    o.import_jetty = urma_import_jetty;
    o.unimport_jetty = urma_unimport_jetty;
    o.advise_jetty = urma_advise_jetty;
    o.unadvise_jetty = urma_unadvise_jetty;
    o.bind_jetty = urma_bind_jetty;
    o.unbind_jetty = urma_unbind_jetty;
    o.alloc_jetty = urma_alloc_jetty;
    o.set_jetty_opt = urma_set_jetty_opt;
    o.active_jetty = urma_active_jetty;
    o.get_jetty_opt = urma_get_jetty_opt;
    o.deactive_jetty = urma_deactive_jetty;
    o.free_jetty = urma_free_jetty;
    o.create_jetty_grp = urma_create_jetty_grp;
    o.delete_jetty_grp = urma_delete_jetty_grp;
    o.create_jfce = urma_create_jfce;
    o.delete_jfce = urma_delete_jfce;
    o.get_tpn = urma_get_tpn;
    o.modify_tp = urma_modify_tp;
    o.get_tp_list = urma_get_tp_list;
    o.set_tp_attr = urma_set_tp_attr;
    o.get_tp_attr = urma_get_tp_attr;
    o.import_jetty_ex = urma_import_jetty_ex;
    o.import_jfr_ex = urma_import_jfr_ex;
    o.bind_jetty_ex = urma_bind_jetty_ex;
    o.alloc_token_id = urma_alloc_token_id;
    o.alloc_token_id_ex = urma_alloc_token_id_ex;
    o.free_token_id = urma_free_token_id;
    o.register_seg = urma_register_seg;
    o.unregister_seg = urma_unregister_seg;
    o.import_seg = urma_import_seg;
    o.unimport_seg = urma_unimport_seg;
    o.get_async_event = urma_get_async_event;
    o.ack_async_event = urma_ack_async_event;
    o.user_ctl = urma_user_ctl;  // urma_status_t is int: UMDK's int entry
    o.post_jfs_wr = urma_post_jfs_wr;
    o.post_jfr_wr = urma_post_jfr_wr;
    o.post_jetty_send_wr = urma_post_jetty_send_wr;
    o.post_jetty_recv_wr = urma_post_jetty_recv_wr;
    o.poll_jfc = urma_poll_jfc;
    o.rearm_jfc = urma_rearm_jfc;
    o.wait_jfc = urma_wait_jfc;
    o.ack_jfc = urma_ack_jfc;
    o.import_jetty_async = urma_import_jetty_async;
    o.unimport_jetty_async = urma_unimport_jetty_async;
    o.bind_jetty_async = urma_bind_jetty_async;
    o.unbind_jetty_async = urma_unbind_jetty_async;
    o.create_notifier = urma_create_notifier;
    o.delete_notifier = urma_delete_notifier;
    o.wait_notify = urma_wait_notify;
    o.ack_notify = ack_notify;
    o.get_eid_by_ip = urma_get_eid_by_ip;
    o.get_ip_by_eid = urma_get_ip_by_eid;
    o.get_smac = urma_get_smac;
    o.get_dmac = urma_get_dmac;
    return o;
}

}  // namespace

urma_ops_t *provider_ops()
{
    // Not const: urma_context_t.ops is a plain pointer (UMDK's type).
    static urma_ops_t ops = make_ops();
    return &ops;
}

}  // namespace urma
