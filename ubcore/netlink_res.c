// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * RES_GET of the "ubcore" generic netlink family: the JFCs, JFSs, JFRs,
 * jetties and registered segments of a device, one message per object
 * (urma_admin "show dev <dev> jfc|jfs|jfr|jetty|seg|tp [ID]").
 *
 * Locking. Nothing here sleeps with a lock held or keeps anything between
 * the passes of a dump but its position (cb->args):
 * - JFCs, JFSs, JFRs and jetties are found in dev->jfc_table and
 *   dev->jetty_table with xa_find() under the xarray's lock (interrupts
 *   disabled, as for every lookup of those tables), which takes a lookup
 *   reference on the object (obj_ref) as ubcore_id_find_get() does; the
 *   message is filled after the lock is dropped, with that reference held
 *   (no allocation, no sleep), then the reference goes. A reference keeps
 *   the object, its JFCs and JFR (it holds their use counts until its
 *   delete has drained it) and its user context alive.
 * - Segments are read under dev->seg_lock: a token ID found in
 *   dev->token_table under it stays valid while it is held (see
 *   ubcore_free_token_id()), and so do the segments on its list and their
 *   contexts. The message is filled under the spinlock; that is bounded by
 *   the room left in the message.
 * - A pass resumes from the next ID (cb->args[0]), looked up again with
 *   xa_find(): an object destroyed between passes is simply not found.
 *   Segments of one token ID resume by their position in its list
 *   (cb->args[1]).
 *
 * Who sees what (struct ubcore_nl_viewer): the addresses, token IDs and
 * owners of objects are shown to the user that created their context and
 * to holders of CAP_NET_ADMIN in the device's network namespace, as RDMA's
 * nldev keeps its raw resource dumps to administrators; to anyone else an
 * object says only that it is hidden (UBCORE_NL_RES_HIDDEN). A kernel
 * client's segment (its VA is a kernel address) is an administrator's to
 * see only.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/capability.h>
#include <linux/minmax.h>
#include <linux/pid.h>
#include <linux/uidgid.h>
#include <linux/xarray.h>
#include <net/sock.h>

#include "netlink.h"
#include "tp.h"
#include "ubcore_priv.h"

/* RES_GET: the ID is range-free; the type is checked by the handlers. */
const struct nla_policy ubcore_nl_res_policy[UBCORE_NL_ATTR_MAX + 1] = {
	[UBCORE_NL_ATTR_DEV_NAME] = { .type = NLA_NUL_STRING,
				      .len = UBCORE_MAX_DEV_NAME - 1 },
	[UBCORE_NL_ATTR_RES_TYPE] = { .type = NLA_U8 },
	[UBCORE_NL_ATTR_RES_ID] = { .type = NLA_U32 },
};

/* cb->args of a dump. */
enum {
	UBCORE_NL_RES_ARG_NEXT_ID,	/* the next ID to look at */
	UBCORE_NL_RES_ARG_SEG_SKIP,	/* segments of that token ID sent */
	UBCORE_NL_RES_ARG_DONE,		/* nothing left */
	UBCORE_NL_RES_ARG_CHECKED,	/* the ID of the request exists */
};

/*
 * The reader of a RES_GET: @uid, the user that opened its socket, sees the
 * objects of its own contexts; @admin (CAP_NET_ADMIN in the device's
 * namespace) sees everything.
 */
struct ubcore_nl_viewer {
	kuid_t uid;
	bool admin;
};

/* The reader of request @skb (its sending socket) about @dev. */
static void ubcore_nl_viewer_init(struct ubcore_nl_viewer *v,
				  const struct sk_buff *skb,
				  struct ubcore_device *dev)
{
	struct sock *sk = NETLINK_CB(skb).sk;

	v->uid = sock_net_uid(sock_net(sk), sk);
	v->admin = netlink_ns_capable(skb, ubcore_dev_net(dev)->user_ns,
				      CAP_NET_ADMIN);
}

/* May @v see the addresses, token IDs and owner of @uctx's objects? */
static bool ubcore_nl_sees(const struct ubcore_nl_viewer *v,
			   const struct ubcore_ucontext *uctx)
{
	return v->admin || (uctx && uid_eq(uctx->uid, v->uid));
}

