// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The UB/URMA stack authors
//
// libroub through Debian's libibverbs, what perftest and ibv_rc_pingpong
// do not cover: two RC QPs of one RoUB device connected to each other
// (GID 0 to GID 0), SEND, WRITE_WITH_IMM and READ with their data checked
// byte for byte, the refused objects and requests, QP error and flush
// (every send completes once, in order, done or flushed; every receive
// flushed; posts in ERR flushed at once). Run by
// tests/guest/cases/roub-verbs-user.sh in the namespace of the device's
// UB device, with ROUB_DEV naming the RoUB device and RDMAV_DRIVERS the
// provider; not an *_itest (it needs the case's namespace pair). With
// ROUB_LEAVE_OBJECTS=1 it exits without destroying anything, so that the
// case can check that the process's end frees it all.
#include <gtest/gtest.h>
#include <infiniband/verbs.h>

#include <arpa/inet.h>
#include <unistd.h>

#include <cstdio>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

constexpr size_t kBuf = 1 << 20;

struct Dev {
    ibv_context *ctx = nullptr;
    ibv_pd *pd = nullptr;
    std::vector<char> mem = std::vector<char>(kBuf);
    ibv_mr *mr = nullptr;
    union ibv_gid gid = {};
};

bool leave_objects()
{
    const char *v = std::getenv("ROUB_LEAVE_OBJECTS");
    return v != nullptr && std::string(v) == "1";
}

ibv_context *open_dev()
{
    const char *name = std::getenv("ROUB_DEV");
    int n = 0;
    ibv_device **list = ibv_get_device_list(&n);
    ibv_context *ctx = nullptr;
    for (int i = 0; list != nullptr && i < n; i++)
        if (name != nullptr && std::string(ibv_get_device_name(list[i])) == name)
            ctx = ibv_open_device(list[i]);
    if (list != nullptr)
        ibv_free_device_list(list);
    return ctx;
}

struct Qp {
    ibv_cq *scq = nullptr;
    ibv_cq *rcq = nullptr;
    ibv_qp *qp = nullptr;
};

Qp make_qp(Dev &d, uint32_t depth)
{
    Qp q;
    q.scq = ibv_create_cq(d.ctx, 256, nullptr, nullptr, 0);
    q.rcq = ibv_create_cq(d.ctx, 256, nullptr, nullptr, 0);
    EXPECT_NE(q.scq, nullptr);
    EXPECT_NE(q.rcq, nullptr);
    ibv_qp_init_attr ia = {};
    ia.send_cq = q.scq;
    ia.recv_cq = q.rcq;
    ia.qp_type = IBV_QPT_RC;
    ia.cap.max_send_wr = depth;
    ia.cap.max_recv_wr = depth;
    ia.cap.max_send_sge = 8;
    ia.cap.max_recv_sge = 1;
    ia.sq_sig_all = 1;
    q.qp = ibv_create_qp(d.pd, &ia);
    EXPECT_NE(q.qp, nullptr) << std::strerror(errno);
    return q;
}

int to_init(ibv_qp *qp)
{
    ibv_qp_attr a = {};
    a.qp_state = IBV_QPS_INIT;
    a.pkey_index = 0;
    a.port_num = 1;
    a.qp_access_flags = IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ | IBV_ACCESS_LOCAL_WRITE;
    return ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT | IBV_QP_ACCESS_FLAGS);
}

int to_rtr(ibv_qp *qp, const union ibv_gid &gid, uint32_t dqpn, bool grh = true)
{
    ibv_qp_attr a = {};
    a.qp_state = IBV_QPS_RTR;
    a.path_mtu = IBV_MTU_1024;
    a.dest_qp_num = dqpn;
    a.rq_psn = 0;
    a.max_dest_rd_atomic = 1;
    a.min_rnr_timer = 12;
    a.ah_attr.is_global = grh ? 1 : 0;
    a.ah_attr.grh.dgid = gid;
    a.ah_attr.grh.sgid_index = 0;
    a.ah_attr.grh.hop_limit = 1;
    a.ah_attr.dlid = 1;
    a.ah_attr.port_num = 1;
    return ibv_modify_qp(qp, &a,
                         IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN | IBV_QP_RQ_PSN |
                             IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER);
}

