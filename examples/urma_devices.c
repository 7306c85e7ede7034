// SPDX-License-Identifier: MIT
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * urma_devices: list the UB devices with their EIDs, port and capabilities,
 * through liburma's C API only. Written in C to show that the API is plain C.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "urma_api.h"

static const char *port_state_name(urma_port_state_t s)
{
	static const char *const names[] = { "NOP", "DOWN", "INIT", "ARMED", "ACTIVE",
					     "ACTIVE_DEFER" };

	return (unsigned int)s < sizeof(names) / sizeof(names[0]) ? names[s] : "?";
}

static void print_eids(urma_device_t *dev)
{
	char text[INET6_ADDRSTRLEN];
	urma_eid_info_t *eids;
	uint32_t cnt = 0, i;

	eids = urma_get_eid_list(dev, &cnt);
	printf("  EIDs (%u):\n", cnt);
	for (i = 0; i < cnt; i++) {
		inet_ntop(AF_INET6, eids[i].eid.raw, text, sizeof(text));
		printf("    [%u] %s\n", eids[i].eid_index, text);
	}
	urma_free_eid_list(eids);
}

static int print_device(urma_device_t *dev)
{
	urma_device_attr_t attr;
	const urma_device_cap_t *cap = &attr.dev_cap;

	if (urma_query_device(dev, &attr) != URMA_SUCCESS) {
		fprintf(stderr, "urma_query_device(%s) failed\n", dev->name);
		return 1;
	}
	printf("%s (%s)\n", dev->name, dev->path);
	printf("  port 0: %s, active MTU %u bytes\n",
	       port_state_name(attr.port_attr[0].state),
	       128u << attr.port_attr[0].active_mtu);
	print_eids(dev);
	printf("  max_jfc %u, max_jfs %u, max_jfr %u, max_jetty %u\n", cap->max_jfc,
	       cap->max_jfs, cap->max_jfr, cap->max_jetty);
	printf("  depth: jfc %u, jfs %u, jfr %u; sge: jfs %u, jfr %u, remote %u\n",
	       cap->max_jfc_depth, cap->max_jfs_depth, cap->max_jfr_depth,
	       cap->max_jfs_sge, cap->max_jfr_sge, cap->max_jfs_rsge);
	printf("  max_msg_size %llu, trans_mode 0x%x, atomic_feature 0x%x\n",
	       (unsigned long long)cap->max_msg_size, cap->trans_mode,
	       cap->atomic_feat.value);
	printf("  reserved jetty IDs %u..%u\n", attr.reserved_jetty_id_min,
	       attr.reserved_jetty_id_max);
	return 0;
}

int main(int argc, char **argv)
{
	urma_device_t **list;
	int n = 0, i, ret = 0;

	if (argc > 1) {
		printf("usage: %s\nLists the UB devices, their EIDs and capabilities.\n",
		       argv[0]);
		return strcmp(argv[1], "--help") && strcmp(argv[1], "-h") ? 2 : 0;
	}
	if (urma_init(NULL) != URMA_SUCCESS) {
		fprintf(stderr, "urma_init failed (is uburma loaded?)\n");
		return 1;
	}
	list = urma_get_device_list(&n);
	if (!list) {
		fprintf(stderr, "no UB devices: %s\n", strerror(errno));
		urma_uninit();
		return 1;
	}
	for (i = 0; i < n; i++)
		ret |= print_device(list[i]);
	urma_free_device_list(list);
	urma_uninit();
	return ret;
}
