// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * The driver's debugfs directory, /sys/kernel/debug/udma/ (root): what a
 * transfer that stopped moving waits for, on every device of every
 * namespace. rtp: each TP as its transport sees it (udma_rtp_show());
 * sqs: each send queue as its engine sees it (udma_sq_show());
 * fail_rtp_response/: a fault point (uboe_net.c). Without
 * debugfs there are no files and nothing else changes.
 */
#include <linux/debugfs.h>
#include <linux/seq_file.h>

#include "udma.h"

static struct dentry *udma_debugfs_dir;

static int udma_rtp_state_show(struct seq_file *m, void *v)
{
	udma_dev_show_each(m, udma_rtp_show);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(udma_rtp_state);

static int udma_sq_state_show(struct seq_file *m, void *v)
{
	udma_dev_show_each(m, udma_sq_show);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(udma_sq_state);

/**
 * udma_debugfs_init() - create /sys/kernel/debug/udma/
 */
void udma_debugfs_init(void)
{
	udma_debugfs_dir = debugfs_create_dir("udma", NULL);
	debugfs_create_file("rtp", 0400, udma_debugfs_dir, NULL,
			    &udma_rtp_state_fops);
	debugfs_create_file("sqs", 0400, udma_debugfs_dir, NULL,
			    &udma_sq_state_fops);
	udma_uboe_fault_init(udma_debugfs_dir);
}

/**
 * udma_debugfs_exit() - remove it; reads in progress finish first
 */
void udma_debugfs_exit(void)
{
	debugfs_remove(udma_debugfs_dir);
}
