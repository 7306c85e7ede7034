// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * roub.ko: RDMA over UB (user guide 7.1), a ubcore client. Each UB device
 * gets an ib_device "roub_<UB device>" (roub_udma0), registered when the
 * device comes and unregistered when it goes; the RDMA core's
 * unregistration has every verbs user (ib_client) release its objects on
 * it first, so a device removed with QPs live is left clean.
 *
 * ROUB_RC_MODE (the guide's environment variable, here a module
 * parameter read when a QP is created): RS, the default, or RM; the first
 * two characters, case-insensitive.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/string.h>
#include <linux/sysfs.h>

#include "roub.h"

struct workqueue_struct *roub_workq;

static enum roub_rc_mode roub_rc_mode = ROUB_RC_MODE_RS;

static int roub_rc_mode_set(const char *val, const struct kernel_param *kp)
{
	enum roub_rc_mode mode;

	if (roub_rc_mode_parse(val, &mode)) {
		pr_err("ROUB_RC_MODE must be RS or RM, not \"%s\"\n", val);
		return -EINVAL;
	}
	WRITE_ONCE(roub_rc_mode, mode);
	return 0;
}

static int roub_rc_mode_show(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%s\n",
			  READ_ONCE(roub_rc_mode) == ROUB_RC_MODE_RS ? "RS" : "RM");
}

static const struct kernel_param_ops roub_rc_mode_ops = {
	.set = roub_rc_mode_set,
	.get = roub_rc_mode_show,
};

module_param_cb(ROUB_RC_MODE, &roub_rc_mode_ops, NULL, 0644);
MODULE_PARM_DESC(ROUB_RC_MODE, "URMA mode of RC QPs: RS (URMA RC, a bound jetty pair; default) or RM (URMA RM, shared TP)");

/**
 * roub_rc_mode_get() - the mode of a QP created now
 *
 * Return: ROUB_RC_MODE's value.
 */
enum roub_rc_mode roub_rc_mode_get(void)
{
	return READ_ONCE(roub_rc_mode);
}

/**
 * roub_alloc_ucontext() - a process opens the RoUB device (uverbs)
 * @ibuc: the context
 * @udata: GET_CONTEXT's driver part; the answer is struct
 *	roub_alloc_ucontext_resp (include/uapi/ub/roub_abi.h)
 *
 * The answer names the UB device, which libroub opens with liburma for
 * its CQs, QPs and MRs; the device lives while the context does (the RDMA
 * core disassociates contexts before roub_remove() returns).
 *
 * Context: process, may sleep.
 * Return: 0 or -EFAULT.
 */
int roub_alloc_ucontext(struct ib_ucontext *ibuc, struct ib_udata *udata)
{
	struct roub_dev *rdev = to_roub_dev(ibuc->device);
	struct roub_alloc_ucontext_resp resp = {};

	BUILD_BUG_ON(sizeof(resp.ub_dev_name) < UBCORE_MAX_DEV_NAME);
	strscpy(resp.ub_dev_name, rdev->ub_dev->dev_name,
		sizeof(resp.ub_dev_name));
	/* GID 0, what kernel QPs send from too */
	resp.eid_index = 0;
	return ib_copy_to_udata(udata, &resp,
				min_t(size_t, sizeof(resp), udata->outlen));
}

void roub_dealloc_ucontext(struct ib_ucontext *ibuc)
{
}

/*
 * The device goes while a process has it open: nothing of roub's is mapped
 * into the process, so there is nothing to take back here, and having this
 * op lets the core tear the context down (its PDs, then the context)
 * without waiting for the process to close its file.
 */
static void roub_disassociate_ucontext(struct ib_ucontext *ibuc)
{
}

static const struct ib_device_ops roub_dev_ops = {
	.owner = THIS_MODULE,
	.driver_id = RDMA_DRIVER_UNKNOWN,
	.uverbs_abi_ver = ROUB_UVERBS_ABI_VERSION,

	.alloc_pd = roub_alloc_pd,
	.alloc_ucontext = roub_alloc_ucontext,
	.dealloc_ucontext = roub_dealloc_ucontext,
	.create_cq = roub_create_cq,
	.create_qp = roub_create_qp,
	.dealloc_pd = roub_dealloc_pd,
	.dereg_mr = roub_dereg_mr,
	.disassociate_ucontext = roub_disassociate_ucontext,
	.destroy_cq = roub_destroy_cq,
	.destroy_qp = roub_destroy_qp,
	.get_dma_mr = roub_get_dma_mr,
	.get_link_layer = roub_get_link_layer,
	.get_port_immutable = roub_get_port_immutable,
	.modify_qp = roub_modify_qp,
	.poll_cq = roub_poll_cq,
	.post_recv = roub_post_recv,
	.post_send = roub_post_send,
	.query_device = roub_query_device,
	.query_gid = roub_query_gid,
	.query_pkey = roub_query_pkey,
	.query_port = roub_query_port,
	.query_qp = roub_query_qp,
	.reg_user_mr = roub_reg_user_mr,
	.req_notify_cq = roub_req_notify_cq,

	INIT_RDMA_OBJ_SIZE(ib_cq, roub_cq, ibcq),
	INIT_RDMA_OBJ_SIZE(ib_pd, roub_pd, ibpd),
	INIT_RDMA_OBJ_SIZE(ib_qp, roub_qp, ibqp),
	INIT_RDMA_OBJ_SIZE(ib_ucontext, roub_ucontext, ibuc),
};

