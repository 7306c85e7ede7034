// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * KUnit tests of the TP table and connection manager (tp.c): two fake
 * devices, a and b, whose management messages travel through the fake
 * provider's send_mgmt and ubcore_recv_mgmt() as udma's do on one host.
 * The expectations are the user guide's (5.1.1.1 connection, 5.1.1.2
 * sharing and reject, 5.1.1.4 states) and the errnos tp.c documents.
 */
#include <kunit/test.h>
#include <linux/completion.h>
#include <linux/delay.h>
#include <linux/err.h>
#include <linux/kthread.h>

#include <uapi/ub/uboe_wire.h>

#include <ub/ubcore_event.h>
#include <ub/ubcore_tp.h>

#include "../tp.h"
#include "fake_provider.h"

#define TOKEN		0x5eed
#define TOKEN_POLICY	1	/* urma_jfr_flag_t token_policy: plain text */

static const struct ubcore_device_cap cm_cap = {
	.max_jfc = 4,
	.max_jfs = 4,
	.max_jfr = 4,
	.max_jetty = 4,
	FAKE_PROVIDER_QUEUE_CAP,
};

struct cm_ctx {
	struct ubcore_device *a, *b;
	union ubcore_eid ea, eb;
	struct ubcore_jfc *jfc_a, *jfc_b;
	struct ubcore_jfr *jfr_a, *jfr_b, *jfr_b_rc;
};

static struct ubcore_jfr *new_jfr(struct kunit *test, struct ubcore_device *dev,
				  struct ubcore_jfc *jfc, u32 mode)
{
	struct ubcore_jfr_cfg cfg = {
		.depth = 32, .trans_mode = mode, .max_sge = 2,
		.min_rnr_timer = 31, .jfc = jfc, .flag = TOKEN_POLICY,
		.token_value = TOKEN,
	};
	struct ubcore_jfr *jfr = ubcore_create_jfr(dev, &cfg, NULL, NULL);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, jfr);
	return jfr;
}

static int cm_init(struct kunit *test)
{
	struct cm_ctx *ctx = kunit_kzalloc(test, sizeof(*ctx), GFP_KERNEL);
	struct ubcore_jfc_cfg jcfg = { .depth = 64 };

	KUNIT_ASSERT_NOT_NULL(test, ctx);
	test->priv = ctx;
	ubcore_eid_from_ipv4(&ctx->ea, htonl(0x0a630001));	/* 10.99.0.1 */
	ubcore_eid_from_ipv4(&ctx->eb, htonl(0x0a630002));	/* 10.99.0.2 */
	ctx->a = fake_provider_dev(test, "kunitcm%d", &cm_cap);
	ctx->b = fake_provider_dev(test, "kunitcm%d", &cm_cap);
	KUNIT_ASSERT_EQ(test, ubcore_add_static_eid(ctx->a, 0, &ctx->ea), 0);
	KUNIT_ASSERT_EQ(test, ubcore_add_static_eid(ctx->b, 0, &ctx->eb), 0);
	/* long enough that no message is sent twice on a slow guest */
	ubcore_cm_set_timing(ctx->a, 5000, 2);
	ubcore_cm_set_timing(ctx->b, 5000, 2);
	/* no keepalive but where a case turns it on: messages counted exactly */
	ubcore_cm_set_keepalive(ctx->a, 0);
	ubcore_cm_set_keepalive(ctx->b, 0);
	ctx->jfc_a = ubcore_create_jfc(ctx->a, &jcfg, NULL, NULL);
	ctx->jfc_b = ubcore_create_jfc(ctx->b, &jcfg, NULL, NULL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, ctx->jfc_a);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, ctx->jfc_b);
	ctx->jfr_a = new_jfr(test, ctx->a, ctx->jfc_a, UBCORE_TP_RM);
	ctx->jfr_b = new_jfr(test, ctx->b, ctx->jfc_b, UBCORE_TP_RM);
	ctx->jfr_b_rc = new_jfr(test, ctx->b, ctx->jfc_b, UBCORE_TP_RC);
	return 0;
}

static void cm_exit(struct kunit *test)
{
	struct cm_ctx *ctx = test->priv;

	fake_mgmt_release();
	/* a case that removed b (peer_device_removed_tells_the_imports) */
	if (ctx->b) {
		ubcore_delete_jfr(ctx->jfr_b_rc);
		ubcore_delete_jfr(ctx->jfr_b);
	}
	ubcore_delete_jfr(ctx->jfr_a);
	if (ctx->b)
		ubcore_delete_jfc(ctx->jfc_b);
	ubcore_delete_jfc(ctx->jfc_a);
	if (ctx->b)
		fake_provider_dev_free(ctx->b);
	fake_provider_dev_free(ctx->a);
}

static struct ubcore_tp_key rm_key(const union ubcore_eid *l,
				   const union ubcore_eid *r)
{
	return (struct ubcore_tp_key){ .local = *l, .remote = *r,
				       .mode = UBOE_MGMT_TM_RM };
}

static struct ubcore_tp_target jfr_target(const struct ubcore_jfr *jfr, u32 token)
{
	return (struct ubcore_tp_target){ .id = jfr->id,
					  .type = UBOE_MGMT_TARGET_JFR,
					  .token_value = token };
}

/* The TPs of @dev, at most 8; returns how many. */
static int tps(struct ubcore_device *dev, struct ubcore_tp_info *info)
{
	return ubcore_tp_list(dev, 1, info, 8);
}

/* Waits (up to 2 s) until @dev has @n TPs; the peer's side is asynchronous. */
static void wait_tps(struct kunit *test, struct ubcore_device *dev, int n)
{
	struct ubcore_tp_info info[8];
	int i;

	for (i = 0; i < 100 && tps(dev, info) != n; i++)
		msleep(20);
	KUNIT_EXPECT_EQ(test, tps(dev, info), n);
}

/*
 * Waits (up to 2 s) until @dev's TP number @i (by TPN) is in @state, and
 * expects it: the target's end is established when the CONN_ACK arrives,
 * which the peer's work handles after the open returned.
 */
static void wait_state(struct kunit *test, struct ubcore_device *dev, int i,
		       u8 state)
{
	struct ubcore_tp_info info[8];
	int k;

	for (k = 0; k < 100 && !(tps(dev, info) > i && info[i].state == state); k++)
		msleep(20);
	KUNIT_ASSERT_GT(test, tps(dev, info), i);
	KUNIT_EXPECT_EQ(test, info[i].state, state);
}

/* 5.1.1.1 then 5.1.1.2: RM shares one TP per (local EID, remote EID). */
static void rm_imports_share_one_tp(struct kunit *test)
{
	struct cm_ctx *ctx = test->priv;
	struct ubcore_tp_key key = rm_key(&ctx->ea, &ctx->eb);
	struct ubcore_tp_target tgt = jfr_target(ctx->jfr_b, TOKEN);
	struct ubcore_tp_info ia[8], ib[8];
	struct ubcore_tp *t1, *t2;

	KUNIT_ASSERT_EQ(test, ubcore_tp_open(ctx->a, &key, &tgt, &t1), 0);
	KUNIT_ASSERT_EQ(test, ubcore_tp_open(ctx->a, &key, &tgt, &t2), 0);
	KUNIT_EXPECT_PTR_EQ(test, t1, t2);
	/*
	 * CONN_REQ, CONN_REP, CONN_ACK; the second open only has b check its
	 * target (a link check: CONN_REQ on the TP, CONN_REP)
	 */
	KUNIT_EXPECT_EQ(test, fake_mgmt.sent, 5U);
	wait_tps(test, ctx->b, 1);
	KUNIT_ASSERT_EQ(test, tps(ctx->a, ia), 1);
	KUNIT_ASSERT_EQ(test, tps(ctx->b, ib), 1);
	KUNIT_EXPECT_EQ(test, ia[0].state, UBCORE_TPS_INITIATOR_ESTABLISHED);
	KUNIT_EXPECT_EQ(test, ib[0].state, UBCORE_TPS_TARGET_ESTABLISHED);
	KUNIT_EXPECT_EQ(test, ia[0].users, 2U);
	KUNIT_EXPECT_EQ(test, ib[0].users, 0U);
	KUNIT_EXPECT_EQ(test, ia[0].peer_tpn, ib[0].tpn);
	KUNIT_EXPECT_EQ(test, ib[0].peer_tpn, ia[0].tpn);
	KUNIT_EXPECT_EQ(test, memcmp(ia[0].peer.raw, ctx->eb.raw, 16), 0);
	KUNIT_EXPECT_EQ(test, memcmp(ib[0].peer.raw, ctx->ea.raw, 16), 0);

	ubcore_tp_close(t1);
	KUNIT_EXPECT_EQ(test, tps(ctx->a, ia), 1);	/* one user left */
	ubcore_tp_close(t2);
	/* 1424, 1425 here; DCONN_NOTIFY takes b through 1424, 1407 */
	KUNIT_EXPECT_EQ(test, tps(ctx->a, ia), 0);
	wait_tps(test, ctx->b, 0);
	KUNIT_EXPECT_EQ(test, atomic64_read(&ubcore_cm_fsm_stats(ctx->a)->refused), 0LL);
	KUNIT_EXPECT_EQ(test, atomic64_read(&ubcore_cm_fsm_stats(ctx->b)->refused), 0LL);
}

