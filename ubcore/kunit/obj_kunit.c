// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * KUnit tests of the jetty objects: ID tables, reserved IDs, limits, use
 * counts, parameter checks, state changes, imports; with a fake provider.
 */
#include <kunit/test.h>
#include <linux/err.h>

#include <ub/ubcore_device.h>

#include "fake_provider.h"

#define RESERVED	64

static const struct ubcore_device_cap obj_cap = {
	.max_jfc = 4,
	.max_jfs = 20,
	.max_jfr = 3,
	.max_jetty = 2,
	FAKE_PROVIDER_QUEUE_CAP,
	.reserved_jetty_id_max = RESERVED,
};

static struct ubcore_jfc *new_jfc(struct kunit *test, struct ubcore_device *dev,
				  struct ubcore_udata *udata)
{
	struct ubcore_jfc_cfg cfg = { .depth = 64 };
	struct ubcore_jfc *jfc = ubcore_create_jfc(dev, &cfg, NULL, udata);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, jfc);
	return jfc;
}

static struct ubcore_jfs_cfg jfs_cfg(struct ubcore_jfc *jfc)
{
	return (struct ubcore_jfs_cfg) {
		.depth = 64, .trans_mode = UBCORE_TP_RM, .priority = 15,
		.max_sge = 4, .max_rsge = 1, .rnr_retry = 7, .err_timeout = 31,
		.max_inline_data = 128, .jfc = jfc,
	};
}

static struct ubcore_jfr_cfg jfr_cfg(struct ubcore_jfc *jfc, u32 id)
{
	return (struct ubcore_jfr_cfg) {
		.id = id, .depth = 32, .trans_mode = UBCORE_TP_RC, .max_sge = 2,
		.min_rnr_timer = 31, .jfc = jfc,
	};
}

static void jfc_ids_limit_and_reuse(struct kunit *test)
{
	struct ubcore_device *dev = fake_provider_dev(test, "kunitobj%d", &obj_cap);
	struct ubcore_jfc_cfg cfg = { .depth = 64 };
	struct ubcore_jfc *jfc[4], *found;
	u32 seen = 0;
	int i;

	for (i = 0; i < 4; i++) {
		jfc[i] = new_jfc(test, dev, NULL);
		KUNIT_EXPECT_GE(test, jfc[i]->id, 1u);
		KUNIT_EXPECT_LE(test, jfc[i]->id, 4u);
		seen |= BIT(jfc[i]->id);
		KUNIT_EXPECT_PTR_EQ(test, jfc[i]->ub_dev, dev);
		KUNIT_EXPECT_NULL(test, jfc[i]->uctx);
		KUNIT_EXPECT_EQ(test, jfc[i]->cfg.depth, 64u);
	}
	KUNIT_EXPECT_EQ(test, seen, 0x1eu);
	KUNIT_EXPECT_EQ(test, atomic_read(&dev->obj_cnt[UBCORE_OBJ_JFC]), 4);
	/* The max + 1-th fails and changes nothing. */
	KUNIT_EXPECT_PTR_EQ(test, ubcore_create_jfc(dev, &cfg, NULL, NULL),
			    ERR_PTR(-ENOSPC));
	KUNIT_EXPECT_EQ(test, atomic_read(&dev->obj_cnt[UBCORE_OBJ_JFC]), 4);

	found = ubcore_find_get_jfc(dev, jfc[2]->id);
	KUNIT_EXPECT_PTR_EQ(test, found, jfc[2]);
	if (found)
		ubcore_obj_ref_put(&found->obj_ref);
	KUNIT_EXPECT_NULL(test, ubcore_find_get_jfc(dev, 0));
	KUNIT_EXPECT_NULL(test, ubcore_find_get_jfc(dev, 5));

	/* A freed ID is taken again. */
	i = jfc[2]->id;
	KUNIT_EXPECT_EQ(test, ubcore_delete_jfc(jfc[2]), 0);
	KUNIT_EXPECT_NULL(test, ubcore_find_get_jfc(dev, i));
	jfc[2] = new_jfc(test, dev, NULL);
	KUNIT_EXPECT_EQ(test, jfc[2]->id, (u32)i);

	/* Depth 1 .. max_jfc_depth. */
	for (i = 0; i < 4; i++)
		KUNIT_EXPECT_EQ(test, ubcore_delete_jfc(jfc[i]), 0);
	cfg.depth = 0;
	KUNIT_EXPECT_PTR_EQ(test, ubcore_create_jfc(dev, &cfg, NULL, NULL),
			    ERR_PTR(-EINVAL));
	cfg.depth = 1025;
	KUNIT_EXPECT_PTR_EQ(test, ubcore_create_jfc(dev, &cfg, NULL, NULL),
			    ERR_PTR(-EINVAL));
	cfg.depth = 1024;
	jfc[0] = ubcore_create_jfc(dev, &cfg, NULL, NULL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, jfc[0]);
	KUNIT_EXPECT_EQ(test, ubcore_delete_jfc(jfc[0]), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&dev->obj_cnt[UBCORE_OBJ_JFC]), 0);
	fake_provider_dev_free(dev);
}

