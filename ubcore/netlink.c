// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * The generic netlink family "ubcore" (include/uapi/ub/ubcore_netlink.h):
 * administrators list UB devices, create and remove them on netdevs, and
 * edit their EID tables; SYS_GET tells what ubcore is. The listing of a
 * device's objects (RES_GET) is in netlink_res.c.
 *
 * Locking. The family has parallel_ops: genetlink takes no lock around the
 * handlers (genl_mutex is global to every family, and creating or removing a
 * device runs the clients' callbacks, which may take long), and netlink.c
 * has no state of its own to protect. The handlers run in process context
 * without rtnl_lock and rely on ubcore's locks, in ubcore's order:
 * ubcore_link_lock (newlink) -> the provider's locks ->
 * ubcore_devices_rwsem -> rtnl_lock -> eid_lock.
 *
 * - DEV_ADD and DEV_DEL call the provider's newlink and dellink, which
 *   register and unregister devices (ubcore_devices_rwsem for write): they
 *   are called with no ubcore lock held, the device pinned only by its
 *   reference and its provider module by a module reference.
 * - A device is described with ubcore_devices_rwsem held for read while it
 *   is registered, which keeps its netdev held.
 * - A dump keeps no device between its passes: each pass looks the device
 *   up again by name, so that a reader that stops reading keeps no device,
 *   and no provider module, alive.
 *
 * Namespaces. A device is seen only from its network namespace
 * (ubcore_dev_net()), the one of the requesting socket: elsewhere it does
 * not exist (-ENODEV), and dumps and SYS_GET's count leave it out.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/ctype.h>
#include <linux/err.h>
#include <linux/lockdep.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/netdevice.h>
#include <linux/rtnetlink.h>
#include <linux/string.h>
#include <net/genetlink.h>
#include <net/netlink.h>
#include <net/sock.h>

#include <uapi/ub/ubcore_abi.h>
#include <uapi/ub/ubcore_netlink.h>

#include "netlink.h"
#include "ubcore_priv.h"

/* Longest provider name in UBCORE_NL_ATTR_LINK_TYPE. */
#define UBCORE_NL_LINK_TYPE_MAX	31

static_assert(UBCORE_NL_EID_LEN == UBCORE_EID_SIZE);
static_assert(UBCORE_NL_EID_MODE_DYNAMIC == (int)UBCORE_EID_MODE_DYNAMIC);
static_assert(UBCORE_NL_EID_MODE_STATIC == (int)UBCORE_EID_MODE_STATIC);

static struct genl_family ubcore_nl_family;

/*
 * One policy per command, all of UBCORE_NL_ATTR_MAX + 1 entries so that
 * info->attrs can be indexed by any attribute. Validation is strict: an
 * attribute left out of a command's policy is refused.
 */

/* DEV_GET, DEV_DEL, EID_GET */
static const struct nla_policy ubcore_nl_dev_policy[UBCORE_NL_ATTR_MAX + 1] = {
	[UBCORE_NL_ATTR_DEV_NAME] = { .type = NLA_NUL_STRING,
				      .len = UBCORE_MAX_DEV_NAME - 1 },
};

static const struct nla_policy ubcore_nl_dev_add_policy[UBCORE_NL_ATTR_MAX + 1] = {
	[UBCORE_NL_ATTR_DEV_NAME] = { .type = NLA_NUL_STRING,
				      .len = UBCORE_MAX_DEV_NAME - 1 },
	[UBCORE_NL_ATTR_NETDEV_NAME] = { .type = NLA_NUL_STRING,
					 .len = IFNAMSIZ - 1 },
	[UBCORE_NL_ATTR_LINK_TYPE] = { .type = NLA_NUL_STRING,
				       .len = UBCORE_NL_LINK_TYPE_MAX },
};

/* The index is range-checked by the handlers, which say -EINVAL for it. */
static const struct nla_policy ubcore_nl_eid_add_policy[UBCORE_NL_ATTR_MAX + 1] = {
	[UBCORE_NL_ATTR_DEV_NAME] = { .type = NLA_NUL_STRING,
				      .len = UBCORE_MAX_DEV_NAME - 1 },
	[UBCORE_NL_ATTR_EID_INDEX] = { .type = NLA_U32 },
	[UBCORE_NL_ATTR_EID] = NLA_POLICY_EXACT_LEN(UBCORE_NL_EID_LEN),
};

static const struct nla_policy ubcore_nl_eid_del_policy[UBCORE_NL_ATTR_MAX + 1] = {
	[UBCORE_NL_ATTR_DEV_NAME] = { .type = NLA_NUL_STRING,
				      .len = UBCORE_MAX_DEV_NAME - 1 },
	[UBCORE_NL_ATTR_EID_INDEX] = { .type = NLA_U32 },
};

static const struct nla_policy ubcore_nl_eid_mode_policy[UBCORE_NL_ATTR_MAX + 1] = {
	[UBCORE_NL_ATTR_DEV_NAME] = { .type = NLA_NUL_STRING,
				      .len = UBCORE_MAX_DEV_NAME - 1 },
	[UBCORE_NL_ATTR_EID_MODE] = { .type = NLA_U8 },
};

/**
 * ubcore_nl_missing() - is a required attribute missing?
 * @extack: the request's extended ACK; tells the sender which attribute
 *	(NLMSGERR_ATTR_MISS_TYPE)
 * @attrs: the request's attributes
 * @type: the attribute
 *
 * Return: true if it is missing.
 */
bool ubcore_nl_missing(struct netlink_ext_ack *extack,
		       struct nlattr **attrs, int type)
{
	if (attrs[type])
		return false;
	NL_SET_ERR_ATTR_MISS(extack, NULL, type);
	NL_SET_ERR_MSG(extack, "required attribute missing");
	return true;
}

/**
 * ubcore_nl_get_dev() - the device a request names
 * @net: the requester's network namespace; devices of others are not seen
 * @attrs: the request's attributes (UBCORE_NL_ATTR_DEV_NAME)
 * @extack: where to say what is wrong
 *
 * Return: the device with a reference (ubcore_put_device()), or
 * ERR_PTR(-EINVAL) (no name) or ERR_PTR(-ENODEV) (no such device in @net).
 */
struct ubcore_device *ubcore_nl_get_dev(struct net *net, struct nlattr **attrs,
					struct netlink_ext_ack *extack)
{
	struct ubcore_device *dev;

	if (ubcore_nl_missing(extack, attrs, UBCORE_NL_ATTR_DEV_NAME))
		return ERR_PTR(-EINVAL);
	dev = ubcore_get_device_by_name_net(nla_data(attrs[UBCORE_NL_ATTR_DEV_NAME]),
					    net);
	if (!dev) {
		NL_SET_ERR_MSG_ATTR(extack, attrs[UBCORE_NL_ATTR_DEV_NAME],
				    "no such UB device");
		return ERR_PTR(-ENODEV);
	}
	return dev;
}

/**
 * ubcore_nl_put_hdr() - start a message of the family
 * @skb: the message buffer
 * @portid: the receiver
 * @seq: the request's sequence number
 * @flags: netlink flags (NLM_F_MULTI in dumps)
 * @cmd: the command it answers
 *
 * Return: the family header, or NULL when @skb is full.
 */
void *ubcore_nl_put_hdr(struct sk_buff *skb, u32 portid, u32 seq, int flags,
			u8 cmd)
{
	return genlmsg_put(skb, portid, seq, &ubcore_nl_family, flags, cmd);
}

/* The capabilities, nested in UBCORE_NL_ATTR_DEV_CAP. */
static int ubcore_nl_put_caps(struct sk_buff *skb,
			      const struct ubcore_device_cap *cap)
{
	struct nlattr *nest;

	nest = nla_nest_start(skb, UBCORE_NL_ATTR_DEV_CAP);
	if (!nest)
		return -EMSGSIZE;
	if (nla_put_u32(skb, UBCORE_NL_CAP_MAX_JFC, cap->max_jfc) ||
	    nla_put_u32(skb, UBCORE_NL_CAP_MAX_JFS, cap->max_jfs) ||
	    nla_put_u32(skb, UBCORE_NL_CAP_MAX_JFR, cap->max_jfr) ||
	    nla_put_u32(skb, UBCORE_NL_CAP_MAX_JETTY, cap->max_jetty) ||
	    nla_put_u32(skb, UBCORE_NL_CAP_MAX_JFC_DEPTH, cap->max_jfc_depth) ||
	    nla_put_u32(skb, UBCORE_NL_CAP_MAX_JFS_DEPTH, cap->max_jfs_depth) ||
	    nla_put_u32(skb, UBCORE_NL_CAP_MAX_JFR_DEPTH, cap->max_jfr_depth) ||
	    nla_put_u32(skb, UBCORE_NL_CAP_MAX_JFS_SGE, cap->max_jfs_sge) ||
	    nla_put_u32(skb, UBCORE_NL_CAP_MAX_JFS_RSGE, cap->max_jfs_rsge) ||
	    nla_put_u32(skb, UBCORE_NL_CAP_MAX_JFR_SGE, cap->max_jfr_sge) ||
	    nla_put_u32(skb, UBCORE_NL_CAP_MAX_JFS_INLINE_SIZE,
			cap->max_jfs_inline_size) ||
	    nla_put_u64_64bit(skb, UBCORE_NL_CAP_MAX_MSG_SIZE,
			      cap->max_msg_size, UBCORE_NL_CAP_PAD) ||
	    nla_put_u64_64bit(skb, UBCORE_NL_CAP_MAX_WRITE_SIZE,
			      cap->max_write_size, UBCORE_NL_CAP_PAD) ||
	    nla_put_u64_64bit(skb, UBCORE_NL_CAP_MAX_READ_SIZE,
			      cap->max_read_size, UBCORE_NL_CAP_PAD) ||
	    nla_put_u32(skb, UBCORE_NL_CAP_MAX_TOKEN_ID, cap->max_token_id) ||
	    nla_put_u32(skb, UBCORE_NL_CAP_ATOMIC_FEATURE,
			cap->atomic_feature) ||
	    nla_put_u32(skb, UBCORE_NL_CAP_TRANS_MODE, cap->trans_mode) ||
	    nla_put_u32(skb, UBCORE_NL_CAP_CONGESTION_CTRL_ALG,
			cap->congestion_ctrl_alg) ||
	    nla_put_u32(skb, UBCORE_NL_CAP_RESERVED_JETTY_ID_MAX,
			cap->reserved_jetty_id_max)) {
		nla_nest_cancel(skb, nest);
		return -EMSGSIZE;
	}
	nla_nest_end(skb, nest);
	return 0;
}

/*
 * UBCORE_NL_OBJ_UCONTEXT .. _TJETTY follow enum ubcore_obj_type up to
 * UBCORE_OBJ_TJETTY; the types added later have attributes after
 * UBCORE_NL_OBJ_PINNED_PAGES.
 */
static_assert(UBCORE_NL_OBJ_UCONTEXT + UBCORE_OBJ_TJETTY ==
	      UBCORE_NL_OBJ_TJETTY);
static_assert(UBCORE_NL_OBJ_TJETTY + 1 == UBCORE_NL_OBJ_PINNED_PAGES);
static_assert(UBCORE_OBJ_TYPE_MAX - 1 == UBCORE_OBJ_JETTY_GRP);

static int ubcore_nl_obj_attr(int type)
{
	return type == UBCORE_OBJ_JETTY_GRP ? UBCORE_NL_OBJ_JETTY_GRP :
					      UBCORE_NL_OBJ_UCONTEXT + type;
}

/* The live object counts, nested in UBCORE_NL_ATTR_DEV_OBJ. */
static int ubcore_nl_put_objs(struct sk_buff *skb, struct ubcore_device *dev)
{
	struct nlattr *nest;
	int i;

	nest = nla_nest_start(skb, UBCORE_NL_ATTR_DEV_OBJ);
	if (!nest)
		return -EMSGSIZE;
	for (i = 0; i < UBCORE_OBJ_TYPE_MAX; i++) {
		if (nla_put_u32(skb, ubcore_nl_obj_attr(i),
				atomic_read(&dev->obj_cnt[i])))
			goto cancel;
	}
	if (nla_put_u64_64bit(skb, UBCORE_NL_OBJ_PINNED_PAGES,
			      atomic64_read(&dev->pinned_pages),
			      UBCORE_NL_OBJ_PAD))
		goto cancel;
	nla_nest_end(skb, nest);
	return 0;

cancel:
	nla_nest_cancel(skb, nest);
	return -EMSGSIZE;
}

/*
 * One DEV_GET message about @dev. The caller holds ubcore_devices_rwsem and
 * @dev is registered, so its netdev is held.
 */
static int ubcore_nl_fill_dev(struct sk_buff *skb, struct ubcore_device *dev,
			      u32 portid, u32 seq, int flags)
{
	char ifname[IFNAMSIZ] = "";
	enum ubcore_eid_mode mode;
	enum ubcore_mtu mtu;
	void *hdr;

	lockdep_assert_held(&ubcore_devices_rwsem);
	hdr = genlmsg_put(skb, portid, seq, &ubcore_nl_family, flags,
			  UBCORE_NL_CMD_DEV_GET);
	if (!hdr)
		return -EMSGSIZE;

	if (dev->netdev) {
		/* A netdev is renamed under rtnl_lock. */
		rtnl_lock();
		strscpy(ifname, netdev_name(dev->netdev), sizeof(ifname));
		rtnl_unlock();
	}
	mutex_lock(&dev->eid_lock);
	mode = dev->eid_mode;
	mutex_unlock(&dev->eid_lock);
	mtu = READ_ONCE(dev->active_mtu);

	if (nla_put_string(skb, UBCORE_NL_ATTR_DEV_NAME, dev->dev_name) ||
	    nla_put_string(skb, UBCORE_NL_ATTR_DRIVER_NAME,
			   dev->ops->driver_name) ||
	    (dev->netdev &&
	     nla_put_string(skb, UBCORE_NL_ATTR_NETDEV_NAME, ifname)) ||
	    nla_put_u8(skb, UBCORE_NL_ATTR_EID_MODE, mode) ||
	    nla_put_u8(skb, UBCORE_NL_ATTR_PORT_STATE,
		       READ_ONCE(dev->port_state)) ||
	    /* enum ubcore_mtu n stands for 128 << n bytes */
	    nla_put_u32(skb, UBCORE_NL_ATTR_ACTIVE_MTU, mtu ? 128U << mtu : 0) ||
	    ubcore_nl_put_caps(skb, &dev->cap) ||
	    ubcore_nl_put_objs(skb, dev) ||
	    (ubcore_dev_is_logical(dev) &&
	     nla_put_flag(skb, UBCORE_NL_ATTR_DEV_LOGICAL))) {
		genlmsg_cancel(skb, hdr);
		return -EMSGSIZE;
	}
	genlmsg_end(skb, hdr);
	return 0;
}

static int ubcore_nl_dev_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct ubcore_device *dev;
	struct sk_buff *msg;
	int ret;

	dev = ubcore_nl_get_dev(genl_info_net(info), info->attrs,
				info->extack);
	if (IS_ERR(dev))
		return PTR_ERR(dev);
	msg = genlmsg_new(NLMSG_DEFAULT_SIZE, GFP_KERNEL);
	if (!msg) {
		ret = -ENOMEM;
		goto put;
	}
	ret = ubcore_device_get_live(dev);
	if (ret) {
		NL_SET_ERR_MSG(info->extack, "UB device is going away");
		goto free;
	}
	ret = ubcore_nl_fill_dev(msg, dev, info->snd_portid, info->snd_seq, 0);
	ubcore_device_put_live(dev);
	if (ret)
		goto free;
	ubcore_put_device(dev);
	return genlmsg_reply(msg, info);

free:
	nlmsg_free(msg);
put:
	ubcore_put_device(dev);
	return ret;
}

