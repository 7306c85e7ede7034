// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * KUnit tests of the target's checks (format, segment, token) and of
 * taking RQEs off a JFR's ring, on objects built by hand: no device.
 */
#include <kunit/test.h>
#include <linux/slab.h>

#include <ub/ubcore_event.h>

#include "../target.h"

#define SEG_VA		0x10000ULL
#define SEG_LEN		0x1000ULL
#define SEG_TOKEN	0x1234
#define TOKEN_PLAIN	1	/* URMA_TOKEN_PLAIN_TEXT */
#define ACCESS_RW	(UBCORE_ACCESS_READ | UBCORE_ACCESS_WRITE)
#define ACCESS_RWA	(ACCESS_RW | UBCORE_ACCESS_ATOMIC)

static const u8 all_atomics[] = {
	UBOE_TA_CAS, UBOE_TA_SWAP, UBOE_TA_STORE, UBOE_TA_LOAD, UBOE_TA_FADD,
	UBOE_TA_FSUB, UBOE_TA_FAND, UBOE_TA_FOR, UBOE_TA_FXOR,
};

/*
 * The atomics by their UB transaction layer opcode (TAOpcode 0x7-0xF) and
 * their cap.atomic_feature bit: the user guide's values (urma_admin show
 * -w: compare_and_swap 1, swap 2, fetch_and_add 4, fetch_and_sub 8,
 * fetch_and_or 16, fetch_and_xor 32) and 64 for fetch_and, which the guide
 * lacks (include/ub/ubcore_device.h). Store and Load have no URMA opcode,
 * hence no bit.
 */
static const struct {
	u8 opcode;
	u32 bit;
} spec_atomics[] = {
	{ 0x7, 0x01 },	/* Compare_swap */
	{ 0x8, 0x02 },	/* Swap */
	{ 0x9, 0 },	/* Store */
	{ 0xa, 0 },	/* Load */
	{ 0xb, 0x04 },	/* Fetch_add */
	{ 0xc, 0x08 },	/* Fetch_sub */
	{ 0xd, 0x40 },	/* Fetch_and */
	{ 0xe, 0x10 },	/* Fetch_or */
	{ 0xf, 0x20 },	/* Fetch_xor */
};

/* What udma offers: every atomic URMA can post, each bit above. */
#define SPEC_UDMA_ATOMICS	0x7fu

static void seg_init(struct ubcore_target_seg *tseg, u32 policy, u32 access)
{
	memset(tseg, 0, sizeof(*tseg));
	tseg->seg.ubva.va = SEG_VA;
	tseg->seg.len = SEG_LEN;
	tseg->seg.attr = policy | (access << 5);
	tseg->seg.token_id = 7;
	tseg->token_value = SEG_TOKEN;
}

/* A request of @opcode for [@va, @va + @len) of the segment (MAETAH). */
static void txn_init(struct udma_msg *txn, u8 opcode, u64 va, u64 len)
{
	memset(txn, 0, sizeof(*txn));
	txn->pkt.ta_opcode = opcode;
	txn->pkt.hdrs = UBOE_EXT_MAETAH | UBOE_X_TVETAH;
	txn->pkt.mae.va = va;
	txn->pkt.mae.len = len;
	txn->pkt.mae.token_id = 7;
	txn->pkt.token_value = SEG_TOKEN;
}

/* A SEND that invalidates [@va, @va + @len) of the segment (INVETAH). */
static void txn_inv(struct udma_msg *txn, u64 va, u64 len, u32 token)
{
	txn->pkt.hdrs |= UBOE_EXT_INVETAH;
	txn->pkt.inv.va = va;
	txn->pkt.inv.len = len;
	txn->pkt.inv.token_id = 7;
	txn->pkt.inv.token_value = token;
}

static enum uboe_rspst seg_check(u32 policy, u32 access, u8 opcode,
				 u64 va, u64 len, u32 token)
{
	struct ubcore_target_seg tseg;
	struct udma_msg txn;

	seg_init(&tseg, policy, access);
	txn_init(&txn, opcode, va, len);
	txn.pkt.token_value = token;
	return udma_target_check_seg(&tseg, &txn);
}

static void seg_range(struct kunit *test)
{
	static const struct {
		u64 va, len;
		enum uboe_rspst want;
	} cases[] = {
		{ SEG_VA, SEG_LEN, UBOE_RSPST_OK },
		{ SEG_VA, 1, UBOE_RSPST_OK },
		{ SEG_VA + SEG_LEN - 1, 1, UBOE_RSPST_OK },
		{ SEG_VA + 8, SEG_LEN - 8, UBOE_RSPST_OK },
		{ SEG_VA - 1, 1, UBOE_RSPST_ACCESS },		/* start */
		{ SEG_VA - 1, 2, UBOE_RSPST_ACCESS },
		{ SEG_VA + SEG_LEN, 1, UBOE_RSPST_ACCESS },	/* end */
		{ SEG_VA + 1, SEG_LEN, UBOE_RSPST_ACCESS },
		{ SEG_VA, SEG_LEN + 1, UBOE_RSPST_ACCESS },
		{ SEG_VA + 8, U64_MAX - 7, UBOE_RSPST_ACCESS },	/* wraps */
		{ U64_MAX - 3, 8, UBOE_RSPST_ACCESS },
		{ 0, U64_MAX, UBOE_RSPST_ACCESS },
	};
	u32 i;

	for (i = 0; i < ARRAY_SIZE(cases); i++)
		KUNIT_EXPECT_EQ_MSG(test, seg_check(TOKEN_PLAIN, ACCESS_RW,
						    UBOE_TA_WRITE, cases[i].va,
						    cases[i].len, SEG_TOKEN),
				    cases[i].want, "case %u", i);
}

