#!/bin/bash
# IPoURMA between two network namespaces joined by a veth pair, one udma
# device in each (the engine's loopback carrier delivers between them):
# each device gets an ipourma0 netdev in its namespace whose address is the
# device's EID (static EIDs fd99::a and fd99::b, so that the /64 routes to
# ipourma0 alone); ping -6 both ways (small, 4094-byte and fragmented
# 8000-byte packets) with the counters checked exactly; MTU 68 and 4094
# taken, 67 and 4095 refused; user addresses refused; an EID added and
# removed changes the addresses; stats read and reset; ipourma unloaded
# under a ping flood; a device removed takes its netdev.
set -eu
. "$UB_TOP/tests/guest/lib.sh"

admin=$UB_TOP/build/tools/urma_admin/urma_admin
bb=$UB_BUSYBOX
flood=

cleanup() {
	[[ -z $flood ]] || kill "$flood" 2>/dev/null || true
	ub_unload_stack || true
	ip -batch - <<'IP' 2>/dev/null || true
netns del ipoA
netns del ipoB
IP
}
trap cleanup EXIT

# Helpers run inside a namespace (by in_ns), where ip netns exec mounted
# that namespace's sysfs.
NET=/sys/class/net/ipourma0

# stat NAME: the counter NAME of query_ipourma_stats, in STAT.
stat() {
	local name value
	STAT=
	while read -r name value; do
		[[ $name == "$1:" ]] && STAT=$value
	done < "$NET/query_ipourma_stats"
	[[ -n $STAT ]] || ub_fail "no $1 in query_ipourma_stats"
}

# expect_stats "NAME=VALUE...": counters exactly these.
expect_stats() {
	local kv
	for kv in $1; do
		stat "${kv%%=*}"
		[[ $STAT == "${kv#*=}" ]] ||
			ub_fail "$(hostname) ${kv%%=*} is $STAT, want ${kv#*=}"
	done
}

# has_addr HEX: whether ipourma0 holds the address (if_inet6 spelling).
has_addr() {
	local a rest
	while read -r a _ _ _ _ rest; do
		[[ $a == "$1" && $rest == ipourma0 ]] && return 0
	done < /proc/net/if_inet6
	return 1
}

# wait_addr HEX [gone]: until ipourma0 has (or has no more) the address.
wait_addr() {
	local i
	for ((i = 0; i < 100; i++)); do
		if [[ ${2:-} == gone ]]; then
			has_addr "$1" || return 0
		else
			has_addr "$1" && return 0
		fi
		ub_sleep 0.1
	done
	ub_fail "ipourma0: address $1 ${2:-not there} after 10 s"
}

reset_stats() {
	echo "reset all status" > "$NET/reset_ipourma_stats"
}

# pings DST COUNT SIZE: COUNT pings of SIZE bytes from our EID, all answered.
pings() {
	local out
	out=$("$bb" ping -6 -q -c "$2" -s "$3" -i 0.2 -W 10 -I "$SRC" "$1" 2>&1) ||
		{ echo "$out"; ub_fail "ping $1 -s $3 failed"; }
	[[ $out == *"$2 packets received"* ]] ||
		{ echo "$out"; ub_fail "ping $1 -s $3: not all answered"; }
}

# in_ns NS SRC COMMANDS: run COMMANDS in namespace NS with these helpers,
# with the sysfs of NS remounted writable (ip netns exec mounts it read-only
# when / is read-only, as the guest's is).
in_ns() {
	ip netns exec "$1" bash -c ". \"\$UB_TOP/tests/guest/lib.sh\"; \
\"$bb\" mount -o remount,rw /sys || ub_fail 'remount sysfs rw'; NET=$NET; bb=$bb; SRC=$2; $(declare -f stat expect_stats has_addr wait_addr \
reset_stats pings); hostname() { echo $1; }; set -e; $3"
}

HEX_A=fd99000000000000000000000000000a
HEX_B=fd99000000000000000000000000000b
HEX_A2=fd99000000000000000000000001000a

ip -batch - <<'IP'
netns add ipoA
netns add ipoB
link add vA type veth peer name vB
link set vA netns ipoA
link set vB netns ipoB
IP
ip -n ipoA -batch - <<'IP'
link set lo up
link set vA up
addr add fd77::1/64 dev vA nodad
IP
ip -n ipoB -batch - <<'IP'
link set lo up
link set vB up
addr add fd77::2/64 dev vB nodad
IP

ub_load_stack
ub_insmod "$UB_KMOD/ipourma/ipourma.ko"

