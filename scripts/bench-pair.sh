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
ub_log "booting two stock-kernel guests (takes some minutes under TCG)"
# 1024 MiB a guest: the bandwidth runs pin their buffers, the stock kernel
# has no kmemleak or KASAN to feed. 2 vCPUs a guest, as make bench's
# guest: with one, the latency tests' busy-polling client and the kernel's
# receive work (udma's works, rxe's tasklets) take turns by the scheduler
# tick, and 5000 write_lat round trips took minutes. The pair's judgement (scripts/
# summarize.py) is for make check; here the benchmark's own result counts.
UB_KERNEL_EXTRA="${UB_KERNEL_EXTRA:-} UB_BENCH_LAT_ITERS=${UB_BENCH_LAT_ITERS:-5000}"
UB_KERNEL_EXTRA+=" UB_BENCH_BW_ITERS=${UB_BENCH_BW_ITERS:-2000}"
UB_KERNEL_EXTRA=$UB_KERNEL_EXTRA UB_PAIR_TIMEOUT=$limit UB_PAIR_CASE_TIMEOUT=$((limit - 300)) \
	UB_PAIR_MEM=${UB_PAIR_MEM:-1024} UB_PAIR_SMP=${UB_PAIR_SMP:-2} \
	"$UB_TOP/scripts/pair-run.sh" --kernel stock "$out" "$UB_TOP/tests/pair/bench-pair.sh" \
	> "$out.log" 2>&1 || :
for role in a b; do
	if ! grep -qx "PASS bench-pair" "$out/$role/results.txt" 2>/dev/null; then
		tail -30 "$out/$role/cases/bench-pair.log" 2>/dev/null || :
		ub_log "guest $role: $(cat "$out/$role/results.txt" 2>/dev/null || echo 'no result')"
		ub_log "log $out/$role/cases/bench-pair.log, console $out/$role/console.log"
		failed=1
	fi
done
# The table of what was measured, also when a run failed.
rc=0
python3 "$UB_TOP/scripts/bench_pair_table.py" "$out/b/bench" --json "$out/results.json" || rc=$?
[ -z "${failed:-}" ] || ub_die "the cross-host benchmark failed"
exit $rc
