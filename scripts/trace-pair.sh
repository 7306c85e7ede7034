#!/usr/bin/env bash
# Where the time of a round trip goes between two guests: one urma_perftest
# latency test over UBoE between two stock-kernel guests joined by one
# QEMU link (scripts/pair-run.sh --kernel stock, as scripts/bench-pair.sh),
# traced in both with ftrace (tests/pair/trace-pair.sh), then summed up
# per iteration by scripts/trace_summary.py: packets, transport ACKs,
# calls of udma's paths, work items, wake-ups and how long they took to
# run, idle time and the gaps in which a guest did nothing.
#   usage: scripts/trace-pair.sh [-h]
# Environment: UB_TRACE_TEST (write_lat; any latency test of
# urma_perftest), UB_TRACE_ITERS (300), UB_TRACE_SIZE (8), UB_TRACE_MTU
# (1500), UB_PAIR_SMP (vCPUs a guest, 2). Raw outputs:
# build/trace-pair/{a,b}/trace/ (a: the server, b: the client); the
# figures as JSON: build/trace-pair/results.json. Run it on an otherwise
# idle machine, as bench-pair.sh.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

case "${1:-}" in
-h|--help) sed -n '2,15s/^# \{0,1\}//p' "$0"; exit 0 ;;
"") ;;
*) ub_die "unknown argument $1 (see --help)" ;;
esac

ub_bench_build urma_perftest urma_admin
out=$UB_TOP/build/trace-pair
extra="${UB_KERNEL_EXTRA:-}"
for v in UB_TRACE_TEST UB_TRACE_ITERS UB_TRACE_SIZE UB_TRACE_MTU; do
	[ -z "${!v:-}" ] || extra+=" $v=${!v}"
done
UB_KERNEL_EXTRA=$extra ub_stock_pair "$out" "$UB_TOP/tests/pair/trace-pair.sh" 1500 ||
	ub_die "the traced run failed"
python3 "$UB_TOP/scripts/trace_summary.py" --json "$out/results.json" \
	"$out/a/trace" "$out/b/trace"
