/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The UB/URMA stack authors */
/* URMA public API: function prototypes of liburma. */

#ifndef URMA_API_H
#define URMA_API_H

#include <stdbool.h>
#include <stdint.h>

#include "urma_types.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Conventions: functions returning urma_status_t give URMA_SUCCESS (0) on
 * success and a non-zero URMA_E* / errno-style code on failure. Functions
 * returning a pointer give NULL on failure.
 */

/* ========================================================================= */
/* Library lifetime                                                          */
/* ========================================================================= */

/* Initialise the library (conf may be NULL for a random uasid); returns a status. */
urma_status_t urma_init(urma_init_attr_t *conf);

/* Tear down the library and release the uasid; returns a status. */
urma_status_t urma_uninit(void);

/* ========================================================================= */
/* Devices                                                                   */
/* ========================================================================= */

/* List devices, count in *num_devices; returns an array to free with urma_free_device_list(), or NULL if none. */
urma_device_t **urma_get_device_list(int *num_devices);

/* Free an array returned by urma_get_device_list(); returns nothing. */
void urma_free_device_list(urma_device_t **device_list);

/* Get the EIDs of a device and their count in *cnt; returns a heap array (free with urma_free_eid_list) or NULL. */
urma_eid_info_t *urma_get_eid_list(urma_device_t *dev, uint32_t *cnt);

/* Free an array returned by urma_get_eid_list(); returns nothing. */
void urma_free_eid_list(urma_eid_info_t *eid_list);

/* Look a device up by name; returns the device or NULL if not found. */
urma_device_t *urma_get_device_by_name(char *dev_name);

/* Look a device up by EID and transport type; returns the device or NULL if not found. */
urma_device_t *urma_get_device_by_eid(urma_eid_t eid, urma_transport_type_t type);

/* Fill the caller-provided *dev_attr with the device's attributes and capabilities; returns a status. */
urma_status_t urma_query_device(urma_device_t *dev, urma_device_attr_t *dev_attr);

/* ========================================================================= */
/* Contexts                                                                  */
/* ========================================================================= */

/* Open a context on a device using the EID at eid_index; returns the context or NULL. */
urma_context_t *urma_create_context(urma_device_t *dev, uint32_t eid_index);

/* Close a context created by urma_create_context(); returns a status. */
urma_status_t urma_delete_context(urma_context_t *ctx);

/* Set a context option from opt_len bytes at opt_value; returns a status. */
urma_status_t urma_set_context_opt(urma_context_t *ctx, urma_opt_name_t opt_name, const void *opt_value,
                                   size_t opt_len);

/* ========================================================================= */
/* JFC (completion queues)                                                   */
/* ========================================================================= */

/* Create a completion queue; returns the JFC or NULL. */
urma_jfc_t *urma_create_jfc(urma_context_t *ctx, urma_jfc_cfg_t *jfc_cfg);

/* Change moderation attributes of a JFC; returns a status. */
urma_status_t urma_modify_jfc(urma_jfc_t *jfc, urma_jfc_attr_t *attr);

/* Destroy a JFC; returns a status. */
urma_status_t urma_delete_jfc(urma_jfc_t *jfc);

/* Allocate an inactive JFC in *jfc for two-phase setup (alloc, set_opt, active); returns a status. */
urma_status_t urma_alloc_jfc(urma_context_t *urma_ctx, urma_jfc_cfg_t *cfg, urma_jfc_t **jfc);

/* Set option opt of an allocated JFC from len bytes at buf; returns a status. */
urma_status_t urma_set_jfc_opt(urma_jfc_t *jfc, uint64_t opt, void *buf, uint32_t len);

/* Activate a JFC obtained from urma_alloc_jfc(); returns a status. */
urma_status_t urma_active_jfc(urma_jfc_t *jfc);

/* Read option opt of a JFC into len bytes at buf; returns a status. */
urma_status_t urma_get_jfc_opt(urma_jfc_t *jfc, uint64_t opt, void *buf, uint32_t len);

