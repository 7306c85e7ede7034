// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * KUnit tests of access rights, token IDs and segments (kernel memory; a
 * KUnit test runs in a kernel thread, which has no user memory to pin).
 */
#include <kunit/test.h>
#include <linux/err.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>

#include <ub/ubcore_device.h>

#include "fake_provider.h"

static const struct ubcore_device_cap seg_cap = {
	.max_token_id = 4,
	.trans_mode = UBCORE_TM_RM,
};

#define SEG_FLAG(access)	UBCORE_SEG_FLAG_ACCESS_SET(access)

static void access_all_combinations(struct kunit *test)
{
	u32 a;

	for (a = 0; a < 16; a++) {
		bool valid = a == UBCORE_ACCESS_LOCAL_ONLY ||
			     a == UBCORE_ACCESS_READ ||
			     a == (UBCORE_ACCESS_READ | UBCORE_ACCESS_WRITE) ||
			     a == (UBCORE_ACCESS_READ | UBCORE_ACCESS_WRITE |
				   UBCORE_ACCESS_ATOMIC);

		KUNIT_EXPECT_EQ_MSG(test, ubcore_check_seg_access(a),
				    valid ? 0 : -EINVAL, "access 0x%x", a);
	}
	KUNIT_EXPECT_EQ(test, ubcore_check_seg_access(0x10), -EINVAL);
	KUNIT_EXPECT_EQ(test, ubcore_check_seg_access(UBCORE_ACCESS_READ | 0x20),
			-EINVAL);
}

static void token_id_range_and_reuse(struct kunit *test)
{
	struct ubcore_device_cap cap = seg_cap;
	struct ubcore_device *dev = fake_provider_dev(test, "kunitseg%d", &cap);
	struct ubcore_token_id *t[3];
	u32 id;
	int i;

	/* min(2^20, 4) - 1 = 3 token IDs: 1, 2, 3. */
	for (i = 0; i < 3; i++) {
		t[i] = ubcore_alloc_token_id(dev, 0, NULL);
		KUNIT_ASSERT_NOT_ERR_OR_NULL(test, t[i]);
		KUNIT_EXPECT_EQ(test, t[i]->token_id, i + 1u);
		KUNIT_EXPECT_PTR_EQ(test, t[i]->ub_dev, dev);
	}
	KUNIT_EXPECT_PTR_EQ(test, ubcore_alloc_token_id(dev, 0, NULL),
			    ERR_PTR(-ENOSPC));
	KUNIT_EXPECT_EQ(test, atomic_read(&dev->obj_cnt[UBCORE_OBJ_TOKEN_ID]), 3);
	id = t[1]->token_id;
	KUNIT_EXPECT_EQ(test, ubcore_free_token_id(t[1]), 0);
	t[1] = ubcore_alloc_token_id(dev, 0, NULL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, t[1]);
	KUNIT_EXPECT_EQ(test, t[1]->token_id, id);
	for (i = 0; i < 3; i++)
		KUNIT_EXPECT_EQ(test, ubcore_free_token_id(t[i]), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&dev->obj_cnt[UBCORE_OBJ_TOKEN_ID]), 0);
	fake_provider_dev_free(dev);

	/* A device with fewer than 2 token IDs has none to give. */
	cap.max_token_id = 1;
	dev = fake_provider_dev(test, "kunitseg%d", &cap);
	KUNIT_EXPECT_PTR_EQ(test, ubcore_alloc_token_id(dev, 0, NULL),
			    ERR_PTR(-ENOSPC));
	fake_provider_dev_free(dev);
}

