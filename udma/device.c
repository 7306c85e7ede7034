// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * One udma device on one netdev: allocation, capabilities, port state,
 * registration with ubcore and removal, whoever asks for it (module load
 * and unload, an administrator, the netdev going away).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/lockdep.h>
#include <linux/mutex.h>
#include <linux/netdevice.h>
#include <linux/rtnetlink.h>
#include <linux/wait_bit.h>
#include <kunit/visibility.h>

#include "mgmt.h"
#include "udma.h"

/*
 * Locking of the udma devices.
 *
 * udma_reg_mutex serializes every registration and unregistration of a udma
 * device with ubcore: creation (module load, newlink) and removal (dellink,
 * the reaper work of netdev.c, module unload). Devices are added to and
 * taken off udma_dev_list only with it held, so under it the list and
 * ubcore's view of our devices agree. It protects udma_exiting.
 *
 * udma_list_lock protects udma_dev_list and each device's ->list and
 * ->netdev_gone. The netdev notifier takes it under rtnl_lock, which is why
 * it is separate from udma_reg_mutex: ubcore registers and unregisters under
 * ubcore_devices_rwsem and takes rtnl_lock inside it, so those calls are
 * made with udma_reg_mutex held, never with udma_list_lock (or rtnl_lock).
 *
 * Lock order: ubcore_link_lock (newlink) -> udma_reg_mutex ->
 * ubcore_devices_rwsem -> rtnl_lock -> udma_list_lock.
 *
 * ubcore must call ops->dellink and link_ops->newlink with neither
 * ubcore_devices_rwsem nor rtnl_lock held.
 *
 * Life of a device: it joins udma_dev_list (if its netdev is still
 * registered) just before ubcore_register_device(), all under
 * udma_reg_mutex. Whoever takes it off the list again, under both locks,
 * owns its removal: dellink, the reaper (for a device the notifier marked
 * ->netdev_gone) or module unload. A remover that finds the device off the
 * list leaves it alone; a device is thus unregistered exactly once.
 */
static DEFINE_MUTEX(udma_reg_mutex);
/* The module is going away: no more devices (udma_reg_mutex). */
static bool udma_exiting;
static DEFINE_MUTEX(udma_list_lock);
static LIST_HEAD(udma_dev_list);

/*
 * Allocated udma devices whose udma_release() has not run yet. ubcore calls
 * udma_release() from the last put of the device, which a lookup holder
 * (netlink, sysfs) may do after we dropped our reference: module unload
 * waits for this to reach zero, as ubcore still reads our ops table and
 * calls our release then. No lock; wake_up_var() after the last decrement.
 */
static atomic_t udma_nr_devs = ATOMIC_INIT(0);

static unsigned int udma_mtu_bytes(enum ubcore_mtu mtu)
{
	return 256U << (mtu - UBCORE_MTU_256);
}

/* The largest UB MTU whose payload fits in a packet at @ndev_mtu. */
static enum ubcore_mtu udma_path_mtu(unsigned int ndev_mtu)
{
	unsigned int payload;
	enum ubcore_mtu m;

	payload = ndev_mtu > UDMA_UBOE_HDR_LEN ? ndev_mtu - UDMA_UBOE_HDR_LEN : 0;
	for (m = UBCORE_MTU_8192; m > UBCORE_MTU_256; m--)
		if (udma_mtu_bytes(m) <= payload)
			break;
	return m;
}

/**
 * udma_path_mtu_bytes() - the port's active MTU in bytes
 * @udev: the device
 *
 * What ubcore_query_port() reports as active_mtu, from the netdev's MTU
 * now: the largest message a UM datagram carries.
 *
 * Return: 256 to 8192.
 */
u32 udma_path_mtu_bytes(const struct udma_dev *udev)
{
	return udma_mtu_bytes(udma_path_mtu(READ_ONCE(udev->netdev->mtu)));
}

static int udma_query_port(struct ubcore_device *ub_dev,
			   enum ubcore_port_state *state, enum ubcore_mtu *mtu)
{
	struct net_device *ndev = to_udma_dev(ub_dev)->netdev;
	unsigned int ndev_mtu = READ_ONCE(ndev->mtu);
	unsigned int payload;

	payload = ndev_mtu > UDMA_UBOE_HDR_LEN ? ndev_mtu - UDMA_UBOE_HDR_LEN : 0;
	*mtu = udma_path_mtu(ndev_mtu);

