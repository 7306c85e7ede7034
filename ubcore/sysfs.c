// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * /sys/class/ubcore/<dev>/: the three kinds of device attributes of the
 * user guide (5.2.5): read-only capabilities at the top level, read-write
 * configuration (eid_mode), read-only port state in port0/; the EID
 * table in eids/, one file per valid entry; the live object counts in
 * objects/; in limits/ what one user context may hold and in user_limits/
 * what all the contexts of one user may (read-write).
 */
#include <linux/device.h>
#include <linux/jiffies.h>
#include <linux/kernel.h>
#include <linux/mutex.h>
#include <linux/sysfs.h>
#include <linux/workqueue.h>

#include <ub/ubcore_bond.h>

#include "ubcore_priv.h"

/* A capability file: a u32 or u64 field of struct ubcore_device_cap. */
struct ubcore_cap_attr {
	struct device_attribute attr;
	size_t offset;
	size_t size;
	bool hex;
};

static ssize_t cap_show(struct device *device, struct device_attribute *attr,
			char *buf)
{
	const struct ubcore_cap_attr *ca =
		container_of(attr, struct ubcore_cap_attr, attr);
	const void *field = (const u8 *)&to_ubcore_device(device)->cap + ca->offset;
	u64 v = ca->size == sizeof(u64) ? *(const u64 *)field : *(const u32 *)field;

	return sysfs_emit(buf, ca->hex ? "0x%llx\n" : "%llu\n", v);
}

