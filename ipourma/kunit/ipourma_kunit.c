// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * ipourma_kunit.ko: the IPoURMA header, the peer cache (imports, the
 * bound on waiting packets, aging), the MTU bounds of the netdev and the
 * address diff of the EID sync. Needs ipourma.ko loaded. Expected values
 * are the user guide's (7.2: a 2-byte header, MTU 4094 in [68, 4094],
 * IFF_NOARP, no broadcast or multicast) and the constants of the cache's
 * contract, not values the code computes.
 */
#include <kunit/test.h>
#include <linux/delay.h>
#include <linux/etherdevice.h>
#include <linux/if_arp.h>
#include <linux/if_ether.h>
#include <linux/module.h>
#include <linux/netdevice.h>
#include <linux/rtnetlink.h>
#include <linux/skbuff.h>
#include <linux/slab.h>
#include <linux/virtio_net.h>
#include <linux/workqueue.h>

#include "../ipourma.h"

/* The guide's numbers (7.2 #3, #4). */
#define SPEC_HDR_LEN	2
#define SPEC_MTU_MIN	68
#define SPEC_MTU_MAX	4094

static void hdr_roundtrip(struct kunit *test)
{
	u8 *msg = kunit_kzalloc(test, SPEC_MTU_MAX + SPEC_HDR_LEN + 1,
				GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, msg);
	KUNIT_EXPECT_EQ(test, sizeof(struct ipourma_hdr), SPEC_HDR_LEN);
	ipourma_hdr_write(msg, htons(ETH_P_IPV6));
	/* the EtherType of IPv6, 0x86dd, big endian */
	KUNIT_EXPECT_EQ(test, msg[0], 0x86);
	KUNIT_EXPECT_EQ(test, msg[1], 0xdd);
	KUNIT_EXPECT_EQ(test, ipourma_hdr_parse(msg, 42, 4096), 40);
	KUNIT_EXPECT_EQ(test, ipourma_hdr_parse(msg, 4096, 4096), 4094);
	KUNIT_EXPECT_EQ(test, ipourma_hdr_parse(msg, 4097, 4096), -EMSGSIZE);
	/* RM: up to the largest IPv6 packet, 65535 + 40 bytes */
	KUNIT_EXPECT_EQ(test, ipourma_hdr_parse(msg, 65577, 65577), 65575);
	KUNIT_EXPECT_EQ(test, ipourma_hdr_parse(msg, 65578, 65577), -EMSGSIZE);
	KUNIT_EXPECT_EQ(test, ipourma_hdr_parse(msg, 2, 4096), -EINVAL);
	KUNIT_EXPECT_EQ(test, ipourma_hdr_parse(msg, 0, 4096), -EINVAL);
	ipourma_hdr_write(msg, htons(ETH_P_IP));
	KUNIT_EXPECT_EQ(test, ipourma_hdr_parse(msg, 42, 4096), -EPROTONOSUPPORT);
}

/*
 * RM's immediate data: virtio_net_hdr's fields in fixed bit positions
 * (flags 0-7, gso_type 8-15, gso_size 16-31, csum_start 32-47,
 * csum_offset 48-63), and only TCPv6 segmentation with its checksum to do.
 */
