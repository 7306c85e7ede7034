/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The UB/URMA stack authors */
/* URMA data types: devices, contexts, queues (JFC/JFS/JFR/jetty), segments, work requests, TP control. */

#ifndef URMA_TYPES_H
#define URMA_TYPES_H

#include <arpa/inet.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/socket.h>

#ifndef __cplusplus
#include <stdatomic.h>
#else
#include <atomic>
#endif

#include "urma_opcode.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ========================================================================= */
/* Limits and helper macros                                                  */
/* ========================================================================= */

/* Pack a major/minor pair into one int; minor is clamped to 16 bits. */
#define URMA_GET_VERSION(a, b)      (((a) << 16) + ((b) > 65535 ? 65535 : (b)))
#define URMA_API_VERSION            ((0 << 16) + 9) /* 0.9 */
#define MAX_PORT_CNT                8
#define URMA_MAX_JETTY_IN_JETTY_GRP 32U
#define URMA_MAX_NAME               64
#define URMA_MAX_PATH               4096
#define URMA_EID_SIZE               (16)
#define URMA_MAX_PRIORITY_CNT       16
#define URMA_IPV4_MAP_IPV6_PREFIX   (0x0000ffff)
#define URMA_MAX_EID_CNT            1024 /* kept equal to the kernel's EID table size */
#define URMA_CC_IDX_TABLE_SIZE      80   /* 8 priorities x 10 congestion-control algorithms */
#define URMA_OPT_REVERSED_NUM       4    /* reserved u64 words at the end of *_opt structs */

/* printf helpers: EID_FMT with EID_ARGS(eid) prints an EID as eight 16-bit groups. */
#define URMA_EID_STR_LEN (39)
#define EID_FMT "%2.2x%2.2x:%2.2x%2.2x:%2.2x%2.2x:%2.2x%2.2x:%2.2x%2.2x:%2.2x%2.2x:%2.2x%2.2x:%2.2x%2.2x"
#define EID_RAW_ARGS(eid)                                                                           \
    eid[0], eid[1], eid[2], eid[3], eid[4], eid[5], eid[6], eid[7], eid[8], eid[9], eid[10], eid[11], \
        eid[12], eid[13], eid[14], eid[15]
#define EID_ARGS(eid) EID_RAW_ARGS((eid).raw)

#define URMA_SEG_TOKEN_ID_INVALID 0xffffffff

#define URMA_MAX_DEV_NAME 64 /* matches the kernel device-name limit */
#define URMA_GUID_SIZE    (16)

#define URMA_IP_ADDR_BYTES 16
#define URMA_MAC_BYTES     6

/* Bits of the *_opt_mask unions, one per optional queue context field. */
#define URMA_JFS_SQE_BASE_ADDR_MASK (1ULL << 0)
#define URMA_JFS_ID_MASK            (1ULL << 1)
#define URMA_JFS_DB_ADDR_MASK       (1ULL << 2)
#define URMA_JFS_DB_STATUS_MASK     (1ULL << 3)
#define URMA_JFS_PI_MASK            (1ULL << 4)
#define URMA_JFS_PI_TYPE_MASK       (1ULL << 5)
#define URMA_JFS_CI_MASK            (1ULL << 6)

#define URMA_JFR_RQE_BASE_ADDR_MASK (1ULL << 0)
#define URMA_JFR_ID_MASK            (1ULL << 1)
#define URMA_JFR_DB_ADDR_MASK       (1ULL << 2)
#define URMA_JFR_DB_STATUS_MASK     (1ULL << 3)
#define URMA_JFR_PI_MASK            (1ULL << 4)
#define URMA_JFR_PI_TYPE_MASK       (1ULL << 5)
#define URMA_JFR_CI_MASK            (1ULL << 6)

#define URMA_JFC_CQE_BASE_ADDR_MASK (1ULL << 0)
#define URMA_JFC_ID_MASK            (1ULL << 1)
#define URMA_JFC_DB_ADDR_MASK       (1ULL << 2)
#define URMA_JFC_DB_STATUS_MASK     (1ULL << 3)
#define URMA_JFC_PI_MASK            (1ULL << 4)
#define URMA_JFC_PI_TYPE_MASK       (1ULL << 5)
#define URMA_JFC_CI_MASK            (1ULL << 6)

/* ========================================================================= */
/* Library initialisation                                                    */
/* ========================================================================= */

typedef struct urma_init_attr {
    uint64_t token; /* optional security token */
    uint32_t uasid; /* requested uasid; 0 lets the library pick a non-zero one */
} urma_init_attr_t;

/* ========================================================================= */
/* Device and port description                                               */
/* ========================================================================= */

typedef enum urma_mtu {
    URMA_MTU_256 = 1,
    URMA_MTU_512,
    URMA_MTU_1024,
    URMA_MTU_2048,
    URMA_MTU_4096,
    URMA_MTU_8192,
} urma_mtu_t;

typedef enum urma_port_state {
    URMA_PORT_NOP = 0,
    URMA_PORT_DOWN,
    URMA_PORT_INIT,
    URMA_PORT_ARMED,
    URMA_PORT_ACTIVE,
    URMA_PORT_ACTIVE_DEFER,
} urma_port_state_t;

typedef enum urma_speed {
    URMA_SP_10M = 0,
    URMA_SP_100M,
    URMA_SP_1G,
    URMA_SP_2_5G,
    URMA_SP_5G,
    URMA_SP_10G,
    URMA_SP_14G,
    URMA_SP_25G,
    URMA_SP_40G,
    URMA_SP_50G,
    URMA_SP_100G,
    URMA_SP_200G,
    URMA_SP_400G,
    URMA_SP_800G,
} urma_speed_t;

typedef enum urma_link_width {
    URMA_LINK_X1  = 0x1,
    URMA_LINK_X2  = 0x1 << 1,
    URMA_LINK_X4  = 0x1 << 2,
    URMA_LINK_X8  = 0x1 << 3,
    URMA_LINK_X16 = 0x1 << 4,
    URMA_LINK_X32 = 0x1 << 5,
} urma_link_width_t;

/* 128-bit entity id; raw[] is in network byte order. */
typedef union urma_eid {
    uint8_t raw[URMA_EID_SIZE];
    struct {               /* IPv4-mapped form: */
        uint64_t reserved; /* 0 */
        uint32_t prefix;   /* URMA_IPV4_MAP_IPV6_PREFIX, network order */
        uint32_t addr;     /* IPv4 address, network order */
    } in4;
    struct {
        uint64_t subnet_prefix;
        uint64_t interface_id;
    } in6;
} urma_eid_t;

/* Build an IPv4-mapped EID from a host-order IPv4 address. */
void urma_u32_to_eid(uint32_t ipv4, urma_eid_t *eid);
/* Parse an EID given as IPv6 text, dotted IPv4 or a plain 32-bit number; returns 0 on success, negative on error. */
int urma_str_to_eid(const char *buf, urma_eid_t *eid);

