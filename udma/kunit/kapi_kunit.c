// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * udma_kapi_kunit.ko: the kernel clients' data path (include/ub/ubcore_dp.h)
 * on a real udma device, through the exported ubcore API only, as a kernel
 * client uses it. Needs the device udma0 (udma loaded with netdev=lo; the
 * in-guest runner does so); each test creates its objects on it, two
 * kernel jetties A and B on the local path, and deletes them after,
 * checking that the device's object counts (sysfs objects/) are 0 again.
 *
 * Expected values are the spec's: statuses and opcodes by their
 * urma_cr_status_t / urma_cr_opcode_t numbers, data by the patterns
 * written, lengths by what was posted.
 */
#include <kunit/test.h>
#include <linux/completion.h>
#include <linux/delay.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/timer.h>

#include <ub/ubcore_device.h>
#include <ub/ubcore_dp.h>

#include "kapi.h"

static void kapi_comp(struct ubcore_jfc *jfc)
{
	struct kapi *k = (struct kapi *)(uintptr_t)jfc->cfg.user_ctx;

	atomic_inc(&k->comp_events);
	complete(&k->comp);
}

static struct ubcore_jfc *kapi_jfc(struct kunit *test, struct kapi *k)
{
	struct ubcore_jfc_cfg cfg = {
		.depth = KAPI_DEPTH * 2,
		.jfce_handler = kapi_comp,
		.user_ctx = (uintptr_t)k,
	};
	struct ubcore_jfc *jfc = ubcore_create_jfc(k->dev, &cfg, NULL, NULL);

	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(jfc), "create_jfc: %ld",
			       PTR_ERR(jfc));
	return jfc;
}

static struct ubcore_jfr *kapi_jfr(struct kunit *test, struct kapi *k,
				   struct ubcore_jfc *jfc)
{
	struct ubcore_jfr_cfg cfg = {
		.depth = KAPI_DEPTH,
		.flag = KAPI_TOKEN_PLAIN,
		.trans_mode = UBCORE_TP_RM,
		.max_sge = KAPI_MAX_SGE,
		.jfc = jfc,
		.token_value = KAPI_JFR_TOKEN,
	};
	struct ubcore_jfr *jfr = ubcore_create_jfr(k->dev, &cfg, NULL, NULL);

	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(jfr), "create_jfr: %ld",
			       PTR_ERR(jfr));
	return jfr;
}

static struct ubcore_jetty *kapi_jetty(struct kunit *test, struct kapi *k,
				       u32 id, u32 jfs_flag,
				       struct ubcore_jfc *jfc,
				       struct ubcore_jfr *jfr)
{
	struct ubcore_jetty_cfg cfg = {
		.id = id,
		.flag = UBCORE_JETTY_SHARE_JFR,
		.jfs_cfg = {
			.flag = jfs_flag,
			.depth = KAPI_DEPTH,
			.trans_mode = UBCORE_TP_RM,
			.max_sge = KAPI_MAX_SGE,
			.max_rsge = 1,
			.rnr_retry = 7,
			.jfc = jfc,
		},
		.jfr = jfr,
	};
	struct ubcore_jetty *jetty;

	jetty = ubcore_create_jetty(k->dev, &cfg, NULL, NULL);
	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(jetty), "create_jetty: %ld",
			       PTR_ERR(jetty));
	return jetty;
}

struct ubcore_target_seg *kapi_reg(struct kunit *test, struct kapi *k,
				   void *buf, u64 len)
{
	struct ubcore_seg_cfg cfg = {
		.va = (uintptr_t)buf,
		.len = len,
		.token_id = k->tid,
		.token_value = KAPI_SEG_TOKEN,
		.flag = KAPI_TOKEN_PLAIN |
			((UBCORE_ACCESS_READ | UBCORE_ACCESS_WRITE |
			  UBCORE_ACCESS_ATOMIC) << 5),
	};
	struct ubcore_target_seg *tseg;

	tseg = ubcore_register_seg(k->dev, &cfg, NULL);
	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(tseg), "register_seg: %ld",
			       PTR_ERR(tseg));
	return tseg;
}

static struct ubcore_target_seg *kapi_import(struct kunit *test,
					     struct kapi *k, u32 token)
{
	struct ubcore_target_seg_cfg cfg = {
		.seg = k->dst_seg->seg,
		.token_value = token,
	};
	struct ubcore_target_seg *tseg;

