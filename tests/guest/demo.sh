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

. "$UB_TOP/tests/guest/demo-exchange.sh"
demo_local_exchange "$UB_TOP/build/tools/urma_perftest/urma_perftest"

# The same between two hosts: the namespace pair of the test cases
# (lib.sh). A device of another namespace is another host to udma, so
# every request and response crosses the veth as a UBoE packet (no
# force_wire needed); the wire counters show it.
trap ub_nspair_destroy EXIT
pair_start=$SECONDS
echo "== two hosts: namespaces $UB_NS_A and $UB_NS_B joined by a veth" \
	"($UB_VETH_A $UB_IP4_A, $UB_VETH_B $UB_IP4_B), $UB_DEV_A on $UB_VETH_A," \
	"$UB_DEV_B on $UB_VETH_B"
ub_nspair_create
ub_nspair_add_devs
echo "== a URMA exchange between the two hosts: server on $UB_DEV_B in" \
	"$UB_NS_B, client on $UB_DEV_A in $UB_NS_A, over UBoE packets on the veth"
# (ip netns exec, not lib.sh's ub_ns: a function in the background would be
# a subshell, and $! not perftest's process.)
DEMO_SERVER=(ip netns exec "$UB_NS_B") DEMO_CLIENT=(ip netns exec "$UB_NS_A")
DEMO_SERVER_OPTS=(-d "$UB_DEV_B") DEMO_CLIENT_OPTS=(-d "$UB_DEV_A" -S "$UB_IP4_B")
# Small counts: at the veth's MTU of 1500 a packet carries 1 KiB, and the
# wire path under TCG moves about 10 MB/s. 128 WRs at least: perftest's
# window (-T), which it lowers to -n with a warning otherwise.
demo_op "WRITE $UB_DEV_A -> $UB_DEV_B" write_bw 65536 128
demo_op "READ $UB_DEV_A <- $UB_DEV_B" read_bw 65536 128
demo_op "SEND/RECV $UB_DEV_A -> $UB_DEV_B" send_bw 4096 256
demo_op "atomic (fetch-and-add, 8 bytes) on $UB_DEV_B" atomic_bw 8 256 -A faa
# What went over the veth, as urma_admin shows it; each side must have
# received at least the 8 MiB the other WROTE or sent back for READs.
for side in "$UB_NS_A $UB_DEV_A" "$UB_NS_B $UB_DEV_B"; do
	read -r ns dev <<< "$side"
	ub_ns "$ns" "$UB_ADMIN" show dev "$dev" --stats |
		grep -E 'wire:|(packets|bytes|errors):'
	ub_wire_cnt "$ns" "$dev" rx_bytes
	((WIRE_CNT >= 128 * 65536)) ||
		{ echo "FAIL: $dev received $WIRE_CNT bytes over the veth"; exit 1; }
done
ub_nspair_destroy
trap - EXIT
echo "== the namespaces are gone ($(ip netns list | wc -l) left); the two" \
	"hosts' part took $((SECONDS - pair_start)) s"

echo "== kernel log"
dmesg | grep -E 'ubcore|uburma|udma' || true
ub_unload_stack
echo "== unloaded: $( [ -e /sys/class/ubcore ] && echo no || echo yes)"
