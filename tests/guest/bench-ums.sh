#!/bin/bash
# UMS's rows of "make bench" (tests/guest/bench.sh runs this; alone:
# scripts/guest-run.sh --kernel stock OUT tests/guest/bench-ums.sh, then
# scripts/bench_table.py OUT/bench --only ums). Raw outputs go to
# $1/bench/ (ums.*): the same unmodified tools over TCP on lib.sh's
# namespace pair (its veth at MTU 9000, each end receiving on its own CPU:
# lib.sh's ub_nspair_rx_split) and under ums_run (AF_SMC over UMS) on the
# same pair, in the same boot:
#  - throughput: iperf3 with 64 KiB writes, 5 s;
#  - latency: sockperf's ping-pong, 14 B (its TCP minimum), 5 s, half the
#    round trip.
# Every UMS socket must have stayed on UMS: the fallback counts of both
# namespaces are checked to be 0 after the runs, else the rows would be TCP.
set -euo pipefail
export UB_TOP=${UB_TOP:-$PWD}
. "$UB_TOP/tests/guest/lib.sh"

out=$1/bench
mkdir -p "$out"
secs=${UB_BENCH_UMS_SECS:-5}
ums_run=$UB_TOP/build/tools/ums_run/ums_run
A=$UB_NS_A B=$UB_NS_B
loaded=
port=5300

log() { echo "== $*"; }

cleanup() {
	ub_nspair_destroy || :
	if ub_module_loaded ums; then ub_rmmod ums || :; fi
	[[ -z $loaded ]] || ub_unload_stack || :
}
trap cleanup EXIT

# run_pair NAME SERVER_CMD -- CLIENT_CMD: SERVER_CMD in B on CPU 1 and
# CLIENT_CMD in A on CPU 0 (where each namespace receives: ub_pin) on
# the next port (@PORT@ in either), each prefixed by the array wrap
# (ums_run, or nothing); the client's output into $out/NAME.
run_pair() {
	local name=$1 srv scmd=() ccmd=() pin_a pin_b
	shift
	read -ra pin_a <<< "$(ub_pin 0)"
	read -ra pin_b <<< "$(ub_pin 1)"
	port=$((port + 1))
	while [[ $1 != -- ]]; do scmd+=("${1//@PORT@/$port}"); shift; done
	shift
	for a in "$@"; do ccmd+=("${a//@PORT@/$port}"); done
	"${pin_b[@]}" ip netns exec "$B" "${wrap[@]}" "${scmd[@]}" \
		> "$out/$name.server" 2>&1 &
	srv=$!
	ub_wait_listen "$port" 60 "$srv" || {
		echo "$name: no server: $(<"$out/$name.server")" >&2
		return 1
	}
	"${pin_a[@]}" ip netns exec "$A" "${wrap[@]}" "${ccmd[@]}" > "$out/$name"
	kill "$srv" 2> /dev/null || :
	wait "$srv" 2> /dev/null || :
}

log "UMS: the namespace pair, $UB_DEV_A and $UB_DEV_B, ums.ko"
ub_nspair_create
# MTU 9000 on both ends before the devices take it: a UBoE packet then
# carries 8 KiB (1 KiB at 1500), as in IPoURMA's rows; TCP's segments on a
# veth are 64 KiB GSO packets either way
ip -n "$A" link set "$UB_VETH_A" mtu 9000
ip -n "$B" link set "$UB_VETH_B" mtu 9000
ub_nspair_rx_split
if ! ub_module_loaded udma; then
	ub_load_stack
	loaded=1
fi
ub_insmod "$UB_KMOD/ums/ums.ko"
ub_nspair_add_devs

for w in tcp ums; do
	wrap=()
	[[ $w == tcp ]] || wrap=("$ums_run")
	log "UMS: iperf3, 64 KiB writes, ${secs} s, $w"
	run_pair "ums.$w.iperf3.json" iperf3 -s -1 -B "$UB_IP4_B" \
		-p @PORT@ -- iperf3 -c "$UB_IP4_B" -p @PORT@ -l 64K \
		-t "$secs" -J
	log "UMS: sockperf ping-pong, 14 B, ${secs} s, $w"
	run_pair "ums.$w.sockperf.txt" sockperf server --tcp \
		-i "$UB_IP4_B" -p @PORT@ -- sockperf ping-pong --tcp \
		-i "$UB_IP4_B" -p @PORT@ -m 14 -t "$secs"
done
for ns in "$A" "$B"; do
	ip netns exec "$ns" cat /proc/net/ums_fallback > "$out/ums.fallback.$ns"
	while read -r code c s _; do
		if [[ $code == 0x* && "$c:$s" != 0:0 ]]; then
			echo "UMS: a socket fell back in $ns: $code $c:$s" >&2
			exit 1
		fi
	done < "$out/ums.fallback.$ns"
done
log "UMS: done"
