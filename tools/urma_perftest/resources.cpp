// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The UB/URMA stack authors
#include "resources.h"

#include <sys/random.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace perftest {

namespace {

constexpr uint32_t kAccess = URMA_ACCESS_READ | URMA_ACCESS_WRITE | URMA_ACCESS_ATOMIC;
// Receive slots of a send test share at most this much memory.
constexpr size_t kRxBudget = 64u << 20;

bool fail(std::string *err, const std::string &what)
{
    *err = what + ": " + std::strerror(errno != 0 ? errno : EINVAL);
    return false;
}

bool fail_status(std::string *err, const std::string &what, urma_status_t st)
{
    *err = what + ": " + std::strerror(st > 0 && st < 4096 ? st : EIO);
    return false;
}

urma_transport_mode_t urma_mode(TransMode m)
{
    switch (m) {
    case TransMode::RC: return URMA_TM_RC;
    case TransMode::UM: return URMA_TM_UM;
    default: return URMA_TM_RM;
    }
}

uint32_t random_token()
{
    uint32_t v = 0;
    // A token that a process on this host cannot guess from the command
    // line; any value works when getrandom is unavailable.
    if (getrandom(&v, sizeof(v), 0) != sizeof(v))
        v = static_cast<uint32_t>(getpid()) * 2654435761u;
    return v | 1;
}

}  // namespace

UrmaLib::~UrmaLib()
{
    if (inited_)
        urma_uninit();
}

bool UrmaLib::init(std::string *err)
{
    urma_status_t st = urma_init(nullptr);
    if (st != URMA_SUCCESS)
        return fail_status(err, "urma_init", st);
    inited_ = true;
    return true;
}

Mapping::~Mapping()
{
    if (p_ != nullptr)
        munmap(p_, len_);
}

