#!/bin/bash
# URMA over UBoE on one wire of make bench (tests/guest/bench.sh runs this;
# alone: scripts/guest-run.sh --kernel stock OUT tests/guest/bench-wire.sh,
# then scripts/bench_table.py OUT/bench --only wire). Raw outputs go to
# $1/bench/ (wire.*): urma_perftest write_bw, 64 KiB x UB_BENCH_WIRE_ITERS
# (2000), from udmaA to udmaB of lib.sh's namespace pair (every packet
# crosses their veth; each end receives on its own CPU, lib.sh's
# ub_nspair_rx_split), at MTU 1500 and 9000, with one skb a packet
# (udma's uboe_train_pkts=1) and in trains (its default); iperf3 TCP with
# 64 KiB writes on the same veth at the same MTU; and a profile of the
# trains' run at MTU 1500 (perf cpu-clock around the client, every CPU:
# both ends, softirqs, udma's works).
set -euo pipefail
export UB_TOP=${UB_TOP:-$PWD}
. "$UB_TOP/tests/guest/lib.sh"

out=$1/bench
mkdir -p "$out"
iters=${UB_BENCH_WIRE_ITERS:-2000}
perftest=$UB_TOP/build/tools/urma_perftest/urma_perftest
train=/sys/module/udma/parameters/uboe_train_pkts
A=$UB_NS_A B=$UB_NS_B
loaded=
port=5400

log() { echo "== $*"; }

cleanup() {
	[[ ! -w $train ]] || echo 64 > "$train"
	ub_nspair_destroy || :
	[[ -z $loaded ]] || ub_unload_stack || :
}
trap cleanup EXIT

# write_bw NAME [PREFIX...]: the client in A, through PREFIX (perf), into
# $out/NAME
write_bw() {
	local name=$1 srv
	shift
	port=$((port + 1))
	ip netns exec "$B" "$perftest" write_bw -d "$UB_DEV_B" -s 65536 \
		-n "$iters" -P $port --json > "$out/$name.server" 2>&1 &
	srv=$!
	ub_wait_listen $port 60 "$srv" || {
		echo "$name: no server: $(<"$out/$name.server")" >&2
		return 1
	}
	"$@" ip netns exec "$A" "$perftest" write_bw -d "$UB_DEV_A" -s 65536 \
		-n "$iters" -P $port -S "$UB_IP4_B" --json > "$out/$name"
	wait "$srv"
}

log "wire: the namespace pair, $UB_DEV_A and $UB_DEV_B"
ub_nspair_create
ub_nspair_rx_split
if ! ub_module_loaded udma; then
	ub_load_stack
	loaded=1
fi
ub_nspair_add_devs
echo "kernel $(uname -r), $(nproc) vCPUs, one guest: two namespaces over a veth, each end receiving on its own CPU" \
	> "$out/wire.guest.txt"

for mtu in 1500 9000; do
	ip -n "$A" link set "$UB_VETH_A" mtu $mtu
	ip -n "$B" link set "$UB_VETH_B" mtu $mtu
	for pkts in 1 64; do
		log "wire: MTU $mtu, trains of $pkts, write_bw 64 KiB x $iters"
		echo $pkts > "$train"
		write_bw "wire.$mtu.$pkts.json"
	done
	log "wire: MTU $mtu, iperf3 TCP, 64 KiB writes"
	port=$((port + 1))
	ip netns exec "$B" iperf3 -s -1 -B "$UB_IP4_B" -p $port > /dev/null 2>&1 &
	srv=$!
	ub_wait_listen $port 60 "$srv"
	ip netns exec "$A" iperf3 -c "$UB_IP4_B" -p $port -l 64K -t 4 -J \
		> "$out/wire.$mtu.tcp.iperf3.json"
	wait "$srv" || :
done

log "wire: profile of write_bw at MTU 1500 in trains"
ip -n "$A" link set "$UB_VETH_A" mtu 1500
ip -n "$B" link set "$UB_VETH_B" mtu 1500
write_bw wire.profile.json perf record -q -e cpu-clock -F 2000 -a -g \
	-o /tmp/perf.wire.data --
# self time, and time with callees, by symbol, % of all samples
perf report -i /tmp/perf.wire.data --stdio --no-children --sort sym \
	--percent-limit 1 -g none > "$out/perf.wire.txt" 2> /dev/null
perf report -i /tmp/perf.wire.data --stdio --children --sort sym \
	--percent-limit 5 -g none > "$out/perf.wire.children.txt" 2> /dev/null
log "wire: done"
