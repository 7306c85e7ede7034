#!/usr/bin/env bash
# "make bench": URMA against soft-RoCE (rdma_rxe with perftest) and TCP
# (iperf3, sockperf) in one boot of Debian's stock kernel in QEMU, all on the
# same veth, perftest over RoUB on the same device, then udma's local path
# against memcpy and a perf profile of URMA, then IPoURMA against TCP over
# its veth; prints one table with the ratios URMA/rxe, RoUB/URMA,
# IPoURMA/TCP and the goals.
#   usage: scripts/bench.sh [-h]
# Environment: UB_BENCH_LAT_ITERS (5000), UB_BENCH_BW_ITERS (2000),
# UB_BENCH_TIMEOUT (guest timeout, s, 1800). Raw outputs: build/bench/bench/,
# the figures as JSON: build/bench/results.json.
# Numbers under TCG are the emulator's: compare within one run, not across.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

case "${1:-}" in
-h|--help) sed -n '2,11s/^# \{0,1\}//p' "$0"; exit 0 ;;
"") ;;
*) ub_die "unknown argument $1 (see --help)" ;;
esac

ub_bench_build urma_perftest urma_local_bench urma_admin roub-rdmav34
out=$UB_TOP/build/bench
ub_log "booting the stock kernel in QEMU (takes some minutes under TCG)"
rc=0
UB_KERNEL_EXTRA="${UB_KERNEL_EXTRA:-} UB_BENCH_LAT_ITERS=${UB_BENCH_LAT_ITERS:-5000}"
UB_KERNEL_EXTRA+=" UB_BENCH_BW_ITERS=${UB_BENCH_BW_ITERS:-2000}"
UB_KERNEL_EXTRA=$UB_KERNEL_EXTRA "$UB_TOP/scripts/guest-run.sh" --kernel stock \
	--timeout "${UB_BENCH_TIMEOUT:-1800}" "$out" "$UB_TOP/tests/guest/bench.sh" || rc=$?
if [ $rc -ne 0 ] || [ "$(cat "$out/script.rc" 2>/dev/null)" != 0 ]; then
	tail -30 "$out/script.log" 2>/dev/null || :
	ub_die "benchmark run failed; log $out/script.log, console $out/console.log"
fi
python3 "$UB_TOP/scripts/bench_table.py" "$out/bench" --json "$out/results.json"