/* RC: one TP per bound jetty pair, apart from the RM TP of the same EIDs. */
static void rc_pairs_get_their_own_tp(struct kunit *test)
{
	struct cm_ctx *ctx = test->priv;
	struct ubcore_tp_key rm = rm_key(&ctx->ea, &ctx->eb);
	struct ubcore_tp_key rc1 = { .local = ctx->ea, .remote = ctx->eb,
				     .mode = UBOE_MGMT_TM_RC, .local_jetty = 5,
				     .remote_jetty = ctx->jfr_b_rc->id };
	struct ubcore_tp_key rc2 = rc1;
	struct ubcore_tp_target rmt = jfr_target(ctx->jfr_b, TOKEN);
	struct ubcore_tp_target rct = jfr_target(ctx->jfr_b_rc, TOKEN);
	struct ubcore_tp_info info[8];
	struct ubcore_tp *t[3];

	rc2.local_jetty = 6;
	KUNIT_ASSERT_EQ(test, ubcore_tp_open(ctx->a, &rm, &rmt, &t[0]), 0);
	KUNIT_ASSERT_EQ(test, ubcore_tp_open(ctx->a, &rc1, &rct, &t[1]), 0);
	KUNIT_ASSERT_EQ(test, ubcore_tp_open(ctx->a, &rc2, &rct, &t[2]), 0);
	KUNIT_EXPECT_PTR_NE(test, t[0], t[1]);
	KUNIT_EXPECT_PTR_NE(test, t[1], t[2]);
	KUNIT_EXPECT_EQ(test, tps(ctx->a, info), 3);
	wait_tps(test, ctx->b, 3);
	ubcore_tp_close(t[0]);
	ubcore_tp_close(t[1]);
	ubcore_tp_close(t[2]);
	KUNIT_EXPECT_EQ(test, tps(ctx->a, info), 0);
	wait_tps(test, ctx->b, 0);
}

/* Opens of @key that b rejects: each reason as its errno. */
static void expect_rejects(struct kunit *test, const struct ubcore_tp_key *key)
{
	struct cm_ctx *ctx = test->priv;
	struct ubcore_tp_target tgt = jfr_target(ctx->jfr_b, TOKEN);
	struct ubcore_tp *tp;

	tgt.id = 4000;			/* no such JFR on b */
	KUNIT_EXPECT_EQ(test, ubcore_tp_open(ctx->a, key, &tgt, &tp), -ENOENT);
	tgt = jfr_target(ctx->jfr_b_rc, TOKEN);	/* an RC JFR, RM TP */
	KUNIT_EXPECT_EQ(test, ubcore_tp_open(ctx->a, key, &tgt, &tp), -EPROTOTYPE);
	tgt = jfr_target(ctx->jfr_b, TOKEN + 1);
	KUNIT_EXPECT_EQ(test, ubcore_tp_open(ctx->a, key, &tgt, &tp), -EPERM);
}

/* 5.1.1.2 reject: each reason reaches the caller as its errno. */
static void rejects_reach_the_caller(struct kunit *test)
{
	struct cm_ctx *ctx = test->priv;
	struct ubcore_tp_key key = rm_key(&ctx->ea, &ctx->eb);
	struct ubcore_tp_target tgt;
	struct ubcore_tp_info info[8];
	struct ubcore_tp *tp;

	expect_rejects(test, &key);
	/* the rollback left nothing on either side */
	KUNIT_EXPECT_EQ(test, tps(ctx->a, info), 0);
	wait_tps(test, ctx->b, 0);
	/* and a right request still works */
	tgt = jfr_target(ctx->jfr_b, TOKEN);
	KUNIT_ASSERT_EQ(test, ubcore_tp_open(ctx->a, &key, &tgt, &tp), 0);
	ubcore_tp_close(tp);
	wait_tps(test, ctx->b, 0);
}

/*
 * 5.1.1.2: a reject on a shared TP rolls back the transaction layer only.
 * Opens that join the established RM TP still have b check their target,
 * each failure reaching its caller while the TP and its user stay.
 */
static void joiners_are_checked_on_a_shared_tp(struct kunit *test)
{
	struct cm_ctx *ctx = test->priv;
	struct ubcore_tp_key key = rm_key(&ctx->ea, &ctx->eb);
	struct ubcore_tp_target tgt = jfr_target(ctx->jfr_b, TOKEN);
	struct ubcore_tp_info ia[8], ib[8];
	struct ubcore_tp *t1, *t2;

	KUNIT_ASSERT_EQ(test, ubcore_tp_open(ctx->a, &key, &tgt, &t1), 0);
	expect_rejects(test, &key);
	/* the TP is untouched: one user, still established on both sides */
	KUNIT_ASSERT_EQ(test, tps(ctx->a, ia), 1);
	KUNIT_ASSERT_EQ(test, tps(ctx->b, ib), 1);
	KUNIT_EXPECT_EQ(test, ia[0].users, 1U);
	KUNIT_EXPECT_EQ(test, ia[0].state, UBCORE_TPS_INITIATOR_ESTABLISHED);
	KUNIT_EXPECT_EQ(test, ib[0].state, UBCORE_TPS_TARGET_ESTABLISHED);
	tgt = jfr_target(ctx->jfr_b, TOKEN);
	KUNIT_ASSERT_EQ(test, ubcore_tp_open(ctx->a, &key, &tgt, &t2), 0);
	KUNIT_EXPECT_PTR_EQ(test, t1, t2);
	KUNIT_ASSERT_EQ(test, tps(ctx->a, ia), 1);
	KUNIT_EXPECT_EQ(test, ia[0].users, 2U);
	/* a peer that stops answering: the joiner times out, the TP stays */
	ubcore_cm_set_timing(ctx->a, 20, 1);
	fake_mgmt.drop = true;
	KUNIT_EXPECT_EQ(test, ubcore_tp_open(ctx->a, &key, &tgt, &t2), -ETIMEDOUT);
	fake_mgmt.drop = false;
	KUNIT_ASSERT_EQ(test, tps(ctx->a, ia), 1);
	KUNIT_EXPECT_EQ(test, ia[0].users, 2U);
	ubcore_tp_close(t1);
	ubcore_tp_close(t2);
	KUNIT_EXPECT_EQ(test, tps(ctx->a, ia), 0);
	wait_tps(test, ctx->b, 0);
	KUNIT_EXPECT_EQ(test, atomic64_read(&ubcore_cm_fsm_stats(ctx->a)->refused), 0LL);
	KUNIT_EXPECT_EQ(test, atomic64_read(&ubcore_cm_fsm_stats(ctx->b)->refused), 0LL);
}

/*
 * The providers' view (include/ub/ubcore_tp.h): an import resolves to its
 * TPN pair only while ESTABLISHED; a received TPN is accepted only from
 * its peer's EID.
 */