static void meta_roundtrip(struct kunit *test)
{
	struct virtio_net_hdr in = {
		.flags = VIRTIO_NET_HDR_F_NEEDS_CSUM,
		.gso_type = VIRTIO_NET_HDR_GSO_TCPV6,
		.hdr_len = cpu_to_le16(86),
		.gso_size = cpu_to_le16(4022),
		.csum_start = cpu_to_le16(40),
		.csum_offset = cpu_to_le16(16),
	};
	struct virtio_net_hdr out;
	u64 imm = ipourma_meta_pack(&in);

	KUNIT_EXPECT_EQ(test, imm, 0x001000280fb60401ULL);
	KUNIT_EXPECT_EQ(test, ipourma_meta_unpack(imm, &out), 0);
	KUNIT_EXPECT_EQ(test, out.flags, in.flags);
	KUNIT_EXPECT_EQ(test, out.gso_type, in.gso_type);
	KUNIT_EXPECT_EQ(test, le16_to_cpu(out.gso_size), 4022);
	KUNIT_EXPECT_EQ(test, le16_to_cpu(out.csum_start), 40);
	KUNIT_EXPECT_EQ(test, le16_to_cpu(out.csum_offset), 16);
	/* a hint the receiver does not need: not carried */
	KUNIT_EXPECT_EQ(test, le16_to_cpu(out.hdr_len), 0);
	/* ECN on TCPv6; a checksum alone (no segmentation) */
	KUNIT_EXPECT_EQ(test, ipourma_meta_unpack(0x0010002800008401ULL, &out), 0);
	KUNIT_EXPECT_EQ(test, ipourma_meta_unpack(0x0006002800000001ULL, &out), 0);
	KUNIT_EXPECT_EQ(test, ipourma_meta_unpack(0, &out), 0);
	/* TCPv4, UDP, an unknown type; GSO without its checksum; DATA_VALID */
	KUNIT_EXPECT_EQ(test, ipourma_meta_unpack(0x0010002805a80101ULL, &out), -EINVAL);
	KUNIT_EXPECT_EQ(test, ipourma_meta_unpack(0x0006002805a80301ULL, &out), -EINVAL);
	KUNIT_EXPECT_EQ(test, ipourma_meta_unpack(0x0010002805a80501ULL, &out), -EINVAL);
	KUNIT_EXPECT_EQ(test, ipourma_meta_unpack(0x0010002805a80400ULL, &out), -EINVAL);
	KUNIT_EXPECT_EQ(test, ipourma_meta_unpack(0x0000000000000002ULL, &out), -EINVAL);
}

/*
 * A fake of the import calls: counts, and fails when told to. The peer's
 * well-known jetties are @jetties (bit i: jetty 32 + i); with none, a
 * probe cannot tell (-EOPNOTSUPP). An import waits for @go (the test
 * decides when imports happen: imports_run()), an import of @slow for
 * @slow_go. The counters are under @lock: imports run side by side.
 */
struct fake_peer {
	struct mutex lock;	/* the counters below */
	int imports, unimports, resent, probes;
	u32 last_id;
	bool fail;
	u64 jetties;
	u32 probed[8];
	struct completion go, slow_go;
	const struct in6_addr *slow;
	atomic64_t stats[IPOURMA_STAT_MAX];
};

static int fake_probe(void *ctx, const struct in6_addr *eid, u32 id)
{
	struct fake_peer *f = ctx;
	int ret;

	mutex_lock(&f->lock);
	if (f->probes < ARRAY_SIZE(f->probed))
		f->probed[f->probes] = id;
	f->probes++;
	if (!f->jetties)
		ret = -EOPNOTSUPP;
	else if (id < 32 || id >= 32 + 64)
		ret = -ENOENT;
	else
		ret = f->jetties & BIT_ULL(id - 32) ? 0 : -ENOENT;
	mutex_unlock(&f->lock);
	return ret;
}

static struct ubcore_tjetty *fake_import(void *ctx,
					 const struct in6_addr *eid, u32 id)
{
	struct fake_peer *f = ctx;
	struct ubcore_tjetty *t;

	if (f->slow && ipv6_addr_equal(eid, f->slow))
		wait_for_completion(&f->slow_go);
	else
		wait_for_completion(&f->go);
	if (f->fail)
		return ERR_PTR(-EHOSTUNREACH);
	t = kzalloc(sizeof(*t), GFP_KERNEL);
	if (!t)
		return ERR_PTR(-ENOMEM);
	memcpy(t->cfg.id.eid.raw, eid, sizeof(*eid));
	t->cfg.id.id = id;
	mutex_lock(&f->lock);
	f->imports++;
	f->last_id = id;
	mutex_unlock(&f->lock);
	return t;
}

static void fake_unimport(void *ctx, struct ubcore_tjetty *t)
{
	struct fake_peer *f = ctx;

	mutex_lock(&f->lock);
	f->unimports++;
	mutex_unlock(&f->lock);
	kfree(t);
}

static void fake_resend(void *ctx, struct sk_buff *skb)
{
	struct fake_peer *f = ctx;

	mutex_lock(&f->lock);
	f->resent++;
	mutex_unlock(&f->lock);
	kfree_skb(skb);
}

static const struct ipourma_peer_ops fake_ops = {
	.probe = fake_probe,
	.import = fake_import,
	.unimport = fake_unimport,
	.resend = fake_resend,
};