	/* A netdev too small for the least UB MTU cannot carry UBoE. */
	if (to_udma_dev(ub_dev)->bond)
		*state = udma_bond_port_state(to_udma_dev(ub_dev)->bond) ?
			 UBCORE_PORT_ACTIVE : UBCORE_PORT_DOWN;
	else if (netif_running(ndev) && netif_carrier_ok(ndev) &&
		 payload >= udma_mtu_bytes(UBCORE_MTU_256))
		*state = UBCORE_PORT_ACTIVE;
	else
		*state = UBCORE_PORT_DOWN;
	return 0;
}

static void udma_release(struct ubcore_device *ub_dev)
{
	struct udma_dev *udev = to_udma_dev(ub_dev);

	/* ubcore destroyed every object of the device before the last put. */
	WARN(atomic64_read(&udev->ring_bytes) ||
	     atomic64_read(&udev->seg_bytes) ||
	     atomic_read(&udev->nr_token_ids) || atomic_read(&udev->nr_segs) ||
	     atomic_read(&udev->nr_imported),
	     "udma: %s released with objects left\n", ub_dev->dev_name);
	udma_rtp_free(udev);
	udma_wire_free(udev);
	udma_bond_free(udev->bond);
	netdev_put(udev->netdev, &udev->netdev_tracker);
	/*
	 * After the decrement module unload may go on; only the return to
	 * ubcore is left of this module's code.
	 */
	if (atomic_dec_and_test(&udma_nr_devs))
		wake_up_var(&udma_nr_devs);
}

static int udma_dellink(struct ubcore_device *ub_dev);
static struct ubcore_device *udma_add_logical(struct ubcore_device *phys,
					      struct net *net);
static void udma_del_logical(struct ubcore_device *ub_dev);
static struct ubcore_device *udma_add_bond(const struct ubcore_bond_cfg *cfg);

static const struct ubcore_ops udma_ops = {
	.owner = THIS_MODULE,
	.driver_name = UDMA_DRIVER_NAME,
	.query_port = udma_query_port,
	.release = udma_release,
	.dellink = udma_dellink,

	.alloc_ucontext = udma_alloc_ucontext,
	.free_ucontext = udma_free_ucontext,
	.mmap = udma_mmap,

	.create_jfc = udma_create_jfc,
	.modify_jfc = udma_modify_jfc,
	.destroy_jfc = udma_destroy_jfc,
	.create_jfs = udma_create_jfs,
	.modify_jfs = udma_modify_jfs,
	.destroy_jfs = udma_destroy_jfs,
	.create_jfr = udma_create_jfr,
	.modify_jfr = udma_modify_jfr,
	.destroy_jfr = udma_destroy_jfr,
	.create_jetty = udma_create_jetty,
	.modify_jetty = udma_modify_jetty,
	.destroy_jetty = udma_destroy_jetty,

	.alloc_token_id = udma_alloc_token_id,
	.free_token_id = udma_free_token_id,
	.register_seg = udma_register_seg,
	.unregister_seg = udma_unregister_seg,
	.import_seg = udma_import_seg,
	.unimport_seg = udma_unimport_seg,

	.import_jfr = udma_import_jfr,
	.unimport_jfr = udma_unimport_jetty,
	.import_jetty = udma_import_jetty,
	.unimport_jetty = udma_unimport_jetty,

	.jfs_doorbell = udma_jfs_doorbell,
	.jfr_doorbell = udma_jfr_doorbell,
	.jetty_doorbell = udma_jetty_doorbell,
	.rearm_jfc = udma_rearm_jfc,
	.bind_jetty = udma_bind_jetty,
	.unbind_jetty = udma_unbind_jetty,
	.flush_jfs = udma_flush_jfs,
	.flush_jetty = udma_flush_jetty,
	.post_jfs_wr = udma_post_jfs_wr,
	.post_jfr_wr = udma_post_jfr_wr,
	.post_jetty_send_wr = udma_post_jetty_send_wr,
	.post_jetty_recv_wr = udma_post_jetty_recv_wr,
	.poll_jfc = udma_poll_jfc,

	.device_group = &udma_wire_group,
	.send_mgmt = udma_send_mgmt,
	.tp_closed = udma_tp_closed,
	.tp_defaults = udma_tp_defaults,
	.add_logical = udma_add_logical,
	.del_logical = udma_del_logical,
	.add_bond = udma_add_bond,
	.set_bond_peers = udma_set_bond_peers,
	.query_bond = udma_query_bond,
};

