// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * A provider for the object suites: every object is a plain allocation,
 * the device has no netdev.
 */
#include <linux/err.h>
#include <linux/rcupdate.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/string.h>

#include <ub/ubcore_tp.h>

#include "fake_provider.h"

int fake_modify_err;
int fake_bind_err;
int fake_unbind_err;
struct fake_dp_calls fake_dp;
int fake_dp_err;
u32 fake_flush_first;
u32 fake_flush_cnt;
struct fake_mgmt fake_mgmt;
static DEFINE_MUTEX(fake_mgmt_lock);	/* fake_mgmt: sends run concurrently */

static void *fake_zalloc(size_t size)
{
	void *obj = kzalloc(size, GFP_KERNEL);

	return obj ? obj : ERR_PTR(-ENOMEM);
}

static struct ubcore_jfc *fake_create_jfc(struct ubcore_device *dev,
					  struct ubcore_jfc_cfg *cfg,
					  struct ubcore_udata *udata)
{
	return fake_zalloc(sizeof(struct ubcore_jfc));
}

static struct ubcore_jfs *fake_create_jfs(struct ubcore_device *dev,
					  struct ubcore_jfs_cfg *cfg,
					  struct ubcore_udata *udata)
{
	return fake_zalloc(sizeof(struct ubcore_jfs));
}

static struct ubcore_jfr *fake_create_jfr(struct ubcore_device *dev,
					  struct ubcore_jfr_cfg *cfg,
					  struct ubcore_udata *udata)
{
	return fake_zalloc(sizeof(struct ubcore_jfr));
}

static struct ubcore_jetty *fake_create_jetty(struct ubcore_device *dev,
					      struct ubcore_jetty_cfg *cfg,
					      struct ubcore_udata *udata)
{
	return fake_zalloc(sizeof(struct ubcore_jetty));
}

static struct ubcore_target_seg *fake_register_seg(struct ubcore_device *dev,
						   struct ubcore_seg_cfg *cfg,
						   struct ubcore_udata *udata)
{
	return fake_zalloc(sizeof(struct ubcore_target_seg));
}

static struct ubcore_target_seg *fake_import_seg(struct ubcore_device *dev,
						 struct ubcore_target_seg_cfg *cfg,
						 struct ubcore_udata *udata)
{
	return fake_zalloc(sizeof(struct ubcore_target_seg));
}

static struct ubcore_tjetty *fake_import_tjetty(struct ubcore_device *dev,
						struct ubcore_tjetty_cfg *cfg,
						struct ubcore_udata *udata)
{
	return fake_zalloc(sizeof(struct ubcore_tjetty));
}

/*
 * The connection manager's messages go straight to the device that has the
 * destination EID (as udma does on one host), or are held when
 * fake_mgmt.hold is set, until fake_mgmt_release().
 */
static int fake_send_mgmt(struct ubcore_device *dev, const union ubcore_eid *dst,
			  u8 type, u32 msg_id, const void *body, u16 len)
{
	struct ubcore_device *peer;
	struct fake_mgmt_msg *m;
	int ret;

	mutex_lock(&fake_mgmt_lock);
	fake_mgmt.sent++;
	if (fake_mgmt.drop || (fake_mgmt.drop_type && fake_mgmt.drop_type == type)) {
		mutex_unlock(&fake_mgmt_lock);
		return 0;
	}
	peer = ubcore_get_device_by_eid(dst);
	if (!peer) {
		mutex_unlock(&fake_mgmt_lock);
		return -EHOSTUNREACH;
	}
	if (fake_mgmt.hold && fake_mgmt.held < FAKE_MGMT_HOLD) {
		m = &fake_mgmt.msgs[fake_mgmt.held++];
		m->dev = peer;	/* keeps the reference until released */
		m->type = type;
		m->msg_id = msg_id;
		m->len = min_t(u16, len, sizeof(m->body));
		memcpy(m->body, body, m->len);
		mutex_unlock(&fake_mgmt_lock);
		return 0;
	}
	mutex_unlock(&fake_mgmt_lock);
	ret = ubcore_recv_mgmt(peer, type, msg_id, body, len);
	ubcore_put_device(peer);
	return ret;
}

