#!/usr/bin/env bash
# "make demo": boot Debian's stock kernel in a QEMU guest, load the stack's
# modules and show what a new user should see. Needs no kernel build.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

# urma_admin: the namespace pair's devices are created with it.
ub_bench_build urma_devices urma_perftest urma_admin
out=$UB_TOP/build/demo
ub_log "booting the stock kernel in QEMU (TCG, takes about a minute)"
rc=0
"$UB_TOP/scripts/guest-run.sh" --kernel stock --timeout 600 "$out" \
	"$UB_TOP/tests/guest/demo.sh" || rc=$?
cat "$out/script.log" 2>/dev/null || true
if [ $rc -ne 0 ] || [ "$(cat "$out/script.rc")" != 0 ]; then
	ub_die "demo failed; guest console in $out/console.log"
fi
