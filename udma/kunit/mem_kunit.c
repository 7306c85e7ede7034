// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * KUnit tests of mem.c: copies between local buffers and segment ranges,
 * the mapping of atomic words and the nine atomics. Segments are built by
 * hand: kernel memory (umem NULL: kmalloc and vmalloc), and "user"
 * segments whose umem holds kernel pages at a made-up user VA that starts
 * inside its first page, which is all mem.c looks at.
 */
#include <kunit/test.h>
#include <kunit/resource.h>
#include <linux/kthread.h>
#include <linux/bvec.h>
#include <linux/mm.h>
#include <linux/skbuff.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>

#include "../target.h"

#define FAKE_UVA	0x7f1200000000ULL
#define BUF_LEN		(4 * PAGE_SIZE)

struct mem_seg {
	struct ubcore_target_seg tseg;
	struct ubcore_umem umem;
	struct page **pages;	/* user segment: its pages, in order */
	u8 *kbuf;	/* kernel segment: the memory */
};

static int vmem_init(struct kunit_resource *res, void *len)
{
	res->data = vzalloc(*(u64 *)len);
	return res->data ? 0 : -ENOMEM;
}

static void vmem_free(struct kunit_resource *res)
{
	vfree(res->data);
}

/* A kernel segment of @len bytes (vmalloc or kmalloc). */
static struct mem_seg *kseg(struct kunit *test, u64 len, bool vmem)
{
	struct mem_seg *s = kunit_kzalloc(test, sizeof(*s), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, s);
	if (vmem) {
		s->kbuf = kunit_alloc_resource(test, vmem_init, vmem_free,
					       GFP_KERNEL, &len);
		KUNIT_ASSERT_NOT_NULL(test, s->kbuf);
	} else {
		s->kbuf = kunit_kzalloc(test, len, GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, s->kbuf);
	}
	s->tseg.seg.ubva.va = (u64)(uintptr_t)s->kbuf;
	s->tseg.seg.len = len;
	return s;
}

/* A user segment of @len bytes at FAKE_UVA + @first_off. */
static struct mem_seg *useg(struct kunit *test, u64 len, u32 first_off)
{
	struct mem_seg *s = kunit_kzalloc(test, sizeof(*s), GFP_KERNEL);
	unsigned long i, n;

	KUNIT_ASSERT_NOT_NULL(test, s);
	n = (first_off + len + PAGE_SIZE - 1) >> PAGE_SHIFT;
	s->pages = kunit_kcalloc(test, n, sizeof(*s->pages), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, s->pages);
	s->umem.nr_pages = n;
	s->umem.nr_chunks = DIV_ROUND_UP(n, UBCORE_UMEM_CHUNK);
	s->umem.chunk = kunit_kcalloc(test, s->umem.nr_chunks,
				      sizeof(*s->umem.chunk), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, s->umem.chunk);
	/* separate page-sized allocations: page-aligned, not contiguous */
	for (i = 0; i < n; i++) {
		void *p = kunit_kzalloc(test, PAGE_SIZE, GFP_KERNEL);

		KUNIT_ASSERT_NOT_NULL(test, p);
		KUNIT_ASSERT_TRUE(test, PAGE_ALIGNED(p));
		s->pages[i] = virt_to_page(p);
	}
	/* the chunks point into the test's own array, UBCORE_UMEM_CHUNK apart */
	for (i = 0; i < s->umem.nr_chunks; i++)
		s->umem.chunk[i] = s->pages + i * UBCORE_UMEM_CHUNK;
	s->umem.va = FAKE_UVA + first_off;
	s->umem.length = len;
	s->tseg.umem = &s->umem;
	s->tseg.seg.ubva.va = s->umem.va;
	s->tseg.seg.len = len;
	return s;
}

/* The byte at offset @off of a segment, as the test sees it. */
static u8 *seg_byte(struct mem_seg *s, u64 off)
{
	u64 va;

	if (!s->tseg.umem)
		return s->kbuf + off;
	va = s->umem.va + off;
	return (u8 *)page_address(s->pages[((va & PAGE_MASK) -
					    (FAKE_UVA & PAGE_MASK)) >>
					   PAGE_SHIFT]) +
	       offset_in_page(va);
}