static void jetty_ids_reserved_range(struct kunit *test)
{
	struct ubcore_device *dev = fake_provider_dev(test, "kunitobj%d", &obj_cap);
	struct ubcore_jfr *k32, *user, *kauto, *found;
	struct ubcore_jfc *kjfc, *ujfc;
	struct ubcore_ucontext *uctx;
	struct ubcore_udata udata;
	struct ubcore_jfs_cfg scfg;
	struct ubcore_jfr_cfg cfg;
	struct ubcore_jfs *jfs;

	uctx = fake_provider_uctx(test, dev, &udata);
	kjfc = new_jfc(test, dev, NULL);
	ujfc = new_jfc(test, dev, &udata);
	KUNIT_EXPECT_PTR_EQ(test, ujfc->uctx, uctx);

	/* A kernel caller may ask for a reserved ID, once. */
	cfg = jfr_cfg(kjfc, 32);
	k32 = ubcore_create_jfr(dev, &cfg, NULL, NULL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, k32);
	KUNIT_EXPECT_EQ(test, k32->id, 32u);
	KUNIT_EXPECT_EQ(test, k32->cfg.id, 32u);
	KUNIT_EXPECT_EQ(test, k32->state, UBCORE_JFR_STATE_READY);
	KUNIT_EXPECT_PTR_EQ(test, ubcore_create_jfr(dev, &cfg, NULL, NULL),
			    ERR_PTR(-EBUSY));

	/* A user may not, and gets an ID above the reserved range. */
	cfg = jfr_cfg(ujfc, 33);
	KUNIT_EXPECT_PTR_EQ(test, ubcore_create_jfr(dev, &cfg, NULL, &udata),
			    ERR_PTR(-EINVAL));
	cfg.id = RESERVED;
	KUNIT_EXPECT_PTR_EQ(test, ubcore_create_jfr(dev, &cfg, NULL, &udata),
			    ERR_PTR(-EINVAL));
	cfg.id = 0;
	user = ubcore_create_jfr(dev, &cfg, NULL, &udata);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, user);
	KUNIT_EXPECT_EQ(test, user->id, RESERVED + 1u);
	KUNIT_EXPECT_PTR_EQ(test, user->uctx, uctx);
	/* A user's JFR must complete to a JFC of its context. */
	cfg = jfr_cfg(kjfc, 0);
	KUNIT_EXPECT_PTR_EQ(test, ubcore_create_jfr(dev, &cfg, NULL, &udata),
			    ERR_PTR(-EINVAL));

	/* A user's queue cannot have its posts run by a kernel caller. */
	scfg = (struct ubcore_jfs_cfg){ .depth = 1, .trans_mode = UBCORE_TP_RM,
					.jfc = ujfc,
					.flag = UBCORE_JFS_FLAG_POST_SLEEPABLE };
	KUNIT_EXPECT_PTR_EQ(test, ubcore_create_jfs(dev, &scfg, NULL, &udata),
			    ERR_PTR(-EINVAL));

	/* Automatic IDs are above the reserved range for the kernel too. */
	scfg.jfc = kjfc;
	jfs = ubcore_create_jfs(dev, &scfg, NULL, NULL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, jfs);
	KUNIT_EXPECT_EQ(test, jfs->id, RESERVED + 2u);
	KUNIT_EXPECT_EQ(test, jfs->cfg.flag, UBCORE_JFS_FLAG_POST_SLEEPABLE);

	/* Beyond reserved + max_jfs + max_jfr + max_jetty: no such ID. */
	cfg = jfr_cfg(kjfc, RESERVED + 20 + 3 + 2 + 1);
	KUNIT_EXPECT_PTR_EQ(test, ubcore_create_jfr(dev, &cfg, NULL, NULL),
			    ERR_PTR(-EINVAL));
	cfg.id = RESERVED + 20 + 3 + 2;
	kauto = ubcore_create_jfr(dev, &cfg, NULL, NULL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, kauto);
	KUNIT_EXPECT_EQ(test, kauto->id, cfg.id);
	/* The JFR limit (3) holds whatever the IDs. */
	cfg.id = 0;
	KUNIT_EXPECT_PTR_EQ(test, ubcore_create_jfr(dev, &cfg, NULL, NULL),
			    ERR_PTR(-ENOSPC));

	/* Lookups see the right kind only. */
	found = ubcore_find_get_jfr(dev, 32);
	KUNIT_EXPECT_PTR_EQ(test, found, k32);
	if (found)
		ubcore_obj_ref_put(&found->obj_ref);
	KUNIT_EXPECT_NULL(test, ubcore_find_get_jfs(dev, 32));
	KUNIT_EXPECT_NULL(test, ubcore_find_get_jetty(dev, 32));
	KUNIT_EXPECT_NULL(test, ubcore_find_get_jfr(dev, jfs->id));
	KUNIT_EXPECT_NULL(test, ubcore_find_get_jfr(dev, 31));

	KUNIT_EXPECT_EQ(test, ubcore_delete_jfs(jfs), 0);
	KUNIT_EXPECT_EQ(test, ubcore_delete_jfr(kauto), 0);
	KUNIT_EXPECT_EQ(test, ubcore_delete_jfr(user), 0);
	KUNIT_EXPECT_EQ(test, ubcore_delete_jfr(k32), 0);
	KUNIT_EXPECT_NULL(test, ubcore_find_get_jfr(dev, 32));
	/* Freed IDs are taken again. */
	cfg = jfr_cfg(kjfc, 32);
	k32 = ubcore_create_jfr(dev, &cfg, NULL, NULL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, k32);
	KUNIT_EXPECT_EQ(test, ubcore_delete_jfr(k32), 0);
	KUNIT_EXPECT_EQ(test, ubcore_delete_jfc(kjfc), 0);
	KUNIT_EXPECT_EQ(test, ubcore_delete_jfc(ujfc), 0);
	ubcore_free_ucontext(uctx);
	KUNIT_EXPECT_EQ(test, atomic_read(&dev->obj_cnt[UBCORE_OBJ_UCONTEXT]), 0);
	fake_provider_dev_free(dev);
}