	tseg = ubcore_import_seg(k->dev, &cfg, NULL);
	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(tseg), "import_seg: %ld",
			       PTR_ERR(tseg));
	return tseg;
}

static void kapi_check_counts(struct kunit *test, struct ubcore_device *dev)
{
	int t;

	for (t = 0; t < UBCORE_OBJ_TYPE_MAX; t++)
		KUNIT_EXPECT_EQ_MSG(test, atomic_read(&dev->obj_cnt[t]), 0,
				    "object type %d", t);
}

int kapi_init(struct kunit *test)
{
	struct ubcore_tjetty_cfg tcfg = {
		.trans_mode = UBCORE_TP_RM,
		.type = UBCORE_TARGET_JETTY,
		.token_value = KAPI_JFR_TOKEN,
	};
	struct kapi *k;

	k = kunit_kzalloc(test, sizeof(*k), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, k);
	test->priv = k;
	init_completion(&k->comp);
	k->dev = ubcore_get_device_by_name(KAPI_DEV);
	KUNIT_ASSERT_NOT_NULL_MSG(test, k->dev,
				  "no %s: load udma with netdev=lo", KAPI_DEV);
	kapi_check_counts(test, k->dev);
	KUNIT_ASSERT_EQ(test, ubcore_get_eid(k->dev, 0, &k->eid), 0);

	k->jfc_a = kapi_jfc(test, k);
	k->jfc_b = kapi_jfc(test, k);
	k->jfr_a = kapi_jfr(test, k, k->jfc_a);
	k->jfr_b = kapi_jfr(test, k, k->jfc_b);
	k->jetty_a = kapi_jetty(test, k, 0, 0, k->jfc_a, k->jfr_a);
	k->jetty_b = kapi_jetty(test, k, KAPI_JETTY_B_ID, 0, k->jfc_b,
				k->jfr_b);
	KUNIT_ASSERT_EQ(test, k->jetty_b->id, KAPI_JETTY_B_ID);

	k->tid = ubcore_alloc_token_id(k->dev, 0, NULL);
	KUNIT_ASSERT_FALSE(test, IS_ERR(k->tid));
	k->src = kzalloc(KAPI_BUF_LEN, GFP_KERNEL);
	k->dst = kzalloc(KAPI_BUF_LEN, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, k->src);
	KUNIT_ASSERT_NOT_NULL(test, k->dst);
	k->src_seg = kapi_reg(test, k, k->src, KAPI_BUF_LEN);
	k->dst_seg = kapi_reg(test, k, k->dst, KAPI_BUF_LEN);
	k->rdst = kapi_import(test, k, KAPI_SEG_TOKEN);
	k->rdst_bad = kapi_import(test, k, KAPI_BAD_TOKEN);

	tcfg.id.eid = k->eid;
	tcfg.id.id = k->jetty_b->id;
	k->tjetty_b = ubcore_import_jetty(k->dev, &tcfg, NULL);
	KUNIT_ASSERT_FALSE(test, IS_ERR(k->tjetty_b));
	return 0;
}

/* Delete what init created (in dependency order), whatever got created. */
void kapi_exit(struct kunit *test)
{
	struct kapi *k = test->priv;

	if (!k || !k->dev)
		return;
	if (!IS_ERR_OR_NULL(k->tjetty_b))
		KUNIT_EXPECT_EQ(test, ubcore_unimport_jetty(k->tjetty_b), 0);
	if (!IS_ERR_OR_NULL(k->rdst_bad))
		KUNIT_EXPECT_EQ(test, ubcore_unimport_seg(k->rdst_bad), 0);
	if (!IS_ERR_OR_NULL(k->rdst))
		KUNIT_EXPECT_EQ(test, ubcore_unimport_seg(k->rdst), 0);
	if (!IS_ERR_OR_NULL(k->dst_seg))
		KUNIT_EXPECT_EQ(test, ubcore_unregister_seg(k->dst_seg), 0);
	if (!IS_ERR_OR_NULL(k->src_seg))
		KUNIT_EXPECT_EQ(test, ubcore_unregister_seg(k->src_seg), 0);
	if (!IS_ERR_OR_NULL(k->tid))
		KUNIT_EXPECT_EQ(test, ubcore_free_token_id(k->tid), 0);
	if (!IS_ERR_OR_NULL(k->jetty_b))
		KUNIT_EXPECT_EQ(test, ubcore_delete_jetty(k->jetty_b), 0);
	if (!IS_ERR_OR_NULL(k->jetty_a))
		KUNIT_EXPECT_EQ(test, ubcore_delete_jetty(k->jetty_a), 0);
	if (!IS_ERR_OR_NULL(k->jfr_b))
		KUNIT_EXPECT_EQ(test, ubcore_delete_jfr(k->jfr_b), 0);
	if (!IS_ERR_OR_NULL(k->jfr_a))
		KUNIT_EXPECT_EQ(test, ubcore_delete_jfr(k->jfr_a), 0);
	if (!IS_ERR_OR_NULL(k->jfc_b))
		KUNIT_EXPECT_EQ(test, ubcore_delete_jfc(k->jfc_b), 0);
	if (!IS_ERR_OR_NULL(k->jfc_a))
		KUNIT_EXPECT_EQ(test, ubcore_delete_jfc(k->jfc_a), 0);
	kfree(k->src);
	kfree(k->dst);
	/* Every object of the test is gone: the counts are back to 0. */
	kapi_check_counts(test, k->dev);
	ubcore_put_device(k->dev);
}

