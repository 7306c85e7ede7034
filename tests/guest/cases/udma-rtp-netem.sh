#!/bin/bash
# The reliable transport of UBoE TPs on a bad network: the namespace pair
# (lib.sh) with netem on both ends of the veth (ub_nspair_netem: 5% loss,
# 10% reordering, 1% duplication, 5 ms +- 2 ms delay), and urma_perftest
# across it, client
# in udmaA's namespace, server in udmaB's, with --check (the server
# verifies every byte: each message of send_bw, the target buffer of
# write_bw). A WRITE stream of 64 KiB messages (segmented to the 1500-byte
# MTU) and SEND/RECV messages of 4 KiB must arrive complete and verified,
# and the wire counters must show that the transport recovered (NAKs,
# retransmissions, duplicates dropped) without a TP failing; the SENDs go
# with pacing on (uboe_pace_pct), and the client's TP must have paced
# them (rtp_paced: at netem's 5 ms RTT a window leaves over the RTT). Sizes:
# 2 MiB and 200 messages in "make check" (about 50 s in the guest: the
# 1500-byte MTU carries 1 KiB a packet); 256 MiB and 10,000 messages in
# "make check-long" (UB_CHECK_LONG).
set -eu
. "$UB_TOP/tests/guest/lib.sh"

perftest=$UB_TOP/build/tools/urma_perftest/urma_perftest
[[ -x $perftest ]] || ub_fail "$perftest is not built"
write_iters=32 send_iters=200 limit=240
if [[ -n ${UB_CHECK_LONG:-} ]]; then
	write_iters=4096 send_iters=10000 limit=5400
fi
tmp=$(mktemp -d)
cleanup() {
	ub_unload_stack || true
	ub_nspair_destroy
	rm -rf "$tmp"
}
trap cleanup EXIT

ub_nspair_create
ub_load_stack
ub_nspair_add_devs
# No force_wire: a device of another namespace is another host to udma
# (udma_local_peer() looks only in the sender's namespace), so the
# requests travel as UBoE packets on the veth.
ub_nspair_netem || ub_fail "tc netem on the veth"

# counters NS DEV: the transport's counters, on one line
counters() {
	local c line=$2
	for c in tx_packets rx_packets rtp_retransmits rtp_nak_tx rtp_nak_rx \
		rtp_ack_tx rtp_ack_rx rtp_out_of_seq rtp_dup_drops \
		rtp_ack_timeouts rx_queue_full; do
		ub_wire_cnt "$1" "$2" "$c"
		line+=" $c=$WIRE_CNT"
	done
	echo "$line"
}

# progress: the ACKs both devices received so far, in PROGRESS (a
# transfer that moves is ACKed; keepalives are not counted there)
progress() {
	ub_wire_cnt "$UB_NS_A" "$UB_DEV_A" rtp_ack_rx
	PROGRESS=$WIRE_CNT
	ub_wire_cnt "$UB_NS_B" "$UB_DEV_B" rtp_ack_rx
	PROGRESS+=" $WIRE_CNT"
}

# stalled: what a transfer that stopped moving waits for, and stop it
stalled() {
	echo "no ACK in 40 s: stalled"
	ub_dump_stall "$perftest" "$tmp"/*.client "$tmp"/*.server
	touch "$tmp/stalled"
	pkill -f "$perftest" || true
}

# wrs TEST: the client's last count of completed WRs, in WRS
wrs() {
	WRS=$(grep -o '[0-9]*/[0-9]* WRs' "$tmp/$1.client" 2> /dev/null |
	      tail -n 1) || WRS=
}