#define UBCORE_CAP(_name, _size, _hex) {				\
	.attr = { .attr = { .name = #_name, .mode = 0444 }, .show = cap_show }, \
	.offset = offsetof(struct ubcore_device_cap, _name),		\
	.size = _size,							\
	.hex = _hex,							\
}

#define UBCORE_CAP32(_name)	UBCORE_CAP(_name, sizeof(u32), false)
#define UBCORE_CAP64(_name)	UBCORE_CAP(_name, sizeof(u64), false)
#define UBCORE_CAP_BITS(_name)	UBCORE_CAP(_name, sizeof(u32), true)

static struct ubcore_cap_attr ubcore_cap_attrs[] = {
	UBCORE_CAP32(max_jfc),
	UBCORE_CAP32(max_jfs),
	UBCORE_CAP32(max_jfr),
	UBCORE_CAP32(max_jetty),
	UBCORE_CAP32(max_jfc_depth),
	UBCORE_CAP32(max_jfs_depth),
	UBCORE_CAP32(max_jfr_depth),
	UBCORE_CAP32(max_jfs_sge),
	UBCORE_CAP32(max_jfs_rsge),
	UBCORE_CAP32(max_jfr_sge),
	UBCORE_CAP32(max_jfs_inline_size),
	UBCORE_CAP64(max_msg_size),
	UBCORE_CAP64(max_write_size),
	UBCORE_CAP64(max_read_size),
	UBCORE_CAP32(max_token_id),
	UBCORE_CAP_BITS(atomic_feature),
	UBCORE_CAP_BITS(trans_mode),
	UBCORE_CAP_BITS(congestion_ctrl_alg),
	UBCORE_CAP32(reserved_jetty_id_max),
	UBCORE_CAP32(max_jetty_grp),
	UBCORE_CAP32(max_jetty_in_jetty_grp),
};

static ssize_t driver_name_show(struct device *device,
				struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%s\n", to_ubcore_device(device)->ops->driver_name);
}
static DEVICE_ATTR_RO(driver_name);

/*
 * The netdev's name now (it can be renamed); empty when there is none.
 * ->netdev is cleared only after device_del(), which waits for readers.
 */
static ssize_t netdev_show(struct device *device, struct device_attribute *attr,
			   char *buf)
{
	struct net_device *netdev = to_ubcore_device(device)->netdev;

	return sysfs_emit(buf, "%s\n", netdev ? netdev_name(netdev) : "");
}
static DEVICE_ATTR_RO(netdev);

static const char * const ubcore_eid_mode_names[] = {
	[UBCORE_EID_MODE_DYNAMIC] = "dynamic",
	[UBCORE_EID_MODE_STATIC] = "static",
};

static ssize_t eid_mode_show(struct device *device,
			     struct device_attribute *attr, char *buf)
{
	struct ubcore_device *dev = to_ubcore_device(device);
	enum ubcore_eid_mode mode;

	mutex_lock(&dev->eid_lock);
	mode = dev->eid_mode;
	mutex_unlock(&dev->eid_lock);
	return sysfs_emit(buf, "%s\n", ubcore_eid_mode_names[mode]);
}

static ssize_t eid_mode_store(struct device *device,
			      struct device_attribute *attr, const char *buf,
			      size_t count)
{
	int mode, ret;

	mode = sysfs_match_string(ubcore_eid_mode_names, buf);
	if (mode < 0)
		return mode;
	ret = ubcore_set_eid_mode(to_ubcore_device(device), mode);
	return ret ? ret : count;
}
static DEVICE_ATTR_RW(eid_mode);

static struct attribute *ubcore_dev_attrs[ARRAY_SIZE(ubcore_cap_attrs) + 4] = {
	&dev_attr_driver_name.attr,
	&dev_attr_netdev.attr,
	&dev_attr_eid_mode.attr,
	/* the capabilities follow, filled in by ubcore_sysfs_init() */
};

static const struct attribute_group ubcore_dev_group = {
	.attrs = ubcore_dev_attrs,
};

static const char * const ubcore_port_state_names[] = {
	[UBCORE_PORT_NOP] = "NOP",
	[UBCORE_PORT_DOWN] = "DOWN",
	[UBCORE_PORT_INIT] = "INIT",
	[UBCORE_PORT_ARMED] = "ARMED",
	[UBCORE_PORT_ACTIVE] = "ACTIVE",
	[UBCORE_PORT_ACTIVE_DEFER] = "ACTIVE_DEFER",
};

static ssize_t state_show(struct device *device, struct device_attribute *attr,
			  char *buf)
{
	enum ubcore_port_state state =
		READ_ONCE(to_ubcore_device(device)->port_state);

	if (state >= ARRAY_SIZE(ubcore_port_state_names))
		return -EIO;
	return sysfs_emit(buf, "%s\n", ubcore_port_state_names[state]);
}
static DEVICE_ATTR_RO(state);

/* The active MTU in bytes (enum ubcore_mtu n stands for 128 << n). */
static ssize_t active_mtu_show(struct device *device,
			       struct device_attribute *attr, char *buf)
{
	enum ubcore_mtu mtu = READ_ONCE(to_ubcore_device(device)->active_mtu);

	return sysfs_emit(buf, "%u\n", mtu ? 128U << mtu : 0);
}
static DEVICE_ATTR_RO(active_mtu);

static struct attribute *ubcore_port_attrs[] = {
	&dev_attr_state.attr,
	&dev_attr_active_mtu.attr,
	NULL,
};

static const struct attribute_group ubcore_port_group = {
	.name = "port0",
	.attrs = ubcore_port_attrs,
};

/* eids/eid<N>: the attribute's var holds N. */
static char ubcore_eid_attr_names[UBCORE_MAX_EID_CNT][8];
static struct dev_ext_attribute ubcore_eid_attrs[UBCORE_MAX_EID_CNT];
static struct attribute *ubcore_eid_attr_list[UBCORE_MAX_EID_CNT + 1];

static ssize_t eid_show(struct device *device, struct device_attribute *attr,
			char *buf)
{
	u32 idx = (uintptr_t)container_of(attr, struct dev_ext_attribute, attr)->var;
	char text[UBCORE_EID_STR_LEN + 1];
	union ubcore_eid eid;
	int ret;

	ret = ubcore_get_eid(to_ubcore_device(device), idx, &eid);
	if (ret)
		return ret;
	ret = ubcore_eid_format(&eid, text, sizeof(text));
	if (ret < 0)
		return ret;
	return sysfs_emit(buf, "%s\n", text);
}

static umode_t ubcore_eid_visible(struct kobject *kobj, struct attribute *attr,
				  int n)
{
	struct ubcore_device *dev = to_ubcore_device(kobj_to_dev(kobj));

	return READ_ONCE(dev->eid_table[n].valid) ? attr->mode : 0;
}

static const struct attribute_group ubcore_eid_group = {
	.name = "eids",
	.attrs = ubcore_eid_attr_list,
	.is_visible = ubcore_eid_visible,
};

/* objects/<type>: live objects of an enum ubcore_obj_type (the var). */
static ssize_t obj_cnt_show(struct device *device,
			    struct device_attribute *attr, char *buf)
{
	uintptr_t type = (uintptr_t)container_of(attr, struct dev_ext_attribute,
						 attr)->var;

	return sysfs_emit(buf, "%d\n",
			  atomic_read(&to_ubcore_device(device)->obj_cnt[type]));
}

static ssize_t pinned_pages_show(struct device *device,
				 struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%lld\n",
			  atomic64_read(&to_ubcore_device(device)->pinned_pages));
}
static DEVICE_ATTR_RO(pinned_pages);