int to_rts(ibv_qp *qp)
{
    ibv_qp_attr a = {};
    a.qp_state = IBV_QPS_RTS;
    a.timeout = 14;
    a.retry_cnt = 7;
    a.rnr_retry = 7;
    a.sq_psn = 0;
    a.max_rd_atomic = 1;
    return ibv_modify_qp(qp, &a,
                         IBV_QP_STATE | IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY | IBV_QP_SQ_PSN |
                             IBV_QP_MAX_QP_RD_ATOMIC);
}

// Poll @n WCs off @cq (at most 120 s).
std::vector<ibv_wc> poll(ibv_cq *cq, size_t n)
{
    std::vector<ibv_wc> out;
    for (long spins = 0; out.size() < n && spins < 120L * 100000; spins++) {
        ibv_wc wc[16];
        int got = ibv_poll_cq(cq, 16, wc);
        EXPECT_GE(got, 0);
        for (int i = 0; i < got; i++)
            out.push_back(wc[i]);
        if (got == 0)
            usleep(10);
    }
    return out;
}

int post_recv(ibv_qp *qp, Dev &d, uint64_t id, size_t off, uint32_t len)
{
    ibv_sge s = {reinterpret_cast<uintptr_t>(d.mem.data() + off), len, d.mr->lkey};
    ibv_recv_wr wr = {};
    ibv_recv_wr *bad = nullptr;
    wr.wr_id = id;
    wr.sg_list = &s;
    wr.num_sge = 1;
    return ibv_post_recv(qp, &wr, &bad);
}

int post_send(ibv_qp *qp, Dev &d, uint64_t id, ibv_wr_opcode op, size_t off, uint32_t len, uint64_t raddr = 0,
              uint32_t imm = 0)
{
    ibv_sge s = {reinterpret_cast<uintptr_t>(d.mem.data() + off), len, d.mr->lkey};
    ibv_send_wr wr = {};
    ibv_send_wr *bad = nullptr;
    wr.wr_id = id;
    wr.sg_list = &s;
    wr.num_sge = 1;
    wr.opcode = op;
    wr.send_flags = IBV_SEND_SIGNALED;
    wr.imm_data = htonl(imm);
    wr.wr.rdma.remote_addr = raddr;
    wr.wr.rdma.rkey = d.mr->rkey;
    return ibv_post_send(qp, &wr, &bad);
}

class RoubVerbs : public ::testing::Test {
protected:
    void SetUp() override
    {
        d.ctx = open_dev();
        ASSERT_NE(d.ctx, nullptr) << "ROUB_DEV " << (std::getenv("ROUB_DEV") ? std::getenv("ROUB_DEV") : "unset");
        d.pd = ibv_alloc_pd(d.ctx);
        ASSERT_NE(d.pd, nullptr);
        d.mr = ibv_reg_mr(d.pd, d.mem.data(), kBuf,
                          IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ);
        ASSERT_NE(d.mr, nullptr) << std::strerror(errno);
        EXPECT_EQ(d.mr->lkey, d.mr->rkey);
        ASSERT_EQ(ibv_query_gid(d.ctx, 1, 0, &d.gid), 0);
    }
    void TearDown() override
    {
        if (leave_objects())
            return;
        for (Qp &q : qps) {
            if (q.qp != nullptr) {
                EXPECT_EQ(ibv_destroy_qp(q.qp), 0);
            }
            if (q.scq != nullptr) {
                EXPECT_EQ(ibv_destroy_cq(q.scq), 0);
            }
            if (q.rcq != nullptr) {
                EXPECT_EQ(ibv_destroy_cq(q.rcq), 0);
            }
        }
        if (d.mr != nullptr) {
            EXPECT_EQ(ibv_dereg_mr(d.mr), 0);
        }
        if (d.pd != nullptr) {
            EXPECT_EQ(ibv_dealloc_pd(d.pd), 0);
        }
        if (d.ctx != nullptr) {
            EXPECT_EQ(ibv_close_device(d.ctx), 0);
        }
    }
    // Two QPs connected to each other, in RTS.
    void pair(uint32_t depth)
    {
        qps.push_back(make_qp(d, depth));
        qps.push_back(make_qp(d, depth));
        a = qps[0].qp;
        b = qps[1].qp;
        ASSERT_NE(a, nullptr);
        ASSERT_NE(b, nullptr);
        ASSERT_EQ(to_init(a), 0);
        ASSERT_EQ(to_init(b), 0);
        ASSERT_EQ(to_rtr(a, d.gid, b->qp_num), 0);
        ASSERT_EQ(to_rtr(b, d.gid, a->qp_num), 0);
        ASSERT_EQ(to_rts(a), 0);
        ASSERT_EQ(to_rts(b), 0);
    }
    void fill(size_t off, size_t len, unsigned seed)
    {
        for (size_t i = 0; i < len; i++)
            d.mem[off + i] = static_cast<char>((i * 131 + seed) & 0xff);
    }
    Dev d;
    std::vector<Qp> qps;
    ibv_qp *a = nullptr;
    ibv_qp *b = nullptr;
};

