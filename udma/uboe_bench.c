// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * What UBoE's two integrity checks cost per byte on this machine, in this
 * kernel: /sys/kernel/debug/udma_uboe_integrity, read as root, times the
 * UDP checksum as the stack computes it in software (csum_partial(), what
 * a sender does for a NIC without checksum offload, and a receiver for one
 * without CHECKSUM_COMPLETE) and the ICRC (uboe_icrc(), CRC32C) over
 * packet-sized buffers, and prints one line per size. docs/uboe-wire.md
 * has the figures and the choice they led to; tests/guest/bench-integrity.sh
 * takes them in the test guest.
 */
#include <linux/debugfs.h>
#include <linux/kernel.h>
#include <linux/ktime.h>
#include <linux/mm.h>
#include <linux/random.h>
#include <linux/sched.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <net/checksum.h>

#include "udma.h"

#define UDMA_BENCH_BUF		SZ_64K
/* bytes checked per size and algorithm: enough for a stable rate */
#define UDMA_BENCH_BYTES	SZ_8M

static struct dentry *udma_bench_file;

/* Nanoseconds for @iters passes of @icrc ? CRC32C : checksum over @len. */
static u64 udma_bench_one(const u8 *buf, u32 len, u32 iters, bool icrc)
{
	u32 sink = 0, i;
	u64 t0, t1;

	t0 = ktime_get_ns();
	for (i = 0; i < iters; i++) {
		if (icrc)
			sink += uboe_icrc(0, buf, len);
		else
			sink += (__force u32)csum_partial(buf, len, 0);
	}
	t1 = ktime_get_ns();
	/* keep the loop: the compiler cannot drop what is used */
	barrier_data(&sink);
	return t1 - t0;
}

static int udma_bench_show(struct seq_file *m, void *v)
{
	static const u32 sizes[] = { 64, 256, 1024, 4096, 8192, 65000 };
	unsigned int i;
	u8 *buf;

	buf = kvmalloc(UDMA_BENCH_BUF, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	get_random_bytes(buf, UDMA_BENCH_BUF);
	seq_puts(m, "# bytes: packet size; ns: per packet; ps/B: picoseconds per byte\n");
	seq_puts(m, "# bytes  udp_csum_ns  udp_csum_ps/B  icrc_ns  icrc_ps/B\n");
	for (i = 0; i < ARRAY_SIZE(sizes); i++) {
		u32 len = sizes[i], iters = max_t(u32, 16, UDMA_BENCH_BYTES / len);
		u64 total = (u64)iters * len, csum, crc;

		csum = udma_bench_one(buf, len, iters, false);
		cond_resched();
		crc = udma_bench_one(buf, len, iters, true);
		cond_resched();
		seq_printf(m, "%7u  %11llu  %13llu  %7llu  %9llu\n", len,
			   div_u64(csum, iters), div64_u64(csum * 1000, total),
			   div_u64(crc, iters), div64_u64(crc * 1000, total));
	}
	kvfree(buf);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(udma_bench);

/**
 * udma_uboe_bench_init() - create the measurement's debugfs file
 *
 * Without debugfs there is no file and nothing else changes.
 */
void udma_uboe_bench_init(void)
{
	udma_bench_file = debugfs_create_file("udma_uboe_integrity", 0400, NULL,
					      NULL, &udma_bench_fops);
}

/**
 * udma_uboe_bench_exit() - remove it; a read in progress finishes first
 */
void udma_uboe_bench_exit(void)
{
	debugfs_remove(udma_bench_file);
}
