// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The UB/URMA stack authors
// Imports and binds drive ubcore's connection manager (issue 10,
// docs/connection-manager.md), in the test guest, one namespace: udma0 on
// lo, whose own EIDs are the peers (the CM's local path: both ends of a TP
// are entries of udma0's table). The expectations are the user guide's
// (5.1.1: RM shares one TP per EID pair, RC has one per bound jetty pair, UM
// none; a reject reaches the caller; the state names of figure 14 as
// urma_admin prints them), the errnos the document names, and UMDK's
// names and types of the TP-aware calls (5.1.2.2).
#include <arpa/inet.h>
#include <dirent.h>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "cm_tp.h"
#include "urma_itest.h"

#ifndef URMA_ADMIN_PATH
#error "URMA_ADMIN_PATH must name the built urma_admin"
#endif

namespace {

using ub_itest::logged;

constexpr uint32_t kToken = 0xabcd;  // ub_itest::jfr_cfg's

using ub_itest::admin;
using ub_itest::cells;
using ub_itest::describe;
using ub_itest::eid_string;
using ub_itest::find_tp;
using ub_itest::tp_table;
using ub_itest::TpRow;

bool tp_table_empty()
{
    return ub_itest::wait_for([] { return tp_table().empty(); }, 3000);
}

// Whether udma0's TP end tpn is "Target established" within 3 s: the
// target's end is when the CONN_ACK arrives, which the connection
// manager's work handles after the import returned.
bool target_established(uint32_t tpn)
{
    return ub_itest::wait_for([tpn] {
        auto now = tp_table();
        const TpRow *r = find_tp(now, tpn);
        return r != nullptr && r->state == "Target established";
    }, 3000);
}

// Whether every TP end of udma0 is established within 3 s (a target's
// end once its CONN_ACK arrives: target_established()).
bool all_established()
{
    return ub_itest::wait_for([] {
        for (const auto &r : tp_table())
            if (r.state != "Initiator established" && r.state != "Target established")
                return false;
        return true;
    }, 3000);
}

class CmTest : public ub_itest::CtxTest {
protected:
    void SetUp() override
    {
        CtxTest::SetUp();
        urma_register_log_func(ub_itest::log_capture);
        ub_itest::log_clear();
        urma_jfc_cfg_t cc = ub_itest::jfc_cfg(256);
        jfc_ = urma_create_jfc(ctx_, &cc);
        ASSERT_NE(jfc_, nullptr) << std::strerror(errno);
        urma_jfr_cfg_t rc = ub_itest::jfr_cfg(jfc_);
        jfr_ = urma_create_jfr(ctx_, &rc);
        ASSERT_NE(jfr_, nullptr) << std::strerror(errno);
        ASSERT_TRUE(tp_table().empty()) << describe(tp_table());
    }
    void TearDown() override
    {
        for (auto it = jetties_.rbegin(); it != jetties_.rend(); ++it)
            EXPECT_EQ(urma_delete_jetty(*it), URMA_SUCCESS);
        if (jfr_ != nullptr) {
            EXPECT_EQ(urma_delete_jfr(jfr_), URMA_SUCCESS);
        }
        if (jfc_ != nullptr) {
            EXPECT_EQ(urma_delete_jfc(jfc_), URMA_SUCCESS);
        }
        urma_unregister_log_func();
        CtxTest::TearDown();
        // Every TP went with its last user, on both ends.
        EXPECT_TRUE(tp_table_empty()) << describe(tp_table());
    }

    // A jetty of ctx (this fixture's by default) with its own JFR, in mode;
    // deleted by TearDown unless the test does (forget()).
    urma_jetty_t *jetty(urma_transport_mode_t mode, urma_context_t *ctx = nullptr, urma_jfc_t *jfc = nullptr)
    {
        urma_jfr_cfg_t rc = ub_itest::jfr_cfg(jfc != nullptr ? jfc : jfc_);
        rc.trans_mode = mode;
        urma_jetty_cfg_t jc = {};
        jc.jfs_cfg = ub_itest::jfs_cfg(jfc != nullptr ? jfc : jfc_);
        jc.jfs_cfg.trans_mode = mode;
        jc.jfr_cfg = &rc;
        urma_jetty_t *j = urma_create_jetty(ctx != nullptr ? ctx : ctx_, &jc);
        EXPECT_NE(j, nullptr) << std::strerror(errno);
        if (j != nullptr)
            jetties_.push_back(j);
        return j;
    }
    void forget(urma_jetty_t *j) { jetties_.erase(std::find(jetties_.begin(), jetties_.end(), j)); }

    // jetty id (at eid) imported into ctx in mode with token; NULL with errno.
    static urma_target_jetty_t *import(urma_context_t *ctx, const urma_jetty_id_t &id, urma_transport_mode_t mode,
                                       uint32_t token = kToken)
    {
        return ub_itest::import_jetty(ctx, id, mode, token);
    }
    urma_target_jetty_t *import(const urma_jetty_t *j, urma_transport_mode_t mode, uint32_t token = kToken)
    {
        return import(ctx_, j->jetty_id, mode, token);
    }

    // j imported into ctx with urma_import_jetty_ex on the TP named by this
    // end's handle mine and the peer's handle peer; NULL with errno.
    static urma_target_jetty_t *import_ex(urma_context_t *ctx, const urma_jetty_t *j, uint32_t mine,
                                          uint32_t peer, uint32_t token = kToken,
                                          urma_transport_mode_t mode = URMA_TM_RM)
    {
        urma_rjetty_t rj = {};
        rj.jetty_id = j->jetty_id;
        rj.trans_mode = mode;
        rj.type = URMA_JETTY;
        rj.flag.bs.token_policy = URMA_TOKEN_PLAIN_TEXT;
        urma_token_t tok = {token};
        urma_active_tp_cfg_t act = {};
        act.tp_handle = mine;
        act.peer_tp_handle = peer;
        return urma_import_jetty_ex(ctx, &rj, &tok, &act);
    }

