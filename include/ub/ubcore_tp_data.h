/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * The TP table as a provider's data path sees it (ubcore/tp.c): which TP
 * a request to a peer travels on, and whether a received packet's TPN is
 * one data may use. The connection manager opens and closes the TPs.
 */
#ifndef _UB_UBCORE_TP_DATA_H
#define _UB_UBCORE_TP_DATA_H

#include <linux/types.h>

#include <ub/ubcore_eid.h>

struct ubcore_device;

int ubcore_tp_data_find(struct ubcore_device *dev,
			const union ubcore_eid *local,
			const union ubcore_eid *remote, u8 mode,
			u32 local_jetty, u32 remote_jetty, u32 *tpn,
			u32 *peer_tpn);
int ubcore_tp_data_check(struct ubcore_device *dev, u32 tpn,
			 const union ubcore_eid *src, u32 peer_tpn);

#endif /* _UB_UBCORE_TP_DATA_H */
