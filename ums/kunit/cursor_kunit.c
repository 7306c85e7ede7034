// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * KUnit suite ums_cursor: the cursor arithmetic of ums/cursor.h at the
 * ring's end and across the wrap of the 64-bit byte count.
 */
#include <kunit/test.h>

#include "../cursor.h"

#define K16	(16u << 10)
#define K64	(64u << 10)

static void ring_contig_at_the_end(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, ums_ring_contig(0, K16), K16);
	KUNIT_EXPECT_EQ(test, ums_ring_contig(K16 - 1, K16), 1u);
	KUNIT_EXPECT_EQ(test, ums_ring_contig(K16, K16), K16);
	KUNIT_EXPECT_EQ(test, ums_ring_contig(3 * K16 + 100, K16), K16 - 100);
	/* the count wraps where every ring does */
	KUNIT_EXPECT_EQ(test, ums_ring_contig(U64_MAX, K16), 1u);
	KUNIT_EXPECT_EQ(test, ums_ring_contig(U64_MAX - 99, K16), 100u);
}

static void ring_pieces_of_two_rings(struct kunit *test)
{
	u64 pos = U64_MAX - K16 - 9;	/* 10 bytes before a 16 KiB wrap */
	u32 len = 3 * K16, off, n, pieces = 0;

	/* send buffer 64 KiB, RMB 16 KiB: the smaller ring cuts */
	KUNIT_EXPECT_EQ(test, ums_ring_piece(pos, len, K64, K16), 10u);
	KUNIT_EXPECT_EQ(test, ums_ring_piece(pos, len, K16, K64), 10u);
	KUNIT_EXPECT_EQ(test, ums_ring_piece(pos, 4, K64, K16), 4u);
	KUNIT_EXPECT_EQ(test, ums_ring_piece(0, 0, K64, K16), 0u);
	for (off = 0; off < len; off += n, pieces++) {
		n = ums_ring_piece(pos + off, len - off, K64, K16);
		KUNIT_ASSERT_GT(test, n, 0u);
		/* no piece crosses either ring's end */
		KUNIT_EXPECT_LE(test, ((pos + off) & (K16 - 1)) + n, (u64)K16);
		KUNIT_EXPECT_LE(test, ((pos + off) & (K64 - 1)) + n, (u64)K64);
	}
	KUNIT_EXPECT_EQ(test, off, len);
	/* 10 bytes, two whole 16 KiB rings, the 16 KiB - 10 left */
	KUNIT_EXPECT_EQ(test, pieces, 4u);
}

static void cursor_after_across_the_wrap(struct kunit *test)
{
	KUNIT_EXPECT_TRUE(test, ums_cursor_after(1, 0));
	KUNIT_EXPECT_FALSE(test, ums_cursor_after(0, 0));
	KUNIT_EXPECT_FALSE(test, ums_cursor_after(0, 1));
	KUNIT_EXPECT_TRUE(test, ums_cursor_after(5, U64_MAX - 5));
	KUNIT_EXPECT_FALSE(test, ums_cursor_after(U64_MAX - 5, 5));
}

static void cursor_expand_from_low_bits(struct kunit *test)
{
	u64 mask = BIT_ULL(40) - 1, cur = BIT_ULL(40) + 1000;

	KUNIT_EXPECT_EQ(test, ums_cursor_expand(cur, cur & mask, 40), cur);
	KUNIT_EXPECT_EQ(test, ums_cursor_expand(cur, 500, 40),
			BIT_ULL(40) + 500);
	/* low bits past the current ones: the cursor before the 2^40 wrap */
	KUNIT_EXPECT_EQ(test, ums_cursor_expand(cur, mask - 10, 40),
			BIT_ULL(40) - 11);
	/* and across the wrap of the count */
	KUNIT_EXPECT_EQ(test, ums_cursor_expand(20, (U64_MAX - 30) & mask, 40),
			U64_MAX - 30);
}

static void cdc_producer_cursor(struct kunit *test)
{
	u64 cons = U64_MAX - 100, prod = cons + 50;	/* 50 bytes unread */

	KUNIT_EXPECT_TRUE(test, ums_cdc_prod_ok(prod, prod, cons, K16));
	KUNIT_EXPECT_TRUE(test, ums_cdc_prod_ok(prod + 1000, prod, cons, K16));
	/* exactly a full RMB, across the wrap of the count */
	KUNIT_EXPECT_TRUE(test, ums_cdc_prod_ok(cons + K16, prod, cons, K16));
	/* one byte past the room */
	KUNIT_EXPECT_FALSE(test, ums_cdc_prod_ok(cons + K16 + 1, prod, cons,
						 K16));
	/* back by one, and back before the reader */
	KUNIT_EXPECT_FALSE(test, ums_cdc_prod_ok(prod - 1, prod, cons, K16));
	KUNIT_EXPECT_FALSE(test, ums_cdc_prod_ok(cons - 1, prod, cons, K16));
}

static void cdc_consumer_cursor(struct kunit *test)
{
	u64 peer_cons = U64_MAX - 10, tx_write = peer_cons + 30;

	KUNIT_EXPECT_TRUE(test, ums_cdc_cons_ok(peer_cons, peer_cons,
						tx_write));
	KUNIT_EXPECT_TRUE(test, ums_cdc_cons_ok(5, peer_cons, tx_write));
	KUNIT_EXPECT_TRUE(test, ums_cdc_cons_ok(tx_write, peer_cons,
						tx_write));
	/* past what we wrote, and back */
	KUNIT_EXPECT_FALSE(test, ums_cdc_cons_ok(tx_write + 1, peer_cons,
						 tx_write));
	KUNIT_EXPECT_FALSE(test, ums_cdc_cons_ok(peer_cons - 1, peer_cons,
						 tx_write));
}

/* Bytes wait only behind a pending CDC, and only up to the cork size. */
static void tx_cork_behind_a_pending_cdc(struct kunit *test)
{
	KUNIT_EXPECT_FALSE(test, ums_tx_should_cork(0, 1, 4096));
	KUNIT_EXPECT_FALSE(test, ums_tx_should_cork(0, 0, 4096));
	KUNIT_EXPECT_TRUE(test, ums_tx_should_cork(1, 1, 4096));
	KUNIT_EXPECT_TRUE(test, ums_tx_should_cork(3, 4096, 4096));
	KUNIT_EXPECT_FALSE(test, ums_tx_should_cork(1, 4097, 4096));
	KUNIT_EXPECT_FALSE(test, ums_tx_should_cork(1, 1ULL << 40, 4096));
}

static struct kunit_case ums_cursor_cases[] = {
	KUNIT_CASE(ring_contig_at_the_end),
	KUNIT_CASE(ring_pieces_of_two_rings),
	KUNIT_CASE(cursor_after_across_the_wrap),
	KUNIT_CASE(cursor_expand_from_low_bits),
	KUNIT_CASE(cdc_producer_cursor),
	KUNIT_CASE(cdc_consumer_cursor),
	KUNIT_CASE(tx_cork_behind_a_pending_cdc),
	{}
};

static struct kunit_suite ums_cursor_suite = {
	.name = "ums_cursor",
	.test_cases = ums_cursor_cases,
};

kunit_test_suite(ums_cursor_suite);
