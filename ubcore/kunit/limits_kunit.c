// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * KUnit tests of what one user context may take: per-context object
 * limits (ubcore_device.ctx_limit, sysfs limits/), per-user limits over
 * all the contexts of a user (ubcore_device.user_limit, sysfs
 * user_limits/), cyclic token IDs,
 * uasids owned by processes, and the EID index of a user context.
 */
#include <kunit/test.h>
#include <linux/capability.h>
#include <linux/completion.h>
#include <linux/cred.h>
#include <linux/err.h>
#include <linux/kthread.h>

#include <ub/ubcore_device.h>

#include "fake_provider.h"

static const struct ubcore_device_cap limits_cap = {
	.max_jfc = 8,
	.max_jfs = 8,
	.max_jfr = 8,
	.max_jetty = 8,
	FAKE_PROVIDER_QUEUE_CAP,
	.reserved_jetty_id_max = 16,
};

/* A freed token ID is not handed out again before the range wraps. */
static void token_ids_are_cyclic(struct kunit *test)
{
	struct ubcore_device *dev = fake_provider_dev(test, "kunitlim%d",
						      &limits_cap);
	struct ubcore_token_id *a, *b, *c;

	a = ubcore_alloc_token_id(dev, 0, NULL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, a);
	b = ubcore_alloc_token_id(dev, 0, NULL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, b);
	KUNIT_EXPECT_EQ(test, a->token_id, 1u);
	KUNIT_EXPECT_EQ(test, b->token_id, 2u);
	KUNIT_EXPECT_EQ(test, ubcore_free_token_id(a), 0);
	c = ubcore_alloc_token_id(dev, 0, NULL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, c);
	/* Lowest-first would give 1 again, to the next owner. */
	KUNIT_EXPECT_EQ(test, c->token_id, 3u);
	KUNIT_EXPECT_EQ(test, ubcore_free_token_id(b), 0);
	KUNIT_EXPECT_EQ(test, ubcore_free_token_id(c), 0);
	fake_provider_dev_free(dev);
}

