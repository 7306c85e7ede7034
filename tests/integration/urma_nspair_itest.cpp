// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The UB/URMA stack authors
// Two user processes on two "hosts" (issue 10): the namespace pair of
// tests/guest/lib.sh, built and removed by the bed of nspair.h; each test
// forks a peer in uboeB that serves as the remote side.
//
// Expectations: the user guide 5.1.1 (RM shares one TP per EID pair, RC
// one per bound jetty pair, UM none; both ends opening at once make one
// TP; a reject reaches the caller), docs/connection-manager.md (the
// errnos, peer loss: an RC TP's bound jetty goes to ERROR with
// URMA_EVENT_JETTY_ERR, its WQEs flushed, a WR_FLUSH_ERR_DONE record),
// the state names of figure 14 as ubcore and urma_admin print them, and
// lib.sh's addresses (the bed's EIDs).
#include <sys/wait.h>
#include <unistd.h>

#include <cstring>
#include <string>
#include <vector>

#include "nspair.h"

#ifndef URMA_ADMIN_PATH
#error "URMA_ADMIN_PATH must name the built urma_admin"
#endif

namespace {

using namespace ub_nspair;

// RM: the import opens the one TP of the EID pair across the namespaces
// (Initiator established here, Target established there, each naming the
// other's EID and TPN); SEND, WRITE, READ and FETCH_AND_ADD travel over it
// with their data; a message larger than one UBoE packet is segmented.
TEST_F(NsPair, RmImportCarriesSendWriteReadAndFaa)
{
    start([](Side &s, Chan &c) {
        Buf *b = nullptr;
        urma_jetty_t *pj = offer(s, c, URMA_TM_RM, &b, 8192);
        PEER_CHECK(pj != nullptr);
        fill(b->p + 2048, 512, 3);
        *reinterpret_cast<uint64_t *>(b->p + 4096) = 0x1000;
        PEER_CHECK(received(s, *b, 0, 1000, 1));
        PEER_CHECK(c.say("got-send"));
        PEER_CHECK(c.hear("wrote"));
        uint8_t w[512];
        fill(w, sizeof(w), 2);
        PEER_CHECK(std::memcmp(b->p + 1024, w, sizeof(w)) == 0);
        PEER_CHECK(c.say("checked-write"));
        PEER_CHECK(c.hear("added"));
        PEER_CHECK(*reinterpret_cast<uint64_t *>(b->p + 4096) == 0x1023);
        PEER_CHECK(c.say("checked-faa"));
        PEER_CHECK(s.recv(pj, *b, 0, 8192, 2) == URMA_SUCCESS);
        PEER_CHECK(c.say("posted-8k"));
        PEER_CHECK(received(s, *b, 0, 8192, 4, 2));
        PEER_CHECK(c.say("got-8k"));
        PEER_CHECK(c.hear("done"));
        return 0;
    });
    Offer o;
    ASSERT_NO_FATAL_FAILURE(take_offer(URMA_TM_RM, &o));
    auto &[m, j, l, tj] = o;
    EXPECT_EQ(ub_itest::eid_string(m.jetty[0].eid), kIp6B);
    ASSERT_NE(tj->tp.tpn, 0u);

    ASSERT_TRUE(tables_have(1)) << both_tables();
    ASSERT_TRUE(peer_end_is("Target established")) << both_tables();
    auto a = tps_a(), b = tps_b();
    EXPECT_EQ(a[0].tpn, tj->tp.tpn);
    EXPECT_EQ(a[0].peer, kIp6B);
    EXPECT_EQ(a[0].mode, "RM");
    EXPECT_EQ(a[0].state, "Initiator established");
    EXPECT_EQ(a[0].users, 1u);
    EXPECT_EQ(b[0].peer, kIp6A);
    EXPECT_EQ(b[0].mode, "RM");
    EXPECT_EQ(b[0].users, 0u);
    EXPECT_EQ(b[0].tpn, a[0].peer_tpn);
    EXPECT_EQ(b[0].peer_tpn, a[0].tpn);
    EXPECT_EQ(me.tp_count(URMA_TM_RM, m.jetty[0].eid), 1) << "one TP to the peer's EID";

    // The SEND leaves as a UBoE packet and its response comes back as one
    // (udmaB is in another namespace: another host, not the loopback).
    const long tx = wire_a("tx_packets"), rx = wire_a("rx_packets");
    fill(l->p, 1000, 1);
    ASSERT_NO_FATAL_FAILURE(completes(me.send(j, tj, *l, 0, 1000, 11), 11));
    EXPECT_GT(wire_a("tx_packets"), tx);
    EXPECT_GT(wire_a("rx_packets"), rx);
    ASSERT_TRUE(peer.hear("got-send"));

    urma_target_seg_t *rs = me.import_seg(m.seg);
    ASSERT_NE(rs, nullptr);
    const uint64_t va = m.seg.ubva.va;
    fill(l->p + 1024, 512, 2);
    ASSERT_NO_FATAL_FAILURE(completes(me.rw(URMA_OPC_WRITE, j, tj, *l, 1024, rs, va + 1024, 512, 12), 12));
    ASSERT_TRUE(peer.ask("wrote", "checked-write"));

    std::memset(l->p + 2048, 0, 512);
    ASSERT_NO_FATAL_FAILURE(completes(me.rw(URMA_OPC_READ, j, tj, *l, 2048, rs, va + 2048, 512, 13), 13));
    uint8_t want[512];
    fill(want, sizeof(want), 3);
    EXPECT_EQ(std::memcmp(l->p + 2048, want, sizeof(want)), 0) << "READ brought the peer's bytes";

    *reinterpret_cast<uint64_t *>(l->p + 4096) = 0;
    ASSERT_NO_FATAL_FAILURE(completes(me.faa(j, tj, *l, 4096, rs, va + 4096, 0x23, 14), 14));
    EXPECT_EQ(*reinterpret_cast<uint64_t *>(l->p + 4096), 0x1000u) << "the old value";
    ASSERT_TRUE(peer.ask("added", "checked-faa"));

    // 8192 bytes do not fit in one UBoE packet at vA's MTU of 1500: the
    // carrier segments the SEND (1 KiB of payload a packet at this MTU,
    // docs/uboe-wire.md: 8 packets) and the peer's one RQE takes it whole.
    ASSERT_TRUE(peer.hear("posted-8k"));
    const long too_big = wire_a("tx_msg_too_big"), tx8 = wire_a("tx_packets");
    fill(l->p, 8192, 4);
    ASSERT_NO_FATAL_FAILURE(completes(me.send(j, tj, *l, 0, 8192, 15), 15));
    EXPECT_GE(wire_a("tx_packets") - tx8, 8) << "one packet per KiB";
    EXPECT_EQ(wire_a("tx_msg_too_big"), too_big);
    ASSERT_TRUE(peer.hear("got-8k"));
    ASSERT_TRUE(peer.say("done"));
}

// RC: the import opens nothing; the bind opens the pair's TP; the peer
// binds back on it (one TP, "reused" at both ends); SENDs both ways.
TEST_F(NsPair, RcBindCarriesSendsBothWays)
{
    start([](Side &s, Chan &c) {
        Buf *b = nullptr;
        urma_jetty_t *j = offer(s, c, URMA_TM_RC, &b);
        PEER_CHECK(j != nullptr);
        Msg m;
        PEER_CHECK(c.hear("bound", &m));
        PEER_CHECK(received(s, *b, 0, 200, 5));
        urma_target_jetty_t *tj = s.import(m.jetty[0], URMA_TM_RC);
        PEER_CHECK(tj != nullptr);
        PEER_CHECK(urma_bind_jetty(j, tj) == URMA_SUCCESS);
        fill(b->p + 1024, 100, 6);
        PEER_CHECK(s.send(j, nullptr, *b, 1024, 100, 2) == URMA_SUCCESS);
        urma_cr_t cr;
        PEER_CHECK(s.poll(s.scq, &cr));
        PEER_CHECK(cr.status == URMA_CR_SUCCESS);
        PEER_CHECK(c.say("sent-back"));
        PEER_CHECK(c.hear("unbind"));
        PEER_CHECK(urma_unbind_jetty(j) == URMA_SUCCESS);
        PEER_CHECK(c.say("unbound"));
        PEER_CHECK(c.hear("done"));
        return 0;
    });
    Offer o;
    ASSERT_NO_FATAL_FAILURE(take_offer(URMA_TM_RC, &o));
    auto &[m, j, l, tj] = o;
    EXPECT_EQ(tj->tp.tpn, 0u) << "RC: no TP before the bind";
    EXPECT_TRUE(tps_a().empty()) << both_tables();
    ASSERT_EQ(urma_bind_jetty(j, tj), URMA_SUCCESS);
    ASSERT_TRUE(tables_have(1)) << both_tables();
    ASSERT_TRUE(peer_end_is("Target established")) << both_tables();
    EXPECT_EQ(tps_a()[0].mode, "RC");
    EXPECT_EQ(tps_a()[0].state, "Initiator established");
    EXPECT_EQ(tps_a()[0].peer, kIp6B);
    EXPECT_EQ(tps_b()[0].mode, "RC");
    EXPECT_EQ(tps_b()[0].peer, kIp6A);

    ASSERT_EQ(me.recv(j, *l, 2048, 256, 3), URMA_SUCCESS);
    fill(l->p, 200, 5);
    ASSERT_NO_FATAL_FAILURE(completes(me.send(j, nullptr, *l, 0, 200, 21), 21));
    m = {};
    m.jetty[0] = j->jetty_id;
    ASSERT_TRUE(peer.say("bound", m));
    ASSERT_TRUE(peer.hear("sent-back"));
    EXPECT_TRUE(received(me, *l, 2048, 100, 6, 3));
    // The peer's bind took the TP of the pair: still one, reused by both.
    ASSERT_TRUE(tables_have(1)) << both_tables();
    for (const auto &rows : {tps_a(), tps_b()}) {
        EXPECT_EQ(rows[0].state, "reused") << both_tables();
        EXPECT_EQ(rows[0].users, 1u) << both_tables();
    }
    EXPECT_EQ(urma_unbind_jetty(j), URMA_SUCCESS);
    ASSERT_TRUE(peer.ask("unbind", "unbound"));
    EXPECT_TRUE(tables_have(0)) << both_tables();
    ASSERT_TRUE(peer.say("done"));
}

// UM: a datagram; the import opens no TP on either side.
TEST_F(NsPair, UmSendNeedsNoTp)
{
    start([](Side &s, Chan &c) {
        Buf *b = nullptr;
        PEER_CHECK(offer(s, c, URMA_TM_UM, &b));
        PEER_CHECK(received(s, *b, 0, 300, 7));
        PEER_CHECK(c.say("got"));
        PEER_CHECK(c.hear("done"));
        return 0;
    });
    Offer o;
    ASSERT_NO_FATAL_FAILURE(take_offer(URMA_TM_UM, &o));
    auto &[m, j, l, tj] = o;
    EXPECT_EQ(tj->tp.tpn, 0u);
    fill(l->p, 300, 7);
    ASSERT_NO_FATAL_FAILURE(completes(me.send(j, tj, *l, 0, 300, 31), 31));
    ASSERT_TRUE(peer.hear("got"));
    EXPECT_TRUE(tps_a().empty()) << both_tables();
    EXPECT_TRUE(tps_b().empty()) << both_tables();
    ASSERT_TRUE(peer.say("done"));
}

// Both ends import each other's RM jetty at once, five times: the
// CONN_REQs may cross (1408-1410) or not (1414); either way one TP of the
// EID pair, urma_get_tp_list names it at each end, both ends "reused",
// one user each; the unimports close it at both ends.
TEST_F(NsPair, BothSidesImportingAtOnceMakeOneTp)
{
    constexpr int kRounds = 5;
    start([](Side &s, Chan &c) {
        urma_jetty_t *j = s.jetty(URMA_TM_RM);
        PEER_CHECK(j != nullptr);
        Msg m = {};
        m.jetty[0] = j->jetty_id;
        PEER_CHECK(c.say("ready", m));
        PEER_CHECK(c.hear("jetty", &m));
        for (int round = 0; round < kRounds; round++) {
            PEER_CHECK(c.hear("go"));
            urma_target_jetty_t *tj = s.import(m.jetty[0], URMA_TM_RM);
            PEER_CHECK(tj != nullptr);
            Msg r = {};
            r.value = tj->tp.tpn;
            PEER_CHECK(c.say("imported", r));
            PEER_CHECK(c.hear("unimport"));
            PEER_CHECK(s.unimport(tj));
            PEER_CHECK(c.say("unimported"));
        }
        PEER_CHECK(c.hear("done"));
        return 0;
    });
    Msg m;
    ASSERT_TRUE(peer.hear("ready", &m));
    urma_jetty_t *j = me.jetty(URMA_TM_RM);
    ASSERT_NE(j, nullptr);
    Msg mine = {};
    mine.jetty[0] = j->jetty_id;
    ASSERT_TRUE(peer.say("jetty", mine));
    for (int round = 0; round < kRounds; round++) {
        SCOPED_TRACE("round " + std::to_string(round));
        ASSERT_TRUE(peer.say("go"));
        urma_target_jetty_t *tj = me.import(m.jetty[0], URMA_TM_RM);
        ASSERT_NE(tj, nullptr) << std::strerror(errno);
        Msg r;
        ASSERT_TRUE(peer.hear("imported", &r));
        uint64_t handle = 0;
        EXPECT_EQ(me.tp_count(URMA_TM_RM, m.jetty[0].eid, &handle), 1);
        EXPECT_EQ(handle, tj->tp.tpn);
        ASSERT_TRUE(tables_have(1)) << both_tables();
        auto a = tps_a(), b = tps_b();
        EXPECT_EQ(a[0].tpn, tj->tp.tpn);
        EXPECT_EQ(b[0].tpn, r.value) << "the peer's import is on its end of the same TP";
        EXPECT_EQ(a[0].peer_tpn, b[0].tpn);
        EXPECT_EQ(b[0].peer_tpn, a[0].tpn);
        for (const auto &row : {a[0], b[0]}) {
            EXPECT_EQ(row.state, "reused") << both_tables();
            EXPECT_EQ(row.users, 1u) << both_tables();
        }
        EXPECT_TRUE(me.unimport(tj));
        ASSERT_TRUE(peer.ask("unimport", "unimported"));
        EXPECT_TRUE(tables_have(0)) << both_tables();
    }
    ASSERT_TRUE(peer.say("done"));
}

// Each reject of the peer reaches the import or the bind as its errno (=
// urma_status_t) with a log line; an unreachable peer times out, an
// unroutable one fails at once; no TP is left at either end.
TEST_F(NsPair, RejectsReachTheImporter)
{
    start([](Side &s, Chan &c) {
        urma_jetty_t *rm = s.jetty(URMA_TM_RM);
        urma_jetty_t *rc = s.jetty(URMA_TM_RC);
        urma_jetty_t *gone = s.jetty(URMA_TM_RM);
        PEER_CHECK(rm && rc && gone);
        Msg m = {};
        m.jetty[0] = rm->jetty_id;
        m.jetty[1] = rc->jetty_id;
        m.jetty[2] = gone->jetty_id;
        PEER_CHECK(s.delete_jetty(gone));
        PEER_CHECK(c.say("ready", m));
        PEER_CHECK(c.hear("done"));
        return 0;
    });
    Msg m;
    ASSERT_TRUE(peer.hear("ready", &m));
    const urma_jetty_id_t rm = m.jetty[0], rc = m.jetty[1], gone = m.jetty[2];
    urma_register_log_func(ub_itest::log_capture);
    ub_itest::log_clear();
    EXPECT_EQ(me.import(gone, URMA_TM_RM), nullptr);
    EXPECT_EQ(errno, ENOENT) << "no such jetty on the peer";
    EXPECT_TRUE(ub_itest::logged("import of " + std::to_string(gone.id)));
    EXPECT_EQ(me.import(rc, URMA_TM_RM), nullptr);
    EXPECT_EQ(errno, EPROTOTYPE) << "an RC jetty imported in RM";
    EXPECT_EQ(me.import(rm, URMA_TM_RM, kJfrToken + 1), nullptr);
    EXPECT_EQ(errno, URMA_ENOPERM) << "a wrong token";
    EXPECT_TRUE(tables_have(0)) << "the rollbacks left no TP:\n" << both_tables();

    // RC: the bind gets the answer.
    urma_jetty_t *j = me.jetty(URMA_TM_RC);
    ASSERT_NE(j, nullptr);
    urma_target_jetty_t *t_rm = me.import(rm, URMA_TM_RC);
    urma_target_jetty_t *t_bad = me.import(rc, URMA_TM_RC, kJfrToken + 1);
    ASSERT_TRUE(t_rm && t_bad) << std::strerror(errno);
    EXPECT_EQ(urma_bind_jetty(j, t_rm), EPROTOTYPE) << "an RM jetty bound in RC";
    EXPECT_EQ(urma_bind_jetty(j, t_bad), URMA_ENOPERM);
    EXPECT_TRUE(ub_itest::logged("bind jetty " + std::to_string(j->jetty_id.id) + " failed"));
    EXPECT_TRUE(tables_have(0)) << both_tables();

    // Nobody has fd77::99 on the link: no answer, the CM's timeout.
    urma_jetty_id_t nobody = rm;
    ASSERT_EQ(inet_pton(AF_INET6, "fd77::99", nobody.eid.raw), 1);
    auto t0 = std::chrono::steady_clock::now();
    EXPECT_EQ(me.import(nobody, URMA_TM_RM), nullptr);
    EXPECT_EQ(errno, URMA_ETIMEOUT) << "a peer that does not answer";
    std::printf("unanswered import: %lld ms\n",
                static_cast<long long>(std::chrono::duration_cast<std::chrono::milliseconds>(
                                           std::chrono::steady_clock::now() - t0)
                                           .count()));
    // uboeA has no route to fd00::/16: the provider cannot send at all.
    ASSERT_EQ(inet_pton(AF_INET6, "fd00::dead", nobody.eid.raw), 1);
    EXPECT_EQ(me.import(nobody, URMA_TM_RM), nullptr);
    EXPECT_EQ(errno, EHOSTUNREACH) << "a peer with no route to it";
    urma_unregister_log_func();
    EXPECT_TRUE(tables_have(0)) << both_tables();
    ASSERT_TRUE(peer.say("done"));
}

// Teardown from either side: the importer unimports first; the owner
// deletes its jetty first (the TP is the EID pair's: it stays for its
// user); the owner's process exits first. Either way the importer's
// unimport then closes the TP at both ends.
TEST_F(NsPair, TeardownFromEitherSide)
{
    start([](Side &s, Chan &c) {
        urma_jetty_t *j = s.jetty(URMA_TM_RM);
        PEER_CHECK(j != nullptr);
        Msg m = {};
        m.jetty[0] = j->jetty_id;
        PEER_CHECK(c.say("ready", m));
        PEER_CHECK(c.hear("delete"));
        PEER_CHECK(s.delete_jetty(j));
        j = s.jetty(URMA_TM_RM);
        PEER_CHECK(j != nullptr);
        m.jetty[0] = j->jetty_id;
        PEER_CHECK(c.say("deleted", m));
        PEER_CHECK(c.hear("exit"));
        // Exits with its objects: closing its file frees them.
        _exit(0);
    });
    Msg m;
    ASSERT_TRUE(peer.hear("ready", &m));
    // the importer first
    urma_target_jetty_t *tj = me.import(m.jetty[0], URMA_TM_RM);
    ASSERT_NE(tj, nullptr) << std::strerror(errno);
    ASSERT_TRUE(tables_have(1)) << both_tables();
    EXPECT_TRUE(me.unimport(tj));
    EXPECT_TRUE(tables_have(0)) << both_tables();

    // the owner deletes its jetty first
    tj = me.import(m.jetty[0], URMA_TM_RM);
    ASSERT_NE(tj, nullptr) << std::strerror(errno);
    ASSERT_TRUE(peer.ask("delete", "deleted", &m));
    ASSERT_TRUE(tables_have(1)) << "the TP stays for its user:\n" << both_tables();
    EXPECT_EQ(tps_a()[0].users, 1u);
    EXPECT_TRUE(me.unimport(tj));
    EXPECT_TRUE(tables_have(0)) << both_tables();

    // the owner's process exits first
    tj = me.import(m.jetty[0], URMA_TM_RM);
    ASSERT_NE(tj, nullptr) << std::strerror(errno);
    ASSERT_TRUE(peer.say("exit"));
    EXPECT_EQ(reap(), 0);
    ASSERT_TRUE(tables_have(1)) << "the TP stays for its user:\n" << both_tables();
    EXPECT_EQ(tps_a()[0].users, 1u);
    EXPECT_TRUE(me.unimport(tj));
    EXPECT_TRUE(tables_have(0)) << both_tables();
}

// The peer of the tests that need one RM jetty that takes one SEND of 64
// bytes (fill seed 9): told "send" when it is on its way (the importer's
// work before it, 1000 imports, takes minutes on a loaded host), it says
// "got" when the SEND arrived.
int one_receive(Side &s, Chan &c)
{
    Buf *b = nullptr;
    PEER_CHECK(offer(s, c, URMA_TM_RM, &b));
    PEER_CHECK(c.hear("send", nullptr, 600000));
    PEER_CHECK(received(s, *b, 0, 64, 9));
    PEER_CHECK(c.say("got"));
    PEER_CHECK(c.hear("done"));
    return 0;
}

// 1000 imports of one remote jetty in RM: one TP at each end, 1000 users
// here; a SEND through the last import arrives.
TEST_F(NsPair, ThousandImportsOfOneRemoteJettyShareOneTp)
{
    constexpr int kImports = 1000;
    start(one_receive);
    Offer o;
    ASSERT_NO_FATAL_FAILURE(take_offer(URMA_TM_RM, &o));
    auto &[m, j, l, first] = o;
    std::vector<urma_target_jetty_t *> imports{first};
    auto t0 = std::chrono::steady_clock::now();
    for (int i = 1; i < kImports; i++) {
        urma_target_jetty_t *tj = me.import(m.jetty[0], URMA_TM_RM);
        ASSERT_NE(tj, nullptr) << "import " << i << ": " << std::strerror(errno);
        imports.push_back(tj);
    }
    auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - t0).count();
    std::printf("%d more imports of one remote jetty: %lld ms\n", kImports - 1, static_cast<long long>(ms));
    for (auto *tj : imports)
        EXPECT_EQ(tj->tp.tpn, first->tp.tpn);
    ASSERT_TRUE(tables_have(1)) << both_tables();
    ASSERT_TRUE(peer_end_is("Target established")) << both_tables();
    EXPECT_EQ(tps_a()[0].users, static_cast<uint32_t>(kImports));
    EXPECT_EQ(me.tp_count(URMA_TM_RM, m.jetty[0].eid), 1);
    fill(l->p, 64, 9);
    ASSERT_TRUE(peer.say("send"));
    ASSERT_NO_FATAL_FAILURE(completes(me.send(j, imports.back(), *l, 0, 64, 41), 41));
    ASSERT_TRUE(peer.hear("got"));
    for (auto *tj : imports)
        EXPECT_TRUE(me.unimport(tj));
    EXPECT_TRUE(tables_have(0)) << both_tables();
    ASSERT_TRUE(peer.say("done"));
}

