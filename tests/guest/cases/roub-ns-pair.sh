#!/bin/bash
# RoUB (roub.ko) between the two hosts of lib.sh's namespace pair: udmaA in
# uboeA, udmaB in uboeB, every URMA message a UBoE packet on the veth.
# roub.ko gives each UB device an ib_device, roub_udmaA and roub_udmaB;
# roub_ktest.ko drives kernel verbs on both (one kernel sees both devices)
# and reports through its load's return value and "roub_ktest:" lines.
#
# Checked: the ib_devices come and go with their UB devices; their GIDs
# are the EIDs and follow an address added to the netdev; ROUB_RC_MODE
# takes RS and RM (first two characters, any case) and refuses the rest;
# roub_ktest's verbs phase (every supported verb with its data, the
# refused limits, QP error and flush) in RS and in RM mode, with no UB
# object left afterwards; then WRITEs from A to B while udmaB is removed:
# B's objects go with its device, A's QP fails and completes its work,
# and unloading leaves nothing on udmaA.
set -eu
. "$UB_TOP/tests/guest/lib.sh"

A=$UB_NS_A B=$UB_NS_B
ktest=$UB_KMOD/roub/roub_ktest.ko
param=/sys/module/roub/parameters/ROUB_RC_MODE
ibdir=/sys/class/infiniband

cleanup() {
	ub_unload_stack || true
	ub_nspair_destroy
}
trap cleanup EXIT

# expect_log TEXT: the kernel log since ub_dmesg_mark has TEXT.
expect_log() {
	local log
	log=$(ub_dmesg_since)
	[[ $log == *"$1"* ]] || { echo "$log"; ub_fail "no \"$1\" in the kernel log"; }
}

# gid_hex ADDR: the sysfs spelling of an IPv6 address as a GID, in GID.
gid_hex() {
	GID=$(python3 -c 'import ipaddress, sys
print(ipaddress.ip_address(sys.argv[1]).exploded)' "$1")
}

# has_gid IBDEV GID: a GID of IBDEV's port 1 is GID.
has_gid() {
	local f v
	for f in "$ibdir/$1"/ports/1/gids/*; do
		read -r v < "$f"
		[[ $v == "$2" ]] && return 0
	done
	return 1
}

[[ -d /sys/module/ib_core ]] || modprobe ib_core
ub_nspair_create
ub_load_stack
ub_nspair_add_devs
ub_insmod "$UB_KMOD/roub/roub.ko"
for d in "roub_$UB_DEV_A" "roub_$UB_DEV_B"; do
	[[ -d $ibdir/$d ]] || ub_fail "no ib_device $d"
done
read -r max_jetty < <(ub_ns "$A" "$UB_BUSYBOX" cat "$UB_CLASS/$UB_DEV_A/max_jetty")

echo "GIDs are the EIDs"
gid_hex "$UB_IP6_A"
has_gid "roub_$UB_DEV_A" "$GID" || ub_fail "no GID $GID on roub_$UB_DEV_A"
gid_hex "::ffff:$UB_IP4_B"
has_gid "roub_$UB_DEV_B" "$GID" || ub_fail "no GID $GID on roub_$UB_DEV_B"
echo "an address added to vA becomes a GID"
ip -n "$A" addr add fd77::99/64 dev "$UB_VETH_A" nodad
gid_hex fd77::99
for ((i = 0; i < 100; i++)); do
	has_gid "roub_$UB_DEV_A" "$GID" && break
	ub_sleep 0.1
done
has_gid "roub_$UB_DEV_A" "$GID" || ub_fail "fd77::99 is no GID of roub_$UB_DEV_A"
ip -n "$A" addr del fd77::99/64 dev "$UB_VETH_A"

echo "ROUB_RC_MODE"
read -r mode < "$param"
[[ $mode == RS ]] || ub_fail "ROUB_RC_MODE is $mode by default"
echo rmX > "$param"
read -r mode < "$param"
[[ $mode == RM ]] || ub_fail "ROUB_RC_MODE rmX gave $mode"
if echo RC > "$param" 2> /dev/null; then ub_fail "ROUB_RC_MODE RC taken"; fi

for mode in RS RM; do
	echo "verbs, ROUB_RC_MODE=$mode"
	echo "$mode" > "$param"
	ub_dmesg_mark
	ub_insmod "$ktest" max_jetty="$max_jetty" ||
		{ ub_dmesg_since; ub_fail "roub_ktest (verbs, $mode) failed"; }
	expect_log "roub_ktest: PASS verbs"
	ub_dmesg_since | grep 'roub_ktest: ok'
	ub_rmmod roub_ktest
	ub_dev_clean "$A" "$UB_DEV_A" || ub_fail "$UB_DEV_A has objects left"
	ub_dev_clean "$B" "$UB_DEV_B" || ub_fail "$UB_DEV_B has objects left"
done
echo RS > "$param"

echo "udmaB removed under traffic"
ub_dmesg_mark
ub_insmod "$ktest" phase=traffic || { ub_dmesg_since; ub_fail "traffic set-up"; }
expect_log "roub_ktest: traffic started"
ub_sleep 2
ub_ns "$B" "$UB_ADMIN" dev del "$UB_DEV_B"
[[ ! -e $ibdir/roub_$UB_DEV_B ]] || ub_fail "roub_$UB_DEV_B outlived $UB_DEV_B"
for ((i = 0; i < 300; i++)); do
	[[ $(ub_dmesg_since) == *"roub_ktest: traffic stopped"* ]] && break
	ub_sleep 0.1
done
expect_log "roub_ktest: B's device roub_$UB_DEV_B goes"
expect_log "roub_ktest: traffic stopped"
ub_dmesg_since | grep 'roub_ktest: traffic'
ub_rmmod roub_ktest
ub_dev_clean "$A" "$UB_DEV_A" || ub_fail "$UB_DEV_A has objects left"
ub_rmmod roub
[[ ! -e $ibdir/roub_$UB_DEV_A ]] || ub_fail "roub_$UB_DEV_A outlived roub.ko"
echo "roub-ns-pair: ok"
