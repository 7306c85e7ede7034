#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The cross-host table of "make bench" (scripts/bench-pair.sh): URMA over
UBoE, rxe and TCP between two guests on one link, at each MTU the run had,
with the ratios and goals of issue 11. Reads the raw files that
tests/pair/bench-pair.sh left in DIR/mtuN/ (the client guest's), with the
parsers of scripts/bench_table.py.

usage: bench_pair_table.py DIR [--json FILE]
Exits 1 when a figure is missing (a run failed: the table shows "-" and
names it), 0 otherwise, whether the goals are met or not: they are
reported.
"""
import argparse
import json
import re
import sys
from pathlib import Path

from bench_table import (BW_TESTS, LAT_TESTS, Missing, fmt, iperf3_bw,
                         pingpong, ratio, read, rxe, tcp_lat, urma)

LAT_KEYS = ("median", "avg", "p99")


def figure(missing, fn, *args):
    """fn(*args), or None with the reason added to missing."""
    try:
        return fn(*args)
    except (Missing, KeyError, ValueError) as e:
        missing.append(str(e))
        return None


def get(d, key):
    return d.get(key) if d else None


def build(d, missing):
    """One MTU's figures: {"lat"|"bw": {test: {"urma", "rxe"}}, "tcp"}."""
    res = {"lat": {}, "bw": {}}
    for t in LAT_TESTS + BW_TESTS:
        res["lat" if t in LAT_TESTS else "bw"][t] = {
            "urma": figure(missing, urma, d, t), "rxe": figure(missing, rxe, d, t)}
    bw = figure(missing, iperf3_bw, d / "tcp.iperf3.json")
    res["tcp"] = {"bw": bw,
                  "lat8": figure(missing, pingpong, d / "tcp.pp.txt"),
                  "lat14": figure(missing, tcp_lat, d)}
    return res


def per_s(mpps):
    return mpps * 1e6 if mpps is not None else None


def rows(res):
    """(test, bytes, metric, urma, rxe, tcp) for the table."""
    out = []
    tcp = res["tcp"]
    for t in LAT_TESTS:
        r = res["lat"][t]
        t8 = tcp["lat8"] if t in ("write_lat", "send_lat") else None
        for k in LAT_KEYS:
            out.append((t, 8, f"{k} us", get(r["urma"], k), get(r["rxe"], k), get(t8, k)))
    for t in BW_TESTS:
        r = res["bw"][t]
        size = 8 if t.startswith("atomic") else 65536
        tb = tcp["bw"] if t in ("write_bw", "send_bw") else None
        out.append((t, size, "avg MB/s", get(r["urma"], "bw"), get(r["rxe"], "bw"), tb))
        # messages a second: a TCG guest's rates are far below one Mpps
        out.append((t, size, "msg/s", per_s(get(r["urma"], "mpps")), per_s(get(r["rxe"], "mpps")), None))
    return out


def goals(res):
    """(what, ratio, met): met is None for a ratio that is only reported
    and for one that was not measured (ratio None)."""
    def lat(t):
        r = res["lat"][t]
        return ratio(get(r["urma"], "median"), get(r["rxe"], "median"))

    def bw(t, other):
        r = res["bw"][t]
        return ratio(get(r["urma"], "bw"), other if other is not None else get(r["rxe"], "bw"))

    def judge(v, ok):
        return None if v is None else ok(v)

    wr, wt = bw("write_bw", None), ratio(get(res["bw"]["write_bw"]["urma"], "bw"), res["tcp"]["bw"])
    wl, sl = lat("write_lat"), lat("send_lat")
    out = [
        ("write_bw 64 KiB URMA/rxe >= 3", wr, judge(wr, lambda v: v >= 3)),
        ("write_bw 64 KiB URMA/TCP >= 1", wt, judge(wt, lambda v: v >= 1)),
        ("write_lat 8 B median URMA/rxe <= 0.7", wl, judge(wl, lambda v: v <= 0.7)),
        ("send_lat 8 B median URMA/rxe <= 0.7", sl, judge(sl, lambda v: v <= 0.7)),
    ]
    for t in ("read_lat", "atomic_lat"):
        out.append((f"{t} 8 B median URMA/rxe", lat(t), None))
    for t in ("read_bw", "send_bw", "atomic_bw"):
        out.append((f"{t} URMA/rxe", bw(t, None), None))
    return out


def verdict(r, ok):
    if r is None:
        return "not measured"
    return {True: "met", False: "NOT met", None: "reported"}[ok]


def print_mtu(mtu, res, tcp14):
    print(f"MTU {mtu}:")
    hdr = ("test", "bytes", "metric", "URMA", "rxe", "TCP", "URMA/rxe", "URMA/TCP")
    w = (11, 6, 9, 9, 9, 9, 9, 9)

    def line(cells):
        print("  ".join(c.ljust(n) if i < 3 else c.rjust(n)
                        for i, (c, n) in enumerate(zip(cells, w))))
    line(hdr)
    for t, size, metric, u, x, tcp in rows(res):
        line((t, str(size), metric, fmt(u), fmt(x), fmt(tcp), fmt(ratio(u, x)), fmt(ratio(u, tcp))))
    if tcp14:
        print(f"  TCP sockperf ping-pong 14 B (its smallest): median {fmt(tcp14.get('median'))} us, "
              f"avg {fmt(tcp14.get('avg'))} us")
    print("  ratios and goals:")
    for what, r, ok in goals(res):
        print(f"    {what:<40} {fmt(r):>7}  {verdict(r, ok)}")
    print()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("dir", type=Path)
    ap.add_argument("--json", type=Path, help="also write the figures as JSON")
    a = ap.parse_args()
    mtus = sorted(int(m.group(1)) for p in a.dir.glob("mtu*")
                  if (m := re.fullmatch(r"mtu(\d+)", p.name)))
    if not mtus:
        print(f"bench_pair_table: no mtuN directory in {a.dir}", file=sys.stderr)
        return 1
    missing, out = [], {}
    guest = figure(missing, read, a.dir / f"mtu{mtus[0]}" / "guest.txt")
    print(f"make bench, across hosts: {(guest or '?').strip()}")
    print("Two TCG guests joined by one QEMU link; the same sizes and iterations")
    print("for each transport. URMA: urma_perftest over UBoE (udma); rxe:")
    print("perftest's ib_* over soft-RoCE; TCP: iperf3 (64 KiB writes) and")
    print("tests/guest/pingpong.py (8 B, half the round trip). 1 MB = 2^20 bytes;")
    print("latencies in microseconds (write/send: half the round trip, read/atomic:")
    print("post to completion), as perftest reports them. Numbers under TCG are the")
    print("emulator's: compare within one run, not across runs.")
    print()
    for mtu in mtus:
        res = build(a.dir / f"mtu{mtu}", missing)
        print_mtu(mtu, res, res["tcp"]["lat14"])
        res["goals"] = [{"goal": g, "ratio": r, "met": ok} for g, r, ok in goals(res)]
        out[f"mtu{mtu}"] = res
    if a.json:
        a.json.write_text(json.dumps(out, indent=1) + "\n")
    if missing:
        print("missing figures (runs that failed):", file=sys.stderr)
        for m in missing:
            print(f"  {m}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
