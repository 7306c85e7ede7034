/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * The transport connections (TPs) ubcore's connection manager sets up for
 * imports and binds (docs/connection-manager.md), as a provider's data
 * carrier sees them: the TPN to send on for an import, and the check that
 * a received packet's TPN is an established TP of its sender.
 */
#ifndef _UB_UBCORE_TP_H
#define _UB_UBCORE_TP_H

#include <linux/types.h>

#include <ub/ubcore_eid.h>

struct ubcore_device;
struct ubcore_jetty;
struct ubcore_tjetty;
struct ubcore_tjetty_cfg;
struct ubcore_ucontext;
struct ubcore_udata;

/**
 * struct ubcore_get_tp_cfg - which TPs ubcore_get_tp_list() lists
 *	(urma_get_tp_cfg_t)
 * @flag: urma_get_tp_cfg_flag_t, not interpreted (every TP of this stack
 *	is made by its connection manager)
 * @trans_mode: UBCORE_TP_RM or UBCORE_TP_RC
 * @local_eid: an EID of the device
 * @peer_eid: the peer's EID
 */
struct ubcore_get_tp_cfg {
	u32 flag;
	u32 trans_mode;
	union ubcore_eid local_eid;
	union ubcore_eid peer_eid;
};

/**
 * struct ubcore_active_tp_cfg - the TP an import or a bind must use
 *	(urma_active_tp_cfg_t)
 * @tp_handle: this end's, from ubcore_get_tp_list() (the TPN)
 * @peer_tp_handle: the peer's handle of the same TP (its TPN)
 * @tag: the caller's, not interpreted
 */
struct ubcore_active_tp_cfg {
	u64 tp_handle;
	u64 peer_tp_handle;
	u64 tag;
};

int ubcore_get_tp_list(struct ubcore_device *dev,
		       const struct ubcore_get_tp_cfg *cfg, u32 *tp_cnt,
		       u64 *tp_handles);
int ubcore_hold_tp(struct ubcore_ucontext *uctx, const struct ubcore_get_tp_cfg *cfg);
struct ubcore_tjetty *ubcore_import_jetty_ex(struct ubcore_device *dev,
					     struct ubcore_tjetty_cfg *cfg,
					     const struct ubcore_active_tp_cfg *active,
					     struct ubcore_udata *udata);
int ubcore_bind_jetty_ex(struct ubcore_jetty *jetty, struct ubcore_tjetty *tjetty,
			 const struct ubcore_active_tp_cfg *active);

/* A value of struct ubcore_tp_xport that the TP does not set itself. */
#define UBCORE_TP_XPORT_UNSET		0xff
/* The largest values (their widths in urma_tp_attr_value_t). */
#define UBCORE_TP_RETRY_CNT_MAX		7
#define UBCORE_TP_ACK_TIMEOUT_MAX	31

/**
 * struct ubcore_tp_xport - how a TP's transport retransmits
 *	(urma_tp_attr_value_t's retry_times_init and at)
 * @retry_cnt: retransmission timeouts in a row before the TP's requests
 *	fail, 0 .. UBCORE_TP_RETRY_CNT_MAX
 * @ack_timeout: the first retransmission timeout is 4.096 us << @ack_timeout,
 *	0 .. UBCORE_TP_ACK_TIMEOUT_MAX
 */
struct ubcore_tp_xport {
	u8 retry_cnt;
	u8 ack_timeout;
};

/**
 * struct ubcore_tp_attr - a TP's attributes (urma_get_tp_attr())
 * @tpn: this end's TPN (its tp_handle)
 * @peer_tpn: the peer's
 * @local: this end's EID (SIP: an EID is an IP address)
 * @peer: the peer's EID (DIP)
 * @trans_mode: UBCORE_TP_RM or UBCORE_TP_RC
 * @xport: its transport values (a TP's own, else the provider's defaults)
 */
struct ubcore_tp_attr {
	u32 tpn;
	u32 peer_tpn;
	union ubcore_eid local;
	union ubcore_eid peer;
	u32 trans_mode;
	struct ubcore_tp_xport xport;
};

int ubcore_get_tp_attr(struct ubcore_device *dev,
		       const struct ubcore_ucontext *uctx, u64 tp_handle,
		       struct ubcore_tp_attr *attr);
int ubcore_set_tp_attr(struct ubcore_device *dev,
		       const struct ubcore_ucontext *uctx, u64 tp_handle,
		       const struct ubcore_tp_xport *xport);
int ubcore_get_jetty_tpn(struct ubcore_jetty *jetty, u32 *tpn);
int ubcore_tp_xport(struct ubcore_device *dev, u32 tpn,
		    struct ubcore_tp_xport *xport);

int ubcore_tp_resolve(struct ubcore_device *dev, const struct ubcore_tjetty *tj,
		      u32 *tpn, u32 *peer_tpn);
void ubcore_tp_transport_failed(struct ubcore_device *dev, u32 tpn);
int ubcore_tp_rx_lookup(struct ubcore_device *dev, u32 tpn,
			const union ubcore_eid *src, u32 *peer_tpn);
int ubcore_tp_find_pair(struct ubcore_device *dev,
			const union ubcore_eid *local,
			const union ubcore_eid *remote, u8 mode,
			u32 local_jetty, u32 remote_jetty, u32 *tpn,
			u32 *peer_tpn);
#endif /* _UB_UBCORE_TP_H */
