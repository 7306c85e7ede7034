#!/bin/bash
# Logical devices in network namespaces (user guide 6.3.1, README
# "Containers"): the manual mode's commands and each of their refusals,
# EIDs given to namespaces, what another namespace sees (sysfs, netlink,
# /dev/uburma), a URMA exchange between two namespaces through their
# logical devices of one physical device, a logical device deleted under a
# live process, "dev set ns" there and back, the automatic mode
# (dev_sharing) with "ip netns add/del" before, while and after it is on,
# and a namespace deleted while its logical device has a kernel client's
# objects (ipourma's).
set -eu
. "$UB_TOP/tests/guest/lib.sh"

PERFTEST=$UB_TOP/build/tools/urma_perftest/urma_perftest
NSS=(c1 c2 c3 c4 c5 c6)

cleanup() {
	local ns p
	for p in $(jobs -p); do
		kill "$p" 2>/dev/null || :
	done
	wait 2>/dev/null || :
	for ns in "${NSS[@]}"; do
		ip netns del "$ns" 2>/dev/null || :
	done
	ub_unload_stack || :
}
trap cleanup EXIT

# admin_fails ERRTEXT ARGS...: urma_admin exits 1 and says ERRTEXT.
admin_fails() {
	local want=$1 out rc=0
	shift
	out=$("$UB_ADMIN" "$@" 2>&1) || rc=$?
	[[ $rc == 1 && $out == *"$want"* ]] ||
		ub_fail "urma_admin $*: exit $rc, '$out'; want 1 and '$want'"
	echo "refused as it should be: urma_admin $*: ${out#urma_admin: }"
}

# ns_devs NS: the UB devices NS's sysfs shows, in NS_DEVS.
ns_devs() {
	NS_DEVS=$(ub_ns "$1" "$UB_BUSYBOX" sh -c 'cd /sys/class/ubcore && for d in *; do [ -L "$d" ] && echo "$d"; done' | tr '\n' ' ')
	NS_DEVS=${NS_DEVS% }
}

expect_ns_devs() {
	ns_devs "$1"
	[[ $NS_DEVS == "$2" ]] || ub_fail "namespace $1 shows UB devices '$NS_DEVS', want '$2'"
}