static struct ubcore_client roub_client;

/* The node GUID: the interface ID of the device's first EID, if any. */
static __be64 roub_node_guid(struct ubcore_device *ub)
{
	union ubcore_eid eid;

	if (ubcore_get_eid(ub, 0, &eid))
		return 0;
	return eid.in6.interface_id;
}

static int roub_add(struct ubcore_device *ub)
{
	char name[IB_DEVICE_NAME_MAX];
	struct roub_dev *rdev;
	int ret;

	if (!(ub->cap.trans_mode & UBCORE_TM_RC) ||
	    !(ub->cap.trans_mode & UBCORE_TM_RM)) {
		pr_warn("%s: RoUB needs the RC and RM transports\n", ub->dev_name);
		return -EOPNOTSUPP;
	}
	if (snprintf(name, sizeof(name), "roub_%s", ub->dev_name) >= sizeof(name))
		return -ENAMETOOLONG;
	rdev = ib_alloc_device(roub_dev, ibdev);
	if (!rdev)
		return -ENOMEM;
	rdev->ub_dev = ub;
	xa_init(&rdev->objs);
	xa_init(&rdev->mrs);
	rdev->max_qp = ub->cap.max_jetty / 2;
	rdev->eid_handler.event_handler = roub_eid_event;
	rdev->ibdev.node_type = RDMA_NODE_IB_CA;
	rdev->ibdev.phys_port_cnt = 1;
	rdev->ibdev.num_comp_vectors = 1;
	rdev->ibdev.node_guid = roub_node_guid(ub);
	snprintf(rdev->ibdev.node_desc, sizeof(rdev->ibdev.node_desc),
		 "RoUB %s", ub->dev_name);
	ib_set_device_ops(&rdev->ibdev, &roub_dev_ops);
	/* no DMA device: the core's virtual DMA (addresses are kernel VAs) */
	ret = ib_register_device(&rdev->ibdev, name, NULL);
	if (ret) {
		pr_warn("%s: register %s: %d\n", ub->dev_name, name, ret);
		ib_dealloc_device(&rdev->ibdev);
		return ret;
	}
	ubcore_register_event_handler(ub, &rdev->eid_handler);
	ubcore_set_client_ctx(ub, &roub_client, rdev);
	ibdev_info(&rdev->ibdev, "RoUB on %s\n", ub->dev_name);
	return 0;
}

static void roub_remove(struct ubcore_device *ub, void *ctx)
{
	struct roub_dev *rdev = ctx;

	ubcore_unregister_event_handler(ub, &rdev->eid_handler);
	/* every verbs user releases its objects on the device first */
	ib_unregister_device(&rdev->ibdev);
	WARN_ON(atomic_read(&rdev->nr_qp) || !xa_empty(&rdev->objs) ||
		!xa_empty(&rdev->mrs));
	xa_destroy(&rdev->objs);
	xa_destroy(&rdev->mrs);
	ib_dealloc_device(&rdev->ibdev);
}

static struct ubcore_client roub_client = {
	.name = "roub",
	.add = roub_add,
	.remove = roub_remove,
};

static int __init roub_init(void)
{
	int ret;

	roub_workq = alloc_workqueue("roub", 0, 0);
	if (!roub_workq)
		return -ENOMEM;
	ret = ubcore_register_client(&roub_client);
	if (ret)
		destroy_workqueue(roub_workq);
	return ret;
}

static void __exit roub_exit(void)
{
	ubcore_unregister_client(&roub_client);
	destroy_workqueue(roub_workq);
}

module_init(roub_init);
module_exit(roub_exit);

MODULE_DESCRIPTION("RDMA over UB: an ib_device per UB device");
MODULE_AUTHOR("The UB/URMA stack authors");
MODULE_LICENSE("GPL");