void fake_mgmt_release(void)
{
	u32 i;

	mutex_lock(&fake_mgmt_lock);
	fake_mgmt.hold = false;
	for (i = 0; i < fake_mgmt.held; i++) {
		struct fake_mgmt_msg *m = &fake_mgmt.msgs[i];

		ubcore_recv_mgmt(m->dev, m->type, m->msg_id, m->body, m->len);
		ubcore_put_device(m->dev);
	}
	fake_mgmt.held = 0;
	mutex_unlock(&fake_mgmt_lock);
}

static struct ubcore_ucontext *fake_alloc_ucontext(struct ubcore_device *dev,
						   u32 eid_index,
						   struct ubcore_udata *udata)
{
	return fake_zalloc(sizeof(struct ubcore_ucontext));
}

static struct ubcore_token_id *fake_alloc_token_id(struct ubcore_device *dev,
						   u32 flag,
						   struct ubcore_udata *udata)
{
	return fake_zalloc(sizeof(struct ubcore_token_id));
}

static int fake_modify_jfs(struct ubcore_jfs *jfs,
			   const struct ubcore_jfs_attr *attr,
			   struct ubcore_udata *udata)
{
	return fake_modify_err;
}

static int fake_modify_jfr(struct ubcore_jfr *jfr,
			   const struct ubcore_jfr_attr *attr,
			   struct ubcore_udata *udata)
{
	return fake_modify_err;
}

static int fake_modify_jetty(struct ubcore_jetty *jetty,
			     const struct ubcore_jetty_attr *attr,
			     struct ubcore_udata *udata)
{
	return fake_modify_err;
}

static int fake_dp_call(struct fake_dp_op *op, const void *obj)
{
	op->calls++;
	op->obj = obj;
	return fake_dp_err;
}

static int fake_jfs_doorbell(struct ubcore_jfs *jfs)
{
	return fake_dp_call(&fake_dp.jfs_doorbell, jfs);
}

static int fake_jfr_doorbell(struct ubcore_jfr *jfr)
{
	return fake_dp_call(&fake_dp.jfr_doorbell, jfr);
}

static int fake_jetty_doorbell(struct ubcore_jetty *jetty)
{
	return fake_dp_call(&fake_dp.jetty_doorbell, jetty);
}

static int fake_rearm_jfc(struct ubcore_jfc *jfc, bool solicited_only)
{
	fake_dp.solicited_only = solicited_only;
	return fake_dp_call(&fake_dp.rearm_jfc, jfc);
}

static int fake_bind_jetty(struct ubcore_jetty *jetty,
			   struct ubcore_tjetty *tjetty)
{
	return fake_bind_err;
}

static int fake_unbind_jetty(struct ubcore_jetty *jetty)
{
	return fake_unbind_err;
}

static int fake_flush(struct fake_dp_op *op, const void *obj, u32 max_cnt,
		      u32 *first, u32 *cnt)
{
	int ret;

	fake_dp.max_cnt = max_cnt;
	ret = fake_dp_call(op, obj);
	if (ret)
		return ret;
	*first = fake_flush_first;
	*cnt = fake_flush_cnt;
	return 0;
}

static int fake_flush_jfs(struct ubcore_jfs *jfs, u32 max_cnt, u32 *first,
			  u32 *cnt)
{
	return fake_flush(&fake_dp.flush_jfs, jfs, max_cnt, first, cnt);
}

static int fake_flush_jetty(struct ubcore_jetty *jetty, u32 max_cnt,
			    u32 *first, u32 *cnt)
{
	return fake_flush(&fake_dp.flush_jetty, jetty, max_cnt, first, cnt);
}

static void fake_free_ucontext(struct ubcore_ucontext *uctx)
{
	kfree(uctx);
}

static void fake_destroy_jfc(struct ubcore_jfc *jfc)
{
	kfree(jfc);
}

static void fake_destroy_jfs(struct ubcore_jfs *jfs)
{
	kfree(jfs);
}

static void fake_destroy_jfr(struct ubcore_jfr *jfr)
{
	kfree(jfr);
}

