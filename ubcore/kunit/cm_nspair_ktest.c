// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * ubcore_cm_nspair.ko: KUnit suite "ubcore_cm_nspair", the connection
 * manager between two network namespaces over the UBoE wire. Loaded only
 * by tests/guest/cases/cm-ns-pair.sh, after lib.sh's namespace pair is up
 * (its name is not *_kunit.ko, so kunit-modules does not load it): dev_a
 * (udmaA, ip_a 10.77.0.1) in one namespace, dev_b (udmaB, ip_b 10.77.0.2)
 * in the other, joined by a veth pair. Their management messages are UBoE
 * packets (another namespace is another host for udma/mgmt.c).
 *
 * Expectations: user guide 5.1.1.1 (connection), 5.1.1.2 (sharing,
 * reject), 5.1.1.4 (states), the errnos of ubcore_tp_open()'s kernel-doc.
 */
#include <kunit/test.h>
#include <linux/delay.h>
#include <linux/inet.h>
#include <linux/module.h>
#include <linux/netdevice.h>
#include <linux/rtnetlink.h>

#include <ub/ubcore_dp.h>
#include <ub/ubcore_event.h>
#include <ub/ubcore_jetty.h>
#include <uapi/ub/uboe_wire.h>

#include "../tp.h"

static char *dev_a = "udmaA", *dev_b = "udmaB";
static char *ip_a = "10.77.0.1", *ip_b = "10.77.0.2";
module_param(dev_a, charp, 0444);
module_param(dev_b, charp, 0444);
module_param(ip_a, charp, 0444);
module_param(ip_b, charp, 0444);

#define TOKEN		0x7e57
#define TOKEN_POLICY	1	/* urma_jfr_flag_t token_policy: plain text */

struct nsp {
	struct ubcore_device *a, *b;
	union ubcore_eid ea, eb;
	struct ubcore_jfc *jfc;
	struct ubcore_jfr *rm, *rc;
};

static struct ubcore_jfr *new_jfr(struct kunit *test, struct nsp *p, u32 mode)
{
	struct ubcore_jfr_cfg cfg = {
		.depth = 16, .trans_mode = mode, .max_sge = 1,
		.min_rnr_timer = 31, .jfc = p->jfc, .flag = TOKEN_POLICY,
		.token_value = TOKEN,
	};

	return ubcore_create_jfr(p->b, &cfg, NULL, NULL);
}

static int nsp_init(struct kunit *test)
{
	struct ubcore_jfc_cfg jcfg = { .depth = 64 };
	struct nsp *p = kunit_kzalloc(test, sizeof(*p), GFP_KERNEL);

	if (!p)
		return -ENOMEM;
	test->priv = p;
	p->a = ubcore_get_device_by_name(dev_a);
	p->b = ubcore_get_device_by_name(dev_b);
	if (!p->a || !p->b) {
		kunit_err(test, "no %s or %s (lib.sh's namespace pair)\n",
			  dev_a, dev_b);
		return -ENODEV;
	}
	ubcore_eid_from_ipv4(&p->ea, in_aton(ip_a));
	ubcore_eid_from_ipv4(&p->eb, in_aton(ip_b));
	/* a slow guest: a message is not resent before its answer comes */
	ubcore_cm_set_timing(p->a, 2000, 2);
	ubcore_cm_set_timing(p->b, 2000, 2);
	/* no keepalive: cm-ns-pair.sh counts every management message */
	ubcore_cm_set_keepalive(p->a, 0);
	ubcore_cm_set_keepalive(p->b, 0);
	p->jfc = ubcore_create_jfc(p->b, &jcfg, NULL, NULL);
	if (IS_ERR_OR_NULL(p->jfc))
		return -ENOMEM;
	p->rm = new_jfr(test, p, UBCORE_TP_RM);
	p->rc = new_jfr(test, p, UBCORE_TP_RC);
	if (IS_ERR_OR_NULL(p->rm) || IS_ERR_OR_NULL(p->rc))
		return -ENOMEM;
	return 0;
}

