#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""One end of a UMS test connection (tests/guest/cases/ums-ns-pair.sh).

  ums_peer.py server KIND ADDR PORT COUNT [--expect REASON[/PEER]]
  ums_peer.py client KIND ADDR PORT CMD [--expect REASON[/PEER]]
  ums_peer.py drop KIND ADDR PORT 1
  ums_peer.py reset KIND ADDR PORT 1 [--expect REASON[/PEER]]

KIND is "smc" (socket(AF_SMC, SOCK_STREAM, SMCPROTO_SMC or _SMC6), the
address family of ADDR for the clcsock) or "tcp". The server serves COUNT
connections, one at a time, then exits 0 if every one went well. A
connection starts with a command line from the client:
  "SUM n"  the server reads n bytes and answers their SHA-256 (hex, "\\n").
"reset" serves as "server" but wants its connection to end in a reset
(ECONNRESET), the client's CMD being "RESET" (HOLD, then a recv that
must fail with ECONNRESET). "drop" listens non-blocking (accept: EAGAIN), waits for poll to report a
connection to accept, and closes the listener without accepting it; the
client's CMD "DROPPED" then sees its connection end (EOF or reset).
The client's CMD is "SUM:n" (n random bytes, the answer checked) or "HOLD"
(SUM:1 then wait for stdin to close). With --expect, each end checks its
connection's line in /proc/net/ums (ums6 for IPv6) while the connection is
open: Fallback True and the reason (and the peer's) given, hex; or, with
--expect UMS, Fallback False and the EIDs and jetties of the link. Exit 0
when all held. (The socket API itself is tested by ums_socket_itest.)
"""
import hashlib
import ipaddress
import os
import select
import socket
import sys

AF_SMC = 43


def family(addr):
    return socket.AF_INET6 if ipaddress.ip_address(addr).version == 6 else socket.AF_INET


def make_socket(kind, fam):
    if kind == "tcp":
        return socket.socket(fam, socket.SOCK_STREAM)
    raw = socket.socket(AF_SMC, socket.SOCK_STREAM, 1 if fam == socket.AF_INET6 else 0)
    # Python parses addresses by the object's family: the same fd as one of
    # the IP family (the kernel sees the AF_SMC socket's operations).
    return socket.socket(fam, socket.SOCK_STREAM, 0, raw.detach())


def fail(msg):
    print(f"ums_peer: {msg}", file=sys.stderr)
    sys.exit(1)


def proc_line(sock):
    """The /proc/net/ums{,6} line of sock's connection (by its ports)."""
    fam = sock.family
    lport = sock.getsockname()[1]
    rport = sock.getpeername()[1]
    name = "/proc/net/ums6" if fam == socket.AF_INET6 else "/proc/net/ums"
    with open(name) as f:
        lines = f.read().splitlines()
    for line in lines[1:]:
        w = line.split()
        if w[1].endswith(f":{lport}") and w[2].endswith(f":{rport}"):
            return w
    fail(f"no line for ports {lport}/{rport} in {name}: {lines}")


def check_proc(sock, expect):
    if not expect:
        return
    w = proc_line(sock)
    if expect == "UMS":
        # over UMS: no fallback, both ends of the link named
        if w[3] != "UMS_ACTIVE" or w[4] != "False" or "N/A" in w[5:9]:
            fail(f"not an active UMS connection: {w}")
        return
    reason, _, peer = expect.partition("/")
    # Index SRC DST State Fallback SRC_EID JETTY DST_EID JETTY Reason PeerReason
    if w[3] != "UMS_ACTIVE" or w[4] != "True":
        fail(f"not an active fallback: {w}")
    if int(w[9], 16) != int(reason, 16):
        fail(f"reason {w[9]}, want {reason}: {w}")
    if peer and int(w[10], 16) != int(peer, 16):
        fail(f"peer reason {w[10]}, want {peer}: {w}")


def recv_exact(sock, n):
    buf = bytearray()
    while len(buf) < n:
        b = sock.recv(min(65536, n - len(buf)))
        if not b:
            fail(f"EOF after {len(buf)} of {n} bytes")
        buf += b
    return bytes(buf)


def recv_line(sock):
    line = bytearray()
    while not line.endswith(b"\n"):
        b = sock.recv(1)
        if not b:
            fail("EOF in a line")
        line += b
    return line.decode().strip()


def serve(kind, addr, port, count, expect, reset=False):
    fam = family(addr)
    ls = make_socket(kind, fam)
    ls.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    ls.bind((addr, port))
    ls.listen(64)
    for _ in range(count):
        c, _ = ls.accept()
        with c:
            cmd = recv_line(c).split()
            check_proc(c, expect)
            if cmd[0] == "SUM":
                h = hashlib.sha256()
                left = int(cmd[1])
                while left:
                    b = c.recv(min(65536, left))
                    if not b:
                        fail("EOF in SUM data")
                    h.update(b)
                    left -= len(b)
                c.sendall((h.hexdigest() + "\n").encode())
            else:
                fail(f"bad command {cmd}")
            # until the client closes: it reads /proc/net/ums meanwhile
            try:
                while c.recv(4096):
                    pass
            except ConnectionResetError:
                if not reset:
                    raise
            else:
                if reset:
                    fail("the connection ended without a reset")
    ls.close()


def drop(kind, addr, port):
    ls = make_socket(kind, family(addr))
    ls.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    ls.bind((addr, port))
    ls.listen(8)
    ls.setblocking(False)
    try:
        ls.accept()
        fail("accept on an empty queue returned")
    except BlockingIOError:
        pass
    p = select.poll()
    p.register(ls, select.POLLIN)
    if not p.poll(30000):
        fail("the listener: no POLLIN in 30 s")
    ls.close()


def client_dropped(s, addr, port):
    s.connect((addr, port))
    s.settimeout(30)
    try:
        s.sendall(b"SUM 1\n")
        if s.recv(1) != b"":
            fail("data from a listener that was closed")
    except (ConnectionResetError, BrokenPipeError):
        pass


def client_sum(s, n, expect):
    data = os.urandom(n)
    s.sendall(f"SUM {n}\n".encode())
    s.sendall(data)
    got = recv_line(s)
    if got != hashlib.sha256(data).hexdigest():
        fail(f"SHA-256 {got}, want {hashlib.sha256(data).hexdigest()}")
    check_proc(s, expect)


def client(kind, addr, port, cmd, expect):
    s = make_socket(kind, family(addr))
    with s:
        if cmd == "DROPPED":
            client_dropped(s, addr, port)
            return
        s.connect((addr, port))
        if cmd.startswith("SUM:"):
            client_sum(s, int(cmd[4:]), expect)
        elif cmd in ("HOLD", "RESET"):
            client_sum(s, 1, expect)
            print("holding", flush=True)
            sys.stdin.read()
            if cmd == "RESET":
                try:
                    s.recv(1)
                    fail("no reset: recv returned")
                except ConnectionResetError:
                    pass
        else:
            fail(f"bad command {cmd}")


def main():
    a = sys.argv[1:]
    expect = None
    if "--expect" in a:
        i = a.index("--expect")
        expect = a[i + 1]
        del a[i:i + 2]
    if len(a) != 5 or a[0] not in ("server", "reset", "client", "drop"):
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    if a[0] in ("server", "reset"):
        serve(a[1], a[2], int(a[3]), int(a[4]), expect, a[0] == "reset")
    elif a[0] == "drop":
        drop(a[1], a[2], int(a[3]))
    else:
        client(a[1], a[2], int(a[3]), a[4], expect)


if __name__ == "__main__":
    main()
