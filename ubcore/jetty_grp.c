// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * Jetty groups: RM jetties that a peer reaches under one jetty ID (it
 * imports the group, URMA_JETTY_GROUP); the target side picks one member
 * per message by the group's policy. A group is ubcore's own object (the
 * provider has no part in it) of the devices whose cap.max_jetty_grp is
 * not 0. Its ID is taken from the device's jetty space and its slot in
 * dev->jetty_table stays reserved (NULL), so no JFS, JFR or jetty gets it;
 * the group itself is in dev->jetty_grp_table.
 *
 * Membership: a jetty created with cfg.jetty_grp first holds a place in
 * the group (ubcore_jetty_grp_join(): counted in grp->joining), becomes a
 * member once it is published (ubcore_jetty_grp_add()) and leaves when it
 * is deleted, before its own references drain (ubcore_jetty_grp_leave()),
 * so a pick never returns a jetty that is going away. A group with
 * members or jetties joining cannot be deleted (-EBUSY); one being deleted
 * (grp->dead) takes no new jetty.
 */
#include <linux/err.h>
#include <linux/export.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "ubcore_priv.h"

static int ubcore_check_jetty_grp_cfg(struct ubcore_device *dev,
				      const struct ubcore_jetty_grp_cfg *cfg)
{
	if (strnlen(cfg->name, sizeof(cfg->name)) == sizeof(cfg->name))
		return ubcore_inval(dev, "jetty_grp name: no NUL in %zu bytes",
				    sizeof(cfg->name));
	if (cfg->policy != UBCORE_JETTY_GRP_POLICY_RR &&
	    cfg->policy != UBCORE_JETTY_GRP_POLICY_HASH_HINT)
		return ubcore_inval(dev, "jetty_grp policy %u", cfg->policy);
	if (cfg->flag & ~UBCORE_JETTY_GRP_FLAG_TOKEN_POLICY_MASK)
		return ubcore_inval(dev, "jetty_grp flag 0x%x", cfg->flag);
	return 0;
}

/**
 * ubcore_create_jetty_grp() - create an empty jetty group
 * @dev: the device; cap.max_jetty_grp not 0
 * @cfg: the parameters (see struct ubcore_jetty_grp_cfg)
 * @udata: a user caller's context (no provider data is used), NULL for
 *	the kernel
 *
 * The group gets jetty ID @cfg->id if it is not 0 (IDs up to
 * cap.reserved_jetty_id_max only for kernel callers), else the lowest free
 * one above the reserved IDs.
 *
 * Context: process context; may sleep.
 * Return: the group, or ERR_PTR(-EINVAL) (bad @cfg, logged at debug
 * level), ERR_PTR(-EBUSY) (@cfg->id is taken), ERR_PTR(-ENOSPC)
 * (cap.max_jetty_grp groups exist, or the context has limits/jetty_grp),
 * ERR_PTR(-EOPNOTSUPP) (the device has no jetty groups) or -ENOMEM.
 */
struct ubcore_jetty_grp *ubcore_create_jetty_grp(struct ubcore_device *dev,
						 struct ubcore_jetty_grp_cfg *cfg,
						 struct ubcore_udata *udata)
{
	struct ubcore_ucontext *uctx = ubcore_udata_uctx(udata);
	struct ubcore_jetty_grp *grp;
	u32 id;
	int ret;

