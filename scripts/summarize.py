#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Judge a "make check" run and print its per-suite summary.

Reads GoogleTest JSON reports of the host suites, and the results directory
of the guest run (results.txt, dmesg.txt with KUnit's KTAP, GoogleTest JSON,
kmemleak.txt, lockdep.txt, console.log, timeout). Prints one line per suite
and a last line "N passed, N failed"; exits 1 when anything failed or when
nothing ran at all.
"""
import argparse
import glob
import json
import os
import re
import sys

# dmesg lines that fail a run wherever they appear.
KERNEL_PROBLEMS = [
    r"BUG: ", r"WARNING: ", r"\bOops\b", r"general protection fault",
    r"Kernel panic", r"KASAN", r"UBSAN", r"kernel BUG at",
    r"possible circular locking dependency", r"possible recursive locking",
    r"inconsistent lock state", r"suspicious RCU usage",
    r"INFO: task .* blocked for more than", r"rcu: INFO: .* stall",
    r"sleeping function called from invalid context",
    r"list_(add|del) corruption", r"kmemleak: .* new suspected memory leak",
    r"refcount_t: ", r"Call Trace:",
]
PROBLEM_RE = re.compile("|".join(KERNEL_PROBLEMS))
TIMESTAMP_RE = re.compile(r"^\[\s*\d+\.\d+\] ?")
KTAP_RESULT_RE = re.compile(r"^(\s*)(ok|not ok) (\d+) ([^#]*?)\s*(#\s*(\S+).*)?$")
KTAP_SUBTEST_RE = re.compile(r"^(\s*)# Subtest: (\S+)")
KTAP_PLAN_RE = re.compile(r"^(\s*)1\.\.(\d+)")


class Suite:
    def __init__(self, kind, name):
        self.kind, self.name = kind, name
        self.passed = self.failed = self.skipped = 0
        self.failures = []

    def add(self, ok, case, why="", skipped=False):
        if skipped:
            self.skipped += 1
        elif ok:
            self.passed += 1
        else:
            self.failed += 1
            self.failures.append(f"{case}: {why}" if why else case)


def gtest_suites(kind, path, suites):
    name = os.path.basename(path)[: -len(".json")]
    try:
        with open(path) as f:
            report = json.load(f)
    except (OSError, ValueError) as e:
        s = Suite(kind, name)
        s.add(False, name, f"no readable report ({e})")
        suites.append(s)
        return
    for ts in report.get("testsuites", []):
        s = Suite(kind, f"{name}/{ts['name']}")
        for tc in ts.get("testsuite", []):
            skipped = tc.get("result") == "SKIPPED" or tc.get("status") == "NOTRUN"
            fails = tc.get("failures", [])
            why = fails[0].get("failure", "").splitlines()[0] if fails else ""
            s.add(not fails, tc["name"], why, skipped)
        suites.append(s)


def kunit_suites(lines, suites):
    """Parse KTAP from dmesg: suites are the subtests indented once; a
    subtest indented deeper is a parameterised case, counted by its
    parameters (as case[param])."""
    current, plan, top, param = None, 0, 0, None
    for raw in lines:
        line = TIMESTAMP_RE.sub("", raw.rstrip("\n"))
        m = KTAP_SUBTEST_RE.match(line)
        if m and len(m.group(1)) > 4 and current is not None:
            param = [m.group(2), 0]
            continue
        if m and m.group(1):
            current, plan, top, param = Suite("kunit", m.group(2)), 0, 0, None
            suites.append(current)
            continue
        if current is None:
            continue
        m = KTAP_PLAN_RE.match(line)
        if m and len(m.group(1)) == 4:
            plan = int(m.group(2))
            continue
        m = KTAP_RESULT_RE.match(line)
        if not m:
            continue
        indent, status, _, case, _, directive = m.groups()
        if len(indent) > 4 and param is not None:
            current.add(status == "ok", f"{param[0]}[{case.strip()}]",
                        "KUnit case failed", directive == "SKIP")
            param[1] += status != "ok"
        elif indent:
            top += 1
            if param is not None and case.strip() == param[0]:
                # the parameterised case's own line: its parameters counted
                if status != "ok" and directive != "SKIP" and not param[1]:
                    current.add(False, param[0], "KUnit case failed")
                param = None
                continue
            current.add(status == "ok", case.strip(), "KUnit case failed",
                        directive == "SKIP")
        else:
            if top < plan:
                current.add(False, "(suite)", f"only {top} of {plan} cases reported")
            if status != "ok" and current.failed == 0:
                current.add(False, "(suite)", "suite reported failure")
            current = None
    if current is not None:
        current.add(False, "(suite)", "suite never finished (crash or hang?)")


def guest_checks(out, suites):
    health = Suite("guest", "health")
    suites.append(health)
    if os.path.exists(os.path.join(out, "timeout")):
        health.add(False, "finished in time", "guest timed out and was killed")
    else:
        health.add(True, "finished in time")
    rc_path = os.path.join(out, "script.rc")
    finished = os.path.exists(rc_path)
    if not finished:
        health.add(False, "script ran to the end",
                   "no script.rc (see console.log); kmemleak and lockdep not judged")
    dmesg_path = os.path.join(out, "dmesg.txt")
    src = dmesg_path if os.path.exists(dmesg_path) else os.path.join(out, "console.log")
    try:
        with open(src, errors="replace") as f:
            lines = f.readlines()
    except OSError:
        lines = []
    problems = [l.rstrip() for l in lines if PROBLEM_RE.search(l)]
    health.add(not problems, "kernel log clean",
               "; ".join(problems[:5]) + (" ..." if len(problems) > 5 else ""))
    leak = os.path.join(out, "kmemleak.txt")
    if not finished:
        pass
    elif os.path.exists(leak):
        with open(leak, errors="replace") as f:
            text = f.read()
        n = text.count("unreferenced object")
        health.add(n == 0, "kmemleak clean", f"{n} unreferenced objects (kmemleak.txt)")
    else:
        health.add(False, "kmemleak clean", "no kmemleak report (kmemleak off?)")
    lockdep = os.path.join(out, "lockdep.txt")
    if finished:
        active = os.path.exists(lockdep) and re.search(r"debug_locks:\s+1",
                                                       open(lockdep).read())
        health.add(bool(active), "lockdep still active",
                   "lockdep turned itself off (an earlier report?)")
    kunit_suites(lines, suites)

    cases = Suite("guest", "cases")
    results = os.path.join(out, "results.txt")
    if os.path.exists(results):
        for line in open(results):
            status, _, rest = line.strip().partition(" ")
            name, _, why = rest.partition(" ")
            cases.add(status == "PASS", name, why)
    if cases.passed + cases.failed == 0:
        cases.add(False, "results.txt", "the guest recorded no case")
    suites.append(cases)
    for path in sorted(glob.glob(os.path.join(out, "gtest", "*.json"))):
        gtest_suites("guest", path, suites)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--host", help="directory of host GoogleTest JSON reports")
    ap.add_argument("--guest", help="results directory of the guest run")
    ap.add_argument("--extra-failure", action="append", default=[],
                    help="a failure found before judging (e.g. a build step)")
    args = ap.parse_args()

    suites = []
    if args.extra_failure:
        s = Suite("setup", "steps")
        for why in args.extra_failure:
            s.add(False, why)
        suites.append(s)
    if args.host:
        reports = sorted(glob.glob(os.path.join(args.host, "*.json")))
        for path in reports:
            gtest_suites("host", path, suites)
    if args.guest:
        guest_checks(args.guest, suites)

    passed = sum(s.passed for s in suites)
    failed = sum(s.failed for s in suites)
    skipped = sum(s.skipped for s in suites)
    width = max([len(s.name) for s in suites] + [10])
    for s in suites:
        line = f"{s.kind:6} {s.name:{width}}  {s.passed:4} passed, {s.failed} failed"
        if s.skipped:
            line += f", {s.skipped} skipped"
        print(line)
        for why in s.failures:
            print(f"         FAIL {why}")
    if passed + failed == 0:
        print("nothing ran")
        failed = 1
    tail = f", {skipped} skipped" if skipped else ""
    print(f"{passed} passed, {failed} failed{tail}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
