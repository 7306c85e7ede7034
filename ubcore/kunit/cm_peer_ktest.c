// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * ubcore_cm_peer.ko: KUnit suite "ubcore_cm_peer", peer loss between two
 * network namespaces over the UBoE wire (docs/connection-manager.md, "Peer
 * loss"). Loaded only by tests/guest/cases/cm-peer-loss.sh, on its
 * namespace pair: dev_a (udmaA, ip_a) in one namespace, dev_b (udmaB, ip_b)
 * in the other, joined through the initial namespace, which routes
 * between two veth pairs, so that B's namespace can go while A's netdev
 * stays. Some cases need the script: the module prints
 * "ubcore_cm_peer: ask: <what>" and waits until it sees it done:
 *  - "netem on": udmaB's netdev drops every packet it sends (tc netem
 *    loss 100%), its link up; seen as its root qdisc being netem;
 *  - "netem off": that qdisc is gone;
 *  - "delete netns": B's namespace is deleted; seen as udmaB gone.
 *
 * Expectations: peer loss as the issue and the guide's async events name
 * it (RC: the bound jetty to ERROR with a WR_FLUSH_ERR_DONE record and
 * URMA_EVENT_JETTY_ERR; RM: UBCORE_EVENT_TP_ERR per import), the
 * keepalive's bound (cm_keepalive_ms * (cm_retries + 1)) and its counters.
 */
#include <kunit/test.h>
#include <linux/delay.h>
#include <linux/inet.h>
#include <linux/jiffies.h>
#include <linux/module.h>
#include <linux/netdevice.h>
#include <linux/rtnetlink.h>
#include <net/sch_generic.h>

#include <ub/ubcore_dp.h>
#include <ub/ubcore_event.h>
#include <ub/ubcore_jetty.h>
#include <uapi/ub/uboe_wire.h>

#include "../tp.h"
#include "../ubcore_priv.h"

static char *dev_a = "udmaA", *dev_b = "udmaB";
static char *ip_a = "10.77.1.1", *ip_b = "10.77.2.1";
module_param(dev_a, charp, 0444);
module_param(dev_b, charp, 0444);
module_param(ip_a, charp, 0444);
module_param(ip_b, charp, 0444);

#define TOKEN		0x7e57
#define TOKEN_POLICY	1	/* urma_jfr_flag_t token_policy: plain text */
#define RETRIES		2
#define KA_MS		500	/* the keepalive of the keepalive cases */
#define KA_LONG_MS	20000	/* one that cannot be what detects */
#define CR_WR_FLUSH_ERR_DONE	13	/* urma_cr_status_t */

struct peer {
	struct ubcore_device *a, *b;
	union ubcore_eid ea, eb;
	struct net_device *nb;		/* b's netdev, held */
	struct ubcore_jfc *jfc_b;
	struct ubcore_jfr *rm_b, *rc_b;
	u64 ka_base_a[UBCORE_CM_KA_MAX];	/* the counters at the start */
	u64 ka_base_b[UBCORE_CM_KA_MAX];
};

/* A keepalive counter of a or b since the case began (or b was added). */
static u64 ka(struct peer *p, bool a, enum ubcore_cm_ka which)
{
	return ubcore_cm_ka_count(a ? p->a : p->b, which) -
	       (a ? p->ka_base_a : p->ka_base_b)[which];
}

static void ka_base(struct peer *p)
{
	int i;

	for (i = 0; i < UBCORE_CM_KA_MAX; i++) {
		p->ka_base_a[i] = ubcore_cm_ka_count(p->a, i);
		p->ka_base_b[i] = ubcore_cm_ka_count(p->b, i);
	}
}

static struct ubcore_jfr *new_jfr(struct ubcore_device *dev,
				  struct ubcore_jfc *jfc, u32 mode)
{
	struct ubcore_jfr_cfg cfg = {
		.depth = 16, .trans_mode = mode, .max_sge = 1,
		.min_rnr_timer = 31, .jfc = jfc, .flag = TOKEN_POLICY,
		.token_value = TOKEN,
	};

