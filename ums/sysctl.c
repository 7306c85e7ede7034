// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * net.ums.* of each network namespace, with the UMS API Guide's ranges:
 * autocorking_size [1, 1073741824], snd_buf and rcv_buf [16384, 2^31).
 * snd_buf and rcv_buf are the initial SO_SNDBUF and SO_RCVBUF of a UMS
 * socket, hence the sizes of its buffers; autocorking_size bounds the
 * bytes a connection leaves corked in its send buffer while a CDC is on
 * its way (with half the send buffer: data.c).
 */
#include <linux/slab.h>
#include <linux/sysctl.h>
#include <net/net_namespace.h>

#include "ums.h"

static unsigned int ums_autocork_min = 1;
static unsigned int ums_autocork_max = 1U << 30;
static unsigned int ums_buf_min = 16384;
static unsigned int ums_buf_max = INT_MAX;

static const struct ctl_table ums_sysctl_template[] = {
	{
		.procname	= "autocorking_size",
		.maxlen		= sizeof(unsigned int),
		.mode		= 0644,
		.proc_handler	= proc_douintvec_minmax,
		.extra1		= &ums_autocork_min,
		.extra2		= &ums_autocork_max,
	},
	{
		.procname	= "snd_buf",
		.maxlen		= sizeof(unsigned int),
		.mode		= 0644,
		.proc_handler	= proc_douintvec_minmax,
		.extra1		= &ums_buf_min,
		.extra2		= &ums_buf_max,
	},
	{
		.procname	= "rcv_buf",
		.maxlen		= sizeof(unsigned int),
		.mode		= 0644,
		.proc_handler	= proc_douintvec_minmax,
		.extra1		= &ums_buf_min,
		.extra2		= &ums_buf_max,
	},
	{ }
};

/**
 * ums_sysctl_init_net() - the defaults and the table of a namespace
 * @net: the namespace
 *
 * Defaults, UMDK's: 1 MiB buffers, autocorking at half the send buffer.
 *
 * Return: 0 or -ENOMEM.
 */
int ums_sysctl_init_net(struct net *net)
{
	struct ums_net *un = ums_net(net);
	struct ctl_table *table;

	un->snd_buf = 1 << 20;
	un->rcv_buf = 1 << 20;
	un->autocorking_size = un->snd_buf / 2;
	table = kmemdup(ums_sysctl_template, sizeof(ums_sysctl_template),
			GFP_KERNEL);
	if (!table)
		return -ENOMEM;
	table[0].data = &un->autocorking_size;
	table[1].data = &un->snd_buf;
	table[2].data = &un->rcv_buf;
	un->sysctl_hdr = register_net_sysctl(net, "net/ums", table);
	if (!un->sysctl_hdr) {
		kfree(table);
		return -ENOMEM;
	}
	return 0;
}

/**
 * ums_sysctl_exit_net() - remove the table of a namespace
 * @net: the namespace
 */
void ums_sysctl_exit_net(struct net *net)
{
	struct ums_net *un = ums_net(net);
	struct ctl_table *table = un->sysctl_hdr->ctl_table_arg;

	unregister_net_sysctl_table(un->sysctl_hdr);
	kfree(table);
}
