// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * Remote access failures. A target that refuses a remote access (a wrong
 * token, a missing right, a range outside the segment, a segment that is
 * not there) reports it with ubcore_report_access_fail(). ubcore counts the
 * failures per device, per source EID and per registered segment; a
 * segment that collects dev->access_fail.threshold of them is invalidated
 * (its remote access ends, as after a SEND with invalidate) and its owner
 * gets the async event UBCORE_EVENT_SEG_INVALID. A peer that guesses
 * 32-bit tokens gets that many guesses per segment, not 2^32.
 *
 * sysfs, /sys/class/ubcore/<dev>/access_fail/:
 *   threshold        rw, failures that invalidate a segment;
 *                    UBCORE_ACCESS_FAIL_THRESHOLD (256) by default,
 *                    0: never
 *   total            failures refused by this device as a target
 *   segs_invalidated segments invalidated for reaching the threshold
 *   sources          "<eid> <failures>" per source EID, at most
 *                    UBCORE_ACCESS_FAIL_SOURCES lines, most failures first
 *   sources_dropped  sources forgotten to make room (the one with the
 *                    fewest failures goes)
 * and per segment in RES_GET (UBCORE_NL_RES_ACCESS_FAIL).
 *
 * Locking: dev->access_fail.lock (a spinlock, irqsave: targets report from
 * any context) protects everything in dev->access_fail but the threshold
 * (READ_ONCE/WRITE_ONCE). A segment's count is an atomic_t.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/device.h>
#include <linux/export.h>
#include <linux/kernel.h>
#include <linux/sort.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/sysfs.h>

#include <ub/ubcore_event.h>

#include "ubcore_priv.h"

/* Called by ubcore_alloc_device(). */
void ubcore_access_fail_init(struct ubcore_device *dev)
{
	spin_lock_init(&dev->access_fail.lock);
	dev->access_fail.threshold = UBCORE_ACCESS_FAIL_THRESHOLD;
}

/* Count one failure of @src; the caller holds af->lock. */
static void ubcore_access_fail_source(struct ubcore_access_fail *af,
				      const union ubcore_eid *src)
{
	struct ubcore_access_fail_src *s, *fewest = NULL;
	u32 i;

	lockdep_assert_held(&af->lock);
	for (i = 0; i < af->nr_sources; i++) {
		s = &af->sources[i];
		if (!memcmp(s->eid.raw, src->raw, sizeof(src->raw))) {
			s->count++;
			return;
		}
		if (!fewest || s->count < fewest->count)
			fewest = s;
	}
	if (af->nr_sources < UBCORE_ACCESS_FAIL_SOURCES) {
		s = &af->sources[af->nr_sources++];
	} else {
		s = fewest;
		af->sources_dropped++;
	}
	s->eid = *src;
	s->count = 1;
}

/**
 * ubcore_report_access_fail() - count a remote access a target refused
 * @dev: the target device
 * @tseg: the registered segment the access named (the caller holds a
 *	reference), or NULL when there is none (no such token ID or range,
 *	or a message refused by its JFR's token)
 * @src: the initiator's EID
 *
 * When @tseg reaches the threshold it is invalidated and its owner gets
 * UBCORE_EVENT_SEG_INVALID (element.seg names it for the handlers, which
 * run before this returns).
 *
 * Context: any context.
 */
void ubcore_report_access_fail(struct ubcore_device *dev,
			       struct ubcore_target_seg *tseg,
			       const union ubcore_eid *src)
{
	struct ubcore_access_fail *af = &dev->access_fail;
	u32 threshold = READ_ONCE(af->threshold);
	struct ubcore_event event = {
		.dev = dev,
		.type = UBCORE_EVENT_SEG_INVALID,
	};
	unsigned long flags;

	spin_lock_irqsave(&af->lock, flags);
	af->total++;
	ubcore_access_fail_source(af, src);
	spin_unlock_irqrestore(&af->lock, flags);

	if (!tseg || !threshold ||
	    atomic_inc_return(&tseg->access_fail) != threshold)
		return;
	ubcore_invalidate_seg(tseg);
	spin_lock_irqsave(&af->lock, flags);
	af->segs_invalidated++;
	spin_unlock_irqrestore(&af->lock, flags);
	dev_warn_ratelimited(&dev->dev,
			     "segment of token id %u invalidated after %u refused remote accesses (last from %pI6c)\n",
			     tseg->seg.token_id, threshold, src->raw);
	event.element.seg = tseg;
	ubcore_dispatch_async_event(&event);
}
EXPORT_SYMBOL_GPL(ubcore_report_access_fail);