/*
 * How objects of one kind are found and described: @table is the offset of
 * their ID table in struct ubcore_device (0 for the kinds that are not in
 * one: segments, TPs), @tag their tag in it, @ref_offset the offset of
 * their struct ubcore_obj_ref.
 */
struct ubcore_nl_res_kind {
	size_t table;
	unsigned int tag;
	size_t ref_offset;
	int (*fill)(struct sk_buff *skb, const void *obj,
		    const struct ubcore_nl_viewer *v);
};

/*
 * Who owns an object: a kernel client, or a user context and its creator;
 * nothing but "hidden" of another user's.
 */
static int ubcore_nl_put_owner(struct sk_buff *skb,
			       const struct ubcore_ucontext *uctx,
			       const struct ubcore_nl_viewer *v)
{
	pid_t pid;

	if (uctx && !ubcore_nl_sees(v, uctx))
		return nla_put_flag(skb, UBCORE_NL_RES_HIDDEN);
	if (!uctx)
		return nla_put_flag(skb, UBCORE_NL_RES_KERNEL);
	if (nla_put_u32(skb, UBCORE_NL_RES_UASID, uctx->uasid))
		return -EMSGSIZE;
	/* 0: the creator is gone or not visible from the reader's namespace */
	pid = pid_vnr(uctx->pid);
	return pid ? nla_put_u32(skb, UBCORE_NL_RES_PID, pid) : 0;
}

static int ubcore_nl_fill_jfc(struct sk_buff *skb, const void *obj,
			      const struct ubcore_nl_viewer *v)
{
	const struct ubcore_jfc *jfc = obj;

	if (nla_put_u32(skb, UBCORE_NL_RES_ID, jfc->id) ||
	    nla_put_u32(skb, UBCORE_NL_RES_DEPTH, jfc->cfg.depth) ||
	    nla_put_u32(skb, UBCORE_NL_RES_FLAG, jfc->cfg.flag) ||
	    (jfc->cfg.jfce_handler && nla_put_flag(skb, UBCORE_NL_RES_JFCE)) ||
	    /* -1 while a delete claims it */
	    nla_put_u32(skb, UBCORE_NL_RES_USE_CNT,
			max(atomic_read(&jfc->use_cnt), 0)))
		return -EMSGSIZE;
	return ubcore_nl_put_owner(skb, jfc->uctx, v);
}

/* The send side of a JFS or jetty. */
static int ubcore_nl_put_send(struct sk_buff *skb,
			      const struct ubcore_jfs_cfg *cfg)
{
	if (nla_put_u32(skb, UBCORE_NL_RES_DEPTH, cfg->depth) ||
	    nla_put_u32(skb, UBCORE_NL_RES_TRANS_MODE, cfg->trans_mode) ||
	    nla_put_u32(skb, UBCORE_NL_RES_JFC_ID, cfg->jfc->id) ||
	    nla_put_u8(skb, UBCORE_NL_RES_PRIORITY, cfg->priority) ||
	    nla_put_u32(skb, UBCORE_NL_RES_MAX_SGE, cfg->max_sge) ||
	    nla_put_u32(skb, UBCORE_NL_RES_MAX_INLINE, cfg->max_inline_data) ||
	    nla_put_u8(skb, UBCORE_NL_RES_RNR_RETRY, cfg->rnr_retry) ||
	    nla_put_u8(skb, UBCORE_NL_RES_ERR_TIMEOUT, cfg->err_timeout))
		return -EMSGSIZE;
	return 0;
}

static int ubcore_nl_fill_jfs(struct sk_buff *skb, const void *obj,
			      const struct ubcore_nl_viewer *v)
{
	const struct ubcore_jfs *jfs = obj;

	if (nla_put_u32(skb, UBCORE_NL_RES_ID, jfs->id) ||
	    nla_put_u32(skb, UBCORE_NL_RES_FLAG, jfs->cfg.flag) ||
	    nla_put_u8(skb, UBCORE_NL_RES_STATE, READ_ONCE(jfs->state)) ||
	    ubcore_nl_put_send(skb, &jfs->cfg))
		return -EMSGSIZE;
	return ubcore_nl_put_owner(skb, jfs->uctx, v);
}