static void udma_set_caps(struct ubcore_device_cap *cap)
{
	cap->max_jfc = UDMA_MAX_JFC;
	cap->max_jfs = UDMA_MAX_JFS;
	cap->max_jfr = UDMA_MAX_JFR;
	cap->max_jetty = UDMA_MAX_JETTY;
	cap->max_jetty_grp = UDMA_MAX_JETTY_GRP;
	cap->max_jetty_in_jetty_grp = UDMA_MAX_JETTY_IN_GRP;
	cap->max_jfc_depth = UDMA_MAX_JFC_DEPTH;
	cap->max_jfs_depth = UDMA_MAX_JFS_DEPTH;
	cap->max_jfr_depth = UDMA_MAX_JFR_DEPTH;
	cap->max_jfs_sge = UDMA_MAX_JFS_SGE;
	cap->max_jfs_rsge = UDMA_MAX_JFS_RSGE;
	cap->max_jfr_sge = UDMA_MAX_JFR_SGE;
	cap->max_jfs_inline_size = UDMA_MAX_JFS_INLINE;
	cap->max_msg_size = UDMA_MAX_MSG_SIZE;
	cap->max_write_size = UDMA_MAX_WRITE_SIZE;
	cap->max_read_size = UDMA_MAX_READ_SIZE;
	cap->max_token_id = UDMA_MAX_TOKEN_ID;
	cap->atomic_feature = UDMA_ATOMIC_FEATURE;
	cap->trans_mode = UDMA_TRANS_MODE;
	cap->congestion_ctrl_alg = UDMA_CC_ALG;
	cap->reserved_jetty_id_max = UDMA_RESERVED_JETTY_ID_MAX;
}

/*
 * A device with ops, caps and netdev set, not registered. From here on
 * ubcore_dealloc_device() frees it, through udma_release().
 */
static struct udma_dev *udma_dev_alloc(struct net_device *ndev)
{
	struct ubcore_device *ub_dev;
	struct udma_dev *udev;

	ub_dev = ubcore_alloc_device(sizeof(*udev));
	if (!ub_dev)
		return NULL;
	udev = to_udma_dev(ub_dev);
	udev->ub_dev.ops = &udma_ops;
	udma_set_caps(&udev->ub_dev.cap);
	udev->ub_dev.netdev = ndev;
	udev->netdev = ndev;
	netdev_hold(ndev, &udev->netdev_tracker, GFP_KERNEL);
	INIT_LIST_HEAD(&udev->list);
	mutex_init(&udev->sqs_lock);
	INIT_LIST_HEAD(&udev->sqs);
	atomic_inc(&udma_nr_devs);
	udma_uboe_rx_init(udev);
	if (udma_wire_alloc(udev)) {
		ubcore_dealloc_device(&udev->ub_dev);
		return NULL;
	}
	return udev;
}

/* Leave UBoE, unregister and free a device. */
static void udma_dev_teardown(struct udma_dev *udev)
{
	udma_wire_dev_del(udev);
	/* after the receive path let go of the device: its queued packets */
	udma_uboe_rx_stop(udev);
	/* sends yet: its connection manager tells the peers it goes */
	ubcore_unregister_device(&udev->ub_dev);
	udma_wire_dev_put(udev);
	ubcore_dealloc_device(&udev->ub_dev);
}

/* Unregister and free a device the caller took off udma_dev_list. */
static void udma_dev_remove(struct udma_dev *udev)
{
	lockdep_assert_held(&udma_reg_mutex);
	udma_dev_teardown(udev);
}

/*
 * ubcore_ops.add_logical: a device on @phys's netdev, seen in @net. It is
 * not on udma_dev_list: ubcore deletes it (del_logical) before @phys, and
 * thus before @phys's removal (by whoever) goes on.
 */
static struct ubcore_device *udma_add_logical(struct ubcore_device *phys,
					      struct net *net)
{
	struct udma_dev *udev;
	int ret;

	udev = udma_dev_alloc(to_udma_dev(phys)->netdev);
	if (!udev)
		return ERR_PTR(-ENOMEM);
	/* the port is @phys's: ubcore follows the netdev for @phys only */
	udev->ub_dev.netdev = NULL;
	ret = ubcore_register_logical(&udev->ub_dev, phys, net);
	if (!ret) {
		ret = udma_wire_dev_add(udev);
		if (ret)
			ubcore_unregister_device(&udev->ub_dev);
	}
	if (ret) {
		ubcore_dealloc_device(&udev->ub_dev);
		return ERR_PTR(ret);
	}
	return &udev->ub_dev;
}

/* ubcore_ops.del_logical; may run inside udma_dev_remove() of its phys. */
static void udma_del_logical(struct ubcore_device *ub_dev)
{
	udma_dev_teardown(to_udma_dev(ub_dev));
}

/*
 * Take the first device off udma_dev_list (the one of a vanishing netdev
 * when @gone_only), claiming its removal. NULL when there is none.
 */