	return ubcore_create_jfr(dev, &cfg, NULL, NULL);
}

static void set_timing(struct ubcore_device *dev)
{
	/* a slow guest: a message is not resent before its answer comes */
	ubcore_cm_set_timing(dev, 2000, RETRIES);
	ubcore_cm_set_keepalive(dev, 0);
}

/* b's objects: a JFC, an RM and an RC JFR that a imports. */
static int b_objects(struct peer *p)
{
	struct ubcore_jfc_cfg jcfg = { .depth = 64 };

	p->jfc_b = ubcore_create_jfc(p->b, &jcfg, NULL, NULL);
	if (IS_ERR_OR_NULL(p->jfc_b))
		return -ENOMEM;
	p->rm_b = new_jfr(p->b, p->jfc_b, UBCORE_TP_RM);
	p->rc_b = new_jfr(p->b, p->jfc_b, UBCORE_TP_RC);
	if (IS_ERR_OR_NULL(p->rm_b) || IS_ERR_OR_NULL(p->rc_b))
		return -ENOMEM;
	return 0;
}

static void b_objects_free(struct peer *p)
{
	if (!IS_ERR_OR_NULL(p->rc_b))
		ubcore_delete_jfr(p->rc_b);
	if (!IS_ERR_OR_NULL(p->rm_b))
		ubcore_delete_jfr(p->rm_b);
	if (!IS_ERR_OR_NULL(p->jfc_b))
		ubcore_delete_jfc(p->jfc_b);
	p->rc_b = NULL;
	p->rm_b = NULL;
	p->jfc_b = NULL;
}

static int peer_init(struct kunit *test)
{
	struct peer *p = kunit_kzalloc(test, sizeof(*p), GFP_KERNEL);

	if (!p)
		return -ENOMEM;
	test->priv = p;
	p->a = ubcore_get_device_by_name(dev_a);
	p->b = ubcore_get_device_by_name(dev_b);
	if (!p->a || !p->b || !p->b->netdev) {
		kunit_err(test, "no %s or %s (cm-peer-loss.sh's pair)\n",
			  dev_a, dev_b);
		return -ENODEV;
	}
	p->nb = p->b->netdev;
	dev_hold(p->nb);
	ubcore_eid_from_ipv4(&p->ea, in_aton(ip_a));
	ubcore_eid_from_ipv4(&p->eb, in_aton(ip_b));
	set_timing(p->a);
	set_timing(p->b);
	ka_base(p);
	return b_objects(p);
}

static void peer_exit(struct kunit *test)
{
	struct peer *p = test->priv;

	if (p->b) {
		b_objects_free(p);
		set_timing(p->b);
		ubcore_put_device(p->b);
	}
	if (p->a) {
		set_timing(p->a);
		ubcore_put_device(p->a);
	}
	if (p->nb)
		dev_put(p->nb);
}

static int tps(struct ubcore_device *dev)
{
	struct ubcore_tp_info info[8];

	return ubcore_tp_list(dev, 1, info, ARRAY_SIZE(info));
}

/* Until @dev has @n TPs, at most @ms; whether it has. */
static bool wait_tps(struct ubcore_device *dev, int n, unsigned int ms)
{
	unsigned long end = jiffies + msecs_to_jiffies(ms);

	while (tps(dev) != n && time_before(jiffies, end))
		msleep(20);
	return tps(dev) == n;
}

/* Until @v is @want, at most @ms; whether it is. */
static bool wait_atomic(atomic_t *v, int want, unsigned int ms)
{
	unsigned long end = jiffies + msecs_to_jiffies(ms);

	while (atomic_read(v) != want && time_before(jiffies, end))
		msleep(20);
	return atomic_read(v) == want;
}

/* b's netdev drops all it sends: its root qdisc (never NULL) is netem. */
static bool b_silent(struct peer *p)
{
	bool netem;

	rtnl_lock();
	netem = !strcmp(rtnl_dereference(p->nb->qdisc)->ops->id, "netem");
	rtnl_unlock();
	return netem;
}

static bool b_speaks(struct peer *p)
{
	return !b_silent(p);
}