#define AGE	(10 * HZ)

static struct sk_buff *test_skb(struct kunit *test)
{
	struct sk_buff *skb = alloc_skb(64, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, skb);
	return skb;
}

/* test->priv: the workqueue of the test's imports, two at a time. */
static int peer_test_init(struct kunit *test)
{
	test->priv = alloc_workqueue("ipourma_kunit", WQ_UNBOUND, 2);
	return test->priv ? 0 : -ENOMEM;
}

static void peer_test_exit(struct kunit *test)
{
	destroy_workqueue(test->priv);
}

/* A peer cache (into *@cp) on a new fake peer, which is returned. */
static struct fake_peer *peer_fixture(struct kunit *test,
				      struct ipourma_peer_cache **cp)
{
	struct ipourma_peer_cache *c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);
	struct fake_peer *f = kunit_kzalloc(test, sizeof(*f), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, c);
	KUNIT_ASSERT_NOT_NULL(test, f);
	mutex_init(&f->lock);
	init_completion(&f->go);
	init_completion(&f->slow_go);
	ipourma_peer_cache_init(c, &fake_ops, f, AGE, f->stats, test->priv);
	*cp = c;
	return f;
}

/* Lets the imports started so far (and any started later) finish. */
static void imports_run(struct kunit *test, struct fake_peer *f)
{
	complete_all(&f->go);
	flush_workqueue(test->priv);
	reinit_completion(&f->go);
}

static const struct in6_addr eid_b = { { { 0xfd, 0x99, [15] = 0x0b } } };
static const struct in6_addr eid_c = { { { 0xfd, 0x99, [15] = 0x0c } } };

/* A miss queues; the import makes the peer ready and resends the queue. */
static void peer_import(struct kunit *test)
{
	struct ipourma_peer_cache *c;
	struct fake_peer *f;
	struct sk_buff *skb;
	struct ipourma_peer *p;

	f = peer_fixture(test, &c);
	rcu_read_lock();
	KUNIT_EXPECT_NULL(test, ipourma_peer_lookup(c, &eid_b));
	rcu_read_unlock();
	/* the first packet makes a new peer (1), the second only waits (0) */
	KUNIT_EXPECT_EQ(test, ipourma_peer_enqueue(c, &eid_b, 33, test_skb(test)), 1);
	KUNIT_EXPECT_EQ(test, ipourma_peer_enqueue(c, &eid_b, 33, test_skb(test)), 0);
	rcu_read_lock();
	KUNIT_EXPECT_NULL(test, ipourma_peer_lookup(c, &eid_b));
	rcu_read_unlock();
	imports_run(test, f);
	KUNIT_EXPECT_EQ(test, f->imports, 1);
	KUNIT_EXPECT_EQ(test, f->last_id, 33);
	KUNIT_EXPECT_EQ(test, f->resent, 2);
	rcu_read_lock();
	p = ipourma_peer_lookup(c, &eid_b);
	KUNIT_EXPECT_NOT_NULL(test, p);
	if (p)
		KUNIT_EXPECT_EQ(test, p->tjetty->cfg.id.id, 33);
	KUNIT_EXPECT_NULL(test, ipourma_peer_lookup(c, &eid_c));
	rcu_read_unlock();
	/* a ready peer takes no packet to wait: the caller sends it */
	skb = test_skb(test);
	KUNIT_EXPECT_EQ(test, ipourma_peer_enqueue(c, &eid_b, 33, skb), -EAGAIN);
	kfree_skb(skb);
	KUNIT_EXPECT_EQ(test, atomic64_read(&f->stats[IPOURMA_STAT_PEER_IMPORT]), 1);
	KUNIT_EXPECT_EQ(test, atomic64_read(&f->stats[IPOURMA_STAT_PEER_QUEUED]), 2);
	ipourma_peer_cache_flush(c);
	KUNIT_EXPECT_EQ(test, f->unimports, 1);
}

/*
 * A peer whose EID indexes differ from ours: the jetty of our index
 * first (UMDK's rule), then, if the peer has none, its first well-known
 * jetty; a probe that cannot tell keeps the rule's jetty.
 */