	if (!dev || !cfg)
		return ERR_PTR(-EINVAL);
	if (!dev->cap.max_jetty_grp || !dev->cap.max_jetty_in_jetty_grp)
		return ERR_PTR(-EOPNOTSUPP);
	ret = ubcore_check_udata(dev, udata) ?:
	      ubcore_check_jetty_grp_cfg(dev, cfg);
	if (ret)
		return ERR_PTR(ret);
	grp = kzalloc(sizeof(*grp), GFP_KERNEL_ACCOUNT);
	if (!grp)
		return ERR_PTR(-ENOMEM);
	ret = ubcore_jetty_id_reserve(dev, UBCORE_OBJ_JETTY_GRP,
				      dev->cap.max_jetty_grp, cfg->id, udata,
				      &id);
	if (ret)
		goto err_free;
	grp->ub_dev = dev;
	grp->uctx = uctx;
	grp->id = id;
	grp->cfg = *cfg;
	grp->cfg.id = id;
	spin_lock_init(&grp->lock);
	ubcore_obj_ref_init(&grp->obj_ref);
	ret = xa_insert_irq(&dev->jetty_grp_table, id, grp, GFP_KERNEL_ACCOUNT);
	if (ret)
		goto err_id;
	return grp;

err_id:
	ubcore_jetty_id_unreserve(dev, uctx, UBCORE_OBJ_JETTY_GRP, id);
err_free:
	kfree(grp);
	return ERR_PTR(ret);
}
EXPORT_SYMBOL_GPL(ubcore_create_jetty_grp);

/**
 * ubcore_delete_jetty_grp() - destroy an empty jetty group
 * @grp: the group
 *
 * Waits until no lookup holds the group, then frees it and its jetty ID.
 *
 * Context: process context; may sleep.
 * Return: 0, or -EBUSY (jetties are in the group or joining it; nothing
 * changed).
 */
int ubcore_delete_jetty_grp(struct ubcore_jetty_grp *grp)
{
	struct ubcore_device *dev;
	unsigned long flags;
	u32 members;

	if (!grp)
		return -EINVAL;
	dev = grp->ub_dev;
	spin_lock_irqsave(&grp->lock, flags);
	members = grp->jetty_cnt + grp->joining;
	if (!members)
		grp->dead = true;
	spin_unlock_irqrestore(&grp->lock, flags);
	if (members) {
		dev_dbg_ratelimited(&dev->dev, "jetty_grp %u has %u jetties\n",
				    grp->id, members);
		return -EBUSY;
	}
	xa_erase_irq(&dev->jetty_grp_table, grp->id);
	ubcore_obj_ref_drain(&grp->obj_ref);
	ubcore_jetty_id_unreserve(dev, grp->uctx, UBCORE_OBJ_JETTY_GRP,
				  grp->id);
	kfree(grp);
	return 0;
}
EXPORT_SYMBOL_GPL(ubcore_delete_jetty_grp);

/*
 * Checks a jetty's configuration against its group (UMDK's rules: an RM
 * jetty whose JFR has the group's token value and token policy) and holds
 * a place for it: -EINVAL (logged), or -ENOSPC when the group has
 * cap.max_jetty_in_jetty_grp jetties. Undo with ubcore_jetty_grp_unjoin().
 */
int ubcore_jetty_grp_join(struct ubcore_device *dev,
			  const struct ubcore_jetty_cfg *cfg,
			  struct ubcore_udata *udata)
{
	struct ubcore_jetty_grp *grp = cfg->jetty_grp;
	const struct ubcore_jfr *jfr = cfg->jfr;
	unsigned long flags;
	int ret = 0;

	if (grp->ub_dev != dev || grp->uctx != ubcore_udata_uctx(udata))
		return ubcore_inval(dev, "jetty: jetty_grp %u of another device or context",
				    grp->id);
	if (cfg->jfs_cfg.trans_mode != UBCORE_TP_RM ||
	    jfr->cfg.trans_mode != UBCORE_TP_RM)
		return ubcore_inval(dev, "jetty in jetty_grp %u: not RM", grp->id);
	if (jfr->cfg.token_value != grp->cfg.token_value ||
	    (jfr->cfg.flag & UBCORE_JETTY_GRP_FLAG_TOKEN_POLICY_MASK) !=
	    (grp->cfg.flag & UBCORE_JETTY_GRP_FLAG_TOKEN_POLICY_MASK))
		return ubcore_inval(dev, "jetty in jetty_grp %u: jfr %u token differs",
				    grp->id, jfr->id);