static void kernel_segment_lifecycle(struct kunit *test)
{
	struct ubcore_device *dev = fake_provider_dev(test, "kunitseg%d", &seg_cap);
	struct ubcore_device *other = fake_provider_dev(test, "kunitseg%d", &seg_cap);
	struct ubcore_token_id *token, *otoken;
	struct ubcore_target_seg *tseg, *found;
	struct ubcore_seg_cfg cfg, bad;
	const u64 len = 4096;
	void *buf;
	u64 va;

	buf = kunit_kzalloc(test, len, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	va = (uintptr_t)buf;
	token = ubcore_alloc_token_id(dev, 0, NULL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, token);
	otoken = ubcore_alloc_token_id(other, 0, NULL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, otoken);

	cfg = (struct ubcore_seg_cfg){
		.va = va, .len = len, .token_id = token, .token_value = 0xabc,
		.flag = SEG_FLAG(UBCORE_ACCESS_READ | UBCORE_ACCESS_WRITE) |
			UBCORE_SEG_FLAG_CACHEABLE,
	};

	/* Refused: empty, wrapping, bad access, non-pinned, bad token ID. */
	bad = cfg;
	bad.len = 0;
	KUNIT_EXPECT_PTR_EQ(test, ubcore_register_seg(dev, &bad, NULL),
			    ERR_PTR(-EINVAL));
	bad = cfg;
	bad.va = U64_MAX - 10;
	bad.len = 100;
	KUNIT_EXPECT_PTR_EQ(test, ubcore_register_seg(dev, &bad, NULL),
			    ERR_PTR(-EINVAL));
	bad = cfg;
	bad.flag = SEG_FLAG(UBCORE_ACCESS_WRITE);
	KUNIT_EXPECT_PTR_EQ(test, ubcore_register_seg(dev, &bad, NULL),
			    ERR_PTR(-EINVAL));
	bad = cfg;
	bad.flag |= UBCORE_SEG_FLAG_NON_PIN;
	KUNIT_EXPECT_PTR_EQ(test, ubcore_register_seg(dev, &bad, NULL),
			    ERR_PTR(-EOPNOTSUPP));
	bad = cfg;
	bad.token_id = NULL;
	KUNIT_EXPECT_PTR_EQ(test, ubcore_register_seg(dev, &bad, NULL),
			    ERR_PTR(-EINVAL));
	bad = cfg;
	bad.token_id = otoken;
	KUNIT_EXPECT_PTR_EQ(test, ubcore_register_seg(dev, &bad, NULL),
			    ERR_PTR(-EINVAL));
	KUNIT_EXPECT_EQ(test, atomic_read(&token->use_cnt), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&dev->obj_cnt[UBCORE_OBJ_SEG]), 0);

	tseg = ubcore_register_seg(dev, &cfg, NULL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, tseg);
	KUNIT_EXPECT_EQ(test, tseg->seg.ubva.va, va);
	KUNIT_EXPECT_EQ(test, tseg->seg.len, len);
	KUNIT_EXPECT_EQ(test, tseg->seg.token_id, token->token_id);
	KUNIT_EXPECT_EQ(test, tseg->seg.attr, cfg.flag);
	KUNIT_EXPECT_EQ(test, tseg->seg.ubva.uasid, 0u);
	KUNIT_EXPECT_EQ(test, tseg->token_value, 0xabcu);
	KUNIT_EXPECT_NULL(test, tseg->umem);
	KUNIT_EXPECT_EQ(test, atomic_read(&token->use_cnt), 1);
	KUNIT_EXPECT_EQ(test, atomic64_read(&dev->pinned_pages), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&dev->obj_cnt[UBCORE_OBJ_SEG]), 1);

	/* Lookups: inside, at the edges, past them, wrapping. */
	found = ubcore_find_get_seg(dev, token->token_id, va, len);
	KUNIT_EXPECT_PTR_EQ(test, found, tseg);
	if (found)
		ubcore_obj_ref_put(&found->obj_ref);
	found = ubcore_find_get_seg(dev, token->token_id, va + len - 1, 1);
	KUNIT_EXPECT_PTR_EQ(test, found, tseg);
	if (found)
		ubcore_obj_ref_put(&found->obj_ref);
	found = ubcore_find_get_seg(dev, token->token_id, va + 100, 200);
	KUNIT_EXPECT_PTR_EQ(test, found, tseg);
	if (found)
		ubcore_obj_ref_put(&found->obj_ref);
	KUNIT_EXPECT_NULL(test, ubcore_find_get_seg(dev, token->token_id,
						    va + len, 1));
	KUNIT_EXPECT_NULL(test, ubcore_find_get_seg(dev, token->token_id,
						    va - 1, 2));
	KUNIT_EXPECT_NULL(test, ubcore_find_get_seg(dev, token->token_id, va,
						    len + 1));
	KUNIT_EXPECT_NULL(test, ubcore_find_get_seg(dev, token->token_id,
						    va + 1, U64_MAX));
	KUNIT_EXPECT_NULL(test, ubcore_find_get_seg(dev, token->token_id,
						    U64_MAX, 2));
	KUNIT_EXPECT_NULL(test, ubcore_find_get_seg(dev, token->token_id + 1,
						    va, 1));
	KUNIT_EXPECT_NULL(test, ubcore_find_get_seg(other, token->token_id,
						    va, 1));

	/* The token ID is busy while the segment uses it. */
	KUNIT_EXPECT_EQ(test, ubcore_free_token_id(token), -EBUSY);
	KUNIT_EXPECT_EQ(test, ubcore_unregister_seg(tseg), 0);
	KUNIT_EXPECT_NULL(test, ubcore_find_get_seg(dev, token->token_id, va, 1));
	KUNIT_EXPECT_EQ(test, atomic_read(&token->use_cnt), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&dev->obj_cnt[UBCORE_OBJ_SEG]), 0);
	KUNIT_EXPECT_EQ(test, ubcore_free_token_id(token), 0);
	KUNIT_EXPECT_EQ(test, ubcore_free_token_id(otoken), 0);
	fake_provider_dev_free(other);
	fake_provider_dev_free(dev);
}

