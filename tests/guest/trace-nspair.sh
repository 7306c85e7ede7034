#!/bin/bash
# In-guest part of scripts/trace-nspair.sh: IPoURMA's and UMS's benchmark
# scripts (bench-ipourma.sh, bench-ums.sh) on their namespace pairs, in
# short runs, each with its traced ping-pongs (UB_BENCH_TRACE): over the
# veth and ipourma0 in UM and RM, over TCP and UMS. The traces go to
# $1/bench/trace/, the benchmarks' own outputs to $1/bench/.
set -euo pipefail
export UB_TOP=${UB_TOP:-$PWD}
export UB_BENCH_TRACE=1
export UB_BENCH_IPOURMA_ROUNDS=${UB_BENCH_IPOURMA_ROUNDS:-1}
export UB_BENCH_IPOURMA_SECS=${UB_BENCH_IPOURMA_SECS:-2}
export UB_BENCH_UMS_SECS=${UB_BENCH_UMS_SECS:-2}
"$UB_TOP/tests/guest/bench-ipourma.sh" "$1"
"$UB_TOP/tests/guest/bench-ums.sh" "$1"
