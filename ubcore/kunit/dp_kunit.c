// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * KUnit tests of the data path entry points with the fake provider:
 * doorbells and rearm reach it, the rules of binding an RC jetty to an
 * imported jetty, the state check of flush, and device lookup by EID.
 */
#include <kunit/test.h>
#include <linux/err.h>
#include <linux/string.h>

#include <ub/ubcore_device.h>

#include "fake_provider.h"

static const struct ubcore_device_cap dp_cap = {
	.max_jfc = 4,
	.max_jfs = 4,
	.max_jfr = 4,
	.max_jetty = 4,
	FAKE_PROVIDER_QUEUE_CAP,
	.reserved_jetty_id_max = 16,
};

/* The objects of one test: a JFC, a JFR and jetties on them. */
struct dp_objs {
	struct ubcore_device *dev;
	struct ubcore_jfc *jfc;
	struct ubcore_jfr *jfr;
};

static void dp_objs_init(struct kunit *test, struct dp_objs *o,
			 struct ubcore_udata *udata)
{
	struct ubcore_jfc_cfg ccfg = { .depth = 64 };
	struct ubcore_jfr_cfg rcfg = {
		.depth = 32, .trans_mode = UBCORE_TP_RC, .max_sge = 2,
	};

	o->jfc = ubcore_create_jfc(o->dev, &ccfg, NULL, udata);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, o->jfc);
	rcfg.jfc = o->jfc;
	o->jfr = ubcore_create_jfr(o->dev, &rcfg, NULL, udata);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, o->jfr);
}

static void dp_objs_fini(struct kunit *test, struct dp_objs *o)
{
	KUNIT_EXPECT_EQ(test, ubcore_delete_jfr(o->jfr), 0);
	KUNIT_EXPECT_EQ(test, ubcore_delete_jfc(o->jfc), 0);
}

static struct ubcore_jfs_cfg dp_jfs_cfg(struct ubcore_jfc *jfc,
					enum ubcore_transport_mode tm)
{
	return (struct ubcore_jfs_cfg) {
		.depth = 64, .trans_mode = tm, .max_sge = 1, .jfc = jfc,
	};
}

/* An RM JFS on the JFC of @o. */
static struct ubcore_jfs *dp_jfs(struct kunit *test, struct dp_objs *o)
{
	struct ubcore_jfs_cfg cfg = dp_jfs_cfg(o->jfc, UBCORE_TP_RM);
	struct ubcore_jfs *jfs = ubcore_create_jfs(o->dev, &cfg, NULL, NULL);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, jfs);
	return jfs;
}

static struct ubcore_jetty *dp_jetty(struct kunit *test, struct dp_objs *o,
				     enum ubcore_transport_mode tm,
				     struct ubcore_udata *udata)
{
	struct ubcore_jetty_cfg cfg = {
		.flag = UBCORE_JETTY_SHARE_JFR,
		.jfs_cfg = dp_jfs_cfg(o->jfc, tm),
		.jfr = o->jfr,
	};
	struct ubcore_jetty *jetty = ubcore_create_jetty(o->dev, &cfg, NULL, udata);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, jetty);
	KUNIT_EXPECT_NULL(test, jetty->remote_jetty);
	return jetty;
}

/* Import object @id of @dev's own EID @eid (the CM connects to itself). */
static struct ubcore_tjetty *dp_import(struct kunit *test,
				       struct ubcore_device *dev,
				       const union ubcore_eid *eid, u32 id,
				       enum ubcore_target_type type,
				       enum ubcore_transport_mode tm,
				       struct ubcore_udata *udata)
{
	struct ubcore_tjetty_cfg cfg = {
		.id = { .eid = *eid, .id = id, .uasid = 1 }, .trans_mode = tm,
		.type = type,
	};
	struct ubcore_tjetty *tjetty;

