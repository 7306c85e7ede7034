#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Tests of make check's judge (scripts/summarize.py) and manifest
(scripts/suites.py) on recorded inputs (data/): each counting defect of
issue 18 is a test here that the summarizer before the fix passed green.
A host suite of make check (GoogleTest's command line: gtest_compat.py).
UB_SUMMARIZE=PATH runs the tests against another summarize.py."""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(os.path.dirname(HERE))
DATA = os.path.join(HERE, "data")
SUMMARIZE = os.environ.get("UB_SUMMARIZE", os.path.join(TOP, "scripts", "summarize.py"))
sys.dont_write_bytecode = True     # no __pycache__ in the source tree
sys.path.insert(0, os.path.join(TOP, "scripts"))
sys.path.insert(0, HERE)
import gtest_compat  # noqa: E402
import suites  # noqa: E402

# The tests of data/gtest/record.cpp, as its --gtest_list_tests names them.
RECORDED_TESTS = ["Fx.One", "Fx.Two", "Plain.Three", "Plain.DISABLED_Four",
                  "Inst/P.Param/0", "Inst/P.Param/1"]
# The recorded binary disables Plain.DISABLED_Four on purpose.
DISABLED_DECLARED = "t/Plain.DISABLED_Four disabled on purpose in record.cpp\n"


# A passing binary beside the one under test: the run is otherwise green.
OTHER_REPORT = json.dumps({"tests": 1, "failures": 0, "testsuites": [{
    "name": "U", "tests": 1, "failures": 0, "testsuite": [
        {"name": "ok", "status": "RUN", "result": "COMPLETED"}]}]})


def data(*path):
    with open(os.path.join(DATA, *path)) as f:
        return f.read()


class Run:
    """A results directory in the layout of make check, built in a test."""

    def __init__(self, tmp):
        self.tmp = tmp
        self.host = os.path.join(tmp, "host")
        self.guest = None
        self.more_guests = []
        self.manifest = {"host": [], "itest": [], "guest_cases": [], "kunit": [],
                         "errors": []}
        self.skips = ""
        os.makedirs(self.host)

    def host_binary(self, name, tests, report=None, rc=0, log=None):
        """A host suite: its manifest entry, report (None: none written),
        exit status (None: never ran) and log."""
        self.manifest["host"].append({"name": name, "cmd": [name], "tests": tests})
        if report is not None:
            self.write(os.path.join(self.host, name + ".json"), report)
        if rc is not None:
            self.write(os.path.join(self.host, name + ".rc"), f"{rc}\n")
        if log is not None:
            self.write(os.path.join(self.host, name + ".log"), log)

    def guest_dir(self, name, dmesg, results):
        """A finished, clean guest's results directory."""
        d = os.path.join(self.tmp, name)
        for sub in ("cases", "gtest"):
            os.makedirs(os.path.join(d, sub), exist_ok=True)
        self.write(os.path.join(d, "script.rc"), "0\n")
        self.write(os.path.join(d, "dmesg.txt"), dmesg)
        self.write(os.path.join(d, "kmemleak.txt"), "")
        self.write(os.path.join(d, "lockdep.txt"), " debug_locks:   1\n")
        self.write(os.path.join(d, "results.txt"),
                   "".join(line + "\n" for line in results))
        return d

    def guest_run(self, dmesg="", results=(), kunit=None, cases=None):
        """A finished, clean guest run: RESULTS are results.txt's lines,
        KUNIT {module: [suites]} the manifest's KUnit part, CASES the
        manifest's guest cases (default: those of RESULTS)."""
        self.guest = self.guest_dir("guest", dmesg, results)
        self.manifest["guest_cases"] = cases if cases is not None else \
            [line.split()[1] for line in results]
        self.manifest["kunit"] = [{"module": m, "suites": s}
                                  for m, s in (kunit or {}).items()]

    def second_guest(self, dmesg="", results=()):
        """A second guest of the run (make check's guest2), which shared
        the manifest's cases out with the first."""
        self.more_guests.append(self.guest_dir("guest2", dmesg, results))
        return self.more_guests[-1]

    def itest(self, name, tests, report=None, guest=None):
        self.manifest["itest"].append({"name": name, "cmd": [name], "tests": tests})
        if report is not None:
            self.write(os.path.join(guest or self.guest, "gtest", name + ".json"), report)

    @staticmethod
    def write(path, text):
        with open(path, "w") as f:
            f.write(text)

    def summarize(self):
        """Runs the summarizer; returns (exit status, output)."""
        man = os.path.join(self.tmp, "manifest.json")
        skips = os.path.join(self.tmp, "expected-skips.txt")
        self.write(man, json.dumps(self.manifest))
        self.write(skips, self.skips)
        cmd = [sys.executable, SUMMARIZE, "--manifest", man, "--host", self.host,
               "--expected-skips", skips]
        if self.guest:
            cmd += ["--guest", self.guest]
        for g in self.more_guests:
            cmd += ["--guest", g]
        # No time-out of its own: make check runs this niced beside two
        # TCG guests, where one run once took over a minute; a hang is
        # caught by the host suite's time-out (UB_HOST_TIMEOUT).
        p = subprocess.run(cmd, capture_output=True, text=True)
        return p.returncode, p.stdout + p.stderr


class Case(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="summarize-test-")
        self.addCleanup(shutil.rmtree, self.tmp)
        self.run_ = Run(self.tmp)

    def assertFails(self, *expect):
        rc, out = self.run_.summarize()
        self.assertNotEqual(rc, 0, out)
        last = out.strip().splitlines()[-1]
        self.assertRegex(last, r"^\d+ passed, [1-9]\d* failed$", out)
        for e in expect:
            self.assertIn(e, out)
        return out

    def assertPasses(self, *expect):
        rc, out = self.run_.summarize()
        self.assertEqual(rc, 0, out)
        self.assertRegex(out.strip().splitlines()[-1], r"^[1-9]\d* passed, 0 failed$", out)
        for e in expect:
            self.assertIn(e, out)
        return out


class HostBinaries(Case):
    """Host GoogleTest binaries: exit status, report, listed tests."""

    def test_passing_binary_passes(self):
        self.run_.skips = DISABLED_DECLARED
        self.run_.host_binary("t", RECORDED_TESTS, data("gtest", "passing.json"))
        out = self.assertPasses("5 passed, 0 failed")
        self.assertIn("SKIP DISABLED_Four: DISABLED_ (expected: disabled on purpose", out)

    def test_binary_that_aborts_without_report_fails(self):
        # It aborted at start-up: no JSON, exit 134; its tests must not
        # vanish from a run that is otherwise green.
        self.run_.host_binary("u", ["U.ok"], OTHER_REPORT)
        self.run_.host_binary("t", RECORDED_TESTS, None, rc=134)
        self.assertFails("1 passed, 8 failed", "wrote no report",
                         "exited with status 134", "not run: 6")

    def test_binary_that_exits_0_without_report_fails(self):
        # exit(0) inside a test: GoogleTest writes no JSON, status 0.
        self.run_.host_binary("u", ["U.ok"], OTHER_REPORT)
        self.run_.host_binary("t", RECORDED_TESTS, None, rc=0)
        self.assertFails("wrote no report", "not run: 6")

    def test_binary_that_never_ran_fails(self):
        self.run_.host_binary("u", ["U.ok"], OTHER_REPORT)
        self.run_.host_binary("t", RECORDED_TESTS, None, rc=None)
        self.assertFails("never ran", "not run: 6")

    def test_teardown_test_suite_failure_fails(self):
        # TearDownTestSuite's failure is in no test of the report: all its
        # tests are COMPLETED; only the exit status tells.
        self.run_.skips = DISABLED_DECLARED
        self.run_.host_binary("t", RECORDED_TESTS, data("gtest", "teardown-fails.json"), rc=1)
        self.assertFails("5 passed, 1 failed", "exited with status 1")

    def test_setup_test_suite_failure_fails(self):
        # SetUpTestSuite failed: both tests SKIPPED, 0 failures in the
        # report; declaring the skips expected does not make it pass.
        self.run_.skips = DISABLED_DECLARED + "t/Fx.One declared\nt/Fx.Two declared\n"
        self.run_.host_binary("t", RECORDED_TESTS, data("gtest", "setup-fails.json"), rc=1,
                              log=data("gtest", "setup-fails.log"))
        self.assertFails("every test of Fx SKIPPED (SetUpTestSuite failed?)")

    def test_setup_test_suite_failure_skips_fail_undeclared(self):
        self.run_.skips = DISABLED_DECLARED
        self.run_.host_binary("t", RECORDED_TESTS, data("gtest", "setup-fails.json"), rc=1)
        self.assertFails("One: skipped", "Two: skipped", "3 passed, 3 failed")

    def test_suite_level_failure_count_fails(self):
        # A report that counts a failure on the test suite object outside
        # its tests (a newer GoogleTest's SetUpTestSuite) fails even with
        # exit status 0.
        report = json.loads(data("gtest", "passing.json"))
        report["testsuites"][1]["failures"] = 1
        self.run_.skips = DISABLED_DECLARED
        self.run_.host_binary("t", RECORDED_TESTS, json.dumps(report))
        self.assertFails("1 failure(s) outside any test")

    def test_suite_level_failure_list_fails(self):
        report = json.loads(data("gtest", "passing.json"))
        report["testsuites"][0]["failures"] = [{"failure": "t.cpp:7\nsetup broke"}]
        self.run_.skips = DISABLED_DECLARED
        self.run_.host_binary("t", RECORDED_TESTS, json.dumps(report))
        self.assertFails("outside any test: t.cpp:7")

    def test_listed_test_missing_from_report_fails(self):
        self.run_.skips = DISABLED_DECLARED
        self.run_.host_binary("t", RECORDED_TESTS + ["Plain.Five"],
                              data("gtest", "passing.json"))
        self.assertFails("not reported: 1 (Plain.Five)")

    def test_unreadable_report_fails(self):
        self.run_.host_binary("t", RECORDED_TESTS, '{"testsuites": [', rc=0)
        self.assertFails("unreadable report")

    def test_test_list_error_fails(self):
        # A binary that cannot even list its tests (abort at start-up).
        self.run_.host_binary("u", ["U.ok"], OTHER_REPORT)
        self.run_.host_binary("t", [], None, rc=134)
        self.run_.manifest["host"][0]["error"] = "--gtest_list_tests exited with status 134"
        self.assertFails("--gtest_list_tests exited with status 134")


class Skips(Case):
    """Skips fail unless declared in the expected-skips file, with a reason."""

    def test_undeclared_gtest_skip_fails(self):
        self.run_.skips = DISABLED_DECLARED
        self.run_.host_binary("t", RECORDED_TESTS, data("gtest", "skip.json"),
                              log=data("gtest", "skip.log"))
        self.assertFails("Two: skipped (no device here) and not declared",
                         '"t/Fx.Two REASON"')

    def test_declared_gtest_skip_passes_and_is_reported(self):
        self.run_.skips = DISABLED_DECLARED + "t/Fx.Two the CI host has no device\n"
        self.run_.host_binary("t", RECORDED_TESTS, data("gtest", "skip.json"),
                              log=data("gtest", "skip.log"))
        self.assertPasses("SKIP Two: no device here (expected: the CI host has no device)",
                          "2 skipped, each declared in")

    def test_undeclared_disabled_test_fails(self):
        self.run_.host_binary("t", RECORDED_TESTS, data("gtest", "passing.json"))
        self.assertFails("DISABLED_Four: skipped (DISABLED_)")

    def test_declared_skip_without_reason_fails(self):
        self.run_.skips = "t/Plain.DISABLED_Four\n"
        self.run_.host_binary("t", RECORDED_TESTS, data("gtest", "passing.json"))
        self.assertFails("has no reason")

    def test_declared_skip_of_no_test_fails(self):
        self.run_.skips = DISABLED_DECLARED + "t/Fx.Gone it was removed\n"
        self.run_.host_binary("t", RECORDED_TESTS, data("gtest", "passing.json"))
        self.assertFails("t/Fx.Gone: declared an expected skip but names no test")

    def test_undeclared_kunit_skip_fails(self):
        self.run_.guest_run(data("ktap", "skip.txt"), ["PASS kunit-modules"],
                            {"m/m_kunit.ko": ["s1"]})
        self.assertFails("needs_hw: skipped (no UB hardware)", '"s1.needs_hw REASON"')

    def test_declared_kunit_skip_passes(self):
        self.run_.skips = "s1.needs_hw the guest has no UB hardware\n"
        self.run_.guest_run(data("ktap", "skip.txt"), ["PASS kunit-modules"],
                            {"m/m_kunit.ko": ["s1"]})
        self.assertPasses("SKIP needs_hw: no UB hardware (expected: the guest has no UB")


class Kunit(Case):
    """KTAP of the kernel log against the manifest's KUnit suites."""

    def test_recorded_suites_pass(self):
        self.run_.guest_run(data("ktap", "passing.txt"), ["PASS kunit-modules"],
                            {"ubcore/ubcore_kunit.ko": ["ubcore_eid", "ubcore_eid_table"]})
        self.assertPasses("kunit  ubcore_eid ", "kunit  ubcore_eid_table ")

    def test_ktap_read_from_the_log_saved_after_kunit(self):
        # dmesg.txt of the end of the run lost its start (ring buffer); the
        # log saved right after kunit-modules has the suites, and a kernel
        # problem in it still fails the run.
        self.run_.guest_run("[ 900.000000] ub-check: no-leftover-modules exit 0\n",
                            ["PASS kunit-modules"],
                            {"ubcore/ubcore_kunit.ko": ["ubcore_eid", "ubcore_eid_table"]})
        kunit_log = os.path.join(self.run_.guest, "kunit-dmesg.txt")
        self.run_.write(kunit_log, data("ktap", "passing.txt"))
        self.assertPasses("kunit  ubcore_eid ")
        self.run_.write(kunit_log, data("ktap", "passing.txt") +
                        "[   20.000000] BUG: KASAN: use-after-free in x+0x1/0x2\n")
        self.assertFails("kernel log clean: [   20.000000] BUG: KASAN")

    def test_ktap_of_a_later_case_counts_too(self):
        # The guest that ran kunit-modules also ran cm-peer-loss, whose
        # ktest module logged its suite after kunit-dmesg.txt was saved:
        # both logs count (it once vanished from the count).
        later = ("[  500.000001]     KTAP version 1\n"
                 "[  500.000002]     # Subtest: ubcore_cm_peer\n"
                 "[  500.000003]     1..1\n"
                 "[  500.000004]     ok 1 peer_lost\n"
                 "[  500.000005] # ubcore_cm_peer: pass:1 fail:0 skip:0 total:1\n"
                 "[  500.000006] ok 1 ubcore_cm_peer\n")
        self.run_.guest_run(data("ktap", "passing.txt") + later, ["PASS kunit-modules"],
                            {"ubcore/ubcore_kunit.ko": ["ubcore_eid", "ubcore_eid_table"]})
        self.run_.write(os.path.join(self.run_.guest, "kunit-dmesg.txt"), data("ktap", "passing.txt"))
        out = self.assertPasses("kunit  ubcore_eid ", "kunit  ubcore_cm_peer ")
        self.assertEqual(out.count("kunit  ubcore_eid "), 1)

    def test_recorded_kernel_output(self):
        # Linux 6.1's own KTAP (data/ktap/README): every outcome at once.
        self.run_.guest_run(data("ktap", "recorded-6.1.txt"), ["PASS kunit-modules"],
                            {"rec_kunit.ko": ["rec_param", "rec_fail_skip",
                                              "rec_init_fails"]})
        out = self.assertFails(
            "sizes_bad: EXPECTATION FAILED at rec_kunit.c:17; failed parameters: size-4096",
            '"rec_fail_skip.needs_hw REASON"',
            "(suite): failed before its first case (suite_init?)")
        self.assertRegex(out, r"kunit +rec_param +3 passed, 0 failed\n")
        self.assertRegex(out, r"kunit +rec_fail_skip +1 passed, 2 failed\n")
        self.assertRegex(out, r"kunit +rec_init_fails +0 passed, 1 failed\n")
        self.assertRegex(out, r"\n9 passed, 3 failed\n$")

    def test_suite_never_in_dmesg_fails(self):
        self.run_.guest_run(data("ktap", "passing.txt"), ["PASS kunit-modules"],
                            {"ubcore/ubcore_kunit.ko": ["ubcore_eid", "ubcore_eid_table",
                                                        "ubcore_gone"]})
        self.assertFails("suites never in the kernel log: 1 (ubcore_gone)")

    def test_no_kunit_module_fails(self):
        # The build has no *_kunit.ko at all: the manifest says so (see
        # Manifest.test_no_kunit_module_is_an_error) and the run fails even
        # though kunit-modules passed.
        self.run_.guest_run("", ["PASS kunit-modules"], {})
        self.run_.manifest["errors"] = ["no KUnit module (*_kunit.o) in any Kbuild"]
        self.assertFails("no KUnit module")

    def test_module_not_built_fails(self):
        self.run_.guest_run(data("ktap", "passing.txt"), ["PASS kunit-modules"],
                            {"ubcore/ubcore_kunit.ko": ["ubcore_eid", "ubcore_eid_table"]})
        self.run_.manifest["kunit"].append({"module": "udma/udma_kunit.ko", "suites": [],
                                            "error": "declared in Kbuild but not built"})
        self.assertFails("udma/udma_kunit.ko", "declared in Kbuild but not built")

    def test_suite_cut_off_by_next_suite_fails(self):
        self.run_.guest_run(data("ktap", "cut-off.txt"), ["PASS kunit-modules"],
                            {"m/m_kunit.ko": ["s1", "s2"]})
        self.assertFails("cut off: the next suite started before its result line",
                         "2 of 3 planned cases reported")

    def test_parameterised_cases_count_once(self):
        self.run_.guest_run(data("ktap", "param-passing.txt"), ["PASS kunit-modules"],
                            {"m/m_kunit.ko": ["s1"]})
        out = self.assertPasses()
        self.assertRegex(out, r"kunit +s1 +3 passed, 0 failed")
        self.assertNotIn("sizes ", out.split("passed, 0 failed")[0].split("s1")[0])

    def test_parameterised_suite_missing_a_case_fails(self):
        self.run_.guest_run(data("ktap", "param-missing-case.txt"), ["PASS kunit-modules"],
                            {"m/m_kunit.ko": ["s1"]})
        self.assertFails("2 of 3 planned cases reported")

    def test_failed_parameter_fails(self):
        self.run_.guest_run(data("ktap", "param-failed.txt"), ["PASS kunit-modules"],
                            {"m/m_kunit.ko": ["s1"]})
        self.assertFails("sizes: EXPECTATION FAILED at s1_kunit.c:42; failed parameters: "
                         "size-4096")

    def test_suite_init_failure_fails(self):
        self.run_.guest_run(data("ktap", "init-failed.txt"), ["PASS kunit-modules"],
                            {"m/m_kunit.ko": ["s1"]})
        self.assertFails("failed before its first case")

    def test_suite_that_never_finished_fails(self):
        self.run_.guest_run(data("ktap", "crash.txt"), ["PASS kunit-modules"],
                            {"m/m_kunit.ko": ["s1"]})
        self.assertFails("never finished")

    def test_misnumbered_case_fails(self):
        ktap = data("ktap", "skip.txt").replace("ok 2 needs_hw # SKIP no UB hardware",
                                                "ok 3 second")
        self.run_.guest_run(ktap, ["PASS kunit-modules"], {"m/m_kunit.ko": ["s1"]})
        self.assertFails("case second numbered 3, expected 2")


class Guest(Case):
    """In-guest cases and integration binaries."""

    def test_itest_that_exits_0_without_report_fails(self):
        self.run_.guest_run("", ["PASS it_itest"])
        self.run_.itest("it_itest", ["A.b", "A.c"], None)
        self.assertFails("wrote no report", "not run: 2 (A.b, A.c)")

    def test_itest_with_report_passes(self):
        self.run_.skips = DISABLED_DECLARED.replace("t/", "it_itest/")
        self.run_.guest_run("", ["PASS it_itest"])
        self.run_.itest("it_itest", RECORDED_TESTS, data("gtest", "passing.json"))
        self.assertPasses("10 passed, 0 failed")

    def test_case_never_recorded_fails(self):
        self.run_.guest_run("", ["PASS a"], cases=["a", "b"])
        self.assertFails("never recorded in results.txt: 1 (b)")

    def test_case_not_in_manifest_fails(self):
        self.run_.guest_run("", ["PASS a", "PASS z"], cases=["a"])
        self.assertFails("z: not in the manifest")

    def test_failed_case_fails(self):
        self.run_.guest_run("", ["PASS a", "FAIL b (exit 1, log: cases/b.log)"])
        self.assertFails("b: (exit 1, log: cases/b.log)")

    def test_filtered_run_fails(self):
        # UB_ONLY matching every case still is a development run.
        self.run_.guest_run("", ["PASS a"])
        self.run_.write(os.path.join(self.run_.guest, "ub-only"), "*\n")
        self.assertFails("filtered with UB_ONLY=*")

    def test_no_guest_run_fails(self):
        self.run_.guest_run("", ["PASS a"], {"m/m_kunit.ko": ["s1"]})
        self.run_.itest("it_itest", ["A.b"], None)
        self.run_.guest = None
        self.assertFails("guest cases not run: 1 (a)", "it_itest not run: 1",
                         "suites not run: no guest run: 1 (s1)")

    def test_cases_shared_by_two_guests_pass(self):
        self.run_.skips = DISABLED_DECLARED.replace("t/", "it_itest/")
        self.run_.guest_run("", ["PASS a", "PASS left"], cases=["a", "b", "it_itest", "left"])
        g2 = self.run_.second_guest("", ["PASS b", "PASS it_itest", "PASS left"])
        self.run_.itest("it_itest", RECORDED_TESTS, data("gtest", "passing.json"), guest=g2)
        self.assertPasses("guest  health guest2       4 passed", "guest  cases               4 passed")

    def test_case_of_every_guest_fails_if_one_failed(self):
        self.run_.guest_run("", ["PASS a", "PASS left"], cases=["a", "left"])
        self.run_.second_guest("", ["FAIL left (exit 1, log: cases/left.log)"])
        self.assertFails("left: (exit 1, log: cases/left.log)")

    def test_second_guest_that_died_fails(self):
        self.run_.guest_run("", ["PASS a"], cases=["a", "b"])
        g2 = self.run_.second_guest("", [])
        os.unlink(os.path.join(g2, "script.rc"))
        self.assertFails("health guest2", "script ran to the end",
                         "the guest recorded no case (guest2)",
                         "never recorded in results.txt: 1 (b)")

    def test_guest_killed_in_a_case_names_it(self):
        self.run_.guest_run("[   10.5] ub-check: a\n[   12.0] ub-check: a exit 0\n"
                            "[   12.1] ub-check: b\n[  900.25] virtio: x\n",
                            ["PASS a"], cases=["a", "b"])
        os.unlink(os.path.join(self.run_.guest, "script.rc"))
        self.assertFails("in case b (started at 12.1 s), last kernel line at 900.25 s",
                         "never recorded in results.txt: 1 (b)")

    def test_guest_killed_after_its_cases_says_so(self):
        self.run_.guest_run("[    5.0] ub-check: a\n[    6.0] ub-check: a exit 1\n",
                            ["FAIL a (exit 1)"], cases=["a"])
        os.unlink(os.path.join(self.run_.guest, "script.rc"))
        self.assertFails("after case a ended at 6.0 s, last kernel line at 6.0 s")

    def test_case_recorded_twice_by_one_guest_fails(self):
        self.run_.guest_run("", ["PASS a", "PASS a"], cases=["a"])
        self.run_.second_guest("", ["PASS b"])
        self.assertFails("a: recorded twice", "b: not in the manifest")

    def test_missing_results_fails(self):
        self.run_.guest_run("", ["PASS a"])
        os.unlink(os.path.join(self.run_.guest, "results.txt"))
        self.assertFails("never recorded in results.txt: 1 (a)")


class Manifest(unittest.TestCase):
    """scripts/suites.py: what must report, from the build."""

    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="suites-test-")
        self.addCleanup(shutil.rmtree, self.tmp)

    def write(self, rel, text, mode=0o644):
        path = os.path.join(self.tmp, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write(text)
        os.chmod(path, mode)
        return path

    def test_elf_suites_are_the_registered_array(self):
        # A relocatable object laid out as kunit_test_suites() lays it out:
        # an array of pointers to structs whose first member is the name.
        # A suite that is defined but not registered is not listed.
        src = self.write("k.c", """
struct kunit_suite { const char name[256]; void *cases; };
static struct kunit_suite a = { .name = "suite_a" };
static struct kunit_suite unused = { .name = "suite_unused" };
struct kunit_suite b = { .name = "suite_b" };
static struct kunit_suite *arr[] __attribute__((used, section(".kunit_test_suites")))
	= { &b, &a };
void *keep(void) { return &unused; }
""")
        obj = os.path.join(self.tmp, "k.o")
        subprocess.run(["gcc", "-c", "-O2", "-o", obj, src], check=True)
        self.assertEqual(suites.elf_kunit_suites(obj), ["suite_b", "suite_a"])

    def test_object_without_suites(self):
        src = self.write("n.c", "int x = 1;\n")
        obj = os.path.join(self.tmp, "n.o")
        subprocess.run(["gcc", "-c", "-o", obj, src], check=True)
        self.assertEqual(suites.elf_kunit_suites(obj), [])

    def test_not_elf_is_an_error(self):
        path = self.write("x.ko", "not an ELF file at all")
        with self.assertRaises(ValueError):
            suites.elf_kunit_suites(path)

    def test_no_kunit_module_is_an_error(self):
        self.write("top/m/Kbuild", "obj-m += m.o\n")
        os.makedirs(os.path.join(self.tmp, "kmod"))
        mods, errors = suites.kunit_manifest(os.path.join(self.tmp, "top"),
                                             os.path.join(self.tmp, "kmod"))
        self.assertEqual(mods, [])
        self.assertEqual(errors, ["no KUnit module (*_kunit.o) in any Kbuild"])

    def test_declared_module_not_built_is_an_error(self):
        self.write("top/m/Kbuild", "obj-m += m.o\nifneq ($(CONFIG_KUNIT),)\n"
                   "obj-m += \\\n\tm_kunit.o\nendif\n")
        os.makedirs(os.path.join(self.tmp, "kmod"))
        mods, errors = suites.kunit_manifest(os.path.join(self.tmp, "top"),
                                             os.path.join(self.tmp, "kmod"))
        self.assertEqual(errors, [])
        self.assertEqual([m["module"] for m in mods], ["m/m_kunit.ko"])
        self.assertIn("declared in Kbuild but not built", mods[0]["error"])

    def test_gtest_list(self):
        # GoogleTest's --gtest_list_tests output, as record.cpp prints it.
        prog = self.write("list_test", """#!/bin/sh
echo "Running main() from ./googletest/src/gtest_main.cc"
printf 'Fx.\\n  One\\n  Two\\nPlain.\\n  Three\\n  DISABLED_Four\\n'
printf 'Inst/P.\\n  Param/0  # GetParam() = 1\\n  Param/1  # GetParam() = 2\\n'
""", 0o755)
        self.assertEqual(suites.gtest_list([prog], self.tmp), RECORDED_TESTS)

    def test_gtest_list_failure_is_an_error(self):
        prog = self.write("bad_test", "#!/bin/sh\necho 'Fx.'\nkill -ABRT $$\n", 0o755)
        with self.assertRaisesRegex(RuntimeError, "exited with status -6"):
            suites.gtest_list([prog], self.tmp)

    def test_guest_cases_follow_check_guest(self):
        cases = suites.guest_cases(TOP)
        shells = sorted(f[:-3] for f in os.listdir(os.path.join(TOP, "tests", "guest", "cases"))
                        if f.endswith(".sh"))
        self.assertEqual(cases[0], "kunit-modules")
        self.assertEqual(cases[-1], "no-leftover-modules")
        for c in shells:
            self.assertIn(c, cases)


if __name__ == "__main__":
    sys.exit(gtest_compat.main(__name__))
