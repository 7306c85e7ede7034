#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Tests of scripts/trace_summary.py (scripts/trace-pair.sh's summary) on
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
import trace_summary  # noqa: E402

# Two CPUs. The test's set-up at 9.0 (before its first post, at
# 10.000000) does not count, nor its gap of a second. In the window, up to
# the last post at 10.004000: cpu0 idles from 10.000000 to 10.000400,
# then runs the kworker woken at 10.000100 (300 us to run); cpu1 runs the
# test's process, woken at 10.000500 and running at 10.000550 (50 us).
# Nothing is logged from 10.000600 to 10.003600: one silent gap of 3 ms.
TRACE = """\
# tracer: function
#
#           TASK-PID     CPU#  |||||  TIMESTAMP  FUNCTION
#              | |         |   |||||     |         |
   urma_perftest-300     [001] .....     9.000000: udp_rcv <-ip_protocol_deliver_rcu
   urma_perftest-300     [001] d..2.     9.000000: sched_wakeup: comm=kworker/1:1 pid=77 prio=120 target_cpu=001
          <idle>-0       [000] d..2.    10.000000: sched_switch: prev_comm=kworker/0:1 prev_pid=9 prev_prio=120 prev_state=I ==> next_comm=swapper/0 next_pid=0 next_prio=120
          <idle>-0       [001] d..2.    10.000000: sched_switch: prev_comm=swapper/1 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=urma_perftest next_pid=300 next_prio=120
   urma_perftest-300     [001] .....    10.000000: udma_jfs_doorbell <-uburma_ioctl
          <idle>-0       [000] d.s2.    10.000100: udp_rcv <-ip_protocol_deliver_rcu
          <idle>-0       [000] d.s2.    10.000100: udma_uboe_rx_data <-udp_queue_rcv_one_skb
          <idle>-0       [000] d.s4.    10.000100: sched_wakeup: comm=kworker/0:1H pid=45 prio=100 target_cpu=000
          <idle>-0       [000] d..2.    10.000400: sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=kworker/0:1H next_pid=45 next_prio=100
    kworker/0:1H-45      [000] .....    10.000410: workqueue_execute_start: work struct 00000000deadbeef: function udma_sq_work
    kworker/0:1H-45      [000] .....    10.000420: udma_sq_process <-udma_sq_work
    kworker/0:1H-45      [000] .....    10.000430: start_xmit <-dev_hard_start_xmit
   urma_perftest-300     [001] d..2.    10.000450: sched_switch: prev_comm=urma_perftest prev_pid=300 prev_prio=120 prev_state=S ==> next_comm=swapper/1 next_pid=0 next_prio=120
          <idle>-0       [001] d.s4.    10.000500: sched_wakeup: comm=urma_perftest pid=300 prio=120 target_cpu=001
          <idle>-0       [001] d..2.    10.000550: sched_switch: prev_comm=swapper/1 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=urma_perftest next_pid=300 next_prio=120
   urma_perftest-300     [001] .....    10.000600: udma_jfs_doorbell <-uburma_ioctl
   urma_perftest-300     [001] .....    10.003600: udma_jfs_doorbell <-uburma_ioctl
    kworker/0:1H-45      [000] d..2.    10.004000: sched_switch: prev_comm=kworker/0:1H prev_pid=45 prev_prio=100 prev_state=I ==> next_comm=swapper/0 next_pid=0 next_prio=120
   urma_perftest-300     [001] .....    10.004000: udma_jfs_doorbell <-uburma_ioctl
"""

STATS_BEFORE = """udma0 wire:
  rx_packets: 10
  tx_packets: 20
  transport:
    rtp_ack_tx: 5
    rtp_nak_tx: 0
"""
STATS_AFTER = """udma0 wire:
  rx_packets: 14
  tx_packets: 26
  transport:
    rtp_ack_tx: 6
    rtp_nak_tx: 0
"""


