#!/bin/bash
# In-guest part of scripts/trace-pair.sh (run by scripts/pair-run.sh in
# both guests of a pair): one urma_perftest latency test over UBoE between
# the two kernels (guest a serves, b is the client), traced in each guest
# with ftrace: function probes on udma's send, receive and completion
# paths, on virtio-net's start_xmit and on udp_rcv, plus the scheduler's
# wake-ups and switches and the work items run. Each guest leaves in
# $UB_PAIR_OUT/trace/: trace.txt (the ftrace dump), stats.before and
# stats.after (urma_admin show dev udma0 --stats around the test), meta
# (test, iterations, role, the test's process name) and the test's output.
# Environment: UB_TRACE_TEST (write_lat), UB_TRACE_ITERS (300),
# UB_TRACE_SIZE (8 bytes), UB_TRACE_MTU (the link's MTU, 1500).
set -eu
. "$UB_TOP/tests/guest/lib.sh"
. "$UB_TOP/tests/pair/lib.sh"

test=${UB_TRACE_TEST:-write_lat}
iters=${UB_TRACE_ITERS:-300}
size=${UB_TRACE_SIZE:-8}
mtu=${UB_TRACE_MTU:-1500}
perf=$UB_TOP/build/tools/urma_perftest/urma_perftest
admin=$UB_TOP/build/tools/urma_admin/urma_admin
dev=$UB_PAIR_DEV
srv_addr=10.77.0.1
port=21600
out=$UB_PAIR_OUT/trace
T=/sys/kernel/tracing
# udma's paths of a round trip, the NIC's transmit and UDP's receive
probes="udma_jfs_doorbell udma_jetty_doorbell udma_sq_run udma_sq_work
udma_sq_process udma_uboe_batch_flush udma_uboe_rx_data udma_rtp_rx_data
udma_rtp_rx_ack udma_uboe_rx_work udma_resp_rcv udma_uboe_reply
udma_uboe_sq_drain udma_comp_run start_xmit udp_rcv"
export UB_PAIR_RUN_LIMIT=900

# Whatever happens, the tracer stops and the stack goes.
cleanup() {
	echo 0 > $T/tracing_on 2> /dev/null || :
	echo nop > $T/current_tracer 2> /dev/null || :
	ub_unload_stack > /dev/null 2>&1 || :
}
trap cleanup EXIT

mkdir -p "$out"
ub_link_mtu "$dev" "$mtu"
ub_pair_sync start
ub_pair_wait_peer 60
ub_load_stack "$dev" || ub_fail "cannot load the stack on $dev"
ub_wait_eid udma0 || ub_fail "udma0 has no EID"
printf 'test=%s\niters=%s\nsize=%s\nmtu=%s\nrole=%s\ncomm=urma_perftest\n' \
	"$test" "$iters" "$size" "$mtu" "$UB_PAIR_ROLE" > "$out/meta"
"$admin" show dev udma0 --stats > "$out/stats.before"
# (the buffer: 16 MiB a CPU)
# shellcheck disable=SC2086 # a list of probes
UB_FTRACE_KB=16384 ub_ftrace_start \
	"sched/sched_switch sched/sched_wakeup workqueue/workqueue_execute_start" \
	$probes
uboe=(-d udma0 -u --sip "$UB_PAIR_ADDR" --dip "$UB_PAIR_PEER")
rc=0
ub_pair_serve "$test" $port "$out/$test.txt" \
	"$perf" "$test" "${uboe[@]}" -P $port -s "$size" -n "$iters" -- \
	"$perf" "$test" "${uboe[@]}" -P $port -s "$size" -n "$iters" -S $srv_addr || rc=1
ub_ftrace_stop "$out/trace.txt" || :
"$admin" show dev udma0 --stats > "$out/stats.after"
((rc == 0)) || ub_fail "$test failed"
ub_unload_stack || ub_fail "cannot unload the stack"
trap - EXIT
ub_pair_sync finished
