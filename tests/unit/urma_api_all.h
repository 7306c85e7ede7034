/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The UB/URMA stack authors */
#ifndef URMA_API_ALL_H
#define URMA_API_ALL_H

#ifdef __cplusplus
extern "C" {
#endif

/* Calls every function of urma_api.h (urma_api_all.c); returns NULL, or the
 * first expectation that did not hold. */
const char *urma_api_call_all(void);

#ifdef __cplusplus
}
#endif

#endif
