// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * KUnit tests of the event queue of uburma's event files (async events and
 * JFCE): order, the bound, purge of an object's records, a closed queue,
 * the reported counters and freeing of the records.
 */
#include <kunit/test.h>

#include "../uburma.h"
#include "../event_queue.h"

struct event_queue_ctx {
	struct uburma_event_queue q;
	struct uburma_uobj a, b;
};

static int event_queue_test_init(struct kunit *test)
{
	struct event_queue_ctx *ctx = kunit_kzalloc(test, sizeof(*ctx),
						    GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, ctx);
	uburma_event_queue_init(&ctx->q, true);
	test->priv = ctx;
	return 0;
}

/* Nothing may be left queued (kmemleak would see it otherwise). */
static void event_queue_test_exit(struct kunit *test)
{
	struct event_queue_ctx *ctx = test->priv;

	uburma_event_queue_drain(&ctx->q);
}

static void pop_async(struct kunit *test, u64 data, u32 type)
{
	struct event_queue_ctx *ctx = test->priv;
	union uburma_event_rec rec;

	KUNIT_ASSERT_TRUE(test, uburma_event_queue_pop(&ctx->q, &rec));
	KUNIT_EXPECT_EQ(test, rec.async.event_data, data);
	KUNIT_EXPECT_EQ(test, rec.async.event_type, type);
	KUNIT_EXPECT_EQ(test, rec.async.reserved, 0U);
}

static void expect_empty(struct kunit *test)
{
	struct event_queue_ctx *ctx = test->priv;
	union uburma_event_rec rec;

	KUNIT_EXPECT_TRUE(test, uburma_event_queue_empty(&ctx->q));
	KUNIT_EXPECT_EQ(test, ctx->q.count, 0U);
	KUNIT_EXPECT_FALSE(test, uburma_event_queue_pop(&ctx->q, &rec));
}

static void event_queue_test_init_state(struct kunit *test)
{
	struct event_queue_ctx *ctx = test->priv;
	struct uburma_event_queue jfce;

	KUNIT_EXPECT_EQ(test, ctx->q.max, (u32)UBURMA_ASYNC_QUEUE_MAX);
	KUNIT_EXPECT_EQ(test, uburma_event_queue_rec_size(&ctx->q),
			sizeof(struct uburma_async_event));
	uburma_event_queue_init(&jfce, false);
	KUNIT_EXPECT_EQ(test, jfce.max, (u32)UBURMA_JFCE_QUEUE_MAX);
	KUNIT_EXPECT_EQ(test, uburma_event_queue_rec_size(&jfce),
			sizeof(struct uburma_jfce_event));
	KUNIT_EXPECT_TRUE(test, uburma_event_queue_empty(&jfce));
	expect_empty(test);
}

/* Records come out oldest first with their data and type. */
static void event_queue_test_order(struct kunit *test)
{
	struct event_queue_ctx *ctx = test->priv;
	u32 i;

	for (i = 0; i < 5; i++)
		KUNIT_ASSERT_TRUE(test, uburma_event_queue_push(&ctx->q, NULL,
								100 + i, i));
	KUNIT_EXPECT_EQ(test, ctx->q.count, 5U);
	KUNIT_EXPECT_FALSE(test, uburma_event_queue_empty(&ctx->q));
	for (i = 0; i < 5; i++) {
		pop_async(test, 100 + i, i);
		KUNIT_EXPECT_EQ(test, ctx->q.count, 4 - i);
	}
	expect_empty(test);
}

