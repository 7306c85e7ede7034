// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * Moving bytes between registered segments: the copies of WRITE, READ and
 * SEND, and the mapping of the word an atomic works on.
 *
 * A segment is either user memory (tseg->umem: its pages are pinned for
 * the segment's lifetime; ubcore_umem_page() finds the page of a byte)
 * or kernel memory (tseg->umem == NULL: the VA is a kernel address that
 * stays valid while the segment is registered). User pages are reached
 * through kmap_local_page() one page at a time; kernel memory directly.
 * The caller holds a reference on every segment it passes (struct
 * udma_mem_range), which keeps the pages pinned.
 *
 * The copy loop moves the largest piece that is contiguous on both sides
 * (up to a page for user memory) with one memcpy(): no per-byte work and
 * no allocation. It may sleep between pieces (cond_resched()), so it is
 * for process context. A received payload in several pieces of its skb
 * (struct udma_local_buf.skb) is copied from there with skb_copy_bits(),
 * one destination piece at a time.
 */
#include <linux/highmem.h>
#include <linux/kernel.h>
#include <linux/minmax.h>
#include <linux/bvec.h>
#include <linux/mm.h>
#include <linux/net.h>
#include <linux/sched.h>
#include <linux/skbuff.h>
#include <linux/string.h>
#include <linux/vmalloc.h>

#include <kunit/visibility.h>

#include "target.h"

/* Bytes copied between two chances to reschedule. */
#define UDMA_COPY_RESCHED_BYTES	SZ_1M

/*
 * A position in a list of ranges (@nr > 0), in inline data (@nr == 0) or
 * in an skb from @skb_off on (@skb: a source only, @data_len its bytes).
 * @idx and @off are the range and the offset in it; for inline data or an
 * skb @off is the offset in @data or from @skb_off.
 */
struct udma_mem_iter {
	const struct udma_mem_range *range;
	u32 nr;
	const u8 *data;
	const struct sk_buff *skb;
	u32 skb_off;
	u64 data_len;
	u32 idx;
	u64 off;
};

static void udma_iter_init_ranges(struct udma_mem_iter *it,
				  const struct udma_mem_range *range, u32 nr)
{
	*it = (struct udma_mem_iter){ .range = range, .nr = nr };
}

static void udma_iter_init_buf(struct udma_mem_iter *it,
			       const struct udma_local_buf *buf)
{
	if (buf->nr) {
		udma_iter_init_ranges(it, buf->range, buf->nr);
	} else if (!buf->inline_data && buf->skb) {
		*it = (struct udma_mem_iter){ .skb = buf->skb,
					      .skb_off = buf->skb_off,
					      .data_len = buf->total };
	} else {
		*it = (struct udma_mem_iter){ .data = buf->inline_data,
					      .data_len = buf->inline_data ?
							  buf->total : 0 };
	}
}

/* Bytes from the position to the end (0 on overflow of the sum). */
static u64 udma_iter_total(const struct udma_mem_iter *it)
{
	u64 total = 0;
	u32 i;

	if (!it->nr)
		return it->data_len;
	for (i = 0; i < it->nr; i++)
		if (check_add_overflow(total, (u64)it->range[i].len, &total))
			return 0;
	return total;
}

/*
 * A pointer to the byte at the position and in *@len the bytes that are
 * contiguous from it (at most @max); *@page is the kmapped page to unmap
 * with kunmap_local(), or NULL. The position is not at the end. NULL if a
 * range lies outside its segment's pages (a broken caller).
 */
static void *udma_iter_map(struct udma_mem_iter *it, u64 max, u64 *len,
			   struct page **page)
{
	const struct udma_mem_range *r;
	const struct ubcore_umem *umem;
	u64 va, poff;

	*page = NULL;
	if (!it->nr) {
		*len = min(max, it->data_len - it->off);
		return (void *)(it->data + it->off);
	}
	while (it->off == it->range[it->idx].len) {
		it->idx++;
		it->off = 0;
	}
	r = &it->range[it->idx];
	va = r->va + it->off;
	umem = r->seg->umem;
	if (!umem) {
		*len = min(max, r->len - it->off);
		return (void *)(uintptr_t)va;
	}
	poff = offset_in_page(va);
	*page = ubcore_umem_page(umem, va);
	if (!*page)
		return NULL;
	*len = min3(max, r->len - it->off, (u64)(PAGE_SIZE - poff));
	return kmap_local_page(*page) + poff;
}

static void udma_iter_advance(struct udma_mem_iter *it, u64 n)
{
	it->off += n;
}

/*
 * Copy @len bytes from @src, an skb, to @dst: a piece of @dst at a time.
 * Any context (nothing sleeps: an skb's payload is one packet's).
 */
static int udma_iter_copy_skb(struct udma_mem_iter *dst,
			      struct udma_mem_iter *src, u64 len)
{
	struct page *dpage;
	u64 dlen;
	void *d;
	int ret;

	while (len) {
		d = udma_iter_map(dst, len, &dlen, &dpage);
		if (!d)
			return -EFAULT;
		ret = skb_copy_bits(src->skb, src->skb_off + src->off, d, dlen);
		if (dpage) {
			flush_dcache_page(dpage);
			kunmap_local(d);
		}
		if (ret)
			return -EFAULT;
		udma_iter_advance(src, dlen);
		udma_iter_advance(dst, dlen);
		len -= dlen;
	}
	return 0;
}

/* Copy @len bytes from @src to @dst; both hold at least @len. */
static int udma_iter_copy(struct udma_mem_iter *dst, struct udma_mem_iter *src,
			  u64 len)
{
	u64 since_resched = 0;

	if (src->skb)
		return udma_iter_copy_skb(dst, src, len);
	while (len) {
		struct page *spage, *dpage;
		u64 slen, dlen, n;
		void *s, *d;

		s = udma_iter_map(src, len, &slen, &spage);
		if (!s)
			return -EFAULT;
		d = udma_iter_map(dst, slen, &dlen, &dpage);
		if (!d) {
			if (spage)
				kunmap_local(s);
			return -EFAULT;
		}
		n = dlen;
		memcpy(d, s, n);
		if (dpage) {
			flush_dcache_page(dpage);
			kunmap_local(d);
		}
		if (spage)
			kunmap_local(s);
		udma_iter_advance(src, n);
		udma_iter_advance(dst, n);
		len -= n;
		since_resched += n;
		if (since_resched >= UDMA_COPY_RESCHED_BYTES) {
			since_resched = 0;
			cond_resched();
		}
	}
	return 0;
}

static int udma_copy(struct udma_mem_iter *dst, struct udma_mem_iter *src,
		     u64 len)
{
	if (len > udma_iter_total(src) || len > udma_iter_total(dst))
		return -EINVAL;
	return udma_iter_copy(dst, src, len);
}

/**
 * udma_buf_copy_to_range() - copy the start of a local buffer into a range
 * @src: ranges or inline data
 * @dst: the target range
 * @len: bytes to copy
 *
 * Context: process context; may sleep.
 * Return: 0, or -EINVAL if @src or @dst holds fewer than @len bytes
 * (nothing is copied), -EFAULT if a range is not inside its segment.
 */
int udma_buf_copy_to_range(const struct udma_local_buf *src,
			   const struct udma_mem_range *dst, u64 len)
{
	struct udma_mem_iter s, d;

	udma_iter_init_buf(&s, src);
	udma_iter_init_ranges(&d, dst, 1);
	return udma_copy(&d, &s, len);
}
EXPORT_SYMBOL_IF_KUNIT(udma_buf_copy_to_range);

/**
 * udma_range_copy_to_buf() - copy the start of a range into a local buffer
 * @src: the target range
 * @dst: ranges (inline data cannot be written: -EINVAL)
 * @len: bytes to copy
 *
 * Context: process context; may sleep.
 * Return: 0, or -EINVAL if @src or @dst holds fewer than @len bytes
 * (nothing is copied), -EFAULT if a range is not inside its segment.
 */
int udma_range_copy_to_buf(const struct udma_mem_range *src,
			   const struct udma_local_buf *dst, u64 len)
{
	struct udma_mem_iter s, d;

	if (!dst->nr)
		return -EINVAL;
	udma_iter_init_ranges(&s, src, 1);
	udma_iter_init_ranges(&d, dst->range, dst->nr);
	return udma_copy(&d, &s, len);
}
EXPORT_SYMBOL_IF_KUNIT(udma_range_copy_to_buf);

/**
 * udma_buf_copy() - copy the start of one local buffer into another (READ
 *	data from a response's payload into the initiator's buffer)
 * @dst: ranges (inline data cannot be written: -EINVAL)
 * @src: ranges or inline data
 * @len: bytes to copy
 *
 * Context: process context; may sleep.
 * Return: 0, or -EINVAL if @src or @dst holds fewer than @len bytes
 * (nothing is copied), -EFAULT if a range is not inside its segment.
 */
int udma_buf_copy(const struct udma_local_buf *dst,
		  const struct udma_local_buf *src, u64 len)
{
	struct udma_mem_iter s, d;

	if (!dst->nr)
		return -EINVAL;
	udma_iter_init_buf(&s, src);
	udma_iter_init_ranges(&d, dst->range, dst->nr);
	return udma_copy(&d, &s, len);
}
EXPORT_SYMBOL_IF_KUNIT(udma_buf_copy);

/**
 * udma_buf_copy_to_ranges() - copy the start of a local buffer into a list
 *	of ranges (SEND: the payload into the ranges of an RQE)
 * @src: ranges or inline data
 * @dst: the ranges, filled in order
 * @nr: entries of @dst
 * @len: bytes to copy
 *
 * Context: process context; may sleep.
 * Return: 0, or -EINVAL if @src or @dst holds fewer than @len bytes
 * (nothing is copied), -EFAULT if a range is not inside its segment.
 */
int udma_buf_copy_to_ranges(const struct udma_local_buf *src,
			    const struct udma_mem_range *dst, u32 nr, u64 len)
{
	struct udma_mem_iter s, d;

	udma_iter_init_buf(&s, src);
	udma_iter_init_ranges(&d, dst, nr);
	return udma_copy(&d, &s, len);
}
EXPORT_SYMBOL_IF_KUNIT(udma_buf_copy_to_ranges);

/**
 * udma_buf_copy_from_kernel() - copy kernel memory into a local buffer
 *	(the old value of an atomic into its response range)
 * @dst: ranges (inline data cannot be written: -EINVAL)
 * @data: the bytes
 * @len: bytes of @data
 *
 * Context: process context; may sleep.
 * Return: 0, or -EINVAL if @dst holds fewer than @len bytes, -EFAULT if a
 * range is not inside its segment.
 */
int udma_buf_copy_from_kernel(const struct udma_local_buf *dst,
			      const void *data, u64 len)
{
	struct udma_mem_iter s = { .data = data, .data_len = len }, d;

	if (!dst->nr)
		return -EINVAL;
	udma_iter_init_ranges(&d, dst->range, dst->nr);
	return udma_copy(&d, &s, len);
}
EXPORT_SYMBOL_IF_KUNIT(udma_buf_copy_from_kernel);

/**
 * udma_buf_copy_to_kernel() - copy the start of a local buffer into kernel
 *	memory (a message's payload into the packet the UBoE carrier sends)
 * @data: the kernel memory, @len bytes
 * @src: ranges or inline data
 * @len: bytes to copy
 *
 * Context: process context; may sleep.
 * Return: 0, or -EINVAL if @src holds fewer than @len bytes (nothing is
 * copied), -EFAULT if a range is not inside its segment.
 */
int udma_buf_copy_to_kernel(void *data, const struct udma_local_buf *src,
			    u64 len)
{
	struct udma_mem_iter s, d = { .data = data, .data_len = len };

	udma_iter_init_buf(&s, src);
	return udma_copy(&d, &s, len);
}
EXPORT_SYMBOL_IF_KUNIT(udma_buf_copy_to_kernel);

/*
 * The page of the byte at kernel address @va, if the network stack may
 * hold a reference on it (sendpage_ok(): not a slab page, a page of its
 * own or of a compound page); else NULL.
 */
static struct page *udma_kernel_page(u64 va)
{
	const void *addr = (const void *)(uintptr_t)va;
	struct page *page;

	if (is_vmalloc_addr(addr))
		page = vmalloc_to_page(addr);
	else if (virt_addr_valid(addr))
		page = virt_to_page(addr);
	else
		return NULL;
	return page && sendpage_ok(page) ? page : NULL;
}

/**
 * udma_buf_pages() - the pages a local buffer's bytes are in
 * @src: ranges of registered memory (inline data has no pages: -EINVAL)
 * @bv: out: the pieces of @src in order, at most a page each, with a
 *	reference held on each page (put_page() them)
 * @max: entries of @bv
 *
 * For the UBoE carrier to send @src without copying it. Kernel memory
 * qualifies when the network stack may hold its pages (not kmalloc'd
 * from a slab); pinned user pages always do.
 *
 * Context: any context.
 * Return: the entries of @bv filled, or -EINVAL when @src is not in such
 * pages, -E2BIG when it is in more than @max pieces, -EFAULT when a range
 * is not inside its segment; nothing is held then.
 */
int udma_buf_pages(const struct udma_local_buf *src, struct bio_vec *bv,
		   u32 max)
{
	const struct udma_mem_range *r;
	struct page *page;
	u32 n = 0, i, len;
	u64 va, end;
	int ret;

	if (!src->nr)
		return -EINVAL;
	for (i = 0; i < src->nr; i++) {
		r = &src->range[i];
		for (va = r->va, end = r->va + r->len; va < end; va += len) {
			len = min_t(u64, end - va, PAGE_SIZE - offset_in_page(va));
			if (r->seg->umem)
				page = ubcore_umem_page(r->seg->umem, va);
			else
				page = udma_kernel_page(va);
			ret = !page ? (r->seg->umem ? -EFAULT : -EINVAL) :
			      n == max ? -E2BIG : 0;
			if (ret)
				goto put;
			get_page(page);
			bvec_set_page(&bv[n++], page, len, offset_in_page(va));
		}
	}
	return n;
put:
	while (n)
		put_page(bv[--n].bv_page);
	return ret;
}
EXPORT_SYMBOL_IF_KUNIT(udma_buf_pages);

/**
 * udma_sges_get() - the registered memory a list of SGEs names
 * @dev: the device whose segments the SGEs name
 * @uctx: the context the segments must belong to (NULL: the kernel's)
 * @sge: the SGEs (a copy the kernel owns)
 * @n: entries of @sge
 * @range: out: one range per SGE that is not empty, each holding a
 *	reference on its segment
 * @nr: out: entries of @range
 * @total: out: bytes of all ranges
 *
 * Empty SGEs are skipped. On failure nothing is held.
 *
 * Context: any context.
 * Return: 0, or -EACCES if an SGE is not inside a registered segment of
 * @uctx.
 */
int udma_sges_get(struct ubcore_device *dev, struct ubcore_ucontext *uctx,
		  const struct udma_sge *sge, u32 n,
		  struct udma_mem_range *range, u32 *nr, u64 *total)
{
	struct ubcore_target_seg *tseg;
	u32 i;

	*nr = 0;
	*total = 0;
	for (i = 0; i < n; i++) {
		if (!sge[i].len)
			continue;
		tseg = ubcore_find_get_seg(dev, sge[i].token_id, sge[i].va,
					   sge[i].len);
		if (!tseg)
			goto fail;
		/* A context uses the memory it registered, nothing else. */
		if (tseg->uctx != uctx) {
			ubcore_obj_ref_put(&tseg->obj_ref);
			goto fail;
		}
		range[*nr].seg = tseg;
		range[*nr].va = sge[i].va;
		range[*nr].len = sge[i].len;
		(*nr)++;
		*total += sge[i].len;
	}
	return 0;
fail:
	udma_ranges_put(range, nr);
	return -EACCES;
}
EXPORT_SYMBOL_IF_KUNIT(udma_sges_get);

/**
 * udma_ranges_put() - drop the segment references of ranges
 * @range: from udma_sges_get()
 * @nr: entries; set to 0
 */
void udma_ranges_put(struct udma_mem_range *range, u32 *nr)
{
	while (*nr)
		ubcore_obj_ref_put(&range[--*nr].seg->obj_ref);
}
EXPORT_SYMBOL_IF_KUNIT(udma_ranges_put);

/**
 * udma_map_word() - map the 8-byte word an atomic works on
 * @range: 8 bytes at an 8-byte aligned VA, inside its segment (checked by
 *	the caller)
 *
 * A word never crosses a page. Pair with udma_unmap_word(); mappings nest
 * like kmap_local_page() (unmap in reverse order, same task).
 *
 * Context: any context.
 * Return: the kernel address of the word, or NULL if @range is not an
 * aligned word of its segment's pages.
 */
u64 *udma_map_word(const struct udma_mem_range *range)
{
	const struct ubcore_umem *umem = range->seg->umem;
	struct page *page;
	u64 va = range->va;

	if (range->len != sizeof(u64) || !IS_ALIGNED(va, sizeof(u64)))
		return NULL;
	if (umem) {
		page = ubcore_umem_page(umem, va);
		if (!page)
			return NULL;
	} else if (is_vmalloc_addr((void *)(uintptr_t)va)) {
		page = vmalloc_to_page((void *)(uintptr_t)va);
	} else if (virt_addr_valid((void *)(uintptr_t)va)) {
		page = virt_to_page((void *)(uintptr_t)va);
	} else {
		/* kernel memory outside the linear map and vmalloc */
		return NULL;
	}
	if (!page)
		return NULL;
	return kmap_local_page(page) + offset_in_page(va);
}
EXPORT_SYMBOL_IF_KUNIT(udma_map_word);

/**
 * udma_unmap_word() - unmap a word mapped by udma_map_word()
 * @word: its return value
 *
 * Context: any context; the task that mapped it.
 */
void udma_unmap_word(u64 *word)
{
	kunmap_local(word);
}
EXPORT_SYMBOL_IF_KUNIT(udma_unmap_word);

/**
 * udma_atomic_exec() - execute one of the nine atomics of the UB
 *	transaction layer on a mapped word
 * @word: from udma_map_word(); 8-byte aligned
 * @opcode: UBOE_TA_CAS .. UBOE_TA_FXOR
 * @operand1: the swap / store / add / sub / and / or / xor value
 * @operand2: CAS: the compare value
 * @old: the word's value before the operation (for STORE too, though the
 *	transaction returns no data)
 *
 * CAS stores @operand1 if the word equals @operand2. The operations are
 * atomic against each other, against other CPUs executing them and
 * against userspace's atomics on the same memory (all use locked
 * instructions on the same cache line).
 *
 * Context: any context.
 * Return: 0, or -EINVAL for an opcode that is not an atomic (nothing done).
 */
int udma_atomic_exec(u64 *word, u8 opcode, u64 operand1, u64 operand2,
		     u64 *old)
{
	atomic64_t *v = (atomic64_t *)word;

	switch (opcode) {
	case UBOE_TA_CAS:
		*old = atomic64_cmpxchg(v, operand2, operand1);
		break;
	case UBOE_TA_SWAP:
		*old = atomic64_xchg(v, operand1);
		break;
	case UBOE_TA_STORE:
		*old = atomic64_xchg(v, operand1);
		break;
	case UBOE_TA_LOAD:
		*old = atomic64_read(v);
		break;
	case UBOE_TA_FADD:
		*old = atomic64_fetch_add(operand1, v);
		break;
	case UBOE_TA_FSUB:
		*old = atomic64_fetch_sub(operand1, v);
		break;
	case UBOE_TA_FAND:
		*old = atomic64_fetch_and(operand1, v);
		break;
	case UBOE_TA_FOR:
		*old = atomic64_fetch_or(operand1, v);
		break;
	case UBOE_TA_FXOR:
		*old = atomic64_fetch_xor(operand1, v);
		break;
	default:
		return -EINVAL;
	}
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(udma_atomic_exec);
