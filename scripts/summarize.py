#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Judge a "make check" run and print its per-suite summary.

Reads the manifest of what must report (scripts/suites.py), the host
suites' GoogleTest JSON reports and exit statuses, and the results directory
of the guest run (results.txt, dmesg.txt with KUnit's KTAP, GoogleTest JSON,
kmemleak.txt, lockdep.txt, console.log, timeout, ub-only) and that of the
guest pair (scripts/pair-run.sh: the same for each guest in a/ and b/).
Prints one line per suite and a last line "N passed, N failed"; exits 1
when anything failed or when nothing ran at all.

Counting rules (README.md, "How the test harness works"):
- every manifest entry must report: a host or integration binary that writes
  no readable report, exits non-zero or leaves a listed test unreported, a
  KUnit suite that never appears in the kernel log, a guest case with no
  line in results.txt: each is a failure;
- a KUnit suite passes only with a plan line, every planned case reported in
  order (parameterised cases with their nested results) and its own result
  line before the next suite starts;
- a skipped test (GTEST_SKIP, DISABLED_, KUnit SKIP) fails unless
  tests/expected-skips.txt declares it with a reason ("suite.case reason",
  suite as printed in the summary); declared skips are reported;
- a run filtered with UB_ONLY fails;
- a pair case passes only when both guests recorded it as passed; each
  guest's kernel is judged like the single guest's (log, kmemleak, lockdep,
  time-out).
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
# KTAP as lib/kunit/test.c of Linux 6.1 prints it (KUNIT_SUBTEST_INDENT is
# four spaces): a suite is "    KTAP version 1", "    # Subtest: NAME",
# "    1..N", its cases "    ok|not ok I CASE[ # SKIP REASON]" and last
# "ok|not ok J NAME[ # SKIP REASON]" unindented. A parameterised case nests
# "        KTAP version 1", "        # Subtest: CASE" and one
# "        ok|not ok K PARAM" a parameter (no plan) before its own line.
KTAP_RESULT_RE = re.compile(r"^(ok|not ok) (\d+) (.*?)(?: # (SKIP)\b ?(.*))?$")
KTAP_SUBTEST_RE = re.compile(r"^# Subtest: (\S+)")
KTAP_PLAN_RE = re.compile(r"^1\.\.(\d+)")
KTAP_DIAG_RE = re.compile(r"(EXPECTATION|ASSERTION) FAILED at \S+")
GTEST_SKIP_END_RE = re.compile(r"^\[  SKIPPED \] (\S+)")
GTEST_RUN_RE = re.compile(r"^\[ RUN      \] (\S+)")

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_SKIPS = os.path.join(TOP, "tests", "expected-skips.txt")


class Suite:
    def __init__(self, kind, name):
        self.kind, self.name = kind, name
        self.passed = self.failed = self.skipped = 0
        self.failures, self.skips = [], []

    def add(self, ok, case, why=""):
        if ok:
            self.passed += 1
        else:
            self.failed += 1
            self.failures.append(f"{case}: {why}" if why else case)

    def fail_many(self, cases, why):
        """Each of CASES failed for the same reason: one line for them all."""
        if not cases:
            return
        self.failed += len(cases)
        shown = ", ".join(cases[:4]) + (", ..." if len(cases) > 4 else "")
        self.failures.append(f"{why}: {len(cases)} ({shown})")