static void seg_token(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, seg_check(TOKEN_PLAIN, ACCESS_RW, UBOE_TA_WRITE,
					SEG_VA, 8, SEG_TOKEN + 1),
			UBOE_RSPST_ACCESS);
	KUNIT_EXPECT_EQ(test, seg_check(TOKEN_PLAIN, ACCESS_RW, UBOE_TA_READ,
					SEG_VA, 8, 0),
			UBOE_RSPST_ACCESS);
	/* policy NONE: any token */
	KUNIT_EXPECT_EQ(test, seg_check(UDMA_TOKEN_NONE, ACCESS_RW,
					UBOE_TA_WRITE, SEG_VA, 8, SEG_TOKEN + 1),
			UBOE_RSPST_OK);
	/* but not outside the segment or without the right */
	KUNIT_EXPECT_EQ(test, seg_check(UDMA_TOKEN_NONE, ACCESS_RW,
					UBOE_TA_WRITE, SEG_VA - 8, 8, 0),
			UBOE_RSPST_ACCESS);
	KUNIT_EXPECT_EQ(test, seg_check(UDMA_TOKEN_NONE, UBCORE_ACCESS_READ,
					UBOE_TA_WRITE, SEG_VA, 8, 0),
			UBOE_RSPST_ACCESS);

	KUNIT_EXPECT_TRUE(test, udma_target_token_ok(0, 1, 2));
	KUNIT_EXPECT_TRUE(test, udma_target_token_ok(0x8, 1, 2));
	KUNIT_EXPECT_TRUE(test, udma_target_token_ok(TOKEN_PLAIN, 5, 5));
	KUNIT_EXPECT_FALSE(test, udma_target_token_ok(TOKEN_PLAIN, 5, 6));
	KUNIT_EXPECT_FALSE(test, udma_target_token_ok(2, 5, 0));
}

static void seg_rights(struct kunit *test)
{
	u32 i;

	/* LOCAL_ONLY refuses every remote access */
	KUNIT_EXPECT_EQ(test, seg_check(TOKEN_PLAIN, UBCORE_ACCESS_LOCAL_ONLY,
					UBOE_TA_WRITE, SEG_VA, 8, SEG_TOKEN),
			UBOE_RSPST_ACCESS);
	KUNIT_EXPECT_EQ(test, seg_check(TOKEN_PLAIN, UBCORE_ACCESS_LOCAL_ONLY,
					UBOE_TA_READ, SEG_VA, 8, SEG_TOKEN),
			UBOE_RSPST_ACCESS);
	KUNIT_EXPECT_EQ(test, seg_check(UDMA_TOKEN_NONE,
					UBCORE_ACCESS_LOCAL_ONLY | ACCESS_RWA,
					UBOE_TA_FADD, SEG_VA, 8, SEG_TOKEN),
			UBOE_RSPST_ACCESS);

	/* WRITE* needs WRITE */
	KUNIT_EXPECT_EQ(test, seg_check(TOKEN_PLAIN, UBCORE_ACCESS_READ,
					UBOE_TA_WRITE, SEG_VA, 8, SEG_TOKEN),
			UBOE_RSPST_ACCESS);
	KUNIT_EXPECT_EQ(test, seg_check(TOKEN_PLAIN, UBCORE_ACCESS_READ,
					UBOE_TA_WRITE_IMM, SEG_VA, 8, SEG_TOKEN),
			UBOE_RSPST_ACCESS);
	KUNIT_EXPECT_EQ(test, seg_check(TOKEN_PLAIN, ACCESS_RW,
					UBOE_TA_WRITE_IMM, SEG_VA, 8, SEG_TOKEN),
			UBOE_RSPST_OK);

	/* READ needs READ (no valid combination lacks it; be strict anyway) */
	KUNIT_EXPECT_EQ(test, seg_check(TOKEN_PLAIN, UBCORE_ACCESS_WRITE,
					UBOE_TA_READ, SEG_VA, 8, SEG_TOKEN),
			UBOE_RSPST_ACCESS);
	KUNIT_EXPECT_EQ(test, seg_check(TOKEN_PLAIN, 0, UBOE_TA_READ, SEG_VA,
					8, SEG_TOKEN),
			UBOE_RSPST_ACCESS);
	KUNIT_EXPECT_EQ(test, seg_check(TOKEN_PLAIN, UBCORE_ACCESS_READ,
					UBOE_TA_READ, SEG_VA, 8, SEG_TOKEN),
			UBOE_RSPST_OK);

	/* atomics need ATOMIC */
	for (i = 0; i < ARRAY_SIZE(all_atomics); i++) {
		KUNIT_EXPECT_EQ_MSG(test, seg_check(TOKEN_PLAIN, ACCESS_RW,
						    all_atomics[i], SEG_VA, 8,
						    SEG_TOKEN),
				    UBOE_RSPST_ACCESS, "opcode 0x%x",
				    all_atomics[i]);
		KUNIT_EXPECT_EQ_MSG(test, seg_check(TOKEN_PLAIN, ACCESS_RWA,
						    all_atomics[i], SEG_VA, 8,
						    SEG_TOKEN),
				    UBOE_RSPST_OK, "opcode 0x%x", all_atomics[i]);
	}

	/* not a memory transaction */
	KUNIT_EXPECT_EQ(test, seg_check(TOKEN_PLAIN, ACCESS_RWA, UBOE_TA_SEND,
					SEG_VA, 8, SEG_TOKEN),
			UBOE_RSPST_ACCESS);
}

static void opcode_tables(struct kunit *test)
{
	u32 op, i, all = 0;

	for (op = 0; op < 0x20; op++)
		KUNIT_EXPECT_EQ(test, udma_ta_is_atomic(op),
				op >= 0x7 && op <= 0xf);
	for (i = 0; i < ARRAY_SIZE(spec_atomics); i++) {
		KUNIT_EXPECT_EQ(test, all_atomics[i], spec_atomics[i].opcode);
		KUNIT_EXPECT_EQ_MSG(test,
				    udma_ta_atomic_feature(spec_atomics[i].opcode),
				    spec_atomics[i].bit, "opcode 0x%x",
				    spec_atomics[i].opcode);
		all |= spec_atomics[i].bit;
	}
	KUNIT_EXPECT_EQ(test, all, SPEC_UDMA_ATOMICS);
	/* The UBCORE_ATOMIC_* names and the device's set are those bits. */
	KUNIT_EXPECT_EQ(test, UBCORE_ATOMIC_CAS, 0x01ul);
	KUNIT_EXPECT_EQ(test, UBCORE_ATOMIC_SWAP, 0x02ul);
	KUNIT_EXPECT_EQ(test, UBCORE_ATOMIC_FAA, 0x04ul);
	KUNIT_EXPECT_EQ(test, UBCORE_ATOMIC_FSUB, 0x08ul);
	KUNIT_EXPECT_EQ(test, UBCORE_ATOMIC_FOR, 0x10ul);
	KUNIT_EXPECT_EQ(test, UBCORE_ATOMIC_FXOR, 0x20ul);
	KUNIT_EXPECT_EQ(test, UBCORE_ATOMIC_FAND, 0x40ul);
	KUNIT_EXPECT_EQ(test, (u32)UDMA_ATOMIC_FEATURE, SPEC_UDMA_ATOMICS);
	/* Not atomics: no bit. */
	KUNIT_EXPECT_EQ(test, udma_ta_atomic_feature(0x3), 0u);	/* Write */
	KUNIT_EXPECT_EQ(test, udma_ta_atomic_feature(0x6), 0u);	/* Read */
	KUNIT_EXPECT_EQ(test, udma_ta_atomic_feature(0x0), 0u);	/* Send */
}

