#!/bin/bash
# In-guest part of the cross-host benchmark (scripts/bench-pair.sh, run by
# scripts/pair-run.sh in both guests of a pair): URMA over UBoE
# (urma_perftest -u --sip/--dip), soft-RoCE (rdma_rxe with perftest's ib_*)
# and TCP (iperf3; sockperf, and tests/guest/pingpong.py at the 8 bytes
# sockperf refuses) between the two kernels over their one link, each
# test with the same size and iteration count, at MTU 1500 and then 9000
# (URMA, rxe and TCP on the same link settings: the netdev's MTU; rxe
# rounds it down to an IB MTU of at most 4096). Guest a runs the servers,
# b the clients; b's raw outputs go to $UB_PAIR_OUT/bench/mtuN/ (the
# names scripts/bench_table.py reads), a's server logs to the same place in
# its own results. Environment: UB_BENCH_LAT_ITERS (5000),
# UB_BENCH_BW_ITERS (2000).
set -eu
. "$UB_TOP/tests/guest/lib.sh"
. "$UB_TOP/tests/pair/lib.sh"
. "$UB_TOP/tests/guest/bench-tests.sh"

lat_iters=${UB_BENCH_LAT_ITERS:-5000}
bw_iters=${UB_BENCH_BW_ITERS:-2000}
bw_size=65536
perf=$UB_TOP/build/tools/urma_perftest/urma_perftest
dev=$UB_PAIR_DEV
srv_addr=10.77.0.1
# Each run may take long under TCG: the barriers after it wait this long.
export UB_PAIR_RUN_LIMIT=900

log() { echo "== $(date +%T) $*"; }

# serve NAME PORT SERVER... -- CLIENT...: ub_pair_serve into $out/NAME. A
# run that fails is reported and counted, and the others go on: the
# table shows what was measured and names what was not.
failed=0
serve() {
	local name=$1 port=$2
	shift 2
	ub_pair_serve "$name" "$port" "$out/$name" "$@" && return 0
	tail -5 "$out/$name" "$out/$name.err" >&2
	echo "FAILED: $name at MTU $mtu" >&2
	failed=$((failed + 1))
}

run_urma() {
	local t size iters uo port=21400
	ub_load_stack "$dev" || ub_fail "cannot load the stack on $dev"
	ub_wait_eid udma0 || ub_fail "udma0 has no EID"
	local uboe=(-d udma0 -u --sip "$UB_PAIR_ADDR" --dip "$UB_PAIR_PEER")
	while read -r t size iters _ _ uo; do
		[[ $uo == - ]] && uo=
		uo=${uo//,/ }
		log "urma $t $size B x $iters"
		port=$((port + 1))
		# shellcheck disable=SC2086 # $uo: several options
		serve "urma.$t.json" $port \
			"$perf" "$t" "${uboe[@]}" -P $port -s "$size" -n "$iters" $uo --json -- \
			"$perf" "$t" "${uboe[@]}" -P $port -s "$size" -n "$iters" $uo --json -S $srv_addr
	done < <(bench_tests "$lat_iters" "$bw_iters" "$bw_size")
	"$UB_TOP/build/tools/urma_admin/urma_admin" show dev udma0 --stats > "$out/urma.stats.txt" || :
	ub_unload_stack || ub_fail "cannot unload the stack"
}

run_rxe() {
	local t size iters ib ibo
	modprobe rdma_rxe
	rdma link add rxe0 type rxe netdev "$dev"
	while read -r t size iters ib ibo _; do
		[[ $ibo == - ]] && ibo=
		ibo=${ibo//,/ }
		log "rxe $ib $size B x $iters"
		# shellcheck disable=SC2086 # $ibo: several options
		serve "rxe.$t.txt" 18515 \
			"$ib" -d rxe0 -F -s "$size" -n "$iters" $ibo -- \
			"$ib" -d rxe0 -F -s "$size" -n "$iters" $ibo $srv_addr
	done < <(bench_tests "$lat_iters" "$bw_iters" "$bw_size")
	rdma link delete rxe0
	# rmmod, not modprobe -r: that would also take udp_tunnel and
	# ip6_udp_tunnel, which udma needs at the next MTU.
	rmmod rdma_rxe
}

run_tcp() {
	log "tcp iperf3, $bw_size B writes"
	serve tcp.iperf3.json 5201 iperf3 -s -1 -B $srv_addr -- \
		iperf3 -c $srv_addr -t 5 -l $bw_size --json
	# sockperf's smallest TCP message is 14 bytes: also pingpong.py at
	# the 8 bytes of the URMA and rxe rows. Both report half the round
	# trip, as ib_write_lat and ib_send_lat do.
	log "tcp sockperf ping-pong, 14 B"
	UB_PAIR_STOP_SERVER=1 serve tcp.sockperf.txt 11111 \
		sockperf server --tcp -i $srv_addr -p 11111 -- \
		sockperf ping-pong --tcp -i $srv_addr -p 11111 -m 14 -t 5
	log "tcp pingpong.py, 8 B x $lat_iters"
	serve tcp.pp.txt 5204 \
		python3 "$UB_TOP/tests/guest/pingpong.py" server $srv_addr 5204 -- \
		python3 "$UB_TOP/tests/guest/pingpong.py" client $srv_addr 5204 -m 8 -n "$lat_iters"
}

echo "kernel $(uname -r), $(nproc) vCPUs a guest, two guests over QEMU's dgram netdev" > "$UB_PAIR_OUT/guest.txt"
for mtu in 1500 9000; do
	out=$UB_PAIR_OUT/bench/mtu$mtu
	mkdir -p "$out"
	cp "$UB_PAIR_OUT/guest.txt" "$out/guest.txt"
	ub_link_mtu "$dev" $mtu
	ub_pair_sync "mtu-$mtu"
	ub_pair_wait_peer 60
	log "MTU $mtu"
	run_urma
	run_rxe
	run_tcp
done
ub_link_mtu "$dev" 1500
ub_pair_sync finished
log "done, $failed runs failed"
((failed == 0))
