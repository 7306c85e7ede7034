// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * roub_ktest.ko: kernel verbs over RoUB between two UB devices, as a
 * kernel ULP uses them (tests/guest/cases/roub-ns-pair.sh loads it). Both
 * devices are in this kernel (each in its network namespace, the
 * messages UBoE packets on the veth between them), so one module drives
 * both ends: it finds roub_<dev_a> and roub_<dev_b> as an ib_client.
 *
 * phase=verbs (default): every supported verb with its data checked,
 * every refused limit, QP error and flush; loading fails (-EIO) at the
 * first failure, a "roub_ktest: FAIL" line says which, and success is
 * "roub_ktest: PASS verbs". The module stays loaded until rmmod.
 *
 * phase=traffic: connects the pair and keeps WRITEs going from A to B
 * until B's device is removed (the case does it): the client's remove
 * callback destroys B's objects under traffic, A's QP then fails and
 * completes what it had ("roub_ktest: traffic stopped: ..."); rmmod
 * destroys A's.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/delay.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/vmalloc.h>
#include <rdma/ib_cache.h>
#include <rdma/ib_verbs.h>

static char *dev_a = "udmaA";
module_param(dev_a, charp, 0444);
MODULE_PARM_DESC(dev_a, "UB device of side A (its ib_device is roub_<dev_a>)");
static char *dev_b = "udmaB";
module_param(dev_b, charp, 0444);
MODULE_PARM_DESC(dev_b, "UB device of side B");
static char *phase = "verbs";
module_param(phase, charp, 0444);
MODULE_PARM_DESC(phase, "verbs: the verbs tests; traffic: WRITEs until B's device goes");
static uint max_jetty;
module_param(max_jetty, uint, 0444);
MODULE_PARM_DESC(max_jetty, "the UB devices' max_jetty (sysfs), to check max_qp against");

#define KT_BUF		SZ_256K
#define KT_WR		64
#define KT_TIMEOUT_MS	20000

/* One end: its device and objects. */
struct kt_side {
	const char *name;
	struct ib_device *dev;
	struct ib_pd *pd;	/* with the unsafe global rkey */
	struct ib_pd *pd_local;	/* local DMA lkey only */
	struct ib_cq *cq;
	struct ib_qp *qp;
	u8 *buf;
	u64 dma;
	atomic_t events;
	union ib_gid gid;
};

static struct kt_side side_a = { .name = "A" }, side_b = { .name = "B" };
static DEFINE_MUTEX(kt_lock);	/* the sides' devices and objects */

/* Traffic phase. */
static struct delayed_work kt_traffic_work;
static bool kt_traffic_on;
static u64 kt_ok, kt_err;
static u64 kt_peer_addr;	/* B's buffer and rkey, also once B is gone */
static u32 kt_peer_rkey;

/* A failed check: the "FAIL" line, and -EIO for the caller to return. */
static __printf(3, 4) int kt_fail(const char *fn, int line, const char *fmt, ...)
{
	struct va_format vaf;
	va_list args;

	va_start(args, fmt);
	vaf.fmt = fmt;
	vaf.va = &args;
	pr_err("FAIL %s:%d: %pV\n", fn, line, &vaf);
	va_end(args);
	return -EIO;
}

#define KT_FAIL(...) kt_fail(__func__, __LINE__, __VA_ARGS__)

static void kt_comp(struct ib_cq *cq, void *ctx)
{
	struct kt_side *s = ctx;

	atomic_inc(&s->events);
}

/* One WC, waiting up to KT_TIMEOUT_MS; 0 or -ETIMEDOUT. */
static int kt_poll(struct kt_side *s, struct ib_wc *wc)
{
	unsigned long end = jiffies + msecs_to_jiffies(KT_TIMEOUT_MS);

	do {
		if (ib_poll_cq(s->cq, 1, wc) == 1)
			return 0;
		usleep_range(200, 1000);
	} while (time_before(jiffies, end));
	pr_err("FAIL: no completion on %s within %d ms\n", s->name, KT_TIMEOUT_MS);
	return -ETIMEDOUT;
}

static int kt_expect(struct kt_side *s, u64 wr_id, enum ib_wc_status st,
		     enum ib_wc_opcode op, u32 len)
{
	struct ib_wc wc;