struct fmt_ctx {
	struct udma_local_buf buf8;	/* one 8-byte range */
	struct udma_local_buf buf4;	/* one 4-byte range */
	struct udma_local_buf inl;	/* 8 bytes of inline data */
	struct udma_local_buf ops;	/* an atomic's two operands */
	u64 data;
	__be64 operands[2];
};

static struct fmt_ctx *fmt_ctx(struct kunit *test)
{
	struct fmt_ctx *c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, c);
	c->buf8.nr = 1;
	c->buf8.range[0].len = 8;
	c->buf8.total = 8;
	c->buf4.nr = 1;
	c->buf4.range[0].len = 4;
	c->buf4.total = 4;
	c->inl.inline_data = &c->data;
	c->inl.total = 8;
	c->ops.inline_data = c->operands;
	c->ops.total = 16;
	return c;
}

static enum uboe_rspst fmt(u8 opcode, u64 va, u64 len,
			   const struct udma_local_buf *payload, u32 feat)
{
	struct udma_msg txn;

	txn_init(&txn, opcode, va, len);
	txn.payload = payload;
	return udma_target_check_format(&txn, feat);
}

static void format_atomics(struct kunit *test)
{
	const u32 feat = SPEC_UDMA_ATOMICS;
	struct fmt_ctx *c = fmt_ctx(test);
	/* payloads: the operands, none, 8 inline bytes, an 8-byte range */
	const struct udma_local_buf *pl[] = { &c->ops, NULL, &c->inl,
					      &c->buf8 };
	static const struct {
		u64 off;
		u64 len;
		u32 pl;
		enum uboe_rspst want;
	} bad[] = {
		{ 4, 8, 0, UBOE_RSPST_ACCESS },
		{ 1, 8, 0, UBOE_RSPST_ACCESS },
		{ 0, 4, 0, UBOE_RSPST_ACCESS },
		{ 0, 16, 0, UBOE_RSPST_ACCESS },
		{ 0, 0, 0, UBOE_RSPST_ACCESS },
		{ 0, 8, 1, UBOE_RSPST_OPERATION },
		{ 0, 8, 2, UBOE_RSPST_OPERATION },
		{ 0, 8, 3, UBOE_RSPST_OPERATION },
	};
	u32 i, j;

	for (i = 0; i < ARRAY_SIZE(spec_atomics); i++) {
		u8 op = spec_atomics[i].opcode;
		u32 bit = spec_atomics[i].bit;

		KUNIT_EXPECT_EQ_MSG(test, fmt(op, SEG_VA, 8, &c->ops,
					      feat),
				    bit ? UBOE_RSPST_OK : UBOE_RSPST_UNSUPPORTED,
				    "opcode 0x%x", op);
		/* a device without the bit */
		KUNIT_EXPECT_EQ_MSG(test, fmt(op, SEG_VA, 8, &c->ops,
					      feat & ~bit),
				    UBOE_RSPST_UNSUPPORTED, "opcode 0x%x", op);
		KUNIT_EXPECT_EQ_MSG(test, fmt(op, SEG_VA, 8, &c->ops, 0),
				    UBOE_RSPST_UNSUPPORTED, "opcode 0x%x", op);
		if (!bit)
			continue;
		/* one aligned 8-byte word, then the two operands */
		for (j = 0; j < ARRAY_SIZE(bad); j++)
			KUNIT_EXPECT_EQ_MSG(test,
					    fmt(op, SEG_VA + bad[j].off,
						bad[j].len, pl[bad[j].pl],
						feat),
					    bad[j].want, "opcode 0x%x case %u",
					    op, j);
	}
}

static void format_others(struct kunit *test)
{
	const u32 feat = SPEC_UDMA_ATOMICS;
	struct fmt_ctx *c = fmt_ctx(test);
	static const u8 writers[] = {
		UBOE_TA_WRITE, UBOE_TA_WRITE_IMM, UBOE_TA_WRITE_NOTIFY,
	};
	static const u8 senders[] = { UBOE_TA_SEND, UBOE_TA_SEND_IMM };
	u32 i;

	/* a payload of at least MAETAH len */
	for (i = 0; i < ARRAY_SIZE(writers); i++) {
		u8 op = writers[i];

		KUNIT_EXPECT_EQ(test, fmt(op, SEG_VA, 8, &c->buf8, feat),
				UBOE_RSPST_OK);
		KUNIT_EXPECT_EQ(test, fmt(op, SEG_VA, 8, &c->inl, feat),
				UBOE_RSPST_OK);
		KUNIT_EXPECT_EQ(test, fmt(op, SEG_VA, 4, &c->buf8, feat),
				UBOE_RSPST_OK);
		KUNIT_EXPECT_EQ(test, fmt(op, SEG_VA, 8, &c->buf4, feat),
				UBOE_RSPST_OPERATION);
		KUNIT_EXPECT_EQ(test, fmt(op, SEG_VA, 8, NULL, feat),
				UBOE_RSPST_OPERATION);
		KUNIT_EXPECT_EQ(test, fmt(op, SEG_VA, 0, NULL, feat),
				UBOE_RSPST_OK);
	}
	/* a message's length is its payload's */
	for (i = 0; i < ARRAY_SIZE(senders); i++) {
		KUNIT_EXPECT_EQ(test, fmt(senders[i], 0, 0, &c->buf8, feat),
				UBOE_RSPST_OK);
		KUNIT_EXPECT_EQ(test, fmt(senders[i], 0, 0, &c->inl, feat),
				UBOE_RSPST_OK);
		KUNIT_EXPECT_EQ(test, fmt(senders[i], 0, 0, NULL, feat),
				UBOE_RSPST_OK);
	}

	/* READ: nothing of the initiator's buffer reaches the target */
	KUNIT_EXPECT_EQ(test, fmt(UBOE_TA_READ, SEG_VA, 8, NULL, 0),
			UBOE_RSPST_OK);
	KUNIT_EXPECT_EQ(test, fmt(UBOE_TA_READ, SEG_VA, 0, NULL, 0),
			UBOE_RSPST_OK);

	KUNIT_EXPECT_EQ(test, fmt(0x2, SEG_VA, 8, &c->buf8, feat),
			UBOE_RSPST_UNSUPPORTED);
	KUNIT_EXPECT_EQ(test, fmt(0x10, SEG_VA, 8, &c->buf8, feat),
			UBOE_RSPST_UNSUPPORTED);
	KUNIT_EXPECT_EQ(test, fmt(UBOE_TA_READ_RESP, SEG_VA, 8, &c->buf8,
				  feat),
			UBOE_RSPST_UNSUPPORTED);
	KUNIT_EXPECT_EQ(test, fmt(0xff, SEG_VA, 8, &c->buf8, feat),
			UBOE_RSPST_UNSUPPORTED);
}