/* One context at its limit gets -ENOSPC; another context still succeeds. */
static void context_limits_are_per_context(struct kunit *test)
{
	struct ubcore_device *dev = fake_provider_dev(test, "kunitlim%d",
						      &limits_cap);
	struct ubcore_tjetty_cfg tcfg = {
		/* RC: no TP at import, so counting needs no peer */
		.id = { .id = 5, .uasid = 1 }, .trans_mode = UBCORE_TP_RC,
		.type = UBCORE_TARGET_JFR,
	};
	struct ubcore_jfc_cfg cfg = { .depth = 16 };
	struct ubcore_ucontext *ua, *ub;
	struct ubcore_udata da, db;
	struct ubcore_jfc *a[2], *b;
	struct ubcore_token_id *ta, *tb;
	struct ubcore_tjetty *ia, *ib;

	/* The defaults: half of what the device has. */
	KUNIT_EXPECT_EQ(test, dev->ctx_limit[UBCORE_OBJ_JFC], 4u);
	KUNIT_EXPECT_EQ(test, dev->ctx_limit[UBCORE_OBJ_JETTY], 4u);
	KUNIT_EXPECT_EQ(test, dev->ctx_limit[UBCORE_OBJ_TOKEN_ID], 8u);

	ua = fake_provider_uctx(test, dev, &da);
	ub = fake_provider_uctx(test, dev, &db);
	WRITE_ONCE(dev->ctx_limit[UBCORE_OBJ_JFC], 2);
	WRITE_ONCE(dev->ctx_limit[UBCORE_OBJ_TOKEN_ID], 1);
	WRITE_ONCE(dev->ctx_limit[UBCORE_OBJ_TJFR], 1);

	a[0] = ubcore_create_jfc(dev, &cfg, NULL, &da);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, a[0]);
	a[1] = ubcore_create_jfc(dev, &cfg, NULL, &da);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, a[1]);
	KUNIT_EXPECT_PTR_EQ(test, ubcore_create_jfc(dev, &cfg, NULL, &da),
			    ERR_PTR(-ENOSPC));
	KUNIT_EXPECT_EQ(test, atomic_read(&ua->obj_cnt[UBCORE_OBJ_JFC]), 2);
	KUNIT_EXPECT_EQ(test, atomic_read(&dev->obj_cnt[UBCORE_OBJ_JFC]), 2);
	b = ubcore_create_jfc(dev, &cfg, NULL, &db);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, b);
	KUNIT_EXPECT_EQ(test, atomic_read(&dev->obj_cnt[UBCORE_OBJ_JFC]), 3);
	/* The kernel has no context and no such limit. */
	KUNIT_EXPECT_EQ(test, ubcore_delete_jfc(b), 0);
	b = ubcore_create_jfc(dev, &cfg, NULL, NULL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, b);
	KUNIT_EXPECT_EQ(test, ubcore_delete_jfc(b), 0);
	/* A freed slot of the context is usable again. */
	KUNIT_EXPECT_EQ(test, ubcore_delete_jfc(a[1]), 0);
	a[1] = ubcore_create_jfc(dev, &cfg, NULL, &da);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, a[1]);

	ta = ubcore_alloc_token_id(dev, 0, &da);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, ta);
	KUNIT_EXPECT_PTR_EQ(test, ubcore_alloc_token_id(dev, 0, &da),
			    ERR_PTR(-ENOSPC));
	tb = ubcore_alloc_token_id(dev, 0, &db);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, tb);

	ia = ubcore_import_jfr(dev, &tcfg, &da);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, ia);
	KUNIT_EXPECT_PTR_EQ(test, ubcore_import_jfr(dev, &tcfg, &da),
			    ERR_PTR(-ENOSPC));
	KUNIT_EXPECT_EQ(test, atomic_read(&dev->obj_cnt[UBCORE_OBJ_TJFR]), 1);
	ib = ubcore_import_jfr(dev, &tcfg, &db);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, ib);

	KUNIT_EXPECT_EQ(test, ubcore_unimport_jfr(ia), 0);
	KUNIT_EXPECT_EQ(test, ubcore_unimport_jfr(ib), 0);
	KUNIT_EXPECT_EQ(test, ubcore_free_token_id(ta), 0);
	KUNIT_EXPECT_EQ(test, ubcore_free_token_id(tb), 0);
	KUNIT_EXPECT_EQ(test, ubcore_delete_jfc(a[0]), 0);
	KUNIT_EXPECT_EQ(test, ubcore_delete_jfc(a[1]), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&ua->obj_cnt[UBCORE_OBJ_JFC]), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&ua->obj_cnt[UBCORE_OBJ_TOKEN_ID]), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&ua->obj_cnt[UBCORE_OBJ_TJFR]), 0);
	ubcore_free_ucontext(ua);
	ubcore_free_ucontext(ub);
	fake_provider_dev_free(dev);
}

/*
 * Act as user @uid without CAP_SYS_RESOURCE (as an unprivileged process
 * would) until revert_creds() of the result.
 */
static const struct cred *limits_as_user(struct kunit *test, u32 uid)
{
	struct cred *c = prepare_creds();

	KUNIT_ASSERT_NOT_NULL(test, c);
	c->euid = KUIDT_INIT(uid);
	c->fsuid = c->euid;
	cap_lower(c->cap_effective, CAP_SYS_RESOURCE);
	return override_creds(c);
}

static void limits_revert(const struct cred *old)
{
	const struct cred *c = current_cred();

	revert_creds(old);
	put_cred(c);
}

/*
 * The contexts of one user share its user_limits/: a user cannot take
 * the device by opening more contexts; another user, and a context with
 * CAP_SYS_RESOURCE, are not held back by it.
 */