/* cb->args[0]: how many devices of the list earlier passes described. */
static int ubcore_nl_dev_get_dumpit(struct sk_buff *skb,
				    struct netlink_callback *cb)
{
	long start = cb->args[0], idx = 0;
	struct ubcore_device *dev;
	int ret = 0;

	down_read(&ubcore_devices_rwsem);
	ubcore_for_each_device(dev) {
		if (!net_eq(ubcore_dev_net(dev), sock_net(cb->skb->sk)))
			continue;
		if (idx < start) {
			idx++;
			continue;
		}
		ret = ubcore_nl_fill_dev(skb, dev, NETLINK_CB(cb->skb).portid,
					 cb->nlh->nlmsg_seq, NLM_F_MULTI);
		if (ret)
			break;
		idx++;
	}
	up_read(&ubcore_devices_rwsem);
	cb->args[0] = idx;
	/* A message that does not fit even an empty buffer is an error. */
	return ret && !skb->len ? ret : skb->len;
}

/*
 * A device name from userspace is a format for ubcore_register_device() and
 * a directory in sysfs: printable, without '/' or white space, and without
 * '%' but in one "%d".
 */
static bool ubcore_nl_name_ok(const char *name)
{
	const char *pct = strchr(name, '%');
	const char *c;

	if (!*name || !strcmp(name, ".") || !strcmp(name, ".."))
		return false;
	if (pct && (pct[1] != 'd' || strchr(pct + 1, '%')))
		return false;
	for (c = name; *c; c++)
		if (*c == '/' || !isgraph(*c))
			return false;
	return true;
}

