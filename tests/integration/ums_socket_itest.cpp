// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The UB/URMA stack authors
// ums_socket_itest: UMS sockets (ums.ko, AF_SMC) between the two hosts of
// tests/guest/lib.sh's namespace pair (uboeA and uboeB joined by a veth,
// udmaA and udmaB on it), through the socket API as an application uses
// it. The bed: the pair, the stack and ums.ko, loaded when the binary
// starts and removed at its end (ums.ko must unload).
//
// One process plays both hosts: a socket belongs to the network namespace
// of the thread that created it, so each socket is made by a short-lived
// thread that entered its namespace (setns), and is then used from any
// thread. The server's end lives in uboeB, the client's in uboeA.
//
// tests/guest/cases/ums-ns-pair.sh covers what needs a shell around the
// sockets: the sysctls' ranges, the peer's device deleted mid-stream,
// devices missing, ums_run, the fallback counters and smc.ko.
#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sched.h>
#include <sys/epoll.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <functional>
#include <future>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "stack.h"

namespace {

constexpr int kAfSmc = 43;
constexpr int kSmcProto = 0, kSmcProto6 = 1;  // SMCPROTO_SMC, SMCPROTO_SMC6
const std::string kNsA = "uboeA", kNsB = "uboeB";
const std::string kIp4B = "10.77.0.2", kIp6B = "fd77::2";
constexpr unsigned kPeerNoUms = 0x03010000;  // fallback: no UMS option from the peer
constexpr unsigned kLocal = 0x030e0000;      // fallback: both ends in one namespace
constexpr size_t kLinkConns = 32;            // connections a link carries

// A file descriptor, closed when it goes.
class Fd {
public:
    Fd() = default;
    explicit Fd(int fd) : fd_(fd) {}
    Fd(Fd &&o) noexcept : fd_(std::exchange(o.fd_, -1)) {}
    Fd &operator=(Fd &&o) noexcept
    {
        reset(std::exchange(o.fd_, -1));
        return *this;
    }
    Fd(const Fd &) = delete;
    Fd &operator=(const Fd &) = delete;
    ~Fd() { reset(); }
    int get() const { return fd_; }
    void reset(int fd = -1)
    {
        if (fd_ >= 0)
            close(fd_);
        fd_ = fd;
    }

private:
    int fd_ = -1;
};

// fn's result, run by a thread in network namespace ns.
template <typename F> auto in_ns(const std::string &ns, F fn) -> decltype(fn())
{
    decltype(fn()) result{};
    std::thread t([&] {
        Fd nsfd(open(("/run/netns/" + ns).c_str(), O_RDONLY | O_CLOEXEC));
        if (nsfd.get() < 0 || setns(nsfd.get(), CLONE_NEWNET) != 0) {
            ADD_FAILURE() << "entering " << ns << ": " << std::strerror(errno);
            return;
        }
        result = fn();
    });
    t.join();
    return result;
}

std::string read_file(const std::string &path)
{
    std::ifstream f(path);
    std::stringstream s;
    s << f.rdbuf();
    return s.str();
}

// Writes a sysctl (or any file) whole; whether the write and close took it.
bool write_file(const std::string &path, const std::string &text)
{
    std::ofstream f(path);
    f << text;
    f.close();
    return !f.fail();
}

enum class Kind { kUms, kTcp };

// An address of the server (uboeB) and a port of its own for each use.
struct Addr {
    std::string ip;
    bool v6;
    uint16_t port;
    sockaddr_storage ss() const
    {
        sockaddr_storage s{};
        if (v6) {
            auto *a = reinterpret_cast<sockaddr_in6 *>(&s);
            a->sin6_family = AF_INET6;
            a->sin6_port = htons(port);
            inet_pton(AF_INET6, ip.c_str(), &a->sin6_addr);
        } else {
            auto *a = reinterpret_cast<sockaddr_in *>(&s);
            a->sin_family = AF_INET;
            a->sin_port = htons(port);
            inet_pton(AF_INET, ip.c_str(), &a->sin_addr);
        }
        return s;
    }
    socklen_t len() const { return v6 ? sizeof(sockaddr_in6) : sizeof(sockaddr_in); }
};

Addr next_addr(const std::string &ip, bool v6)
{
    static uint16_t port = 6100;
    return {ip, v6, port++};
}

Fd make_socket(const std::string &ns, Kind kind, bool v6)
{
    return Fd(in_ns(ns, [&] {
        if (kind == Kind::kTcp)
            return socket(v6 ? AF_INET6 : AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
        return socket(kAfSmc, SOCK_STREAM | SOCK_CLOEXEC, v6 ? kSmcProto6 : kSmcProto);
    }));
}

Fd make_listener(const std::string &ns, Kind kind, const Addr &a)
{
    Fd l = make_socket(ns, kind, a.v6);
    int one = 1;
    sockaddr_storage ss = a.ss();
    if (l.get() < 0 || setsockopt(l.get(), SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) != 0 ||
        bind(l.get(), reinterpret_cast<sockaddr *>(&ss), a.len()) != 0 || listen(l.get(), 64) != 0) {
        ADD_FAILURE() << "listener on " << a.ip << " port " << a.port << ": " << std::strerror(errno);
        return Fd();
    }
    return l;
}

bool connect_to(const Fd &s, const Addr &a)
{
    sockaddr_storage ss = a.ss();
    return connect(s.get(), reinterpret_cast<sockaddr *>(&ss), a.len()) == 0;
}

uint16_t port_of(const sockaddr_storage &ss)
{
    return ntohs(ss.ss_family == AF_INET6 ? reinterpret_cast<const sockaddr_in6 &>(ss).sin6_port
                                          : reinterpret_cast<const sockaddr_in &>(ss).sin_port);
}

// The port of fd's own end (getsockname) or its peer's (getpeername); 0
// if the call failed.
uint16_t end_port(int fd, int (*name)(int, sockaddr *, socklen_t *))
{
    sockaddr_storage ss{};
    socklen_t len = sizeof(ss);
    return name(fd, reinterpret_cast<sockaddr *>(&ss), &len) == 0 ? port_of(ss) : 0;
}

// A connected pair: the client's end in uboeA, the server's in uboeB.
struct Conn {
    Fd cli, srv;
};

// n connections to one listener of srv_kind on addr (ip, v6) from
// cli_kind sockets, all open at once.
std::vector<Conn> connect_n(size_t n, Kind cli_kind, Kind srv_kind, const std::string &ip, bool v6)
{
    Addr a = next_addr(ip, v6);
    Fd l = make_listener(kNsB, srv_kind, a);
    std::vector<Conn> conns(n);
    if (l.get() < 0)
        return {};
    auto accepts = std::async(std::launch::async, [&] {
        std::vector<Fd> got;
        for (size_t i = 0; i < n; i++) {
            Fd s(accept4(l.get(), nullptr, nullptr, SOCK_CLOEXEC));
            if (s.get() < 0)
                break;
            got.push_back(std::move(s));
        }
        return got;
    });
    for (auto &c : conns) {
        c.cli = make_socket(kNsA, cli_kind, v6);
        EXPECT_TRUE(connect_to(c.cli, a)) << "connect: " << std::strerror(errno);
    }
    std::vector<Fd> srvs = accepts.get();
    EXPECT_EQ(srvs.size(), n);
    if (srvs.size() != n)
        return {};
    // Accept's order is that of the handshakes' ends at the server, not
    // of the connects: a server's handshake may end after the client's
    // connect returned and after the next one's. Each client meets the
    // server socket whose peer port is its own port.
    std::map<uint16_t, Fd> by_peer_port;
    for (auto &s : srvs) {
        uint16_t port = end_port(s.get(), getpeername);
        EXPECT_NE(port, 0) << "getpeername: " << std::strerror(errno);
        by_peer_port[port] = std::move(s);
    }
    for (auto &c : conns) {
        auto it = by_peer_port.find(end_port(c.cli.get(), getsockname));
        EXPECT_NE(it, by_peer_port.end()) << "no server socket for a client";
        if (it == by_peer_port.end())
            return {};
        c.srv = std::move(it->second);
    }
    return conns;
}

Conn connect_one(Kind cli_kind, Kind srv_kind, const std::string &ip, bool v6)
{
    auto v = connect_n(1, cli_kind, srv_kind, ip, v6);
    return v.empty() ? Conn() : std::move(v[0]);
}

bool send_all(int fd, const void *buf, size_t n)
{
    const auto *p = static_cast<const uint8_t *>(buf);
    while (n) {
        ssize_t k = send(fd, p, n, MSG_NOSIGNAL);
        if (k <= 0)
            return false;
        p += k;
        n -= static_cast<size_t>(k);
    }
    return true;
}

bool recv_all(int fd, void *buf, size_t n)
{
    auto *p = static_cast<uint8_t *>(buf);
    while (n) {
        ssize_t k = recv(fd, p, n, 0);
        if (k <= 0)
            return false;
        p += k;
        n -= static_cast<size_t>(k);
    }
    return true;
}

// The byte at offset off of stream seed: a lost, repeated or misplaced
// chunk shows as a wrong byte.
uint8_t pattern(uint64_t seed, uint64_t off)
{
    uint64_t x = seed * 0x9e3779b97f4a7c15ULL + (off >> 3);
    x ^= x >> 31;
    x *= 0xbf58476d1ce4e5b9ULL;
    x ^= x >> 29;
    return static_cast<uint8_t>(x >> ((off & 7) * 8));
}

// Sends n bytes of stream seed in chunks of varying sizes (1 .. 64 KiB).
bool send_stream(int fd, uint64_t seed, size_t n)
{
    std::vector<uint8_t> buf(65536);
    uint64_t off = 0, r = seed | 1;
    while (off < n) {
        r = r * 6364136223846793005ULL + 1442695040888963407ULL;
        size_t len = std::min<size_t>(n - off, 1 + (r >> 33) % buf.size());
        for (size_t i = 0; i < len; i++)
            buf[i] = pattern(seed, off + i);
        if (!send_all(fd, buf.data(), len))
            return false;
        off += len;
    }
    return true;
}

// Receives n bytes of stream seed; a message saying where they first differ.
std::string recv_stream(int fd, uint64_t seed, size_t n)
{
    std::vector<uint8_t> buf(65536);
    uint64_t off = 0;
    while (off < n) {
        ssize_t k = recv(fd, buf.data(), std::min<size_t>(buf.size(), n - off), 0);
        if (k <= 0)
            return "the stream ended after " + std::to_string(off) + " of " + std::to_string(n) +
                   " bytes: " + (k < 0 ? std::strerror(errno) : "EOF");
        for (ssize_t i = 0; i < k; i++)
            if (buf[i] != pattern(seed, off + i))
                return "byte " + std::to_string(off + i) + " differs";
        off += static_cast<uint64_t>(k);
    }
    return "";
}

// The words of fd's line in /proc/net/ums{,6} of namespace ns, matched by
// its ports: Index SRC DST State Fallback SRC_EID JETTY DST_EID JETTY
// Reason PeerReason.
std::vector<std::string> proc_line(const std::string &ns, int fd)
{
    sockaddr_storage me{}, peer{};
    socklen_t l1 = sizeof(me), l2 = sizeof(peer);
    if (getsockname(fd, reinterpret_cast<sockaddr *>(&me), &l1) != 0 ||
        getpeername(fd, reinterpret_cast<sockaddr *>(&peer), &l2) != 0)
        return {};
    const std::string file = me.ss_family == AF_INET6 ? "ums6" : "ums";
    std::string text = in_ns(ns, [&] { return read_file("/proc/thread-self/net/" + file); });
    std::istringstream lines(text);
    std::string line;
    const std::string lp = ":" + std::to_string(port_of(me)), rp = ":" + std::to_string(port_of(peer));
    std::getline(lines, line);  // the header
    while (std::getline(lines, line)) {
        std::istringstream ws(line);
        std::vector<std::string> w;
        for (std::string x; ws >> x;)
            w.push_back(x);
        auto ends = [](const std::string &s, const std::string &t) {
            return s.size() >= t.size() && s.compare(s.size() - t.size(), t.size(), t) == 0;
        };
        if (w.size() >= 11 && ends(w[1], lp) && ends(w[2], rp))
            return w;
    }
    ADD_FAILURE() << "no line for ports " << lp << rp << " in " << ns << "'s /proc/net/" << file << ":\n"
                  << text;
    return {};
}

std::string join(const std::vector<std::string> &w)
{
    std::string s;
    for (const auto &x : w)
        s += x + " ";
    return s;
}

// fd's connection (of namespace ns) runs over UMS: active, no fallback,
// the link's EIDs and jetties named.
void expect_ums(const std::string &ns, int fd)
{
    auto w = proc_line(ns, fd);
    ASSERT_GE(w.size(), 11u);
    EXPECT_EQ(w[3], "UMS_ACTIVE") << join(w);
    EXPECT_EQ(w[4], "False") << join(w);
    for (int i = 5; i <= 8; i++)
        EXPECT_NE(w[i], "N/A") << join(w);
}

// fd's connection fell back to TCP for reason (hex in the line).
void expect_fallback(const std::string &ns, int fd, unsigned reason)
{
    auto w = proc_line(ns, fd);
    ASSERT_GE(w.size(), 11u);
    EXPECT_EQ(w[4], "True") << join(w);
    EXPECT_EQ(std::stoul(w[9], nullptr, 16), reason) << join(w);
}

// ns's /proc/net/ums_fallback: code -> (client count, server count).
std::map<unsigned, std::pair<long, long>> fallbacks(const std::string &ns)
{
    std::istringstream lines(in_ns(ns, [] { return read_file("/proc/thread-self/net/ums_fallback"); }));
    std::map<unsigned, std::pair<long, long>> counts;
    std::string code;
    long cli, srv;
    std::string line;
    std::getline(lines, line);  // the header
    while (std::getline(lines, line)) {
        std::istringstream ws(line);
        if (ws >> code >> cli >> srv)
            counts[static_cast<unsigned>(std::stoul(code, nullptr, 16))] = {cli, srv};
    }
    EXPECT_FALSE(counts.empty()) << ns << ": no /proc/net/ums_fallback";
    return counts;
}

// What changed between two readings of fallbacks(): only the codes that moved.
std::map<unsigned, std::pair<long, long>> moved(const std::map<unsigned, std::pair<long, long>> &before,
                                                const std::map<unsigned, std::pair<long, long>> &after)
{
    std::map<unsigned, std::pair<long, long>> d;
    for (const auto &[code, n] : after) {
        auto it = before.find(code);
        std::pair<long, long> b = it == before.end() ? std::pair<long, long>{0, 0} : it->second;
        if (n != b)
            d[code] = {n.first - b.first, n.second - b.second};
    }
    return d;
}

// Sets net.ums.snd_buf and rcv_buf in both namespaces; puts them back.
class UmsBufs {
public:
    explicit UmsBufs(const std::string &size)
    {
        for (const auto &ns : {kNsA, kNsB})
            for (const char *f : {"snd_buf", "rcv_buf"}) {
                std::string path = std::string("/proc/sys/net/ums/") + f;
                saved_.push_back(in_ns(ns, [&] { return read_file(path); }));
                EXPECT_TRUE(in_ns(ns, [&] { return write_file(path, size); })) << ns << " " << path;
            }
    }
    ~UmsBufs()
    {
        size_t i = 0;
        for (const auto &ns : {kNsA, kNsB})
            for (const char *f : {"snd_buf", "rcv_buf"}) {
                std::string path = std::string("/proc/sys/net/ums/") + f, v = saved_[i++];
                EXPECT_TRUE(in_ns(ns, [&] { return write_file(path, v); })) << ns << " " << path;
            }
    }
    UmsBufs(const UmsBufs &) = delete;
    UmsBufs &operator=(const UmsBufs &) = delete;

private:
    std::vector<std::string> saved_;
};

class UmsBed : public ::testing::Environment {
public:
    void SetUp() override
    {
        ASSERT_EQ(ub_itest::lib_sh("ub_nspair_destroy; ub_nspair_create && ub_load_stack && "
                                   "ub_insmod \"$UB_KMOD/ums/ums.ko\" && ub_nspair_add_devs"),
                  0);
    }
    void TearDown() override
    {
        // ums.ko first: it holds the links (a link lingers 10 s after its
        // last connection; unloading ends it at once)
        EXPECT_TRUE(ub_itest::rmmod("ums"));
        EXPECT_EQ(ub_itest::lib_sh("ub_unload_stack; r=$?; ub_nspair_destroy; exit $r"), 0);
    }
};

::testing::Environment *const g_bed = ::testing::AddGlobalTestEnvironment(new UmsBed);

// A line each way over UMS, IPv4 and IPv6; both ends' /proc lines say UMS.
TEST(UmsSocket, EchoOverUms)
{
    for (bool v6 : {false, true}) {
        SCOPED_TRACE(v6 ? "IPv6" : "IPv4");
        Conn c = connect_one(Kind::kUms, Kind::kUms, v6 ? kIp6B : kIp4B, v6);
        ASSERT_GE(c.srv.get(), 0);
        const char msg[] = "hello over UMS";
        char got[sizeof(msg)] = {};
        ASSERT_TRUE(send_all(c.cli.get(), msg, sizeof(msg)));
        ASSERT_TRUE(recv_all(c.srv.get(), got, sizeof(got)));
        EXPECT_STREQ(got, msg);
        ASSERT_TRUE(send_all(c.srv.get(), got, sizeof(got)));
        std::memset(got, 0, sizeof(got));
        ASSERT_TRUE(recv_all(c.cli.get(), got, sizeof(got)));
        EXPECT_STREQ(got, msg);
        expect_ums(kNsA, c.cli.get());
        expect_ums(kNsB, c.srv.get());
    }
}

// Both directions at once, far more than a buffer, in chunks of every size;
// every byte checked.
TEST(UmsSocket, LargeTransfersBothWaysVerified)
{
    const size_t up = ub_itest::check_long() ? 64u << 20 : 4u << 20, down = up / 2;
    Conn c = connect_one(Kind::kUms, Kind::kUms, kIp4B, false);
    ASSERT_GE(c.srv.get(), 0);
    auto srv_rx = std::async(std::launch::async, [&] { return recv_stream(c.srv.get(), 1, up); });
    auto cli_rx = std::async(std::launch::async, [&] { return recv_stream(c.cli.get(), 2, down); });
    auto srv_tx = std::async(std::launch::async, [&] { return send_stream(c.srv.get(), 2, down); });
    EXPECT_TRUE(send_stream(c.cli.get(), 1, up));
    EXPECT_TRUE(srv_tx.get());
    EXPECT_EQ(srv_rx.get(), "");
    EXPECT_EQ(cli_rx.get(), "");
    expect_ums(kNsA, c.cli.get());
}

// 40 connections open at once: two links (32 a link), each connection's
// data its own.
TEST(UmsSocket, FortyConnectionsShareTwoLinks)
{
    UmsBufs bufs("65536");  // 40 x 1 MiB a side would not fit the guest
    const size_t n = 40, len = 65536;
    auto conns = connect_n(n, Kind::kUms, Kind::kUms, kIp4B, false);
    ASSERT_EQ(conns.size(), n);
    std::set<std::string> links;
    for (auto &c : conns) {
        auto w = proc_line(kNsA, c.cli.get());
        ASSERT_GE(w.size(), 11u);
        EXPECT_EQ(w[4], "False") << join(w);
        links.insert(w[6]);  // this end's jetty: one a link
    }
    EXPECT_EQ(links.size(), (n + kLinkConns - 1) / kLinkConns);
    for (size_t i = 0; i < n; i++) {
        auto rx = std::async(std::launch::async, [&] { return recv_stream(conns[i].srv.get(), 100 + i, len); });
        EXPECT_TRUE(send_stream(conns[i].cli.get(), 100 + i, len)) << i;
        EXPECT_EQ(rx.get(), "") << i;
    }
}

// The sendmsg pieces every UMS connection of the guest left corked in its
// send buffer so far (ums.ko's debugfs: "corked N" on each connection's
// line).
uint64_t corked_total()
{
    std::istringstream links(read_file("/sys/kernel/debug/ums/links"));
    std::string word;
    uint64_t sum = 0;
    while (links >> word)
        if (word == "corked" && links >> word)
            sum += std::stoull(word);
    return sum;
}

// Autocorking: small writes that follow each other while a CDC is on its
// way wait in the send buffer and go together when it completes; every
// byte arrives, in order, and the stream ends where it should.
TEST(UmsSocket, SmallWritesCorkBehindAPendingCdc)
{
    const size_t writes = 20000, each = 100;
    Conn c = connect_one(Kind::kUms, Kind::kUms, kIp4B, false);
    ASSERT_GE(c.srv.get(), 0);
    const uint64_t before = corked_total();
    auto rx = std::async(std::launch::async, [&] { return recv_stream(c.srv.get(), 9, writes * each); });
    std::vector<uint8_t> buf(each);
    for (size_t w = 0; w < writes; w++) {
        for (size_t i = 0; i < each; i++)
            buf[i] = pattern(9, w * each + i);
        ASSERT_TRUE(send_all(c.cli.get(), buf.data(), each)) << "write " << w << ": " << std::strerror(errno);
    }
    EXPECT_EQ(rx.get(), "");
    EXPECT_GT(corked_total(), before) << read_file("/sys/kernel/debug/ums/links");
    ASSERT_EQ(shutdown(c.cli.get(), SHUT_WR), 0);
    char b;
    EXPECT_EQ(recv(c.srv.get(), &b, 1, 0), 0) << "the end of the stream";
    expect_ums(kNsA, c.cli.get());
}

// A non-blocking client driven by epoll: connect in progress, then
// writable; sends past what the buffers hold (EAGAIN, then EPOLLOUT
// again) while the server reads slowly; then the answer by EPOLLIN.
TEST(UmsSocket, NonBlockingWithEpoll)
{
    const size_t n = 4u << 20;  // twice what the send buffer and the RMB hold
    Addr a = next_addr(kIp6B, true);
    Fd l = make_listener(kNsB, Kind::kUms, a);
    ASSERT_GE(l.get(), 0);
    Fd cli = make_socket(kNsA, Kind::kUms, true);
    ASSERT_EQ(fcntl(cli.get(), F_SETFL, O_NONBLOCK), 0);
    char b;
    EXPECT_EQ(recv(cli.get(), &b, 1, 0), -1);  // not connected yet
    sockaddr_storage ss = a.ss();
    int rc = connect(cli.get(), reinterpret_cast<sockaddr *>(&ss), a.len());
    ASSERT_TRUE(rc == 0 || errno == EINPROGRESS) << std::strerror(errno);
    Fd srv(accept4(l.get(), nullptr, nullptr, SOCK_CLOEXEC));
    ASSERT_GE(srv.get(), 0);
    Fd ep(epoll_create1(EPOLL_CLOEXEC));
    epoll_event ev{};
    ev.events = EPOLLOUT;
    ASSERT_EQ(epoll_ctl(ep.get(), EPOLL_CTL_ADD, cli.get(), &ev), 0);
    ASSERT_EQ(epoll_wait(ep.get(), &ev, 1, 30000), 1);
    int err = -1;
    socklen_t el = sizeof(err);
    ASSERT_EQ(getsockopt(cli.get(), SOL_SOCKET, SO_ERROR, &err, &el), 0);
    ASSERT_EQ(err, 0);
    EXPECT_EQ(recv(cli.get(), &b, 1, 0), -1);
    EXPECT_EQ(errno, EAGAIN);
    expect_ums(kNsA, cli.get());
    // connect again to learn the result (hiredis does): TCP's answer, not
    // a second handshake on the connection (whose Proposal the peer would
    // take for data)
    EXPECT_EQ(connect(cli.get(), reinterpret_cast<sockaddr *>(&ss), a.len()), -1);
    EXPECT_EQ(errno, EISCONN) << std::strerror(errno);

    auto rx = std::async(std::launch::async, [&] {
        std::this_thread::sleep_for(std::chrono::milliseconds(500));
        std::string r = recv_stream(srv.get(), 7, n);
        if (r.empty() && !send_all(srv.get(), "done", 4))
            r = "the answer";
        return r;
    });
    std::vector<uint8_t> buf(n);
    for (size_t i = 0; i < n; i++)
        buf[i] = pattern(7, i);
    size_t off = 0, eagain = 0;
    while (off < n) {
        ssize_t k = send(cli.get(), buf.data() + off, n - off, MSG_NOSIGNAL);
        if (k > 0) {
            off += static_cast<size_t>(k);
            continue;
        }
        ASSERT_EQ(k, -1);
        ASSERT_EQ(errno, EAGAIN) << std::strerror(errno);
        eagain++;
        ASSERT_EQ(epoll_wait(ep.get(), &ev, 1, 30000), 1) << "not writable again in 30 s";
    }
    EXPECT_GT(eagain, 0u) << "4 MiB went without the buffers ever filling";
    ev.events = EPOLLIN;
    ASSERT_EQ(epoll_ctl(ep.get(), EPOLL_CTL_MOD, cli.get(), &ev), 0);
    ASSERT_EQ(epoll_wait(ep.get(), &ev, 1, 60000), 1);
    char done[4];
    EXPECT_EQ(recv(cli.get(), done, sizeof(done), 0), 4);
    EXPECT_EQ(std::string(done, 4), "done");
    EXPECT_EQ(rx.get(), "");
}

// TCP_NODELAY, SO_RCVTIMEO, poll, FIONREAD, SIOCOUTQ and MSG_PEEK.
TEST(UmsSocket, SocketOptionsPeekAndReadiness)
{
    Conn c = connect_one(Kind::kUms, Kind::kUms, kIp4B, false);
    ASSERT_GE(c.srv.get(), 0);
    int one = 1, v = 0;
    socklen_t vl = sizeof(v);
    ASSERT_EQ(setsockopt(c.cli.get(), IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one)), 0);
    ASSERT_EQ(getsockopt(c.cli.get(), IPPROTO_TCP, TCP_NODELAY, &v, &vl), 0);
    EXPECT_EQ(v, 1);
    timeval tv{0, 300000};
    ASSERT_EQ(setsockopt(c.cli.get(), SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)), 0);
    auto t0 = std::chrono::steady_clock::now();
    char b[8];
    EXPECT_EQ(recv(c.cli.get(), b, 1, 0), -1);
    EXPECT_TRUE(errno == EAGAIN || errno == EWOULDBLOCK) << std::strerror(errno);
    EXPECT_GE(std::chrono::steady_clock::now() - t0, std::chrono::milliseconds(250));
    pollfd p{c.cli.get(), POLLIN, 0};
    EXPECT_EQ(poll(&p, 1, 0), 0);
    ASSERT_TRUE(send_all(c.srv.get(), "hello", 5));
    ASSERT_EQ(poll(&p, 1, 30000), 1);
    EXPECT_TRUE(p.revents & POLLIN);
    EXPECT_TRUE(ub_itest::wait_for(
        [&] {
            int nread = -1;
            return ioctl(c.cli.get(), FIONREAD, &nread) == 0 && nread == 5;
        },
        5000));
    EXPECT_EQ(recv(c.cli.get(), b, 5, MSG_PEEK), 5);
    EXPECT_EQ(std::string(b, 5), "hello");
    EXPECT_EQ(recv(c.cli.get(), b, 5, 0), 5);
    EXPECT_EQ(std::string(b, 5), "hello");
    int outq = -1;
    EXPECT_TRUE(ub_itest::wait_for([&] { return ioctl(c.srv.get(), TIOCOUTQ, &outq) == 0 && outq == 0; }, 5000))
        << "SIOCOUTQ " << outq;
}

