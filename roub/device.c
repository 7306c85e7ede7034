// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * The device and its one port as verbs see them: capabilities from the
 * UB device's (map.c), the port's state and MTU from ubcore's, GIDs that
 * are the device's EIDs (index for index), one pkey. ubcore's EID and
 * port events become the matching IB events, so that the core's GID cache
 * follows the EID table.
 */
#include <linux/string.h>
#include <asm/unaligned.h>
#include <rdma/ib_cache.h>

#include "roub.h"

int roub_query_device(struct ib_device *ibdev, struct ib_device_attr *attr,
		      struct ib_udata *udata)
{
	struct roub_dev *rdev = to_roub_dev(ibdev);

	if (udata && (udata->inlen || udata->outlen))
		return -EINVAL;
	roub_fill_device_attr(&rdev->ub_dev->cap, attr);
	attr->vendor_id = 0;
	attr->sys_image_guid = ibdev->node_guid;
	return 0;
}

/* ubcore's MTU values are IB's for 256 .. 4096; IB has no 8192. */
static enum ib_mtu roub_ib_mtu(enum ubcore_mtu mtu)
{
	if (mtu < UBCORE_MTU_256)
		return IB_MTU_256;
	if (mtu > UBCORE_MTU_4096)
		return IB_MTU_4096;
	return (enum ib_mtu)mtu;
}

/*
 * The port's LID. UB has no LIDs and roub routes by GID only (an address
 * vector needs a GRH), but verbs applications on an InfiniBand link layer
 * take a LID of 0 for "no subnet manager" and stop (ibv_rc_pingpong,
 * perftest without a GID index): the port shows a unicast LID made from
 * its GID 0's last 16 bits (1 .. 0xbfff), a label that is never used to
 * reach it.
 */
static u16 roub_port_lid(struct ubcore_device *ub)
{
	union ubcore_eid eid;

	if (ubcore_get_eid(ub, 0, &eid))
		return 0;
	return (u16)(get_unaligned_be16(&eid.raw[14]) % 0xbfff + 1);
}

/*
 * The port: active while ubcore reports the UB port active (its netdev up
 * with carrier). ubcore knows no link speed: the port reports the lowest
 * (1X SDR) rather than a made-up one.
 */
int roub_query_port(struct ib_device *ibdev, u32 port,
		    struct ib_port_attr *attr)
{
	struct ubcore_device *ub = to_roub_dev(ibdev)->ub_dev;
	bool up = READ_ONCE(ub->port_state) == UBCORE_PORT_ACTIVE;

	/* the core zeroed @attr */
	attr->state = up ? IB_PORT_ACTIVE : IB_PORT_DOWN;
	attr->phys_state = up ? IB_PORT_PHYS_STATE_LINK_UP :
				IB_PORT_PHYS_STATE_DISABLED;
	attr->max_mtu = IB_MTU_4096;
	attr->active_mtu = roub_ib_mtu(READ_ONCE(ub->active_mtu));
	attr->gid_tbl_len = UBCORE_MAX_EID_CNT;
	attr->pkey_tbl_len = 1;
	attr->max_msg_sz = min_t(u64, ub->cap.max_msg_size, ROUB_MAX_RDMA_BYTES);
	attr->active_width = IB_WIDTH_1X;
	attr->active_speed = IB_SPEED_SDR;
	attr->lid = roub_port_lid(ub);
	attr->sm_lid = 0;
	return 0;
}

/*
 * The IB protocol without management (no MAD, SMI, CM or SA: nothing of
 * an IB fabric exists) and without RoCE's GID management: the core reads
 * the GIDs through query_gid and rereads them on IB_EVENT_GID_CHANGE.
 * Address vectors carry a GRH (the destination GID is the peer's EID).
 */
int roub_get_port_immutable(struct ib_device *ibdev, u32 port,
			    struct ib_port_immutable *imm)
{
	struct ib_port_attr attr = {};
	int ret;

	ret = ib_query_port(ibdev, port, &attr);
	if (ret)
		return ret;
	imm->core_cap_flags = RDMA_CORE_CAP_PROT_IB;
	imm->gid_tbl_len = attr.gid_tbl_len;
	imm->pkey_tbl_len = attr.pkey_tbl_len;
	imm->max_mad_size = 0;
	return 0;
}

enum rdma_link_layer roub_get_link_layer(struct ib_device *ibdev, u32 port)
{
	return IB_LINK_LAYER_INFINIBAND;
}

/* GID index i is EID index i; an empty slot is the zero GID. */
int roub_query_gid(struct ib_device *ibdev, u32 port, int index,
		   union ib_gid *gid)
{
	union ubcore_eid eid;

	BUILD_BUG_ON(sizeof(gid->raw) != sizeof(eid.raw));
	if (index < 0 || index >= UBCORE_MAX_EID_CNT)
		return -EINVAL;
	if (ubcore_get_eid(to_roub_dev(ibdev)->ub_dev, index, &eid))
		memset(gid->raw, 0, sizeof(gid->raw));
	else
		memcpy(gid->raw, eid.raw, sizeof(gid->raw));
	return 0;
}

int roub_query_pkey(struct ib_device *ibdev, u32 port, u16 index, u16 *pkey)
{
	if (index)
		return -EINVAL;
	*pkey = ROUB_DEFAULT_PKEY;
	return 0;
}

/**
 * roub_eid_event() - a UB device event that verbs users must see
 * @handler: the device's (struct roub_dev.eid_handler)
 * @event: the event
 *
 * An EID change rereads the GID table (the core's cache work calls
 * query_gid); the port's state changes are the port's events.
 *
 * Context: any (ubcore's event lock is held); ib_dispatch_event() only
 * queues a work.
 */
void roub_eid_event(struct ubcore_event_handler *handler,
		    const struct ubcore_event *event)
{
	struct roub_dev *rdev = container_of(handler, struct roub_dev,
					     eid_handler);
	struct ib_event ev = {
		.device = &rdev->ibdev,
		.element.port_num = 1,
	};

	switch (event->type) {
	case UBCORE_EVENT_EID_CHANGE:
		ev.event = IB_EVENT_GID_CHANGE;
		break;
	case UBCORE_EVENT_PORT_ACTIVE:
		ev.event = IB_EVENT_PORT_ACTIVE;
		break;
	case UBCORE_EVENT_PORT_DOWN:
		ev.event = IB_EVENT_PORT_ERR;
		break;
	default:
		return;
	}
	ib_dispatch_event(&ev);
}
