#!/bin/bash
# udma binds one device to each netdev named by its "netdev" parameter, and
# none without it; a load that names an unknown netdev, or one netdev twice,
# fails and leaves nothing behind.
set -eu
. "$UB_TOP/tests/guest/lib.sh"
trap 'ub_unload_stack || true' EXIT

udma_ko=$UB_KMOD/udma/udma.ko

# expect_udma0_on_lo: udma0 is the only device, bound to lo, with udma's
# attributes.
expect_udma0_on_lo() {
	expect_devs "udma0"
	expect_attr udma0 driver_name udma
	expect_attr udma0 netdev lo
	expect_attr udma0 max_jfs_sge 12
	expect_attr udma0 max_jfs_rsge 1
	expect_attr udma0 atomic_feature 0x7f
	expect_attr udma0 trans_mode 0x7
	expect_attr udma0 reserved_jetty_id_max 1023
	expect_attr udma0 max_jetty_grp 1024
	expect_attr udma0 max_jetty_in_jetty_grp 32
}

ub_insmod "$UB_KMOD/ubcore/ubcore.ko"

echo "no parameter: no device"
ub_insmod "$udma_ko"
expect_devs ""
ub_rmmod udma

echo "netdev=lo"
ub_insmod "$udma_ko" netdev=lo
expect_udma0_on_lo
ub_rmmod udma
expect_devs ""

# Also the second load of a round: the same device again after an unload.
echo "empty names are skipped: netdev=lo,"
ub_insmod "$udma_ko" netdev=lo,
expect_udma0_on_lo
ub_rmmod udma
expect_devs ""

# expect_log_since MARK TEXT: the kernel log has TEXT after the line MARK
# written to /dev/kmsg (busybox dmesg: one static exec, not dmesg|sed|grep).
expect_log_since() {
	local log
	log=$("$UB_BUSYBOX" dmesg -s $((1 << 20)))
	log=${log##*"$1"}
	[[ $log == *"$2"* ]]
}

for bad in nosuchdev lo,nosuchdev lo,lo; do
	echo "netdev=$bad must fail"
	mark="udma-bind: netdev=$bad"
	echo "$mark" > /dev/kmsg
	if ub_insmod "$udma_ko" "netdev=$bad"; then
		ub_fail "netdev=$bad loaded"
	fi
	! ub_module_loaded udma || ub_fail "netdev=$bad: udma still loaded"
	expect_devs ""
	case $bad in
	*nosuchdev)
		expect_log_since "$mark" 'udma: netdev nosuchdev not found' ||
			ub_fail "netdev=$bad: no error naming nosuchdev" ;;
	lo,lo)
		expect_log_since "$mark" 'udma: netdev lo already has udma device udma0' ||
			ub_fail "netdev=$bad: no error naming lo" ;;
	esac
done

ub_unload_stack
[ ! -e "$UB_CLASS" ] || ub_fail "$UB_CLASS left behind"
echo "udma binds and unbinds cleanly"