static int ubcore_nl_dev_add_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct netlink_ext_ack *extack = info->extack;
	struct nlattr **attrs = info->attrs;
	char name[UBCORE_MAX_DEV_NAME];
	struct net_device *netdev;
	const char *type;
	int ret;

	if (ubcore_nl_missing(extack, attrs, UBCORE_NL_ATTR_LINK_TYPE) ||
	    ubcore_nl_missing(extack, attrs, UBCORE_NL_ATTR_NETDEV_NAME))
		return -EINVAL;
	type = nla_data(attrs[UBCORE_NL_ATTR_LINK_TYPE]);

	if (attrs[UBCORE_NL_ATTR_DEV_NAME])
		nla_strscpy(name, attrs[UBCORE_NL_ATTR_DEV_NAME], sizeof(name));
	else
		snprintf(name, sizeof(name), "%s%%d", type);
	if (!ubcore_nl_name_ok(name)) {
		NL_SET_ERR_MSG_ATTR(extack, attrs[UBCORE_NL_ATTR_DEV_NAME] ?:
				    attrs[UBCORE_NL_ATTR_LINK_TYPE],
				    "invalid device name (no '/', no blanks, '%' only in one \"%d\")");
		return -EINVAL;
	}

	netdev = dev_get_by_name(genl_info_net(info),
				 nla_data(attrs[UBCORE_NL_ATTR_NETDEV_NAME]));
	if (!netdev) {
		NL_SET_ERR_MSG_ATTR(extack, attrs[UBCORE_NL_ATTR_NETDEV_NAME],
				    "no such netdev");
		return -ENODEV;
	}
	ret = ubcore_newlink(type, name, netdev);
	dev_put(netdev);

	switch (ret) {
	case 0:
		break;
	case -EOPNOTSUPP:
		NL_SET_ERR_MSG_ATTR(extack, attrs[UBCORE_NL_ATTR_LINK_TYPE],
				    "unknown device type (is its provider module loaded?)");
		break;
	case -EEXIST:
		NL_SET_ERR_MSG(extack,
			       "device name taken, or the netdev already has a device of this type");
		break;
	default:
		NL_SET_ERR_MSG(extack, "the provider could not add the device");
		break;
	}
	return ret;
}