static int ubcore_nl_fill_jfr(struct sk_buff *skb, const void *obj,
			      const struct ubcore_nl_viewer *v)
{
	const struct ubcore_jfr *jfr = obj;
	const struct ubcore_jfr_cfg *cfg = &jfr->cfg;

	if (nla_put_u32(skb, UBCORE_NL_RES_ID, jfr->id) ||
	    nla_put_u32(skb, UBCORE_NL_RES_DEPTH, cfg->depth) ||
	    nla_put_u32(skb, UBCORE_NL_RES_FLAG, cfg->flag) ||
	    nla_put_u32(skb, UBCORE_NL_RES_TRANS_MODE, cfg->trans_mode) ||
	    nla_put_u8(skb, UBCORE_NL_RES_STATE, READ_ONCE(jfr->state)) ||
	    nla_put_u32(skb, UBCORE_NL_RES_JFC_ID, cfg->jfc->id) ||
	    nla_put_u32(skb, UBCORE_NL_RES_MAX_SGE, cfg->max_sge) ||
	    nla_put_u8(skb, UBCORE_NL_RES_MIN_RNR_TIMER, cfg->min_rnr_timer) ||
	    nla_put_u32(skb, UBCORE_NL_RES_RX_THRESHOLD,
			READ_ONCE(jfr->rx_threshold)) ||
	    nla_put_u32(skb, UBCORE_NL_RES_USE_CNT,
			max(atomic_read(&jfr->use_cnt), 0)))
		return -EMSGSIZE;
	return ubcore_nl_put_owner(skb, jfr->uctx, v);
}

static int ubcore_nl_fill_jetty(struct sk_buff *skb, const void *obj,
				const struct ubcore_nl_viewer *v)
{
	const struct ubcore_jetty *jetty = obj;
	const struct ubcore_jetty_cfg *cfg = &jetty->cfg;
	const struct ubcore_jfc *recv_jfc = cfg->recv_jfc ?: cfg->jfr->cfg.jfc;

	if (nla_put_u32(skb, UBCORE_NL_RES_ID, jetty->id) ||
	    nla_put_u32(skb, UBCORE_NL_RES_FLAG, cfg->flag) ||
	    nla_put_u8(skb, UBCORE_NL_RES_STATE, READ_ONCE(jetty->state)) ||
	    ubcore_nl_put_send(skb, &cfg->jfs_cfg) ||
	    nla_put_u32(skb, UBCORE_NL_RES_JFR_ID, cfg->jfr->id) ||
	    nla_put_u32(skb, UBCORE_NL_RES_RECV_JFC_ID, recv_jfc->id) ||
	    nla_put_u32(skb, UBCORE_NL_RES_RX_THRESHOLD,
			READ_ONCE(jetty->rx_threshold)))
		return -EMSGSIZE;
	return ubcore_nl_put_owner(skb, jetty->uctx, v);
}

/*
 * A registered segment; the caller holds dev->seg_lock. Its token ID and VA
 * are what a remote access needs besides the token value: only those who
 * may see them get them.
 */
static int ubcore_nl_fill_seg(struct sk_buff *skb, const void *obj,
			      const struct ubcore_nl_viewer *v)
{
	const struct ubcore_target_seg *tseg = obj;
	const struct ubcore_seg *seg = &tseg->seg;
	bool sees = ubcore_nl_sees(v, tseg->uctx);

	if ((sees && nla_put_u32(skb, UBCORE_NL_RES_ID, seg->token_id)) ||
	    nla_put(skb, UBCORE_NL_RES_EID, sizeof(seg->ubva.eid.raw),
		    seg->ubva.eid.raw) ||
	    (sees && nla_put_u64_64bit(skb, UBCORE_NL_RES_VA, seg->ubva.va,
				       UBCORE_NL_RES_PAD)) ||
	    nla_put_u64_64bit(skb, UBCORE_NL_RES_LEN, seg->len,
			      UBCORE_NL_RES_PAD) ||
	    nla_put_u32(skb, UBCORE_NL_RES_ACCESS,
			UBCORE_SEG_FLAG_ACCESS(seg->attr)) ||
	    nla_put_u64_64bit(skb, UBCORE_NL_RES_PINNED_PAGES,
			      tseg->umem ? tseg->umem->nr_pages : 0,
			      UBCORE_NL_RES_PAD) ||
	    nla_put_u32(skb, UBCORE_NL_RES_ACCESS_FAIL,
			atomic_read(&tseg->access_fail)))
		return -EMSGSIZE;
	if (!sees)
		return nla_put_flag(skb, UBCORE_NL_RES_HIDDEN);
	return ubcore_nl_put_owner(skb, tseg->uctx, v);
}

