#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Tests of scripts/rtt_timeline.py (scripts/trace-nspair.sh's report) on
a small hand-written ftrace dump whose figures are known. A host suite of
make check (GoogleTest's command line: tests/summarize/gtest_compat.py)."""
import io
import json
import os
import shutil
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(os.path.dirname(HERE))
sys.dont_write_bytecode = True     # no __pycache__ in the source tree
sys.path.insert(0, os.path.join(TOP, "scripts"))
sys.path.insert(0, os.path.join(TOP, "tests", "summarize"))
import gtest_compat  # noqa: E402
import rtt_timeline  # noqa: E402


def line(comm, pid, cpu, t_us, what):
    """One line of the dump, @t_us after 10 s."""
    return "%16s-%-5d [%03d] ..s1. %13.6f: %s" % (comm, pid, cpu,
                                                   10 + t_us / 1e6, what)


def round_trip(start, ksoftirqd):
    """The client (python3-100, CPU 0) sends at @start; CPU 1 takes the
    packet at +30 us in two softirq runs, wakes the server (python3-200)
    at +40, which sends at +50; the client's CPU runs a softirq twice."""
    rows = [
        line("python3", 100, 0, start, "tcp_sendmsg <-__sock_sendmsg"),
        line("python3", 100, 0, start + 10, "veth_xmit <-dev_hard_start_xmit"),
        line("python3", 100, 0, start + 12,
             "softirq_entry: vec=3 [action=NET_RX]"),
        line("python3", 100, 0, start + 14,
             "softirq_exit: vec=3 [action=NET_RX]"),
        line("<idle>", 0, 1, start + 30, "softirq_entry: vec=3 [action=NET_RX]"),
        line("<idle>", 0, 1, start + 40,
             "sched_wakeup: comm=python3 pid=200 prio=120 target_cpu=001"),
        line("python3", 200, 1, start + 50, "tcp_sendmsg <-__sock_sendmsg"),
    ]
    if ksoftirqd:
        rows.append(line("<idle>", 0, 1, start + 60,
                         "sched_switch: prev_comm=swapper/1 prev_pid=0 "
                         "prev_prio=120 prev_state=R ==> next_comm=ksoftirqd/1 "
                         "next_pid=21 next_prio=120"))
    rows.append(line("<idle>", 0, 0, start + 80,
                     "softirq_entry: vec=3 [action=NET_RX]"))
    return rows


# Four sends of the client, 100 us apart: three round trips; the third
# hands a softirq to ksoftirqd. A line of another format is ignored.
TRACE = "\n".join(["# tracer: function", "garbage"] +
                  round_trip(0, False) + round_trip(100, False) +
                  round_trip(200, True) +
                  [line("python3", 100, 0, 300, "tcp_sendmsg <-x")]) + "\n"


class RttTimeline(unittest.TestCase):
    def setUp(self):
        self.events = rtt_timeline.parse(TRACE.splitlines())
        self.res = rtt_timeline.analyse(self.events, "tcp_sendmsg", cpu=0,
                                        skip=0)

    def test_round_trips_and_the_way_there(self):
        self.assertEqual(self.res["round_trips"], 3)
        self.assertAlmostEqual(self.res["rtt_us"], 100.0, places=3)
        self.assertAlmostEqual(self.res["to_server_send_us"], 50.0, places=3)

    def test_the_typical_path_in_order(self):
        steps = [(round(s["us"]), s["cpu"], s["who"], s["event"],
                  s["occurrence"]) for s in self.res["steps"]]
        self.assertEqual(steps, [
            (0, 0, "client", "tcp_sendmsg", 0),
            (10, 0, "client", "veth_xmit", 0),
            (12, 0, "client", "softirq NET_RX", 0),
            (14, 0, "client", "softirq end NET_RX", 0),
            (30, 1, "idle", "softirq NET_RX", 0),
            (40, 1, "idle", "wakeup python3", 0),
            (50, 1, "server", "tcp_sendmsg", 0),
            (80, 0, "idle", "softirq NET_RX", 0),
        ])

    def test_rare_steps_by_share(self):
        # the hand-off to ksoftirqd is in 1 of 3 round trips
        res = rtt_timeline.analyse(self.events, "tcp_sendmsg", skip=0,
                                   min_share=0.3)
        rare = [s for s in res["steps"] if s["event"].startswith("switch")]
        self.assertEqual(len(rare), 1)
        self.assertEqual(rare[0]["event"], "switch to ksoftirqd/1")
        self.assertAlmostEqual(rare[0]["share"], 1 / 3, places=6)

    def test_counts_per_round_trip(self):
        per = self.res["per_round_trip"]
        self.assertEqual(per["softirq runs"], 3)
        self.assertEqual(per["wake-ups"], 1)
        self.assertEqual(per["ksoftirqd hand-offs"], 0)

    def test_skip_and_too_few(self):
        res = rtt_timeline.analyse(self.events, "tcp_sendmsg", skip=1)
        self.assertEqual(res["round_trips"], 2)
        with self.assertRaises(ValueError):
            rtt_timeline.analyse(self.events, "tcp_sendmsg", skip=3)
        with self.assertRaises(ValueError):
            rtt_timeline.analyse(self.events, "ums_sendmsg")

    def test_command_line_report_and_json(self):
        tmp = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, tmp)
        tr, js = os.path.join(tmp, "t.trace"), os.path.join(tmp, "t.json")
        with open(tr, "w") as f:
            f.write(TRACE)
        out = io.StringIO()
        saved, sys.stdout = sys.stdout, out
        try:
            rc = rtt_timeline.main(["--skip", "0", "--label", "veth",
                                    "--json", js, tr])
        finally:
            sys.stdout = saved
        self.assertEqual(rc, 0)
        text = out.getvalue()
        self.assertIn("veth: 3 round trips (anchor tcp_sendmsg), median "
                      "100.0 us, the server's send at 50.0 us", text)
        self.assertIn("    40.0   100%  1    idle       wakeup python3", text)
        with open(js) as f:
            self.assertEqual(json.load(f)["round_trips"], 3)

    def test_missing_trace_fails(self):
        err = io.StringIO()
        saved, sys.stderr = sys.stderr, err
        try:
            rc = rtt_timeline.main([os.path.join(TOP, "no-such-file")])
        finally:
            sys.stderr = saved
        self.assertEqual(rc, 1)
        self.assertIn("no-such-file", err.getvalue())


if __name__ == "__main__":
    sys.exit(gtest_compat.main(__name__))