// A SEND posted as soon as the import returned, five times (each import
// opens the TP anew): the import returns when this end is established
// (CONN_REP), the peer's end is established when its connection manager
// has handled the CONN_ACK, which the SEND may overtake. The user guide's
// initiator may send once established; the SEND must arrive.
TEST_F(NsPair, SendRightBehindTheImportArrives)
{
    constexpr int kRounds = 5;
    start([](Side &s, Chan &c) {
        Buf *b = nullptr;
        urma_jetty_t *j = offer(s, c, URMA_TM_RM, &b);
        PEER_CHECK(j != nullptr);
        for (int round = 0; round < kRounds; round++) {
            PEER_CHECK(received(s, *b, 0, 64, 9));
            PEER_CHECK(s.recv(j, *b, 0, 1024, 1) == URMA_SUCCESS);
            PEER_CHECK(c.say("got"));
        }
        PEER_CHECK(c.hear("done"));
        return 0;
    });
    Msg m;
    ASSERT_TRUE(peer.hear("ready", &m));
    urma_jetty_t *j = me.jetty(URMA_TM_RM);
    Buf *l = me.buf(4096);
    ASSERT_TRUE(j && l);
    fill(l->p, 64, 9);
    for (int round = 0; round < kRounds; round++) {
        SCOPED_TRACE("round " + std::to_string(round));
        const long dropped = wire_b("unknown_tpn");
        urma_target_jetty_t *tj = me.import(m.jetty[0], URMA_TM_RM);
        ASSERT_NE(tj, nullptr) << std::strerror(errno);
        ASSERT_EQ(me.send(j, tj, *l, 0, 64, 70 + round), URMA_SUCCESS);
        urma_cr_t cr;
        const bool done = me.poll(me.scq, &cr, 10000);
        EXPECT_EQ(wire_b("unknown_tpn"), dropped) << "udmaB dropped the SEND: its end of the TP was not established";
        ASSERT_TRUE(done);
        EXPECT_EQ(cr.status, URMA_CR_SUCCESS);
        ASSERT_TRUE(peer.hear("got"));
        EXPECT_TRUE(me.unimport(tj));
        ASSERT_TRUE(tables_have(0)) << both_tables();
    }
    ASSERT_TRUE(peer.say("done"));
}

