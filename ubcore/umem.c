// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * Pinning the user pages of a segment (as the RDMA core's ib_umem_get()):
 * the pages are pinned long-term and writable (local access has every
 * right, remote peers may write), charged to the owning mm's pinned_vm
 * against RLIMIT_MEMLOCK unless the process has CAP_IPC_LOCK, and counted
 * in dev->pinned_pages.
 *
 * Every limit is checked before anything is allocated: a range larger
 * than the machine's memory can never be pinned and is refused at once,
 * and RLIMIT_MEMLOCK is charged before the page array is allocated, so an
 * unprivileged process cannot make the kernel allocate a page array for
 * memory it may not pin. The page pointers are kept in page-sized chunks
 * of UBCORE_UMEM_CHUNK entries, allocated one by one as the range is
 * pinned and charged to the caller's memory cgroup: however large the
 * range, no allocation is larger than a page but the chunk directory (8
 * bytes per 2 MiB of range), so the allocator is never asked for a large
 * contiguous or vmalloc'ed array.
 *
 * Only memory whose pages the kernel may keep pinned for a long time is
 * accepted: anonymous memory, shmem (MAP_SHARED|MAP_ANONYMOUS, memfd,
 * tmpfs), hugetlbfs, and private file mappings (the write pin breaks
 * copy-on-write, so the pinned pages are anonymous copies). A shared
 * mapping of another file is refused with -EOPNOTSUPP: remote writes
 * through a long-term pin would bypass the file system's writeback, as
 * later kernels refuse such pins too. VM_IO and VM_PFNMAP mappings (the
 * queue rings among them) are refused the same way.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/capability.h>
#include <linux/err.h>
#include <linux/export.h>
#include <linux/hugetlb.h>
#include <linux/mm.h>
#include <linux/sched/mm.h>
#include <linux/sched/signal.h>
#include <linux/shmem_fs.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "ubcore_priv.h"

#define UBCORE_UMEM_GFP		(GFP_KERNEL_ACCOUNT | __GFP_NOWARN)

/* May the pages of @vma be pinned long-term and written? */
static bool ubcore_umem_vma_ok(struct vm_area_struct *vma)
{
	if (vma->vm_flags & (VM_IO | VM_PFNMAP))
		return false;
	if (vma_is_anonymous(vma) || is_vm_hugetlb_page(vma) ||
	    shmem_file(vma->vm_file))
		return true;
	return vma->vm_file && !(vma->vm_flags & VM_MAYSHARE);
}

/*
 * Check every mapping of [@start, @end) of @mm (mmap lock held): 0, or
 * -EOPNOTSUPP. A hole is left to pin_user_pages(), which fails on it.
 */
static int ubcore_umem_check_vmas(struct mm_struct *mm, unsigned long start,
				  unsigned long end)
{
	struct vm_area_struct *vma;

	for (vma = find_vma(mm, start); vma && vma->vm_start < end;
	     vma = find_vma(mm, vma->vm_end)) {
		if (!ubcore_umem_vma_ok(vma)) {
			pr_debug_ratelimited("seg: 0x%lx..0x%lx is not anonymous, shmem, hugetlb or private memory\n",
					     vma->vm_start, vma->vm_end);
			return -EOPNOTSUPP;
		}
	}
	return 0;
}

/* Pin @n pages from @addr into @pages: the number pinned or an errno. */
static long ubcore_umem_pin(struct mm_struct *mm, unsigned long addr,
			    unsigned long n, struct page **pages)
{
	long ret;

	if (mmap_read_lock_killable(mm))
		return -EINTR;
	ret = ubcore_umem_check_vmas(mm, addr, addr + n * PAGE_SIZE);
	if (!ret)
		ret = pin_user_pages(addr, n, FOLL_WRITE | FOLL_LONGTERM, pages,
				     NULL);
	mmap_read_unlock(mm);
	return ret ? ret : -EFAULT;
}

/*
 * Pin @npages pages from @first into @umem's chunks, one chunk per call of
 * pin_user_pages(); umem->nr_pages counts the pages pinned so far, also
 * on error. 0 or an errno.
 */