class TraceSummary(unittest.TestCase):
    def setUp(self):
        self.res = trace_summary.parse_trace(TRACE.splitlines(), "urma_perftest")

    def test_counts_calls_and_works(self):
        self.assertEqual(self.res["calls"], {"udp_rcv": 1, "udma_uboe_rx_data": 1,
                                             "udma_sq_process": 1, "start_xmit": 1,
                                             "udma_jfs_doorbell": 4})
        self.assertEqual(self.res["works"], {"udma_sq_work": 1})

    def test_wakeups_by_class_and_latency(self):
        self.assertEqual(self.res["wakeups"], {"kworker": 1, "test": 1})
        lat = self.res["wake_latency_us"]
        self.assertAlmostEqual(lat["kworker"]["median"], 300.0, places=3)
        self.assertAlmostEqual(lat["test"]["max"], 50.0, places=3)
        self.assertEqual(lat["test"]["n"], 1)

    def test_idle_share_per_cpu(self):
        # cpu0: idle 400 of 4000 us; cpu1: idle 450..550 = 100 of 4000 us
        self.assertAlmostEqual(self.res["idle_share"]["0"], 0.1, places=6)
        self.assertAlmostEqual(self.res["idle_share"]["1"], 0.025, places=6)

    def test_silent_gaps(self):
        g = self.res["gaps_over_1ms"]
        self.assertEqual(g["n"], 1)
        self.assertAlmostEqual(g["max_us"], 3000.0, places=3)
        self.assertAlmostEqual(self.res["span_s"], 0.004, places=9)

    def test_window_is_first_to_last_post(self):
        events = list(trace_summary.parse_events(TRACE.splitlines()))
        self.assertEqual(trace_summary.test_window(events), (10.0, 10.004))
        # no post: the whole trace
        quiet = [e for e in events if not e[2].startswith("udma_jfs_doorbell")]
        self.assertEqual(trace_summary.test_window(quiet), (9.0, 10.004))

    def test_percentile_nearest_rank(self):
        vals = list(range(1, 11))
        self.assertEqual(trace_summary.percentile(vals, 90), 9)
        self.assertEqual(trace_summary.percentile(vals, 100), 10)
        self.assertEqual(trace_summary.percentile([], 50), 0.0)

    def test_stats_delta_keeps_what_moved(self):
        d = trace_summary.stats_delta(trace_summary.parse_stats(STATS_BEFORE),
                                      trace_summary.parse_stats(STATS_AFTER))
        self.assertEqual(d, {"rx_packets": 4, "tx_packets": 6, "rtp_ack_tx": 1})

    def test_command_line_report_and_json(self):
        tmp = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, tmp)
        d = os.path.join(tmp, "b")
        os.mkdir(d)
        for name, text in (("trace.txt", TRACE), ("stats.before", STATS_BEFORE),
                           ("stats.after", STATS_AFTER),
                           ("meta", "test=write_lat\niters=2\nrole=b\ncomm=urma_perftest\n")):
            with open(os.path.join(d, name), "w") as f:
                f.write(text)
        out, js = io.StringIO(), os.path.join(tmp, "r.json")
        saved, sys.stdout = sys.stdout, out
        try:
            rc = trace_summary.main(["--json", js, d])
        finally:
            sys.stdout = saved
        self.assertEqual(rc, 0)
        text = out.getvalue()
        self.assertIn("guest b: write_lat, 2 iterations", text)
        self.assertIn("    3.00  wire tx_packets", text)
        self.assertIn("    2.00  call udma_jfs_doorbell", text)
        with open(js) as f:
            self.assertEqual(json.load(f)[0]["wire"]["rx_packets"], 4)

    def test_missing_trace_fails(self):
        err = io.StringIO()
        saved, sys.stderr = sys.stderr, err
        try:
            rc = trace_summary.main([os.path.join(TOP, "no-such-dir")])
        finally:
            sys.stderr = saved
        self.assertEqual(rc, 1)
        self.assertIn("no-such-dir", err.getvalue())


if __name__ == "__main__":
    sys.exit(gtest_compat.main(__name__))