/* A TP: @obj is a struct ubcore_tp_info (a copy taken under cm->lock). */
static int ubcore_nl_fill_tp(struct sk_buff *skb, const void *obj,
			     const struct ubcore_nl_viewer *v)
{
	const struct ubcore_tp_info *tp = obj;

	if (nla_put_u32(skb, UBCORE_NL_RES_ID, tp->tpn) ||
	    nla_put(skb, UBCORE_NL_RES_EID, UBCORE_NL_EID_LEN, tp->peer.raw) ||
	    nla_put_u32(skb, UBCORE_NL_RES_PEER_TPN, tp->peer_tpn) ||
	    nla_put_u32(skb, UBCORE_NL_RES_TRANS_MODE, tp->mode) ||
	    nla_put_u8(skb, UBCORE_NL_RES_STATE, tp->state) ||
	    nla_put_u32(skb, UBCORE_NL_RES_USERS, tp->users) ||
	    nla_put_u64_64bit(skb, UBCORE_NL_RES_AGE_MS, tp->age_ms,
			      UBCORE_NL_RES_PAD))
		return -EMSGSIZE;
	return nla_put_flag(skb, UBCORE_NL_RES_KERNEL);
}

static const struct ubcore_nl_res_kind ubcore_nl_res_kinds[__UBCORE_NL_RES_TYPE_MAX] = {
	[UBCORE_NL_RES_JFC] = {
		.table = offsetof(struct ubcore_device, jfc_table),
		.ref_offset = offsetof(struct ubcore_jfc, obj_ref),
		.fill = ubcore_nl_fill_jfc,
	},
	[UBCORE_NL_RES_JFS] = {
		.table = offsetof(struct ubcore_device, jetty_table),
		.tag = UBCORE_JETTY_TAG_JFS,
		.ref_offset = offsetof(struct ubcore_jfs, obj_ref),
		.fill = ubcore_nl_fill_jfs,
	},
	[UBCORE_NL_RES_JFR] = {
		.table = offsetof(struct ubcore_device, jetty_table),
		.tag = UBCORE_JETTY_TAG_JFR,
		.ref_offset = offsetof(struct ubcore_jfr, obj_ref),
		.fill = ubcore_nl_fill_jfr,
	},
	[UBCORE_NL_RES_JETTY] = {
		.table = offsetof(struct ubcore_device, jetty_table),
		.tag = UBCORE_JETTY_TAG_JETTY,
		.ref_offset = offsetof(struct ubcore_jetty, obj_ref),
		.fill = ubcore_nl_fill_jetty,
	},
	[UBCORE_NL_RES_SEG] = {
		.fill = ubcore_nl_fill_seg,
	},
	[UBCORE_NL_RES_TP] = {
		.fill = ubcore_nl_fill_tp,
	},
};

static struct xarray *ubcore_nl_res_table(struct ubcore_device *dev,
					  const struct ubcore_nl_res_kind *kind)
{
	return (struct xarray *)((u8 *)dev + kind->table);
}

static struct ubcore_obj_ref *ubcore_nl_res_ref(void *obj,
						const struct ubcore_nl_res_kind *kind)
{
	return (struct ubcore_obj_ref *)((u8 *)obj + kind->ref_offset);
}

/* The kind of object a request names, or NULL (and why in @extack). */
static const struct ubcore_nl_res_kind *
ubcore_nl_res_kind(struct nlattr **attrs, struct netlink_ext_ack *extack,
		   u8 *type)
{
	if (ubcore_nl_missing(extack, attrs, UBCORE_NL_ATTR_RES_TYPE))
		return NULL;
	*type = nla_get_u8(attrs[UBCORE_NL_ATTR_RES_TYPE]);
	if (*type >= __UBCORE_NL_RES_TYPE_MAX) {
		NL_SET_ERR_MSG_ATTR(extack, attrs[UBCORE_NL_ATTR_RES_TYPE],
				    "unknown object type (0 jfc, 1 jfs, 2 jfr, 3 jetty, 4 seg, 5 tp)");
		return NULL;
	}
	return &ubcore_nl_res_kinds[*type];
}

