#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The table of "make bench": URMA (urma_perftest --json), rxe (perftest's
text output) and TCP (iperf3 --json, sockperf) from one guest run, with the
ratio URMA/rxe, the issue's goals, the local path against memcpy and the
profile summary; then IPoURMA against TCP over its veth (iperf3 --json,
pingpong.py; tests/guest/bench-ipourma.sh), and UMS against TCP on the
namespace pair (iperf3 --json, sockperf; tests/guest/bench-ums.sh), and a
Balance bonding device against one member (urma_perftest --json;
tests/guest/bench-ubagg.sh), and URMA over UBoE between two namespaces
with and without trains against TCP on that veth, with the wire path's
profile (tests/guest/bench-wire.sh). Reads the raw files
tests/guest/bench.sh left in DIR.

usage: bench_table.py DIR [--json FILE] [--only ipourma|ums|ubagg|wire]
Exits 1 when a figure the table needs is missing or unreadable (a failed
run), 0 otherwise, whether the goals are met or not: they are reported.
"""
import argparse
import json
import math
import re
import sys
from pathlib import Path

MIB = float(1 << 20)  # perftest, urma_perftest: 1 MB = 2^20 bytes

LAT_TESTS = ["write_lat", "read_lat", "send_lat", "atomic_lat"]
BW_TESTS = ["write_bw", "read_bw", "send_bw", "atomic_bw"]


class Missing(Exception):
    """A figure the table needs is not in the run's output."""


def read(path):
    try:
        return Path(path).read_text(errors="replace")
    except OSError as e:
        raise Missing(f"{path}: {e.strerror}") from e


def urma(d, test):
    """urma_perftest --json: lat_us{...} or bw_avg_MBps/msg_rate_Mpps."""
    return urma_json(d / f"urma.{test}.json", test)


def urma_json(path, test):
    """One urma_perftest --json output of TEST."""
    try:
        r = json.loads(read(path))
    except json.JSONDecodeError as e:
        raise Missing(f"{path}: not JSON ({e})") from e
    if "results" in r:
        r = r["results"][-1]
    if test.endswith("_lat"):
        lat = r["lat_us"]
        return {k: float(lat[k]) for k in ("min", "median", "avg", "max", "p99", "p99_9")}
    return {"bw": float(r["bw_avg_MBps"]), "peak": float(r["bw_peak_MBps"]),
            "mpps": float(r["msg_rate_Mpps"])}


def _perftest_row(text, path):
    """The numbers of perftest's one result row (after the '#bytes' header)."""
    lines = text.splitlines()
    for i, line in enumerate(lines):
        if line.strip().startswith("#bytes"):
            for row in lines[i + 1:]:
                nums = row.split()
                if nums and nums[0].isdigit():
                    return [float(x) for x in nums]
    raise Missing(f"{path}: no result row")


def rxe(d, test):
    return perftest(d / f"rxe.{test}.txt", test)


def perftest(path, test):
    """One perftest output of TEST (rxe's, RoUB's)."""
    n = _perftest_row(read(path), path)
    if test.endswith("_lat"):
        # #bytes #iterations t_min t_max t_typical t_avg t_stdev p99 p99.9
        if len(n) < 9:
            raise Missing(f"{path}: short latency row")
        return {"min": n[2], "max": n[3], "median": n[4], "avg": n[5],
                "p99": n[7], "p99_9": n[8]}
    # #bytes #iterations BW_peak BW_average MsgRate
    if len(n) < 5:
        raise Missing(f"{path}: short bandwidth row")
    return {"peak": n[2], "bw": n[3], "mpps": n[4]}


def tcp_bw(d):
    path = d / "tcp.iperf3.json"
    try:
        r = json.loads(read(path))
        bps = r["end"]["sum_received"]["bits_per_second"]
    except (json.JSONDecodeError, KeyError) as e:
        raise Missing(f"{path}: no received rate ({e})") from e
    return {"bw": bps / 8 / MIB}


def tcp_lat(d):
    """sockperf ping-pong over the veth: half round trips in usec."""
    return sockperf_lat(d / "tcp.sockperf.txt")


