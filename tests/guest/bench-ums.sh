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
# With UB_BENCH_TRACE set, one more ping-pong of each kind
# (tests/guest/pingpong.py, 14 B, UB_BENCH_TRACE_PP round trips: 300) is
# traced with ftrace into $1/bench/trace/ums.{tcp,ums}.trace
# (scripts/trace-nspair.sh reads them with scripts/rtt_timeline.py).
# UB_BENCH_TRACE_PROBES adds probes (set_ftrace_filter's syntax, separated
# by spaces or commas: ":mod:udma" is every function of udma.ko).
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

# What a traced ping-pong records: the scheduler, the softirqs, and the
# calls on the way of a message through TCP or UMS, udma and the veth.
more_probes=${UB_BENCH_TRACE_PROBES:-}
trace_events="sched/sched_switch sched/sched_wakeup irq/softirq_entry irq/softirq_exit"
trace_probes="tcp_sendmsg tcp_recvmsg tcp_v4_rcv ums_sendmsg ums_recvmsg
ums_cdc_recv ums_cdc_sent ums_lgr_comp ums_lgr_cq_tasklet
udma_post_jetty_send_wr udma_sq_tasklet udma_sq_process udma_cq_post
udma_uboe_batch_flush veth_xmit net_rx_action process_backlog
udma_uboe_data_ready udma_uboe_rx_tasklet udma_uboe_rx_data udma_resp_rcv
udma_uboe_reply udma_rtp_rx_ack"

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
	if [[ -n ${UB_BENCH_TRACE:-} ]]; then
		log "UMS: a traced ping-pong, 14 B, $w"
		mkdir -p "$out/trace"
		pp=$UB_TOP/tests/guest/pingpong.py
		# shellcheck disable=SC2086 # lists of probes
		ub_ftrace_start "$trace_events" $trace_probes ${more_probes//,/ }
		run_pair "ums.$w.pp.traced" python3 "$pp" server \
			"$UB_IP4_B" @PORT@ -- python3 "$pp" client "$UB_IP4_B" \
			@PORT@ -n "${UB_BENCH_TRACE_PP:-300}" -w 100
		ub_ftrace_stop "$out/trace/ums.$w.trace"
	fi
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
