#!/bin/bash
# UMS between two kernels joined by one link (issue 13's two-guest case),
# each with udma0 on its end. A kernel without ums.ko is a peer that never
# echoes the SMC option of the SYN, so the other end falls back to TCP:
#  1. a (server) has no ums.ko: b's AF_SMC client falls back, "peer has no
#     UMS", and its data arrives whole over TCP;
#  2. b (client) has no ums.ko: a's AF_SMC server falls back the same way;
#  3. both have it: 8 MiB over UMS, each end's /proc/net/ums line says
#     not fallen back and names the link's EIDs and jetties.
# Data is checked by SHA-256 (tests/guest/ums_peer.py). ums.ko then
# unloads on both sides and so does the stack.
set -eu
. "$UB_TOP/tests/guest/lib.sh"
. "$UB_TOP/tests/pair/lib.sh"

PY=/usr/bin/python3
peer=$UB_TOP/tests/guest/ums_peer.py
PEERNOUMS=0x03010000/0x0 # the peer said nothing
server=10.77.0.1 # a's address on the link (scripts/pair-run.sh)

cleanup() {
	if ub_module_loaded ums; then ub_rmmod ums || true; fi
	ub_unload_stack || true
}
trap cleanup EXIT

# ums_load / ums_unload: ums.ko in or out of this kernel
ums_load() { ub_insmod "$UB_KMOD/ums/ums.ko"; }
ums_unload() {
	local i
	for ((i = 0; i < 100; i++)); do
		ub_rmmod ums 2> /dev/null && return 0
		ub_sleep 0.1
	done
	ub_fail "$UB_PAIR_ROLE: ums.ko does not unload"
}

# cross NAME PORT SERVER_KIND SERVER_EXPECT CLIENT_KIND CLIENT_EXPECT BYTES:
# one connection, server on a, client on b, both ends checked
cross() {
	local sexp=() cexp=()
	[[ -z $4 ]] || sexp=(--expect "$4")
	[[ -z $6 ]] || cexp=(--expect "$6")
	echo "== $1 ($SECONDS s)"
	ub_pair_serve "$1" "$2" "/tmp/ums-cross.$1" \
		"$PY" "$peer" server "$3" "$server" "$2" 1 "${sexp[@]}" -- \
		"$PY" "$peer" client "$5" "$server" "$2" "SUM:$7" "${cexp[@]}" ||
		ub_fail "$1: $(cat "/tmp/ums-cross.$1.err" 2> /dev/null)"
}

echo "$UB_PAIR_ROLE: the stack on $UB_PAIR_DEV"
ub_load_stack "$UB_PAIR_DEV"
ub_wait_eid udma0 || ub_fail "udma0 has no EID"
ub_pair_wait_peer

if [[ $UB_PAIR_ROLE == b ]]; then ums_load; fi
ub_pair_sync phase1
cross "server-without-ums" 6001 tcp "" smc "$PEERNOUMS" 1048576

if [[ $UB_PAIR_ROLE == b ]]; then ums_unload; else ums_load; fi
ub_pair_sync phase2
cross "client-without-ums" 6002 smc "$PEERNOUMS" tcp "" 1048576

if [[ $UB_PAIR_ROLE == b ]]; then ums_load; fi
ub_pair_sync phase3
cross "both-over-ums" 6003 smc UMS smc UMS 8388608

ub_pair_sync unload
ums_unload
ub_unload_stack
trap - EXIT
echo "$UB_PAIR_ROLE: done ($SECONDS s)"