/* Wait for one completion record of @jfc (the engine works meanwhile). */
void kapi_poll_one(struct kunit *test, struct ubcore_jfc *jfc,
		   struct ubcore_cr *cr)
{
	int i, n = 0;

	for (i = 0; i < KAPI_POLL_MS && !n; i++) {
		n = ubcore_poll_jfc(jfc, 1, cr);
		if (!n)
			usleep_range(1000, 2000);
	}
	KUNIT_ASSERT_EQ_MSG(test, n, 1, "no completion on jfc %u", jfc->id);
}

void kapi_expect_empty(struct kunit *test, struct ubcore_jfc *jfc)
{
	struct ubcore_cr cr;

	KUNIT_EXPECT_EQ(test, ubcore_poll_jfc(jfc, 1, &cr), 0);
}

void kapi_fill(u8 *buf, u32 len, u8 seed)
{
	u32 i;

	for (i = 0; i < len; i++)
		buf[i] = seed + i * 7;
}

bool kapi_zero(const u8 *buf, u32 len)
{
	return !memchr_inv(buf, 0, len);
}

void kapi_post_send(struct kunit *test, struct ubcore_jetty *jetty,
		    struct ubcore_jfs_wr *wr)
{
	struct ubcore_jfs_wr *bad = NULL;

	KUNIT_ASSERT_EQ(test, ubcore_post_jetty_send_wr(jetty, wr, &bad), 0);
	KUNIT_EXPECT_NULL(test, bad);
}

void kapi_expect_send_cr(struct kunit *test, struct kapi *k, u32 status,
			 u64 user_ctx, u32 len)
{
	struct ubcore_cr cr;

	kapi_poll_one(test, k->jfc_a, &cr);
	KUNIT_EXPECT_EQ(test, cr.status, status);
	KUNIT_EXPECT_EQ(test, cr.user_ctx, user_ctx);
	KUNIT_EXPECT_EQ(test, cr.local_id, k->jetty_a->id);
	KUNIT_EXPECT_EQ(test, cr.flag, 0);
	if (status == SPEC_CR_SUCCESS)
		KUNIT_EXPECT_EQ(test, cr.completion_len, len);
}

/* A WRITE of 1 KiB into the middle of B's segment; nothing else moves. */
void kapi_write_wr(struct kapi *k, struct ubcore_jfs_wr *wr,
		   struct ubcore_sge *l, struct ubcore_sge *r,
		   struct ubcore_target_seg *rseg, u64 user_ctx)
{
	*l = (struct ubcore_sge){ .addr = (uintptr_t)k->src, .len = 1024,
				  .tseg = k->src_seg };
	*r = (struct ubcore_sge){ .addr = k->dst_seg->seg.ubva.va + 512,
				  .len = 1024, .tseg = rseg };
	memset(wr, 0, sizeof(*wr));
	wr->opcode = UBCORE_OPC_WRITE;
	wr->flag.bs.complete_enable = 1;
	wr->user_ctx = user_ctx;
	wr->rw.src = (struct ubcore_sg){ .sge = l, .num_sge = 1 };
	wr->rw.dst = (struct ubcore_sg){ .sge = r, .num_sge = 1 };
}