	if (kt_poll(s, &wc))
		return -EIO;
	if (!(wc.wr_id == wr_id && wc.status == st &&
	      (st != IB_WC_SUCCESS || wc.opcode == op) &&
	      (op & IB_WC_RECV ? wc.byte_len == len : true) &&
	      wc.qp == s->qp))
		return KT_FAIL("%s: wc wr_id %llu status %d opcode %d len %u, want %llu %d %d %u",
			       s->name, wc.wr_id, wc.status, wc.opcode, wc.byte_len, wr_id,
			       st, op, len);
	return 0;
}

static struct ib_qp *kt_new_qp(struct kt_side *s)
{
	struct ib_qp_init_attr qa = {
		.qp_type = IB_QPT_RC,
		.sq_sig_type = IB_SIGNAL_REQ_WR,
		.send_cq = s->cq,
		.recv_cq = s->cq,
		.cap = {
			.max_send_wr = KT_WR, .max_recv_wr = KT_WR,
			.max_send_sge = 8, .max_recv_sge = 1,
		},
	};

	return ib_create_qp(s->pd, &qa);
}

static int kt_objects(struct kt_side *s)
{
	struct ib_cq_init_attr ca = { .cqe = 4 * KT_WR };

	s->pd = ib_alloc_pd(s->dev, IB_PD_UNSAFE_GLOBAL_RKEY);
	if (IS_ERR(s->pd))
		return PTR_ERR(s->pd);
	s->pd_local = ib_alloc_pd(s->dev, 0);
	if (IS_ERR(s->pd_local))
		return PTR_ERR(s->pd_local);
	s->cq = ib_create_cq(s->dev, kt_comp, NULL, s, &ca);
	if (IS_ERR(s->cq))
		return PTR_ERR(s->cq);
	s->qp = kt_new_qp(s);
	if (IS_ERR(s->qp))
		return PTR_ERR(s->qp);
	s->buf = kzalloc(KT_BUF, GFP_KERNEL);
	if (!s->buf)
		return -ENOMEM;
	s->dma = ib_dma_map_single(s->dev, s->buf, KT_BUF, DMA_BIDIRECTIONAL);
	if (ib_dma_mapping_error(s->dev, s->dma))
		return -ENOMEM;
	return rdma_query_gid(s->dev, 1, 0, &s->gid);
}

static void kt_destroy(struct kt_side *s)
{
	if (!IS_ERR_OR_NULL(s->qp))
		ib_destroy_qp(s->qp);
	if (!IS_ERR_OR_NULL(s->cq))
		ib_destroy_cq(s->cq);
	if (!IS_ERR_OR_NULL(s->pd_local))
		ib_dealloc_pd(s->pd_local);
	if (!IS_ERR_OR_NULL(s->pd))
		ib_dealloc_pd(s->pd);
	if (s->buf) {
		ib_dma_unmap_single(s->dev, s->dma, KT_BUF, DMA_BIDIRECTIONAL);
		kfree(s->buf);
	}
	s->qp = NULL;
	s->cq = NULL;
	s->pd = NULL;
	s->pd_local = NULL;
	s->buf = NULL;
}

static int kt_modify(struct kt_side *s, struct ib_qp_attr *a, int mask,
		     const char *what)
{
	int ret = ib_modify_qp(s->qp, a, mask);

	if (ret)
		pr_err("FAIL: %s QP %u to %s: %d\n", s->name, s->qp->qp_num, what,
		       ret);
	return ret;
}

/* RESET -> INIT -> RTR (the peer imported, bound) -> RTS. */
static int kt_connect(struct kt_side *s, struct kt_side *peer)
{
	struct ib_qp_attr a = {};

	a.qp_state = IB_QPS_INIT;
	a.port_num = 1;
	a.qp_access_flags = IB_ACCESS_REMOTE_WRITE | IB_ACCESS_REMOTE_READ;
	if (kt_modify(s, &a, IB_QP_STATE | IB_QP_PKEY_INDEX | IB_QP_PORT |
		      IB_QP_ACCESS_FLAGS, "INIT"))
		return -EIO;
	memset(&a, 0, sizeof(a));
	a.qp_state = IB_QPS_RTR;
	a.path_mtu = IB_MTU_1024;
	a.dest_qp_num = peer->qp->qp_num;
	a.max_dest_rd_atomic = 1;
	a.min_rnr_timer = 12;
	a.ah_attr.type = RDMA_AH_ATTR_TYPE_IB;
	rdma_ah_set_port_num(&a.ah_attr, 1);
	rdma_ah_set_grh(&a.ah_attr, &peer->gid, 0, 0, 1, 0);
	if (kt_modify(s, &a, IB_QP_STATE | IB_QP_AV | IB_QP_PATH_MTU |
		      IB_QP_DEST_QPN | IB_QP_RQ_PSN | IB_QP_MAX_DEST_RD_ATOMIC |
		      IB_QP_MIN_RNR_TIMER, "RTR"))
		return -EIO;
	memset(&a, 0, sizeof(a));
	a.qp_state = IB_QPS_RTS;
	a.timeout = 14;
	a.retry_cnt = 7;
	a.rnr_retry = 7;
	a.max_rd_atomic = 1;
	return kt_modify(s, &a, IB_QP_STATE | IB_QP_TIMEOUT | IB_QP_RETRY_CNT |
			 IB_QP_RNR_RETRY | IB_QP_SQ_PSN | IB_QP_MAX_QP_RD_ATOMIC,
			 "RTS") ? -EIO : 0;
}