static bool b_gone(struct peer *p);

/* Asks the script for @what and waits (60 s) until @done says it is. */
static void ask_script(struct kunit *test, struct peer *p, const char *what,
		       bool (*done)(struct peer *p))
{
	unsigned long end = jiffies + 60 * HZ;

	pr_info("ubcore_cm_peer: ask: %s\n", what);
	while (!done(p) && time_before(jiffies, end))
		msleep(20);
	KUNIT_ASSERT_TRUE_MSG(test, done(p), "the script did not do \"%s\"",
			      what);
}

/* Removes b (what "urma_admin dev del" does), its objects first. */
static void b_delete(struct kunit *test, struct peer *p)
{
	b_objects_free(p);
	KUNIT_ASSERT_EQ(test, p->b->ops->dellink(p->b), 0);
	ubcore_put_device(p->b);
	p->b = NULL;
}

static bool has_eid(struct ubcore_device *dev, const union ubcore_eid *eid)
{
	union ubcore_eid e;
	u32 i;

	for (i = 0; i < UBCORE_MAX_EID_CNT; i++)
		if (!ubcore_get_eid(dev, i, &e) && !memcmp(e.raw, eid->raw, 16))
			return true;
	return false;
}

/* A new b on the same netdev ("urma_admin dev add"), once it has its EID. */
static void b_add(struct kunit *test, struct peer *p)
{
	struct ubcore_device *b = NULL;
	unsigned long end = jiffies + 10 * HZ;

	KUNIT_ASSERT_EQ(test, ubcore_newlink("udma", dev_b, p->nb), 0);
	while (time_before(jiffies, end)) {
		b = ubcore_get_device_by_name(dev_b);
		if (b && has_eid(b, &p->eb))
			break;
		if (b)
			ubcore_put_device(b);
		b = NULL;
		msleep(20);
	}
	KUNIT_ASSERT_NOT_NULL(test, b);
	p->b = b;
	set_timing(p->b);
	memset(p->ka_base_b, 0, sizeof(p->ka_base_b));	/* a new device */
}

/* b's device is gone from ubcore (its namespace was deleted). */
static bool b_gone(struct peer *p)
{
	struct ubcore_device *b = ubcore_get_device_by_name(dev_b);

	if (b)
		ubcore_put_device(b);
	return !b;
}

/* What a's handlers saw. */
static struct {
	struct ubcore_event_handler h;
	atomic_t tp_err;
	struct ubcore_tjetty *tjetty;
	atomic_t jetty_err;
	u32 jetty_id;
} ev;

static void ev_dev_handler(struct ubcore_event_handler *h,
			   const struct ubcore_event *e)
{
	if (e->type != UBCORE_EVENT_TP_ERR)
		return;
	ev.tjetty = e->element.tjetty;
	atomic_inc(&ev.tp_err);
}

static void ev_jetty_handler(struct ubcore_event *e, struct ubcore_ucontext *uctx)
{
	if (e->type != UBCORE_EVENT_JETTY_ERR)
		return;
	ev.jetty_id = e->element.obj_id;
	atomic_inc(&ev.jetty_err);
}

/* On a: an RM import of b's RM JFR and an RC jetty with its own TP to b. */
struct users {
	struct ubcore_jfc *jfc;
	struct ubcore_jfr *jfr;
	struct ubcore_jetty *jetty;
	struct ubcore_tjetty *import;
	struct ubcore_tp *rc_tp;
};

