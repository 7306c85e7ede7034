#!/usr/bin/env bash
# "make bench-compare": udma's local data path (urma_local_bench: WRITE
# bandwidth at 64 KiB and 1 MiB, 8-byte WRITE latency) with the modules of
# two revisions in ONE boot of the stock kernel, so that the numbers are
# comparable on a noisy machine: the modules of REV (default: the
# merge-base of HEAD and main) and those of the working tree, loaded in
# turn (base, new, three times), each time on lo; prints every run, the
# median of each side (a busy host makes single runs jump) and the ratio
# new/base.
#   usage: scripts/bench-compare.sh [REV] [-- BENCH_ARGS...]
# Environment: UB_BENCH_TIMEOUT (guest timeout, s, 1200). Raw outputs:
# build/bench-compare/. Numbers under TCG are the emulator's: compare
# within one run, not across runs.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

rev=
case "${1:-}" in
-h|--help) sed -n '2,13s/^# \{0,1\}//p' "$0"; exit 0 ;;
--|"") ;;
*) rev=$1; shift ;;
esac
[ "${1:-}" != -- ] || shift
rev=${rev:-$(git -C "$UB_TOP" merge-base HEAD main)}
sha=$(git -C "$UB_TOP" rev-parse --verify "$rev^{commit}") ||
	ub_die "$rev is no revision"

out=$UB_TOP/build/bench-compare
src=$out/src-$sha
mkdir -p "$out"
"$UB_TOP/scripts/deps.sh"
if [ ! -e "$src/.complete" ]; then
	ub_log "exporting $sha into $src"
	rm -rf "$src"
	mkdir -p "$src"
	git -C "$UB_TOP" archive "$sha" | tar -x -C "$src"
	touch "$src/.complete"
fi
ub_log "building the modules of $sha and of the working tree for the stock kernel"
"$src/scripts/build-modules.sh" "$(ub_stock_kdir)" "$out/kmod-base" \
	> "$out/kmod-base.log" 2>&1 ||
	{ tail -20 "$out/kmod-base.log"; ub_die "module build of $sha failed"; }
ub_build_stock_modules
cmake -S "$UB_TOP" -B "$UB_TOP/build" > /dev/null
cmake --build "$UB_TOP/build" -j"$(nproc)" --target urma_local_bench > /dev/null

# What the guest script reads (the kernel command line carries no spaces).
printf '%s\n' "base $out/kmod-base" "new $UB_TOP/build/kmod/stock" > "$out/kmods"
: > "$out/args"
[ $# -eq 0 ] || printf '%s\n' "$@" > "$out/args"
ub_log "booting the stock kernel in QEMU"
rc=0
"$UB_TOP/scripts/guest-run.sh" --kernel stock --timeout "${UB_BENCH_TIMEOUT:-1200}" \
	"$out/guest" "$UB_TOP/tests/guest/bench-compare.sh" || rc=$?
if [ $rc -ne 0 ] || [ "$(cat "$out/guest/script.rc" 2>/dev/null)" != 0 ]; then
	tail -30 "$out/guest/script.log" 2>/dev/null || :
	ub_die "benchmark failed; guest console in $out/guest/console.log"
fi
python3 - "$out/guest/script.log" "$sha" <<'PY'
import re
import sys

runs = {"base": [], "new": []}
side = None
for line in open(sys.argv[1]):
    m = re.match(r"== run (\d+): (base|new)", line)
    if m:
        side = m.group(2)
        runs[side].append({})
        continue
    if side is None:
        continue
    m = re.match(r"(65536|1048576)\s+([\d.]+)\s+([\d.]+)", line)
    if m:
        runs[side][-1]["w%s" % m.group(1)] = float(m.group(2))
        continue
    m = re.match(r"8-byte write latency us: median ([\d.]+) avg ([\d.]+)", line)
    if m:
        runs[side][-1]["lat"] = float(m.group(1))
        runs[side][-1]["avg"] = float(m.group(2))

cols = [("w65536", "64KiB WRITE MB/s"), ("w1048576", "1MiB WRITE MB/s"),
        ("lat", "8B lat median us"), ("avg", "8B lat avg us")]
print("%-28s" % "modules" + "".join("%18s" % c[1] for c in cols))
for side in ("base", "new"):
    for i, r in enumerate(runs[side]):
        print("%-28s" % ("%s run %d" % (side, i + 1)) +
              "".join("%18.2f" % r.get(k, float("nan")) for k, _ in cols))
med = {}
for side in ("base", "new"):
    rs = [r for r in runs[side] if all(k in r for k, _ in cols)]
    if not rs:
        sys.exit("no complete %s run" % side)
    med[side] = {k: sorted(r[k] for r in rs)[len(rs) // 2] for k, _ in cols}
label = {"base": "base %s (median)" % sys.argv[2][:12], "new": "new (median)"}
for side in ("base", "new"):
    print("%-28s" % label[side] + "".join("%18.2f" % med[side][k] for k, _ in cols))
print("%-28s" % "ratio new/base" +
      "".join("%18.3f" % (med["new"][k] / med["base"][k]) for k, _ in cols))
print("(bandwidth: higher is better; latency: lower is better)")
PY
