/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * Cursor arithmetic of a UMS connection. A cursor is a byte count since
 * the connection started (include/uapi/ub/ums_msg.h); a ring offset is
 * the count modulo the ring's size, a power of two. Every comparison is
 * of differences, so it holds across the wrap of the 64-bit count too.
 * Pure functions: KUnit suite ums_cursor (kunit/cursor_kunit.c).
 */
#ifndef _UMS_CURSOR_H
#define _UMS_CURSOR_H

#include <linux/bits.h>
#include <linux/minmax.h>
#include <linux/types.h>

/* Bytes from cursor @pos to the end of a ring of @size bytes. */
static inline u32 ums_ring_contig(u64 pos, u32 size)
{
	return size - (u32)(pos & (size - 1));
}

/*
 * The next piece of @len bytes at cursor @pos that is contiguous both in
 * a ring of @size_a and in one of @size_b (a WRITE from the send buffer
 * into the peer's RMB): at most @len.
 */
static inline u32 ums_ring_piece(u64 pos, u32 len, u32 size_a, u32 size_b)
{
	return min3(len, ums_ring_contig(pos, size_a),
		    ums_ring_contig(pos, size_b));
}

/* Whether cursor @a is after cursor @b. */
static inline bool ums_cursor_after(u64 a, u64 b)
{
	return (s64)(a - b) > 0;
}

/*
 * The newest cursor not after @cur whose low @bits bits are @low's (a
 * cursor carried in a completion's user_ctx by its low bits).
 */
static inline u64 ums_cursor_expand(u64 cur, u64 low, unsigned int bits)
{
	return cur - ((cur - low) & (BIT_ULL(bits) - 1));
}

/*
 * Whether a peer's producer cursor @prod can be: not before what it said
 * last (@rx_prod), and not past the room of our RMB of @rmb_size whose
 * reader is at @rx_cons.
 */
static inline bool ums_cdc_prod_ok(u64 prod, u64 rx_prod, u64 rx_cons,
				   u32 rmb_size)
{
	return prod - rx_cons <= rmb_size && prod - rx_cons >= rx_prod - rx_cons;
}

/*
 * Whether a peer's consumer cursor @cons can be: not before what it said
 * last (@peer_cons), and not past what we wrote (@tx_write).
 */
static inline bool ums_cdc_cons_ok(u64 cons, u64 peer_cons, u64 tx_write)
{
	return cons - peer_cons <= tx_write - peer_cons;
}

/*
 * Autocorking (SMC-R's): whether bytes just copied into the send buffer
 * wait there, @corked in all not yet written, while @cdc_pend CDCs are
 * on their way: the completion of the last one pushes them (or the next
 * sendmsg that takes them past @cork_size), one WRITE and one CDC for
 * many sendmsg calls. With no CDC pending they go at once: a request of
 * a ping-pong never waits.
 */
static inline bool ums_tx_should_cork(u32 cdc_pend, u64 corked, u32 cork_size)
{
	return cdc_pend && corked <= cork_size;
}

#endif /* _UMS_CURSOR_H */