/* Deactivate an active JFC, keeping its allocation; returns a status. */
urma_status_t urma_deactive_jfc(urma_jfc_t *jfc);

/* Free a JFC obtained from urma_alloc_jfc() (the pointer is invalid afterwards); returns a status. */
urma_status_t urma_free_jfc(urma_jfc_t *jfc);

/* Destroy jfc_num JFCs in order, stopping at the first failure stored in *bad_jfc; returns a status. */
urma_status_t urma_delete_jfc_batch(urma_jfc_t **jfc_arr, int jfc_num, urma_jfc_t **bad_jfc);

/* ========================================================================= */
/* JFS (send queues)                                                         */
/* ========================================================================= */

/* Create a send queue; returns the JFS or NULL. */
urma_jfs_t *urma_create_jfs(urma_context_t *ctx, urma_jfs_cfg_t *jfs_cfg);

/* Change attributes (e.g. state) of a JFS; returns a status. */
urma_status_t urma_modify_jfs(urma_jfs_t *jfs, urma_jfs_attr_t *attr);

/* Read the configuration and attributes of a JFS into *cfg and *attr; returns a status. */
urma_status_t urma_query_jfs(urma_jfs_t *jfs, urma_jfs_cfg_t *cfg, urma_jfs_attr_t *attr);

/* Destroy a JFS; returns a status. */
urma_status_t urma_delete_jfs(urma_jfs_t *jfs);

/* Destroy jfs_num JFSs in order, stopping at the first failure stored in *bad_jfs; returns a status. */
urma_status_t urma_delete_jfs_batch(urma_jfs_t **jfs_arr, int jfs_num, urma_jfs_t **bad_jfs);

/* Retrieve up to cr_cnt flush records for WRs still pending on an errored/suspended JFS; returns the count or -1. */
int urma_flush_jfs(urma_jfs_t *jfs, int cr_cnt, urma_cr_t *cr);

/* Allocate an inactive JFS in *jfs for two-phase setup; returns a status. */
urma_status_t urma_alloc_jfs(urma_context_t *urma_ctx, urma_jfs_cfg_t *cfg, urma_jfs_t **jfs);

/* Set option opt of an allocated JFS from len bytes at buf; returns a status. */
urma_status_t urma_set_jfs_opt(urma_jfs_t *jfs, uint64_t opt, void *buf, uint32_t len);

/* Activate a JFS obtained from urma_alloc_jfs(); returns a status. */
urma_status_t urma_active_jfs(urma_jfs_t *jfs);

/* Read option opt of a JFS into len bytes at buf; returns a status. */
urma_status_t urma_get_jfs_opt(urma_jfs_t *jfs, uint64_t opt, void *buf, uint32_t len);

/* Deactivate an active JFS, keeping its allocation; returns a status. */
urma_status_t urma_deactive_jfs(urma_jfs_t *jfs);

/* Free a JFS obtained from urma_alloc_jfs() (the pointer is invalid afterwards); returns a status. */
urma_status_t urma_free_jfs(urma_jfs_t *jfs);

/* ========================================================================= */
/* JFR (receive queues) and remote JFRs                                      */
/* ========================================================================= */

/* Create a receive queue; returns the JFR or NULL. */
urma_jfr_t *urma_create_jfr(urma_context_t *ctx, urma_jfr_cfg_t *jfr_cfg);

/* Change attributes (rx threshold, state) of a JFR; returns a status. */
urma_status_t urma_modify_jfr(urma_jfr_t *jfr, urma_jfr_attr_t *attr);

/* Read the configuration and attributes of a JFR into *cfg and *attr; returns a status. */
urma_status_t urma_query_jfr(urma_jfr_t *jfr, urma_jfr_cfg_t *cfg, urma_jfr_attr_t *attr);

/* Destroy a JFR; returns a status. */
urma_status_t urma_delete_jfr(urma_jfr_t *jfr);