	if (type == UBCORE_TARGET_JFR)
		tjetty = ubcore_import_jfr(dev, &cfg, udata);
	else
		tjetty = ubcore_import_jetty(dev, &cfg, udata);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, tjetty);
	KUNIT_EXPECT_EQ(test, atomic_read(&tjetty->use_cnt), 0);
	return tjetty;
}

/* Calls of each data path op of the fake provider so far. */
struct dp_calls {
	int jfs_db, jfr_db, jetty_db, rearm, flush_jfs, flush_jetty;
};

static void dp_expect_calls(struct kunit *test, const struct dp_calls *want)
{
	KUNIT_EXPECT_EQ(test, fake_dp.jfs_doorbell.calls, want->jfs_db);
	KUNIT_EXPECT_EQ(test, fake_dp.jfr_doorbell.calls, want->jfr_db);
	KUNIT_EXPECT_EQ(test, fake_dp.jetty_doorbell.calls, want->jetty_db);
	KUNIT_EXPECT_EQ(test, fake_dp.rearm_jfc.calls, want->rearm);
	KUNIT_EXPECT_EQ(test, fake_dp.flush_jfs.calls, want->flush_jfs);
	KUNIT_EXPECT_EQ(test, fake_dp.flush_jetty.calls, want->flush_jetty);
}

/*
 * Each entry point reaches its own op, once, with the object it was given
 * (and the JFC rearm with its solicited_only), and returns the op's error.
 */
static void doorbells_reach_the_provider(struct kunit *test)
{
	struct dp_objs o = { .dev = fake_provider_dev(test, "kunitdp%d", &dp_cap) };
	struct dp_calls want = {};
	struct ubcore_jetty *jetty;
	struct ubcore_jfs *jfs;

	dp_objs_init(test, &o, NULL);
	jfs = dp_jfs(test, &o);
	jetty = dp_jetty(test, &o, UBCORE_TP_RM, NULL);
	dp_expect_calls(test, &want);

	KUNIT_EXPECT_EQ(test, ubcore_jfs_doorbell(jfs), 0);
	want.jfs_db = 1;
	dp_expect_calls(test, &want);
	KUNIT_EXPECT_PTR_EQ(test, fake_dp.jfs_doorbell.obj, (const void *)jfs);

	KUNIT_EXPECT_EQ(test, ubcore_jfr_doorbell(o.jfr), 0);
	want.jfr_db = 1;
	dp_expect_calls(test, &want);
	KUNIT_EXPECT_PTR_EQ(test, fake_dp.jfr_doorbell.obj, (const void *)o.jfr);

	KUNIT_EXPECT_EQ(test, ubcore_jetty_doorbell(jetty), 0);
	want.jetty_db = 1;
	dp_expect_calls(test, &want);
	KUNIT_EXPECT_PTR_EQ(test, fake_dp.jetty_doorbell.obj, (const void *)jetty);

	KUNIT_EXPECT_EQ(test, ubcore_rearm_jfc(o.jfc, true), 0);
	want.rearm = 1;
	dp_expect_calls(test, &want);
	KUNIT_EXPECT_PTR_EQ(test, fake_dp.rearm_jfc.obj, (const void *)o.jfc);
	KUNIT_EXPECT_TRUE(test, fake_dp.solicited_only);
	KUNIT_EXPECT_EQ(test, ubcore_rearm_jfc(o.jfc, false), 0);
	want.rearm = 2;
	dp_expect_calls(test, &want);
	KUNIT_EXPECT_FALSE(test, fake_dp.solicited_only);

	/* The provider's error comes back unchanged, from each op. */
	fake_dp_err = -EIO;
	KUNIT_EXPECT_EQ(test, ubcore_jfs_doorbell(jfs), -EIO);
	KUNIT_EXPECT_EQ(test, ubcore_jfr_doorbell(o.jfr), -EIO);
	KUNIT_EXPECT_EQ(test, ubcore_jetty_doorbell(jetty), -EIO);
	KUNIT_EXPECT_EQ(test, ubcore_rearm_jfc(o.jfc, false), -EIO);
	fake_dp_err = 0;
	want = (struct dp_calls){ .jfs_db = 2, .jfr_db = 2, .jetty_db = 2,
				  .rearm = 3 };
	dp_expect_calls(test, &want);

	/* No object: refused before the provider. */
	KUNIT_EXPECT_EQ(test, ubcore_jfs_doorbell(NULL), -EINVAL);
	KUNIT_EXPECT_EQ(test, ubcore_jfr_doorbell(NULL), -EINVAL);
	KUNIT_EXPECT_EQ(test, ubcore_jetty_doorbell(NULL), -EINVAL);
	KUNIT_EXPECT_EQ(test, ubcore_rearm_jfc(NULL, false), -EINVAL);
	dp_expect_calls(test, &want);

	KUNIT_EXPECT_EQ(test, ubcore_delete_jetty(jetty), 0);
	KUNIT_EXPECT_EQ(test, ubcore_delete_jfs(jfs), 0);
	dp_objs_fini(test, &o);
	fake_provider_dev_free(o.dev);
}

