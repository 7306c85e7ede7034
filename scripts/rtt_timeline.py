#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Where the time of a ping-pong's round trip goes, from an ftrace dump.

The dump (the function tracer on some probes, with sched_wakeup,
sched_switch, softirq_entry and softirq_exit) holds a ping-pong between a
client and a server process, each pinned to its CPU. Every call of the
anchor function (the client's send: tcp_sendmsg, ums_sendmsg) by the
client starts a round trip, which lasts until its next one. Within each
round trip every event is named by what it is (the function, "softirq
NET_RX", "wakeup python3", "switch to ksoftirqd/1"), the CPU it ran on,
who ran it (client, server, idle, or the task's name) and its occurrence
in that round trip (#0 the first). The timeline lists, by median time
since the round trip's start, every such event that happens in at least
--min-share of the round trips: the path a typical round trip takes,
with the time each step took to come. The summary gives the median round
trip, the median time until the server's send (the way there and the
server's turn), and per round trip the medians of softirq runs, hand-offs
to ksoftirqd and wake-ups.

  rtt_timeline.py TRACE [--anchor FUNC] [--cpu N] [--skip N]
                  [--min-share F] [--label NAME] [--json FILE]
"""
import argparse
import collections
import json
import re
import statistics
import sys

# "comm-pid [cpu] flags timestamp: what rest"
LINE = re.compile(r"^\s*(?P<comm>.+?)-(?P<pid>\d+)\s+\[(?P<cpu>\d+)\]\s+\S+\s+"
                  r"(?P<ts>\d+\.\d+):\s+(?P<what>[\w.]+):?\s(?P<rest>.*)$")


def event_name(what, rest):
    """The event's name in the timeline: a function, or a scheduler or
    softirq event with what it concerns."""
    if what in ("softirq_entry", "softirq_exit"):
        m = re.search(r"action=(\w+)", rest)
        kind = "softirq" if what == "softirq_entry" else "softirq end"
        return "%s %s" % (kind, m.group(1) if m else "?")
    if what == "sched_wakeup":
        m = re.search(r"comm=(.+?) pid=", rest)
        return "wakeup %s" % (m.group(1) if m else "?")
    if what == "sched_switch":
        m = re.search(r"next_comm=(.+?) next_pid=", rest)
        return "switch to %s" % (m.group(1) if m else "?")
    return what


def parse(lines):
    """Events as (time in us, cpu, comm, pid, name), in the dump's order."""
    events = []
    for line in lines:
        m = LINE.match(line)
        if not m:
            continue
        events.append((float(m.group("ts")) * 1e6, int(m.group("cpu")),
                       m.group("comm"), int(m.group("pid")),
                       event_name(m.group("what"), m.group("rest"))))
    return events


def busiest_pid(events, anchor, cpu, on_cpu):
    """The pid that calls @anchor most on @cpu (@on_cpu) or on the
    other CPUs (not @on_cpu)."""
    counts = collections.Counter(
        e[3] for e in events if e[4] == anchor and (e[1] == cpu) == on_cpu)
    return counts.most_common(1)[0][0] if counts else None


def role(event, client, server):
    if event[3] == client:
        return "client"
    if event[3] == server:
        return "server"
    if event[3] == 0:
        return "idle"
    return re.sub(r"\d+$", "", event[2]).rstrip("/:") or event[2]


def analyse(events, anchor, cpu=0, skip=10, min_share=0.5):
    """The figures of a dump (see the module's text), as a dict."""
    client = busiest_pid(events, anchor, cpu, True)
    if client is None:
        raise ValueError("no call of %s on CPU %d" % (anchor, cpu))
    server = busiest_pid(events, anchor, cpu, False)
    starts = [e[0] for e in events if e[4] == anchor and e[3] == client]
    starts = starts[skip:]
    if len(starts) < 2:
        raise ValueError("fewer than 2 round trips after the first %d" % skip)
    offsets = collections.defaultdict(list)
    rtts, server_sends = [], []
    per_rt = collections.defaultdict(list)
    i = 0
    for begin, end in zip(starts, starts[1:]):
        rtts.append(end - begin)
        while i < len(events) and events[i][0] < begin:
            i += 1
        seen = collections.Counter()
        counts = collections.Counter()
        server_sent = False
        j = i
        while j < len(events) and events[j][0] < end:
            e = events[j]
            key = (e[4], e[1], role(e, client, server))
            offsets[key + (seen[key],)].append(e[0] - begin)
            seen[key] += 1
            if e[4].startswith("softirq ") and not e[4].startswith("softirq end"):
                counts["softirq runs"] += 1
            if e[4] == "switch to ksoftirqd/%d" % e[1]:
                counts["ksoftirqd hand-offs"] += 1
            if e[4].startswith("wakeup "):
                counts["wake-ups"] += 1
            if e[4] == anchor and e[3] == server and not server_sent:
                server_sent = True
                server_sends.append(e[0] - begin)
            j += 1
        for k in ("softirq runs", "ksoftirqd hand-offs", "wake-ups"):
            per_rt[k].append(counts[k])
    n = len(rtts)
    steps = []
    for (name, ecpu, who, occ), v in offsets.items():
        if len(v) >= n * min_share:
            steps.append({"us": statistics.median(v), "share": len(v) / n,
                          "cpu": ecpu, "who": who, "event": name,
                          "occurrence": occ})
    steps.sort(key=lambda s: (s["us"], s["cpu"], s["event"]))
    return {
        "anchor": anchor,
        "round_trips": n,
        "rtt_us": statistics.median(rtts),
        "to_server_send_us": (statistics.median(server_sends)
                              if server_sends else None),
        "per_round_trip": {k: statistics.median(v) for k, v in per_rt.items()},
        "steps": steps,
    }


def print_report(label, r, out):
    out.write("%s: %d round trips (anchor %s), median %.1f us" %
              (label, r["round_trips"], r["anchor"], r["rtt_us"]))
    if r["to_server_send_us"] is not None:
        out.write(", the server's send at %.1f us" % r["to_server_send_us"])
    out.write("\n  per round trip (medians): %s\n" % ", ".join(
        "%s %g" % kv for kv in sorted(r["per_round_trip"].items())))
    out.write("  %8s %6s  %-4s %-10s %s\n" %
              ("us", "share", "cpu", "who", "event"))
    for s in r["steps"]:
        occ = " #%d" % s["occurrence"] if s["occurrence"] else ""
        out.write("  %8.1f %5.0f%%  %-4d %-10s %s%s\n" %
                  (s["us"], s["share"] * 100, s["cpu"], s["who"], s["event"],
                   occ))


def main(argv=None):
    ap = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        epilog="See the top of this file for what the figures mean.")
    ap.add_argument("trace", help="the ftrace dump (the trace file's text)")
    ap.add_argument("--anchor", default="tcp_sendmsg",
                    help="the client's send function (default tcp_sendmsg)")
    ap.add_argument("--cpu", type=int, default=0,
                    help="the client's CPU (default 0)")
    ap.add_argument("--skip", type=int, default=10,
                    help="round trips to leave out at the start (default 10)")
    ap.add_argument("--min-share", type=float, default=0.5,
                    help="list events of at least this share of the round "
                         "trips (default 0.5)")
    ap.add_argument("--label", help="the report's name (default: TRACE)")
    ap.add_argument("--json", help="also write the figures there")
    args = ap.parse_args(argv)
    try:
        with open(args.trace, errors="replace") as f:
            events = parse(f)
        r = analyse(events, args.anchor, args.cpu, args.skip, args.min_share)
    except (OSError, ValueError) as e:
        sys.stderr.write("rtt_timeline.py: %s: %s\n" % (args.trace, e))
        return 1
    print_report(args.label or args.trace, r, sys.stdout)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(r, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