/*
 * A WRITE of 1 KiB with the right token lands in the middle of B's
 * segment; with a wrong one it ends in REM_ACCESS_ABORT_ERR and the target
 * memory is untouched.
 */
static void kapi_write_check(struct kunit *test, bool good_token)
{
	struct kapi *k = test->priv;
	struct ubcore_sge l, r;
	struct ubcore_jfs_wr wr;

	kapi_fill(k->src, KAPI_BUF_LEN, 3);
	kapi_write_wr(k, &wr, &l, &r, good_token ? k->rdst : k->rdst_bad,
		      0x1001);
	kapi_post_send(test, k->jetty_a, &wr);
	kapi_expect_send_cr(test, k, good_token ? SPEC_CR_SUCCESS :
				     SPEC_CR_REM_ACCESS_ABORT_ERR, 0x1001, 1024);
	if (good_token) {
		KUNIT_EXPECT_TRUE(test, kapi_zero(k->dst, 512));
		KUNIT_EXPECT_EQ(test, memcmp(k->dst + 512, k->src, 1024), 0);
		KUNIT_EXPECT_TRUE(test, kapi_zero(k->dst + 1536,
						  KAPI_BUF_LEN - 1536));
	} else {
		KUNIT_EXPECT_TRUE(test, kapi_zero(k->dst, KAPI_BUF_LEN));
	}
	kapi_expect_empty(test, k->jfc_a);
	kapi_expect_empty(test, k->jfc_b);
}

void kapi_write(struct kunit *test)
{
	kapi_write_check(test, true);
}

void kapi_write_bad_token(struct kunit *test)
{
	kapi_write_check(test, false);
}

void kapi_read(struct kunit *test)
{
	struct kapi *k = test->priv;
	struct ubcore_sge l = { .addr = (uintptr_t)k->src + 64, .len = 512,
				.tseg = k->src_seg };
	struct ubcore_sge r = { .addr = k->dst_seg->seg.ubva.va + 256,
				.len = 512, .tseg = k->rdst };
	struct ubcore_jfs_wr wr = {
		.opcode = UBCORE_OPC_READ,
		.flag.bs.complete_enable = 1,
		.user_ctx = 0x1003,
		.rw.src = { .sge = &r, .num_sge = 1 },
		.rw.dst = { .sge = &l, .num_sge = 1 },
	};

	kapi_fill(k->dst, KAPI_BUF_LEN, 11);
	kapi_post_send(test, k->jetty_a, &wr);
	kapi_expect_send_cr(test, k, SPEC_CR_SUCCESS, 0x1003, 512);
	KUNIT_EXPECT_TRUE(test, kapi_zero(k->src, 64));
	KUNIT_EXPECT_EQ(test, memcmp(k->src + 64, k->dst + 256, 512), 0);
	KUNIT_EXPECT_TRUE(test, kapi_zero(k->src + 576, KAPI_BUF_LEN - 576));
}

