/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The UB/URMA stack authors */
/* URMA constants: flag values, opcodes, status codes, completion and event enums. */

#ifndef URMA_OPCODE_H
#define URMA_OPCODE_H

#include <errno.h>

/* ------------------------------------------------------------------------- */
/* Values for single-field bitfields in flag/attribute unions                */
/* ------------------------------------------------------------------------- */

/* Token policy, stored in the 3-bit token_policy fields. */
#define URMA_TOKEN_NONE          0
#define URMA_TOKEN_PLAIN_TEXT    1
#define URMA_TOKEN_SIGNED        2
#define URMA_TOKEN_ALL_ENCRYPTED 3
#define URMA_TOKEN_RESERVED      4

/* Whether the token id given in a segment config is meaningful. */
#define URMA_TOKEN_ID_INVALID 0
#define URMA_TOKEN_ID_VALID   1

/* Segment backed by a DSVA mapping or not. */
#define URMA_DSVA_DISABLE 0
#define URMA_DSVA_ENABLE  1

/* Segment may be cached by more than one host or not. */
#define URMA_NON_CACHEABLE 0
#define URMA_CACHEABLE     1

/*
 * Segment access bits. LOCAL_ONLY grants every local right and denies all
 * remote access; without it, local access is unrestricted and remote access
 * is the OR of READ / WRITE / ATOMIC.
 */
#define URMA_ACCESS_LOCAL_ONLY (0x1 << 0)
#define URMA_ACCESS_READ       (0x1 << 1)
#define URMA_ACCESS_WRITE      (0x1 << 2)
#define URMA_ACCESS_ATOMIC     (0x1 << 3)

/* Where the physical memory of a segment lives. */
#define URMA_LOCAL_MEMORY  0
#define URMA_REMOTE_MEMORY 1

/* Whether an imported segment is mapped into this process. */
#define URMA_SEG_NOMAP  0
#define URMA_SEG_MAPPED 1

/* Kind of address carried in a work request. */
#define URMA_ADDR_TYPE_MVA  0
#define URMA_ADDR_TYPE_UBVA 1

/* Report a completion to the initiator or not. */
#define URMA_COMPLETE_ENABLE  1
#define URMA_COMPLETE_DISABLE 0

/* How the initiator learns about completion: JFC record or completion flag in memory. */
#define URMA_COMPLETE_TYPE_JFC 0
#define URMA_COMPLETE_TYPE_CF  1

/* Ordering dependency between consecutive commands. */
#define URMA_DEPENDENCY_NONE  0 /* independent */
#define URMA_DEPENDENCY_FIRST 1 /* later commands wait on this one's result */
#define URMA_DEPENDENCY_DELAY 2 /* run only once the command it depends on succeeded */

/* Report a completion to the target or not. */
#define URMA_NOTIFY_DISABLE 0
#define URMA_NOTIFY_ENABLE  1

/* How the target learns about completion: JFC record or remote address. */
#define URMA_NOTIFY_TYPE_JFC 0
#define URMA_NOTIFY_TYPE_RVA 1

/* Payload referenced by address (disable) or carried inside the WQE (enable). */
#define URMA_INLINE_DISABLE 0
#define URMA_INLINE_ENABLE  1

/* Raise a solicited event on the receiving JFC or not. */
#define URMA_SOLICITED_DISABLE 0
#define URMA_SOLICITED_ENABLE  1

/* Fence against earlier work requests or not. */
#define URMA_FENCE_DISABLE 0
#define URMA_FENCE_ENABLE  1

/* Data layout: strided (regular) or scatter/gather (irregular). */
#define URMA_REGULAR   1
#define URMA_IRREGULAR 0

#define URMA_NO_TAG_MATCHING   0
#define URMA_WITH_TAG_MATCHING 1

#define URMA_NONPOST_LS 0
#define URMA_POST_LS    1

/* Jetty owns its JFR, or uses a shared one. */
#define URMA_NO_SHARE_JFR 0
#define URMA_SHARE_JFR    1

/* Suggested defaults for queue configuration. */
#define URMA_TYPICAL_RNR_RETRY     7  /* jfs_cfg.rnr_retry */
#define URMA_TYPICAL_ERR_TIMEOUT   17 /* jfs_cfg.err_timeout */
#define URMA_TYPICAL_MIN_RNR_TIMER 12 /* jfr_cfg.min_rnr_timer */
#define URMA_MAX_PRIORITY          15 /* highest jfs_cfg.priority */

/* ------------------------------------------------------------------------- */
/* Work request opcodes and ordering                                         */
/* ------------------------------------------------------------------------- */

/* Placement ordering of a WR relative to others (urma_jfs_wr_flag_t.place_order). */
typedef enum urma_place_order {
    URMA_NO_ORDER = 0,
    URMA_RELAX_ORDER,
    URMA_STRONG_ORDER
} urma_place_order_t;