static int ubcore_umem_pin_all(struct ubcore_umem *umem, unsigned long first,
			       unsigned long npages)
{
	unsigned long want, off;
	struct page **chunk;
	long pinned;

	while (umem->nr_pages < npages) {
		cond_resched();
		chunk = umem->chunk[umem->nr_pages / UBCORE_UMEM_CHUNK];
		if (!chunk) {
			chunk = kmalloc_array(UBCORE_UMEM_CHUNK, sizeof(*chunk),
					      UBCORE_UMEM_GFP);
			if (!chunk)
				return -ENOMEM;
			umem->chunk[umem->nr_pages / UBCORE_UMEM_CHUNK] = chunk;
		}
		off = umem->nr_pages % UBCORE_UMEM_CHUNK;
		want = min(npages - umem->nr_pages, UBCORE_UMEM_CHUNK - off);
		pinned = ubcore_umem_pin(umem->owning_mm,
					 first + umem->nr_pages * PAGE_SIZE,
					 want, chunk + off);
		if (pinned < 0)
			return pinned;
		umem->nr_pages += pinned;
	}
	return 0;
}

/* Unpin every page pinned in @umem and free the chunks (not the directory). */
static void ubcore_umem_unpin(struct ubcore_umem *umem, bool dirty)
{
	unsigned long i, n;

	for (i = 0; i < DIV_ROUND_UP(umem->nr_pages, UBCORE_UMEM_CHUNK); i++) {
		n = min(umem->nr_pages - i * UBCORE_UMEM_CHUNK,
			UBCORE_UMEM_CHUNK);
		unpin_user_pages_dirty_lock(umem->chunk[i], n, dirty);
	}
	for (i = 0; i < umem->nr_chunks; i++)
		kfree(umem->chunk[i]);
}

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
 * (not user memory or not mapped writable), -EOPNOTSUPP (memory that may
 * not be pinned long-term: not anonymous, shmem, hugetlb or private file
 * memory), -ENOMEM (more pages than the machine has, over RLIMIT_MEMLOCK,
 * or out of memory), -EINTR (killed). On error nothing is pinned or
 * charged.
 */
struct ubcore_umem *ubcore_umem_get(struct ubcore_device *dev, u64 va, u64 len)
{
	unsigned long first, npages, lock_limit;
	struct mm_struct *mm = current->mm;
	struct ubcore_umem *umem;
	int ret;

	if (!len || va + len < va || PAGE_ALIGN(va + len) < va + len)
		return ERR_PTR(-EINVAL);
	if (!mm || !access_ok(u64_to_user_ptr(va), len))
		return ERR_PTR(-EFAULT);
	first = va & PAGE_MASK;
	npages = (PAGE_ALIGN(va + len) - first) >> PAGE_SHIFT;
	if (npages > totalram_pages()) {
		pr_debug_ratelimited("seg: %lu pages, more than the machine has\n",
				     npages);
		return ERR_PTR(-ENOMEM);
	}

	lock_limit = rlimit(RLIMIT_MEMLOCK) >> PAGE_SHIFT;
	if (atomic64_add_return(npages, &mm->pinned_vm) > lock_limit &&
	    !capable(CAP_IPC_LOCK)) {
		pr_debug_ratelimited("seg: %lu pages over RLIMIT_MEMLOCK\n",
				     npages);
		ret = -ENOMEM;
		goto err_uncharge;
	}
	umem = kzalloc(sizeof(*umem), GFP_KERNEL_ACCOUNT);
	if (!umem) {
		ret = -ENOMEM;
		goto err_uncharge;
	}
	umem->nr_chunks = DIV_ROUND_UP(npages, UBCORE_UMEM_CHUNK);
	umem->chunk = kvcalloc(umem->nr_chunks, sizeof(*umem->chunk),
			       UBCORE_UMEM_GFP);
	if (!umem->chunk) {
		ret = -ENOMEM;
		goto err_free;
	}
	umem->va = va;
	umem->length = len;
	umem->owning_mm = mm;
	mmgrab(mm);

	ret = ubcore_umem_pin_all(umem, first, npages);
	if (ret)
		goto err_unpin;
	if (dev)
		atomic64_add(npages, &dev->pinned_pages);
	return umem;

err_unpin:
	ubcore_umem_unpin(umem, false);
	mmdrop(mm);
	kvfree(umem->chunk);
err_free:
	kfree(umem);
err_uncharge:
	atomic64_sub(npages, &mm->pinned_vm);
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
	ubcore_umem_unpin(umem, true);
	atomic64_sub(umem->nr_pages, &umem->owning_mm->pinned_vm);
	if (dev)
		atomic64_sub(umem->nr_pages, &dev->pinned_pages);
	mmdrop(umem->owning_mm);
	kvfree(umem->chunk);
	kfree(umem);
}
EXPORT_SYMBOL_GPL(ubcore_umem_release);