static void bind_rules(struct kunit *test)
{
	struct dp_objs o = { .dev = fake_provider_dev(test, "kunitdp%d", &dp_cap) };
	struct ubcore_tjetty *tjetty, *tjfr, *tjetty_rm, *utjetty;
	struct ubcore_jetty *rc, *rm, *peer;
	struct ubcore_ucontext *uctx;
	struct ubcore_udata udata;
	union ubcore_eid eid;

	/* the imports target this device's own jetties, through the CM */
	ubcore_eid_from_ipv4(&eid, htonl(0x0a640001));	/* 10.100.0.1 */
	KUNIT_ASSERT_EQ(test, ubcore_add_static_eid(o.dev, 0, &eid), 0);
	dp_objs_init(test, &o, NULL);
	rc = dp_jetty(test, &o, UBCORE_TP_RC, NULL);
	rm = dp_jetty(test, &o, UBCORE_TP_RM, NULL);
	peer = dp_jetty(test, &o, UBCORE_TP_RC, NULL);
	tjetty = dp_import(test, o.dev, &eid, peer->id, UBCORE_TARGET_JETTY,
			   UBCORE_TP_RC, NULL);
	tjetty_rm = dp_import(test, o.dev, &eid, rm->id, UBCORE_TARGET_JETTY,
			      UBCORE_TP_RM, NULL);
	KUNIT_EXPECT_NOT_NULL(test, tjetty_rm->tp);
	tjfr = dp_import(test, o.dev, &eid, o.jfr->id, UBCORE_TARGET_JFR,
			 UBCORE_TP_RC, NULL);
	uctx = fake_provider_uctx(test, o.dev, &udata);
	utjetty = dp_import(test, o.dev, &eid, peer->id, UBCORE_TARGET_JETTY,
			    UBCORE_TP_RC, &udata);

	/* Only an RC jetty, only to a jetty imported RC by its context. */
	KUNIT_EXPECT_EQ(test, ubcore_bind_jetty(rm, tjetty), -EINVAL);
	KUNIT_EXPECT_EQ(test, ubcore_bind_jetty(rc, tjfr), -EINVAL);
	KUNIT_EXPECT_EQ(test, ubcore_bind_jetty(rc, tjetty_rm), -EINVAL);
	KUNIT_EXPECT_EQ(test, ubcore_bind_jetty(rc, utjetty), -EINVAL);
	KUNIT_EXPECT_EQ(test, ubcore_bind_jetty(rc, NULL), -EINVAL);
	KUNIT_EXPECT_NULL(test, rc->remote_jetty);
	KUNIT_EXPECT_EQ(test, ubcore_unbind_jetty(rc), -EINVAL);

	/* A provider failure changes nothing. */
	fake_bind_err = -EIO;
	KUNIT_EXPECT_EQ(test, ubcore_bind_jetty(rc, tjetty), -EIO);
	KUNIT_EXPECT_NULL(test, rc->remote_jetty);
	KUNIT_EXPECT_EQ(test, atomic_read(&tjetty->use_cnt), 0);
	fake_bind_err = 0;

	KUNIT_EXPECT_NULL(test, tjetty->tp);
	KUNIT_EXPECT_EQ(test, ubcore_bind_jetty(rc, tjetty), 0);
	KUNIT_EXPECT_PTR_EQ(test, rc->remote_jetty, tjetty);
	KUNIT_EXPECT_EQ(test, atomic_read(&tjetty->use_cnt), 1);
	KUNIT_EXPECT_NOT_NULL(test, tjetty->tp);
	/* Once, and one jetty per RC import. */
	KUNIT_EXPECT_EQ(test, ubcore_bind_jetty(rc, tjetty), -EEXIST);
	KUNIT_EXPECT_EQ(test, ubcore_bind_jetty(peer, tjetty), -EEXIST);
	KUNIT_EXPECT_NULL(test, peer->remote_jetty);
	KUNIT_EXPECT_EQ(test, atomic_read(&tjetty->use_cnt), 1);
	/* A bound tjetty stays. */
	KUNIT_EXPECT_EQ(test, ubcore_unimport_jetty(tjetty), -EBUSY);
	KUNIT_EXPECT_EQ(test, atomic_read(&o.dev->obj_cnt[UBCORE_OBJ_TJETTY]), 3);

	/* A failed unbind leaves it bound; then unbind. */
	fake_unbind_err = -EIO;
	KUNIT_EXPECT_EQ(test, ubcore_unbind_jetty(rc), -EIO);
	KUNIT_EXPECT_PTR_EQ(test, rc->remote_jetty, tjetty);
	fake_unbind_err = 0;
	KUNIT_EXPECT_EQ(test, ubcore_unbind_jetty(rc), 0);
	KUNIT_EXPECT_NULL(test, rc->remote_jetty);
	KUNIT_EXPECT_EQ(test, atomic_read(&tjetty->use_cnt), 0);
	KUNIT_EXPECT_NULL(test, tjetty->tp);
	KUNIT_EXPECT_EQ(test, ubcore_unbind_jetty(rc), -EINVAL);

	/* Deleting a bound jetty unbinds it, even if the provider fails. */
	KUNIT_EXPECT_EQ(test, ubcore_bind_jetty(rc, tjetty), 0);
	fake_unbind_err = -EIO;
	KUNIT_EXPECT_EQ(test, ubcore_delete_jetty(rc), 0);
	fake_unbind_err = 0;
	KUNIT_EXPECT_EQ(test, atomic_read(&tjetty->use_cnt), 0);
	KUNIT_EXPECT_NULL(test, tjetty->tp);
	KUNIT_EXPECT_EQ(test, ubcore_unimport_jetty(tjetty), 0);

	KUNIT_EXPECT_EQ(test, ubcore_unimport_jetty(utjetty), 0);
	KUNIT_EXPECT_EQ(test, ubcore_unimport_jetty(tjetty_rm), 0);
	KUNIT_EXPECT_EQ(test, ubcore_unimport_jfr(tjfr), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&o.dev->obj_cnt[UBCORE_OBJ_TJETTY]), 0);
	KUNIT_EXPECT_EQ(test, ubcore_delete_jetty(rm), 0);
	KUNIT_EXPECT_EQ(test, ubcore_delete_jetty(peer), 0);
	dp_objs_fini(test, &o);
	ubcore_free_ucontext(uctx);
	fake_provider_dev_free(o.dev);
}