TEST_F(RoubVerbs, RefusedObjects)
{
    ibv_comp_channel *ch = ibv_create_comp_channel(d.ctx);
    ASSERT_NE(ch, nullptr);
    errno = 0;
    EXPECT_EQ(ibv_create_cq(d.ctx, 16, nullptr, ch, 0), nullptr);
    EXPECT_EQ(errno, EOPNOTSUPP);
    EXPECT_EQ(ibv_destroy_comp_channel(ch), 0);
    Qp q;
    q.scq = ibv_create_cq(d.ctx, 16, nullptr, nullptr, 0);
    ASSERT_NE(q.scq, nullptr);
    qps.push_back(q);
    ibv_qp_init_attr ia = {};
    ia.send_cq = ia.recv_cq = q.scq;
    ia.qp_type = IBV_QPT_UD;
    ia.cap.max_send_wr = ia.cap.max_recv_wr = 4;
    ia.cap.max_send_sge = ia.cap.max_recv_sge = 1;
    errno = 0;
    EXPECT_EQ(ibv_create_qp(d.pd, &ia), nullptr);
    EXPECT_EQ(errno, EOPNOTSUPP);
    ia.qp_type = IBV_QPT_RC;
    ia.cap.max_send_sge = 9; // the guide's 8
    errno = 0;
    EXPECT_EQ(ibv_create_qp(d.pd, &ia), nullptr);
    EXPECT_EQ(errno, EINVAL);
    ia.cap.max_send_sge = 1;
    ia.cap.max_recv_sge = 2; // the guide's 1
    EXPECT_EQ(ibv_create_qp(d.pd, &ia), nullptr);
    ia.cap.max_recv_sge = 1;
    ia.cap.max_inline_data = 4096; // udma's 192
    EXPECT_EQ(ibv_create_qp(d.pd, &ia), nullptr);
    errno = 0;
    EXPECT_EQ(ibv_reg_mr(d.pd, d.mem.data(), 4096, IBV_ACCESS_REMOTE_ATOMIC | IBV_ACCESS_LOCAL_WRITE), nullptr);
    EXPECT_EQ(errno, EOPNOTSUPP);
    // an address vector without a GRH
    ia.cap.max_inline_data = 0;
    ibv_qp *qp = ibv_create_qp(d.pd, &ia);
    ASSERT_NE(qp, nullptr);
    EXPECT_EQ(to_init(qp), 0);
    EXPECT_EQ(to_rtr(qp, d.gid, qp->qp_num, false), EINVAL);
    EXPECT_EQ(ibv_destroy_qp(qp), 0);
}