static void use_counts_and_busy(struct kunit *test)
{
	struct ubcore_device *dev = fake_provider_dev(test, "kunitobj%d", &obj_cap);
	struct ubcore_jfc *send = new_jfc(test, dev, NULL);
	struct ubcore_jfc *recv = new_jfc(test, dev, NULL);
	struct ubcore_jetty *jetty, *jetty2, *found;
	struct ubcore_jetty_cfg jcfg;
	struct ubcore_jfs_cfg scfg;
	struct ubcore_jfr_cfg rcfg;
	struct ubcore_jfs *jfs;
	struct ubcore_jfr *jfr;

	scfg = jfs_cfg(send);
	jfs = ubcore_create_jfs(dev, &scfg, NULL, NULL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, jfs);
	KUNIT_EXPECT_EQ(test, atomic_read(&send->use_cnt), 1);
	KUNIT_EXPECT_EQ(test, jfs->state, UBCORE_JETTY_STATE_READY);
	KUNIT_EXPECT_EQ(test, ubcore_delete_jfc(send), -EBUSY);
	KUNIT_EXPECT_EQ(test, atomic_read(&send->use_cnt), 1);

	rcfg = jfr_cfg(recv, 0);
	jfr = ubcore_create_jfr(dev, &rcfg, NULL, NULL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, jfr);
	KUNIT_EXPECT_EQ(test, atomic_read(&recv->use_cnt), 1);

	/* A jetty shares a JFR. */
	jcfg = (struct ubcore_jetty_cfg){ .jfs_cfg = jfs_cfg(send), .jfr = jfr };
	KUNIT_EXPECT_PTR_EQ(test, ubcore_create_jetty(dev, &jcfg, NULL, NULL),
			    ERR_PTR(-EINVAL));
	jcfg.flag = UBCORE_JETTY_SHARE_JFR;
	jcfg.jfr = NULL;
	KUNIT_EXPECT_PTR_EQ(test, ubcore_create_jetty(dev, &jcfg, NULL, NULL),
			    ERR_PTR(-EINVAL));
	jcfg.jfr = jfr;
	jcfg.id = 7;
	jetty = ubcore_create_jetty(dev, &jcfg, NULL, NULL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, jetty);
	KUNIT_EXPECT_EQ(test, jetty->id, 7u);
	KUNIT_EXPECT_EQ(test, atomic_read(&send->use_cnt), 2);
	KUNIT_EXPECT_EQ(test, atomic_read(&jfr->use_cnt), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&recv->use_cnt), 1);

	jcfg.id = 0;
	jcfg.recv_jfc = recv;
	jetty2 = ubcore_create_jetty(dev, &jcfg, NULL, NULL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, jetty2);
	KUNIT_EXPECT_EQ(test, atomic_read(&send->use_cnt), 3);
	KUNIT_EXPECT_EQ(test, atomic_read(&recv->use_cnt), 2);
	KUNIT_EXPECT_EQ(test, atomic_read(&jfr->use_cnt), 2);
	/* max_jetty is 2; the failure leaves the use counts alone. */
	KUNIT_EXPECT_PTR_EQ(test, ubcore_create_jetty(dev, &jcfg, NULL, NULL),
			    ERR_PTR(-ENOSPC));
	KUNIT_EXPECT_EQ(test, atomic_read(&send->use_cnt), 3);
	KUNIT_EXPECT_EQ(test, atomic_read(&recv->use_cnt), 2);
	KUNIT_EXPECT_EQ(test, atomic_read(&jfr->use_cnt), 2);

	found = ubcore_find_get_jetty(dev, 7);
	KUNIT_EXPECT_PTR_EQ(test, found, jetty);
	if (found)
		ubcore_obj_ref_put(&found->obj_ref);

	KUNIT_EXPECT_EQ(test, ubcore_delete_jfr(jfr), -EBUSY);
	KUNIT_EXPECT_EQ(test, ubcore_delete_jetty(jetty), 0);
	KUNIT_EXPECT_EQ(test, ubcore_delete_jetty(jetty2), 0);
	KUNIT_EXPECT_NULL(test, ubcore_find_get_jetty(dev, 7));
	KUNIT_EXPECT_EQ(test, atomic_read(&send->use_cnt), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&recv->use_cnt), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&jfr->use_cnt), 0);
	KUNIT_EXPECT_EQ(test, ubcore_delete_jfc(recv), -EBUSY);
	KUNIT_EXPECT_EQ(test, ubcore_delete_jfr(jfr), 0);
	KUNIT_EXPECT_EQ(test, ubcore_delete_jfc(recv), 0);

	/* The JFC is free once its JFS is gone. */
	KUNIT_EXPECT_EQ(test, ubcore_delete_jfc(send), -EBUSY);
	KUNIT_EXPECT_EQ(test, ubcore_delete_jfs(jfs), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&send->use_cnt), 0);
	KUNIT_EXPECT_EQ(test, ubcore_delete_jfc(send), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&dev->obj_cnt[UBCORE_OBJ_JFS]), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&dev->obj_cnt[UBCORE_OBJ_JFR]), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&dev->obj_cnt[UBCORE_OBJ_JETTY]), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&dev->obj_cnt[UBCORE_OBJ_JFC]), 0);
	fake_provider_dev_free(dev);
}