// Each end may shut down or close first, in each direction; what the other
// sees is TCP's.
TEST(UmsSocket, ShutdownAndCloseInEveryOrder)
{
    char b[8];
    {
        SCOPED_TRACE("client SHUT_WR first, the server answers, then closes");
        Conn c = connect_one(Kind::kUms, Kind::kUms, kIp4B, false);
        ASSERT_GE(c.srv.get(), 0);
        ASSERT_TRUE(send_all(c.cli.get(), "req", 3));
        ASSERT_EQ(shutdown(c.cli.get(), SHUT_WR), 0);
        ASSERT_TRUE(recv_all(c.srv.get(), b, 3));
        EXPECT_EQ(recv(c.srv.get(), b, 1, 0), 0);
        EXPECT_EQ(send(c.cli.get(), "x", 1, MSG_NOSIGNAL), -1);
        EXPECT_EQ(errno, EPIPE);
        ASSERT_TRUE(send_all(c.srv.get(), "ans", 3));
        c.srv.reset();
        ASSERT_TRUE(recv_all(c.cli.get(), b, 3));
        EXPECT_EQ(std::string(b, 3), "ans");
        EXPECT_EQ(recv(c.cli.get(), b, 1, 0), 0);
    }
    {
        SCOPED_TRACE("server SHUT_WR first, the client still sends, then closes");
        Conn c = connect_one(Kind::kUms, Kind::kUms, kIp6B, true);
        ASSERT_GE(c.srv.get(), 0);
        ASSERT_EQ(shutdown(c.srv.get(), SHUT_WR), 0);
        EXPECT_EQ(recv(c.cli.get(), b, 1, 0), 0);
        ASSERT_TRUE(send_all(c.cli.get(), "more", 4));
        ASSERT_TRUE(recv_all(c.srv.get(), b, 4));
        EXPECT_EQ(std::string(b, 4), "more");
        c.cli.reset();
        EXPECT_EQ(recv(c.srv.get(), b, 1, 0), 0);
    }
    {
        SCOPED_TRACE("both SHUT_RDWR at once");
        Conn c = connect_one(Kind::kUms, Kind::kUms, kIp4B, false);
        ASSERT_GE(c.srv.get(), 0);
        auto other = std::async(std::launch::async, [&] { return shutdown(c.srv.get(), SHUT_RDWR); });
        EXPECT_EQ(shutdown(c.cli.get(), SHUT_RDWR), 0);
        EXPECT_EQ(other.get(), 0);
        EXPECT_EQ(recv(c.cli.get(), b, 1, 0), 0);
        EXPECT_EQ(recv(c.srv.get(), b, 1, 0), 0);
    }
    for (bool client_closes : {true, false}) {
        SCOPED_TRACE(client_closes ? "the client closes while the server waits in recv"
                                   : "the server closes while the client waits in recv");
        Conn c = connect_one(Kind::kUms, Kind::kUms, kIp4B, false);
        ASSERT_GE(c.srv.get(), 0);
        Fd &closer = client_closes ? c.cli : c.srv;
        int waiter = client_closes ? c.srv.get() : c.cli.get();
        auto r = std::async(std::launch::async, [&] { return recv(waiter, b, 1, 0); });
        EXPECT_EQ(r.wait_for(std::chrono::milliseconds(200)), std::future_status::timeout);
        closer.reset();
        EXPECT_EQ(r.get(), 0);
    }
}