    urma_jfc_t *jfc_ = nullptr;
    urma_jfr_t *jfr_ = nullptr;
    std::vector<urma_jetty_t *> jetties_;
};

// 5.1.1.2: every RM import of the same EID pair shares one TP, whose users
// are the imports; the first opens it (REQ, REP, ACK: Initiator / Target
// established), the last unimport closes it (DCONN_NOTIFY) on both ends.
TEST_F(CmTest, RmImportsShareOneTpPerEidPair)
{
    urma_jetty_t *t = jetty(URMA_TM_RM);
    ASSERT_NE(t, nullptr);
    const std::string eid = eid_string(t->jetty_id.eid);
    std::vector<urma_target_jetty_t *> imports;
    for (int i = 0; i < 8; i++) {
        imports.push_back(import(t, URMA_TM_RM));
        ASSERT_NE(imports.back(), nullptr) << std::strerror(errno);
    }
    const uint32_t tpn = imports[0]->tp.tpn;
    EXPECT_NE(tpn, 0u);
    for (auto *tj : imports)
        EXPECT_EQ(tj->tp.tpn, tpn);
    // The JFR of the same peer shares it too.
    urma_target_jetty_t *tjfr = import_jfr(jfr_, kToken);
    ASSERT_NE(tjfr, nullptr) << std::strerror(errno);
    EXPECT_EQ(tjfr->tp.tpn, tpn);

    auto rows = tp_table();
    ASSERT_EQ(rows.size(), 2u) << "one TP, its two ends on udma0:\n" << describe(rows);
    const TpRow *init = find_tp(rows, tpn);
    ASSERT_NE(init, nullptr) << describe(rows);
    const TpRow *target = find_tp(rows, init->peer_tpn);
    ASSERT_NE(target, nullptr) << describe(rows);
    EXPECT_EQ(init->mode, "RM");
    EXPECT_EQ(init->state, "Initiator established");
    EXPECT_EQ(init->users, 9u);
    EXPECT_EQ(init->peer, eid);
    EXPECT_EQ(target->mode, "RM");
    EXPECT_EQ(target->state, "Target established");
    EXPECT_EQ(target->users, 0u);
    EXPECT_EQ(target->peer_tpn, tpn);

    EXPECT_EQ(urma_unimport_jfr(tjfr), URMA_SUCCESS);
    for (size_t i = 1; i < imports.size(); i++)
        EXPECT_EQ(urma_unimport_jetty(imports[i]), URMA_SUCCESS);
    rows = tp_table();
    ASSERT_NE(find_tp(rows, tpn), nullptr) << describe(rows);
    EXPECT_EQ(find_tp(rows, tpn)->users, 1u);
    EXPECT_EQ(urma_unimport_jetty(imports[0]), URMA_SUCCESS);
    EXPECT_TRUE(tp_table_empty()) << describe(tp_table());
}

// 1000 imports of one remote jetty: one TP, 1000 users (each import still
// has the peer check its target, on the shared TP).
TEST_F(CmTest, ThousandImportsOfOneJettyShareOneTp)
{
    constexpr int kImports = 1000;
    urma_jetty_t *t = jetty(URMA_TM_RM);
    ASSERT_NE(t, nullptr);
    std::vector<urma_target_jetty_t *> imports;
    auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < kImports; i++) {
        urma_target_jetty_t *tj = import(t, URMA_TM_RM);
        ASSERT_NE(tj, nullptr) << "import " << i << ": " << std::strerror(errno);
        imports.push_back(tj);
    }
    auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - t0).count();
    std::printf("%d imports of one jetty: %lld ms\n", kImports, static_cast<long long>(ms));
    auto rows = tp_table();
    ASSERT_EQ(rows.size(), 2u) << describe(rows);
    const TpRow *init = find_tp(rows, imports[0]->tp.tpn);
    ASSERT_NE(init, nullptr) << describe(rows);
    EXPECT_EQ(init->users, static_cast<uint32_t>(kImports));
    for (auto *tj : imports) {
        EXPECT_EQ(tj->tp.tpn, init->tpn);
        EXPECT_EQ(urma_unimport_jetty(tj), URMA_SUCCESS);
    }
    EXPECT_TRUE(tp_table_empty()) << describe(tp_table());
}

// RC: no TP at import; each bind opens the TP of its jetty pair, one jetty
// per imported jetty; unbind (or deleting the bound jetty) closes it. UM
// imports open nothing.
TEST_F(CmTest, RcGetsOneTpPerBoundPairUmNone)
{
    urma_jetty_t *a = jetty(URMA_TM_RC);
    urma_jetty_t *b = jetty(URMA_TM_RC);
    urma_jetty_t *c = jetty(URMA_TM_RC);
    urma_jetty_t *u = jetty(URMA_TM_UM);
    ASSERT_TRUE(a && b && c && u);
    urma_target_jetty_t *ta = import(a, URMA_TM_RC);
    urma_target_jetty_t *ta2 = import(a, URMA_TM_RC);
    urma_target_jetty_t *tu = import(u, URMA_TM_UM);
    ASSERT_TRUE(ta && ta2 && tu) << std::strerror(errno);
    EXPECT_EQ(ta->tp.tpn, 0u);
    EXPECT_EQ(tu->tp.tpn, 0u);
    EXPECT_TRUE(tp_table().empty()) << describe(tp_table());

    ASSERT_EQ(urma_bind_jetty(c, ta), URMA_SUCCESS);
    auto rows = tp_table();
    ASSERT_EQ(rows.size(), 2u) << describe(rows);
    EXPECT_EQ(rows[0].mode, "RC");
    EXPECT_EQ(rows[1].mode, "RC");
    // One jetty per imported jetty (UMDK): the TP belongs to the pair.
    EXPECT_EQ(urma_bind_jetty(b, ta), URMA_EEXIST);
    ASSERT_EQ(urma_bind_jetty(b, ta2), URMA_SUCCESS);
    EXPECT_TRUE(all_established()) << describe(tp_table());
    rows = tp_table();
    ASSERT_EQ(rows.size(), 4u) << "two pairs, two TPs:\n" << describe(rows);
    int initiators = 0;
    for (const auto &r : rows) {
        EXPECT_EQ(r.mode, "RC");
        if (r.state == "Initiator established") {
            initiators++;
            EXPECT_EQ(r.users, 1u);
        } else {
            EXPECT_EQ(r.state, "Target established");
            EXPECT_EQ(r.users, 0u);
        }
    }
    EXPECT_EQ(initiators, 2);

    EXPECT_EQ(urma_unbind_jetty(c), URMA_SUCCESS);
    EXPECT_TRUE(ub_itest::wait_for([] { return tp_table().size() == 2; }, 3000)) << describe(tp_table());
    // Deleting a bound jetty unbinds it and closes its TP.
    EXPECT_EQ(urma_delete_jetty(b), URMA_SUCCESS);
    forget(b);
    EXPECT_TRUE(tp_table_empty()) << describe(tp_table());
    EXPECT_EQ(urma_unimport_jetty(ta), URMA_SUCCESS);
    EXPECT_EQ(urma_unimport_jetty(ta2), URMA_SUCCESS);
    EXPECT_EQ(urma_unimport_jetty(tu), URMA_SUCCESS);
}