static void bad_cfgs_are_refused(struct kunit *test)
{
	struct ubcore_device *dev = fake_provider_dev(test, "kunitobj%d", &obj_cap);
	struct ubcore_device *other = fake_provider_dev(test, "kunitobj%d", &obj_cap);
	struct ubcore_jfc *jfc = new_jfc(test, dev, NULL);
	struct ubcore_jfc *ojfc = new_jfc(test, other, NULL);
	struct ubcore_jfs_cfg bad[14];
	struct ubcore_jfr_cfg rcfg;
	struct ubcore_jfs *jfs;
	int i;

	for (i = 0; i < ARRAY_SIZE(bad); i++)
		bad[i] = jfs_cfg(jfc);
	bad[0].depth = 0;
	bad[1].depth = 513;
	bad[2].max_sge = 5;
	bad[3].max_rsge = 2;
	bad[4].max_inline_data = 129;
	bad[5].trans_mode = 0;
	bad[6].trans_mode = UBCORE_TP_RM | UBCORE_TP_RC;
	bad[7].trans_mode = UBCORE_TP_UM;	/* not in cap.trans_mode */
	bad[8].trans_mode = 0x8;
	bad[9].priority = 16;
	bad[10].rnr_retry = 8;
	bad[11].err_timeout = 32;
	bad[12].jfc = NULL;
	bad[13].jfc = ojfc;
	for (i = 0; i < ARRAY_SIZE(bad); i++)
		KUNIT_EXPECT_PTR_EQ_MSG(test,
					ubcore_create_jfs(dev, &bad[i], NULL, NULL),
					ERR_PTR(-EINVAL), "bad jfs cfg %d", i);
	KUNIT_EXPECT_EQ(test, atomic_read(&jfc->use_cnt), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&dev->obj_cnt[UBCORE_OBJ_JFS]), 0);

	rcfg = jfr_cfg(jfc, 0);
	rcfg.min_rnr_timer = 32;
	KUNIT_EXPECT_PTR_EQ(test, ubcore_create_jfr(dev, &rcfg, NULL, NULL),
			    ERR_PTR(-EINVAL));
	rcfg = jfr_cfg(jfc, 0);
	rcfg.max_sge = 3;
	KUNIT_EXPECT_PTR_EQ(test, ubcore_create_jfr(dev, &rcfg, NULL, NULL),
			    ERR_PTR(-EINVAL));
	rcfg = jfr_cfg(jfc, 0);
	rcfg.depth = 257;
	KUNIT_EXPECT_PTR_EQ(test, ubcore_create_jfr(dev, &rcfg, NULL, NULL),
			    ERR_PTR(-EINVAL));

	/* The limits themselves are fine. */
	bad[0] = jfs_cfg(jfc);
	bad[0].depth = 512;
	jfs = ubcore_create_jfs(dev, &bad[0], NULL, NULL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, jfs);
	KUNIT_EXPECT_EQ(test, ubcore_delete_jfs(jfs), 0);

	KUNIT_EXPECT_EQ(test, ubcore_delete_jfc(jfc), 0);
	KUNIT_EXPECT_EQ(test, ubcore_delete_jfc(ojfc), 0);
	fake_provider_dev_free(other);
	fake_provider_dev_free(dev);
}