/* One RES_GET message: @obj described by @kind. */
static int ubcore_nl_res_msg(struct sk_buff *skb, u32 portid, u32 seq,
			     int flags, const struct ubcore_device *dev, u8 type,
			     const void *obj, const struct ubcore_nl_viewer *v)
{
	struct nlattr *nest;
	void *hdr;

	hdr = ubcore_nl_put_hdr(skb, portid, seq, flags, UBCORE_NL_CMD_RES_GET);
	if (!hdr)
		return -EMSGSIZE;
	if (nla_put_string(skb, UBCORE_NL_ATTR_DEV_NAME, dev->dev_name) ||
	    nla_put_u8(skb, UBCORE_NL_ATTR_RES_TYPE, type))
		goto cancel;
	nest = nla_nest_start(skb, UBCORE_NL_ATTR_RES);
	if (!nest || ubcore_nl_res_kinds[type].fill(skb, obj, v))
		goto cancel;
	nla_nest_end(skb, nest);
	genlmsg_end(skb, hdr);
	return 0;

cancel:
	genlmsg_cancel(skb, hdr);
	return -EMSGSIZE;
}

/*
 * The object of @kind with the lowest ID in *@id .. @last, with a lookup
 * reference, its ID in *@id; NULL when there is none. Objects being
 * created (reserved, NULL slots) or destroyed are skipped.
 */
static void *ubcore_nl_res_next(struct ubcore_device *dev,
				const struct ubcore_nl_res_kind *kind,
				unsigned long *id, unsigned long last)
{
	struct xarray *xa = ubcore_nl_res_table(dev, kind);
	void *entry, *obj = NULL;
	unsigned long flags;

	xa_lock_irqsave(xa, flags);
	for (entry = xa_find(xa, id, last, XA_PRESENT); entry;
	     entry = xa_find_after(xa, id, last, XA_PRESENT)) {
		if (xa_pointer_tag(entry) != kind->tag)
			continue;
		obj = xa_untag_pointer(entry);
		if (ubcore_obj_ref_get(ubcore_nl_res_ref(obj, kind)))
			break;
		obj = NULL;
	}
	xa_unlock_irqrestore(xa, flags);
	return obj;
}

/* Dump the objects of an ID table with IDs up to @last. */
static int ubcore_nl_res_dump_table(struct sk_buff *skb,
				    struct netlink_callback *cb,
				    struct ubcore_device *dev, u8 type,
				    unsigned long last,
				    const struct ubcore_nl_viewer *v)
{
	const struct ubcore_nl_res_kind *kind = &ubcore_nl_res_kinds[type];
	unsigned long id = cb->args[UBCORE_NL_RES_ARG_NEXT_ID];
	void *obj;
	int ret;

	while ((obj = ubcore_nl_res_next(dev, kind, &id, last))) {
		ret = ubcore_nl_res_msg(skb, NETLINK_CB(cb->skb).portid,
					cb->nlh->nlmsg_seq, NLM_F_MULTI, dev,
					type, obj, v);
		ubcore_obj_ref_put(ubcore_nl_res_ref(obj, kind));
		if (ret) {
			cb->args[UBCORE_NL_RES_ARG_NEXT_ID] = id;
			return ret;
		}
		if (id >= last)
			break;
		id++;
	}
	cb->args[UBCORE_NL_RES_ARG_DONE] = 1;
	return 0;
}

/* Dump the TPs with TPNs up to @last. */
static int ubcore_nl_res_dump_tps(struct sk_buff *skb,
				  struct netlink_callback *cb,
				  struct ubcore_device *dev, unsigned long last,
				  const struct ubcore_nl_viewer *v)
{
	unsigned long id = max_t(unsigned long,
				 cb->args[UBCORE_NL_RES_ARG_NEXT_ID], 1);
	struct ubcore_tp_info info;
	int ret;

	while (id <= last && id <= U32_MAX &&
	       ubcore_tp_list(dev, id, &info, 1) == 1 && info.tpn <= last) {
		ret = ubcore_nl_res_msg(skb, NETLINK_CB(cb->skb).portid,
					cb->nlh->nlmsg_seq, NLM_F_MULTI, dev,
					UBCORE_NL_RES_TP, &info, v);
		if (ret) {
			cb->args[UBCORE_NL_RES_ARG_NEXT_ID] = info.tpn;
			return ret;
		}
		id = (unsigned long)info.tpn + 1;
	}
	cb->args[UBCORE_NL_RES_ARG_DONE] = 1;
	return 0;
}