static void seg_invalidated(struct kunit *test)
{
	struct ubcore_target_seg tseg;
	struct udma_msg txn;
	u32 i;

	/* Every remote access to an invalidated segment is refused. */
	seg_init(&tseg, TOKEN_PLAIN, ACCESS_RWA);
	tseg.invalid = true;
	txn_init(&txn, UBOE_TA_WRITE, SEG_VA, 8);
	KUNIT_EXPECT_EQ(test, udma_target_check_seg(&tseg, &txn),
			UBOE_RSPST_ACCESS);
	txn.pkt.ta_opcode = UBOE_TA_WRITE_NOTIFY;
	KUNIT_EXPECT_EQ(test, udma_target_check_seg(&tseg, &txn),
			UBOE_RSPST_ACCESS);
	txn.pkt.ta_opcode = UBOE_TA_READ;
	KUNIT_EXPECT_EQ(test, udma_target_check_seg(&tseg, &txn),
			UBOE_RSPST_ACCESS);
	for (i = 0; i < ARRAY_SIZE(all_atomics); i++) {
		txn.pkt.ta_opcode = all_atomics[i];
		KUNIT_EXPECT_EQ_MSG(test, udma_target_check_seg(&tseg, &txn),
				    UBOE_RSPST_ACCESS, "opcode 0x%x",
				    all_atomics[i]);
	}
	/* Whatever the token policy. */
	seg_init(&tseg, UDMA_TOKEN_NONE, ACCESS_RWA);
	tseg.invalid = true;
	txn.pkt.ta_opcode = UBOE_TA_READ;
	KUNIT_EXPECT_EQ(test, udma_target_check_seg(&tseg, &txn),
			UBOE_RSPST_ACCESS);
	tseg.invalid = false;
	KUNIT_EXPECT_EQ(test, udma_target_check_seg(&tseg, &txn), UBOE_RSPST_OK);
}

#define NOTIFY_TOKEN	0x777

/* The NTFETAH word of @opcode (WRITE_NOTIFY or WRITE_ATOMIC_ADD). */
static enum uboe_rspst ntf_word_check(u8 opcode, u32 policy, u32 access,
				      u64 va, u32 token, bool invalid)
{
	struct ubcore_target_seg tseg;
	struct udma_msg txn;

	seg_init(&tseg, policy, access);
	tseg.token_value = NOTIFY_TOKEN;
	tseg.invalid = invalid;
	/* The data range is elsewhere: only the NTFETAH fields count. */
	txn_init(&txn, opcode, 0, 0);
	txn.pkt.token_value = 0;
	txn.pkt.hdrs |= UBOE_EXT_NTFETAH;
	txn.pkt.ntf.token_id = 7;
	txn.pkt.ntf.token_value = token;
	txn.pkt.ntf.va = va;
	txn.pkt.ntf.data = 1;
	return udma_target_check_notify(&tseg, &txn);
}

static enum uboe_rspst notify_check(u32 policy, u32 access, u64 va,
				    u32 token, bool invalid)
{
	return ntf_word_check(UBOE_TA_WRITE_NOTIFY, policy, access, va, token,
			      invalid);
}

static void notify_range_and_rights(struct kunit *test)
{
	struct ubcore_target_seg tseg;
	struct udma_msg txn;

	KUNIT_EXPECT_EQ(test, notify_check(TOKEN_PLAIN, ACCESS_RW, SEG_VA,
					   NOTIFY_TOKEN, false),
			UBOE_RSPST_OK);
	KUNIT_EXPECT_EQ(test, notify_check(TOKEN_PLAIN, ACCESS_RW,
					   SEG_VA + SEG_LEN - 8, NOTIFY_TOKEN,
					   false),
			UBOE_RSPST_OK);
	/* 8 bytes inside the segment */
	KUNIT_EXPECT_EQ(test, notify_check(TOKEN_PLAIN, ACCESS_RW,
					   SEG_VA + SEG_LEN, NOTIFY_TOKEN,
					   false),
			UBOE_RSPST_ACCESS);
	KUNIT_EXPECT_EQ(test, notify_check(TOKEN_PLAIN, ACCESS_RW,
					   SEG_VA + SEG_LEN - 4, NOTIFY_TOKEN,
					   false),
			UBOE_RSPST_ACCESS);
	KUNIT_EXPECT_EQ(test, notify_check(TOKEN_PLAIN, ACCESS_RW, SEG_VA - 8,
					   NOTIFY_TOKEN, false),
			UBOE_RSPST_ACCESS);
	KUNIT_EXPECT_EQ(test, notify_check(TOKEN_PLAIN, ACCESS_RW, U64_MAX - 7,
					   NOTIFY_TOKEN, false),
			UBOE_RSPST_ACCESS);
	/* its own token, not the data range's */
	KUNIT_EXPECT_EQ(test, notify_check(TOKEN_PLAIN, ACCESS_RW, SEG_VA,
					   SEG_TOKEN, false),
			UBOE_RSPST_ACCESS);
	KUNIT_EXPECT_EQ(test, notify_check(UDMA_TOKEN_NONE, ACCESS_RW, SEG_VA,
					   SEG_TOKEN, false),
			UBOE_RSPST_OK);
	/* the WRITE right, no LOCAL_ONLY, not invalidated */
	KUNIT_EXPECT_EQ(test, notify_check(TOKEN_PLAIN, UBCORE_ACCESS_READ,
					   SEG_VA, NOTIFY_TOKEN, false),
			UBOE_RSPST_ACCESS);
	KUNIT_EXPECT_EQ(test, notify_check(TOKEN_PLAIN,
					   UBCORE_ACCESS_LOCAL_ONLY, SEG_VA,
					   NOTIFY_TOKEN, false),
			UBOE_RSPST_ACCESS);
	KUNIT_EXPECT_EQ(test, notify_check(TOKEN_PLAIN, ACCESS_RWA, SEG_VA,
					   NOTIFY_TOKEN, true),
			UBOE_RSPST_ACCESS);

	/* only a WRITE_NOTIFY has a notify word */
	seg_init(&tseg, TOKEN_PLAIN, ACCESS_RW);
	txn_init(&txn, UBOE_TA_WRITE, SEG_VA, 8);
	txn.pkt.ntf.token_value = SEG_TOKEN;
	txn.pkt.ntf.va = SEG_VA;
	KUNIT_EXPECT_EQ(test, udma_target_check_notify(&tseg, &txn),
			UBOE_RSPST_ACCESS);
}