// urma_admin run in each namespace: "show dev <dev> tp" lists the TP with
// the other namespace's EID, "--stats" nonzero packet counts; a device of
// the other namespace is not there.
TEST_F(NsPair, UrmaAdminShowsTheTpAndCountersInEachNamespace)
{
    start(one_receive);
    Offer o;
    ASSERT_NO_FATAL_FAILURE(take_offer(URMA_TM_RM, &o));
    auto &[m, j, l, tj] = o;
    ASSERT_TRUE(peer_end_is("Target established")) << both_tables();
    fill(l->p, 64, 9);
    ASSERT_TRUE(peer.say("send"));
    ASSERT_NO_FATAL_FAILURE(completes(me.send(j, tj, *l, 0, 64, 51), 51));
    ASSERT_TRUE(peer.hear("got"));
    ASSERT_TRUE(tables_have(1)) << both_tables();
    const std::string a_tpn = std::to_string(tps_a()[0].tpn), b_tpn = std::to_string(tps_b()[0].tpn);

    auto in_b = [] { return enter_ns(kNsB); };
    const std::vector<std::string> header{"tpn", "peer_eid", "peer_tpn", "trans_mode", "state", "users", "age_ms"};
    std::string out;
    ASSERT_EQ(ub_itest::admin({"show", "dev", kDevA, "tp"}, &out), 0) << out;
    auto t = cells(out);
    ASSERT_EQ(t.size(), 2u) << out;
    EXPECT_EQ(t[0], header) << out;
    ASSERT_EQ(t[1].size(), 7u) << out;
    EXPECT_EQ(std::vector<std::string>(t[1].begin(), t[1].end() - 1),
              (std::vector<std::string>{a_tpn, kIp6B, b_tpn, "RM", "Initiator_established", "1"}))
        << out;
    ASSERT_EQ(ub_itest::admin({"show", "dev", kDevB, "tp"}, &out, in_b), 0) << out;
    t = cells(out);
    ASSERT_EQ(t.size(), 2u) << out;
    ASSERT_EQ(t[1].size(), 7u) << out;
    EXPECT_EQ(std::vector<std::string>(t[1].begin(), t[1].end() - 1),
              (std::vector<std::string>{b_tpn, kIp6A, a_tpn, "RM", "Target_established", "0"}))
        << out;
    // Each namespace sees its own device only.
    EXPECT_EQ(ub_itest::admin({"show", "dev", kDevB, "tp"}, &out), 1) << out;
    EXPECT_EQ(ub_itest::admin({"show", "dev", kDevA, "tp"}, &out, in_b), 1) << out;

    // --stats: "  name: value" lines; the import's messages and the SEND
    // went both ways. (The counters are the devices' since the bed was
    // built: earlier tests' failed sends count in tx_errors.)
    for (const std::string &dev : {kDevA, kDevB}) {
        SCOPED_TRACE(dev);
        ASSERT_EQ(ub_itest::admin({"show", "dev", dev, "--stats"}, &out,
                                  dev == kDevB ? std::function<bool()>(in_b) : nullptr),
                  0)
            << out;
        std::map<std::string, long> v;
        for (const auto &row : cells(out))
            if (row.size() == 2 && row[0].back() == ':')
                v[row[0].substr(0, row[0].size() - 1)] = std::stol(row[1]);
        for (const char *c : {"tx_packets", "rx_packets", "tx_bytes", "rx_bytes", "mgmt_rx"})
            EXPECT_GT(v[c], 0) << c << " in\n" << out;
    }
    EXPECT_TRUE(me.unimport(tj));
    ASSERT_TRUE(peer.say("done"));
}