static void nsp_exit(struct kunit *test)
{
	struct nsp *p = test->priv;

	if (!IS_ERR_OR_NULL(p->rc))
		ubcore_delete_jfr(p->rc);
	if (!IS_ERR_OR_NULL(p->rm))
		ubcore_delete_jfr(p->rm);
	if (!IS_ERR_OR_NULL(p->jfc))
		ubcore_delete_jfc(p->jfc);
	if (p->b)
		ubcore_put_device(p->b);
	if (p->a)
		ubcore_put_device(p->a);
}

static int tps(struct ubcore_device *dev, struct ubcore_tp_info *info)
{
	return ubcore_tp_list(dev, 1, info, 8);
}

/* Until @dev has @n TPs (at most 10 s: the other side is asynchronous). */
static void wait_tps(struct kunit *test, struct ubcore_device *dev, int n)
{
	struct ubcore_tp_info info[8];
	int i;

	for (i = 0; i < 500 && tps(dev, info) != n; i++)
		msleep(20);
	KUNIT_EXPECT_EQ(test, tps(dev, info), n);
}

/* Until @dev's only TP is Target established (the CONN_ACK is in). */
static void wait_target_established(struct kunit *test,
				    struct ubcore_device *dev)
{
	struct ubcore_tp_info info[8];
	int i;

	for (i = 0; i < 500; i++) {
		if (tps(dev, info) == 1 &&
		    info[0].state == UBCORE_TPS_TARGET_ESTABLISHED)
			return;
		msleep(20);
	}
	KUNIT_FAIL(test, "no TP of %s reached Target established",
		   dev_name(&dev->dev));
}

static struct ubcore_tp_key key_of(struct nsp *p, u8 mode)
{
	struct ubcore_tp_key k = { .local = p->ea, .remote = p->eb,
				   .mode = mode };

	if (mode == UBOE_MGMT_TM_RC) {
		k.local_jetty = 7;
		k.remote_jetty = p->rc->id;
	}
	return k;
}

static struct ubcore_tp_target target_of(const struct ubcore_jfr *jfr,
					 u32 token)
{
	return (struct ubcore_tp_target){ .id = jfr->id,
					  .type = UBOE_MGMT_TARGET_JFR,
					  .token_value = token };
}

/* RM across the wire: one TP, shared, both ends' states and TPNs. */
static void rm_across_namespaces(struct kunit *test)
{
	struct nsp *p = test->priv;
	struct ubcore_tp_key key = key_of(p, UBOE_MGMT_TM_RM);
	struct ubcore_tp_target tgt = target_of(p->rm, TOKEN);
	struct ubcore_tp_info ia[8], ib[8];
	struct ubcore_tp *t1, *t2;

	KUNIT_ASSERT_EQ(test, ubcore_tp_open(p->a, &key, &tgt, &t1), 0);
	KUNIT_ASSERT_EQ(test, ubcore_tp_open(p->a, &key, &tgt, &t2), 0);
	KUNIT_EXPECT_PTR_EQ(test, t1, t2);
	wait_target_established(test, p->b);
	KUNIT_ASSERT_EQ(test, tps(p->a, ia), 1);
	KUNIT_ASSERT_EQ(test, tps(p->b, ib), 1);
	KUNIT_EXPECT_EQ(test, ia[0].state, UBCORE_TPS_INITIATOR_ESTABLISHED);
	KUNIT_EXPECT_EQ(test, ib[0].state, UBCORE_TPS_TARGET_ESTABLISHED);
	KUNIT_EXPECT_EQ(test, ia[0].users, 2U);
	KUNIT_EXPECT_EQ(test, ia[0].mode, UBOE_MGMT_TM_RM);
	KUNIT_EXPECT_EQ(test, ia[0].peer_tpn, ib[0].tpn);
	KUNIT_EXPECT_EQ(test, ib[0].peer_tpn, ia[0].tpn);
	KUNIT_EXPECT_EQ(test, memcmp(ia[0].peer.raw, p->eb.raw, 16), 0);
	KUNIT_EXPECT_EQ(test, memcmp(ib[0].peer.raw, p->ea.raw, 16), 0);
	ubcore_tp_close(t1);
	KUNIT_EXPECT_EQ(test, tps(p->a, ia), 1);
	ubcore_tp_close(t2);
	KUNIT_EXPECT_EQ(test, tps(p->a, ia), 0);
	wait_tps(test, p->b, 0);	/* DCONN_NOTIFY crossed the wire */
}