static void fake_destroy_jetty(struct ubcore_jetty *jetty)
{
	kfree(jetty);
}

/* Segment lookups read token IDs and segments under RCU. */
static void fake_free_token_id(struct ubcore_token_id *t)
{
	synchronize_rcu();
	kfree(t);
}

static void fake_free_seg(struct ubcore_target_seg *tseg)
{
	synchronize_rcu();
	kfree(tseg);
}

static void fake_free_tjetty(struct ubcore_tjetty *tjetty)
{
	kfree(tjetty);
}

/* udma's defaults with its module parameters' defaults (7, 100 ms). */
static void fake_tp_defaults(struct ubcore_device *dev,
			     struct ubcore_tp_xport *xport)
{
	xport->retry_cnt = 7;
	xport->ack_timeout = 15;
}

static const struct ubcore_ops fake_obj_ops = {
	.owner = THIS_MODULE,
	.driver_name = "kunitobj",
	.alloc_ucontext = fake_alloc_ucontext,
	.free_ucontext = fake_free_ucontext,
	.create_jfc = fake_create_jfc,
	.destroy_jfc = fake_destroy_jfc,
	.create_jfs = fake_create_jfs,
	.modify_jfs = fake_modify_jfs,
	.destroy_jfs = fake_destroy_jfs,
	.create_jfr = fake_create_jfr,
	.modify_jfr = fake_modify_jfr,
	.destroy_jfr = fake_destroy_jfr,
	.create_jetty = fake_create_jetty,
	.modify_jetty = fake_modify_jetty,
	.destroy_jetty = fake_destroy_jetty,
	.alloc_token_id = fake_alloc_token_id,
	.free_token_id = fake_free_token_id,
	.register_seg = fake_register_seg,
	.unregister_seg = fake_free_seg,
	.import_seg = fake_import_seg,
	.unimport_seg = fake_free_seg,
	.import_jfr = fake_import_tjetty,
	.unimport_jfr = fake_free_tjetty,
	.import_jetty = fake_import_tjetty,
	.unimport_jetty = fake_free_tjetty,
	.jfs_doorbell = fake_jfs_doorbell,
	.jfr_doorbell = fake_jfr_doorbell,
	.jetty_doorbell = fake_jetty_doorbell,
	.rearm_jfc = fake_rearm_jfc,
	.bind_jetty = fake_bind_jetty,
	.unbind_jetty = fake_unbind_jetty,
	.flush_jfs = fake_flush_jfs,
	.flush_jetty = fake_flush_jetty,
	.send_mgmt = fake_send_mgmt,
	.tp_defaults = fake_tp_defaults,
};

struct ubcore_device *fake_provider_dev(struct kunit *test, const char *name_fmt,
					const struct ubcore_device_cap *cap)
{
	struct ubcore_device *dev = ubcore_alloc_device(sizeof(*dev));
	int ret;

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, dev);
	dev->ops = &fake_obj_ops;
	dev->cap = *cap;
	ret = ubcore_register_device(dev, name_fmt);
	if (ret)
		ubcore_dealloc_device(dev);
	KUNIT_ASSERT_EQ(test, ret, 0);
	fake_modify_err = 0;
	fake_bind_err = 0;
	fake_unbind_err = 0;
	memset(&fake_dp, 0, sizeof(fake_dp));
	fake_dp_err = 0;
	fake_flush_first = 0;
	fake_flush_cnt = 0;
	memset(&fake_mgmt, 0, sizeof(fake_mgmt));
	return dev;
}

void fake_provider_dev_free(struct ubcore_device *dev)
{
	ubcore_unregister_device(dev);
	ubcore_dealloc_device(dev);
}

struct ubcore_ucontext *fake_provider_uctx(struct kunit *test,
					   struct ubcore_device *dev,
					   struct ubcore_udata *udata)
{
	struct ubcore_ucontext *uctx = ubcore_alloc_ucontext(dev, 0, 0, NULL);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, uctx);
	memset(udata, 0, sizeof(*udata));
	udata->uctx = uctx;
	return uctx;
}
