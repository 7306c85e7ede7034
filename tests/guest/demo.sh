#!/bin/bash
# In-guest part of "make demo": what a new user of the stack sees on the
# stock Debian kernel. Runs from the repo top with UB_KMOD set.
set -eu
export UB_TOP=$PWD
. "$UB_TOP/tests/guest/lib.sh"

echo "== kernel: $(uname -r)"
ub_load_stack lo
echo "== modules loaded (udma bound to lo)"
lsmod | grep -E '^(Module|ubcore|uburma|udma)'
ub_wait_eid
echo "== /sys/class/ubcore"
ls /sys/class/ubcore/
echo "abi_version: $(cat /sys/class/ubcore/abi_version)"
echo "udma0: netdev $(cat /sys/class/ubcore/udma0/netdev)," \
	"port $(cat /sys/class/ubcore/udma0/port0/state)," \
	"eid_mode $(cat /sys/class/ubcore/udma0/eid_mode)"
echo "== through liburma: build/examples/urma_devices"
"$UB_TOP/build/examples/urma_devices"
echo "== kernel log"
dmesg | grep -E 'ubcore|uburma|udma' || true
ub_unload_stack
echo "== unloaded: $( [ -e /sys/class/ubcore ] && echo no || echo yes)"
