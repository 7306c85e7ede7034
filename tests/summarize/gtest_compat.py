# SPDX-License-Identifier: MIT
"""Runs Python unittest cases with GoogleTest's command line, so that make
check lists, runs and judges a Python suite like any host *_test binary:
  --gtest_list_tests         "Class." then "  test_method" lines
  --gtest_output=json:PATH   GoogleTest's JSON report (testsuites, testsuite,
                             status, result, failures)
Exit status 0 when every case passed or was skipped, 1 otherwise."""
import json
import sys
import time
import traceback
import unittest


def _cases(suite):
    for t in suite:
        if isinstance(t, unittest.TestSuite):
            yield from _cases(t)
        else:
            yield t


class _Result(unittest.TestResult):
    def __init__(self):
        super().__init__()
        self.records = {}

    def startTest(self, test):
        super().startTest(test)
        print(f"[ RUN      ] {_name(test)}", flush=True)
        self.records[test.id()] = {"result": "COMPLETED", "failures": [],
                                   "start": time.monotonic()}

    def _fail(self, test, err):
        text = "".join(traceback.format_exception(*err))
        self.records[test.id()]["failures"].append({"failure": text, "type": ""})
        print(text, end="", flush=True)

    def addFailure(self, test, err):
        super().addFailure(test, err)
        self._fail(test, err)

    def addError(self, test, err):
        super().addError(test, err)
        self._fail(test, err)

    def addSkip(self, test, reason):
        super().addSkip(test, reason)
        self.records[test.id()]["result"] = "SKIPPED"
        print(f"{_name(test)}: Skipped\n{reason}\n", flush=True)

    def addUnexpectedSuccess(self, test):
        super().addUnexpectedSuccess(test)
        self.records[test.id()]["failures"].append(
            {"failure": "unexpected success", "type": ""})

    def stopTest(self, test):
        super().stopTest(test)
        r = self.records[test.id()]
        r["time"] = f"{time.monotonic() - r.pop('start'):.3f}s"
        word = ("  FAILED  " if r["failures"] else
                "  SKIPPED " if r["result"] == "SKIPPED" else "       OK ")
        print(f"[{word}] {_name(test)}", flush=True)


def _name(test):
    return f"{type(test).__name__}.{test._testMethodName}"


def main(module_name):
    """Runs the unittest cases of MODULE_NAME with GoogleTest's options."""
    suite = unittest.defaultTestLoader.loadTestsFromModule(sys.modules[module_name])
    cases = list(_cases(suite))
    output = None
    for arg in sys.argv[1:]:
        if arg == "--gtest_list_tests":
            last = None
            for t in cases:
                if type(t).__name__ != last:
                    last = type(t).__name__
                    print(f"{last}.")
                print(f"  {t._testMethodName}")
            return 0
        if arg.startswith("--gtest_output=json:"):
            output = arg[len("--gtest_output=json:"):]
        else:
            print(f"unknown option {arg}", file=sys.stderr)
            return 2
    result = _Result()
    suite.run(result)
    report = {"tests": len(cases), "failures": 0, "name": "AllTests", "testsuites": []}
    by_class = {}
    for t in cases:
        r = result.records.get(t.id(), {"result": "COMPLETED", "failures": [
            {"failure": "never ran (class set-up failed?)", "type": ""}]})
        ts = by_class.setdefault(type(t).__name__, {
            "name": type(t).__name__, "tests": 0, "failures": 0, "testsuite": []})
        ts["tests"] += 1
        if r["failures"]:
            ts["failures"] += 1
            report["failures"] += 1
        case = {"name": t._testMethodName, "status": "RUN", "result": r["result"],
                "time": r.get("time", "0s"), "classname": ts["name"]}
        if r["failures"]:
            case["failures"] = r["failures"]
        ts["testsuite"].append(case)
    # Errors of class or module set-up are not attached to a test.
    loose = [e for e in result.errors if e[0].id() not in result.records]
    report["testsuites"] = list(by_class.values())
    if output:
        with open(output, "w") as f:
            json.dump(report, f, indent=1)
    print(f"{len(cases)} tests, {report['failures']} failed", flush=True)
    return 1 if report["failures"] or loose else 0
