#!/bin/bash
# The bonding device's row of "make bench" (tests/guest/bench.sh runs this;
# alone: scripts/guest-run.sh --kernel stock OUT tests/guest/bench-ubagg.sh,
# then scripts/bench_table.py OUT/bench --only ubagg). Raw outputs go to
# $1/bench/ (ubagg.*.json): urma_perftest write_bw, 64 KiB, 4 RC jetties,
# once over one member alone ($UB_DEV_A to $UB_DEV_B on vA-vB) and once
# over bonding_dev_0 in Balance mode over both members (vA-vB and
# vA2-vB2), in the same boot. So that each member's wire and not the CPU
# is the bottleneck, every veth of both pairs, both directions, has a netem
# rate limit of UB_BENCH_UBAGG_RATE (default 24mbit, 3 MB/s: a small part
# of what one UBoE device moves in this guest).
set -euo pipefail
export UB_TOP=${UB_TOP:-$PWD}
. "$UB_TOP/tests/guest/lib.sh"
. "$UB_TOP/tests/guest/ubagg-pair.sh"

out=$1/bench
mkdir -p "$out"
rate=${UB_BENCH_UBAGG_RATE:-24mbit}
iters=${UB_BENCH_UBAGG_ITERS:-400}
perftest=$UB_TOP/build/tools/urma_perftest/urma_perftest
tmp=$(mktemp -d)
loaded=

log() { echo "== $*"; }

cleanup() {
	jobs -p | xargs -r kill 2> /dev/null || :
	if ub_module_loaded ubagg; then ub_rmmod ubagg || :; fi
	[[ -z $loaded ]] || ub_unload_stack || :
	ub_nspair_destroy || :
	rm -rf "$tmp"
}
trap cleanup EXIT

# write_bw NAME SERVER_DEV CLIENT_DEV: urma_perftest write_bw, server in B,
# client in A, the side channel over vA2-vB2; the client's JSON to NAME
write_bw() {
	local srv args=(write_bw -s 65536 -n "$iters" -p RC -J 4 --json)
	ip netns exec "$B" "$perftest" "${args[@]}" -d "$2" > "$tmp/server.log" 2>&1 &
	srv=$!
	ub_wait_listen 21115 120 "$srv" || ub_fail "$1: no server: $(< "$tmp/server.log")"
	ip netns exec "$A" "$perftest" "${args[@]}" -d "$3" -S "$IP4_B2" > "$out/$1" ||
		ub_fail "$1: urma_perftest failed"
	wait "$srv" || ub_fail "$1: the server failed: $(< "$tmp/server.log")"
}

if ! ub_module_loaded udma; then
	ub_load_stack ""
	loaded=1
fi
ubagg_pair_create "$tmp"
for d in "$A vA" "$A vA2" "$B vB" "$B vB2"; do
	read -r ns dev <<< "$d"
	tc -n "$ns" qdisc add dev "$dev" root netem rate "$rate" limit 10000
done
ub_insmod "$UB_KMOD/ubagg/ubagg.ko"
ubagg_topo_set "$tmp"

log "bonding: write_bw 64 KiB x $iters, 4 RC jetties, one member ($UB_DEV_A), netem rate $rate per veth"
write_bw ubagg.single.json "$UB_DEV_B" "$UB_DEV_A"
ubagg_bond_add balance
log "bonding: the same over $BOND, Balance over two members"
write_bw ubagg.balance.json "$BOND" "$BOND"
echo "$rate" > "$out/ubagg.rate"
ubagg_bond_del
log "bonding: done"
