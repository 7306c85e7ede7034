// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * KUnit tests of device registration, clients, events and the device-level
 * EID operations, with a fake provider that has no netdev.
 */
#include <kunit/test.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/workqueue.h>

#include <ub/ubcore_device.h>
#include <ub/ubcore_event.h>

struct fake_dev {
	struct ubcore_device ub_dev;
	bool *released;
};

static_assert(offsetof(struct fake_dev, ub_dev) == 0);

static void fake_release(struct ubcore_device *dev)
{
	*container_of(dev, struct fake_dev, ub_dev)->released = true;
}

static const struct ubcore_ops fake_ops = {
	.owner = THIS_MODULE,
	.driver_name = "kunit",
	.release = fake_release,
};

static struct ubcore_device *fake_alloc(struct kunit *test, bool *released)
{
	struct fake_dev *fdev;

	fdev = container_of(ubcore_alloc_device(sizeof(*fdev)), struct fake_dev,
			    ub_dev);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, fdev);
	fdev->released = released;
	fdev->ub_dev.ops = &fake_ops;
	fdev->ub_dev.cap.max_jfc = 8;
	return &fdev->ub_dev;
}

static void device_names_and_lookup(struct kunit *test)
{
	bool rel0 = false, rel1 = false, rel2 = false;
	struct ubcore_device *d0 = fake_alloc(test, &rel0);
	struct ubcore_device *d1 = fake_alloc(test, &rel1);
	struct ubcore_device *d2 = fake_alloc(test, &rel2);
	struct ubcore_device *found;

	KUNIT_EXPECT_EQ(test, ubcore_register_device(d0, "kunitdev%d"), 0);
	KUNIT_EXPECT_EQ(test, ubcore_register_device(d1, "kunitdev%d"), 0);
	KUNIT_EXPECT_STREQ(test, d0->dev_name, "kunitdev0");
	KUNIT_EXPECT_STREQ(test, d1->dev_name, "kunitdev1");
	KUNIT_EXPECT_EQ(test, ubcore_register_device(d2, "kunitdev1"), -EEXIST);
	KUNIT_EXPECT_EQ(test, ubcore_register_device(NULL, "x"), -EINVAL);

	found = ubcore_get_device_by_name("kunitdev1");
	KUNIT_EXPECT_PTR_EQ(test, found, d1);
	if (found)
		ubcore_put_device(found);

	ubcore_unregister_device(d0);
	KUNIT_EXPECT_NULL(test, ubcore_get_device_by_name("kunitdev0"));
	/* The lowest free number is taken again. */
	KUNIT_EXPECT_EQ(test, ubcore_register_device(d2, "kunitdev%d"), 0);
	KUNIT_EXPECT_STREQ(test, d2->dev_name, "kunitdev0");

	ubcore_unregister_device(d1);
	ubcore_unregister_device(d2);
	KUNIT_EXPECT_FALSE(test, rel0);
	ubcore_dealloc_device(d0);
	ubcore_dealloc_device(d1);
	ubcore_dealloc_device(d2);
	KUNIT_EXPECT_TRUE(test, rel0);
	KUNIT_EXPECT_TRUE(test, rel1);
	KUNIT_EXPECT_TRUE(test, rel2);
}

/* A client that records its calls; refuses devices when told to. */
struct rec_client {
	struct ubcore_client client;
	int adds, removes;
	int refuse;
	void *removed_ctx;
};

/* The client under test; callbacks find their record through it. */
static struct rec_client *current_rec;

static int rec_add(struct ubcore_device *dev)
{
	struct rec_client *rc = current_rec;

	rc->adds++;
	if (rc->refuse)
		return rc->refuse;
	ubcore_set_client_ctx(dev, &rc->client, dev);
	return 0;
}

static void rec_remove(struct ubcore_device *dev, void *ctx)
{
	struct rec_client *rc = current_rec;

	rc->removes++;
	rc->removed_ctx = ctx;
}

