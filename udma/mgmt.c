// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * ubcore's connection manager messages (ubcore/tp.c) between devices: udma
 * only moves them, it does not interpret them beyond what it must check.
 *
 * Sending (ubcore_ops.send_mgmt, process context): a destination EID that a
 * device of this host owns in the sender's own network namespace gets the
 * message directly through ubcore_recv_mgmt(), with no packet. Any other
 * destination, a device of another namespace of this kernel included (a
 * namespace is a host of its own: a device belongs to its netdev's
 * namespace), and every destination while the module parameter force_wire
 * is set, gets a UBoE management packet: UTP_DATA, ONLY, with an EIDH
 * (the body's source EID, @dst), a BTAH of TAOpcode MANAGEMENT and a
 * MGMTETAH (version UBOE_MGMT_VERSION, type, message ID, body length),
 * the body as payload (include/uapi/ub/uboe_wire.h), sent with
 * udma_uboe_xmit() and counted in wire/mgmt_tx.
 *
 * Receiving (udma_uboe_rx_mgmt(), softirq under RCU): uboe_decode() has
 * checked the headers (the TPH and MGMTETAH versions, the type, that the
 * MGMTETAH body length is the payload's); here the body is checked against
 * the packet that carried it, udma_mgmt_check(): its length is a struct
 * uboe_mgmt_body's, its version is UBOE_MGMT_BODY_VERSION, its source and
 * destination EIDs are the EIDH's. A message that passes goes to
 * ubcore_recv_mgmt(), which does not sleep: it copies the message into the
 * device's connection manager queue (bounded, UBCORE_CM_RX_MAX; a full
 * queue drops and counts) for its ordered work, which validates every
 * field and runs the state machine under the manager's mutex. That queue
 * belongs to ubcore's device: ubcore_cm_stop() empties and frees it when
 * the device is unregistered, after udma_wire_dev_del() has taken the
 * device off its namespace's receive list and waited for the readers, so
 * nothing is queued to a device that is going and nothing leaks.
 * Each drop has its counter in wire/ (enum uboe_drop, UBOE_DROP_MGMT_*).
 */
#include <linux/errno.h>
#include <linux/string.h>
#include <kunit/visibility.h>
#include <net/net_namespace.h>

#include "mgmt.h"
#include "udma.h"

/**
 * udma_mgmt_build() - the UBoE packet of a management message
 * @pkt: filled; its payload points to @body
 * @dst: the destination EID
 * @type: MGMTETAH type (enum uboe_mgmt_type)
 * @msg_id: MGMTETAH message ID
 * @body: the message body, a struct uboe_mgmt_body
 * @len: its length
 *
 * Context: any; pure.
 * Return: 0, or -EINVAL when @body is not a struct uboe_mgmt_body whose
 * destination EID is @dst (a receiver would drop the packet).
 */
int udma_mgmt_build(struct uboe_pkt *pkt, const union ubcore_eid *dst,
		    u8 type, u32 msg_id, const void *body, u16 len)
{
	const struct uboe_mgmt_body *b = body;

	if (!b || len != sizeof(*b) ||
	    memcmp(b->dst_eid, dst->raw, sizeof(dst->raw)))
		return -EINVAL;
	memset(pkt, 0, sizeof(*pkt));
	pkt->tp_opcode = UBOE_TP_UTP_DATA;
	pkt->seg = UBOE_SEG_ONLY;
	pkt->has_eid = true;
	memcpy(pkt->src_eid.raw, b->src_eid, sizeof(pkt->src_eid.raw));
	pkt->dst_eid = *dst;
	pkt->ta_opcode = UBOE_TA_MANAGEMENT;
	pkt->hdrs = UBOE_EXT_MGMTETAH;
	pkt->mgmt.type = type;
	pkt->mgmt.msg_id = msg_id;
	pkt->payload = body;
	pkt->payload_len = len;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(udma_mgmt_build);

/**
 * udma_mgmt_check() - may a decoded management packet go to ubcore
 * @pkt: a packet uboe_decode() accepted, of TAOpcode MANAGEMENT
 *
 * Context: any; pure.
 * Return: UBOE_DROP_NONE, or UBOE_DROP_MGMT_BODY_LEN (not a struct
 * uboe_mgmt_body), UBOE_DROP_MGMT_BODY_VERSION, UBOE_DROP_MGMT_EID_MISMATCH
 * (no EIDH, or the body's EIDs are not the EIDH's).
 */
enum uboe_drop udma_mgmt_check(const struct uboe_pkt *pkt)
{
	const struct uboe_mgmt_body *b = pkt->payload;

	if (pkt->payload_len != sizeof(*b) || !b)
		return UBOE_DROP_MGMT_BODY_LEN;
	if (b->version != UBOE_MGMT_BODY_VERSION)
		return UBOE_DROP_MGMT_BODY_VERSION;
	if (!pkt->has_eid ||
	    memcmp(b->src_eid, pkt->src_eid.raw, sizeof(b->src_eid)) ||
	    memcmp(b->dst_eid, pkt->dst_eid.raw, sizeof(b->dst_eid)))
		return UBOE_DROP_MGMT_EID_MISMATCH;
	return UBOE_DROP_NONE;
}
EXPORT_SYMBOL_IF_KUNIT(udma_mgmt_check);

/**
 * udma_local_peer() - the device of this host that owns an EID in the
 *	network namespace of a device's port (ubcore_dev_host_net(): a
 *	logical device's is its physical device's)
 * @dev: the sending device
 * @dst: the destination EID
 *
 * A device of another namespace is another host: management messages and
 * requests to it travel as UBoE packets (docs/connection-manager.md).
 *
 * Context: any context; does not sleep.
 * Return: the device with a reference (drop it with ubcore_put_device()),
 * or NULL (no device of @dev's namespace has @dst).
 */
struct ubcore_device *udma_local_peer(struct ubcore_device *dev,
				      const union ubcore_eid *dst)
{
	return ubcore_get_device_by_eid_net(dst, ubcore_dev_host_net(dev));
}

/**
 * udma_send_mgmt() - ubcore_ops.send_mgmt
 * @dev: the sending device
 * @dst: the destination EID
 * @type: MGMTETAH type
 * @msg_id: MGMTETAH message ID
 * @body: the message body (struct uboe_mgmt_body)
 * @len: its length
 *
 * force_wire is read once, for this message.
 *
 * Context: process context (ubcore's connection manager work).
 * Return: 0 (handed to the local device's queue, or to the IP layer: it
 * may still be lost), -EINVAL (not a valid body for @dst), -EHOSTUNREACH
 * (no route to @dst from the device's namespace and netdev), or another
 * error of udma_uboe_xmit() or ubcore_recv_mgmt().
 */
int udma_send_mgmt(struct ubcore_device *dev, const union ubcore_eid *dst,
		   u8 type, u32 msg_id, const void *body, u16 len)
{
	struct udma_dev *udev = to_udma_dev(dev);
	struct ubcore_device *peer;
	struct uboe_pkt pkt;
	int ret;

	ret = udma_mgmt_build(&pkt, dst, type, msg_id, body, len);
	if (ret) {
		dev_err_ratelimited(&dev->dev,
				    "management message to %pI6c refused: not a %zu-byte body for that EID\n",
				    dst->raw, sizeof(struct uboe_mgmt_body));
		return ret;
	}
	if (!udma_force_wire()) {
		peer = udma_local_peer(dev, dst);
		if (peer) {
			ret = ubcore_recv_mgmt(peer, type, msg_id, body, len);
			ubcore_put_device(peer);
			return ret;
		}
	}
	ret = udma_uboe_xmit(udev, dst, &pkt);
	switch (ret) {
	case 0:
		udma_wire_inc(udev, UDMA_WIRE_MGMT_TX);
		break;
	case -ENETUNREACH:
	case -EHOSTUNREACH:
	case -ENETDOWN:
	case -EAFNOSUPPORT:
		/* no way to @dst: the connection manager fails at once */
		dev_info_ratelimited(&dev->dev,
				     "management message to %pI6c: no route (%d)\n",
				     dst->raw, ret);
		ret = -EHOSTUNREACH;
		break;
	default:
		break;
	}
	return ret;
}

/**
 * udma_mgmt_rx() - a received management message, for ubcore
 * @udev: the device that owns the destination EID
 * @pkt: the decoded packet, of TAOpcode MANAGEMENT
 *
 * Checks the body against the packet (udma_mgmt_check()) and hands it to
 * ubcore_recv_mgmt(), which copies it: nothing of the packet is kept.
 *
 * Context: softirq, under rcu_read_lock() (udma_uboe_rx_mgmt()); any
 * context that does not hold the device's connection manager locks.
 * Return: UBOE_DROP_NONE, a UBOE_DROP_MGMT_* reason of udma_mgmt_check(),
 * or UBOE_DROP_MGMT_REFUSED when ubcore did not queue it.
 */
enum uboe_drop udma_mgmt_rx(struct udma_dev *udev, const struct uboe_pkt *pkt)
{
	enum uboe_drop drop = udma_mgmt_check(pkt);

	if (drop)
		return drop;
	if (ubcore_recv_mgmt(&udev->ub_dev, pkt->mgmt.type, pkt->mgmt.msg_id,
			     pkt->payload, pkt->payload_len))
		return UBOE_DROP_MGMT_REFUSED;
	return UBOE_DROP_NONE;
}