TEST_F(RoubVerbs, DataBothWays)
{
    pair(64);
    // SEND of 4 KiB into B's receive
    fill(0, 4096, 1);
    ASSERT_EQ(post_recv(b, d, 11, 65536, 8192), 0);
    ASSERT_EQ(post_send(a, d, 21, IBV_WR_SEND, 0, 4096), 0);
    auto s = poll(qps[0].scq, 1);
    auto r = poll(qps[1].rcq, 1);
    ASSERT_EQ(s.size(), 1u);
    ASSERT_EQ(r.size(), 1u);
    EXPECT_EQ(s[0].status, IBV_WC_SUCCESS);
    EXPECT_EQ(s[0].wr_id, 21u);
    EXPECT_EQ(s[0].opcode, IBV_WC_SEND);
    EXPECT_EQ(r[0].status, IBV_WC_SUCCESS);
    EXPECT_EQ(r[0].wr_id, 11u);
    EXPECT_EQ(r[0].opcode, IBV_WC_RECV);
    EXPECT_EQ(r[0].byte_len, 4096u);
    EXPECT_EQ(r[0].qp_num, b->qp_num);
    EXPECT_EQ(r[0].src_qp, a->qp_num);
    EXPECT_EQ(std::memcmp(d.mem.data(), d.mem.data() + 65536, 4096), 0);

    // WRITE_WITH_IMM of 128 KiB, its receive WC with the immediate data
    fill(131072, 131072, 7);
    ASSERT_EQ(post_recv(b, d, 12, 65536, 0), 0);
    ASSERT_EQ(post_send(a, d, 22, IBV_WR_RDMA_WRITE_WITH_IMM, 131072, 131072,
                        reinterpret_cast<uintptr_t>(d.mem.data() + 393216), 0x12345678),
              0);
    s = poll(qps[0].scq, 1);
    r = poll(qps[1].rcq, 1);
    ASSERT_EQ(s.size(), 1u);
    ASSERT_EQ(r.size(), 1u);
    EXPECT_EQ(s[0].status, IBV_WC_SUCCESS);
    EXPECT_EQ(s[0].opcode, IBV_WC_RDMA_WRITE);
    EXPECT_EQ(r[0].status, IBV_WC_SUCCESS);
    EXPECT_EQ(r[0].opcode, IBV_WC_RECV_RDMA_WITH_IMM);
    EXPECT_TRUE(r[0].wc_flags & IBV_WC_WITH_IMM);
    EXPECT_EQ(ntohl(r[0].imm_data), 0x12345678u);
    EXPECT_EQ(std::memcmp(d.mem.data() + 131072, d.mem.data() + 393216, 131072), 0);

    // READ of 64 KiB by B
    fill(524288, 65536, 3);
    ASSERT_EQ(post_send(b, d, 23, IBV_WR_RDMA_READ, 655360, 65536,
                        reinterpret_cast<uintptr_t>(d.mem.data() + 524288)),
              0);
    s = poll(qps[1].scq, 1);
    ASSERT_EQ(s.size(), 1u);
    EXPECT_EQ(s[0].status, IBV_WC_SUCCESS);
    EXPECT_EQ(s[0].opcode, IBV_WC_RDMA_READ);
    EXPECT_EQ(std::memcmp(d.mem.data() + 524288, d.mem.data() + 655360, 65536), 0);

    // refused requests: SEND over 64 KiB, an lkey of no MR, CAS
    EXPECT_EQ(post_send(a, d, 24, IBV_WR_SEND, 0, 65537), EINVAL);
    EXPECT_EQ(post_send(a, d, 25, IBV_WR_ATOMIC_CMP_AND_SWP, 0, 8), EINVAL);
    ibv_sge sg = {reinterpret_cast<uintptr_t>(d.mem.data()), 64, d.mr->lkey ^ 0x800};
    ibv_send_wr wr = {};
    ibv_send_wr *bad = nullptr;
    wr.sg_list = &sg;
    wr.num_sge = 1;
    wr.opcode = IBV_WR_SEND;
    EXPECT_EQ(ibv_post_send(a, &wr, &bad), EINVAL);
    EXPECT_EQ(bad, &wr);
    // a wrong rkey: the target refuses it
    wr.opcode = IBV_WR_RDMA_WRITE;
    wr.send_flags = IBV_SEND_SIGNALED;
    sg.lkey = d.mr->lkey;
    wr.wr.rdma.remote_addr = reinterpret_cast<uintptr_t>(d.mem.data());
    wr.wr.rdma.rkey = d.mr->rkey ^ 0x1;
    wr.wr_id = 26;
    ASSERT_EQ(ibv_post_send(a, &wr, &bad), 0);
    s = poll(qps[0].scq, 1);
    ASSERT_EQ(s.size(), 1u);
    EXPECT_EQ(s[0].wr_id, 26u);
    EXPECT_EQ(s[0].status, IBV_WC_REM_ACCESS_ERR);
}