/* The pattern seg_fill() writes at offset @i. */
static u8 fill_byte(u64 i, u8 seed)
{
	return (i * 7 + seed + (i >> 8)) & 0xff;
}

static void seg_fill(struct mem_seg *s, u8 seed)
{
	u64 i;

	for (i = 0; i < s->tseg.seg.len; i++)
		*seg_byte(s, i) = fill_byte(i, seed);
}

static struct udma_mem_range range_of(struct mem_seg *s, u64 off, u32 len)
{
	return (struct udma_mem_range){ .seg = &s->tseg,
					.va = s->tseg.seg.ubva.va + off,
					.len = len };
}

/*
 * A local buffer of up to three ranges of @s covering @len bytes: pieces
 * at odd offsets that cross pages, or one range when @pieces is 1.
 */
static void buf_of(struct udma_local_buf *buf, struct mem_seg *s, u64 len,
		   u32 pieces)
{
	static const u64 offs[] = { 3, PAGE_SIZE + 77, 2 * PAGE_SIZE + 1001 };
	u64 left = len;
	u32 i;

	memset(buf, 0, sizeof(*buf));
	for (i = 0; i < pieces; i++) {
		u64 n = i == pieces - 1 ? left : len / pieces;

		buf->range[i] = range_of(s, pieces == 1 ? 5 : offs[i], n);
		left -= n;
	}
	buf->nr = pieces;
	buf->total = len;
}

/* The bytes of @buf's ranges, in order, into @out. */
static void buf_flatten(const struct udma_local_buf *buf, struct mem_seg *s,
			u8 *out)
{
	u32 i;
	u64 j;

	for (i = 0; i < buf->nr; i++) {
		u64 off = buf->range[i].va - s->tseg.seg.ubva.va;

		for (j = 0; j < buf->range[i].len; j++)
			*out++ = *seg_byte(s, off + j);
	}
}

static const u64 sizes[] = {
	0, 1, 7, 8, 4095, 4096, 4097, 2 * 4096 + 5, 3 * 4096 - 100,
};

/* Is every byte of @s outside [@off, @off + @len) equal to @ref's? */
static bool seg_same_outside(struct mem_seg *s, const u8 *ref, u64 off,
			     u64 len)
{
	u64 i;

	for (i = 0; i < s->tseg.seg.len; i++)
		if ((i < off || i >= off + len) && *seg_byte(s, i) != ref[i])
			return false;
	return true;
}

static void seg_snapshot(struct mem_seg *s, u8 *ref)
{
	u64 i;

	for (i = 0; i < s->tseg.seg.len; i++)
		ref[i] = *seg_byte(s, i);
}

/* buf (1 or 3 ranges of @src) -> one range of @dst, all sizes. */
static void copy_to_range_cases(struct kunit *test, struct mem_seg *src,
				struct mem_seg *dst)
{
	struct udma_local_buf *buf = kunit_kzalloc(test, sizeof(*buf),
						   GFP_KERNEL);
	u8 *want = kunit_kzalloc(test, BUF_LEN, GFP_KERNEL);
	u8 *ref = kunit_kzalloc(test, BUF_LEN, GFP_KERNEL);
	struct udma_mem_range r;
	u32 i, pieces;
	u64 doff, j;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	KUNIT_ASSERT_NOT_NULL(test, want);
	KUNIT_ASSERT_NOT_NULL(test, ref);
	seg_fill(src, 1);
	for (pieces = 1; pieces <= 3; pieces += 2) {
		for (i = 0; i < ARRAY_SIZE(sizes); i++) {
			u64 len = sizes[i];

			doff = 11 + i;
			seg_fill(dst, 0x55);
			seg_snapshot(dst, ref);
			buf_of(buf, src, len, pieces);
			buf_flatten(buf, src, want);
			r = range_of(dst, doff, len);
			KUNIT_ASSERT_EQ(test,
					udma_buf_copy_to_range(buf, &r, len), 0);
			KUNIT_EXPECT_TRUE_MSG(test,
					      seg_same_outside(dst, ref, doff,
							       len),
					      "len %llu pieces %u", len, pieces);
			for (j = 0; j < len; j++)
				if (*seg_byte(dst, doff + j) != want[j])
					break;
			KUNIT_EXPECT_EQ_MSG(test, j, len,
					    "len %llu pieces %u", len, pieces);
		}
	}
}

