// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * ubcore_ops.send_mgmt: udma only moves the connection manager's messages
 * (ubcore/tp.c). A destination EID that a device of this host owns gets the
 * message directly through ubcore_recv_mgmt(); any other needs the UBoE
 * transmit path, which this build does not have yet: such a send fails
 * with -EHOSTUNREACH and a log line, and the connection attempt with it.
 */
#include <linux/errno.h>

#include "mgmt.h"
#include "udma.h"

/**
 * udma_send_mgmt() - ubcore_ops.send_mgmt
 * @dev: the sending device
 * @dst: the destination EID
 * @type: MGMTETAH type
 * @msg_id: MGMTETAH message ID
 * @body: the message body (struct uboe_mgmt_body)
 * @len: its length
 *
 * Context: process context (ubcore's connection manager work); sleeps.
 * Return: 0 (delivered to the local device's queue), -EHOSTUNREACH (no
 * device of this host has @dst), or ubcore_recv_mgmt()'s error.
 */
int udma_send_mgmt(struct ubcore_device *dev, const union ubcore_eid *dst,
		   u8 type, u32 msg_id, const void *body, u16 len)
{
	struct ubcore_device *peer = ubcore_get_device_by_eid(dst);
	int ret;

	if (!peer) {
		dev_info_ratelimited(&dev->dev,
				     "management message to %pI6c: no local device has this EID and UBoE transmit is not available\n",
				     dst->raw);
		return -EHOSTUNREACH;
	}
	ret = ubcore_recv_mgmt(peer, type, msg_id, body, len);
	ubcore_put_device(peer);
	return ret;
}