static void user_limits_bind_all_contexts_of_a_user(struct kunit *test)
{
	struct ubcore_device *dev = fake_provider_dev(test, "kunitlim%d",
						      &limits_cap);
	struct ubcore_jfc_cfg cfg = { .depth = 16 };
	struct ubcore_ucontext *ua, *ub, *uc, *priv;
	struct ubcore_udata da, db, dc, dp;
	struct ubcore_jfc *jfc[6];
	const struct cred *old;

	/* The defaults: what one context may, and 64 contexts. */
	KUNIT_EXPECT_EQ(test, dev->user_limit[UBCORE_OBJ_JFC], 4u);
	KUNIT_EXPECT_EQ(test, dev->user_limit[UBCORE_OBJ_UCONTEXT], 64u);
	WRITE_ONCE(dev->user_limit[UBCORE_OBJ_JFC], 3);
	WRITE_ONCE(dev->user_limit[UBCORE_OBJ_UCONTEXT], 2);

	old = limits_as_user(test, 65534);
	ua = fake_provider_uctx(test, dev, &da);
	ub = fake_provider_uctx(test, dev, &db);
	/* A third context of the same user. */
	KUNIT_EXPECT_PTR_EQ(test, ubcore_alloc_ucontext(dev, 0, 0, NULL),
			    ERR_PTR(-ENOSPC));
	jfc[0] = ubcore_create_jfc(dev, &cfg, NULL, &da);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, jfc[0]);
	jfc[1] = ubcore_create_jfc(dev, &cfg, NULL, &da);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, jfc[1]);
	jfc[2] = ubcore_create_jfc(dev, &cfg, NULL, &db);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, jfc[2]);
	/* ub is under its context limit (4) but the user is at 3. */
	KUNIT_EXPECT_PTR_EQ(test, ubcore_create_jfc(dev, &cfg, NULL, &db),
			    ERR_PTR(-ENOSPC));
	KUNIT_EXPECT_EQ(test, atomic_read(&db.uctx->obj_cnt[UBCORE_OBJ_JFC]), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&dev->obj_cnt[UBCORE_OBJ_JFC]), 3);
	limits_revert(old);

	/* Another user gets its own share. */
	old = limits_as_user(test, 65533);
	uc = fake_provider_uctx(test, dev, &dc);
	jfc[3] = ubcore_create_jfc(dev, &cfg, NULL, &dc);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, jfc[3]);
	limits_revert(old);

	/* CAP_SYS_RESOURCE lifts the per-user limits (not the context's). */
	priv = fake_provider_uctx(test, dev, &dp);
	KUNIT_EXPECT_NULL(test, priv->share);
	jfc[4] = ubcore_create_jfc(dev, &cfg, NULL, &dp);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, jfc[4]);

	/* A freed object gives the user its slot back, in any context. */
	KUNIT_EXPECT_EQ(test, ubcore_delete_jfc(jfc[0]), 0);
	jfc[5] = ubcore_create_jfc(dev, &cfg, NULL, &db);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, jfc[5]);

	KUNIT_EXPECT_EQ(test, ubcore_delete_jfc(jfc[1]), 0);
	KUNIT_EXPECT_EQ(test, ubcore_delete_jfc(jfc[2]), 0);
	KUNIT_EXPECT_EQ(test, ubcore_delete_jfc(jfc[3]), 0);
	KUNIT_EXPECT_EQ(test, ubcore_delete_jfc(jfc[4]), 0);
	KUNIT_EXPECT_EQ(test, ubcore_delete_jfc(jfc[5]), 0);
	ubcore_free_ucontext(ua);
	/* The user's last context but one is gone: room for another. */
	old = limits_as_user(test, 65534);
	ua = fake_provider_uctx(test, dev, &da);
	limits_revert(old);
	ubcore_free_ucontext(ua);
	ubcore_free_ucontext(ub);
	ubcore_free_ucontext(uc);
	ubcore_free_ucontext(priv);
	KUNIT_EXPECT_TRUE(test, xa_empty(&dev->user_shares));
	fake_provider_dev_free(dev);
}

struct uasid_other {
	struct ubcore_device *dev;
	u32 uasid;
	struct ubcore_ucontext *uctx;
	struct completion done;
};

/* Another process (a kernel thread is a thread group of its own). */
static int uasid_other_fn(void *data)
{
	struct uasid_other *o = data;

	o->uctx = ubcore_alloc_ucontext(o->dev, 0, o->uasid, NULL);
	complete(&o->done);
	return 0;
}

static struct ubcore_ucontext *uctx_in_other(struct kunit *test,
					     struct ubcore_device *dev, u32 uasid)
{
	struct uasid_other o = { .dev = dev, .uasid = uasid };
	struct task_struct *t;

	init_completion(&o.done);
	t = kthread_run(uasid_other_fn, &o, "kunit_uasid");
	KUNIT_ASSERT_FALSE(test, IS_ERR(t));
	wait_for_completion(&o.done);
	return o.uctx;
}