static void copy_kernel_to_kernel(struct kunit *test)
{
	copy_to_range_cases(test, kseg(test, BUF_LEN, false),
			    kseg(test, BUF_LEN, false));
	copy_to_range_cases(test, kseg(test, BUF_LEN, true),
			    kseg(test, BUF_LEN, false));
}

static void copy_user_segments(struct kunit *test)
{
	/* first pages that start at 0, in the middle and at the last byte */
	copy_to_range_cases(test, kseg(test, BUF_LEN, false),
			    useg(test, BUF_LEN, 0));
	copy_to_range_cases(test, kseg(test, BUF_LEN, false),
			    useg(test, BUF_LEN, 0x123));
	copy_to_range_cases(test, useg(test, BUF_LEN, PAGE_SIZE - 1),
			    useg(test, BUF_LEN, 0x800));
	copy_to_range_cases(test, useg(test, BUF_LEN, 0x10),
			    kseg(test, BUF_LEN, true));
}

/* range of @src -> buf (1 or 3 ranges of @dst), all sizes. */
static void copy_to_buf_cases(struct kunit *test, struct mem_seg *src,
			      struct mem_seg *dst)
{
	struct udma_local_buf *buf = kunit_kzalloc(test, sizeof(*buf),
						   GFP_KERNEL);
	u8 *got = kunit_kzalloc(test, BUF_LEN, GFP_KERNEL);
	struct udma_mem_range r;
	u32 i, pieces;
	u64 j;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	KUNIT_ASSERT_NOT_NULL(test, got);
	seg_fill(src, 9);
	for (pieces = 1; pieces <= 3; pieces += 2) {
		for (i = 0; i < ARRAY_SIZE(sizes); i++) {
			u64 len = sizes[i];

			seg_fill(dst, 0);
			buf_of(buf, dst, len, pieces);
			r = range_of(src, 3 + i, len);
			KUNIT_ASSERT_EQ(test,
					udma_range_copy_to_buf(&r, buf, len), 0);
			buf_flatten(buf, dst, got);
			for (j = 0; j < len; j++)
				if (got[j] != *seg_byte(src, 3 + i + j))
					break;
			KUNIT_EXPECT_EQ_MSG(test, j, len, "len %llu pieces %u",
					    len, pieces);
		}
	}
}

static void copy_range_to_buf(struct kunit *test)
{
	copy_to_buf_cases(test, kseg(test, BUF_LEN, false),
			  kseg(test, BUF_LEN, false));
	copy_to_buf_cases(test, useg(test, BUF_LEN, 0x321),
			  useg(test, BUF_LEN, 0xfff));
	copy_to_buf_cases(test, kseg(test, BUF_LEN, true),
			  useg(test, BUF_LEN, 8));
}