// Peer death as the survivor's process sees it (docs/connection-manager.md,
// "Peer loss"): an RC jetty here bound to a jetty of the peer, the peer's
// process killed, everything the peer sends dropped (netem loss 100% on
// vB: the DCONN_NOTIFY its device's removal sends must not arrive, or the
// TP would be gone before the SEND), a SEND on its way, the peer's device
// deleted (the SEND finds no device and is never answered), then the
// peer's veth set down: this end's link loses its carrier, the TP its
// peer, and the bound jetty goes to ERROR: URMA_EVENT_JETTY_ERR, the SEND
// (sent on the TP, never answered) completes with ACK_TIMEOUT_ERR (udma's
// tp_lost) and a WR_FLUSH_ERR_DONE record follows; no
// TP is left. The device's removal with the DCONN_NOTIFY arriving is
// ubcore_cm_peer's (tests/guest/cases/cm-peer-loss.sh). The bed is put
// back afterwards (no qdisc on vB, vB up, its IPv6 address, udmaB).
TEST_F(NsPair, PeerDeathPutsTheBoundRcJettyInErrorWithFlush)
{
    start([](Side &s, Chan &c) {
        Buf *b = nullptr;
        PEER_CHECK(offer(s, c, URMA_TM_RC, &b));
        c.hear("never", nullptr, 600000);  // until killed
        return 1;
    });
    Offer o;
    ASSERT_NO_FATAL_FAILURE(take_offer(URMA_TM_RC, &o));
    auto &[m, j, l, tj] = o;
    ASSERT_EQ(urma_bind_jetty(j, tj), URMA_SUCCESS);
    ASSERT_TRUE(tables_have(1)) << both_tables();

    kill_peer();
    // The bed as it was afterwards, whatever happens: vB up with its IPv6
    // address (a link set down loses it), udmaB back, udmaA's port up.
    struct Restore {
        ~Restore()
        {
            EXPECT_EQ(lib_sh("tc -n \"$UB_NS_B\" qdisc del dev \"$UB_VETH_B\" root"), 0);
            EXPECT_EQ(in_ns(kNsB, [] { return set_link(kVethB, true) ? "up" : ""; }), "up");
            EXPECT_EQ(lib_sh("ip -n \"$UB_NS_B\" addr replace \"$UB_IP6_B/64\" dev \"$UB_VETH_B\" nodad && "
                             "ub_nspair_add_dev \"$UB_NS_B\" \"$UB_DEV_B\" \"$UB_VETH_B\" \"$UB_IP4_B\" "
                             "\"$UB_IP6_B\""),
                      0);
            EXPECT_TRUE(ub_itest::wait_for(
                [] { return read_file("/sys/class/ubcore/" + kDevA + "/port0/state") == "ACTIVE\n"; }, 10000));
        }
    } restore;
    ASSERT_EQ(lib_sh("tc -n \"$UB_NS_B\" qdisc add dev \"$UB_VETH_B\" root netem loss 100%"), 0);
    ASSERT_EQ(me.send(j, nullptr, *l, 0, 64, 61), URMA_SUCCESS);
    std::string out;
    ASSERT_EQ(ub_itest::admin({"dev", "del", kDevB}, &out, [] { return enter_ns(kNsB); }), 0) << out;
    ASSERT_EQ(in_ns(kNsB, [] { return set_link(kVethB, false) ? "down" : ""; }), "down");

    // The port's going down is an event too (URMA_EVENT_PORT_DOWN): the
    // jetty's is among the events of the next 15 s.
    ub_itest::AsyncEv ev;
    const uint64_t end = ub_itest::now_ms() + 15000;
    do
        ev = ub_itest::next_async_event(me.ctx, static_cast<int>(end - std::min(end, ub_itest::now_ms())));
    while (ev.type != -1 && ev.type != URMA_EVENT_JETTY_ERR);
    EXPECT_EQ(ev.type, URMA_EVENT_JETTY_ERR);
    EXPECT_EQ(ev.element, j);
    EXPECT_EQ(ub_itest::jetty_state(j), URMA_JETTY_STATE_ERROR);
    urma_cr_t cr;
    ASSERT_TRUE(me.poll(me.scq, &cr, 5000));
    EXPECT_EQ(cr.status, URMA_CR_ACK_TIMEOUT_ERR);
    EXPECT_EQ(cr.user_ctx, 61u);
    ASSERT_TRUE(me.poll(me.scq, &cr, 5000));
    EXPECT_EQ(cr.status, URMA_CR_WR_FLUSH_ERR_DONE);
    EXPECT_TRUE(ub_itest::wait_for([] { return tps_a().empty(); }, 5000)) << both_tables();
}