// Each reject of the peer reaches the import or bind as its errno (which
// is the urma_status_t), with a log line, whether the import opens the TP
// or joins it; a rejected joiner leaves the TP and its users as they were.
TEST_F(CmTest, RejectsReachTheCallerWithTheirErrno)
{
    urma_jetty_t *rm = jetty(URMA_TM_RM);
    urma_jetty_t *rc = jetty(URMA_TM_RC);
    urma_jetty_t *gone = jetty(URMA_TM_RM);
    ASSERT_TRUE(rm && rc && gone);
    const urma_jetty_id_t gone_id = gone->jetty_id;
    ASSERT_EQ(urma_delete_jetty(gone), URMA_SUCCESS);
    forget(gone);

    for (int joiner = 0; joiner < 2; joiner++) {
        SCOPED_TRACE(joiner ? "joining an established TP" : "opening the TP");
        urma_target_jetty_t *ok = joiner ? import(rm, URMA_TM_RM) : nullptr;
        ASSERT_TRUE(!joiner || ok != nullptr) << std::strerror(errno);
        ub_itest::log_clear();
        EXPECT_EQ(import(ctx_, gone_id, URMA_TM_RM), nullptr);
        EXPECT_EQ(errno, ENOENT) << "no such jetty on the peer";
        EXPECT_TRUE(logged("import of " + std::to_string(gone_id.id)));
        EXPECT_EQ(import(rc, URMA_TM_RM), nullptr);
        EXPECT_EQ(errno, EPROTOTYPE) << "an RC jetty imported in RM";
        EXPECT_EQ(import(rm, URMA_TM_RM, kToken + 1), nullptr);
        EXPECT_EQ(errno, URMA_ENOPERM) << "a wrong token";
        errno = 0;
        EXPECT_EQ(import_jfr(jfr_, kToken + 1), nullptr);
        EXPECT_EQ(errno, URMA_ENOPERM) << "a wrong token, JFR";
        auto rows = tp_table();
        if (!joiner) {
            EXPECT_TRUE(rows.empty()) << "the rollback left no TP:\n" << describe(rows);
        } else {
            ASSERT_EQ(rows.size(), 2u) << describe(rows);
            ASSERT_NE(find_tp(rows, ok->tp.tpn), nullptr) << describe(rows);
            EXPECT_EQ(find_tp(rows, ok->tp.tpn)->users, 1u);
            EXPECT_EQ(find_tp(rows, ok->tp.tpn)->state, "Initiator established");
            EXPECT_EQ(urma_unimport_jetty(ok), URMA_SUCCESS);
        }
    }

    // RC: the bind gets the answer.
    urma_jetty_t *x = jetty(URMA_TM_RC);
    urma_jetty_t *y = jetty(URMA_TM_RC);
    ASSERT_TRUE(x && y);
    urma_target_jetty_t *ty = import(y, URMA_TM_RC);
    urma_target_jetty_t *trm = import(ctx_, rm->jetty_id, URMA_TM_RC);
    urma_target_jetty_t *tbad = import(y, URMA_TM_RC, kToken + 1);
    ASSERT_TRUE(ty && trm && tbad) << std::strerror(errno);
    EXPECT_EQ(urma_bind_jetty(x, trm), EPROTOTYPE) << "an RM jetty bound in RC";
    EXPECT_EQ(urma_bind_jetty(x, tbad), URMA_ENOPERM);
    ASSERT_EQ(urma_delete_jetty(y), URMA_SUCCESS);
    forget(y);
    EXPECT_EQ(urma_bind_jetty(x, ty), ENOENT) << "the imported jetty is gone";
    EXPECT_TRUE(logged("bind jetty " + std::to_string(x->jetty_id.id) + " failed"));
    EXPECT_TRUE(tp_table().empty()) << describe(tp_table());
    EXPECT_EQ(urma_unimport_jetty(ty), URMA_SUCCESS);
    EXPECT_EQ(urma_unimport_jetty(trm), URMA_SUCCESS);
    EXPECT_EQ(urma_unimport_jetty(tbad), URMA_SUCCESS);

    // A peer no device has: the provider has no way to it.
    urma_jetty_id_t nowhere = rm->jetty_id;
    ASSERT_EQ(inet_pton(AF_INET6, "fd00::dead", nowhere.eid.raw), 1);
    EXPECT_EQ(import(ctx_, nowhere, URMA_TM_RM), nullptr);
    EXPECT_EQ(errno, EHOSTUNREACH);
}

// Teardown in both orders: the target gone first (the TP stays for its
// users, who then leave), or the importer first; and a context deleted
// with its imports and binds.
TEST_F(CmTest, TeardownInBothOrders)
{
    urma_jetty_t *t = jetty(URMA_TM_RM);
    ASSERT_NE(t, nullptr);
    // importer first
    urma_target_jetty_t *tj = import(t, URMA_TM_RM);
    ASSERT_NE(tj, nullptr) << std::strerror(errno);
    EXPECT_EQ(urma_unimport_jetty(tj), URMA_SUCCESS);
    EXPECT_TRUE(tp_table_empty()) << describe(tp_table());
    // target first: the TP is the EID pair's, its user unimports later
    tj = import(t, URMA_TM_RM);
    ASSERT_NE(tj, nullptr) << std::strerror(errno);
    EXPECT_EQ(urma_delete_jetty(t), URMA_SUCCESS);
    forget(t);
    auto rows = tp_table();
    ASSERT_EQ(rows.size(), 2u) << describe(rows);
    EXPECT_EQ(urma_unimport_jetty(tj), URMA_SUCCESS);
    EXPECT_TRUE(tp_table_empty()) << describe(tp_table());

    // RC, target first: the bound jetty's target is deleted, unbind closes
    urma_jetty_t *a = jetty(URMA_TM_RC);
    urma_jetty_t *b = jetty(URMA_TM_RC);
    ASSERT_TRUE(a && b);
    urma_target_jetty_t *tb = import(b, URMA_TM_RC);
    ASSERT_NE(tb, nullptr) << std::strerror(errno);
    ASSERT_EQ(urma_bind_jetty(a, tb), URMA_SUCCESS);
    EXPECT_EQ(urma_delete_jetty(b), URMA_SUCCESS);
    forget(b);
    EXPECT_EQ(tp_table().size(), 2u) << describe(tp_table());
    EXPECT_EQ(urma_unbind_jetty(a), URMA_SUCCESS);
    EXPECT_TRUE(tp_table_empty()) << describe(tp_table());
    EXPECT_EQ(urma_unimport_jetty(tb), URMA_SUCCESS);

    // A process that exits with an RM import and an RC bind: closing its
    // file frees them, and their TPs go.
    urma_jetty_t *peer = jetty(URMA_TM_RC);
    urma_jetty_t *rm = jetty(URMA_TM_RM);
    ASSERT_TRUE(peer && rm);
    const urma_jetty_id_t peer_id = peer->jetty_id, rm_id = rm->jetty_id;
    int ready[2];
    ASSERT_EQ(pipe(ready), 0);
    pid_t pid = fork();
    if (pid == 0) {
        close(ready[0]);
        urma_context_t *c = ub_itest::open_ctx();
        urma_jfc_cfg_t cc = ub_itest::jfc_cfg(64);
        urma_jfc_t *jfc = c != nullptr ? urma_create_jfc(c, &cc) : nullptr;
        if (jfc == nullptr)
            _exit(10);
        urma_jfr_cfg_t rc = ub_itest::jfr_cfg(jfc);
        rc.trans_mode = URMA_TM_RC;
        urma_jetty_cfg_t jc = {};
        jc.jfs_cfg = ub_itest::jfs_cfg(jfc);
        jc.jfs_cfg.trans_mode = URMA_TM_RC;
        jc.jfr_cfg = &rc;
        urma_jetty_t *j = urma_create_jetty(c, &jc);
        urma_target_jetty_t *t2 = import(c, peer_id, URMA_TM_RC);
        urma_target_jetty_t *t3 = import(c, rm_id, URMA_TM_RM);
        if (j == nullptr || t2 == nullptr || t3 == nullptr || urma_bind_jetty(j, t2) != URMA_SUCCESS)
            _exit(11);
        (void)!write(ready[1], "R", 1);
        pause();  // until killed
        _exit(12);
    }
    ASSERT_GT(pid, 0);
    close(ready[1]);
    char c = 0;
    ASSERT_EQ(read(ready[0], &c, 1), 1) << "the child could not import and bind";
    close(ready[0]);
    EXPECT_EQ(tp_table().size(), 4u) << describe(tp_table());
    kill(pid, SIGKILL);
    int status = 0;
    EXPECT_EQ(waitpid(pid, &status, 0), pid);
    EXPECT_TRUE(tp_table_empty()) << describe(tp_table());
}