def sockperf_lat(path):
    """sockperf ping-pong: half round trips in usec."""
    text = read(path)
    r = {}
    m = re.search(r"avg-lat(?:ency)?=\s*([\d.]+)", text)
    if m:
        r["avg"] = float(m.group(1))
    for key, pat in (("p99", r"percentile 99\.000 =\s*([\d.]+)"),
                     ("p99_9", r"percentile 99\.900 =\s*([\d.]+)"),
                     ("median", r"percentile 50\.000 =\s*([\d.]+)"),
                     ("max", r"<MAX> observation =\s*([\d.]+)"),
                     ("min", r"<MIN> observation =\s*([\d.]+)")):
        m = re.search(pat, text)
        if m:
            r[key] = float(m.group(1))
    if "median" not in r or "avg" not in r:
        raise Missing(f"{path}: no latency summary")
    return r


def iperf3_bw(path):
    """iperf3 --json: the receiver's rate, MB/s (2^20 bytes)."""
    try:
        r = json.loads(read(path))
        bps = r["end"]["sum_received"]["bits_per_second"]
    except (json.JSONDecodeError, KeyError) as e:
        raise Missing(f"{path}: no received rate ({e})") from e
    return bps / 8 / MIB


def pingpong(path):
    """pingpong.py: half round trips in usec."""
    text = read(path)
    r = {k: float(v) for k, v in re.findall(r"^(\w+)_usec ([\d.]+)$", text, re.M)}
    if "avg" not in r or "p50" not in r:
        raise Missing(f"{path}: no latency summary")
    return {"avg": r["avg"], "median": r["p50"], "p99": r.get("p99")}


# ipourma.ko's trans_mode and the name of its files (bench-ipourma.sh)
IPOURMA_MODES = (("um", "ipourma"), ("rm", "ipourma_rm"))


def ipourma(d):
    """IPoURMA's rows: TCP over ipourma0 in each trans_mode and over its
    veth, same run."""
    veth_bw = iperf3_bw(d / "ipourma.veth.iperf3.json")
    veth_lat = pingpong(d / "ipourma.veth.pp.txt")
    res = {}
    for mode, name in IPOURMA_MODES:
        r = {
            "bw": {"ipourma": iperf3_bw(d / f"{name}.iperf3.json"), "veth": veth_bw},
            "lat": {"ipourma": pingpong(d / f"{name}.pp.txt"), "veth": veth_lat},
            "profile": profile(d, f"{name}_tcp", top=15, kernel_only=True),
        }
        r["bw_ratio"] = ratio(r["bw"]["ipourma"], r["bw"]["veth"])
        r["lat_ratio"] = ratio(r["lat"]["ipourma"]["median"], r["lat"]["veth"]["median"])
        res[mode] = r
    return res


def ipourma_mode_goals(mode, r):
    return [(f"IPoURMA ({mode}) iperf3 TCP >= 0.8x veth TCP", r["bw_ratio"],
             r["bw_ratio"] >= 0.8),
            (f"IPoURMA ({mode}) TCP ping-pong median <= 1.5x veth", r["lat_ratio"],
             r["lat_ratio"] <= 1.5)]


def ipourma_goals(res):
    return [g for mode, _ in IPOURMA_MODES for g in ipourma_mode_goals(mode, res[mode])]


ROUB_TESTS = ("write_lat", "read_lat", "send_lat", "write_bw", "read_bw", "send_bw")


def roub(d, res):
    """perftest over RoUB, next to URMA's and rxe's figures of the same
    tests (res, from build()): the median latency, the average bandwidth."""
    rows = []
    for t in ROUB_TESTS:
        r = perftest(d / f"roub.{t}.txt", t)
        kind, k = ("lat", "median") if t.endswith("_lat") else ("bw", "bw")
        u, x = res[kind][t]["urma"][k], res[kind][t]["rxe"][k]
        over = r[k] - u if kind == "lat" else (1 - r[k] / u) * 100
        rows.append({"test": t, "metric": "median us" if kind == "lat" else "avg MB/s",
                     "roub": r[k], "urma": u, "rxe": x, "overhead": over,
                     "roub_rxe": ratio(r[k], x)})
    return rows


def roub_goals(rows):
    g = []
    for r in rows:
        if r["test"].endswith("_lat"):
            g.append((f"RoUB {r['test']} <= URMA + 1 us", r["overhead"], r["overhead"] <= 1))
        else:
            g.append((f"RoUB {r['test']} overhead <= 10% (%)", r["overhead"], r["overhead"] <= 10))
    return g


