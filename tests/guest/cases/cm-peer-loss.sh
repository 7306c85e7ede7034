#!/bin/bash
# Peer loss across two network namespaces over UBoE: the KUnit suite
# ubcore_cm_peer (ubcore/kunit/cm_peer_ktest.c) on a namespace pair that
# the initial namespace routes between (vA - vA0 | vB0 - vB), so that B's
# namespace can be deleted while A's netdev stays. The suite removes and
# re-adds udmaB itself; what a kernel module cannot do it asks for with a
# line "ubcore_cm_peer: ask: WHAT" in the kernel log, which this script
# does while the module loads:
#   netem on      udmaB's netdev drops all it sends (tc netem loss 100%),
#                 its link up: a silent peer
#   netem off     that qdisc removed, once B has reached A again (ping)
#   delete netns  B's namespace deleted
# Then: the suite's 4 cases passed, the survivor's keepalive counters in
# sysfs cm/stats are the suite's, and nothing is left of B.
set -eu
. "$UB_TOP/tests/guest/lib.sh"

ko=$UB_KMOD/ubcore/ubcore_cm_peer.ko
NS_A=cmpeerA NS_B=cmpeerB
IP_A=10.77.1.1 GW_A=10.77.1.254 IP_B=10.77.2.1 GW_B=10.77.2.254
fwd=/proc/sys/net/ipv4/ip_forward
read -r fwd_was < "$fwd"
cleanup() {
	ub_unload_stack || true
	ip -batch - <<-IP 2>/dev/null || true
	netns del $NS_A
	netns del $NS_B
	IP
	echo "$fwd_was" > "$fwd"
}
trap cleanup EXIT

[[ -e $ko ]] || ub_fail "no $ko"
ip -batch - <<-IP
netns add $NS_A
netns add $NS_B
link add vA type veth peer name vA0
link add vB type veth peer name vB0
link set vA netns $NS_A
link set vB netns $NS_B
link set vA0 up
link set vB0 up
addr add $GW_A/24 dev vA0
addr add $GW_B/24 dev vB0
IP
ip -n "$NS_A" -batch - <<-IP
link set lo up
link set vA up
addr add $IP_A/24 dev vA
addr add fd77:1::1/64 dev vA nodad
route add default via $GW_A
IP
ip -n "$NS_B" -batch - <<-IP
link set lo up
link set vB up
addr add $IP_B/24 dev vB
addr add fd77:2::1/64 dev vB nodad
route add default via $GW_B
IP
echo 1 > "$fwd"
ub_load_stack
ub_nspair_add_dev "$NS_A" udmaA vA "$IP_A" fd77:1::1
ub_nspair_add_dev "$NS_B" udmaB vB "$IP_B" fd77:2::1

# do WHAT: what the suite asked for
do_ask() {
	echo "asked: $1"
	case $1 in
	"netem on") tc -n "$NS_B" qdisc add dev vB root netem loss 100% ;;
	"netem off")
		# B's path made whole before the suite sees the qdisc go: a
		# neighbour entry left failed by the silence would hold B's
		# first answers back for a second of ARP retries, past the
		# probe they answer (a drops a late KEEPALIVE_REJ)
		tc -n "$NS_B" qdisc change dev vB root netem loss 0%
		ub_ns "$NS_B" "$UB_BUSYBOX" ping -c 1 -W 5 "$IP_A" > /dev/null ||
			ub_fail "B cannot reach $IP_A after the silence"
		tc -n "$NS_B" qdisc del dev vB root
		;;
	"delete netns") ip netns del "$NS_B" ;;
	*) ub_fail "unknown request '$1'" ;;
	esac
}

ub_dmesg_mark
ub_insmod "$ko" ip_a="$IP_A" ip_b="$IP_B" &
pid=$!
done_n=0
while :; do
	running=0
	kill -0 "$pid" 2> /dev/null && running=1
	asks=()
	while read -r line; do
		[[ $line == *"ubcore_cm_peer: ask: "* ]] && asks+=("${line##*ask: }")
	done < <(ub_dmesg_since)
	for ((i = done_n; i < ${#asks[@]}; i++)); do
		do_ask "${asks[i]}"
	done
	done_n=${#asks[@]}
	((running)) || break
	ub_sleep 0.3
done
wait "$pid" || ub_fail "insmod $ko failed"
ub_rmmod ubcore_cm_peer
log=$(ub_dmesg_since)
echo "$log" | "$UB_BUSYBOX" grep -E "ubcore_cm_peer|    (not )?ok |# .*ms after" || true
[[ $log == *"# ubcore_cm_peer: pass:4 fail:0 skip:0 total:4"* ]] ||
	ub_fail "ubcore_cm_peer did not pass its 4 cases"
((done_n == 5)) || ub_fail "the suite asked $done_n times, want 5"

# The survivor's keepalive counters over the run (a's: 2 TPs timed out in
# silent_peer_detected, 2 refused in stale_tpn_refused, 2 probes refused
# for b there; peer_netns_deleted adds what its detection took).
stats=$(ub_ns "$NS_A" "$UB_BUSYBOX" cat "$UB_CLASS/udmaA/cm/stats")
echo "$stats"
declare -A st
while read -r k v; do st[$k]=$v; done <<< "$stats"
((st[keepalive_refused] == 2)) ||
	ub_fail "udmaA keepalive_refused ${st[keepalive_refused]}, want 2"
((st[keepalive_rejects_sent] == 2)) ||
	ub_fail "udmaA keepalive_rejects_sent ${st[keepalive_rejects_sent]}, want 2"
((st[keepalive_timeouts] >= 2 && st[keepalive_timeouts] <= 4)) ||
	ub_fail "udmaA keepalive_timeouts ${st[keepalive_timeouts]}, want 2 to 4"
[[ $(ub_ns "$NS_A" "$UB_BUSYBOX" cat "$UB_CLASS/udmaA/cm/tp") == "" ]] ||
	ub_fail "udmaA still has TPs"
echo "peer loss: device, silence, stale TPN and namespace, over UBoE"