/* Internal reference counter embedded in several objects. */
typedef struct urma_ref {
#ifndef __cplusplus
    atomic_ulong atomic_cnt;
#else
    std::atomic_ulong atomic_cnt;
#endif
} urma_ref_t;

typedef struct urma_port_attr {
    urma_mtu_t max_mtu;
    urma_port_state_t state;
    urma_link_width_t active_width;
    urma_speed_t active_speed;
    urma_mtu_t active_mtu;
} urma_port_attr_t;

/* Transport-path kinds usable at one service level. */
union urma_tp_type_en {
    struct {
        uint32_t rtp      : 1;
        uint32_t ctp      : 1;
        uint32_t utp      : 1;
        uint32_t reserved : 29;
    } bs;
    uint32_t value;
};

struct urma_sl_info {
    uint32_t SL;
    union urma_tp_type_en tp_type;
};

typedef union urma_device_feature {
    struct {
        uint32_t oor                   : 1; /* out-of-order receive */
        uint32_t jfc_per_wr            : 1;
        uint32_t stride_op             : 1;
        uint32_t load_store_op         : 1;
        uint32_t non_pin               : 1; /* segments need not be pinned */
        uint32_t pmem                  : 1; /* persistent memory */
        uint32_t jfc_inline            : 1;
        uint32_t spray_en              : 1; /* UDP source-port spraying */
        uint32_t selective_retrans     : 1;
        uint32_t live_migrate          : 1;
        uint32_t dca                   : 1; /* user TP only */
        uint32_t jetty_grp             : 1;
        uint32_t error_suspend         : 1;
        uint32_t outorder_comp         : 1; /* out-of-order completion */
        uint32_t mn                    : 1; /* user TP only */
        uint32_t clan                  : 1; /* user TP only */
        uint32_t muti_seg_per_token_id : 1;
        uint32_t ipourma_en            : 1;
        uint32_t ctp_en                : 1;
        uint32_t uboe                  : 1;
        uint32_t reserved              : 12;
    } bs;
    uint32_t value;
} urma_device_feature_t;

typedef union urma_atomic_feature {
    struct {
        uint32_t cas           : 1;
        uint32_t swap          : 1;
        uint32_t fetch_and_add : 1;
        uint32_t fetch_and_sub : 1;
        uint32_t fetch_and_and : 1;
        uint32_t fetch_and_or  : 1;
        uint32_t fetch_and_xor : 1;
        uint32_t reserved      : 25;
    } bs;
    uint32_t value;
} urma_atomic_feature_t;

typedef union urma_order_type_cap {
    struct {
        uint32_t ot       : 1;
        uint32_t oi       : 1;
        uint32_t ol       : 1;
        uint32_t no       : 1;
        uint32_t reserved : 28;
    } bs;
    uint32_t value;
} urma_order_type_cap_t;

typedef union urma_tp_type_cap {
    struct {
        uint32_t rtp      : 1;
        uint32_t ctp      : 1;
        uint32_t utp      : 1;
        uint32_t reserved : 29;
    } bs;
    uint32_t value;
} urma_tp_type_cap_t;

typedef union urma_tp_feature {
    struct {
        uint32_t rm_multi_path : 1;
        uint32_t rc_multi_path : 1;
        uint32_t reserved      : 30;
    } bs;
    uint32_t value;
} urma_tp_feature_t;

typedef struct urma_device_cap {
    urma_device_feature_t feature;
    uint32_t max_jfc;
    uint32_t max_jfs;
    uint32_t max_jfr;
    uint32_t max_jetty;
    uint32_t max_jetty_grp;
    uint32_t max_jetty_in_jetty_grp;
    uint32_t max_jfc_depth;
    uint32_t max_jfs_depth;
    uint32_t max_jfr_depth;
    uint32_t max_jfs_inline_len; /* bytes */
    uint32_t max_jfs_sge;
    uint32_t max_jfs_rsge;       /* remote SGEs per JFS WR */
    uint32_t max_jfr_sge;
    uint64_t max_msg_size;
    uint32_t max_read_size;
    uint32_t max_write_size;
    uint32_t max_cas_size;
    uint32_t max_swap_size;
    uint32_t max_fetch_and_add_size;
    uint32_t max_fetch_and_sub_size;
    uint32_t max_fetch_and_and_size;
    uint32_t max_fetch_and_or_size;
    uint32_t max_fetch_and_xor_size;
    urma_atomic_feature_t atomic_feat;
    uint16_t trans_mode;          /* OR of urma_transport_mode_t bits */
    uint16_t reserved;
    uint16_t congestion_ctrl_alg; /* OR of urma_congestion_ctrl_alg_t bits */
    uint32_t ceq_cnt;
    uint32_t max_tp_in_tpg;
    uint32_t max_eid_cnt;
    uint64_t page_size_cap;       /* bitmap of supported page sizes (always has 4K) */
    uint32_t max_oor_cnt;         /* OOR window in packets, user TP only */
    uint32_t mn;                  /* user TP only */
    uint32_t max_netaddr_cnt;     /* user TP only */
    urma_order_type_cap_t rm_order_cap;
    urma_order_type_cap_t rc_order_cap;
    urma_tp_type_cap_t rm_tp_cap;
    urma_tp_type_cap_t rc_tp_cap;
    urma_tp_type_cap_t um_tp_cap;
    urma_tp_feature_t tp_feature;
    struct urma_sl_info priority_info[URMA_MAX_PRIORITY_CNT];
} urma_device_cap_t;

typedef struct urma_guid {
    uint8_t raw[URMA_GUID_SIZE];
} urma_guid_t;

typedef struct urma_device_attr {
    urma_guid_t guid;
    urma_device_cap_t dev_cap;
    uint8_t port_cnt; /* valid entries in port_attr[] */
    struct urma_port_attr port_attr[MAX_PORT_CNT];
    uint32_t reserved_jetty_id_min;
    uint32_t reserved_jetty_id_max;
} urma_device_attr_t;

typedef struct urma_token {
    uint32_t token;
} urma_token_t;

/* Opaque library / provider internals. */
struct urma_sysfs_dev;
struct urma_ops;
struct urma_provider_ops;

typedef enum urma_transport_type {
    URMA_TRANSPORT_INVALID = -1,
    URMA_TRANSPORT_UB      = 0,
    URMA_TRANSPORT_IB      = 1,
    URMA_TRANSPORT_IP      = 2,
    URMA_TRANSPORT_SOFTUB  = 3,
    URMA_TRANSPORT_HNS_UB  = 5,
    URMA_TRANSPORT_MAX
} urma_transport_type_t;

/* Transport service modes; a bitmask in urma_device_cap_t.trans_mode. */
typedef enum urma_transport_mode {
    URMA_TM_RM = 0x1,      /* reliable message */
    URMA_TM_RC = 0x1 << 1, /* reliable connection */
    URMA_TM_UM = 0x1 << 2, /* unreliable message */
} urma_transport_mode_t;