static void providers_resolve_and_check_tpns(struct kunit *test)
{
	struct cm_ctx *ctx = test->priv;
	struct ubcore_tp_key key = rm_key(&ctx->ea, &ctx->eb);
	struct ubcore_tp_target tgt = jfr_target(ctx->jfr_b, TOKEN);
	struct ubcore_tjetty tj = { .ub_dev = ctx->a };
	struct ubcore_tp_info ia[8], ib[8];
	u32 tpn = 0, peer = 0;

	KUNIT_EXPECT_EQ(test, ubcore_tp_resolve(ctx->a, &tj, &tpn, &peer), -ENOTCONN);
	KUNIT_EXPECT_EQ(test, ubcore_tp_resolve(ctx->b, &tj, &tpn, &peer), -EINVAL);
	KUNIT_ASSERT_EQ(test, ubcore_tp_open(ctx->a, &key, &tgt, &tj.tp), 0);
	wait_tps(test, ctx->b, 1);
	KUNIT_ASSERT_EQ(test, tps(ctx->a, ia), 1);
	KUNIT_ASSERT_EQ(test, tps(ctx->b, ib), 1);
	KUNIT_EXPECT_EQ(test, ubcore_tp_resolve(ctx->a, &tj, &tpn, &peer), 0);
	KUNIT_EXPECT_EQ(test, tpn, ia[0].tpn);
	KUNIT_EXPECT_EQ(test, peer, ib[0].tpn);
	/* b receives on its TPN from a's EID only */
	peer = 0;
	KUNIT_EXPECT_EQ(test, ubcore_tp_rx_lookup(ctx->b, ib[0].tpn, &ctx->ea, &peer), 0);
	KUNIT_EXPECT_EQ(test, peer, ia[0].tpn);
	KUNIT_EXPECT_EQ(test, ubcore_tp_rx_lookup(ctx->b, ib[0].tpn, &ctx->eb, NULL),
			-EPROTO);
	KUNIT_EXPECT_EQ(test, ubcore_tp_rx_lookup(ctx->b, ib[0].tpn + 100, &ctx->ea, NULL),
			-ENOENT);
	KUNIT_EXPECT_EQ(test, ubcore_tp_rx_lookup(ctx->a, ia[0].tpn, &ctx->eb, NULL), 0);
	ubcore_tp_close(tj.tp);
	tj.tp = NULL;
	wait_tps(test, ctx->b, 0);
	KUNIT_EXPECT_EQ(test, ubcore_tp_rx_lookup(ctx->b, ib[0].tpn, &ctx->ea, NULL),
			-ENOENT);
	KUNIT_EXPECT_EQ(test, ubcore_tp_rx_lookup(ctx->a, ia[0].tpn, &ctx->eb, NULL),
			-ENOENT);
}

/*
 * The target's end takes the initiator's packets from the moment it sent
 * the CONN_REP: the initiator may send as soon as its open returns, before
 * its CONN_ACK arrives. b sends nothing on it (no ubcore_tp_find_pair())
 * until established; the lost CONN_ACK comes again with the REP's
 * retransmission (X5, then X8 on a) and b is established (1413).
 */
static void target_receives_before_the_conn_ack(struct kunit *test)
{
	struct cm_ctx *ctx = test->priv;
	struct ubcore_tp_key key = rm_key(&ctx->ea, &ctx->eb);
	struct ubcore_tp_target tgt = jfr_target(ctx->jfr_b, TOKEN);
	struct ubcore_tp_info ia[8], ib[8];
	u32 tpn = 0, peer = 0;
	struct ubcore_tp *t;
	int i;

	ubcore_cm_set_timing(ctx->b, 300, 4);
	fake_mgmt.drop_type = UBOE_MGMT_CONN_ACK;
	KUNIT_ASSERT_EQ(test, ubcore_tp_open(ctx->a, &key, &tgt, &t), 0);
	KUNIT_ASSERT_EQ(test, tps(ctx->a, ia), 1);
	KUNIT_ASSERT_EQ(test, tps(ctx->b, ib), 1);
	KUNIT_EXPECT_EQ(test, ib[0].state, UBCORE_TPS_REP_SENT);
	KUNIT_EXPECT_EQ(test, ubcore_tp_rx_lookup(ctx->b, ib[0].tpn, &ctx->ea, &peer), 0);
	KUNIT_EXPECT_EQ(test, peer, ia[0].tpn);
	KUNIT_EXPECT_EQ(test, ubcore_tp_rx_lookup(ctx->b, ib[0].tpn, &ctx->eb, NULL),
			-EPROTO);
	KUNIT_EXPECT_EQ(test, ubcore_tp_find_pair(ctx->b, &ctx->eb, &ctx->ea,
						  UBOE_MGMT_TM_RM, 0, 0, &tpn, &peer),
			-ENOTCONN);
	fake_mgmt.drop_type = 0;
	for (i = 0; i < 100; i++) {
		if (tps(ctx->b, ib) == 1 && ib[0].state == UBCORE_TPS_TARGET_ESTABLISHED)
			break;
		msleep(20);
	}
	KUNIT_EXPECT_EQ(test, ib[0].state, UBCORE_TPS_TARGET_ESTABLISHED);
	KUNIT_EXPECT_EQ(test, ubcore_tp_find_pair(ctx->b, &ctx->eb, &ctx->ea,
						  UBOE_MGMT_TM_RM, 0, 0, &tpn, &peer), 0);
	KUNIT_EXPECT_EQ(test, tpn, ib[0].tpn);
	KUNIT_EXPECT_EQ(test, peer, ia[0].tpn);
	ubcore_tp_close(t);
	wait_tps(test, ctx->b, 0);
	KUNIT_EXPECT_EQ(test, ubcore_tp_rx_lookup(ctx->b, ib[0].tpn, &ctx->ea, NULL),
			-ENOENT);
}

/*
 * A DCONN_NOTIFY that never arrives leaves b's end established: a's next
 * open (another TPN) finds it, b takes the old end as lost (X16) and
 * answers the new request.
 */
static void lost_dconn_does_not_block_the_next_open(struct kunit *test)
{
	struct cm_ctx *ctx = test->priv;
	struct ubcore_tp_key key = rm_key(&ctx->ea, &ctx->eb);
	struct ubcore_tp_target tgt = jfr_target(ctx->jfr_b, TOKEN);
	struct ubcore_tp_info ia[8], ib[8];
	struct ubcore_tp *tp;
	u32 old;
	int i;

	ubcore_cm_set_timing(ctx->a, 50, 2);
	KUNIT_ASSERT_EQ(test, ubcore_tp_open(ctx->a, &key, &tgt, &tp), 0);
	wait_tps(test, ctx->b, 1);
	/* until b has a's CONN_ACK (the open returned when a sent it) */
	for (i = 0; i < 100 && (tps(ctx->b, ib) != 1 ||
				ib[0].state != UBCORE_TPS_TARGET_ESTABLISHED); i++)
		msleep(20);
	KUNIT_ASSERT_EQ(test, tps(ctx->b, ib), 1);
	old = ib[0].tpn;
	fake_mgmt.drop = true;
	ubcore_tp_close(tp);		/* its DCONN_NOTIFY is lost */
	fake_mgmt.drop = false;
	KUNIT_EXPECT_EQ(test, tps(ctx->a, ia), 0);
	KUNIT_ASSERT_EQ(test, tps(ctx->b, ib), 1);
	KUNIT_EXPECT_EQ(test, ib[0].state, UBCORE_TPS_TARGET_ESTABLISHED);
	KUNIT_ASSERT_EQ(test, ubcore_tp_open(ctx->a, &key, &tgt, &tp), 0);
	KUNIT_ASSERT_EQ(test, tps(ctx->a, ia), 1);
	wait_tps(test, ctx->b, 1);
	KUNIT_ASSERT_EQ(test, tps(ctx->b, ib), 1);
	KUNIT_EXPECT_NE(test, ib[0].tpn, old);
	KUNIT_EXPECT_EQ(test, ib[0].peer_tpn, ia[0].tpn);
	ubcore_tp_close(tp);
	wait_tps(test, ctx->b, 0);
}

/* No answer: CONN_REQ, two retries (20, 40 ms), then 80 ms: ETIMEDOUT. */
static void unanswered_open_times_out(struct kunit *test)
{
	struct cm_ctx *ctx = test->priv;
	struct ubcore_tp_key key = rm_key(&ctx->ea, &ctx->eb);
	struct ubcore_tp_target tgt = jfr_target(ctx->jfr_b, TOKEN);
	const struct ubcore_tp_fsm_stats *st = ubcore_cm_fsm_stats(ctx->a);
	struct ubcore_tp_info info[8];
	struct ubcore_tp *tp;
	u64 t0;

	ubcore_cm_set_timing(ctx->a, 20, 2);	/* for the TPs opened next */
	t0 = ktime_get_ns();
	fake_mgmt.drop = true;
	KUNIT_EXPECT_EQ(test, ubcore_tp_open(ctx->a, &key, &tgt, &tp), -ETIMEDOUT);
	KUNIT_EXPECT_GE(test, ktime_get_ns() - t0, 140ULL * NSEC_PER_MSEC);
	KUNIT_EXPECT_EQ(test, fake_mgmt.sent, 3U);
	KUNIT_EXPECT_EQ(test, atomic64_read(&st->retries), 2LL);
	KUNIT_EXPECT_EQ(test, atomic64_read(&st->timeouts), 1LL);
	KUNIT_EXPECT_EQ(test, tps(ctx->a, info), 0);
	KUNIT_EXPECT_EQ(test, tps(ctx->b, info), 0);
}