// urma_admin show dev udma0 tp: one line per TP end, by TPN: the peer's EID
// and TPN, the mode, the state (figure 14's names), the users, the age.
TEST_F(CmTest, UrmaAdminShowsTheTps)
{
    urma_jetty_t *t = jetty(URMA_TM_RM);
    ASSERT_NE(t, nullptr);
    urma_target_jetty_t *tj = import(t, URMA_TM_RM);
    urma_target_jetty_t *tj2 = import(t, URMA_TM_RM);
    ASSERT_TRUE(tj && tj2) << std::strerror(errno);
    const TpRow *peer = nullptr;
    auto rows = tp_table();
    for (const auto &r : rows)
        if (r.tpn != tj->tp.tpn)
            peer = &r;
    ASSERT_NE(peer, nullptr) << describe(rows);
    const std::string eid = eid_string(t->jetty_id.eid);
    const std::string a = std::to_string(tj->tp.tpn), b = std::to_string(peer->tpn);

    std::string out;
    ASSERT_EQ(admin({"show", "dev", "udma0", "tp"}, &out), 0) << out;
    auto table = cells(out);
    ASSERT_EQ(table.size(), 3u) << out;
    EXPECT_EQ(table[0], (std::vector<std::string>{"tpn", "peer_eid", "peer_tpn", "trans_mode", "state", "users",
                                                  "age_ms"}))
        << out;
    // by TPN: the initiator's end was made first; the age is a number
    ASSERT_EQ(table[1].size(), 7u) << out;
    ASSERT_EQ(table[2].size(), 7u) << out;
    EXPECT_EQ(std::vector<std::string>(table[1].begin(), table[1].end() - 1),
              (std::vector<std::string>{a, eid, b, "RM", "Initiator_established", "2"}))
        << out;
    EXPECT_EQ(std::vector<std::string>(table[2].begin(), table[2].end() - 1),
              (std::vector<std::string>{b, eid, a, "RM", "Target_established", "0"}))
        << out;
    EXPECT_EQ(table[1][6].find_first_not_of("0123456789"), std::string::npos) << out;

    ASSERT_EQ(admin({"show", "dev", "udma0", "tp", a}, &out), 0) << out;
    EXPECT_NE(out.find("Initiator_established"), std::string::npos) << out;
    EXPECT_EQ(urma_unimport_jetty(tj), URMA_SUCCESS);
    EXPECT_EQ(urma_unimport_jetty(tj2), URMA_SUCCESS);
    EXPECT_TRUE(tp_table_empty()) << describe(tp_table());
    ASSERT_EQ(admin({"show", "dev", "udma0", "tp"}, &out), 0) << out;
    EXPECT_EQ(cells(out).size(), 1u) << "the header only:\n" << out;
}

// Both ends import each other at once (two EIDs of udma0, a context on
// each): the CONN_REQs may cross (1408-1410) or not (1414), either way
// exactly one TP, its two ends "reused", one user each.
TEST_F(CmTest, BothSidesImportingEachOtherAtOnceMakeOneTp)
{
    std::string out;
    ASSERT_EQ(admin({"eid", "add", "udma0", "40", "fd00::40"}, &out), 0) << out;
    urma_device_t *dev = urma_get_device_by_name(const_cast<char *>("udma0"));
    ASSERT_NE(dev, nullptr);
    urma_context_t *ctx2 = urma_create_context(dev, 40);
    ASSERT_NE(ctx2, nullptr) << std::strerror(errno);
    urma_jfc_cfg_t cc = ub_itest::jfc_cfg(64);
    urma_jfc_t *jfc2 = urma_create_jfc(ctx2, &cc);
    ASSERT_NE(jfc2, nullptr) << std::strerror(errno);
    urma_jetty_t *a = jetty(URMA_TM_RM);
    urma_jetty_t *b = jetty(URMA_TM_RM, ctx2, jfc2);
    ASSERT_TRUE(a && b);
    EXPECT_EQ(eid_string(b->jetty_id.eid), "fd00::40");

    for (int round = 0; round < 10; round++) {
        SCOPED_TRACE("round " + std::to_string(round));
        std::atomic<int> ready{0};
        urma_target_jetty_t *ta = nullptr, *tb = nullptr;
        int ea = 0, eb = 0;
        auto go = [&ready]() {
            ready++;
            while (ready.load() < 2) {
            }
        };
        std::thread t1([&] {
            go();
            tb = import(ctx_, b->jetty_id, URMA_TM_RM);
            ea = errno;
        });
        std::thread t2([&] {
            go();
            ta = import(ctx2, a->jetty_id, URMA_TM_RM);
            eb = errno;
        });
        t1.join();
        t2.join();
        ASSERT_NE(tb, nullptr) << std::strerror(ea);
        ASSERT_NE(ta, nullptr) << std::strerror(eb);
        auto rows = tp_table();
        ASSERT_EQ(rows.size(), 2u) << describe(rows);
        const TpRow *ra = find_tp(rows, tb->tp.tpn);
        const TpRow *rb = find_tp(rows, ta->tp.tpn);
        ASSERT_TRUE(ra && rb) << describe(rows);
        EXPECT_EQ(ra->peer, "fd00::40");
        EXPECT_EQ(rb->peer, eid_string(a->jetty_id.eid));
        EXPECT_EQ(ra->peer_tpn, rb->tpn);
        EXPECT_EQ(rb->peer_tpn, ra->tpn);
        EXPECT_EQ(ra->state, "reused");
        EXPECT_EQ(rb->state, "reused");
        EXPECT_EQ(ra->users, 1u);
        EXPECT_EQ(rb->users, 1u);
        EXPECT_EQ(urma_unimport_jetty(tb), URMA_SUCCESS);
        EXPECT_EQ(urma_unimport_jetty(ta), URMA_SUCCESS);
        EXPECT_TRUE(tp_table_empty()) << describe(tp_table());
    }
    EXPECT_EQ(urma_delete_jetty(b), URMA_SUCCESS);
    forget(b);
    EXPECT_EQ(urma_delete_jfc(jfc2), URMA_SUCCESS);
    EXPECT_EQ(urma_delete_context(ctx2), URMA_SUCCESS);
    EXPECT_EQ(admin({"eid", "del", "udma0", "40"}, &out), 0) << out;
}