/* The TP @id of @dev, copied to @info; false if there is none. */
static bool ubcore_nl_tp_get(struct ubcore_device *dev, u32 id,
			     struct ubcore_tp_info *info)
{
	return id && ubcore_tp_list(dev, id, info, 1) == 1 && info->tpn == id;
}

/*
 * The segments of one token ID from position *@skip on; the caller holds
 * dev->seg_lock. *@skip counts what was looked at. @own_only: only those
 * @v may see (a dump by token ID).
 */
static int ubcore_nl_res_dump_token(struct sk_buff *skb,
				    struct netlink_callback *cb,
				    struct ubcore_device *dev,
				    const struct ubcore_token_id *token,
				    unsigned long *skip,
				    const struct ubcore_nl_viewer *v,
				    bool own_only)
{
	const struct ubcore_target_seg *tseg;
	unsigned long pos = 0;
	int ret;

	lockdep_assert_held(&dev->seg_lock);
	list_for_each_entry(tseg, &token->seg_list, node) {
		if (pos++ < *skip)
			continue;
		if (own_only && !ubcore_nl_sees(v, tseg->uctx)) {
			(*skip)++;
			continue;
		}
		ret = ubcore_nl_res_msg(skb, NETLINK_CB(cb->skb).portid,
					cb->nlh->nlmsg_seq, NLM_F_MULTI, dev,
					UBCORE_NL_RES_SEG, tseg, v);
		if (ret)
			return ret;
		(*skip)++;
	}
	return 0;
}

/* Dump the registered segments of token IDs up to @last. */
static int ubcore_nl_res_dump_segs(struct sk_buff *skb,
				   struct netlink_callback *cb,
				   struct ubcore_device *dev, unsigned long last,
				   const struct ubcore_nl_viewer *v, bool own_only)
{
	unsigned long id = cb->args[UBCORE_NL_RES_ARG_NEXT_ID];
	unsigned long skip = cb->args[UBCORE_NL_RES_ARG_SEG_SKIP];
	struct ubcore_token_id *token;
	unsigned long flags;
	int ret = 0;

	for (;;) {
		unsigned long want = id;

		spin_lock_irqsave(&dev->seg_lock, flags);
		token = xa_find(&dev->token_table, &id, last, XA_PRESENT);
		/* the token ID the skip counted for is gone: none to skip */
		if (id != want)
			skip = 0;
		if (token)
			ret = ubcore_nl_res_dump_token(skb, cb, dev, token,
						       &skip, v, own_only);
		spin_unlock_irqrestore(&dev->seg_lock, flags);
		if (!token || ret || id >= last)
			break;
		id++;
		skip = 0;
	}
	cb->args[UBCORE_NL_RES_ARG_NEXT_ID] = id;
	cb->args[UBCORE_NL_RES_ARG_SEG_SKIP] = skip;
	if (!ret)
		cb->args[UBCORE_NL_RES_ARG_DONE] = 1;
	return ret;
}

/* -ENOENT, with a message naming what is missing. */
static int ubcore_nl_res_missing(u8 type, struct nlattr *id_attr,
				 struct netlink_ext_ack *extack)
{
	/* extack messages are literals */
	switch (type) {
	case UBCORE_NL_RES_JFC:
		NL_SET_ERR_MSG_ATTR(extack, id_attr, "no such jfc");
		break;
	case UBCORE_NL_RES_JFS:
		NL_SET_ERR_MSG_ATTR(extack, id_attr, "no such jfs");
		break;
	case UBCORE_NL_RES_JFR:
		NL_SET_ERR_MSG_ATTR(extack, id_attr, "no such jfr");
		break;
	case UBCORE_NL_RES_JETTY:
		NL_SET_ERR_MSG_ATTR(extack, id_attr, "no such jetty");
		break;
	case UBCORE_NL_RES_SEG:
		NL_SET_ERR_MSG_ATTR(extack, id_attr, "no such token ID");
		break;
	default:
		NL_SET_ERR_MSG_ATTR(extack, id_attr, "no such tp");
		break;
	}
	return -ENOENT;
}