/* Congestion-control algorithm index (a higher value is preferred). */
typedef enum urma_tp_cc_alg {
    URMA_TP_CC_NONE = 0,
    URMA_TP_CC_DCQCN,
    URMA_TP_CC_CAQM,
    URMA_TP_CC_LDCP = 3,
    URMA_TP_CC_LDCP_L2_HEADER,
    URMA_TP_CC_LDCP_TP_HEADER,
    URMA_TP_CC_DIP,
    URMA_TP_CC_ACC,
    URMA_TP_CC_CUSTOM_1,
    URMA_TP_CC_CUSTOM_2,
    URMA_TP_CC_NUM,
} urma_tp_cc_alg_t;

/* One bit per urma_tp_cc_alg_t value. */
typedef enum urma_congestion_ctrl_alg {
    URMA_CC_NONE           = 0x1 << URMA_TP_CC_NONE,
    URMA_CC_DCQCN          = 0x1 << URMA_TP_CC_DCQCN,
    URMA_CC_CAQM           = 0x1 << URMA_TP_CC_CAQM,
    URMA_CC_LDCP           = 0x1 << URMA_TP_CC_LDCP,
    URMA_CC_LDCP_L2_HEADER = 0x1 << URMA_TP_CC_LDCP_L2_HEADER,
    URMA_CC_LDCP_TP_HEADER = 0x1 << URMA_TP_CC_LDCP_TP_HEADER,
    URMA_CC_DIP            = 0x1 << URMA_TP_CC_DIP,
    URMA_CC_ACC            = 0x1 << URMA_TP_CC_ACC,
    URMA_CC_CUSTOM_1       = 0x1 << URMA_TP_CC_CUSTOM_1,
    URMA_CC_CUSTOM_2       = 0x1 << URMA_TP_CC_CUSTOM_2,
} urma_congestion_ctrl_alg_t;

typedef struct urma_cc_entry {
    urma_tp_cc_alg_t alg;
    uint8_t cc_pattern_idx;
    uint8_t cc_priority;
} __attribute__((packed)) urma_cc_entry_t;

typedef struct urma_device {
    char name[URMA_MAX_NAME];         /* device name; differs per transport type */
    char path[URMA_MAX_PATH];         /* sysfs path */
    urma_transport_type_t type;
    struct urma_provider_ops *ops;    /* private: provider driver entry points */
    struct urma_sysfs_dev *sysfs_dev; /* private */
} urma_device_t;

/* ========================================================================= */
/* Context                                                                   */
/* ========================================================================= */

typedef enum urma_context_opt_name {
    URMA_OPT_AGGR_MODE,
} urma_opt_name_t;

typedef enum urma_context_aggr_mode {
    URMA_AGGR_MODE_STANDALONE,
    URMA_AGGR_MODE_ACTIVE_BACKUP,
    URMA_AGGR_MODE_BALANCE,
} urma_context_aggr_mode_t;

typedef struct urma_context {
    struct urma_device *dev; /* private */
    struct urma_ops *ops;    /* private */
    int dev_fd;              /* private: command fd of the device */
    int async_fd;            /* private: async event fd */
    pthread_mutex_t mutex;   /* private */
    urma_eid_t eid;
    uint32_t eid_index;
    uint32_t uasid;
    struct urma_ref ref;     /* private */
    urma_context_aggr_mode_t aggr_mode;
} urma_context_t;

typedef struct urma_eid_info {
    urma_eid_t eid;
    uint32_t eid_index; /* 0 .. URMA_MAX_EID_CNT - 1 */
} urma_eid_info_t;

/* ========================================================================= */
/* JFC: jetty for completion, and its event channel (JFCE)                   */
/* ========================================================================= */

typedef struct urma_jfce_cfg {
    uint32_t depth;
    uint64_t user_ctx;
} urma_jfce_cfg_t;

typedef struct urma_jfce {
    urma_context_t *urma_ctx; /* private */
    int fd;                   /* private: pollable completion-event fd */
    struct urma_ref ref;      /* private */
} urma_jfce_t;

typedef union urma_jfc_flag {
    struct {
        uint32_t lock_free    : 1;
        uint32_t jfc_inline   : 1;
        uint32_t non_blocking : 1;
        uint32_t has_drv_ext  : 1;
        uint32_t reserved     : 28;
    } bs;
    uint32_t value;
} urma_jfc_flag_t;

typedef struct urma_jfc_cfg {
    uint32_t depth;       /* required, at most urma_device_cap_t.max_jfc_depth */
    urma_jfc_flag_t flag; /* 0 for defaults */
    uint32_t ceqn;        /* completion event queue, below urma_device_cap_t.ceq_cnt */
    urma_jfce_t *jfce;    /* event channel for notifications */
    uint64_t user_ctx;
} urma_jfc_cfg_t;

typedef enum urma_jfc_attr_mask {
    JFC_MODERATE_COUNT  = 0x1,
    JFC_MODERATE_PERIOD = 0x1 << 1
} urma_jfc_attr_mask_t;

typedef struct urma_jfc_attr {
    uint32_t mask;            /* OR of urma_jfc_attr_mask_t */
    uint16_t moderate_count;
    uint16_t moderate_period; /* microseconds */
} urma_jfc_attr_t;

/* Fully qualified id of a jetty / JFS / JFR / JFC. */
typedef struct urma_jetty_id {
    urma_eid_t eid;
    uint32_t uasid; /* 0 for kernel objects */
    uint32_t id;
} urma_jetty_id_t;

typedef struct urma_jetty_id urma_jfs_id_t;
typedef struct urma_jetty_id urma_jfr_id_t;
typedef struct urma_jetty_id urma_jfc_id_t;

union urma_jfc_opt_mask {
    struct {
        uint64_t urma_jfc_cqe_base_addr : 1;
        uint64_t urma_jfc_db_addr       : 1;
        uint64_t urma_jfc_id            : 1;
        uint64_t urma_jfc_pi            : 1;
        uint64_t urma_jfc_pi_type       : 1;
        uint64_t urma_jfc_ci            : 1;
        uint64_t urma_jfc_db_status     : 1;
        uint64_t reserved               : 57;
    } bs;
    uint64_t value;
};

/* Queue context supplied through urma_set_jfc_opt() before activation. */
typedef struct urma_jfc_opt {
    union urma_jfc_opt_mask jfc_opt_mask; /* which of the fields below are set */
    bool is_actived;
    uint64_t urma_jfc_cqe_base_addr;      /* VA of the CQE ring */
    uint32_t urma_jfc_id;
    uint64_t urma_jfc_db_addr;            /* VA of the doorbell */
    uint8_t urma_jfc_db_status;           /* doorbell valid (1) / invalid (0), for live migration */
    uint16_t urma_jfc_pi;
    uint16_t urma_jfc_pi_type;            /* 0: absolute index, 1: running count */
    uint16_t urma_jfc_ci;
    uint64_t reserved[URMA_OPT_REVERSED_NUM];
} urma_jfc_opt_t;

