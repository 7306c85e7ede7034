#!/bin/bash
# udma binds one device to each netdev named by its "netdev" parameter, and
# none without it; a load that names an unknown netdev, or one netdev twice,
# fails and leaves nothing behind.
set -eu
. "$UB_TOP/tests/guest/lib.sh"
trap 'ub_unload_stack || true' EXIT

class=/sys/class/ubcore
udma_ko=$UB_KMOD/udma/udma.ko

# The UB devices, one name a line.
ub_devs() {
	find "$class" -mindepth 1 -maxdepth 1 -type l -printf '%f\n' | sort
}
# expect_devs "NAME..."
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
udma_loaded() {
	grep -q '^udma ' /proc/modules
}

insmod "$UB_KMOD/ubcore/ubcore.ko"

echo "no parameter: no device"
insmod "$udma_ko"
expect_devs ""
rmmod udma

for i in 1 2; do
	echo "round $i: netdev=lo"
	insmod "$udma_ko" netdev=lo
	expect_devs "udma0"
	expect_attr udma0 driver_name udma
	expect_attr udma0 netdev lo
	expect_attr udma0 max_jfs_sge 12
	expect_attr udma0 max_jfs_rsge 1
	expect_attr udma0 atomic_feature 0x3f
	expect_attr udma0 trans_mode 0x7
	expect_attr udma0 reserved_jetty_id_max 1023
	rmmod udma
	expect_devs ""
done

echo "empty names are skipped: netdev=lo,"
insmod "$udma_ko" netdev=lo,
expect_devs "udma0"
rmmod udma

# dmesg_since MARK: the kernel log after the line MARK written to /dev/kmsg.
dmesg_since() {
	dmesg | sed -n "/$1\$/,\$p"
}

for bad in nosuchdev lo,nosuchdev lo,lo; do
	echo "netdev=$bad must fail"
	mark="udma-bind: netdev=$bad"
	echo "$mark" > /dev/kmsg
	if insmod "$udma_ko" "netdev=$bad"; then
		ub_fail "netdev=$bad loaded"
	fi
	! udma_loaded || ub_fail "netdev=$bad: udma still loaded"
	expect_devs ""
	case $bad in
	*nosuchdev)
		dmesg_since "$mark" | grep -q 'udma: netdev nosuchdev not found' ||
			ub_fail "netdev=$bad: no error naming nosuchdev" ;;
	lo,lo)
		dmesg_since "$mark" | grep -q 'udma: netdev lo already has udma device udma0' ||
			ub_fail "netdev=$bad: no error naming lo" ;;
	esac
done

ub_unload_stack
[ ! -e "$class" ] || ub_fail "$class left behind"
echo "udma binds and unbinds cleanly"