/* WRITE_ATOMIC_ADD's word: the NTFETAH fields, with the ATOMIC right. */
static enum uboe_rspst add_word_check(u32 access, u64 va, u32 token,
				      bool invalid)
{
	return ntf_word_check(UBOE_TA_WRITE_ATOMIC_ADD, TOKEN_PLAIN, access, va,
			      token, invalid);
}

/*
 * WRITE_ATOMIC_ADD: WRITE_NOTIFY's checks, the FAA capability and the
 * ATOMIC right for its word; FLUSH: a range with the WRITE right, no data.
 */
static void write_atomic_add_and_flush(struct kunit *test)
{
	const u32 feat = SPEC_UDMA_ATOMICS;
	struct fmt_ctx *c = fmt_ctx(test);
	struct ubcore_target_seg tseg;
	struct udma_msg txn;

	KUNIT_EXPECT_EQ(test, UBOE_TA_WRITE_ATOMIC_ADD, 0x19);
	KUNIT_EXPECT_EQ(test, UBOE_TA_FLUSH, 0x1a);
	KUNIT_EXPECT_FALSE(test, udma_ta_is_atomic(UBOE_TA_WRITE_ATOMIC_ADD));
	KUNIT_EXPECT_EQ(test, udma_ta_atomic_feature(UBOE_TA_FLUSH), 0u);

	/* format */
	txn_init(&txn, UBOE_TA_WRITE_ATOMIC_ADD, SEG_VA, 8);
	txn.payload = &c->buf8;
	txn.pkt.ntf.va = SEG_VA + 16;
	KUNIT_EXPECT_EQ(test, udma_target_check_format(&txn, feat),
			UBOE_RSPST_OK);
	KUNIT_EXPECT_EQ(test, udma_target_check_format(&txn, UBCORE_ATOMIC_FAA),
			UBOE_RSPST_OK);
	KUNIT_EXPECT_EQ(test,
			udma_target_check_format(&txn,
						 feat & ~UBCORE_ATOMIC_FAA),
			UBOE_RSPST_UNSUPPORTED);
	txn.pkt.ntf.va = SEG_VA + 12;
	KUNIT_EXPECT_EQ(test, udma_target_check_format(&txn, feat),
			UBOE_RSPST_ACCESS);
	txn.pkt.ntf.va = SEG_VA + 16;
	txn.payload = &c->buf4;
	KUNIT_EXPECT_EQ(test, udma_target_check_format(&txn, feat),
			UBOE_RSPST_OPERATION);
	txn_init(&txn, UBOE_TA_WRITE_ATOMIC_ADD, SEG_VA, 0);
	KUNIT_EXPECT_EQ(test, udma_target_check_format(&txn, feat),
			UBOE_RSPST_OK);
	KUNIT_EXPECT_EQ(test, fmt(UBOE_TA_FLUSH, SEG_VA, SEG_LEN, NULL, 0),
			UBOE_RSPST_OK);
	KUNIT_EXPECT_EQ(test, fmt(UBOE_TA_FLUSH, SEG_VA, 0, NULL, 0),
			UBOE_RSPST_OK);
	KUNIT_EXPECT_EQ(test, fmt(UBOE_TA_FLUSH, SEG_VA, 8, &c->buf8, feat),
			UBOE_RSPST_ACCESS);

	/* the data range of WRITE_ATOMIC_ADD and FLUSH: the WRITE right */
	KUNIT_EXPECT_EQ(test, seg_check(TOKEN_PLAIN, ACCESS_RW,
					UBOE_TA_WRITE_ATOMIC_ADD, SEG_VA, 8,
					SEG_TOKEN),
			UBOE_RSPST_OK);
	KUNIT_EXPECT_EQ(test, seg_check(TOKEN_PLAIN, UBCORE_ACCESS_READ |
					UBCORE_ACCESS_ATOMIC,
					UBOE_TA_WRITE_ATOMIC_ADD, SEG_VA, 8,
					SEG_TOKEN),
			UBOE_RSPST_ACCESS);
	KUNIT_EXPECT_EQ(test, seg_check(TOKEN_PLAIN, ACCESS_RW, UBOE_TA_FLUSH,
					SEG_VA, SEG_LEN, SEG_TOKEN),
			UBOE_RSPST_OK);
	KUNIT_EXPECT_EQ(test, seg_check(TOKEN_PLAIN, UBCORE_ACCESS_READ,
					UBOE_TA_FLUSH, SEG_VA, 8, SEG_TOKEN),
			UBOE_RSPST_ACCESS);
	KUNIT_EXPECT_EQ(test, seg_check(TOKEN_PLAIN, ACCESS_RW, UBOE_TA_FLUSH,
					SEG_VA, 8, SEG_TOKEN + 1),
			UBOE_RSPST_ACCESS);
	KUNIT_EXPECT_EQ(test, seg_check(TOKEN_PLAIN, ACCESS_RW, UBOE_TA_FLUSH,
					SEG_VA + 8, SEG_LEN, SEG_TOKEN),
			UBOE_RSPST_ACCESS);
	KUNIT_EXPECT_EQ(test, seg_check(TOKEN_PLAIN, UBCORE_ACCESS_LOCAL_ONLY,
					UBOE_TA_FLUSH, SEG_VA, 8, SEG_TOKEN),
			UBOE_RSPST_ACCESS);
	seg_init(&tseg, TOKEN_PLAIN, ACCESS_RWA);
	tseg.invalid = true;
	txn_init(&txn, UBOE_TA_FLUSH, SEG_VA, 8);
	KUNIT_EXPECT_EQ(test, udma_target_check_seg(&tseg, &txn),
			UBOE_RSPST_ACCESS);
	txn.pkt.ta_opcode = UBOE_TA_WRITE_ATOMIC_ADD;
	KUNIT_EXPECT_EQ(test, udma_target_check_seg(&tseg, &txn),
			UBOE_RSPST_ACCESS);

	/* the word: 8 bytes inside, its own token, the ATOMIC right */
	KUNIT_EXPECT_EQ(test, add_word_check(ACCESS_RWA, SEG_VA, NOTIFY_TOKEN,
					     false),
			UBOE_RSPST_OK);
	KUNIT_EXPECT_EQ(test, add_word_check(UBCORE_ACCESS_READ |
					     UBCORE_ACCESS_ATOMIC, SEG_VA,
					     NOTIFY_TOKEN, false),
			UBOE_RSPST_OK);
	KUNIT_EXPECT_EQ(test, add_word_check(ACCESS_RW, SEG_VA, NOTIFY_TOKEN,
					     false),
			UBOE_RSPST_ACCESS);
	KUNIT_EXPECT_EQ(test, add_word_check(ACCESS_RWA, SEG_VA + SEG_LEN - 4,
					     NOTIFY_TOKEN, false),
			UBOE_RSPST_ACCESS);
	KUNIT_EXPECT_EQ(test, add_word_check(ACCESS_RWA, SEG_VA, SEG_TOKEN,
					     false),
			UBOE_RSPST_ACCESS);
	KUNIT_EXPECT_EQ(test, add_word_check(ACCESS_RWA, SEG_VA, NOTIFY_TOKEN,
					     true),
			UBOE_RSPST_ACCESS);
	KUNIT_EXPECT_EQ(test, add_word_check(UBCORE_ACCESS_LOCAL_ONLY |
					     ACCESS_RWA, SEG_VA, NOTIFY_TOKEN,
					     false),
			UBOE_RSPST_ACCESS);
}

