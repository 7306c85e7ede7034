#!/bin/bash
# ubcore loads, creates /sys/class/ubcore with its ABI version, and unloads
# without a trace, several times over.
set -eu
. "$UB_TOP/tests/guest/lib.sh"

for i in 1 2; do
	ub_load_stack || ub_fail "round $i: load"
	[ -d "$UB_CLASS" ] || ub_fail "round $i: no $UB_CLASS"
	read -r v < "$UB_CLASS/abi_version"
	[ "$v" = 1 ] || ub_fail "round $i: abi_version is '$v', want 1"
	ub_unload_stack || ub_fail "round $i: unload"
	[ ! -e "$UB_CLASS" ] || ub_fail "round $i: $UB_CLASS left behind"
	! ub_module_loaded ubcore || ub_fail "round $i: ubcore still loaded"
done
echo "2 load/unload rounds clean"