// splice(2) both ways over UMS: the receiver splices the socket into a
// pipe and reads the pipe, the sender splices a pipe into the socket; a
// non-blocking splice with nothing to read says EAGAIN, the peer's close
// ends a splice with 0. Every byte checked, both ends stay on UMS.
TEST(UmsSocket, SpliceBothWays)
{
    const size_t n = ub_itest::check_long() ? 32u << 20 : 2u << 20;
    Conn c = connect_one(Kind::kUms, Kind::kUms, kIp4B, false);
    ASSERT_GE(c.srv.get(), 0);
    int in[2], out[2];
    ASSERT_EQ(pipe(in), 0);
    Fd in_r(in[0]), in_w(in[1]);
    ASSERT_EQ(pipe(out), 0);
    Fd out_r(out[0]), out_w(out[1]);
    EXPECT_EQ(splice(c.srv.get(), nullptr, out_w.get(), nullptr, 4096, SPLICE_F_NONBLOCK), -1);
    EXPECT_EQ(errno, EAGAIN);

    // chunks of varying sizes, each within the pipe's 64 KiB
    auto tx = std::async(std::launch::async, [&] {
        std::vector<uint8_t> buf(32768);
        for (uint64_t off = 0; off < n;) {
            size_t len = std::min<size_t>(n - off, 1 + (off * 7919) % buf.size());
            for (size_t i = 0; i < len; i++)
                buf[i] = pattern(3, off + i);
            if (write(in_w.get(), buf.data(), len) != static_cast<ssize_t>(len))
                return std::string("write to the pipe: ") + std::strerror(errno);
            for (size_t left = len; left;) {
                ssize_t k = splice(in_r.get(), nullptr, c.cli.get(), nullptr, left, SPLICE_F_MORE);
                if (k <= 0)
                    return "splice into the socket after " + std::to_string(off) + " bytes: " +
                           (k < 0 ? std::strerror(errno) : "0");
                left -= static_cast<size_t>(k);
            }
            off += len;
        }
        return std::string();
    });
    std::vector<uint8_t> buf(65536);
    for (uint64_t off = 0; off < n;) {
        ssize_t k = splice(c.srv.get(), nullptr, out_w.get(), nullptr, std::min<size_t>(buf.size(), n - off), 0);
        ASSERT_GT(k, 0) << "splice out of the socket after " << off << " bytes: " << std::strerror(errno);
        // a pipe hands over what was spliced into it in one read
        ASSERT_EQ(read(out_r.get(), buf.data(), static_cast<size_t>(k)), k) << std::strerror(errno);
        for (ssize_t i = 0; i < k; i++)
            ASSERT_EQ(buf[i], pattern(3, off + i)) << "byte " << off + i;
        off += static_cast<uint64_t>(k);
    }
    EXPECT_EQ(tx.get(), "");
    expect_ums(kNsA, c.cli.get());
    expect_ums(kNsB, c.srv.get());
    c.cli.reset();
    EXPECT_EQ(splice(c.srv.get(), nullptr, out_w.get(), nullptr, 4096, 0), 0);
}