static void format_notify_and_invalidate(struct kunit *test)
{
	const u32 feat = SPEC_UDMA_ATOMICS;
	struct fmt_ctx *c = fmt_ctx(test);
	struct udma_msg txn;

	txn_init(&txn, UBOE_TA_WRITE_NOTIFY, SEG_VA, 8);
	txn.payload = &c->buf8;
	txn.pkt.ntf.va = SEG_VA + 16;
	KUNIT_EXPECT_EQ(test, udma_target_check_format(&txn, feat),
			UBOE_RSPST_OK);
	txn.pkt.ntf.va = SEG_VA + 12;
	KUNIT_EXPECT_EQ(test, udma_target_check_format(&txn, feat),
			UBOE_RSPST_ACCESS);
	txn.pkt.ntf.va = SEG_VA + 17;
	KUNIT_EXPECT_EQ(test, udma_target_check_format(&txn, feat),
			UBOE_RSPST_ACCESS);
	/* no data, only the notify word */
	txn_init(&txn, UBOE_TA_WRITE_NOTIFY, SEG_VA, 0);
	KUNIT_EXPECT_EQ(test, udma_target_check_format(&txn, feat),
			UBOE_RSPST_OK);

	/* invalidation: a SEND naming a non-empty range */
	txn_init(&txn, UBOE_TA_SEND, SEG_VA, 8);
	txn.payload = &c->buf8;
	txn_inv(&txn, SEG_VA, SEG_LEN, SEG_TOKEN);
	KUNIT_EXPECT_EQ(test, udma_target_check_format(&txn, feat),
			UBOE_RSPST_OK);
	txn.pkt.inv.len = 0;
	KUNIT_EXPECT_EQ(test, udma_target_check_format(&txn, feat),
			UBOE_RSPST_ACCESS);
	txn.pkt.inv.len = SEG_LEN;
	txn.pkt.ta_opcode = UBOE_TA_SEND_IMM;
	KUNIT_EXPECT_EQ(test, udma_target_check_format(&txn, feat),
			UBOE_RSPST_ACCESS);
	txn.pkt.ta_opcode = UBOE_TA_WRITE;
	KUNIT_EXPECT_EQ(test, udma_target_check_format(&txn, feat),
			UBOE_RSPST_ACCESS);
}

static enum uboe_rspst inv_check(u32 policy, u32 access, u64 va, u64 len,
				 u32 token, bool invalid)
{
	struct ubcore_target_seg tseg;
	struct udma_msg txn;

	seg_init(&tseg, policy, access);
	tseg.invalid = invalid;
	txn_init(&txn, UBOE_TA_SEND, 0, 0);
	txn_inv(&txn, va, len, token);
	return udma_target_check_inv(&tseg, &txn);
}

static void invalidate_checks(struct kunit *test)
{
	struct ubcore_target_seg tseg;
	struct udma_msg txn;

	KUNIT_EXPECT_EQ(test, inv_check(TOKEN_PLAIN, ACCESS_RW, SEG_VA, SEG_LEN,
					SEG_TOKEN, false),
			UBOE_RSPST_OK);
	/* no particular right: a read-only segment too */
	KUNIT_EXPECT_EQ(test, inv_check(TOKEN_PLAIN, UBCORE_ACCESS_READ, SEG_VA,
					SEG_LEN, SEG_TOKEN, false),
			UBOE_RSPST_OK);
	KUNIT_EXPECT_EQ(test, inv_check(TOKEN_PLAIN, ACCESS_RW, SEG_VA, SEG_LEN,
					SEG_TOKEN + 1, false),
			UBOE_RSPST_ACCESS);
	KUNIT_EXPECT_EQ(test, inv_check(UDMA_TOKEN_NONE, ACCESS_RW, SEG_VA,
					SEG_LEN, SEG_TOKEN + 1, false),
			UBOE_RSPST_OK);
	KUNIT_EXPECT_EQ(test, inv_check(TOKEN_PLAIN, ACCESS_RW, SEG_VA,
					SEG_LEN + 1, SEG_TOKEN, false),
			UBOE_RSPST_ACCESS);
	KUNIT_EXPECT_EQ(test, inv_check(TOKEN_PLAIN, ACCESS_RW, SEG_VA - 1,
					SEG_LEN, SEG_TOKEN, false),
			UBOE_RSPST_ACCESS);
	KUNIT_EXPECT_EQ(test, inv_check(TOKEN_PLAIN, UBCORE_ACCESS_LOCAL_ONLY,
					SEG_VA, SEG_LEN, SEG_TOKEN, false),
			UBOE_RSPST_ACCESS);
	/* twice: the second is a remote access to an invalid segment */
	KUNIT_EXPECT_EQ(test, inv_check(TOKEN_PLAIN, ACCESS_RW, SEG_VA, SEG_LEN,
					SEG_TOKEN, true),
			UBOE_RSPST_ACCESS);

	/* a SEND without invalidate invalidates nothing */
	seg_init(&tseg, TOKEN_PLAIN, ACCESS_RW);
	txn_init(&txn, UBOE_TA_SEND, SEG_VA, 64);
	txn.pkt.inv.va = SEG_VA;
	txn.pkt.inv.len = SEG_LEN;
	txn.pkt.inv.token_value = SEG_TOKEN;
	KUNIT_EXPECT_EQ(test, udma_target_check_inv(&tseg, &txn),
			UBOE_RSPST_ACCESS);
}

