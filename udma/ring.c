// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * Queue rings of JFCs, JFSs, JFRs and jetties: allocation, publication in
 * the mmap table of a user context, the udata response, and the lifetime
 * (struct udma_ring in udma.h says who writes what and who holds it).
 */
#include <linux/err.h>
#include <linux/kernel.h>
#include <linux/log2.h>
#include <linux/minmax.h>
#include <linux/mm.h>
#include <linux/preempt.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>

#include "udma.h"

/* The control page fits in the first page of a ring. */
static_assert(sizeof(struct udma_ring_ctrl) <= PAGE_SIZE);

static struct udma_ring *udma_ring_alloc(u32 entry_size, u32 entry_cnt)
{
	struct udma_ring *ring;

	ring = kzalloc(sizeof(*ring), GFP_KERNEL);
	if (!ring)
		return NULL;
	ring->entry_size = entry_size;
	ring->entry_cnt = entry_cnt;
	ring->size = PAGE_ALIGN(PAGE_SIZE + (size_t)entry_cnt * entry_size);
	/* Zeroed, page-aligned and marked for remap_vmalloc_range(). */
	ring->buf = vmalloc_user(ring->size);
	if (!ring->buf) {
		kfree(ring);
		return NULL;
	}
	ring->ctrl = ring->buf;
	ring->entries = ring->buf + PAGE_SIZE;
	kref_init(&ring->ref);
	spin_lock_init(&ring->lock);
	return ring;
}

static void udma_ring_free(struct kref *ref)
{
	struct udma_ring *ring = container_of(ref, struct udma_ring, ref);

	vfree(ring->buf);
	kfree(ring);
}

/**
 * udma_ring_get() - take a reference on a ring
 * @ring: a ring the caller already holds a reference on (directly, or
 *	through the live object that owns it)
 *
 * Any context.
 */
void udma_ring_get(struct udma_ring *ring)
{
	kref_get(&ring->ref);
}

/**
 * udma_ring_put() - drop a reference on a ring; the last one frees it
 * @ring: the ring
 *
 * Process context, or softirq or hardirq context (where vfree() defers
 * the free of the last put); not in atomic process context (under a plain
 * spinlock), where vfree() may sleep.
 */
void udma_ring_put(struct udma_ring *ring)
{
	might_sleep_if(!in_interrupt());
	kref_put(&ring->ref, udma_ring_free);
}

/**
 * udma_ring_create() - create the ring of a new queue
 * @udev: the device (for accounting)
 * @udata: the user's udata, or NULL for a kernel caller
 * @entry_size: bytes of one entry
 * @depth: entries asked for; rounded up to a power of two and written back
 * @max_depth: the device's limit for this kind of queue (a power of two)
 * @info: filled with where userspace maps the ring when @udata is given
 *	(a kernel ring is not published: @info is left alone)
 *
 * For a user context the ring is published in the context's mmap table,
 * which holds its own reference until udma_ring_destroy().
 *
 * Process context.
 *
 * Return: the ring (the caller's reference) or an ERR_PTR: -EINVAL for a
 * depth of 0 or above @max_depth, or a udata without a context; -ENOMEM;
 * -ENOSPC when the context's mmap table is full.
 */
struct udma_ring *udma_ring_create(struct udma_dev *udev,
				   struct ubcore_udata *udata, u32 entry_size,
				   u32 *depth, u32 max_depth,
				   struct udma_ring_info *info)
{
	struct udma_ring *ring;
	u32 cnt;
	int ret;

	if (!*depth || *depth > max_depth)
		return ERR_PTR(-EINVAL);
	cnt = roundup_pow_of_two(*depth);
	if (cnt > max_depth)
		return ERR_PTR(-EINVAL);
	if (udata && !udata->uctx)
		return ERR_PTR(-EINVAL);

	ring = udma_ring_alloc(entry_size, cnt);
	if (!ring)
		return ERR_PTR(-ENOMEM);
	if (udata) {
		ret = udma_ucontext_publish(to_udma_ucontext(udata->uctx), ring);
		if (ret) {
			udma_ring_put(ring);
			return ERR_PTR(ret);
		}
		info->mmap_offset = (u64)ring->mmap_key << PAGE_SHIFT;
		info->mmap_len = ring->size;
		info->entry_size = ring->entry_size;
		info->entry_cnt = ring->entry_cnt;
	}
	ring->udev = udev;
	atomic64_add(ring->size, &udev->ring_bytes);
	*depth = cnt;
	return ring;
}

/**
 * udma_ring_destroy() - the owning object drops its ring
 * @ring: the ring, from udma_ring_create()
 *
 * Takes the ring out of its context's mmap table (no new mapping can find
 * it) and drops the table's and the owner's references. The memory stays
 * until existing mappings and kernel users let go of it. Process context.
 */
void udma_ring_destroy(struct udma_ring *ring)
{
	atomic64_sub(ring->size, &ring->udev->ring_bytes);
	ring->udev = NULL;
	udma_ucontext_unpublish(ring);
	udma_ring_put(ring);
}

/**
 * udma_copy_resp() - copy a create response into the user's udata
 * @udata: the udata, or NULL for a kernel caller (nothing to do)
 * @resp: the response
 * @len: bytes of @resp
 *
 * Copies min(@udata->out_len, @len) bytes into the kernel buffer that
 * uburma copies to the caller later: an older liburma with a shorter
 * response gets its prefix, a newer one finds the rest unset.
 *
 * Return: 0.
 */
int udma_copy_resp(struct ubcore_udata *udata, const void *resp, size_t len)
{
	if (!udata || !udata->out_len)
		return 0;
	memcpy(udata->out, resp, min_t(size_t, udata->out_len, len));
	return 0;
}