static void copy_inline_and_ranges(struct kunit *test)
{
	struct mem_seg *dst = useg(test, BUF_LEN, 0x40);
	struct udma_local_buf *src = kunit_kzalloc(test, sizeof(*src),
						   GFP_KERNEL);
	u8 data[UDMA_SQE_MAX_INLINE], *got;
	struct udma_mem_range r[3];
	u32 i;

	KUNIT_ASSERT_NOT_NULL(test, src);
	got = kunit_kzalloc(test, BUF_LEN, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, got);
	for (i = 0; i < sizeof(data); i++)
		data[i] = i ^ 0xa5;
	src->inline_data = data;
	src->total = sizeof(data);

	/* inline -> one range crossing a page */
	r[0] = range_of(dst, PAGE_SIZE - 100, sizeof(data));
	KUNIT_ASSERT_EQ(test, udma_buf_copy_to_range(src, r, sizeof(data)), 0);
	for (i = 0; i < sizeof(data); i++)
		if (*seg_byte(dst, PAGE_SIZE - 100 + i) != data[i])
			break;
	KUNIT_EXPECT_EQ(test, i, (u32)sizeof(data));

	/* inline -> three ranges (an RQE), with an empty one between */
	seg_fill(dst, 0);
	r[0] = range_of(dst, 1, 50);
	r[1] = range_of(dst, 100, 0);
	r[2] = range_of(dst, 2 * PAGE_SIZE - 30, 200);
	KUNIT_ASSERT_EQ(test, udma_buf_copy_to_ranges(src, r, 3, 150), 0);
	for (i = 0; i < 50; i++)
		got[i] = *seg_byte(dst, 1 + i);
	for (i = 0; i < 100; i++)
		got[50 + i] = *seg_byte(dst, 2 * PAGE_SIZE - 30 + i);
	KUNIT_EXPECT_EQ(test, memcmp(got, data, 150), 0);
	/* the rest of the last range is untouched */
	KUNIT_EXPECT_EQ(test, *seg_byte(dst, 2 * PAGE_SIZE - 30 + 100),
			fill_byte(2 * PAGE_SIZE - 30 + 100, 0));

	/* kernel bytes -> a buffer (the old value of an atomic) */
	{
		struct udma_local_buf rsp = { .nr = 1, .total = 8 };
		u64 old = 0x0123456789abcdefULL, v;

		rsp.range[0] = range_of(dst, PAGE_SIZE - 4, 8);
		KUNIT_ASSERT_EQ(test, udma_buf_copy_from_kernel(&rsp, &old, 8),
				0);
		for (i = 0; i < 8; i++)
			((u8 *)&v)[i] = *seg_byte(dst, PAGE_SIZE - 4 + i);
		KUNIT_EXPECT_EQ(test, v, old);
	}
}

static void copy_errors(struct kunit *test)
{
	struct mem_seg *src = kseg(test, BUF_LEN, false);
	struct mem_seg *dst = kseg(test, BUF_LEN, false);
	struct udma_local_buf *buf = kunit_kzalloc(test, sizeof(*buf),
						   GFP_KERNEL);
	u8 *ref = kunit_kzalloc(test, BUF_LEN, GFP_KERNEL);
	struct udma_local_buf inl = { .inline_data = ref, .total = 16 };
	struct udma_mem_range r;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	KUNIT_ASSERT_NOT_NULL(test, ref);
	seg_fill(src, 3);
	seg_fill(dst, 4);
	seg_snapshot(dst, ref);

	/* more than the source holds: nothing copied */
	buf_of(buf, src, 100, 3);
	r = range_of(dst, 0, 200);
	KUNIT_EXPECT_EQ(test, udma_buf_copy_to_range(buf, &r, 101), -EINVAL);
	/* more than the destination holds */
	r = range_of(dst, 0, 50);
	KUNIT_EXPECT_EQ(test, udma_buf_copy_to_range(buf, &r, 51), -EINVAL);
	KUNIT_EXPECT_EQ(test, udma_buf_copy_to_ranges(buf, &r, 1, 51),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, udma_buf_copy_to_range(&inl, &r, 17), -EINVAL);
	KUNIT_EXPECT_TRUE(test, seg_same_outside(dst, ref, 0, 0));

	/* inline data is not a destination */
	r = range_of(src, 0, 16);
	KUNIT_EXPECT_EQ(test, udma_range_copy_to_buf(&r, &inl, 16), -EINVAL);
	KUNIT_EXPECT_EQ(test, udma_buf_copy_from_kernel(&inl, ref, 8), -EINVAL);
	/* read more than the range */
	buf_of(buf, dst, 100, 1);
	KUNIT_EXPECT_EQ(test, udma_range_copy_to_buf(&r, buf, 17), -EINVAL);
	KUNIT_EXPECT_TRUE(test, seg_same_outside(dst, ref, 0, 0));
}