def print_roub(rows):
    print("RoUB (perftest through libroub over roub_udma0, on udma0's local path like")
    print("URMA's rows) against urma_perftest on udma0 and rxe, same run. Overhead:")
    print("microseconds over URMA for latencies, percent of URMA's bandwidth lost.")
    w = (10, 9, 8, 8, 8, 9, 9)
    hdr = ("test", "metric", "RoUB", "URMA", "rxe", "overhead", "RoUB/rxe")
    print_row(hdr, w, 2)
    for r in rows:
        cells = (r["test"], r["metric"], fmt(r["roub"]), fmt(r["urma"]), fmt(r["rxe"]),
                 fmt(r["overhead"]), fmt(r["roub_rxe"]))
        print_row(cells, w, 2)
    print("goals:")
    for what, rat, ok in roub_goals(rows):
        print(f"  {what:<42} {fmt(rat):>7}  {'met' if ok else 'NOT met'}")


def ubagg(d):
    """The bonding device's row: write_bw over one member and over Balance."""
    res = {"bw": {w: urma_json(d / f"ubagg.{w}.json", "write_bw")["bw"]
                  for w in ("balance", "single")},
           "rate": read(d / "ubagg.rate").strip()}
    res["ratio"] = ratio(res["bw"]["balance"], res["bw"]["single"])
    return res


def ubagg_goals(r):
    return [("Balance over 2 members >= 1.7x one member", r["ratio"], r["ratio"] >= 1.7)]


def print_ubagg(r):
    print("Bonding (bonding_dev_0 between two namespaces over two veth pairs):")
    print("urma_perftest write_bw, 64 KiB, 4 RC jetties, MB/s, same run; every veth")
    print(f"rate-limited by netem ({r['rate']} each way), so the members' wire, not")
    print("the CPU, is the bottleneck.")
    w = (26, 10, 10, 8)
    cells = ("write_bw 64 KiB MB/s", fmt(r["bw"]["balance"]), fmt(r["bw"]["single"]),
             fmt(r["ratio"]))
    for row in (("metric", "Balance x2", "1 member", "ratio"), cells):
        print_row(row, w, 1)
    print("goals:")
    for what, rat, ok in ubagg_goals(r):
        print(f"  {what:<42} {fmt(rat):>7}  {'met' if ok else 'NOT met'}")


def wire(d):
    """URMA over UBoE between two namespaces: one skb a packet and trains,
    against TCP on the same veth, at MTU 1500 and 9000; the profile."""
    res = {"guest": read(d / "wire.guest.txt").strip(), "mtu": {}}
    for mtu in (1500, 9000):
        r = {"one": urma_json(d / f"wire.{mtu}.1.json", "write_bw")["bw"],
             "trains": urma_json(d / f"wire.{mtu}.64.json", "write_bw")["bw"],
             "tcp": iperf3_bw(d / f"wire.{mtu}.tcp.iperf3.json")}
        r["trains_one"] = ratio(r["trains"], r["one"])
        r["trains_tcp"] = ratio(r["trains"], r["tcp"])
        res["mtu"][str(mtu)] = r
    res["profile"] = profile(d, "wire", top=16)
    # the wire path's own stages, with what they call
    res["children"] = profile(d, "wire.children", top=20, kernel_only=True,
                              only=r"\] (udma_|uboe_|uburma_ioctl|udp_|__udp|"
                                   r"skb_segment|ip_finish_output|"
                                   r"__local_bh_enable_ip|net_rx_action)")
    return res