// The transport values of urma_set_tp_attr take effect on the TP's
// traffic (docs/connection-manager.md, "TP attributes"): the RM TP to the
// peer set to retry_times_init 1 and at 12 (4.096 us << 12: a first RTO
// of 17 ms, rounded up to a jiffy) before it carries anything; udma's
// debugfs shows its retry limit and first RTO, its get reads them back
// (DIP: the peer's EID); then the peer goes silent (netem loss 100% on
// vB: the WRITE arrives, its ACKs do not) and the WRITE fails with
// ACK_TIMEOUT_ERR after 2 timeouts (~60 ms), counted in rtp_ack_timeouts:
// with udma's defaults (100 ms, 7 retries: 8.7 s) the keepalive would lose
// the peer first, at 5 s, and no RTO would count. The others of the device
// keep the module's values.
TEST_F(NsPair, SetTpAttrRetriesTakeEffectOnTheWire)
{
    Offer o;
    ASSERT_NO_FATAL_FAILURE(offer_until_done(URMA_TM_RM, &o));
    auto &[m, j, l, tj] = o;
    ASSERT_TRUE(tables_have(1)) << both_tables();
    ASSERT_TRUE(peer_end_is("Target established")) << both_tables();
    uint64_t handle = 0;
    ASSERT_EQ(me.tp_count(URMA_TM_RM, m.jetty[0].eid, &handle), 1);
    ASSERT_EQ(handle, tj->tp.tpn);

    urma_tp_attr_value_t v = {};
    v.retry_times_init = 1;
    v.at = 12;
    ASSERT_EQ(urma_set_tp_attr(me.ctx, handle, 2, 0x3, &v), URMA_SUCCESS);
    v = {};
    uint8_t cnt = 0;
    uint32_t bits = 0;
    ASSERT_EQ(urma_get_tp_attr(me.ctx, handle, &cnt, &bits, &v), URMA_SUCCESS);
    EXPECT_EQ(v.retry_times_init, 1u);
    EXPECT_EQ(v.at, 12u);
    EXPECT_EQ(std::memcmp(v.dip, m.jetty[0].eid.raw, sizeof(v.dip)), 0);
    EXPECT_EQ(std::memcmp(v.sip, me.eid.raw, sizeof(v.sip)), 0);

    urma_target_seg_t *rs = me.import_seg(m.seg);
    ASSERT_NE(rs, nullptr);
    ASSERT_NO_FATAL_FAILURE(completes(me.rw(URMA_OPC_WRITE, j, tj, *l, 0, rs, m.seg.ubva.va, 512, 1), 1));
    // "udmaA tp N peer ... retries 0/1 rto_ms R/B/R0 ...": this TP's line
    // (R the running RTO, B its base, which follows the RTT samples of
    // the first WRITE, R0 the first RTO the TP's values give)
    // (debugfs as the initial mount namespace has it: this process's /sys
    // is its network namespace's sysfs, without debugfs)
    const std::string rtp = read_file("/proc/1/root/sys/kernel/debug/udma/rtp");
    const std::string head = kDevA + " tp " + std::to_string(handle) + " ";
    const size_t at = rtp.find(head);
    ASSERT_NE(at, std::string::npos) << rtp;
    const size_t r = rtp.find("retries ", at);
    ASSERT_NE(r, std::string::npos) << rtp;
    unsigned retries = 9, limit = 9, rto = 0, base = 0, rto0 = 0;
    ASSERT_EQ(std::sscanf(rtp.c_str() + r, "retries %u/%u rto_ms %u/%u/%u", &retries, &limit, &rto, &base, &rto0), 5)
        << rtp;
    EXPECT_GE(base, rto0) << "the RTT never takes the RTO below the TP's first:\n" << rtp;
    EXPECT_EQ(limit, 1u) << rtp;
    EXPECT_GE(rto0, 17u) << rtp;
    EXPECT_LE(rto0, 17u + 10u) << "17 ms, rounded up to a jiffy (HZ >= 100):\n" << rtp;

    PeerSilenced silenced;
    ASSERT_TRUE(silenced.ok());
    const long timeouts = wire_a("rtp_ack_timeouts");
    const uint64_t t0 = ub_itest::now_ms();
    ASSERT_EQ(me.rw(URMA_OPC_WRITE, j, tj, *l, 0, rs, m.seg.ubva.va, 512, 2), URMA_SUCCESS);
    urma_cr_t cr;
    ASSERT_TRUE(me.poll(me.scq, &cr, 10000));
    const uint64_t took = ub_itest::now_ms() - t0;
    EXPECT_EQ(cr.status, URMA_CR_ACK_TIMEOUT_ERR);
    EXPECT_EQ(cr.user_ctx, 2u);
    EXPECT_LT(took, 2500u) << "the keepalive (5 s) did not come first";
    EXPECT_EQ(wire_a("rtp_ack_timeouts"), timeouts + 1) << "the RTO failed it";
    std::printf("[ INFO     ] WRITE failed after %llu ms (retry_times_init 1, first RTO %u ms)\n",
                static_cast<unsigned long long>(took), rto0);
    ASSERT_TRUE(peer.say("done"));
}