static void peer_other_jetty(struct kunit *test)
{
	static const struct in6_addr eid_d = { { { 0xfd, 0x99, [15] = 0x0d } } };
	struct ipourma_peer_cache *c;
	struct fake_peer *f;
	struct ipourma_peer *p;

	f = peer_fixture(test, &c);
	/* the peer has jetties 32 and 34; we send from EID index 1 */
	f->jetties = BIT_ULL(0) | BIT_ULL(2);
	KUNIT_EXPECT_EQ(test, ipourma_peer_enqueue(c, &eid_b, 33, test_skb(test)), 1);
	imports_run(test, f);
	KUNIT_EXPECT_EQ(test, f->probes, 2);
	KUNIT_EXPECT_EQ(test, f->probed[0], 33);
	KUNIT_EXPECT_EQ(test, f->probed[1], 32);
	KUNIT_EXPECT_EQ(test, f->imports, 1);
	KUNIT_EXPECT_EQ(test, f->last_id, 32);
	KUNIT_EXPECT_EQ(test, f->resent, 1);
	rcu_read_lock();
	p = ipourma_peer_lookup(c, &eid_b);
	KUNIT_EXPECT_NOT_NULL(test, p);
	if (p)
		KUNIT_EXPECT_EQ(test, p->tjetty->cfg.id.id, 32);
	rcu_read_unlock();
	KUNIT_EXPECT_EQ(test, atomic64_read(&f->stats[IPOURMA_STAT_PEER_OTHER_JETTY]), 1);

	/* the jetty of our index exists: one probe, that jetty */
	KUNIT_EXPECT_EQ(test, ipourma_peer_enqueue(c, &eid_c, 34, test_skb(test)), 1);
	imports_run(test, f);
	KUNIT_EXPECT_EQ(test, f->probes, 3);
	KUNIT_EXPECT_EQ(test, f->last_id, 34);

	/* only the last well-known jetty: every other one is asked first */
	f->jetties = BIT_ULL(63);
	f->probes = 0;
	KUNIT_EXPECT_EQ(test, ipourma_peer_enqueue(c, &eid_d, 33, test_skb(test)), 1);
	imports_run(test, f);
	KUNIT_EXPECT_EQ(test, f->probes, 64);
	KUNIT_EXPECT_EQ(test, f->last_id, 32 + 63);
	KUNIT_EXPECT_EQ(test, atomic64_read(&f->stats[IPOURMA_STAT_PEER_OTHER_JETTY]), 2);
	ipourma_peer_cache_flush(c);
	KUNIT_EXPECT_EQ(test, f->unimports, 3);

	/* a probe that cannot tell: UMDK's rule */
	f->jetties = 0;
	f->probes = 0;
	KUNIT_EXPECT_EQ(test, ipourma_peer_enqueue(c, &eid_b, 35, test_skb(test)), 1);
	imports_run(test, f);
	KUNIT_EXPECT_EQ(test, f->probes, 1);
	KUNIT_EXPECT_EQ(test, f->last_id, 35);
	ipourma_peer_cache_flush(c);
	KUNIT_EXPECT_EQ(test, f->unimports, 4);
}

/* At most 16 packets wait for one peer; the 17th is refused. */
static void peer_pending_bound(struct kunit *test)
{
	struct ipourma_peer_cache *c;
	struct fake_peer *f;
	struct sk_buff *skb;
	int i;

	f = peer_fixture(test, &c);
	for (i = 0; i < 16; i++)
		KUNIT_EXPECT_GE(test, ipourma_peer_enqueue(c, &eid_b, 32,
							   test_skb(test)), 0);
	skb = test_skb(test);
	KUNIT_EXPECT_EQ(test, ipourma_peer_enqueue(c, &eid_b, 32, skb), -ENOBUFS);
	kfree_skb(skb);
	/* a failed import drops what waited, counted */
	f->fail = true;
	imports_run(test, f);
	KUNIT_EXPECT_EQ(test, f->resent, 0);
	KUNIT_EXPECT_EQ(test, atomic64_read(&f->stats[IPOURMA_STAT_PEER_IMPORT_ERR]), 1);
	KUNIT_EXPECT_EQ(test, atomic64_read(&f->stats[IPOURMA_STAT_TX_DROP_PEER]), 16);
	/* and the peer is not retried within the second */
	skb = test_skb(test);
	KUNIT_EXPECT_EQ(test, ipourma_peer_enqueue(c, &eid_b, 32, skb), -EHOSTUNREACH);
	kfree_skb(skb);
	ipourma_peer_cache_flush(c);
	KUNIT_EXPECT_EQ(test, f->unimports, 0);
}