/* A destination no device has: the provider cannot send, the open fails now. */
static void unreachable_peer(struct kunit *test)
{
	struct cm_ctx *ctx = test->priv;
	union ubcore_eid nowhere;
	struct ubcore_tp_key key;
	struct ubcore_tp_target tgt = jfr_target(ctx->jfr_b, TOKEN);
	struct ubcore_tp_info info[8];
	struct ubcore_tp *tp;

	ubcore_eid_from_ipv4(&nowhere, htonl(0x0a6300ff));
	key = rm_key(&ctx->ea, &nowhere);
	KUNIT_EXPECT_EQ(test, ubcore_tp_open(ctx->a, &key, &tgt, &tp),
			-EHOSTUNREACH);
	KUNIT_EXPECT_EQ(test, tps(ctx->a, info), 0);
}

struct opener {
	struct ubcore_device *dev;
	struct ubcore_tp_key key;
	struct ubcore_tp_target tgt;
	struct ubcore_tp *tp;
	int ret;
	struct completion done;
};

static int opener_fn(void *arg)
{
	struct opener *o = arg;

	o->ret = ubcore_tp_open(o->dev, &o->key, &o->tgt, &o->tp);
	complete(&o->done);
	return 0;
}

/*
 * Both ends open at once and their CONN_REQs cross (1408): the smaller EID
 * (a) stays initiator (1409), b answers (1410) and then reuses (1414):
 * exactly one TP on each side, naming each other, both opens succeed.
 */
static void simultaneous_open_makes_one_tp(struct kunit *test)
{
	struct cm_ctx *ctx = test->priv;
	struct opener *oa = kunit_kzalloc(test, sizeof(*oa), GFP_KERNEL);
	struct opener *ob = kunit_kzalloc(test, sizeof(*ob), GFP_KERNEL);
	struct ubcore_tp_info ia[8], ib[8];
	int i;

	KUNIT_ASSERT_NOT_NULL(test, oa);
	KUNIT_ASSERT_NOT_NULL(test, ob);
	*oa = (struct opener){ .dev = ctx->a, .key = rm_key(&ctx->ea, &ctx->eb),
			       .tgt = jfr_target(ctx->jfr_b, TOKEN) };
	*ob = (struct opener){ .dev = ctx->b, .key = rm_key(&ctx->eb, &ctx->ea),
			       .tgt = jfr_target(ctx->jfr_a, TOKEN) };
	init_completion(&oa->done);
	init_completion(&ob->done);
	fake_mgmt.hold = true;
	KUNIT_ASSERT_FALSE(test, IS_ERR(kthread_run(opener_fn, oa, "kunit_cm_a")));
	KUNIT_ASSERT_FALSE(test, IS_ERR(kthread_run(opener_fn, ob, "kunit_cm_b")));
	for (i = 0; i < 100 && fake_mgmt.held < 2; i++)
		msleep(20);
	KUNIT_ASSERT_EQ(test, fake_mgmt.held, 2U);	/* both CONN_REQs */
	fake_mgmt_release();
	KUNIT_ASSERT_GT(test, wait_for_completion_timeout(&oa->done, 5 * HZ), 0UL);
	KUNIT_ASSERT_GT(test, wait_for_completion_timeout(&ob->done, 5 * HZ), 0UL);
	KUNIT_EXPECT_EQ(test, oa->ret, 0);
	KUNIT_EXPECT_EQ(test, ob->ret, 0);
	wait_tps(test, ctx->a, 1);
	KUNIT_ASSERT_EQ(test, tps(ctx->a, ia), 1);
	KUNIT_ASSERT_EQ(test, tps(ctx->b, ib), 1);
	KUNIT_EXPECT_EQ(test, ia[0].state, UBCORE_TPS_REUSED);
	KUNIT_EXPECT_EQ(test, ib[0].state, UBCORE_TPS_REUSED);
	KUNIT_EXPECT_EQ(test, ia[0].peer_tpn, ib[0].tpn);
	KUNIT_EXPECT_EQ(test, ib[0].peer_tpn, ia[0].tpn);
	/* teardown, b first: 1420, 1423 on b; 1421, 1422 on a; then a */
	if (!ob->ret)
		ubcore_tp_close(ob->tp);
	for (i = 0; i < 100; i++) {
		if (tps(ctx->a, ia) == 1 &&
		    ia[0].state == UBCORE_TPS_INITIATOR_ESTABLISHED)
			break;
		msleep(20);
	}
	KUNIT_EXPECT_EQ(test, ia[0].state, UBCORE_TPS_INITIATOR_ESTABLISHED);
	KUNIT_ASSERT_EQ(test, tps(ctx->b, ib), 1);
	KUNIT_EXPECT_EQ(test, ib[0].state, UBCORE_TPS_TARGET_ESTABLISHED);
	if (!oa->ret)
		ubcore_tp_close(oa->tp);
	KUNIT_EXPECT_EQ(test, tps(ctx->a, ia), 0);
	wait_tps(test, ctx->b, 0);
}

/* A TP to the device's own EID: two ends on one device, like two hosts. */
static void tp_to_own_eid(struct kunit *test)
{
	struct cm_ctx *ctx = test->priv;
	struct ubcore_tp_key key = rm_key(&ctx->ea, &ctx->ea);
	struct ubcore_tp_target tgt = jfr_target(ctx->jfr_a, TOKEN);
	struct ubcore_tp_info info[8];
	struct ubcore_tp *tp;

	KUNIT_ASSERT_EQ(test, ubcore_tp_open(ctx->a, &key, &tgt, &tp), 0);
	wait_tps(test, ctx->a, 2);
	wait_state(test, ctx->a, 1, UBCORE_TPS_TARGET_ESTABLISHED);
	KUNIT_ASSERT_EQ(test, tps(ctx->a, info), 2);
	KUNIT_EXPECT_EQ(test, info[0].state, UBCORE_TPS_INITIATOR_ESTABLISHED);
	KUNIT_EXPECT_EQ(test, info[0].peer_tpn, info[1].tpn);
	KUNIT_EXPECT_EQ(test, info[1].peer_tpn, info[0].tpn);
	ubcore_tp_close(tp);
	wait_tps(test, ctx->a, 0);
}

static void put_body(struct uboe_mgmt_body *b, const union ubcore_eid *src,
		     const union ubcore_eid *dst)
{
	*b = (struct uboe_mgmt_body){
		.version = UBOE_MGMT_BODY_VERSION, .trans_mode = UBOE_MGMT_TM_RM,
		.src_tpn = cpu_to_be32(7), .dst_tpn = cpu_to_be32(99),
	};
	memcpy(b->src_eid, src->raw, 16);
	memcpy(b->dst_eid, dst->raw, 16);
}

static void wait_dropped(struct kunit *test, struct ubcore_device *dev,
			 enum ubcore_cm_drop why, u64 want)
{
	int i;

	for (i = 0; i < 100 && ubcore_cm_dropped(dev, why) != want; i++)
		msleep(20);
	KUNIT_EXPECT_EQ(test, ubcore_cm_dropped(dev, why), want);
}

/* Received bodies are checked like data packets: dropped and counted. */
static void malformed_messages_are_dropped(struct kunit *test)
{
	struct cm_ctx *ctx = test->priv;
	struct ubcore_device *b = ctx->b;
	struct uboe_mgmt_body body;
	struct ubcore_tp_info info[8];

	put_body(&body, &ctx->ea, &ctx->eb);
	KUNIT_EXPECT_EQ(test, ubcore_recv_mgmt(b, UBOE_MGMT_CONN_ACK, 1, &body, 10),
			-EINVAL);			/* truncated */
	KUNIT_EXPECT_EQ(test, ubcore_recv_mgmt(b, 0, 1, &body, sizeof(body)),
			-EINVAL);			/* no such type */
	KUNIT_EXPECT_EQ(test, ubcore_recv_mgmt(b, UBOE_MGMT_TYPE_MAX + 1, 1,
					       &body, sizeof(body)), -EINVAL);
	wait_dropped(test, b, UBCORE_CM_DROP_MALFORMED, 3);

	body.version = 2;
	KUNIT_EXPECT_EQ(test, ubcore_recv_mgmt(b, UBOE_MGMT_CONN_ACK, 1, &body,
					       sizeof(body)), 0);
	wait_dropped(test, b, UBCORE_CM_DROP_MALFORMED, 4);
	put_body(&body, &ctx->ea, &ctx->eb);
	body.trans_mode = 4;				/* UM needs no TP */
	ubcore_recv_mgmt(b, UBOE_MGMT_CONN_ACK, 1, &body, sizeof(body));
	wait_dropped(test, b, UBCORE_CM_DROP_MALFORMED, 5);
	put_body(&body, &ctx->ea, &ctx->eb);
	body.reason = UBOE_MGMT_REASON_TOKEN;		/* reason outside REJ */
	ubcore_recv_mgmt(b, UBOE_MGMT_CONN_ACK, 1, &body, sizeof(body));
	wait_dropped(test, b, UBCORE_CM_DROP_MALFORMED, 6);
	put_body(&body, &ctx->ea, &ctx->eb);		/* TP_FAILED outside */
	body.reason = UBOE_MGMT_REASON_TP_FAILED;	/* a DCONN_NOTIFY */
	ubcore_recv_mgmt(b, UBOE_MGMT_CONN_ACK, 1, &body, sizeof(body));
	wait_dropped(test, b, UBCORE_CM_DROP_MALFORMED, 7);
	put_body(&body, &ctx->ea, &ctx->eb);		/* a REJ's reason */
	body.reason = UBOE_MGMT_REASON_TOKEN;		/* in a DCONN_NOTIFY */
	ubcore_recv_mgmt(b, UBOE_MGMT_DCONN_NOTIFY, 1, &body, sizeof(body));
	wait_dropped(test, b, UBCORE_CM_DROP_MALFORMED, 8);
	put_body(&body, &ctx->ea, &ctx->eb);		/* REQ with a dst TPN */
	body.target_type = UBOE_MGMT_TARGET_JFR;
	ubcore_recv_mgmt(b, UBOE_MGMT_CONN_REQ, 1, &body, sizeof(body));
	wait_dropped(test, b, UBCORE_CM_DROP_MALFORMED, 9);

	put_body(&body, &ctx->ea, &ctx->ea);		/* not b's EID */
	ubcore_recv_mgmt(b, UBOE_MGMT_CONN_ACK, 1, &body, sizeof(body));
	wait_dropped(test, b, UBCORE_CM_DROP_NOT_MINE, 1);
	put_body(&body, &ctx->ea, &ctx->eb);		/* no TP 99 */
	ubcore_recv_mgmt(b, UBOE_MGMT_CONN_ACK, 1, &body, sizeof(body));
	wait_dropped(test, b, UBCORE_CM_DROP_UNKNOWN_TPN, 1);
	/* nothing was created by any of them */
	KUNIT_EXPECT_EQ(test, tps(b, info), 0);
}

