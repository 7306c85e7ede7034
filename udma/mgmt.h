/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * Management messages of ubcore's connection manager (mgmt.c).
 */
#ifndef _UDMA_MGMT_H
#define _UDMA_MGMT_H

#include <ub/ubcore_device.h>

#include "uboe_codec.h"

struct udma_dev;

int udma_send_mgmt(struct ubcore_device *dev, const union ubcore_eid *dst,
		   u8 type, u32 msg_id, const void *body, u16 len);
int udma_mgmt_build(struct uboe_pkt *pkt, const union ubcore_eid *dst,
		    u8 type, u32 msg_id, const void *body, u16 len);
enum uboe_drop udma_mgmt_check(const struct uboe_pkt *pkt);
enum uboe_drop udma_mgmt_rx(struct udma_dev *udev, const struct uboe_pkt *pkt);
struct ubcore_device *udma_local_peer(struct ubcore_device *dev,
				      const union ubcore_eid *dst);

#endif /* _UDMA_MGMT_H */