/*
 * Each peer is imported by its own work: a peer that does not answer
 * (its import waits) does not hold up the import of another.
 */
static void peer_import_side_by_side(struct kunit *test)
{
	struct ipourma_peer_cache *c;
	struct fake_peer *f;
	bool b_ready, c_ready = false;
	int i;

	f = peer_fixture(test, &c);
	f->slow = &eid_b;
	KUNIT_EXPECT_EQ(test, ipourma_peer_enqueue(c, &eid_b, 32, test_skb(test)), 1);
	KUNIT_EXPECT_EQ(test, ipourma_peer_enqueue(c, &eid_c, 32, test_skb(test)), 1);
	complete_all(&f->go);
	for (i = 0; i < 500 && !c_ready; i++) {
		usleep_range(10000, 20000);
		rcu_read_lock();
		c_ready = ipourma_peer_lookup(c, &eid_c);
		rcu_read_unlock();
	}
	rcu_read_lock();
	b_ready = ipourma_peer_lookup(c, &eid_b);
	rcu_read_unlock();
	KUNIT_EXPECT_TRUE_MSG(test, c_ready, "c waited for b's import");
	KUNIT_EXPECT_FALSE(test, b_ready);
	complete_all(&f->slow_go);
	flush_workqueue(test->priv);
	rcu_read_lock();
	KUNIT_EXPECT_NOT_NULL(test, ipourma_peer_lookup(c, &eid_b));
	rcu_read_unlock();
	KUNIT_EXPECT_EQ(test, f->imports, 2);
	KUNIT_EXPECT_EQ(test, f->resent, 2);
	ipourma_peer_cache_flush(c);
	KUNIT_EXPECT_EQ(test, f->unimports, 2);
}

/*
 * Removing the netdev while an import waits: the flush waits for it and
 * then unimports what it imported.
 */
static void peer_flush_waits_for_import(struct kunit *test)
{
	struct ipourma_peer_cache *c;
	struct fake_peer *f;

	f = peer_fixture(test, &c);
	KUNIT_EXPECT_EQ(test, ipourma_peer_enqueue(c, &eid_b, 32, test_skb(test)), 1);
	/* the import may go on once the flush has taken the peer out */
	complete_all(&f->go);
	ipourma_peer_cache_flush(c);
	KUNIT_EXPECT_EQ(test, f->imports, 1);
	KUNIT_EXPECT_EQ(test, f->unimports, 1);
	KUNIT_EXPECT_EQ(test, f->resent, 1);
	KUNIT_EXPECT_EQ(test, c->count, 0);
}

/* A peer unused for the age goes (unimported); a used one stays. */
static void peer_aging(struct kunit *test)
{
	struct ipourma_peer_cache *c;
	struct fake_peer *f;
	struct ipourma_peer *pb, *pc;
	unsigned long t0;

	f = peer_fixture(test, &c);
	KUNIT_EXPECT_EQ(test, ipourma_peer_enqueue(c, &eid_b, 32, test_skb(test)), 1);
	KUNIT_EXPECT_EQ(test, ipourma_peer_enqueue(c, &eid_c, 32, test_skb(test)), 1);
	/* not imported yet: never aged, whatever the time */
	KUNIT_EXPECT_EQ(test, ipourma_peer_age(c, jiffies + 100 * AGE), 0);
	imports_run(test, f);
	KUNIT_EXPECT_EQ(test, f->imports, 2);

	rcu_read_lock();
	pb = ipourma_peer_lookup(c, &eid_b);
	pc = ipourma_peer_lookup(c, &eid_c);
	KUNIT_ASSERT_NOT_NULL(test, pb);
	KUNIT_ASSERT_NOT_NULL(test, pc);
	/* b last used 2 ages ago, c just now */
	t0 = jiffies;
	WRITE_ONCE(pb->last_used, t0 - 2 * AGE);
	WRITE_ONCE(pc->last_used, t0);
	rcu_read_unlock();

	KUNIT_EXPECT_EQ(test, ipourma_peer_age(c, t0), 1);
	KUNIT_EXPECT_EQ(test, f->unimports, 1);
	rcu_read_lock();
	KUNIT_EXPECT_NULL(test, ipourma_peer_lookup(c, &eid_b));
	KUNIT_EXPECT_NOT_NULL(test, ipourma_peer_lookup(c, &eid_c));
	rcu_read_unlock();
	/* c: exactly the age is not past it; one jiffy more is */
	KUNIT_EXPECT_EQ(test, ipourma_peer_age(c, READ_ONCE(pc->last_used) + AGE), 0);
	KUNIT_EXPECT_EQ(test, ipourma_peer_age(c, READ_ONCE(pc->last_used) + AGE + 1), 1);
	KUNIT_EXPECT_EQ(test, f->unimports, 2);
	KUNIT_EXPECT_EQ(test, atomic64_read(&f->stats[IPOURMA_STAT_PEER_AGED]), 2);
	ipourma_peer_cache_flush(c);
	KUNIT_EXPECT_EQ(test, f->unimports, 2);
}