static int ubcore_nl_dev_del_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct ubcore_device *dev;
	struct module *owner;
	int ret;

	dev = ubcore_nl_get_dev(genl_info_net(info), info->attrs,
				info->extack);
	if (IS_ERR(dev))
		return PTR_ERR(dev);
	if (ubcore_dev_is_logical(dev)) {
		/* a logical device goes as "dev unexpose" would take it */
		ret = ubcore_unexpose_device(dev->phys, ubcore_dev_net(dev));
		if (ret == -ENOENT)
			ret = -ENODEV;
		goto going;
	}
	if (!dev->ops->dellink) {
		NL_SET_ERR_MSG(info->extack,
			       "the provider does not remove devices on request");
		ret = -EOPNOTSUPP;
		goto put;
	}
	/*
	 * Keep the provider's code while calling it; a provider that is
	 * unloading removes its devices itself.
	 */
	owner = dev->ops->owner;
	if (!try_module_get(owner)) {
		ret = -ENODEV;
		goto going;
	}
	/*
	 * Do not ask for the removal of a device whose unregistration has
	 * begun. dellink unregisters, so it is called without
	 * ubcore_devices_rwsem: a removal that starts after this check is
	 * the provider's to resolve (udma answers -ENODEV).
	 */
	ret = ubcore_device_get_live(dev);
	if (!ret) {
		ubcore_device_put_live(dev);
		ret = dev->ops->dellink(dev);
	}
	module_put(owner);
