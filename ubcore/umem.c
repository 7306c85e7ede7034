// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * Pinning the user pages of a segment (as the RDMA core's ib_umem_get()):
 * the pages are pinned long-term and writable (local access has every
 * right, remote peers may write), charged to the owning mm's pinned_vm
 * against RLIMIT_MEMLOCK unless the process has CAP_IPC_LOCK, and counted
 * in dev->pinned_pages.
 */
#include <linux/capability.h>
#include <linux/err.h>
#include <linux/export.h>
#include <linux/mm.h>
#include <linux/sched/mm.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "ubcore_priv.h"

/* Pages pinned by one call of pin_user_pages_fast(). */
#define UBCORE_PIN_CHUNK	(PAGE_SIZE / sizeof(struct page *))

/**
 * ubcore_umem_get() - pin a range of the current process
 * @dev: the device that counts the pages in its pinned_pages, or NULL
 *	(uburma pins before it takes its locks; the segment that adopts the
 *	pages counts them)
 * @va: first byte
 * @len: bytes
 *
 * Context: process context; may sleep, and may wait for ever for a page
 * that does not arrive (FUSE, userfaultfd): call it without locks.
 * Return: the umem, or ERR_PTR(-EINVAL) (empty or wrapping range), -EFAULT
 * (not user memory or not mapped writable), -ENOMEM (over RLIMIT_MEMLOCK,
 * or out of memory). On error nothing is pinned or charged.
 */
struct ubcore_umem *ubcore_umem_get(struct ubcore_device *dev, u64 va, u64 len)
{
	unsigned long first, npages, done = 0, lock_limit;
	struct ubcore_umem *umem;
	struct mm_struct *mm = current->mm;
	int pinned, ret;

	if (!len || va + len < va || PAGE_ALIGN(va + len) < va + len)
		return ERR_PTR(-EINVAL);
	if (!mm || !access_ok(u64_to_user_ptr(va), len))
		return ERR_PTR(-EFAULT);
	first = va & PAGE_MASK;
	npages = (PAGE_ALIGN(va + len) - first) >> PAGE_SHIFT;
	if (npages > UINT_MAX)
		return ERR_PTR(-EINVAL);

	umem = kzalloc(sizeof(*umem), GFP_KERNEL);
	if (!umem)
		return ERR_PTR(-ENOMEM);
	umem->pages = kvcalloc(npages, sizeof(*umem->pages), GFP_KERNEL);
	if (!umem->pages) {
		ret = -ENOMEM;
		goto err_free;
	}
	umem->va = va;
	umem->length = len;
	umem->owning_mm = mm;
	mmgrab(mm);

	lock_limit = rlimit(RLIMIT_MEMLOCK) >> PAGE_SHIFT;
	if (atomic64_add_return(npages, &mm->pinned_vm) > lock_limit &&
	    !capable(CAP_IPC_LOCK)) {
		ret = -ENOMEM;
		goto err_uncharge;
	}

	while (done < npages) {
		cond_resched();
		pinned = pin_user_pages_fast(first + done * PAGE_SIZE,
					     min_t(unsigned long, npages - done,
						   UBCORE_PIN_CHUNK),
					     FOLL_WRITE | FOLL_LONGTERM,
					     umem->pages + done);
		if (pinned <= 0) {
			ret = pinned ? pinned : -EFAULT;
			goto err_unpin;
		}
		done += pinned;
	}
	umem->nr_pages = npages;
	if (dev)
		atomic64_add(npages, &dev->pinned_pages);
	return umem;

err_unpin:
	unpin_user_pages(umem->pages, done);
err_uncharge:
	atomic64_sub(npages, &mm->pinned_vm);
	mmdrop(mm);
	kvfree(umem->pages);
err_free:
	kfree(umem);
	return ERR_PTR(ret);
}
EXPORT_SYMBOL_GPL(ubcore_umem_get);

/**
 * ubcore_umem_release() - unpin (the pages may have been written) and
 *	uncharge
 * @dev: the device that counted the pages, or NULL
 * @umem: from ubcore_umem_get(), or NULL
 *
 * Context: process context; may sleep.
 */
void ubcore_umem_release(struct ubcore_device *dev, struct ubcore_umem *umem)
{
	if (!umem)
		return;
	unpin_user_pages_dirty_lock(umem->pages, umem->nr_pages, true);
	atomic64_sub(umem->nr_pages, &umem->owning_mm->pinned_vm);
	if (dev)
		atomic64_sub(umem->nr_pages, &dev->pinned_pages);
	mmdrop(umem->owning_mm);
	kvfree(umem->pages);
	kfree(umem);
}
EXPORT_SYMBOL_GPL(ubcore_umem_release);