/*
 * urma_get_tp_list()'s open (ubcore_hold_tp()): an RM TP with no target,
 * which the peer accepts; the imports that join it are checked all the
 * same. RC has no TP without its jetty pair: the peer refuses one.
 */
static void rm_tp_without_a_target(struct kunit *test)
{
	struct cm_ctx *ctx = test->priv;
	struct ubcore_tp_key key = rm_key(&ctx->ea, &ctx->eb);
	struct ubcore_tp_target none = { .type = UBOE_MGMT_TARGET_NONE };
	struct ubcore_tp_target tgt = jfr_target(ctx->jfr_b, TOKEN + 1);
	struct ubcore_tp_info ia[8], ib[8];
	struct ubcore_tp *t1, *t2;

	KUNIT_ASSERT_EQ(test, ubcore_tp_open(ctx->a, &key, &none, &t1), 0);
	KUNIT_ASSERT_EQ(test, tps(ctx->a, ia), 1);
	KUNIT_EXPECT_EQ(test, ia[0].state, UBCORE_TPS_INITIATOR_ESTABLISHED);
	wait_tps(test, ctx->b, 1);
	wait_state(test, ctx->b, 0, UBCORE_TPS_TARGET_ESTABLISHED);
	KUNIT_EXPECT_EQ(test, ubcore_tp_open(ctx->a, &key, &tgt, &t2), -EPERM);
	tgt = jfr_target(ctx->jfr_b, TOKEN);
	KUNIT_ASSERT_EQ(test, ubcore_tp_open(ctx->a, &key, &tgt, &t2), 0);
	KUNIT_EXPECT_PTR_EQ(test, t1, t2);
	ubcore_tp_close(t2);
	ubcore_tp_close(t1);
	KUNIT_EXPECT_EQ(test, tps(ctx->a, ia), 0);
	wait_tps(test, ctx->b, 0);

	key.mode = UBOE_MGMT_TM_RC;
	key.local_jetty = 1;
	key.remote_jetty = ctx->jfr_b_rc->id;
	ubcore_cm_set_timing(ctx->a, 20, 1);
	KUNIT_EXPECT_EQ(test, ubcore_tp_open(ctx->a, &key, &none, &t1), -ETIMEDOUT);
	/* the request and its retransmission */
	wait_dropped(test, ctx->b, UBCORE_CM_DROP_MALFORMED, 2);
	KUNIT_EXPECT_EQ(test, tps(ctx->a, ia), 0);
	KUNIT_EXPECT_EQ(test, tps(ctx->b, ib), 0);
}

/* Peer loss (X15, X16): the port goes down, each side's TP leaves. */
static void link_down_loses_the_peer(struct kunit *test)
{
	struct cm_ctx *ctx = test->priv;
	struct ubcore_tp_key key = rm_key(&ctx->ea, &ctx->eb);
	struct ubcore_tp_target tgt = jfr_target(ctx->jfr_b, TOKEN);
	struct ubcore_tp_info info[8];
	struct ubcore_tp *tp;
	u32 sent;

	KUNIT_ASSERT_EQ(test, ubcore_tp_open(ctx->a, &key, &tgt, &tp), 0);
	wait_tps(test, ctx->b, 1);
	sent = fake_mgmt.sent;
	ubcore_cm_link_down(ctx->a);	/* X15: Initiator established */
	wait_tps(test, ctx->a, 0);
	KUNIT_EXPECT_EQ(test, tps(ctx->b, info), 1);	/* b knows nothing */
	ubcore_cm_link_down(ctx->b);	/* X16: Target established */
	wait_tps(test, ctx->b, 0);
	/* the user's TP is out of the table; closing it sends nothing */
	ubcore_tp_close(tp);
	KUNIT_EXPECT_EQ(test, fake_mgmt.sent, sent);
	KUNIT_EXPECT_EQ(test, atomic64_read(&ubcore_cm_fsm_stats(ctx->a)->refused), 0LL);
	KUNIT_EXPECT_EQ(test, atomic64_read(&ubcore_cm_fsm_stats(ctx->b)->refused), 0LL);
	/* a new open after the link came back makes a new TP */
	KUNIT_ASSERT_EQ(test, ubcore_tp_open(ctx->a, &key, &tgt, &tp), 0);
	wait_tps(test, ctx->b, 1);
	ubcore_tp_close(tp);
	wait_tps(test, ctx->b, 0);
}

#define KA_MS		100	/* the keepalive interval of these cases */
#define KA_RETRIES	2	/* cm_init's ubcore_cm_set_timing() */

static u64 ka(struct ubcore_device *dev, enum ubcore_cm_ka which)
{
	return ubcore_cm_ka_count(dev, which);
}

/* Until @dev's counter @which is @want (or more, @at_least), at most 3 s. */
static bool wait_ka(struct ubcore_device *dev, enum ubcore_cm_ka which,
		    u64 want, bool at_least)
{
	int i;

	for (i = 0; i < 150; i++, msleep(20))
		if (at_least ? ka(dev, which) >= want : ka(dev, which) == want)
			return true;
	return false;
}

/* Until @dev has @n TPs, at most 3 s; whether it has. */
static bool wait_tps_ka(struct ubcore_device *dev, int n)
{
	struct ubcore_tp_info info[8];
	int i;

	for (i = 0; i < 150 && tps(dev, info) != n; i++)
		msleep(20);
	return tps(dev, info) == n;
}

/*
 * A peer that answers: an idle established TP is probed every interval
 * (KEEPALIVE), each probe answered (KEEPALIVE_REP), the TP stays. Only a
 * probes here, so the counts are its alone.
 */
static void keepalive_answered_keeps_the_tp(struct kunit *test)
{
	struct cm_ctx *ctx = test->priv;
	struct ubcore_tp_key key = rm_key(&ctx->ea, &ctx->eb);
	struct ubcore_tp_target tgt = jfr_target(ctx->jfr_b, TOKEN);
	struct ubcore_tp_info info[8];
	struct ubcore_tp *tp;

	KUNIT_ASSERT_EQ(test, ubcore_tp_open(ctx->a, &key, &tgt, &tp), 0);
	wait_tps(test, ctx->b, 1);
	ubcore_cm_set_keepalive(ctx->a, KA_MS);
	/* more probes than cm_retries: each answer resets the count */
	KUNIT_EXPECT_TRUE(test, wait_ka(ctx->a, UBCORE_CM_KA_SENT,
					KA_RETRIES + 2, true));
	ubcore_cm_set_keepalive(ctx->a, 0);
	KUNIT_EXPECT_TRUE(test, wait_ka(ctx->a, UBCORE_CM_KA_ANSWERED,
					ka(ctx->a, UBCORE_CM_KA_SENT), false));
	KUNIT_EXPECT_EQ(test, ka(ctx->a, UBCORE_CM_KA_TIMEOUTS), 0ULL);
	KUNIT_EXPECT_EQ(test, ka(ctx->a, UBCORE_CM_KA_REFUSED), 0ULL);
	KUNIT_EXPECT_EQ(test, ka(ctx->b, UBCORE_CM_KA_REJECTS_SENT), 0ULL);
	KUNIT_EXPECT_EQ(test, ka(ctx->b, UBCORE_CM_KA_SENT), 0ULL);
	KUNIT_EXPECT_EQ(test, tps(ctx->a, info), 1);
	KUNIT_EXPECT_EQ(test, info[0].state, UBCORE_TPS_INITIATOR_ESTABLISHED);
	KUNIT_EXPECT_EQ(test, tps(ctx->b, info), 1);
	ubcore_tp_close(tp);
	wait_tps(test, ctx->b, 0);
}

