/* SPDX-License-Identifier: GPL-2.0-only WITH Linux-syscall-note */
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * The guide's limits that roub.ko (kernel verbs) and libroub (the
 * libibverbs provider, user verbs) both enforce; the verbs <-> URMA
 * tables they share are in roub_tables.h.
 */
#ifndef _ROUB_MAP_H
#define _ROUB_MAP_H

/* The guide's limits (7.1, "规格与约束"): SGEs and sizes. */
#define ROUB_MAX_SEND_SGE	8
#define ROUB_MAX_RECV_SGE	1
#define ROUB_MAX_SEND_BYTES	0x10000U
#define ROUB_MAX_RDMA_BYTES	0x80000000U

#endif /* _ROUB_MAP_H */