/* Destroy jfr_num JFRs in order, stopping at the first failure stored in *bad_jfr; returns a status. */
urma_status_t urma_delete_jfr_batch(urma_jfr_t **jfr_arr, int jfr_num, urma_jfr_t **bad_jfr);

/* Import a remote JFR so local JFSs can target it; returns the target handle or NULL. */
urma_target_jetty_t *urma_import_jfr(urma_context_t *ctx, urma_rjfr_t *rjfr, urma_token_t *token_value);

/* Import a remote JFR over a TP pair set up by the control plane; returns the target handle or NULL. */
urma_target_jetty_t *urma_import_jfr_ex(urma_context_t *ctx, urma_rjfr_t *rjfr, urma_token_t *token_value,
                                        urma_import_jfr_ex_cfg_t *cfg);

/* Release a JFR imported by urma_import_jfr[_ex](); returns a status. */
urma_status_t urma_unimport_jfr(urma_target_jetty_t *target_jfr);

/* Set up the transport channel from a JFS to an imported JFR; returns a status (URMA_EEXIST if already done). */
urma_status_t urma_advise_jfr(urma_jfs_t *jfs, urma_target_jetty_t *tjfr);

/* Start urma_advise_jfr() in the background, result delivered to cb_fun(cb_arg); returns the submission status. */
urma_status_t urma_advise_jfr_async(urma_jfs_t *jfs, urma_target_jetty_t *tjfr, urma_advise_async_cb_func cb_fun,
                                    void *cb_arg);

/* Tear down a channel made by urma_advise_jfr(); returns a status. */
urma_status_t urma_unadvise_jfr(urma_jfs_t *jfs, urma_target_jetty_t *tjfr);

/* Allocate an inactive JFR in *jfr for two-phase setup; returns a status. */
urma_status_t urma_alloc_jfr(urma_context_t *urma_ctx, urma_jfr_cfg_t *cfg, urma_jfr_t **jfr);

/* Set option opt of an allocated JFR from len bytes at buf; returns a status. */
urma_status_t urma_set_jfr_opt(urma_jfr_t *jfr, uint64_t opt, void *buf, uint32_t len);

/* Activate a JFR obtained from urma_alloc_jfr(); returns a status. */
urma_status_t urma_active_jfr(urma_jfr_t *jfr);

/* Read option opt of a JFR into len bytes at buf; returns a status. */
urma_status_t urma_get_jfr_opt(urma_jfr_t *jfr, uint64_t opt, void *buf, uint32_t len);

/* Deactivate an active JFR, keeping its allocation; returns a status. */
urma_status_t urma_deactive_jfr(urma_jfr_t *jfr);

/* Free a JFR obtained from urma_alloc_jfr() (the pointer is invalid afterwards); returns a status. */
urma_status_t urma_free_jfr(urma_jfr_t *jfr);

/* ========================================================================= */
/* Jetties and remote jetties                                                */
/* ========================================================================= */

/* Create a jetty (send queue plus own or shared receive queue); returns the jetty or NULL. */
urma_jetty_t *urma_create_jetty(urma_context_t *ctx, urma_jetty_cfg_t *jetty_cfg);

/* Change attributes (rx threshold, state) of a jetty; returns a status. */
urma_status_t urma_modify_jetty(urma_jetty_t *jetty, urma_jetty_attr_t *attr);

/* Read the configuration and attributes of a jetty into *cfg and *attr; returns a status. */
urma_status_t urma_query_jetty(urma_jetty_t *jetty, urma_jetty_cfg_t *cfg, urma_jetty_attr_t *attr);

/* Destroy a jetty; returns a status. */
urma_status_t urma_delete_jetty(urma_jetty_t *jetty);

/* Destroy jetty_num jetties in order, stopping at the first failure stored in *bad_jetty; returns a status. */
urma_status_t urma_delete_jetty_batch(urma_jetty_t **jetty_arr, int jetty_num, urma_jetty_t **bad_jetty);

