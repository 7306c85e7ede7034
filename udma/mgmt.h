/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * Management messages of ubcore's connection manager (mgmt.c).
 */
#ifndef _UDMA_MGMT_H
#define _UDMA_MGMT_H

#include <ub/ubcore_device.h>

int udma_send_mgmt(struct ubcore_device *dev, const union ubcore_eid *dst,
		   u8 type, u32 msg_id, const void *body, u16 len);

#endif /* _UDMA_MGMT_H */