/* A JFCE record carries the urma_jfc value; the type is not part of it. */
static void event_queue_test_jfce(struct kunit *test)
{
	struct event_queue_ctx *ctx = test->priv;
	union uburma_event_rec rec;

	uburma_event_queue_init(&ctx->q, false);
	KUNIT_ASSERT_TRUE(test, uburma_event_queue_push(&ctx->q, &ctx->a,
							0xabcdULL, 7));
	KUNIT_ASSERT_TRUE(test, uburma_event_queue_push(&ctx->q, &ctx->a,
							0xbcdeULL, 7));
	KUNIT_ASSERT_TRUE(test, uburma_event_queue_pop(&ctx->q, &rec));
	KUNIT_EXPECT_EQ(test, rec.jfce.urma_jfc, 0xabcdULL);
	KUNIT_ASSERT_TRUE(test, uburma_event_queue_pop(&ctx->q, &rec));
	KUNIT_EXPECT_EQ(test, rec.jfce.urma_jfc, 0xbcdeULL);
	/* Completion records count as comp_events_reported. */
	KUNIT_EXPECT_EQ(test, ctx->a.comp_events_reported, 2U);
	KUNIT_EXPECT_EQ(test, ctx->a.async_events_reported, 0U);
	expect_empty(test);
}

/* max records are queued, the next is dropped and the first stay. */
static void bound(struct kunit *test, bool async)
{
	struct event_queue_ctx *ctx = test->priv;
	union uburma_event_rec rec;
	u32 max, i;

	uburma_event_queue_init(&ctx->q, async);
	max = ctx->q.max;
	for (i = 0; i < max; i++)
		KUNIT_ASSERT_TRUE(test, uburma_event_queue_push(&ctx->q, NULL,
								i, 1));
	KUNIT_EXPECT_EQ(test, ctx->q.count, max);
	KUNIT_EXPECT_FALSE(test, uburma_event_queue_push(&ctx->q, NULL,
							 max, 1));
	KUNIT_EXPECT_EQ(test, ctx->q.count, max);

	/* Room again after a read. */
	KUNIT_ASSERT_TRUE(test, uburma_event_queue_pop(&ctx->q, &rec));
	KUNIT_EXPECT_EQ(test, async ? rec.async.event_data : rec.jfce.urma_jfc,
			0ULL);
	KUNIT_EXPECT_TRUE(test, uburma_event_queue_push(&ctx->q, NULL,
							max + 1, 1));
	KUNIT_EXPECT_EQ(test, ctx->q.count, max);

	/* The dropped record (max) is not there: 1 .. max - 1, max + 1. */
	for (i = 1; i < max; i++) {
		KUNIT_ASSERT_TRUE(test, uburma_event_queue_pop(&ctx->q, &rec));
		KUNIT_ASSERT_EQ(test, async ? rec.async.event_data :
				rec.jfce.urma_jfc, (u64)i);
	}
	KUNIT_ASSERT_TRUE(test, uburma_event_queue_pop(&ctx->q, &rec));
	KUNIT_EXPECT_EQ(test, async ? rec.async.event_data : rec.jfce.urma_jfc,
			(u64)max + 1);
	expect_empty(test);
}

static void event_queue_test_bound_async(struct kunit *test)
{
	bound(test, true);
}

static void event_queue_test_bound_jfce(struct kunit *test)
{
	bound(test, false);
}

/* Purge removes only the object's records; the rest keep their order. */
static void event_queue_test_purge(struct kunit *test)
{
	struct event_queue_ctx *ctx = test->priv;

	uburma_event_queue_push(&ctx->q, &ctx->a, 1, 10);
	uburma_event_queue_push(&ctx->q, &ctx->b, 2, 20);
	uburma_event_queue_push(&ctx->q, NULL, 3, 30);
	uburma_event_queue_push(&ctx->q, &ctx->a, 4, 40);
	uburma_event_queue_push(&ctx->q, &ctx->b, 5, 50);
	uburma_event_queue_push(&ctx->q, &ctx->a, 6, 60);
	KUNIT_ASSERT_EQ(test, ctx->q.count, 6U);

	uburma_event_queue_purge(&ctx->q, &ctx->a);
	KUNIT_EXPECT_EQ(test, ctx->q.count, 3U);
	/* Purging an object with no records changes nothing. */
	uburma_event_queue_purge(&ctx->q, &ctx->a);
	KUNIT_EXPECT_EQ(test, ctx->q.count, 3U);

	pop_async(test, 2, 20);
	pop_async(test, 3, 30);
	pop_async(test, 5, 50);
	expect_empty(test);
	/* Purged records were never reported. */
	KUNIT_EXPECT_EQ(test, ctx->a.async_events_reported, 0U);
	KUNIT_EXPECT_EQ(test, ctx->b.async_events_reported, 2U);
}