static void kt_fill(u8 *p, u32 len, u8 seed)
{
	u32 i;

	for (i = 0; i < len; i++)
		p[i] = (u8)(seed + i * 7 + (i >> 8));
}

static int kt_post_recv(struct kt_side *s, u64 wr_id, u32 off, u32 len)
{
	struct ib_sge sge = {
		.addr = s->dma + off, .length = len, .lkey = s->pd->local_dma_lkey,
	};
	struct ib_recv_wr wr = { .wr_id = wr_id, .sg_list = &sge, .num_sge = 1 };

	return ib_post_recv(s->qp, &wr, NULL);
}

static int kt_rdma(struct kt_side *s, struct kt_side *peer, u64 wr_id,
		   enum ib_wr_opcode op, u32 loff, u32 roff, u32 len, u32 rkey,
		   int flags)
{
	struct ib_sge sge = {
		.addr = s->dma + loff, .length = len,
		.lkey = s->pd_local->local_dma_lkey,
	};
	struct ib_rdma_wr wr = {
		.wr = {
			.wr_id = wr_id, .opcode = op, .sg_list = &sge,
			.num_sge = 1, .send_flags = flags,
			.ex.imm_data = cpu_to_be32(0x12345678),
		},
		.remote_addr = peer->dma + roff,
		.rkey = rkey,
	};

	return ib_post_send(s->qp, &wr.wr, NULL);
}

/* Capabilities, port, GIDs and pkeys as the guide and the UB device say. */
static int kt_query(struct kt_side *s)
{
	const struct ib_device_attr *at = &s->dev->attrs;
	struct ib_port_attr pa;
	u16 pkey;

	if (!(at->max_send_sge == 8 && at->max_recv_sge == 1))
		return KT_FAIL("%s: sge %d/%d, want 8/1", s->name, at->max_send_sge,
			       at->max_recv_sge);
	if (max_jetty && at->max_qp != max_jetty / 2)
		return KT_FAIL("%s: max_qp %d, max_jetty %u", s->name, at->max_qp, max_jetty);
	if (!(!ib_query_port(s->dev, 1, &pa) && pa.state == IB_PORT_ACTIVE &&
	      pa.gid_tbl_len == 64 && pa.max_msg_sz &&
	      pa.max_msg_sz <= SZ_2G))
		return KT_FAIL("%s: port state %d gids %d max_msg %u", s->name, pa.state,
			       pa.gid_tbl_len, pa.max_msg_sz);
	if (ib_query_pkey(s->dev, 1, 0, &pkey) || pkey != 0xffff)
		return KT_FAIL("%s: pkey 0x%x", s->name, pkey);
	if (!(memchr_inv(s->gid.raw, 0, sizeof(s->gid.raw))))
		return KT_FAIL("%s: GID 0 is empty", s->name);
	pr_info("ok query %s: max_qp %d max_qp_wr %d max_cqe %d GID0 %pI6\n",
		s->name, at->max_qp, at->max_qp_wr, at->max_cqe, s->gid.raw);
	return 0;
}