going:
	if (ret == -ENODEV)
		NL_SET_ERR_MSG(info->extack, "UB device is going away");
put:
	ubcore_put_device(dev);
	return ret;
}

/* One EID_GET message about entry @idx of @dev's EID table. */
static int ubcore_nl_fill_eid(struct sk_buff *skb, struct netlink_callback *cb,
			      const struct ubcore_device *dev, u32 idx,
			      const struct ubcore_eid_entry *entry)
{
	void *hdr;

	hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid, cb->nlh->nlmsg_seq,
			  &ubcore_nl_family, NLM_F_MULTI, UBCORE_NL_CMD_EID_GET);
	if (!hdr)
		return -EMSGSIZE;
	if (nla_put_string(skb, UBCORE_NL_ATTR_DEV_NAME, dev->dev_name) ||
	    nla_put_u32(skb, UBCORE_NL_ATTR_EID_INDEX, idx) ||
	    nla_put(skb, UBCORE_NL_ATTR_EID, sizeof(entry->eid.raw),
		    entry->eid.raw) ||
	    (entry->is_static &&
	     nla_put_flag(skb, UBCORE_NL_ATTR_EID_STATIC))) {
		genlmsg_cancel(skb, hdr);
		return -EMSGSIZE;
	}
	genlmsg_end(skb, hdr);
	return 0;
}