/* Path from READY to each state through allowed changes. */
static const enum ubcore_jetty_state jetty_path[4][2] = {
	[UBCORE_JETTY_STATE_RESET] = { UBCORE_JETTY_STATE_ERROR,
				       UBCORE_JETTY_STATE_RESET },
	[UBCORE_JETTY_STATE_READY] = { UBCORE_JETTY_STATE_READY,
				       UBCORE_JETTY_STATE_READY },
	[UBCORE_JETTY_STATE_SUSPENDED] = { UBCORE_JETTY_STATE_SUSPENDED,
					   UBCORE_JETTY_STATE_SUSPENDED },
	[UBCORE_JETTY_STATE_ERROR] = { UBCORE_JETTY_STATE_ERROR,
				       UBCORE_JETTY_STATE_ERROR },
};

/* Allowed changes (the same state is a no-op, allowed). */
static const bool jetty_ok[4][4] = {
	/*	     RESET  READY  SUSP   ERROR */
	/* RESET */ { true,  true,  false, true },
	/* READY */ { false, true,  true,  true },
	/* SUSP  */ { false, true,  true,  true },
	/* ERROR */ { true,  false, false, true },
};

static void jfs_state_changes(struct kunit *test)
{
	struct ubcore_device *dev = fake_provider_dev(test, "kunitobj%d", &obj_cap);
	struct ubcore_jfc *jfc = new_jfc(test, dev, NULL);
	struct ubcore_jfs_attr attr = { .mask = UBCORE_JFS_STATE };
	struct ubcore_jfs_cfg cfg = jfs_cfg(jfc), qcfg;
	struct ubcore_jfs *jfs;
	int from, to, k;

	for (from = 0; from < 4; from++) {
		for (to = 0; to < 4; to++) {
			jfs = ubcore_create_jfs(dev, &cfg, NULL, NULL);
			KUNIT_ASSERT_NOT_ERR_OR_NULL(test, jfs);
			for (k = 0; k < 2; k++) {
				attr.state = jetty_path[from][k];
				KUNIT_ASSERT_EQ(test, ubcore_modify_jfs(jfs, &attr, NULL), 0);
			}
			KUNIT_ASSERT_EQ(test, jfs->state, from);
			attr.state = to;
			KUNIT_EXPECT_EQ_MSG(test, ubcore_modify_jfs(jfs, &attr, NULL),
					    jetty_ok[from][to] ? 0 : -EINVAL,
					    "%d -> %d", from, to);
			KUNIT_EXPECT_EQ(test, jfs->state,
					jetty_ok[from][to] ? to : from);
			KUNIT_EXPECT_EQ(test, ubcore_delete_jfs(jfs), 0);
		}
	}

	jfs = ubcore_create_jfs(dev, &cfg, NULL, NULL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, jfs);
	/* Unknown states and mask bits. */
	attr.state = 4;
	KUNIT_EXPECT_EQ(test, ubcore_modify_jfs(jfs, &attr, NULL), -EINVAL);
	attr = (struct ubcore_jfs_attr){ .mask = 0x2 };
	KUNIT_EXPECT_EQ(test, ubcore_modify_jfs(jfs, &attr, NULL), -EINVAL);
	/* A provider failure leaves the state. */
	fake_modify_err = -EIO;
	attr = (struct ubcore_jfs_attr){ .mask = UBCORE_JFS_STATE,
					 .state = UBCORE_JETTY_STATE_ERROR };
	KUNIT_EXPECT_EQ(test, ubcore_modify_jfs(jfs, &attr, NULL), -EIO);
	KUNIT_EXPECT_EQ(test, jfs->state, UBCORE_JETTY_STATE_READY);
	fake_modify_err = 0;
	/* Query. */
	KUNIT_EXPECT_EQ(test, ubcore_query_jfs(jfs, &qcfg, &attr), 0);
	KUNIT_EXPECT_EQ(test, attr.state, UBCORE_JETTY_STATE_READY);
	KUNIT_EXPECT_EQ(test, qcfg.depth, cfg.depth);
	KUNIT_EXPECT_PTR_EQ(test, qcfg.jfc, jfc);
	KUNIT_EXPECT_EQ(test, ubcore_delete_jfs(jfs), 0);
	KUNIT_EXPECT_EQ(test, ubcore_delete_jfc(jfc), 0);
	fake_provider_dev_free(dev);
}