static void map_word(struct kunit *test)
{
	struct mem_seg *k = kseg(test, 64, false);
	struct mem_seg *v = kseg(test, PAGE_SIZE * 2, true);
	struct mem_seg *u = useg(test, PAGE_SIZE * 2, 0x128);
	struct udma_mem_range r;
	u64 *w;

	*(u64 *)(k->kbuf + 16) = 0x1111;
	r = range_of(k, 16, 8);
	w = udma_map_word(&r);
	KUNIT_ASSERT_NOT_NULL(test, w);
	KUNIT_EXPECT_EQ(test, *w, 0x1111ULL);
	*w = 0x2222;
	udma_unmap_word(w);
	KUNIT_EXPECT_EQ(test, *(u64 *)(k->kbuf + 16), 0x2222ULL);

	*(u64 *)(v->kbuf + PAGE_SIZE + 8) = 0x3333;
	r = range_of(v, PAGE_SIZE + 8, 8);
	w = udma_map_word(&r);
	KUNIT_ASSERT_NOT_NULL(test, w);
	KUNIT_EXPECT_EQ(test, *w, 0x3333ULL);
	udma_unmap_word(w);

	/* the second page of a user segment whose first starts at 0x128 */
	r = range_of(u, PAGE_SIZE - 0x128 + 0x10, 8);
	*(u64 *)seg_byte(u, PAGE_SIZE - 0x128 + 0x10) = 0x4444;
	w = udma_map_word(&r);
	KUNIT_ASSERT_NOT_NULL(test, w);
	KUNIT_EXPECT_EQ(test, *w, 0x4444ULL);
	udma_unmap_word(w);
	/* the last word of the first page */
	r = range_of(u, PAGE_SIZE - 0x128 - 8, 8);
	*(u64 *)seg_byte(u, PAGE_SIZE - 0x128 - 8) = 0x5555;
	w = udma_map_word(&r);
	KUNIT_ASSERT_NOT_NULL(test, w);
	KUNIT_EXPECT_EQ(test, *w, 0x5555ULL);
	udma_unmap_word(w);

	r = range_of(k, 12, 8);
	KUNIT_EXPECT_NULL(test, udma_map_word(&r));
	r = range_of(k, 16, 4);
	KUNIT_EXPECT_NULL(test, udma_map_word(&r));
	r = range_of(k, 16, 16);
	KUNIT_EXPECT_NULL(test, udma_map_word(&r));
}

/*
 * A user segment whose pages span two chunks of page pointers (512 pages
 * each with 4 KiB pages): copies across the chunk boundary land on the
 * right pages, and the words on both sides of it map to the right bytes.
 */
static void copy_across_chunks(struct kunit *test)
{
	const u32 first_off = 0x328;	/* 8-aligned: words at the boundary */
	struct mem_seg *k = kseg(test, BUF_LEN, false);
	struct mem_seg *u = useg(test, (UBCORE_UMEM_CHUNK + 1) * PAGE_SIZE,
				 first_off);
	/* segment offset of the first byte of the second chunk */
	const u64 boundary = UBCORE_UMEM_CHUNK * PAGE_SIZE - first_off;
	struct udma_local_buf *buf = kunit_kzalloc(test, sizeof(*buf),
						   GFP_KERNEL);
	u64 doff = boundary - PAGE_SIZE - 5, len = 3 * PAGE_SIZE, j;
	struct udma_mem_range r;
	u64 *w;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	KUNIT_ASSERT_EQ(test, u->umem.nr_chunks, 2UL);
	seg_fill(k, 3);
	buf_of(buf, k, len, 1);
	r = range_of(u, doff, len);
	KUNIT_ASSERT_EQ(test, udma_buf_copy_to_range(buf, &r, len), 0);
	for (j = 0; j < len; j++)
		if (*seg_byte(u, doff + j) != fill_byte(5 + j, 3))
			break;
	KUNIT_EXPECT_EQ(test, j, len);
	/* the second chunk's first page is the test's page 512 */
	KUNIT_EXPECT_PTR_EQ(test, ubcore_umem_page(&u->umem,
						   u->umem.va + boundary),
			    u->pages[UBCORE_UMEM_CHUNK]);

	*(u64 *)seg_byte(u, boundary - 8) = 0x6666;
	*(u64 *)seg_byte(u, boundary) = 0x7777;
	r = range_of(u, boundary - 8, 8);
	w = udma_map_word(&r);
	KUNIT_ASSERT_NOT_NULL(test, w);
	KUNIT_EXPECT_EQ(test, *w, 0x6666ULL);
	udma_unmap_word(w);
	r = range_of(u, boundary, 8);
	w = udma_map_word(&r);
	KUNIT_ASSERT_NOT_NULL(test, w);
	KUNIT_EXPECT_EQ(test, *w, 0x7777ULL);
	udma_unmap_word(w);
}