/* Creation refusals: the guide's QP limits and the QP type. */
static int kt_refused_qps(struct kt_side *s)
{
	struct ib_qp_init_attr qa = {
		.qp_type = IB_QPT_RC, .send_cq = s->cq, .recv_cq = s->cq,
		.cap = { .max_send_wr = 4, .max_recv_wr = 4,
			 .max_send_sge = 1, .max_recv_sge = 2 },
	};
	struct ib_qp *qp;

	qp = ib_create_qp(s->pd, &qa);
	if (!(PTR_ERR(qp) == -EINVAL))
		return KT_FAIL("max_recv_sge 2: %ld", PTR_ERR(qp));
	qa.cap.max_recv_sge = 1;
	qa.cap.max_send_sge = 9;
	qp = ib_create_qp(s->pd, &qa);
	if (!(PTR_ERR(qp) == -EINVAL))
		return KT_FAIL("max_send_sge 9: %ld", PTR_ERR(qp));
	qa.cap.max_send_sge = 1;
	qa.qp_type = IB_QPT_UD;
	qp = ib_create_qp(s->pd, &qa);
	if (!(PTR_ERR(qp) == -EOPNOTSUPP))
		return KT_FAIL("UD: %ld", PTR_ERR(qp));
	pr_info("ok refused QPs: recv sge 2, send sge 9, UD\n");
	return 0;
}

/* SEND of 4 KiB, one of 8 SGEs, and a 64 KiB one: data checked. */
static int kt_send(struct kt_side *a, struct kt_side *b)
{
	struct ib_sge sge[8];
	struct ib_send_wr wr = { .opcode = IB_WR_SEND,
				 .send_flags = IB_SEND_SIGNALED };
	u32 i, len = 4096;

	kt_fill(a->buf, len, 1);
	memset(b->buf, 0, KT_BUF);
	if (kt_post_recv(b, 100, 0, SZ_64K))
		return KT_FAIL("post_recv");
	sge[0] = (struct ib_sge){ a->dma, len, a->pd->local_dma_lkey };
	wr.wr_id = 1;
	wr.sg_list = sge;
	wr.num_sge = 1;
	if (ib_post_send(a->qp, &wr, NULL))
		return KT_FAIL("post_send");
	if (kt_expect(a, 1, IB_WC_SUCCESS, IB_WC_SEND, 0) ||
	    kt_expect(b, 100, IB_WC_SUCCESS, IB_WC_RECV, len))
		return -EIO;
	if (memcmp(a->buf, b->buf, len))
		return KT_FAIL("SEND data differs");

	/* 8 SGEs of 512 bytes, gathered in reverse order */
	kt_fill(a->buf, 8 * 512, 2);
	memset(b->buf, 0, 8 * 512);
	for (i = 0; i < 8; i++)
		sge[i] = (struct ib_sge){ a->dma + (7 - i) * 512, 512,
					  a->pd->local_dma_lkey };
	wr.wr_id = 2;
	wr.num_sge = 8;
	if (kt_post_recv(b, 101, 0, SZ_64K))
		return KT_FAIL("post_recv");
	if (ib_post_send(a->qp, &wr, NULL))
		return KT_FAIL("post_send 8 SGEs");
	if (kt_expect(a, 2, IB_WC_SUCCESS, IB_WC_SEND, 0) ||
	    kt_expect(b, 101, IB_WC_SUCCESS, IB_WC_RECV, 8 * 512))
		return -EIO;
	for (i = 0; i < 8; i++)
		if (memcmp(b->buf + i * 512, a->buf + (7 - i) * 512, 512))
			return KT_FAIL("SGE %u of the gathered SEND differs", i);

	/* the guide's limit exactly: 64 KiB */
	kt_fill(a->buf, SZ_64K, 3);
	sge[0] = (struct ib_sge){ a->dma, SZ_64K, a->pd->local_dma_lkey };
	wr.wr_id = 3;
	wr.num_sge = 1;
	if (kt_post_recv(b, 102, 0, SZ_64K))
		return KT_FAIL("post_recv");
	if (ib_post_send(a->qp, &wr, NULL))
		return KT_FAIL("post_send 64 KiB");
	if (kt_expect(a, 3, IB_WC_SUCCESS, IB_WC_SEND, 0) ||
	    kt_expect(b, 102, IB_WC_SUCCESS, IB_WC_RECV, SZ_64K))
		return -EIO;
	if (memcmp(a->buf, b->buf, SZ_64K))
		return KT_FAIL("64 KiB SEND differs");
	pr_info("ok SEND: 4 KiB, 8 SGEs, 64 KiB\n");
	return 0;
}