static void jfr_and_jetty_modify(struct kunit *test)
{
	static const bool jfr_ok[3][3] = {
		/*	     RESET  READY  ERROR */
		/* RESET */ { true,  true,  true },
		/* READY */ { false, true,  true },
		/* ERROR */ { true,  false, true },
	};
	struct ubcore_device *dev = fake_provider_dev(test, "kunitobj%d", &obj_cap);
	struct ubcore_jfc *jfc = new_jfc(test, dev, NULL);
	struct ubcore_jfr_cfg rcfg = jfr_cfg(jfc, 0), qrcfg;
	struct ubcore_jetty_attr jattr;
	struct ubcore_jetty_cfg jcfg;
	struct ubcore_jfr_attr attr;
	struct ubcore_jetty *jetty;
	struct ubcore_jfr *jfr;
	int from, to;

	for (from = 0; from < 3; from++) {
		for (to = 0; to < 3; to++) {
			jfr = ubcore_create_jfr(dev, &rcfg, NULL, NULL);
			KUNIT_ASSERT_NOT_ERR_OR_NULL(test, jfr);
			attr = (struct ubcore_jfr_attr){ .mask = UBCORE_JFR_STATE };
			if (from != UBCORE_JFR_STATE_READY) {
				attr.state = UBCORE_JFR_STATE_ERROR;
				KUNIT_ASSERT_EQ(test, ubcore_modify_jfr(jfr, &attr, NULL), 0);
			}
			if (from == UBCORE_JFR_STATE_RESET) {
				attr.state = UBCORE_JFR_STATE_RESET;
				KUNIT_ASSERT_EQ(test, ubcore_modify_jfr(jfr, &attr, NULL), 0);
			}
			KUNIT_ASSERT_EQ(test, jfr->state, from);
			attr.state = to;
			KUNIT_EXPECT_EQ_MSG(test, ubcore_modify_jfr(jfr, &attr, NULL),
					    jfr_ok[from][to] ? 0 : -EINVAL,
					    "jfr %d -> %d", from, to);
			KUNIT_EXPECT_EQ(test, jfr->state, jfr_ok[from][to] ? to : from);
			KUNIT_EXPECT_EQ(test, ubcore_delete_jfr(jfr), 0);
		}
	}

	jfr = ubcore_create_jfr(dev, &rcfg, NULL, NULL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, jfr);
	attr = (struct ubcore_jfr_attr){ .mask = UBCORE_JFR_RX_THRESHOLD,
					 .rx_threshold = 33 };
	KUNIT_EXPECT_EQ(test, ubcore_modify_jfr(jfr, &attr, NULL), -EINVAL);
	attr.rx_threshold = 16;
	KUNIT_EXPECT_EQ(test, ubcore_modify_jfr(jfr, &attr, NULL), 0);
	KUNIT_EXPECT_EQ(test, ubcore_query_jfr(jfr, &qrcfg, &attr), 0);
	KUNIT_EXPECT_EQ(test, attr.rx_threshold, 16u);
	KUNIT_EXPECT_EQ(test, attr.state, UBCORE_JFR_STATE_READY);
	KUNIT_EXPECT_EQ(test, qrcfg.id, jfr->id);

	jcfg = (struct ubcore_jetty_cfg){ .flag = UBCORE_JETTY_SHARE_JFR,
					  .jfs_cfg = jfs_cfg(jfc), .jfr = jfr };
	jetty = ubcore_create_jetty(dev, &jcfg, NULL, NULL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, jetty);
	KUNIT_EXPECT_EQ(test, jetty->state, UBCORE_JETTY_STATE_READY);
	jattr = (struct ubcore_jetty_attr){
		.mask = UBCORE_JFR_STATE | UBCORE_JFR_RX_THRESHOLD,
		.state = UBCORE_JETTY_STATE_SUSPENDED, .rx_threshold = 8 };
	KUNIT_EXPECT_EQ(test, ubcore_modify_jetty(jetty, &jattr, NULL), 0);
	KUNIT_EXPECT_EQ(test, jetty->state, UBCORE_JETTY_STATE_SUSPENDED);
	KUNIT_EXPECT_EQ(test, jetty->rx_threshold, 8u);
	jattr.state = UBCORE_JETTY_STATE_RESET;
	KUNIT_EXPECT_EQ(test, ubcore_modify_jetty(jetty, &jattr, NULL), -EINVAL);
	KUNIT_EXPECT_EQ(test, jetty->state, UBCORE_JETTY_STATE_SUSPENDED);
	KUNIT_EXPECT_EQ(test, ubcore_delete_jetty(jetty), 0);
	KUNIT_EXPECT_EQ(test, ubcore_delete_jfr(jfr), 0);
	KUNIT_EXPECT_EQ(test, ubcore_delete_jfc(jfc), 0);
	fake_provider_dev_free(dev);
}

