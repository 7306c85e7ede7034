#!/bin/bash
# The user-level data-path suites once more with udma's force_wire on
# (UB_UDMA_PARAMS, which the integration suites' stack loader passes to
# udma): every request and response between the suites' jetties, all on
# udma0, travels as a UBoE packet over lo through the UBoE carrier, over
# the TPs that imports open. Each suite must pass as on the local path, and
# the wire counters udma0 reports at each unload must show packets both
# ways (stack.cpp prints them).
set -eu
. "$UB_TOP/tests/guest/lib.sh"
tmp=$(mktemp -d)
trap 'ub_unload_stack || true; rm -rf "$tmp"' EXIT

export UB_UDMA_PARAMS=force_wire=1
itests=$UB_TOP/build/tests/integration
log=$tmp/stderr
rc=0
for t in urma_dp_ops_itest urma_dp_jetty_itest urma_dp_errors_itest; do
	[ -x "$itests/$t" ] || ub_fail "$itests/$t is not built"
	echo "$t with force_wire=1"
	# GoogleTest's own lines go to the case's log (not a report of the
	# run's itests, which ran on the local path)
	# Messages larger than one UBoE packet (the *EverySize cases) go in
	# several, segmented to lo's MTU.
	"$itests/$t" 2> "$log" ||
		{ echo "FAIL: $t"; rc=1; }
	cat "$log" >&2
	tx=0 rx=0
	while read -r _ _ _ _ a _ b; do
		tx=$((tx + a)) rx=$((rx + b))
	done < <(grep '^stack: udma0 wire tx_packets' "$log" || true)
	echo "$t: udma0 sent $tx and received $rx UBoE packets"
	if ((tx == 0 || rx == 0)); then
		echo "FAIL: $t sent no traffic over UBoE"
		rc=1
	fi
done
exit $rc