/* Refuse a dump of an unknown device with an error, not an empty dump. */
static int ubcore_nl_eid_get_start(struct netlink_callback *cb)
{
	struct ubcore_device *dev;

	dev = ubcore_nl_get_dev(sock_net(cb->skb->sk),
				genl_dumpit_info(cb)->attrs, cb->extack);
	if (IS_ERR(dev))
		return PTR_ERR(dev);
	ubcore_put_device(dev);
	return 0;
}

/* cb->args[0]: the next index of the EID table to look at. */
static int ubcore_nl_eid_get_dumpit(struct sk_buff *skb,
				    struct netlink_callback *cb)
{
	struct ubcore_eid_entry entry;
	struct ubcore_device *dev;
	int ret = 0;
	u32 idx;

	dev = ubcore_nl_get_dev(sock_net(cb->skb->sk),
				genl_dumpit_info(cb)->attrs, cb->extack);
	if (IS_ERR(dev))
		return PTR_ERR(dev);
	for (idx = cb->args[0]; idx < UBCORE_MAX_EID_CNT; idx++) {
		mutex_lock(&dev->eid_lock);
		entry = dev->eid_table[idx];
		mutex_unlock(&dev->eid_lock);
		if (!entry.valid)
			continue;
		ret = ubcore_nl_fill_eid(skb, cb, dev, idx, &entry);
		if (ret)
			break;
	}
	cb->args[0] = idx;
	ubcore_put_device(dev);
	return ret && !skb->len ? ret : skb->len;
}

/* The EID index of a request, checked against the size of the table. */
static int ubcore_nl_eid_index(struct genl_info *info, u32 *idx)
{
	struct nlattr *attr = info->attrs[UBCORE_NL_ATTR_EID_INDEX];

	if (ubcore_nl_missing(info->extack, info->attrs, UBCORE_NL_ATTR_EID_INDEX))
		return -EINVAL;
	*idx = nla_get_u32(attr);
	if (*idx >= UBCORE_MAX_EID_CNT) {
		NL_SET_ERR_MSG_ATTR(info->extack, attr,
				    "EID index out of range (0 .. 63)");
		return -EINVAL;
	}
	return 0;
}

static int ubcore_nl_eid_add_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct netlink_ext_ack *extack = info->extack;
	struct ubcore_device *dev;
	union ubcore_eid eid;
	u32 idx;
	int ret;

	ret = ubcore_nl_eid_index(info, &idx);
	if (ret)
		return ret;
	if (ubcore_nl_missing(extack, info->attrs, UBCORE_NL_ATTR_EID))
		return -EINVAL;
	nla_memcpy(eid.raw, info->attrs[UBCORE_NL_ATTR_EID], sizeof(eid.raw));

	dev = ubcore_nl_get_dev(genl_info_net(info), info->attrs, extack);
	if (IS_ERR(dev))
		return PTR_ERR(dev);
	ret = ubcore_add_static_eid(dev, idx, &eid);
	ubcore_put_device(dev);

	switch (ret) {
	case 0:
		break;
	case -EEXIST:
		NL_SET_ERR_MSG(extack,
			       "the EID is in the table, or the index holds a static EID");
		break;
	case -EBUSY:
		NL_SET_ERR_MSG_ATTR(extack, info->attrs[UBCORE_NL_ATTR_EID_INDEX],
				    "the index holds a dynamic EID");
		break;
	case -ENODEV:
		NL_SET_ERR_MSG(extack, "UB device is going away");
		break;
	}
	return ret;
}

static int ubcore_nl_eid_del_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct netlink_ext_ack *extack = info->extack;
	struct nlattr *idx_attr = info->attrs[UBCORE_NL_ATTR_EID_INDEX];
	struct ubcore_device *dev;
	u32 idx;
	int ret;

	ret = ubcore_nl_eid_index(info, &idx);
	if (ret)
		return ret;
	dev = ubcore_nl_get_dev(genl_info_net(info), info->attrs, extack);
	if (IS_ERR(dev))
		return PTR_ERR(dev);
	ret = ubcore_del_static_eid(dev, idx);
	ubcore_put_device(dev);

	switch (ret) {
	case 0:
		break;
	case -ENOENT:
		NL_SET_ERR_MSG_ATTR(extack, idx_attr, "no EID at this index");
		break;
	case -EPERM:
		NL_SET_ERR_MSG_ATTR(extack, idx_attr,
				    "the index holds a dynamic EID, which follows the netdev");
		break;
	case -ENODEV:
		NL_SET_ERR_MSG(extack, "UB device is going away");
		break;
	}
	return ret;
}