static int dp_set_state(struct ubcore_jfs *jfs, struct ubcore_jetty *jetty,
			enum ubcore_jetty_state state)
{
	struct ubcore_jetty_attr jattr = { .mask = UBCORE_JFR_STATE, .state = state };
	struct ubcore_jfs_attr attr = { .mask = UBCORE_JFS_STATE, .state = state };

	return jfs ? ubcore_modify_jfs(jfs, &attr, NULL) :
		     ubcore_modify_jetty(jetty, &jattr, NULL);
}

static int dp_flush(struct ubcore_jfs *jfs, struct ubcore_jetty *jetty,
		    u32 max_cnt, u32 *first, u32 *cnt)
{
	return jfs ? ubcore_flush_jfs(jfs, max_cnt, first, cnt) :
		     ubcore_flush_jetty(jetty, max_cnt, first, cnt);
}

/* The calls of the flush op of the queue under test (jfs or jetty). */
static const struct fake_dp_op *dp_flush_op(struct ubcore_jfs *jfs)
{
	return jfs ? &fake_dp.flush_jfs : &fake_dp.flush_jetty;
}

static const struct fake_dp_op *dp_other_flush_op(struct ubcore_jfs *jfs)
{
	return jfs ? &fake_dp.flush_jetty : &fake_dp.flush_jfs;
}

