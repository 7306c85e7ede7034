/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * What the files of ubcore.ko share with each other, and nothing else.
 */
#ifndef _UBCORE_PRIV_H
#define _UBCORE_PRIV_H

#include <linux/atomic.h>
#include <linux/mutex.h>
#include <linux/rwsem.h>
#include <linux/xarray.h>

#include <ub/ubcore_device.h>

extern struct class ubcore_class;
extern struct rw_semaphore ubcore_devices_rwsem;
extern struct mutex ubcore_devices_list_lock;
extern const struct attribute_group *ubcore_device_groups[];
void ubcore_sysfs_set_groups(struct ubcore_device *dev);
/* access_fail.c */
extern const struct attribute_group ubcore_access_fail_group;
void ubcore_access_fail_init(struct ubcore_device *dev);
/* tp.c */
extern const struct attribute_group ubcore_cm_group;

int ubcore_device_get_live(struct ubcore_device *dev);
void ubcore_device_put_live(struct ubcore_device *dev);
/* Registered devices; iterate with ubcore_devices_rwsem held. */
extern struct list_head ubcore_devices;
#define ubcore_for_each_device(dev) \
	list_for_each_entry(dev, &ubcore_devices, list_node)

/* EID table operations; the caller holds dev->eid_lock. */
int ubcore_eid_table_sync(struct ubcore_eid_entry *table, u32 size,
			  const union ubcore_eid *addrs, u32 n,
			  unsigned long *changed);
int ubcore_eid_table_add(struct ubcore_eid_entry *table, u32 size, u32 idx,
			 const union ubcore_eid *eid);
int ubcore_eid_table_del(struct ubcore_eid_entry *table, u32 size, u32 idx);

void ubcore_eid_sync_addrs(struct ubcore_device *dev,
			   const union ubcore_eid *addrs, u32 n);
/* eid_index.c */
void ubcore_eid_index_sync(struct ubcore_device *dev);
void ubcore_eid_index_set(struct ubcore_device *dev, bool on);
void ubcore_eid_sysfs_update(struct ubcore_device *dev);
void ubcore_eid_sysfs_init_dev(struct ubcore_device *dev);
void ubcore_eid_sysfs_start(struct ubcore_device *dev);
void ubcore_eid_sysfs_stop(struct ubcore_device *dev);

/* logical.c: logical devices, EIDs' namespaces, automatic mode */
extern struct mutex ubcore_logical_mutex;
void ubcore_eid_changed(struct ubcore_device *dev, const unsigned long *changed);
void ubcore_eid_distribute(struct ubcore_device *phys);
void ubcore_eid_raise_all(struct ubcore_device *phys);
int ubcore_eid_use(struct ubcore_device *dev, u32 idx, bool need_eid);
void ubcore_eid_unuse(struct ubcore_device *dev, u32 idx);
void ubcore_logical_detach(struct ubcore_device *l);
void ubcore_logical_remove_all(struct ubcore_device *phys);
void ubcore_logical_dev_registered(struct ubcore_device *phys);
int ubcore_expose_device(struct ubcore_device *phys, struct net *net);
int ubcore_unexpose_device(struct ubcore_device *phys, struct net *net);
int ubcore_eid_set_ns(struct ubcore_device *phys, u32 idx, struct net *net);
struct net *ubcore_eid_get_ns(struct ubcore_device *phys, u32 idx);
int ubcore_dev_set_ns(struct ubcore_device *phys, struct net *net);
int ubcore_set_dev_sharing(bool on);
bool ubcore_get_dev_sharing(void);
int ubcore_logical_init(void);
void ubcore_logical_exit(void);
/* device.c */
void ubcore_clients_attach(struct ubcore_device *dev);
void ubcore_clients_detach(struct ubcore_device *dev);

void ubcore_sysfs_init(void);
int ubcore_newlink(const char *type, const char *name,
		   struct net_device *netdev);

/* Follow the bound netdev (addresses, carrier, MTU). */
void ubcore_netdev_sync_device(struct ubcore_device *dev);
int ubcore_netdev_init(void);
void ubcore_netdev_exit(void);

/* The generic netlink family "ubcore" (netlink.c). */
int ubcore_netlink_init(void);
void ubcore_netlink_exit(void);

/*
 * Objects (obj.c): what the object files share.
 *
 * A caller's bad parameter is refused with -EINVAL and one debug line
 * naming it: return ubcore_inval(dev, "jfs depth %u", cfg->depth);
 */
#define ubcore_inval(ubdev, fmt, ...) ({				\
	dev_dbg_ratelimited(&(ubdev)->dev, "invalid " fmt "\n", ##__VA_ARGS__); \
	-EINVAL;							\
})