def print_wire(r):
    print("URMA over UBoE on one wire: urma_perftest write_bw, 64 KiB, from udmaA to")
    print("udmaB of two namespaces joined by a veth (every packet crosses it), in MB/s,")
    print("with one skb a packet (uboe_train_pkts=1) and in trains of one UDP GSO skb")
    print("(the default), against iperf3 TCP with 64 KiB writes on the same veth, same")
    print(f"run ({r['guest']}).")
    w = (6, 10, 10, 10, 12, 10)
    print_row(("MTU", "one skb", "trains", "TCP", "trains/one", "trains/TCP"), w, 1)
    for mtu, x in r["mtu"].items():
        print_row((mtu, fmt(x["one"]), fmt(x["trains"]), fmt(x["tcp"]),
                   fmt(x["trains_one"]), fmt(x["trains_tcp"])), w, 1)
    print()
    print("where the time goes, write_bw in trains at MTU 1500 (perf cpu-clock, every")
    print("CPU: the busy-polling client, both ends' kernel work, softirqs, idle),")
    print("% of all samples by self time:")
    for pct, what in r["profile"]:
        print(f"  {pct:6.2f}%  {what}")
    print("the wire path's stages with their callees, % of all samples (the send")
    print("path runs the veth's receive softirq when it enables BHs):")
    for pct, what in r["children"]:
        print(f"  {pct:6.2f}%  {what}")


def ums(d):
    """UMS's rows: the same tools over TCP and under ums_run, same pair."""
    res = {"bw": {w: iperf3_bw(d / f"ums.{w}.iperf3.json") for w in ("ums", "tcp")},
           "lat": {w: sockperf_lat(d / f"ums.{w}.sockperf.txt") for w in ("ums", "tcp")}}
    res["bw_ratio"] = ratio(res["bw"]["ums"], res["bw"]["tcp"])
    res["lat_ratio"] = ratio(res["lat"]["ums"]["median"], res["lat"]["tcp"]["median"])
    return res


def ums_goals(r):
    return [
        ("UMS iperf3 64 KiB >= 1.5x TCP", r["bw_ratio"], r["bw_ratio"] >= 1.5),
        ("UMS sockperf ping-pong median <= 0.7x TCP", r["lat_ratio"], r["lat_ratio"] <= 0.7),
    ]


def print_against(r, names, bw_label, goals):
    """A client's rows against TCP: bandwidth, ping-pong, ratios, goals.
    names: the keys of r["bw"] and r["lat"] (client, TCP), then the column
    titles."""
    mine, tcp, title_mine, title_tcp = names
    w = (26, 10, 10, 8)
    print_row(("metric", title_mine, title_tcp, "ratio"), w, 1)
    rows = [(bw_label, r["bw"][mine], r["bw"][tcp])]
    for k in ("median", "avg", "p99"):
        rows.append((f"ping-pong {k} us", r["lat"][mine].get(k), r["lat"][tcp].get(k)))
    for name, a, b in rows:
        cells = (name, fmt(a), fmt(b), fmt(ratio(a, b)))
        print_row(cells, w, 1)
    print("goals:")
    for what, rat, ok in goals:
        print(f"  {what:<42} {fmt(rat):>7}  {'met' if ok else 'NOT met'}")


def print_ums(r):
    print("UMS (AF_SMC under ums_run between two namespaces, UBoE over their veth,")
    print("MTU 9000, each end receiving on its own CPU) against the same tools over")
    print("TCP on that veth, same run: iperf3 with 64 KiB writes; sockperf ping-pong,")
    print("14 B, half the round trip in us.")
    print_against(r, ("ums", "tcp", "UMS", "TCP"), "iperf3 MB/s", ums_goals(r))


def print_ipourma(res):
    print("IPoURMA (ipourma0 between two namespaces, UBoE over a veth of MTU 9000,")
    print("each end receiving on its own CPU) against TCP over that veth itself,")
    print("same namespaces, same run, with each trans_mode of ipourma.ko: um (one")
    print("packet of at most the MTU a UM message) and rm (TSO packets of up to")
    print("64 KiB a RM message, checksums left to the receiver). Latency: a 14-byte")
    print("TCP ping-pong (tests/guest/pingpong.py; Debian's sockperf 3.7 has no")
    print("IPv6), half the round trip in microseconds. Each row is, of the rounds")
    print("(3 unless UB_BENCH_IPOURMA_ROUNDS says) taking turns between the veth")
    print("and ipourma0, the one of median throughput or median p50; the veth's,")
    print("of all its rounds.")
    for mode, _ in IPOURMA_MODES:
        r = res[mode]
        print()
        print(f"trans_mode={mode}:")
        print_against(r, ("ipourma", "veth", "ipourma0", "veth"), "iperf3 TCP MB/s",
                      ipourma_mode_goals(mode, r))
        print()
        print(f"where the time goes, iperf3 TCP over ipourma0 ({mode}; perf cpu-clock,")
        print("kernel symbols by self time, % of all samples: both ends, softirqs,")
        print("udma's works):")
        for pct, what in r["profile"]:
            print(f"  {pct:6.2f}%  {what}")