/*
 * READY -> SUSPENDED -> ERROR -> RESET; flush works in the middle two. In
 * the others it fails before the provider and leaves *first and *cnt
 * alone; in those two it reaches the queue's own flush op with max_cnt and
 * returns what the provider reported, or its error.
 */
static void flush_one(struct kunit *test, struct ubcore_jfs *jfs,
		      struct ubcore_jetty *jetty)
{
	const struct fake_dp_op *op = dp_flush_op(jfs);
	const void *obj = jfs ? (const void *)jfs : (const void *)jetty;
	u32 first = 0xdead, cnt = 0xbeef;

	/* Count this queue's calls only. */
	memset(&fake_dp, 0, sizeof(fake_dp));
	KUNIT_EXPECT_EQ(test, dp_flush(jfs, jetty, 8, &first, &cnt), -EINVAL);
	KUNIT_EXPECT_EQ(test, op->calls, 0);
	KUNIT_EXPECT_EQ(test, first, 0xdeadu);
	KUNIT_EXPECT_EQ(test, cnt, 0xbeefu);

	KUNIT_ASSERT_EQ(test, dp_set_state(jfs, jetty, UBCORE_JETTY_STATE_SUSPENDED), 0);
	fake_flush_first = 5;
	fake_flush_cnt = 3;
	KUNIT_EXPECT_EQ(test, dp_flush(jfs, jetty, 8, &first, &cnt), 0);
	KUNIT_EXPECT_EQ(test, op->calls, 1);
	KUNIT_EXPECT_PTR_EQ(test, op->obj, obj);
	KUNIT_EXPECT_EQ(test, fake_dp.max_cnt, 8u);
	KUNIT_EXPECT_EQ(test, first, 5u);
	KUNIT_EXPECT_EQ(test, cnt, 3u);

	KUNIT_ASSERT_EQ(test, dp_set_state(jfs, jetty, UBCORE_JETTY_STATE_ERROR), 0);
	fake_flush_first = 0xfffffffe;	/* free-running ring indexes wrap */
	fake_flush_cnt = 2;
	KUNIT_EXPECT_EQ(test, dp_flush(jfs, jetty, 2, &first, &cnt), 0);
	KUNIT_EXPECT_EQ(test, op->calls, 2);
	KUNIT_EXPECT_EQ(test, fake_dp.max_cnt, 2u);
	KUNIT_EXPECT_EQ(test, first, 0xfffffffeu);
	KUNIT_EXPECT_EQ(test, cnt, 2u);
	fake_dp_err = -EIO;
	KUNIT_EXPECT_EQ(test, dp_flush(jfs, jetty, 4, &first, &cnt), -EIO);
	fake_dp_err = 0;
	KUNIT_EXPECT_EQ(test, op->calls, 3);
	KUNIT_EXPECT_EQ(test, fake_dp.max_cnt, 4u);
	KUNIT_EXPECT_EQ(test, dp_flush(jfs, jetty, 2, NULL, &cnt), -EINVAL);
	KUNIT_EXPECT_EQ(test, dp_flush(jfs, jetty, 2, &first, NULL), -EINVAL);
	KUNIT_EXPECT_EQ(test, op->calls, 3);