static void client_sees_devices_before_and_after(struct kunit *test)
{
	struct rec_client rc = {
		.client = { .name = "kunit", .add = rec_add, .remove = rec_remove },
	};
	bool rel_a = false, rel_b = false;
	struct ubcore_device *a = fake_alloc(test, &rel_a);
	struct ubcore_device *b = fake_alloc(test, &rel_b);

	current_rec = &rc;
	KUNIT_EXPECT_EQ(test, ubcore_register_device(a, "kunitcl%d"), 0);
	KUNIT_EXPECT_EQ(test, ubcore_register_client(&rc.client), 0);
	KUNIT_EXPECT_EQ(test, rc.adds, 1);
	KUNIT_EXPECT_PTR_EQ(test, ubcore_get_client_ctx(a, &rc.client), (void *)a);

	KUNIT_EXPECT_EQ(test, ubcore_register_device(b, "kunitcl%d"), 0);
	KUNIT_EXPECT_EQ(test, rc.adds, 2);

	ubcore_unregister_device(b);
	KUNIT_EXPECT_EQ(test, rc.removes, 1);
	KUNIT_EXPECT_PTR_EQ(test, rc.removed_ctx, (void *)b);

	ubcore_unregister_client(&rc.client);
	KUNIT_EXPECT_EQ(test, rc.removes, 2);
	KUNIT_EXPECT_PTR_EQ(test, rc.removed_ctx, (void *)a);
	KUNIT_EXPECT_NULL(test, ubcore_get_client_ctx(a, &rc.client));

	ubcore_unregister_device(a);
	KUNIT_EXPECT_EQ(test, rc.removes, 2);
	ubcore_dealloc_device(a);
	ubcore_dealloc_device(b);
	KUNIT_EXPECT_TRUE(test, rel_a);
	KUNIT_EXPECT_TRUE(test, rel_b);
	current_rec = NULL;
}

static void client_that_refuses_gets_no_remove(struct kunit *test)
{
	struct rec_client rc = {
		.client = { .name = "kunit", .add = rec_add, .remove = rec_remove },
		.refuse = -EOPNOTSUPP,
	};
	bool rel = false;
	struct ubcore_device *a = fake_alloc(test, &rel);

	current_rec = &rc;
	KUNIT_EXPECT_EQ(test, ubcore_register_client(&rc.client), 0);
	KUNIT_EXPECT_EQ(test, ubcore_register_device(a, "kunitref%d"), 0);
	KUNIT_EXPECT_EQ(test, rc.adds, 1);
	ubcore_unregister_device(a);
	ubcore_unregister_client(&rc.client);
	KUNIT_EXPECT_EQ(test, rc.removes, 0);
	ubcore_dealloc_device(a);
	current_rec = NULL;
}

struct rec_handler {
	struct ubcore_event_handler handler;
	int count;
	struct ubcore_event last;
};

static void rec_event(struct ubcore_event_handler *handler,
		      const struct ubcore_event *event)
{
	struct rec_handler *rh = container_of(handler, struct rec_handler, handler);

	rh->count++;
	rh->last = *event;
}

static void static_eids_raise_events(struct kunit *test)
{
	struct rec_handler rh = { .handler = { .event_handler = rec_event } };
	bool rel = false;
	struct ubcore_device *a = fake_alloc(test, &rel);
	union ubcore_eid eid, got;

	ubcore_eid_from_ipv4(&eid, htonl(0xc0a80101));
	KUNIT_EXPECT_EQ(test, ubcore_register_device(a, "kunitev%d"), 0);
	ubcore_register_event_handler(a, &rh.handler);

	KUNIT_EXPECT_EQ(test, ubcore_add_static_eid(a, 5, &eid), 0);
	KUNIT_EXPECT_EQ(test, rh.count, 1);
	KUNIT_EXPECT_EQ(test, rh.last.type, UBCORE_EVENT_EID_CHANGE);
	KUNIT_EXPECT_EQ(test, rh.last.element.eid_idx, 5);
	KUNIT_EXPECT_PTR_EQ(test, rh.last.dev, a);
	KUNIT_EXPECT_EQ(test, ubcore_get_eid(a, 5, &got), 0);
	KUNIT_EXPECT_EQ(test, memcmp(got.raw, eid.raw, UBCORE_EID_SIZE), 0);
	KUNIT_EXPECT_EQ(test, ubcore_get_eid(a, 4, &got), -ENOENT);
	KUNIT_EXPECT_EQ(test, ubcore_get_eid(a, UBCORE_MAX_EID_CNT, &got), -EINVAL);

	/* Failed operations raise nothing. */
	KUNIT_EXPECT_EQ(test, ubcore_add_static_eid(a, 6, &eid), -EEXIST);
	KUNIT_EXPECT_EQ(test, ubcore_del_static_eid(a, 6), -ENOENT);
	KUNIT_EXPECT_EQ(test, rh.count, 1);

	/* Static mode keeps static EIDs. */
	KUNIT_EXPECT_EQ(test, ubcore_set_eid_mode(a, UBCORE_EID_MODE_STATIC), 0);
	KUNIT_EXPECT_EQ(test, ubcore_get_eid(a, 5, &got), 0);
	KUNIT_EXPECT_EQ(test, ubcore_set_eid_mode(a, 7), -EINVAL);

	KUNIT_EXPECT_EQ(test, ubcore_del_static_eid(a, 5), 0);
	KUNIT_EXPECT_EQ(test, rh.count, 2);
	KUNIT_EXPECT_EQ(test, ubcore_get_eid(a, 5, &got), -ENOENT);

	ubcore_unregister_event_handler(a, &rh.handler);
	KUNIT_EXPECT_EQ(test, ubcore_add_static_eid(a, 1, &eid), 0);
	KUNIT_EXPECT_EQ(test, rh.count, 2);

	ubcore_unregister_device(a);
	/* A device being removed refuses administration. */
	KUNIT_EXPECT_EQ(test, ubcore_add_static_eid(a, 2, &eid), -ENODEV);
	ubcore_dealloc_device(a);
}