static void uasids_belong_to_processes(struct kunit *test)
{
	struct ubcore_device *dev = fake_provider_dev(test, "kunitlim%d",
						      &limits_cap);
	struct ubcore_ucontext *c1, *c2, *c3, *o;
	u32 mine;

	c1 = ubcore_alloc_ucontext(dev, 0, 0, NULL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, c1);
	mine = c1->uasid;
	KUNIT_EXPECT_NE(test, mine, 0u);
	KUNIT_EXPECT_LE(test, mine, UBCORE_MAX_UASID);
	/* The process gets the one it owns again, by 0 or by number. */
	c2 = ubcore_alloc_ucontext(dev, 0, 0, NULL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, c2);
	KUNIT_EXPECT_EQ(test, c2->uasid, mine);
	c3 = ubcore_alloc_ucontext(dev, 0, mine, NULL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, c3);
	KUNIT_EXPECT_EQ(test, c3->uasid, mine);
	KUNIT_EXPECT_PTR_EQ(test, ubcore_alloc_ucontext(dev, 0,
							UBCORE_MAX_UASID + 1,
							NULL),
			    ERR_PTR(-EINVAL));

	/* Another process cannot take it, and gets another one for 0. */
	KUNIT_EXPECT_PTR_EQ(test, uctx_in_other(test, dev, mine),
			    ERR_PTR(-EADDRINUSE));
	o = uctx_in_other(test, dev, 0);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, o);
	KUNIT_EXPECT_NE(test, o->uasid, mine);
	ubcore_free_ucontext(o);

	/* Once no context uses it, it is free for anyone. */
	ubcore_free_ucontext(c1);
	ubcore_free_ucontext(c2);
	KUNIT_EXPECT_PTR_EQ(test, uctx_in_other(test, dev, mine),
			    ERR_PTR(-EADDRINUSE));
	ubcore_free_ucontext(c3);
	o = uctx_in_other(test, dev, mine);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, o);
	KUNIT_EXPECT_EQ(test, o->uasid, mine);
	ubcore_free_ucontext(o);
	fake_provider_dev_free(dev);
}

/* A user context must name an EID the device has. */
static void user_context_needs_a_valid_eid(struct kunit *test)
{
	struct ubcore_device *dev = fake_provider_dev(test, "kunitlim%d",
						      &limits_cap);
	union ubcore_eid eid = { .raw = { 0xfe, 0x80, [15] = 1 } };
	struct ubcore_udata udata = {};
	struct ubcore_ucontext *uctx;

	KUNIT_ASSERT_EQ(test, ubcore_set_eid_mode(dev, UBCORE_EID_MODE_STATIC), 0);
	KUNIT_ASSERT_EQ(test, ubcore_add_static_eid(dev, 3, &eid), 0);
	KUNIT_EXPECT_PTR_EQ(test, ubcore_alloc_ucontext(dev, 2, 0, &udata),
			    ERR_PTR(-EINVAL));
	KUNIT_EXPECT_PTR_EQ(test, ubcore_alloc_ucontext(dev, UBCORE_MAX_EID_CNT,
							0, &udata),
			    ERR_PTR(-EINVAL));
	uctx = ubcore_alloc_ucontext(dev, 3, 0, &udata);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, uctx);
	KUNIT_EXPECT_EQ(test, uctx->eid_index, 3u);
	ubcore_free_ucontext(uctx);
	KUNIT_EXPECT_EQ(test, ubcore_del_static_eid(dev, 3), 0);
	fake_provider_dev_free(dev);
}

static struct kunit_case ubcore_limits_cases[] = {
	KUNIT_CASE(token_ids_are_cyclic),
	KUNIT_CASE(context_limits_are_per_context),
	KUNIT_CASE(user_limits_bind_all_contexts_of_a_user),
	KUNIT_CASE(uasids_belong_to_processes),
	KUNIT_CASE(user_context_needs_a_valid_eid),
	{}
};

static struct kunit_suite ubcore_limits_suite = {
	.name = "ubcore_limits",
	.test_cases = ubcore_limits_cases,
};

kunit_test_suite(ubcore_limits_suite);
