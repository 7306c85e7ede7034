#!/bin/bash
# In-guest part of "make bench" (scripts/bench.sh): URMA (udma), soft-RoCE
# (the kernel's rdma_rxe with perftest) and TCP (iperf3, sockperf) on the
# same veth, in one boot of the stock kernel, so that the ratios are fair on
# a noisy machine, and perftest over RoUB (roub.ko, libroub) on udma0; then
# udma's local path against memcpy, and a profile of
# where the time goes; then IPoURMA and UMS against TCP on namespace pairs
# (bench-ipourma.sh, bench-ums.sh), a bonding device against one member
# (bench-ubagg.sh), and URMA over UBoE across a veth with and without
# trains, against TCP, with the wire path's profile (bench-wire.sh). Raw
# outputs go to $1/bench/, which scripts/
# bench_table.py turns into the table. Runs from the repo top with UB_KMOD.
#
# The network: veth0 (10.0.0.1) here, its peer veth1 (10.0.0.2) in the
# namespace "peer". udma0 and rxe0 both sit on veth0 and talk to their own
# address: udma's local path and rxe's loopback. TCP crosses the veth pair
# (rdma_rxe of 6.1 works in the initial namespace only, TCP can do better).
set -euo pipefail
export UB_TOP=$PWD
. "$UB_TOP/tests/guest/lib.sh"
. "$UB_TOP/tests/guest/bench-tests.sh"

out=$1/bench
mkdir -p "$out"
lat_iters=${UB_BENCH_LAT_ITERS:-5000}
bw_iters=${UB_BENCH_BW_ITERS:-2000}
bw_size=65536
perftest=$UB_TOP/build/tools/urma_perftest/urma_perftest
local_bench=$UB_TOP/build/tests/bench/urma_local_bench
self=10.0.0.1 peer=10.0.0.2

log() { echo "== $*"; }

# wait_listen PORT [NETNS]: until a TCP socket listens on PORT (10 s).
wait_listen() {
	local hex i
	printf -v hex ':%04X ' "$1"
	for ((i = 0; i < 100; i++)); do
		if ${2:+ip netns exec "$2"} grep -qs "$hex.* 0A " /proc/net/tcp /proc/net/tcp6; then
			return 0
		fi
		sleep 0.1
	done
	echo "nothing listens on port $1" >&2
	return 1
}

setup_net() {
	ip link add veth0 type veth peer name veth1
	ip netns add peer
	ip link set veth1 netns peer
	ip addr add $self/24 dev veth0
	ip link set veth0 up
	ip -n peer addr add $peer/24 dev veth1
	ip -n peer link set veth1 up
	ip -n peer link set lo up
}

setup_urma() {
	ub_load_stack veth0 && ub_wait_eid
}

setup_rxe() {
	modprobe rdma_rxe
	rdma link add rxe0 type rxe netdev veth0
}

# pair NAME SERVER_CMD... -- CLIENT_CMD...: run a server in the background
# and its client; the client's stdout to NAME, both stderrs to NAME.err.
pair() {
	local name=$1 port=$2
	shift 2
	local srv=() rc=0
	while [[ $1 != -- ]]; do srv+=("$1"); shift; done
	shift
	"${srv[@]}" > "$out/$name.server" 2> "$out/$name.server.err" &
	local spid=$!
	wait_listen "$port" || { kill $spid; return 1; }
	"$@" > "$out/$name" 2> "$out/$name.err" || rc=$?
	wait $spid || rc=$?
	if ((rc)); then
		echo "$name failed ($rc):" >&2
		tail -5 "$out/$name.err" "$out/$name.server.err" >&2
	fi
	return $rc
}