/* A JFR with an RQ ring of @cnt entries built by hand. */
struct rq_ctx {
	struct udma_jfr jfr;
	struct udma_ring ring;
	int nr_err, nr_limit;
};

static struct rq_ctx *rq_event_ctx;

static void rq_event(struct ubcore_event *event, struct ubcore_ucontext *uctx)
{
	if (event->type == UBCORE_EVENT_JFR_ERR)
		rq_event_ctx->nr_err++;
	else if (event->type == UBCORE_EVENT_JFR_LIMIT)
		rq_event_ctx->nr_limit++;
}

static struct rq_ctx *rq_ctx(struct kunit *test, u32 cnt, bool user)
{
	struct rq_ctx *c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);
	void *buf;

	KUNIT_ASSERT_NOT_NULL(test, c);
	buf = kunit_kzalloc(test, PAGE_SIZE + cnt * UDMA_RQE_SIZE, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	c->ring.buf = buf;
	c->ring.ctrl = buf;
	c->ring.entries = buf + PAGE_SIZE;
	c->ring.entry_size = UDMA_RQE_SIZE;
	c->ring.entry_cnt = cnt;
	spin_lock_init(&c->ring.lock);
	c->jfr.rq = &c->ring;
	c->jfr.base.id = 42;
	c->jfr.base.state = UBCORE_JFR_STATE_READY;
	c->jfr.base.jfae_handler = rq_event;
	/* rq.c only tells a user JFR (ctrl->pi) from a kernel one */
	c->jfr.base.uctx = user ? (struct ubcore_ucontext *)c : NULL;
	rq_event_ctx = c;
	return c;
}

static void rq_post(struct rq_ctx *c, u32 idx, u64 user_ctx)
{
	struct udma_rqe *rqe = udma_ring_entry(&c->ring, idx);

	rqe->user_ctx = user_ctx;
	rqe->num_sge = 1;
}

static void rq_take_in_order(struct kunit *test)
{
	struct rq_ctx *c = rq_ctx(test, 4, true);
	struct udma_rqe rqe;
	u32 posted, i;

	KUNIT_EXPECT_EQ(test, udma_rq_take(&c->jfr, &rqe, &posted),
			UDMA_RQ_EMPTY);
	/* wrap the ring twice */
	for (i = 0; i < 10; i++) {
		rq_post(c, i, 100 + i);
		c->ring.ctrl->pi = i + 1;
		KUNIT_ASSERT_EQ(test, udma_rq_take(&c->jfr, &rqe, &posted),
				UDMA_RQ_TAKEN);
		KUNIT_EXPECT_EQ(test, rqe.user_ctx, 100ULL + i);
		KUNIT_EXPECT_EQ(test, posted, 0u);
		KUNIT_EXPECT_EQ(test, c->ring.ctrl->ci, i + 1);
		KUNIT_EXPECT_EQ(test, udma_rq_take(&c->jfr, &rqe, &posted),
				UDMA_RQ_EMPTY);
	}
	/* a full ring */
	for (i = 10; i < 14; i++)
		rq_post(c, i, 100 + i);
	c->ring.ctrl->pi = 14;
	for (i = 10; i < 14; i++) {
		KUNIT_ASSERT_EQ(test, udma_rq_take(&c->jfr, &rqe, &posted),
				UDMA_RQ_TAKEN);
		KUNIT_EXPECT_EQ(test, rqe.user_ctx, 100ULL + i);
		KUNIT_EXPECT_EQ(test, posted, 13 - i);
	}
	KUNIT_EXPECT_EQ(test, c->nr_err, 0);
	KUNIT_EXPECT_EQ(test, c->nr_limit, 0);
	KUNIT_EXPECT_EQ(test, c->jfr.base.state, UBCORE_JFR_STATE_READY);
}

static void rq_free_running_wrap(struct kunit *test)
{
	struct rq_ctx *c = rq_ctx(test, 4, true);
	struct udma_rqe rqe;
	u32 posted;

	/* indexes wrap around 2^32 */
	c->ring.ci = U32_MAX - 1;
	rq_post(c, U32_MAX - 1, 1);
	rq_post(c, U32_MAX, 2);
	rq_post(c, 0, 3);
	c->ring.ctrl->pi = 1;
	KUNIT_ASSERT_EQ(test, udma_rq_take(&c->jfr, &rqe, &posted),
			UDMA_RQ_TAKEN);
	KUNIT_EXPECT_EQ(test, rqe.user_ctx, 1ULL);
	KUNIT_EXPECT_EQ(test, posted, 2u);
	KUNIT_ASSERT_EQ(test, udma_rq_take(&c->jfr, &rqe, &posted),
			UDMA_RQ_TAKEN);
	KUNIT_EXPECT_EQ(test, rqe.user_ctx, 2ULL);
	KUNIT_ASSERT_EQ(test, udma_rq_take(&c->jfr, &rqe, &posted),
			UDMA_RQ_TAKEN);
	KUNIT_EXPECT_EQ(test, rqe.user_ctx, 3ULL);
	KUNIT_EXPECT_EQ(test, c->ring.ctrl->ci, 1u);
	KUNIT_EXPECT_EQ(test, udma_rq_take(&c->jfr, &rqe, &posted),
			UDMA_RQ_EMPTY);
}