// urma_get_tp_list lists the ESTABLISHED TPs of an EID pair as handles;
// the *_ex calls import or bind on the TP they name, and only on it.
TEST_F(CmTest, TpListAndTheExCalls)
{
    urma_jetty_t *t = jetty(URMA_TM_RM);
    ASSERT_NE(t, nullptr);
    urma_get_tp_cfg_t cfg = {};
    cfg.trans_mode = URMA_TM_RM;
    cfg.local_eid = t->jetty_id.eid;
    cfg.peer_eid = t->jetty_id.eid;
    urma_tp_info_t tps[8] = {};
    uint32_t cnt = 8;

    urma_target_jetty_t *tj = import(t, URMA_TM_RM);
    ASSERT_NE(tj, nullptr) << std::strerror(errno);
    auto rows = tp_table();
    ASSERT_EQ(rows.size(), 2u) << describe(rows);
    const uint32_t mine = tj->tp.tpn;
    const uint32_t peer = find_tp(rows, mine)->peer_tpn;
    EXPECT_TRUE(target_established(peer)) << describe(tp_table());
    cnt = 8;
    ASSERT_EQ(urma_get_tp_list(ctx_, &cfg, &cnt, tps), URMA_SUCCESS);
    ASSERT_EQ(cnt, 2u) << "both ends of the TP to udma0's own EID";
    EXPECT_EQ(tps[0].tp_handle, std::min(mine, peer));
    EXPECT_EQ(tps[1].tp_handle, std::max(mine, peer));
    cnt = 1;
    ASSERT_EQ(urma_get_tp_list(ctx_, &cfg, &cnt, tps), URMA_SUCCESS);
    EXPECT_EQ(cnt, 1u);
    cfg.trans_mode = URMA_TM_UM;
    cnt = 8;
    EXPECT_EQ(urma_get_tp_list(ctx_, &cfg, &cnt, tps), URMA_SUCCESS);
    EXPECT_EQ(cnt, 0u) << "UM needs no TP";
    cfg.trans_mode = URMA_TM_RC;
    cnt = 8;
    EXPECT_EQ(urma_get_tp_list(ctx_, &cfg, &cnt, tps), URMA_SUCCESS);
    EXPECT_EQ(cnt, 0u);
    cfg.trans_mode = static_cast<urma_transport_mode_t>(0);
    EXPECT_EQ(urma_get_tp_list(ctx_, &cfg, &cnt, tps), URMA_EINVAL);
    cfg.trans_mode = URMA_TM_RM;
    cnt = 0;
    EXPECT_EQ(urma_get_tp_list(ctx_, &cfg, &cnt, tps), URMA_EINVAL);

    // import on the TP named: this end's handle and the peer's
    urma_target_jetty_t *tx = import_ex(ctx_, t, mine, peer);
    ASSERT_NE(tx, nullptr) << std::strerror(errno);
    urma_token_t tok = {kToken};
    urma_active_tp_cfg_t act = {};
    act.tp_handle = mine;
    act.peer_tp_handle = peer;
    EXPECT_EQ(tx->tp.tpn, mine);
    urma_rjfr_t rjfr = {};
    rjfr.jfr_id = jfr_->jfr_id;
    rjfr.trans_mode = URMA_TM_RM;
    rjfr.flag.bs.token_policy = URMA_TOKEN_PLAIN_TEXT;
    urma_target_jetty_t *tjfr = urma_import_jfr_ex(ctx_, &rjfr, &tok, &act);
    ASSERT_NE(tjfr, nullptr) << std::strerror(errno);
    EXPECT_EQ(find_tp(tp_table(), mine)->users, 3u);
    // the other end's handle is not this import's TP
    errno = 0;
    EXPECT_EQ(import_ex(ctx_, t, peer, mine), nullptr);
    EXPECT_EQ(errno, EINVAL);
    EXPECT_EQ(find_tp(tp_table(), mine)->users, 3u);
    errno = 0;
    EXPECT_EQ(import_ex(ctx_, t, mine, peer, kToken, URMA_TM_RC), nullptr) << "RC: the TP is the bind's";
    EXPECT_EQ(errno, EINVAL);
    EXPECT_EQ(urma_unimport_jetty(tx), URMA_SUCCESS);
    EXPECT_EQ(urma_unimport_jfr(tjfr), URMA_SUCCESS);
    EXPECT_EQ(urma_unimport_jetty(tj), URMA_SUCCESS);
    EXPECT_TRUE(tp_table_empty()) << describe(tp_table());

    // bind on the RC TP the other end's bind made: a binds b, then b binds
    // a on that TP (its end here: the target's), and both ends are reused
    urma_jetty_t *a = jetty(URMA_TM_RC);
    urma_jetty_t *b = jetty(URMA_TM_RC);
    urma_jetty_t *c = jetty(URMA_TM_RC);
    ASSERT_TRUE(a && b && c);
    urma_target_jetty_t *ta = import(a, URMA_TM_RC);
    urma_target_jetty_t *tb = import(b, URMA_TM_RC);
    urma_target_jetty_t *tb2 = import(b, URMA_TM_RC);
    ASSERT_TRUE(ta && tb && tb2) << std::strerror(errno);
    ASSERT_EQ(urma_bind_jetty(a, tb), URMA_SUCCESS);
    // the target's end is established when the CONN_ACK arrives
    EXPECT_TRUE(ub_itest::wait_for([] {
        auto t = tp_table();
        return t.size() == 2 && (t[0].state == "Target established" || t[1].state == "Target established");
    }, 3000)) << describe(tp_table());
    rows = tp_table();
    ASSERT_EQ(rows.size(), 2u) << describe(rows);
    uint32_t target_end = 0, init_end = 0;
    for (const auto &r : rows)
        (r.state == "Target established" ? target_end : init_end) = r.tpn;
    ASSERT_TRUE(target_end && init_end) << describe(rows);
    cfg.trans_mode = URMA_TM_RC;
    cnt = 8;
    ASSERT_EQ(urma_get_tp_list(ctx_, &cfg, &cnt, tps), URMA_SUCCESS);
    EXPECT_EQ(cnt, 2u);
    urma_bind_jetty_ex_cfg_t bact = {};
    bact.tp_handle = target_end;
    bact.peer_tp_handle = init_end;
    // c and b are another pair: their TP is not that one
    EXPECT_EQ(urma_bind_jetty_ex(c, tb2, &bact), URMA_EINVAL);
    EXPECT_TRUE(ub_itest::wait_for([] { return tp_table().size() == 2; }, 3000)) << describe(tp_table());
    bact.tp_handle = 0;
    EXPECT_EQ(urma_bind_jetty_ex(b, ta, &bact), URMA_EINVAL);
    bact.tp_handle = target_end;
    ASSERT_EQ(urma_bind_jetty_ex(b, ta, &bact), URMA_SUCCESS);
    rows = tp_table();
    ASSERT_EQ(rows.size(), 2u) << "one TP for the pair, both ways:\n" << describe(rows);
    for (const auto &r : rows) {
        EXPECT_EQ(r.state, "reused");
        EXPECT_EQ(r.users, 1u);
    }
    EXPECT_EQ(urma_unbind_jetty(b), URMA_SUCCESS);
    EXPECT_EQ(urma_unbind_jetty(a), URMA_SUCCESS);
    EXPECT_TRUE(tp_table_empty()) << describe(tp_table());
    EXPECT_EQ(urma_unimport_jetty(ta), URMA_SUCCESS);
    EXPECT_EQ(urma_unimport_jetty(tb), URMA_SUCCESS);
    EXPECT_EQ(urma_unimport_jetty(tb2), URMA_SUCCESS);
}