	spin_lock_irqsave(&grp->lock, flags);
	if (grp->dead)
		ret = -EINVAL;
	else if (grp->jetty_cnt + grp->joining >=
		 min_t(u32, dev->cap.max_jetty_in_jetty_grp,
		       UBCORE_MAX_JETTY_IN_JETTY_GRP))
		ret = -ENOSPC;
	else
		grp->joining++;
	spin_unlock_irqrestore(&grp->lock, flags);
	if (ret == -EINVAL)
		return ubcore_inval(dev, "jetty_grp %u is being deleted", grp->id);
	if (ret)
		dev_dbg_ratelimited(&dev->dev, "jetty_grp %u is full\n", grp->id);
	return ret;
}

/* Give back the place ubcore_jetty_grp_join() held. */
void ubcore_jetty_grp_unjoin(struct ubcore_jetty_grp *grp)
{
	unsigned long flags;

	spin_lock_irqsave(&grp->lock, flags);
	grp->joining--;
	spin_unlock_irqrestore(&grp->lock, flags);
}

/* The published @jetty, which joined, becomes a member. */
void ubcore_jetty_grp_add(struct ubcore_jetty_grp *grp,
			  struct ubcore_jetty *jetty)
{
	unsigned long flags;

	spin_lock_irqsave(&grp->lock, flags);
	grp->joining--;
	grp->jetty[grp->jetty_cnt++] = jetty;
	spin_unlock_irqrestore(&grp->lock, flags);
}

/* @jetty, being deleted, leaves its group: no pick returns it after this. */
void ubcore_jetty_grp_leave(struct ubcore_jetty_grp *grp,
			    struct ubcore_jetty *jetty)
{
	unsigned long flags;
	u32 i;

	spin_lock_irqsave(&grp->lock, flags);
	for (i = 0; i < grp->jetty_cnt; i++) {
		if (grp->jetty[i] != jetty)
			continue;
		/* Keep the members from index 0 on, in their order. */
		memmove(&grp->jetty[i], &grp->jetty[i + 1],
			(grp->jetty_cnt - i - 1) * sizeof(grp->jetty[0]));
		grp->jetty[--grp->jetty_cnt] = NULL;
		if (grp->next > i)
			grp->next--;
		break;
	}
	spin_unlock_irqrestore(&grp->lock, flags);
}

/*
 * The member of @grp that a message takes, with a reference on it, or
 * NULL (no READY member). Round robin: the READY member after the last
 * one picked. Hash hint: the (hint mod members)-th member if it is READY.
 * Any context.
 */
static struct ubcore_jetty *ubcore_jetty_grp_pick(struct ubcore_jetty_grp *grp,
						  u32 hint)
{
	struct ubcore_jetty *jetty, *found = NULL;
	unsigned long flags;
	u32 i, n, k;

	spin_lock_irqsave(&grp->lock, flags);
	n = grp->jetty_cnt;
	for (i = 0; i < n; i++) {
		if (grp->cfg.policy == UBCORE_JETTY_GRP_POLICY_HASH_HINT)
			k = hint % n;
		else
			k = (grp->next + i) % n;
		jetty = grp->jetty[k];
		if (READ_ONCE(jetty->state) == UBCORE_JETTY_STATE_READY &&
		    ubcore_obj_ref_get(&jetty->obj_ref)) {
			found = jetty;
			grp->next = (k + 1) % n;
			break;
		}
		if (grp->cfg.policy == UBCORE_JETTY_GRP_POLICY_HASH_HINT)
			break;
	}
	spin_unlock_irqrestore(&grp->lock, flags);
	return found;
}

/*
 * A member of the group with jetty ID @id, picked with hint 0 (udma's
 * messages carry no target hint yet), or NULL. Any context.
 */
struct ubcore_jetty *ubcore_jetty_grp_find_get_member(struct ubcore_device *dev,
						      u32 id)
{
	struct ubcore_jetty_grp *grp;
	struct ubcore_jetty *jetty;

	grp = ubcore_id_find_get(&dev->jetty_grp_table, id, 0,
				 offsetof(struct ubcore_jetty_grp, obj_ref));
	if (!grp)
		return NULL;
	jetty = ubcore_jetty_grp_pick(grp, 0);
	ubcore_obj_ref_put(&grp->obj_ref);
	return jetty;
}