static void atomics_semantics(struct kunit *test)
{
	static const struct {
		u8 op;
		u64 before, op1, op2, after, old;
	} cases[] = {
		/* CAS: operand2 == local -> store operand1 */
		{ UBOE_TA_CAS, 5, 9, 5, 9, 5 },
		{ UBOE_TA_CAS, 5, 9, 6, 5, 5 },
		{ UBOE_TA_CAS, U64_MAX, 0, U64_MAX, 0, U64_MAX },
		{ UBOE_TA_SWAP, 5, 9, 0, 9, 5 },
		{ UBOE_TA_STORE, 5, 9, 0, 9, 5 },
		{ UBOE_TA_LOAD, 5, 9, 0, 5, 5 },
		{ UBOE_TA_FADD, 5, 9, 0, 14, 5 },
		{ UBOE_TA_FADD, U64_MAX, 2, 0, 1, U64_MAX },
		{ UBOE_TA_FSUB, 5, 9, 0, (u64)-4, 5 },
		{ UBOE_TA_FAND, 0xf0f0, 0xff00, 0, 0xf000, 0xf0f0 },
		{ UBOE_TA_FOR, 0xf0f0, 0xff00, 0, 0xfff0, 0xf0f0 },
		{ UBOE_TA_FXOR, 0xf0f0, 0xff00, 0, 0x0ff0, 0xf0f0 },
	};
	struct mem_seg *u = useg(test, PAGE_SIZE, 0x100);
	struct udma_mem_range r = range_of(u, 0x48, 8);
	u64 *w, old;
	u32 i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		*(u64 *)seg_byte(u, 0x48) = cases[i].before;
		w = udma_map_word(&r);
		KUNIT_ASSERT_NOT_NULL(test, w);
		old = ~cases[i].old;
		KUNIT_EXPECT_EQ(test, udma_atomic_exec(w, cases[i].op,
						       cases[i].op1,
						       cases[i].op2, &old), 0);
		udma_unmap_word(w);
		KUNIT_EXPECT_EQ_MSG(test, old, cases[i].old, "case %u", i);
		KUNIT_EXPECT_EQ_MSG(test, *(u64 *)seg_byte(u, 0x48),
				    cases[i].after, "case %u", i);
	}
	old = 0;
	KUNIT_EXPECT_EQ(test, udma_atomic_exec((u64 *)seg_byte(u, 0x48),
					       UBOE_TA_WRITE, 1, 1, &old),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, *(u64 *)seg_byte(u, 0x48), cases[i - 1].after);
}

#define FAA_THREADS	4
#define FAA_ITERS	20000

struct faa_ctx {
	struct udma_mem_range r;
	struct completion done;
	atomic_t left;
	u64 olds_sum[FAA_THREADS];
};

struct faa_arg {
	struct faa_ctx *ctx;
	int idx;
};

static int faa_thread(void *data)
{
	struct faa_arg *a = data;
	u64 *w, old;
	int i;

	for (i = 0; i < FAA_ITERS; i++) {
		w = udma_map_word(&a->ctx->r);
		if (w) {
			udma_atomic_exec(w, UBOE_TA_FADD, 1, 0, &old);
			udma_unmap_word(w);
			a->ctx->olds_sum[a->idx] += old;
		}
	}
	if (atomic_dec_and_test(&a->ctx->left))
		complete(&a->ctx->done);
	return 0;
}