TEST_F(RoubVerbs, ErrorAndFlush)
{
    pair(64);
    constexpr int kSends = 32, kRecvs = 8;
    for (int i = 0; i < kRecvs; i++)
        ASSERT_EQ(post_recv(a, d, 100 + i, 0, 64), 0);
    for (int i = 0; i < kSends; i++)
        ASSERT_EQ(post_send(a, d, 1000 + i, IBV_WR_RDMA_WRITE, 65536, 16384,
                            reinterpret_cast<uintptr_t>(d.mem.data() + 262144)),
                  0);
    ibv_qp_attr at = {};
    at.qp_state = IBV_QPS_ERR;
    ASSERT_EQ(ibv_modify_qp(a, &at, IBV_QP_STATE), 0);
    auto s = poll(qps[0].scq, kSends);
    ASSERT_EQ(s.size(), static_cast<size_t>(kSends));
    bool flushed = false;
    int done = 0;
    for (int i = 0; i < kSends; i++) {
        EXPECT_EQ(s[i].wr_id, static_cast<uint64_t>(1000 + i)) << "in order, each once";
        if (s[i].status == IBV_WC_SUCCESS) {
            EXPECT_FALSE(flushed) << "a success after a flush";
            done++;
        } else {
            EXPECT_EQ(s[i].status, IBV_WC_WR_FLUSH_ERR);
            flushed = true;
        }
    }
    std::printf("error and flush: %d of %d WRITEs done, the rest flushed\n", done, kSends);
    auto r = poll(qps[0].rcq, kRecvs);
    ASSERT_EQ(r.size(), static_cast<size_t>(kRecvs));
    for (int i = 0; i < kRecvs; i++) {
        EXPECT_EQ(r[i].wr_id, static_cast<uint64_t>(100 + i));
        EXPECT_EQ(r[i].status, IBV_WC_WR_FLUSH_ERR);
        EXPECT_EQ(r[i].opcode, IBV_WC_RECV);
    }
    // in ERR, posts complete at once, flushed
    EXPECT_EQ(post_send(a, d, 2000, IBV_WR_SEND, 0, 64), 0);
    EXPECT_EQ(post_recv(a, d, 2001, 0, 64), 0);
    s = poll(qps[0].scq, 1);
    r = poll(qps[0].rcq, 1);
    ASSERT_EQ(s.size(), 1u);
    ASSERT_EQ(r.size(), 1u);
    EXPECT_EQ(s[0].wr_id, 2000u);
    EXPECT_EQ(s[0].status, IBV_WC_WR_FLUSH_ERR);
    EXPECT_EQ(r[0].wr_id, 2001u);
    EXPECT_EQ(r[0].status, IBV_WC_WR_FLUSH_ERR);
    // no way back to RESET
    at.qp_state = IBV_QPS_RESET;
    EXPECT_EQ(ibv_modify_qp(a, &at, IBV_QP_STATE), EOPNOTSUPP);
    ibv_wc extra;
    EXPECT_EQ(ibv_poll_cq(qps[0].scq, 1, &extra), 0) << "nothing completes twice";
}

} // namespace