/*
 * Is there an object @id of @type? If not, -ENOENT and why. A token ID
 * exists for @v only if it may see its owner's segments.
 */
static int ubcore_nl_res_exists(struct ubcore_device *dev, u8 type,
				struct nlattr *id_attr,
				const struct ubcore_nl_viewer *v,
				struct netlink_ext_ack *extack)
{
	struct ubcore_token_id *token;
	const struct ubcore_nl_res_kind *kind = &ubcore_nl_res_kinds[type];
	unsigned long id = nla_get_u32(id_attr);
	unsigned long flags;
	bool found = false;
	void *obj;

	if (kind->table) {
		obj = ubcore_nl_res_next(dev, kind, &id, id);
		if (obj) {
			ubcore_obj_ref_put(ubcore_nl_res_ref(obj, kind));
			found = true;
		}
	} else if (type == UBCORE_NL_RES_SEG) {
		spin_lock_irqsave(&dev->seg_lock, flags);
		token = xa_load(&dev->token_table, id);
		found = token && ubcore_nl_sees(v, token->uctx);
		spin_unlock_irqrestore(&dev->seg_lock, flags);
	} else {
		struct ubcore_tp_info tp;

		found = ubcore_nl_tp_get(dev, id, &tp);
	}
	return found ? 0 : ubcore_nl_res_missing(type, id_attr, extack);
}

/* RES_GET do for one TP: a copy of its entry, then the reply. */
static int ubcore_nl_res_tp_doit(struct genl_info *info,
				 struct ubcore_device *dev,
				 struct nlattr *id_attr,
				 const struct ubcore_nl_viewer *v)
{
	struct ubcore_tp_info tp;
	struct sk_buff *msg;
	int ret;

	if (!ubcore_nl_tp_get(dev, nla_get_u32(id_attr), &tp))
		return ubcore_nl_res_missing(UBCORE_NL_RES_TP, id_attr,
					     info->extack);
	msg = genlmsg_new(NLMSG_DEFAULT_SIZE, GFP_KERNEL);
	if (!msg)
		return -ENOMEM;
	ret = ubcore_nl_res_msg(msg, info->snd_portid, info->snd_seq, 0, dev,
				UBCORE_NL_RES_TP, &tp, v);
	if (ret) {
		nlmsg_free(msg);
		return ret;
	}
	return genlmsg_reply(msg, info);
}

/**
 * ubcore_nl_res_get_doit() - RES_GET do: one JFC, JFS, JFR or jetty
 * @skb: the request
 * @info: its attributes and sender
 *
 * Return: 0 (the reply is sent) or a negative errno, see
 * %UBCORE_NL_CMD_RES_GET.
 */
int ubcore_nl_res_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct netlink_ext_ack *extack = info->extack;
	struct nlattr *id_attr = info->attrs[UBCORE_NL_ATTR_RES_ID];
	const struct ubcore_nl_res_kind *kind;
	struct ubcore_nl_viewer viewer;
	struct ubcore_device *dev;
	struct sk_buff *msg;
	void *obj;
	u8 type;
	int ret;

	kind = ubcore_nl_res_kind(info->attrs, extack, &type);
	if (!kind || ubcore_nl_missing(extack, info->attrs, UBCORE_NL_ATTR_RES_ID))
		return -EINVAL;
	if (type == UBCORE_NL_RES_SEG) {
		NL_SET_ERR_MSG_ATTR(extack, info->attrs[UBCORE_NL_ATTR_RES_TYPE],
				    "a token ID may name several segments: dump them");
		return -EOPNOTSUPP;
	}
	dev = ubcore_nl_get_dev(genl_info_net(info), info->attrs, extack);
	if (IS_ERR(dev))
		return PTR_ERR(dev);
	ubcore_nl_viewer_init(&viewer, skb, dev);
	if (type == UBCORE_NL_RES_TP) {
		ret = ubcore_nl_res_tp_doit(info, dev, id_attr, &viewer);
		goto put_dev;
	}
	if (!kind->table) {
		ret = ubcore_nl_res_exists(dev, type, id_attr, &viewer, extack);
		goto put_dev;
	}
	/* Allocate before the object is held: its delete waits for us. */
	msg = genlmsg_new(NLMSG_DEFAULT_SIZE, GFP_KERNEL);
	if (!msg) {
		ret = -ENOMEM;
		goto put_dev;
	}
	obj = ubcore_id_find_get(ubcore_nl_res_table(dev, kind),
				 nla_get_u32(id_attr), kind->tag,
				 kind->ref_offset);
	if (!obj) {
		ret = ubcore_nl_res_missing(type, id_attr, extack);
		nlmsg_free(msg);
		goto put_dev;
	}
	ret = ubcore_nl_res_msg(msg, info->snd_portid, info->snd_seq, 0, dev,
				type, obj, &viewer);
	ubcore_obj_ref_put(ubcore_nl_res_ref(obj, kind));
	ubcore_put_device(dev);
	if (ret) {
		nlmsg_free(msg);
		return ret;
	}
	return genlmsg_reply(msg, info);

