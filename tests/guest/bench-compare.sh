#!/bin/bash
# In-guest part of scripts/bench-compare.sh: urma_local_bench with the
# modules of each side in turn (base, new, three times), the stack on lo.
# The module directories and the benchmark's arguments are in
# build/bench-compare/{kmods,args}. Runs from the repo top.
set -eu
export UB_TOP=$PWD
. "$UB_TOP/tests/guest/lib.sh"

dir=$UB_TOP/build/bench-compare
declare -A kmod
while read -r side path; do
	kmod[$side]=$path
done < "$dir/kmods"
args=()
if [ -s "$dir/args" ]; then
	mapfile -t args < "$dir/args"
fi
echo "== kernel: $(uname -r), $(nproc) cpus; urma_local_bench ${args[*]:-}"
rc=0
n=0
for side in base new base new base new; do
	n=$((n + 1))
	echo "== run $n: $side (${kmod[$side]})"
	UB_KMOD=${kmod[$side]}
	ub_load_stack lo || { echo "loading the $side modules failed"; exit 1; }
	ub_wait_eid
	"$UB_TOP/build/tests/bench/urma_local_bench" "${args[@]}" || rc=$?
	ub_unload_stack || rc=1
done
exit $rc
