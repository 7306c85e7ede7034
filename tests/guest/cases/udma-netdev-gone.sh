#!/bin/bash
# A udma device goes away with its netdev (deleted, or moved to another
# network namespace) while the other devices stay; deleting a netdev while
# udma unloads leaves no device, leak or warning.
set -eu
. "$UB_TOP/tests/guest/lib.sh"

cleanup() {
	ub_unload_stack || true
	ip link del veth0 2>/dev/null || true
	ip netns del udmatest 2>/dev/null || true
}
trap cleanup EXIT

class=/sys/class/ubcore
udma_ko=$UB_KMOD/udma/udma.ko

ub_devs() {
	find "$class" -mindepth 1 -maxdepth 1 -type l -printf '%f\n' | sort
}
expect_devs() {
	local have
	have=$(ub_devs | xargs)
	[ "$have" = "$1" ] || ub_fail "devices are '$have', want '$1'"
}
expect_attr() {
	local v
	v=$(cat "$class/$1/$2")
	[ "$v" = "$3" ] || ub_fail "$1/$2 is '$v', want '$3'"
}
# wait_gone DEV: poll up to 10 s until DEV has left the class.
wait_gone() {
	for _ in $(seq 100); do
		[ -e "$class/$1" ] || return 0
		sleep 0.1
	done
	ub_fail "$1 still there after 10 s"
}

insmod "$UB_KMOD/ubcore/ubcore.ko"

echo "veth0 deleted"
ip link add veth0 type veth peer name veth1
insmod "$udma_ko" netdev=lo,veth0
expect_devs "udma0 udma1"
expect_attr udma0 netdev lo
expect_attr udma1 netdev veth0
ip link del veth0
wait_gone udma1
expect_devs "udma0"
expect_attr udma0 netdev lo
rmmod udma
expect_devs ""

echo "veth0 moved to another network namespace"
ip link add veth0 type veth peer name veth1
ip netns add udmatest
insmod "$udma_ko" netdev=veth0,lo
expect_devs "udma0 udma1"
expect_attr udma0 netdev veth0
ip link set veth0 netns udmatest
wait_gone udma0
expect_devs "udma1"
expect_attr udma1 netdev lo
ip netns del udmatest
rmmod udma
expect_devs ""

# The delay between the two moves the race: from rmmod removing the device
# before the netdev goes, to the reaper work running while rmmod starts.
for delay in 0 0.1 0.5; do
	echo "veth0 deleted, rmmod udma after ${delay} s"
	ip link add veth0 type veth peer name veth1
	insmod "$udma_ko" netdev=veth0,lo
	expect_devs "udma0 udma1"
	ip link del veth0 &
	del=$!
	sleep "$delay"
	rmmod udma
	wait $del
	expect_devs ""
	! ip link show veth0 2>/dev/null || ub_fail "veth0 still there"
done

ub_unload_stack
[ ! -e "$class" ] || ub_fail "$class left behind"
echo "udma follows its netdevs"
