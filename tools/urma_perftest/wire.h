// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The UB/URMA stack authors
// The wire format of the TCP exchange between server and client. Each
// message: a 12-byte header (magic "UPT1", version, type, payload length),
// then a payload of a fixed layout per type, integers little endian. The
// decoders trust nothing: every length, count and enum is checked, so a
// truncated or foreign message is an error, never a crash.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace perftest {

constexpr uint32_t kWireMagic = 0x31545055;  // "UPT1" in memory order
constexpr uint16_t kWireVersion = 1;
constexpr size_t kHeaderLen = 12;
constexpr uint32_t kMaxPayload = 16 + 4 * 65536 + 256;

enum class MsgType : uint16_t { Hello = 1, Endpoint = 2, Sync = 3, Result = 4, Stop = 5 };

struct Header {
    MsgType type;
    uint32_t len;  // payload bytes
};

// What both sides must agree on before they run a test.
struct Hello {
    uint8_t cmd = 0, trans_mode = 0, atomic_type = 0;
    uint8_t flags = 0;  // kHello* bits
    uint32_t jettys = 0, size = 0, order = 0, duration = 0, sge_num = 0;
    uint64_t iters = 0;
    bool operator==(const Hello &o) const;
};
constexpr uint8_t kHelloSimplex = 1, kHelloBidir = 2, kHelloImm = 4, kHelloAll = 8, kHelloInfinite = 16,
                  kHelloCheck = 32, kHelloNotify = 64;

// Where the peer's memory and queues are: its EID and uasid, its one
// segment, and one target id per jetty (jetty ids, or JFR ids with -b).
struct Endpoint {
    uint8_t eid[16] = {};
    uint32_t uasid = 0;
    uint32_t token_policy = 0;
    uint64_t seg_va = 0, seg_len = 0;
    uint32_t seg_token_id = 0, seg_attr = 0, seg_token = 0, jfr_token = 0;
    std::vector<uint32_t> ids;
};

// A barrier: both sides send Sync(tag) and wait for the peer's.
struct Sync {
    uint32_t tag = 0;
    uint64_t value = 0;
};

// What one side tells the other at the end of a size: its status
// (0 fine, else kResult*), what it counted, its own bandwidth (-B).
struct Result {
    uint32_t status = 0;
    uint64_t count = 0;
    double peak_MBps = 0, avg_MBps = 0, msg_rate_Mpps = 0;
};
constexpr uint32_t kResultOk = 0, kResultFailed = 1, kResultCheckFailed = 2;

// Why a side stops early (-y, Ctrl-C) or at all.
struct Stop {
    uint32_t reason = 0;
};
constexpr uint32_t kStopDone = 0, kStopInterrupted = 1, kStopError = 2;

std::vector<uint8_t> encode(const Hello &m);
std::vector<uint8_t> encode(const Endpoint &m);
std::vector<uint8_t> encode(const Sync &m);
std::vector<uint8_t> encode(const Result &m);
std::vector<uint8_t> encode(const Stop &m);

// The header of a message from its first kHeaderLen bytes; false with
// *err when it is not one of ours (magic, version, type, length).
bool decode_header(const uint8_t *buf, size_t len, Header *h, std::string *err);

// A payload of the given type; false with *err when its length or a
// field is wrong.
bool decode(const uint8_t *p, size_t len, Hello *m, std::string *err);
bool decode(const uint8_t *p, size_t len, Endpoint *m, std::string *err);
bool decode(const uint8_t *p, size_t len, Sync *m, std::string *err);
bool decode(const uint8_t *p, size_t len, Result *m, std::string *err);
bool decode(const uint8_t *p, size_t len, Stop *m, std::string *err);

const char *msg_type_name(MsgType t);

}  // namespace perftest
