#!/usr/bin/env python3
"""TCP ping-pong latency, over IPv4 or IPv6: sockperf's ping-pong in small.

The Debian 12 sockperf (3.7) takes IPv4 addresses only, and IPoURMA is
IPv6 only; this measures the same thing on both: one client sends a
MSG-byte message (TCP_NODELAY), the server echoes it, N times; it prints the
half round trip (sockperf's "latency") in microseconds: average, 50th,
99th percentile and the maximum. Every echo is checked against what was
sent.

  pingpong.py server ADDR PORT
  pingpong.py client ADDR PORT [-n N] [-m MSG] [-s SRC] [-w WARMUP]
"""
import argparse
import socket
import statistics
import time


def recv_exact(sock, n):
    buf = bytearray()
    while len(buf) < n:
        b = sock.recv(n - len(buf))
        if not b:
            raise ConnectionError("peer closed after %d of %d bytes" % (len(buf), n))
        buf += b
    return bytes(buf)


def family(addr):
    return socket.AF_INET6 if ":" in addr else socket.AF_INET


def server(args):
    s = socket.create_server((args.addr, args.port), family=family(args.addr))
    c, _ = s.accept()
    c.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    # the client's first 4 bytes: the message size
    size = int.from_bytes(recv_exact(c, 4), "big")
    while True:
        b = c.recv(size)
        if not b:
            break
        msg = b + recv_exact(c, size - len(b)) if len(b) < size else b
        c.sendall(msg)
    c.close()


def client(args):
    src = (args.source, 0) if args.source else None
    c = socket.create_connection((args.addr, args.port), source_address=src)
    c.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    c.sendall(args.msg.to_bytes(4, "big"))
    lat = []
    for i in range(args.warmup + args.n):
        msg = (i.to_bytes(8, "big") * (args.msg // 8 + 1))[:args.msg]
        t0 = time.perf_counter_ns()
        c.sendall(msg)
        echo = recv_exact(c, args.msg)
        t1 = time.perf_counter_ns()
        if echo != msg:
            raise ValueError("round trip %d: the echo differs" % i)
        if i >= args.warmup:
            lat.append((t1 - t0) / 2000.0)
    c.close()
    lat.sort()
    print("round_trips %d msg %d" % (len(lat), args.msg))
    print("avg_usec %.3f" % statistics.fmean(lat))
    print("p50_usec %.3f" % lat[len(lat) // 2])
    print("p99_usec %.3f" % lat[min(len(lat) - 1, len(lat) * 99 // 100)])
    print("max_usec %.3f" % lat[-1])


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("role", choices=["server", "client"])
    p.add_argument("addr")
    p.add_argument("port", type=int)
    p.add_argument("-n", type=int, default=1000, help="round trips measured")
    p.add_argument("-m", "--msg", type=int, default=14, help="message bytes (sockperf's TCP minimum: 14)")
    p.add_argument("-s", "--source", help="the client's source address")
    p.add_argument("-w", "--warmup", type=int, default=10, help="round trips not measured")
    args = p.parse_args()
    if args.msg < 1:
        p.error("the message needs at least 1 byte")
    (server if args.role == "server" else client)(args)


if __name__ == "__main__":
    main()