# eid_index EID: the index of EID in udma0's table (as the initial
# namespace sees it), in EID_IDX.
eid_index() {
	local f v
	for f in "$UB_CLASS"/udma0/eids/eid*; do
		read -r v < "$f"
		[[ $v == "$1" ]] && { EID_IDX=${f##*eid}; return 0; }
	done
	ub_fail "udma0 has no EID $1"
}

# wait_dmesg TEXT: until the kernel log says TEXT after the mark (10 s).
wait_dmesg() {
	local i
	for ((i = 0; i < 100; i++)); do
		ub_dmesg_since | grep -q "$1" && return 0
		ub_sleep 0.1
	done
	ub_fail "the kernel did not log '$1'"
}

ub_load_stack lo
ub_wait_eid udma0
ub_wait_eid udma0 && [[ -e $UB_CLASS/udma0/eids/eid1 ]] || ub_sleep 1
eid_index 127.0.0.1
EID4=$EID_IDX
eid_index ::1
EID6=$EID_IDX
"$UB_ADMIN" system show | grep -qx 'dev_sharing: off' || ub_fail "dev_sharing is not off at load"

echo "== manual mode: namespaces get no device until one is exposed"
for ns in c1 c2 c3; do
	ip netns add "$ns"
done
ip -n c1 link set lo up
expect_ns_devs c1 ""
"$UB_ADMIN" dev expose udma0 c1
"$UB_ADMIN" dev expose udma0 /var/run/netns/c2
expect_ns_devs c1 udma0
expect_ns_devs c2 udma0
expect_ns_devs c3 ""
expect_devs udma0
ub_ns c1 "$UB_ADMIN" show --dev udma0 --whole | grep -qx '  type: logical' ||
	ub_fail "c1's udma0 is not shown as logical"
"$UB_ADMIN" show --dev udma0 --whole | grep -qx '  type: physical' ||
	ub_fail "udma0 is not shown as physical"

echo "== each refusal"
admin_fails "File exists" dev expose udma0 c1
admin_fails "File exists" dev expose udma0 /proc/1/ns/net
admin_fails "No such file or directory: the device has no logical device" dev unexpose udma0 c3
admin_fails "cannot open network namespace /var/run/netns/nosuch" dev expose udma0 nosuch
admin_fails "not an open network namespace file" dev expose udma0 /etc/hostname
admin_fails "No such device" dev expose nosuch0 c3
out=$(ub_ns c1 "$UB_ADMIN" dev expose udma0 /proc/1/ns/net 2>&1) && ub_fail "a logical device was exposed: $out"
[[ $out == *"a logical device: name its physical device"* ]] || ub_fail "expose of a logical device: '$out'"
admin_fails "no EID at this index" eid set udma0 63 ns c1
out=$(setpriv --reuid=65534 --regid=65534 --clear-groups "$UB_ADMIN" dev expose udma0 c3 2>&1) &&
	ub_fail "nobody exposed a device: $out"
[[ $out == *"Operation not permitted"* ]] || ub_fail "nobody's expose: '$out'"
out=$(setpriv --reuid=65534 --regid=65534 --clear-groups "$UB_ADMIN" system set dev_sharing on 2>&1) &&
	ub_fail "nobody turned sharing on: $out"
[[ $out == *"Operation not permitted"* ]] || ub_fail "nobody's dev_sharing: '$out'"
expect_ns_devs c3 ""

echo "== EIDs given to namespaces: c1 has $EID4 (127.0.0.1), c2 $EID6 (::1)"
"$UB_ADMIN" eid set udma0 "$EID4" ns c1
"$UB_ADMIN" eid set udma0 "$EID6" ns c2
[[ ! -e $UB_CLASS/udma0/eids/eid$EID4 && ! -e $UB_CLASS/udma0/eids/eid$EID6 ]] ||
	ub_fail "the physical udma0 still shows the EIDs it gave away"
ub_ns c1 "$UB_BUSYBOX" cat "$UB_CLASS/udma0/eids/eid$EID4" | grep -qx 127.0.0.1 ||
	ub_fail "c1's udma0 does not show 127.0.0.1"
ub_ns c1 "$UB_BUSYBOX" test -e "$UB_CLASS/udma0/eids/eid$EID6" && ub_fail "c1 sees c2's EID"
ub_ns c2 "$UB_ADMIN" show --dev udma0 --whole | grep -q '::1' || ub_fail "c2's udma0 does not list ::1"
ub_ns c2 "$UB_ADMIN" show --dev udma0 --whole | grep -q '127.0.0.1' && ub_fail "c2 lists c1's EID"

echo "== isolation: sysfs, netlink, /dev/uburma"
inum1=$(stat -L -c %i /var/run/netns/c1)
inum2=$(stat -L -c %i /var/run/netns/c2)
[[ -c /dev/uburma/udma0@$inum1 && -c /dev/uburma/udma0@$inum2 && -c /dev/uburma/udma0 ]] ||
	ub_fail "the char devices are not udma0, udma0@$inum1 and udma0@$inum2: $(ls /dev/uburma)"
out=$(ub_ns c3 "$UB_ADMIN" show --dev udma0 2>&1) && ub_fail "c3 sees udma0 by netlink: $out"
[[ $out == *"No such device"* ]] || ub_fail "c3's show: '$out'"
ub_ns c3 "$UB_ADMIN" system show | grep -qx 'dev_count: 0' || ub_fail "c3 counts devices"
# open() from another namespace: python's errno, no exec of a helper each
python3 - "$inum1" "$inum2" <<'PY' || ub_fail "an open across namespaces succeeded"
import errno, os, sys
i1, i2 = sys.argv[1:3]
def refused(ns, node):
    fd = os.open(f"/var/run/netns/{ns}", os.O_RDONLY)
    os.setns(fd, os.CLONE_NEWNET) if hasattr(os, "setns") else __import__("ctypes").CDLL(None, use_errno=True).setns(fd, 0x40000000)
    os.close(fd)
    try:
        os.close(os.open(node, os.O_RDWR))
        return False
    except OSError as e:
        return e.errno == errno.EPERM
ok = refused("c1", f"/dev/uburma/udma0@{i2}") and refused("c2", f"/dev/uburma/udma0@{i1}") \
    and refused("c3", "/dev/uburma/udma0") and refused("c3", f"/dev/uburma/udma0@{i1}")
print("open refused (EPERM) from c1, c2 and c3 for the others' nodes" if ok else "an open was not refused")
sys.exit(0 if ok else 1)
PY
# a context on the EID of the other namespace: c2's udma0 has no EID at c1's index
out=$(ub_ns c2 "$PERFTEST" write_lat -d udma0 --eid_idx "$EID4" -S 127.0.0.1 -n 5 2>&1) &&
	ub_fail "c2 made a context on c1's EID: $out"
[[ $out == *"EID index $EID4"* ]] || ub_fail "c2's context on c1's EID failed otherwise: $out"
echo "refused as it should be: a context in c2 on c1's EID index $EID4: ${out##*$'\n'}"

echo "== a URMA exchange between c1 and c2 through their logical devices"
ip link add n1 type veth peer name n2
ip link set n1 netns c1
ip link set n2 netns c2
ip -n c1 addr add 10.88.0.1/24 dev n1
ip -n c1 link set n1 up
ip -n c2 link set lo up
ip -n c2 addr add 10.88.0.2/24 dev n2
ip -n c2 link set n2 up
for op in write_bw send_bw read_bw; do
	ip netns exec c1 "$PERFTEST" "$op" -d udma0 --eid_idx "$EID4" -s 65536 -n 64 --check > /tmp/srv.log 2>&1 &
	srv=$!
	ub_wait_listen 21115 60 "$srv" || { cat /tmp/srv.log; ub_fail "$op server"; }
	if [[ $op == write_bw ]]; then
		# the server's context holds EID $EID4: in use
		admin_fails "EID in use" eid set udma0 "$EID4" ns c3
	fi
	ub_ns c2 "$PERFTEST" "$op" -d udma0 --eid_idx "$EID6" -S 10.88.0.1 -s 65536 -n 64 --check ||
		{ cat /tmp/srv.log; ub_fail "$op between c2 and c1"; }
	wait "$srv" || { cat /tmp/srv.log; ub_fail "$op server"; }
done

echo "== a logical device deleted under a live process"
ip netns exec c2 "$PERFTEST" write_bw -d udma0 --eid_idx "$EID6" -s 65536 -n 64 > /tmp/srv.log 2>&1 &
srv=$!
ub_wait_listen 21115 60 "$srv" || ub_fail "server in c2"
ub_ns c2 "$UB_BUSYBOX" cat "$UB_CLASS/udma0/objects/ucontext" | grep -qx 1 ||
	ub_fail "the server has no context on c2's udma0"
ub_dmesg_mark
"$UB_ADMIN" dev unexpose udma0 c2
expect_ns_devs c2 ""
[[ -e $UB_CLASS/udma0/eids/eid$EID6 ]] || ub_fail "::1 did not go back to the physical udma0"
kill "$srv" 2>/dev/null || :
wait "$srv" 2>/dev/null || :
ub_dmesg_since | grep -q "objects left\|leak" && ub_fail "objects left behind: $(ub_dmesg_since)"
"$UB_ADMIN" dev expose udma0 c2
ub_ns c2 "$UB_BUSYBOX" test -e "$UB_CLASS/udma0/eids/eid$EID6" &&
	ub_fail "c2's new logical device has ::1, which went back to udma0"

echo "== dev set ns: udma0 to c3 and back"
admin_fails "a device of that name is in the namespace already" dev set udma0 ns c1
"$UB_ADMIN" dev set udma0 ns c3
expect_devs ""
expect_ns_devs c3 udma0
ub_ns c3 "$UB_BUSYBOX" test -c /dev/uburma/udma0 || ub_fail "no /dev/uburma/udma0 after the move"
ub_ns c3 "$UB_ADMIN" show --dev udma0 --whole | grep -q '::1' || ub_fail "udma0 lost ::1 in c3"
ip netns exec c3 "$PERFTEST" write_lat -d udma0 --eid_idx "$EID6" -n 5 -s 8 > /tmp/srv.log 2>&1 &
srv=$!
ub_wait_listen 21115 60 "$srv" || ub_fail "server in c3"
out=$(ub_ns c3 "$UB_ADMIN" dev set udma0 ns /proc/1/ns/net 2>&1) && ub_fail "udma0 moved while in use: $out"
[[ $out == *"in use"* ]] || ub_fail "move in use: '$out'"
kill "$srv" && wait "$srv" 2>/dev/null || :
ub_ns c3 "$UB_ADMIN" dev set udma0 ns /proc/1/ns/net
expect_devs udma0
expect_ns_devs c3 ""

echo "== automatic mode"
ip netns add c4
expect_ns_devs c4 ""
"$UB_ADMIN" system set dev_sharing on
"$UB_ADMIN" system show | grep -qx 'dev_sharing: on' || ub_fail "dev_sharing is not on"
for ns in c1 c2 c3 c4; do
	expect_ns_devs "$ns" udma0
done
ip netns add c5
expect_ns_devs c5 udma0
# a physical device registered while sharing is on, and removed
ip link add v0 type veth peer name v1
"$UB_ADMIN" dev add udmaX netdev v0
expect_ns_devs c5 "udma0 udmaX"
expect_ns_devs c3 "udma0 udmaX"
"$UB_ADMIN" dev del udmaX
ip link del v0
expect_ns_devs c3 udma0
inum5=$(stat -L -c %i /var/run/netns/c5)
ub_dmesg_mark
ip netns del c5
wait_dmesg "logical device in namespace $inum5 deleted"
"$UB_ADMIN" system set dev_sharing off
ip netns add c5
expect_ns_devs c5 ""
ub_dmesg_mark
inum4=$(stat -L -c %i /var/run/netns/c4)
ip netns del c4
wait_dmesg "logical device in namespace $inum4 deleted"

echo "== a namespace deleted while its logical device has live (kernel) objects"
# ipourma, a kernel client, makes a netdev and queues on every device,
# logical ones too, in the device's namespace
ub_insmod "$UB_KMOD/ipourma/ipourma.ko"
ip netns add c6
"$UB_ADMIN" dev expose udma0 c6
ub_ns c6 "$UB_BUSYBOX" test -e /sys/class/net/ipourma0 || ub_fail "no ipourma0 on c6's logical udma0"
# its JFCs and JFS are there from the start (jetties come per EID)
ip -n c6 link set ipourma0 up
ub_ns c6 "$UB_BUSYBOX" cat "$UB_CLASS/udma0/objects/jfs" | grep -qvx 0 ||
	ub_fail "ipourma holds no JFS on c6's udma0"
inum6=$(stat -L -c %i /var/run/netns/c6)
ub_dmesg_mark
ip netns del c6
wait_dmesg "logical device in namespace $inum6 deleted"
ub_rmmod ipourma

ip netns del c1
for ((i = 0; i < 100; i++)); do
	[[ -e $UB_CLASS/udma0/eids/eid$EID4 ]] && break
	ub_sleep 0.1
done
[[ -e $UB_CLASS/udma0/eids/eid$EID4 ]] || ub_fail "127.0.0.1 did not come back when c1 went"
echo "logical devices: manual and automatic modes, isolation, exchange, refusals: all as expected"