// Closing with data unread aborts, as TCP resets: the peer's next
// receive or send fails with ECONNRESET, in the middle of its stream.
TEST(UmsSocket, AbortMidStream)
{
    Conn c = connect_one(Kind::kUms, Kind::kUms, kIp4B, false);
    ASSERT_GE(c.srv.get(), 0);
    std::atomic<bool> stop{false};
    auto tx = std::async(std::launch::async, [&] {
        std::vector<uint8_t> buf(16384, 0x5a);
        while (!stop) {
            if (send(c.cli.get(), buf.data(), buf.size(), MSG_NOSIGNAL) < 0)
                return errno;
        }
        return 0;
    });
    std::vector<uint8_t> got(65536);
    ASSERT_TRUE(recv_all(c.srv.get(), got.data(), got.size()));
    EXPECT_TRUE(ub_itest::wait_for(
        [&] {
            int nread = 0;
            return ioctl(c.srv.get(), FIONREAD, &nread) == 0 && nread > 0;
        },
        5000));
    c.srv.reset();  // with the client's data unread
    ASSERT_EQ(tx.wait_for(std::chrono::seconds(30)), std::future_status::ready) << "the sender never learnt";
    int err = tx.get();
    EXPECT_TRUE(err == ECONNRESET || err == EPIPE) << std::strerror(err);
    char b;
    EXPECT_EQ(recv(c.cli.get(), &b, 1, 0), -1);
    stop = true;
}