static void users_open(struct kunit *test, struct peer *p, struct users *u)
{
	struct ubcore_jfc_cfg jcfg = { .depth = 64 };
	struct ubcore_jetty_cfg cfg = {
		.flag = UBCORE_JETTY_SHARE_JFR,
		.jfs_cfg = { .depth = 16, .trans_mode = UBCORE_TP_RC,
			     .max_sge = 1, .max_rsge = 1, .rnr_retry = 7 },
	};
	struct ubcore_tjetty_cfg icfg = {
		.id = { .eid = p->eb, .id = p->rm_b->id },
		.trans_mode = UBCORE_TP_RM,
		.type = UBCORE_TARGET_JFR,
		.token_value = TOKEN,
	};
	struct ubcore_tp_key key = {
		.local = p->ea, .remote = p->eb, .mode = UBOE_MGMT_TM_RC,
		.remote_jetty = p->rc_b->id,
	};
	struct ubcore_tp_target tgt = { .id = p->rc_b->id,
					.type = UBOE_MGMT_TARGET_JFR,
					.token_value = TOKEN };

	memset(u, 0, sizeof(*u));
	u->jfc = ubcore_create_jfc(p->a, &jcfg, NULL, NULL);
	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(u->jfc));
	u->jfr = new_jfr(p->a, u->jfc, UBCORE_TP_RC);
	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(u->jfr));
	cfg.jfs_cfg.jfc = u->jfc;
	cfg.jfr = u->jfr;
	u->jetty = ubcore_create_jetty(p->a, &cfg, ev_jetty_handler, NULL);
	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(u->jetty));
	u->import = ubcore_import_jfr(p->a, &icfg, NULL);
	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(u->import));
	key.local_jetty = u->jetty->id;
	KUNIT_ASSERT_EQ(test, ubcore_tp_open(p->a, &key, &tgt, &u->rc_tp), 0);
	KUNIT_ASSERT_EQ(test, tps(p->a), 2);
	KUNIT_ASSERT_TRUE(test, wait_tps(p->b, 2, 10000));
	atomic_set(&ev.tp_err, 0);
	atomic_set(&ev.jetty_err, 0);
	ev.tjetty = NULL;
	ev.jetty_id = 0;
	ev.h.event_handler = ev_dev_handler;
	ubcore_register_event_handler(p->a, &ev.h);
}

/*
 * The users learnt the loss: the RC jetty is in ERROR with one
 * WR_FLUSH_ERR_DONE record and one JETTY_ERR, the RM import one TP_ERR.
 */
static void users_told(struct kunit *test, struct users *u)
{
	unsigned long end = jiffies + 5 * HZ;
	struct ubcore_cr cr;
	int n;

	while (!(n = ubcore_poll_jfc(u->jfc, 1, &cr)) && time_before(jiffies, end))
		msleep(20);
	KUNIT_EXPECT_EQ(test, n, 1);
	if (n == 1)
		KUNIT_EXPECT_EQ(test, cr.status, CR_WR_FLUSH_ERR_DONE);
	KUNIT_EXPECT_EQ(test, ubcore_poll_jfc(u->jfc, 1, &cr), 0);
	KUNIT_EXPECT_EQ(test, READ_ONCE(u->jetty->state), UBCORE_JETTY_STATE_ERROR);
	KUNIT_EXPECT_EQ(test, atomic_read(&ev.jetty_err), 1);
	KUNIT_EXPECT_EQ(test, ev.jetty_id, u->jetty->id);
	KUNIT_EXPECT_TRUE(test, wait_atomic(&ev.tp_err, 1, 5000));
	KUNIT_EXPECT_PTR_EQ(test, ev.tjetty, u->import);
}

static void users_close(struct kunit *test, struct peer *p, struct users *u)
{
	ubcore_unregister_event_handler(p->a, &ev.h);
	ubcore_tp_close(u->rc_tp);
	KUNIT_EXPECT_EQ(test, ubcore_unimport_jfr(u->import), 0);
	KUNIT_EXPECT_EQ(test, ubcore_delete_jetty(u->jetty), 0);
	KUNIT_EXPECT_EQ(test, ubcore_delete_jfr(u->jfr), 0);
	KUNIT_EXPECT_EQ(test, ubcore_delete_jfc(u->jfc), 0);
	/* one event each, none at the close */
	KUNIT_EXPECT_EQ(test, atomic_read(&ev.tp_err), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&ev.jetty_err), 1);
}

/*
 * The peer's device is deleted: it sends DCONN_NOTIFY for each of its TPs,
 * a's users learn it at once (X11), long before a keepalive could.
 */