def local(d):
    path = d / "local.txt"
    text = read(path)
    rows = {int(a): (float(b), float(c)) for a, b, c in
            re.findall(r"^(\d+)\s+([\d.]+)\s+([\d.]+)\s*$", text, re.M)}
    m = re.search(r"ratio:\s*([\d.]+)", text)
    if 1048576 not in rows or not m:
        raise Missing(f"{path}: no 1 MiB row or ratio")
    return {"rows": rows, "ratio": float(m.group(1))}


def profile(d, name, top=12, kernel_only=False, only=None):
    """The heaviest rows of a perf report table, as (percents, symbol):
    self time (perf.TEST.txt) or including callees (perf.TEST.children.txt,
    two percent columns: with children, self); ONLY: a regex the symbol
    must match."""
    path = d / f"perf.{name}.txt"
    out = []
    for line in read(path).splitlines():
        m = re.match(r"\s*([\d.]+)%\s+(?:([\d.]+)%\s+)?(.*)", line)
        if m and (not kernel_only or "[k]" in m.group(3)) and \
                (only is None or re.search(only, m.group(3))):
            out.append((float(m.group(1)), " ".join(m.group(3).split())))
    if not out:
        raise Missing(f"{path}: empty profile")
    return out[:top]


def print_row(cells, widths, left):
    """One table row: the first LEFT cells left-aligned, the rest right."""
    print("  ".join(c.ljust(n) if i < left else c.rjust(n)
                    for i, (c, n) in enumerate(zip(cells, widths))))


def fmt(v):
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return "-"
    return f"{v:.2f}" if v < 100 else f"{v:.0f}"


def ratio(a, b):
    return a / b if a is not None and b else None


def build(d):
    rows = []  # (test, size, metric, urma, rxe, tcp)
    res = {"lat": {}, "bw": {}}
    tl = tcp_lat(d)
    for t in LAT_TESTS:
        u, x = urma(d, t), rxe(d, t)
        res["lat"][t] = {"urma": u, "rxe": x}
        tcp = tl if t in ("write_lat", "send_lat") else None
        for k in ("median", "avg", "p99"):
            rows.append((t, 8, f"{k} us", u[k], x[k], tcp.get(k) if tcp else None))
    tb = tcp_bw(d)
    res["tcp"] = {"bw": tb, "lat": tl}
    for t in BW_TESTS:
        u, x = urma(d, t), rxe(d, t)
        res["bw"][t] = {"urma": u, "rxe": x}
        size = 8 if t.startswith("atomic") else 65536
        tcp = tb["bw"] if t in ("write_bw", "send_bw") else None
        rows.append((t, size, "avg MB/s", u["bw"], x["bw"], tcp))
        rows.append((t, size, "Mpps", u["mpps"], x["mpps"], None))
    res["local"] = local(d)
    res["profile"] = {}
    for t in ("write_lat", "write_bw"):
        res["profile"][f"{t}, self time"] = profile(d, t)
        res["profile"][f"{t}, kernel functions with their callees"] = \
            profile(d, f"{t}.children", kernel_only=True)
    return rows, res


def goals(res):
    wb = res["bw"]["write_bw"]
    wl = res["lat"]["write_lat"]
    r_bw = ratio(wb["urma"]["bw"], wb["rxe"]["bw"])
    r_tcp = ratio(wb["urma"]["bw"], res["tcp"]["bw"]["bw"])
    r_lat = ratio(wl["urma"]["median"], wl["rxe"]["median"])
    r_loc = res["local"]["ratio"]
    return [
        ("URMA write_bw 64 KiB >= 3x rxe", r_bw, r_bw >= 3),
        ("URMA write_bw 64 KiB >= TCP (iperf3)", r_tcp, r_tcp >= 1),
        ("URMA write_lat 8 B median <= 0.7x rxe", r_lat, r_lat <= 0.7),
        ("local 1 MiB WRITE >= 0.5x memcpy", r_loc, r_loc >= 0.5),
    ]