/* WRITE, WRITE_WITH_IMM (an event on B), READ; unsignaled WRITEs. */
static int kt_rdma_ops(struct kt_side *a, struct kt_side *b)
{
	u32 rkey = b->pd->unsafe_global_rkey, len = SZ_128K, i;
	struct ib_wc wc;
	int ev;

	kt_fill(a->buf, len, 4);
	memset(b->buf, 0, KT_BUF);
	if (kt_rdma(a, b, 10, IB_WR_RDMA_WRITE, 0, SZ_64K, len, rkey,
		    IB_SEND_SIGNALED))
		return KT_FAIL("post WRITE");
	if (kt_expect(a, 10, IB_WC_SUCCESS, IB_WC_RDMA_WRITE, 0))
		return -EIO;
	if (memcmp(a->buf, b->buf + SZ_64K, len))
		return KT_FAIL("WRITE data differs");
	pr_info("ok RDMA_WRITE 128 KiB\n");

	/* WRITE_WITH_IMM: B's receive completion, its event */
	ev = atomic_read(&b->events);
	if (ib_req_notify_cq(b->cq, IB_CQ_NEXT_COMP))
		return KT_FAIL("notify");
	if (kt_post_recv(b, 103, 0, 0 + 16))
		return KT_FAIL("post_recv");
	kt_fill(a->buf, 4096, 5);
	if (kt_rdma(a, b, 11, IB_WR_RDMA_WRITE_WITH_IMM, 0, 8192, 4096,
		    rkey, IB_SEND_SIGNALED))
		return KT_FAIL("post WRITE_IMM");
	if (kt_expect(a, 11, IB_WC_SUCCESS, IB_WC_RDMA_WRITE, 0))
		return -EIO;
	if (kt_poll(b, &wc))
		return -EIO;
	if (!(wc.wr_id == 103 && wc.status == IB_WC_SUCCESS &&
	      wc.opcode == IB_WC_RECV_RDMA_WITH_IMM &&
	      (wc.wc_flags & IB_WC_WITH_IMM) &&
	      wc.ex.imm_data == cpu_to_be32(0x12345678)))
		return KT_FAIL("WRITE_IMM recv: wr_id %llu status %d opcode %d flags 0x%x imm 0x%x",
			       wc.wr_id, wc.status, wc.opcode, wc.wc_flags,
			       be32_to_cpu(wc.ex.imm_data));
	if (memcmp(a->buf, b->buf + 8192, 4096))
		return KT_FAIL("WRITE_IMM data differs");
	if (!(atomic_read(&b->events) > ev))
		return KT_FAIL("no completion event on B");
	pr_info("ok RDMA_WRITE_WITH_IMM, completion event\n");

	/* READ 128 KiB of B into A */
	kt_fill(b->buf, len, 6);
	memset(a->buf, 0, len);
	if (kt_rdma(a, b, 12, IB_WR_RDMA_READ, 0, 0, len, rkey,
		    IB_SEND_SIGNALED))
		return KT_FAIL("post READ");
	if (kt_expect(a, 12, IB_WC_SUCCESS, IB_WC_RDMA_READ, 0))
		return -EIO;
	if (memcmp(a->buf, b->buf, len))
		return KT_FAIL("READ data differs");
	pr_info("ok RDMA_READ 128 KiB\n");

	/* 15 unsignaled WRITEs and a signaled one: one completion */
	kt_fill(a->buf, 16 * 1024, 7);
	for (i = 0; i < 16; i++)
		if (kt_rdma(a, b, 20 + i, IB_WR_RDMA_WRITE, i * 1024,
			    i * 1024, 1024, rkey,
			    i == 15 ? IB_SEND_SIGNALED : 0))
			return KT_FAIL("post %u", i);
	if (kt_expect(a, 35, IB_WC_SUCCESS, IB_WC_RDMA_WRITE, 0))
		return -EIO;
	if (!(ib_poll_cq(a->cq, 1, &wc) == 0))
		return KT_FAIL("a completion of an unsignaled WRITE");
	if (memcmp(a->buf, b->buf, 16 * 1024))
		return KT_FAIL("unsignaled WRITEs differ");
	pr_info("ok 16 WRITEs, 1 signaled\n");
	return 0;
}