static void peer_device_deleted(struct kunit *test)
{
	struct peer *p = test->priv;
	unsigned long start, ms;
	struct users u;

	users_open(test, p, &u);
	ubcore_cm_set_keepalive(p->a, KA_LONG_MS);
	start = jiffies;
	b_delete(test, p);
	KUNIT_EXPECT_TRUE(test, wait_tps(p->a, 0, 10000));
	ms = jiffies_to_msecs(jiffies - start);
	kunit_info(test, "a's TPs gone %lu ms after the peer's device\n", ms);
	KUNIT_EXPECT_LT(test, ms, 3000UL);
	users_told(test, &u);
	KUNIT_EXPECT_EQ(test, ka(p, true, UBCORE_CM_KA_SENT), 0ULL);
	KUNIT_EXPECT_EQ(test, ka(p, true, UBCORE_CM_KA_TIMEOUTS), 0ULL);
	users_close(test, p, &u);
	b_add(test, p);
}

/*
 * The peer goes silent, its link up (netem drops all it sends): after
 * cm_retries unanswered probes a's TPs lose their peer, interval x
 * (retries + 1) after it was last heard; the users are told.
 */
static void silent_peer_detected(struct kunit *test)
{
	struct peer *p = test->priv;
	unsigned long start, ms;
	struct users u;

	users_open(test, p, &u);
	ask_script(test, p, "netem on", b_silent);
	KUNIT_EXPECT_EQ(test, READ_ONCE(p->a->port_state), UBCORE_PORT_ACTIVE);
	start = jiffies;
	ubcore_cm_set_keepalive(p->a, KA_MS);	/* heard now */
	KUNIT_EXPECT_TRUE(test, wait_tps(p->a, 0, 20000));
	ms = jiffies_to_msecs(jiffies - start);
	kunit_info(test, "a's TPs lost %lu ms after the peer went silent\n", ms);
	KUNIT_EXPECT_GE(test, ms, KA_MS * (RETRIES + 1) - 20UL);
	KUNIT_EXPECT_LE(test, ms, KA_MS * (RETRIES + 1) + 2000UL);
	/* two TPs, each cm_retries probes, each timed out */
	KUNIT_EXPECT_EQ(test, ka(p, true, UBCORE_CM_KA_SENT), 2ULL * RETRIES);
	KUNIT_EXPECT_EQ(test, ka(p, true, UBCORE_CM_KA_TIMEOUTS), 2ULL);
	KUNIT_EXPECT_EQ(test, ka(p, true, UBCORE_CM_KA_ANSWERED), 0ULL);
	users_told(test, &u);
	users_close(test, p, &u);
	ubcore_cm_set_keepalive(p->a, 0);

	/* b, which heard a's probes, still has both ends; its probes are refused */
	KUNIT_EXPECT_EQ(test, tps(p->b), 2);
	ask_script(test, p, "netem off", b_speaks);
	start = jiffies;
	ubcore_cm_set_keepalive(p->b, KA_MS);
	KUNIT_EXPECT_TRUE(test, wait_tps(p->b, 0, 20000));
	ms = jiffies_to_msecs(jiffies - start);
	KUNIT_EXPECT_LT(test, ms, KA_MS * (RETRIES + 1));
	KUNIT_EXPECT_EQ(test, ka(p, false, UBCORE_CM_KA_REFUSED), 2ULL);
	KUNIT_EXPECT_EQ(test, ka(p, false, UBCORE_CM_KA_TIMEOUTS), 0ULL);
	KUNIT_EXPECT_EQ(test, ka(p, true, UBCORE_CM_KA_REJECTS_SENT), 2ULL);
}

/*
 * The peer's device is replaced while it cannot send (its DCONN_NOTIFYs
 * are lost): the new device does not know a's TPs, a's first probe of
 * each is refused and the TP lost at once, not after cm_retries probes.
 */
