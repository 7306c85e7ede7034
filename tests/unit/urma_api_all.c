/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The UB/URMA stack authors */
/*
 * A plain C program's view of liburma: it calls every function that
 * urma_api.h declares (liburma_api_test checks that none is missing from
 * this file), so it links only if the library defines all of them. On a
 * host without uburma it can only give each its invalid arguments: NULL
 * objects, which every call refuses the same way (URMA_EINVAL, NULL with
 * errno EINVAL, -1 or a negative value); the calls that take no object are
 * checked for what a host without UB devices must answer.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "urma_api.h"
#include "urma_api_all.h"

static char g_fail[256];

#define EXPECT(cond)                                                                   \
    do {                                                                               \
        if (!(cond) && g_fail[0] == '\0')                                              \
            snprintf(g_fail, sizeof(g_fail), "%s:%d: %s", __FILE__, __LINE__, #cond);  \
    } while (0)
#define EINVAL_STATUS(call) EXPECT((call) == URMA_EINVAL)
#define NULL_EINVAL(call)                                                              \
    do {                                                                               \
        errno = 0;                                                                     \
        EXPECT((call) == NULL && errno == EINVAL);                                     \
    } while (0)

static void sink(int level, char *message)
{
    (void)level;
    (void)message;
}

static void loc_sink(int level, const char *file, const char *func, int line, char *message)
{
    (void)level;
    (void)file;
    (void)func;
    (void)line;
    (void)message;
}

const char *urma_api_call_all(void)
{
    int num = -1;
    uint32_t cnt = 0, uasid = 0;
    uint8_t tp_attr_cnt = 0;
    uint32_t bitmap = 0;
    uint8_t mac[URMA_MAC_BYTES];
    urma_eid_t eid = {0};
    urma_net_addr_t addr;
    urma_jfc_t *jfc = NULL;
    urma_jfs_t *jfs = NULL;
    urma_jfr_t *jfr = NULL;
    urma_jetty_t *jetty = NULL;
    urma_cr_t cr;
    uint64_t opt = 0;
    urma_jfc_t *jfcs[1] = {NULL};
    uint32_t nevents[1] = {0};

    g_fail[0] = '\0';
    memset(&addr, 0, sizeof(addr));
    /* Logging works without devices. */
    EXPECT(urma_register_log_func(sink) == URMA_SUCCESS);
    EXPECT(urma_register_loc_log_func(loc_sink) == URMA_SUCCESS);
    urma_log_set_level(URMA_VLOG_LEVEL_DEBUG);
    EXPECT(urma_log_get_level() == URMA_VLOG_LEVEL_DEBUG);
    urma_log_set_thread_tag("api-all");
    EXPECT(strcmp(urma_log_get_thread_tag(), "api-all") == 0);

    /* No UB device on this host. */
    urma_init(NULL);
    EXPECT(urma_get_uasid(NULL) == URMA_EINVAL || urma_get_uasid(&uasid) != URMA_SUCCESS || uasid != 0);
    EXPECT(urma_get_device_list(&num) == NULL && num == 0);
    urma_free_device_list(NULL);
    EXPECT(urma_get_eid_list(NULL, &cnt) == NULL);
    urma_free_eid_list(NULL);
    EXPECT(urma_get_device_by_name("udma0") == NULL);
    EXPECT(urma_get_device_by_eid(eid, URMA_TRANSPORT_UB) == NULL);
    /* UMDK: only devices of the type asked for are searched; none is ENODEV. */
    errno = 0;
    EXPECT(urma_get_device_by_eid(eid, URMA_TRANSPORT_IB) == NULL && errno == ENODEV);
    EINVAL_STATUS(urma_query_device(NULL, NULL));

    NULL_EINVAL(urma_create_context(NULL, 0));
    EINVAL_STATUS(urma_delete_context(NULL));
    EINVAL_STATUS(urma_set_context_opt(NULL, URMA_OPT_AGGR_MODE, NULL, 0));

    NULL_EINVAL(urma_create_jfc(NULL, NULL));
    EINVAL_STATUS(urma_modify_jfc(NULL, NULL));
    EINVAL_STATUS(urma_delete_jfc(NULL));
    EINVAL_STATUS(urma_alloc_jfc(NULL, NULL, &jfc));
    EINVAL_STATUS(urma_set_jfc_opt(NULL, URMA_JFC_DEPTH, &opt, 4));
    EINVAL_STATUS(urma_active_jfc(NULL));
    EINVAL_STATUS(urma_get_jfc_opt(NULL, URMA_JFC_DEPTH, &opt, 4));
    EINVAL_STATUS(urma_deactive_jfc(NULL));
    EINVAL_STATUS(urma_free_jfc(NULL));
    EINVAL_STATUS(urma_delete_jfc_batch(NULL, 1, &jfc));

    NULL_EINVAL(urma_create_jfs(NULL, NULL));
    EINVAL_STATUS(urma_modify_jfs(NULL, NULL));
    EINVAL_STATUS(urma_query_jfs(NULL, NULL, NULL));
    EINVAL_STATUS(urma_delete_jfs(NULL));
    EINVAL_STATUS(urma_delete_jfs_batch(NULL, 1, &jfs));
    EXPECT(urma_flush_jfs(NULL, 1, &cr) < 0);
    EINVAL_STATUS(urma_alloc_jfs(NULL, NULL, &jfs));
    EINVAL_STATUS(urma_set_jfs_opt(NULL, URMA_JFS_DEPTH, &opt, 4));
    EINVAL_STATUS(urma_active_jfs(NULL));
    EINVAL_STATUS(urma_get_jfs_opt(NULL, URMA_JFS_DEPTH, &opt, 4));
    EINVAL_STATUS(urma_deactive_jfs(NULL));
    EINVAL_STATUS(urma_free_jfs(NULL));

    NULL_EINVAL(urma_create_jfr(NULL, NULL));
    EINVAL_STATUS(urma_modify_jfr(NULL, NULL));
    EINVAL_STATUS(urma_query_jfr(NULL, NULL, NULL));
    EINVAL_STATUS(urma_delete_jfr(NULL));
    EINVAL_STATUS(urma_delete_jfr_batch(NULL, 1, &jfr));
    NULL_EINVAL(urma_import_jfr(NULL, NULL, NULL));
    NULL_EINVAL(urma_import_jfr_ex(NULL, NULL, NULL, NULL));
    EINVAL_STATUS(urma_unimport_jfr(NULL));
    EINVAL_STATUS(urma_advise_jfr(NULL, NULL));
    EINVAL_STATUS(urma_advise_jfr_async(NULL, NULL, NULL, NULL));
    EINVAL_STATUS(urma_unadvise_jfr(NULL, NULL));
    EINVAL_STATUS(urma_alloc_jfr(NULL, NULL, &jfr));
    EINVAL_STATUS(urma_set_jfr_opt(NULL, URMA_JFR_DEPTH, &opt, 4));
    EINVAL_STATUS(urma_active_jfr(NULL));
    EINVAL_STATUS(urma_get_jfr_opt(NULL, URMA_JFR_DEPTH, &opt, 4));
    EINVAL_STATUS(urma_deactive_jfr(NULL));
    EINVAL_STATUS(urma_free_jfr(NULL));

    NULL_EINVAL(urma_create_jetty(NULL, NULL));
    EINVAL_STATUS(urma_modify_jetty(NULL, NULL));
    EINVAL_STATUS(urma_query_jetty(NULL, NULL, NULL));
    EINVAL_STATUS(urma_delete_jetty(NULL));
    EINVAL_STATUS(urma_delete_jetty_batch(NULL, 1, &jetty));
    NULL_EINVAL(urma_import_jetty(NULL, NULL, NULL));
    NULL_EINVAL(urma_import_jetty_ex(NULL, NULL, NULL, NULL));
    EINVAL_STATUS(urma_unimport_jetty(NULL));
    EINVAL_STATUS(urma_advise_jetty(NULL, NULL));
    EINVAL_STATUS(urma_unadvise_jetty(NULL, NULL));
    EINVAL_STATUS(urma_bind_jetty(NULL, NULL));
    EINVAL_STATUS(urma_bind_jetty_ex(NULL, NULL, NULL));
    EINVAL_STATUS(urma_unbind_jetty(NULL));
    EXPECT(urma_flush_jetty(NULL, 1, &cr) < 0);
    EINVAL_STATUS(urma_get_rjetty(NULL, NULL, NULL));
    urma_put_rjetty(NULL);
    NULL_EINVAL(urma_import_jetty_async(NULL, NULL, NULL, 0, 0));
    EINVAL_STATUS(urma_unimport_jetty_async(NULL));
    EINVAL_STATUS(urma_bind_jetty_async(NULL, NULL, NULL, 0, 0));
    EINVAL_STATUS(urma_unbind_jetty_async(NULL));
    NULL_EINVAL(urma_create_notifier(NULL));
    EINVAL_STATUS(urma_delete_notifier(NULL));
    EINVAL_STATUS(urma_alloc_jetty(NULL, NULL, &jetty));
    EINVAL_STATUS(urma_set_jetty_opt(NULL, URMA_JETTY_ID, &opt, 4));
    EINVAL_STATUS(urma_active_jetty(NULL));
    EINVAL_STATUS(urma_get_jetty_opt(NULL, URMA_JETTY_ID, &opt, 4));
    EINVAL_STATUS(urma_deactive_jetty(NULL));
    EINVAL_STATUS(urma_free_jetty(NULL));
    EXPECT(urma_wait_notify(NULL, 1, NULL, 0) == -1);
    EINVAL_STATUS(urma_ack_notify(NULL, 0, NULL));

    NULL_EINVAL(urma_create_jetty_grp(NULL, NULL));
    EINVAL_STATUS(urma_delete_jetty_grp(NULL));

    NULL_EINVAL(urma_create_jfce(NULL));
    EINVAL_STATUS(urma_delete_jfce(NULL));
    EINVAL_STATUS(urma_get_async_event(NULL, NULL));
    urma_ack_async_event(NULL);

    EXPECT(urma_alloc_token_id(NULL) == NULL);
    EXPECT(urma_alloc_token_id_ex(NULL, (urma_token_id_flag_t){0}) == NULL);
    EINVAL_STATUS(urma_free_token_id(NULL));
    EXPECT(urma_register_seg(NULL, NULL) == NULL);
    EINVAL_STATUS(urma_unregister_seg(NULL));
    EXPECT(urma_import_seg(NULL, NULL, NULL, 0, (urma_import_seg_flag_t){0}) == NULL);
    EINVAL_STATUS(urma_unimport_seg(NULL));
    EINVAL_STATUS(urma_get_seg_ctx(NULL, NULL, NULL));
    urma_put_seg_ctx(NULL);

    EINVAL_STATUS(urma_post_jfs_wr(NULL, NULL, NULL));
    EINVAL_STATUS(urma_post_jfr_wr(NULL, NULL, NULL));
    EINVAL_STATUS(urma_post_jetty_send_wr(NULL, NULL, NULL));
    EINVAL_STATUS(urma_post_jetty_recv_wr(NULL, NULL, NULL));
    EINVAL_STATUS(urma_write(NULL, NULL, NULL, NULL, 0, 0, 8, (urma_jfs_wr_flag_t){0}, 0));
    EINVAL_STATUS(urma_read(NULL, NULL, NULL, NULL, 0, 0, 8, (urma_jfs_wr_flag_t){0}, 0));
    EINVAL_STATUS(urma_send(NULL, NULL, NULL, 0, 8, (urma_jfs_wr_flag_t){0}, 0));
    EINVAL_STATUS(urma_recv(NULL, NULL, 0, 8, 0));
    EXPECT(urma_poll_jfc(NULL, 1, &cr) < 0);
    EINVAL_STATUS(urma_rearm_jfc(NULL, false));
    EXPECT(urma_wait_jfc(NULL, 1, 0, jfcs) < 0);
    urma_ack_jfc(NULL, nevents, 0);

    EINVAL_STATUS(urma_user_ctl(NULL, NULL, NULL));
    EXPECT(urma_get_tpn(NULL) == -URMA_EINVAL);
    NULL_EINVAL(urma_get_net_addr_list(NULL, &cnt));
    urma_free_net_addr_list(NULL);
    EINVAL_STATUS(urma_modify_tp(NULL, 0, NULL, NULL, (urma_tp_attr_mask_t){0}));
    EINVAL_STATUS(urma_get_tp_list(NULL, NULL, &cnt, NULL));
    EINVAL_STATUS(urma_set_tp_attr(NULL, 0, 0, 0, NULL));
    EINVAL_STATUS(urma_get_tp_attr(NULL, 0, &tp_attr_cnt, &bitmap, NULL));
    EINVAL_STATUS(urma_get_eid_by_ip(NULL, &addr, &eid));
    EINVAL_STATUS(urma_get_ip_by_eid(NULL, &eid, &addr));
    EINVAL_STATUS(urma_get_smac(NULL, mac));
    EINVAL_STATUS(urma_get_dmac(NULL, &addr, mac));

    urma_uninit();
    EXPECT(urma_unregister_log_func() == URMA_SUCCESS);
    urma_log_set_level(URMA_VLOG_LEVEL_INFO);
    return g_fail[0] != '\0' ? g_fail : NULL;
}