def print_table(rows, res, guest):
    print(f"make bench: {guest}")
    print("1 MB = 2^20 bytes; latencies in microseconds (write/send: half the")
    print("round trip, read/atomic: post to completion), as perftest reports them.")
    print("Not the same work: URMA's rows are udma's in-kernel LOCAL path (no")
    print("packets), rxe's are RoCE packets over a veth and TCP's go over the same")
    print("veth. The ratios compare those, nothing more; scripts/bench-pair.sh's")
    print("table has URMA over UBoE between two guests.")
    print()
    hdr = ("test", "bytes", "metric", "URMA-local", "rxe-veth", "TCP-veth", "URMA/rxe")
    w = (11, 6, 9, 10, 9, 9, 9)
    print_row(hdr, w, 3)
    for t, size, metric, u, x, tcp in rows:
        cells = (t, str(size), metric, fmt(u), fmt(x), fmt(tcp), fmt(ratio(u, x)))
        print_row(cells, w, 3)
    print()
    print("local path (urma_local_bench): size, WRITE MB/s, memcpy MB/s")
    for size, (wr, mc) in sorted(res["local"]["rows"].items()):
        print(f"  {size:>8}  {wr:9.1f}  {mc:9.1f}")
    print()
    print("goals (same guest, same run; URMA is the local path, see above):")
    for what, r, ok in goals(res):
        print(f"  {what:<40} {fmt(r):>7}  {'met' if ok else 'NOT met'}")
    for t, prof in res["profile"].items():
        print()
        print(f"where the time goes, urma {t} (perf cpu-clock, % of the client's samples):")
        for pct, what in prof:
            print(f"  {pct:6.2f}%  {what}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("dir", type=Path)
    ap.add_argument("--json", type=Path, help="also write the figures as JSON")
    ap.add_argument("--only", choices=["ipourma", "ums", "ubagg", "wire"],
                    help="only IPoURMA's, UMS's, the bonding device's or the"
                         " wire's rows (tests/guest/bench-ipourma.sh,"
                         " bench-ums.sh, bench-ubagg.sh or bench-wire.sh run"
                         " alone)")
    a = ap.parse_args()
    try:
        if a.only:
            rows, res = None, {}
        else:
            rows, res = build(a.dir)
            guest = read(a.dir / "guest.txt").strip()
        ipo = ipourma(a.dir) if a.only in (None, "ipourma") else None
        umsr = ums(a.dir) if a.only in (None, "ums") else None
        agg = ubagg(a.dir) if a.only in (None, "ubagg") else None
        wir = wire(a.dir) if a.only in (None, "wire") else None
    except (Missing, KeyError, ValueError) as e:
        print(f"bench_table: missing figure: {e}", file=sys.stderr)
        return 1
    if rows is not None:
        print_table(rows, res, guest)
        print()
        try:
            rb = roub(a.dir, res)
        except (Missing, KeyError, ValueError) as e:
            print(f"bench_table: missing figure: {e}", file=sys.stderr)
            return 1
        print_roub(rb)
        print()
        res["roub"] = {"rows": rb, "goals": [{"goal": g, "value": v, "met": ok}
                                             for g, v, ok in roub_goals(rb)]}
        res["goals"] = [{"goal": g, "ratio": r, "met": ok} for g, r, ok in goals(res)]
        res["local"]["rows"] = {str(k): v for k, v in res["local"]["rows"].items()}
    if ipo is not None:
        print_ipourma(ipo)
        res["ipourma"] = ipo
        res["ipourma"]["goals"] = [{"goal": g, "ratio": r, "met": ok}
                                   for g, r, ok in ipourma_goals(ipo)]
    if umsr is not None:
        if ipo is not None:
            print()
        print_ums(umsr)
        res["ums"] = umsr
        res["ums"]["goals"] = [{"goal": g, "ratio": r, "met": ok}
                               for g, r, ok in ums_goals(umsr)]
    if agg is not None:
        if ipo is not None or umsr is not None:
            print()
        print_ubagg(agg)
        res["ubagg"] = agg
        res["ubagg"]["goals"] = [{"goal": g, "ratio": r, "met": ok}
                                 for g, r, ok in ubagg_goals(agg)]
    if wir is not None:
        if ipo is not None or umsr is not None or agg is not None:
            print()
        print_wire(wir)
        res["wire"] = wir
    if a.json:
        a.json.write_text(json.dumps(res, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