// Asked for the RM TP of an EID pair that has none, urma_get_tp_list has
// the connection manager open it (UMDK's control plane makes TPs on
// demand; its perftest --tp_aware asks before it imports anything): the
// peer accepts an RM TP alone, the context holds it until it is deleted,
// an import on it (urma_import_jetty_ex) joins it and the peer still
// checks the import's target; asking again opens no other. RC TPs belong
// to a bound jetty pair: none is made. Not one of the device's EIDs as the
// local EID: refused.
TEST_F(CmTest, TpListOpensTheRmTpBeforeAnyImport)
{
    urma_jetty_t *t = jetty(URMA_TM_RM);
    ASSERT_NE(t, nullptr);
    urma_context_t *ctx2 = ub_itest::open_ctx();
    ASSERT_NE(ctx2, nullptr) << std::strerror(errno);
    urma_get_tp_cfg_t cfg = {};
    cfg.trans_mode = URMA_TM_RC;
    cfg.flag.bs.rtp = 1;
    cfg.local_eid = t->jetty_id.eid;
    cfg.peer_eid = t->jetty_id.eid;
    urma_tp_info_t tps[8] = {};
    uint32_t cnt = 8;
    ASSERT_EQ(urma_get_tp_list(ctx2, &cfg, &cnt, tps), URMA_SUCCESS);
    EXPECT_EQ(cnt, 0u) << "RC: no bound pair, no TP";
    EXPECT_TRUE(tp_table().empty()) << describe(tp_table());

    cfg.trans_mode = URMA_TM_RM;
    cnt = 8;
    ASSERT_EQ(urma_get_tp_list(ctx2, &cfg, &cnt, tps), URMA_SUCCESS);
    ASSERT_EQ(cnt, 2u) << "both ends of the TP to udma0's own EID\n" << describe(tp_table());
    auto rows = tp_table();
    ASSERT_EQ(rows.size(), 2u) << describe(rows);
    const uint32_t lo = static_cast<uint32_t>(tps[0].tp_handle);
    const uint32_t hi = static_cast<uint32_t>(tps[1].tp_handle);
    const TpRow *a = find_tp(rows, lo), *b = find_tp(rows, hi);
    ASSERT_TRUE(a && b) << describe(rows);
    EXPECT_EQ(a->peer_tpn, hi);
    EXPECT_EQ(a->users + b->users, 1u) << "the context's hold, at the opening end\n" << describe(rows);
    const uint32_t mine = a->users ? lo : hi, peer = a->users ? hi : lo;
    EXPECT_TRUE(target_established(peer)) << describe(tp_table());
    cnt = 8;
    ASSERT_EQ(urma_get_tp_list(ctx2, &cfg, &cnt, tps), URMA_SUCCESS);
    EXPECT_EQ(cnt, 2u);
    EXPECT_EQ(tp_table().size(), 2u) << "no second TP\n" << describe(tp_table());

    // an import names the TP; the peer checks its target all the same
    urma_target_jetty_t *tj = import_ex(ctx2, t, mine, peer);
    ASSERT_NE(tj, nullptr) << std::strerror(errno);
    EXPECT_EQ(tj->tp.tpn, mine);
    EXPECT_EQ(find_tp(tp_table(), mine)->users, 2u) << describe(tp_table());
    errno = 0;
    EXPECT_EQ(import_ex(ctx2, t, mine, peer, kToken + 1), nullptr) << "wrong token";
    EXPECT_EQ(errno, URMA_ENOPERM);
    // two processes on udma0 that list this loop TP with room for one get
    // the same end, and each names it as the peer's too (UMDK's perftest
    // --tp_aware on one device)
    urma_target_jetty_t *tj2 = import_ex(ctx2, t, mine, mine);
    ASSERT_NE(tj2, nullptr) << std::strerror(errno);
    EXPECT_EQ(urma_unimport_jetty(tj2), URMA_SUCCESS);
    errno = 0;
    EXPECT_EQ(import_ex(ctx2, t, peer, peer), nullptr) << "not the end an import uses";
    EXPECT_EQ(errno, EINVAL);
    EXPECT_EQ(urma_unimport_jetty(tj), URMA_SUCCESS);
    rows = tp_table();
    ASSERT_NE(find_tp(rows, mine), nullptr) << "the hold keeps it\n" << describe(rows);
    EXPECT_EQ(find_tp(rows, mine)->users, 1u);

    urma_eid_t other = {};
    other.raw[15] = 0x77;
    cfg.local_eid = other;
    cnt = 8;
    EXPECT_NE(urma_get_tp_list(ctx2, &cfg, &cnt, tps), URMA_SUCCESS) << "not udma0's EID";
    EXPECT_EQ(urma_delete_context(ctx2), URMA_SUCCESS);
    EXPECT_TRUE(tp_table_empty()) << "the context's hold went with it\n" << describe(tp_table());
}

// A udma module parameter, as a number.
unsigned udma_param(const std::string &name)
{
    std::ifstream f("/sys/module/udma/parameters/" + name);
    unsigned v = 0;
    f >> v;
    return v;
}