/*
 * A silent peer (every message lost, its link up): cm_retries probes go
 * unanswered, then the TP loses its peer (X15), interval x (retries + 1)
 * after the peer was last heard. Then b, which knew nothing, probes its
 * end: a no longer has the TP and refuses (KEEPALIVE_REJ), b's TP is lost
 * at its first probe (X16).
 */
static void keepalive_silent_peer_then_refusal(struct kunit *test)
{
	struct cm_ctx *ctx = test->priv;
	struct ubcore_tp_key key = rm_key(&ctx->ea, &ctx->eb);
	struct ubcore_tp_target tgt = jfr_target(ctx->jfr_b, TOKEN);
	struct ubcore_tp_info info[8];
	unsigned long start, ms;
	struct ubcore_tp *tp;
	u32 sent;

	KUNIT_ASSERT_EQ(test, ubcore_tp_open(ctx->a, &key, &tgt, &tp), 0);
	wait_tps(test, ctx->b, 1);
	fake_mgmt.drop = true;
	sent = fake_mgmt.sent;
	start = jiffies;
	ubcore_cm_set_keepalive(ctx->a, KA_MS);
	KUNIT_EXPECT_TRUE(test, wait_tps_ka(ctx->a, 0));
	ms = jiffies_to_msecs(jiffies - start);
	KUNIT_EXPECT_GE(test, ms, KA_MS * (KA_RETRIES + 1) - 10UL);
	KUNIT_EXPECT_LE(test, ms, KA_MS * (KA_RETRIES + 1) + 1500UL);
	KUNIT_EXPECT_EQ(test, ka(ctx->a, UBCORE_CM_KA_SENT), (u64)KA_RETRIES);
	KUNIT_EXPECT_EQ(test, ka(ctx->a, UBCORE_CM_KA_ANSWERED), 0ULL);
	KUNIT_EXPECT_EQ(test, ka(ctx->a, UBCORE_CM_KA_TIMEOUTS), 1ULL);
	KUNIT_EXPECT_EQ(test, fake_mgmt.sent - sent, (u32)KA_RETRIES);
	/* the user's close of a lost TP sends nothing */
	ubcore_tp_close(tp);
	KUNIT_EXPECT_EQ(test, fake_mgmt.sent - sent, (u32)KA_RETRIES);

	/* b still has its end; its first probe is refused */
	fake_mgmt.drop = false;
	KUNIT_ASSERT_EQ(test, tps(ctx->b, info), 1);
	start = jiffies;
	ubcore_cm_set_keepalive(ctx->b, KA_MS);
	KUNIT_EXPECT_TRUE(test, wait_tps_ka(ctx->b, 0));
	ms = jiffies_to_msecs(jiffies - start);
	KUNIT_EXPECT_LT(test, ms, KA_MS * (KA_RETRIES + 1));
	KUNIT_EXPECT_EQ(test, ka(ctx->b, UBCORE_CM_KA_SENT), 1ULL);
	KUNIT_EXPECT_EQ(test, ka(ctx->b, UBCORE_CM_KA_REFUSED), 1ULL);
	KUNIT_EXPECT_EQ(test, ka(ctx->b, UBCORE_CM_KA_TIMEOUTS), 0ULL);
	KUNIT_EXPECT_EQ(test, ka(ctx->a, UBCORE_CM_KA_REJECTS_SENT), 1ULL);
	KUNIT_EXPECT_EQ(test, atomic64_read(&ubcore_cm_fsm_stats(ctx->a)->refused), 0LL);
	KUNIT_EXPECT_EQ(test, atomic64_read(&ubcore_cm_fsm_stats(ctx->b)->refused), 0LL);
}

/* A KEEPALIVE_REJ that answers no probe of the TP is dropped. */
static void unasked_keepalive_refusal_is_dropped(struct kunit *test)
{
	struct cm_ctx *ctx = test->priv;
	struct ubcore_tp_key key = rm_key(&ctx->ea, &ctx->eb);
	struct ubcore_tp_target tgt = jfr_target(ctx->jfr_b, TOKEN);
	struct ubcore_tp_info ia[8], ib[8];
	struct uboe_mgmt_body body;
	struct ubcore_tp *tp;

	KUNIT_ASSERT_EQ(test, ubcore_tp_open(ctx->a, &key, &tgt, &tp), 0);
	wait_tps(test, ctx->b, 1);
	KUNIT_ASSERT_EQ(test, tps(ctx->a, ia), 1);
	KUNIT_ASSERT_EQ(test, tps(ctx->b, ib), 1);
	/* from b's EID, b's TPN to a's: a REJ as b would send it */
	put_body(&body, &ctx->eb, &ctx->ea);
	body.src_tpn = cpu_to_be32(ib[0].tpn);
	body.dst_tpn = cpu_to_be32(ia[0].tpn);
	KUNIT_ASSERT_EQ(test, ubcore_recv_mgmt(ctx->a, UBOE_MGMT_KEEPALIVE_REJ,
					       1, &body, sizeof(body)), 0);
	wait_dropped(test, ctx->a, UBCORE_CM_DROP_UNKNOWN_TPN, 1);
	KUNIT_EXPECT_EQ(test, tps(ctx->a, ia), 1);
	KUNIT_EXPECT_EQ(test, ka(ctx->a, UBCORE_CM_KA_REFUSED), 0ULL);
	/* a probe of a TPN b lacks is refused */
	put_body(&body, &ctx->ea, &ctx->eb);
	body.src_tpn = cpu_to_be32(ia[0].tpn);
	body.dst_tpn = cpu_to_be32(ib[0].tpn + 1000);
	KUNIT_ASSERT_EQ(test, ubcore_recv_mgmt(ctx->b, UBOE_MGMT_KEEPALIVE, 3,
					       &body, sizeof(body)), 0);
	KUNIT_EXPECT_TRUE(test, wait_ka(ctx->b, UBCORE_CM_KA_REJECTS_SENT, 1, false));
	/* a drops that REJ too: it asked nothing */
	wait_dropped(test, ctx->a, UBCORE_CM_DROP_UNKNOWN_TPN, 2);
	KUNIT_EXPECT_EQ(test, tps(ctx->a, ia), 1);
	KUNIT_EXPECT_EQ(test, tps(ctx->b, ib), 1);
	ubcore_tp_close(tp);
	wait_tps(test, ctx->b, 0);
}

/*
 * A CONN_REQ from a's EID for the established RM TP's key, but from a TPN
 * a never had (a forgery: UBoE authenticates nothing): b drops it and
 * asks a's end of the TP (a keepalive probe), which answers; the TP stays
 * at both ends. A burst of them sends one probe per CM RTO at most.
 */