/* SEND_IMM from A to B's well-known jetty, into a receive buffer of B. */
void kapi_send_recv(struct kunit *test)
{
	struct kapi *k = test->priv;
	struct ubcore_sge rs = { .addr = (uintptr_t)k->dst + 100, .len = 2048,
				 .tseg = k->dst_seg };
	struct ubcore_sge ss = { .addr = (uintptr_t)k->src, .len = 300,
				 .tseg = k->src_seg };
	struct ubcore_jfr_wr rwr = {
		.src = { .sge = &rs, .num_sge = 1 },
		.user_ctx = 0x2002,
	};
	struct ubcore_jfs_wr swr = {
		.opcode = UBCORE_OPC_SEND_IMM,
		.flag.bs.complete_enable = 1,
		.flag.bs.solicited_enable = 1,
		.user_ctx = 0x1004,
		.tjetty = k->tjetty_b,
		.send = { .src = { .sge = &ss, .num_sge = 1 },
			  .imm_data = 0xabcdef0123ULL },
	};
	struct ubcore_jfr_wr *rbad = NULL;
	struct ubcore_cr cr;

	kapi_fill(k->src, KAPI_BUF_LEN, 17);
	KUNIT_ASSERT_EQ(test, ubcore_post_jetty_recv_wr(k->jetty_b, &rwr,
							&rbad), 0);
	kapi_post_send(test, k->jetty_a, &swr);
	kapi_expect_send_cr(test, k, SPEC_CR_SUCCESS, 0x1004, 300);

	kapi_poll_one(test, k->jfc_b, &cr);
	KUNIT_EXPECT_EQ(test, cr.status, SPEC_CR_SUCCESS);
	KUNIT_EXPECT_EQ(test, cr.opcode, SPEC_CR_OPC_SEND_WITH_IMM);
	KUNIT_EXPECT_EQ(test, cr.flag, UBCORE_CR_FLAG_RECV | UBCORE_CR_FLAG_IMM |
			UBCORE_CR_FLAG_SOLICITED);
	KUNIT_EXPECT_EQ(test, cr.user_ctx, 0x2002);
	KUNIT_EXPECT_EQ(test, cr.completion_len, 300);
	KUNIT_EXPECT_EQ(test, cr.imm_data, 0xabcdef0123ULL);
	KUNIT_EXPECT_EQ(test, cr.local_id, KAPI_JETTY_B_ID);
	KUNIT_EXPECT_EQ(test, cr.remote_id.id, k->jetty_a->id);
	KUNIT_EXPECT_EQ(test, cr.remote_id.uasid, 0);
	KUNIT_EXPECT_EQ(test, memcmp(&cr.remote_id.eid, &k->eid,
				     sizeof(k->eid)), 0);
	KUNIT_EXPECT_TRUE(test, kapi_zero(k->dst, 100));
	KUNIT_EXPECT_EQ(test, memcmp(k->dst + 100, k->src, 300), 0);
	KUNIT_EXPECT_TRUE(test, kapi_zero(k->dst + 400, KAPI_BUF_LEN - 400));
	kapi_expect_empty(test, k->jfc_b);
}

/* FADD then CAS on one remote word; the old values come back. */
void kapi_atomic(struct kunit *test)
{
	struct kapi *k = test->priv;
	u64 *word = (u64 *)(k->dst + 64), *old = (u64 *)k->src;
	struct ubcore_sge l = { .addr = (uintptr_t)old, .len = 8,
				.tseg = k->src_seg };
	struct ubcore_sge r = { .addr = k->dst_seg->seg.ubva.va + 64, .len = 8,
				.tseg = k->rdst };
	struct ubcore_jfs_wr cas = {
		.opcode = UBCORE_OPC_CAS,
		.flag.bs.complete_enable = 1,
		.user_ctx = 0x1006,
		.cas = { .dst = &r, .src = &l, .cmp_data = 42, .swap_data = 7 },
	};
	struct ubcore_jfs_wr faa = {
		.opcode = UBCORE_OPC_FADD,
		.flag.bs.complete_enable = 1,
		.user_ctx = 0x1005,
		.faa = { .dst = &r, .src = &l, .operand = 2 },
		.next = &cas,
	};

	*word = 40;
	*old = 0;
	/* Two work requests in one post, carried out in order. */
	kapi_post_send(test, k->jetty_a, &faa);
	kapi_expect_send_cr(test, k, SPEC_CR_SUCCESS, 0x1005, 8);
	kapi_expect_send_cr(test, k, SPEC_CR_SUCCESS, 0x1006, 8);
	/* FADD: 40 -> 42 (old 40); CAS: 42 == 42 -> 7 (old 42). */
	KUNIT_EXPECT_EQ(test, *word, 7);
	KUNIT_EXPECT_EQ(test, *old, 42);
}

/*
 * The kernel posting API's WRITE_ATOMIC (the data, then the notify data
 * added to the word) and FLUSH_DMA (a remote range, no local memory), in
 * one post; a FLUSH_DMA with a wrong token is refused by the target.
 */