class Skips:
    """tests/expected-skips.txt: "suite.case reason" lines, '#' comments."""

    def __init__(self, path):
        self.path, self.entries, self.errors, self.seen = path, {}, [], set()
        try:
            lines = open(path).read().splitlines()
        except FileNotFoundError:
            lines = []
        except OSError as e:
            self.errors.append(f"unreadable: {e}")
            lines = []
        for n, line in enumerate(lines, 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            ident, _, reason = line.partition(" ")
            if not reason.strip():
                self.errors.append(f"line {n}: {ident} has no reason")
            elif ident in self.entries:
                self.errors.append(f"line {n}: {ident} declared twice")
            else:
                self.entries[ident] = reason.strip()

    def ran(self, suite, case):
        self.seen.add(f"{suite.name}.{case}")

    def skipped(self, suite, case, reason):
        ident = f"{suite.name}.{case}"
        self.seen.add(ident)
        reason = reason or "no reason given"
        if ident in self.entries:
            suite.skipped += 1
            suite.skips.append(f"{case}: {reason} (expected: {self.entries[ident]})")
        else:
            suite.add(False, case, f"skipped ({reason}) and not declared in "
                      f"{os.path.basename(self.path)} as \"{ident} REASON\"")

    def check(self, suites, known):
        """Malformed lines, and entries naming no test of this run or of
        the manifest (KNOWN: ids and suite names), fail."""
        s = Suite("setup", "expected-skips")
        for e in self.errors:
            s.add(False, os.path.basename(self.path), e)
        for ident in sorted(self.entries):
            if ident not in self.seen and ident not in known \
                    and ident.rpartition(".")[0] not in known:
                s.add(False, ident, "declared an expected skip but names no test")
        if s.failed:
            suites.append(s)


def read_text(path):
    try:
        with open(path, errors="replace") as f:
            return f.read()
    except OSError:
        return None


def gtest_skip_reasons(log):
    """GTEST_SKIP() messages from a GoogleTest log: {Suite.Test: reason}."""
    reasons, current, text = {}, None, []
    for line in (log or "").splitlines():
        m = GTEST_RUN_RE.match(line)
        if m:
            current, text = m.group(1), []
            continue
        m = GTEST_SKIP_END_RE.match(line)
        if m and m.group(1) == current:
            msg = [t for t in text if t.strip()]
            reasons[current] = " ".join(msg).strip()
            current = None
            continue
        if current is not None:
            if line.endswith(": Skipped"):
                text = []
            else:
                text.append(line.strip())
    return reasons


def exit_text(rc):
    if rc == "timeout":
        return "killed after its time-out"
    try:
        rc = int(rc)
    except ValueError:
        return f"unknown exit status {rc!r}"
    if rc < 0:
        return f"killed by signal {-rc}"
    if rc > 128:
        return f"exited with status {rc} (signal {rc - 128}?)"
    return f"exited with status {rc}"


def gtest_report(kind, name, path, suites, skips, listed=None, rc=None, log=None):
    """Judge the GoogleTest JSON report PATH of binary NAME. LISTED: the
    tests the manifest expects (Suite.Test), RC: its exit status when known
    (None: judged elsewhere), LOG: its output (skip reasons)."""
    binary = Suite(kind, name)
    reported, skipped_all = set(), []
    try:
        with open(path) as f:
            report = json.load(f)
        if not isinstance(report.get("testsuites"), list):
            raise ValueError("no testsuites")
    except FileNotFoundError:
        report = None
        binary.add(False, "(report)", f"wrote no report ({os.path.basename(path)})")
    except (OSError, ValueError, AttributeError) as e:
        report = None
        binary.add(False, "(report)", f"unreadable report ({e})")
    reasons = gtest_skip_reasons(log)
    for ts in (report or {}).get("testsuites", []):
        s = Suite(kind, f"{name}/{ts.get('name')}")
        failing = 0
        cases = ts.get("testsuite", [])
        for tc in cases:
            full = f"{ts.get('name')}.{tc.get('name')}"
            reported.add(full)
            fails = tc.get("failures") or []
            if fails:
                failing += 1
                first = (fails[0].get("failure") or "failed").splitlines()
                s.add(False, tc.get("name"), first[0] if first else "failed")
            elif tc.get("status") == "NOTRUN":
                skips.skipped(s, tc.get("name"), "DISABLED_")
            elif tc.get("result") == "SKIPPED":
                msgs = [m.get("message", "") for m in tc.get("skipped") or []]
                skips.skipped(s, tc.get("name"),
                              " ".join(msgs).strip() or reasons.get(full, ""))
            elif tc.get("result") == "COMPLETED" and tc.get("status") == "RUN":
                skips.ran(s, tc.get("name"))
                s.add(True, tc.get("name"))
            else:
                s.add(False, tc.get("name"),
                      f"status {tc.get('status')}, result {tc.get('result')}")
        if cases and all(tc.get("result") == "SKIPPED" for tc in cases):
            skipped_all.append(str(ts.get("name")))
        # A failure outside any test (SetUpTestSuite, TearDownTestSuite):
        # a list of failures on the test suite object, or a count larger
        # than that of its failing tests.
        ts_fails = ts.get("failures")
        if isinstance(ts_fails, list):
            for f in ts_fails:
                why = (f.get("failure") or "failed").splitlines() if isinstance(f, dict) else [str(f)]
                s.add(False, "(suite)", "outside any test: " + (why[0] if why else ""))
        elif isinstance(ts_fails, int) and ts_fails > failing:
            s.add(False, "(suite)", f"{ts_fails - failing} failure(s) outside any test "
                  "(SetUpTestSuite or TearDownTestSuite)")
        suites.append(s)
    if rc is not None and str(rc) != "0":
        why = exit_text(rc)
        if skipped_all:
            why += "; every test of " + ", ".join(skipped_all) + \
                " SKIPPED (SetUpTestSuite failed?)"
        binary.add(False, "(exit)", why)
    if listed is not None:
        binary.fail_many([t for t in listed if t not in reported],
                         "not reported" if report else "not run")
        binary.fail_many(sorted(reported - set(listed)),
                         "reported but not listed by --gtest_list_tests")
    if binary.failed:
        suites.append(binary)


# ---- KUnit ------------------------------------------------------------------

class KunitRun:
    """One run of a KUnit suite as the kernel log shows it."""

    def __init__(self, name=None):
        self.name, self.plan, self.result = name, None, None
        self.cases = []     # [number, name, ok, skip reason or None, why, params]
        self.problems = []
        self.param = None   # open parameterised case: {"name", "results"}
        self.diag = []      # failure messages since the last case result


def parse_ktap(lines):
    """KunitRuns of the KTAP in kernel log LINES (timestamps allowed)."""
    runs, cur = [], None

    def close(why):
        nonlocal cur
        if cur is not None and cur.result is None:
            cur.problems.append(why)
        cur = None

    for raw in lines:
        line = TIMESTAMP_RE.sub("", raw.rstrip())
        text = line.lstrip(" ")
        indent = len(line) - len(text)
        if indent == 4:
            if text.startswith("KTAP version"):
                close("cut off: the next suite started before its result line")
                cur = KunitRun()
                runs.append(cur)
                continue
            m = KTAP_SUBTEST_RE.match(text)
            if m:
                if cur is None or cur.name is not None:
                    close("cut off: the next suite started before its result line")
                    cur = KunitRun()
                    runs.append(cur)
                cur.name = m.group(1)
                continue
            if cur is None:
                continue
            m = KTAP_PLAN_RE.match(text)
            if m and cur.plan is None and not cur.cases:
                cur.plan = int(m.group(1))
                continue
            m = KTAP_RESULT_RE.match(text)
            if m:
                status, num, desc, skip, reason = m.groups()
                params = []
                if cur.param is not None:
                    if cur.param["name"] != desc:
                        cur.problems.append(f"parameterised case {cur.param['name']} "
                                            f"ended by the result of {desc}")
                    params = cur.param["results"]
                    cur.param = None
                if int(num) != len(cur.cases) + 1:
                    cur.problems.append(f"case {desc} numbered {num}, "
                                        f"expected {len(cur.cases) + 1}")
                why = cur.diag[0] if cur.diag else ""
                cur.cases.append([int(num), desc, status == "ok",
                                  (reason or "") if skip else None, why, params])
                cur.diag = []
                continue
            if text.startswith("#"):
                m = KTAP_DIAG_RE.search(text)
                if m:
                    cur.diag.append(m.group(0))
            continue
        if indent == 8 and cur is not None:
            if text.startswith("KTAP version"):
                if cur.param is not None:
                    cur.problems.append(f"parameterised case {cur.param['name']} "
                                        "has no result line")
                cur.param = {"name": None, "results": []}
                continue
            m = KTAP_SUBTEST_RE.match(text)
            if m and cur.param is not None and cur.param["name"] is None:
                cur.param["name"] = m.group(1)
                continue
            m = KTAP_RESULT_RE.match(text)
            if m and cur.param is not None:
                status, num, desc, _, _ = m.groups()
                res = cur.param["results"]
                if int(num) != len(res) + 1:
                    cur.problems.append(f"parameter {desc} of {cur.param['name']} "
                                        f"numbered {num}, expected {len(res) + 1}")
                res.append((desc, status == "ok"))
            continue
        if indent == 0:
            m = KTAP_RESULT_RE.match(text)
            if not m:
                continue
            status, num, desc, skip, reason = m.groups()
            if cur is None or cur.name != desc:
                close(f"cut off: the result of suite {desc} came before its own")
                # A suite whose suite_init failed prints only this line.
                cur = KunitRun(desc)
                runs.append(cur)
                if status != "ok":
                    cur.problems.append("failed before its first case (suite_init?)")
            if cur.param is not None:
                cur.problems.append(f"parameterised case {cur.param['name']} "
                                    "has no result line")
            cur.result = (status == "ok", (reason or "") if skip else None)
            cur = None
    close("never finished (crash or hang?)")
    return runs


def judge_kunit(run, suites, skips):
    s = Suite("kunit", run.name or "(unnamed)")
    for num, case, ok, skip, why, params in run.cases:
        bad = [p for p, pok in params if not pok]
        if skip is not None and ok:
            skips.skipped(s, case, skip)
        elif not ok:
            why = why or "KUnit case failed"
            if bad:
                why += "; failed parameters: " + ", ".join(bad)
            s.add(False, case, why)
        elif bad:
            s.add(False, case, "ok, but its parameters failed: " + ", ".join(bad))
        else:
            skips.ran(s, case)
            s.add(True, case)
    for p in run.problems:
        s.add(False, "(suite)", p)
    if run.plan is None:
        if not run.problems:
            s.add(False, "(suite)", "no plan line")
    elif len(run.cases) != run.plan:
        s.add(False, "(suite)", f"{len(run.cases)} of {run.plan} planned cases reported")
    if run.result is not None and not run.result[0] and s.failed == 0:
        s.add(False, "(suite)", "the suite reported failure")
    suites.append(s)


def kunit_checks(lines, manifest, guest_ran, suites, skips):
    runs = parse_ktap(lines)
    for run in runs:
        judge_kunit(run, suites, skips)
    if manifest is None:
        return
    if "kunit" not in manifest:
        s = Suite("kunit", "manifest")
        s.add(False, "(kunit)", "no KUnit part in the manifest (module build failed?)")
        suites.append(s)
        return
    seen = {r.name for r in runs}
    for mod in manifest["kunit"]:
        s = Suite("kunit", mod["module"])
        if mod.get("error"):
            s.add(False, "(module)", mod["error"])
        s.fail_many([n for n in mod["suites"] if n not in seen],
                    "suites never in the kernel log" if guest_ran else
                    "suites not run: no guest run")
        if s.failed:
            suites.append(s)


# ---- the guest run ----------------------------------------------------------

def guest_health(out, lines, suites, kind="guest", name="health"):
    health = Suite(kind, name)
    suites.append(health)
    if os.path.exists(os.path.join(out, "timeout")):
        health.add(False, "finished in time", "guest timed out and was killed")
    else:
        health.add(True, "finished in time")
    finished = os.path.exists(os.path.join(out, "script.rc"))
    if not finished:
        why = "no script.rc (see console.log); kmemleak and lockdep not judged"
        where = last_case(lines)
        if where:
            why += "; " + where
        if os.path.exists(os.path.join(out, "peer-stopped")):
            why = "stopped because its peer stopped first; " + why
        health.add(False, "script ran to the end", why)
    problems = [l.rstrip() for l in lines if PROBLEM_RE.search(l)]
    health.add(not problems, "kernel log clean",
               "; ".join(problems[:5]) + (" ..." if len(problems) > 5 else ""))
    if finished:
        text = read_text(os.path.join(out, "kmemleak.txt"))
        if text is None:
            health.add(False, "kmemleak clean", "no kmemleak report (kmemleak off?)")
        else:
            n = text.count("unreferenced object")
            health.add(n == 0, "kmemleak clean", f"{n} unreferenced objects (kmemleak.txt)")
        text = read_text(os.path.join(out, "lockdep.txt"))
        health.add(bool(text and re.search(r"debug_locks:\s+1", text)),
                   "lockdep still active",
                   "lockdep turned itself off (an earlier report?)")
    only = read_text(os.path.join(out, "ub-only"))
    if only is not None:
        health.add(False, "full run", f"filtered with UB_ONLY={only.strip()}: "
                   "a development run, never a passing one")


CASE_MARK_RE = re.compile(r"^(?:\[\s*([0-9.]+)\]\s*)?ub-check: (\S+)( exit -?\d+)?\s*$")
KERNEL_TIME_RE = re.compile(r"^\[\s*([0-9.]+)\]")


def last_case(lines):
    """Where a guest that never finished stopped, from the marks that
    check-guest.sh writes to the kernel log ("ub-check: NAME" when a case
    starts, "... exit RC" when it ends): the case it was in, or the last
    one it ended, with the kernel's time of the mark and of its last line."""
    mark, last_t = None, None
    for line in map(str.strip, lines):
        m = CASE_MARK_RE.search(line)
        if m:
            mark = m
        t = KERNEL_TIME_RE.search(line)
        if t:
            last_t = t.group(1)
    if mark is None:
        return ""
    at = f" at {mark.group(1)} s" if mark.group(1) else ""
    where = (f"after case {mark.group(2)} ended{at}" if mark.group(3)
             else f"in case {mark.group(2)} (started{at})")
    return where + (f", last kernel line at {last_t} s" if last_t else "")


def read_results(path):
    """results.txt of a guest: {name: (passed, why)} and the names recorded
    more than once."""
    status, twice = {}, []
    for line in (read_text(path) or "").splitlines():
        word, _, rest = line.strip().partition(" ")
        name, _, why = rest.partition(" ")
        if not name:
            continue
        if name in status:
            twice.append(name)
            continue
        status[name] = (word == "PASS", why)
    return status, twice


def guest_cases(outs, manifest, suites):
    """results.txt of each guest in OUTS: one "PASS name" or "FAIL name
    (why)" a case; returns {name: passed}. The guests of one run share
    the cases out (check-guest.sh's claims): a case recorded by several
    (one that every guest runs, like no-leftover-modules) passes only if
    it passed in each."""
    cases = Suite("guest", "cases")
    suites.append(cases)
    merged = {}
    for out in outs:
        status, twice = read_results(os.path.join(out, "results.txt"))
        for name in twice:
            cases.add(False, name, "recorded twice")
        if not status:
            cases.add(False, "results.txt", "the guest recorded no case"
                      + (f" ({os.path.basename(out)})" if len(outs) > 1 else ""))
        for name, (ok, why) in status.items():
            was_ok, was_why = merged.get(name, (True, ""))
            merged[name] = (was_ok and ok, was_why if not was_ok else why)
    for name, (ok, why) in merged.items():
        cases.add(ok, name, why)
        if manifest is not None and name not in manifest.get("guest_cases", []):
            cases.add(False, name, "not in the manifest (check-guest.sh --list)")
    if manifest is not None:
        cases.fail_many([c for c in manifest.get("guest_cases", []) if c not in merged],
                        "never recorded in results.txt")
    return {name: ok for name, (ok, _) in merged.items()}


def guest_checks(outs, manifest, suites, skips):
    """The guests of the run (OUTS: their results directories; make check
    runs two side by side): each one's health, the KUnit suites from
    whichever ran them, the cases and the GoogleTest reports of all."""
    kunit_lines = []
    for n, out in enumerate(outs):
        dmesg = os.path.join(out, "dmesg.txt")
        src = dmesg if os.path.exists(dmesg) else os.path.join(out, "console.log")
        text = read_text(src)
        lines = text.splitlines() if text is not None else []
        # The kernel log right after the KUnit case (check-guest.sh), in
        # case the ring buffer dropped its start by the end of the run,
        # and the console's (the reports of every level up to notice: what
        # the ring buffer dropped is there too).
        text = read_text(os.path.join(out, "kunit-dmesg.txt"))
        klines = text.splitlines() if text is not None else lines
        text = read_text(os.path.join(out, "console.log")) if src == dmesg else None
        clines = text.splitlines() if text is not None else []
        seen = set(lines)
        extra = [l for l in klines + clines if l not in seen]
        guest_health(out, extra + lines, suites,
                     name="health" if n == 0 else f"health {os.path.basename(out)}")
        # the KUnit suites of the cases after the KUnit case too (ktest
        # modules that cases load: cm-ns-pair, cm-peer-loss)
        kseen = set(klines)
        kunit_lines += klines + [l for l in lines if l not in kseen]
    kunit_checks(kunit_lines, manifest, True, suites, skips)
    guest_cases(outs, manifest, suites)
    entries = manifest and manifest.get("itest", [])
    if not entries:
        for out in outs:
            gtest_binaries("guest", os.path.join(out, "gtest"), entries, suites, skips,
                           log_dir=os.path.join(out, "cases"))
        return
    for b in entries:
        # the guest that ran it (else the first: its report is missing)
        out = next((o for o in outs if os.path.exists(
            os.path.join(o, "gtest", b["name"] + ".json"))), outs[0])
        gtest_binaries("guest", os.path.join(out, "gtest"), [b], suites, skips,
                       log_dir=os.path.join(out, "cases"))


PAIR_ROLES = ("a", "b")


def pair_checks(out, manifest, suites):
    """The guest pair of scripts/pair-run.sh in OUT: each guest's health
    (a/, b/) and the cases, each passing only if both guests passed it."""
    sides = {}
    for role in PAIR_ROLES:
        d = os.path.join(out, role)
        if not os.path.isdir(d):
            s = Suite("pair", f"{role} health")
            s.add(False, "booted", f"guest {role} never ran (no {role}/)")
            suites.append(s)
            sides[role] = ({}, False)
            continue
        text = read_text(os.path.join(d, "dmesg.txt"))
        if text is None:
            text = read_text(os.path.join(d, "console.log")) or ""
        guest_health(d, text.splitlines(), suites, "pair", f"{role} health")
        status, twice = read_results(os.path.join(d, "results.txt"))
        for name in twice:
            suites[-1].add(False, name, f"recorded twice in {role}/results.txt")
        sides[role] = (status, os.path.exists(os.path.join(d, "timeout")))
    cases = Suite("pair", "cases")
    suites.append(cases)
    only = read_text(os.path.join(out, "ub-only"))
    if only is not None:
        cases.add(False, "full run", f"filtered with UB_ONLY={only.strip()}: "
                  "a development run, never a passing one")
    recorded = sorted(set().union(*(set(st) for st, _ in sides.values())))
    expected = manifest.get("pair_cases") if manifest is not None else None
    names = expected if expected is not None else recorded
    for name in names:
        whys = []
        for role in PAIR_ROLES:
            status, timed_out = sides[role]
            if name not in status:
                whys.append(f"{role}: never recorded" +
                            (" (guest timed out)" if timed_out else ""))
            elif not status[name][0]:
                whys.append(f"{role}: {status[name][1] or 'failed'}")
        cases.add(not whys, name, "; ".join(whys))
    if expected is not None:
        for name in recorded:
            if name not in expected:
                cases.add(False, name, "recorded but not in the manifest")
    if not names and not recorded:
        cases.add(False, "results.txt", "the pair recorded no case")


def host_rc(hdir, name):
    rc = read_text(os.path.join(hdir, name + ".rc"))
    return rc.strip() if rc is not None else "none (never ran)"


def gtest_binaries(kind, rdir, entries, suites, skips, rc=None, log_dir=None):
    """The reports in RDIR of the binaries of manifest ENTRIES (None: of
    every report there); RC(name): a binary's exit status, when known; its
    log in LOG_DIR (default RDIR)."""
    if entries is None:
        for path in sorted(glob.glob(os.path.join(rdir, "*.json"))):
            gtest_report(kind, os.path.basename(path)[: -len(".json")], path,
                         suites, skips)
        return
    for b in entries:
        name = b["name"]
        if b.get("error"):
            s = Suite(kind, name)
            s.add(False, "(list)", b["error"])
            suites.append(s)
        gtest_report(kind, name, os.path.join(rdir, name + ".json"), suites, skips,
                     listed=b["tests"], rc=rc(name) if rc else None,
                     log=read_text(os.path.join(log_dir or rdir, name + ".log")))


def not_run(manifest, suites):
    """The guest part of MANIFEST when no guest ran."""
    s = Suite("guest", "not run")
    s.fail_many(manifest.get("guest_cases", []), "guest cases not run")
    for it in manifest.get("itest", []):
        s.fail_many(it["tests"], f"{it['name']} not run")
    suites.append(s)
    kunit_checks([], manifest, False, suites, Skips(os.devnull))


def load_manifest(path, suites):
    s = Suite("setup", "manifest")
    man = None
    if not path:
        s.add(False, "manifest", "none: what must report is unknown")
    else:
        try:
            with open(path) as f:
                man = json.load(f)
        except (OSError, ValueError) as e:
            s.add(False, "manifest", f"unreadable ({e})")
    for e in (man or {}).get("errors", []):
        s.add(False, "manifest", e)
    if s.failed:
        suites.append(s)
    return man


def known_ids(man):
    known = set()
    for part in ("host", "itest"):
        for b in (man or {}).get(part, []):
            for t in b.get("tests", []):
                suite, _, case = t.partition(".")
                known.add(f"{b['name']}/{suite}.{case}")
    for mod in (man or {}).get("kunit", []):
        known.update(mod.get("suites", []))
    return known


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--manifest", help="what must report (scripts/suites.py)")
    ap.add_argument("--host", help="directory of the host suites' reports")
    ap.add_argument("--guest", action="append",
                    help="results directory of a guest of the run (repeat "
                    "for the guests that shared the cases out)")
    ap.add_argument("--pair", help="results directory of the guest pair "
                    "(scripts/pair-run.sh)")
    ap.add_argument("--expected-skips", default=DEFAULT_SKIPS,
                    help="declared skips (default: tests/expected-skips.txt)")
    ap.add_argument("--extra-failure", action="append", default=[],
                    help="a failure found before judging (e.g. a build step)")
    args = ap.parse_args()

    suites = []
    if args.extra_failure:
        s = Suite("setup", "steps")
        for why in args.extra_failure:
            s.add(False, why)
        suites.append(s)
    skips = Skips(args.expected_skips)
    man = None
    if args.manifest or args.host or args.guest or args.pair:
        man = load_manifest(args.manifest, suites)
    if args.host or (man and man.get("host")):
        hdir = args.host or "/nonexistent"
        gtest_binaries("host", hdir, man and man.get("host", []), suites, skips,
                       rc=lambda name: host_rc(hdir, name))
    if args.guest:
        guest_checks(args.guest, man, suites, skips)
    elif man is not None and "guest_cases" in man:
        not_run(man, suites)
    if args.pair:
        pair_checks(args.pair, man, suites)
    elif man is not None and man.get("pair_cases"):
        s = Suite("pair", "not run")
        s.fail_many(man["pair_cases"], "pair cases not run")
        suites.append(s)
    skips.check(suites, known_ids(man))

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
        for why in s.skips:
            print(f"         SKIP {why}")
    if passed + failed == 0:
        print("nothing ran")
        failed = 1
    if skipped:
        print(f"{skipped} skipped, each declared in {args.expected_skips}")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