/* What post_send refuses with -EINVAL: limits, opcodes, keys. */
static int kt_refused_posts(struct kt_side *a, struct kt_side *b)
{
	struct ib_sge sge[2] = {
		{ a->dma, SZ_1G, a->pd->local_dma_lkey },
		{ a->dma, SZ_1G + 1, a->pd->local_dma_lkey },
	};
	struct ib_rdma_wr wr = {
		.wr = { .wr_id = 50, .opcode = IB_WR_RDMA_WRITE, .sg_list = sge,
			.num_sge = 2, .send_flags = IB_SEND_SIGNALED },
		.remote_addr = b->dma, .rkey = b->pd->unsafe_global_rkey,
	};
	const struct ib_send_wr *bad = NULL;

	if (!(ib_post_send(a->qp, &wr.wr, &bad) == -EINVAL && bad == &wr.wr))
		return KT_FAIL("WRITE of 2 GiB + 1 taken");
	wr.wr.opcode = IB_WR_RDMA_READ;
	if (!(ib_post_send(a->qp, &wr.wr, &bad) == -EINVAL))
		return KT_FAIL("READ of 2 GiB + 1 taken");
	sge[0].length = SZ_64K;
	sge[1].length = 1;
	wr.wr.opcode = IB_WR_SEND;
	if (!(ib_post_send(a->qp, &wr.wr, &bad) == -EINVAL))
		return KT_FAIL("SEND of 64 KiB + 1 taken");
	wr.wr.num_sge = 1;
	sge[0].length = 8;
	wr.wr.opcode = IB_WR_ATOMIC_CMP_AND_SWP;
	if (!(ib_post_send(a->qp, &wr.wr, &bad) == -EINVAL))
		return KT_FAIL("CAS taken");
	wr.wr.opcode = IB_WR_SEND_WITH_IMM;
	if (!(ib_post_send(a->qp, &wr.wr, &bad) == -EINVAL))
		return KT_FAIL("SEND_WITH_IMM taken");
	wr.wr.opcode = IB_WR_SEND;
	sge[0].lkey = a->pd->local_dma_lkey ^ 0x800;
	if (!(ib_post_send(a->qp, &wr.wr, &bad) == -EINVAL))
		return KT_FAIL("bad lkey taken");
	pr_info("ok refused posts: WRITE/READ 2 GiB + 1, SEND 64 KiB + 1, CAS, SEND_WITH_IMM, bad lkey\n");
	return 0;
}

/*
 * A wrong rkey: the target refuses it. On a second QP pair (the error
 * ends the QP), destroyed afterwards in ERR.
 */
static int kt_bad_rkey(struct kt_side *a, struct kt_side *b)
{
	struct ib_qp *qa = a->qp, *qb = b->qp;
	struct ib_wc wc;
	int ret = -EIO;

	a->qp = kt_new_qp(a);
	b->qp = kt_new_qp(b);
	if (IS_ERR(a->qp) || IS_ERR(b->qp)) {
		pr_err("FAIL: second QP pair: %ld %ld\n", PTR_ERR(a->qp),
		       PTR_ERR(b->qp));
		goto out;
	}
	if (kt_connect(a, b) || kt_connect(b, a))
		goto out;
	if (kt_rdma(a, b, 60, IB_WR_RDMA_WRITE, 0, 0, 64,
		    b->pd->unsafe_global_rkey ^ 1, IB_SEND_SIGNALED) ||
	    kt_poll(a, &wc)) {
		pr_err("FAIL: WRITE with a wrong rkey\n");
		goto out;
	}
	if (wc.wr_id != 60 || wc.status != IB_WC_REM_ACCESS_ERR) {
		pr_err("FAIL: wrong rkey: wr_id %llu status %d\n", wc.wr_id,
		       wc.status);
		goto out;
	}
	pr_info("ok wrong rkey: IB_WC_REM_ACCESS_ERR\n");
	ret = 0;
out:
	if (!IS_ERR(a->qp))
		ib_destroy_qp(a->qp);
	if (!IS_ERR(b->qp))
		ib_destroy_qp(b->qp);
	a->qp = qa;
	b->qp = qb;
	return ret;
}

/*
 * QP error and flush: B's posted receives, WRITEs in flight when A goes
 * to ERR, and posts in ERR all complete, each once, flushed or done.
 */