// A request whose TP its own user closes before the response came (issue
// 11: ubagg-bond's urma_perftest, stopped by its stall limit, unbound its
// RC jetties with WRITEs unanswered, then hung in D state in
// urma_unregister_seg, the WRITEs holding the segment for ever). The peer
// goes silent (netem loss 100% on vB: the WRITE arrives, its ACK and
// response do not); the unbind closes the TP, which fails the WRITE at
// once with ACK_TIMEOUT_ERR (udma's tp_closed), not after the RTO's
// retries (8.7 s, rtp_ack_timeouts) nor a keepalive (the TP is gone);
// the segment it used unregisters.
TEST_F(NsPair, UnbindUnderAnUnansweredWriteFailsIt)
{
    Offer o;
    ASSERT_NO_FATAL_FAILURE(offer_until_done(URMA_TM_RC, &o));
    auto &[m, j, l, tj] = o;
    ASSERT_EQ(urma_bind_jetty(j, tj), URMA_SUCCESS);
    ASSERT_TRUE(tables_have(1)) << both_tables();
    urma_target_seg_t *rs = me.import_seg(m.seg);
    ASSERT_NE(rs, nullptr);
    ASSERT_NO_FATAL_FAILURE(completes(me.rw(URMA_OPC_WRITE, j, tj, *l, 0, rs, m.seg.ubva.va, 512, 1), 1));

    PeerSilenced silenced;
    ASSERT_TRUE(silenced.ok());
    const long timeouts = wire_a("rtp_ack_timeouts"), tx = wire_a("tx_packets");
    ASSERT_EQ(me.rw(URMA_OPC_WRITE, j, tj, *l, 0, rs, m.seg.ubva.va, 512, 2), URMA_SUCCESS);
    ASSERT_TRUE(ub_itest::wait_for([tx] { return wire_a("tx_packets") > tx; }, 2000)) << "the WRITE left";
    const uint64_t t0 = ub_itest::now_ms();
    ASSERT_EQ(urma_unbind_jetty(j), URMA_SUCCESS);
    urma_cr_t cr;
    ASSERT_TRUE(me.poll(me.scq, &cr, 5000)) << "the WRITE waits for ever";
    const uint64_t took = ub_itest::now_ms() - t0;
    EXPECT_EQ(cr.status, URMA_CR_ACK_TIMEOUT_ERR);
    EXPECT_EQ(cr.user_ctx, 2u);
    EXPECT_LT(took, 2000u) << "the close failed it, not a timeout";
    EXPECT_EQ(wire_a("rtp_ack_timeouts"), timeouts) << "the close failed it, not the RTO";
    EXPECT_TRUE(me.unregister(l));
    EXPECT_TRUE(tps_a().empty()) << both_tables();
    std::printf("[ INFO     ] the WRITE failed %llu ms after the unbind\n", static_cast<unsigned long long>(took));
    ASSERT_TRUE(peer.say("done"));
}

// A jetty deleted while its SEND is on the wire (issue 11: DpErrors'
// RnrWaitThenDestroy saw an RNR retry of a deleted JFS take an RQE posted
// after the delete). Everything vA sends is delayed by 60 ms (netem; less
// than the 100 ms RTO, so nothing is retransmitted); the peer's jetty has
// no RQE left, so the SEND's answer is RNR. The delete waits for that
// answer (udma_sq_wait_answers(): ~60 ms, not a bound's 500 ms), which
// reaches the queue being destroyed (rsp_no_sq unchanged); no CQE comes;
// the RQE the peer posts afterwards is not taken for 500 ms, and the next
// SEND of a live jetty takes it.
TEST_F(NsPair, DeleteWaitsForTheAnswerToItsSendOnTheWire)
{
    start([](Side &s, Chan &c) {
        Buf *b = nullptr;
        urma_jetty_t *j = offer(s, c, URMA_TM_RM, &b);
        PEER_CHECK(j != nullptr);
        PEER_CHECK(received(s, *b, 0, 64, 9));
        PEER_CHECK(c.say("got"));
        PEER_CHECK(c.hear("post"));
        PEER_CHECK(s.recv(j, *b, 0, 1024, 3) == URMA_SUCCESS);
        urma_cr_t cr;
        PEER_CHECK(!s.poll(s.rcq, &cr, 500));
        PEER_CHECK(c.say("quiet"));
        PEER_CHECK(received(s, *b, 0, 64, 10, 3));
        PEER_CHECK(c.say("got"));
        PEER_CHECK(c.hear("done"));
        return 0;
    });
    Offer o;
    ASSERT_NO_FATAL_FAILURE(take_offer(URMA_TM_RM, &o));
    auto &[m, j, l, tj] = o;
    fill(l->p, 64, 9);
    ASSERT_NO_FATAL_FAILURE(completes(me.send(j, tj, *l, 0, 64, 1), 1));
    ASSERT_TRUE(peer.hear("got")) << "the offer's RQE is used up";

    urma_jetty_t *dying = me.jetty(URMA_TM_RM);
    ASSERT_NE(dying, nullptr);
    ASSERT_EQ(lib_sh("tc -n \"$UB_NS_A\" qdisc add dev \"$UB_VETH_A\" root netem delay 60ms"), 0);
    const long no_sq = wire_a("rsp_no_sq"), tx = wire_a("tx_packets");
    fill(l->p + 1024, 64, 11);
    ASSERT_EQ(me.send(dying, tj, *l, 1024, 64, 2), URMA_SUCCESS);
    ASSERT_TRUE(ub_itest::wait_for([tx] { return wire_a("tx_packets") > tx; }, 2000)) << "the SEND left";
    const uint64_t t0 = ub_itest::now_ms();
    const bool deleted = me.delete_jetty(dying);
    const uint64_t took = ub_itest::now_ms() - t0;
    EXPECT_EQ(lib_sh("tc -n \"$UB_NS_A\" qdisc del dev \"$UB_VETH_A\" root"), 0);
    ASSERT_TRUE(deleted);
    EXPECT_GE(took, 40u) << "the delete did not wait for the SEND's answer";
    EXPECT_LT(took, 450u) << "the answer came, not the bound";
    EXPECT_EQ(wire_a("rsp_no_sq"), no_sq) << "the answer did not reach the queue being deleted";
    ASSERT_TRUE(peer.ask("post", "quiet")) << "the deleted jetty's SEND took the RQE posted after the delete";
    fill(l->p, 64, 10);
    ASSERT_NO_FATAL_FAILURE(completes(me.send(j, tj, *l, 0, 64, 3), 3)) << "no CQE of the deleted jetty";
    ASSERT_TRUE(peer.hear("got"));
    std::printf("[ INFO     ] the delete took %llu ms (the SEND's answer 60 ms away)\n",
                static_cast<unsigned long long>(took));
    ASSERT_TRUE(peer.say("done"));
}

// ---- the peer vanishing mid-stream (issue 11) ------------------------------

// A module parameter, set for a test and put back after it.
class ModParam {
public:
    ModParam(const std::string &module, const std::string &name, const std::string &value)
        : path_("/sys/module/" + module + "/parameters/" + name), old_(read_file(path_))
    {
        EXPECT_TRUE(ub_itest::write_sysfs(path_, value)) << path_;
    }
    ~ModParam() { EXPECT_TRUE(ub_itest::write_sysfs(path_, old_)) << path_; }

private:
    std::string path_, old_;
};

// Whether udmaB has its IPv6 address as an EID again (after vB was down).
bool b_has_eid()
{
    return in_ns(kNsB, [] {
               std::string all;
               std::error_code ec;
               for (std::filesystem::directory_iterator it("/sys/class/ubcore/" + kDevB + "/eids", ec), end;
                    !ec && it != end; it.increment(ec))
                   all += read_file(it->path());
               return all;
           }).find(kIp6B) != std::string::npos;
}