// Fallback: an AF_SMC client to a TCP server and a TCP client to an AF_SMC
// server move their data over TCP, and the AF_SMC end says why; two AF_SMC
// ends in one namespace (loopback) fall back as LOCAL. Each namespace's
// counters by reason move by exactly these.
TEST(UmsSocket, FallbackToTcpMovesTheSameData)
{
    using Counts = std::map<unsigned, std::pair<long, long>>;
    const unsigned kPeerDecl = 0x05000000;  // the client learns the server declined
    const Counts a0 = fallbacks(kNsA), b0 = fallbacks(kNsB);
    struct Case {
        const char *name;
        Kind cli, srv;
        std::string ns, ip;
        bool v6;
    } cases[] = {
        {"AF_SMC client, TCP server", Kind::kUms, Kind::kTcp, kNsB, kIp4B, false},
        {"TCP client, AF_SMC server (IPv6)", Kind::kTcp, Kind::kUms, kNsB, kIp6B, true},
    };
    for (const auto &k : cases) {
        SCOPED_TRACE(k.name);
        Conn c = connect_one(k.cli, k.srv, k.ip, k.v6);
        ASSERT_GE(c.srv.get(), 0);
        auto rx = std::async(std::launch::async, [&] { return recv_stream(c.srv.get(), 3, 1u << 20); });
        EXPECT_TRUE(send_stream(c.cli.get(), 3, 1u << 20));
        EXPECT_EQ(rx.get(), "");
        if (k.cli == Kind::kUms)
            expect_fallback(kNsA, c.cli.get(), kPeerNoUms);
        else
            expect_fallback(kNsB, c.srv.get(), kPeerNoUms);
    }
    SCOPED_TRACE("both ends in uboeA over loopback");
    Addr a = next_addr("127.0.0.1", false);
    Fd l = make_listener(kNsA, Kind::kUms, a);
    ASSERT_GE(l.get(), 0);
    Fd cli = make_socket(kNsA, Kind::kUms, false);
    ASSERT_TRUE(connect_to(cli, a)) << std::strerror(errno);
    Fd srv(accept4(l.get(), nullptr, nullptr, SOCK_CLOEXEC));
    ASSERT_GE(srv.get(), 0);
    ASSERT_TRUE(send_all(cli.get(), "local", 5));
    char b[5];
    ASSERT_TRUE(recv_all(srv.get(), b, 5));
    expect_fallback(kNsA, cli.get(), kLocal);
    // the loopback server hears the client's decline (LOCAL)
    EXPECT_EQ(moved(a0, fallbacks(kNsA)), (Counts{{kPeerNoUms, {1, 0}}, {kLocal, {1, 0}}, {kPeerDecl, {0, 1}}}));
    EXPECT_EQ(moved(b0, fallbacks(kNsB)), (Counts{{kPeerNoUms, {0, 1}}}));
}