static int ubcore_nl_eid_set_mode_doit(struct sk_buff *skb,
				       struct genl_info *info)
{
	struct netlink_ext_ack *extack = info->extack;
	struct ubcore_device *dev;
	struct nlattr *mode_attr;
	u8 mode;
	int ret;

	if (ubcore_nl_missing(extack, info->attrs, UBCORE_NL_ATTR_EID_MODE))
		return -EINVAL;
	mode_attr = info->attrs[UBCORE_NL_ATTR_EID_MODE];
	mode = nla_get_u8(mode_attr);
	if (mode != UBCORE_NL_EID_MODE_DYNAMIC &&
	    mode != UBCORE_NL_EID_MODE_STATIC) {
		NL_SET_ERR_MSG_ATTR(extack, mode_attr,
				    "unknown EID mode (0 dynamic, 1 static)");
		return -EINVAL;
	}
	dev = ubcore_nl_get_dev(genl_info_net(info), info->attrs, extack);
	if (IS_ERR(dev))
		return PTR_ERR(dev);
	ret = ubcore_set_eid_mode(dev, mode);
	ubcore_put_device(dev);
	if (ret == -ENODEV)
		NL_SET_ERR_MSG(extack, "UB device is going away");
	return ret;
}

/* SYS_GET takes no attribute. */
static const struct nla_policy ubcore_nl_sys_policy[UBCORE_NL_ATTR_MAX + 1] = {
};

static int ubcore_nl_sys_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct ubcore_device *dev;
	struct sk_buff *msg;
	u32 count = 0;
	void *hdr;

	down_read(&ubcore_devices_rwsem);
	ubcore_for_each_device(dev)
		if (net_eq(ubcore_dev_net(dev), genl_info_net(info)))
			count++;
	up_read(&ubcore_devices_rwsem);

	msg = genlmsg_new(NLMSG_DEFAULT_SIZE, GFP_KERNEL);
	if (!msg)
		return -ENOMEM;
	hdr = ubcore_nl_put_hdr(msg, info->snd_portid, info->snd_seq, 0,
				UBCORE_NL_CMD_SYS_GET);
	if (!hdr ||
	    nla_put_u32(msg, UBCORE_NL_ATTR_SYS_DEV_COUNT, count) ||
	    nla_put_u8(msg, UBCORE_NL_ATTR_SYS_NS_MODE, UBCORE_NL_NS_EXCLUSIVE) ||
	    nla_put_u32(msg, UBCORE_NL_ATTR_SYS_NL_VERSION,
			UBCORE_GENL_FAMILY_VERSION) ||
	    nla_put_u32(msg, UBCORE_NL_ATTR_SYS_ABI_VERSION,
			UBCORE_ABI_VERSION) ||
	    nla_put_u8(msg, UBCORE_NL_ATTR_SYS_DEV_SHARING,
		       ubcore_get_dev_sharing())) {
		nlmsg_free(msg);
		return -EMSGSIZE;
	}
	genlmsg_end(msg, hdr);
	return genlmsg_reply(msg, info);
}

