#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Host tests of the guest pair (scripts/pair-run.sh) without booting a
guest: how the two guests' results combine into one (scripts/summarize.py
--pair, as pair-run.sh and make check call it), and the rendezvous of
tests/pair/lib.sh (ub_pair_sync) between two shells over the loopback.
A host suite of make check (GoogleTest's command line: gtest_compat.py)."""
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(os.path.dirname(HERE))
SUMMARIZE = os.path.join(TOP, "scripts", "summarize.py")
sys.dont_write_bytecode = True     # no __pycache__ in the source tree
sys.path.insert(0, os.path.join(TOP, "tests", "summarize"))
sys.path.insert(0, os.path.join(TOP, "scripts"))
import gtest_compat  # noqa: E402
import suites  # noqa: E402

OOPS = """[   12.345678] BUG: kernel NULL pointer dereference, address: 0000000000000008
[   12.345690] Oops: 0002 [#1] PREEMPT SMP KASAN NOPTI
[   12.345700] Call Trace:
"""
KMEMLEAK = """unreferenced object 0xffff888003a1c000 (size 64):
  comm "insmod", pid 77, jiffies 4294937296 (age 12.340s)
"""


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


class Pair:
    """A results directory of pair-run.sh, built in a test: both guests
    finished cleanly and passed every case unless a test changes that."""

    def __init__(self, tmp, cases=("udma-link",)):
        self.out = os.path.join(tmp, "pair")
        self.manifest = {"pair_cases": list(cases)}
        for role in ("a", "b"):
            self.side(role, results=[f"PASS {c}" for c in cases])

    def side(self, role, results=(), dmesg="[ 1.0] ub-pair: role\n", kmemleak="",
             lockdep=" debug_locks:   1\n", finished=True, timeout=False):
        d = os.path.join(self.out, role)
        shutil.rmtree(d, ignore_errors=True)
        write(os.path.join(d, "results.txt"), "".join(r + "\n" for r in results))
        write(os.path.join(d, "console.log"), dmesg)
        if finished:
            write(os.path.join(d, "script.rc"), "0\n")
            write(os.path.join(d, "dmesg.txt"), dmesg)
            write(os.path.join(d, "kmemleak.txt"), kmemleak)
            write(os.path.join(d, "lockdep.txt"), lockdep)
        if timeout:
            write(os.path.join(d, "timeout"), "")

    def judge(self, manifest=True):
        """scripts/summarize.py as pair-run.sh runs it: (exit status, output)."""
        cmd = [sys.executable, SUMMARIZE, "--pair", self.out, "--expected-skips", os.devnull]
        if manifest:
            path = os.path.join(self.out, "manifest.json")
            write(path, json.dumps(self.manifest))
            cmd += ["--manifest", path]
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
        return p.returncode, squeeze(p.stdout + p.stderr)


def squeeze(text):
    """TEXT with each run of spaces as one: the summary pads its columns."""
    return re.sub(r" +", " ", text)


class Combine(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="pair-test-")
        self.addCleanup(shutil.rmtree, self.tmp)
        self.pair = Pair(self.tmp)

    def fails(self, *expect):
        rc, out = self.pair.judge()
        self.assertEqual(rc, 1, out)
        self.assertRegex(out.strip().splitlines()[-1], r"^\d+ passed, [1-9]\d* failed$", out)
        for e in expect:
            self.assertIn(squeeze(e), out)
        return out

    def test_both_sides_clean_and_passing_pass(self):
        rc, out = self.pair.judge()
        self.assertEqual(rc, 0, out)
        # Per guest: in time, log, kmemleak, lockdep; one case.
        self.assertIn("pair a health 4 passed, 0 failed", out)
        self.assertIn("pair b health 4 passed, 0 failed", out)
        self.assertIn("pair cases 1 passed, 0 failed", out)
        self.assertEqual(out.strip().splitlines()[-1], "9 passed, 0 failed")

    def test_one_side_failing_the_case_fails_it(self):
        self.pair.side("b", results=["FAIL udma-link (exit 1, log: cases/udma-link.log)"])
        self.fails("pair cases 0 passed, 1 failed",
                   "FAIL udma-link: b: (exit 1, log: cases/udma-link.log)")

    def test_one_side_timing_out_fails(self):
        # Killed in the middle of the case: no result, no script.rc.
        self.pair.side("a", finished=False, timeout=True)
        self.fails("FAIL udma-link: a: never recorded (guest timed out)",
                   "FAIL finished in time: guest timed out and was killed",
                   "FAIL script ran to the end: no script.rc")

    def test_one_side_oopsing_fails_though_both_passed(self):
        self.pair.side("b", results=["PASS udma-link"], dmesg=OOPS)
        out = self.fails("pair b health 3 passed, 1 failed",
                         "FAIL kernel log clean: [   12.345678] BUG: kernel NULL pointer")
        self.assertIn("pair cases 1 passed, 0 failed", out)

    def test_an_oops_only_on_the_console_fails(self):
        # A panicking guest writes no dmesg.txt: its console is judged.
        self.pair.side("a", results=["PASS udma-link"], dmesg=OOPS, finished=False)
        self.fails("pair a health 1 passed, 2 failed", "FAIL kernel log clean: [   12.345678] BUG: kernel NULL")

    def test_a_warning_fails(self):
        self.pair.side("a", results=["PASS udma-link"],
                       dmesg="[ 3.0] WARNING: CPU: 0 PID: 1 at udma/main.c:10 f+0x1/0x2\n")
        self.fails("FAIL kernel log clean: [ 3.0] WARNING: CPU: 0")

    def test_a_leak_on_one_side_fails(self):
        self.pair.side("a", results=["PASS udma-link"], kmemleak=KMEMLEAK)
        self.fails("FAIL kmemleak clean: 1 unreferenced objects")

    def test_lockdep_turned_off_on_one_side_fails(self):
        self.pair.side("b", results=["PASS udma-link"], lockdep=" debug_locks:   0\n")
        self.fails("FAIL lockdep still active")

    def test_a_side_that_never_booted_fails(self):
        shutil.rmtree(os.path.join(self.pair.out, "b"))
        self.fails("FAIL booted: guest b never ran (no b/)", "FAIL udma-link: b: never recorded")

    def test_a_guest_stopped_for_its_peer_says_so(self):
        self.pair.side("b", finished=False)
        write(os.path.join(self.pair.out, "b", "peer-stopped"), "")
        self.fails("stopped because its peer stopped first")

    def test_a_case_of_the_manifest_nobody_recorded_fails(self):
        self.pair.manifest["pair_cases"].append("uboe-send")
        self.fails("FAIL uboe-send: a: never recorded; b: never recorded")

    def test_a_case_not_in_the_manifest_fails(self):
        for role in ("a", "b"):
            self.pair.side(role, results=["PASS udma-link", "PASS stray"])
        self.fails("FAIL stray: recorded but not in the manifest")

    def test_a_case_recorded_twice_fails(self):
        self.pair.side("a", results=["PASS udma-link", "PASS udma-link"])
        self.fails("FAIL udma-link: recorded twice in a/results.txt")

    def test_nothing_recorded_fails(self):
        self.pair.manifest["pair_cases"] = []
        for role in ("a", "b"):
            self.pair.side(role)
        self.fails("FAIL results.txt: the pair recorded no case")

    def test_a_filtered_run_fails(self):
        write(os.path.join(self.pair.out, "ub-only"), "kunit-modules\n")
        self.fails("FAIL full run: filtered with UB_ONLY=kunit-modules")

    def test_make_check_without_a_pair_run_fails_its_cases(self):
        # The manifest of make check lists the pair cases; no --pair given
        # (e.g. the kernel build failed before any guest ran).
        path = os.path.join(self.tmp, "manifest.json")
        write(path, json.dumps({"host": [], "itest": [], "guest_cases": [], "kunit": [],
                                "pair_cases": ["udma-link"], "errors": []}))
        p = subprocess.run([sys.executable, SUMMARIZE, "--manifest", path,
                            "--expected-skips", os.devnull],
                           capture_output=True, text=True, timeout=60)
        self.assertEqual(p.returncode, 1, p.stdout)
        self.assertIn("FAIL pair cases not run: 1 (udma-link)", p.stdout)


class Manifest(unittest.TestCase):
    def test_every_case_script_is_a_pair_case(self):
        # make check runs tests/pair/cases/*.sh; each must report.
        self.assertIn("udma-link", suites.pair_cases(TOP))
        scripts = sorted(f[: -len(".sh")] for f in
                         os.listdir(os.path.join(TOP, "tests", "pair", "cases"))
                         if f.endswith(".sh"))
        self.assertEqual(suites.pair_cases(TOP), scripts)

    def test_no_case_script_no_case(self):
        with tempfile.TemporaryDirectory() as tmp:
            self.assertEqual(suites.pair_cases(tmp), [])


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# Both roles of ub_pair_sync in bash on this host, the peer's address being
# the loopback. tests/guest/lib.sh is not sourced (it reads the module list
# of a guest): the two helpers the function needs stand in for it.
SYNC_SCRIPT = r'''
UB_BUSYBOX=/bin/busybox
ub_sleep() { sleep "$1"; }
. "$UB_TOP/tests/pair/lib.sh"
UB_PAIR_ROLE=$1 UB_PAIR_PEER=127.0.0.1 UB_PAIR_SYNC_PORT=$2
ub_pair_sync "$3" "$4" "$5"
rc=$?
echo "rc=$rc value=$UB_PAIR_PEER_VALUE"
'''


class Sync(unittest.TestCase):
    def side(self, role, port, name, value, limit):
        return subprocess.Popen(["bash", "-c", SYNC_SCRIPT, "sync", role, str(port),
                                 name, value, str(limit)],
                                env=dict(os.environ, UB_TOP=TOP), text=True,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE)

    def both(self, name_a, name_b, a_first):
        port = free_port()
        first, second = (("a", name_a, "va 1"), ("b", name_b, "vb 2")) if a_first \
            else (("b", name_b, "vb 2"), ("a", name_a, "va 1"))
        # The limit is only reached when the test fails: the two meet as
        # soon as both run. It is long because make check runs this suite
        # niced beside two TCG guests, where starting b's shell and nc
        # once took over the 10 s that used to be the limit.
        p1 = self.side(first[0], port, first[1], first[2], 60)
        time.sleep(1)      # the first waits: a retries its connect, b listens
        p2 = self.side(second[0], port, second[1], second[2], 60)
        res = {}
        for role, p in ((first[0], p1), (second[0], p2)):
            out, err = p.communicate(timeout=90)
            res[role] = (out.strip(), err)
        return res

    def test_both_meet_and_trade_values_whoever_comes_first(self):
        for a_first in (True, False):
            res = self.both("eids", "eids", a_first)
            self.assertEqual(res["a"][0], "rc=0 value=vb 2", res)
            self.assertEqual(res["b"][0], "rc=0 value=va 1", res)

    def test_barriers_of_different_names_fail_on_both_sides(self):
        res = self.both("pinged", "unloaded", True)
        self.assertTrue(res["a"][0].startswith("rc=1"), res)
        self.assertIn("the peer is at barrier 'unloaded'", res["a"][1])
        self.assertTrue(res["b"][0].startswith("rc=1"), res)
        self.assertIn("the peer is at barrier 'pinged'", res["b"][1])

    def test_a_missing_peer_times_out_on_either_side(self):
        for role in ("a", "b"):
            start = time.monotonic()
            p = self.side(role, free_port(), "boot", "", 2)
            out, err = p.communicate(timeout=90)
            self.assertEqual(out.strip(), "rc=1 value=", role)
            self.assertIn("ub_pair_sync boot: no answer from the peer in 2s", err)
            # the 2 s limit, not the 60 s default; make check runs this
            # niced beside two TCG guests, where the shell's forks alone
            # took 8 s once, and the whole side 26 s once
            self.assertLess(time.monotonic() - start, 45, role)


if __name__ == "__main__":
    sys.exit(gtest_compat.main(__name__))
