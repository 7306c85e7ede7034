// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * Device commands: capabilities, port state and the EID table.
 */
#include <linux/slab.h>
#include <linux/uaccess.h>

#include <uapi/ub/uburma_ioctl.h>

#include "uburma.h"

int uburma_cmd_query_device(struct uburma_file *ufile, void *args)
{
	struct uburma_cmd_query_device *cmd = args;
	struct ubcore_device *ub_dev = ufile->udev->ub_dev;
	const struct ubcore_device_cap *cap = &ub_dev->cap;

	cmd->out.max_jfc = cap->max_jfc;
	cmd->out.max_jfs = cap->max_jfs;
	cmd->out.max_jfr = cap->max_jfr;
	cmd->out.max_jetty = cap->max_jetty;
	cmd->out.max_jfc_depth = cap->max_jfc_depth;
	cmd->out.max_jfs_depth = cap->max_jfs_depth;
	cmd->out.max_jfr_depth = cap->max_jfr_depth;
	cmd->out.max_jfs_sge = cap->max_jfs_sge;
	cmd->out.max_jfs_rsge = cap->max_jfs_rsge;
	cmd->out.max_jfr_sge = cap->max_jfr_sge;
	cmd->out.max_jfs_inline_size = cap->max_jfs_inline_size;
	cmd->out.max_token_id = cap->max_token_id;
	cmd->out.max_msg_size = cap->max_msg_size;
	cmd->out.max_write_size = cap->max_write_size;
	cmd->out.max_read_size = cap->max_read_size;
	cmd->out.atomic_feature = cap->atomic_feature;
	cmd->out.trans_mode = cap->trans_mode;
	cmd->out.congestion_ctrl_alg = cap->congestion_ctrl_alg;
	cmd->out.reserved_jetty_id_max = cap->reserved_jetty_id_max;
	cmd->out.port_state = READ_ONCE(ub_dev->port_state);
	cmd->out.active_mtu = READ_ONCE(ub_dev->active_mtu);
	cmd->out.max_jetty_grp = cap->max_jetty_grp;
	cmd->out.max_jetty_in_jetty_grp = cap->max_jetty_in_jetty_grp;
	return 0;
}

/*
 * UBURMA_CMD_F_UNLOCKED: the list is read under udev->lock and copied out
 * after it, which a stalled user page must not hold.
 */
int uburma_cmd_get_eid_list(struct uburma_file *ufile, void *args)
{
	struct uburma_cmd_get_eid_list *cmd = args;
	struct uburma_device *udev = ufile->udev;
	struct uburma_eid_info *infos;
	struct ubcore_device *ub_dev;
	union ubcore_eid eid;
	u32 idx, cnt = 0;
	int ret = 0;

	if (cmd->in.max_cnt > UBCORE_MAX_EID_CNT)
		cmd->in.max_cnt = UBCORE_MAX_EID_CNT;
	infos = kcalloc(cmd->in.max_cnt, sizeof(*infos), GFP_KERNEL);
	if (!infos && cmd->in.max_cnt)
		return -ENOMEM;
	down_read(&udev->lock);
	ub_dev = udev->ub_dev;
	for (idx = 0; ub_dev && idx < UBCORE_MAX_EID_CNT &&
	     cnt < cmd->in.max_cnt; idx++) {
		if (ubcore_get_eid(ub_dev, idx, &eid))
			continue;
		memcpy(infos[cnt].eid, eid.raw, sizeof(infos[cnt].eid));
		infos[cnt].eid_index = idx;
		cnt++;
	}
	up_read(&udev->lock);
	if (!ub_dev)
		ret = -EIO;
	else if (copy_to_user(u64_to_user_ptr(cmd->in.eids_addr), infos,
			      array_size(cnt, sizeof(*infos))))
		ret = -EFAULT;
	cmd->out.cnt = cnt;
	kfree(infos);
	return ret;
}