echo "devices, static EIDs, ipourma0 up in both namespaces"
for s in A:a B:b; do
	n=${s%:*} e=${s#*:}
	ip netns exec "ipo$n" bash -c "set -e
$admin dev add udma$n netdev v$n
$admin eid set udma$n mode static
$admin eid add udma$n 0 fd99::$e"
done
in_ns ipoA fd99::a "
[[ \$(<$NET/mtu) == 4094 ]] || ub_fail \"default MTU \$(<$NET/mtu), want 4094\"
[[ \$(<$NET/ubdev) == udmaA ]] || ub_fail 'ubdev is not udmaA'
flags=\$(<$NET/flags)
(( flags & 0x80 )) || ub_fail 'no IFF_NOARP'
(( !(flags & 0x1002) )) || ub_fail 'IFF_BROADCAST or IFF_MULTICAST set'
ub_link_up ipourma0
wait_addr $HEX_A"
in_ns ipoB fd99::b "ub_link_up ipourma0; wait_addr $HEX_B"

echo "ping A -> B: 3 small, 2 of 4094 bytes, 2 fragmented of 8000 bytes"
in_ns ipoB fd99::b "reset_stats; expect_stats 'tx_packets=0 rx_packets=0'"
in_ns ipoA fd99::a "
reset_stats
pings fd99::b 3 56
expect_stats 'tx_packets=3 rx_packets=3 tx_bytes=312 rx_bytes=312 peer_imports=1'
reset_stats
# 4094-byte IPv6 packets: 40 + 8 + 4046
pings fd99::b 2 4046
expect_stats 'tx_packets=2 rx_packets=2 tx_bytes=8188 rx_bytes=8188'
reset_stats
# 8008 bytes of ICMPv6 in fragments of 4040 + 3968 bytes, each behind
# 40 + 8 bytes of headers: 4088 + 4016 bytes a ping
pings fd99::b 2 8000
expect_stats 'tx_packets=4 rx_packets=4 tx_bytes=16208 rx_bytes=16208'
expect_stats 'tx_dropped_peer=0 tx_completion_errors=0 rx_bad_header=0'"
in_ns ipoB fd99::b "
expect_stats 'rx_packets=9 tx_packets=9 peer_imports=1 rx_bad_header=0'
echo ping B -> A
reset_stats
pings fd99::a 3 56
expect_stats 'tx_packets=3 rx_packets=3 peer_imports=0'"

echo "MTU: 68 and 4094 taken, 67 and 4095 refused; pings after"
in_ns ipoA fd99::a "
for m in 67 4095; do
	if echo \$m > $NET/mtu 2>/dev/null; then ub_fail \"MTU \$m taken\"; fi
	[[ \$(<$NET/mtu) == 4094 ]] || ub_fail \"MTU \$(<$NET/mtu) after \$m\"
done
echo 68 > $NET/mtu
[[ \$(<$NET/mtu) == 68 ]] || ub_fail 'MTU 68 not taken'
echo 4094 > $NET/mtu
[[ \$(<$NET/mtu) == 4094 ]] || ub_fail 'MTU 4094 not taken'
# IPv6 stopped at 68 and dropped the address; the sync puts it back
wait_addr $HEX_A
pings fd99::b 2 4046"

echo "addresses: the user cannot set them"
if ip -n ipoA addr add fd98::1/64 dev ipourma0 2>/dev/null; then
	ub_fail "a user IPv6 address was taken"
fi
if ip -n ipoA addr add 10.98.0.1/24 dev ipourma0 2>/dev/null; then
	ub_fail "an IPv4 address was taken"
fi
"$bb" dmesg | grep -q "refused address fd98::1" || ub_fail "no log line for the refused address"

echo "EID added and removed: the address follows"
ip netns exec ipoA "$admin" eid add udmaA 1 fd99::1:a
in_ns ipoA fd99::a "wait_addr $HEX_A2"
ip netns exec ipoA "$admin" eid del udmaA 1
in_ns ipoA fd99::a "wait_addr $HEX_A2 gone; has_addr $HEX_A || ub_fail 'fd99::a gone'"

echo "stats: a bad reset is refused, a good one clears"
in_ns ipoA fd99::a "
if echo 'reset some' > $NET/reset_ipourma_stats 2>/dev/null; then ub_fail 'bad reset taken'; fi
reset_stats
# (MLD reports may be dropped meanwhile: multicast is not carried)
while read -r name value; do
	[[ \$name == tx_dropped_multicast: || \$value == 0 ]] || ub_fail \"\$name is \$value after the reset\"
done < $NET/query_ipourma_stats"

echo "unload ipourma under a ping flood"
ip netns exec ipoA "$bb" ping -6 -q -i 0.01 -s 1000 -I fd99::a fd99::b > /dev/null 2>&1 &
flood=$!
ub_sleep 3
ub_rmmod ipourma
kill "$flood" 2>/dev/null || true
wait "$flood" 2>/dev/null || true
flood=
[[ ! -e /sys/module/ipourma ]] || ub_fail "ipourma still loaded"

echo "a device removed takes its netdev"
ub_insmod "$UB_KMOD/ipourma/ipourma.ko"
in_ns ipoB fd99::b "wait_addr $HEX_B"
ip netns exec ipoB "$admin" dev del udmaB
# (the netdev is unregistered by a work item right after the device went)
in_ns ipoB fd99::b "for ((i = 0; i < 100; i++)); do [[ -e $NET ]] || break; ub_sleep 0.1; done
[[ ! -e $NET ]] || ub_fail 'ipourma0 left 10 s after udmaB went'"
in_ns ipoA fd99::a "[[ -e $NET ]] || ub_fail 'ipourma0 of udmaA gone'"
ub_rmmod ipourma
ub_unload_stack
echo "IPoURMA pings between the namespaces; it unloads under traffic"
