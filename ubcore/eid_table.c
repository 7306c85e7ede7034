// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * A device's EID table: static entries that an administrator adds at an
 * index, and dynamic entries that mirror the bound netdev's addresses in the
 * free slots. These helpers only edit a table; locking, events and sysfs are
 * the caller's (eid.c, netdev.c), so the rules can be unit tested.
 */
#include <linux/bitmap.h>
#include <linux/errno.h>
#include <linux/export.h>
#include <linux/string.h>

#include <kunit/visibility.h>

#include <ub/ubcore_event.h>

#include "ubcore_priv.h"

static bool eid_equal(const union ubcore_eid *a, const union ubcore_eid *b)
{
	return !memcmp(a->raw, b->raw, sizeof(a->raw));
}

static int eid_find(const struct ubcore_eid_entry *table, u32 size,
		    const union ubcore_eid *eid)
{
	u32 i;

	for (i = 0; i < size; i++)
		if (table[i].valid && eid_equal(&table[i].eid, eid))
			return i;
	return -1;
}

/*
 * ubcore_eid_table_sync() - make the dynamic entries equal @addrs
 * @table, @size: the table
 * @addrs, @n: the netdev's addresses now (an empty list in static mode)
 * @changed: bitmap of @size bits; indexes whose entry changed are set
 *
 * Dynamic entries that are not in @addrs are removed; addresses not yet in
 * the table take the lowest free slots; static entries are never touched
 * and an address equal to a static EID is not added again.
 *
 * Return: 0, or -ENOSPC when some addresses found no free slot (the table
 * holds as many as fit).
 */
int ubcore_eid_table_sync(struct ubcore_eid_entry *table, u32 size,
			  const union ubcore_eid *addrs, u32 n,
			  unsigned long *changed)
{
	u32 i, j, slot = 0;
	int ret = 0;

	for (i = 0; i < size; i++) {
		if (!table[i].valid || table[i].is_static)
			continue;
		for (j = 0; j < n; j++)
			if (eid_equal(&table[i].eid, &addrs[j]))
				break;
		if (j == n) {
			memset(&table[i], 0, sizeof(table[i]));
			set_bit(i, changed);
		}
	}
	for (j = 0; j < n; j++) {
		if (eid_find(table, size, &addrs[j]) >= 0)
			continue;
		while (slot < size && table[slot].valid)
			slot++;
		if (slot == size) {
			ret = -ENOSPC;
			break;
		}
		table[slot].eid = addrs[j];
		table[slot].valid = true;
		table[slot].is_static = false;
		set_bit(slot, changed);
	}
	return ret;
}
EXPORT_SYMBOL_IF_KUNIT(ubcore_eid_table_sync);

/*
 * ubcore_eid_table_add() - add a static EID at @idx
 *
 * Return: 0; -EINVAL if @idx is out of range; -EEXIST if the EID is already
 * in the table or @idx holds a static EID; -EBUSY if @idx holds a dynamic
 * EID (switch to static mode, or pick another index).
 */