static void imports_are_checked_and_counted(struct kunit *test)
{
	struct ubcore_device *dev = fake_provider_dev(test, "kunitobj%d", &obj_cap);
	/*
	 * RC: an RC import opens no TP (binding does), so these checks need
	 * no peer; imports that connect are tp_kunit's and dp_kunit's.
	 */
	struct ubcore_tjetty_cfg cfg = {
		.id = { .id = 5, .uasid = 1 }, .trans_mode = UBCORE_TP_RC,
		.type = UBCORE_TARGET_JFR, .token_value = 0x1234,
	};
	struct ubcore_tjetty *tjfr, *tjetty;

	tjfr = ubcore_import_jfr(dev, &cfg, NULL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, tjfr);
	KUNIT_EXPECT_EQ(test, tjfr->cfg.id.id, 5u);
	KUNIT_EXPECT_EQ(test, tjfr->cfg.token_value, 0x1234u);
	KUNIT_EXPECT_EQ(test, atomic_read(&dev->obj_cnt[UBCORE_OBJ_TJFR]), 1);
	/* A JFR is not imported as a jetty. */
	KUNIT_EXPECT_PTR_EQ(test, ubcore_import_jetty(dev, &cfg, NULL),
			    ERR_PTR(-EINVAL));
	cfg.type = UBCORE_TARGET_JETTY;
	tjetty = ubcore_import_jetty(dev, &cfg, NULL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, tjetty);
	KUNIT_EXPECT_EQ(test, atomic_read(&dev->obj_cnt[UBCORE_OBJ_TJETTY]), 1);
	cfg.id.id = 0;
	KUNIT_EXPECT_PTR_EQ(test, ubcore_import_jetty(dev, &cfg, NULL),
			    ERR_PTR(-EINVAL));
	cfg.id.id = 5;
	cfg.trans_mode = UBCORE_TP_UM;
	KUNIT_EXPECT_PTR_EQ(test, ubcore_import_jetty(dev, &cfg, NULL),
			    ERR_PTR(-EINVAL));
	KUNIT_EXPECT_EQ(test, ubcore_unimport_jetty(tjetty), 0);
	KUNIT_EXPECT_EQ(test, ubcore_unimport_jfr(tjfr), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&dev->obj_cnt[UBCORE_OBJ_TJFR]), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&dev->obj_cnt[UBCORE_OBJ_TJETTY]), 0);
	fake_provider_dev_free(dev);
}

static const struct ubcore_device_cap grp_cap = {
	.max_jfc = 4,
	.max_jfs = 4,
	.max_jfr = 4,
	.max_jetty = 8,
	FAKE_PROVIDER_QUEUE_CAP,
	.reserved_jetty_id_max = RESERVED,
	.max_jetty_grp = 2,
	.max_jetty_in_jetty_grp = 2,
};

/* The member a message to the group's ID reaches (its reference put). */
static struct ubcore_jetty *grp_pick(struct ubcore_device *dev, u32 id)
{
	struct ubcore_jetty *jetty = ubcore_find_get_jetty(dev, id);

	if (jetty)
		ubcore_obj_ref_put(&jetty->obj_ref);
	return jetty;
}

