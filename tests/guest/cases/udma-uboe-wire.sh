#!/bin/bash
# UBoE packet I/O between two network namespaces joined by a veth pair, one
# udma device on each end: every malformed datagram is dropped into its own
# counter of wire/, over IPv4 and IPv6 (tests/guest/uboe_wire.py); udma
# unloads with its sockets open in both namespaces; a namespace deleted
# while its device exists takes the device and its sockets with it.
set -eu
. "$UB_TOP/tests/guest/lib.sh"

admin=$UB_TOP/build/tools/urma_admin/urma_admin
udma_ko=$UB_KMOD/udma/udma.ko

cleanup() {
	ub_unload_stack || true
	ip -batch - <<'IP' 2>/dev/null || true
netns del uboeA
netns del uboeB
IP
}
trap cleanup EXIT

# One ip per namespace: every exec of ip costs seconds under the test kernel.
ip -batch - <<'IP'
netns add uboeA
netns add uboeB
link add vA type veth peer name vB
link set vA netns uboeA
link set vB netns uboeB
IP
ip -n uboeA -batch - <<'IP'
link set lo up
link set vA up
addr add 10.77.0.1/24 dev vA
addr add fd77::1/64 dev vA nodad
IP
ip -n uboeB -batch - <<'IP'
link set lo up
link set vB up
addr add 10.77.0.2/24 dev vB
addr add fd77::2/64 dev vB nodad
IP

ub_load_stack
python3 "$UB_TOP/tests/guest/uboe_wire.py" --admin "$admin"

# The initial namespace has no udma device, hence no UBoE socket.
while read -r _ local _; do
	[[ $local != *:12B8 ]] || ub_fail "a UDP socket on port 4792 in the initial namespace"
done < /proc/net/udp

echo "rmmod udma with UBoE sockets open in uboeA and uboeB"
ub_rmmod udma
[ ! -e /proc/net/udma_uboe ] || ub_fail "/proc/net/udma_uboe left behind"

echo "uboeB deleted while udmaB exists"
ub_insmod "$udma_ko"
ip netns exec uboeB "$admin" dev add udmaB netdev vB
ip netns exec uboeB /bin/busybox grep -q 12B8 /proc/net/udp6 ||
	ub_fail "no IPv6 UBoE socket in uboeB"
ip netns del uboeB
# The namespace goes in the background (cleanup_net); vA, vB's peer, with it.
for ((i = 0; i < 300; i++)); do
	ip netns exec uboeA /bin/busybox grep -q vA /proc/net/dev || break
	ub_sleep 0.1
done
ip netns exec uboeA /bin/busybox grep -q vA /proc/net/dev &&
	ub_fail "vA still there 30 s after uboeB was deleted"
ub_rmmod udma
ub_unload_stack
echo "UBoE sockets come and go with their namespaces"
