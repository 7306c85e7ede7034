// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * Carriers of the engine's messages (msg.h), and the loopback: the
 * carrier for a destination EID on this host. Like rxe_loopback(), it
 * skips the wire and nothing else: the request goes to the responder of
 * the destination's device (udma_resp_rcv()), which makes every check it
 * would make on a packet, and the response comes back to the completer of
 * the requester's queue (udma_comp_rcv()). No skb, no ICRC, no copy: the
 * payloads go by reference, which is safe because the loopback delivers
 * within the call (the requester holds its local memory until the
 * response is in; the responder holds the target memory of a READ until
 * the completer has copied it), so a READ is placed before the request
 * after it is executed.
 *
 * udma_carrier_xmit() picks the carrier of each request: the loopback
 * for a destination EID that a device of this host has in the sender's
 * network namespace, the UBoE carrier (uboe_carrier.c) for any other (a
 * device of another namespace is another host, as for management
 * messages: mgmt.c), and for every one while the force_wire switch is on
 * (read once per request). A carrier takes the responses
 * back through its own @reply (struct udma_carrier).
 */
#include <ub/ubcore_device.h>

#include <kunit/visibility.h>

#include "mgmt.h"
#include "msg.h"
#include "udma.h"

/* (the responder copies the whole message, rescheduling between MiBs) */
static int udma_loopback_xmit(struct udma_msg *req)
{
	struct ubcore_device *dev;

	if (req->sq->atomic)
		return -EWOULDBLOCK;
	dev = ubcore_get_device_by_eid(&req->pkt.dst_eid);
	udma_resp_rcv(dev, req);
	if (dev)
		ubcore_put_device(dev);
	return 0;
}

static void udma_loopback_reply(const struct udma_msg *req,
				const struct udma_msg *rsp)
{
	udma_comp_rcv(req->sq, rsp);
}

const struct udma_carrier udma_loopback_carrier = {
	.name = "loopback",
	.xmit = udma_loopback_xmit,
	.reply = udma_loopback_reply,
};
EXPORT_SYMBOL_IF_KUNIT(udma_loopback_carrier);

/**
 * udma_carrier_xmit() - send a request by the carrier of its destination
 * @sq: the requester's queue
 * @req: the request; @req->carrier is set to the carrier chosen
 *
 * The loopback for a destination EID of a device of this host in
 * @sq's device's namespace, unless force_wire is on; the UBoE carrier
 * otherwise (see the top of this file).
 *
 * Context: the processor of @sq's: process context, which may sleep (the
 * loopback runs the responder, the UBoE carrier copies the payload), or
 * softirq (@sq->atomic).
 * Return: 0, or -EWOULDBLOCK as struct udma_carrier.xmit says.
 */
int udma_carrier_xmit(struct udma_sq *sq, struct udma_msg *req)
{
	struct ubcore_device *dev = NULL;
	int ret = 0;

	req->sq = sq;
	if (!udma_force_wire())
		dev = udma_local_peer(&sq->udev->ub_dev, &req->pkt.dst_eid);
	if (!dev) {
		req->carrier = &udma_uboe_carrier;
		return udma_uboe_carrier.xmit(req);
	}
	req->carrier = &udma_loopback_carrier;
	if (sq->atomic)
		ret = -EWOULDBLOCK;
	else
		udma_resp_rcv(dev, req);
	ubcore_put_device(dev);
	return ret;
}

/**
 * udma_carrier_reply() - send a response back the way its request came
 * @req: the request
 * @rsp: the response
 *
 * Context: the responder's.
 */
void udma_carrier_reply(const struct udma_msg *req, const struct udma_msg *rsp)
{
	req->carrier->reply(req, rsp);
}
EXPORT_SYMBOL_IF_KUNIT(udma_carrier_reply);