/* Records read count per object; device events (NULL) count nowhere. */
static void event_queue_test_reported(struct kunit *test)
{
	struct event_queue_ctx *ctx = test->priv;

	uburma_event_queue_push(&ctx->q, &ctx->a, 1, 1);
	uburma_event_queue_push(&ctx->q, NULL, 2, 2);
	uburma_event_queue_push(&ctx->q, &ctx->a, 3, 3);
	uburma_event_queue_push(&ctx->q, &ctx->b, 4, 4);
	/* Queued but not read: not reported. */
	KUNIT_EXPECT_EQ(test, ctx->a.async_events_reported, 0U);

	pop_async(test, 1, 1);
	KUNIT_EXPECT_EQ(test, ctx->a.async_events_reported, 1U);
	pop_async(test, 2, 2);
	pop_async(test, 3, 3);
	KUNIT_EXPECT_EQ(test, ctx->a.async_events_reported, 2U);
	KUNIT_EXPECT_EQ(test, ctx->b.async_events_reported, 0U);
	pop_async(test, 4, 4);
	KUNIT_EXPECT_EQ(test, ctx->b.async_events_reported, 1U);
	KUNIT_EXPECT_EQ(test, ctx->a.comp_events_reported, 0U);
	KUNIT_EXPECT_EQ(test, ctx->b.comp_events_reported, 0U);
	expect_empty(test);
}

/* Closing drops what is queued and every later push. */
static void event_queue_test_closed(struct kunit *test)
{
	struct event_queue_ctx *ctx = test->priv;

	uburma_event_queue_push(&ctx->q, &ctx->a, 1, 1);
	uburma_event_queue_push(&ctx->q, NULL, 2, 2);
	uburma_event_queue_close(&ctx->q);
	KUNIT_EXPECT_TRUE(test, ctx->q.closed);
	expect_empty(test);
	KUNIT_EXPECT_FALSE(test, uburma_event_queue_push(&ctx->q, &ctx->a,
							 3, 3));
	expect_empty(test);
	/* Dropped records were never reported. */
	KUNIT_EXPECT_EQ(test, ctx->a.async_events_reported, 0U);
}

/* Drain frees every record and leaves an empty queue. */
static void event_queue_test_drain(struct kunit *test)
{
	struct event_queue_ctx *ctx = test->priv;
	u32 i;

	for (i = 0; i < 100; i++)
		uburma_event_queue_push(&ctx->q, i & 1 ? &ctx->a : NULL, i, i);
	KUNIT_EXPECT_EQ(test, ctx->q.count, 100U);
	uburma_event_queue_drain(&ctx->q);
	expect_empty(test);
	KUNIT_EXPECT_EQ(test, ctx->a.async_events_reported, 0U);
	/* Still usable. */
	KUNIT_EXPECT_TRUE(test, uburma_event_queue_push(&ctx->q, NULL, 7, 8));
	pop_async(test, 7, 8);
	expect_empty(test);
}

static struct kunit_case uburma_event_queue_cases[] = {
	KUNIT_CASE(event_queue_test_init_state),
	KUNIT_CASE(event_queue_test_order),
	KUNIT_CASE(event_queue_test_jfce),
	KUNIT_CASE(event_queue_test_bound_async),
	KUNIT_CASE(event_queue_test_bound_jfce),
	KUNIT_CASE(event_queue_test_purge),
	KUNIT_CASE(event_queue_test_reported),
	KUNIT_CASE(event_queue_test_closed),
	KUNIT_CASE(event_queue_test_drain),
	{}
};

static struct kunit_suite uburma_event_queue_suite = {
	.name = "uburma_event_queue",
	.init = event_queue_test_init,
	.exit = event_queue_test_exit,
	.test_cases = uburma_event_queue_cases,
};

kunit_test_suite(uburma_event_queue_suite);