/* Import a remote jetty so local jetties can target it; returns the target handle or NULL. */
urma_target_jetty_t *urma_import_jetty(urma_context_t *ctx, urma_rjetty_t *rjetty, urma_token_t *token_value);

/* Import a remote jetty over a TP pair set up by the control plane; returns the target handle or NULL. */
urma_target_jetty_t *urma_import_jetty_ex(urma_context_t *ctx, urma_rjetty_t *rjetty, urma_token_t *token_value,
                                          urma_import_jetty_ex_cfg_t *cfg);

/* Release a jetty imported by urma_import_jetty[_ex](); returns a status. */
urma_status_t urma_unimport_jetty(urma_target_jetty_t *tjetty);

/* Set up a channel from a jetty to an imported one (many peers allowed); returns a status (URMA_EEXIST if done). */
urma_status_t urma_advise_jetty(urma_jetty_t *jetty, urma_target_jetty_t *tjetty);

/* Tear down a channel made by urma_advise_jetty(); returns a status. */
urma_status_t urma_unadvise_jetty(urma_jetty_t *jetty, urma_target_jetty_t *tjetty);

/* Connect an RC jetty to exactly one imported jetty; returns a status (URMA_EEXIST if already bound). */
urma_status_t urma_bind_jetty(urma_jetty_t *jetty, urma_target_jetty_t *tjetty);

/* Connect an RC jetty over a TP pair set up by the control plane; returns a status (URMA_EEXIST if already bound). */
urma_status_t urma_bind_jetty_ex(urma_jetty_t *jetty, urma_target_jetty_t *tjetty, urma_bind_jetty_ex_cfg_t *cfg);

/* Disconnect a jetty bound by urma_bind_jetty[_ex](); returns a status. */
urma_status_t urma_unbind_jetty(urma_jetty_t *jetty);

/* Retrieve up to cr_cnt flush records for WRs still pending on an errored/suspended jetty; returns the count or -1. */
int urma_flush_jetty(urma_jetty_t *jetty, int cr_cnt, urma_cr_t *cr);

/* Export a jetty's description into a new *rjetty of *length bytes for sending to a peer; returns a status. */
urma_status_t urma_get_rjetty(urma_jetty_t *jetty, urma_rjetty_t **rjetty, uint32_t *length);

/* Free a description returned by urma_get_rjetty(); returns nothing. */
void urma_put_rjetty(urma_rjetty_t *rjetty);

/* Start importing a remote jetty, result reported on notifier within timeout ms; returns the pending handle or NULL. */
urma_target_jetty_t *urma_import_jetty_async(urma_notifier_t *notifier, const urma_rjetty_t *rjetty,
                                             const urma_token_t *token_value, uint64_t user_ctx, int timeout);

/* Release a jetty imported by urma_import_jetty_async(); returns a status. */
urma_status_t urma_unimport_jetty_async(urma_target_jetty_t *tjetty);

/* Start binding a jetty to an imported one, result reported on notifier within timeout ms; returns submit status. */
urma_status_t urma_bind_jetty_async(urma_notifier_t *notifier, urma_jetty_t *jetty, urma_target_jetty_t *tjetty,
                                    uint64_t user_ctx, int timeout);

/* Disconnect a jetty bound by urma_bind_jetty_async(); returns a status. */
urma_status_t urma_unbind_jetty_async(urma_jetty_t *jetty);

/* Create a notifier that collects results of asynchronous import/bind calls; returns it or NULL. */
urma_notifier_t *urma_create_notifier(urma_context_t *ctx);

/* Destroy a notifier; returns a status. */
urma_status_t urma_delete_notifier(urma_notifier_t *notifier);

/* Allocate an inactive jetty in *jetty for two-phase setup; returns a status. */
urma_status_t urma_alloc_jetty(urma_context_t *urma_ctx, urma_jetty_cfg_t *cfg, urma_jetty_t **jetty);