/* Commands that change state need CAP_NET_ADMIN; reading is open to all. */
static const struct genl_ops ubcore_nl_ops[] = {
	{
		.cmd = UBCORE_NL_CMD_DEV_GET,
		.doit = ubcore_nl_dev_get_doit,
		.dumpit = ubcore_nl_dev_get_dumpit,
		.policy = ubcore_nl_dev_policy,
		.maxattr = UBCORE_NL_ATTR_MAX,
	},
	{
		.cmd = UBCORE_NL_CMD_DEV_ADD,
		.flags = GENL_ADMIN_PERM,
		.doit = ubcore_nl_dev_add_doit,
		.policy = ubcore_nl_dev_add_policy,
		.maxattr = UBCORE_NL_ATTR_MAX,
	},
	{
		.cmd = UBCORE_NL_CMD_DEV_DEL,
		.flags = GENL_ADMIN_PERM,
		.doit = ubcore_nl_dev_del_doit,
		.policy = ubcore_nl_dev_policy,
		.maxattr = UBCORE_NL_ATTR_MAX,
	},
	{
		.cmd = UBCORE_NL_CMD_EID_GET,
		.start = ubcore_nl_eid_get_start,
		.dumpit = ubcore_nl_eid_get_dumpit,
		.policy = ubcore_nl_dev_policy,
		.maxattr = UBCORE_NL_ATTR_MAX,
	},
	{
		.cmd = UBCORE_NL_CMD_EID_ADD,
		.flags = GENL_ADMIN_PERM,
		.doit = ubcore_nl_eid_add_doit,
		.policy = ubcore_nl_eid_add_policy,
		.maxattr = UBCORE_NL_ATTR_MAX,
	},
	{
		.cmd = UBCORE_NL_CMD_EID_DEL,
		.flags = GENL_ADMIN_PERM,
		.doit = ubcore_nl_eid_del_doit,
		.policy = ubcore_nl_eid_del_policy,
		.maxattr = UBCORE_NL_ATTR_MAX,
	},
	{
		.cmd = UBCORE_NL_CMD_EID_SET_MODE,
		.flags = GENL_ADMIN_PERM,
		.doit = ubcore_nl_eid_set_mode_doit,
		.policy = ubcore_nl_eid_mode_policy,
		.maxattr = UBCORE_NL_ATTR_MAX,
	},
	{
		.cmd = UBCORE_NL_CMD_RES_GET,
		.doit = ubcore_nl_res_get_doit,
		.start = ubcore_nl_res_get_start,
		.dumpit = ubcore_nl_res_get_dumpit,
		.policy = ubcore_nl_res_policy,
		.maxattr = UBCORE_NL_ATTR_MAX,
	},
	{
		.cmd = UBCORE_NL_CMD_SYS_GET,
		.doit = ubcore_nl_sys_get_doit,
		.policy = ubcore_nl_sys_policy,
		.maxattr = UBCORE_NL_ATTR_MAX,
	},
	/* netlink_ns.c: CAP_NET_ADMIN over the target namespace too */
	{
		.cmd = UBCORE_NL_CMD_DEV_SET_NS,
		.flags = GENL_UNS_ADMIN_PERM,
		.doit = ubcore_nl_dev_set_ns_doit,
		.policy = ubcore_nl_dev_ns_policy,
		.maxattr = UBCORE_NL_ATTR_MAX,
	},
	{
		.cmd = UBCORE_NL_CMD_DEV_EXPOSE,
		.flags = GENL_UNS_ADMIN_PERM,
		.doit = ubcore_nl_dev_expose_doit,
		.policy = ubcore_nl_dev_ns_policy,
		.maxattr = UBCORE_NL_ATTR_MAX,
	},
	{
		.cmd = UBCORE_NL_CMD_DEV_UNEXPOSE,
		.flags = GENL_UNS_ADMIN_PERM,
		.doit = ubcore_nl_dev_unexpose_doit,
		.policy = ubcore_nl_dev_ns_policy,
		.maxattr = UBCORE_NL_ATTR_MAX,
	},
	{
		.cmd = UBCORE_NL_CMD_EID_SET_NS,
		.flags = GENL_UNS_ADMIN_PERM,
		.doit = ubcore_nl_eid_set_ns_doit,
		.policy = ubcore_nl_eid_ns_policy,
		.maxattr = UBCORE_NL_ATTR_MAX,
	},
	{
		.cmd = UBCORE_NL_CMD_SYS_SET,
		.flags = GENL_ADMIN_PERM,
		.doit = ubcore_nl_sys_set_doit,
		.policy = ubcore_nl_sys_set_policy,
		.maxattr = UBCORE_NL_ATTR_MAX,
	},
};

static struct genl_family ubcore_nl_family __ro_after_init = {
	.name = UBCORE_GENL_FAMILY_NAME,
	.version = UBCORE_GENL_FAMILY_VERSION,
	.netnsok = true,
	.parallel_ops = true,
	.module = THIS_MODULE,
	.ops = ubcore_nl_ops,
	.n_ops = ARRAY_SIZE(ubcore_nl_ops),
	/*
	 * A new family: every command gets the strict checks (reserved
	 * header bytes zero, no stray nlmsg_flags, attributes validated
	 * strictly against its policy).
	 */
	.resv_start_op = UBCORE_NL_CMD_DEV_GET,
};

/**
 * ubcore_netlink_init() - register the generic netlink family "ubcore"
 *
 * Return: 0 or the error of genl_register_family().
 */
int __init ubcore_netlink_init(void)
{
	return genl_register_family(&ubcore_nl_family);
}

/**
 * ubcore_netlink_exit() - unregister the generic netlink family "ubcore"
 *
 * No handler runs any more once this returns; dumps in progress hold a
 * reference to the module.
 */
void ubcore_netlink_exit(void)
{
	genl_unregister_family(&ubcore_nl_family);
}
