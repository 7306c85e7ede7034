#!/usr/bin/env bash
# The cross-host table of "make bench" (issue 11): two guests of Debian's
# stock kernel joined by one QEMU link (scripts/pair-run.sh --kernel
# stock), in one run: URMA over UBoE (urma_perftest -u --sip/--dip), rxe
# (perftest's ib_* over rdma_rxe) and TCP (iperf3, sockperf, pingpong.py),
# the same sizes and iterations, at MTU 1500 and 9000
# (tests/pair/bench-pair.sh); prints the table with the ratios to rxe and
# TCP and the issue's goals (scripts/bench_pair_table.py).
#   usage: scripts/bench-pair.sh [-h]
# Environment: UB_BENCH_LAT_ITERS (5000), UB_BENCH_BW_ITERS (2000),
# UB_BENCH_TIMEOUT (each guest's run, s, 3600), UB_PAIR_SMP (vCPUs a
# guest, 2). Raw outputs:
# build/bench-pair/b/bench/mtuN/ (the clients'), a/bench/mtuN/ (the
# servers'); the figures as JSON: build/bench-pair/results.json.
# Numbers under TCG are the emulator's: compare within one run, not across.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

case "${1:-}" in
-h|--help) sed -n '2,15s/^# \{0,1\}//p' "$0"; exit 0 ;;
"") ;;
*) ub_die "unknown argument $1 (see --help)" ;;
esac

ub_bench_build urma_perftest urma_admin
out=$UB_TOP/build/bench-pair
limit=${UB_BENCH_TIMEOUT:-3600}
UB_KERNEL_EXTRA="${UB_KERNEL_EXTRA:-} UB_BENCH_LAT_ITERS=${UB_BENCH_LAT_ITERS:-5000}"
UB_KERNEL_EXTRA+=" UB_BENCH_BW_ITERS=${UB_BENCH_BW_ITERS:-2000}"
failed=
UB_KERNEL_EXTRA=$UB_KERNEL_EXTRA ub_stock_pair "$out" "$UB_TOP/tests/pair/bench-pair.sh" "$limit" ||
	failed=1
# The table of what was measured, also when a run failed.
rc=0
python3 "$UB_TOP/scripts/bench_pair_table.py" "$out/b/bench" --json "$out/results.json" || rc=$?
[ -z "${failed:-}" ] || ub_die "the cross-host benchmark failed"
exit $rc
