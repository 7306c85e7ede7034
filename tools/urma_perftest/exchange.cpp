// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The UB/URMA stack authors
#include "exchange.h"

#include <arpa/inet.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace perftest {

std::atomic<bool> g_interrupted{false};

namespace {

uint64_t now_ms()
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return static_cast<uint64_t>(ts.tv_sec) * 1000 + static_cast<uint64_t>(ts.tv_nsec) / 1000000;
}

std::string sys_err(const std::string &what)
{
    return what + ": " + std::strerror(errno);
}

// Waits up to timeout_ms (< 0: for ever) for fd to be readable, in steps so
// that Ctrl-C is seen; 1 readable, 0 timeout, -1 error, -2 interrupted.
int wait_readable(int fd, int timeout_ms)
{
    uint64_t end = timeout_ms < 0 ? UINT64_MAX : now_ms() + static_cast<uint64_t>(timeout_ms);
    for (;;) {
        if (g_interrupted.load())
            return -2;
        uint64_t now = now_ms();
        if (now >= end && timeout_ms >= 0)
            return 0;
        int step = static_cast<int>(end - now < 200 ? end - now : 200);
        struct pollfd p = {fd, POLLIN, 0};
        int n = poll(&p, 1, step);
        if (n > 0)
            return 1;
        if (n < 0 && errno != EINTR)
            return -1;
    }
}

std::string addr_string(const struct sockaddr *sa)
{
    char host[INET6_ADDRSTRLEN] = "?";
    unsigned port = 0;
    if (sa->sa_family == AF_INET) {
        auto *in = reinterpret_cast<const struct sockaddr_in *>(sa);
        inet_ntop(AF_INET, &in->sin_addr, host, sizeof(host));
        port = ntohs(in->sin_port);
    } else if (sa->sa_family == AF_INET6) {
        auto *in6 = reinterpret_cast<const struct sockaddr_in6 *>(sa);
        inet_ntop(AF_INET6, &in6->sin6_addr, host, sizeof(host));
        port = ntohs(in6->sin6_port);
        return std::string("[") + host + "]:" + std::to_string(port);
    }
    return std::string(host) + ":" + std::to_string(port);
}

void no_delay(int fd)
{
    int one = 1;
    // Barriers are tiny messages: do not let Nagle hold them back.
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
}

}  // namespace

Fd &Fd::operator=(Fd &&o) noexcept
{
    if (this != &o) {
        if (fd_ >= 0)
            close(fd_);
        fd_ = o.release();
    }
    return *this;
}

Fd::~Fd()
{
    if (fd_ >= 0)
        close(fd_);
}

int Fd::release()
{
    int fd = fd_;
    fd_ = -1;
    return fd;
}

bool Exchange::accept_client(const Config &cfg, std::string *err)
{
    const int family = cfg.enable_ipv6 ? AF_INET6 : AF_INET;
    Fd lfd(socket(family, SOCK_STREAM | SOCK_CLOEXEC, 0));
    if (lfd.get() < 0) {
        *err = sys_err("socket");
        return false;
    }
    int one = 1;
    setsockopt(lfd.get(), SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
    struct sockaddr_storage ss = {};
    socklen_t sl;
    if (family == AF_INET6) {
        auto *in6 = reinterpret_cast<struct sockaddr_in6 *>(&ss);
        in6->sin6_family = AF_INET6;
        in6->sin6_addr = in6addr_any;
        in6->sin6_port = htons(static_cast<uint16_t>(cfg.port));
        sl = sizeof(*in6);
    } else {
        auto *in = reinterpret_cast<struct sockaddr_in *>(&ss);
        in->sin_family = AF_INET;
        in->sin_addr.s_addr = htonl(INADDR_ANY);
        in->sin_port = htons(static_cast<uint16_t>(cfg.port));
        sl = sizeof(*in);
    }
    if (bind(lfd.get(), reinterpret_cast<struct sockaddr *>(&ss), sl) != 0) {
        *err = sys_err("bind to port " + std::to_string(cfg.port));
        return false;
    }
    if (listen(lfd.get(), 1) != 0) {
        *err = sys_err("listen on port " + std::to_string(cfg.port));
        return false;
    }
    int w = wait_readable(lfd.get(), -1);
    if (w != 1) {
        *err = w == -2 ? "interrupted while waiting for a client" : sys_err("waiting for a client");
        return false;
    }
    struct sockaddr_storage peer = {};
    socklen_t pl = sizeof(peer);
    int fd = accept4(lfd.get(), reinterpret_cast<struct sockaddr *>(&peer), &pl, SOCK_CLOEXEC);
    if (fd < 0) {
        *err = sys_err("accept on port " + std::to_string(cfg.port));
        return false;
    }
    fd_ = Fd(fd);
    no_delay(fd);
    peer_ = "client " + addr_string(reinterpret_cast<struct sockaddr *>(&peer));
    return true;
}

bool Exchange::connect_server(const Config &cfg, std::string *err)
{
    const std::string where = cfg.server + ":" + std::to_string(cfg.port);
    peer_ = "server " + where;
    struct addrinfo hints = {};
    hints.ai_family = cfg.enable_ipv6 ? AF_INET6 : AF_INET;
    hints.ai_socktype = SOCK_STREAM;
    struct addrinfo *res = nullptr;
    int rc = getaddrinfo(cfg.server.c_str(), std::to_string(cfg.port).c_str(), &hints, &res);
    if (rc != 0) {
        *err = "connect to " + where + ": " + gai_strerror(rc);
        return false;
    }
    // A server started at the same moment may not listen yet: retry a
    // refusal for a while, as the help says.
    const uint64_t end = now_ms() + 2000;
    for (;;) {
        Fd fd(socket(res->ai_family, SOCK_STREAM | SOCK_CLOEXEC, 0));
        if (fd.get() < 0) {
            *err = sys_err("socket");
            break;
        }
        if (connect(fd.get(), res->ai_addr, res->ai_addrlen) == 0) {
            no_delay(fd.get());
            fd_ = std::move(fd);
            freeaddrinfo(res);
            return true;
        }
        *err = sys_err("connect to " + where);
        if (errno != ECONNREFUSED || now_ms() >= end || g_interrupted.load())
            break;
        usleep(100 * 1000);
    }
    freeaddrinfo(res);
    return false;
}

bool Exchange::send(const std::vector<uint8_t> &msg, std::string *err)
{
    size_t off = 0;
    while (off < msg.size()) {
        ssize_t n = ::send(fd_.get(), msg.data() + off, msg.size() - off, MSG_NOSIGNAL);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            *err = sys_err("send to " + peer_);
            return false;
        }
        off += static_cast<size_t>(n);
    }
    return true;
}

