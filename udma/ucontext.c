// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * User contexts of udma: the mmap table that names each ring of a context's
 * objects by an mmap offset, mmap() of those rings into the process, and
 * the import table that names the context's imported segments, JFRs and
 * jetties by the index its SQEs use (target_idx, rseg_idx).
 *
 * Lifetime of a mapped ring: remap_vmalloc_range() takes a reference on
 * every page it maps, and freeing the ring only drops the ring's own
 * reference, so the pages stay valid until the process unmaps them even
 * when the object, the context or the whole device (module unload with
 * processes still holding mappings) is gone first; until the context ends
 * such pages stay charged to it (orphans, ring.c). No vm_ops: a mapping
 * holds neither the ring structure nor this module. Mappings are VM_IO:
 * they are not inherited across fork (VM_DONTCOPY, which madvise
 * MADV_DOFORK cannot clear on a VM_IO mapping), get_user_pages() refuses
 * them (no segment, no pin, no other page reference), they cannot grow
 * (VM_DONTEXPAND) and can never become executable.
 */
#include <linux/err.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>

#include "udma.h"

/*
 * Keys of a context's mmap table: mmap offsets (key << PAGE_SHIFT) stay
 * below 4 GiB, so 32-bit processes can map every ring.
 */
#define UDMA_MMAP_KEY_MAX	(U32_MAX >> PAGE_SHIFT)

/*
 * The import table of kernel callers (no user context), for every udma
 * device: index -> struct udma_import of an imported segment, JFR or
 * jetty, so that SQEs of kernel queues name their targets by index as
 * user SQEs do (kpost.c). The rules of udma_ucontext.import_xa apply: the
 * xarray's own lock, taken with BH off (a kernel queue's requester looks
 * its imports up in softirq), cyclic indexes (@udma_kimport_next, under
 * the lock). Empty when the module unloads: every import is undone
 * with its device.
 */
static DEFINE_XARRAY_FLAGS(udma_kimport_xa,
			   XA_FLAGS_ALLOC1 | XA_FLAGS_LOCK_BH);
static u32 udma_kimport_next;

/* The import table of @uctx, or the kernel's for NULL. */
static struct xarray *udma_import_xa(struct udma_ucontext *uctx)
{
	return uctx ? &uctx->import_xa : &udma_kimport_xa;
}

/**
 * udma_alloc_ucontext() - ubcore_ops.alloc_ucontext
 * @ub_dev: the device
 * @eid_index: the EID of the context (ubcore records it)
 * @udata: the user's udata; udma exchanges nothing at this step
 *
 * Return: the context, or ERR_PTR(-ENOMEM).
 */
struct ubcore_ucontext *udma_alloc_ucontext(struct ubcore_device *ub_dev,
					    u32 eid_index,
					    struct ubcore_udata *udata)
{
	struct udma_ucontext *uctx;

	uctx = kzalloc(sizeof(*uctx), GFP_KERNEL_ACCOUNT);
	if (!uctx)
		return ERR_PTR(-ENOMEM);
	xa_init_flags(&uctx->mmap_xa, XA_FLAGS_ALLOC1);
	xa_init_flags(&uctx->import_xa, XA_FLAGS_ALLOC1 | XA_FLAGS_LOCK_BH);
	mutex_init(&uctx->orphan_lock);
	INIT_LIST_HEAD(&uctx->orphans);
	return &uctx->base;
}

/**
 * udma_free_ucontext() - ubcore_ops.free_ucontext
 * @base: the context; every object of it has been destroyed, so its mmap
 *	and import tables are empty; its orphaned rings are freed (pages a
 *	process still maps are freed when it unmaps them)
 */
void udma_free_ucontext(struct ubcore_ucontext *base)
{
	struct udma_ucontext *uctx = to_udma_ucontext(base);
	struct udma_ring *ring;
	unsigned long key;

	WARN_ONCE(!xa_empty(&uctx->import_xa),
		  "udma: imports left in a freed context\n");
	xa_destroy(&uctx->import_xa);

	/* A ring left here is a bug of ours; do not leak it too. */
	xa_for_each(&uctx->mmap_xa, key, ring) {
		WARN_ONCE(1, "udma: ring %lu left in a freed context\n", key);
		udma_ucontext_unpublish(ring);
	}
	xa_destroy(&uctx->mmap_xa);
	udma_ring_reap(uctx, true);
	WARN_ONCE(atomic_read(&uctx->ring_pages),
		  "udma: %d ring pages left charged to a freed context\n",
		  atomic_read(&uctx->ring_pages));
	mutex_destroy(&uctx->orphan_lock);
	kfree(uctx);
}

/**
 * udma_ucontext_publish() - give a new ring an mmap offset in a context
 * @uctx: the context
 * @ring: the ring, not yet published
 *
 * The table takes a reference on @ring. Process context.
 *
 * Return: 0, -ENOMEM, or -ENOSPC when the table is full.
 */
int udma_ucontext_publish(struct udma_ucontext *uctx, struct udma_ring *ring)
{
	u32 key;
	int ret;

	udma_ring_get(ring);
	ret = xa_alloc(&uctx->mmap_xa, &key, ring,
		       XA_LIMIT(1, UDMA_MMAP_KEY_MAX), GFP_KERNEL_ACCOUNT);
	if (ret) {
		udma_ring_put(ring);
		return ret == -EBUSY ? -ENOSPC : ret;
	}
	ring->uctx = uctx;
	ring->mmap_key = key;
	return 0;
}

/**
 * udma_ucontext_unpublish() - remove a ring from its context's mmap table
 * @ring: the ring; nothing happens to a kernel ring
 *
 * No mmap() finds the ring afterwards; existing mappings keep it. Drops the
 * table's reference. Process context.
 */
