// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The UB/URMA stack authors
#include "wire.h"

#include <cmath>
#include <cstring>

namespace perftest {

namespace {

constexpr size_t kHelloLen = 4 + 5 * 4 + 8;
constexpr size_t kEndpointFixed = 16 + 4 + 4 + 8 + 8 + 4 * 4 + 4;  // ends with the id count
constexpr size_t kSyncLen = 4 + 8;
constexpr size_t kResultLen = 4 + 8 + 3 * 8;
constexpr size_t kStopLen = 4;

class Writer {
public:
    explicit Writer(MsgType t)
    {
        u32(kWireMagic);
        u16(kWireVersion);
        u16(static_cast<uint16_t>(t));
        u32(0);  // payload length, set by done()
    }
    void u8(uint8_t v) { b_.push_back(v); }
    void u16(uint16_t v) { put(v, 2); }
    void u32(uint32_t v) { put(v, 4); }
    void u64(uint64_t v) { put(v, 8); }
    void f64(double v)
    {
        uint64_t bits;
        std::memcpy(&bits, &v, sizeof(bits));
        u64(bits);
    }
    void bytes(const uint8_t *p, size_t n) { b_.insert(b_.end(), p, p + n); }
    std::vector<uint8_t> done()
    {
        uint32_t len = static_cast<uint32_t>(b_.size() - kHeaderLen);
        for (int i = 0; i < 4; i++)
            b_[8 + i] = static_cast<uint8_t>(len >> (8 * i));
        return std::move(b_);
    }

private:
    void put(uint64_t v, int n)
    {
        for (int i = 0; i < n; i++)
            b_.push_back(static_cast<uint8_t>(v >> (8 * i)));
    }
    std::vector<uint8_t> b_;
};

// Reads fields off a payload whose length the caller checked.
class Reader {
public:
    explicit Reader(const uint8_t *p) : p_(p) {}
    uint8_t u8() { return p_[off_++]; }
    uint16_t u16() { return static_cast<uint16_t>(get(2)); }
    uint32_t u32() { return static_cast<uint32_t>(get(4)); }
    uint64_t u64() { return get(8); }
    double f64()
    {
        uint64_t bits = u64();
        double v;
        std::memcpy(&v, &bits, sizeof(v));
        return v;
    }
    void bytes(uint8_t *out, size_t n)
    {
        std::memcpy(out, p_ + off_, n);
        off_ += n;
    }

private:
    uint64_t get(int n)
    {
        uint64_t v = 0;
        for (int i = 0; i < n; i++)
            v |= static_cast<uint64_t>(p_[off_ + static_cast<size_t>(i)]) << (8 * i);
        off_ += static_cast<size_t>(n);
        return v;
    }
    const uint8_t *p_;
    size_t off_ = 0;
};

bool bad(std::string *err, const std::string &why)
{
    if (err != nullptr)
        *err = why;
    return false;
}

bool want_len(const char *what, size_t len, size_t want, std::string *err)
{
    if (len == want)
        return true;
    return bad(err, std::string(what) + " message of " + std::to_string(len) + " bytes, expected " +
                        std::to_string(want));
}

}  // namespace

bool Hello::operator==(const Hello &o) const
{
    return cmd == o.cmd && trans_mode == o.trans_mode && atomic_type == o.atomic_type && flags == o.flags &&
           jettys == o.jettys && size == o.size && order == o.order && duration == o.duration &&
           sge_num == o.sge_num && iters == o.iters;
}

const char *msg_type_name(MsgType t)
{
    switch (t) {
    case MsgType::Hello: return "hello";
    case MsgType::Endpoint: return "endpoint";
    case MsgType::Sync: return "sync";
    case MsgType::Result: return "result";
    case MsgType::Stop: return "stop";
    }
    return "?";
}

std::vector<uint8_t> encode(const Hello &m)
{
    Writer w(MsgType::Hello);
    w.u8(m.cmd);
    w.u8(m.trans_mode);
    w.u8(m.atomic_type);
    w.u8(m.flags);
    w.u32(m.jettys);
    w.u32(m.size);
    w.u32(m.order);
    w.u32(m.duration);
    w.u32(m.sge_num);
    w.u64(m.iters);
    return w.done();
}

std::vector<uint8_t> encode(const Endpoint &m)
{
    Writer w(MsgType::Endpoint);
    w.bytes(m.eid, sizeof(m.eid));
    w.u32(m.uasid);
    w.u32(m.token_policy);
    w.u64(m.seg_va);
    w.u64(m.seg_len);
    w.u32(m.seg_token_id);
    w.u32(m.seg_attr);
    w.u32(m.seg_token);
    w.u32(m.jfr_token);
    w.u32(static_cast<uint32_t>(m.ids.size()));
    for (uint32_t id : m.ids)
        w.u32(id);
    return w.done();
}

std::vector<uint8_t> encode(const Sync &m)
{
    Writer w(MsgType::Sync);
    w.u32(m.tag);
    w.u64(m.value);
    return w.done();
}

std::vector<uint8_t> encode(const Result &m)
{
    Writer w(MsgType::Result);
    w.u32(m.status);
    w.u64(m.count);
    w.f64(m.peak_MBps);
    w.f64(m.avg_MBps);
    w.f64(m.msg_rate_Mpps);
    return w.done();
}

std::vector<uint8_t> encode(const Stop &m)
{
    Writer w(MsgType::Stop);
    w.u32(m.reason);
    return w.done();
}

bool decode_header(const uint8_t *buf, size_t len, Header *h, std::string *err)
{
    if (len < kHeaderLen)
        return bad(err, "truncated header (" + std::to_string(len) + " bytes)");
    Reader r(buf);
    uint32_t magic = r.u32();
    uint16_t version = r.u16();
    uint16_t type = r.u16();
    uint32_t plen = r.u32();
    if (magic != kWireMagic)
        return bad(err, "not an urma_perftest peer (bad magic)");
    if (version != kWireVersion)
        return bad(err, "peer speaks exchange version " + std::to_string(version) + ", this side " +
                            std::to_string(kWireVersion));
    if (type < static_cast<uint16_t>(MsgType::Hello) || type > static_cast<uint16_t>(MsgType::Stop))
        return bad(err, "unknown message type " + std::to_string(type));
    if (plen > kMaxPayload)
        return bad(err, "message of " + std::to_string(plen) + " bytes is too long");
    h->type = static_cast<MsgType>(type);
    h->len = plen;
    return true;
}

bool decode(const uint8_t *p, size_t len, Hello *m, std::string *err)
{
    if (!want_len("hello", len, kHelloLen, err))
        return false;
    Reader r(p);
    m->cmd = r.u8();
    m->trans_mode = r.u8();
    m->atomic_type = r.u8();
    m->flags = r.u8();
    m->jettys = r.u32();
    m->size = r.u32();
    m->order = r.u32();
    m->duration = r.u32();
    m->sge_num = r.u32();
    m->iters = r.u64();
    if (m->cmd > 7 || m->trans_mode > 2 || m->atomic_type > 1 || m->flags >= 2 * kHelloNotify)
        return bad(err, "hello with an unknown command, mode or flag");
    return true;
}

bool decode(const uint8_t *p, size_t len, Endpoint *m, std::string *err)
{
    if (len < kEndpointFixed)
        return bad(err, "endpoint message of " + std::to_string(len) + " bytes is truncated");
    Reader r(p);
    r.bytes(m->eid, sizeof(m->eid));
    m->uasid = r.u32();
    m->token_policy = r.u32();
    m->seg_va = r.u64();
    m->seg_len = r.u64();
    m->seg_token_id = r.u32();
    m->seg_attr = r.u32();
    m->seg_token = r.u32();
    m->jfr_token = r.u32();
    uint32_t n = r.u32();
    if (n == 0 || n > 65535)
        return bad(err, "endpoint with " + std::to_string(n) + " jetties");
    if (!want_len("endpoint", len, kEndpointFixed + 4 * static_cast<size_t>(n), err))
        return false;
    if (m->token_policy > 3)
        return bad(err, "endpoint with token policy " + std::to_string(m->token_policy));
    m->ids.resize(n);
    for (uint32_t i = 0; i < n; i++)
        m->ids[i] = r.u32();
    return true;
}

bool decode(const uint8_t *p, size_t len, Sync *m, std::string *err)
{
    if (!want_len("sync", len, kSyncLen, err))
        return false;
    Reader r(p);
    m->tag = r.u32();
    m->value = r.u64();
    return true;
}

bool decode(const uint8_t *p, size_t len, Result *m, std::string *err)
{
    if (!want_len("result", len, kResultLen, err))
        return false;
    Reader r(p);
    m->status = r.u32();
    m->count = r.u64();
    m->peak_MBps = r.f64();
    m->avg_MBps = r.f64();
    m->msg_rate_Mpps = r.f64();
    if (m->status > kResultCheckFailed || !std::isfinite(m->peak_MBps) || !std::isfinite(m->avg_MBps) ||
        !std::isfinite(m->msg_rate_Mpps))
        return bad(err, "result with an unknown status or a bad number");
    return true;
}

bool decode(const uint8_t *p, size_t len, Stop *m, std::string *err)
{
    if (!want_len("stop", len, kStopLen, err))
        return false;
    Reader r(p);
    m->reason = r.u32();
    if (m->reason > kStopError)
        return bad(err, "stop with unknown reason " + std::to_string(m->reason));
    return true;
}

}  // namespace perftest