static struct ubcore_access_fail *to_af(struct device *device)
{
	return &to_ubcore_device(device)->access_fail;
}

static ssize_t threshold_show(struct device *device,
			      struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%u\n", READ_ONCE(to_af(device)->threshold));
}

/* A new threshold applies to the failures counted from now on. */
static ssize_t threshold_store(struct device *device,
			       struct device_attribute *attr, const char *buf,
			       size_t count)
{
	u32 v;
	int ret;

	ret = kstrtou32(buf, 0, &v);
	if (ret)
		return ret;
	WRITE_ONCE(to_af(device)->threshold, v);
	dev_info(device, "access_fail threshold %u\n", v);
	return count;
}
static DEVICE_ATTR_RW(threshold);

/*
 * A u64 of struct ubcore_access_fail, read under its lock; the attribute's
 * var is its offset.
 */
static ssize_t ubcore_af_u64_show(struct device *device,
				  struct device_attribute *attr, char *buf)
{
	size_t offset = (uintptr_t)container_of(attr, struct dev_ext_attribute,
						attr)->var;
	struct ubcore_access_fail *af = to_af(device);
	unsigned long flags;
	u64 v;

	spin_lock_irqsave(&af->lock, flags);
	v = *(u64 *)((u8 *)af + offset);
	spin_unlock_irqrestore(&af->lock, flags);
	return sysfs_emit(buf, "%llu\n", v);
}

static struct dev_ext_attribute ubcore_af_total = {
	__ATTR(total, 0444, ubcore_af_u64_show, NULL),
	(void *)offsetof(struct ubcore_access_fail, total),
};

static struct dev_ext_attribute ubcore_af_segs_invalidated = {
	__ATTR(segs_invalidated, 0444, ubcore_af_u64_show, NULL),
	(void *)offsetof(struct ubcore_access_fail, segs_invalidated),
};

static struct dev_ext_attribute ubcore_af_sources_dropped = {
	__ATTR(sources_dropped, 0444, ubcore_af_u64_show, NULL),
	(void *)offsetof(struct ubcore_access_fail, sources_dropped),
};

static int ubcore_af_src_cmp(const void *a, const void *b)
{
	const struct ubcore_access_fail_src *x = a, *y = b;

	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	return memcmp(x->eid.raw, y->eid.raw, sizeof(x->eid.raw));
}

static ssize_t sources_show(struct device *device,
			    struct device_attribute *attr, char *buf)
{
	struct ubcore_access_fail_src *copy;
	struct ubcore_access_fail *af = to_af(device);
	char text[UBCORE_EID_STR_LEN + 1];
	unsigned long flags;
	ssize_t len = 0;
	u32 i, n;

	copy = kmalloc_array(UBCORE_ACCESS_FAIL_SOURCES, sizeof(*copy),
			     GFP_KERNEL);
	if (!copy)
		return -ENOMEM;
	spin_lock_irqsave(&af->lock, flags);
	n = af->nr_sources;
	memcpy(copy, af->sources, n * sizeof(*copy));
	spin_unlock_irqrestore(&af->lock, flags);
	sort(copy, n, sizeof(*copy), ubcore_af_src_cmp, NULL);
	for (i = 0; i < n; i++) {
		if (ubcore_eid_format(&copy[i].eid, text, sizeof(text)) < 0)
			continue;
		len += sysfs_emit_at(buf, len, "%s %llu\n", text,
				     copy[i].count);
	}
	kfree(copy);
	return len;
}
static DEVICE_ATTR_RO(sources);

static struct attribute *ubcore_af_attrs[] = {
	&dev_attr_threshold.attr,
	&ubcore_af_total.attr.attr,
	&ubcore_af_segs_invalidated.attr.attr,
	&dev_attr_sources.attr,
	&ubcore_af_sources_dropped.attr.attr,
	NULL,
};

const struct attribute_group ubcore_access_fail_group = {
	.name = "access_fail",
	.attrs = ubcore_af_attrs,
};