static void stale_tpn_refused(struct kunit *test)
{
	struct peer *p = test->priv;
	unsigned long start, ms;
	struct users u;

	users_open(test, p, &u);
	ask_script(test, p, "netem on", b_silent);
	b_delete(test, p);
	ask_script(test, p, "netem off", b_speaks);
	b_add(test, p);
	KUNIT_EXPECT_EQ(test, tps(p->a), 2);	/* a knows nothing yet */
	KUNIT_EXPECT_EQ(test, tps(p->b), 0);
	start = jiffies;
	ubcore_cm_set_keepalive(p->a, KA_MS);
	KUNIT_EXPECT_TRUE(test, wait_tps(p->a, 0, 20000));
	ms = jiffies_to_msecs(jiffies - start);
	kunit_info(test, "a's TPs refused %lu ms after the new peer\n", ms);
	KUNIT_EXPECT_LT(test, ms, KA_MS * (RETRIES + 1));
	KUNIT_EXPECT_EQ(test, ka(p, true, UBCORE_CM_KA_SENT), 2ULL);
	KUNIT_EXPECT_EQ(test, ka(p, true, UBCORE_CM_KA_REFUSED), 2ULL);
	KUNIT_EXPECT_EQ(test, ka(p, true, UBCORE_CM_KA_TIMEOUTS), 0ULL);
	KUNIT_EXPECT_EQ(test, ka(p, false, UBCORE_CM_KA_REJECTS_SENT), 2ULL);
	users_told(test, &u);
	users_close(test, p, &u);
	KUNIT_EXPECT_EQ(test, tps(p->b), 0);
	/* the new b works: a new import opens a new TP */
	KUNIT_ASSERT_EQ(test, b_objects(p), 0);
	users_open(test, p, &u);
	ubcore_unregister_event_handler(p->a, &ev.h);
	ubcore_tp_close(u.rc_tp);
	KUNIT_EXPECT_EQ(test, ubcore_unimport_jfr(u.import), 0);
	KUNIT_EXPECT_EQ(test, ubcore_delete_jetty(u.jetty), 0);
	KUNIT_EXPECT_EQ(test, ubcore_delete_jfr(u.jfr), 0);
	KUNIT_EXPECT_EQ(test, ubcore_delete_jfc(u.jfc), 0);
	KUNIT_EXPECT_TRUE(test, wait_tps(p->b, 0, 10000));
}

/*
 * The peer's namespace is deleted (its host is gone): a's netdev stays,
 * a learns it by the DCONN_NOTIFYs if they got out, else by its
 * keepalive; the users are told either way. The last case: b is gone.
 */
static void peer_netns_deleted(struct kunit *test)
{
	struct peer *p = test->priv;
	unsigned long start, ms;
	struct users u;

	users_open(test, p, &u);
	ubcore_cm_set_keepalive(p->a, KA_MS);
	/* no reference of b's may hold its namespace's teardown */
	b_objects_free(p);
	ubcore_put_device(p->b);
	p->b = NULL;
	dev_put(p->nb);
	p->nb = NULL;
	ask_script(test, p, "delete netns", b_gone);
	/* b went silent when its netdev went, just before b itself */
	start = jiffies;
	KUNIT_EXPECT_TRUE(test, wait_tps(p->a, 0, 20000));
	ms = jiffies_to_msecs(jiffies - start);
	kunit_info(test, "a's TPs gone %lu ms after the peer's device\n", ms);
	KUNIT_EXPECT_LE(test, ms, KA_MS * (RETRIES + 1) + 2000UL);
	KUNIT_EXPECT_EQ(test, READ_ONCE(p->a->port_state), UBCORE_PORT_ACTIVE);
	users_told(test, &u);
	users_close(test, p, &u);
}

static struct kunit_case peer_cases[] = {
	KUNIT_CASE(peer_device_deleted),
	KUNIT_CASE(silent_peer_detected),
	KUNIT_CASE(stale_tpn_refused),
	KUNIT_CASE(peer_netns_deleted),
	{}
};

static struct kunit_suite peer_suite = {
	.name = "ubcore_cm_peer",
	.init = peer_init,
	.exit = peer_exit,
	.test_cases = peer_cases,
};

kunit_test_suite(peer_suite);

MODULE_DESCRIPTION("KUnit: ubcore's connection manager when the peer is lost, across two network namespaces");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);