static void atomics_concurrent_faa(struct kunit *test)
{
	struct mem_seg *u = useg(test, PAGE_SIZE, 0x200);
	struct faa_ctx *ctx = kunit_kzalloc(test, sizeof(*ctx), GFP_KERNEL);
	struct faa_arg *args;
	struct task_struct *t;
	u64 n = (u64)FAA_THREADS * FAA_ITERS, sum = 0;
	int i;

	KUNIT_ASSERT_NOT_NULL(test, ctx);
	args = kunit_kcalloc(test, FAA_THREADS, sizeof(*args), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, args);
	ctx->r = range_of(u, 0x18, 8);
	init_completion(&ctx->done);
	atomic_set(&ctx->left, FAA_THREADS);
	for (i = 0; i < FAA_THREADS; i++) {
		args[i].ctx = ctx;
		args[i].idx = i;
		t = kthread_run(faa_thread, &args[i], "udma_faa/%d", i);
		if (IS_ERR(t)) {
			/* account for the thread that did not start */
			if (atomic_dec_and_test(&ctx->left))
				complete(&ctx->done);
			KUNIT_FAIL(test, "kthread_run: %ld", PTR_ERR(t));
		}
	}
	wait_for_completion(&ctx->done);
	KUNIT_EXPECT_EQ(test, *(u64 *)seg_byte(u, 0x18), n);
	/* every old value 0 .. n - 1 was returned exactly once */
	for (i = 0; i < FAA_THREADS; i++)
		sum += ctx->olds_sum[i];
	KUNIT_EXPECT_EQ(test, sum, n * (n - 1) / 2);
}

/*
 * The pages of a local buffer, for a send without a copy: a piece per
 * page of each range, with the offsets and lengths of its bytes, and a
 * reference on each page. Kernel memory from a slab and inline data have
 * none; too many pieces for @max: none either, and nothing held.
 */
static void buf_pages(struct kunit *test)
{
	struct mem_seg *v = kseg(test, BUF_LEN, true);
	struct mem_seg *k = kseg(test, 512, false);
	struct mem_seg *u = useg(test, BUF_LEN, 100);
	struct bio_vec bv[8];
	struct udma_local_buf buf;
	int before, n, i;
	u64 total;

	seg_fill(v, 3);
	seg_fill(u, 4);
	/* three ranges of a page each at odd offsets: 2 pieces each */
	buf_of(&buf, v, 3 * PAGE_SIZE, 3);
	before = page_count(vmalloc_to_page(v->kbuf));
	n = udma_buf_pages(&buf, bv, ARRAY_SIZE(bv));
	KUNIT_ASSERT_EQ(test, n, 6);
	for (i = 0, total = 0; i < n; i++) {
		KUNIT_EXPECT_LE(test, bv[i].bv_offset + bv[i].bv_len,
				(u32)PAGE_SIZE);
		total += bv[i].bv_len;
	}
	KUNIT_EXPECT_EQ(test, total, (u64)(3 * PAGE_SIZE));
	KUNIT_EXPECT_PTR_EQ(test, bv[0].bv_page, vmalloc_to_page(v->kbuf));
	KUNIT_EXPECT_EQ(test, bv[0].bv_offset, 3);
	KUNIT_EXPECT_EQ(test, page_count(bv[0].bv_page), before + 1);
	KUNIT_EXPECT_EQ(test, *((u8 *)page_address(bv[2].bv_page) +
				bv[2].bv_offset),
			fill_byte(PAGE_SIZE + 77, 3));
	for (i = 0; i < n; i++)
		put_page(bv[i].bv_page);
	KUNIT_EXPECT_EQ(test, page_count(vmalloc_to_page(v->kbuf)), before);
	/* not enough entries: nothing held */
	KUNIT_EXPECT_EQ(test, udma_buf_pages(&buf, bv, 4), -E2BIG);
	KUNIT_EXPECT_EQ(test, page_count(vmalloc_to_page(v->kbuf)), before);
	/* a user segment's pinned pages, the first at its offset */
	buf_of(&buf, u, 3000, 1);
	n = udma_buf_pages(&buf, bv, ARRAY_SIZE(bv));
	KUNIT_ASSERT_EQ(test, n, 1);
	KUNIT_EXPECT_PTR_EQ(test, bv[0].bv_page, u->pages[0]);
	KUNIT_EXPECT_EQ(test, bv[0].bv_offset, 105);
	KUNIT_EXPECT_EQ(test, bv[0].bv_len, 3000);
	put_page(bv[0].bv_page);
	/* slab memory, inline data: a copy */
	buf_of(&buf, k, 100, 1);
	KUNIT_EXPECT_EQ(test, udma_buf_pages(&buf, bv, ARRAY_SIZE(bv)),
			-EINVAL);
	memset(&buf, 0, sizeof(buf));
	buf.inline_data = "abc";
	buf.total = 3;
	KUNIT_EXPECT_EQ(test, udma_buf_pages(&buf, bv, ARRAY_SIZE(bv)),
			-EINVAL);
}

