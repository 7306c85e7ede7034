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

udma_ko=$UB_KMOD/udma/udma.ko

# wait_gone DEV: poll up to 30 s until DEV has left the class.
wait_gone() {
	local i
	for ((i = 0; i < 300; i++)); do
		[ -e "$UB_CLASS/$1" ] || return 0
		ub_sleep 0.1
	done
	ub_fail "$1 still there after 30 s"
}

ub_insmod "$UB_KMOD/ubcore/ubcore.ko"

echo "veth0 deleted"
ip link add veth0 type veth peer name veth1
ub_insmod "$udma_ko" netdev=lo,veth0
expect_devs "udma0 udma1"
expect_attr udma0 netdev lo
expect_attr udma1 netdev veth0
ip link del veth0
wait_gone udma1
expect_devs "udma0"
expect_attr udma0 netdev lo
ub_rmmod udma
expect_devs ""

echo "veth0 moved to another network namespace"
# One ip for both: every exec of ip costs seconds under the test kernel.
ip -batch - <<'IP'
link add veth0 type veth peer name veth1
netns add udmatest
IP
ub_insmod "$udma_ko" netdev=veth0,lo
expect_devs "udma0 udma1"
expect_attr udma0 netdev veth0
ip link set veth0 netns udmatest
wait_gone udma0
expect_devs "udma1"
expect_attr udma1 netdev lo
ip netns del udmatest
ub_rmmod udma
expect_devs ""

# rmmod udma races the deletion of veth0: "now" starts rmmod at once, before
# the netdev goes (ip alone takes seconds to start under the test kernel);
# the delays count from veth0 leaving sysfs, when udma has been told and its
# reaper work runs, from racing rmmod to having finished before it.
for delay in now 0 0.1 0.5; do
	if [ "$delay" = now ]; then
		echo "veth0 deleted, rmmod udma at once"
	else
		echo "veth0 deleted, rmmod udma $delay s after it left sysfs"
	fi
	ip link add veth0 type veth peer name veth1
	ub_insmod "$udma_ko" netdev=veth0,lo
	expect_devs "udma0 udma1"
	ip link del veth0 &
	del=$!
	if [ "$delay" != now ]; then
		# up to 30 s
		for ((i = 0; i < 3000; i++)); do
			[ -e /sys/class/net/veth0 ] || break
			ub_sleep 0.01
		done
		ub_sleep "$delay"
	fi
	ub_rmmod udma
	wait $del
	expect_devs ""
	[ ! -e /sys/class/net/veth0 ] || ub_fail "veth0 still there"
done

ub_unload_stack
[ ! -e "$UB_CLASS" ] || ub_fail "$UB_CLASS left behind"
echo "udma follows its netdevs"