static void rq_corrupt_pi(struct kunit *test)
{
	struct rq_ctx *c = rq_ctx(test, 4, true);
	struct udma_rqe rqe;
	u32 posted;

	c->ring.ctrl->pi = 5;	/* 5 posted in a ring of 4 */
	KUNIT_EXPECT_EQ(test, udma_rq_take(&c->jfr, &rqe, &posted),
			UDMA_RQ_ERROR);
	KUNIT_EXPECT_EQ(test, c->jfr.base.state, UBCORE_JFR_STATE_ERROR);
	KUNIT_EXPECT_EQ(test, c->nr_err, 1);
	KUNIT_EXPECT_EQ(test, c->ring.ci, 0u);
	/* stays in ERROR, one event */
	c->ring.ctrl->pi = 1;
	KUNIT_EXPECT_EQ(test, udma_rq_take(&c->jfr, &rqe, &posted),
			UDMA_RQ_ERROR);
	KUNIT_EXPECT_EQ(test, c->nr_err, 1);

	/* pi behind ci is as corrupt */
	c = rq_ctx(test, 4, true);
	c->ring.ci = 3;
	c->ring.ctrl->pi = 2;
	KUNIT_EXPECT_EQ(test, udma_rq_take(&c->jfr, &rqe, &posted),
			UDMA_RQ_ERROR);
	KUNIT_EXPECT_EQ(test, c->nr_err, 1);

	/* a JFR not READY takes nothing */
	c = rq_ctx(test, 4, true);
	c->jfr.base.state = UBCORE_JFR_STATE_RESET;
	c->ring.ctrl->pi = 1;
	KUNIT_EXPECT_EQ(test, udma_rq_take(&c->jfr, &rqe, &posted),
			UDMA_RQ_ERROR);
	KUNIT_EXPECT_EQ(test, c->ring.ci, 0u);
	KUNIT_EXPECT_EQ(test, c->nr_err, 0);
}

/* Takes the next RQE, which must be the one posted with user_ctx @want. */
static void rq_take_one(struct kunit *test, struct rq_ctx *c, u64 want,
			u32 want_posted)
{
	struct udma_rqe rqe;
	u32 posted = U32_MAX;

	KUNIT_ASSERT_EQ(test, udma_rq_take(&c->jfr, &rqe, &posted),
			UDMA_RQ_TAKEN);
	KUNIT_EXPECT_EQ(test, rqe.user_ctx, want);
	KUNIT_EXPECT_EQ(test, posted, want_posted);
}

/*
 * rx_threshold 2: JFR_LIMIT when the RQEs left drop below 2, once per
 * crossing (guide: the JFR limit event).
 */
static void rq_limit_event(struct kunit *test)
{
	struct rq_ctx *c = rq_ctx(test, 8, true);
	struct udma_rqe rqe;
	u32 posted, i;

	c->jfr.base.rx_threshold = 2;
	for (i = 0; i < 4; i++)
		rq_post(c, i, 100 + i);
	c->ring.ctrl->pi = 4;
	rq_take_one(test, c, 100, 3);
	rq_take_one(test, c, 101, 2);
	KUNIT_EXPECT_EQ(test, c->nr_limit, 0);
	rq_take_one(test, c, 102, 1);	/* below 2 */
	KUNIT_EXPECT_EQ(test, c->nr_limit, 1);
	rq_take_one(test, c, 103, 0);	/* still below */
	KUNIT_EXPECT_EQ(test, c->nr_limit, 1);
	/* Empty: nothing taken, no event. */
	KUNIT_EXPECT_EQ(test, udma_rq_take(&c->jfr, &rqe, &posted),
			UDMA_RQ_EMPTY);
	KUNIT_EXPECT_EQ(test, c->nr_limit, 1);
	KUNIT_EXPECT_EQ(test, c->ring.ctrl->ci, 4u);
	/* refilled above the threshold and drained again: once more */
	for (i = 4; i < 7; i++)
		rq_post(c, i, 100 + i);
	c->ring.ctrl->pi = 7;
	rq_take_one(test, c, 104, 2);
	KUNIT_EXPECT_EQ(test, c->nr_limit, 1);
	rq_take_one(test, c, 105, 1);
	KUNIT_EXPECT_EQ(test, c->nr_limit, 2);
	rq_take_one(test, c, 106, 0);
	KUNIT_EXPECT_EQ(test, c->nr_limit, 2);
	KUNIT_EXPECT_EQ(test, c->ring.ctrl->ci, 7u);
	KUNIT_EXPECT_EQ(test, c->nr_err, 0);
	KUNIT_EXPECT_EQ(test, c->jfr.base.state, UBCORE_JFR_STATE_READY);
}

static void rq_kernel_jfr(struct kunit *test)
{
	struct rq_ctx *c = rq_ctx(test, 4, false);
	struct udma_rqe rqe;
	u32 posted;

	/* a kernel JFR's producer index is ring->pi, not ctrl->pi */
	c->ring.ctrl->pi = 3;
	KUNIT_EXPECT_EQ(test, udma_rq_take(&c->jfr, &rqe, &posted),
			UDMA_RQ_EMPTY);
	rq_post(c, 0, 9);
	c->ring.pi = 1;
	KUNIT_ASSERT_EQ(test, udma_rq_take(&c->jfr, &rqe, &posted),
			UDMA_RQ_TAKEN);
	KUNIT_EXPECT_EQ(test, rqe.user_ctx, 9ULL);
	KUNIT_EXPECT_EQ(test, c->ring.ci, 1u);
}

static struct kunit_case udma_target_cases[] = {
	KUNIT_CASE(seg_range),
	KUNIT_CASE(seg_token),
	KUNIT_CASE(seg_rights),
	KUNIT_CASE(opcode_tables),
	KUNIT_CASE(format_atomics),
	KUNIT_CASE(format_others),
	KUNIT_CASE(seg_invalidated),
	KUNIT_CASE(notify_range_and_rights),
	KUNIT_CASE(format_notify_and_invalidate),
	KUNIT_CASE(write_atomic_add_and_flush),
	KUNIT_CASE(invalidate_checks),
	KUNIT_CASE(rq_take_in_order),
	KUNIT_CASE(rq_free_running_wrap),
	KUNIT_CASE(rq_corrupt_pi),
	KUNIT_CASE(rq_limit_event),
	KUNIT_CASE(rq_kernel_jfr),
	{}
};

static struct kunit_suite udma_target_suite = {
	.name = "udma_target",
	.test_cases = udma_target_cases,
};

kunit_test_suite(udma_target_suite);