static void jetty_grp_members_and_pick(struct kunit *test)
{
	struct ubcore_device *dev = fake_provider_dev(test, "kunitgrp%d", &grp_cap);
	struct ubcore_jetty_grp_cfg gcfg = {
		.name = "kunit", .flag = 1, .token_value = 7,
		.policy = UBCORE_JETTY_GRP_POLICY_RR,
	};
	struct ubcore_jfc *jfc = new_jfc(test, dev, NULL);
	struct ubcore_jetty_attr err = {
		.mask = UBCORE_JFR_STATE, .state = UBCORE_JETTY_STATE_ERROR,
	};
	struct ubcore_jetty_grp *grp, *hint;
	struct ubcore_jetty *a, *b, *c;
	struct ubcore_jetty_cfg jcfg;
	struct ubcore_jfr_cfg rcfg;
	struct ubcore_jfr *jfr, *other;

	rcfg = jfr_cfg(jfc, 0);
	rcfg.trans_mode = UBCORE_TP_RM;
	rcfg.flag = 1;
	rcfg.token_value = 7;
	jfr = ubcore_create_jfr(dev, &rcfg, NULL, NULL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, jfr);
	rcfg.token_value = 8;
	other = ubcore_create_jfr(dev, &rcfg, NULL, NULL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, other);

	gcfg.policy = 2;
	KUNIT_EXPECT_PTR_EQ(test, ubcore_create_jetty_grp(dev, &gcfg, NULL),
			    ERR_PTR(-EINVAL));
	gcfg.policy = UBCORE_JETTY_GRP_POLICY_RR;
	grp = ubcore_create_jetty_grp(dev, &gcfg, NULL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, grp);
	KUNIT_EXPECT_GT(test, grp->id, (u32)RESERVED);
	KUNIT_EXPECT_EQ(test, atomic_read(&dev->obj_cnt[UBCORE_OBJ_JETTY_GRP]), 1);
	/* An empty group has no member to pick. */
	KUNIT_EXPECT_NULL(test, grp_pick(dev, grp->id));

	jcfg = (struct ubcore_jetty_cfg){
		.flag = UBCORE_JETTY_SHARE_JFR, .jfs_cfg = jfs_cfg(jfc),
		.jfr = other, .jetty_grp = grp,
	};
	/* Another token than the group's. */
	KUNIT_EXPECT_PTR_EQ(test, ubcore_create_jetty(dev, &jcfg, NULL, NULL),
			    ERR_PTR(-EINVAL));
	jcfg.jfr = jfr;
	a = ubcore_create_jetty(dev, &jcfg, NULL, NULL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, a);
	b = ubcore_create_jetty(dev, &jcfg, NULL, NULL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, b);
	/* max_jetty_in_jetty_grp is 2; the failure holds no place. */
	KUNIT_EXPECT_PTR_EQ(test, ubcore_create_jetty(dev, &jcfg, NULL, NULL),
			    ERR_PTR(-ENOSPC));
	KUNIT_EXPECT_EQ(test, grp->jetty_cnt, 2u);
	KUNIT_EXPECT_EQ(test, grp->joining, 0u);
	KUNIT_EXPECT_EQ(test, atomic_read(&dev->obj_cnt[UBCORE_OBJ_JETTY]), 2);
	KUNIT_EXPECT_EQ(test, ubcore_delete_jetty_grp(grp), -EBUSY);

	/* Round robin; a member not READY is skipped. */
	KUNIT_EXPECT_PTR_EQ(test, grp_pick(dev, grp->id), a);
	KUNIT_EXPECT_PTR_EQ(test, grp_pick(dev, grp->id), b);
	KUNIT_EXPECT_PTR_EQ(test, grp_pick(dev, grp->id), a);
	KUNIT_EXPECT_EQ(test, ubcore_modify_jetty(a, &err, NULL), 0);
	KUNIT_EXPECT_PTR_EQ(test, grp_pick(dev, grp->id), b);
	KUNIT_EXPECT_PTR_EQ(test, grp_pick(dev, grp->id), b);
	/* A member's own ID still names the member. */
	KUNIT_EXPECT_PTR_EQ(test, grp_pick(dev, a->id), a);
	KUNIT_EXPECT_EQ(test, ubcore_delete_jetty(b), 0);
	KUNIT_EXPECT_NULL(test, grp_pick(dev, grp->id));
	KUNIT_EXPECT_EQ(test, grp->jetty_cnt, 1u);

	/* Hash hint: hint 0, the first member, whatever came before. */
	gcfg.policy = UBCORE_JETTY_GRP_POLICY_HASH_HINT;
	hint = ubcore_create_jetty_grp(dev, &gcfg, NULL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, hint);
	KUNIT_EXPECT_PTR_EQ(test, ubcore_create_jetty_grp(dev, &gcfg, NULL),
			    ERR_PTR(-ENOSPC));
	jcfg.jetty_grp = hint;
	b = ubcore_create_jetty(dev, &jcfg, NULL, NULL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, b);
	c = ubcore_create_jetty(dev, &jcfg, NULL, NULL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, c);
	KUNIT_EXPECT_PTR_EQ(test, grp_pick(dev, hint->id), b);
	KUNIT_EXPECT_PTR_EQ(test, grp_pick(dev, hint->id), b);
	KUNIT_EXPECT_EQ(test, ubcore_delete_jetty(b), 0);
	KUNIT_EXPECT_PTR_EQ(test, grp_pick(dev, hint->id), c);

	KUNIT_EXPECT_EQ(test, ubcore_delete_jetty(c), 0);
	KUNIT_EXPECT_EQ(test, ubcore_delete_jetty(a), 0);
	KUNIT_EXPECT_EQ(test, ubcore_delete_jetty_grp(hint), 0);
	KUNIT_EXPECT_EQ(test, ubcore_delete_jetty_grp(grp), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&dev->obj_cnt[UBCORE_OBJ_JETTY_GRP]), 0);
	KUNIT_EXPECT_EQ(test, ubcore_delete_jfr(other), 0);
	KUNIT_EXPECT_EQ(test, ubcore_delete_jfr(jfr), 0);
	KUNIT_EXPECT_EQ(test, ubcore_delete_jfc(jfc), 0);
	fake_provider_dev_free(dev);
}

static struct kunit_case ubcore_obj_cases[] = {
	KUNIT_CASE(jfc_ids_limit_and_reuse),
	KUNIT_CASE(jetty_ids_reserved_range),
	KUNIT_CASE(use_counts_and_busy),
	KUNIT_CASE(bad_cfgs_are_refused),
	KUNIT_CASE(jfs_state_changes),
	KUNIT_CASE(jfr_and_jetty_modify),
	KUNIT_CASE(imports_are_checked_and_counted),
	KUNIT_CASE(jetty_grp_members_and_pick),
	{}
};

static struct kunit_suite ubcore_obj_suite = {
	.name = "ubcore_obj",
	.test_cases = ubcore_obj_cases,
};

kunit_test_suite(ubcore_obj_suite);