static void forged_reopen_keeps_the_live_tp(struct kunit *test)
{
	struct cm_ctx *ctx = test->priv;
	struct ubcore_tp_key key = rm_key(&ctx->ea, &ctx->eb);
	struct ubcore_tp_target tgt = jfr_target(ctx->jfr_b, TOKEN);
	struct ubcore_tp_info ia[8], ib[8], ib2[8];
	struct uboe_mgmt_body body;
	struct ubcore_tp *tp;
	int i;

	KUNIT_ASSERT_EQ(test, ubcore_tp_open(ctx->a, &key, &tgt, &tp), 0);
	wait_tps(test, ctx->b, 1);
	for (i = 0; i < 100 && (tps(ctx->b, ib) != 1 ||
				ib[0].state != UBCORE_TPS_TARGET_ESTABLISHED); i++)
		msleep(20);
	KUNIT_ASSERT_EQ(test, tps(ctx->a, ia), 1);
	KUNIT_ASSERT_EQ(test, tps(ctx->b, ib), 1);
	ubcore_cm_set_timing(ctx->b, 2000, 4);
	for (i = 0; i < 5; i++) {
		put_body(&body, &ctx->ea, &ctx->eb);
		body.src_tpn = cpu_to_be32(ia[0].tpn + 1000 + i);
		body.dst_tpn = 0;
		body.target_type = UBOE_MGMT_TARGET_JFR;
		body.dst_jetty = cpu_to_be32(ctx->jfr_b->id);
		body.token_value = cpu_to_be32(TOKEN);
		KUNIT_ASSERT_EQ(test, ubcore_recv_mgmt(ctx->b, UBOE_MGMT_CONN_REQ,
						       100 + i, &body,
						       sizeof(body)), 0);
	}
	wait_dropped(test, ctx->b, UBCORE_CM_DROP_REOPEN_PROBED, 5);
	KUNIT_EXPECT_TRUE(test, wait_ka(ctx->b, UBCORE_CM_KA_ANSWERED, 1, false));
	KUNIT_EXPECT_EQ(test, ka(ctx->b, UBCORE_CM_KA_SENT), 1ULL);
	KUNIT_EXPECT_EQ(test, ka(ctx->b, UBCORE_CM_KA_REFUSED), 0ULL);
	KUNIT_ASSERT_EQ(test, tps(ctx->b, ib2), 1);
	KUNIT_EXPECT_EQ(test, ib2[0].tpn, ib[0].tpn);
	KUNIT_EXPECT_EQ(test, ib2[0].peer_tpn, ia[0].tpn);
	KUNIT_EXPECT_EQ(test, ib2[0].state, UBCORE_TPS_TARGET_ESTABLISHED);
	KUNIT_EXPECT_EQ(test, tps(ctx->a, ia), 1);
	ubcore_tp_close(tp);
	wait_tps(test, ctx->b, 0);
}

/*
 * One end's transport gives up (ubcore_tp_transport_failed()): that end
 * loses the TP and tells the peer (DCONN_NOTIFY, TP_FAILED), which loses
 * its end too, target (X16) or initiator (X15) alike. When the notice is
 * lost, the peer's keepalive is refused: the TP goes all the same.
 */
static void transport_failure_loses_both_ends(struct kunit *test)
{
	struct cm_ctx *ctx = test->priv;
	struct ubcore_tp_key key = rm_key(&ctx->ea, &ctx->eb);
	struct ubcore_tp_target tgt = jfr_target(ctx->jfr_b, TOKEN);
	struct ubcore_tp_info ia[8], ib[8];
	struct ubcore_tp *tp;
	u32 sent;

	/* the target's transport fails: the initiator loses its end */
	KUNIT_ASSERT_EQ(test, ubcore_tp_open(ctx->a, &key, &tgt, &tp), 0);
	wait_tps(test, ctx->b, 1);
	KUNIT_ASSERT_EQ(test, tps(ctx->b, ib), 1);
	sent = fake_mgmt.sent;
	ubcore_tp_transport_failed(ctx->b, ib[0].tpn);
	KUNIT_EXPECT_EQ(test, tps(ctx->b, ib), 0);
	KUNIT_EXPECT_EQ(test, fake_mgmt.sent - sent, 1U);
	KUNIT_EXPECT_TRUE(test, wait_tps_ka(ctx->a, 0));
	KUNIT_EXPECT_EQ(test, ka(ctx->b, UBCORE_CM_KA_TP_FAILED), 1ULL);
	KUNIT_EXPECT_EQ(test, ka(ctx->a, UBCORE_CM_KA_PEER_FAILED), 1ULL);
	/* a second report of the same TPN finds nothing to lose */
	ubcore_tp_transport_failed(ctx->b, ib[0].tpn);
	KUNIT_EXPECT_EQ(test, ka(ctx->b, UBCORE_CM_KA_TP_FAILED), 1ULL);
	ubcore_tp_close(tp);

	/* the initiator's fails: the target loses its end */
	KUNIT_ASSERT_EQ(test, ubcore_tp_open(ctx->a, &key, &tgt, &tp), 0);
	wait_tps(test, ctx->b, 1);
	KUNIT_ASSERT_EQ(test, tps(ctx->a, ia), 1);
	ubcore_tp_transport_failed(ctx->a, ia[0].tpn);
	KUNIT_EXPECT_EQ(test, tps(ctx->a, ia), 0);
	KUNIT_EXPECT_TRUE(test, wait_tps_ka(ctx->b, 0));
	KUNIT_EXPECT_EQ(test, ka(ctx->a, UBCORE_CM_KA_TP_FAILED), 1ULL);
	KUNIT_EXPECT_EQ(test, ka(ctx->b, UBCORE_CM_KA_PEER_FAILED), 1ULL);
	ubcore_tp_close(tp);

	/* the notice is lost: b's first keepalive is refused */
	KUNIT_ASSERT_EQ(test, ubcore_tp_open(ctx->a, &key, &tgt, &tp), 0);
	wait_tps(test, ctx->b, 1);
	KUNIT_ASSERT_EQ(test, tps(ctx->a, ia), 1);
	fake_mgmt.drop = true;
	ubcore_tp_transport_failed(ctx->a, ia[0].tpn);
	fake_mgmt.drop = false;
	KUNIT_EXPECT_EQ(test, tps(ctx->a, ia), 0);
	KUNIT_EXPECT_EQ(test, tps(ctx->b, ib), 1);
	ubcore_cm_set_keepalive(ctx->b, KA_MS);
	KUNIT_EXPECT_TRUE(test, wait_tps_ka(ctx->b, 0));
	KUNIT_EXPECT_EQ(test, ka(ctx->b, UBCORE_CM_KA_REFUSED), 1ULL);
	KUNIT_EXPECT_EQ(test, ka(ctx->b, UBCORE_CM_KA_PEER_FAILED), 1ULL);
	ubcore_tp_close(tp);
}

/* What the device event handler of a saw (UBCORE_EVENT_TP_ERR). */
static struct {
	struct ubcore_event_handler h;
	atomic_t count;
	u32 type;
	struct ubcore_tjetty *tjetty;
} tp_ev;

static void tp_ev_handler(struct ubcore_event_handler *h,
			  const struct ubcore_event *ev)
{
	if (ev->type != UBCORE_EVENT_TP_ERR)
		return;
	tp_ev.type = ev->type;
	tp_ev.tjetty = ev->element.tjetty;
	atomic_inc(&tp_ev.count);
}

/*
 * The peer's device is removed: it tells its TPs' peers (DCONN_NOTIFY, at
 * once, no keepalive running), a's RM TP goes (X11) and each import on it
 * gets UBCORE_EVENT_TP_ERR; the unimport after is harmless.
 */
static void peer_device_removed_tells_the_imports(struct kunit *test)
{
	struct cm_ctx *ctx = test->priv;
	struct ubcore_tjetty_cfg cfg = {
		.id = { .eid = ctx->eb, .id = ctx->jfr_b->id },
		.trans_mode = UBCORE_TP_RM,
		.type = UBCORE_TARGET_JFR,
		.token_value = TOKEN,
	};
	struct ubcore_tp_info info[8];
	struct ubcore_tjetty *t1, *t2;
	int i;

	t1 = ubcore_import_jfr(ctx->a, &cfg, NULL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, t1);
	t2 = ubcore_import_jfr(ctx->a, &cfg, NULL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, t2);
	wait_tps(test, ctx->b, 1);
	KUNIT_EXPECT_EQ(test, tps(ctx->a, info), 1);
	atomic_set(&tp_ev.count, 0);
	tp_ev.h.event_handler = tp_ev_handler;
	ubcore_register_event_handler(ctx->a, &tp_ev.h);

	ubcore_delete_jfr(ctx->jfr_b_rc);
	ubcore_delete_jfr(ctx->jfr_b);
	ubcore_delete_jfc(ctx->jfc_b);
	fake_provider_dev_free(ctx->b);
	ctx->b = NULL;
	KUNIT_EXPECT_TRUE(test, wait_tps_ka(ctx->a, 0));
	for (i = 0; i < 150 && atomic_read(&tp_ev.count) != 2; i++)
		msleep(20);
	KUNIT_EXPECT_EQ(test, atomic_read(&tp_ev.count), 2);
	KUNIT_EXPECT_EQ(test, tp_ev.type, UBCORE_EVENT_TP_ERR);
	KUNIT_EXPECT_TRUE(test, tp_ev.tjetty == t1 || tp_ev.tjetty == t2);
	KUNIT_EXPECT_EQ(test, ka(ctx->a, UBCORE_CM_KA_SENT), 0ULL);
	ubcore_unregister_event_handler(ctx->a, &tp_ev.h);
	KUNIT_EXPECT_EQ(test, ubcore_unimport_jfr(t1), 0);
	KUNIT_EXPECT_EQ(test, ubcore_unimport_jfr(t2), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&tp_ev.count), 2);
}

