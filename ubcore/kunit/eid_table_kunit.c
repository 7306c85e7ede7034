// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * KUnit tests of the EID table rules: dynamic entries mirror the netdev's
 * addresses in free slots, static entries belong to the administrator.
 */
#include <kunit/test.h>
#include <linux/bitmap.h>

#include "../ubcore_priv.h"

#define SIZE 4

struct eid_table_ctx {
	struct ubcore_eid_entry table[SIZE];
	DECLARE_BITMAP(changed, SIZE);
	union ubcore_eid a, b, c, d, e;
};

static int eid_table_init(struct kunit *test)
{
	struct eid_table_ctx *ctx = kunit_kzalloc(test, sizeof(*ctx), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, ctx);
	ubcore_eid_from_ipv4(&ctx->a, htonl(0x0a000001));
	ubcore_eid_from_ipv4(&ctx->b, htonl(0x0a000002));
	ubcore_eid_from_ipv4(&ctx->c, htonl(0x0a000003));
	ubcore_eid_from_ipv4(&ctx->d, htonl(0x0a000004));
	ubcore_eid_from_ipv4(&ctx->e, htonl(0x0a000005));
	test->priv = ctx;
	return 0;
}

static void sync(struct kunit *test, const union ubcore_eid *addrs, u32 n,
		 int want)
{
	struct eid_table_ctx *ctx = test->priv;

	bitmap_zero(ctx->changed, SIZE);
	KUNIT_EXPECT_EQ(test, ubcore_eid_table_sync(ctx->table, SIZE, addrs, n,
						    ctx->changed), want);
}

static void expect_slot(struct kunit *test, u32 idx, const union ubcore_eid *eid,
			bool is_static)
{
	struct eid_table_ctx *ctx = test->priv;

	KUNIT_EXPECT_TRUE(test, ctx->table[idx].valid);
	KUNIT_EXPECT_EQ(test, ctx->table[idx].is_static, is_static);
	KUNIT_EXPECT_EQ(test, memcmp(ctx->table[idx].eid.raw, eid->raw,
				     UBCORE_EID_SIZE), 0);
}

static void sync_fills_lowest_slots(struct kunit *test)
{
	struct eid_table_ctx *ctx = test->priv;
	union ubcore_eid addrs[] = { ctx->a, ctx->b };

	sync(test, addrs, 2, 0);
	expect_slot(test, 0, &ctx->a, false);
	expect_slot(test, 1, &ctx->b, false);
	KUNIT_EXPECT_FALSE(test, ctx->table[2].valid);
	KUNIT_EXPECT_EQ(test, ctx->changed[0], 0x3UL);

	/* The same addresses again change nothing. */
	sync(test, addrs, 2, 0);
	KUNIT_EXPECT_TRUE(test, bitmap_empty(ctx->changed, SIZE));
}

static void sync_removes_vanished_and_reuses_slot(struct kunit *test)
{
	struct eid_table_ctx *ctx = test->priv;
	union ubcore_eid before[] = { ctx->a, ctx->b, ctx->c };
	union ubcore_eid after[] = { ctx->a, ctx->c, ctx->d };

	sync(test, before, 3, 0);
	sync(test, after, 3, 0);
	/* b's slot went away and d took the lowest free slot, which was it. */
	expect_slot(test, 0, &ctx->a, false);
	expect_slot(test, 1, &ctx->d, false);
	expect_slot(test, 2, &ctx->c, false);
	KUNIT_EXPECT_EQ(test, ctx->changed[0], 0x2UL);
}