typedef enum urma_opcode {
    URMA_OPC_WRITE           = 0x00,
    URMA_OPC_WRITE_IMM       = 0x01,
    URMA_OPC_WRITE_NOTIFY    = 0x02, /* no completion result is returned for this one */
    URMA_OPC_READ            = 0x10,
    URMA_OPC_CAS             = 0x20,
    URMA_OPC_SWAP            = 0x21,
    URMA_OPC_FADD            = 0x22,
    URMA_OPC_FSUB            = 0x23,
    URMA_OPC_FAND            = 0x24,
    URMA_OPC_FOR             = 0x25,
    URMA_OPC_FXOR            = 0x26,
    URMA_OPC_SEND            = 0x40, /* sends target a JFR/jetty id */
    URMA_OPC_SEND_IMM        = 0x41,
    URMA_OPC_SEND_INVALIDATE = 0x42, /* also carries the token id to invalidate */
    URMA_OPC_NOP             = 0x51,
    URMA_OPC_WRITE_ATOMIC    = 0x60, /* vendor extension */
    URMA_OPC_FLUSH_DMA       = 0x80,
    URMA_OPC_LAST
} urma_opcode_t;

/* ------------------------------------------------------------------------- */
/* Status codes: 0 on success, positive errno values otherwise               */
/* ------------------------------------------------------------------------- */

typedef int urma_status_t;

#define URMA_SUCCESS     0
#define URMA_EAGAIN      EAGAIN
#define URMA_ENOMEM      ENOMEM
#define URMA_ENOPERM     EPERM
#define URMA_ETIMEOUT    ETIMEDOUT
#define URMA_EINVAL      EINVAL
#define URMA_EEXIST      EEXIST
#define URMA_EINPROGRESS EINPROGRESS
#define URMA_FAIL        0x1000 /* generic failure outside the errno range */

/* ------------------------------------------------------------------------- */
/* Completion records                                                        */
/* ------------------------------------------------------------------------- */

typedef enum urma_cr_status {
    URMA_CR_SUCCESS = 0,
    URMA_CR_UNSUPPORTED_OPCODE_ERR,
    URMA_CR_LOC_LEN_ERR,             /* local buffer too small / data too long */
    URMA_CR_LOC_OPERATION_ERR,
    URMA_CR_LOC_ACCESS_ERR,          /* local memory could not be accessed */
    URMA_CR_REM_RESP_LEN_ERR,        /* remote response length mismatch */
    URMA_CR_REM_UNSUPPORTED_REQ_ERR,
    URMA_CR_REM_OPERATION_ERR,       /* target jetty could not perform the request */
    URMA_CR_REM_ACCESS_ABORT_ERR,    /* target memory access failed or was aborted */
    URMA_CR_ACK_TIMEOUT_ERR,         /* retransmission limit reached */
    URMA_CR_RNR_RETRY_CNT_EXC_ERR,   /* receiver-not-ready retry limit reached */
    URMA_CR_WR_FLUSH_ERR,            /* queue in error state; WR already seen by hardware */
    URMA_CR_WR_SUSPEND_DONE,         /* synthetic record, user_ctx is not meaningful */
    URMA_CR_WR_FLUSH_ERR_DONE,       /* synthetic record, user_ctx is not meaningful */
    URMA_CR_WR_UNHANDLED,            /* returned by flush; WR never reached hardware */
    URMA_CR_LOC_DATA_POISON,
    URMA_CR_REM_DATA_POISON,
} urma_cr_status_t;

/* Opcode reported in receive-side completion records. */
typedef enum urma_cr_opcode {
    URMA_CR_OPC_SEND = 0x00,
    URMA_CR_OPC_SEND_WITH_IMM,
    URMA_CR_OPC_SEND_WITH_INV,
    URMA_CR_OPC_WRITE_WITH_IMM,
    URMA_CR_OPC_FLUSH_WRITE,
} urma_cr_opcode_t;

/* ------------------------------------------------------------------------- */
/* Asynchronous events and object states                                     */
/* ------------------------------------------------------------------------- */

