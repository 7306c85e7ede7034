// SPDX-License-Identifier: MIT
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * For libroub_abi_test: stands in for libibverbs' verbs_register_driver_34
 * (the executable's definition, versioned IBVERBS_PRIVATE_34, comes before
 * libibverbs' in the lookup scope), so the test sees the verbs_device_ops
 * that libroub hands libibverbs, read through libroub's own declarations
 * of rdma-core 44's private ABI.
 */
#include <fnmatch.h>
#include <string.h>

#include "rdma_core_abi.h"
#include "libroub_probe.h"

static const struct verbs_device_ops *registered;
static int registrations;

void verbs_register_driver_34(const struct verbs_device_ops *ops)
{
	registered = ops;
	registrations++;
}

int probe_registrations(void)
{
	return registrations;
}

const char *probe_name(void)
{
	return registered ? registered->name : NULL;
}

void probe_abi(unsigned int *min, unsigned int *max)
{
	*min = registered->match_min_abi_version;
	*max = registered->match_max_abi_version;
}

int probe_has_ops(void)
{
	return registered->alloc_device && registered->uninit_device &&
	       registered->alloc_context && !registered->match_device;
}

/* Whether libibverbs' name match (init.c, match_name) takes IBDEV. */
int probe_matches(const char *ibdev)
{
	const struct verbs_match_ent *e;
	char ma[128];

	strcpy(ma, "rdma_device:N");
	strncat(ma, ibdev, sizeof(ma) - strlen(ma) - 1);
	for (e = registered->match_table; e->kind != VERBS_MATCH_SENTINEL; e++)
		if (e->kind == VERBS_MATCH_MODALIAS &&
		    fnmatch(e->u.modalias, ma, 0) == 0)
			return 1;
	return 0;
}
