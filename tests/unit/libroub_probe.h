/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The UB/URMA stack authors */
#ifndef LIBROUB_PROBE_H
#define LIBROUB_PROBE_H

#ifdef __cplusplus
extern "C" {
#endif

int probe_registrations(void);
const char *probe_name(void);
void probe_abi(unsigned int *min, unsigned int *max);
int probe_has_ops(void);
int probe_matches(const char *ibdev);

#ifdef __cplusplus
}
#endif

#endif
