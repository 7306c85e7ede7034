#!/bin/bash
# IPoURMA's rows of "make bench" (tests/guest/bench.sh runs this; alone:
# scripts/guest-run.sh --kernel stock OUT tests/guest/bench-ipourma.sh, then
# scripts/bench_table.py OUT/bench --only ipourma). Raw outputs go to
# $1/bench/ (ipourma.*): TCP over ipourma0 against TCP over the veth that
# carries it, in the same namespaces and the same boot:
#  - throughput: iperf3 TCP, 5 s, ipourma0 (fd99::a -> fd99::b) and the
#    veth (fd77::1 -> fd77::2); ipourma0 with each trans_mode: um (the
#    default, one packet of at most the MTU a UM message: ipourma.*) and
#    rm (TSO packets of up to 64 KiB a RM message: ipourma_rm.*);
#  - latency: a 14-byte TCP ping-pong (tests/guest/pingpong.py, sockperf's
#    ping-pong in small: Debian's sockperf 3.7 has no IPv6, IPoURMA has
#    nothing else), half the round trip, both paths;
#  - both in rounds that take turns (the veth, then ipourma0,
#    UB_BENCH_IPOURMA_ROUNDS times a mode); each row is its round of
#    median throughput or median p50 (median_round);
#  - where the time goes: a perf profile (cpu-clock) of iperf3 over
#    ipourma0 in each mode, kernel symbols by self time; with
#    UB_BENCH_TRACE set, also one more ping-pong of UB_BENCH_TRACE_PP
#    round trips (300) on each path traced with ftrace into
#    $1/bench/trace/ipourma.{veth,um,rm}.trace (scripts/trace-nspair.sh
#    reads them with scripts/rtt_timeline.py).
#    UB_BENCH_TRACE_PROBES adds probes (set_ftrace_filter's syntax,
#    separated by spaces or commas: ":mod:udma" is every function of
#    udma.ko).
# The pair: namespaces ipoA and ipoB joined by a veth (MTU 9000: a UBoE
# message must fit one packet; each end receives on its own CPU, lib.sh's
# ub_veth_rx_cpu, and its programs run there), udmaA and udmaB on it with
# static EIDs fd99::a and fd99::b, fd99::/64 routed over the veth at
# metric 1024 for UBoE's own packets (ipourma0's route, metric 256, takes
# the rest).
set -euo pipefail
export UB_TOP=${UB_TOP:-$PWD}
. "$UB_TOP/tests/guest/lib.sh"

out=$1/bench
mkdir -p "$out"
secs=${UB_BENCH_IPOURMA_SECS:-5}
pp_iters=${UB_BENCH_IPOURMA_PP:-2000}
rounds=${UB_BENCH_IPOURMA_ROUNDS:-3}
A=ipoA B=ipoB
loaded=

log() { echo "== $*"; }

cleanup() {
	if ub_module_loaded ipourma; then ub_rmmod ipourma || :; fi
	ip netns del $A 2> /dev/null || :
	ip netns del $B 2> /dev/null || :
	[[ -z $loaded ]] || ub_unload_stack || :
}
trap cleanup EXIT

# wait_listen NS PORT: until a TCP socket listens on PORT in NS (10 s).
wait_listen() {
	local hex i
	printf -v hex ':%04X ' "$2"
	for ((i = 0; i < 100; i++)); do
		ip netns exec "$1" grep -qs "$hex.* 0A " /proc/net/tcp6 && return 0
		sleep 0.1
	done
	echo "nothing listens on port $2 in $1" >&2
	return 1
}

# wait_addr NS ADDR: until ipourma0 in NS holds ADDR (10 s).
wait_addr() {
	local i
	for ((i = 0; i < 100; i++)); do
		ip -n "$1" -6 addr show dev ipourma0 | grep -q "inet6 $2/" && return 0
		sleep 0.1
	done
	echo "ipourma0 in $1 has no $2" >&2
	return 1
}

# iperf NAME DST SRC [IPERF3_ARGS...]: iperf3 TCP from SRC in A (on
# CPU 0) to DST in B (on CPU 1), as pingpong below, JSON into $out/NAME.
# Left to the scheduler, both ends at times shared one CPU while the
# other idled: the same build's runs spread from 135 to 224 MB/s over
# ipourma0 and from 282 to 894 MB/s over the veth.
iperf() {
	local name=$1 dst=$2 src=$3 spid pin_a pin_b
	shift 3
	read -ra pin_a <<< "$(ub_pin 0)"
	read -ra pin_b <<< "$(ub_pin 1)"
	"${pin_b[@]}" ip netns exec $B iperf3 -s -1 -B "$dst" > "$out/$name.server" 2>&1 &
	spid=$!
	wait_listen $B 5201
	"${pin_a[@]}" ip netns exec $A iperf3 -c "$dst" -B "$src" -t "$secs" -J "$@" > "$out/$name"
	wait $spid
}

