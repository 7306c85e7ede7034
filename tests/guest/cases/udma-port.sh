#!/bin/bash
# A udma device's port follows its netdev: ACTIVE with the carrier up, DOWN
# without, and the active MTU is the largest UB MTU that fits in the netdev's
# MTU after the 96 bytes of UBoE headers (DOWN below 256).
set -eu
. "$UB_TOP/tests/guest/lib.sh"

cleanup() {
	ub_unload_stack || true
	ip link del veth0 2>/dev/null || true
}
trap cleanup EXIT

# expect_port DEV STATE MTU: poll up to 30 s (ubcore syncs in a work item).
expect_port() {
	local i s m
	for ((i = 0; i < 300; i++)); do
		read -r s < "$UB_CLASS/$1/port0/state"
		read -r m < "$UB_CLASS/$1/port0/active_mtu"
		[ "$s $m" != "$2 $3" ] || return 0
		ub_sleep 0.1
	done
	ub_fail "$1: port is '$s $m', want '$2 $3'"
}

ip link add veth0 type veth peer name veth1
ub_insmod "$UB_KMOD/ubcore/ubcore.ko"
ub_insmod "$UB_KMOD/udma/udma.ko" netdev=lo,veth0

echo "lo: up, MTU 65536"
expect_port udma0 ACTIVE 8192

# The links change through sysfs (lib.sh): the same kernel calls as ip.
echo "veth0: down"
expect_port udma1 DOWN 1024
ub_link_up veth0
echo "veth0: up, peer down (no carrier)"
expect_port udma1 DOWN 1024
ub_link_up veth1
echo "veth0: up with carrier, MTU 1500"
expect_port udma1 ACTIVE 1024

# netdev MTU -> port state and UB MTU
for t in "2144 ACTIVE 2048" "2143 ACTIVE 1024" "9000 ACTIVE 8192" \
	 "352 ACTIVE 256" "351 DOWN 256" "1500 ACTIVE 1024"; do
	read -r mtu state ub_mtu <<< "$t"
	echo "veth0: MTU $mtu"
	ub_link_mtu veth0 "$mtu"
	expect_port udma1 "$state" "$ub_mtu"
done

echo "veth1 down: veth0 loses its carrier"
ub_link_down veth1
expect_port udma1 DOWN 1024
expect_port udma0 ACTIVE 8192

ub_unload_stack
echo "ports follow their netdevs"
