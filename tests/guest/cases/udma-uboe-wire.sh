#!/bin/bash
# UBoE packet I/O between two network namespaces joined by a veth pair, one
# udma device on each end (lib.sh's namespace pair): every malformed
# datagram is dropped into its own counter of wire/, over IPv4 and IPv6 (tests/guest/uboe_wire.py); udma
# unloads with its sockets open in both namespaces; a namespace deleted
# while its device exists takes the device and its sockets with it.
set -eu
. "$UB_TOP/tests/guest/lib.sh"

udma_ko=$UB_KMOD/udma/udma.ko

cleanup() {
	ub_unload_stack || true
	ub_nspair_destroy
}
trap cleanup EXIT

ub_nspair_create
ub_load_stack
ub_nspair_add_devs
python3 "$UB_TOP/tests/guest/uboe_wire.py"

# The initial namespace has no udma device, hence no UBoE socket.
while read -r _ local _; do
	[[ $local != *:12B8 ]] || ub_fail "a UDP socket on port 4792 in the initial namespace"
done < /proc/net/udp

echo "rmmod udma with UBoE sockets open in uboeA and uboeB"
ub_rmmod udma
[ ! -e /proc/net/udma_uboe ] || ub_fail "/proc/net/udma_uboe left behind"

echo "uboeB deleted while udmaB exists"
ub_insmod "$udma_ko"
ub_ns uboeB "$UB_ADMIN" dev add udmaB netdev vB
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