static struct udma_dev *udma_dev_take(bool gone_only)
{
	struct udma_dev *udev, *found = NULL;

	lockdep_assert_held(&udma_reg_mutex);
	mutex_lock(&udma_list_lock);
	list_for_each_entry(udev, &udma_dev_list, list) {
		if (!gone_only || udev->netdev_gone) {
			found = udev;
			list_del_init(&udev->list);
			break;
		}
	}
	mutex_unlock(&udma_list_lock);
	return found;
}

/*
 * The end of a device's creation, after ubcore registered it (@ret 0) or
 * refused it: UBoE's sockets and the receive path's index; on any error
 * the device leaves udma_dev_list again. udma_reg_mutex held.
 */
static int udma_dev_publish(struct udma_dev *udev, int ret)
{
	if (!ret) {
		ret = udma_wire_dev_add(udev);
		if (ret)
			ubcore_unregister_device(&udev->ub_dev);
	}
	if (ret) {
		mutex_lock(&udma_list_lock);
		list_del_init(&udev->list);
		mutex_unlock(&udma_list_lock);
	}
	return ret;
}

/**
 * udma_dev_add() - create and register a udma device on a netdev
 * @ndev: the netdev; the caller holds a reference to it
 * @name_fmt: the device name, or a format with one %d ("udma%d")
 *
 * Called without rtnl_lock. Sleeps.
 *
 * Return: 0, -EEXIST when @ndev already has a udma device, -ENODEV when
 * @ndev is being unregistered or the module is unloading, -ENOMEM, or the
 * error of ubcore_register_device().
 */
int udma_dev_add(struct net_device *ndev, const char *name_fmt)
{
	struct ubcore_device *other;
	struct udma_dev *udev;
	int ret = 0;

	mutex_lock(&udma_reg_mutex);
	if (udma_exiting) {
		ret = -ENODEV;
		goto unlock;
	}
	other = ubcore_get_device_by_netdev(ndev, &udma_ops);
	if (other) {
		pr_err("netdev %s already has udma device %s\n",
		       netdev_name(ndev), other->dev_name);
		ubcore_put_device(other);
		ret = -EEXIST;
		goto unlock;
	}
	udev = udma_dev_alloc(ndev);
	if (!udev) {
		ret = -ENOMEM;
		goto unlock;
	}

	/*
	 * Join the list only while @ndev is registered, with rtnl_lock held:
	 * NETDEV_UNREGISTER comes either before (we see reg_state and give
	 * up) or after, and then its notifier finds the device on the list.
	 */
	rtnl_lock();
	if (ndev->reg_state == NETREG_REGISTERED) {
		mutex_lock(&udma_list_lock);
		list_add_tail(&udev->list, &udma_dev_list);
		mutex_unlock(&udma_list_lock);
	} else {
		ret = -ENODEV;
	}
	rtnl_unlock();
	if (ret)
		goto free;

	/*
	 * Should the netdev go away now, the reaper waits for udma_reg_mutex,
	 * then finds the device registered (or gone, if this fails).
	 */
	ret = ubcore_register_device(&udev->ub_dev, name_fmt);
	ret = udma_dev_publish(udev, ret);
	if (ret)
		goto free;
	mutex_unlock(&udma_reg_mutex);
	return 0;

free:
	ubcore_dealloc_device(&udev->ub_dev);
unlock:
	mutex_unlock(&udma_reg_mutex);
	return ret;
}
EXPORT_SYMBOL_IF_KUNIT(udma_dev_add);

/*
 * ubcore_ops.add_bond: a device over @cfg's members, on udma_dev_list like
 * a device of a netdev, so that dellink, the reaper (a member's netdev
 * going away: udma_dev_mark_netdev_gone()) and module unload remove it.
 * Its udev->netdev is member 0's, for the path MTU (members should have
 * one MTU); ubcore follows no netdev for it.
 */
static struct ubcore_device *udma_add_bond(const struct ubcore_bond_cfg *cfg)
{
	struct udma_dev *udev;
	u32 i;
	int ret = 0;

	mutex_lock(&udma_reg_mutex);
	if (udma_exiting) {
		ret = -ENODEV;
		goto unlock;
	}
	udev = udma_dev_alloc(to_udma_dev(cfg->members[0])->netdev);
	if (!udev) {
		ret = -ENOMEM;
		goto unlock;
	}
	udev->ub_dev.netdev = NULL;
	udev->bond = udma_bond_alloc(cfg);
	if (!udev->bond) {
		ret = -ENOMEM;
		goto free;
	}

