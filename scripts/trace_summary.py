#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Where a latency test's round trips go, from one guest's ftrace of it
(tests/pair/trace-pair.sh writes DIR/trace.txt, DIR/stats.before and
DIR/stats.after, DIR/meta with the iteration count).

  usage: scripts/trace_summary.py [-h] [--json PATH] DIR...

For each DIR it prints, per iteration of the test (its count of round
trips):
  - the calls of each traced function (udma's send, receive and completion
    paths, the NIC's start_xmit, udp_rcv);
  - the work items executed, by function;
  - the wake-ups, by whom they wake (kworker, softirq thread, the test's
    own process, other), and how long each took from sched_wakeup to
    running (median, 90th percentile, maximum, in us);
  - each CPU's idle share of the traced time;
  - the gaps of more than 1 ms in which the guest logged nothing at all
    (its vCPUs did not run, or waited for the peer);
  - the wire counters' change over the test (urma_admin show dev --stats):
    packets sent and received, transport ACKs and NAKs sent, retransmits.
Fewer events per round trip is the lever under TCG, where each wake-up
of an idle vCPU waits for the host's scheduler (README, "Between
hosts": scripts/trace-pair.sh)."""
import argparse
import json
import math
import os
import re
import statistics
import sys

# "<comm>-<pid> [<cpu>] <flags> <secs>: <what>"; a comm may hold '-' and
# spaces, so the pid is the last "-digits" before the CPU.
LINE = re.compile(r"^\s*(.*)-(\d+)\s+\[(\d+)\]\s+(\S+\s+)?(\d+\.\d+):\s+(.*)$")
FIELD = re.compile(r"(\w+)=(\S+)")
GAP_US = 1000


def percentile(values, q):
    """The q-th percentile (0..100) of @values, by the nearest rank."""
    if not values:
        return 0.0
    s = sorted(values)
    k = max(0, min(len(s) - 1, math.ceil(q / 100.0 * len(s)) - 1))
    return s[k]


def wake_class(comm, test_comm):
    if comm.startswith("kworker"):
        return "kworker"
    if comm.startswith("ksoftirqd"):
        return "ksoftirqd"
    if test_comm and comm.startswith(test_comm[:15]):
        return "test"
    return "other"


def parse_events(lines):
    """(cpu, timestamp, what) of each event line of an ftrace text dump."""
    for line in lines:
        if line.startswith("#"):
            continue
        m = LINE.match(line)
        if m:
            yield int(m.group(3)), float(m.group(5)), m.group(6)


def call_name(what):
    """The function of a function-tracer line, or None for an event."""
    head = what.split(" ", 1)[0]
    return None if head.endswith(":") else what.split(" <-", 1)[0].strip()


def test_window(events):
    """From the first to the last doorbell (the test's posts): the test's
    loop, without its set-up and exchange, in which it sleeps. The whole
    trace when no doorbell was traced."""
    bells = [ts for _, ts, what in events if (call_name(what) or "").endswith("_doorbell")]
    if bells:
        return bells[0], bells[-1]
    stamps = [ts for _, ts, _ in events]
    return (stamps[0], stamps[-1]) if stamps else (0.0, 0.0)


def parse_trace(lines, test_comm=""):
    """The events of an ftrace text dump within the test's window
    (test_window()): counts, wake-up latencies, idle time per CPU and the
    silent gaps."""
    events = list(parse_events(lines))
    w0, w1 = test_window(events)
    calls, works, wakes = {}, {}, {}
    wake_lat = {}
    pending = {}            # pid -> (timestamp of its wake-up, class)
    cur = {}                # cpu -> (idle?, since)
    idle = {}               # cpu -> idle seconds in the window
    seen = {}               # cpu -> seconds in the window, from its first switch
    last = None
    gaps = []

    def account(cpu, until):
        was_idle, since = cur[cpu]
        t = max(0.0, min(until, w1) - max(since, w0))
        seen[cpu] = seen.get(cpu, 0.0) + t
        if was_idle:
            idle[cpu] = idle.get(cpu, 0.0) + t

    for cpu, ts, what in events:
        inside = w0 <= ts <= w1
        if inside and last is not None and (ts - last) * 1e6 > GAP_US:
            gaps.append((ts - last) * 1e6)
        if inside:
            last = ts
        if what.startswith("sched_wakeup:") or what.startswith("sched_wakeup_new:"):
            f = dict(FIELD.findall(what))
            cls = wake_class(f.get("comm", ""), test_comm)
            if inside:
                wakes[cls] = wakes.get(cls, 0) + 1
                pending.setdefault(int(f.get("pid", -1)), (ts, cls))
        elif what.startswith("sched_switch:"):
            nxt = int(dict(FIELD.findall(what)).get("next_pid", -1))
            if nxt in pending:
                t0, cls = pending.pop(nxt)
                wake_lat.setdefault(cls, []).append((ts - t0) * 1e6)
            if cpu in cur:
                account(cpu, ts)
            cur[cpu] = (nxt == 0, ts)
        elif not inside:
            continue
        elif what.startswith("workqueue_execute_start:"):
            fn = what.rsplit("function ", 1)[-1].strip()
            works[fn] = works.get(fn, 0) + 1
        elif call_name(what):
            fn = call_name(what)
            calls[fn] = calls.get(fn, 0) + 1
    for cpu in cur:
        account(cpu, w1)
    return {
        "span_s": w1 - w0,
        "calls": calls,
        "works": works,
        "wakeups": wakes,
        "wake_latency_us": {c: {"n": len(v), "median": statistics.median(v),
                                "p90": percentile(v, 90), "max": max(v)}
                            for c, v in wake_lat.items()},
        "idle_share": {str(c): (idle.get(c, 0.0) / seen[c]) if seen[c] > 0 else 0.0
                       for c in sorted(seen)},
        "gaps_over_1ms": {"n": len(gaps), "total_us": sum(gaps),
                          "max_us": max(gaps) if gaps else 0.0},
    }


def parse_stats(text):
    """The counters of urma_admin show dev --stats: {name: value}."""
    out = {}
    for line in text.splitlines():
        m = re.match(r"^\s+([a-z_0-9]+):\s+(\d+)\s*$", line)
        if m:
            out[m.group(1)] = int(m.group(2))
    return out


def stats_delta(before, after):
    return {k: after[k] - before.get(k, 0) for k in after if after[k] != before.get(k, 0)}


def read_meta(path):
    meta = {}
    with open(path) as f:
        for line in f:
            k, _, v = line.strip().partition("=")
            if k:
                meta[k] = v
    return meta


def summarize_dir(d):
    meta = read_meta(os.path.join(d, "meta"))
    with open(os.path.join(d, "trace.txt"), errors="replace") as f:
        res = parse_trace(f, meta.get("comm", ""))
    stats = {}
    try:
        with open(os.path.join(d, "stats.before")) as b, \
             open(os.path.join(d, "stats.after")) as a:
            stats = stats_delta(parse_stats(b.read()), parse_stats(a.read()))
    except OSError:
        pass
    res["wire"] = stats
    res["iters"] = int(meta.get("iters", "0"))
    res["test"] = meta.get("test", "?")
    res["role"] = meta.get("role", os.path.basename(os.path.normpath(d)))
    return res


WIRE_ROWS = ["tx_packets", "rx_packets", "rtp_ack_tx", "rtp_nak_tx",
             "rtp_retransmits", "rtp_ack_timeouts"]


def report(res, out):
    n = res["iters"] or 1
    per = lambda v: f"{v / n:8.2f}"  # noqa: E731
    out.write(f"== guest {res['role']}: {res['test']}, {res['iters']} iterations, "
              f"{res['span_s']:.3f} s from its first post to its last\n")
    out.write("  per iteration:\n")
    for k in WIRE_ROWS:
        if k in res["wire"]:
            out.write(f"    {per(res['wire'][k])}  wire {k}\n")
    for k, v in sorted(res["calls"].items(), key=lambda kv: -kv[1]):
        out.write(f"    {per(v)}  call {k}\n")
    for k, v in sorted(res["works"].items(), key=lambda kv: -kv[1]):
        out.write(f"    {per(v)}  work {k}\n")
    for k, v in sorted(res["wakeups"].items(), key=lambda kv: -kv[1]):
        out.write(f"    {per(v)}  wake-up of {k}\n")
    out.write("  wake-up to running (us):\n")
    for k, v in sorted(res["wake_latency_us"].items()):
        out.write(f"    {k:10s} n {v['n']:6d}  median {v['median']:8.1f}  "
                  f"p90 {v['p90']:8.1f}  max {v['max']:9.1f}\n")
    shares = ", ".join(f"cpu{c} {s * 100:.0f}%" for c, s in res["idle_share"].items())
    out.write(f"  idle: {shares or 'no sched_switch seen'}\n")
    g = res["gaps_over_1ms"]
    out.write(f"  silent gaps > 1 ms: {g['n']} ({per(g['n']).strip()} an iteration), "
              f"{g['total_us'] / 1000:.1f} ms in all "
              f"({g['total_us'] / max(res['span_s'] * 1e4, 1e-9):.0f}% of the span), "
              f"longest {g['max_us'] / 1000:.1f} ms\n")


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog=__doc__.split("\n", 1)[1])
    ap.add_argument("dirs", nargs="+", metavar="DIR")
    ap.add_argument("--json", metavar="PATH", help="also write the figures as JSON")
    args = ap.parse_args(argv)
    results = []
    for d in args.dirs:
        try:
            results.append(summarize_dir(d))
        except OSError as e:
            print(f"trace_summary.py: {d}: {e}", file=sys.stderr)
            return 1
    for r in results:
        report(r, sys.stdout)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=1, sort_keys=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