/* Whether @tseg is the segment @dev's lookup finds for [@p, @p + @len). */
static bool seg_covers(struct ubcore_device *dev, struct ubcore_target_seg *tseg,
		       const void *p, u64 len)
{
	struct ubcore_target_seg *found;

	found = ubcore_find_get_seg(dev, tseg->seg.token_id, (uintptr_t)p, len);
	if (found)
		ubcore_obj_ref_put(&found->obj_ref);
	return found == tseg;
}

/*
 * The linear map as one local-only segment: kmalloc'd memory and lowmem
 * pages are inside, vmalloc memory is not; another device's token ID is
 * refused.
 */
static void linear_segment(struct kunit *test)
{
	struct ubcore_device *dev = fake_provider_dev(test, "kunitseg%d", &seg_cap);
	struct ubcore_device *other = fake_provider_dev(test, "kunitseg%d", &seg_cap);
	struct ubcore_token_id *token, *otoken;
	struct ubcore_target_seg *tseg;
	struct page *page;
	void *buf, *vbuf;

	token = ubcore_alloc_token_id(dev, 0, NULL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, token);
	otoken = ubcore_alloc_token_id(other, 0, NULL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, otoken);
	KUNIT_EXPECT_PTR_EQ(test, ubcore_register_linear_seg(dev, otoken),
			    ERR_PTR(-EINVAL));
	KUNIT_EXPECT_PTR_EQ(test, ubcore_register_linear_seg(dev, NULL),
			    ERR_PTR(-EINVAL));

	tseg = ubcore_register_linear_seg(dev, token);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, tseg);
	KUNIT_EXPECT_EQ(test, UBCORE_SEG_FLAG_ACCESS(tseg->seg.attr),
			(u32)UBCORE_ACCESS_LOCAL_ONLY);
	KUNIT_EXPECT_EQ(test, tseg->seg.ubva.va, (u64)PAGE_OFFSET);
	KUNIT_EXPECT_NULL(test, tseg->umem);

	buf = kunit_kzalloc(test, 1500, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	KUNIT_EXPECT_TRUE(test, seg_covers(dev, tseg, buf, 1500));
	page = alloc_page(GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, page);
	KUNIT_EXPECT_TRUE(test, seg_covers(dev, tseg, page_address(page),
					   PAGE_SIZE));
	__free_page(page);
	vbuf = vmalloc(PAGE_SIZE);
	KUNIT_ASSERT_NOT_NULL(test, vbuf);
	KUNIT_EXPECT_FALSE(test, seg_covers(dev, tseg, vbuf, 1));
	vfree(vbuf);
	KUNIT_EXPECT_FALSE(test, seg_covers(dev, tseg, high_memory, 1));

	KUNIT_EXPECT_EQ(test, ubcore_unregister_seg(tseg), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&dev->obj_cnt[UBCORE_OBJ_SEG]), 0);
	KUNIT_EXPECT_EQ(test, ubcore_free_token_id(token), 0);
	KUNIT_EXPECT_EQ(test, ubcore_free_token_id(otoken), 0);
	fake_provider_dev_free(other);
	fake_provider_dev_free(dev);
}