# URMA and rxe, test by test (tests/guest/bench-tests.sh).
run_pair_tests() {
	local t size iters ib ibo uo
	while read -r t size iters ib ibo uo; do
		[[ $ibo == - ]] && ibo=
		[[ $uo == - ]] && uo=
		ibo=${ibo//,/ } uo=${uo//,/ }
		log "$t $size B x $iters: urma_perftest $uo"
		# shellcheck disable=SC2086 # $uo, $ibo: several options
		pair "urma.$t.json" 21115 \
			"$perftest" "$t" -d udma0 -s "$size" -n "$iters" $uo --json -- \
			"$perftest" "$t" -d udma0 -s "$size" -n "$iters" $uo --json -S $self
		log "$t $size B x $iters: $ib $ibo"
		# shellcheck disable=SC2086
		pair "rxe.$t.txt" 18515 \
			"$ib" -d rxe0 -F -s "$size" -n "$iters" $ibo -- \
			"$ib" -d rxe0 -F -s "$size" -n "$iters" $ibo $self
	done < <(bench_tests "$lat_iters" "$bw_iters" "$bw_size")
}

# RoUB: the same perftest tests over roub_udma0 (roub.ko; libroub, the
# build tree's provider, through RDMAV_DRIVERS) on udma0, whose QPs meet on
# udma's local path like URMA's rows, so RoUB's overhead over URMA is the
# verbs layer's. No atomics: RoUB carries none. GRH addressing (-x 0).
run_roub_tests() {
	local t size iters ib ibo uo
	local -x RDMAV_DRIVERS=$UB_TOP/build/libroub/libroub
	modprobe ib_uverbs
	ub_insmod "$UB_KMOD/roub/roub.ko"
	while read -r t size iters ib ibo uo; do
		[[ $t == atomic_* ]] && continue
		[[ $ibo == - ]] && ibo=
		log "$t $size B x $iters: $ib over roub_udma0"
		# shellcheck disable=SC2086 # $ibo: several options
		pair "roub.$t.txt" 18515 \
			"$ib" -d roub_udma0 -x 0 -F -s "$size" -n "$iters" $ibo -- \
			"$ib" -d roub_udma0 -x 0 -F -s "$size" -n "$iters" $ibo $self
	done < <(bench_tests "$lat_iters" "$bw_iters" "$bw_size")
	ub_rmmod roub
}

run_tcp() {
	log "TCP bandwidth: iperf3, $bw_size B writes over the veth"
	ip netns exec peer iperf3 -s -1 > "$out/tcp.iperf3.server" 2>&1 &
	local spid=$!
	wait_listen 5201 peer
	iperf3 -c $peer -t 5 -l $bw_size --json > "$out/tcp.iperf3.json"
	wait $spid
	# sockperf's smallest TCP message is 14 bytes; it reports half the
	# round trip, as ib_write_lat and ib_send_lat do.
	log "TCP latency: sockperf ping-pong, 14 B over the veth"
	ip netns exec peer sockperf server --tcp -i $peer -p 11111 \
		> "$out/tcp.sockperf.server" 2>&1 &
	spid=$!
	wait_listen 11111 peer
	sockperf ping-pong --tcp -i $peer -p 11111 -m 14 -t 5 \
		> "$out/tcp.sockperf.txt" 2>&1
	kill $spid
	wait $spid || :
}

# Where the time goes: a system-wide profile (cpu-clock: a TCG guest has no
# PMU) of URMA's write_lat and write_bw, by symbol, kernel and user.
run_profile() {
	local t size iters
	for t in "write_lat 8 $lat_iters" "write_bw $bw_size $bw_iters"; do
		read -r t size iters <<< "$t"
		log "profile of urma $t"
		"$perftest" "$t" -d udma0 -s "$size" -n "$iters" \
			> /dev/null 2> "$out/perf.$t.server.err" &
		local spid=$!
		wait_listen 21115
		perf record -q -e cpu-clock -F 2000 -a -g -o /tmp/perf.$t.data -- \
			"$perftest" "$t" -d udma0 -s "$size" -n "$iters" -S $self \
			> /dev/null 2> "$out/perf.$t.err"
		wait $spid
		# Self time by symbol, then time including callees (the
		# syscall, the engine, the copy) of the benchmark's process.
		# Percentages of the client's own samples.
		perf report -i /tmp/perf.$t.data --stdio --no-children \
			--comms urma_perftest --percentage relative \
			--sort dso,sym --percent-limit 1 -g none \
			> "$out/perf.$t.txt" 2> /dev/null
		perf report -i /tmp/perf.$t.data --stdio --children \
			--comms urma_perftest --percentage relative \
			--sort sym --percent-limit 2 -g none \
			> "$out/perf.$t.children.txt" 2> /dev/null
	done
}

echo "kernel $(uname -r), $(nproc) cpus" > "$out/guest.txt"
setup_net
setup_urma
setup_rxe
run_pair_tests
run_roub_tests
run_tcp
log "local path: urma_local_bench"
"$local_bench" > "$out/local.txt"
run_profile
log "IPoURMA against TCP over its veth (tests/guest/bench-ipourma.sh)"
bash "$UB_TOP/tests/guest/bench-ipourma.sh" "$1"
log "UMS against TCP on the namespace pair (tests/guest/bench-ums.sh)"
bash "$UB_TOP/tests/guest/bench-ums.sh" "$1"
log "a Balance bonding device against one member (tests/guest/bench-ubagg.sh)"
bash "$UB_TOP/tests/guest/bench-ubagg.sh" "$1"
log "URMA over UBoE on one veth, with and without trains (tests/guest/bench-wire.sh)"
bash "$UB_TOP/tests/guest/bench-wire.sh" "$1"
rdma link delete rxe0
modprobe -r rdma_rxe
ub_unload_stack
log "done"