bool Mapping::map(size_t len, std::string *err)
{
    void *p = mmap(nullptr, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        return fail(err, "mmap of " + std::to_string(len) + " bytes");
    p_ = p;
    len_ = len;
    return true;
}

bool Resources::eid_index_of(urma_device_t *dev, const std::array<uint8_t, 16> &eid, uint32_t *idx)
{
    uint32_t cnt = 0;
    std::unique_ptr<urma_eid_info_t, void (*)(urma_eid_info_t *)> list(urma_get_eid_list(dev, &cnt),
                                                                         urma_free_eid_list);
    for (uint32_t i = 0; list != nullptr && i < cnt; i++)
        if (std::memcmp(list.get()[i].eid.raw, eid.data(), eid.size()) == 0) {
            *idx = list.get()[i].eid_index;
            return true;
        }
    return false;
}

bool Resources::create(const Config &cfg, std::string *err)
{
    cfg_ = cfg;
    token_ = random_token();
    jfr_token_ = random_token();
    if (!lib_.init(err))
        return false;
    char name[URMA_MAX_NAME];
    std::snprintf(name, sizeof(name), "%s", cfg.dev.c_str());
    urma_device_t *dev = urma_get_device_by_name(name);
    if (dev == nullptr) {
        *err = "device " + cfg.dev + ": not found (is the stack loaded and the device bound?)";
        return false;
    }
    urma_device_attr_t attr = {};
    urma_status_t st = urma_query_device(dev, &attr);
    if (st != URMA_SUCCESS)
        return fail_status(err, "query device " + cfg.dev, st);
    const urma_device_cap_t &cap = attr.dev_cap;
    if (cfg.jfc_inline && !cap.feature.bs.jfc_inline) {
        *err = "-c: device " + cfg.dev + " does not support jfc_inline";
        return false;
    }
    if (cfg.inline_size > cap.max_jfs_inline_len) {
        *err = "-I " + std::to_string(cfg.inline_size) + ": device " + cfg.dev + " inlines at most " +
               std::to_string(cap.max_jfs_inline_len) + " bytes";
        return false;
    }
    if (cfg.sge_num > cap.max_jfs_sge || cfg.sge_num > cap.max_jfr_sge) {
        *err = "--sge_num " + std::to_string(cfg.sge_num) + ": device " + cfg.dev + " takes at most " +
               std::to_string(std::min(cap.max_jfs_sge, cap.max_jfr_sge)) + " SGEs";
        return false;
    }
    if (cfg.jfs_depth > cap.max_jfs_depth || cfg.jfr_depth > cap.max_jfr_depth || cfg.jfc_depth > cap.max_jfc_depth) {
        *err = "-T/-R/-C: device " + cfg.dev + " allows depths of at most " + std::to_string(cap.max_jfs_depth) +
               "/" + std::to_string(cap.max_jfr_depth) + "/" + std::to_string(cap.max_jfc_depth);
        return false;
    }
    if (cfg.jettys > cap.max_jetty || cfg.jettys > cap.max_jfs) {
        *err = "-J " + std::to_string(cfg.jettys) + ": device " + cfg.dev + " has at most " +
               std::to_string(std::min(cap.max_jetty, cap.max_jfs)) + " jetties";
        return false;
    }
    uint32_t eid_idx = cfg.eid_idx;
    if (cfg.uboe && !eid_index_of(dev, cfg.sip_eid, &eid_idx)) {
        *err = "--sip " + cfg.sip + ": device " + cfg.dev +
               " has no such EID (is it bound to the netdev that has this address?)";
        return false;
    }
    errno = 0;
    ctx_.reset(urma_create_context(dev, eid_idx));
    if (ctx_ == nullptr)
        return fail(err, "context on " + cfg.dev + " EID index " + std::to_string(eid_idx));
    return make_queues(err) && make_buffer(err);
}

urma_jfs_cfg_t Resources::jfs_cfg() const
{
    urma_jfs_cfg_t c = {};
    c.depth = cfg_.jfs_depth;
    c.trans_mode = urma_mode(cfg_.trans_mode);
    c.priority = static_cast<uint8_t>(cfg_.priority);
    c.max_sge = static_cast<uint8_t>(cfg_.sge_num);
    c.max_rsge = 1;
    c.max_inline_data = cfg_.inline_size;
    c.rnr_retry = URMA_TYPICAL_RNR_RETRY;
    c.err_timeout = static_cast<uint8_t>(cfg_.err_timeout);
    c.flag.bs.lock_free = cfg_.lock_free;
    c.flag.bs.order_type = cfg_.order_type;
    c.jfc = scq_.get();
    return c;
}

bool Resources::make_queues(std::string *err)
{
    if (cfg_.use_jfce) {
        errno = 0;
        jfce_.reset(urma_create_jfce(ctx_.get()));
        if (jfce_ == nullptr)
            return fail(err, "create JFCE");
    }
    urma_jfc_cfg_t cc = {};
    cc.depth = cfg_.jfc_depth;
    cc.flag.bs.lock_free = cfg_.lock_free;
    cc.flag.bs.jfc_inline = cfg_.jfc_inline;
    cc.jfce = jfce_.get();
    errno = 0;
    scq_.reset(urma_create_jfc(ctx_.get(), &cc));
    rcq_.reset(scq_ != nullptr ? urma_create_jfc(ctx_.get(), &cc) : nullptr);
    if (scq_ == nullptr || rcq_ == nullptr)
        return fail(err, "create JFC of depth " + std::to_string(cc.depth));

    const uint32_t n = cfg_.jettys;
    urma_jfr_cfg_t rc = {};
    rc.depth = cfg_.jfr_depth;
    rc.trans_mode = urma_mode(cfg_.trans_mode);
    rc.max_sge = static_cast<uint8_t>(cfg_.sge_num);
    rc.min_rnr_timer = URMA_TYPICAL_MIN_RNR_TIMER;
    rc.jfc = rcq_.get();
    rc.token_value.token = jfr_token_;
    rc.flag.bs.token_policy = cfg_.token_policy;
    rc.flag.bs.lock_free = cfg_.lock_free;
    for (uint32_t i = 0; i < (cfg_.share_jfr ? 1 : n); i++) {
        errno = 0;
        jfr_.emplace_back(urma_create_jfr(ctx_.get(), &rc));
        if (jfr_.back() == nullptr)
            return fail(err, "create JFR of depth " + std::to_string(rc.depth));
    }
    for (uint32_t i = 0; i < n; i++) {
        urma_jfs_cfg_t sc = jfs_cfg();
        errno = 0;
        if (cfg_.simplex) {
            jfs_.emplace_back(urma_create_jfs(ctx_.get(), &sc));
            if (jfs_.back() == nullptr)
                return fail(err, "create JFS of depth " + std::to_string(sc.depth));
            continue;
        }
        urma_jetty_cfg_t jc = {};
        jc.flag.bs.share_jfr = URMA_SHARE_JFR;
        jc.jfs_cfg = sc;
        jc.shared.jfr = jfr(i);
        jetty_.emplace_back(urma_create_jetty(ctx_.get(), &jc));
        if (jetty_.back() == nullptr)
            return fail(err, "create jetty " + std::to_string(i) + " of depth " + std::to_string(sc.depth));
    }
    return true;
}

bool Resources::make_buffer(std::string *err)
{
    // With --enable_notify each slot ends in its notify word.
    slot_ = (cfg_.max_size() + (cfg_.enable_notify ? 8u : 0u) + 63u) & ~63u;
    const size_t per_round = static_cast<size_t>(cfg_.jettys) * slot_;
    if (op_of(cfg_.cmd) == Op::Send)
        rx_slots_ = static_cast<uint32_t>(
            std::max<size_t>(1, std::min<size_t>(cfg_.jfr_depth, kRxBudget / per_round)));
    const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
    size_t len = per_round * (1 + rx_slots_);
    len = (len + page - 1) / page * page;
    if (!buf_.map(len, err))
        return false;
    urma_seg_cfg_t sc = {};
    sc.va = reinterpret_cast<uintptr_t>(buf_.data());
    sc.len = len;
    sc.token_value.token = token_;
    sc.flag.bs.token_policy = cfg_.token_policy;
    sc.flag.bs.access = kAccess;
    errno = 0;
    seg_.reset(urma_register_seg(ctx_.get(), &sc));
    if (seg_ == nullptr)
        return fail(err, "register " + std::to_string(len) + " bytes (RLIMIT_MEMLOCK?)");
    return true;
}

Endpoint Resources::endpoint() const
{
    Endpoint e;
    const urma_seg_t &s = seg_->seg;
    std::memcpy(e.eid, s.ubva.eid.raw, sizeof(e.eid));
    e.uasid = s.ubva.uasid;
    e.token_policy = cfg_.token_policy;
    e.seg_va = s.ubva.va;
    e.seg_len = s.len;
    e.seg_token_id = s.token_id;
    e.seg_attr = s.attr.value;
    e.seg_token = token_;
    e.jfr_token = jfr_token_;
    for (uint32_t i = 0; i < cfg_.jettys; i++)
        e.ids.push_back(cfg_.simplex ? jfr(i)->jfr_id.id : jetty_[i]->jetty_id.id);
    return e;
}

bool Resources::connect(const Endpoint &peer, std::string *err)
{
    if (!cfg_.dip.empty() && std::memcmp(peer.eid, cfg_.dip_eid.data(), sizeof(peer.eid)) != 0) {
        *err = "--dip " + cfg_.dip + ": the peer's EID is another address's";
        return false;
    }
    if (peer.ids.size() != cfg_.jettys) {
        *err = "peer has " + std::to_string(peer.ids.size()) + " jetties, this side " + std::to_string(cfg_.jettys);
        return false;
    }
    if (peer.seg_len < buf_.size()) {
        *err = "peer's buffer of " + std::to_string(peer.seg_len) + " bytes is smaller than this side's";
        return false;
    }
    urma_seg_t s = {};
    std::memcpy(s.ubva.eid.raw, peer.eid, sizeof(peer.eid));
    s.ubva.uasid = peer.uasid;
    s.ubva.va = peer.seg_va;
    s.len = peer.seg_len;
    s.attr.value = peer.seg_attr;
    s.token_id = peer.seg_token_id;
    urma_token_t st = {peer.seg_token};
    urma_import_seg_flag_t f = {};
    f.bs.access = kAccess;
    f.bs.mapping = URMA_SEG_NOMAP;
    errno = 0;
    rseg_.reset(urma_import_seg(ctx_.get(), &s, &st, 0, f));
    if (rseg_ == nullptr)
        return fail(err, "import the peer's segment");
    peer_va_ = peer.seg_va;

    urma_token_t jt = {peer.jfr_token};
    urma_jetty_id_t id = {};
    std::memcpy(id.eid.raw, peer.eid, sizeof(peer.eid));
    id.uasid = peer.uasid;
    for (uint32_t i = 0; i < cfg_.jettys; i++) {
        id.id = peer.ids[i];
        errno = 0;
        if (cfg_.simplex) {
            urma_rjfr_t r = {};
            r.jfr_id = id;
            r.trans_mode = urma_mode(cfg_.trans_mode);
            r.flag.bs.token_policy = peer.token_policy;
            tjfr_.emplace_back(urma_import_jfr(ctx_.get(), &r, &jt));
            if (tjfr_.back() == nullptr)
                return fail(err, "import the peer's JFR " + std::to_string(id.id));
            continue;
        }
        urma_rjetty_t r = {};
        r.jetty_id = id;
        r.trans_mode = urma_mode(cfg_.trans_mode);
        r.type = URMA_JETTY;
        r.flag.bs.token_policy = peer.token_policy;
        tjetty_.emplace_back(urma_import_jetty(ctx_.get(), &r, &jt));
        if (tjetty_.back() == nullptr)
            return fail(err, "import the peer's jetty " + std::to_string(id.id));
        if (cfg_.trans_mode != TransMode::RC)
            continue;
        urma_status_t b = urma_bind_jetty(jetty_[i].get(), tjetty_.back().get());
        if (b != URMA_SUCCESS)
            return fail_status(err, "bind jetty " + std::to_string(jetty_[i]->jetty_id.id) + " to the peer's " +
                                        std::to_string(id.id),
                               b);
        bound_.emplace_back(jetty_[i].get());
    }
    return true;
}

urma_target_jetty_t *Resources::target(uint32_t i) const
{
    return cfg_.simplex ? tjfr_[i].get() : tjetty_[i].get();
}

urma_status_t Resources::post_send(uint32_t i, urma_jfs_wr_t *wr, urma_jfs_wr_t **bad)
{
    if (cfg_.simplex)
        return urma_post_jfs_wr(jfs_[i].get(), wr, bad);
    return urma_post_jetty_send_wr(jetty_[i].get(), wr, bad);
}

urma_status_t Resources::post_recv(uint32_t i, urma_jfr_wr_t *wr, urma_jfr_wr_t **bad)
{
    if (cfg_.simplex || cfg_.share_jfr)
        return urma_post_jfr_wr(jfr(i), wr, bad);
    return urma_post_jetty_recv_wr(jetty_[i].get(), wr, bad);
}

uint32_t Resources::conn_of_send(const urma_cr_t &cr) const
{
    for (uint32_t i = 0; i < cfg_.jettys; i++) {
        uint32_t id = cfg_.simplex ? jfs_[i]->jfs_id.id : jetty_[i]->jetty_id.id;
        if (id == cr.local_id)
            return i;
    }
    return UINT32_MAX;
}

int Resources::poll(urma_jfc_t *jfc, urma_cr_t *cr, int max, std::string *err)
{
    int n = urma_poll_jfc(jfc, max, cr);
    if (n != 0 || !cfg_.use_jfce) {
        if (n < 0)
            *err = "poll JFC: error " + std::to_string(n);
        return n < 0 ? -1 : n;
    }
    urma_status_t st = urma_rearm_jfc(jfc, false);
    if (st != URMA_SUCCESS) {
        fail_status(err, "rearm JFC", st);
        return -1;
    }
    // A completion between the poll and the rearm raises no event.
    n = urma_poll_jfc(jfc, max, cr);
    if (n != 0)
        return n < 0 ? -1 : n;
    urma_jfc_t *ev[2] = {};
    int k = urma_wait_jfc(jfce_.get(), 2, cfg_.wait_jfc_timeout, ev);
    if (k < 0) {
        fail(err, "wait for a JFC event");
        return -1;
    }
    for (int i = 0; i < k; i++) {
        uint32_t one = 1;
        urma_ack_jfc(&ev[i], &one, 1);
    }
    n = urma_poll_jfc(jfc, max, cr);
    return n < 0 ? -1 : n;
}

const char *cr_status_name(int status)
{
    static const char *const names[] = {
        "SUCCESS",          "UNSUPPORTED_OPCODE", "LOC_LEN",       "LOC_OPERATION", "LOC_ACCESS",
        "REM_RESP_LEN",     "REM_UNSUPPORTED_REQ", "REM_OPERATION", "REM_ACCESS_ABORT", "ACK_TIMEOUT",
        "RNR_RETRY_CNT_EXC", "WR_FLUSH",          "WR_SUSPEND_DONE", "WR_FLUSH_ERR_DONE", "WR_UNHANDLED",
        "LOC_DATA_POISON",  "REM_DATA_POISON",
    };
    if (status < 0 || static_cast<size_t>(status) >= sizeof(names) / sizeof(names[0]))
        return "UNKNOWN";
    return names[status];
}

}  // namespace perftest
