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

# demo_op TITLE COMMAND SIZE ITERS: the same urma_perftest command as a
# server process and a client process on this host (TCP on lo for the
# exchange of EIDs, segments and jetty IDs, then URMA through udma0), with
# --check: the client's table says what moved and how fast.
demo_op() {
	local title=$1 cmd=$2 size=$3 iters=$4 srv rc=0
	echo "== $title: $iters x $size bytes = $((iters * size / 1024)) KiB" \
		"($cmd, two processes, the data checked)"
	"$perftest" "$cmd" -d udma0 -s "$size" -n "$iters" --check > /tmp/server.log 2>&1 &
	srv=$!
	"$perftest" "$cmd" -d udma0 -s "$size" -n "$iters" --check -S 127.0.0.1 || rc=$?
	wait $srv || rc=$?
	[ $rc -eq 0 ] || { cat /tmp/server.log; echo "FAIL: $cmd"; exit 1; }
}
perftest=$UB_TOP/build/tools/urma_perftest/urma_perftest
echo "== a URMA exchange between two processes on udma0 (build/tools/urma_perftest)"
demo_op "WRITE" write_bw 65536 2000
demo_op "READ" read_bw 65536 2000
demo_op "SEND/RECV" send_bw 4096 2000
demo_op "atomic (compare-and-swap, 8 bytes)" atomic_lat 8 1000

echo "== kernel log"
dmesg | grep -E 'ubcore|uburma|udma' || true
ub_unload_stack
echo "== unloaded: $( [ -e /sys/class/ubcore ] && echo no || echo yes)"