static ssize_t orphan_ring_pages_show(struct device *device,
				      struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%lld\n",
			  atomic64_read(&to_ubcore_device(device)->orphan_ring_pages));
}
static DEVICE_ATTR_RO(orphan_ring_pages);

static struct dev_ext_attribute ubcore_obj_attrs[UBCORE_OBJ_TYPE_MAX];
static struct attribute *ubcore_obj_attr_list[UBCORE_OBJ_TYPE_MAX + 3];

static const struct attribute_group ubcore_obj_group = {
	.name = "objects",
	.attrs = ubcore_obj_attr_list,
};

/*
 * limits/<type>: the most objects of an enum ubcore_obj_type (the var) one
 * user context may have alive (dev->ctx_limit); creating one more fails
 * with -ENOSPC for that context alone. Objects that exist stay when a
 * limit is lowered below their number.
 *
 * user_limits/<type> (var: the type | UBCORE_LIMIT_USER): the most
 * objects of a type that the contexts of one user may have together, and
 * user_limits/ucontext the most contexts of one user (dev->user_limit,
 * user_share.c); the same rules.
 */
#define UBCORE_LIMIT_USER	0x100

static u32 *ubcore_limit_field(struct device *device,
			       struct device_attribute *attr)
{
	struct ubcore_device *dev = to_ubcore_device(device);
	uintptr_t var = (uintptr_t)container_of(attr, struct dev_ext_attribute,
						attr)->var;
	uintptr_t type = var & ~UBCORE_LIMIT_USER;

	if (var & UBCORE_LIMIT_USER)
		return &dev->user_limit[type];
	return type < UBCORE_OBJ_TYPE_MAX ? &dev->ctx_limit[type] :
					    &dev->ctx_ring_pages;
}

static ssize_t limit_show(struct device *device, struct device_attribute *attr,
			  char *buf)
{
	return sysfs_emit(buf, "%u\n", READ_ONCE(*ubcore_limit_field(device, attr)));
}

static ssize_t limit_store(struct device *device, struct device_attribute *attr,
			   const char *buf, size_t count)
{
	u32 v;
	int ret;

	ret = kstrtou32(buf, 0, &v);
	if (ret)
		return ret;
	WRITE_ONCE(*ubcore_limit_field(device, attr), v);
	return count;
}

/* One per object type but ucontext, and ring_pages (var UBCORE_OBJ_TYPE_MAX). */
static struct dev_ext_attribute ubcore_limit_attrs[UBCORE_OBJ_TYPE_MAX];
static struct attribute *ubcore_limit_attr_list[UBCORE_OBJ_TYPE_MAX + 1];

static const struct attribute_group ubcore_limit_group = {
	.name = "limits",
	.attrs = ubcore_limit_attr_list,
};

static struct dev_ext_attribute ubcore_user_limit_attrs[UBCORE_OBJ_TYPE_MAX];
static struct attribute *ubcore_user_limit_attr_list[UBCORE_OBJ_TYPE_MAX + 1];

static const struct attribute_group ubcore_user_limit_group = {
	.name = "user_limits",
	.attrs = ubcore_user_limit_attr_list,
};

/*
 * bond/ of a bonding device: mode (standalone, active_backup, balance),
 * peers (bonding EIDs it has addresses of) and members, one line each:
 * "<dev> up|down active|inactive <packets sent through it>".
 */
static const char * const ubcore_bond_mode_names[] = {
	[UBAGG_BOND_STANDALONE] = "standalone",
	[UBAGG_BOND_ACTIVE_BACKUP] = "active_backup",
	[UBAGG_BOND_BALANCE] = "balance",
};

static ssize_t bond_mode_show(struct device *device,
			      struct device_attribute *attr, char *buf)
{
	struct ubcore_bond_info info;
	int ret;

	ret = ubcore_bond_query(to_ubcore_device(device), &info);
	if (ret)
		return ret;
	if (info.mode >= ARRAY_SIZE(ubcore_bond_mode_names))
		return -EIO;
	return sysfs_emit(buf, "%s\n", ubcore_bond_mode_names[info.mode]);
}