// urma_get_tp_attr / urma_set_tp_attr on a TP of urma_get_tp_list
// (docs/connection-manager.md, "TP attributes"): of UMDK's bitmap a TP has
// retry_times_init, at (udma's defaults: uboe_retry_cnt, and the smallest
// at whose 4.096 us << at covers uboe_rto_ms), SIP and DIP (its EIDs); the
// first two can be set, all or nothing, by the only context that uses the
// TP. Refused: a handle that names no TP (URMA_EINVAL), a TP this context
// does not use or shares with another (URMA_ENOPERM), any other bit or a
// count that is not the bitmap's (URMA_EINVAL).
TEST_F(CmTest, TpAttrReadSetAndRefused)
{
    urma_jetty_t *t = jetty(URMA_TM_RM);
    ASSERT_NE(t, nullptr);
    urma_target_jetty_t *tj = import(t, URMA_TM_RM);
    ASSERT_NE(tj, nullptr) << std::strerror(errno);
    const uint32_t mine = tj->tp.tpn;
    ASSERT_NE(find_tp(tp_table(), mine), nullptr) << describe(tp_table());
    const uint32_t peer = find_tp(tp_table(), mine)->peer_tpn;
    EXPECT_TRUE(target_established(peer)) << describe(tp_table());

    urma_tp_attr_value_t v = {};
    uint8_t cnt = 0;
    uint32_t bits = 0;
    ASSERT_EQ(urma_get_tp_attr(ctx_, mine, &cnt, &bits, &v), URMA_SUCCESS);
    EXPECT_EQ(bits, 0xfu) << "retry_times_init, at, SIP, DIP";
    EXPECT_EQ(cnt, 4u);
    EXPECT_EQ(v.retry_times_init, std::min(udma_param("uboe_retry_cnt"), 7u));
    unsigned at = 0;
    while ((4096ull << at) < udma_param("uboe_rto_ms") * 1000000ull)
        at++;
    EXPECT_EQ(v.at, at);
    EXPECT_EQ(std::memcmp(v.sip, t->jetty_id.eid.raw, sizeof(v.sip)), 0);
    EXPECT_EQ(std::memcmp(v.dip, t->jetty_id.eid.raw, sizeof(v.dip)), 0) << "a TP to udma0's own EID";

    urma_tp_attr_value_t set = {};
    set.retry_times_init = 2;
    set.at = 12;
    ASSERT_EQ(urma_set_tp_attr(ctx_, mine, 2, 0x3, &set), URMA_SUCCESS);
    ASSERT_EQ(urma_get_tp_attr(ctx_, mine, &cnt, &bits, &v), URMA_SUCCESS);
    EXPECT_EQ(v.retry_times_init, 2u);
    EXPECT_EQ(v.at, 12u);
    set.retry_times_init = 5;
    ASSERT_EQ(urma_set_tp_attr(ctx_, mine, 1, 0x1, &set), URMA_SUCCESS) << "one bit, the other stays";
    ASSERT_EQ(urma_get_tp_attr(ctx_, mine, &cnt, &bits, &v), URMA_SUCCESS);
    EXPECT_EQ(v.retry_times_init, 5u);
    EXPECT_EQ(v.at, 12u);

    // a handle that names no TP
    EXPECT_EQ(urma_get_tp_attr(ctx_, 0, &cnt, &bits, &v), URMA_EINVAL);
    EXPECT_EQ(urma_get_tp_attr(ctx_, 1ull << 40, &cnt, &bits, &v), URMA_EINVAL);
    EXPECT_EQ(urma_set_tp_attr(ctx_, std::max(mine, peer) + 1000, 1, 0x1, &set), URMA_EINVAL);
    // the target's end: no import of this context uses it
    ub_itest::log_clear();
    EXPECT_EQ(urma_get_tp_attr(ctx_, peer, &cnt, &bits, &v), URMA_ENOPERM);
    EXPECT_TRUE(logged("not used by this context")) << "no reason logged";
    EXPECT_EQ(urma_set_tp_attr(ctx_, peer, 1, 0x1, &set), URMA_ENOPERM);
    // bits a TP here does not have, or cannot set; a count not the bitmap's
    set.retry_times_init = 1;
    ub_itest::log_clear();
    EXPECT_EQ(urma_set_tp_attr(ctx_, mine, 2, 0x1 | 0x10, &set), URMA_EINVAL) << "SMA";
    EXPECT_TRUE(logged("cannot be set")) << "no reason logged";
    EXPECT_EQ(urma_set_tp_attr(ctx_, mine, 2, 0x1 | 0x4, &set), URMA_EINVAL) << "SIP: its EID";
    EXPECT_EQ(urma_set_tp_attr(ctx_, mine, 2, 0x1 | (1u << 15), &set), URMA_EINVAL) << "spray_en";
    EXPECT_EQ(urma_set_tp_attr(ctx_, mine, 0, 0, &set), URMA_EINVAL) << "nothing to set";
    EXPECT_EQ(urma_set_tp_attr(ctx_, mine, 2, 0x1, &set), URMA_EINVAL) << "count";
    ASSERT_EQ(urma_get_tp_attr(ctx_, mine, &cnt, &bits, &v), URMA_SUCCESS);
    EXPECT_EQ(v.retry_times_init, 5u) << "a refused set changed nothing";
    EXPECT_EQ(v.at, 12u);

    // Another context's import of the same EID pair shares the RM TP: both
    // read it, neither sets it, until the other one leaves.
    urma_context_t *ctx2 = ub_itest::open_ctx();
    ASSERT_NE(ctx2, nullptr) << std::strerror(errno);
    urma_target_jetty_t *tj2 = import(ctx2, t->jetty_id, URMA_TM_RM);
    ASSERT_NE(tj2, nullptr) << std::strerror(errno);
    EXPECT_EQ(tj2->tp.tpn, mine);
    EXPECT_EQ(urma_get_tp_attr(ctx2, mine, &cnt, &bits, &v), URMA_SUCCESS);
    EXPECT_EQ(v.retry_times_init, 5u);
    EXPECT_EQ(urma_set_tp_attr(ctx2, mine, 1, 0x1, &set), URMA_ENOPERM);
    EXPECT_EQ(urma_set_tp_attr(ctx_, mine, 1, 0x1, &set), URMA_ENOPERM);
    EXPECT_EQ(urma_unimport_jetty(tj2), URMA_SUCCESS);
    EXPECT_EQ(urma_get_tp_attr(ctx2, mine, &cnt, &bits, &v), URMA_ENOPERM);
    EXPECT_EQ(urma_delete_context(ctx2), URMA_SUCCESS);
    EXPECT_EQ(urma_set_tp_attr(ctx_, mine, 1, 0x1, &set), URMA_SUCCESS);

    // A TP opened again starts with the defaults.
    EXPECT_EQ(urma_unimport_jetty(tj), URMA_SUCCESS);
    EXPECT_TRUE(tp_table_empty()) << describe(tp_table());
    tj = import(t, URMA_TM_RM);
    ASSERT_NE(tj, nullptr) << std::strerror(errno);
    ASSERT_EQ(urma_get_tp_attr(ctx_, tj->tp.tpn, &cnt, &bits, &v), URMA_SUCCESS);
    EXPECT_EQ(v.retry_times_init, std::min(udma_param("uboe_retry_cnt"), 7u));
    EXPECT_EQ(v.at, at);
    EXPECT_EQ(urma_unimport_jetty(tj), URMA_SUCCESS);
}