#define RM_USERS	1000

/* 5.1.1.2: 1000 users of one remote JFR in RM share one TP. */
static void rm_thousand_users_one_tp(struct kunit *test)
{
	struct nsp *p = test->priv;
	struct ubcore_tp_key key = key_of(p, UBOE_MGMT_TM_RM);
	struct ubcore_tp_target tgt = target_of(p->rm, TOKEN);
	struct ubcore_tp_info ia[8];
	struct ubcore_tp **t;
	int i, ok = 0;

	t = kunit_kcalloc(test, RM_USERS, sizeof(*t), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, t);
	for (i = 0; i < RM_USERS; i++)
		ok += !ubcore_tp_open(p->a, &key, &tgt, &t[i]);
	KUNIT_ASSERT_EQ(test, ok, RM_USERS);
	for (i = 1; i < RM_USERS; i++)
		KUNIT_ASSERT_PTR_EQ(test, t[i], t[0]);
	wait_target_established(test, p->b);
	KUNIT_ASSERT_EQ(test, tps(p->a, ia), 1);
	KUNIT_EXPECT_EQ(test, ia[0].users, (u32)RM_USERS);
	for (i = 0; i < RM_USERS; i++)
		ubcore_tp_close(t[i]);
	KUNIT_EXPECT_EQ(test, tps(p->a, ia), 0);
	wait_tps(test, p->b, 0);
}

/* RC: a TP of its own per jetty pair, beside the RM one. */
static void rc_across_namespaces(struct kunit *test)
{
	struct nsp *p = test->priv;
	struct ubcore_tp_key rm = key_of(p, UBOE_MGMT_TM_RM);
	struct ubcore_tp_key rc = key_of(p, UBOE_MGMT_TM_RC);
	struct ubcore_tp_target rmt = target_of(p->rm, TOKEN);
	struct ubcore_tp_target rct = target_of(p->rc, TOKEN);
	struct ubcore_tp_info ib[8];
	struct ubcore_tp *t0, *t1;

	KUNIT_ASSERT_EQ(test, ubcore_tp_open(p->a, &rm, &rmt, &t0), 0);
	KUNIT_ASSERT_EQ(test, ubcore_tp_open(p->a, &rc, &rct, &t1), 0);
	KUNIT_EXPECT_PTR_NE(test, t0, t1);
	wait_tps(test, p->b, 2);
	/* teardown from the target's side first: b has no users, a closes */
	ubcore_tp_close(t1);
	ubcore_tp_close(t0);
	wait_tps(test, p->b, 0);
	KUNIT_EXPECT_EQ(test, tps(p->a, ib), 0);
}

/* 5.1.1.2: each reject reason crosses the wire as its errno. */
static void rejects_across_namespaces(struct kunit *test)
{
	struct nsp *p = test->priv;
	struct ubcore_tp_key rm = key_of(p, UBOE_MGMT_TM_RM);
	struct ubcore_tp_key rc = key_of(p, UBOE_MGMT_TM_RC);
	struct ubcore_tp_target tgt = target_of(p->rm, TOKEN);
	struct ubcore_tp_info info[8];
	struct ubcore_tp *tp;

	tgt.id = 4000;
	KUNIT_EXPECT_EQ(test, ubcore_tp_open(p->a, &rm, &tgt, &tp), -ENOENT);
	tgt = target_of(p->rm, TOKEN);
	rc.remote_jetty = p->rm->id;		/* an RM JFR asked for RC */
	KUNIT_EXPECT_EQ(test, ubcore_tp_open(p->a, &rc, &tgt, &tp),
			-EPROTOTYPE);
	tgt = target_of(p->rm, TOKEN + 1);
	KUNIT_EXPECT_EQ(test, ubcore_tp_open(p->a, &rm, &tgt, &tp), -EPERM);
	KUNIT_EXPECT_EQ(test, tps(p->a, info), 0);
	wait_tps(test, p->b, 0);
}