/* The context of a caller: NULL for a kernel caller. */
static inline struct ubcore_ucontext *ubcore_udata_uctx(struct ubcore_udata *udata)
{
	return udata ? udata->uctx : NULL;
}

/*
 * Use counts (jfc->use_cnt, jfr->use_cnt, token_id->use_cnt): users take
 * one with ubcore_use_get(), which fails once the object is being deleted;
 * delete claims an unused object with ubcore_use_claim(), which sets the
 * count to -1 so that no user can come in later.
 */
static inline bool ubcore_use_get(atomic_t *cnt)
{
	return atomic_inc_unless_negative(cnt);
}

static inline void ubcore_use_put(atomic_t *cnt)
{
	atomic_dec(cnt);
}

static inline bool ubcore_use_claim(atomic_t *cnt)
{
	return atomic_cmpxchg(cnt, 0, -1) == 0;
}

int ubcore_check_udata(struct ubcore_device *dev, struct ubcore_udata *udata);
int ubcore_check_trans_mode(struct ubcore_device *dev, u32 trans_mode,
			    const char *what);
int ubcore_check_jfc(struct ubcore_device *dev, struct ubcore_jfc *jfc,
		     struct ubcore_udata *udata, const char *what);
int ubcore_check_jfs_cfg(struct ubcore_device *dev,
			 const struct ubcore_jfs_cfg *cfg,
			 struct ubcore_udata *udata, const char *what);
int ubcore_check_jetty_state(struct ubcore_device *dev,
			     enum ubcore_jetty_state from,
			     enum ubcore_jetty_state to);

void ubcore_ctx_limits_init(struct ubcore_device *dev);

/*
 * struct ubcore_user_share - the objects of one user on one device
 * (user_share.c)
 * @uid: the user (its effective UID in the initial user namespace)
 * @ctxs: its contexts on the device (under ubcore_device.user_lock)
 * @cnt: its live objects per enum ubcore_obj_type, at most
 *	ubcore_device.user_limit (atomic: counted by the creating and
 *	deleting calls of any of its contexts, unlocked)
 */
struct ubcore_user_share {
	u32 uid;
	u32 ctxs;
	atomic_t cnt[UBCORE_OBJ_TYPE_MAX];
};

void ubcore_user_limits_init(struct ubcore_device *dev);
struct ubcore_user_share *ubcore_user_share_get(struct ubcore_device *dev);
void ubcore_user_share_put(struct ubcore_device *dev,
			   struct ubcore_user_share *s);
int ubcore_obj_cnt_get(struct ubcore_device *dev, struct ubcore_ucontext *uctx,
		       enum ubcore_obj_type type, u32 max);
void ubcore_obj_cnt_inc(struct ubcore_device *dev, enum ubcore_obj_type type);
void ubcore_obj_cnt_put(struct ubcore_device *dev, struct ubcore_ucontext *uctx,
			enum ubcore_obj_type type);
void ubcore_obj_warn_leaks(struct ubcore_device *dev);
extern const char * const ubcore_obj_type_names[UBCORE_OBJ_TYPE_MAX];

int ubcore_id_reserve(struct xarray *xa, u32 id, struct xa_limit limit,
		      u32 *out);
int ubcore_jetty_id_reserve(struct ubcore_device *dev,
			    enum ubcore_obj_type type, u32 max, u32 id,
			    struct ubcore_udata *udata, u32 *out);
void ubcore_jetty_id_unreserve(struct ubcore_device *dev,
			       struct ubcore_ucontext *uctx,
			       enum ubcore_obj_type type, u32 id);
void ubcore_id_publish(struct xarray *xa, u32 id, void *entry);
void *ubcore_id_find_get(struct xarray *xa, u32 id, unsigned int tag,
			 size_t ref_offset);

/* Jetty groups (jetty_grp.c): a jetty's membership. */
int ubcore_jetty_grp_join(struct ubcore_device *dev,
			  const struct ubcore_jetty_cfg *cfg,
			  struct ubcore_udata *udata);
void ubcore_jetty_grp_unjoin(struct ubcore_jetty_grp *grp);
void ubcore_jetty_grp_add(struct ubcore_jetty_grp *grp,
			  struct ubcore_jetty *jetty);
void ubcore_jetty_grp_leave(struct ubcore_jetty_grp *grp,
			    struct ubcore_jetty *jetty);
struct ubcore_jetty *ubcore_jetty_grp_find_get_member(struct ubcore_device *dev,
						      u32 id);

/* Data path (dp.c): unbind a jetty being deleted. */
void ubcore_jetty_drop_binding(struct ubcore_jetty *jetty);

#endif /* _UBCORE_PRIV_H */
