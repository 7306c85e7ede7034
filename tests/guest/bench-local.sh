#!/bin/bash
# In-guest part of "make bench-local": load the stack on lo, run
# urma_local_bench with the arguments scripts/bench-local.sh saved, unload.
# Runs from the repo top with UB_KMOD set.
set -eu
export UB_TOP=$PWD
. "$UB_TOP/tests/guest/lib.sh"

echo "== kernel: $(uname -r), $(nproc) cpus"
ub_load_stack lo
ub_wait_eid
args=()
if [ -s "$UB_TOP/build/bench-local/args" ]; then
	mapfile -t args < "$UB_TOP/build/bench-local/args"
fi
echo "== urma_local_bench ${args[*]:-}"
rc=0
"$UB_TOP/build/tests/bench/urma_local_bench" "${args[@]}" || rc=$?
ub_unload_stack
exit $rc
