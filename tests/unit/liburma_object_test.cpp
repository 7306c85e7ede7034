// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The UB/URMA stack authors
// liburma's object logic that needs no kernel: ring mapping (over a memfd
// standing in for the device file), ring description checks, JFS/JFR
// configuration checks and ABI conversions, segment access rules and
// attributes, and the argument checks of the C API that fail before any
// command is sent.
#include <gtest/gtest.h>

#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "jetty.h"
#include "ring.h"
#include "segment.h"
#include "urma_api.h"

namespace {

size_t page()
{
    return static_cast<size_t>(sysconf(_SC_PAGESIZE));
}

udma_ring_info ring(uint32_t cnt, uint32_t size)
{
    udma_ring_info info = {};
    info.mmap_offset = 0;
    info.entry_cnt = cnt;
    info.entry_size = size;
    uint64_t bytes = page() + static_cast<uint64_t>(cnt) * size;
    info.mmap_len = (bytes + page() - 1) / page() * page();
    return info;
}

TEST(RingInfo, AcceptsWellFormed)
{
    EXPECT_TRUE(urma::ring_info_valid(ring(64, UDMA_CQE_SIZE), UDMA_CQE_SIZE, page()));
    EXPECT_TRUE(urma::ring_info_valid(ring(1, UDMA_SQE_SIZE), UDMA_SQE_SIZE, page()));
}

TEST(RingInfo, RejectsMalformed)
{
    udma_ring_info r = ring(64, UDMA_CQE_SIZE);
    r.entry_cnt = 48;  // not a power of two
    EXPECT_FALSE(urma::ring_info_valid(r, UDMA_CQE_SIZE, page()));
    r = ring(64, UDMA_CQE_SIZE);
    r.entry_cnt = 0;
    EXPECT_FALSE(urma::ring_info_valid(r, UDMA_CQE_SIZE, page()));
    r = ring(64, UDMA_CQE_SIZE);
    EXPECT_FALSE(urma::ring_info_valid(r, UDMA_SQE_SIZE, page()));  // wrong entry size
    r = ring(1024, UDMA_SQE_SIZE);
    r.mmap_len -= page();  // entries do not fit
    EXPECT_FALSE(urma::ring_info_valid(r, UDMA_SQE_SIZE, page()));
    r = ring(64, UDMA_CQE_SIZE);
    r.mmap_offset = 100;  // not page aligned
    EXPECT_FALSE(urma::ring_info_valid(r, UDMA_CQE_SIZE, page()));
    r = ring(64, UDMA_CQE_SIZE);
    r.mmap_len = 0;
    EXPECT_FALSE(urma::ring_info_valid(r, UDMA_CQE_SIZE, page()));
    r = ring(1u << 31, UDMA_SQE_SIZE);  // count * size overflows 32 bits
    r.mmap_len = 2 * page();
    EXPECT_FALSE(urma::ring_info_valid(r, UDMA_SQE_SIZE, page()));
}

class RingMappingTest : public ::testing::Test {
protected:
    void SetUp() override
    {
        fd_ = memfd_create("ring", MFD_CLOEXEC);
        ASSERT_GE(fd_, 0);
        ASSERT_EQ(ftruncate(fd_, static_cast<off_t>(8 * page())), 0);
    }
    void TearDown() override { close(fd_); }
    int fd_ = -1;
};

TEST_F(RingMappingTest, MapsSharedAndIndexesEntries)
{
    urma::RingMapping m;
    udma_ring_info info = ring(16, UDMA_CQE_SIZE);

    ASSERT_EQ(m.map(fd_, info, UDMA_CQE_SIZE), 0);
    ASSERT_TRUE(m.mapped());
    EXPECT_EQ(m.len(), info.mmap_len);
    EXPECT_EQ(m.entry_cnt(), 16u);
    // Entries follow the control page and wrap with the free-running index.
    EXPECT_EQ(static_cast<char *>(m.entry(0)), static_cast<char *>(m.addr()) + page());
    EXPECT_EQ(m.entry(3), static_cast<char *>(m.entry(0)) + 3 * UDMA_CQE_SIZE);
    EXPECT_EQ(m.entry(16 + 3), m.entry(3));
    // MAP_SHARED: what the library writes, the other side (here another
    // mapping of the same file) sees, as the kernel will.
    m.ctrl()->ci = 42;
    void *other = mmap(nullptr, page(), PROT_READ, MAP_SHARED, fd_, 0);
    ASSERT_NE(other, MAP_FAILED);
    EXPECT_EQ(static_cast<udma_ring_ctrl *>(other)->ci, 42u);
    munmap(other, page());
}

TEST_F(RingMappingTest, UnmapsOnDestructionAndMove)
{
    void *addr;
    {
        urma::RingMapping m;
        ASSERT_EQ(m.map(fd_, ring(16, UDMA_CQE_SIZE), UDMA_CQE_SIZE), 0);
        addr = m.addr();
        urma::RingMapping moved(std::move(m));
        EXPECT_FALSE(m.mapped());
        EXPECT_EQ(moved.addr(), addr);
        // Still mapped: mincore succeeds on a mapped page.
        unsigned char vec;
        EXPECT_EQ(mincore(addr, page(), &vec), 0);
    }
    unsigned char vec;
    EXPECT_EQ(mincore(addr, page(), &vec), -1);
    EXPECT_EQ(errno, ENOMEM);
}

TEST_F(RingMappingTest, RefusesBadInfoAndBadFd)
{
    urma::RingMapping m;
    udma_ring_info bad = ring(16, UDMA_CQE_SIZE);
    bad.entry_cnt = 17;
    EXPECT_EQ(m.map(fd_, bad, UDMA_CQE_SIZE), -EINVAL);
    EXPECT_FALSE(m.mapped());
    EXPECT_EQ(m.map(-1, ring(16, UDMA_CQE_SIZE), UDMA_CQE_SIZE), -EBADF);
    EXPECT_FALSE(m.mapped());
    EXPECT_EQ(m.entry(0), nullptr);
}

urma_device_cap_t caps()
{
    urma_device_cap_t cap = {};
    cap.max_jfs_depth = 1024;
    cap.max_jfr_depth = 1024;
    cap.max_jfc_depth = 4096;
    cap.max_jfs_inline_len = 128;
    cap.max_jfs_sge = 4;
    cap.max_jfs_rsge = 1;
    cap.max_jfr_sge = 4;
    return cap;
}

urma_jfc_t g_jfc;

urma_jfs_cfg_t good_jfs()
{
    urma_jfs_cfg_t cfg = {};
    cfg.depth = 64;
    cfg.trans_mode = URMA_TM_RM;
    cfg.max_sge = 2;
    cfg.max_rsge = 1;
    cfg.max_inline_data = 64;
    cfg.rnr_retry = URMA_TYPICAL_RNR_RETRY;
    cfg.err_timeout = URMA_TYPICAL_ERR_TIMEOUT;
    cfg.priority = 3;
    cfg.jfc = &g_jfc;
    return cfg;
}

TEST(JfsCfg, Limits)
{
    const urma_device_cap_t cap = caps();
    urma_jfs_cfg_t c = good_jfs();
    EXPECT_TRUE(urma::jfs_cfg_valid(c, cap));
    c.depth = 0;
    EXPECT_FALSE(urma::jfs_cfg_valid(c, cap));
    c.depth = cap.max_jfs_depth;
    EXPECT_TRUE(urma::jfs_cfg_valid(c, cap));
    c.depth = cap.max_jfs_depth + 1;
    EXPECT_FALSE(urma::jfs_cfg_valid(c, cap));
    c = good_jfs();
    c.max_inline_data = 129;
    EXPECT_FALSE(urma::jfs_cfg_valid(c, cap));
    c = good_jfs();
    c.max_sge = 5;
    EXPECT_FALSE(urma::jfs_cfg_valid(c, cap));
    c = good_jfs();
    c.max_rsge = 2;
    EXPECT_FALSE(urma::jfs_cfg_valid(c, cap));
    c = good_jfs();
    c.jfc = nullptr;
    EXPECT_FALSE(urma::jfs_cfg_valid(c, cap));
    c = good_jfs();
    c.trans_mode = static_cast<urma_transport_mode_t>(URMA_TM_RM | URMA_TM_RC);
    EXPECT_FALSE(urma::jfs_cfg_valid(c, cap));
    c = good_jfs();
    c.priority = URMA_MAX_PRIORITY + 1;
    EXPECT_FALSE(urma::jfs_cfg_valid(c, cap));
    c = good_jfs();
    c.rnr_retry = 8;
    EXPECT_FALSE(urma::jfs_cfg_valid(c, cap));
    c = good_jfs();
    c.err_timeout = 32;
    EXPECT_FALSE(urma::jfs_cfg_valid(c, cap));
}

TEST(JfrCfg, Limits)
{
    const urma_device_cap_t cap = caps();
    urma_jfr_cfg_t c = {};
    c.depth = 128;
    c.max_sge = 1;
    c.trans_mode = URMA_TM_UM;
    c.jfc = &g_jfc;
    c.min_rnr_timer = URMA_TYPICAL_MIN_RNR_TIMER;
    EXPECT_TRUE(urma::jfr_cfg_valid(c, cap));
    urma_jfr_cfg_t d = c;
    d.depth = 0;
    EXPECT_FALSE(urma::jfr_cfg_valid(d, cap));
    d = c;
    d.depth = 1025;
    EXPECT_FALSE(urma::jfr_cfg_valid(d, cap));
    d = c;
    d.max_sge = 5;
    EXPECT_FALSE(urma::jfr_cfg_valid(d, cap));
    d = c;
    d.jfc = nullptr;
    EXPECT_FALSE(urma::jfr_cfg_valid(d, cap));
    d = c;
    d.trans_mode = static_cast<urma_transport_mode_t>(0);
    EXPECT_FALSE(urma::jfr_cfg_valid(d, cap));
    d = c;
    d.min_rnr_timer = 32;
    EXPECT_FALSE(urma::jfr_cfg_valid(d, cap));
}

TEST(JfsCfg, AbiRoundTripKeepsLocalFields)
{
    urma_jfs_cfg_t c = good_jfs();
    c.flag.bs.error_suspend = 1;
    c.flag.bs.order_type = URMA_OI;
    c.user_ctx = 0x1234;
    uburma_jfs_cfg abi;
    urma::jfs_cfg_to_abi(c, &abi);
    EXPECT_EQ(abi.depth, 64u);
    EXPECT_EQ(abi.flag, c.flag.value);
    EXPECT_EQ(abi.trans_mode, static_cast<uint32_t>(URMA_TM_RM));
    EXPECT_EQ(abi.max_inline_data, 64u);
    EXPECT_EQ(abi.priority, 3);
    EXPECT_EQ(abi.max_sge, 2);
    EXPECT_EQ(abi.max_rsge, 1);
    EXPECT_EQ(abi.rnr_retry, URMA_TYPICAL_RNR_RETRY);
    EXPECT_EQ(abi.err_timeout, URMA_TYPICAL_ERR_TIMEOUT);
    // The kernel rounds the depth up; the copy keeps jfc and user_ctx.
    abi.depth = 128;
    urma_jfs_cfg_t back = c;
    urma::jfs_cfg_from_abi(abi, &back);
    EXPECT_EQ(back.depth, 128u);
    EXPECT_EQ(back.jfc, &g_jfc);
    EXPECT_EQ(back.user_ctx, 0x1234u);
    EXPECT_EQ(back.flag.value, c.flag.value);
}

TEST(JfrCfg, AbiCarriesTokenButQueryKeepsIt)
{
    urma_jfr_cfg_t c = {};
    c.id = 77;
    c.depth = 100;
    c.flag.bs.token_policy = URMA_TOKEN_PLAIN_TEXT;
    c.trans_mode = URMA_TM_RC;
    c.max_sge = 2;
    c.min_rnr_timer = 12;
    c.token_value.token = 0xdeadbeef;
    c.jfc = &g_jfc;
    uburma_jfr_cfg abi;
    urma::jfr_cfg_to_abi(c, &abi);
    EXPECT_EQ(abi.id, 77u);
    EXPECT_EQ(abi.depth, 100u);
    EXPECT_EQ(abi.flag, c.flag.value);
    EXPECT_EQ(abi.trans_mode, static_cast<uint32_t>(URMA_TM_RC));
    EXPECT_EQ(abi.token_value, 0xdeadbeefu);
    EXPECT_EQ(abi.max_sge, 2);
    EXPECT_EQ(abi.min_rnr_timer, 12);
    abi.depth = 128;
    abi.token_value = 0;  // the kernel never returns it
    urma_jfr_cfg_t back = c;
    urma::jfr_cfg_from_abi(abi, &back);
    EXPECT_EQ(back.depth, 128u);
    EXPECT_EQ(back.token_value.token, 0xdeadbeefu);
    EXPECT_EQ(back.jfc, &g_jfc);
}

TEST(SegAccess, Rules)
{
    EXPECT_TRUE(urma::seg_access_valid(0));
    EXPECT_TRUE(urma::seg_access_valid(URMA_ACCESS_LOCAL_ONLY));
    EXPECT_TRUE(urma::seg_access_valid(URMA_ACCESS_READ));
    EXPECT_TRUE(urma::seg_access_valid(URMA_ACCESS_READ | URMA_ACCESS_WRITE));
    EXPECT_TRUE(urma::seg_access_valid(URMA_ACCESS_READ | URMA_ACCESS_WRITE | URMA_ACCESS_ATOMIC));
    EXPECT_FALSE(urma::seg_access_valid(URMA_ACCESS_WRITE));
    EXPECT_FALSE(urma::seg_access_valid(URMA_ACCESS_ATOMIC));
    EXPECT_FALSE(urma::seg_access_valid(URMA_ACCESS_READ | URMA_ACCESS_ATOMIC));
    EXPECT_FALSE(urma::seg_access_valid(URMA_ACCESS_WRITE | URMA_ACCESS_ATOMIC));
    EXPECT_FALSE(urma::seg_access_valid(URMA_ACCESS_LOCAL_ONLY | URMA_ACCESS_READ));
    EXPECT_FALSE(urma::seg_access_valid(URMA_ACCESS_LOCAL_ONLY | URMA_ACCESS_READ | URMA_ACCESS_WRITE));
    EXPECT_FALSE(urma::seg_access_valid(0x10));
}

TEST(SegCfg, TokenIdAndRange)
{
    urma_token_id_t tid = {};
    urma_seg_cfg_t c = {};
    c.va = 0x1000;
    c.len = 4096;
    c.flag.bs.access = URMA_ACCESS_READ;
    EXPECT_TRUE(urma::seg_cfg_valid(c));
    c.token_id = &tid;  // given but not flagged valid
    EXPECT_FALSE(urma::seg_cfg_valid(c));
    c.flag.bs.token_id_valid = URMA_TOKEN_ID_VALID;
    EXPECT_TRUE(urma::seg_cfg_valid(c));
    c.token_id = nullptr;  // flagged valid but missing
    EXPECT_FALSE(urma::seg_cfg_valid(c));
    c.flag.bs.token_id_valid = URMA_TOKEN_ID_INVALID;
    c.va = 0;
    EXPECT_FALSE(urma::seg_cfg_valid(c));
    c.va = 0x1000;
    c.len = 0;
    EXPECT_FALSE(urma::seg_cfg_valid(c));
    c.len = 4096;
    c.flag.bs.token_policy = URMA_TOKEN_RESERVED;
    EXPECT_FALSE(urma::seg_cfg_valid(c));
}

TEST(SegAttr, FromFlag)
{
    urma_reg_seg_flag_t f = {};
    f.bs.token_policy = URMA_TOKEN_PLAIN_TEXT;
    f.bs.cacheable = URMA_CACHEABLE;
    f.bs.access = URMA_ACCESS_READ | URMA_ACCESS_WRITE;
    f.bs.non_pin = 0;
    f.bs.user_iova = 1;
    f.bs.token_id_valid = URMA_TOKEN_ID_VALID;
    urma_seg_attr_t a = urma::seg_attr_from_flag(f);
    EXPECT_EQ(a.bs.token_policy, static_cast<uint32_t>(URMA_TOKEN_PLAIN_TEXT));
    EXPECT_EQ(a.bs.cacheable, 1u);
    EXPECT_EQ(a.bs.access, static_cast<uint32_t>(URMA_ACCESS_READ | URMA_ACCESS_WRITE));
    EXPECT_EQ(a.bs.user_iova, 1u);
    EXPECT_EQ(a.bs.user_token_id, 1u);
    EXPECT_EQ(a.bs.has_user_info, 0u);
    f.bs.token_id_valid = URMA_TOKEN_ID_INVALID;
    EXPECT_EQ(urma::seg_attr_from_flag(f).bs.user_token_id, 0u);
}

// The C API's argument checks that come before any command: no kernel here,
// so reaching the kernel would fail differently (EBADF on fd -1).
TEST(ApiArgs, NullArgumentsAreEinval)
{
    errno = 0;
    EXPECT_EQ(urma_create_jfc(nullptr, nullptr), nullptr);
    EXPECT_EQ(errno, EINVAL);
    EXPECT_EQ(urma_modify_jfc(nullptr, nullptr), URMA_EINVAL);
    EXPECT_EQ(urma_delete_jfc(nullptr), URMA_EINVAL);
    EXPECT_EQ(urma_create_jfs(nullptr, nullptr), nullptr);
    EXPECT_EQ(urma_modify_jfs(nullptr, nullptr), URMA_EINVAL);
    EXPECT_EQ(urma_query_jfs(nullptr, nullptr, nullptr), URMA_EINVAL);
    EXPECT_EQ(urma_delete_jfs(nullptr), URMA_EINVAL);
    EXPECT_EQ(urma_create_jfr(nullptr, nullptr), nullptr);
    EXPECT_EQ(urma_modify_jfr(nullptr, nullptr), URMA_EINVAL);
    EXPECT_EQ(urma_query_jfr(nullptr, nullptr, nullptr), URMA_EINVAL);
    EXPECT_EQ(urma_delete_jfr(nullptr), URMA_EINVAL);
    EXPECT_EQ(urma_create_jetty(nullptr, nullptr), nullptr);
    EXPECT_EQ(urma_modify_jetty(nullptr, nullptr), URMA_EINVAL);
    EXPECT_EQ(urma_query_jetty(nullptr, nullptr, nullptr), URMA_EINVAL);
    EXPECT_EQ(urma_delete_jetty(nullptr), URMA_EINVAL);
    EXPECT_EQ(urma_create_jfce(nullptr), nullptr);
    EXPECT_EQ(urma_delete_jfce(nullptr), URMA_EINVAL);
    EXPECT_EQ(urma_alloc_token_id(nullptr), nullptr);
    EXPECT_EQ(urma_free_token_id(nullptr), URMA_EINVAL);
    EXPECT_EQ(urma_register_seg(nullptr, nullptr), nullptr);
    EXPECT_EQ(urma_unregister_seg(nullptr), URMA_EINVAL);
    urma_import_seg_flag_t f = {};
    EXPECT_EQ(urma_import_seg(nullptr, nullptr, nullptr, 0, f), nullptr);
    EXPECT_EQ(urma_unimport_seg(nullptr), URMA_EINVAL);
    EXPECT_EQ(urma_import_jfr(nullptr, nullptr, nullptr), nullptr);
    EXPECT_EQ(urma_unimport_jfr(nullptr), URMA_EINVAL);
    EXPECT_EQ(urma_import_jetty(nullptr, nullptr, nullptr), nullptr);
    EXPECT_EQ(urma_unimport_jetty(nullptr), URMA_EINVAL);
    urma_async_event_t ev;
    EXPECT_EQ(urma_get_async_event(nullptr, &ev), URMA_EINVAL);
    urma_ack_async_event(nullptr);  // logs, does not crash
}

// The handshake of delete: an ack from another thread releases a waiter.
TEST(ApiArgs, AckAsyncEventSignalsTheObject)
{
    urma_jfs_t jfs = {};
    pthread_mutex_init(&jfs.event_mutex, nullptr);
    pthread_cond_init(&jfs.event_cond, nullptr);
    urma_context_t ctx = {};
    urma_async_event_t ev = {};
    ev.urma_ctx = &ctx;
    ev.event_type = URMA_EVENT_JFS_ERR;
    ev.element.jfs = &jfs;
    urma_ack_async_event(&ev);
    urma_ack_async_event(&ev);
    EXPECT_EQ(jfs.async_events_acked, 2u);
    // A device event acks nothing.
    ev.event_type = URMA_EVENT_PORT_DOWN;
    ev.element.port_id = 0;
    urma_ack_async_event(&ev);
    EXPECT_EQ(jfs.async_events_acked, 2u);
    pthread_cond_destroy(&jfs.event_cond);
    pthread_mutex_destroy(&jfs.event_mutex);
}

}  // namespace