typedef struct urma_jfc {
    urma_context_t *urma_ctx; /* private */
    urma_jfc_id_t jfc_id;
    urma_jfc_cfg_t jfc_cfg;   /* copy of the creation config */
    uint64_t handle;
    pthread_mutex_t event_mutex;
    pthread_cond_t event_cond;
    uint32_t comp_events_acked;
    uint32_t async_events_acked;
    urma_jfc_opt_t urma_jfc_opt;
} urma_jfc_t;

/* ========================================================================= */
/* JFS: jetty for send                                                       */
/* ========================================================================= */

/* Values of the 8-bit order_type flag fields. */
typedef enum urma_order_type {
    URMA_DEF_ORDER, /* chosen by the driver */
    URMA_OT,        /* target ordering */
    URMA_OI,        /* initiator ordering */
    URMA_OL,        /* lower-layer ordering */
    URMA_NO         /* unreliable, unordered */
} urma_order_type_t;

typedef union urma_jfs_flag {
    struct {
        uint32_t lock_free            : 1; /* 0: internally locked */
        uint32_t error_suspend        : 1; /* 1: suspend instead of continuing on error */
        uint32_t outorder_comp        : 1;
        uint32_t order_type           : 8; /* urma_order_type_t */
        uint32_t multi_path           : 1; /* aggregated devices only */
        uint32_t ctp_rc_mul_path_mode : 1;
        uint32_t non_blocking         : 1;
        uint32_t has_drv_ext          : 1;
        uint32_t reserved             : 17;
    } bs;
    uint32_t value;
} urma_jfs_flag_t;

union urma_jfs_opt_mask {
    struct {
        uint64_t urma_jfs_cqe_base_addr : 1;
        uint64_t urma_jfs_db_addr       : 1;
        uint64_t urma_jfs_id            : 1;
        uint64_t urma_jfs_pi            : 1;
        uint64_t urma_jfs_pi_type       : 1;
        uint64_t urma_jfs_ci            : 1;
        uint64_t urma_jfs_db_status     : 1;
        uint64_t reserved               : 57;
    } bs;
    uint64_t value;
};

/* Queue context supplied through urma_set_jfs_opt() before activation. */
typedef struct urma_jfs_opt {
    union urma_jfs_opt_mask jfs_opt_mask;
    bool is_actived;
    uint64_t urma_jfs_sqe_base_addr; /* VA of the SQE ring */
    uint32_t urma_jfs_id;
    uint64_t urma_jfs_db_addr;
    uint8_t urma_jfs_db_status;
    uint16_t urma_jfs_pi;
    uint16_t urma_jfs_pi_type;       /* 0: absolute index, 1: running count */
    uint16_t urma_jfs_ci;
    uint64_t reserved[URMA_OPT_REVERSED_NUM];
} urma_jfs_opt_t;

typedef struct urma_jfs_cfg {
    uint32_t depth;
    urma_jfs_flag_t flag;
    urma_transport_mode_t trans_mode;
    uint8_t priority;         /* 0 .. URMA_MAX_PRIORITY; latency-sensitive traffic wants higher */
    uint8_t max_sge;          /* local SGEs per WR */
    uint8_t max_rsge;         /* remote SGEs per WR */
    uint32_t max_inline_data; /* 0 selects the device maximum */
    uint8_t rnr_retry;        /* 0 .. 7 retries on receiver-not-ready; 7 may mean unlimited */
    uint8_t err_timeout;      /* 0 .. 31, timeout is 4.096us * 2^err_timeout */
    urma_jfc_t *jfc;          /* required: where send completions go */
    uint64_t user_ctx;
} urma_jfs_cfg_t;

typedef struct urma_jfs {
    urma_context_t *urma_ctx; /* private */
    urma_jfs_id_t jfs_id;
    urma_jfs_cfg_t jfs_cfg;
    uint64_t handle;
    pthread_mutex_t event_mutex;
    pthread_cond_t event_cond;
    uint32_t async_events_acked;
    urma_jfs_opt_t urma_jfs_opt;
} urma_jfs_t;

typedef enum urma_jfs_attr_mask {
    JFS_STATE = 0x1
} urma_jfs_attr_mask_t;

typedef urma_jetty_state_t urma_jfs_state_t;

typedef struct urma_jfs_attr {
    uint32_t mask; /* OR of urma_jfs_attr_mask_t */
    urma_jfs_state_t state;
} urma_jfs_attr_t;

/* ========================================================================= */
/* JFR: jetty for receive                                                    */
/* ========================================================================= */

typedef union urma_jfr_flag {
    struct {
        uint32_t token_policy : 3; /* URMA_TOKEN_* */
        uint32_t tag_matching : 1; /* URMA_NO_TAG_MATCHING / URMA_WITH_TAG_MATCHING */
        uint32_t lock_free    : 1;
        uint32_t order_type   : 8; /* urma_order_type_t */
        uint32_t has_drv_ext  : 1;
        uint32_t non_blocking : 1;
        uint32_t reserved     : 17;
    } bs;
    uint32_t value;
} urma_jfr_flag_t;

union urma_jfr_opt_mask {
    struct {
        uint64_t urma_jfr_cqe_base_addr : 1;
        uint64_t urma_jfr_db_addr       : 1;
        uint64_t urma_jfr_id            : 1;
        uint64_t urma_jfr_pi            : 1;
        uint64_t urma_jfr_pi_type       : 1;
        uint64_t urma_jfr_ci            : 1;
        uint64_t urma_jfr_db_status     : 1;
        uint64_t reserved               : 57;
    } bs;
    uint64_t value;
};

/* Queue context supplied through urma_set_jfr_opt() before activation. */
typedef struct urma_jfr_opt {
    union urma_jfr_opt_mask jfr_opt_mask;
    bool is_actived;
    uint64_t urma_jfr_rqe_base_addr; /* VA of the RQE ring */
    uint32_t urma_jfr_id;
    uint64_t urma_jfr_db_addr;
    uint8_t urma_jfr_db_status;
    uint16_t urma_jfr_pi;
    uint16_t urma_jfr_pi_type;       /* 0: absolute index, 1: running count */
    uint16_t urma_jfr_ci;
    uint64_t reserved[URMA_OPT_REVERSED_NUM];
} urma_jfr_opt_t;

typedef struct urma_jfr_cfg {
    uint32_t id;                      /* 0 lets the library pick one */
    uint32_t depth;
    urma_jfr_flag_t flag;
    urma_transport_mode_t trans_mode;
    uint8_t max_sge;
    uint8_t min_rnr_timer;            /* 0 .. 31, delay advertised in RNR NACKs */
    urma_jfc_t *jfc;                  /* required: where receive completions go */
    urma_token_t token_value;         /* required: senders must present this token */
    uint64_t user_ctx;
} urma_jfr_cfg_t;

typedef enum urma_jfr_attr_mask {
    JFR_RX_THRESHOLD = 0x1,
    JFR_STATE        = 0x1 << 1
} urma_jfr_attr_mask_t;