	KUNIT_ASSERT_EQ(test, dp_set_state(jfs, jetty, UBCORE_JETTY_STATE_RESET), 0);
	first = 0xdead;
	cnt = 0xbeef;
	KUNIT_EXPECT_EQ(test, dp_flush(jfs, jetty, 8, &first, &cnt), -EINVAL);
	KUNIT_EXPECT_EQ(test, op->calls, 3);
	KUNIT_EXPECT_EQ(test, first, 0xdeadu);
	KUNIT_EXPECT_EQ(test, cnt, 0xbeefu);
	/* The other kind of queue's op is never called. */
	KUNIT_EXPECT_EQ(test, dp_other_flush_op(jfs)->calls, 0);
	/* Nor any other data path op. */
	KUNIT_EXPECT_EQ(test, fake_dp.jfs_doorbell.calls +
			fake_dp.jfr_doorbell.calls +
			fake_dp.jetty_doorbell.calls +
			fake_dp.rearm_jfc.calls, 0);
}

static void flush_needs_a_stopped_queue(struct kunit *test)
{
	struct dp_objs o = { .dev = fake_provider_dev(test, "kunitdp%d", &dp_cap) };
	struct ubcore_jetty *jetty;
	struct ubcore_jfs *jfs;

	dp_objs_init(test, &o, NULL);
	jfs = dp_jfs(test, &o);
	jetty = dp_jetty(test, &o, UBCORE_TP_RC, NULL);

	flush_one(test, jfs, NULL);
	flush_one(test, NULL, jetty);

	KUNIT_EXPECT_EQ(test, ubcore_delete_jetty(jetty), 0);
	KUNIT_EXPECT_EQ(test, ubcore_delete_jfs(jfs), 0);
	dp_objs_fini(test, &o);
	fake_provider_dev_free(o.dev);
}

static void device_by_eid(struct kunit *test)
{
	struct ubcore_device *dev = fake_provider_dev(test, "kunitdp%d", &dp_cap);
	union ubcore_eid eid = { .in6 = {
		.subnet_prefix = cpu_to_be64(0xfd00005eed000000ULL),
		.interface_id = cpu_to_be64(0x1234),
	} };
	struct ubcore_device *found;

	KUNIT_EXPECT_NULL(test, ubcore_get_device_by_eid(&eid));
	KUNIT_EXPECT_NULL(test, ubcore_get_device_by_eid(NULL));
	KUNIT_ASSERT_EQ(test, ubcore_add_static_eid(dev, 3, &eid), 0);
	found = ubcore_get_device_by_eid(&eid);
	KUNIT_EXPECT_PTR_EQ(test, found, dev);
	if (found)
		ubcore_put_device(found);
	/* Not after the EID is removed. */
	KUNIT_ASSERT_EQ(test, ubcore_del_static_eid(dev, 3), 0);
	KUNIT_EXPECT_NULL(test, ubcore_get_device_by_eid(&eid));
	/* Nor after the device is unregistered. */
	KUNIT_ASSERT_EQ(test, ubcore_add_static_eid(dev, 3, &eid), 0);
	ubcore_unregister_device(dev);
	KUNIT_EXPECT_NULL(test, ubcore_get_device_by_eid(&eid));
	ubcore_dealloc_device(dev);
}

static struct kunit_case ubcore_dp_cases[] = {
	KUNIT_CASE(doorbells_reach_the_provider),
	KUNIT_CASE(bind_rules),
	KUNIT_CASE(flush_needs_a_stopped_queue),
	KUNIT_CASE(device_by_eid),
	{}
};

static struct kunit_suite ubcore_dp_suite = {
	.name = "ubcore_dp",
	.test_cases = ubcore_dp_cases,
};

kunit_test_suite(ubcore_dp_suite);