/* Set option opt of an allocated jetty from len bytes at buf; returns a status. */
urma_status_t urma_set_jetty_opt(urma_jetty_t *jetty, uint64_t opt, void *buf, uint32_t len);

/* Activate a jetty obtained from urma_alloc_jetty(); returns a status. */
urma_status_t urma_active_jetty(urma_jetty_t *jetty);

/* Read option opt of a jetty into len bytes at buf; returns a status. */
urma_status_t urma_get_jetty_opt(urma_jetty_t *jetty, uint64_t opt, void *buf, uint32_t len);

/* Deactivate an active jetty, keeping its allocation; returns a status. */
urma_status_t urma_deactive_jetty(urma_jetty_t *jetty);

/* Free a jetty obtained from urma_alloc_jetty() (the pointer is invalid afterwards); returns a status. */
urma_status_t urma_free_jetty(urma_jetty_t *jetty);

/* Wait up to timeout ms (0 = poll, -1 = forever) for up to cnt async results into notify[]; returns the count or -1. */
int urma_wait_notify(urma_notifier_t *notifier, uint32_t cnt, urma_notify_t *notify, int timeout);

/* Legacy no-op kept for compatibility; only validates its arguments and returns a status. */
urma_status_t urma_ack_notify(urma_context_t *ctx, uint32_t cnt, urma_notify_t *notify);

/* ========================================================================= */
/* Jetty groups                                                              */
/* ========================================================================= */

/* Create a jetty group; returns the group or NULL. */
urma_jetty_grp_t *urma_create_jetty_grp(urma_context_t *ctx, urma_jetty_grp_cfg_t *cfg);

/* Destroy a jetty group; returns a status. */
urma_status_t urma_delete_jetty_grp(urma_jetty_grp_t *jetty_grp);

/* ========================================================================= */
/* Event channels and async events                                           */
/* ========================================================================= */

/* Create a completion event channel; returns the JFCE or NULL. */
urma_jfce_t *urma_create_jfce(urma_context_t *ctx);

/* Destroy a completion event channel; returns a status. */
urma_status_t urma_delete_jfce(urma_jfce_t *jfce);

/* Read the next asynchronous event of the context into *event; returns a status. */
urma_status_t urma_get_async_event(urma_context_t *ctx, urma_async_event_t *event);

/* Acknowledge an event obtained from urma_get_async_event(); returns nothing. */
void urma_ack_async_event(urma_async_event_t *event);

/* ========================================================================= */
/* Token ids and segments                                                    */
/* ========================================================================= */

/* Allocate a token id for registering a segment; returns it or NULL. */
urma_token_id_t *urma_alloc_token_id(urma_context_t *ctx);

/* Allocate a token id whose mode is chosen by flag (multi_seg needs page-aligned segments); returns it or NULL. */
urma_token_id_t *urma_alloc_token_id_ex(urma_context_t *ctx, urma_token_id_flag_t flag);

/* Release a token id; returns a status. */
urma_status_t urma_free_token_id(urma_token_id_t *token_id);

/* Register local memory described by seg_cfg for local/remote access; returns the target segment or NULL. */
urma_target_seg_t *urma_register_seg(urma_context_t *ctx, urma_seg_cfg_t *seg_cfg);

/* Unregister a segment from urma_register_seg(); returns a status. */
urma_status_t urma_unregister_seg(urma_target_seg_t *target_seg);

/* Import a remote segment, optionally mapping it at addr; returns the target segment or NULL. */
urma_target_seg_t *urma_import_seg(urma_context_t *ctx, urma_seg_t *seg, urma_token_t *token_value, uint64_t addr,
                                   urma_import_seg_flag_t flag);

/* Release a segment from urma_import_seg(); returns a status. */
urma_status_t urma_unimport_seg(urma_target_seg_t *tseg);

/* Export a segment's description into a new *seg of *size bytes for sending to a peer; returns a status. */
urma_status_t urma_get_seg_ctx(urma_target_seg_t *tseg, urma_seg_t **seg, uint32_t *size);

