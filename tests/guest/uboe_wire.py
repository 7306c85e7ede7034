#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The UB/URMA stack authors
"""UBoE receive path against hostile datagrams, between two namespaces.

Run by tests/guest/cases/udma-uboe-wire.sh once the namespaces uboeA and
uboeB exist, joined by the veth pair vA (10.77.0.1, fd77::1) / vB
(10.77.0.2, fd77::2), with udmaA on vA and udmaB on vB (lib.sh's namespace
pair). Sends, from plain UDP sockets of uboeA to the
UBoE port of uboeB, one packet of every malformed kind and some valid ones,
over IPv4 and IPv6, and checks that every counter of udmaB's wire/ (and of
uboeB's /proc/net/udma_uboe) moved by exactly what was sent.

The packet bytes are built here from the layout of include/uapi/ub/uboe_wire.h
(offsets and values written out below), not with the kernel's codec, so the
test does not check the codec against itself.
"""
import argparse
import ctypes
import os
import socket
import struct
import sys
import time

CLONE_NEWNET = 0x40000000
SO_NO_CHECK = 11

# The counters of /sys/class/ubcore/<dev>/wire/ (docs/uboe-wire.md).
DROPS = ["truncated", "len_mismatch", "bad_version", "no_icrc", "bad_icrc",
         "reserved_set", "unknown_tp_opcode", "bad_tp_flags", "bad_tpn",
         "bad_syndrome", "bad_ta_version", "unknown_ta_opcode",
         "ta_opcode_for_tp", "bad_field", "bad_status", "ext_missing",
         "ext_unexpected", "bad_segment", "payload_len", "bad_mgmt_version",
         "unknown_mgmt_type", "unknown_tpn", "eid_not_here", "mgmt_body_len",
         "mgmt_body_version", "mgmt_eid_mismatch", "mgmt_refused"]
OTHERS = ["rx_packets", "rx_bytes", "rx_trains", "rx_linearized",
          "rx_scattered", "mgmt_rx", "mgmt_tx", "tx_packets",
          "tx_bytes", "tx_errors", "rx_queue_full", "rsp_no_sq",
          "tx_msg_too_big", "tx_no_tp",
          # the reliable transport of TPs (udma/uboe_rtp.c)
          "rtp_retransmits", "rtp_dup_drops", "rtp_out_of_seq",
          "rtp_out_of_window", "rtp_nak_tx", "rtp_nak_rx", "rtp_ack_tx",
          "rtp_ack_rx", "rtp_ack_timeouts", "rtp_closed_drops",
          "rtp_paced", "tx_fault_drops", "tx_route_lookups",
          "tx_zerocopy"]

# uboe_wire.h
WIRE_VERSION = 1
TP_RTP_DATA, TP_UTP_DATA, TP_ACK = 0x01, 0x02, 0x03
F_FIRST, F_LAST, F_EID, F_ICRC = 0x40000000, 0x20000000, 0x10000000, 0x08000000
F_RSVD_BIT = 0x01000000
TA_MANAGEMENT, TA_TAACK = 0x10, 0x11
EXT_MGMTETAH = 0x0080
MGMT_VERSION, MGMT_CONN_REQ, MGMT_CONN_ACK = 1, 1, 3
BODY_VERSION, TM_RM = 1, 0x1

libc = ctypes.CDLL(None, use_errno=True)


def fail(msg):
    print("FAIL: " + msg, file=sys.stderr)
    sys.exit(1)


def setns(name):
    fd = os.open("/run/netns/" + name, os.O_RDONLY)
    try:
        if libc.setns(fd, CLONE_NEWNET) != 0:
            fail("setns %s: %s" % (name, os.strerror(ctypes.get_errno())))
    finally:
        os.close(fd)


def mount_sysfs(path):
    """A sysfs mounted now shows the devices of the current namespace."""
    os.makedirs(path, exist_ok=True)
    if libc.mount(b"sysfs", path.encode(), b"sysfs", 0, None) != 0:
        fail("mount sysfs on %s: %s" % (path, os.strerror(ctypes.get_errno())))


def crc32c(data):
    """CRC32C (Castagnoli, reflected, init and final xor 0xffffffff)."""
    crc = 0xffffffff
    for b in data:
        crc ^= b
        for _ in range(8):
            crc = (crc >> 1) ^ (0x82F63B78 & -(crc & 1))
    return crc ^ 0xffffffff