	/* as udma_dev_add(): on the list only while every member's netdev is */
	rtnl_lock();
	for (i = 0; i < cfg->member_cnt; i++)
		if (udev->bond->m[i].ndev->reg_state != NETREG_REGISTERED)
			ret = -ENODEV;
	if (!ret) {
		mutex_lock(&udma_list_lock);
		list_add_tail(&udev->list, &udma_dev_list);
		mutex_unlock(&udma_list_lock);
	}
	rtnl_unlock();
	if (ret)
		goto free;

	ret = ubcore_register_bond(&udev->ub_dev, cfg->name, cfg->net);
	ret = udma_dev_publish(udev, ret);
	if (ret)
		goto free;
	mutex_unlock(&udma_reg_mutex);
	return &udev->ub_dev;

free:
	ubcore_dealloc_device(&udev->ub_dev);
unlock:
	mutex_unlock(&udma_reg_mutex);
	return ERR_PTR(ret);
}

/* ubcore_ops.dellink: an administrator removes the device. */
static int udma_dellink(struct ubcore_device *ub_dev)
{
	struct udma_dev *udev = to_udma_dev(ub_dev);
	int ret = 0;

	/* ubcore holds a reference to @ub_dev: @udev stays valid. */
	mutex_lock(&udma_reg_mutex);
	mutex_lock(&udma_list_lock);
	if (list_empty(&udev->list))
		ret = -ENODEV;	/* already being removed by someone else */
	else
		list_del_init(&udev->list);
	mutex_unlock(&udma_list_lock);
	if (!ret)
		udma_dev_remove(udev);
	mutex_unlock(&udma_reg_mutex);
	return ret;
}

/**
 * udma_dev_mark_netdev_gone() - note that a netdev is being unregistered
 * @ndev: the netdev
 *
 * Called by the netdev notifier, under rtnl_lock, on NETDEV_UNREGISTER. The
 * device of @ndev, if any, and the bonding devices with a member on it,
 * are removed by udma_dev_reap() later: it cannot be
 * unregistered here, under rtnl_lock.
 *
 * Return: true when a device of @ndev awaits removal.
 */
bool udma_dev_mark_netdev_gone(struct net_device *ndev)
{
	struct udma_dev *udev;
	bool found = false;

	ASSERT_RTNL();
	mutex_lock(&udma_list_lock);
	list_for_each_entry(udev, &udma_dev_list, list) {
		if (udev->netdev == ndev || udma_bond_uses(udev->bond, ndev)) {
			udev->netdev_gone = true;
			found = true;
		}
	}
	mutex_unlock(&udma_list_lock);
	return found;
}

/**
 * udma_dev_show_each() - print something of every registered device
 * @m: the file
 * @show: prints @udev's part; called under udma_list_lock (a device on
 *	the list is not released meanwhile); may sleep
 *
 * For the debugfs files (the transport's state: udma_rtp_show()).
 */
void udma_dev_show_each(struct seq_file *m,
			void (*show)(struct seq_file *m, struct udma_dev *udev))
{
	struct udma_dev *udev;

	mutex_lock(&udma_list_lock);
	list_for_each_entry(udev, &udma_dev_list, list)
		show(m, udev);
	mutex_unlock(&udma_list_lock);
}

/**
 * udma_dev_reap() - remove the devices whose netdev is being unregistered
 *
 * Called from the reaper work, without locks. Sleeps.
 */
void udma_dev_reap(void)
{
	struct udma_dev *udev;

	mutex_lock(&udma_reg_mutex);
	while ((udev = udma_dev_take(true))) {
		pr_info("netdev %s is going away, removing %s\n",
			netdev_name(udev->netdev), udev->ub_dev.dev_name);
		udma_dev_remove(udev);
	}
	mutex_unlock(&udma_reg_mutex);
}

/**
 * udma_dev_remove_all() - remove every udma device, and refuse new ones
 *
 * For module unload (and a failed load). Sleeps.
 */
void udma_dev_remove_all(void)
{
	struct udma_dev *udev;

	mutex_lock(&udma_reg_mutex);
	udma_exiting = true;
	while ((udev = udma_dev_take(false)))
		udma_dev_remove(udev);
	mutex_unlock(&udma_reg_mutex);
}

/**
 * udma_dev_wait_released() - wait until ubcore has released every device
 *
 * After udma_dev_remove_all(): ubcore runs udma_release() at the last put of
 * a device, which may come from another holder after our own. Sleeps.
 */
void udma_dev_wait_released(void)
{
	wait_var_event(&udma_nr_devs, !atomic_read(&udma_nr_devs));
}