bool Exchange::read_full(uint8_t *buf, size_t len, int timeout_ms, Recv *st, std::string *err)
{
    size_t off = 0;
    while (off < len) {
        int w = wait_readable(fd_.get(), timeout_ms);
        if (w != 1) {
            *st = w == 0 ? Recv::Timeout : w == -2 ? Recv::Interrupted : Recv::Error;
            *err = w == 0 ? "no answer from " + peer_ + " within " + std::to_string(timeout_ms / 1000) + " s"
                   : w == -2 ? std::string("interrupted")
                             : sys_err("waiting for " + peer_);
            return false;
        }
        ssize_t n = ::recv(fd_.get(), buf + off, len - off, 0);
        if (n < 0 && errno == EINTR)
            continue;
        if (n == 0) {
            *st = Recv::Closed;
            *err = peer_ + " closed the connection";
            return false;
        }
        if (n < 0) {
            *st = Recv::Error;
            *err = sys_err("receive from " + peer_);
            return false;
        }
        off += static_cast<size_t>(n);
    }
    return true;
}

Recv Exchange::recv(MsgType want, std::vector<uint8_t> *payload, int timeout_ms, std::string *err)
{
    if (has_early_result_ && want == MsgType::Result) {
        has_early_result_ = false;
        *payload = std::move(early_result_);
        return Recv::Ok;
    }
    uint8_t hdr[kHeaderLen];
    Recv st = Recv::Ok;
    if (!read_full(hdr, sizeof(hdr), timeout_ms, &st, err))
        return st;
    Header h;
    std::string why;
    if (!decode_header(hdr, sizeof(hdr), &h, &why)) {
        *err = peer_ + ": " + why;
        return Recv::Error;
    }
    payload->resize(h.len);
    if (h.len != 0 && !read_full(payload->data(), h.len, kSetupTimeoutMs, &st, err))
        return st;
    if (h.type == want)
        return Recv::Ok;
    if (h.type == MsgType::Stop) {
        Stop s;
        bool ok = decode(payload->data(), payload->size(), &s, &why);
        *err = peer_ + (ok && s.reason == kStopInterrupted ? " was interrupted" : " stopped");
        return Recv::Stopped;
    }
    Result res;
    if (h.type == MsgType::Result && decode(payload->data(), payload->size(), &res, &why) &&
        res.status != kResultOk) {
        // The peer gave up early and went straight to its result.
        *err = peer_ + " failed (see its output)";
        has_early_result_ = true;
        early_result_ = std::move(*payload);
        return Recv::Error;
    }
    *err = peer_ + " sent a " + msg_type_name(h.type) + " message where a " + msg_type_name(want) +
           " was due";
    return Recv::Error;
}

bool Exchange::readable()
{
    struct pollfd p = {fd_.get(), POLLIN, 0};
    return poll(&p, 1, 0) > 0;
}

bool Exchange::barrier(uint32_t tag, int timeout_ms, std::string *err)
{
    Sync s;
    s.tag = tag;
    if (!send(encode(s), err))
        return false;
    Sync peer;
    if (recv_msg(*this, MsgType::Sync, &peer, timeout_ms, err) != Recv::Ok)
        return false;
    if (peer.tag != tag) {
        *err = peer_ + " is at step " + std::to_string(peer.tag) + ", this side at " + std::to_string(tag);
        return false;
    }
    return true;
}

}  // namespace perftest