static ssize_t bond_peers_show(struct device *device,
			       struct device_attribute *attr, char *buf)
{
	struct ubcore_bond_info info;
	int ret;

	ret = ubcore_bond_query(to_ubcore_device(device), &info);
	return ret ? ret : sysfs_emit(buf, "%u\n", info.peer_cnt);
}

static ssize_t bond_members_show(struct device *device,
				 struct device_attribute *attr, char *buf)
{
	struct ubcore_bond_info info;
	int ret, len = 0;
	u32 i;

	ret = ubcore_bond_query(to_ubcore_device(device), &info);
	if (ret)
		return ret;
	for (i = 0; i < info.member_cnt && i < UBCORE_BOND_MAX_MEMBERS; i++)
		len += sysfs_emit_at(buf, len, "%s %s %s %llu\n",
				     info.member[i].name,
				     info.member[i].up ? "up" : "down",
				     info.member[i].active ? "active" :
							     "inactive",
				     info.member[i].tx_packets);
	return len;
}

static struct device_attribute dev_attr_bond_mode =
	__ATTR(mode, 0444, bond_mode_show, NULL);
static struct device_attribute dev_attr_bond_peers =
	__ATTR(peers, 0444, bond_peers_show, NULL);
static struct device_attribute dev_attr_bond_members =
	__ATTR(members, 0444, bond_members_show, NULL);

static struct attribute *ubcore_bond_attrs[] = {
	&dev_attr_bond_mode.attr,
	&dev_attr_bond_peers.attr,
	&dev_attr_bond_members.attr,
	NULL,
};

static const struct attribute_group ubcore_bond_group = {
	.name = "bond",
	.attrs = ubcore_bond_attrs,
};

const struct attribute_group *ubcore_device_groups[] = {
	&ubcore_dev_group,
	&ubcore_port_group,
	&ubcore_eid_group,
	&ubcore_obj_group,
	&ubcore_access_fail_group,
	&ubcore_limit_group,
	&ubcore_user_limit_group,
	&ubcore_cm_group,
	NULL,
};

/**
 * ubcore_sysfs_set_groups() - the sysfs groups of a device
 * @dev: a device about to be added (before device_add()), its ops set
 *
 * ubcore's groups, then the provider's ops->device_group if it has one,
 * then bond/ for a bonding device.
 */
void ubcore_sysfs_set_groups(struct ubcore_device *dev)
{
	size_t n = ARRAY_SIZE(ubcore_device_groups) - 1;

	/* room for the provider's group, bond/ and the terminating NULL */
	BUILD_BUG_ON(ARRAY_SIZE(ubcore_device_groups) + 2 >
		     ARRAY_SIZE(dev->groups));
	memset(dev->groups, 0, sizeof(dev->groups));
	memcpy(dev->groups, ubcore_device_groups, n * sizeof(dev->groups[0]));
	if (dev->ops->device_group)
		dev->groups[n++] = dev->ops->device_group;
	if (dev->is_bond)
		dev->groups[n] = &ubcore_bond_group;
	dev->dev.groups = dev->groups;
}

/* The first retry of a failed eids/ update, and the longest back-off. */
#define UBCORE_EID_SYSFS_DELAY_MIN	msecs_to_jiffies(10)
#define UBCORE_EID_SYSFS_DELAY_MAX	HZ

/*
 * Show the files of the EIDs that are valid now. Under eid_sysfs_lock, so
 * the last of concurrent updates reads the table last; one that fails
 * (e.g. -ENOMEM: sysfs_update_group() then removed the group's files) is
 * retried from eid_sysfs_work with a back-off until it succeeds. Sleeps;
 * the caller does not hold eid_lock.
 */
void ubcore_eid_sysfs_update(struct ubcore_device *dev)
{
	int ret;

	mutex_lock(&dev->eid_sysfs_lock);
	if (!dev->eid_sysfs_live)
		goto unlock;
	ret = sysfs_update_group(&dev->dev.kobj, &ubcore_eid_group);
	if (!ret) {
		if (dev->eid_sysfs_delay)
			dev_info(&dev->dev, "eids/ in sysfs updated\n");
		dev->eid_sysfs_delay = 0;
		goto unlock;
	}
	dev->eid_sysfs_delay = clamp_t(unsigned long,
				       dev->eid_sysfs_delay * 2,
				       UBCORE_EID_SYSFS_DELAY_MIN,
				       UBCORE_EID_SYSFS_DELAY_MAX);
	dev_warn_ratelimited(&dev->dev,
			     "cannot update eids/ in sysfs: %d, retrying in %u ms\n",
			     ret, jiffies_to_msecs(dev->eid_sysfs_delay));
	mod_delayed_work(system_wq, &dev->eid_sysfs_work, dev->eid_sysfs_delay);
unlock:
	mutex_unlock(&dev->eid_sysfs_lock);
}

