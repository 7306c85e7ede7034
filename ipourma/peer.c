// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * The peer cache: per destination EID, the imported well-known jetty that
 * packets to it are sent to. The TX path looks peers up under RCU; a miss
 * adds a peer and queues the packet on it (at most IPOURMA_PEER_PENDING,
 * then dropped and counted); the peer's own import work imports it
 * (ubcore_import_jetty() may sleep and may fail) and resends what waited.
 * Each peer has its work item so that a peer that does not answer (the
 * connection manager's timeout, seconds) holds up no other. The age work
 * drops the peers unused for the cache's age, unimporting them after an
 * RCU grace period.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/jhash.h>
#include <linux/rculist.h>
#include <linux/slab.h>
#include <kunit/visibility.h>

#include "ipourma.h"

static u32 ipourma_peer_hash(const struct in6_addr *eid)
{
	/* the address's bytes as words, whatever their byte order */
	return jhash2((__force const u32 *)eid->s6_addr32, 4, 0);
}

static void ipourma_peer_stat(struct ipourma_peer_cache *c,
			      enum ipourma_stat s, u64 n)
{
	if (c->stats)
		atomic64_add(n, &c->stats[s]);
}

static void ipourma_peer_import_work(struct work_struct *work);

/**
 * ipourma_peer_cache_init() - set up an empty cache
 * @c: the cache
 * @ops: the import calls
 * @ctx: their context
 * @age: jiffies an unused peer stays
 * @stats: the counters to count in (enum ipourma_stat), or NULL
 * @wq: where the peers' imports run; it must outlive the cache
 */
void ipourma_peer_cache_init(struct ipourma_peer_cache *c,
			     const struct ipourma_peer_ops *ops, void *ctx,
			     unsigned long age, atomic64_t *stats,
			     struct workqueue_struct *wq)
{
	spin_lock_init(&c->lock);
	hash_init(c->table);
	c->count = 0;
	c->ops = ops;
	c->ctx = ctx;
	c->age = age;
	c->stats = stats;
	c->wq = wq;
}
EXPORT_SYMBOL_IF_KUNIT(ipourma_peer_cache_init);

/* The peer of @eid, or NULL; under RCU or the cache's lock. */
static struct ipourma_peer *ipourma_peer_find(struct ipourma_peer_cache *c,
					      const struct in6_addr *eid)
{
	struct ipourma_peer *p;

	hash_for_each_possible_rcu(c->table, p, node, ipourma_peer_hash(eid))
		if (ipv6_addr_equal(&p->eid, eid))
			return p;
	return NULL;
}

/**
 * ipourma_peer_lookup() - the ready peer of a destination EID
 * @c: the cache
 * @eid: the destination
 *
 * Marks the peer used now.
 *
 * Context: under rcu_read_lock(), any context but hard interrupts; the
 * peer (and its tjetty) stays valid until rcu_read_unlock().
 * Return: the peer, or NULL if it is not imported (yet).
 */
struct ipourma_peer *ipourma_peer_lookup(struct ipourma_peer_cache *c,
					 const struct in6_addr *eid)
{
	struct ipourma_peer *p = ipourma_peer_find(c, eid);

	/* acquire: @tjetty was set before READY */
	if (!p || smp_load_acquire(&p->state) != IPOURMA_PEER_READY)
		return NULL;
	if (time_after(jiffies, READ_ONCE(p->last_used)))
		WRITE_ONCE(p->last_used, jiffies);
	return p;
}
EXPORT_SYMBOL_IF_KUNIT(ipourma_peer_lookup);

/**
 * ipourma_peer_enqueue() - queue a packet for a peer that is not ready
 * @c: the cache
 * @eid: the destination
 * @jetty_id: the well-known jetty to import for a new peer
 * @skb: the packet; taken on success
 *
 * Adds a peer when there is none, and retries a FAILED one a second after
 * its failure: either way the peer's import work is queued.
 *
 * Context: any but hard interrupts (GFP_ATOMIC).
 * Return: 1 if the packet is queued on a peer whose import it started, 0
 * if queued on a peer being imported (the import work resends it),
 * -EAGAIN if the peer is ready (imported since the caller's lookup: look
 * it up again), -ENOBUFS if the peer's queue or the cache is full,
 * -EHOSTUNREACH if the last import failed less than a second ago, -ENOMEM.
 * The caller keeps the skb on error.
 */
int ipourma_peer_enqueue(struct ipourma_peer_cache *c,
			 const struct in6_addr *eid, u32 jetty_id,
			 struct sk_buff *skb)
{
	struct ipourma_peer *p;
	int ret = 0;

	spin_lock_bh(&c->lock);
	p = ipourma_peer_find(c, eid);
	if (!p) {
		if (c->count >= IPOURMA_PEER_MAX) {
			ret = -ENOBUFS;
			goto out;
		}
		p = kzalloc(sizeof(*p), GFP_ATOMIC);
		if (!p) {
			ret = -ENOMEM;
			goto out;
		}
		p->eid = *eid;
		p->jetty_id = jetty_id;
		p->state = IPOURMA_PEER_IMPORTING;
		p->last_used = jiffies;
		p->cache = c;
		INIT_WORK(&p->work, ipourma_peer_import_work);
		skb_queue_head_init(&p->pending);
		hash_add_rcu(c->table, &p->node, ipourma_peer_hash(eid));
		c->count++;
		ret = 1;
	} else if (p->state == IPOURMA_PEER_FAILED) {
		if (time_before(jiffies, p->failed_at + HZ)) {
			ret = -EHOSTUNREACH;
			goto out;
		}
		p->state = IPOURMA_PEER_IMPORTING;
		ret = 1;
	} else if (p->state == IPOURMA_PEER_READY) {
		/* imported since the caller's lookup: it may send now */
		ret = -EAGAIN;
		goto out;
	}
	if (skb_queue_len(&p->pending) >= IPOURMA_PEER_PENDING) {
		ret = -ENOBUFS;
		goto out;
	}
	skb_queue_tail(&p->pending, skb);
	ipourma_peer_stat(c, IPOURMA_STAT_PEER_QUEUED, 1);
	if (ret == 1)
		queue_work(c->wq, &p->work);
out:
	spin_unlock_bh(&c->lock);
	return ret;
}
EXPORT_SYMBOL_IF_KUNIT(ipourma_peer_enqueue);

/*
 * The well-known jetty to import for @p. UMDK's rule first: the jetty of
 * our source EID's index (@p->jetty_id), as if both ends numbered their
 * EIDs alike. If the peer answers that it has no such jetty, its other
 * well-known jetties in order: any of them reaches its netdev (the IPv6
 * destination chooses the host, not the jetty). If a probe cannot tell
 * (no answer, no way to ask), the rule's jetty stays.
 */
static u32 ipourma_peer_resolve(struct ipourma_peer_cache *c,
				const struct ipourma_peer *p)
{
	u32 guess = p->jetty_id, id, i;
	int ret;

	if (!c->ops->probe ||
	    c->ops->probe(c->ctx, &p->eid, guess) != -ENOENT)
		return guess;
	for (i = 0; i < UBCORE_MAX_EID_CNT; i++) {
		id = IPOURMA_JETTY_BASE + i;
		if (id == guess)
			continue;
		ret = c->ops->probe(c->ctx, &p->eid, id);
		if (!ret) {
			ipourma_peer_stat(c, IPOURMA_STAT_PEER_OTHER_JETTY, 1);
			return id;
		}
		if (ret != -ENOENT)
			break;
	}
	return guess;
}

/*
 * A peer's import: the peer is IMPORTING (the work alone writes its
 * @jetty_id and @tjetty) and stays in the cache until the work is done
 * (neither aged nor freed but by ipourma_peer_cache_flush(), which waits
 * for the work). A failed import drops the peer's waiting packets
 * (counted) and leaves the peer FAILED until it ages or a packet retries
 * it a second later. Once READY or FAILED, the peer may be aged and
 * freed at once: nothing here touches it after the cache's lock is
 * dropped.
 */
static void ipourma_peer_import_work(struct work_struct *work)
{
	struct ipourma_peer *p = container_of(work, struct ipourma_peer, work);
	struct ipourma_peer_cache *c = p->cache;
	struct ubcore_tjetty *tjetty;
	struct sk_buff_head q;
	struct sk_buff *skb;

	__skb_queue_head_init(&q);
	p->jetty_id = ipourma_peer_resolve(c, p);
	tjetty = c->ops->import(c->ctx, &p->eid, p->jetty_id);
	spin_lock_bh(&c->lock);
	if (IS_ERR(tjetty)) {
		pr_debug("import of jetty %u of %pI6c: %ld\n",
			 p->jetty_id, &p->eid, PTR_ERR(tjetty));
		p->state = IPOURMA_PEER_FAILED;
		p->failed_at = jiffies;
		ipourma_peer_stat(c, IPOURMA_STAT_PEER_IMPORT_ERR, 1);
		ipourma_peer_stat(c, IPOURMA_STAT_TX_DROP_PEER,
				  skb_queue_len(&p->pending));
		skb_queue_splice_init(&p->pending, &q);
		spin_unlock_bh(&c->lock);
		__skb_queue_purge(&q);
		return;
	}
	p->tjetty = tjetty;
	WRITE_ONCE(p->last_used, jiffies);
	ipourma_peer_stat(c, IPOURMA_STAT_PEER_IMPORT, 1);
	skb_queue_splice_init(&p->pending, &q);
	/* release: lookups that see READY see @tjetty */
	smp_store_release(&p->state, IPOURMA_PEER_READY);
	spin_unlock_bh(&c->lock);
	while ((skb = __skb_dequeue(&q)))
		c->ops->resend(c->ctx, skb);
}

/*
 * Take @p out of the cache onto @dead (for ipourma_peer_free_list()); the
 * cache's lock held.
 */
static void ipourma_peer_unlink(struct ipourma_peer_cache *c,
				struct ipourma_peer *p, struct hlist_head *dead)
{
	lockdep_assert_held(&c->lock);
	hash_del_rcu(&p->node);
	c->count--;
	hlist_add_head(&p->node, dead);
}

/* Unimport and free the peers of @dead once no RCU reader sees them. */
static void ipourma_peer_free_list(struct ipourma_peer_cache *c,
				   struct hlist_head *dead)
{
	struct ipourma_peer *p;
	struct hlist_node *n;

	if (hlist_empty(dead))
		return;
	synchronize_rcu();
	hlist_for_each_entry_safe(p, n, dead, node) {
		hlist_del(&p->node);
		if (p->tjetty)
			c->ops->unimport(c->ctx, p->tjetty);
		skb_queue_purge(&p->pending);
		kfree(p);
	}
}

/**
 * ipourma_peer_age() - drop the peers unused for the cache's age
 * @c: the cache
 * @now: the time (jiffies) to age against
 *
 * READY and FAILED peers whose last use is more than the age before @now
 * go; IMPORTING ones stay (their import work owns them).
 *
 * Context: process context, may sleep (an RCU grace period, unimports).
 * Return: the number of peers dropped.
 */
u32 ipourma_peer_age(struct ipourma_peer_cache *c, unsigned long now)
{
	HLIST_HEAD(dead);
	struct ipourma_peer *p;
	struct hlist_node *n;
	u32 aged = 0;
	int bkt;

	spin_lock_bh(&c->lock);
	hash_for_each_safe(c->table, bkt, n, p, node) {
		if (p->state != IPOURMA_PEER_READY &&
		    p->state != IPOURMA_PEER_FAILED)
			continue;
		if (!time_after(now, READ_ONCE(p->last_used) + c->age))
			continue;
		ipourma_peer_unlink(c, p, &dead);
		aged++;
	}
	spin_unlock_bh(&c->lock);
	ipourma_peer_free_list(c, &dead);
	ipourma_peer_stat(c, IPOURMA_STAT_PEER_AGED, aged);
	return aged;
}
EXPORT_SYMBOL_IF_KUNIT(ipourma_peer_age);

/**
 * ipourma_peer_forget() - drop the peer of an EID, to be imported anew
 * @c: the cache
 * @eid: the destination whose messages stopped being answered
 *
 * The next packet to @eid starts a new import: a peer that is gone fails
 * it (its packets are dropped and counted), one that came back gets a new
 * connection. A peer being imported stays (its work owns it).
 *
 * Context: process context, may sleep (an RCU grace period, the unimport).
 * Return: true if a peer was dropped.
 */
bool ipourma_peer_forget(struct ipourma_peer_cache *c,
			 const struct in6_addr *eid)
{
	HLIST_HEAD(dead);
	struct ipourma_peer *p;

	spin_lock_bh(&c->lock);
	p = ipourma_peer_find(c, eid);
	if (p && p->state != IPOURMA_PEER_IMPORTING)
		ipourma_peer_unlink(c, p, &dead);
	else
		p = NULL;
	spin_unlock_bh(&c->lock);
	ipourma_peer_free_list(c, &dead);
	return p;
}
EXPORT_SYMBOL_IF_KUNIT(ipourma_peer_forget);

/**
 * ipourma_peer_cache_flush() - drop every peer
 * @c: the cache
 *
 * Waits for the imports under way (a peer that does not answer: the
 * connection manager's timeout).
 *
 * Context: process context, may sleep; nothing adds peers any more (the
 * netdev is unregistered).
 */
void ipourma_peer_cache_flush(struct ipourma_peer_cache *c)
{
	HLIST_HEAD(dead);
	struct ipourma_peer *p;
	struct hlist_node *n;
	int bkt;

	spin_lock_bh(&c->lock);
	hash_for_each_safe(c->table, bkt, n, p, node) {
		hash_del_rcu(&p->node);
		hlist_add_head(&p->node, &dead);
	}
	c->count = 0;
	spin_unlock_bh(&c->lock);
	hlist_for_each_entry(p, &dead, node)
		flush_work(&p->work);
	ipourma_peer_free_list(c, &dead);
}
EXPORT_SYMBOL_IF_KUNIT(ipourma_peer_cache_flush);