static void sync_keeps_static_entries(struct kunit *test)
{
	struct eid_table_ctx *ctx = test->priv;
	union ubcore_eid addrs[] = { ctx->a, ctx->b };

	KUNIT_ASSERT_EQ(test, ubcore_eid_table_add(ctx->table, SIZE, 0, &ctx->e), 0);
	/* An address equal to a static EID is not added twice. */
	KUNIT_ASSERT_EQ(test, ubcore_eid_table_add(ctx->table, SIZE, 3, &ctx->b), 0);
	sync(test, addrs, 2, 0);
	expect_slot(test, 0, &ctx->e, true);
	expect_slot(test, 1, &ctx->a, false);
	KUNIT_EXPECT_FALSE(test, ctx->table[2].valid);
	expect_slot(test, 3, &ctx->b, true);

	/* The netdev losing every address leaves the static entries. */
	sync(test, NULL, 0, 0);
	expect_slot(test, 0, &ctx->e, true);
	KUNIT_EXPECT_FALSE(test, ctx->table[1].valid);
	expect_slot(test, 3, &ctx->b, true);
}

static void sync_overflow_reports_enospc(struct kunit *test)
{
	struct eid_table_ctx *ctx = test->priv;
	union ubcore_eid addrs[] = { ctx->a, ctx->b, ctx->c, ctx->d, ctx->e };

	sync(test, addrs, 5, -ENOSPC);
	expect_slot(test, 3, &ctx->d, false);
	KUNIT_EXPECT_EQ(test, ctx->changed[0], 0xfUL);
}

static void static_add_rules(struct kunit *test)
{
	struct eid_table_ctx *ctx = test->priv;
	union ubcore_eid addrs[] = { ctx->a };

	sync(test, addrs, 1, 0);
	KUNIT_EXPECT_EQ(test, ubcore_eid_table_add(ctx->table, SIZE, SIZE, &ctx->b),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, ubcore_eid_table_add(ctx->table, SIZE, 0, &ctx->b),
			-EBUSY);
	KUNIT_EXPECT_EQ(test, ubcore_eid_table_add(ctx->table, SIZE, 2, &ctx->a),
			-EEXIST);
	KUNIT_EXPECT_EQ(test, ubcore_eid_table_add(ctx->table, SIZE, 2, &ctx->b), 0);
	KUNIT_EXPECT_EQ(test, ubcore_eid_table_add(ctx->table, SIZE, 2, &ctx->c),
			-EEXIST);
	expect_slot(test, 2, &ctx->b, true);
}

static void static_del_rules(struct kunit *test)
{
	struct eid_table_ctx *ctx = test->priv;
	union ubcore_eid addrs[] = { ctx->a };

	sync(test, addrs, 1, 0);
	KUNIT_ASSERT_EQ(test, ubcore_eid_table_add(ctx->table, SIZE, 1, &ctx->b), 0);
	KUNIT_EXPECT_EQ(test, ubcore_eid_table_del(ctx->table, SIZE, SIZE), -EINVAL);
	KUNIT_EXPECT_EQ(test, ubcore_eid_table_del(ctx->table, SIZE, 2), -ENOENT);
	KUNIT_EXPECT_EQ(test, ubcore_eid_table_del(ctx->table, SIZE, 0), -EPERM);
	KUNIT_EXPECT_EQ(test, ubcore_eid_table_del(ctx->table, SIZE, 1), 0);
	KUNIT_EXPECT_FALSE(test, ctx->table[1].valid);
	KUNIT_EXPECT_EQ(test, ubcore_eid_table_del(ctx->table, SIZE, 1), -ENOENT);
}

static struct kunit_case ubcore_eid_table_cases[] = {
	KUNIT_CASE(sync_fills_lowest_slots),
	KUNIT_CASE(sync_removes_vanished_and_reuses_slot),
	KUNIT_CASE(sync_keeps_static_entries),
	KUNIT_CASE(sync_overflow_reports_enospc),
	KUNIT_CASE(static_add_rules),
	KUNIT_CASE(static_del_rules),
	{}
};

static struct kunit_suite ubcore_eid_table_suite = {
	.name = "ubcore_eid_table",
	.init = eid_table_init,
	.test_cases = ubcore_eid_table_cases,
};

kunit_test_suite(ubcore_eid_table_suite);

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);