/* Invalidation ends remote lookups only; unregistration is unchanged. */
static void invalidated_segment(struct kunit *test)
{
	struct ubcore_device *dev = fake_provider_dev(test, "kunitseg%d", &seg_cap);
	struct ubcore_target_seg *tseg, *second, *found;
	struct ubcore_token_id *token;
	struct ubcore_seg_cfg cfg;
	const u64 len = 4096;
	void *buf;
	u64 va;

	buf = kunit_kzalloc(test, len, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	va = (uintptr_t)buf;
	token = ubcore_alloc_token_id(dev, 0, NULL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, token);
	cfg = (struct ubcore_seg_cfg){
		.va = va, .len = len, .token_id = token, .token_value = 0xabc,
		.flag = SEG_FLAG(UBCORE_ACCESS_READ | UBCORE_ACCESS_WRITE),
	};
	tseg = ubcore_register_seg(dev, &cfg, NULL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, tseg);
	KUNIT_EXPECT_FALSE(test, tseg->invalid);
	found = ubcore_find_get_remote_seg(dev, token->token_id, va, len);
	KUNIT_EXPECT_PTR_EQ(test, found, tseg);
	if (found)
		ubcore_obj_ref_put(&found->obj_ref);

	ubcore_invalidate_seg(tseg);
	KUNIT_EXPECT_TRUE(test, tseg->invalid);
	KUNIT_EXPECT_NULL(test, ubcore_find_get_remote_seg(dev, token->token_id,
							   va, len));
	KUNIT_EXPECT_NULL(test, ubcore_find_get_remote_seg(dev, token->token_id,
							   va + 8, 8));
	/* The owner still finds it. */
	found = ubcore_find_get_seg(dev, token->token_id, va, len);
	KUNIT_EXPECT_PTR_EQ(test, found, tseg);
	if (found)
		ubcore_obj_ref_put(&found->obj_ref);
	/* Twice is once. */
	ubcore_invalidate_seg(tseg);
	KUNIT_EXPECT_TRUE(test, tseg->invalid);

	/* A new segment over the same memory and token ID is remote again. */
	second = ubcore_register_seg(dev, &cfg, NULL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, second);
	found = ubcore_find_get_remote_seg(dev, token->token_id, va, len);
	KUNIT_EXPECT_PTR_EQ(test, found, second);
	if (found)
		ubcore_obj_ref_put(&found->obj_ref);

	KUNIT_EXPECT_EQ(test, ubcore_unregister_seg(tseg), 0);
	KUNIT_EXPECT_EQ(test, ubcore_unregister_seg(second), 0);
	KUNIT_EXPECT_NULL(test, ubcore_find_get_seg(dev, token->token_id, va, 1));
	KUNIT_EXPECT_EQ(test, atomic_read(&token->use_cnt), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&dev->obj_cnt[UBCORE_OBJ_SEG]), 0);
	KUNIT_EXPECT_EQ(test, ubcore_free_token_id(token), 0);
	fake_provider_dev_free(dev);
}