typedef struct urma_jfr_attr {
    uint32_t mask; /* OR of urma_jfr_attr_mask_t */
    uint32_t rx_threshold;
    urma_jfr_state_t state;
} urma_jfr_attr_t;

typedef struct urma_jfr {
    urma_context_t *urma_ctx; /* private */
    urma_jfr_id_t jfr_id;
    urma_jfr_cfg_t jfr_cfg;
    uint64_t handle;
    pthread_mutex_t event_mutex;
    pthread_cond_t event_cond;
    uint32_t async_events_acked;
    urma_jfr_opt_t urma_jfr_opt;
} urma_jfr_t;

/* ========================================================================= */
/* Remote (imported) JFR / jetty                                             */
/* ========================================================================= */

typedef union urma_import_jetty_flag {
    struct {
        uint32_t token_policy  : 3;
        uint32_t order_type    : 8; /* urma_order_type_t */
        uint32_t share_tp      : 1; /* must be 0 for RC unless target ordering is used */
        uint32_t has_drv_ext   : 1; /* provider-specific extension (e.g. affinity) */
        uint32_t has_user_info : 1; /* extension data follows urma_rjetty_t */
        uint32_t reserved      : 18;
    } bs;
    uint32_t value;
} urma_import_jetty_flag_t;

typedef enum urma_tp_type {
    URMA_RTP,
    URMA_CTP,
    URMA_UTP
} urma_tp_type_t;

typedef struct urma_rjfr {
    urma_jfr_id_t jfr_id;
    urma_transport_mode_t trans_mode;
    urma_import_jetty_flag_t flag;
    urma_tp_type_t tp_type;
} urma_rjfr_t;

typedef struct urma_tp {
    uint32_t tpn; /* virtual TP number */
} urma_tp_t;

/* ========================================================================= */
/* Jetty: a JFS plus a (possibly shared) JFR                                 */
/* ========================================================================= */

typedef union urma_jetty_flag {
    struct {
        uint32_t share_jfr     : 1; /* URMA_NO_SHARE_JFR / URMA_SHARE_JFR */
        uint32_t non_blocking  : 1;
        uint32_t has_drv_ext   : 1;
        uint32_t has_user_info : 1; /* extension data follows the jetty object */
        uint32_t reserved      : 28;
    } bs;
    uint32_t value;
} urma_jetty_flag_t;

typedef struct urma_jetty_grp urma_jetty_grp_t;

typedef struct urma_jetty_cfg {
    uint32_t id;            /* 0 lets the library pick one */
    urma_jetty_flag_t flag;
    urma_jfs_cfg_t jfs_cfg; /* send side */
    union {                 /* receive side */
        struct {
            urma_jfr_t *jfr; /* shared JFR to receive on */
            urma_jfc_t *jfc; /* overrides the JFR's completion queue if set */
        } shared;
        urma_jfr_cfg_t *jfr_cfg; /* deprecated */
    };
    urma_jetty_grp_t *jetty_grp; /* optional group to join */
    uint64_t user_ctx;
} urma_jetty_cfg_t;

typedef enum urma_jetty_grp_policy {
    URMA_JETTY_GRP_POLICY_RR        = 0,
    URMA_JETTY_GRP_POLICY_HASH_HINT = 1
} urma_jetty_grp_policy_t;

typedef enum urma_target_type {
    URMA_JFR = 0,
    URMA_JETTY,
    URMA_JETTY_GROUP
} urma_target_type_t;

typedef union urma_ext_flag {
    struct {
        uint32_t enable   : 1;
        uint32_t reserved : 31;
    } bs;
    uint32_t value;
} urma_ext_flag_t;

/* Variable-length extension blob; length bytes follow in buf. */
typedef struct urma_ext {
    urma_ext_flag_t flag;
    uint32_t length;
    char buf[0];
} urma_ext_t;

/* Description of a remote jetty, exchanged out of band before import. */
typedef struct urma_rjetty {
    urma_jetty_id_t jetty_id;
    urma_transport_mode_t trans_mode;
    urma_jetty_grp_policy_t policy;
    urma_target_type_t type;
    urma_import_jetty_flag_t flag;
    urma_tp_type_t tp_type;
} urma_rjetty_t;

/* Local handle for an imported JFR, jetty or jetty group. */
typedef struct urma_target_jetty {
    urma_context_t *urma_ctx; /* private */
    urma_jetty_id_t id;       /* private */
    uint64_t handle;
    urma_transport_mode_t trans_mode;
    urma_tp_t tp;
    urma_target_type_t type;
    urma_import_jetty_flag_t flag;
    urma_jetty_grp_policy_t policy;
    urma_tp_type_t tp_type;
} urma_target_jetty_t;

typedef enum urma_jetty_attr_mask {
    JETTY_RX_THRESHOLD = 0x1,
    JETTY_STATE        = 0x1 << 1
} urma_jetty_attr_mask_t;

typedef struct urma_jetty_attr {
    uint32_t mask; /* OR of urma_jetty_attr_mask_t */
    uint32_t rx_threshold;
    urma_jetty_state_t state;
} urma_jetty_attr_t;

typedef struct urma_jetty_opt {
    bool is_actived;
    urma_jfs_opt_t jfs_opt;
    uint64_t reserved[URMA_OPT_REVERSED_NUM];
} urma_jetty_opt_t;

typedef struct urma_jetty {
    urma_context_t *urma_ctx;          /* private */
    urma_jetty_id_t jetty_id;
    urma_target_jetty_t *remote_jetty; /* private: peer once bound (RC only) */
    urma_jetty_cfg_t jetty_cfg;
    uint64_t handle;
    pthread_mutex_t event_mutex;
    pthread_cond_t event_cond;
    uint32_t async_events_acked;
    urma_jetty_opt_t urma_jetty_opt;
} urma_jetty_t;

/* ========================================================================= */
/* Asynchronous import/bind notifications                                    */
/* ========================================================================= */

typedef struct urma_notifier {
    urma_context_t *urma_ctx;
    int fd;
    void *incomplete_tjetty_list;
} urma_notifier_t;

typedef enum urma_notify_type {
    URMA_IMPORT_JETTY_NOTIFY = 0,
    URMA_BIND_JETTY_NOTIFY
} urma_notify_type_t;

typedef struct urma_notify {
    urma_notify_type_t type;
    urma_status_t status;
    uint64_t user_ctx;
    union {
        urma_target_jetty_t *tjetty; /* for URMA_IMPORT_JETTY_NOTIFY */
        urma_jetty_t *jetty;         /* for URMA_BIND_JETTY_NOTIFY */
    };
} urma_notify_t;

/* ========================================================================= */
/* Jetty group                                                               */
/* ========================================================================= */

typedef union urma_jetty_grp_flag {
    struct {
        uint32_t token_policy : 3; /* URMA_TOKEN_* */
        uint32_t reserved     : 29;
    } bs;
    uint32_t value;
} urma_jetty_grp_flag_t;