static void set_up(struct net_device *ndev, bool up)
{
	rtnl_lock();
	dev_change_flags(ndev, up ? ndev->flags | IFF_UP :
			 ndev->flags & ~IFF_UP, NULL);
	rtnl_unlock();
}

/* Until @dev's port is ACTIVE again (at most 10 s). */
static void wait_port(struct kunit *test, struct ubcore_device *dev)
{
	int i;

	for (i = 0; i < 500 && READ_ONCE(dev->port_state) != UBCORE_PORT_ACTIVE;
	     i++)
		msleep(20);
	KUNIT_EXPECT_EQ(test, READ_ONCE(dev->port_state), UBCORE_PORT_ACTIVE);
}

/*
 * No answer and no way out: the caller's errnos. (An EID with no route
 * but a's link up is not "no route": a socket bound to a netdev takes an
 * unrouted destination as on-link, so its ARP fails: no answer.)
 */
static void unreachable_across_namespaces(struct kunit *test)
{
	struct nsp *p = test->priv;
	struct ubcore_tp_key key = key_of(p, UBOE_MGMT_TM_RM);
	struct ubcore_tp_target tgt = target_of(p->rm, TOKEN);
	struct ubcore_tp_info info[8];
	struct ubcore_tp *tp;

	ubcore_cm_set_timing(p->a, 50, 2);
	/* on the veth's subnet, nobody: ARP fails, the messages are lost */
	ubcore_eid_from_ipv4(&key.remote, in_aton("10.77.0.99"));
	KUNIT_EXPECT_EQ(test, ubcore_tp_open(p->a, &key, &tgt, &tp),
			-ETIMEDOUT);
	/* a's own link down: no route out of it */
	key.remote = p->eb;
	set_up(p->a->netdev, false);
	KUNIT_EXPECT_EQ(test, ubcore_tp_open(p->a, &key, &tgt, &tp),
			-EHOSTUNREACH);
	set_up(p->a->netdev, true);
	wait_port(test, p->a);
	KUNIT_EXPECT_EQ(test, tps(p->a, info), 0);
	wait_tps(test, p->b, 0);
}

/*
 * Peer loss: b's end of the veth goes down, a's loses its carrier, a's
 * port goes down and its TP takes "peer lost" (X15); b's own port is
 * down too (X16). Both tables empty; the user's close after is harmless.
 */
static void link_down_across_namespaces(struct kunit *test)
{
	struct nsp *p = test->priv;
	struct ubcore_tp_key key = key_of(p, UBOE_MGMT_TM_RM);
	struct ubcore_tp_target tgt = target_of(p->rm, TOKEN);
	struct ubcore_tp *tp;

	KUNIT_ASSERT_NOT_NULL(test, p->b->netdev);
	KUNIT_ASSERT_EQ(test, ubcore_tp_open(p->a, &key, &tgt, &tp), 0);
	wait_tps(test, p->b, 1);
	set_up(p->b->netdev, false);
	wait_tps(test, p->a, 0);
	wait_tps(test, p->b, 0);
	ubcore_tp_close(tp);
	set_up(p->b->netdev, true);
	/* the port is back (carrier), a new open works */
	wait_port(test, p->a);
	KUNIT_ASSERT_EQ(test, ubcore_tp_open(p->a, &key, &tgt, &tp), 0);
	wait_tps(test, p->b, 1);
	ubcore_tp_close(tp);
	wait_tps(test, p->b, 0);
}

/* What a jetty's async event handler saw (rc_peer_lost_errors_the_jetty). */
static struct {
	atomic_t count;
	u32 type;
	u32 id;
} jetty_ev;

static void jetty_ev_handler(struct ubcore_event *ev,
			     struct ubcore_ucontext *uctx)
{
	jetty_ev.type = ev->type;
	jetty_ev.id = ev->element.obj_id;
	atomic_inc(&jetty_ev.count);
}

#define CR_WR_FLUSH_ERR_DONE	13	/* urma_cr_status_t */

/*
 * Peer loss on RC: the bound jetty of the lost TP goes to ERROR, its JFC
 * gets the WR_FLUSH_ERR_DONE record, its owner URMA_EVENT_JETTY_ERR.
 */