/* A user segment from a thread without user memory pins nothing. */
static void user_segment_without_mm(struct kunit *test)
{
	struct ubcore_device *dev = fake_provider_dev(test, "kunitseg%d", &seg_cap);
	struct ubcore_ucontext *uctx;
	struct ubcore_token_id *token;
	struct ubcore_udata udata;
	struct ubcore_seg_cfg cfg;

	KUNIT_ASSERT_NULL(test, current->mm);
	uctx = fake_provider_uctx(test, dev, &udata);
	token = ubcore_alloc_token_id(dev, 0, &udata);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, token);
	KUNIT_EXPECT_PTR_EQ(test, token->uctx, uctx);
	cfg = (struct ubcore_seg_cfg){
		.va = 0x10000, .len = 8192, .token_id = token,
		.flag = SEG_FLAG(UBCORE_ACCESS_LOCAL_ONLY),
	};
	/* A kernel caller cannot use a user's token ID. */
	KUNIT_EXPECT_PTR_EQ(test, ubcore_register_seg(dev, &cfg, NULL),
			    ERR_PTR(-EINVAL));
	KUNIT_EXPECT_PTR_EQ(test, ubcore_register_seg(dev, &cfg, &udata),
			    ERR_PTR(-EFAULT));
	KUNIT_EXPECT_EQ(test, atomic64_read(&dev->pinned_pages), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&token->use_cnt), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&dev->obj_cnt[UBCORE_OBJ_SEG]), 0);
	KUNIT_EXPECT_EQ(test, ubcore_free_token_id(token), 0);
	ubcore_free_ucontext(uctx);
	fake_provider_dev_free(dev);
}

static void import_segment(struct kunit *test)
{
	struct ubcore_device *dev = fake_provider_dev(test, "kunitseg%d", &seg_cap);
	struct ubcore_target_seg_cfg cfg = {
		.seg = { .ubva = { .va = 0x1000 }, .len = 4096, .token_id = 3 },
		.token_value = 0x55, .mva = 0x2000,
	};
	struct ubcore_target_seg *tseg;

	tseg = ubcore_import_seg(dev, &cfg, NULL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, tseg);
	KUNIT_EXPECT_EQ(test, tseg->seg.len, 4096u);
	KUNIT_EXPECT_EQ(test, tseg->mva, 0x2000u);
	KUNIT_EXPECT_NULL(test, tseg->token_id);
	KUNIT_EXPECT_EQ(test, atomic_read(&dev->obj_cnt[UBCORE_OBJ_TARGET_SEG]), 1);
	/* Imported segments are not found as local ones. */
	KUNIT_EXPECT_NULL(test, ubcore_find_get_seg(dev, 3, 0x1000, 1));
	cfg.seg.len = 0;
	KUNIT_EXPECT_PTR_EQ(test, ubcore_import_seg(dev, &cfg, NULL),
			    ERR_PTR(-EINVAL));
	KUNIT_EXPECT_EQ(test, ubcore_unimport_seg(tseg), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&dev->obj_cnt[UBCORE_OBJ_TARGET_SEG]), 0);
	fake_provider_dev_free(dev);
}

static struct kunit_case ubcore_seg_cases[] = {
	KUNIT_CASE(access_all_combinations),
	KUNIT_CASE(token_id_range_and_reuse),
	KUNIT_CASE(kernel_segment_lifecycle),
	KUNIT_CASE(linear_segment),
	KUNIT_CASE(invalidated_segment),
	KUNIT_CASE(user_segment_without_mm),
	KUNIT_CASE(import_segment),
	{}
};

static struct kunit_suite ubcore_seg_suite = {
	.name = "ubcore_seg",
	.test_cases = ubcore_seg_cases,
};

kunit_test_suite(ubcore_seg_suite);
