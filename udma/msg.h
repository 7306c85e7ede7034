/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * Messages: the only thing the three roles of the engine exchange, in the
 * manner of rdma_rxe (rxe_req.c, rxe_resp.c, rxe_comp.c):
 *
 *   SQ ring -> requester (req.c) --request--> carrier --> responder
 *   (resp.c, at the device of the destination EID) --response--> carrier
 *   --> completer (comp.c, back at the requester's queue) -> CQ ring
 *
 * A message is a UBoE packet before encoding: the header fields in the
 * terms of the UBoE codec (struct uboe_pkt, include/uapi/ub/uboe_wire.h:
 * BTAH/ATAH TAOpcode UBOE_TA_*, MAETAH, MTETAH, IMMETAH, NTFETAH,
 * INVETAH, UDETAH, ATAH RSPST), plus a descriptor of its payload. The
 * UBoE carrier only has to uboe_encode() the fields and the payload into
 * an skb and uboe_decode() them back; the loopback carrier (loopback.c)
 * hands the same message across in memory, with no skb and no ICRC, and
 * the payload by reference (valid for the call that delivers it), as
 * rxe_loopback() skips the wire. The responder trusts nothing in a
 * request but the initiator's identity (src_eid, uasid, rc_id); it never
 * sees the initiator's memory: WRITE and SEND data reach it as the
 * request's payload, READ data and the old value of an atomic go back as
 * the response's payload, which the completer places.
 *
 * Segmentation to the MTU is the UBoE carrier's: a message the requester
 * builds is one logical packet (seg UBOE_SEG_ONLY) of any length up to
 * the device's limits; the UBoE carrier sends it in packets and the
 * responder takes those one at a time (udma_resp_rcv_seg(), the state of
 * the message in struct udma_resp_seg), in order: @pkt.seg and
 * @pkt.offset say where the packet's payload belongs.
 */
#ifndef _UDMA_MSG_H
#define _UDMA_MSG_H

#include <linux/types.h>

#include <ub/ubcore_eid.h>
#include <ub/ubcore_segment.h>

#include <uapi/ub/udma_abi.h>
#include <uapi/ub/uboe_wire.h>

#include "uboe_codec.h"

/**
 * struct udma_mem_range - bytes of a registered segment
 * @seg: the segment; the holder of the range holds a reference
 *	(ubcore_find_get_seg) until it is done with the range
 * @va: first byte, inside @seg
 * @len: bytes, inside @seg
 */
struct udma_mem_range {
	struct ubcore_target_seg *seg;
	u64 va;
	u32 len;
};

/**
 * struct udma_local_buf - bytes in registered memory or in kernel memory:
 *	the initiator's local memory of one operation, or the payload of a
 *	message
 * @nr: ranges in @range (0: @inline_data, or @skb)
 * @range: registered memory, each range holding a segment reference
 * @inline_data: kernel bytes (an SQE's inline payload, the operands of an
 *	atomic, a received payload in one piece), or NULL
 * @skb: with @nr 0 and no @inline_data, a received datagram that holds
 *	the bytes from @skb_off on, in several of its pieces (a payload
 *	that was sent without a copy, udma_uboe_payload_by_ref()), or NULL
 * @skb_off: see @skb
 * @total: bytes of all ranges, or the bytes at @inline_data or in @skb
 */
struct sk_buff;

struct udma_local_buf {
	u32 nr;
	struct udma_mem_range range[UDMA_SQE_MAX_SGE];
	const void *inline_data;
	const struct sk_buff *skb;
	u32 skb_off;
	u64 total;
};

struct udma_sq;
struct udma_carrier;
struct ubcore_jfr;
struct ubcore_jetty;
struct ubcore_jfc;
struct ubcore_ucontext;

/*
 * The receiving side of a message (resp.c): a JFR, or a jetty and its
 * shared JFR; @uctx is the receiving object's context (NULL: the
 * kernel's). The responder holds a reference on the JFR or the jetty.
 */
struct udma_receiver {
	struct ubcore_jfr *jfr;
	struct ubcore_jetty *jetty;
	struct ubcore_jfc *jfc;
	struct ubcore_ucontext *uctx;
	u32 local_id;
};

/* The ranges of an RQE's SGEs, each holding a segment reference. */
struct udma_rqe_ranges {
	u32 nr;
	u64 total;
	struct udma_mem_range range[UDMA_RQE_MAX_SGE];
};

/**
 * struct udma_msg - a request or a response
 * @pkt: the header fields (tp_opcode, seg, psn, has_eid, src_eid, dst_eid,
 *	ta_opcode, tassn, rc_id, hdrs and the extension headers it names,
 *	solicited; responses: rspst, rspinfo). @pkt.payload and
 *	@pkt.payload_len are not used: the payload is @payload.
 * @payload: the payload by reference: requests of WRITE* and SEND* the
 *	initiator's local buffer (its segment references held by the
 *	requester until the response is in), atomics @word; READ responses
 *	the target's range (its reference held by the responder for the
 *	call that delivers the response), atomic responses @word. NULL when
 *	there is none.
 * @word: inline payload, big-endian as on the wire: an atomic request's
 *	two operands (UBOE_PL_OPERANDS: operand 1, then the compare value),
 *	an atomic response's old value (UBOE_PL_WORD)
 * @sq: requests: the requester's queue, the return route of the
 *	response on the loopback (the UBoE carrier routes it by the TP)
 * @carrier: requests: the carrier that delivered it, which takes the
 *	response back (udma_carrier_reply())
 */
struct udma_msg {
	struct uboe_pkt pkt;
	const struct udma_local_buf *payload;
	__be64 word[2];
	struct udma_sq *sq;
	const struct udma_carrier *carrier;
};

/* Bytes of a message's payload. */
static inline u64 udma_msg_len(const struct udma_msg *msg)
{
	return msg->payload ? msg->payload->total : 0;
}

/**
 * struct udma_carrier - how messages travel between the roles
 * @name: for messages
 * @xmit: deliver the request @req to the responder of the device of
 *	@req->pkt.dst_eid. The responder answers through @reply before
 *	@xmit returns (loopback) or later (a wire carrier). Returns 0, or
 *	-EWOULDBLOCK when the queue's processor runs in softirq
 *	(udma_sq.atomic) and the request needs process context: nothing
 *	was done, and the work sends it again.
 * @reply: deliver the response @rsp to the completer of the queue that
 *	sent @req. @rsp's payload is valid for this call only.
 *
 * The loopback (loopback.c, udma_loopback_carrier) is the one carrier
 * now. The UBoE carrier plugs in at udma_carrier_xmit(): for a
 * destination EID not on this host (or with force_wire) it encodes the
 * request with uboe_encode() into an skb (segmented to the MTU), its RX
 * path decodes with uboe_decode(), fills a struct udma_msg with the
 * payload pointing into the skb and calls udma_resp_rcv(); its @reply
 * encodes the response back, whose RX path calls udma_comp_rcv() for the
 * queue of the TP.
 */
struct udma_carrier {
	const char *name;
	int (*xmit)(struct udma_msg *req);
	void (*reply)(const struct udma_msg *req, const struct udma_msg *rsp);
};

extern const struct udma_carrier udma_loopback_carrier;

/* loopback.c */
int udma_carrier_xmit(struct udma_sq *sq, struct udma_msg *req);
void udma_carrier_reply(const struct udma_msg *req,
			const struct udma_msg *rsp);

/* resp.c: execute a request at @dev (NULL: no device has the EID). */
struct ubcore_device;
struct udma_resp_seg;
void udma_resp_rcv(struct ubcore_device *dev, const struct udma_msg *req);
void udma_resp_rcv_seg(struct ubcore_device *dev, const struct udma_msg *req,
		       struct udma_resp_seg *s);
void udma_resp_seg_abort(struct udma_resp_seg *s);

/* comp.c: a response for @sq's window. */
void udma_comp_rcv(struct udma_sq *sq, const struct udma_msg *rsp);

/* Copy @len bytes between local buffers and segment ranges (mem.c). */
int udma_buf_copy_to_range(const struct udma_local_buf *src,
			   const struct udma_mem_range *dst, u64 len);
int udma_range_copy_to_buf(const struct udma_mem_range *src,
			   const struct udma_local_buf *dst, u64 len);
int udma_buf_copy(const struct udma_local_buf *dst,
		  const struct udma_local_buf *src, u64 len);

struct ubcore_device;
struct ubcore_ucontext;
int udma_sges_get(struct ubcore_device *dev, struct ubcore_ucontext *uctx,
		  const struct udma_sge *sge, u32 n,
		  struct udma_mem_range *range, u32 *nr, u64 *total);
void udma_ranges_put(struct udma_mem_range *range, u32 *nr);

/*
 * Map one 8-byte aligned word of a segment range for an atomic (mem.c);
 * returns the kernel address, to be released with udma_unmap_word().
 */
u64 *udma_map_word(const struct udma_mem_range *range);
void udma_unmap_word(u64 *word);

struct udma_jfc;

/*
 * Write @cqe into @jfc's CQ ring (cq.c): sets the owner bit, advances pi,
 * calls the JFC's completion event handler when armed (and, for an arm
 * with solicited_only, when @solicited). -ENOSPC when the CQ is full: the
 * CQE is not written and JFC_ERR is raised. Any context.
 */
int udma_cq_post(struct udma_jfc *jfc, struct udma_cqe *cqe, bool solicited);

#endif /* _UDMA_MSG_H */