static void kapi_write_atomic_flush(struct kunit *test)
{
	struct kapi *k = test->priv;
	u64 *word = (u64 *)(k->dst + 64);
	struct ubcore_sge l = { .addr = (uintptr_t)k->src, .len = 256,
				.tseg = k->src_seg };
	struct ubcore_sge r[2] = {
		{ .addr = k->dst_seg->seg.ubva.va + 1024, .len = 256,
		  .tseg = k->rdst },
		{ .addr = k->dst_seg->seg.ubva.va + 64, .len = 8,
		  .tseg = k->rdst },
	};
	struct ubcore_sge f = { .addr = k->dst_seg->seg.ubva.va,
				.len = KAPI_BUF_LEN, .tseg = k->rdst };
	struct ubcore_jfs_wr flush = {
		.opcode = UBCORE_OPC_FLUSH_DMA,
		.flag.bs.complete_enable = 1,
		.user_ctx = 0x1008,
		.rw.dst = { .sge = &f, .num_sge = 1 },
	};
	struct ubcore_jfs_wr wa = {
		.opcode = UBCORE_OPC_WRITE_ATOMIC,
		.flag.bs.complete_enable = 1,
		.user_ctx = 0x1007,
		.rw = { .src = { .sge = &l, .num_sge = 1 },
			.dst = { .sge = r, .num_sge = 2 },
			.notify_data = 5 },
		.next = &flush,
	};

	kapi_fill(k->src, KAPI_BUF_LEN, 23);
	*word = 40;
	kapi_post_send(test, k->jetty_a, &wa);
	kapi_expect_send_cr(test, k, SPEC_CR_SUCCESS, 0x1007, 256);
	kapi_expect_send_cr(test, k, SPEC_CR_SUCCESS, 0x1008, 0);
	KUNIT_EXPECT_EQ(test, *word, 45);
	KUNIT_EXPECT_EQ(test, memcmp(k->dst + 1024, k->src, 256), 0);
	KUNIT_EXPECT_TRUE(test, kapi_zero(k->dst + 1280, KAPI_BUF_LEN - 1280));

	f.tseg = k->rdst_bad;
	flush.next = NULL;
	kapi_post_send(test, k->jetty_a, &flush);
	kapi_expect_send_cr(test, k, SPEC_CR_REM_ACCESS_ABORT_ERR, 0x1008, 0);
	kapi_expect_empty(test, k->jfc_a);
}

/* The completion callback after a rearm, once per rearm. */
static void kapi_rearm(struct kunit *test)
{
	struct kapi *k = test->priv;
	struct ubcore_sge l, r;
	struct ubcore_jfs_wr wr;

	kapi_write_wr(k, &wr, &l, &r, k->rdst, 0x1007);
	KUNIT_ASSERT_EQ(test, ubcore_rearm_jfc(k->jfc_a, false), 0);
	kapi_post_send(test, k->jetty_a, &wr);
	KUNIT_ASSERT_GT(test, wait_for_completion_timeout(&k->comp, 5 * HZ), 0);
	kapi_expect_send_cr(test, k, SPEC_CR_SUCCESS, 0x1007, 1024);
	/* Not rearmed: the next completion raises no event. */
	wr.user_ctx = 0x1008;
	kapi_post_send(test, k->jetty_a, &wr);
	kapi_expect_send_cr(test, k, SPEC_CR_SUCCESS, 0x1008, 1024);
	KUNIT_EXPECT_EQ(test, atomic_read(&k->comp_events), 1);
}

struct kapi_timer {
	struct timer_list timer;
	struct kapi *k;
	struct ubcore_sge l, r;
	struct ubcore_jfs_wr wr;
	int post_ret;
	bool softirq;
	int polls;
	int n;
	struct ubcore_cr cr;
	struct completion done;
};

/*
 * A timer (softirq): the first run posts a WRITE, every run polls the JFC
 * once; the timer rearms itself until a completion record came.
 */
static void kapi_timer_fn(struct timer_list *t)
{
	struct kapi_timer *kt = from_timer(kt, t, timer);
	struct ubcore_jfs_wr *bad;

	if (!kt->polls++) {
		kt->softirq = in_serving_softirq();
		kt->post_ret = ubcore_post_jetty_send_wr(kt->k->jetty_a, &kt->wr,
							 &bad);
	}
	kt->n = ubcore_poll_jfc(kt->k->jfc_a, 1, &kt->cr);
	if (kt->n || kt->post_ret || kt->polls >= KAPI_POLL_MS)
		complete(&kt->done);
	else
		mod_timer(&kt->timer, jiffies + 1);
}