static int kt_flush(struct kt_side *a, struct kt_side *b)
{
	struct ib_qp_attr attr = { .qp_state = IB_QPS_ERR };
	struct ib_recv_wr rwr = { .wr_id = 300 };
	struct ib_send_wr swr = { .wr_id = 301, .opcode = IB_WR_SEND,
				  .send_flags = IB_SEND_SIGNALED };
	u32 rkey = b->pd->unsafe_global_rkey, i, seen, flushed = 0;
	struct ib_wc wc;

	for (i = 0; i < 32; i++)
		if (kt_rdma(a, b, 400 + i, IB_WR_RDMA_WRITE, 0, 0, 4096,
			    rkey, IB_SEND_SIGNALED))
			return KT_FAIL("post %u", i);
	/* the first done: the engine has the others, or some of them */
	if (kt_expect(a, 400, IB_WC_SUCCESS, IB_WC_RDMA_WRITE, 0))
		return -EIO;
	seen = 1;
	if (kt_modify(a, &attr, IB_QP_STATE, "ERR"))
		return KT_FAIL("A to ERR");
	for (i = 1; i < 32; i++) {
		if (kt_poll(a, &wc))
			return -EIO;
		if (!(wc.wr_id == 400 + i &&
		      (wc.status == IB_WC_SUCCESS ||
		      wc.status == IB_WC_WR_FLUSH_ERR)))
			return KT_FAIL("in flight %u: wr_id %llu status %d", i, wc.wr_id,
				       wc.status);
		seen++;
		flushed += wc.status == IB_WC_WR_FLUSH_ERR;
	}
	if (ib_post_send(a->qp, &swr, NULL))
		return KT_FAIL("post_send in ERR");
	if (kt_expect(a, 301, IB_WC_WR_FLUSH_ERR, IB_WC_SEND, 0))
		return -EIO;
	for (i = 0; i < 8; i++)
		if (kt_post_recv(b, 200 + i, 0, 64))
			return KT_FAIL("post_recv %u", i);
	if (kt_modify(b, &attr, IB_QP_STATE, "ERR"))
		return KT_FAIL("B to ERR");
	for (i = 0; i < 8; i++)
		if (kt_expect(b, 200 + i, IB_WC_WR_FLUSH_ERR, IB_WC_RECV, 0))
			return -EIO;
	if (ib_post_recv(b->qp, &rwr, NULL))
		return KT_FAIL("post_recv in ERR");
	if (kt_expect(b, 300, IB_WC_WR_FLUSH_ERR, IB_WC_RECV, 0))
		return -EIO;

	if (!(ib_poll_cq(a->cq, 1, &wc) == 0 && ib_poll_cq(b->cq, 1, &wc) == 0))
		return KT_FAIL("a completion too many");
	pr_info("ok QP error and flush: 8 receives flushed, %u of %u WRITEs in flight flushed, posts in ERR flushed\n",
		flushed, seen);
	attr.qp_state = IB_QPS_RESET;
	if (!(ib_modify_qp(a->qp, &attr, IB_QP_STATE) == -EOPNOTSUPP))
		return KT_FAIL("ERR -> RESET taken");
	return 0;
}

static int kt_invalid_modify(struct kt_side *s)
{
	struct ib_qp_attr a = { .qp_state = IB_QPS_RTS };

	if (!(ib_modify_qp(s->qp, &a, IB_QP_STATE) == -EINVAL))
		return KT_FAIL("RESET -> RTS taken");
	pr_info("ok RESET -> RTS refused\n");
	return 0;
}

static int kt_run_verbs(void)
{
	int ret;

	ret = kt_objects(&side_a) ?: kt_objects(&side_b);
	if (ret) {
		pr_err("FAIL: objects: %d\n", ret);
		return -EIO;
	}
	return kt_query(&side_a) ?: kt_query(&side_b) ?:
	       kt_refused_qps(&side_a) ?: kt_invalid_modify(&side_a) ?:
	       kt_connect(&side_a, &side_b) ?: kt_connect(&side_b, &side_a) ?:
	       kt_send(&side_a, &side_b) ?: kt_rdma_ops(&side_a, &side_b) ?:
	       kt_refused_posts(&side_a, &side_b) ?:
	       kt_bad_rkey(&side_a, &side_b) ?: kt_flush(&side_a, &side_b);
}

/* A signaled 16 KiB WRITE from A to @raddr. */
static int kt_rdma_to(struct kt_side *a, u64 wr_id, u64 raddr, u32 rkey)
{
	struct ib_sge sge = {
		.addr = a->dma, .length = SZ_16K,
		.lkey = a->pd_local->local_dma_lkey,
	};
	struct ib_rdma_wr wr = {
		.wr = { .wr_id = wr_id, .opcode = IB_WR_RDMA_WRITE,
			.sg_list = &sge, .num_sge = 1,
			.send_flags = IB_SEND_SIGNALED },
		.remote_addr = raddr,
		.rkey = rkey,
	};

	return ib_post_send(a->qp, &wr.wr, NULL);
}