/*
 * The nth fault point of this thread from now fails (0: none), as a write
 * to /proc/thread-self/fail-nth does.
 */
static void set_fail_nth(unsigned int nth)
{
#ifdef CONFIG_FAULT_INJECTION
	WRITE_ONCE(current->fail_nth, nth);
#endif
}

/*
 * A device unregistered while a failed eids/ update waits for its retry
 * (eid_sysfs_work): unregistration cancels the retry, which neither stays
 * queued nor runs on the freed device, and the device is released. The
 * update fails for real: fail-nth makes an allocation of
 * sysfs_update_group() in this thread fail (failslab; the harness sets its
 * ignore-gfp-wait to N, tests/guest/check-guest.sh).
 */
static void eid_sysfs_retry_cancelled_on_unregister(struct kunit *test)
{
	bool rel = false, pending = false;
	struct ubcore_device *a;
	union ubcore_eid eid;
	unsigned int nth;
	int ret;

	if (!IS_ENABLED(CONFIG_FAILSLAB))
		kunit_skip(test, "needs CONFIG_FAILSLAB (fail-nth)");
	a = fake_alloc(test, &rel);
	ubcore_eid_from_ipv4(&eid, htonl(0xc0a80109));
	KUNIT_ASSERT_EQ(test, ubcore_register_device(a, "kunitretry%d"), 0);

	/* Fault point n = 1, 2, ... of the add fails, until one is the update's. */
	for (nth = 1; nth <= 64 && !pending; nth++) {
		/*
		 * As after earlier failed retries: the next waits the longest
		 * back-off (1 s), time enough to unregister before it runs.
		 */
		mutex_lock(&a->eid_sysfs_lock);
		a->eid_sysfs_delay = HZ;
		mutex_unlock(&a->eid_sysfs_lock);
		set_fail_nth(nth);
		ret = ubcore_add_static_eid(a, 5, &eid);
		set_fail_nth(0);
		pending = delayed_work_pending(&a->eid_sysfs_work);
		if (!ret && !pending)
			KUNIT_EXPECT_EQ(test, ubcore_del_static_eid(a, 5), 0);
	}
	KUNIT_EXPECT_TRUE_MSG(test, pending,
			      "no eids/ update failed under fail-nth 1..%u (failslab ignore-gfp-wait must be N)",
			      nth - 1);
	KUNIT_EXPECT_EQ(test, ret, 0);	/* the table took the EID all the same */

	ubcore_unregister_device(a);
	KUNIT_EXPECT_FALSE_MSG(test, delayed_work_pending(&a->eid_sysfs_work),
			       "eids/ retry still queued after unregistration");
	KUNIT_EXPECT_EQ_MSG(test, work_busy(&a->eid_sysfs_work.work), 0,
			    "eids/ retry pending or running after unregistration");
	ubcore_dealloc_device(a);
	/* Nothing (no queued work) holds the device: it is released. */
	KUNIT_EXPECT_TRUE(test, rel);
}

static struct kunit_case ubcore_device_cases[] = {
	KUNIT_CASE(device_names_and_lookup),
	KUNIT_CASE(client_sees_devices_before_and_after),
	KUNIT_CASE(client_that_refuses_gets_no_remove),
	KUNIT_CASE(static_eids_raise_events),
	KUNIT_CASE(eid_sysfs_retry_cancelled_on_unregister),
	{}
};

static struct kunit_suite ubcore_device_suite = {
	.name = "ubcore_device",
	.test_cases = ubcore_device_cases,
};

kunit_test_suite(ubcore_device_suite);