/* Free a description returned by urma_get_seg_ctx(); returns nothing. */
void urma_put_seg_ctx(urma_seg_t *seg);

/* ========================================================================= */
/* Data path                                                                 */
/* ========================================================================= */

/* Post a chain of send-side WRs to a JFS; on failure *bad_wr is the first rejected WR; returns a status. */
urma_status_t urma_post_jfs_wr(urma_jfs_t *jfs, urma_jfs_wr_t *wr, urma_jfs_wr_t **bad_wr);

/* Post a chain of receive WRs to a JFR; on failure *bad_wr is the first rejected WR; returns a status. */
urma_status_t urma_post_jfr_wr(urma_jfr_t *jfr, urma_jfr_wr_t *wr, urma_jfr_wr_t **bad_wr);

/* Post a chain of send-side WRs to a jetty; on failure *bad_wr is the first rejected WR; returns a status. */
urma_status_t urma_post_jetty_send_wr(urma_jetty_t *jetty, urma_jfs_wr_t *wr, urma_jfs_wr_t **bad_wr);

/* Post a chain of receive WRs to a jetty; on failure *bad_wr is the first rejected WR; returns a status. */
urma_status_t urma_post_jetty_recv_wr(urma_jetty_t *jetty, urma_jfr_wr_t *wr, urma_jfr_wr_t **bad_wr);

/* Write len bytes from local src to remote dst through a JFS; returns a status. */
urma_status_t urma_write(urma_jfs_t *jfs, urma_target_jetty_t *target_jfr, urma_target_seg_t *dst_tseg,
                         urma_target_seg_t *src_tseg, uint64_t dst, uint64_t src, uint32_t len, urma_jfs_wr_flag_t flag,
                         uint64_t user_ctx);

/* Read len bytes from remote src into local dst through a JFS; returns a status. */
urma_status_t urma_read(urma_jfs_t *jfs, urma_target_jetty_t *target_jfr, urma_target_seg_t *dst_tseg,
                        urma_target_seg_t *src_tseg, uint64_t dst, uint64_t src, uint32_t len, urma_jfs_wr_flag_t flag,
                        uint64_t user_ctx);

/* Send len bytes at src to a remote JFR (src_tseg may be NULL for inline data); returns a status. */
urma_status_t urma_send(urma_jfs_t *jfs, urma_target_jetty_t *target_jfr, urma_target_seg_t *src_tseg, uint64_t src,
                        uint32_t len, urma_jfs_wr_flag_t flag, uint64_t user_ctx);

/* Post one receive buffer of len bytes at buf to a JFR; returns a status. */
urma_status_t urma_recv(urma_jfr_t *jfr, urma_target_seg_t *recv_tseg, uint64_t buf, uint32_t len, uint64_t user_ctx);

/* Poll up to cr_cnt completion records into cr[]; returns how many were polled (0 if none), negative on error. */
int urma_poll_jfc(urma_jfc_t *jfc, int cr_cnt, urma_cr_t *cr);

/* Request an event on the JFC's channel for the next (or next solicited) completion; returns a status. */
urma_status_t urma_rearm_jfc(urma_jfc_t *jfc, bool solicited_only);

/* Wait up to time_out ms (0 = poll, -1 = forever) for up to jfc_cnt signalled JFCs; returns the count or -1. */
int urma_wait_jfc(urma_jfce_t *jfce, uint32_t jfc_cnt, int time_out, urma_jfc_t *jfc[]);

/* Acknowledge nevents[i] completion events on each of jfc_cnt JFCs; returns nothing. */
void urma_ack_jfc(urma_jfc_t *jfc[], uint32_t nevents[], uint32_t jfc_cnt);

/* ========================================================================= */
/* Miscellaneous                                                             */
/* ========================================================================= */

/* Get (allocating if needed) this process's uasid into *uasid; returns a status. */
urma_status_t urma_get_uasid(uint32_t *uasid);