/* An RM import of b's JFR by a's context @uctx (not created: connected only). */
static void rm_import_of(struct cm_ctx *ctx, struct ubcore_tjetty *tj,
			 struct ubcore_ucontext *uctx)
{
	*tj = (struct ubcore_tjetty){
		.ub_dev = ctx->a,
		.uctx = uctx,
		.cfg = {
			.id = { .eid = ctx->eb, .id = ctx->jfr_b->id },
			.trans_mode = UBCORE_TP_RM,
			.type = UBCORE_TARGET_JFR,
			.token_value = TOKEN,
		},
	};
}

/*
 * urma_get_tp_attr / urma_set_tp_attr: a TP's transport values are read by
 * the contexts that use it, set only by one that is its only user, kept
 * with the TP (the provider reads them with ubcore_tp_xport()) and gone
 * with it; a kernel caller may use any TP.
 */
static void tp_attr_belongs_to_its_users(struct kunit *test)
{
	struct cm_ctx *ctx = test->priv;
	struct ubcore_ucontext *u1 = kunit_kzalloc(test, sizeof(*u1), GFP_KERNEL);
	struct ubcore_ucontext *u2 = kunit_kzalloc(test, sizeof(*u2), GFP_KERNEL);
	struct ubcore_tp_xport set = { .retry_cnt = 2,
				       .ack_timeout = UBCORE_TP_XPORT_UNSET };
	struct ubcore_tp_info ia[8], ib[8];
	struct ubcore_tjetty t1, t2;
	struct ubcore_tp_attr attr;
	struct ubcore_tp_xport x;
	u32 tpn;

	KUNIT_ASSERT_NOT_NULL(test, u1);
	KUNIT_ASSERT_NOT_NULL(test, u2);
	rm_import_of(ctx, &t1, u1);
	rm_import_of(ctx, &t2, u2);
	KUNIT_ASSERT_EQ(test, ubcore_tjetty_connect(&t1, 0), 0);
	wait_tps(test, ctx->b, 1);
	/* b's end answers get_tp_attr once the CONN_ACK made it ESTABLISHED */
	wait_state(test, ctx->b, 0, UBCORE_TPS_TARGET_ESTABLISHED);
	KUNIT_ASSERT_EQ(test, tps(ctx->a, ia), 1);
	KUNIT_ASSERT_EQ(test, tps(ctx->b, ib), 1);
	tpn = ia[0].tpn;

	KUNIT_ASSERT_EQ(test, ubcore_get_tp_attr(ctx->a, u1, tpn, &attr), 0);
	KUNIT_EXPECT_EQ(test, attr.tpn, tpn);
	KUNIT_EXPECT_EQ(test, attr.peer_tpn, ib[0].tpn);
	KUNIT_EXPECT_EQ(test, memcmp(attr.local.raw, ctx->ea.raw, 16), 0);
	KUNIT_EXPECT_EQ(test, memcmp(attr.peer.raw, ctx->eb.raw, 16), 0);
	KUNIT_EXPECT_EQ(test, attr.trans_mode, (u32)UBCORE_TP_RM);
	KUNIT_EXPECT_EQ(test, attr.xport.retry_cnt, 7);		/* defaults */
	KUNIT_EXPECT_EQ(test, attr.xport.ack_timeout, 15);
	KUNIT_ASSERT_EQ(test, ubcore_tp_xport(ctx->a, tpn, &x), 0);
	KUNIT_EXPECT_EQ(test, x.retry_cnt, UBCORE_TP_XPORT_UNSET);

	KUNIT_EXPECT_EQ(test, ubcore_set_tp_attr(ctx->a, u1, tpn, &set), 0);
	KUNIT_ASSERT_EQ(test, ubcore_get_tp_attr(ctx->a, u1, tpn, &attr), 0);
	KUNIT_EXPECT_EQ(test, attr.xport.retry_cnt, 2);
	KUNIT_EXPECT_EQ(test, attr.xport.ack_timeout, 15);
	KUNIT_ASSERT_EQ(test, ubcore_tp_xport(ctx->a, tpn, &x), 0);
	KUNIT_EXPECT_EQ(test, x.retry_cnt, 2);
	KUNIT_EXPECT_EQ(test, x.ack_timeout, UBCORE_TP_XPORT_UNSET);

	/* no TP of that handle; a value out of its range; not u2's */
	KUNIT_EXPECT_EQ(test, ubcore_get_tp_attr(ctx->a, u1, tpn + 100, &attr), -EINVAL);
	KUNIT_EXPECT_EQ(test, ubcore_get_tp_attr(ctx->a, u1, tpn + (1ULL << 32), &attr),
			-EINVAL);
	set.retry_cnt = UBCORE_TP_RETRY_CNT_MAX + 1;
	KUNIT_EXPECT_EQ(test, ubcore_set_tp_attr(ctx->a, u1, tpn, &set), -EINVAL);
	set.retry_cnt = 3;
	KUNIT_EXPECT_EQ(test, ubcore_get_tp_attr(ctx->a, u2, tpn, &attr), -EPERM);
	KUNIT_EXPECT_EQ(test, ubcore_set_tp_attr(ctx->a, u2, tpn, &set), -EPERM);
	/* b's end: no import there; the kernel may */
	KUNIT_EXPECT_EQ(test, ubcore_get_tp_attr(ctx->b, u1, ib[0].tpn, &attr), -EPERM);
	KUNIT_EXPECT_EQ(test, ubcore_get_tp_attr(ctx->b, NULL, ib[0].tpn, &attr), 0);

	/* shared with u2: both read, neither sets */
	KUNIT_ASSERT_EQ(test, ubcore_tjetty_connect(&t2, 0), 0);
	KUNIT_EXPECT_PTR_EQ(test, t2.tp, t1.tp);
	KUNIT_EXPECT_EQ(test, ubcore_get_tp_attr(ctx->a, u2, tpn, &attr), 0);
	KUNIT_EXPECT_EQ(test, attr.xport.retry_cnt, 2);
	KUNIT_EXPECT_EQ(test, ubcore_set_tp_attr(ctx->a, u1, tpn, &set), -EPERM);
	KUNIT_EXPECT_EQ(test, ubcore_set_tp_attr(ctx->a, u2, tpn, &set), -EPERM);
	KUNIT_EXPECT_EQ(test, ubcore_set_tp_attr(ctx->a, NULL, tpn, &set), 0);
	ubcore_tjetty_disconnect(&t2);
	set.retry_cnt = 4;
	KUNIT_EXPECT_EQ(test, ubcore_set_tp_attr(ctx->a, u1, tpn, &set), 0);
	KUNIT_ASSERT_EQ(test, ubcore_tp_xport(ctx->a, tpn, &x), 0);
	KUNIT_EXPECT_EQ(test, x.retry_cnt, 4);

	ubcore_tjetty_disconnect(&t1);
	wait_tps(test, ctx->b, 0);
	KUNIT_EXPECT_EQ(test, ubcore_tp_xport(ctx->a, tpn, &x), -ENOENT);
	KUNIT_EXPECT_EQ(test, ubcore_get_tp_attr(ctx->a, u1, tpn, &attr), -EINVAL);
}

static struct kunit_case ubcore_cm_cases[] = {
	KUNIT_CASE(rm_imports_share_one_tp),
	KUNIT_CASE(rc_pairs_get_their_own_tp),
	KUNIT_CASE(rejects_reach_the_caller),
	KUNIT_CASE(joiners_are_checked_on_a_shared_tp),
	KUNIT_CASE(rm_tp_without_a_target),
	KUNIT_CASE(providers_resolve_and_check_tpns),
	KUNIT_CASE(target_receives_before_the_conn_ack),
	KUNIT_CASE(lost_dconn_does_not_block_the_next_open),
	KUNIT_CASE(unanswered_open_times_out),
	KUNIT_CASE(unreachable_peer),
	KUNIT_CASE(simultaneous_open_makes_one_tp),
	KUNIT_CASE(tp_to_own_eid),
	KUNIT_CASE(malformed_messages_are_dropped),
	KUNIT_CASE(link_down_loses_the_peer),
	KUNIT_CASE(keepalive_answered_keeps_the_tp),
	KUNIT_CASE(keepalive_silent_peer_then_refusal),
	KUNIT_CASE(unasked_keepalive_refusal_is_dropped),
	KUNIT_CASE(transport_failure_loses_both_ends),
	KUNIT_CASE(forged_reopen_keeps_the_live_tp),
	KUNIT_CASE(peer_device_removed_tells_the_imports),
	KUNIT_CASE(tp_attr_belongs_to_its_users),
	{}
};

static struct kunit_suite ubcore_cm_suite = {
	.name = "ubcore_cm",
	.init = cm_init,
	.exit = cm_exit,
	.test_cases = ubcore_cm_cases,
};

kunit_test_suite(ubcore_cm_suite);

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);