def eid4(addr):
    return bytes(10) + b"\xff\xff" + socket.inet_aton(addr)


def eid6(addr):
    return socket.inet_pton(socket.AF_INET6, addr)


def tph(opcode, flags, dtpn=0, stpn=0, psn=0, ver=WIRE_VERSION << 4):
    # ver 1, opcode 1, pkt_len 2 (set by finish()), flags|dtpn 4, stpn 4, psn 4
    return struct.pack(">BBHIII", ver, opcode, 0, flags | dtpn, stpn, psn)


def finish(pkt, icrc=False, pkt_len=None):
    """Set TPH pkt_len (the whole packet, ICRC included) and add the ICRC."""
    pkt = bytearray(pkt)
    total = len(pkt) + (4 if icrc else 0)
    struct.pack_into(">H", pkt, 2, total if pkt_len is None else pkt_len)
    if icrc:
        pkt += struct.pack(">I", crc32c(bytes(pkt)))
    return bytes(pkt)


def body(src, dst, version=BODY_VERSION):
    """A struct uboe_mgmt_body (56 bytes) of a CONN_ACK: RM, source TPN 1,
    destination TPN 0x7777 (no TP of udmaB has it: ubcore drops it after
    udma took it, and answers nothing)."""
    return struct.pack(">BBBBIIIII16s16s", version, TM_RM, 0, 0, 1, 0x7777,
                       0, 0, 0, src, dst)


def mgmt(src, dst, body_=None, mtype=MGMT_CONN_ACK, mver=MGMT_VERSION,
         ta_opcode=TA_MANAGEMENT, ext=EXT_MGMTETAH, btah_rsvd=0,
         tp_opcode=TP_UTP_DATA, flags=0, ver=WIRE_VERSION << 4, icrc=False,
         stpn=0):
    """A management message: TPH (ONLY, EIDH), EIDH, BTAH, MGMTETAH, body
    (a valid one for src and dst unless given)."""
    if body_ is None:
        body_ = body(src, dst)
    f = F_FIRST | F_LAST | F_EID | flags | (F_ICRC if icrc else 0)
    # BTAH: opcode 1, flags 1 (TAver 0), INI_TASSN 2, ODR/RC 4, ext 2, rsvd 2
    btah = struct.pack(">BBHIHH", ta_opcode, 0, 0, 0, ext, btah_rsvd)
    # MGMTETAH: version 1, type 1, body_len 2, msg_id 4
    mh = struct.pack(">BBHI", mver, mtype, len(body_), 0x1234)
    return finish(tph(tp_opcode, f, stpn=stpn, ver=ver) + src + dst + btah +
                  mh + body_, icrc=icrc)


def taack(dtpn=5, stpn=7):
    """A TAACK response on an RTP (ONLY): TPH and ATAH, no payload."""
    # ATAH: opcode 1, flags 1, INI_TASSN 2, RSPST/RSPINFO/RC 4, ext 2, rsvd 2
    atah = struct.pack(">BBHIHH", TA_TAACK, 0, 1, 0, 0, 0)
    return finish(tph(TP_RTP_DATA, F_FIRST | F_LAST, dtpn, stpn, psn=1) + atah)


def ack(dtpn=5, stpn=7):
    """A cumulative ACK: TPH (no F, L) and TPACKH (syndrome 0, window 16)."""
    return finish(tph(TP_ACK, 0, dtpn, stpn, psn=1) + struct.pack(">BBH", 0, 0, 16))


class Dev:
    def __init__(self, sysfs, name):
        self.dir = "%s/class/ubcore/%s" % (sysfs, name)

    def eids(self):
        out = []
        d = self.dir + "/eids"
        for f in os.listdir(d) if os.path.isdir(d) else []:
            with open(os.path.join(d, f)) as fh:
                out.append(fh.read().strip())
        return out

    def wire(self):
        d = self.dir + "/wire"
        out = {}
        for f in os.listdir(d):
            with open(os.path.join(d, f)) as fh:
                out[f] = int(fh.read())
        return out


def ns_drops():
    """/proc/net/udma_uboe of the namespace this process is in now."""
    out = {}
    with open("/proc/self/net/udma_uboe") as fh:
        for line in fh:
            name, value = line.split()
            out[name] = int(value)
    return out