/*
 * A peer whose messages timed out is forgotten: unimported, its next
 * packet imports it anew. One being imported stays.
 */
static void peer_forget(struct kunit *test)
{
	struct ipourma_peer_cache *c;
	struct fake_peer *f;

	f = peer_fixture(test, &c);
	KUNIT_EXPECT_EQ(test, ipourma_peer_enqueue(c, &eid_b, 32, test_skb(test)), 1);
	/* importing: stays */
	KUNIT_EXPECT_FALSE(test, ipourma_peer_forget(c, &eid_b));
	imports_run(test, f);
	KUNIT_EXPECT_EQ(test, f->imports, 1);
	/* unknown: nothing */
	KUNIT_EXPECT_FALSE(test, ipourma_peer_forget(c, &eid_c));
	KUNIT_EXPECT_TRUE(test, ipourma_peer_forget(c, &eid_b));
	KUNIT_EXPECT_EQ(test, f->unimports, 1);
	rcu_read_lock();
	KUNIT_EXPECT_NULL(test, ipourma_peer_lookup(c, &eid_b));
	rcu_read_unlock();
	/* the next packet imports it anew */
	KUNIT_EXPECT_EQ(test, ipourma_peer_enqueue(c, &eid_b, 32, test_skb(test)), 1);
	imports_run(test, f);
	KUNIT_EXPECT_EQ(test, f->imports, 2);
	ipourma_peer_cache_flush(c);
	KUNIT_EXPECT_EQ(test, f->unimports, 2);
}

/* The netdev: guide 7.2's flags and MTU range, enforced by the core. */
static void netdev_mtu(struct kunit *test)
{
	struct net_device *ndev = ipourma_alloc_netdev(NULL);
	int ret;

	KUNIT_ASSERT_NOT_NULL(test, ndev);
	KUNIT_EXPECT_EQ(test, ndev->mtu, SPEC_MTU_MAX);
	KUNIT_EXPECT_TRUE(test, ndev->flags & IFF_NOARP);
	KUNIT_EXPECT_FALSE(test, ndev->flags & (IFF_BROADCAST | IFF_MULTICAST));
	ret = register_netdev(ndev);
	KUNIT_ASSERT_EQ(test, ret, 0);
	rtnl_lock();
	KUNIT_EXPECT_EQ(test, dev_set_mtu(ndev, SPEC_MTU_MIN - 1), -EINVAL);
	KUNIT_EXPECT_EQ(test, dev_set_mtu(ndev, SPEC_MTU_MAX + 1), -EINVAL);
	KUNIT_EXPECT_EQ(test, ndev->mtu, SPEC_MTU_MAX);
	KUNIT_EXPECT_EQ(test, dev_set_mtu(ndev, SPEC_MTU_MIN), 0);
	KUNIT_EXPECT_EQ(test, ndev->mtu, SPEC_MTU_MIN);
	KUNIT_EXPECT_EQ(test, dev_set_mtu(ndev, 1500), 0);
	KUNIT_EXPECT_EQ(test, dev_set_mtu(ndev, SPEC_MTU_MAX), 0);
	KUNIT_EXPECT_EQ(test, ndev->mtu, SPEC_MTU_MAX);
	rtnl_unlock();
	unregister_netdev(ndev);
	free_netdev(ndev);
}

