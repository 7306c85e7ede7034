#!/bin/bash
# In the guest (scripts/guest-run.sh OUT tests/guest/bench-integrity.sh):
# what UBoE's integrity checks cost per byte, the UDP checksum computed in
# software and the CRC32C ICRC (udma/uboe_bench.c), three runs.
set -eu
. "$UB_TOP/tests/guest/lib.sh"
ub_load_stack
for run in 1 2 3; do
	echo "== run $run"
	cat /sys/kernel/debug/udma_uboe_integrity
done
ub_unload_stack