typedef enum urma_async_event_type {
    URMA_EVENT_JFC_ERR,
    URMA_EVENT_JFS_ERR,
    URMA_EVENT_JFR_ERR,
    URMA_EVENT_JFR_LIMIT,
    URMA_EVENT_JETTY_ERR,
    URMA_EVENT_JETTY_LIMIT,
    URMA_EVENT_JETTY_GRP_ERR,
    URMA_EVENT_PORT_ACTIVE,
    URMA_EVENT_PORT_DOWN,
    URMA_EVENT_DEV_FATAL,
    URMA_EVENT_EID_CHANGE, /* device EID table was changed by management */
    URMA_EVENT_ELR_ERR,    /* entity-level error */
    URMA_EVENT_ELR_DONE,   /* entity-level flush finished */
    /* Not UMDK's: remote access to a registered segment ended (the device
       refused too many remote accesses to it: sysfs access_fail/threshold);
       element.tseg names it, NULL if it was unregistered meanwhile. */
    URMA_EVENT_SEG_INVALID,
    /* Not UMDK's (its kernel's UBCORE_EVENT_TP_ERR): the TP an RM import
       travels on lost its peer (the peer's device, module, link or host is
       gone); element.tjetty names the import, NULL if it was unimported
       meanwhile. Its next post fails. */
    URMA_EVENT_TP_ERR
} urma_async_event_type_t;

typedef enum urma_jfc_state {
    URMA_JFC_STATE_INVALID = 0,
    URMA_JFC_STATE_VALID,
    URMA_JFC_STATE_ERROR
} urma_jfc_state_t;

typedef enum urma_jetty_state {
    URMA_JETTY_STATE_RESET = 0,
    URMA_JETTY_STATE_READY,
    URMA_JETTY_STATE_SUSPENDED,
    URMA_JETTY_STATE_ERROR
} urma_jetty_state_t;

typedef enum urma_jfr_state {
    URMA_JFR_STATE_RESET = 0,
    URMA_JFR_STATE_READY,
    URMA_JFR_STATE_ERROR
} urma_jfr_state_t;

/* ------------------------------------------------------------------------- */
/* Option ids for urma_{set,get}_{jfs,jfr,jfc,jetty}_opt()                   */
/* The high nibble selects the object kind.                                  */
/* ------------------------------------------------------------------------- */

#define URMA_JFS_DEPTH           0x0001
#define URMA_JFS_FLAG            0x0002
#define URMA_JFS_TRANS_MODE      0x0003
#define URMA_JFS_PRIORITY        0x0004
#define URMA_JFS_MAX_SGE         0x0005
#define URMA_JFS_MAX_RSGE        0x0006
#define URMA_JFS_MAX_INLINE_DATA 0x0007
#define URMA_JFS_RNR_RETRY       0x0008
#define URMA_JFS_ERR_TIMEOUT     0x0009
#define URMA_JFS_BIND_JFC        0x000a
#define URMA_JFS_USER_CTX        0x000b
#define URMA_JFS_SQE_BASE_ADDR   0x000c
#define URMA_JFS_ID              0x000d
#define URMA_JFS_DB_ADDR         0x000e
#define URMA_JFS_DB_STATUS       0x000f
#define URMA_JFS_PI              0x0010
#define URMA_JFS_PI_TYPE         0x0011
#define URMA_JFS_CI              0x0012
#define URMA_JFS_FULL_CTX        0x0013

#define URMA_JFR_DEPTH           0x1001
#define URMA_JFR_FLAG            0x1002
#define URMA_JFR_TRANS_MODE      0x1003
#define URMA_JFR_MAX_SGE         0x1004
#define URMA_JFR_MIN_RNR_TIMER   0x1005
#define URMA_JFR_BIND_JFC        0x1006
#define URMA_JFR_TOKEN_VALUE     0x1007
#define URMA_JFR_USER_CTX        0x1008
#define URMA_JFR_RQE_BASE_ADDR   0x1009
#define URMA_JFR_ID              0x100a
#define URMA_JFR_DB_ADDR         0x100b
#define URMA_JFR_DB_STATUS       0x100c
#define URMA_JFR_PI              0x100d
#define URMA_JFR_PI_TYPE         0x100e
#define URMA_JFR_CI              0x100f
#define URMA_JFR_FULL_CTX        0x1010

#define URMA_JFC_DEPTH           0x2001
#define URMA_JFC_CEQN            0x2002
#define URMA_JFC_FLAG            0x2003
#define URMA_JFC_BIND_JFCE       0x2004
#define URMA_JFC_USER_CTX        0x2005
#define URMA_JFC_CQE_BASE_ADDR   0x2006
#define URMA_JFC_ID              0x2007
#define URMA_JFC_DB_ADDR         0x2008
#define URMA_JFC_DB_STATUS       0x2009
#define URMA_JFC_PI              0x200a
#define URMA_JFC_PI_TYPE         0x200b
#define URMA_JFC_CI              0x200c
#define URMA_JFC_FULL_CTX        0x200d

#define URMA_JETTY_ID            0x3001
#define URMA_JETTY_FLAG          0x3002
#define URMA_JETTY_BIND_JFR      0x3003
#define URMA_JETTY_BIND_RX_JFC   0x3004
#define URMA_JETTY_BIND_JTG      0x3005
#define URMA_JETTY_USER_CTX      0x3006
#define URMA_JETTY_FULL_CTX      0x3007

#endif /* URMA_OPCODE_H */