# run TEST SIZE ITERS: server in B, client in A, both with --check, a
# completion every 8 WRs (perftest gives up after 30 s without one; 100
# 64 KiB WRITEs can take longer through netem at the start); the
# client gets at most $limit s (the counters every 20 s meanwhile; the
# transport's state while it waits when the client's count of WRs has
# not moved for 20 s, once per stop; a transfer without an ACK for 40 s
# is stopped, with what it waits for)
run() {
	local t=$1 size=$2 iters=$3 port=21115 srv cli=0 start mon
	start=$(date +%s)
	(last='' still=0 n=0 wr_last='' wr_still=0 dumped=''
	while sleep 5; do
		wrs "$t"
		if [[ -n $WRS && $WRS == "$wr_last" ]]; then
			if ((++wr_still == 4)) && [[ -z $dumped ]]; then
				echo "no completion in 20 s ($WRS): the state while it waits"
				ub_dump_stall "$perftest" "$tmp/$t.client" "$tmp/$t.server"
				dumped=1
			fi
		else
			wr_still=0 dumped=''
		fi
		wr_last=$WRS
		((++n % 4 == 0)) || continue
		counters "$UB_NS_A" "$UB_DEV_A"
		counters "$UB_NS_B" "$UB_DEV_B"
		progress
		if [[ $PROGRESS == "$last" ]]; then
			((++still < 2)) || { stalled; break; }
		else
			still=0
		fi
		last=$PROGRESS
	done) &
	mon=$!
	ub_ns "$UB_NS_B" "$perftest" "$t" -d "$UB_DEV_B" -s "$size" \
		-n "$iters" -Q 8 -P $port --check > "$tmp/$t.server" 2>&1 &
	srv=$!
	sleep 1
	timeout $limit ip netns exec "$UB_NS_A" "$perftest" "$t" -d "$UB_DEV_A" \
		-s "$size" -n "$iters" -Q 8 -P $port --check -S "$UB_IP4_B" \
		> "$tmp/$t.client" 2>&1 || cli=$?
	kill $mon 2> /dev/null || true
	wait $mon 2> /dev/null || true
	[[ ! -e $tmp/stalled ]] || ub_fail "$t stalled (see above)"
	if ((cli != 0)); then
		# the server's TPs still stand: what the transfer waited for
		ub_dump_stall "$perftest" "$tmp/$t.client" "$tmp/$t.server"
		kill $srv 2> /dev/null || true
		"$UB_BUSYBOX" dmesg | tail -40
	fi
	wait $srv || ub_fail "$t server failed: $(cat "$tmp/$t.server")
client ($cli): $(cat "$tmp/$t.client")"
	((cli == 0)) || ub_fail "$t client failed ($cli): $(cat "$tmp/$t.client")"
	grep -i "check" "$tmp/$t.server" "$tmp/$t.client" || true
	echo "$t: $iters x $size B across netem in $(($(date +%s) - start)) s"
}

run write_bw 65536 $write_iters
# The SEND/RECV stream with the TPs paced (off by default: udma/uboe_rtp.c)
echo 200 > /sys/module/udma/parameters/uboe_pace_pct
run send_bw 4096 $send_iters
echo 0 > /sys/module/udma/parameters/uboe_pace_pct

recovered=0
for side in "$UB_NS_A $UB_DEV_A" "$UB_NS_B $UB_DEV_B"; do
	read -r ns dev <<< "$side"
	for c in tx_packets rx_packets rtp_retransmits rtp_dup_drops rtp_out_of_seq rtp_nak_tx \
		rtp_nak_rx rtp_ack_tx rtp_ack_rx rtp_out_of_window \
		rtp_ack_timeouts rx_queue_full rtp_paced; do
		ub_wire_cnt "$ns" "$dev" "$c"
		echo "$dev $c $WIRE_CNT"
		case $c in
		rtp_paced)
			# the client's TP sent the SENDs paced
			[[ $dev != "$UB_DEV_A" ]] || ((WIRE_CNT > 0)) ||
				ub_fail "$dev: its TP was never paced";;
		rtp_ack_timeouts)
			[[ $WIRE_CNT == 0 ]] || ub_fail "$dev: a TP failed";;
		tx_packets | rx_packets | rtp_ack_tx | rtp_ack_rx)
			((WIRE_CNT > 0)) || ub_fail "$dev: $c is 0";;
		rtp_retransmits | rtp_nak_tx | rtp_dup_drops)
			recovered=$((recovered + WIRE_CNT));;
		esac
	done
done
((recovered > 0)) || ub_fail "netem lost nothing: no NAK, retransmission or duplicate"
echo "WRITE and SEND/RECV arrived whole and verified through netem"