static void eids_set(struct ipourma_eids *e, u32 idx, u8 last)
{
	__set_bit(idx, e->valid);
	memset(&e->eid[idx], 0, sizeof(e->eid[idx]));
	e->eid[idx].s6_addr[0] = 0xfd;
	e->eid[idx].s6_addr[15] = last;
}

/* The EID sync: what is added and deleted, by value. */
static void addr_diff(struct kunit *test)
{
	struct ipourma_eids *have = kunit_kzalloc(test, sizeof(*have), GFP_KERNEL);
	struct ipourma_eids *want = kunit_kzalloc(test, sizeof(*want), GFP_KERNEL);
	DECLARE_BITMAP(add, UBCORE_MAX_EID_CNT);
	DECLARE_BITMAP(del, UBCORE_MAX_EID_CNT);

	KUNIT_ASSERT_NOT_NULL(test, have);
	KUNIT_ASSERT_NOT_NULL(test, want);
	/* nothing to nothing */
	ipourma_addr_diff(have, want, add, del);
	KUNIT_EXPECT_TRUE(test, bitmap_empty(add, UBCORE_MAX_EID_CNT));
	KUNIT_EXPECT_TRUE(test, bitmap_empty(del, UBCORE_MAX_EID_CNT));
	/* first EIDs: added */
	eids_set(want, 0, 1);
	eids_set(want, 5, 2);
	ipourma_addr_diff(have, want, add, del);
	KUNIT_EXPECT_EQ(test, bitmap_weight(add, UBCORE_MAX_EID_CNT), 2);
	KUNIT_EXPECT_TRUE(test, test_bit(0, add) && test_bit(5, add));
	KUNIT_EXPECT_TRUE(test, bitmap_empty(del, UBCORE_MAX_EID_CNT));
	/* same set: nothing */
	*have = *want;
	ipourma_addr_diff(have, want, add, del);
	KUNIT_EXPECT_TRUE(test, bitmap_empty(add, UBCORE_MAX_EID_CNT));
	KUNIT_EXPECT_TRUE(test, bitmap_empty(del, UBCORE_MAX_EID_CNT));
	/* index 0 changes its EID, index 5's moves to 7, 63 is new */
	memset(want, 0, sizeof(*want));
	eids_set(want, 0, 3);
	eids_set(want, 7, 2);
	eids_set(want, 63, 4);
	ipourma_addr_diff(have, want, add, del);
	KUNIT_EXPECT_EQ(test, bitmap_weight(add, UBCORE_MAX_EID_CNT), 2);
	KUNIT_EXPECT_TRUE(test, test_bit(0, add) && test_bit(63, add));
	KUNIT_EXPECT_EQ(test, bitmap_weight(del, UBCORE_MAX_EID_CNT), 1);
	KUNIT_EXPECT_TRUE(test, test_bit(0, del));
	/* all gone */
	*have = *want;
	memset(want, 0, sizeof(*want));
	ipourma_addr_diff(have, want, add, del);
	KUNIT_EXPECT_TRUE(test, bitmap_empty(add, UBCORE_MAX_EID_CNT));
	KUNIT_EXPECT_EQ(test, bitmap_weight(del, UBCORE_MAX_EID_CNT), 3);
}

static struct kunit_case ipourma_cases[] = {
	KUNIT_CASE(hdr_roundtrip),
	KUNIT_CASE(meta_roundtrip),
	KUNIT_CASE(peer_import),
	KUNIT_CASE(peer_other_jetty),
	KUNIT_CASE(peer_pending_bound),
	KUNIT_CASE(peer_aging),
	KUNIT_CASE(peer_forget),
	KUNIT_CASE(peer_import_side_by_side),
	KUNIT_CASE(peer_flush_waits_for_import),
	KUNIT_CASE(netdev_mtu),
	KUNIT_CASE(addr_diff),
	{}
};

static struct kunit_suite ipourma_suite = {
	.name = "ipourma",
	.init = peer_test_init,
	.exit = peer_test_exit,
	.test_cases = ipourma_cases,
};

kunit_test_suite(ipourma_suite);

MODULE_DESCRIPTION("KUnit tests of ipourma");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);