static void ubcore_eid_sysfs_retry(struct work_struct *work)
{
	ubcore_eid_sysfs_update(container_of(to_delayed_work(work),
					     struct ubcore_device,
					     eid_sysfs_work));
}

/* Before the first update: the device's directory is in sysfs. */
void ubcore_eid_sysfs_start(struct ubcore_device *dev)
{
	mutex_lock(&dev->eid_sysfs_lock);
	dev->eid_sysfs_live = true;
	mutex_unlock(&dev->eid_sysfs_lock);
}

/* Before device_del(): no update runs or is queued after this. Sleeps. */
void ubcore_eid_sysfs_stop(struct ubcore_device *dev)
{
	mutex_lock(&dev->eid_sysfs_lock);
	dev->eid_sysfs_live = false;
	mutex_unlock(&dev->eid_sysfs_lock);
	cancel_delayed_work_sync(&dev->eid_sysfs_work);
}

void ubcore_eid_sysfs_init_dev(struct ubcore_device *dev)
{
	mutex_init(&dev->eid_sysfs_lock);
	INIT_DELAYED_WORK(&dev->eid_sysfs_work, ubcore_eid_sysfs_retry);
}

void ubcore_sysfs_init(void)
{
	u32 i;

	for (i = 0; i < ARRAY_SIZE(ubcore_cap_attrs); i++)
		ubcore_dev_attrs[3 + i] = &ubcore_cap_attrs[i].attr.attr;

	for (i = 0; i < UBCORE_MAX_EID_CNT; i++) {
		struct dev_ext_attribute *ea = &ubcore_eid_attrs[i];

		snprintf(ubcore_eid_attr_names[i], sizeof(ubcore_eid_attr_names[i]),
			 "eid%u", i);
		ea->attr.attr.name = ubcore_eid_attr_names[i];
		ea->attr.attr.mode = 0444;
		ea->attr.show = eid_show;
		ea->var = (void *)(uintptr_t)i;
		ubcore_eid_attr_list[i] = &ea->attr.attr;
	}

	for (i = 0; i < UBCORE_OBJ_TYPE_MAX; i++) {
		struct dev_ext_attribute *ea = &ubcore_obj_attrs[i];

		ea->attr.attr.name = ubcore_obj_type_names[i];
		ea->attr.attr.mode = 0444;
		ea->attr.show = obj_cnt_show;
		ea->var = (void *)(uintptr_t)i;
		ubcore_obj_attr_list[i] = &ea->attr.attr;
	}
	ubcore_obj_attr_list[UBCORE_OBJ_TYPE_MAX] = &dev_attr_pinned_pages.attr;
	ubcore_obj_attr_list[UBCORE_OBJ_TYPE_MAX + 1] =
		&dev_attr_orphan_ring_pages.attr;

	for (i = 0; i < UBCORE_OBJ_TYPE_MAX; i++) {
		struct dev_ext_attribute *ea = &ubcore_limit_attrs[i];
		/* ucontext has no per-context limit: its slot is ring_pages */
		bool rings = i == UBCORE_OBJ_UCONTEXT;

		ea->attr.attr.name = rings ? "ring_pages" : ubcore_obj_type_names[i];
		ea->attr.attr.mode = 0644;
		ea->attr.show = limit_show;
		ea->attr.store = limit_store;
		ea->var = (void *)(uintptr_t)(rings ? UBCORE_OBJ_TYPE_MAX : i);
		ubcore_limit_attr_list[i] = &ea->attr.attr;

		ea = &ubcore_user_limit_attrs[i];
		ea->attr.attr.name = ubcore_obj_type_names[i];
		ea->attr.attr.mode = 0644;
		ea->attr.show = limit_show;
		ea->attr.store = limit_store;
		ea->var = (void *)(uintptr_t)(i | UBCORE_LIMIT_USER);
		ubcore_user_limit_attr_list[i] = &ea->attr.attr;
	}
}