// The stream: WRITEs of kStreamLen bytes each from an RM jetty here to
// one segment of the peer, kStreamWrites in the queue from the start and
// one more posted for each success, until the first failure or
// kStreamMax: at 1 KiB of payload a packet (vA's MTU 1500) each is 1024
// packets, and the queue's window holds 8 of them, so the peer goes while
// many are in flight, however long its going takes (a namespace's
// deletion is the kernel's work, queued, and waits for RCU grace periods:
// under the stream in a TCG guest of one vCPU it took from 1 s to 2 min).
constexpr uint32_t kStreamWrites = 48;
constexpr uint32_t kStreamMax = 2000;
constexpr uint32_t kStreamLen = 1 << 20;

// The two ends of a stream: the bed's, or a pair of the test's own; leave:
// the peer process leaves its namespace once its objects are made.
struct Ends {
    std::string peer_ns = kNsB, peer_dev = kDevB, peer_ip = kIp6B;
    std::string my_dev = kDevA, my_ip = kIp6A;
    bool leave = false;
};

class NsPairVanish : public NsPair {
protected:
    // The peer offers an RM jetty and a segment of kStreamLen bytes and
    // waits (until killed); this end imports both, starts the stream, waits
    // for its first completion (it flows), then gone() makes the peer
    // vanish. Then what the survivor sees (docs/connection-manager.md,
    // "Peer loss"): the WQEs sent on the TP complete with ACK_TIMEOUT_ERR
    // (udma's RTO after uboe_retry_cnt retries, or at once when ubcore
    // finds the peer lost: ops->tp_lost), the jetty goes to ERROR
    // (URMA_EVENT_JETTY_ERR), the WQEs taken and not sent complete with
    // WR_FLUSH_ERR, a WR_FLUSH_ERR_DONE record follows, and flush gives the
    // ones still in the ring as WR_UNHANDLED; in post order throughout.
    // The RTO is 50 ms and 3 retries for the test (0.75 s), not 100 ms and
    // 7 (8.7 s). At the end nothing is left on this end's device (objects,
    // TPs) once it deleted its objects.
    void vanish_mid_stream(const std::function<void()> &gone, const Ends &e = Ends())
    {
        ModParam rto("udma", "uboe_rto_ms", "50"), retries("udma", "uboe_retry_cnt", "3");
        const bool leave = e.leave;
        start(
            [leave](Side &s, Chan &c) {
                urma_jetty_t *pj = s.jetty(URMA_TM_RM);
                Buf *b = pj != nullptr ? s.buf(kStreamLen) : nullptr;
                PEER_CHECK(b != nullptr);
                Msg m = {};
                m.jetty[0] = pj->jetty_id;
                m.seg = b->reg->seg;
                if (leave) {
                    // out of the namespace (its sysfs mount holds it too),
                    // so that deleting it ends it: the objects stay
                    int fd = open("/proc/1/ns/net", O_RDONLY | O_CLOEXEC);
                    PEER_CHECK(fd >= 0 && umount2("/sys", MNT_DETACH) == 0 && setns(fd, CLONE_NEWNET) == 0);
                    close(fd);
                }
                PEER_CHECK(c.say("ready", m));
                c.hear("never", nullptr, 600000);  // until killed
                return 1;
            },
            e.peer_ns, e.peer_dev, e.peer_ip, e.my_dev, e.my_ip);
        Msg m;
        ASSERT_TRUE(peer.hear("ready", &m));
        urma_jetty_t *j = me.jetty(URMA_TM_RM);
        Buf *l = me.buf(kStreamLen);
        ASSERT_TRUE(j && l);
        fill(l->p, kStreamLen, 7);
        urma_target_jetty_t *tj = me.import(m.jetty[0], URMA_TM_RM);
        ASSERT_NE(tj, nullptr) << std::strerror(errno);
        urma_target_seg_t *rs = me.import_seg(m.seg);
        ASSERT_NE(rs, nullptr);
        ASSERT_TRUE(ub_itest::wait_for([&e] { return ub_itest::tp_table(e.my_dev).size() == 1; }, 5000))
            << describe(ub_itest::tp_table(e.my_dev));
        ASSERT_TRUE(ub_itest::wait_for(
            [&e] {
                auto b = ub_itest::parse_tp_table(
                    in_ns(e.peer_ns, [&e] { return read_file("/sys/class/ubcore/" + e.peer_dev + "/cm/tp"); }));
                return b.size() == 1 && b[0].state == "Target established";
            },
            5000));

        uint32_t posted = 0;
        bool posting = true;
        // One more WRITE, unless the stream is over: a post may fail only
        // once the jetty is in ERROR (its records are on their way).
        auto post = [&] {
            if (!posting || posted == kStreamMax)
                return;
            if (me.rw(URMA_OPC_WRITE, j, tj, *l, 0, rs, m.seg.ubva.va, kStreamLen, posted + 1) == URMA_SUCCESS) {
                posted++;
                return;
            }
            posting = false;
            EXPECT_EQ(ub_itest::jetty_state(j), URMA_JETTY_STATE_ERROR) << "post " << posted + 1 << " failed";
        };
        for (uint32_t i = 1; i <= kStreamWrites; i++)
            post();
        ASSERT_EQ(posted, kStreamWrites);
        urma_cr_t cr;
        ASSERT_TRUE(me.poll(me.scq, &cr, 60000));
        ASSERT_EQ(cr.status, URMA_CR_SUCCESS) << "the stream does not flow";
        ASSERT_EQ(cr.user_ctx, 1u);
        post();
        const uint64_t t0 = ub_itest::now_ms();
        ASSERT_NO_FATAL_FAILURE(gone());

        // The records, in post order: SUCCESS .., ACK_TIMEOUT_ERR ..,
        // WR_FLUSH_ERR .., WR_FLUSH_ERR_DONE.
        std::vector<urma_cr_t> crs{cr};
        while (crs.back().status != URMA_CR_WR_FLUSH_ERR_DONE) {
            ASSERT_TRUE(me.poll(me.scq, &cr, 30000)) << crs.size() << " records";
            crs.push_back(cr);
            if (cr.status == URMA_CR_SUCCESS)
                post();
            else
                posting = false;
        }
        const uint64_t t1 = ub_itest::now_ms();
        size_t ok = 0, timeouts = 0, flushed = 0;
        while (ok < crs.size() && crs[ok].status == URMA_CR_SUCCESS)
            ok++;
        while (ok + timeouts < crs.size() && crs[ok + timeouts].status == URMA_CR_ACK_TIMEOUT_ERR)
            timeouts++;
        while (ok + timeouts + flushed < crs.size() && crs[ok + timeouts + flushed].status == URMA_CR_WR_FLUSH_ERR)
            flushed++;
        // status/user_ctx, a run of one status in post order as status/first-last
        std::string seq;
        for (size_t i = 0; i < crs.size();) {
            size_t k = i + 1;
            while (k < crs.size() && crs[k].status == crs[i].status && crs[k].user_ctx == crs[k - 1].user_ctx + 1)
                k++;
            seq += std::to_string(crs[i].status) + "/" + std::to_string(crs[i].user_ctx);
            if (k - i > 1)
                seq += "-" + std::to_string(crs[k - 1].user_ctx);
            seq += " ";
            i = k;
        }
        EXPECT_LT(ok, posted) << "the stream was over before the peer went: " << seq;
        EXPECT_GE(timeouts, 1u) << seq;
        EXPECT_EQ(ok + timeouts + flushed + 1, crs.size()) << "SUCCESS, ACK_TIMEOUT_ERR, WR_FLUSH_ERR, DONE: " << seq;
        for (size_t i = 0; i + 1 < crs.size(); i++)
            EXPECT_EQ(crs[i].user_ctx, i + 1) << "post order: " << seq;
        EXPECT_EQ(crs.back().user_ctx, 0u);
        std::printf("peer gone: %u WRITEs posted, %zu done, %zu ACK_TIMEOUT_ERR, %zu WR_FLUSH_ERR, "
                    "%llu ms to the DONE record\n",
                    posted, ok, timeouts, flushed, static_cast<unsigned long long>(t1 - t0));

        // The jetty's event (the port's and the import's TP_ERR may come
        // too) and its state.
        ub_itest::AsyncEv ev;
        const uint64_t end = ub_itest::now_ms() + 10000;
        do
            ev = ub_itest::next_async_event(me.ctx, static_cast<int>(end - std::min(end, ub_itest::now_ms())));
        while (ev.type != -1 && ev.type != URMA_EVENT_JETTY_ERR);
        EXPECT_EQ(ev.type, URMA_EVENT_JETTY_ERR);
        EXPECT_EQ(ev.element, j);
        EXPECT_EQ(ub_itest::jetty_state(j), URMA_JETTY_STATE_ERROR);

        // What the queue never took: WR_UNHANDLED, in post order.
        std::vector<urma_cr_t> left(kStreamWrites);
        const int n = urma_flush_jetty(j, static_cast<int>(left.size()), left.data());
        EXPECT_EQ(n, static_cast<int>(posted - (crs.size() - 1)));
        for (int i = 0; i < n; i++) {
            EXPECT_EQ(left[i].status, URMA_CR_WR_UNHANDLED);
            EXPECT_EQ(left[i].user_ctx, crs.size() + static_cast<size_t>(i));
        }

        // Nothing left here once this end deleted its objects (the TP
        // goes with its last user, or when the keepalive gives up).
        EXPECT_TRUE(me.close());
        EXPECT_TRUE(ub_itest::wait_for([&e] { return ub_itest::tp_table(e.my_dev).empty(); }, 15000))
            << describe(ub_itest::tp_table(e.my_dev));
        EXPECT_TRUE(ub_itest::wait_for([&e] { return ub_itest::all_counts_zero(e.my_dev); }, 3000))
            << ub_itest::counts(e.my_dev);
    }
};