int ubcore_eid_table_add(struct ubcore_eid_entry *table, u32 size, u32 idx,
			 const union ubcore_eid *eid)
{
	if (idx >= size)
		return -EINVAL;
	if (eid_find(table, size, eid) >= 0)
		return -EEXIST;
	if (table[idx].valid)
		return table[idx].is_static ? -EEXIST : -EBUSY;
	table[idx].eid = *eid;
	table[idx].valid = true;
	table[idx].is_static = true;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(ubcore_eid_table_add);

/*
 * ubcore_eid_table_del() - remove the static EID at @idx
 *
 * Return: 0; -EINVAL if @idx is out of range; -ENOENT if @idx is empty;
 * -EPERM if it holds a dynamic EID (those follow the netdev).
 */
int ubcore_eid_table_del(struct ubcore_eid_entry *table, u32 size, u32 idx)
{
	if (idx >= size)
		return -EINVAL;
	if (!table[idx].valid)
		return -ENOENT;
	if (!table[idx].is_static)
		return -EPERM;
	memset(&table[idx], 0, sizeof(table[idx]));
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(ubcore_eid_table_del);

/* Tell event handlers and sysfs about the entries in @changed. */
void ubcore_eid_changed(struct ubcore_device *dev, const unsigned long *changed)
{
	struct ubcore_event event = {
		.dev = dev,
		.type = UBCORE_EVENT_EID_CHANGE,
	};
	unsigned int idx;

	if (bitmap_empty(changed, UBCORE_MAX_EID_CNT))
		return;
	for_each_set_bit(idx, changed, UBCORE_MAX_EID_CNT) {
		event.element.eid_idx = idx;
		ubcore_dispatch_async_event(&event);
	}
	ubcore_eid_sysfs_update(dev);
}

/*
 * ubcore_eid_sync_addrs() - mirror the netdev's addresses into the table
 * @dev: the device
 * @addrs, @n: the netdev's addresses now
 *
 * In static mode the dynamic entries are dropped instead.
 */
void ubcore_eid_sync_addrs(struct ubcore_device *dev,
			   const union ubcore_eid *addrs, u32 n)
{
	DECLARE_BITMAP(changed, UBCORE_MAX_EID_CNT) = {};
	int ret;

	mutex_lock(&dev->eid_lock);
	if (dev->eid_mode == UBCORE_EID_MODE_STATIC)
		n = 0;
	ret = ubcore_eid_table_sync(dev->eid_all, UBCORE_MAX_EID_CNT,
				    addrs, n, changed);
	ubcore_eid_distribute(dev);
	mutex_unlock(&dev->eid_lock);
	if (ret)
		dev_warn_ratelimited(&dev->dev,
				     "EID table full, not every address of %s is an EID\n",
				     dev->netdev ? netdev_name(dev->netdev) : "?");
	ubcore_eid_raise_all(dev);
}

/* Add @eid at @idx, or delete the entry at @idx when @eid is NULL. */
static int ubcore_edit_static_eid(struct ubcore_device *dev, u32 idx,
				  const union ubcore_eid *eid)
{
	int ret;

	ret = ubcore_device_get_live(dev);
	if (ret)
		return ret;
	mutex_lock(&dev->eid_lock);
	if (ubcore_dev_is_logical(dev))
		ret = -EOPNOTSUPP;
	else if (eid)
		ret = ubcore_eid_table_add(dev->eid_all, UBCORE_MAX_EID_CNT,
					   idx, eid);
	else
		ret = ubcore_eid_table_del(dev->eid_all, UBCORE_MAX_EID_CNT,
					   idx);
	if (!ret)
		ubcore_eid_distribute(dev);
	mutex_unlock(&dev->eid_lock);
	if (!ret)
		ubcore_eid_raise_all(dev);
	ubcore_device_put_live(dev);
	return ret;
}

/**
 * ubcore_add_static_eid() - add an administrator's EID to a device
 * @dev: the device
 * @idx: the table index, below UBCORE_MAX_EID_CNT
 * @eid: the EID
 *
 * Return: 0, -ENODEV (device going away), -EOPNOTSUPP (a logical device:
 * EIDs are added to its physical device and given a namespace), or
 * -EINVAL, -EEXIST, -EBUSY as ubcore_eid_table_add() says.
 */
int ubcore_add_static_eid(struct ubcore_device *dev, u32 idx,
			  const union ubcore_eid *eid)
{
	return ubcore_edit_static_eid(dev, idx, eid);
}
EXPORT_SYMBOL_GPL(ubcore_add_static_eid);

/**
 * ubcore_del_static_eid() - remove an administrator's EID from a device
 * @dev: the device
 * @idx: its table index
 *
 * Return: 0, -ENODEV (device going away), -EOPNOTSUPP (a logical device),
 * or -EINVAL, -ENOENT, -EPERM as ubcore_eid_table_del() says.
 */
int ubcore_del_static_eid(struct ubcore_device *dev, u32 idx)
{
	return ubcore_edit_static_eid(dev, idx, NULL);
}
EXPORT_SYMBOL_GPL(ubcore_del_static_eid);

/**
 * ubcore_set_eid_mode() - choose how a device's EID table is filled
 * @dev: the device
 * @mode: UBCORE_EID_MODE_DYNAMIC (follow the netdev's addresses) or
 *	UBCORE_EID_MODE_STATIC (only an administrator's EIDs)
 *
 * Switching to static drops the dynamic entries; switching to dynamic
 * fills the table from the netdev again. Sleeps (takes rtnl_lock).
 *
 * Return: 0, -EINVAL for an unknown mode, -ENODEV (device going away),
 * -EOPNOTSUPP for a logical device (its physical device's mode rules).
 */
int ubcore_set_eid_mode(struct ubcore_device *dev, enum ubcore_eid_mode mode)
{
	int ret;

	if (mode != UBCORE_EID_MODE_DYNAMIC && mode != UBCORE_EID_MODE_STATIC)
		return -EINVAL;
	if (ubcore_dev_is_logical(dev))
		return -EOPNOTSUPP;
	ret = ubcore_device_get_live(dev);
	if (ret)
		return ret;
	mutex_lock(&dev->eid_lock);
	dev->eid_mode = mode;
	mutex_unlock(&dev->eid_lock);
	ubcore_netdev_sync_device(dev);
	ubcore_device_put_live(dev);
	return 0;
}
EXPORT_SYMBOL_GPL(ubcore_set_eid_mode);

/**
 * ubcore_get_eid() - read one entry of a device's EID table
 * @dev: the device
 * @idx: the table index
 * @eid: the EID, on success
 *
 * Reads under the table's seqlock (ubcore_device.eid_seq), not its
 * mutex: the data path asks for a queue's source EID in softirq.
 *
 * Context: any context but hard interrupt; does not sleep.
 * Return: 0, -EINVAL if @idx is out of range, -ENOENT if the slot is empty.
 */
int ubcore_get_eid(struct ubcore_device *dev, u32 idx, union ubcore_eid *eid)
{
	const struct ubcore_eid_entry *e;
	unsigned int seq;
	bool valid;

	if (idx >= UBCORE_MAX_EID_CNT)
		return -EINVAL;
	e = &dev->eid_table[idx];
	do {
		seq = read_seqbegin(&dev->eid_seq);
		valid = e->valid;
		if (valid)
			*eid = e->eid;
	} while (read_seqretry(&dev->eid_seq, seq));
	return valid ? 0 : -ENOENT;
}
EXPORT_SYMBOL_GPL(ubcore_get_eid);
