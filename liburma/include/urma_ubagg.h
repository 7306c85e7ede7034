/* SPDX-License-Identifier: MIT */
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * The bonding provider's commands of urma_user_ctl(), with the names and
 * values of UMDK's urma_ubagg.h (its "bondp" provider), for applications
 * on a bonding device (bonding_dev_0, user guide 6.2). Of UMDK's commands
 * this stack has BONDP_USER_CTL_QUERY_PORT; the others are refused with
 * URMA_ENOPERM, as a provider refuses what it does not know.
 */
#ifndef URMA_UBAGG_H
#define URMA_UBAGG_H

#include <stdint.h>

#include "urma_types.h"

#ifdef __cplusplus
extern "C" {
#endif

#define URMA_UBAGG_DEV_MAX_NUM (20) /* members a bonding device reports at most */

typedef enum bondp_user_ctl_opcode {
    BONDP_USER_CTL_SET_BONDING_MODE_LEGACY = 4,
    BONDP_USER_CTL_ENABLE_SEG_CACHE,
    BONDP_USER_CTL_QUERY_PORT,
    BONDP_USER_CTL_SET_BONDING_MODE,
    BONDP_USER_CTL_GET_JFCE_FD_LIST,
} bondp_user_ctl_opcode_t;

/* BONDP_USER_CTL_QUERY_PORT: in.addr/in.len, a JFR or jetty of the context */
typedef struct bondp_query_port_in {
    union {
        urma_jfr_t *jfr;
        urma_jetty_t *jetty;
    };
} bondp_query_port_in_t;

/*
 * out.addr/out.len (at least this size): the members (ports) of the
 * bonding device, and those its mode sends through now. The receive side
 * posts active_count times the RQEs one port needs (user guide 6.2.2).
 */
typedef struct bondp_query_port_out {
    uint32_t enabled_indices[URMA_UBAGG_DEV_MAX_NUM];
    uint32_t enabled_count;
    uint32_t active_indices[URMA_UBAGG_DEV_MAX_NUM];
    uint32_t active_count;
} bondp_query_port_out_t;

#ifdef __cplusplus
}
#endif

#endif /* URMA_UBAGG_H */
