// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * Queue rings of JFCs, JFSs, JFRs and jetties: allocation, publication in
 * the mmap table of a user context, the udata response, and the lifetime
 * (struct udma_ring in udma.h says who writes what and who holds it).
 *
 * Memory: a ring's pages are allocated one by one, charged to the memory
 * cgroup of the process that creates it (UDMA_RING_GFP), and mapped
 * contiguously in the kernel with vmap(VM_USERMAP), so that
 * remap_vmalloc_range() maps them into the process as it does vmalloc_user()
 * memory. A user context may hold at most ubcore_device.ctx_ring_pages
 * pages of rings (sysfs limits/ring_pages): those of its live objects, and
 * those of deleted objects that the process still maps.
 *
 * Orphans: a mapping holds a reference on every page it maps, so a ring
 * whose object is deleted while the process still maps it keeps its
 * memory until the process unmaps it. Such a ring is not freed but kept on
 * its context's orphan list, still charged to the context and counted in
 * ubcore_device.orphan_ring_pages (objects/orphan_ring_pages), until a
 * reap finds no page of it mapped any more (each ring creation of the
 * context reaps, and the context's end frees them all). A page is mapped
 * while its reference count is above the one reference the ring holds:
 * the mappings are VM_IO, so get_user_pages() takes no other reference.
 */
#include <linux/err.h>
#include <linux/kernel.h>
#include <linux/log2.h>
#include <linux/minmax.h>
#include <linux/mm.h>
#include <linux/page_ref.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>

#include "udma.h"

/* The control page fits in the first page of a ring. */
static_assert(sizeof(struct udma_ring_ctrl) <= PAGE_SIZE);

/* Bytes of a ring: the control page, then the entries; whole pages. */
static size_t udma_ring_size(u32 entry_size, u32 entry_cnt)
{
	return PAGE_ALIGN(PAGE_SIZE + (size_t)entry_cnt * entry_size);
}

/* Unmap and free the ring's memory and the ring; process context. */
static void udma_ring_free_mem(struct udma_ring *ring)
{
	u32 i;

	vunmap(ring->buf);
	/* A page a process still maps is freed when it unmaps it. */
	for (i = 0; i < ring->nr_pages; i++)
		put_page(ring->pages[i]);
	kvfree(ring->pages);
	kfree(ring);
}

static struct udma_ring *udma_ring_alloc(u32 entry_size, u32 entry_cnt)
{
	struct udma_ring *ring;
	u32 i;

	ring = kzalloc(sizeof(*ring), UDMA_RING_GFP);
	if (!ring)
		return NULL;
	ring->entry_size = entry_size;
	ring->entry_cnt = entry_cnt;
	ring->size = udma_ring_size(entry_size, entry_cnt);
	ring->nr_pages = ring->size >> PAGE_SHIFT;
	ring->pages = kvcalloc(ring->nr_pages, sizeof(*ring->pages),
			       UDMA_RING_GFP);
	if (!ring->pages)
		goto err_ring;
	for (i = 0; i < ring->nr_pages; i++) {
		ring->pages[i] = alloc_page(UDMA_RING_GFP | __GFP_ZERO);
		if (!ring->pages[i])
			goto err_pages;
	}
	/* Zeroed, page-aligned and marked for remap_vmalloc_range(). */
	ring->buf = vmap(ring->pages, ring->nr_pages, VM_MAP | VM_USERMAP,
			 PAGE_KERNEL);
	if (!ring->buf)
		goto err_pages;
	ring->ctrl = ring->buf;
	ring->entries = ring->buf + PAGE_SIZE;
	kref_init(&ring->ref);
	spin_lock_init(&ring->lock);
	INIT_LIST_HEAD(&ring->orphan_node);
	return ring;

err_pages:
	while (i--)
		__free_page(ring->pages[i]);
	kvfree(ring->pages);
err_ring:
	kfree(ring);
	return NULL;
}

/* Does a process still map a page of @ring? */
static bool udma_ring_mapped(const struct udma_ring *ring)
{
	u32 i;

	for (i = 0; i < ring->nr_pages; i++)
		if (page_ref_count(ring->pages[i]) > 1)
			return true;
	return false;
}

/* Give the pages of @ring back to its context's limit and free it. */
static void udma_ring_uncharge_free(struct udma_ring *ring)
{
	if (ring->owner)
		atomic_sub(ring->nr_pages, &ring->owner->ring_pages);
	udma_ring_free_mem(ring);
}

static void udma_ring_release(struct kref *ref)
{
	struct udma_ring *ring = container_of(ref, struct udma_ring, ref);
	struct udma_ucontext *owner = ring->owner;

	if (!owner || !udma_ring_mapped(ring)) {
		udma_ring_uncharge_free(ring);
		return;
	}
	mutex_lock(&owner->orphan_lock);
	list_add_tail(&ring->orphan_node, &owner->orphans);
	mutex_unlock(&owner->orphan_lock);
	atomic64_add(ring->nr_pages, &owner->base.ub_dev->orphan_ring_pages);
}

/**
 * udma_ring_reap() - free the orphaned rings of a context
 * @uctx: the context
 * @all: free every orphan (the context ends; pages still mapped are freed
 *	when the process unmaps them, uncounted), not only unmapped ones
 *
 * Process context.
 */
void udma_ring_reap(struct udma_ucontext *uctx, bool all)
{
	struct ubcore_device *ub_dev = uctx->base.ub_dev;
	struct udma_ring *ring, *next;
	LIST_HEAD(done);

	mutex_lock(&uctx->orphan_lock);
	list_for_each_entry_safe(ring, next, &uctx->orphans, orphan_node)
		if (all || !udma_ring_mapped(ring))
			list_move_tail(&ring->orphan_node, &done);
	mutex_unlock(&uctx->orphan_lock);

	list_for_each_entry_safe(ring, next, &done, orphan_node) {
		atomic64_sub(ring->nr_pages, &ub_dev->orphan_ring_pages);
		udma_ring_uncharge_free(ring);
	}
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
 * udma_ring_put() - drop a reference on a ring; the last one frees it or
 *	makes it an orphan of its context
 * @ring: the ring
 *
 * Process context (the last put may sleep).
 */
void udma_ring_put(struct udma_ring *ring)
{
	might_sleep();
	kref_put(&ring->ref, udma_ring_release);
}

/* Charge @n more ring pages to @uctx within limits/ring_pages: -ENOSPC. */
static int udma_ring_charge(struct udma_ucontext *uctx, u32 n)
{
	u32 max = READ_ONCE(uctx->base.ub_dev->ctx_ring_pages);

	udma_ring_reap(uctx, false);
	if (atomic_add_return(n, &uctx->ring_pages) > max) {
		atomic_sub(n, &uctx->ring_pages);
		dev_dbg_ratelimited(&uctx->base.ub_dev->dev,
				    "ring of %u pages: over limits/ring_pages (%u) of the context\n",
				    n, max);
		return -ENOSPC;
	}
	return 0;
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
 * which holds its own reference until udma_ring_destroy(), and its pages
 * are charged to the context.
 *
 * Process context.
 *
 * Return: the ring (the caller's reference) or an ERR_PTR: -EINVAL for a
 * depth of 0 or above @max_depth, or a udata without a context; -ENOMEM;
 * -ENOSPC when the context's mmap table is full or its rings would be
 * more than limits/ring_pages pages.
 */
struct udma_ring *udma_ring_create(struct udma_dev *udev,
				   struct ubcore_udata *udata, u32 entry_size,
				   u32 *depth, u32 max_depth,
				   struct udma_ring_info *info)
{
	struct udma_ucontext *uctx = NULL;
	struct udma_ring *ring;
	u32 cnt, npages;
	int ret;

	if (!*depth || *depth > max_depth)
		return ERR_PTR(-EINVAL);
	cnt = roundup_pow_of_two(*depth);
	if (cnt > max_depth)
		return ERR_PTR(-EINVAL);
	if (udata && !udata->uctx)
		return ERR_PTR(-EINVAL);

	npages = udma_ring_size(entry_size, cnt) >> PAGE_SHIFT;
	if (udata) {
		uctx = to_udma_ucontext(udata->uctx);
		ret = udma_ring_charge(uctx, npages);
		if (ret)
			return ERR_PTR(ret);
	}
	ring = udma_ring_alloc(entry_size, cnt);
	if (!ring) {
		if (uctx)
			atomic_sub(npages, &uctx->ring_pages);
		return ERR_PTR(-ENOMEM);
	}
	ring->owner = uctx;
	if (uctx) {
		ret = udma_ucontext_publish(uctx, ring);
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
 * until existing mappings let go of it (an orphan, see above). Process
 * context.
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
 * uburma copies to the caller later, and records that count in
 * *@udata->out_done: only those bytes reach the caller. An older liburma
 * with a shorter response gets its prefix, a newer one finds the rest of
 * its buffer as it left it.
 *
 * Return: 0.
 */
int udma_copy_resp(struct ubcore_udata *udata, const void *resp, size_t len)
{
	u32 n;

	if (!udata || !udata->out_len)
		return 0;
	n = min_t(size_t, udata->out_len, len);
	memcpy(udata->out, resp, n);
	if (udata->out_done)
		*udata->out_done = n;
	return 0;
}