typedef struct urma_jetty_grp_cfg {
    char name[URMA_MAX_NAME];
    urma_jetty_grp_flag_t flag;
    urma_token_t token_value;       /* required */
    uint32_t id;                    /* 0 lets the library pick one */
    urma_jetty_grp_policy_t policy; /* round robin by default */
    uint64_t user_ctx;
} urma_jetty_grp_cfg_t;

struct urma_jetty_grp {
    urma_context_t *urma_ctx;
    urma_jetty_id_t jetty_grp_id;
    urma_jetty_grp_cfg_t cfg;
    uint32_t jetty_cnt;
    urma_jetty_t **jetty_list;
    pthread_mutex_t list_mutex;
    uint64_t handle; /* kernel object handle */
    pthread_mutex_t event_mutex;
    pthread_cond_t event_cond;
    uint32_t async_events_acked;
};

/* ========================================================================= */
/* Memory segments                                                           */
/* ========================================================================= */

/* UB virtual address: EID + address space + VA. */
typedef struct urma_ubva {
    urma_eid_t eid;
    uint32_t uasid; /* 24 significant bits on UB */
    uint64_t va;
} __attribute__((packed)) urma_ubva_t;

typedef union urma_reg_seg_flag {
    struct {
        uint32_t token_policy   : 3; /* URMA_TOKEN_* */
        uint32_t cacheable      : 1; /* URMA_NON_CACHEABLE / URMA_CACHEABLE */
        uint32_t dsva           : 1;
        uint32_t access         : 6; /* OR of URMA_ACCESS_* */
        uint32_t non_pin        : 1; /* 1: do not pin pages */
        uint32_t user_iova      : 1; /* 1: urma_seg_cfg_t.iova is used */
        uint32_t token_id_valid : 1; /* 1: urma_seg_cfg_t.token_id is used */
        uint32_t reserved       : 18;
    } bs;
    uint32_t value;
} urma_reg_seg_flag_t;

typedef union urma_seg_attr {
    struct {
        uint32_t token_policy  : 3; /* URMA_TOKEN_* */
        uint32_t cacheable     : 1;
        uint32_t dsva          : 1;
        uint32_t access        : 6; /* OR of URMA_ACCESS_* */
        uint32_t non_pin       : 1;
        uint32_t user_iova     : 1;
        uint32_t user_token_id : 1; /* 1: token id belongs to the caller, not freed by the library */
        uint32_t has_user_info : 1; /* extension data follows urma_seg_t */
        uint32_t reserved      : 17;
    } bs;
    uint32_t value;
} urma_seg_attr_t;

typedef union urma_import_seg_flag {
    struct {
        uint32_t cacheable : 1;
        uint32_t access    : 6; /* OR of URMA_ACCESS_* */
        uint32_t mapping   : 1; /* URMA_SEG_NOMAP / URMA_SEG_MAPPED */
        uint32_t reserved  : 24;
    } bs;
    uint32_t value;
} urma_import_seg_flag_t;

typedef union urma_token_id_flag {
    struct {
        uint32_t multi_seg : 1; /* one token id shared by several segments */
        uint32_t reserved  : 31;
    } bs;
    uint32_t value;
} urma_token_id_flag_t;

typedef struct urma_token_id {
    urma_context_t *urma_ctx;
    uint32_t token_id;
    uint64_t handle;
    urma_ref_t ref;
    urma_token_id_flag_t flag;
} urma_token_id_t;

typedef struct urma_seg_cfg {
    uint64_t va;
    uint64_t len;
    urma_token_id_t *token_id;
    urma_token_t token_value; /* remote peers must present this token */
    urma_reg_seg_flag_t flag;
    uint64_t user_ctx;
    uint64_t iova;            /* caller-chosen IO address when flag.bs.user_iova is set */
} urma_seg_cfg_t;

/* Exportable description of a segment. */
typedef struct urma_seg {
    urma_ubva_t ubva;
    uint64_t len;
    urma_seg_attr_t attr;
    uint32_t token_id; /* private */
} urma_seg_t;

/* Local handle for a registered or imported segment. */
typedef struct urma_target_seg {
    urma_seg_t seg;            /* private */
    uint64_t user_ctx;         /* private */
    uint64_t mva;              /* local mapping address of an imported segment */
    urma_context_t *urma_ctx;  /* private */
    urma_token_id_t *token_id; /* set for registered segments, NULL for imported ones */
    uint64_t handle;
} urma_target_seg_t;

/* ========================================================================= */
/* Driver pass-through control                                               */
/* ========================================================================= */

typedef struct urma_user_ctl_in {
    uint64_t addr;   /* input buffer */
    uint32_t len;    /* input buffer size */
    uint32_t opcode; /* command understood by both caller and provider */
} urma_user_ctl_in_t;

typedef struct urma_user_ctl_out {
    uint64_t addr; /* output buffer */
    uint32_t len;  /* output buffer size */
    uint32_t reserved;
} urma_user_ctl_out_t;

/* Remote segment described directly by the caller, without urma_import_seg(). */
typedef struct urma_user_target_seg {
    urma_seg_attr_t attr;
    uint32_t token_id;
    urma_token_t token_value;
} urma_user_tseg_t;

/* ========================================================================= */
/* Work requests                                                             */
/* ========================================================================= */

typedef struct urma_sge {
    uint64_t addr;
    uint32_t len;
    /* Local SGEs need tseg. Remote SGEs need tseg or user_tseg; tseg wins if both are set. */
    urma_target_seg_t *tseg;
    urma_user_tseg_t *user_tseg;
} urma_sge_t;

typedef struct urma_sg {
    urma_sge_t *sge;
    uint32_t num_sge;
} urma_sg_t;

typedef union urma_jfs_wr_flag {
    struct {
        uint32_t place_order      : 2; /* urma_place_order_t */
        uint32_t comp_order       : 1; /* complete in order with the previous WR */
        uint32_t fence            : 1; /* wait for earlier read/atomic WRs */
        uint32_t solicited_enable : 1; /* raise a solicited event at the target */
        uint32_t complete_enable  : 1; /* generate a local completion record */
        uint32_t inline_flag      : 1; /* copy payload into the WQE */
        uint32_t db_bypass        : 1;
        uint32_t udf              : 1;
        uint32_t has_drv_ext      : 1;
        uint32_t reserved         : 22;
    } bs;
    uint32_t value;
} urma_jfs_wr_flag_t;

typedef union urma_jfr_wr_flag {
    struct {
        uint32_t complete_type : 1; /* URMA_COMPLETE_TYPE_JFC / URMA_COMPLETE_TYPE_CF */
        uint32_t reserved      : 31;
    } bs;
    uint32_t value;
} urma_jfr_wr_flag_t;

typedef struct urma_rw_wr {
    urma_sg_t src;        /* write: local buffers; read: remote buffer (one SGE) */
    urma_sg_t dst;        /* write: remote buffer (one SGE); read: local buffers */
    uint8_t target_hint;  /* member selector when the target is a jetty group */
    uint64_t notify_data; /* immediate / notify data, host byte order */
} urma_rw_wr_t;