void udma_ucontext_unpublish(struct udma_ring *ring)
{
	struct udma_ucontext *uctx = ring->uctx;

	if (!uctx)
		return;
	xa_erase(&uctx->mmap_xa, ring->mmap_key);
	ring->uctx = NULL;
	ring->mmap_key = 0;
	udma_ring_put(ring);
}

/**
 * udma_import_add() - give a new import its index in its caller's table
 * @imp: the import, filled in; @imp->uctx and @imp->idx are set here
 * @udata: the importing user's udata (out: struct udma_import_resp), or
 *	NULL for a kernel import, which goes into the kernel's table
 *
 * Process context.
 *
 * Return: 0, -EINVAL for a udata without a context, -ENOMEM, -ENOSPC when
 * the table is full, or -EFAULT (the import is not in the table then).
 */
int udma_import_add(struct udma_import *imp, struct ubcore_udata *udata)
{
	struct udma_import_resp resp = {};
	struct udma_ucontext *uctx = NULL;
	u32 *next = &udma_kimport_next;
	int ret;

	imp->uctx = NULL;
	imp->idx = 0;
	if (udata) {
		if (!udata->uctx)
			return -EINVAL;
		uctx = to_udma_ucontext(udata->uctx);
		next = &uctx->import_next;
	}
	ret = xa_alloc_cyclic_bh(udma_import_xa(uctx), &imp->idx, imp,
				 xa_limit_32b, next, GFP_KERNEL_ACCOUNT);
	if (ret < 0)
		return ret == -EBUSY ? -ENOSPC : ret;
	imp->uctx = uctx;
	resp.target_idx = imp->idx;
	ret = udma_copy_resp(udata, &resp, sizeof(resp));
	if (ret)
		udma_import_del(imp);
	return ret;
}

/**
 * udma_import_del() - take an import out of its table
 * @imp: the import (nothing happens if it is in none)
 *
 * No lookup finds @imp afterwards, and none is still reading it, so it may
 * be freed. Process context.
 */
void udma_import_del(struct udma_import *imp)
{
	if (!imp->idx)
		return;
	xa_erase_bh(udma_import_xa(imp->uctx), imp->idx);
	imp->uctx = NULL;
	imp->idx = 0;
}

/**
 * udma_import_lookup() - copy out the import with an index
 * @uctx: the context whose table to look in, or NULL for the kernel's
 * @idx: the index from an SQE
 * @type: the enum udma_import_type wanted; for UDMA_IMPORT_JETTY an
 *	imported JFR is good too (both are targets of a message)
 * @out: filled with a copy of the import
 *
 * Context: any context but hard interrupt (the table's lock is BH-safe).
 *
 * Return: true if @idx names an import of @type in the table.
 */
bool udma_import_lookup(struct udma_ucontext *uctx, u32 idx, u32 type,
			struct udma_import *out)
{
	struct xarray *xa = udma_import_xa(uctx);
	struct udma_import *imp;
	bool found = false;

	if (!idx)
		return false;
	xa_lock_bh(xa);
	imp = xa_load(xa, idx);
	if (imp && (imp->type == type ||
		    (type == UDMA_IMPORT_JETTY &&
		     imp->type == UDMA_IMPORT_JFR))) {
		*out = *imp;
		found = true;
	}
	xa_unlock_bh(xa);
	return found;
}

/* The published ring with mmap key @key, with a reference, or NULL. */
static struct udma_ring *udma_ucontext_get_ring(struct udma_ucontext *uctx,
						unsigned long key)
{
	struct udma_ring *ring;

	/* Unpublishing erases under this lock before it drops its reference. */
	xa_lock(&uctx->mmap_xa);
	ring = xa_load(&uctx->mmap_xa, key);
	if (ring)
		udma_ring_get(ring);
	xa_unlock(&uctx->mmap_xa);
	return ring;
}

/**
 * udma_mmap() - ubcore_ops.mmap: map a ring of the context
 * @base: the context
 * @vma: the new mapping; vm_pgoff is the ring's mmap key (struct
 *	udma_ring_info.mmap_offset >> PAGE_SHIFT)
 *
 * The mapping must be shared, not executable, and exactly as long as the
 * ring (mmap_len). Called with the mm's mmap_lock held for writing. The
 * mapping is VM_IO (see the top of this file): madvise(MADV_DOFORK) on it
 * fails with EINVAL.
 *
 * Return: 0; -EINVAL for an unknown offset, a wrong length or a private
 * mapping; -EPERM for an executable one; or
 * the error of remap_vmalloc_range().
 */
int udma_mmap(struct ubcore_ucontext *base, struct vm_area_struct *vma)
{
	struct udma_ucontext *uctx = to_udma_ucontext(base);
	struct udma_ring *ring;
	int ret;

	/* MAP_SHARED (VM_SHARED is also clear on a read-only file). */
	if (!(vma->vm_flags & VM_MAYSHARE))
		return -EINVAL;
	if (vma->vm_flags & VM_EXEC)
		return -EPERM;
	ring = udma_ucontext_get_ring(uctx, vma->vm_pgoff);
	if (!ring)
		return -EINVAL;
	if (vma->vm_end - vma->vm_start != ring->size) {
		ret = -EINVAL;
		goto put_ring;
	}
	ret = remap_vmalloc_range(vma, ring->buf, 0);
	if (ret)
		goto put_ring;
	/* Linux 6.1: vm_flags is written directly (vm_flags_mod() from 6.3). */
	vma->vm_flags |= VM_IO | VM_DONTEXPAND | VM_DONTCOPY | VM_DONTDUMP;
	vma->vm_flags &= ~VM_MAYEXEC;
put_ring:
	udma_ring_put(ring);
	return ret;
}