/* Traffic: WRITEs from A to B, 16 in flight, until an error stops them. */
static void kt_traffic(struct work_struct *work)
{
	struct kt_side *a = &side_a, *b = &side_b;
	struct ib_wc wc[16];
	int n, i, posted = 0;

	mutex_lock(&kt_lock);
	if (!kt_traffic_on || !a->qp) {
		mutex_unlock(&kt_lock);
		return;
	}
	/* B's device may be gone: A's QP fails, its posts are flushed */
	while (posted < 16 && !kt_rdma_to(a, kt_ok + kt_err + posted,
					  kt_peer_addr, kt_peer_rkey))
		posted++;
	n = ib_poll_cq(a->cq, 16, wc);
	for (i = 0; i < n; i++) {
		if (wc[i].status == IB_WC_SUCCESS)
			kt_ok++;
		else
			kt_err++;
	}
	if (kt_err && !b->qp) {
		pr_info("traffic stopped: %llu WRITEs done, %llu failed after B's device went (last status %d)\n",
			kt_ok, kt_err, n ? wc[n - 1].status : -1);
		kt_traffic_on = false;
	}
	mutex_unlock(&kt_lock);
	if (kt_traffic_on)
		schedule_delayed_work(&kt_traffic_work, 1);
}

static int kt_start_traffic(void)
{
	int ret = kt_objects(&side_a) ?: kt_objects(&side_b) ?:
		  kt_connect(&side_a, &side_b) ?: kt_connect(&side_b, &side_a);

	if (ret) {
		pr_err("FAIL: traffic set-up: %d\n", ret);
		return -EIO;
	}
	kt_peer_addr = side_b.dma;
	kt_peer_rkey = side_b.pd->unsafe_global_rkey;
	kt_traffic_on = true;
	schedule_delayed_work(&kt_traffic_work, 0);
	pr_info("traffic started: A QP %u -> B QP %u\n", side_a.qp->qp_num,
		side_b.qp->qp_num);
	return 0;
}

static struct kt_side *kt_side_of(const char *ibname)
{
	char name[IB_DEVICE_NAME_MAX];

	snprintf(name, sizeof(name), "roub_%s", dev_a);
	if (!strcmp(ibname, name))
		return &side_a;
	snprintf(name, sizeof(name), "roub_%s", dev_b);
	if (!strcmp(ibname, name))
		return &side_b;
	return NULL;
}

static int kt_add(struct ib_device *dev)
{
	struct kt_side *s = kt_side_of(dev_name(&dev->dev));

	if (!s)
		return -EOPNOTSUPP;
	mutex_lock(&kt_lock);
	s->dev = dev;
	mutex_unlock(&kt_lock);
	return 0;
}

/* The device goes: its objects go first, whatever runs on the other. */
static void kt_remove(struct ib_device *dev, void *data)
{
	struct kt_side *s = kt_side_of(dev_name(&dev->dev));

	if (!s)
		return;
	mutex_lock(&kt_lock);
	if (s->qp)
		pr_info("%s's device %s goes: destroying its objects (traffic %s)\n",
			s->name, dev_name(&dev->dev), kt_traffic_on ? "on" : "off");
	kt_destroy(s);
	s->dev = NULL;
	mutex_unlock(&kt_lock);
}

static struct ib_client kt_client = {
	.name = "roub_ktest",
	.add = kt_add,
	.remove = kt_remove,
};

static int __init kt_init(void)
{
	int ret;

	INIT_DELAYED_WORK(&kt_traffic_work, kt_traffic);
	ret = ib_register_client(&kt_client);
	if (ret)
		return ret;
	mutex_lock(&kt_lock);
	if (!side_a.dev || !side_b.dev) {
		pr_err("FAIL: roub_%s or roub_%s not found\n", dev_a, dev_b);
		ret = -ENODEV;
	} else if (!strcmp(phase, "traffic")) {
		ret = kt_start_traffic();
	} else {
		ret = kt_run_verbs();
		if (!ret)
			pr_info("PASS verbs\n");
	}
	if (ret && ret != -ENODEV) {
		kt_destroy(&side_a);
		kt_destroy(&side_b);
	}
	mutex_unlock(&kt_lock);
	if (ret) {
		kt_traffic_on = false;
		cancel_delayed_work_sync(&kt_traffic_work);
		ib_unregister_client(&kt_client);
	}
	return ret;
}

static void __exit kt_exit(void)
{
	mutex_lock(&kt_lock);
	kt_traffic_on = false;
	mutex_unlock(&kt_lock);
	cancel_delayed_work_sync(&kt_traffic_work);
	/* removes both sides: their objects go */
	ib_unregister_client(&kt_client);
}

module_init(kt_init);
module_exit(kt_exit);

MODULE_DESCRIPTION("RoUB kernel verbs test between two UB devices");
MODULE_AUTHOR("The UB/URMA stack authors");
MODULE_LICENSE("GPL");