static void kapi_softirq(struct kunit *test)
{
	struct kapi *k = test->priv;
	struct kapi_timer *kt;

	kt = kunit_kzalloc(test, sizeof(*kt), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, kt);
	kt->k = k;
	init_completion(&kt->done);
	kapi_fill(k->src, KAPI_BUF_LEN, 23);
	kapi_write_wr(k, &kt->wr, &kt->l, &kt->r, k->rdst, 0x1009);
	timer_setup(&kt->timer, kapi_timer_fn, 0);
	mod_timer(&kt->timer, jiffies + 1);
	wait_for_completion_timeout(&kt->done, 30 * HZ);
	del_timer_sync(&kt->timer);

	KUNIT_EXPECT_TRUE(test, kt->softirq);
	KUNIT_ASSERT_EQ(test, kt->post_ret, 0);
	KUNIT_ASSERT_EQ(test, kt->n, 1);
	KUNIT_EXPECT_EQ(test, kt->cr.status, SPEC_CR_SUCCESS);
	KUNIT_EXPECT_EQ(test, kt->cr.user_ctx, 0x1009);
	KUNIT_EXPECT_EQ(test, kt->cr.completion_len, 1024);
	KUNIT_EXPECT_EQ(test, memcmp(k->dst + 512, k->src, 1024), 0);
}

/* Malformed work requests are refused at the post, with *bad_wr. */
static void kapi_post_errors(struct kunit *test)
{
	struct kapi *k = test->priv;
	struct ubcore_sge five[5], l, r;
	struct ubcore_jfs_wr nop = {
		.opcode = UBCORE_OPC_NOP,
		.flag.bs.complete_enable = 1,
		.user_ctx = 0x100a,
	};
	struct ubcore_jfs_wr bad_wr, *bad = NULL;
	struct ubcore_jfr_wr rwr = {
		.src = { .sge = five, .num_sge = 5 },
	};
	struct ubcore_jfr_wr *rbad = NULL;
	struct ubcore_cr cr;
	int i;

	for (i = 0; i < 5; i++)
		five[i] = (struct ubcore_sge){ .addr = (uintptr_t)k->src,
					       .len = 8, .tseg = k->src_seg };
	/* More SGEs than max_sge: the NOP before it is posted, it is not. */
	kapi_write_wr(k, &bad_wr, &l, &r, k->rdst, 0x100b);
	bad_wr.rw.src = (struct ubcore_sg){ .sge = five, .num_sge = 5 };
	nop.next = &bad_wr;
	KUNIT_EXPECT_EQ(test, ubcore_post_jetty_send_wr(k->jetty_a, &nop, &bad),
			-EINVAL);
	KUNIT_EXPECT_PTR_EQ(test, bad, &bad_wr);
	kapi_expect_send_cr(test, k, SPEC_CR_SUCCESS, 0x100a, 0);
	kapi_expect_empty(test, k->jfc_a);

	/* An imported segment as a local SGE. */
	kapi_write_wr(k, &bad_wr, &l, &r, k->rdst, 0x100c);
	l.tseg = k->rdst;
	bad = NULL;
	KUNIT_EXPECT_EQ(test, ubcore_post_jetty_send_wr(k->jetty_a, &bad_wr,
							&bad), -EINVAL);
	KUNIT_EXPECT_PTR_EQ(test, bad, &bad_wr);

	/* A registered segment as the remote side. */
	kapi_write_wr(k, &bad_wr, &l, &r, k->dst_seg, 0x100d);
	bad = NULL;
	KUNIT_EXPECT_EQ(test, ubcore_post_jetty_send_wr(k->jetty_a, &bad_wr,
							&bad), -EINVAL);
	KUNIT_EXPECT_PTR_EQ(test, bad, &bad_wr);

	/* A SEND without a target on an RM jetty; an unknown opcode. */
	memset(&bad_wr, 0, sizeof(bad_wr));
	bad_wr.opcode = UBCORE_OPC_SEND;
	bad = NULL;
	KUNIT_EXPECT_EQ(test, ubcore_post_jetty_send_wr(k->jetty_a, &bad_wr,
							&bad), -EINVAL);
	KUNIT_EXPECT_PTR_EQ(test, bad, &bad_wr);
	bad_wr.opcode = 0x30;
	bad_wr.tjetty = k->tjetty_b;
	KUNIT_EXPECT_EQ(test, ubcore_post_jetty_send_wr(k->jetty_a, &bad_wr,
							&bad), -EINVAL);

	/* Receive buffers: more SGEs than the JFR's max_sge. */
	KUNIT_EXPECT_EQ(test, ubcore_post_jetty_recv_wr(k->jetty_b, &rwr,
							&rbad), -EINVAL);
	KUNIT_EXPECT_PTR_EQ(test, rbad, &rwr);

	/* NULL arguments. */
	KUNIT_EXPECT_EQ(test, ubcore_post_jetty_send_wr(NULL, &nop, &bad),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, ubcore_post_jetty_send_wr(k->jetty_a, &nop, NULL),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, ubcore_poll_jfc(k->jfc_a, 1, NULL), -EINVAL);
	KUNIT_EXPECT_EQ(test, ubcore_poll_jfc(k->jfc_a, -1, &cr), -EINVAL);
	kapi_expect_empty(test, k->jfc_a);
	kapi_expect_empty(test, k->jfc_b);
}

