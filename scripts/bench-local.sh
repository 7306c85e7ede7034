#!/usr/bin/env bash
# "make bench-local": boot Debian's stock kernel in a QEMU guest with the
# stack's modules (as make demo does) and run urma_local_bench there: udma's
# local WRITE bandwidth and latency next to memcpy in the same process.
# Arguments are passed to urma_local_bench (e.g. -- --seconds 5).
# Numbers under TCG are the emulator's, useful for ratios, not absolutes.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

case "${1:-}" in
-h|--help)
	echo "usage: scripts/bench-local.sh [-- BENCH_ARGS...]  (make bench-local [BENCH_ARGS=...])"
	echo "Boots the stock kernel guest with the modules and runs tests/bench/urma_local_bench."
	exit 0 ;;
--) shift ;;
esac

"$UB_TOP/scripts/deps.sh"
ub_log "building the modules for the stock kernel and the benchmark"
ub_build_stock_modules
cmake -S "$UB_TOP" -B "$UB_TOP/build" > /dev/null
cmake --build "$UB_TOP/build" -j"$(nproc)" --target urma_local_bench > /dev/null
out=$UB_TOP/build/bench-local
mkdir -p "$out"
# The guest script reads the benchmark's arguments from here (the kernel
# command line carries no spaces).
: > "$out/args"
[ $# -eq 0 ] || printf '%s\n' "$@" > "$out/args"
ub_log "booting the stock kernel in QEMU"
rc=0
"$UB_TOP/scripts/guest-run.sh" --kernel stock --timeout "${UB_BENCH_TIMEOUT:-900}" "$out" \
	"$UB_TOP/tests/guest/bench-local.sh" || rc=$?
cat "$out/script.log" 2>/dev/null || true
if [ $rc -ne 0 ] || [ "$(cat "$out/script.rc" 2>/dev/null)" != 0 ]; then
	ub_die "benchmark failed; guest console in $out/console.log"
fi