typedef struct urma_send_wr {
    urma_sg_t src;
    uint8_t target_hint;     /* member selector when the target is a jetty group */
    uint64_t imm_data;       /* host byte order */
    urma_target_seg_t *tseg; /* segment to invalidate, for SEND_INVALIDATE */
} urma_send_wr_t;

/* For operand lengths above 8 bytes the *_addr members hold buffer addresses. */
typedef struct urma_cas_wr {
    urma_sge_t *dst; /* remote target; len is the operand size */
    urma_sge_t *src; /* local buffer receiving the old remote value */
    union {
        uint64_t cmp_data;
        uint64_t cmp_addr;
    };
    union {
        uint64_t swap_data;
        uint64_t swap_addr;
    };
} urma_cas_wr_t;

typedef struct urma_faa_wr {
    urma_sge_t *dst; /* remote target; len is the operand size */
    urma_sge_t *src; /* local buffer receiving the old remote value */
    union {
        uint64_t operand;
        uint64_t operand_addr;
    };
} urma_faa_wr_t;

typedef struct urma_jfs_wr {
    urma_opcode_t opcode;
    urma_jfs_wr_flag_t flag;
    urma_target_jetty_t *tjetty;
    uint64_t user_ctx; /* echoed back in the completion record */
    union {
        urma_rw_wr_t rw;
        urma_send_wr_t send;
        urma_cas_wr_t cas;
        urma_faa_wr_t faa;
    };
    struct urma_jfs_wr *next; /* NULL-terminated chain */
} urma_jfs_wr_t;

typedef struct urma_jfr_wr {
    urma_sg_t src;     /* receive buffers */
    uint64_t user_ctx; /* echoed back in the completion record */
    struct urma_jfr_wr *next;
} urma_jfr_wr_t;

/* ========================================================================= */
/* Completion records and async events                                       */
/* ========================================================================= */

typedef union urma_cr_flag {
    struct {
        uint8_t s_r            : 1; /* 0: send side, 1: receive side */
        uint8_t jetty          : 1; /* 0: local_id is a JFS/JFR, 1: a jetty */
        uint8_t suspend_done   : 1;
        uint8_t flush_err_done : 1;
        uint8_t reserved       : 4;
    } bs;
    uint8_t value;
} urma_cr_flag_t;

typedef struct urma_cr_token {
    uint32_t token_id;
    urma_token_t token_value;
} urma_cr_token_t;

typedef struct urma_cr {
    urma_cr_status_t status;
    uint64_t user_ctx;
    urma_cr_opcode_t opcode; /* receive side only */
    urma_cr_flag_t flag;
    uint32_t completion_len; /* bytes transferred */
    uint32_t local_id;
    urma_jetty_id_t remote_id; /* receive side only: sender jetty/JFS */
    union {
        uint64_t imm_data;             /* receive side, *_IMM opcodes */
        urma_cr_token_t invalid_token; /* receive side, SEND_WITH_INV */
    };
    uint32_t tpn;        /* TP or TP-group number */
    uintptr_t user_data;
} urma_cr_t;

typedef struct urma_async_event {
    const urma_context_t *urma_ctx;
    union { /* object the event refers to, chosen by event_type */
        urma_jfc_t *jfc;
        urma_jfs_t *jfs;
        urma_jfr_t *jfr;
        urma_jetty_t *jetty;
        urma_jetty_grp_t *jetty_grp;
        uint32_t port_id;
        uint32_t eid_idx;
        urma_target_seg_t *tseg; /* URMA_EVENT_SEG_INVALID (ours) */
        urma_target_jetty_t *tjetty; /* URMA_EVENT_TP_ERR (ours) */
    } element;
    urma_async_event_type_t event_type;
    void *priv;
} urma_async_event_t;

/* ========================================================================= */
/* URMA regions (named groups of segments)                                   */
/* ========================================================================= */

typedef union urma_ur_attr {
    struct {
        uint32_t reserved : 32;
    } bs;
    uint32_t value;
} urma_ur_attr_t;

typedef union urma_import_ur_flag {
    struct {
        uint32_t mapping  : 2; /* not mapped / mapped as MVA / mapped as DSVA */
        uint32_t reserved : 30;
    } bs;
    uint32_t value;
} urma_import_ur_flag_t;

#define UR_NAME_MAX_LEN          256
#define JFR_NAME_MAX_LEN         256
#define URMA_MAX_SEGS_PER_UR_OPT 64 /* segments per attach/detach call */

/* Region creation parameters. */
typedef struct urma_ur {
    char name[UR_NAME_MAX_LEN];
    uint64_t size;
    urma_ur_attr_t attr;
    uint64_t token;
    uint64_t user_ctx;
} urma_ur_t;

/* Result of importing a region. */
typedef struct urma_target_ur {
    char name[UR_NAME_MAX_LEN];
    uint64_t size;
    urma_import_ur_flag_t flag;
    urma_target_seg_t **tseg_list;
    uint32_t cnt;
} urma_target_ur_t;

typedef struct urma_seg_info {
    urma_seg_t seg;
    uint32_t idx_in_ur;
} urma_seg_info_t;

/* Result of looking up a region; cnt entries follow in seg_list. */
typedef struct urma_ur_info {
    char name[UR_NAME_MAX_LEN];
    uint64_t size; /* bytes */
    urma_ur_attr_t attr;
    uint32_t cnt;
    urma_seg_info_t seg_list[0];
} urma_ur_info_t;

typedef struct urma_jfr_info {
    char name[JFR_NAME_MAX_LEN];
    urma_eid_t eid;
    uint32_t uasid;
    uint32_t id;
} urma_jfr_info_t;

/* ========================================================================= */
/* Transport path (TP) control, user TP and control-plane APIs               */
/* ========================================================================= */

typedef union urma_tp_cfg_flag {
    struct {
        uint32_t target     : 1; /* set on the target side of the TP */
        uint32_t loopback   : 1;
        uint32_t dca_enable : 1;
        uint32_t bonding    : 1; /* port chosen by hash over the bonding group, not by the TP */
        uint32_t reserved   : 28;
    } bs;
    uint32_t value;
} urma_tp_cfg_flag_t;

typedef struct urma_tp_cfg {
    urma_tp_cfg_flag_t flag;
    urma_transport_mode_t trans_mode;
    uint8_t retry_num;
    uint8_t retry_factor; /* scales the retry time slot */
    uint8_t ack_timeout;
    uint8_t dscp;
    uint32_t oor_cnt;     /* out-of-order window, packets */
} urma_tp_cfg_t;