// The peer's device deleted. Everything the peer sends is dropped first
// (netem loss 100% on vB), as when its host goes: else its process's
// objects go before its device's DCONN_NOTIFY (uburma's removal) and the
// WRITEs arriving meanwhile fail with REM_ACCESS_ABORT_ERR, and the
// DCONN_NOTIFY would say it. The survivor learns it from its RTO.
TEST_F(NsPairVanish, DeviceDeletedMidStream)
{
    struct Restore {
        ~Restore()
        {
            EXPECT_EQ(lib_sh("tc -n \"$UB_NS_B\" qdisc del dev \"$UB_VETH_B\" root; "
                             "ub_nspair_add_dev \"$UB_NS_B\" \"$UB_DEV_B\" \"$UB_VETH_B\" \"$UB_IP4_B\" "
                             "\"$UB_IP6_B\""),
                      0);
        }
    };
    std::unique_ptr<Restore> restore;
    vanish_mid_stream([this, &restore] {
        ASSERT_EQ(lib_sh("tc -n \"$UB_NS_B\" qdisc add dev \"$UB_VETH_B\" root netem loss 100%"), 0);
        restore = std::make_unique<Restore>();
        kill_peer();
        std::string out;
        ASSERT_EQ(ub_itest::admin({"dev", "del", kDevB}, &out, [] { return enter_ns(kNsB); }), 0) << out;
    });
}

// The peer's veth set down: this end's link loses its carrier, ubcore
// loses the TP's peer and udma fails what was sent on it at once
// (ops->tp_lost), without waiting for its RTO.
TEST_F(NsPairVanish, VethDownMidStream)
{
    struct Restore {
        ~Restore()
        {
            EXPECT_EQ(in_ns(kNsB, [] { return set_link(kVethB, true) ? "up" : ""; }), "up");
            EXPECT_EQ(lib_sh("ip -n \"$UB_NS_B\" addr replace \"$UB_IP6_B/64\" dev \"$UB_VETH_B\" nodad"), 0);
            EXPECT_TRUE(ub_itest::wait_for(
                [] { return read_file("/sys/class/ubcore/" + kDevA + "/port0/state") == "ACTIVE\n"; }, 10000));
            EXPECT_TRUE(ub_itest::wait_for(b_has_eid, 10000));
        }
    };
    std::unique_ptr<Restore> restore;
    vanish_mid_stream([&restore] {
        restore = std::make_unique<Restore>();
        ASSERT_EQ(in_ns(kNsB, [] { return set_link(kVethB, false) ? "down" : ""; }), "down");
    });
    kill_peer();
}

// The peer's namespace deleted. Deleting uboeB would delete vA with vB
// (a veth pair goes as one) and udmaA with it: the survivor would lose its
// own device. So this case makes a pair in which the peer's namespace goes
// alone: vA2 in uboeA (fd78:1::1) and vC in a namespace uboeC (fd78:2::2),
// each a veth to a router namespace uboeX (IPv6 forwarding; the test
// kernel has no bridge); udmaA2 on vA2 and udmaC on vC, added with a
// keepalive of 200 ms. The peer process leaves uboeC once its objects are
// made (else it would keep the namespace alive, and its exit would
// destroy its objects while vC still answers); "ip netns del uboeC" then
// takes vC and udmaC away, nothing of the peer answers any more, and the
// survivor's RTO fails what it sent.
TEST_F(NsPairVanish, NamespaceDeletedMidStream)
{
    struct Bed {
        ~Bed()
        {
            EXPECT_EQ(lib_sh("ub_ns uboeA \"$UB_ADMIN\" dev del udmaA2; ip netns del uboeC 2>/dev/null; "
                             "ip netns del uboeX"),
                      0);
        }
    } bed;
    ASSERT_EQ(lib_sh("printf \"%s\\n\" \"netns add uboeX\" \"netns add uboeC\" "
                     "\"link add vA2 type veth peer name vX1\" \"link add vC type veth peer name vX2\" "
                     "\"link set vA2 netns uboeA\" \"link set vX1 netns uboeX\" "
                     "\"link set vX2 netns uboeX\" \"link set vC netns uboeC\" | ip -batch - && "
                     "printf \"%s\\n\" \"link set lo up\" \"link set vX1 up\" \"link set vX2 up\" "
                     "\"addr add fd78:1::2/64 dev vX1 nodad\" \"addr add fd78:2::1/64 dev vX2 nodad\" "
                     "| ip -n uboeX -batch - && "
                     "printf \"%s\\n\" \"link set vA2 up\" \"addr add 10.78.1.1/24 dev vA2\" "
                     "\"addr add fd78:1::1/64 dev vA2 nodad\" \"route add fd78:2::/64 via fd78:1::2\" "
                     "| ip -n uboeA -batch - && "
                     "printf \"%s\\n\" \"link set lo up\" \"link set vC up\" \"addr add 10.78.2.2/24 dev vC\" "
                     "\"addr add fd78:2::2/64 dev vC nodad\" \"route add fd78:1::/64 via fd78:2::1\" "
                     "| ip -n uboeC -batch -"),
              0);
    ASSERT_EQ(in_ns("uboeX",
                    [] {
                        return ub_itest::write_sysfs("/proc/sys/net/ipv6/conf/all/forwarding", "1\n") ? "on" : "";
                    }),
              "on");
    {
        ModParam ka("ubcore", "cm_keepalive_ms", "200");
        ASSERT_EQ(lib_sh("ub_nspair_add_dev uboeA udmaA2 vA2 10.78.1.1 fd78:1::1 && "
                         "ub_nspair_add_dev uboeC udmaC vC 10.78.2.2 fd78:2::2"),
                  0);
    }
    Ends e;
    e.peer_ns = "uboeC";
    e.peer_dev = "udmaC";
    e.peer_ip = "fd78:2::2";
    e.my_dev = "udmaA2";
    e.my_ip = "fd78:1::1";
    e.leave = true;
    vanish_mid_stream([] { ASSERT_EQ(lib_sh("ip netns del uboeC"), 0); }, e);
    kill_peer();
}

}  // namespace
