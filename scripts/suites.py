#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The manifest of "make check": what must report, taken from the build.

  suites.py host TOP BUILD MANIFEST      host and guest-side userspace part
  suites.py kunit TOP KMOD MANIFEST      adds the KUnit part (modules built)
  suites.py run-host MANIFEST OUTDIR     runs the host suites of MANIFEST

The manifest (JSON) lists:
  host        every host GoogleTest binary (BUILD/tests/unit/*_test) and
              every Python suite (TOP/tests/**/*_test.py, same command line),
              each with the tests its --gtest_list_tests names;
  itest       every integration binary (BUILD/tests/integration/*_itest) and
              its tests (listed on the host; they run in the guest);
  guest_cases the in-guest cases, as "check-guest.sh --list" names them;
  pair_cases  the cases of the guest pair (TOP/tests/pair/cases/*.sh, which
              scripts/check.sh gives scripts/pair-run.sh), by name;
  kunit       every KUnit module (*_kunit.o in a Kbuild's obj-m, and every
              *_kunit.ko built) and the suites each registers, read from the
              module's .kunit_test_suites section: the array that KUnit runs
              when the module loads;
  errors      what could not be listed (each fails the run).
scripts/summarize.py fails every entry that does not report.
"""
import glob
import json
import os
import re
import signal
import struct
import subprocess
import sys

LIST_TIMEOUT = 120

GTEST_SUITE_RE = re.compile(r"^([^\s#]\S*)\.(\s+#.*)?$")
GTEST_TEST_RE = re.compile(r"^  (\S+)(\s+#.*)?$")


def gtest_list(cmd, cwd):
    """Tests of a GoogleTest-style binary, as Suite.Test, or raise."""
    try:
        p = subprocess.run(cmd + ["--gtest_list_tests"], cwd=cwd,
                           capture_output=True, text=True,
                           timeout=LIST_TIMEOUT)
    except (OSError, subprocess.TimeoutExpired) as e:
        raise RuntimeError(f"--gtest_list_tests: {e}") from e
    if p.returncode != 0:
        raise RuntimeError(f"--gtest_list_tests exited with status {p.returncode}: "
                           + (p.stderr.strip().splitlines() or [""])[-1])
    tests, suite = [], None
    for line in p.stdout.splitlines():
        m = GTEST_SUITE_RE.match(line)
        if m:
            suite = m.group(1)
            continue
        m = GTEST_TEST_RE.match(line)
        if m and suite:
            tests.append(f"{suite}.{m.group(1)}")
    if not tests:
        raise RuntimeError("--gtest_list_tests names no test")
    return tests


def executables(pattern):
    return sorted(p for p in glob.glob(pattern, recursive=True)
                  if os.path.isfile(p) and os.access(p, os.X_OK))


def guest_cases(top):
    script = os.path.join(top, "tests", "guest", "check-guest.sh")
    env = dict(os.environ)
    env.pop("UB_ONLY", None)
    p = subprocess.run(["bash", script, "--list"], cwd=top, env=env,
                       capture_output=True, text=True, timeout=LIST_TIMEOUT)
    if p.returncode != 0:
        raise RuntimeError(f"check-guest.sh --list exited with status {p.returncode}: "
                           + p.stderr.strip())
    cases = p.stdout.split()
    if not cases:
        raise RuntimeError("check-guest.sh --list names no case")
    return cases


def pair_cases(top):
    """Names of the guest pair's cases: tests/pair/cases/NAME.sh."""
    return sorted(os.path.basename(p)[: -len(".sh")] for p in
                  glob.glob(os.path.join(top, "tests", "pair", "cases", "*.sh")))


def host_manifest(top, build):
    man = {"host": [], "itest": [], "guest_cases": [], "pair_cases": [], "errors": []}
    suites = [(os.path.basename(p), [p])
              for p in executables(os.path.join(build, "tests", "unit", "*_test"))]
    suites += [(os.path.basename(p)[: -len(".py")], [p])
               for p in executables(os.path.join(top, "tests", "**", "*_test.py"))]
    for kind, found in (("host", suites),
                        ("itest", [(os.path.basename(p), [p]) for p in executables(
                            os.path.join(build, "tests", "integration", "*_itest"))])):
        if not found:
            man["errors"].append(f"no {kind} suite in the build")
        for name, cmd in found:
            entry = {"name": name, "cmd": cmd, "tests": []}
            try:
                entry["tests"] = gtest_list(cmd, top)
            except RuntimeError as e:
                entry["error"] = str(e)
            man[kind].append(entry)
    try:
        man["guest_cases"] = guest_cases(top)
    except (RuntimeError, OSError, subprocess.TimeoutExpired) as e:
        man["errors"].append(f"guest cases: {e}")
    man["pair_cases"] = pair_cases(top)
    if not man["pair_cases"]:
        man["errors"].append("no guest pair case (tests/pair/cases/*.sh)")
    return man


# ---- KUnit: the suites a module registers, from its ELF sections ----------

SHT_RELA = 4
R_X86_64_64 = 1


def elf_kunit_suites(path):
    """Names of the suites in the .kunit_test_suites array of the x86-64
    relocatable module PATH, in order. Each array entry is a relocated
    pointer to a struct kunit_suite, whose first member is its name
    (char name[256], include/kunit/test.h)."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:4] != b"\x7fELF" or data[4] != 2 or data[5] != 1:
        raise ValueError("not a little-endian ELF64 file")
    if struct.unpack_from("<H", data, 0x12)[0] != 62:
        raise ValueError("not an x86-64 ELF file")
    shoff = struct.unpack_from("<Q", data, 0x28)[0]
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x3A)
    secs = [struct.unpack_from("<IIQQQQIIQQ", data, shoff + i * shentsize)
            for i in range(shnum)]

    def cstr(off, limit=256):
        end = data.find(b"\0", off, off + limit)
        if end < 0:
            raise ValueError(f"unterminated string at {off:#x}")
        return data[off:end].decode("utf-8", "replace")

    names = [cstr(secs[shstrndx][4] + s[0], 4096) for s in secs]
    if ".kunit_test_suites" not in names:
        return []
    idx = names.index(".kunit_test_suites")
    count = secs[idx][5] // 8
    relas = [s for s in secs if s[1] == SHT_RELA and s[7] == idx]
    if len(relas) != 1:
        raise ValueError(".kunit_test_suites has no relocations")
    rela = relas[0]
    symtab = secs[rela[6]]
    entries = {}
    for off in range(rela[4], rela[4] + rela[5], 24):
        r_offset, r_info, r_addend = struct.unpack_from("<QQq", data, off)
        if r_info & 0xFFFFFFFF != R_X86_64_64:
            raise ValueError(f"unexpected relocation type {r_info & 0xFFFFFFFF}")
        sym = symtab[4] + (r_info >> 32) * 24
        _, _, _, shndx, value, _ = struct.unpack_from("<IBBHQQ", data, sym)
        if not 0 < shndx < len(secs):
            raise ValueError("suite pointer to an undefined symbol")
        entries[r_offset] = cstr(secs[shndx][4] + value + r_addend)
    if sorted(entries) != [8 * i for i in range(count)]:
        raise ValueError(f"{count} suite pointers, {len(entries)} relocated")
    return [entries[k] for k in sorted(entries)]


KBUILD_OBJ_RE = re.compile(r"^\s*obj-[^\s:+]*\s*[:+]?=\s*(.*)$")


def kbuild_kunit_modules(top):
    """Relative paths (dir/name.ko) of the *_kunit.o modules in obj-m lines
    of the Kbuild files, whatever the conditions around them."""
    mods = set()
    for kb in glob.glob(os.path.join(top, "**", "Kbuild"), recursive=True):
        rel = os.path.relpath(os.path.dirname(kb), top)
        if rel.split(os.sep)[0] in ("build", ".git"):
            continue
        text = open(kb).read().replace("\\\n", " ")
        for line in text.splitlines():
            m = KBUILD_OBJ_RE.match(line)
            if not m:
                continue
            for word in m.group(1).split():
                if word.endswith("_kunit.o"):
                    mods.add(os.path.normpath(os.path.join(rel, word[:-2] + ".ko")))
    return mods


def kunit_manifest(top, kmod):
    errors, out = [], []
    declared = kbuild_kunit_modules(top)
    built = {os.path.relpath(p, kmod)
             for p in glob.glob(os.path.join(kmod, "**", "*_kunit.ko"), recursive=True)}
    if not declared and not built:
        errors.append("no KUnit module (*_kunit.o) in any Kbuild")
    for mod in sorted(declared | built):
        entry = {"module": mod, "suites": []}
        if mod not in built:
            entry["error"] = f"declared in Kbuild but not built in {kmod}"
        else:
            try:
                entry["suites"] = elf_kunit_suites(os.path.join(kmod, mod))
                if not entry["suites"]:
                    entry["error"] = "registers no KUnit suite"
            except (OSError, ValueError) as e:
                entry["error"] = f"unreadable: {e}"
        out.append(entry)
    return out, errors


def write_json(path, obj):
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        json.dump(obj, f, indent=1)
        f.write("\n")
    os.replace(tmp, path)


# ---- running the host suites ----------------------------------------------

def run_host(manifest, outdir, top):
    """Runs each host suite; its report, log and exit status go to
    OUTDIR/NAME.json, .log, .rc. Returns the number that exited non-zero.
    The host tests written as scripts (scripts/check.sh's host_script_join:
    "script") are check.sh's to run, each at its time."""
    timeout = int(os.environ.get("UB_HOST_TIMEOUT", "600"))
    bad = 0
    os.makedirs(outdir, exist_ok=True)
    for s in manifest["host"]:
        if s.get("script"):
            continue
        name = s["name"]
        report = os.path.join(outdir, name + ".json")
        with open(os.path.join(outdir, name + ".log"), "w") as log:
            p = subprocess.Popen(s["cmd"] + [f"--gtest_output=json:{report}"],
                                 cwd=top, stdout=log, stderr=subprocess.STDOUT,
                                 start_new_session=True)
            try:
                rc = p.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                os.killpg(p.pid, signal.SIGKILL)
                p.wait()
                rc = "timeout"
        with open(os.path.join(outdir, name + ".rc"), "w") as f:
            f.write(f"{rc}\n")
        if rc != 0:
            bad += 1
            print(f"suites.py: host suite {name}: exit {rc} "
                  f"(log: {os.path.join(outdir, name + '.log')})", file=sys.stderr)
    return bad


def main(argv):
    if len(argv) == 5 and argv[1] == "host":
        _, _, top, build, path = argv
        write_json(path, host_manifest(os.path.abspath(top), os.path.abspath(build)))
    elif len(argv) == 5 and argv[1] == "kunit":
        _, _, top, kmod, path = argv
        with open(path) as f:
            man = json.load(f)
        man["kunit"], errors = kunit_manifest(os.path.abspath(top), os.path.abspath(kmod))
        man["errors"] += errors
        write_json(path, man)
    elif len(argv) == 4 and argv[1] == "run-host":
        with open(argv[2]) as f:
            man = json.load(f)
        top = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
        run_host(man, argv[3], top)
    else:
        print(__doc__, file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