/* A full SQ: the work requests that fit are posted, the rest are not. */
static void kapi_queue_full(struct kunit *test)
{
	struct kapi *k = test->priv;
	struct ubcore_jfs_wr *wrs, *bad = NULL;
	struct ubcore_cr cr;
	int i;

	wrs = kunit_kcalloc(test, KAPI_DEPTH + 1, sizeof(*wrs), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, wrs);
	for (i = 0; i <= KAPI_DEPTH; i++) {
		wrs[i].opcode = UBCORE_OPC_NOP;
		wrs[i].flag.bs.complete_enable = 1;
		wrs[i].user_ctx = i;
		wrs[i].next = i < KAPI_DEPTH ? &wrs[i + 1] : NULL;
	}
	/* The SQ holds KAPI_DEPTH entries; its work starts after the post. */
	KUNIT_EXPECT_EQ(test, ubcore_post_jetty_send_wr(k->jetty_a, wrs, &bad),
			-ENOMEM);
	KUNIT_EXPECT_PTR_EQ(test, bad, &wrs[KAPI_DEPTH]);
	for (i = 0; i < KAPI_DEPTH; i++) {
		kapi_poll_one(test, k->jfc_a, &cr);
		KUNIT_EXPECT_EQ(test, cr.status, SPEC_CR_SUCCESS);
		KUNIT_EXPECT_EQ(test, cr.user_ctx, i);
	}
	kapi_expect_empty(test, k->jfc_a);
}

/*
 * A queue whose posts may sleep is run by its poster: a local WRITE's
 * record is on the JFC when the post returns, with no wait for a worker.
 */
static void kapi_post_sleepable(struct kunit *test)
{
	struct kapi *k = test->priv;
	struct ubcore_jetty *jetty;
	struct ubcore_jfs_wr wr;
	struct ubcore_sge l, r;
	struct ubcore_cr cr;

	jetty = kapi_jetty(test, k, 0, UBCORE_JFS_FLAG_POST_SLEEPABLE,
			   k->jfc_a, k->jfr_a);
	kapi_fill(k->src, KAPI_BUF_LEN, 23);
	kapi_write_wr(k, &wr, &l, &r, k->rdst, 0x100e);
	kapi_post_send(test, jetty, &wr);
	KUNIT_EXPECT_EQ(test, ubcore_poll_jfc(k->jfc_a, 1, &cr), 1);
	KUNIT_EXPECT_EQ(test, cr.status, SPEC_CR_SUCCESS);
	KUNIT_EXPECT_EQ(test, cr.user_ctx, 0x100e);
	KUNIT_EXPECT_EQ(test, cr.local_id, jetty->id);
	KUNIT_EXPECT_EQ(test, memcmp(k->dst + 512, k->src, 1024), 0);
	kapi_expect_empty(test, k->jfc_a);
	KUNIT_EXPECT_EQ(test, ubcore_delete_jetty(jetty), 0);
}

static struct kunit_case kapi_cases[] = {
	KUNIT_CASE(kapi_write),
	KUNIT_CASE(kapi_write_bad_token),
	KUNIT_CASE(kapi_read),
	KUNIT_CASE(kapi_send_recv),
	KUNIT_CASE(kapi_atomic),
	KUNIT_CASE(kapi_write_atomic_flush),
	KUNIT_CASE(kapi_rearm),
	KUNIT_CASE(kapi_softirq),
	KUNIT_CASE(kapi_post_errors),
	KUNIT_CASE(kapi_queue_full),
	KUNIT_CASE(kapi_post_sleepable),
	{}
};

static struct kunit_suite kapi_suite = {
	.name = "ubcore_kapi",
	.init = kapi_init,
	.exit = kapi_exit,
	.test_cases = kapi_cases,
};

kunit_test_suite(kapi_suite);

MODULE_DESCRIPTION("KUnit tests of ubcore's kernel data path on a udma device");
MODULE_LICENSE("GPL");