/*
 * A received payload in several pieces of its skb (its head, then page
 * fragments) is copied from there into the ranges, from any offset.
 */
static void copy_from_skb(struct kunit *test)
{
	struct mem_seg *dst = kseg(test, BUF_LEN, true);
	struct sk_buff *skb = alloc_skb(256, GFP_KERNEL);
	u32 off, len, i, total = 200;
	struct udma_mem_range r;
	struct udma_local_buf src;
	struct page *pg;
	u8 *ref;

	KUNIT_ASSERT_NOT_NULL(test, skb);
	ref = kunit_kzalloc(test, 200 + 2 * PAGE_SIZE, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, ref);
	for (i = 0; i < 200; i++)
		ref[i] = fill_byte(i, 9);
	skb_put_data(skb, ref, 200);
	for (i = 0; i < 2; i++) {
		pg = alloc_page(GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, pg);
		len = i ? PAGE_SIZE - 500 : PAGE_SIZE - 10;
		for (off = 0; off < len; off++)
			ref[total + off] = ((u8 *)page_address(pg))[10 + off] =
				fill_byte(total + off, 9);
		skb_add_rx_frag(skb, i, pg, 10, len, PAGE_SIZE);
		total += len;
	}
	for (off = 0; off < total; off += 997) {
		memset(&src, 0, sizeof(src));
		src.skb = skb;
		src.skb_off = off;
		src.total = total - off;
		memset(dst->kbuf, 0, BUF_LEN);
		r = range_of(dst, 1, src.total);
		KUNIT_ASSERT_EQ(test, udma_buf_copy_to_range(&src, &r,
							     src.total), 0);
		KUNIT_EXPECT_EQ(test, memcmp(dst->kbuf + 1, ref + off,
					     src.total), 0);
		KUNIT_EXPECT_EQ(test, dst->kbuf[1 + src.total], 0);
	}
	/* more than the skb holds: refused, nothing read beyond it */
	src.total = total + 1;
	src.skb_off = 0;
	r = range_of(dst, 0, src.total);
	KUNIT_EXPECT_EQ(test, udma_buf_copy_to_range(&src, &r, src.total),
			-EFAULT);
	kfree_skb(skb);
}

static struct kunit_case udma_mem_cases[] = {
	KUNIT_CASE(copy_kernel_to_kernel),
	KUNIT_CASE(copy_user_segments),
	KUNIT_CASE(copy_range_to_buf),
	KUNIT_CASE(copy_inline_and_ranges),
	KUNIT_CASE(copy_errors),
	KUNIT_CASE(map_word),
	KUNIT_CASE(copy_across_chunks),
	KUNIT_CASE(buf_pages),
	KUNIT_CASE(copy_from_skb),
	KUNIT_CASE(atomics_semantics),
	KUNIT_CASE(atomics_concurrent_faa),
	{}
};

static struct kunit_suite udma_mem_suite = {
	.name = "udma_mem",
	.test_cases = udma_mem_cases,
};

kunit_test_suite(udma_mem_suite);