static void rc_peer_lost_errors_the_jetty(struct kunit *test)
{
	struct nsp *p = test->priv;
	struct ubcore_jfc_cfg jcfg = { .depth = 64 };
	struct ubcore_jfr_cfg rcfg = {
		.depth = 16, .trans_mode = UBCORE_TP_RC, .max_sge = 1,
		.min_rnr_timer = 31, .flag = TOKEN_POLICY, .token_value = TOKEN,
	};
	struct ubcore_jetty_cfg cfg = {
		.flag = UBCORE_JETTY_SHARE_JFR,
		.jfs_cfg = { .depth = 16, .trans_mode = UBCORE_TP_RC,
			     .max_sge = 1, .max_rsge = 1, .rnr_retry = 7 },
	};
	struct ubcore_tp_key key = key_of(p, UBOE_MGMT_TM_RC);
	struct ubcore_tp_target tgt = target_of(p->rc, TOKEN);
	struct ubcore_jetty *jetty;
	struct ubcore_jfc *jfc;
	struct ubcore_jfr *jfr;
	struct ubcore_cr cr;
	struct ubcore_tp *tp;
	int i, n = 0;

	jfc = ubcore_create_jfc(p->a, &jcfg, NULL, NULL);
	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(jfc));
	rcfg.jfc = jfc;
	jfr = ubcore_create_jfr(p->a, &rcfg, NULL, NULL);
	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(jfr));
	cfg.jfs_cfg.jfc = jfc;
	cfg.jfr = jfr;
	jetty = ubcore_create_jetty(p->a, &cfg, jetty_ev_handler, NULL);
	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(jetty));
	atomic_set(&jetty_ev.count, 0);

	key.local_jetty = jetty->id;
	KUNIT_ASSERT_EQ(test, ubcore_tp_open(p->a, &key, &tgt, &tp), 0);
	wait_tps(test, p->b, 1);
	set_up(p->b->netdev, false);
	wait_tps(test, p->a, 0);
	for (i = 0; i < 500 && !n; i++) {
		n = ubcore_poll_jfc(jfc, 1, &cr);
		if (!n)
			msleep(20);
	}
	KUNIT_EXPECT_EQ(test, n, 1);
	KUNIT_EXPECT_EQ(test, cr.status, CR_WR_FLUSH_ERR_DONE);
	KUNIT_EXPECT_EQ(test, READ_ONCE(jetty->state), UBCORE_JETTY_STATE_ERROR);
	KUNIT_EXPECT_EQ(test, atomic_read(&jetty_ev.count), 1);
	KUNIT_EXPECT_EQ(test, jetty_ev.type, UBCORE_EVENT_JETTY_ERR);
	KUNIT_EXPECT_EQ(test, jetty_ev.id, jetty->id);
	ubcore_tp_close(tp);
	set_up(p->b->netdev, true);
	wait_tps(test, p->b, 0);
	wait_port(test, p->a);
	KUNIT_EXPECT_EQ(test, ubcore_delete_jetty(jetty), 0);
	KUNIT_EXPECT_EQ(test, ubcore_delete_jfr(jfr), 0);
	KUNIT_EXPECT_EQ(test, ubcore_delete_jfc(jfc), 0);
}

static struct kunit_case nsp_cases[] = {
	KUNIT_CASE(rm_across_namespaces),
	KUNIT_CASE(rm_thousand_users_one_tp),
	KUNIT_CASE(rc_across_namespaces),
	KUNIT_CASE(rejects_across_namespaces),
	KUNIT_CASE(unreachable_across_namespaces),
	KUNIT_CASE(link_down_across_namespaces),
	KUNIT_CASE(rc_peer_lost_errors_the_jetty),
	{}
};

static struct kunit_suite nsp_suite = {
	.name = "ubcore_cm_nspair",
	.init = nsp_init,
	.exit = nsp_exit,
	.test_cases = nsp_cases,
};

kunit_test_suite(nsp_suite);

MODULE_DESCRIPTION("KUnit: ubcore's connection manager across two network namespaces");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);
