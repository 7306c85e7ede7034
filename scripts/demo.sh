#!/usr/bin/env bash
# "make demo": boot Debian's stock kernel in a QEMU guest, load the stack's
# modules and show what a new user should see. Needs no kernel build.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

"$UB_TOP/scripts/deps.sh"
ub_log "building the modules for the stock kernel and liburma"
ub_build_stock_modules
cmake -S "$UB_TOP" -B "$UB_TOP/build" > /dev/null
cmake --build "$UB_TOP/build" -j"$(nproc)" --target urma_devices urma_perftest > /dev/null
out=$UB_TOP/build/demo
ub_log "booting the stock kernel in QEMU (TCG, takes about a minute)"
rc=0
"$UB_TOP/scripts/guest-run.sh" --kernel stock --timeout 600 "$out" \
	"$UB_TOP/tests/guest/demo.sh" || rc=$?
cat "$out/script.log" 2>/dev/null || true
if [ $rc -ne 0 ] || [ "$(cat "$out/script.rc")" != 0 ]; then
	ub_die "demo failed; guest console in $out/console.log"
fi
