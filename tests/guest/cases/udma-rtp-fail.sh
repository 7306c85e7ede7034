#!/bin/bash
# A TP whose transport fails at one end only. On the namespace pair (lib.sh)
# udma's fault point fail_rtp_response (debugfs, the kernel's fault
# injection) loses every response of a reliable TP, which in a write_bw
# from A to B only B sends, while B's ACKs, NAKs and management messages
# pass: B ACKs every WRITE of A, so A's transport of the TP stays
# healthy, and B's fails after uboe_retry_cnt timeouts. Its
# WRITEs acknowledged, A waited for their responses for ever (issue 11: in
# udma-rtp-netem a client hung in D state in unregister_seg). Now B loses
# the TP and tells A (DCONN_NOTIFY, reason TP_FAILED): A's WRITEs complete
# with ACK_TIMEOUT, the client exits with that error within seconds, both
# ends count it (cm/stats transport_failed at B, peer_transport_failed at
# A), neither keeps the TP; with the fault point off a new TP carries a
# verified transfer.
set -eu
. "$UB_TOP/tests/guest/lib.sh"

perftest=$UB_TOP/build/tools/urma_perftest/urma_perftest
[[ -x $perftest ]] || ub_fail "$perftest is not built"
tmp=$(mktemp -d)
cleanup() {
	kill "${srv:-}" 2> /dev/null || true
	[[ ! -d ${fault:-} ]] || fault off
	ub_unload_stack || true
	ub_nspair_destroy
	rm -rf "$tmp"
}
trap cleanup EXIT

ub_nspair_create
ub_load_stack
# read when a TP is made: B gives up after 2 timeouts of 50 and 100 ms
echo 2 > /sys/module/udma/parameters/uboe_retry_cnt
echo 50 > /sys/module/udma/parameters/uboe_rto_ms
ub_nspair_add_devs

# stat NS DEV KEY: the value of KEY in DEV's cm/stats
stat() {
	ub_ns "$1" "$UB_BUSYBOX" cat "$UB_CLASS/$2/cm/stats" |
		"$UB_BUSYBOX" awk -v k="$3" '$1 == k { print $2 }'
}

# perftest write_bw, server in B, client in A (at most 60 s); the client's
# exit status in CLI
port=21117
write_bw() {
	ub_ns "$UB_NS_B" "$perftest" write_bw -d "$UB_DEV_B" -s 4096 -n "$1" \
		-P $port --check > "$tmp/server" 2>&1 &
	srv=$!
	sleep 1
	CLI=0
	timeout 60 ip netns exec "$UB_NS_A" "$perftest" write_bw \
		-d "$UB_DEV_A" -s 4096 -n "$1" -P $port --check -S "$UB_IP4_B" \
		> "$tmp/client" 2>&1 || CLI=$?
	port=$((port + 1))
}

mountpoint -q /sys/kernel/debug || mount -t debugfs none /sys/kernel/debug
fault=/sys/kernel/debug/udma/fail_rtp_response
[[ -d $fault ]] || ub_fail "$fault: no fault injection in this kernel"
# fault ON|OFF: every response lost, or none
fault() {
	echo 0 > "$fault/verbose"
	echo -1 > "$fault/times"
	echo 1 > "$fault/interval"
	if [[ $1 == on ]]; then echo 100 > "$fault/probability"
	else echo 0 > "$fault/probability"; fi
}
fault on

ub_dmesg_mark
start=$(date +%s)
write_bw 64
took=$(($(date +%s) - start))
cat "$tmp/client"
kill $srv 2> /dev/null || true
wait $srv 2> /dev/null || true
((CLI != 124)) || ub_fail "the client still waited after 60 s"
((CLI != 0)) || ub_fail "the client passed without B's responses"
grep -q ACK_TIMEOUT "$tmp/client" ||
	ub_fail "the client's error is not ACK_TIMEOUT"
((took <= 20)) || ub_fail "the client took $took s to fail"
ub_wire_cnt "$UB_NS_B" "$UB_DEV_B" tx_fault_drops
((WIRE_CNT > 0)) || ub_fail "the fault point lost nothing"
echo "$UB_DEV_B lost $WIRE_CNT responses on purpose"

log=$(ub_dmesg_since)
echo "$log" | grep -E "transport|lost" || true
[[ $log == *"$UB_DEV_B"*"its transport failed"* ]] ||
	ub_fail "no 'its transport failed' from $UB_DEV_B"
[[ $log == *"$UB_DEV_A"*"the peer's transport of it failed"* ]] ||
	ub_fail "no 'the peer's transport of it failed' from $UB_DEV_A"
v=$(stat "$UB_NS_B" "$UB_DEV_B" transport_failed)
[[ $v == 1 ]] || ub_fail "$UB_DEV_B transport_failed $v, want 1"
v=$(stat "$UB_NS_A" "$UB_DEV_A" peer_transport_failed)
[[ $v == 1 ]] || ub_fail "$UB_DEV_A peer_transport_failed $v, want 1"
ub_wire_cnt "$UB_NS_A" "$UB_DEV_A" rtp_ack_timeouts
[[ $WIRE_CNT == 0 ]] || ub_fail "$UB_DEV_A's transport failed too"
for d in "$UB_NS_A $UB_DEV_A" "$UB_NS_B $UB_DEV_B"; do
	read -r ns dev <<< "$d"
	[[ -z $(ub_ns "$ns" "$UB_BUSYBOX" cat "$UB_CLASS/$dev/cm/tp") ]] ||
		ub_fail "$dev still has a TP"
done

fault off
write_bw 64
cat "$tmp/client"
wait $srv || ub_fail "server after the fault: $(cat "$tmp/server")"
((CLI == 0)) || ub_fail "client after the fault failed ($CLI)"
echo "B's transport failed: both ends lost the TP, A's WRITEs failed" \
	"with ACK_TIMEOUT in $took s; a new TP works"