# pingpong NAME DST SRC [TRACE]: pingpong.py from SRC in A (on CPU 0)
# to DST in B (on CPU 1): each where its namespace receives (lib.sh's
# ub_pin); with TRACE, UB_BENCH_TRACE_PP round trips traced into TRACE.
pingpong() {
	local spid pin_a pin_b n=$pp_iters rc=0
	read -ra pin_a <<< "$(ub_pin 0)"
	read -ra pin_b <<< "$(ub_pin 1)"
	"${pin_b[@]}" ip netns exec $B python3 "$UB_TOP/tests/guest/pingpong.py" \
		server "$2" 5204 > "$out/$1.server" 2>&1 &
	spid=$!
	wait_listen $B 5204
	if [[ -n ${4:-} ]]; then
		n=${UB_BENCH_TRACE_PP:-300}
		# shellcheck disable=SC2086 # lists of probes
		ub_ftrace_start "$trace_events" $trace_probes ${more_probes//,/ }
	fi
	"${pin_a[@]}" ip netns exec $A python3 "$UB_TOP/tests/guest/pingpong.py" \
		client "$2" 5204 -n "$n" -w 100 -s "$3" > "$out/$1"
	[[ -z ${4:-} ]] || ub_ftrace_stop "$4" || rc=1
	wait $spid
	return $rc
}

# What a traced ping-pong records: the scheduler, the softirqs, and the
# calls on the way of a packet through TCP, ipourma, udma and the veth.
more_probes=${UB_BENCH_TRACE_PROBES:-}
trace_events="sched/sched_switch sched/sched_wakeup irq/softirq_entry irq/softirq_exit"
trace_probes="tcp_sendmsg tcp_recvmsg tcp_v6_rcv ipourma_xmit ipourma_comp
ipourma_poll napi_gro_receive udma_post_jfs_wr udma_sq_tasklet
udma_sq_process udma_cq_post udma_uboe_batch_flush veth_xmit net_rx_action
process_backlog udma_uboe_data_ready udma_uboe_rx_tasklet udma_uboe_rx_data
udma_resp_rcv udma_uboe_reply udma_rtp_rx_ack"

# median_round NAME FIGURE: of the rounds NAME.r* (not their .server),
# the one of median FIGURE (a command that prints a file's figure)
# becomes NAME. One boot's p50 of 2000 round trips spread from 277 to
# 471 us over ipourma0 and from 76 to 154 us over the veth, and its
# iperf3 runs from 91 to 289 MB/s over ipourma0 (rm) and from 320 to
# 876 MB/s over the veth, with whatever the host did meanwhile; rounds
# that take turns see the same host.
median_round() {
	local f v sorted=()
	for f in "$out/$1".r*; do
		[[ $f != *.server ]] || continue
		v=$("$2" "$f")
		sorted+=("$v $f")
	done
	mapfile -t sorted < <(printf '%s\n' "${sorted[@]}" | sort -g)
	f=${sorted[$(((${#sorted[@]} - 1) / 2))]#* }
	cp "$f" "$out/$1"
}

# pp_p50 FILE, iperf_rate FILE: the figure median_round orders by (the
# one bench_table.py reports).
pp_p50() { awk '$1 == "p50_usec" { print $2 }' "$1"; }
iperf_rate() {
	python3 -c 'import json, sys
print(json.load(open(sys.argv[1]))["end"]["sum_received"]["bits_per_second"])' "$1"
}

log "IPoURMA: the namespace pair"
ip netns add $A
ip netns add $B
ip link add ipvA type veth peer name ipvB
ip link set ipvA netns $A
ip link set ipvB netns $B
for s in "$A ipvA fd77::1 fd77::2" "$B ipvB fd77::2 fd77::1"; do
	read -r ns dev self peer <<< "$s"
	ip -n "$ns" link set lo up
	ip -n "$ns" link set "$dev" mtu 9000 up
	ip -n "$ns" addr add "$self/64" dev "$dev" nodad
	ip -n "$ns" route add fd99::/64 via "$peer" dev "$dev" metric 1024
done
ub_veth_rx_cpu $A ipvA 0
ub_veth_rx_cpu $B ipvB 1
if ! ub_module_loaded udma; then
	ub_load_stack
	loaded=1
fi
for s in "$A udmaA ipvA" "$B udmaB ipvB"; do
	read -r ns udev dev <<< "$s"
	ip netns exec "$ns" "$UB_ADMIN" dev add "$udev" netdev "$dev"
	ip netns exec "$ns" "$UB_ADMIN" eid set "$udev" mode static
done
ip netns exec $A "$UB_ADMIN" eid add udmaA 0 fd99::a
ip netns exec $B "$UB_ADMIN" eid add udmaB 0 fd99::b

# ipourma_up MODE: ipourma.ko (again) with trans_mode=MODE, ipourma0 up in
# both namespaces with its address, the peers imported.
ipourma_up() {
	if ub_module_loaded ipourma; then ub_rmmod ipourma; fi
	ub_insmod "$UB_KMOD/ipourma/ipourma.ko" trans_mode="$1"
	ip -n $A link set ipourma0 up
	ip -n $B link set ipourma0 up
	wait_addr $A fd99::a
	wait_addr $B fd99::b
	# the first packets wait for the peer's import: out of the measurement
	ip netns exec $A "$UB_BUSYBOX" ping -6 -c 2 -I fd99::a fd99::b > "$out/ipourma.$1.ping"
}

# profile NAME: perf profile of 3 s of iperf3 TCP over ipourma0, into
# perf.NAME.txt; the counters of both ends after it into NAME.stats.A/B.
profile() {
	local spid pin_a pin_b
	read -ra pin_a <<< "$(ub_pin 0)"
	read -ra pin_b <<< "$(ub_pin 1)"
	"${pin_b[@]}" ip netns exec $B iperf3 -s -1 -B fd99::b > /dev/null 2>&1 &
	spid=$!
	wait_listen $B 5201
	perf record -q -e cpu-clock -F 2000 -a -g -o "/tmp/perf.$1.data" -- \
		"${pin_a[@]}" ip netns exec $A iperf3 -c fd99::b -B fd99::a -t 3 > /dev/null 2> "$out/perf.$1.err"
	wait $spid
	# self time by kernel symbol, % of all samples (both ends and softirqs)
	perf report -i "/tmp/perf.$1.data" --stdio --no-children \
		--sort sym --percent-limit 1 -g none \
		> "$out/perf.$1.txt" 2> /dev/null
	ip netns exec $A cat /sys/class/net/ipourma0/query_ipourma_stats > "$out/$1.stats.A"
	ip netns exec $B cat /sys/class/net/ipourma0/query_ipourma_stats > "$out/$1.stats.B"
}

for mode in um rm; do
	name=ipourma
	[[ $mode == um ]] || name=ipourma_$mode
	ipourma_up $mode
	for ((r = 1; r <= rounds; r++)); do
		log "IPoURMA ($mode): round $r: iperf3 TCP, ${secs} s, and TCP ping-pong, 14 B x $pp_iters: the veth, then ipourma0"
		iperf ipourma.veth.iperf3.json.r$r.$mode fd77::2 fd77::1
		iperf $name.iperf3.json.r$r fd99::b fd99::a
		pingpong ipourma.veth.pp.txt.r$r.$mode fd77::2 fd77::1
		pingpong $name.pp.txt.r$r fd99::b fd99::a
	done
	median_round $name.iperf3.json iperf_rate
	median_round $name.pp.txt pp_p50
	log "IPoURMA ($mode): profile of iperf3 TCP over ipourma0"
	profile ${name}_tcp
	if [[ -n ${UB_BENCH_TRACE:-} ]]; then
		mkdir -p "$out/trace"
		if [[ $mode == um ]]; then
			log "IPoURMA: a traced ping-pong over the veth"
			pingpong ipourma.veth.pp.traced fd77::2 fd77::1 \
				"$out/trace/ipourma.veth.trace"
		fi
		log "IPoURMA ($mode): a traced ping-pong over ipourma0"
		pingpong $name.pp.traced fd99::b fd99::a \
			"$out/trace/ipourma.$mode.trace"
	fi
done
# the veth's rows: every mode's rounds
median_round ipourma.veth.iperf3.json iperf_rate
median_round ipourma.veth.pp.txt pp_p50
log "IPoURMA: done"