// urma_get_tpn: an RC jetty's TP is made at bind (not at create, as UMDK's
// user TP), so the jetty has a TPN while it is bound: its TP's at this end,
// the one urma_get_tp_list lists. urma_modify_tp on it does what is left
// of UMDK's user-TP set-up: it checks that the TP is what the call says
// (mode, peer TPN, ACTIVE) and applies cfg's retry_num and ack_timeout;
// whatever else it names is refused with URMA_EINVAL (UMDK's status where
// its udma has no modify_tp).
TEST_F(CmTest, GetTpnAndModifyTpOfABoundRcJetty)
{
    urma_jetty_t *a = jetty(URMA_TM_RC);
    urma_jetty_t *b = jetty(URMA_TM_RC);
    urma_jetty_t *m = jetty(URMA_TM_RM);
    ASSERT_TRUE(a && b && m);
    ub_itest::log_clear();
    EXPECT_EQ(urma_get_tpn(a), -URMA_EINVAL) << "not bound: no TP";
    EXPECT_TRUE(logged("no TP of its own")) << "no reason logged";
    EXPECT_EQ(urma_get_tpn(m), -URMA_EINVAL) << "RM: the EID pair's TP, not the jetty's";
    EXPECT_EQ(urma_get_tpn(nullptr), -URMA_EINVAL);
    urma_target_jetty_t *tb = import(b, URMA_TM_RC);
    ASSERT_NE(tb, nullptr) << std::strerror(errno);
    ASSERT_EQ(urma_bind_jetty(a, tb), URMA_SUCCESS);
    const int tpn = urma_get_tpn(a);
    ASSERT_GT(tpn, 0);
    auto rows = tp_table();
    const TpRow *r = find_tp(rows, static_cast<uint32_t>(tpn));
    ASSERT_NE(r, nullptr) << tpn << " in\n" << describe(rows);
    EXPECT_EQ(r->mode, "RC");
    EXPECT_EQ(r->state, "Initiator established");
    const uint32_t peer = r->peer_tpn;
    urma_get_tp_cfg_t lc = {};
    lc.trans_mode = URMA_TM_RC;
    lc.local_eid = a->jetty_id.eid;
    lc.peer_eid = b->jetty_id.eid;
    urma_tp_info_t tps[4] = {};
    uint32_t n = 4;
    ASSERT_EQ(urma_get_tp_list(ctx_, &lc, &n, tps), URMA_SUCCESS);
    EXPECT_TRUE(std::any_of(tps, tps + n, [tpn](const urma_tp_info_t &i) {
        return i.tp_handle == static_cast<uint64_t>(tpn);
    }));

    urma_tp_cfg_t cfg = {};
    cfg.trans_mode = URMA_TM_RC;
    cfg.retry_num = 3;
    cfg.ack_timeout = 10;
    urma_tp_attr_t attr = {};
    attr.peer_tpn = peer;
    attr.state = URMA_TP_STATE_ACTIVE;
    urma_tp_attr_mask_t mask = {};
    mask.bs.peer_tpn = 1;
    mask.bs.state = 1;
    ASSERT_EQ(urma_modify_tp(ctx_, tpn, &cfg, &attr, mask), URMA_SUCCESS);
    urma_tp_attr_value_t v = {};
    uint8_t cnt = 0;
    uint32_t bits = 0;
    ASSERT_EQ(urma_get_tp_attr(ctx_, tpn, &cnt, &bits, &v), URMA_SUCCESS);
    EXPECT_EQ(v.retry_times_init, 3u);
    EXPECT_EQ(v.at, 10u);

    // what it cannot honour, each refused and nothing changed
    cfg.retry_num = 6;
    auto refused = [&](const char *what) {
        ub_itest::log_clear();
        EXPECT_EQ(urma_modify_tp(ctx_, tpn, &cfg, &attr, mask), URMA_EINVAL) << what;
        EXPECT_TRUE(logged("not supported")) << what << ": no reason logged";
    };
    mask.bs.tx_psn = 1;
    refused("a PSN");
    mask.bs.tx_psn = 0;
    mask.value = 0xffffffff;
    refused("every bit, as urma_perftest's user-TP mode");
    mask.value = 0;
    mask.bs.peer_tpn = 1;
    attr.peer_tpn = peer + 1;
    refused("another peer TPN");
    attr.peer_tpn = peer;
    mask.bs.state = 1;
    attr.state = URMA_TP_STATE_ERROR;
    refused("state ERROR");
    attr.state = URMA_TP_STATE_ACTIVE;
    cfg.trans_mode = URMA_TM_RM;
    refused("another mode");
    cfg.trans_mode = URMA_TM_RC;
    cfg.oor_cnt = 64;
    refused("an OOR window");
    cfg.oor_cnt = 0;
    cfg.retry_num = 8;
    refused("9 retries");
    cfg.retry_num = 6;
    ASSERT_EQ(urma_get_tp_attr(ctx_, tpn, &cnt, &bits, &v), URMA_SUCCESS);
    EXPECT_EQ(v.retry_times_init, 3u);
    // the other end of the pair's TP (no bind of this context uses it), no TP
    EXPECT_EQ(urma_modify_tp(ctx_, peer, &cfg, &attr, urma_tp_attr_mask_t{}), URMA_ENOPERM);
    EXPECT_EQ(urma_modify_tp(ctx_, std::max<uint32_t>(tpn, peer) + 1000, &cfg, &attr, urma_tp_attr_mask_t{}),
              URMA_EINVAL);
    EXPECT_EQ(urma_modify_tp(ctx_, tpn, nullptr, &attr, mask), URMA_EINVAL);

    EXPECT_EQ(urma_unbind_jetty(a), URMA_SUCCESS);
    EXPECT_EQ(urma_get_tpn(a), -URMA_EINVAL) << "unbound: its TP went";
    EXPECT_TRUE(tp_table_empty()) << describe(tp_table());
    EXPECT_EQ(urma_modify_tp(ctx_, tpn, &cfg, &attr, mask), URMA_EINVAL) << "a TP that went";
    EXPECT_EQ(urma_unimport_jetty(tb), URMA_SUCCESS);
}

// lo up or down, as "ip link set lo up/down" (its sysfs flags: IFF_UP 0x1).
bool set_lo_up(bool up)
{
    std::ifstream f("/sys/class/net/lo/flags");
    unsigned long flags = 0;
    if (!(f >> std::hex >> flags))
        return false;
    flags = up ? (flags | 0x1) : (flags & ~0x1UL);
    char buf[32];
    std::snprintf(buf, sizeof(buf), "%#lx\n", flags);
    return ub_itest::write_sysfs("/sys/class/net/lo/flags", buf);
}

// udma0's EIDs, as its sysfs eids/ files hold them, sorted.
std::vector<std::string> eids()
{
    std::vector<std::string> out;
    DIR *d = opendir("/sys/class/ubcore/udma0/eids");
    if (d == nullptr)
        return out;
    while (dirent *e = readdir(d)) {
        if (e->d_name[0] == '.')
            continue;
        std::ifstream f(std::string("/sys/class/ubcore/udma0/eids/") + e->d_name);
        std::string v;
        f >> v;
        out.push_back(v);
    }
    closedir(d);
    std::sort(out.begin(), out.end());
    return out;
}

// Peer loss (docs/connection-manager.md): udma0's port leaves ACTIVE (lo
// down), the TP of an RM import loses its peer, and the import's owner gets
// URMA_EVENT_TP_ERR naming it (ours; UMDK's kernel has UBCORE_EVENT_TP_ERR),
// once. Last of the suite: it takes lo down and up again.
TEST_F(CmTest, RmImportIsToldWhenItsTpLosesItsPeer)
{
    urma_jetty_t *j = jetty(URMA_TM_RM);
    ASSERT_NE(j, nullptr);
    urma_target_jetty_t *t = import(j, URMA_TM_RM);
    ASSERT_NE(t, nullptr) << std::strerror(errno);
    ASSERT_EQ(tp_table().size(), 2u) << describe(tp_table());  // its two ends
    const std::vector<std::string> eids_before = eids();

    ASSERT_TRUE(set_lo_up(false));
    int tp_err = 0;
    const urma_target_jetty_t *named = nullptr;
    // The port's events come too; read until 1 s after the TP_ERR (a
    // second one would show), at most 10 s.
    auto end = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (std::chrono::steady_clock::now() < end) {
        pollfd p = {ctx_->async_fd, POLLIN, 0};
        urma_async_event_t ev;
        if (poll(&p, 1, 200) != 1 || urma_get_async_event(ctx_, &ev) != URMA_SUCCESS)
            continue;
        if (ev.event_type == URMA_EVENT_TP_ERR) {
            tp_err++;
            named = ev.element.tjetty;
            end = std::min(end, std::chrono::steady_clock::now() + std::chrono::seconds(1));
        }
        urma_ack_async_event(&ev);
    }
    EXPECT_EQ(tp_err, 1);
    EXPECT_EQ(named, t);
    EXPECT_TRUE(tp_table_empty()) << describe(tp_table());

    ASSERT_TRUE(set_lo_up(true));
    // lo's addresses (::1 comes back with it) are udma0's EIDs again
    EXPECT_TRUE(ub_itest::wait_for([&] { return eids() == eids_before; }, 10000));
    EXPECT_EQ(urma_unimport_jetty(t), URMA_SUCCESS);
}

}  // namespace