// Connecting where nothing listens is refused, blocking or not.
TEST(UmsSocket, ConnectRefused)
{
    Addr a = next_addr(kIp4B, false);
    Fd s = make_socket(kNsA, Kind::kUms, false);
    bool ok = connect_to(s, a);
    int e = errno;
    EXPECT_FALSE(ok);
    EXPECT_EQ(e, ECONNREFUSED) << std::strerror(e);
    Fd n = make_socket(kNsA, Kind::kUms, false);
    ASSERT_EQ(fcntl(n.get(), F_SETFL, O_NONBLOCK), 0);
    sockaddr_storage ss = a.ss();
    int rc = connect(n.get(), reinterpret_cast<sockaddr *>(&ss), a.len());
    ASSERT_EQ(rc, -1);
    ASSERT_EQ(errno, EINPROGRESS);
    pollfd p{n.get(), POLLOUT, 0};
    ASSERT_EQ(poll(&p, 1, 30000), 1);
    EXPECT_TRUE(p.revents & POLLERR);
    int err = 0;
    socklen_t el = sizeof(err);
    ASSERT_EQ(getsockopt(n.get(), SOL_SOCKET, SO_ERROR, &err, &el), 0);
    EXPECT_EQ(err, ECONNREFUSED);
}

}  // namespace