put_dev:
	ubcore_put_device(dev);
	return ret;
}

/**
 * ubcore_nl_res_get_start() - RES_GET dump: check the request first
 * @cb: the dump
 *
 * An unknown device or type is an error of the request rather than an
 * empty dump. The ID is checked by the first pass of the dump instead:
 * start has no extended ACK to explain itself with (cb->extack is NULL
 * while it runs), and "no such jfc" says more than -ENOENT.
 *
 * Return: 0 or a negative errno, see %UBCORE_NL_CMD_RES_GET.
 */
int ubcore_nl_res_get_start(struct netlink_callback *cb)
{
	struct nlattr **attrs = genl_dumpit_info(cb)->attrs;
	struct ubcore_device *dev;
	u8 type;

	if (!ubcore_nl_res_kind(attrs, cb->extack, &type))
		return -EINVAL;
	dev = ubcore_nl_get_dev(sock_net(cb->skb->sk), attrs, cb->extack);
	if (IS_ERR(dev))
		return PTR_ERR(dev);
	ubcore_put_device(dev);
	return 0;
}

/**
 * ubcore_nl_res_get_dumpit() - RES_GET dump: the next objects
 * @skb: the message to fill
 * @cb: the dump and its position
 *
 * Return: the bytes filled (0: the dump is complete) or a negative errno.
 */
int ubcore_nl_res_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct nlattr **attrs = genl_dumpit_info(cb)->attrs;
	struct nlattr *id_attr = attrs[UBCORE_NL_ATTR_RES_ID];
	unsigned long last = U32_MAX;
	struct ubcore_nl_viewer viewer;
	struct ubcore_device *dev;
	int ret = 0;
	u8 type;

	if (cb->args[UBCORE_NL_RES_ARG_DONE])
		return 0;
	/* start checked the type */
	if (!ubcore_nl_res_kind(attrs, cb->extack, &type))
		return -EINVAL;
	dev = ubcore_nl_get_dev(sock_net(cb->skb->sk), attrs, cb->extack);
	if (IS_ERR(dev))
		return PTR_ERR(dev);
	ubcore_nl_viewer_init(&viewer, cb->skb, dev);
	if (id_attr && !cb->args[UBCORE_NL_RES_ARG_CHECKED]) {
		ret = ubcore_nl_res_exists(dev, type, id_attr, &viewer,
					   cb->extack);
		if (ret) {
			ubcore_put_device(dev);
			return ret;
		}
		cb->args[UBCORE_NL_RES_ARG_CHECKED] = 1;
	}
	if (id_attr) {
		last = nla_get_u32(id_attr);
		cb->args[UBCORE_NL_RES_ARG_NEXT_ID] =
			max_t(unsigned long,
			      cb->args[UBCORE_NL_RES_ARG_NEXT_ID], last);
	}
	if (ubcore_nl_res_kinds[type].table)
		ret = ubcore_nl_res_dump_table(skb, cb, dev, type, last,
					       &viewer);
	else if (type == UBCORE_NL_RES_SEG)
		ret = ubcore_nl_res_dump_segs(skb, cb, dev, last, &viewer,
					      !!id_attr);
	else
		ret = ubcore_nl_res_dump_tps(skb, cb, dev, last, &viewer);
	ubcore_put_device(dev);
	/* A message that does not fit even an empty buffer is an error. */
	return ret && !skb->len ? ret : skb->len;
}
