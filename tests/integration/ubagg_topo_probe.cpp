// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The UB/URMA stack authors
// ubagg_topo_probe: ubagg.ko's ABI from a program, for
// tests/guest/cases/ubagg-topo.sh (not a suite of its own: the case sets
// the topology, then runs this).
//
//   ubagg_topo_probe check NODE_NUM MAX_NODES
//   ubagg_topo_probe ping DEV DST_EID COUNT
//   ubagg_topo_probe leave DEV DST_EID COUNT
//   ubagg_topo_probe bond DEV MODE ENABLED_COUNT ACTIVE_COUNT PEER_EID
//
// With a topology of NODE_NUM nodes set in its namespace and ubagg.ko
// loaded with max_nodes=MAX_NODES, as root: GET_TOPO of every node over
// "UBAGG_GENL" (UMDK's user-pointer ABI) agrees with /dev/ubagg's
// GET_TOPO_INFO; the refusals (node index out of range, no attribute,
// addresses the kernel cannot read or write, header and argument sizes,
// node counts, unknown and unbuilt commands) give their errno; then,
// without privileges (nobody, no capability) on a descriptor root opened,
// SET is refused with EPERM while GET_TOPO still answers; and the topology
// is the same at the end.
//
// ping: what UMDK's urma_ping does, through liburma, on device DEV (EID
// index 0): COUNT SEND_IMMs of 64 bytes (RM, token 0) to jetty 5 of
// DST_EID, each answered by a SEND_IMM with the same immediate data and
// payload within 5 s. leave: COUNT such requests, then the process
// leaves without waiting: the answers go to a jetty that is gone.
//
// bond: on bonding device DEV, liburma's view of it (its mode, the
// enabled and active member counts of QUERY_PORT) and the refusal of a
// SEND_IMM to PEER_EID whose immediate data uses the bonding bits.
//
// Prints each check; exit status 0 when all pass.
#include <fcntl.h>
#include <grp.h>
#include <netlink/attr.h>
#include <netlink/genl/ctrl.h>
#include <netlink/genl/genl.h>
#include <netlink/msg.h>
#include <netlink/socket.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <unistd.h>
#include <ub/ubagg_topo.h>
#include <urma_api.h>
#include <urma_ubagg.h>

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace {

int failures;

void check(bool ok, const std::string &what)
{
    std::printf("%s: %s\n", ok ? "ok" : "FAIL", what.c_str());
    if (!ok)
        failures++;
}

void check_err(int got, int want, const std::string &what)
{
    check(got == want, what + ": " + std::strerror(want) + (got == want ? "" : std::string(" (got ") +
                                                                                    std::strerror(got) + ")"));
}

struct SockFree {
    void operator()(nl_sock *s) const { nl_socket_free(s); }
};

// A "UBAGG_GENL" socket; GET_TOPO's answer is its ACK.
class Genl {
public:
    bool open()
    {
        sk_.reset(nl_socket_alloc());
        if (!sk_ || genl_connect(sk_.get()) < 0)
            return false;
        family_ = genl_ctrl_resolve(sk_.get(), UBAGG_GENL_FAMILY_NAME);
        return family_ >= 0;
    }

    // GET_TOPO with @addr as the attribute (none when empty); 0 or an errno.
    int get_topo(std::optional<uint64_t> addr)
    {
        std::unique_ptr<nl_msg, void (*)(nl_msg *)> m(nlmsg_alloc(), nlmsg_free);
        if (!m || !genlmsg_put(m.get(), NL_AUTO_PORT, NL_AUTO_SEQ, family_, 0, 0, UBAGG_NL_GET_TOPO,
                               UBAGG_GENL_FAMILY_VERSION))
            return ENOMEM;
        if (addr && nla_put_u64(m.get(), UBAGG_HDR_ARGS_ADDR, *addr) < 0)
            return ENOMEM;
        if (nl_send_auto(sk_.get(), m.get()) < 0)
            return EIO;
        // the kernel's errno as it is (libnl would map it to its own codes)
        struct Ctx {
            int err = 0;
            bool done = false;
        } ctx;
        std::unique_ptr<nl_cb, void (*)(nl_cb *)> cb(nl_cb_clone(nl_socket_get_cb(sk_.get())), nl_cb_put);
        if (!cb)
            return ENOMEM;
        nl_cb_err(
            cb.get(), NL_CB_CUSTOM,
            [](sockaddr_nl *, nlmsgerr *e, void *a) {
                auto *c = static_cast<Ctx *>(a);
                c->err = -e->error;
                c->done = true;
                return static_cast<int>(NL_STOP);
            },
            &ctx);
        nl_cb_set(
            cb.get(), NL_CB_ACK, NL_CB_CUSTOM,
            [](nl_msg *, void *a) {
                static_cast<Ctx *>(a)->done = true;
                return static_cast<int>(NL_STOP);
            },
            &ctx);
        while (!ctx.done)
            if (nl_recvmsgs(sk_.get(), cb.get()) < 0 && !ctx.done)
                return EIO;
        return ctx.err;
    }

private:
    std::unique_ptr<nl_sock, SockFree> sk_;
    int family_ = -1;
};

// GET_TOPO of node @idx into a fresh argument; the errno.
int get_node(Genl &g, int32_t idx, ubagg_nl_topo_info *arg)
{
    std::memset(arg, 0, sizeof(*arg));
    arg->in.node_idx = idx;
    return g.get_topo(reinterpret_cast<uintptr_t>(arg));
}

int ubagg_ioctl(int fd, uint32_t command, uint32_t args_len, const void *arg)
{
    ubagg_cmd_hdr hdr{command, args_len, reinterpret_cast<uintptr_t>(arg)};
    return ioctl(fd, UBAGG_CMD, &hdr) ? errno : 0;
}

int set_topo(int fd, const void *nodes, uint32_t num)
{
    ubagg_set_topo_arg arg{};
    arg.topo = reinterpret_cast<uintptr_t>(nodes);
    arg.topo_num = num;
    return ubagg_ioctl(fd, UBAGG_CMD_SET_TOPO_INFO, sizeof(arg), &arg);
}

void check_netlink(Genl &g, uint32_t node_num, const std::vector<ubagg_topo_node> &whole)
{
    auto arg = std::make_unique<ubagg_nl_topo_info>();
    for (uint32_t i = 0; i < node_num; i++) {
        int err = get_node(g, static_cast<int32_t>(i), arg.get());
        check(err == 0 && arg->out.node_num == node_num &&
                  !std::memcmp(&arg->out.topo_info, &whole[i], sizeof(whole[i])),
              "GET_TOPO node " + std::to_string(i) + " is GET_TOPO_INFO's");
    }
    check_err(get_node(g, static_cast<int32_t>(node_num), arg.get()), EINVAL, "GET_TOPO past the last node");
    check_err(get_node(g, -1, arg.get()), EINVAL, "GET_TOPO node -1");
    check_err(g.get_topo(std::nullopt), EINVAL, "GET_TOPO without the address");
    check_err(g.get_topo(8), EFAULT, "GET_TOPO to address 8");
    // readable, not writable: the index is read, the answer cannot be written
    void *ro = mmap(nullptr, sizeof(ubagg_nl_topo_info), PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    check(ro != MAP_FAILED, "a read-only mapping");
    if (ro != MAP_FAILED) {
        check_err(g.get_topo(reinterpret_cast<uintptr_t>(ro)), EFAULT, "GET_TOPO into read-only memory");
        munmap(ro, sizeof(ubagg_nl_topo_info));
    }
}

void check_ioctl_refusals(int fd, uint32_t max_nodes, const std::vector<ubagg_topo_node> &whole)
{
    ubagg_set_topo_arg arg{};
    ubagg_cmd_hdr hdr{UBAGG_CMD_GET_TOPO_INFO, sizeof(arg), reinterpret_cast<uintptr_t>(&arg)};
    check_err(ioctl(fd, _IOWR(UBAGG_CMD_MAGIC, 2, ubagg_cmd_hdr), &hdr) ? errno : 0, ENOTTY, "another ioctl");
    check_err(ioctl(fd, UBAGG_CMD, 8) ? errno : 0, EFAULT, "a header at address 8");
    check_err(ubagg_ioctl(fd, UBAGG_CMD_SET_TOPO_INFO, sizeof(arg) - 1, &arg), EINVAL, "SET with a short argument");
    check_err(ubagg_ioctl(fd, UBAGG_CMD_SET_TOPO_INFO, sizeof(arg) + 8, &arg), EINVAL, "SET with a long argument");
    check_err(ubagg_ioctl(fd, UBAGG_CMD_GET_TOPO_INFO, 4, &arg), EINVAL, "GET_TOPO_INFO with a short argument");
    check_err(ubagg_ioctl(fd, UBAGG_CMD_SET_TOPO_INFO, sizeof(arg), reinterpret_cast<void *>(8)), EFAULT,
              "SET with its argument at address 8");
    check_err(ubagg_ioctl(fd, 99, sizeof(arg), &arg), EINVAL, "command 99");
    check_err(ubagg_ioctl(fd, UBAGG_CMD_CREATE_DEV, sizeof(arg), &arg), EINVAL, "CREATE_DEV of a wrong size");
    check_err(set_topo(fd, whole.data(), UBAGG_MAX_NODE_NUM + 1), EINVAL, "SET of 1025 nodes");
    check_err(set_topo(fd, whole.data(), UINT32_MAX), EINVAL, "SET of 2^32-1 nodes");
    if (max_nodes < UBAGG_MAX_NODE_NUM)
        check_err(set_topo(fd, whole.data(), max_nodes + 1), E2BIG, "SET of max_nodes + 1 nodes");
    check_err(set_topo(fd, reinterpret_cast<void *>(8), 1), EFAULT, "SET of nodes at address 8");
    // nodes that end in an unmapped page: the copy faults, nothing changes
    long page = sysconf(_SC_PAGESIZE);
    size_t len = (sizeof(ubagg_topo_node) / page + 2) * page;
    auto *p = static_cast<char *>(mmap(nullptr, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0));
    if (p != MAP_FAILED) {
        munmap(p + len - page, page);
        check_err(set_topo(fd, p + len - page - sizeof(ubagg_topo_node) + 16, 1), EFAULT,
                  "SET of a node that runs into an unmapped page");
        munmap(p, len - page);
    }
}

// Drop to nobody with no capability (root opened @fd before).
bool drop_privileges()
{
    return setgroups(0, nullptr) == 0 && setresgid(65534, 65534, 65534) == 0 && setresuid(65534, 65534, 65534) == 0;
}

std::vector<ubagg_topo_node> get_whole(int fd, uint32_t *num)
{
    std::vector<ubagg_topo_node> nodes(UBAGG_MAX_NODE_NUM);
    ubagg_get_topo_arg arg{};
    arg.topo = reinterpret_cast<uintptr_t>(nodes.data());
    int err = ubagg_ioctl(fd, UBAGG_CMD_GET_TOPO_INFO, sizeof(arg), &arg);
    check(err == 0, "GET_TOPO_INFO");
    *num = err ? 0 : arg.topo_num;
    nodes.resize(*num);
    return nodes;
}

int run_check(uint32_t node_num, uint32_t max_nodes)
{
    int fd = open("/dev/ubagg", O_RDWR | O_CLOEXEC);
    check(fd >= 0, "open /dev/ubagg as root");
    if (fd < 0)
        return 1;
    uint32_t got = 0;
    std::vector<ubagg_topo_node> whole = get_whole(fd, &got);
    check(got == node_num, "GET_TOPO_INFO gives " + std::to_string(node_num) + " nodes (got " +
                               std::to_string(got) + ")");
    Genl g;
    check(g.open(), "resolve UBAGG_GENL");
    if (got != node_num || !failures) {
        check_netlink(g, got, whole);
        check_ioctl_refusals(fd, max_nodes, whole);
    }
    check(drop_privileges(), "drop to nobody");
    check_err(set_topo(fd, whole.data(), got), EPERM, "SET without CAP_NET_ADMIN");
    check_err(set_topo(fd, nullptr, 0), EPERM, "clearing without CAP_NET_ADMIN");
    Genl g2;
    check(g2.open(), "resolve UBAGG_GENL as nobody");
    auto arg = std::make_unique<ubagg_nl_topo_info>();
    check(get_node(g2, 0, arg.get()) == 0 && arg->out.node_num == node_num &&
              !std::memcmp(&arg->out.topo_info, &whole[0], sizeof(whole[0])),
          "GET_TOPO as nobody: node 0, unchanged");
    close(fd);
    std::printf("%d failed\n", failures);
    return failures ? 1 : 0;
}

// A SEND_IMM of one SGE to @tjetty, with a completion.
urma_jfs_wr_t send_imm_wr(urma_target_jetty_t *tjetty, urma_sge_t *sge, uint64_t imm)
{
    urma_jfs_wr_t wr{};
    wr.opcode = URMA_OPC_SEND_IMM;
    wr.flag.bs.complete_enable = 1;
    wr.tjetty = tjetty;
    wr.send.src.sge = sge;
    wr.send.src.num_sge = 1;
    wr.send.imm_data = imm;
    return wr;
}

// liburma's objects of one ping run, deleted in reverse order.
class PingRes {
public:
    ~PingRes()
    {
        if (tjetty)
            urma_unimport_jetty(tjetty);
        if (jetty)
            urma_delete_jetty(jetty);
        if (jfr)
            urma_delete_jfr(jfr);
        if (recv_jfc)
            urma_delete_jfc(recv_jfc);
        if (jfce)
            urma_delete_jfce(jfce);
        if (send_jfc)
            urma_delete_jfc(send_jfc);
        if (seg)
            urma_unregister_seg(seg);
        if (ctx)
            urma_delete_context(ctx);
    }

    bool create(const char *dev_name, const urma_eid_t &dst)
    {
        urma_device_t *dev = urma_get_device_by_name(const_cast<char *>(dev_name));
        if (!dev || !(ctx = urma_create_context(dev, 0)))
            return false;
        urma_seg_cfg_t seg_cfg{};
        seg_cfg.va = reinterpret_cast<uintptr_t>(buf.data());
        seg_cfg.len = buf.size();
        seg_cfg.flag.bs.access = URMA_ACCESS_LOCAL_ONLY;
        urma_jfc_cfg_t send_cfg{};
        send_cfg.depth = 16;
        if (!(seg = urma_register_seg(ctx, &seg_cfg)) || !(send_jfc = urma_create_jfc(ctx, &send_cfg)) ||
            !(jfce = urma_create_jfce(ctx)))
            return false;
        urma_jfc_cfg_t recv_cfg{};
        recv_cfg.depth = 16;
        recv_cfg.jfce = jfce;
        if (!(recv_jfc = urma_create_jfc(ctx, &recv_cfg)) || urma_rearm_jfc(recv_jfc, false) != URMA_SUCCESS)
            return false;
        urma_jfr_cfg_t jfr_cfg{};
        jfr_cfg.depth = 16;
        jfr_cfg.trans_mode = URMA_TM_RM;
        jfr_cfg.max_sge = 1;
        jfr_cfg.jfc = recv_jfc;
        if (!(jfr = urma_create_jfr(ctx, &jfr_cfg)))
            return false;
        urma_jetty_cfg_t jetty_cfg{};
        jetty_cfg.flag.bs.share_jfr = 1;
        jetty_cfg.jfs_cfg.depth = 16;
        jetty_cfg.jfs_cfg.trans_mode = URMA_TM_RM;
        jetty_cfg.jfs_cfg.priority = 6;
        jetty_cfg.jfs_cfg.max_sge = 1;
        jetty_cfg.jfs_cfg.rnr_retry = URMA_TYPICAL_RNR_RETRY;
        jetty_cfg.jfs_cfg.err_timeout = URMA_TYPICAL_ERR_TIMEOUT;
        jetty_cfg.jfs_cfg.jfc = send_jfc;
        jetty_cfg.shared.jfr = jfr;
        if (!(jetty = urma_create_jetty(ctx, &jetty_cfg)))
            return false;
        urma_rjetty_t rjetty{};
        rjetty.jetty_id.eid = dst;
        rjetty.jetty_id.id = 5;
        rjetty.trans_mode = URMA_TM_RM;
        rjetty.type = URMA_JETTY;
        rjetty.tp_type = URMA_CTP;
        urma_token_t token{};
        return (tjetty = urma_import_jetty(ctx, &rjetty, &token)) != nullptr;
    }

    // One request, not waiting for the answer; "" or what went wrong.
    std::string send(uint64_t imm)
    {
        for (uint32_t i = 0; i < kMsg; i++)
            buf[i] = static_cast<uint8_t>(imm * 7 + i);
        urma_sge_t sge{reinterpret_cast<uintptr_t>(buf.data()), kMsg, seg, {}};
        urma_jfs_wr_t wr = send_imm_wr(tjetty, &sge, imm);
        urma_jfs_wr_t *bad = nullptr;
        if (urma_post_jetty_send_wr(jetty, &wr, &bad) != URMA_SUCCESS)
            return "post send";
        // delivered (its ACK came) before the caller leaves
        urma_cr_t cr{};
        for (int i = 0; i < 5000; i++) {
            if (urma_poll_jfc(send_jfc, 1, &cr) == 1)
                return cr.status == URMA_CR_SUCCESS ? "" : "send failed (status " + std::to_string(cr.status) + ")";
            usleep(1000);
        }
        return "no send completion within 5 s";
    }

    // One request and its answer; "" or what went wrong.
    std::string ping(uint64_t imm)
    {
        urma_sge_t rsge{reinterpret_cast<uintptr_t>(&buf[kMsg]), kMsg, seg, {}};
        urma_jfr_wr_t rwr{};
        rwr.src.sge = &rsge;
        rwr.src.num_sge = 1;
        urma_jfr_wr_t *rbad = nullptr;
        if (urma_post_jetty_recv_wr(jetty, &rwr, &rbad) != URMA_SUCCESS)
            return "post recv";
        if (std::string why = send(imm); !why.empty())
            return why;
        urma_jfc_t *ev = nullptr;
        if (urma_wait_jfc(jfce, 1, 5000, &ev) != 1)
            return "no answer within 5 s";
        urma_cr_t cr{};
        int n = urma_poll_jfc(recv_jfc, 1, &cr);
        uint32_t ack = 1;
        urma_ack_jfc(&ev, &ack, 1);
        urma_rearm_jfc(recv_jfc, false);
        if (n != 1 || cr.status != URMA_CR_SUCCESS)
            return "answer failed (status " + std::to_string(cr.status) + ")";
        if (cr.imm_data != imm || cr.completion_len != kMsg || std::memcmp(&buf[kMsg], buf.data(), kMsg))
            return "answer differs (imm " + std::to_string(cr.imm_data) + ", " +
                   std::to_string(cr.completion_len) + " bytes)";
        return "";
    }

private:
    static constexpr uint32_t kMsg = 64;
    std::vector<uint8_t> buf = std::vector<uint8_t>(2 * kMsg);
    urma_context_t *ctx = nullptr;
    urma_target_seg_t *seg = nullptr;
    urma_jfc_t *send_jfc = nullptr;
    urma_jfce_t *jfce = nullptr;
    urma_jfc_t *recv_jfc = nullptr;
    urma_jfr_t *jfr = nullptr;
    urma_jetty_t *jetty = nullptr;
    urma_target_jetty_t *tjetty = nullptr;
};

// COUNT requests, answered or not; with @leave no receive buffer is
// posted and the process leaves at once (the answers find no jetty).
int run_ping(const char *dev, const char *dst_text, uint32_t count, bool leave = false)
{
    urma_eid_t dst{};
    urma_init_attr_t init{};
    check(urma_str_to_eid(dst_text, &dst) == 0, std::string("EID ") + dst_text);
    check(urma_init(&init) == URMA_SUCCESS, "urma_init");
    {
        PingRes res;
        bool ok = res.create(dev, dst);
        check(ok, std::string("objects on ") + dev + " and the import of jetty 5 of " + dst_text);
        for (uint32_t i = 1; ok && i <= count; i++) {
            std::string why = leave ? res.send(2000 + i) : res.ping(1000 + i);
            check(why.empty(), "ping " + std::to_string(i) + (why.empty() ? "" : ": " + why));
        }
    }
    urma_uninit();
    std::printf("%d failed\n", failures);
    return failures ? 1 : 0;
}

// The immediate-data limit of a bonding device (user guide 6.2.1): a
// SEND_IMM to a jetty of PEER whose immediate data uses bit 21 or bit 39
// is refused at post (URMA_EINVAL, bad_wr the WR), nothing is sent, while
// one with every other bit set is sent and completes. UM: its
// import opens no connection, so the peer needs no such jetty. That the
// other bits arrive: urma_perftest --enable_imm over the device.
void check_bonding_imm(urma_context_t *ctx, urma_jfc_t *jfc, const urma_eid_t &peer)
{
    urma_jfr_cfg_t jfr_cfg{};
    jfr_cfg.depth = 16;
    jfr_cfg.trans_mode = URMA_TM_UM;
    jfr_cfg.max_sge = 1;
    jfr_cfg.jfc = jfc;
    urma_jfr_t *jfr = urma_create_jfr(ctx, &jfr_cfg);
    urma_jetty_cfg_t cfg{};
    cfg.flag.bs.share_jfr = 1;
    cfg.jfs_cfg.depth = 16;
    cfg.jfs_cfg.trans_mode = URMA_TM_UM;
    cfg.jfs_cfg.max_sge = 1;
    cfg.jfs_cfg.jfc = jfc;
    cfg.shared.jfr = jfr;
    urma_jetty_t *jetty = jfr ? urma_create_jetty(ctx, &cfg) : nullptr;
    urma_rjetty_t rjetty{};
    rjetty.jetty_id.eid = peer;
    rjetty.jetty_id.id = 5;
    rjetty.trans_mode = URMA_TM_UM;
    rjetty.type = URMA_JETTY;
    urma_token_t token{};
    urma_target_jetty_t *tjetty = jetty ? urma_import_jetty(ctx, &rjetty, &token) : nullptr;
    check(tjetty != nullptr, "a UM jetty and the import of a jetty of the peer");
    if (tjetty != nullptr) {
        uint64_t word = 0;
        urma_seg_cfg_t seg_cfg{};
        seg_cfg.va = reinterpret_cast<uintptr_t>(&word);
        seg_cfg.len = sizeof(word);
        seg_cfg.flag.bs.access = URMA_ACCESS_LOCAL_ONLY;
        urma_target_seg_t *seg = urma_register_seg(ctx, &seg_cfg);
        check(seg != nullptr, "a segment");
        urma_sge_t sge{reinterpret_cast<uintptr_t>(&word), sizeof(word), seg, {}};
        urma_jfs_wr_t wr = send_imm_wr(tjetty, &sge, 0);
        urma_jfs_wr_t *bad = nullptr;
        auto post = [&](uint64_t imm) {
            wr.send.imm_data = imm;
            bad = nullptr;
            return seg ? urma_post_jetty_send_wr(jetty, &wr, &bad) : URMA_EINVAL;
        };
        // every usable bit set: sent (a UM datagram completes when sent)
        urma_cr_t cr{};
        check(post(UBAGG_IMM_DATA_USABLE_MASK) == URMA_SUCCESS, "SEND_IMM with every usable bit: posted");
        int n = 0;
        for (int i = 0; i < 500 && n == 0; i++, usleep(10000))
            n = urma_poll_jfc(jfc, 1, &cr);
        check(n == 1 && cr.status == URMA_CR_SUCCESS, "its completion (status " + std::to_string(cr.status) + ")");
        for (unsigned bit : {21u, 39u})
            check(post(UBAGG_IMM_DATA_USABLE_MASK | 1ULL << bit) == URMA_EINVAL && bad == &wr,
                  "SEND_IMM with immediate-data bit " + std::to_string(bit) + ": URMA_EINVAL, bad_wr the WR");
        usleep(100000);
        check(urma_poll_jfc(jfc, 1, &cr) == 0, "no completion: nothing was posted");
        if (seg)
            urma_unregister_seg(seg);
        urma_unimport_jetty(tjetty);
    }
    if (jetty)
        urma_delete_jetty(jetty);
    if (jfr)
        urma_delete_jfr(jfr);
}

// A bonding device through liburma: the context's aggregation mode and
// URMA_OPT_AGGR_MODE, BONDP_USER_CTL_QUERY_PORT on a JFR of it, and the
// immediate-data limit towards PEER (the other side's bonding EID).
int run_bond(const char *dev_name, const char *mode_name, uint32_t enabled, uint32_t active,
             const char *peer_text)
{
    const char *const names[] = {"standalone", "active_backup", "balance"};
    int mode = -1;
    for (int m = 0; m < 3; m++)
        if (std::strcmp(mode_name, names[m]) == 0)
            mode = m;
    check(mode >= 0, std::string("mode ") + mode_name);
    urma_eid_t peer{};
    check(urma_str_to_eid(peer_text, &peer) == 0, std::string("EID ") + peer_text);
    urma_init_attr_t init{};
    check(urma_init(&init) == URMA_SUCCESS, "urma_init");
    urma_device_t *dev = urma_get_device_by_name(const_cast<char *>(dev_name));
    urma_context_t *ctx = dev ? urma_create_context(dev, 0) : nullptr;
    check(ctx != nullptr, std::string("a context on ") + dev_name);
    if (ctx == nullptr) {
        urma_uninit();
        return 1;
    }
    check(ctx->aggr_mode == mode, "the context's aggr_mode is " + std::to_string(ctx->aggr_mode));
    auto m = static_cast<urma_context_aggr_mode_t>(mode);
    check(urma_set_context_opt(ctx, URMA_OPT_AGGR_MODE, &m, sizeof(m)) == URMA_SUCCESS, "set the device's mode");
    auto other = static_cast<urma_context_aggr_mode_t>((mode + 1) % 3);
    check(urma_set_context_opt(ctx, URMA_OPT_AGGR_MODE, &other, sizeof(other)) == URMA_EINVAL,
          "set another mode: URMA_EINVAL");

    urma_jfc_cfg_t jfc_cfg{};
    jfc_cfg.depth = 16;
    urma_jfc_t *jfc = urma_create_jfc(ctx, &jfc_cfg);
    urma_jfr_cfg_t jfr_cfg{};
    jfr_cfg.depth = 16;
    jfr_cfg.trans_mode = URMA_TM_RM;
    jfr_cfg.max_sge = 1;
    jfr_cfg.jfc = jfc;
    urma_jfr_t *jfr = jfc ? urma_create_jfr(ctx, &jfr_cfg) : nullptr;
    check(jfr != nullptr, "a JFC and a JFR");
    bondp_query_port_in_t qin{};
    qin.jfr = jfr;
    bondp_query_port_out_t qout{};
    urma_user_ctl_in_t in{reinterpret_cast<uintptr_t>(&qin), sizeof(qin), BONDP_USER_CTL_QUERY_PORT};
    urma_user_ctl_out_t out{reinterpret_cast<uintptr_t>(&qout), sizeof(qout), 0};
    check(jfr && urma_user_ctl(ctx, &in, &out) == URMA_SUCCESS, "QUERY_PORT");
    std::printf("QUERY_PORT: enabled_count %u active_count %u active", qout.enabled_count, qout.active_count);
    for (uint32_t i = 0; i < qout.active_count && i < URMA_UBAGG_DEV_MAX_NUM; i++)
        std::printf(" %u", qout.active_indices[i]);
    std::printf("\n");
    check(qout.enabled_count == enabled, "enabled_count " + std::to_string(qout.enabled_count));
    check(qout.active_count == active, "active_count " + std::to_string(qout.active_count));
    for (uint32_t i = 0; i < qout.enabled_count && i < URMA_UBAGG_DEV_MAX_NUM; i++)
        check(qout.enabled_indices[i] == i, "enabled index " + std::to_string(i));
    // the refusals: sizes, no object, another command
    urma_user_ctl_out_t small = out;
    small.len = sizeof(qout) - 1;
    check(urma_user_ctl(ctx, &in, &small) == URMA_EINVAL, "QUERY_PORT with a short output: URMA_EINVAL");
    urma_user_ctl_in_t big = in;
    big.len = sizeof(qin) + 1;
    check(urma_user_ctl(ctx, &big, &out) == URMA_EINVAL, "QUERY_PORT with a long input: URMA_EINVAL");
    qin.jfr = nullptr;
    check(urma_user_ctl(ctx, &in, &out) == URMA_EINVAL, "QUERY_PORT of no JFR: URMA_EINVAL");
    urma_user_ctl_in_t seg_cache{0, 0, BONDP_USER_CTL_ENABLE_SEG_CACHE};
    check(urma_user_ctl(ctx, &seg_cache, &out) == URMA_ENOPERM, "ENABLE_SEG_CACHE: URMA_ENOPERM");
    if (jfc)
        check_bonding_imm(ctx, jfc, peer);

    if (jfr)
        urma_delete_jfr(jfr);
    if (jfc)
        urma_delete_jfc(jfc);
    urma_delete_context(ctx);
    urma_uninit();
    std::printf("%d failed\n", failures);
    return failures ? 1 : 0;
}

}  // namespace

int main(int argc, char **argv)
{
    if (argc == 4 && std::strcmp(argv[1], "check") == 0)
        return run_check(static_cast<uint32_t>(std::strtoul(argv[2], nullptr, 10)),
                         static_cast<uint32_t>(std::strtoul(argv[3], nullptr, 10)));
    if (argc == 5 && (std::strcmp(argv[1], "ping") == 0 || std::strcmp(argv[1], "leave") == 0))
        return run_ping(argv[2], argv[3], static_cast<uint32_t>(std::strtoul(argv[4], nullptr, 10)),
                        argv[1][0] == 'l');
    if (argc == 7 && std::strcmp(argv[1], "bond") == 0)
        return run_bond(argv[2], argv[3], static_cast<uint32_t>(std::strtoul(argv[4], nullptr, 10)),
                        static_cast<uint32_t>(std::strtoul(argv[5], nullptr, 10)), argv[6]);
    std::fprintf(stderr,
                 "usage: %s {check NODE_NUM MAX_NODES | {ping|leave} DEV DST_EID COUNT |\n"
                 "       bond DEV MODE ENABLED_COUNT ACTIVE_COUNT PEER_EID}\n",
                 argv[0]);
    return 2;
}