def wait_for(what, cond, timeout=15.0):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if cond():
            return
        time.sleep(0.05)
    fail("timed out waiting for " + what)


def run_round(family, dev, send, src, dst, other):
    """Send every case once; check the counters moved by exactly that."""
    v = "IPv4" if family == socket.AF_INET else "IPv6"
    good = mgmt(src, dst)
    cases = []  # (label, bytes, expected counter changes)

    def drop(label, pkt, reason):
        cases.append((label, pkt, {reason: 1}))

    # Truncated at every offset up to the end of the MGMTETAH (68 bytes):
    # TPH 16, EIDH 32, BTAH 12, MGMTETAH 8, with pkt_len saying so (a
    # datagram shorter than the TPH cannot say anything).
    hdrs = 16 + 32 + 12 + 8
    for k in range(hdrs):
        p = good[:k]
        if k >= 4:
            p = finish(p)
        drop("truncated at %d" % k, p, "truncated")
    drop("pkt_len one more", finish(good, pkt_len=len(good) + 1), "len_mismatch")
    drop("pkt_len one less", finish(good, pkt_len=len(good) - 1), "len_mismatch")
    drop("4 bytes after pkt_len", good + bytes(4), "len_mismatch")
    drop("version 2", mgmt(src, dst, ver=2 << 4), "bad_version")
    drop("TPH reserved nibble", mgmt(src, dst, ver=(WIRE_VERSION << 4) | 1),
         "reserved_set")
    drop("TPH reserved flag", mgmt(src, dst, flags=F_RSVD_BIT), "reserved_set")
    drop("BTAH reserved", mgmt(src, dst, btah_rsvd=1), "reserved_set")
    drop("BTAH ext reserved", mgmt(src, dst, ext=EXT_MGMTETAH | 0x0100),
         "reserved_set")
    drop("TP opcode 7", mgmt(src, dst, tp_opcode=7), "unknown_tp_opcode")
    drop("TAOpcode 0x02", mgmt(src, dst, ta_opcode=0x02), "unknown_ta_opcode")
    drop("TAOpcode 0x14", mgmt(src, dst, ta_opcode=0x14), "unknown_ta_opcode")
    drop("MGMTETAH version 2", mgmt(src, dst, mver=2), "bad_mgmt_version")
    drop("management type 11", mgmt(src, dst, mtype=11), "unknown_mgmt_type")
    drop("UTP with a source TPN", mgmt(src, dst, stpn=3), "bad_tpn")
    bad = bytearray(mgmt(src, dst, icrc=True))
    bad[-1] ^= 0x01
    drop("ICRC off by one bit", bytes(bad), "bad_icrc")
    bad = bytearray(mgmt(src, dst, icrc=True))
    bad[-5] ^= 0x80
    drop("a body bit flipped under the ICRC", bytes(bad), "bad_icrc")
    drop("unknown TPN (TAACK)", taack(), "unknown_tpn")
    drop("unknown TPN (ACK)", ack(), "unknown_tpn")
    drop("destination EID not here", mgmt(src, other), "eid_not_here")
    # Decoded, delivered (mgmt_rx), then refused by udma's body check.
    for label, p, reason in (
            ("an 8-byte body", mgmt(src, dst, body_=b"conn-ack"), "mgmt_body_len"),
            ("an empty body", mgmt(src, dst, body_=b""), "mgmt_body_len"),
            ("a 57-byte body", mgmt(src, dst, body_=body(src, dst) + b"\0"),
             "mgmt_body_len"),
            ("body version 2", mgmt(src, dst, body_=body(src, dst, version=2)),
             "mgmt_body_version"),
            ("body from another EID", mgmt(src, dst, body_=body(other, dst)),
             "mgmt_eid_mismatch"),
            ("body to another EID", mgmt(src, dst, body_=body(src, other)),
             "mgmt_eid_mismatch")):
        cases.append((label, p, {"mgmt_rx": 1, reason: 1}))
    accepted = [good, mgmt(src, dst, icrc=True)]
    for p in accepted:
        cases.append(("valid management", p, {"mgmt_rx": 1}))
    # Delivered to udmaB: counted in rx_packets and rx_bytes, whatever the
    # dispatch point does with them after.
    delivered = [p for _, p, e in cases if "mgmt_rx" in e or "unknown_tpn" in e]

    want = {k: 0 for k in DROPS + OTHERS}
    for _, _, e in cases:
        for k, n in e.items():
            want[k] += n
    want["rx_packets"] = len(delivered)
    want["rx_bytes"] = sum(len(p) for p in delivered)
    want_ns = {k: 0 for k in DROPS}
    want_ns["eid_not_here"] = want["eid_not_here"]

    before, before_ns = dev.wire(), ns_drops()
    for label, pkt, _ in cases:
        send(pkt)
    total = len(cases)
    landings = sum(want[k] for k in DROPS + ["mgmt_rx"])

    def seen():
        # every packet lands in a drop reason or mgmt_rx, or both
        now = dev.wire()
        return sum(now[k] - before[k] for k in DROPS + ["mgmt_rx"]) >= landings
    wait_for("%s: %d packets counted" % (v, total), seen)
    time.sleep(0.2)  # nothing more may come
    after, after_ns = dev.wire(), ns_drops()
    errors = []
    for k in DROPS + OTHERS:
        if after[k] - before[k] != want[k]:
            errors.append("%s moved by %d, want %d" % (k, after[k] - before[k], want[k]))
    for k in DROPS:
        if after_ns[k] - before_ns[k] != want_ns[k]:
            errors.append("namespace %s moved by %d, want %d" %
                          (k, after_ns[k] - before_ns[k], want_ns[k]))
    if errors:
        fail("%s: %s" % (v, "; ".join(errors)))
    print("%s: %d packets, each in its own counter: %s" %
          (v, total, ", ".join("%s %d" % (k, n) for k, n in want.items() if n)))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--port", type=int, default=4792)
    args = ap.parse_args()

    if crc32c(b"123456789") != 0xE3069283:  # the CRC32C check value
        fail("the test's own CRC32C is wrong")

    setns("uboeA")
    s4 = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s4nocsum = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s4nocsum.setsockopt(socket.SOL_SOCKET, SO_NO_CHECK, 1)
    s6 = socket.socket(socket.AF_INET6, socket.SOCK_DGRAM)
    setns("uboeB")
    mount_sysfs("/run/uboe-sysB")
    try:
        dev = Dev("/run/uboe-sysB", "udmaB")
        wire = dev.wire()
        if sorted(wire) != sorted(DROPS + OTHERS):
            fail("wire/ holds %s" % sorted(wire))
        wait_for("udmaB's EIDs",
                 lambda: {"10.77.0.2", "fd77::2"} <= set(dev.eids()))

        def send4(p, s=s4):
            s.sendto(p, ("10.77.0.2", args.port))

        def send6(p):
            s6.sendto(p, ("fd77::2", args.port))

        a4, b4 = eid4("10.77.0.1"), eid4("10.77.0.2")
        a6, b6 = eid6("fd77::1"), eid6("fd77::2")
        # The receive path learns the EIDs from a work item after ubcore's
        # event: probe until a valid message is taken.
        for send, src, dst in ((send4, a4, b4), (send6, a6, b6)):
            start = dev.wire()["mgmt_rx"]

            def probe():
                send(mgmt(src, dst))
                time.sleep(0.1)
                return dev.wire()["mgmt_rx"] > start
            wait_for("a first valid message", probe)

        run_round(socket.AF_INET, dev, send4, a4, b4, eid4("10.77.0.99"))
        # IPv4 without a UDP checksum (SO_NO_CHECK): only with an ICRC
        before = dev.wire()
        send4(mgmt(a4, b4), s4nocsum)
        send4(mgmt(a4, b4, icrc=True), s4nocsum)
        wait_for("the packets without UDP checksum",
                 lambda: dev.wire()["no_icrc"] - before["no_icrc"] +
                 dev.wire()["mgmt_rx"] - before["mgmt_rx"] >= 2)
        time.sleep(0.2)
        after = dev.wire()
        got = {k: after[k] - before[k] for k in after if after[k] != before[k]}
        want = {"no_icrc": 1, "mgmt_rx": 1, "rx_packets": 1,
                "rx_bytes": len(mgmt(a4, b4, icrc=True))}
        if got != want:
            fail("IPv4 without UDP checksum: %s, want %s" % (got, want))
        print("IPv4 without UDP checksum: without an ICRC dropped, with one taken")
        run_round(socket.AF_INET6, dev, send6, a6, b6, eid6("fd77::99"))
    finally:
        libc.umount2(b"/run/uboe-sysB", 0)


if __name__ == "__main__":
    main()