/* Selects which urma_tp_attr_t fields urma_modify_tp() applies. */
typedef union urma_tp_attr_mask {
    struct {
        uint32_t flag               : 1;
        uint32_t peer_tpn           : 1;
        uint32_t state              : 1;
        uint32_t tx_psn             : 1;
        uint32_t rx_psn             : 1; /* on restore, sets both PSNs */
        uint32_t mtu                : 1;
        uint32_t cc_pattern_idx     : 1;
        uint32_t oos_cnt            : 1;
        uint32_t local_net_addr_idx : 1;
        uint32_t peer_net_addr      : 1;
        uint32_t data_udp_start     : 1;
        uint32_t ack_udp_start      : 1;
        uint32_t udp_range          : 1;
        uint32_t hop_limit          : 1;
        uint32_t flow_label         : 1;
        uint32_t port_id            : 1;
        uint32_t mn                 : 1;
        uint32_t peer_trans_type    : 1;
        uint32_t reserved           : 14;
    } bs;
    uint32_t value;
} urma_tp_attr_mask_t;

typedef union urma_tp_mod_flag {
    struct {
        uint32_t oor_en   : 1; /* out-of-order receive */
        uint32_t sr_en    : 1; /* selective retransmission */
        uint32_t cc_en    : 1; /* congestion control */
        uint32_t cc_alg   : 4; /* urma_tp_cc_alg_t */
        uint32_t spray_en : 1; /* UDP source-port spraying */
        uint32_t clan     : 1;
        uint32_t reserved : 23;
    } bs;
    uint32_t value;
} urma_tp_mod_flag_t;

typedef enum urma_tp_state {
    URMA_TP_STATE_RESET = 0,
    URMA_TP_STATE_PASSIVE,
    URMA_TP_STATE_ACTIVE,
    URMA_TP_STATE_BRAKE,
    URMA_TP_STATE_ERROR
} urma_tp_state_t;

typedef struct urma_net_addr {
    sa_family_t sin_family; /* AF_INET or AF_INET6 */
    union {
        struct in_addr in4;
        struct in6_addr in6;
    };
    uint64_t vlan;
    uint8_t mac[URMA_MAC_BYTES];
    uint32_t prefix_len;
} urma_net_addr_t;

typedef struct urma_net_addr_info {
    urma_net_addr_t netaddr;
    uint32_t index;
} urma_net_addr_info_t;

typedef struct urma_tp_attr {
    urma_tp_mod_flag_t flag;
    uint32_t peer_tpn;
    urma_tp_state_t state;
    uint32_t tx_psn;
    uint32_t rx_psn;
    urma_mtu_t mtu;
    uint8_t cc_pattern_idx;
    uint32_t oos_cnt; /* outstanding packets */
    uint32_t local_net_addr_idx;
    urma_net_addr_t peer_net_addr;
    uint16_t data_udp_start;
    uint16_t ack_udp_start;
    uint8_t udp_range;
    uint8_t hop_limit;
    uint32_t flow_label;
    uint8_t port_id;
    uint8_t mn; /* 0 .. 15; 0 means one message per packet */
    urma_transport_type_t peer_trans_type;
} urma_tp_attr_t;

typedef union urma_get_tp_cfg_flag {
    struct {
        uint32_t ctp             : 1;
        uint32_t rtp             : 1;
        uint32_t utp             : 1;
        uint32_t uboe            : 1;
        uint32_t pre_defined     : 1;
        uint32_t dynamic_defined : 1;
        uint32_t udp             : 5;
        uint32_t group_id        : 15;
        uint32_t reserved        : 6;
    } bs;
    uint32_t value;
} urma_get_tp_cfg_flag_t;

typedef struct urma_get_tp_cfg {
    urma_get_tp_cfg_flag_t flag;
    urma_transport_mode_t trans_mode;
    urma_eid_t local_eid;
    urma_eid_t peer_eid;
} urma_get_tp_cfg_t;

typedef struct urma_tp_info {
    uint64_t tp_handle;
} urma_tp_info_t;

typedef struct urma_active_tp_attr {
    uint32_t tx_psn;
    uint32_t rx_psn;
    uint64_t reserved;
} urma_active_tp_attr_t;

/* TP pairing data passed to the *_ex import/bind calls. */
typedef struct urma_active_tp_cfg {
    uint64_t tp_handle;
    uint64_t peer_tp_handle;
    uint64_t tag;
    urma_active_tp_attr_t tp_attr;
} urma_active_tp_cfg_t;

typedef struct urma_active_tp_cfg urma_import_jetty_ex_cfg_t;
typedef struct urma_active_tp_cfg urma_import_jfr_ex_cfg_t;
typedef struct urma_active_tp_cfg urma_bind_jetty_ex_cfg_t;

/* Wire-format TP attribute block for urma_{set,get}_tp_attr(); byte packed. */
#pragma pack(push, 1)
typedef struct urma_tp_attr_value {
    uint8_t retry_times_init : 3;
    uint8_t at               : 5;
    uint8_t sip[URMA_IP_ADDR_BYTES];
    uint8_t dip[URMA_IP_ADDR_BYTES];
    uint8_t sma[URMA_MAC_BYTES];
    uint8_t dma[URMA_MAC_BYTES];
    uint16_t vlan_id : 12;
    uint8_t vlan_en  : 1;
    uint8_t dscp     : 6;
    uint8_t at_times : 5;
    uint8_t sl       : 4;
    uint8_t ttl;
    uint16_t ack_udp_srcport;
    uint16_t data_udp_srcport;
    uint8_t udp_srcport_range : 4;
    uint8_t spray_en          : 1;
    uint8_t udp_global_en     : 1;
    uint8_t reserve_0         : 2;
    uint16_t sl_bitmap;
    uint8_t dscp_config_mode : 1;
    uint8_t reserve_1        : 7;
    uint8_t reserved[70];
} urma_tp_attr_value_t;
#pragma pack(pop)

/* ========================================================================= */
/* Callbacks and logging                                                     */
/* ========================================================================= */

typedef void (*urma_async_event_cb)(urma_async_event_t *event, void *cb_arg);

/* Completion callback of urma_advise_jfr_async(); advise_result is the final status. */
typedef void (*urma_advise_async_cb_func)(urma_status_t advise_result, void *cb_arg);

/* Same numbering as syslog priorities. */
typedef enum urma_vlog_level {
    URMA_VLOG_LEVEL_EMERG   = 0,
    URMA_VLOG_LEVEL_ALERT   = 1,
    URMA_VLOG_LEVEL_CRIT    = 2,
    URMA_VLOG_LEVEL_ERR     = 3,
    URMA_VLOG_LEVEL_WARNING = 4,
    URMA_VLOG_LEVEL_NOTICE  = 5,
    URMA_VLOG_LEVEL_INFO    = 6,
    URMA_VLOG_LEVEL_DEBUG   = 7,
    URMA_VLOG_LEVEL_MAX     = 8,
} urma_vlog_level_t;

typedef void (*urma_log_cb_t)(int level, char *message);

/* Log sink that also receives the source location of the message. */
typedef void (*urma_loc_log_cb)(int level, const char *file, const char *function, int line, char *message);

#ifdef __cplusplus
}
#endif

#endif /* URMA_TYPES_H */