/* Pass a provider-specific command through to the driver; returns a status. */
urma_status_t urma_user_ctl(urma_context_t *ctx, urma_user_ctl_in_t *in, urma_user_ctl_out_t *out);

/* Route library log output to func instead of syslog; returns a status. */
urma_status_t urma_register_log_func(urma_log_cb_t func);

/* Route library log output, with source locations, to func (last registration wins); returns a status. */
urma_status_t urma_register_loc_log_func(urma_loc_log_cb func);

/* Drop any registered log callback and go back to syslog; returns a status. */
urma_status_t urma_unregister_log_func(void);

/* Returns the current log level. */
urma_vlog_level_t urma_log_get_level(void);

/* Set the log level; returns nothing. */
void urma_log_set_level(urma_vlog_level_t level);

/* Returns the calling thread's log tag. */
const char *urma_log_get_thread_tag(void);

/* Set the calling thread's log tag; returns nothing. */
void urma_log_set_thread_tag(const char *tag);

/* ========================================================================= */
/* User TP and control-plane TP management                                   */
/* ========================================================================= */

/* Returns the TPN of the jetty's own TP (user TP; on udma: an RC jetty's while it is bound),
 * or a negative value on error. */
int urma_get_tpn(urma_jetty_t *jetty);

/* Get a context's network addresses, count in *cnt; returns an array to free with urma_free_net_addr_list() or NULL. */
urma_net_addr_info_t *urma_get_net_addr_list(urma_context_t *ctx, uint32_t *cnt);

/* Free an array returned by urma_get_net_addr_list(); returns nothing. */
void urma_free_net_addr_list(urma_net_addr_info_t *net_addr_list);

/* Apply cfg and the attr fields selected by mask to TP tpn (user TP; on udma: checks, then the retry
 * count and ACK timeout only); returns 0 on success, non-zero on error. */
int urma_modify_tp(urma_context_t *ctx, uint32_t tpn, urma_tp_cfg_t *cfg, urma_tp_attr_t *attr,
                   urma_tp_attr_mask_t mask);

/* Fetch usable TPs into tp_list (capacity *tp_cnt in, count found out); returns a status. */
urma_status_t urma_get_tp_list(urma_context_t *ctx, urma_get_tp_cfg_t *cfg, uint32_t *tp_cnt, urma_tp_info_t *tp_list);

/* Set the TP attributes selected by tp_attr_bitmap for tp_handle; returns a status. */
urma_status_t urma_set_tp_attr(const urma_context_t *ctx, const uint64_t tp_handle, const uint8_t tp_attr_cnt,
                               const uint32_t tp_attr_bitmap, const urma_tp_attr_value_t *tp_attr);

/* Read the TP attributes of tp_handle, with their count and bitmap; returns a status. */
urma_status_t urma_get_tp_attr(const urma_context_t *ctx, const uint64_t tp_handle, uint8_t *tp_attr_cnt,
                               uint32_t *tp_attr_bitmap, urma_tp_attr_value_t *tp_attr);

/* Translate an IP address (family and address fields only) to an EID; returns a status. */
urma_status_t urma_get_eid_by_ip(const urma_context_t *ctx, const urma_net_addr_t *net_addr, urma_eid_t *eid);

/* Translate an EID to an IP address (family and address fields filled); returns a status. */
urma_status_t urma_get_ip_by_eid(const urma_context_t *ctx, const urma_eid_t *eid, urma_net_addr_t *net_addr);

/* Copy the local source MAC address (URMA_MAC_BYTES) into mac; returns a status. */
urma_status_t urma_get_smac(const urma_context_t *ctx, uint8_t *mac);

/* Resolve the destination MAC address for net_addr into mac; returns a status. */
urma_status_t urma_get_dmac(const urma_context_t *ctx, const urma_net_addr_t *net_addr, uint8_t *mac);

#ifdef __cplusplus
}
#endif

#endif /* URMA_API_H */
